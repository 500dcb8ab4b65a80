"""SMT-LIB encoder: a problem as an SMT-LIB 2 script (QF_LIA) that any SMT solver runs.

Pure: problem -> text. One `Int` per cell named `rNcM`, bounded to 1..N; `distinct` per
AllDifferent (and, for a full unit, "each value occurs" as a disjunction per value);
`(not (= (abs (- x y)) d))` for |x−y|≠d; nogoods and tables as Boolean formulas; the givens
as equalities; then `(check-sat)` and `(get-value (...))` for every cell.
"""

from __future__ import annotations

from ...problem import AbsDiffNot, AllDifferent, Linear, Nogood, Problem, Table
from .common import MODEL_KINDS, groups, in_kinds, puzzle_title


def script(problem: Problem, *, commands: bool = True) -> str:
    """Return the SMT-LIB script of a problem with its givens (and, when `commands`, the
    `check-sat` and `get-value` commands that make it a runnable script)."""
    problem = in_kinds(problem, MODEL_KINDS | {Linear})
    n, name = problem.size, problem.name
    cells = [name(v) for v in range(problem.nvars)]
    out = [f"; polydoku SMT-LIB model: {puzzle_title(problem)}",
           f"; cell rNcM holds an integer 1..{n}", "(set-logic QF_LIA)",
           "(set-option :produce-models true)"]
    out += [f"(declare-const {c} Int)" for c in cells]
    out += [f"(assert (and (<= 1 {c}) (<= {c} {problem.domain_size(v)})))"
            for v, c in enumerate(cells)]
    for g in groups(problem):
        out.append(f"; {g.label or g.kind.__name__}")
        for c in g.items:
            out += _assertions(problem, c)
    out.append("; givens")
    out += [f"(assert (= {cells[var]} {value}))" for var, value in problem.givens]
    if commands:
        out += ["(check-sat)", f"(get-value ({' '.join(cells)}))"]
    return "\n".join(out) + "\n"


def _assertions(problem: Problem, c) -> list[str]:
    """Return the assertions of one constraint."""
    name = problem.name
    if isinstance(c, AllDifferent):
        vs = " ".join(map(name, c.vars))
        out = [f"(assert (distinct {vs}))"]
        if len(c.vars) == problem.size:
            out += [f"(assert (or {' '.join(f'(= {name(x)} {v})' for x in c.vars)}))"
                    for v in problem.values]
        return out
    if isinstance(c, AbsDiffNot):
        return [f"(assert (not (= (abs (- {name(c.x)} {name(c.y)})) {c.d})))"]
    if isinstance(c, Nogood):
        return [f"(assert (not (and (= {name(c.x)} {c.a}) (= {name(c.y)} {c.b}))))"]
    if isinstance(c, Table):
        if not c.tuples:
            return ["(assert false)"]
        rows = " ".join("(and " + " ".join(f"(= {name(x)} {v})" for x, v in zip(c.vars, row)) + ")"
                        for row in c.tuples)
        return [f"(assert (or {rows}))"]
    if isinstance(c, Linear):
        terms = " ".join(f"(* {k} {name(x)})" if k >= 0 else f"(* (- {-k}) {name(x)})"
                         for k, x in zip(c.coefs, c.vars))
        rhs = str(c.rhs) if c.rhs >= 0 else f"(- {-c.rhs})"
        op = {"==": "=", "<=": "<=", ">=": ">="}[c.op]
        return [f"(assert ({op} (+ {terms} 0) {rhs}))"]
    return []
