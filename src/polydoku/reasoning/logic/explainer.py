"""A classic puzzle's rating on Sudoku Explainer's scale (its "ER"), computed the way Sudoku
Explainer computes it: at each point the cheapest step on its scale is taken (a hidden single
before a naked single, a "direct" pointing or hidden pair before either), and the rating is the
hardest step of that path.

This path is a second one, beside the HoDoKu-order path that `steps` shows and that the levels
come from; it is never shown step by step, only its number. The rungs, in Sudoku Explainer's
order: hidden singles (1.0 last cell of a house, 1.2 box, 1.5 line), direct pointing 1.7 and
claiming 1.9, direct hidden pair 2.0, naked single 2.3, direct hidden triple 2.5, pointing 2.6,
claiming 2.8, naked pair 3.0, X-Wing 3.2, hidden pair 3.4, naked triple 3.6, swordfish 3.8,
hidden triple 4.0, XY-Wing 4.2, XYZ-Wing 4.4, unique rectangles 4.5-4.6, naked quad 5.0,
jellyfish 5.2, hidden quad 5.4, BUG 5.6; then chains (6.5 for one value, 6.6 forcing chains,
7.0 when they mix cells and houses), each with Sudoku Explainer's length increments, and the
cheapest of them is taken; then forcing nets (`serate_nets`) rated from the size of the
implication net they need, as Sudoku Explainer rates its dynamic and nested forcing chains.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial
from typing import Callable

from . import chains, direct, fish, single_digit, subsets, uniqueness, wings
from . import intersections, serate_nets
from .board import Board
from .difficulty import STALLED, length_bonus
from .step import Step, apply_step

Rated = tuple[float, Step]
Rung = Callable[[Board], "Rated | None"]


def _fixed(value: float, find: Callable[[Board], Step | None]) -> Rung:
    """Return a rung that rates what `find` finds at one value."""
    def rung(board: Board) -> Rated | None:
        step = find(board)
        return (value, step) if step else None
    return rung


def _chain_value(step: Step) -> float:
    """Return a chain step's value: its kind's base and the length increment."""
    nodes = step.chain.count("=") + step.chain.count("-") + 1 if step.chain else len(step.pattern)
    base = CHAIN_BASE.get(step.technique, 7.0)
    return round(base + length_bonus(nodes), 1)


# Sudoku Explainer's chains: one value (X-cycles and forcing X-chains) 6.5-6.6, bivalue cells
# (Y-chains) 6.6, both 7.0; the patterns polydoku names are chains of those kinds.
CHAIN_BASE = {"Skyscraper": 6.6, "2-String Kite": 6.6, "Empty Rectangle": 6.6,
              "Simple Colouring": 6.5, "X-Chain": 6.6, "Remote Pair": 6.6, "XY-Chain": 6.6,
              "W-Wing": 7.0, "AIC": 7.0, "Finned X-Wing": 6.6, "Sashimi X-Wing": 6.6,
              "Finned Swordfish": 6.6, "Sashimi Swordfish": 6.6, "Finned Jellyfish": 6.6,
              "Sashimi Jellyfish": 6.6, "Grouped AIC": 8.0, "ALS-XZ": 8.0}
CHAIN_FINDERS = (single_digit.find_skyscraper, single_digit.find_two_string_kite,
                 single_digit.find_empty_rectangle, single_digit.find_simple_colouring,
                 chains.find_x_chain, wings.find_remote_pair, chains.find_xy_chain,
                 wings.find_w_wing, partial(fish.find_finned_fish, n=2),
                 partial(fish.find_finned_fish, n=3), partial(fish.find_finned_fish, n=4),
                 chains.find_aic)


def _cheapest_chain(board: Board, finders=CHAIN_FINDERS) -> Rated | None:
    """Return the cheapest chain any chain finder sees (Sudoku Explainer sorts its chains by
    value and takes the first)."""
    best: Rated | None = None
    for find in finders:
        step = find(board)
        if step is not None:
            value = _chain_value(step)
            if best is None or value < best[0]:
                best = (value, step)
    return best


def _uniqueness(board: Board) -> Rated | None:
    """Return a unique rectangle (4.5 type 1, 4.6 the others) on a proved-unique puzzle."""
    if not board.unique:
        return None
    for value, find in ((4.5, uniqueness.find_ur1), (4.6, uniqueness.find_ur2),
                        (4.6, uniqueness.find_ur4), (4.6, uniqueness.find_ur3)):
        step = find(board)
        if step:
            return value, step
    return None


def _naked(k: int) -> Callable[[Board], Step | None]:
    """Return a finder of naked subsets of k cells, locked ones included."""
    def find(board: Board) -> Step | None:
        if k <= 3:
            step = subsets.find_locked_subset(board, k)
            if step:
                return step
        return subsets.find_naked_subset(board, k)
    return find


RUNGS: tuple[Rung, ...] = (
    direct.find_hidden_single,
    direct.find_direct_pointing,
    partial(direct.find_direct_hidden, k=2),
    direct.find_naked_single,
    partial(direct.find_direct_hidden, k=3),
    _fixed(2.6, intersections.find_pointing),
    _fixed(2.8, intersections.find_claiming),
    _fixed(3.0, _naked(2)),
    _fixed(3.2, partial(fish.find_basic_fish, n=2)),
    _fixed(3.4, partial(subsets.find_hidden_subset, k=2)),
    _fixed(3.6, _naked(3)),
    _fixed(3.8, partial(fish.find_basic_fish, n=3)),
    _fixed(4.0, partial(subsets.find_hidden_subset, k=3)),
    _fixed(4.2, wings.find_xy_wing),
    _fixed(4.4, wings.find_xyz_wing),
    _uniqueness,
    _fixed(5.0, _naked(4)),
    _fixed(5.2, partial(fish.find_basic_fish, n=4)),
    _fixed(5.4, partial(subsets.find_hidden_subset, k=4)),
    _fixed(5.6, uniqueness.find_bug_plus_one),
    _cheapest_chain,
    _fixed(0.0, chains.find_grouped_aic),
    serate_nets.find_net,
)


@dataclass
class ExplainerPath:
    """The cheapest-first path: each step with its value, whether it finished, its rating."""

    steps: list[Rated] = field(default_factory=list)
    solved: bool = False
    cut: bool = False               # stopped by the time limit
    seconds: float = 0.0

    @property
    def rating(self) -> float:
        """Return the hardest step's value (11.0, as the other scale says of a stall, when
        even nested nets stall)."""
        if not self.solved:
            return STALLED
        return round(max((v for v, _ in self.steps), default=0.0), 1)




def next_rated(board: Board) -> Rated | None:
    """Return the cheapest step on Sudoku Explainer's ladder, with its value, or None."""
    for rung in RUNGS:
        found = rung(board)
        if found is not None:
            value, step = found
            if step.technique == "Grouped AIC":
                value = _chain_value(step)
            return value, step
    return None


def explainer_path(board: Board, max_seconds: float | None = None) -> ExplainerPath:
    """Return the cheapest-first path from `board` (which it changes) to the end or a stall."""
    path = ExplainerPath()
    started = time.perf_counter()
    while not board.is_solved():
        if max_seconds is not None and time.perf_counter() - started > max_seconds:
            path.cut = True
            break
        found = next_rated(board)
        if found is None:
            break
        apply_step(board, found[1])
        path.steps.append(found)
    path.solved = board.is_solved()
    path.seconds = time.perf_counter() - started
    return path
