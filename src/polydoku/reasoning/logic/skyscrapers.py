"""Skyscraper Pair: two skyscraper clues looking along the same row (or column) from both ends.

The highest value of the line is seen from both ends, and it splits the line: the cells
before it, read from one clue, must show that clue's count less one, and the cells after it,
read from the other clue, the other count less one. Each clue's own step (Skyscraper Clue)
reads its clue alone; together they allow fewer places for the highest value, and each cell
keeps only what a place both sides allow leaves it. Finders return the first step they see,
or None; none changes the board.
"""

from __future__ import annotations

from ...rules.outside import Skyscraper, skyline
from .board import Board, recall
from .step import Step, cell_list, make_step

NAME = "Skyscraper Pair"
_AHEAD = {"left": "right", "top": "bottom"}


def _pairs(board: Board) -> list[tuple[Skyscraper, Skyscraper]]:
    """Return the puzzle's skyscraper clues that face each other along one line."""
    lay = board.layout
    puzzle = lay.puzzle
    if puzzle is None:
        return []
    clues = {(r.side, r.index): r for r in puzzle.rules if isinstance(r, Skyscraper)}
    return [(a, clues[(_AHEAD[side], index)]) for (side, index), a in clues.items()
            if side in _AHEAD and (_AHEAD[side], index) in clues]


def _part(n: int, masks: list[int], count: int, floor: int) -> list[int] | None:
    """Return what each cell of one side of the highest value keeps, read from its clue
    (None when no filling shows `count`)."""
    if not masks:
        return [] if count == 0 else None
    keep = skyline(n, masks, count, floor, whole=False)
    return keep if keep[0] else None


def find_skyscraper_pair(board: Board) -> Step | None:
    """Return a step where two facing skyscraper clues allow the line's highest value only
    where both sides can show their counts, and a candidate no such split uses goes."""
    lay = board.layout
    pairs = recall(lay.memo, ("skyscraper pairs",), lambda: _pairs(board))
    if not pairs:
        return None
    geo = lay.problem.puzzle.geometry          # type: ignore[union-attr]
    n, floor = lay.size, 1 if geo.low == 0 else 0
    top = 1 << (n - 1)
    masks_all = board.value_masks()
    for a, b in pairs:
        cells = [geo.index(c) for c in a.line(n)]
        masks = [masks_all[i] for i in cells]
        keep = [0] * n
        places = []
        for p in range(n):
            if not masks[p] & top:
                continue
            before = _part(n, [m & ~top for m in masks[:p]], a.value - 1, floor)
            after = _part(n, [m & ~top for m in masks[p + 1:][::-1]], b.value - 1, floor)
            if before is None or after is None:
                continue
            places.append(cells[p])
            keep[p] |= top
            for j, k in enumerate(before):
                keep[j] |= k
            for j, k in enumerate(after):
                keep[n - 1 - j] |= k
        elim = board.losses({i: m & ~k for i, m, k in zip(cells, masks, keep) if m & ~k})
        if elim:
            where = "in " + cell_list(lay, places, "or") if places else "no place"
            return make_step(
                lay, NAME,
                f"the skyscrapers {a.value} {a.place()} and {b.value} {b.place()} both see "
                f"the {geo.real(n)}, which splits the line: the cells before it show "
                f"{a.value - 1} from one end and those after it {b.value - 1} from the other "
                f"end, which leaves the {geo.real(n)} only {where}",
                eliminations=elim, pattern=cells)
    return None
