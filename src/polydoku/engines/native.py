"""The native engine: bitmask candidates, propagation (naked and hidden singles, nogoods,
tables) and depth-first search on the variable with the fewest candidates.

Candidates are one int per variable (bit v-1 set when value v is still possible). The compiled
structure of a problem (peers, units, nogood and table indexes) is cached per constraint tuple,
so puzzles that share a geometry and rules compile once.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..problem import AbsDiffNot, AllDifferent, Nogood, Problem, Table
from .base import Availability, Engine, Outcome, Status


class _Timeout(Exception):
    """Raised inside the search when the deadline has passed."""


@dataclass
class Compiled:
    """A problem's structure in the form the search wants: plain lists of ints and tuples."""

    nvars: int
    full: int
    peers: list[tuple[int, ...]]
    units: list[tuple[int, ...]]
    nogoods: list[dict[int, tuple[tuple[int, int], ...]]] | None
    tables: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]


_CACHE: dict[int, tuple[tuple, Compiled]] = {}


def compile_problem(problem: Problem) -> Compiled:
    """Return the compiled structure of a problem's constraints (cached per constraint tuple)."""
    key = id(problem.constraints)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is problem.constraints:
        return hit[1]
    n, size = problem.nvars, problem.size
    peers: list[set[int]] = [set() for _ in range(n)]
    units: list[tuple[int, ...]] = []
    ng: list[dict[int, dict[int, int]]] = [dict() for _ in range(n)]
    tables = []

    def forbid(x: int, a: int, y: int, b: int) -> None:
        row = ng[x].setdefault(1 << (a - 1), {})
        row[y] = row.get(y, 0) | 1 << (b - 1)

    for c in problem.constraints:
        if isinstance(c, AllDifferent):
            for v in c.vars:
                peers[v].update(c.vars)
            if len(c.vars) == size:
                units.append(tuple(c.vars))
        elif isinstance(c, Nogood):
            forbid(c.x, c.a, c.y, c.b)
            forbid(c.y, c.b, c.x, c.a)
        elif isinstance(c, AbsDiffNot):
            for a in range(1, size + 1):
                for b in (a - c.d, a + c.d):
                    if 1 <= b <= size:
                        forbid(c.x, a, c.y, b)
                        forbid(c.y, b, c.x, a)
        elif isinstance(c, Table):
            tables.append((tuple(c.vars), tuple(c.tuples)))
        else:
            raise TypeError(f"native engine cannot handle {type(c).__name__}")
    compiled = Compiled(
        nvars=n, full=(1 << size) - 1,
        peers=[tuple(sorted(p - {i})) for i, p in enumerate(peers)],
        units=units,
        nogoods=[{bit: tuple(row.items()) for bit, row in d.items()} for d in ng]
        if any(ng) else None,
        tables=tables)
    if len(_CACHE) > 32:
        _CACHE.clear()
    _CACHE[key] = (problem.constraints, compiled)
    return compiled


def _propagate(cand: list[int], queue: list[int], C: Compiled) -> bool:
    """Narrow `cand` in place to a fixpoint; return False on a contradiction."""
    peers, units, full, nogoods, tables = C.peers, C.units, C.full, C.nogoods, C.tables
    while True:
        while queue:
            i = queue.pop()
            bit = cand[i]
            for p in peers[i]:
                c = cand[p]
                if c & bit:
                    c ^= bit
                    if not c:
                        return False
                    cand[p] = c
                    if not c & (c - 1):
                        queue.append(p)
            if nogoods is not None:
                for y, mask in nogoods[i].get(bit, ()):
                    c = cand[y]
                    if c & mask:
                        c &= ~mask
                        if not c:
                            return False
                        cand[y] = c
                        if not c & (c - 1):
                            queue.append(y)
        for unit in units:
            once = twice = 0
            for i in unit:
                c = cand[i]
                twice |= once & c
                once |= c
            if once != full:
                return False
            uniq = once & ~twice
            if uniq:
                for i in unit:
                    c = cand[i]
                    m = c & uniq
                    if m and c != m:
                        if m & (m - 1):
                            return False
                        cand[i] = m
                        queue.append(i)
        if tables and not queue:
            if not _propagate_tables(cand, queue, tables):
                return False
        if not queue:
            return True


def _propagate_tables(cand: list[int], queue: list[int], tables) -> bool:
    """Keep only values supported by some allowed tuple of each table; False on a wipe-out."""
    for vs, tuples in tables:
        support = [0] * len(vs)
        for t in tuples:
            if all(cand[v] >> (x - 1) & 1 for v, x in zip(vs, t)):
                for j, x in enumerate(t):
                    support[j] |= 1 << (x - 1)
        for v, s in zip(vs, support):
            c = cand[v]
            if c & s != c:
                c &= s
                if not c:
                    return False
                cand[v] = c
                if not c & (c - 1):
                    queue.append(v)
    return True


class _Search:
    """Depth-first search collecting up to `limit` solutions."""

    def __init__(self, C: Compiled, limit: int, deadline: float | None):
        self.C, self.limit, self.deadline = C, limit, deadline
        self.solutions: list[tuple[int, ...]] = []
        self.nodes = 0

    def run(self, cand: list[int]) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes & 255 == 0 and time.monotonic() > self.deadline:
            raise _Timeout
        best, best_count = -1, 1 << 30
        for i, c in enumerate(cand):
            if c & (c - 1):
                k = c.bit_count()
                if k < best_count:
                    best, best_count = i, k
                    if k == 2:
                        break
        if best < 0:
            self.solutions.append(tuple(c.bit_length() for c in cand))
            return
        c = cand[best]
        while c:
            bit = c & -c
            c ^= bit
            child = cand[:]
            child[best] = bit
            if _propagate(child, [best], self.C):
                self.run(child)
                if len(self.solutions) >= self.limit:
                    return


def initial_candidates(problem: Problem, C: Compiled) -> list[int] | None:
    """Return the propagated candidates with the givens placed, or None on a contradiction."""
    cand = [C.full] * C.nvars
    queue = []
    for var, value in problem.givens:
        bit = 1 << (value - 1)
        if not cand[var] & bit:
            return None
        cand[var] = bit
        queue.append(var)
    if not _propagate(cand, queue, C):
        return None
    return cand


def search(problem: Problem, max_solutions: int = 1, timeout: float | None = None) -> Outcome:
    """Return the native engine's outcome for a problem."""
    C = compile_problem(problem)
    deadline = time.monotonic() + timeout if timeout else None
    cand = initial_candidates(problem, C)
    if cand is None:
        return Outcome(Status.UNSATISFIABLE, exhausted=True, stats={"nodes": 0}, engine="native")
    s = _Search(C, max(1, max_solutions), deadline)
    try:
        s.run(cand)
    except _Timeout:
        status = Status.SOLVED if s.solutions else Status.UNKNOWN
        return Outcome(status, s.solutions, False, {"nodes": s.nodes}, "timed out", "native")
    exhausted = len(s.solutions) < s.limit
    status = Status.SOLVED if s.solutions else Status.UNSATISFIABLE
    return Outcome(status, s.solutions, exhausted, {"nodes": s.nodes}, engine="native")


class NativeEngine(Engine):
    """polydoku's own solver, in process."""

    id = "native"
    title = "polydoku's own bitmask propagation-and-search solver (in process)"
    install_hint = "built in"
    capabilities = frozenset({"solve", "count"})

    def available(self) -> Availability:
        from .. import __version__
        return Availability(True, __version__)

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        return search(problem, max_solutions, timeout)
