"""The conda encoder: golden channels on a 4x4, and the channel means exactly the problem (an
installation of the specs exists for a grid iff the grid is a solution), checked with an
independent reading of conda's match specs, depends and constrains. No tool runs here (see
test_conda.py)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from polydoku.engines.conda.encode import VARIANTS, encode, package_name
from polydoku.engines.native import search
from polydoku.formats import read_puzzle
from polydoku.model import Puzzle
from polydoku.rules import parse_rules
from polydoku.problem import Problem, Table, build_problem
from polydoku.verify import grid_problems

from conftest import EXAMPLES, data_path

GOLDEN = Path(__file__).parent / "golden" / "conda"
CONDA_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
SPEC = re.compile(r"^([^\s=!<>]+)(?:\s*(!=|==|=)\s*([^\s]+))?$")


def golden(name: str, text: str) -> None:
    """Compare `text` with a golden file (POLYDOKU_REGEN_GOLDEN=1 rewrites it)."""
    path = GOLDEN / name
    if os.environ.get("POLYDOKU_REGEN_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path} (run with POLYDOKU_REGEN_GOLDEN=1)"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def four(rules: str = "") -> Problem:
    return build_problem(read_puzzle(str(EXAMPLES / "four.txt"), rules=parse_rules(rules)))


def channel_text(problem: Problem, variant: str, **options) -> str:
    channel = encode(problem, variant, options)
    return channel.files()["noarch/repodata.json"] + "# specs: " + " ".join(channel.specs) + "\n"


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_four(variant):
    golden(f"four.{variant}.repodata.json", channel_text(four(), variant))


def test_golden_four_with_variant_rules():
    text = channel_text(four("diagonal,non-consecutive"), "faithful")
    golden("four-diagonal-non-consecutive.faithful.repodata.json", text)
    # |r1c1 - r1c2| != 1 is a nogood between different values: on 1x1-is 2, `1x2-is !=1/!=3`
    record = json.loads(text.split("# specs")[0])["packages"]["1x1-is-2-sudoku.tar.bz2"]
    assert {"1x2-is !=1", "1x2-is !=3", "2x1-is !=1", "2x1-is !=3"} <= set(record["depends"])


def test_faithful_is_the_write_up_channel():
    problem = build_problem(read_puzzle(str(EXAMPLES / "wikipedia.txt")))
    channel = encode(problem)
    packages = channel.repodata["packages"]
    assert len(packages) == 729 + 1
    record = packages["1x1-is-1-sudoku.tar.bz2"]
    assert record["name"] == "1x1-is" and record["version"] == "1" and record["build"] == "sudoku"
    assert record["depends"][0] == "sudoku"
    assert set(record["depends"][1:]) == {f"{r}x1-is !=1" for r in range(2, 10)} | \
        {f"1x{c}-is !=1" for c in range(2, 10)} | {"2x2-is !=1", "2x3-is !=1", "3x2-is !=1",
                                                  "3x3-is !=1"}
    assert packages["sudoku-0-sudoku.tar.bz2"]["depends"] == \
        [f"{r}x{c}-is" for r in range(1, 10) for c in range(1, 10)]
    assert channel.specs[:3] == ("1x1-is=5", "1x2-is=3", "1x5-is=7")
    assert channel.specs[-1] == "sudoku" and len(channel.specs) == 30 + 1


def test_names_work_up_to_25():
    line = [ln for ln in data_path("variants/variants.jsonl").read_text().splitlines()
            if '"joon-25x25-a"' in ln][0]
    problem = build_problem(read_puzzle(line))
    channel = encode(problem, "tuned")
    names = {r["name"] for r in channel.repodata["packages"].values()}
    assert all(CONDA_NAME.match(n) for n in names), [n for n in names if not CONDA_NAME.match(n)]
    assert package_name(problem, 624) == "25x25-is" and "25x25-is" in names
    assert "box-25-has-25" in names or any(n.startswith("box-25-has-") for n in names)


def test_tuned_publishes_nothing_a_given_excludes():
    problem = build_problem(read_puzzle(str(EXAMPLES / "wikipedia.txt")))
    packages = encode(problem, "tuned").repodata["packages"]
    versions = {(r["name"], r["version"]) for r in packages.values()}
    assert ("1x1-is", "5") in versions and ("1x1-is", "4") not in versions   # the given 5
    assert ("1x3-is", "5") not in versions and ("1x3-is", "3") not in versions
    assert ("1x3-is", "4") in versions
    assert all("sudoku" not in r["depends"] for r in packages.values() if r["name"] != "sudoku")
    root = packages["sudoku-0-sudoku.tar.bz2"]["depends"]
    counts = {}
    for r in packages.values():
        counts[r["name"]] = counts.get(r["name"], 0) + 1
    sizes = [counts.get(name, 0) for name in root]
    assert sizes == sorted(sizes)                                         # fewest candidates first
    assert "row-1-has-4" in root and "row-1-has-5" not in root            # 5 is given in row 1


# ---------------------------------------------------------------- an independent reading

def _match(spec: str, installed: dict[str, str], constrains: bool = False) -> bool:
    """Return whether the installed set meets a depends spec (or a constrains spec)."""
    m = SPEC.match(spec)
    assert m, spec
    name, op, version = m.groups()
    if name not in installed:
        return constrains
    have = installed[name]
    if op is None:
        return True
    if op == "!=":
        return have != version
    if op == "==":
        return have == version
    return have == version or have.startswith(version + ".")      # conda's fuzzy `=v` is v.*


def installable(problem: Problem, variant: str, grid: tuple[int, ...], **options) -> bool:
    """Return whether some installation of the channel's specs sets each cell to `grid`."""
    channel = encode(problem, variant, options)
    records = list(channel.repodata["packages"].values())
    installed = {package_name(problem, x): str(v) for x, v in enumerate(grid)}
    installed["sudoku"] = "0"
    chosen = {}
    for rec in records:
        if installed.get(rec["name"]) == rec["version"]:
            chosen[rec["name"]] = rec
    if set(chosen) != set(installed):
        return False                     # a cell value that is not published
    # the other packages (tables, units) only depend on cells: take any version that fits
    for rec in records:
        if rec["name"] not in chosen and all(_match(d, installed) for d in rec["depends"]):
            chosen[rec["name"]] = rec
            installed[rec["name"]] = rec["version"]
    return (all(_match(s, installed) for s in channel.specs)
            and all(_match(d, installed) for rec in chosen.values() for d in rec["depends"])
            and all(_match(c, installed, constrains=True)
                    for rec in chosen.values() for c in rec.get("constrains", ())))


RULES = ["", "anti-king", "diagonal", "non-consecutive", "diagonal,anti-knight"]
OPTIONS = [{}, {"nogoods": "constrains"}]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_solution_is_an_installation(rules, variant):
    puzzle = Puzzle.empty(4, parse_rules(rules)).with_given((0, 0), 1)
    problem = build_problem(puzzle)
    for grid in search(problem, max_solutions=1000).solutions:
        assert installable(problem, variant, grid)


@settings(max_examples=150, deadline=None)
@given(grid=st.lists(st.integers(1, 4), min_size=16, max_size=16),
       rules=st.sampled_from(RULES), variant=st.sampled_from(VARIANTS),
       options=st.sampled_from(OPTIONS))
def test_an_installation_is_a_solution(grid, rules, variant, options):
    puzzle = read_puzzle(str(EXAMPLES / "four.txt"), rules=parse_rules(rules))
    ok = installable(build_problem(puzzle), variant, tuple(grid), **options)
    assert ok == (not grid_problems(puzzle, tuple(grid)))


@pytest.mark.parametrize("rules", RULES[1:])
@pytest.mark.parametrize("variant", VARIANTS)
def test_classic_solutions_that_break_a_rule_are_refused(rules, variant):
    # grids that keep rows, columns and boxes but break the variant rule
    puzzle = Puzzle.empty(4, parse_rules(rules)).with_given((0, 0), 1)
    problem = build_problem(puzzle)
    classic = search(build_problem(puzzle.with_rules(())), max_solutions=1000).solutions
    broken = [g for g in classic if grid_problems(puzzle, g)]
    assert broken
    for grid in broken:
        assert not installable(problem, variant, grid)


@pytest.mark.parametrize("variant", VARIANTS)
def test_near_solutions_are_refused(variant):
    # a solution with two cells swapped breaks a unit: hypothesis rarely draws those
    puzzle = Puzzle.empty(4, parse_rules("anti-king")).with_given((0, 0), 1)
    problem = build_problem(puzzle)
    for grid in search(problem, max_solutions=1000).solutions[:20]:
        wrong = list(grid)
        wrong[5], wrong[6] = wrong[6], wrong[5]
        assert not installable(problem, variant, tuple(wrong))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_table_is_a_package_whose_versions_are_its_tuples(variant):
    base = four()
    # r1c1 and r2c2 (variables 0 and 5) must be one of (1, 2) or (2, 1)
    table = Table((0, 5), ((1, 2), (2, 1)), "pair")
    problem = Problem(base.size, base.nvars, base.constraints + (table,), (), base.names)
    packages = encode(problem, variant).repodata["packages"]
    assert packages["table-1-2-sudoku.tar.bz2"]["depends"] == ["1x1-is ==2", "2x2-is ==1"]
    assert "table-1" in packages["sudoku-0-sudoku.tar.bz2"]["depends"]
    for grid in search(problem, max_solutions=1000).solutions:
        assert installable(problem, variant, grid)
    wrong = next(g for g in search(base.with_givens(()), max_solutions=1000).solutions
                 if (g[0], g[5]) == (1, 3))
    assert not installable(problem, variant, wrong)


def test_unknown_options_are_refused():
    with pytest.raises(ValueError, match="unknown conda encoding option"):
        encode(four(), "tuned", {"speed": "max"})
    with pytest.raises(ValueError, match="nogoods"):
        encode(four(), "tuned", {"nogoods": "conflicts"})
