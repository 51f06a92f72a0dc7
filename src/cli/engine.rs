//! `seams engine` (the reference, a mutant or a faulty engine served on
//! standard input and output; the loop is `conformance::serve`) and `seams
//! mutants`.

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use seams::conformance::case::Check;
use seams::conformance::reference::Reference;
use seams::conformance::serve::{self, Fault, Faulty, Served};
use seams::mutants::{self, MutantKind};
use seams::names::Known;
use seams::spec::Library;
use seams::variant::Variant;

use super::Rulebook;
use super::out::{Align, Table};

#[derive(clap::Args)]
pub struct EngineArgs {
    /// Serve a deliberately wrong engine (see `seams mutants`).
    #[arg(long, value_name = "NAME")]
    mutant: Option<String>,
    /// Misbehave on purpose, to test runners: crash (exit without
    /// replying), hang (never reply), garbage (reply with a non-JSON
    /// line), wrong-id (reply with another id), wrong-shape (an `ok`
    /// reply whose fields have the wrong shape), bad-hello (a hello reply
    /// without its fields), no-hello (never answer hello), fork-exit
    /// (leave a child holding stdout and exit), close-stdout (close stdout
    /// and stay alive), bad-stderr (1 MiB of non-UTF-8 on stderr, then a
    /// good reply) or huge-reply (a 100 MiB reply line).
    #[arg(long, value_enum, value_name = "KIND")]
    fault: Option<Fault>,
    /// Only misbehave on geometry questions of this check kind (e.g.
    /// `walk`); by default on every request after hello.
    #[arg(long, value_name = "CHECK", requires = "fault")]
    fault_on: Option<String>,
}

/// `seams engine`: the reference (or a mutant, or a faulty one) on stdio.
pub fn engine(book: &Rulebook, a: EngineArgs) -> Result<ExitCode> {
    if let Some(f) = &a.fault_on
        && !Check::GEOMETRY_KINDS.contains(&f.as_str())
    {
        bail!(
            "--fault-on '{f}' is not a geometry check kind ({})",
            Known::new(f, Check::GEOMETRY_KINDS)
        );
    }
    let (lib, variants, name) = match &a.mutant {
        None => (
            book.library()?,
            book.variants()?,
            "seams-reference".to_string(),
        ),
        Some(m) => served(book, m)?,
    };
    let reference = Reference::new(lib, variants).named(name);
    let fault = a.fault.map(|fault| Faulty {
        fault,
        only_on: a.fault_on.clone(),
    });
    let served = serve::serve(
        &reference,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
        fault.as_ref(),
    )?;
    Ok(match served {
        Served::Closed => ExitCode::SUCCESS,
        Served::Crashed => ExitCode::from(3),
    })
}

/// The library and variants an engine serves: those of the spec in force,
/// or a mutant's.
fn served(
    book: &Rulebook,
    mutant: &str,
) -> Result<(&'static Library, Vec<&'static dyn Variant>, String)> {
    let m = mutants::find(mutant)?;
    let name = format!("seams-mutant-{}", m.name);
    match m.kind {
        MutantKind::Geometry(g) => {
            // The broken rule reaches the rules too: every variant is
            // rebuilt on the mutated boards, so perft sees it.
            let lib = book.library()?.mutated(g);
            if let Some(d) = book.draft()? {
                let mutated: &'static seams::draft::Draft = Box::leak(Box::new(
                    d.with_library(lib)
                        .context("building the mutant's variants")?,
                ));
                return Ok((&mutated.lib, mutated.variant_refs(), name));
            }
            let variants = seams::registry::build_all(&lib)
                .map_err(|e| anyhow::anyhow!("building the mutant's variants: {e}"))?;
            let lib: &'static Library = Box::leak(Box::new(lib));
            let made: &'static [Box<dyn Variant>] = Box::leak(variants.into_boxed_slice());
            Ok((lib, made.iter().map(|v| v.as_ref()).collect(), name))
        }
        MutantKind::Variants(make) => {
            if book.spec_dir().is_some() {
                bail!(
                    "--mutant {} replaces the built-in variants of its family, so it cannot \
                     serve the rules of --spec; drop --spec, or use a geometry mutant",
                    m.name
                );
            }
            let made: &'static [Box<dyn Variant>] = Box::leak(make().into_boxed_slice());
            Ok((
                book.library()?,
                made.iter().map(|v| v.as_ref()).collect(),
                name,
            ))
        }
    }
}

/// `seams mutants`.
pub fn list_mutants() -> Result<ExitCode> {
    let mut t = Table::new(&[Align::Left]);
    for m in mutants::all() {
        t.row([m.name, m.description]);
    }
    t.print()?;
    Ok(ExitCode::SUCCESS)
}
