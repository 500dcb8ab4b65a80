"""Line and indexing kinds with a module of their own (rules/kind/), and the modular line's
modulus: each against its statement written out again here over all 288 4x4 grids, its JSON
round trip and bad input, and published puzzles solved uniquely (sources named with each)."""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from polydoku import api
from polydoku.engines.native import random_solution
from polydoku.errors import BadInput
from polydoku.formats.jsonfmt import parse_json, puzzle_to_dict
from polydoku.model import Geometry, Puzzle
from polydoku.problem import build_problem
from polydoku.rules import KINDS, rule_from_data
from test_rule_kinds import all_grids, puzzle_with, solutions, truth

G4 = Geometry.of_size(4)
G9 = Geometry.of_size(9)


def at(grid, cell: str, n: int = 4) -> int:
    """Return the value of a cell named like r2c3 in a row-major grid."""
    r, c = (int(x) for x in cell[1:].split("c"))
    return grid[(r - 1) * n + c - 1]


def agrees(rules: list, statement) -> set:
    """Assert that the kind's statement, native search and the lowering without arithmetic
    (the generic test's path) keep exactly the 4x4 grids `statement` accepts; return them."""
    puzzle = puzzle_with(rules)
    expected = {g for g in all_grids() if statement(g)}
    assert truth(puzzle) == expected
    assert solutions(puzzle, "native") == expected
    return expected


def round_trips(data: dict, size: int = 4) -> None:
    puzzle = parse_json(json.dumps({"size": size, "givens": "." * size * size, "rules": [data]}))
    assert puzzle_to_dict(puzzle)["rules"] == [data]
    again = parse_json(json.dumps(puzzle_to_dict(puzzle)))
    assert again.rules == puzzle.rules


def refused(data: dict, words: str, size: int = 4) -> None:
    with pytest.raises(BadInput) as err:
        parse_json(json.dumps({"size": size, "givens": "." * size * size, "rules": [data]}))
    assert words in str(err.value) and str(err.value).startswith("rule 1")


def unique(size: int, givens: str, rules: list, solution: str, timeout: float = 120) -> None:
    """Assert that the puzzle has exactly one solution, the published one."""
    puzzle = parse_json(json.dumps({"size": size, "givens": givens, "rules": rules}))
    out = api.count(puzzle, limit=2, timeout=timeout)
    assert out.exhausted and out.count == 1
    assert "".join(map(str, out.solutions[0])) == solution


def lines_of(text: str, kind: str) -> list[dict]:
    """Return rules of one kind from ISS-style cell lists: `R1C1~R1C2~~R3C3~R3C4`."""
    return [{"kind": kind, "cells": part.lower().split("~")} for part in text.split("~~")]


def givens_of(pairs: str, n: int = 9) -> str:
    """Return an 81-character givens line from ISS givens `R1C1_5~R2C3_7`."""
    grid = ["."] * n * n
    for item in pairs.split("~"):
        cell, value = item.split("_")
        grid[(int(cell[1]) - 1) * n + int(cell[3]) - 1] = value
    return "".join(grid)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["modular", "nabner", "value-indexing", "hidden-skyscraper",
                        "full-rank"]), st.integers(0, 10 ** 9))
def test_random_instances_agree_with_brute_force(kind, seed):
    data = KINDS[kind].sample(random.Random(seed), 4)
    puzzle = puzzle_with([data])
    assert solutions(puzzle, "native") == truth(puzzle)


# ---- modular lines with any modulus (ISS `Modular~M~cells`)

def test_modular_with_a_modulus_keeps_any_m_consecutive_cells_apart_modulo_m():
    line = ["r1c1", "r2c2", "r3c1", "r4c2", "r3c3"]

    def statement(grid):
        vals = [at(grid, c) for c in line]
        return all(vals[i] % 3 != vals[j] % 3 for i in range(5) for j in range(i + 1, min(5, i + 3)))
    found = agrees([{"kind": "modular", "cells": line, "modulus": 3}], statement)
    assert found and len(found) < 288
    # a line shorter than the modulus: all its values differ modulo it (as ISS reads it)
    short = ["r1c1", "r2c2"]
    agrees([{"kind": "modular", "cells": short, "modulus": 3}],
           lambda g: at(g, "r1c1") % 3 != at(g, "r2c2") % 3)


def test_modular_default_is_three_and_is_not_written():
    rule = rule_from_data({"kind": "modular", "cells": ["r1c1", "r1c2", "r1c3"]}, G9)
    assert rule.modulus == 3 and "modulus" not in rule.to_data()
    round_trips({"kind": "modular", "cells": ["r1c1", "r1c2", "r2c3"], "modulus": 4})
    refused({"kind": "modular", "cells": ["r1c1", "r1c2"], "modulus": 5}, "field \"modulus\"")
    refused({"kind": "modular", "cells": ["r1c1", "r1c2"], "modulus": 1}, "field \"modulus\"")


def test_modular_reads_iss_and_takes_two_as_a_parity_line():
    cell = str.lower
    assert KINDS["modular"].read_iss(["4", "R1C1", "R1C2"], cell) == {
        "kind": "modular", "cells": ["r1c1", "r1c2"], "modulus": 4}
    assert KINDS["modular"].read_iss(["3", "R1C1", "R1C2"], cell) == {
        "kind": "modular", "cells": ["r1c1", "r1c2"]}
    assert KINDS["modular"].read_iss(["2", "R1C1", "R1C2"], cell)["kind"] == "parity"
    rule = rule_from_data({"kind": "modular", "cells": ["r1c1", "r1c2"], "modulus": 5}, G9)
    assert rule.write_iss(9, lambda c: f"R{c[0] + 1}C{c[1] + 1}") == ["5", "R1C1", "R1C2"]


def test_modular_logic_with_four_classes():
    rule = rule_from_data({"kind": "modular", "cells": ["r1c1", "r1c2", "r1c3", "r1c4", "r1c5"],
                           "modulus": 4}, G9)
    full = (1 << 9) - 1
    cands = [full] * 81
    cands[0] = 1 << 3          # r1c1 = 4: 0 mod 4, so r1c5 (four on) is 4 or 8
    drop, reason = rule.deduce(G9, cands)
    assert full & ~drop[4] == (1 << 3) | (1 << 7)
    assert "any four cells in a row" in reason and "0 mod 4" in reason


def test_modular_four_lines_of_a_published_puzzle_hold_in_its_solution():
    # "Ahhhh, look at the pretty colors", logic-masters.de id 000GCP (ISS collection):
    # its Modular~4 lines, and its Modular~3 lines as polydoku's default modulus
    solution = [int(c) for c in "143529786629784153785136294516378942892451367374962815"
                                "951243678438697521267815439"]
    for text, modulus in (("R1C8~R1C9~R2C9~~R7C6~R7C7~R6C7~~R7C2~R8C2~R8C3", 4),
                          ("R8C1~R9C1~R9C2~~R2C7~R2C8~R3C8~~R3C4~R3C3~R4C3", 3)):
        for data in lines_of(text, "modular"):
            rule = rule_from_data(dict(data, modulus=modulus), G9)
            assert not list(rule.violations(solution, G9))
            wrong = list(solution)
            first = G9.index(rule.cells[0])
            wrong[first] = solution[G9.index(rule.cells[1])]
            assert list(rule.violations(wrong, G9))


# ---- nabner lines

def test_nabner_values_differ_by_two_or_more_along_the_whole_line():
    line = ["r1c1", "r3c3"]              # not in one house: equal values are the rule's to refuse

    def statement(grid):
        return abs(at(grid, "r1c1") - at(grid, "r3c3")) > 1
    found = agrees([{"kind": "nabner", "cells": line}], statement)
    assert found and len(found) < 288
    round_trips({"kind": "nabner", "cells": ["r1c1", "r1c3"]})
    refused({"kind": "nabner", "cells": ["r1c1", "r1c2", "r1c3"]}, "at most 2 cells")
    refused({"kind": "nabner", "cells": ["r1c1"]}, "field \"cells\"")


def test_nabner_logic_clears_the_neighbours_of_a_placed_value():
    rule = rule_from_data({"kind": "nabner", "cells": ["r1c1", "r5c5", "r9c9"]}, G9)
    cands = [(1 << 9) - 1] * 81
    cands[0] = 1 << 4                       # r1c1 = 5
    drop, reason = rule.deduce(G9, cands)
    assert drop[40] == drop[80] == 0b111 << 3
    assert "consecutive" in reason


@pytest.mark.slow
def test_a_published_nabner_puzzle_has_one_solution():
    # "Nabner", https://sudokupad.app/fpmB4ppfMp (ISS collection: its lines written as
    # BinaryX with the relation |a - b| >= 2 between every two cells of a line)
    lines = ("R1C3~R1C2~R2C2~~R1C5~R1C4~R2C4~R3C4~~R1C6~R1C7~R1C8~R2C8~~R2C5~R3C5~R4C5~R4C6~~"
             "R2C6~R3C6~R3C7~R4C7~~R3C3~R4C4~R5C5~R6C4~~R4C1~R4C2~R4C3~~R5C1~R5C2~R5C3~R5C4~~"
             "R6C2~R6C3~R7C4~R8C3~~R6C1~R7C1~R7C2~R7C3~~R9C2~R9C3~R9C4~R8C4~~"
             "R7C5~R8C5~R9C5~R9C6~~R8C7~R9C7~R9C8~R8C9~~R8C6~R7C6~R6C7~R6C8~~"
             "R5C9~R5C8~R5C7~R6C6~~R4C8~R4C9~~R2C7~R3C8~R3C9~R2C9")
    rules = lines_of(lines, "nabner") + [{"kind": "kropki-white", "cells": ["r4c6", "r4c7"]},
                                         {"kind": "kropki-black", "cells": ["r5c8", "r6c8"]}]
    unique(9, givens_of("R6C9_9"), rules,
           "385961472726453891941278653538692147194735268672814539813549726469127385257386914")


# ---- value-indexing lines (ISS `ValueIndexing`)

def test_value_indexing_points_from_the_second_cell_to_a_copy_of_the_first():
    line = ["r1c1", "r2c2", "r2c3", "r3c4", "r4c3"]

    def statement(grid):
        vals = [at(grid, c) for c in line]
        k = vals[1]
        return k <= 3 and vals[1 + k] == vals[0]
    found = agrees([{"kind": "value-indexing", "cells": line}], statement)
    assert found and len(found) < 288
    round_trips({"kind": "value-indexing", "cells": ["r1c1", "r1c2", "r2c3"]})
    refused({"kind": "value-indexing", "cells": ["r1c1", "r1c2"]}, "field \"cells\"")


def test_value_indexing_logic_and_iss_arguments():
    rule = rule_from_data({"kind": "value-indexing",
                           "cells": ["r1c1", "r2c1", "r3c2", "r4c3"]}, G9)
    cands = [(1 << 9) - 1] * 81
    cands[0] = 1 << 6                                     # r1c1 = 7
    cands[G9.index((2, 1))] &= ~(1 << 6)                  # r3c2 cannot be 7
    drop, _ = rule.deduce(G9, cands)
    assert (1 << 9) - 1 & ~drop[9] == 1 << 1              # so r2c1 = 2: r4c3 ...
    assert (1 << 9) - 1 & ~drop[G9.index((3, 2))] == 1 << 6   # ... holds the 7
    assert KINDS["value-indexing"].read_iss(["R1C1", "R2C1", "R3C2"], str.lower) == {
        "kind": "value-indexing", "cells": ["r1c1", "r2c1", "r3c2"]}


def test_a_published_value_indexing_puzzle_has_one_solution():
    # "Slingshot sudoku" by Logic Wiz,
    # https://www.reddit.com/r/sudoku/comments/ueeocq/ (ISS example puzzles)
    lines = ("R1C4~R2C4~R2C3~R2C2~R2C1~~R1C6~R2C6~R2C7~R2C8~R2C9~~"
             "R6C9~R7C9~R7C8~R7C7~R7C6~R7C5~R7C4~R7C3~R7C2~R7C1~~R5C7~R5C8~R6C8~R7C8~R8C8~R9C8~~"
             "R4C7~R4C6~R5C6~R6C6~R7C6~R8C6~R9C6~~R4C3~R4C4~R5C4~R6C4~R7C4~R8C4~R9C4~~"
             "R5C3~R5C2~R6C2~R7C2~R8C2~R9C2~~R6C1~R7C1~R7C2~R7C3~R7C4~R7C5~R7C6~R7C7~R7C8~R7C9")
    marks = [("R7C8~R7C9", 5), ("R7C1~R7C2", 5), ("R4C5~R5C5", 5), ("R5C5~R6C5", 10),
             ("R4C6~R5C6", 10), ("R4C4~R5C4", 10), ("R2C5~R3C5", 10), ("R1C6~R1C7", 10),
             ("R1C9~R1C8", 10), ("R1C4~R1C3", 10), ("R1C2~R1C1", 10)]
    rules = lines_of(lines, "value-indexing") + [
        {"kind": "xv", "cells": pair.lower().split("~"), "sum": total} for pair, total in marks]
    givens = givens_of("R2C4_3~R2C2_5~R3C3_6~R4C3_9~R6C3_1~R8C2_8~R9C1_2~R9C9_8~R8C8_1~R6C7_3~"
                       "R4C7_2~R3C7_8~R2C8_2~R2C6_1")
    unique(9, givens, rules,
           "372859164854361927916247853769134285538926741421785396147598632683472519295613478")


NEW_KINDS = ["modular", "nabner", "value-indexing", "hidden-skyscraper"]   # with logic


@lru_cache(maxsize=8)
def grid_of(seed: int) -> tuple[int, ...]:
    """Return a random full 9x9 grid."""
    problem = build_problem(Puzzle.empty(9))
    return problem.grid(random_solution(problem, random.Random(seed)))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(NEW_KINDS), st.integers(0, 7), st.integers(0, 10 ** 6),
       st.floats(0.1, 0.9))
def test_the_kinds_logic_never_removes_a_true_value(kind, seed, draw, keep):
    grid = grid_of(seed)
    rng = random.Random(draw)
    for _ in range(200):                 # a rule of the kind that the solution grid obeys
        rule = rule_from_data(KINDS[kind].sample(rng, 9), G9)
        if not list(rule.violations(grid, G9)):
            break
    else:
        return
    cands = [(1 << (v - 1)) | sum(1 << k for k in range(9) if rng.random() < keep) for v in grid]
    found = rule.deduce(G9, cands)
    if found is None:
        return
    drop, reason = found
    for i, mask in drop.items():
        assert not mask >> (grid[i] - 1) & 1, (rule.to_data(), reason, i)
        assert not mask & ~cands[i]
    assert "\n" not in reason


# ---- hidden skyscrapers (ISS `HiddenSkyscraper`)

def test_hidden_skyscraper_is_the_first_value_lower_than_one_before_it():
    def statement(grid):
        vals = [at(grid, f"r{r}c2") for r in (4, 3, 2, 1)]        # column 2 from below
        top = 0
        for v in vals:
            if v < top:
                return v == 2
            top = v
        return False
    found = agrees([{"kind": "hidden-skyscraper", "side": "bottom", "index": 2, "value": 2}],
                   statement)
    assert found and len(found) < 288
    round_trips({"kind": "hidden-skyscraper", "side": "left", "index": 3, "value": 1})
    refused({"kind": "hidden-skyscraper", "side": "left", "index": 3, "value": 5},
            "field \"value\"")
    # nothing hides the highest value: a clue of it is read (ISS takes it) and never holds
    assert not agrees([{"kind": "hidden-skyscraper", "side": "top", "index": 1, "value": 4}],
                      lambda grid: False)


def test_hidden_skyscraper_logic_keeps_the_clue_out_of_the_first_cell_and_past_the_end():
    rule = rule_from_data({"kind": "hidden-skyscraper", "side": "left", "index": 1,
                           "value": 3}, G9)
    full = (1 << 9) - 1
    cands = [full] * 81
    cands[1] = 1 << 8                      # r1c2 = 9: the 3 is hidden at once after it
    drop, reason = rule.deduce(G9, cands)
    assert drop[0] & 1 << 2                # r1c1 is seen: never the 3
    assert full & ~drop[2] == 1 << 2       # r1c3, behind the 9, is the first hidden: 3
    assert all(drop[k] == 1 << 2 for k in range(3, 9))
    assert "first hidden skyscraper" in reason


def test_a_published_hidden_skyscraper_puzzle_has_one_solution():
    # "Hidden skyscrapers", https://www.youtube.com/watch?v=f1QKEzZpKL8 (ISS collection):
    # clues from the left and the right of each row, from above and below each column
    clues = {"R8": (7, 4), "R9": (5, 3), "C9": (7, 5), "C8": (8, 5), "C7": (6, 1),
             "C6": (5, 3), "C5": (4, 5), "C4": (5, 5), "C3": (1, 6), "C2": (6, 8),
             "C1": (7, 5), "R7": (1, 2), "R6": (2, 3), "R5": (8, 2), "R4": (3, 6),
             "R3": (5, 1), "R2": (4, 7), "R1": (3, 5)}
    rules = [{"kind": "hidden-skyscraper", "side": side, "index": int(line[1:]), "value": v}
             for line, pair in clues.items()
             for side, v in zip(("left", "right") if line[0] == "R" else ("top", "bottom"),
                                pair)]
    unique(9, "." * 81, rules,
           "638417592941625783752938614173592468569841327824763951416389275387256149295174836")


# ---- full rank (ISS `FullRank`)

def test_full_rank_ranks_a_reading_among_all_rows_and_columns_read_both_ways():
    def statement(grid):
        rows = [[at(grid, f"r{r}c{c}") for c in range(1, 5)] for r in range(1, 5)]
        cols = [[at(grid, f"r{r}c{c}") for r in range(1, 5)] for c in range(1, 5)]
        every = [x for line in rows + cols for x in (line, line[::-1])]
        mine = cols[2][::-1]                                       # column 3 from below
        return every.count(mine) == 1 and 1 + sum(o < mine for o in every) == 7
    found = agrees([{"kind": "full-rank", "side": "bottom", "index": 3, "rank": 7}], statement)
    assert found and len(found) < 288
    round_trips({"kind": "full-rank", "side": "right", "index": 2, "rank": 16})
    refused({"kind": "full-rank", "side": "right", "index": 2, "rank": 17}, "field \"rank\"")


def test_a_published_full_rank_puzzle_has_one_solution():
    # "6x6: Full rank" (ISS collection, from the Discord server of Cracking the Cryptic,
    # channel 709373384437268530, message 1249572584211611688): ISS `.FullRank~C2~9~`,
    # `.FullRank~C3~1~`, `.FullRank~R6~24~`
    rules = [{"kind": "full-rank", "side": "top", "index": 2, "rank": 9},
             {"kind": "full-rank", "side": "top", "index": 3, "rank": 1},
             {"kind": "full-rank", "side": "left", "index": 6, "rank": 24}]
    unique(6, "." * 36, rules, "531246426315342561165432214653653124")


def test_iss_strings_of_the_kinds_read_and_write_back():
    from polydoku.formats.iss import parse_iss, to_iss
    text = (".HiddenSkyscraper~R8~7~4.HiddenSkyscraper~R9~5~3.HiddenSkyscraper~C9~7~5"
            ".HiddenSkyscraper~C8~8~5.HiddenSkyscraper~C7~6~1.HiddenSkyscraper~C6~5~3"
            ".HiddenSkyscraper~C5~4~5.HiddenSkyscraper~C4~5~5.HiddenSkyscraper~C3~1~6"
            ".HiddenSkyscraper~C2~6~8.HiddenSkyscraper~C1~7~5.HiddenSkyscraper~R7~1~2"
            ".HiddenSkyscraper~R6~2~3.HiddenSkyscraper~R5~8~2.HiddenSkyscraper~R4~3~6"
            ".HiddenSkyscraper~R3~5~1.HiddenSkyscraper~R2~4~7.HiddenSkyscraper~R1~3~5")
    puzzle = parse_iss(text)
    assert len(puzzle.rules) == 36 and {r.kind for r in puzzle.rules} == {"hidden-skyscraper"}
    out = api.count(puzzle, limit=2, timeout=60)
    assert out.count == 1
    assert parse_iss(to_iss(puzzle)).rules == puzzle.rules
    six = parse_iss(".Shape~6x6.FullRank~C2~9~.FullRank~C3~1~.FullRank~R6~24~.ValueIndexing"
                    "~R1C1~R2C2~R3C3.Modular~4~R1C1~R1C2")
    assert [r.kind for r in six.rules] == ["full-rank", "full-rank", "full-rank",
                                          "value-indexing", "modular"]
    assert parse_iss(to_iss(six)).rules == six.rules


# ---- pairwise relations (ISS `Pair`, `PairX`, `Binary`, `BinaryX`)

def test_pairwise_relates_neighbours_along_the_line_or_every_two_cells():
    line = ["r1c1", "r2c2", "r2c3"]
    pairs = [[1, 3], [3, 1], [2, 4], [4, 2], [1, 2], [2, 3]]

    def along(grid):
        vals = [at(grid, c) for c in line]
        return all([a, b] in pairs for a, b in zip(vals, vals[1:]))

    def every(grid):
        vals = [at(grid, c) for c in line]
        return all([vals[i], vals[j]] in symmetric for i in range(3) for j in range(i + 1, 3))
    found = agrees([{"kind": "pairwise", "cells": line, "pairs": pairs}], along)
    assert found and len(found) < 288
    symmetric = [[1, 3], [3, 1], [2, 4], [4, 2], [1, 4], [4, 1], [3, 4], [4, 3]]
    assert agrees([{"kind": "pairwise", "cells": line, "pairs": symmetric, "all_pairs": True}],
                  every)
    round_trips({"kind": "pairwise", "cells": ["r1c1", "r1c2"], "pairs": [[1, 2], [3, 4]]})
    round_trips({"kind": "pairwise", "cells": ["r1c1", "r1c2"], "pairs": [[1, 2], [2, 1]],
                 "all_pairs": True})
    refused({"kind": "pairwise", "cells": ["r1c1", "r1c2"], "pairs": [[1, 5]]}, "item 1")
    refused({"kind": "pairwise", "cells": ["r1c1", "r1c2"], "pairs": [[1, 2]],
             "all_pairs": True}, "symmetric")
    refused({"kind": "pairwise", "cells": ["r1c1", "r1c2"], "pairs": []}, "field \"pairs\"")


@given(st.integers(4, 16), st.sets(st.tuples(st.integers(1, 16), st.integers(1, 16)),
                                   min_size=1, max_size=60))
def test_iss_relation_keys_read_back_the_pairs_they_write(n, pairs):
    from polydoku.rules.kind.pairwise import key_pairs, pairs_key
    pairs = {(a, b) for a, b in pairs if a <= n and b <= n}
    assert key_pairs(pairs_key(pairs, n), n) == pairs


def test_iss_relation_keys_as_iss_writes_them():
    from polydoku.formats.iss import parse_iss, to_iss
    from polydoku.rules.kind.pairwise import key_pairs
    # ISS's key of "a and b in ratio 1:3" and its nabner key (older spelling: - and _ swapped)
    assert key_pairs("EAEBEAAQAAAAE", 9) == {(1, 3), (3, 1), (2, 6), (6, 2), (3, 9), (9, 3)}
    nabner = parse_iss(".BinaryX~8H-xf8H-xf8H-B~~R1C1~R1C3~~R5C5~R7C7")
    assert [r.to_data() for r in nabner.rules] == [
        {"kind": "nabner", "cells": ["r1c1", "r1c3"]}, {"kind": "nabner", "cells": ["r5c5", "r7c7"]}]
    assert parse_iss(to_iss(nabner)).rules == nabner.rules
    pair = parse_iss(".Pair~EAEBEAAQAAAAE~_1%3A3~R2C6~R3C6")
    assert pair.rules[0].to_data()["pairs"] == [[1, 3], [2, 6], [3, 1], [3, 9], [6, 2], [9, 3]]
    assert parse_iss(to_iss(pair)).rules == pair.rules


def test_pairwise_logic_keeps_values_with_a_partner():
    rule = rule_from_data({"kind": "pairwise", "cells": ["r1c1", "r1c2", "r1c3"],
                           "pairs": [[1, 3], [3, 5], [5, 7]]}, G9)
    cands = [(1 << 9) - 1] * 81
    drop, reason = rule.deduce(G9, cands)
    left = [[v + 1 for v in range(9) if (cands[i] & ~drop[i]) >> v & 1] for i in range(3)]
    assert left == [[1, 3], [3, 5], [5, 7]]
    assert "pairwise line" in reason


@pytest.mark.slow
def test_a_published_pairwise_puzzle_has_one_solution():
    # "Odd/Even Thermo Sudoku" (ISS collection, from logic-masters.de): its thermometers are
    # pairwise lines "smaller, same parity"; read from ISS's own string
    from conftest import ROOT
    from polydoku.formats.iss import parse_iss
    collection = (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()
    text = next(json.loads(line)["input"] for line in collection if "Odd/Even Thermo" in line)
    out = api.count(parse_iss(text), limit=2, timeout=120)
    assert out.exhausted and out.count == 1
    assert "".join(map(str, out.solutions[0])) == (
        "613798524298145736457362198971853642384621975562479813139286457726514389845937261")
