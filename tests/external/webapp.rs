//! The web app in a real browser: `seams serve` driven through WebDriver
//! (chromedriver and headless Chromium), by clicking and dragging as a
//! player does. Each trial is one thing a player does: choose a variant,
//! see a piece's destinations, move by click and by drag, choose a
//! promotion, drop from the hand, play the opponent, analyse, edit, save
//! and load.
//!
//! Without Chromium and chromedriver every trial is reported as *ignored*
//! with the reason in its name, never as a silent pass. `.ci/run` installs Debian's chromium and chromium-driver.
//! With `SEAMS_SCREENSHOTS=DIR` the trials that make the README's pictures
//! also write them there (`tools/screenshots.sh`).

use std::future::Future;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::common::server::Server;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::{Client, ClientBuilder, Locator};
use libtest_mimic::{Failed, Trial};
use serde_json::{Value, json};

pub(crate) type Outcome = Result<(), Failed>;
pub(crate) type Steps = fn(Page) -> Pin<Box<dyn Future<Output = Outcome> + Send>>;

/// Every trial, by name.
const TRIALS: &[(&str, Steps)] = &[
    ("every_variant_is_drawn_with_clickable_cells", |p| {
        Box::pin(every_variant_is_drawn(p))
    }),
    ("a_click_marks_destinations_and_a_second_click_moves", |p| {
        Box::pin(click_marks_and_moves(p))
    }),
    ("a_drag_from_piece_to_destination_moves", |p| {
        Box::pin(drag_moves(p))
    }),
    ("a_checkmate_by_clicks_ends_the_game_with_its_reason", |p| {
        Box::pin(checkmate_by_clicks(p))
    }),
    ("promotion_asks_which_outcome", |p| {
        Box::pin(promotion_asks(p))
    }),
    ("pieces_are_dropped_from_the_hand", |p| Box::pin(drops(p))),
    ("the_opponent_answers_and_a_draw_offer_is_answered", |p| {
        Box::pin(opponent_answers(p))
    }),
    ("a_whole_game_against_the_opponent_in_every_variant", |p| {
        Box::pin(whole_games(p))
    }),
    (
        "analysis_relaxes_king_safety_takes_back_and_branches",
        |p| Box::pin(analysis(p)),
    ),
    ("the_editor_places_pieces_and_starts_a_game", |p| {
        Box::pin(editor(p))
    }),
    ("a_game_is_saved_and_loaded_back", |p| {
        Box::pin(save_and_load(p))
    }),
    ("the_board_flips", |p| Box::pin(flips(p))),
];

/// The trials, ignored with the reason in their names without Chromium
/// and chromedriver.
pub fn trials() -> Vec<Trial> {
    let missing = missing_tools();
    // Each area of the app keeps its trials in its own file.
    let areas: [&[(&str, Steps)]; 4] = [
        TRIALS,
        crate::webapp_seams::TRIALS,
        crate::webapp_layout::TRIALS,
        crate::webapp_play::TRIALS,
    ];
    areas
        .into_iter()
        .flatten()
        .map(|&(name, steps)| match &missing {
            None => Trial::test(name, move || run(steps)),
            Some(why) => Trial::test(format!("{name} (needs {why}; .ci/run installs it)"), || {
                Err("no browser".into())
            })
            .with_ignored_flag(true),
        })
        .collect()
}

/// Stops the browser, chromedriver and the server, if a trial started
/// them.
pub fn stop() {
    if let Some(h) = HARNESS.get() {
        h.stop();
    }
}

fn chromium() -> PathBuf {
    std::env::var_os("SEAMS_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

fn chromedriver() -> PathBuf {
    std::env::var_os("SEAMS_CHROMEDRIVER")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromedriver"))
}

/// What is missing to run the trials, if anything.
pub fn missing_tools() -> Option<String> {
    let gone: Vec<String> = [chromium(), chromedriver()]
        .iter()
        .filter(|p| !p.is_file())
        .map(|p| p.display().to_string())
        .collect();
    (!gone.is_empty()).then(|| gone.join(" and "))
}

/// The server, chromedriver and one browser session, shared by the trials.
struct Harness {
    runtime: tokio::runtime::Runtime,
    server: Server,
    driver: std::sync::Mutex<Child>,
    client: Client,
    downloads: PathBuf,
}

static HARNESS: OnceLock<Harness> = OnceLock::new();

impl Harness {
    fn start() -> Result<Harness, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let server = Server::start(&[]);
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| e.to_string())?
            .port();
        // In a group of its own with the browser it starts, killed at exit
        // even if `stop` is never reached.
        let driver = crate::common::reap::spawn(
            Command::new(chromedriver())
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null()),
        )
        .map_err(|e| format!("chromedriver does not start: {e}"))?;
        let dir = crate::common::html::scratch("webapp");
        let downloads = dir.join("downloads");
        std::fs::create_dir_all(&downloads).map_err(|e| e.to_string())?;
        let caps = json!({
            "goog:chromeOptions": {
                "binary": chromium(),
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--window-size=1400,1100",
                    format!("--user-data-dir={}", dir.join("profile").display()),
                ],
                "prefs": {
                    "download.default_directory": downloads,
                    "download.prompt_for_download": false,
                },
            }
        });
        let caps = caps.as_object().cloned().ok_or("capabilities")?;
        let url = format!("http://127.0.0.1:{port}");
        let client = runtime.block_on(async {
            // chromedriver takes a moment to listen.
            let deadline = Instant::now() + Duration::from_secs(20);
            loop {
                let connector = hyper_util::client::legacy::connect::HttpConnector::new();
                match ClientBuilder::new(connector)
                    .capabilities(caps.clone())
                    .connect(&url)
                    .await
                {
                    Ok(c) => return Ok(c),
                    Err(e) if Instant::now() > deadline => {
                        return Err(format!("no WebDriver session: {e}"));
                    }
                    Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            }
        })?;
        Ok(Harness {
            runtime,
            server,
            driver: std::sync::Mutex::new(driver),
            client,
            downloads,
        })
    }

    fn stop(&self) {
        let client = self.client.clone();
        let _ = self.runtime.block_on(client.close());
        if let Ok(mut d) = self.driver.lock() {
            crate::common::reap::kill(&mut d);
        }
    }
}

/// Runs `steps` on the one browser page, starting the browser (and the
/// server) for the first trial that needs them; other trials of the
/// harness (`spec_html.rs`) share it.
pub fn run<F: Future<Output = Outcome>>(steps: impl FnOnce(Page) -> F) -> Outcome {
    // One browser, one page: the trials take turns (the other trials of
    // the harness go on beside them).
    static ONE_PAGE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_PAGE.lock().unwrap_or_else(|e| e.into_inner());
    let h = match HARNESS.get() {
        Some(h) => h,
        None => {
            let started = Harness::start()?;
            HARNESS.get_or_init(|| started)
        }
    };
    let page = Page {
        client: h.client.clone(),
        base: h.server.url(),
        downloads: h.downloads.clone(),
    };
    h.runtime.block_on(steps(page))
}

/// The page under test, with the steps a player takes.
#[derive(Clone)]
pub struct Page {
    pub client: Client,
    base: String,
    downloads: PathBuf,
}

pub fn fail(e: impl std::fmt::Display) -> Failed {
    e.to_string().into()
}

impl Page {
    /// Opens the app on `variant` in `mode` and waits until it is ready.
    pub(crate) async fn open(&self, variant: &str, mode: &str) -> Outcome {
        self.client
            .goto(&format!("{}?variant={variant}", self.base))
            .await
            .map_err(fail)?;
        self.until("the page is ready", "return document.body.dataset.ready === 'true' && !document.body.classList.contains('busy')")
            .await?;
        if mode != "two" {
            self.select("mode", mode).await?;
        }
        Ok(())
    }

    /// Evaluates `script` (a function body) in the page.
    pub async fn js(&self, script: &str) -> Result<Value, Failed> {
        self.client.execute(script, vec![]).await.map_err(fail)
    }

    /// Waits up to 20 s for `script` to return true.
    pub async fn until(&self, what: &str, script: &str) -> Outcome {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if self.js(script).await? == Value::Bool(true) {
                return Ok(());
            }
            if Instant::now() > deadline {
                let error = self.text("error").await.unwrap_or_default();
                return Err(
                    format!("timed out waiting until {what} (page error: {error:?})").into(),
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub(crate) async fn idle(&self) -> Outcome {
        self.until(
            "the page is idle",
            "return !document.body.classList.contains('busy')",
        )
        .await
    }

    /// Chooses `value` in the select `id` as a player would, by clicking.
    pub(crate) async fn select(&self, id: &str, value: &str) -> Outcome {
        let option = self
            .client
            .find(Locator::Css(&format!("#{id} option[value='{value}']")))
            .await
            .map_err(fail)?;
        option.click().await.map_err(fail)?;
        self.idle().await
    }

    pub(crate) async fn click(&self, css: &str) -> Outcome {
        self.client
            .find(Locator::Css(css))
            .await
            .map_err(|e| fail(format!("{css}: {e}")))?
            .click()
            .await
            .map_err(|e| fail(format!("clicking {css}: {e}")))?;
        self.idle().await
    }

    pub(crate) async fn click_cell(&self, cell: &str) -> Outcome {
        self.click(&format!("#board [data-cell='{cell}']")).await
    }

    pub(crate) async fn text(&self, id: &str) -> Result<String, Failed> {
        let v = self
            .js(&format!(
                "return document.getElementById('{id}').textContent"
            ))
            .await?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    /// The destinations marked on the board, sorted.
    pub(crate) async fn destinations(&self) -> Result<Vec<String>, Failed> {
        let v = self
            .js("return [...document.querySelectorAll('[data-dest]')].map(e => e.dataset.dest).sort()")
            .await?;
        Ok(strings(&v))
    }

    /// Checks that every destination mark and the selection ring are drawn
    /// inside the cell they name, as the player sees them.
    pub(crate) async fn marks_on_their_cells(&self) -> Outcome {
        let off = self
            .js(
                "const inside = (m, c) => { const a = m.getBoundingClientRect(), b = c.getBoundingClientRect(); \
                   const x = a.left + a.width / 2, y = a.top + a.height / 2; \
                   return x > b.left && x < b.right && y > b.top && y < b.bottom; }; \
                 const cell = (n) => document.querySelector(`#board [data-cell='${n}']`); \
                 return [...document.querySelectorAll('[data-dest]')] \
                   .filter(g => !inside(g.querySelector('circle'), cell(g.dataset.dest))) \
                   .map(g => g.dataset.dest)",
            )
            .await?;
        check(strings(&off).is_empty(), || {
            format!("marks drawn off their cells: {off}")
        })
    }

    /// The move list as shown.
    pub(crate) async fn moves(&self) -> Result<Vec<String>, Failed> {
        let v = self
            .js("return [...document.querySelectorAll('#moves li')].map(e => e.textContent)")
            .await?;
        Ok(strings(&v))
    }

    /// What the server says about the position the page shows (asked the
    /// way the page asks), so a trial can pick moves without reading rules.
    pub(crate) async fn view(&self) -> Result<Value, Failed> {
        self.js(
            "const g = { variant: document.getElementById('variant').value, \
               start: document.getElementById('position').value }; \
             return fetch('/api/game', { method: 'POST', headers: { 'content-type': 'application/json' }, \
               body: JSON.stringify(g) }).then(r => r.json())",
        )
        .await
    }

    /// The cell of the first player's rook in the position the page shows.
    pub(crate) async fn first_rook(&self) -> Result<String, Failed> {
        let view = self.view().await?;
        let rook = view["pieces"]
            .as_array()
            .and_then(|ps| {
                ps.iter()
                    .find(|x| x["label"] == "R" && x["owner"] == "first")
            })
            .and_then(|x| x["cell"].as_str())
            .ok_or("no rook of the first player")?;
        Ok(rook.to_string())
    }

    /// Presses on `from` and releases on `to`, moving the pointer between.
    pub(crate) async fn drag(&self, from: &str, to: &str) -> Outcome {
        let a = self
            .client
            .find(Locator::Css(&format!("#board [data-cell='{from}']")))
            .await
            .map_err(fail)?;
        let b = self
            .client
            .find(Locator::Css(&format!("#board [data-cell='{to}']")))
            .await
            .map_err(fail)?;
        let mouse = MouseActions::new("mouse".to_string())
            .then(PointerAction::MoveToElement {
                element: a,
                duration: None,
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::MoveToElement {
                element: b,
                duration: Some(Duration::from_millis(200)),
                x: 0.0,
                y: 0.0,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.client.perform_actions(mouse).await.map_err(fail)?;
        self.client.release_actions().await.map_err(fail)?;
        self.idle().await
    }

    /// Saves a screenshot as `name` when `SEAMS_SCREENSHOTS` names a folder.
    pub(crate) async fn screenshot(&self, name: &str) -> Outcome {
        let Some(dir) = std::env::var_os("SEAMS_SCREENSHOTS") else {
            return Ok(());
        };
        let png = self.client.screenshot().await.map_err(fail)?;
        std::fs::write(Path::new(&dir).join(name), png).map_err(fail)
    }
}

pub(crate) fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

pub(crate) fn check(ok: bool, message: impl FnOnce() -> String) -> Outcome {
    if ok { Ok(()) } else { Err(message().into()) }
}

async fn every_variant_is_drawn(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    for v in seams::registry::variants() {
        p.select("variant", v.name()).await?;
        let cells = p
            .js("return document.querySelectorAll('#board [data-cell]').length")
            .await?;
        let want = v.edit_cells().len();
        check(cells == json!(want), || {
            format!(
                "{}: {cells} clickable cells, the board has {want}",
                v.name()
            )
        })?;
        let status = p.text("status").await?;
        check(status.contains("to move"), || {
            format!("{}: status {status:?}", v.name())
        })?;
        // A piece's destinations are marked on their own cells.
        let view = p.view().await?;
        let from = view["moves"]
            .as_array()
            .and_then(|ms| ms.iter().find_map(|m| m["from"].as_str()))
            .ok_or_else(|| format!("{}: no board move", v.name()))?
            .to_string();
        p.click_cell(&from).await?;
        check(!p.destinations().await?.is_empty(), || {
            format!("{}: {from} marks nothing", v.name())
        })?;
        p.marks_on_their_cells().await?;
    }
    Ok(())
}

async fn click_marks_and_moves(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    p.click_cell("e2").await?;
    let dests = p.destinations().await?;
    check(dests == ["e3", "e4"], || {
        format!("e2's destinations {dests:?}")
    })?;
    p.marks_on_their_cells().await?;
    p.click_cell("e4").await?;
    check(p.moves().await? == ["e2-e4"], || {
        "e2-e4 not in the move list".into()
    })?;
    let status = p.text("status").await?;
    check(status.starts_with("Black to move"), || {
        format!("status {status:?}")
    })?;
    // A piece of the side not to move offers nothing.
    p.click_cell("d2").await?;
    check(p.destinations().await?.is_empty(), || {
        "White's d2 pawn offered moves on Black's turn".into()
    })?;
    // On the Klein bottle, a few plies into a game, a shogi rook's
    // destinations are marked.
    p.open("shogi-klein", "two").await?;
    for pawn in ["h6", "b13", "g6", "c13"] {
        let view = p.view().await?;
        let to = view["moves"]
            .as_array()
            .and_then(|ms| ms.iter().find(|m| m["from"] == pawn))
            .and_then(|m| m["to"].as_str())
            .ok_or_else(|| format!("the pawn on {pawn} cannot move"))?
            .to_string();
        p.click_cell(pawn).await?;
        p.click_cell(&to).await?;
    }
    check(p.moves().await?.len() == 4, || {
        "four pawn moves by clicks".into()
    })?;
    let rook = p.first_rook().await?;
    let view = p.view().await?;
    p.click_cell(&rook).await?;
    let dests = p.destinations().await?;
    let want: Vec<String> = {
        let mut w: Vec<String> = view["moves"]
            .as_array()
            .ok_or("moves")?
            .iter()
            .filter(|m| m["from"] == rook.as_str())
            .filter_map(|m| m["to"].as_str().map(String::from))
            .collect();
        w.sort();
        w.dedup();
        w
    };
    check(dests == want, || {
        format!("the rook's marks {dests:?}, its moves go to {want:?}")
    })?;
    p.marks_on_their_cells().await?;
    p.screenshot("webapp-klein-shogi.png").await
}

async fn drag_moves(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    p.drag("g1", "f3").await?;
    let moves = p.moves().await?;
    check(moves == ["g1-f3"], || {
        format!("after dragging g1 to f3 the moves are {moves:?}")
    })?;
    // A drag to a cell the piece cannot reach plays nothing.
    p.drag("b8", "b5").await?;
    check(p.moves().await?.len() == 1, || {
        "an impossible drag was played".into()
    })
}

async fn checkmate_by_clicks(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
        p.click_cell(from).await?;
        p.click_cell(to).await?;
    }
    let result = p.text("result").await?;
    check(result == "Game over: Black wins by checkmate.", || {
        format!("result {result:?}")
    })?;
    let marked = p
        .js("return document.querySelectorAll('[data-app-mark=check]').length")
        .await?;
    check(marked == json!(1), || {
        format!("{marked} check marks on the board")
    })
}

/// Starts a game for two from `position` through the position box.
pub(crate) async fn start_from(p: &Page, variant: &str, position: &str) -> Outcome {
    p.open(variant, "two").await?;
    let field = p.client.find(Locator::Id("position")).await.map_err(fail)?;
    field.clear().await.map_err(fail)?;
    field.send_keys(position).await.map_err(fail)?;
    p.click("#import").await
}

async fn promotion_asks(p: Page) -> Outcome {
    start_from(&p, "chess-flat", "8/P6k/8/8/8/8/8/K7 w - - 0 1").await?;
    p.click_cell("a7").await?;
    p.click_cell("a8").await?;
    let choices = p
        .js("return [...document.querySelectorAll('#choice-buttons button')].map(b => b.dataset.action)")
        .await?;
    check(strings(&choices).len() == 4, || {
        format!("promotion choices {choices}")
    })?;
    let knight = strings(&choices)
        .into_iter()
        .find(|a| a.ends_with('N'))
        .ok_or("no knight promotion offered")?;
    p.click(&format!("#choice-buttons button[data-action='{knight}']"))
        .await?;
    check(p.moves().await? == [knight.clone()], || {
        "the knight promotion was not played".into()
    })?;
    // Shogi: promote or not.
    start_from(&p, "shogi-flat", "4k4/9/9/P8/9/9/9/9/4K4 A - 1").await?;
    let view = p.view().await?;
    let pawn = view["pieces"]
        .as_array()
        .and_then(|ps| ps.iter().find(|x| x["label"] == "P"))
        .and_then(|x| x["cell"].as_str())
        .ok_or("no pawn")?
        .to_string();
    p.click_cell(&pawn).await?;
    let to = p
        .destinations()
        .await?
        .first()
        .cloned()
        .ok_or("the pawn has no move")?;
    p.click_cell(&to).await?;
    let text = p
        .js("return [...document.querySelectorAll('#choice-buttons button')].map(b => b.textContent)")
        .await?;
    let text = strings(&text);
    check(
        text.len() == 2
            && text.iter().any(|t| t.contains("does not promote"))
            && text.iter().any(|t| t.contains("promotes")),
        || format!("shogi promotion choices {text:?}"),
    )
}

async fn drops(p: Page) -> Outcome {
    start_from(&p, "shogi-flat", "4k4/9/9/9/9/9/9/9/4K4 A G 1").await?;
    p.click("#hand-first button[data-drop='G']").await?;
    let dests = p.destinations().await?;
    check(dests.len() == 79, || {
        format!("{} cells to drop a gold on", dests.len())
    })?;
    p.click_cell(&dests[0]).await?;
    let moves = p.moves().await?;
    check(moves.len() == 1 && moves[0].starts_with("G*"), || {
        format!("moves {moves:?}")
    })
}

async fn opponent_answers(p: Page) -> Outcome {
    p.open("chess-flat", "opponent").await?;
    p.select("opponent-level", "0").await?;
    p.click_cell("e2").await?;
    p.click_cell("e4").await?;
    p.until(
        "the opponent has answered",
        "return document.querySelectorAll('#moves li').length === 2",
    )
    .await?;
    // Taking back returns to the player's turn, before both moves.
    p.click("#undo").await?;
    check(p.moves().await?.is_empty(), || {
        "take-back left moves".into()
    })?;
    // The opponent declines a draw at the start of a game it can win, or
    // accepts; either way the page says what happened.
    p.click("#offer-draw").await?;
    let result = p.text("result").await?;
    let error = p.text("error").await?;
    check(
        result.contains("drawn by agreement") || error.contains("declines the draw"),
        || format!("after a draw offer: result {result:?}, message {error:?}"),
    )?;
    // For two, the other player accepts.
    p.open("kyoto", "two").await?;
    p.click("#offer-draw").await?;
    p.click("#accept-draw").await?;
    let result = p.text("result").await?;
    check(result == "Game over: drawn by agreement.", || {
        format!("result {result:?}")
    })
}

async fn whole_games(p: Page) -> Outcome {
    for v in seams::registry::variants() {
        p.open(v.name(), "opponent").await?;
        p.select("opponent-level", "1").await?;
        for ply in 0..4 {
            let view = p.view().await?;
            if !view["result"].is_null() {
                break;
            }
            let m = view["moves"]
                .as_array()
                .and_then(|ms| ms.iter().find(|m| m["from"].is_string()))
                .ok_or_else(|| format!("{}: no board move at ply {ply}", v.name()))?
                .clone();
            let before = p.moves().await?.len();
            p.click_cell(m["from"].as_str().unwrap_or_default()).await?;
            p.click_cell(m["to"].as_str().unwrap_or_default()).await?;
            let choice = p
                .js("return !document.getElementById('choice').hidden")
                .await?;
            if choice == Value::Bool(true) {
                p.click("#choice-buttons button").await?;
            }
            p.until(
                "the opponent has answered",
                &format!(
                    "return document.querySelectorAll('#moves li').length >= {}",
                    before + 2
                ),
            )
            .await?;
        }
        if v.name() == "tetra-shogi" {
            // The pointer over a cell lights its neighbours on the next ranks.
            let cell = p
                .client
                .find(Locator::Css("#board [data-cell='c5.3']"))
                .await
                .map_err(fail)?;
            let near = cell
                .attr("data-near")
                .await
                .map_err(fail)?
                .unwrap_or_default();
            let mouse = MouseActions::new("mouse".to_string()).then(PointerAction::MoveToElement {
                element: cell,
                duration: None,
                x: 0.0,
                y: 0.0,
            });
            p.client.perform_actions(mouse).await.map_err(fail)?;
            let lit = p.js("return [...document.querySelectorAll('#board .near')].map(e => e.dataset.cell).sort()").await?;
            let mut want: Vec<String> = near.split(' ').map(String::from).collect();
            want.sort();
            check(!want.is_empty() && strings(&lit) == want, || {
                format!("c5.3 lights {lit}, its neighbours are {want:?}")
            })?;
            p.screenshot("webapp-tetra.png").await?;
        }
        p.click("#resign").await?;
        // The game ends by resignation, unless the opponent won first.
        let result = p.text("result").await?;
        let moves = p.moves().await?;
        let resigned = moves.last().map(String::as_str) == Some("resign");
        check(
            result.contains(" wins by ") && (resigned == result.contains("resignation")),
            || format!("{}: result {result:?} after {moves:?}", v.name()),
        )?;
    }
    Ok(())
}

async fn analysis(p: Page) -> Outcome {
    start_from(&p, "chess-flat", "3r3k/8/8/8/8/8/8/4K3 w - - 0 1").await?;
    p.select("mode", "analysis").await?;
    let label = p.text("analysis-controls").await?;
    check(label.contains("experiment"), || {
        "analysis is not labelled as experiments".into()
    })?;
    p.click_cell("e1").await?;
    check(p.destinations().await? == ["e2", "f1", "f2"], || {
        "king safety on".into()
    })?;
    p.click("#king-safety").await?;
    p.click_cell("e1").await?;
    let dests = p.destinations().await?;
    check(dests == ["d1", "d2", "e2", "f1", "f2"], || {
        format!("king safety off: {dests:?}")
    })?;
    p.click_cell("d2").await?;
    let refused = p.text("analysis-refused").await?;
    check(refused.contains("cannot start a game"), || {
        format!("refusal {refused:?}")
    })?;
    // Back, then another experiment: two variations from the start.
    p.click("#back").await?;
    p.click_cell("e1").await?;
    p.click_cell("f1").await?;
    p.click("#back").await?;
    let variations = p
        .js("return [...document.querySelectorAll('#variations button')].map(b => b.textContent)")
        .await?;
    check(strings(&variations).len() == 2, || {
        format!("variations {variations}")
    })?;
    // The army not to move can be moved.
    p.click("#king-safety").await?;
    p.select("mover", "second").await?;
    p.click_cell("d8").await?;
    check(!p.destinations().await?.is_empty(), || {
        "Black's rook offers nothing".into()
    })
}

async fn editor(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    p.select("mode", "editor").await?;
    // Remove White's king: refused, with the reference's reason.
    p.click("#palette button[data-token='']").await?;
    p.click_cell("e1").await?;
    let verdict = p.text("editor-verdict").await?;
    check(
        verdict.contains("refuses") && verdict.contains("king"),
        || format!("verdict {verdict:?}"),
    )?;
    let play = p
        .js("return document.getElementById('editor-play').disabled")
        .await?;
    check(play == Value::Bool(true), || {
        "a refused position can be played".into()
    })?;
    p.click("#palette button[data-token='K']").await?;
    p.click_cell("d4").await?;
    p.click("#palette button[data-token='q']").await?;
    p.click_cell("h5").await?;
    // White's king has left e1: its castling rights go, through the text.
    let verdict = p.text("editor-verdict").await?;
    check(verdict.contains("castling"), || {
        format!("verdict {verdict:?}")
    })?;
    let text = p
        .client
        .find(Locator::Id("editor-text"))
        .await
        .map_err(fail)?;
    let written = text.prop("value").await.map_err(fail)?.unwrap_or_default();
    text.clear().await.map_err(fail)?;
    text.send_keys(&written.replace(" KQkq ", " kq "))
        .await
        .map_err(fail)?;
    p.click("#editor-apply").await?;
    let verdict = p.text("editor-verdict").await?;
    check(verdict.contains("accepts"), || {
        format!("verdict {verdict:?}")
    })?;
    p.screenshot("webapp-editor.png").await?;
    p.click("#editor-play").await?;
    let position = p
        .js("return document.getElementById('position').value")
        .await?;
    check(
        position
            .as_str()
            .is_some_and(|t| t.contains("3K4") && t.contains("7q")),
        || format!("the game starts from {position}"),
    )?;
    let record = p.view().await?;
    check(
        record["moves"].as_array().is_some_and(|m| !m.is_empty()),
        || "no moves".into(),
    )
}

async fn save_and_load(p: Page) -> Outcome {
    p.open("shogi-mobius", "two").await?;
    for _ in 0..3 {
        let view = p.view().await?;
        let m = view["moves"]
            .as_array()
            .and_then(|ms| ms.iter().find(|m| m["from"].is_string()))
            .ok_or("no move")?
            .clone();
        p.click_cell(m["from"].as_str().unwrap_or_default()).await?;
        p.click_cell(m["to"].as_str().unwrap_or_default()).await?;
        if p.js("return !document.getElementById('choice').hidden")
            .await?
            == Value::Bool(true)
        {
            p.click("#choice-buttons button").await?;
        }
    }
    let played = p.moves().await?;
    let file = p.downloads.join("shogi-mobius.json");
    let _ = std::fs::remove_file(&file);
    p.click("#save").await?;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !file.is_file() {
        if Instant::now() > deadline {
            return Err(format!("no download at {}", file.display()).into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).map_err(fail)?).map_err(fail)?;
    check(saved["actions"] == json!(played), || {
        format!("saved {} for {played:?}", saved["actions"])
    })?;
    // Load it back into a fresh page.
    p.open("chess-flat", "two").await?;
    let input = p.client.find(Locator::Id("load")).await.map_err(fail)?;
    input
        .send_keys(&file.display().to_string())
        .await
        .map_err(fail)?;
    p.until(
        "the game is loaded",
        "return document.getElementById('variant').value === 'shogi-mobius'",
    )
    .await?;
    p.idle().await?;
    check(p.moves().await? == played, || {
        "the loaded game differs".into()
    })?;
    // A tampered record names its first bad ply.
    let mut bad = saved.clone();
    bad["actions"][1] = json!("a1-a9");
    let tampered = p.downloads.join("tampered.json");
    std::fs::write(&tampered, bad.to_string()).map_err(fail)?;
    let input = p.client.find(Locator::Id("load")).await.map_err(fail)?;
    input
        .send_keys(&tampered.display().to_string())
        .await
        .map_err(fail)?;
    p.until(
        "the refusal is shown",
        "return document.getElementById('error').textContent.includes('ply 2')",
    )
    .await
}

async fn flips(p: Page) -> Outcome {
    p.open("chess-flat", "two").await?;
    let where_is = "const b = document.querySelector(\"#board [data-cell='a1']\").getBoundingClientRect(); \
                    const h = document.querySelector(\"#board [data-cell='h8']\").getBoundingClientRect(); \
                    return a1Below = b.top > h.top;";
    let before = p.js(&where_is.replace("a1Below = ", "")).await?;
    p.click("#flip").await?;
    let after = p.js(&where_is.replace("a1Below = ", "")).await?;
    check(before == json!(true) && after == json!(false), || {
        format!("a1 below h8: {before} before the flip, {after} after")
    })?;
    // Moves still work on the flipped board.
    p.click_cell("e2").await?;
    p.click_cell("e4").await?;
    check(p.moves().await? == ["e2-e4"], || {
        "no move on the flipped board".into()
    })?;
    p.click("#flip").await
}
