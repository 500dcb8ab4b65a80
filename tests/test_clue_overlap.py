"""Clues filled with the houses around them: Clue Combinations on the rule kinds with logic of
their own (reasoning/logic/rule_combinations.py: a little killer, an arrow, a line filled all
at once, keeping apart what the rules keep apart), Cage Unit Overlap (cages.py: a value
every set of a killer cage holds, its places in the cage in one house) and Cage Interaction
(the cages inside one house hold different values), and Clue Unit Overlap (clue_claiming.py:
a value a clue cannot be filled without, its places in one house). None removes a true
value (Hypothesis: clues read off random grids, random candidate states that keep the
solution); each fires where a solver would use it."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_hidden_cages import KILLER_CAGES, KILLER_GIVENS, KILLER_SOLUTION

from polydoku.engines.native import random_solution
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.model import Geometry, Puzzle
from polydoku.problem import build_problem
from polydoku.reasoning.logic import Board, layout_of, solve_logically
from polydoku.reasoning.logic.cages import find_cage_interaction, find_cage_unit_overlap
from polydoku.reasoning.logic.catalog import BY_NAME
from polydoku.reasoning.logic.clue_claiming import find_clue_unit_overlap
from polydoku.reasoning.logic.rule_combinations import find_rule_combinations
from polydoku.rules import rule_from_data, rules_from_data

N = 9
G = Geometry.of_size(N)
DATA = Path(__file__).parent / "data" / "variants"
_GRIDS: dict[int, tuple[int, ...]] = {}


def grid_of(seed: int) -> tuple[int, ...]:
    if seed not in _GRIDS:
        problem = build_problem(Puzzle.empty(N))
        _GRIDS[seed] = problem.grid(random_solution(problem, random.Random(seed)))
    return _GRIDS[seed]


def name(i: int) -> str:
    return f"r{i // N + 1}c{i % N + 1}"


def walk(rng: random.Random, length: int) -> list[int]:
    """Return a random king's-move walk of distinct cells."""
    cells = [rng.randrange(N * N)]
    while len(cells) < length:
        r, c = divmod(cells[-1], N)
        options = [(r + a) * N + c + b for a in (-1, 0, 1) for b in (-1, 0, 1)
                   if 0 <= r + a < N and 0 <= c + b < N and (r + a) * N + c + b not in cells]
        if not options:
            break
        cells.append(rng.choice(options))
    return cells


def clues_of(grid, rng: random.Random) -> list[dict]:
    """Return killer cages, little killers, arrows and whispers that hold on the grid."""
    out: list[dict] = []
    while len(out) < 8:
        cells = walk(rng, rng.randint(2, 6))
        vals = [grid[i] for i in cells]
        names = [name(i) for i in cells]
        kind = rng.choice(["killer", "little-killer", "arrow", "whispers"])
        if kind == "killer" and len(set(vals)) == len(vals):
            out.append({"kind": "killer", "cells": names, "sum": sum(vals)})
        elif kind == "arrow" and sum(vals[1:]) == vals[0]:
            out.append({"kind": "arrow", "circle": names[:1], "cells": names[1:]})
        elif kind == "whispers" and all(abs(a - b) >= 5 for a, b in zip(vals, vals[1:])):
            out.append({"kind": "whispers", "cells": names})
        elif kind == "little-killer":
            rule = {"kind": "little-killer", "cell": f"r{rng.randint(1, N)}c1",
                    "direction": rng.choice(["DR", "UR"]), "sum": 0}
            made = rule_from_data(rule, G)
            rule["sum"] = sum(grid[G.index(c)] for c in made.diagonal(G))
            out.append(rule)
    return out


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 5), draw=st.integers(0, 10 ** 6), keep=st.floats(0.2, 0.9),
       placed=st.floats(0.0, 0.5))
def test_no_step_removes_a_true_value(seed, draw, keep, placed):
    grid = grid_of(seed)
    rng = random.Random(draw)
    puzzle = Puzzle.empty(N, rules_from_data(clues_of(grid, rng), G))
    board = Board(layout_of(build_problem(puzzle)),
                  [v if rng.random() < placed else 0 for v in grid])
    for i, v in enumerate(grid):
        if not board.value[i]:
            board.cand[i] &= (1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep)
    for _ in range(4):
        for find in (find_rule_combinations, find_cage_unit_overlap, find_cage_interaction,
                     find_clue_unit_overlap):
            step = find(board)
            if step is None:
                continue
            assert step.eliminations and not step.placements
            for i, v in step.eliminations:
                assert grid[i] != v, step.text
                board.eliminate(i, v)
            assert "\n" not in step.text


def empty_board(*rules: dict) -> Board:
    puzzle = Puzzle.empty(N, rules_from_data(list(rules), G))
    return Board(layout_of(build_problem(puzzle)), [0] * (N * N))


def test_a_little_killer_in_one_box_is_filled_with_different_values():
    # r1c3, r2c2, r3c1 add up to 6 and share box 1: 1+2+3 only. The bounds alone (repeats
    # allowed) keep 1 to 4 in each; filled at once, no cell can be 4
    b = empty_board({"kind": "little-killer", "cell": "r1c3", "direction": "DL", "sum": 6})
    for i in (G.index((0, 2)), G.index((1, 1)), G.index((2, 0))):
        b.cand[i] &= 0b1111                          # what the bounds leave: 1 to 4
    step = find_rule_combinations(b)
    assert step is not None and step.technique == "Clue Combinations"
    assert sorted((name(i), v) for i, v in step.eliminations) == [
        ("r1c3", 4), ("r2c2", 4), ("r3c1", 4)]
    assert step.text.startswith("Clue Combinations: the little killer 6 from r1c3 on ")
    assert BY_NAME["Clue Combinations"].level == "Hard"


def test_a_cage_that_must_hold_a_value_in_one_box_clears_the_box():
    # a 12 cage on four cells of box 1 is 1+2+3+6 or 1+2+4+5: it holds 1 and 2, so the box's
    # other five cells lose them
    b = empty_board({"kind": "killer", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"], "sum": 12})
    step = find_cage_unit_overlap(b)
    assert step is not None and step.technique == "Cage Unit Overlap"
    assert sorted((name(i), v) for i, v in step.eliminations) == [
        (x, 1) for x in ("r1c3", "r2c3", "r3c1", "r3c2", "r3c3")]
    assert "can only be 1+2+3+6 or 1+2+4+5, so it holds 1" in step.text
    assert step.houses == ("box 1",) and len(step.pattern_candidates) == 4
    assert BY_NAME["Cage Unit Overlap"].level == "Medium"


def test_a_cage_across_boxes_claims_only_where_its_places_lie():
    # a 6 cage r1c3, r1c4 (1+5 or 2+4) holds no value every set has: no step
    b = empty_board({"kind": "killer", "cells": ["r1c3", "r1c4"], "sum": 6})
    assert find_cage_unit_overlap(b) is None


def test_rule_combinations_on_a_published_whispers_puzzle():
    # German Whispers (published): the whispers lines filled with the boxes they cross; every
    # step of the patterns-only path keeps the published solution
    entry = next(e for e in map(json.loads, (DATA / "published.jsonl").read_text().splitlines())
                 if e["id"] == "german-whispers")
    puzzle, solution = puzzle_from_dict(entry["puzzle"]), [int(ch) for ch in entry["solution"]]
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=20)
    used = [s for s in path.steps if s.technique == "Clue Combinations"
            and s.text.startswith("Clue Combinations: the whispers")]
    assert used
    for s in path.steps:
        assert all(solution[i] != v for i, v in s.eliminations), s.text


# a generated puzzle (a random grid, two killer cages read off it, givens taken away while
# the native engine proves one solution): its patterns-only path takes Cage Unit Overlap
GENERATED = {"size": 9, "givens": ".1...9.....7....5..52.8.6..375..2.9........6.....9...1..."
             ".........4..7.....6..3..",
             "rules": [{"kind": "killer", "cells": ["r9c1", "r8c1", "r7c2", "r7c1", "r8c2"],
                        "sum": 27},
                       {"kind": "killer", "cells": ["r7c1", "r6c1", "r5c2"], "sum": 19}]}
GENERATED_SOLUTION = ("6135498724872169539523876143751624981948352672687945318469731255394217867216"
                      "58349")


def test_cage_unit_overlap_on_a_generated_killer():
    puzzle = puzzle_from_dict(GENERATED)
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=20)
    assert path.solved and path.prepared.unique
    assert "".join(map(str, path.board.value)) == GENERATED_SOLUTION
    used = [s for s in path.steps if s.technique == "Cage Unit Overlap"]
    assert used and used[0].text.startswith("Cage Unit Overlap: the cage ")


def test_cages_in_one_row_take_sets_that_fit_together():
    # in row 1 a 3 cage is 1+2, so a 7 cage (1+6, 2+5 or 3+4) is 3+4: it loses 1, 2, 5, 6;
    # and the row's other five cells lose 1 to 4 (the 3 cage's own cells keep only 1 and 2)
    b = empty_board({"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 3},
                    {"kind": "killer", "cells": ["r1c5", "r1c6"], "sum": 7})
    step = find_cage_interaction(b)
    assert step is not None and step.technique == "Cage Interaction"
    gone = {(name(i), v) for i, v in step.eliminations}
    assert {(c, v) for c in ("r1c5", "r1c6") for v in (1, 2, 5, 6, 7, 8, 9)} <= gone
    assert {(c, v) for c in ("r1c3", "r1c4", "r1c7", "r1c8", "r1c9") for v in (1, 2, 3, 4)} <= gone
    assert {(c, v) for c in ("r1c1", "r1c2") for v in range(3, 10)} <= gone
    assert len(gone) == 14 + 20 + 14
    assert ("the cage r1c5 and r1c6 (sum 7) is 3+4" in step.text
            and step.text.startswith("Cage Interaction: the cages in row 1 hold different values"))
    assert BY_NAME["Cage Interaction"].level == "Medium"


def test_overlapping_cages_are_not_taken_as_different():
    # two cages sharing r1c2 may share its value: the second is left out
    b = empty_board({"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 3},
                    {"kind": "killer", "cells": ["r1c2", "r1c3"], "sum": 3})
    assert find_cage_interaction(b) is None


def test_cage_interaction_on_a_generated_killer():
    # `polydoku generate --seed 77 --clues killer -d 6.5-11 -n 10`, its second puzzle (two
    # givens; test_hidden_cages.py): the cages inside box 1 and row 1 fit together
    cages = [{"kind": "killer", "cells": c.split("=")[0].split("+"), "sum": int(c.split("=")[1])}
             for c in KILLER_CAGES.split()]
    puzzle = puzzle_from_dict({"size": 9, "givens": KILLER_GIVENS, "rules": cages})
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=30)
    assert path.solved and path.prepared.unique
    assert "".join(map(str, path.board.value)) == KILLER_SOLUTION
    assert any(s.technique == "Cage Interaction" for s in path.steps)


def test_an_arrow_that_needs_a_value_in_one_box_clears_the_box():
    # r1c1 is 3, the circle of an arrow along r2c2 and r3c3 (box 1, different values): the
    # shaft is 1+2, so it cannot be filled without 1 (nor 2), both places in box 1
    puzzle = Puzzle.empty(N, rules_from_data([{"kind": "arrow", "circle": ["r1c1"],
                                               "cells": ["r2c2", "r3c3"]}], G))
    b = Board(layout_of(build_problem(puzzle)), [3] + [0] * (N * N - 1))
    step = find_clue_unit_overlap(b)
    assert step is not None and step.technique == "Clue Unit Overlap"
    assert sorted(name(i) for i, v in step.eliminations if v == 1) == [
        "r1c2", "r1c3", "r2c1", "r2c3", "r3c1", "r3c2"]
    assert {v for _, v in step.eliminations} == {1}
    assert "cannot be filled without 1" in step.text and step.houses == ("box 1",)
    assert BY_NAME["Clue Unit Overlap"].level == "Hard"


def test_clue_unit_overlap_on_a_published_quadruple_puzzle():
    # Quadruple X (published): a quadruple's values claimed for its box; every step of the
    # patterns-only path keeps the published solution
    entry = next(e for e in map(json.loads, (DATA / "published.jsonl").read_text().splitlines())
                 if e["id"] == "quadruple-x")
    puzzle, solution = puzzle_from_dict(entry["puzzle"]), [int(ch) for ch in entry["solution"]]
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=20)
    used = [s for s in path.steps if s.technique == "Clue Unit Overlap"]
    assert used and "quadruple" in used[0].text
    for s in path.steps:
        assert all(solution[i] != v for i, v in s.eliminations), s.text
