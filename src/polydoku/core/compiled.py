"""The compiled form of a problem: its constraints read once into plain lists of ints and
tuples (peers, full units, per-option conflicts, tables, sums), the structure every search and
propagation of the core runs on, cached per constraint tuple."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

from ..gcpause import gc_paused
from ..problem import AbsDiffNot, AllDifferent, Linear, Nogood, Problem, Table
from ..problem.houses import house_sums
from .filters import _Sum, _TableBits

_CACHED_PROBLEMS = 16         # compiled problems kept (one per geometry and rules, in practice)


@dataclass
class Compiled:
    """A problem's structure in the form the solvers want: plain lists of ints and tuples."""

    nvars: int
    full: int
    peers: list[tuple[int, ...]]
    units: list[tuple[int, ...]]
    tables: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]
    # pairs whose nogoods say more than "differ": (x, y, per value of x the values of y left)
    pairs: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    size: int = 0
    linears: list[_Sum] = field(default_factory=list)
    # per option (x, a): per other variable y, the mask of the values of y that x = a forbids
    conflicts: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict, repr=False)
    core: object = field(default=None, repr=False)     # the field view (fields.py)
    ccore: object = field(default=None, repr=False)     # the compiled search, or False
    dsizes: list[int] = field(default_factory=list, repr=False)
    ncells: int = 0
    # tables the rules imply (Rule.implied: variables, tuples), filtered in search only: they
    # prune sooner and remove no solution, while propagation for reasoning stays that of the
    # constraints
    implied: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = field(
        default_factory=list, repr=False)
    # sums the houses imply (innies and outies, problem/houses.py), filtered in search only
    implied_sums: list[_Sum] = field(default_factory=list, repr=False)
    _table_bits: list[_TableBits] | None = field(default=None, repr=False)
    _nogoods: list[dict[int, tuple[tuple[int, int], ...]]] | None = field(default=None,
                                                                           repr=False)
    _implied_bits: list[_TableBits] | None = field(default=None, repr=False)
    # per cell: the cells an all-different over cells alone keeps apart from it, and the
    # exclusions the core's API hands out (core/__init__.py), built on first use
    cell_peers: list[tuple[int, ...]] = field(default_factory=list, repr=False)
    exclusions: tuple[int, ...] | None = field(default=None, repr=False)

    @property
    def nogoods(self) -> list[dict[int, tuple[tuple[int, int], ...]]] | None:
        """Return per variable, per value's bit, the (variable, mask) pairs it forbids (None
        when nothing does), built on first use: the pure-Python search and propagation read
        it, the compiled core reads `conflicts`."""
        if self._nogoods is None and self.conflicts:
            self._nogoods = _nogoods(self.conflicts, self.nvars)
        return self._nogoods

    @property
    def table_bits(self) -> list[_TableBits]:
        """Return the tables and pairs made ready for the pure-Python filters, built on first
        use (the compiled core reads `tables` and `pairs` itself: a sandwich's 810 tables cost
        30 ms to ready)."""
        if self._table_bits is None:
            self._table_bits = ([_TableBits(vs, ts) for vs, ts in self.tables]
                                + [_pair_table(*pair) for pair in self.pairs])
        return self._table_bits

    @property
    def implied_bits(self) -> list[_TableBits]:
        """Return the implied tables made ready for the pure-Python filters, built on first
        use (a quadruple's table of 300 fillings costs most of a millisecond to ready)."""
        if self._implied_bits is None:
            self._implied_bits = [_TableBits(vs, ts) for vs, ts in self.implied]
        return self._implied_bits


_CACHE: dict[tuple[int, int, int], tuple[tuple, Compiled]] = {}


def compile_problem(problem: Problem) -> Compiled:
    """Return the compiled structure of a problem's constraints (cached per constraint tuple,
    size and number of variables: equal tuples such as `()` may be one shared object)."""
    key = (id(problem.constraints), problem.size, problem.nvars)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is problem.constraints:
        return hit[1]
    with gc_paused():                   # rows of conflicts, tuples, no cycle among them
        compiled = _compile(problem)
    if len(_CACHE) >= _CACHED_PROBLEMS:
        _CACHE.clear()
    _CACHE[key] = (problem.constraints, compiled)
    return compiled


def _compile(problem: Problem) -> Compiled:
    """Return the cell view of a problem (the field view is built on first search)."""
    n, size = problem.nvars, problem.size
    grid_units: list[tuple[int, ...]] = []     # the classic units, the same for every puzzle
    groups: list[tuple[int, ...]] = []         # the rules' all-different groups
    units: dict[frozenset[int], tuple[int, ...]] = {}
    conflicts: dict[tuple[int, int], dict[int, int]] = {}
    tables = []
    linears = []
    sums: list[Linear] = []

    def forbid(x: int, a: int, y: int, b: int) -> None:
        row = conflicts.get((x, a))
        if row is None:
            row = conflicts[(x, a)] = {}
        row[y] = row.get(y, 0) | 1 << (b - 1)
        row = conflicts.get((y, b))
        if row is None:
            row = conflicts[(y, b)] = {}
        row[x] = row.get(x, 0) | 1 << (a - 1)

    ncells = problem.ncells
    get = conflicts.get
    # most constraints are nogoods, in runs over one pair of variables (a relation's): a run's
    # masks are gathered per value of each and written into the rows once per run
    run_x = run_y = -1
    run_a: dict[int, int] = {}
    run_b: dict[int, int] = {}
    for c in problem.constraints:
        if type(c) is Nogood:
            x, y = c.x, c.y
            if x != run_x or y != run_y:
                _write_run(conflicts, run_x, run_y, run_a, run_b)
                run_x, run_y, run_a, run_b = x, y, {}, {}
            a, b = c.a, c.b
            run_a[a] = run_a.get(a, 0) | 1 << (b - 1)
            run_b[b] = run_b.get(b, 0) | 1 << (a - 1)
        elif isinstance(c, AllDifferent):
            vs = c.vars
            if c.origin.unit and all(v < ncells for v in vs):
                grid_units.append(vs)
            else:
                groups.append(vs)
            distinct = len(set(vs))
            if distinct != len(vs):
                for v in {v for v in vs if vs.count(v) > 1}:
                    for a in range(1, size + 1):   # a variable listed twice differs from itself
                        forbid(v, a, v, a)
            if distinct == size:
                units.setdefault(frozenset(vs), tuple(dict.fromkeys(vs)))
        elif isinstance(c, AbsDiffNot):     # forbid() written out over the pairs of d
            x, y = c.x, c.y
            for a, bit_b, b, bit_a in _apart_by(c.d, size):
                row = get((x, a))
                if row is None:
                    row = conflicts[(x, a)] = {}
                row[y] = row.get(y, 0) | bit_b
                row = get((y, b))
                if row is None:
                    row = conflicts[(y, b)] = {}
                row[x] = row.get(x, 0) | bit_a
        elif isinstance(c, Table):
            if c.vars or not c.tuples:
                tables.append((tuple(c.vars), tuple(c.tuples)))
        elif isinstance(c, Linear):
            linears.append(_Sum(c, [problem.domain_size(v) for v in c.vars]))
            sums.append(c)
        else:
            raise TypeError(f"native engine cannot handle {type(c).__name__}")
    _write_run(conflicts, run_x, run_y, run_a, run_b)
    dsizes = [size] * ncells + list(problem.aux)
    peers, peer_tuples, cell_peers = _peers(n, ncells, grid_units, groups)
    implied_sums = [_Sum(c, [dsizes[v] for v in c.vars])
                    for c in house_sums(problem, list(units.values()), sums)]
    for s in linears + implied_sums:
        s.distinct = _distinct_values(s, peers, dsizes)
    for s in linears + implied_sums:
        if not s.distinct:
            s.groups = sum_groups(s, peer_tuples, dsizes, list(units.values()))
    return Compiled(
        nvars=n, full=(1 << size) - 1,
        peers=peer_tuples,
        units=list(units.values()),
        tables=tables, pairs=_pairs(conflicts, dsizes), size=size, conflicts=conflicts,
        linears=linears,
        dsizes=dsizes, ncells=ncells, implied=_implied(problem),
        implied_sums=implied_sums,
        cell_peers=cell_peers)


def _write_run(conflicts: dict[tuple[int, int], dict[int, int]], x: int, y: int,
               masks_x: dict[int, int], masks_y: dict[int, int]) -> None:
    """Write a run of nogoods between x and y into the conflict rows: per value a of x the
    values of y it forbids (`masks_x`), per value b of y those of x (`masks_y`)."""
    for a, m in masks_x.items():
        row = conflicts.get((x, a))
        if row is None:
            row = conflicts[(x, a)] = {}
        row[y] = row.get(y, 0) | m
    for b, m in masks_y.items():
        row = conflicts.get((y, b))
        if row is None:
            row = conflicts[(y, b)] = {}
        row[x] = row.get(x, 0) | m


@lru_cache(maxsize=64)
def _apart_by(d: int, size: int) -> tuple[tuple[int, int, int, int], ...]:
    """Return the value pairs (a, b) of 1..size with |a - b| = d, each as (a, b's bit, b,
    a's bit), in the order an |x - y| != d constraint forbids them."""
    return tuple((a, 1 << (b - 1), b, 1 << (a - 1)) for a in range(1, size + 1)
                 for b in (a - d, a + d) if 1 <= b <= size)


def _nogoods(conflicts: dict[tuple[int, int], dict[int, int]], n: int
             ) -> list[dict[int, tuple[tuple[int, int], ...]]]:
    """Return per variable, per value's bit, the (variable, mask) pairs it forbids."""
    nogoods: list[dict[int, tuple[tuple[int, int], ...]]] = [dict() for _ in range(n)]
    for (x, a), row in conflicts.items():
        nogoods[x][1 << (a - 1)] = tuple(row.items())
    return nogoods


def _peers(n: int, ncells: int, grid_units: list[tuple[int, ...]],
           groups: list[tuple[int, ...]]
           ) -> tuple[list, list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Return per variable the variables an all-different keeps apart from it (a set holding
    itself too), the same as sorted tuples without it, and per cell the cells a group of
    cells alone keeps apart from it (sorted tuples). What the grid's units give is taken from
    `_unit_peers`, remembered per list of units; only the variables of the rules' groups are
    worked out anew."""
    sets, tuples, cell_sets, cell_tuples = _unit_peers(ncells, tuple(grid_units))
    peers: list = list(sets) + [frozenset()] * (n - ncells)
    peer_tuples = list(tuples) + [()] * (n - ncells)
    cell_peers = list(cell_tuples)
    if not groups:
        return peers, peer_tuples, cell_peers
    grown: dict[int, set[int]] = {}
    grown_cells: dict[int, set[int]] = {}
    for vs in groups:
        only_cells = all(v < ncells for v in vs)
        for v in vs:
            s = grown.get(v)
            if s is None:
                s = grown[v] = set(peers[v])
            s.update(vs)
            if only_cells:
                s = grown_cells.get(v)
                if s is None:
                    s = grown_cells[v] = set(cell_sets[v])
                s.update(vs)
    for v, s in grown.items():
        peers[v] = s
        peer_tuples[v] = tuple(sorted(s - {v}))
    for v, s in grown_cells.items():
        cell_peers[v] = tuple(sorted(s - {v}))
    return peers, peer_tuples, cell_peers


@lru_cache(maxsize=16)
def _unit_peers(ncells: int, units: tuple[tuple[int, ...], ...]
                ) -> tuple[tuple[frozenset[int], ...], tuple[tuple[int, ...], ...],
                           tuple[frozenset[int], ...], tuple[tuple[int, ...], ...]]:
    """Return `_peers`'s answer for a grid's units alone (cells of the units only), cell
    peers being peers here: every puzzle of a grid shares it (a 25x25's 1,875 unit places
    cost 3 ms to read into sets each time)."""
    sets: list[set[int]] = [set() for _ in range(ncells)]
    for vs in units:
        for v in vs:
            sets[v].update(vs)
    frozen = tuple(map(frozenset, sets))
    tuples = tuple(tuple(sorted(s - {i})) for i, s in enumerate(sets))
    return frozen, tuples, frozen, tuples


def _implied(problem: Problem) -> list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]:
    """Return the tables the puzzle's rules imply over its cells, as (variables, tuples)
    (none for a bare problem)."""
    puzzle = problem.puzzle
    if puzzle is None or puzzle.geometry.nvalues != problem.size:
        return []
    g = puzzle.geometry
    return [(tuple(g.index(c) for c in cells), tuple(tuples))
            for rule in puzzle.rules for cells, tuples in rule.implied(g)]


DISTINCT_MAX = 12       # values of the cells a sum of different values is filtered over by sets


def _distinct_values(s: _Sum, peers: list[set[int]], dsizes: list[int]) -> int:
    """Return d when the sum adds up cells of values 1..d (d at most DISTINCT_MAX) that all
    differ from each other, each counted once (a killer cage), else 0."""
    vs = s.vars
    if len(vs) < 2 or len(set(vs)) != len(vs) or any(k != 1 for k in s.coefs):
        return 0
    d = dsizes[vs[0]]
    if d > DISTINCT_MAX or any(dsizes[v] != d for v in vs):
        return 0
    return d if all(w in peers[v] for i, v in enumerate(vs) for w in vs[i + 1:]) else 0


def sum_groups(s: _Sum, peers: list[tuple[int, ...]], dsizes: list[int],
               units: Sequence[tuple[int, ...]] = ()
               ) -> list[tuple[int, int, tuple[int, ...]]] | None:
    """Return the terms of a sum as groups of cells that all differ, as the search filters it
    (sign, d, term indexes: +1 or -1 coefficients on cells of values 1..d; 0, 0 for a group
    of one term), or None when no two terms fall into one group (the totals alone are then
    as exact). The houses (`units`) that hold the most of its cells come first, each as one
    group (a long arrow's cells in one box add up to at least 1 + 2 + ... however the line
    winds: ISS's "Long sums" 3 counts in ms, not seconds); then a term joins the first group
    of its sign and d whose every cell it sees."""
    if len(s.vars) > 64:
        return None
    free = {t for t, (v, k) in enumerate(zip(s.vars, s.coefs))
            if k in (1, -1) and dsizes[v] <= DISTINCT_MAX}
    groups: list[tuple[int, int, list[int]]] = []
    free_vars = {s.vars[t] for t in free}
    reached = [set(u) for u in units if not free_vars.isdisjoint(u)]  # the houses it reaches
    while reached:
        best: tuple[int, int, list[int]] | None = None
        order = sorted(free)
        for inside in reached:
            here: dict[tuple[int, int], dict[int, int]] = {}
            for t in order:
                v = s.vars[t]
                if v in inside:                         # one term per variable
                    here.setdefault((s.coefs[t], dsizes[v]), {}).setdefault(v, t)
            for (k, d), terms in here.items():
                if len(terms) > 1 and (best is None or len(terms) > len(best[2])):
                    best = (k, d, sorted(terms.values())[:d])
        if best is None:
            break
        groups.append(best)
        free -= set(best[2])
    for t, (v, k) in enumerate(zip(s.vars, s.coefs)):
        if any(t in g[2] for g in groups):
            continue
        d = dsizes[v]
        if t in free:
            seen = set(peers[v])
            home = next((g for g in groups if g[0] == k and g[1] == d and len(g[2]) < d
                         and all(s.vars[u] in seen for u in g[2])), None)
            if home is not None:
                home[2].append(t)
                continue
        groups.append((k, d, [t]))
    if all(len(g[2]) == 1 for g in groups):
        return None
    return [(k, d, tuple(ts)) if len(ts) > 1 else (0, 0, tuple(ts)) for k, d, ts in groups]


def _pairs(conflicts, dsizes: list[int]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Return, for each pair of variables x < y whose nogoods say more than "differ" (a
    thermometer, a dot, a sum), the values of y each value of x allows (x, y, one mask per
    value 1..D of x): filtering candidates by them keeps the pair consistent before either is
    placed (arc consistency), which masks alone do not."""
    forbidden: dict[tuple[int, int], dict[int, int]] = {}   # (x, y): a -> y's values barred
    more: set[tuple[int, int]] = set()          # the pairs whose nogoods say more than "differ"
    get = forbidden.get
    for (x, a), row in conflicts.items():
        own = 1 << (a - 1)
        for y, m in row.items():
            if x < y:
                bad = get((x, y))
                if bad is None:
                    bad = forbidden[(x, y)] = {}
                bad[a] = m
                if m & ~own:
                    more.add((x, y))
    out = []
    for (x, y), bad in forbidden.items():
        if (x, y) not in more:
            continue                          # plain "differ": placing a value says it all
        full = (1 << dsizes[y]) - 1
        out.append((x, y, tuple(full & ~bad.get(a, 0) for a in range(1, dsizes[x] + 1))))
    return out


def _pair_table(x: int, y: int, masks: tuple[int, ...]) -> _TableBits:
    """Return a pair's allowed values (as `_pairs` gives them) as a table of value pairs."""
    return _TableBits((x, y), tuple((a, b) for a, m in enumerate(masks, 1)
                                    for b in range(1, m.bit_length() + 1) if m >> (b - 1) & 1))
