"""Forcing nets, the last resort: follow an assumption with singles and see where it leads.

Contradiction: if placing a candidate lets naked and hidden singles run into a cell or house with
no room, the candidate is false. Verity: if every candidate of a cell (or every place of a value
in a house) lets singles reach the same placement or elimination, that conclusion holds. This is
HoDoKu's "Forcing Net" (Extreme); the propagation is the core's (core/, the same singles,
over the same constraints), and the sentence is rebuilt with this package's own singles.

"Nested Forcing Net" (polydoku's, after Sudoku Explainer's nested forcing chains) does the same
with a stronger propagation inside each branch: besides singles, every two-candidate cell is
tried both ways, and a value whose singles fail is dropped, until nothing changes.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from typing import Sequence

from ...core import compile_problem, propagate
from .board import Board, values_of
from .singles import find_hidden_single, find_naked_single
from .step import Step, cell_list, make_step, value_list

NAME, NESTED = "Forcing Net", "Nested Forcing Net"
MAX_BRANCHES = 3


def _nest(cand: list[int], compiled, cells: list[int]) -> bool:
    """Narrow a branch further: drop each value of a two-candidate cell whose singles fail;
    return False when the branch itself fails."""
    changed = True
    while changed:
        changed = False
        for i in cells:
            c = cand[i]
            if c.bit_count() != 2:
                continue
            for bit in (c & -c, c & (c - 1)):
                trial = cand[:]
                trial[i] = bit
                if not propagate(trial, [i], compiled):
                    cand[i] = c ^ bit
                    if not propagate(cand, [i], compiled):
                        return False
                    changed = True
                    break
    return True


def _branch(board: Board, compiled, assume: Sequence[tuple[int, int]],
            nested: bool = False) -> list[int] | None:
    """Return the candidates after placing `assume` and propagating, or None on a contradiction."""
    cand = board.cand[:]
    problem = board.layout.problem
    if problem is not None and problem.aux:     # auxiliaries start open: the cells fix them
        cand += [(1 << d) - 1 for d in problem.aux]
    queue = [i for i in board.unsolved() if cand[i].bit_count() == 1]
    for cell, v in assume:
        if not cand[cell] >> (v - 1) & 1:
            return None
        cand[cell] = 1 << (v - 1)
        queue.append(cell)
    if not propagate(cand, queue, compiled):
        return None
    if nested and not _nest(cand, compiled, board.unsolved()):
        return None
    return cand


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
    """Return the first cells a branch fills, written "r1c2, r4c4, ..."."""
    shown = [board.layout.name(i) for i in trial_cells[:6]]
    return ", ".join(shown) + (", …" if len(trial_cells) > 6 else "")


def _compiled(board: Board):
    """Return the propagation core's compiled form of the board's problem."""
    problem = board.layout.problem
    if problem is None:
        raise ValueError("forcing nets need the layout's problem")
    return compile_problem(problem)


def _contradiction(board: Board, nested: bool) -> Step | None:
    """Return the first candidate whose branch fails, as a step, or None."""
    lay = board.layout
    compiled = _compiled(board)
    for cell in sorted(board.unsolved(), key=lambda i: board.cand[i].bit_count()):
        for v in values_of(board.cand[cell]):
            if _branch(board, compiled, [(cell, v)], nested) is not None:
                continue
            if nested:
                return make_step(lay, NESTED, f"if {lay.name(cell)} were {lay.sym(v)}, singles, "
                                 f"with every two-candidate cell tried both ways, would run "
                                 f"into a contradiction", eliminations=[(cell, v)], pattern=[cell])
            why, filled = _explain(board, cell, v)
            detail = f" (filling {_sketch(board, filled)})" if filled else ""
            return make_step(lay, NAME, f"if {lay.name(cell)} were {lay.sym(v)}, singles would "
                             f"follow{detail} until {why}", eliminations=[(cell, v)],
                             pattern=[cell, *filled])
    return None


def find_contradiction(board: Board) -> Step | None:
    """Return a Forcing Net contradiction: a candidate whose singles break the rules."""
    return _contradiction(board, nested=False)


def find_nested_contradiction(board: Board) -> Step | None:
    """Return a Nested Forcing Net contradiction (singles plus two-candidate trials)."""
    return _contradiction(board, nested=True)


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


def _verity_step(board: Board, assumptions: list[tuple[int, int]], what: str,
                 nested: bool) -> Step | None:
    """Return a verity step when every assumption's branch agrees on something, or None."""
    lay = board.layout
    compiled = _compiled(board)
    branches = [_branch(board, compiled, [a], nested) for a in assumptions]
    kept = [b for b in branches if b is not None]
    if len(kept) < len(branches):
        return None
    places, elims = _common(board, kept)
    if not places and not elims:
        return None
    how = "singles (with two-candidate cells tried both ways)" if nested else "singles"
    return make_step(lay, NESTED if nested else NAME,
                     f"{what}, and every choice leads by {how} to the same result",
                     placements=places, eliminations=[] if places else elims,
                     pattern_candidates=assumptions)


def _verity(board: Board, nested: bool) -> Step | None:
    """Return a verity over a cell's candidates or a value's places in a house, or None."""
    lay = board.layout
    for cell in sorted(board.unsolved(), key=lambda i: board.cand[i].bit_count()):
        values = values_of(board.cand[cell])
        if 2 <= len(values) <= MAX_BRANCHES:
            step = _verity_step(board, [(cell, v) for v in values],
                                f"{lay.name(cell)} is {value_list(lay, values, ' or ')}", nested)
            if step:
                return step
    for house in lay.houses:
        for v in range(1, lay.size + 1):
            places = board.places(house, v)
            if 2 <= len(places) <= MAX_BRANCHES:
                step = _verity_step(board, [(i, v) for i in places],
                                    f"{lay.sym(v)} goes in {cell_list(lay, places, 'or')} "
                                    f"({house.name})", nested)
                if step:
                    return step
    return None


def find_verity(board: Board) -> Step | None:
    """Return a Forcing Net verity over a cell's candidates or a value's places in a house."""
    return _verity(board, nested=False)


def find_nested_verity(board: Board) -> Step | None:
    """Return a Nested Forcing Net verity (singles plus two-candidate trials in each branch)."""
    return _verity(board, nested=True)
