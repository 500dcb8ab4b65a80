"""Sum cages: cells that add up to a total, values free to repeat (a killer cage without its
all-different), as ISS's `Sum`: a cell listed twice counts twice, and each cell may carry an
integer weight (`coefficients`, -100..100), so that one rule can also say that two groups of
cells add up to the same total (`.Sum~0_=_1_1_-1~R1C1~R1C2~R1C3`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator, Sequence

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Shape, ShapeKind
from .. import params
from ..base import CellsRule, values_at, where

MAX_COEFFICIENT = 100


def merged(vars_: Sequence[int], coefs: Sequence[int]) -> tuple[list[int], list[int]]:
    """Return the variables of a weighted sum each once, their weights added up, and those
    whose weights cancel out dropped."""
    weight: dict[int, int] = {}
    for x, k in zip(vars_, coefs):
        weight[x] = weight.get(x, 0) + k
    kept = [x for x, k in weight.items() if k]
    return kept, [weight[x] for x in kept]


def lower_sum(b: Any, vars_: Sequence[int], coefs: Sequence[int], rhs: int,
              op: str = "==") -> None:
    """Say sum(coef * var) op rhs through the builder `b`, a variable listed twice counting
    twice; a sum whose weights all cancel holds or fails on its own."""
    xs, ks = merged(vars_, coefs)
    if xs:
        b.linear(xs, ks, rhs, op)
    elif not (0 == rhs if op == "==" else 0 <= rhs if op == "<=" else 0 >= rhs):
        b.table(list(vars_[:1]), [])            # nothing can make it: no grid holds


@dataclass(frozen=True)
class SumCage(CellsRule):
    """The cells' values (each times its weight, 1 by default) add up to the total."""

    total: int = 0
    coefficients: tuple[int, ...] | None = None

    kind: ClassVar[str] = "sum-cage"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    cage_total: ClassVar[str] = "sum"
    # ISS's `Sum`, and a `Cage` that lists a cell twice (its total counts the cell twice)
    iss: ClassVar[str] = "Sum Cage"
    description: ClassVar[str] = "the cells add up to the sum; values may repeat"
    aliases: ClassVar[tuple[str, ...]] = ("sumcage", "repeat-cage")
    phrases: ClassVar[tuple[str, ...]] = (
        r"sum cages?", r"digits? (?:may|can) repeat in (?:a |the )?cages?",
        r"cages? (?:in which|where) digits? (?:may|can) repeat")
    any_values: ClassVar[bool] = True       # it adds up the values themselves

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "SumCage":
        cells = params.cell_list(data, "cells", geometry, distinct=False)
        n = max(geometry.real(geometry.nvalues), 1)        # the highest value
        if "coefficients" in data and data["coefficients"] is not None:
            coefs = params.int_list(data, "coefficients", -MAX_COEFFICIENT, MAX_COEFFICIENT,
                                    max_len=geometry.ncells)
            if len(coefs) != len(cells):
                raise BadInput(f"field \"coefficients\" has {len(coefs)} weights for "
                               f"{len(cells)} cells")
            bound = n * MAX_COEFFICIENT * len(cells)
            return cls(cells, params.integer(data, "sum", -bound, bound), coefs)
        return cls(cells, params.integer(data, "sum", 0, n * len(cells)))

    def to_data(self) -> dict[str, Any]:
        out = dict(super().to_data(), sum=self.total)
        if self.coefficients is not None:
            out["coefficients"] = list(self.coefficients)
        return out

    def weights(self) -> tuple[int, ...]:
        """Return each listed cell's weight (1 when none is given)."""
        return self.coefficients or (1,) * len(self.cells)

    def footprint(self) -> tuple[Cell, ...]:
        return tuple(dict.fromkeys(self.cells))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        if 0 not in vals:
            got = sum(k * geometry.real(v) for k, v in zip(self.weights(), vals))
            if got != self.total:
                yield f"the sum cage at {where(self.cells)} adds up to {got}, not {self.total}"

    def lower(self, b) -> None:
        # on the indices: each value is its index + offset, weighted
        off = b.geometry.offset
        lower_sum(b, b.vars(self.cells), self.weights(), self.total - off * sum(self.weights()))

    def describe(self, geometry: Geometry) -> str:
        return f"sum cage ({self.total}) at {cell_name(self.cells[0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in self.footprint()),
                      str(self.total), "sum")]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        k = rng.randint(1, 4)
        cells = [f"r{rng.randrange(size) + 1}c{rng.randrange(size) + 1}" for _ in range(k)]
        out: dict[str, Any] = {"kind": cls.kind, "cells": cells}
        if rng.random() < 0.3:
            out["coefficients"] = [rng.choice((1, 1, 2, -1)) for _ in cells]
            out["sum"] = sum(k * rng.randint(1, size) for k in out["coefficients"])
        else:
            out["sum"] = sum(rng.randint(1, size) for _ in cells)
        return out

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if not args:
            raise BadInput("a sum and cells are expected")
        head, *rest = args[0].split("_")
        out: dict[str, Any] = {"kind": cls.kind, "cells": [cell(a) for a in args[1:]],
                               "sum": head}
        if rest:
            if rest[0] != "=":
                raise BadInput(f"sum {args[0][:20]!r}: expected SUM or SUM_=_WEIGHTS")
            out["coefficients"] = rest[1:]
        return out

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        """A `Sum` item; a `Cage` item that lists a cell twice is a killer cage of its cells
        (each once, no total) and a sum cage of its total over every listed cell, as ISS
        counts it; another `Cage` is the killer's (None)."""
        if name == "Sum":
            return cls.read_iss(args, cell)
        cells = [cell(a) for a in args[1:]]
        if len(set(cells)) == len(cells):
            return None
        out: list[dict[str, Any]] = [{"kind": "killer", "cells": list(dict.fromkeys(cells))}]
        if args[0] not in ("", "0"):
            out.append({"kind": cls.kind, "cells": cells, "sum": args[0]})
        return out

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        head = str(self.total)
        if self.coefficients is not None:
            head += "_=_" + "_".join(map(str, self.coefficients))
        return [head, *(cell(c) for c in self.cells)]


KINDS = (SumCage,)
