"""Cells that must contain values, as ISS's `ContainAtLeast` and `ContainExact`: each listed
value appears among the cells at least (exactly) as often as it is listed; values not listed
are free. A quadruple (rules/arrows.py) is the at-least rule of a 2x2 block drawn on its
corner; both lower through the same count (`count_where`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import CellsRule, count_where, values_at, where


@dataclass(frozen=True)
class ContainAtLeast(CellsRule):
    """Each listed value appears among the cells at least as often as it is listed."""

    values: tuple[int, ...] = ()

    kind: ClassVar[str] = "contain-at-least"
    description: ClassVar[str] = "the listed values appear among the cells (repeats as listed)"
    aliases: ClassVar[tuple[str, ...]] = ("containatleast", "contains")
    phrases: ClassVar[tuple[str, ...]] = (
        r"(?:digits|numbers) (?:shown |given )?in the (?:cage|region|box) (?:must )?"
        r"(?:appear|be placed) (?:somewhere )?(?:in|within) it",)
    op: ClassVar[str] = ">="
    words: ClassVar[str] = "at least"

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "ContainAtLeast":
        cells = cls.read_cells(data, geometry)
        values = params.int_list(data, "values", 1, geometry.size, max_len=geometry.ncells)
        if len(values) > len(cells):
            raise BadInput(f"field \"values\" lists {len(values)} values for {len(cells)} cells")
        return cls(cells, tuple(sorted(values)))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), values=list(self.values))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        for v, times in sorted(Counter(self.values).items()):
            placed = vals.count(v)
            if placed + vals.count(0) < times or (self.op == "==" and placed > times):
                yield (f"the cells at {where(self.cells)} hold {v} {placed} time(s), not "
                       f"{self.words} {times} ({self.kind})")

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        for v, times in sorted(Counter(self.values).items()):
            count_where(b, xs, v.__eq__, f"is {v}", self.op, times)

    def describe(self, geometry: Geometry) -> str:
        return f"{self.kind} {'/'.join(map(str, self.values))} at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.cells),
                      ",".join(map(str, self.values)), self.kind)]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        picked = rng.sample(range(size * size), rng.randint(1, 5))
        values = rng.choices(range(1, size + 1), k=rng.randint(1, min(3, len(picked))))
        return {"kind": cls.kind, "cells": [f"r{i // size + 1}c{i % size + 1}" for i in picked],
                "values": sorted(values)}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if len(args) < 2:
            raise BadInput("values and cells are expected")
        return {"kind": cls.kind, "values": args[0].split("_"),
                "cells": [cell(a) for a in args[1:]]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return ["_".join(map(str, self.values)), *(cell(c) for c in self.cells)]


@dataclass(frozen=True)
class ContainExact(ContainAtLeast):
    """Each listed value appears among the cells exactly as often as it is listed."""

    kind: ClassVar[str] = "contain-exact"
    description: ClassVar[str] = ("the listed values appear among the cells exactly as often "
                                  "as listed")
    aliases: ClassVar[tuple[str, ...]] = ("containexact",)
    phrases: ClassVar[tuple[str, ...]] = ()
    op: ClassVar[str] = "=="
    words: ClassVar[str] = "exactly"


KINDS = (ContainAtLeast, ContainExact)
