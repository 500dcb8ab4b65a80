"""The grey dot: a kropki dot of unknown colour; the two neighbours it joins are consecutive or
one is double the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...model.geometry import Geometry
from ...model.rules import Shape, ShapeKind
from ..base import PairRule
from .difference_dot import adjacent_pair


@dataclass(frozen=True)
class GreyDot(PairRule):
    """Two neighbours joined by the dot are consecutive, or one is double the other."""

    kind: ClassVar[str] = "grey-dot"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = ("cells joined by a grey dot are consecutive or one is double "
                                  "the other")
    aliases: ClassVar[tuple[str, ...]] = ("gray-dot", "grey-kropki", "gray-kropki")
    any_values: ClassVar[bool] = True       # `ok` reads the values themselves
    words: ClassVar[str] = "are neither consecutive nor in ratio 1:2"
    # a sentence of the rules text on what grey dots join
    phrases: ClassVar[tuple[str, ...]] = (
        r"consecutive.{0,80}(?:ratio|double|twice|1:2)|(?:ratio|double|twice|1:2).{0,80}"
        r"consecutive",)

    def ok(self, a: int, b: int) -> bool:
        return abs(a - b) == 1 or a == 2 * b or b == 2 * a

    technique: ClassVar[str] = "Kropki Pair"
    technique_score: ClassVar[int] = 20
    mark: ClassVar[str] = "grey dot"
    joins: ClassVar[str] = "consecutive values or a value and its double"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.DOT, tuple(geometry.index(c) for c in self.cells), style="grey")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": adjacent_pair(rng, size)}


KINDS = (GreyDot,)
