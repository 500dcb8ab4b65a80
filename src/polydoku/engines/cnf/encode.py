"""CNF encoder: a problem's constraints as clauses over one boolean per (cell, value).

Pure: problem -> clauses (and DIMACS text); it never runs a solver. Givens are not clauses
of the base encoding: each given is one literal, used as an assumption (or a unit clause in
files and in solvers without assumptions), so one encoding serves every puzzle of a
geometry and rules.

Variable `var * size + value` (1-based) means "cell `var` holds `value`". Clauses:
- per cell: at least one value (one clause), at most one (pairwise binary clauses);
- per AllDifferent and value: at most one of its cells holds it (pairwise); a unit of
  `size` cells also gets "at least one cell holds it" (the hidden-single clause);
- Nogood and AbsDiffNot: one binary clause per forbidden pair of values;
- Table: for each assignment of all but its last variable, one clause saying the last takes
  an allowed value (the support encoding: no new variables, and partial sums chain through
  it); a table whose other columns have too many combinations gets one auxiliary boolean per
  allowed tuple instead, which implies its values, and one clause saying some tuple holds.
- Auxiliary problem variables (sums, sandwiches...) get booleans after the cells' ones, one
  per value of their own domain.
Binary clauses are deduplicated (an anti-king pair inside a box is already there).

Roads not taken: a sequential-counter at-most-one would save clauses on 25x25 but slows
propagation on 9x9, where pairwise is what fast Sudoku SAT encodings use.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...problem import AbsDiffNot, AllDifferent, Nogood, Problem, Table
from ..models.common import in_kinds


@dataclass
class Cnf:
    """Clauses over variables 1..nvars; cell literals first, auxiliary ones after them."""

    size: int
    ncells: int
    nvars: int
    clauses: list[list[int]] = field(default_factory=list)
    sections: list[tuple[str, int, int]] = field(default_factory=list)   # label, first, end
    aux_base: list[int] = field(default_factory=list)   # per auxiliary problem variable
    aux_names: list[str] = field(default_factory=list)
    aux_sizes: list[int] = field(default_factory=list)

    def lit(self, var: int, value: int) -> int:
        """Return the literal "variable `var` holds `value`"."""
        if var < self.ncells:
            return var * self.size + value
        return self.aux_base[var - self.ncells] + value

    def cell_of(self, lit: int) -> tuple[int, int]:
        """Return the (var, value) of a positive cell literal."""
        var, value = divmod(lit - 1, self.size)
        return var, value + 1

    def given_literals(self, problem: Problem) -> list[int]:
        """Return one literal per given of `problem`, in the order of its givens."""
        return [self.lit(var, value) for var, value in problem.givens]

    def decode(self, model) -> tuple[int, ...]:
        """Return the values per cell of a model (a list of signed literals, or a set of true ones)."""
        values = [0] * self.ncells
        for lit in model:
            if 0 < lit <= self.ncells * self.size:
                var, value = self.cell_of(lit)
                values[var] = value
        return tuple(values)

    def blocking_clause(self, solution: tuple[int, ...],
                        skip: set[int] | frozenset[int] = frozenset()) -> list[int]:
        """Return the clause that rules out `solution` (cells in `skip`, e.g. givens, left out)."""
        return [-self.lit(var, v) for var, v in enumerate(solution) if var not in skip]


class _Builder:
    """Accumulates clauses with binary ones deduplicated, in labelled sections."""

    def __init__(self, size: int, ncells: int):
        self.cnf = Cnf(size, ncells, ncells * size)
        self.binaries: set[tuple[int, int]] = set()
        self._label, self._start = "", 0

    def section(self, label: str) -> None:
        """Start a section of clauses labelled `label` (merging with the previous when equal)."""
        if label == self._label:
            return
        self._close()
        self._label, self._start = label, len(self.cnf.clauses)

    def _close(self) -> None:
        if self._label and len(self.cnf.clauses) > self._start:
            self.cnf.sections.append((self._label, self._start, len(self.cnf.clauses)))

    def add(self, clause: list[int]) -> None:
        """Add a clause (a binary one only once)."""
        if len(clause) == 2:
            key = (min(clause), max(clause))
            if key in self.binaries:
                return
            self.binaries.add(key)
        self.cnf.clauses.append(clause)

    def fresh(self) -> int:
        """Return a new auxiliary variable."""
        self.cnf.nvars += 1
        return self.cnf.nvars

    def done(self) -> Cnf:
        self._close()
        return self.cnf


def encode(problem: Problem) -> Cnf:
    """Return the CNF of a problem's constraints (its givens are left to the caller)."""
    problem = in_kinds(problem)
    size, ncells = problem.size, problem.ncells
    b = _Builder(size, ncells)
    for k, d in enumerate(problem.aux):
        b.cnf.aux_base.append(b.cnf.nvars)
        b.cnf.aux_names.append(problem.name(ncells + k))
        b.cnf.aux_sizes.append(d)
        b.cnf.nvars += d
    lit = b.cnf.lit
    values = range(1, size + 1)
    b.section("cell")
    for var in range(problem.nvars):
        dom = problem.domain(var)
        b.add([lit(var, v) for v in dom])
        for a in dom:
            for c in range(a + 1, dom.stop):
                b.add([-lit(var, a), -lit(var, c)])
    for con in problem.constraints:
        b.section(con.label or type(con).__name__)
        _encode_one(b, con, values, problem.domain)
    return b.done()


_SUPPORT_LIMIT = 4096   # combinations of a table's other columns the support encoding spells out


def _encode_one(b: _Builder, con, values: range, domain=None) -> None:
    """Add the clauses of one constraint."""
    lit, size = b.cnf.lit, b.cnf.size
    if isinstance(con, AllDifferent):
        vs = con.vars
        # an auxiliary's values may be fewer than a cell's (a house's missing value of 1..N
        # on a grid of N + 1 values): a literal past its domain would be another variable's
        tops = [len(domain(x)) if domain is not None else size for x in vs]
        top = max(tops, default=size)   # auxiliaries may have more values than a cell
        for v in range(1, max(top, values.stop - 1) + 1):
            holders = [x for x, t in zip(vs, tops) if v <= t]
            for k, x in enumerate(holders):
                for y in holders[k + 1:]:
                    b.add([-lit(x, v), -lit(y, v)])
            if len(holders) == len(vs) == top:      # as many variables as values: each once
                b.add([lit(x, v) for x in vs])
    elif isinstance(con, Nogood):
        b.add([-lit(con.x, con.a), -lit(con.y, con.b)])
    elif isinstance(con, AbsDiffNot):
        for a in values:
            for c in (a - con.d, a + con.d):
                if 1 <= c <= size:
                    b.add([-lit(con.x, a), -lit(con.y, c)])
    elif isinstance(con, Table):
        if _support_clauses(b, con, domain):
            return
        chosen = []
        for row in con.tuples:
            t = b.fresh()
            chosen.append(t)
            for x, v in zip(con.vars, row):
                b.add([-t, lit(x, v)])
        b.add(chosen)


def _support_clauses(b: _Builder, con: Table, domain) -> bool:
    """Add a table as support clauses (see the module docstring); False when too large."""
    from itertools import product
    lit = b.cnf.lit
    if not con.vars or domain is None:
        return False
    *heads, last = con.vars
    doms = [domain(v) for v in heads]
    combos = 1
    for d in doms:
        combos *= len(d)
    if combos > _SUPPORT_LIMIT or len(set(con.vars)) != len(con.vars):
        return False
    allowed: dict[tuple[int, ...], set[int]] = {}
    for row in con.tuples:
        allowed.setdefault(tuple(row[:-1]), set()).add(row[-1])
    for key in product(*doms):
        lasts = allowed.get(key, set())
        if len(lasts) == len(domain(last)):
            continue
        b.add([-lit(x, v) for x, v in zip(heads, key)] + [lit(last, v) for v in sorted(lasts)])
    return True


def to_dimacs(cnf: Cnf, problem: Problem, units: list[int] | None = None) -> str:
    """Return DIMACS text: a comment map from variables to `rNcM=v`, the clauses in labelled
    sections, and `units` (the givens) as unit clauses at the end."""
    units = units or []
    out = [f"c polydoku CNF: variable (cell * {cnf.size} + value) means cell holds value",
           f"c {len(units)} givens as unit clauses at the end"]
    if cnf.nvars > cnf.ncells * cnf.size:
        out.append(f"c variables {cnf.ncells * cnf.size + 1}..{cnf.nvars} are auxiliaries")
    for var in range(cnf.ncells):
        name = problem.name(var)
        out += [f"c {cnf.lit(var, v)} {name}={v}" for v in range(1, cnf.size + 1)]
    for base, name, d in zip(cnf.aux_base, cnf.aux_names, cnf.aux_sizes):
        out += [f"c {base + v} {name}={v}" for v in range(1, d + 1)]
    out.append(f"p cnf {cnf.nvars} {len(cnf.clauses) + len(units)}")
    for label, first, end in cnf.sections:
        out.append(f"c {label}")
        out += [" ".join(map(str, clause)) + " 0" for clause in cnf.clauses[first:end]]
    if units:
        out.append("c givens")
        out += [f"{u} 0" for u in units]
    return "\n".join(out) + "\n"
