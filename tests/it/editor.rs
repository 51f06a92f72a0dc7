//! The position editor's text entry points on every variant: the cells in
//! placement order, the palette, placing and removing pieces, the side to
//! move and the hands, and the reference's verdict on the result.

use std::collections::BTreeSet;

use seams::placement::{EditError, Layout};
use seams::registry;
use seams::rules::MAX_POSITION_TEXT_BYTES;
use seams::rules::Player;
use seams::rules::drawing::PieceMark;
use seams::topology::file::AnyBoard;
use seams::variant::{At, Variant, VariantError};

fn variants() -> Vec<&'static dyn Variant> {
    registry::variants().iter().map(|v| v.as_ref()).collect()
}

fn at(text: &str) -> At<'_> {
    At {
        position: Some(text),
        moves: &[],
    }
}

fn diagram_pieces(v: &dyn Variant, text: &str) -> Vec<PieceMark> {
    v.diagram(&at(text)).expect("a validated text").pieces
}

fn board_cells(v: &dyn Variant) -> Vec<String> {
    match v.diagram(&At::default()).expect("picture").board {
        AnyBoard::Charts(b) => b.cells().map(|c| b.cell_name(c).to_string()).collect(),
        AnyBoard::Tetrahedron(t) => t.cells().map(|c| t.cell_name(c).to_string()).collect(),
    }
}

/// The label of the royal pieces, as the start's picture marks them.
fn royal(v: &dyn Variant) -> String {
    diagram_pieces(v, &v.start_position())
        .into_iter()
        .find(|p| p.royal)
        .map(|p| p.label)
        .expect("every start has a royal piece")
}

fn plus_prefix(v: &dyn Variant) -> bool {
    v.edit_palette().iter().any(|e| e.token.starts_with('+'))
}

#[test]
fn text_cells_list_every_cell_once_in_placement_order() {
    for v in variants() {
        let cells = v.edit_cells();
        let set: BTreeSet<&String> = cells.iter().collect();
        assert_eq!(set.len(), cells.len(), "{}: a cell twice", v.name());
        let board: BTreeSet<String> = board_cells(v).into_iter().collect();
        assert_eq!(
            set,
            board.iter().collect::<BTreeSet<_>>(),
            "{}: not the board's cells",
            v.name()
        );
        // On the start, the layout's tokens stand where the picture puts
        // its pieces.
        let start = v.start_position();
        let layout = Layout::read(&start, plus_prefix(v), cells.len()).expect("start");
        assert_eq!(layout.cell_count(), cells.len(), "{}", v.name());
        let pieces = diagram_pieces(v, &start);
        let occupied: BTreeSet<&str> = pieces.iter().map(|p| p.cell.as_str()).collect();
        for (i, name) in cells.iter().enumerate() {
            assert_eq!(
                layout.cell(i).is_some(),
                occupied.contains(name.as_str()),
                "{}: cell {i} is {name}",
                v.name()
            );
        }
    }
}

/// The start with every piece but the royal ones taken off (and, for the
/// royal kind, `owner`'s royal piece too), castling rights dropped where
/// the rooks are gone.
fn bare(v: &dyn Variant, without_royal: Option<Player>) -> String {
    let mut text = v.start_position();
    for p in diagram_pieces(v, &text) {
        let keep = p.label == royal(v) && Some(p.owner) != without_royal;
        if !keep {
            text = v.edit_place(&text, &p.cell, None).expect("removal");
        }
    }
    if v.name().starts_with("chess") {
        // Castling rights need their rooks (SC-I4): the third field.
        let mut words: Vec<&str> = text.split(' ').collect();
        words[2] = "-";
        text = words.join(" ");
    }
    text
}

/// Up to `n` cells spread over the board, each empty in `text` (which
/// need not be a position).
fn empty_cells(v: &dyn Variant, text: &str, n: usize) -> Vec<String> {
    let cells = v.edit_cells();
    let layout = Layout::read(text, plus_prefix(v), cells.len()).expect("layout");
    let free: Vec<String> = cells
        .into_iter()
        .enumerate()
        .filter(|(i, _)| layout.cell(*i).is_none())
        .map(|(_, c)| c)
        .collect();
    let step = free.len().div_ceil(n).max(1);
    free.into_iter().step_by(step).collect()
}

#[test]
fn every_palette_piece_placed_is_validated_and_pictured() {
    for v in variants() {
        let palette = v.edit_palette();
        assert!(!palette.is_empty(), "{}", v.name());
        let tokens: BTreeSet<&str> = palette.iter().map(|e| e.token.as_str()).collect();
        assert_eq!(tokens.len(), palette.len(), "{}: a token twice", v.name());
        for owner in [Player::First, Player::Second] {
            assert!(
                palette
                    .iter()
                    .any(|e| e.owner == owner && e.label == royal(v)),
                "{}: no royal piece to place",
                v.name()
            );
        }
        for entry in &palette {
            let is_royal = entry.label == royal(v);
            let bases = [v.start_position(), bare(v, is_royal.then_some(entry.owner))];
            let mut accepted = 0;
            for base in &bases {
                for cell in empty_cells(v, base, 24) {
                    let edited = v
                        .edit_place(base, &cell, Some(&entry.token))
                        .unwrap_or_else(|e| panic!("{}: {}: {e}", v.name(), entry.token));
                    match v.validate(&edited) {
                        Ok(canonical) => {
                            accepted += 1;
                            let shown = diagram_pieces(v, &canonical)
                                .into_iter()
                                .find(|p| p.cell == cell)
                                .unwrap_or_else(|| {
                                    panic!("{}: {} on {cell} not shown", v.name(), entry.token)
                                });
                            let expected = PieceMark {
                                cell: cell.clone(),
                                owner: entry.owner,
                                label: entry.label.clone(),
                                promoted: entry.promoted,
                                facing: entry.facing,
                                other_face: entry.other_face.clone(),
                                royal: is_royal,
                                arrow: false,
                            };
                            assert_eq!(shown, expected, "{}: {}", v.name(), entry.token);
                        }
                        Err(e) => {
                            // The verdict is the reference's own reading.
                            let refused = v.reached(&at(&edited)).expect_err("refused");
                            assert_eq!(e, refused, "{}", v.name());
                            assert!(
                                matches!(&e, VariantError::Position(p) if !p.field.is_empty()),
                                "{}: {e}",
                                v.name()
                            );
                        }
                    }
                }
            }
            assert!(
                accepted > 0,
                "{}: {} is never a valid placement",
                v.name(),
                entry.token
            );
        }
    }
}

#[test]
fn removing_a_piece_empties_its_cell() {
    for v in variants() {
        let start = v.start_position();
        let cells = v.edit_cells();
        for p in diagram_pieces(v, &start) {
            let edited = v.edit_place(&start, &p.cell, None).expect("removal");
            let layout = Layout::read(&edited, plus_prefix(v), cells.len()).expect("layout");
            let i = cells.iter().position(|c| *c == p.cell).expect("a cell");
            assert_eq!(layout.cell(i), None, "{}", v.name());
            assert_eq!(layout.occupied().len() + 1, diagram_pieces(v, &start).len());
            if let Ok(canonical) = v.validate(&edited) {
                assert!(
                    diagram_pieces(v, &canonical)
                        .iter()
                        .all(|q| q.cell != p.cell),
                    "{}",
                    v.name()
                );
            } else {
                // A removal from the start is refused only for a royal
                // piece where each side needs one (SC-I4, KY-I8, TS-I12;
                // shogi allows none, SS-7.4), or for a chess rook whose
                // castling right stays.
                let e = v.validate(&edited).expect_err("refused");
                let field = match &e {
                    VariantError::Position(p) => p.field.clone(),
                    other => panic!("{}: {other}", v.name()),
                };
                assert!(!v.name().starts_with("shogi"), "{}: {e}", v.name());
                let expected = if p.label == royal(v) {
                    "placement"
                } else {
                    assert!(v.name().starts_with("chess"), "{}: {e}", v.name());
                    "castling"
                };
                assert_eq!(field, expected, "{}: removing {p:?}", v.name());
            }
        }
    }
}

#[test]
fn the_side_to_move_round_trips() {
    for v in variants() {
        let start = v.start_position();
        let second = v.edit_side(&start, Player::Second).expect("side");
        let played = v
            .play(&at(&second))
            .expect("the start with the move passed");
        assert_eq!(played.to_move, Player::Second, "{}", v.name());
        assert_eq!(v.edit_side(&second, Player::First).expect("side"), start);
        assert_eq!(v.edit_side(&start, Player::First).expect("side"), start);
    }
}

#[test]
fn hands_round_trip_where_there_are_hands() {
    for v in variants() {
        let start = v.start_position();
        let Some(shape) = v.edit_hands() else {
            assert!(
                matches!(
                    v.edit_hand(&start, Player::First, "P", 1),
                    Err(VariantError::Edit(EditError::NoHands { .. }))
                ),
                "{}",
                v.name()
            );
            continue;
        };
        // A bare board leaves every kind free to be held (SS-I9, KY-I6,
        // TS-I10 bound the pieces of the game).
        let base = bare(v, None);
        for entry in &shape.entries {
            for player in [Player::First, Player::Second] {
                let held = v
                    .edit_hand(&base, player, &entry.label, 1)
                    .expect("an edit");
                let canonical = v
                    .validate(&held)
                    .unwrap_or_else(|e| panic!("{}: {held}: {e}", v.name()));
                let d = v.diagram(&at(&canonical)).expect("picture");
                let mark = d.sides[player.index()]
                    .hand
                    .iter()
                    .find(|h| h.label == entry.label)
                    .expect("a hand mark");
                assert_eq!(mark.count, 1, "{}: {}", v.name(), entry.label);
                let total: u32 = d.sides.iter().flat_map(|s| &s.hand).map(|h| h.count).sum();
                assert_eq!(total, 1, "{}", v.name());
                // By letter too, and back to empty.
                let again = v
                    .edit_hand(&held, player, &entry.letter.to_string(), 0)
                    .expect("an edit");
                assert_eq!(v.validate(&again), v.validate(&base), "{}", v.name());
            }
        }
    }
}

#[test]
fn bad_edits_are_typed_errors_naming_the_value() {
    for v in variants() {
        let start = v.start_position();
        let cell = v.edit_cells()[0].clone();
        match v.edit_place(&start, "nowhere9", Some(&v.edit_palette()[0].token)) {
            Err(VariantError::Edit(EditError::UnknownCell { cell, .. })) => {
                assert_eq!(cell, "nowhere9")
            }
            other => panic!("{}: {other:?}", v.name()),
        }
        match v.edit_place(&start, &cell, Some("Zz")) {
            Err(e @ VariantError::Edit(EditError::UnknownToken { .. })) => {
                assert!(e.to_string().contains("'Zz'"), "{e}")
            }
            other => panic!("{}: {other:?}", v.name()),
        }
        let long = "1".repeat(MAX_POSITION_TEXT_BYTES + 1);
        assert_eq!(
            v.edit_place(&long, &cell, None),
            Err(VariantError::TooLong { bytes: long.len() })
        );
        assert!(matches!(
            v.edit_side(&long, Player::First),
            Err(VariantError::TooLong { .. })
        ));
        match v.edit_place("3?/5 w", &cell, None) {
            Err(e @ VariantError::Edit(EditError::Layout { .. })) => {
                assert!(e.to_string().contains("'?'"), "{e}")
            }
            other => panic!("{}: {other:?}", v.name()),
        }
        // Runs that add up to far more cells than the board has are
        // refused without building them.
        let huge = format!("{} w", ["999"; 2000].join("/"));
        assert!(matches!(
            v.edit_place(&huge, &cell, None),
            Err(VariantError::Edit(EditError::Layout { .. }))
        ));
        assert!(matches!(
            v.edit_place("1 w", &cell, None),
            Err(VariantError::Edit(EditError::CellCount { found: 1, .. }))
        ));
        // A placement alone has no side field.
        let placement = start.split(' ').next().expect("placement");
        assert!(matches!(
            v.edit_side(placement, Player::Second),
            Err(VariantError::Edit(EditError::MissingField {
                field: "side"
            }))
        ));
        if v.edit_hands().is_some() {
            assert!(matches!(
                v.edit_hand(&start, Player::First, "Q9", 1),
                Err(VariantError::Edit(EditError::UnknownHandPiece { .. }))
            ));
            assert!(matches!(
                v.edit_hand(
                    &start,
                    Player::First,
                    &v.edit_hands().unwrap().entries[0].label,
                    256
                ),
                Err(VariantError::Edit(EditError::HandCount { count: 256 }))
            ));
        }
        // Every message quotes a little of its value at most.
        for e in [
            v.edit_place(&start, &"x".repeat(5000), None),
            v.edit_place(&start, &cell, Some(&"P".repeat(5000))),
        ] {
            let message = e.expect_err("refused").to_string();
            assert!(message.chars().count() < 1000, "{}", message.len());
        }
    }
}

#[test]
fn validate_is_the_reference_reading() {
    for v in variants() {
        let start = v.start_position();
        assert_eq!(v.validate(&start), Ok(start.clone()), "{}", v.name());
        let long = "1".repeat(MAX_POSITION_TEXT_BYTES + 1);
        assert!(matches!(v.validate(&long), Err(VariantError::Position(_))));
        assert_eq!(
            v.validate("junk"),
            Err(v.reached(&at("junk")).expect_err("junk")),
            "{}",
            v.name()
        );
    }
}

#[test]
fn every_start_reads_and_writes_back() {
    for v in registry::variants() {
        let start = v.start_position();
        let layout = Layout::parse(&start).unwrap_or_else(|| panic!("{start}"));
        assert_eq!(layout.write(), start, "{}", v.name());
        assert!(!layout.occupied().is_empty());
    }
}
