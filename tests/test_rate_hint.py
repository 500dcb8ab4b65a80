"""`polydoku rate` (one row per input line, error rows in place, table/CSV/JSON) and graded
hints (`hint --level nudge|technique|cells|answer`, `hint --out`)."""

from __future__ import annotations

import csv
import io
import json

import defusedxml.ElementTree as ET
import pytest

from conftest import EXAMPLES, data_lines
from polydoku.formats.line import parse_line
from polydoku.reasoning.logic import solve_logically

# magictour top1465 line 1 with one single placed: the next move is a Locked Triple in box 7
TRIPLE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9.7......"
TWO = "." * 81


def test_rate_gives_one_row_per_line_in_order_with_error_rows(run_cli, tmp_path):
    good = data_lines("norvig_easy50.txt", 2) + data_lines("magictour_top1465.txt", 2)
    lines = good[:2] + ["12x", TWO] + good[2:]
    src = tmp_path / "mixed.txt"
    src.write_text("\n".join(lines) + "\n")
    r = run_cli("rate", src, "--format", "json", "-j", "2")
    assert r.code == 2                          # the worst: a bad line
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert [row["line"] for row in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[2]["status"].startswith("error:") and "line 3" in rows[2]["status"]
    assert rows[3]["unique"] is False and rows[3]["status"] == "several solutions"
    for row, line in zip(rows[:2] + rows[4:], good):
        rating = solve_logically(parse_line(line)).rating
        assert (row["level"], row["score"], row["hardest"]) == (rating.level, rating.score,
                                                                rating.hardest)
        assert row["givens"] == sum(ch != "." and ch != "0" for ch in line)
        assert row["unique"] is True
    assert "line 3" in r.err


def test_rate_csv_and_table_keep_the_same_rows(run_cli, tmp_path):
    src = tmp_path / "two.txt"
    src.write_text("\n".join(data_lines("norvig_easy50.txt", 2)) + "\nnot a puzzle\n")
    c = run_cli("rate", src, "-f", "csv", "-j", "1")
    rows = list(csv.DictReader(io.StringIO(c.out)))
    assert [r["line"] for r in rows] == ["1", "2", "3"]
    assert rows[0]["level"] == "Easy" and rows[0]["unique"] == "yes"
    assert rows[2]["level"] == "" and rows[2]["status"].startswith("error")
    t = run_cli("rate", src, "-j", "1")
    table = t.out.splitlines()
    assert table[0].split()[:4] == ["line", "name", "level", "score"] and len(table) == 4
    assert table[1].split()[2] == "Easy" and "error" in table[3]
    assert c.code == t.code == 2


def test_rate_a_single_puzzle_and_a_puzzle_with_no_solution(run_cli):
    r = run_cli("rate", str(EXAMPLES / "wikipedia.txt"), "-f", "json")
    assert r.code == 0 and json.loads(r.out)["level"] == "Easy"
    bad = "11" + "." * 79
    r = run_cli("rate", bad, "-f", "json")
    assert r.code in (1, 2) and json.loads(r.out)["level"] is None


@pytest.mark.parametrize("grade,words", [
    ("nudge", "Look at box 7."),
    ("technique", "Look at box 7: there is a Locked Triple."),
    ("cells", "A Locked Triple using r7c1, r7c2 and r7c3."),
    ("answer", "Locked Triple: in box 7 and row 7, r7c1, r7c2 and r7c3 hold only 4/6/8"),
])
def test_hint_tells_as_much_as_the_level_asks(run_cli, grade, words):
    r = run_cli("hint", TRIPLE, "--level", grade)
    assert r.code == 0 and r.out.startswith(words)


def test_hint_json_reveals_only_what_the_level_tells(run_cli):
    shown = {}
    for grade in ("nudge", "technique", "cells", "answer"):
        data = json.loads(run_cli("hint", TRIPLE, "--level", grade, "--json").out)
        assert data["grade"] == grade
        shown[grade] = data
    assert shown["nudge"]["technique"] is None and shown["nudge"]["house"] == "box 7"
    assert shown["nudge"]["pattern"] == [] and shown["nudge"]["eliminations"] == []
    assert shown["technique"]["technique"] == "Locked Triple"
    assert shown["technique"]["pattern"] == []
    assert shown["cells"]["pattern"] == ["r7c1", "r7c2", "r7c3"]
    assert shown["cells"]["eliminations"] == []
    assert {"cell": "r9c2", "value": 4} in shown["answer"]["eliminations"]


def test_hint_out_draws_the_grade(run_cli, tmp_path):
    nudge, answer = tmp_path / "nudge.svg", tmp_path / "answer.svg"
    assert run_cli("hint", TRIPLE, "--level", "nudge", "--out", nudge).code == 0
    assert run_cli("hint", TRIPLE, "--level", "answer", "--out", answer).code == 0

    def marked(path):
        root = ET.parse(path).getroot()
        cells = [g for g in root.iter("{http://www.w3.org/2000/svg}g")
                 if "highlight" in (g.get("class") or "")]
        struck = [t for t in root.iter("{http://www.w3.org/2000/svg}text")
                  if "struck" in (t.get("class") or "")]
        return sorted(g.get("data-cell") for g in cells), len(struck)

    cells, struck = marked(nudge)
    assert cells == sorted(f"r{r}c{c}" for r in (7, 8, 9) for c in (1, 2, 3)) and struck == 0
    cells, struck = marked(answer)
    assert cells == ["r7c1", "r7c2", "r7c3"] and struck == 10     # the step's eliminations
    png = tmp_path / "hint.png"
    assert run_cli("hint", TRIPLE, "--out", png).code == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_hint_out_refuses_other_suffixes(run_cli, tmp_path):
    r = run_cli("hint", TRIPLE, "--out", tmp_path / "hint.gif")
    assert r.code == 2 and "must end in .svg or .png" in r.err
