"""The rating on Sudoku Explainer's scale: for classic puzzles the cheapest-first path and its
number, against ratings serate (Sudoku Explainer 1.2.1's techniques) gave these puzzles; for
variants the hardest step and the path's length; and their properties."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from polydoku.formats import parse_line, read_puzzle
from polydoku.model import Puzzle
from polydoku.problem import build_problem
from polydoku.reasoning.logic import (apply_step, check_step, prepare, solve_logically,
                                      start_board)
from polydoku.reasoning.logic import layout_of
from polydoku.reasoning.logic.difficulty import (SINGLES, difficulty, length_bonus,
                                                 step_difficulty, volume_bonus)
from polydoku.reasoning.logic.step import Step
from polydoku.reasoning.logic.explainer import explainer_path

from conftest import EXAMPLES, data_lines

# (puzzle, serate's ER with SE 1.2.1's techniques, the technique that decides it): generated
# by qqwing, the 17-clue list and top1465 (bench/serate.py's "tune" part)
KNOWN = [
    (".16..5.....8.175.2.5.4...1667....9...9.....5...4....6136...9.2.4.715.3.....7..64.",
     1.2, "Hidden Single"),
    ("9.8.6....74.....62.2....3..1.7.9.......2..7144.2.5.....5....9..37.....816.4.7....",
     1.5, "Hidden Single"),
    (".8.....3...4...6..7..8.5..1..31.74..5..346..9.........3.......4..12.37....64195..",
     1.7, "Direct Pointing"),
    ("2...5...9............148...9.83.21.6..3...2...2.....8.3.......4.4.9.1.6.8.64.73.5",
     2.0, "Direct Hidden Pair"),
    ("9..2..1.6.4.7.....8....9.4..53.9.......471.......5.98..6.9....8.....6.2.3.4..5..7",
     2.3, "Naked Single"),
    ("...4.8....89...2.7...6....141...9.2...7.....493...2.8....9....8.75...4.9...3.6...",
     2.5, "Direct Hidden Triple"),
    ("..42...5.....4.82..6.3.7....5...4...64.....85...6...1....7.3.9..18.9.....3...87..",
     3.4, "Hidden Pair"),
    ("58.1....3..9...1.7.6..9..4....8.6..4..3.4.6..6..5.2....4..8..5.7.5...8..3....9.76",
     6.6, None),
]


@pytest.mark.parametrize("puzzle,er,technique", KNOWN)
def test_the_rating_is_sudoku_explainers(puzzle, er, technique):
    prep = prepare(parse_line(puzzle))
    board = start_board(prep)
    path = explainer_path(board)
    assert path.solved and path.rating == er
    hardest = max(path.steps, key=lambda s: s[0])[1]
    assert technique is None or hardest.technique == technique
    board = start_board(prep)                   # every step holds against the solution
    for _, step in path.steps:
        check_step(step, prep.solution, board)
        apply_step(board, step)
    assert solve_logically(parse_line(puzzle)).rating.difficulty == er


def test_a_naked_single_waits_for_the_hidden_singles():
    # the HoDoKu path takes naked singles first; Sudoku Explainer's takes the cheaper hidden
    # single whenever there is one, so a hidden-singles puzzle stays at 1.2 / 1.5
    puzzle = KNOWN[0][0]
    path = explainer_path(start_board(prepare(parse_line(puzzle))))
    assert {s.technique for _, s in path.steps} <= {"Full House", "Hidden Single"}
    hodoku = solve_logically(parse_line(puzzle))
    assert "Naked Single" in hodoku.rating.counts and hodoku.rating.difficulty == 1.2


def test_a_forcing_net_is_rated_by_its_size():
    # top1465's line 1 needs forcing nets; serate rates it 9.0
    path = solve_logically(parse_line(data_lines("magictour_top1465.txt", 1)[0]))
    assert path.solved and 8.4 <= path.rating.difficulty <= 9.4


def test_a_limited_path_keeps_the_hardest_step_rule():
    stalled = solve_logically(parse_line(data_lines("magictour_top1465.txt", 1)[0]),
                              max_level="Hard")
    assert not stalled.solved and stalled.rating.difficulty == 11.0


@given(st.integers(0, 3000), st.integers(0, 3000))
def test_longer_chains_never_rate_lower(a, b):
    lo, hi = sorted((a, b))
    assert length_bonus(lo) <= length_bonus(hi)


@given(st.integers(0, 60))
def test_more_givens_never_need_a_harder_single(k):
    # a hidden-singles puzzle with more of its solution given stays within the singles
    puzzle = KNOWN[1][0]
    prep = prepare(parse_line(puzzle))
    grid = list(puzzle)
    for i in [i for i, ch in enumerate(puzzle) if ch == "."][:k]:
        grid[i] = str(prep.solution[i])
    path = explainer_path(start_board(prepare(parse_line("".join(grid)))))
    assert path.solved and path.rating <= 1.5


def _steps(names: list[str]) -> list[Step]:
    return [Step(name, (), ((0, 1),), (0,), (), (), name) for name in names]


@given(st.lists(st.sampled_from(["Hidden Single", "Killer Cage", "Naked Pair", "X-Wing"]),
                max_size=80), st.sampled_from(["Killer Cage", "Naked Pair", "Naked Single"]))
def test_a_variant_path_one_step_longer_is_never_easier(names, more):
    lay = layout_of(build_problem(Puzzle.empty(6)))
    steps = _steps(names)
    before = difficulty(steps, lay, True)
    after = difficulty([*steps, *_steps([more])], lay, True)
    assert before <= after < 11.0
    assert volume_bonus(steps) <= 1.0


def test_a_variant_rating_counts_the_hardest_step_and_the_path_length():
    path = solve_logically(read_puzzle(str(EXAMPLES / "miracle.json")))
    lay = path.prepared.layout
    hardest = max(step_difficulty(s, lay) for s in path.steps)
    beyond_singles = sum(s.technique not in SINGLES for s in path.steps)
    assert path.solved and beyond_singles > 8
    assert path.rating.difficulty == round(hardest + volume_bonus(path.steps), 1)
    assert path.rating.difficulty > hardest
