"""A second, finer difficulty scale beside the levels: a number in the manner of Sudoku
Explainer (1.0 for a full house up to 11 and beyond), decided by the hardest step of the path.
Classic 9x9 puzzles get Sudoku Explainer's own computation instead (`explainer.py`); this rule
serves variants and other sizes, where the path's length adds to the hardest step
(`volume_bonus`), and classic paths with techniques held back.

Each technique has a base value on Sudoku Explainer's scale (its published ratings where it
has the technique: full house 1.0, hidden single 1.2 in a box and 1.5 in a line, pointing 2.6,
claiming 2.8, naked single 2.3, pairs 3.0/3.4, X-Wing 3.2, XY-Wing 4.2, unique rectangles 4.5,
jellyfish 5.2, BUG 5.6, turbot fish 6.6, X/XY-chains 6.6, forcing chains 7.0...; for the
techniques Sudoku Explainer does not have, the value of the technique it would use instead:
finned fish and the single-digit patterns as turbot fish, ALS as forcing chains). Chains and
forcing nets add 0.1 per length band (lengths over 4, 6, 8, 12, 16, 24, 32... nodes or cells,
as Sudoku Explainer does). A forcing net (singles from an assumption) starts at 8.5, Sudoku
Explainer's dynamic forcing chains; a nested one at 9.5; a path where logic stalls (what even
nested nets could not do) is 11.0. The variant
techniques sit beside the classic ones they resemble (a cage's sets beside a naked subset).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from .board import Layout
from .step import Step

BASE: dict[str, float] = {
    "Full House": 1.0, "Hidden Single": 1.5, "Naked Single": 2.3,
    "Pointing": 2.6, "Claiming": 2.8, "Locked Pair": 3.0, "Locked Triple": 3.6,
    "Locked Candidates (variant)": 2.6, "Cell Forcing": 2.8, "Mirrored Cells": 2.8,
    "Killer Cage": 1.5, "Thermometer": 1.5, "Arrow Sum": 1.8, "Kropki Pair": 1.5,
    "XV Pair": 1.5, "German Whispers": 1.5, "Parity Line": 1.5, "Palindrome": 1.5, "Renban": 1.8,
    "Between Line": 1.8, "Little Killer": 1.8, "Clone": 1.5, "Even/Odd": 1.0, "Sandwich": 2.5, "X-Sum": 2.5,
    "Skyscraper Clue": 2.5, "Skyscraper Pair": 2.8,
    "Quadruple": 1.8, "Minimum/Maximum": 1.5, "Entropic Line": 2.0, "Modular Line": 2.0,
    "Inequality": 1.2, "Lockout Line": 1.8, "Numbered Room": 2.0,
    "Counting Circles": 1.5, "Equality Cage": 1.5, "Rellik Cage": 1.5,
    "Nabner Line": 2.0, "Pairwise Relation": 2.0, "Value Indexing": 2.0, "Hidden Skyscraper": 2.0,
    "45 Rule": 2.5, "Innies and Outies": 3.0, "Hidden Cage": 3.0, "Cage Splitting": 3.2,
    "Sum Parity": 3.2,
    "Whispers Neighbours": 2.6, "Whispers Polarity": 3.0, "Region-Sum Totals": 2.6, "Renban Claiming": 2.8,
    "Cage Unit Overlap": 2.8, "Cage Interaction": 3.0,
    "Law of Leftovers": 3.0,
    "Constraint Propagation": 2.0,
    "Naked Pair": 3.0, "Naked Triple": 3.6, "Naked Quadruple": 5.0,
    "Hidden Pair": 3.4, "Hidden Triple": 4.0, "Hidden Quadruple": 5.4,
    "X-Wing": 3.2, "Swordfish": 3.8, "Jellyfish": 5.2,
    "XY-Wing": 4.2, "XYZ-Wing": 4.4, "W-Wing": 4.4, "Remote Pair": 4.5,
    "Unique Rectangle Type 1": 4.5, "Unique Rectangle Type 2": 4.6,
    "Unique Rectangle Type 3": 4.7, "Unique Rectangle Type 4": 4.6, "BUG+1": 5.6,
    "Skyscraper": 6.6, "2-String Kite": 6.6, "Empty Rectangle": 6.6,
    "Finned X-Wing": 6.6, "Sashimi X-Wing": 6.6, "Finned Swordfish": 6.8,
    "Sashimi Swordfish": 6.8, "Finned Jellyfish": 7.0, "Sashimi Jellyfish": 7.0,
    "Simple Colouring": 6.5, "X-Chain": 6.6, "XY-Chain": 6.6, "AIC": 7.0,
    "Grouped AIC": 7.3, "ALS-XZ": 7.5, "ALS-AIC": 7.7, "Pigeonhole": 5.0, "Clue Combinations": 5.2,
    "Clue Unit Overlap": 5.2,
    "Forcing Net": 8.5, "Nested Forcing Net": 9.5,
}
CHAINS = {"Remote Pair", "Simple Colouring", "X-Chain", "XY-Chain", "AIC", "Grouped AIC", "ALS-AIC",
          "Forcing Net", "Nested Forcing Net"}
STALLED = 11.0


def length_bonus(length: int) -> float:
    """Return Sudoku Explainer's length increment: 0.1 for each band a chain's length passes
    (4, 6, 8, 12, 16, 24, 32, 48...)."""
    bonus, ceiling, odd = 0.0, 4, False
    while length > ceiling:
        bonus += 0.1
        ceiling = ceiling * 3 // 2 if not odd else ceiling * 4 // 3
        odd = not odd
    return bonus


def step_difficulty(step: Step, layout: Layout) -> float:
    """Return one step's value on the scale."""
    base = BASE.get(step.technique, 5.0)
    if step.technique == "Hidden Single" and step.houses:
        kinds = {h.name: h.kind for h in layout.houses}
        if kinds.get(step.houses[0]) == "box":
            base = 1.2
    if step.technique in CHAINS:
        nodes = step.chain.count("=") + step.chain.count("-") + 1 if step.chain else 0
        base += length_bonus(max(nodes, len(step.pattern), len(step.pattern_candidates)))
    return base


SINGLES = frozenset({"Full House", "Naked Single", "Hidden Single"})


def volume_bonus(steps: Sequence[Step]) -> float:
    """Return what a path's length adds: 0.1 for each band (as `length_bonus`) the number of
    its steps beyond singles passes, at most 1.0."""
    return min(length_bonus(sum(s.technique not in SINGLES for s in steps)), 1.0)


def difficulty(steps: Iterable[Step], layout: Layout, solved: bool) -> float:
    """Return a path's value on the scale: its hardest step's, or 11.0 when logic stalled.

    For a variant or another size, the path's length counts too (`volume_bonus`): a killer
    worked cage by cage for forty steps is harder than one cage's sum, though both use the
    same technique; a path logic finishes stays below a stall's 11.0."""
    if not solved:
        return STALLED
    steps = list(steps)
    hardest = max((step_difficulty(s, layout) for s in steps), default=1.0)
    if layout.is_classic and layout.size == 9:
        return round(hardest, 1)
    return round(min(hardest + volume_bonus(steps), STALLED - 0.1), 1)
