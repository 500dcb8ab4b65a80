"""Doppelganger: on an NxN grid of the values 0..N, every row, column and box holds the 0 and
all but one of 1..N; no two houses of one sort miss the same value, and at each 0 the values
its row, column and box miss all differ (ISS's Doppelganger)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, ClassVar, Iterator

from ...model.geometry import Geometry, cell_name
from ..base import GlobalRule

SORTS = ("row", "column", "box")


def _houses(geometry: Geometry) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Return the houses of each sort (rows, columns, boxes or regions)."""
    n = geometry.size
    units = geometry.units
    return {"row": units[:n], "column": units[n:2 * n], "box": units[2 * n:]}


def _missing(geometry: Geometry, grid, house) -> int | None:
    """Return the value index a complete house misses, None while it has an empty cell."""
    values = {grid[i] for i in house}
    if 0 in values:
        return None
    left = set(range(2, geometry.nvalues + 1)) - values
    return min(left) if len(left) == 1 else -1


@dataclass(frozen=True)
class Doppelganger(GlobalRule):
    """Each house misses one of 1..N, a different one per house of a sort and per 0."""

    kind: ClassVar[str] = "doppelganger"
    iss: ClassVar[str] = "Doppelganger"
    description: ClassVar[str] = ("on a grid of 0..N, each house holds 0 and misses one of 1..N, "
                                  "a different one per house of a sort, and at each 0 its "
                                  "row, column and box miss different values")
    aliases: ClassVar[tuple[str, ...]] = ("doppelgänger",)
    phrases: ClassVar[tuple[str, ...]] = (r"doppelg(a|ä)nger",)
    any_values: ClassVar[bool] = True       # it holds on 0..N only, checked on reading
    any_count: ClassVar[bool] = True

    def refusal(self, geometry: Geometry) -> str | None:
        n = geometry.size
        if geometry.low != 0 or geometry.nvalues != n + 1 or len(geometry.boxes) != n:
            return (f"doppelganger is a rule of an NxN grid of boxes holding 0..N "
                    f"(0..{n} here), not {geometry.values_words()}")
        return None

    @classmethod
    def sample(cls, rng: Any, size: int) -> str | None:
        return None                 # no grid of 1..N takes it (tests build its own)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        missed: dict[str, list[int | None]] = {}
        for sort, houses in _houses(geometry).items():
            missed[sort] = [_missing(geometry, grid, h) for h in houses]
            for k, m in enumerate(missed[sort]):
                if m == -1:
                    yield f"{sort} {k + 1} holds no 0 ({self.kind})"
            done = [m for m in missed[sort] if m not in (None, -1)]
            if len(set(done)) != len(done):
                yield f"two {sort}s miss the same value ({self.kind})"
        region_of = geometry.region_of
        for i, v in enumerate(grid):
            if v != 1:                  # index 1 is the value 0
                continue
            r, c = geometry.cell(i)
            at = [missed["row"][r], missed["column"][c], missed["box"][region_of[i]]]
            known = [m for m in at if m not in (None, -1)]
            if len(set(known)) != len(known):
                yield (f"the 0 at {cell_name((r, c))} has its row, column and box missing the "
                       f"same value ({self.kind})")

    def lower(self, b) -> None:
        """Per house, an auxiliary names the value of 1..N it misses (aux j: index j + 1),
        the houses of one sort missing different values; its cells never hold that value,
        so its N cells of N + 1 values hold every other one, 0 among them. At each cell, a
        0 there asks its houses' missing values to differ."""
        n, nv = b.size, b.nvalues
        g = b.geometry
        miss: dict[str, list[int]] = {}
        for sort, houses in _houses(g).items():
            miss[sort] = [b.new_var(n, f"{sort} {k + 1} misses") for k in range(len(houses))]
            b.all_different(miss[sort])
            for house, m in zip(houses, miss[sort]):
                for x in house:
                    for j in range(1, n + 1):
                        b.nogood(x, j + 1, m, j)
        region_of = g.region_of
        values = range(1, nv + 1)
        pairs = [(v, a, c) for v in values for a in range(1, n + 1) for c in range(1, n + 1)
                 if v != 1 or a != c]
        for x in range(g.ncells):
            r, c = g.cell(x)
            at = (miss["row"][r], miss["column"][c], miss["box"][region_of[x]])
            for p, q in combinations(at, 2):
                b.table((x, p, q), pairs)


KINDS = (Doppelganger,)
