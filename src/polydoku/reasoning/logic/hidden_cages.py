"""Hidden cages and cage splitting: sums of known total over cells no clue covers as a whole.

The 45 rule leaves equations over a house's cells (rule45.py). When one of them adds cells
with the same sign only (the innies of a house, or the outies of the cages covering it), those
cells are a *hidden cage*: a known total over cells with no cage drawn round them. When they
all see one another they hold different values, and the sets of different values that make the
total say what each can hold, however many cells there are (the 45 rule's own search stops at
six open cells). And a hidden cage lying wholly inside a cage, or holding one wholly, *splits*
it: the cage's other cells (or the hidden cage's) add up to the difference ("Cage Splitting":
row 1's innies r1c1..r1c3 add up to 10; the cage r1c1..r2c2 of 21 holds them, so r2c1 and
r2c2 add up to 11). The split part is read the same way: different values when its cells see
one another, else every filling that keeps apart what the rules keep apart (up to six cells).

Which hidden cages exist is worked out once per layout; finders return the first step they
see, or None; none changes the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ...rules.cells import cage_sets
from .board import Board, Layout, remember
from .cages import _sets_text
from .rule45 import (MAX_CELLS, Equation, SumClue, _classic_words, _general_words, _they,
                     equations, fillings, sum_clues)
from .step import Step, cell_list, make_step

NAME = "Hidden Cage"
SPLIT = "Cage Splitting"
MAX_SPLITS = 400            # split cages kept per layout (the first found)


@dataclass(frozen=True)
class HiddenCage:
    """Cells adding up to a known total, read off an equation (and a clue it splits)."""

    cells: tuple[int, ...]
    total: int
    eq: Equation
    sign: int                       # +1: the equation adds the cells; -1: it takes them away
    clue: SumClue | None = None     # the clue split against the equation's cells
    outer: bool = True              # the clue holds the equation's cells (else the other way)


def _uniform(eq: Equation) -> int:
    """Return +1 or -1 when every coefficient of the equation is that, else 0."""
    signs = {a for _, a in eq.terms}
    if len(signs) == 1 and signs <= {1, -1}:
        return signs.pop()
    return 0


def hidden_cages(layout: Layout) -> list[HiddenCage]:
    """Return the layout's hidden cages (worked out once): each equation of one sign, and
    the parts left when such an equation and a clue of one sign lie one inside the other."""
    key = ("hidden cages",)
    found = layout.memo.get(key)
    if found is None:
        found = _hidden_cages(layout)
        remember(layout.memo, key, found)
    return found        # type: ignore[return-value]


def _hidden_cages(layout: Layout) -> list[HiddenCage]:
    clues = [c for c in sum_clues(layout) if all(a == 1 for _, a in c.terms)]
    out: list[HiddenCage] = []
    seen: set[tuple[tuple[int, ...], int]] = set()
    splits = 0
    for eq in equations(layout):
        sign = _uniform(eq)
        if not sign:
            continue
        cells = tuple(v for v, _ in eq.terms)
        total = sign * eq.rhs
        if (cells, total) not in seen:
            seen.add((cells, total))
            out.append(HiddenCage(cells, total, eq, sign))
        mine = set(cells)
        for c in clues:
            theirs = {v for v, _ in c.terms}
            if splits >= MAX_SPLITS or mine == theirs or not mine & theirs:
                continue
            if mine < theirs:
                part, left, outer = tuple(sorted(theirs - mine)), c.rhs - total, True
            elif theirs < mine:
                part, left, outer = tuple(sorted(mine - theirs)), total - c.rhs, False
            else:
                continue
            if (part, left) not in seen:
                seen.add((part, left))
                out.append(HiddenCage(part, left, eq, sign, c, outer))
                splits += 1
    return out


def find_hidden_cage(board: Board) -> Step | None:
    """Return the first step where a hidden cage (an equation of one sign) of cells that see
    one another removes a candidate: the sets of different values making its total."""
    return _find(board, split=False)


def find_cage_splitting(board: Board) -> Step | None:
    """Return the first step where a cage split by a hidden cage (or the other way) leaves
    cells whose known total removes a candidate."""
    return _find(board, split=True)


def _find(board: Board, split: bool) -> Step | None:
    lay = board.layout
    if lay.is_classic or not lay.unread:
        return None
    puzzle = lay.puzzle
    if puzzle is not None and puzzle.geometry.low != 1:
        return None                 # the sums add up value indices, not the grid's values
    value, cand = board.value, board.cand
    for k, hc in enumerate(hidden_cages(lay)):
        if (hc.clue is not None) != split:
            continue
        open_cells = [v for v in hc.cells if not value[v]]
        if not open_cells:
            continue
        left = hc.total - sum(value[v] for v in hc.cells if value[v])
        masks = [cand[v] for v in open_cells]
        key = ("hidden cage", k, left, tuple(masks))
        if key in lay.barren:
            continue
        step = _step(board, hc, open_cells, masks, left)
        if step is None:
            remember(lay.barren, key, None)
            continue
        return step
    return None


def _step(board: Board, hc: HiddenCage, cells: list[int], masks: list[int], left: int
          ) -> Step | None:
    """Return the step the hidden cage's open cells make with `left` to add up to, or None."""
    lay = board.layout
    apart = all(lay.sees(a, b) for a, b in combinations(cells, 2))
    fits = None
    if apart:
        found = cage_sets(lay.size, masks, left)
        if found is None:
            return None
        keep, fits = found
    elif hc.clue is None or len(cells) > MAX_CELLS:
        return None                 # the 45 rule searches these itself
    else:
        got = fillings(lay, [(v, 1) for v in cells], masks, left)
        if got is None:
            return None
        keep = got
    elim = board.losses({v: m & ~kept for v, m, kept in zip(cells, masks, keep)})
    if not elim:
        return _claim(board, hc, cells, masks, left, fits) if fits else None
    text = _reason(lay, hc, cells, left)
    if fits is not None:
        text += ", and " + _they(fits, len(cells))
    elif len(cells) > 1:
        text += ", and only some fillings keep apart what the rules keep apart"
    houses = hc.eq.houses
    return make_step(lay, SPLIT if hc.clue is not None else NAME, text, eliminations=elim,
                     pattern=cells, houses=houses)


def _claim(board: Board, hc: HiddenCage, cells: list[int], masks: list[int], left: int,
           fits: list[tuple[int, ...]]) -> Step | None:
    """Return the step where a value every set of a hidden cage holds has its places in the
    cage inside one house, whose other cells lose it (Cage Unit Overlap on a hidden cage)."""
    lay = board.layout
    houses = [h for group in lay.lines.values() for h in group]
    for v in sorted(set(fits[0]).intersection(*fits[1:])):
        places = [i for i, m in zip(cells, masks) if m >> (v - 1) & 1]
        claim = board.claimed(places, v, houses)
        if claim is None:
            continue
        h, elim = claim
        text = (f"{_reason(lay, hc, cells, left)}, and they can only be {_sets_text(fits)}; "
                f"every one holds {lay.sym(v)}, which can go only in {cell_list(lay, places)}, "
                f"all in {h.name}")
        return make_step(lay, SPLIT if hc.clue is not None else NAME, text, eliminations=elim,
                         pattern=cells, pattern_candidates=[(i, v) for i in places],
                         houses=hc.eq.houses + (h.name,))
    return None


def _reason(lay: Layout, hc: HiddenCage, cells: list[int], left: int) -> str:
    """Return how the hidden cage comes about: the equation's words, then the split."""
    eq = hc.eq
    terms = [(v, 1) for v, _ in eq.terms]
    whole = hc.sign * eq.rhs
    words = _classic_words(lay, eq, terms, whole) or _general_words(lay, eq, terms, whole)
    placed = len(cells) < len(hc.cells)
    less = ", less the placed values," if placed else ""
    if hc.clue is None:
        if placed:
            return (f"{words} (a hidden cage), so its open cells {cell_list(lay, cells)}"
                    f"{less} add up to {left}")
        return f"{words} (a hidden cage)"
    c = hc.clue
    rest = (f"; less the placed values, {cell_list(lay, cells)} add up to {left}"
            if placed else "")
    if hc.outer:
        return (f"{words}; {c.words} holds them, so its other cells {cell_list(lay, hc.cells)}"
                f" add up to {c.rhs} - {whole} = {hc.total}{rest}")
    return (f"{words}; {c.words} lies among them, so the others, "
            f"{cell_list(lay, hc.cells)}, add up to {whole} - {c.rhs} = {hc.total}{rest}")
