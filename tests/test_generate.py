"""`polydoku generate` and the generator: every puzzle unique (counted by CP-SAT, an engine the
generator never uses), minimal when asked (each given's removal gives CP-SAT a second
solution), at the level asked (by the rater), symmetric as asked, the same for the same seed
on any number of processes; impossible requests are exit 2, a search out of time exit 4."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import need_engine
from polydoku.formats.jsonfmt import parse_json
from polydoku.formats.line import parse_line, write_line
from polydoku.generator import Generator, Request, orbits, random_regions, reachable
from polydoku.model import Geometry, Puzzle
from polydoku.rules import parse_rules
from polydoku.problem import build_problem
from polydoku.reasoning.logic import solve_logically
from polydoku.verify import is_solution

SLOW = settings(max_examples=6, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def solutions(puzzle: Puzzle, limit: int = 2) -> int:
    """Return how many solutions CP-SAT finds (up to `limit`)."""
    outcome = need_engine("cpsat").solve(build_problem(puzzle), max_solutions=limit,
                                         timeout=60)
    assert outcome.exhausted or len(outcome.solutions) >= limit
    return len(outcome.solutions)


def make(seed: int = 1, k: int = 0, **kw):
    geometry = kw.pop("geometry", Geometry.of_size(9))
    return Generator(Request(geometry, seed=seed, **kw)).make(k)


def givens_of(puzzle: Puzzle) -> list[int]:
    return [i for i, v in enumerate(puzzle.givens) if v]


# -- the generator ---------------------------------------------------------------------------

@SLOW
@given(seed=st.integers(0, 10**6), size=st.sampled_from([4, 6, 8, 9]),
       symmetry=st.sampled_from(["none", "rotational", "rotational90", "mirror", "diagonal"]))
def test_every_puzzle_has_one_solution_that_keeps_the_rules(seed, size, symmetry):
    made = make(seed, geometry=Geometry.of_size(size), symmetry=symmetry)
    assert is_solution(made.puzzle.with_givens(made.solution), made.solution)
    assert all(v in (0, s) for v, s in zip(made.puzzle.givens, made.solution))
    assert solutions(made.puzzle) == 1


@SLOW
@given(seed=st.integers(0, 10**6),
       symmetry=st.sampled_from(["rotational", "rotational90", "mirror", "diagonal"]))
def test_givens_sit_in_the_symmetry_asked(seed, symmetry):
    made = make(seed, symmetry=symmetry)
    for orbit in orbits(9, symmetry):
        assert len({bool(made.puzzle.givens[i]) for i in orbit}) == 1, orbit


def test_the_orbits_of_each_symmetry():
    n = 9
    assert len(orbits(n, "none")) == 81
    assert len(orbits(n, "rotational")) == 41           # 40 pairs and the centre
    assert len(orbits(n, "rotational90")) == 21         # 20 fours and the centre
    assert len(orbits(n, "mirror")) == 45               # 36 pairs and column 5
    assert len(orbits(n, "diagonal")) == 45             # 36 pairs and the diagonal
    assert orbits(4, "rotational90")[0] == (0, 3, 12, 15)
    assert not reachable(18, orbits(9, "rotational90")) and reachable(21, orbits(9, "rotational90"))


@SLOW
@given(seed=st.integers(0, 10**6), symmetry=st.sampled_from(["none", "rotational"]))
def test_minimal_puzzles_lose_uniqueness_with_any_given_removed(seed, symmetry):
    made = make(seed, symmetry=symmetry, minimal=True)
    assert made.minimal is True
    for orbit in orbits(9, symmetry):
        if not made.puzzle.givens[orbit[0]]:
            continue
        fewer = list(made.puzzle.givens)
        for i in orbit:
            fewer[i] = 0
        assert solutions(made.puzzle.with_givens(fewer)) == 2, orbit


@pytest.mark.parametrize("level", ["Easy", "Medium", "Hard", "Unfair"])
def test_puzzles_rate_at_the_level_asked(level):
    for k in range(2):
        made = make(7, k, level=level)
        assert made.rating.level == level
        path = solve_logically(made.puzzle)          # rated afresh, every technique allowed
        assert path.rating.level == level and path.solved
        assert path.rating == made.rating            # score, hardest, counts, difficulty too
        assert solutions(made.puzzle) == 1


def test_a_limited_path_is_the_full_one_only_when_no_higher_finder_comes_first():
    from polydoku.reasoning.logic.solver import full_logic_path
    assert full_logic_path(["Hidden Single", "ALS-XZ", "X-Chain"], "Unfair")
    assert full_logic_path(["Hidden Single", "Pointing"], "Medium")
    assert full_logic_path(["Hidden Single", "X-Wing", "Finned X-Wing"], "Hard")
    # Simple Colouring (Hard) is tried after Finned Swordfish (Unfair): full logic may differ
    assert not full_logic_path(["Hidden Single", "Simple Colouring"], "Hard")
    assert not full_logic_path(["Forcing Net"], "Unfair")
    assert full_logic_path(["Forcing Net"], None)


def test_the_same_seed_gives_the_same_puzzles_and_another_seed_others():
    first = [write_line(make(5, k, level="Medium").puzzle) for k in range(3)]
    again = [write_line(make(5, k, level="Medium").puzzle) for k in range(3)]
    other = [write_line(make(6, k, level="Medium").puzzle) for k in range(3)]
    assert first == again and len(set(first)) == 3 and not set(first) & set(other)


def test_givens_aim_is_met_when_it_can_be():
    made = make(3, givens=30, symmetry="rotational")
    assert len(givens_of(made.puzzle)) == 30 and not made.notes
    assert solutions(made.puzzle) == 1


@pytest.mark.parametrize("rules", ["anti-knight", "diagonal", "windoku", "non-consecutive",
                                   "disjoint-groups"])
def test_global_rules_give_unique_puzzles_that_keep_them(rules):
    made = make(2, rules=tuple(parse_rules(rules)))
    full = made.puzzle.with_givens(made.solution)
    assert is_solution(full, made.solution)
    assert [r.kind for r in made.puzzle.rules] == [rules]
    assert solutions(made.puzzle) == 1


@pytest.mark.parametrize("clue,kinds", [
    ("killer", {"killer"}), ("thermometer", {"thermometer"}),
    ("kropki", {"kropki-white", "kropki-black", "kropki-negative"}),
    ("xv", {"xv", "xv-negative"})])
def test_clue_rules_are_read_off_the_grid_and_carry_the_puzzle(clue, kinds):
    made = make(4, clues=(clue,))
    assert {r.kind for r in made.puzzle.rules} == kinds
    assert is_solution(made.puzzle.with_givens(made.solution), made.solution)
    assert len(givens_of(made.puzzle)) < 17                 # the clues do the work
    assert solutions(made.puzzle) == 1
    # the puzzle survives its own JSON: what is printed is what was proved unique
    assert solutions(parse_json(json.dumps(_to_dict(made.puzzle)))) == 1


def _to_dict(puzzle: Puzzle) -> dict:
    from polydoku.formats.jsonfmt import puzzle_to_dict
    return puzzle_to_dict(puzzle)


def test_killer_puzzles_can_be_aimed_at_a_level():
    made = make(1, clues=("killer",), level="Medium")
    assert made.rating.level == "Medium"
    path = solve_logically(made.puzzle)
    assert path.solved and path.rating.level == "Medium"
    assert "Killer Cage" in {s.technique for s in path.steps}
    assert solutions(made.puzzle) == 1


def test_kropki_puzzles_can_be_aimed_at_a_level():
    made = make(1, clues=("kropki",), level="Hard", geometry=Geometry.of_size(6))
    assert made.rating.level == "Hard"
    assert solutions(made.puzzle) == 1


@SLOW
@given(seed=st.integers(0, 10**6), size=st.sampled_from([4, 6, 9]))
def test_jigsaw_regions_are_connected_and_tile_the_grid(seed, size):
    import random
    regions = random_regions(size, random.Random(seed), (2, size // 2) if size < 9 else (3, 3))
    assert sorted(i for r in regions for i in r) == list(range(size * size))
    for region in regions:
        assert len(region) == size
        cells, todo = {region[0]}, [region[0]]
        while todo:
            r, c = divmod(todo.pop(), size)
            for j in (i for i in ((r - 1) * size + c, (r + 1) * size + c,
                                  r * size + c - 1, r * size + c + 1)
                      if i in region and i not in cells and
                      abs(divmod(i, size)[1] - c) + abs(divmod(i, size)[0] - r) == 1):
                cells.add(j)
                todo.append(j)
        assert cells == set(region)


def test_jigsaw_puzzles_are_unique():
    made = make(8, jigsaw=True)
    assert not made.puzzle.geometry.is_rectangular
    assert solutions(made.puzzle) == 1


def test_a_jigsaw_layout_without_any_grid_is_replaced_by_another():
    """Seed 15's first random layout holds no Latin grid at all (SAT proves it); the search
    on it gives up after a bounded count of nodes and the generator draws another layout."""
    import random

    from polydoku.api import solve
    from polydoku.engines.native import random_solution
    from polydoku.generator import LAYOUT_NODES, _box, random_regions
    from polydoku.problem import build_problem
    rng = random.Random("polydoku-generate:15:0")
    first = Geometry.irregular(9, random_regions(9, rng, _box(Geometry.of_size(9))))
    empty = Puzzle(first, (0,) * 81, ())
    assert solve(empty, "sat").status.name == "UNSATISFIABLE"
    assert random_solution(build_problem(empty), random.Random(0), most=LAYOUT_NODES) is None
    made = make(15, jigsaw=True)
    assert made.puzzle.geometry.regions != first.regions
    assert solutions(made.puzzle) == 1


# -- the command -----------------------------------------------------------------------------

def test_generate_prints_one_line_per_puzzle_the_same_on_any_number_of_jobs(run_cli):
    one = run_cli("generate", "--count", "4", "--seed", "11", "--level", "easy", "-j", "1")
    two = run_cli("generate", "--count", "4", "--seed", "11", "--level", "easy", "-j", "2")
    assert one.code == two.code == 0
    lines = one.out.split()
    assert lines == two.out.split() and len(lines) == 4 and len(set(lines)) == 4
    for line in lines:                      # qqwing's "easy" is polydoku's Medium
        assert solve_logically(parse_line(line)).rating.level == "Medium"
        assert solutions(parse_line(line)) == 1


def test_level_names_polydoku_capitalised_qqwing_lower_case(run_cli):
    for name, level in (("Easy", "Easy"), ("simple", "Easy"), ("qqwing:easy", "Medium"),
                        ("hard", "Hard"), ("expert", "Unfair")):
        r = run_cli("generate", "--seed", "9", "--level", name, "-f", "json")
        assert r.code == 0 and json.loads(r.out)["rating"]["level"] == level, name
        assert ("qqwing's" in r.err) == (name in ("simple", "qqwing:easy", "expert")), name


def test_generate_without_a_seed_says_which_it_used_and_it_repeats(run_cli):
    r = run_cli("generate")
    assert r.code == 0 and r.err.startswith("polydoku: seed ")
    seed = r.err.split()[2]
    assert run_cli("generate", "--seed", seed).out == r.out


def test_generate_json_carries_rating_solution_and_rules(run_cli):
    r = run_cli("generate", "--seed", "2", "--level", "Hard", "--symmetry", "mirror",
                "--rules", "anti-king", "--solution", "--count", "2", "-j", "1")
    assert r.code == 0
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert [row["number"] for row in rows] == [1, 2]
    for row in rows:
        assert row["rating"]["level"] == "Hard" and row["unique"] is True
        assert row["rules"] == ["anti-king"] and row["seed"] == 2
        puzzle = parse_json(json.dumps({k: row[k] for k in ("size", "box", "givens", "rules")}))
        assert row["givens_count"] == len(givens_of(puzzle))
        assert is_solution(puzzle, parse_line(row["solution"]).givens)
        assert solutions(puzzle) == 1


@pytest.mark.parametrize("fmt,check", [
    ("grid", lambda out: out.count("\n") >= 11),
    ("specs", lambda out: "9" in out),
    ("ksudoku", lambda out: out.lstrip().startswith("<")),
    ("fpuzzles", lambda out: out.startswith("https://www.f-puzzles.com/?load=")),
    ("sudokupad", lambda out: out.startswith("https://sudokupad.app/")),
])
def test_generate_writes_every_format(run_cli, fmt, check):
    r = run_cli("generate", "--seed", "1", "--format", fmt)
    assert r.code == 0 and check(r.out)


def test_generate_small_grids_and_box_shapes(run_cli):
    r = run_cli("generate", "--seed", "1", "--size", "6", "--box", "3x2", "-f", "json")
    data = json.loads(r.out)
    assert r.code == 0 and data["size"] == 6 and data["box"] == [3, 2]
    assert solutions(parse_json(r.out)) == 1


@pytest.mark.parametrize("args,words", [
    (["--givens", "10"], "needs at least 17 givens"),
    (["--givens", "18", "--symmetry", "rotational90"], "groups of 1 and 4"),
    (["--level", "impossible"], "unknown level 'impossible'"),
    (["--level", "EASY"], "write Easy (polydoku's) or easy (qqwing's"),
    (["--size", "4", "--rules", "anti-knight,anti-king,non-consecutive"], "leave no 4x4 grid"),
    (["--clues", "arrows"], "unknown clue kind 'arrows'"),
    (["--rules", "anti-knight", "--format", "line"], "--format line cannot hold rules"),
    (["--size", "9", "--box", "2x2"], "box 2x2 does not tile"),
    (["--jigsaw", "--box", "3x3"], "leave out --box"),
])
def test_impossible_requests_are_exit_2_with_the_reason(run_cli, args, words):
    r = run_cli("generate", "--seed", "1", *args)
    assert r.code == 2 and r.out == ""
    assert words in r.err and "Traceback" not in r.err


def test_a_search_out_of_time_is_exit_4_and_the_others_are_kept(run_cli):
    # 16x16 at Unfair: more than 0.1 s a puzzle on any machine (9x9 ones now often fit)
    r = run_cli("generate", "--seed", "5", "--level", "Unfair", "--timeout", "0.1",
                "--count", "3", "-j", "1", "--size", "16")
    assert r.code == 4 and "gave up" in r.err
    assert len(r.out.split()) < 3
    for line in r.out.split():
        assert solve_logically(parse_line(line)).rating.level == "Unfair"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_and_keeps_what_was_printed(tmp_path, jobs):
    import os
    import signal
    import subprocess
    import sys
    import time
    out = tmp_path / "out.txt"
    with open(out, "w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "polydoku", "generate", "--count",
                                 "100000", "--seed", "3", "--level", "Hard", "-j", jobs],
                                stdout=sink, stderr=subprocess.PIPE, text=True,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
        deadline = time.monotonic() + 60
        while len(out.read_text().splitlines()) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    lines = out.read_text().splitlines()
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert 3 <= len(lines) < 100000
    assert all(len(line) == 81 for line in lines)          # no line cut in half
    for line in lines[:3]:
        assert solve_logically(parse_line(line)).rating.level == "Hard"


@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 6), low=st.sampled_from([1.0, 1.5, 2.0, 2.6, 3.0]))
def test_difficulty_keeps_only_puzzles_that_rate_within_the_range(run_cli, seed, low):
    high = low + 1.2
    result = run_cli("generate", "--seed", str(seed), "--size", "6", "--rules", "anti-king",
                     "--difficulty", f"{low}-{high}", "--format", "json")
    assert result.code == 0, result.err
    made = json.loads(result.out)
    puzzle = parse_json(result.out)
    assert low <= made["rating"]["difficulty"] <= high
    path = solve_logically(puzzle)                    # rated again, apart from the generator
    assert path.solved and path.level_rating().difficulty == made["rating"]["difficulty"]


@pytest.mark.parametrize("text, words", [("hard", "write a range"), ("5-3", "lower bound first"),
                                         ("0.5-2", "within 1.0-12")])
def test_a_bad_difficulty_is_one_line_exit_2(run_cli, text, words):
    result = run_cli("generate", "--difficulty", text)      # no seed given: none said
    assert result.code == 2 and words in result.err and len(result.err.strip().splitlines()) == 1


def test_a_difficulty_no_grid_reaches_gives_up_with_exit_4(run_cli):
    result = run_cli("generate", "--seed", "1", "--size", "4", "--difficulty", "9-10")
    assert result.code == 4 and "of difficulty 9.0-10.0" in result.err
