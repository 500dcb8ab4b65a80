"""The cell view: one candidate bitmask per variable (bit v-1 set while value v is possible),
narrowed to the fixpoint of singles, nogoods, tables and sums. The compiled core computes the
same fixpoint where it runs; `_propagate_python` is its pure-Python twin."""

from __future__ import annotations

from ..problem import Problem
from .binding import _ccore
from .compiled import Compiled
from .fields import _core


def propagate(cand: list[int], queue: list[int], C: Compiled) -> bool:
    """Narrow `cand` in place to a fixpoint of singles, nogoods and tables; False on a
    contradiction. `queue` holds the variables just fixed (each with one value left). The
    compiled core computes the same fixpoint where it runs."""
    cc = _ccore(C)
    if cc is not None and len(cand) == C.nvars and all(
            cand[i] and not cand[i] & (cand[i] - 1) for i in queue):
        narrowed = cc.propagate(cand, queue)
        if narrowed is None:
            return False
        cand[:] = narrowed
        return True
    return _propagate_python(cand, queue, C)


def _propagate_python(cand: list[int], queue: list[int], C: Compiled) -> bool:
    """The pure-Python `propagate`."""
    peers, units, full, nogoods, tables = C.peers, C.units, C.full, C.nogoods, C.table_bits
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
        if not _hidden_singles(cand, queue, units, full):
            return False
        if queue:
            continue
        # tables and sums last; what they narrow (singles or not) goes round again, so the
        # result is the fixpoint of all of them (the one the compiled core reaches)
        before = cand[:] if tables or C.linears else cand
        if tables and not _propagate_supports(cand, queue, tables):
            return False
        if C.linears and not queue and not _propagate_supports(cand, queue, C.linears):
            return False
        if not queue and cand == before:
            return True


_propagate = propagate  # the name it had before


def _hidden_singles(cand: list[int], queue: list[int], units, full: int) -> bool:
    """Fix each value that has one place left in a unit; False when a unit lacks a value or
    a cell is the one place of two."""
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
                if m & (m - 1):             # two values with no other place: one cell for both
                    return False
                if m and c != m:
                    cand[i] = m
                    queue.append(i)
    return True


def _propagate_supports(cand: list[int], queue: list[int], constraints) -> bool:
    """Keep only values some allowed tuple or total of each table or sum (`support`)
    supports; False on a wipe-out."""
    for t in constraints:
        support = t.support([cand[v] for v in t.vars])
        if support is None:
            return False
        for v, s in zip(t.vars, support):
            c = cand[v]
            if c & s != c:
                c &= s
                if not c:
                    return False
                cand[v] = c
                if not c & (c - 1):
                    queue.append(v)
    return True


def initial_candidates(problem: Problem, C: Compiled) -> list[int] | None:
    """Return the propagated candidates (one bitmask per variable) with the givens placed, or
    None on a contradiction."""
    return search_fixpoint(problem, C, problem.givens)


def reading_fixpoint(problem: Problem, C: Compiled, givens) -> list[int] | None:
    """Return the candidates (one bitmask per variable) with `givens` ((variable, value)
    pairs) placed and narrowed by the constraints' own filters (singles, nogoods, tables,
    sums by their totals: `propagate`'s fixpoint, what reasoning reads), None on a
    contradiction: the compiled core's where it runs, else `_propagate_python`'s."""
    cc = _ccore(C)
    if cc is not None:
        return cc.fixpoint(tuple(givens))
    cand = [(1 << d) - 1 for d in C.dsizes]
    for (x, a), row in C.conflicts.items():
        if row.get(x, 0) >> (a - 1) & 1:       # a value that conflicts with itself
            cand[x] &= ~(1 << (a - 1))
    for var, value in givens:
        if not (0 <= var < C.nvars and 1 <= value <= 64 and cand[var] >> (value - 1) & 1):
            return None
        cand[var] = 1 << (value - 1)
    if not all(cand):
        return None
    queue = [v for v in range(C.nvars) if not cand[v] & (cand[v] - 1)]
    return cand if _propagate_python(cand, queue, C) else None


def search_fixpoint(problem: Problem, C: Compiled, givens) -> list[int] | None:
    """Return the candidates (one bitmask per variable) with `givens` ((variable, value)
    pairs) placed and narrowed by the search's own filters (singles, nogoods, tables, sums by
    value sets, the tables and sums rules and houses imply), None on a contradiction: the
    compiled core's where it runs, else its pure-Python twin's (the field view), which reach
    the same fixpoint."""
    cc = _ccore(C)
    if cc is not None:
        return cc.fixpoint(tuple(givens), search=True)
    core = _core(problem, C)
    state = core.start(givens)
    state = state and core.fixpoint(*state)
    return None if state is None else core.candidates(state[0])
