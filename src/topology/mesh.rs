//! Surface invariants computed from a board's gluing, never typed in.
//!
//! The cells are the square faces of a 2-complex. Two face edges are one mesh
//! edge when the gluing pairs them; face corners are identified through glued
//! edges consistently with the seam's derivative, which gives the mesh
//! vertices. From that we read V, E, F and χ, each vertex's link (a circle of
//! k corners, or an interval at the boundary), the boundary components,
//! orientability, cone points (circle links with k ≠ 4) and whether an
//! alternating colouring survives every seam.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Board, CellId, Dir};

/// Corner offsets in half-cell units, indexed 0..4: SW, SE, NE, NW.
const CORNERS: [(i8, i8); 4] = [(-1, -1), (1, -1), (1, 1), (-1, 1)];

fn corner_index(v: (i8, i8)) -> usize {
    CORNERS
        .iter()
        .position(|&c| c == v)
        .expect("corner offsets are (±1, ±1)")
}

fn corner_name(k: usize) -> &'static str {
    ["SW", "SE", "NE", "NW"][k]
}

/// Where a mesh vertex sits: one of its face corners, for printing.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ConePoint {
    /// Number of square corners meeting there (4 is flat; 8 is angle 4π).
    pub corners: usize,
    /// Every face corner at the vertex, as `cell:corner` (e.g. `I:d5:NE`).
    pub at: Vec<String>,
}

/// The derived table printed by `seams geometry`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Invariants {
    pub faces: usize,
    pub edges: usize,
    pub vertices: usize,
    pub euler: i64,
    pub orientable: bool,
    /// Connected pieces of the surface.
    pub components: usize,
    pub boundary_components: usize,
    pub boundary_edges: usize,
    pub link_circles: usize,
    pub link_intervals: usize,
    /// Number of circle links by corner count, e.g. `{4: 158, 8: 2}`.
    pub circle_corners: BTreeMap<usize, usize>,
    /// Number of cone points (vertices whose circle link has k ≠ 4 corners).
    pub cone_points: usize,
    /// Where each cone point is.
    pub cones: Vec<ConePoint>,
    /// Whether cells can be two-coloured so that every edge-neighbour differs.
    pub alternating_colouring: bool,
    /// The surface named from χ, orientability and boundary, when connected.
    pub surface: String,
}

/// Disjoint sets over `0..n`, for vertex and component identification.
pub(crate) struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    pub(crate) fn new(n: usize) -> Self {
        UnionFind {
            parent: (0..n).collect(),
        }
    }
    pub(crate) fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
    pub(crate) fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb;
        }
    }
    /// Class sizes keyed by representative.
    pub(crate) fn classes(&mut self) -> BTreeMap<usize, Vec<usize>> {
        let mut out: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for x in 0..self.parent.len() {
            let r = self.find(x);
            out.entry(r).or_default().push(x);
        }
        out
    }
}

/// For the side `d` of `cell`, the pairs (corner of `cell`, corner of the
/// neighbour) that the gluing identifies, or `None` for a boundary side.
fn side_corner_pairs(board: &Board, cell: CellId, d: Dir) -> Option<[(usize, CellId, usize); 2]> {
    let s = board.step(cell, d)?;
    let n = d.vector();
    let perp = (n.1, n.0);
    let pair = |sign: i8| {
        let e = (perp.0 * sign, perp.1 * sign);
        let here = (n.0 + e.0, n.1 + e.1);
        let tn = s.transport.apply_vec(n);
        let te = s.transport.apply_vec(e);
        let there = (-tn.0 + te.0, -tn.1 + te.1);
        (corner_index(here), s.to, corner_index(there))
    };
    Some([pair(1), pair(-1)])
}

/// Computes every invariant of the board's cell complex.
pub fn invariants(board: &Board) -> Invariants {
    let faces = board.cell_count();
    let corner_id = |c: CellId, k: usize| c.index() * 4 + k;

    // Vertices: face corners identified across glued edges.
    let mut vertices = UnionFind::new(faces * 4);
    let mut glued_sides = 0usize;
    let mut boundary_sides: Vec<(CellId, Dir)> = Vec::new();
    // Degree of each face corner in its vertex link: how many of its two
    // incident sides are glued.
    let mut degree = vec![0u8; faces * 4];
    for c in board.cells() {
        for d in Dir::CARDINALS {
            match side_corner_pairs(board, c, d) {
                Some(pairs) => {
                    glued_sides += 1;
                    for (k, to, k2) in pairs {
                        vertices.union(corner_id(c, k), corner_id(to, k2));
                        degree[corner_id(c, k)] += 1;
                    }
                }
                None => boundary_sides.push((c, d)),
            }
        }
    }
    let edges = glued_sides / 2 + boundary_sides.len();
    let classes = vertices.classes();
    let vertex_count = classes.len();

    let mut link_circles = 0;
    let mut link_intervals = 0;
    let mut circle_corners: BTreeMap<usize, usize> = BTreeMap::new();
    let mut cone_points = Vec::new();
    for members in classes.values() {
        // A connected graph of maximum degree two is a path or a cycle; the
        // deficit Σ(2 − deg) is 0 for a cycle and 2 for a path (one isolated
        // corner is a path of one arc).
        let deficit: usize = members.iter().map(|&m| 2 - degree[m] as usize).sum();
        if deficit == 0 {
            link_circles += 1;
            *circle_corners.entry(members.len()).or_default() += 1;
            if members.len() != 4 {
                let at = members
                    .iter()
                    .map(|&m| {
                        format!(
                            "{}:{}",
                            board.cell_name(CellId((m / 4) as u16)),
                            corner_name(m % 4)
                        )
                    })
                    .collect();
                cone_points.push(ConePoint {
                    corners: members.len(),
                    at,
                });
            }
        } else {
            link_intervals += 1;
        }
    }

    // Boundary components: boundary edges meeting at a vertex are joined.
    let mut boundary = UnionFind::new(boundary_sides.len());
    let mut first_at_vertex: BTreeMap<usize, usize> = BTreeMap::new();
    for (i, &(c, d)) in boundary_sides.iter().enumerate() {
        let n = d.vector();
        let perp = (n.1, n.0);
        for sign in [1i8, -1] {
            let k = corner_index((n.0 + perp.0 * sign, n.1 + perp.1 * sign));
            let v = vertices.find(corner_id(c, k));
            match first_at_vertex.get(&v) {
                Some(&j) => boundary.union(i, j),
                None => {
                    first_at_vertex.insert(v, i);
                }
            }
        }
    }
    let boundary_components = boundary.classes().len();

    // Orientation: propagate a sign across glued edges; a seam that reverses
    // orientation flips it. A contradiction means non-orientable.
    let mut sign: Vec<Option<bool>> = vec![None; faces];
    let mut orientable = true;
    let mut components = 0;
    for start in board.cells() {
        if sign[start.index()].is_some() {
            continue;
        }
        components += 1;
        sign[start.index()] = Some(true);
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            let here = sign[c.index()].expect("visited cells carry a sign");
            for d in Dir::CARDINALS {
                if let Some(s) = board.step(c, d) {
                    let want = here == s.transport.preserves_orientation();
                    match sign[s.to.index()] {
                        None => {
                            sign[s.to.index()] = Some(want);
                            stack.push(s.to);
                        }
                        Some(have) if have != want => orientable = false,
                        Some(_) => {}
                    }
                }
            }
        }
    }

    let euler = vertex_count as i64 - edges as i64 + faces as i64;
    let manifold = link_circles + link_intervals == vertex_count;
    let surface = if components == 1 && manifold {
        name_surface(euler, orientable, boundary_components)
    } else {
        format!("{components} components")
    };

    Invariants {
        faces,
        edges,
        vertices: vertex_count,
        euler,
        orientable,
        components,
        boundary_components,
        boundary_edges: boundary_sides.len(),
        link_circles,
        link_intervals,
        circle_corners,
        cone_points: cone_points.len(),
        cones: cone_points,
        alternating_colouring: alternating_colouring(board).is_some(),
        surface,
    }
}

/// A two-colouring in which every pair of edge-neighbours differs, if any.
pub fn alternating_colouring(board: &Board) -> Option<Vec<bool>> {
    let mut colour: Vec<Option<bool>> = vec![None; board.cell_count()];
    for start in board.cells() {
        if colour[start.index()].is_some() {
            continue;
        }
        colour[start.index()] = Some(false);
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            let here = colour[c.index()].expect("visited cells carry a colour");
            for d in Dir::CARDINALS {
                if let Some(s) = board.step(c, d) {
                    match colour[s.to.index()] {
                        None => {
                            colour[s.to.index()] = Some(!here);
                            stack.push(s.to);
                        }
                        Some(other) if other == here => return None,
                        Some(_) => {}
                    }
                }
            }
        }
    }
    Some(colour.into_iter().map(|c| c.unwrap_or(false)).collect())
}

/// Names a connected compact surface by the classification theorem.
fn name_surface(euler: i64, orientable: bool, boundary: usize) -> String {
    let b = boundary as i64;
    if orientable {
        let twice_genus = 2 - euler - b;
        if twice_genus < 0 || twice_genus % 2 != 0 {
            return "unclassified".into();
        }
        match (twice_genus / 2, boundary) {
            (0, 0) => "sphere".into(),
            (0, 1) => "disc".into(),
            (0, 2) => "annulus".into(),
            (1, 0) => "torus".into(),
            (g, 0) => format!("orientable genus {g}"),
            (g, n) => format!("orientable genus {g} with {n} boundary components"),
        }
    } else {
        let crosscaps = 2 - euler - b;
        match (crosscaps, boundary) {
            (1, 0) => "projective plane".into(),
            (1, 1) => "Möbius band".into(),
            (2, 0) => "Klein bottle".into(),
            (k, 0) if k > 0 => format!("non-orientable genus {k}"),
            (k, n) if k > 0 => format!("non-orientable genus {k} with {n} boundary components"),
            _ => "unclassified".into(),
        }
    }
}

/// One orthogonal step of an odd cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CycleStep {
    pub from: CellId,
    pub dir: Dir,
    pub to: CellId,
    /// The step joins two cells of equal chart parity (x + y): it crosses a
    /// seam where the charts' own checkerboards disagree. Every odd cycle
    /// has at least one, since inside a chart each step changes the parity.
    pub parity_kept: bool,
}

/// A closed walk of an odd number of orthogonal steps: proof that no
/// alternating colouring exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OddCycle {
    pub steps: Vec<CycleStep>,
}

/// The alternating colouring of [`alternating_colouring`], or an odd cycle
/// of orthogonal steps that forbids one. Breadth-first from each
/// uncoloured cell, so the first clash closes a shortest-possible cycle
/// through the search tree: the two tree paths to the clashing cells meet
/// at their last common ancestor.
pub fn odd_cycle(board: &Board) -> Result<Vec<bool>, OddCycle> {
    let n = board.cell_count();
    let mut colour: Vec<Option<bool>> = vec![None; n];
    // The tree step that reached each cell: (parent, direction).
    let mut parent: Vec<Option<(CellId, Dir)>> = vec![None; n];
    let mut depth = vec![0usize; n];
    for start in board.cells() {
        if colour[start.index()].is_some() {
            continue;
        }
        colour[start.index()] = Some(false);
        let mut queue = std::collections::VecDeque::from([start]);
        while let Some(c) = queue.pop_front() {
            let here = colour[c.index()].expect("queued cells carry a colour");
            for d in Dir::CARDINALS {
                let Some(s) = board.step(c, d) else { continue };
                match colour[s.to.index()] {
                    None => {
                        colour[s.to.index()] = Some(!here);
                        parent[s.to.index()] = Some((c, d));
                        depth[s.to.index()] = depth[c.index()] + 1;
                        queue.push_back(s.to);
                    }
                    Some(other) if other == here => {
                        return Err(close_cycle(board, &parent, &depth, c, d, s.to));
                    }
                    Some(_) => {}
                }
            }
        }
    }
    Ok(colour.into_iter().map(|c| c.unwrap_or(false)).collect())
}

/// The cycle root → … → `a`, `a` -`d`→ `b`, `b` → … → root, cut at the
/// last common ancestor of `a` and `b`.
fn close_cycle(
    board: &Board,
    parent: &[Option<(CellId, Dir)>],
    depth: &[usize],
    a: CellId,
    d: Dir,
    b: CellId,
) -> OddCycle {
    let tree_step = |c: CellId| {
        let (p, dir) = parent[c.index()].expect("a non-root cell has a tree parent");
        (p, dir, c)
    };
    // Tree steps walked down to `a` and to `b`, deepest first.
    let (mut x, mut y) = (a, b);
    let (mut to_a, mut to_b) = (Vec::new(), Vec::new());
    while depth[x.index()] > depth[y.index()] {
        to_a.push(tree_step(x));
        x = to_a.last().expect("just pushed").0;
    }
    while depth[y.index()] > depth[x.index()] {
        to_b.push(tree_step(y));
        y = to_b.last().expect("just pushed").0;
    }
    while x != y {
        to_a.push(tree_step(x));
        x = to_a.last().expect("just pushed").0;
        to_b.push(tree_step(y));
        y = to_b.last().expect("just pushed").0;
    }
    let mut raw: Vec<(CellId, Dir, CellId)> = to_a.into_iter().rev().collect();
    raw.push((a, d, b));
    // Back up the tree from `b`: each tree step taken in reverse, through
    // the direction that returns along the same glued side.
    for (p, dir, c) in to_b {
        let back = board
            .step(p, dir)
            .map(|s| s.transport.apply(dir).opposite())
            .expect("a tree step exists");
        raw.push((c, back, p));
    }
    let parity = |c: CellId| {
        let sq = board.square(c);
        (sq.x as usize + sq.y as usize) % 2
    };
    OddCycle {
        steps: raw
            .into_iter()
            .map(|(from, dir, to)| CycleStep {
                from,
                dir,
                to,
                parity_kept: parity(from) == parity(to),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::name_surface;

    /// Every arm of the classification, including the shapes no shipped
    /// board has (more crosscaps, or boundary on a non-orientable surface),
    /// which an edited board can reach.
    #[test]
    fn surfaces_are_named_by_euler_characteristic_orientability_and_boundary() {
        let check = |euler, orientable, boundary, expect: &str| {
            assert_eq!(
                name_surface(euler, orientable, boundary),
                expect,
                "χ={euler}, orientable={orientable}, b={boundary}"
            );
        };
        check(2, true, 0, "sphere");
        check(1, true, 1, "disc");
        check(0, true, 2, "annulus");
        check(0, true, 0, "torus");
        check(-2, true, 0, "orientable genus 2");
        check(-3, true, 1, "orientable genus 2 with 1 boundary components");
        check(1, true, 0, "unclassified");
        check(3, true, 0, "unclassified");
        check(1, false, 0, "projective plane");
        check(0, false, 1, "Möbius band");
        check(0, false, 0, "Klein bottle");
        check(-1, false, 0, "non-orientable genus 3");
        check(
            -1,
            false,
            1,
            "non-orientable genus 2 with 1 boundary components",
        );
        check(2, false, 0, "unclassified");
        check(1, false, 1, "unclassified");
    }
}
