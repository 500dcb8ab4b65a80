"""Hidden skyscrapers (ISS `HiddenSkyscraper`): values are heights, and seen from the clue's
side the first height hidden behind a taller one before it is the clue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from ...model.geometry import Cell, Geometry
from ..base import SIDES, OutsideRule, span, values_at


def first_hidden(vals: list[int]) -> int:
    """Return the first value of a full line lower than some value before it (0: none)."""
    top = 0
    for v in vals:
        if v < top:
            return v
        top = v
    return 0


@dataclass(frozen=True)
class HiddenSkyscraper(OutsideRule):
    """Seen from the clue, the first value smaller than the highest before it is the clue."""

    kind: ClassVar[str] = "hidden-skyscraper"
    # ISS `HiddenSkyscraper~R2~left~right` (an outside clue's line and both sides): named once
    # the ISS reader lays out a kind's outside clues from its own hooks
    iss: ClassVar[str] = ""
    description: ClassVar[str] = ("seen from the clue, the first value hidden behind a higher "
                                  "one is the clue")
    aliases: ClassVar[tuple[str, ...]] = ("hiddenskyscraper", "hidden-skyscrapers",
                                          "first-hidden")
    phrases: ClassVar[tuple[str, ...]] = (r"hidden skyscraper", r"first hidden")
    value_field: ClassVar[str] = "value"

    @classmethod
    def value_range(cls, n: int) -> tuple[int, int]:
        return 1, n - 1

    def lower(self, b) -> None:
        # a state per cell: 1..N = nothing hidden yet, the highest so far; N+1 = the first
        # hidden value was the clue (then anything may follow)
        n, clue, done = b.size, self.value, b.size + 1
        xs = b.vars(self.line(n))
        state = xs[0]
        for j, x in enumerate(xs[1:], start=2):
            after = b.new_var(done, f"state after cell {j}")
            rows = [(done, a, done) for a in range(1, n + 1)] if j > 2 else []
            for top in range(1, n + 1):
                for a in range(1, n + 1):
                    if a > top:
                        rows.append((top, a, a))
                    elif a == clue and a < top:
                        rows.append((top, a, done))
            b.table((state, x, after), rows)
            state = after
        b.unary(state, lambda s: s == done)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        vals = values_at(grid, geometry, self.line(geometry.size))
        if 0 in vals:
            return
        hidden = first_hidden(vals)
        if hidden != self.value:
            what = f"is {hidden}" if hidden else "does not exist"
            yield f"the first hidden skyscraper {self.place()} {what}, not {self.value}"

    # the step "Hidden Skyscraper" waits for the technique catalogue to read a kind's own score
    technique: ClassVar[str] = ""
    technique_score: ClassVar[int] = 40
    technique_level: ClassVar[str] = "Medium"

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        return tuple(self.line(geometry.size))

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Until the clue can first be hidden, each cell must rise above the lowest the cell
        before it can hold (or be the clue, behind a higher one); once nothing can rise any
        more the clue has been placed, so it leaves the later cells; the first cell, always
        seen, never holds it."""
        idx = [geometry.index(c) for c in self.line(geometry.size)]
        target = 1 << (self.value - 1)
        masks = [cands[i] for i in idx]
        masks[0] &= ~target
        rising, found, k = masks[0], False, 1
        while k < len(masks) and rising:
            m = masks[k]
            higher = ~span(1, (rising & -rising).bit_length())
            if not found:
                if m & target and rising & ~span(1, self.value):
                    found = True
                else:
                    m &= ~target
                m &= higher | target
            masks[k] = m
            rising = m & ~target & higher
            k += 1
        if not found:
            masks = [0] * len(masks)
        for j in range(k, len(masks)):
            masks[j] &= ~target
        drop = {i: cands[i] & ~m for i, m in zip(idx, masks) if cands[i] & ~m}
        if not drop:
            return None
        return drop, (f"the first hidden skyscraper {self.place()} is {self.value}: the "
                      f"values before it rise, and it hides behind a higher one")

    @classmethod
    def sample(cls, rng, size: int) -> dict[str, Any]:
        return {"kind": cls.kind, "side": rng.choice(SIDES), "index": rng.randint(1, size),
                "value": rng.randint(1, size - 1)}


KINDS = (HiddenSkyscraper,)
