"""Value-indexing lines (ISS `ValueIndexing`, slingshot arrows): the line starts at a cell
holding X; the second cell's value k says that the k-th cell after it holds X too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from ...model.geometry import Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from ..base import CellsRule, mask_values, values_at, where
from ..lines import random_line


@dataclass(frozen=True)
class ValueIndexing(CellsRule):
    """cells[0] holds X, cells[1] holds k (1..len - 2), and cells[1 + k] holds X."""

    kind: ClassVar[str] = "value-indexing"
    iss: ClassVar[str] = "ValueIndexing"
    description: ClassVar[str] = ("the line's first cell holds X and its second k: the k-th "
                                  "cell after the second holds X too")
    aliases: ClassVar[tuple[str, ...]] = ("valueindexing", "value-index", "slingshot")
    min_cells: ClassVar[int] = 3
    phrases: ClassVar[tuple[str, ...]] = (r"value[- ]indexing", r"slingshot")
    # the second cell's value itself is the place (1, 2, ...), as ISS reads it: a 0 names
    # no cell; the first cell's value is only compared
    any_values: ClassVar[bool] = True

    def reach(self) -> int:
        """Return the largest value the second cell may hold: the cells after it."""
        return len(self.cells) - 2

    def place(self, k: int, g: Geometry) -> int:
        """Return the place (1..reach) the second cell's value index k names, 0 for none."""
        p = g.real(k)
        return p if 1 <= p <= self.reach() else 0

    def lower(self, b) -> None:
        g = b.geometry
        xs = b.vars(self.cells)
        value, control, indexed = xs[0], xs[1], xs[2:]
        b.unary(control, lambda k: self.place(k, g) > 0)
        values = range(1, b.size + 1)
        controls = [k for k in values if self.place(k, g)]
        for j, x in enumerate(indexed, start=1):
            b.table((control, value, x),
                    [(k, a, c) for k in controls for a in values
                     for c in values if self.place(k, g) != j or a == c])

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        x, k = vals[0], vals[1]
        if not k:
            return
        place, real = self.place(k, geometry), geometry.real
        if not place:
            yield (f"{cell_name(self.cells[1])}={real(k)} points at no cell of the "
                   f"value-indexing line at {where(self.cells)}")
            return
        target, got = self.cells[1 + place], vals[1 + place]
        if x and got and got != x:
            yield (f"{cell_name(target)}={real(got)}, not {real(x)} as "
                   f"{cell_name(self.cells[0])} says (value-indexing line at "
                   f"{where(self.cells)})")

    def shapes(self, geometry: Geometry) -> list[Shape]:
        idx = tuple(geometry.index(c) for c in self.cells)
        return [Shape(ShapeKind.LINE, idx, style="value-indexing"),
                Shape(ShapeKind.CIRCLE, idx[:1], style="value-indexing")]

    technique: ClassVar[str] = "Value Indexing"
    technique_score: ClassVar[int] = 40
    technique_level: ClassVar[str] = "Medium"

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """The second cell keeps the places k whose cell can hold a value of the first cell;
        the first keeps the values some such place can hold; a single place holds only
        those."""
        idx = [geometry.index(c) for c in self.cells]
        value, control, indexed = idx[0], idx[1], idx[2:]
        keep_value = keep_control = 0
        for k in mask_values(cands[control]):
            place = self.place(k, geometry)
            common = cands[indexed[place - 1]] & cands[value] if place else 0
            if common:
                keep_value |= common
                keep_control |= 1 << (k - 1)
        drop = {}
        for cell, keep in ((value, keep_value), (control, keep_control)):
            if cands[cell] & ~keep:
                drop[cell] = cands[cell] & ~keep
        if keep_control and not keep_control & (keep_control - 1):
            place = indexed[self.place(keep_control.bit_length(), geometry) - 1]
            if cands[place] & ~keep_value:
                drop[place] = cands[place] & ~keep_value
        if not drop:
            return None
        return drop, (f"the value-indexing line from {cell_name(self.cells[0])}: "
                      f"{cell_name(self.cells[1])} points to a cell after it that holds "
                      f"the value of {cell_name(self.cells[0])}")

    @classmethod
    def sample(cls, rng, size: int) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": random_line(rng, size, rng.randint(3, size + 1))}

    @classmethod
    def read_iss(cls, args: list[str], cell) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": [cell(a) for a in args if a]}

    def write_iss(self, n: int, cell) -> list[str]:
        return [cell(c) for c in self.cells]


KINDS = (ValueIndexing,)
