"""The compiled core and the pure-Python search agree: same solutions, same counts, on every
data set, on the published variant puzzles, on random rule mixes and on random problems.

The rest of the suite runs on the compiled core (the default where it is built); here each
answer is asked of both, so the fallback a machine without a compiler gets is held to the
same answers.
"""

from __future__ import annotations

import collections
import itertools
import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import data_lines
from polydoku.core import binding, cells, filters
from polydoku.engines import native
from polydoku.formats import parse_line
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.problem import Linear, build_problem
from test_properties import QUICK, small_problems
from test_rule_kinds import KIND_NAMES, all_grids, instance, puzzle_with
from polydoku.model import Geometry
from polydoku.rules import rule_from_data
from polydoku.rules.arrows import Quadruple
from polydoku.verify import is_solution

PUBLISHED = [json.loads(line) for line in
             (Path(__file__).parent / "data" / "variants" / "published.jsonl").read_text()
             .splitlines()]
# the pure-Python search takes a minute or more on these (the compiled one well under 3 s)
PYTHON_SLOW = {"leven", "raw-spaghetti", "the-barbed-cross",
               "the-zip-that-zips-the-zips", "pill-arrow-sudoku", "arrow", "little-killer-sudoku"}


@pytest.fixture(autouse=True)
def compiled():
    """The compiled core must be here (in CI it always is: tasks.py installs the compiler)."""
    if binding._compiled is None:
        if os.environ.get("CI"):
            pytest.fail("the compiled core was not built (CI builds it from deps/debian.txt)")
        pytest.skip("the compiled core was not built here")


def both(problem, limit: int, monkeypatch) -> tuple:
    """Return the (solutions, exhausted, count) of the compiled and of the Python search."""
    out = []
    for module in (binding._compiled, None):
        monkeypatch.setattr(binding, "_compiled", module)
        o = native.search(problem, limit)
        # free auxiliaries (chaos regions): each search keeps the drawing it meets first
        found = [problem.grid(s) for s in o.solutions] if problem.free_aux else o.solutions
        out.append((sorted(found), o.exhausted, o.count, o.status))
    monkeypatch.undo()
    return tuple(out)


def test_the_engine_says_which_search_it_runs():
    assert native.backend() == "compiled"
    assert "compiled search" in native.NativeEngine().available().version


@pytest.mark.parametrize("name, step", [
    ("norvig_easy50", 1), ("norvig_top95", 1), ("norvig_hardest", 1),
    ("magictour_top1465", 15), ("forum_hardest_1106", 8),
    ("forum_hardest_1905_11plus", 500), ("royle_17clue", 500),
    ("samples_1000/royle_17clue_1000", 25),
    ("samples_1000/magictour_top1465_first1000", 25),
    ("samples_1000/forum_hardest_1905_11plus_1000", 25)])
def test_same_solutions_on_every_data_set(name, step, monkeypatch):
    puzzles = data_lines(f"{name}.txt", step=step)
    expected = data_lines(f"{name}.solutions.txt", step=step)
    assert len(puzzles) >= 10
    for line, solution in zip(puzzles, expected):
        fast, slow = both(build_problem(parse_line(line)), 2, monkeypatch)
        assert fast == slow, line
        assert fast[1] and fast[2] == 1 and "".join(map(str, fast[0][0])) == solution


def test_same_counts_on_serg_benchmark(monkeypatch):
    puzzles = data_lines("serg_benchmark.txt", step=250)
    counts = [int(c) for c in data_lines("serg_benchmark.counts.txt", step=250)]
    for line, count in zip(puzzles, counts):
        fast, slow = both(build_problem(parse_line(line)), count + 1, monkeypatch)
        assert fast == slow and fast[1] and fast[2] == count, line


def test_same_counts_on_tdoku_test_puzzles(monkeypatch):
    for entry in data_lines("tdoku_test_puzzles_counts.txt"):
        line, count, *_ = entry.split(":")
        fast, slow = both(build_problem(parse_line(line)), int(count) + 1, monkeypatch)
        assert fast == slow and fast[2] == int(count), line


@pytest.mark.parametrize("entry", [e for e in PUBLISHED if e["id"] not in PYTHON_SLOW],
                         ids=lambda e: e["id"])
def test_same_answer_on_published_variants(entry, monkeypatch):
    problem = build_problem(puzzle_from_dict(entry["puzzle"]))
    fast, slow = both(problem, 2, monkeypatch)
    assert fast == slow and fast[2] == 1
    assert "".join(map(str, problem.grid(fast[0][0]))) == entry["solution"]


def test_the_hardest_published_variants_solve_on_the_compiled_core():
    for entry in PUBLISHED:
        if entry["id"] in PYTHON_SLOW:
            problem = build_problem(puzzle_from_dict(entry["puzzle"]))
            out = native.search(problem, 2, timeout=120)
            assert out.exhausted and out.count == 1, entry["id"]
            assert "".join(map(str, problem.grid(out.solutions[0]))) == entry["solution"]


@QUICK
@given(small_problems())
def test_same_solutions_on_random_problems(problem):
    with pytest.MonkeyPatch.context() as mp:
        fast, slow = both(problem, 10**6, mp)
    assert fast == slow


@pytest.mark.parametrize("seed", range(12))
def test_same_solutions_on_random_rule_mixes(seed, monkeypatch):
    rng = random.Random(seed)
    kinds = rng.sample(KIND_NAMES, 3)
    rules = [r for r in (instance(k, rng) for k in kinds) if r is not None]
    problem = build_problem(puzzle_with(rules))
    fast, slow = both(problem, 1000, monkeypatch)
    assert fast == slow, rules


def test_count_with_and_singles_agree(monkeypatch):
    line = data_lines("norvig_easy50.txt")[0]
    problem = build_problem(parse_line(line))
    answers = []
    for module in (binding._compiled, None):
        monkeypatch.setattr(binding, "_compiled", module)
        answers.append((native.count_with(problem, problem.givens[:-5], 50),
                        native.count_with(problem, (), 3),
                        native.solved_by_singles(problem),
                        native.solved_by_singles(problem.with_givens(problem.givens[:20]))))
    assert answers[0] == answers[1]
    assert answers[0][1] == 3 and answers[0][2] is True


def test_a_deadline_stops_the_compiled_search():
    problem = build_problem(parse_line("." * 81))
    out = native.search(problem, 10**9, timeout=0.2)
    assert out.message.startswith("timed out") and not out.exhausted and out.count > 0


def _propagations(problem, seed: int, tries: int = 40):
    """Yield (cands, queue) positions of a problem: its initial candidates with one random
    candidate placed (what a forcing net asks)."""
    rng = random.Random(seed)
    C = native.compile_problem(problem)
    start = native.initial_candidates(problem, C)
    assert start is not None
    open_vars = [v for v in range(problem.nvars) if start[v] & (start[v] - 1)]
    for _ in range(tries):
        if not open_vars:
            return
        v = rng.choice(open_vars)
        bits = [1 << k for k in range(64) if start[v] >> k & 1]
        cand = start[:]
        cand[v] = rng.choice(bits)
        yield C, cand, [v]


@pytest.mark.parametrize("source", ["forum_hardest_1106", "magictour_top1465", "variants"])
def test_propagate_reaches_the_same_fixpoint_on_both(source, monkeypatch):
    if source == "variants":
        problems = [build_problem(puzzle_from_dict(e["puzzle"])) for e in PUBLISHED]
    else:
        problems = [build_problem(parse_line(line)) for line in data_lines(f"{source}.txt",
                                                                           limit=8)]
    compared = failed = 0
    for k, problem in enumerate(problems):
        for C, cand, queue in _propagations(problem, k):
            fast, slow = cand[:], cand[:]
            ok_fast = native.propagate(fast, queue, C)
            ok_slow = cells._propagate_python(slow, queue, C)
            assert ok_fast == ok_slow, (source, k)
            if ok_fast:
                assert fast == slow, (source, k)
            compared += 1
            failed += not ok_fast
    assert compared > 100 and 0 < failed < compared


@QUICK
@given(st.integers(2, 4), st.integers(0, 10 ** 9))
def test_a_sum_of_different_cells_keeps_exactly_the_values_some_filling_uses(k, seed):
    # the search's filter of a killer cage (value sets), against every filling by brute force
    rng = random.Random(seed)
    total = rng.randint(k, 9 * k)
    cands = [rng.randint(1, 511) for _ in range(k)]
    s = filters._Sum(Linear(tuple(range(k)), (1,) * k, total), [9] * k)
    fillings = [vals for vals in itertools.product(range(1, 10), repeat=k)
                if len(set(vals)) == k and sum(vals) == total
                and all(cands[i] >> (v - 1) & 1 for i, v in enumerate(vals))]
    got = filters._DistinctSum(s).support(cands)
    if not fillings:
        assert got is None
    else:
        assert got == [sum({1 << (vals[i] - 1) for vals in fillings}) for i in range(k)]


@QUICK
@given(st.integers(2, 6), st.integers(0, 10 ** 9))
def test_a_sum_over_groups_of_different_cells_keeps_exactly_the_values_some_filling_uses(
        k, seed):
    # the compiled search's filter of a sum whose cells fall into groups that differ (a
    # little killer, a region-sum segment beside its total), against every filling
    rng = random.Random(seed)
    coefs = [rng.choice((1, 1, -1)) for _ in range(k)]
    dsizes = [9] * k
    if rng.random() < 0.3:                         # a total of larger domain, as region-sum's
        dsizes[-1], coefs[-1] = 18, -1
    peers = [set() for _ in range(k)]
    for i in range(k):
        for j in range(i):
            if rng.random() < 0.6:
                peers[i].add(j)
                peers[j].add(i)
    lin = Linear(tuple(range(k)), tuple(coefs), rng.randint(-20, 40))
    s = filters._Sum(lin, dsizes)
    groups = binding._sum_groups(s, [tuple(p) for p in peers], dsizes)
    if groups is None:
        return
    cands = [rng.randint(1, (1 << d) - 1) for d in dsizes]
    core = binding._compiled.Core(dsizes, 0, [()] * k, [], [], [],
                                 [_core_sum(s, groups)], [])
    differ = [(ts[i], ts[j]) for _, _, ts in groups for i in range(len(ts)) for j in range(i)]
    fillings = [vals for vals in itertools.product(*(range(1, d + 1) for d in dsizes))
                if lin.holds(vals) and all(vals[a] != vals[b] for a, b in differ)
                and all(cands[i] >> (v - 1) & 1 for i, v in enumerate(vals))]
    got = core.propagate(cands, [], search=True)
    s.groups = groups                              # the fallback's filter says the same
    assert filters._GroupSum(s).support(cands) == got
    if not fillings:
        assert got is None
    else:
        assert got == [sum({1 << (vals[i] - 1) for vals in fillings}) for i in range(k)]


def _core_sum(s, groups) -> tuple:
    """Return a sum as the compiled core reads it, with its groups."""
    top = sum(max(sh) for sh in s.shifts)
    return (s.vars, s.shifts, s.target.to_bytes((top + 64) // 64 * 8, "little"), top, 0,
            groups)


@pytest.mark.parametrize("seed", range(8))
def test_same_counts_on_killer_cages_and_little_killers(seed, monkeypatch):
    # cages are filtered by value sets in both searches; counts to 50 must agree
    rng = random.Random(seed)
    kinds = ["killer", "killer", rng.choice(["little-killer", "thermometer", "arrow"])]
    rules = [r for r in (instance(k, rng) for k in kinds) if r is not None]
    problem = build_problem(puzzle_with(rules))
    assert any(s.distinct for s in native.compile_problem(problem).linears)
    fast, slow = both(problem, 50, monkeypatch)
    assert fast == slow, rules


@pytest.mark.parametrize("seed", range(8))
def test_killer_counts_are_those_of_every_grid(seed, monkeypatch):
    # a cage's values every filling holds leave the cells seeing all its places, and a unit
    # holding the cage puts there what the unit's other cells cannot hold: both searches,
    # with that reasoning, count exactly the grids the rules accept
    rng = random.Random(seed)
    rules = [r for r in (instance("killer", rng) for _ in range(rng.randint(2, 4)))
             if r is not None]
    problem = build_problem(puzzle_with(rules))
    fast, slow = both(problem, 300, monkeypatch)
    assert fast == slow, rules
    assert fast[2] == sum(1 for g in all_grids() if is_solution(problem.puzzle, g)), rules


def test_a_puzzle_of_thermometers_alone_counts_unique_by_branching_on_places():
    # ISS's "A kind of magic": nineteen two-cell thermometers and no given; the compiled
    # search branches on a value's two places in a unit where cells keep many candidates,
    # and still counts exactly: one grid, the published one
    from polydoku.formats import read_puzzle
    rows = [json.loads(line) for line in
            (Path(__file__).parent / "data" / "iss_collection.jsonl").read_text().splitlines()]
    entry = next(d for d in rows if d["name"] == "A kind of magic")
    problem = build_problem(read_puzzle(entry["input"]))
    out = native.search(problem, 2, timeout=60)
    assert out.exhausted and len(out.solutions) == 1
    assert "".join(map(str, out.solutions[0][:81])) == entry["solution"]


def search_fixpoints(puzzle, givens=()) -> list:
    """Return the search's fixpoint of a puzzle with `givens` placed, compiled and in Python."""
    problem = build_problem(puzzle)
    out = []
    for module in (binding._compiled, None):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(binding, "_compiled", module)
            C = native.compile_problem(problem)
            out.append(cells.search_fixpoint(problem, C, list(problem.givens) + list(givens)))
    return out


def test_a_cages_required_values_leave_the_cells_seeing_all_their_places():
    # r1c3 + r1c4 + r2c4 = 6 holds 1, 2 and 3; r1c5 and r1c6 see all three cells (row 1 and
    # box 2), so hold none of them; r1c7 and r2c5 see only some, so keep them
    killer = {"kind": "killer", "cells": ["r1c3", "r1c4", "r2c4"], "sum": 6}
    puzzle = puzzle_from_dict({"size": 9, "givens": "." * 81, "rules": [killer]})
    for cands in search_fixpoints(puzzle):
        assert all(cands[v] == 0b111 for v in (2, 3, 12))
        assert all(not cands[v] & 0b111 for v in (4, 5))
        assert all(cands[v] & 0b111 == 0b111 for v in (6, 13))


def test_a_cage_holds_what_the_rest_of_its_unit_cannot():
    # r1c1..r1c3 = 15, and 9 is kept out of the rest of row 1 (9s in r2c5 and r3c8): the
    # cage holds a 9, so its others add up to 6 (1 + 5 or 2 + 4)
    killer = {"kind": "killer", "cells": ["r1c1", "r1c2", "r1c3"], "sum": 15}
    givens = ["."] * 81
    givens[9 + 4] = givens[18 + 7] = "9"
    puzzle = puzzle_from_dict({"size": 9, "givens": "".join(givens), "rules": [killer]})
    for cands in search_fixpoints(puzzle):
        assert all(cands[v] & ~0b100011011 == 0 for v in (0, 1, 2))
        assert cands[0] | cands[1] | cands[2] == 0b100011011


@QUICK
@given(st.lists(st.integers(1, 9), min_size=2, max_size=4), st.integers(0, 7), st.integers(0, 7))
def test_a_quadruple_implies_exactly_its_fillings(values, r, c):
    # what search adds for a quadruple: every filling of its block, checked by brute force
    g = Geometry.of_size(9)
    cells = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
    rule = Quadruple(cells, tuple(sorted(values)))
    idx = [g.index(x) for x in cells]
    need = collections.Counter(values)
    truth = [t for t in itertools.product(range(1, 10), repeat=4)
             if all(t[i] != t[j] for i in range(4) for j in range(i) if idx[j] in g.peers[idx[i]])
             and all(collections.Counter(t)[v] >= k for v, k in need.items())]
    implied = rule.implied(g)
    if len(truth) > Quadruple.MAX_FILLINGS:
        assert implied == []
    else:
        assert implied == [(cells, truth)] or sorted(implied[0][1]) == truth


@pytest.mark.parametrize("seed", range(6))
def test_same_counts_with_the_tables_quadruples_imply(seed, monkeypatch):
    rng = random.Random(seed)
    rules = [r for r in (instance(k, rng) for k in ["quadruple", "quadruple", "killer"])
             if r is not None]
    for rule in rules[:2]:
        rule["values"] = rule["values"] + [rng.randint(1, 4)]
    problem = build_problem(puzzle_with(rules))
    fast, slow = both(problem, 300, monkeypatch)
    assert fast == slow, rules
    assert fast[2] == sum(1 for _ in all_grids() if is_solution(problem.puzzle, _)), rules


@pytest.mark.parametrize("rule", [
    {"kind": "renban", "cells": ["r1c1", "r1c2", "r2c2", "r3c2"]},
    {"kind": "renban", "cells": ["r5c5", "r5c6"]},
    {"kind": "arrow", "circle": ["r1c1"], "cells": ["r1c2", "r1c3", "r2c3"]},
    {"kind": "arrow", "circle": ["r5c5"], "cells": ["r6c6", "r7c7"]},
])
def test_renban_and_arrow_tables_hold_exactly_the_fillings_the_rule_accepts(rule):
    # what search adds: every filling of the rule's cells that its statement accepts, cells
    # sharing a house differing, against brute force over all fillings
    g = Geometry.of_size(9)
    r = rule_from_data(rule, g)
    (cells, table), = r.implied(g)
    idx = [g.index(c) for c in cells]
    truth = []
    for t in itertools.product(range(1, 10), repeat=len(cells)):
        if any(t[i] == t[j] for i in range(len(t)) for j in range(i)
               if idx[j] in g.peers[idx[i]]):
            continue
        grid = [0] * 81
        for i, v in zip(idx, t):
            grid[i] = v
        if not list(r.violations(grid, g)):
            truth.append(t)
    assert sorted(table) == truth


@pytest.mark.parametrize("seed", range(6))
def test_same_counts_with_the_tables_renban_and_arrows_imply(seed, monkeypatch):
    rng = random.Random(seed)
    rules = [r for r in (instance(k, rng) for k in ["renban", "arrow", "thermometer"])
             if r is not None]
    problem = build_problem(puzzle_with(rules))
    assert native.compile_problem(problem).implied
    fast, slow = both(problem, 300, monkeypatch)
    assert fast == slow, rules
    assert fast[2] == sum(1 for _ in all_grids() if is_solution(problem.puzzle, _)), rules


def test_a_sum_groups_its_cells_by_the_house_that_holds_most_of_them():
    # a line r1c1, r1c4, r2c2, r2c3 on a 9x9: read in order, r1c1 and r1c4 (row 1) would
    # make a group and r2c2, r2c3 another; the box holding three of them comes first, so the
    # filter knows those three add up to at least 1 + 2 + 3
    g = Geometry.of_size(9)
    cells = [g.index(c) for c in ((0, 0), (0, 3), (1, 1), (1, 2))]
    C = native.compile_problem(build_problem(parse_line("." * 81)))
    s = filters._Sum(Linear(tuple(cells), (1, 1, 1, 1), 20), [9] * 4)
    assert binding._sum_groups(s, C.peers, [9] * 81) == [(1, 9, (0, 1)), (1, 9, (2, 3))]
    assert binding._sum_groups(s, C.peers, [9] * 81, C.units) == [(1, 9, (0, 2, 3)),
                                                                   (0, 0, (1,))]
