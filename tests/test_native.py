"""The native engine against the shared data sets (samples; the benchmark runs all)."""

import pytest

from polydoku import api
from polydoku.engines import Status
from polydoku.formats import parse_line, read_puzzle
from polydoku.formats.read import read_puzzles
from polydoku.model import Puzzle, parse_rules
from polydoku.verify import is_solution

from conftest import EXAMPLES, data_lines, data_path


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
    # an empty 16x16 counted to a huge limit cannot finish in 0.05 s
    outcome = api.solve(Puzzle.empty(16), max_solutions=10**9, timeout=0.05)
    assert outcome.status is Status.SOLVED and not outcome.exhausted


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
