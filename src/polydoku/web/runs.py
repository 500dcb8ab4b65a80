"""What each API call computes: request fields -> puzzle -> the same JSON the CLI prints.

`read_request` runs in the server process (cheap: it only reads the puzzle and checks the
fields, so bad input answers 400 at once); `run` runs in a worker process, one per request, so
a slow engine never blocks the server and can be killed. Neither prints nor knows about HTTP
beyond returning a status code.
"""

from __future__ import annotations

import dataclasses
import signal
from typing import Any

from .. import api
from ..errors import BadInput, EngineUnavailable, PolydokuError
from ..formats.read import FORMATS, read_text
from ..jsonout import (candidates_json, error_json, explain_json, graded_hint_json, label,
                       path_json, solve_json, unique_json, unsolvable_json)
from ..model import Puzzle, cell_name
from ..rules import parse_rules
from ..reasoning.logic.graded import GRADES

KINDS = ("solve", "count", "check-unique", "explain", "candidates", "hint", "steps", "check")
MAX_TIMEOUT = 120.0
DEFAULT_TIMEOUT = 30.0
MAX_COUNT = 100_000


@dataclasses.dataclass(frozen=True)
class Request:
    """One checked API request: what to run, on which puzzle, with which settings."""

    kind: str
    puzzle: Puzzle
    engine: str = "native"
    timeout: float = DEFAULT_TIMEOUT
    limit: int = 1
    why: str | None = None
    smallest: bool = False
    at_least: int = 1
    grade: str | None = None
    max_level: str | None = None
    entries: tuple[int, ...] = ()


def _field(body: dict, key: str, kind: type, default: Any) -> Any:
    """Return a body field of the expected JSON type (default when absent); bad input otherwise."""
    value = body.get(key, default)
    if value is None:
        return default
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadInput(f"field {key!r}: expected {kind.__name__}, got {type(value).__name__}")
    return value


def apply_grid(puzzle: Puzzle, text: str, field: str = "grid") -> Puzzle:
    """Return the puzzle with the values of a grid line (`.` or `0` empty) as its givens
    (bad input names `field`)."""
    n, cells = puzzle.geometry.ncells, [ch for ch in text if not ch.isspace()]
    if len(cells) != n:
        raise BadInput(f"field {field!r}: {len(cells)} cells, expected {n}")
    lookup = {ch.upper(): k + 1 for k, ch in enumerate(puzzle.alphabet)}
    values = []
    for k, ch in enumerate(cells):
        if ch.upper() in lookup:        # a grid of 0..8 holds 0 as a value
            values.append(lookup[ch.upper()])
        elif ch in ".0":
            values.append(0)
        else:
            raise BadInput(f"field {field!r}: symbol {ch!r} at cell {k + 1} is not one of "
                           f"{puzzle.alphabet}")
    return dataclasses.replace(puzzle, givens=tuple(values))


def read_puzzle_fields(body: dict) -> Puzzle:
    """Return the puzzle of a request: its text read in any format, its rules, its grid."""
    if not isinstance(body, dict):
        raise BadInput("the request body must be a JSON object")
    text = _field(body, "puzzle", str, "")
    fmt = _field(body, "format", str, "auto")
    if fmt not in FORMATS:
        raise BadInput(f"field 'format': unknown input format {fmt!r} "
                       f"(known: {', '.join(FORMATS)})")
    puzzle = read_text(text, fmt=fmt, rules=parse_rules(_field(body, "rules", str, "")))
    grid = _field(body, "grid", str, "")
    return apply_grid(puzzle, grid) if grid else puzzle


def read_request(kind: str, body: dict, max_timeout: float = MAX_TIMEOUT) -> Request:
    """Return the checked request of an API call; bad input raises with a one-line message."""
    puzzle = read_puzzle_fields(body)
    timeout = _field(body, "timeout", float, min(DEFAULT_TIMEOUT, max_timeout))
    if not 0 < timeout <= max_timeout:
        raise BadInput(f"field 'timeout': {timeout} is outside (0, {max_timeout:g}] seconds")
    default_limit = 1 if kind == "solve" else (2 if kind == "check-unique" else MAX_COUNT)
    limit = _field(body, "limit", int, default_limit)
    if not 1 <= limit <= MAX_COUNT:
        raise BadInput(f"field 'limit': {limit} is outside 1..{MAX_COUNT}")
    grade = _field(body, "level", str, "") or None
    if grade is not None and grade not in GRADES:
        raise BadInput(f"field 'level': {grade!r} is not one of {', '.join(GRADES)}")
    max_level = _field(body, "max_level", str, "") or None
    if max_level is not None:
        from ..reasoning.logic import LEVELS
        if max_level not in LEVELS:
            raise BadInput(f"field 'max_level': {max_level!r} is not one of {', '.join(LEVELS)}")
    at_least = _field(body, "at_least", int, 1)
    if at_least < 1:
        raise BadInput(f"field 'at_least': {at_least} is below 1")
    why = _field(body, "why", str, "") or None
    if why:
        from ..reasoning.explain import parse_why
        parse_why(why, puzzle)
    entries = _field(body, "entries", str, "")
    values = apply_grid(puzzle, entries, "entries").givens if entries else ()
    return Request(kind, puzzle, _field(body, "engine", str, "native"), timeout, limit, why,
                   _field(body, "smallest", bool, False), at_least, grade, max_level, values)


def run(req: Request) -> tuple[int, dict]:
    """Return (HTTP status, JSON object) of a request: 200 with the CLI's JSON, 400 for bad
    input or a missing engine, 500 (no traceback) for an internal error."""
    try:
        return 200, _RUNS[req.kind](req)
    except (BadInput, EngineUnavailable) as err:
        return 400, {"error": str(err)}
    except PolydokuError as err:
        return 200, error_json(req.puzzle, err)
    except KeyboardInterrupt:
        return 503, {"error": "stopped"}
    except Exception as err:  # the last seam: one line, never a traceback
        return 500, {"error": f"internal error: {type(err).__name__}"}


def worker_main(conn, req: Request, folder: str | None = None) -> None:
    """Run one request in a worker process and send (status, JSON) back through `conn`; its
    sandboxes go under `folder` (the server removes it once the worker has stopped)."""
    if folder is not None:
        import os
        import tempfile
        tempfile.tempdir = os.environ["TMPDIR"] = folder
    # Terminating the worker unwinds like an interrupt, so a running sandbox stops its tool;
    # only the first stop counts, so that a second one cannot cut that clean-up short.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop_once)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the server's; it stops us itself
    try:
        try:
            conn.send(run(req))
        except (OSError, KeyboardInterrupt):    # the server stopped us or went away: nobody reads
            pass
        finally:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)   # from here on a stop is silent
            conn.close()
    except (OSError, KeyboardInterrupt):        # a stop that landed while closing
        pass


def _stop_once(signum, frame) -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)
    raise KeyboardInterrupt


def _engine(req: Request, capability: str | None = None, why: str = ""):
    """Return the request's engine, refusing one without a needed capability (bad input)."""
    engine = api.get_engine(req.engine)
    if capability and capability not in engine.capabilities:
        raise BadInput(f"engine {engine.spec} cannot count solutions, so it cannot {why} "
                       f"(try native)")
    return engine


def _solve(req: Request) -> dict:
    engine = _engine(req)
    outcome = api.solve(req.puzzle, engine, max_solutions=req.limit, timeout=req.timeout)
    data = solve_json(req.puzzle, outcome)
    # as `solve` on one puzzle: a fact about uniqueness only from a search for a second
    data["unique"] = (api.second_solution(req.puzzle, engine, outcome, req.timeout)[0]
                      if outcome.solutions else None)
    return data


def _count(req: Request) -> dict:
    engine = _engine(req, "count", "count them")
    # Two solutions kept, as `solve --count` keeps: verifying every one counted (up to
    # 100,000) took far longer than the run's timeout.
    outcome = api.solve(req.puzzle, engine, max_solutions=req.limit, timeout=req.timeout,
                        keep_solutions=2)
    return solve_json(req.puzzle, outcome, "count")


def _check_unique(req: Request) -> dict:
    engine = _engine(req, "count", "tell one solution from several")
    outcome = api.solve(req.puzzle, engine, max_solutions=2, timeout=req.timeout)
    return unique_json(req.puzzle, outcome)


def _explain(req: Request) -> dict:
    from ..reasoning.explain import parse_why
    from ..jsonout import literal_name
    from ..reasoning.explain import explain
    literal = parse_why(req.why, req.puzzle) if req.why else None
    e = explain(req.puzzle, why=literal, engine=_engine(req), smallest=req.smallest,
                timeout=req.timeout)
    return explain_json(e, req.puzzle, literal_name(req.puzzle, literal) if literal else None)


def _candidates(req: Request) -> dict:
    from ..reasoning.candidates import true_candidates
    engine = _engine(req, "count" if req.at_least > 1 else None, "count them")
    result = true_candidates(req.puzzle, at_least=req.at_least, engine=engine,
                             timeout=req.timeout)
    return candidates_json(req.puzzle, result)


def _hint(req: Request) -> dict:
    from ..reasoning.logic import hint
    return graded_hint_json(req.puzzle, hint(req.puzzle, max_level=req.max_level,
                                             grade=req.grade or "answer", timeout=req.timeout))


def _steps(req: Request) -> dict:
    from ..reasoning.logic import prepare, solve_logically
    prep = prepare(req.puzzle, timeout=req.timeout)
    if prep.solution is None:
        return unsolvable_json(req.puzzle, prep)
    path = solve_logically(req.puzzle, max_level=req.max_level, prepared=prep,
                           max_seconds=req.timeout)
    return path_json(req.puzzle, path)


def _check(req: Request) -> dict:
    """Return how a solver's entries stand against the solution, without the solution: on a
    unique puzzle the wrong entries by name; on one with several, whether some solution keeps
    them all. An engine that cannot count leaves the counting to native (named in `engine`),
    as `solve` does for uniqueness."""
    engine = _engine(req)
    if "count" not in engine.capabilities:
        engine = api.get_engine("native")
    outcome = api.solve(req.puzzle, engine, max_solutions=2, timeout=req.timeout)
    out = {"puzzle": label(req.puzzle), "status": outcome.status.value, "engine": engine.spec,
           "message": outcome.message}
    if outcome.status.value != "solved":
        return out
    entries = req.entries or (0,) * req.puzzle.geometry.ncells
    mine = [i for i, v in enumerate(entries) if v and not req.puzzle.givens[i]]
    empty = sum(1 for i, v in enumerate(entries) if not v and not req.puzzle.givens[i])
    out.update(unique=len(outcome.solutions) == 1, entered=len(mine), empty=empty)
    if out["unique"]:
        solution = outcome.solutions[0]
        out["wrong"] = [cell_name(req.puzzle.geometry.cell(i)) for i in mine
                        if entries[i] != solution[i]]
        return out
    givens = tuple(g or entries[i] for i, g in enumerate(req.puzzle.givens))
    kept = api.solve(dataclasses.replace(req.puzzle, givens=givens), engine, max_solutions=1,
                     timeout=req.timeout)
    out["fits"] = kept.status.value == "solved"
    if kept.status.value not in ("solved", "unsatisfiable"):
        out.update(status=kept.status.value, message=kept.message)
    return out


def stopped_json(req: Request, seconds: float) -> dict:
    """Return the JSON object of a run the server stopped at its time limit."""
    return {"puzzle": label(req.puzzle), "status": "unknown", "engine": req.engine,
            "message": f"stopped by the server after {seconds:g} s"}


_RUNS = {"solve": _solve, "count": _count, "check-unique": _check_unique, "explain": _explain,
         "candidates": _candidates, "hint": _hint, "steps": _steps, "check": _check}
