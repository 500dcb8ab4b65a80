"""Rectangular grids (ISS's `Shape~6x8`): rows and columns of different lengths, the longer
holding every value, boxes as ISS cuts them. The kinds that say they read such grids
(`any_shape`) are held to their own statement, the engines to each other, and the formats
read and write the shape."""

from __future__ import annotations


import pytest
from hypothesis import given, settings, strategies as st

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.grid import write_grid
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.jsonfmt import puzzle_from_dict, write_json
from polydoku.model import Geometry, Puzzle
from polydoku.render import render_svg
from polydoku.rules import rules_from_data
from polydoku.rules.registry import kinds

from test_more_values import engines_agree, held_to_statement

RECT = Geometry.irregular(4, [], ncols=5)              # 4 rows of 5 cells, values 1..5
RECT0 = Geometry.irregular(4, [], low=0, ncols=5)      # the same of 0..4
SHAPED = sorted(k for k, cls in kinds().items() if cls.any_shape)


def test_a_rectangular_grid_has_rows_columns_and_boxes_of_its_own_lengths():
    g = puzzle_from_dict({"size": [6, 8], "givens": "." * 48}).geometry
    assert (g.size, g.width, g.nvalues, g.ncells) == (6, 8, 8, 48)
    assert (g.box_rows, g.box_cols) == (2, 4)           # as ISS cuts a 6x8
    assert len(g.rows) == 6 and len(g.cols) == 8 and all(len(c) == 6 for c in g.cols)
    assert g.unit_name(6) == "column 1" and g.unit_name(14) == "box 1"
    assert g.cell(9) == (1, 1) and g.index((5, 7)) == 47
    tall = puzzle_from_dict({"size": [10, 5], "givens": "." * 50}).geometry
    assert (tall.box_rows, tall.box_cols) == (2, 5)
    assert not puzzle_from_dict({"size": [4, 7], "givens": "." * 28}).geometry.has_boxes


@pytest.mark.parametrize("kind", SHAPED)
def test_each_kind_on_any_shape_lowers_to_its_own_statement(kind):
    checked = held_to_statement(kind, (RECT, RECT0), kind + "shape")
    assert checked >= 30, checked


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 6))
def test_native_sat_and_cpsat_count_the_same_on_a_rectangle(seed, nclues):
    engines_agree(RECT, seed, nclues + 7)


def test_a_square_only_kind_is_refused_by_name_on_a_rectangle():
    assert "x-sum" not in SHAPED and "diagonal" not in SHAPED
    with pytest.raises(BadInput, match=r"rule 1 \(diagonal\): polydoku reads this kind on "
                                       r"square grids only, not 4x5"):
        Puzzle(RECT, (0,) * 20, rules_from_data(["diagonal"], RECT))


def test_json_iss_text_and_pictures_keep_the_shape():
    puzzle = parse_iss(".Shape~6x8.~R1C8_8.Cage~15~R6C7~R6C8")
    assert puzzle.geometry.shape_words() == "6x8" and puzzle.givens[7] == 8
    assert parse_iss(to_iss(puzzle)) == puzzle
    data = write_json(puzzle)
    assert '"size": [6, 8]' in data
    assert puzzle_from_dict(__import__("json").loads(data)) == puzzle
    solution = api.solve(puzzle, api.get_engine("native")).solutions[0]
    text = write_grid(puzzle, solution).splitlines()
    assert len(text) == 6 + 2 and text[0].count("|") == 1      # two bands of boxes 2x4
    svg = render_svg(puzzle, solution)
    assert 'class="cell' in svg and svg.count('class="cell ') == 48
    with pytest.raises(BadInput, match="square grids, not 6x8"):
        from polydoku.formats.fpuzzles import to_fpuzzles
        to_fpuzzles(puzzle)


def test_the_cli_solves_a_rectangle_and_names_what_it_refuses(run_cli):
    r = run_cli("solve", ".Shape~4x6.~R1C1_1~R1C2_2~R1C3_3~R2C1_4", "--count")
    assert r.code == 0, r.err
    r = run_cli("steps", ".Shape~4x6.~R1C1_1")
    assert r.code == 2 and "not 6 values on 4x6 cells" in r.err and "Traceback" not in r.err
    r = run_cli("solve", ".Shape~4x6.~R1C1_1", "--engine", "clingo")
    assert r.code != 0 and "4x6 cells" in r.err


def test_the_docs_name_every_kind_that_reads_a_rectangle():
    import re
    from conftest import ROOT
    text = " ".join((ROOT / "docs" / "rules.md").read_text().split(" "))
    section = text.split("**Rectangular grids.**", 1)[1].split("\n\n", 1)[0]
    listed = " ".join(section.split()).split("The kinds that read them:", 1)[1]
    assert set(re.findall(r"`([a-z-]+)`", listed)) == set(SHAPED)


def test_a_region_cell_outside_a_rectangle_is_named_by_its_cell():
    with pytest.raises(BadInput, match=r"^JSON \"regions\": r5c1 is outside the 4x6 grid$"):
        puzzle_from_dict({"size": [4, 6], "regions": [["r1c1", " r5c1\n"]], "givens": "." * 24})


@pytest.mark.parametrize("kind, moves", [("anti-knight", {(1, 2), (2, 1)}),
                                         ("anti-king", {(0, 1), (1, 0), (1, 1)})])
def test_chess_moves_on_a_rectangle_are_read_by_rows_and_columns(kind, moves):
    """The pairs a move apart, from the cells' own rows and columns (a 4x6 grid)."""
    g = Geometry.irregular(4, [], ncols=6)
    rule = rules_from_data([kind], g)[0]
    cells = [(r, c) for r in range(4) for c in range(6)]
    expected = {(g.index(a), g.index(b)) for a in cells for b in cells
                if g.index(a) < g.index(b) and (abs(a[0] - b[0]), abs(a[1] - b[1])) in moves}
    assert set(rule.pairs(g)) == expected


def test_an_iss_indexer_on_a_rectangle_points_along_its_own_row():
    """ISS's "Answers on a Postcard" (a 6x9 grid with column indexers and anti-knight, in
    tests/data/iss_collection.jsonl) keeps its published grid and is unique."""
    import json

    from conftest import ROOT
    line = next(d for d in map(json.loads, (ROOT / "tests" / "data" / "iss_collection.jsonl")
                                .read_text().splitlines()) if d["name"] == "Answers on a Postcard")
    puzzle = parse_iss(line["input"])
    out = api.count(puzzle, api.get_engine("native"), limit=2)
    assert len(out.solutions) == 1 and out.exhausted
    assert "".join(map(str, out.solutions[0])) == line["solution"]


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 9), st.integers(4, 9), st.integers(0, 10_000), st.booleans())
def test_a_text_grid_of_a_rectangle_reads_back_as_written(rows, cols, seed, separators):
    """Rows of one length other than their count are a rectangle: the text grid polydoku
    writes reads back with its shape, its boxes (as ISS cuts them) and its givens."""
    import random

    from polydoku.engines.native import random_solution
    from polydoku.formats.read import read_text
    from polydoku.problem import build_problem
    if rows == cols:
        rows += 1
    puzzle = puzzle_from_dict({"size": [rows, cols], "givens": "." * (rows * cols)})
    rng = random.Random(seed)
    grid = random_solution(build_problem(puzzle), rng)
    givens = tuple(v if rng.random() < 0.3 else 0 for v in grid)
    puzzle = Puzzle(puzzle.geometry, givens)
    text = write_grid(puzzle, separators=separators)
    read = read_text(text)
    assert read.geometry == puzzle.geometry and read.givens == givens
