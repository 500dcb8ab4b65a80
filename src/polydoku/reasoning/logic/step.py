"""A step of a logical solve, as data: the technique, the pattern it uses, what it concludes.

Finders build steps with `make_step`, which writes the one sentence a person reads from the
finder's reason and the step's conclusions; `apply_step` makes a step's changes on a board.
Nothing here finds steps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from .board import Board, Layout
from .catalog import level_of, score_of

Cand = tuple[int, int]          # (cell, value)


@dataclass(frozen=True)
class Step:
    """One move: a technique's placements and eliminations, the pattern behind them, a sentence."""

    technique: str
    placements: tuple[Cand, ...]
    eliminations: tuple[Cand, ...]
    pattern: tuple[int, ...]            # the cells the pattern uses
    pattern_candidates: tuple[Cand, ...]
    houses: tuple[str, ...]
    text: str                           # "Hidden Single: in box 5, 7 can only go in r5c6"
    chain: str = ""                     # a chain in Eureka notation, for chain techniques

    def to_json(self, layout: Layout) -> dict[str, Any]:
        """Return the step as a JSON-ready dict (cells written r1c6, values as numbers)."""
        def cands(items: Iterable[Cand]) -> list[dict[str, Any]]:
            return [{"cell": layout.name(i), "value": v} for i, v in items]

        data = {"technique": self.technique, "score": score_of(self.technique),
                "level": level_of(self.technique), "text": self.text,
                "placements": cands(self.placements), "eliminations": cands(self.eliminations),
                "pattern": [layout.name(i) for i in self.pattern],
                "pattern_candidates": cands(self.pattern_candidates), "houses": list(self.houses)}
        if self.chain:
            data["chain"] = self.chain
        return data


def cell_list(layout: Layout, cells: Iterable[int], last: str = "and") -> str:
    """Return cells written "r1c1, r1c5 and r2c3" (or "... or r2c3" with last="or")."""
    names = [layout.name(i) for i in sorted(set(cells))]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {last} " + names[-1]


def value_list(layout: Layout, values: Iterable[int], joiner: str = "/") -> str:
    """Return values written "3/5/7" (or "3, 5 or 7" with joiner=" or ")."""
    syms = [layout.sym(v) for v in sorted(set(values))]
    if joiner == " or " and len(syms) > 2:
        return ", ".join(syms[:-1]) + " or " + syms[-1]
    return joiner.join(syms)


def conclusion(layout: Layout, placements: Iterable[Cand], eliminations: Iterable[Cand]) -> str:
    """Return what a step concludes, in words: "r5c6 is 7; r1c1 and r2c1 cannot be 5"."""
    parts = [f"{layout.name(i)} is {layout.sym(v)}" for i, v in placements]
    by_value: dict[int, list[int]] = {}
    for i, v in eliminations:
        by_value.setdefault(v, []).append(i)
    by_cells: dict[tuple[int, ...], list[int]] = {}
    for v in sorted(by_value):
        by_cells.setdefault(tuple(sorted(by_value[v])), []).append(v)
    for cells, values in by_cells.items():
        parts.append(f"{cell_list(layout, cells)} cannot be {value_list(layout, values, ' or ')}")
    return "; ".join(parts)


def make_step(layout: Layout, technique: str, reason: str, *,
              placements: Iterable[Cand] = (), eliminations: Iterable[Cand] = (),
              pattern: Iterable[int] = (), pattern_candidates: Iterable[Cand] = (),
              houses: Iterable[str] = (), chain: str = "", say_conclusion: bool = True) -> Step:
    """Return a step whose sentence is "Technique: reason, so conclusion"."""
    placements = tuple(sorted(set(placements)))
    eliminations = tuple(sorted(set(eliminations)))
    text = f"{technique}: {reason}"
    if say_conclusion:
        text += f", so {conclusion(layout, placements, eliminations)}"
    pattern_candidates = tuple(sorted(set(pattern_candidates)))
    cells = tuple(sorted(set(pattern) | {i for i, _ in pattern_candidates}))
    return Step(technique, placements, eliminations, cells, pattern_candidates,
                tuple(dict.fromkeys(houses)), text, chain)


def apply_step(board: Board, step: Step) -> None:
    """Apply a step's placements and eliminations to the board."""
    for cell, v in step.placements:
        if not board.value[cell]:
            board.place(cell, v)
    for cell, v in step.eliminations:
        board.eliminate(cell, v)


def cands_of_mask(layout: Layout, mask: int) -> list[Cand]:
    """Return the (cell, value) pairs of a candidate bitset."""
    n, out = layout.size, []
    while mask:
        low = mask & -mask
        cell, v = divmod(low.bit_length() - 1, n)
        out.append((cell, v + 1))
        mask ^= low
    return out
