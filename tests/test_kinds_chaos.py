"""Chaos construction and its clues (rules/kind/chaos_construction.py, chaos_clues.py): the
regions drawn while solving, checked on 4x4 against every tiling of the grid into connected
pieces written out here (independent of the kinds' own `violations`); the lowering draws each
tiling exactly once; round trips through JSON and ISS; bad input; ISS's own chaos puzzles
solved to their published grids."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from conftest import ROOT, need_engine
from test_rule_kinds import all_grids, puzzle_with, solutions
from polydoku.engines.native import search
from polydoku.errors import BadInput
from polydoku.formats import read_puzzle
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.jsonfmt import parse_json, puzzle_to_dict
from polydoku.problem.build import build_problem
from polydoku.verify import is_solution

N = 4


def near(i: int) -> list[int]:
    r, c = divmod(i, N)
    return [(r + dr) * N + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < N and 0 <= c + dc < N]


@lru_cache(maxsize=1)
def tilings() -> list[tuple[frozenset[int], ...]]:
    """Return every split of the 4x4 grid into four connected pieces of four cells."""
    pieces = {frozenset([i]) for i in range(N * N)}
    for _ in range(N - 1):
        pieces = {p | {j} for p in pieces for i in p for j in near(i) if j not in p}
    out = []

    def fill(left: frozenset[int], chosen: tuple) -> None:
        if not left:
            out.append(chosen)
            return
        first = min(left)
        for p in pieces:
            if first in p and p <= left:
                fill(left - p, chosen + (p,))
    fill(frozenset(range(N * N)), ())
    return out


def fitting(grid, clue=lambda grid, piece_of: True) -> list[tuple]:
    """Return the tilings whose pieces hold every value once and that `clue` accepts."""
    out = []
    for t in tilings():
        if all(len({grid[i] for i in p}) == N for p in t):
            piece_of = {i: k for k, p in enumerate(t) for i in p}
            if clue(grid, piece_of):
                out.append(t)
    return out


def count_clue(control: int, cells: list[int], offset: int):
    return lambda grid, of: grid[control] == sum(of[c] == of[cells[0]] for c in cells) - offset


def arrow_clue(control: int, arms: list[list[int]], offset: int):
    def holds(grid, of) -> bool:
        total = 1
        for arm in arms:
            for c in arm[1:]:
                if of[c] != of[arm[0]]:
                    break
                total += 1
        return grid[control] == total - offset
    return holds


def name(i: int) -> str:
    return f"r{i // N + 1}c{i % N + 1}"


CASES = [
    ({"kind": "chaos-count", "control": "r1c1", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"]},
     count_clue(0, [0, 1, 4, 5], 0)),
    ({"kind": "chaos-count", "control": "r2c3", "cells": ["r4c4", "r3c4", "r4c3", "r1c1"],
      "offset": 1}, count_clue(6, [15, 11, 14, 0], 1)),
    ({"kind": "chaos-arrow", "control": "r1c2"},
     arrow_clue(1, [[1, 0], [1, 2, 3], [1, 5, 9, 13]], 0)),
    ({"kind": "chaos-arrow", "control": "r3c3", "arms": [["r2c2", "r2c3", "r2c4"],
                                                         ["r2c2", "r3c2"]], "offset": 1},
     arrow_clue(10, [[5, 6, 7], [5, 9]], 1)),
    ({"kind": "chaos-same-region", "cells": ["r1c1", "r2c2", "r1c3"]},
     lambda grid, of: of[0] == of[5] == of[2]),
    ({"kind": "chaos-same-region", "cells": ["r2c2", "r3c3"]},
     lambda grid, of: of[5] == of[10]),
]


def test_the_lowering_draws_each_tiling_of_a_grid_exactly_once():
    puzzle = puzzle_with(["chaos-construction"])
    problem = build_problem(puzzle)
    assert problem.free_aux
    from dataclasses import replace
    every = search(replace(problem, free_aux=False), 100_000)      # every assignment
    assert every.exhausted
    drawn: dict[tuple, int] = {}
    for s in every.solutions:
        drawn[problem.grid(s)] = drawn.get(problem.grid(s), 0) + 1
    assert drawn == {g: len(fitting(g)) for g in all_grids()}
    assert sum(drawn.values()) > 288 * 2            # rows, columns and more: regions differ


@pytest.mark.parametrize("k", range(len(CASES)))
@pytest.mark.parametrize("engine", ["native", "sat", "cpsat"])
def test_chaos_clues_keep_exactly_the_grids_a_fitting_tiling_allows(k, engine):
    need_engine(engine)
    data, clue = CASES[k]
    puzzle = puzzle_with([data])
    truth = {g for g in all_grids() if fitting(g, clue)}
    assert {g for g in all_grids() if is_solution(puzzle, g)} == truth
    assert solutions(puzzle, engine) == truth
    assert 0 < len(truth) < 288


def test_two_clues_read_one_drawing_of_the_regions():
    (a, ca), (b, cb) = CASES[0], CASES[2]
    puzzle = puzzle_with([a, b])
    both = {g for g in all_grids() if fitting(g, lambda g, of: ca(g, of) and cb(g, of))}
    apart = {g for g in all_grids() if fitting(g, ca) and fitting(g, cb)}
    assert both < apart                     # one tiling for both is stricter than one each
    assert solutions(puzzle, "native") == both
    assert {g for g in all_grids() if is_solution(puzzle, g)} == both


@pytest.mark.parametrize("k", range(len(CASES)))
def test_chaos_rules_round_trip_through_json_and_iss(k):
    data = CASES[k][0]
    puzzle = puzzle_with(["chaos-construction", data])
    again = parse_json(json.dumps(puzzle_to_dict(puzzle)))
    assert again.rules == puzzle.rules
    text = to_iss(puzzle.with_givens([0] * 16))
    assert ".ChaosConstruction" in text
    back = parse_iss(text)
    assert set(back.rules) == set(puzzle.rules)


def test_iss_clue_forms_read_as_iss_means_them():
    p = parse_iss(".Shape~4x4.NoBoxes.ChaosConstruction.ChaosCount~R2C2"
                  ".ChaosArrow~R1C1~1~CC1~-~CC1~CC5~CC9~-~CC1~CC2")
    count, arrow = p.rules[1], p.rules[2]
    assert len(count.cells) == 9 and count.cells[0] == (1, 1) and count.offset == 0
    assert arrow.arms == (((0, 0), (1, 0), (2, 0)), ((0, 0), (0, 1))) and arrow.offset == 1
    default = parse_iss(".Shape~4x4.ChaosConstruction.ChaosArrow~R2C2").rules[1]
    assert sorted(len(a) for a in default.arms) == [2, 2, 3, 3]


@pytest.mark.parametrize("data,words", [
    ({"kind": "chaos-count", "control": "r9c9"}, "control"),
    ({"kind": "chaos-count", "control": "r1c1", "offset": 2}, "offset"),
    ({"kind": "chaos-arrow", "control": "r1c1", "arms": [["r1c1", "r1c2"], ["r2c2", "r3c2"]]},
     "same start"),
    ({"kind": "chaos-arrow", "control": "r1c1", "arms": "r1c2"}, "arms"),
])
def test_bad_chaos_rules_name_the_field(data, words):
    with pytest.raises(BadInput, match=words):
        puzzle_with([data])


def test_bad_chaos_clue_on_the_command_line_is_one_line(run_cli, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"size": 4, "givens": "." * 16, "rules": [
        {"kind": "chaos-arrow", "control": "r1c1", "offset": "one"}]}))
    out = run_cli("solve", str(path))
    assert out.code == 2 and out.err.count("\n") == 1 and "offset" in out.err


def test_engines_that_would_count_a_grid_twice_refuse_by_name():
    from polydoku.engines.registry import make_engine
    problem = build_problem(puzzle_with([CASES[0][0]]))
    for engine in ("resolvelib", "minizinc"):
        assert "chaos-construction" in make_engine(engine).refusal(problem)
    for engine in ("native", "sat", "cpsat", "z3", "clingo", "pycosat"):
        assert make_engine(engine).refusal(problem) is None


def collection(*names: str) -> list[dict]:
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()]
    return [r for r in rows if r["name"] in names]


# ISS's own collection (tests/data/iss_collection.jsonl, sources in each row's "src")
# the 6x6 ones, proved unique by sat in a few seconds; the native engine finds the first
# three's grid in under a second, and loses itself in the regions of the fourth
SIXES = ("Chaos Construction: 6x6", "Chaos Construction: cell count",
         "Cavernous Construction: 6x6", "Chaos Construction: cell count [harder]")


@pytest.mark.parametrize("row", collection(*SIXES), ids=lambda r: r["name"])
def test_iss_chaos_puzzles_are_solved_to_their_published_grid_and_unique(row):
    from polydoku import api
    puzzle = read_puzzle(row["input"])
    grid = tuple(int(ch) for ch in row["solution"])
    out = api.count(puzzle, "sat", limit=2, timeout=120)
    assert out.exhausted and out.solutions == [grid]
    if "harder" not in row["name"]:
        assert api.solve(puzzle, "native", timeout=120).solutions == [grid]


# the 9x9 ones whose killer cages are region cells of one region (ISS's SameValues of CC
# cells): sat proves each unique in 20 to 40 s here
CAGED = ("Chaos Construction: Sack Lunch", "Chaos Construction: killer")


@pytest.mark.parametrize("row", collection(*CAGED), ids=lambda r: r["name"])
def test_iss_chaos_puzzles_of_same_region_cells_are_unique_with_their_published_grid(row):
    from polydoku import api
    puzzle = read_puzzle(row["input"])
    assert sum(r.kind == "chaos-same-region" for r in puzzle.rules) >= 13
    grid = tuple(int(ch) for ch in row["solution"])
    out = api.count(puzzle, "sat", limit=2, timeout=300)
    assert out.exhausted and out.solutions == [grid]


def test_every_chaos_puzzle_read_from_iss_keeps_its_published_grid():
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()
            if "ChaosConstruction" in line]
    kept = 0
    for row in rows:
        try:
            puzzle = read_puzzle(row["input"])
        except BadInput as err:
            assert "a chaos construction's region cell" in str(err), row["name"]
            continue
        assert is_solution(puzzle, tuple(int(ch) for ch in row["solution"])), row["name"]
        kept += 1
    assert len(rows) == 15 and kept == 14      # CountDistinct on region cells


@pytest.mark.tools
def test_iss_counts_each_drawing_of_the_regions_as_brute_force_does(tmp_path):
    # ISS's answer holds the regions (its CC cells): its count is of (grid, tiling) pairs
    from test_iss import iss
    runner = iss()
    cases = [puzzle_with(["chaos-construction", data]) for data, _ in CASES]
    answers = runner.count([to_iss(p) for p in cases], limit=5000, cache=str(tmp_path))
    for (_, clue), answer in zip(CASES, answers):
        pairs = sum(len(fitting(g, clue)) for g in all_grids())
        assert answer.get("solutions") == pairs, answer


def test_region_cells_elsewhere_than_the_chaos_clues_are_refused_by_name():
    with pytest.raises(BadInput, match="CC19: a chaos construction's region cell"):
        read_puzzle(".ChaosConstruction.CountDistinct~R1C1~CC19~CC10~CC11")
    with pytest.raises(BadInput, match="region cells .CC1. and grid cells in one item"):
        read_puzzle(".ChaosConstruction.SameValues~2~CC19~R1C1")
    with pytest.raises(BadInput, match="one region cell a set"):
        read_puzzle(".ChaosConstruction.SameValues~2~CC19~CC10~CC11~CC12")
    same = read_puzzle(".Shape~4x4.ChaosConstruction.SameValues~3~CC1~CC2~CC6").rules[1]
    assert same.to_data() == {"kind": "chaos-same-region", "cells": ["r1c1", "r1c2", "r2c2"]}
    plain = read_puzzle(".SameValues~2~R1C1~R2C4").rules[0]
    assert plain.kind == "same-values"


def test_chaos_regions_take_rectangles_and_refuse_more_values_by_name():
    from polydoku.formats.jsonfmt import puzzle_from_dict
    rect = puzzle_from_dict({"size": [4, 6], "box": "none", "givens": "." * 24,
                             "rules": [{"kind": "chaos-arrow", "control": "r1c1"}]})
    from polydoku import api
    rows = [6, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6, 1, 3, 4, 5, 6, 1, 2]
    assert is_solution(rect, rows)          # the rows as regions: r1c1 runs 6 cells along
    grid = api.solve(rect, "sat").solutions[0]
    assert is_solution(rect, grid)
    for data in ("chaos-construction", {"kind": "chaos-count", "control": "r1c1"}):
        with pytest.raises(BadInput, match="not 9 values on 6x6 cells"):
            puzzle_from_dict({"size": 6, "values": [1, 9], "givens": "." * 36, "rules": [data]})


def test_a_grid_is_checked_against_the_chaos_regions_by_one_search(monkeypatch):
    # every chaos rule reads one drawing: the first of them searches for it, once per grid
    from polydoku.model.check import violations
    from polydoku.rules.kind import chaos_construction
    searches = []
    search = chaos_construction.partition_problems

    def counted(grid, g, clues):
        searches.append(len(clues))
        return search(grid, g, clues)
    monkeypatch.setattr(chaos_construction, "partition_problems", counted)
    row, = collection("Chaos Construction: cell count")
    puzzle = read_puzzle(row["input"])
    assert sum(r.kind == "chaos-count" for r in puzzle.rules) == 8
    grid = [int(ch) for ch in row["solution"]]
    assert is_solution(puzzle, tuple(grid)) and searches == [9]
    n = puzzle.geometry.width
    for r in range(n):                  # rows and columns still hold every value once
        grid[r * n], grid[r * n + 1] = grid[r * n + 1], grid[r * n]
    searches.clear()
    assert list(violations(puzzle, grid)) == [
        "chaos construction: no regions fitting the chaos clues of 6 connected cells "
        "holding every value"]
    assert searches == [9]
