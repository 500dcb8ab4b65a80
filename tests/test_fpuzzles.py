"""f-puzzles and SudokuPad links: read, written, and bad ones refused with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.fpuzzles import convert, convert_object, to_link
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
    assert conv.ignored == ["text", "line of colour #000"]
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
    with pytest.raises(BadInput, match="'boxindexer' is not supported"):
        convert({"size": 9, "grid": grid(), "boxindexer": [{"cell": "R1C1"}]})
    with pytest.raises(BadInput, match="outside the 9x9 grid"):
        convert({"size": 9, "grid": grid(), "killercage": [{"cells": ["R1C1", "R12C1"], "value": 3}]})


def test_export_prints_a_link_that_reads_back(run_cli):
    puzzle = json.dumps(PUBLISHED[10]["puzzle"])           # the Wikipedia killer
    result = run_cli("export", puzzle, "--to", "sudokupad", "--solution")
    assert result.code == 0 and result.out.startswith("https://sudokupad.app/fpuzzles")
    assert api.solve(read_puzzle(result.out.strip())).solutions[0] == tuple(
        int(ch) for ch in PUBLISHED[10]["solution"])


def _small_fpuzzles() -> dict:
    """A 6x6 f-puzzles puzzle with 3x2 boxes (each region spelled out, as f-puzzles saves
    them), two touching maximum cells and a few givens."""
    rows = grid(6, givens=[(0, 0, 1), (1, 3, 4), (4, 2, 2)])
    for r in range(6):
        for c in range(6):
            rows[r][c]["region"] = (r // 3) * 3 + c // 2
    return {"size": 6, "grid": rows, "title": "small", "maximum": [{"cell": "R3C3"}, {"cell": "R3C4"}]}


@pytest.mark.parametrize("layout", ["pretty", "one line", "JSON lines"])
def test_an_f_puzzles_json_file_is_read_without_naming_its_format(tmp_path, run_cli, layout):
    """f-puzzles' JSON saved as a file (pretty-printed, one line, or one puzzle per line) is
    read like its link; boxes spelled out as regions become a box shape."""
    data = _small_fpuzzles()
    text = {"pretty": json.dumps(data, indent=2), "one line": json.dumps(data),
            "JSON lines": json.dumps(data) + "\n" + json.dumps(data)}[layout]
    path = tmp_path / "p.json"
    path.write_text(text + "\n")
    puzzle = read_puzzle(str(path))
    assert puzzle.geometry.box_rows == 3 and puzzle.geometry.box_cols == 2
    assert [r.kind for r in puzzle.rules] == ["maximum"]
    assert puzzle.givens[0] == 1 and puzzle.givens[9] == 4
    out = run_cli("solve", str(path), "--engine", "native", "--json")
    assert out.code == 0 and len(out.out.splitlines()) == (2 if layout == "JSON lines" else 1)


def test_a_sudokupad_puzzle_object_file_is_read(tmp_path):
    """SudokuPad's puzzle JSON (as Sudoku Maker saves it: cells, regions, metadata) is read
    from a file; regions that are the default boxes stay boxes."""
    cells = [[{} for _ in range(9)] for _ in range(9)]
    cells[0][0] = {"value": 7}
    regions = [[[r, c] for r in range(br, br + 3) for c in range(bc, bc + 3)]
               for br in (0, 3, 6) for bc in (0, 3, 6)]
    data = {"id": "x", "metadata": {"title": "t", "antiknight": True}, "cells": cells,
            "regions": regions, "cages": []}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data, indent=1))
    puzzle = read_puzzle(str(path))
    assert puzzle.geometry.is_rectangular and puzzle.geometry.box_rows == 3
    assert [r.kind for r in puzzle.rules] == ["anti-knight"] and puzzle.givens[0] == 7


def test_touching_maximum_cells_are_not_compared():
    """A fortress: each maximum cell beats its neighbours that are not maximum cells; two
    touching maximum cells hold any two different values (f-puzzles' and SudokuPad's reading)."""
    puzzle = read_puzzle(json.dumps(_small_fpuzzles()))
    out = api.count(puzzle, "native", limit=2)
    assert out.count >= 1
    solution = out.solutions[0]
    a, b = solution[2 * 6 + 2], solution[2 * 6 + 3]
    for cell, value in ((2 * 6 + 2, a), (2 * 6 + 3, b)):
        r, c = divmod(cell, 6)
        around = [(r + dr) * 6 + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                  if 0 <= r + dr < 6 and 0 <= c + dc < 6]
        assert all(value > solution[j] for j in around if j not in (2 * 6 + 2, 2 * 6 + 3))
    wrong = puzzle.with_rules(tuple(puzzle_from_dict(
        {"size": 6, "givens": "." * 36, "rules": [{"kind": "maximum", "cells": ["r3c3"]},
                                                  {"kind": "maximum", "cells": ["r3c4"]}]}).rules))
    assert api.count(wrong, "native", limit=1).count == 0     # two rules: each beats the other


def test_a_prime_size_grid_takes_rows_as_its_default_regions():
    # f-puzzles writes a region only where it differs from the default, which on a 7x7 (no
    # box shape) is the cell's row: here the last four rows are cut into four jigsaw regions
    cut = ["3334555", "3344455", "3644465", "3666665"]
    rows = grid(7)
    for r, line in enumerate(cut, start=3):
        for c, ch in enumerate(line):
            if int(ch) != r:
                rows[r][c]["region"] = int(ch)
    puzzle = puzzle_from_dict(convert({"size": 7, "grid": rows}).data)
    regions = sorted(tuple(sorted(b)) for b in puzzle.geometry.boxes)
    assert len(regions) == 7 and all(len(b) == 7 for b in regions)
    assert tuple(range(7)) in regions                        # row 1, a region by default
    puzzle = puzzle_from_dict(convert({"size": 7, "grid": grid(7)}).data)
    assert not puzzle.geometry.has_boxes                      # rows only: no boxes


def test_white_dots_are_the_exceptions_to_non_consecutive():
    # f-puzzles' non-consecutive with white dots: dotted neighbours are consecutive, the
    # others not (read as one rule, there would be no solution)
    data = {"size": 9, "grid": grid(9), "nonconsecutive": True,
            "difference": [{"cells": ["R1C1", "R1C2"]}]}
    puzzle = puzzle_from_dict(convert(data).data)
    out = api.count(puzzle, "native", limit=20)
    assert out.count == 20
    for g in out.solutions:
        assert abs(g[0] - g[1]) == 1
        assert all(abs(g[r * 9 + c] - g[r * 9 + c + 1]) != 1 for r in range(9) for c in range(8)
                   if (r, c) != (0, 0))
        assert all(abs(g[r * 9 + c] - g[r * 9 + 9 + c]) != 1 for r in range(8) for c in range(9))


def test_a_double_arrow_reads_and_writes_as_f_puzzles_extended_element():
    # f-puzzles with the new-constraints script saves double arrows as "doublearrow" lines
    data = {"size": 9, "grid": grid(9), "doublearrow": [{"lines": [["R1C1", "R1C2", "R1C3"]]}]}
    rule = convert(data).data["rules"][0]
    assert rule == {"kind": "double-arrow", "cells": ["r1c1", "r1c2", "r1c3"]}
    entry = next(json.loads(x) for x in (Path(__file__).parent / "data" / "variants" /
                                         "held_out_3.jsonl").read_text().splitlines()
                 if '"double-arrow"' in x)
    puzzle = puzzle_from_dict(entry["puzzle"])
    again = read_puzzle(to_link(puzzle, "fpuzzles"))
    assert again.rules == puzzle.rules and again.givens == puzzle.givens


def test_plain_lines_are_named_by_colour_like_sudokupad_lines(run_cli):
    """A published puzzle (Alien, by Lisztes, in Rangsk's tests) with its whispers saved as
    plain f-puzzles lines, as setters draw them: named by colour they are whispers again."""
    import lzstring
    entry = next(json.loads(line) for line in (Path(__file__).parent / "data" / "variants"
                                               / "held_out_4.jsonl").read_text()
                 .splitlines() if '"alien"' in line)
    link = next(s for s in entry["sources"] if "load=" in s)
    data = json.loads(lzstring.LZString().decompressFromBase64(link.split("load=", 1)[1]))
    data["line"] = [dict(e, outlineC="#67F067", width=0.3) for e in data.pop("whispers")]
    plain = "https://f-puzzles.com/?load=" + lzstring.LZString().compressToBase64(
        json.dumps(data))
    assert "line of colour #67F067" in convert({**data, "ruleset": ""}).ignored
    # the setter's text names the green lines ("a line (either grey or green)")
    assert any("#67F067 are whispers" in s for s in convert(data).said)
    r = run_cli("solve", plain, "--rules", "line:#67f067=whispers", "--count")
    assert r.code == 0 and r.out.split()[0] == "1", r.err
    r = run_cli("solve", plain, "--rules", "line:#123456=whispers")
    assert r.code == 2 and "no line of colour #123456" in r.err


@pytest.mark.parametrize("text, kind", [
    ("Rellik cages: digits may not repeat in a cage, and no combination of digits in a cage "
     "sums to the clue.", "rellik-cage"),
    ("Normal sudoku rules apply. Sum cages: the digits in a cage sum to the clue and may "
     "repeat.", "sum-cage"),
    ("Normal sudoku rules apply. Killer cages: digits in a cage sum to the clue.", "killer"),
])
def test_the_rules_text_says_what_the_cages_are(text, kind):
    data = {"size": 4, "grid": grid(4), "ruleset": text,
            "killercage": [{"cells": ["R1C1", "R1C2"], "value": "4"}]}
    converted = convert_object(data)
    assert [r["kind"] for r in converted.data["rules"]] == [kind]
    assert converted.data["rules"][0]["sum"] == 4
    assert (kind != "killer") == any("cages are" in s for s in converted.said)
    sp = {"cells": [[{} for _ in range(4)] for _ in range(4)], "metadata": {"rules": text},
          "cages": [{"cells": [[0, 0], [0, 1]], "value": "4"}]}
    assert [r["kind"] for r in convert_object(sp).data["rules"]] == [kind]


def test_two_cage_kinds_named_is_exit_2(run_cli):
    data = {"size": 4, "grid": grid(4), "ruleset": "Rellik cages apply. Sum cages apply too.",
            "killercage": [{"cells": ["R1C1", "R1C2"], "value": "4"}]}
    result = run_cli("solve", json.dumps(data))
    assert result.code == 2 and "names cages of 2 kinds" in result.err
