"""Each technique on a position where it, and no easier technique, applies.

Crafted positions start from an open board (every cell unsolved, every candidate present) and
remove candidates until one pattern stands; harvested positions are real pencil marks captured
from hard sets just before the solver needed the technique (the solution is kept, so
the test also checks that no true value is removed). Each test asserts that every finder earlier
in the order finds nothing and that the technique's finder finds exactly the expected move.
"""

from __future__ import annotations

import pytest

from polydoku.model import Geometry, Puzzle, parse_cell

from polydoku.rules import parse_rules, rules_from_data
from polydoku.problem import build_problem
from polydoku.reasoning.logic import FINDERS, Board, layout_of

N = 9


def idx(name: str) -> int:
    r, c = parse_cell(name)
    return r * N + c


def row(r: int) -> list[str]:
    return [f"r{r}c{c}" for c in range(1, N + 1)]


def col(c: int) -> list[str]:
    return [f"r{r}c{c}" for r in range(1, N + 1)]


def box(b: int) -> list[str]:
    top, left = 3 * ((b - 1) // 3) + 1, 3 * ((b - 1) % 3) + 1
    return [f"r{top + i}c{left + j}" for i in range(3) for j in range(3)]


def open_board(rules: str = "", unique: bool = False) -> Board:
    """Return a 9x9 board with nothing placed and every candidate everywhere."""
    layout = layout_of(build_problem(Puzzle.empty(N, parse_rules(rules))))
    return Board(layout, [0] * N * N, unique=unique)


def only(board: Board, value: int, cells: list[str], keep: str) -> None:
    """Remove `value` from `cells` except those named in `keep`."""
    kept = set(keep.split())
    for name in cells:
        if name not in kept:
            board.eliminate(idx(name), value)


def cands(board: Board, name: str, values: str) -> None:
    """Set the candidates of one cell."""
    board.cand[idx(name)] = sum(1 << (int(v) - 1) for v in values)


def moves(cells: list[str], values: str, skip: str = "") -> str:
    """Return "cell=value" words for every cell (not in skip) and value."""
    skipped = set(skip.split())
    return " ".join(f"{c}={v}" for c in cells if c not in skipped for v in values)


def assert_only(board: Board, technique: str, expected: str):
    """Assert that earlier finders find nothing and the technique's finder finds `expected`."""
    position = next(k for k, (names, _) in enumerate(FINDERS) if technique in names)
    for names, find in FINDERS[:position]:
        assert find(board) is None, f"{names[0]} applies before {technique}"
    # a technique may have several finders (Forcing Net: contradiction, then verity)
    step = next((s for names, find in FINDERS[position:] if technique in names
                 for s in [find(board)] if s is not None), None)
    assert step is not None, f"{technique} found nothing"
    assert step.technique == technique
    lay = board.layout
    got = {f"{lay.name(i)}={v}" for i, v in step.eliminations + step.placements}
    assert got == set(expected.split())
    assert step.text.startswith(f"{technique}: ")
    return step


def test_full_house():
    solved = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
    layout = layout_of(build_problem(Puzzle.empty(N)))
    values = [int(ch) for ch in solved]
    values[0] = 0
    step = assert_only(Board(layout, values), "Full House", "r1c1=5")
    assert step.text == "Full House: r1c1 is the last empty cell of box 1, so r1c1 is 5"


def test_naked_single():
    b = open_board()
    cands(b, "r5c5", "7")
    step = assert_only(b, "Naked Single", "r5c5=7")
    assert step.text == "Naked Single: r5c5 can only be 7"


def test_hidden_single():
    b = open_board()
    only(b, 7, box(5), keep="r5c6")
    step = assert_only(b, "Hidden Single", "r5c6=7")
    assert step.text == "Hidden Single: in box 5, 7 can only go in r5c6"
    assert step.houses == ("box 5",) and step.pattern == (idx("r5c6"),)


def test_locked_pair():
    b = open_board()
    cands(b, "r1c1", "12")
    cands(b, "r1c2", "12")
    expected = moves(row(1), "12", skip="r1c1 r1c2") + " " + moves(box(1)[3:], "12")
    assert_only(b, "Locked Pair", expected)


def test_locked_triple():
    b = open_board()
    for name, values in (("r1c1", "12"), ("r1c2", "23"), ("r1c3", "13")):
        cands(b, name, values)
    assert_only(b, "Locked Triple", moves(row(1)[3:], "123") + " " + moves(box(1)[3:], "123"))


def test_pointing():
    b = open_board()
    only(b, 5, box(1), keep="r2c1 r2c2")
    step = assert_only(b, "Pointing", moves(row(2)[3:], "5"))
    assert "in box 1, 5 lies only in row 2" in step.text


def test_claiming():
    b = open_board()
    only(b, 5, row(2), keep="r2c1 r2c2")
    assert_only(b, "Claiming", moves(row(1)[:3] + row(3)[:3], "5"))


def test_locked_candidates_variant_anti_knight():
    b = open_board("anti-knight")
    only(b, 5, row(1), keep="r1c3 r1c5")
    step = assert_only(b, "Locked Candidates (variant)", "r2c3=5 r2c5=5 r3c4=5")
    assert "anti-knight" in step.text


def test_cell_forcing_non_consecutive():
    b = open_board("non-consecutive")
    cands(b, "r5c5", "46")
    step = assert_only(b, "Cell Forcing", "r4c5=5 r6c5=5 r5c4=5 r5c6=5")
    assert "non-consecutive" in step.text


def published_position(entry_id: str, technique: str, where=lambda step: True):
    """Return (board, solution) of a published variant puzzle (tests/data/variants) just
    before its logical path first takes `technique` (in a step `where` accepts): every earlier
    finder finds nothing there."""
    import json
    from pathlib import Path
    from polydoku.formats.jsonfmt import puzzle_from_dict
    from polydoku.reasoning.logic import prepare, solve_logically, start_board
    data = Path(__file__).parent / "data" / "variants" / "published.jsonl"
    entry = next(e for e in map(json.loads, data.read_text().splitlines()) if e["id"] == entry_id)
    puzzle = puzzle_from_dict(entry["puzzle"])
    prepared = prepare(puzzle)
    path = solve_logically(puzzle, prepared=prepared)
    board = start_board(prepared)
    for step in path.steps:
        if step.technique == technique and where(step):
            return board, entry["solution"]
        for i, v in step.placements:
            board.place(i, v)
        for i, v in step.eliminations:
            board.eliminate(i, v)
    raise AssertionError(f"{entry_id} takes no {technique}")


def test_als_aic_on_international_whispers():
    # "Elementary": kropki dots and whispers lines; r2c1 is 2 or one of 1/3/7/8/9; with 1,
    # r2c2 (a kropki neighbour) is not 1 but one of 2/8/9 (the line techniques have taken its
    # 3 and 7 by then); either way r3c2 loses 7
    board, solution = published_position("elementary", "ALS-AIC")
    step = assert_only(board, "ALS-AIC", "r3c2=7")
    assert step.text.startswith("ALS-AIC: (2)r2c1=(13789)r2c1-(1)r2c2=(289)r2c2: either "
                                "r2c1 is 2 or r2c2 is not 1")
    assert solution[idx("r3c2")] != "7"


def test_als_aic_with_an_almost_locked_set_of_three_cells():
    # XV Kropki: r4c6, r5c6 and r6c6 hold four values between them (1, 2, 4, 8): without a 1
    # they are locked on 2/4/8, so "1 is in r4c6/r6c6" or "2 is in r4c6/r5c6/r6c6"
    from polydoku.reasoning.logic import chains
    board, solution = published_position(
        "xv-kropki-sudoku", "ALS-AIC", lambda s: "-(1)r46c6=(2)r456c6" in s.chain)
    step = chains.find_als_aic(board)
    assert step is not None and "-(1)r46c6=(2)r456c6" in step.chain
    assert "2 is in r4c6/r5c6/r6c6" in step.text
    lay = board.layout
    for i, v in step.eliminations:
        assert solution[i] != str(v), lay.name(i)
    saved = chains.ALS_NODE_CELLS
    chains.ALS_NODE_CELLS = ()                       # one-cell nodes only: not this chain
    try:
        other = chains.find_als_aic(board)
        assert other is None or "r456c6" not in other.chain
    finally:
        chains.ALS_NODE_CELLS = saved


def test_pigeonhole_on_international_whispers():
    # r5c5 sits on three whispers lines (difference 3) inside box 5: as a 4 it would leave
    # its six neighbours 1, 7, 8 or 9, and 2 and 5 only r4c6 in the box
    board, solution = published_position("elementary", "Pigeonhole")
    step = assert_only(board, "Pigeonhole", "r5c5=4")
    assert "2 values for 1 cell" in step.text and "box 5" in step.text
    assert "whispers" in step.text
    assert solution[idx("r5c5")] != "4"


def test_als_aic_stays_off_classic_boards():
    # the classic catalogue (and HoDoKu's ratings) stays as it is: on a classic position of
    # magictour_top1465 line 1 ALS-AIC says nothing, though the same board read as a
    # variant layout has a chain for it
    from dataclasses import replace
    from polydoku.reasoning.logic.chains import find_als_aic
    _, _, _, grid, _ = next(h for h in HARVESTED if h[0] == "AIC")
    board = harvested_board(grid, unique=True)
    assert find_als_aic(board) is None
    board.layout = replace(board.layout, is_classic=False)
    assert find_als_aic(board) is not None


def clue_board(*rules: dict) -> Board:
    """Return an open 9x9 board under rules given as data (killer cages, sandwiches...)."""
    parsed = rules_from_data(list(rules), Geometry.of_size(N))
    return Board(layout_of(build_problem(Puzzle.empty(N, parsed))), [0] * N * N)


def test_killer_cage_combinations():
    b = clue_board({"kind": "killer", "cells": ["r1c1", "r1c2"], "sum": 4})
    step = assert_only(b, "Killer Cage", moves(["r1c1", "r1c2"], "2456789"))
    assert step.text == ("Killer Cage: the cage r1c1 and r1c2 (sum 4) can only be 1+3, so r1c1 "
                         "and r1c2 cannot be 2, 4, 5, 6, 7, 8 or 9")
    assert step.pattern == (idx("r1c1"), idx("r1c2"))


def test_killer_cage_places_each_value_of_a_set_once():
    # sum 9: 1+2+6 would need r1c3 (3, 4 or 5) to hold one of 1, 2, 6; r1c2's 6 has no set
    b = clue_board({"kind": "killer", "cells": ["r1c1", "r1c2", "r1c3"], "sum": 9})
    cands(b, "r1c1", "12")
    cands(b, "r1c2", "3456")
    cands(b, "r1c3", "345")
    step = assert_only(b, "Killer Cage", "r1c2=6")
    assert "can only be 1+3+5 or 2+3+4" in step.text


def test_thermometer_bounds():
    b = clue_board({"kind": "thermometer", "cells": ["r1c1", "r2c2", "r3c3"]})
    cands(b, "r3c3", "5678")
    step = assert_only(b, "Thermometer", moves(["r1c1"], "789") + " " + moves(["r2c2"], "189"))
    assert step.text.startswith("Thermometer: values rise at every step along the thermometer "
                                "from r1c1 (3 cells), which leaves r1c1 1 to 6, r2c2 2 to 7, so ")


def test_slow_thermometer_bounds_allow_equal_neighbours():
    b = clue_board({"kind": "slow-thermometer", "cells": ["r1c1", "r2c2"]})
    cands(b, "r1c1", "456")
    assert_only(b, "Thermometer", moves(["r2c2"], "123"))


def test_arrow_sum_bounds_both_ways():
    # the circle r1c1 holds the sum of r1c2 and r1c3 (a row, so all three differ... but the
    # arrow alone only knows sums): the shaft makes 2 to 18, the circle at least 2
    b = clue_board({"kind": "arrow", "circle": ["r1c1"], "cells": ["r2c2", "r3c3"]})
    cands(b, "r1c1", "1234")
    step = assert_only(b, "Arrow Sum", "r1c1=1 " + moves(["r2c2", "r3c3"], "456789"))
    assert "shaft r2c2 and r3c3 adds up to 2 to 18, and its circle r1c1 can hold 2 to 4" in step.text


@pytest.mark.parametrize("rule, keep, drop_first", [
    ({"kind": "kropki-white"}, "2468", ""),
    ({"kind": "kropki-black"}, "26", "579"),        # 5, 7, 9 have no half and no double
    ({"kind": "xv", "sum": "X"}, "13579", ""),       # the pair alone allows 5+5
    ({"kind": "xv", "sum": "V"}, "24", "579")])
def test_kropki_and_xv_pairs(rule, keep, drop_first):
    b = clue_board({**rule, "cells": ["r1c1", "r1c2"]})
    cands(b, "r1c1", "13579")
    technique = "XV Pair" if rule["kind"] == "xv" else "Kropki Pair"
    drop_second = "".join(v for v in "123456789" if v not in keep)
    step = assert_only(b, technique, moves(["r1c2"], drop_second) + " "
                       + moves(["r1c1"], drop_first))
    mark = {"kropki-white": "white dot", "kropki-black": "black dot"}.get(rule["kind"],
                                                                           rule.get("sum"))
    assert step.text.startswith(f"{technique}: the {mark} between r1c1 and r1c2 joins ")


def test_german_whispers_has_no_neighbour_for_five():
    b = clue_board({"kind": "whispers", "cells": ["r1c1", "r2c2", "r3c3"]})
    step = assert_only(b, "German Whispers", "r1c1=5 r2c2=5 r3c3=5")
    assert "whispers line from r1c1, neighbours differ by at least 5" in step.text


def test_parity_line_alternates():
    b = clue_board({"kind": "parity", "cells": ["r1c1", "r2c2", "r3c3"]})
    cands(b, "r2c2", "2468")
    assert_only(b, "Parity Line", moves(["r1c1", "r3c3"], "2468"))


def test_rule45_innies_of_a_row():
    # cages inside row 1 add up to 42, so r1c8 and r1c9 add up to 3: 1+2
    b = clue_board({"kind": "killer", "cells": ["r1c1", "r1c2", "r1c3"], "sum": 15},
                   {"kind": "killer", "cells": ["r1c4", "r1c5", "r1c6", "r1c7"], "sum": 27})
    killer = next(f for names, f in FINDERS if names == ("Killer Cage",))
    while (step := killer(b)) is not None:      # what the cages say alone, first
        for i, v in step.eliminations:
            b.eliminate(i, v)
    step = assert_only(b, "45 Rule", moves(["r1c8", "r1c9"], "3456789"))
    assert step.text.startswith("45 Rule: the cages inside row 1 add up to 42, so its other "
                                "cells r1c8 and r1c9 add up to 3, and they can only be 1+2, so")


def test_palindrome_mirrored_cells_agree():
    b = clue_board({"kind": "palindrome", "cells": ["r1c1", "r2c2", "r3c3"]})
    cands(b, "r1c1", "12")
    step = assert_only(b, "Palindrome", moves(["r3c3"], "3456789"))
    assert "r1c1 and r3c3 hold the same value" in step.text


def test_renban_keeps_the_runs_its_cells_can_fill():
    # three cells, r1c1 is 8 or 9: only the runs 6-8 and 7-9 hold it
    b = clue_board({"kind": "renban", "cells": ["r1c1", "r2c2", "r3c3"]})
    cands(b, "r1c1", "89")
    step = assert_only(b, "Renban", moves(["r2c2", "r3c3"], "12345"))
    assert "holds 3 consecutive values, and only 6-8 or 7-9 fits its cells" in step.text


def test_between_line_ends_leave_room():
    # r1c1 is 1 or 2 and the middle lies strictly between the ends: r3c3 is above r1c1 with
    # room between (3 to 9), the middle 2 to 8
    b = clue_board({"kind": "between", "cells": ["r1c1", "r2c2", "r3c3"]})
    cands(b, "r1c1", "12")
    step = assert_only(b, "Between Line", "r2c2=1 r2c2=9 r3c3=1 r3c3=2")
    assert step.text.startswith("Between Line: the cells between r1c1 and r3c3 lie strictly")


def test_little_killer_bounds_its_diagonal():
    # from r7c1 down-right: r7c1, r8c2, r9c3 add up to 6 (each 1 to 4)
    b = clue_board({"kind": "little-killer", "cell": "r7c1", "direction": "DR", "sum": 6})
    step = assert_only(b, "Little Killer", moves(["r7c1", "r8c2", "r9c3"], "56789"))
    assert step.pattern == (idx("r7c1"), idx("r8c2"), idx("r9c3"))
    assert "little killer 6 from r7c1 adds up 3 cells" in step.text


def test_clone_cells_agree():
    b = clue_board({"kind": "clone", "cells": ["r1c1", "r1c2"], "copy": ["r5c5", "r5c6"]})
    cands(b, "r5c5", "123")
    assert_only(b, "Clone", moves(["r1c1"], "456789"))


def test_even_and_odd_cells():
    b = clue_board({"kind": "even", "cells": ["r1c1", "r2c2"]})
    step = assert_only(b, "Even/Odd", moves(["r1c1", "r2c2"], "13579"))
    assert "r1c1 and r2c2 are even" in step.text


def test_constraint_propagation_on_a_sum_with_no_technique():
    # a pill (two-cell circle) reading 10*r1c1 + r1c2 is the sum of r2c1, r3c1 and r4c1: at
    # most 27, so r1c1 is 1 or 2
    b = clue_board({"kind": "arrow", "circle": ["r1c1", "r1c2"],
                    "cells": ["r2c1", "r3c1", "r4c1"]})
    step = assert_only(b, "Constraint Propagation", moves(["r1c1"], "3456789"))
    assert step.text.startswith("Constraint Propagation: arrow at r1c1 on ")


def test_clue_combinations_keep_apart_what_the_rules_keep_apart():
    # a pill r1c1-r1c2 (reading 10a + b) over a shaft r2c1, r3c1, all in box 1. Filtered
    # alone, the clue lets the shaft repeat: a = 1, and 9 + 9 = 18 or 2 + 9 = 11 fit. Filled
    # at once, its four cells differ (one box): b is not 1 (r1c1 is) nor 8 (18 = 9 + 9), and
    # a shaft cell is not 2 (2 + y = 10 + b needs y = 8 + b, so b = 1)
    from itertools import product
    from polydoku.reasoning.logic.propagation import find_clue_combinations
    b = clue_board({"kind": "arrow", "circle": ["r1c1", "r1c2"], "cells": ["r2c1", "r3c1"]})
    alone = next(f for names, f in FINDERS if names == ("Constraint Propagation",))
    while (step := alone(b)) is not None:
        for i, v in step.eliminations:
            b.eliminate(i, v)
    assert b.cand[idx("r1c1")] == 1 and b.has(idx("r1c2"), 8) and b.has(idx("r2c1"), 2)
    step = find_clue_combinations(b)
    assert step is not None and step.technique == "Clue Combinations"
    lay = b.layout
    assert {f"{lay.name(i)}={v}" for i, v in step.eliminations} == {
        "r1c2=1", "r1c2=8", "r2c1=2", "r3c1=2"}
    assert step.text.startswith("Clue Combinations: arrow at r1c1 on r1c1, r1c2, r2c1 and r3c1 ")
    names = ["r1c1", "r1c2", "r2c1", "r3c1"]
    fills = [f for f in product(range(1, 10), repeat=4)
             if len(set(f)) == 4 and 10 * f[0] + f[1] == f[2] + f[3]]
    for i, v in step.eliminations:              # no way to fill the four cells uses them
        assert all(f[names.index(lay.name(i))] != v for f in fills)


def test_clue_combinations_on_a_published_zipper_puzzle():
    # The Zip that Zips the Zips: a zipper's pairs filled at once, with its cells' boxes
    board, solution = published_position("the-zip-that-zips-the-zips", "Clue Combinations")
    from polydoku.reasoning.logic.propagation import find_clue_combinations
    position = next(k for k, (names, _) in enumerate(FINDERS) if "Clue Combinations" in names)
    for names, find in FINDERS[:position]:
        assert find(board) is None, names
    step = find_clue_combinations(board)
    assert step is not None and "zipper" in step.text and step.eliminations
    for i, v in step.eliminations:
        assert solution[i] != str(v)


def test_inequality_bounds_both_cells():
    # r1c1 > r1c2: r1c1 is not 1 (nothing below it), r1c2 is not 9 (nothing above it)
    b = clue_board({"kind": "greater-than", "cells": ["r1c1", "r1c2"]})
    step = assert_only(b, "Inequality", "r1c1=1 r1c2=9")
    assert "inequality sign between r1c1 and r1c2" in step.text


def test_lockout_line_keeps_the_middle_outside_the_ends():
    # ends at least 4 apart, the cell between outside their range: a 5 between would need
    # both ends below 5 or both above, and no two values on one side of 5 are 4 apart
    b = clue_board({"kind": "lockout", "cells": ["r1c1", "r1c2", "r1c3"]})
    step = assert_only(b, "Lockout Line", "r1c2=5")
    assert "differ by at least 4" in step.text


def test_numbered_room_keeps_first_values_whose_room_can_hold_the_clue():
    # 7 left of row 1: r1c1 is X only if r1cX can be 7; r1c1 itself is not 7's room (X = 1
    # would need r1c1 = 7 = 1), and with 7 gone from r1c3, r1c1 is not 3 either
    b = clue_board({"kind": "numbered-room", "side": "left", "index": 1, "value": 7})
    cands(b, "r1c3", "12345689")
    step = assert_only(b, "Numbered Room", "r1c1=1 r1c1=3")
    assert step.text.startswith("Numbered Room: the numbered room 7 left of row 1")


def test_sandwich_places_the_ends_and_the_sets_between():
    # a sandwich of 35 = 2+...+8: the 1 and the 9 sit at the two ends of the row
    b = clue_board({"kind": "sandwich", "side": "left", "index": 1, "sum": 35})
    ends = moves(["r1c1", "r1c9"], "2345678")
    middle = moves(row(1), "19", skip="r1c1 r1c9")
    step = assert_only(b, "Sandwich", f"{ends} {middle}")
    assert step.text.startswith("Sandwich: the sandwich 35 left of row 1 fits only with 1 at "
                                "r1c1 and 9 at r1c9; 1 at r1c9 and 9 at r1c1, each with the "
                                "values the sum leaves over outside it, so ")
    assert len(step.pattern) == 9


def test_sandwich_next_to_each_other():
    # a sandwich of 0: the 1 and the 9 are neighbours; r1c5 is 1, so 9 is r1c4 or r1c6
    b = clue_board({"kind": "sandwich", "side": "left", "index": 1, "sum": 0})
    cands(b, "r1c5", "1")
    b.value[idx("r1c5")] = 1
    for name in row(1):
        if name != "r1c5":
            b.eliminate(idx(name), 1)
    step = next(f for names, f in FINDERS if names == ("Sandwich",))(b)
    assert step is not None
    gone = {(b.layout.name(i), v) for i, v in step.eliminations}
    assert ("r1c1", 9) in gone and ("r1c4", 9) not in gone and ("r1c6", 9) not in gone


def test_sandwich_leaves_the_other_values_outside():
    # a sandwich of 5 with the 1 at r1c1 and the 9 at r1c4: 2+3 between, so the five cells
    # outside hold 4, 5, 6, 7 and 8; r1c5, left with 2, 3 and 4, can only be 4
    b = clue_board({"kind": "sandwich", "side": "left", "index": 1, "sum": 5})
    cands(b, "r1c1", "1")
    cands(b, "r1c4", "9")
    cands(b, "r1c5", "234")
    step = next(f for names, f in FINDERS if names == ("Sandwich",))(b)
    gone = {(b.layout.name(i), v) for i, v in step.eliminations}
    assert {("r1c5", 2), ("r1c5", 3)} <= gone and ("r1c5", 4) not in gone
    assert {("r1c6", 2), ("r1c6", 3)} <= gone and ("r1c6", 8) not in gone
    assert ("r1c2", 2) not in gone and ("r1c2", 4) in gone


def test_skyscraper_clue_bounds_the_cells_near_it():
    # a skyscraper seeing 3 from the left: r1c1 is at most 7 (8 or 9 would leave room for
    # two seen at most), r1c2 at most 8, and the 9 stands third or further
    b = clue_board({"kind": "skyscraper", "side": "left", "index": 1, "count": 3})
    step = assert_only(b, "Skyscraper Clue", "r1c1=8 r1c1=9 r1c2=9")
    assert step.text.startswith("Skyscraper Clue: the skyscraper 3 left of row 1 sees 3 "
                                "values along r1c1..r1c9, each higher than all before it: "
                                "the cell d places from the clue is at most 6+d")
    assert len(step.pattern) == 9


def test_skyscraper_clue_of_one_and_of_n():
    b = clue_board({"kind": "skyscraper", "side": "top", "index": 4, "count": 1})
    step = assert_only(b, "Skyscraper Clue",
                       moves(["r1c4"], "12345678") + " " + moves(col(4), "9", skip="r1c4"))
    assert "the 9 stands next to it" in step.text
    b = clue_board({"kind": "skyscraper", "side": "right", "index": 2, "count": 9})
    step = assert_only(b, "Skyscraper Clue", " ".join(
        f"r2c{10 - d}={v}" for d in range(1, 10) for v in range(1, 10) if v != d))
    assert "rises one step at a time" in step.text


def test_skyscraper_clue_walks_past_a_hidden_value():
    # seeing 2 from the left with r1c1 = 5: the 9 is the second seen, so the cells before it
    # are below 5 (a 6, 7 or 8 would be seen as well)
    b = clue_board({"kind": "skyscraper", "side": "left", "index": 1, "count": 2})
    cands(b, "r1c1", "5")
    cands(b, "r1c2", "123678")
    step = next(f for names, f in FINDERS if names == ("Skyscraper Clue",))(b)
    gone = {(b.layout.name(i), v) for i, v in step.eliminations}
    assert {("r1c2", 6), ("r1c2", 7), ("r1c2", 8)} <= gone and ("r1c2", 1) not in gone


def test_skyscraper_clue_on_the_published_skyscraper():
    board, solution = published_position("skyscraper", "Skyscraper Clue")
    step = next(f for names, f in FINDERS if names == ("Skyscraper Clue",))(board)
    assert step is not None and step.eliminations
    for i, v in step.eliminations:
        assert solution[i] != str(v), board.layout.name(i)


def test_x_sum_first_values_and_their_sets():
    # an X-sum of 6 from the left of row 1: X=1 (1 alone, no), X=2 (2+4), X=3 (3+1+2)
    b = clue_board({"kind": "x-sum", "side": "left", "index": 1, "sum": 6})
    step = next(f for names, f in FINDERS if names == ("X-Sum",))(b)
    assert step is not None and "fits only with r1c1 = 2 or 3" in step.text
    gone = {(b.layout.name(i), v) for i, v in step.eliminations}
    assert {("r1c1", v) for v in (1, 4, 5, 6, 7, 8, 9)} <= gone
    assert {("r1c2", v) for v in (3, 5, 6, 7, 8, 9)} <= gone       # 4 (X=2), 1 or 2 (X=3)
    assert not {("r1c4", v) for v in range(1, 10)} & gone         # past every X


def test_quadruple_with_four_values_leaves_nothing_else():
    b = clue_board({"kind": "quadruple", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"],
                    "values": [1, 2, 3, 4]})
    step = assert_only(b, "Quadruple", moves(["r1c1", "r1c2", "r2c1", "r2c2"], "56789"))
    assert "hold 1, 2, 3, 4 and nothing else" in step.text


def test_quadruple_value_with_one_place():
    b = clue_board({"kind": "quadruple", "cells": ["r1c1", "r1c2", "r2c1", "r2c2"],
                    "values": [7]})
    for name in ("r1c1", "r1c2", "r2c1"):
        b.eliminate(idx(name), 7)
    assert_only(b, "Quadruple", moves(["r2c2"], "12345689"))


def test_minimum_cell_is_below_its_neighbours():
    b = clue_board({"kind": "minimum", "cells": ["r5c5"]})
    cands(b, "r4c5", "1234")
    step = assert_only(b, "Minimum/Maximum", moves(["r5c5"], "456789")
                       + " " + " ".join(f"{c}=1" for c in ("r4c5", "r6c5", "r5c4", "r5c6")))
    assert "r5c5 is smaller than each of its neighbours" in step.text


@pytest.mark.parametrize("kind, low, words", [("entropic", "123", "low"),
                                              ("modular", "369", "0 mod 3")])
def test_three_cell_classes_repeat_every_third_cell(kind, low, words):
    cells = ["r1c1", "r2c2", "r3c3", "r4c4"]
    b = clue_board({"kind": kind, "cells": cells})
    cands(b, "r1c1", low)
    step = assert_only(b, f"{kind.capitalize()} Line",
                       moves(["r4c4"], "".join(v for v in "123456789" if v not in low))
                       + " " + moves(["r2c2", "r3c3"], low))
    assert f"leaves r1c1 (and every third cell on) {words}" in step.text


def test_constraint_propagation_follows_a_rules_auxiliary_variables():
    # a skyscraper seeing 8 from the left: its line's states (the highest value so far, the
    # values seen) tie the nine cells into one clue, filtered as one: by place c at most one
    # value was skipped, so r1cc holds at most c + 1. Seeing 9, the row climbs 1, 2, ..., 9
    # (no state is left open: each cell's own table says its value)
    find = next(f for names, f in FINDERS if names == ("Constraint Propagation",))
    for count, wide, row in ((8, 9, [(1 << min(c + 1, 9)) - 1 for c in range(1, 10)]),
                             (9, 1, [1 << (c - 1) for c in range(1, 10)])):
        b = clue_board({"kind": "skyscraper", "side": "left", "index": 1, "count": count})
        widest = 0
        while (step := find(b)) is not None:
            assert "skyscraper" in step.text
            widest = max(widest, len(step.pattern))
            for i, v in step.eliminations:
                b.eliminate(i, v)
        assert widest == wide
        assert [b.cand[idx(f"r1c{c}")] for c in range(1, 10)] == row


def test_variant_finders_stay_quiet_on_classic_rules():
    b = open_board()
    cands(b, "r5c5", "46")
    names = {n for names, _ in FINDERS for n in names}
    assert {"Locked Candidates (variant)", "Cell Forcing"} <= names
    for names, find in FINDERS:
        if names[0] in ("Locked Candidates (variant)", "Cell Forcing"):
            assert find(b) is None


def test_naked_pair():
    b = open_board()
    cands(b, "r1c1", "12")
    cands(b, "r1c5", "12")
    assert_only(b, "Naked Pair", moves(row(1), "12", skip="r1c1 r1c5"))


def test_naked_triple():
    b = open_board()
    for name, values in (("r1c1", "12"), ("r1c5", "23"), ("r1c9", "13")):
        cands(b, name, values)
    assert_only(b, "Naked Triple", moves(row(1), "123", skip="r1c1 r1c5 r1c9"))


def test_naked_quadruple():
    b = open_board()
    for name, values in (("r1c1", "12"), ("r1c2", "34"), ("r1c4", "13"), ("r1c7", "24")):
        cands(b, name, values)
    assert_only(b, "Naked Quadruple", moves(row(1), "1234", skip="r1c1 r1c2 r1c4 r1c7"))


def test_hidden_pair():
    b = open_board()
    for v in (1, 2):
        only(b, v, row(1), keep="r1c1 r1c5")
    step = assert_only(b, "Hidden Pair", moves(["r1c1", "r1c5"], "3456789"))
    assert "in row 1, 1/2 can only go in r1c1 and r1c5" in step.text


def test_hidden_triple():
    b = open_board()
    for v in (1, 2, 3):
        only(b, v, row(1), keep="r1c1 r1c5 r1c9")
    assert_only(b, "Hidden Triple", moves(["r1c1", "r1c5", "r1c9"], "456789"))


def test_hidden_quadruple():
    b = open_board()
    for v in (1, 2, 3, 4):
        only(b, v, row(1), keep="r1c1 r1c4 r1c7 r1c9")
    assert_only(b, "Hidden Quadruple", moves(["r1c1", "r1c4", "r1c7", "r1c9"], "56789"))


def test_x_wing():
    b = open_board()
    only(b, 5, row(2), keep="r2c3 r2c8")
    only(b, 5, row(7), keep="r7c3 r7c8")
    step = assert_only(b, "X-Wing", moves(col(3) + col(8), "5", skip="r2c3 r2c8 r7c3 r7c8"))
    assert "in rows 2 and 7, 5 lies only in columns 3 and 8" in step.text


def test_swordfish():
    b = open_board()
    only(b, 5, row(1), keep="r1c1 r1c5 r1c9")
    only(b, 5, row(5), keep="r5c1 r5c5")
    only(b, 5, row(9), keep="r9c5 r9c9")
    cells = [c for c in col(1) + col(5) + col(9) if c[1] not in "159"]
    assert_only(b, "Swordfish", moves(cells, "5"))


def test_jellyfish():
    b = open_board()
    only(b, 5, row(2), keep="r2c1 r2c4")
    only(b, 5, row(4), keep="r4c4 r4c7")
    only(b, 5, row(6), keep="r6c7 r6c2")
    only(b, 5, row(8), keep="r8c2 r8c1 r8c4")
    cells = [c for c in col(1) + col(2) + col(4) + col(7) if c[1] in "13579"]
    assert_only(b, "Jellyfish", moves(cells, "5"))


def test_finned_x_wing():
    b = open_board()
    only(b, 5, row(2), keep="r2c1 r2c3 r2c8")
    only(b, 5, row(7), keep="r7c3 r7c8")
    step = assert_only(b, "Finned X-Wing", "r1c3=5 r3c3=5")
    assert "fin r2c1 in box 1" in step.text


def test_sashimi_x_wing():
    b = open_board()
    only(b, 5, row(2), keep="r2c1 r2c2 r2c8")
    only(b, 5, row(7), keep="r7c3 r7c8")
    assert_only(b, "Sashimi X-Wing", "r1c3=5 r3c3=5")


def test_remote_pair():
    b = open_board()
    for name in ("r1c1", "r1c5", "r5c5", "r4c6"):
        cands(b, name, "12")
    for v in (1, 2):
        only(b, v, row(1), keep="r1c1 r1c5")
        only(b, v, col(5), keep="r1c5 r5c5")
        only(b, v, box(5), keep="r5c5 r4c6")
    assert_only(b, "Remote Pair", "r4c1=1 r4c1=2")


def test_skyscraper():
    b = open_board()
    only(b, 5, row(2), keep="r2c2 r2c7")
    only(b, 5, row(6), keep="r6c2 r6c8")
    assert_only(b, "Skyscraper", "r1c8=5 r3c8=5 r4c7=5 r5c7=5")


def test_two_string_kite():
    b = open_board()
    only(b, 5, row(1), keep="r1c2 r1c7")
    only(b, 5, col(3), keep="r2c3 r8c3")
    assert_only(b, "2-String Kite", "r8c7=5")


def test_empty_rectangle():
    b = open_board()
    only(b, 5, box(1), keep="r2c1 r2c2 r2c3 r1c3 r3c3")
    only(b, 5, row(7), keep="r7c3 r7c8")
    assert_only(b, "Empty Rectangle", "r2c8=5")


def test_w_wing():
    b = open_board()
    cands(b, "r1c1", "12")
    cands(b, "r5c9", "12")
    only(b, 1, row(9), keep="r9c1 r9c9")
    assert_only(b, "W-Wing", "r1c9=2 r5c1=2")


def test_xy_wing():
    b = open_board()
    for name, values in (("r5c5", "12"), ("r5c1", "13"), ("r1c5", "23")):
        cands(b, name, values)
    step = assert_only(b, "XY-Wing", "r1c1=3")
    assert "pivot r5c5" in step.text


def test_xyz_wing():
    b = open_board()
    for name, values in (("r5c5", "123"), ("r4c4", "13"), ("r5c8", "23")):
        cands(b, name, values)
    assert_only(b, "XYZ-Wing", "r5c4=3 r5c6=3")


# Real positions, from magictour_top1465 and forum_hardest_1106 (line noted), captured just before
# the solver used the technique: (technique, source, solution, candidates by cell with a lone
# digit = placed, move).
HARVESTED = [
    ('Unique Rectangle Type 1', 'magictour_top1465 line 1', '468931527751624839392578461134756298289413675675289314846192753513867942927345186',
     '4 569 1268 5789 3 15789 259 2567 25679 1237 359 12 6 127 14579 8 2357 234579 23678 3569 268 45789 278 45789 23459 23567 1 1236 346 1246 378 5 13678 23 9 2378 123 8 59 3479 17 13479 6 12357 2357 136 7 59 2 168 13689 345 1358 3458 68 46 468 1 9 2 7 35 35 5 12 3 78 678 678 129 4 29 9 12 7 35 4 35 12 68 68',
     'r8c7=1 r8c7=2'),
    ('AIC', 'magictour_top1465 line 1', '468931527751624839392578461134756298289413675675289314846192753513867942927345186',
     '4 56 1268 5789 3 15789 25 2567 79 1237 359 12 6 127 14579 8 2357 34579 23678 3569 268 45789 278 45789 2345 23567 1 1236 346 1246 378 5 13678 23 9 378 123 8 59 3479 17 13479 6 12357 357 136 7 59 2 168 13689 345 135 3458 68 46 468 1 9 2 7 35 35 5 1 3 78 678 678 9 4 2 9 2 7 35 4 35 1 8 6',
     'r3c8=2'),
    ('Unique Rectangle Type 4', 'magictour_top1465 line 1', '468931527751624839392578461134756298289413675675289314846192753513867942927345186',
     '4 56 1268 5789 3 15789 25 2567 79 1237 359 12 6 127 14579 8 2357 34579 2367 3569 268 45789 278 45789 2345 3567 1 1236 346 1246 378 5 13678 23 9 378 123 8 59 3479 17 13479 6 12357 357 136 7 59 2 168 13689 345 135 3458 8 46 46 1 9 2 7 35 35 5 1 3 78 678 678 9 4 2 9 2 7 35 4 35 1 8 6',
     'r4c2=6 r4c3=6'),
    ('XY-Chain', 'magictour_top1465 line 1', '468931527751624839392578461134756298289413675675289314846192753513867942927345186',
     '4 56 1268 5789 3 15789 25 2567 79 1237 359 12 6 127 14579 8 2357 34579 237 3569 268 45789 278 45789 2345 3567 1 1236 34 124 378 5 13678 23 9 378 123 8 59 3479 17 13479 6 12357 357 136 7 59 2 168 13689 345 135 3458 8 46 46 1 9 2 7 35 35 5 1 3 78 678 678 9 4 2 9 2 7 35 4 35 1 8 6',
     'r1c4=5 r1c6=5 r1c8=5'),
    ('BUG+1', 'magictour_top1465 line 12', '819462375632751489547839612178543926324697158956128743763215894291384567485976231',
     '8 1 9 4 26 26 3 7 5 6 3 24 7 5 1 24 8 9 5 24 7 8 3 9 46 16 12 19 7 8 5 4 3 19 2 6 3 24 14 6 9 27 17 5 8 29 5 6 1 27 8 79 4 3 7 6 3 2 1 5 8 9 4 24 9 12 3 8 46 5 16 7 14 8 5 9 67 467 26 3 12',
     'r9c6=6'),
    ('Sashimi Swordfish', 'magictour_top1465 line 24', '317584926526193847984762315672435198153829764849617253798246531265371489431958672',
     '3 168 7 59 68 4 19 2 569 45 26 456 1 269 23679 8 346 345679 9 1268 14568 237 2568 23678 37 13456 34567 168 1678 2 47 3 15 14 9 568 167 5 39 8 1249 1279 237 1346 3467 178 4 39 6 1259 12579 237 1358 3578 4678 36789 468 2349 24689 23689 5 3478 1 2 1368 14568 345 7 13568 49 348 3489 14578 13789 1458 3459 14589 13589 6 3478 2',
     'r3c3=5'),
    ('Finned Swordfish', 'magictour_top1465 line 25', '584923167697541283231687954356792418978164325412835796845279631769318542123456879',
     '45 48 458 9 2 3 1 67 67 6 9 7 15 45 145 2 8 3 2 3 1 67 8 67 9 45 45 379 5 26 1278 139 1279 4 13679 1678 3479 478 3489 157 6 1459 37 2 157 3479 1 26 2578 3459 24579 3678 35679 5678 8 246 459 1256 7 12569 36 1346 1246 1479 2467 49 3 19 12689 5 1467 124678 1357 267 35 4 15 12568 678 167 9',
     'r8c9=1'),
    ('Unique Rectangle Type 2', 'magictour_top1465 line 39', '857962413924318567361754298548127936793486152216539784689271345175643829432895671',
     '8 5 7 69 26 269 4 1 3 9 26 14 3 1478 148 5 2678 678 3 26 14 1478 5 148 269 2689 6789 25 4 8 1569 1236 7 1369 369 169 7 39 369 14689 13468 134689 1369 5 2 25 1 369 569 236 23569 7 48 48 6 389 39 2 13478 1348 13 347 5 14 7 25 1456 1346 13456 8 23469 1469 14 38 25 145678 9 134568 1236 23467 1467',
     'r2c5=8 r3c4=8 r5c6=8 r7c6=8 r9c6=8'),
    ('X-Chain', 'magictour_top1465 line 65', '813425679569817342742936815621354987987162534435789261294673158176598423358241796',
     '89 129 3 4 125 259 6 7 2589 5 1269 12689 189 1267 2679 3 4 289 7 4 26 89 2356 2356 189 189 25 6 1259 12459 3 1258 2459 2589 289 7 139 8 7 19 1256 2569 259 36 4 349 2359 2459 7 2568 24569 2589 36 1 2 19 1489 6 37 37 1489 5 89 134 13567 1456 25 9 8 1247 12 36 389 35679 5689 25 4 1 2789 289 36',
     'r7c2=1 r8c2=1'),
    ('Unique Rectangle Type 3', 'magictour_top1465 line 71', '491862375387195264265374891159236487632487519748951632923748156816529743574613928',
     '4 89 1 38 6 2 359 3579 579 3 89 57 148 45789 457 2 6 14 27 6 257 134 34579 3457 8 39 14 1 5 789 2 3478 6 349 3789 789 6 34 2789 348 4578 3457 3459 1 25789 27 34 278 9 34578 1 6 23578 2578 59 2 34 7 34 8 1 59 6 8 1 6 5 2 9 7 4 3 59 7 34 6 1 34 59 28 28',
     'r5c4=3 r5c4=8'),
    ('Simple Colouring', 'magictour_top1465 line 181', '536712984291834576478965123623179458184523697759648231915487362367291845842356719',
     '5 23 36 7 18 12 9 68 4 29 129 16 28 3 4 5 7 68 47 47 8 9 6 5 12 12 3 6 237 357 1 57 9 4 2358 258 1 8 4 35 2 37 6 9 57 237 57 9 6 4 8 27 235 1 789 1579 157 4 158 127 3 1256 2567 378 6 1357 2358 9 1237 1278 4 257 348 1345 2 358 1578 6 178 15 9',
     'r8c7=7'),
    ('Sashimi Jellyfish', 'magictour_top1465 line 197', '268739145437158296591264783645327819812945367379816452783591624154672938926483571',
     '2 46 458 7 3 9 1 48 56 3468 3468 378 1 5 28 24 9 67 59 79 1 28 6 4 27 578 3 346 2346 3457 239 12 57 8 14 579 18 128 2578 29 4 57 3 6 579 345 347 9 38 18 6 457 157 2 7 1348 348 5 9 18 6 2 48 14 5 248 6 7 128 9 3 48 89 289 6 4 28 3 57 57 1',
     'r7c3=8 r8c3=8'),
    ('Finned Jellyfish', 'magictour_top1465 line 295', '351846729287319645694725183168534972725198364943267518516483297832971456479652831',
     '3 125 1245 8 124 56 7 126 9 129 8 7 3 12 69 126 4 5 6 1259 12459 7 124 59 1238 128 38 12 126 8 5 36 4 9 7 236 57 25679 569 12 369 8 1236 1236 4 29 4 3 12 69 7 5 128 268 58 126 126 4 58 3 26 9 7 78 3 269 69 78 1 4 5 26 4 5679 569 69 57 2 38 38 1',
     'r7c2=6'),
    ('Grouped AIC', 'magictour_top1465 line 1', '468931527751624839392578461134756298289413675675289314846192753513867942927345186',
     '4 569 1268 5789 3 15789 25 2567 5679 1237 359 12 6 127 14579 8 2357 34579 23678 3569 268 45789 278 45789 2345 23567 1 1236 346 1246 378 5 13678 23 9 378 123 8 59 3479 17 13479 6 12357 357 136 7 59 2 168 13689 345 1358 3458 68 46 468 1 9 2 7 35 35 5 1 3 78 678 678 9 4 2 9 2 7 35 4 35 1 68 68',
     'r1c6=9'),
    ('Forcing Net', 'magictour_top1465 line 1', '468931527751624839392578461134756298289413675675289314846192753513867942927345186',
     '4 569 1268 5789 3 1578 25 2567 5679 1237 359 12 6 127 14579 8 2357 34579 23678 3569 268 45789 278 45789 2345 23567 1 1236 346 1246 378 5 13678 23 9 378 123 8 59 3479 17 13479 6 12357 357 136 7 59 2 168 13689 345 1358 3458 68 46 468 1 9 2 7 35 35 5 1 3 78 678 678 9 4 2 9 2 7 35 4 35 1 68 68',
     'r9c8=6'),
    ('ALS-XZ', 'magictour_top1465 line 1', '468931527751624839392578461134756298289413675675289314846192753513867942927345186',
     '4 56 1268 5789 3 1578 25 2567 79 1237 359 12 6 127 14579 8 2357 34579 23678 3569 268 45789 278 45789 2345 3567 1 1236 346 1246 378 5 13678 23 9 378 123 8 59 3479 17 13479 6 12357 357 136 7 59 2 168 13689 345 135 3458 68 46 468 1 9 2 7 35 35 5 1 3 78 678 678 9 4 2 9 2 7 35 4 35 1 8 6',
     'r1c4=5 r1c6=5 r1c8=5'),
    ('Forcing Net', 'magictour_top1465 line 2 (verity)', '728946315934251678516738249147593826369482157852167493293615784481379562675824931',
     '7 126 8 459 4569 4569 3 1456 125 49 36 3469 2 3456 1 4679 4578 578 5 1236 123469 78 346 78 2469 146 129 189 4 1579 3579 59 3579 178 2 6 3 1267 1269 479 8 2469 147 1457 157 268 578 2567 1 2456 2467 478 9 3 128 9 1357 6 125 2358 127 1378 4 12468 12368 12346 3489 7 23489 5 1368 1289 12468 3578 1234567 34589 1249 234589 12679 13678 12789',
     'r2c7=9'),
    ('Nested Forcing Net', 'forum_hardest_1106 line 1', '621943758783615492594728361142879635357461289869532174238197546916354827475286913',
     '12567 2457 12467 134679 13459 34567 1379 1359 8 15678 578 3 16789 1589 5678 4 159 2 1578 9 147 13478 2 34578 137 6 157 12358 23458 124 348 7 9 1368 13458 1456 35789 34578 479 348 6 1 2 34589 459 1389 6 149 5 348 2 1389 7 149 23679 237 8 1234679 1349 3467 5 149 14679 3679 1 679 346789 34589 345678 6789 2 4679 4 27 5 126789 189 678 16789 189 3',
     'r2c5=8'),
]


def harvested_board(text: str, unique: bool) -> Board:
    """Return the board of a pencil-mark literal (81 words; a lone digit is a placed value)."""
    words = text.split()
    layout = layout_of(build_problem(Puzzle.empty(N)))
    board = Board(layout, [int(w) if len(w) == 1 else 0 for w in words], unique=unique)
    for i, w in enumerate(words):
        if len(w) > 1:
            board.cand[i] = sum(1 << (int(ch) - 1) for ch in w)
    return board


@pytest.mark.parametrize("technique, source, solution, grid, move", HARVESTED,
                         ids=[h[0] + (" verity" if "verity" in h[1] else "") for h in HARVESTED])
def test_harvested_position(technique, source, solution, grid, move):
    board = harvested_board(grid, unique=True)
    step = assert_only(board, technique, move)
    for i, v in step.eliminations:
        assert int(solution[i]) != v, f"{source}: removed the true value"
    for i, v in step.placements:
        assert int(solution[i]) == v, f"{source}: placed a wrong value"


@pytest.mark.parametrize("technique", [h[0] for h in HARVESTED if h[0].startswith("Unique")]
                         + ["BUG+1"])
def test_uniqueness_techniques_need_a_proved_unique_puzzle(technique):
    _, _, _, grid, _ = next(h for h in HARVESTED if h[0] == technique)
    board = harvested_board(grid, unique=False)
    finder = next(f for names, f in FINDERS if technique in names)
    assert finder(board) is None


def test_every_technique_is_tested():
    tested = {h[0] for h in HARVESTED} | {
        "Full House", "Naked Single", "Hidden Single", "Locked Pair", "Locked Triple", "Pointing",
        "Claiming", "Locked Candidates (variant)", "Cell Forcing", "ALS-AIC", "Pigeonhole",
        "Clue Combinations", "Inequality", "Lockout Line", "Numbered Room",
        "Killer Cage", "Thermometer", "Arrow Sum", "Kropki Pair", "XV Pair",
        "German Whispers", "Parity Line", "Palindrome", "Renban", "Between Line", "45 Rule",
        "Innies and Outies", "Region-Sum Totals", "Renban Claiming", "Whispers Neighbours",
        "Whispers Polarity",  # test_line_houses.py
        "Cage Unit Overlap", "Cage Interaction", "Clue Unit Overlap",  # test_clue_overlap.py
        "Law of Leftovers",  # test_leftovers.py
        "Hidden Cage", "Cage Splitting",  # test_hidden_cages.py
        "Sum Parity",  # test_parity.py
        "Mirrored Cells",  # test_mirrors.py
        "Skyscraper Pair",  # test_skyscrapers.py
        "Little Killer", "Clone", "Even/Odd", "Sandwich", "X-Sum", "Skyscraper Clue",
        "Quadruple", "Minimum/Maximum", "Entropic Line", "Modular Line",
        "Counting Circles", "Rellik Cage", "Equality Cage", "Constraint Propagation", "Naked Pair", "Naked Triple",
        "Nabner Line", "Value Indexing", "Hidden Skyscraper", "Pairwise Relation",  # test_kinds_lines.py
        "Naked Quadruple", "Hidden Pair", "Hidden Triple", "Hidden Quadruple", "X-Wing",
        "Swordfish", "Jellyfish", "Finned X-Wing", "Sashimi X-Wing", "Remote Pair", "Skyscraper",
        "2-String Kite", "Empty Rectangle", "W-Wing", "XY-Wing", "XYZ-Wing"}
    assert {n for names, _ in FINDERS for n in names} == tested
