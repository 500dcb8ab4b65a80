"""What the page needs to mark a typed value that breaks a rule, sent once per puzzle.

The page checks every constraint of the puzzle's problem on its own, in the browser, as values
are typed (typing never waits on the server): a constraint is broken when no values of its
empty cells and auxiliary variables (each within its domain) satisfy it together with the
filled ones. That is exact for all-different groups, nogoods, |x - y| != d and tables, and a
bound check (never a false alarm) for sums. A table too large to send is left out and named.

Roads not taken: sending the candidates each placement excludes (the propagation core's
table) is larger for a 9x9 than the groups it comes from and knows nothing of tables and
sums; asking the server after each keystroke would make marks wait on it.
"""

from __future__ import annotations

from typing import Any

from ..model import Puzzle
from ..problem.build import build_problem
from ..problem.ir import AbsDiffNot, AllDifferent, Linear, Nogood, Table

MAX_TABLE = 20_000          # values (tuples x arity) of one table the page is sent
MAX_TOTAL = 400_000         # values of all tables together


def checks_json(puzzle: Puzzle) -> dict[str, Any]:
    """Return the puzzle's constraints in the page's compact form: `labels` (the rule or
    house of each), `domains` (values of each auxiliary variable, numbered from N²),
    `groups` [label, var...], `nogoods` [x, a, y, b, label], `diffs` [x, y, d, label],
    `tables` [label, vars, tuples], `sums` [label, vars, coefs, rhs, op], and `unchecked`
    (labels of tables left out for their size)."""
    problem = build_problem(puzzle)
    labels: dict[str, int] = {}
    out: dict[str, Any] = {"domains": list(problem.aux), "groups": [], "nogoods": [],
                           "diffs": [], "tables": [], "sums": [], "unchecked": []}
    total = 0

    def label(c) -> int:
        return labels.setdefault(c.label or "rule", len(labels))

    for c in problem.constraints:
        if isinstance(c, AllDifferent):
            out["groups"].append([label(c), *c.vars])
        elif isinstance(c, Nogood):
            out["nogoods"].append([c.x, c.a, c.y, c.b, label(c)])
        elif isinstance(c, AbsDiffNot):
            out["diffs"].append([c.x, c.y, c.d, label(c)])
        elif isinstance(c, Linear):
            out["sums"].append([label(c), list(c.vars), list(c.coefs), c.rhs, c.op])
        elif isinstance(c, Table):
            weight = len(c.tuples) * len(c.vars)
            if weight > MAX_TABLE or total + weight > MAX_TOTAL:
                if (c.label or "rule") not in out["unchecked"]:
                    out["unchecked"].append(c.label or "rule")
                continue
            total += weight
            out["tables"].append([label(c), list(c.vars), [list(t) for t in c.tuples]])
    out["labels"] = list(labels)
    return out
