"""Uniqueness techniques: Unique Rectangle types 1-4 and BUG+1.

They assume the puzzle has exactly one solution: a pattern that would allow two (a "deadly"
rectangle, a bivalue universal grave) cannot be the answer. The solver enables them only when
the native engine proved the puzzle unique and the rules are classic (a variant rule can break
the swap that makes a rectangle deadly); on any other board these finders return None.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from .board import Board, House, bits, values_of
from .step import Step, cell_list, make_step, value_list

Rect = tuple[tuple[int, int, int, int], int]     # (four cells a b / c d, the deadly pair mask)


def _rectangles(board: Board) -> Iterator[Rect]:
    """Yield unplaced rectangles over two rows, two columns and two boxes, with each shared
    pair, in order of rows, columns and pair, that have two corners in a row or a column
    holding only the pair: every type below needs them (type 1 has three such corners, types
    2-4 two, opposite their roof). They are found from those corners, not by trying every
    rectangle of the grid."""
    lay = board.layout
    n = lay.size
    box_of = [0] * lay.ncells
    for box in lay.lines["box"]:
        for i in box.cells:
            box_of[i] = box.index
    val, cand = board.value, board.cand
    rows: dict[tuple[int, int], list[int]] = {}        # (row, pair mask) -> its columns
    cols: dict[tuple[int, int], list[int]] = {}        # (column, pair mask) -> its rows
    for i in range(lay.ncells):
        if not val[i] and cand[i].bit_count() == 2:
            r, c = divmod(i, n)
            rows.setdefault((r, cand[i]), []).append(c)
            cols.setdefault((c, cand[i]), []).append(r)
    keys: set[tuple[int, int, int, int, int]] = set()
    for (r, mask), where in rows.items():
        for c1, c2 in combinations(where, 2):
            keys.update((min(r, r2), max(r, r2), c1, c2, mask) for r2 in range(n) if r2 != r)
    for (c, mask), where in cols.items():
        for r1, r2 in combinations(where, 2):
            keys.update((r1, r2, min(c, c2), max(c, c2), mask) for c2 in range(n) if c2 != c)
    for r1, r2, c1, c2, pair in sorted(keys, key=lambda k: (k[:4], bits(k[4]))):
        a, b, c, d = r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2
        if val[a] or val[b] or val[c] or val[d]:
            continue
        if cand[a] & cand[b] & cand[c] & cand[d] & pair != pair \
                or len({box_of[a], box_of[b], box_of[c], box_of[d]}) != 2:
            continue
        yield (a, b, c, d), pair


def _usable(board: Board) -> bool:
    """Return whether uniqueness reasoning is allowed on this board."""
    return board.unique and board.layout.is_classic


def _split(board: Board, four, pair: int) -> tuple[list[int], list[int]]:
    """Return the rectangle's cells holding only the pair, and the others (the roof)."""
    floor = [i for i in four if board.cand[i] == pair]
    return floor, [i for i in four if board.cand[i] != pair]


def _ur_step(board: Board, kind: int, four, pair: int, reason: str, elim) -> Step:
    """Return a Unique Rectangle step of type `kind`."""
    lay = board.layout
    xy = value_list(lay, values_of(pair))
    return make_step(lay, f"Unique Rectangle Type {kind}",
                     f"{cell_list(lay, four)} would form a deadly rectangle on {xy} (two "
                     f"solutions; the puzzle is unique); {reason}", eliminations=elim,
                     pattern_candidates=[(i, v) for i in four for v in values_of(board.cand[i])])


def find_ur1(board: Board) -> Step | None:
    """Return a Unique Rectangle Type 1: three corners hold only the pair."""
    if not _usable(board):
        return None
    for four, pair in _rectangles(board):
        floor, roof = _split(board, four, pair)
        if len(floor) == 3:
            cell = roof[0]
            return _ur_step(board, 1, four, pair, f"{board.layout.name(cell)} must break it",
                            [(cell, v) for v in values_of(pair)])
    return None


def _roof_pairs(board: Board) -> Iterator[tuple[tuple, int, list[int], list[int]]]:
    """Yield rectangles whose two bivalue corners and two-cell roof share a row or column."""
    n = board.layout.size
    for four, pair in _rectangles(board):
        floor, roof = _split(board, four, pair)
        if len(floor) == 2 and (roof[0] // n == roof[1] // n or roof[0] % n == roof[1] % n):
            yield four, pair, floor, roof


def find_ur2(board: Board) -> Step | None:
    """Return a Unique Rectangle Type 2: both roof cells add the same one candidate."""
    if not _usable(board):
        return None
    lay, cand = board.layout, board.cand
    for four, pair, _, roof in _roof_pairs(board):
        extra = cand[roof[0]] & ~pair
        if extra.bit_count() != 1 or cand[roof[1]] != pair | extra:
            continue
        z = extra.bit_length()
        seen = lay.peers[roof[0]] & lay.peers[roof[1]]
        elim = [(j, z) for j in bits(seen) if j not in four and board.has(j, z)]
        if elim:
            return _ur_step(board, 2, four, pair, f"one of {cell_list(lay, roof)} must be "
                            f"{lay.sym(z)}", elim)
    return None


def _shared_houses(board: Board, cells: list[int]) -> list[House]:
    """Return the houses that contain every one of `cells`."""
    return [h for h in board.layout.houses if all(h.mask >> i & 1 for i in cells)]


def find_ur3(board: Board) -> Step | None:
    """Return a Unique Rectangle Type 3: the roof's extras form a naked subset with other cells."""
    if not _usable(board):
        return None
    lay, cand = board.layout, board.cand
    for four, pair, _, roof in _roof_pairs(board):
        extra = (cand[roof[0]] | cand[roof[1]]) & ~pair
        for house in _shared_houses(board, roof):
            others = [i for i in house.cells if not board.value[i] and i not in roof]
            for k in range(1, 4):
                for group in combinations(others, k):
                    union = extra
                    for i in group:
                        union |= cand[i]
                    if union.bit_count() != k + 1 or union & pair:
                        continue
                    rest = [i for i in others if i not in group]
                    elim = [(i, v) for i in rest for v in values_of(cand[i] & union)]
                    if elim:
                        return _ur_step(board, 3, four, pair, f"one of {cell_list(lay, roof)} "
                                        f"holds {value_list(lay, values_of(extra), ' or ')}, a "
                                        f"naked subset on {value_list(lay, values_of(union))} "
                                        f"with {cell_list(lay, group)} in {house.name}", elim)
    return None


def find_ur4(board: Board) -> Step | None:
    """Return a Unique Rectangle Type 4: one pair value is locked in the roof, the other leaves it."""
    if not _usable(board):
        return None
    lay = board.layout
    for four, pair, _, roof in _roof_pairs(board):
        x, y = values_of(pair)
        for house in _shared_houses(board, roof):
            for keep, drop in ((x, y), (y, x)):
                if board.place_mask(house, keep) == (1 << roof[0]) | (1 << roof[1]):
                    return _ur_step(board, 4, four, pair, f"{lay.sym(keep)} must be in "
                                    f"{cell_list(lay, roof, 'or')} ({house.name})",
                                    [(i, drop) for i in roof])
    return None


def find_bug_plus_one(board: Board) -> Step | None:
    """Return a BUG+1: every cell bivalue but one, whose odd candidate must be true."""
    if not _usable(board):
        return None
    lay, cand = board.layout, board.cand
    unsolved = board.unsolved()
    big = [i for i in unsolved if cand[i].bit_count() != 2]
    if len(big) != 1 or cand[big[0]].bit_count() != 3:
        return None
    cell = big[0]
    for v in values_of(cand[cell]):
        trial = board.copy()
        trial.eliminate(cell, v)
        if all(trial.place_mask(h, w).bit_count() in (0, 2)
               for h in lay.houses for w in range(1, lay.size + 1)):
            return make_step(lay, "BUG+1", f"every other unsolved cell is bivalue; without "
                             f"{lay.sym(v)} in {lay.name(cell)} the grid would be a deadly pattern "
                             f"(the puzzle is unique)", placements=[(cell, v)],
                             pattern_candidates=[(i, w) for i in unsolved for w in values_of(cand[i])])
    return None
