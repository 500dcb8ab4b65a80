"""The Python API: read, solve, check. The CLI is a thin layer over these functions.

Every solution an engine returns is verified against the puzzle before it is returned; a wrong
answer is an engine failure, never output.
"""

from __future__ import annotations

import resource
import time
from pathlib import Path

from .engines import Outcome, Status, make_engine
from .engines.base import Engine
from .errors import BadInput, EngineFailed, EngineUnavailable, PolydokuError
from .model import Puzzle, conflicting_givens
from .problem import build_problem
from .verify import grid_problems

DEFAULT_TIMEOUT = 120.0


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def get_engine(spec: str | Engine = "native", *, keep: str | Path | None = None,
               options: dict[str, str] | None = None, check: bool = True) -> Engine:
    """Return an engine for a spec (`native`, `uv+tuned`), raising when it is unavailable here."""
    engine = spec if isinstance(spec, Engine) else make_engine(spec, keep=keep, options=options)
    if check:
        avail = engine.available()
        if not avail.ok:
            raise EngineUnavailable(engine.id, avail.reason, avail.hint or engine.install_hint)
    return engine


def givens_outcome(puzzle: Puzzle) -> Outcome | None:
    """Return an unsatisfiable outcome when the givens alone break a rule, else None."""
    conflicts = conflicting_givens(puzzle)
    if not conflicts:
        return None
    return Outcome(Status.UNSATISFIABLE, exhausted=True, message=f"no solution: {conflicts[0]}",
                   stats={"decided_by": "givens check", "conflicts": conflicts}, engine="givens")


def solve(puzzle: Puzzle, engine: str | Engine = "native", *, max_solutions: int = 1,
          timeout: float | None = DEFAULT_TIMEOUT, keep: str | Path | None = None,
          options: dict[str, str] | None = None, keep_solutions: int | None = None) -> Outcome:
    """Return the verified outcome of solving `puzzle` with an engine. With `keep_solutions`,
    an engine that can count without keeping every solution (native) keeps only that many
    (`Outcome.count` still counts them all)."""
    early = givens_outcome(puzzle)
    if early is not None:
        return early
    eng = get_engine(engine, keep=keep, options=options, check=False)
    problem = build_problem(puzzle)
    refusal = eng.refusal(problem)
    if refusal:
        raise BadInput(refusal)
    get_engine(eng)
    wall, cpu = time.perf_counter(), _cpu()
    from .engines.native import NativeEngine
    if keep_solutions is not None and isinstance(eng, NativeEngine):
        outcome = eng.solve(problem, max_solutions=max_solutions, timeout=timeout,
                            keep=keep_solutions)
    else:
        outcome = eng.solve(problem, max_solutions=max_solutions, timeout=timeout)
    outcome.stats.setdefault("seconds", round(time.perf_counter() - wall, 6))
    outcome.stats.setdefault("cpu_seconds", round(_cpu() - cpu, 6))
    outcome.engine = outcome.engine or eng.spec
    if outcome.status is Status.ERROR:
        raise EngineFailed(eng.spec, outcome.message or "unknown error", outcome.log_path)
    outcome.solutions = [problem.grid(s) for s in outcome.solutions]   # auxiliaries dropped
    for solution in outcome.solutions:
        wrong = grid_problems(puzzle, solution)
        if wrong:
            raise EngineFailed(eng.spec, f"returned a wrong solution: {wrong[0]}", outcome.log_path)
    if len(set(outcome.solutions)) != len(outcome.solutions):
        raise EngineFailed(eng.spec, "returned the same solution twice", outcome.log_path)
    return outcome


def count(puzzle: Puzzle, engine: str | Engine = "native", *, limit: int = 100_000,
          timeout: float | None = DEFAULT_TIMEOUT) -> Outcome:
    """Return the outcome of enumerating up to `limit` solutions (exact count when exhausted)."""
    return solve(puzzle, engine, max_solutions=limit, timeout=timeout)


def is_unique(puzzle: Puzzle, engine: str | Engine = "native",
              timeout: float | None = DEFAULT_TIMEOUT) -> bool | None:
    """Return True for exactly one solution, False for none or several, None when the engine
    could not tell (it gave up, or it does not count and found one)."""
    outcome = solve(puzzle, engine, max_solutions=2, timeout=timeout)
    if outcome.status is Status.UNSATISFIABLE or outcome.count >= 2:
        return False
    if outcome.status is Status.SOLVED and outcome.exhausted:
        return True
    return None


UNIQUE_BUDGET = 2.0      # seconds `solve` spends looking for a second solution of one puzzle


def second_solution(puzzle: Puzzle, engine: Engine, outcome: Outcome, timeout: float
                    ) -> tuple[bool | None, str, float]:
    """Return whether a solved puzzle is unique (None when not settled), the engine that
    settled it (or why it was not) and the budget: the engine searches for two solutions
    within the budget when it counts, else the native engine does."""
    budget = min(timeout, UNIQUE_BUDGET)
    if outcome.count >= 2:
        return False, outcome.engine, budget
    checker = engine if "count" in engine.capabilities else get_engine("native")
    try:
        counted = solve(puzzle, checker, max_solutions=2, timeout=budget)
    except PolydokuError as err:
        return None, str(err), budget
    if counted.count >= 2:
        return False, checker.spec, budget
    if counted.exhausted and counted.count == 1:
        return True, checker.spec, budget
    return None, "", budget


