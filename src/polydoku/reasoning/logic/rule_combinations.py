"""Clue Combinations for the rule kinds with logic of their own: a little killer, an arrow, a
line filled all at once.

A kind's own step (`Rule.deduce`: a little killer's bounds, an arrow's sums) reads its clue
alone, with repeats allowed. A solver then fills the clue's cells together, keeping apart
what the rules keep apart between them (different values where two of them share a house, a
dot's pairs): a little killer's three cells in one box cannot all be 1. Each way of filling
them is searched with the kind's own step as the filter, and a candidate no way uses goes.
The step is "Clue Combinations" (propagation.py does the same for the clues no kind reads).
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from functools import partial
from typing import Any, cast

from ...model.rules import Rule
from .board import Board, recall, remember
from .clue_filters import Clue
from .propagation import COMBINATIONS, _inner_exclusions, _joint_support, _OutOfNodes
from .step import Step, cell_list, make_step

MAX_CELLS = 12          # longer clues are left to their own step (the search would be long)


class _RuleFilter:
    """A rule's own logic (`Rule.deduce`) as a filter over its cells' candidates, the rest of
    the board held at `masks`; a full filling is also checked against the rule itself."""

    def __init__(self, rule, puzzle, cells: list[int], masks: list[int]):
        self.rule, self.puzzle, self.cells, self.masks = rule, puzzle, cells, masks

    def support(self, doms: list[int]) -> list[int] | None:
        """Return what each cell keeps once the rule's logic has run, None when nothing."""
        cands = list(self.masks)
        for i, m in zip(self.cells, doms):
            cands[i] = m
        geometry = self.puzzle.geometry
        if all(not m & (m - 1) for m in doms):
            grid = [0] * len(cands)
            for i, m in zip(self.cells, doms):
                grid[i] = m.bit_length()
            broken = next(iter(self.rule.violations(grid, geometry, self.puzzle.rules)), None)
            return None if broken else doms
        found = self.rule.deduce(geometry, cands)
        if found is None:
            return doms
        drop = found[0]
        keep = [m & ~drop.get(i, 0) for i, m in zip(self.cells, doms)]
        return None if not all(keep) else keep


class _RuleClue(Clue):
    """One rule taken as a clue: its cells and its own logic as the only filter."""

    def __init__(self, rule, puzzle, cells: list[int], masks: list[int]):
        self.label = rule.describe(puzzle.geometry)
        self.cells = sorted(cells)
        # a filter as the native engine's are (`support`), read by `settle`
        self.filters = [(tuple(self.cells),
                         cast(Any, _RuleFilter(rule, puzzle, self.cells, masks)))]
        self.aux: dict[int, int] = {}


def _rules(board: Board) -> list[tuple[Rule, list[int]]]:
    """Return the puzzle's rules with logic of their own and their cells (remembered)."""
    lay = board.layout
    puzzle = lay.puzzle

    def make() -> list[tuple[Rule, list[int]]]:
        if puzzle is None:
            return []
        out: list[tuple[Rule, list[int]]] = []
        for rule in puzzle.rules:
            if not rule.technique:
                continue
            cells = sorted({puzzle.geometry.index(c) for c in rule.logic_cells(puzzle.geometry)})
            if 2 <= len(cells) <= MAX_CELLS and _inner_exclusions(lay, cells):
                out.append((rule, cells))
        return out
    return recall(lay.memo, ("rule combinations",), make)


def find_rule_combinations(board: Board) -> Step | None:
    """Return the eliminations of the first rule of a kind with its own logic whose cells,
    filled all at once with what the rules keep apart between them, cannot use some
    candidate."""
    lay = board.layout
    puzzle = lay.puzzle
    if puzzle is None:
        return None
    masks = board.value_masks()
    n = lay.size
    for k, (rule, cells) in enumerate(_rules(board)):
        key = ("rule combinations", k, tuple(masks[v] for v in cells))
        clue = _RuleClue(rule, puzzle, cells, masks)
        try:
            dom = recall(lay.memo, key, partial(_joint_support, clue, masks, lay.conflicts, n))
        except _OutOfNodes:
            remember(lay.memo, key, {v: masks[v] for v in cells})
            continue
        if dom is None:
            continue
        elim = board.losses({v: ~dom[v] for v in cells})
        if elim:
            return make_step(lay, COMBINATIONS,
                             f"the {clue.label} on {cell_list(lay, cells)} can be filled only "
                             f"in ways that keep apart what the rules keep apart (different "
                             f"values where its cells see each other), and none of them uses "
                             f"these", eliminations=elim, pattern=cells)
    return None
