"""The product dot: two neighbours joined by it multiply to its number (the multiplying
counterpart of an XV mark, which adds up)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...model.geometry import Geometry
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import PairRule
from .difference_dot import adjacent_pair


@dataclass(frozen=True)
class ProductDot(PairRule):
    """Two neighbours joined by the dot multiply to `product`."""

    product: int = 2

    kind: ClassVar[str] = "product-dot"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = "cells joined by a product dot multiply to its number"
    aliases: ClassVar[tuple[str, ...]] = ("product", "multiplication-dot")
    any_values: ClassVar[bool] = True       # `ok` multiplies the values themselves

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "ProductDot":
        top = geometry.real(geometry.nvalues)          # the two highest values multiplied
        low = 0 if geometry.low == 0 else 2         # a 0 on the grid makes a product of 0
        return cls(cls.read_cells(data, geometry),
                   params.integer(data, "product", low, max(2, top * (top - 1))))

    def to_data(self) -> dict[str, Any]:
        return dict(super().to_data(), product=self.product)

    def ok(self, a: int, b: int) -> bool:
        return a * b == self.product

    @property
    def words(self) -> str:   # type: ignore[override]
        return f"do not multiply to {self.product}"

    technique: ClassVar[str] = "Kropki Pair"
    technique_score: ClassVar[int] = 20
    mark: ClassVar[str] = "product dot"

    def join_words(self) -> str:
        return f"values multiplying to {self.product}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.MARK, tuple(geometry.index(c) for c in self.cells),
                      f"x{self.product}")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        # a product of two different values, so that the dot can hold
        a, b = rng.sample(range(1, size + 1), 2)
        return {"kind": cls.kind, "cells": adjacent_pair(rng, size), "product": a * b}


KINDS = (ProductDot,)
