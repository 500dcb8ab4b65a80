"""SudokuPad's own format (scl/ctc payloads): the zipped notation, what is read, what is named by
colour, what is refused.

Published puzzles (tests/data/variants) are written the way SudokuPad writes them (zipped,
lz-string, `scl` prefix) by `to_scl` below, then solved from the link: the answer must be the
published solution. One real link (Parity Fish, by Marty Sears, from the Sudoku-Bench README,
github.com/SakanaAI/Sudoku-Bench) is read too: its dots hold in its published solution, and
the whole puzzle is refused because its red lines live in a background image.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import lzstring
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats import read_puzzle
from polydoku.formats.sudokupad import convert, decode, relaxed_json
from polydoku.rules import parse_rules

PUBLISHED = {e["id"]: e for name in ("published", "held_out", "held_out_3", "held_out_4")
             for e in map(
    json.loads, (Path(__file__).parent / "data" / "variants" / f"{name}.jsonl").read_text()
    .splitlines())}
PARITY_FISH = (Path(__file__).parent / "data" / "sudokupad" / "parity-fish.txt").read_text().strip()
LINE_COLOURS = {"whispers": "#67F067", "renban": "#C060F0", "thermometer": "#AAAAAA",
                "modular": "#1E90FF", "lockout": "#3030F0", "double-arrow": "#A0A0A0",
                "sum-line": "#F09030", "palindrome": "#C0C0C0", "slow-thermometer": "#B0B0B0",
                "entropic": "#F0A030", "region-sum": "#30B0F0", "zipper": "#E060E0"}


# ---------------------------------------------------------------- writing SudokuPad's notation

def zipped(value) -> str:
    """Return a value in SudokuPad's zipped notation (unquoted keys, single quotes, empty
    objects left out, t/f)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{zipped(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join("" if v == {} else zipped(v) for v in value) + "]"
    if value is True or value is False:
        return "t" if value else "f"
    if isinstance(value, str):
        return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return json.dumps(value)


def point(name: str) -> tuple[int, int]:
    r, c = map(int, re.findall(r"\d+", name))
    return r - 1, c - 1


def to_scl(entry: dict, rules: str | None = None) -> str:
    """Return the `scl` link of a published puzzle, written as SudokuPad writes its elements
    (with its rules text when given)."""
    p = entry["puzzle"]
    n = p["size"]
    cells = [[{"v": int(p["givens"][r * n + c], 36)} if p["givens"][r * n + c] != "." else {}
              for c in range(n)] for r in range(n)]
    data: dict = {"id": entry["id"], "ce": cells, "ca": [{"v": f"title: {entry['title']}"}]}
    if "regions" in p:
        regions = p["regions"] if isinstance(p["regions"], list) else [
            [f"r{i // n + 1}c{i % n + 1}" for i, ch in enumerate(p["regions"]) if ch == label]
            for label in dict.fromkeys(p["regions"])]
        data["re"] = [[list(point(c)) for c in region] for region in regions]
    overlays, underlays, lines = [], [], []
    for rule in p["rules"]:
        if not isinstance(rule, dict):
            continue
        kind, where = rule["kind"], [point(c) for c in rule.get("cells", [])]
        if kind == "killer":
            data["ca"].append({"ce": [list(x) for x in where], **(
                {"v": rule["sum"]} if "sum" in rule else {})})
        elif kind in ("kropki-white", "kropki-black", "xv"):
            (r1, c1), (r2, c2) = where
            centre = [(r1 + r2) / 2 + 0.5, (c1 + c2) / 2 + 0.5]
            if kind == "xv":
                overlays.append({"ct": centre, "w": 0.3, "h": 0.3, "te": "X" if rule["sum"] in (
                    10, "X") else "V", "fs": 16})
            else:
                overlays.append({"ct": centre, "w": 0.33, "h": 0.33, "r": True,
                                 "c2": "#F" if kind == "kropki-white" else "#0", "c1": "#0"})
        elif kind in LINE_COLOURS:
            tint = LINE_COLOURS[kind]
            if kind == "thermometer":            # SudokuPad draws the bulb as a circle
                (r, c) = where[0]
                underlays.append({"ct": [r + 0.5, c + 0.5], "w": 0.85, "h": 0.85, "r": True,
                                  "c2": tint, "c1": tint})
            if "difference" in rule:             # one colour per whispers difference
                tint = tint[:5] + f"{rule['difference']:02X}"
            if rule.get("loop"):                 # a loop is drawn back to its first cell
                where = where + where[:1]
            lines.append({"wp": [[r + 0.5, c + 0.5] for r, c in where], "c": tint, "th": 9.6})
        elif kind in DRAWN:
            DRAWN[kind](rule, n, overlays, underlays, lines, data)
        else:
            raise AssertionError(f"the test cannot write {kind}")
    if rules is not None:
        data["metadata"] = {"rules": rules}
    if overlays:
        data["o"] = overlays
    if underlays:
        data["u"] = underlays
    if lines:
        data["l"] = lines
    text = zipped(data).replace("c2:'#F'", "c2:#F").replace("c2:'#0'", "c2:#0") \
        .replace("c1:'#0'", "c1:#0")
    return "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(text)


# How SudokuPad draws the kinds it has no element for, as its own f-puzzles converter does
# (SudokuPad's fpuzzlesdecoder.js, read in github.com/marktekfan/sudokupad-penpa-import,
# src/sudokupad/fpuzzlesdecoder.js): an arrow starts 0.4 out of its bulb's centre, the bulb
# is a white circle (a rounded box over a straight pill, two thick lines over a bent one); a
# little killer is a short arrow by its number outside the grid; odd and even cells are grey
# circles and squares; a between line is thin, shortened at both ends, with a circle on each;
# minimum and maximum cells are shaded with thin chevrons pointing at the smaller neighbour.

def centre(rc) -> list[float]:
    return [rc[0] + 0.5, rc[1] + 0.5]


def shortened(a, b, by: float, digits: int) -> list[float]:
    """Return point a moved towards b the way SudokuPad's converter rounds it."""
    dy, dx = b[0] - a[0], b[1] - a[1]
    dist = (dy * dy + dx * dx) ** 0.5
    sign = lambda v: (v > 0) - (v < 0)                     # noqa: E731
    return [a[0] + round(10 ** digits * by * sign(dy) / dist) / 10 ** digits,
            a[1] + round(10 ** digits * by * sign(dx) / dist) / 10 ** digits]


def draw_arrow(rule, n, overlays, underlays, lines, data):
    circle, shaft = [point(c) for c in rule["circle"]], [point(c) for c in rule["cells"]]
    start = min(circle, key=lambda c: max(abs(c[0] - shaft[0][0]), abs(c[1] - shaft[0][1])))
    points = [centre(c) for c in [start, *shaft]]
    points[0] = shortened(points[0], points[1], 0.4, 2)
    data.setdefault("a", []).append({"c": "#a1a1a1", "hl": 0.3, "th": 5, "wp": points})
    rows, cols = [r for r, _ in circle], [c for _, c in circle]
    if len(set(rows)) == 1 or len(set(cols)) == 1:
        overlays.append({"c1": "#a1a1a1", "c2": "#ffffff", "r": True, "te": "",
                         "ct": [sum(rows) / len(rows) + 0.5, sum(cols) / len(cols) + 0.5],
                         "w": 0.83 + max(cols) - min(cols), "h": 0.83 + max(rows) - min(rows)})
    else:
        lines.append({"c": "#a1a1a1", "th": 45, "wp": [centre(c) for c in circle]})
        lines.append({"c": "#ffffff", "th": 35, "wp": [centre(c) for c in circle]})


def draw_little_killer(rule, n, overlays, underlays, lines, data):
    dr, dc = {"UL": (-1, -1), "UR": (-1, 1), "DL": (1, -1), "DR": (1, 1)}[rule["direction"]]
    r, c = point(rule["cell"])
    at = centre((r - dr, c - dc))
    data.setdefault("a", []).append({"c": "#000000", "th": 2, "wp": [
        [at[0] + 0.3 * dr, at[1] + 0.3 * dc], [at[0] + 0.48 * dr, at[1] + 0.48 * dc]]})
    overlays.append({"c1": "#FFFFFF", "c2": "#FFFFFF", "ct": at, "w": 0.25, "h": 0.25,
                     "te": str(rule["sum"]), "fs": 28})


def draw_parity(rule, n, overlays, underlays, lines, data):
    for cell in rule["cells"]:
        underlays.append({"c1": "#CFCFCF", "c2": "#CFCFCF", "ct": centre(point(cell)),
                          "r": rule["kind"] == "odd", "w": 0.7, "h": 0.7})


def draw_between(rule, n, overlays, underlays, lines, data):
    points = [centre(point(c)) for c in rule["cells"]]
    for end in (points[0], points[-1]):
        overlays.append({"c1": "#CFCFCF", "c2": "#FFFFFF", "ct": list(end), "r": True,
                         "w": 0.8, "h": 0.8})
    points[0] = shortened(points[0], points[1], 0.4, 1)
    points[-1] = shortened(points[-1], points[-2], 0.4, 1)
    lines.append({"c": "#CFCFCF", "th": 2, "wp": points})


def chevron(larger, smaller, outwards: bool = True) -> dict:
    """Return the thin chevron drawn in `larger` (outwards) or `smaller`, pointing at the
    smaller cell."""
    home, other = (larger, smaller) if outwards else (smaller, larger)
    dy, dx = other[0] - home[0], other[1] - home[1]
    (y, x), (a, b) = centre(home), ((0.39, 0.44) if outwards else (0.44, 0.39))
    return {"c": "#000000", "th": 1, "wp": [[y + dy * a + 0.1 * dx, x + dx * a + 0.1 * dy],
                                             [y + dy * b, x + dx * b],
                                             [y + dy * a - 0.1 * dx, x + dx * a - 0.1 * dy]]}


def draw_extreme(rule, n, overlays, underlays, lines, data):
    own = {point(c) for c in rule["cells"]}
    for r, c in own:
        underlays.append({"c2": "#cccccc", "ct": centre((r, c)), "w": 1, "h": 1})
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            other = (r + dr, c + dc)
            if 0 <= other[0] < n and 0 <= other[1] < n and other not in own:
                pair = ((r, c), other) if rule["kind"] == "maximum" else (other, (r, c))
                lines.append(chevron(*pair, outwards=rule["kind"] == "maximum"))


def draw_greater(rule, n, overlays, underlays, lines, data):
    larger, smaller = (point(c) for c in rule["cells"])
    lines.append(chevron(larger, smaller))


DRAWN = {"arrow": draw_arrow, "little-killer": draw_little_killer, "odd": draw_parity,
         "even": draw_parity, "between": draw_between, "minimum": draw_extreme,
         "maximum": draw_extreme, "greater-than": draw_greater}


def names(*kinds: str) -> str:
    return ",".join(f"line:{LINE_COLOURS[k]}={k}" for k in kinds)


# ---------------------------------------------------------------- published puzzles, from links

@pytest.mark.parametrize("pid, rules", [
    ("killer", ""), ("xv-kropki-sudoku", ""), ("german-whispers", names("whispers")),
    ("elementary", "line:#67F006=whispers:6,line:#67F004=whispers:4,line:#67F003=whispers:3,"
                   "line:#67F002=whispers:2"),
    ("modular-lines-1", names("modular")),
    ("thermo", names("thermometer")),
    # lines that take a number, and a loop (held-out puzzles of newer kinds)
    ("lockout-lines-dsm-23-quali-training", "line:#303004=lockout:4"),
    ("double-arrow", names("double-arrow")),
    ("10-lines", "line:#F09030=sum-line:10")])
def test_published_puzzles_solve_from_their_scl_link(pid, rules, run_cli):
    entry = PUBLISHED[pid]
    extra = [r for r in entry["puzzle"]["rules"] if isinstance(r, str)]
    given_rules = ",".join(filter(None, [rules, *extra]))
    r = run_cli("solve", to_scl(entry), *(["--rules", given_rules] if given_rules else []),
                "--count")
    assert r.code == 0, r.err
    assert r.out.split()[0] == "1"
    puzzle = read_puzzle(to_scl(entry), rules=parse_rules(given_rules))
    out = api.solve(puzzle, max_solutions=1)
    assert "".join(map(str, out.solutions[0])) == entry["solution"]
    assert puzzle.name == entry["title"]


def test_an_unnamed_line_colour_is_exit_2_naming_the_colour_and_where(run_cli):
    r = run_cli("solve", to_scl(PUBLISHED["german-whispers"]))
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert "#67F067" in r.err and "from r8c1" in r.err and "line:#67F067=" in r.err


def test_a_line_kind_polydoku_cannot_read_from_a_line_is_exit_2(run_cli):
    r = run_cli("solve", to_scl(PUBLISHED["german-whispers"]), "--rules", "line:#67F067=killer")
    assert r.code == 2 and "'killer'" in r.err and "whispers" in r.err


def test_lines_that_all_start_in_a_bulb_of_their_colour_are_thermometers(run_cli):
    link = to_scl(PUBLISHED["thermo"])
    r = run_cli("solve", link, "--verbose")
    assert r.code == 0 and "start in a bulb: thermometer" in r.err
    assert "thermometer bulb at" in r.err
    r = run_cli("solve", link, "--rules", "line:#AAAAAA=slow-thermometer", "--count")
    assert r.code == 0 and r.out.split()[0] != "1"          # the user's name wins


def test_only_whispers_take_a_number(run_cli):
    r = run_cli("solve", to_scl(PUBLISHED["german-whispers"]), "--rules", "line:#67F067=renban:4")
    assert r.code == 2 and "only whispers, lockout and sum-line" in r.err


def test_line_names_on_another_format_are_exit_2(run_cli):
    r = run_cli("solve", "." * 81, "--rules", "line:#67F067=whispers")
    assert r.code == 2 and "SudokuPad's and f-puzzles puzzles" in r.err
    r = run_cli("solve", "." * 81, "--rules", "line:#67F067")
    assert r.code == 2 and "line:COLOUR=KIND" in r.err


def test_a_real_link_with_its_lines_in_an_image_is_refused_and_its_dots_hold():
    with pytest.raises(BadInput, match="background image"):
        read_puzzle(PARITY_FISH)
    data = decode(PARITY_FISH[3:])
    solution = data["metadata"]["solution"]
    del data["metadata"]["bgimage"]
    converted = convert(data)
    dots = [r for r in converted.data["rules"] if r["kind"].startswith("kropki")]
    assert len(dots) == 21 and converted.data["name"] == "Parity Fish"
    for dot in dots:
        a, b = (int(solution[(r * 9) + c]) for r, c in map(point, dot["cells"]))
        if dot["kind"] == "kropki-white":
            assert abs(a - b) == 1
        else:
            assert max(a, b) == 2 * min(a, b)


@pytest.mark.parametrize("element, words", [
    ({"a": [{"wp": [[-0.5, 0.5], [-0.5, 2.5]], "hl": 0.3}]}, "arrow 1 from (-0.5, 0.5)"),
    ({"o": [{"ct": [0.5, 0.5], "w": 0.8, "h": 0.8, "c2": "#F04040"}]}, "shape at (0.5, 0.5)"),
    ({"ca": [{"ce": [[0, 0], [0, 1]], "v": "?"}]}, "not a sum"),
    ({"ce": [[{"v": 12}] + [{}] * 8] + [[{}] * 9] * 8}, "r1c1"),
    ({"re": [[[0, 0]]]}, "regions"),
])
def test_elements_that_are_not_read_are_exit_2_naming_them(element, words, run_cli):
    data = {"ce": [[{}] * 9 for _ in range(9)], **element}
    link = "scl" + lzstring.LZString().compressToBase64(zipped(data))
    r = run_cli("solve", link)
    assert r.code == 2 and words in r.err and len(r.err.strip().splitlines()) == 1, r.err


def test_cosmetic_text_is_ignored_and_verbose_says_so(run_cli):
    data = {"ce": [[{}] * 9 for _ in range(9)], "o": [{"ct": [4.5, 4.5], "te": "hello"}]}
    converted = convert(relaxed_json(zipped(data)))
    assert converted.data["rules"] == [] and any("hello" in x for x in converted.ignored)
    link = "scl" + lzstring.LZString().compressToBase64(zipped(data))
    quiet = run_cli("solve", link, "--count")
    loud = run_cli("solve", link, "--count", "--verbose")
    assert quiet.code == loud.code == 0 and quiet.err == ""
    assert "left out as cosmetic" in loud.err and "hello" in loud.err


def test_global_rules_stated_as_metadata_are_rules_not_dropped():
    empty = [[{}] * 9 for _ in range(9)]
    as_cages = convert(relaxed_json(zipped({"ce": empty, "ca": [
        {"v": "antiknight: "}, {"v": "antiking:false"}, {"v": "author: someone"}]})))
    assert as_cages.data["rules"] == ["anti-knight"]
    assert as_cages.ignored == ["metadata author"]
    as_flags = convert({"cells": empty, "metadata": {"antiking": True, "antiknight": False,
                                                     "nonconsecutive": "no"}})
    assert as_flags.data["rules"] == ["anti-king"]


def test_bad_payloads_are_one_line_exit_2(run_cli):
    good = to_scl(PUBLISHED["killer"])
    for link in (good[:60], "https://sudokupad.app/sclAAAA", "scl" + "!" * 20,
                 "scl" + lzstring.LZString().compressToBase64("{ce:[[" * 200)):
        r = run_cli("solve", link)
        assert r.code == 2 and len(r.err.strip().splitlines()) == 1, (link[:40], r.err)


# ---------------------------------------------------------------- the notation itself

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner.filter(lambda v: v != {}), max_size=4)
    | st.dictionaries(st.from_regex(r"[a-z][a-z0-9]{0,3}", fullmatch=True), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_the_zipped_notation_reads_back(value):
    # keys of the format's own table come back long: compare through the same table
    from polydoku.formats.sudokupad import _long_keys
    if value == [] or value == {}:
        return
    assert relaxed_json(zipped(value)) == _long_keys(value)
    assert relaxed_json(json.dumps(value)) == _long_keys(value)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="{}[],:'\"\\tf#0F123abc .-e", max_size=40))
def test_any_text_is_a_value_or_one_bad_input(text):
    try:
        relaxed_json(text)
    except BadInput as err:
        assert "\n" not in str(err)


def test_nesting_is_bounded():
    with pytest.raises(BadInput, match="deep"):
        relaxed_json("[" * 100 + "]" * 100)


# ---------------------------------------------------------------- drawn kinds, read alone

@pytest.mark.parametrize("pid, rules", [
    ("arrow", ""), ("pill-arrow-sudoku", ""), ("odd-even", ""), ("little-killer-sudoku", ""),
    ("fortress", ""), ("fortress-sudoku", ""), ("eddies", ""), ("orbit", ""),
    ("6x6-extreme-killer", ""), ("i-bet-someone-did-this-already", ""),
    ("sudoku-variants-series-173-between-lines-sudoku", "line:#CFCFCF=between"),
    ("dotween", "line:#CFCFCF=between")])
def test_published_puzzles_drawn_as_sudokupad_draws_them_solve_from_the_link(pid, rules):
    """Arrows (one-cell and pill bulbs), little killer arrows, odd and even shapes, between
    lines and inequality chevrons, drawn the way SudokuPad's converter draws them: read from
    the link alone (between lines named by colour), one solution, the published one."""
    entry = PUBLISHED[pid]
    extra = [r for r in entry["puzzle"]["rules"] if isinstance(r, str)]
    given = ",".join(filter(None, [rules, *extra]))
    puzzle = read_puzzle(to_scl(entry), rules=parse_rules(given))
    out = api.count(puzzle, "native", limit=2)
    assert out.count == 1
    assert "".join(map(str, out.solutions[0])) == entry["solution"]


def test_a_pill_bent_round_a_corner_is_read_from_its_thick_lines():
    data = {"ce": [[{}] * 9 for _ in range(9)],
            "l": [{"c": "#a1a1a1", "th": 45, "wp": [[0.5, 0.5], [0.5, 1.5], [1.5, 1.5]]},
                  {"c": "#ffffff", "th": 35, "wp": [[0.5, 0.5], [0.5, 1.5], [1.5, 1.5]]}],
            "a": [{"c": "#a1a1a1", "wp": [[1.78, 1.78], [2.5, 2.5], [3.5, 3.5]]}]}
    converted = convert(relaxed_json(zipped(data)))
    assert converted.data["rules"] == [{"kind": "arrow", "circle": ["r1c1", "r1c2", "r2c2"],
                                        "cells": ["r3c3", "r4c4"]}]
    assert converted.ignored.count("arrow bulb at r2c2") == 2


def test_an_arrow_shaft_through_a_cell_twice_is_refused_by_name():
    data = {"ce": [[{}] * 9 for _ in range(9)], "a": [{"wp": [
        [0.9, 0.5], [2.5, 0.5], [2.5, 1.5], [1.5, 1.5], [1.5, 0.5], [2.5, 0.5]]}]}
    with pytest.raises(BadInput, match="passes r2c1 twice"):
        convert(relaxed_json(zipped(data)))


@pytest.mark.parametrize("text, cells", [
    (">", ["r1c1", "r1c2"]), ("<", ["r1c2", "r1c1"]), ("v", ["r1c1", "r2c1"]),
    ("^", ["r2c1", "r1c1"])])
def test_inequality_signs_on_an_edge_point_at_the_smaller_cell(text, cells):
    centre = [0.5, 1.0] if text in "<>" else [1.0, 0.5]
    data = {"ce": [[{}] * 9 for _ in range(9)], "o": [{"ct": centre, "te": text, "w": 0.3,
                                                       "h": 0.3}]}
    assert convert(relaxed_json(zipped(data))).data["rules"] == [
        {"kind": "greater-than", "cells": cells}]


def test_a_zipper_centre_dot_is_part_of_its_line():
    data = {"ce": [[{}] * 9 for _ in range(9)],
            "l": [{"c": "#FF00FF", "th": 8, "wp": [[0.5, 0.5], [0.5, 1.5], [0.5, 2.5]]}],
            "o": [{"ct": [0.5, 1.5], "w": 0.2, "h": 0.2, "r": True, "c2": "#FF00FF"}]}
    converted = convert(relaxed_json(zipped(data)), {"#FF00FF": "zipper"})
    assert converted.data["rules"] == [{"kind": "zipper", "cells": ["r1c1", "r1c2", "r1c3"]}]
    assert "zipper centre at r1c2" in converted.ignored


def shapes_puzzle(rules: str | None) -> dict:
    """Return a SudokuPad puzzle with a grey circle in r1c1, a grey square in r2c2 and a grey
    dot between r5c5 and r5c6, and these rules text."""
    data = {"ce": [[{}] * 9 for _ in range(9)],
            "u": [{"ct": [0.5, 0.5], "w": 0.7, "h": 0.7, "r": True, "c2": "#C0C0C0"},
                  {"ct": [1.5, 1.5], "w": 0.7, "h": 0.7, "c2": "#C0C0C0"}],
            "o": [{"ct": [4.5, 5.0], "w": 0.3, "h": 0.3, "r": True, "c2": "#A0A0A0",
                   "c1": "#000000"}]}
    if rules is not None:
        data["metadata"] = {"rules": rules}
    return relaxed_json(zipped(data))


@pytest.mark.parametrize("text, circle, square", [
    ("Digits in grey circles are odd. Digits in grey squares are even.", "odd", "even"),
    ("Circles contain even digits, squares contain odd digits.", "even", "odd"),
    ("A digit in a circle is smaller than its orthogonal neighbours; a digit in a square is "
     "greater than its orthogonal neighbours.", "minimum", "maximum"),
])
def test_cell_shapes_mean_what_the_rules_text_says(text, circle, square):
    rules = text + " Cells joined by a grey dot are consecutive or in a 1:2 ratio."
    converted = convert(shapes_puzzle(rules))
    assert converted.data["rules"] == [{"kind": circle, "cells": ["r1c1"]},
                                       {"kind": square, "cells": ["r2c2"]},
                                       {"kind": "grey-dot", "cells": ["r5c5", "r5c6"]}]
    assert any(said.startswith(f"circles read as {circle}") for said in converted.said)
    assert any(said.startswith("grey dots read as grey-dot") for said in converted.said)


def test_a_grey_dot_the_text_leaves_open_and_two_meanings_are_refused_by_name():
    with pytest.raises(BadInput, match="grey dot between r5c5 and r5c6: the rules text"):
        convert(shapes_puzzle("Normal sudoku rules apply."))
    with pytest.raises(BadInput, match="circles two meanings, odd .* and even"):
        convert(shapes_puzzle("Circled digits are odd. Digits in circles are even."))


def test_without_a_word_on_them_grey_circles_are_odd_and_squares_even():
    data = shapes_puzzle("Cells joined by a grey dot are consecutive or one is double the other")
    assert convert(data).data["rules"][:2] == [{"kind": "odd", "cells": ["r1c1"]},
                                               {"kind": "even", "cells": ["r2c2"]}]


# ---------------------------------------------------------------- links, every form

HELD_OUT_4 = [json.loads(line) for line in (Path(__file__).parent / "data" / "variants"
                                            / "held_out_4.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("form", [
    "https://sudokupad.app/fpuzzles{p}", "https://sudokupad.app/fpuz{p}", "fpuz{p}",
    "https://sudokupad.app/?puzzle=fpuzzles{q}", "https://sudokupad.app/puzzle/fpuz{q}",
    "sudokupad.app/fpuzzles{q}", "https://beta.sudokupad.app/fpuz{p}"])
def test_every_link_form_of_a_published_f_puzzles_payload_reads_the_same(form):
    """The published payload of an f-puzzles link in Rangsk's tests, in each form SudokuPad
    takes it (`fpuz` is SudokuPad's own prefix, not a short link), percent-encoded too."""
    from urllib.parse import quote
    entry = HELD_OUT_4[0]
    link = next(s for s in entry["sources"] if "load=" in s)
    payload = link.split("load=", 1)[1]
    puzzle = read_puzzle(form.format(p=payload, q=quote(payload, safe="")))
    out = api.count(puzzle, "native", limit=2)
    assert out.count == 1 and "".join(map(str, out.solutions[0])) == entry["solution"]


def test_scl_links_read_in_the_query_and_path_forms():
    link = to_scl(PUBLISHED["killer"])
    payload = link.split("sudokupad.app/", 1)[1]
    for form in (f"https://sudokupad.app/?puzzle={payload}",
                 f"https://sudokupad.app/puzzle/{payload}", payload):
        assert read_puzzle(form).rules == read_puzzle(link).rules


# ---------------------------------------------------------------- negatives by colour

def test_a_negative_rule_for_one_colour_of_dots_is_said_on_the_command_line(run_cli):
    entry = PUBLISHED["i-just-like-colours"]                 # black dots only, all given
    link = to_scl(entry)
    r = run_cli("solve", link, "--rules", "anti-king,anti-knight,non-consecutive,"
                                          "kropki-negative:black", "--count")
    assert r.code == 0 and r.out.split()[0] == "1"
    rules = parse_rules("kropki-negative:white,xv-negative:v,xv-negative:x+v")
    assert [r.to_data() for r in rules] == [
        {"kind": "kropki-negative", "dots": ["white"]},
        {"kind": "xv-negative", "marks": ["v"]}, "xv-negative"]
    bad = run_cli("solve", link, "--rules", "kropki-negative:red")
    assert bad.code == 2 and "'red'" in bad.err and "white, black" in bad.err
    bad = run_cli("solve", link, "--rules", "anti-knight:black")
    assert bad.code == 2 and "takes no marks" in bad.err


@pytest.mark.parametrize("points, rules", [
    ([[0, 0], [9, 9]], ["diagonal-main"]), ([[9, 0], [0, 9]], ["diagonal-anti"]),
    ([[0, 0], [9, 8]], [])])
def test_a_drawn_diagonal_is_the_kind_that_draws_it_when_the_text_says_its_values_differ(
        points, rules):
    """A line corner to corner is the global kind whose drawing is that diagonal; a line
    elsewhere is none, and without the sentence on its values neither is a rule."""
    def data(text: str) -> dict:
        return {"cells": [[{} for _ in range(9)] for _ in range(9)],
                "lines": [{"wayPoints": points, "color": "#000000", "thickness": 2}],
                "cages": [{"value": f"rules: {text}"}]}
    assert convert(data("Digits may not repeat on the marked diagonal.")).data["rules"] == rules
    assert convert(data("Normal sudoku rules apply.")).data["rules"] == []
