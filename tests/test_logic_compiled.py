"""The compiled searches (finned fish, naked, locked and hidden subsets, in _core.c) against
their Python twins on random boards: the same step, or none, on every size and with variant
peers and houses. The step-for-step comparison over whole solve paths is in test_logic.py."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku.model import Puzzle

from polydoku.rules import parse_rules
from polydoku.reasoning.logic import Board, layout_of, prepare
from polydoku.reasoning.logic import board as board_module
from polydoku.reasoning.logic import fish, subsets

LAYOUTS = [(4, ""), (6, ""), (9, ""), (9, "anti-knight,diagonal"), (9, "windoku"), (12, ""),
           (16, "")]
FINDERS = [*((f"finned fish {n}", lambda b, n=n: fish.find_finned_fish(b, n)) for n in (2, 3, 4)),
           *((f"naked {k}", lambda b, k=k: subsets.find_naked_subset(b, k)) for k in (2, 3, 4)),
           *((f"hidden {k}", lambda b, k=k: subsets.find_hidden_subset(b, k)) for k in (2, 3, 4)),
           *((f"locked {k}", lambda b, k=k: subsets.find_locked_subset(b, k)) for k in (2, 3))]


def _layout(n: int, rules: str):
    return layout_of(prepare(Puzzle.empty(n, parse_rules(rules)), timeout=5).problem)


def _board(layout, seed: int, keep: float) -> Board:
    """A board of the layout with a few values placed and candidates removed at random (each
    kept with probability `keep`, at least one per cell)."""
    rnd = random.Random(seed)
    board = Board(layout, (0,) * layout.ncells)
    for i in rnd.sample(range(layout.ncells), layout.ncells // 6):
        values = [v for v in range(1, layout.size + 1) if board.has(i, v)]
        if values:
            board.place(i, rnd.choice(values))
    for i in board.unsolved():
        values = [v for v in range(1, layout.size + 1) if board.has(i, v)]
        for v in values[1:]:
            if rnd.random() > keep:
                board.eliminate(i, v)
    return board


def _step(step):
    return None if step is None else (step.technique, step.text, sorted(step.eliminations))


@pytest.mark.skipif(board_module.compiled_core() is None, reason="the compiled core is off")
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(LAYOUTS), st.integers(0, 2**32), st.sampled_from([0.3, 0.5, 0.7]))
def test_compiled_searches_find_what_the_python_searches_find(spec, seed, keep):
    layout = _layout(*spec)
    board = _board(layout, seed, keep)
    for name, finder in FINDERS:
        layout.barren.clear()
        compiled = _step(finder(board))
        board_module.USE_COMPILED = False
        try:
            layout.barren.clear()
            python = _step(finder(board))
        finally:
            board_module.USE_COMPILED = True
        assert compiled == python, (name, spec, seed)
