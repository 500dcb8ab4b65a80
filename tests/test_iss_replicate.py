"""ISS's Replicate blocks (formats/iss_replicate.py): children copied to each target, shifted
from the origin, read as the rules written out one by one would be; bad blocks refused in one
line; ISS itself counting the same grids from the block; ISS's own collection's Replicate
puzzles solved to their published grids."""

from __future__ import annotations

import json
import random

import pytest

from conftest import ROOT
from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats import read_puzzle
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.iss_replicate import targets
from test_rule_kinds import truth

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def bitset(offsets: list[int]) -> str:
    """Return ISS's targets for cells `offsets` places after the origin (written here again)."""
    words = [0] * (max(offsets) // 6 + 1)
    for i in offsets:
        words[i // 6] |= 1 << (i % 6)
    return "".join(ALPHABET[w] for w in words)


def test_a_block_is_its_children_written_at_each_target():
    block = parse_iss(f".Shape~4x4.Replicate~{bitset([0, 1, 4])}.Thermo~R1C1~R1C2.~R1C1_3.End")
    plain = parse_iss(".Shape~4x4.Thermo~R1C1~R1C2.Thermo~R1C2~R1C3.Thermo~R2C1~R2C2"
                      ".~R1C1_3~R1C2_3~R2C1_3")
    assert block.rules == plain.rules and block.givens == plain.givens
    assert to_iss(block) == to_iss(plain)
    either = parse_iss(f".Shape~4x4.Replicate~{bitset([0, 2])}.Or.Thermo~R1C1~R1C2"
                       ".Thermo~R1C2~R1C1.End.End")
    assert [r.kind for r in either.rules] == ["or", "or"]
    assert either.rules[1] == parse_iss(".Shape~4x4.Or.Thermo~R1C3~R1C4.Thermo~R1C4~R1C3"
                                        ".End").rules[0]
    moved = parse_iss(f".Shape~4x4.Replicate~{bitset([0, 5])}~R2C2.Thermo~R2C2~R3C2.End")
    assert [r.to_data()["cells"] for r in moved.rules] == [["r2c2", "r3c2"], ["r3c3", "r4c3"]]


def test_targets_read_the_six_bit_alphabet():
    assert targets(["T"], 4, 16, lambda t: (0, 0)) == [(0, 0), (0, 1), (1, 0)]
    assert targets(["AB"], 9, 81, lambda t: (0, 0)) == [(0, 6)]    # bit 6: char 1, bit 0


@pytest.mark.parametrize("text, words", [
    (".Shape~4x4.Replicate~T.Thermo~R1C1~R1C2", "ISS item 2 (Replicate): no End closes it"),
    (f".Shape~4x4.Replicate~{bitset([3])}.Thermo~R1C1~R1C2.End",
     "R1C2 (moved to r1c5 by a Replicate) is outside the 4x4 grid"),
    (".Shape~4x4.Replicate~T.Replicate~B.Thermo~R1C1~R1C2.End.End",
     "a Replicate inside another is not read"),
    (".Shape~4x4.Replicate~T!.Thermo~R1C1~R1C2.End", "not ISS's 6-bit alphabet"),
    (".Shape~4x4.Replicate~T~R1C1~x.Thermo~R1C1~R1C2.End", "at most an origin cell"),
])
def test_bad_blocks_are_one_line(text, words, run_cli):
    with pytest.raises(BadInput, match=None) as err:
        parse_iss(text)
    assert words in str(err.value) and "\n" not in str(err.value)
    r = run_cli("solve", text)
    assert r.code == 2 and words in r.err and "Traceback" not in r.err


def test_iss_collection_replicate_puzzles_reach_their_published_grids():
    """ISS's own collection (tests/data/iss_collection.jsonl): 'Daredevil', its 0-indexed
    copy and 'Stepped Thermos' (a state machine replicated over the grid's 3x3 blocks)."""
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()]
    done = 0
    for d in rows:
        if "Replicate" not in d["input"] or "Var~" in d["input"]:
            continue
        puzzle = read_puzzle(d["input"])
        out = api.count(puzzle, "native", limit=2)
        assert out.exhausted and out.count == 1, d["name"]
        assert "".join(puzzle.alphabet[v - 1] for v in out.solutions[0]) == d["solution"]
        done += 1
    assert done == 3


@pytest.mark.tools
def test_iss_counts_what_polydoku_counts_from_a_block(tmp_path):
    from test_iss import iss
    runner = iss()
    rng = random.Random(11)
    texts = []
    for _ in range(10):
        offsets = sorted(rng.sample(range(6), rng.randint(1, 3)))      # the first row's cells
        child = rng.choice([".Thermo~R1C1~R2C1", ".Whisper~2~R1C1~R2C1", ".Cage~5~R1C1~R2C1",
                            ".Renban~R1C1~R2C1"])
        texts.append(f".Shape~4x4.Replicate~{bitset(offsets)}"
                     f"{child}.End")
    answers = runner.count(texts, limit=300, cache=str(tmp_path))
    for text, answer in zip(texts, answers):       # copies of the first row's cells, downwards
        assert answer.get("solutions") == len(truth(parse_iss(text))), (text, answer)
