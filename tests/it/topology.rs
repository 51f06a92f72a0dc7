//! Property tests of the topology kernel over random rectangle gluings, and
//! the slit construction of genus two.

use proptest::prelude::*;
use seams::geometry::Geometry;
use seams::movement::{Pattern, for_each_on_ray, ray_literal};
use seams::topology::file::{BoardFile, Sides, Transition, build};
use seams::topology::mesh::invariants;
use seams::topology::{Board, CellId, Dir, Gluing};

fn gluing() -> impl Strategy<Value = Gluing> {
    prop_oneof![
        Just(Gluing::Boundary),
        Just(Gluing::Translate),
        Just(Gluing::TranslateReversed),
    ]
}

fn rectangle() -> impl Strategy<Value = Board> {
    (2u8..=12, 2u8..=12, gluing(), gluing())
        .prop_map(|(w, h, ew, ns)| Board::rectangle(w, h, ew, ns))
}

/// The surface a rectangle gluing makes: (χ, orientable, name).
///
/// Only the projective plane has cone points: a square tiling of a closed
/// surface needs total angle deficit 2πχ (Gauss–Bonnet), and with χ = 1 the
/// four rectangle corners meet in two vertices of two corners each.
fn expected_surface(ew: Gluing, ns: Gluing) -> (i64, bool, &'static str) {
    use Gluing::*;
    match (ew, ns) {
        (Boundary, Boundary) => (1, true, "disc"),
        (Translate, Boundary) | (Boundary, Translate) => (0, true, "annulus"),
        (TranslateReversed, Boundary) | (Boundary, TranslateReversed) => (0, false, "Möbius band"),
        (Translate, Translate) => (0, true, "torus"),
        (TranslateReversed, Translate) | (Translate, TranslateReversed) => {
            (0, false, "Klein bottle")
        }
        (TranslateReversed, TranslateReversed) => (1, false, "projective plane"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A step followed by the step back through the same edge returns home
    /// with the inverse transport; the same holds for allowed diagonals.
    #[test]
    fn step_then_inverse_returns_home(board in rectangle()) {
        let geo = Geometry::new(board);
        for c in geo.board().cells() {
            for d in Dir::ALL {
                if let Some(s) = geo.step(c, d) {
                    let back_dir = s.transport.apply(d).opposite();
                    let back = geo.step(s.to, back_dir);
                    prop_assert!(back.is_some(), "no way back from {:?} {d}", c);
                    let back = back.unwrap();
                    prop_assert_eq!(back.to, c);
                    prop_assert_eq!(back.transport, s.transport.inverse());
                }
            }
        }
    }

    /// `odd_cycle` either colours the board so that every orthogonal step
    /// changes colour, or returns a closed walk of an odd number of real
    /// steps with at least one seam step of equal chart parity: exactly
    /// one of the two exists.
    #[test]
    fn colouring_or_odd_cycle(board in rectangle()) {
        use seams::topology::mesh::{alternating_colouring, odd_cycle};
        match odd_cycle(&board) {
            Ok(colour) => {
                prop_assert!(alternating_colouring(&board).is_some());
                for c in board.cells() {
                    for d in Dir::CARDINALS {
                        if let Some(s) = board.step(c, d) {
                            prop_assert_ne!(colour[c.index()], colour[s.to.index()]);
                        }
                    }
                }
            }
            Err(cycle) => {
                prop_assert!(alternating_colouring(&board).is_none());
                let steps = &cycle.steps;
                prop_assert_eq!(steps.len() % 2, 1);
                prop_assert_eq!(steps.first().unwrap().from, steps.last().unwrap().to);
                for (i, s) in steps.iter().enumerate() {
                    prop_assert_eq!(board.step(s.from, s.dir).map(|x| x.to), Some(s.to));
                    if i > 0 {
                        prop_assert_eq!(steps[i - 1].to, s.from);
                    }
                }
                prop_assert!(steps.iter().any(|s| s.parity_kept));
            }
        }
    }

    /// Links are circles or intervals, intervals exactly at the boundary;
    /// χ and orientability match the surface the gluing makes.
    #[test]
    fn invariants_match_the_gluing(board in rectangle()) {
        let (ew, ns) = board.side_gluing();
        let inv = invariants(&board);
        prop_assert_eq!(inv.link_circles + inv.link_intervals, inv.vertices);
        // A boundary made of circles has as many vertices as edges.
        prop_assert_eq!(inv.link_intervals, inv.boundary_edges);
        prop_assert_eq!(inv.faces, board.cell_count());
        let (chi, orientable, name) = expected_surface(ew, ns);
        prop_assert_eq!(inv.euler, chi);
        prop_assert_eq!(inv.orientable, orientable);
        prop_assert_eq!(inv.surface.as_str(), name);
        let two_corner_cones = if name == "projective plane" { 2 } else { 0 };
        prop_assert_eq!(inv.cone_points, two_corner_cones);
        prop_assert!(inv.cones.iter().all(|c| c.corners == 2));
    }

    /// The fast ray equals a literal reading of the rule with a visited set
    /// of directed states, on random boards and occupancies.
    #[test]
    fn ray_matches_literal_rule(
        board in rectangle(),
        from in any::<prop::sample::Index>(),
        occupied in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let geo = Geometry::new(board);
        let n = geo.board().cell_count();
        let from = CellId(from.index(n) as u16);
        let blocked: Vec<CellId> = occupied.iter().map(|i| CellId(i.index(n) as u16)).collect();
        let occ = |c: CellId| blocked.contains(&c);
        for d in Dir::ALL {
            let mut fast = Vec::new();
            for_each_on_ray(&geo, from, d, &occ, |l| fast.push(l));
            prop_assert_eq!(fast, ray_literal(&geo, from, d, &occ));
        }
    }

    /// Two tori cut along the same slit and glued crosswise make a closed
    /// orientable surface of χ −2 with a cone point at each slit end.
    #[test]
    fn crosswise_slit_gives_genus_two(
        w in 3u8..=10,
        h in 3u8..=10,
        y in any::<prop::sample::Index>(),
        start in any::<prop::sample::Index>(),
        len in any::<prop::sample::Index>(),
    ) {
        let y = y.index(h as usize) as u8;
        let len = 1 + len.index(w as usize - 1) as u8; // shorter than a full rank
        let x0 = start.index((w - len + 1) as usize) as u8;
        let x1 = x0 + len - 1;
        let file = |x: u8| (b'a' + x) as char;
        let below = y + 1;
        let above = (y + 1) % h + 1;
        let range = |chart: &str, rank: u8| format!("{chart}:{}{rank}-{}{rank}", file(x0), file(x1));
        let spec = BoardFile {
            name: "slit".into(),
            title: String::new(),
            width: w,
            height: h,
            charts: Some(vec!["I".into(), "II".into()]),
            sides: Sides { east_west: Gluing::Translate, north_south: Gluing::Translate },
            north: vec![
                Transition { from: range("I", below), to: range("II", above), transport: None },
                Transition { from: range("II", below), to: range("I", above), transport: None },
            ],
            east: vec![],
        };
        let board = build(&spec).expect("a crosswise slit is a valid gluing");
        let inv = invariants(&board);
        prop_assert_eq!(inv.euler, -2);
        prop_assert!(inv.orientable);
        prop_assert_eq!(inv.boundary_edges, 0);
        prop_assert_eq!(inv.cone_points, 2);
        prop_assert!(inv.cones.iter().all(|c| c.corners == 8));
        prop_assert_eq!(inv.surface.as_str(), "orientable genus 2");
    }

    /// Distinct routes to one cell stay distinct only when their transports
    /// differ: reach never lists the same (cell, transport) twice.
    #[test]
    fn reach_has_no_duplicate_outcomes(board in rectangle(), from in any::<prop::sample::Index>()) {
        let geo = Geometry::new(board);
        let from = CellId(from.index(geo.board().cell_count()) as u16);
        for p in Pattern::ALL {
            let r = p.reach(&geo, from, &|_| false);
            let mut d = r.clone();
            d.dedup();
            prop_assert_eq!(r.len(), d.len());
            prop_assert!(r.iter().all(|l| l.cell != from));
        }
    }
}

mod tetrahedron {
    use proptest::prelude::*;
    use seams::topology::tetra::{TDir, TetraBoard};

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Counts and reach follow from the lattice for every side, not
        /// only the shipped one: n(n+1)(n+2)/6 cells and a rook reach of
        /// 3(n − 1) from every cell (the four barycentric coordinates sum
        /// to n − 1 and each of the six lines holds a pair's sum).
        #[test]
        fn counts_and_rook_reach(side in 2u8..=12) {
            let t = TetraBoard::new("t", "", side).expect("valid side");
            let n = side as usize;
            prop_assert_eq!(t.cell_count(), n * (n + 1) * (n + 2) / 6);
            let facts = t.facts();
            prop_assert_eq!(facts.rook_reach.len(), 1);
            prop_assert_eq!(facts.rook_reach.get(&(3 * (n - 1))), Some(&t.cell_count()));
            let sizes: Vec<usize> = (0..n).map(|z| (z + 1) * (n - z)).collect();
            prop_assert_eq!(facts.rank_sizes, sizes);
        }

        /// Every step has its opposite step back, and the player exchange
        /// (x, y, z) ↦ (x, n−1−y, n−1−z) maps the board onto itself.
        #[test]
        fn steps_invert_and_exchange_is_a_symmetry(side in 2u8..=12) {
            let t = TetraBoard::new("t", "", side).expect("valid side");
            let m = side as i8 - 1;
            for c in t.cells() {
                for d in TDir::all() {
                    if let Some(n) = t.step(c, d) {
                        prop_assert_eq!(t.step(n, d.opposite()), Some(c));
                    }
                }
                let (x, y, z) = t.point(c);
                prop_assert!(t.cell_at((x, m - y, m - z)).is_some());
                prop_assert_eq!(t.parse_cell(t.cell_name(c)).ok(), Some(c));
            }
        }
    }
}

/// SS-I10: on every shipped square-cell board, wherever the two cardinal
/// orders of a diagonal reach one cell they also end with one transport, so
/// the transport condition of SS-2.7 (taken from the chess source) changes
/// no shipped diagonal.
#[test]
fn shipped_diagonals_never_meet_with_different_transports() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/boards");
    let mut boards = 0;
    for entry in std::fs::read_dir(dir).expect("spec/boards") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("board file");
        let Ok(board) = seams::topology::file::load(path.to_str().unwrap(), &text) else {
            continue; // the tetrahedron is not a square-cell board
        };
        boards += 1;
        for c in board.cells() {
            for d in Dir::ALL {
                let Some((h, v)) = d.split() else { continue };
                let a = seams::geometry::walk(&board, c, &[h, v]);
                let b = seams::geometry::walk(&board, c, &[v, h]);
                if let (Some(a), Some(b)) = (a, b) {
                    assert!(
                        a.to != b.to || a.transport == b.transport,
                        "{}: {} {d:?}",
                        path.display(),
                        board.cell_name(c)
                    );
                }
            }
        }
    }
    assert_eq!(boards, 8, "the eight square-cell boards of spec/boards");
}
