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
from polydoku.model import Geometry, Puzzle
from polydoku.rules import parse_rules

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


# ---------------------------------------------------------------- KSudoku saves

from pathlib import Path  # noqa: E402

from polydoku.formats.ksudoku import parse_ksudoku, read_ksudoku, write_ksudoku  # noqa: E402

KSUDOKU_FIXTURE = Path(__file__).parent / "data" / "wikipedia.ksudoku"
WIKI_SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"


def test_ksudoku_fixture_reads_column_by_column():
    # the hand-made save lists cells column by column; its 10th symbol is r1c2 = 3 ('d')
    text = KSUDOKU_FIXTURE.read_text()
    puzzle, solution = read_ksudoku(text)
    assert puzzle.givens == parse_line(WIKI).givens
    assert "".join(map(str, solution)) == WIKI_SOLUTION
    assert read_puzzle(str(KSUDOKU_FIXTURE)).givens == puzzle.givens    # detected from a file


@st.composite
def square_box_puzzles(draw):
    size = draw(st.sampled_from([4, 9, 16, 25]))
    g = Geometry.of_size(size)
    givens = draw(st.lists(st.integers(0, size), min_size=g.ncells, max_size=g.ncells))
    solution = draw(st.none() | st.lists(st.integers(1, size), min_size=g.ncells,
                                         max_size=g.ncells).map(tuple))
    return Puzzle(g, tuple(givens)), solution


@settings(max_examples=40, deadline=None)
@given(square_box_puzzles())
def test_ksudoku_round_trips(case):
    puzzle, solution = case
    text = write_ksudoku(puzzle, solution)
    assert read_ksudoku(text) == (puzzle, solution)
    assert read_puzzle(text) == puzzle


def test_ksudoku_accepts_old_empty_symbol_and_no_doctype():
    text = ('<ksudoku><game><puzzle><graph type="sudoku" order="4"/>'
            '<values>baaaaaaaaaaaaaa_</values></puzzle></game></ksudoku>')
    assert parse_ksudoku(text).givens == (1,) + (0,) * 15


def ksudoku_with(graph='type="sudoku" order="9"', values="_" * 81):
    return (f"<!DOCTYPE ksudoku>\n<ksudoku>\n <game>\n  <puzzle>\n   <graph {graph}/>\n"
            f"   <values>{values}</values>\n  </puzzle>\n </game>\n</ksudoku>\n")


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE ksudoku [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<ksudoku><game><puzzle><graph type="sudoku" order="9"/><values>&lol9;</values></puzzle></game></ksudoku>
"""

EXTERNAL_ENTITY = """<!DOCTYPE ksudoku [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>
<ksudoku><game><puzzle><graph type="sudoku" order="4"/><values>&x;</values></puzzle></game></ksudoku>
"""


@pytest.mark.parametrize("text, message", [
    (BILLION_LAUGHS, "unsafe XML refused (EntitiesForbidden)"),
    (EXTERNAL_ENTITY, "unsafe XML refused"),
    ("<ksudoku><game>", "line 1, column 16: malformed XML: no element found"),
    ("<sudoku/>", "root element is <sudoku>"),
    (ksudoku_with('type="custom" specific-type="XSudoku" order="9"'),
     "KSudoku game type 'custom' (XSudoku) is not supported"),
    (ksudoku_with('type="roxdoku" order="9"'), "game type 'roxdoku' is not supported"),
    (ksudoku_with('type="sudoku" order="6"', "_" * 36), "order 6 is not a plain sudoku order"),
    (ksudoku_with('type="sudoku" order="nine"'), "order 'nine' is not a whole number"),
    (ksudoku_with(values="_" * 80), "<values> has 80 symbols, expected 81"),
    (ksudoku_with(values="k" + "_" * 80), "<values> symbol 1 is 'k'"),
    (ksudoku_with(values="." + "_" * 80), "<values> symbol 1 is '.'"),
    (ksudoku_with().replace("  <puzzle>", "  <puzzle/><puzzle>"), "2 <puzzle> elements"),
    (ksudoku_with().replace("<values>" + "_" * 81 + "</values>", ""), "no <values> in <puzzle>"),
])
def test_ksudoku_bad_input_is_one_line(text, message):
    with pytest.raises(BadInput) as err:
        read_puzzle(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("puzzle, message", [
    (Puzzle.empty(6), "not 6x6 with 2x3 boxes"),
    (Puzzle.empty(9, parse_rules("diagonal")), "cannot carry the rules diagonal"),
])
def test_ksudoku_writer_refuses_what_plain_saves_cannot_hold(puzzle, message):
    with pytest.raises(BadInput, match=message):
        write_ksudoku(puzzle)


def test_ksudoku_through_the_cli(run_cli, tmp_path):
    solved = run_cli("solve", str(KSUDOKU_FIXTURE))
    assert solved.code == 0 and WIKI_SOLUTION in solved.out.replace("\n", "")
    bomb = tmp_path / "bomb.ksudoku"
    bomb.write_text(BILLION_LAUGHS)
    refused = run_cli("solve", str(bomb))
    assert refused.code == 2 and refused.out == ""
    assert refused.err.count("\n") == 1 and "unsafe XML refused" in refused.err


def test_comment_only_file_says_so(tmp_path):
    f = tmp_path / "c.txt"
    f.write_text("# only a comment\n\n# and another\n")
    with pytest.raises(BadInput, match="only comments"):
        read_puzzle(str(f))


def _jigsaw_text(puzzle, solution=None):
    letters = "ABCDEFGHIJKLMNOP"
    layout = [""] * puzzle.geometry.ncells
    for k, region in enumerate(puzzle.geometry.regions):
        for i in region:
            layout[i] = letters[k]
    return write_line(puzzle, solution) + " " + "".join(layout)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from([6, 9]), st.booleans())
def test_a_jigsaw_line_is_the_givens_then_each_cells_region(seed, n, spaced):
    """ISS's jigsaw line: N² givens, then N² region symbols (a space between or none)."""
    import random

    from polydoku.generator import random_regions
    regions = random_regions(n, random.Random(seed), (2, 3) if n == 6 else (3, 3))
    puzzle = Puzzle(Geometry.irregular(n, regions), tuple(random.Random(seed).choice(
        [0] * 5 + list(range(1, n + 1))) for _ in range(n * n)))
    text = _jigsaw_text(puzzle)
    read = read_puzzle(text if spaced else text.replace(" ", ""))
    assert sorted(map(sorted, read.geometry.regions)) == sorted(map(sorted, regions))
    assert read.givens == puzzle.givens


def test_a_file_of_jigsaw_lines_is_one_puzzle_per_line(tmp_path):
    from polydoku.generator import random_regions
    import random
    lines = []
    for seed in range(3):
        g = Geometry.irregular(6, random_regions(6, random.Random(seed), (2, 3)))
        lines.append(_jigsaw_text(Puzzle(g, (0,) * 36)))
    path = tmp_path / "j.txt"
    path.write_text("\n".join(lines) + "\n")
    puzzles = [e.puzzle for e in read_puzzles(str(path))]
    assert len(puzzles) == 3 and all(not p.geometry.is_rectangular for p in puzzles)


def test_a_sixteen_line_of_letters_past_g_reads_a_to_p():
    """ISS writes the values of a 16x16 as A..P; a line using H..P and no digit is read so."""
    line = "ABCDEFGHIJKLMNOP" + "." * 240
    assert read_puzzle(line).givens[:16] == tuple(range(1, 17))
    assert read_puzzle("123456789ABCDEFG" + "." * 240).givens[:16] == tuple(range(1, 17))
    with pytest.raises(BadInput, match="bad symbol"):
        read_puzzle("9" + "P" + "." * 254)


@pytest.mark.parametrize("rows, width, shape", [(6, 4, "6x4"), (4, 6, "4x6"), (4, 4, "4x4")])
def test_a_bad_symbol_names_the_grid_as_drawn(rows, width, shape):
    """A text grid of 6 rows of 4 cells is a 6x4 grid in the message, not a square."""
    grid = [["."] * width for _ in range(rows)]
    grid[2][1] = "Z"
    text = "\n".join("".join(r) for r in grid)
    with pytest.raises(BadInput, match=f"bad symbol 'Z' for a {shape} grid") as err:
        read_puzzle(text)
    assert err.value.line == 3
