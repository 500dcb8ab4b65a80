"""The JSON objects of results: what `--json` prints and what the web API answers, built once.

Pure functions from results (outcomes, explanations, candidates, logical steps) to JSON-ready
dicts; the CLI prints them one per line and the web layer sends them as they are. Nothing here
solves, reads or prints.
"""

from __future__ import annotations

from typing import Any, Sequence

from .engines import Outcome, Status
from .errors import EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT
from .formats.line import write_line
from .model import Puzzle, cell_name


def label(p: Puzzle) -> str:
    """Return how a puzzle is named in output: its name, or its line."""
    return p.name or write_line(p)


def literal_name(puzzle: Puzzle, literal: tuple[int, int]) -> str:
    """Return a cell value written `r4c5=6` (the value as the puzzle's symbol)."""
    var, value = literal
    return f"{cell_name(puzzle.geometry.cell(var))}={puzzle.symbol(value)}"


def differences(puzzle: Puzzle, a: Sequence[int], b: Sequence[int]) -> list[str]:
    """Return the cells where two solutions differ, written `r1c2=3/4`."""
    return [f"{cell_name(puzzle.geometry.cell(i))}={puzzle.symbol(x)}/{puzzle.symbol(y)}"
            for i, (x, y) in enumerate(zip(a, b)) if x != y]


def outcome_json(puzzle: Puzzle, outcome: Outcome, **extra: Any) -> dict[str, Any]:
    """Return the JSON object of one puzzle's outcome."""
    data: dict[str, Any] = {
        "puzzle": label(puzzle),
        "status": outcome.status.value,
        "engine": outcome.engine,
        "count": outcome.count,
        "exhausted": outcome.exhausted,
        "solutions": [write_line(puzzle, s) for s in outcome.solutions],
        "message": outcome.message,
        "stats": outcome.stats,
    }
    for key in ("log_path", "artifact_path"):
        if getattr(outcome, key):
            data[key] = getattr(outcome, key)
    data.update(extra)
    return data


def error_json(puzzle: Puzzle, err: Exception, **extra: Any) -> dict[str, Any]:
    """Return the JSON object of a puzzle whose run failed (engine unavailable or failed)."""
    return {"puzzle": label(puzzle), "status": "error", **extra, "message": str(err)}


def solve_json(puzzle: Puzzle, outcome: Outcome, mode: str | None = None) -> dict[str, Any]:
    """Return the JSON object `solve --format json` prints (with --count: two solutions and
    the cells where they differ)."""
    extra = {}
    if mode == "count" and outcome.count >= 2:
        extra["differences"] = differences(puzzle, *outcome.solutions[:2])
    data = outcome_json(puzzle, outcome, **extra)
    if mode == "count":
        data["solutions"] = data["solutions"][:2]
    return data


def verdict(outcome: Outcome) -> tuple[bool | None, str, int]:
    """Return (is unique?, the answer line, exit code) of a search stopped at two solutions."""
    if outcome.status is Status.UNSATISFIABLE:
        return False, "no: no solution", EXIT_UNSAT
    if outcome.count >= 2:
        return False, "no: at least 2 solutions", EXIT_UNSAT
    if outcome.status is Status.SOLVED and outcome.exhausted:
        return True, "yes", EXIT_SOLVED
    return None, f"unknown: {outcome.message or 'the engine gave up'}", EXIT_UNKNOWN


def unique_json(puzzle: Puzzle, outcome: Outcome) -> dict[str, Any]:
    """Return the JSON object `check-unique --json` prints for a search stopped at two
    solutions."""
    unique, _, _ = verdict(outcome)
    diff = differences(puzzle, *outcome.solutions[:2]) if outcome.count >= 2 else []
    return outcome_json(puzzle, outcome, unique=unique, differences=diff)


def explain_json(e, puzzle: Puzzle, why_text: str | None) -> dict[str, Any]:
    """Return the JSON object of an explanation (givens written `r4c5=6`)."""
    return {
        "puzzle": label(puzzle),
        "status": e.status.value,
        "why": why_text,
        "conflict": [literal_name(puzzle, g) for g in e.givens],
        "minimal": e.is_minimal,
        "smallest": None if e.smallest is None else {
            "proved": e.smallest.is_proved, "lower_bound": e.smallest.lower_bound,
            "seconds": e.smallest.seconds, "iterations": e.smallest.iterations,
            "message": e.smallest.message},
        "needs_rules": list(e.needed_rules),
        "clues": [r.describe(puzzle.geometry) for r in e.clues],
        "classic_rules_suffice": e.classic_suffices,
        "by_propagation": e.by_propagation,
        "nodes": e.nodes,
        "puzzle_unsolvable": e.puzzle_unsolvable,
        "solutions": [write_line(puzzle, s) for s in e.solutions],
        "unique": e.is_unique,
        "witnesses": {literal_name(puzzle, g): write_line(puzzle, s)
                      for g, s in e.witnesses.items() if g in e.givens},
        "engine": e.stats.get("engine"),
        "message": e.message,
        "stats": e.stats,
    }


def cell_texts(puzzle: Puzzle, result) -> list[str]:
    """Return each cell's candidates as a string of symbols (`.` when it has none)."""
    return ["".join(puzzle.symbol(v) for v in sorted(vals)) or "." for vals in result.values]


def candidates_json(puzzle: Puzzle, result) -> dict[str, Any]:
    """Return the JSON object of a puzzle's true candidates."""
    texts = cell_texts(puzzle, result)
    return {
        "puzzle": label(puzzle),
        "status": result.status.value,
        "at_least": result.at_least,
        "candidates": {cell_name(puzzle.geometry.cell(i)): t if result.values[i] else ""
                       for i, t in enumerate(texts)},
        "total": result.total,
        "undecided": [literal_name(puzzle, p) for p in result.undecided],
        "solutions_seen": result.solutions_seen,
        "searches": result.searches,
        "engine": result.stats.get("engine"),
        "message": result.message,
        "stats": result.stats,
    }


def unsolvable_json(puzzle: Puzzle, prep) -> dict[str, Any]:
    """Return the JSON object of `hint`/`steps` on a puzzle logic is not tried on (no
    solution, or the native engine gave up)."""
    proved = prep.status is Status.UNSATISFIABLE
    return {"puzzle": label(puzzle), "status": "unsatisfiable" if proved else "unknown",
            "message": prep.why_no_logic}


def hint_json(puzzle: Puzzle, board, step, status: str) -> dict[str, Any]:
    """Return the JSON object of `hint --json`: the next step (or why there is none)."""
    from .reasoning.logic import candidates_rows
    data: dict[str, Any] = {"puzzle": label(puzzle), "status": status, "technique": None,
                            "placements": [], "eliminations": [], "pattern": [], "text": ""}
    if step is not None:
        data.update(step.to_json(board.layout))
    if status == "stalled":
        data["candidates"] = candidates_rows(board)
    return data


def graded_hint_json(puzzle: Puzzle, hint) -> dict[str, Any]:
    """Return the JSON object of `hint --level GRADE --json` (and of the page's hints): the
    keys of `hint_json`, filled only as far as the grade tells, with `grade`, the `house` to
    look at and its cells (`house_cells`); or, where logic was not tried, why not."""
    if hint.board is None:
        return unsolvable_json(puzzle, hint.prepared)
    g = hint.graded
    if g is None:
        return {**hint_json(puzzle, hint.board, None, hint.status.value), "grade": hint.grade,
                "house": None, "house_cells": []}
    lay = hint.board.layout
    data = hint_json(puzzle, hint.board, hint.step if g.grade == "answer" else None,
                     hint.status.value)
    data.update(g.data)
    data.update(grade=g.grade, text=g.text, house_cells=[lay.name(i) for i in g.house_cells])
    return data


def path_json(puzzle: Puzzle, path) -> dict[str, Any]:
    """Return the JSON object of a logical path (`steps --json`)."""
    from .reasoning.logic import candidates_rows
    lay, board = path.prepared.layout, path.board
    data: dict[str, Any] = {
        "puzzle": label(puzzle), "status": "solved" if path.solved else "stalled",
        "unique": path.prepared.unique, "steps": [s.to_json(lay) for s in path.steps],
        "rating": path.rating.to_json(), "seconds": round(path.seconds, 4),
        "grid": write_line(puzzle, board.value)}
    if not path.solved:
        data["candidates"] = candidates_rows(board)
    return data


def engine_rows() -> list[dict[str, Any]]:
    """Return one row per registered engine: id, title, availability, version or reason, hint."""
    from .engines.registry import ENGINE_IDS, engine_class
    rows = []
    for engine_id in ENGINE_IDS:
        cls = engine_class(engine_id)
        avail = cls().available()
        rows.append({"id": engine_id, "title": cls.title, "available": avail.ok,
                     "version": avail.version, "reason": avail.reason,
                     "install": avail.hint or cls.install_hint, "needs_root": cls.needs_root,
                     "capabilities": sorted(cls.capabilities), "variants": list(cls.variants)})
    return rows
