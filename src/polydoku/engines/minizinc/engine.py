"""The `minizinc` engine: the MiniZinc model run by Debian's `minizinc` with its Gecode
backend (`-o solver=NAME` picks another one `minizinc --solvers` lists).

Encoder in `encode`, subprocess in `run`; this module only maps the answer to an outcome.
MiniZinc flattens the model on every run, so its cost per puzzle is mostly start-up.
"""

from __future__ import annotations

from typing import Any

import functools
import re

from ...problem import Problem
from ..base import ALL_KINDS, Availability, Engine, Option, Outcome, Status
from ..sandbox import Sandbox, find_program

DEFAULT_SOLVER = "gecode"


@functools.lru_cache(maxsize=1)
def solver_names() -> tuple[str, ...]:
    """Return the names `--solver` takes here: each configuration's id and its last part
    (`org.gecode.gecode`, `gecode`); none when minizinc is missing or does not answer."""
    import json
    exe = find_program("minizinc")
    if exe is None:
        return ()
    with Sandbox("minizinc") as box:
        r = box.run([exe, "--solvers-json"], timeout=30)
    try:
        ids = [str(s["id"]) for s in json.loads(r.stdout) if isinstance(s, dict) and "id" in s]
    except (ValueError, TypeError):
        return ()
    return tuple(dict.fromkeys([i.rpartition(".")[2].lower() for i in ids] + ids))


class MiniZincEngine(Engine):
    """MiniZinc + Gecode, through the `minizinc` program."""
    OPTIONS = {"solver": Option(solver_names, DEFAULT_SOLVER)}

    id = "minizinc"
    title = "MiniZinc model run by the minizinc program with its Gecode backend"
    install_hint = "apt-get install minizinc (Debian; Gecode's backend comes with package flatzinc)"
    capabilities = frozenset({"solve", "count"})
    takes = ALL_KINDS
    takes_aux = True

    def available(self) -> Availability:
        return _availability(self.option("solver"), self.install_hint)

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None) -> Outcome:
        from .run import run
        a = run(problem, solver=self.option("solver"),
                max_solutions=max_solutions, timeout=timeout, keep=self.keep)
        stats = {"run_seconds": round(a.seconds, 6)}
        common: dict[str, Any] = dict(stats=stats, engine=self.spec, log_path=a.log_path,
                      artifact_path=a.artifact_path)
        if a.failed:
            return Outcome(Status.ERROR, message=f"minizinc: {a.words}", **common)
        if a.unsat:
            return Outcome(Status.UNSATISFIABLE, exhausted=True, **common)
        if not a.solutions:
            return Outcome(Status.UNKNOWN, message=f"minizinc: {a.words or 'no answer'}", **common)
        exhausted = a.complete and max_solutions > 1
        return Outcome(Status.SOLVED, a.solutions[:max(1, max_solutions)], exhausted,
                       message="" if exhausted or not a.timed_out else a.words, **common)


@functools.lru_cache(maxsize=8)
def _availability(solver: str, install_hint: str) -> Availability:
    """Return whether minizinc and its `solver` backend run here (asked once per process:
    `api.solve` checks availability before every puzzle)."""
    exe = find_program("minizinc")
    if exe is None:
        return Availability(False, reason="program minizinc not found", hint=install_hint)
    with Sandbox("minizinc") as box:
        r = box.run([exe, "--solvers"], timeout=30)
        v = box.run([exe, "--version"], timeout=30)
    if r.returncode != 0:
        return Availability(False, reason=f"minizinc --solvers failed: {r.output.strip()[:200]}",
                            hint=install_hint)
    if not re.search(rf"\b{re.escape(solver)}\b", r.stdout, re.IGNORECASE):
        return Availability(False, reason=f"minizinc has no solver {solver!r}",
                            hint="apt-get install flatzinc (Gecode's MiniZinc backend)")
    m = re.search(r"version ([\d.]+)", v.stdout)
    return Availability(True, f"minizinc {m.group(1) if m else '?'} + {solver}")
