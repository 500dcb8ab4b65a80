"""Forcing nets rated as Sudoku Explainer rates its dynamic forcing chains: by the number of
implications a conclusion rests on.

An assumption (a candidate placed) is followed by singles, wave after wave, and every placement
and elimination remembers the placements it rests on (its ancestors). A contradiction (a cell
or a house with no room) rests on the ancestors of what emptied it; a verity (every candidate
of a cell, or every place of a value in a house, leads to the same placement or elimination)
rests on the ancestors in all its branches. The cheapest conclusion is taken, as Sudoku
Explainer sorts its chains; its value is the forcing level's base plus Sudoku Explainer's length
increment over the implications counted as it counts a chain's nodes (each placement is a
potential on and the eliminations it makes off). When no net of singles concludes anything,
the nested forcing net (`forcing.py`, singles with two-candidate cells tried both ways) is
rated at the nested level.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import forcing
from .board import Board, values_of
from .difficulty import length_bonus
from .step import Step, cell_list, make_step, value_list

DYNAMIC = 8.5           # Sudoku Explainer's dynamic forcing chains
NESTED = 9.5            # its nested forcing chains (the first nesting level)
MAX_BRANCHES = 3


@dataclass
class Branch:
    """What singles derive from an assumption: per candidate id (cell * n + value - 1) placed
    or eliminated, the ancestors (a bitset of placement ids); or the contradiction's."""

    placed: dict[int, int]
    removed: dict[int, int]
    contradiction: int | None = None


def _follow(board: Board, assume: tuple[int, int]) -> Branch:
    """Return the branch of placing `assume` (cell, value) and following singles."""
    lay = board.layout
    n = lay.size
    cand, val = board.cand[:], board.value[:]
    plane = [0] * (n + 1)           # per value: the open cells that can hold it
    done = [0] * (n + 1)            # per value: the cells that hold it
    for i in range(n * n):
        if val[i]:
            done[val[i]] |= 1 << i
        else:
            for w in values_of(cand[i]):
                plane[w] |= 1 << i
    placed: dict[int, int] = {}
    removed: dict[int, int] = {}
    wave = [(assume[0], assume[1], 0)]
    while wave:
        nxt: list[tuple[int, int, int]] = []
        touched = 0
        for cell, v, anc in wave:
            if val[cell]:
                continue
            me = cell * n + v - 1
            anc |= 1 << me
            placed[me] = anc
            val[cell] = v
            bit = 1 << (v - 1)
            for w in values_of(cand[cell] & ~bit):
                removed.setdefault(cell * n + w - 1, anc)
                plane[w] &= ~(1 << cell)
            plane[v] &= ~(1 << cell)
            done[v] |= 1 << cell
            cand[cell] = bit
            hit = plane[v] & lay.peers[cell]
            plane[v] &= ~hit
            touched |= hit | 1 << cell
            for j in _bits(hit):
                cand[j] &= ~bit
                removed.setdefault(j * n + v - 1, anc)
                if not cand[j]:
                    return Branch(placed, removed, _cause(removed, j, board.cand[j], n))
        for i in _bits(touched):
            c = cand[i]
            if not val[i] and not c & (c - 1):
                nxt.append((i, c.bit_length(), _cause(removed, i, board.cand[i] & ~c, n)))
        near = {k for i in _bits(touched) for k in lay.cell_houses[i]}
        for h in (lay.houses[k] for k in near):
            for v in range(1, n + 1):
                if done[v] & h.mask:
                    continue
                spots = plane[v] & h.mask
                if spots & (spots - 1):
                    continue
                anc = 0
                for i in h.cells:
                    if i != spots.bit_length() - 1:
                        anc |= removed.get(i * n + v - 1, 0)
                if not spots:
                    return Branch(placed, removed, anc)
                if cand[spots.bit_length() - 1].bit_count() > 1:
                    nxt.append((spots.bit_length() - 1, v, anc))
        wave = nxt
    return Branch(placed, removed)


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _cause(removed: dict[int, int], cell: int, mask: int, n: int) -> int:
    """Return the ancestors of every candidate in `mask` of `cell` removed in a branch."""
    anc = 0
    for w in values_of(mask):
        anc |= removed.get(cell * n + w - 1, 0)
    return anc


def nodes(ancestors: int) -> int:
    """Return how many chain nodes a set of placements counts for: each placement is a potential
    on, and the elimination it passes on one off."""
    return 2 * ancestors.bit_count()


@dataclass
class _Best:
    cost: int = 1 << 30
    step: Step | None = None


def find_net(board: Board) -> tuple[float, Step] | None:
    """Return the cheapest forcing-net conclusion with its value, or None."""
    lay = board.layout
    n = lay.size
    # the native engine's propagation says which assumptions fail and which groups agree on
    # something; only those are followed again with their ancestors
    compiled = forcing._compiled(board)
    ends = {(cell, v): forcing._branch(board, compiled, [(cell, v)])
            for cell in board.unsolved() for v in values_of(board.cand[cell])}
    groups: list[tuple[str, list[tuple[int, int]]]] = []
    for cell in board.unsolved():
        values = values_of(board.cand[cell])
        if 2 <= len(values) <= MAX_BRANCHES:
            groups.append((f"{lay.name(cell)} is {value_list(lay, values, ' or ')}",
                           [(cell, v) for v in values]))
    for house in lay.houses:
        for v in range(1, n + 1):
            places = board.places(house, v)
            if 2 <= len(places) <= MAX_BRANCHES:
                groups.append((f"{lay.sym(v)} goes in {cell_list(lay, places, 'or')} "
                               f"({house.name})", [(i, v) for i in places]))
    wanted = {a for a, end in ends.items() if end is None}
    agreeing = []
    for what, assumptions in groups:
        kept = [e for e in (ends[a] for a in assumptions) if e is not None]
        if len(kept) == len(assumptions) and any(forcing._common(board, kept)):
            agreeing.append((what, assumptions))
            wanted.update(assumptions)
    branches = {a: _follow(board, a) for a in sorted(wanted)}
    best = _Best()
    for (cell, v), b in branches.items():
        if b.contradiction is not None and nodes(b.contradiction) < best.cost:
            best.cost = nodes(b.contradiction)
            best.step = make_step(lay, "Forcing Net", f"if {lay.name(cell)} were {lay.sym(v)}, "
                                  f"singles would run into a contradiction",
                                  eliminations=[(cell, v)], pattern=[cell])
    for what, assumptions in agreeing:
        _verity(board, what, [branches[a] for a in assumptions], assumptions, best)
    if best.step is not None:
        return round(DYNAMIC + length_bonus(best.cost), 1), best.step
    step = forcing.find_nested_contradiction(board) or forcing.find_nested_verity(board)
    if step is None:
        return None
    return NESTED, step


def _verity(board: Board, what: str, group: list[Branch], assumptions: list[tuple[int, int]],
            best: _Best) -> None:
    """Record in `best` the cheapest conclusion every branch of a group shares."""
    if any(b.contradiction is not None for b in group):
        return
    lay = board.layout
    n = lay.size
    first = group[0]
    for kind, table in (("placed", first.placed), ("removed", first.removed)):
        for cid, anc in table.items():
            cell = cid // n
            if kind == "placed" and board.value[cell]:
                continue
            cost = anc.bit_count()
            for other in group[1:]:
                got = getattr(other, kind).get(cid)
                if got is None:
                    cost = -1
                    break
                cost += got.bit_count()
            if cost < 0 or 2 * cost >= best.cost:
                continue
            if (cell, cid % n + 1) in assumptions:
                continue
            best.cost = 2 * cost
            found = [(cell, cid % n + 1)]
            best.step = make_step(lay, "Forcing Net", f"{what}, and every choice leads by "
                                  f"singles to the same result", pattern_candidates=assumptions,
                                  placements=found if kind == "placed" else [],
                                  eliminations=found if kind == "removed" else [])
