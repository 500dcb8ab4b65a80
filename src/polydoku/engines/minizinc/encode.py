"""MiniZinc encoder: a problem as a model (`.mzn`) and its givens as data (`.dzn`).

Pure: problem -> text. The model mirrors the Picat model of the write-up: `x[r,c]` per cell,
`all_different` per row, column and box (and diagonal; domain-consistent, which Gecode
needs for 25x25), the neighbour rules as lists of
cell pairs (`!=` for anti-knight and anti-king, `abs(x - y) != d` for non-consecutive),
nogoods and `table` constraints for anything else. The model depends only on the geometry
and rules; the `.dzn` holds the givens (0 = empty).
"""

from __future__ import annotations

from ...problem import AbsDiffNot, AllDifferent, Linear, Nogood, Problem, Table, variables
from ..models.common import MODEL_KINDS, Group, groups, in_kinds, puzzle_title


def _rc(problem: Problem, var: int) -> tuple[int, int]:
    r, c = problem.cell(var)
    return r + 1, c + 1


def _x(problem: Problem, var: int) -> str:
    if var >= problem.ncells:
        return f"aux{var - problem.ncells + 1}"
    return "x[{},{}]".format(*_rc(problem, var))


def model_text(problem: Problem) -> str:
    """Return the `.mzn` model of a problem's constraints (the givens come from the data)."""
    problem = in_kinds(problem, MODEL_KINDS | {Linear})
    n = problem.size
    out = [f"% polydoku MiniZinc model: {puzzle_title(problem)}",
           "% x[r,c] is the value in row r, column c; givens[r,c] > 0 is a given (from the .dzn).",
           *_includes(problem), "", f"int: n = {n};",
           "array[1..n, 1..n] of 0..n: givens;", "array[1..n, 1..n] of var 1..n: x;", "",
           "constraint forall(r, c in 1..n where givens[r,c] > 0)(x[r,c] = givens[r,c]);"]
    if problem.aux:
        out += ["", "% auxiliary variables (sums, sandwiches...): the cells decide them"]
        out += [f"var 1..{d}: aux{k + 1};" for k, d in enumerate(problem.aux)]
    names: set[str] = set()
    for g in groups(problem):
        out.append("")
        out += _group(problem, g, _unique(g, names))
    out += ["", "solve satisfy;", "",
            'output ["cells:"] ++ [" " ++ show(x[r,c]) | r, c in 1..n] ++ ["\\n"];']
    return "\n".join(out) + "\n"


def _includes(problem: Problem) -> list[str]:
    """Return the include lines of the globals a model uses.

    Only the files needed, never "globals.mzn": Debian's Gecode library (package flatzinc
    6.2) overrides globals of minizinc 2.6 in ways that break `include "globals.mzn"`, and
    it maps only `all_different_int` (not `all_different`) to Gecode's own propagator;
    other backends read `all_different_int` from the standard library.
    """
    out = ['include "all_different_int.mzn";']
    if any(isinstance(c, Table) for c in problem.constraints):
        out.append('include "table.mzn";')
    return out


def _unique(g: Group, names: set[str]) -> str:
    """Return an identifier for a group's data array, unique within the model."""
    kind = {AllDifferent: "pairs", AbsDiffNot: "absdiff", Nogood: "nogood"}.get(g.kind, "t")
    base = name = f"{kind}_{g.name}"
    k = 1
    while name in names:
        k += 1
        name = f"{base}_{k}"
    names.add(name)
    return name


def _group(problem: Problem, g: Group, name: str) -> list[str]:
    """Return the lines of one group of constraints."""
    x = lambda var: _x(problem, var)      # noqa: E731
    label = g.label or g.kind.__name__
    if g.kind is AllDifferent and len(g.items[0].vars) > 2:
        return [f"% {label}",
                f"constraint all_different_int([{', '.join(map(x, g.items[0].vars))}]) :: domain;"]
    if g.kind is Linear or any(v >= problem.ncells for c in g.items for v in variables(c)):
        return [f"% {label}"] + [f"constraint {_expression(problem, c)};" for c in g.items]
    if g.kind is Table and not g.items[0].tuples:
        return [f"% {label}: no tuple is allowed", "constraint false;"]
    if g.kind is Table:
        c = g.items[0]
        rows = " | ".join(", ".join(map(str, row)) for row in c.tuples)
        return [f"% {label}", f"constraint table([{', '.join(map(x, c.vars))}], [| {rows} |]);"]
    if g.kind is AllDifferent:
        flat = [v for c in g.items for v in (*_rc(problem, c.vars[0]), *_rc(problem, c.vars[1]))]
        test = f"x[{name}[k,1], {name}[k,2]] != x[{name}[k,3], {name}[k,4]]"
        width, what = 4, "pairs of cells that differ"
    elif g.kind is AbsDiffNot:
        d = g.items[0].d
        flat = [v for c in g.items for v in (*_rc(problem, c.x), *_rc(problem, c.y))]
        test = f"abs(x[{name}[k,1], {name}[k,2]] - x[{name}[k,3], {name}[k,4]]) != {d}"
        width, what = 4, f"pairs of cells whose values do not differ by {d}"
    else:
        flat = [v for c in g.items for v in (*_rc(problem, c.x), c.a, *_rc(problem, c.y), c.b)]
        test = (f"not (x[{name}[k,1], {name}[k,2]] = {name}[k,3] /\\ "
                f"x[{name}[k,4], {name}[k,5]] = {name}[k,6])")
        width, what = 6, "(cell, value) pairs that may not hold together"
    return [f"% {label}: {len(g.items)} {what}",
            f"array[int, 1..{width}] of int: {name} = array2d(1..{len(g.items)}, 1..{width}, "
            f"[{', '.join(map(str, flat))}]);",
            f"constraint forall(k in index_set_1of2({name}))({test});"]


def _expression(problem: Problem, c) -> str:
    """Return one constraint as a MiniZinc expression (for groups that touch auxiliaries)."""
    x = lambda var: _x(problem, var)      # noqa: E731
    if isinstance(c, Linear):
        terms = " + ".join(f"({k}) * {x(v)}" for k, v in zip(c.coefs, c.vars))
        return f"{terms} {'=' if c.op == '==' else c.op} {c.rhs}"
    if isinstance(c, Nogood):
        return f"not ({x(c.x)} = {c.a} /\\ {x(c.y)} = {c.b})"
    if isinstance(c, AbsDiffNot):
        return f"abs({x(c.x)} - {x(c.y)}) != {c.d}"
    if isinstance(c, AllDifferent):
        return f"all_different_int([{', '.join(map(x, c.vars))}])"
    if not c.tuples:
        return "false"
    rows = " | ".join(", ".join(map(str, row)) for row in c.tuples)
    return f"table([{', '.join(map(x, c.vars))}], [| {rows} |])"


def data_text(problem: Problem) -> str:
    """Return the `.dzn` data of a problem: its givens as an n x n array (0 = empty)."""
    n = problem.size
    grid = [0] * (n * n)
    for var, value in problem.givens:
        grid[var] = value
    rows = ["  " + ", ".join(f"{v:2d}" for v in grid[r * n:(r + 1) * n]) for r in range(n)]
    return "givens = [|\n" + " |\n".join(rows) + " |];\n"


def parse_cells(line: str, n: int) -> tuple[int, ...] | None:
    """Return the values of an output line `cells: v v v …` (None when it is not one)."""
    if not line.startswith("cells:"):
        return None
    values = tuple(int(v) for v in line[len("cells:"):].split())
    return values if len(values) == n * n else None
