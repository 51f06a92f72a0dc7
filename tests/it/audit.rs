//! The opening audit (`seams audit`): findings on the shipped starts,
//! checked by hand (the reasoning is in conformance/cases/audit/), the
//! generic mate search on known positions, the family facts, and the CLI's
//! outputs and usage errors.

use crate::common::{check_input_error, seams};

use seams::audit::{CheckLine, Report};
use seams::rules::Player;
use seams::rules::audit_facts::ShieldKind;
use seams::variant::{At, VariantError};
use seams::variant::{AuditError, audit_of};

/// Audits a shipped variant by name, as `seams audit --variant` does.
fn audit_variant(name: &str, at: &At, plies: u32) -> Result<Report, AuditError> {
    audit_of(seams::registry::find(name)?, at, plies)
}

fn audit(variant: &str, position: Option<&str>, moves: &[&str], plies: u32) -> Report {
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    audit_variant(
        variant,
        &At {
            position,
            moves: &moves,
        },
        plies,
    )
    .expect("the audit runs")
}

fn line(moves: &[&str], mate: bool) -> CheckLine {
    CheckLine {
        moves: moves.iter().map(|m| m.to_string()).collect(),
        mate,
    }
}

fn one_ply_checks(r: &Report) -> Vec<Vec<String>> {
    r.checks
        .iter()
        .filter(|c| c.moves.len() == 1)
        .map(|c| c.moves.clone())
        .collect()
}

#[test]
fn klein_start_king_shields_the_enemy_king_from_its_queen_through_the_rear_wrap() {
    let r = audit("chess-klein", None, &[], 2);
    let shields = r.shields.as_ref().expect("chess has shield lines");
    let found = shields
        .iter()
        .find(|s| s.king.cell == "e15")
        .expect("a shield line at the Black king");
    assert_eq!(found.kind, ShieldKind::Discovery);
    assert_eq!(
        (found.shield.piece.as_str(), found.shield.cell.as_str()),
        ("K", "e4")
    );
    assert_eq!(
        (found.slider.piece.as_str(), found.slider.cell.as_str()),
        ("Q", "e5")
    );
    assert_eq!(found.direction, "N");
    assert_eq!(
        found.route,
        ["e16", "e17", "e18", "e1", "e2", "e3", "e4", "e5"]
    );
    // Exactly the two king steps off the file give check at move 1.
    assert_eq!(
        one_ply_checks(&r),
        vec![vec!["e4-d3".to_string()], vec!["e4-f3".to_string()]]
    );
    // The mirror line at the White king, by symmetry.
    assert!(shields.iter().any(|s| s.king.cell == "e4"
        && s.shield.cell == "e15"
        && s.slider.cell == "e14"
        && s.kind == ShieldKind::Discovery));
    assert_eq!(shields.len(), 2);
    assert!(r.mates.is_empty());
}

#[test]
fn genus_two_start_has_the_same_discovered_check_through_the_slit_and_wrap() {
    let r = audit("chess-genus2", None, &[], 2);
    let shields = r.shields.as_ref().expect("chess has shield lines");
    let found = shields
        .iter()
        .find(|s| s.king.cell == "II:e9")
        .expect("a shield line at the Black king");
    assert_eq!(found.kind, ShieldKind::Discovery);
    assert_eq!(found.shield.cell, "I:e1");
    assert_eq!(
        (found.slider.piece.as_str(), found.slider.cell.as_str()),
        ("Q", "I:e2")
    );
    assert_eq!(
        found.route,
        [
            "II:e1", "II:e2", "II:e3", "II:e4", "I:e6", "I:e7", "I:e8", "I:e9", "I:e1", "I:e2"
        ]
    );
    assert_eq!(
        one_ply_checks(&r),
        vec![vec!["I:e1-I:d9".to_string()], vec!["I:e1-I:f9".to_string()]]
    );
    assert_eq!(shields.len(), 2);
}

#[test]
fn mobius_start_has_mates_in_two_moves_but_none_is_forced() {
    let r = audit("chess-mobius", None, &[], 3);
    assert!(r.mates.is_empty(), "no forced mate: {:?}", r.mates);
    let mates: Vec<&CheckLine> = r.checks.iter().filter(|c| c.mate).collect();
    assert_eq!(
        mates,
        vec![
            &line(&["e2-e3", "h8-h6", "d1-i6"], true),
            &line(&["e2-e4", "h8-h6", "d1-i6"], true)
        ]
    );
    // After the cooperative reply the mate is forced: mate in one.
    let after = audit("chess-mobius", None, &["e2-e4", "h8-h6"], 1);
    assert_eq!(after.mates.len(), 1);
    assert_eq!(after.mates[0].mate_in, 1);
    assert_eq!(after.mates[0].line, ["d1-i6"]);
}

#[test]
fn mobius_forced_mate_in_two_after_e2_e4_i8_i7() {
    let r = audit("chess-mobius", None, &["e2-e4", "i8-i7"], 3);
    assert_eq!(r.mates.len(), 1, "{:?}", r.mates);
    assert_eq!(r.mates[0].mate_in, 2);
    assert_eq!(r.mates[0].first, "d1-i6");
    assert_eq!(r.mates[0].replies, 1);
    assert_eq!(r.mates[0].line, ["d1-i6", "h8-h7", "i6-h7"]);
    // Within two plies only mate in one is searched, and there is none.
    assert!(
        audit("chess-mobius", None, &["e2-e4", "i8-i7"], 2)
            .mates
            .is_empty()
    );
}

#[test]
fn mobius_start_black_mates_on_its_second_move_after_h2_h4() {
    let r = audit("chess-mobius", None, &["h2-h4", "e8-e6"], 2);
    assert!(
        r.checks
            .iter()
            .any(|c| c == &line(&["a1-a2", "d9-i4"], true))
    );
    let four = audit("chess-mobius", None, &[], 4);
    assert!(four.mates.is_empty());
    let black_mates = four.checks.iter().filter(|c| c.mate && c.moves.len() == 4);
    assert!(black_mates.clone().all(|c| c.moves[3] == "d9-i4"));
    assert_eq!(black_mates.count(), 38);
}

#[test]
fn forced_mate_in_two_is_found_on_the_flat_control() {
    // K c6, R h1 against K a8: 1.Kb6 Kb8 2.Rh8# and 1.Kc7 Ka7 2.Ra1#.
    let r = audit("chess-flat", Some("k7/8/2K5/8/8/8/8/7R w - - 0 1"), &[], 3);
    let firsts: Vec<(u32, &str)> = r
        .mates
        .iter()
        .map(|m| (m.mate_in, m.first.as_str()))
        .collect();
    assert_eq!(firsts, vec![(2, "c6-b6"), (2, "c6-c7")]);
    assert_eq!(r.mates[0].line, ["c6-b6", "a8-b8", "h1-h8"]);
    assert_eq!(r.mates[0].replies, 1);
    // With two plies only mate in one is searched: there is none.
    assert!(
        audit("chess-flat", Some("k7/8/2K5/8/8/8/8/7R w - - 0 1"), &[], 2)
            .mates
            .is_empty()
    );
}

#[test]
fn fools_mate_is_a_forced_mate_in_one_for_black() {
    let r = audit("chess-flat", None, &["f2-f3", "e7-e5", "g2-g4"], 1);
    assert_eq!(r.to_move, Player::Second);
    assert_eq!(r.mates.len(), 1);
    assert_eq!(r.mates[0].first, "d8-h4");
    assert_eq!(r.checks, vec![line(&["d8-h4"], true)]);
}

#[test]
fn chess_pin_and_attacked_pieces() {
    // The Black rook e7 pins the White bishop e2 to the king e1.
    let r = audit(
        "chess-flat",
        Some("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"),
        &[],
        1,
    );
    let shields = r.shields.unwrap();
    assert_eq!(shields.len(), 1);
    assert_eq!(shields[0].kind, ShieldKind::Pin);
    assert_eq!(shields[0].shield.cell, "e2");
    assert_eq!(shields[0].slider.cell, "e7");
    assert_eq!(shields[0].route, ["e2", "e3", "e4", "e5", "e6", "e7"]);
    let attacked = r.attacked.unwrap();
    assert_eq!(attacked.len(), 1);
    assert_eq!(attacked[0].target.cell, "e2");
    assert_eq!(attacked[0].by.len(), 1);
    assert_eq!(attacked[0].by[0].cell, "e7");
    assert_eq!(attacked[0].by[0].piece, "r");
}

#[test]
fn shogi_lance_pin_and_mutual_attack() {
    // SFEN: gote lance e3 (facing down) pins sente's gold e2 to the king e1;
    // the gold attacks the lance back.
    let r = audit(
        "shogi-flat",
        Some("4k4/9/9/9/9/9/4l4/4G4/4K4 b - 1"),
        &[],
        1,
    );
    let shields = r.shields.unwrap();
    assert_eq!(shields.len(), 1);
    assert_eq!(shields[0].kind, ShieldKind::Pin);
    assert_eq!(shields[0].king.cell, "e1");
    assert_eq!(shields[0].shield.cell, "e2");
    assert_eq!(shields[0].slider.cell, "e3");
    // Pieces are named as the position text writes them.
    let pieces = (
        shields[0].king.piece.as_str(),
        shields[0].shield.piece.as_str(),
        shields[0].slider.piece.as_str(),
    );
    assert_eq!(pieces, ("K", "G", "l"));
    let attacked: Vec<(String, Vec<String>)> = r
        .attacked
        .unwrap()
        .into_iter()
        .map(|a| (a.target.cell, a.by.into_iter().map(|b| b.cell).collect()))
        .collect();
    assert_eq!(
        attacked,
        vec![
            ("e2".to_string(), vec!["e3".to_string()]),
            ("e3".to_string(), vec!["e2".to_string()])
        ]
    );
}

#[test]
fn surface_shogi_starts_have_no_shield_lines_or_attacked_pieces() {
    for v in ["shogi-mobius", "shogi-klein", "shogi-genus2", "shogi-flat"] {
        let r = audit(v, None, &[], 1);
        assert_eq!(r.shields.as_deref(), Some(&[][..]), "{v}");
        assert_eq!(r.attacked.as_deref(), Some(&[][..]), "{v}");
        assert!(r.checks.is_empty(), "{v}");
    }
}

/// (target cell, attacker cells) of every attacked piece.
fn attacked_cells(r: &Report) -> Vec<(String, Vec<String>)> {
    r.attacked
        .clone()
        .expect("the family reports attacked pieces")
        .into_iter()
        .map(|a| (a.target.cell, a.by.into_iter().map(|b| b.cell).collect()))
        .collect()
}

#[test]
fn kyoto_and_tetra_starts_have_no_shield_lines_or_attacked_pieces() {
    // Kyoto: the kings face each other on file c with c2–c4 empty, so the
    // only line from a king meets the other king first; no piece is within
    // reach of an enemy. Tetra: ranks 4–6 are empty and no pattern crosses
    // three empty ranks in one move except sliders, whose lines end on
    // their own army's points.
    for v in [
        "kyoto",
        "kyoto-repetition-loss",
        "tetra-shogi",
        "tetra-hexgi",
    ] {
        let r = audit(v, None, &[], 1);
        assert_eq!(r.shields.as_deref(), Some(&[][..]), "{v}");
        assert_eq!(r.attacked.as_deref(), Some(&[][..]), "{v}");
    }
}

#[test]
fn kyoto_start_offers_seven_checks_within_two_plies_all_after_a_king_step() {
    // Checked by hand (three are corpus cases in cases/audit/): White's
    // first move must bring the king off c1, where no Black token can reach
    // it in one move; then a Black token turns over into a face that hits
    // the king's new cell. Gold b5 becomes a knight on a4 or c4 (hitting
    // b2 and d2, or b2) or on b4 (hitting a2, c2); silver d5 becomes a
    // bishop on d4 (diagonal c3-b2) or e4 (diagonal d3-c2); tokin e5
    // becomes a lance on d4 (file d3-d2). No line is mate.
    let r = audit("kyoto", None, &[], 2);
    let want = [
        ["c1-b2", "b5-a4"],
        ["c1-b2", "b5-c4"],
        ["c1-b2", "d5-d4"],
        ["c1-c2", "b5-b4"],
        ["c1-c2", "d5-e4"],
        ["c1-d2", "b5-c4"],
        ["c1-d2", "e5-d4"],
    ];
    let want: Vec<CheckLine> = want.iter().map(|m| line(m, false)).collect();
    assert_eq!(r.checks, want);
    assert!(r.mates.is_empty());
}

#[test]
fn kyoto_rook_face_pins_a_pawn_and_a_pawn_discovers() {
    // Black's rook face (+p) on c3 looks down file c at the White king c1
    // through White's pawn c2: a pin. The pawn and the rook attack each
    // other (a White pawn steps north onto c3; the rook slides onto c2).
    let r = audit("kyoto", Some("k4/5/2+p2/2P2/2K2[] w - - 0 1"), &[], 1);
    let shields = r.shields.clone().unwrap();
    assert_eq!(shields.len(), 1);
    assert_eq!(shields[0].kind, ShieldKind::Pin);
    assert_eq!(
        (
            &*shields[0].king.cell,
            &*shields[0].shield.cell,
            &*shields[0].slider.cell
        ),
        ("c1", "c2", "c3")
    );
    assert_eq!(shields[0].slider.piece, "+p");
    assert_eq!(shields[0].route, ["c2", "c3"]);
    assert_eq!(
        attacked_cells(&r),
        [
            ("c2".to_string(), vec!["c3".to_string()]),
            ("c3".to_string(), vec!["c2".to_string()])
        ]
    );
    // With Black's own pawn on c2 the line is a discovery: the pawn gives
    // check already (it steps south onto c1) and the king attacks it back.
    let r = audit("kyoto", Some("k4/5/2+p2/2p2/2K2[] w - - 0 1"), &[], 1);
    assert_eq!(r.shields.clone().unwrap()[0].kind, ShieldKind::Discovery);
    assert_eq!(
        attacked_cells(&r),
        [
            ("c1".to_string(), vec!["c2".to_string()]),
            ("c2".to_string(), vec!["c1".to_string()])
        ]
    );
}

#[test]
fn kyoto_lance_shields_only_along_its_forward_ray() {
    // A Black lance slides south only. On c3, north of White's pawn c2
    // and king c1, it pins the pawn. Turned around — White king c4, pawn
    // c3, Black lance c2 south of them — it cannot slide north toward the
    // king, so there is no line.
    let r = audit("kyoto", Some("k4/5/2l2/2P2/2K2[] w - - 0 1"), &[], 1);
    let shields = r.shields.clone().unwrap();
    assert_eq!(shields.len(), 1, "{shields:?}");
    assert_eq!(shields[0].slider.piece, "l");
    let r = audit("kyoto", Some("k4/2K2/2P2/2l2/5[] w - - 0 1"), &[], 1);
    assert_eq!(r.shields.as_deref(), Some(&[][..]));
}

#[test]
fn tetra_rook_pins_a_gold_along_the_back_rank() {
    // Rank 1 is a row of nine cells a1.1 … i1.1 joined by the in-rank
    // orthogonals R and L. Black's rook a1.1 slides R through b1.1 to the
    // White gold c1.1, behind which (d1.1 empty) stands the White king
    // e1.1: traced from the king going L the line is d1.1, c1.1 (shield),
    // b1.1, a1.1 (slider). The rook attacks the gold; the gold (one step)
    // reaches neither the rook two cells away nor anything else.
    let r = audit(
        "tetra-shogi",
        Some("r1G1K4/16/21/24/25/24/21/16/k8 w -"),
        &[],
        1,
    );
    let shields = r.shields.clone().unwrap();
    assert_eq!(shields.len(), 1, "{shields:?}");
    assert_eq!(shields[0].kind, ShieldKind::Pin);
    assert_eq!(shields[0].direction, "L");
    assert_eq!(shields[0].route, ["d1.1", "c1.1", "b1.1", "a1.1"]);
    assert_eq!(
        attacked_cells(&r),
        [("c1.1".to_string(), vec!["a1.1".to_string()])]
    );
    // A Black gold there instead is Black's own shield: a discovery.
    let r = audit(
        "tetra-shogi",
        Some("r1g1K4/16/21/24/25/24/21/16/k8 w -"),
        &[],
        1,
    );
    assert_eq!(r.shields.clone().unwrap()[0].kind, ShieldKind::Discovery);
    assert_eq!(attacked_cells(&r), []);
}

#[test]
fn library_errors_name_what_is_wrong() {
    let at = At::default();
    assert_eq!(
        audit_variant("chess-mobius", &at, 0),
        Err(AuditError::Plies(0))
    );
    assert_eq!(
        audit_variant("chess-mobius", &at, 5),
        Err(AuditError::Plies(5))
    );
    assert!(matches!(
        audit_variant("chess-moebius", &at, 2),
        Err(AuditError::Variant(VariantError::Unknown { .. }))
    ));
    let bad = At {
        position: Some("not a position"),
        moves: &[],
    };
    assert!(matches!(
        audit_variant("chess-klein", &bad, 2),
        Err(AuditError::Variant(VariantError::Position(_)))
    ));
    let moves = ["e4-e9".to_string()];
    let illegal = At {
        position: None,
        moves: &moves,
    };
    assert!(matches!(
        audit_variant("chess-klein", &illegal, 2),
        Err(AuditError::Variant(VariantError::Move { ply: 1, .. }))
    ));
}

#[test]
fn cli_text_report() {
    let r = seams(&["audit", "chess-klein"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("checks within 2 plies: 71"));
    assert!(r.stdout.contains("\n  e4-d3\n"));
    assert!(
        r.stdout
            .contains("discovery ke15 N shield Ke4 slider Qe5 route e16 e17 e18 e1 e2 e3 e4 e5")
    );
    assert!(
        r.stdout
            .contains("forced mates for White within 2 plies: 0")
    );
    assert!(r.stdout.contains("attacked pieces: 0"));
    let m = seams(&["audit", "chess-mobius", "--plies", "3"]);
    assert_eq!(m.code, 0, "{}", m.stderr);
    assert!(m.stdout.contains("  e2-e4 h8-h6 d1-i6  checkmate\n"));
    let mate = seams(&[
        "audit",
        "chess-mobius",
        "--moves",
        "e2-e4,h8-h6",
        "--plies",
        "1",
    ]);
    assert!(
        mate.stdout
            .contains("  mate in 1 by d1-i6 (0 replies), e.g. d1-i6\n")
    );
    let k = seams(&["audit", "kyoto", "--plies", "1"]);
    assert_eq!(k.code, 0, "{}", k.stderr);
    assert!(k.stdout.contains("shield lines: 0\n"), "{}", k.stdout);
    assert!(k.stdout.contains("attacked pieces: 0\n"), "{}", k.stdout);
}

#[test]
fn cli_json_report() {
    let r = seams(&["audit", "chess-genus2", "--plies", "1", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    assert_eq!(v["variant"], "chess-genus2");
    assert_eq!(v["plies"], 1);
    assert_eq!(v["checks"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["checks"][0]["moves"][0], "I:e1-I:d9");
    assert_eq!(v["shields"][0]["kind"], "discovery");
    let k = seams(&["audit", "kyoto", "--plies", "1", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&k.stdout).expect("JSON");
    assert_eq!(v["shields"], serde_json::json!([]));
    assert_eq!(v["attacked"], serde_json::json!([]));
}

#[test]
fn cli_usage_errors_exit_2() {
    check_input_error(
        &["audit", "chess-moebius"],
        "unknown variant 'chess-moebius'",
    );
    check_input_error(
        &["audit", "chess-klein", "--position", "no such position"],
        "bad position",
    );
    check_input_error(
        &["audit", "chess-klein", "--plies", "many"],
        "invalid value 'many'",
    );
    check_input_error(
        &["audit", "chess-klein", "--plies", "0"],
        "--plies must be between 1 and 4, not 0",
    );
    check_input_error(
        &["audit", "chess-klein", "--plies", "9"],
        "--plies must be between 1 and 4, not 9",
    );
    check_input_error(
        &["audit", "chess-klein", "--moves", "e4-e9"],
        "move 1 'e4-e9'",
    );
    check_input_error(&["audit"], "required");
}

#[test]
fn cli_help_has_an_example() {
    let r = seams(&["audit", "--help"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout
            .contains("Example: seams audit chess-mobius --plies 3")
    );
}
