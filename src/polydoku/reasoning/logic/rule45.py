"""The 45 rule of killer sudoku: a house holds 1..N once, so it adds up to N(N+1)/2 (45 on
9x9). With the killer cages that lie inside a house, the house's other cells (its innies) add
up to the rest; with the cages that cover a house and stick out of it, the cells sticking out
(its outies) add up to the excess. Innies share the house, so they differ; outies are treated
as a cage only when they see each other (one cell, or cells of one house). Either way the
virtual cage's sets of values are worked out as a killer cage's are (`rules.cells.cage_sets`).
Cages must not overlap (otherwise the step stays quiet). Finders return the first step they
see, or None; none changes the board.
"""

from __future__ import annotations

from ...rules.cells import Killer, cage_sets, sets_words
from .board import Board
from .step import Step, cell_list, make_step

NAME = "45 Rule"
MAX_CELLS = 5               # innies or outies beyond this many say too little


def _cages(board: Board) -> list[tuple[frozenset[int], int]] | None:
    """Return the puzzle's killer cages with sums as (cells, sum), or None when there are none
    or two of them overlap."""
    lay = board.layout
    puzzle = lay.problem.puzzle if lay.problem is not None else None
    if puzzle is None:
        return None
    g = puzzle.geometry
    cages = [(frozenset(g.index(c) for c in r.cells), r.total) for r in puzzle.rules
             if isinstance(r, Killer) and r.total is not None]
    seen: set[int] = set()
    for cells, _ in cages:
        if seen & cells:
            return None
        seen |= cells
    return cages or None


def find_rule45(board: Board) -> Step | None:
    """Return the first 45-rule step (innies, then outies, house by house) that removes a
    candidate."""
    cages = _cages(board)
    if cages is None:
        return None
    lay = board.layout
    n = lay.size
    whole = n * (n + 1) // 2
    cands = board.value_masks()
    for house in lay.houses:
        cells = set(house.cells)
        inside = [(c, t) for c, t in cages if c <= cells]
        touching = [(c, t) for c, t in cages if c & cells]
        innies = sorted(cells.difference(*[c for c, _ in inside]))
        if 0 < len(innies) <= MAX_CELLS and not any(set(innies) == c for c, _ in cages):
            total = whole - sum(t for _, t in inside)
            what = (f"the cages inside {house.name} add up to {whole - total}, so its other "
                    f"cells {cell_list(lay, innies)} add up to {total}")
            step = _virtual_cage(board, cands, innies, total, what)
            if step:
                return step
        covered = set().union(*[c for c, _ in touching]) if touching else set()
        outies = sorted(covered - cells)
        if cells <= covered and 0 < len(outies) <= MAX_CELLS and _see_each_other(lay, outies) \
                and not any(set(outies) == c for c, _ in cages):
            total = sum(t for _, t in touching) - whole
            what = (f"the cages covering {house.name} add up to {total + whole}, so the cells "
                    f"sticking out, {cell_list(lay, outies)}, add up to {total}")
            step = _virtual_cage(board, cands, outies, total, what)
            if step:
                return step
    return None


def _see_each_other(lay, cells: list[int]) -> bool:
    """Return whether the cells pairwise share a house (so they hold different values)."""
    return all(lay.peers[a] >> b & 1 for i, a in enumerate(cells) for b in cells[i + 1:])


def _virtual_cage(board: Board, cands: list[int], cells: list[int], total: int,
                  what: str) -> Step | None:
    """Return the step of a virtual cage (innies or outies), or None when it removes nothing."""
    found = cage_sets(board.layout.size, [cands[i] for i in cells], total)
    if found is None:
        return None
    keep, fits = found
    elim = board.losses({i: cands[i] & ~kept for i, kept in zip(cells, keep)})
    if not elim:
        return None
    return make_step(board.layout, NAME, f"{what}, and {_they(fits, len(cells))}",
                     eliminations=elim, pattern=cells)


def _they(fits: list[tuple[int, ...]], k: int) -> str:
    """Return the sets sentence for cells that are not a cage ("it is 7", "they can only be
    1+2")."""
    if not fits:
        return "no set of different values fits them"
    if k == 1 and len(fits) == 1:
        return f"it is {fits[0][0]}"
    return ("it " if k == 1 else "they ") + sets_words(fits)
