"""Chaos construction (ISS's `ChaosConstruction`): the grid splits into regions the solver
finds, each of as many orthogonally connected cells as there are values, holding every value
once. The regions are part of the answer, as in ISS: a grid whose regions can be drawn two
ways is two solutions. The chaos clues (chaos_clues.py) read the same regions.

The lowering names a region by the row of its cell of value 1 (the column when the columns
are the houses of every value): rows hold each value once, so the labels are exactly the
rows and one drawing of regions has one labelling. A cell's depth is its distance, inside its
region, from that cell of value 1: 0 there only, one less at some neighbour of its region,
and at most one apart between neighbours of one region, which pins it to the true distance.
So every auxiliary is a function of the values and the drawing, and counts stay exact.

Roads not taken: labels by the region's first cell in reading order need a "no earlier
cell" condition per cell and label, much larger than the 1-cell's row.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, ClassVar, Iterator, Sequence

from ...model.geometry import Geometry, cell_name
from ...model.rules import Rule
from ..base import GlobalRule

STEP_BOUND = 2_000_000      # partition search steps `violations` takes before giving up


def chaos_refusal(geometry: Geometry) -> str | None:
    """Return why a grid has no chaos regions (more values than its longer side), or None."""
    if geometry.nvalues != geometry.longest:
        return (f"chaos regions hold every value in as many cells as the grid's longer side, "
                f"not {geometry.nvalues} values on {geometry.shape_words()} cells")
    return None


def chaos_rules(rules: Sequence[Rule], own: Rule) -> list[Any]:
    """Return the puzzle's rules that read the chaos regions (`own` when `rules` is empty)."""
    found = [r for r in rules if getattr(r, "reads_chaos_regions", False)]
    return found or [own]


def shared_problems(grid: Sequence[int], g: Geometry, rules: Sequence[Rule],
                    own: Rule) -> list[str]:
    """Return why no drawing of regions fits a full grid and every chaos rule of `rules`,
    as `own` reports it: the first of those rules searches once for all of them, and the
    others return [] when it is there (so each problem is said once per grid)."""
    found = chaos_rules(rules, own)
    if found[0] is not own and any(r is own for r in found):
        return []
    return partition_problems(grid, g, found)


def grid_neighbours(g: Geometry, i: int) -> list[int]:
    """Return the indices of the orthogonal neighbours of cell index i."""
    r, c = g.cell(i)
    return [g.index((r + dr, c + dc)) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if g.in_grid(r + dr, c + dc)]


def partition_problems(grid: Sequence[int], g: Geometry, clues: Sequence[Any]) -> list[str]:
    """Return why no drawing of regions fits a full grid and the clues ([] when one does;
    nothing is said of a partial grid)."""
    if 0 in grid:
        return []
    size = g.nvalues
    region = [-1] * g.ncells
    steps = [0]

    def closed(cells: list[int], label: int) -> bool:
        for i in cells:
            region[i] = label
        if all(clue.holds_for(grid, region, label, g) for clue in clues):
            return True
        for i in cells:
            region[i] = -1
        return False

    def grow(cells: list[int], values: set[int], ruled: set[int], label: int) -> bool:
        steps[0] += 1
        if steps[0] > STEP_BOUND:
            raise TimeoutError
        if len(cells) == size:
            if closed(cells, label):
                if place(label + 1):
                    return True
                for i in cells:
                    region[i] = -1
            return False
        frontier = [j for i in cells for j in grid_neighbours(g, i)
                    if region[j] < 0 and j not in cells and j not in ruled]
        for j in dict.fromkeys(frontier):
            if grid[j] in values:
                continue
            if grow(cells + [j], values | {grid[j]}, set(ruled), label):
                return True
            ruled.add(j)            # every set after this one leaves j out: each set once
        return False

    def place(label: int) -> bool:
        start = next((i for i in range(g.ncells) if region[i] < 0), None)
        return start is None or grow([start], {grid[start]}, set(), label)

    try:
        if place(0):
            return []
    except TimeoutError:
        return [f"chaos construction: no drawing of regions found in {STEP_BOUND:,} steps"]
    what = "regions" if len(clues) == 1 else "regions fitting the chaos clues"
    return [f"chaos construction: no {what} of {size} connected cells holding every value"]


def region_variables(b: Any) -> tuple[list[int], list[int]]:
    """Return each cell's region label and depth variables of the builder `b`, made (with
    their constraints) by the first chaos rule lowered and shared by the others."""
    got = b.shared.get("chaos-regions")
    if got is None:
        got = b.shared["chaos-regions"] = _lower_regions(b)
    return got


def _lower_regions(b: Any) -> tuple[list[int], list[int]]:
    g = b.geometry
    size = b.nvalues
    count = g.ncells // size
    b.free_aux = True           # one grid may have its regions drawn two ways
    by_rows = g.width >= g.size         # the rows hold every value: a region's 1 is in one
    names = [cell_name(g.cell(i)) for i in range(g.ncells)]
    label = [b.new_var(count, f"region of {names[i]}") for i in range(g.ncells)]
    depth = [b.new_var(size, f"depth of {names[i]}") for i in range(g.ncells)]
    pairs = []
    for i in range(g.ncells):
        line = g.cell(i)[0 if by_rows else 1] + 1
        b.relation(i, label[i], lambda v, lab, line=line: v != 1 or lab == line)
        b.relation(i, depth[i], _root)
        # implied: a cell is at least as deep as it is rows away from its region's 1
        b.relation(label[i], depth[i], lambda lab, d, line=line: d - 1 >= abs(lab - line))
        pair = b.new_var(count * size, f"region and value of {names[i]}")
        b.table((label[i], i, pair), [(lab, v, (lab - 1) * size + v)
                                      for lab in range(1, count + 1) for v in range(1, size + 1)])
        pairs.append(pair)
    b.all_different(pairs, part="regions")      # each region holds each value once
    parent: list[list[int]] = [[] for _ in range(g.ncells)]
    for i in range(g.ncells):
        for j in grid_neighbours(g, i):
            if j > i:
                up_i, up_j = _edge(b, label, depth, size, i, j, names)
                parent[i].append(up_i)
                parent[j].append(up_j)
    for i in range(g.ncells):                   # a cell below the root has a parent
        b.table((depth[i], *parent[i]), [(d, *bits) for d in range(1, size + 1)
                                         for bits in product((1, 2), repeat=len(parent[i]))
                                         if d == 1 or 2 in bits])
    return label, depth


def _root(v: int, d: int) -> bool:
    return (v == 1) == (d == 1)


def _edge(b: Any, label: list[int], depth: list[int], size: int, i: int, j: int,
          names: list[str]) -> tuple[int, int]:
    """Return the flags "j is i's parent" and "i is j's parent" of two neighbours: one region
    and a depth one less (2 = yes); neighbours of one region differ in depth by 1 at most."""
    count = len(label) // size
    same = b.new_var(2, f"{names[i]} with {names[j]}")
    b.table((label[i], label[j], same), [(x, y, 2 if x == y else 1)
                                         for x in range(1, count + 1) for y in range(1, count + 1)])
    # implied: neighbours of one region hold different values
    b.table((same, i, j), [(s, x, y) for s in (1, 2) for x in range(1, size + 1)
                           for y in range(1, size + 1) if s == 1 or x != y])
    up_i = b.new_var(2, f"{names[j]} before {names[i]}")
    up_j = b.new_var(2, f"{names[i]} before {names[j]}")
    b.table((same, depth[i], depth[j], up_i, up_j),
            [(s, x, y, 2 if s == 2 and y == x - 1 else 1, 2 if s == 2 and x == y - 1 else 1)
             for s in (1, 2) for x in range(1, size + 1) for y in range(1, size + 1)
             if s == 1 or abs(x - y) <= 1])
    return up_i, up_j


class ChaosReader(Rule):
    """What every rule that reads the chaos regions shares: it is read on grids whose regions
    hold every value (`chaos_refusal`), and a grid breaks it when no drawing of regions fits
    the grid and all such rules (`shared_problems`, searched once for them all)."""

    any_shape: ClassVar[bool] = True        # regions of the longer side's length
    any_count: ClassVar[bool] = True        # a rectangle; more values than that: `refusal`
    reads_chaos_regions: ClassVar[bool] = True

    def refusal(self, geometry: Geometry) -> str | None:
        return chaos_refusal(geometry)

    def violations(self, grid, geometry, rules=()) -> Iterator[str]:
        yield from shared_problems(grid, geometry, rules, self)


@dataclass(frozen=True)
class ChaosConstruction(ChaosReader, GlobalRule):
    """The grid splits into connected regions of every value, found by the solver."""

    kind: ClassVar[str] = "chaos-construction"
    iss: ClassVar[str] = "ChaosConstruction"
    description: ClassVar[str] = ("the grid splits into regions to be found, each of N "
                                  "orthogonally connected cells holding every value once")
    aliases: ClassVar[tuple[str, ...]] = ("chaos", "chaos-regions")
    phrases: ClassVar[tuple[str, ...]] = (r"chaos construction",)
    any_values: ClassVar[bool] = True       # equal and different values only

    def holds_for(self, grid, region: list[int], label: int, g: Geometry) -> bool:
        """Return whether this rule holds of the region just drawn (always: it is the drawing)."""
        return True

    def lower(self, b) -> None:
        region_variables(b)

    @classmethod
    def sample(cls, rng: Any, size: int) -> str:
        return cls.kind


KINDS = (ChaosConstruction,)
