"""Subsets: naked and hidden pairs, triples and quadruples, and locked pairs and triples.

A naked subset's values each go in one of its cells, so any cell that sees every subset cell
holding a value loses it: inside the house, and, through variant peers, outside it too.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from array import array
from itertools import combinations

from .board import (Board, House, Layout, bits, compiled_core, recall, region_state, remember,
                    values_of)
from .singles import scan_order
from .step import Step, cell_list, make_step, value_list

NAKED = {2: "Naked Pair", 3: "Naked Triple", 4: "Naked Quadruple"}
HIDDEN = {2: "Hidden Pair", 3: "Hidden Triple", 4: "Hidden Quadruple"}
LOCKED = {2: "Locked Pair", 3: "Locked Triple"}


def naked_eliminations(board: Board, cells: tuple[int, ...], union: int) -> list[tuple[int, int]]:
    """Return the candidates a naked subset (cells holding exactly the values of `union`) removes."""
    lay, out = board.layout, []
    inside = sum(1 << i for i in cells)
    for v in values_of(union):
        seen = -1
        for i in cells:
            if board.cand[i] >> (v - 1) & 1:
                seen &= lay.peers[i]
        for j in bits(seen & ~inside):
            if board.has(j, v):
                out.append((j, v))
    return out


def _naked_in(board: Board, house: House, k: int, name: str,
              also: House | None = None) -> Step | None:
    """Return a naked subset of size k among the small cells of `house` (and of `also`)."""
    lay, cand = board.layout, board.cand
    small = [i for i in house.cells if not board.value[i] and 2 <= cand[i].bit_count() <= k
             and (also is None or also.mask >> i & 1)]
    for cells in combinations(small, k):
        union = 0
        for i in cells:
            union |= cand[i]
        if union.bit_count() != k:
            continue
        elim = naked_eliminations(board, cells, union)
        if elim:
            houses = [house.name] + ([also.name] if also else [])
            return make_step(lay, name, f"in {' and '.join(houses)}, {cell_list(lay, cells)} "
                             f"hold only {value_list(lay, values_of(union))}",
                             eliminations=elim, houses=houses,
                             pattern_candidates=[(i, v) for i in cells for v in values_of(cand[i])])
    return None


def _small_cells(board: Board, k: int) -> int:
    """Return the unplaced cells with 2 to k candidates, as a bitset (a naked subset of size k
    needs k of them in its house)."""
    out = 0
    for i, (v, c) in enumerate(zip(board.value, board.cand)):
        if not v and 2 <= c.bit_count() <= k:
            out |= 1 << i
    return out


class _Groups:
    """Groups of cells written out for the compiled `naked_subset`: the cells of each, their
    offsets, and, for locked subsets, the two houses an elimination must reach."""

    def __init__(self, houses: list, cells: list[list[int]], need: bytes = b""):
        self.houses = houses
        self.cells = array("i", [i for group in cells for i in group]).tobytes()
        offsets = [0]
        for group in cells:
            offsets.append(offsets[-1] + len(group))
        self.ptr = array("i", offsets).tobytes()
        self.need = need


def _house_groups(board: Board) -> _Groups:
    """Return the houses in scan order as groups (remembered on the layout)."""
    def make() -> _Groups:
        houses = scan_order(board)
        return _Groups(houses, [list(h.cells) for h in houses])
    return recall(board.layout.memo, ("naked groups",), make)


def _locked_groups(lay: Layout) -> _Groups:
    """Return every box with every row and column (in `find_locked_subset`'s order) as groups:
    the box's cells on the line, and the two houses (remembered on the layout)."""
    def make() -> _Groups:
        lines = lay.lines
        pairs = [(box, line) for box in lines["box"] for line in lines["row"] + lines["column"]]
        cells = [[i for i in box.cells if line.mask >> i & 1] for box, line in pairs]
        need = lay.cell_sets([m for box, line in pairs for m in (line.mask, box.mask)])
        return _Groups(pairs, cells, need)
    return recall(lay.memo, ("locked groups",), make)


def _compiled_naked(core, board: Board, k: int, groups: _Groups) -> int | None:
    """Return the index of the first group where `_naked_in` finds a step (for locked groups,
    one that eliminates in both houses), searched by the compiled core, or None."""
    lay = board.layout
    peers = recall(lay.memo, ("peer sets",), lambda: lay.cell_sets(lay.peers))
    found = core.naked_subset(board.open_cand(), peers, lay.words, groups.cells, groups.ptr, k,
                              groups.need)
    return None if found is None else found[0]


def find_locked_subset(board: Board, k: int) -> Step | None:
    """Return a Locked Pair/Triple: a naked subset inside both a box and a row or column."""
    lines = board.layout.lines
    core = compiled_core()
    if core is not None:
        pairs = _locked_groups(board.layout)
        found = _compiled_naked(core, board, k, pairs)
        if found is None:
            return None
        box, line = pairs.houses[found]
        return _naked_in(board, box, k, LOCKED[k], also=line)
    small = _small_cells(board, k)
    for box in lines["box"]:
        for line in lines["row"] + lines["column"]:
            if (box.mask & line.mask & small).bit_count() >= k:
                step = _naked_in(board, box, k, LOCKED[k], also=line)
                if step and any(line.mask >> i & 1 for i, _ in step.eliminations) \
                        and any(box.mask >> i & 1 for i, _ in step.eliminations):
                    return step
    return None


def find_naked_subset(board: Board, k: int) -> Step | None:
    """Return a naked subset of size k (pair, triple, quadruple) in some house."""
    core = compiled_core()
    if core is not None:
        groups = _house_groups(board)
        found = _compiled_naked(core, board, k, groups)
        return None if found is None else _naked_in(board, groups.houses[found], k, NAKED[k])
    small = _small_cells(board, k)
    for house in scan_order(board):
        if (house.mask & small).bit_count() < k:
            continue
        step = _naked_in(board, house, k, NAKED[k])
        if step:
            return step
    return None


def find_hidden_subset(board: Board, k: int) -> Step | None:
    """Return a hidden subset of size k: k values confined to the same k cells of a house."""
    lay = board.layout
    core = compiled_core()
    if core is not None:
        groups = _house_groups(board)
        found = core.hidden_subset(board.open_cand(), groups.cells, groups.ptr, k)
        return None if found is None else _hidden_in(board, groups.houses[found], k)
    for house in scan_order(board):
        # all it reads is the house's cells: remembered when they gave nothing
        seen = ("hidden subset", k, house.index, region_state(board, house.cells))
        if seen in lay.barren:
            continue
        step = _hidden_in(board, house, k)
        if step:
            return step
        remember(lay.barren, seen, None)
    return None


def _hidden_in(board: Board, house: House, k: int) -> Step | None:
    """Return a hidden subset of size k in `house`, or None."""
    lay = board.layout
    placed = {board.value[i] for i in house.cells if board.value[i]}
    where = {v: board.place_mask(house, v) for v in range(1, lay.size + 1) if v not in placed}
    few = [v for v, m in where.items() if 2 <= m.bit_count() <= k]
    for values in combinations(few, k):
        cells_mask = 0
        for v in values:
            cells_mask |= where[v]
        if cells_mask.bit_count() != k:
            continue
        keep = sum(1 << (v - 1) for v in values)
        cells = list(bits(cells_mask))
        elim = [(i, w) for i in cells for w in values_of(board.cand[i] & ~keep)]
        if elim:
            return make_step(lay, HIDDEN[k], f"in {house.name}, {value_list(lay, values)} "
                             f"can only go in {cell_list(lay, cells)}",
                             eliminations=elim, houses=[house.name],
                             pattern_candidates=[(i, v) for i in cells for v in values
                                                 if board.cand[i] >> (v - 1) & 1])
    return None
