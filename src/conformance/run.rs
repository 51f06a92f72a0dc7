//! Running the corpus against an engine: the one entry point that
//! `seams conform`, the Rust kit and the corpus tests go through.

use super::case::Case;
use super::engine::Embedded;
use super::reference::Reference;
use super::runner::{self, Outcome};
use crate::registry;
use crate::spec::Library;
use crate::variant::Variant;

/// Checks one case against the built-in reference (library `lib` and the
/// registry), through the same runner every engine goes through.
pub fn check_on_reference(case: &Case, lib: &Library) -> Outcome {
    let reference = Reference::new(
        lib,
        registry::variants().iter().map(|v| v.as_ref()).collect(),
    );
    let mut engine = Embedded::new(reference);
    // Compare position texts by meaning, as `seams conform` does, so an
    // equivalent spelling in a case (`[-]` for an empty hand) passes.
    let normalizers: Vec<&dyn Variant> = registry::variants().iter().map(|v| v.as_ref()).collect();
    runner::check_case(&mut engine, case, &normalizers)
}
