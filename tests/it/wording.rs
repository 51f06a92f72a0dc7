//! The words a person reads. Each family names its players one way, as its
//! rules.md does, and the CLI, pictures, the web app, record verdicts and
//! reports all use those names. Errors for common slips say how to write
//! what was meant.

use crate::common::{scratch_dir, seams, seams_with_input};
use seams::registry;
use seams::rules::Player;
use seams::variant::{At, Variant};

/// Each family's players as its rules name them, and the words of the
/// clause that does (compared with the rules.md text, line breaks aside).
const FAMILIES: [(&str, &str, [&str; 2], &str); 4] = [
    (
        "shogi-",
        "spec/shogi/rules.md",
        ["A", "B"],
        "The two players are A (moves first) and B.",
    ),
    (
        "chess-",
        "spec/chess/rules.md",
        ["White", "Black"],
        "White is the first player and moves first; Black is",
    ),
    (
        "kyoto",
        "spec/kyoto/rules.md",
        ["first player", "second player"],
        "The first player moves first",
    ),
    (
        "tetra-",
        "spec/tetra/rules.md",
        ["White", "Black"],
        "The players are White (the first player",
    ),
];

fn names_of(v: &dyn Variant) -> [&'static str; 2] {
    [v.player_name(Player::First), v.player_name(Player::Second)]
}

fn family(
    v: &dyn Variant,
) -> &'static (&'static str, &'static str, [&'static str; 2], &'static str) {
    FAMILIES
        .iter()
        .find(|f| v.name().starts_with(f.0))
        .unwrap_or_else(|| panic!("{} belongs to no family of this test", v.name()))
}

#[test]
fn every_family_names_its_players_as_its_rules_do() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (_, doc, names, clause) in FAMILIES {
        let text = std::fs::read_to_string(root.join(doc)).expect("the rules document");
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(clause), "{doc} no longer says '{clause}'");
        for name in names {
            assert!(flat.contains(name), "{doc} never names '{name}'");
        }
    }
    for v in registry::variants() {
        let v = v.as_ref();
        assert_eq!(names_of(v), family(v).2, "{}", v.name());
        // Pictures (and so the web app, which shows the picture's names)
        // take the same names.
        let d = v
            .diagram(&At::default())
            .expect("every variant is pictured");
        assert_eq!(
            [d.sides[0].name.as_str(), d.sides[1].name.as_str()],
            names_of(v),
            "{}'s picture",
            v.name()
        );
    }
}

#[test]
fn the_cli_names_players_as_the_rules_do() {
    let dir = scratch_dir("wording-records");
    for v in registry::variants() {
        let v = v.as_ref();
        let [first, second] = names_of(v);
        let name = v.name();

        let r = seams(&["play", name]);
        assert!(
            r.stdout.contains(&format!("to move  {first}\n")),
            "{name}: {}",
            r.stdout
        );

        let record = dir.join(format!("{name}.json"));
        let path = record.to_str().unwrap();
        let r = seams(&["play", name, "--moves", "resign", "--record", path]);
        assert!(
            r.stdout
                .contains(&format!("result   {second} wins by resignation")),
            "{name}: {}",
            r.stdout
        );

        let r = seams_with_input(&["play", name, "--interactive"], "quit\n");
        assert!(
            r.stdout.contains(&format!("{first} to move")),
            "{name}: {}",
            r.stdout
        );

        // A record claiming the other winner is refused in the same words.
        let mut claimed: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
        claimed["result"]["winner"] = serde_json::json!("first");
        std::fs::write(&record, claimed.to_string()).unwrap();
        let r = seams(&["record", "verify", path]);
        let said = format!("{}{}", r.stdout, r.stderr);
        assert!(
            said.contains(&format!("claims a win for {first} by resignation"))
                && said.contains(&format!("gives a win for {second} by resignation")),
            "{name}: {said}"
        );
    }
    let r = seams(&["audit", "chess-flat", "--plies", "1"]);
    assert!(r.stdout.contains("to move  White\n"), "{}", r.stdout);
    assert!(r.stdout.contains("forced mates for White"), "{}", r.stdout);
}

#[test]
fn a_space_separated_move_list_is_refused_with_the_comma_form() {
    let r = seams(&["play", "chess-flat", "--moves", "e2-e4 e7-e5"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("actions are separated by commas, not spaces")
            && r.stderr.contains("(--moves e2-e4,e7-e5)"),
        "{}",
        r.stderr
    );
    // Spaces around a comma are no slip.
    let r = seams(&["play", "chess-flat", "--moves", "e2-e4, e7-e5"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn a_chess_move_without_its_hyphen_shows_the_form() {
    let r = seams(&["play", "chess-flat", "--moves", "e2e4"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("'e2e4' is not origin-destination") && r.stderr.contains("as in e2-e4"),
        "{}",
        r.stderr
    );
}

#[test]
fn moves_from_a_cell_that_marks_nothing_says_why() {
    let r = seams(&["render", "chess-flat", "--moves-from", "e4"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.starts_with("<svg"), "the picture is still drawn");
    assert!(
        r.stderr
            .contains("--moves-from e4 marks nothing: no piece stands there"),
        "{}",
        r.stderr
    );
    let r = seams(&["render", "chess-flat", "--moves-from", "a1"]);
    assert!(
        r.stderr
            .contains("--moves-from a1 marks nothing: the piece there has no legal action"),
        "{}",
        r.stderr
    );
    let r = seams(&["render", "chess-flat", "--moves-from", "e2"]);
    assert!(
        r.stderr.is_empty(),
        "a piece with moves needs no note: {}",
        r.stderr
    );
}
