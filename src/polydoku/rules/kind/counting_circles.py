"""Counting circles: a value in a circle says how many of the circles hold that value.

One rule lists all the circles of a set (a puzzle with two independent sets has two rules),
as ISS's `CountingCircles` does. A value v in some circle means exactly v circles hold v, so
the values placed in circles add up, each counted once, to the number of circles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...model.geometry import Cell, Geometry
from ...model.rules import Shape, ShapeKind
from ..base import CellsRule, cells_phrase, count_where, values_at, where


@dataclass(frozen=True)
class CountingCircles(CellsRule):
    """Each value v placed in a circle is placed in exactly v of the circles."""

    kind: ClassVar[str] = "counting-circles"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "CountingCircles"
    any_values: ClassVar[bool] = True       # a circle's value itself counts the circles
    description: ClassVar[str] = "a value in a circle says how many circles hold that value"
    aliases: ClassVar[tuple[str, ...]] = ("countingcircles", "counting-circle")
    phrases: ClassVar[tuple[str, ...]] = (
        r"counting circles?",
        r"(?:digit|number) in a circle (?:indicates|is|equals|says) (?:exactly )?(?:how many|the "
        r"(?:number|count) of) circles",
        r"number of circles (?:that )?contain(?:s|ing)? (?:that|this|the same) (?:digit|number)")

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        placed = Counter(geometry.real(v) for v in vals if v)
        full = 0 not in vals
        for v, times in sorted(placed.items()):
            if times > v or (full and times != v):
                yield (f"{v} is in {times} of the counting circles at {where(self.cells)}, "
                       f"not {v}")

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        k = len(xs)
        for v in range(1, b.nvalues + 1):
            r = b.geometry.real(v)      # the value itself (a 0 would ask for no circle)
            if not 0 < r <= k:          # r circles holding r would be more circles than there are
                for x in xs:
                    b.unary(x, lambda a, v=v: a != v)
                continue
            # used - 1 = 1 when r is in the circles: then r of them hold it, else none does
            used = b.new_var(2, f"{r} used")
            count_where(b, xs, v.__eq__, f"is {r}", rhs=-r, extra=[(used, -r)])


    technique: ClassVar[str] = "Counting Circles"
    technique_score: ClassVar[int] = 20
    technique_level: ClassVar[str] = "Easy"
    technique_summary: ClassVar[str] = (
        "a value v in a counting circle needs v circles that can hold it: a value fewer can hold "
        "goes from them all, and once v circles hold v the others lose it")

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """A value v in a circle needs v circles that can hold it: a value fewer circles can
        hold goes from all of them; once v circles hold v, the others lose it (on values 1..N;
        other values are left to Constraint Propagation)."""
        if geometry.low != 1:
            return None
        idx = [geometry.index(c) for c in self.cells]
        able = {v: [i for i in idx if cands[i] >> (v - 1) & 1] for v in range(1, geometry.nvalues + 1)}
        scarce = [v for v, where_ in able.items() if 0 < len(where_) < v]
        if scarce:
            drop: dict[int, int] = {}
            for v in scarce:
                for i in able[v]:
                    drop[i] = drop.get(i, 0) | 1 << (v - 1)
            few = "fewer circles than the value" if len(scarce) > 1 else f"fewer than {scarce[0]}"
            return drop, (f"{', '.join(map(str, scarce))} would each need as many of the "
                          f"counting circles {cells_phrase(self.cells)} as its value, and "
                          f"{few} can hold it")
        for v, where_ in able.items():
            bit = 1 << (v - 1)
            placed = [i for i in where_ if cands[i] == bit]
            if len(placed) == v and len(where_) > v:
                return ({i: bit for i in where_ if cands[i] != bit},
                        f"{v} is already in {v} of the counting circles "
                        f"{cells_phrase(self.cells)}")
        return None

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CIRCLE, tuple(geometry.index(c) for c in self.cells),
                      style="counting")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        k = rng.choice((1, 1, 2, 3, 3, 4, 5, 6))
        picked = rng.sample(range(size * size), min(k, size * size))
        return {"kind": cls.kind, "cells": [f"r{i // size + 1}c{i % size + 1}" for i in picked]}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": [cell(a) for a in args]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [cell(c) for c in self.cells]


KINDS = (CountingCircles,)
