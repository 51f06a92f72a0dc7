//! seams: the reference implementation and conformance suite for chess and
//! shogi on boards that are not flat planes.
//!
//! Layers, from the bottom: [`topology`] (boards as glued square complexes,
//! loaded from `spec/boards/`), [`geometry`] (diagonal and knight step tables
//! derived once per board), [`movement`] (facing, rays, leaps), and
//! [`conformance`] (the corpus case format, the engine protocol, the runner
//! that checks any engine against the corpus, and the reference engine).
//! [`mutants`] names deliberately wrong engines the corpus must catch.
//! [`session`] is a game being played (the terminal and web front ends);
//! [`opponent`] is the practice opponent, a small search over [`rules`],
//! reading the piece values of [`values`].
//! [`placement`] edits position texts cell by cell for the position editor.
//! [`spec`] embeds the rules data. [`fuzz`] holds one fuzz target per parser
//! of outside input. See ARCHITECTURE.md for the codemap.

pub mod audit;
pub mod chess;
pub mod conformance;
pub mod design;
pub mod draft;
pub mod files;
pub mod fuzz_targets;
pub mod geometry;
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
pub mod shogi;
pub mod spec;
pub mod tetra;
pub mod topology;
pub mod values;
pub mod variant;
pub mod walk;
