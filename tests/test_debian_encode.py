"""The Debian encoders: golden Packages files on a 4x4, and the Packages file means exactly the
problem (an installation of `puzzle` exists for a grid iff the grid is a solution), checked
with an independent reading of Debian's Depends/Provides/Conflicts. No tool runs here (see
test_debian.py)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from polydoku.engines.debian import layout
from polydoku.engines.debian.encode import (REDUCTIONS, VARIANTS, encode, package, parse_package,
                                            stanzas)
from polydoku.engines.native import search
from polydoku.formats import read_puzzle
from polydoku.model import Puzzle
from polydoku.rules import parse_rules
from polydoku.problem import Problem, Table, build_problem
from polydoku.verify import grid_problems

from conftest import EXAMPLES, data_path

GOLDEN = Path(__file__).parent / "golden" / "debian"
DEBIAN_NAME = re.compile(r"^[a-z0-9][a-z0-9+.-]+$")


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


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_four(reduction, variant):
    golden(f"four.{reduction}.{variant}.Packages", encode(four(), reduction, variant))


def test_golden_four_with_variant_rules():
    # diagonals become virtual packages diag-V/antidiag-V; |x-y| != 1 becomes concrete Conflicts
    text = encode(four("diagonal,non-consecutive"), "conflicts", "faithful")
    golden("four-diagonal-non-consecutive.conflicts.faithful.Packages", text)
    assert "Conflicts: cell1.1, row1-1, col1-1, block1.1-1, diag-1, cell1.2-2, cell2.1-2\n" in text


def test_faithful_conflicts_is_the_write_up_encoding():
    text = encode(build_problem(read_puzzle(str(EXAMPLES / "wikipedia.txt"))))
    assert text.count("Package: ") == 729 + 1
    assert ("Package: cell2.5-9\nVersion: 1\nArchitecture: all\n" in text)
    assert "Provides: cell2.5, row2-9, col5-9, block1.2-9\n" \
           "Conflicts: cell2.5, row2-9, col5-9, block1.2-9\n" in text
    puzzle = text.split("\n\n")[0]
    assert "Depends: cell1.1-5, cell1.2-3, cell1.3, cell1.4, cell1.5-7," in puzzle


def test_names_work_up_to_25():
    line = [ln for ln in data_path("variants/variants.jsonl").read_text().splitlines()
            if '"joon-25x25-a"' in ln][0]
    problem = build_problem(read_puzzle(line))
    paragraphs = stanzas(problem, "conflicts", "faithful")
    assert len(paragraphs) == 25 ** 3 + 1
    names = {p.name for p in paragraphs} | {v for p in paragraphs for v in p.provides}
    assert all(DEBIAN_NAME.match(n) for n in names), [n for n in names if not DEBIAN_NAME.match(n)]
    assert parse_package(package(problem, 624, 25)) == (24, 24, 25)
    assert "block5.5-25" in names and "cell25.25" in names


def test_tuned_publishes_nothing_a_given_excludes():
    problem = build_problem(read_puzzle(str(EXAMPLES / "wikipedia.txt")))
    names = {s.name for s in stanzas(problem, "conflicts", "tuned")}
    assert "cell1.1-5" in names and "cell1.1-4" not in names     # r1c1 is the given 5
    assert "cell1.3-5" not in names and "cell1.3-3" not in names  # 5, 3 given in row 1
    assert "cell1.3-4" in names
    root = stanzas(problem, "conflicts", "tuned")[0]
    sizes = [len(alt) for alt in root.depends]
    assert sizes == sorted(sizes)                                 # fewest candidates first


def installable(paragraphs, chosen: set[str]) -> bool:
    """Return whether `chosen` (which must hold puzzle) satisfies every Depends and Conflicts."""
    by_name = {p.name: p for p in paragraphs}
    if not chosen <= set(by_name) or layout.ROOT_PACKAGE not in chosen:
        return False
    provided: dict[str, set[str]] = {}
    for name in chosen:
        for n in [name, *by_name[name].provides]:
            provided.setdefault(n, set()).add(name)
    for name in chosen:
        p = by_name[name]
        if not all(any(provided.get(a) for a in alt) for alt in p.depends):
            return False
        if any(provided.get(c, set()) - {name} for c in p.conflicts):
            return False
    return True


def packages_of(problem: Problem, grid: tuple[int, ...], paragraphs) -> set[str]:
    """Return the packages that install a grid: puzzle, its cells, the tables' matching tuples."""
    chosen = {layout.ROOT_PACKAGE} | {package(problem, x, v) for x, v in enumerate(grid)}
    for p in paragraphs:
        if p.name.startswith("table") and "-" in p.name and all(
                alt[0] in chosen for alt in p.depends):
            chosen.add(p.name)
            chosen.add(p.name.split("-")[0])
    return chosen


RULES = ["", "anti-king", "diagonal", "non-consecutive", "diagonal,anti-knight"]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_solution_is_an_installation(rules, reduction, variant):
    puzzle = Puzzle.empty(4, parse_rules(rules)).with_given((0, 0), 1)
    problem = build_problem(puzzle)
    paragraphs = stanzas(problem, reduction, variant)
    solutions = search(problem, max_solutions=1000).solutions
    for grid in solutions:
        assert installable(paragraphs, packages_of(problem, grid, paragraphs))


@settings(max_examples=150, deadline=None)
@given(grid=st.lists(st.integers(1, 4), min_size=16, max_size=16),
       rules=st.sampled_from(RULES), reduction=st.sampled_from(REDUCTIONS),
       variant=st.sampled_from(VARIANTS))
def test_an_installation_is_a_solution(grid, rules, reduction, variant):
    puzzle = read_puzzle(str(EXAMPLES / "four.txt"), rules=parse_rules(rules))
    problem = build_problem(puzzle)
    paragraphs = stanzas(problem, reduction, variant)
    ok = installable(paragraphs, packages_of(problem, tuple(grid), paragraphs))
    assert ok == (not grid_problems(puzzle, tuple(grid)))


def test_a_table_is_a_package_whose_alternatives_are_its_tuples():
    base = four()
    # r1c1 and r2c2 (0 and 5) must be one of (1, 2) or (2, 1)
    table = Table((0, 5), ((1, 2), (2, 1)), "pair")
    problem = Problem(base.size, base.nvars, base.constraints + (table,), (), base.names)
    paragraphs = stanzas(problem, "conflicts", "faithful")
    head = next(p for p in paragraphs if p.name == "table1")
    assert head.depends == [["table1-1", "table1-2"]]
    assert next(p for p in paragraphs if p.name == "table1-2").depends == [["cell1.1-2"],
                                                                           ["cell2.2-1"]]
    assert ["table1"] in paragraphs[0].depends
    for grid in search(problem, max_solutions=1000).solutions:
        assert installable(paragraphs, packages_of(problem, grid, paragraphs))
    wrong = next(g for g in search(base.with_givens(()), max_solutions=1000).solutions
                 if (g[0], g[5]) == (1, 3))
    assert not installable(paragraphs, packages_of(problem, wrong, paragraphs))


def test_layout_keeps_every_path_inside_the_tree():
    root = "/tmp/polydoku-x/apt"
    for key, value in layout.apt_settings(root):
        if key.startswith("Dir"):
            assert value.startswith(root + "/"), key
    files = layout.tree_files(root, "Package: puzzle\n")
    assert files["state/status"] == ""
    assert f'Dir::State::status "{root}/state/status";' in files[layout.APT_CONF]
    assert "Debug::NoLocking" in files[layout.APT_CONF]
    assert files["etc/apt/sources.list"] == f"deb [trusted=yes] file:{root}/repo ./\n"
    assert f"Aptitude::ProblemResolver::Hints::={layout.APTITUDE_HINT}" in \
        layout.aptitude_command(root)


def test_tuned_is_both_reductions_at_once():
    problem = build_problem(read_puzzle(str(EXAMPLES / "wikipedia.txt")))
    tuned = encode(problem, "conflicts", "tuned")
    assert tuned == encode(problem, "depends", "tuned")
    assert "Provides: cell1.3, row1-4, col3-4, block1.1-4\n" in tuned           # at most once
    depends = [alt.split(" | ") for alt in
               tuned.split("\n\n")[0].split("Depends: ")[1].split("\n")[0].split(", ")]
    places = [[parse_package(a) for a in alt] for alt in depends if len(alt) > 1]
    # at least once: some dependency offers one value in several cells (a unit's places for it)
    assert any(len({p[2] for p in alt}) == 1 and len({p[:2] for p in alt}) > 1 for alt in places)
