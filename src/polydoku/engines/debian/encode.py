"""The Debian encoders: a problem becomes a `Packages` file; an installation of `puzzle` is a
solution.

Pure: problem in, text out. No files, no subprocesses (those live in `run.py`).

Two reductions of the Debian write-up, generalised from 9×9 to any size and any rule through
the problem IR (never the puzzle geometry):

- *conflicts*: one package `cellR.C-V` per cell and value. Every AllDifferent of three or more
  cells becomes, per value, a virtual package (`rowR-V`, `colC-V`, `blockBR.BC-V`, `diag-V`,
  `antidiag-V`, `unitK-V`) that the unit's packages of that value each `Provides:` and
  `Conflicts:`, so at most one of them is installed. Each package also provides and conflicts
  with its cell's virtual `cellR.C` (at most one value per cell).
- *depends*: the cells keep `Provides:`/`Conflicts: cellR.C`; every full unit (N cells) instead
  gets, per value, a dependency of `puzzle` on the alternatives `cellA-V | cellB-V | …`: each
  unit contains every value, said with Depends only.

In both, the rest (two-cell differences, |x−y|≠d, nogoods) is lowered to nogoods; a nogood
between x=a and y=b becomes a `Conflicts:` between those two concrete packages. An n-ary table
becomes a package `tableK` whose alternatives are its allowed tuples, each a package `tableK-T`
depending on the tuple's cell packages. `puzzle` depends on every cell (a given on its own
package), and on every table.

Variants: *faithful* publishes every package and lists the dependencies in grid order, as the
write-up did. *tuned* (the same for both reductions) is our best honest improvement:
- no package that a given already excludes is published (one step from the givens, no search);
- both reductions at once: each unit's values at most once (Conflicts) AND at least once
  (Depends): redundant, but it lets a solver see a value with one place left, as a person would;
- each cell's dependency lists its candidate packages explicitly, and `puzzle`'s dependencies
  come with the fewest alternatives first.
Roads not taken: propagating further than one step from the givens (that would be polydoku
solving the puzzle, not the tool); symmetric Conflicts (one side is enough for every tool).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...problem import AbsDiffNot, AllDifferent, Nogood, Problem, Table, lower
from ...problem.lower import lower_linear

REDUCTIONS = ("conflicts", "depends")
VARIANTS = ("faithful", "tuned")
ROOT = "puzzle"
VERSION = "1"
ARCH = "all"

_CELL_PACKAGE = re.compile(r"^cell(\d+)\.(\d+)-(\d+)$", re.ASCII)


@dataclass
class Stanza:
    """One package paragraph: name, provided and conflicting names, dependency alternatives."""

    name: str
    provides: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    depends: list[list[str]] = field(default_factory=list)
    description: str = ""

    def render(self) -> str:
        """Return the paragraph as Debian control text."""
        lines = [f"Package: {self.name}", f"Version: {VERSION}", f"Architecture: {ARCH}",
                 # a download source, so that simulations do not stop at "can't find a source"
                 f"Filename: pool/{self.name}_{VERSION}_{ARCH}.deb", "Size: 1"]
        if self.provides:
            lines.append(f"Provides: {', '.join(self.provides)}")
        if self.depends:
            lines.append(f"Depends: {', '.join(' | '.join(alt) for alt in self.depends)}")
        if self.conflicts:
            lines.append(f"Conflicts: {', '.join(self.conflicts)}")
        lines.append(f"Description: {self.description or self.name}")
        return "\n".join(lines) + "\n"


def package(problem: Problem, var: int, value: int) -> str:
    """Return the package name of variable `var` taking `value`: `cellR.C-V` (1-based) for a
    cell, `auxK-V` for the K-th auxiliary variable (a sum's partial total, a position...)."""
    if var >= problem.ncells:
        return f"aux{var - problem.ncells + 1}-{value}"
    r, c = problem.cell(var)
    return f"cell{r + 1}.{c + 1}-{value}"


def cell_virtual(problem: Problem, var: int) -> str:
    """Return the virtual package every value of a cell provides: `cellR.C` (`auxK` beyond)."""
    if var >= problem.ncells:
        return f"aux{var - problem.ncells + 1}"
    r, c = problem.cell(var)
    return f"cell{r + 1}.{c + 1}"


def parse_package(name: str) -> tuple[int, int, int] | None:
    """Return the 0-based (row, col) and value of a `cellR.C-V` package name, else None."""
    m = _CELL_PACKAGE.match(name.strip())
    if not m:
        return None
    return int(m.group(1)) - 1, int(m.group(2)) - 1, int(m.group(3))


def group_name(problem: Problem, index: int, c: AllDifferent) -> str:
    """Return the stem of a unit's per-value virtual packages (`row3`, `col5`, `block2.1`…)."""
    origin = c.origin
    if origin.unit and origin.kind == "row":
        return f"row{origin.number}"
    if origin.unit and origin.kind == "column":
        return f"col{origin.number}"
    if origin.unit and origin.kind == "box":
        return _block_name(problem, c.vars)
    if origin.part in ("main", "anti") and origin.kind.startswith("diagonal"):
        return "diag" if origin.part == "main" else "antidiag"
    return f"unit{index + 1}"


def _block_name(problem: Problem, cells: tuple[int, ...]) -> str:
    """Return `blockBR.BC` for a box, from its cells' extent (no geometry needed)."""
    rows = {problem.cell(v)[0] for v in cells}
    cols = {problem.cell(v)[1] for v in cells}
    return f"block{min(rows) // len(rows) + 1}.{min(cols) // len(cols) + 1}"


def candidates(problem: Problem, nogoods: list[Nogood], tuned: bool) -> list[list[int]]:
    """Return each variable's published values: all of them, or (tuned) those no given excludes."""
    values = [list(problem.domain(v)) for v in range(problem.nvars)]
    if not tuned:
        return values
    given = problem.given_map()
    banned: set[tuple[int, int]] = set()
    for x, a in given.items():
        banned.update((x, v) for v in problem.domain(x) if v != a)
    for ng in nogoods:
        if given.get(ng.x) == ng.a:
            banned.add((ng.y, ng.b))
        if given.get(ng.y) == ng.b:
            banned.add((ng.x, ng.a))
    for x, a in given.items():
        banned.discard((x, a))   # a contradictory given stays published: the tool must say so
    return [[v for v in vals if (x, v) not in banned] for x, vals in enumerate(values)]


@dataclass
class _Parts:
    """The constraints of a problem sorted by how each reduction expresses them."""

    groups: list[tuple[str, tuple[int, ...]]]    # AllDifferent of >= 3 cells: (stem, cells)
    nogoods: list[Nogood]                         # everything binary, lowered
    tables: list[Table]


def _split(problem: Problem) -> _Parts:
    """Return the problem's groups, nogoods (minus those a group already says) and tables."""
    groups, rest = [], []
    for k, c in enumerate(problem.constraints):
        if isinstance(c, AllDifferent) and len(c.vars) >= 3:
            groups.append((group_name(problem, k, c), c.vars))
        elif isinstance(c, (AllDifferent, AbsDiffNot, Nogood, Table)):
            rest.append(c)
        else:
            raise ValueError(f"the Debian encoder cannot express {type(c).__name__}")
    lowered = lower(Problem(problem.size, problem.nvars, tuple(rest), aux=problem.aux), ())
    together = {(min(a, b), max(a, b)) for _, vs in groups for a in vs for b in vs if a != b}
    nogoods = [c for c in lowered.constraints if isinstance(c, Nogood)
               and not (c.a == c.b and (min(c.x, c.y), max(c.x, c.y)) in together)]
    tables = [c for c in lowered.constraints if isinstance(c, Table)]
    return _Parts(groups, nogoods, tables)


def _all_nogoods(problem: Problem, parts: _Parts) -> list[Nogood]:
    """Return every binary exclusion (groups included), for the tuned candidate filter."""
    out = list(parts.nogoods)
    for _, vs in parts.groups:
        for i, x in enumerate(vs):
            for y in vs[i + 1:]:
                out.extend(Nogood(x, v, y, v) for v in problem.values)
    return out


def encode(problem: Problem, reduction: str = "conflicts", variant: str = "faithful") -> str:
    """Return the Packages file text of a problem in one reduction and variant."""
    return "\n".join(s.render() for s in stanzas(problem, reduction, variant))


def stanzas(problem: Problem, reduction: str = "conflicts",
            variant: str = "faithful") -> list[Stanza]:
    """Return the package paragraphs of a problem, `puzzle` first."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"unknown reduction {reduction!r} (known: {', '.join(REDUCTIONS)})")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    tuned = variant == "tuned"
    problem = lower_linear(problem)      # sums: tables over auxiliary variables (packages too)
    parts = _split(problem)
    full = [(stem, vs) for stem, vs in parts.groups if len(vs) == problem.size]
    # tuned: both reductions at once (each unit's values at most once AND at least once)
    groups = parts.groups if reduction == "conflicts" or tuned else \
        [(stem, vs) for stem, vs in parts.groups if len(vs) != problem.size]
    cand = candidates(problem, _all_nogoods(problem, parts) if tuned else [], tuned)
    published = {(x, v) for x, vals in enumerate(cand) for v in vals}
    cells = _cell_stanzas(problem, cand, groups, parts.nogoods, published)
    root = Stanza(ROOT, description="a puzzle: installable exactly when it has a solution")
    root.depends = _cell_depends(problem, cand, tuned)
    if reduction == "depends" or tuned:
        root.depends += _coverage_depends(problem, full, published, tuned)
    if tuned:
        root.depends = _fewest_first(root.depends)
    heads, tuples = _table_stanzas(problem, parts.tables, published)
    root.depends += [[t.name] for t in heads]
    return [root, *cells, *heads, *tuples]


def _fewest_first(depends: list[list[str]]) -> list[list[str]]:
    """Return the dependencies without repeats, those with the fewest alternatives first."""
    seen: set[tuple[str, ...]] = set()
    unique = []
    for alt in depends:
        if tuple(alt) not in seen:
            seen.add(tuple(alt))
            unique.append(alt)
    return sorted(unique, key=len)


def _cell_stanzas(problem: Problem, cand: list[list[int]], groups, nogoods: list[Nogood],
                  published: set[tuple[int, int]]) -> list[Stanza]:
    """Return one paragraph per published cell package, with its Provides and Conflicts."""
    member: dict[int, list[str]] = {}
    for stem, vs in groups:
        for x in vs:
            member.setdefault(x, []).append(stem)
    against: dict[tuple[int, int], list[str]] = {}
    for ng in nogoods:
        if (ng.x, ng.a) in published and (ng.y, ng.b) in published:
            against.setdefault((ng.x, ng.a), []).append(package(problem, ng.y, ng.b))
    out = []
    for x, vals in enumerate(cand):
        for v in vals:
            virtuals = [cell_virtual(problem, x)] + [f"{stem}-{v}" for stem in member.get(x, ())]
            out.append(Stanza(package(problem, x, v), provides=virtuals,
                              conflicts=virtuals + against.get((x, v), []),
                              description=f"{problem.name(x)} holds {v}"))
    return out


def _cell_depends(problem: Problem, cand: list[list[int]], tuned: bool) -> list[list[str]]:
    """Return `puzzle`'s dependency on each cell: a given's own package, else the cell virtual
    (tuned: the cell's candidate packages as explicit alternatives)."""
    given = problem.given_map()
    out = []
    for x in range(problem.nvars):
        if x in given:
            out.append([package(problem, x, given[x])])
        elif tuned and cand[x]:
            out.append([package(problem, x, v) for v in cand[x]])
        else:
            out.append([cell_virtual(problem, x)])
    return out


def _coverage_depends(problem: Problem, units, published: set[tuple[int, int]],
                      tuned: bool) -> list[list[str]]:
    """Return, per full unit and value, the alternatives of the cells that may hold it."""
    given = problem.given_map()
    out = []
    for stem, vs in units:
        for v in problem.values:
            if tuned and any(given.get(x) == v for x in vs):
                continue   # the given's own dependency already covers it
            # with no candidate left, depend on a name nothing provides: the tool must say so
            out.append([package(problem, x, v) for x in vs if (x, v) in published]
                       or [f"{stem}-{v}"])
    return out


def _table_stanzas(problem: Problem, tables: list[Table],
                   published: set[tuple[int, int]]) -> tuple[list[Stanza], list[Stanza]]:
    """Return a package per table (its alternatives are its tuples) and one per allowed tuple."""
    heads, out = [], []
    for k, t in enumerate(tables, start=1):
        rows = [tup for tup in t.tuples if all((x, v) in published for x, v in zip(t.vars, tup))]
        head = Stanza(f"table{k}", description=f"{t.label or 'table'} {k}: one allowed tuple")
        head.depends = [[f"table{k}-{j}" for j in range(1, len(rows) + 1)] or [f"table{k}-none"]]
        heads.append(head)
        for j, tup in enumerate(rows, start=1):
            out.append(Stanza(f"table{k}-{j}", depends=[[package(problem, x, v)]
                                                         for x, v in zip(t.vars, tup)],
                              description=f"tuple {j} of table {k}"))
    return heads, out
