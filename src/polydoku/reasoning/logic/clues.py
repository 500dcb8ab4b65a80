"""The rule kinds' own logic: each kind that names a technique (`Rule.technique`, such as the
killer cage's "Killer Cage") deduces from its clue and the candidates what it alone rules out
(`Rule.deduce`, in the kind's module). Kinds without one are filtered by Constraint
Propagation instead. Finders return the first step they see, or None; none changes the board.
"""

from __future__ import annotations

from ...rules import KINDS
from .board import Board
from .step import Step, make_step

# the techniques the rule kinds name, in the order of the kinds' registry
TECHNIQUES: tuple[str, ...] = tuple(dict.fromkeys(k.technique for k in KINDS.values()
                                                  if k.technique))


def find_rule_step(board: Board, technique: str) -> Step | None:
    """Return the first step of `technique` that one of the puzzle's rules deduces."""
    lay = board.layout
    puzzle = lay.puzzle
    if puzzle is None:
        return None
    rules = [r for r in puzzle.rules if r.technique == technique]
    if not rules:
        return None
    cands = board.value_masks()
    for rule in rules:
        found = rule.deduce(puzzle.geometry, cands)
        if found is None:
            continue
        drop, reason = found
        elim = board.losses(drop)
        if elim:
            cells = [puzzle.geometry.index(c) for c in rule.logic_cells(puzzle.geometry)]
            return make_step(lay, technique, reason, eliminations=elim, pattern=cells)
    return None
