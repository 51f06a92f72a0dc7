//! The tetrahedral board: face-centred cubic lattice points inside a
//! tetrahedron, with ranks as slices between two opposite edges.
//!
//! Cells are `a·(1,1,0) + b·(1,0,1) + c·(0,1,1)` with `a, b, c ≥ 0` and
//! `a + b + c ≤ side − 1`, i.e. points `(x, y, z)` with an even coordinate
//! sum. The rank of a cell is `z`: rank 1 (`z = 0`) is White's back edge and
//! rank `side` is Black's. Within rank `z` the cells form a rectangle of
//! `(side − z)` files by `(z + 1)` levels.
//!
//! Directions are named from White's side: *right* `(1,1,0)`, *up*
//! `(1,−1,0)`, *forward* `+z`. The twelve orthogonals are the permutations
//! of `(±1, ±1, 0)`, the six diagonals `(±2,0,0)`, `(0,±2,0)`, `(0,0,±2)`.
//! Nothing here bends or reflects, so every step's transport is the
//! identity and a direction never changes along a ray.
//!
//! Coordinates print as file letter, rank number, dot, level number:
//! `e5.3` is file e of rank 5 at level 3 (files and levels count from 1 at
//! White's left and bottom).

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

use super::{CellId, CoordError};

/// One of the eighteen unit directions, named from White's side.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct TDir(pub u8);

/// (name, vector, is orthogonal) for every direction, in [`TDir`] order.
const DIRECTIONS: [(&str, (i8, i8, i8), bool); 18] = [
    ("R", (1, 1, 0), true),
    ("L", (-1, -1, 0), true),
    ("U", (1, -1, 0), true),
    ("D", (-1, 1, 0), true),
    ("FRU", (1, 0, 1), true),
    ("FRD", (0, 1, 1), true),
    ("FLU", (0, -1, 1), true),
    ("FLD", (-1, 0, 1), true),
    ("BRU", (1, 0, -1), true),
    ("BRD", (0, 1, -1), true),
    ("BLU", (0, -1, -1), true),
    ("BLD", (-1, 0, -1), true),
    ("RU", (2, 0, 0), false),
    ("RD", (0, 2, 0), false),
    ("LU", (0, -2, 0), false),
    ("LD", (-2, 0, 0), false),
    ("F", (0, 0, 2), false),
    ("B", (0, 0, -2), false),
];

impl TDir {
    pub fn all() -> impl Iterator<Item = TDir> {
        (0..DIRECTIONS.len() as u8).map(TDir)
    }
    pub fn orthogonals() -> impl Iterator<Item = TDir> {
        TDir::all().filter(|d| d.is_orthogonal())
    }
    pub fn diagonals() -> impl Iterator<Item = TDir> {
        TDir::all().filter(|d| !d.is_orthogonal())
    }
    pub fn name(self) -> &'static str {
        DIRECTIONS[self.0 as usize].0
    }
    pub fn vector(self) -> (i8, i8, i8) {
        DIRECTIONS[self.0 as usize].1
    }
    pub fn is_orthogonal(self) -> bool {
        DIRECTIONS[self.0 as usize].2
    }
    /// Change of rank: +1 forward orthogonal, +2 straight forward, …
    pub fn rank_change(self) -> i8 {
        self.vector().2
    }
    pub fn from_vector(v: (i8, i8, i8)) -> Option<TDir> {
        TDir::all().find(|d| d.vector() == v)
    }
    pub fn parse(s: &str) -> Option<TDir> {
        TDir::all().find(|d| d.name().eq_ignore_ascii_case(s))
    }
    pub fn opposite(self) -> TDir {
        let (x, y, z) = self.vector();
        TDir::from_vector((-x, -y, -z)).expect("every direction has an opposite")
    }
}

/// The serde form of a tetrahedral board file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TetraFile {
    pub name: String,
    #[serde(default)]
    pub title: String,
    /// Always `"tetrahedron"`.
    pub shape: String,
    /// Cells along an edge, 2–26.
    pub side: u8,
}

/// A validated tetrahedral board with its step table.
#[derive(Clone, Debug)]
pub struct TetraBoard {
    name: String,
    title: String,
    side: u8,
    points: Vec<(i8, i8, i8)>,
    index: HashMap<(i8, i8, i8), CellId>,
    /// `steps[cell][TDir.0]`.
    steps: Vec<[Option<CellId>; 18]>,
    /// `names[cell]`, formatted once.
    names: Vec<String>,
}

impl TetraBoard {
    /// Builds the board of the given side; `side` must be 2–26 (the file
    /// letters limit it).
    pub fn new(name: &str, title: &str, side: u8) -> Result<TetraBoard, String> {
        if !(2..=26).contains(&side) {
            return Err(format!("side {side}: a tetrahedral board has side 2 to 26"));
        }
        let n = side as i8 - 1;
        let mut points = Vec::new();
        // Order: by rank, then file, then level, so printing is stable.
        for z in 0..=n {
            for a in 0..=(n - z) {
                for u in 0..=z {
                    points.push((a + u, a + z - u, z));
                }
            }
        }
        let index: HashMap<_, _> = points
            .iter()
            .enumerate()
            .map(|(i, &p)| (p, CellId(i as u16)))
            .collect();
        let steps = points
            .iter()
            .map(|&(x, y, z)| {
                let mut row = [None; 18];
                for d in TDir::all() {
                    let (dx, dy, dz) = d.vector();
                    row[d.0 as usize] = index.get(&(x + dx, y + dy, z + dz)).copied();
                }
                row
            })
            .collect();
        let mut board = TetraBoard {
            name: name.to_string(),
            title: title.to_string(),
            side,
            points,
            index,
            steps,
            names: Vec::new(),
        };
        board.names = board.cells().map(|c| board.format_cell(c)).collect();
        Ok(board)
    }

    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn title(&self) -> &str {
        &self.title
    }
    pub fn side(&self) -> u8 {
        self.side
    }
    pub fn cell_count(&self) -> usize {
        self.points.len()
    }
    pub fn cells(&self) -> impl Iterator<Item = CellId> + use<> {
        (0..self.points.len() as u16).map(CellId)
    }
    pub fn point(&self, c: CellId) -> (i8, i8, i8) {
        self.points[c.index()]
    }
    pub fn cell_at(&self, p: (i8, i8, i8)) -> Option<CellId> {
        self.index.get(&p).copied()
    }

    /// One unit step; `None` off the board.
    #[inline]
    pub fn step(&self, c: CellId, d: TDir) -> Option<CellId> {
        self.steps[c.index()][d.0 as usize]
    }

    /// Rank index from White's side, 0-based.
    pub fn rank(&self, c: CellId) -> u8 {
        self.point(c).2 as u8
    }
    /// (file, level), 0-based, within the cell's rank.
    pub fn in_rank(&self, c: CellId) -> (u8, u8) {
        let (x, y, z) = self.point(c);
        (((x + y - z) / 2) as u8, ((x - y + z) / 2) as u8)
    }
    /// The parity class a diagonal move preserves: the bishop binding.
    pub fn binding(&self, c: CellId) -> (u8, u8, u8) {
        let (x, y, z) = self.point(c);
        ((x & 1) as u8, (y & 1) as u8, (z & 1) as u8)
    }

    /// The name of a cell: file letter, rank, and level, as `c4.2`.
    pub fn cell_name(&self, c: CellId) -> &str {
        &self.names[c.index()]
    }

    fn format_cell(&self, c: CellId) -> String {
        let (file, level) = self.in_rank(c);
        format!(
            "{}{}.{}",
            (b'a' + file) as char,
            self.rank(c) + 1,
            level + 1
        )
    }

    pub fn parse_cell(&self, text: &str) -> Result<CellId, CoordError> {
        let err = |reason: String| CoordError {
            text: text.to_string(),
            board: self.name.clone(),
            reason,
        };
        let mut chars = text.chars();
        let file = chars
            .next()
            .filter(char::is_ascii_lowercase)
            .ok_or_else(|| {
                err("a coordinate is file letter, rank, '.', level, as in e5.3".into())
            })?;
        let rest = chars.as_str();
        let (rank, level) = rest
            .split_once('.')
            .ok_or_else(|| err("missing '.level' (as in e5.3)".into()))?;
        let num = |s: &str, what: &str| {
            s.parse::<u8>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| err(format!("the {what} must be a number from 1")))
        };
        let rank = num(rank, "rank")?;
        let level = num(level, "level")?;
        if rank > self.side {
            return Err(err(format!("rank {rank} is outside 1–{}", self.side)));
        }
        let z = rank as i8 - 1;
        let files = self.side as i8 - z;
        let a = file as i8 - b'a' as i8;
        if a >= files {
            return Err(err(format!(
                "rank {rank} has files a–{}",
                (b'a' + files as u8 - 1) as char
            )));
        }
        // Compared before the signed arithmetic below: a level above 127
        // would wrap to a negative i8 and pass a signed comparison.
        if level > rank {
            return Err(err(format!("rank {rank} has levels 1–{rank}")));
        }
        let u = level as i8 - 1;
        Ok(self
            .cell_at((a + u, a + z - u, z))
            .expect("in-range rank, file and level name a cell"))
    }

    /// Derived facts printed by `seams geometry` and pinned by the corpus.
    pub fn facts(&self) -> TetraFacts {
        let mut rank_sizes = vec![0usize; self.side as usize];
        for c in self.cells() {
            rank_sizes[self.rank(c) as usize] += 1;
        }
        let reach = |dirs: &dyn Fn() -> Box<dyn Iterator<Item = TDir>>| {
            let mut hist: BTreeMap<usize, usize> = BTreeMap::new();
            for c in self.cells() {
                let mut seen = std::collections::BTreeSet::new();
                for d in dirs() {
                    let mut here = c;
                    while let Some(next) = self.step(here, d) {
                        seen.insert(next);
                        here = next;
                    }
                }
                *hist.entry(seen.len()).or_default() += 1;
            }
            hist
        };
        let rook_reach = reach(&|| Box::new(TDir::orthogonals()));
        let bishop_reach = reach(&|| Box::new(TDir::diagonals()));
        let mut bindings: BTreeMap<(u8, u8, u8), (usize, Vec<u8>)> = BTreeMap::new();
        for c in self.cells() {
            let e = bindings.entry(self.binding(c)).or_default();
            e.0 += 1;
            let r = self.rank(c) + 1;
            if !e.1.contains(&r) {
                e.1.push(r);
            }
        }
        let most_steps = |dirs: Vec<TDir>| {
            self.cells()
                .map(|c| dirs.iter().filter(|&&d| self.step(c, d).is_some()).count())
                .max()
                .unwrap_or(0)
        };
        let forward_orthogonals: Vec<TDir> = TDir::orthogonals()
            .filter(|d| d.rank_change() > 0)
            .collect();
        let straight_forward = TDir::parse("F").expect("F is a direction");
        let gold: Vec<TDir> = TDir::orthogonals()
            .chain(std::iter::once(straight_forward))
            .collect();
        let silver: Vec<TDir> = TDir::diagonals()
            .chain(forward_orthogonals.iter().copied())
            .collect();
        TetraFacts {
            cells: self.cell_count(),
            rank_sizes,
            rook_reach,
            bishop_reach,
            bindings: bindings
                .into_iter()
                .map(|(parity, (cells, ranks))| Binding {
                    parity: format!("{}{}{}", parity.0, parity.1, parity.2),
                    cells,
                    odd_ranks: ranks.iter().all(|r| r % 2 == 1),
                })
                .collect(),
            gold_open_directions: most_steps(gold),
            silver_open_directions: most_steps(silver),
        }
    }
}

/// One bishop binding: the cells whose coordinate parities agree.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Binding {
    /// Parities of (x, y, z), e.g. `"011"`.
    pub parity: String,
    pub cells: usize,
    /// Whether its cells all lie on odd ranks (1, 3, …) rather than even.
    pub odd_ranks: bool,
}

/// Derived facts of a tetrahedral board.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct TetraFacts {
    pub cells: usize,
    /// Cells per rank, from White's back rank.
    pub rank_sizes: Vec<usize>,
    /// Rook destinations on the empty board → number of cells with it.
    pub rook_reach: BTreeMap<usize, usize>,
    pub bishop_reach: BTreeMap<usize, usize>,
    pub bindings: Vec<Binding>,
    /// Most one-step gold directions available from any cell.
    pub gold_open_directions: usize,
    /// Most one-step silver directions available from any cell.
    pub silver_open_directions: usize,
}

impl TetraBoard {
    /// Every cell a straight-line pattern reaches from `from`, with the
    /// first occupied cell on each line included and nothing beyond it.
    /// `rays` slides; otherwise one step.
    pub fn reach(
        &self,
        from: CellId,
        dirs: impl Iterator<Item = TDir>,
        rays: bool,
        occupied: &dyn Fn(CellId) -> bool,
    ) -> Vec<CellId> {
        let mut out = Vec::new();
        for d in dirs {
            let mut here = from;
            while let Some(next) = self.step(here, d) {
                out.push(next);
                if !rays || occupied(next) {
                    break;
                }
                here = next;
            }
        }
        out.sort();
        out.dedup();
        out
    }
}
