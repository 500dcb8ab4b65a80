"""Grids of more values than a house has cells (ISS's `Shape~6x6~9`): each house holds
different values, not every value. The kinds that say they read such grids (`any_count`) are
checked against their own statement, the engines that take them against each other, and the
formats read and write the number of values."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.jsonfmt import puzzle_from_dict, write_json
from polydoku.model import Geometry, Puzzle
from polydoku.rules import rules_from_data
from polydoku.rules.registry import kinds
from polydoku.verify import grid_problems

from conftest import need_engine
from test_rule_kinds import instance

WIDE = Geometry(4, 2, 2, count=5)       # a 4x4 grid of 2x2 boxes holding values 1..5
WIDE0 = Geometry(4, 2, 2, low=0, count=5)      # and one holding 0..4
# the chaos kinds read rectangles (any_count) but refuse more values than the longer side:
# tests/test_kinds_chaos.py checks that
COUNTING = sorted(k for k, cls in kinds().items()
                  if cls.any_count and not getattr(cls, "reads_chaos_regions", False))


def _random_grid(rng: random.Random, g: Geometry) -> list[int]:
    """Return a random grid whose houses each hold different values (backtracking)."""
    n, grid = g.ncells, [0] * g.ncells
    peers = g.peers

    def fill(i: int) -> bool:
        if i == n:
            return True
        values = list(range(1, g.nvalues + 1))
        rng.shuffle(values)
        for v in values:
            if all(grid[j] != v for j in peers[i]):
                grid[i] = v
                if fill(i + 1):
                    return True
        grid[i] = 0
        return False

    assert fill(0)
    return grid


def _solves(puzzle: Puzzle, grid: list[int]) -> bool:
    """Return whether the native engine accepts the whole grid given."""
    outcome = api.solve(puzzle.with_givens(grid), api.get_engine("native"), max_solutions=1)
    return bool(outcome.solutions)


def held_to_statement(kind: str, grids: tuple[Geometry, ...], seed: str) -> int:
    """Check a kind's lowering against its own statement on random rules of it and random
    grids whose houses hold different values, the geometries taken in turn; return how many
    grids were checked."""
    rng = random.Random(seed)
    checked = 0
    for k in range(40):
        g = grids[k % len(grids)]
        data = kind if kinds()[kind].is_global else instance(kind, rng)
        if data is None:
            continue
        try:
            puzzle = Puzzle(g, (0,) * g.ncells, tuple(rules_from_data([data], g)))
        except BadInput:
            continue
        for _ in range(6):
            grid = _random_grid(rng, g)
            assert _solves(puzzle, grid) == (not grid_problems(puzzle, grid)), (data, grid)
            checked += 1
    return checked


@pytest.mark.parametrize("kind", COUNTING)
def test_each_counting_kind_lowers_to_its_own_statement_on_more_values(kind):
    checked = held_to_statement(kind, (WIDE, WIDE0), kind)
    assert checked >= 30, checked


def test_a_kind_that_reads_every_value_once_is_refused_by_name():
    plain = sorted(k for k, cls in kinds().items() if not cls.any_count)
    assert plain, "every kind reads grids of more values"
    assert "x-sum" in plain
    rules = rules_from_data([instance("x-sum", random.Random(1))], Geometry.of_size(4))
    with pytest.raises(BadInput, match="whose houses hold every value, not 5 values on 4"):
        Puzzle(WIDE, (0,) * 16, rules)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 6))
def test_native_sat_and_cpsat_count_the_same_on_more_values(seed, nclues):
    engines_agree(WIDE, seed, nclues + 6)


def engines_agree(g: Geometry, seed: int, nclues: int) -> None:
    """Check that native, sat and cpsat count the same grids (up to 50, each a solution and
    the one the givens came from among them) on a random puzzle of `nclues` givens."""
    need_engine("cpsat")
    rng = random.Random(seed)
    grid = _random_grid(rng, g)
    givens = [0] * g.ncells
    for i in rng.sample(range(g.ncells), nclues):
        givens[i] = grid[i]
    puzzle = Puzzle(g, tuple(givens))
    counts = {}
    for engine in ("native", "sat", "cpsat"):
        outcome = api.solve(puzzle, api.get_engine(engine), max_solutions=50)
        counts[engine] = len(outcome.solutions)
        assert all(not grid_problems(puzzle, s) for s in outcome.solutions)
        assert tuple(grid) in outcome.solutions or counts[engine] == 50
    assert len(set(counts.values())) == 1, counts


def test_the_grid_holds_values_its_houses_cannot_all_hold():
    puzzle = Puzzle(WIDE, (0,) * 16)
    solutions = api.solve(puzzle, api.get_engine("native"), max_solutions=10_000).solutions
    assert any(5 in s for s in solutions) and any(5 not in s[:4] for s in solutions)
    assert not grid_problems(puzzle, solutions[0])
    assert grid_problems(puzzle, [6] + list(solutions[0][1:])) == [
        "r1c1 holds 6, not a value in 1..5"]


def test_an_engine_that_needs_every_value_in_a_house_refuses_by_name():
    from polydoku.problem import build_problem
    problem = build_problem(Puzzle(WIDE, (0,) * 16))
    refusal = api.get_engine("clingo").refusal(problem)
    assert refusal and "5 values on 4x4 cells" in refusal
    assert api.get_engine("native").refusal(problem) is None


def test_json_and_iss_read_and_write_the_number_of_values():
    puzzle = puzzle_from_dict({"size": 6, "box": [2, 3], "values": [1, 9],
                               "givens": "9" + "." * 35})
    assert puzzle.geometry.nvalues == 9 and puzzle.givens[0] == 9
    assert '"values": [1, 9]' in write_json(puzzle)
    text = to_iss(puzzle)
    assert "Shape~6x6~9" in text and parse_iss(text) == puzzle
    zero = parse_iss(".Shape~6x6~0-9.~R1C1_9")
    assert zero.geometry.nvalues == 10 and zero.geometry.low == 0
    assert parse_iss(to_iss(zero)) == zero
    with pytest.raises(BadInput, match="holds at least 6"):
        puzzle_from_dict({"size": 6, "values": [1, 5], "givens": "." * 36})
    with pytest.raises(BadInput, match="outside 1..9"):
        Puzzle(puzzle.geometry, (10,) + (0,) * 35)


def test_boxes_larger_than_a_row_hold_every_value():
    puzzle = puzzle_from_dict({"size": 6, "box": [3, 3], "values": [1, 9], "givens": "." * 36})
    g = puzzle.geometry
    assert len(g.boxes) == 4 and all(len(b) == 9 for b in g.boxes)
    assert g.unit_name(len(g.units) - 1) == "box 4"
    solution = api.solve(puzzle, api.get_engine("native")).solutions[0]
    assert all(sorted(solution[i] for i in box) == list(range(1, 10)) for box in g.boxes)
    text = to_iss(puzzle)
    assert "RegionSize~9" in text and parse_iss(text) == puzzle
    with pytest.raises(BadInput, match="box 3x3 does not tile a 6x6 grid"):
        puzzle_from_dict({"size": 6, "box": [3, 3], "givens": "." * 36})


def test_regions_of_a_wider_grid_need_not_cover_it():
    layout = "".join("ABCDE"[min(i // 9, 4)] for i in range(49))     # four pieces of 9, 13 left
    puzzle = parse_iss(f".Shape~7x7~9.RegionSize~9.Jigsaw~7x7~{layout}")
    g = puzzle.geometry
    assert len(g.boxes) == 4 and g.region_of.count(-1) == 13
    assert parse_iss(to_iss(puzzle)) == puzzle
    assert api.solve(puzzle, api.get_engine("native")).solutions
    with pytest.raises(BadInput, match="region 2 has 8 cells, expected 9"):
        Geometry.irregular(7, [range(9), range(9, 17)], count=9)


def test_same_house_values_counts_one_set_of_values_per_grid():
    puzzle = Puzzle(WIDE, (0,) * 16, tuple(rules_from_data(["same-house-values"], WIDE)))
    for engine in ("native", "sat"):
        outcome = api.solve(puzzle, api.get_engine(engine), max_solutions=5000)
        assert len(outcome.solutions) == 5 * 288 and outcome.exhausted    # a value left out, a 4x4
    assert grid_problems(puzzle, [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 5]) == [
        "row 4 holds other values than row 1 (same-house-values)"]


def test_doppelganger_counts_the_same_on_native_and_sat_engines_and_is_refused_off_0_to_n():
    puzzle = Puzzle(WIDE0, (0,) * 16, tuple(rules_from_data(["doppelganger"], WIDE0)))
    counts = {e: len(api.solve(puzzle, api.get_engine(e), max_solutions=10_000).solutions)
              for e in ("native", "sat", "pycosat")}
    assert counts["native"] == counts["sat"] == counts["pycosat"] > 0, counts
    plain = Puzzle(WIDE0, (0,) * 16)
    assert counts["native"] < len(api.solve(plain, api.get_engine("native"),
                                            max_solutions=200_000).solutions)
    with pytest.raises(BadInput, match="doppelganger is a rule of an NxN grid"):
        Puzzle(WIDE, (0,) * 16, rules_from_data(["doppelganger"], WIDE))
    grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 5]     # row 4 holds no 0 (index 1)
    assert "row 4 holds no 0 (doppelganger)" in grid_problems(puzzle, grid)


def test_the_docs_name_every_kind_refused_on_more_values():
    import re
    from conftest import ROOT
    text = (ROOT / "docs" / "rules.md").read_text()
    listed = text.split("the others are refused by name:", 1)[1].split("(their statement", 1)[0]
    assert set(re.findall(r"`([a-z-]+)`", listed)) == {
        k for k, cls in kinds().items() if not cls.any_count}


def test_the_page_gets_the_number_of_values():
    from polydoku.web.app import board_json
    board = board_json(puzzle_from_dict({"size": 6, "values": [1, 9], "givens": "9" + "." * 35}))
    assert board["size"] == 6 and board["values"] == 9 and board["alphabet"] == "123456789"


def test_a_default_and_a_bound_that_come_from_the_values_take_their_count():
    """German whispers differ by at least half the values (5 on a 6x6 of 1..9, not 3), a
    modulus goes up to the count of values, and a nabner line holds up to half of them."""
    g = Geometry(6, 3, 3, count=9)
    whispers, modular, nabner = rules_from_data([
        {"kind": "whispers", "cells": ["r1c1", "r1c2"]},
        {"kind": "modular", "cells": ["r1c1", "r1c2"], "modulus": 8},
        {"kind": "nabner", "cells": ["r2c1", "r2c2", "r2c3", "r2c4", "r2c5"]}], g)
    assert whispers.difference == 5 and modular.modulus == 8 and len(nabner.cells) == 5


def test_bounds_and_groups_read_from_the_values_and_the_boxes():
    """On a 6x6 grid of 1..9 with boxes of nine cells: candidate givens may name 9, a
    difference dot up to 8, a ratio up to 9, an XV sum up to 18, and disjoint groups have
    one group per place in a box (nine of four cells)."""
    g = Geometry(6, 3, 3, count=9)
    cand, diff, ratio, xv, disjoint = rules_from_data([
        {"kind": "candidates", "cells": ["r1c1"], "values": [1, 9]},
        {"kind": "difference-dot", "cells": ["r1c1", "r1c2"], "difference": 8},
        {"kind": "ratio-dot", "cells": ["r1c1", "r1c2"], "ratio": 9},
        {"kind": "xv", "cells": ["r1c1", "r1c2"], "sum": 17}, "disjoint-groups"], g)
    assert cand.values == (1, 9) and diff.difference == 8 and ratio.ratio == 9
    assert xv.total == 17
    assert sorted(map(len, disjoint.units(g))) == [4] * 9
