//! Boards as square cell complexes: cells, directions, gluing and the cardinal step.
//!
//! A board is a set of rectangular *charts* whose outer sides are glued to each
//! other (or left as boundary), plus explicit transitions that replace ordinary
//! adjacency (the genus-two staircase). Everything here is derived from a data
//! file in `spec/boards/`; see [`file`] for the format and its validation.
//!
//! Crossing a glued edge yields the neighbouring cell *and* a [`Transport`]: the
//! derivative of the identification, which acts on every direction used after
//! the crossing. This module knows nothing about pieces, facing or occupancy;
//! [`crate::geometry`] builds diagonal and knight steps on top of the cardinal
//! step defined here, and [`mesh`] derives the surface invariants.

pub mod file;
pub mod mesh;
pub mod tetra;

use std::fmt;

/// Index of a cell (a square face of the complex). Dense, `0..board.cell_count()`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub struct CellId(pub u16);

impl CellId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The eight unit directions of a square complex, in a chart's local frame.
///
/// North is increasing rank, east increasing file.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];
    pub const CARDINALS: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
    pub const DIAGONALS: [Dir; 4] = [Dir::NE, Dir::SE, Dir::SW, Dir::NW];

    /// Position in [`Dir::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Position in [`Dir::CARDINALS`]; only meaningful for cardinals.
    pub fn cardinal_index(self) -> usize {
        debug_assert!(self.is_cardinal());
        self as usize / 2
    }

    pub fn is_cardinal(self) -> bool {
        (self as usize).is_multiple_of(2)
    }

    /// The displacement `(dx, dy)` with components in `{-1, 0, 1}`.
    pub fn vector(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::NE => (1, 1),
            Dir::E => (1, 0),
            Dir::SE => (1, -1),
            Dir::S => (0, -1),
            Dir::SW => (-1, -1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, 1),
        }
    }

    pub fn from_vector(dx: i8, dy: i8) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.vector() == (dx, dy))
    }

    pub fn opposite(self) -> Dir {
        let (dx, dy) = self.vector();
        Dir::from_vector(-dx, -dy).expect("every direction has an opposite")
    }

    /// A diagonal's horizontal and vertical cardinal parts; `None` for cardinals.
    pub fn split(self) -> Option<(Dir, Dir)> {
        let (dx, dy) = self.vector();
        if dx == 0 || dy == 0 {
            return None;
        }
        let h = if dx > 0 { Dir::E } else { Dir::W };
        let v = if dy > 0 { Dir::N } else { Dir::S };
        Some((h, v))
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::NE => "NE",
            Dir::E => "E",
            Dir::SE => "SE",
            Dir::S => "S",
            Dir::SW => "SW",
            Dir::W => "W",
            Dir::NW => "NW",
        }
    }

    pub fn parse(s: &str) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The derivative of a seam: a sign flip of either displacement component.
///
/// Rectangle gluings (translate, or translate with the other coordinate
/// reversed) only ever produce these four maps, and they commute, so
/// composition is component-wise XOR.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Ord, PartialOrd, Debug, Default)]
pub struct Transport {
    /// `(dx, dy) ↦ (−dx, dy)`: produced by a north–south seam that reverses files.
    pub flip_x: bool,
    /// `(dx, dy) ↦ (dx, −dy)`: produced by an east–west seam that reverses ranks
    /// (Möbius and Klein side seams). Reverses a piece's facing.
    pub flip_y: bool,
}

impl Transport {
    pub const IDENTITY: Transport = Transport {
        flip_x: false,
        flip_y: false,
    };
    pub const FLIP_V: Transport = Transport {
        flip_x: false,
        flip_y: true,
    };
    pub const FLIP_H: Transport = Transport {
        flip_x: true,
        flip_y: false,
    };
    pub const HALF_TURN: Transport = Transport {
        flip_x: true,
        flip_y: true,
    };
    pub const ALL: [Transport; 4] = [
        Transport::IDENTITY,
        Transport::FLIP_V,
        Transport::FLIP_H,
        Transport::HALF_TURN,
    ];

    /// First `self`, then `next`.
    pub fn then(self, next: Transport) -> Transport {
        Transport {
            flip_x: self.flip_x ^ next.flip_x,
            flip_y: self.flip_y ^ next.flip_y,
        }
    }

    /// Every transport here is its own inverse.
    pub fn inverse(self) -> Transport {
        self
    }

    pub fn apply(self, d: Dir) -> Dir {
        let (mut dx, mut dy) = d.vector();
        if self.flip_x {
            dx = -dx;
        }
        if self.flip_y {
            dy = -dy;
        }
        Dir::from_vector(dx, dy).expect("a sign flip maps directions to directions")
    }

    /// Applies the map to a corner offset or any other integer vector.
    pub fn apply_vec(self, (dx, dy): (i8, i8)) -> (i8, i8) {
        (
            if self.flip_x { -dx } else { dx },
            if self.flip_y { -dy } else { dy },
        )
    }

    /// Determinant +1: the seam keeps orientation.
    pub fn preserves_orientation(self) -> bool {
        self.flip_x == self.flip_y
    }

    pub fn name(self) -> &'static str {
        match (self.flip_x, self.flip_y) {
            (false, false) => "identity",
            (false, true) => "flip-v",
            (true, false) => "flip-h",
            (true, true) => "half-turn",
        }
    }

    pub fn parse(s: &str) -> Option<Transport> {
        Transport::ALL.into_iter().find(|t| t.name() == s)
    }
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of one step: where it lands and how later directions transform.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Step {
    pub to: CellId,
    pub transport: Transport,
}

/// How one pair of opposite outer sides of a chart is glued.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gluing {
    /// The sides are boundary: a step across them does not exist.
    Boundary,
    /// Opposite sides are identified by translation (a cylinder or torus wrap).
    Translate,
    /// Identified with the other coordinate reversed (Möbius side seam).
    TranslateReversed,
}

/// A cell's chart-local coordinates.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Square {
    pub chart: u8,
    pub x: u8,
    pub y: u8,
}

/// A rejected coordinate, carrying the text and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
// The text, and a reason that may quote part of it, are shown bounded
// (see crate::quote): a coordinate can be as long as its input.
#[error(
    "bad coordinate '{}' on board {board}: {}",
    crate::quote::excerpt(.text),
    crate::quote::bounded(.reason)
)]
pub struct CoordError {
    pub text: String,
    pub board: String,
    pub reason: String,
}

/// A validated square complex. Built only by [`file::load`] (or
/// [`Board::rectangle`] for tests), so its gluing is always an involution.
#[derive(Clone, Debug)]
pub struct Board {
    name: String,
    title: String,
    width: u8,
    height: u8,
    /// Chart names; a single-chart board has one empty name and prints `a1`.
    charts: Vec<String>,
    east_west: Gluing,
    north_south: Gluing,
    /// `cardinal[cell][Dir::cardinal_index()]`.
    cardinal: Vec<[Option<Step>; 4]>,
    /// `names[cell]`: every cell's name, formatted once, since notation
    /// and position text name cells all the time.
    names: Vec<String>,
}

impl Board {
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn title(&self) -> &str {
        &self.title
    }
    pub fn width(&self) -> u8 {
        self.width
    }
    pub fn height(&self) -> u8 {
        self.height
    }
    pub fn chart_names(&self) -> &[String] {
        &self.charts
    }
    pub fn chart_count(&self) -> usize {
        self.charts.len()
    }
    pub fn side_gluing(&self) -> (Gluing, Gluing) {
        (self.east_west, self.north_south)
    }
    pub fn cell_count(&self) -> usize {
        self.cardinal.len()
    }
    pub fn cells(&self) -> impl Iterator<Item = CellId> + use<> {
        (0..self.cell_count() as u16).map(CellId)
    }

    pub fn cell(&self, sq: Square) -> CellId {
        let (w, h) = (self.width as u16, self.height as u16);
        CellId(sq.chart as u16 * w * h + sq.y as u16 * w + sq.x as u16)
    }

    pub fn square(&self, c: CellId) -> Square {
        let (w, h) = (self.width as u16, self.height as u16);
        Square {
            chart: (c.0 / (w * h)) as u8,
            x: (c.0 % w) as u8,
            y: ((c.0 / w) % h) as u8,
        }
    }

    /// The cardinal step across one side of a cell, if that side is glued.
    pub fn step(&self, c: CellId, d: Dir) -> Option<Step> {
        self.cardinal[c.index()][d.cardinal_index()]
    }

    /// File letter of a column index.
    pub fn file_letter(x: u8) -> char {
        (b'a' + x) as char
    }

    /// Prints `a1`, or `I:a1` on multi-chart boards.
    pub fn cell_name(&self, c: CellId) -> &str {
        &self.names[c.index()]
    }

    /// The name of a cell, formatted (once per cell, when the board is
    /// built): `a1`, or `I:a1` on multi-chart boards.
    fn format_cell(&self, c: CellId) -> String {
        let sq = self.square(c);
        let local = format!("{}{}", Board::file_letter(sq.x), sq.y as u32 + 1);
        if self.charts.len() == 1 {
            local
        } else {
            format!("{}:{}", self.charts[sq.chart as usize], local)
        }
    }

    /// Parses `a1`, or `I:a1` on multi-chart boards.
    pub fn parse_cell(&self, text: &str) -> Result<CellId, CoordError> {
        let err = |reason: String| CoordError {
            text: text.to_string(),
            board: self.name.clone(),
            reason,
        };
        let (chart, local) = match text.split_once(':') {
            Some((chart_name, local)) => {
                if self.charts.len() == 1 {
                    return Err(err(
                        "this board has a single chart, so coordinates carry no chart prefix"
                            .into(),
                    ));
                }
                let chart = self
                    .charts
                    .iter()
                    .position(|n| n == chart_name)
                    .ok_or_else(|| {
                        err(format!(
                            "unknown chart '{chart_name}' (charts are {})",
                            self.charts.join(", ")
                        ))
                    })?;
                (chart, local)
            }
            None => {
                if self.charts.len() > 1 {
                    return Err(err(format!(
                        "this board has several charts; write the chart first, as in {}:{}",
                        self.charts[0],
                        crate::quote::excerpt(text)
                    )));
                }
                (0, text)
            }
        };
        let mut chars = local.chars();
        let file = chars
            .next()
            .ok_or_else(|| err("missing file letter".into()))?;
        let last_file = Board::file_letter(self.width - 1);
        if !file.is_ascii_lowercase() {
            return Err(err(format!(
                "a coordinate starts with a file letter a–{last_file}"
            )));
        }
        let x = file as u8 - b'a';
        if x >= self.width {
            return Err(err(format!("file '{file}' is outside a–{last_file}")));
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty() || !rank_text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err(format!(
                "the rank must be a number from 1 to {}",
                self.height
            )));
        }
        let rank: u32 = rank_text.parse().map_err(|_| {
            err(format!(
                "rank '{}' is not a number from 1 to {}",
                crate::quote::excerpt(rank_text),
                self.height
            ))
        })?;
        if rank == 0 || rank > self.height as u32 {
            return Err(err(format!("rank {rank} is outside 1–{}", self.height)));
        }
        Ok(self.cell(Square {
            chart: chart as u8,
            x,
            y: (rank - 1) as u8,
        }))
    }

    /// Whether the step across side `d` of `c` comes from an explicit
    /// transition (a staircase edge) rather than from the chart's own
    /// adjacency and side gluing. Pictures draw such edges specially.
    pub fn is_transition(&self, c: CellId, d: Dir) -> bool {
        d.is_cardinal() && self.step(c, d) != self.outer_step(self.square(c), d)
    }

    /// The step a side gluing gives across a chart's outer side, before any
    /// explicit transition replaces it.
    fn outer_step(&self, sq: Square, d: Dir) -> Option<Step> {
        let (w, h) = (self.width, self.height);
        let (dx, dy) = d.vector();
        let nx = sq.x as i16 + dx as i16;
        let ny = sq.y as i16 + dy as i16;
        let inside = |v: i16, n: u8| (0..n as i16).contains(&v);
        if inside(nx, w) && inside(ny, h) {
            let to = self.cell(Square {
                chart: sq.chart,
                x: nx as u8,
                y: ny as u8,
            });
            return Some(Step {
                to,
                transport: Transport::IDENTITY,
            });
        }
        let wrap = |v: i16, n: u8| v.rem_euclid(n as i16) as u8;
        match d {
            Dir::E | Dir::W => match self.east_west {
                Gluing::Boundary => None,
                Gluing::Translate => Some(Step {
                    to: self.cell(Square {
                        chart: sq.chart,
                        x: wrap(nx, w),
                        y: sq.y,
                    }),
                    transport: Transport::IDENTITY,
                }),
                Gluing::TranslateReversed => Some(Step {
                    to: self.cell(Square {
                        chart: sq.chart,
                        x: wrap(nx, w),
                        y: h - 1 - sq.y,
                    }),
                    transport: Transport::FLIP_V,
                }),
            },
            Dir::N | Dir::S => match self.north_south {
                Gluing::Boundary => None,
                Gluing::Translate => Some(Step {
                    to: self.cell(Square {
                        chart: sq.chart,
                        x: sq.x,
                        y: wrap(ny, h),
                    }),
                    transport: Transport::IDENTITY,
                }),
                Gluing::TranslateReversed => Some(Step {
                    to: self.cell(Square {
                        chart: sq.chart,
                        x: w - 1 - sq.x,
                        y: wrap(ny, h),
                    }),
                    transport: Transport::FLIP_H,
                }),
            },
            _ => unreachable!("outer_step is only called with cardinals"),
        }
    }

    /// A plain rectangle family member: one chart, the given side gluings, no
    /// transitions. Property tests build boards this way; shipped boards come
    /// from spec files.
    pub fn rectangle(width: u8, height: u8, east_west: Gluing, north_south: Gluing) -> Board {
        let spec = file::BoardFile {
            name: format!("rect-{width}x{height}"),
            title: String::new(),
            width,
            height,
            charts: None,
            sides: file::Sides {
                east_west,
                north_south,
            },
            north: vec![],
            east: vec![],
        };
        file::build(&spec).expect("a plain rectangle always validates")
    }
}
