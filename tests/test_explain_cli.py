"""The explain, check-unique and candidates commands, in process: exit codes, output, JSON and
one-line errors."""

from __future__ import annotations

import json

import pytest

from conftest import EXAMPLES, data_lines

WIKI = str(EXAMPLES / "wikipedia.txt")
CONDA = "r4c5=6, r5c1=4, r6c5=2, r8c4=4"


def unsat_line() -> str:
    return next(ln.split(":")[0] for ln in data_lines("tdoku_test_puzzles_counts.txt")
                if ln.split(":")[1] == "0")


def test_explain_why_text_and_exit_1(run_cli):
    r = run_cli("explain", WIKI, "--why", "r1c6=4")
    assert r.code == 1 and r.err == ""
    lines = r.out.splitlines()
    assert lines[0].startswith("r1c6 cannot hold 4: with r1c6=4, these 4 givens have no solution")
    assert lines[1] == CONDA
    assert ". . . | . . 4* | . . ." in r.out and "4 . . | . . .  | . . ." in r.out


def test_explain_why_json_and_conda_spelling(run_cli):
    r = run_cli("explain", WIKI, "--why", "1x6-is=4", "--json", "--smallest")
    data = json.loads(r.out)
    assert r.code == 1 and data["status"] == "unsatisfiable" and data["why"] == "r1c6=4"
    assert ", ".join(data["conflict"]) == CONDA and data["minimal"]
    assert data["smallest"]["proved"] and data["smallest"]["lower_bound"] == 4
    assert sorted(data["witnesses"]) == sorted(data["conflict"])


def test_explain_why_possible_exit_0(run_cli):
    r = run_cli("explain", WIKI, "--why", "r1c6=8")
    assert r.code == 0 and r.out.startswith("r1c6 can hold 8") and "6 7 8* | 9 1 2" in r.out


def test_explain_solvable_and_several(run_cli):
    r = run_cli("explain", WIKI)
    assert r.code == 0 and "only one" in r.out
    r = run_cli("explain", data_lines("serg_benchmark.txt", limit=1)[0], "--json")
    data = json.loads(r.out)
    assert r.code == 0 and data["status"] == "solved" and data["unique"] is False
    assert len(data["solutions"]) == 2


def test_explain_unsolvable_puzzle(run_cli):
    r = run_cli("explain", unsat_line())
    assert r.code == 1 and r.out.startswith("no solution: these 21 givens already have none")
    givens = r.out.splitlines()[1].split(", ")
    assert all(g.startswith("r") and "=" in g for g in givens) and len(givens) == 21


def test_explain_variant_rule_named(run_cli):
    puzzle = "1" + "." * 12 + "1" + "." * 22            # 6x6: r1c1=1, r3c2=1, a knight apart
    r = run_cli("explain", puzzle, "--rules", "anti-knight")
    assert r.code == 1 and "it needs the anti-knight rule" in r.out


def test_explain_file_of_many_streams(run_cli, tmp_path):
    f = tmp_path / "many.txt"
    f.write_text(f"{unsat_line()}\n{data_lines('norvig_easy50.txt', limit=1)[0]}\n")
    r = run_cli("explain", str(f), "--json")
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert r.code == 1 and [x["status"] for x in rows] == ["unsatisfiable", "solved"]


def test_explain_gave_up_exit_4(run_cli):
    r = run_cli("explain", unsat_line(), "--timeout", "0.001")
    assert r.code == 4 and r.out.startswith("unknown")


@pytest.mark.parametrize("args, needle", [
    (("explain", WIKI, "--why", "r10c1=4"), "outside the 9x9 grid"),
    (("explain", WIKI, "--why", "r1c1=0"), "value '0' is not one of 1..9"),
    (("explain", WIKI, "--why", "r1c1"), "expected a cell and a value like r1c6=4"),
    (("explain", WIKI, "--method", "guess"), "Invalid value for '--method'"),
    (("candidates", WIKI, "--at-least", "0"), "Invalid value for '--at-least'"),
    (("check-unique", "12345"), "wrong length"),
    (("candidates", WIKI, "--engine", "nope"), "unknown engine"),
])
def test_bad_input_one_line_exit_2(run_cli, args, needle):
    r = run_cli(*args)
    assert r.code == 2
    assert needle in r.err and r.err.count("\n") == 1 and "Traceback" not in r.err


def test_check_unique_answers(run_cli):
    r = run_cli("check-unique", WIKI)
    assert r.code == 0 and r.out.strip() == "yes"
    r = run_cli("check-unique", data_lines("serg_benchmark.txt", limit=1)[0])
    assert r.code == 1 and r.out.startswith("no: at least 2 solutions; two differ in ")
    r = run_cli("check-unique", unsat_line())
    assert r.code == 1 and r.out.strip() == "no: no solution"


def test_check_unique_streams_a_file_and_json(run_cli, tmp_path):
    lines = data_lines("norvig_easy50.txt", limit=3)
    f = tmp_path / "p.txt"
    f.write_text("\n".join(lines + ["123", lines[0]]) + "\n")
    r = run_cli("check-unique", str(f))
    assert r.code == 2 and r.out.split() == ["yes"] * 3 + ["error", "yes"] and "line 4" in r.err
    r = run_cli("check-unique", str(f), "--json")
    rows = [json.loads(x) for x in r.out.splitlines()]
    assert [x["unique"] for x in rows] == [True] * 3 + [None, True]
    assert rows[3]["status"] == "error" and rows[3]["line"] == 4


def test_candidates_grid_and_json(run_cli):
    line = data_lines("serg_benchmark.txt", limit=1)[0]
    r = run_cli("candidates", line)
    assert r.code == 0 and "candidates (values in at least one solution)" in r.out
    r = run_cli("candidates", line, "--json")
    data = json.loads(r.out)
    assert r.code == 0 and data["status"] == "solved" and len(data["candidates"]) == 81
    assert data["candidates"]["r1c1"] == "8" and data["total"] == sum(
        len(v) for v in data["candidates"].values())
    r = run_cli("candidates", unsat_line())
    assert r.code == 1 and r.out.startswith("no solution")
