"""The propagation core: the single source of what excludes what. It compiles a problem's
constraints once (`compiled.py`), binds the compiled core written in C (`binding.py`,
`polydoku._core`), and holds its pure-Python twin (`cells.py` the cell view, `fields.py` the
field view the fallback search runs on, `filters.py` the filters of tables and sums).

The API every reader asks:

- `exclusions(problem)`: per cell candidate (`cell * N + value - 1`), the cell candidates it
  rules out on its own (its cell's other values, the same value in every cell that must differ,
  the pairs nogoods and difference rules forbid): what logic, drawing and explanations call
  "sees";
- `domains(problem, givens)`: the candidates left (one bitmask per variable) once the givens
  are placed and the search's propagation (singles, nogoods, tables, sums by value sets, the
  tables and sums rules and houses imply) reaches its fixpoint, None on a contradiction (the
  compiled core and its twin reach the same one); `propagate` narrows a position of one's
  own by the constraints' own filters.

The engine (engines/native.py) searches over this core; reasoning and drawing read it.
"""

from __future__ import annotations

from typing import Iterable

from ..problem import Problem
from .binding import backend, module
from .cells import initial_candidates, propagate, search_fixpoint
from .compiled import Compiled, compile_problem
from .filters import constraint_filter

__all__ = ["Compiled", "backend", "compile_problem", "constraint_filter", "domains",
           "exclusions", "initial_candidates", "module", "peers", "propagate", "unexcluded"]


def domains(problem: Problem, givens: Iterable[tuple[int, int]] | None = None
            ) -> list[int] | None:
    """Return the candidates at the search's fixpoint (one bitmask per variable, bit v-1 for
    value v) with the givens placed (the problem's own when None), or None on a
    contradiction."""
    C = compile_problem(problem)
    return search_fixpoint(problem, C, problem.givens if givens is None else tuple(givens))


def exclusions(problem: Problem) -> tuple[int, ...]:
    """Return, per cell candidate c = cell * N + value - 1 (N the grid's size), the bitset of
    the cell candidates c rules out on its own (never c itself). Built once per compiled
    problem from the peers and conflicts the search places by; constraints that touch an
    auxiliary variable (a position, a flag, a partial sum) say nothing here."""
    C = compile_problem(problem)
    if C.exclusions is None:
        C.exclusions = _exclusions(C, problem.size, problem.ncells)
    return C.exclusions


def _exclusions(C: Compiled, n: int, ncells: int) -> tuple[int, ...]:
    """Return `exclusions` of a compiled problem (cell peers, then cell-to-cell conflicts)."""
    full = (1 << n) - 1
    value_rows = [0] * n              # per value: the candidate bit of that value in cell 0
    for v in range(n):
        value_rows[v] = 1 << v
    out = []
    for i in range(ncells):
        same_cell = full << (i * n)
        peer_cells = 0
        for j in C.cell_peers[i]:
            peer_cells |= 1 << (j * n)
        for v in range(n):
            out.append((same_cell ^ (1 << (i * n + v))) | peer_cells << v)
    for (x, a), row in C.conflicts.items():
        if x >= ncells:
            continue
        p = x * n + a - 1
        for y, mask in row.items():
            if y < ncells:
                out[p] |= (mask & full) << (y * n)
    for p in range(len(out)):
        out[p] &= ~(1 << p)
    return tuple(out)


def unexcluded(problem: Problem, values) -> list[frozenset[int]]:
    """Return, per cell, its value when placed (`values[cell]` non-zero), else the values no
    placed value excludes (`exclusions`, no propagation)."""
    n, ncells = problem.size, len(values)
    ex = exclusions(problem)
    gone = 0
    for i, v in enumerate(values):
        if v:
            gone |= ex[i * n + v - 1]
    out = []
    for i, v in enumerate(values):
        if v:
            out.append(frozenset((v,)))
        else:
            left = ~(gone >> (i * n))
            out.append(frozenset(w for w in range(1, n + 1) if left >> (w - 1) & 1))
    return out[:ncells]


def peers(problem: Problem) -> tuple[int, ...]:
    """Return, per cell, the bitset of the cells an all-different over cells alone keeps it
    apart from (the cells it "sees" for every value)."""
    C = compile_problem(problem)
    return tuple(sum(1 << j for j in ps) for ps in C.cell_peers)
