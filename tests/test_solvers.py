"""The constraint-solver engines (sat, pycosat, cpsat, z3, clingo, minizinc), run for real
through the CLI on the hardest classic puzzles, the miracle puzzle and every variant and size;
cores; timeouts as statuses; tables and nogoods; the shared base models."""

import json
from dataclasses import replace

import pytest

from polydoku import api
from polydoku.engines import Status, make_engine
from polydoku.formats import parse_line, read_puzzle
from polydoku.model import Puzzle
from polydoku.problem import Nogood, Table, build_problem
from polydoku.verify import is_solution

from conftest import EXAMPLES, data_lines, data_path, need_engine

ENGINES = ["sat", "pycosat", "cpsat", "z3", "clingo", "minizinc"]
CORE_ENGINES = ["sat", "cpsat", "z3"]


@pytest.mark.parametrize("engine_id", ENGINES)
def test_norvig_hardest(run_cli, engine_id):
    need_engine(engine_id)
    r = run_cli("solve", data_path("norvig_hardest.txt"), "--engine", engine_id)
    assert r.code == 0, r.err
    assert r.out.split() == data_lines("norvig_hardest.solutions.txt")


@pytest.mark.parametrize("engine_id", ENGINES)
def test_miracle_is_unique(run_cli, engine_id):
    need_engine(engine_id)
    r = run_cli("solve", EXAMPLES / "miracle.json", "--engine", engine_id, "--count",
                "--format", "json")
    data = json.loads(r.out)
    assert r.code == 0 and data["count"] == 1 and data["exhausted"], r.err
    reference = api.solve(read_puzzle(str(EXAMPLES / "miracle.json")))
    assert data["solutions"][0] == "".join(map(str, reference.solutions[0]))


@pytest.mark.parametrize("engine_id", ENGINES)
def test_every_variant_and_size(run_cli, engine_id):
    need_engine(engine_id)
    path = data_path("variants/variants.jsonl")
    expected = [json.loads(line)["solution"] for line in path.read_text().splitlines() if line]
    r = run_cli("solve", path, "--engine", engine_id, "--format", "json")
    assert r.code == 0, r.err
    got = [json.loads(line) for line in r.out.splitlines()]
    assert [d["status"] for d in got] == ["solved"] * len(expected)
    assert [d["solutions"][0] for d in got] == expected


@pytest.mark.parametrize("engine_id", ENGINES)
def test_table_and_nogood_constraints_count_like_native(engine_id):
    engine = need_engine(engine_id)
    base = build_problem(Puzzle.empty(4))
    extra = (Table((0, 1, 4), ((1, 2, 3), (2, 1, 4), (3, 4, 1)), "a table"),
             Nogood(5, 4, 15, 1, "a nogood"))
    problem = replace(base, constraints=base.constraints + extra)
    reference = make_engine("native").solve(problem, max_solutions=1000)
    outcome = engine.solve(problem, max_solutions=1000, timeout=60)
    assert outcome.exhausted and 0 < outcome.count == reference.count < 288
    assert set(outcome.solutions) == set(reference.solutions)


def _wrong_but_quiet_puzzle() -> Puzzle:
    """Return an easy puzzle plus one wrong given that breaks no rule by itself."""
    line = data_lines("norvig_easy50.txt")[0]
    solution = data_lines("norvig_easy50.solutions.txt")[0]
    puzzle = parse_line(line)
    g = puzzle.geometry
    for i, v in enumerate(puzzle.givens):
        if v:
            continue
        for wrong in range(1, 10):
            if wrong == int(solution[i]):
                continue
            p = puzzle.with_given(g.cell(i), wrong)
            if not api.givens_outcome(p):
                return p
    raise AssertionError("no quiet wrong given found")


@pytest.mark.parametrize("engine_id", CORE_ENGINES)
def test_core_is_a_minimal_conflicting_subset(engine_id):
    engine = need_engine(engine_id)
    puzzle = _wrong_but_quiet_puzzle()
    problem = build_problem(puzzle)
    core = engine.core(problem, timeout=60)
    assert core.status is Status.UNSATISFIABLE and core.givens
    assert set(core.givens) <= set(problem.givens)

    def status_with(givens):
        grid = [0] * 81
        for var, value in givens:
            grid[var] = value
        return api.solve(puzzle.with_givens(grid)).status

    assert status_with(core.givens) is Status.UNSATISFIABLE
    for k in range(len(core.givens)):
        assert status_with(core.givens[:k] + core.givens[k + 1:]) is Status.SOLVED


@pytest.mark.parametrize("engine_id", CORE_ENGINES)
def test_core_of_a_solvable_puzzle_says_solved(engine_id):
    engine = need_engine(engine_id)
    core = engine.core(build_problem(read_puzzle(str(EXAMPLES / "wikipedia.txt"))), timeout=60)
    assert core.status is Status.SOLVED and core.givens == ()


@pytest.mark.parametrize("engine_id", ENGINES)
def test_timeout_is_a_status(engine_id):
    engine = need_engine(engine_id)
    outcome = api.solve(Puzzle.empty(9), engine, max_solutions=10**7, timeout=1.0)
    assert outcome.status is Status.SOLVED and outcome.count >= 1 and not outcome.exhausted


def test_sat_shared_solver_forgets_blocking_clauses():
    engine = need_engine("sat")
    four = Puzzle.empty(4)
    first = api.count(four, engine)
    again = api.count(four, engine)
    assert first.count == again.count == 288 and again.exhausted
    assert again.stats["build_seconds"] == 0.0      # the base model was reused


@pytest.mark.parametrize("solver", ["glucose4", "minisat22", "maplechrono", "kissat404"])
def test_sat_other_pysat_solvers(run_cli, solver):
    need_engine("sat")
    lines = data_lines("norvig_top95.txt", limit=5)
    r = run_cli("solve", "-", "--engine", "sat", "-o", f"solver={solver}", stdin="\n".join(lines))
    assert r.code == 0, r.err
    assert r.out.split() == data_lines("norvig_top95.solutions.txt", limit=5)


def test_sat_unknown_solver_is_bad_input(run_cli):
    need_engine("sat")
    r = run_cli("solve", EXAMPLES / "four.txt", "--engine", "sat", "-o", "solver=nosuch")
    assert r.code == 2 and "option solver='nosuch' is not one of " in r.err
    assert "cadical195" in r.err and "Traceback" not in r.err


def test_model_build_and_solve_are_measured_apart():
    engine = need_engine("cpsat")
    outcome = api.solve(read_puzzle(str(EXAMPLES / "inkala.txt")), engine)
    assert {"build_seconds", "solve_seconds", "seconds"} <= set(outcome.stats)
    assert is_solution(read_puzzle(str(EXAMPLES / "inkala.txt")), outcome.solutions[0])


def test_minizinc_keeps_its_model_when_asked(run_cli, tmp_path):
    need_engine("minizinc")
    r = run_cli("solve", EXAMPLES / "four.txt", "--engine", "minizinc", "--keep", tmp_path,
                "--format", "json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["artifact_path"].endswith("model.mzn")
    assert "all_different_int" in (tmp_path / "model.mzn").read_text()
    assert list((tmp_path / "logs").glob("*.log"))


def test_minizinc_bad_solver_is_bad_input_naming_the_solvers(run_cli):
    need_engine("minizinc")
    r = run_cli("solve", EXAMPLES / "four.txt", "--engine", "minizinc", "-o", "solver=bogus")
    assert r.code == 2, r.err
    line, = r.err.splitlines()
    assert "option solver='bogus'" in line and "gecode" in line
    ok = run_cli("solve", EXAMPLES / "four.txt", "--engine", "minizinc", "-o", "solver=gecode")
    assert ok.code == 0, ok.err
