//! `seams audit`: the opening audit of a position.

use std::process::ExitCode;

use anyhow::Result;
use seams::audit::Report;
use seams::rules::audit_facts::ShieldKind;
use seams::variant::Variant;

use super::Rulebook;
use super::position::PositionArgs;

#[derive(clap::Args)]
pub struct AuditArgs {
    /// A variant name from `seams variants`.
    variant: String,
    #[command(flatten)]
    at: PositionArgs,
    /// How many plies to search for checks and mates (1 to 4).
    #[arg(long, default_value_t = 2, value_name = "N")]
    plies: u32,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// `seams audit`.
pub fn audit(book: &Rulebook, a: AuditArgs) -> Result<ExitCode> {
    let v = book.variant(&a.variant)?;
    let place = a.at.resolve()?;
    let report = seams::variant::audit_of(v, &place.at(), a.plies)?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_checks_and_mates(v, &report)?;
        print_shields(&report)?;
        print_attacked(&report)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn print_checks_and_mates(v: &dyn Variant, r: &Report) -> Result<()> {
    outln!("audit    {} (rules {})", r.variant, r.rules);
    outln!("position {}", r.position);
    outln!("to move  {}", v.player_name(r.to_move));
    outln!("plies    {}", r.plies);
    outln!();
    outln!("checks within {} plies: {}", r.plies, r.checks.len());
    for line in &r.checks {
        let mate = if line.mate { "  checkmate" } else { "" };
        outln!("  {}{mate}", line.moves.join(" "));
    }
    outln!();
    outln!(
        "forced mates for {} within {} plies: {}",
        v.player_name(r.to_move),
        r.plies,
        r.mates.len()
    );
    for m in &r.mates {
        outln!(
            "  mate in {} by {} ({} replies), e.g. {}",
            m.mate_in,
            m.first,
            m.replies,
            m.line.join(" ")
        );
    }
    outln!();
    Ok(())
}

fn print_shields(r: &Report) -> Result<()> {
    let Some(lines) = &r.shields else {
        outln!(
            "shield lines: not available for {} (no family audit)",
            r.variant
        );
        outln!();
        return Ok(());
    };
    outln!("shield lines: {}", lines.len());
    for l in lines {
        outln!(
            "  {} {}{} {} shield {}{} slider {}{} route {}",
            match l.kind {
                ShieldKind::Pin => "pin      ",
                ShieldKind::Discovery => "discovery",
            },
            l.king.piece,
            l.king.cell,
            l.direction,
            l.shield.piece,
            l.shield.cell,
            l.slider.piece,
            l.slider.cell,
            l.route.join(" ")
        );
    }
    outln!();
    Ok(())
}

fn print_attacked(r: &Report) -> Result<()> {
    let Some(attacked) = &r.attacked else {
        outln!(
            "attacked pieces: not available for {} (no family audit)",
            r.variant
        );
        return Ok(());
    };
    outln!("attacked pieces: {}", attacked.len());
    for x in attacked {
        let by: Vec<String> =
            x.by.iter()
                .map(|b| format!("{}{}", b.piece, b.cell))
                .collect();
        outln!("  {}{} by {}", x.target.piece, x.target.cell, by.join(" "));
    }
    Ok(())
}
