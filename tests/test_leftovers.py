"""The Law of Leftovers (reasoning/logic/leftovers.py): never removes a true value (Hypothesis:
a generated jigsaw's layout and solution, turned about the diagonal or not, random candidate
states that keep the solution), says what it sees on a small layout, and takes a generated
jigsaw from forcing nets to patterns."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.problem import build_problem
from polydoku.reasoning.logic import Board, layout_of, solve_logically
from polydoku.reasoning.logic.catalog import BY_NAME
from polydoku.reasoning.logic.leftovers import find_law_of_leftovers

N = 9


def name(i: int) -> str:
    return f"r{i // N + 1}c{i % N + 1}"


def jigsaw(regions) -> dict:
    return {"size": N, "givens": "." * (N * N),
            "regions": [[name(i) for i in range(N * N) if regions[i] == k] for k in range(N)]}


def test_one_cell_in_and_one_out_hold_the_same_value():
    # boxes, but r3c3 swapped with r4c3 (box 1 takes r4c3, box 4 takes r3c3): rows 1-3 less
    # boxes 1-3 leave r3c3 inside, r4c3 outside; r4c3 without 5 takes 5 from r3c3
    regions = [(r // 3) * 3 + c // 3 for r in range(N) for c in range(N)]
    regions[2 * N + 2], regions[3 * N + 2] = 3, 0
    puzzle = puzzle_from_dict(jigsaw(regions))
    board = Board(layout_of(build_problem(puzzle)), [0] * (N * N))
    board.cand[3 * N + 2] &= ~(1 << 4)
    step = find_law_of_leftovers(board)
    assert step is not None and step.technique == "Law of Leftovers"
    assert [(name(i), v) for i, v in step.eliminations] == [("r3c3", 5)]
    assert step.text.startswith("Law of Leftovers: row")
    assert "(r3c3) hold the same values as the cells left outside (r4c3)" in step.text
    assert BY_NAME["Law of Leftovers"].level == "Medium"


REGIONS = ("r1c1.r1c2.r1c3.r2c1.r2c2.r2c3.r3c1.r3c2.r3c3 r1c4.r1c5.r1c6.r2c4.r2c5.r2c6.r3c4.r3c6."
           "r3c7 r1c7.r1c8.r1c9.r2c7.r2c8.r2c9.r3c8.r3c9.r4c9 r3c5.r4c4.r4c5.r5c4.r5c5.r5c6.r5c7."
           "r6c4.r6c5 r4c1.r4c2.r4c3.r5c1.r5c2.r5c3.r6c2.r7c2.r8c2 r4c6.r4c7.r4c8.r5c8.r5c9.r6c6."
           "r6c7.r6c8.r6c9 r6c1.r7c1.r8c1.r9c1.r9c2.r9c3.r9c4.r9c5.r9c6 r6c3.r7c3.r7c4.r7c5.r8c3."
           "r8c4.r8c5.r8c6.r8c7 r7c6.r7c7.r7c8.r7c9.r8c8.r8c9.r9c7.r9c8.r9c9")


def test_a_generated_jigsaw_is_solved_by_patterns_with_it():
    # `polydoku generate --jigsaw --seed 5 -d 5-11`, its fifth puzzle: without the Law of
    # Leftovers its path needed forcing nets
    puzzle = puzzle_from_dict({
        "size": N, "regions": [r.split(".") for r in REGIONS.split()],
        "givens": "............5.1.6......9....2..3......6.......18.7.2.....1..73...5.6....1..2....."})
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=20)
    assert path.solved and path.prepared.unique
    assert "".join(map(str, path.board.value)) == SOLUTION
    assert any(s.technique == "Law of Leftovers" for s in path.steps)
    without = solve_logically(puzzle, max_level="Unfair", exclude=["Law of Leftovers"],
                              check=True, max_seconds=20)
    assert not without.solved

SOLUTION = "869324175734581962251749683527936814396812547418673259642195738985467321173258496"


@settings(max_examples=30, deadline=None)
@given(turned=st.booleans(), draw=st.integers(0, 10 ** 6), keep=st.floats(0.2, 0.9),
       placed=st.floats(0.0, 0.6))
def test_no_step_removes_a_true_value(turned, draw, keep, placed):
    rng = random.Random(draw)
    regions = [r.split(".") for r in REGIONS.split()]
    grid = [int(ch) for ch in SOLUTION]
    if turned:      # columns for rows: the same layout and solution about the diagonal
        regions = [[f"r{x.split('c')[1]}c{x.split('c')[0][1:]}" for x in r] for r in regions]
        grid = [grid[(i % N) * N + i // N] for i in range(N * N)]
    puzzle = puzzle_from_dict({"size": N, "givens": "." * (N * N), "regions": regions})
    board = Board(layout_of(build_problem(puzzle)),
                  [v if rng.random() < placed else 0 for v in grid])
    for i, v in enumerate(grid):
        if not board.value[i]:
            board.cand[i] &= (1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep)
    for _ in range(6):
        step = find_law_of_leftovers(board)
        if step is None:
            break
        for i, v in step.eliminations:
            assert grid[i] != v, step.text
            board.eliminate(i, v)
