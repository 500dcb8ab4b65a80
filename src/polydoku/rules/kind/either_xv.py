"""The either-X-or-V mark: two neighbours joined by it add up to 5 or to 10 (an XV mark whose
letter is not told)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...model.geometry import Geometry
from ...model.rules import Shape, ShapeKind
from ..base import PairRule
from .difference_dot import adjacent_pair


@dataclass(frozen=True)
class EitherXV(PairRule):
    """Two neighbours joined by the mark add up to 5 or to 10."""

    kind: ClassVar[str] = "either-xv"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = "cells joined by an either-X-or-V mark add up to 5 or to 10"
    aliases: ClassVar[tuple[str, ...]] = ("x-or-v", "xv-either", "either-x-or-v")
    any_values: ClassVar[bool] = True       # `ok` adds up the values themselves
    words: ClassVar[str] = "add up to neither 5 nor 10"

    def ok(self, a: int, b: int) -> bool:
        return a + b in (5, 10)

    technique: ClassVar[str] = "XV Pair"
    technique_score: ClassVar[int] = 20
    mark: ClassVar[str] = "X-or-V mark"
    joins: ClassVar[str] = "values adding up to 5 or 10"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.MARK, tuple(geometry.index(c) for c in self.cells), "X/V")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": adjacent_pair(rng, size)}


KINDS = (EitherXV,)
