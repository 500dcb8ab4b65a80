"""Alloy encoder: a puzzle as an Alloy 6 model in the shape of the Alloy write-up.

Pure: problem -> text. Signatures for numbers, rows, columns, boxes and cells (each cell a
`one sig` with its row, column, box and number), a `Grid` fact placing the cells, the rules
as one `Rules_of_the_game` fact, a predicate per puzzle holding its givens, and a `run`
command with the scopes. Rows, columns and boxes become the write-up's three lines;
every other constraint of the problem is written from the IR (pairs as relations,
|x−y|≠d through a `gap` relation on numbers, nogoods and tables as formulas), so any rule
the problem layer knows can be exported.
"""

from __future__ import annotations

from ...problem import AbsDiffNot, AllDifferent, Nogood, Problem, Table
from .common import Group, groups, in_kinds, puzzle_title
from ...text import label

UNIT_RULES = {
    "row": "all disj a, b: Cell | a.row = b.row implies a.number != b.number",
    "column": "all disj a, b: Cell | a.column = b.column implies a.number != b.number",
    "box": "all disj a, b: Cell | a.box = b.box implies a.number != b.number",
}


def predicate_name(problem: Problem) -> str:
    """Return the name of the puzzle's predicate (`Puzzle_wikipedia`)."""
    name = label(problem.puzzle.name if problem.puzzle is not None else None)
    return "Puzzle_" + ("".join(ch if ch.isalnum() else "_" for ch in name).strip("_") or "puzzle")


def model_text(problem: Problem) -> str:
    """Return the `.als` model of a problem, givens in its puzzle predicate."""
    problem = in_kinds(problem)
    n, cells = problem.size, [problem.name(v) for v in range(problem.nvars)]
    pred = predicate_name(problem)
    out = [f"// polydoku Alloy model: {puzzle_title(problem)}",
           "// Every cell holds one number; the rules say which cells differ; the puzzle",
           "// predicate holds the givens. Run the command at the end (Alloy 6).", ""]
    for sig, prefix in (("Number", "N"), ("Row", "R"), ("Column", "C"), ("Box", "B")):
        out += [f"abstract sig {sig} {{}}",
                f"one sig {', '.join(f'{prefix}{k}' for k in range(1, n + 1))} extends {sig} {{}}", ""]
    out += ["abstract sig Cell {", "  row: one Row,", "  column: one Column,", "  box: one Box,",
            "  number: one Number", "}"]
    out += [f"one sig {', '.join(cells[r * n:(r + 1) * n])} extends Cell {{}}" for r in range(n)]
    out += ["", "fact Grid {"]
    g = problem.puzzle.geometry if problem.puzzle is not None else None
    for v, name in enumerate(cells):
        r, c = problem.cell(v)
        box = g.box_of((r, c)) + 1 if g is not None else 0
        out.append(f"  {name}.row = R{r + 1} and {name}.column = C{c + 1} and {name}.box = B{box}")
    out += ["}", ""]
    defs, rules = _rules(problem)
    out += defs
    out += ["fact Rules_of_the_game {"] + [f"  {line}" for line in rules] + ["}", ""]
    out += [f"pred {pred} {{"]
    out += [f"  {cells[var]}.number = N{value}" for var, value in problem.givens]
    out += ["}", "", f"run {pred} for exactly {n} Number, exactly {n} Row, exactly {n} Column, "
            f"exactly {n} Box, exactly {n * n} Cell"]
    return "\n".join(out) + "\n"


def _rules(problem: Problem) -> tuple[list[str], list[str]]:
    """Return the helper definitions and the lines of the rules fact."""
    name = problem.name
    defs: list[str] = []
    rules: list[str] = []
    units_done: set[str] = set()
    gaps: set[int] = set()
    for grp in groups(problem):
        label = grp.label or grp.kind.__name__
        if grp.kind is AllDifferent and grp.unit:
            kind = grp.unit
            if kind not in units_done:
                units_done.add(kind)
                rules += [f"// each {kind}: no number twice", UNIT_RULES[kind]]
            continue
        rules.append(f"// {label}")
        if grp.kind is AllDifferent and len(grp.items[0].vars) > 2:
            rules.append(f"all disj a, b: {' + '.join(map(name, grp.items[0].vars))} | "
                         "a.number != b.number")
        elif grp.kind in (AllDifferent, AbsDiffNot):
            rel = _relation_name(grp)
            pairs = [(c.vars if grp.kind is AllDifferent else (c.x, c.y)) for c in grp.items]
            defs += [f"fun {rel}: Cell -> Cell {{",
                     "  " + " + ".join(f"{name(a)}->{name(b)}" for a, b in pairs), "}", ""]
            if grp.kind is AllDifferent:
                rules.append(f"all a, b: Cell | a->b in {rel} implies a.number != b.number")
            else:
                d = grp.items[0].d
                gaps.add(d)
                rules.append(f"all a, b: Cell | a->b in {rel} implies "
                             f"b.number not in (a.number).(gap{d}) + (gap{d}).(a.number)")
        elif grp.kind is Nogood:
            rules += [f"not ({name(c.x)}.number = N{c.a} and {name(c.y)}.number = N{c.b})"
                      for c in grp.items]
        elif grp.kind is Table:
            c = grp.items[0]
            rules.append(" or ".join("(" + " and ".join(
                f"{name(v)}.number = N{x}" for v, x in zip(c.vars, row)) + ")" for row in c.tuples))
    for d in sorted(gaps):
        defs = [f"// numbers {d} apart", f"fun gap{d}: Number -> Number {{",
                "  " + " + ".join(f"N{a}->N{a + d}" for a in range(1, problem.size - d + 1)),
                "}", ""] + defs
    return defs, rules


def _relation_name(grp: Group) -> str:
    return grp.name if grp.kind is AllDifferent else f"{grp.name}_pairs"
