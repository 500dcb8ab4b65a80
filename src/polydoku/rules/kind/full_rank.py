"""Full rank (ISS `FullRank`): every row and column read from each of its two ends is a
number; ranked from the lowest (1) to the highest (4N), a clue gives where its line's
reading stands. A clued reading ties with no other (ISS's default), unless the puzzle has a
`full-rank-ties` rule (rules/kind/full_rank_ties.py): the rank then counts the readings
strictly lower."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from ...model.geometry import Cell
from ..base import SIDES, OutsideRule, values_at
from .hidden_skyscraper import outside_from_iss, outside_to_iss


def readings(n: int) -> list[list[Cell]]:
    """Return the 4N readings of an n x n grid: each row and column, from both ends."""
    out = []
    for k in range(n):
        row = [(k, c) for c in range(n)]
        col = [(r, k) for r in range(n)]
        out += [row, row[::-1], col, col[::-1]]
    return out


@dataclass(frozen=True)
class FullRank(OutsideRule):
    """Seen from the clue, the line's reading is the `rank`-th lowest of all 4N readings."""

    kind: ClassVar[str] = "full-rank"
    iss: ClassVar[str] = "FullRank"
    description: ClassVar[str] = ("the line read from the clue is the rank-th lowest of all "
                                  "rows and columns read from both ends")
    aliases: ClassVar[tuple[str, ...]] = ("fullrank",)
    phrases: ClassVar[tuple[str, ...]] = (r"full rank",)
    value_field: ClassVar[str] = "rank"
    any_values: ClassVar[bool] = True       # readings compare by order, the same on any run

    @classmethod
    def value_range(cls, n: int) -> tuple[int, int]:
        return 1, 4 * n

    def lower(self, b) -> None:
        # each other reading is compared with this one cell by cell: a state per step says
        # equal so far (1), lower (2) or higher (3); k - 1 of them end lower, and none equal
        # unless ties are allowed (then the last state is lower (2) or not (1))
        n = b.size
        free = ties_allowed(b.rules)
        mine = self.line(n)
        xs = b.vars(mine)
        b.unary(xs[0], lambda v: v == (self.value + 3) // 4)
        values = range(1, b.geometry.nvalues + 1)
        finals = []
        for k, other in enumerate(r for r in readings(n) if r != mine):
            ys = b.vars(other)
            state = None
            for j, (y, x) in enumerate(zip(ys, xs)):
                last = free and j == n - 1
                after = b.new_var(2 if last else 3, f"reading {k + 1} against it after {j + 1}")
                ends = (lambda s: 2 if s == 2 else 1) if last else (lambda s: s)
                if state is None:
                    b.table((y, x, after), [(c, a, ends(_step(1, c, a))) for c in values
                                            for a in values])
                else:
                    b.table((state, y, x, after),
                            [(s, c, a, ends(_step(s, c, a))) for s in (1, 2, 3) for c in values
                             for a in values])
                state = after
            if not free:
                b.unary(state, lambda s: s != 1)
            finals.append(state)
        lower = self.value - 1
        rest = 1 if free else 3
        b.linear(finals, [1] * len(finals), 2 * lower + rest * (len(finals) - lower))

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        n = geometry.size
        if 0 in grid[:n * n]:
            return
        mine = values_at(grid, geometry, self.line(n))
        others = [values_at(grid, geometry, r) for r in readings(n) if r != self.line(n)]
        if mine in others and not ties_allowed(rules):
            yield f"the full rank clue {self.place()} reads the same as another line"
            return
        rank = 1 + sum(o < mine for o in others)
        if rank != self.value:
            yield f"the full rank clue {self.place()} ranks {rank}, not {self.value}"

    @classmethod
    def sample(cls, rng, size: int) -> dict[str, Any]:
        return {"kind": cls.kind, "side": rng.choice(SIDES), "index": rng.randint(1, size),
                "rank": rng.randint(1, 4 * size)}

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> list[dict[str, Any]]:
        return outside_from_iss(cls, name, args)

    def write_iss(self, n: int, cell) -> list[str]:
        return outside_to_iss(self)


def ties_allowed(rules) -> bool:
    """Return whether the rules let a full rank clue tie (a `full-rank-ties` rule among them)."""
    return any(getattr(r, "kind", "") == "full-rank-ties" for r in rules)


def _step(state: int, other: int, mine: int) -> int:
    """Return the comparison's state after one more cell (1 equal so far, 2 lower, 3 higher)."""
    if state != 1:
        return state
    return 1 if other == mine else 2 if other < mine else 3


KINDS = (FullRank,)
