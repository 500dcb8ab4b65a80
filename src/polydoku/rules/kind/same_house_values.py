"""Same house values: on a grid of more values than a house has cells, every house of the
largest size (rows, columns, boxes, regions) holds the same set of values (ISS's
RegionSameValues). On a grid whose houses hold every value it says nothing more."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator

from ...model.geometry import Geometry
from ..base import GlobalRule


def largest_houses(geometry: Geometry) -> list[tuple[int, ...]]:
    """Return the houses of the largest size (a row's, or a box's when boxes are larger)."""
    k = max(map(len, geometry.units))
    return [u for u in geometry.units if len(u) == k]


@dataclass(frozen=True)
class SameHouseValues(GlobalRule):
    """Every house of the largest size holds the same values."""

    kind: ClassVar[str] = "same-house-values"
    any_shape: ClassVar[bool] = True
    iss: ClassVar[str] = "RegionSameValues"
    description: ClassVar[str] = "every house of the largest size holds the same set of values"
    aliases: ClassVar[tuple[str, ...]] = ("region-same-values", "same-region-values")
    phrases: ClassVar[tuple[str, ...]] = (
        r"(every|each|all) (row|column|box|region|house)s?[^.]*contains? the same (set of )?"
        r"(values|digits)",
    )
    any_values: ClassVar[bool] = True       # it reads only which values a house holds
    any_count: ClassVar[bool] = True

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        first: tuple[frozenset[int], int] | None = None
        for k, unit in enumerate(geometry.units):
            if unit not in largest_houses(geometry):
                continue
            values = frozenset(grid[i] for i in unit)
            if 0 in values:
                continue
            if first is None:
                first = (values, k)
            elif values != first[0]:
                yield (f"{geometry.unit_name(k)} holds other values than "
                       f"{geometry.unit_name(first[1])} ({self.kind})")
                return

    def lower(self, b) -> None:
        """One flag per value (2: the houses hold it, 1: they do not): a cell of a largest
        house holds only flagged values, and exactly as many values are flagged as such a
        house has cells, so every one of them holds the flagged values (and the grid fixes
        the flags: one grid is one solution)."""
        houses = largest_houses(b.geometry)
        k, nv = len(houses[0]), b.nvalues
        if k >= nv:
            return                          # every such house holds every value already
        flags = [b.new_var(2, f"value {v} held") for v in range(1, nv + 1)]
        for x in sorted({i for house in houses for i in house}):
            for v, flag in enumerate(flags, start=1):
                b.nogood(x, v, flag, 1)
        b.linear(flags, [1] * nv, nv + k)


KINDS = (SameHouseValues,)
