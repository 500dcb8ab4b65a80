"""Differential tests over the engine registry: every engine agrees with `native`.

- Every engine whose capabilities include "count" counts the 43 puzzles of tdoku's test
  fixture (0 to 847 solutions each) exactly as `native` does, with the same solutions. An
  engine class may take fewer of them by setting `differential_limit` (a slow package
  manager, say); the ones it takes are spread over the file.
- Every engine agrees with `native` on the status of a few small puzzles (solved or no
  solution). A tool that gives up (apt's solver does not backtrack) may answer "unknown" with
  its own words; it may never contradict `native`, and a wrong solution fails in `api.solve`.

Engines are read from the registry, so engines added later join on their own. A missing
engine skips locally and fails in CI, except engines with `required_in_ci = False` (tools
no package registry here provides: alloy, picat), which only run where they are installed.
"""

import math

import pytest

from polydoku import api
from polydoku.engines import ENGINE_IDS, Status, engine_class, make_engine
from polydoku.formats import parse_line

from conftest import data_lines, need_engine

COUNT_ENGINES = [e for e in ENGINE_IDS if e != "native" and "count" in engine_class(e).capabilities]
SOLVE_ENGINES = [e for e in ENGINE_IDS if e != "native"]
COUNT_LIMIT = 5000          # above the largest count in the file (847)
STATUS_TIMEOUT = 30         # a tool still busy then says "unknown", which never contradicts

SMALL = {
    "4x4 solvable": ".3.4......1.2...",
    "4x4 no solution": "1.3..2......3..4",           # r4c1=3 breaks no rule alone
    "9x9 easy": "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
    "9x9 no solution": None,                          # the first 0-count puzzle of the tdoku file
}


def engine_or_skip(engine_id: str):
    """Return a runnable engine: required ones through need_engine, optional ones skipped."""
    cls = engine_class(engine_id)
    if not cls.required_in_ci:
        engine = make_engine(engine_id)
        if not engine.available().ok:
            pytest.skip(f"{engine_id} is optional and not installed ({cls.install_hint})")
        return engine
    return need_engine(engine_id)


def tdoku_entries(limit: int | None = None) -> list[tuple[str, int]]:
    """Return (puzzle, count) pairs of the tdoku fixture, `limit` of them spread evenly."""
    entries = []
    for raw in data_lines("tdoku_test_puzzles_counts.txt"):
        puzzle, count, *_ = raw.split(":")
        entries.append((puzzle, int(count)))
    if limit is not None and limit < len(entries):
        step = math.ceil(len(entries) / limit)
        entries = entries[::step][:limit]
    return entries


@pytest.mark.parametrize("engine_id", COUNT_ENGINES)
def test_counts_agree_with_native(engine_id):
    engine = engine_or_skip(engine_id)
    for line, expected in tdoku_entries(engine_class(engine_id).differential_limit):
        puzzle = parse_line(line)
        reference = api.count(puzzle, "native", limit=COUNT_LIMIT)
        outcome = api.count(puzzle, engine, limit=COUNT_LIMIT, timeout=300)
        assert reference.count == expected and reference.exhausted
        assert outcome.exhausted and outcome.count == expected, (engine_id, line, outcome.message)
        assert set(outcome.solutions) == set(reference.solutions), (engine_id, line)


def small_puzzles() -> dict[str, str]:
    """Return the small puzzles of the status differential."""
    out = dict(SMALL)
    out["9x9 no solution"] = next(p for p, count in tdoku_entries() if count == 0)
    return out


@pytest.mark.parametrize("engine_id", SOLVE_ENGINES)
def test_status_agrees_with_native(engine_id):
    engine = engine_or_skip(engine_id)
    for name, line in small_puzzles().items():
        puzzle = parse_line(line)
        reference = api.solve(puzzle, "native")
        outcome = api.solve(puzzle, engine, timeout=min(STATUS_TIMEOUT,
                                                        engine_class(engine_id).status_timeout))
        if outcome.status is Status.UNKNOWN:
            assert outcome.message, (engine_id, name)       # gave up, and said why
            continue
        assert outcome.status is reference.status, (engine_id, name, outcome.message)


def test_the_small_set_has_both_statuses():
    statuses = {api.solve(parse_line(p), "native").status for p in small_puzzles().values()}
    assert statuses == {Status.SOLVED, Status.UNSATISFIABLE}
