//! The web app's layout, measured in the browser: the board takes the
//! largest size that fits beside the side panel (or above it on a narrow
//! window) and keeps its place and size for a whole game; cells and the
//! legend's text are large enough to read on every variant; on a narrow
//! window whose turn it is, the hands and the game's buttons are on the
//! first screen; and the pieces point the way they face.
//!
//! Every trial that sizes the window puts it back to the harness's size
//! (1400 × 1100), failed or not. With `SEAMS_SCREENSHOTS=DIR` two of them
//! take pictures for docs/playing.md (`tools/screenshots.sh`).

use fantoccini::Locator;
use libtest_mimic::Failed;
use serde_json::{Value, json};

use crate::webapp::{Outcome, Page, Steps, check, fail, start_from, strings};

/// Every trial of this file, by name.
pub(crate) const TRIALS: &[(&str, Steps)] = &[
    (
        "at_1400x1000_every_variant_has_cells_of_32_px_and_a_legend_of_12_px",
        |p| Box::pin(sizes_at_1400(p)),
    ),
    (
        "at_800x900_status_hands_and_buttons_are_on_the_first_screen",
        |p| Box::pin(first_screen_at_800(p)),
    ),
    (
        "the_board_keeps_its_place_and_size_through_moves_captures_and_checks",
        |p| Box::pin(board_stays(p)),
    ),
    (
        "pentagons_point_along_each_facing_and_turn_across_a_seam",
        |p| Box::pin(pentagons_point(p)),
    ),
    ("the_legend_is_html_beside_the_board_and_collapses", |p| {
        Box::pin(legend_is_html(p))
    }),
    ("a_tetrahedral_game_is_pictured", |p| {
        Box::pin(tetra_game(p))
    }),
];

/// The harness's window.
const HARNESS_WINDOW: (u32, u32) = (1400, 1100);

/// Sizes the window so that its viewport (`innerWidth` × `innerHeight`) is
/// `width` × `height`, whatever room the browser's own frame takes.
async fn viewport(p: &Page, width: u32, height: u32) -> Outcome {
    p.client
        .set_window_size(width, height)
        .await
        .map_err(fail)?;
    let inner = p
        .js("return [window.innerWidth, window.innerHeight]")
        .await?;
    let (iw, ih) = (
        inner[0].as_u64().unwrap_or(0) as u32,
        inner[1].as_u64().unwrap_or(0) as u32,
    );
    if (iw, ih) != (width, height) && iw > 0 && ih > 0 {
        p.client
            .set_window_size(
                width + (width - iw.min(width)),
                height + (height - ih.min(height)),
            )
            .await
            .map_err(fail)?;
    }
    let inner = p
        .js("return [window.innerWidth, window.innerHeight]")
        .await?;
    check(inner == json!([width, height]), || {
        format!("the viewport is {inner}, not {width} × {height}")
    })
}

/// Runs `steps` with a `width` × `height` viewport and puts the harness's
/// window back afterwards, whatever the steps gave.
async fn sized<F: std::future::Future<Output = Outcome>>(
    p: &Page,
    width: u32,
    height: u32,
    steps: F,
) -> Outcome {
    let sized = viewport(p, width, height).await;
    let outcome = match sized {
        Ok(()) => steps.await,
        Err(e) => Err(e),
    };
    let restored = p
        .client
        .set_window_size(HARNESS_WINDOW.0, HARNESS_WINDOW.1)
        .await
        .map_err(fail);
    outcome.and(restored)
}

/// What a trial measures of the page: the smallest cell (width and height
/// as drawn), the legend's smallest text and the smallest text drawn in
/// the board, in CSS pixels.
const MEASURE: &str = "\
    const cells = [...document.querySelectorAll('#board [data-cell]')].map(c => c.getBoundingClientRect()); \
    const cell = Math.min(...cells.map(r => Math.min(r.width, r.height))); \
    const legendText = [...document.querySelectorAll('#legend-lines li > span:not(.legend-icon), #legend-lines li > b, #legend summary')] \
      .map(e => parseFloat(getComputedStyle(e).fontSize)); \
    const boardText = [...document.querySelectorAll('#board svg text')] \
      .map(t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a); \
    const svg = document.querySelector('#board svg').getBoundingClientRect(); \
    return { cell, cells: cells.length, legend: Math.min(...legendText), legendLines: legendText.length, \
             boardText: Math.min(...boardText), board: [svg.width, svg.height], \
             scrolls: document.documentElement.scrollHeight > window.innerHeight };";

fn number(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or(0.0)
}

async fn sizes_at_1400(p: Page) -> Outcome {
    sized(&p, 1400, 1000, async {
        let mut figures = Vec::new();
        for v in seams::registry::variants() {
            p.open(v.name(), "two").await?;
            let m = p.js(MEASURE).await?;
            figures.push(format!(
                "{:<22} cells {:>5.1} px, legend text {:>4.1} px ({} lines), smallest board text {:>4.1} px, board {} × {} px",
                v.name(),
                number(&m, "cell"),
                number(&m, "legend"),
                m["legendLines"],
                number(&m, "boardText"),
                m["board"][0],
                m["board"][1],
            ));
            check(number(&m, "cells") as usize == v.edit_cells().len(), || {
                format!("{}: {} cells drawn", v.name(), m["cells"])
            })?;
            check(number(&m, "cell") >= 32.0, || {
                format!("{}: cells of {:.1} px at 1400 × 1000", v.name(), number(&m, "cell"))
            })?;
            check(number(&m, "legend") >= 12.0, || {
                format!("{}: legend text of {} px", v.name(), m["legend"])
            })?;
            check(number(&m, "legendLines") >= 5.0, || {
                format!("{}: {} legend lines", v.name(), m["legendLines"])
            })?;
            // Beside the panel, the page itself never scrolls: the board
            // fits the window and the panel scrolls on its own.
            check(m["scrolls"] == json!(false), || {
                format!("{}: the page scrolls at 1400 × 1000", v.name())
            })?;
        }
        eprintln!("at 1400 × 1000:\n  {}", figures.join("\n  "));
        Ok(())
    })
    .await
}

/// The boxes of the compact bar's parts that are not in view on the
/// first screen (the page scrolled to its top), if any.
const OUT_OF_VIEW: &str = "\
    window.scrollTo(0, 0); \
    const ids = ['status', 'hand-first', 'hand-second', 'undo', 'resign', 'offer-draw']; \
    return ids.filter(id => { \
      const r = document.getElementById(id).getBoundingClientRect(); \
      return r.width === 0 || r.height === 0 || r.top < 0 || r.bottom > window.innerHeight \
        || r.left < 0 || r.right > window.innerWidth; \
    }).map(id => { const r = document.getElementById(id).getBoundingClientRect(); \
      return `${id} at ${Math.round(r.top)}–${Math.round(r.bottom)}`; });";

async fn first_screen_at_800(p: Page) -> Outcome {
    sized(&p, 800, 900, async {
        let mut figures = Vec::new();
        for v in seams::registry::variants() {
            p.open(v.name(), "two").await?;
            let off = p.js(OUT_OF_VIEW).await?;
            check(strings(&off).is_empty(), || {
                format!("{}: at 800 × 900 out of view: {off}", v.name())
            })?;
            let m = p.js(MEASURE).await?;
            figures.push(format!(
                "{:<22} cells {:>5.1} px, smallest board text {:>4.1} px, board {} × {} px",
                v.name(),
                number(&m, "cell"),
                number(&m, "boardText"),
                m["board"][0],
                m["board"][1],
            ));
        }
        eprintln!("at 800 × 900:\n  {}", figures.join("\n  "));
        // A game with pieces in hand and a check: still all in view.
        start_from(&p, "shogi-klein", CAPTURE_KLEIN).await?;
        play_from_to(&p, "e4", "e13").await?;
        let status = p.text("status").await?;
        check(status.contains("in check"), || format!("status {status:?}"))?;
        let hand = p.text("hand-first").await?;
        check(hand.contains('P'), || format!("A's hand {hand:?}"))?;
        let off = p.js(OUT_OF_VIEW).await?;
        check(strings(&off).is_empty(), || {
            format!("after a capture and a check, out of view: {off}")
        })?;
        p.screenshot("webapp-800x900.png").await
    })
    .await
}

/// A Klein-bottle shogi position where A's rook on e4 takes B's pawn on
/// e13 with check (B's king on e18, the file between clear; A's king on
/// e2, clear of B's across the wrapping top and bottom).
const CAPTURE_KLEIN: &str = "4k4/9/9/9/9/4p4/9/9/9/9/9/9/9/9/4R4/9/4K4/9 A - 1";

/// Plays the action from `from` to `to` by clicks, taking the first
/// outcome when the page asks which.
async fn play_from_to(p: &Page, from: &str, to: &str) -> Outcome {
    p.click_cell(from).await?;
    p.click_cell(to).await?;
    if p.js("return !document.getElementById('choice').hidden")
        .await?
        == Value::Bool(true)
    {
        p.click("#choice-buttons button").await?;
    }
    Ok(())
}

/// The board's box and a cell's, as drawn.
async fn boxes(p: &Page, cell: &str) -> Result<Value, Failed> {
    p.js(&format!(
        "const r = (e) => {{ const b = e.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; }}; \
         return [r(document.querySelector('#board svg')), r(document.querySelector(\"#board [data-cell='{cell}']\"))];"
    ))
    .await
}

async fn board_stays(p: Page) -> Outcome {
    sized(&p, 1400, 1000, async {
        // Ordinary moves on the Klein bottle.
        p.open("shogi-klein", "two").await?;
        let before = boxes(&p, "e5").await?;
        for _ in 0..4 {
            let view = p.view().await?;
            let m = view["moves"]
                .as_array()
                .and_then(|ms| ms.iter().find(|m| m["from"].is_string()))
                .ok_or("no board move")?
                .clone();
            play_from_to(
                &p,
                m["from"].as_str().unwrap_or_default(),
                m["to"].as_str().unwrap_or_default(),
            )
            .await?;
            let now = boxes(&p, "e5").await?;
            check(now == before, || {
                format!(
                    "after {:?} the board and e5 are at {now}, were at {before}",
                    p_moves_last(&view)
                )
            })?;
        }
        // A capture puts a pawn in A's hand and gives check; B answers;
        // A drops the pawn.
        start_from(&p, "shogi-klein", CAPTURE_KLEIN).await?;
        let before = boxes(&p, "e5").await?;
        play_from_to(&p, "e4", "e13").await?;
        let status = p.text("status").await?;
        check(status.contains("in check"), || format!("status {status:?}"))?;
        check(p.text("hand-first").await?.contains('P'), || {
            "no pawn in A's hand".into()
        })?;
        let now = boxes(&p, "e5").await?;
        check(now == before, || {
            format!("after a capture with check the board and e5 are at {now}, were at {before}")
        })?;
        let view = p.view().await?;
        let m = view["moves"]
            .as_array()
            .and_then(|ms| ms.iter().find(|m| m["from"].is_string()))
            .ok_or("B has no move")?
            .clone();
        play_from_to(
            &p,
            m["from"].as_str().unwrap_or_default(),
            m["to"].as_str().unwrap_or_default(),
        )
        .await?;
        p.click("#hand-first button[data-drop='P']").await?;
        let to = p
            .destinations()
            .await?
            .first()
            .cloned()
            .ok_or("nowhere to drop the pawn")?;
        p.click_cell(&to).await?;
        let moves = p.moves().await?;
        check(moves.last().is_some_and(|m| m.starts_with("P*")), || {
            format!("moves {moves:?}")
        })?;
        let now = boxes(&p, "e5").await?;
        check(now == before, || {
            format!("after a drop the board and e5 are at {now}, were at {before}")
        })?;
        // Chess: a check in a few moves.
        p.open("chess-flat", "two").await?;
        let before = boxes(&p, "e5").await?;
        for (from, to) in [("e2", "e4"), ("f7", "f6"), ("d1", "h5")] {
            play_from_to(&p, from, to).await?;
            let now = boxes(&p, "e5").await?;
            check(now == before, || {
                format!("after {from}-{to} the board and e5 are at {now}, were at {before}")
            })?;
        }
        let status = p.text("status").await?;
        check(status.contains("in check"), || format!("status {status:?}"))
    })
    .await
}

fn p_moves_last(view: &Value) -> String {
    view["actions"]
        .as_array()
        .and_then(|a| a.last())
        .and_then(Value::as_str)
        .unwrap_or("the start")
        .to_string()
}

/// Which way the piece on `cell` points as drawn, measured on the screen:
/// of the sides of its outline's box, the one that a single vertex
/// touches, at the side's middle (a pentagon's tip); with what its
/// `data-points` says.
async fn points(p: &Page, cell: &str) -> Result<(String, String), Failed> {
    let v = p
        .js(&format!(
            "const el = document.querySelector(\"#board [data-piece][data-on='{cell}']\"); \
             if (!el) return null; \
             const m = el.getScreenCTM(); \
             const pts = [...el.points].map(q => new DOMPoint(q.x, q.y).matrixTransform(m)); \
             const xs = pts.map(q => q.x), ys = pts.map(q => q.y); \
             const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys); \
             const e = 0.5, mx = (x0 + x1) / 2, my = (y0 + y1) / 2, w = x1 - x0, h = y1 - y0; \
             const sides = [ \
               ['up', pts.filter(q => Math.abs(q.y - y0) < e), q => Math.abs(q.x - mx) < w / 10], \
               ['down', pts.filter(q => Math.abs(q.y - y1) < e), q => Math.abs(q.x - mx) < w / 10], \
               ['left', pts.filter(q => Math.abs(q.x - x0) < e), q => Math.abs(q.y - my) < h / 10], \
               ['right', pts.filter(q => Math.abs(q.x - x1) < e), q => Math.abs(q.y - my) < h / 10], \
             ]; \
             const tip = sides.filter(([, on, middle]) => on.length === 1 && middle(on[0])).map(([way]) => way); \
             return [tip.join(' or ') || 'nowhere', el.dataset.points];"
        ))
        .await?;
    let v = strings(&v);
    match v.as_slice() {
        [way, said] => Ok((way.clone(), said.clone())),
        _ => Err(format!("no piece drawn on {cell}").into()),
    }
}

async fn expect_points(p: &Page, cell: &str, want: &str, what: &str) -> Outcome {
    let (way, said) = points(p, cell).await?;
    check(way == want && said == want, || {
        format!("{what} on {cell} points {way} (says {said}), not {want}")
    })
}

async fn pentagons_point(p: Page) -> Outcome {
    // Every facing on the Möbius strip: A's pieces face up unless marked
    // `v`, B's down unless marked `^`.
    start_from(&p, "shogi-mobius", "4k4/9/2g^6/9/9/8G/9/1Gv7/9/9/4K4 A - 1").await?;
    expect_points(&p, "i6", "up", "A's gold facing up").await?;
    expect_points(&p, "b4", "down", "A's gold facing down").await?;
    expect_points(&p, "c9", "up", "B's gold facing up").await?;
    expect_points(&p, "e11", "down", "B's king").await?;
    // The gold on i6 steps east across the reversing seam to a6 and comes
    // out facing down.
    let view = p.view().await?;
    let across = view["moves"]
        .as_array()
        .and_then(|ms| ms.iter().find(|m| m["from"] == "i6" && m["to"] == "a6"))
        .cloned()
        .ok_or("the gold cannot step from i6 to a6")?;
    check(
        across["facing"] == "down" || across["facing"].is_null(),
        || format!("the crossing is {across}"),
    )?;
    play_from_to(&p, "i6", "a6").await?;
    expect_points(&p, "a6", "down", "A's gold after crossing the seam").await?;
    // Turned half round, every piece points the other way.
    p.click("#flip").await?;
    expect_points(&p, "a6", "up", "the crossed gold on the turned board").await?;
    expect_points(&p, "e1", "down", "A's king on the turned board").await?;
    p.click("#flip").await?;
    // On the tetrahedron's rightward arm the ranks run left to right:
    // Black's pieces there point left, toward White's back rank.
    p.open("tetra-shogi", "two").await?;
    let view = p.view().await?;
    let pieces = view["pieces"].as_array().ok_or("pieces")?;
    let first = pieces
        .iter()
        .find(|x| x["owner"] == "first")
        .and_then(|x| x["cell"].as_str())
        .ok_or("no White piece")?;
    expect_points(&p, first, "up", "White's piece on the tetrahedron").await?;
    let far = pieces
        .iter()
        .filter(|x| x["owner"] == "second")
        .filter_map(|x| x["cell"].as_str())
        // Cells are named file, rank, level: `a7.2`.
        .find(|c| {
            c.get(1..)
                .and_then(|r| r.split('.').next())
                .is_some_and(|r| ["7", "8", "9"].contains(&r))
        })
        .ok_or("no Black piece on ranks 7–9")?;
    expect_points(&p, far, "left", "Black's piece on the rightward arm").await?;
    // Chess figurines: upright on a flat board; a Möbius pawn turned by
    // the seam stands on its head.
    p.open("chess-flat", "two").await?;
    let figurines = p
        .js("return [...document.querySelectorAll('#board [data-piece]')].map(e => e.tagName + ':' + e.dataset.points)")
        .await?;
    let figurines = strings(&figurines);
    check(
        figurines.len() == 32 && figurines.iter().all(|f| f == "path:up"),
        || format!("chess-flat figurines {figurines:?}"),
    )?;
    Ok(())
}

async fn legend_is_html(p: Page) -> Outcome {
    p.open("shogi-mobius", "two").await?;
    // The board is a picture of the board alone; its legend is the page's.
    let inside = p
        .js("return document.querySelectorAll('#board #legend, #board svg > g:not(#app-marks)').length")
        .await?;
    check(inside == json!(1), || {
        format!("{inside} groups in the board picture")
    })?;
    let lines = p
        .js("return [...document.querySelectorAll('#legend-lines li')].map(li => li.textContent)")
        .await?;
    let lines = strings(&lines);
    for want in [
        "promotion zone of A",
        "glued sides",
        "king",
        "promoted rook",
    ] {
        check(lines.iter().any(|l| l.contains(want)), || {
            format!("no legend line with {want:?} in {lines:?}")
        })?;
    }
    // Beside the board, not under it.
    let beside = p
        .js(
            "const b = document.querySelector('#board svg').getBoundingClientRect(); \
             const l = document.getElementById('legend').getBoundingClientRect(); \
             return l.left >= b.right;",
        )
        .await?;
    check(beside == json!(true), || {
        "the legend is not beside the board".into()
    })?;
    // Collapsible.
    p.client
        .find(Locator::Css("#legend summary"))
        .await
        .map_err(fail)?
        .click()
        .await
        .map_err(fail)?;
    let open = p
        .js("return [document.getElementById('legend').open, document.getElementById('legend-lines').checkVisibility()]")
        .await?;
    check(open == json!([false, false]), || {
        format!("after a click the legend is {open}")
    })?;
    p.click("#legend summary").await
}

async fn tetra_game(p: Page) -> Outcome {
    sized(&p, 1400, 1000, async {
        p.open("tetra-shogi", "two").await?;
        for ply in 0..4 {
            let view = p.view().await?;
            let m = view["moves"]
                .as_array()
                .and_then(|ms| ms.iter().find(|m| m["from"].is_string()))
                .cloned()
                .ok_or_else(|| format!("no board move at ply {ply}"))?;
            play_from_to(
                &p,
                m["from"].as_str().unwrap_or_default(),
                m["to"].as_str().unwrap_or_default(),
            )
            .await?;
        }
        check(p.moves().await?.len() == 4, || {
            "four moves by clicks".into()
        })?;
        // A rook's destinations, marked.
        let rook = p.first_rook().await?;
        p.click_cell(&rook).await?;
        p.marks_on_their_cells().await?;
        let m = p.js(MEASURE).await?;
        check(number(&m, "cell") >= 32.0, || {
            format!("tetra-shogi cells of {} px", m["cell"])
        })?;
        p.screenshot("webapp-tetra-game.png").await
    })
    .await
}
