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
    puzzle = lay.problem.puzzle if lay.problem is not None else None
    if puzzle is None:
        return None
    rules = [r for r in puzzle.rules if r.technique == technique]
    if not rules:
        return None
    n = lay.size
    cands = [1 << (v - 1) if v else c for v, c in zip(board.value, board.cand)]
    for rule in rules:
        found = rule.deduce(puzzle.geometry, cands)
        if found is None:
            continue
        drop, reason = found
        elim = [(i, v) for i, mask in sorted(drop.items()) if not board.value[i]
                for v in range(1, n + 1) if mask >> (v - 1) & 1 and board.cand[i] >> (v - 1) & 1]
        if elim:
            cells = [puzzle.geometry.index(c) for c in rule.logic_cells(puzzle.geometry)]
            return make_step(lay, technique, reason, eliminations=elim, pattern=cells)
    return None
