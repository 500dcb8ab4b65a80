"""Nabner lines: the values on the line all differ and no two of them are consecutive (any
two cells of the line, not only neighbours)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ..base import CellsRule, pair_support, values_at, where
from ..lines import random_line
from .pairwise import is_nabner, key_pairs, named_groups, pairs_key


def apart(a: int, b: int) -> bool:
    """Return whether two values may share a nabner line: they differ by 2 or more."""
    return abs(a - b) > 1


@dataclass(frozen=True)
class Nabner(CellsRule):
    """Any two values on the line differ by at least 2 (so they differ, and are never
    consecutive)."""

    kind: ClassVar[str] = "nabner"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = ("the values on the line all differ and no two of them are "
                                  "consecutive")
    aliases: ClassVar[tuple[str, ...]] = ("nabner-line", "nabnerline")
    min_cells: ClassVar[int] = 2
    line_style: ClassVar[str] = "nabner"
    drawn_colour: ClassVar[str] = "#E6C700"
    phrases: ClassVar[tuple[str, ...]] = (r"\bnabner",)
    iss: ClassVar[str] = "PairX"         # ISS's relation between every two cells, "2 apart"
    any_values: ClassVar[bool] = True   # "2 or more apart" on any run of values alike

    @classmethod
    def read_cells(cls, data, g: Geometry):
        cells = super().read_cells(data, g)
        most = (g.nvalues + 1) // 2
        if len(cells) > most:
            raise BadInput(f"field \"cells\": a nabner line of {len(cells)} cells cannot hold "
                           f"values 2 apart from {g.values_words()} (at most {most} cells)")
        return cells

    def pairs(self) -> Iterator[tuple[int, int]]:
        """Yield every pair (i, j) of line positions, i < j."""
        n = len(self.cells)
        for i in range(n):
            for j in range(i + 1, n):
                yield i, j

    def lower(self, b) -> None:
        xs = b.vars(self.cells)
        for i, j in self.pairs():
            b.relation(xs[i], xs[j], apart)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.cells)
        for i, j in self.pairs():
            a, c = vals[i], vals[j]
            if a and c and not apart(a, c):
                how = "repeat" if a == c else "are consecutive"
                yield (f"{cell_name(self.cells[i])}={geometry.real(a)} and "
                       f"{cell_name(self.cells[j])}={geometry.real(c)} "
                       f"{how} (nabner line at {where(self.cells)})")

    technique: ClassVar[str] = "Nabner Line"
    technique_score: ClassVar[int] = 30
    technique_level: ClassVar[str] = "Medium"

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Any two cells of the line: a candidate of one that every candidate of the other
        repeats or touches goes (a placed 5 rules out 4, 5 and 6 along the whole line)."""
        idx = [geometry.index(c) for c in self.cells]
        keep = [cands[i] for i in idx]
        for i, j in self.pairs():
            ki, kj = pair_support(keep[i], keep[j], apart)
            keep[i] &= ki
            keep[j] &= kj
        drop = {x: cands[x] & ~k for x, k in zip(idx, keep) if cands[x] & ~k}
        if not drop:
            return None
        return drop, (f"on the nabner line from {cell_name(self.cells[0])}, no two values "
                      f"repeat or are consecutive")

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        """A PairX item whose relation is "2 or more apart": a nabner line per group; another
        relation is the pairwise kind's (None)."""
        if not args or not is_nabner(key_pairs(args[0], n), n):
            return None
        return [{"kind": cls.kind, "cells": [cell(c) for c in group]}
                for group in named_groups(args[1:]) if len(group) > 1]

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        return self.iss_items(geometry.nvalues, cell)     # the key counts every value

    def iss_items(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        key = pairs_key(((a, b) for a in range(1, n + 1) for b in range(1, n + 1)
                         if apart(a, b)), n)
        return ["~".join(["PairX", key, "_Nabner", *(cell(c) for c in self.cells)])]

    @classmethod
    def sample(cls, rng, size: int) -> dict[str, Any]:
        return {"kind": cls.kind, "cells": random_line(rng, size, rng.randint(2, (size + 1) // 2))}


KINDS = (Nabner,)
