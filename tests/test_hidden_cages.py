"""Hidden cages and cage splitting (reasoning/logic/hidden_cages.py): a house's innies of any
count read as a cage, and a cage split by them. Every hidden cage adds up to its total on the
grid its clues were read off, no step removes a true value (Hypothesis), crafted rows show
each, and a generated killer needs them to be solved by patterns alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_rule45 import board_of, clues_of, grid_of, idx

from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.reasoning.logic import solve_logically
from polydoku.reasoning.logic.catalog import BY_NAME
from polydoku.reasoning.logic.hidden_cages import (find_cage_splitting, find_hidden_cage,
                                                   hidden_cages)

N = 9
DATA = Path(__file__).parent / "data" / "variants"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 5), draw=st.integers(0, 10 ** 6), keep=st.floats(0.2, 0.9),
       placed=st.floats(0.0, 0.6))
def test_hidden_cages_hold_and_no_step_removes_a_true_value(seed, draw, keep, placed):
    grid = grid_of(seed)
    rng = random.Random(draw)
    board = board_of(clues_of(grid, rng), [v if rng.random() < placed else 0 for v in grid])
    for hc in hidden_cages(board.layout):
        assert sum(grid[v] for v in hc.cells) == hc.total, hc
    for i, v in enumerate(grid):
        if not board.value[i]:
            board.cand[i] &= (1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep)
    for _ in range(6):
        step = find_hidden_cage(board) or find_cage_splitting(board)
        if step is None:
            break
        assert step.eliminations and not step.placements
        for i, v in step.eliminations:
            assert grid[i] != v, step.text
            board.eliminate(i, v)
        assert "\n" not in step.text


def test_a_row_less_one_cage_is_a_hidden_cage_of_seven():
    # r1c1 + r1c2 = 17 (8+9): the other seven cells of row 1 add up to 28, which seven
    # different values make only as 1+2+...+7 (the 45 rule's own search stops at six cells)
    b = board_of([{"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 17}])
    step = find_hidden_cage(b)
    assert step is not None and step.technique == "Hidden Cage"
    assert set(step.eliminations) == {(idx(f"r1c{c}"), v) for c in range(3, 10) for v in (8, 9)}
    assert step.text.startswith(
        "Hidden Cage: the cages inside row 1 add up to 17, so its other cells r1c3, r1c4, "
        "r1c5, r1c6, r1c7, r1c8 and r1c9 add up to 28 (a hidden cage), and they can only be "
        "1+2+3+4+5+6+7, so")
    assert step.houses == ("row 1",)
    assert BY_NAME["Hidden Cage"].level == "Medium"


def test_a_value_every_set_of_a_hidden_cage_holds_is_claimed():
    # row 1's seven innies are 1+2+...+7; with 1 left only in r1c7 and r1c8 (box 3) among
    # them, box 3's other cells lose it (the cage r1c1 r1c2 already holds only 8 and 9)
    b = board_of([{"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 17}])
    for c in (1, 2):
        b.cand[idx(f"r1c{c}")] = 0b110000000
    for c in range(3, 10):
        b.cand[idx(f"r1c{c}")] = 0b001111111 if c in (7, 8) else 0b001111110
    step = find_hidden_cage(b)
    assert step is not None and step.technique == "Hidden Cage"
    assert set(step.eliminations) == {(idx(f"r{r}c{c}"), 1) for r in (2, 3) for c in (7, 8, 9)}
    assert ("can only be 1+2+3+4+5+6+7; every one holds 1, which can go only in r1c7 and "
            "r1c8, all in box 3") in step.text
    assert step.houses == ("row 1", "box 3")


def test_a_cage_holding_a_rows_innies_splits():
    # row 1: r1c3..r1c5 = 6 and r1c6..r1c9 = 30 leave r1c1 + r1c2 = 9; the cage r1c1, r1c2,
    # r2c1, r2c2 of 12 holds them, so r2c1 + r2c2 = 3: 1+2
    b = board_of([{"kind": "killer", "cells": ["r1c3", "r1c4", "r1c5"], "sum": 6},
                  {"kind": "killer", "cells": ["r1c6", "r1c7", "r1c8", "r1c9"], "sum": 30},
                  {"kind": "killer", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"], "sum": 12}])
    step = find_cage_splitting(b)
    assert step is not None and step.technique == "Cage Splitting"
    assert set(step.eliminations) == {(idx(c), v) for c in ("r2c1", "r2c2") for v in range(3, 10)}
    assert ("holds them, so its other cells r2c1 and r2c2 add up to 12 - 9 = 3, and they can "
            "only be 1+2") in step.text
    assert BY_NAME["Cage Splitting"].level == "Medium"


# `polydoku generate --seed 77 --clues killer -d 6.5-11 -n 10`, its second puzzle (two givens)
KILLER_CAGES = (
    "r7c9+r8c8+r8c9+r9c7+r9c8=28 r1c6+r1c7+r1c8+r2c8=18 r6c2+r6c3+r6c4+r6c5+r7c2=28 "
    "r2c3+r3c3+r4c3+r5c3=24 r8c4+r9c3+r9c4=21 r1c5+r2c4+r2c5+r3c4=18 r5c5+r5c6=11 "
    "r3c9+r4c8+r4c9=21 r7c3+r7c4+r7c5+r8c3=19 r5c7+r6c6+r6c7+r6c8+r7c6=23 "
    "r4c1+r4c2+r5c1+r5c2+r6c1=26 r3c7+r4c6+r4c7=16 r2c2+r3c2=10 r3c5+r4c4+r4c5+r5c4=12 "
    "r5c8+r5c9+r6c9=11 r1c9+r2c9=12 r8c5+r8c6+r9c5+r9c6=12 r1c1+r1c2=12 r2c6+r2c7+r3c6=19 "
    "r2c1+r3c1=3 r9c9=2 r7c7+r7c8+r8c7=15 r7c1+r8c1+r8c2+r9c1+r9c2=32 r1c3+r1c4=9 r3c8=3")
KILLER_GIVENS = "." * 70 + "8.5" + "." * 8
KILLER_SOLUTION = ("84637921523514896717965243836821759491246587375489362162178435949352178658793"
                   "6142")


def test_cage_splitting_on_a_generated_killer():
    # columns 1 and 2 less their cages leave r6c2 + r7c2 = 7, which the cage of 28 holds:
    # its other cells add up to 21; the whole path is patterns only
    cages = [{"kind": "killer", "cells": c.split("=")[0].split("+"), "sum": int(c.split("=")[1])}
             for c in KILLER_CAGES.split()]
    puzzle = puzzle_from_dict({"size": 9, "givens": KILLER_GIVENS, "rules": cages})
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=30)
    assert path.solved and path.prepared.unique
    assert "".join(map(str, path.board.value)) == KILLER_SOLUTION
    split = [s for s in path.steps if s.technique == "Cage Splitting"]
    assert split and ("so its other cells r6c3, r6c4 and r6c5 add up to 28 - 7 = 21"
                      in split[0].text)


def test_hidden_cage_on_a_published_little_killer():
    # The Barbed Cross (published): box 7 less the little killer of 8 leaves six cells adding
    # up to 37, too many fillings for the 45 rule's search, few sets of different values
    entry = next(e for e in map(json.loads, (DATA / "published.jsonl").read_text().splitlines())
                 if e["id"] == "the-barbed-cross")
    puzzle, solution = puzzle_from_dict(entry["puzzle"]), [int(ch) for ch in entry["solution"]]
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=30)
    used = [s for s in path.steps if s.technique == "Hidden Cage"]
    assert used and "= 37 (a hidden cage), and they can only be 2+5+6+7+8+9 or 3+4+6+7+8+9" \
        in used[0].text
    for s in path.steps:
        assert all(solution[i] != v for i, v in s.eliminations), s.text
