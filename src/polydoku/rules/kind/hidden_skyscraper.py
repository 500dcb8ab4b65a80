"""Hidden skyscrapers (ISS `HiddenSkyscraper`): values are heights, and seen from the clue's
side the first height hidden behind a taller one before it is the clue."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry
from .. import params
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
    iss: ClassVar[str] = "HiddenSkyscraper"
    any_values: ClassVar[bool] = True       # the clue is a value; the rest reads order
    iss_zero: ClassVar[bool] = True         # a clue of 0 on a grid of 0..N-1
    description: ClassVar[str] = ("seen from the clue, the first value hidden behind a higher "
                                  "one is the clue")
    aliases: ClassVar[tuple[str, ...]] = ("hiddenskyscraper", "hidden-skyscrapers",
                                          "first-hidden")
    phrases: ClassVar[tuple[str, ...]] = (r"hidden skyscraper", r"first hidden")
    value_field: ClassVar[str] = "value"

    @classmethod
    def value_range(cls, n: int) -> tuple[int, int]:
        return 1, n

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry) -> "HiddenSkyscraper":
        """The clue is one of the grid's values. Nothing hides the highest, so a clue of it
        never holds; ISS takes it all the same (an option of an `or` that is never chosen)."""
        side = params.choice(data, "side", SIDES)
        index = params.integer(data, "index", 1, geometry.size) - 1
        low, high = (geometry.real(v) for v in cls.value_range(geometry.size))
        return cls(side, index, params.integer(data, cls.value_field, low, high))

    def lower(self, b) -> None:
        # a state per cell: 1..N = nothing hidden yet, the highest so far; N+1 = the first
        # hidden value was the clue (then anything may follow)
        n, clue, done = b.size, self.value - b.geometry.offset, b.size + 1
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
        if not hidden or geometry.real(hidden) != self.value:
            what = f"is {geometry.real(hidden)}" if hidden else "does not exist"
            yield f"the first hidden skyscraper {self.place()} {what}, not {self.value}"

    technique: ClassVar[str] = "Hidden Skyscraper"
    technique_score: ClassVar[int] = 40
    technique_level: ClassVar[str] = "Medium"

    def logic_cells(self, geometry: Geometry) -> tuple[Cell, ...]:
        return tuple(self.line(geometry.size))

    def deduce(self, geometry, cands) -> tuple[dict[int, int], str] | None:
        """Until the clue can first be hidden, each cell must rise above the lowest the cell
        before it can hold (or be the clue, behind a higher one); once nothing can rise any
        more the clue has been placed, so it leaves the later cells; the first cell, always
        seen, never holds it (on values 1..N; others are left to Constraint Propagation)."""
        if geometry.low != 1:
            return None
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

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> list[dict[str, Any]]:
        return outside_from_iss(cls, name, args)

    def write_iss(self, n: int, cell) -> list[str]:
        return outside_to_iss(self)


def outside_from_iss(cls, name: str, args: list[str]) -> list[dict[str, Any]]:
    """Return the clues of an ISS outside item `R4~left~right` (`C2~top~bottom`), either
    clue empty, as JSON data of kind `cls`."""
    args = args + [""] * (3 - len(args))
    if len(args) != 3 or not re.fullmatch(r"[RC]\d{1,2}", args[0]):
        raise BadInput(f"{name} takes a row or column (R4, C2) and two clues")
    is_row, index = args[0][0] == "R", int(args[0][1:])
    out = []
    for value, side in ((args[1], "left" if is_row else "top"),
                        (args[2], "right" if is_row else "bottom")):
        if value:
            if not value.isdigit() or len(value) > 4:
                raise BadInput(f"{name}: clue {value[:10]!r} is not a number")
            out.append({"kind": cls.kind, "side": side, "index": index,
                        cls.value_field: int(value)})
    return out


def outside_to_iss(rule: OutsideRule) -> list[str]:
    """Return an outside clue's ISS arguments: its row or column, then the clue on its side."""
    head = f"R{rule.index + 1}" if rule.side in ("left", "right") else f"C{rule.index + 1}"
    ahead = rule.side in ("left", "top")
    return [head, str(rule.value) if ahead else "", "" if ahead else str(rule.value)]


KINDS = (HiddenSkyscraper,)
