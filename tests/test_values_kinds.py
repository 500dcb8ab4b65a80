"""Every kind that takes any values, on a 4x4 of values 0..3 and 2..5: native and each solver
family keep exactly the grids the kind's statement accepts (all 288 grids checked by verify),
and what a kind reads of the values themselves is said in those values."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from conftest import need_engine
from polydoku import api
from polydoku.errors import BadInput
from polydoku.model import Geometry, Puzzle
from polydoku.rules import rules_from_data
from polydoku.rules.base import SIDES, OutsideRule
from polydoku.rules.registry import kinds
from polydoku.verify import grid_problems

from test_rule_kinds import instance

ANY = sorted(cls.kind for cls in kinds().values() if cls.any_values and cls.kind not in ("entropic", "doppelganger"))
GRIDS = sorted(api.count(Puzzle.empty(4), "native", limit=300).solutions)   # all 288


def shifted_puzzle(data: list, low: int) -> Puzzle | None:
    """Return the rules as a 4x4 puzzle of values low..low+3, None when a field names a value
    outside them."""
    g = Geometry.of_size(4).with_low(low)
    try:
        return Puzzle(g, (0,) * 16, rules_from_data(data, g))
    except BadInput:
        return None


def moved(data: str | dict, low: int) -> str | dict:
    """Return rule data whose listed values (`values`, `pairs`) are moved from 1..4 to
    low..low+3, so that a kind listing values has cases on every range."""
    if isinstance(data, str):
        return data
    out = dict(data)
    if "values" in out:
        out["values"] = [v + low - 1 for v in out["values"]]
    if "pairs" in out:
        out["pairs"] = [[a + low - 1, b + low - 1] for a, b in out["pairs"]]
    return out


def cases(kind: str, low: int, count: int) -> list[Puzzle]:
    """Return `count` random rules of `kind` taken on values low..low+3 (one puzzle each)."""
    rng = random.Random(f"{kind} {low}")
    out: list[Puzzle] = []
    for _ in range(count * 10):
        data = instance(kind, rng)
        puzzle = shifted_puzzle([data], low) or shifted_puzzle([moved(data, low)], low)
        if puzzle is not None:
            out.append(puzzle)
        if len(out) == count:
            break
    assert out, kind
    return out


def truth(puzzle: Puzzle) -> list[tuple[int, ...]]:
    return [grid for grid in GRIDS if not grid_problems(puzzle, grid)]


@pytest.mark.parametrize("kind", ANY)
def test_native_keeps_the_grids_the_statement_accepts_on_other_values(kind):
    for low in (0, 2):
        for puzzle in cases(kind, low, 3):
            got = api.count(puzzle, "native", limit=300)
            assert got.exhausted and sorted(got.solutions) == truth(puzzle), (low, puzzle.rules)


@pytest.mark.parametrize("engine", ["sat", "pycosat", "cpsat", "z3", "clingo"])
def test_each_solver_family_keeps_those_grids_on_values_from_0(engine):
    need_engine(engine)
    for kind in ANY:
        for puzzle in cases(kind, 0, 1) + cases(kind, 2, 1):
            got = api.count(puzzle, engine, limit=300, timeout=60)
            assert got.exhausted, (engine, kind, got.message)
            assert sorted(got.solutions) == truth(puzzle), (engine, puzzle.rules)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(ANY), st.integers(0, 4), st.randoms(use_true_random=False))
def test_random_rules_of_any_kind_agree_with_the_statement_on_any_values(kind, low, rng):
    puzzle = shifted_puzzle([instance(kind, rng)], low)
    if puzzle is None:
        return
    got = api.count(puzzle, "native", limit=300)
    assert sorted(got.solutions) == truth(puzzle), (low, puzzle.rules)


G9 = Geometry.of_size(9).with_low(0)
SOLVED = api.solve(Puzzle.empty(9), "native").solutions[0]


def drawn_on_zero(rng: random.Random) -> list:
    """Return rules of every kind with a technique taking any values, drawn by the kinds'
    own `sample` and kept when the solution grid (on 0..8) obeys them."""
    out = []
    for cls in kinds().values():
        if not (cls.any_values and cls.technique):
            continue
        for _ in range(40):
            data = cls.sample(rng, 9)
            if data is None and issubclass(cls, OutsideRule):
                data = outside_clue(cls, rng)
            if data is None:
                break
            try:
                rule = rules_from_data([data], G9)[0]
            except BadInput:
                continue
            if not list(rule.violations(SOLVED, G9)):
                out.append(rule)
                break
    return out


def outside_clue(cls, rng: random.Random) -> dict | None:
    """Return a clue of an outside kind at a random place that the solution grid obeys."""
    data = {"kind": cls.kind, "side": rng.choice(SIDES), "index": rng.randint(1, 9)}
    for v in range(0, 200):
        try:
            rule = rules_from_data([{**data, cls.value_field: v}], G9)[0]
        except BadInput:
            continue
        if not list(rule.violations(SOLVED, G9)):
            return {**data, cls.value_field: v}
    return None


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10 ** 6), st.floats(0.1, 0.9))
def test_logic_never_removes_a_true_value_on_values_from_0(draw, keep):
    rng = random.Random(draw)
    for rule in drawn_on_zero(rng):
        cands = [(1 << (v - 1)) | sum(1 << k for k in range(9) if rng.random() < keep)
                 for v in SOLVED]
        found = rule.deduce(G9, cands)
        if found is None:
            continue
        drop, reason = found
        for i, mask in drop.items():
            assert not mask >> (SOLVED[i] - 1) & 1, (rule, reason, i)


def test_classes_are_named_by_the_values_themselves():
    """A 2x2 square missing the remainder-0 class on 0..8 names 0/3/6; a modular line's
    logic names remainders of the values, not of their indices."""
    rule = rules_from_data(["global-modular"], G9)[0]
    grid = [0] * 81
    grid[0], grid[1], grid[9], grid[10] = 2, 3, 5, 6        # values 1, 2, 4, 5
    assert list(rule.violations(tuple(grid), G9)) == [
        "the 2x2 square at r1c1 holds no 0/3/6 (remainder 0) value (global-modular)"]
    line = rules_from_data([{"kind": "modular", "cells": ["r1c1", "r1c2", "r1c3", "r1c4"]}],
                           G9)[0]
    cands = [0b111111111] * 81
    cands[0] = 1 << 0                                        # r1c1 holds 0
    found = line.deduce(G9, cands)
    assert found is not None and "r1c1 (and every third cell on) 0 mod 3" in found[1]


def test_entropic_lines_take_the_thirds_of_the_grid_s_values():
    """On a 6x6 of 0..5 the thirds are 0-1, 2-3, 4-5: native keeps what the statement does."""
    g = Geometry.of_size(6).with_low(0)
    data = [{"kind": "entropic", "cells": ["r1c1", "r1c2", "r1c3", "r2c3"]}]
    puzzle = Puzzle(g, (0,) * 36, rules_from_data(data, g))
    sol = api.solve(puzzle, "native").solutions[0]
    assert not grid_problems(puzzle, sol)
    thirds = [(sol[i] - 1) // 2 for i in (0, 1, 2, 8)]
    assert len(set(thirds[:3])) == 3 and len(set(thirds[1:])) == 3


def test_iss_relation_keys_name_the_values_from_the_lowest():
    """ISS's key counts values by index: its first bit is the lowest value paired with
    itself, so on 0..3 the pair (index 1, index 2) is [0, 1], and it is written back the same."""
    from polydoku.formats.iss import parse_iss, to_iss
    from polydoku.rules.kind.pairwise import pairs_key
    key = pairs_key([(1, 2), (2, 1)], 4)
    puzzle = parse_iss(f".Shape~4x4~0-3.Pair~{key}~R1C1~R1C2")
    (rule,) = puzzle.rules
    assert rule.kind == "pairwise" and sorted(rule.pairs) == [(0, 1), (1, 0)]
    assert f"Pair~{key}~R1C1~R1C2" in to_iss(puzzle)
    sols = api.count(puzzle, "native", limit=300).solutions
    assert sols and all({s[0], s[1]} == {1, 2} for s in sols)     # the values 0 and 1


def test_iss_refuses_what_it_takes_on_values_from_1_only():
    """ISS has entropy by thirds and taxicab distances on 1..9 only: exporting them on 0..8 is
    refused by name, not written for ISS to refuse."""
    from polydoku.formats.iss import to_iss
    g = Geometry.of_size(9).with_low(0)
    for data in (["anti-taxicab"], ["global-entropy"],
                 [{"kind": "entropic", "cells": ["r1c1", "r1c2", "r1c3"]}]):
        puzzle = Puzzle(g, (0,) * 81, rules_from_data(data, g))
        with pytest.raises(BadInput, match=r"values 1\.\.9 only, not 0\.\.8"):
            to_iss(puzzle)


def test_a_sum_cage_of_zeros_and_a_sandwich_between_0_and_8():
    """On 0..8 a sum cage of 0 holds only 0s, and a sandwich's crusts are 0 and 8."""
    g = Geometry.of_size(9).with_low(0)
    rules = rules_from_data([{"kind": "sum-cage", "cells": ["r1c1", "r2c4"], "sum": 0},
                             {"kind": "sandwich", "side": "left", "index": 1, "sum": 0}], g)
    puzzle = Puzzle(g, (0,) * 81, rules)
    sol = api.solve(puzzle, "native").solutions[0]
    assert sol[0] == 1 and sol[12] == 1                   # index 1: the value 0
    row = [g.real(v) for v in sol[:9]]
    assert abs(row.index(0) - row.index(8)) == 1          # nothing between the crusts


# ISS's lunchbox handler (its sandwich too) shifts its sums' value sets by the offset but not
# the distances between the ends it tries (commit e373f98, Lunchbox.initialize): on 0..3 it
# finds no grid for a sandwich of 1 or 3, where one cell of 1 or the cells 1 and 2 lie between
# the 0 and the 3
ISS_OFFSET_FAULTS = {"sandwich", "lunchbox"}


@pytest.mark.tools
def test_iss_counts_what_the_statements_count_on_values_from_0(tmp_path):
    """ISS, a peer with its own reading of each constraint, counts the same grids on a 4x4 of
    values 0..3 (`Shape~4x4~0-3`) for random rules of the kinds both have."""
    from polydoku.formats.iss import to_iss
    from test_iss import ISS_OWN_FAULT, iss
    runner = iss()
    from test_iss import ISS_CHAOS_FROM_ONE        # ISS draws no chaos regions from 0
    named = [k for k in ANY if kinds()[k].iss and k not in ISS_OFFSET_FAULTS | ISS_CHAOS_FROM_ONE]
    drawn = [p for k in named for p in cases(k, 0, 3)]              # each kind alone
    rng = random.Random(30)
    for _ in range(100):                                            # and two at once
        data = [instance(k, rng) for k in rng.sample(named, 2)]
        drawn.append(shifted_puzzle([d for d in data if d is not None], 0))
    cases_ = []
    for puzzle in drawn:
        try:
            if puzzle is not None and puzzle.rules and to_iss(puzzle):
                cases_.append(puzzle)
        except BadInput:
            continue                    # a kind ISS takes on 1..9 only, or a grid it lacks
    answers = runner.count([to_iss(p) for p in cases_], limit=300, cache=str(tmp_path))
    ours = 0
    for puzzle, answer in zip(cases_, answers):
        if ISS_OWN_FAULT in str(answer.get("error", "")):
            continue
        ours += 1
        assert answer.get("solutions") == len(truth(puzzle)), (to_iss(puzzle), answer)
    assert ours >= len(cases_) - 3 and len(cases_) >= 150


@pytest.mark.parametrize("kind", ANY)
def test_rules_on_values_from_0_round_trip_through_json_and_iss(kind):
    """JSON keeps each rule as it is; an ISS string, where ISS has the kind, reads back to a
    puzzle of the same grids."""
    from polydoku.formats.iss import parse_iss, to_iss
    from polydoku.formats.jsonfmt import parse_json, write_json
    for puzzle in cases(kind, 0, 2):
        back = parse_json(write_json(puzzle))
        assert back.geometry == puzzle.geometry and back.rules == puzzle.rules
        try:
            text = to_iss(puzzle)
        except BadInput:
            continue                    # no ISS name, or one ISS takes on 1..9 only
        again = parse_iss(text)
        assert again.geometry.low == 0 and truth(again) == truth(puzzle), text


def _sums_and_indexing():
    from test_values import collection
    from polydoku.formats import read_puzzle
    d = collection()["0-indexed: Sums and indexing"]
    return d, read_puzzle(d["input"])


def test_a_zero_indexed_sums_and_indexing_puzzle_has_more_grids_than_its_published_one():
    """ISS's collection gives one grid for its "0-indexed: Sums and indexing"; by the rules'
    statements it has more, each of which verify (and ISS's own check, below) accepts."""
    d, puzzle = _sums_and_indexing()
    assert not grid_problems(puzzle, tuple(puzzle.alphabet.index(ch) + 1
                                           for ch in d["solution"]))
    out = api.solve(puzzle, "native", max_solutions=2, timeout=60)
    assert out.count == 2
    assert all(not grid_problems(puzzle, grid) for grid in out.solutions)


@pytest.mark.tools
def test_iss_takes_a_second_grid_of_that_puzzle_when_it_is_given_whole(tmp_path):
    """Given whole (every cell a given), another grid of that puzzle is one ISS accepts: its
    search misses it (its sandwich on 0..8, ISS_OFFSET_FAULTS), its rules do not."""
    from test_iss import iss
    d, puzzle = _sums_and_indexing()
    other = next(g for g in api.solve(puzzle, "native", max_solutions=2, timeout=60).solutions
                 if "".join(puzzle.symbol(v) for v in g) != d["solution"])
    whole = d["input"] + ".~" + "~".join(f"R{i // 9 + 1}C{i % 9 + 1}_{puzzle.symbol(v)}"
                                        for i, v in enumerate(other))
    (answer,) = iss().count([whole], limit=2, cache=str(tmp_path))
    assert answer.get("solutions") == 1, answer
