"""Rule checks on a grid, full or partial, straight from the geometry and the rules.

This is the ground truth that `verify` relies on: it never looks at the solver-side problem.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from .geometry import cell_name
from .puzzle import Puzzle


def violations(puzzle: Puzzle, grid: Sequence[int]) -> Iterator[str]:
    """Yield one sentence per broken rule in `grid` (0 = empty cell, ignored)."""
    g = puzzle.geometry
    for k, (unit, pick) in enumerate(zip(g.units, g.unit_getters)):
        values = pick(grid)
        empty = values.count(0)
        if len(set(values)) == len(values) - empty + (empty > 0):
            continue                  # the filled cells all differ: nothing to say
        seen: dict[int, int] = {}
        for i in unit:
            v = grid[i]
            if not v:
                continue
            if v in seen:
                yield (f"{cell_name(g.cell(seen[v]))} and {cell_name(g.cell(i))} both hold "
                       f"{puzzle.symbol(v)} ({g.unit_name(k)})")
            else:
                seen[v] = i
    for rule in puzzle.rules:
        yield from rule.violations(grid, g, puzzle.rules)


def conflicting_givens(puzzle: Puzzle) -> list[str]:
    """Return one sentence per rule that the givens alone break ("r1c1 and r1c5 both hold 3 (row 1)")."""
    return list(violations(puzzle, puzzle.givens))
