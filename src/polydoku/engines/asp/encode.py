"""ASP encoder: a problem as an answer-set program for clingo (gringo syntax).

Pure: problem -> program text. The program is the problem's constraints as facts
(`alldiff/2`, `full/1`, `absdiffnot/3`, `nogood/4`, tables) under a few generic rules, so
every rule the problem layer knows runs unchanged. Cells are `c(Row,Column)`, 1-based;
`x(C,V)` says cell C holds value V. With `givens=True` the givens are `given/2` facts (the
exported file); without, the engine passes them as assumptions on `x/2`.
"""

from __future__ import annotations

from ...problem import AbsDiffNot, AllDifferent, Linear, Nogood, Problem, Table
from ..models.common import MODEL_KINDS, groups, in_kinds, puzzle_title

RULES = """\
% Each cell holds exactly one value.
1 { x(C,V) : value(V) } 1 :- cell(C).

% A group of alldiff/2 never holds a value twice; a full group (N cells) holds each once.
:- group(G), not full(G), value(V), #count { C : alldiff(G,C), x(C,V) } > 1.
:- full(G), value(V), #count { C : alldiff(G,C), x(C,V) } != 1.

% |x - y| != D, and pairs of values two cells may not hold together.
:- absdiffnot(C1,C2,D), x(C1,A), x(C2,B), |A-B| = D.
:- nogood(C1,A,C2,B), x(C1,A), x(C2,B).

% A table: exactly one allowed tuple is picked, and its cells hold its values.
1 { pick(K,T) : tuple(K,T) } 1 :- table(K).
:- pick(K,T), at(K,I,C), allowed(K,T,I,V), not x(C,V).

% An auxiliary variable A (sums, sandwiches...) holds exactly one value of 1..D.
1 { x(A,V) : V = 1..D } 1 :- auxdom(A,D).

% Linear constraints: the sum of K*V over the terms I of L compares to R.
:- linear(L,eq,R), #sum { K*V,I : term(L,I,C,K), x(C,V) } != R.
:- linear(L,le,R), #sum { K*V,I : term(L,I,C,K), x(C,V) } > R.
:- linear(L,ge,R), #sum { K*V,I : term(L,I,C,K), x(C,V) } < R.

% The givens.
:- given(C,V), not x(C,V).

#defined auxdom/2. #defined linear/3. #defined term/4.

#show x/2.
"""


def cell_term(problem: Problem, var: int) -> str:
    """Return the ASP term of a variable: `c(Row,Column)` 1-based for a cell, `a(K)` for
    the K-th auxiliary."""
    if var >= problem.ncells:
        return f"a({var - problem.ncells + 1})"
    r, c = problem.cell(var)
    return f"c({r + 1},{c + 1})"


def program(problem: Problem, *, givens: bool = True) -> str:
    """Return the answer-set program of a problem (with its givens as facts when asked)."""
    problem = in_kinds(problem, MODEL_KINDS | {Linear})
    n = problem.size
    out = [f"% polydoku ASP program: {puzzle_title(problem)}",
           "% x(C,V): cell C = c(Row,Column) holds value V.", "",
           f"value(1..{n}).", f"cell(c(R,C)) :- R = 1..{n}, C = 1..{n}.", "", RULES]
    out += _facts(problem)
    top = max((len(problem.domain(x)) for c in problem.constraints
               if isinstance(c, AllDifferent) for x in c.vars), default=n)
    if top > n:         # auxiliaries of more values than a cell (a chaos region and value)
        out += ["", f":- group(G), not full(G), V = {n + 1}..{top}, "
                    "#count { C : alldiff(G,C), x(C,V) } > 1."]
    if givens and problem.givens:
        out += ["", "% givens"]
        out += [f"given({cell_term(problem, var)},{value})." for var, value in problem.givens]
    return "\n".join(out) + "\n"


def _facts(problem: Problem) -> list[str]:
    """Return the fact lines of a problem's constraints, one comment per group."""
    t = lambda var: cell_term(problem, var)       # noqa: E731
    out: list[str] = []
    if problem.aux:
        out.append("% auxiliary variables and their domains")
        out += [f"auxdom({t(problem.ncells + k)},{d})." for k, d in enumerate(problem.aux)]
    ngroups = ntables = nlinear = 0
    for g in groups(problem):
        out.append(f"% {g.label or g.kind.__name__}")
        if g.kind is AllDifferent:
            for c in g.items:
                ngroups += 1
                full = f" full({ngroups})." if len(c.vars) == problem.size else ""
                out.append(f"group({ngroups}). alldiff({ngroups},({';'.join(map(t, c.vars))})).{full}")
        elif g.kind is AbsDiffNot:
            out += [f"absdiffnot({t(c.x)},{t(c.y)},{c.d})." for c in g.items]
        elif g.kind is Nogood:
            out += [f"nogood({t(c.x)},{c.a},{t(c.y)},{c.b})." for c in g.items]
        elif g.kind is Linear:
            for c in g.items:
                nlinear += 1
                op = {"==": "eq", "<=": "le", ">=": "ge"}[c.op]
                out.append(f"linear({nlinear},{op},{c.rhs}). " + " ".join(
                    f"term({nlinear},{i},{t(x)},{k})." for i, (k, x) in enumerate(zip(c.coefs, c.vars))))
        elif g.kind is Table:
            for c in g.items:
                ntables += 1
                out.append(f"table({ntables}). " + " ".join(
                    f"at({ntables},{i},{t(v)})." for i, v in enumerate(c.vars)))
                for k, row in enumerate(c.tuples):
                    out.append(f"tuple({ntables},{k}). " + " ".join(
                        f"allowed({ntables},{k},{i},{v})." for i, v in enumerate(row)))
    return out
