"""The `pycosat` engine: the CNF encoding solved by PicoSAT through pycosat, the binding
conda's classic solver used.

pycosat is not incremental: each puzzle passes the shared base clauses plus one unit clause
per given; counting uses its `itersolve` (it blocks each model it yields). PicoSAT has no
clock: `-o prop_limit=N` bounds its propagations (the run is then "unknown"), and the
`timeout` is checked only between two solutions while counting. It never runs a subprocess.
"""

from __future__ import annotations

import itertools
import time

from ..problem import Problem
from .base import ALL_KINDS, Availability, Engine, Option, Outcome, Status
from .cnf import ENCODINGS

class PycosatEngine(Engine):
    """PicoSAT (pycosat) on the CNF encoding, givens as unit clauses."""
    OPTIONS = {"prop_limit": Option("number", "0")}

    id = "pycosat"
    title = "PicoSAT through pycosat (conda's classic SAT solver) on the CNF encoding"
    install_hint = "pip install pycosat"
    capabilities = frozenset({"solve", "count"})
    takes = ALL_KINDS
    takes_aux = True
    counts_grids = True
    takes_more_values = True

    def available(self) -> Availability:
        try:
            import pycosat
        except ImportError as err:
            return Availability(False, reason=f"pycosat is not installed ({err})",
                                hint=self.install_hint)
        return Availability(True, f"pycosat {pycosat.__version__}")

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        import pycosat
        cnf, build_seconds = ENCODINGS.get(problem)
        clauses = cnf.clauses + [[lit] for lit in cnf.given_literals(problem)]
        prop_limit = self.number_option("prop_limit")
        deadline = time.monotonic() + timeout if timeout else None
        t0 = time.perf_counter()
        if max_solutions <= 1:
            answer = pycosat.solve(clauses, vars=cnf.nvars, prop_limit=prop_limit)
            outcome = self._one(cnf, answer)
        else:
            outcome = self._many(cnf, clauses, max_solutions, prop_limit, deadline,
                                 problem.free_aux)
        outcome.stats.update(build_seconds=round(build_seconds, 6), clauses=len(clauses),
                             variables=cnf.nvars,
                             solve_seconds=round(time.perf_counter() - t0, 6))
        outcome.engine = self.spec
        return outcome

    @staticmethod
    def _one(cnf, answer) -> Outcome:
        if answer == "UNSAT":
            return Outcome(Status.UNSATISFIABLE, exhausted=True)
        if answer == "UNKNOWN":
            return Outcome(Status.UNKNOWN, message="PicoSAT reached its propagation limit")
        return Outcome(Status.SOLVED, [cnf.decode(answer)])

    @staticmethod
    def _many(cnf, clauses, limit: int, prop_limit: int, deadline, free: bool) -> Outcome:
        import pycosat
        solutions = []
        models = (_grids(cnf, clauses, prop_limit) if free else
                  pycosat.itersolve(clauses, vars=cnf.nvars, prop_limit=prop_limit))
        for model in itertools.islice(models, limit):
            solutions.append(cnf.decode(model))
            if deadline is not None and time.monotonic() > deadline:
                return Outcome(Status.SOLVED, solutions, False, message="timed out")
        if len(solutions) < limit:
            status = Status.SOLVED if solutions else Status.UNSATISFIABLE
            return Outcome(status, solutions, exhausted=True)
        return Outcome(Status.SOLVED, solutions, exhausted=False)


def _grids(cnf, clauses: list, prop_limit: int):
    """Yield models of different grids when auxiliaries are free of the cells: PicoSAT blocks
    every variable of a model it yields, so here each grid is blocked on its cells' literals
    (numbered first) and the clauses solved anew."""
    import pycosat
    clauses = list(clauses)
    while True:
        model = pycosat.solve(clauses, vars=cnf.nvars, prop_limit=prop_limit)
        if not isinstance(model, list):
            return
        yield model
        clauses.append([-lit for lit in model if 0 < lit <= cnf.ncells * cnf.size])

