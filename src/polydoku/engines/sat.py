"""The `sat` engine: the CNF encoding solved in process by PySAT (CaDiCaL 1.9.5 by default).

One solver per (geometry, rules) keeps the base clauses and what it learnt; each puzzle's
givens are assumptions (one literal per given), so a new puzzle costs no model building.
Counting adds blocking clauses guarded by a fresh activation literal that is switched off
afterwards, so the shared solver never keeps them. Unsat cores come from the failed
assumptions and are shrunk to a minimal one by deletion.

Options (`-o KEY=VALUE`): `solver=NAME` (any PySAT solver name: cadical195, glucose4,
minisat22, lingeling, maplechrono, …), `budget=N` conflicts between two clock checks.
It never runs a subprocess.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any

from ..problem import Problem
from .base import ALL_KINDS, Availability, Core, Engine, Option, Outcome, Status
from .cnf import ENCODINGS, Cnf
from .models.common import ModelCache

DEFAULT_SOLVER = "cadical195"
DEFAULT_BUDGET = 20_000
# PySAT solvers that ignore assumptions (and are not incremental): each puzzle gets a fresh
# solver with unit givens; they solve, but neither count nor give cores.
NO_ASSUMPTIONS = frozenset({"kissat404"})


@dataclass
class _Base:
    """A solver loaded with one encoding's clauses, reused for every puzzle of that encoding."""

    cnf: Cnf
    solver: Any
    next_var: int
    uses_budget: bool = True
    stats: dict = field(default_factory=dict)

    def fresh(self) -> int:
        """Return an unused variable (an activation literal)."""
        self.next_var += 1
        return self.next_var


_BASES: dict[str, ModelCache] = {}      # solver name -> loaded solvers per constraint tuple


@functools.lru_cache(maxsize=32)
def _cannot_start(name: str) -> str:
    """Return why PySAT cannot start solver `name` ("" when it can; asked once per process)."""
    from pysat.solvers import Solver
    try:
        Solver(name=name).delete()
    except Exception as err:                # PySAT raises bare exceptions with the name only
        return str(err) or type(err).__name__
    return ""


def _solver_names() -> list[str]:
    from pysat.solvers import SolverNames
    return sorted(k for k in vars(SolverNames) if not k.startswith("_"))


def _known_solvers() -> list[str]:
    """Return the solver names PySAT knows (none when PySAT is missing: `available` says so)."""
    try:
        return _solver_names()
    except ImportError:
        return []


class SatEngine(Engine):
    """PySAT on the CNF encoding, givens as assumptions."""
    OPTIONS = {"solver": Option(_known_solvers, DEFAULT_SOLVER),
               "budget": Option("number", str(DEFAULT_BUDGET), minimum=1)}

    id = "sat"
    title = "PySAT SAT solvers in process (CaDiCaL by default; -o solver=NAME) on a CNF encoding"
    install_hint = "pip install python-sat"
    capabilities = frozenset({"solve", "count", "core"})
    takes = ALL_KINDS
    takes_aux = True
    counts_grids = True
    takes_more_values = True

    def __init__(self, variant=None, *, keep=None, options=None):
        super().__init__(variant, keep=keep, options=options)
        self.solver_name = self.option("solver")
        self.budget = self.number_option("budget")
        if self.solver_name not in _BASES:         # shared by every engine object of a process
            _BASES[self.solver_name] = ModelCache(self._load, size=4)
        self._bases = _BASES[self.solver_name]

    def available(self) -> Availability:
        try:
            import pysat
        except ImportError as err:
            return Availability(False, reason=f"python-sat is not installed ({err})",
                                hint=self.install_hint)
        if self.solver_name not in _solver_names():
            return Availability(False, reason=f"PySAT has no solver {self.solver_name!r} "
                                f"(it has: {', '.join(_solver_names())})", hint="-o solver=cadical195")
        problem = _cannot_start(self.solver_name)
        if problem:                         # a solver PySAT names but this build lacks
            return Availability(False, reason=f"PySAT cannot start {self.solver_name}: {problem}",
                                hint="-o solver=cadical195")
        return Availability(True, f"python-sat {pysat.__version__}, {self.solver_name}")

    def _load(self, problem: Problem) -> _Base:
        """Return a solver holding the base clauses of a problem."""
        from pysat.solvers import Solver
        t0 = time.perf_counter()
        cnf, encode_seconds = ENCODINGS.get(problem)
        t1 = time.perf_counter()
        solver = Solver(name=self.solver_name, bootstrap_with=cnf.clauses)
        base = _Base(cnf, solver, cnf.nvars)
        base.stats = {"encode_seconds": round(encode_seconds or t1 - t0, 6),
                      "load_seconds": round(time.perf_counter() - t1, 6),
                      "clauses": len(cnf.clauses), "variables": cnf.nvars}
        return base

    def _base(self, problem: Problem) -> tuple[_Base, dict]:
        if self.solver_name in NO_ASSUMPTIONS:
            return self._throwaway(problem)
        base, seconds = self._bases.get(problem)
        stats = {"solver": self.solver_name, "build_seconds": round(seconds, 6),
                 "clauses": base.stats["clauses"], "variables": base.stats["variables"]}
        if seconds:
            stats.update(encode_seconds=base.stats["encode_seconds"],
                         load_seconds=base.stats["load_seconds"])
        return base, stats

    def _throwaway(self, problem: Problem) -> tuple[_Base, dict]:
        """Return a fresh solver with the givens as unit clauses (for solvers without assumptions)."""
        from pysat.solvers import Solver
        t0 = time.perf_counter()
        cnf, _ = ENCODINGS.get(problem)
        units = [[lit] for lit in cnf.given_literals(problem)]
        base = _Base(cnf, Solver(name=self.solver_name, bootstrap_with=cnf.clauses + units),
                     cnf.nvars, uses_budget=False)
        return base, {"solver": self.solver_name, "build_seconds": round(time.perf_counter() - t0, 6),
                      "clauses": len(cnf.clauses) + len(units), "variables": cnf.nvars}

    def _check(self, base: _Base, assumptions: list[int], deadline: float | None) -> bool | None:
        """Return True/False for satisfiable or not, None when the deadline passed first."""
        s = base.solver
        if deadline is None or not base.uses_budget:
            return s.solve(assumptions=assumptions)
        while True:
            try:
                s.conf_budget(self.budget)
            except NotImplementedError:
                base.uses_budget = False
                return s.solve(assumptions=assumptions)
            answer = s.solve_limited(assumptions=assumptions)
            if answer is not None:
                return answer
            if time.monotonic() > deadline:
                return None

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        base, stats = self._base(problem)
        deadline = time.monotonic() + timeout if timeout else None
        givens = [] if self.solver_name in NO_ASSUMPTIONS else base.cnf.given_literals(problem)
        t0 = time.perf_counter()
        try:
            if max_solutions <= 1:
                outcome = self._solve_one(base, givens, deadline)
            elif self.solver_name in NO_ASSUMPTIONS:
                outcome = Outcome(Status.ERROR, message=f"{self.solver_name} is not incremental: "
                                  "counting needs another solver (-o solver=cadical195)")
            else:
                outcome = self._enumerate(base, problem, givens, max_solutions, deadline)
        finally:
            stats["solve_seconds"] = round(time.perf_counter() - t0, 6)
        outcome.stats.update(stats)
        outcome.engine = self.spec
        return outcome

    def _solve_one(self, base: _Base, givens: list[int], deadline) -> Outcome:
        answer = self._check(base, givens, deadline)
        if answer is None:
            return Outcome(Status.UNKNOWN, message="timed out")
        if not answer:
            return Outcome(Status.UNSATISFIABLE, exhausted=True)
        return Outcome(Status.SOLVED, [base.cnf.decode(base.solver.get_model())])

    def _enumerate(self, base: _Base, problem: Problem, givens: list[int], limit: int,
                   deadline) -> Outcome:
        """Return up to `limit` solutions, each blocked under a fresh activation literal."""
        act = base.fresh()
        # auxiliaries left out: the cells fix them, or (free_aux) a grid is one solution
        skip = {var for var, _ in problem.givens} | set(range(problem.ncells, problem.nvars))
        solutions: list[tuple[int, ...]] = []
        try:
            while len(solutions) < limit:
                answer = self._check(base, givens + [act], deadline)
                if answer is None:
                    status = Status.SOLVED if solutions else Status.UNKNOWN
                    return Outcome(status, solutions, False, message="timed out")
                if not answer:
                    status = Status.SOLVED if solutions else Status.UNSATISFIABLE
                    return Outcome(status, solutions, exhausted=True)
                solution = base.cnf.decode(base.solver.get_model())
                solutions.append(solution)
                base.solver.add_clause([-act] + base.cnf.blocking_clause(solution, skip))
                if deadline is not None and time.monotonic() > deadline:
                    return Outcome(Status.SOLVED, solutions, False, message="timed out")
            return Outcome(Status.SOLVED, solutions, exhausted=False)
        finally:
            base.solver.add_clause([-act])     # the blocking clauses never bind again

    def core(self, problem: Problem, *, timeout: float | None = None) -> Core:
        """Return a minimal subset of the givens that has no solution (deletion-based)."""
        if self.solver_name in NO_ASSUMPTIONS:
            return Core(Status.ERROR, message=f"{self.solver_name} takes no assumptions: "
                        "cores need another solver (-o solver=cadical195)")
        base, _ = self._base(problem)
        deadline = time.monotonic() + timeout if timeout else None
        lits = base.cnf.given_literals(problem)
        given_of = dict(zip(lits, problem.givens))
        answer = self._check(base, lits, deadline)
        if answer is None:
            return Core(Status.UNKNOWN, message="timed out")
        if answer:
            return Core(Status.SOLVED, message="the givens have a solution")
        failed = set(base.solver.get_core() or ())
        core = [lit for lit in lits if lit in failed]
        k = 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            answer = self._check(base, trial, deadline)
            if answer is None:
                return Core(Status.UNKNOWN, tuple(given_of[x] for x in core),
                            "timed out while shrinking the core")
            if answer:
                k += 1                      # core[k] is needed
            else:
                failed = set(base.solver.get_core() or ())
                core = [x for x in trial if x in failed]
        givens = tuple(sorted(given_of[x] for x in core))
        return Core(Status.UNSATISFIABLE, givens,
                    f"{len(givens)} givens have no solution together (minimal)")
