//! seams: the reference implementation and conformance suite for chess and
//! shogi on boards that are not flat planes.
//!
//! The modules form layers, each using only those below it (ARCHITECTURE.md
//! has the table, which `tests/it/tidy.rs` holds against the imports):
//!
//! - support: [`quote`], [`names`], [`files`], [`checks`], [`shard`];
//! - boards: [`topology`], [`geometry`], [`movement`], and [`spec`], the
//!   rules data of `spec/` as a library of boards;
//! - [`rules`]: the `Rules` trait every family implements, games, and the
//!   capability data its hooks return (pictures, audit and design facts);
//!   [`values`], the piece values the opponent reads;
//! - the families: [`shogi`], [`chess`], [`kyoto`], [`tetra`];
//! - machinery written once over `Rules`: [`opponent`], [`audit`],
//!   [`design`], [`placement`], [`record`], [`walk`], [`session`];
//! - [`variant`]: every family seen through text; [`registry`]: the shipped
//!   variants; [`mutants`]: deliberately wrong engines the corpus must
//!   catch;
//! - [`render`]: pictures; [`conformance`]: the corpus, the protocol, the
//!   runner and its one entry point, and `seams fuzz`;
//! - [`draft`]: rules drafts; [`fuzz_targets`]: one fuzz target per parser
//!   of outside input; [`serve`]: the web app.

pub mod audit;
pub mod checks;
pub mod chess;
pub mod conformance;
pub mod design;
pub mod draft;
pub mod files;
pub mod fuzz_targets;
pub mod geometry;
pub mod grammar;
pub mod kyoto;
pub mod movement;
pub mod mutants;
pub mod names;
pub mod opponent;
pub mod placement;
pub mod quote;
pub mod record;
pub mod registry;
pub mod render;
pub mod rules;
pub mod serve;
pub mod session;
pub mod shard;
pub mod shogi;
pub mod spec;
pub mod tetra;
pub mod topology;
pub mod values;
pub mod variant;
pub mod walk;
