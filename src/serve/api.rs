//! What the web app asks and what it is told, without any HTTP: each
//! request body is a type here and each answer is built by a function over
//! the reference's text interface ([`Variant`], [`crate::session`]), so the
//! whole behaviour is testable in process and the server module is only
//! routing and safety.
//!
//! The server keeps no games. A scored game travels as its start and its
//! actions, and every request replays it through a [`crate::session`],
//! which applies every ending (repetition, perpetual check, the move rule,
//! bare kings) exactly as `seams play` does. Replaying costs far less than
//! a player's thinking time and means a page can never disagree with the
//! rules about the game it shows. Analysis travels as a position and who
//! moves, one experiment at a time.

use serde::{Deserialize, Serialize};

use crate::movement::Facing;
use crate::opponent::{Budget, Settings};
use crate::record::{Record, RecordVerdict};
use crate::render::{self, Overlay};
use crate::rules::drawing::{ActionMark, Diagram, PieceMark, Route};
use crate::rules::{GameResult, Player};
use crate::variant::{AnalysisStep, At, MAX_MOVES, Variant, VariantError};

/// The most time the practice opponent thinks about one move.
pub const OPPONENT_TIME: std::time::Duration = std::time::Duration::from_millis(1500);

/// A request the app cannot answer, with the reason shown to the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// An action of the game cannot be played; `ply` is 1-based.
    #[error("move {ply} '{}' cannot be played: {message}", crate::quote::excerpt(.text))]
    Move {
        ply: usize,
        text: String,
        message: String,
    },
    #[error("{0}")]
    Render(String),
    /// A saved game the reference refuses, at its first bad ply.
    #[error("the record is refused at {}", refused_at(*.ply, .message))]
    Record { ply: usize, message: String },
    #[error("{0}")]
    Request(String),
}

/// Where a record is refused and why, naming the ply once: a refused
/// action's message already starts with its ply and text.
fn refused_at(ply: usize, message: &str) -> String {
    if message.starts_with(&format!("ply {ply} ")) {
        message.to_string()
    } else {
        format!("ply {ply}: {message}")
    }
}

impl ApiError {
    /// The ply a player should look at, where there is one.
    pub fn ply(&self) -> Option<usize> {
        match self {
            ApiError::Move { ply, .. } | ApiError::Record { ply, .. } => Some(*ply),
            ApiError::Variant(VariantError::Move { ply, .. }) => Some(*ply),
            _ => None,
        }
    }
}

impl From<render::RenderError> for ApiError {
    fn from(e: render::RenderError) -> ApiError {
        ApiError::Render(e.to_string())
    }
}

/// One variant in the app's menu.
#[derive(Clone, Debug, Serialize)]
pub struct VariantInfo {
    pub name: String,
    pub rules: String,
    pub start: String,
    /// Whether analysis can move either army and switch king safety off.
    pub analysis: bool,
}

/// What the app offers: the variants and the opponent's levels.
#[derive(Clone, Debug, Serialize)]
pub struct Menu {
    pub variants: Vec<VariantInfo>,
    /// The strongest level of the practice opponent (0 plays at random).
    pub max_level: u8,
}

/// The variants of the rules in force.
pub fn menu(vs: &[&dyn Variant]) -> Menu {
    Menu {
        variants: variants(vs),
        max_level: crate::opponent::MAX_LEVEL,
    }
}

fn variants(vs: &[&dyn Variant]) -> Vec<VariantInfo> {
    vs.iter()
        .map(|v| VariantInfo {
            name: v.name().to_string(),
            rules: v.rules_version().to_string(),
            start: v.start_position(),
            analysis: v
                .analysis_actions(&At::default(), Player::First, true)
                .is_ok_and(|a| a.is_some()),
        })
        .collect()
}

/// A scored game: its start (the initial position when absent) and every
/// action so far, `resign` and `draw` included.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    pub variant: String,
    #[serde(default)]
    pub start: Option<String>,
    #[serde(default)]
    pub actions: Vec<String>,
    /// Draw the board half a turn round, as the second player sees it.
    #[serde(default)]
    pub flip: bool,
    /// Draw the file and rank labels (the default).
    #[serde(default = "shown")]
    pub coordinates: bool,
}

fn shown() -> bool {
    true
}

/// An action the player can choose, placed on the board.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveView {
    /// The canonical text, which the app sends back to play it.
    pub text: String,
    /// The origin cell; absent for a drop.
    pub from: Option<String>,
    pub to: String,
    /// The dropped kind's label.
    pub drop: Option<String>,
    pub promote: bool,
    /// The mover's facing on arrival, where two outcomes can differ in it.
    pub facing: Option<Facing>,
    /// The routes the piece takes, for the picture to draw those that
    /// cross a seam; the page is not sent them.
    #[serde(skip)]
    pub routes: Vec<Route>,
}

impl MoveView {
    fn new(text: String, m: ActionMark) -> MoveView {
        MoveView {
            text,
            from: m.from,
            to: m.to,
            drop: m.drop,
            promote: m.promote,
            facing: m.facing,
            routes: Vec::new(),
        }
    }
}

/// Gives each move its routes, as the reference traces them.
fn with_routes(moves: &mut [MoveView], routes: Vec<Vec<Route>>) {
    for (m, r) in moves.iter_mut().zip(routes) {
        m.routes = r;
    }
}

/// Pieces of one kind in a hand.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct HandView {
    pub label: String,
    pub count: u32,
    /// The labels the drops of these pieces carry ([`MoveView::drop`]):
    /// the label itself, or both faces of a Kyoto token.
    pub drops: Vec<String>,
}

/// The move that led to the position shown, marked on the board.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LastMove {
    pub text: String,
    /// The origin cell; absent for a drop.
    pub from: Option<String>,
    pub to: String,
}

/// How the board is drawn, besides the position.
#[derive(Clone, Debug)]
struct Look {
    flip: bool,
    coordinates: bool,
    last: Option<LastMove>,
}

impl Look {
    fn new(flip: bool, coordinates: bool) -> Look {
        Look {
            flip,
            coordinates,
            last: None,
        }
    }
}

/// Everything the page shows about one position.
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    pub variant: String,
    pub rules: String,
    /// The position as text (FEN or SFEN on the flat controls).
    pub position: String,
    pub to_move: Player,
    /// The rules' own names of the two players, first player first.
    pub names: [String; 2],
    pub in_check: bool,
    /// The cells of the royal pieces in check, to be marked.
    pub check_cells: Vec<String>,
    /// Every piece on the board.
    pub pieces: Vec<PieceMark>,
    /// The board, as `seams render` draws it, without the title and
    /// legend: its size is the board's alone, the same for every position.
    pub svg: String,
    /// The picture's title (variant and board).
    pub title: String,
    /// The legend `seams render` draws under the board, line by line, for
    /// the page to set out beside it.
    pub legend: Vec<render::LegendEntry>,
    /// What each side holds in hand.
    pub hands: [Vec<HandView>; 2],
    /// The actions the player may choose here, sorted by text.
    pub moves: Vec<MoveView>,
    /// The last move played, framed on the board; none at the start.
    pub last_move: Option<LastMove>,
}

/// A scored game as the page shows it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    #[serde(flatten)]
    pub board: BoardView,
    /// Every action so far, in the family's notation.
    pub actions: Vec<String>,
    pub result: Option<ResultView>,
    /// How often the current position has occurred.
    pub occurrences: u32,
    /// The game as a record, ready to save.
    pub record: Record,
}

/// A finished game, with a sentence for the player.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    #[serde(flatten)]
    pub result: GameResult,
    pub text: String,
}

fn result_view(r: GameResult, names: &[String; 2]) -> ResultView {
    let reason = r.reason.to_string().replace('-', " ");
    let text = match r.winner {
        Some(p) => format!("{} wins by {reason}", names[p.index()]),
        None => format!("drawn by {reason}"),
    };
    ResultView { result: r, text }
}

/// The board view of a diagram, whose position text is `position`.
fn view_of(
    v: &dyn Variant,
    position: String,
    d: &Diagram,
    moves: Vec<MoveView>,
    look: Look,
) -> BoardView {
    // The last move is framed through the picture's own marks, with the
    // legend saying what the frames are.
    let framed = match &look.last {
        None => Vec::new(),
        Some(m) => {
            let mut f = Vec::new();
            if let Some(from) = &m.from {
                f.push((from.clone(), format!("the last move ({}) left it", m.text)));
            }
            let words = if m.from.is_some() {
                format!("the last move ({}) went here", m.text)
            } else {
                format!("the last move ({}) dropped a piece here", m.text)
            };
            f.push((m.to.clone(), words));
            f
        }
    };
    // Ghost cells and the routes across seams are drawn hidden: the page
    // shows the ghosts when asked and a selected piece's routes.
    let overlay = Overlay {
        flip: look.flip,
        hide_coordinates: !look.coordinates,
        framed,
        across: render::Across::Hidden,
        routes: moves
            .iter()
            .filter(|m| !m.routes.is_empty())
            .map(|m| (m.text.clone(), m.routes.clone()))
            .collect(),
        ..Overlay::default()
    };
    let svg = render::render_board_svg(d, &overlay);
    let (title, legend) = render::legend_entries(d, &overlay);
    let hands = |p: Player| {
        d.sides[p.index()]
            .hand
            .iter()
            .map(|h| HandView {
                label: h.label.clone(),
                count: h.count,
                drops: h.drops.clone(),
            })
            .collect()
    };
    BoardView {
        variant: v.name().to_string(),
        rules: v.rules_version().to_string(),
        position,
        to_move: d.to_move,
        names: [d.sides[0].name.clone(), d.sides[1].name.clone()],
        in_check: d.in_check,
        check_cells: d
            .pieces
            .iter()
            .filter(|p| d.in_check && p.royal && p.owner == d.to_move)
            .map(|p| p.cell.clone())
            .collect(),
        pieces: d.pieces.clone(),
        svg,
        title,
        legend,
        hands: [hands(Player::First), hands(Player::Second)],
        moves,
        last_move: look.last,
    }
}

/// Refuses a game longer than any other command takes.
fn check_length(actions: &[String]) -> Result<(), ApiError> {
    if actions.len() > MAX_MOVES {
        return Err(VariantError::TooManyMoves {
            count: actions.len(),
        }
        .into());
    }
    Ok(())
}

/// Replays a scored game through a session, which judges every ending.
fn replay<'v>(
    v: &'v dyn Variant,
    req: &GameRequest,
) -> Result<Box<dyn crate::session::Session + 'v>, ApiError> {
    Ok(replay_marking_last(v, req, false)?.0)
}

/// Replays a scored game and, when `mark` asks, places its last move on
/// the board: the last action that is a move or a drop (a resignation or
/// an agreed draw is neither, so the move before it is marked).
fn replay_marking_last<'v>(
    v: &'v dyn Variant,
    req: &GameRequest,
    mark: bool,
) -> Result<(Box<dyn crate::session::Session + 'v>, Option<LastMove>), ApiError> {
    check_length(&req.actions)?;
    let mut s = v.session(req.start.as_deref())?;
    let n = req.actions.len();
    // The positions before the last two actions: a game ends with at
    // most one action that is not a move.
    let mut before: Vec<(String, String)> = Vec::new();
    for (i, text) in req.actions.iter().enumerate() {
        if mark && i + 2 >= n {
            before.push((s.status().position, text.clone()));
        }
        s.play(text).map_err(|e| ApiError::Move {
            ply: i + 1,
            text: text.clone(),
            message: e.message,
        })?;
    }
    let last = before.iter().rev().find_map(|(position, text)| {
        let at = At {
            position: Some(position),
            moves: &[],
        };
        let mark = v.action_marks(&at, std::slice::from_ref(text)).ok()?;
        let m = mark.into_iter().next()?.ok()?;
        Some(LastMove {
            text: text.clone(),
            from: m.from,
            to: m.to,
        })
    });
    Ok((s, last))
}

/// Replays a scored game and shows where it stands.
pub fn game(v: &dyn Variant, req: &GameRequest) -> Result<GameView, ApiError> {
    let (s, last) = replay_marking_last(v, req, true)?;
    let status = s.status();
    let legal = s.legal_actions();
    let at = At {
        position: Some(&status.position),
        moves: &[],
    };
    let marks = v.action_marks(&at, &legal)?;
    // A legal action the reference cannot place would be its own bug:
    // said, not hidden from the player.
    let routes = v.action_routes(&at, &legal)?;
    let mut moves: Vec<MoveView> = legal
        .into_iter()
        .zip(marks)
        .map(|(text, m)| {
            m.map(|m| MoveView::new(text.clone(), m))
                .map_err(|e| ApiError::Render(format!("cannot place '{text}': {}", e.message)))
        })
        .collect::<Result<_, _>>()?;
    with_routes(&mut moves, routes);
    // The session's picture carries the display arrows its history gives.
    let d = s.diagram().ok_or_else(|| VariantError::NoPicture {
        variant: v.name().to_string(),
    })?;
    let look = Look {
        last,
        ..Look::new(req.flip, req.coordinates)
    };
    let board = view_of(v, status.position.clone(), &d, moves, look);
    let result = status.result.map(|r| result_view(r, &board.names));
    Ok(GameView {
        actions: s.actions().to_vec(),
        result,
        occurrences: status.occurrences,
        record: s.record(),
        board,
    })
}

/// A saved game to load: the record as `seams play --record` writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadRequest {
    pub record: serde_json::Value,
}

/// Checks a saved game as `seams record verify` does and, when the
/// reference accepts it, shows it as a game to go on with. A refused
/// record names its first inconsistent ply and why.
pub fn load(vs: &[&dyn Variant], req: &LoadRequest) -> Result<GameView, ApiError> {
    let record: Record = serde_json::from_value(req.record.clone())
        .map_err(|e| ApiError::Request(format!("not a game record: {e}")))?;
    let v = crate::variant::find_in(vs, &record.variant)?;
    if let RecordVerdict::Rejected { ply, message, .. } = v.verify_record(&record) {
        return Err(ApiError::Record { ply, message });
    }
    let start = match &record.start {
        crate::record::RecordStart::Initial => None,
        crate::record::RecordStart::Edited { position } => Some(position.clone()),
    };
    game(
        v,
        &GameRequest {
            variant: record.variant.clone(),
            start,
            actions: record.actions.clone(),
            flip: false,
            coordinates: true,
        },
    )
}

/// The practice opponent's move in a scored game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpponentRequest {
    #[serde(flatten)]
    pub game: GameRequest,
    /// 0 (random) to the strongest level.
    pub level: u8,
    /// Breaks ties, so a game can be replayed.
    #[serde(default)]
    pub seed: u64,
}

/// The opponent's answer: the action it plays (none when the game is over
/// or it has no legal action), and whether it would accept a draw.
#[derive(Clone, Debug, Serialize)]
pub struct OpponentView {
    pub action: Option<String>,
    /// The opponent accepts a draw offer when it does not expect to win
    /// (its search scores the position at most level for itself).
    pub accepts_draw: bool,
}

/// Asks the practice opponent, within [`OPPONENT_TIME`].
pub fn opponent(
    v: &dyn Variant,
    req: &OpponentRequest,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<OpponentView, ApiError> {
    let settings = Settings::new(req.level, Budget::Time(OPPONENT_TIME), req.seed)
        .map_err(|e| ApiError::Request(e.to_string()))?;
    let s = replay(v, &req.game)?;
    let choice = s.opponent_choice(&settings, stop);
    Ok(OpponentView {
        accepts_draw: choice.as_ref().is_some_and(|c| c.score <= 0),
        action: choice.map(|c| c.action),
    })
}

/// A line under analysis: the position it starts from (one the rules
/// accept), the experiments played since, and who moves next with or
/// without king safety.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    pub variant: String,
    pub position: String,
    #[serde(default)]
    pub steps: Vec<AnalysisStep>,
    pub mover: Player,
    pub king_safety: bool,
    #[serde(default)]
    pub flip: bool,
    /// Draw the file and rank labels (the default).
    #[serde(default = "shown")]
    pub coordinates: bool,
}

/// The analysis board: always labelled as an experiment.
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisView {
    #[serde(flatten)]
    pub board: BoardView,
    pub mover: Player,
    pub king_safety: bool,
    /// Always true: nothing here is a move of a scored game.
    pub experiment: bool,
    /// Why the position could not start a game, when it could not (a
    /// king left in check by an experiment without king safety).
    pub refused: Option<String>,
}

/// Replays an analysis line and lists what `req.mover` may try next.
pub fn analysis(v: &dyn Variant, req: &AnalysisRequest) -> Result<AnalysisView, ApiError> {
    let at = At {
        position: Some(&req.position),
        moves: &[],
    };
    let line = v
        .analysis_line(&at, &req.steps, req.mover, req.king_safety)?
        .ok_or_else(|| ApiError::Request(format!("{} has no analysis mode", v.name())))?;
    let mut moves: Vec<MoveView> = line
        .moves
        .into_iter()
        .map(|(text, m)| MoveView::new(text, m))
        .collect();
    with_routes(&mut moves, line.routes);
    // The last experiment, placed as its mover saw it: among what the
    // line before it offered.
    let last = match req.steps.split_last() {
        None => None,
        Some((step, earlier)) => v
            .analysis_line(&at, earlier, step.mover, step.king_safety)?
            .and_then(|before| before.moves.into_iter().find(|(t, _)| *t == step.action))
            .map(|(text, m)| LastMove {
                text,
                from: m.from,
                to: m.to,
            }),
    };
    let look = Look {
        last,
        ..Look::new(req.flip, req.coordinates)
    };
    Ok(AnalysisView {
        board: view_of(v, line.position, &line.diagram, moves, look),
        mover: req.mover,
        king_safety: req.king_safety,
        experiment: true,
        refused: line.refused,
    })
}

/// A position text to import (FEN or SFEN on the flat controls).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    pub variant: String,
    pub position: String,
}

/// Reads a position text as the reference does: its canonical text, or
/// the reference's exact error.
pub fn import(v: &dyn Variant, req: &PositionRequest) -> Result<String, ApiError> {
    // A pasted text often brings a space or a line end along; the import
    // box drops them, as the command line drops a position file's final
    // line end (NT-2.3). The text itself is read by the grammar.
    Ok(v.reached(&At {
        position: Some(req.position.trim()),
        moves: &[],
    })?
    .0)
}

/// A piece the editor can place.
#[derive(Clone, Debug, Serialize)]
pub struct PaletteView {
    /// The piece as the position text writes it.
    pub token: String,
    /// What the button shows: owner's name, letter, promotion and facing.
    pub text: String,
    /// A longer description, for the button's tooltip.
    pub title: String,
}

/// Every piece the editor of `v` can place.
pub fn palette(v: &dyn Variant) -> Result<Vec<PaletteView>, ApiError> {
    let d = v.diagram(&At::default())?;
    Ok(v.edit_palette()
        .into_iter()
        .map(|e| {
            let name = &d.sides[e.owner.index()].name;
            let mut text = format!("{name} {}{}", if e.promoted { "+" } else { "" }, e.label);
            let mut title = format!("{name}'s {}", e.label);
            if let Some(f) = e.facing {
                text.push_str(match f {
                    Facing::Up => " ▲",
                    Facing::Down => " ▼",
                });
                title.push_str(&format!(", facing {}", f.name()));
            }
            if let Some(o) = &e.other_face {
                title.push_str(&format!(", other face {o}"));
            }
            // Surface chess asks that a double step granted in a setup be
            // labelled as granted, not passed off as history.
            if let Some(flag) = e.double_step {
                let note = if flag {
                    ", double step granted"
                } else {
                    ", double step used"
                };
                text.push_str(note);
                title.push_str(note);
            }
            PaletteView {
                token: e.token,
                text,
                title,
            }
        })
        .collect())
}

/// The editor's request: a position text (not yet accepted, perhaps) and
/// at most one edit to make to it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditRequest {
    pub variant: String,
    pub position: String,
    /// Put a piece (a palette token) on a cell, or empty it (`null`).
    #[serde(default)]
    pub place: Option<Place>,
    /// Give the move to this player.
    #[serde(default)]
    pub side: Option<Player>,
    /// Set how many pieces of a kind a player holds.
    #[serde(default)]
    pub hand: Option<HandEdit>,
    #[serde(default)]
    pub flip: bool,
    /// Draw the file and rank labels (the default).
    #[serde(default = "shown")]
    pub coordinates: bool,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    pub cell: String,
    pub token: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandEdit {
    pub player: Player,
    pub label: String,
    pub count: u32,
}

/// The editor's board: the edited text, and whether the reference
/// accepts it (`true`) or its exact error.
#[derive(Clone, Debug, Serialize)]
pub struct EditView {
    #[serde(flatten)]
    pub board: BoardView,
    pub valid: serde_json::Value,
}

/// Makes one edit and shows the result. A text the reference refuses is
/// still shown, drawn from its placement alone, with the refusal: a
/// position is built one piece at a time, through states that are not
/// positions yet.
pub fn edit(v: &dyn Variant, req: &EditRequest) -> Result<EditView, ApiError> {
    let mut position = req.position.clone();
    if let Some(p) = &req.place {
        position = v.edit_place(&position, &p.cell, p.token.as_deref())?;
    }
    if let Some(side) = req.side {
        position = v.edit_side(&position, side)?;
    }
    if let Some(h) = &req.hand {
        position = v.edit_hand(&position, h.player, &h.label, h.count)?;
    }
    let look = Look::new(req.flip, req.coordinates);
    match v.validate(&position) {
        Ok(canonical) => {
            let d = v.diagram(&At {
                position: Some(&canonical),
                moves: &[],
            })?;
            Ok(EditView {
                board: view_of(v, canonical, &d, Vec::new(), look),
                valid: serde_json::Value::Bool(true),
            })
        }
        Err(refusal) => {
            // The board, names and zones of the start, with the edited
            // placement and hands on it, as the text writes them (a hand
            // the text cannot be read for stays the start's); the side to
            // move is the start's until the text is a position again.
            let mut d = v.diagram(&At::default())?;
            d.pieces = v.edit_pieces(&position)?;
            d.in_check = false;
            if let Ok(counts) = v.edit_hand_counts(&position) {
                for (label, [first, second]) in counts {
                    for (side, count) in d.sides.iter_mut().zip([first, second]) {
                        if let Some(h) = side.hand.iter_mut().find(|h| h.label == label) {
                            h.count = count;
                        }
                    }
                }
            }
            Ok(EditView {
                board: view_of(v, position, &d, Vec::new(), look),
                valid: serde_json::Value::String(refusal.to_string()),
            })
        }
    }
}
