"""How full rank readings may tie (full-rank-ties, full-rank-distinct: ISS's FullRankTies):
each against its statement written out again over all 288 4x4 grids and on each solver
family, ISS strings read and written, bad input, ISS itself counting what polydoku counts, and
the full rank puzzles of ISS's own collection solved to their published grids."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, need_engine
from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats import read_puzzle
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.rules.kind.full_rank import readings
from test_kinds_lines import agrees
from test_rule_kinds import puzzle_with, solutions, truth


def numbers(g) -> list[list[int]]:
    """Return the 16 readings of a 4x4 grid, rows and columns from both ends."""
    return [[g[r * 4 + c] for r, c in line] for line in readings(4)]


def clue_reading(side: str, index: int) -> int:
    """Return the position in `readings(4)` of a clue's reading."""
    return {"left": 4 * (index - 1), "right": 4 * (index - 1) + 1,
            "top": 4 * (index - 1) + 2, "bottom": 4 * (index - 1) + 3}[side]


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(["left", "right", "top", "bottom"]), st.integers(1, 4),
       st.integers(1, 16))
def test_a_clue_that_may_tie_counts_the_readings_strictly_lower(side, index, rank):
    clue = {"kind": "full-rank", "side": side, "index": index, "rank": rank}
    k = clue_reading(side, index)

    def statement(g) -> bool:
        lines = numbers(g)
        return 1 + sum(x < lines[k] for x in lines) == rank

    agrees([clue, "full-rank-ties"], statement)


def test_no_two_readings_the_same():
    kept = agrees(["full-rank-distinct"],
                  lambda g: len({tuple(x) for x in numbers(g)}) == 16)
    assert 0 < len(kept) < 288


@pytest.mark.parametrize("engine", ["sat", "cpsat", "z3", "clingo"])
def test_ties_on_each_solver_family(engine):
    need_engine(engine)
    for rules in ([{"kind": "full-rank", "side": "top", "index": 2, "rank": 6}, "full-rank-ties"],
                  ["full-rank-distinct"]):
        puzzle = puzzle_with(rules)
        assert solutions(puzzle, engine) == truth(puzzle), (engine, rules)


def test_iss_reads_and_writes_the_tie_modes():
    any_ = parse_iss(".Shape~4x4.FullRank~C1~10~.FullRankTies~any")
    assert [r.kind for r in any_.rules] == ["full-rank", "full-rank-ties"]
    assert to_iss(any_) == ".Shape~4x4.FullRank~C1~10~.FullRankTies~any"
    assert [r.kind for r in parse_iss(".Shape~4x4.FullRankTies~none").rules] == \
        ["full-rank-distinct"]
    assert [r.kind for r in parse_iss(".Shape~4x4.FullRankTies~only-unclued").rules] == []
    with pytest.raises(BadInput, match=r"ISS item 2 \(FullRankTies\): .*unexpected arguments"):
        parse_iss(".Shape~4x4.FullRankTies~some")


def test_iss_collection_full_rank_puzzles_reach_their_published_grids():
    """ISS's own collection (tests/data/iss_collection.jsonl): its four full rank puzzles with
    a tie mode, each unique and its published grid, on values 1..4 and 0..3."""
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()]
    done = 0
    for d in rows:
        if "FullRankTies" not in d["input"]:
            continue
        puzzle = read_puzzle(d["input"])
        out = api.count(puzzle, "native", limit=2)
        assert out.exhausted and out.count == 1, d["name"]
        assert "".join(puzzle.alphabet[v - 1] for v in out.solutions[0]) == d["solution"]
        done += 1
    assert done == 4


@pytest.mark.tools
def test_iss_counts_what_polydoku_counts_with_ties(tmp_path):
    from test_iss import iss
    runner = iss()
    rng = random.Random(5)
    cases = []
    for k in range(16):
        clues = [{"kind": "full-rank", "side": rng.choice(["left", "right", "top", "bottom"]),
                  "index": rng.randint(1, 4), "rank": rng.randint(1, 16)} for _ in range(2)]
        if clues[0]["side"] == clues[1]["side"] and clues[0]["index"] == clues[1]["index"]:
            clues.pop()
        mode = ["full-rank-ties", "full-rank-distinct"][k % 2]
        cases.append(puzzle_with([*clues, mode]))
    answers = runner.count([to_iss(p) for p in cases], limit=300, cache=str(tmp_path))
    for puzzle, answer in zip(cases, answers):
        assert answer.get("solutions") == len(truth(puzzle)), (to_iss(puzzle), answer)
