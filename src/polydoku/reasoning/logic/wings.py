"""Wings and bivalue patterns: XY-Wing, XYZ-Wing, W-Wing, Remote Pair.

All rest on bivalue cells (two candidates left) and the layout's "sees" relation, so variant
peers join in. Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from .board import Board, bits, values_of
from .single_digit import conjugate_pairs
from .step import Step, cell_list, make_step, value_list


def bivalue_cells(board: Board) -> list[int]:
    """Return the unplaced cells with exactly two candidates."""
    return [i for i in board.unsolved() if board.cand[i].bit_count() == 2]


def find_xy_wing(board: Board) -> Step | None:
    """Return an XY-Wing: pivot {x,y} seeing pincers {x,z} and {y,z}; z leaves what sees both."""
    lay, cand, peers = board.layout, board.cand, board.layout.peers
    bivalue = bivalue_cells(board)
    for pivot in bivalue:
        wings = [j for j in bivalue if peers[pivot] >> j & 1
                 and (cand[j] & cand[pivot]).bit_count() == 1]
        for a in wings:
            z = cand[a] & ~cand[pivot]
            want = (cand[pivot] & ~cand[a]) | z
            for b in wings:
                if cand[b] != want or b == a:
                    continue
                zv = z.bit_length()
                elim = board.seen_by_all(zv, [a, b])
                if elim:
                    return make_step(lay, "XY-Wing", f"pivot {lay.name(pivot)} "
                                     f"({value_list(lay, values_of(cand[pivot]))}) sees "
                                     f"{lay.name(a)} ({value_list(lay, values_of(cand[a]))}) and "
                                     f"{lay.name(b)} ({value_list(lay, values_of(cand[b]))}): one "
                                     f"of the pincers is {lay.sym(zv)}", eliminations=elim,
                                     pattern_candidates=_cands(board, [pivot, a, b]))
    return None


def find_xyz_wing(board: Board) -> Step | None:
    """Return an XYZ-Wing: pivot {x,y,z} seeing pincers {x,z} and {y,z}; z leaves what sees all."""
    lay, cand, peers = board.layout, board.cand, board.layout.peers
    bivalue = bivalue_cells(board)
    for pivot in board.unsolved():
        if cand[pivot].bit_count() != 3:
            continue
        wings = [j for j in bivalue if peers[pivot] >> j & 1 and cand[j] & ~cand[pivot] == 0]
        for k, a in enumerate(wings):
            for b in wings[k + 1:]:
                if cand[a] | cand[b] != cand[pivot] or cand[a] == cand[b]:
                    continue
                zv = (cand[a] & cand[b]).bit_length()
                elim = board.seen_by_all(zv, [pivot, a, b])
                if elim:
                    return make_step(lay, "XYZ-Wing", f"pivot {lay.name(pivot)} "
                                     f"({value_list(lay, values_of(cand[pivot]))}) sees "
                                     f"{lay.name(a)} and {lay.name(b)}: one of the three is "
                                     f"{lay.sym(zv)}", eliminations=elim,
                                     pattern_candidates=_cands(board, [pivot, a, b]))
    return None


def find_w_wing(board: Board) -> Step | None:
    """Return a W-Wing: two cells {x,y} joined by a conjugate pair on x; y leaves what sees both."""
    lay, cand, peers = board.layout, board.cand, board.layout.peers
    bivalue = bivalue_cells(board)
    pairs = {v: conjugate_pairs(board, v) for v in range(1, lay.size + 1)}
    for k, a in enumerate(bivalue):
        for b in bivalue[k + 1:]:
            if cand[a] != cand[b] or peers[a] >> b & 1:
                continue
            for x in values_of(cand[a]):
                y = values_of(cand[a] & ~(1 << (x - 1)))[0]
                elim = board.seen_by_all(y, [a, b])
                if not elim:
                    continue
                for h, p, q in pairs[x]:
                    for s, t in ((p, q), (q, p)):
                        if {s, t} & {a, b} or not (peers[s] >> a & 1 and peers[t] >> b & 1):
                            continue
                        return make_step(lay, "W-Wing", f"{lay.name(a)} and {lay.name(b)} both "
                                         f"hold {value_list(lay, [x, y])}; {lay.sym(x)} is in "
                                         f"{lay.name(s)} or {lay.name(t)} ({h.name}), which see them, "
                                         f"so one of them is {lay.sym(y)}", eliminations=elim,
                                         houses=[h.name],
                                         pattern_candidates=_cands(board, [a, b]) + [(s, x), (t, x)])
    return None


def find_remote_pair(board: Board) -> Step | None:
    """Return a Remote Pair: a chain of 4+ cells with the same two candidates, alternating values."""
    lay, cand, peers = board.layout, board.cand, board.layout.peers
    groups: dict[int, list[int]] = {}
    for i in bivalue_cells(board):
        groups.setdefault(cand[i], []).append(i)
    for mask, cells in groups.items():
        if len(cells) < 4:
            continue
        for a, b in _two_colourings(cells, peers):
            if (a | b).bit_count() < 4:
                continue
            targets = [j for j in board.unsolved() if not (a | b) >> j & 1
                       and cand[j] & mask and peers[j] & a and peers[j] & b]
            elim = [(j, v) for j in targets for v in values_of(cand[j] & mask)]
            if elim:
                return make_step(lay, "Remote Pair", f"{cell_list(lay, bits(a | b))} all hold "
                                 f"{value_list(lay, values_of(mask))} and chain through each other, "
                                 f"so {cell_list(lay, bits(a))} and {cell_list(lay, bits(b))} hold "
                                 f"different values", eliminations=elim,
                                 pattern_candidates=_cands(board, list(bits(a | b))))
    return None


def _two_colourings(cells: list[int], peers: tuple[int, ...]) -> list[tuple[int, int]]:
    """Return the two colour classes of each connected, bipartite component of `cells` (seeing edges)."""
    inside = sum(1 << i for i in cells)
    colour: dict[int, int] = {}
    out = []
    for start in cells:
        if start in colour:
            continue
        colour[start], queue, masks, ok = 0, [start], [0, 0], True
        while queue:
            x = queue.pop()
            masks[colour[x]] |= 1 << x
            for y in bits(peers[x] & inside):
                if y not in colour:
                    colour[y] = 1 - colour[x]
                    queue.append(y)
                elif colour[y] == colour[x]:
                    ok = False
        if ok:
            out.append((masks[0], masks[1]))
    return out


def _cands(board: Board, cells: list[int]) -> list[tuple[int, int]]:
    """Return every candidate of the given cells."""
    return [(i, v) for i in cells for v in values_of(board.cand[i])]
