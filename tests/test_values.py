"""Grids of other values than 1..N (a "0-indexed" 9x9 holds 0..8): read and written by JSON,
ISS and the text grid in their own digits, solved by every engine on value indices, checked
by verify on the values themselves, and a kind that cannot read them refused by name."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats import read_puzzle
from polydoku.formats.grid import write_grid
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.jsonfmt import parse_json, puzzle_from_dict, write_json
from polydoku.model import Geometry, Puzzle
from polydoku.rules import rules_from_data
from polydoku.rules.registry import kinds
from polydoku.verify import grid_problems

from conftest import ROOT, need_engine
from test_rule_kinds import instance

# the 0-indexed puzzles of ISS's collection polydoku reads, each solved to its published grid
ISS_ZERO = ["0-indexed: Classic sudoku", "0-indexed: Sudoku X", "0-indexed: Anti-knight Anti-king",
            "0-indexed: Jigsaw", "0-indexed: Windoku", "0-indexed: Odd even", "0-indexed: 6x6",
            "0-indexed: Whisper GreaterThan", "0-indexed: 0-8 Killer", "Zeroed In",
            "A Very Full Quiver", "Let's Build a Snowman [0-indexed]", "± Information",
            "0-indexed: Quadruple X", "0-indexed: Skyscraper", "Hippo Birdie",
            "0-indexed: Equality cages", "0-indexed: Hidden skyscrapers",
            "0-indexed: 0-sensitive pairwise", "0-indexed: Look-and-say"]
# the kinds that read the values themselves (the rest of those taking any values read only
# order and differences, and say the same on every run of N values)
READS_VALUES = {"even", "odd", "candidates", "killer", "arrow", "xv", "kropki-black",
                "kropki-negative", "xv-negative", "region-sum", "quadruple", "skyscraper",
                "counting-circles", "equality-cage", "hidden-skyscraper", "little-killer",
                "knightmare", "anti-queen", "product-dot", "ratio-dot", "grey-dot", "either-xv",
                "sandwich", "x-sum", "numbered-room", "column-index", "row-index",
                "value-indexing", "lunchbox", "sum-cage", "rellik-cage", "killer-bound",
                "prime-cage", "equal-sum", "count-distinct", "contain-at-least",
                "contain-exact", "look-and-say", "sum-line", "zipper", "double-arrow",
                "pairwise", "anti-taxicab"}


def collection() -> dict[str, dict]:
    """Return ISS's collection by name (the first of a name)."""
    out: dict[str, dict] = {}
    for line in (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines():
        d = json.loads(line)
        out.setdefault(d["name"], d)
    return out


def shifted(puzzle: Puzzle, low: int) -> Puzzle:
    """Return the puzzle on values low..low+N-1 (same indices, same rules)."""
    data = json.loads(write_json(puzzle))
    data["values"] = [low, low + puzzle.size - 1]
    data.pop("givens")
    g = puzzle.geometry.with_low(low)
    return Puzzle(g, puzzle.givens, rules_from_data(data["rules"], g), "", puzzle.name)


@pytest.mark.parametrize("name", ISS_ZERO)
def test_iss_zero_indexed_puzzles_are_solved_to_their_published_grids(name):
    d = collection()[name]
    puzzle = parse_iss(d["input"])
    assert puzzle.geometry.low == 0
    out = api.solve(puzzle, "native", max_solutions=2)
    assert out.count == 1 and out.exhausted
    assert "".join(puzzle.symbol(v) for v in out.solutions[0]) == d["solution"]
    again = parse_iss(to_iss(puzzle))                 # and ISS's string round-trips
    assert again.geometry == puzzle.geometry and again.givens == puzzle.givens
    assert again.rules == puzzle.rules


def test_iss_shape_values_are_read_or_refused_by_name():
    assert parse_iss(".Shape~6x6~1-6").geometry.low == 1
    assert parse_iss(".Shape~4x4~0-3.~R1C1_0").givens[0] == 1
    assert to_iss(parse_iss(".Shape~4x4~0-3.~R1C1_0")) == ".Shape~4x4~0-3.~R1C1_0"
    for text, words in ((".Shape~9x9~0-8.~R1C1_9", "values are 0..8"),
                        (".Shape~9x9~2-9", "holds 9 different values"),
                        (".Shape~9x9~0-8~Raw", "Shape~RxC~LO-HI only"),
                        (".Shape~9x9~0-8.DutchFlatmates", "dutch-flatmates")):
        with pytest.raises(BadInput, match=words):
            parse_iss(text)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([4, 6, 9]), st.integers(0, 5), st.data())
def test_json_round_trips_the_values_and_writes_them_in_their_own_digits(size, low, data):
    grid = api.solve(Puzzle.empty(size), "native").solutions[0]
    keep = data.draw(st.lists(st.booleans(), min_size=size * size, max_size=size * size))
    base = Puzzle.empty(size).with_givens(v if k else 0 for v, k in zip(grid, keep))
    puzzle = shifted(base, low)
    text = write_json(puzzle)
    assert json.loads(text).get("values", [1, size]) == [low, low + size - 1]
    back = parse_json(text)
    assert back.geometry == puzzle.geometry and back.givens == puzzle.givens
    # the text grid shows each value itself: index v is low + v - 1
    shown = write_grid(puzzle, grid, separators=False).split()
    assert shown == [format(low + v - 1, "X") for v in grid]


def test_values_field_is_checked():
    for values, words in (([0, 7], "8 values"), ("0-8", "lowest, highest"),
                          ([-1, 7], "start at")):
        with pytest.raises(BadInput, match=words):
            puzzle_from_dict({"size": 9, "givens": "." * 81, "values": values})


def test_verify_reads_the_values_themselves():
    """Index 1 is the value 0 on a 0..3 grid: an even cell holds it, an odd one does not."""
    g = Geometry.of_size(4).with_low(0)
    sol = api.solve(Puzzle.empty(4), "native").solutions[0]
    where = sol.index(1)
    cell = f"r{where // 4 + 1}c{where % 4 + 1}"
    even = Puzzle(g, (0,) * 16, rules_from_data([{"kind": "even", "cells": [cell]}], g))
    odd = Puzzle(g, (0,) * 16, rules_from_data([{"kind": "odd", "cells": [cell]}], g))
    assert grid_problems(even, sol) == []
    assert grid_problems(odd, sol) == [f"{cell}=0 is not odd (odd cell)"]


def test_a_kind_that_cannot_read_other_values_is_refused_by_name():
    refused = [cls.kind for cls in kinds().values() if not cls.any_values]
    assert "dutch-flatmates" in refused and "sandwich" not in refused
    with pytest.raises(BadInput, match=r"rule 1 \(dutch-flatmates\): .* values 1..9 only, "
                                       r"not 0..8"):
        puzzle_from_dict({"size": 9, "givens": "." * 81, "values": [0, 8],
                          "rules": ["dutch-flatmates"]})


GRIDS = sorted(api.count(Puzzle.empty(4), "native", limit=300).solutions)   # all 288


def _samples(rng) -> list:
    """Return two random rules of the kinds that take any values, as JSON data (4x4)."""
    takers = sorted({cls.kind for cls in kinds().values() if cls.any_values})
    return [instance(kind, rng) for kind in rng.sample(takers, 2)]


def _kinds(data: list) -> set[str]:
    """Return the kinds of rules given as JSON data, those inside an or's options too."""
    out = set()
    for d in data:
        out.add(d if isinstance(d, str) else d["kind"])
        if isinstance(d, dict):
            for option in d.get("options", ()):
                out |= _kinds(option if isinstance(option, list) else [option])
    return out


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 3))
def test_counts_agree_between_native_and_sat_and_with_values_one_to_n(rng, low):
    """On a 4x4 of values 0..3 (or 1..4, 2..5, 3..6), native and sat keep exactly the grids
    the kinds' statements accept (all 288 grids checked by verify), and a kind reading only
    order and differences says the same as on 1..4."""
    need_engine("sat")
    data = _samples(rng)
    g = Geometry.of_size(4).with_low(low)
    try:
        rules = rules_from_data(data, g)
    except BadInput:
        return                      # a sample naming values outside this range
    puzzle = Puzzle(g, (0,) * 16, rules)
    native = api.count(puzzle, "native", limit=300)
    sat = api.count(puzzle, "sat", limit=300)
    assert sorted(native.solutions) == sorted(sat.solutions)
    truth = [grid for grid in GRIDS if not grid_problems(puzzle, grid)]
    assert sorted(native.solutions) == truth
    if not _kinds(data) & READS_VALUES:
        ones = Puzzle(Geometry.of_size(4), (0,) * 16, rules_from_data(data, Geometry.of_size(4)))
        assert native.count == api.count(ones, "native", limit=300).count


ENGINES = ["native", "sat", "pycosat", "cpsat", "z3", "clingo"]


@pytest.mark.parametrize("engine_id", ENGINES)
def test_each_engine_solves_a_zero_indexed_puzzle(engine_id):
    """The engines solve value indices: every one takes a grid of 0..8."""
    need_engine(engine_id)
    d = collection()["0-indexed: Anti-knight Anti-king"]
    puzzle = read_puzzle(d["input"])
    out = api.solve(puzzle, engine_id, max_solutions=2, timeout=60)
    assert out.count == 1
    assert "".join(puzzle.symbol(v) for v in out.solutions[0]) == d["solution"]


def test_formats_of_values_1_to_n_only_refuse_other_values():
    from polydoku.formats.fpuzzles import to_fpuzzles, to_link
    from polydoku.formats.ksudoku import write_ksudoku
    puzzle = parse_iss(".Shape~4x4~0-3.~R1C1_0")
    for write in (lambda: to_fpuzzles(puzzle), lambda: to_link(puzzle, "sudokupad"),
                  lambda: write_ksudoku(puzzle)):
        with pytest.raises(BadInput, match=r"1\.\.4, not 0\.\.3"):
            write()


def test_the_cli_solves_a_zero_indexed_puzzle_and_writes_its_values(run_cli, tmp_path):
    d = collection()["0-indexed: 0-8 Killer"]
    path = tmp_path / "killer.iss"
    path.write_text(d["input"])
    r = run_cli("solve", path)
    assert r.code == 0 and r.out.split() == [d["solution"]], r.err
    r = run_cli("solve", path, "--format", "grid")
    assert r.code == 0 and r.out.split()[:3] == list(d["solution"][:3]), r.out


def test_broken_rules_name_the_values_themselves():
    """What verify says of a wrong grid names the grid's values (0 where index 1 stands)."""
    g = Geometry.of_size(4).with_low(0)
    rules = rules_from_data(["anti-king", {"kind": "thermometer", "cells": ["r3c1", "r3c2"]}], g)
    grid = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)
    said = " | ".join(grid_problems(Puzzle(g, (0,) * 16, rules), grid))
    assert "r2c3 and r3c2 both hold 0 (anti-king)" in said
    assert "r3c1=1 and r3c2=0 do not increase" in said
