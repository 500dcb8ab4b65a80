"""The native engine against the shared data sets (samples; the benchmark runs all)."""

import os
from dataclasses import replace

import pytest

from polydoku import api
from polydoku.core import binding, fields
from polydoku.engines import Status
from polydoku.engines.native import compile_problem, initial_candidates, propagate, search
from polydoku.formats import parse_line, read_puzzle
from polydoku.formats.read import read_puzzles
from polydoku.model import Puzzle
from polydoku.rules import parse_rules
from polydoku.problem import AllDifferent, Nogood, Table, build_problem, lower
from polydoku.verify import is_solution

from conftest import EXAMPLES, data_lines, data_path, need_engine


@pytest.fixture(params=["compiled", "python"], autouse=True)
def backend(request, monkeypatch):
    """Run each test on the compiled search and on the pure-Python one."""
    if request.param == "python":
        monkeypatch.setattr(binding, "_compiled", None)
    elif binding._compiled is None:
        if os.environ.get("CI"):
            pytest.fail("the compiled core was not built (CI builds it from deps/debian.txt)")
        pytest.skip("the compiled core was not built here")
    return request.param


def solve_line(line: str):
    return api.solve(parse_line(line), max_solutions=2)


@pytest.mark.parametrize("name, step", [("norvig_top95", 1), ("magictour_top1465", 7),
                                        ("samples_1000/royle_17clue_1000", 5),
                                        ("forum_hardest_1106", 5), ("norvig_hardest", 1)])
def test_solves_to_reference_solution(name, step):
    puzzles = data_lines(f"{name}.txt", step=step)
    solutions = data_lines(f"{name}.solutions.txt", step=step)
    assert len(puzzles) == len(solutions) > 10
    for line, expected in zip(puzzles, solutions):
        outcome = solve_line(line)
        assert outcome.is_unique
        assert "".join(map(str, outcome.solutions[0])) == expected


def test_miracle_has_exactly_one_solution():
    puzzle = read_puzzle(str(EXAMPLES / "miracle.json"))
    outcome = api.count(puzzle)
    assert outcome.count == 1 and outcome.exhausted


def test_empty_4x4_counts_288():
    outcome = api.count(Puzzle.empty(4))
    assert outcome.count == 288 and outcome.exhausted
    assert len(set(outcome.solutions)) == 288


def test_variants_file_all_sizes():
    for entry in read_puzzles(str(data_path("variants/variants.jsonl"))):
        outcome = api.solve(entry.puzzle, max_solutions=2)
        assert outcome.is_unique, entry.puzzle.name
        assert is_solution(entry.puzzle, outcome.solutions[0])


def test_serg_counts_sample():
    lines = data_lines("serg_benchmark.txt", step=97)
    counts = [int(x) for x in data_lines("serg_benchmark.counts.txt", step=97)]
    for line, expected in zip(lines, counts):
        outcome = api.count(parse_line(line), limit=10_000)
        assert outcome.exhausted and outcome.count == expected


def test_tdoku_counts():
    for raw in data_lines("tdoku_test_puzzles_counts.txt"):
        puzzle, count, *rest = raw.split(":")
        outcome = api.count(parse_line(puzzle), limit=5000)
        assert outcome.exhausted and outcome.count == int(count)
        if rest and rest[0]:
            assert "".join(map(str, outcome.solutions[0])) == rest[0]


def test_timeout_is_a_status():
    # an empty 16x16 counted to a huge limit cannot finish; what it found so far is kept
    api.solve(Puzzle.empty(16))                      # compile outside the timed run
    outcome = api.solve(Puzzle.empty(16), max_solutions=10**9, timeout=0.3)
    assert outcome.status is Status.SOLVED and not outcome.exhausted
    assert outcome.message.startswith("timed out") and outcome.count >= 1


def test_timeout_before_any_solution_is_unknown():
    # the clock is read every 64 nodes; an empty 16x16 needs ~180 nodes to its first solution
    outcome = search(build_problem(Puzzle.empty(16)), 1, timeout=1e-9)
    assert outcome.status is Status.UNKNOWN and outcome.solutions == []
    assert not outcome.exhausted and outcome.message.startswith("timed out")


def test_giving_up_names_an_engine_that_proves_such_puzzles():
    need_engine("sat")
    outcome = search(build_problem(Puzzle.empty(16)), 1, timeout=1e-9)
    assert outcome.message == ("timed out; sat learns from its conflicts and proves puzzles "
                               "like this one: try --engine sat")


def test_equal_givens_in_a_unit_name_both_cells():
    givens = [0] * 81
    givens[0] = givens[5] = 3
    outcome = api.solve(Puzzle.empty(9).with_givens(givens))
    assert outcome.status is Status.UNSATISFIABLE
    assert "r1c1 and r1c6 both hold 3 (row 1)" in outcome.message


def test_rules_on_any_size():
    for size in (4, 6, 8, 12):
        puzzle = Puzzle.empty(size, parse_rules("diagonal"))
        outcome = api.solve(puzzle)
        assert outcome.status is Status.SOLVED


RULE_SETS = ["", "anti-knight", "anti-king", "non-consecutive", "diagonal",
             "anti-knight,anti-king,non-consecutive"]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_field_view_and_cell_view_reach_the_same_fixpoint(rules):
    # the search's packed fields and the reasoning's per-cell lists run the same rules
    for line in data_lines("norvig_top95.txt", step=19) + data_lines("norvig_easy50.txt", step=10):
        problem = build_problem(parse_line(line, rules=parse_rules(rules)))
        C = compile_problem(problem)
        fast = initial_candidates(problem, C)
        cand = [C.full] * C.nvars
        for var, value in problem.givens:
            cand[var] &= 1 << (value - 1)
        ok = all(cand) and propagate(cand, [v for v, _ in problem.givens], C)
        assert (fast is None) == (not ok)
        if ok:
            assert fast == cand


@pytest.mark.parametrize("rules", ["", "non-consecutive", "anti-king,diagonal"])
def test_lowered_problem_counts_the_same(rules):
    puzzle = parse_line("1...............", rules=parse_rules(rules))
    problem = build_problem(puzzle)
    lowered = lower(problem, kinds=())
    assert AllDifferent not in lowered.kinds()
    a, b = search(problem, 10_000), search(lowered, 10_000)
    assert a.exhausted and b.exhausted
    assert sorted(a.solutions) == sorted(b.solutions)
    assert all(is_solution(puzzle, s) for s in a.solutions)


def test_tables_and_nogoods_prune():
    # 4x4, r1c1 and r1c2 must be one of (1, 2), (3, 4); and r1c1=1 forbids r4c4=4
    base = build_problem(Puzzle.empty(4))
    extra = (Table((0, 1), ((1, 2), (3, 4)), "pair"), Nogood(0, 1, 15, 4, "no"))
    problem = replace(base, constraints=base.constraints + extra)
    outcome = search(problem, 1000)
    assert outcome.exhausted and outcome.count > 0
    for s in outcome.solutions:
        assert (s[0], s[1]) in ((1, 2), (3, 4)) and not (s[0] == 1 and s[15] == 4)
    everything = search(base, 1000).solutions
    assert outcome.count == sum((s[0], s[1]) in ((1, 2), (3, 4)) and not (s[0] == 1 and s[15] == 4)
                                for s in everything)


def test_clashing_givens_inside_the_engine():
    problem = build_problem(parse_line("11" + "." * 14))
    outcome = search(problem, 5)
    assert outcome.status is Status.UNSATISFIABLE and outcome.exhausted
    assert initial_candidates(problem, compile_problem(problem)) is None


def test_stats_count_nodes_and_guesses():
    # a forum-hardest puzzle: neither search settles it without guessing
    outcome = search(build_problem(parse_line(data_lines("forum_hardest_1106.txt")[0])), 2)
    assert outcome.is_unique
    assert outcome.stats["nodes"] > outcome.stats["guesses"] >= 1


def test_empty_25x25_solves():
    outcome = api.solve(Puzzle.empty(25), max_solutions=2)
    assert outcome.count == 2 and not outcome.exhausted


def test_without_mask_cache_masks_are_rebuilt(monkeypatch):
    # huge grids stop caching masks past a memory budget; the answers must not change
    # (the mask cache is the pure-Python search's, whichever backend the fixture chose)
    monkeypatch.setattr(binding, "_compiled", None)
    monkeypatch.setattr(fields, "MASK_CACHE_BYTES", 0)
    problem = lower(build_problem(Puzzle.empty(4, parse_rules("diagonal"))), kinds=())
    outcome = search(problem, 1000)
    assert outcome.exhausted and outcome.count == 48
    assert all(m is None for m in compile_problem(problem).core.masks)
