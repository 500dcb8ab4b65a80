"""Count-distinct cells, as ISS's `CountDistinct`: the value in a control cell is how many
different values the other listed cells hold (SudokuPad's "count different" circles: a
circled cell counts the different digits around it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Rule, Shape, ShapeKind
from .. import params
from ..base import cells_phrase, flags_where, value_at, values_at


@dataclass(frozen=True)
class CountDistinct(Rule):
    """The control cell's value is the number of different values among the cells."""

    control: Cell
    cells: tuple[Cell, ...]

    kind: ClassVar[str] = "count-distinct"
    iss: ClassVar[str] = "CountDistinct"
    description: ClassVar[str] = ("the control cell holds the number of different values "
                                  "among the other cells")
    aliases: ClassVar[tuple[str, ...]] = ("countdistinct", "count-different")
    phrases: ClassVar[tuple[str, ...]] = (
        r"number of (?:different|distinct) (?:digits|values)",
        r"count(?:s|ing)? (?:the )?(?:different|distinct) (?:digits|values)")
    any_values: ClassVar[bool] = True       # the control's value itself is the count

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "CountDistinct":
        control = params.one_cell(data, "control", geometry)
        cells = params.cell_list(data, "cells", geometry)
        if control in cells:
            raise BadInput(f"field \"cells\" lists the control cell {cell_name(control)}")
        return cls(control, cells)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "control": cell_name(self.control),
                "cells": params.names(self.cells)}

    def footprint(self) -> tuple[Cell, ...]:
        return (self.control, *self.cells)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        k = value_at(grid, geometry, self.control)
        c = geometry.real(k)
        vals = values_at(grid, geometry, self.cells)
        seen = len({v for v in vals if v})
        if k and (seen > c or (0 not in vals and seen != c)):
            yield (f"{cell_name(self.control)}={c}, but the cells {cells_phrase(self.cells)} "
                   f"hold {seen} different values")

    def lower(self, b) -> None:
        xs, k = b.vars(self.cells), len(self.cells)
        seen = []
        for v in range(1, b.size + 1):
            # has = 2 exactly when some cell holds v: (has - 1) * k >= count >= has - 1
            has = b.new_var(2, f"has {v}")
            flags = flags_where(b, xs, v.__eq__, f"is {v}")
            b.linear([*flags, has], [1] * k + [-1], k - 1, ">=")
            b.linear([*flags, has], [1] * k + [-k], 0, "<=")
            seen.append(has)
        # the values had add up to the control's value, its index + offset
        b.linear([*seen, b.var(self.control)], [1] * b.size + [-1], b.size + b.geometry.offset)

    def describe(self, geometry: Geometry) -> str:
        return f"count-distinct at {cell_name(self.control)}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CIRCLE, (geometry.index(self.control),), style="count"),
                Shape(ShapeKind.SHADE, tuple(geometry.index(c) for c in self.cells),
                      style="count")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        picked = rng.sample(range(size * size), rng.randint(2, 5))
        names = [f"r{i // size + 1}c{i % size + 1}" for i in picked]
        return {"kind": cls.kind, "control": names[0], "cells": names[1:]}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if len(args) < 2:
            raise BadInput("a control cell and cells are expected")
        return {"kind": cls.kind, "control": cell(args[0]), "cells": [cell(a) for a in args[1:]]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [cell(self.control), *(cell(c) for c in self.cells)]


KINDS = (CountDistinct,)
