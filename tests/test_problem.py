"""The CSP IR: building from puzzles and lowering keeps the exact solution set.

The solution sets are computed exactly, over ALL 4^16 fillings of a 4×4 grid, by a plain
depth-first enumeration that fills cells in row-major order and drops a partial grid as soon as
a check fails. Dropping is sound: every check used on a partial grid looks only at filled cells
and can only fail when no completion could pass (a constraint is checked once its variables
are all filled; the puzzle's own rule check ignores empty cells, and a clash among filled cells
stays a clash). Every grid that survives is then checked again in full. So each set below is
exactly {grid : predicate(grid)}, without visiting four billion grids.
"""

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polydoku.errors import BadInput
from polydoku.model import Puzzle, violations
from polydoku.model.geometry import Geometry
from polydoku.problem.build import Builder
from polydoku.rules import KINDS, parse_rules, rule_from_data, rules_from_data
from polydoku.formats import parse_line
from polydoku.problem import AbsDiffNot, AllDifferent, Nogood, Table, build_problem, lower
from polydoku.verify import is_solution

from conftest import EXAMPLES

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
        else:
            raise TypeError(type(c).__name__)
    return all(grid[v] == x for v, x in problem.givens)


def enumerate_grids(ncells: int, size: int, prefix_ok, full_ok) -> set[tuple[int, ...]]:
    """Return every grid of values 1..size passing `prefix_ok(grid, k)` after each cell k is
    filled (0 = not yet filled) and `full_ok(grid)` at the end."""
    grid = [0] * ncells
    out = set()

    def fill(k: int) -> None:
        if k == ncells:
            assert full_ok(grid), grid      # the prefix checks never let a wrong grid through
            out.add(tuple(grid))
            return
        for v in range(1, size + 1):
            grid[k] = v
            if prefix_ok(grid, k):
                fill(k + 1)
        grid[k] = 0

    fill(0)
    return out


def problem_prefix_check(problem):
    """Return prefix_ok for a problem: checks each constraint on its filled variables only,
    when the last of them (in filling order) has just been filled."""
    at: list[list] = [[] for _ in range(problem.nvars)]
    for c in problem.constraints:
        if isinstance(c, AllDifferent):
            for v in set(c.vars):
                # a variable listed twice can never differ from itself
                earlier = (v,) if c.vars.count(v) > 1 else tuple(u for u in c.vars if u < v)
                at[v].append(("ne", v, earlier))
        elif isinstance(c, Table):
            at[max(c.vars)].append(("table", c.vars, set(c.tuples)))
        elif isinstance(c, Nogood):
            at[max(c.x, c.y)].append(("nogood", c.x, c.a, c.y, c.b))
        elif isinstance(c, AbsDiffNot):
            at[max(c.x, c.y)].append(("absdiff", c.x, c.y, c.d))
        else:
            raise TypeError(type(c).__name__)
    for v, x in problem.givens:
        at[v].append(("given", v, x))

    def ok(grid, k) -> bool:
        for kind, *args in at[k]:
            if kind == "ne":
                value = grid[args[0]]
                if any(grid[u] == value for u in args[1]):
                    return False
            elif kind == "nogood":
                x, a, y, b = args
                if grid[x] == a and grid[y] == b:
                    return False
            elif kind == "absdiff":
                x, y, d = args
                if abs(grid[x] - grid[y]) == d:
                    return False
            elif kind == "table":
                if tuple(grid[v] for v in args[0]) not in args[1]:
                    return False
            elif grid[args[0]] != args[1]:      # a given
                return False
        return True

    return ok


def solutions_by_problem(problem) -> set[tuple[int, ...]]:
    """Return exactly the 4×4 grids that satisfy the problem's constraints and givens."""
    return enumerate_grids(problem.nvars, problem.size, problem_prefix_check(problem),
                           lambda g: satisfies(problem, g))


def solutions_by_rules(puzzle) -> set[tuple[int, ...]]:
    """Return exactly the grids that verify, pruning with the model's partial-grid check."""
    givens = puzzle.givens

    def ok(grid, k):
        return (not givens[k] or grid[k] == givens[k]) and next(violations(puzzle, grid),
                                                                 None) is None

    return enumerate_grids(puzzle.geometry.ncells, puzzle.size, ok,
                           lambda g: is_solution(puzzle, g))


def puzzles_4x4():
    """Return the 4×4 puzzles checked under each rule set: empty, and two with givens."""
    example = (EXAMPLES / "four.txt").read_text().splitlines()[-1]
    return [Puzzle.empty(4), parse_line(example), parse_line("1..." "...." "...." "...4")]


def check_lowering(puzzle) -> set[tuple[int, ...]]:
    """Assert that the problem and its lowering have exactly the puzzle's solutions; return them."""
    problem = build_problem(puzzle)
    lowered = lower(problem, kinds=())
    assert lowered.kinds() <= {Nogood, Table}
    truth = solutions_by_rules(puzzle)
    assert solutions_by_problem(problem) == truth
    assert solutions_by_problem(lowered) == truth
    return truth


@pytest.mark.parametrize("rules", RULE_SETS)
def test_lowering_keeps_solutions(rules):
    for base in puzzles_4x4():
        truth = check_lowering(base.with_rules(parse_rules(rules)))
        if not rules and not any(base.givens):
            assert len(truth) == 288


# On 4×4, anti-king and non-consecutive leave no solution at all, so these 6×6 cases make
# sure each rule's lowering is also checked where solutions exist.
@pytest.mark.parametrize("rules, line", [
    ("anti-king", "........564...1....2.5...5.4..4.2..."),
    ("anti-knight", "........365..3.....6......1.4.3....6"),
    ("non-consecutive", "." * 36),
])
def test_lowering_keeps_solutions_6x6(rules, line):
    assert check_lowering(parse_line(line, rules=parse_rules(rules)))


def test_enumeration_is_exhaustive_on_a_tiny_space():
    # the enumerator itself, against itertools on all 3^4 fillings of four variables
    from itertools import product
    from polydoku.problem import Problem
    problem = Problem(3, 4, (AllDifferent((0, 1, 2)), Nogood(0, 1, 3, 2), AbsDiffNot(2, 3, 1),
                             Table((1, 3), ((1, 1), (2, 3), (3, 3)))), givens=())
    brute = {g for g in product(range(1, 4), repeat=4) if satisfies(problem, g)}
    assert solutions_by_problem(problem) == brute and brute


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


def test_every_constraint_carries_its_typed_origin():
    from polydoku.formats.jsonfmt import parse_json
    from polydoku.problem import Origin
    puzzle = parse_json('{"givens": "' + "." * 81 + '", "rules": ["diagonal", '
                        '{"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 3}, '
                        '{"kind": "killer", "cells": ["r9c8", "r9c9"], "sum": 17}]}')
    problem = build_problem(puzzle)
    units = [c.origin for c in problem.constraints if c.origin.unit]
    assert units == [Origin(k, i, unit=True) for k in ("row", "column", "box") for i in range(1, 10)]
    diagonals = {c.origin.part for c in problem.constraints if c.origin.kind == "diagonal"}
    assert diagonals == {"main", "anti"}
    assert {c.origin.number for c in problem.constraints if c.origin.kind == "killer"} == {1, 2}
    lowered = lower(problem, ())
    assert all(c.origin.kind for c in lowered.constraints), "lowering keeps every origin"


def test_a_relation_refuses_the_same_pairs_asked_once_or_anew():
    from polydoku.model.geometry import Geometry
    from polydoku.problem.build import Builder

    class Unhashable:                       # a relation that cannot be remembered by key
        __hash__ = None

        def __call__(self, a, b):
            return abs(a - b) != 1

    near = Unhashable()
    b = Builder(Geometry.of_size(4))
    for x, y in ((0, 1), (1, 2), (4, 5)):
        b.relation(x, y, near)
        b.relation(x, y, near.__call__)     # a bound method: remembered, asked once
    got = [(c.x, c.a, c.y, c.b) for c in b.constraints]
    want = [(x, a, y, c) for x, y in ((0, 1), (1, 2), (4, 5)) for _ in range(2)
            for a in range(1, 5) for c in range(1, 5) if abs(a - c) == 1]
    assert got == want


def test_a_relation_makes_the_nogoods_the_dataclass_makes():
    # relation() builds its nogoods without Nogood's __init__ (a build's main cost): each one
    # must be the object Nogood(...) makes, field for field, equal and hashed alike
    from polydoku.model.geometry import Geometry
    from polydoku.problem import Origin
    from polydoku.problem.build import Builder, identifier

    b = Builder(Geometry.of_size(4))
    b.label, b.origin = "kropki 2", Origin("kropki-white", 2)
    b.relation(3, 7, lambda a, c: abs(a - c) != 1)
    want = [Nogood(3, a, 7, c, "kropki 2", Origin("kropki-white", 2))
            for a in range(1, 5) for c in range(1, 5) if abs(a - c) == 1]
    assert b.constraints == want
    assert [vars(c) for c in b.constraints] == [vars(c) for c in want]
    assert {hash(c) for c in b.constraints} == {hash(c) for c in want}
    with pytest.raises(AttributeError):
        b.constraints[0].x = 1                       # still frozen
    assert identifier("kropki 2 place of 1") == "kropki_2_place_of_1"
    assert identifier("9 é-x") == "a_9___x"


def test_a_rule_is_labelled_by_what_a_solver_reads():
    # a little killer by its sum and start, a cage by its total, a bound in words, and a
    # second rule worded alike (two dots from r1c1) numbered so that a label names one rule
    g = Geometry.of_size(9)
    rules = rules_from_data([
        {"kind": "little-killer", "cell": "r5c9", "direction": "DL", "sum": 25},
        {"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 15},
        {"kind": "killer-bound", "cells": ["r9c1", "r9c2"], "min": 10},
        {"kind": "arrow", "circle": ["r3c3"], "cells": ["r4c4", "r5c5"]},
        {"kind": "kropki-white", "cells": ["r1c1", "r2c1"]},
        {"kind": "kropki-white", "cells": ["r1c1", "r1c2"]},
        "anti-knight"], g)
    problem = build_problem(Puzzle(g, (0,) * 81, rules))
    labels = {c.origin.kind + str(c.origin.number): c.label for c in problem.constraints
              if not c.origin.unit}
    assert labels == {"little-killer1": "little killer 25 from r5c9",
                      "killer1": "cage (15) at r1c1..r1c2",
                      "killer-bound1": "cage (at least 10) at r9c1",
                      "arrow1": "arrow at r3c3",
                      "kropki-white1": "kropki-white at r1c1",
                      "kropki-white2": "kropki-white at r1c1 #2",
                      "anti-knight0": "anti-knight"}


_CELL = st.tuples(st.integers(1, 9), st.integers(1, 9)).map(lambda rc: f"r{rc[0]}c{rc[1]}")
_CELLS = st.lists(_CELL, min_size=1, max_size=4, unique=True)
# the kinds of numbers and totals a puzzle's own data gives (their `sample` draws none)
_CLUES = st.one_of(
    st.builds(lambda c, d, s: {"kind": "little-killer", "cell": c, "direction": d, "sum": s},
              _CELL, st.sampled_from(["UL", "UR", "DL", "DR"]), st.integers(0, 81)),
    st.builds(lambda cs, s: {"kind": "killer", "cells": cs, "sum": s}, _CELLS,
              st.integers(1, 45)),
    st.builds(lambda c, cs: {"kind": "arrow", "circle": [c], "cells": cs}, _CELL, _CELLS),
    st.builds(lambda k, side, i, v: {"kind": k, "side": side, "index": i,
                                     "count" if k == "skyscraper" else "sum": v},
              st.sampled_from(["sandwich", "x-sum", "skyscraper"]),
              st.sampled_from(["top", "bottom", "left", "right"]), st.integers(1, 9),
              st.integers(1, 9)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(sorted(KINDS)), _CLUES), min_size=1, max_size=4),
       st.integers(0, 10 ** 9))
def test_labels_are_plain_words_and_name_one_rule_each(items, seed):
    # whatever a rule's fields, its label holds kind names, numbers, cell names and plain
    # punctuation only (encoders write labels into artifacts, steps into terminals), and no
    # two rules of a puzzle share one
    g = Geometry.of_size(9)
    rng = random.Random(seed)
    b = Builder(g)
    labels = []
    for item in items:
        data = KINDS[item].sample(rng, 9) if isinstance(item, str) else item
        if data is None:
            continue
        try:
            rule = rule_from_data(data, g)
            Puzzle(g, (0,) * 81, (rule,))
        except BadInput:                    # fields this grid refuses, a kind of other grids
            continue
        b.start(rule)
        labels.append(b.label)
    assert all(re.fullmatch(r"[0-9a-z .,()/-]+( #[0-9]+)?", lab) for lab in labels), labels
    assert len(set(labels)) == len(labels), labels
