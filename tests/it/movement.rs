//! The movement language (`spec/movement/rules.md`): the grammar and the
//! reader agree on which texts are movements; a compiled form lands where
//! the text's terms, walked step by step, land, on random gluings; Φ
//! commutes with every compiled form of the shipped pieces.

use proptest::prelude::*;
use seams::geometry::Geometry;
use seams::grammar::Grammar;
use seams::movement::lang::{self, Mode, MovementError};
use seams::movement::square::{self, compile_text, literal_targets};
use seams::movement::{Facing, Landing};
use seams::topology::{Board, CellId, Gluing};

const GRAMMAR_FILE: &str = "spec/movement/movement.abnf";

fn grammar() -> Grammar {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(GRAMMAR_FILE)).expect("the grammar is shipped");
    Grammar::new(GRAMMAR_FILE, &text).expect("the movement grammar compiles")
}

/// Every letter the language uses, and a few it does not.
const ALPHABET: &[char] = &[
    'm', 'c', 'n', 'f', 'b', 's', 'v', 'l', 'r', 'u', 'd', 'W', 'F', 'N', 'D', 'A', 'H', 'G', 'K',
    'R', 'B', 'Q', '[', ']', '-', '0', '1', '3', '9', 'x', ' ',
];

/// Whether the reader takes `text` as a movement: every refusal but a
/// syntax error is a check made after reading (MV-3.3).
fn reads(text: &str) -> bool {
    !matches!(lang::parse(text), Err(MovementError::Syntax { .. }))
}

fn check_agreement(g: &Grammar, text: &str) {
    let derived = g.derives("movement", text).is_ok();
    assert_eq!(
        derived,
        reads(text),
        "'{text}': the grammar {} it, the reader {}",
        if derived { "derives" } else { "refuses" },
        match lang::parse(text) {
            Ok(_) => "reads it".to_string(),
            Err(e) => format!("says {e}"),
        }
    );
}

/// Every text of up to three characters over the alphabet, and every
/// shipped movement.
#[test]
fn the_grammar_and_the_reader_agree_on_every_short_text() {
    let g = grammar();
    let mut texts = vec![String::new()];
    let mut all = vec![String::new()];
    for _ in 0..3 {
        texts = texts
            .iter()
            .flat_map(|t| ALPHABET.iter().map(move |c| format!("{t}{c}")))
            .collect();
        all.extend(texts.iter().cloned());
    }
    for text in &all {
        check_agreement(&g, text);
    }
    for text in SHIPPED.iter().chain(TETRA) {
        assert!(g.derives("movement", text).is_ok(), "{text}");
        check_agreement(&g, text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Longer texts, drawn letter by letter.
    #[test]
    fn the_grammar_and_the_reader_agree_on_random_texts(
        letters in proptest::collection::vec(proptest::sample::select(ALPHABET), 4..14)
    ) {
        let text: String = letters.into_iter().collect();
        check_agreement(grammar_once(), &text);
    }
}

fn grammar_once() -> &'static Grammar {
    static G: std::sync::OnceLock<Grammar> = std::sync::OnceLock::new();
    G.get_or_init(grammar)
}

/// Every movement the shipped square-chart variants write.
const SHIPPED: &[&str] = &[
    "K", "R", "RF", "B", "BW", "WfF", "FfW", "ffN", "fR", "fW", "Q", "N", "mfWcfF",
];

/// The tetrahedral ones.
const TETRA: &[&str] = &[
    "W", "vW", "rslW", "lsrW", "usdW", "dsuW", "[fF-sW]", "RF", "BW",
];

/// Movements beyond the shipped ones: limited and oblique riders, long
/// leapers, two-stage moves, split modes.
const MORE: &[&str] = &[
    "W3", "NN", "N2", "DAHG", "n[fF-sW]", "[W-F]", "n[F-W]", "cK", "mQ", "sW", "vR2", "bbN",
    "rrNllN", "KN", "fsW", "mNcK", "RN", "fFbsW",
];

fn gluing() -> impl Strategy<Value = Gluing> {
    prop_oneof![
        Just(Gluing::Boundary),
        Just(Gluing::Translate),
        Just(Gluing::TranslateReversed),
    ]
}

/// The landings of a form, sorted, as (cell, transport, mode).
fn sorted(mut v: Vec<(Landing, Mode)>) -> Vec<(Landing, Mode)> {
    v.sort_by_key(|(l, m)| (l.cell, format!("{:?}", l.transport), *m));
    v
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The compiled form, walked through the step tables, lands exactly
    /// where the movement's terms, walked one board step at a time with a
    /// visited set, land: the same cells by the same routes, with the same
    /// transports and modes, for both facings and any blockers.
    #[test]
    fn compiled_forms_land_where_the_text_walks(
        w in 2u8..=9, h in 2u8..=9, ew in gluing(), ns in gluing(),
        pick in 0usize..64, seed in any::<u64>(), at in any::<u16>(), down in any::<bool>(),
    ) {
        let board = Board::rectangle(w, h, ew, ns);
        let geo = Geometry::new(board.clone());
        let texts: Vec<&str> = SHIPPED.iter().chain(MORE).copied().collect();
        let text = texts[pick % texts.len()];
        let movement = lang::parse(text).expect("the test texts read");
        let compiled = compile_text(text, board.name()).expect("the test texts compile");
        let facing = if down { Facing::Down } else { Facing::Up };
        let n = board.cell_count();
        let from = CellId(at % n as u16);
        // Each cell but the mover's is occupied by one bit of the seed.
        let occupied = |c: CellId| c != from && (seed >> (c.index() % 64)) & 1 == 1;
        let mut got = Vec::new();
        square::targets(&geo, from, compiled.form(facing), &occupied, &mut |l, m| got.push((l, m)));
        let want = literal_targets(&board, &movement, from, facing, &occupied);
        prop_assert_eq!(sorted(got), sorted(want), "{} from {} facing {:?} on {}", text, board.cell_name(from), facing, board.name());
    }
}

/// Φ (files and ranks reversed, sheets exchanged) reverses every direction,
/// so it maps the landings of a piece facing one way onto those of the
/// piece on the image cell facing the other way: for every shipped shogi
/// board, movement, cell and facing, and with blockers mapped along.
#[test]
fn phi_commutes_with_every_compiled_form() {
    for r in seams::shogi::builtin_variants() {
        let geo = r.geometry();
        let board = geo.board();
        for text in SHIPPED.iter().chain(MORE) {
            let compiled = compile_text(text, board.name()).expect("compiles");
            for from in board.cells() {
                // A fixed scatter of blockers, mapped by Φ on the image.
                let occupied = |c: CellId| c != from && c.index().is_multiple_of(3);
                let image = |c: CellId| c != r.phi_cell(from) && r.phi_cell(c).index() % 3 == 0;
                for facing in [Facing::Up, Facing::Down] {
                    let mut here = Vec::new();
                    square::targets(geo, from, compiled.form(facing), &occupied, &mut |l, m| {
                        here.push((r.phi_cell(l.cell), m))
                    });
                    let mut there = Vec::new();
                    square::targets(
                        geo,
                        r.phi_cell(from),
                        compiled.form(facing.reversed()),
                        &image,
                        &mut |l, m| there.push((l.cell, m)),
                    );
                    here.sort();
                    there.sort();
                    assert_eq!(
                        here,
                        there,
                        "{text} from {} facing {facing:?} on {}",
                        board.cell_name(from),
                        board.name()
                    );
                }
            }
        }
    }
}
