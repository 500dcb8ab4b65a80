"""Rules of alternatives (`or`, ISS's `Or`/`And`/`End`): the statement against brute force
on 4x4 grids, every solver family, JSON and ISS round trips, ISS's own collection puzzles,
and the bounds an or is refused by."""

from __future__ import annotations

import json

import pytest

from conftest import ROOT
from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.read import read_puzzle
from polydoku.rules import rules_from_data
from test_rule_kinds import puzzle_with, solutions, truth

WHITE_OR_CAGE = {"kind": "or", "options": [
    {"kind": "kropki-white", "cells": ["r1c1", "r1c2"]},
    [{"kind": "candidates", "cells": ["r1c1"], "values": [4]},
     {"kind": "killer", "cells": ["r2c3", "r2c4"], "sum": 3}]]}


def collection(name: str) -> dict:
    return next(d for d in map(json.loads, (ROOT / "tests" / "data" / "iss_collection.jsonl")
                               .read_text().splitlines()) if d["name"] == name)


def test_an_or_holds_where_one_option_holds_on_every_solver_family():
    puzzle = puzzle_with([WHITE_OR_CAGE])
    grids = truth(puzzle)
    # by hand: r1c1 and r1c2 consecutive, or r1c1 = 4 with r2c3 and r2c4 adding up to 3
    expected = {g for g in truth(puzzle_with([])) if abs(g[0] - g[1]) == 1
                or g[0] == 4 and g[6] + g[7] == 3}
    assert grids == expected and 0 < len(grids) < 288
    for engine in ("native", "sat", "cpsat"):
        assert solutions(puzzle, engine) == grids, engine


def test_an_or_round_trips_through_json_and_iss():
    puzzle = puzzle_with([WHITE_OR_CAGE])
    again = read_puzzle(json.dumps({"size": 4, "givens": "." * 16,
                                    "rules": [puzzle.rules[0].to_data()]}))
    assert again.rules == puzzle.rules
    text = to_iss(puzzle)
    assert ".Or.WhiteDot~R1C1~R1C2.And.~R1C1_4.Cage~3~R2C3~R2C4.End.End" in text
    assert parse_iss(text) == puzzle


@pytest.mark.parametrize("name", ["Either/Or", "Ambiguous Arrows - composite"])
def test_iss_collection_ors_are_unique_with_their_published_grid(name):
    """Two puzzles of ISS's own collection (tests/data/iss_collection.jsonl): alternatives of
    givens, and arrows whose bulb is any of their cells."""
    entry = collection(name)
    puzzle = read_puzzle(entry["input"])
    assert any(r.kind == "or" for r in puzzle.rules)
    out = api.count(puzzle, api.get_engine("native"), limit=2)
    assert len(out.solutions) == 1 and out.exhausted
    assert "".join(map(puzzle.symbol, out.solutions[0])) == entry["solution"]
    assert parse_iss(to_iss(puzzle)) == puzzle


def test_an_iss_string_broken_over_indented_lines_is_read_whole():
    """ISS's "Hidden Skyscraper - Full Odd" goes on after a line break with `      .Or.…`:
    every item is read (it was read up to the break, its ors lost)."""
    puzzle = read_puzzle(collection("Hidden Skyscraper - Full Odd")["input"])
    assert len(puzzle.rules) == 36 and sum(r.kind == "or" for r in puzzle.rules) == 19


@pytest.mark.parametrize("data, words", [
    ({"kind": "or"}, 'field "options" must be a list of 1 to 32'),
    ({"kind": "or", "options": [[]]}, "option 1: 1 to 32 rules"),
    ({"kind": "or", "options": [{"kind": "killer", "cells": ["r9c9"], "sum": 3}]},
     r"option 1, rule 1 \(killer\)"),
    ({"kind": "or", "options": [{"kind": "or", "options": [{"kind": "or", "options": [
        {"kind": "or", "options": ["anti-knight"]}]}]}]}, "nest more than 3 deep"),
])
def test_bad_ors_are_named_in_one_line(data, words):
    with pytest.raises(BadInput, match=words) as err:
        rules_from_data([data], puzzle_with([]).geometry)
    assert "\n" not in str(err.value)


def test_an_or_of_too_many_fillings_and_too_wide_an_option_is_refused_by_name(run_cli):
    """Two options over the main diagonal of a 9x9: more fillings than a table holds, and a
    sum over nine cells of no one house, too wide to list with a selector."""
    diagonal = [f"r{k}c{k}" for k in range(1, 10)]
    data = {"givens": "." * 81, "rules": [{"kind": "or", "options": [
        {"kind": "thermometer", "cells": diagonal[:5]},
        {"kind": "killer", "cells": diagonal, "sum": 45}]}]}
    r = run_cli("solve", json.dumps(data))
    assert r.code == 2 and "an or over 9 cells allows more than 20000 fillings" in r.err
    assert len(r.err.strip().splitlines()) == 1


HIDDEN = {"kind": "or", "options": [
    [{"kind": "hidden-skyscraper", "side": "left", "index": 1, "value": v},
     {"kind": "hidden-skyscraper", "side": "top", "index": 4, "value": v}] for v in (1, 2, 4)]}


ROOM_OR_SUM = {"kind": "or", "options": [
    {"kind": "numbered-room", "side": "left", "index": 2, "value": 3},
    {"kind": "x-sum", "side": "left", "index": 2, "sum": 3}]}
SUM_OR_WHITE = {"kind": "or", "options": [
    {"kind": "killer", "cells": ["r1c1", "r2c3"], "sum": 5},
    {"kind": "kropki-white", "cells": ["r1c1", "r1c2"]}]}
LE_OR_GE = {"kind": "or", "options": [
    {"kind": "killer-bound", "cells": ["r1c1", "r2c3", "r4c2"], "max": 6},
    {"kind": "killer-bound", "cells": ["r3c1", "r2c4"], "min": 7}]}


@pytest.mark.parametrize("rules", [[WHITE_OR_CAGE], [HIDDEN], [ROOM_OR_SUM], [SUM_OR_WHITE],
                                   [LE_OR_GE]])
def test_an_or_past_its_table_bound_keeps_its_grids_with_a_selector(monkeypatch, rules):
    """With the table bound lowered to 3 fillings, the ors are lowered with an auxiliary
    naming an option that holds (problem/selector.py), and every sum with a slack it sets:
    every solver family still finds exactly the grids the statement accepts, each once
    though two options keep it."""
    from polydoku.problem import build, choice, selector
    puzzle = puzzle_with(rules)
    grids = truth(puzzle)
    assert 0 < len(grids) < 288
    build._lowered.cache_clear()
    monkeypatch.setattr(choice, "MOST_FILLINGS", 3)
    monkeypatch.setattr(selector, "SUM_ROWS", 1)
    try:
        assert build.build_problem(puzzle).free_aux
        for engine in ("native", "sat", "cpsat"):
            out = api.count(puzzle, engine, limit=1000, timeout=60)
            assert out.exhausted and len(out.solutions) == len(set(out.solutions)), engine
            assert set(out.solutions) == grids, engine
    finally:
        build._lowered.cache_clear()


def test_an_or_the_grid_does_not_fix_is_refused_by_an_engine_that_counts_solutions(monkeypatch):
    """A package manager counts each solution its resolver finds: an or lowered with a
    selector is refused by name before anything runs."""
    from polydoku.problem import build, choice
    build._lowered.cache_clear()
    monkeypatch.setattr(choice, "MOST_FILLINGS", 3)
    try:
        problem = build.build_problem(puzzle_with([HIDDEN]))
        refusal = api.get_engine("cargo").refusal(problem)
    finally:
        build._lowered.cache_clear()
    assert refusal and "an or's choice of option" in refusal and "\n" not in refusal


@pytest.mark.parametrize("name, ors, engines", [
    ("Unbidden First Hidden", 1, ("native", "sat")),
    ("Hidden Skyscraper - Full Odd", 19, ("native", "sat")),
    ("City Planning", 36, ("native", "sat")),
    ("Numbered Rooms vs X-Sums", 17, ("sat",))])     # native: no answer within minutes
def test_iss_collection_ors_over_many_cells_are_unique_with_their_published_grid(name, ors,
                                                                                 engines):
    """ISS's "Unbidden First Hidden" (https://sudokupad.app/1i71uad30f): an or of nine
    options, each the same first hidden skyscraper of row 9 from the right and column 9 from
    below, the ninth (9, which nothing hides) never holding, over 17 cells; "Hidden
    Skyscraper - Full Odd" (an odd first hidden skyscraper per row and column) and "City
    Planning" (each number a given or a skyscraper clue) and "Numbered Rooms vs X-Sums"
    (each clue a numbered room or an x-sum, the x-sum's total a slack the selector sets),
    ors over whole rows and columns: each lowered with a selector, as no table of their
    fillings is within bounds."""
    from polydoku.problem.build import build_problem
    entry = collection(name)
    puzzle = read_puzzle(entry["input"])
    assert sum(r.kind == "or" for r in puzzle.rules) == ors
    assert build_problem(puzzle).free_aux
    for engine in engines:
        out = api.count(puzzle, api.get_engine(engine), limit=2, timeout=120)
        assert len(out.solutions) == 1 and out.exhausted, engine
        assert "".join(map(puzzle.symbol, out.solutions[0])) == entry["solution"], engine
    assert parse_iss(to_iss(puzzle)) == puzzle


@pytest.mark.parametrize("text, words", [
    (".Or.~R1C1_1", "an Or without its End"),
    (".End", "an End with no Or or And open"),
    (".Or.NoBoxes.End", "NoBoxes inside an Or or And"),
])
def test_bad_iss_frames_are_named(text, words):
    with pytest.raises(BadInput, match=words):
        parse_iss(text)
