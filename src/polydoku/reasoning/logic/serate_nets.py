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
from typing import cast

from . import forcing
from .board import Board, values_of
from .difficulty import length_bonus
from .step import Step, cell_list, make_step, value_list

DYNAMIC = 8.5           # Sudoku Explainer's dynamic forcing chains
# Sudoku Explainer's nested forcing chains start at 9.5 and nest deeper (10.0, 10.5) where a
# puzzle needs it; a nested net here is one depth (two-candidate cells tried inside), so its
# base sits between, where the tuning part of the hardest sets put it (bench/serate.py)
NESTED = 9.8
MAX_BRANCHES = 3


@dataclass
class Branch:
    """What singles derive from an assumption: per candidate id (cell * n + value - 1) placed
    or eliminated, the ancestors (a bitset of placement ids); or the contradiction's."""

    placed: dict[int, int]
    removed: dict[int, int]
    contradiction: int | None = None
    weights: dict[int, int] | None = None   # a nested chain's id (past the candidates): its nodes

    def nodes(self, ancestors: int) -> int:
        """Return how many chain nodes a set of ancestors counts for (`nodes`)."""
        return nodes(ancestors, self.weights)


class _State:
    """A branch's board: candidates, values, per value the open cells that can hold it and
    the cells that hold it, and the ancestors of what it placed and removed."""

    __slots__ = ("cand", "val", "plane", "done", "placed", "removed", "weights")

    def __init__(self, board: Board | None = None):
        if board is None:
            return
        n = board.layout.size
        self.cand, self.val = board.cand[:], board.value[:]
        self.plane, self.done = [0] * (n + 1), [0] * (n + 1)
        for i in range(n * n):
            if self.val[i]:
                self.done[self.val[i]] |= 1 << i
            else:
                for w in values_of(self.cand[i]):
                    self.plane[w] |= 1 << i
        self.placed: dict[int, int] = {}
        self.removed: dict[int, int] = {}
        self.weights: dict[int, int] = {}

    def copy(self) -> "_State":
        other = _State()
        other.cand, other.val = self.cand[:], self.val[:]
        other.plane, other.done = self.plane[:], self.done[:]
        other.placed, other.removed = dict(self.placed), dict(self.removed)
        other.weights = self.weights
        return other


def _run(lay, origin: list[int], st: _State, wave: list[tuple[int, int, int]],
         touched: int = 0) -> int | None:
    """Follow singles from `wave` (cell, value, ancestors) in `st`; return the ancestors of a
    contradiction, or None when singles run out."""
    n = lay.size
    cand, val, plane, done, removed = st.cand, st.val, st.plane, st.done, st.removed
    while wave or touched:
        for cell, v, anc in wave:
            if val[cell]:
                continue
            me = cell * n + v - 1
            anc |= 1 << me
            st.placed[me] = anc
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
                    return _cause(removed, j, origin[j], n)
        nxt: list[tuple[int, int, int]] = []
        for i in _bits(touched):
            c = cand[i]
            if not val[i] and not c & (c - 1):
                nxt.append((i, c.bit_length(), _cause(removed, i, origin[i] & ~c, n)))
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
                    return anc
                if cand[spots.bit_length() - 1].bit_count() > 1:
                    nxt.append((spots.bit_length() - 1, v, anc))
        wave, touched = nxt, 0
    return None


def _nest_once(lay, origin: list[int], st: _State) -> tuple[int | None, bool]:
    """Try each two-candidate cell of a branch both ways; drop the first value whose singles
    fail (its ancestors are that failure's) and follow singles on. Return a contradiction's
    ancestors (or None) and whether anything changed."""
    n = lay.size
    for x in range(n * n):
        c = st.cand[x]
        if st.val[x] or c.bit_count() != 2:
            continue
        for a in values_of(c):
            inner = st.copy()
            got = _run(lay, origin, inner, [(x, a, 0)])
            if got is None:
                continue
            # the inner chain counts as one node of the outer net, weighing its own nodes
            # (Sudoku Explainer adds a nested chain's complexity to the chain that uses it)
            own = 0
            for cid in inner.placed:
                if cid not in st.placed:
                    own |= 1 << cid
            wid = n ** 3 + len(st.weights)
            st.weights[wid] = nodes(got & own, st.weights) + 1
            why = (got & ~own) | 1 << wid
            me = x * n + a - 1
            st.removed.setdefault(me, why)
            st.cand[x] &= ~(1 << (a - 1))
            st.plane[a] &= ~(1 << x)
            b = st.cand[x].bit_length()
            return _run(lay, origin, st, [(x, b, why)], 1 << x), True
    return None, False


def _follow(board: Board, assume: tuple[int, int], nested: bool = False) -> Branch:
    """Return the branch of placing `assume` (cell, value) and following singles (and, nested,
    two-candidate cells tried both ways)."""
    st = _State(board)
    bad = _run(board.layout, board.cand, st, [(assume[0], assume[1], 0)])
    while bad is None and nested:
        bad, changed = _nest_once(board.layout, board.cand, st)
        if not changed:
            break
    return Branch(st.placed, st.removed, bad, st.weights)


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


def nodes(ancestors: int, weights: dict[int, int] | None = None) -> int:
    """Return how many chain nodes a set of ancestors counts for: each placement is a potential
    on, and the elimination it passes on one off; a nested chain counts its own nodes."""
    if not weights:
        return 2 * ancestors.bit_count()
    first = min(weights)
    flat = ancestors & ((1 << first) - 1)
    return 2 * flat.bit_count() + sum(w for k, w in weights.items() if ancestors >> k & 1)


@dataclass
class _Best:
    cost: int = 1 << 30
    step: Step | None = None


def find_net(board: Board) -> tuple[float, Step] | None:
    """Return the cheapest forcing-net conclusion with its value, or None."""
    found = _cheapest(board, nested=False)
    if found is not None:
        return round(DYNAMIC + length_bonus(found.cost), 1), cast(Step, found.step)
    found = _cheapest(board, nested=True)
    if found is not None:
        return round(NESTED + length_bonus(found.cost), 1), cast(Step, found.step)
    step = forcing.find_nested_contradiction(board) or forcing.find_nested_verity(board)
    return None if step is None else (NESTED, step)


def _cheapest(board: Board, nested: bool) -> "_Best | None":
    """Return the cheapest contradiction or verity of nets of singles (nested: with
    two-candidate cells tried both ways inside), or None."""
    lay = board.layout
    n = lay.size
    # the native engine's propagation says which assumptions fail and which groups agree on
    # something; only those are followed again with their ancestors
    compiled = forcing._compiled(board)
    ends = {(cell, v): forcing._branch(board, compiled, [(cell, v)], nested)
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
    branches = {a: _follow(board, a, nested) for a in sorted(wanted)}
    best = _Best()
    how = "singles (with two-candidate cells tried both ways)" if nested else "singles"
    name = forcing.NESTED if nested else forcing.NAME
    for (cell, v), b in branches.items():
        if b.contradiction is not None and b.nodes(b.contradiction) < best.cost:
            best.cost = b.nodes(b.contradiction)
            best.step = make_step(lay, name, f"if {lay.name(cell)} were {lay.sym(v)}, {how} "
                                  f"would run into a contradiction",
                                  eliminations=[(cell, v)], pattern=[cell])
    for what, assumptions in agreeing:
        _verity(board, what, [branches[a] for a in assumptions], assumptions, best, name, how)
    return best if best.step is not None else None


def _verity(board: Board, what: str, group: list[Branch], assumptions: list[tuple[int, int]],
            best: _Best, name: str, how: str) -> None:
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
            cost = first.nodes(anc)
            for other in group[1:]:
                got = getattr(other, kind).get(cid)
                if got is None:
                    cost = -1
                    break
                cost += other.nodes(got)
            if cost < 0 or cost >= best.cost:
                continue
            if (cell, cid % n + 1) in assumptions:
                continue
            best.cost = cost
            found = [(cell, cid % n + 1)]
            best.step = make_step(lay, name, f"{what}, and every choice leads by {how} to "
                                  f"the same result", pattern_candidates=assumptions,
                                  placements=found if kind == "placed" else [],
                                  eliminations=found if kind == "removed" else [])
