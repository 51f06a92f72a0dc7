//! The conformance corpus: case format, loading, and checking cases against
//! the reference implementation.
//!
//! A corpus file (`conformance/cases/**/*.json`) holds a list of [`Case`]s.
//! Every case names what it pins (clauses, worked example), where its expected
//! answer comes from ([`Provenance`]), and a typed [`Check`]: a question plus
//! the expected answer. [`runner`] asks any [`engine::Engine`] the question
//! over the JSON-lines [`protocol`] and compares; [`reference`] is this
//! crate's own engine. The format is specified in `conformance/README.md`.

pub mod bisect;
pub mod case;
pub mod corpus;
pub mod coverage;
pub mod engine;
pub mod expectations;
pub mod fuzz;
pub mod html;
pub mod id;
pub mod kit;
pub mod merge;
pub mod protocol;
pub mod reference;
pub mod report;
pub mod run;
pub mod runner;
pub mod schema;
pub mod serve;
pub mod version;

pub use case::{Case, CaseFile, Check, Provenance, Tier};
pub use corpus::{Corpus, CorpusError, Rehashed, parse_file, rehash_dir};
pub use engine::ErrorKind;
pub use run::check_on_reference;
pub use runner::Outcome;
