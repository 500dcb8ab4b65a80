"""Killer cages across houses: "Cage Unit Overlap".

A killer cage holds one of the sets of different values that make its sum and that its cells
can still hold. A value every such set contains is in the cage; when the cage's places for it
all lie in one house (the whole cage in a box, or the cells that can hold it in one row), the
value is in the cage there and leaves the house's other cells. (The other way round, a value
whose places in a house all lie in one cage, is Locked Candidates (variant): the cage's other
cells see them all.) Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from ...rules.cells import Killer, cage_sets
from .board import Board, bits
from .step import Step, cell_list, make_step

NAME = "Cage Unit Overlap"


def _sets_text(fits: list[tuple[int, ...]]) -> str:
    """Return the fitting sets in words ("1+2+6 or 1+3+5"), at most four of them."""
    shown = " or ".join("+".join(map(str, f)) for f in fits[:4])
    return shown if len(fits) <= 4 else f"{shown}, or {len(fits) - 4} more"


def find_cage_unit_overlap(board: Board) -> Step | None:
    """Return a step where a value every fitting set of a killer cage holds has all its
    places in the cage inside one house, and that house's other cells lose it."""
    lay = board.layout
    puzzle = lay.problem.puzzle if lay.problem is not None else None
    if lay.is_classic or puzzle is None:
        return None
    cages = [r for r in puzzle.rules if isinstance(r, Killer) and r.total is not None]
    if not cages:
        return None
    g, n = puzzle.geometry, lay.size
    cands = board.value_masks()
    houses = [h for group in lay.lines.values() for h in group]
    for rule in cages:
        idx = [g.index(c) for c in rule.cells]
        found = cage_sets(n, [cands[i] for i in idx], rule.total)  # type: ignore[arg-type]
        if found is None or not found[1]:
            continue
        fits = found[1]
        must = set(fits[0]).intersection(*fits[1:])
        for v in sorted(must):
            if any(board.value[i] == v for i in idx):
                continue
            places = [i for i in idx if cands[i] >> (v - 1) & 1]
            pmask = sum(1 << i for i in places)
            for h in houses:
                if pmask & ~h.mask:
                    continue
                elim = board.losses({i: 1 << (v - 1) for i in bits(h.mask & ~pmask)})
                if elim:
                    return make_step(
                        lay, NAME,
                        f"the cage {cell_list(lay, idx)} (sum {rule.total}) can only be "
                        f"{_sets_text(fits)}, so it holds {lay.sym(v)}, which in the cage can "
                        f"go only in {cell_list(lay, places)}, all in {h.name}",
                        eliminations=elim, pattern=idx,
                        pattern_candidates=[(i, v) for i in places], houses=[h.name])
    return None
