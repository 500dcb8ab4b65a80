"""`polydoku hint` and `polydoku steps`: sentences, JSON, exit codes (0 solved or a move, 1 no
solution, 2 bad input, 4 logic stalls)."""

from __future__ import annotations

import json

from conftest import EXAMPLES

WIKIPEDIA = str(EXAMPLES / "wikipedia.txt")
INKALA = str(EXAMPLES / "inkala.txt")
SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
# forum_hardest_1106 line 6: even nested forcing nets stall on it
STALLS = "..6..1....5..3....9..4....7..1....2..3..9....4..5....13.....68....3..2....2..8..3"


def test_hint_says_the_next_move_in_one_sentence(run_cli):
    r = run_cli("hint", WIKIPEDIA)
    assert r.code == 0
    assert r.out.strip() == "Naked Single: r5c5 can only be 5"


def test_hint_json_has_technique_moves_and_pattern(run_cli):
    r = run_cli("hint", WIKIPEDIA, "--json")
    assert r.code == 0
    data = json.loads(r.out)
    assert data["technique"] == "Naked Single" and data["status"] == "move"
    assert data["placements"] == [{"cell": "r5c5", "value": 5}]
    assert data["eliminations"] == [] and data["pattern"] == ["r5c5"]


def test_hint_finds_a_hidden_single(run_cli):
    line = ".................1....23.4........2....5.......51.6..7..4.8.....2....3...8.7....5"
    r = run_cli("hint", line)
    assert (r.code, r.out.strip()) == (0, "Hidden Single: in box 5, 2 can only go in r5c6")
    data = json.loads(run_cli("hint", line, "--json").out)
    assert data["placements"] == [{"cell": "r5c6", "value": 2}] and data["houses"] == ["box 5"]


def test_hint_reports_a_stall_with_the_candidates(run_cli):
    # Inkala's puzzle needs a nested forcing net from the first move: patterns alone stall
    r = run_cli("hint", INKALA, "--max-level", "Unfair")
    assert r.code == 4
    assert "logic stalls" in r.out
    assert r.out.count("|") > 20          # the candidates grid
    data = json.loads(run_cli("hint", INKALA, "--json", "--max-level", "Unfair").out)
    assert data["status"] == "stalled" and data["technique"] is None
    assert len(data["candidates"]) == 9


def test_hint_on_a_full_grid_and_on_no_solution(run_cli):
    r = run_cli("hint", SOLVED)
    assert (r.code, r.out.strip()) == (0, "The grid is already complete.")
    r = run_cli("hint", "11" + "." * 79)
    assert r.code == 1 and "no solution" in r.out


def test_hint_bad_input_is_one_line(run_cli):
    r = run_cli("hint", "123")
    assert r.code == 2
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err


def test_steps_prints_the_path_and_the_rating(run_cli):
    r = run_cli("steps", str(EXAMPLES / "four.txt"))
    assert r.code == 0
    lines = r.out.strip().splitlines()
    assert lines[0].startswith(" 1. ") or lines[0].startswith("1. ")
    assert "Solved by logic alone" in r.out
    assert lines[-1].startswith("Rating: ") and "Easy" in lines[-1]


def test_steps_json_is_the_list_of_steps_with_the_rating(run_cli):
    r = run_cli("steps", WIKIPEDIA, "--json")
    assert r.code == 0
    data = json.loads(r.out)
    assert data["status"] == "solved" and data["unique"] is True
    assert len(data["steps"]) == 51          # one step per empty cell: singles only
    assert all({"technique", "placements", "eliminations", "pattern"} <= set(s)
               for s in data["steps"])
    assert data["rating"]["level"] == "Easy" and data["grid"] == SOLVED


def test_steps_stall_exits_4_and_shows_candidates(run_cli):
    r = run_cli("steps", STALLS)
    assert r.code == 4
    assert "Logic stalls after" in r.out and "Rating: " in r.out
    assert r.out.count("|") > 20
    data = json.loads(run_cli("steps", STALLS, "--json").out)
    assert data["status"] == "stalled" and data["rating"]["solved"] is False
    assert len(data["candidates"]) == 9


def test_steps_reach_for_nested_forcing_nets_only_when_needed(run_cli):
    data = json.loads(run_cli("steps", INKALA, "--json").out)
    assert data["status"] == "solved"
    used = [s["technique"] for s in data["steps"]]
    assert used[0] == "Nested Forcing Net" and "Hidden Single" in used
    assert run_cli("steps", INKALA, "--max-level", "Unfair").code == 4


def test_steps_max_level_limits_the_techniques(run_cli):
    line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    full = json.loads(run_cli("steps", line, "--json").out)
    easy = run_cli("steps", line, "--json", "--max-level", "Easy")
    assert full["status"] == "solved"
    assert easy.code == 4
    assert {s["level"] for s in json.loads(easy.out)["steps"]} == {"Easy"}


def test_steps_miracle_with_its_rules(run_cli):
    r = run_cli("steps", str(EXAMPLES / "miracle.json"))
    assert r.code == 0
    assert "Locked Candidates (variant)" in r.out and "Solved by logic alone" in r.out


def test_steps_over_a_file_exits_with_the_worst(run_cli, tmp_path):
    f = tmp_path / "two.txt"
    f.write_text(SOLVED[:-1] + ".\n" + STALLS + "\n")
    r = run_cli("steps", str(f), "--json")
    assert r.code == 4
    statuses = [json.loads(x)["status"] for x in r.out.strip().splitlines()]
    assert statuses == ["solved", "stalled"]
