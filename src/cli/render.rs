//! `seams render`: a position as an SVG picture.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::Rulebook;
use super::position::PositionArgs;

#[derive(clap::Args)]
pub struct RenderArgs {
    /// A variant name from `seams variants`.
    variant: String,
    #[command(flatten)]
    at: PositionArgs,
    /// Mark the legal destinations of the piece on this cell.
    #[arg(long, value_name = "CELL")]
    moves_from: Option<String>,
    /// Draw the board half a turn round, as the second player sits (the
    /// text stays upright and the legend is unchanged).
    #[arg(long)]
    flip: bool,
    /// Draw, faded, the ghost cells beyond every glued edge: the cell a
    /// step across the edge reaches, with its piece, turned as the seam
    /// turns directions (mirrored across a reversing seam); on genus two,
    /// a tab on each staircase edge. With --moves-from, each move that
    /// crosses a seam is drawn as a route leaving through the edge and
    /// coming back in through its partner.
    #[arg(long)]
    ghosts: bool,
    /// Write the SVG to this file instead of stdout.
    #[arg(long, value_name = "FILE.svg")]
    out: Option<PathBuf>,
}

/// `seams render`.
pub fn render(book: &Rulebook, a: RenderArgs) -> Result<ExitCode> {
    if let Some(path) = &a.out {
        super::check_writable_parent(path).context("--out")?;
    }
    let v = book.variant(&a.variant)?;
    let place = a.at.resolve()?;
    let mut marks = match &a.moves_from {
        None => seams::render::Marks::default(),
        Some(cell) => seams::render::moves_from(v, &place.at(), cell)?,
    };
    if let Some(cell) = &marks.from
        && marks.actions.is_empty()
    {
        // The picture is right, but shows no mark: say why, apart from it.
        let occupied = v
            .diagram(&place.at())?
            .pieces
            .iter()
            .any(|p| &p.cell == cell);
        let why = if occupied {
            "the piece there has no legal action"
        } else {
            "no piece stands there"
        };
        eprintln!("seams render: --moves-from {cell} marks nothing: {why}");
    }
    marks.flip = a.flip;
    marks.ghosts = a.ghosts;
    let svg = seams::render::render_svg(v, &place.at(), &marks)?;
    match &a.out {
        None => std::io::stdout().lock().write_all(svg.as_bytes())?,
        Some(path) => seams::files::write_atomically(path, &svg)
            .with_context(|| format!("writing the picture {}", path.display()))?,
    }
    Ok(ExitCode::SUCCESS)
}
