"""What SudokuPad's drawing elements mean: points to cells, arrows, shapes and signs.

SudokuPad keeps no rule kinds, only drawings: lines and arrows through way points, and shapes
(`overlays`, `underlays`) with a centre, a size, colours and text, in grid units (cell r, c
spans r..r+1, c..c+1). This module reads them the way SudokuPad and the tools that write for it
draw each kind (SudokuPad's own f-puzzles converter is the reference):
- a point is in a cell when it lies well inside it (a line or arrow is drawn from a little
  way out of its first cell's centre); a straight run between two way points passes every
  cell on the way;
- an arrow: its first cell is in the bulb, a circle (one cell) or a rounded box or a thick
  line over several cells (a pill); the rest of its path is the shaft;
- a short arrow just outside the grid pointing along a diagonal, with a number there, is a
  little killer clue;
- a filled grey circle inside a cell is an odd cell, a filled grey square an even cell;
- a thin chevron (three points) by an edge, or a `<`, `>`, `^`, `v` sign on it, is an
  inequality: the sign points at the smaller cell.
It does not name lines (the reader asks the user, or the rules text, for each colour).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any, Iterable

from ..errors import BadInput

Point = tuple[float, float]
RC = tuple[int, int]

SLACK = 0.43          # how far from a cell's centre (each axis) a way point may lie in it
SIGNS = {"<": (0, -1), ">": (0, 1), "^": (-1, 0), "v": (1, 0), "∧": (-1, 0), "∨": (1, 0),
         "˄": (-1, 0), "˅": (1, 0)}         # the side of the smaller cell
_DIAGONALS = {(-1, -1): "UL", (-1, 1): "UR", (1, -1): "DL", (1, 1): "DR"}


def number(x: Any) -> float | None:
    """Return a JSON number as a float, None for anything else."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float(x)


def point(p: Any) -> Point | None:
    """Return a way point or centre [y, x] as a pair of floats, None when it is not one."""
    if isinstance(p, list) and len(p) == 2:
        y, x = number(p[0]), number(p[1])
        if y is not None and x is not None:
            return y, x
    return None


def rc_name(rc: RC) -> str:
    return f"r{rc[0] + 1}c{rc[1] + 1}"


def cell_at(p: Point, n: int, outside: bool = False) -> RC | None:
    """Return the cell a point lies well inside (the ring of cells around the grid too when
    `outside`), None when it is near an edge or corner or off the grid."""
    r, c = math.floor(p[0]), math.floor(p[1])
    if abs(p[0] - r - 0.5) > SLACK or abs(p[1] - c - 0.5) > SLACK:
        return None
    low, high = (-1, n) if outside else (0, n - 1)
    return (r, c) if low <= r <= high and low <= c <= high else None


def path_cells(points: list[Point | None], n: int) -> list[RC] | None:
    """Return the cells a path of way points runs through, in order (a way point's cell
    once), None when a point is in no cell or a run between two points is not straight along
    a row, a column or a diagonal."""
    out: list[RC] = []
    for p in points:
        cell = cell_at(p, n) if p is not None else None
        if cell is None:
            return None
        if out and cell != out[-1]:
            (r1, c1), (r2, c2) = out[-1], cell
            dr, dc = r2 - r1, c2 - c1
            if dr and dc and abs(dr) != abs(dc):
                return None
            steps = max(abs(dr), abs(dc))
            out += [(r1 + dr * k // steps, c1 + dc * k // steps) for k in range(1, steps)]
        if not out or cell != out[-1]:
            out.append(cell)
    return out


def diagonal(points: list[Point | None], n: int) -> list[str]:
    """Return the kind a line drawn corner to corner shows: the global kind whose drawing is
    that one diagonal (from the top left the main one, from the top right the anti-diagonal),
    none for any other line."""
    if len(points) < 2 or points[0] is None or points[-1] is None:
        return []
    ends = {tuple(round(v, 2) for v in points[0]), tuple(round(v, 2) for v in points[-1])}
    if ends == {(0.0, 0.0), (float(n), float(n))}:
        cells = tuple(i * n + i for i in range(n))
    elif ends == {(0.0, float(n)), (float(n), 0.0)}:
        cells = tuple(i * n + n - 1 - i for i in range(n))
    else:
        return []
    return [kind for kind, drawn in _diagonal_kinds(n).items() if drawn == cells][:1]


@lru_cache(maxsize=32)
def _diagonal_kinds(n: int) -> dict[str, tuple[int, ...]]:
    """Return the global kinds whose whole drawing on an n x n grid is one diagonal line, with
    its cells."""
    from ..model.geometry import Geometry
    from ..model.rules import ShapeKind
    from ..rules.registry import kinds
    geometry, out = Geometry(n, 0, 0, regions=()), {}      # rows and columns only: any size
    for kind, cls in kinds().items():
        if cls.is_global:
            try:
                drawn = cls().shapes(geometry)
            except BadInput:                # a kind this grid cannot hold draws nothing here
                continue
            if len(drawn) == 1 and drawn[0].kind is ShapeKind.DIAGONAL:
                out[kind] = drawn[0].cells
    return out


def is_grey(text: str | None) -> bool:
    """Return whether a colour `#RRGGBB` is a grey, neither white nor black."""
    if not text:
        return False
    r, g, b = (int(text[i:i + 2], 16) for i in (1, 3, 5))
    return max(r, g, b) - min(r, g, b) <= 24 and 40 <= min(r, g, b) and max(r, g, b) <= 235


# ---------------------------------------------------------------- shapes

class Shape:
    """One overlay or underlay, with what the reader needs of it."""

    def __init__(self, raw: dict[str, Any], layer: str, colour):
        self.layer = layer
        self.centre = point(raw.get("center"))
        self.width = number(raw.get("width")) or 0.0
        self.height = number(raw.get("height")) or 0.0
        self.text = str(raw.get("text", "")).strip()
        self.background = colour(raw.get("backgroundColor"))
        self.border = colour(raw.get("borderColor"))
        self.rounded = bool(raw.get("rounded"))
        self.used = ""            # what it was read as, when it is part of another element

    @property
    def where(self) -> str:
        y, x = self.centre or (0.0, 0.0)
        return f"({y:g}, {x:g})"

    def covers(self, n: int) -> list[RC]:
        """Return the cells whose centres the shape covers."""
        if self.centre is None:
            return []
        y, x = self.centre
        h, w = self.height / 2 + 0.01, self.width / 2 + 0.01
        return [(r, c) for r in range(max(0, math.floor(y - h)), min(n, math.ceil(y + h)))
                for c in range(max(0, math.floor(x - w)), min(n, math.ceil(x + w)))
                if abs(r + 0.5 - y) <= h and abs(c + 0.5 - x) <= w]


def shapes_of(data: dict[str, Any], colour) -> list[Shape]:
    """Return the overlays and underlays of a puzzle (those with a centre)."""
    out = []
    for layer in ("underlays", "overlays"):
        for raw in data.get(layer) or []:
            if isinstance(raw, dict):
                out.append(Shape(raw, layer, colour))
    return out


def cell_shape(shape: Shape, n: int) -> tuple[str, str] | None:
    """Return what a filled grey shape inside one cell is ("circle" or "square") and its
    cell, or None when it is no such shape."""
    if shape.centre is None or shape.text or not is_grey(shape.background):
        return None
    cell = cell_at(shape.centre, n)
    if cell is None or abs(shape.centre[0] - cell[0] - 0.5) > 0.05 \
            or abs(shape.centre[1] - cell[1] - 0.5) > 0.05:
        return None
    if not (0.4 <= shape.width <= 0.9 and 0.4 <= shape.height <= 0.9):
        return None
    return "circle" if shape.rounded else "square", rc_name(cell)


def sign_rule(shape: Shape, n: int) -> dict[str, Any] | None:
    """Return the inequality an `<`, `>`, `^` or `v` on an edge stands for."""
    step = SIGNS.get(shape.text)
    if step is None or shape.centre is None:
        return None
    return _edge_sign(shape.centre, step, n)


def chevron_rule(points: list[Point | None], n: int) -> dict[str, Any] | None:
    """Return the inequality a thin three-point chevron by an edge stands for (its tip
    points at the smaller cell)."""
    if len(points) != 3 or None in points:
        return None
    (y0, x0), (y1, x1), (y2, x2) = points          # type: ignore[misc]
    my, mx = (y0 + y2) / 2, (x0 + x2) / 2
    dy, dx = y1 - my, x1 - mx
    axis = 0 if abs(dy) > abs(dx) else 1
    along, across = (dy, dx) if axis == 0 else (dx, dy)
    spread_along = abs(y0 - y2) if axis == 0 else abs(x0 - x2)
    spread_across = abs(x0 - x2) if axis == 0 else abs(y0 - y2)
    if not (0.02 <= abs(along) <= 0.3 and abs(across) < 0.03 and spread_along < 0.03
            and 0.05 <= spread_across <= 0.6):
        return None
    centre = ((my + y1) / 2, (mx + x1) / 2)
    step = (1 if along > 0 else -1, 0) if axis == 0 else (0, 1 if along > 0 else -1)
    return _edge_sign(centre, step, n)


def _edge_sign(centre: Point, step: RC, n: int) -> dict[str, Any] | None:
    """Return the greater-than rule of a sign near the edge a step from `centre` crosses,
    the smaller cell on the step's side."""
    axis = 0 if step[0] else 1
    edge = round(centre[axis])
    other = math.floor(centre[1 - axis])
    if abs(centre[axis] - edge) > 0.25 or not 1 <= edge <= n - 1 or not 0 <= other < n:
        return None
    low = (edge - 1, other) if axis == 0 else (other, edge - 1)
    high = (edge, other) if axis == 0 else (other, edge)
    smaller, larger = (high, low) if step[axis] > 0 else (low, high)
    return {"kind": "greater-than", "cells": [rc_name(larger), rc_name(smaller)]}


# ---------------------------------------------------------------- arrows

def arrow_rules(arrows: Any, shapes: list[Shape], pills: list[tuple[list[RC], Any]],
                n: int) -> list[dict[str, Any]]:
    """Return the rules of a puzzle's arrows: sum arrows from a bulb, little killer clues
    outside the grid; bad input naming an arrow that is neither."""
    rules: list[dict[str, Any]] = []
    for k, arrow in enumerate(arrows or []):
        if not isinstance(arrow, dict):
            continue
        points = [point(p) for p in arrow.get("wayPoints") or []]
        where = f"SudokuPad arrow {k + 1}"
        if len(points) < 2 or None in points:
            raise BadInput(f"{where} has no path")
        start = points[0]
        assert start is not None
        where += f" from ({start[0]:g}, {start[1]:g})"
        cells = path_cells(points, n)
        if cells is None:
            clue = _little_killer(points, shapes, n)           # type: ignore[arg-type]
            if clue is None:
                raise BadInput(f"{where} does not run through cells, and is no little killer "
                               f"clue (a short diagonal arrow outside the grid by a number)")
            if clue:
                rules.append(clue)
            continue
        if len(cells) < 2:
            raise BadInput(f"{where} stays in one cell")
        bulb = _bulb(cells[0], shapes, pills, n)
        shaft = cells[next(i for i, c in enumerate(cells) if c not in bulb):] \
            if any(c not in bulb for c in cells) else []
        if not shaft or any(c in bulb for c in shaft):
            raise BadInput(f"{where} has no shaft outside its bulb")
        if len(set(shaft)) != len(shaft):
            twice = next(c for c in shaft if shaft.count(c) > 1)
            raise BadInput(f"{where} passes {rc_name(twice)} twice: an arrow counts that cell "
                           f"once per visit, which polydoku cannot say")
        if len(bulb) > 3:
            raise BadInput(f"{where} starts in a bulb of {len(bulb)} cells (at most 3)")
        rules.append({"kind": "arrow", "circle": [rc_name(c) for c in sorted(bulb)],
                      "cells": [rc_name(c) for c in shaft]})
    return rules


def _bulb(first: RC, shapes: list[Shape], pills: list[tuple[list[RC], Any]],
          n: int) -> list[RC]:
    """Return the cells of the bulb an arrow starts in: a rounded shape or a thick line over
    its first cell (marked used), or that cell alone."""
    for cells, mark in pills:
        if first in cells:
            mark(f"arrow bulb at {rc_name(first)}")
            return cells
    best: list[RC] = []
    for shape in shapes:
        if not shape.rounded or shape.text or shape.centre is None:
            continue
        covered = shape.covers(n)
        if first in covered and len(covered) >= len(best) and len(covered) <= 3 \
                and min(shape.width, shape.height) < 1:
            best = covered
            shape.used = f"arrow bulb at {rc_name(first)}"
    return best or [first]


def _little_killer(points: list[Point], shapes: list[Shape], n: int) -> dict[str, Any] | None:
    """Return the little killer clue of a short diagonal arrow in a cell outside the grid
    ({} when its number is missing), None when the arrow is not one."""
    r, c = math.floor(points[0][0]), math.floor(points[0][1])
    if not (-1 <= r <= n and -1 <= c <= n) or (0 <= r < n and 0 <= c < n):
        return None
    if any(abs(p[0] - r - 0.5) > 0.5 or abs(p[1] - c - 0.5) > 0.5 for p in points):
        return None                                            # it leaves its cell
    (y0, x0), (y1, x1) = points[0], points[-1]
    step = (1 if y1 > y0 else -1, 1 if x1 > x0 else -1)
    if abs(abs(y1 - y0) - abs(x1 - x0)) > 0.05 or abs(y1 - y0) < 0.05:
        return None
    first = (r + step[0], c + step[1])
    if not (0 <= first[0] < n and 0 <= first[1] < n):
        return None
    for shape in shapes:
        if shape.centre and shape.text and (math.floor(shape.centre[0]),
                                            math.floor(shape.centre[1])) == (r, c):
            shape.used = f"little killer clue at {rc_name((r, c))}"
            if not re.fullmatch(r"\d{1,3}", shape.text):
                return {}
            return {"kind": "little-killer", "cell": rc_name(first),
                    "direction": _DIAGONALS[step], "sum": int(shape.text)}
    return {}


def thick_lines(lines: Iterable[Any], n: int) -> list[tuple[list[RC], dict[str, Any]]]:
    """Return the lines thick enough to be a pill bulb (over 2 to 3 cells), with the line."""
    out = []
    for line in lines:
        if not isinstance(line, dict):
            continue
        thickness = number(line.get("thickness")) or 0
        if thickness < 30:                 # thermometers are drawn about 20 thick
            continue
        cells = path_cells([point(p) for p in line.get("wayPoints") or []], n)
        if cells and 2 <= len(set(cells)) <= 3:
            out.append((cells, line))
    return out
