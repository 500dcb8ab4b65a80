"""The cell, dot and whole-grid kinds of rules/kind/: difference, ratio, either-X-or-V and grey
dots, candidate givens, global entropy and global modular. Each is checked against brute force
over all 288 4x4 grids with a statement written out here (independent of the kind's own
`violations`), round-trips through JSON, refuses bad input by field, and where a published
puzzle uses it, that puzzle is solved uniquely to its published solution."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import need_engine
from test_rule_kinds import all_grids, puzzle_with, solutions
from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.fpuzzles import convert, to_fpuzzles
from polydoku.formats.iss import parse_iss, to_iss
from polydoku.formats.jsonfmt import parse_json, puzzle_from_dict, puzzle_to_dict
from polydoku.model import Puzzle
from polydoku.rules import parse_rules, rule_from_data
from polydoku.verify import is_solution

N = 4


def at(grid, cell: str) -> int:
    """Return a 4x4 grid's value at a cell name like r2c3."""
    r, c = (int(x) for x in cell[1:].split("c"))
    return grid[(r - 1) * N + c - 1]


def squares(n: int = N):
    """Return the 2x2 squares of an n x n grid (top-left corners at every cell but the last
    row and column) as cell indices."""
    return [(r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
            for r in range(n - 1) for c in range(n - 1)]


def check(rules: list, holds, engines=("native",)) -> set:
    """Assert that each engine finds exactly the 4x4 grids `holds` accepts; return them."""
    puzzle = puzzle_with(rules)
    expected = {g for g in all_grids() if holds(g)}
    assert {g for g in all_grids() if is_solution(puzzle, g)} == expected, rules
    for engine in engines:
        need_engine(engine)
        assert solutions(puzzle, engine) == expected, (engine, rules)
    return expected


PAIR = ["r2c2", "r2c3"]
FAMILIES = ("native", "sat")    # every family: test_rule_kinds.py, through `sample`


# ---- fixed instances against brute force -------------------------------------------------

def test_difference_dot_keeps_the_grids_whose_pair_differs_by_its_number():
    found = check([{"kind": "difference-dot", "cells": PAIR, "difference": 2}],
                  lambda g: abs(at(g, "r2c2") - at(g, "r2c3")) == 2, FAMILIES)
    assert 0 < len(found) < 288


def test_ratio_dot_keeps_the_grids_whose_pair_is_in_its_ratio():
    found = check([{"kind": "ratio-dot", "cells": PAIR, "ratio": 3}],
                  lambda g: {at(g, "r2c2"), at(g, "r2c3")} == {1, 3}, FAMILIES)
    assert 0 < len(found) < 288


def test_either_xv_keeps_the_grids_whose_pair_adds_up_to_five_or_ten():
    # on a 4x4 no pair adds up to 10, so five it is: {1, 4} or {2, 3}
    found = check([{"kind": "either-xv", "cells": PAIR}],
                  lambda g: at(g, "r2c2") + at(g, "r2c3") in (5, 10), FAMILIES)
    assert 0 < len(found) < 288


def test_grey_dot_keeps_the_grids_whose_pair_is_consecutive_or_doubled():
    def holds(g) -> bool:
        a, b = at(g, "r2c2"), at(g, "r2c3")
        return abs(a - b) == 1 or a == 2 * b or b == 2 * a
    found = check([{"kind": "grey-dot", "cells": PAIR}], holds, FAMILIES)
    assert 0 < len(found) < 288
    white = check([{"kind": "kropki-white", "cells": PAIR}],
                  lambda g: abs(at(g, "r2c2") - at(g, "r2c3")) == 1)
    black = check([{"kind": "kropki-black", "cells": PAIR}],
                  lambda g: {at(g, "r2c2"), at(g, "r2c3")} in ({1, 2}, {2, 4}))
    assert found == white | black


def test_candidates_keep_the_grids_whose_cells_hold_listed_values():
    rule = {"kind": "candidates", "cells": ["r1c1", "r3c4"], "values": [2, 4]}
    found = check([rule], lambda g: at(g, "r1c1") in (2, 4) and at(g, "r3c4") in (2, 4),
                  FAMILIES)
    assert 0 < len(found) < 288


def test_global_modular_keeps_the_grids_whose_squares_hold_every_remainder():
    def holds(g) -> bool:
        return all({g[i] % 3 for i in sq} == {0, 1, 2} for sq in squares())
    # 4x4 classes {1, 4}, {2}, {3}: no grid has a 2 and a 3 in every square
    assert not check(["global-modular"], holds, FAMILIES)


def test_global_entropy_on_a_four_by_four_takes_the_thirds_formula():
    # (v-1)*3 div 4: 1 and 2 are low, 3 middle, 4 high
    def holds(g) -> bool:
        return all({(g[i] - 1) * 3 // N for i in sq} == {0, 1, 2} for sq in squares())
    assert not check(["global-entropy"], holds, FAMILIES)


def test_product_dot_keeps_the_grids_whose_pair_multiplies_to_its_number():
    found = check([{"kind": "product-dot", "cells": PAIR, "product": 4}],
                  lambda g: at(g, "r2c2") * at(g, "r2c3") == 4, FAMILIES)
    assert 0 < len(found) < 288


def test_dutch_flatmates_keeps_the_grids_whose_middle_values_have_a_flatmate():
    # on a 4x4 the middle value is 2 (N/2 rounded up, as ISS's solver takes it)
    def holds(g) -> bool:
        for i, v in enumerate(g):
            if v == 2 and not ((i >= N and g[i - N] == 1) or (i + N < N * N and g[i + N] == N)):
                return False
        return True
    found = check(["dutch-flatmates"], holds, FAMILIES)
    assert 0 < len(found) < 288


def knight_pairs(n: int = N):
    """Return every pair of cell indices a knight's move apart."""
    return [(a, b) for a in range(n * n) for b in range(a + 1, n * n)
            if sorted((abs(a // n - b // n), abs(a % n - b % n))) == [1, 2]]


@pytest.mark.parametrize("rule, sums", [("knightmare", (5, 15)),
                                        ({"kind": "knightmare", "sums": [4, 6]}, (4, 6))])
def test_knightmare_keeps_the_grids_with_no_knight_pair_adding_up_to_a_sum(rule, sums):
    found = check([rule], lambda g: all(g[a] + g[b] not in sums for a, b in knight_pairs()),
                  FAMILIES)
    assert 0 < len(found) < 288


def test_diagonal_non_consecutive_keeps_the_grids_with_no_consecutive_corner_pair():
    corners = [(a, b) for a, b in diagonal_pairs() if abs(a // N - b // N) == 1]
    found = check(["diagonal-non-consecutive"],
                  lambda g: all(abs(g[a] - g[b]) != 1 for a, b in corners), FAMILIES)
    assert 0 < len(found) < 288


def diagonal_pairs(n: int = N):
    """Return every pair of cell indices on one diagonal (a bishop's move apart)."""
    return [(a, b) for a in range(n * n) for b in range(a + 1, n * n)
            if abs(a // n - b // n) == abs(a % n - b % n)]


@pytest.mark.parametrize("values", [[4], [1, 2], [2, 4]])
def test_anti_queen_keeps_the_grids_with_no_listed_value_twice_on_a_diagonal(values):
    def holds(g) -> bool:
        return not any(g[a] == g[b] and g[a] in values for a, b in diagonal_pairs())
    found = check([{"kind": "anti-queen", "values": values}], holds, FAMILIES)
    assert 0 < len(found) < 288


def test_anti_queen_for_every_value_leaves_no_four_by_four():
    # the two 4-queens placements are each other's mirror: two values at most fit, not four
    assert not check(["anti-queen"], lambda g: not any(g[a] == g[b] for a, b in diagonal_pairs()),
                     FAMILIES)
    g = Puzzle.empty(N).geometry
    assert rule_from_data({"kind": "anti-queen", "values": [3, 1, 2, 4]}, g) == parse_rules(
        "anti-queen")[0]


def six_by_six(first: list[int], value_class) -> set[tuple[int, ...]]:
    """Return by backtracking every 6x6 grid (2x3 boxes) whose first row is `first` and whose
    2x2 squares each hold values of three classes (`value_class`)."""
    n = 6
    grid = list(first) + [0] * (n * n - n)
    out: set[tuple[int, ...]] = set()

    def free(i: int, v: int) -> bool:
        r, c = divmod(i, n)
        box = [(rr, cc) for rr in range(r // 2 * 2, r // 2 * 2 + 2)
               for cc in range(c // 3 * 3, c // 3 * 3 + 3)]
        return all(grid[r * n + j] != v and grid[j * n + c] != v for j in range(n)) and \
            all(grid[rr * n + cc] != v for rr, cc in box)

    def square_holds(i: int) -> bool:
        r, c = divmod(i, n)
        return c == 0 or len({value_class(grid[k]) for k in (i - n - 1, i - n, i - 1, i)}) == 3

    def fill(i: int) -> None:
        if i == n * n:
            out.add(tuple(grid))
            return
        for v in range(1, n + 1):
            if free(i, v):
                grid[i] = v
                if square_holds(i):
                    fill(i + 1)
                grid[i] = 0

    fill(n)
    return out


@settings(max_examples=5, deadline=None)
@given(st.sampled_from(["global-modular", "global-entropy"]), st.permutations(range(1, 7)))
def test_global_squares_on_a_six_by_six_agree_with_backtracking(kind, first):
    value_class = (lambda v: v % 3) if kind == "global-modular" else (lambda v: (v - 1) // 2)
    expected = six_by_six(list(first), value_class)
    puzzle = parse_json(json.dumps({"size": 6, "givens": "".join(map(str, first)) + "." * 30,
                                    "rules": [kind]}))
    for engine in ("native", "sat"):
        out = api.count(puzzle, engine, limit=1000, timeout=60)
        assert out.exhausted and set(out.solutions) == expected, engine


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["difference-dot", "ratio-dot"]), st.integers(1, 4),
       st.integers(0, 2), st.integers(0, 2), st.booleans())
def test_valued_dots_agree_with_brute_force_anywhere(kind, value, r, c, across):
    value = min(value, 3) if kind == "difference-dot" else max(value, 2)
    a, b = (r, c), (r, c + 1) if across else (r + 1, c)
    names = [f"r{x + 1}c{y + 1}" for x, y in (a, b)]
    field = "difference" if kind == "difference-dot" else "ratio"

    def holds(g) -> bool:
        x, y = g[a[0] * N + a[1]], g[b[0] * N + b[1]]
        return abs(x - y) == value if field == "difference" else value in (x / y, y / x)
    check([{"kind": kind, "cells": names, field: value}], holds)


# ---- data, names and bad input ------------------------------------------------------------

EXAMPLES = [
    {"kind": "difference-dot", "cells": ["r1c1", "r1c2"], "difference": 3},
    {"kind": "ratio-dot", "cells": ["r1c1", "r2c1"], "ratio": 4},
    {"kind": "either-xv", "cells": ["r4c4", "r4c5"]},
    {"kind": "grey-dot", "cells": ["r5c5", "r6c5"]},
    {"kind": "candidates", "cells": ["r1c1", "r9c9"], "values": [1, 5, 9]},
    "global-entropy", "global-modular", "anti-queen",
    {"kind": "anti-queen", "values": [8, 9]},
    {"kind": "product-dot", "cells": ["r3c3", "r3c4"], "product": 12}, "dutch-flatmates",
    "knightmare", {"kind": "knightmare", "sums": [10]}, "diagonal-non-consecutive",
]


@pytest.mark.parametrize("data", EXAMPLES, ids=lambda d: d if isinstance(d, str) else d["kind"])
def test_each_kind_round_trips_through_json(data):
    puzzle = parse_json(json.dumps({"givens": "." * 81, "rules": [data]}))
    assert puzzle.rules[0].to_data() == data
    assert parse_json(json.dumps(puzzle_to_dict(puzzle))).rules == puzzle.rules


@pytest.mark.parametrize("data, words", [
    ({"kind": "difference-dot", "cells": ["r1c1", "r1c2"]}, "field \"difference\" is missing"),
    ({"kind": "difference-dot", "cells": ["r1c1", "r1c2"], "difference": 9}, "outside 1..8"),
    ({"kind": "difference-dot", "cells": ["r1c1", "r2c2"], "difference": 2}, "do not share a side"),
    ({"kind": "ratio-dot", "cells": ["r1c1", "r1c2"], "ratio": 1}, "outside 2..9"),
    ({"kind": "ratio-dot", "cells": ["r1c1", "r1c2"], "ratio": "two"}, "must be an integer"),
    ({"kind": "either-xv", "cells": ["r1c1", "r1c3"]}, "do not share a side"),
    ({"kind": "grey-dot", "cells": ["r1c1"]}, "has 1 cells, expected 2..2"),
    ({"kind": "candidates", "cells": ["r1c1"], "values": []}, "field \"values\""),
    ({"kind": "candidates", "cells": ["r1c1"], "values": [1, 10]}, "outside 1..9"),
    ({"kind": "candidates", "cells": ["r1c1"], "values": [2, 2]}, "twice"),
    ({"kind": "candidates", "cells": ["r0c1"], "values": [2]}, "field \"cells\""),
    ({"kind": "anti-queen", "values": [0]}, "outside 1..9"),
    ({"kind": "product-dot", "cells": ["r1c1", "r1c2"], "product": 73}, "outside 2..72"),
    ({"kind": "knightmare", "sums": [18]}, "outside 3..17"),
    ({"kind": "knightmare", "sums": [5, 5]}, "twice"),
    ({"kind": "anti-queen", "values": "9"}, "field \"values\" must be a list"),
])
def test_bad_input_names_the_rule_and_the_field(data, words):
    with pytest.raises(BadInput) as err:
        parse_json(json.dumps({"givens": "." * 81, "rules": [data]}))
    assert str(err.value).startswith(f"rule 1 ({data['kind']})")
    assert words in str(err.value)


def test_global_kinds_come_from_the_rules_option(run_cli):
    assert [r.kind for r in parse_rules("global-entropy, global-mod")] == [
        "global-entropy", "global-modular"]
    with pytest.raises(BadInput, match="needs parameters"):
        parse_rules("grey-dot")
    result = run_cli("solve", ENTROPY_GIVENS, "--rules", "global-entropy")
    assert result.code == 0, result.err
    assert ENTROPY_SOLUTION in result.out.replace("\n", "").replace(" ", "")


def test_violations_name_the_cells_and_the_rule():
    g = Puzzle.empty(N).geometry
    grid = [1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1]
    dot = rule_from_data({"kind": "difference-dot", "cells": ["r1c1", "r1c2"], "difference": 2}, g)
    assert list(dot.violations(grid, g)) == [
        "r1c1=1 and r1c2=2 do not differ by 2 (difference-dot)"]
    cand = rule_from_data({"kind": "candidates", "cells": ["r1c3"], "values": [1, 2]}, g)
    assert list(cand.violations(grid, g)) == ["r1c3=3 is not one of 1 or 2 (candidates)"]
    mod = parse_rules("global-modular")[0]
    broken = list(mod.violations(grid, g))
    assert broken and all("2x2 square at r" in s and "(global-modular)" in s for s in broken)


# ---- published puzzles ---------------------------------------------------------------------

# "Entropy Sudoku", https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?id=0008G7, as
# the Interactive Sudoku Solver's examples write it (js data/example_puzzles.js: givens and
# GlobalEntropy), with its solution there
ENTROPY_GIVENS = ("8.......7" "........." "...9.5..." "..56.89.." "........." "..61.94.."
                  "...7.3..." "........." "2.......4")
ENTROPY_ISS = (".~R1C1_8~R1C9_7~R3C4_9~R3C6_5~R4C6_8~R4C4_6~R4C3_5~R6C3_6~R6C4_1~R7C4_7~R7C6_3"
               "~R6C6_9~R6C7_4~R4C7_9~R9C9_4~R9C1_2.GlobalEntropy")
ENTROPY_SOLUTION = ("891234567534867291672915348315648972948372615726159483"
                    "459783126183426759267591834")
# "Global mod 3", https://sudokupad.app/l74hg3flzp, from the same examples
GLOBAL_MOD = (".Cage~15~R1C1~R1C2.Cage~6~R1C4~R2C4.Cage~7~R3C1~R4C1.Cage~12~R8C6~R9C6"
              ".Cage~8~R8C7~R8C8.X~R1C7~R2C7.X~R5C4~R6C4.X~R5C5~R6C5.X~R8C3~R9C3.V~R4C4~R4C5"
              ".V~R5C7~R6C7")
GLOBAL_MOD_SOLUTION = ("879162354621543798435987216387419562196235487254876139"
                       "943621875518794623762358941")
# "Pencilmark sudoku", https://sudokupad.app/v7oVqMfjTs, from the same examples: only
# candidate givens
PENCILMARKS = ("~R1C1_1_2~R2C2_1_2_9~R2C4_1_3~R1C5_1_4_6~R2C5_8_9~R4C2_2_3~R5C2_7_9~R9C1_2_3"
               "~R7C3_8_9~R8C3_1_2_3_8_9~R6C3_6_7~R3C3_5_6_9~R4C4_3_4_5~R4C5_4_9~R5C5_6_7_8"
               "~R8C5_1_2~R7C4_4_6~R9C5_5_6~R1C6_6_9~R3C6_5_7~R4C6_6_9~R6C6_1_4_7~R8C6_1_8"
               "~R9C9_3_4_5~R8C8_2_8_9~R7C7_6_7_8~R6C8_4_8~R5C9_4_6~R4C7_5_6~R3C7_7_9"
               "~R2C8_1_2_3_5_8_9~R1C8_1_9~R1C9_1_3")
PENCILMARKS_SOLUTION = ("278569413916384752435127968123496587894275136567831249"
                        "759643821642718395381952674")


# "Dutch Flat Mates (Kropki)",
# https://logic-masters.de/Raetselportal/Raetsel/zeigen.php?chlang=en&id=000FYS, from the same
# examples (its dots, and DutchFlatmates)
FLATMATES = (".BlackDot~R5C1~R6C1.BlackDot~R6C1~R7C1.BlackDot~R7C1~R8C1.BlackDot~R4C2~R4C3"
             ".BlackDot~R2C5~R3C5.BlackDot~R3C7~R4C7.BlackDot~R4C8~R4C9.BlackDot~R5C9~R6C9"
             ".BlackDot~R6C9~R7C9.BlackDot~R7C9~R8C9.BlackDot~R7C7~R7C8.WhiteDot~R8C7~R9C7"
             ".WhiteDot~R9C5~R9C4.WhiteDot~R9C3~R9C4.WhiteDot~R5C3~R6C3.WhiteDot~R5C1~R5C2"
             ".WhiteDot~R4C4~R4C5.WhiteDot~R2C2~R3C2.WhiteDot~R1C3~R1C4.WhiteDot~R1C7~R1C8"
             ".WhiteDot~R1C8~R1C9")
FLATMATES_SOLUTION = ("618792345352864719947531826721985463896243571435617982"
                      "279158634163479258584326197")


def unique(puzzle: Puzzle, solution: str, engines=("native", "sat")) -> None:
    """Assert that each engine finds exactly one grid, the published solution."""
    for engine in engines:
        need_engine(engine)
        out = api.count(puzzle, engine, limit=2, timeout=60)
        assert out.exhausted and out.count == 1, (engine, out.message)
        assert "".join(map(str, out.solutions[0])) == solution, engine


def test_entropy_sudoku_is_unique_with_global_entropy():
    puzzle = parse_json(json.dumps({"givens": ENTROPY_GIVENS, "rules": ["global-entropy"]}))
    unique(puzzle, ENTROPY_SOLUTION)
    assert api.count(puzzle.with_rules(()), limit=2).count == 2     # the rule is needed


def test_global_mod_3_is_unique_with_global_modular():
    drawn = parse_iss(GLOBAL_MOD)
    puzzle = drawn.with_rules(drawn.rules + parse_rules("global-modular"))
    unique(puzzle, GLOBAL_MOD_SOLUTION)
    assert api.count(drawn, limit=2).count == 2


def test_pencilmark_sudoku_is_unique_with_candidates():
    # ISS writes candidate givens as givens of several values: each is a candidates rule
    puzzle = parse_iss("." + PENCILMARKS)
    assert {r.kind for r in puzzle.rules} == {"candidates"} and not any(puzzle.givens)
    assert sum(len(r.cells) for r in puzzle.rules) == 33
    assert {"kind": "candidates", "cells": ["r1c1", "r2c4"], "values": [1, 2]} not in [
        r.to_data() for r in puzzle.rules]          # R2C4 is 1 or 3: a set of its own
    assert {"kind": "candidates", "cells": ["r1c1", "r8c5"], "values": [1, 2]} in [
        r.to_data() for r in puzzle.rules]
    unique(puzzle, PENCILMARKS_SOLUTION)


@pytest.mark.parametrize("data, first, second", [
    ({"kind": "difference-dot", "difference": 3}, {5}, {2, 8}),
    ({"kind": "ratio-dot", "ratio": 3}, {2}, {6}),
    ({"kind": "ratio-dot", "ratio": 3}, {3}, {1, 9}),
    ({"kind": "either-xv"}, {4}, {1, 6}),
    ({"kind": "grey-dot"}, {4}, {2, 3, 5, 8}),
    ({"kind": "grey-dot"}, {7}, {6, 8}),
    ({"kind": "product-dot", "product": 12}, {3, 4}, {3, 4}),
])
def test_a_dot_leaves_its_partner_the_values_it_allows(data, first, second):
    g = Puzzle.empty(9).geometry
    rule = rule_from_data(dict(data, cells=["r1c1", "r1c2"]), g)
    full = (1 << 9) - 1
    cands = [full] * 81
    cands[0] = sum(1 << (v - 1) for v in first)
    drop, reason = rule.deduce(g, cands)
    assert set(drop) == {1}
    assert {v for v in range(1, 10) if not drop[1] >> (v - 1) & 1} == second
    assert "r1c1 and r1c2" in reason and "\n" not in reason


def test_dutch_flat_mates_is_unique_with_dutch_flatmates():
    drawn = parse_iss(FLATMATES)
    puzzle = drawn.with_rules(drawn.rules + parse_rules("dutch-flatmates"))
    unique(puzzle, FLATMATES_SOLUTION)
    assert api.count(drawn, limit=2).count == 2


def iss_collection(name: str) -> dict:
    """Return the puzzle of ISS's own collection (tests/data/iss_collection.jsonl) by name."""
    from conftest import ROOT
    lines = (ROOT / "tests" / "data" / "iss_collection.jsonl").read_text().splitlines()
    return next(d for d in map(json.loads, lines) if d["name"] == name)


@pytest.mark.parametrize("name, kind", [("Order From Chaos", "global-entropy"),
                                        ("7x7: Dutch Flat Mate Squishdoku", "dutch-flatmates")])
def test_entropy_and_flatmates_on_more_values_than_a_house_has_cells(name, kind):
    """ISS's 6x6 of nine values with global entropy (thirds 1-3, 4-6, 7-9) and 7x7 of nine
    values with Dutch flatmates (5 has a 1 above or a 9 below) are unique, with their
    published grids, and write back as they were read."""
    d = iss_collection(name)
    puzzle = parse_iss(d["input"])
    assert puzzle.geometry.nvalues == 9 and puzzle.size < 9
    assert kind in [r.kind for r in puzzle.rules]
    unique(puzzle, d["solution"])
    assert parse_iss(to_iss(puzzle)) == puzzle
    assert api.count(puzzle.with_rules([r for r in puzzle.rules if r.kind != kind]),
                     limit=2).count == 2                 # the rule is needed


def test_entropy_and_flatmates_read_the_values_not_the_side():
    g = parse_iss(".Shape~6x6~9.RegionSize~9").geometry
    entropy, flatmates = (rule_from_data(k, g) for k in ("global-entropy", "dutch-flatmates"))
    grid = [0] * 36
    grid[0:2], grid[6:8] = [1, 4], [7, 2]           # low, middle, high, low: 1-3 4-6 7-9
    assert not list(entropy.violations(grid, g))
    grid[6] = 6                                     # 6 is a middle value of 1..9
    assert "holds no high value" in " ".join(entropy.violations(grid, g))
    grid = [0] * 36
    grid[6], grid[0], grid[12] = 5, 2, 8            # the middle of 1..9 is 5, its high 9
    assert "r2c1=5 has no 1 directly above it and no 9" in " ".join(flatmates.violations(grid, g))
    grid[12] = 9
    assert not list(flatmates.violations(grid, g))
    with pytest.raises(BadInput, match="values 1..9 only, not 1..8"):
        to_iss(Puzzle(parse_iss(".Shape~6x6~8.RegionSize~8").geometry, (0,) * 36,
                      (rule_from_data("dutch-flatmates", g),)))


# ---- the kinds in ISS strings, f-puzzles data and rules text --------------------------------

def test_f_puzzles_dots_with_a_number_are_difference_and_ratio_dots():
    rows = [[{} for _ in range(9)] for _ in range(9)]
    data = {"size": 9, "grid": rows,
            "difference": [{"cells": ["R1C1", "R1C2"]}, {"cells": ["R2C1", "R2C2"], "value": "3"},
                           {"cells": ["R3C1", "R3C2"], "value": "1"}],
            "ratio": [{"cells": ["R4C1", "R4C2"], "value": "3"}, {"cells": ["R5C1", "R5C2"]}]}
    puzzle = puzzle_from_dict(convert(data).data)
    assert sorted(map(json.dumps, (r.to_data() for r in puzzle.rules))) == sorted(map(json.dumps, [
        {"kind": "kropki-white", "cells": ["r1c1", "r1c2"]},
        {"kind": "difference-dot", "cells": ["r2c1", "r2c2"], "difference": 3},
        {"kind": "kropki-white", "cells": ["r3c1", "r3c2"]},
        {"kind": "ratio-dot", "cells": ["r4c1", "r4c2"], "ratio": 3},
        {"kind": "kropki-black", "cells": ["r5c1", "r5c2"]}]))
    written = to_fpuzzles(puzzle)
    assert {"cells": ["R2C1", "R2C2"], "value": "3"} in written["difference"]
    assert set(puzzle_from_dict(convert(written).data).rules) == set(puzzle.rules)
    data["difference"][1]["value"] = "9"
    with pytest.raises(BadInput, match="difference"):
        puzzle_from_dict(convert(data).data)


@pytest.mark.parametrize("text, solution", [
    (ENTROPY_ISS, ENTROPY_SOLUTION), (GLOBAL_MOD + ".GlobalMod", GLOBAL_MOD_SOLUTION),
    ("." + PENCILMARKS, PENCILMARKS_SOLUTION), (FLATMATES + ".DutchFlatmates", FLATMATES_SOLUTION)])
def test_iss_strings_of_the_published_puzzles_read_and_write_the_kinds(text, solution):
    puzzle = parse_iss(text)
    unique(puzzle, solution)
    again = parse_iss(to_iss(puzzle))
    assert set(again.rules) == set(puzzle.rules) and again.givens == puzzle.givens


def test_global_kinds_are_iss_nine_by_nine_only():
    six = parse_json(json.dumps({"size": 6, "givens": "." * 36, "rules": ["global-modular"]}))
    with pytest.raises(BadInput, match="9x9"):
        to_iss(six)


def test_rules_text_states_the_whole_grid_kinds():
    from polydoku.formats import rules_text
    for text, kind in [
            ("Global entropy applies.", "global-entropy"),
            ("Every 2x2 box contains a low (123), a middle (456) and a high (789) digit.",
             "global-entropy"),
            ("Global mod: each 2x2 area contains one of 1, 4, 7.", "global-modular"),
            ("Dutch flatmates: every 5 has a 1 directly above it or a 9 directly below it.",
             "dutch-flatmates"),
            ("Knightmare applies.", "knightmare")]:
        assert rules_text.read(text, {}).rules == [kind], text


def test_each_kind_is_drawn_with_its_number_or_mark():
    import xml.etree.ElementTree as ET

    from polydoku.render import render_svg
    dots = [e for e in EXAMPLES if isinstance(e, dict) and e["kind"] in (
        "difference-dot", "ratio-dot", "either-xv", "grey-dot", "product-dot", "candidates")]
    root = ET.fromstring(render_svg(parse_json(json.dumps({"givens": "." * 81, "rules": dots}))))
    svg = "{http://www.w3.org/2000/svg}"
    assert {"3", "4", "X/V", "x12", "159"} <= {t.text for t in root.iter(svg + "text")}
    groups = [g.get("class", "") for g in root.iter(svg + "g")]
    assert {"rule dot white", "rule dot black", "rule dot grey"} <= set(groups)
