"""The forum text formats of killer puzzles (formats/killer.py): the short format (arrows to the
cage total) and SudoCue's long format, read from ISS's collection (tests/data/iss_collection.jsonl,
whose sources are written there) and from cage layouts drawn at random."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT
from polydoku import api
from polydoku.formats import read_puzzle
from polydoku.formats.killer import looks_like_killer, parse_killer
from polydoku.verify import is_solution

COLLECTION = [json.loads(line) for line in
              (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()]
KILLER_TEXTS = [d for d in COLLECTION if looks_like_killer(d["input"])]


def grid(solution: str) -> tuple[int, ...]:
    return tuple(int(ch) for ch in solution)


def test_every_killer_text_of_the_collection_is_read_and_keeps_its_published_solution():
    assert len(KILLER_TEXTS) >= 70
    solved = 0
    for d in KILLER_TEXTS:
        puzzle = read_puzzle(d["input"])
        assert puzzle.size == 9 and all(r.kind in ("killer", "diagonal") for r in puzzle.rules)
        if d["solution"]:
            assert is_solution(puzzle, grid(d["solution"])), d["name"]
            solved += 1
    assert solved >= 15


def test_a_long_format_killer_is_proved_unique_with_its_published_solution():
    # "Human solvable zero", forum.enjoysudoku.com/human-solvable-zero-t33357.html
    d = next(d for d in KILLER_TEXTS if d["input"].startswith("3x3::k:3595:3595:3844"))
    out = api.count(read_puzzle(d["input"]), "native", limit=2, timeout=60)
    assert out.exhausted and out.count == 1
    assert "".join(map(str, out.solutions[0])) == d["solution"]


def test_a_zero_total_is_a_cage_of_any_total_and_diagonals_are_read():
    d = next(d for d in KILLER_TEXTS if "[0 cage" in d["name"])
    cages = [r for r in read_puzzle(d["input"]).rules if r.kind == "killer"]
    assert sum(1 for r in cages if r.total is None) == 2
    long = next(d for d in KILLER_TEXTS if d["input"].startswith("3x3:d:"))
    assert {r.kind for r in read_puzzle(long["input"]).rules} >= {"diagonal", "killer"}


def short_text(cages: list[list[int]], totals: list[int]) -> str:
    """Return the short format of cages (each a king-connected cell list whose first cell holds
    the total), every other cell pointing at a cage neighbour nearer the total."""
    arrows = {(0, -1): "<", (0, 1): ">", (-1, 0): "^", (1, 0): "v",
              (-1, -1): "`", (-1, 1): "'", (1, -1): ",", (1, 1): "."}
    out = ["?"] * 81
    for cells, total in zip(cages, totals):
        head = cells[0]
        out[head] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"[total]
        placed = {head}
        while len(placed) < len(cells):
            for i in cells:
                if i in placed:
                    continue
                near = [j for j in placed if max(abs(i // 9 - j // 9), abs(i % 9 - j % 9)) == 1]
                if near:
                    j = near[0]
                    out[i] = arrows[(j // 9 - i // 9, j % 9 - i % 9)]
                    placed.add(i)
    assert "?" not in out
    return "".join(out)


@st.composite
def layouts(draw):
    """A partition of the 9x9 grid into king-connected cages of 1 to 5 cells, with totals."""
    rng = random.Random(draw(st.integers(0, 10 ** 9)))
    free, cages = set(range(81)), []
    while free:
        cells = [min(free)]
        free.discard(cells[0])
        for _ in range(rng.randint(0, 4)):
            near = [j for i in cells for j in free
                    if max(abs(i // 9 - j // 9), abs(i % 9 - j % 9)) == 1]
            if not near:
                break
            j = rng.choice(sorted(near))
            cells.append(j)
            free.discard(j)
        cages.append(cells)
    totals = [rng.randint(0, 45) for _ in cages]
    return cages, totals


@settings(max_examples=40, deadline=None)
@given(layouts())
def test_short_format_cages_are_read_back_exactly(layout):
    cages, totals = layout
    text = short_text(cages, totals)
    assert looks_like_killer(text)
    read = {(r.total, frozenset(9 * row + col for row, col in r.cells))
            for r in parse_killer(text).rules}
    assert read == {(t or None, frozenset(c)) for c, t in zip(cages, totals)}


@pytest.mark.parametrize("text, words", [
    ("v" + "1" * 80, None),
    ("1" * 80 + "v", "r9c9: its arrow 'v' points off the grid"),
    ("><" + "1" * 79, "go round in a loop"),
    ("3x3::k:1:2", "81 numbers"),
    ("3x3::k:" + ":".join(["513"] * 80 + ["769"]), "cage 1 has total 2 elsewhere, 3 here"),
    ("3x3::k:" + ":".join(["x"] * 81), "r1c1: 'x' is not a number"),
    ("3x3:d:q:1", "starts 3x3::k:"),
])
def test_bad_killer_texts_are_one_line_exit_2(run_cli, text, words):
    result = run_cli("solve", text)
    if words is None:                   # a legal text: "v" leads r1c1 into r2c1's cage
        assert result.code in (0, 1), result.err
        return
    assert result.code == 2 and words in result.err, result.err
    assert len(result.err.strip().splitlines()) == 1 and "Traceback" not in result.err
