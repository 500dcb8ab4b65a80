"""Properties of the native engine (Hypothesis): it finds exactly the solutions a brute force
finds, every solution it reports verifies, and symmetries of the grid keep the solution count
and map the solutions (relabelling values, permuting bands, stacks and the rows of a band,
transposing)."""

from itertools import product

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from polydoku import api
from polydoku.engines import Status
from polydoku.engines.native import search
from polydoku.formats import parse_line
from polydoku.model import Geometry, Puzzle
from polydoku.rules import parse_rules
from polydoku.problem import AbsDiffNot, AllDifferent, Nogood, Problem, Table
from polydoku.verify import is_solution

from conftest import data_lines
from test_problem import satisfies

QUICK = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LIMIT = 2000
SYMMETRIC_RULES = ["", "anti-knight", "anti-king", "diagonal", "anti-knight,diagonal"]


# ---------------------------------------------------------------- exactly the right solutions

@st.composite
def small_problems(draw):
    """A problem of 1..5 variables with values 1..4 and constraints of every kind."""
    size = draw(st.integers(2, 4))
    n = draw(st.integers(1, 5))
    var, val = st.integers(0, n - 1), st.integers(1, size)
    table = st.lists(var, min_size=1, max_size=3).flatmap(lambda vs: st.builds(
        lambda tuples: Table(tuple(vs), tuple(tuples)),
        st.lists(st.tuples(*[st.integers(0, size + 1)] * len(vs)), max_size=12)))
    constraint = st.one_of(
        st.lists(var, min_size=1, max_size=n).map(lambda vs: AllDifferent(tuple(vs))),
        st.builds(Nogood, var, val, var, val),
        st.builds(AbsDiffNot, var, var, st.integers(0, size)),
        table)
    constraints = tuple(draw(st.lists(constraint, max_size=6)))
    givens = tuple(draw(st.lists(st.tuples(var, val), max_size=2)))
    return Problem(size, n, constraints, givens)


@QUICK
@given(small_problems())
def test_native_finds_exactly_the_brute_force_solutions(problem):
    brute = {g for g in product(range(1, problem.size + 1), repeat=problem.nvars)
             if satisfies(problem, g)}
    outcome = search(problem, 10**6)
    assert outcome.exhausted
    assert len(outcome.solutions) == len(set(outcome.solutions))
    assert set(outcome.solutions) == brute
    assert outcome.status is (Status.SOLVED if brute else Status.UNSATISFIABLE)


# ---------------------------------------------------------------- every solution verifies

@st.composite
def small_puzzles(draw, rule_sets=("", "anti-knight", "anti-king", "non-consecutive",
                                   "diagonal", "anti-knight,non-consecutive")):
    """A 4×4 or 6×6 puzzle (either box shape) with random givens and rules."""
    size = draw(st.sampled_from([4, 6]))
    shape = draw(st.sampled_from([(2, size // 2), (size // 2, 2)]))
    g = Geometry(size, *shape)
    cells = draw(st.lists(st.integers(0, g.ncells - 1), unique=True, max_size=g.ncells // 2))
    givens = [0] * g.ncells
    for c in cells:
        givens[c] = draw(st.integers(1, size))
    return Puzzle(g, tuple(givens), parse_rules(draw(st.sampled_from(rule_sets))))


@QUICK
@given(small_puzzles())
def test_every_reported_solution_verifies(puzzle):
    outcome = api.count(puzzle, limit=LIMIT)     # api.count itself refuses a wrong answer
    assert all(is_solution(puzzle, s) for s in outcome.solutions)
    assert len(set(outcome.solutions)) == outcome.count
    if outcome.status is Status.UNSATISFIABLE:
        assert outcome.exhausted and outcome.count == 0


# ---------------------------------------------------------------- symmetries

def counted(puzzle):
    """Return (solutions as a set, exhausted) of a puzzle, enumerated up to LIMIT."""
    outcome = api.count(puzzle, limit=LIMIT)
    return set(outcome.solutions), outcome.exhausted


def moved(puzzle, where, geometry=None):
    """Return the puzzle whose cell where[i] holds what cell i held."""
    givens = [0] * len(puzzle.givens)
    for i, v in enumerate(puzzle.givens):
        givens[where[i]] = v
    return Puzzle(geometry or puzzle.geometry, tuple(givens), puzzle.rules)


def move_grid(grid, where):
    """Return a grid with cell i's value moved to cell where[i]."""
    out = [0] * len(grid)
    for i, v in enumerate(grid):
        out[where[i]] = v
    return tuple(out)


def assert_symmetric(puzzle, image, move=None, relabel=None):
    """Assert that `image` has the same count as `puzzle` and the mapped solutions."""
    sols, done = counted(puzzle)
    image_sols, image_done = counted(image)
    assert done == image_done
    if not done:
        assert len(sols) == len(image_sols) == LIMIT
        return
    mapped = {tuple(relabel[v] for v in s) if relabel else s for s in sols}
    assert {move_grid(s, move) if move else s for s in mapped} == image_sols


@QUICK
@given(small_puzzles(SYMMETRIC_RULES), st.data())
def test_relabelling_values_maps_solutions(puzzle, data):
    n = puzzle.size
    perm = data.draw(st.permutations(range(1, n + 1)))
    relabel = {0: 0, **{v: perm[v - 1] for v in range(1, n + 1)}}
    image = puzzle.with_givens(relabel[v] for v in puzzle.givens)
    assert_symmetric(puzzle, image, relabel=relabel)


@QUICK
@given(small_puzzles(["non-consecutive", "anti-king,non-consecutive"]))
def test_reversing_values_keeps_non_consecutive(puzzle):
    # |a - b| = 1 is kept only by v -> N + 1 - v (and the identity)
    n = puzzle.size
    relabel = {0: 0, **{v: n + 1 - v for v in range(1, n + 1)}}
    image = puzzle.with_givens(relabel[v] for v in puzzle.givens)
    assert_symmetric(puzzle, image, relabel=relabel)


@st.composite
def band_moves(draw, n=9, box=3):
    """A cell map for 9×9: permute bands, rows in each band, stacks, columns in each stack."""
    def line_map():
        blocks = draw(st.permutations(range(n // box)))
        inner = [draw(st.permutations(range(box))) for _ in range(n // box)]
        return [blocks[k // box] * box + inner[k // box][k % box] for k in range(n)]
    rows, cols = line_map(), line_map()
    return [rows[i // n] * n + cols[i % n] for i in range(n * n)]


SERG = list(zip(data_lines("serg_benchmark.txt", step=211),
                map(int, data_lines("serg_benchmark.counts.txt", step=211))))


@QUICK
@given(st.sampled_from(SERG), band_moves())
def test_band_stack_and_row_permutations_keep_the_count(serg, where):
    line, count = serg
    puzzle = parse_line(line)
    assume(count <= LIMIT)
    image = moved(puzzle, where)
    sols, done = counted(image)
    assert done and len(sols) == count
    assert_symmetric(puzzle, image, move=where)


def transpose_map(n):
    """Return the cell map of the transposition of an n×n grid."""
    return [(i % n) * n + i // n for i in range(n * n)]


@QUICK
@given(st.sampled_from(SERG))
def test_transposing_keeps_the_count_9x9(serg):
    line, count = serg
    puzzle = parse_line(line)
    image = moved(puzzle, transpose_map(9))
    sols, done = counted(image)
    assert done and len(sols) == count


@QUICK
@given(small_puzzles(SYMMETRIC_RULES + ["non-consecutive", "anti-king,non-consecutive"]))
def test_transposing_maps_solutions(puzzle):
    # every rule here is symmetric under transposition; the boxes turn r×c into c×r
    g = puzzle.geometry
    image = moved(puzzle, transpose_map(g.size), Geometry(g.size, g.box_cols, g.box_rows))
    assert_symmetric(puzzle, image, move=transpose_map(g.size))
