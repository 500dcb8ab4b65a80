"""The `cpsat` engine: OR-tools CP-SAT on the problem's own constraints.

It mirrors the Picat model of the write-up: one integer variable per cell with domain
1..N, `AddAllDifferent` per AllDifferent (rows, columns, boxes, diagonals, anti-knight and
anti-king pairs), linear `x - y != ±d` for |x−y|≠d (non-consecutive), forbidden and allowed
assignments for nogoods and tables. The base model is built once per (geometry, rules); a
puzzle's givens narrow its cell domains in place for one solve, then the domains are put
back. Enumeration goes through a solution callback; cores through assumptions
(`SufficientAssumptionsForInfeasibility`), shrunk to a minimal one by deletion.

Options: `workers=N` (default 1: one search thread), `presolve=0|1` (default 1).
It never runs a subprocess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from ..problem import AbsDiffNot, AllDifferent, Linear, Nogood, Problem, Table
from .base import ALL_KINDS, Availability, Core, Engine, Option, Outcome, Status
from .models.common import MODEL_KINDS, ModelCache, in_kinds


@dataclass
class _Base:
    """A CP-SAT model of one problem's constraints and its cell variables."""

    model: Any
    cells: list
    size: int


def build(problem: Problem) -> _Base:
    """Return the CP-SAT model of a problem's constraints (no givens)."""
    from ortools.sat.python import cp_model
    problem = in_kinds(problem, MODEL_KINDS | {Linear})
    model = cp_model.CpModel()
    n = problem.size
    cells = [model.new_int_var(1, problem.domain_size(i), f"x{i}") for i in range(problem.nvars)]
    for c in problem.constraints:
        if isinstance(c, AllDifferent):
            model.add_all_different([cells[i] for i in c.vars])
        elif isinstance(c, AbsDiffNot):
            model.add(cells[c.x] - cells[c.y] != c.d)
            model.add(cells[c.x] - cells[c.y] != -c.d)
        elif isinstance(c, Nogood):
            model.add_forbidden_assignments([cells[c.x], cells[c.y]], [(c.a, c.b)])
        elif isinstance(c, Table):
            model.add_allowed_assignments([cells[i] for i in c.vars], list(c.tuples))
        elif isinstance(c, Linear):
            total = sum(k * cells[i] for k, i in zip(c.coefs, c.vars))
            model.add(total == c.rhs if c.op == "==" else
                      total <= c.rhs if c.op == "<=" else total >= c.rhs)
    return _Base(model, cells, n)


_MODELS = ModelCache(build)


def _collector(cells, limit: int, ncells: int) -> Any:
    """Return a solution callback keeping up to `limit` solutions of different grids (the
    first `ncells` variables: free auxiliaries may repeat a grid), then stopping the search
    (`.solutions`, and `.stopped` when it stopped the search)."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        def __init__(self):
            super().__init__()
            self.solutions: list[tuple[int, ...]] = []
            self.grids: set[tuple[int, ...]] = set()
            self.stopped = False

        def on_solution_callback(self):
            solution = tuple(self.value(x) for x in cells)
            if solution[:ncells] in self.grids:
                return
            self.grids.add(solution[:ncells])
            self.solutions.append(solution)
            if len(self.solutions) >= limit:
                self.stopped = True
                self.stop_search()

    return Collector()


class CpSatEngine(Engine):
    """OR-tools CP-SAT, givens as narrowed domains."""
    OPTIONS = {"workers": Option("number", "1", minimum=1), "presolve": Option("flag", "true")}

    id = "cpsat"
    title = "OR-tools CP-SAT in process (AllDifferent, tables, linear constraints)"
    install_hint = "pip install ortools"
    capabilities = frozenset({"solve", "count", "core"})
    takes = ALL_KINDS
    takes_aux = True
    counts_grids = True
    takes_more_values = True

    def available(self) -> Availability:
        # looked up, not imported: importing OR-tools takes a quarter of a second
        from importlib import metadata, util
        if util.find_spec("ortools") is None:
            return Availability(False, reason="ortools is not installed", hint=self.install_hint)
        try:
            return Availability(True, f"ortools {metadata.version('ortools')}")
        except metadata.PackageNotFoundError:
            return Availability(True, "ortools (unknown version)")

    def _solver(self, timeout: float | None, enumerate_all: bool = False):
        from ortools.sat.python import cp_model
        solver = cp_model.CpSolver()
        p = solver.parameters
        p.num_workers = self.number_option("workers")
        p.cp_model_presolve = self.flag_option("presolve")
        if timeout:
            p.max_time_in_seconds = float(timeout)
        if enumerate_all:
            p.enumerate_all_solutions = True
        return solver

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        from ortools.sat.python import cp_model
        base, build_seconds = _MODELS.get(problem)
        solver = self._solver(timeout, enumerate_all=max_solutions > 1)
        collector = _collector(base.cells, max(1, max_solutions), problem.ncells)
        t0 = time.perf_counter()
        with _pinned(base, problem.givens):
            status = solver.solve(base.model, collector)
        stats = {"build_seconds": round(build_seconds, 6),
                 "solve_seconds": round(time.perf_counter() - t0, 6),
                 "wall_time": solver.wall_time, "branches": solver.num_branches,
                 "conflicts": solver.num_conflicts}
        solutions = collector.solutions
        if status == cp_model.MODEL_INVALID:
            return Outcome(Status.ERROR, message=f"CP-SAT: model invalid: "
                           f"{base.model.validate()}", stats=stats, engine=self.spec)
        if status == cp_model.INFEASIBLE:
            return Outcome(Status.UNSATISFIABLE, exhausted=True, stats=stats, engine=self.spec)
        if status == cp_model.UNKNOWN:
            return Outcome(Status.UNKNOWN, message="CP-SAT: time limit reached without an answer",
                           stats=stats, engine=self.spec)
        # OPTIMAL after enumeration means it saw every solution; FEASIBLE means it stopped.
        exhausted = max_solutions > 1 and status == cp_model.OPTIMAL and not collector.stopped
        message = "" if exhausted or collector.stopped or max_solutions <= 1 else "timed out"
        return Outcome(Status.SOLVED, solutions[:max(1, max_solutions)], exhausted, stats,
                       message, self.spec)

    def core(self, problem: Problem, *, timeout: float | None = None) -> Core:
        """Return a minimal subset of the givens that has no solution."""
        deadline = time.monotonic() + timeout if timeout else None
        givens = list(problem.givens)
        answer = self._failing(problem, givens, deadline)
        if answer is None:
            return Core(Status.UNKNOWN, message="timed out")
        if answer is True:
            return Core(Status.SOLVED, message="the givens have a solution")
        core = answer
        k = 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            answer = self._failing(problem, trial, deadline)
            if answer is None:
                return Core(Status.UNKNOWN, tuple(sorted(core)), "timed out while shrinking the core")
            if answer is True:
                k += 1
            else:
                failed = set(answer)
                core = [g for g in trial if g in failed]
        return Core(Status.UNSATISFIABLE, tuple(sorted(core)),
                    f"{len(core)} givens have no solution together (minimal)")

    def _failing(self, problem: Problem, givens: list,
                 deadline) -> list | Literal[True] | None:
        """Return the failing givens among `givens`, True when they have a solution, None on timeout."""
        from ortools.sat.python import cp_model
        base, _ = _MODELS.get(problem)
        model = base.model.clone()
        cells = [model.get_int_var_from_proto_index(x.index) for x in base.cells]
        selectors = {}
        for var, value in givens:
            b = model.new_bool_var(f"given_{problem.name(var)}_{value}")
            model.add(cells[var] == value).only_enforce_if(b)
            selectors[b.index] = (var, value)
        model.add_assumptions([model.get_bool_var_from_proto_index(i) for i in selectors])
        left = None if deadline is None else max(0.01, deadline - time.monotonic())
        solver = self._solver(left)
        solver.parameters.num_workers = 1
        status = solver.solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return True
        if status != cp_model.INFEASIBLE:
            return None
        return [selectors[i] for i in solver.sufficient_assumptions_for_infeasibility()
                if i in selectors]


class _pinned:
    """Context manager narrowing given cells' domains to their value, restoring 1..N after."""

    def __init__(self, base: _Base, givens):
        self.base, self.givens = base, givens

    def __enter__(self):
        variables = self.base.model.proto.variables
        for var, value in self.givens:
            dom = variables[self.base.cells[var].index].domain
            dom[0] = dom[1] = value

    def __exit__(self, *exc):
        variables = self.base.model.proto.variables
        for var, _ in self.givens:
            dom = variables[self.base.cells[var].index].domain
            dom[0], dom[1] = 1, self.base.size
