//! Reports of a `seams fuzz` run: text for people, JSON for tools,
//! Markdown for a CI summary, and an HTML page that draws each finding's
//! position with the marks of the conformance report (missing actions,
//! unexpected ones).
//!
//! Every format says what was compared (positions, questions, speed), why
//! the run stopped, the command that reproduces it, which shard it is (or
//! how many it merges) and its wall time, each finding with its shrunk
//! action sequence and case, the documented differences met, and the
//! thin-spot counts.
//!
//! The JSON report is [`ReportJson`], field for field, so that `seams
//! merge` reads back exactly what `seams fuzz` writes.

use std::fmt::Write;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::thin::Spot;
use super::{Finding, Run, Stop};
use crate::conformance::html;
use crate::conformance::runner::{Outcome, OutcomeKind};
use crate::render::{Marks, escape as esc, render_svg};
use crate::shard::Shard;
use crate::variant::{At, Variant};

/// A run and what the command line adds to it.
pub struct Report<'a> {
    pub run: &'a Run,
    pub engine: EngineId,
    /// The command that reproduces the whole run; a shard's report adds
    /// its `--shard` ([`Report::command`]).
    pub command: String,
    /// Show the thin-spot counts in the text and Markdown reports.
    pub stats: bool,
    /// Seconds from the command's start to its report; for a merge, the
    /// longest shard's.
    pub wall_seconds: f64,
    /// For a merge: how many shard reports it joins.
    pub merged_shards: Option<u32>,
}

/// The engine, as its `hello` names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineId {
    pub name: String,
    pub version: String,
}

/// The value of the JSON report's `report` field.
pub const KIND: &str = "fuzz";

/// The JSON report: the run's fields with what the command line adds.
/// Written with `R = &Run`, read back by `seams merge` with `R = Run`.
#[derive(Serialize, Deserialize)]
pub struct ReportJson<R> {
    /// Always [`KIND`]: what `seams merge` tells report kinds apart by.
    pub report: String,
    /// The version of seams that wrote it.
    pub seams: String,
    pub engine: EngineId,
    /// The command that reproduces this run (a shard's with `--shard`).
    pub command: String,
    pub headline: String,
    pub wall_seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged_shards: Option<u32>,
    #[serde(flatten)]
    pub run: R,
}

/// A shard's command: the whole run's with `--shard K/N`.
pub fn shard_command(command: &str, shard: Shard) -> String {
    if shard.is_whole() {
        command.to_string()
    } else {
        format!("{command} --shard {shard}")
    }
}

/// The whole run's command from a shard's, if it ends as
/// [`shard_command`] ends it.
pub fn whole_command(command: &str, shard: Shard) -> Option<&str> {
    if shard.is_whole() {
        Some(command)
    } else {
        command.strip_suffix(&format!(" --shard {shard}"))
    }
}

fn stopped(stop: &Stop, findings: usize) -> String {
    match stop {
        Stop::Completed if findings > 0 => "done (a variant with a finding stopped there)".into(),
        Stop::Completed => "every game was played".into(),
        Stop::Found => "stopped at the first disagreement".into(),
        Stop::MaxTime => "stopped by --max-time".into(),
        Stop::Interrupted => "interrupted".into(),
        Stop::EngineDead { reason } => format!("the engine is dead: {reason}"),
    }
}

/// An action sequence on one line, or what stands for none.
fn sequence(actions: &[String]) -> String {
    if actions.is_empty() {
        "(no action: the start itself)".into()
    } else {
        actions.join(" ")
    }
}

impl Report<'_> {
    /// The command that reproduces this report's run.
    pub fn command(&self) -> String {
        shard_command(&self.command, self.run.shard)
    }

    /// Which part of a run this is, or how many it merges; `None` for a
    /// whole run.
    fn scope(&self) -> Option<String> {
        if let Some(n) = self.merged_shards {
            return Some(format!(
                "merged from {n} shard report(s): what one run would have reported"
            ));
        }
        let shard = self.run.shard;
        (!shard.is_whole()).then(|| {
            format!(
                "shard {shard}: the games whose key variant/game falls in it; \
                 `seams merge` joins the {} shards' JSON reports",
                shard.count()
            )
        })
    }

    fn wall_time(&self) -> String {
        format!(
            "wall time {:.2} s{}",
            self.wall_seconds,
            if self.merged_shards.is_some() {
                " (the longest shard)"
            } else {
                ""
            }
        )
    }

    /// One sentence: what was compared, how fast, how it ended.
    pub fn headline(&self) -> String {
        let r = self.run;
        format!(
            "{} finding(s); compared {} positions in {:.2} s ({:.0} positions/s); {}",
            r.findings.len(),
            r.positions,
            r.elapsed_seconds,
            r.positions_per_second,
            stopped(&r.stopped, r.findings.len())
        )
    }

    fn settings(&self) -> String {
        let r = self.run;
        let questions: Vec<&str> = r.questions.iter().map(|q| q.command()).collect();
        format!(
            "seed {}, {} game(s) of up to {} plies per variant{}; questions: {}",
            r.seed,
            r.games,
            r.plies,
            if r.edited { ", made-up starts too" } else { "" },
            questions.join(" ")
        )
    }

    pub fn text(&self) -> String {
        let mut s = String::new();
        let r = self.run;
        let _ = writeln!(
            s,
            "seams fuzz: engine {} {}",
            self.engine.name, self.engine.version
        );
        let _ = writeln!(s, "{}", self.settings());
        let _ = writeln!(s, "{}", self.headline());
        let _ = writeln!(s, "reproduce: {}", self.command());
        if let Some(scope) = self.scope() {
            let _ = writeln!(s, "{scope}");
        }
        let _ = writeln!(s, "{}", self.wall_time());
        for sk in &r.skipped {
            let _ = writeln!(s, "skipped {}: {}", sk.variant, sk.reason);
        }
        let _ = writeln!(s);
        let mut rows = vec![vec![
            "variant".to_string(),
            "games".into(),
            "positions".into(),
            "questions".into(),
            "documented".into(),
        ]];
        for v in &r.variants {
            rows.push(vec![
                v.variant.clone(),
                v.games.to_string(),
                v.positions.to_string(),
                v.asked.values().sum::<u64>().to_string(),
                v.documented
                    .iter()
                    .map(|d| d.count)
                    .sum::<u64>()
                    .to_string(),
            ]);
        }
        s.push_str(&columns(&rows));
        for v in r.variants.iter().filter(|v| !v.unsupported.is_empty()) {
            let q: Vec<&str> = v.unsupported.iter().map(|q| q.command()).collect();
            let _ = writeln!(
                s,
                "{}: the engine answered unsupported to {} (not asked again in that game)",
                v.variant,
                q.join(", ")
            );
        }
        for (i, f) in r.findings.iter().enumerate() {
            let _ = writeln!(s);
            self.text_finding(&mut s, i, f);
        }
        let documented: Vec<_> = r
            .variants
            .iter()
            .flat_map(|v| v.documented.iter().map(move |d| (v, d)))
            .collect();
        if !documented.is_empty() {
            let _ = writeln!(s, "\ndocumented differences met (each ended its game):");
            for (v, d) in documented {
                let _ = writeln!(
                    s,
                    "  {} {} ×{}: {}\n    first: {}",
                    v.variant,
                    d.question.command(),
                    d.count,
                    d.note,
                    d.example
                );
            }
        }
        if self.stats {
            let _ = writeln!(
                s,
                "\nthin spots (distinct positions; target {} where it applies):",
                super::thin::TARGET
            );
            s.push_str(&columns(&self.thin_rows()));
        }
        s
    }

    fn text_finding(&self, s: &mut String, i: usize, f: &Finding) {
        let d = &f.difference;
        let _ = writeln!(
            s,
            "finding {}: {} game {}, {} ({})",
            i + 1,
            f.variant,
            f.game,
            f.question.command(),
            d.kind.name()
        );
        let _ = writeln!(
            s,
            "  found after {} action(s); shrunk to {} in {} question(s){}:",
            f.found_after,
            f.actions.len(),
            f.shrink_tests,
            if f.pieces_removed > 0 {
                format!(", {} piece(s) taken off the start", f.pieces_removed)
            } else {
                String::new()
            }
        );
        let _ = writeln!(s, "    {}", sequence(&f.actions));
        if let Some(start) = &f.start {
            let _ = writeln!(s, "  from the start {start}");
        }
        let _ = writeln!(s, "  position: {}", f.position);
        let _ = writeln!(s, "  {}", d.detail);
        if !d.missing.is_empty() {
            let _ = writeln!(
                s,
                "  missing (the reference has them): {}",
                d.missing.join(" ")
            );
        }
        if !d.extra.is_empty() {
            let _ = writeln!(
                s,
                "  extra (only the engine has them): {}",
                d.extra.join(" ")
            );
        }
        if d.missing.is_empty() && d.extra.is_empty() {
            let _ = writeln!(s, "  the reference: {}", d.reference);
            let _ = writeln!(s, "  the engine:    {}", d.engine);
        }
        let _ = writeln!(
            s,
            "  case {}{}",
            f.case.id,
            match f.written.as_deref() {
                Some(path) => format!(", written to {path}"),
                None => String::new(),
            }
        );
        if f.case_reproduces == Some(false) {
            let _ = writeln!(
                s,
                "  note: the engine passes this case as written (the corpus has no check kind \
                 for '{}', or the engine answers it differently each time)",
                f.question.command()
            );
        }
        if let Some(cmd) = &f.reproduce {
            let _ = writeln!(s, "  reproduce this game: {cmd}");
        }
    }

    fn thin_rows(&self) -> Vec<Vec<String>> {
        let mut rows = vec![vec![
            "thin spot".to_string(),
            "variant".into(),
            "count".into(),
            "target".into(),
        ]];
        for spot in Spot::ALL {
            for v in &self.run.variants {
                let Some(t) = v.thin.iter().find(|t| t.spot == spot) else {
                    continue;
                };
                if t.target.is_none() && t.count == 0 && spot != Spot::PromotionChoiceByFacingOnly {
                    continue;
                }
                rows.push(vec![
                    spot.name().to_string(),
                    v.variant.clone(),
                    t.count.to_string(),
                    match t.target {
                        Some(n) if t.count >= n => format!("{n} (reached)"),
                        Some(n) => format!("{n} (NOT reached)"),
                        None => "-".into(),
                    },
                ]);
            }
        }
        rows
    }

    /// The JSON report ([`ReportJson`]).
    pub fn json(&self) -> Value {
        let json = ReportJson {
            report: KIND.to_string(),
            seams: env!("CARGO_PKG_VERSION").to_string(),
            engine: self.engine.clone(),
            command: self.command(),
            headline: self.headline(),
            wall_seconds: self.wall_seconds,
            merged_shards: self.merged_shards,
            run: self.run,
        };
        serde_json::to_value(json).unwrap_or(Value::Null)
    }

    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let r = self.run;
        let _ = writeln!(
            s,
            "## seams fuzz: {} {}\n\n{}\n\n**{}**\n\nReproduce: `{}`\n",
            self.engine.name,
            self.engine.version,
            self.settings(),
            self.headline(),
            self.command()
        );
        if let Some(scope) = self.scope() {
            let _ = writeln!(s, "{scope}\n");
        }
        let _ = writeln!(s, "{}\n", upper_first(&self.wall_time()));
        let _ = writeln!(
            s,
            "| variant | games | positions | questions | documented |\n|---|---:|---:|---:|---:|"
        );
        for v in &r.variants {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} | {} |",
                v.variant,
                v.games,
                v.positions,
                v.asked.values().sum::<u64>(),
                v.documented.iter().map(|d| d.count).sum::<u64>()
            );
        }
        for (i, f) in r.findings.iter().enumerate() {
            let mut body = String::new();
            self.text_finding(&mut body, i, f);
            let _ = writeln!(
                s,
                "\n<details open><summary>finding {}: <code>{}</code> {}</summary>\n\n```\n{}```\n</details>",
                i + 1,
                f.variant,
                f.question.command(),
                body.replace("```", "'''")
            );
        }
        if self.stats {
            let rows = self.thin_rows();
            let _ = writeln!(s, "\n| {} |\n|---|---|---:|---|", rows[0].join(" | "));
            for row in &rows[1..] {
                let _ = writeln!(s, "| {} |", row.join(" | "));
            }
        }
        s
    }

    /// The HTML page; `variants` are the reference's, to draw positions.
    pub fn html(&self, variants: &[&dyn Variant]) -> String {
        let mut s = String::new();
        let r = self.run;
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>seams fuzz: {}</title>\n<style>{}</style>\n</head>\n<body>\n",
            esc(&self.engine.name),
            crate::conformance::html::STYLE
        );
        let class = if r.findings.is_empty() { "ok" } else { "bad" };
        let _ = writeln!(
            s,
            "<h1>seams fuzz: {} {}</h1>\n<p>{}</p>\n<p class=\"headline {class}\">{}</p>\n\
             <p>Reproduce: <code>{}</code></p>",
            esc(&self.engine.name),
            esc(&self.engine.version),
            esc(&self.settings()),
            esc(&self.headline()),
            esc(&self.command())
        );
        if let Some(scope) = self.scope() {
            let _ = writeln!(s, "<p>{}</p>", esc(&scope));
        }
        let _ = writeln!(s, "<p>{}</p>", esc(&upper_first(&self.wall_time())));
        let _ = writeln!(
            s,
            "<table>\n<tr><th>variant</th><th>games</th><th>positions</th><th>questions</th>\
             <th>documented</th></tr>"
        );
        for v in &r.variants {
            let _ = writeln!(
                s,
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&v.variant),
                v.games,
                v.positions,
                v.asked.values().sum::<u64>(),
                v.documented.iter().map(|d| d.count).sum::<u64>()
            );
        }
        let _ = writeln!(s, "</table>");
        for (i, f) in r.findings.iter().enumerate() {
            let mut body = String::new();
            self.text_finding(&mut body, i, f);
            let _ = writeln!(
                s,
                "<section class=\"case\">\n<h3><span class=\"kind k-fail\">{}</span> finding {}: {} \
                 {}</h3>\n<pre>{}</pre>",
                esc(f.difference.kind.name()),
                i + 1,
                esc(&f.variant),
                esc(f.question.command()),
                esc(&body)
            );
            match figure(f, variants) {
                Ok(panels) => {
                    for (svg, caption) in panels {
                        let _ = writeln!(
                            s,
                            "<figure aria-label=\"{}\">\n{svg}\n</figure>",
                            esc(&caption)
                        );
                    }
                }
                Err(why) => {
                    let _ = writeln!(s, "<p class=\"meta\">No picture: {}</p>", esc(&why));
                }
            }
            let _ = writeln!(s, "</section>");
        }
        if self.stats {
            let rows = self.thin_rows();
            let _ = writeln!(s, "<h2>Thin spots</h2>\n<table>");
            for (n, row) in rows.iter().enumerate() {
                let cell = if n == 0 { "th" } else { "td" };
                let cells: Vec<String> = row
                    .iter()
                    .map(|c| format!("<{cell}>{}</{cell}>", esc(c)))
                    .collect();
                let _ = writeln!(s, "<tr>{}</tr>", cells.concat());
            }
            let _ = writeln!(s, "</table>");
        }
        let _ = writeln!(s, "</body>\n</html>");
        s
    }
}

/// The finding's pictures (SVG and caption): a different answer drawn as
/// the conformance report draws the case's failure, with the missing and
/// unexpected actions marked; an error drawn as the bare position.
fn figure(f: &Finding, variants: &[&dyn Variant]) -> Result<Vec<(String, String)>, String> {
    let d = &f.difference;
    if d.kind == OutcomeKind::Fail {
        let (expected, actual) = match (&d.reference.get("actions"), &d.engine.get("actions")) {
            (Some(want), Some(got)) => (want.to_string(), got.to_string()),
            _ => match (&d.reference.get("divide"), &d.engine.get("divide")) {
                (Some(want), Some(got)) => (want.to_string(), got.to_string()),
                _ => (d.reference.to_string(), d.engine.to_string()),
            },
        };
        let outcome = Outcome::Fail {
            expected,
            actual,
            detail: d.detail.clone(),
            missing: d.missing.clone(),
            extra: d.extra.clone(),
        };
        let fig = html::figure(&f.case, &outcome, variants)
            .ok_or_else(|| "the case has no position to draw".to_string())?;
        if fig.panels.is_empty() {
            return Err(fig.notes.join("; "));
        }
        return Ok(fig.panels.into_iter().map(|p| (p.svg, p.caption)).collect());
    }
    let v = variants
        .iter()
        .find(|v| v.name() == f.variant)
        .ok_or_else(|| format!("the reference has no variant '{}'", f.variant))?;
    let caption = format!("the position asked about ({})", d.kind.name());
    let svg = render_svg(
        *v,
        &At {
            position: Some(&f.position),
            moves: &[],
        },
        &Marks {
            from: None,
            actions: vec![],
            caption: Some(caption.clone()),
            ..Marks::default()
        },
    )
    .map_err(|e| e.to_string())?;
    Ok(vec![(svg, caption)])
}

/// The text with its first letter a capital.
fn upper_first(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Rows as columns two spaces apart, the first row a header.
fn columns(rows: &[Vec<String>]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = |c: usize| {
        rows.iter()
            .filter_map(|r| r.get(c))
            .map(|x| x.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..n).map(width).collect();
    let mut s = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = widths[c].saturating_sub(cell.chars().count());
            // Numbers right-aligned, names left.
            if c > 0 && cell.chars().all(|ch| ch.is_ascii_digit()) {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}
