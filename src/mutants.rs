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
    Mutation::ALL
        .into_iter()
        .map(|m| Mutant {
            name: m.name(),
            description: m.description(),
            kind: MutantKind::Geometry(m),
        })
        .collect()
}

/// An unknown mutant name.
#[derive(Debug, thiserror::Error)]
#[error("unknown mutant '{name}' (known: {known})")]
pub struct UnknownMutant {
    pub name: String,
    pub known: String,
}

/// Looks a mutant up by name.
pub fn find(name: &str) -> Result<Mutant, UnknownMutant> {
    let all = all();
    all.iter()
        .find(|m| m.name == name)
        .copied()
        .ok_or_else(|| UnknownMutant {
            name: name.to_string(),
            known: all.iter().map(|m| m.name).collect::<Vec<_>>().join(", "),
        })
}
