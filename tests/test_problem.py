"""The CSP IR: building from puzzles and lowering keeps the solution set (brute force on 4×4)."""

from itertools import permutations, product

import pytest

from polydoku.model import Puzzle, parse_rules
from polydoku.problem import AbsDiffNot, AllDifferent, Nogood, Table, build_problem, lower
from polydoku.verify import is_solution

RULE_SETS = ["", "anti-knight", "anti-king", "non-consecutive", "diagonal",
             "anti-king,non-consecutive"]


def satisfies(problem, grid) -> bool:
    """Return whether a full assignment satisfies every constraint (a tiny reference checker)."""
    for c in problem.constraints:
        if isinstance(c, AllDifferent):
            vals = [grid[v] for v in c.vars]
            if len(set(vals)) != len(vals):
                return False
        elif isinstance(c, Nogood):
            if grid[c.x] == c.a and grid[c.y] == c.b:
                return False
        elif isinstance(c, AbsDiffNot):
            if abs(grid[c.x] - grid[c.y]) == c.d:
                return False
        elif isinstance(c, Table):
            if tuple(grid[v] for v in c.vars) not in set(c.tuples):
                return False
    return all(grid[v] == x for v, x in problem.givens)


def all_4x4_latin_grids():
    """Yield every 4×4 grid whose rows are permutations (a superset of all solutions)."""
    rows = list(permutations((1, 2, 3, 4)))
    for r in product(rows, repeat=4):
        yield tuple(x for row in r for x in row)


@pytest.fixture(scope="module")
def grids():
    return list(all_4x4_latin_grids())


@pytest.mark.parametrize("rules", RULE_SETS)
def test_lowering_keeps_solutions(rules, grids):
    puzzle = Puzzle.empty(4, parse_rules(rules))
    problem = build_problem(puzzle)
    lowered = lower(problem, kinds=())
    assert lowered.kinds() <= {Nogood, Table}
    truth = {g for g in grids if is_solution(puzzle, g)}
    assert {g for g in grids if satisfies(problem, g)} == truth
    assert {g for g in grids if satisfies(lowered, g)} == truth
    if not rules:
        assert len(truth) == 288


def test_lowering_dedupes_nogoods():
    lowered = lower(build_problem(Puzzle.empty(4)), kinds=())
    keys = [(c.x, c.a, c.y, c.b) for c in lowered.constraints]
    assert len(keys) == len(set(keys))
    assert all((c.x, c.a) < (c.y, c.b) for c in lowered.constraints)


def test_problems_share_constraints():
    a = build_problem(Puzzle.empty(9))
    b = build_problem(Puzzle.empty(9).with_given((0, 0), 5))
    assert a.constraints is b.constraints
    assert b.givens == ((0, 5),)
    assert b.name(80) == "r9c9"
