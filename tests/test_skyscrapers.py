"""Skyscraper logic: the clue's own step (Skyscraper Clue, `Skyscraper.deduce`) and two clues
facing each other (Skyscraper Pair, reasoning/logic/skyscrapers.py). Neither removes a value
that some arrangement of the row agreeing with the candidates and the clues uses (Hypothesis:
random candidate states on a 6x6 row, every arrangement tried); the pair fires on a built
puzzle that the clues alone leave stalled."""

from __future__ import annotations

import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.model import Geometry, Puzzle
from polydoku.problem import build_problem
from polydoku.reasoning.logic import Board, layout_of, solve_logically
from polydoku.reasoning.logic.catalog import BY_NAME
from polydoku.reasoning.logic.skyscrapers import find_skyscraper_pair
from polydoku.rules import rules_from_data

N = 6
G = Geometry.of_size(N)


def seen(vals) -> int:
    top = count = 0
    for v in vals:
        if v > top:
            top, count = v, count + 1
    return count


def arrangements(masks: list[int], left: int | None, right: int | None) -> list[tuple]:
    """Return every row of 1..N, each value once, within the masks, showing the counts."""
    return [p for p in permutations(range(1, N + 1))
            if all(masks[j] >> (v - 1) & 1 for j, v in enumerate(p))
            and (left is None or seen(p) == left) and (right is None or seen(p[::-1]) == right)]


def board_for(rules: list[dict], masks: list[int]) -> Board:
    puzzle = Puzzle.empty(N, rules_from_data(rules, G))
    board = Board(layout_of(build_problem(puzzle)), [0] * (N * N))
    for j, m in enumerate(masks):
        board.cand[j] = m
    return board


@settings(max_examples=60, deadline=None)
@given(draw=st.integers(0, 10 ** 6), keep=st.floats(0.3, 0.9))
def test_no_step_removes_a_value_some_arrangement_uses(draw, keep):
    rng = random.Random(draw)
    row = list(range(1, N + 1))
    rng.shuffle(row)
    left, right = seen(row), seen(row[::-1])
    masks = [(1 << (v - 1)) | sum(1 << k for k in range(N) if rng.random() < keep) for v in row]
    used = [0] * N
    for p in arrangements(masks, left, right):
        for j, v in enumerate(p):
            used[j] |= 1 << (v - 1)
    rules = [{"kind": "skyscraper", "side": "left", "index": 1, "count": left},
             {"kind": "skyscraper", "side": "right", "index": 1, "count": right}]
    board = board_for(rules, masks)
    step = find_skyscraper_pair(board)
    for i, v in step.eliminations if step else ():
        assert not used[i] >> (v - 1) & 1, (row, masks, step.text)
    alone = [0] * N
    for p in arrangements(masks, left, None):
        for j, v in enumerate(p):
            alone[j] |= 1 << (v - 1)
    cands = masks + [(1 << N) - 1] * (N * N - N)
    rule = rules_from_data(rules[:1], G)[0]
    found = rule.deduce(G, cands)
    for i, m in (found[0].items() if found else ()):
        assert not m & alone[i], (row, masks, found[1])


def test_facing_clues_split_the_row_at_its_highest_value():
    # 3 from the left and 3 from the right on 1..6, the 6 at r1c3 or r1c4: the cells before
    # it show 2 from the left, those after it 2 from the right; r1c1 = 5 would need a higher
    # value before the 6, and there is none
    masks = [0b111111] * N
    masks[0] = masks[5] = 0b011111
    for j in (1, 4):
        masks[j] = 0b011111
    rules = [{"kind": "skyscraper", "side": "left", "index": 1, "count": 3},
             {"kind": "skyscraper", "side": "right", "index": 1, "count": 3}]
    used = [0] * N
    for p in arrangements(masks, 3, 3):
        for j, v in enumerate(p):
            used[j] |= 1 << (v - 1)
    board = board_for(rules, masks)
    step = find_skyscraper_pair(board)
    assert step is not None and step.technique == "Skyscraper Pair"
    gone = {(i, v) for i, v in step.eliminations}
    assert all(not used[i] >> (v - 1) & 1 for i, v in gone)
    assert (0, 5) in gone and (5, 5) in gone
    assert step.text.startswith("Skyscraper Pair: the skyscrapers 3 left of row 1 and 3 right "
                                "of row 1 both see the 6, which splits the line")
    assert BY_NAME["Skyscraper Pair"].level == "Medium"


SKY = [("left", 2, 3), ("left", 3, 2), ("left", 6, 2), ("right", 2, 2), ("right", 3, 2),
       ("right", 7, 6), ("right", 9, 3), ("top", 4, 3), ("top", 5, 4), ("top", 7, 2),
       ("top", 8, 2), ("top", 9, 3), ("bottom", 1, 2), ("bottom", 5, 1), ("bottom", 8, 2),
       ("bottom", 9, 4)]


def test_a_built_skyscraper_puzzle_needs_the_pair():
    # a random grid, 16 skyscraper clues read off it, givens taken away while the native
    # engine proves one solution: without the pair, patterns stall or need harder chains
    # (the clues' exact links, read from their lowering, reach it by ALS-AIC)
    puzzle = puzzle_from_dict({
        "size": 9, "givens": "....1...............6...3.......86......5..1......7..4.........."
                             ".5....2......1...",
        "rules": [{"kind": "skyscraper", "side": s, "index": i, "count": c} for s, i, c in SKY]})
    path = solve_logically(puzzle, max_level="Unfair", check=True, max_seconds=30)
    assert path.solved and path.prepared.unique
    assert "".join(map(str, path.board.value)) == (
        "729413865543876192816925347351248679674359218298167534987632451135784926462591783")
    assert any(s.technique == "Skyscraper Pair" for s in path.steps)
    without = solve_logically(puzzle, max_level="Unfair", exclude=["Skyscraper Pair"],
                              check=True, max_seconds=30)
    assert not without.solved or without.rating.score > path.rating.score


def test_the_clue_walks_with_the_values_it_used():
    # 3 from the left with r1c1 = 6 and r1c2, r1c3 holding 2 and 3 between them: r1c4 is
    # neither (the row holds each once), so it is the 7, the third value seen; after it
    # only the 9 is seen, so r1c5 is not 8 (nor 2, 3, 6 or 7, used)
    g = Geometry.of_size(9)
    rule = rules_from_data([{"kind": "skyscraper", "side": "left", "index": 1, "count": 3}],
                           g)[0]
    cands = [(1 << 9) - 1] * 81
    for j, values in enumerate(("6", "23", "23", "237")):
        cands[j] = sum(1 << (int(v) - 1) for v in values)
    drop, text = rule.deduce(g, cands)
    assert drop[3] == 0b110
    assert drop[4] == sum(1 << (v - 1) for v in (2, 3, 6, 7, 8))
    assert text.startswith("the skyscraper 3 left of row 1 sees 3 values")
