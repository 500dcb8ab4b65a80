"""An independent solver for checking explanations and true candidates, and its own tests.

It reads only the puzzle model (geometry units and the rules' own pairs and units), never the
problem layer nor the native engine, so a mistake there cannot hide here. Domains are Python
sets; propagation is naked singles, hidden singles and the non-consecutive neighbours; search
picks the cell with the fewest values (Norvig's recipe).
"""

from __future__ import annotations

import pytest

from conftest import data_lines
from polydoku.formats.line import parse_line
from polydoku.model import Puzzle
from polydoku.rules.globals import Diagonal, DistinctPairsRule, NonConsecutive
from polydoku.verify import is_solution


class Checker:
    """Counts and enumerates the solutions of a puzzle's rules with some givens."""

    def __init__(self, puzzle: Puzzle):
        g = puzzle.geometry
        self.n, self.ncells = g.size, g.ncells
        self.units = [tuple(u) for u in g.units]
        pairs: set[tuple[int, int]] = set()
        self.adjacent: list[set[int]] = [set() for _ in range(g.ncells)]
        for rule in puzzle.rules:
            if isinstance(rule, Diagonal):
                self.units += list(rule.units(g))
            elif isinstance(rule, NonConsecutive):
                for a, b in rule.pairs(g):
                    self.adjacent[a].add(b)
                    self.adjacent[b].add(a)
            elif isinstance(rule, DistinctPairsRule):
                pairs.update(rule.pairs(g))
            else:
                raise TypeError(f"checker does not know rule {rule.name}")
        self.peers: list[set[int]] = [set() for _ in range(g.ncells)]
        for unit in self.units:
            for i in unit:
                self.peers[i].update(x for x in unit if x != i)
        for a, b in pairs:
            self.peers[a].add(b)
            self.peers[b].add(a)

    def _fix(self, dom: list[set[int]], i: int, v: int) -> bool:
        """Give cell i the value v and propagate; False on a contradiction."""
        if v not in dom[i]:
            return False
        dom[i] = {v}
        todo = [i]
        while todo:
            j = todo.pop()
            (w,) = dom[j]
            for p in self.peers[j]:
                if w in dom[p]:
                    dom[p] = dom[p] - {w}
                    if not dom[p]:
                        return False
                    if len(dom[p]) == 1:
                        todo.append(p)
            for p in self.adjacent[j]:
                if dom[p] & {w - 1, w + 1}:
                    dom[p] = dom[p] - {w - 1, w + 1}
                    if not dom[p]:
                        return False
                    if len(dom[p]) == 1:
                        todo.append(p)
            if not todo:
                todo += self._hidden_singles(dom)
                if None in todo:
                    return False
        return True

    def _hidden_singles(self, dom: list[set[int]]) -> list:
        """Return cells just fixed by hidden singles ([None] when a unit lost a value)."""
        fixed = []
        for unit in self.units:
            for v in range(1, self.n + 1):
                places = [i for i in unit if v in dom[i]]
                if not places:
                    return [None]
                if len(places) == 1 and len(dom[places[0]]) > 1:
                    dom[places[0]] = {v}
                    fixed.append(places[0])
        return fixed

    def solutions(self, givens, limit: int = 2) -> list[tuple[int, ...]]:
        """Return up to `limit` solutions with the givens ((cell, value) pairs)."""
        dom = [set(range(1, self.n + 1)) for _ in range(self.ncells)]
        for i, v in givens:
            if not self._fix(dom, i, v):
                return []
        out: list[tuple[int, ...]] = []
        self._search(dom, out, limit)
        return out

    def _search(self, dom, out, limit) -> None:
        open_cells = [i for i in range(self.ncells) if len(dom[i]) > 1]
        if not open_cells:
            out.append(tuple(next(iter(d)) for d in dom))
            return
        i = min(open_cells, key=lambda k: len(dom[k]))
        for v in sorted(dom[i]):
            child = list(dom)
            if self._fix(child, i, v):
                self._search(child, out, limit)
                if len(out) >= limit:
                    return

    def has_solution(self, givens) -> bool:
        """Return whether the givens have a solution."""
        return bool(self.solutions(givens, 1))


def givens_of(puzzle: Puzzle) -> list[tuple[int, int]]:
    """Return a puzzle's givens as (cell, value) pairs."""
    return [(i, v) for i, v in enumerate(puzzle.givens) if v]


def test_checker_agrees_with_known_counts():
    rows = [ln.split(":") for ln in data_lines("tdoku_test_puzzles_counts.txt")]
    for puzzle_text, count, *_ in rows[::6]:
        p = parse_line(puzzle_text)
        found = Checker(p).solutions(givens_of(p), limit=1000)
        assert len(found) == int(count)
        assert all(is_solution(p, s) for s in found)


def test_checker_counts_empty_4x4_and_variants():
    assert len(Checker(Puzzle.empty(4)).solutions([], limit=1000)) == 288
    from polydoku.rules import parse_rules
    # a diagonal 4x4 has fewer solutions than a classic one, and each is valid
    p = Puzzle.empty(4, parse_rules("diagonal"))
    found = Checker(p).solutions([], limit=1000)
    assert 0 < len(found) < 288 and all(is_solution(p, s) for s in found)


@pytest.mark.parametrize("name", ["norvig_top95.txt"])
def test_checker_solves_hard_puzzles(name):
    for line in data_lines(name, limit=3):
        p = parse_line(line)
        (s,) = Checker(p).solutions(givens_of(p), limit=2)
        assert is_solution(p, s)
