//! The targets of the files of `spec/`: board files, each family's variant
//! files and the clauses of a rules text.
//!
//! Apart because these are files loaded by label, whose errors must name
//! the file first, and a family's data is judged by what it builds.

use super::{at, fingerprint, labelled, replay};
use crate::spec::Library;
use crate::variant::Variant;

/// A board file (`spec/boards/*.toml`) loaded as the only file of a
/// library; a loaded chart board's invariants are computed too.
///
/// Asserts: an error names the file and an entry, with a bounded message.
pub fn board_file(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/boards/fuzz.toml";
    let text = String::from_utf8_lossy(data).into_owned();
    match Library::from_files(vec![(LABEL.to_string(), text)]) {
        Ok(lib) => {
            for name in lib.board_names() {
                let geo = lib.geometry(name).expect("a loaded board has geometry");
                crate::topology::mesh::invariants(geo.board());
            }
            for name in lib.solid_names() {
                lib.solid(name).expect("a loaded solid").facts();
            }
            fingerprint(&["ok"])
        }
        Err(e) => {
            let message = e.to_string();
            labelled(LABEL, &message);
            if let crate::spec::SpecError::Board(b) = &e {
                assert!(!b.entry.trim().is_empty(), "no entry named: {message}");
                return fingerprint(&["board", &format!("{:?}", b.kind), &b.message]);
            }
            fingerprint(&["spec", &message])
        }
    }
}

/// A surface shogi variant file (`spec/shogi/*.toml`) on the built-in
/// boards. See [`check_family_data`] for what is asserted.
pub fn shogi_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/shogi/fuzz.toml";
    let files = [(
        LABEL.to_string(),
        String::from_utf8_lossy(data).into_owned(),
    )];
    let built = crate::shogi::variants_from_files(&files, Library::builtin());
    check_family_data(LABEL, built.map(boxed).map_err(|e| e.to_string()))
}

/// A surface chess variant file (`spec/chess/*.toml`) on the built-in
/// boards. See [`check_family_data`].
pub fn chess_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/chess/fuzz.toml";
    let text = String::from_utf8_lossy(data);
    let built = crate::chess::ChessRules::from_file(LABEL, &text, Library::builtin());
    check_family_data(
        LABEL,
        built.map(|v| boxed(vec![v])).map_err(|e| e.to_string()),
    )
}

/// A tetrahedral variant file (`spec/tetra/*.toml`) on the built-in
/// boards. See [`check_family_data`].
pub fn tetra_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/tetra/fuzz.toml";
    let files = [(
        LABEL.to_string(),
        String::from_utf8_lossy(data).into_owned(),
    )];
    let built = crate::tetra::variants_from_files(&files, Library::builtin());
    check_family_data(LABEL, built.map(boxed).map_err(|e| e.to_string()))
}

/// A Kyoto variant file (`spec/kyoto/*.toml`) on the built-in boards. See
/// [`check_family_data`].
pub fn kyoto_data(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/kyoto/fuzz.toml";
    let files = [(
        LABEL.to_string(),
        String::from_utf8_lossy(data).into_owned(),
    )];
    let built = crate::kyoto::variants_from_files(&files, Library::builtin());
    check_family_data(LABEL, built.map(boxed).map_err(|e| e.to_string()))
}

/// A rules text (`spec/*/rules.md`) read for its clauses.
///
/// Asserts: every clause found has a clause number as its id; a clause
/// printed as `**id** summary` reads back as itself; [`crate::spec::clause_order`]
/// is antisymmetric on the ids found.
pub fn clauses(data: &[u8]) -> u64 {
    const LABEL: &str = "spec/fuzz/rules.md";
    let text = String::from_utf8_lossy(data);
    let found = crate::spec::parse_clauses(LABEL, &text);
    for c in &found {
        assert!(
            crate::spec::is_clause_id(&c.id),
            "'{}' is not a clause id",
            c.id
        );
        let line = format!("**{}** {}", c.id, c.summary);
        let back = crate::spec::parse_clauses(LABEL, &line);
        assert_eq!(
            back.as_slice(),
            std::slice::from_ref(c),
            "printed as {line:?}"
        );
    }
    for pair in found.windows(2) {
        let (a, b) = (&pair[0].id, &pair[1].id);
        assert_eq!(
            crate::spec::clause_order(a, b),
            crate::spec::clause_order(b, a).reverse(),
            "clause order of '{a}' and '{b}'"
        );
    }
    fingerprint(&["clauses", &found.len().min(3).to_string()])
}

fn boxed<V: Variant + 'static>(vs: Vec<V>) -> Vec<Box<dyn Variant>> {
    vs.into_iter()
        .map(|v| Box::new(v) as Box<dyn Variant>)
        .collect()
}

/// What every family data target asserts: an error names the file, with a
/// bounded message; a built variant's start position prints as a text
/// that reads back the same, and its legal actions can be listed.
fn check_family_data(label: &str, built: Result<Vec<Box<dyn Variant>>, String>) -> u64 {
    match built {
        Ok(variants) => {
            for v in &variants {
                let start = v.start_position();
                let played = replay(v.as_ref(), &start, "the start position");
                assert_eq!(
                    played.position,
                    start,
                    "{}: the start reads back differently",
                    v.name()
                );
                v.legal_actions(&at(None))
                    .unwrap_or_else(|e| panic!("{}: legal actions at the start: {e}", v.name()));
            }
            fingerprint(&["ok", &variants.len().to_string()])
        }
        Err(message) => {
            labelled(label, &message);
            fingerprint(&["error", &message])
        }
    }
}
