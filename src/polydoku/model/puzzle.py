"""The puzzle: a geometry, its givens and its variant rules.

Givens (and every grid of the puzzle) hold value indices 1..N, 0 for empty; the values they
stand for are the geometry's (`Geometry.low`: 1..N, or 0..N-1 for a "0-indexed" grid), written
with `alphabet` (default: the values' own digits, 0-9 then A-Z). A rule kind whose statement
is arithmetic reads the values themselves (`Geometry.real`); a kind that does not yet
(`Rule.any_values` False and values other than 1..N) is refused by name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Iterable

from ..errors import BadInput
from ..text import clean_name, one_line
from .geometry import Cell, Geometry, cell_name
from .rules import Rule

SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"     # the symbol of each value 0..35
_RESERVED = "#:.0'\"`$\\<>&;|"       # never symbols: comments, empty cells, quoting, shells


def default_alphabet(size: int, low: int = 1) -> str:
    """Return the symbols for values low..low+size-1 (1..size by default): 0-9, then A-Z."""
    return DIGITS[low:low + size]


@lru_cache(maxsize=64)
def _check_alphabet(alphabet: str, n: int, low: int = 1) -> None:
    """Raise BadInput unless the alphabet has n distinct symbols fit for every format (checked
    once per alphabet and size: every puzzle of a file has the same). '0' is a symbol only of
    a grid holding the value 0 (elsewhere it is an empty cell)."""
    if len(alphabet) != n or len(set(alphabet)) != n:
        raise BadInput(f"alphabet {one_line(alphabet)!r} must have {n} distinct symbols")
    reserved = _RESERVED.replace("0", "") if low == 0 else _RESERVED
    if any(not ch.isprintable() or ch.isspace() or ch in reserved for ch in alphabet):
        raise BadInput(f"alphabet {one_line(alphabet)!r}: symbols must be printable, "
                       "not space, '#', ':', '.', '0', quotes or shell characters")


def grid_refusal(rule: Rule, g: Geometry) -> str | None:
    """Return why a rule's kind is not read on this grid (its values, its shape, more values
    than a house has cells, or the kind's own `refusal`), or None."""
    if g.low != 1 and not rule.any_values:
        return f"polydoku reads this kind on values 1..{g.size} only, not {g.values_words()}"
    if not g.is_square and not rule.any_shape:
        return f"polydoku reads this kind on square grids only, not {g.shape_words()}"
    why = rule.refusal(g)
    if why:
        return why
    if g.more_values and not rule.any_count:
        return (f"polydoku reads this kind on grids whose houses hold every value, not "
                f"{g.nvalues} values on {g.size} cells")
    return None


@dataclass(frozen=True)
class Puzzle:
    """A grid geometry, givens (0 = empty, row-major) and variant rules."""

    geometry: Geometry
    givens: tuple[int, ...]
    rules: tuple[Rule, ...] = ()
    alphabet: str = ""
    name: str | None = None

    def __post_init__(self) -> None:
        nv = self.geometry.nvalues
        if self.name is not None:
            if not isinstance(self.name, str):
                raise BadInput(f"the puzzle's name must be text, not {type(self.name).__name__}")
            object.__setattr__(self, "name", clean_name(self.name) or None)
        g = self.geometry
        if not self.alphabet:
            object.__setattr__(self, "alphabet", default_alphabet(nv, g.low))
        _check_alphabet(self.alphabet, nv, g.low)
        if len(self.givens) != self.geometry.ncells:
            raise BadInput(f"{len(self.givens)} cells given, expected {self.geometry.ncells}")
        if self.givens and not 0 <= min(self.givens) <= max(self.givens) <= nv:
            for i, v in enumerate(self.givens):
                if not 0 <= v <= nv:
                    raise BadInput(f"{cell_name(self.geometry.cell(i))}: value {v} is outside "
                                   f"1..{nv}")
        for k, rule in enumerate(self.rules):
            for r, c in rule.footprint():
                if not self.geometry.in_grid(r, c):
                    raise BadInput(f"rule {k + 1} ({rule.kind}): {cell_name((r, c))} is outside "
                                   f"the {g.shape_words()} grid")
            why = grid_refusal(rule, g)
            if why:
                raise BadInput(f"rule {k + 1} ({rule.kind}): {why}")

    @classmethod
    def empty(cls, size: int = 9, rules: tuple[Rule, ...] = ()) -> "Puzzle":
        """Return an empty puzzle of `size` with the default box shape."""
        geometry = Geometry.of_size(size)
        return cls(geometry, (0,) * geometry.ncells, rules)

    @property
    def size(self) -> int:
        """Return N, the grid's side."""
        return self.geometry.size

    def given_cells(self) -> list[tuple[Cell, int]]:
        """Return each given as ((row, col), value), row-major."""
        return [(self.geometry.cell(i), v) for i, v in enumerate(self.givens) if v]

    def given_names(self) -> list[str]:
        """Return each given written `r4c5=6`, row-major."""
        return [f"{cell_name(cell)}={self.symbol(v)}" for cell, v in self.given_cells()]

    def with_givens(self, givens: Iterable[int]) -> "Puzzle":
        """Return the same puzzle with other givens."""
        return replace(self, givens=tuple(givens))

    def with_given(self, cell: Cell, value: int) -> "Puzzle":
        """Return the puzzle with one more given (replacing whatever the cell held)."""
        givens = list(self.givens)
        givens[self.geometry.index(cell)] = value
        return self.with_givens(givens)

    def with_rules(self, rules: tuple[Rule, ...]) -> "Puzzle":
        """Return the puzzle under other rules."""
        return replace(self, rules=tuple(rules))

    def symbol(self, value: int, empty: str = ".") -> str:
        """Return the symbol of a value (0 gives `empty`)."""
        return self.alphabet[value - 1] if value else empty
