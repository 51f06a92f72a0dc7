//! The conformance corpus as named trials: one libtest trial per case,
//! checked against the reference implementation.
//!
//! Trials are named by case id (`slug#hash`); filter like any test:
//! `cargo test --test corpus -- klein-9x18/`.

use libtest_mimic::{Arguments, Failed, Trial};
use seams::conformance::{Corpus, Outcome, check_on_reference};
use seams::spec::Library;

fn main() {
    let args = Arguments::from_args();
    let corpus = match Corpus::from_dir(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/conformance/cases"
    ))) {
        Ok(c) => c,
        Err(e) => {
            // A corpus that does not load is one failing trial, not a panic.
            let msg = e.to_string();
            let trial = Trial::test("corpus/loads", move || Err(Failed::from(msg)));
            libtest_mimic::run(&args, vec![trial]).exit();
        }
    };
    let trials = corpus
        .cases
        .into_iter()
        .map(|(file, case)| {
            let name = case.id.clone();
            let kind = case.provenance.kind();
            Trial::test(name, move || {
                match check_on_reference(&case, Library::builtin()) {
                    Outcome::Pass => Ok(()),
                    Outcome::Fail {
                        expected,
                        actual,
                        detail,
                        ..
                    } => Err(
                        format!("{file}: {detail}\nexpected: {expected}\nactual:   {actual}")
                            .into(),
                    ),
                    // The reference must answer every case in the corpus: a
                    // case about a variant nobody registered is an error here.
                    Outcome::Unsupported(why) => {
                        Err(format!("{file}: the reference cannot answer: {why}").into())
                    }
                    Outcome::Error { kind, message } => Err(format!(
                        "{file}: the case cannot be asked ({}): {message}",
                        kind.name()
                    )
                    .into()),
                    Outcome::NotRun(why) => Err(format!("{file}: {why}").into()),
                }
            })
            .with_kind(kind)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
