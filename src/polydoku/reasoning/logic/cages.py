"""Killer cages across houses: "Cage Unit Overlap" and "Cage Interaction".

A killer cage holds one of the sets of different values that make its sum and that its cells
can still hold. A value every such set contains is in the cage; when the cage's places for it
all lie in one house (the whole cage in a box, or the cells that can hold it in one row), the
value is in the cage there and leaves the house's other cells. (The other way round, a value
whose places in a house all lie in one cage, is Locked Candidates (variant): the cage's other
cells see them all.)

Cages that lie in one house hold different values: only the choices of one set per cage that
share no value (and leave each of the house's other values a place outside them) remain, and
each cell keeps the values those choices can put there ("Cage Interaction": a 3 cage and a 4
cage in one row are 1+2 and 1+3: the 4 cage is 1+3 only when the 3 cage is not 1+2, which it
must be). Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from itertools import product

from ...rules.cells import Killer, _matched, cage_sets
from .board import Board
from .layout import House
from .step import Step, cell_list, make_step

NAME = "Cage Unit Overlap"
INTERACTION = "Cage Interaction"
MAX_CHOICES = 5000          # choices of one set per cage tried per house; past them it is left


def _sets_text(fits: list[tuple[int, ...]], offset: int = 0) -> str:
    """Return the fitting sets (of value indices; `offset` added, the values) in words
    ("1+2+6 or 1+3+5"), at most four of them."""
    shown = " or ".join("+".join(str(v + offset) for v in f) for f in fits[:4])
    return shown if len(fits) <= 4 else f"{shown}, or {len(fits) - 4} more"


def find_cage_unit_overlap(board: Board) -> Step | None:
    """Return a step where a value every fitting set of a killer cage holds has all its
    places in the cage inside one house, and that house's other cells lose it."""
    lay = board.layout
    puzzle = lay.puzzle
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
        found = cage_sets(n, [cands[i] for i in idx], rule.index_total(g))  # type: ignore[arg-type]
        if found is None or not found[1]:
            continue
        fits = found[1]
        must = set(fits[0]).intersection(*fits[1:])
        for v in sorted(must):
            if any(board.value[i] == v for i in idx):
                continue
            places = [i for i in idx if cands[i] >> (v - 1) & 1]
            claim = board.claimed(places, v, houses)
            if claim:
                h, elim = claim
                return make_step(
                    lay, NAME,
                    f"the cage {cell_list(lay, idx)} (sum {rule.total}) can only be "
                    f"{_sets_text(fits, g.offset)}, so it holds {lay.sym(v)}, which in the cage can "
                    f"go only in {cell_list(lay, places)}, all in {h.name}",
                    eliminations=elim, pattern=idx,
                    pattern_candidates=[(i, v) for i in places], houses=[h.name])
    return None


def _house_cages(board: Board) -> list[tuple[House, list[tuple[Killer, list[int]]]]]:
    """Return the houses that hold two or more whole killer cages with a sum, with those cages
    and their cells."""
    lay = board.layout
    puzzle = lay.puzzle
    if lay.is_classic or puzzle is None:
        return []
    g = puzzle.geometry
    cages = [(r, [g.index(c) for c in r.cells]) for r in puzzle.rules
             if isinstance(r, Killer) and r.total is not None]
    out: list[tuple[House, list[tuple[Killer, list[int]]]]] = []
    for h in lay.houses:
        inside: list[tuple[Killer, list[int]]] = []
        taken = 0
        for r, idx in cages:        # whole cages, none sharing a cell with one before
            cells = sum(1 << i for i in idx)
            if cells & ~h.mask == 0 and not cells & taken:
                inside.append((r, idx))
                taken |= cells
        if len(inside) >= 2:
            out.append((h, inside))
    return out


def _interaction(n: int, cands: list[int], rest: list[int], cages: list[list[int]],
                 fits: list[list[tuple[int, ...]]]) -> tuple[dict[int, int], list[set]] | None:
    """Return what each cell of the cages and of `rest` (the house's other cells) keeps over
    the choices of one set per cage that share no value and leave every other value of the
    house a place in `rest`, with the sets each cage keeps; None past MAX_CHOICES choices."""
    total = 1
    for f in fits:
        total *= len(f)
    if total > MAX_CHOICES:
        return None
    full = (1 << n) - 1
    rest_union = 0
    for i in rest:
        rest_union |= cands[i]
    keep = {i: 0 for idx in cages for i in idx} | {i: 0 for i in rest}
    kept: list[set] = [set() for _ in cages]
    for choice in product(*fits):
        masks = [sum(1 << (v - 1) for v in s) for s in choice]
        used = 0
        for m in masks:
            if used & m:
                break
            used |= m
        else:
            left = full & ~used
            if left & ~rest_union:
                continue                # a value of the house with no place left for it
            for k, (idx, m) in enumerate(zip(cages, masks)):
                for i, ok in zip(idx, _matched([cands[i] for i in idx], m)):
                    keep[i] |= ok
                kept[k].add(choice[k])
            for i in rest:
                keep[i] |= cands[i] & left
    return keep, kept


def find_cage_interaction(board: Board) -> Step | None:
    """Return a step where the cages inside one house, holding different values, leave some
    cell of the house (in a cage or not) without a candidate."""
    lay = board.layout
    n = lay.size
    cands = board.value_masks()
    for h, inside in _house_cages(board):
        g = lay.problem.puzzle.geometry             # type: ignore[union-attr]
        fits = []
        for rule, idx in inside:
            found = cage_sets(n, [cands[i] for i in idx], rule.index_total(g))  # type: ignore[arg-type]
            if found is None or not found[1]:
                break
            fits.append(found[1])
        else:
            cages = [idx for _, idx in inside]
            caged = {i for idx in cages for i in idx}
            rest = [i for i in h.cells if i not in caged]
            got = _interaction(n, cands, rest, cages, fits)
            if got is None:
                continue
            keep, kept = got
            elim = board.losses({i: cands[i] & ~k for i, k in keep.items()})
            if elim:
                sets = "; ".join(f"the cage {cell_list(lay, idx)} (sum {rule.total}) is "
                                 f"{_sets_text(sorted(kept[k]), g.offset)}"
                                 for k, (rule, idx) in enumerate(inside))
                return make_step(lay, INTERACTION,
                                 f"the cages in {h.name} hold different values; of the sets "
                                 f"that make their sums, only those that fit together "
                                 f"remain: {sets}", eliminations=elim,
                                 pattern=sorted(caged), houses=[h.name])
    return None
