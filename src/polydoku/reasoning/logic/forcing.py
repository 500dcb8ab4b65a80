"""Forcing nets, the last resort: follow an assumption with singles and see where it leads.

Contradiction: if placing a candidate lets naked and hidden singles run into a cell or house with
no room, the candidate is false. Verity: if every candidate of a cell (or every place of a value
in a house) lets singles reach the same placement or elimination, that conclusion holds. This is
HoDoKu's "Forcing Net" (Extreme); the propagation is the native engine's (the same singles,
over the same constraints), and the sentence is rebuilt with this package's own singles.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from typing import Sequence

from ...engines.native import compile_problem, propagate
from .board import Board, values_of
from .singles import find_hidden_single, find_naked_single
from .step import Step, cell_list, make_step, value_list

NAME = "Forcing Net"
MAX_BRANCHES = 3


def _branch(board: Board, compiled, assume: Sequence[tuple[int, int]]) -> list[int] | None:
    """Return the candidates after placing `assume` and running singles, or None on a contradiction."""
    cand = board.cand[:]
    queue = [i for i in board.unsolved() if cand[i].bit_count() == 1]
    for cell, v in assume:
        if not cand[cell] >> (v - 1) & 1:
            return None
        cand[cell] = 1 << (v - 1)
        queue.append(cell)
    return cand if propagate(cand, queue, compiled) else None


def _explain(board: Board, cell: int, value: int) -> tuple[str, list[int]]:
    """Return how singles reach a contradiction after placing value in cell, and the cells they fill."""
    lay = board.layout
    trial = board.copy()
    trial.place(cell, value)
    filled: list[int] = []
    for _ in range(lay.ncells):
        why = trial.contradiction()
        if why:
            return why, filled
        step = find_naked_single(trial) or find_hidden_single(trial)
        if step is None:
            break
        (i, v), = step.placements
        trial.place(i, v)
        filled.append(i)
    return "the rules break", filled


def _sketch(board: Board, trial_cells: list[int]) -> str:
    """Return the first singles of a branch, written "r1c2=3, r4c4=1, ..."."""
    lay = board.layout
    shown = [f"{lay.name(i)}" for i in trial_cells[:6]]
    return ", ".join(shown) + (", …" if len(trial_cells) > 6 else "")


def find_contradiction(board: Board) -> Step | None:
    """Return a Forcing Net contradiction: a candidate whose singles break the rules."""
    lay = board.layout
    compiled = compile_problem(lay.problem)
    for cell in sorted(board.unsolved(), key=lambda i: board.cand[i].bit_count()):
        for v in values_of(board.cand[cell]):
            if _branch(board, compiled, [(cell, v)]) is not None:
                continue
            why, filled = _explain(board, cell, v)
            detail = f" (filling {_sketch(board, filled)})" if filled else ""
            return make_step(lay, NAME, f"if {lay.name(cell)} were {lay.sym(v)}, singles would "
                             f"follow{detail} until {why}", eliminations=[(cell, v)],
                             pattern=[cell, *filled])
    return None


def _common(board: Board, branches: list[list[int]]) -> tuple[list, list]:
    """Return the placements and eliminations every branch agrees on."""
    places, elims = [], []
    for i in board.unsolved():
        union = 0
        for b in branches:
            union |= b[i]
        if union.bit_count() == 1 and board.cand[i] != union:
            places.append((i, union.bit_length()))
        else:
            elims += [(i, v) for v in values_of(board.cand[i] & ~union)]
    return places, elims


def _verity(board: Board, assumptions: list[tuple[int, int]], what: str) -> Step | None:
    """Return a verity step when every assumption's singles agree on something, or None."""
    lay = board.layout
    compiled = compile_problem(lay.problem)
    branches = [_branch(board, compiled, [a]) for a in assumptions]
    if any(b is None for b in branches):
        return None
    places, elims = _common(board, branches)
    if not places and not elims:
        return None
    return make_step(lay, NAME, f"{what}, and every choice leads by singles to the same result",
                     placements=places, eliminations=[] if places else elims,
                     pattern_candidates=assumptions)


def find_verity(board: Board) -> Step | None:
    """Return a Forcing Net verity over a cell's candidates or a value's places in a house."""
    lay = board.layout
    for cell in sorted(board.unsolved(), key=lambda i: board.cand[i].bit_count()):
        values = values_of(board.cand[cell])
        if 2 <= len(values) <= MAX_BRANCHES:
            step = _verity(board, [(cell, v) for v in values],
                           f"{lay.name(cell)} is {value_list(lay, values, ' or ')}")
            if step:
                return step
    for house in lay.houses:
        for v in range(1, lay.size + 1):
            places = board.places(house, v)
            if 2 <= len(places) <= MAX_BRANCHES:
                step = _verity(board, [(i, v) for i in places],
                               f"{lay.sym(v)} goes in {cell_list(lay, places, 'or')} "
                               f"({house.name})")
                if step:
                    return step
    return None
