"""Clue Unit Overlap: a value a clue cannot do without, claimed for one house.

A clue (a sum, a table, or a rule kind with logic of its own: an arrow, a little killer, a
whispers or thermometer line) may have no way to fill its cells without some value: an arrow
of 3 on two cells of one box is 1+2, a short whispers line in one box needs a 9. When the
clue's places for that value all lie in one house, the value is there, and the house's other
cells lose it (Renban Claiming and Cage Unit Overlap are the cases a solver reads off the
clue's sets; this one asks the clue filled at once, as Clue Combinations does, with the value
left out). Only a value whose claim would remove something is tried. Finders return the first
step they see, or None; none changes the board.
"""

from __future__ import annotations

from functools import partial

from .board import Board, recall
from .clue_filters import Clue, clues_of
from .propagation import _joint_support, _OutOfNodes
from .rule_combinations import _RuleClue, _rules
from .step import Step, cell_list, make_step

NAME = "Clue Unit Overlap"


def _needs(clue: Clue, masks: list[int], conflicts, n: int, v: int) -> bool:
    """Return whether every way to fill the clue's cells (with what the rules keep apart
    between them) uses v: with v taken from them, none is left (False when the search is
    cut short)."""
    bit = 1 << (v - 1)
    trial = list(masks)
    for i in clue.cells:
        trial[i] &= ~bit
        if not trial[i]:
            return True         # a cell that can hold nothing else
    try:
        return _joint_support(clue, trial, conflicts, n, any_one=True) is None
    except _OutOfNodes:
        return False


def _all_clues(board: Board, masks: list[int]) -> list[tuple[str, Clue]]:
    """Return the clues no technique reads and the rule kinds with logic of their own, each
    with a key for the memory."""
    lay = board.layout
    puzzle = lay.puzzle
    out: list[tuple[str, Clue]] = [(f"c{k}", c) for k, c in enumerate(clues_of(lay))]
    if puzzle is not None:
        out += [(f"r{k}", _RuleClue(rule, puzzle, cells, masks))
                for k, (rule, cells) in enumerate(_rules(board))]
    return out


def find_clue_unit_overlap(board: Board) -> Step | None:
    """Return a step where a clue needs a value whose places among its cells all lie in one
    house, and that house's other cells lose it."""
    lay = board.layout
    if lay.is_classic:
        return None
    masks = board.value_masks()
    n = lay.size
    houses = lay.houses
    for key, clue in _all_clues(board, masks):
        cells = clue.cells
        for v in range(1, n + 1):
            bit = 1 << (v - 1)
            if any(board.value[i] == v for i in cells):
                continue
            places = [i for i in cells if masks[i] & bit]
            if not places:
                continue
            pmask = sum(1 << i for i in places)
            for h in houses:
                if pmask & ~h.mask:
                    continue
                others = [i for i in h.cells if not pmask >> i & 1 and not board.value[i]
                          and masks[i] & bit]
                if not others:
                    continue
                memo_key = ("needs", key, v, tuple(masks[i] for i in cells))
                if not recall(lay.memo, memo_key,
                              partial(_needs, clue, masks, lay.conflicts, n, v)):
                    break
                label = clue.label or "a clue"
                return make_step(
                    lay, NAME,
                    f"{label} on {cell_list(lay, cells)} cannot be filled without "
                    f"{lay.sym(v)} (with what the rules keep apart between its cells), which "
                    f"it can hold only in {cell_list(lay, places)}, all in {h.name}",
                    eliminations=[(i, v) for i in others], pattern=cells,
                    pattern_candidates=[(i, v) for i in places], houses=[h.name])
    return None
