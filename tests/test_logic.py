"""The logical solver over the shared data sets, variants and sizes, with every step checked.

`solve_logically` checks each step against the native engine's solution (a wrong placement or
an elimination of the true value raises WrongStep), so running it over a set is the test that
no step is wrong. Samples keep the time down; bench/logic.py runs the whole sets.
"""

from __future__ import annotations

import json
from functools import cache
from statistics import mean

import pytest

from polydoku.formats import parse_line, read_puzzle
from polydoku.model import Puzzle
from polydoku.rules import parse_rules
from polydoku.reasoning.logic import (LEVELS, STALL_SCORE, TECHNIQUES, Board, HintStatus,
                                      WrongStep, check_step, hint, layout_of, prepare, rate,
                                      solve_logically, start_board)
from polydoku.reasoning.logic.catalog import BY_NAME

from conftest import EXAMPLES, data_lines, data_path

UNFAIR = "Unfair"      # everything but the forcing nets: patterns a person spots


@cache
def paths(name: str, step: int = 1, limit: int | None = None, max_level: str | None = None):
    """Return (line, solution, path) for puzzles of a data set, solved logically and checked."""
    puzzles = data_lines(f"{name}.txt", step=step, limit=limit)
    solutions = data_lines(f"{name}.solutions.txt", step=step, limit=limit)
    return [(line, solution, solve_logically(parse_line(line), max_level=max_level,
                                             max_seconds=20))
            for line, solution in zip(puzzles, solutions)]


HARD = (("magictour_top1465", 59, 25), ("forum_hardest_1106", 94, 4),
        ("samples_1000/forum_hardest_1905_11plus_1000", 250, 4))


def test_easy50_all_solved_by_patterns_alone():
    for line, solution, path in paths("norvig_easy50", 1, None, UNFAIR):
        assert path.solved, line
        assert "".join(map(str, path.board.value)) == solution


def test_17_clue_sample_solved_by_patterns_alone():
    for line, solution, path in paths("samples_1000/royle_17clue_1000", 10, None, UNFAIR):
        assert path.solved, line
        assert "".join(map(str, path.board.value)) == solution


def test_hard_sets_never_take_a_wrong_step():
    solved = 0
    for name, step, limit in HARD:
        for line, solution, path in paths(name, step, limit, None):
            values = "".join(map(str, path.board.value))
            assert all(v in ("0", s) for v, s in zip(values, solution)), line
            solved += path.solved
    assert solved >= 20      # most of the top1465 sample: logic goes far on it


def test_ratings_order_the_sets():
    def mean_score(name, step, limit=None, max_level=None):
        return mean(p.rating.score for _, _, p in paths(name, step, limit, max_level))
    easy = mean_score("norvig_easy50", 1, max_level=UNFAIR)
    clue17 = mean_score("samples_1000/royle_17clue_1000", 10, max_level=UNFAIR)
    top = mean_score(*HARD[0])
    forum = mean_score(*HARD[2])
    assert easy < clue17 < top < forum


def test_miracle_solves_by_logic_with_the_variant_rules():
    puzzle = read_puzzle(str(EXAMPLES / "miracle.json"))
    path = solve_logically(puzzle)
    assert path.solved
    used = {s.technique for s in path.steps}
    assert "Locked Candidates (variant)" in used
    assert not used & {"Forcing Net", "AIC", "X-Chain", "XY-Chain"}
    assert path.steps[0].text.startswith("Hidden Single: in box 5, 1 can only go in r4c6")


def test_miracle_without_its_rules_is_not_unique_and_stalls():
    puzzle = read_puzzle(str(EXAMPLES / "miracle.json")).with_rules(())
    path = solve_logically(puzzle)
    assert not path.prepared.unique and not path.solved
    assert not path.rating.solved and path.rating.level == "Extreme"


@pytest.mark.parametrize("entry_id", ["ctc-anti-knight", "ctc-anti-king", "ctc-non-consecutive",
                                      "miracle-2", "joon-4x4-a", "joon-16x16"])
def test_variants_and_sizes_solve_by_logic(entry_id):
    lines = data_path("variants/variants.jsonl").read_text().splitlines()
    d = next(json.loads(x) for x in lines if json.loads(x)["id"] == entry_id)
    text = json.dumps({"size": d["size"], "box": [d["box_rows"], d["box_cols"]],
                       "givens": d["givens"], "rules": d["rules"], "alphabet": d["alphabet"]})
    path = solve_logically(read_puzzle(text))
    assert path.solved
    assert "".join(path.prepared.puzzle.symbol(v) for v in path.board.value) == d["solution"]


def test_diagonal_rule_uses_the_diagonals_as_houses():
    puzzle = Puzzle.empty(9, parse_rules("diagonal"))
    layout = layout_of(prepare(puzzle).problem)
    assert [h.name for h in layout.lines["other"]] == ["main diagonal", "anti diagonal"]
    assert not layout.is_classic


def test_check_step_catches_a_wrong_move():
    prep = prepare(read_puzzle(str(EXAMPLES / "wikipedia.txt")))
    board = start_board(prep)
    step = hint(prep.puzzle, prepared=prep).step
    cell, value = step.placements[0]
    wrong = type(step)(step.technique, ((cell, value % 9 + 1),), (), step.pattern, (), (), "x")
    with pytest.raises(WrongStep):
        check_step(wrong, prep.solution, board)
    removes_truth = type(step)(step.technique, (), ((cell, value),), step.pattern, (), (), "x")
    with pytest.raises(WrongStep):
        check_step(removes_truth, prep.solution, board)


def test_no_solution_means_no_path():
    line = "11" + "." * 79
    path = solve_logically(parse_line(line))
    assert path.prepared.solution is None and path.steps == [] and not path.solved


def test_rate_follows_hodoku():
    easy = rate(["Naked Single"] * 20 + ["Hidden Single"] * 10, True)
    assert (easy.score, easy.level, easy.hardest) == (220, "Easy", "Hidden Single")
    hard = rate(["Hidden Single", "X-Wing", "Pointing"], True)
    assert (hard.score, hard.level) == (204, "Hard")
    bumped = rate(["Hidden Single"] * 60, True)          # 840 > 800: Easy is exceeded
    assert bumped.level == "Medium"
    stalled = rate(["Hidden Single"], False)
    assert (stalled.score, stalled.level, stalled.solved) == (14 + STALL_SCORE, "Extreme", False)
    assert rate(["Hidden Single"] * 60, True, cells=256).level == "Easy"


def test_catalogue_is_consistent():
    assert len(BY_NAME) == len(TECHNIQUES)
    assert all(t.level in LEVELS and t.score > 0 for t in TECHNIQUES)
    assert BY_NAME["Hidden Single"].score == 14 and BY_NAME["AIC"].level == "Unfair"


def test_step_json_has_the_documented_fields():
    prep = prepare(read_puzzle(str(EXAMPLES / "wikipedia.txt")))
    h = hint(prep.puzzle, prepared=prep)
    board, step = h.board, h.step
    assert h.status is HintStatus.MOVE and h.graded is not None and h.graded.grade == "answer"
    data = step.to_json(board.layout)
    assert {"technique", "placements", "eliminations", "pattern", "text", "score",
            "level"} <= set(data)
    assert data["placements"][0].keys() == {"cell", "value"}
    assert isinstance(board, Board)


def test_readme_table_matches_the_catalogue():
    from conftest import ROOT
    section = (ROOT / "docs" / "logic.md").read_text()
    table = section.split("| technique (in the order tried)", 1)[1].split("\n\n", 1)[0]
    rows = [line.split("|")[1:4] for line in table.splitlines()[2:]]
    table = {name.strip(): (int(score), level.strip()) for name, score, level in rows}
    assert table == {t.name: (t.score, t.level) for t in TECHNIQUES}


def test_difficulty_length_bands_follow_sudoku_explainer():
    from polydoku.reasoning.logic.difficulty import length_bonus
    assert [round(length_bonus(n), 1) for n in (3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25)] \
        == [0.0, 0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]


def test_difficulty_is_decided_by_the_hardest_step():
    path = solve_logically(parse_line(data_lines("norvig_easy50.txt", 1)[0]))
    assert path.rating.difficulty in (1.2, 1.5, 2.3)        # singles only
    stalled = solve_logically(parse_line(data_lines("magictour_top1465.txt", 1)[0]),
                              max_level="Hard")
    assert not stalled.solved and stalled.rating.difficulty == 11.0
    hard = solve_logically(parse_line(data_lines("magictour_top1465.txt", 1)[0]))
    assert hard.solved and 6.5 <= hard.rating.difficulty < 11
    assert hard.rating.to_json()["difficulty"] == hard.rating.difficulty


def test_a_hidden_single_in_a_box_is_easier_than_in_a_line():
    from polydoku.reasoning.logic.difficulty import step_difficulty
    from polydoku.reasoning.logic.step import Step
    from polydoku.problem import build_problem
    lay = layout_of(build_problem(Puzzle.empty(9)))
    box = next(h.name for h in lay.houses if h.kind == "box")
    row = next(h.name for h in lay.houses if h.kind == "row")
    single = Step("Hidden Single", ((0, 1),), (), (0,), (), (box,), "")
    assert step_difficulty(single, lay) == 1.2
    assert step_difficulty(Step("Hidden Single", ((0, 1),), (), (0,), (), (row,), ""), lay) == 1.5


def test_every_technique_has_a_place_on_the_difficulty_scale():
    from polydoku.reasoning.logic.difficulty import BASE
    assert set(BASE) == {t.name for t in TECHNIQUES}


def _steps(path) -> list[tuple]:
    return [(s.technique, s.text, sorted(s.placements), sorted(s.eliminations))
            for s in path.steps]


@pytest.mark.parametrize("name,step,limit", [("magictour_top1465", 97, 15),
                                             ("samples_1000/forum_hardest_1905_11plus_1000",
                                              333, 3)])
def test_the_compiled_searches_and_the_layout_memory_change_no_step(name, step, limit,
                                                                    monkeypatch):
    """Chains and ALS-XZ searched by the compiled core take the same steps as the Python
    searches; a layout that remembers what searches found nothing (solving the same puzzle
    again, its memory full) takes the same steps as a fresh one."""
    from polydoku.reasoning.logic import board
    for line in data_lines(f"{name}.txt", step=step, limit=limit):
        puzzle = parse_line(line)
        prepared = prepare(puzzle)
        prepared.layout.barren.clear()
        first = _steps(solve_logically(puzzle, prepared=prepared))
        again = _steps(solve_logically(puzzle, prepared=prepared))   # the memory is warm
        assert again == first
        with monkeypatch.context() as m:
            m.setattr(board, "USE_COMPILED", False)
            prepared.layout.barren.clear()
            assert _steps(solve_logically(puzzle, prepared=prepared)) == first


def test_a_path_is_the_same_in_every_process():
    """String hashing differs from process to process: nothing a finder tries in turn may
    follow a set's order (the held-out Strict kropki puzzle's ALS-AIC chains once did)."""
    import os
    import subprocess
    import sys
    script = ("import json, sys; from polydoku.formats.jsonfmt import puzzle_from_dict; "
              "from polydoku.reasoning.logic import solve_logically; "
              "e = next(e for e in map(json.loads, open(sys.argv[1])) if e['id'] == 'strict-kropki'); "
              "print([s.text for s in solve_logically(puzzle_from_dict(e['puzzle']), "
              "check=False).steps])")
    from conftest import ROOT
    data = str(ROOT / "tests" / "data" / "variants" / "held_out.jsonl")
    runs = [subprocess.run([sys.executable, "-c", script, data], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout
            for seed in ("1", "2")]
    assert runs[0] == runs[1] and "ALS-AIC" in runs[0]


def test_one_hint_recipe_says_what_it_found():
    from dataclasses import replace

    from polydoku.engines import Status
    wiki = read_puzzle(str(EXAMPLES / "wikipedia.txt"))
    nudge = hint(wiki, grade="nudge")
    assert nudge.status is HintStatus.MOVE and nudge.graded.grade == "nudge"
    assert nudge.graded.text.startswith("Look at ") and nudge.step is not None
    assert hint(wiki, max_level="Easy").status is HintStatus.MOVE
    solution = prepare(wiki).solution
    full = Puzzle(wiki.geometry, tuple(solution), wiki.rules)
    assert hint(full).status is HintStatus.COMPLETE and hint(full).graded is None
    none = hint(parse_line("11" + "." * 79))
    assert none.status is HintStatus.UNSATISFIABLE and none.board is None
    assert none.message == "no solution"
    gave_up = replace(prepare(wiki), solution=None, unique=False, status=Status.UNKNOWN,
                      engine="sat")
    h = hint(wiki, prepared=gave_up)
    assert h.status is HintStatus.UNKNOWN
    assert h.message == "the sat engine gave up before finding a solution"
    with pytest.raises(ValueError):
        hint(wiki, grade="everything")
