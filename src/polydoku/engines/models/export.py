"""The model exporters behind `polydoku export PUZZLE --to FORMAT --out DIR`.

Each writes the model file(s) and a README.md with the exact commands to run them, and
returns the files written. The encoders are pure and live beside their engines; this module
only names files and writes them. It runs nothing.
"""

from __future__ import annotations

from pathlib import Path

from ...model import Puzzle
from ...files import write_file
from ...problem import build_problem
from . import alloy, picat, smtlib
from .common import puzzle_title, readme

DECODE = ("Read the answer back: a line of cell values (row-major) is what "
          "`polydoku check` takes, e.g. `polydoku check GRID --puzzle PUZZLE`.")


def _write(out: Path, files: dict[str, str]) -> list[Path]:
    written = []
    for name, text in files.items():
        written.append(write_file(out / name, text, make_parents=True))
    return written


def dimacs(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write `puzzle.cnf` (DIMACS CNF, givens as unit clauses, a comment map) and a README."""
    from ..cnf import encode, to_dimacs
    problem = build_problem(puzzle)
    cnf = encode(problem)
    text = to_dimacs(cnf, problem, cnf.given_literals(problem))
    doc = readme(f"DIMACS CNF: {puzzle_title(problem)}",
                 f"`puzzle.cnf`: variable `cell * {cnf.size} + value` (cells numbered row-major "
                 "from 0) means \"the cell holds the value\"; the comment lines `c VAR rNcM=V` map "
                 "each variable to its cell and value. The givens are the unit clauses at the end.",
                 [("Solve it with any SAT solver that reads DIMACS (Debian: picosat, cadical, minisat):",
                   "picosat puzzle.cnf      # or: cadical puzzle.cnf / minisat puzzle.cnf out.txt"),
                  ("Or with PySAT, printing the true cell variables as rNcM=V:",
                   "python3 -c \"import re; from pysat.formula import CNF; from pysat.solvers import "
                   "Solver; names = dict(re.findall(r'^c (\\d+) (r\\d+c\\d+=\\d+)$', "
                   "open('puzzle.cnf').read(), re.M)); s = Solver(bootstrap_with=CNF(from_file="
                   "'puzzle.cnf').clauses); print(s.solve() and ' '.join(names[str(v)] for v in "
                   "s.get_model() if str(v) in names))\"")],
                 "The positive literals of the model that the comment map names are the solution.")
    return _write(out, {"puzzle.cnf": text, "README.md": doc})


def smt(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write `puzzle.smt2` (SMT-LIB 2, QF_LIA) and a README."""
    problem = build_problem(puzzle)
    doc = readme(f"SMT-LIB: {puzzle_title(problem)}",
                 "`puzzle.smt2`: one integer per cell `rNcM`, the rules as assertions, the "
                 "givens as equalities, then `(check-sat)` and `(get-value ...)` of every cell.",
                 [("Run it with any SMT-LIB solver:", "z3 puzzle.smt2      # or: cvc5 puzzle.smt2")],
                 "It prints `sat` and `((r1c1 V) (r1c2 V) ...)`, or `unsat`. " + DECODE)
    return _write(out, {"puzzle.smt2": smtlib.script(problem), "README.md": doc})


def minizinc(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write `model.mzn` (the rules) and `data.dzn` (the givens) and a README."""
    from ..minizinc.encode import data_text, model_text
    problem = build_problem(puzzle)
    doc = readme(f"MiniZinc: {puzzle_title(problem)}",
                 "`model.mzn` holds the rules (it depends only on the grid and the rules); "
                 "`data.dzn` holds the givens (0 = empty).",
                 [("Solve it with MiniZinc and Gecode (Debian: apt-get install minizinc):",
                   "minizinc --solver gecode model.mzn data.dzn"),
                  ("Count the solutions:",
                   "minizinc --solver gecode --all-solutions model.mzn data.dzn | grep -c '^cells:'")],
                 "It prints `cells: V V V ...` (row-major) per solution, or "
                 "`=====UNSATISFIABLE=====`. " + DECODE)
    return _write(out, {"model.mzn": model_text(problem), "data.dzn": data_text(problem),
                        "README.md": doc})


def asp(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write `puzzle.lp` (an answer-set program for clingo, givens as facts) and a README."""
    from ..asp.encode import program
    problem = build_problem(puzzle)
    doc = readme(f"ASP: {puzzle_title(problem)}",
                 "`puzzle.lp`: the rules as facts under a few generic rules, the givens as "
                 "`given/2` facts; an answer set shows `x(c(Row,Column),Value)` for every cell.",
                 [("Solve it with clingo (pip install clingo, or Debian: apt-get install gringo):",
                   "clingo puzzle.lp"),
                  ("Count the answer sets (0 = all):", "clingo puzzle.lp 0 --quiet=1")],
                 "`SATISFIABLE` with `Models : 1` for a proper puzzle; `UNSATISFIABLE` when none.")
    return _write(out, {"puzzle.lp": program(problem, givens=True), "README.md": doc})


def alloy_model(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write `puzzle.als` (an Alloy 6 model in the write-up's shape) and a README."""
    problem = build_problem(puzzle)
    doc = readme(f"Alloy: {puzzle_title(problem)}",
                 "`puzzle.als`: signatures for numbers, rows, columns, boxes and cells, the rules "
                 f"as the fact `Rules_of_the_game`, the givens as the predicate "
                 f"`{alloy.predicate_name(problem)}`, and a `run` command with the scopes.",
                 [("Open it in the Alloy 6 analyzer and execute the command, or from a shell:",
                   "java -jar org.alloytools.alloy.dist.jar exec -t xml -o - puzzle.als")],
                 "Alloy is not in the package registries polydoku installs from (PyPI, Debian, "
                 "npm): get the jar from the Alloy releases (alloytools.org). `polydoku solve "
                 "PUZZLE --engine alloy` runs it when `alloy` is on PATH or POLYDOKU_ALLOY_JAR "
                 "names the jar.")
    return _write(out, {"puzzle.als": alloy.model_text(problem), "README.md": doc})


def picat_program(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write `puzzle.pi` (a Picat constraint program) and a README."""
    problem = build_problem(puzzle)
    doc = readme(f"Picat: {puzzle_title(problem)}",
                 "`puzzle.pi`: the board with the givens, `all_different` per row, column and "
                 "box, the variant rules as lists of cell pairs; `main` solves and prints.",
                 [("Run it with Picat:", "picat puzzle.pi")],
                 "It prints `solution: V V V ...` (row-major) or `no solution`. Picat is not in "
                 "the package registries polydoku installs from (PyPI, Debian, npm): get it from "
                 "picat-lang.org. `polydoku solve PUZZLE --engine picat` runs it when `picat` is "
                 "on PATH. " + DECODE)
    return _write(out, {"puzzle.pi": picat.program_text(problem), "README.md": doc})
