//! `seams spec`: clause coverage, checking a rules draft (and accepting it
//! as a new rules version), and the gate on released versions.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use seams::conformance::Corpus;
use seams::draft::{Accepted, CheckReport, CorpusRun, LoadError, Released, Summary};

use super::Rulebook;
use super::out::{Align, Table};

#[derive(clap::Subcommand)]
pub enum SpecCommand {
    /// List every clause of spec/*/rules.md with the corpus cases that cite
    /// it, by provenance. Exit status 1 when a clause has no case or a case
    /// cites a clause that does not exist.
    ///
    /// Example: seams spec coverage --uncovered
    Coverage(CoverageArgs),
    /// Check a rules draft (an edited copy of spec/) without writing
    /// anything: load errors, each board's derived geometry (the
    /// tetrahedron's facts too), whether each initial position is
    /// exchange-symmetric under Φ, each player's bishops by colour class
    /// where the board has an alternating colouring (GEO-I2; otherwise the
    /// odd cycle through a seam that forbids one), initial pawns without a
    /// forward path to promotion on the empty board, drops allowed onto
    /// cells where the piece could never move, the opening audit of every
    /// setup (--plies), each variant's fingerprint (perft of its start to
    /// depth 3 with the divide, compared with the built-in spec's: a setup
    /// or movement edit shows even where no case pins it), and every
    /// corpus case whose expected answer the draft would change (old →
    /// new, with its clauses). The first and last lines are a summary: the
    /// changed cases, the changed fingerprints and the design findings,
    /// counted. Every data file the draft breaks is named in one run.
    /// Exit status 0 when
    /// no case changes, 1 when some case changes, 2 when the draft cannot
    /// be loaded; the designer findings do not change it.
    ///
    /// With --format html the same report is one page to open in a
    /// browser, with pictures of what the draft changes (see --format); a
    /// position the draft cannot read is drawn by the base's rules, and the
    /// page says so.
    ///
    /// With --accept --version X.Y --corpus DIR the draft becomes rules
    /// version X.Y: the data files of every family with a changed case get
    /// rules-version X.Y (written into the draft folder), changed cases are
    /// narrowed to "<X.Y" and copied with the draft's answers as new
    /// `reference` cases marked NEEDS REVIEW, changed board-geometry cases
    /// are rewritten in place, ids are rehashed and each family's rules.md
    /// gets a changelog entry. Nothing is written unless everything can
    /// be; each file is replaced atomically. With --into SPEC_DIR the
    /// accepted draft is then written into that spec folder (normally the
    /// project's spec/; never implied): every folder the draft has is made
    /// equal to the draft's.
    ///
    /// Example: cp -r spec draft && $EDITOR draft/boards/klein-9x18.toml &&
    /// seams spec check draft
    ///
    /// Example: seams spec check draft --base-rev main
    ///
    /// Example: seams spec check draft --format html --out draft.html
    ///
    /// Example: seams spec check draft --accept --version 0.3 --corpus conformance/cases
    ///
    /// Example: seams spec check draft --accept --version 0.3 --corpus conformance/cases --into spec
    // Its own --version names the new rules version, so the one every
    // command inherits (`seams --version`) is left out here.
    #[command(disable_version_flag = true)]
    Check(CheckArgs),
    /// The CI gate: every case of every released rules version must be
    /// reproduced by the current code and spec (cases whose `rules` range
    /// excludes a variant's current version do not apply). Exit status 1
    /// when some case changes.
    ///
    /// Example: seams spec gate
    ///
    /// Example: seams --spec draft spec gate --corpus draft-cases
    Gate(GateArgs),
}

#[derive(clap::Args)]
pub struct CoverageArgs {
    /// Read cases from this folder instead of the built-in corpus.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Only list clauses without cases.
    #[arg(long)]
    uncovered: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct CheckArgs {
    /// The draft spec folder (boards/ plus family folders; a missing
    /// family folder means the built-in one).
    dir: PathBuf,
    /// Read cases from this folder instead of the built-in corpus (and,
    /// with --accept, rewrite them there).
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Turn the draft into a new rules version (needs --version and
    /// --corpus).
    #[arg(long, requires = "version")]
    accept: bool,
    /// The new rules version for --accept, such as 0.3.
    #[arg(long, value_name = "X.Y")]
    version: Option<String>,
    /// With --accept, also write the accepted spec into this spec
    /// folder (normally the project's spec/): boards/ and every family
    /// folder the draft holds are made equal to the draft's.
    #[arg(long, value_name = "SPEC_DIR", requires = "accept")]
    into: Option<PathBuf>,
    /// Compare the fingerprints with this spec folder instead of the
    /// built-in spec (the corpus cases are always compared with their
    /// expectations).
    #[arg(long, value_name = "DIR", conflicts_with = "base_rev")]
    base: Option<PathBuf>,
    /// Compare the fingerprints with spec/ as it is at this git revision
    /// of the current repository (a branch, tag or commit), read through
    /// git without touching the work tree.
    #[arg(long, value_name = "REV")]
    base_rev: Option<String>,
    /// Also print the absolute tables (boards, symmetry, designer rows,
    /// audits) before the differences; without it only what differs from
    /// the base is listed.
    #[arg(long)]
    full: bool,
    /// Plies of the opening audit run on every setup (1 to 4).
    #[arg(long, default_value_t = seams::draft::DEFAULT_AUDIT_PLIES)]
    plies: u32,
    /// Report format: text; json (the report as data); or html, one
    /// self-contained page (inline pictures, no scripts) that draws each
    /// changed board before and after, each new opening-audit line, the
    /// start of each variant whose fingerprint changed before and after,
    /// and each changed case's position with the old and new answers.
    #[arg(long, value_enum, default_value = "text")]
    format: CheckFormat,
    /// Print JSON instead of text: the same as --format json.
    #[arg(long, conflicts_with = "format")]
    json: bool,
    /// Write the report to this file instead of stdout: whole, or (when
    /// the check fails) not at all.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// The formats of `seams spec check`.
#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Lines for a terminal, the summary first and last.
    Text,
    /// The report as data, for a script.
    Json,
    /// A page with pictures of what the draft changes.
    Html,
}

#[derive(clap::Args)]
pub struct GateArgs {
    /// Read cases from this folder instead of the built-in corpus.
    #[arg(long, value_name = "DIR")]
    corpus: Option<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `seams spec …`.
pub fn run(book: &Rulebook, command: SpecCommand) -> Result<ExitCode> {
    match command {
        SpecCommand::Coverage(a) => coverage(book, a),
        SpecCommand::Check(a) => check(a),
        SpecCommand::Gate(a) => gate(book, a),
    }
}

/// The built-in corpus, or the one in `dir`.
pub fn load_corpus(dir: Option<&Path>) -> Result<Corpus> {
    Ok(match dir {
        None => Corpus::builtin()?,
        Some(d) => Corpus::from_dir(d)
            .with_context(|| format!("loading the corpus folder {}", d.display()))?,
    })
}

fn coverage(book: &Rulebook, a: CoverageArgs) -> Result<ExitCode> {
    let corpus = load_corpus(a.corpus.as_deref())?;
    let clauses = match book.spec_dir() {
        None => seams::spec::builtin_clauses(),
        Some(dir) => seams::spec::clauses_from_dir(dir)
            .with_context(|| format!("loading the spec folder {}", dir.display()))?,
    };
    let cov = seams::conformance::coverage::coverage(&clauses, &corpus);
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&cov)?);
    } else {
        let mut t = Table::new(&[
            Align::Left,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
            Align::Right,
        ]);
        t.row([
            "clause",
            "seed",
            "published",
            "derived",
            "cross-check",
            "reference",
            "file",
        ]);
        for r in cov
            .rows
            .iter()
            .filter(|r| !a.uncovered || r.cases.is_empty())
        {
            let n = |k: &str| r.cases.get(k).map_or(0, Vec::len).to_string();
            let mark = if r.cases.is_empty() {
                "  UNCOVERED"
            } else {
                ""
            };
            t.row([
                r.clause.clone(),
                n("seed"),
                n("published"),
                n("derived"),
                n("cross-check"),
                n("reference"),
                format!("{}{mark}", r.file),
            ]);
        }
        t.print()?;
        for (case, clause) in &cov.unknown {
            outln!("case {case} cites {clause}, which no spec defines");
        }
        let missing = cov.uncovered().count();
        outln!(
            "{} clauses, {} covered, {} uncovered, {} unknown citations",
            cov.rows.len(),
            cov.rows.len() - missing,
            missing,
            cov.unknown.len()
        );
    }
    Ok(exit_if(!cov.complete()))
}

/// Exit status 1 when a check found something, 0 otherwise.
fn exit_if(found: bool) -> ExitCode {
    if found {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn check(a: CheckArgs) -> Result<ExitCode> {
    let format = if a.json { CheckFormat::Json } else { a.format };
    refuse_early(&a, format)?;
    let corpus = load_corpus(a.corpus.as_deref())?;
    let from_rev = match &a.base_rev {
        None => None,
        Some(rev) => {
            let scratch = std::env::temp_dir();
            Some(seams::draft::spec_at_rev(Path::new("."), rev, &scratch)?)
        }
    };
    let base = a.base.as_deref().or(from_rev.as_deref());
    let checked = seams::draft::check_against(&a.dir, base, &corpus, a.plies);
    if let Some(dir) = &from_rev {
        // The revision's copy is only read; nothing of it is kept.
        let _ = std::fs::remove_dir_all(dir);
    }
    let base_name = match (&a.base_rev, base) {
        (Some(rev), _) => format!("spec/ at {rev}"),
        (None, Some(dir)) => dir.display().to_string(),
        (None, None) => "the built-in spec".to_string(),
    };
    let mut checked = match checked {
        Ok(c) => c,
        // A draft that does not load is reported, not only refused: every
        // error of every file, with its line, in the report's own format.
        Err(e) => match e.load_errors() {
            Some(errors) => {
                let text = load_error_report(&a.dir, &base_name, errors, format)?;
                super::write_out(a.out.as_deref(), &text)?;
                return Ok(ExitCode::from(2));
            }
            None => {
                return Err(anyhow::Error::new(e)
                    .context(format!("loading the draft spec folder {}", a.dir.display())));
            }
        },
    };
    checked.report.base = base_name;
    let (draft, report) = (&checked.draft, &checked.report);
    let accepted = match (a.accept, &a.version, &a.corpus) {
        (true, Some(v), Some(cd)) => Some(
            seams::draft::accept(draft, report, cd, v)
                .with_context(|| format!("accepting {} as rules {v}", a.dir.display()))?,
        ),
        _ => None,
    };
    let released = match (&accepted, &a.into) {
        (Some(_), Some(into)) => Some(
            seams::draft::write_into(&a.dir, into)
                .with_context(|| format!("writing the accepted draft into {}", into.display()))?,
        ),
        _ => None,
    };
    let text = match format {
        CheckFormat::Json => json_report(report, accepted.as_ref(), released.as_ref())?,
        CheckFormat::Text => {
            let mut o = String::new();
            write_report(&mut o, report, a.full);
            write_accepted(&mut o, report, accepted.as_ref(), released.as_ref());
            o
        }
        CheckFormat::Html => seams::draft::html(&checked, &corpus)
            .with_context(|| format!("drawing the report on {}", a.dir.display()))?,
    };
    super::write_out(a.out.as_deref(), &text)?;
    Ok(exit_if(
        accepted.is_none() && !report.corpus.changes.is_empty(),
    ))
}

/// The usage errors of `seams spec check`, found before the check runs
/// and before --accept writes anything.
fn refuse_early(a: &CheckArgs, format: CheckFormat) -> Result<()> {
    if a.accept && format == CheckFormat::Html {
        bail!(
            "--accept reports what it writes as text or JSON, not as a page: draw the draft with \
             --format html first, then accept it without"
        );
    }
    if let Some(path) = &a.out {
        super::check_writable_parent(path).with_context(|| format!("--out {}", path.display()))?;
    }
    if a.accept && a.corpus.is_none() {
        bail!("--accept rewrites corpus files: give the corpus folder with --corpus DIR");
    }
    if a.plies == 0 || a.plies > seams::audit::MAX_PLIES {
        bail!(
            "--plies must be between 1 and {}, not {}",
            seams::audit::MAX_PLIES,
            a.plies
        );
    }
    if let Some(into) = &a.into {
        seams::draft::check_into(&a.dir, into)?;
    }
    Ok(())
}

/// The report as JSON (see `seams::draft::CheckJson` and its published
/// schema): the report and what --accept and --into wrote.
fn json_report(
    report: &CheckReport,
    accepted: Option<&Accepted>,
    released: Option<&Released>,
) -> Result<String> {
    let doc = seams::draft::CheckJson::of_report(report, accepted, released);
    let mut text = serde_json::to_string_pretty(&doc)?;
    text.push('\n');
    Ok(text)
}

/// The report of a draft that does not load, in `format`: the summary and
/// every error of every file.
fn load_error_report(
    spec: &Path,
    base: &str,
    errors: Vec<LoadError>,
    format: CheckFormat,
) -> Result<String> {
    let summary = Summary::of_load_errors(&errors);
    Ok(match format {
        CheckFormat::Json => {
            let doc = seams::draft::CheckJson::of_load_errors(spec, base, errors);
            let mut text = serde_json::to_string_pretty(&doc)?;
            text.push('\n');
            text
        }
        CheckFormat::Html => {
            seams::draft::load_errors_page(&spec.display().to_string(), base, &errors)
        }
        CheckFormat::Text => {
            let mut o = String::new();
            wln!(o, "{summary}");
            wln!(o, "spec check: {} against {base}", spec.display());
            wln!(o, "load errors:");
            for e in &errors {
                wln!(o, "  {e}");
            }
            wln!(o, "{summary}");
            o
        }
    })
}

fn write_report(o: &mut String, report: &CheckReport, full: bool) {
    // The summary first, so that a long report starts with what changed,
    // and again last, where a terminal leaves the reader.
    let summary = report.summary();
    wln!(o, "{summary}");
    wln!(o, "spec check: {} against {}", report.spec, report.base);
    if full {
        super::spec_report::write_geometry_rows(o, report);
        wln!(o, "initial positions under Φ:");
        let mut t = Table::new(&[]).indent(2);
        for v in &report.variants {
            t.row([
                v.variant.as_str(),
                v.rules.as_str(),
                match v.exchange_symmetric {
                    Some(true) => "exchange-symmetric",
                    Some(false) => "NOT exchange-symmetric",
                    None => "(the family cannot say)",
                },
            ]);
        }
        o.push_str(&t.render());
        super::spec_report::write_design(o, report);
        super::spec_report::write_pieces(o, report);
        super::spec_report::write_audits(o, report);
    }
    super::spec_report::write_fact_changes(o, report);
    super::spec_report::write_fingerprints(o, report);
    write_changes(o, &report.corpus);
    super::spec_report::write_findings(o, report);
    wln!(o, "{summary}");
}

fn write_accepted(
    o: &mut String,
    report: &CheckReport,
    accepted: Option<&Accepted>,
    released: Option<&Released>,
) {
    match accepted {
        None => {}
        Some(a) if a.narrowed.is_empty() && a.rewritten.is_empty() && a.removed.is_empty() => {
            wln!(
                o,
                "nothing to accept as rules {}: no case changes; nothing written",
                a.version
            );
        }
        Some(a) => {
            wln!(o, "accepted as rules {}:", a.version);
            for f in &a.data_files {
                wln!(o, "  rules-version {} in {f}", a.version);
            }
            for f in &a.changelogs {
                wln!(o, "  changelog entry in {f}");
            }
            // "Narrowed" in a designer's terms: the case stays, as a pin
            // of the old versions only. Some were listed above as changed;
            // the rest change only once the data files say the new
            // version (a saved game that names the old one).
            let changed: std::collections::BTreeSet<&str> = report
                .corpus
                .changes
                .iter()
                .map(|c| c.id.as_str())
                .collect();
            let listed = a
                .narrowed
                .iter()
                .filter(|id| changed.contains(id.as_str()))
                .count();
            wln!(
                o,
                "  {} cases now pin rules <{} only (narrowed): {} whose answers change, listed \
                 above, and {} that name the old rules version (saved games)",
                a.narrowed.len(),
                a.version,
                listed,
                a.narrowed.len() - listed
            );
            wln!(
                o,
                "  {} new cases with the draft's answers (NEEDS REVIEW), {} board cases rewritten \
                 (NEEDS REVIEW), {} board cases removed (cells no longer on the board)",
                a.added.len(),
                a.rewritten.len(),
                a.removed.len()
            );
            for id in &a.removed {
                wln!(o, "  removed {id}");
            }
        }
    }
    if let Some(r) = released {
        wln!(
            o,
            "written into {}: {} files written, {} data files removed",
            r.into,
            r.written.len(),
            r.removed.len()
        );
        for f in &r.written {
            wln!(o, "  wrote {f}");
        }
        for f in &r.removed {
            wln!(o, "  removed {f}");
        }
    }
}

/// The corpus run, with each changed case under the clauses it cites.
fn write_changes(o: &mut String, run: &CorpusRun) {
    wln!(
        o,
        "corpus: {} cases checked, {} not applicable (rules range), {} unsupported, {} changed",
        run.checked,
        run.not_applicable,
        run.unsupported,
        run.changes.len()
    );
    let mut by_clauses: std::collections::BTreeMap<String, Vec<&seams::draft::Change>> =
        std::collections::BTreeMap::new();
    for c in &run.changes {
        by_clauses.entry(c.clauses.join(", ")).or_default().push(c);
    }
    for (clauses, cases) in by_clauses {
        wln!(o, "  [{clauses}]");
        for c in cases {
            wln!(o, "    {}", c.id);
            wln!(o, "      {}", c.answers());
            let detail = c.detail_line();
            if !detail.is_empty() {
                wln!(o, "      {detail}");
            }
        }
    }
}

fn gate(book: &Rulebook, a: GateArgs) -> Result<ExitCode> {
    let corpus = load_corpus(a.corpus.as_deref())?;
    let spec = book.spec_dir();
    let run = seams::draft::gate(spec, &corpus).with_context(|| match spec {
        Some(d) => format!("loading the spec folder {}", d.display()),
        None => "loading the built-in spec".into(),
    })?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&run)?);
    } else {
        let mut o = String::new();
        write_changes(&mut o, &run);
        out!("{o}");
        outln!(
            "gate: {}",
            if run.changes.is_empty() {
                "pass (every case of every released rules version is reproduced)"
            } else {
                "FAIL: cases of a released rules version change; accept the draft as a new version"
            }
        );
    }
    Ok(exit_if(!run.changes.is_empty()))
}
