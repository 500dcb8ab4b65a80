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
from itertools import combinations

from .board import Board, bits, values_of
from .step import Step, cell_list, make_step, value_list

MAX_CELLS = 4


@dataclass(frozen=True)
class Als:
    """k cells of one house holding k+1 candidates."""

    cells: int                  # bitset of cells
    values: int                 # value bitmask
    house: str
    where: tuple[int, ...]      # per value v (index v-1): the ALS cells holding v, as a bitset


def almost_locked_sets(board: Board, max_cells: int = MAX_CELLS) -> list[Als]:
    """Return every ALS of up to `max_cells` cells, each cell set once."""
    lay, cand = board.layout, board.cand
    seen: set[int] = set()
    out = []
    for house in lay.houses:
        free = [i for i in house.cells if not board.value[i]]
        for k in range(1, min(max_cells, len(free) - 1) + 1):
            for group in combinations(free, k):
                union = 0
                for i in group:
                    union |= cand[i]
                mask = sum(1 << i for i in group)
                if union.bit_count() != k + 1 or mask in seen:
                    continue
                seen.add(mask)
                where = tuple(sum(1 << i for i in group if cand[i] >> v & 1)
                              for v in range(lay.size))
                out.append(Als(mask, union, house.name, where))
    return out


def _sees_all(board: Board, a: int, b: int) -> bool:
    """Return whether every cell of bitset `a` sees every cell of bitset `b`."""
    peers = board.layout.peers
    return all(not b & ~peers[i] for i in bits(a))


def _seen_by_all(board: Board, cells: int) -> int:
    """Return the cells that see every cell of a bitset."""
    out = -1
    for i in bits(cells):
        out &= board.layout.peers[i]
    return out


def find_als_xz(board: Board) -> Step | None:
    """Return an ALS-XZ: two ALSs joined by a restricted common value x, sharing a value z."""
    alses = almost_locked_sets(board)
    for a, b in combinations(alses, 2):
        common = a.values & b.values
        if a.cells & b.cells or common.bit_count() < 2:
            continue
        for x in values_of(common):
            if not _sees_all(board, a.where[x - 1], b.where[x - 1]):
                continue
            step = _xz(board, a, b, x, common & ~(1 << (x - 1)))
            if step:
                return step
    return None


def _xz(board: Board, a: Als, b: Als, x: int, others: int) -> Step | None:
    """Return the ALS-XZ step of a and b with restricted common x, or None when it removes nothing."""
    lay = board.layout
    elim = []
    for z in values_of(others):
        holders = a.where[z - 1] | b.where[z - 1]
        targets = _seen_by_all(board, holders) & ~(a.cells | b.cells)
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
