"""Model exports: golden files on 4x4 puzzles, and every export whose tool runs here run for
real on a 4x4 and on 9x9 puzzles, its answer read back and verified."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from polydoku.engines.exports import EXPORTERS, export
from polydoku.engines.models.runners import read_alloy_xml
from polydoku.formats import read_puzzle
from polydoku.rules import parse_rules
from polydoku.problem import build_problem
from polydoku.verify import is_solution

from conftest import EXAMPLES, missing, need_engine

GOLDEN = Path(__file__).parent / "golden" / "models"
FORMATS = ["dimacs", "smtlib", "minizinc", "asp", "alloy", "picat"]
FOUR = str(EXAMPLES / "four.txt")
CASES = {"four": (FOUR, ""), "four-rules": (FOUR, "non-consecutive,anti-knight,diagonal")}
RUNS = [FOUR, str(EXAMPLES / "wikipedia.txt"), str(EXAMPLES / "miracle.json")]


def puzzle_of(path: str, rules: str = ""):
    p = read_puzzle(path)
    return p.with_rules(p.rules + parse_rules(rules)) if rules else p


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_golden(fmt, case, tmp_path):
    path, rules = CASES[case]
    written = export(puzzle_of(path, rules), fmt, tmp_path)
    assert any(p.name == "README.md" for p in written)
    for file in written:
        golden = GOLDEN / fmt / case / file.name
        text = file.read_text()
        if os.environ.get("POLYDOKU_REGEN_GOLDEN"):
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(text)
        assert golden.exists(), f"missing golden file {golden} (run with POLYDOKU_REGEN_GOLDEN=1)"
        assert text == golden.read_text(), f"{golden} differs"


def test_every_format_is_registered():
    assert set(FORMATS) <= set(EXPORTERS)


def test_export_command(run_cli, tmp_path):
    r = run_cli("export", FOUR, "--to", "minizinc", "--out", tmp_path)
    assert r.code == 0, r.err
    assert r.out.strip() == f"wrote 3 files to {tmp_path}: README.md, data.dzn, model.mzn"
    assert "minizinc --solver gecode model.mzn data.dzn" in (tmp_path / "README.md").read_text()
    r = run_cli("export", FOUR, "--to", "nosuch", "--out", tmp_path)
    assert r.code == 2 and "unknown export format 'nosuch'" in r.err


def _grid_from_pairs(pairs, n):
    """Return a row-major grid from ((row, col), value) pairs, 1-based rows and columns."""
    grid = [0] * (n * n)
    for (r, c), v in pairs:
        grid[(r - 1) * n + c - 1] = v
    return grid


@pytest.mark.parametrize("path", RUNS)
def test_dimacs_through_pysat(path, tmp_path):
    need_engine("sat")
    from pysat.formula import CNF
    from pysat.solvers import Solver
    puzzle = read_puzzle(path)
    export(puzzle, "dimacs", tmp_path)
    text = (tmp_path / "puzzle.cnf").read_text()
    names = {int(v): (int(r), int(c), int(x))
             for v, r, c, x in re.findall(r"^c (\d+) r(\d+)c(\d+)=(\d+)$", text, re.M)}
    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(tmp_path / "puzzle.cnf")).clauses) as s:
        assert s.solve()
        model = s.get_model()
    grid = _grid_from_pairs([((names[v][0], names[v][1]), names[v][2]) for v in model
                             if v in names], puzzle.size)
    assert is_solution(puzzle, grid)


def _z3_program() -> str:
    from polydoku.engines.sandbox import find_program
    exe = find_program("z3")
    if exe is None:
        missing("program z3 not found (pip install z3-solver ships it)")
    return exe


@pytest.mark.parametrize("path", RUNS)
def test_smtlib_through_z3(path, tmp_path):
    puzzle = read_puzzle(path)
    export(puzzle, "smtlib", tmp_path)
    r = subprocess.run([_z3_program(), str(tmp_path / "puzzle.smt2")], capture_output=True,
                       text=True, timeout=120)
    assert r.stdout.startswith("sat"), r.stdout + r.stderr
    pairs = [((int(a), int(b)), int(v)) for a, b, v in re.findall(r"\(r(\d+)c(\d+) (\d+)\)", r.stdout)]
    assert is_solution(puzzle, _grid_from_pairs(pairs, puzzle.size))


def test_smtlib_unsat_through_z3(tmp_path):
    puzzle = read_puzzle("1.3..2.........4").with_given((3, 0), 3)   # quiet but impossible
    export(puzzle, "smtlib", tmp_path)
    r = subprocess.run([_z3_program(), str(tmp_path / "puzzle.smt2")], capture_output=True,
                       text=True, timeout=120)
    assert r.stdout.startswith("unsat")


@pytest.mark.parametrize("path", RUNS)
def test_minizinc_through_the_minizinc_program(path, tmp_path):
    need_engine("minizinc")
    from polydoku.engines.sandbox import find_program
    puzzle = read_puzzle(path)
    export(puzzle, "minizinc", tmp_path)
    r = subprocess.run([find_program("minizinc"), "--solver", "gecode", "model.mzn", "data.dzn"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120)
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("cells:"))
    assert is_solution(puzzle, [int(v) for v in line.split()[1:]])


@pytest.mark.parametrize("path", RUNS)
def test_asp_through_clingo(path, tmp_path):
    need_engine("clingo")
    import clingo
    puzzle = read_puzzle(path)
    export(puzzle, "asp", tmp_path)
    ctl = clingo.Control(["0"])
    ctl.load(str(tmp_path / "puzzle.lp"))
    ctl.ground([("base", [])])
    models = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
    assert len(models) == 1                       # every puzzle here has one solution
    pairs = [((s.arguments[0].arguments[0].number, s.arguments[0].arguments[1].number),
              s.arguments[1].number) for s in models[0]]
    assert is_solution(puzzle, _grid_from_pairs(pairs, puzzle.size))


@pytest.mark.parametrize("fmt, tool", [("alloy", "Alloy"), ("picat", "Picat")])
def test_alloy_and_picat_readmes_say_where_to_get_the_tool(fmt, tool, tmp_path):
    export(read_puzzle(FOUR), fmt, tmp_path)
    text = (tmp_path / "README.md").read_text()
    assert f"{tool} is not in the package registries" in text
    assert f"--engine {fmt}" in text


def test_alloy_instance_is_read_back():
    problem = build_problem(read_puzzle("1234341221434321"))
    tuples = "".join(f'<tuple><atom label="{problem.name(i)}$0"/><atom label="N{v}$0"/></tuple>'
                     for i, v in enumerate(problem.puzzle.givens))
    xml = (f'<alloy builddate="x"><instance bitwidth="4"><field label="number" ID="9">'
           f'{tuples}</field></instance></alloy>')
    assert read_alloy_xml("solving...\n" + xml, problem) == problem.puzzle.givens
    assert read_alloy_xml("no instance", problem) is None


@pytest.mark.parametrize("engine_id", ["alloy", "picat"])
def test_missing_alloy_or_picat_names_how_to_get_it(run_cli, engine_id):
    from polydoku.engines import make_engine
    if make_engine(engine_id).available().ok:
        pytest.skip(f"{engine_id} is installed here; the solver tests run it")
    r = run_cli("solve", FOUR, "--engine", engine_id)
    assert r.code == 3 and "Traceback" not in r.err
    assert ("alloytools.org" if engine_id == "alloy" else "picat-lang.org") in r.err


@pytest.mark.parametrize("engine_id", ["alloy", "picat"])
def test_alloy_and_picat_solve_when_installed(engine_id):
    from polydoku import api
    from polydoku.engines import make_engine
    engine = make_engine(engine_id)
    if not engine.available().ok:
        pytest.skip(f"{engine_id} is not installable from the registries here")
    for path in (FOUR, str(EXAMPLES / "miracle.json")):
        outcome = api.solve(read_puzzle(path), engine, timeout=300)
        assert outcome.status.value == "solved"
