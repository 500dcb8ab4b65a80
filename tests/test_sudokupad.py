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

PUBLISHED = {e["id"]: e for name in ("published", "held_out_3") for e in map(
    json.loads, (Path(__file__).parent / "data" / "variants" / f"{name}.jsonl").read_text()
    .splitlines())}
PARITY_FISH = (Path(__file__).parent / "data" / "sudokupad" / "parity-fish.txt").read_text().strip()
LINE_COLOURS = {"whispers": "#67F067", "renban": "#C060F0", "thermometer": "#AAAAAA",
                "modular": "#1E90FF", "lockout": "#3030F0", "double-arrow": "#A0A0A0",
                "sum-line": "#F09030"}


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


def to_scl(entry: dict) -> str:
    """Return the `scl` link of a published puzzle, written as SudokuPad writes its elements."""
    p = entry["puzzle"]
    n = p["size"]
    cells = [[{"v": int(p["givens"][r * n + c])} if p["givens"][r * n + c] != "." else {}
              for c in range(n)] for r in range(n)]
    data: dict = {"id": entry["id"], "ce": cells, "ca": [{"v": f"title: {entry['title']}"}]}
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
        else:
            raise AssertionError(f"the test cannot write {kind}")
    if overlays:
        data["o"] = overlays
    if underlays:
        data["u"] = underlays
    if lines:
        data["l"] = lines
    text = zipped(data).replace("c2:'#F'", "c2:#F").replace("c2:'#0'", "c2:#0") \
        .replace("c1:'#0'", "c1:#0")
    return "https://sudokupad.app/scl" + lzstring.LZString().compressToBase64(text)


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


def test_a_thermometer_bulb_is_part_of_its_named_line_and_refused_without_it(run_cli):
    link = to_scl(PUBLISHED["thermo"])
    r = run_cli("solve", link)                   # the bulb circle alone is not read
    assert r.code == 2 and ("not read" in r.err or "line" in r.err)
    r = run_cli("solve", link, "--rules", names("thermometer"), "--verbose")
    assert r.code == 0 and "thermometer bulb at" in r.err


def test_only_whispers_take_a_number(run_cli):
    r = run_cli("solve", to_scl(PUBLISHED["german-whispers"]), "--rules", "line:#67F067=renban:4")
    assert r.code == 2 and "only whispers, lockout and sum-line" in r.err


def test_line_names_on_another_format_are_exit_2(run_cli):
    r = run_cli("solve", "." * 81, "--rules", "line:#67F067=whispers")
    assert r.code == 2 and "scl/ctc" in r.err
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
    ({"a": [{"wp": [[0.5, 0.5], [1.5, 1.5]], "hl": 0.3}]}, "arrows"),
    ({"o": [{"ct": [0.5, 0.5], "w": 0.8, "h": 0.8, "c2": "#CFCFCF"}]}, "shape at (0.5, 0.5)"),
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
