"""Formats: every reader, every writer, round trips (Hypothesis) and one-line errors with places."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from polydoku.errors import BadInput
from polydoku.formats import read_puzzle, read_puzzles
from polydoku.formats.grid import parse_grid, write_grid
from polydoku.formats.jsonfmt import parse_json, write_json
from polydoku.formats.line import parse_line, write_line
from polydoku.formats.specs import parse_specs, write_specs
from polydoku.model import Geometry, Puzzle, parse_rules

WIKI = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@st.composite
def puzzles(draw):
    size = draw(st.sampled_from([4, 6, 8, 9, 12, 16, 25]))
    g = Geometry.of_size(size)
    givens = draw(st.lists(st.integers(0, size), min_size=g.ncells, max_size=g.ncells))
    rules = draw(st.sampled_from(["", "anti-knight", "diagonal,non-consecutive"]))
    return Puzzle(g, tuple(givens), parse_rules(rules))


@settings(max_examples=60, deadline=None)
@given(puzzles())
def test_round_trips(p):
    assert parse_line(write_line(p), rules=p.rules) == p
    assert parse_grid(write_grid(p), rules=p.rules) == p
    assert parse_grid(write_grid(p, separators=False), rules=p.rules) == p
    assert parse_json(write_json(p)) == p
    assert parse_specs(write_specs(p), size=p.size, rules=p.rules) == p


def test_line_zero_and_dot():
    assert parse_line(WIKI.replace(".", "0")) == parse_line(WIKI)


def test_sixteen_uses_letters():
    p = parse_line("123456789ABCDEFG" + "." * 240)
    assert p.size == 16 and p.givens[:16] == tuple(range(1, 17))
    assert write_line(p)[:16] == "123456789ABCDEFG"


def test_specs_conda_style():
    p = parse_specs("1x1-is=5 1x2-is=3 9x9-is=9")
    assert p.size == 9 and p.given_names() == ["r1c1=5", "r1c2=3", "r9c9=9"]


def test_json_variants_fields():
    p = parse_json(json.dumps({"id": "x", "size": 16, "box_rows": 4, "box_cols": 4,
                               "alphabet": "ABCDEFGHIJKLMNOP", "givens": "A" + "." * 255,
                               "rules": ["anti-king"]}))
    assert p.name == "x" and p.givens[0] == 1 and p.rules[0].name == "anti-king"


@pytest.mark.parametrize("text, message", [
    ("53..7", "wrong length: 5 symbols"),
    (WIKI[:-1] + "x", "column 81: bad symbol 'x'"),
    ('{"size": 9, "givens": 3}', "no \"givens\" string"),
    ('{"givens": "12', "malformed JSON"),
    ("1x1-is=5 10x1-is=2 junk", None),
])
def test_bad_input_names_place(text, message):
    with pytest.raises(BadInput) as err:
        read_puzzle(text)
    if message:
        assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_grid_with_bad_row_names_line():
    text = write_grid(parse_line(WIKI)).splitlines()
    text[5] = text[5].replace("4", "44", 1)
    with pytest.raises(BadInput, match=r"line 6: row has 10 cells"):
        parse_grid("\n".join(text))


def test_file_of_many_streams_with_line_numbers(tmp_path):
    f = tmp_path / "set.txt"
    f.write_text(f"# a comment\n{WIKI}\n\n{WIKI[:-3]}\n{WIKI}  # trailing comment\n")
    entries = list(read_puzzles(str(f)))
    assert [e.line for e in entries] == [2, 4, 5]
    assert entries[0].puzzle == parse_line(WIKI, name=None).__class__(
        entries[0].puzzle.geometry, parse_line(WIKI).givens, (), "123456789", entries[0].puzzle.name)
    assert entries[1].error and "line 4" in str(entries[1].error)
    assert entries[2].puzzle.givens == parse_line(WIKI).givens


def test_missing_file():
    with pytest.raises(BadInput, match="no such file"):
        read_puzzle("puzzles/none.txt")
