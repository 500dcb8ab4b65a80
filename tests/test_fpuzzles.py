"""f-puzzles and SudokuPad links: read, written, and bad ones refused with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.fpuzzles import convert, to_link
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.formats.read import read_puzzle

PUBLISHED = [json.loads(x) for x in (Path(__file__).parent / "data" / "variants" /
                                     "published.jsonl").read_text().splitlines()]


def grid(n=9, givens=()):
    rows = [[{} for _ in range(n)] for _ in range(n)]
    for r, c, v in givens:
        rows[r][c] = {"value": v, "given": True}
    return rows


@pytest.mark.parametrize("app", ["fpuzzles", "sudokupad"])
def test_every_published_puzzle_survives_a_link_and_keeps_its_solution(app):
    for entry in PUBLISHED:
        puzzle = puzzle_from_dict(entry["puzzle"])
        again = read_puzzle(to_link(puzzle, app))
        assert again.givens == puzzle.givens and again.geometry == puzzle.geometry
        out = api.count(again, "sat", limit=2)
        assert out.count == 1 and "".join(map(str, out.solutions[0])) == entry["solution"]


def test_f_puzzles_json_elements_become_rules():
    data = {"size": 9, "grid": grid(givens=[(0, 0, 5)]), "title": "<b>t</b>",
            "diagonal+": True, "antiknight": True, "negative": ["ratio"],
            "killercage": [{"cells": ["R1C2", "R1C3"], "value": "10"}],
            "littlekillersum": [{"cell": "R0C1", "direction": "DR", "value": "45"}],
            "sandwichsum": [{"cell": "R0C4", "value": "12"}],
            "xsum": [{"cell": "R3C10", "value": "20"}],
            "arrow": [{"cells": ["R5C5"], "lines": [["R5C5", "R5C6", "R5C7"]]}],
            "thermometer": [{"lines": [["R9C1", "R9C2"], ["R9C1", "R8C1"]]}],
            "difference": [{"cells": ["R7C7", "R7C8"]}], "xv": [{"cells": ["R8C8", "R8C9"], "value": "V"}],
            "even": [{"cell": "R2C2"}], "quadruple": [{"cells": ["R3C3", "R3C4", "R4C3", "R4C4"], "values": [1, 2]}],
            "line": [{"lines": [["R1C1", "R2C2"]], "outlineC": "#000"}], "text": [{"cells": ["R1C1"], "value": "hi"}]}
    conv = convert(data)
    kinds = [r if isinstance(r, str) else r["kind"] for r in conv.data["rules"]]
    assert kinds == ["diagonal-anti", "anti-knight", "kropki-negative", "killer", "little-killer",
                     "sandwich", "x-sum", "arrow", "thermometer", "thermometer", "kropki-white",
                     "xv", "even", "quadruple"]
    assert conv.ignored == ["line", "text"]
    lk = conv.data["rules"][4]
    assert lk["cell"] == "r1c2" and lk["direction"] == "DR"
    assert conv.data["rules"][6] == {"kind": "x-sum", "side": "right", "index": 3, "sum": 20}
    puzzle = puzzle_from_dict(conv.data)
    assert puzzle.name == "<b>t</b>" and puzzle.givens[0] == 5


def test_irregular_regions_come_through():
    entry = next(e for e in PUBLISHED if e["id"] == "jigsaw")
    regions = entry["puzzle"]["regions"]
    rows = grid(9)
    for i, ch in enumerate(regions):
        rows[i // 9][i % 9]["region"] = int(ch)
    puzzle = puzzle_from_dict(convert({"size": 9, "grid": rows}).data)
    assert not puzzle.geometry.is_rectangular
    assert puzzle.geometry.boxes == puzzle_from_dict(entry["puzzle"]).geometry.boxes


@pytest.mark.parametrize("link, words", [
    ("https://sudokupad.app/abc123", "short link"),
    ("https://sudokupad.app/sclN4Igxyz", "SudokuPad payload does not decompress"),
    ("https://www.f-puzzles.com/?load=N4IgzglgXg", "does not decompress"),
    ("https://www.f-puzzles.com/", "without a ?load="),
    ("https://example.com/?load=N4Ig", "not an f-puzzles or SudokuPad link"),
])
def test_bad_links_are_one_line_exit_2(run_cli, link, words):
    result = run_cli("solve", link)
    assert result.code == 2 and words in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_unsupported_elements_are_named():
    with pytest.raises(BadInput, match="'lockout' is not supported"):
        convert({"size": 9, "grid": grid(), "lockout": [{"lines": [["R1C1", "R1C2"]]}]})
    with pytest.raises(BadInput, match="outside the 9x9 grid"):
        convert({"size": 9, "grid": grid(), "killercage": [{"cells": ["R1C1", "R12C1"], "value": 3}]})


def test_export_prints_a_link_that_reads_back(run_cli):
    puzzle = json.dumps(PUBLISHED[10]["puzzle"])           # the Wikipedia killer
    result = run_cli("export", puzzle, "--to", "sudokupad", "--solution")
    assert result.code == 0 and result.out.startswith("https://sudokupad.app/fpuzzles")
    assert api.solve(read_puzzle(result.out.strip())).solutions[0] == tuple(
        int(ch) for ch in PUBLISHED[10]["solution"])
