"""Diagonal non-consecutive: two cells that touch at a corner do not hold consecutive values,
as the diagonal nonconsecutive constraint of Rangsk's variant solver
(github.com/dclamage/SudokuSolver, DiagonalNonconsecutiveConstraint)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Iterator

from ...model.geometry import cell_name
from ..base import GlobalRule
from ..globals import move_pairs

CORNERS = ((1, 1), (1, -1))


@dataclass(frozen=True)
class DiagonalNonConsecutive(GlobalRule):
    """Diagonally adjacent cells do not differ by exactly 1."""

    kind: ClassVar[str] = "diagonal-non-consecutive"
    any_shape: ClassVar[bool] = True
    any_count: ClassVar[bool] = True
    description: ClassVar[str] = "cells that touch at a corner do not hold consecutive values"
    any_values: ClassVar[bool] = True       # consecutive on any run of values alike
    aliases: ClassVar[tuple[str, ...]] = ("diagonal-nonconsecutive", "dnc",
                                          "diagonally-non-consecutive")
    phrases: ClassVar[tuple[str, ...]] = (
        r"diagonal(ly)?[- ](adjacent[- ])?non-?consecutive",
        r"cells? (that|which) touch (diagonally|at a corner)[^.]*(cannot|can't|may not)[^.]*consecutive",
    )

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        for a, b in move_pairs(CORNERS, geometry):
            if grid[a] and grid[b] and abs(grid[a] - grid[b]) == 1:
                yield (f"{cell_name(geometry.cell(a))}={geometry.real(grid[a])} and "
                       f"{cell_name(geometry.cell(b))}={geometry.real(grid[b])} touch at a "
                       f"corner and are consecutive ({self.kind})")

    def lower(self, b) -> None:
        for x, y in move_pairs(CORNERS, b.geometry):
            b.abs_diff_not(x, y, 1)


KINDS = (DiagonalNonConsecutive,)
