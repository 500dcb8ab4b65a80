"""Pictures: the SVG's cells, classes and texts; the PNG's header and size; the render command."""

import struct
import xml.etree.ElementTree as ET

import pytest

from conftest import EXAMPLES

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.read import read_puzzle
from polydoku.rules import parse_rules
from polydoku.render import candidates_for, render_png, render_svg, write_picture

NS = "{http://www.w3.org/2000/svg}"


def _cells(svg_text):
    root = ET.fromstring(svg_text)
    return root, {g.get("data-cell"): g for g in root.iter(f"{NS}g")
                  if "cell" in g.get("class", "").split()}


def _value(group):
    texts = [t.text for t in group.iter(f"{NS}text") if t.get("class") == "value"]
    return texts[0] if texts else None


@pytest.fixture(scope="module")
def wiki():
    puzzle = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    return puzzle, api.solve(puzzle).solutions[0]


def test_svg_has_every_cell_with_givens_and_solution(wiki):
    puzzle, solution = wiki
    root, cells = _cells(render_svg(puzzle, solution, highlight=["r1c3", (8, 8)], title="W"))
    assert root.tag == f"{NS}svg" and len(cells) == 81
    for i in range(81):
        r, c = divmod(i, 9)
        group = cells[f"r{r + 1}c{c + 1}"]
        kinds = group.get("class").split()
        assert _value(group) == str(solution[i])
        assert ("given" in kinds) == bool(puzzle.givens[i]) and ("solved" in kinds) != bool(
            puzzle.givens[i])
    marked = {name for name, g in cells.items() if "highlight" in g.get("class").split()}
    assert marked == {"r1c3", "r9c9"}
    fills = {t.get("fill") for g in cells.values() for t in g.iter(f"{NS}text")}
    assert len(fills) == 2                      # givens and solved values differ in colour


def test_svg_givens_only_and_candidates(wiki):
    puzzle, _ = wiki
    cands = candidates_for(puzzle)
    _, cells = _cells(render_svg(puzzle, candidates=cands))
    for i, v in enumerate(puzzle.givens):
        r, c = divmod(i, 9)
        group = cells[f"r{r + 1}c{c + 1}"]
        marks = sorted(int(t.text) for t in group.iter(f"{NS}text")
                       if t.get("class") == "candidate")
        assert _value(group) == (str(v) if v else None)
        assert marks == ([] if v else sorted(cands[i]))
    assert cands[2] == {1, 2, 4}                # r1c3: row 5,3,7; column 8,9,6; box 6,9,8


def test_variant_rules_drawn_and_named():
    puzzle = read_puzzle(str(EXAMPLES / "four.txt")).with_rules(parse_rules("diagonal,anti-king"))
    root = ET.fromstring(render_svg(puzzle))
    groups = [g for g in root.iter(f"{NS}g") if g.get("class", "").startswith("rule diagonal")]
    assert sum(len(g.findall(f"{NS}line")) for g in groups) == 2
    notes = " ".join(t.text for t in root.iter(f"{NS}text") if t.get("class") == "rule-note")
    assert "diagonal" in notes and "anti-king" in notes


def test_bad_highlight_is_bad_input(wiki):
    with pytest.raises(BadInput, match="outside"):
        render_svg(wiki[0], highlight=["r10c1"])


def _png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_png_is_an_image_of_the_svg_size(wiki):
    puzzle, solution = wiki
    root = ET.fromstring(render_svg(puzzle, solution))
    width, height = float(root.get("width")), float(root.get("height"))
    assert _png_size(render_png(puzzle, solution, scale=2)) == (round(width * 2), round(height * 2))
    assert _png_size(render_png(puzzle, scale=1)) == (round(width), round(height))


def test_render_command(run_cli, tmp_path):
    svg, png = tmp_path / "m.svg", tmp_path / "m.png"
    r = run_cli("render", str(EXAMPLES / "miracle.json"), "--solution", "--highlight", "r5c3",
                "--out", svg)
    assert r.code == 0 and svg.exists()
    _, cells = _cells(svg.read_text())
    assert all(_value(g) for g in cells.values()) and "highlight" in cells["r5c3"].get("class")
    r = run_cli("render", str(EXAMPLES / "four.txt"), "--candidates", "--out", png)
    assert r.code == 0 and _png_size(png.read_bytes())[0] > 100
    r = run_cli("render", str(EXAMPLES / "four.txt"), "--out", tmp_path / "x.pdf")
    assert r.code == 2 and r.err.count("\n") == 1


def test_every_rule_shape_is_drawn_and_the_svg_stays_well_formed(tmp_path):
    import json

    from polydoku.formats.jsonfmt import parse_json
    rules = [{"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 15},
             {"kind": "thermometer", "cells": ["r2c3", "r3c3"]},
             {"kind": "arrow", "circle": ["r5c5"], "cells": ["r5c6", "r6c7"]},
             {"kind": "kropki-white", "cells": ["r1c8", "r1c9"]},
             {"kind": "kropki-black", "cells": ["r2c8", "r2c9"]},
             {"kind": "xv", "cells": ["r3c8", "r3c9"], "sum": 10},
             {"kind": "whispers", "cells": ["r6c1", "r6c2"]},
             {"kind": "sandwich", "side": "left", "index": 5, "sum": 12},
             {"kind": "little-killer", "cell": "r1c3", "direction": "DR", "sum": 40},
             {"kind": "quadruple", "cells": ["r6c8", "r6c9", "r7c8", "r7c9"], "values": [1, 2]},
             {"kind": "even", "cells": ["r5c1"]}, "windoku"]
    puzzle = parse_json(json.dumps({"givens": "." * 81, "rules": rules, "name": "<b>&\"x"}))
    root = ET.fromstring(render_svg(puzzle))
    classes = [g.get("class", "") for g in root.iter(f"{NS}g")]
    for kind in ("cage", "thermo", "arrow", "dot white", "dot black", "mark", "line whispers",
                 "outside left", "outside dr", "corner", "square", "shade window"):
        assert any(c.startswith(f"rule {kind}") for c in classes), kind
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "15" in texts and "X" in texts and "12" in texts and "40" in texts and "1 2" in texts
    assert root.find(f"{NS}title").text == '<b>&"x'          # escaped by the XML writer
    out = tmp_path / "v.png"
    write_picture(out, puzzle)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_irregular_regions_get_thick_borders_and_box_less_grids_none():
    import json

    from polydoku.formats.jsonfmt import parse_json
    jigsaw = parse_json(json.dumps({"size": 5, "givens": "." * 25,
                                    "regions": "AAABB" "AABBB" "CCCDD" "CCEDD" "EEEED"}))
    latin = parse_json(json.dumps({"size": 5, "givens": "." * 25, "box": "none"}))
    def thick(p):
        root = ET.fromstring(render_svg(p))
        return len(root.find(f".//{NS}g[@class='box-lines']").findall(f"{NS}line"))
    assert thick(latin) == 4 * 5                 # only the border: 5 segments a side
    assert thick(jigsaw) > thick(latin)


def test_dots_are_drawn_in_their_colour_with_their_number():
    import json
    from polydoku.formats.jsonfmt import parse_json
    rules = [{"kind": "grey-dot", "cells": ["r1c1", "r1c2"]},
             {"kind": "difference-dot", "cells": ["r2c1", "r2c2"], "difference": 3},
             {"kind": "ratio-dot", "cells": ["r3c1", "r3c2"], "ratio": 4},
             {"kind": "kropki-white", "cells": ["r4c1", "r4c2"]}]
    svg = render_svg(parse_json(json.dumps({"size": 6, "givens": "." * 36, "rules": rules})))
    root = ET.fromstring(svg)
    fills = [e.get("fill") for e in root.iter() if e.tag.endswith("circle")]
    assert {"#9a9a9a", "#000000", "#ffffff"} <= set(fills)
    texts = [e.text for e in root.iter() if e.tag.endswith("text")]
    assert "3" in texts and "4" in texts


def test_a_long_title_wraps_inside_the_picture_and_rule_notes_stay_below_outside_clues():
    import json

    from polydoku.formats.jsonfmt import parse_json
    puzzle = parse_json(json.dumps({"givens": "." * 81, "rules": [
        {"kind": "sandwich", "side": "bottom", "index": 3, "sum": 12}, "anti-knight"]}))
    title = "a title of many words " * 12 + "<end>"
    root = ET.fromstring(render_svg(puzzle, title=title))
    width, height = float(root.get("width")), float(root.get("height"))
    lines = [t for t in root.iter(f"{NS}text") if t.get("class") == "title"]
    assert 2 <= len(lines) <= 3 and lines[-1].text.endswith("…")
    # each line fits the picture at the font's widest usual glyphs (0.6 em)
    assert all(len(t.text) * 18 * 0.6 <= width for t in lines)
    cells = [float(r.get("y")) for g in root.iter(f"{NS}g") if "cell" in g.get("class", "").split()
             for r in g.iter(f"{NS}rect")]
    assert min(cells) > float(lines[-1].get("y"))                  # the grid starts below it
    clue = max(float(t.get("y")) for g in root.iter(f"{NS}g")
               if g.get("class", "").startswith("rule outside") for t in g.iter(f"{NS}text"))
    notes = [float(t.get("y")) for t in root.iter(f"{NS}text") if t.get("class") == "rule-note"]
    assert notes and min(notes) > clue + 14 and max(notes) <= height
    short = ET.fromstring(render_svg(puzzle, title="Short"))
    assert [t.text for t in short.iter(f"{NS}text") if t.get("class") == "title"] == ["Short"]
