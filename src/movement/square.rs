//! The movement language on boards of square charts (MV-2 to MV-6):
//! a [`Movement`] compiled once per facing into a [`Form`], bit masks of
//! board directions that move generation and attack detection read, and
//! the walk of a form from a cell ([`targets`]).
//!
//! A form is written in the board's local directions at the piece's own
//! cell: the piece's frame (north = forward) turned by its facing. Every
//! later step of a route is turned by the transport of the crossings
//! before it, through the [`Geometry`] step tables, so the form itself
//! never depends on the cell. [`literal_targets`] is the same walk read
//! straight from the text's terms over [`Board::step`] alone, with no
//! table; the property tests hold the two together on random gluings.

use crate::geometry::{Diagonal, Geometry, KnightWord, diagonal, walk};
use crate::topology::{Board, CellId, Dir, Step, Transport};

use super::lang::{Atom, Axis, Body, Components, Leg, Mode, Movement, MovementError, chosen};
use super::{Facing, Hop, Landing, hops_transport, knight_hops, ray_hops, step_hops};

/// One compiled movement in one facing, in board directions at the
/// piece's cell. The masks hold the common terms, by [`Mode::index`]; the
/// rest go to `other`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Form {
    /// Single steps of `W` and `F`, bit [`Dir::index`].
    pub steps: [u8; 3],
    /// Unlimited rides of `W` and `F`, bit [`Dir::index`].
    pub rays: [u8; 3],
    /// Knight leaps, bit [`KnightWord::index`].
    pub knights: [u8; 3],
    /// Every other term: limited rides, riders of `N`, the long leapers
    /// `D A H G`, two-stage moves.
    pub other: Vec<Other>,
}

/// A term the masks do not hold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Other {
    /// Up to `limit` units of one atom in one direction (`None`: any
    /// number), each unit turned by the transport of the ones before.
    Ride {
        unit: Unit,
        limit: Option<u8>,
        mode: Mode,
    },
    /// A step, then a second step chosen at the start and turned by the
    /// first step's transport (MV-5).
    Chain {
        first: Dir,
        second: Dir,
        lame: bool,
        mode: Mode,
    },
}

/// One unit of an atom in one orientation: a single step, a knight word,
/// or `len` steps along one line (`D`, `A`, `H`, `G`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    Step(Dir),
    Knight(KnightWord),
    Line { dir: Dir, len: u8 },
}

impl Unit {
    fn turned(self, t: Transport) -> Unit {
        match self {
            Unit::Step(d) => Unit::Step(t.apply(d)),
            Unit::Knight(w) => Unit::Knight(KnightWord::new(t.apply(w.long), t.apply(w.short))),
            Unit::Line { dir, len } => Unit::Line {
                dir: t.apply(dir),
                len,
            },
        }
    }

    /// Where one unit from `from` lands, by the tables.
    fn land(self, geo: &Geometry, from: CellId) -> Option<Step> {
        match self {
            Unit::Step(d) => geo.step(from, d),
            Unit::Knight(w) => geo.knight(from, w),
            Unit::Line { dir, len } => {
                let mut here = Step {
                    to: from,
                    transport: Transport::IDENTITY,
                };
                for _ in 0..len {
                    let s = geo.step(here.to, here.transport.apply(dir))?;
                    here = Step {
                        to: s.to,
                        transport: here.transport.then(s.transport),
                    };
                }
                // No unit ends where it began (MV-2.3).
                (here.to != from).then_some(here)
            }
        }
    }
}

impl Form {
    /// Whether the form captures by any of its terms (so it can attack).
    pub fn is_empty(&self) -> bool {
        self.steps == [0; 3]
            && self.rays == [0; 3]
            && self.knights == [0; 3]
            && self.other.is_empty()
    }

    /// The step bits that may land on an enemy piece: those of `Any` and
    /// `Capture` terms.
    #[inline]
    pub fn capture_steps(&self) -> u8 {
        self.steps[0] | self.steps[2]
    }
    #[inline]
    pub fn capture_rays(&self) -> u8 {
        self.rays[0] | self.rays[2]
    }
    #[inline]
    pub fn capture_knights(&self) -> u8 {
        self.knights[0] | self.knights[2]
    }
}

/// A movement compiled for both facings: `forms[0]` facing up, `forms[1]`
/// facing down.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    pub text: String,
    pub forms: [Form; 2],
}

impl Compiled {
    pub fn form(&self, f: Facing) -> &Form {
        &self.forms[match f {
            Facing::Up => 0,
            Facing::Down => 1,
        }]
    }

    /// Whether the piece moves differently facing up and facing down: only
    /// then does its facing count (SS-I1, SC-3.1, MV-I3).
    pub fn depends_on_facing(&self) -> bool {
        self.forms[0] != self.forms[1]
    }
}

/// The components of a direction in the piece's frame.
fn components(d: Dir) -> Components {
    let (dx, dy) = d.vector();
    Components {
        forward: dy,
        right: dx,
        up: 0,
        long: None,
    }
}

fn knight_components(w: KnightWord) -> Components {
    let (lx, ly) = w.long.vector();
    let (sx, sy) = w.short.vector();
    let long = if ly != 0 {
        (Axis::Forward, ly > 0)
    } else {
        (Axis::Right, lx > 0)
    };
    Components {
        forward: (2 * ly + sy).signum(),
        right: (2 * lx + sx).signum(),
        up: 0,
        long: Some(long),
    }
}

/// One relative move a term stands for, before facing and merging.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Rel {
    Ride {
        unit: Unit,
        limit: Option<u8>,
        mode: Mode,
    },
    Chain {
        first: Dir,
        second: Dir,
        lame: bool,
        mode: Mode,
    },
}

impl Rel {
    fn mirrored(self) -> Rel {
        match self {
            Rel::Ride { unit, limit, mode } => Rel::Ride {
                unit: unit.turned(Transport::FLIP_H),
                limit,
                mode,
            },
            Rel::Chain {
                first,
                second,
                lame,
                mode,
            } => Rel::Chain {
                first: Transport::FLIP_H.apply(first),
                second: Transport::FLIP_H.apply(second),
                lame,
                mode,
            },
        }
    }

    fn turned(self, t: Transport) -> Rel {
        match self {
            Rel::Ride { unit, limit, mode } => Rel::Ride {
                unit: unit.turned(t),
                limit,
                mode,
            },
            Rel::Chain {
                first,
                second,
                lame,
                mode,
            } => Rel::Chain {
                first: t.apply(first),
                second: t.apply(second),
                lame,
                mode,
            },
        }
    }
}

/// The units of a simple atom in the piece's frame, with their components.
fn units(atom: Atom) -> Vec<(Unit, Components)> {
    match atom {
        Atom::W => Dir::CARDINALS
            .into_iter()
            .map(|d| (Unit::Step(d), components(d)))
            .collect(),
        Atom::F => Dir::DIAGONALS
            .into_iter()
            .map(|d| (Unit::Step(d), components(d)))
            .collect(),
        Atom::N => KnightWord::ALL
            .into_iter()
            .map(|w| (Unit::Knight(w), knight_components(w)))
            .collect(),
        Atom::D | Atom::H => Dir::CARDINALS
            .into_iter()
            .map(|d| {
                let len = if atom == Atom::D { 2 } else { 3 };
                (Unit::Line { dir: d, len }, components(d))
            })
            .collect(),
        Atom::A | Atom::G => Dir::DIAGONALS
            .into_iter()
            .map(|d| {
                let len = if atom == Atom::A { 2 } else { 3 };
                (Unit::Line { dir: d, len }, components(d))
            })
            .collect(),
        Atom::K | Atom::R | Atom::B | Atom::Q => Vec::new(),
    }
}

/// Refuses direction letters a board of square charts has no axis for.
fn check_axes(dirs: &[super::lang::Selector], board: &str) -> Result<(), MovementError> {
    match dirs.iter().find(|s| s.names_up()) {
        Some(s) => Err(MovementError::NoAxis {
            at: s.at,
            letter: s.text.chars().last().unwrap_or('?'),
            board: board.to_string(),
        }),
        None => Ok(()),
    }
}

/// The steps of one stage of a two-stage move, in the piece's frame.
fn leg_dirs(leg: &Leg, board: &str) -> Result<Vec<Dir>, MovementError> {
    check_axes(&leg.dirs, board)?;
    Ok(units(leg.atom)
        .into_iter()
        .filter(|(_, c)| chosen(&leg.dirs, *c))
        .filter_map(|(u, _)| match u {
            Unit::Step(d) => Some(d),
            _ => None,
        })
        .collect())
}

/// Every relative move of a movement, in text order without repeats;
/// refuses a term that chooses nothing and a movement that is not its own
/// mirror image (MV-I2), naming the first term with a move whose mirror
/// image no term gives.
fn relative(m: &Movement, board: &str) -> Result<Vec<Rel>, MovementError> {
    let mut per_term = Vec::with_capacity(m.terms.len());
    for (i, term) in m.terms.iter().enumerate() {
        let own = term_moves(term, board)?;
        if own.is_empty() {
            return Err(MovementError::NoDirection {
                at: term.at,
                term: term.text(m, m.terms.get(i + 1)),
            });
        }
        per_term.push(own);
    }
    let mut out: Vec<Rel> = Vec::new();
    for r in per_term.iter().flatten() {
        if !out.contains(r) {
            out.push(*r);
        }
    }
    for (i, own) in per_term.iter().enumerate() {
        if own.iter().any(|r| !out.contains(&r.mirrored())) {
            let term = &m.terms[i];
            return Err(MovementError::Asymmetric {
                at: term.at,
                term: term.text(m, m.terms.get(i + 1)),
            });
        }
    }
    Ok(out)
}

/// The relative moves one term stands for, in a fixed order.
fn term_moves(term: &super::lang::Term, board: &str) -> Result<Vec<Rel>, MovementError> {
    let mut out = Vec::new();
    match &term.body {
        Body::Ride {
            dirs, atom, range, ..
        } => {
            check_axes(dirs, board)?;
            // A shorthand rider reads as unlimited unless a count is
            // written, so every part's limit is the term's (MV-4.1).
            for &simple in atom.parts() {
                for (unit, c) in units(simple) {
                    if chosen(dirs, c) {
                        out.push(Rel::Ride {
                            unit,
                            limit: range.limit(),
                            mode: term.mode,
                        });
                    }
                }
            }
        }
        Body::Chain {
            lame,
            first,
            second,
        } => {
            for a in leg_dirs(first, board)? {
                for b in leg_dirs(second, board)? {
                    out.push(Rel::Chain {
                        first: a,
                        second: b,
                        lame: *lame,
                        mode: term.mode,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Compiles a movement for a board of square charts named `board` (for
/// errors): both facings, the down facing being the up one reflected
/// vertically (MV-I1).
pub fn compile(m: &Movement, board: &str) -> Result<Compiled, MovementError> {
    let rel = relative(m, board)?;
    let form = |t: Transport| {
        let mut f = Form::default();
        for r in &rel {
            match r.turned(t) {
                Rel::Ride {
                    unit: Unit::Step(d),
                    limit: Some(1),
                    mode,
                } => f.steps[mode.index()] |= 1 << d.index(),
                Rel::Ride {
                    unit: Unit::Step(d),
                    limit: None,
                    mode,
                } => f.rays[mode.index()] |= 1 << d.index(),
                Rel::Ride {
                    unit: Unit::Knight(w),
                    limit: Some(1),
                    mode,
                } => f.knights[mode.index()] |= 1 << w.index(),
                Rel::Ride { unit, limit, mode } => f.other.push(Other::Ride { unit, limit, mode }),
                Rel::Chain {
                    first,
                    second,
                    lame,
                    mode,
                } => f.other.push(Other::Chain {
                    first,
                    second,
                    lame,
                    mode,
                }),
            }
        }
        f
    };
    Ok(Compiled {
        text: m.text.clone(),
        forms: [form(Transport::IDENTITY), form(Transport::FLIP_V)],
    })
}

/// Reads and compiles a movement text.
pub fn compile_text(text: &str, board: &str) -> Result<Compiled, MovementError> {
    compile(&super::lang::parse(text)?, board)
}

/// Every landing of `form` from `from` with the board as `occupied` says:
/// `visit(landing, mode)` once per route (the same cell may come more than
/// once). The first occupied cell of a ride is visited and ends it; the
/// caller decides, by `mode` and the occupant, whether the landing is a
/// move, a capture, or nothing.
#[inline]
pub fn targets<O, V>(geo: &Geometry, from: CellId, form: &Form, occupied: &O, visit: &mut V)
where
    O: Fn(CellId) -> bool,
    V: FnMut(Landing, Mode),
{
    masks_walk(geo, from, form, &mut |l, mode| {
        visit(l, mode);
        occupied(l.cell)
    });
    for o in &form.other {
        other_targets(geo, from, o, occupied, visit);
    }
}

/// The mask terms of [`targets`], for callers that look at each landing's
/// cell anyway: `visit(landing, mode)` answers whether the cell is
/// occupied, which ends a ride there. The terms outside the masks
/// (`form.other`) are not walked.
#[inline]
pub fn walk_masks<V>(geo: &Geometry, from: CellId, form: &Form, visit: &mut V)
where
    V: FnMut(Landing, Mode) -> bool,
{
    masks_walk(geo, from, form, visit)
}

/// A form's single steps and knight leaps from every cell of one board,
/// found once when a variant is built (the step tables per cell and
/// facing that MV-6.1 speaks of): where [`walk_masks`] decodes each mask
/// bit and looks the step up, move generation reads the cell's list. The
/// rides of the masks are walked as before, cell by cell, for they stop
/// at what stands on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leaps {
    /// `start[c]..start[c + 1]`: the landings from cell `c` in `to`.
    start: Vec<u32>,
    to: Vec<(Landing, Mode)>,
    /// The form's unlimited rides, each first direction with its mode, in
    /// the order [`walk_masks`] rides them; the same from every cell.
    rays: Vec<(Dir, Mode)>,
}

impl Leaps {
    /// The single steps and knight leaps of `form` from every cell of the
    /// board of `geo`, in the order [`walk_masks`] visits them (by mode,
    /// then steps, then knights); a step that returns to its cell is left
    /// out, as the walk leaves it out.
    pub fn of(geo: &Geometry, form: &Form) -> Leaps {
        let mut leaps = Leaps::default();
        for mode in Mode::ALL {
            for d in Dir::ALL {
                if form.rays[mode.index()] & (1 << d.index()) != 0 {
                    leaps.rays.push((d, mode));
                }
            }
        }
        for from in geo.board().cells() {
            leaps.start.push(leaps.to.len() as u32);
            for mode in Mode::ALL {
                let i = mode.index();
                for d in Dir::ALL {
                    if form.steps[i] & (1 << d.index()) != 0
                        && let Some(s) = geo.step(from, d)
                        && s.to != from
                    {
                        leaps.to.push((land(s), mode));
                    }
                }
                for w in KnightWord::ALL {
                    if form.knights[i] & (1 << w.index()) != 0
                        && let Some(s) = geo.knight(from, w)
                    {
                        leaps.to.push((land(s), mode));
                    }
                }
            }
        }
        leaps.start.push(leaps.to.len() as u32);
        leaps
    }

    /// The landings from `c`, each with its mode.
    #[inline]
    pub fn from(&self, c: CellId) -> &[(Landing, Mode)] {
        let (a, b) = (self.start[c.index()], self.start[c.index() + 1]);
        &self.to[a as usize..b as usize]
    }
}

fn land(s: Step) -> Landing {
    Landing {
        cell: s.to,
        transport: s.transport,
    }
}

/// [`walk_masks`] of a form from its [`Leaps`] on this board: the single
/// steps and knight leaps read from the table, the rays walked cell by
/// cell, the route's transports not composed (every ray landing carries
/// the identity), for callers whose pieces carry no facing.
#[inline]
pub fn walk_leaps_and_rays<V>(geo: &Geometry, from: CellId, leaps: &Leaps, visit: &mut V)
where
    V: FnMut(Landing, Mode) -> bool,
{
    for &(l, mode) in leaps.from(from) {
        visit(l, mode);
    }
    let bound = geo.board().cell_count() * 8;
    for &(d, mode) in &leaps.rays {
        let (mut here, mut dir) = (from, d);
        for _ in 0..bound {
            let Some(s) = geo.step(here, dir) else { break };
            if s.to == from {
                break;
            }
            dir = s.transport.apply(dir);
            here = s.to;
            let l = Landing {
                cell: here,
                transport: Transport::IDENTITY,
            };
            if visit(l, mode) {
                break;
            }
        }
    }
}

/// The terms of `form` outside the masks alone (what [`walk_masks`] leaves
/// out), as [`targets`] visits them.
pub fn walk_others<O, V>(geo: &Geometry, from: CellId, form: &Form, occupied: &O, visit: &mut V)
where
    O: Fn(CellId) -> bool,
    V: FnMut(Landing, Mode),
{
    for o in &form.other {
        other_targets(geo, from, o, occupied, visit);
    }
}

/// The masks' landings; generic rather than `dyn`, for this is perft's
/// inner loop and each family's closure is inlined into it. Rays follow
/// [`super::for_each_on_ray`] (the same stops), written out so that the caller's
/// one look at each cell also decides where the ray ends.
#[inline]
fn masks_walk<V>(geo: &Geometry, from: CellId, form: &Form, visit: &mut V)
where
    V: FnMut(Landing, Mode) -> bool,
{
    let bound = geo.board().cell_count() * 8;
    for mode in Mode::ALL {
        let i = mode.index();
        // Most pieces use one mode only.
        if form.steps[i] | form.rays[i] | form.knights[i] == 0 {
            continue;
        }
        let mut steps = form.steps[i];
        while steps != 0 {
            let d = Dir::ALL[steps.trailing_zeros() as usize];
            steps &= steps - 1;
            if let Some(s) = geo.step(from, d)
                && s.to != from
            {
                visit(
                    Landing {
                        cell: s.to,
                        transport: s.transport,
                    },
                    mode,
                );
            }
        }
        let mut rays = form.rays[i];
        while rays != 0 {
            let d = Dir::ALL[rays.trailing_zeros() as usize];
            rays &= rays - 1;
            let (mut here, mut dir, mut total) = (from, d, Transport::IDENTITY);
            for _ in 0..bound {
                let Some(s) = geo.step(here, dir) else { break };
                if s.to == from {
                    break;
                }
                total = total.then(s.transport);
                dir = s.transport.apply(dir);
                here = s.to;
                if visit(
                    Landing {
                        cell: here,
                        transport: total,
                    },
                    mode,
                ) {
                    break;
                }
            }
        }
        let mut knights = form.knights[i];
        while knights != 0 {
            let w = KnightWord::ALL[knights.trailing_zeros() as usize];
            knights &= knights - 1;
            if let Some(s) = geo.knight(from, w) {
                visit(
                    Landing {
                        cell: s.to,
                        transport: s.transport,
                    },
                    mode,
                );
            }
        }
    }
}

/// The landings of one term the masks do not hold.
pub fn other_targets(
    geo: &Geometry,
    from: CellId,
    o: &Other,
    occupied: &dyn Fn(CellId) -> bool,
    visit: &mut dyn FnMut(Landing, Mode),
) {
    match *o {
        Other::Ride { unit, limit, mode } => {
            // As for `for_each_on_ray`: every unit retraces itself, so the
            // only directed state a ride could repeat is its first, whose
            // cell ends it; the bound is a guard, and `literal_targets`
            // keeps the visited set the rule text names.
            let bound = geo.board().cell_count() * 8;
            let max = limit.map_or(bound, usize::from);
            let (mut here, mut total) = (from, Transport::IDENTITY);
            for _ in 0..max {
                let Some(s) = unit.turned(total).land(geo, here) else {
                    return;
                };
                if s.to == from {
                    return;
                }
                total = total.then(s.transport);
                here = s.to;
                visit(
                    Landing {
                        cell: here,
                        transport: total,
                    },
                    mode,
                );
                if occupied(here) {
                    return;
                }
            }
        }
        Other::Chain {
            first,
            second,
            lame,
            mode,
        } => {
            let Some(a) = geo.step(from, first).filter(|s| s.to != from) else {
                return;
            };
            if lame && occupied(a.to) {
                return;
            }
            let Some(b) = geo.step(a.to, a.transport.apply(second)) else {
                return;
            };
            if b.to == from {
                return;
            }
            visit(
                Landing {
                    cell: b.to,
                    transport: a.transport.then(b.transport),
                },
                mode,
            );
        }
    }
}

/// The same landings as [`targets`], read straight from the movement's
/// terms with [`Board::step`] and the two-order rule worked out at every
/// step, keeping a set of directed states on rides (MV-4.2). Used only to
/// check the compiled forms.
pub fn literal_targets(
    board: &Board,
    m: &Movement,
    from: CellId,
    facing: Facing,
    occupied: &dyn Fn(CellId) -> bool,
) -> Vec<(Landing, Mode)> {
    let frame = match facing {
        Facing::Up => Transport::IDENTITY,
        Facing::Down => Transport::FLIP_V,
    };
    let step = |c: CellId, d: Dir| -> Option<Step> {
        if d.is_cardinal() {
            board.step(c, d)
        } else {
            match diagonal(board, c, d) {
                Diagonal::Allowed(s) => Some(s),
                _ => None,
            }
        }
    };
    // One unit by its letters: a knight is long, short, long; a line is
    // its step `len` times; each letter turned by the crossings before it.
    let unit_walk = |c: CellId, u: Unit| -> Option<Step> {
        let letters: Vec<Dir> = match u {
            Unit::Step(d) => vec![d],
            Unit::Knight(w) => w.letters().to_vec(),
            Unit::Line { dir, len } => vec![dir; len as usize],
        };
        match u {
            Unit::Knight(_) => return walk(board, c, &letters).filter(|s| s.to != c),
            // A single step may come back to its own cell on the smallest
            // glued boards; a ray goes on through it (MV-2.3).
            Unit::Step(d) => return step(c, d),
            Unit::Line { .. } => {}
        }
        let mut here = Step {
            to: c,
            transport: Transport::IDENTITY,
        };
        for l in letters {
            let s = step(here.to, here.transport.apply(l))?;
            here = Step {
                to: s.to,
                transport: here.transport.then(s.transport),
            };
        }
        (here.to != c).then_some(here)
    };
    let mut out = Vec::new();
    let Ok(rel) = relative(m, board.name()) else {
        return out;
    };
    for r in rel {
        match r.turned(frame) {
            Rel::Ride { unit, limit, mode } => {
                let mut seen = std::collections::HashSet::new();
                let (mut here, mut total) = (from, Transport::IDENTITY);
                seen.insert((here, unit));
                let mut n = 0u32;
                loop {
                    if limit.is_some_and(|l| n >= u32::from(l)) {
                        break;
                    }
                    let Some(s) = unit_walk(here, unit.turned(total)) else {
                        break;
                    };
                    if s.to == from {
                        break;
                    }
                    total = total.then(s.transport);
                    here = s.to;
                    if !seen.insert((here, unit.turned(total))) {
                        break;
                    }
                    n += 1;
                    out.push((
                        Landing {
                            cell: here,
                            transport: total,
                        },
                        mode,
                    ));
                    if occupied(here) {
                        break;
                    }
                }
            }
            Rel::Chain {
                first,
                second,
                lame,
                mode,
            } => {
                let Some(a) = step(from, first).filter(|s| s.to != from) else {
                    continue;
                };
                if lame && occupied(a.to) {
                    continue;
                }
                let Some(b) = step(a.to, a.transport.apply(second)) else {
                    continue;
                };
                if b.to != from {
                    out.push((
                        Landing {
                            cell: b.to,
                            transport: a.transport.then(b.transport),
                        },
                        mode,
                    ));
                }
            }
        }
    }
    out
}

/// The hops of one unit from `from`, each in its own cell's directions
/// (a knight's three letters, a line's steps), when every hop exists.
fn unit_hops(geo: &Geometry, from: CellId, unit: Unit) -> Option<Vec<Hop>> {
    let letters: Vec<Dir> = match unit {
        Unit::Step(d) => vec![d],
        Unit::Knight(w) => w.letters().to_vec(),
        Unit::Line { dir, len } => vec![dir; usize::from(len)],
    };
    let mut hops = Vec::with_capacity(letters.len());
    let (mut here, mut total) = (from, Transport::IDENTITY);
    for letter in letters {
        let d = total.apply(letter);
        // A knight's letters are cardinal, and a cardinal step is the
        // table's; so every letter is one table step.
        let s = geo.step(here, d)?;
        hops.push(Hop {
            from: here,
            dir: d,
            to: s.to,
            transport: s.transport,
        });
        here = s.to;
        total = total.then(s.transport);
    }
    (here != from).then_some(hops)
}

/// Every route by which `form` from `from` lands on `to` with the board
/// as `occupied` says, as hops: one per term and orientation that reaches
/// it, whatever its mode (the caller knows whether the move was legal).
pub fn routes(
    geo: &Geometry,
    from: CellId,
    form: &Form,
    occupied: &dyn Fn(CellId) -> bool,
    to: CellId,
) -> Vec<Vec<Hop>> {
    let mut found = Vec::new();
    let any = |masks: [u8; 3]| masks[0] | masks[1] | masks[2];
    let (steps, rays, knights) = (any(form.steps), any(form.rays), any(form.knights));
    for d in Dir::ALL {
        if steps & (1 << d.index()) != 0 {
            found.extend(step_hops(geo, from, d, to));
        }
        if rays & (1 << d.index()) != 0 {
            found.extend(ray_hops(geo, from, d, occupied, to));
        }
    }
    for (k, w) in KnightWord::ALL.into_iter().enumerate() {
        if knights & (1 << k) != 0 {
            found.extend(knight_hops(geo, from, w, to));
        }
    }
    for o in &form.other {
        match *o {
            Other::Ride { unit, limit, .. } => {
                let bound = geo.board().cell_count() * 8;
                let max = limit.map_or(bound, usize::from);
                let mut hops: Vec<Hop> = Vec::new();
                let (mut here, mut total) = (from, Transport::IDENTITY);
                for _ in 0..max {
                    let Some(more) = unit_hops(geo, here, unit.turned(total)) else {
                        break;
                    };
                    let last = more.last().map_or(here, |h| h.to);
                    if last == from {
                        break;
                    }
                    total = total.then(hops_transport(&more));
                    hops.extend(more);
                    here = last;
                    if here == to {
                        found.push(hops.clone());
                    }
                    if occupied(here) {
                        break;
                    }
                }
            }
            Other::Chain {
                first,
                second,
                lame,
                ..
            } => {
                let Some(a) = geo.step(from, first).filter(|s| s.to != from) else {
                    continue;
                };
                if lame && occupied(a.to) {
                    continue;
                }
                let d = a.transport.apply(second);
                if let Some(b) = geo.step(a.to, d).filter(|s| s.to == to && s.to != from) {
                    found.push(vec![
                        Hop {
                            from,
                            dir: first,
                            to: a.to,
                            transport: a.transport,
                        },
                        Hop {
                            from: a.to,
                            dir: d,
                            to: b.to,
                            transport: b.transport,
                        },
                    ]);
                }
            }
        }
    }
    found
}
