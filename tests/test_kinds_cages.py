"""Counting, cage and sum kinds of their own modules (rules/kind/): counting circles, sum cages,
rellik cages, equality cages, bounded killer cages, lunchboxes, equal sums, and cells that
contain values (at least or exactly, look-and-say clues), prime cages, count-distinct cells and same-value sets. Each: a fixed instance against brute force over all 288 4x4 grids
(the statement and the lowering, native and lowered to nogoods and tables), its JSON round trip,
bad input named by field, its logic step checked against the solution, and published puzzles
(from the Interactive Sudoku Solver's collection, source named beside each) solved uniquely
with their published solution.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, missing
from test_rule_kinds import N, puzzle_with, solutions, truth
from polydoku import api
from polydoku.engines.native import search
from polydoku.errors import BadInput
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.jsonfmt import parse_json, puzzle_from_dict, puzzle_to_dict
from polydoku.model import Geometry
from polydoku.problem import build_problem, lower
from polydoku.rules import KINDS, rule_from_data

OURS = ("counting-circles", "sum-cage", "rellik-cage", "equality-cage", "killer-bound",
        "lunchbox", "equal-sum", "contain-at-least", "contain-exact", "prime-cage", "look-and-say", "count-distinct", "same-values")
G4, G9 = Geometry.of_size(4), Geometry.of_size(9)


def cells(text: str) -> list[str]:
    return text.split()


FIXED = [
    {"kind": "counting-circles", "cells": cells("r1c1 r1c2 r2c3 r3c3 r4c4")},
    {"kind": "counting-circles", "cells": cells("r1c1 r3c2")},
    {"kind": "sum-cage", "cells": cells("r1c1 r2c2 r3c3"), "sum": 7},
    {"kind": "sum-cage", "cells": cells("r1c1 r1c1 r4c4"), "sum": 9},
    {"kind": "sum-cage", "cells": cells("r1c1 r1c2 r2c1"), "sum": 0, "coefficients": [1, 1, -1]},
    {"kind": "rellik-cage", "cells": cells("r1c1 r1c2"), "sum": 5},
    {"kind": "rellik-cage", "cells": cells("r2c1 r3c1 r3c2"), "sum": 7},
    {"kind": "rellik-cage", "cells": cells("r2c3 r2c4 r3c4"), "sum": 2},
    {"kind": "equality-cage", "cells": cells("r1c1 r1c2")},
    {"kind": "equality-cage", "cells": cells("r2c1 r2c2 r3c2 r3c3")},
    {"kind": "killer-bound", "cells": cells("r1c1 r1c2 r2c1"), "min": 8},
    {"kind": "killer-bound", "cells": cells("r2c2 r2c3"), "max": 4},
    {"kind": "killer-bound", "cells": cells("r3c1 r4c2 r4c3"), "min": 6, "max": 7},
    {"kind": "lunchbox", "cells": cells("r1c1 r1c2 r1c3 r1c4"), "sum": 3},
    {"kind": "lunchbox", "cells": cells("r2c1 r3c1 r3c2"), "sum": 0},
    {"kind": "lunchbox", "cells": cells("r2c2 r2c3 r3c3 r4c3"), "sum": 3},
    {"kind": "equal-sum", "groups": [cells("r1c1 r1c2"), cells("r2c3 r2c4"), cells("r4c4")]},
    {"kind": "equal-sum", "groups": [cells("r1c1 r1c1"), cells("r1c3 r2c3 r3c4")]},
    {"kind": "contain-at-least", "cells": cells("r1c1 r2c2 r3c3 r4c4"), "values": [1, 1]},
    {"kind": "contain-at-least", "cells": cells("r1c2 r1c3 r2c3"), "values": [2, 4]},
    {"kind": "contain-exact", "cells": cells("r1c1 r2c2 r3c3 r4c4"), "values": [1, 3]},
    {"kind": "contain-exact", "cells": cells("r1c1 r1c2 r2c1 r2c2 r3c3"), "values": [4, 4]},
    {"kind": "prime-cage", "cells": cells("r1c1 r1c2")},
    {"kind": "prime-cage", "cells": cells("r2c2 r3c2 r3c3")},
    {"kind": "look-and-say", "cells": cells("r1c1 r2c2 r3c3 r4c4"), "clue": "2103"},
    {"kind": "look-and-say", "cells": cells("r1c2 r2c1 r3c4"), "clue": "12"},
    {"kind": "count-distinct", "control": "r1c1", "cells": cells("r2c2 r3c3 r4c4")},
    {"kind": "count-distinct", "control": "r2c3", "cells": cells("r1c1 r1c2 r3c4 r4c3")},
    {"kind": "same-values", "groups": [cells("r1c1 r1c2"), cells("r3c3 r4c4")]},
    {"kind": "same-values", "groups": [cells("r1c1"), cells("r2c3"), cells("r4c2")]},
]


def lowered_grids(puzzle) -> set[tuple[int, ...]]:
    """Return the grids of the problem lowered to nogoods and tables alone (no sums, no
    all-different), searched by the native engine."""
    low = lower(build_problem(puzzle), ())
    return {low.grid(s) for s in search(low, 1000).solutions}


@pytest.mark.parametrize("data", FIXED, ids=lambda d: d["kind"])
def test_a_fixed_instance_keeps_exactly_the_grids_its_statement_accepts(data):
    puzzle = puzzle_with([data])
    expected = truth(puzzle)
    assert 0 < len(expected) < 288           # the rule holds somewhere and rules out something
    assert solutions(puzzle, "native") == expected
    assert lowered_grids(puzzle) == expected


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(OURS), st.integers(0, 10 ** 9))
def test_random_instances_agree_with_brute_force(kind, seed):
    data = KINDS[kind].sample(random.Random(seed), N)
    puzzle = puzzle_with([data])
    assert solutions(puzzle, "native") == truth(puzzle), data


def test_counting_circles_mean_what_they_say():
    """Three circles: one 1 and two 2s, or three 3s (on a 4x4 grid, 3s in three different
    rows, columns and boxes)."""
    puzzle = puzzle_with([{"kind": "counting-circles", "cells": cells("r1c1 r2c3 r4c2")}])
    for grid in truth(puzzle):
        vals = sorted(grid[i] for i in (0, 6, 13))
        assert vals in ([1, 2, 2], [3, 3, 3])
    assert {tuple(sorted(g[i] for i in (0, 6, 13))) for g in truth(puzzle)} == {(1, 2, 2), (3, 3, 3)}


def test_sum_cages_count_a_cell_listed_twice_twice():
    puzzle = puzzle_with([{"kind": "sum-cage", "cells": cells("r1c1 r1c1 r1c2"), "sum": 9}])
    assert truth(puzzle) and all(2 * g[0] + g[1] == 9 for g in truth(puzzle))


def test_rellik_cages_forbid_every_subset_sum():
    puzzle = puzzle_with([{"kind": "rellik-cage", "cells": cells("r1c1 r2c1 r2c2"), "sum": 7}])
    assert truth(puzzle)
    for grid in truth(puzzle):
        vals = {grid[0], grid[4], grid[5]}
        assert {3, 4} - vals and {1, 2, 4} - vals


def test_equality_cages_leave_out_the_middle_value_of_an_odd_range():
    data = {"size": 9, "givens": "." * 81,
            "rules": [{"kind": "equality-cage", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"]}]}
    out = api.count(parse_json(json.dumps(data)), limit=30)
    assert out.count == 30
    for grid in out.solutions:
        vals = [grid[i] for i in (0, 1, 9, 10)]
        assert 5 not in vals
        assert sum(v % 2 for v in vals) == 2 and sum(v < 5 for v in vals) == 2


def test_bounded_killer_cages_keep_their_totals_within_the_bounds():
    data = {"kind": "killer-bound", "cells": cells("r1c1 r1c2 r2c2"), "min": 6, "max": 8}
    grids = truth(puzzle_with([data]))
    assert {g[0] + g[1] + g[5] for g in grids} == {6, 7, 8}
    assert grids == truth(puzzle_with([{**data, "min": 6, "max": None}])) & truth(
        puzzle_with([{**data, "min": None, "max": 8}]))


def test_prime_cages_add_up_to_a_prime():
    grids = truth(puzzle_with([{"kind": "prime-cage", "cells": cells("r1c1 r2c1 r2c2")}]))
    assert {g[0] + g[4] + g[5] for g in grids} == {7}           # 6 and 9 are not prime
    assert truth(puzzle_with([{"kind": "prime-cage", "cells": cells("r1c1")}])) == {
        g for g in truth(puzzle_with([])) if g[0] in (2, 3)}


def test_look_and_say_counts_each_value_exactly_and_keeps_a_zero_count_out():
    grids = truth(puzzle_with([{"kind": "look-and-say", "cells": cells("r1c1 r2c2 r3c3 r4c4"),
                                "clue": "2103"}]))
    diagonal = [[g[i] for i in (0, 5, 10, 15)] for g in grids]
    assert diagonal and all(d.count(1) == 2 and 3 not in d for d in diagonal)
    rule = rule_from_data({"kind": "look-and-say", "cells": ["r1c1"], "clue": 11}, G4)
    assert rule.to_data()["clue"] == "11" and rule.counts() == {1: 1}


def test_count_distinct_counts_the_different_values_around_it():
    grids = truth(puzzle_with([{"kind": "count-distinct", "control": "r1c1",
                                "cells": cells("r2c2 r3c3 r4c4")}]))
    assert grids and all(g[0] == len({g[5], g[10], g[15]}) for g in grids)


def test_same_value_sets_hold_the_same_values_in_any_order():
    grids = truth(puzzle_with([{"kind": "same-values", "groups": [cells("r1c1 r1c2"),
                                                                  cells("r2c3 r3c3")]}]))
    assert grids and all(sorted((g[0], g[1])) == sorted((g[6], g[10])) for g in grids)
    assert any(g[0] != g[6] for g in grids)


def test_bounds_of_sudokupad_clues():
    from polydoku.rules.kind.killer_bound import bounds_of_clue
    assert bounds_of_clue("<15") == {"max": 14} and bounds_of_clue(">20") == {"min": 21}
    assert bounds_of_clue("≤ 9") == {"max": 9} and bounds_of_clue(">=7") == {"min": 7}
    assert bounds_of_clue("15") is None and bounds_of_clue("<x") is None


def test_a_lunchbox_adds_up_what_lies_between_its_smallest_and_largest_value():
    data = {"kind": "lunchbox", "cells": cells("r1c1 r2c1 r3c1 r4c1"), "sum": 5}
    grids = truth(puzzle_with([data]))
    assert grids
    for g in grids:
        col = [g[0], g[4], g[8], g[12]]
        lo, hi = sorted((col.index(1), col.index(4)))
        assert sum(col[lo + 1:hi]) == 5
    assert len(grids) == len({g for g in truth(puzzle_with([])) if {g[4], g[8]} == {2, 3}
                              and {g[0], g[12]} == {1, 4}})


def test_equal_sums_hold_between_every_group():
    data = {"kind": "equal-sum", "groups": [cells("r1c1 r2c2"), cells("r3c3 r4c3"),
                                            cells("r4c1")]}
    grids = truth(puzzle_with([data]))
    assert grids and all(g[0] + g[5] == g[10] + g[14] == g[12] for g in grids)


def test_contain_exact_is_contain_at_least_without_extra_copies():
    where_ = cells("r1c1 r1c3 r2c2 r3c1")
    least = truth(puzzle_with([{"kind": "contain-at-least", "cells": where_, "values": [2]}]))
    exact = truth(puzzle_with([{"kind": "contain-exact", "cells": where_, "values": [2]}]))
    idx = (0, 2, 5, 8)
    assert exact == {g for g in least if [g[i] for i in idx].count(2) == 1} != least


def test_quadruples_and_contain_at_least_agree_on_a_block():
    block = cells("r1c1 r1c2 r2c1 r2c2")
    for values in ([1], [1, 2], [3, 4, 4]):
        quad = puzzle_with([{"kind": "quadruple", "cells": block, "values": values}])
        contain = puzzle_with([{"kind": "contain-at-least", "cells": block, "values": values}])
        assert truth(quad) == truth(contain) == solutions(contain, "native")


@pytest.mark.parametrize("data", FIXED, ids=lambda d: d["kind"])
def test_json_round_trip(data):
    rule = rule_from_data(data, G4)
    assert rule.to_data() == data
    assert rule_from_data(rule.to_data(), G4) == rule
    puzzle = puzzle_with([data])
    assert parse_json(json.dumps(puzzle_to_dict(puzzle))) == puzzle


@pytest.mark.parametrize("data, words", [
    ({"kind": "counting-circles", "cells": ["r1c1", "r1c1"]}, "lists r1c1 twice"),
    ({"kind": "counting-circles", "cells": []}, "has 0 cells"),
    ({"kind": "sum-cage", "cells": ["r1c1"]}, 'field "sum" is missing'),
    ({"kind": "sum-cage", "cells": ["r1c1", "r1c2"], "sum": 7, "coefficients": [1]},
     '"coefficients" has 1 weights for 2 cells'),
    ({"kind": "sum-cage", "cells": ["r1c1"], "sum": 7, "coefficients": [101]},
     'field "coefficients" is 101'),
    ({"kind": "sum-cage", "cells": ["r1c1"], "sum": "x"}, 'field "sum" must be an integer'),
    ({"kind": "rellik-cage", "cells": ["r1c1", "r1c2"], "sum": 0}, 'field "sum" is 0'),
    ({"kind": "rellik-cage", "cells": ["r1c1", "r1c2"]}, 'field "sum" is missing'),
    ({"kind": "equality-cage", "cells": ["r1c1", "r1c2", "r1c3"]}, "an even number of cells"),
    ({"kind": "equality-cage", "cells": ["r1c1", "r10c2"]}, 'field "cells"'),
    ({"kind": "killer-bound", "cells": ["r1c1", "r1c2"]}, 'field "min" or "max" is needed'),
    ({"kind": "killer-bound", "cells": ["r1c1", "r1c2"], "min": 9, "max": 8},
     'field "min" is 9, above "max" 8'),
    ({"kind": "killer-bound", "cells": ["r1c1", "r1c2"], "max": 19}, 'field "max" is 19'),
    ({"kind": "lunchbox", "cells": ["r1c1"], "sum": 0}, "has 1 cells, expected 2"),
    ({"kind": "lunchbox", "cells": ["r1c1", "r1c2"], "sum": -1}, 'field "sum" is -1'),
    ({"kind": "equal-sum", "groups": [["r1c1"]]}, 'field "groups" must be a list of 2..'),
    ({"kind": "equal-sum", "groups": [["r1c1"], []]}, 'field "groups" has 0 cells'),
    ({"kind": "equal-sum", "groups": [["r1c1"], "r1c2"]}, 'field "groups" must be a list'),
    ({"kind": "contain-at-least", "cells": ["r1c1"], "values": [1, 2]},
     'field "values" lists 2 values for 1 cells'),
    ({"kind": "contain-exact", "cells": ["r1c1"], "values": [0]}, 'field "values" is 0'),
    ({"kind": "contain-exact", "cells": ["r1c1"]}, 'field "values" must be a list'),
    ({"kind": "prime-cage", "cells": "r1c1"}, 'field "cells" must be a list of cell names'),
    ({"kind": "look-and-say", "cells": ["r1c1"], "clue": "123"}, 'field "clue" must be'),
    ({"kind": "look-and-say", "cells": ["r1c1"], "clue": "10"}, "names the value 0"),
    ({"kind": "look-and-say", "cells": ["r1c1"], "clue": "1121"}, "names a value twice"),
    ({"kind": "look-and-say", "cells": ["r1c1"], "clue": "21"}, "more values than the 1 cells"),
    ({"kind": "count-distinct", "control": "r1c1", "cells": ["r1c1", "r1c2"]},
     "lists the control cell r1c1"),
    ({"kind": "count-distinct", "cells": ["r1c2"]}, 'field "control" is missing'),
    ({"kind": "same-values", "groups": [["r1c1"], ["r1c2", "r1c3"]]},
     "the groups differ in size (1, 2 cells)"),
    ({"kind": "same-values", "groups": [["r1c1", "r1c1"], ["r1c2", "r1c3"]]},
     "lists r1c1 twice"),
])
def test_bad_input_names_the_field(data, words):
    with pytest.raises(BadInput, match=re.escape(words)):
        rule_from_data(data, G9)


def test_rellik_totals_of_too_many_value_sets_are_refused():
    data = {"kind": "rellik-cage", "cells": [f"r{r}c{c}" for r in range(1, 5) for c in range(1, 6)],
            "sum": 150}
    with pytest.raises(BadInput, match="more than 4000 sets"):
        rule_from_data(data, Geometry.of_size(25))


def test_logic_steps_name_the_rule_and_keep_the_solution():
    """A position where each kind's own step applies: what goes is named, and the values of
    the one grid left are kept."""
    full = (1 << 9) - 1

    def bits(*vs: int) -> int:
        return sum(1 << (v - 1) for v in vs)

    cands = [full] * 81
    circles = rule_from_data({"kind": "counting-circles", "cells": ["r1c1", "r5c5"]}, G9)
    drop, why = circles.deduce(G9, cands)
    assert drop == {0: bits(3, 4, 5, 6, 7, 8, 9), 40: bits(3, 4, 5, 6, 7, 8, 9)}
    assert "counting circles r1c1 and r5c5" in why
    rellik = rule_from_data({"kind": "rellik-cage", "cells": ["r1c1", "r1c2", "r1c3"],
                             "sum": 10}, G9)
    cands[0] = bits(3)
    drop, why = rellik.deduce(G9, cands)
    assert drop == {1: bits(7), 2: bits(7)} and "with 3 placed" in why
    equality = rule_from_data({"kind": "equality-cage", "cells": ["r2c1", "r2c2"]}, G9)
    drop, _ = equality.deduce(G9, cands)
    assert drop == {9: bits(5), 10: bits(5)}
    cands[9], cands[10] = bits(2, 4), full & ~bits(5)
    drop, why = equality.deduce(G9, cands)
    assert drop == {10: bits(2, 4, 6, 8)} and "already even" in why
    bound = rule_from_data({"kind": "killer-bound", "cells": ["r9c1", "r9c2"], "max": 4}, G9)
    drop, why = bound.deduce(G9, [full] * 81)
    assert drop == {72: bits(*range(4, 10)), 73: bits(*range(4, 10))}
    assert why == "the cage r9c1 and r9c2 (≤4) can only be 1+2 or 1+3"


# ---- ISS strings: each kind ISS has is written and read back through its hooks, and published
# puzzles of ISS's own collection (sigh/Interactive-Sudoku-Solver, data/example_puzzles.js and
# data/collections.js) are read from their strings and solved uniquely

@pytest.mark.parametrize("data", [d for d in FIXED if KINDS[d["kind"]].iss],
                         ids=lambda d: d["kind"])
def test_iss_strings_round_trip(data):
    puzzle = puzzle_with([data])
    text = to_iss(puzzle)
    assert f".{KINDS[data['kind']].iss.split()[0]}~" in text
    back = parse_iss(text)
    assert back == puzzle and to_iss(back) == text


def test_iss_spellings_are_read():
    assert parse_iss(".Sum~0_=_1_1_-1~R1C1~R1C2~R2C1").rules[0].to_data() == {
        "kind": "sum-cage", "cells": ["r1c1", "r1c2", "r2c1"], "sum": 0,
        "coefficients": [1, 1, -1]}
    assert parse_iss(".EqualSum~R1C1~-~R2C3~R3C3").rules[0].to_data() == {
        "kind": "equal-sum", "groups": [["r1c1"], ["r2c3", "r3c3"]]}
    assert parse_iss(".SameValues~2~R1C1~R1C2~R9C8~R9C9").rules[0].to_data() == {
        "kind": "same-values", "groups": [["r1c1", "r1c2"], ["r9c8", "r9c9"]]}
    assert parse_iss(".ContainExact~1_1_2~R1C1~R1C5~R5C5").rules[0].to_data()["values"] == [1, 1, 2]


@pytest.mark.parametrize("text, words", [
    (".Sum~7_+_1~R1C1", "expected SUM or SUM_=_WEIGHTS"),
    (".SameValues~3~R1C1~R1C2", "a number of sets and cells"),
    (".RellikCage~5", "a sum and cells are expected"),
    (".LookAndSay~123~R1C1~R1C2", '"clue" must be (count, value) digit pairs'),
])
def test_bad_iss_items_name_the_item(text, words):
    with pytest.raises(BadInput, match=re.escape(words)):
        parse_iss(text)


PUBLISHED = [
    # "Counting circles": https://sudokupad.app/QbPRdNNRMH (solved on video,
    # https://www.youtube.com/watch?v=J_3SltyIJ1I)
    ("counting-circles", ".CountingCircles~R1C1~R1C5~R1C9~R2C7~R2C3~R3C2~R3C8~R4C6~R4C7~R4C4~R5C1"
     "~R5C2~R6C3~R6C4~R6C6~R7C8~R8C7~R9C9~R9C5~R7C2~R8C3~R9C1~R5C8.~R1C5_1~R2C8_2~R2C2_8~R5C9_3"
     "~R5C1_7~R8C2_6~R9C5_5~R7C3_8~R6C5_9~R7C7_2~R8C6_1~R8C8_4",
     "623514897584379621971268354219436785745182963836795412158643279367921548492857136"),
    # "Sum cages": https://tinyurl.com/59b9nba9 (https://www.youtube.com/watch?v=gxuYWm8Unss)
    ("sum-cage", ".Sum~3~R1C5~R1C6 .Sum~4~R2C6~R1C6 .Sum~5~R2C7~R2C6 .Sum~3~R3C7~R2C7 "
     ".Sum~4~R3C8~R3C7 .Sum~5~R4C8~R3C8 .Sum~3~R4C9~R4C8 .Sum~4~R5C9~R4C9 .Sum~5~R6C1~R5C1 "
     ".Sum~7~R6C1~R6C2 .Sum~6~R6C2~R7C2 .Sum~5~R7C3~R7C2 .Sum~7~R8C3~R7C3 .Sum~6~R8C4~R8C3 "
     ".Sum~5~R8C4~R9C4 .Sum~7~R9C5~R9C4 .Sum~10~R2C4~R3C4 .Sum~11~R3C4~R3C5 .Sum~10~R4C5~R3C5 "
     ".Sum~11~R4C5~R4C6 .Sum~12~R4C6~R5C6 .Sum~10~R5C7~R5C6 .Sum~11~R6C7~R5C7 .Sum~12~R6C8~R6C7 "
     ".Sum~15~R6C4~R6C5 .Sum~14~R6C5~R7C5 .Sum~14~R5C4~R6C4 .Sum~13~R5C3~R5C4 .Sum~15~R7C6~R7C5 "
     ".Sum~13~R8C6~R7C6 .Sum~14~R4C3~R5C3 .Sum~15~R4C3~R4C2 .Sum~13~R6C9~R7C9 .Sum~9~R7C8~R7C9 "
     ".Sum~5~R7C8~R8C8 .Sum~4~R8C8~R8C7 .Sum~11~R9C7~R8C7 .Sum~17~R9C6~R9C7 .Sum~13~R3C1~R4C1 "
     ".Sum~14~R3C2~R3C1 .Sum~11~R2C2~R3C2 .Sum~12~R2C2~R2C3 .Sum~16~R1C3~R2C3 .Sum~17~R1C4~R1C3",
     "439821756157693284862475139596738421278514693341962578623187945984256317715349862"),
    # "6x6: Rellik cages": https://sudokupad.app/adventure/480-rellik
    ("rellik-cage", ".Shape~6x6.RellikCage~5~R1C3~R2C3~R2C2.RellikCage~9~R1C2~R1C1~R2C1"
     ".RellikCage~6~R1C4~R2C4~R2C5.RellikCage~4~R3C3~R3C4.RellikCage~4~R4C3~R5C3~R6C3~R5C2"
     ".RellikCage~7~R5C1~R6C1~R6C2.RellikCage~5~R6C4~R6C5~R6C6.RellikCage~3~R5C4~R5C5~R5C6~R4C6"
     ".RellikCage~8~R1C5~R1C6~R2C6~R3C6",
     "213564564321641235325146136452452613"),
    # "Lunchbox": https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=0003H4
    ("lunchbox", ".Lunchbox~11~R1C2~R1C1~R2C1~R3C1~R4C1.Lunchbox~7~R1C3~R1C4~R1C5~R1C6~R1C7"
     ".Lunchbox~4~R1C9~R2C9~R2C8~R3C8~R4C8.Lunchbox~8~R2C7~R2C6~R3C6~R4C6~R5C6"
     ".Lunchbox~23~R2C4~R2C3~R3C3~R3C2~R4C2~R5C2.Lunchbox~0~R6C1~R7C1~R7C2~R8C2"
     ".Lunchbox~0~R8C4~R8C3~R9C3.Lunchbox~7~R9C6~R9C5~R8C5~R7C5~R7C6~R7C7~R6C7~R6C8"
     ".Lunchbox~2~R5C7~R5C8~R5C9.Lunchbox~14~R6C2~R6C3~R6C4~R5C4.Lunchbox~17~R3C5~R4C5~R5C5"
     "~R6C5~R6C6.",
     "812436597375912648964785213581243769437569821296871435648397152759124386123658974"),
    # "Extreme Lunchbox": https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=0003HB
    # (ISS's collections)
    ("lunchbox", ".Lunchbox~3~R6C2~R6C1~R5C1~R4C1.Lunchbox~2~R6C4~R6C3~R5C3~R5C2~R4C2"
     ".Lunchbox~29~R4C4~R3C4~R2C4~R1C4~R1C3~R1C2~R2C2.Lunchbox~23~R1C7~R1C8~R2C8~R3C8~R4C8"
     "~R5C8~R5C7~R6C7~R7C7.Lunchbox~0~R7C9~R8C9~R9C9.Lunchbox~20~R8C2~R8C3~R9C3~R9C4~R9C5"
     ".Lunchbox~12~R8C8~R8C7~R9C7~R9C6.Lunchbox~8~R6C5~R7C5~R8C5~R8C4.Lunchbox~8~R3C6~R4C6"
     "~R5C6~R6C6~R7C6.Lunchbox~23~R3C7~R2C7~R2C6~R2C5~R3C5~R4C5~R5C5.",
     "586792143719346582423581967174923658368475291952168734841657329697234815235819476"),
    # "Magic square": https://sudokupad.app/2QM8JHJ4HB (https://www.youtube.com/watch?v=hAyZ9K2EBF0)
    ("equal-sum", ".AntiKnight.Diagonal~1.Diagonal~-1.EqualSum~R4C4~R4C5~R4C6~-~R5C4~R5C5~R5C6~-"
     "~R6C4~R6C5~R6C6~-~R4C4~R5C4~R6C4~-~R4C5~R5C5~R6C5~-~R4C6~R5C6~R6C6~-~R4C4~R5C5~R6C6~-"
     "~R4C6~R5C5~R6C4.~R4C1_3~R4C2_8~R4C3_4~R9C9_2",
     "843567219275913846619428375384672951726159483951834627537286194462791538198345762"),
    # "Equality cages": https://sudokupad.app/qftcbycmyg (with kropki dots and V marks)
    ("equality-cage", ".EqualityCage~R1C1~R1C2~R2C2~R2C1.EqualityCage~R3C2~R3C3.EqualityCage~R4C2"
     "~R4C3~R5C3~R5C2.EqualityCage~R9C2~R9C3~R8C3~R8C4.EqualityCage~R4C4~R4C5~R5C5~R5C6"
     ".EqualityCage~R3C4~R3C5~R3C6~R3C7.EqualityCage~R2C6~R2C7~R2C8~R2C9.EqualityCage~R3C8~R3C9"
     ".EqualityCage~R6C9~R7C9.EqualityCage~R7C7~R7C8~R8C8~R8C7.~R3C2_4~R3C8_7.BlackDot~R4C1~R4C2"
     "~R8C1~R9C1~R7C6~R8C6~R8C7.BlackDot~R6C6~R6C7~R9C3~R9C2~R8C5~R9C5.WhiteDot~R8C1~R8C2~R1C7"
     "~R1C6~R7C7~R7C8.V~R2C7~R2C8~R2C2~R2C1~R8C3~R9C3",
     "781492356326578149549631872634825917298317564175964283917256438452783691863149725"),
    # "Look-and-Say 2": https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=0008M1
    # (ISS's collections)
    ("look-and-say", ".LookAndSay~12~R1C2~R2C2~R3C2~R3C3.LookAndSay~1617~R2C7~R3C7~R3C8"
     ".LookAndSay~25~R6C9~R7C9~R7C8.LookAndSay~27~R8C2~R8C3~R9C3~R9C4~R9C2"
     ".LookAndSay~2122~R6C2~R7C2~R7C3~R7C4~R8C4.LookAndSay~2412~R5C5~R6C5~R7C5~R8C5~R7C6"
     ".LookAndSay~33~R4C6~R4C7~R5C7~R6C7~R7C7~R6C8~R5C8.LookAndSay~11~R1C7~R2C8~R3C9"
     ".LookAndSay~28~R4C9~R3C8~R2C7~R1C6.LookAndSay~24~R6C9~R5C8~R4C7~R3C6~R2C5~R1C4"
     ".LookAndSay~33~R1C9~R2C8~R3C7~R4C6~R5C5~R6C4~R7C3~R8C2~R9C1"
     ".LookAndSay~12~R1C1~R2C2~R3C3~R4C4~R5C5~R6C6~R7C7~R8C8~R9C9"
     ".LookAndSay~31~R3C1~R4C2~R5C3~R6C4~R7C5~R8C6~R9C7.LookAndSay~19~R4C1~R5C2~R6C3~R7C4~R8C5"
     "~R9C6.LookAndSay~13~R1C4~R2C3~R3C2~R4C1.LookAndSay~29~R1C6~R2C5~R3C4~R4C3~R5C2~R6C1"
     ".LookAndSay~38~R1C7~R2C6~R3C5~R4C4~R5C3~R6C2~R7C1.",
     "786412593543698712192357684259173468638549271417826935821964357975231846364785129"),
    # "Count Different (Circles)": https://sudokupad.app/fxjvp41pf9 (ISS's collections)
    ("count-distinct", ".~R1C2_6~R2C2_4~R2C3_1~R3C3_3~R3C2_2~R2C7_8~R2C8_3~R2C9_9~R3C7_4~R3C8_6"
     "~R7C7_3~R8C7_5~R7C8_9~R8C8_8~R9C8_1~R7C3_4~R8C3_6~R8C2_7~R7C2_8~R8C1_2"
     ".CountDistinct~R3C3~R3C2~R2C2~R2C3~R2C4~R3C4~R4C4~R4C3~R4C2"
     ".CountDistinct~R3C7~R3C6~R2C6~R2C7~R2C8~R3C8~R4C8~R4C7~R4C6"
     ".CountDistinct~R7C7~R7C6~R6C6~R6C7~R6C8~R7C8~R8C8~R8C7~R8C6"
     ".CountDistinct~R7C3~R7C2~R6C2~R6C3~R6C4~R7C4~R8C4~R8C3~R8C2",
     "865934127741256839923187465512493678698571243437628951184765392276319584359842716"),
    # "Clone": https://sudokupad.app/jjmjLT7GqH (ISS's examples)
    ("same-values", ".SameValues~6~R1C1~R2C8~R3C4~R7C2~R9C5~R8C7.SameValues~6~R9C6~R8C8~R2C9~R3C5"
     "~R1C2~R7C3.SameValues~4~R2C1~R8C3~R4C9~R1C6.SameValues~4~R2C6~R3C1~R5C9~R9C3"
     ".SameValues~3~R3C9~R6C8~R1C5.SameValues~3~R3C8~R6C7~R1C4.~R2C3_1~R2C5_2~R2C7_3~R5C7_6"
     "~R5C8_7~R5C5_5~R5C2_3~R5C3_4~R8C5_8~R8C1_7~R8C9_9",
     "463915827591728346872463591189674235234159678657832914346597182725381469918246753"),
]


@pytest.mark.parametrize("kind, text, solution", PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_published_puzzles_are_solved_uniquely(kind, text, solution):
    puzzle = parse_iss(text)
    assert any(r.kind == kind for r in puzzle.rules)
    out = api.count(puzzle, "sat", limit=2, timeout=120)
    assert out.exhausted and out.count == 1
    assert "".join(map(str, out.solutions[0])) == solution


OUR_ISS = {KINDS[k].iss for k in OURS if KINDS[k].iss}


def iss_collection() -> list[tuple[str, str]]:
    """Return (string, solution or "") of every puzzle of ISS's own collection and examples
    (its data/collections.js and data/example_puzzles.js, read from the snapshot the bench
    runs: ../shared/tools/iss or $POLYDOKU_ISS) that names one of this module's kinds."""
    import os
    import tarfile
    tool = Path(os.environ.get("POLYDOKU_ISS", ROOT.parent / "shared" / "tools" / "iss"))
    snapshots = sorted(tool.glob("iss-*.tar.gz"))
    if not snapshots:
        missing(f"no ISS snapshot (iss-*.tar.gz) in {tool} (set POLYDOKU_ISS)")
    text = ""
    with tarfile.open(snapshots[-1]) as tar:
        for member in tar.getmembers():
            if member.name.endswith(("data/collections.js", "data/example_puzzles.js")):
                text += tar.extractfile(member).read().decode()      # type: ignore[union-attr]
    found = re.findall(r"input:\s*'([^']*)'(?:,\s*solution:\s*'(\d*)')?", text)
    return list(dict.fromkeys((s, sol) for s, sol in found
                              if set(re.findall(r"\.([A-Za-z]+)~", s)) & OUR_ISS))


@pytest.mark.tools
@pytest.mark.slow
def test_every_collection_puzzle_of_these_kinds_that_reads_is_solved_uniquely():
    """Of ISS's collection, puzzles that name these kinds and nothing polydoku lacks (more
    values than cells, chaos construction, variables...) are read, proved unique by SAT, and give the
    published solution where the collection has one."""
    from test_values import collection
    from polydoku.problem import build_problem
    # more grids than its published one by the rules' statements (ISS misses the others:
    # tests/test_values_kinds.py shows both sides)
    several = "".join(collection()["0-indexed: Sums and indexing"]["input"].split())
    read = 0
    for text, solution in iss_collection():
        try:
            puzzle = parse_iss(text)
        except BadInput:
            continue
        if "".join(text.split()) == several or build_problem(puzzle).free_aux:
            continue                # chaos regions: tests/test_kinds_chaos.py proves those
        out = api.count(puzzle, "sat", limit=2, timeout=120)
        assert out.exhausted and out.count == 1, text[:80]
        if solution:
            assert "".join(map(puzzle.symbol, out.solutions[0])) == solution, text[:80]
        read += 1
    assert read >= 20


def test_each_kind_is_drawn_with_its_clue():
    import xml.etree.ElementTree as ET

    from polydoku.render import render_svg
    text = (ROOT / "docs" / "rules.md").read_text()
    examples = [json.loads(m) for m in re.findall(r"`(\{\"kind\": \"[^`]*\})`", text)]
    ours = [e for e in examples if e["kind"] in OURS]
    assert {e["kind"] for e in ours} == set(OURS)
    svg = render_svg(parse_json(json.dumps({"givens": "." * 81, "rules": ours})))
    root = ET.fromstring(svg)
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {"≠10", "≤14", "12", "7", "=", "1,1,9", "P", "≡"} <= texts
    groups = [g.get("class", "") for g in root.iter("{http://www.w3.org/2000/svg}g")]
    assert sum(c.startswith("rule cage") for c in groups) >= 10
    assert any(c.startswith("rule circle") for c in groups)


def test_sudokupad_cages_with_an_inequality_clue_are_bounded_killer_cages():
    from polydoku.formats.sudokupad import convert
    empty = [[{}] * 9 for _ in range(9)]
    cages = [{"cells": [[0, 0], [0, 1]], "value": "<5"}, {"cells": [[1, 0], [1, 1]], "value": "≥16"},
             {"cells": [[2, 0], [2, 1]], "value": 7}]
    got = convert({"cells": empty, "cages": cages}).data["rules"]
    assert got == [{"kind": "killer-bound", "cells": ["r1c1", "r1c2"], "max": 4},
                   {"kind": "killer-bound", "cells": ["r2c1", "r2c2"], "min": 16},
                   {"kind": "killer", "cells": ["r3c1", "r3c2"], "sum": 7}]
    puzzle = puzzle_from_dict({"givens": "." * 81, "rules": got})
    out = api.count(puzzle, limit=5)
    assert all(g[0] + g[1] <= 4 and g[9] + g[10] >= 16 for g in out.solutions)
    with pytest.raises(BadInput, match="which is not a sum"):
        convert({"cells": empty, "cages": [{"cells": [[0, 0]], "value": "<<5"}]})
