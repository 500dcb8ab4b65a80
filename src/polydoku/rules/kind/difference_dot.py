"""The difference dot: a white dot with a number, joining two neighbours whose values differ by
exactly that number (f-puzzles saves it as a "difference" element with a value; without a
value, or with 1, that element is a plain white kropki dot)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from ...model.geometry import Cell, Geometry
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import PairRule


def adjacent_pair(rng: Any, size: int) -> list[str]:
    """Return two random orthogonal neighbours' names on a size x size grid."""
    r, c = rng.randrange(size - 1), rng.randrange(size - 1)
    other = (r, c + 1) if rng.random() < 0.5 else (r + 1, c)
    return params.names([(r, c), other])


def fpuzzles_pair(item: Any) -> tuple[Any, Any]:
    """Return an f-puzzles dot element's cells (None unless a list) and value."""
    if not isinstance(item, dict):
        return None, None
    cells = item.get("cells")
    return (cells if isinstance(cells, list) else None), item.get("value")


@dataclass(frozen=True)
class DifferenceDot(PairRule):
    """Two neighbours joined by the dot differ by exactly `difference`."""

    difference: int = 1

    kind: ClassVar[str] = "difference-dot"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = "cells joined by a numbered white dot differ by exactly its number"
    aliases: ClassVar[tuple[str, ...]] = ("numbered-difference", "difference-kropki")
    fpuzzles: ClassVar[tuple[str, ...]] = ("difference",)
    any_values: ClassVar[bool] = True       # a difference is the same on any run of values

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "DifferenceDot":
        return cls(cls.read_cells(data, geometry),
                   params.integer(data, "difference", 1, geometry.nvalues - 1))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), difference=self.difference)

    def ok(self, a: int, b: int) -> bool:
        return abs(a - b) == self.difference

    @property
    def words(self) -> str:   # type: ignore[override]
        return f"do not differ by {self.difference}"

    technique: ClassVar[str] = "Kropki Pair"
    technique_score: ClassVar[int] = 20
    mark: ClassVar[str] = "difference dot"

    def join_words(self) -> str:
        return f"values {self.difference} apart"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.DOT, tuple(geometry.index(c) for c in self.cells),
                      str(self.difference), "white")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        # small differences most often: a random pair of a grid then often holds one
        difference = min(rng.choice((1, 2, 2, 3, 3, 4, rng.randint(1, size - 1))), size - 1)
        return {"kind": cls.kind, "cells": adjacent_pair(rng, size), "difference": difference}

    @classmethod
    def read_fpuzzles(cls, key: str, item: Any, cell: Callable[[str], str]) -> dict[str, Any] | None:
        """A dot with a value other than 1; a plain one is a white kropki dot (None here)."""
        cells, value = fpuzzles_pair(item)
        if value in (None, "", 1, "1"):
            return None
        return {"kind": cls.kind, "cells": [cell(c) for c in cells] if cells else cells,
                "difference": value}

    def write_fpuzzles(self, n: int, cell: Callable[[Cell], str]) -> tuple[str, dict[str, Any]]:
        return "difference", {"cells": [cell(c) for c in self.cells], "value": str(self.difference)}


KINDS = (DifferenceDot,)
