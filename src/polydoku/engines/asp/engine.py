"""The `clingo` engine: the ASP program grounded once per (geometry, rules) in a clingo
`Control`, each puzzle solved with its givens as assumptions on `x/2`; enumeration through
clingo's models. A time limit costs a thread only when a search outlives a conflict budget. It never runs a subprocess (clingo is the PyPI package, in process).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ...problem import Problem
from ..base import ALL_KINDS, Availability, Engine, Outcome, Status
from ..models.common import ModelCache
from .encode import program


@dataclass
class _Base:
    """A grounded clingo Control for one problem's constraints."""

    control: Any
    size: int


def build(problem: Problem) -> _Base:
    """Return a clingo Control with the problem's program (no givens) grounded."""
    import clingo
    # free auxiliaries: models projected on the cells, one per grid
    args = ["--warn=none"] + (["--project=project"] if problem.free_aux else [])
    ctl = clingo.Control(args, logger=lambda code, msg: None)
    extra = "\n#project x(c(R,C),V) : x(c(R,C),V).\n" if problem.free_aux else ""
    ctl.add("base", [], program(problem, givens=False) + extra)
    ctl.ground([("base", [])])
    return _Base(ctl, problem.size)


_MODELS = ModelCache(build)
CONFLICT_BUDGET = 20_000


class ClingoEngine(Engine):
    """clingo (answer-set programming), givens as assumptions."""

    id = "clingo"
    title = "clingo answer-set solver in process (the engine under Debian's aspcud)"
    install_hint = "pip install clingo"
    capabilities = frozenset({"solve", "count"})
    takes = ALL_KINDS
    takes_aux = True
    counts_grids = True

    def available(self) -> Availability:
        try:
            import clingo
        except ImportError as err:
            return Availability(False, reason=f"clingo is not installed ({err})",
                                hint=self.install_hint)
        return Availability(True, f"clingo {clingo.__version__}")

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        import clingo
        base, build_seconds = _MODELS.get(problem)
        n = problem.size
        ctl = base.control
        ctl.configuration.solve.models = str(max(1, max_solutions))
        assumptions = [(_x(clingo, problem, var, value), True) for var, value in problem.givens]
        solutions: list[tuple[int, ...]] = []

        def on_model(model) -> None:
            values = [0] * problem.nvars
            for sym in model.symbols(shown=True):
                cell, value = sym.arguments
                if cell.name != "c":
                    continue          # an auxiliary: the cells decide it
                r, c = cell.arguments
                values[(r.number - 1) * n + c.number - 1] = value.number
            solutions.append(tuple(values))

        t0 = time.perf_counter()
        result, finished = self._run(ctl, assumptions, on_model, solutions, max_solutions, timeout)
        stats = {"build_seconds": round(build_seconds, 6),
                 "solve_seconds": round(time.perf_counter() - t0, 6)}
        if result.interrupted or not finished:
            status = Status.SOLVED if solutions else Status.UNKNOWN
            return Outcome(status, solutions, False, stats, "timed out", self.spec)
        if result.unsatisfiable:
            return Outcome(Status.UNSATISFIABLE, [], True, stats, engine=self.spec)
        exhausted = bool(result.exhausted) and max_solutions > 1
        return Outcome(Status.SOLVED, solutions, exhausted, stats, engine=self.spec)

    @staticmethod
    def _run(ctl, assumptions, on_model, solutions, max_solutions: int, timeout):
        """Return (result, finished) of one search, within `timeout` when one is given."""
        if not timeout:
            return ctl.solve(assumptions=assumptions, on_model=on_model), True
        return _solve_in_steps(ctl, assumptions, on_model, solutions, timeout,
                               budget=max_solutions <= 1)


def _solve_in_steps(ctl, assumptions, on_model, solutions, timeout: float, budget: bool):
    """Return (result, finished): for one solution, a synchronous solve within a conflict
    budget first (no thread: most puzzles end there); then, or when enumerating, an
    asynchronous one that is cancelled at the deadline."""
    deadline = time.monotonic() + timeout
    if budget:
        ctl.configuration.solve.solve_limit = str(CONFLICT_BUDGET)
        try:
            result = ctl.solve(assumptions=assumptions, on_model=on_model)
        finally:
            ctl.configuration.solve.solve_limit = "umax"
        if result.unsatisfiable or result.satisfiable:
            return result, True
        solutions.clear()
    with ctl.solve(assumptions=assumptions, on_model=on_model, async_=True) as handle:
        finished = handle.wait(max(deadline - time.monotonic(), 0.001))
        if not finished:
            handle.cancel()
        return handle.get(), finished


def _x(clingo, problem: Problem, var: int, value: int):
    """Return the symbol x(c(R,C),V) of "cell `var` holds `value`"."""
    r, c = problem.cell(var)
    Number, Function = clingo.Number, clingo.Function
    if var >= problem.ncells:
        return Function("x", [Function("a", [Number(var - problem.ncells + 1)]), Number(value)])
    return Function("x", [Function("c", [Number(r + 1), Number(c + 1)]), Number(value)])
