//! The shipped variants: every family built on a board library (the
//! built-in spec, an edited copy, or one with a geometry mutant), and the
//! built-in ones built once and found by name.

use std::sync::OnceLock;

use crate::variant::{Variant, VariantError};

/// Every shipped variant, built once from the embedded spec.
pub fn variants() -> &'static [Box<dyn Variant>] {
    static ALL: OnceLock<Vec<Box<dyn Variant>>> = OnceLock::new();
    ALL.get_or_init(|| {
        build_all(crate::spec::Library::builtin())
            .expect("the embedded variant data is validated by the test suite")
    })
}

/// Every family's variants built on the boards of `lib`: the registry uses
/// the built-in spec; mutant engines use a library with one rule broken.
pub fn build_all(lib: &crate::spec::Library) -> Result<Vec<Box<dyn Variant>>, String> {
    let mut all: Vec<Box<dyn Variant>> = Vec::new();
    let shogi = crate::shogi::variants_from_files(&crate::shogi::builtin_files(), lib)
        .map_err(|e| e.to_string())?;
    all.extend(shogi.into_iter().map(|v| Box::new(v) as Box<dyn Variant>));
    for (file, text) in crate::chess::builtin_files() {
        let v =
            crate::chess::ChessRules::from_file(&file, &text, lib).map_err(|e| e.to_string())?;
        all.push(Box::new(v));
    }
    let tetra = crate::tetra::variants_on(lib).map_err(|e| e.to_string())?;
    all.extend(tetra.into_iter().map(|v| Box::new(v) as Box<dyn Variant>));
    let kyoto = crate::kyoto::variants_on(lib).map_err(|e| e.to_string())?;
    all.extend(kyoto.into_iter().map(|v| Box::new(v) as Box<dyn Variant>));
    Ok(all)
}

/// Looks a variant up by name among the shipped ones.
pub fn find(name: &str) -> Result<&'static dyn Variant, VariantError> {
    let all: Vec<&'static dyn Variant> = variants().iter().map(|v| v.as_ref()).collect();
    crate::variant::find_in(&all, name)
}
