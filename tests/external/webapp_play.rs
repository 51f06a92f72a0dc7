//! The web app as players use it, in a real browser (the harness and page
//! steps of `webapp.rs`): drops of two-faced Kyoto tokens, hand counts in
//! the editor, status lines in every mode, where the promotion choice
//! stands, why a hand button is greyed, load errors, the favicon, the
//! last move on the board, the keys, the coordinates switch and what the
//! page remembers. Each trial measures what the player sees in the DOM.

use fantoccini::Locator;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use libtest_mimic::Failed;
use serde_json::{Value, json};

use crate::webapp::{Outcome, Page, Steps, check, fail, start_from, strings};

/// Every trial of this file, by name.
pub(crate) const TRIALS: &[(&str, Steps)] = &[
    (
        "a_kyoto_token_in_hand_is_dropped_on_either_face_by_clicks",
        |p| Box::pin(kyoto_drops(p)),
    ),
    (
        "an_editor_hand_count_keeps_what_was_typed_with_the_refusal_beside_it",
        |p| Box::pin(editor_hand_count(p)),
    ),
    (
        "status_lines_name_the_chosen_army_the_result_and_the_familys_players",
        |p| Box::pin(status_lines(p)),
    ),
    ("the_promotion_choice_leaves_the_move_in_view", |p| {
        Box::pin(promotion_beside(p))
    }),
    ("greyed_hand_buttons_say_why", |p| Box::pin(greyed_hands(p))),
    ("a_refused_record_names_its_ply_once", |p| {
        Box::pin(load_error_once(p))
    }),
    ("the_page_has_its_favicon", |p| Box::pin(favicon(p))),
    ("the_last_move_is_framed_on_the_board", |p| {
        Box::pin(last_move(p))
    }),
    (
        "arrow_keys_step_through_the_moves_home_and_end_jump_and_esc_lets_go",
        |p| Box::pin(keys(p)),
    ),
    ("coordinates_switch_off_and_on", |p| {
        Box::pin(coordinates(p))
    }),
    ("the_page_remembers_the_last_variant_and_mode", |p| {
        Box::pin(remembers(p))
    }),
];

/// Presses and releases `key` wherever the focus is.
async fn press(p: &Page, key: Key) -> Outcome {
    let keys = KeyActions::new("keyboard".to_string())
        .then(KeyAction::Down { value: key.into() })
        .then(KeyAction::Up { value: key.into() });
    p.client.perform_actions(keys).await.map_err(fail)?;
    p.client.release_actions().await.map_err(fail)?;
    p.idle().await
}

/// Moves the focus off any field, as a click on the page's background
/// does, so that keys go to the page.
async fn unfocus(p: &Page) -> Outcome {
    p.js("if (document.activeElement) document.activeElement.blur(); return true")
        .await?;
    Ok(())
}

/// Plays `from`-`to` pairs by clicks.
async fn click_moves(p: &Page, moves: &[(&str, &str)]) -> Outcome {
    for (from, to) in moves {
        p.click_cell(from).await?;
        p.click_cell(to).await?;
    }
    Ok(())
}

/// The cells framed on the board, sorted.
async fn framed(p: &Page) -> Result<Vec<String>, Failed> {
    let v = p
        .js("return [...document.querySelectorAll('#board [data-framed]')].map(e => e.dataset.framed).sort()")
        .await?;
    Ok(strings(&v))
}

/// The screen box of `css`, as `[left, top, right, bottom]`.
async fn rect(p: &Page, css: &str) -> Result<[f64; 4], Failed> {
    let v = p
        .js(&format!(
            "const e = document.querySelector(\"{css}\"); if (!e) return null; \
             const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]"
        ))
        .await?;
    let a: Vec<f64> = v
        .as_array()
        .ok_or_else(|| format!("nothing matches {css}"))?
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    a.try_into()
        .map_err(|_| format!("no box for {css}: {v}").into())
}

fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

async fn kyoto_drops(p: Page) -> Outcome {
    // In both Kyoto variants: the first player's bishop takes the silver
    // on d5 (turning back to its silver face), then the token goes back
    // in as either face.
    for variant in ["kyoto", "kyoto-repetition-loss"] {
        p.open(variant, "two").await?;
        click_moves(
            &p,
            &[("b1", "a2"), ("a5", "a4"), ("a2", "d5"), ("a4", "a2")],
        )
        .await?;
        let hand = "#hand-first button[data-drop='S/B']";
        let disabled = p
            .js(&format!(
                "const b = document.querySelector(\"{hand}\"); return b ? b.disabled : 'no button'"
            ))
            .await?;
        check(disabled == json!(false), || {
            format!("{variant}: the S/B token in hand: disabled {disabled}")
        })?;
        p.click(hand).await?;
        let dests = p.destinations().await?;
        check(dests.len() == 16, || {
            format!("{variant}: the token drops on {dests:?}")
        })?;
        // Both faces drop on every empty cell here: the page asks which.
        p.click_cell(&dests[0]).await?;
        let choices = p
            .js("return [...document.querySelectorAll('#choice-buttons button')].map(b => b.dataset.action).sort()")
            .await?;
        let want = [format!("B*{}", dests[0]), format!("S*{}", dests[0])];
        check(strings(&choices) == want, || {
            format!("{variant}: the choice offers {choices}, not {want:?}")
        })?;
        let title = p.text("choice-title").await?;
        check(title.contains("face"), || {
            format!("{variant}: the choice is titled {title:?}")
        })?;
        p.click(&format!(
            "#choice-buttons button[data-action='B*{}']",
            dests[0]
        ))
        .await?;
        let moves = p.moves().await?;
        check(
            moves.last().map(String::as_str) == Some(want[0].as_str()) && moves.len() == 5,
            || format!("{variant}: moves {moves:?}"),
        )?;
        // A drop's last move is its destination alone.
        let marked = framed(&p).await?;
        check(marked == [dests[0].clone()], || {
            format!("{variant}: after the drop the board frames {marked:?}")
        })?;
    }
    Ok(())
}

async fn editor_hand_count(p: Page) -> Outcome {
    p.open("shogi-klein", "editor").await?;
    let css = "#editor-fields input[data-hand='first:P']";
    // Clearing the field is an edit of its own (to 0), which draws the
    // fields again.
    p.client
        .find(Locator::Css(css))
        .await
        .map_err(fail)?
        .clear()
        .await
        .map_err(fail)?;
    p.idle().await?;
    let field = p.client.find(Locator::Css(css)).await.map_err(fail)?;
    field
        .send_keys(&format!("2{}", char::from(Key::Tab)))
        .await
        .map_err(fail)?;
    p.idle().await?;
    let value = p
        .js(&format!("return document.querySelector(\"{css}\").value"))
        .await?;
    check(value == json!("2"), || {
        format!("the field shows {value} after 2 was typed")
    })?;
    let note = "#editor-fields .field-refusal[data-field='first:P']";
    let said = p
        .js(&format!(
            "const n = document.querySelector(\"{note}\"); return n ? n.textContent : null"
        ))
        .await?;
    check(said.as_str().is_some_and(|s| s.contains("SS-I9")), || {
        format!("beside the field: {said}")
    })?;
    // In view, right under the field.
    let (input, refusal) = (rect(&p, css).await?, rect(&p, note).await?);
    let height = p.js("return window.innerHeight").await?;
    let height = height.as_f64().unwrap_or_default();
    check(
        refusal[1] >= 0.0
            && refusal[3] <= height
            && refusal[1] >= input[1]
            && refusal[1] - input[3] < 40.0,
        || format!("the refusal at {refusal:?}, the field at {input:?}, the window {height} high"),
    )
}

async fn status_lines(p: Page) -> Outcome {
    // Analysis: after White's experiment, the player gives the move back
    // to White; the status says who moves now.
    p.open("chess-flat", "analysis").await?;
    click_moves(&p, &[("e2", "e4")]).await?;
    p.select("mover", "first").await?;
    let status = p.text("status").await?;
    check(
        status.contains("White") && !status.contains("Black"),
        || format!("with White chosen to move, the status reads {status:?}"),
    )?;
    let options = p
        .js("return [...document.querySelectorAll('#mover option')].map(o => o.textContent)")
        .await?;
    check(strings(&options) == ["White", "Black"], || {
        format!("the mover's choices {options}")
    })?;
    // A finished game says its result, not whose move it would be.
    p.open("chess-flat", "two").await?;
    click_moves(
        &p,
        &[("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")],
    )
    .await?;
    let status = p.text("status").await?;
    check(
        status.contains("Black wins by checkmate") && !status.contains("to move"),
        || format!("after the mate the status reads {status:?}"),
    )?;
    // The tetrahedron's editor names White and Black as its board does.
    p.open("tetra-shogi", "editor").await?;
    p.click("#palette button[data-token='']").await?;
    p.click_cell("e1.1").await?;
    let verdict = p.text("editor-verdict").await?;
    check(
        verdict.contains("White has 0 royal pieces") && !verdict.contains("First"),
        || format!("the tetra editor says {verdict:?}"),
    )
}

async fn promotion_beside(p: Page) -> Outcome {
    // B's pawn promotes in the middle of the board, where the choice
    // used to stand.
    let cases = [
        ("shogi-flat", "4k4/9/9/9/9/4p4/9/9/4K4 B - 1", "e4", "e3"),
        ("chess-flat", "8/P6k/8/8/8/8/8/K7 w - - 0 1", "a7", "a8"),
    ];
    for (variant, position, from, to) in cases {
        start_from(&p, variant, position).await?;
        p.click_cell(from).await?;
        p.click_cell(to).await?;
        let shown = p
            .js("return !document.getElementById('choice').hidden")
            .await?;
        check(shown == json!(true), || {
            format!("{variant}: no choice for {from}-{to}")
        })?;
        let choice = rect(&p, "#choice").await?;
        for cell in [from, to] {
            let b = rect(&p, &format!("#board [data-cell='{cell}']")).await?;
            check(!overlap(choice, b), || {
                format!("{variant}: the choice {choice:?} covers {cell} {b:?}")
            })?;
        }
        let height = p.js("return window.innerHeight").await?;
        check(
            choice[1] >= 0.0 && choice[3] <= height.as_f64().unwrap_or_default(),
            || format!("{variant}: the choice {choice:?} is out of view"),
        )?;
        // Esc closes it and plays nothing.
        press(&p, Key::Escape).await?;
        let hidden = p
            .js("return document.getElementById('choice').hidden")
            .await?;
        check(hidden == json!(true) && p.moves().await?.is_empty(), || {
            format!("{variant}: Esc left the choice open or played")
        })?;
    }
    Ok(())
}

/// The hand buttons as `(side, label, disabled, title, text)`.
async fn hand_buttons(p: &Page) -> Result<Vec<Value>, Failed> {
    let v = p
        .js(
            "return [...document.querySelectorAll('.hand-piece')].map(b => \
               [b.dataset.side, b.dataset.drop, b.disabled, b.title, b.textContent])",
        )
        .await?;
    Ok(v.as_array().cloned().unwrap_or_default())
}

async fn greyed_hands(p: Page) -> Outcome {
    // A to move with a gold each in hand: B's is not B's to drop.
    start_from(&p, "shogi-flat", "4k4/9/9/9/9/9/9/9/4K4 A Gg 1").await?;
    let buttons = hand_buttons(&p).await?;
    let b = buttons
        .iter()
        .find(|b| b[0] == "second")
        .ok_or("no hand button of B")?;
    check(
        b[2] == json!(true)
            && b[3].as_str().is_some_and(|t| t.contains("not B's turn"))
            && b[4].as_str().is_some_and(|t| t.contains("not B's turn")),
        || format!("B's gold: {b}"),
    )?;
    let a = buttons
        .iter()
        .find(|b| b[0] == "first")
        .ok_or("no hand button of A")?;
    check(a[2] == json!(false), || format!("A's gold: {a}"))?;
    // A pawn on every file: no pawn can be dropped (nifu).
    start_from(&p, "shogi-flat", "4k4/9/9/9/9/9/PPPPPPPPP/9/4K4 A P 1").await?;
    let buttons = hand_buttons(&p).await?;
    check(
        buttons.len() == 1
            && buttons[0][2] == json!(true)
            && buttons[0][3]
                .as_str()
                .is_some_and(|t| t.contains("no legal drop"))
            && buttons[0][4]
                .as_str()
                .is_some_and(|t| t.contains("no legal drop")),
        || format!("A's pawn: {buttons:?}"),
    )?;
    // Once the game is over, nothing drops.
    start_from(&p, "shogi-flat", "4k4/9/9/9/9/9/9/9/4K4 A Gg 1").await?;
    p.click("#resign").await?;
    let buttons = hand_buttons(&p).await?;
    check(
        buttons.iter().all(|b| {
            b[2] == json!(true) && b[3].as_str().is_some_and(|t| t.contains("game is over"))
        }),
        || format!("after resigning: {buttons:?}"),
    )
}

async fn load_error_once(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    let record = p
        .js("return fetch('/api/game', { method: 'POST', headers: { 'content-type': 'application/json' }, \
               body: JSON.stringify({ variant: 'chess-flat', actions: ['e2-e4', 'e7-e5', 'g1-f3'] }) }) \
               .then(r => r.json()).then(v => v.record)")
        .await?;
    let mut bad = record.clone();
    bad["actions"][2] = json!("b2-a1");
    let dir = crate::common::html::scratch("webapp-play-load");
    let file = dir.join("tampered.json");
    std::fs::write(&file, bad.to_string()).map_err(fail)?;
    let input = p.client.find(Locator::Id("load")).await.map_err(fail)?;
    input
        .send_keys(&file.display().to_string())
        .await
        .map_err(fail)?;
    p.until(
        "the refusal is shown",
        "return document.getElementById('error').textContent.includes('b2-a1')",
    )
    .await?;
    let error = p.text("error").await?;
    check(
        error.matches("ply 3").count() == 1 && !error.contains("ply 2"),
        || format!("the refusal reads {error:?}"),
    )
}

async fn favicon(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    let icon = p
        .js("const l = document.querySelector(\"link[rel='icon']\"); if (!l) return null; \
             return Promise.all([fetch(l.href), fetch('/favicon.ico')]).then(rs => \
               Promise.all(rs.map(r => r.text().then(t => [r.status, r.headers.get('content-type'), t.startsWith('<svg')]))))")
        .await?;
    let want = json!([[200, "image/svg+xml", true], [200, "image/svg+xml", true]]);
    check(icon == want, || format!("the favicon: {icon}"))
}

async fn last_move(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    check(framed(&p).await?.is_empty(), || {
        "the start frames cells".into()
    })?;
    click_moves(&p, &[("e2", "e4")]).await?;
    let marked = framed(&p).await?;
    check(marked == ["e2", "e4"], || {
        format!("after e2-e4 the board frames {marked:?}")
    })?;
    // The legend, set out beside the board, says what the frames are.
    let legend = p.text("legend").await?;
    check(legend.contains("the last move (e2-e4)"), || {
        format!("the legend does not say what the frames are: {legend}")
    })?;
    click_moves(&p, &[("g8", "f6")]).await?;
    let marked = framed(&p).await?;
    check(marked == ["f6", "g8"], || {
        format!("after g8-f6 the board frames {marked:?}")
    })?;
    // A resignation is no move: the move before it stays marked.
    p.click("#resign").await?;
    let marked = framed(&p).await?;
    check(marked == ["f6", "g8"], || {
        format!("after resigning the board frames {marked:?}")
    })?;
    // On the flipped board too, on the cells themselves.
    p.click("#flip").await?;
    let inside = p
        .js("return [...document.querySelectorAll('#board [data-framed]')].every(f => { \
               const a = f.getBoundingClientRect(); \
               const c = document.querySelector(`#board [data-cell='${f.dataset.framed}']`).getBoundingClientRect(); \
               return a.left >= c.left && a.right <= c.right && a.top >= c.top && a.bottom <= c.bottom; })")
        .await?;
    p.click("#flip").await?;
    check(inside == json!(true), || {
        "the frames stray from their cells on the flipped board".into()
    })
}

async fn keys(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    click_moves(&p, &[("e2", "e4"), ("e7", "e5"), ("g1", "f3")]).await?;
    let live = p
        .js("return document.getElementById('position').value")
        .await?;
    unfocus(&p).await?;
    press(&p, Key::Left).await?;
    let status = p.text("status").await?;
    check(status.contains("move 2 of 3"), || {
        format!("after ← the status reads {status:?}")
    })?;
    let position = p
        .js("return document.getElementById('position').value")
        .await?;
    check(
        position
            .as_str()
            .is_some_and(|t| t.starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")),
        || format!("after ← the position is {position}"),
    )?;
    // The game keeps every move, and no piece moves while looking back.
    check(p.moves().await?.len() == 3, || {
        "looking back lost moves".into()
    })?;
    p.click_cell("d2").await?;
    check(p.destinations().await?.is_empty(), || {
        "a piece can be moved in an earlier position".into()
    })?;
    press(&p, Key::Home).await?;
    let status = p.text("status").await?;
    check(status.contains("the start"), || {
        format!("after Home the status reads {status:?}")
    })?;
    press(&p, Key::Right).await?;
    let status = p.text("status").await?;
    check(status.contains("move 1 of 3"), || {
        format!("after → the status reads {status:?}")
    })?;
    press(&p, Key::End).await?;
    let position = p
        .js("return document.getElementById('position').value")
        .await?;
    let status = p.text("status").await?;
    check(position == live && status == "Black to move", || {
        format!("after End: {position}, status {status:?}")
    })?;
    // Esc lets go of a selection.
    p.click_cell("d7").await?;
    check(!p.destinations().await?.is_empty(), || {
        "d7 offers nothing".into()
    })?;
    press(&p, Key::Escape).await?;
    check(p.destinations().await?.is_empty(), || {
        "Esc kept the selection".into()
    })?;
    // The game goes on from where it stands.
    click_moves(&p, &[("d7", "d6")]).await?;
    check(p.moves().await?.len() == 4, || "no move after End".into())?;
    // In analysis, ← and → walk the line.
    p.select("mode", "analysis").await?;
    click_moves(&p, &[("f1", "c4")]).await?;
    unfocus(&p).await?;
    press(&p, Key::Left).await?;
    let line = p
        .js("return document.querySelectorAll('#moves li').length")
        .await?;
    press(&p, Key::Right).await?;
    let again = p
        .js("return document.querySelectorAll('#moves li').length")
        .await?;
    check(line == json!(0) && again == json!(1), || {
        format!("the analysis line: {line} after ←, {again} after →")
    })
}

async fn coordinates(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    let texts = "return document.querySelectorAll('#board svg text').length";
    let labels = "return [...document.querySelectorAll('#board svg text')].filter(t => /^[a-h1-8]$/.test(t.textContent)).length";
    let (all, shown) = (p.js(texts).await?, p.js(labels).await?);
    check(shown == json!(16), || {
        format!("{shown} file and rank labels on the flat chess board")
    })?;
    p.click("#coordinates").await?;
    let (rest, hidden) = (p.js(texts).await?, p.js(labels).await?);
    let pressed = p
        .js("return document.getElementById('coordinates').getAttribute('aria-pressed')")
        .await?;
    let outcome = check(
        hidden == json!(0)
            && rest.as_u64().map(|n| n + 16) == all.as_u64()
            && pressed == json!("false"),
        || format!("switched off: {hidden} labels, {rest} of {all} texts, pressed {pressed}"),
    );
    // Moves still work without labels; then the labels come back.
    click_moves(&p, &[("e2", "e4")]).await?;
    let still = p.js(labels).await?;
    p.click("#coordinates").await?;
    outcome?;
    check(still == json!(0), || {
        "a move brought the labels back".into()
    })?;
    let back = p.js(labels).await?;
    check(back == json!(16), || format!("{back} labels switched on"))
}

async fn remembers(p: Page) -> Outcome {
    p.open("kyoto", "opponent").await?;
    // Opened again without naming a variant: as it was left.
    p.js("location.assign('/'); return true").await?;
    p.until(
        "the page is open again",
        "return location.search === '' && document.body.dataset.ready === 'true' \
         && !document.body.classList.contains('busy')",
    )
    .await?;
    let (variant, mode) = (
        p.js("return document.getElementById('variant').value")
            .await?,
        p.js("return document.getElementById('mode').value").await?,
    );
    // Leave nothing behind for the other trials.
    p.js("localStorage.clear(); return true").await?;
    check(
        variant == json!("kyoto") && mode == json!("opponent"),
        || format!("opened again: {variant} in mode {mode}"),
    )
}
