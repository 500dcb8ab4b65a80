"""Rules on single cells or groups of cells: extra regions, even and odd cells, minimum and
maximum cells, killer cages."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any, ClassVar, Iterator

from ..errors import BadInput
from ..model.geometry import Geometry, cell_name
from ..model.rules import Shape, ShapeKind
from . import params
from .base import CellsRule, cells_phrase, fpuzzles_number, iss_number, single_bits, value_at, values_at, where
from .globals import repeats


@dataclass(frozen=True)
class ExtraRegion(CellsRule):
    """The cells hold different values (an extra region, a window)."""

    kind: ClassVar[str] = "extra-region"
    any_shape: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("extraregion",)
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "AllDifferent"
    drawn_colour: ClassVar[str] = "#c7e9c0"
    description: ClassVar[str] = "the cells hold different values"
    aliases: ClassVar[tuple[str, ...]] = ("extraregion", "region")
    min_cells: ClassVar[int] = 2

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        idx = [geometry.index(c) for c in self.cells]
        yield from repeats(grid, geometry, idx, f"extra region at {where(self.cells)}")

    def lower(self, b) -> None:
        b.all_different(b.vars(self.cells))

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.SHADE, tuple(geometry.index(c) for c in self.cells), style="region")]


@dataclass(frozen=True)
class Even(CellsRule):
    """Each cell holds an even value."""

    kind: ClassVar[str] = "even"
    any_shape: ClassVar[bool] = True
    # what a rules text says a grey circle or square in a cell is (formats/rules_text.py)
    shape_phrases: ClassVar[tuple[str, ...]] = (r"\beven\b",)
    drawn_shape: ClassVar[str] = "square"
    fpuzzles: ClassVar[tuple[str, ...]] = ("even",)
    fpuzzles_form: ClassVar[str] = "cell"
    iss: ClassVar[str] = "Given"
    description: ClassVar[str] = "each marked cell holds an even value"
    remainder: ClassVar[int] = 0
    any_values: ClassVar[bool] = True       # the parity of the values themselves
    any_count: ClassVar[bool] = True

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for cell, v in zip(self.cells, values_at(grid, geometry, self.cells)):
            if v and geometry.real(v) % 2 != self.remainder:
                yield f"{cell_name(cell)}={geometry.real(v)} is not {self.kind} ({self.kind} cell)"

    def lower(self, b) -> None:
        for x in b.vars(self.cells):
            b.unary(x, lambda a: b.geometry.real(a) % 2 == self.remainder)

    technique: ClassVar[str] = "Even/Odd"
    technique_score: ClassVar[int] = 4
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a cell marked even (odd) loses the odd (even) values")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """A marked cell loses the values of the other parity."""
        wrong = sum(1 << (v - 1) for v in range(1, geometry.size + 1)
                    if geometry.real(v) % 2 != self.remainder)
        idx = [geometry.index(c) for c in self.cells]
        drop = {i: cands[i] & wrong for i in idx if cands[i] & wrong}
        if not drop:
            return None
        return drop, f"{cells_phrase(self.cells)} {'is' if len(idx) == 1 else 'are'} {self.kind}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        kind = ShapeKind.SQUARE if self.remainder == 0 else ShapeKind.CIRCLE
        return [Shape(kind, tuple(geometry.index(c) for c in self.cells), style="parity")]

    def iss_items(self, n: int, cell) -> list[str]:
        """ISS's givens of the even (odd) values: `~R1C1_2_4_6_8`."""
        return self.iss_items_on(Geometry.of_size(n), cell)

    def iss_items_on(self, geometry: Geometry, cell) -> list[str]:
        """The grid's even (odd) values: 0_2_4_6_8 on a 0..8 grid."""
        values = "_".join(str(v) for v in map(geometry.real, range(1, geometry.nvalues + 1))
                          if v % 2 == self.remainder)
        return ["~" + "~".join(f"{cell(c)}_{values}" for c in self.cells)]


@dataclass(frozen=True)
class Odd(Even):
    """Each cell holds an odd value."""

    kind: ClassVar[str] = "odd"
    any_shape: ClassVar[bool] = True
    # what a rules text says a grey circle or square in a cell is (formats/rules_text.py)
    shape_phrases: ClassVar[tuple[str, ...]] = (r"\bodd\b",)
    drawn_shape: ClassVar[str] = "circle"
    fpuzzles: ClassVar[tuple[str, ...]] = ("odd",)
    fpuzzles_form: ClassVar[str] = "cell"
    description: ClassVar[str] = "each marked cell holds an odd value"
    remainder: ClassVar[int] = 1


@dataclass(frozen=True)
class Minimum(CellsRule):
    """Each cell is smaller than every cell sharing a side with it, other than the rule's own."""

    kind: ClassVar[str] = "minimum"
    any_shape: ClassVar[bool] = True
    # what a rules text says a grey circle or square in a cell is (formats/rules_text.py)
    shape_phrases: ClassVar[tuple[str, ...]] = (r"\b(?:smaller|less|lower) than\b|\bminim",)
    fpuzzles: ClassVar[tuple[str, ...]] = ("minimum",)
    fpuzzles_form: ClassVar[str] = "cell"
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = ("each marked cell is smaller than its orthogonal neighbours "
                                  "that are not marked")
    aliases: ClassVar[tuple[str, ...]] = ("min",)
    sign: ClassVar[int] = 1

    def ok(self, a: int, b: int) -> bool:
        """Return whether a marked value a and a neighbour's value b agree with the rule."""
        return (b - a) * self.sign > 0

    def rivals(self, geometry: Geometry, cell) -> list:
        """Return the neighbours a marked cell is compared with: those not marked by this
        rule too (two touching maximum cells of a fortress are not compared, as f-puzzles and
        SudokuPad read them)."""
        return [o for o in params.neighbours(geometry, cell) if o not in self.cells]

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for cell in self.cells:
            a = value_at(grid, geometry, cell)
            for other in self.rivals(geometry, cell):
                v = value_at(grid, geometry, other)
                if a and v and not self.ok(a, v):
                    yield (f"{cell_name(cell)}={geometry.real(a)} is not "
                           f"{'smaller' if self.sign > 0 else 'larger'} than "
                           f"{cell_name(other)}={geometry.real(v)} ({self.kind} cell)")

    def lower(self, b) -> None:
        for cell in self.cells:
            for other in self.rivals(b.geometry, cell):
                b.relation(b.var(cell), b.var(other), self.ok)

    technique: ClassVar[str] = "Minimum/Maximum"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a minimum (maximum) cell is below (above) each neighbour: bounds both ways")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """A minimum cell is below every neighbour (a maximum above): it keeps values some
        value of each neighbour beats, and each neighbour keeps values that beat some value
        of the cell."""
        n = geometry.size
        for cell in self.cells:
            i = geometry.index(cell)
            others = [geometry.index(o) for o in self.rivals(geometry, cell)]
            keep = {j: 0 for j in [i, *others]}
            for a in range(1, n + 1):
                if not cands[i] >> (a - 1) & 1:
                    continue
                partners = [[b for b in range(1, n + 1) if cands[j] >> (b - 1) & 1
                             and self.ok(a, b)] for j in others]
                if all(partners):
                    keep[i] |= 1 << (a - 1)
                    for j, bs in zip(others, partners):
                        keep[j] |= sum(1 << (b - 1) for b in bs)
            drop = {j: cands[j] & ~k for j, k in keep.items() if cands[j] & ~k}
            if drop:
                word = "smaller" if self.sign > 0 else "larger"
                return drop, (f"{cell_name(cell)} is {word} than each of its neighbours "
                              f"({self.kind} cell)")
        return None

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CELLMARK, tuple(geometry.index(c) for c in self.cells),
                      "v" if self.sign > 0 else "^", self.kind)]


@dataclass(frozen=True)
class Maximum(Minimum):
    """Each cell is larger than every cell sharing a side with it, other than the rule's own."""

    kind: ClassVar[str] = "maximum"
    any_shape: ClassVar[bool] = True
    # what a rules text says a grey circle or square in a cell is (formats/rules_text.py)
    shape_phrases: ClassVar[tuple[str, ...]] = (r"\b(?:greater|larger|bigger|higher) than\b|\bmaxim",)
    fpuzzles: ClassVar[tuple[str, ...]] = ("maximum",)
    fpuzzles_form: ClassVar[str] = "cell"
    description: ClassVar[str] = ("each marked cell is larger than its orthogonal neighbours "
                                  "that are not marked")
    aliases: ClassVar[tuple[str, ...]] = ("max",)
    sign: ClassVar[int] = -1


@dataclass(frozen=True)
class Killer(CellsRule):
    """A cage: its cells hold different values, which add up to its sum when it has one."""

    total: int | None = None

    kind: ClassVar[str] = "killer"
    any_shape: ClassVar[bool] = True
    any_values: ClassVar[bool] = True       # `total` adds up the values themselves
    any_count: ClassVar[bool] = True
    fpuzzles: ClassVar[tuple[str, ...]] = ("killercage",)
    iss: ClassVar[str] = "Cage"
    description: ClassVar[str] = "a cage's cells differ and add up to its sum"
    aliases: ClassVar[tuple[str, ...]] = ("cage", "killer-cage", "killercage")

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Killer":
        cells = cls.read_cells(data, geometry)
        total = params.integer(data, "sum", 0, geometry.nvalues * geometry.nvalues, default=None)
        return cls(cells, total)

    def to_data(self) -> dict[str, Any]:
        out = super().to_data()
        if self.total is not None:
            out["sum"] = self.total
        return out

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        idx = [geometry.index(c) for c in self.cells]
        yield from repeats(grid, geometry, idx, f"cage at {where(self.cells)}")
        vals = self.complete(grid, geometry)
        if vals is not None and self.total is not None:
            total = sum(map(geometry.real, vals))
            if total != self.total:
                yield f"the cage at {where(self.cells)} adds up to {total}, not {self.total}"

    def index_total(self, geometry: Geometry) -> int | None:
        """Return what the cage's value indices add up to (its sum on values 1..N)."""
        return None if self.total is None else self.total - len(self.cells) * geometry.offset

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        b.all_different(xs)
        total = self.index_total(b.geometry)
        if total is not None:
            b.linear(xs, [1] * len(xs), total)

    technique: ClassVar[str] = "Killer Cage"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "the sets of different values adding up to a cage's sum that its cells can still "
        "hold: candidates none of them uses go")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Cage combinations: the sets of different values adding up to the sum that the
        cells' candidates can still hold; a candidate no such set (placed so that every cell
        gets one value) uses goes."""
        total = self.index_total(geometry)
        if total is None:
            return None
        idx = [geometry.index(c) for c in self.cells]
        found = cage_sets(geometry.size, [cands[i] for i in idx], total)
        if found is None:
            return None
        keep, fits = found
        drop = {i: cands[i] & ~kept for i, kept in zip(idx, keep) if cands[i] & ~kept}
        if not drop:
            return None
        fits = [tuple(map(geometry.real, f)) for f in fits]
        return drop, f"the cage {cells_phrase(self.cells)} (sum {self.total}) {sets_words(fits)}"

    @classmethod
    def read_off(cls, grid, geometry: Geometry, rng) -> list["Killer"]:
        """Return cages covering a full grid (2 to 5 cells each, no value twice in one), with
        their sums, for the generator: grown from random seeds over orthogonal neighbours."""
        n = geometry.size
        free = set(range(n * n))
        cages = []
        while free:
            start = rng.choice(sorted(free))
            cage, values = [start], {grid[start]}
            free.discard(start)
            target = rng.choice((2, 3, 3, 4, 4, 5))
            while len(cage) < target:
                options = sorted({j for i in cage for j in _neighbours(i, n)
                                  if j in free and grid[j] not in values})
                if not options:
                    break
                j = rng.choice(options)
                cage.append(j)
                values.add(grid[j])
                free.discard(j)
            cages.append(cage)
        return [cls(tuple(geometry.cell(i) for i in sorted(cage)), sum(grid[i] for i in cage))
                for cage in cages]

    def describe(self, geometry: Geometry) -> str:
        total = f" ({self.total})" if self.total is not None else ""
        return f"cage{total} at {where(self.cells)}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells),
                      "" if self.total is None else str(self.total))]

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> Any:
        """`Cage~S~cells` (an empty sum or 0: any total); a cage listing a cell twice is the
        sum cage's reading (None here)."""
        if not args:
            raise BadInput("unexpected arguments")
        cells = [cell(a) for a in args[1:]]
        if len(set(cells)) != len(cells):
            return None
        rule: dict[str, Any] = {"kind": cls.kind, "cells": cells}
        if args[0] not in ("", "0"):
            rule["sum"] = iss_number(args[0])
        return rule

    def write_iss(self, n: int, cell) -> list[str]:
        if self.total == 0:
            raise BadInput("ISS reads a cage sum of 0 as no sum")
        return ["" if self.total is None else str(self.total), *(cell(c) for c in self.cells)]

    @classmethod
    def fpuzzles_read(cls, element: dict[str, Any], cells: list[str],
                      key: str) -> dict[str, Any] | None:
        rule: dict[str, Any] = {"kind": cls.kind, "cells": cells}
        if element.get("value") not in (None, ""):
            rule["sum"] = fpuzzles_number(element["value"], key)
        return rule

    def fpuzzles_written(self) -> dict[str, Any]:
        return {} if self.total is None else {"value": str(self.total)}


def _neighbours(i: int, n: int) -> list[int]:
    """Return the orthogonal neighbours of cell index i on an n x n grid."""
    r, c = divmod(i, n)
    return [a * n + b for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= a < n and 0 <= b < n]


KINDS = (ExtraRegion, Even, Odd, Minimum, Maximum, Killer)


def cage_sets(n: int, masks: list[int], total: int, limit: int = 20000
              ) -> tuple[list[int], list[tuple[int, ...]]] | None:
    """Return, for cells that hold different values 1..n adding up to `total` (candidates
    `masks`), what each cell can keep and the sets of values that fit; None when there are
    more than `limit` sets of that many values to try."""
    found = _cage_sets(n, tuple(masks), total, limit)
    return None if found is None else (list(found[0]), list(found[1]))


@lru_cache(maxsize=1 << 15)
def _cage_sets(n: int, masks: tuple[int, ...], total: int, limit: int
               ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]] | None:
    """`cage_sets`, remembered: logic asks the same cage about the same candidates again
    and again (every step, every trial of a strong link)."""
    k = len(masks)
    if k > n or comb(n, k) > limit:
        return None
    keep = [0] * k
    fits = []
    union = 0
    for m in masks:
        union |= m
    for combo, values in _totalling(n, k, total):
        # no placing at all when a value has no cell or a cell no value: skip the search
        if values & ~union or not all(m & values for m in masks):
            continue
        used = _matched(list(masks), values)
        if any(used):
            fits.append(combo)
            keep = [a | b for a, b in zip(keep, used)]
    return tuple(keep), tuple(fits)


@lru_cache(maxsize=4096)
def _totalling(n: int, k: int, total: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Return the sets of k different values 1..n adding up to `total`, each with its
    bitmask, in order."""
    return tuple((combo, sum(1 << (v - 1) for v in combo))
                 for combo in combinations(range(1, n + 1), k) if sum(combo) == total)


def sets_words(fits: list[tuple[int, ...]]) -> str:
    """Return what the fitting sets say, for logic's text ("can only be 1+3 or 2+4")."""
    if not fits:
        return "has no set of different values that fits"
    if len(fits) <= 3:
        return "can only be " + " or ".join("+".join(map(str, f)) for f in fits)
    return (f"holds one of {len(fits)} sets of {len(fits[0])} different values, and none of "
            "them puts these values there")


def _matched(masks: list[int], values: int) -> list[int]:
    """Return, per cell, the values of `values` it can take in some one-to-one placing of
    exactly those values into the cells (within their candidate masks): all zeros when none.
    Forward and backward sets of used values meet at each cell."""
    k = len(masks)
    fwd = [{0}]
    for m in masks:
        fwd.append({f | b for f in fwd[-1] for b in single_bits(m & values & ~f)})
    if values not in fwd[k]:
        return [0] * k
    bwd: list[set[int]] = [set() for _ in range(k)] + [{0}]
    for j in range(k - 1, -1, -1):
        bwd[j] = {g | b for g in bwd[j + 1] for b in single_bits(masks[j] & values & ~g)}
    out = []
    for j in range(k):
        ok = 0
        for f in fwd[j]:
            for b in single_bits(masks[j] & values & ~f):
                if values & ~(f | b) in bwd[j + 1]:
                    ok |= b
        out.append(ok)
    return out
