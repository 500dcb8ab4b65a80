"""Mirrored Cells (reasoning/logic/mirrors.py): cells joined by palindrome lines and clones hold
one value, so a value whose places in another house all see one of them is in none of them.
It never removes a true value (Hypothesis: palindromes and clones read off random grids,
random candidate states that keep the solution), and fires where a solver would use it."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku.engines.native import random_solution
from polydoku.model import Geometry, Puzzle
from polydoku.problem import build_problem
from polydoku.reasoning.logic import Board, layout_of, solve_logically
from polydoku.reasoning.logic.catalog import BY_NAME
from polydoku.reasoning.logic.mirrors import find_mirrored_cells
from polydoku.rules import rule_from_data, rules_from_data

N = 9
G = Geometry.of_size(N)
_GRIDS: dict[int, tuple[int, ...]] = {}


def grid_of(seed: int) -> tuple[int, ...]:
    if seed not in _GRIDS:
        problem = build_problem(Puzzle.empty(N))
        _GRIDS[seed] = problem.grid(random_solution(problem, random.Random(seed)))
    return _GRIDS[seed]


def name(i: int) -> str:
    return f"r{i // N + 1}c{i % N + 1}"


def idx(cell: str) -> int:
    r, c = cell[1:].split("c")
    return (int(r) - 1) * N + int(c) - 1


def walk(rng: random.Random, length: int) -> list[str]:
    """Return a random walk of distinct cells by king steps."""
    cells = [rng.randrange(N * N)]
    while len(cells) < length:
        r, c = divmod(cells[-1], N)
        options = [(r + a) * N + c + b for a in (-1, 0, 1) for b in (-1, 0, 1)
                   if 0 <= r + a < N and 0 <= c + b < N and (r + a) * N + c + b not in cells]
        if not options:
            break
        cells.append(rng.choice(options))
    return [name(i) for i in cells]


def rules_of(grid, rng: random.Random) -> list[dict]:
    """Return palindrome lines and clones the grid obeys (drawn until a few hold)."""
    out: list[dict] = []
    for _ in range(400):
        if len(out) >= 5:
            break
        if rng.random() < 0.5:
            data = {"kind": "palindrome", "cells": walk(rng, rng.randint(3, 6))}
        else:
            a, b = rng.sample(range(N * N), 2)
            data = {"kind": "clone", "cells": [name(a)], "copy": [name(b)]}
        try:
            rule = rule_from_data(data, G)
        except Exception:           # a walk the kind refuses
            continue
        if not list(rule.violations(grid, G)):
            out.append(data)
    return out


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 5), draw=st.integers(0, 10 ** 6), keep=st.floats(0.2, 0.9),
       placed=st.floats(0.0, 0.4))
def test_no_step_removes_a_true_value(seed, draw, keep, placed):
    grid = grid_of(seed)
    rng = random.Random(draw)
    puzzle = Puzzle.empty(N, rules_from_data(rules_of(grid, rng), G))
    board = Board(layout_of(build_problem(puzzle)),
                  [v if rng.random() < placed else 0 for v in grid])
    for i, v in enumerate(grid):
        if not board.value[i]:
            board.cand[i] &= (1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep)
    for _ in range(4):
        step = find_mirrored_cells(board)
        if step is None:
            break
        assert step.eliminations and not step.placements
        for i, v in step.eliminations:
            assert grid[i] != v, step.text
            board.eliminate(i, v)
        assert "\n" not in step.text


def empty_board(*rules: dict) -> Board:
    puzzle = Puzzle.empty(N, rules_from_data(list(rules), G))
    return Board(layout_of(build_problem(puzzle)), [0] * (N * N))


def test_a_palindrome_pair_seeing_every_place_of_a_value_in_a_row():
    # r1c3 and r3c5 hold one value; in row 5, 7 goes only in r5c3 (column 3, with r1c3) or
    # r5c5 (column 5, with r3c5): a 7 in the pair would leave row 5 no place
    b = empty_board({"kind": "palindrome", "cells": ["r1c3", "r2c4", "r3c5"]})
    for c in range(N):
        if c not in (2, 4):
            b.eliminate(4 * N + c, 7)
    step = find_mirrored_cells(b)
    assert step is not None and step.technique == "Mirrored Cells"
    assert sorted((name(i), v) for i, v in step.eliminations) == [("r1c3", 7), ("r3c5", 7)]
    assert step.text == (
        "Mirrored Cells: r1c3 and r3c5 hold the same value (the palindrome line from r1c3); "
        "if it were 7, every place of 7 in row 5 (r5c3 and r5c5) would see one of them, so "
        "r1c3 and r3c5 cannot be 7")
    assert step.houses == ("row 5",)
    assert BY_NAME["Mirrored Cells"].level == "Medium"


def test_a_clone_of_a_palindrome_cell_joins_the_group():
    # r1c3 mirrors r3c5, and r9c9 clones r3c5: three cells, one value; 4 in box 8 only at r7c5 (column 5) and r9c6 (row 9): the group loses 4
    b = empty_board({"kind": "palindrome", "cells": ["r1c3", "r2c4", "r3c5"]},
                    {"kind": "clone", "cells": ["r3c5"], "copy": ["r9c9"]})
    for i in range(N * N):
        if name(i) in ("r7c4", "r7c6", "r8c4", "r8c5", "r8c6", "r9c4", "r9c5"):
            b.eliminate(i, 4)
    step = find_mirrored_cells(b)
    assert step is not None
    assert sorted((name(i), v) for i, v in step.eliminations) == [
        ("r1c3", 4), ("r3c5", 4), ("r9c9", 4)]
    assert "r1c3, r3c5 and r9c9 hold the same value" in step.text
    assert "palindrome line from r1c3 and a clone" in step.text


def test_nothing_on_a_classic_board_or_with_a_placed_cell():
    assert find_mirrored_cells(empty_board()) is None
    b = empty_board({"kind": "palindrome", "cells": ["r1c3", "r2c4", "r3c5"]})
    for c in range(N):
        if c not in (2, 4):
            b.eliminate(4 * N + c, 7)
    b.place(idx("r1c3"), 7)
    assert find_mirrored_cells(b) is None


def test_a_built_clone_puzzle_takes_it():
    # a random grid with six clones read off it and givens taken away while the native engine
    # proves one solution: its path by patterns alone uses Mirrored Cells
    from polydoku.formats.jsonfmt import puzzle_from_dict
    clones = [("r6c9", "r1c4"), ("r8c8", "r3c7"), ("r7c1", "r1c9"), ("r2c3", "r8c7"),
              ("r8c6", "r1c2"), ("r6c2", "r3c8")]
    puzzle = puzzle_from_dict({
        "size": N, "givens": "..............3..5.5.2..4.....5.......9....6......8.......8.6..59"
                             ".......4.1.7....",
        "rules": [{"kind": "clone", "cells": [a], "copy": [b]} for a, b in clones]})
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=20)
    assert path.solved and path.prepared.unique
    assert "".join(map(str, path.board.value)) == (
        "312456987647893215958217436164539872879142563235768194723984651596321748481675329")
    assert any(s.technique == "Mirrored Cells" for s in path.steps)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 5), draw=st.integers(0, 10 ** 6))
def test_mirror_links_never_join_two_true_candidates(seed, draw):
    from polydoku.reasoning.logic.mirror_groups import mirror_links
    grid = grid_of(seed)
    rng = random.Random(draw)
    puzzle = Puzzle.empty(N, rules_from_data(rules_of(grid, rng), G))
    lay = layout_of(build_problem(puzzle))
    for p, q, label in mirror_links(lay):
        (x, a), (y, b) = divmod(p, N), divmod(q, N)
        assert not (grid[x] == a + 1 and grid[y] == b + 1), (name(x), name(y), label)


def test_chains_and_intersections_see_through_mirrored_cells():
    # the row 5 case without Mirrored Cells: wherever 7 goes in row 5 it rules out 7 in r1c3
    # and r3c5, r5c5 through its column and r3c5's mirror
    from polydoku.reasoning.logic.intersections import find_locked_variant
    b = empty_board({"kind": "palindrome", "cells": ["r1c3", "r2c4", "r3c5"]})
    for c in range(N):
        if c not in (2, 4):
            b.eliminate(4 * N + c, 7)
    step = find_locked_variant(b)
    assert step is not None
    assert sorted((name(i), v) for i, v in step.eliminations) == [("r1c3", 7), ("r3c5", 7)]
    assert "palindrome line from r1c3" in step.text
