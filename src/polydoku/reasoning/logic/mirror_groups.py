"""The groups of cells that must hold one value (palindrome lines, clones) and the exclusions
they lend each other: a value in one cell of a group rules it out wherever another sees.
The board takes those as weak links (`Board.conflicts`); Mirrored Cells (mirrors.py) reads
the groups. Nothing here changes a board.
"""

from __future__ import annotations

from ...rules.arrows import Clone
from ...rules.lines import Palindrome
from .layout import Layout, bits, recall


def groups(lay: Layout) -> list[tuple[tuple[int, ...], str]]:
    """Return the groups of cells that must hold one value (two cells or more, joined by
    palindrome lines and clones), each with the rules that join them, in words."""
    puzzle = lay.puzzle
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
        for cells, label in groups(lay):
            inside = sum(1 << i for i in cells)
            reach = 0
            for i in cells:
                reach |= lay.peers[i]
            for x in cells:
                for z in bits(reach & ~inside & ~lay.peers[x]):
                    out += [(x * n + v, z * n + v, label) for v in range(n)]
        return out
    return recall(lay.memo, ("mirror links",), make)
