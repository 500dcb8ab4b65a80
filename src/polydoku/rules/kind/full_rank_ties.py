"""How full rank readings may tie (ISS `FullRankTies`): by default (ISS's "only-unclued") a
clued reading ties with no other, while unclued readings may tie among themselves.
`full-rank-ties` lets a clued reading tie too, its rank then counting only the readings
strictly lower (1, 2, 2, 4: ISS's "any"); `full-rank-distinct` says no two of the 4N readings
are the same number, clued or not (ISS's "none")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...model.geometry import Cell
from ..base import GlobalRule, values_at, where
from .full_rank import readings


def _reading_pairs(n: int) -> Iterator[tuple[list[Cell], list[Cell]]]:
    """Yield each two readings that could be the same number (a line and its own reverse never
    are: a line's values differ)."""
    all_ = readings(n)
    for i, a in enumerate(all_):
        for b in all_[i + 1:]:
            if a[::-1] != b:
                yield a, b


@dataclass(frozen=True)
class FullRankTies(GlobalRule):
    """A full rank clue may tie with other readings; its rank counts those strictly lower."""

    kind: ClassVar[str] = "full-rank-ties"
    iss: ClassVar[str] = "FullRankTies"
    description: ClassVar[str] = ("a full rank clue's reading may tie with others: its rank "
                                  "counts the readings strictly lower")
    aliases: ClassVar[tuple[str, ...]] = ("full-rank-any-ties",)
    any_values: ClassVar[bool] = True

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        return iter(())          # what it says, the full rank clues read (rules/kind/full_rank.py)

    def lower(self, b) -> None:
        pass

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        """`FullRankTies~any` is this rule; `~only-unclued` is ISS's default, no rule."""
        return cls.kind if args == ["any"] else [] if args == ["only-unclued"] else None

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return ["any"]


@dataclass(frozen=True)
class FullRankDistinct(GlobalRule):
    """No two of the 4N readings of rows and columns (from both ends) are the same number."""

    kind: ClassVar[str] = "full-rank-distinct"
    iss: ClassVar[str] = "FullRankTies"
    description: ClassVar[str] = ("no two rows or columns, each read from both ends, read the "
                                  "same number")
    aliases: ClassVar[tuple[str, ...]] = ("full-rank-no-ties",)
    any_values: ClassVar[bool] = True

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        n = geometry.size
        if 0 in grid[:n * n]:
            return
        for a, b in _reading_pairs(n):
            if values_at(grid, geometry, a) == values_at(grid, geometry, b):
                yield f"the readings {where(a)} and {where(b)} are the same number ({self.kind})"
                return

    def lower(self, b) -> None:
        # per two readings, a state after each step but the last: the same so far (1) or not
        # (2); at the last step, the same so far and equal there is refused
        n = b.size
        values = range(1, b.geometry.nvalues + 1)
        for k, (one, two) in enumerate(_reading_pairs(n)):
            xs, ys = b.vars(one), b.vars(two)
            same = b.new_var(2, f"pair {k + 1} same after 1")
            b.table((xs[0], ys[0], same), [(u, v, 1 if u == v else 2)
                                           for u in values for v in values])
            for j in range(1, n - 1):
                after = b.new_var(2, f"pair {k + 1} same after {j + 1}")
                b.table((same, xs[j], ys[j], after),
                        [(s, u, v, 1 if s == 1 and u == v else 2)
                         for s in (1, 2) for u in values for v in values])
                same = after
            b.table((same, xs[-1], ys[-1]), [(s, u, v) for s in (1, 2) for u in values
                                             for v in values if s == 2 or u != v])

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        return cls.kind if args == ["none"] else None

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return ["none"]


KINDS = (FullRankTies, FullRankDistinct)
