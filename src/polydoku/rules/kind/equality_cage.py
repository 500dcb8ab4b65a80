"""Equality cages, as ISS's `EqualityCage`: the cage's values differ, as many are even as odd,
and as many low as high. Of values 1..N the lowest ⌊N/2⌋ are low and the highest ⌊N/2⌋ high;
when N is odd the middle value (5 on a 9x9) is neither, so it never stands in such a cage.
A cage of an odd number of cells cannot be split evenly and is bad input (ISS refuses it too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from ..base import CellsRule, cells_phrase, count_where, span, union, values_at, where
from ..globals import repeats


def halves(n: int) -> tuple[int, int]:
    """Return the largest low value and the smallest high value of values 1..n."""
    return n // 2, n - n // 2 + 1


@dataclass(frozen=True)
class EqualityCage(CellsRule):
    """The cage's values differ, half of them even and half low (the middle value of an odd
    range in none)."""

    kind: ClassVar[str] = "equality-cage"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "EqualityCage"
    any_values: ClassVar[bool] = True       # even reads the values; low and high their order
    description: ClassVar[str] = ("a cage's values differ, as many even as odd and as many low "
                                  "as high")
    aliases: ClassVar[tuple[str, ...]] = ("equalitycage", "equality")
    min_cells: ClassVar[int] = 2
    phrases: ClassVar[tuple[str, ...]] = (
        r"equality cages?",
        r"(?:the )?same (?:number|amount) of (?:odd and even|even and odd) (?:digits|numbers)"
        r".{0,40}(?:low and high|high and low)")

    @classmethod
    def read_cells(cls, data: dict[str, Any], g: Geometry) -> tuple[Cell, ...]:
        cells = super().read_cells(data, g)
        if len(cells) % 2:
            raise BadInput(f"field \"cells\": an equality cage has an even number of cells, "
                           f"not {len(cells)}")
        return cells

    def parts(self, g: Geometry) -> list[tuple[str, Callable[[int], bool]]]:
        """Return the two tests half the cage's value indices pass (even: the value itself;
        low: the lower half of the grid's values)."""
        low, _ = halves(g.nvalues)
        return [("even", lambda a: g.real(a) % 2 == 0), ("low", lambda a: a <= low)]

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        n = geometry.nvalues
        idx = [geometry.index(c) for c in self.cells]
        yield from repeats(grid, geometry, idx, f"equality cage at {where(self.cells)}")
        vals = values_at(grid, geometry, self.cells)
        low, high = halves(n)
        for cell, v in zip(self.cells, vals):
            if low < v < high:
                yield f"{cell_name(cell)}={geometry.real(v)} is neither low nor high (equality cage)"
        half = len(vals) // 2
        for word, ok in self.parts(geometry):
            yes = sum(1 for v in vals if v and ok(v))
            no = sum(1 for v in vals if v and not ok(v) and not low < v < high)
            if yes > half or no > half:
                other = {"even": "odd", "low": "high"}[word]
                yield (f"the equality cage at {where(self.cells)} holds {yes} {word} and "
                       f"{no} {other} values of {len(vals)}")

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        low, high = halves(b.nvalues)
        b.all_different(xs)
        if high - low > 1:
            for x in xs:
                b.unary(x, lambda a: not low < a < high)
        for word, ok in self.parts(b.geometry):
            count_where(b, xs, ok, word, rhs=len(xs) // 2)


    technique: ClassVar[str] = "Equality Cage"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "an equality cage never holds the middle value, and once half its cells are even (odd, "
        "low, high) the other cells are not")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """The middle value goes; once half the cells must be even (odd, low, high), the other
        cells lose those values (on values 1..N; others are left to Constraint Propagation)."""
        if geometry.low != 1:
            return None
        n = geometry.nvalues
        idx = [geometry.index(c) for c in self.cells]
        low, high = halves(n)
        middle = span(low + 1, high - 1)
        drop = {i: cands[i] & middle for i in idx if cands[i] & middle}
        if drop:
            return drop, f"the middle value {low + 1} is neither low nor high (equality cage)"
        evens = union(1 << (v - 1) for v in range(2, n + 1, 2)) & ~middle
        classes = {"even": evens, "odd": span(1, n) & ~evens & ~middle,
                   "low": span(1, low), "high": span(high, n)}
        for word, mask in classes.items():
            sure = [i for i in idx if cands[i] and not cands[i] & ~mask]
            if len(sure) == len(idx) // 2:
                drop = {i: cands[i] & mask for i in idx if i not in sure and cands[i] & mask}
                if drop:
                    return drop, (f"half of the equality cage {cells_phrase(self.cells)} is "
                                  f"already {word}, so its other cells are not")
        return None

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells), "=",
                      "equality")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        picked = rng.sample(range(size * size), rng.choice((2, 2, 4)))
        return {"kind": cls.kind, "cells": [f"r{i // size + 1}c{i % size + 1}" for i in picked]}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": [cell(a) for a in args]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [cell(c) for c in self.cells]


KINDS = (EqualityCage,)
