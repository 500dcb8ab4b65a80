"""Alternatives, as ISS's `Or`: at least one of the options holds, each option a list of
rules that all hold (ISS's `And`, or one rule alone). ISS writes them `.Or.<option>…End`, an
option of several rules `.And.<rules>.End`, and a given inside one is a candidate given.

Lowered as one table over the cells the options read: every filling of them that some
option allows (`problem/choice.py` lists them, bounded; a larger or is refused by name).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from ...errors import BadInput
from ...model.geometry import Cell, Geometry, cell_name
from ...model.puzzle import grid_refusal
from ...model.rules import Rule, Shape

MOST_OPTIONS = 32
MOST_DEPTH = 3          # an or inside an or inside an or


@dataclass(frozen=True)
class Either(Rule):
    """At least one option (a tuple of rules) holds."""

    options: tuple[tuple[Rule, ...], ...] = ()

    kind: ClassVar[str] = "or"
    iss: ClassVar[str] = "Or"
    description: ClassVar[str] = "at least one of the options holds (each option all its rules)"
    aliases: ClassVar[tuple[str, ...]] = ("either", "any-of")
    any_values: ClassVar[bool] = True       # what each option's rules say they read
    any_count: ClassVar[bool] = True
    any_shape: ClassVar[bool] = True

    @classmethod
    def from_data(cls, data: dict[str, Any], geometry: Geometry, depth: int = 0) -> "Either":
        from ..registry import rule_from_data
        raw = data.get("options")
        if not isinstance(raw, list) or not 1 <= len(raw) <= MOST_OPTIONS:
            raise BadInput(f"field \"options\" must be a list of 1 to {MOST_OPTIONS} options, "
                           f"each a rule or a list of rules")
        if depth >= MOST_DEPTH:
            raise BadInput(f"options nest more than {MOST_DEPTH} deep")
        options = []
        for k, option in enumerate(raw):
            items = option if isinstance(option, list) else [option]
            if not 1 <= len(items) <= MOST_OPTIONS:
                raise BadInput(f"option {k + 1}: 1 to {MOST_OPTIONS} rules")
            rules: list[Rule] = []
            for j, item in enumerate(items):
                try:
                    if isinstance(item, dict) and item.get("kind") in (cls.kind, *cls.aliases):
                        rules.append(cls.from_data(item, geometry, depth + 1))
                    else:
                        rules.append(rule_from_data(item, geometry, j))
                except BadInput as err:
                    raise BadInput(f"option {k + 1}, {err.reason}") from None
            options.append(tuple(rules))
        return cls(tuple(options))

    def to_data(self) -> dict[str, Any]:
        return {"kind": self.kind, "options": [[r.to_data() for r in option]
                                               for option in self.options]}

    def rules(self) -> Iterator[Rule]:
        """Yield every rule of every option."""
        for option in self.options:
            yield from option

    def footprint(self) -> tuple[Cell, ...]:
        return tuple(dict.fromkeys(c for r in self.rules() for c in r.footprint()))

    def refusal(self, geometry: Geometry) -> str | None:
        for r in self.rules():
            why = grid_refusal(r, geometry)
            if why:
                return f"its {r.kind}: {why}"
        return None

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        if 0 in grid:
            return                          # an option may still come to hold
        if not any(all(not any(r.violations(grid, geometry, rules)) for r in option)
                   for option in self.options):
            yield f"none of the {len(self.options)} options of the {self.describe(geometry)} holds"

    def lower(self, b) -> None:
        b.any_of(self.options)

    def describe(self, geometry: Geometry) -> str:
        cells = self.footprint()
        return f"or at {cell_name(cells[0])}" if cells else "or"

    def shapes(self, geometry: Geometry) -> list[Shape]:
        return [sh for r in self.rules() for sh in r.shapes(geometry)]

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell: Callable[[str], str]) -> Any:
        raise BadInput("an Or is read with the items up to its End")

    def iss_items_on(self, geometry: Geometry, cell: Callable[[Cell], str]) -> list[str]:
        """One item that holds the whole or: `Or.<option>….End` (the writer adds the dot
        before it), an option of several rules as `And.<rules>.End`."""
        parts = ["Or"]
        for option in self.options:
            items = [item for r in option for item in r.iss_items_on(geometry, cell)]
            parts += ["And", *items, "End"] if len(items) > 1 else items
        return [".".join(parts + ["End"])]

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return self.iss_items_on(Geometry.of_size(n), cell)

    @classmethod
    def sample(cls, rng: Any, size: int) -> dict[str, Any]:
        """Two or three options over two neighbouring cells (a small table on any grid)."""
        r, c = rng.randrange(size), rng.randrange(size - 1)
        a, b = cell_name((r, c)), cell_name((r, c + 1))
        makers = (
            lambda: {"kind": "candidates", "cells": [rng.choice((a, b))],
                     "values": [rng.randint(1, size)]},
            lambda: {"kind": "kropki-white", "cells": [a, b]},
            lambda: {"kind": "kropki-black", "cells": [a, b]},
            lambda: {"kind": "thermometer", "cells": [a, b][::rng.choice((1, -1))]},
            lambda: {"kind": "killer", "cells": [a, b], "sum": rng.randint(3, 2 * size - 1)},
            lambda: [{"kind": "candidates", "cells": [a], "values": [rng.randint(1, size)]},
                     {"kind": "candidates", "cells": [b], "values": [rng.randint(1, size)]}],
        )
        return {"kind": cls.kind, "options": [rng.choice(makers)()
                                              for _ in range(rng.randint(2, 3))]}


KINDS = (Either,)
