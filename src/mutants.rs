//! Named mutants: deliberately wrong engines that `seams engine --mutant
//! NAME` serves, so the corpus can be shown to catch each mistake.
//!
//! A mutant either replaces one geometric rule ([`MutantKind::Geometry`],
//! built with [`Geometry::new_mutated`](crate::geometry::Geometry::new_mutated))
//! or replaces the served variants with wrong ones
//! ([`MutantKind::Variants`]). Rule families add their mutants (nifu,
//! en passant, …) by appending entries to [`all`] with a `Variants`
//! constructor; nothing else needs to change.

use crate::geometry::Mutation;
use crate::variant::Variant;

/// What a mutant changes.
#[derive(Clone, Copy)]
pub enum MutantKind {
    /// One geometric rule, applied to every board of the library.
    Geometry(Mutation),
    /// The variants served instead of the registry's.
    Variants(fn() -> Vec<Box<dyn Variant>>),
}

/// One named mutant.
#[derive(Clone, Copy)]
pub struct Mutant {
    pub name: &'static str,
    pub description: &'static str,
    pub kind: MutantKind,
}

/// Every mutant, geometry first.
pub fn all() -> Vec<Mutant> {
    let mut out: Vec<Mutant> = Mutation::ALL
        .into_iter()
        .map(|m| Mutant {
            name: m.name(),
            description: m.description(),
            kind: MutantKind::Geometry(m),
        })
        .collect();
    out.extend([
        Mutant {
            name: "nifu-one-sheet",
            description: "surface shogi: nifu counts only pawns on the same sheet, \
                          not the whole file cycle across both sheets",
            kind: MutantKind::Variants(nifu_one_sheet),
        },
        Mutant {
            name: "en-passant-by-neighbour",
            description: "surface chess: the en-passant cell is guessed as the chart \
                          neighbour behind the pawn, not the recorded middle of its route",
            kind: MutantKind::Variants(en_passant_by_neighbour),
        },
        Mutant {
            name: "kyoto-flip-on-drop",
            description: "Kyoto shogi: a dropped token is turned over as if it had moved",
            kind: MutantKind::Variants(kyoto_flip_on_drop),
        },
    ]);
    out
}

/// The registry's variants with one family's variants replaced.
fn replacing(family: &str, make: impl Fn() -> Vec<Box<dyn Variant>>) -> Vec<Box<dyn Variant>> {
    let mut out = make();
    let lib = crate::spec::Library::builtin();
    for v in crate::registry::build_all(lib).expect("the embedded data is valid") {
        if !v.name().starts_with(family) {
            out.push(v);
        }
    }
    out
}

fn nifu_one_sheet() -> Vec<Box<dyn Variant>> {
    replacing("shogi-", || {
        crate::shogi::builtin_variants()
            .into_iter()
            .map(|v| Box::new(v.mutant_nifu_per_sheet()) as Box<dyn Variant>)
            .collect()
    })
}

fn en_passant_by_neighbour() -> Vec<Box<dyn Variant>> {
    replacing("chess-", || {
        crate::chess::builtin_variants()
            .into_iter()
            .map(|v| Box::new(v.mutant_en_passant_by_neighbour()) as Box<dyn Variant>)
            .collect()
    })
}

fn kyoto_flip_on_drop() -> Vec<Box<dyn Variant>> {
    replacing("kyoto", || {
        crate::kyoto::builtin_variants()
            .into_iter()
            .map(|v| Box::new(v.mutant_flip_on_drop()) as Box<dyn Variant>)
            .collect()
    })
}

/// An unknown mutant name.
#[derive(Debug, thiserror::Error)]
#[error("unknown mutant '{}' ({known})", crate::quote::excerpt(.name))]
pub struct UnknownMutant {
    pub name: String,
    pub known: crate::names::Known,
}

/// Looks a mutant up by name.
pub fn find(name: &str) -> Result<Mutant, UnknownMutant> {
    let all = all();
    all.iter()
        .find(|m| m.name == name)
        .copied()
        .ok_or_else(|| UnknownMutant {
            name: name.to_string(),
            known: crate::names::Known::new(name, all.iter().map(|m| m.name)),
        })
}
