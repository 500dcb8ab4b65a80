"""The `z3` engine: an SMT model solved in process by Z3.

The model is the `smtlib` export (`models/smtlib.py`) without its givens: one integer per
cell bounded to 1..N, `distinct` per AllDifferent (and, for a full unit, the redundant "each
value occurs in it", without which Z3 cannot finish a 25x25), `abs` for |x−y|≠d, nogoods
and tables as Boolean formulas, read by Z3's own parser. The base solver is
built once per (geometry, rules); a given `r1c1=5` becomes a tracked Boolean `r1c1=5` that
implies `r1c1 == 5`, added to the base the first time it is needed and passed to
`check(*assumptions)`, so Z3 keeps what it learnt between puzzles and its unsat core names
the givens that conflict. Counting adds blocking clauses inside a push/pop scope.
It never runs a subprocess.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..problem import Problem
from .base import ALL_KINDS, Availability, Core, Engine, Outcome, Status
from .models.common import ModelCache
from .models.smtlib import script


@dataclass
class _Base:
    """A Z3 solver holding one problem's constraints, and its tracked givens."""

    solver: Any
    cells: list
    trackers: dict = field(default_factory=dict)    # (var, value) -> Bool

    def tracker(self, problem: Problem, var: int, value: int):
        """Return the Boolean standing for "cell `var` holds `value`" (made once)."""
        import z3
        key = (var, value)
        if key not in self.trackers:
            b = z3.Bool(f"{problem.name(var)}={value}")
            self.solver.add(z3.Implies(b, self.cells[var] == value))
            self.trackers[key] = b
        return self.trackers[key]


def build(problem: Problem) -> _Base:
    """Return a Z3 solver loaded with the base model of a problem (no givens).

    The model is the `smtlib` export's script without givens, read by Z3's own parser:
    building the same formulas through the Python API takes 20 times longer on a 25x25.
    """
    import z3
    solver = z3.Solver()
    solver.from_string(script(problem.with_givens(()), commands=False))
    cells = [z3.Int(problem.name(i)) for i in range(problem.nvars)]
    return _Base(solver, cells)


_MODELS = ModelCache(build)


class Z3Engine(Engine):
    """Z3 (SMT, integer arithmetic), givens as tracked assumptions."""

    id = "z3"
    title = "Z3 SMT solver in process (Distinct, integer arithmetic), givens as assumptions"
    install_hint = "pip install z3-solver"
    capabilities = frozenset({"solve", "count", "core"})
    takes = ALL_KINDS
    takes_aux = True
    counts_grids = True
    takes_more_values = True
    # Enumeration by blocking clauses costs Z3 about 25 ms of CPU per solution on 9x9, so the
    # --count differential (5,260 solutions over 43 puzzles) takes a spread of 5 of them.
    differential_limit = 5

    def available(self) -> Availability:
        try:
            import z3
        except ImportError as err:
            return Availability(False, reason=f"z3-solver is not installed ({err})",
                                hint=self.install_hint)
        return Availability(True, f"z3 {z3.get_version_string()}")

    def _check(self, base: _Base, assumptions: list, deadline: float | None):
        """Return z3's answer (sat, unsat, unknown) under assumptions, within the deadline."""
        import z3
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            return z3.unknown
        base.solver.set("timeout", int(left * 1000) if left is not None else 4294967295)
        return base.solver.check(*assumptions)

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        import z3
        base, build_seconds = _MODELS.get(problem)
        deadline = time.monotonic() + timeout if timeout else None
        assumptions = [base.tracker(problem, var, value) for var, value in problem.givens]
        skip = {var for var, _ in problem.givens}
        solutions: list[tuple[int, ...]] = []
        t0 = time.perf_counter()
        base.solver.push()
        try:
            outcome = None
            while len(solutions) < max(1, max_solutions):
                answer = self._check(base, assumptions, deadline)
                if answer == z3.unknown:
                    reason = base.solver.reason_unknown()
                    status = Status.SOLVED if solutions else Status.UNKNOWN
                    outcome = Outcome(status, solutions, False, message=f"z3: {reason}")
                    break
                if answer == z3.unsat:
                    status = Status.SOLVED if solutions else Status.UNSATISFIABLE
                    outcome = Outcome(status, solutions, exhausted=True)
                    break
                model = base.solver.model()
                solution = tuple(model.eval(x, model_completion=True).as_long() for x in base.cells)
                solutions.append(solution)
                if len(solutions) < max_solutions:
                    base.solver.add(z3.Or(*[base.cells[i] != v for i, v in enumerate(solution)
                                            if i not in skip and i < problem.ncells]))
            if outcome is None:
                outcome = Outcome(Status.SOLVED, solutions, exhausted=False)
        finally:
            base.solver.pop()
        outcome.stats.update(build_seconds=round(build_seconds, 6),
                             solve_seconds=round(time.perf_counter() - t0, 6))
        outcome.engine = self.spec
        return outcome

    def core(self, problem: Problem, *, timeout: float | None = None) -> Core:
        """Return a minimal subset of the givens that has no solution (Z3's core, then deletion)."""
        import z3
        base, _ = _MODELS.get(problem)
        deadline = time.monotonic() + timeout if timeout else None
        given_of = {}
        for var, value in problem.givens:
            given_of[base.tracker(problem, var, value).get_id()] = (var, value)
        by_id = {base.trackers[g].get_id(): base.trackers[g] for g in problem.givens}
        answer = self._check(base, list(by_id.values()), deadline)
        if answer == z3.unknown:
            return Core(Status.UNKNOWN, message=f"z3: {base.solver.reason_unknown()}")
        if answer == z3.sat:
            return Core(Status.SOLVED, message="the givens have a solution")
        core = [b.get_id() for b in base.solver.unsat_core()]
        k = 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            answer = self._check(base, [by_id[i] for i in trial], deadline)
            if answer == z3.unknown:
                return Core(Status.UNKNOWN, tuple(sorted(given_of[i] for i in core)),
                            "timed out while shrinking the core")
            if answer == z3.sat:
                k += 1
            else:
                failed = {b.get_id() for b in base.solver.unsat_core()}
                core = [i for i in trial if i in failed]
        givens = tuple(sorted(given_of[i] for i in core))
        return Core(Status.UNSATISFIABLE, givens,
                    f"{len(givens)} givens have no solution together (minimal)")
