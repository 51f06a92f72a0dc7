//! The one implementation of [`Variant`] and its text entry points, for
//! every [`Rules`] family.

use super::read::{reach, read};
use super::*;
use crate::record::{RECORD_FORMAT, RecordReason, RecordStart, Replayer, reject};
use crate::rules::{Game, IllegalReason, MAX_POSITION_TEXT_BYTES, parse_start};
use crate::session::Live;

/// A position as its mover sees it, with its actions listed by text.
type Listing<R> = (<R as Rules>::Position, Vec<(String, <R as Rules>::Action)>);

/// The analysis actions of `mover` in `pos` (see
/// [`Rules::analysis_actions`]) with their texts, sorted by text and one
/// per text, and the position as the mover sees it; `None` for a family
/// without analysis. The texts are written as one list, so that a mark
/// telling two actions apart is decided among the analysis actions
/// themselves.
fn analysis_listing<R: Rules>(
    rules: &R,
    pos: &R::Position,
    mover: Player,
    king_safety: bool,
) -> Option<Listing<R>> {
    let (seen, actions) = rules.analysis_actions(pos, mover, king_safety)?;
    let mut listed: Vec<(String, R::Action)> = rules
        .format_legal(&seen, &actions)
        .into_iter()
        .zip(actions)
        .collect();
    listed.sort_by(|a, b| a.0.cmp(&b.0));
    listed.dedup_by(|a, b| a.0 == b.0);
    Some((seen, listed))
}

/// A position text within [`MAX_POSITION_TEXT_BYTES`] cut into the cells
/// of `draw`'s board.
fn edit_layout<R: Rules>(
    draw: &dyn crate::rules::drawing::Draw<R::Position, R::Action>,
    position: &str,
) -> Result<crate::placement::Layout, VariantError> {
    if position.len() > MAX_POSITION_TEXT_BYTES {
        return Err(VariantError::TooLong {
            bytes: position.len(),
        });
    }
    // A `+` starts a piece only where some piece is written with one.
    let plus_prefix = draw.palette().iter().any(|e| e.token.starts_with('+'));
    Ok(crate::placement::layout_of(
        position,
        plus_prefix,
        draw.text_cells().len(),
    )?)
}

/// The family's pictures, or the error of a family that has none.
fn drawing_of<R: Rules>(
    r: &R,
) -> Result<&dyn crate::rules::drawing::Draw<R::Position, R::Action>, VariantError> {
    r.drawing().ok_or_else(|| VariantError::NoPicture {
        variant: r.variant().to_string(),
    })
}

impl<R: Rules> Variant for R {
    fn edit_palette(&self) -> Vec<crate::rules::drawing::PaletteEntry> {
        self.drawing().map(|d| d.palette()).unwrap_or_default()
    }

    fn edit_cells(&self) -> Vec<String> {
        self.drawing().map(|d| d.text_cells()).unwrap_or_default()
    }

    fn edit_pieces(
        &self,
        position: &str,
    ) -> Result<Vec<crate::rules::drawing::PieceMark>, VariantError> {
        let draw = drawing_of(self)?;
        let layout = edit_layout::<R>(draw, position)?;
        let palette = draw.palette();
        Ok(draw
            .text_cells()
            .into_iter()
            .enumerate()
            .filter_map(|(i, cell)| {
                let token = layout.cell(i)?;
                let e = palette.iter().find(|e| e.token == token)?;
                Some(crate::rules::drawing::PieceMark {
                    cell,
                    owner: e.owner,
                    label: e.label.clone(),
                    promoted: e.promoted,
                    facing: e.facing,
                    other_face: e.other_face.clone(),
                    royal: false,
                    arrow: false,
                })
            })
            .collect())
    }

    fn edit_hand_counts(&self, position: &str) -> Result<Vec<(String, [u32; 2])>, VariantError> {
        let draw = drawing_of(self)?;
        let Some(shape) = draw.hand_shape() else {
            return Ok(Vec::new());
        };
        let layout = edit_layout::<R>(draw, position)?;
        let counts = crate::placement::hand_counts(&layout, &shape)?;
        Ok(shape
            .entries
            .into_iter()
            .zip(counts)
            .map(|(e, c)| (e.label, c))
            .collect())
    }

    fn edit_hands(&self) -> Option<crate::rules::drawing::HandShape> {
        self.drawing().and_then(|d| d.hand_shape())
    }

    fn edit_place(
        &self,
        position: &str,
        cell: &str,
        token: Option<&str>,
    ) -> Result<String, VariantError> {
        use crate::placement::EditError;
        let draw = drawing_of(self)?;
        let cells = draw.text_cells();
        let index = cells
            .iter()
            .position(|c| c == cell)
            .ok_or_else(|| EditError::UnknownCell {
                cell: quote::excerpt(cell).into_owned(),
                known: crate::names::Known::new(cell, cells.iter().map(String::as_str)),
            })?;
        if let Some(token) = token {
            let palette = draw.palette();
            if !palette.iter().any(|e| e.token == token) {
                return Err(EditError::UnknownToken {
                    token: quote::excerpt(token).into_owned(),
                    known: crate::names::Known::new(
                        token,
                        palette.iter().map(|e| e.token.as_str()),
                    ),
                }
                .into());
            }
        }
        let mut layout = edit_layout::<R>(draw, position)?;
        layout.set_cell(index, token);
        Ok(layout.write())
    }

    fn edit_side(&self, position: &str, player: Player) -> Result<String, VariantError> {
        use crate::placement::EditError;
        let draw = drawing_of(self)?;
        let mut layout = edit_layout::<R>(draw, position)?;
        // The side field and its two words, as this family writes them:
        // the first field where the start and the start with the move
        // passed differ.
        let start = self.start();
        let words = |pos: &R::Position| {
            let text = self.format_position(pos);
            crate::placement::Layout::parse(&text)
                .map(|l| l.fields().to_vec())
                .unwrap_or_default()
        };
        let first = words(&start);
        let second = self
            .other_to_move(&start)
            .map(|p| words(&p))
            .unwrap_or_default();
        let (index, word) = first
            .iter()
            .zip(&second)
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| {
                (
                    i,
                    match player {
                        Player::First => a.clone(),
                        Player::Second => b.clone(),
                    },
                )
            })
            .ok_or(EditError::MissingField { field: "side" })?;
        let field = layout
            .fields
            .get_mut(index)
            .ok_or(EditError::MissingField { field: "side" })?;
        *field = word;
        Ok(layout.write())
    }

    fn edit_hand(
        &self,
        position: &str,
        player: Player,
        label: &str,
        count: u32,
    ) -> Result<String, VariantError> {
        let draw = drawing_of(self)?;
        let shape = draw
            .hand_shape()
            .ok_or_else(|| crate::placement::EditError::NoHands {
                variant: self.variant().to_string(),
            })?;
        let mut layout = edit_layout::<R>(draw, position)?;
        crate::placement::set_hand(&mut layout, &shape, player, label, count)?;
        Ok(layout.write())
    }

    fn validate(&self, position: &str) -> Result<String, VariantError> {
        let pos = parse_start(self, position)?;
        Ok(self.format_position(&pos))
    }

    fn session(&self, start: Option<&str>) -> Result<Box<dyn Session + '_>, VariantError> {
        let live = match start {
            None => Live::new(self, self.start(), false),
            Some(text) => Live::new(self, parse_start(self, text)?, true),
        };
        Ok(Box::new(live))
    }

    fn resume(&self, record: &Record) -> Result<Box<dyn Session + '_>, RecordVerdict> {
        match Variant::verify_record(self, record) {
            RecordVerdict::Accepted { .. } => {}
            refused => return Err(refused),
        }
        let mut live = match &record.start {
            RecordStart::Initial => Live::new(self, self.start(), false),
            RecordStart::Edited { position } => {
                let start = parse_start(self, position)
                    .map_err(|e| reject(0, RecordReason::BadStart, None, e.to_string()))?;
                Live::new(self, start, true)
            }
        };
        for (i, text) in record.actions.iter().enumerate() {
            // Verified above; a refusal here would be a bug, reported as
            // the verdict it would be rather than a panic.
            live.play(text)
                .map_err(|e| reject(i + 1, RecordReason::IllegalAction, Some(e.code), e.message))?;
        }
        Ok(Box::new(live))
    }

    fn diagram(&self, at: &At) -> Result<crate::rules::drawing::Diagram, VariantError> {
        let draw = drawing_of(self)?;
        let pos = reach(self, at)?;
        Ok(draw.diagram(&pos))
    }

    fn action_marks(
        &self,
        at: &At,
        actions: &[String],
    ) -> Result<Vec<Result<crate::rules::drawing::ActionMark, ActionError>>, VariantError> {
        let draw = drawing_of(self)?;
        let pos = reach(self, at)?;
        Ok(actions
            .iter()
            .map(|text| {
                self.parse_action(&pos, text)
                    .map(|a| draw.action_mark(&pos, &a))
                    .map_err(bounded)
            })
            .collect())
    }

    fn action_routes(
        &self,
        at: &At,
        actions: &[String],
    ) -> Result<Vec<Vec<crate::rules::drawing::Route>>, VariantError> {
        let draw = drawing_of(self)?;
        let pos = reach(self, at)?;
        Ok(actions
            .iter()
            .map(|text| {
                self.parse_action(&pos, text)
                    .map(|a| draw.action_routes(&pos, &a))
                    .unwrap_or_default()
            })
            .collect())
    }

    fn design_facts(&self) -> Option<crate::rules::design_facts::Facts> {
        Rules::design_facts(self)
    }

    fn display_arrows(
        &self,
        start: Option<&str>,
        actions: &[String],
    ) -> Result<Vec<(String, crate::movement::Facing)>, VariantError> {
        check_moves(&At {
            position: start,
            moves: actions,
        })?;
        let first = match start {
            None => self.start(),
            Some(text) => parse_start(self, text)?,
        };
        let mut pos = first.clone();
        let mut played = Vec::with_capacity(actions.len());
        for (i, text) in actions.iter().enumerate() {
            if matches!(text.as_str(), "resign" | "draw") {
                continue;
            }
            let a = self
                .parse_action(&pos, text)
                .map_err(|error| VariantError::Move {
                    ply: i + 1,
                    text: quote::excerpt(text).into_owned(),
                    error: bounded(error),
                })?;
            pos = self.apply(&pos, &a);
            played.push(a);
        }
        Ok(Rules::display_arrows(self, &first, &played))
    }

    fn walk(&self, start: Option<&str>) -> Result<Box<dyn crate::walk::Walk + '_>, VariantError> {
        let pos = match start {
            None => self.start(),
            Some(text) => parse_start(self, text)?,
        };
        Ok(Box::new(crate::walk::Walker::new(self, pos)))
    }

    fn opponent_choice(
        &self,
        at: &At,
        settings: &crate::opponent::Settings,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<Option<crate::opponent::Choice<String>>, VariantError> {
        // Played as a game through a session, so the opponent judges
        // repetitions against the same history a game keeps.
        Ok(session_at(self, at)?.opponent_choice(settings, stop))
    }

    fn audit(&self, at: &At, plies: u32) -> Result<crate::audit::Report, VariantError> {
        let pos = reach(self, at)?;
        Ok(crate::audit::audit(self, &pos, plies))
    }

    fn analysis_actions(
        &self,
        at: &At,
        mover: Player,
        king_safety: bool,
    ) -> Result<Option<Vec<String>>, VariantError> {
        let pos = reach(self, at)?;
        Ok(analysis_listing(self, &pos, mover, king_safety)
            .map(|(_, listed)| listed.into_iter().map(|(text, _)| text).collect()))
    }

    fn analysis_line(
        &self,
        at: &At,
        steps: &[AnalysisStep],
        mover: Player,
        king_safety: bool,
    ) -> Result<Option<AnalysisLine>, VariantError> {
        let draw = drawing_of(self)?;
        if steps.len() > MAX_MOVES {
            return Err(VariantError::TooManyMoves { count: steps.len() });
        }
        let mut pos = reach(self, at)?;
        for (i, step) in steps.iter().enumerate() {
            let Some((seen, listed)) = analysis_listing(self, &pos, step.mover, step.king_safety)
            else {
                return Ok(None);
            };
            // Matched by canonical text: the line holds what the player
            // chose from an earlier answer.
            let wanted = step.action.as_str();
            let Some((_, chosen)) = listed.iter().find(|(t, _)| t == wanted) else {
                return Err(VariantError::Move {
                    ply: at.moves.len() + i + 1,
                    text: step.action.clone(),
                    error: ActionError {
                        code: IllegalReason::Unreachable,
                        message: "not an action of this analysis position".into(),
                    },
                });
            };
            pos = self.apply(&seen, chosen);
        }
        let Some((seen, listed)) = analysis_listing(self, &pos, mover, king_safety) else {
            return Ok(None);
        };
        let routes = listed
            .iter()
            .map(|(_, a)| draw.action_routes(&seen, a))
            .collect();
        let moves = listed
            .into_iter()
            .map(|(text, a)| {
                let mark = draw.action_mark(&seen, &a);
                (text, mark)
            })
            .collect();
        let position = self.format_position(&pos);
        Ok(Some(AnalysisLine {
            refused: self.parse_position(&position).err().map(|e| e.to_string()),
            position,
            diagram: draw.diagram(&pos),
            moves,
            routes,
        }))
    }

    fn name(&self) -> &str {
        self.variant()
    }
    fn start_exchange_symmetric(&self) -> Option<bool> {
        let start = self.start();
        let passed = self.other_to_move(&start)?;
        Some(self.key(&self.exchange(&start)) == self.key(&passed))
    }
    fn rules_version(&self) -> &str {
        Rules::rules_version(self)
    }
    fn capabilities(&self) -> &'static [&'static str] {
        Rules::capabilities(self)
    }
    fn player_name(&self, p: Player) -> &'static str {
        Rules::player_name(self, p)
    }

    fn start_position(&self) -> String {
        self.format_position(&self.start())
    }

    fn legal_actions(&self, at: &At) -> Result<Vec<String>, VariantError> {
        check_moves(at)?;
        read(self, at.position)?.legal_actions(at.moves)
    }

    fn check_action(
        &self,
        at: &At,
        action: &str,
    ) -> Result<Result<String, ActionError>, VariantError> {
        check_moves(at)?;
        read(self, at.position)?.check_action(at.moves, action)
    }

    fn perft(&self, at: &At, depth: u32) -> Result<u64, VariantError> {
        check_perft_depth(depth)?;
        check_moves(at)?;
        read(self, at.position)?.perft(at.moves, depth)
    }

    fn perft_hashed(&self, at: &At, depth: u32, table: &PerftTable) -> Result<u64, VariantError> {
        check_perft_depth(depth)?;
        check_moves(at)?;
        read(self, at.position)?.perft_hashed(at.moves, depth, table)
    }

    fn divide(&self, at: &At, depth: u32) -> Result<Vec<(String, u64)>, VariantError> {
        check_perft_depth(depth)?;
        check_moves(at)?;
        read(self, at.position)?.divide(at.moves, depth)
    }

    fn independent_legal_actions(&self, at: &At) -> Result<Option<Vec<String>>, VariantError> {
        check_moves(at)?;
        read(self, at.position)?.independent_legal_actions(at.moves)
    }

    fn independent_perft(&self, at: &At, depth: u32) -> Result<Option<u64>, VariantError> {
        check_perft_depth(depth)?;
        check_moves(at)?;
        read(self, at.position)?.independent_perft(at.moves, depth)
    }

    fn play(&self, at: &At) -> Result<Played, VariantError> {
        check_moves(at)?;
        read(self, at.position)?.play(at.moves)
    }

    fn reached(&self, at: &At) -> Result<(String, String), VariantError> {
        check_moves(at)?;
        read(self, at.position)?.reached(at.moves)
    }

    fn read(&self, text: Option<&str>) -> Result<Box<dyn ReadPosition + '_>, VariantError> {
        Ok(Box::new(read(self, text)?))
    }

    fn verify_record(&self, record: &Record) -> RecordVerdict {
        let head = RecordHead::of(record);
        let mut replay = match Variant::replay(self, &head) {
            Ok(r) => r,
            Err(v) => return v,
        };
        for text in &record.actions {
            if let Err(v) = replay.play(text) {
                return v;
            }
        }
        replay.finish()
    }

    fn replay<'s>(&'s self, head: &RecordHead) -> Result<Box<dyn Replay + 's>, RecordVerdict> {
        if let Some(format) = head.format
            && !(1..=RECORD_FORMAT).contains(&format)
        {
            return Err(reject(
                0,
                RecordReason::UnknownFormat,
                None,
                format!(
                    "record format {format} is not one this engine reads (1 to {RECORD_FORMAT})"
                ),
            ));
        }
        if head.variant != self.variant() {
            return Err(reject(
                0,
                RecordReason::WrongVariant,
                None,
                format!(
                    "the record is for '{}', not '{}'",
                    quote::excerpt(&head.variant),
                    self.variant()
                ),
            ));
        }
        if head.rules != Rules::rules_version(self) {
            return Err(reject(
                0,
                RecordReason::WrongRulesVersion,
                None,
                format!(
                    "the record was played under rules {}, this engine implements {}",
                    quote::excerpt(&head.rules),
                    Rules::rules_version(self)
                ),
            ));
        }
        let start = match &head.start {
            RecordStart::Initial => self.start(),
            RecordStart::Edited { position } => parse_start(self, position)
                .map_err(|e| reject(0, RecordReason::BadStart, None, e.to_string()))?,
        };
        Ok(Box::new(Replayer {
            game: Game::new(self, start),
            actions: 0,
            result: head.result,
            final_position: head.final_position.clone(),
            rights: head.rights.clone(),
            repetitions: head.repetitions.clone(),
        }))
    }
}
