"""State-machine lines (ISS `NFA`): the values along the line, read in order, are accepted by
an automaton given in ISS's compact form (rules/iss_automaton.py), symbol k being the grid's
k-th value. Lowered as the regex kind's lines are: the automaton unfolded along the line,
deterministic and minimal per step (rules/automaton.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from ...errors import BadInput
from ...model.geometry import Cell
from ..automaton import Automaton
from ..iss_automaton import read_form, write_form
from ..lines import random_line
from .regex import AutomatonLine


@dataclass(frozen=True)
class Nfa(AutomatonLine):
    """An automaton (`automaton`, ISS's compact form) accepts the line's values in order."""

    kind: ClassVar[str] = "nfa"
    iss: ClassVar[str] = "NFA"
    description: ClassVar[str] = ("the values along the line, read in order, are accepted by "
                                  "a state machine (ISS's compact form)")
    aliases: ClassVar[tuple[str, ...]] = ("state-machine",)
    field: ClassVar[str] = "automaton"
    line_style: ClassVar[str] = "nfa"
    drawn_colour: ClassVar[str] = "#8c6d31"

    @classmethod
    def compile(cls, source: str, low: int, nvalues: int) -> tuple[Automaton, int]:
        return read_form(source)

    @classmethod
    def sample(cls, rng, size: int) -> dict[str, Any]:
        line = random_line(rng, size, rng.randint(1, min(size, 5)))
        return {"kind": cls.kind, "automaton": random_form(rng, size), "cells": line}

    @classmethod
    def iss_rules(cls, name: str, args: list[str], n: int, cell) -> list[dict[str, Any]]:
        """`NFA~<form>~_name~cells~~cells`: one line per group of cells (names are labels,
        not kept)."""
        if not args or not args[0]:
            raise BadInput("a state machine needs its automaton")
        return [{"kind": cls.kind, "automaton": args[0], "cells": g}
                for g in cls.iss_groups(args[1:], cell)]

    def write_iss(self, n: int, cell: Callable[[Cell], str]) -> list[str]:
        return [self.source, *(cell(c) for c in self.cells)]


def random_form(rng, size: int) -> str:
    """Return the ISS form of a random automaton of a few states over the values 1..size:
    states numbered as the form numbers them (starts, then the other accepting states)."""
    n = rng.randint(1, 4)
    starts = list(range(rng.randint(1, min(2, n))))
    accepts = {s for s in starts if rng.random() < 0.3}
    accepts |= set(range(len(starts), len(starts) + rng.randint(0, n - len(starts))))
    if not accepts:
        accepts = {0}
    moves: list[dict[int, set[int]]] = [{} for _ in range(n)]
    for _ in range(rng.randint(n, 3 * n * size // 2)):
        moves[rng.randrange(n)].setdefault(rng.randint(1, size), set()).add(rng.randrange(n))
    return write_form(moves, starts, accepts, size)


KINDS = (Nfa,)
