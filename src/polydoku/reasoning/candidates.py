"""True candidates: for each cell, the values that appear in at least one solution (or in at
least k), found without enumerating every solution.

Propagation first removes values that cannot appear (that is sound for any engine): the
propagation core's domains (`core.domains`). Then each
remaining cell value not yet seen in a solution is tried: the puzzle plus that value is solved
(up to k solutions). Every solution found witnesses all of its cell values at once, so most cell
values never need a search of their own; a refuted one is out. Counts are exact below k: a
search that ends with fewer than k solutions has found all of them.

This module must not print or choose exit codes; every solution it counts is checked by `verify`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..engines import Status
from ..engines.base import Engine
from .. import core
from ..model import Puzzle
from ..problem import build_problem
from .explain import GaveUp, Oracle, check_solution, resolve_engine

Solution = tuple[int, ...]


@dataclass
class Candidates:
    """The true candidates of a puzzle.

    status: SOLVED (`values` is exact), UNSATISFIABLE (no solution, every cell empty), UNKNOWN
    (the engine gave up; `values` are proved candidates and `undecided` the cell values left open).
    """

    status: Status
    at_least: int
    values: tuple[frozenset[int], ...] = ()
    counts: dict[tuple[int, int], int] = field(default_factory=dict)
    undecided: tuple[tuple[int, int], ...] = ()
    solutions_seen: int = 0
    searches: int = 0
    stats: dict = field(default_factory=dict)
    message: str = ""

    @property
    def total(self) -> int:
        """Return the number of true candidates over all cells."""
        return sum(len(v) for v in self.values)


def true_candidates(puzzle: Puzzle, *, at_least: int = 1, engine: str | Engine = "native",
                    timeout: float | None = None) -> Candidates:
    """Return, for each cell, the values that appear in at least `at_least` solutions."""
    eng = resolve_engine(engine)
    if "count" not in eng.capabilities and at_least > 1:
        raise ValueError(f"engine {eng.spec} cannot count solutions (needed for at least {at_least})")
    started = time.perf_counter()
    problem = build_problem(puzzle)
    n, k = problem.nvars, max(1, at_least)
    oracle = Oracle(problem, eng, problem.givens,
                    time.monotonic() + timeout if timeout else None)
    cand = core.domains(problem)
    seen: set[Solution] = set()
    counts: dict[tuple[int, int], int] = {}
    searched, undecided = 0, []

    def add(solutions) -> None:
        for s in solutions:
            if s not in seen:
                check_solution(puzzle, problem.givens, s, eng)
                seen.add(s)
                for var, value in enumerate(s[:n]):
                    counts[(var, value)] = counts.get((var, value), 0) + 1

    status, message = Status.SOLVED, ""
    try:
        first = oracle.outcome((), k) if cand is not None else None
        if first is None or cand is None or first.status is Status.UNSATISFIABLE:
            status = Status.UNSATISFIABLE
        else:
            add(first.solutions)
            pairs = [(var, value) for var in range(n) for value in problem.values
                     if cand[var] >> (value - 1) & 1]
            for pos, (var, value) in enumerate(pairs):
                if counts.get((var, value), 0) >= k:
                    continue
                try:
                    searched += 1
                    add(oracle.outcome(((var, value),), k).solutions)
                except GaveUp as err:
                    undecided = [p for p in pairs[pos:] if counts.get(p, 0) < k]
                    status, message = Status.UNKNOWN, str(err)
                    break
    except GaveUp as err:
        status, message = Status.UNKNOWN, str(err)
    values = tuple(frozenset(v for v in problem.values if counts.get((var, v), 0) >= k)
                   for var in range(n)) if status is not Status.UNSATISFIABLE else \
        tuple(frozenset() for _ in range(n))
    return Candidates(status, k, values, {p: c for p, c in counts.items()}, tuple(undecided),
                      len(seen), searched,
                      {"engine": eng.spec, "calls": oracle.calls,
                       "seconds": round(time.perf_counter() - started, 6)}, message)
