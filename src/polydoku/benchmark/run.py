"""Running a benchmark: cases read from set files, one task per (puzzle, engine), in order.

Each task runs `api.solve` (which verifies every solution and raises EngineFailed on a wrong
one) up to `repeat` times and, when the set has a parallel `X.solutions.txt`, compares the
answer with it: a different grid, or "no solution" for a puzzle that has one, is "wrong".
Workers (local processes, or Dask workers with `dask`) build their own engines, once per
engine spec. Engines that cannot run here (on the machine that runs `bench`) are reported as
unavailable and not run; one that runs here but not on a Dask worker is an error there. It must not print: progress goes through a callback.
"""

from __future__ import annotations

import datetime
import resource
import statistics
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from .. import __version__, api
from ..batch import run_map
from ..engines import Status, make_engine
from ..engines.base import Engine
from ..errors import BadInput, EngineFailed, PolydokuError
from ..formats.line import parse_values, write_line
from ..formats.read import puzzle_of, read_puzzles
from ..model import Puzzle, cell_name
from .machine import machine_info
from .results import SCHEMA, SCHEMA_VERSION, STATUSES

WARM_UP_SECONDS = 5.0

# A task: (case number, engine spec, puzzle, expected solution or None, repeat, timeout).
Task = tuple[int, str, Puzzle, "tuple[int, ...] | None", int, float]


@dataclass(frozen=True)
class BenchSettings:
    """What to run: sets, engine specs, repeats, seconds per run, processes, puzzles per set,
    the reference engine, and the Dask scheduler to run on (None: local processes)."""

    sets: tuple[str, ...]
    engines: tuple[str, ...]
    repeat: int = 1
    timeout: float = 60.0
    jobs: int = 1
    limit: int | None = None
    reference: str = "native"
    dask: str | None = None


@dataclass(frozen=True)
class Case:
    """One puzzle of a set, with the solution its set's solutions file gives (if any)."""

    set: str
    line: int
    puzzle: Puzzle
    expected: tuple[int, ...] | None = field(default=None, compare=False)


def solutions_file(path: Path) -> Path | None:
    """Return the `X.solutions.txt` beside a set `X.txt`, when there is one."""
    candidate = path.with_name(path.name.rsplit(".", 1)[0] + ".solutions.txt")
    return candidate if candidate.is_file() and candidate != path else None


def load_set(path: str, limit: int | None) -> tuple[dict, list[Case]]:
    """Return a set's description and its cases (a bad puzzle line is bad input)."""
    src = Path(path)
    if not src.is_file():
        raise BadInput(f"no such puzzle set: {path}")
    sols = solutions_file(src)
    expected = sols.read_text(encoding="utf-8").splitlines() if sols else []
    cases = []
    for entry in read_puzzles(str(src)):
        p = puzzle_of(entry)
        line = entry.line or 1
        known = None
        if line <= len(expected) and expected[line - 1].strip():
            known = parse_values(expected[line - 1].strip(), f"{p.size}x{p.geometry.width}", p.alphabet)
        cases.append(Case(src.stem, line, p, known))
        if limit and len(cases) >= limit:
            break
    info = {"name": src.stem, "path": str(src), "puzzles": len(cases),
            "solutions_file": str(sols) if sols else None}
    return info, cases


def engine_info(spec: str) -> dict:
    """Return whether an engine spec runs here, its tool version or the reason and install hint."""
    engine = make_engine(spec)          # an unknown id or variant is bad input
    avail = engine.available()
    return {"spec": engine.spec, "title": engine.title, "available": avail.ok,
            "version": avail.version, "reason": avail.reason,
            "hint": "" if avail.ok else (avail.hint or engine.install_hint)}


def _cpu() -> float:
    """Return the CPU seconds of this process and its waited-for children so far."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _is_wrong_answer(err: EngineFailed) -> bool:
    """Return whether api.solve failed the engine for a wrong answer (not for a crash)."""
    return err.reason.startswith(("returned a wrong solution", "returned the same solution"))


def _judge(outcome, case_expected, puzzle: Puzzle, ran_out: bool) -> tuple[str, str]:
    """Return the status and message of a verified outcome, checked against the known solution
    (`ran_out`: the run took about the whole time limit)."""
    if outcome.status is Status.UNKNOWN:
        timed_out = ran_out or "timed out" in (outcome.message or "")
        return ("timeout" if timed_out else "gave-up"), outcome.message or "gave up"
    if outcome.status is Status.UNSATISFIABLE:
        if case_expected is not None:
            return "wrong", "claims no solution, but the solutions file has one"
        return "unsat", outcome.message
    got = outcome.solutions[0]
    if case_expected is not None and tuple(got) != tuple(case_expected):
        i = next(k for k, (a, b) in enumerate(zip(got, case_expected)) if a != b)
        return "wrong", (f"differs from the solutions file at {cell_name(puzzle.geometry.cell(i))}"
                         f" ({puzzle.symbol(got[i])}, expected {puzzle.symbol(case_expected[i])})")
    return "solved", outcome.message


def _run_once(engine: Engine, puzzle: Puzzle, expected, timeout: float) -> tuple:
    """Return (status, wall seconds, CPU seconds, engine statistics, message) of one run."""
    wall, cpu = time.perf_counter(), _cpu()
    stats: dict = {}
    try:
        outcome = api.solve(puzzle, engine, timeout=timeout)
        stats = outcome.stats
        ran_out = time.perf_counter() - wall >= 0.9 * timeout
        status, message = _judge(outcome, expected, puzzle, ran_out)
    except EngineFailed as err:
        status, message = ("wrong" if _is_wrong_answer(err) else "error"), str(err)
    except PolydokuError as err:
        status, message = "error", str(err)
    except Exception as err:  # an engine's bug is one puzzle's error, not the end of the run
        status, message = "error", f"{type(err).__name__}: {err}"
    return status, time.perf_counter() - wall, _cpu() - cpu, stats, message


_WORKER_ENGINES: dict[str, Engine] = {}


def run_task(task: Task) -> dict:
    """Return one engine's result on one puzzle: worst status, median times over the repeats."""
    _, spec, puzzle, expected, repeat, timeout = task
    engine = _WORKER_ENGINES.get(spec)
    if engine is None:
        engine = _WORKER_ENGINES[spec] = make_engine(spec)
        # One untimed run first, so imports and first-use set-up are not billed to a puzzle.
        _run_once(engine, puzzle, None, min(timeout, WARM_UP_SECONDS))
    walls, cpus, statuses = [], [], []
    for _ in range(max(1, repeat)):
        status, wall, cpu, stats, message = _run_once(engine, puzzle, expected, timeout)
        walls.append(wall)
        cpus.append(cpu)
        statuses.append(status)
        if status not in ("solved", "unsat"):
            break           # a timeout, error or wrong answer is not worth repeating
    worst = max(statuses, key=STATUSES.index)
    return {"status": worst, "seconds": round(statistics.median(walls), 6),
            "cpu_seconds": round(statistics.median(cpus), 6),
            "runs": [round(w, 6) for w in walls], "message": message,
            "stats": {k: v for k, v in stats.items() if k not in ("seconds", "cpu_seconds")}}


def _run_chunk(tasks: list[Task]) -> list[dict]:
    """Return the results of a chunk of tasks (the worker side of `--jobs` and `--dask`)."""
    return [run_task(t) for t in tasks]


def _lost_chunk(tasks: list[Task], error: BaseException) -> list[dict]:
    """Return the results of a chunk of tasks the workers could not compute: errors."""
    from ..batch import lost_reason
    return [{"status": "error", "seconds": 0.0, "cpu_seconds": 0.0, "runs": [],
             "message": lost_reason(error), "stats": {}}
            for _ in tasks]


def run_bench(settings: BenchSettings,
              progress: Callable[[int, int], None] | None = None) -> dict:
    """Return the benchmark result (see `results`) of running every engine on every puzzle.

    `progress(done, total)` is called once before the first task and after every task.
    """
    specs = tuple(dict.fromkeys(((settings.reference,) if settings.reference else ())
                                + settings.engines))
    engines = {spec: engine_info(spec) for spec in specs}
    sets, cases = [], []
    for path in settings.sets:
        info, found = load_set(path, settings.limit)
        sets.append(info)
        cases.extend(found)
    runnable = [spec for spec, info in engines.items() if info["available"]]
    tasks = [(k, spec, case.puzzle, case.expected, settings.repeat, settings.timeout)
             for k, case in enumerate(cases) for spec in runnable]
    started = datetime.datetime.now(datetime.UTC)
    if progress:
        progress(0, len(tasks))
    if settings.jobs > 1 or settings.dask:
        results = run_map(_run_chunk, tasks, jobs=settings.jobs, dask=settings.dask,
                          preload=(__name__,), on_lost=_lost_chunk)
    else:
        results = ((t, run_task(t)) for t in tasks)
    puzzles: list[dict[str, Any]] = [{"set": c.set, "line": c.line, "puzzle": write_line(c.puzzle),
                "rules": [r.name for r in c.puzzle.rules], "has_solution": c.expected is not None,
                "results": {}} for c in cases]
    for done, (task, result) in enumerate(results, 1):
        puzzles[task[0]]["results"][task[1]] = result
        if progress:
            progress(done, len(tasks))
    return {"schema": SCHEMA, "schema_version": SCHEMA_VERSION,
            "created": started.isoformat(timespec="seconds"),
            "seconds": round((datetime.datetime.now(datetime.UTC) - started)
                             .total_seconds(), 3),
            "polydoku": __version__, "machine": machine_info(),
            "settings": {**asdict(settings), "sets": list(settings.sets),
                         "engines": list(specs),
                         "warm_up": "one untimed run per engine and process before its first "
                                    f"puzzle (at most {WARM_UP_SECONDS:g} s)"},
            "engines": engines, "sets": sets, "puzzles": puzzles}

