"""Pencilmark grids (formats/pencilmarks.py): every cell's candidates, read as givens and
candidate rules; the pencilmark puzzles of ISS's collection (tests/data/iss_collection.md)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT
from polydoku import api
from polydoku.formats import read_puzzle
from polydoku.model import Puzzle
from polydoku.verify import is_solution

COLLECTION = [json.loads(line) for line in
              (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()]
PENCILMARKS = [d for d in COLLECTION if len(d["input"]) == 729 and not d["input"].startswith(".")]


def test_the_collection_pencilmark_puzzles_are_read_and_one_is_proved_unique():
    assert len(PENCILMARKS) >= 7
    for d in PENCILMARKS:
        puzzle = read_puzzle(d["input"])
        assert puzzle.size == 9 and {r.kind for r in puzzle.rules} <= {"candidates"}
        if d["solution"]:
            assert is_solution(puzzle, tuple(map(int, d["solution"])))
    # "Pencilmark sudoku 2", forum.enjoysudoku.com/pencilmark-sudoku-t36694-45.html
    d = next(d for d in PENCILMARKS if d["name"] == "Pencilmark sudoku 2")
    out = api.count(read_puzzle(d["input"]), "native", limit=2, timeout=60)
    assert out.exhausted and out.count == 1 and "".join(map(str, out.solutions[0])) == d["solution"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10 ** 9), size=st.sampled_from([6, 9]))
def test_pencilmarks_keep_exactly_the_candidates_written(seed, size):
    rng = random.Random(seed)
    solution = api.solve(Puzzle.empty(size)).solutions[0]
    marks = []
    text = []
    for v in solution:
        keep = {v} | {w for w in range(1, size + 1) if rng.random() < 0.4}
        marks.append(keep)
        text.append("".join(str(w) if w in keep else "." for w in range(1, size + 1)))
    puzzle = read_puzzle("".join(text))
    assert is_solution(puzzle, tuple(solution))
    for k, keep in enumerate(marks):
        cell = divmod(k, size)
        allowed = set(range(1, size + 1)) if len(keep) == size else keep
        for rule in puzzle.rules:
            if cell in rule.cells:
                allowed &= set(rule.values)
        if len(keep) == 1:
            assert puzzle.givens[k] == solution[k]
        else:
            assert puzzle.givens[k] == 0 and allowed == keep


@pytest.mark.parametrize("text, words", [
    ("." * 729, "r1c1: no candidate left"),
    ("123456" * 35 + "123457", "r6c6: value 7 on a 6x6 grid"),
])
def test_bad_pencilmarks_are_one_line_exit_2(run_cli, text, words):
    result = run_cli("solve", text)
    assert result.code == 2 and words in result.err and len(result.err.strip().splitlines()) == 1
