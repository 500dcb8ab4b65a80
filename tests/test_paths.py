"""Drawn lines that pass a cell twice or cross themselves (formats/paths.py): each kind keeps
what its statement reads along the path, checked against the path read directly over every
4x4 grid; kinds that count a visit refuse by name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydoku import api
from polydoku.errors import BadInput
from polydoku.formats.jsonfmt import puzzle_from_dict
from polydoku.formats.paths import line_rules
from polydoku.rules.base import path_pieces as pieces

N = 4
CELLS = [f"r{r + 1}c{c + 1}" for r in range(N) for c in range(N)]
GRIDS = api.count(puzzle_from_dict({"size": N, "givens": "." * N * N}), limit=1000).solutions


def value(grid, name: str) -> int:
    r, c = int(name[1]) - 1, int(name[3]) - 1
    return grid[r * N + c]


def holds(kind: str, path: list[str], grid) -> bool:
    """Return whether a grid keeps a line's statement read along the path itself."""
    v = [value(grid, c) for c in path]
    if kind == "whispers":
        return all(abs(a - b) >= 2 for a, b in zip(v, v[1:]))
    if kind == "parity":
        return all((a + b) % 2 for a, b in zip(v, v[1:]))
    if kind == "slow-thermometer":
        return all(a <= b for a, b in zip(v, v[1:]))
    if kind == "palindrome":
        return v == v[::-1]
    if kind == "renban":
        return len(set(v)) == len(set(path)) and max(v) - min(v) == len(set(v)) - 1
    raise AssertionError(kind)


def walks(min_size: int = 3):
    """Paths of king steps on a 4x4 grid, free to come back to a cell."""
    steps = st.lists(st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (-1, -1)]),
                     min_size=min_size - 1, max_size=7)

    def walk(start_steps):
        (r, c), moves = start_steps
        out = [(r, c)]
        for dr, dc in moves:
            nr, nc = out[-1][0] + dr, out[-1][1] + dc
            if 0 <= nr < N and 0 <= nc < N:
                out.append((nr, nc))
        return [f"r{r + 1}c{c + 1}" for r, c in out]
    starts = st.tuples(st.integers(0, N - 1), st.integers(0, N - 1))
    return st.tuples(starts, steps).map(walk).filter(lambda p: len(p) >= min_size)


@settings(max_examples=25, deadline=None)
@given(walks(), st.sampled_from(["whispers", "parity", "slow-thermometer", "palindrome",
                                 "renban"]))
def test_a_path_through_a_cell_twice_keeps_its_statement(path, kind):
    spec = "whispers:2" if kind == "whispers" else kind
    try:
        rules = line_rules(spec, path)
    except BadInput as err:
        assert "within" in str(err)              # a relation of a cell with itself
        assert not any(holds(kind, path, g) for g in GRIDS)
        return
    expected = sum(holds(kind, path, g) for g in GRIDS)
    try:
        puzzle = puzzle_from_dict({"size": N, "givens": "." * N * N, "rules": rules})
    except BadInput as err:                      # a renban longer than the values
        assert "cannot hold" in str(err) and expected == 0
        return
    assert api.count(puzzle, limit=1000).count == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CELLS[:6]), min_size=2, max_size=12), st.integers(1, 2))
def test_pieces_cover_every_run_of_the_path_and_hold_distinct_cells(path, reach):
    path = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
    if len(path) < 2:
        return
    try:
        parts = pieces(path, reach, "whispers")
    except BadInput:
        assert any(len(set(path[i:i + reach + 1])) < len(path[i:i + reach + 1])
                   for i in range(len(path)))
        return
    assert all(len(set(p)) == len(p) for p in parts)
    runs = {tuple(p[i:i + reach + 1]) for p in parts for i in range(len(p) - reach)}
    wanted = {tuple(path[i:i + reach + 1]) for i in range(len(path) - reach)}
    assert wanted <= runs


@pytest.mark.parametrize("kind", ["zipper", "region-sum", "double-arrow", "sum-line:10"])
def test_kinds_that_count_each_visit_refuse_a_cell_twice_by_name(kind):
    with pytest.raises(BadInput, match=r"from r1c1 passes r1c2 twice"):
        line_rules(kind, ["r1c1", "r1c2", "r2c2", "r2c1", "r1c2", "r1c3"])


def test_a_sum_line_back_to_its_first_cell_is_a_loop_and_a_between_line_keeps_its_ends():
    assert line_rules("sum-line:10", ["r1c1", "r1c2", "r2c2", "r1c1"]) == [
        {"kind": "sum-line", "cells": ["r1c1", "r1c2", "r2c2"], "sum": 10, "loop": True}]
    assert line_rules("between", ["r1c1", "r1c2", "r2c2", "r2c1", "r1c2", "r1c3"]) == [
        {"kind": "between", "cells": ["r1c1", "r1c2", "r2c2", "r2c1", "r1c3"]}]
