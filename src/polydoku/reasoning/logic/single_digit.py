"""Single-digit patterns: Skyscraper, 2-String Kite, Empty Rectangle, Simple Colouring.

All work on conjugate pairs (a value with exactly two places in a house: one of them holds it).
"Sees" is the layout's peer relation, so variant peers widen the eliminations.
Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from itertools import combinations
from typing import Iterator

from .board import Board, House, bits, first_per_digit
from .step import Step, cell_list, make_step

Pair = tuple[House, int, int]


def conjugate_pairs(board: Board, v: int, kinds: tuple[str, ...] = ("row", "column", "box", "other")
                    ) -> list[Pair]:
    """Return the houses (of the given kinds) where `v` has exactly two places, with the places."""
    out = []
    for kind in kinds:
        for h in board.layout.lines[kind]:
            places = board.place_mask(h, v)
            if places.bit_count() == 2:
                a, b = bits(places)
                out.append((h, a, b))
    return out


def _ends(one: tuple[int, int], other: tuple[int, int]) -> Iterator[tuple[int, int, int, int]]:
    """Yield (p, q, r, s) for each way to pick an end p of one pair and r of the other (q and s
    being the ends left)."""
    for p, q in (one, one[::-1]):
        for r, s in (other, other[::-1]):
            yield p, q, r, s


def find_skyscraper(board: Board) -> Step | None:
    """Return a Skyscraper: two parallel conjugate pairs whose bases share a line."""
    return first_per_digit(board, "skyscraper", lambda v: _skyscraper(board, v))


def _skyscraper(board: Board, v: int) -> Step | None:
    """Return a Skyscraper on value v, or None."""
    lay = board.layout
    n = lay.size
    for kind, across in (("row", lambda i: i % n), ("column", lambda i: i // n)):
        pairs = conjugate_pairs(board, v, (kind,))
        for (h1, a1, a2), (h2, b1, b2) in combinations(pairs, 2):
            for p, q, r, s in _ends((a1, a2), (b1, b2)):
                if across(p) != across(r) or across(q) == across(s):
                    continue
                elim = board.seen_by_all(v, [q, s], skip=(p, r))
                if elim:
                    return make_step(lay, "Skyscraper", f"{lay.sym(v)} is in "
                                     f"{lay.name(p)} or {lay.name(q)} ({h1.name}) and in "
                                     f"{lay.name(r)} or {lay.name(s)} ({h2.name}); "
                                     f"{lay.name(p)} and {lay.name(r)} cannot both hold it, "
                                     f"hence {lay.name(q)} or {lay.name(s)} does",
                                     eliminations=elim, houses=[h1.name, h2.name],
                                     pattern_candidates=[(i, v) for i in (p, q, r, s)])
    return None


def find_two_string_kite(board: Board) -> Step | None:
    """Return a 2-String Kite: a row pair and a column pair with one end each in the same box."""
    return first_per_digit(board, "2-string kite", lambda v: _two_string_kite(board, v))


def _two_string_kite(board: Board, v: int) -> Step | None:
    """Return a 2-String Kite on value v, or None."""
    lay = board.layout
    boxes = lay.lines["box"]
    rows = conjugate_pairs(board, v, ("row",))
    cols = conjugate_pairs(board, v, ("column",))
    for (h1, a1, a2), (h2, b1, b2) in ((x, y) for x in rows for y in cols):
        if len({a1, a2, b1, b2}) < 4:
            continue
        for p, q, r, s in _ends((a1, a2), (b1, b2)):
            box = next((b for b in boxes if b.mask >> p & 1 and b.mask >> r & 1), None)
            if box is None:
                continue
            elim = board.seen_by_all(v, [q, s], skip=(p, r))
            if elim:
                return make_step(lay, "2-String Kite", f"{lay.sym(v)} is in {lay.name(p)} "
                                 f"or {lay.name(q)} ({h1.name}) and in {lay.name(r)} or "
                                 f"{lay.name(s)} ({h2.name}); {lay.name(p)} and "
                                 f"{lay.name(r)} share {box.name}, hence {lay.name(q)} "
                                 f"or {lay.name(s)} holds it", eliminations=elim,
                                 houses=[h1.name, h2.name, box.name],
                                 pattern_candidates=[(i, v) for i in (p, q, r, s)])
    return None


def find_empty_rectangle(board: Board) -> Step | None:
    """Return an Empty Rectangle: a box's places in a cross, and a conjugate pair meeting it."""
    return first_per_digit(board, "empty rectangle", lambda v: _empty_rectangle(board, v))


def _empty_rectangle(board: Board, v: int) -> Step | None:
    """Return an Empty Rectangle on value v, or None."""
    lay = board.layout
    n = lay.size
    pairs = conjugate_pairs(board, v, ("row", "column"))
    for box in lay.lines["box"]:
        places = board.place_mask(box, v)
        if places.bit_count() < 3:
            continue
        for r, c in _crosses(box, places, n):
            step = _er_with_pairs(board, v, box, places, r, c, pairs)
            if step:
                return step
    return None


def _crosses(box: House, places: int, n: int) -> list[tuple[int, int]]:
    """Return the (row, column) crosses through `box` that hold all `places` but not in one line."""
    rows = sorted({i // n for i in box.cells})
    cols = sorted({i % n for i in box.cells})
    out = []
    for r in rows:
        for c in cols:
            line_r = sum(1 << (r * n + k) for k in cols)
            line_c = sum(1 << (k * n + c) for k in rows)
            if not places & ~(line_r | line_c) and places & ~line_r and places & ~line_c:
                out.append((r, c))
    return out


def _er_with_pairs(board: Board, v: int, box: House, places: int, r: int, c: int,
                   pairs: list[Pair]) -> Step | None:
    """Return an Empty Rectangle step for the cross (r, c) of `box`, or None."""
    lay = board.layout
    n = lay.size
    in_box = set(box.cells)
    box_rows, box_cols = {i // n for i in in_box}, {i % n for i in in_box}
    for h, a, b in pairs:
        for p, q in ((a, b), (b, a)):
            if h.kind == "row" and p % n == c and p // n not in box_rows and q % n not in box_cols:
                target = r * n + q % n
            elif h.kind == "column" and p // n == r and p % n not in box_cols \
                    and q // n not in box_rows:
                target = (q // n) * n + c
            else:
                continue
            if board.has(target, v):
                return make_step(lay, "Empty Rectangle", f"in {box.name}, {lay.sym(v)} lies in row "
                                 f"{r + 1} or column {c + 1}; with the conjugate pair "
                                 f"{lay.name(p)}/{lay.name(q)} in {h.name}, {lay.name(target)} "
                                 f"would leave {box.name} without {lay.sym(v)}",
                                 eliminations=[(target, v)], houses=[box.name, h.name],
                                 pattern_candidates=[(i, v) for i in [*bits(places), p, q]])
    return None


def _colour(board: Board, v: int) -> list[tuple[int, int, list[Pair]]]:
    """Return the two-coloured components of `v`'s conjugate-pair graph: (colour A, colour B, pairs)."""
    edges: dict[int, list[int]] = {}
    pairs_of: dict[int, list[Pair]] = {}
    for pair in conjugate_pairs(board, v):
        _, a, b = pair
        edges.setdefault(a, []).append(b)
        edges.setdefault(b, []).append(a)
        pairs_of.setdefault(a, []).append(pair)
    seen: dict[int, int] = {}
    out = []
    for start in edges:
        if start in seen:
            continue
        seen[start], queue, masks, links, bipartite = 0, [start], [0, 0], [], True
        while queue:
            x = queue.pop()
            masks[seen[x]] |= 1 << x
            links += pairs_of.get(x, [])
            for y in edges[x]:
                if y not in seen:
                    seen[y] = 1 - seen[x]
                    queue.append(y)
                bipartite &= seen[y] != seen[x]
        if bipartite and (masks[0] | masks[1]).bit_count() >= 3:
            out.append((masks[0], masks[1], links))
    return out


def find_simple_colouring(board: Board) -> Step | None:
    """Return a Simple Colouring trap (a cell sees both colours) or wrap (a colour sees itself)."""
    return first_per_digit(board, "simple colouring", lambda v: _simple_colouring(board, v))


def _simple_colouring(board: Board, v: int) -> Step | None:
    """Return a Simple Colouring step on value v, or None."""
    lay = board.layout
    peers = lay.peers
    for a, b, links in _colour(board, v):
        houses = [h.name for h, _, _ in links]
        pattern = [(i, v) for i in bits(a | b)]
        for mine, other in ((a, b), (b, a)):
            clash = next(((x, y) for x in bits(mine) for y in bits(peers[x] & mine)), None)
            if clash:
                return make_step(lay, "Simple Colouring", f"colouring the conjugate pairs of "
                                 f"{lay.sym(v)}, {lay.name(clash[0])} and {lay.name(clash[1])} "
                                 f"share a colour and see each other (colour wrap), so the "
                                 f"other colour ({cell_list(lay, bits(other))}) holds {lay.sym(v)}",
                                 eliminations=[(i, v) for i in bits(mine)],
                                 pattern_candidates=pattern, houses=houses)
        elim = [(i, v) for i in range(lay.ncells) if not (a | b) >> i & 1 and board.has(i, v)
                and peers[i] & a and peers[i] & b]
        if elim:
            return make_step(lay, "Simple Colouring", f"colouring the conjugate pairs of "
                             f"{lay.sym(v)} ({cell_list(lay, bits(a))} against "
                             f"{cell_list(lay, bits(b))}), one colour holds {lay.sym(v)}; "
                             f"cells seeing both colours cannot (colour trap)",
                             eliminations=elim, pattern_candidates=pattern, houses=houses)
    return None
