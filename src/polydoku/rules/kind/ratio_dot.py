"""The ratio dot: a black dot with a number, joining two neighbours one of which is that many
times the other (f-puzzles saves it as a "ratio" element with a value; without a value, or
with 2, that element is a plain black kropki dot)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from ...model.geometry import Cell, Geometry
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import PairRule
from .difference_dot import adjacent_pair, fpuzzles_pair


@dataclass(frozen=True)
class RatioDot(PairRule):
    """Of two neighbours joined by the dot, one is `ratio` times the other."""

    ratio: int = 2

    kind: ClassVar[str] = "ratio-dot"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = ("of two cells joined by a numbered black dot, one is its "
                                  "number times the other")
    aliases: ClassVar[tuple[str, ...]] = ("numbered-ratio", "ratio-kropki")
    fpuzzles: ClassVar[tuple[str, ...]] = ("ratio",)
    any_values: ClassVar[bool] = True       # `ok` reads the values themselves (a 0 is no
                                            # one's multiple but its own)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "RatioDot":
        return cls(cls.read_cells(data, geometry),
                   params.integer(data, "ratio", 2, max(2, geometry.nvalues)))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), ratio=self.ratio)

    def ok(self, a: int, b: int) -> bool:
        return a == self.ratio * b or b == self.ratio * a

    @property
    def words(self) -> str:   # type: ignore[override]
        return f"are not in ratio 1:{self.ratio}"

    technique: ClassVar[str] = "Kropki Pair"
    technique_score: ClassVar[int] = 20
    mark: ClassVar[str] = "ratio dot"

    def join_words(self) -> str:
        return f"a value and {self.ratio} times it"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.DOT, tuple(geometry.index(c) for c in self.cells),
                      str(self.ratio), "black")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        # small ratios most often: a random pair of a grid then often holds one
        ratio = rng.choice((2, 2, 3, 3, rng.randint(2, size)))
        return {"kind": cls.kind, "cells": adjacent_pair(rng, size), "ratio": ratio}

    @classmethod
    def read_fpuzzles(cls, key: str, item: Any, cell: Callable[[str], str]) -> dict[str, Any] | None:
        """A dot with a ratio other than 2; a plain one is a black kropki dot (None here)."""
        cells, value = fpuzzles_pair(item)
        if value in (None, "", 2, "2"):
            return None
        return {"kind": cls.kind, "cells": [cell(c) for c in cells] if cells else cells,
                "ratio": value}

    def write_fpuzzles(self, n: int, cell: Callable[[Cell], str]) -> tuple[str, dict[str, Any]]:
        return "ratio", {"cells": [cell(c) for c in self.cells], "value": str(self.ratio)}


KINDS = (RatioDot,)
