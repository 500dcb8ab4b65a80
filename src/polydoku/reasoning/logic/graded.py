"""Graded hints: the next logical move told a little at a time, for a person playing.

Four grades, each telling more than the one before:

- **nudge**: where to look (one house: a row, column, box or region);
- **technique**: where to look and the technique's name;
- **cells**: the technique and the cells its pattern uses;
- **answer**: the move itself, what it places and what it removes.

`graded(step, layout, level)` returns what a grade shows as a sentence, the cells to
highlight and the candidates to strike, so that the terminal, the JSON output and the
pictures tell the same amount.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .board import Layout
from .step import Step, cell_list

GRADES = ("nudge", "technique", "cells", "answer")


@dataclass(frozen=True)
class Graded:
    """What one grade of a hint shows."""

    grade: str
    text: str
    house: str | None                       # the house to look at
    house_cells: tuple[int, ...]            # its cells (or the pattern's, with no house)
    highlight: tuple[int, ...]              # cells to highlight in a picture
    struck: tuple[tuple[int, int], ...] = ()     # (cell, value) candidates removed
    placed: tuple[tuple[int, int], ...] = ()     # (cell, value) values placed
    data: dict[str, Any] = field(default_factory=dict)   # the step's fields this grade reveals


def focus(step: Step, layout: Layout) -> tuple[str | None, tuple[int, ...]]:
    """Return the house a move happens in (its name and cells): the first house the step
    names, else the house holding most of its pattern (a box before a row or column)."""
    by_name = {h.name: h for h in layout.houses}
    for name in step.houses:
        if name in by_name:
            return name, by_name[name].cells
    cells = set(step.pattern) or {i for i, _ in step.placements + step.eliminations}
    order = {"box": 0, "row": 1, "column": 2}
    best = max(layout.houses, default=None,
               key=lambda h: (len(cells & set(h.cells)), -order.get(h.kind, 3), -h.index))
    if best is None or not cells & set(best.cells):
        return None, tuple(sorted(cells))
    return best.name, best.cells


def graded(step: Step, layout: Layout, grade: str) -> Graded:
    """Return what the grade `grade` of a hint shows about a step."""
    if grade not in GRADES:
        raise ValueError(f"unknown grade {grade!r}")
    house, house_cells = focus(step, layout)
    where = f"Look at {house}" if house else f"Look at {cell_list(layout, house_cells)}"
    if grade == "nudge":
        return Graded(grade, f"{where}.", house, tuple(house_cells), tuple(house_cells),
                      data={"house": house})
    article = "an" if step.technique[:1].upper() in "AEIOUX" else "a"
    if grade == "technique":
        return Graded(grade, f"{where}: there is {article} {step.technique}.", house,
                      tuple(house_cells), tuple(house_cells),
                      data={"house": house, "technique": step.technique})
    pattern = tuple(step.pattern) or tuple(sorted({i for i, _ in step.placements
                                                   + step.eliminations}))
    data = {"house": house, "technique": step.technique,
            "pattern": [layout.name(i) for i in pattern]}
    if grade == "cells":
        return Graded(grade, f"{article.capitalize()} {step.technique} using "
                      f"{cell_list(layout, pattern)}.", house, tuple(house_cells), pattern,
                      data=data)
    data.update(step.to_json(layout))
    return Graded(grade, step.text, house, tuple(house_cells), pattern, tuple(step.eliminations),
                  tuple(step.placements), data=data)
