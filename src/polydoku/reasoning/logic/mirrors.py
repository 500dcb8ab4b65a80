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

from ...rules.arrows import Clone
from ...rules.lines import Palindrome
from typing import TYPE_CHECKING

from .layout import Layout, bits, recall

if TYPE_CHECKING:
    from .board import Board
    from .step import Step

NAME = "Mirrored Cells"


def _classes(lay: Layout) -> list[tuple[tuple[int, ...], str]]:
    """Return the groups of cells that must hold one value (two cells or more, joined by
    palindrome lines and clones), each with the rules that join them, in words."""
    puzzle = lay.problem.puzzle if lay.problem is not None else None
    if puzzle is None:
        return []
    geo = puzzle.geometry
    parent: dict[int, int] = {}
    labels: dict[int, list[str]] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for rule in puzzle.rules:
        if isinstance(rule, Palindrome):
            pairs = [(rule.cells[i], rule.cells[j]) for i, j in rule.mirrored()]
            label = f"the palindrome line from {lay.name(geo.index(rule.cells[0]))}"
        elif isinstance(rule, Clone):
            pairs = list(zip(rule.cells, rule.copy))
            label = "a clone"
        else:
            continue
        for a, b in pairs:
            x, y = root(geo.index(a)), root(geo.index(b))
            if x != y:
                parent[x] = y
                labels.setdefault(y, []).extend(labels.pop(x, []))
            labels.setdefault(y, []).append(label)
    groups: dict[int, list[int]] = {}
    for x in list(parent):
        groups.setdefault(root(x), []).append(x)
    return [(tuple(sorted(cells)), " and ".join(dict.fromkeys(labels.get(r, []))))
            for r, cells in groups.items() if len(cells) > 1]


def mirror_links(lay: Layout) -> list[tuple[int, int, str]]:
    """Return the pairs of candidates (candidate numbers) that cells holding one value keep
    apart beyond the rules' own exclusions: a value in one cell of a group rules it out in
    every cell another cell of the group sees; with the joining rules, in words."""
    def make() -> list[tuple[int, int, str]]:
        n, out = lay.size, []
        for cells, label in _classes(lay):
            inside = sum(1 << i for i in cells)
            reach = 0
            for i in cells:
                reach |= lay.peers[i]
            for x in cells:
                for z in bits(reach & ~inside & ~lay.peers[x]):
                    out += [(x * n + v, z * n + v, label) for v in range(n)]
        return out
    return recall(lay.memo, ("mirror links",), make)


def find_mirrored_cells(board: Board) -> Step | None:
    """Return a step where a value in a group of cells holding one value would rule out
    every place of that value in a house that holds none of them: the group loses it."""
    lay = board.layout
    if lay.is_classic:
        return None
    from .step import cell_list, make_step
    groups = recall(lay.memo, ("mirrored cells",), lambda: _classes(lay))
    for cells, label in groups:
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
