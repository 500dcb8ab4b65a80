"""Dutch flatmates: every middle value (5 on a 9x9) has a 1 directly above it or the largest
value (9) directly below it, or both (ISS's DutchFlatmates; its solver takes the middle value
as V/2 rounded up of the grid's V values, which this kind does on every grid, V = 9 on ISS's
7x7 of nine values as well)."""

from __future__ import annotations

from dataclasses import dataclass
from ...errors import BadInput
from typing import Any, Callable, ClassVar, Iterator

from ...model.geometry import Cell, Geometry, cell_name
from ..base import GlobalRule


@dataclass(frozen=True)
class DutchFlatmates(GlobalRule):
    """Each middle value has a 1 right above it or an N right below it."""

    kind: ClassVar[str] = "dutch-flatmates"
    iss: ClassVar[str] = "DutchFlatmates"
    description: ClassVar[str] = ("every middle value (5 on a 9x9) has a 1 directly above it or "
                                  "the largest value directly below it")
    aliases: ClassVar[tuple[str, ...]] = ("flatmates", "dutch-flat-mates")
    phrases: ClassVar[tuple[str, ...]] = (r"dutch flat ?mates?",)
    any_count: ClassVar[bool] = True        # the middle and the largest of the grid's values

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        n, nv = geometry.size, geometry.nvalues
        mid = (nv + 1) // 2
        for i, v in enumerate(grid):
            if v != mid:
                continue
            above = grid[i - n] if i >= n else None
            below = grid[i + n] if i + n < n * n else None
            if 0 in (above, below) or above == 1 or below == nv:
                continue          # an empty neighbour may still complete it
            yield (f"{cell_name(geometry.cell(i))}={mid} has no 1 directly above it and no "
                   f"{nv} directly below it ({self.kind})")

    def lower(self, b) -> None:
        """A middle value on the top row needs an N below, on the bottom row a 1 above; between,
        an auxiliary per cell says which holds (1: not the middle value; 2: a 1 above; 3: no 1
        above, so a V below), fixed by the grid."""
        n = b.size
        nv = b.nvalues
        mid = (nv + 1) // 2
        for i in range(n * n):
            above, below = (i - n if i >= n else None), (i + n if i + n < n * n else None)
            if above is None and below is not None:
                b.relation(i, below, lambda x, y: x != mid or y == nv)
            elif below is None and above is not None:
                b.relation(above, i, lambda y, x: x != mid or y == 1)
            elif above is not None and below is not None:
                why = b.new_var(3, f"{cell_name(divmod(i, n))} flatmate")
                b.relation(why, i, lambda w, x: (w == 1) == (x != mid))
                b.relation(why, above, lambda w, y: w == 1 or (w == 2) == (y == 1))
                b.relation(why, below, lambda w, y: w != 3 or y == nv)

    @classmethod
    def read_iss(cls, args: list[str], cell: Callable[[str], str]) -> dict[str, Any]:
        return {"kind": cls.kind}

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        if geometry.low != 1 or geometry.nvalues != 9:
            raise BadInput(f"ISS has Dutch flatmates on the values 1..9 only, not "
                           f"{geometry.values_words()}")
        return self.iss_items(geometry.size, cell)

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return []


KINDS = (DutchFlatmates,)
