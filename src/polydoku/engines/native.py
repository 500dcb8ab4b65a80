"""The native engine: bitmask candidates, propagation (naked and hidden singles, nogoods,
tables) and depth-first search on the smallest choice. It runs in process and touches nothing
outside it.

Two views of one problem live here.

The *cell view* (`Compiled`, `propagate`, `initial_candidates`) keeps one int per variable
(bit v-1 set while value v is possible); reasoning code builds on it, step by step.

The compiled core (`polydoku._core`, src/polydoku/_core.c) runs the search, counting and
propagation on the cell view's structure where it was built; the pure-Python search below is
its fallback (`POLYDOKU_NATIVE=python` forces it), held to the same answers by test_core.py.

The *field view* (`_Core`) is what the pure-Python search runs on: in CPython it solves magictour_top1465
and forum_hardest_1106 about 4.5x faster than the same search over the cell view did. Sudoku is an exact cover: every variable takes exactly one value, and every value
appears exactly once in every full unit (an AllDifferent over `size` variables). Each of these
"exactly one" groups is a *field* of `size` bits, one bit per option (variable, value) of the
group, followed by a guard bit. All fields sit side by side in ONE Python int, so a handful of
big-int operations look at every field at once (SWAR: SIMD within a register):

    t = (Y | G) - L     per field x-1; a field's guard survives only where x != 0
    y = t & Y           per field x & (x-1): the field minus its lowest bit
    ((y | G) - L) & G   guard set where x has two or more bits

so "some field is empty" (a contradiction) and "these fields hold exactly one option"
(naked singles in cell fields, hidden singles in unit fields) cost a few operations for the
whole grid. Placing option o is `Y &= keep[o]`: one mask clears every option it conflicts
with (its variable's other values, the same value in every peer, nogood and |x-y|=d partners),
precomputed on first use. A search state is two ints (candidates, fields done), so branching
copies nothing and backtracking restores nothing.

Roads not taken (measured on magictour_top1465 and forum_hardest_1106, CPU time, same run):
- branching on the lowest field of fewest options, which favours unit fields: 1.5x the nodes
  and 1.3-1.5x the time of the highest one, which favours cell fields;
- eliminating what sees both options of every two-option field (bivalue cells, two-place units:
  pointing and claiming among them), applied once per field along a branch: it halves the
  nodes on top1465 (64,566 -> 29,880) and cuts them by a fifth on forum, yet costs 1.1x and
  1.6x the time, since finding and applying the pairs costs more than the nodes it saves;
- a trail of undo records: a state of two ints needs none.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

from ..problem import AbsDiffNot, AllDifferent, Linear, Nogood, Problem, Table
from ..problem.houses import house_sums
from .base import ALL_KINDS, Availability, Engine, Outcome, Status
from ..units import crossings

_MASK_CACHE_BYTES = 32 << 20  # per problem; beyond it, masks of huge grids are rebuilt on use
_CACHED_PROBLEMS = 16         # compiled problems kept (one per geometry and rules, in practice)


@dataclass
class Compiled:
    """A problem's structure in the form the solvers want: plain lists of ints and tuples."""

    nvars: int
    full: int
    peers: list[tuple[int, ...]]
    units: list[tuple[int, ...]]
    nogoods: list[dict[int, tuple[tuple[int, int], ...]]] | None
    tables: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]]
    size: int = 0
    linears: list["_Sum"] = field(default_factory=list)
    # per option (x, a): per other variable y, the mask of the values of y that x = a forbids
    conflicts: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict, repr=False)
    core: "_Core | None" = field(default=None, repr=False)
    ccore: object = field(default=None, repr=False)     # the compiled search, or False
    dsizes: list[int] = field(default_factory=list, repr=False)
    ncells: int = 0
    # tables the rules imply (Rule.implied), filtered in search only: they prune sooner and
    # remove no solution, while propagation for reasoning stays that of the constraints
    implied: list["_TableBits"] = field(default_factory=list, repr=False)
    # sums the houses imply (innies and outies, problem/houses.py), filtered in search only
    implied_sums: list["_Sum"] = field(default_factory=list, repr=False)
    _table_bits: list["_TableBits"] | None = field(default=None, repr=False)

    @property
    def table_bits(self) -> list["_TableBits"]:
        """Return the tables made ready for the pure-Python filters, built on first use (the
        compiled core reads `tables` itself: a sandwich's 810 tables cost 30 ms to ready)."""
        if self._table_bits is None:
            self._table_bits = [_TableBits(vs, ts) for vs, ts in self.tables]
        return self._table_bits


_CACHE: dict[tuple[int, int, int], tuple[tuple, Compiled]] = {}


def compile_problem(problem: Problem) -> Compiled:
    """Return the compiled structure of a problem's constraints (cached per constraint tuple,
    size and number of variables: equal tuples such as `()` may be one shared object)."""
    key = (id(problem.constraints), problem.size, problem.nvars)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is problem.constraints:
        return hit[1]
    compiled = _compile(problem)
    if len(_CACHE) >= _CACHED_PROBLEMS:
        _CACHE.clear()
    _CACHE[key] = (problem.constraints, compiled)
    return compiled


def _compile(problem: Problem) -> Compiled:
    """Return the cell view of a problem (the field view is built on first search)."""
    n, size = problem.nvars, problem.size
    peers: list[set[int]] = [set() for _ in range(n)]
    units: dict[frozenset[int], tuple[int, ...]] = {}
    conflicts: dict[tuple[int, int], dict[int, int]] = {}
    tables = []
    linears = []

    def forbid(x: int, a: int, y: int, b: int) -> None:
        row = conflicts.get((x, a))
        if row is None:
            row = conflicts[(x, a)] = {}
        row[y] = row.get(y, 0) | 1 << (b - 1)
        row = conflicts.get((y, b))
        if row is None:
            row = conflicts[(y, b)] = {}
        row[x] = row.get(x, 0) | 1 << (a - 1)

    for c in problem.constraints:
        if isinstance(c, AllDifferent):
            for v in c.vars:
                peers[v].update(c.vars)
            for v in {v for v in c.vars if c.vars.count(v) > 1}:
                for a in range(1, size + 1):   # a variable listed twice differs from itself
                    forbid(v, a, v, a)
            if len(set(c.vars)) == size:
                units.setdefault(frozenset(c.vars), tuple(dict.fromkeys(c.vars)))
        elif isinstance(c, Nogood):
            forbid(c.x, c.a, c.y, c.b)
        elif isinstance(c, AbsDiffNot):
            for a in range(1, size + 1):
                for b in (a - c.d, a + c.d):
                    if 1 <= b <= size:
                        forbid(c.x, a, c.y, b)
        elif isinstance(c, Table):
            if c.vars or not c.tuples:
                tables.append((tuple(c.vars), tuple(c.tuples)))
        elif isinstance(c, Linear):
            linears.append(_Sum(c, [problem.domain_size(v) for v in c.vars]))
        else:
            raise TypeError(f"native engine cannot handle {type(c).__name__}")
    tables += _pair_tables(problem, conflicts)
    dsizes = [problem.domain_size(v) for v in range(n)]
    implied_sums = [_Sum(c, [problem.domain_size(v) for v in c.vars])
                    for c in house_sums(problem, list(units.values()))]
    for s in linears + implied_sums:
        s.distinct = _distinct_values(s, peers, dsizes)
    nogoods: list[dict[int, tuple[tuple[int, int], ...]]] = [dict() for _ in range(n)]
    for (x, a), row in conflicts.items():
        nogoods[x][1 << (a - 1)] = tuple(row.items())
    return Compiled(
        nvars=n, full=(1 << size) - 1,
        peers=[tuple(sorted(p - {i})) for i, p in enumerate(peers)],
        units=list(units.values()),
        nogoods=nogoods if conflicts else None,
        tables=tables, size=size, conflicts=conflicts, linears=linears,
        dsizes=dsizes, ncells=problem.ncells, implied=_implied(problem),
        implied_sums=implied_sums)


def _implied(problem: Problem) -> list["_TableBits"]:
    """Return the tables the puzzle's rules imply over its cells (none for a bare problem)."""
    puzzle = problem.puzzle
    if puzzle is None or puzzle.geometry.size != problem.size:
        return []
    g = puzzle.geometry
    return [_TableBits(tuple(g.index(c) for c in cells), tuple(tuples))
            for rule in puzzle.rules for cells, tuples in rule.implied(g)]


DISTINCT_MAX = 12       # values of the cells a sum of different values is filtered over by sets


def _distinct_values(s: "_Sum", peers: list[set[int]], dsizes: list[int]) -> int:
    """Return d when the sum adds up cells of values 1..d (d at most DISTINCT_MAX) that all
    differ from each other, each counted once (a killer cage), else 0."""
    vs = s.vars
    if len(vs) < 2 or len(set(vs)) != len(vs) or any(k != 1 for k in s.coefs):
        return 0
    d = dsizes[vs[0]]
    if d > DISTINCT_MAX or any(dsizes[v] != d for v in vs):
        return 0
    return d if all(w in peers[v] for i, v in enumerate(vs) for w in vs[i + 1:]) else 0


def _pair_tables(problem: Problem, conflicts) -> list:
    """Return, for each pair of variables whose nogoods say more than "differ" (a thermometer,
    a dot, a sum), the table of value pairs it allows: filtering candidates by it keeps the
    pair consistent before either is placed (arc consistency), which masks alone do not."""
    forbidden: dict[tuple[int, int], dict[int, int]] = {}   # (x, y): a -> y's values barred
    plain: dict[tuple[int, int], bool] = {}
    for (x, a), row in conflicts.items():
        for y, m in row.items():
            if x < y:
                forbidden.setdefault((x, y), {})[a] = m
                if m & ~(1 << (a - 1)):
                    plain[(x, y)] = False
    out = []
    for pair, bad in forbidden.items():
        if plain.get(pair, True):
            continue                          # plain "differ": placing a value says it all
        x, y = pair
        ys = problem.domain(y)
        out.append((pair, tuple((a, b) for a in problem.domain(x) for m in (bad.get(a, 0),)
                                for b in ys if not m >> (b - 1) & 1)))
    return out


class _Supporter:
    """A constraint that filters candidate bitmasks (`_support`, a pure function of them),
    remembering its last question and answer: search asks the same one again and again."""

    last: tuple = ((), None)
    vars: tuple[int, ...] = ()

    def support(self, cands: list[int]) -> list[int] | None:
        """Return each variable's supported candidates (value bitmasks), None when none fit."""
        asked = tuple(cands)
        if self.last[0] == asked:
            return self.last[1]
        out = self._support(cands)
        self.last = (asked, out)
        return out

    def _support(self, cands: list[int]) -> list[int] | None:
        raise NotImplementedError


class _TableBits(_Supporter):
    """A table made ready for support filtering: per column and value, the set of tuples
    with that value there, as one int. The tuples still possible are the AND over columns of
    the OR of their candidates' sets; a candidate is supported when it meets that set."""

    def __init__(self, vs: tuple[int, ...], tuples: tuple[tuple[int, ...], ...]):
        self.vars, self.tuples = vs, tuples
        self.all = (1 << len(tuples)) - 1
        self.masks: list[dict[int, int]] = [{} for _ in vs]
        for k, row in enumerate(tuples):
            for i, v in enumerate(row):
                if v >= 1:
                    m = self.masks[i]
                    m[v - 1] = m.get(v - 1, 0) | 1 << k

    def _support(self, cands: list[int]) -> list[int] | None:
        valid = self.all
        for m, c in zip(self.masks, cands):
            acc = 0
            while c:
                low = c & -c
                acc |= m.get(low.bit_length() - 1, 0)
                c ^= low
            valid &= acc
            if not valid:
                return None
        out = []
        for m, c in zip(self.masks, cands):
            keep = 0
            while c:
                low = c & -c
                if valid & m.get(low.bit_length() - 1, 0):
                    keep |= low
                c ^= low
            out.append(keep)
        return out


class _Sum(_Supporter):
    """A Linear constraint made ready for support filtering over candidate bitmasks.

    Each term's contribution coef*value is shifted to be >= 0, so a set of partial sums is one
    int with bit s set when the sum s is reachable; a value keeps its place when some
    reachable prefix plus it can still end in the allowed totals.
    """

    distinct = 0        # see _distinct_values: filtered by sets of values in search

    def __init__(self, c: Linear, domain_sizes: list[int]):
        self.vars = c.vars
        self.coefs = c.coefs
        self.shifts: list[list[int]] = []      # per term, per value index: its contribution
        low = 0
        for k, d in zip(c.coefs, domain_sizes):
            parts = [k * v for v in range(1, d + 1)]
            low += min(parts)
            self.shifts.append([p - min(parts) for p in parts])
        top = sum(max(s) for s in self.shifts)
        rhs = c.rhs - low
        if c.op == "==":
            self.target = 1 << rhs if 0 <= rhs <= top else 0
        elif c.op == "<=":
            self.target = (1 << (min(rhs, top) + 1)) - 1 if rhs >= 0 else 0
        else:
            self.target = ((1 << (top + 1)) - 1) & ~((1 << max(rhs, 0)) - 1)

    def _support(self, cands: list[int]) -> list[int] | None:
        shifts, n = self.shifts, len(cands)
        reach = [1]
        for cand, sh in zip(cands, shifts):
            acc, r = 0, reach[-1]
            while cand:
                low = cand & -cand
                acc |= r << sh[low.bit_length() - 1]
                cand ^= low
            reach.append(acc)
        need = [0] * (n + 1)
        need[n] = self.target
        for i in range(n - 1, -1, -1):
            acc, cand, g = 0, cands[i], need[i + 1]
            while cand:
                low = cand & -cand
                acc |= g >> shifts[i][low.bit_length() - 1]
                cand ^= low
            need[i] = acc
        if not need[0] & 1:
            return None
        out = []
        for i in range(n):
            keep, cand, r, g = 0, cands[i], reach[i], need[i + 1]
            while cand:
                low = cand & -cand
                if (r << shifts[i][low.bit_length() - 1]) & g:
                    keep |= low
                cand ^= low
            out.append(keep)
        return out


class _DistinctSum(_Supporter):
    """A sum of cells that all differ (a killer cage), filtered as the search's compiled core
    filters it: by the sets of different values the cells can take one by one, forward from
    the first cell and back from the allowed totals. A value stays only where some such set
    with an allowed total uses it: the exact support of the sum and the differences together,
    which totals alone miss."""

    def __init__(self, s: _Sum):
        self.vars, self.target = s.vars, s.target

    def _support(self, cands: list[int]) -> list[int] | None:
        forward = [{0}]
        for cand in cands:
            step = set()
            for used in forward[-1]:
                free = cand & ~used
                while free:
                    low = free & -free
                    step.add(used | low)
                    free ^= low
            forward.append(step)
        good = {used for used in forward[-1] if self.target >> _index_sum(used) & 1}
        if not good:
            return None
        out = [0] * len(cands)
        for i in range(len(cands) - 1, -1, -1):
            back, keep = set(), 0
            for used in forward[i]:
                free = cands[i] & ~used
                while free:
                    low = free & -free
                    if used | low in good:
                        back.add(used)
                        keep |= low
                    free ^= low
            out[i], good = keep, back
        return out


def _index_sum(used: int) -> int:
    """Return the sum of the bit indexes of a value set (each value's shift in a sum of 1s)."""
    total = 0
    while used:
        low = used & -used
        total += low.bit_length() - 1
        used ^= low
    return total


# ---------------------------------------------------------------- the cell view (reasoning)

def propagate(cand: list[int], queue: list[int], C: Compiled) -> bool:
    """Narrow `cand` in place to a fixpoint of singles, nogoods and tables; False on a
    contradiction. `queue` holds the variables just fixed (each with one value left). The
    compiled core computes the same fixpoint where it runs."""
    cc = _ccore(C)
    if cc is not None and len(cand) == C.nvars and all(
            cand[i] and not cand[i] & (cand[i] - 1) for i in queue):
        narrowed = cc.propagate(cand, queue)
        if narrowed is None:
            return False
        cand[:] = narrowed
        return True
    return _propagate_python(cand, queue, C)


def _propagate_python(cand: list[int], queue: list[int], C: Compiled) -> bool:
    """The pure-Python `propagate`."""
    peers, units, full, nogoods, tables = C.peers, C.units, C.full, C.nogoods, C.table_bits
    while True:
        while queue:
            i = queue.pop()
            bit = cand[i]
            for p in peers[i]:
                c = cand[p]
                if c & bit:
                    c ^= bit
                    if not c:
                        return False
                    cand[p] = c
                    if not c & (c - 1):
                        queue.append(p)
            if nogoods is not None:
                for y, mask in nogoods[i].get(bit, ()):
                    c = cand[y]
                    if c & mask:
                        c &= ~mask
                        if not c:
                            return False
                        cand[y] = c
                        if not c & (c - 1):
                            queue.append(y)
        if not _hidden_singles(cand, queue, units, full):
            return False
        if queue:
            continue
        # tables and sums last; what they narrow (singles or not) goes round again, so the
        # result is the fixpoint of all of them (the one the compiled core reaches)
        before = cand[:] if tables or C.linears else cand
        if tables and not _propagate_tables(cand, queue, tables):
            return False
        if C.linears and not queue and not _propagate_sums(cand, queue, C.linears):
            return False
        if not queue and cand == before:
            return True


_propagate = propagate  # the name it had before


def _hidden_singles(cand: list[int], queue: list[int], units, full: int) -> bool:
    """Fix each value that has one place left in a unit; False when a unit lacks a value."""
    for unit in units:
        once = twice = 0
        for i in unit:
            c = cand[i]
            twice |= once & c
            once |= c
        if once != full:
            return False
        uniq = once & ~twice
        if uniq:
            for i in unit:
                c = cand[i]
                m = c & uniq
                if m and c != m:
                    if m & (m - 1):
                        return False
                    cand[i] = m
                    queue.append(i)
    return True


def _propagate_tables(cand: list[int], queue: list[int], tables) -> bool:
    """Keep only values supported by some allowed tuple of each table; False on a wipe-out."""
    for t in tables:
        support = t.support([cand[v] for v in t.vars])
        if support is None:
            return False
        for v, s in zip(t.vars, support):
            c = cand[v]
            if c & s != c:
                c &= s
                if not c:
                    return False
                cand[v] = c
                if not c & (c - 1):
                    queue.append(v)
    return True


def _propagate_sums(cand: list[int], queue: list[int], sums: list["_Sum"]) -> bool:
    """Keep only values some allowed total of each sum supports; False on a wipe-out."""
    for s in sums:
        support = s.support([cand[v] for v in s.vars])
        if support is None:
            return False
        for v, keep in zip(s.vars, support):
            c = cand[v]
            if c & keep != c:
                c &= keep
                if not c:
                    return False
                cand[v] = c
                if not c & (c - 1):
                    queue.append(v)
    return True


def initial_candidates(problem: Problem, C: Compiled) -> list[int] | None:
    """Return the propagated candidates (one bitmask per variable) with the givens placed, or
    None on a contradiction."""
    core = _core(problem, C)
    state = core.start(problem.givens)
    state = state and core.fixpoint(*state)
    return None if state is None else core.candidates(state[0])


# ---------------------------------------------------------------- the field view (search)

def _core(problem: Problem, C: Compiled) -> "_Core":
    """Return the field view of a compiled problem, building it once."""
    if C.core is None:
        C.core = _Core(problem, C)
    return C.core


class _Core:
    """Every "exactly one" group as a field of `size` bits plus a guard, packed in one int.

    Option o = var * size + (value - 1). Unit fields come first, numbered value-major
    (field = d * nunits + u, bit k = the k-th variable of unit u), then one field per variable
    (bit d = value d + 1). Masks per option are built on first use and cached.
    """

    def __init__(self, problem: Problem, C: Compiled):
        size, n, units = problem.size, problem.nvars, C.units
        N = problem.max_domain            # the option stride: values per variable, at most
        self.N, self.n, self.W, self.C = N, n, N + 1, C
        self.dsize = [problem.domain_size(v) for v in range(n)]
        self.M1 = (1 << N) - 1
        W, nU = self.W, len(units)
        pos: list[list[int]] = [[] for _ in range(n * N)]
        for u, unit in enumerate(units):
            for k, var in enumerate(unit):
                for d in range(size):
                    pos[var * N + d].append((d * nU + u) * W + k)
        self.cell_base = size * nU
        for var in range(n):
            for d in range(self.dsize[var]):
                pos[var * N + d].append((self.cell_base + var) * W + d)
        nfields = self.cell_base + n
        self.nbits = nfields * W
        self.pos = pos
        self.opt = [0] * self.nbits
        for o, ps in enumerate(pos):
            for p in ps:
                self.opt[p] = o
        self.G = _bits_int((f * W + N for f in range(nfields)), self.nbits)
        ncells = problem.ncells
        self.branchable = _bits_int((f * W + N for f in range(self.cell_base + ncells)),
                                    self.nbits)
        self.L = _bits_int((f * W for f in range(nfields)), self.nbits)
        self.full = _bits_int((p for ps in pos for p in ps), self.nbits)
        self.masks: list[tuple[int, int, int] | None] = [None] * (n * N)
        per_entry = 3 * (self.nbits // 8 + 1)
        self.cache_left = _MASK_CACHE_BYTES // per_entry
        self.tables = C.table_bits + C.implied
        # in search, a sum of cells that all differ is filtered by value sets, as in the core
        self.linears = [_DistinctSum(s) if s.distinct else s
                        for s in C.linears + C.implied_sums]
        impossible = [x * N + a - 1 for (x, a), row in C.conflicts.items()
                      if row.get(x, 0) >> (a - 1) & 1]
        self.start_Y = self.full & ~_bits_int((p for o in impossible for p in pos[o]),
                                               self.nbits)

    def mask(self, o: int) -> tuple[int, int, int]:
        """Return (keep, done, found-keep) for option o: the candidates left after placing it,
        the guards of the fields it settles, and `keep` without o's own bits."""
        m = self.masks[o]
        if m is not None:
            return m
        N, pos = self.N, self.pos
        var, d = divmod(o, N)
        gone = bytearray(self.nbits // 8 + 1)
        others = [j * N + d for j in self.C.peers[var]]
        others += [var * N + e for e in range(self.dsize[var]) if e != d]
        for y, barred in self.C.conflicts.get((var, d + 1), {}).items():
            barred &= (1 << self.dsize[y]) - 1
            while barred:
                low = barred & -barred
                others.append(y * N + low.bit_length() - 1)
                barred ^= low
        for q in others:
            if q != o:
                for p in pos[q]:
                    gone[p >> 3] |= 1 << (p & 7)
        own = _bits_int(pos[o], self.nbits)
        keep = self.full & ~int.from_bytes(gone, "little")
        done = _bits_int(((p // self.W) * self.W + N for p in pos[o]), self.nbits)
        m = (keep, done, keep & ~own)
        if self.cache_left > 0:
            self.masks[o] = m
            self.cache_left -= 1
        return m

    def start(self, givens) -> tuple[int, int] | None:
        """Return the state with the givens placed (not yet propagated), None if they clash."""
        Y, D, N = self.start_Y, 0, self.N
        if any(not t.all for t in self.tables):
            return None
        for var, value in givens:
            if not (0 <= var < self.n and 1 <= value <= self.dsize[var]):
                return None
            o = var * N + value - 1
            if not Y >> self.pos[o][-1] & 1:
                return None
            keep, done, _ = self.mask(o)
            Y &= keep
            D |= done
        return Y, D

    def fixpoint(self, Y: int, D: int) -> tuple[int, int] | None:
        """Return the state narrowed by singles (and tables) to a fixpoint, None on a
        contradiction."""
        G, L, N, M1 = self.G, self.L, self.N, self.M1
        opt, masks, mask = self.opt, self.masks, self.mask
        while True:
            t = (Y | G) - L
            if t & G != G:
                return None
            single = G & ~((((t & Y) | G) - L) | D)
            if not single:
                if self.tables or self.linears:
                    Y2 = self.table_step(Y)
                    if Y2 is None:
                        return None
                    if Y2 != Y:
                        Y = Y2
                        continue
                return Y, D
            found = Y & ((single >> N) * M1)
            while found:
                o = opt[found.bit_length() - 1]
                keep, done, fkeep = masks[o] or mask(o)
                Y &= keep
                D |= done
                found &= fkeep

    def branch(self, Y: int, D: int) -> list[int]:
        """Return the options of an unsettled field with the fewest (at least two) left."""
        G, L, W = self.G, self.L, self.W
        t = (Y | G) - L
        cur = t & Y
        cur_z = (cur | G) - L
        # branch on cells and units only: the cells fix every auxiliary (a position, a flag,
        # a partial sum), and guessing a flag decides far less than guessing a cell
        live = G & ~D & self.branchable or G & ~D
        while True:
            nxt = cur & cur_z
            nxt_z = (nxt | G) - L
            exact = live & cur_z & ~nxt_z
            if exact:
                break
            cur, cur_z = nxt, nxt_z
        base = (exact.bit_length() - 1) // W * W
        bits = (Y >> base) & self.M1
        out = []
        while bits:
            low = bits & -bits
            out.append(self.opt[base + low.bit_length() - 1])
            bits ^= low
        return out

    def table_step(self, Y: int) -> int | None:
        """Return Y without the options no allowed tuple of some table (or no total of some
        sum) supports; None when a sum has no total left. The candidates are read off Y once
        and narrowed as each constraint is filtered, so later ones see earlier drops."""
        cands = self.candidates(Y)
        drop: list[int] = []
        for t in (*self.tables, *self.linears):
            vs = t.vars
            mine = [cands[v] for v in vs]
            support = t.support(mine)
            if support is None:
                return None
            for var, c, s in zip(vs, mine, support):
                if c & ~s:
                    cands[var] = c & s
                    drop.append(var)
        if not drop:
            return Y
        return self._drop(Y, drop, self.candidates(Y), cands)

    def _drop(self, Y: int, vs, before: list[int], after: list[int]) -> int:
        """Return Y without each listed variable's candidates that `after` no longer holds."""
        gone = []
        for var in set(vs):
            d = before[var] & ~after[var]
            while d:
                low = d & -d
                d ^= low
                gone.extend(self.pos[var * self.N + low.bit_length() - 1])
        return Y & ~_bits_int(gone, self.nbits)

    def candidates(self, Y: int, variables=None) -> list[int]:
        """Return the candidate bitmask of each variable (all, or those listed)."""
        W, M1, base = self.W, self.M1, self.cell_base
        cells = Y >> (base * W)
        vs = range(self.n) if variables is None else variables
        return [(cells >> (v * W)) & M1 for v in vs]

    def solution(self, Y: int) -> tuple[int, ...]:
        """Return the values of a settled state."""
        W = self.W
        bits = format(Y >> (self.cell_base * W), "b")[::-1]
        return tuple(bits.find("1", v * W) - v * W + 1 for v in range(self.n))


def _bits_int(positions, nbits: int) -> int:
    """Return the int with exactly the given bit positions set."""
    buf = bytearray(nbits // 8 + 1)
    for p in positions:
        buf[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(buf, "little")


# ---------------------------------------------------------------- the compiled core

def _load_compiled():
    """Return the compiled search module, None when it was not built here or
    POLYDOKU_NATIVE=python asks for the pure-Python search."""
    if os.environ.get("POLYDOKU_NATIVE", "").lower() == "python":
        return None
    try:
        from .. import _core
    except ImportError:
        return None
    return _core


_compiled = _load_compiled()


def backend() -> str:
    """Return which search the native engine runs: "compiled" (the C core) or "python"."""
    return "compiled" if _compiled is not None else "python"


def _ccore(C: Compiled):
    """Return the C core of a compiled problem (built once), None when it cannot take it
    (not built here, or a domain of more than 64 values)."""
    if _compiled is None:
        return None
    if C.ccore is None:
        C.ccore = _build_ccore(C) or False
    return C.ccore or None


def _build_ccore(C: Compiled):
    if max(C.dsizes, default=0) > 64:
        return None
    dsizes = C.dsizes
    conflicts = [(x, a, y, m & ((1 << dsizes[y]) - 1))
                 for (x, a), row in C.conflicts.items() for y, m in row.items()]
    sums = []
    for i, s in enumerate(C.linears + C.implied_sums):
        top = sum(max(sh) for sh in s.shifts)
        words = (top + 64) // 64
        sums.append((s.vars, s.shifts, s.target.to_bytes(words * 8, "little"), top,
                     s.distinct, None if s.distinct else _sum_groups(s, C.peers, dsizes),
                     i >= len(C.linears)))
    return _compiled.Core(dsizes, C.ncells, C.peers, C.units, conflicts,
                          [(vs, ts) for vs, ts in C.tables]
                          + [(t.vars, t.tuples, True) for t in C.implied],
                          sums, crossings(C.units))


def _sum_groups(s: "_Sum", peers: list[tuple[int, ...]], dsizes: list[int]
                ) -> list[tuple[int, int, tuple[int, ...]]] | None:
    """Return the terms of a sum as groups of cells that all differ, for the core's search
    (sign, d, term indexes: +1 or -1 coefficients on cells of values 1..d; 0, 0 for a group
    of one term), or None when no two terms fall into one group (the totals alone are then
    as exact). A term joins the first group of its sign and d whose every cell it sees."""
    if len(s.vars) > 64:
        return None
    groups: list[tuple[int, int, list[int]]] = []
    for t, (v, k) in enumerate(zip(s.vars, s.coefs)):
        d = dsizes[v]
        if k in (1, -1) and d <= DISTINCT_MAX:
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


class _TimedOut(Exception):
    """The deadline passed during the search."""


def _run(core: _Core, Y: int, D: int, limit: int, deadline: float | None, stats: dict,
         solutions: list, keep: int | None = None) -> None:
    """Depth-first search from a state, finding up to `limit` solutions (appending the first
    `keep` of them, all when None, and counting them in stats["found"]); counts nodes and
    guesses (branch points) in `stats`; raises _TimedOut past the deadline."""
    most = limit if keep is None else keep
    found = 0
    G, fixpoint, branch, mask = core.G, core.fixpoint, core.branch, core.mask
    stack = [(Y, D, -1)]
    nodes = guesses = 0
    try:
        while stack:
            Y, D, o = stack.pop()
            nodes += 1
            if deadline is not None and not nodes & 63 and time.monotonic() > deadline:
                raise _TimedOut
            if o >= 0:
                keep, done, _ = mask(o)
                Y &= keep
                D |= done
            state = fixpoint(Y, D)
            if state is None:
                continue
            Y, D = state
            if D == G:
                found += 1
                if found <= most:
                    solutions.append(core.solution(Y))
                if found >= limit:
                    return
                continue
            guesses += 1
            for o in reversed(branch(Y, D)):
                stack.append((Y, D, o))
    finally:
        stats["nodes"] += nodes
        stats["guesses"] += guesses
        stats["found"] = stats.get("found", 0) + found


def search(problem: Problem, max_solutions: int = 1, timeout: float | None = None,
           keep: int | None = None) -> Outcome:
    """Return the native engine's outcome for a problem: up to `max_solutions` solutions,
    `exhausted` when it has seen them all, status UNKNOWN when the deadline passed first.
    With `keep`, only the first `keep` solutions are kept (the rest counted: `found`), so a
    count of millions runs in little memory."""
    deadline = time.monotonic() + timeout if timeout else None
    C = compile_problem(problem)
    cc = _ccore(C)
    if cc is not None:
        return _csearch(cc, problem, max(1, max_solutions), deadline, keep)
    core = _core(problem, C)
    stats = {"nodes": 0, "guesses": 0}
    state = core.start(problem.givens)
    if state is None:
        return Outcome(Status.UNSATISFIABLE, exhausted=True, stats=stats, engine="native")
    solutions: list[tuple[int, ...]] = []
    limit = max(1, max_solutions)
    try:
        _run(core, *state, limit, deadline, stats, solutions, keep)
        timed_out = False
    except _TimedOut:
        timed_out = True
    return _outcome(solutions, stats.pop("found"), limit, stats, timed_out, keep)


def _csearch(cc, problem: Problem, limit: int, deadline: float | None,
             keep: int | None) -> Outcome:
    """Return the outcome of the C core's search (the same contract as `search`)."""
    solutions, found, nodes, guesses, timed_out = cc.search(
        problem.givens, limit, limit if keep is None else keep, deadline or 0.0)
    return _outcome(solutions, found, limit, {"nodes": nodes, "guesses": guesses}, timed_out,
                    keep)


def _outcome(solutions: list, found: int, limit: int, stats: dict, timed_out: bool,
             keep: int | None) -> Outcome:
    """Return the outcome of a search (either one) that found `found` solutions, keeping
    `solutions`: cut by the deadline, solved or unknown; else exhausted below the limit."""
    counted = found if keep is not None else None
    if timed_out:
        status = Status.SOLVED if solutions else Status.UNKNOWN
        return Outcome(status, solutions, False, stats, timed_out_words(), "native",
                       found=counted)
    status = Status.SOLVED if solutions else Status.UNSATISFIABLE
    return Outcome(status, solutions, found < limit, stats, engine="native", found=counted)


# engines that learn from their conflicts, which prove the puzzles this search gives up on
# (a published sandwich puzzle: native past 120 s, sat in 20 s); the first one here is named
_PROVERS = (("sat", "pysat", "python-sat"), ("cpsat", "ortools", "ortools"))


def timed_out_words() -> str:
    """Return what the native engine says when its deadline passes: that it timed out, and
    the engine (installed here, or how to install it) that proves puzzles like this one."""
    import importlib.util
    for engine, module, _ in _PROVERS:
        if importlib.util.find_spec(module) is not None:
            return (f"timed out; {engine} learns from its conflicts and proves puzzles like "
                    f"this one: try --engine {engine}")
    engine, _, package = _PROVERS[0]
    return (f"timed out; {engine} learns from its conflicts and proves puzzles like this one "
            f"(pip install {package}, then --engine {engine})")


def count_with(problem: Problem, givens, limit: int = 2, deadline: float | None = None
               ) -> int | None:
    """Return how many solutions (up to `limit`) the problem's constraints have under other
    `givens` ((var, value) pairs), None when the monotonic `deadline` passed first. The
    quickest way to ask "still unique?" many times over one geometry (the generator's
    digging): no problem, outcome or solution tuple is built."""
    C = compile_problem(problem)
    cc = _ccore(C)
    if cc is not None:
        _, found, _, _, timed_out = cc.search(givens, limit, 0, deadline or 0.0)
        return None if timed_out else found
    core = _core(problem, C)
    state = core.start(givens)
    if state is None:
        return 0
    stats = {"nodes": 0, "guesses": 0}
    try:
        _run(core, *state, limit, deadline, stats, [], 0)
    except _TimedOut:
        return None
    return stats["found"]


def constraint_filter(problem: Problem, c: Table | Linear) -> "_Supporter":
    """Return the candidate filter of one table or sum constraint: its `support(cands)` maps
    the candidate bitmasks of `c.vars` to the candidates some allowed tuple (or total) still
    uses, None when none is left. The logical solver uses it to reason over clues it has no
    technique for."""
    if isinstance(c, Linear):
        return _Sum(c, [problem.domain_size(v) for v in c.vars])
    return _TableBits(tuple(c.vars), tuple(c.tuples))


def random_solution(problem: Problem, rng, deadline: float | None = None,
                    nodes: int = 2000) -> tuple[int, ...] | None:
    """Return a solution drawn at random: depth-first search that tries each branch's
    values in a random order (from `rng`, a random.Random), restarted after `nodes` nodes
    with twice the budget (a heavy-tailed search gets unlucky less often). None when the
    problem has no solution or the monotonic `deadline` passed first."""
    core = _core(problem, compile_problem(problem))
    start = core.start(problem.givens)
    if start is None:
        return None
    G, fixpoint, branch, mask = core.G, core.fixpoint, core.branch, core.mask
    budget = nodes
    while True:
        stack = [(*start, -1)]
        count = 0
        while stack and count < budget:
            Y, D, o = stack.pop()
            count += 1
            if deadline is not None and not count & 63 and time.monotonic() > deadline:
                return None
            if o >= 0:
                keep, done, _ = mask(o)
                Y &= keep
                D |= done
            state = fixpoint(Y, D)
            if state is None:
                continue
            Y, D = state
            if D == G:
                return core.solution(Y)
            options = branch(Y, D)
            rng.shuffle(options)
            stack.extend((Y, D, o) for o in options)
        if not stack:
            return None                       # searched it all: no solution
        budget *= 2


def solved_by_singles(problem: Problem) -> bool:
    """Return whether naked and hidden singles alone, repeated, fill every cell (the givens
    must hold a solution for the answer to mean "Easy")."""
    C = compile_problem(problem)
    cc = _ccore(C)
    if cc is not None:
        cands = cc.fixpoint(problem.givens)
        return cands is not None and all(not c & (c - 1) for c in cands)
    core = _core(problem, C)
    state = core.start(problem.givens)
    if state is None:
        return False
    state = core.fixpoint(*state)
    return state is not None and state[1] == core.G


class NativeEngine(Engine):
    """polydoku's own solver, in process."""

    id = "native"
    title = "polydoku's own bitmask propagation-and-search solver (in process)"
    install_hint = "built in"
    capabilities = frozenset({"solve", "count"})
    takes = ALL_KINDS
    takes_aux = True

    def available(self) -> Availability:
        from .. import __version__
        return Availability(True, f"{__version__} ({backend()} search)")

    def solve(self, problem: Problem, *, max_solutions: int = 1,
              timeout: float | None = None, keep: int | None = None) -> Outcome:
        return search(problem, max_solutions, timeout, keep)
