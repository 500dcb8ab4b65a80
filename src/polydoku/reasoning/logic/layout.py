"""The layout a person's candidate board is drawn on: what a problem says about which
candidates exclude which, read once from the IR, and the bitset helpers the logic shares.

What excludes what comes from the propagation core (`core.exclusions`, `core.peers`): for
every candidate, the set of candidates it rules out (`conflicts`), so techniques reason over
one notion of "sees" whatever the rules, the same one the engine places by. What the core does
not carry, the layout reads from the IR itself (`_Reader`): which AllDifferents over N cells
are *houses* (rows, columns, boxes, diagonals) and of which kind, the rule labels that name a
link in a step's words (the core keeps no labels or origins), whether anything beyond rows,
columns and boxes is there, and the tables, sums and constraints on auxiliary variables that
no technique reads (Constraint Propagation filters them). The layout keeps memories
(`remember`, `recall`) for what derives from it. Nothing here holds a position (board.py does)
or finds techniques.

Candidates are numbered `cell * N + value - 1`; sets of candidates and sets of cells are Python
ints used as bitsets (fast AND/OR over 729 or 81 bits).
"""

from __future__ import annotations

from ...errors import BadInput

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Sequence, TypeVar, cast

from ... import core
from ...model import Puzzle, cell_name
from ...problem import (AbsDiffNot, AllDifferent, Linear, Nogood, Origin, Problem, Table,
                         variables)


_SMALL_BITS = 1 << 12
_BITS_OF: list[tuple[int, ...]] = [()]
for _m in range(1, _SMALL_BITS):           # the positions of every mask below 4096, built once:
    _top = _m.bit_length() - 1             # those of the mask without its highest bit, then it
    _BITS_OF.append(_BITS_OF[_m ^ 1 << _top] + (_top,))


def bits(mask: int) -> Sequence[int]:
    """Return the positions of the set bits of `mask`, lowest first (value masks come from a
    table; the solver asks this millions of times)."""
    if mask < _SMALL_BITS:
        return _BITS_OF[mask]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def values_of(mask: int) -> list[int]:
    """Return the values (1-based) in a value bitmask."""
    return [b + 1 for b in bits(mask)]


@dataclass(frozen=True)
class House:
    """N cells that hold every value once: a row, column, box or diagonal."""

    index: int
    name: str
    kind: str                 # "row", "column", "box" or "other"
    cells: tuple[int, ...]
    mask: int                 # the cells as a bitset


def _kind(cells: tuple[int, ...], origin: Origin, n: int) -> str:
    """Return whether a house is a row, column, box or other, from its cells and origin."""
    if len({c // n for c in cells}) == 1:
        return "row"
    if len({c % n for c in cells}) == 1:
        return "column"
    return "box" if origin.unit and origin.kind == "box" else "other"


@dataclass
class Layout:
    """Everything a problem says about which candidates exclude which, in bitset form."""

    size: int
    houses: tuple[House, ...]
    peers: tuple[int, ...]                  # per cell: cells that must differ from it (bitset)
    cell_houses: tuple[tuple[int, ...], ...]
    conflicts: tuple[int, ...]              # per candidate: candidates it rules out (bitset)
    is_classic: bool                        # rows, columns and boxes only, nothing else
    peer_rules: dict[tuple[int, int], str] = field(default_factory=dict)   # small AllDifferents
    pair_rules: dict[tuple[int, int], str] = field(default_factory=dict)   # AbsDiffNot, Nogood
    symbols: str = ""
    box_shape: tuple[int, int] = (0, 0)
    problem: Problem | None = None
    unread: tuple = ()                      # tables, sums, auxiliaries: no technique reads them
    # (search, value, the value's candidate cells) a single-digit search found nothing in ->
    # the limit it searched to (None: no limit)
    barren: dict[tuple, object] = field(default_factory=dict, repr=False, compare=False)
    # what a finder worked out from part of a board, by that part (e.g. a house's ALSs)
    memo: dict[tuple, object] = field(default_factory=dict, repr=False, compare=False)

    @property
    def ncells(self) -> int:
        """Return the number of cells, N²."""
        return self.size * self.size

    @property
    def puzzle(self) -> Puzzle | None:
        """Return the puzzle whose rules the board reads (None for a bare problem)."""
        return self.problem.puzzle if self.problem is not None else None

    def name(self, cell: int) -> str:
        """Return `r1c6` for a cell index."""
        return cell_name(divmod(cell, self.size))

    def sym(self, value: int) -> str:
        """Return the symbol of a value (1-9, then letters)."""
        return self.symbols[value - 1] if self.symbols else str(value)

    def cand(self, cell: int, value: int) -> int:
        """Return the candidate number of (cell, value)."""
        return cell * self.size + value - 1

    def split(self, c: int) -> tuple[int, int]:
        """Return (cell, value) of a candidate number."""
        cell, v = divmod(c, self.size)
        return cell, v + 1

    def sees(self, a: int, b: int) -> bool:
        """Return whether two different cells must hold different values."""
        return bool(self.peers[a] >> b & 1)

    def why(self, c1: int, c2: int) -> str:
        """Return the rule that keeps two candidates apart ("same cell", "row 3", "anti-knight")."""
        (a, v), (b, w) = self.split(c1), self.split(c2)
        key = (min(a, b), max(a, b))
        if a == b:
            return "same cell"
        if v == w:
            shared = next((h.name for h in self.houses if h.mask >> a & 1 and h.mask >> b & 1), "")
            return shared or self.peer_rules.get(key, "")
        return self.pair_rules.get(key, "")

    @property
    def words(self) -> int:
        """Return how many 64-bit words a set of cells takes for the compiled searches."""
        return (self.ncells + 63) // 64

    def cell_sets(self, masks: Sequence[int]) -> bytes:
        """Return sets of cells (bitsets) as the compiled searches read them: `words`
        little-endian 64-bit words each, one after the other."""
        size = 8 * self.words
        return b"".join(m.to_bytes(size, "little") for m in masks)

    @cached_property
    def _excluded(self) -> list[tuple[tuple[int, int], ...] | None]:
        """`excluded`'s answers, per candidate, as they are first asked for."""
        return [None] * (self.ncells * self.size)

    def excluded(self, candidate: int) -> tuple[tuple[int, int], ...]:
        """Return the candidates a candidate (cell * N + value - 1) rules out, as (cell, mask
        of the values it keeps) pairs, in order (remembered: a solve path places the same
        candidates again and again)."""
        table = self._excluded
        out = table[candidate]
        if out is None:
            n = self.size
            out = table[candidate] = tuple(
                (c // n, ~(1 << (c % n))) for c in bits(self.conflicts[candidate]))
        return out

    def rules_between(self, froms: list[int], targets: list[int]) -> list[str]:
        """Return the variant rules (not houses, not the cell itself) that the links froms x targets use."""
        out: dict[str, None] = {}
        for t in targets:
            for f in froms:
                label = self.why(f, t)
                if label and label != "same cell" and not any(h.name == label for h in self.houses):
                    out[label] = None
        return list(out)

    @cached_property
    def lines(self) -> dict[str, tuple[House, ...]]:
        """Return the houses by kind: "row", "column", "box", "other"."""
        out: dict[str, list[House]] = {"row": [], "column": [], "box": [], "other": []}
        for h in self.houses:
            out[h.kind].append(h)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def value_masks(self) -> tuple[int, ...]:
        """Return, per value v (index 0 unused), the candidate bitset of v in every cell."""
        n = self.size
        return (0,) + tuple(sum(1 << (i * n + v - 1) for i in range(n * n))
                            for v in range(1, n + 1))

    def cells_to_cands(self, cells: int, value: int) -> int:
        """Return the candidate bitset of `value` in a bitset of cells."""
        n, out = self.size, 0
        for i in bits(cells):
            out |= 1 << (i * n + value - 1)
        return out


_LAYOUTS: dict[int, tuple[tuple, Layout]] = {}


def layout_of(problem: Problem) -> Layout:
    """Return the layout of a problem's constraints (cached per constraint tuple)."""
    key = id(problem.constraints)
    hit = _LAYOUTS.get(key)
    if hit is not None and hit[0] is problem.constraints:
        return hit[1]
    layout = _build_layout(problem)
    if len(_LAYOUTS) > 16:
        _LAYOUTS.clear()
    _LAYOUTS[key] = (problem.constraints, layout)
    return layout


class _Reader:
    """Reads a problem's constraints into houses, rule labels and the constraints no technique
    reads (what excludes what is the core's: `core.exclusions`)."""

    def __init__(self, n: int):
        self.n = n
        self.houses: list[House] = []
        self.seen: set[tuple[int, ...]] = set()
        self.peer_rules: dict[tuple[int, int], str] = {}
        self.pair_rules: dict[tuple[int, int], str] = {}
        self.extra = False                                  # anything beyond rows/cols/boxes
        self.unread: list = []                              # tables and sums
        self.aux: list = []                                 # constraints on auxiliaries

    def read(self, c) -> None:
        """Take in one constraint (tables, sums and whatever touches an auxiliary variable are
        kept for Constraint Propagation)."""
        if any(v >= self.n * self.n for v in variables(c)):
            self.extra = True
            self.aux.append(c)
        elif isinstance(c, AllDifferent):
            self._all_different(c)
        elif isinstance(c, (AbsDiffNot, Nogood)):
            self._rule(c.x, c.y, c.label)
        elif isinstance(c, (Table, Linear)):
            self.extra = True
            self.unread.append(c)       # no technique of its own: "Constraint Propagation"

    def _rule(self, x: int, y: int, label: str) -> None:
        self.extra = True
        self.pair_rules.setdefault((min(x, y), max(x, y)), label)

    def _all_different(self, c: AllDifferent) -> None:
        key = tuple(sorted(c.vars))
        if len(key) == self.n and key not in self.seen:
            self.seen.add(key)
            kind = _kind(key, c.origin, self.n)
            k = len(self.houses)
            self.houses.append(House(k, c.label or f"house {k + 1}", kind, tuple(c.vars),
                                     sum(1 << x for x in c.vars)))
            self.extra |= kind == "other"
        elif len(key) < self.n:
            self.extra = True
            for x, y in ((x, y) for x in key for y in key if x < y):
                self.peer_rules.setdefault((x, y), c.label)


def _as_tables(problem: Problem, cons: list) -> list:
    """Return constraints on auxiliary variables as tables and sums Constraint Propagation can
    filter: nogoods and pair rules merged per pair of variables into one table of allowed pairs
    (an all-different into its pairs).

    This reads the constraint types itself: the core places such pairs by its masks in one
    fixpoint over every variable, while Constraint Propagation filters each clue alone, by its
    label, so it needs them as a clue's own tables, which the core does not keep."""
    out: list = []
    refused: dict[tuple[int, int], tuple[set, str]] = {}

    def refuse(x: int, a: int, y: int, b: int, label: str) -> None:
        if x > y:
            x, a, y, b = y, b, x, a
        refused.setdefault((x, y), (set(), label))[0].add((a, b))

    for c in cons:
        if isinstance(c, Nogood):
            refuse(c.x, c.a, c.y, c.b, c.label)
        elif isinstance(c, AbsDiffNot):
            for a in problem.domain(c.x):
                for b in (a - c.d, a + c.d):
                    if b in problem.domain(c.y):
                        refuse(c.x, a, c.y, b, c.label)
        elif isinstance(c, AllDifferent):
            for i, x in enumerate(c.vars):
                for y in c.vars[i + 1:]:
                    for a in set(problem.domain(x)) & set(problem.domain(y)):
                        refuse(x, a, y, a, c.label)
        else:
            out.append(c)
    for (x, y), (bad, label) in refused.items():
        out.append(Table((x, y), tuple((a, b) for a in problem.domain(x)
                                       for b in problem.domain(y) if (a, b) not in bad), label))
    return out


def _build_layout(problem: Problem) -> Layout:
    """Return a fresh layout of a problem (see `layout_of`)."""
    if problem.more_values:         # its houses, singles and patterns hold every value once
        raise BadInput(f"logic reads grids whose houses hold every value, not {problem.size} "
                       f"values on {problem.shape_words()} cells; solve, count and "
                       f"check-unique take this grid")
    n = problem.size
    r = _Reader(n)
    for c in problem.constraints:
        r.read(c)
    r.unread += _as_tables(problem, r.aux)
    houses = r.houses
    cell_houses = tuple(tuple(h.index for h in houses if i in h.cells) for i in range(n * n))
    puzzle = problem.puzzle
    symbols = puzzle.alphabet if puzzle is not None else ""
    shape = (puzzle.geometry.box_rows, puzzle.geometry.box_cols) if puzzle is not None else (0, 0)
    kinds = [h.kind for h in houses]
    classic = (not r.extra and kinds.count("row") == n and kinds.count("column") == n
               and kinds.count("box") == n)
    return Layout(n, tuple(houses), core.peers(problem), cell_houses, core.exclusions(problem),
                  classic, r.peer_rules, r.pair_rules, symbols, shape, problem,
                  tuple(r.unread))


T = TypeVar("T")
_BARREN_MAX = 1 << 17        # entries kept (about 20 MB at most) before the memory starts over



def remember(memo: dict[tuple, object], key: tuple, value: object) -> None:
    """Keep `value` under `key` in one of the layout's memories (which start over when full)."""
    if len(memo) >= _BARREN_MAX:
        memo.clear()
    memo[key] = value


def recall(memo: dict[tuple, object], key: tuple, make: Callable[[], T]) -> T:
    """Return what `memo` keeps under `key`, or make it and keep it there (`remember`)."""
    out = memo.get(key)
    if out is None:
        out = make()
        remember(memo, key, out)
    return cast(T, out)
