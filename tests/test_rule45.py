"""The 45 rule and Innies and Outies (reasoning/logic/rule45.py): houses against the sums of
known total, on a crafted band, on random grids (Hypothesis: every equation holds on the grid
its clues were read off, and no step removes a true value), and on published puzzles whose
paths use them."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku.engines.native import random_solution
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.model import Geometry, Puzzle, parse_cell
from polydoku.problem import build_problem
from polydoku.reasoning.logic import Board, layout_of, solve_logically
from polydoku.reasoning.logic.rule45 import equations, find_innies_outies, find_rule45
from polydoku.rules import rules_from_data
from polydoku.rules.cells import Killer

N = 9
G = Geometry.of_size(N)
DATA = Path(__file__).parent / "data" / "variants"


def idx(name: str) -> int:
    r, c = parse_cell(name)
    return r * N + c


def board_of(rules: list[dict], values=None) -> Board:
    puzzle = Puzzle.empty(N, rules_from_data(rules, G))
    return Board(layout_of(build_problem(puzzle)), values or [0] * N * N)


def test_innies_of_two_rows():
    # rows 1-2 of a valid band: 2 3 4 5 6 7 8 9 1 over 5 6 7 8 9 1 3 4 2, columns 1-8 caged in
    # dominoes; the two rows add up to 90, the dominoes to 87, so r1c9 + r2c9 = 3
    top, below = "234567891", "567891342"
    rules = [{"kind": "killer", "cells": [f"r1c{c}", f"r2c{c}"],
              "sum": int(top[c - 1]) + int(below[c - 1])} for c in range(1, 9)]
    b = board_of(rules)
    step = find_innies_outies(b)
    assert step is not None and step.technique == "Innies and Outies"
    assert set(step.eliminations) == {(idx(c), v) for c in ("r1c9", "r2c9") for v in range(3, 10)}
    assert step.text.startswith(
        "Innies and Outies: the cages inside row 1 and row 2 add up to 87, so their other cells "
        "r1c9 and r2c9 add up to 3, and they can only be 1+2, so")
    assert step.houses == ("row 1", "row 2")


def test_outies_less_innies_of_a_box():
    # box 1 less a cage inside it (r1c1 r1c2) and one sticking out of it (r3c3 r4c3): the
    # cell left inside, r3c3, equals the one sticking out, r4c3, plus 45 - 3 - 14 - 13 - ...
    rules = [{"kind": "killer", "cells": ["r1c1", "r1c2", "r1c3"], "sum": 6},
             {"kind": "killer", "cells": ["r2c1", "r2c2", "r2c3"], "sum": 24},
             {"kind": "killer", "cells": ["r3c1", "r3c2", "r4c1"], "sum": 12}]
    # box 1 = 45: 6 + 24 + (12 - r4c1) + r3c3 = 45, so r3c3 = r4c1 + 3
    b = board_of(rules)
    step = find_rule45(b)
    assert step is not None and step.technique == "45 Rule"
    assert "r3c3 = r4c1 + 3" in step.text
    assert {(i, v) for i, v in step.eliminations} >= {(idx("r3c3"), 1), (idx("r3c3"), 2),
                                                      (idx("r4c1"), 7), (idx("r4c1"), 8)}


_GRIDS: dict[int, tuple[int, ...]] = {}


def grid_of(seed: int) -> tuple[int, ...]:
    if seed not in _GRIDS:
        problem = build_problem(Puzzle.empty(N))
        _GRIDS[seed] = problem.grid(random_solution(problem, random.Random(seed)))
    return _GRIDS[seed]


def clues_of(grid, rng: random.Random) -> list[dict]:
    """Return cages read off the grid (some of them), little killers and arrows that hold."""
    cages = [k.to_data() for k in Killer.read_off(grid, G, rng)]
    keep = rng.uniform(0.3, 1.0)
    out = [c for c in cages if rng.random() < keep]
    for _ in range(rng.randint(0, 3)):
        r, d = rng.randrange(N), rng.choice(["DR", "DL"])
        start = (0, r) if rng.random() < 0.5 else (r, 0 if d == "DR" else N - 1)
        dr, dc = 1, 1 if d == "DR" else -1
        cells, (a, b) = [], start
        while 0 <= a < N and 0 <= b < N:
            cells.append(a * N + b)
            a, b = a + dr, b + dc
        out.append({"kind": "little-killer", "cell": f"r{start[0] + 1}c{start[1] + 1}",
                    "direction": d, "sum": sum(grid[i] for i in cells)})
    for _ in range(rng.randint(0, 3)):      # an arrow: a circle and two neighbours below it
        i = rng.randrange(N * N)
        r, c = divmod(i, N)
        if r + 2 < N and grid[(r + 1) * N + c] + grid[(r + 2) * N + c] == grid[i]:
            out.append({"kind": "arrow", "circle": [f"r{r + 1}c{c + 1}"],
                        "cells": [f"r{r + 2}c{c + 1}", f"r{r + 3}c{c + 1}"]})
    return out


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 5), draw=st.integers(0, 10 ** 6), keep=st.floats(0.2, 0.9),
       placed=st.floats(0.0, 0.6))
def test_equations_hold_and_no_step_removes_a_true_value(seed, draw, keep, placed):
    grid = grid_of(seed)
    rng = random.Random(draw)
    board = board_of(clues_of(grid, rng),
                     [v if rng.random() < placed else 0 for v in grid])
    for eq in equations(board.layout):
        assert sum(a * grid[v] for v, a in eq.terms) == eq.rhs, eq
    for i, v in enumerate(grid):
        if not board.value[i]:
            board.cand[i] &= (1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep)
    for _ in range(6):
        step = find_rule45(board) or find_innies_outies(board)
        if step is None:
            break
        for i, v in step.eliminations:
            assert grid[i] != v, step.text
            board.eliminate(i, v)
        assert "\n" not in step.text


def published(name: str, pid: str) -> tuple[Puzzle, str]:
    for line in (DATA / name).read_text().splitlines():
        entry = json.loads(line)
        if entry["id"] == pid:
            return puzzle_from_dict(entry["puzzle"]), entry["solution"]
    raise LookupError(pid)


def test_published_puzzles_solve_by_patterns_with_set_sums():
    # a killer whose box 5 needs outies less innies; a little killer whose two columns need
    # innies and outies; both by patterns alone (checked against the solution on the way)
    for pid, technique in (("self-contained", "45 Rule"), ("peak-sudoku", "Innies and Outies")):
        puzzle, _ = published("held_out_4.jsonl", pid)
        path = solve_logically(puzzle, max_level="Unfair")
        assert path.solved, pid
        assert technique in {s.technique for s in path.steps}, pid
    puzzle, _ = published("held_out_4.jsonl", "self-contained")
    without = solve_logically(puzzle, max_level="Unfair",
                              exclude=["45 Rule", "Hidden Cage", "Cage Splitting"])
    assert not without.solved
