"""Equal sums, as ISS's `EqualSum`: several groups of cells all add up to the same total
(unknown). A cell listed twice counts twice, and groups may share cells, as in ISS; a magic
square's rows, columns and diagonals are one such rule."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Rule, Shape, ShapeKind
from .. import params
from ..base import values_at, where
from .sum_cage import lower_sum

MAX_GROUPS = 64


@dataclass(frozen=True)
class EqualSum(Rule):
    """Every group's values add up to the same total."""

    groups: tuple[tuple[Cell, ...], ...]

    kind: ClassVar[str] = "equal-sum"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "EqualSum"
    description: ClassVar[str] = "each group of cells adds up to the same total"
    aliases: ClassVar[tuple[str, ...]] = ("equalsum", "equal-sums")
    phrases: ClassVar[tuple[str, ...]] = (
        r"equal sums?", r"(?:all )?(?:have|sum to|add up to) the same (?:sum|total)")
    any_values: ClassVar[bool] = True       # the values' own totals are compared

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "EqualSum":
        raw = data.get("groups")
        if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_GROUPS:
            raise BadInput(f"field \"groups\" must be a list of 2..{MAX_GROUPS} lists of cells")
        groups = tuple(params.cell_list({"groups": g}, "groups", geometry, distinct=False)
                       for g in raw)
        return cls(groups)

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "groups": [params.names(g) for g in self.groups]}

    def footprint(self) -> tuple[Cell, ...]:
        return tuple(dict.fromkeys(c for g in self.groups for c in g))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        totals = [(g, values_at(grid, geometry, g)) for g in self.groups]
        done = [(g, sum(map(geometry.real, vals))) for g, vals in totals if 0 not in vals]
        for g, total in done[1:]:
            if total != done[0][1]:
                yield (f"the group at {where(g)} adds up to {total}, and the one at "
                       f"{where(done[0][0])} to {done[0][1]} (equal sums)")

    def lower(self, b) -> None:
        first = b.vars(self.groups[0])
        for group in self.groups[1:]:
            xs = b.vars(group)
            # groups of different sizes: each value is its index + offset
            shift = (len(xs) - len(first)) * b.geometry.offset
            lower_sum(b, first + xs, [1] * len(first) + [-1] * len(xs), shift)

    def describe(self, geometry: Geometry) -> str:
        return f"equal sums of {len(self.groups)} groups at {cell_name(self.groups[0][0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(dict.fromkeys(geometry.index(c) for c in g)), "=",
                      "equal-sum") for g in self.groups]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        groups = []
        for _ in range(rng.randint(2, 3)):
            picked = rng.sample(range(size * size), rng.randint(1, 3))
            groups.append([f"r{i // size + 1}c{i % size + 1}" for i in picked])
        return {"kind": cls.kind, "groups": groups}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        groups: list[list[str]] = [[]]
        for a in args:
            if a == "-":
                groups.append([])
            else:
                groups[-1].append(cell(a))
        return {"kind": cls.kind, "groups": groups}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        out: list[str] = []
        for k, g in enumerate(self.groups):
            out += (["-"] if k else []) + [cell(c) for c in g]
        return out


KINDS = (EqualSum,)
