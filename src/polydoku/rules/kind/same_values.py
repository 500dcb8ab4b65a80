"""Same-value sets, as ISS's `SameValues`: groups of cells of one size that all hold the same
values, as many times each (a set of single cells is a clone of one cell; two cages of one
size with the same digits in any order)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.rules import Rule, Shape, ShapeKind
from .. import params
from ..base import flags_where, values_at, where

MAX_GROUPS = 64


@dataclass(frozen=True)
class SameValues(Rule):
    """Every group holds the same values, each as often."""

    groups: tuple[tuple[Cell, ...], ...]

    kind: ClassVar[str] = "same-values"
    iss: ClassVar[str] = "SameValues"
    description: ClassVar[str] = "groups of cells of one size hold the same values, in any order"
    aliases: ClassVar[tuple[str, ...]] = ("samevalues", "same-value-sets", "same-digits")
    phrases: ClassVar[tuple[str, ...]] = (
        r"(?:contain|hold) the same (?:set of )?(?:digits|values)(?: in (?:any|some) order)?",)

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "SameValues":
        raw = data.get("groups")
        if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_GROUPS:
            raise BadInput(f"field \"groups\" must be a list of 2..{MAX_GROUPS} lists of cells")
        groups = tuple(params.cell_list({"groups": g}, "groups", geometry) for g in raw)
        if len({len(g) for g in groups}) > 1:
            raise BadInput("field \"groups\": the groups differ in size "
                           f"({', '.join(str(len(g)) for g in groups)} cells)")
        return cls(groups)

    any_values: ClassVar[bool] = True       # equal values on any run of values alike

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "groups": [params.names(g) for g in self.groups]}

    def footprint(self) -> tuple[Cell, ...]:
        return tuple(dict.fromkeys(c for g in self.groups for c in g))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        full = [(g, Counter(vals)) for g in self.groups
                if 0 not in (vals := values_at(grid, geometry, g))]
        for g, held in full[1:]:
            if held != full[0][1]:
                yield (f"the cells at {where(g)} hold other values than those at "
                       f"{where(full[0][0])} (same values)")

    def lower(self, b) -> None:
        first = b.vars(self.groups[0])
        if len(first) == 1:                     # single cells: each equals the first
            for group in self.groups[1:]:
                b.relation(first[0], b.var(group[0]), int.__eq__)
            return
        for v in range(1, b.size + 1):
            mine = flags_where(b, first, v.__eq__, f"is {v}")
            for group in self.groups[1:]:
                theirs = flags_where(b, b.vars(group), v.__eq__, f"is {v}")
                b.linear([*mine, *theirs], [1] * len(mine) + [-1] * len(theirs), 0)

    def describe(self, geometry: Geometry) -> str:
        return f"same values in {len(self.groups)} groups at {cell_name(self.groups[0][0])}"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [Shape(ShapeKind.CAGE, tuple(geometry.index(c) for c in g), "≡", "same-values")
                for g in self.groups]

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        k, count = rng.randint(1, 3), rng.randint(2, 3)
        picked = rng.sample(range(size * size), k * count)
        names = [f"r{i // size + 1}c{i % size + 1}" for i in picked]
        return {"kind": cls.kind, "groups": [names[j * k:(j + 1) * k] for j in range(count)]}

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        if len(args) < 3 or not args[0].isdigit() or not 2 <= int(args[0]) <= len(args) - 1 \
                or (len(args) - 1) % int(args[0]):
            raise BadInput("a number of sets and cells that many sets divide are expected")
        cells, k = [cell(a) for a in args[1:]], (len(args) - 1) // int(args[0])
        return {"kind": cls.kind, "groups": [cells[j:j + k] for j in range(0, len(cells), k)]}

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [str(len(self.groups)), *(cell(c) for g in self.groups for c in g)]


KINDS = (SameValues,)
