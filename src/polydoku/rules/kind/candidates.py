"""Candidate givens: each listed cell holds one of the listed values (ISS saves them as givens
with several values, `.~R1C1_1_2_3`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import CellsRule, values_at


@dataclass(frozen=True)
class Candidates(CellsRule):
    """Each listed cell holds one of `values`."""

    values: tuple[int, ...] = ()

    kind: ClassVar[str] = "candidates"
    any_shape: ClassVar[bool] = True
    iss: ClassVar[str] = ""    # ISS writes them as givens: read by formats/iss.py, written here
    any_values: ClassVar[bool] = True       # `values` are the values themselves
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = "each listed cell holds one of the listed values"
    aliases: ClassVar[tuple[str, ...]] = ("candidate-givens", "given-candidates", "pencilmarks")

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "Candidates":
        cells = tuple(sorted(cls.read_cells(data, geometry)))     # a set: one order
        values = params.int_list(data, "values", geometry.low, geometry.real(geometry.nvalues),
                                 max_len=geometry.nvalues)
        if len(set(values)) != len(values):
            raise BadInput("field \"values\" lists a value twice")
        return cls(cells, tuple(sorted(values)))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), values=list(self.values))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for cell, v in zip(self.cells, values_at(grid, geometry, self.cells)):
            if v and geometry.real(v) not in self.values:
                yield f"{cell_name(cell)}={geometry.real(v)} is not one of {self.values_words()} ({self.kind})"

    def values_words(self) -> str:
        """Return the values for a sentence ("1, 2 or 3")."""
        words = [str(v) for v in self.values]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]

    def lower(self, b) -> None:
        for x in b.vars(self.cells):
            b.unary(x, lambda a: b.geometry.real(a) in self.values)

    def describe(self, geometry: Geometry) -> str:
        return f"candidates {''.join(map(str, self.values))} at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CELLMARK, tuple(geometry.index(c) for c in self.cells),
                      "".join(map(str, self.values)) if geometry.nvalues <= 9
                      else ",".join(map(str, self.values)))]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        cells = rng.sample(range(size * size), rng.choice((1, 1, 2, 3)))
        values = rng.sample(range(1, size + 1), rng.randint(1, size - 1))
        return {"kind": cls.kind, "cells": params.names(divmod(i, size) for i in cells),
                "values": sorted(values)}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        """One argument, `R1C1_1_2_3`: the cell and its values."""
        if len(args) != 1 or "_" not in args[0]:
            raise BadInput("candidate givens are written R1C1_1_2_3")
        head, *values = args[0].split("_")
        return {"kind": cls.kind, "cells": [cell(head)], "values": values}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [f"{cell(c)}_{'_'.join(map(str, self.values))}" for c in sorted(self.cells)]

    def iss_items(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        """ISS writes candidate givens as givens: one item `~R1C1_1_2~R1C2_3_4`."""
        return ["~" + "~".join(self.write_iss(n, cell))]


KINDS = (Candidates,)
