"""The automaton kinds (regex and nfa lines): the regex compiler against Python's own regular
expressions, the unfolding along a line against the automaton's run (one run per filling),
each kind against its statement written out again over all 288 4x4 grids and on each solver
family, round trips through JSON and ISS, bad input, ISS itself counting what polydoku counts,
and the puzzles of ISS's own collection that use them solved to their published grids."""

from __future__ import annotations

import itertools
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ROOT, need_engine
from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats import read_puzzle
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.rules.automaton import unfold
from polydoku.rules.iss_automaton import read_form, write_form
from polydoku.rules.kind.nfa import random_form
from polydoku.rules.kind.regex import random_pattern
from polydoku.rules.regex_syntax import compile_regex
from test_kinds_lines import agrees, refused, round_trips
from test_rule_kinds import puzzle_with, solutions, truth

# an even count of odd values, over 4 and over 9 symbols
EVEN_ODDS_4 = write_form([{k: {k % 2} for k in range(1, 5)}, {k: {1 - k % 2} for k in range(1, 5)}],
                         [0], {0}, 4)
EVEN_ODDS_9 = "AipIRFMlTXRkAyHQtj4A"         # docs/rules.md's example


def word(values) -> str:
    return "".join(map(str, values))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 9), st.lists(st.lists(st.integers(1, 3), max_size=7), max_size=8))
def test_the_regex_compiler_matches_what_python_matches(seed, words):
    pattern = random_pattern(random.Random(seed), 3)
    aut = compile_regex(pattern, 1, 3)
    for w in words:
        assert aut.accepts_word(w) == bool(re.fullmatch(pattern, word(w))), (pattern, w)


@pytest.mark.parametrize("pattern, yes, no", [
    ("(12|3)*", ["", "12", "3123"], ["1", "21"]),
    ("[^2]{2,3}", ["13", "333"], ["3", "1323", "12"]),
    ("1?2+", ["2", "122"], ["1", "112"]),
    ("(|1)2", ["2", "12"], ["112"]),
    (".{2,}", ["12", "1234"], ["1"]),
    (" 1 2 ", ["12"], ["1"]),
    ("[1-2a]", ["1"], ["3"]),
])
def test_regex_by_hand(pattern, yes, no):
    aut = compile_regex(pattern, 1, 12)
    assert all(aut.accepts_word([int(ch) for ch in w]) for w in yes)
    assert not any(aut.accepts_word([int(ch) for ch in w]) for w in no)
    assert compile_regex("a", 1, 12).accepts_word([10])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 9), st.integers(1, 4))
def test_the_unfolding_keeps_the_words_the_automaton_accepts_with_one_run_each(seed, length):
    rng = random.Random(seed)
    aut, _ = read_form(random_form(rng, 3))
    out = unfold(aut, length, 3)
    assert out.sizes[0] <= 1 and out.sizes[-1] <= 1
    for w in itertools.product((1, 2, 3), repeat=length):
        state: int | None = 1
        for i, v in enumerate(w):
            nxt = [t for s, x, t in out.edges[i] if s == state and x == v]
            assert len(nxt) <= 1                       # deterministic: one run per filling
            state = nxt[0] if nxt else None
        assert (state is not None) == aut.accepts_word(w), w


def test_a_regex_line_keeps_exactly_the_grids_its_pattern_matches():
    line = ["r1c1", "r2c2", "r3c3", "r4c4"]
    kept = agrees([{"kind": "regex", "pattern": "(12|3)*4?", "cells": line}],
                  lambda g: re.fullmatch("(12|3)*4?", word(g[i * 5] for i in range(4))))
    assert kept
    repeat = ["r1c1", "r1c2", "r1c1"]             # a cell passed twice is read twice
    agrees([{"kind": "regex", "pattern": "1.1|2.2", "cells": repeat}],
           lambda g: g[0] in (1, 2))


def test_an_nfa_line_keeps_exactly_the_grids_its_automaton_accepts():
    line = ["r1c1", "r1c2", "r2c2", "r3c2"]
    agrees([{"kind": "nfa", "automaton": EVEN_ODDS_4, "cells": line}],
           lambda g: sum(g[i] % 2 for i in (0, 1, 5, 9)) % 2 == 0)


@pytest.mark.parametrize("engine", ["sat", "cpsat", "z3", "clingo"])
def test_automaton_lines_on_each_solver_family(engine):
    need_engine(engine)
    for rules in ([{"kind": "regex", "pattern": "[1-2]+3?", "cells": ["r1c1", "r2c1", "r3c2"]}],
                  [{"kind": "nfa", "automaton": EVEN_ODDS_4, "cells": ["r1c1", "r1c2", "r2c2"]}],
                  [{"kind": "regex", "pattern": "44", "cells": ["r1c1", "r1c2"]}],    # none
                  [{"kind": "nfa", "automaton": write_form([{}], [0], {0}, 4),     # no moves
                    "cells": ["r1c1"]}]):
        puzzle = puzzle_with(rules)
        assert solutions(puzzle, engine) == truth(puzzle), (engine, rules)


def test_json_and_iss_round_trips():
    for data in ({"kind": "regex", "pattern": "[1-4]+[^2]*", "cells": ["r1c1", "r1c2", "r2c2"]},
                 {"kind": "nfa", "automaton": EVEN_ODDS_4, "cells": ["r4c4", "r3c3"]}):
        round_trips(data)
        puzzle = puzzle_with([data])
        text = to_iss(puzzle)
        assert parse_iss(text).rules == puzzle.rules and to_iss(parse_iss(text)) == text
    assert to_iss(puzzle_with([{"kind": "regex", "pattern": "1 2", "cells": ["r1c1", "r1c2"]}])
                  ).endswith(".Regex~MTI~R1C1~R1C2")


def test_iss_items_of_several_lines_and_names_and_old_patterns():
    p = parse_iss(f".Shape~4x4.NFA~{EVEN_ODDS_4}~_Even%20odds~R1C1~R1C2~~R2C1~_x~R3C1"
                  ".Regex~1%7C2~R4C1")
    assert [r.to_data()["cells"] for r in p.rules] == [["r1c1", "r1c2"], ["r2c1"], ["r3c1"],
                                                      ["r4c1"]]
    assert p.rules[-1].to_data()["pattern"] == "1|2"


@pytest.mark.parametrize("data, words", [
    ({"kind": "regex", "pattern": "[2-1]", "cells": ["r1c1"]}, "a range runs backwards"),
    ({"kind": "regex", "pattern": "(12", "cells": ["r1c1"]}, "a group is not closed"),
    ({"kind": "regex", "pattern": "5", "cells": ["r1c1"]}, "not a value of a grid of 1..4"),
    ({"kind": "regex", "pattern": "1\\d", "cells": ["r1c1"]}, "is not a value"),
    ({"kind": "regex", "pattern": "1<b>", "cells": ["r1c1"]}, "'<' in a regex is not a value"),
    ({"kind": "regex", "pattern": "", "cells": ["r1c1"]}, "non-empty string"),
    ({"kind": "regex", "pattern": "1{200}", "cells": ["r1c1"]}, "a repeat past 100"),
    ({"kind": "nfa", "automaton": "!!", "cells": ["r1c1"]}, "URL-safe base64"),
    ({"kind": "nfa", "automaton": EVEN_ODDS_4[:3], "cells": ["r1c1"]}, "ends inside its data"),
    ({"kind": "nfa", "automaton": "A" * 20_001, "cells": ["r1c1"]}, "(at most 20000)"),
])
def test_bad_automata_name_the_field(data, words):
    refused(data, words)


def test_an_automaton_too_large_along_its_line_is_refused_by_name(run_cli):
    row = [f"r{r}c{c}" for r in (1, 2, 3) for c in range(1, 10)]
    with pytest.raises(BadInput, match="unfolds to more than 3000 states along 27 cells"):
        read_puzzle(json.dumps({"givens": "." * 81,
                                "rules": [{"kind": "regex", "pattern": ".*1.{15}",
                                           "cells": row}]}))
    for text, words in ((".Regex~!!~R1C1", "ISS item 1 (Regex): the pattern is neither"),
                        (f".NFA~{EVEN_ODDS_9}~R1C1~-~R1C2", "several segments ('-')")):
        r = run_cli("solve", text)
        assert r.code == 2 and words in r.err and len(r.err.strip().splitlines()) == 1


def test_an_unfolding_past_its_work_bound_is_refused_by_name(monkeypatch):
    from polydoku.rules import automaton
    monkeypatch.setattr(automaton, "MAX_WORK", 2000)
    with pytest.raises(BadInput, match="takes too long to unfold along 16 cells"):
        unfold(compile_regex("((1|2)*(3|4)*){0,9}", 1, 4), 16, 4)


def collection() -> list[dict]:
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()]
    return [d for d in rows if "Regex~" in d["input"] or "NFA~" in d["input"]]


def test_iss_collection_puzzles_with_regex_and_nfa_lines_reach_their_published_grids():
    """ISS's own collection (tests/data/iss_collection.jsonl, from ISS's repository): each of
    its regex and state-machine puzzles that polydoku reads is unique and its published grid,
    and writes back to an ISS string read as the same puzzle."""
    solved = 0
    for d in collection():
        try:
            puzzle = read_puzzle(d["input"])
        except BadInput as err:
            assert any(k in str(err) for k in ("'Var'", "'Replicate'", "global-entropy")), err
            continue
        out = api.count(puzzle, "native", limit=2, timeout=60)
        assert out.exhausted and out.count == 1, d["name"]
        assert "".join(puzzle.alphabet[v - 1] for v in out.solutions[0]) == d["solution"]
        assert parse_iss(to_iss(puzzle)).rules == puzzle.rules
        solved += 1
    assert solved >= 10


@pytest.mark.tools
def test_iss_counts_what_polydoku_counts_on_automaton_lines(tmp_path):
    from test_iss import iss
    runner = iss()
    from polydoku.rules import KINDS
    rng = random.Random(30)
    cases = [puzzle_with([KINDS[k].sample(rng, 4)]) for k in ["regex", "nfa"] * 12]
    answers = runner.count([to_iss(p) for p in cases], limit=300, cache=str(tmp_path))
    for puzzle, answer in zip(cases, answers):
        assert answer.get("solutions") == len(truth(puzzle)), (to_iss(puzzle), answer)


def test_a_regex_line_is_drawn_with_its_pattern_cut_to_fit():
    """The pattern says what a regex line means, so the picture shows it by the line's first
    cell (cut past 14 characters, whole in the tooltip). A pattern holds no markup: the reader
    takes only values and . | ( ) [ ] * + ? { } (see the bad automata above)."""
    from polydoku.render import render_svg
    cells = ["r1c1", "r1c2", "r1c3", "r2c3"]
    short = {"kind": "regex", "pattern": "[1-2]+(3|4)+", "cells": cells}
    svg = render_svg(read_puzzle(json.dumps({"size": 4, "givens": "." * 16, "rules": [short]})))
    assert svg.count(">[1-2]+(3|4)+</text>") == 1 and "<title>[1-2]+(3|4)+</title>" in svg
    long = {"kind": "regex", "pattern": "(1|2)*(3|4)(1|2|3)*", "cells": cells}
    svg = render_svg(read_puzzle(json.dumps({"size": 4, "givens": "." * 16, "rules": [long]})))
    assert "<title>(1|2)*(3|4)(1|2|3)*</title>" in svg and ">(1|2)*(3|4)(1…</text>" in svg
