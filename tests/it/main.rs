//! The integration tests, one module per area, gathered into one test
//! binary: each test file used to be a binary of its own, and 33 release
//! binaries, each linking the crate and every dependency, took most of the
//! time `cargo test --release` spent building. The trials that need a
//! harness of their own (the corpus, the fuzz targets, the ones that need
//! Python or Chromium) are `tests/corpus.rs`, `tests/fuzz_targets.rs` and
//! `tests/external/`.

#[path = "../common/mod.rs"]
mod common;

mod algebra;
mod analysis;
mod arrows;
mod audit;
mod board_files;
mod change_report;
mod chess;
mod ci_workflows;
mod cli;
mod cli_spec;
mod cross_check;
mod derived_tables;
mod differential;
mod editor;
mod fuzz_command;
mod fuzz_shards;
mod html_report;
mod kit;
mod kyoto;
mod limits;
mod movement;
mod new_pieces;
mod opponent;
mod perft_md;
mod perft_threads;
mod pipelining;
mod play;
mod protocol_doc;
mod render;
mod render_ghosts;
mod runner;
mod serve;
mod shards;
mod shogi;
mod spec;
mod spec_html;
mod spec_workflow;
mod tetra;
mod tidy;
mod tools_mutants;
mod topology;
mod transcripts;
mod wedge;
mod wording;
