"""seams_example_engine: a small example engine for the seams conformance protocol.

It answers the geometry questions of the corpus from the board files of a
spec folder (its boards/, read with tomllib) and says "unsupported" to
everything else. The protocol itself (reading requests, hello, ids, error
and unsupported replies) is the kit's, seams_engine; this module is the
geometry, and the few lines at the end that hand it to the kit.

Installed with the kit (pip install ./tools/python), it runs as a module
of the Python it is installed in and reads the spec folder it is given,
here a checkout's:

    seams conform --engine "python3 -m seams_example_engine --spec spec"

In a checkout, tools/example-engine/engine.py runs it on the checkout's
spec/ with nothing installed:

    seams conform --engine "python3 tools/example-engine/engine.py"

The spec folder is the one of --spec DIR, else of the environment variable
SEAMS_SPEC, else the launcher's.
"""

import argparse
import os
import tomllib

import seams_engine as se

# Directions in the order seams uses, with their (dx, dy) vectors.
DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
VEC = {"N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
       "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1)}
FROM_VEC = {v: k for k, v in VEC.items()}
CARDINALS = ["N", "E", "S", "W"]
DIAGONALS = ["NE", "SE", "SW", "NW"]
IDENTITY = (False, False)  # (flip_x, flip_y)
TRANSPORT_NAMES = {(False, False): "identity", (False, True): "flip-v",
                   (True, False): "flip-h", (True, True): "half-turn"}
TRANSPORT_BY_NAME = {v: k for k, v in TRANSPORT_NAMES.items()}


def apply(t, d):
    dx, dy = VEC[d]
    return FROM_VEC[(-dx if t[0] else dx, -dy if t[1] else dy)]


def then(a, b):
    return (a[0] != b[0], a[1] != b[1])


def opposite(d):
    dx, dy = VEC[d]
    return FROM_VEC[(-dx, -dy)]


class Board:
    """A board file: charts, side gluings and explicit transitions."""

    def __init__(self, data):
        self.name = data["name"]
        self.w = data["width"]
        self.h = data["height"]
        self.charts = data.get("charts") or [""]
        sides = data["sides"]
        self.ew = sides["east-west"]
        self.ns = sides["north-south"]
        n = len(self.charts) * self.w * self.h
        self.cardinal = [dict() for _ in range(n)]
        for c in range(n):
            for d in CARDINALS:
                self.cardinal[c][d] = self.outer_step(c, d)
        for key, d in (("north", "N"), ("east", "E")):
            for t in data.get(key, []):
                src = self.parse_range(t["from"])
                dst = self.parse_range(t["to"])
                tr = TRANSPORT_BY_NAME[t.get("transport", "identity")]
                for x, y in zip(src, dst):
                    arrival = opposite(apply(tr, d))
                    self.cardinal[x][d] = (y, tr)
                    self.cardinal[y][arrival] = (x, tr)

    def cells(self):
        return range(len(self.cardinal))

    def cell(self, chart, x, y):
        return chart * self.w * self.h + y * self.w + x

    def square(self, c):
        return (c // (self.w * self.h), c % self.w, (c // self.w) % self.h)

    def name_of(self, c):
        chart, x, y = self.square(c)
        local = f"{chr(ord('a') + x)}{y + 1}"
        return local if len(self.charts) == 1 else f"{self.charts[chart]}:{local}"

    def parse_cell(self, text):
        chart = 0
        local = text
        if ":" in text:
            name, local = text.split(":", 1)
            if len(self.charts) == 1 or name not in self.charts:
                raise ValueError(f"bad coordinate '{text}' on board {self.name}")
            chart = self.charts.index(name)
        elif len(self.charts) > 1:
            raise ValueError(f"bad coordinate '{text}' on board {self.name}: write the chart")
        if len(local) < 2 or not local[0].islower() or not local[1:].isdigit():
            raise ValueError(f"bad coordinate '{text}' on board {self.name}")
        x, y = ord(local[0]) - ord("a"), int(local[1:]) - 1
        if not (0 <= x < self.w and 0 <= y < self.h):
            raise ValueError(f"bad coordinate '{text}' on board {self.name}")
        return self.cell(chart, x, y)

    def parse_range(self, text):
        text = text.replace("–", "-")
        if "-" not in text:
            return [self.parse_cell(text.strip())]
        a, b = text.split("-", 1)
        start = self.parse_cell(a.strip())
        chart, sx, sy = self.square(start)
        b = b.strip()
        if ":" not in b and len(self.charts) > 1:
            b = f"{self.charts[chart]}:{b}"
        _, ex, ey = self.square(self.parse_cell(b))
        if sy == ey:
            step = 1 if ex >= sx else -1
            return [self.cell(chart, x, sy) for x in range(sx, ex + step, step)]
        step = 1 if ey >= sy else -1
        return [self.cell(chart, sx, y) for y in range(sy, ey + step, step)]

    def outer_step(self, c, d):
        chart, x, y = self.square(c)
        dx, dy = VEC[d]
        nx, ny = x + dx, y + dy
        if 0 <= nx < self.w and 0 <= ny < self.h:
            return (self.cell(chart, nx, ny), IDENTITY)
        if d in ("E", "W"):
            if self.ew == "boundary":
                return None
            if self.ew == "translate":
                return (self.cell(chart, nx % self.w, y), IDENTITY)
            return (self.cell(chart, nx % self.w, self.h - 1 - y), (False, True))
        if self.ns == "boundary":
            return None
        if self.ns == "translate":
            return (self.cell(chart, x, ny % self.h), IDENTITY)
        return (self.cell(chart, self.w - 1 - x, ny % self.h), (True, False))

    def step(self, c, d):
        return self.cardinal[c][d]


class Geometry:
    """Unit steps (two-order rule for diagonals) and knight words."""

    def __init__(self, board):
        self.b = board
        self.unit = []
        self.knight = []
        self.forbidden = []
        for c in board.cells():
            row = {}
            for d in DIRS:
                if d in CARDINALS:
                    row[d] = board.step(c, d)
                    continue
                h = "E" if VEC[d][0] > 0 else "W"
                v = "N" if VEC[d][1] > 0 else "S"
                hv, vh = self.walk(c, [h, v]), self.walk(c, [v, h])
                if hv is None and vh is None:
                    row[d] = None
                elif hv == vh:
                    row[d] = hv
                else:
                    row[d] = None
                    self.forbidden.append(f"{board.name_of(c)} {d}")
            self.unit.append(row)
            jumps = []
            for long in CARDINALS:
                for short in CARDINALS:
                    if VEC[long][0] * VEC[short][0] + VEC[long][1] * VEC[short][1] != 0:
                        continue
                    s = self.walk(c, [long, short, long])
                    if s is not None and s[0] != c:
                        jumps.append(s)
            self.knight.append(jumps)

    def walk(self, c, letters):
        here, t = c, IDENTITY
        for letter in letters:
            s = self.b.step(here, apply(t, letter))
            if s is None:
                return None
            here, t = s[0], then(t, s[1])
        return (here, t)

    def ray(self, start, d, occupied):
        out = []
        here, t = start, IDENTITY
        for _ in range(len(self.unit) * 8):
            s = self.unit[here][d]
            if s is None or s[0] == start:
                break
            t = then(t, s[1])
            d = apply(s[1], d)
            here = s[0]
            out.append((here, t))
            if here in occupied:
                break
        return out

    def reach(self, start, pattern, occupied):
        out = set()
        if pattern in ("orthogonal", "diagonal"):
            for d in (CARDINALS if pattern == "orthogonal" else DIAGONALS):
                out.update(self.ray(start, d, occupied))
        elif pattern == "knight":
            out.update(self.knight[start])
        elif pattern == "king":
            out.update(s for s in self.unit[start].values() if s is not None and s[0] != start)
        else:
            raise ValueError(f"unknown pattern '{pattern}'")
        return out

    def north_orbit(self, start):
        first, d = start, "S"
        while True:
            s = self.b.step(first, d)
            if s is None:
                break
            if s[0] == start:
                first, d = start, "S"
                break
            first, d = s[0], apply(s[1], d)
        cells = [first]
        d = "N" if d == "S" else "S"
        here = first
        while True:
            s = self.b.step(here, d)
            if s is None:
                return cells, False
            if s[0] == first:
                return cells, True
            here, d = s[0], apply(s[1], d)
            cells.append(here)


def find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def union(parent, a, b):
    ra, rb = find(parent, a), find(parent, b)
    if ra != rb:
        parent[ra] = rb


CORNERS = [(-1, -1), (1, -1), (1, 1), (-1, 1)]


def invariants(b):
    """V, E, F, links, boundary, orientability, cones, colouring, surface."""
    faces = len(b.cardinal)
    parent = list(range(faces * 4))
    degree = [0] * (faces * 4)
    glued, boundary_sides = 0, []
    for c in b.cells():
        for d in CARDINALS:
            s = b.step(c, d)
            if s is None:
                boundary_sides.append((c, d))
                continue
            glued += 1
            n = VEC[d]
            perp = (n[1], n[0])
            for sign in (1, -1):
                e = (perp[0] * sign, perp[1] * sign)
                here = (n[0] + e[0], n[1] + e[1])
                tn = (-n[0] if s[1][0] else n[0], -n[1] if s[1][1] else n[1])
                te = (-e[0] if s[1][0] else e[0], -e[1] if s[1][1] else e[1])
                there = (-tn[0] + te[0], -tn[1] + te[1])
                k, k2 = CORNERS.index(here), CORNERS.index(there)
                union(parent, c * 4 + k, s[0] * 4 + k2)
                degree[c * 4 + k] += 1
    edges = glued // 2 + len(boundary_sides)
    classes = {}
    for x in range(faces * 4):
        classes.setdefault(find(parent, x), []).append(x)
    circles = intervals = cones = 0
    corners = {}
    for members in classes.values():
        if sum(2 - degree[m] for m in members) == 0:
            circles += 1
            corners[str(len(members))] = corners.get(str(len(members)), 0) + 1
            cones += len(members) != 4
        else:
            intervals += 1
    bparent = list(range(len(boundary_sides)))
    first_at = {}
    for i, (c, d) in enumerate(boundary_sides):
        n = VEC[d]
        perp = (n[1], n[0])
        for sign in (1, -1):
            k = CORNERS.index((n[0] + perp[0] * sign, n[1] + perp[1] * sign))
            v = find(parent, c * 4 + k)
            if v in first_at:
                union(bparent, i, first_at[v])
            else:
                first_at[v] = i
    boundary_components = len({find(bparent, i) for i in range(len(boundary_sides))})
    sign, orientable, components = [None] * faces, True, 0
    colour, colourable = [None] * faces, True
    for start in b.cells():
        if sign[start] is not None:
            continue
        components += 1
        sign[start], colour[start] = True, False
        stack = [start]
        while stack:
            c = stack.pop()
            for d in CARDINALS:
                s = b.step(c, d)
                if s is None:
                    continue
                want = sign[c] == (s[1][0] == s[1][1])
                if sign[s[0]] is None:
                    sign[s[0]], colour[s[0]] = want, not colour[c]
                    stack.append(s[0])
                else:
                    orientable &= sign[s[0]] == want
                    colourable &= colour[s[0]] != colour[c]
    vertices = len(classes)
    euler = vertices - edges + faces
    if components == 1 and circles + intervals == vertices:
        surface = name_surface(euler, orientable, boundary_components)
    else:
        surface = f"{components} components"
    return {"faces": faces, "edges": edges, "vertices": vertices, "euler": euler,
            "orientable": orientable, "boundary_components": boundary_components,
            "boundary_edges": len(boundary_sides), "link_circles": circles,
            "link_intervals": intervals, "circle_corners": corners, "cone_points": cones,
            "alternating_colouring": colourable, "surface": surface}


def name_surface(euler, orientable, boundary):
    if orientable:
        twice = 2 - euler - boundary
        if twice < 0 or twice % 2:
            return "unclassified"
        g = twice // 2
        named = {(0, 0): "sphere", (0, 1): "disc", (0, 2): "annulus", (1, 0): "torus"}
        if (g, boundary) in named:
            return named[(g, boundary)]
        if boundary == 0:
            return f"orientable genus {g}"
        return f"orientable genus {g} with {boundary} boundary components"
    k = 2 - euler - boundary
    named = {(1, 0): "projective plane", (1, 1): "Möbius band", (2, 0): "Klein bottle"}
    if (k, boundary) in named:
        return named[(k, boundary)]
    if k > 0:
        if boundary == 0:
            return f"non-orientable genus {k}"
        return f"non-orientable genus {k} with {boundary} boundary components"
    return "unclassified"


def load_boards(spec):
    boards = {}
    folder = os.path.join(spec, "boards")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".toml"):
            with open(os.path.join(folder, name), "rb") as f:
                data = tomllib.load(f)
            # This small engine knows glued charts only; other shapes (the
            # tetrahedron) are left out, so their questions are unsupported.
            if "shape" in data:
                continue
            board = Board(data)
            boards[board.name] = board
    return boards


def arrival(b, cell, t, facing):
    out = {"cell": b.name_of(cell), "transport": TRANSPORT_NAMES[t]}
    if facing is not None:
        out["facing"] = ({"up": "down", "down": "up"}[facing] if t[1] else facing)
    return out


def answer(g, q):
    """The answer to one geometry question on the board of `g`, shaped like
    the case's expect."""
    b = g.b
    kind = q["kind"]
    if kind == "invariants":
        return invariants(b)
    if kind == "walk":
        here, t = b.parse_cell(q["from"]), IDENTITY
        for letter in q["steps"]:
            s = g.unit[here][apply(t, letter.upper())]
            if s is None:
                return None
            here, t = s[0], then(t, s[1])
        return arrival(b, here, t, q.get("facing"))
    if kind == "reach":
        occupied = {b.parse_cell(c) for c in q.get("occupied", [])}
        got = g.reach(b.parse_cell(q["from"]), q["pattern"], occupied)
        return [arrival(b, c, t, q.get("facing")) for c, t in sorted(got)]
    if kind == "forbidden-diagonals":
        return g.forbidden
    if kind == "bishop-reach":
        hist = {}
        for c in b.cells():
            n = str(len({cell for cell, _ in g.reach(c, "diagonal", set())}))
            hist[n] = hist.get(n, 0) + 1
        return hist
    if kind == "diagonal-components":
        parent = list(b.cells())
        for c in b.cells():
            for d in DIAGONALS:
                if g.unit[c][d] is not None:
                    union(parent, c, g.unit[c][d][0])
        sizes = {}
        for c in b.cells():
            r = find(parent, c)
            sizes[r] = sizes.get(r, 0) + 1
        return sorted(sizes.values(), reverse=True)
    if kind == "file-orbits":
        seen, out = set(), []
        for c in b.cells():
            if c in seen:
                continue
            cells, closed = g.north_orbit(c)
            seen.update(cells)
            out.append({
                "first": b.name_of(cells[0]), "cells": len(cells), "closed": closed,
                "files": "".join(sorted({chr(ord("a") + b.square(x)[1]) for x in cells})),
                "charts": sorted({b.charts[b.square(x)[0]] for x in cells}),
            })
        return out
    raise se.Unsupported(kind)


class ExampleEngine(se.Engine):
    """Geometry questions about the glued-chart boards; the kit answers
    hello, says unsupported to the rules commands (no variants, no rules
    hooks) and to boards not listed, and turns a bad question (a KeyError
    or ValueError in answer()) into an error reply."""

    name = "example-engine"
    version = "0.1"
    capabilities = ["geometry"]

    def __init__(self, boards):
        self.by_name = boards
        self.boards = sorted(boards)
        self.geometries = {}

    def geometry(self, board, question):
        if board not in self.geometries:
            self.geometries[board] = Geometry(self.by_name[board])
        return {"answer": answer(self.geometries[board], question)}


def engine_from_args(argv=None, default_spec=None):
    """The example engine on the spec folder of --spec, SEAMS_SPEC or
    `default_spec` (a launcher's), in that order; a usage error (exit 2)
    without one."""
    parser = argparse.ArgumentParser(
        prog="python3 -m seams_example_engine",
        description="The seams example engine: geometry questions, answered from "
                    "the board files of a spec folder, over the protocol on stdin and stdout.")
    parser.add_argument("--spec", metavar="DIR",
                        help="the spec folder whose boards/ it reads (default: $SEAMS_SPEC)")
    args = parser.parse_args(argv)
    spec = args.spec or os.environ.get("SEAMS_SPEC") or default_spec
    if spec is None:
        # An installed copy lives far from any checkout, so it guesses none.
        parser.error("no spec folder: give --spec DIR (a seams checkout's spec/) or set SEAMS_SPEC")
    if not os.path.isdir(os.path.join(spec, "boards")):
        parser.error(f"{spec!r} is not a spec folder: it has no boards/")
    return ExampleEngine(load_boards(spec))


def main(argv=None, default_spec=None):
    """Serves the example engine (engine_from_args) on stdin and stdout."""
    se.serve(engine_from_args(argv, default_spec))


if __name__ == "__main__":
    main()
