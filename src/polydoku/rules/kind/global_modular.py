"""Global modular: every 2x2 square of the grid holds values of all three classes modulo 3
(ISS's GlobalMod: a value of 1, 4, 7, one of 2, 5, 8 and one of 3, 6, 9)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...model.geometry import Geometry
from .global_entropy import ThreeClassSquares


@dataclass(frozen=True)
class GlobalModular(ThreeClassSquares):
    """Every 2x2 square holds a value of each remainder modulo 3."""

    kind: ClassVar[str] = "global-modular"
    any_count: ClassVar[bool] = True
    iss: ClassVar[str] = "GlobalMod"
    description: ClassVar[str] = "every 2x2 square holds values of all three remainders modulo 3"
    aliases: ClassVar[tuple[str, ...]] = ("global-mod", "global-mod-3", "modular-squares")
    phrases: ClassVar[tuple[str, ...]] = (
        r"global mod(ular|ulo)?\b",
        r"(every|each|any) 2 ?x ?2 (box|square|region|area)[^.]*1, ?4,? (and|or)? ?7",
    )
    class_words: ClassVar[tuple[str, str, str]] = ("1/4/7 (remainder 1)", "2/5/8 (remainder 2)",
                                                   "3/6/9 (remainder 0)")

    def value_class(self, v: int, n: int) -> int:
        return (v - 1) % 3

    def class_word(self, c: int, geometry: Geometry) -> str:
        """Return class c's values and their remainder ("1/4/7 (remainder 1)")."""
        vals = [geometry.real(v) for v in range(1, geometry.nvalues + 1) if (v - 1) % 3 == c]
        return f"{'/'.join(map(str, vals))} (remainder {vals[0] % 3})"


KINDS = (GlobalModular,)
