"""Lunchboxes, as ISS's `Lunchbox`: a list of cells (a row, a column, or any path, read in its
order) holding different values; the cells between its smallest and its largest value add up
to the sum. ISS's sandwich is the lunchbox of a whole row, whose ends are then 1 and N.

Lowered through auxiliaries, each fixed by the cells: the smallest value and its place, the
largest and its place (one small table per cell ties each to it), a flag per cell saying it
lies between the two places, what it adds to the sum, and one sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import CellsRule, values_at, where
from ..globals import repeats


def between_sum(vals: list[int]) -> int:
    """Return the sum of the values between the smallest and the largest one."""
    lo, hi = sorted((vals.index(min(vals)), vals.index(max(vals))))
    return sum(vals[lo + 1:hi])


@dataclass(frozen=True)
class Lunchbox(CellsRule):
    """The cells differ, and those between the smallest and the largest add up to the sum."""

    total: int = 0

    kind: ClassVar[str] = "lunchbox"
    iss: ClassVar[str] = "Lunchbox"
    description: ClassVar[str] = ("the cells between a lunchbox's smallest and largest value "
                                  "add up to its sum")
    aliases: ClassVar[tuple[str, ...]] = ("lunch-box",)
    min_cells: ClassVar[int] = 2
    # the ends are the cells' own smallest and largest values, by order; the sum adds up the
    # values themselves
    any_values: ClassVar[bool] = True
    any_count: ClassVar[bool] = True    # the ends are the cells' own, whatever the grid holds
    any_shape: ClassVar[bool] = True
    phrases: ClassVar[tuple[str, ...]] = (
        r"lunch ?box(?:es)?",
        r"between the (?:smallest|lowest) and (?:the )?(?:largest|highest) (?:digits?|numbers?)"
        r" (?:in|of) the (?:box|cage|region)")

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Lunchbox":
        cells = cls.read_cells(data, geometry)
        return cls(cells, params.integer(data, "sum", 0, geometry.real(geometry.nvalues)
                                         * geometry.nvalues))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), sum=self.total)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        idx = [geometry.index(c) for c in self.cells]
        yield from repeats(grid, geometry, idx, f"lunchbox at {where(self.cells)}")
        vals = values_at(grid, geometry, self.cells)
        if 0 not in vals and len(set(vals)) == len(vals):
            held = between_sum([geometry.real(v) for v in vals])
            if held != self.total:
                yield (f"the lunchbox at {where(self.cells)} holds {held} between its "
                       f"smallest and largest value, not {self.total}")

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        n, k = b.nvalues, len(xs)
        b.all_different(xs)
        places = []
        smaller: Callable[[int, int], bool] = lambda a, v: a > v
        larger: Callable[[int, int], bool] = lambda a, v: a < v
        for word, beyond in (("smallest", smaller), ("largest", larger)):
            value, place = b.new_var(n, f"{word} value"), b.new_var(k, f"{word} place")
            for j, x in enumerate(xs, start=1):
                # the cell at the place holds the value; every other cell lies beyond it
                b.table((place, value, x), [(p, v, a) for p in range(1, k + 1)
                                            for v in range(1, n + 1) for a in range(1, n + 1)
                                            if (a == v if p == j else beyond(a, v))])
            places.append(place)
        lo, hi = places
        parts = []
        for j, x in enumerate(xs, start=1):
            inside = b.new_var(2, f"cell {j} inside")
            b.table((lo, hi, inside), [(p, q, 2 if min(p, q) < j < max(p, q) else 1)
                                       for p in range(1, k + 1) for q in range(1, k + 1)
                                       if p != q])
            off = b.geometry.offset                 # what a cell inside adds is its value
            part = b.new_var(n + off + 1, f"cell {j} counts")
            b.table((inside, x, part), [(f, a, a + off + 1 if f == 2 else 1)
                                        for f in (1, 2) for a in range(1, n + 1)])
            parts.append(part)
        b.linear(parts, [1] * k, self.total + k)

    def describe(self, geometry: Geometry) -> str:
        return f"lunchbox {self.total} at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells),
                      str(self.total), "lunchbox")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        r, c = rng.randrange(size), rng.randrange(size)
        cells, target = [(r, c)], rng.randint(2, min(size, 5))
        for _ in range(20 * target):
            if len(cells) == target:
                break
            r, c = cells[-1]
            r, c = rng.choice(((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)))
            if 0 <= r < size and 0 <= c < size and (r, c) not in cells:
                cells.append((r, c))
        if len(cells) < 2:
            cells = [(0, 0), (0, 1)]
        return {"kind": cls.kind, "cells": [cell_name(x) for x in cells],
                "sum": rng.choice((0, rng.randint(0, size * (size - 1) // 2 - 1)))}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if len(args) < 3:
            raise BadInput("a sum and two cells or more are expected")
        return {"kind": cls.kind, "sum": args[0], "cells": [cell(a) for a in args[1:]]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [str(self.total), *(cell(c) for c in self.cells)]


KINDS = (Lunchbox,)
