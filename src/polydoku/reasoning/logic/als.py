"""Almost locked sets: ALS-XZ.

An almost locked set (ALS) is k cells of one house with k+1 candidates between them: take one
value away and the rest is locked. Two ALSs A and B with a restricted common value x (every x
of A sees every x of B, so x is in at most one of them) leave one of them locked without x; if
they share another value z, z is then in A or in B, and any cell that sees every z of both
loses it. "Sees" is the layout's peer relation, so variant peers widen the eliminations.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from .board import Board, Layout, bits, compiled_core, recall, region_state, values_of
from .step import Step, cell_list, make_step, value_list

MAX_CELLS = 4


@dataclass(frozen=True)
class Als:
    """k cells of one house holding k+1 candidates."""

    cells: int                  # bitset of cells
    values: int                 # value bitmask
    house: str
    where: tuple[int, ...]      # per value v (index v-1): the ALS cells holding v, as a bitset
    sees: tuple[int, ...]       # per value v (index v-1): the cells that see all of where[v-1]
    packed: bytes = b""         # all of it as the compiled search reads it (see `_pack`)


def _pack(lay: Layout, cells: int, values: int, where: list[int], sees: list[int]) -> bytes:
    """Return an ALS as `als_xz` in _core.c reads it: its cells, its values (one word), then
    per value its cells holding it and the cells seeing them all, each cell set in words of
    64 bits."""
    full = (1 << lay.ncells) - 1
    return b"".join([lay.cell_sets([cells]), values.to_bytes(8, "little"), lay.cell_sets(where),
                     lay.cell_sets([x & full for x in sees])])


def almost_locked_sets(board: Board, max_cells: int = MAX_CELLS) -> list[Als]:
    """Return every ALS of up to `max_cells` cells, each cell set once (per house, by size,
    the cell groups in lexicographic order)."""
    lay, cand = board.layout, board.cand
    peers = lay.peers
    seen: set[int] = set()
    out = []

    def groups(free: list[int], k: int):
        """Yield (cells bitset, value union, cells) of the k-cell groups of `free` whose
        union has exactly k+1 values, in lexicographic order (a prefix already holding more
        than k+1 values cannot grow into one)."""
        stack: list[tuple[int, int, int, tuple[int, ...]]] = [(0, 0, 0, ())]
        while stack:
            start, mask, union, chosen = stack.pop()
            if len(chosen) == k:
                if union.bit_count() == k + 1:
                    yield mask, union, chosen
                continue
            nxt: list[tuple[int, int, int, tuple[int, ...]]] = []
            for j in range(start, len(free) - (k - len(chosen)) + 1):
                i = free[j]
                u = union | cand[i]
                if u.bit_count() <= k + 1:
                    nxt.append((j + 1, mask | 1 << i, u, chosen + (i,)))
            stack.extend(reversed(nxt))

    def house_sets(house) -> list[Als]:
        free = [i for i in house.cells if not board.value[i]]
        found = []
        for k in range(1, min(max_cells, len(free) - 1) + 1):
            for mask, union, group in groups(free, k):
                where = []
                sees = []
                for v in range(lay.size):
                    w = 0
                    s = -1
                    for i in group:
                        if cand[i] >> v & 1:
                            w |= 1 << i
                            s &= peers[i]
                    where.append(w)
                    sees.append(s)
                found.append(Als(mask, union, house.name, tuple(where), tuple(sees),
                                 _pack(lay, mask, union, where, sees)))
        return found

    # A house's ALSs depend only on its cells' candidates: the layout remembers them by those.
    for house in lay.houses:
        key = ("als", house.index, max_cells, region_state(board, house.cells))
        for a in recall(lay.memo, key, partial(house_sets, house)):
            if a.cells not in seen:
                seen.add(a.cells)
                out.append(a)
    return out


def find_als_xz(board: Board) -> Step | None:
    """Return an ALS-XZ: two ALSs joined by a restricted common value x, sharing a value z."""
    alses = almost_locked_sets(board)
    core = compiled_core()
    if core is not None and board.layout.size <= 64:
        return _compiled_xz(core, board, alses)
    # Bitsets over the ALS indices: those holding a value, those using a cell. For each A,
    # the Bs after it that share no cell and two values or more are found with a few big-int
    # operations instead of a pass over every pair; they come in the same order.
    lay = board.layout
    holding = [0] * (lay.size + 1)
    using = [0] * lay.ncells
    for k, s in enumerate(alses):
        for v in values_of(s.values):
            holding[v] |= 1 << k
        for i in bits(s.cells):
            using[i] |= 1 << k
    for k, a in enumerate(alses):
        once = twice = 0
        for v in values_of(a.values):
            twice |= once & holding[v]
            once |= holding[v]
        for i in bits(a.cells):
            twice &= ~using[i]
        twice >>= k + 1
        while twice:
            low = twice & -twice
            twice ^= low
            b = alses[k + low.bit_length()]
            common = a.values & b.values
            rest = common
            while rest:                 # each common value x, lowest first
                xb = rest & -rest
                rest ^= xb
                x = xb.bit_length()
                # x is restricted: every x of a sees every x of b
                if b.where[x - 1] & ~a.sees[x - 1]:
                    continue
                step = _xz(board, a, b, x, common & ~xb)
                if step:
                    return step
    return None


def _compiled_xz(core, board: Board, alses: list[Als]) -> Step | None:
    """Return what the search above returns, searched by the compiled core (`als_xz` in
    _core.c, the same pairs in the same order; a test holds them to the same steps)."""
    lay = board.layout
    found = core.als_xz(b"".join(a.packed for a in alses), len(alses), lay.size, lay.words,
                        board.packed_planes())
    if found is None:
        return None
    k, j, x = found
    a, b = alses[k], alses[j]
    return _xz(board, a, b, x, a.values & b.values & ~(1 << (x - 1)))


def _xz(board: Board, a: Als, b: Als, x: int, others: int) -> Step | None:
    """Return the ALS-XZ step of a and b with restricted common x, or None when it removes nothing."""
    lay = board.layout
    elim = []
    for z in values_of(others):
        targets = a.sees[z - 1] & b.sees[z - 1] & ~(a.cells | b.cells)
        elim += [(i, z) for i in bits(targets) if board.has(i, z)]
    if not elim:
        return None

    def describe(s: Als) -> str:
        return f"{cell_list(lay, bits(s.cells))} ({value_list(lay, values_of(s.values))}, {s.house})"

    pattern = [(i, v) for s in (a, b) for i in bits(s.cells) for v in values_of(board.cand[i])]
    return make_step(lay, "ALS-XZ", f"the almost locked sets {describe(a)} and {describe(b)} "
                     f"cannot both hold {lay.sym(x)}, which locks one of them: "
                     f"{value_list(lay, [v for _, v in elim], ' or ')} is in one or the other",
                     eliminations=elim, pattern_candidates=pattern)
