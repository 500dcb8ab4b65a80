"""True candidates agree with the union of all solutions, enumerated by `api.count` and by the
independent checker (tests/test_explain_checker.py), without enumerating them itself."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import EXAMPLES, data_lines
from polydoku import api
from polydoku.engines import Status
from polydoku.formats.read import read_puzzle
from polydoku.reasoning.candidates import true_candidates
from test_explain_checker import Checker, givens_of


def serg_sample() -> list[tuple[str, int]]:
    """Return every 1250th serg_benchmark puzzle with its stated number of solutions."""
    lines = data_lines("serg_benchmark.txt", step=1250)
    counts = data_lines("serg_benchmark.counts.txt", step=1250)
    return list(zip(lines, map(int, counts)))


def value_counts(solutions, ncells) -> Counter:
    return Counter((i, s[i]) for s in solutions for i in range(ncells))


@pytest.mark.parametrize("line, count", serg_sample())
def test_true_candidates_are_the_union_of_all_solutions(line, count):
    p = read_puzzle(line)
    result = true_candidates(p)
    everything = api.count(p)
    assert everything.exhausted and everything.count == count
    assert result.status is Status.SOLVED
    assert result.solutions_seen < count                        # it did not enumerate them all
    counts = value_counts(everything.solutions, 81)
    for i in range(81):
        assert result.values[i] == {v for v in range(1, 10) if counts[(i, v)]}, f"cell {i}"
    independent = Checker(p).solutions(givens_of(p), limit=count + 1)
    assert len(independent) == count
    assert value_counts(independent, 81).keys() == counts.keys()


@pytest.mark.parametrize("k", [2, 5])
def test_at_least_k(k):
    line, count = serg_sample()[0]         # 872 solutions: far more than k per value needs
    p = read_puzzle(line)
    counts = value_counts(api.count(p).solutions, 81)
    result = true_candidates(p, at_least=k)
    for i in range(81):
        assert result.values[i] == {v for v in range(1, 10) if counts[(i, v)] >= k}
        for v in result.values[i]:
            assert result.counts[(i, v)] >= k
    assert result.solutions_seen < count


def test_unique_puzzle_candidates_are_its_solution():
    p = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    (solution,) = api.count(p).solutions
    result = true_candidates(p)
    assert [set(v) for v in result.values] == [{x} for x in solution]


def test_variant_puzzle_and_unsolvable():
    p = read_puzzle(str(EXAMPLES / "miracle.json"))
    (solution,) = api.count(p).solutions
    assert [set(v) for v in true_candidates(p).values] == [{x} for x in solution]
    unsat = next(ln.split(":")[0] for ln in data_lines("tdoku_test_puzzles_counts.txt")
                 if ln.split(":")[1] == "0")
    result = true_candidates(read_puzzle(unsat))
    assert result.status is Status.UNSATISFIABLE and result.total == 0


def test_small_grid_against_brute_force():
    p = read_puzzle("12.." + "." * 12)
    everything = Checker(p).solutions(givens_of(p), limit=1000)
    counts = value_counts(everything, 16)
    result = true_candidates(p)
    assert [set(v) for v in result.values] == [
        {v for v in range(1, 5) if counts[(i, v)]} for i in range(16)]
