"""Chains: X-Chain, XY-Chain and alternating inference chains (AIC, nice loops).

A strong link joins two candidates of which at least one is true (a bivalue cell, a value with
two places in a house); a weak link joins two that cannot both be true (the layout's conflicts:
same cell, peers with one value, non-consecutive neighbours). A chain that starts "if s is
false" and alternates strong and weak links ends in "then y is true": s or y holds, so every
candidate that excludes both goes. A chain that comes back to s itself proves s.

The search is breadth-first from every start, so the chain reported is a shortest one. Finders
return the first (shortest) step they see, or None; none changes the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .board import Board, bits
from .step import Step, cands_of_mask, make_step

MAX_LINKS = {"X-Chain": 15, "XY-Chain": 15, "AIC": 13}

Strong = dict[int, list[int]]


@dataclass
class Found:
    """A chain from start `s` (false) to `end` (true): its links and what it concludes."""

    links: int
    start: int
    end: int
    nodes: list[tuple[int, bool]]     # (candidate, is true) from the start on
    eliminations: int                  # candidate bitset
    proves_start: bool


def strong_links(board: Board, bivalue: bool, bilocal: bool, digit: int = 0) -> Strong:
    """Return, per candidate, its strong-link partners (bivalue cells and/or two-place houses)."""
    lay = board.layout
    n = lay.size
    out: Strong = {}
    if bivalue:
        for i in board.unsolved():
            c = board.cand[i]
            if c.bit_count() == 2:
                a, b = (i * n + k for k in bits(c))
                out.setdefault(a, []).append(b)
                out.setdefault(b, []).append(a)
    if bilocal:
        for h in lay.houses:
            for v in ([digit] if digit else range(1, n + 1)):
                places = board.place_mask(h, v)
                if places.bit_count() == 2:
                    a, b = (i * n + v - 1 for i in bits(places))
                    out.setdefault(a, []).append(b)
                    out.setdefault(b, []).append(a)
    return out


def _bfs(board: Board, live: int, s: int, strong: Strong, weak: Callable[[int], int],
         limit: int, end_ok: Callable[[int, int], bool]) -> Found | None:
    """Return the shortest conclusive chain from "s is false", up to `limit` links, or None."""
    conflicts = board.layout.conflicts
    cs = conflicts[s] & live
    parent: dict[int, int] = {s << 1: -1}
    frontier, links = [s << 1], 0
    while frontier and links < limit:
        ons = []
        for key in frontier:
            for y in strong.get(key >> 1, ()):
                k = y << 1 | 1
                if k not in parent:
                    parent[k] = key
                    ons.append(k)
        links += 1
        for k in ons:
            y = k >> 1
            if y == s:
                return Found(links, s, y, _path(parent, k), 0, True)
            if links >= 3 and end_ok(s, y):
                elim = cs & conflicts[y]
                if elim:
                    return Found(links, s, y, _path(parent, k), elim, False)
        if links + 2 > limit:
            break
        frontier = []
        for k in ons:
            for z in bits(weak(k >> 1)):
                kk = z << 1
                if kk not in parent:
                    parent[kk] = k
                    frontier.append(kk)
        links += 1
    return None


def _path(parent: dict[int, int], key: int) -> list[tuple[int, bool]]:
    """Return the chain's nodes from the start to `key`."""
    out = []
    while key != -1:
        out.append((key >> 1, bool(key & 1)))
        key = parent[key]
    return out[::-1]


def _shortest(board: Board, strong: Strong, weak: Callable[[int], int], starts: list[int],
              limit: int, end_ok: Callable[[int, int], bool]) -> Found | None:
    """Return the shortest conclusive chain over all starts (the first one found among equals)."""
    live = board.live()
    best: Found | None = None
    for s in starts:
        found = _bfs(board, live, s, strong, weak, best.links - 1 if best else limit, end_ok)
        if found and (best is None or found.links < best.links):
            best = found
            if best.links <= 3:
                break
    return best


def eureka(board: Board, nodes: list[tuple[int, bool]]) -> str:
    """Return a chain in Eureka notation: (5)r1c1=(5)r1c7-(3)r1c7=..."""
    lay = board.layout
    text = ""
    for k, (c, _) in enumerate(nodes):
        cell, v = lay.split(c)
        if k:
            text += "=" if k % 2 else "-"
        text += f"({lay.sym(v)}){lay.name(cell)}"
    return text


def _step(board: Board, name: str, found: Found) -> Step:
    """Return the step of a found chain."""
    lay = board.layout
    chain = eureka(board, found.nodes)
    s_cell, s_v = lay.split(found.start)
    start = f"{lay.sym(s_v)} in {lay.name(s_cell)}"
    pattern = [lay.split(c) for c, _ in found.nodes]
    if found.proves_start:
        return make_step(lay, name, f"{chain}: if {start} were false the chain would make it true",
                         placements=[(s_cell, s_v)], pattern_candidates=pattern, chain=chain)
    e_cell, e_v = lay.split(found.end)
    return make_step(lay, name, f"{chain}: {start} or {lay.sym(e_v)} in {lay.name(e_cell)} is "
                     f"true", eliminations=cands_of_mask(lay, found.eliminations),
                     pattern_candidates=pattern, chain=chain)


def find_x_chain(board: Board) -> Step | None:
    """Return an X-Chain: one value, strong links in houses, weak links between peers."""
    lay = board.layout
    best: Found | None = None
    for v in range(1, lay.size + 1):
        strong = strong_links(board, False, True, v)
        mask = lay.value_masks[v] & board.live()
        found = _shortest(board, strong, lambda c: lay.conflicts[c] & mask, sorted(strong),
                          best.links - 1 if best else MAX_LINKS["X-Chain"], lambda s, y: True)
        if found and (best is None or found.links < best.links):
            best = found
    return _step(board, "X-Chain", best) if best else None


def find_xy_chain(board: Board) -> Step | None:
    """Return an XY-Chain: bivalue cells linked by equal values; both ends hold the same value."""
    lay = board.layout
    n = lay.size
    strong = strong_links(board, True, False)
    live, inside = board.live(), sum(1 << c for c in strong)

    def weak(c: int) -> int:
        return lay.conflicts[c] & lay.value_masks[c % n + 1] & live & inside

    found = _shortest(board, strong, weak, sorted(strong), MAX_LINKS["XY-Chain"],
                      lambda s, y: s % n == y % n and s // n != y // n)
    return _step(board, "XY-Chain", found) if found else None


def find_aic(board: Board) -> Step | None:
    """Return an alternating inference chain over every kind of strong and weak link."""
    lay = board.layout
    strong = strong_links(board, True, True)
    live, inside = board.live(), sum(1 << c for c in strong)

    def weak(c: int) -> int:
        return lay.conflicts[c] & live & inside

    found = _shortest(board, strong, weak, sorted(strong), MAX_LINKS["AIC"], lambda s, y: True)
    return _step(board, "AIC", found) if found else None
