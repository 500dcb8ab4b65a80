"""Mirrored Cells, for palindrome lines and clones: cells that must hold the same value.

Cells mirrored on a palindrome line, or a cell and its clone, hold one value; cells joined
through several such rules (a clone of a palindrome's cell) too. So a value in one of them is
in all of them, and rules out that value in every cell any of them sees: if those cells are
all the places of the value in some other house, the value would leave that house no place,
and none of the joined cells holds it. The kinds' own steps (Palindrome, Clone) only keep each
cell to what its mirror can hold. Finders return the first step they see, or None; none
changes the board.
"""

from __future__ import annotations

from .board import Board, bits, recall
from .mirror_groups import groups
from .step import Step, cell_list, make_step

NAME = "Mirrored Cells"


def find_mirrored_cells(board: Board) -> Step | None:
    """Return a step where a value in a group of cells holding one value would rule out
    every place of that value in a house that holds none of them: the group loses it."""
    lay = board.layout
    if lay.is_classic:
        return None
    for cells, label in recall(lay.memo, ("mirrored cells",), lambda: groups(lay)):
        if any(board.value[i] for i in cells):
            continue                    # one is placed: the kinds' own steps copy it
        common = -1
        reach = 0
        for i in cells:
            common &= board.cand[i]
            reach |= lay.peers[i]
        inside = sum(1 << i for i in cells)
        for v in range(1, lay.size + 1):
            if not common >> (v - 1) & 1:
                continue
            for house in lay.houses:
                if house.mask & inside:
                    continue
                places = board.place_mask(house, v)
                if places and not places & ~reach:
                    elim = board.losses({i: 1 << (v - 1) for i in cells})
                    shown = list(bits(places))
                    return make_step(
                        lay, NAME,
                        f"{cell_list(lay, cells)} hold the same value ({label}); if it were "
                        f"{lay.sym(v)}, every place of {lay.sym(v)} in {house.name} "
                        f"({cell_list(lay, shown)}) would see one of them",
                        eliminations=elim, pattern=list(cells),
                        pattern_candidates=[(i, v) for i in shown], houses=[house.name])
    return None
