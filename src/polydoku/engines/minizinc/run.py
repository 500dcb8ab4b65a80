"""MiniZinc runner: writes the model and data into a sandbox, runs `minizinc` with a
backend (Gecode by default) and a time limit, and reads the solutions back.

The only home of the subprocess and temp files of the `minizinc` engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import EngineUnavailable
from ...problem import Problem
from ..sandbox import Sandbox, find_program
from .encode import data_text, model_text, parse_cells

GRACE_SECONDS = 10.0       # past MiniZinc's own --time-limit, the sandbox kills it


@dataclass
class Answer:
    """What one MiniZinc run said."""

    solutions: list[tuple[int, ...]] = field(default_factory=list)
    complete: bool = False           # "==========": the search space was exhausted
    unsat: bool = False              # "=====UNSATISFIABLE====="
    words: str = ""                  # the tool's own words when it gave up or failed
    failed: bool = False
    timed_out: bool = False
    seconds: float = 0.0
    log_path: str | None = None
    artifact_path: str | None = None


def run(problem: Problem, *, solver: str, max_solutions: int, timeout: float | None,
        keep=None) -> Answer:
    """Return MiniZinc's answer for a problem."""
    exe = find_program("minizinc")
    if exe is None:
        raise EngineUnavailable("minizinc", "the minizinc program is not installed")
    with Sandbox("minizinc", keep) as box:
        mzn = box.write("model.mzn", model_text(problem))
        dzn = box.write("data.dzn", data_text(problem))
        cmd = [exe, "--solver", solver, "--output-mode", "item"]
        if max_solutions > 1:
            cmd += ["-n", str(max_solutions)]
        if timeout:
            cmd += ["--time-limit", str(int(timeout * 1000))]
        cmd += [str(mzn), str(dzn)]
        r = box.run(cmd, timeout=(timeout + GRACE_SECONDS) if timeout else None)
        answer = read_output(r.stdout, problem.size)
        answer.seconds, answer.log_path = r.seconds, r.log_path
        answer.artifact_path = box.kept(mzn)
        answer.timed_out = r.timed_out
        if r.timed_out:
            answer.words = answer.words or "killed after the time limit"
        elif r.returncode != 0 and not answer.solutions and not answer.unsat:
            answer.failed = True
            answer.words = (r.stderr.strip() or r.stdout.strip() or
                            f"minizinc exited {r.returncode}").splitlines()[-1]
    return answer


def read_output(stdout: str, n: int) -> Answer:
    """Return the solutions and markers of MiniZinc's standard output."""
    answer = Answer()
    for line in stdout.splitlines():
        line = line.strip()
        cells = parse_cells(line, n)
        if cells is not None:
            answer.solutions.append(cells)
        elif line == "==========":
            answer.complete = True
        elif line == "=====UNSATISFIABLE=====":
            answer.unsat = True
        elif line.startswith("=====") and line.endswith("====="):
            answer.words = line.strip("=").lower()
    return answer
