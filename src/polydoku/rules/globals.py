"""Global rules (no parameters): anti-knight, anti-king, non-consecutive, diagonals, disjoint
groups and windoku. Each says which cells differ; none is drawn but the diagonals and the
windows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Iterator

from ..errors import BadInput
from ..model.geometry import Geometry, cell_name
from ..model.rules import Grid, Shape, ShapeKind
from .base import GlobalRule, iss_values_from_one


@lru_cache(maxsize=64)
def move_pairs(offsets: tuple[tuple[int, int], ...], geometry: Geometry) -> tuple[tuple[int, int], ...]:
    """Return the cell-index pairs (a < b) a move of `offsets` apart (cached: verify asks per grid)."""
    out = set()
    for r in range(geometry.size):
        for c in range(geometry.width):
            for dr, dc in offsets:
                if geometry.in_grid(r + dr, c + dc):
                    a, b = geometry.index((r, c)), geometry.index((r + dr, c + dc))
                    out.add((min(a, b), max(a, b)))
    return tuple(sorted(out))


def repeats(grid: Grid, g: Geometry, unit, what: str) -> Iterator[str]:
    """Yield a sentence for each value seen twice in a group of cell indices."""
    seen: dict[int, int] = {}
    for i in unit:
        v = grid[i]
        if not v:
            continue
        if v in seen:
            yield (f"{cell_name(g.cell(seen[v]))} and {cell_name(g.cell(i))} both hold "
                   f"{g.real(v)} ({what})")
        else:
            seen[v] = i


_KNIGHT = tuple((dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc))
_KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))


@dataclass(frozen=True)
class DistinctPairsRule(GlobalRule):
    """Cells a fixed set of moves apart hold different values."""

    offsets: ClassVar[tuple[tuple[int, int], ...]] = ()

    def pairs(self, geometry: Geometry) -> tuple[tuple[int, int], ...]:
        """Return the cell-index pairs (a < b) that must hold different values."""
        return move_pairs(self.offsets, geometry)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for a, b in self.pairs(geometry):
            if grid[a] and grid[a] == grid[b]:
                yield (f"{cell_name(geometry.cell(a))} and {cell_name(geometry.cell(b))} both "
                       f"hold {geometry.real(grid[a])} ({self.kind})")

    def lower(self, b) -> None:
        for x, y in self.pairs(b.geometry):
            b.all_different((x, y), self.kind)


@dataclass(frozen=True)
class AntiKnight(DistinctPairsRule):
    """Two cells a chess knight's move apart differ."""

    kind: ClassVar[str] = "anti-knight"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("antiknight",)
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"anti-?knight|knight'?s move|chess knight",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "AntiKnight"
    description: ClassVar[str] = "two cells a chess knight's move apart differ"
    offsets: ClassVar[tuple[tuple[int, int], ...]] = _KNIGHT
    named_by_cells: ClassVar[bool] = True
    aliases: ClassVar[tuple[str, ...]] = ("antiknight",)


@dataclass(frozen=True)
class AntiKing(DistinctPairsRule):
    """Two cells a chess king's move apart differ."""

    kind: ClassVar[str] = "anti-king"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("antiking",)
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"anti-?king|king'?s move|touch(?:ing)? diagonally|diagonally adjacent cells (?:can|may)"
        r"not",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "AntiKing"
    description: ClassVar[str] = "two cells a chess king's move apart differ"
    offsets: ClassVar[tuple[tuple[int, int], ...]] = _KING
    named_by_cells: ClassVar[bool] = True
    aliases: ClassVar[tuple[str, ...]] = ("antiking",)


@dataclass(frozen=True)
class NonConsecutive(GlobalRule):
    """Orthogonally adjacent cells do not differ by exactly 1."""

    kind: ClassVar[str] = "non-consecutive"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("nonconsecutive",)
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"non-?consecutive|(?:orthogonally )?adjacent cells (?:can|may)not (?:contain|be) "
        r"consecutive",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "AntiConsecutive"
    description: ClassVar[str] = ("orthogonally adjacent cells do not differ by exactly 1 "
                                  "(but where a white kropki dot joins them)")
    aliases: ClassVar[tuple[str, ...]] = ("nonconsecutive",)

    def pairs(self, geometry: Geometry, rules=()) -> list[tuple[int, int]]:
        """Return the orthogonally adjacent cell-index pairs (a < b), but those a white
        kropki dot joins: a dot says they are consecutive, and a puzzle with both rules
        reads the dots as the exceptions (as f-puzzles does)."""
        dotted = {frozenset(geometry.index(c) for c in r.cells) for r in rules
                  if getattr(r, "kind", "") == "kropki-white"}
        return [(a, b) for a, b in move_pairs(((0, 1), (1, 0)), geometry)
                if frozenset((a, b)) not in dotted]

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for a, b in self.pairs(geometry, rules):
            if grid[a] and grid[b] and abs(grid[a] - grid[b]) == 1:
                yield (f"{cell_name(geometry.cell(a))}={geometry.real(grid[a])} and "
                       f"{cell_name(geometry.cell(b))}={geometry.real(grid[b])} are consecutive "
                       f"({self.kind})")

    def lower(self, b) -> None:
        for x, y in self.pairs(b.geometry, b.rules):
            b.abs_diff_not(x, y, 1)


def _main(n: int) -> tuple[int, ...]:
    return tuple(i * n + i for i in range(n))


def _anti(n: int) -> tuple[int, ...]:
    return tuple(i * n + n - 1 - i for i in range(n))


# what a sentence stating a diagonal's rule says: the diagonal, and that its values differ
_ON_A_DIAGONAL = ((r"diagonal", r"repeat|contain|1-9|1 to 9|each digit"),)


@dataclass(frozen=True)
class Diagonal(GlobalRule):
    """Each main diagonal holds every value once (X-sudoku)."""

    kind: ClassVar[str] = "diagonal"
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "Diagonal"
    description: ClassVar[str] = "each main diagonal holds every value once"
    aliases: ClassVar[tuple[str, ...]] = ("x", "diagonals", "x-sudoku")
    which: ClassVar[tuple[str, ...]] = ("main", "anti")

    def units(self, geometry: Geometry) -> tuple[tuple[int, ...], ...]:
        """Return the diagonals this rule covers, as tuples of cell indices."""
        n = geometry.size
        return tuple(_main(n) if w == "main" else _anti(n) for w in self.which)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for w, unit in zip(self.which, self.units(geometry)):
            yield from repeats(grid, geometry, unit, f"{w} diagonal")

    def lower(self, b) -> None:
        for w, unit in zip(self.which, self.units(b.geometry)):
            b.all_different(unit, f"{w} diagonal", part=w)

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.DIAGONAL, unit, style=w) for w, unit in zip(self.which, self.units(geometry))]

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> Any:
        """`Diagonal~1` is the anti-diagonal (bottom left to top right), `Diagonal~-1` the main."""
        if args not in (["1"], ["-1"]):
            raise BadInput("unexpected arguments")
        return DiagonalAnti.kind if args == ["1"] else DiagonalMain.kind

    def iss_items(self, n: int, cell) -> list[str]:
        return [f"Diagonal~{'-1' if w == 'main' else '1'}" for w in self.which]

    @classmethod
    def stated(cls, low: str, negated: bool, drawn: tuple[str, ...]) -> list[Any]:
        """A sentence on the diagonals' values ("values on the diagonals do not repeat") states
        each of them ("both", "the diagonals") or those the drawing shows; one diagonal
        rule of each (`diagonal-main`, `diagonal-anti`), none of `diagonal` itself."""
        if not cls.stated_phrases or not all(re.search(p, low) for p in cls.stated_phrases[0]) \
                or re.search(r"little killer|pointed|indicated by arrows|clue|along the pointed",
                             low):
            return []
        both = re.search(r"both|two|main diagonals|the diagonals", low) is not None
        return [cls.kind] if both or cls.kind in drawn else []

    def fpuzzles_entries(self, n: int, cell) -> dict[str, Any]:
        """f-puzzles' flags: `diagonal-` the main diagonal, `diagonal+` the anti-diagonal."""
        return {"diagonal-" if w == "main" else "diagonal+": True for w in self.which}


@dataclass(frozen=True)
class DiagonalMain(Diagonal):
    """The diagonal r1c1..rNcN holds every value once."""

    kind: ClassVar[str] = "diagonal-main"
    fpuzzles: ClassVar[tuple[str, ...]] = ("diagonal-",)
    description: ClassVar[str] = "the diagonal from r1c1 to rNcN holds every value once"
    aliases: ClassVar[tuple[str, ...]] = ("diagonal-", "negative-diagonal")
    which: ClassVar[tuple[str, ...]] = ("main",)
    stated_phrases: ClassVar[tuple[tuple[str, ...], ...]] = _ON_A_DIAGONAL


@dataclass(frozen=True)
class DiagonalAnti(Diagonal):
    """The diagonal rNc1..r1cN holds every value once."""

    kind: ClassVar[str] = "diagonal-anti"
    fpuzzles: ClassVar[tuple[str, ...]] = ("diagonal+",)
    description: ClassVar[str] = "the diagonal from rNc1 to r1cN holds every value once"
    aliases: ClassVar[tuple[str, ...]] = ("diagonal+", "positive-diagonal")
    which: ClassVar[tuple[str, ...]] = ("anti",)
    stated_phrases: ClassVar[tuple[tuple[str, ...], ...]] = _ON_A_DIAGONAL


def _need_boxes(g: Geometry, kind: str) -> None:
    if not g.is_rectangular:
        raise BadInput(f"rule {kind!r} needs rectangular boxes")


@dataclass(frozen=True)
class DisjointGroups(GlobalRule):
    """Cells in the same position of their boxes hold different values."""

    kind: ClassVar[str] = "disjoint-groups"
    fpuzzles: ClassVar[tuple[str, ...]] = ("disjointgroups",)
    phrases: ClassVar[tuple[str | tuple[str, int], ...]] = (
        r"disjoint (?:groups|sets|subsets|sudoku|rule)|same (?:relative )?position (?:in|within|"
        r"relative to) (?:its|their|each|the) (?:3x3 )?(?:box|region)",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "DisjointSets"
    description: ClassVar[str] = "cells in the same position of their boxes differ"
    aliases: ClassVar[tuple[str, ...]] = ("disjoint",)

    def units(self, g: Geometry) -> list[tuple[int, ...]]:
        """Return one group per position inside a box."""
        _need_boxes(g, self.kind)
        return [tuple(box[k] for box in g.boxes) for k in range(len(g.boxes[0]))]

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for k, unit in enumerate(self.units(geometry)):
            yield from repeats(grid, geometry, unit, f"disjoint group {k + 1}")

    def lower(self, b) -> None:
        for unit in self.units(b.geometry):
            b.all_different(unit)


@dataclass(frozen=True)
class Windoku(GlobalRule):
    """The windows (boxes shifted one cell in from the grid's edges) hold different values."""

    kind: ClassVar[str] = "windoku"
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "Windoku"
    drawn_colour: ClassVar[str] = "#9ecae1"
    description: ClassVar[str] = "each window (box-sized, one cell in from the edges) holds different values"
    aliases: ClassVar[tuple[str, ...]] = ("windows", "hyper")

    def units(self, g: Geometry) -> list[tuple[int, ...]]:
        """Return the windows as tuples of cell indices."""
        _need_boxes(g, self.kind)
        n, br, bc = g.size, g.box_rows, g.box_cols
        tops = range(1, n - br, br + 1)
        lefts = range(1, n - bc, bc + 1)
        return [tuple((t + r) * n + s + c for r in range(br) for c in range(bc))
                for t in tops for s in lefts]

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for k, unit in enumerate(self.units(geometry)):
            yield from repeats(grid, geometry, unit, f"window {k + 1}")

    def lower(self, b) -> None:
        for unit in self.units(b.geometry):
            b.all_different(unit)

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.SHADE, unit, style="window") for unit in self.units(geometry)]

    def iss_items_on(self, geometry: Geometry, cell) -> list[str]:
        if geometry.box_rows * geometry.box_cols != geometry.nvalues:
            # ISS cuts its windows as boxes of one cell per value: none on such a grid
            raise BadInput(f"ISS's windows hold every value; this grid's boxes hold "
                           f"{geometry.box_rows * geometry.box_cols} of {geometry.nvalues}")
        return super().iss_items_on(geometry, cell)

    def fpuzzles_entries(self, n: int, cell) -> dict[str, Any]:
        """f-puzzles has no windows: they are drawn as extra regions."""
        g = Geometry.of_size(n)
        return {"extraregion": [{"cells": [cell(g.cell(i)) for i in unit]}
                                for unit in self.units(g)]}


@lru_cache(maxsize=16)
def taxicab_pairs(geometry: Geometry) -> tuple[tuple[int, int, int], ...]:
    """Return (a, b, d): cell-index pairs a < b a taxicab distance d apart, d from 1 to the
    grid's highest value (V on a grid of values 1..V, more than a row's cells on a wider grid)."""
    most = geometry.real(geometry.nvalues)
    out = []
    for a in range(geometry.ncells):
        ra, ca = geometry.cell(a)
        for b in range(a + 1, geometry.ncells):
            rb, cb = geometry.cell(b)
            d = abs(ra - rb) + abs(ca - cb)
            if d <= most:
                out.append((a, b, d))
    return tuple(out)


@dataclass(frozen=True)
class AntiTaxicab(GlobalRule):
    """A value d is never a taxicab distance d (d steps along rows and columns) from a d."""

    kind: ClassVar[str] = "anti-taxicab"
    any_count: ClassVar[bool] = True
    any_shape: ClassVar[bool] = True
    iss: ClassVar[str] = "AntiTaxicab"
    description: ClassVar[str] = "two cells a taxicab distance d apart do not both hold d"
    aliases: ClassVar[tuple[str, ...]] = ("antitaxicab", "anti-taxi")
    # the distance is the value itself: on 0..8 a 0 is 0 steps from nothing but its own cell
    any_values: ClassVar[bool] = True

    def iss_items_on(self, geometry: Geometry, cell) -> list[str]:
        return iss_values_from_one(self, geometry, cell)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        off = geometry.offset
        for a, b, d in taxicab_pairs(geometry):
            if grid[a] == d - off and grid[b] == d - off and d - off >= 1:
                yield (f"{cell_name(geometry.cell(a))} and {cell_name(geometry.cell(b))} both "
                       f"hold {d}, {d} steps apart ({self.kind})")

    def lower(self, b) -> None:
        off = b.geometry.offset
        for x, y, d in taxicab_pairs(b.geometry):
            if d - off >= 1:                    # the value d's index
                b.nogood(x, d - off, y, d - off)


KINDS = (AntiKnight, AntiKing, NonConsecutive, Diagonal, DiagonalMain, DiagonalAnti,
         DisjointGroups, Windoku, AntiTaxicab)
