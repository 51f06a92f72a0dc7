//! Across the seams, in the browser: the ghost cells the server draws
//! beyond every glued edge appear when the player asks for them and not
//! before; the pointer on a ghost lights the real cell, which is the
//! reference's own step (asked of `seams rays`); a selected piece's moves
//! that cross a seam are drawn as routes leaving through the edge; and a
//! Klein game with ghosts on is pictured for docs/playing.md.

use fantoccini::Locator;
use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use libtest_mimic::Failed;
use serde_json::{Value, json};

use crate::webapp::{Outcome, Page, Steps, check, fail, strings};

pub(crate) const TRIALS: &[(&str, Steps)] = &[
    (
        "ghost_cells_appear_only_when_asked_for_on_every_surface",
        |p| Box::pin(ghosts_toggle(p)),
    ),
    (
        "the_pointer_on_a_ghost_lights_the_cell_a_step_reaches",
        |p| Box::pin(ghost_hover(p)),
    ),
    (
        "a_selected_piece_shows_its_moves_across_a_seam_leaving_through_the_edge",
        |p| Box::pin(crossings(p)),
    ),
    ("a_klein_game_with_ghost_cells_on_is_pictured", |p| {
        Box::pin(klein_picture(p))
    }),
];

/// The surface variants, their boards and how many ghosts each has (two
/// side columns, with rows and corners where the top and bottom are glued
/// too, and on genus two the staircase edges).
const SURFACES: &[(&str, &str, usize)] = &[
    ("chess-mobius", "mobius-10x9", 18),
    ("shogi-mobius", "mobius-9x11", 22),
    ("shogi-klein", "klein-9x18", 58),
    ("chess-klein", "klein-9x18", 58),
    ("shogi-genus2", "genus2-9x9", 124),
];

/// How many ghost cells the player sees.
async fn visible_ghosts(p: &Page) -> Result<usize, fantoccini::error::CmdError> {
    let v = p
        .client
        .execute(
            "return [...document.querySelectorAll('#board [data-ghost-of]')] \
               .filter(g => { const r = g.getBoundingClientRect(); return r.width > 0 && r.height > 0; }).length",
            vec![],
        )
        .await?;
    Ok(v.as_u64().unwrap_or(0) as usize)
}

async fn toggle_ghosts(p: &Page, on: bool) -> Outcome {
    let checked = p
        .js("return document.getElementById('ghosts').checked")
        .await?;
    if checked != Value::Bool(on) {
        p.click("#ghosts").await?;
    }
    Ok(())
}

async fn ghosts_toggle(p: Page) -> Outcome {
    for &(variant, _, want) in SURFACES {
        p.open(variant, "two").await?;
        toggle_ghosts(&p, false).await?;
        let drawn = p
            .js("return document.querySelectorAll('#board [data-ghost-of]').length")
            .await?;
        check(drawn == json!(want), || {
            format!("{variant}: {drawn} ghosts drawn, the board has {want}")
        })?;
        let off = visible_ghosts(&p).await.map_err(fail)?;
        check(off == 0, || {
            format!("{variant}: {off} ghosts seen while off")
        })?;
        toggle_ghosts(&p, true).await?;
        let on = visible_ghosts(&p).await.map_err(fail)?;
        check(on == want, || {
            format!("{variant}: {on} ghosts seen while on, the board has {want}")
        })?;
        // They stay on through a move, and go when switched off.
        let view = p.view().await?;
        let m = view["moves"]
            .as_array()
            .and_then(|ms| ms.iter().find(|m| m["from"].is_string()))
            .ok_or_else(|| format!("{variant}: no board move"))?
            .clone();
        p.click_cell(m["from"].as_str().unwrap_or_default()).await?;
        p.click_cell(m["to"].as_str().unwrap_or_default()).await?;
        if p.js("return !document.getElementById('choice').hidden")
            .await?
            == Value::Bool(true)
        {
            p.click("#choice-buttons button").await?;
        }
        check(p.moves().await?.len() == 1, || {
            format!("{variant}: the move was not played")
        })?;
        let after = visible_ghosts(&p).await.map_err(fail)?;
        check(after == want, || {
            format!("{variant}: {after} ghosts seen after a move")
        })?;
        toggle_ghosts(&p, false).await?;
        let gone = visible_ghosts(&p).await.map_err(fail)?;
        check(gone == 0, || {
            format!("{variant}: {gone} ghosts seen once switched off")
        })?;
    }
    // A flat board has no glued edge, so nothing to show.
    p.open("chess-flat", "two").await?;
    toggle_ghosts(&p, true).await?;
    let flat = p
        .js("return document.querySelectorAll('#board [data-ghost-of]').length")
        .await?;
    check(flat == json!(0), || {
        format!("chess-flat draws {flat} ghosts")
    })?;
    toggle_ghosts(&p, false).await
}

/// The reference's steps from `cell` on `board`, as `seams rays` lists
/// them: the four cardinal steps (rook rays that stop at once on a board
/// whose every cell is taken) or all eight unit steps (king).
fn steps_of(
    board: &str,
    cell: &str,
    all_cells: &[String],
    cardinal: bool,
) -> Vec<(String, String)> {
    let occupied = all_cells.join(",");
    let mut args = vec!["rays", board, "--from", cell, "--json"];
    if cardinal {
        args.extend(["--pattern", "orthogonal", "--occupied", &occupied]);
    } else {
        args.extend(["--pattern", "king"]);
    }
    let run = crate::common::seams(&args);
    let v: Value = serde_json::from_str(&run.stdout).unwrap_or(Value::Null);
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|l| {
                    (
                        l["cell"].as_str().unwrap_or_default().to_string(),
                        l["transport"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Moves the pointer onto the ghost beyond `beside` in direction `dir`
/// and returns the cells lit.
async fn hover_ghost(p: &Page, beside: &str, dir: &str) -> Result<Vec<String>, Failed> {
    let hit = p
        .client
        .find(Locator::Css(&format!(
            "#board [data-ghost-hit][data-beside='{beside}'][data-dir='{dir}']"
        )))
        .await
        .map_err(fail)?;
    let mouse = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
        element: hit,
        duration: None,
        x: 0.0,
        y: 0.0,
    });
    p.client.perform_actions(mouse).await.map_err(fail)?;
    p.client.release_actions().await.map_err(fail)?;
    let lit = p
        .js("return [...document.querySelectorAll('#board .ghost-lit')].map(e => e.dataset.cell)")
        .await?;
    Ok(strings(&lit))
}

async fn ghost_hover(p: Page) -> Outcome {
    for (variant, board) in [
        ("shogi-klein", "klein-9x18"),
        ("chess-mobius", "mobius-10x9"),
        ("shogi-genus2", "genus2-9x9"),
    ] {
        p.open(variant, "two").await?;
        toggle_ghosts(&p, true).await?;
        let cells = strings(
            &p.js("return [...document.querySelectorAll('#board [data-cell]')].map(e => e.dataset.cell)")
                .await?,
        );
        let ghosts = p
            .js("return [...document.querySelectorAll('#board [data-ghost-of]')].map(g => \
                   [g.dataset.beside, g.dataset.dir, g.dataset.ghostOf, g.dataset.transport, g.dataset.kind])")
            .await?;
        let ghosts: Vec<Vec<String>> = ghosts
            .as_array()
            .map(|a| a.iter().map(strings).collect())
            .unwrap_or_default();
        // Several of each kind: the first and last of the sides, every
        // corner, and on genus two the first and last staircase tabs.
        let mut chosen: Vec<&Vec<String>> = Vec::new();
        for kind in ["side", "corner", "staircase"] {
            let of_kind: Vec<&Vec<String>> = ghosts.iter().filter(|g| g[4] == kind).collect();
            chosen.extend(of_kind.iter().take(2));
            chosen.extend(of_kind.iter().rev().take(2));
        }
        check(chosen.len() >= 4, || {
            format!("{variant}: only {} ghosts to try", chosen.len())
        })?;
        for g in chosen {
            let (beside, dir, of, transport) = (&g[0], &g[1], &g[2], &g[3]);
            let cardinal = ["N", "E", "S", "W"].contains(&dir.as_str());
            let steps = steps_of(board, beside, &cells, cardinal);
            check(steps.contains(&(of.clone(), transport.clone())), || {
                format!(
                    "{variant}: the ghost beyond {beside} {dir} shows {of} ({transport}); \
                     seams rays gives {steps:?}"
                )
            })?;
            let lit = hover_ghost(&p, beside, dir).await?;
            check(lit == [of.clone()], || {
                format!("{variant}: the ghost beyond {beside} {dir} lights {lit:?}, not {of}")
            })?;
        }
        toggle_ghosts(&p, false).await?;
    }
    Ok(())
}

/// A piece whose moves cross a seam, by the routes the server drew.
async fn crossing_piece(p: &Page) -> Result<String, Failed> {
    let from = p
        .js("const g = document.querySelector('#board [data-crossing]'); return g ? g.dataset.from : null")
        .await?;
    from.as_str()
        .map(String::from)
        .ok_or_else(|| "no move crosses a seam".into())
}

/// The routes shown, as (action, from, to).
async fn shown_crossings(p: &Page) -> Result<Vec<Vec<String>>, Failed> {
    let v = p
        .js(
            "return [...document.querySelectorAll('#board [data-crossing]')] \
               .filter(g => g.getBoundingClientRect().width > 0) \
               .map(g => [g.dataset.crossing, g.dataset.from, g.dataset.to])",
        )
        .await?;
    Ok(v.as_array()
        .map(|a| a.iter().map(strings).collect())
        .unwrap_or_default())
}

async fn crossings(p: Page) -> Outcome {
    p.open("chess-klein", "two").await?;
    check(shown_crossings(&p).await?.is_empty(), || {
        "routes are shown before a piece is selected".into()
    })?;
    let piece = crossing_piece(&p).await?;
    p.click_cell(&piece).await?;
    let shown = shown_crossings(&p).await?;
    let dests = p.destinations().await?;
    check(!shown.is_empty(), || format!("{piece}: no route shown"))?;
    for c in &shown {
        check(c[1] == piece && dests.contains(&c[2]), || {
            format!("{piece} selected, a route {c:?} shown (destinations {dests:?})")
        })?;
    }
    // Every route of a shown move leaves through the edge: its exit lies
    // outside every real cell, in the ghost of the cell it reaches when
    // the ghosts are on.
    toggle_ghosts(&p, true).await?;
    let out = p
        .js("const cells = [...document.querySelectorAll('#board [data-cell]')].map(e => e.getBoundingClientRect()); \
             const inside = (x, y, r) => x > r.left && x < r.right && y > r.top && y < r.bottom; \
             return [...document.querySelectorAll('#board [data-crossing]')] \
               .filter(g => g.getBoundingClientRect().width > 0) \
               .flatMap(g => [...g.querySelectorAll('[data-exit]')]) \
               .map(e => { const b = e.getBoundingClientRect(); const x = b.left + b.width / 2, y = b.top + b.height / 2; \
                 const ghost = [...document.querySelectorAll(`#board [data-ghost-of='${e.dataset.exitTo}'] rect`)] \
                   .some(r => inside(x, y, r.getBoundingClientRect())); \
                 return [e.dataset.exit, e.dataset.exitTo, cells.some(r => inside(x, y, r)), ghost]; })")
        .await?;
    let exits = out.as_array().cloned().unwrap_or_default();
    check(!exits.is_empty(), || {
        format!("{piece}: no route leaves through an edge")
    })?;
    for e in &exits {
        check(e[2] == json!(false) && e[3] == json!(true), || {
            format!("{piece}: the exit {e} is not beyond the edge in its ghost")
        })?;
    }
    toggle_ghosts(&p, false).await?;
    // Another piece, whose moves stay on the drawing, shows none.
    let view = p.view().await?;
    let plain = view["moves"]
        .as_array()
        .ok_or("moves")?
        .iter()
        .filter_map(|m| m["from"].as_str())
        .find(|f| *f != piece)
        .ok_or("no other piece moves")?
        .to_string();
    p.click_cell(&plain).await?;
    let other = shown_crossings(&p).await?;
    check(other.iter().all(|c| c[1] == plain), || {
        format!("{plain} selected, routes of others shown: {other:?}")
    })
}

async fn klein_picture(p: Page) -> Outcome {
    p.open("shogi-klein", "two").await?;
    // A's pawn on i5 steps aside, so that the rook on h5 can run east
    // across the side seam, which brings it back in upside down on a14.
    for (from, to) in [("i5", "i6"), ("b13", "b12")] {
        p.click_cell(from).await?;
        p.click_cell(to).await?;
    }
    check(p.moves().await? == ["i5-i6", "b13-b12"], || {
        "the opening moves were not played".into()
    })?;
    toggle_ghosts(&p, true).await?;
    p.click_cell("h5").await?;
    let shown = shown_crossings(&p).await?;
    check(
        shown
            .iter()
            .any(|c| c[0].starts_with("h5-a14") && c[2] == "a14"),
        || format!("the rook's routes across the seam: {shown:?}"),
    )?;
    let seen = visible_ghosts(&p).await.map_err(fail)?;
    check(seen == 58, || {
        format!("{seen} ghosts seen on the Klein bottle")
    })?;
    p.screenshot("webapp-klein-ghosts.png").await?;
    toggle_ghosts(&p, false).await
}
