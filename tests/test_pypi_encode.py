"""The Python packaging encoder: golden files on a 4x4, wheels and index well formed, and the
index means exactly the lowered problem (no tool runs here; see test_pypi_engines.py)."""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
import os
import re
import tomllib
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from polydoku.engines.pypi import encode
from polydoku.formats import read_puzzle
from polydoku.model import Puzzle
from polydoku.rules import parse_rules
from polydoku.problem import Nogood, Problem, Table, build_problem, domains, lower

from conftest import EXAMPLES

GOLDEN = Path(__file__).parent / "golden" / "pypi"


def golden(name: str, text: str) -> None:
    """Compare `text` with a golden file (POLYDOKU_REGEN_GOLDEN=1 rewrites it)."""
    path = GOLDEN / name
    if os.environ.get("POLYDOKU_REGEN_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path} (run with POLYDOKU_REGEN_GOLDEN=1)"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def four() -> Problem:
    return build_problem(read_puzzle(str(EXAMPLES / "four.txt")))


@pytest.mark.parametrize("encoding", encode.ENCODINGS)
def test_golden_four(encoding):
    index = encode.build_index(four(), encoding)
    golden(f"four.{encoding}.requirements.txt", encode.requirements_txt(index))
    golden(f"four.{encoding}.METADATA.txt", "\n".join(
        encode.metadata_text(p.name, r) for p in index.projects for r in p.releases))
    files = encode.simple_index(index)
    golden(f"four.{encoding}.simple-index.html", files["simple/index.html"].decode())
    golden(f"four.{encoding}.simple-r1c3.html", files["simple/sudoku-r1c3/index.html"].decode())
    golden(f"four.{encoding}.pyproject-poetry.toml", encode.pyproject_poetry(index))
    golden(f"four.{encoding}.pyproject-pep621.toml", encode.pyproject_pep621(index))


def test_wheels_are_well_formed():
    from packaging.metadata import Metadata
    index = encode.build_index(four(), "faithful")
    wheels = encode.wheels(index)
    assert len(wheels) == 16 * 4
    for path, data in wheels.items():
        name, version = re.fullmatch(r"wheels/(\w+)-([\d.]+)-py3-none-any\.whl", path).groups()
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            info = f"{name}-{version}.dist-info"
            assert sorted(zf.namelist()) == [f"{info}/METADATA", f"{info}/RECORD", f"{info}/WHEEL"]
            for line in zf.read(f"{info}/RECORD").decode().splitlines():
                member, digest, size = line.split(",")
                if member.endswith("RECORD"):
                    assert digest == size == ""
                    continue
                body = zf.read(member)
                want = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=")
                assert digest == "sha256=" + want.decode() and int(size) == len(body)
            meta = Metadata.from_email(zf.read(f"{info}/METADATA"), validate=True)
            assert meta.name.replace("-", "_") == name and str(meta.version) == version
    assert wheels == encode.wheels(index), "wheels must be byte-for-byte reproducible"


def test_simple_index_links_hashes_and_metadata_files():
    index = encode.build_index(four(), "tuned")
    files = encode.simple_index(index)
    for project in index.projects:
        page = files[f"simple/{project.name}/index.html"].decode()
        links = re.findall(r'href="([^"#]+)#sha256=(\w+)" data-dist-info-metadata="sha256=(\w+)" '
                           r'data-core-metadata="sha256=(\w+)"', page)
        assert len(links) == len(project.releases) >= 1
        for fname, whl_hash, meta_hash, core_hash in links:
            assert hashlib.sha256(files[f"simple/{project.name}/{fname}"]).hexdigest() == whl_hash
            meta = files[f"simple/{project.name}/{fname}.metadata"]
            assert hashlib.sha256(meta).hexdigest() == meta_hash == core_hash
        assert f'href="{project.name}/"' in files["simple/index.html"].decode()


def test_pyprojects_are_valid_toml_with_every_cell():
    index = encode.build_index(four(), "faithful")
    poetry = tomllib.loads(encode.pyproject_poetry(index, "http://127.0.0.1:1234/simple/"))
    deps = poetry["tool"]["poetry"]["dependencies"]
    assert deps["sudoku-r1c2"] == {"version": "==3.0.0", "source": "sudoku"}
    assert deps["sudoku-r1c1"]["version"] == "*" and len(deps) == 16 + 1    # + python
    assert poetry["tool"]["poetry"]["source"][0]["url"] == "http://127.0.0.1:1234/simple/"
    pep621 = tomllib.loads(encode.pyproject_pep621(index))
    assert "sudoku-r1c4==4.0.0" in pep621["project"]["dependencies"]
    assert len(pep621["project"]["dependencies"]) == 16


def test_names_work_above_nine():
    problem = build_problem(Puzzle.empty(16))
    index = encode.build_index(problem, "faithful")
    names = [p.name for p in index.projects]
    assert len(set(names)) == 256 and "sudoku-r1c11" in names and "sudoku-r11c1" in names
    assert [r.version for r in index.by_name["sudoku-r16c16"].releases][-1] == "16.0.0"
    assert {encode.value_of(r.version) for r in index.by_name["sudoku-r1c10"].releases} == \
        set(range(1, 17))


def allowed_pairs(index: encode.Index, x: str, y: str) -> set[tuple[int, int]]:
    """Return the (value of x, value of y) pairs the index lets both cells hold together."""
    from packaging.specifiers import SpecifierSet
    out = set()
    for rx, ry in itertools.product(index.by_name[x].releases, index.by_name[y].releases):
        ok = all(SpecifierSet(spec).contains(other.version)
                 for this, other in ((rx, ry), (ry, rx))
                 for name, spec in this.requires if name == (y if this is rx else x))
        if ok:
            out.add((encode.value_of(rx.version), encode.value_of(ry.version)))
    return out


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=16, max_size=16),
       st.sampled_from(["", "anti-king", "non-consecutive", "diagonal"]))
def test_index_means_the_lowered_problem(givens, rules):
    """Every pair of cells may hold exactly the value pairs no lowered nogood forbids."""
    puzzle = Puzzle.empty(4, parse_rules(rules)).with_givens(givens)
    problem = build_problem(puzzle)
    forbidden = {(c.x, c.a, c.y, c.b) for c in lower(problem, ()).constraints
                 if isinstance(c, Nogood)}
    index = encode.build_index(problem, "faithful")
    for x, y in itertools.combinations(range(16), 2):
        want = {(a, b) for a in range(1, 5) for b in range(1, 5) if (x, a, y, b) not in forbidden}
        got = allowed_pairs(index, encode.project_name(problem, x), encode.project_name(problem, y))
        assert got == want, (x, y)
    pins = {name: spec for name, spec in index.root if spec}
    assert pins == {encode.project_name(problem, v): f"=={v_}.0.0" for v, v_ in problem.givens}


def test_tuned_prunes_values_held_by_given_peers():
    problem = four()
    index = encode.build_index(problem, "tuned")
    doms = domains(problem, prune=True)
    given = problem.given_map()
    for name, var in index.cells:
        values = {encode.value_of(r.version) for r in index.by_name[name].releases}
        assert values == set(doms[var])
        if var in given:
            assert values == {given[var]}
    # r1c1 sees 3 and 4 in its row and 2 in its column: only 1 is left
    assert [r.version for r in index.by_name["sudoku-r1c1"].releases] == ["1.0.0"]
    # requirements never mention a value that is not published
    for p in index.projects:
        for r in p.releases:
            for name, spec in r.requires:
                for v in re.findall(r"!=(\d+)\.0\.0", spec):
                    assert int(v) in doms[index.variable_of[name]]
    sizes = [len(doms[index.variable_of[name]]) for name, _ in index.root]
    assert sizes == sorted(sizes), "tuned root lists the cells fewest values first"


def test_variant_rules_reach_the_requirements():
    problem = build_problem(read_puzzle(str(EXAMPLES / "miracle.json")))
    index = encode.build_index(problem, "faithful")
    r1c1_5 = dict(index.by_name["sudoku-r1c1"].releases[4].requires)
    assert r1c1_5["sudoku-r1c2"] == "!=4.0.0,!=5.0.0,!=6.0.0"     # row + non-consecutive
    assert r1c1_5["sudoku-r2c3"] == "!=5.0.0"                      # anti-knight
    assert r1c1_5["sudoku-r2c2"] == "!=5.0.0"                      # box (and anti-king)


def test_tables_become_projects_whose_releases_are_tuples():
    base = build_problem(Puzzle.empty(4))
    table = Table((0, 1), ((1, 2), (2, 1), (3, 4)), "cage")
    problem = Problem(base.size, base.nvars, base.constraints + (table,), ((0, 3),), base.names)
    faithful = encode.build_index(problem, "faithful")
    project = faithful.by_name["sudoku-table1"]
    assert [(r.version, r.requires) for r in project.releases] == [
        ("1.0.0", (("sudoku-r1c1", "==1.0.0"), ("sudoku-r1c2", "==2.0.0"))),
        ("2.0.0", (("sudoku-r1c1", "==2.0.0"), ("sudoku-r1c2", "==1.0.0"))),
        ("3.0.0", (("sudoku-r1c1", "==3.0.0"), ("sudoku-r1c2", "==4.0.0")))]
    assert ("sudoku-table1", "") in faithful.root
    tuned = encode.build_index(problem, "tuned")    # r1c1 = 3 is given: one tuple is left
    assert [r.version for r in tuned.by_name["sudoku-table1"].releases] == ["3.0.0"]
