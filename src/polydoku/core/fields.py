"""The field view of a compiled problem, what the pure-Python search runs on: every "exactly
one" group (a variable's values, a full unit's places for a value) as a field of bits plus a
guard, all packed in one Python int (see engines/native.py for the method and its measures)."""

from __future__ import annotations

from typing import cast

from ..problem import Problem
from .compiled import Compiled
from .filters import _DistinctSum, _GroupSum

MASK_CACHE_BYTES = 32 << 20  # per problem; beyond it, masks of huge grids are rebuilt on use


def _core(problem: Problem, C: Compiled) -> _Core:
    """Return the field view of a compiled problem, building it once."""
    if C.core is None:
        C.core = _Core(problem, C)
    return cast(_Core, C.core)


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
        self.cache_left = MASK_CACHE_BYTES // per_entry
        self.tables = C.table_bits + C.implied_bits
        # in search, a sum over cells that differ is filtered by value sets, as in the core
        self.linears = [_DistinctSum(s, C.units, C.peers) if s.distinct
                        else _GroupSum(s) if s.groups else s
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
            if isinstance(t, _DistinctSum):
                got = t.narrow(cands)
                if got is None:
                    return None
                support, every = got
            else:
                plain = t.support(mine)
                if plain is None:
                    return None
                support, every = plain, 0
            for var, c, s in zip(vs, mine, support):
                if c & ~s:
                    cands[var] = c & s
                    drop.append(var)
            if every:
                out = cast(_DistinctSum, t).required_out(cands, every)
                if out is None:
                    return None
                for var, bit in out:
                    cands[var] &= ~bit
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
