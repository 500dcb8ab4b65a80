"""Shared pieces of the model engines and exporters: a cache of built base models, the
constraint kinds a model language takes, and a readable grouping of a problem's constraints.

Pure helpers: no subprocesses, no files (runners and exporters do that).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ...problem import AbsDiffNot, AllDifferent, Nogood, Problem, Table, lower
from ...text import label

# The kinds every model encoder here writes natively; anything else is lowered first.
MODEL_KINDS = frozenset({AllDifferent, AbsDiffNot, Nogood, Table})


def in_kinds(problem: Problem, kinds: Iterable[type] = MODEL_KINDS) -> Problem:
    """Return the problem with any constraint outside `kinds` lowered (unchanged when none is)."""
    kinds = frozenset(kinds)
    return problem if problem.kinds() <= kinds else lower(problem, kinds)


class ModelCache:
    """Base models built once per (geometry, rules), i.e. per constraint tuple object.

    Puzzles of one geometry and rules share one constraint tuple (`build_problem` caches it),
    so an engine builds its model once and adds each puzzle's givens as assumptions.
    """

    def __init__(self, build: Callable[[Problem], Any], size: int = 8):
        self.build = build
        self.size = size
        self._items: OrderedDict[int, tuple[tuple, Any]] = OrderedDict()

    def get(self, problem: Problem) -> tuple[Any, float]:
        """Return the base model of a problem and the seconds spent building it (0.0 on a hit)."""
        key = id(problem.constraints)
        hit = self._items.get(key)
        if hit is not None and hit[0] is problem.constraints:
            self._items.move_to_end(key)
            return hit[1], 0.0
        t0 = time.perf_counter()
        model = self.build(problem)
        seconds = time.perf_counter() - t0
        self._items[key] = (problem.constraints, model)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return model, seconds

    def clear(self) -> None:
        """Forget every built model."""
        self._items.clear()


@dataclass
class Group:
    """Constraints of one kind and one label, for writing a model a person can read."""

    kind: type
    label: str
    items: list = field(default_factory=list)

    @property
    def unit(self) -> str:
        """Return the classic unit the group is (row, column or box), or "" for any other."""
        origin = self.items[0].origin if self.items else None
        return origin.kind if origin is not None and origin.unit and origin.kind != "region" else ""

    @property
    def name(self) -> str:
        """Return the label as an identifier (`anti-knight` -> `anti_knight`)."""
        out = "".join(ch if ch.isalnum() else "_" for ch in self.label.lower()).strip("_")
        return out or "constraint"


def groups(problem: Problem) -> list[Group]:
    """Return the constraints in order, consecutive pairs and nogoods of one label grouped.

    AllDifferent over more than two variables (rows, columns, boxes, diagonals) stays one
    group each; two-variable AllDifferent (anti-knight, anti-king), AbsDiffNot and Nogood
    constraints of one label become one group each, since a person reads them as one rule.
    """
    out: list[Group] = []
    by_key: dict[tuple[type, str, int], Group] = {}
    for c in problem.constraints:
        if isinstance(c, AllDifferent) and len(c.vars) > 2 or isinstance(c, Table):
            out.append(Group(type(c), c.label, [c]))
            continue
        key = (type(c), c.label, getattr(c, "d", 0))
        if key not in by_key:
            by_key[key] = Group(type(c), c.label)
            out.append(by_key[key])
        by_key[key].items.append(c)
    return out


def readme(title: str, what: str, commands: list[tuple[str, str]], notes: str = "") -> str:
    """Return the README.md text of an export: what the files are and the commands to run."""
    lines = [f"# {title}", "", what, ""]
    for say, cmd in commands:
        lines += [say, "", "```sh", cmd, "```", ""]
    if notes:
        lines += [notes, ""]
    return "\n".join(lines)


def puzzle_title(problem: Problem) -> str:
    """Return a one-line description of the puzzle behind a problem."""
    p = problem.puzzle
    if p is None:
        return f"{problem.size}x{problem.size} problem"
    g = p.geometry
    rules = ", ".join(r.name for r in p.rules) or "classic rules"
    name = f"{label(p.name)}: " if p.name else ""
    return f"{name}{g.size}x{g.size}, boxes {g.box_rows}x{g.box_cols}, {rules}, {len(problem.givens)} givens"
