"""Verify: an independent check of a complete grid against a puzzle (givens, units, rules).

It reads only the puzzle model; it never looks at the problem an engine solved, nor at the
engine, so a wrong encoding cannot hide a wrong answer.
"""

from __future__ import annotations

from typing import Sequence

from .model import Puzzle, cell_name, violations


def grid_problems(puzzle: Puzzle, grid: Sequence[int]) -> list[str]:
    """Return every reason why `grid` is not a solution of `puzzle` (empty when it is one)."""
    g = puzzle.geometry
    if len(grid) != g.ncells:
        return [f"grid has {len(grid)} cells, expected {g.ncells}"]
    if (set(map(type, grid)) == {int} and 1 <= min(grid) and max(grid) <= g.nvalues
            and all(v == w for v, w in zip(puzzle.givens, grid) if v)):
        return list(violations(puzzle, grid))          # the values are right: check the rules
    out = []
    for i, v in enumerate(grid):
        if not (isinstance(v, int) and 1 <= v <= g.nvalues):
            out.append(f"{cell_name(g.cell(i))} holds {v!r}, not a value in 1..{g.nvalues}")
        elif puzzle.givens[i] and puzzle.givens[i] != v:
            out.append(f"{cell_name(g.cell(i))} holds {puzzle.symbol(v)} but the given is "
                       f"{puzzle.symbol(puzzle.givens[i])}")
    if out:
        return out
    return list(violations(puzzle, grid))


def is_solution(puzzle: Puzzle, grid: Sequence[int]) -> bool:
    """Return whether `grid` is a complete, rule-abiding grid that keeps the givens."""
    return not grid_problems(puzzle, grid)
