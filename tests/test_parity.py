"""Sum Parity (reasoning/logic/parity.py): a total's parity is the parity of the count of odd
values its cells hold. Every sum it reads holds that on the grid its clues were read off, no
step removes a true value (Hypothesis), crafted cages show one sum and two added together, and
a published zipper puzzle uses it."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_rule45 import board_of, clues_of, grid_of, idx

from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.reasoning.logic import solve_logically
from polydoku.reasoning.logic.board import bits
from polydoku.reasoning.logic.catalog import BY_NAME
from polydoku.reasoning.logic.parity import find_sum_parity, sums

N = 9
DATA = Path(__file__).parent / "data" / "variants"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 5), draw=st.integers(0, 10 ** 6), keep=st.floats(0.2, 0.9),
       placed=st.floats(0.0, 0.6))
def test_parities_hold_and_no_step_removes_a_true_value(seed, draw, keep, placed):
    grid = grid_of(seed)
    rng = random.Random(draw)
    board = board_of(clues_of(grid, rng), [v if rng.random() < placed else 0 for v in grid])
    for s in sums(board.layout):
        assert sum(grid[v] % 2 for v in bits(s.odd_cells)) % 2 == s.rhs % 2, s.words
    for i, v in enumerate(grid):
        if not board.value[i]:
            board.cand[i] &= (1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep)
    for _ in range(6):
        step = find_sum_parity(board)
        if step is None:
            break
        assert step.eliminations and not step.placements
        for i, v in step.eliminations:
            assert grid[i] != v, step.text
            board.eliminate(i, v)
        assert "\n" not in step.text


def test_a_cage_with_two_odd_cells_makes_the_third_even():
    # r1c1 + r1c2 + r1c3 = 12, with r1c1 and r1c2 odd: the cage holds an even count of odd
    # values, so r1c3 is even
    b = board_of([{"kind": "killer", "cells": ["r1c1", "r1c2", "r1c3"], "sum": 12}])
    for cell in ("r1c1", "r1c2"):
        b.cand[idx(cell)] = 0b101010101                  # 1, 3, 5, 7, 9
    step = find_sum_parity(b)
    assert step is not None and step.technique == "Sum Parity"
    assert set(step.eliminations) == {(idx("r1c3"), v) for v in (1, 3, 5, 7, 9)}
    assert step.text.startswith("Sum Parity: the cage ")
    assert ("its cells hold an even count of odd values; of them r1c1 and r1c2 are odd "
            "(placed or by their candidates), which leaves r1c3 even") in step.text
    assert BY_NAME["Sum Parity"].level == "Medium"


def test_two_sums_added_together_leave_one_cell():
    # r1c1 + r1c2 + r1c3 = 12 and r1c1 + r1c2 = 7: added, r1c1 and r1c2 count twice, so
    # r1c3 alone holds an odd count of odd values (19 is odd): it is odd
    b = board_of([{"kind": "killer", "cells": ["r1c1", "r1c2", "r1c3"], "sum": 12},
                  {"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 7}])
    step = find_sum_parity(b)
    assert step is not None
    assert set(step.eliminations) == {(idx("r1c3"), v) for v in (2, 4, 6, 8)}
    assert "added together, the cells counted an odd number of times hold an odd count" \
        in step.text


def test_sum_parity_on_a_published_zipper_puzzle():
    # The Zip That Zips The Zips (published): box 8 against boxes 8 and 9 leaves r8c8 odd;
    # every step of the patterns-only path keeps the published solution
    entry = next(e for e in map(json.loads, (DATA / "published.jsonl").read_text().splitlines())
                 if e["id"] == "the-zip-that-zips-the-zips")
    puzzle, solution = puzzle_from_dict(entry["puzzle"]), [int(ch) for ch in entry["solution"]]
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=20)
    used = [s for s in path.steps if s.technique == "Sum Parity"]
    assert used and "which leaves r8c8 odd" in used[0].text
    for s in path.steps:
        assert all(solution[i] != v for i, v in s.eliminations), s.text
