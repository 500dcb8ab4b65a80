"""Picat encoder: a puzzle as a Picat constraint program in the shape of the write-up's model.

Pure: problem -> text. `X` is an N x N array of domain 1..N; `all_different` per row and
column (over `X[I]` and `transpose`) and per box, written as the write-up's loops; every
other constraint comes from the IR: more-than-two-cell `all_different` lists, neighbour
pairs as lists `[R1,C1,R2,C2]` with `#!=` or `abs(...) #!= d`, nogoods and `table_in`.
`main` prints `solution: v v v …` (row-major) or `no solution`.
"""

from __future__ import annotations

from ...problem import AbsDiffNot, AllDifferent, Nogood, Problem, Table
from .common import groups, in_kinds, puzzle_title


def _rc(problem: Problem, var: int) -> tuple[int, int]:
    r, c = problem.cell(var)
    return r + 1, c + 1


def program_text(problem: Problem) -> str:
    """Return the `.pi` program of a problem, givens in its board."""
    problem = in_kinds(problem)
    n = problem.size
    g = problem.puzzle.geometry if problem.puzzle is not None else None
    br, bc = (g.box_rows, g.box_cols) if g is not None else (n, 1)
    grid = [["_"] * n for _ in range(n)]
    for var, value in problem.givens:
        r, c = problem.cell(var)
        grid[r][c] = str(value)
    board = ",\n         ".join("{" + ",".join(row) + "}" for row in grid)
    out = [f"% polydoku Picat model: {puzzle_title(problem)}",
           "% Run: picat puzzle.pi   (prints the solution row-major, or no solution)",
           "import cp, util.", "",
           "main =>", f"    X = {{{board}}},", "    sudoku(X),",
           "    if solve([ff], X) then",
           '        printf("solution:"),',
           '        foreach (I in 1..len(X), J in 1..len(X)) printf(" %d", X[I,J]) end,',
           "        nl",
           "    else",
           '        println("no solution")', "    end.", "",
           "sudoku(X) =>", f"    N = {n},", "    X :: 1..N,"]
    out += _body(problem, br, bc)
    out[-1] = out[-1].rstrip(",") + "."
    return "\n".join(out) + "\n"


def _body(problem: Problem, br: int, bc: int) -> list[str]:
    """Return the constraint lines of `sudoku(X)`, each ending with a comma."""
    out: list[str] = []
    units: set[str] = set()
    for grp in groups(problem):
        label = grp.label or grp.kind.__name__
        if grp.kind is AllDifferent and grp.unit:
            units.add(grp.unit)
            continue
        out.append(f"    % {label}")
        if grp.kind is AllDifferent and len(grp.items[0].vars) > 2:
            cells = ", ".join("X[{},{}]".format(*_rc(problem, v)) for v in grp.items[0].vars)
            out.append(f"    all_different([{cells}]),")
        elif grp.kind in (AllDifferent, AbsDiffNot):
            pairs = [(c.vars if grp.kind is AllDifferent else (c.x, c.y)) for c in grp.items]
            listed = ", ".join("[{},{},{},{}]".format(*_rc(problem, a), *_rc(problem, b))
                               for a, b in pairs)
            test = ("X[R1,C1] #!= X[R2,C2]" if grp.kind is AllDifferent
                    else f"abs(X[R1,C1] - X[R2,C2]) #!= {grp.items[0].d}")
            out.append(f"    foreach ([R1,C1,R2,C2] in [{listed}]) {test} end,")
        elif grp.kind is Nogood:
            out += ["    #~ (X[{},{}] #= {} #/\\ X[{},{}] #= {}),".format(
                *_rc(problem, c.x), c.a, *_rc(problem, c.y), c.b) for c in grp.items]
        elif grp.kind is Table:
            c = grp.items[0]
            cells = ", ".join("X[{},{}]".format(*_rc(problem, v)) for v in c.vars)
            rows = ", ".join("{" + ",".join(map(str, row)) + "}" for row in c.tuples)
            out.append(f"    table_in({{{cells}}}, [{rows}]),")
    head = []
    if "row" in units:
        head += ["    % each row", "    foreach (Row in X) all_different(Row) end,"]
    if "column" in units:
        head += ["    % each column", "    foreach (Column in transpose(X)) all_different(Column) end,"]
    if "box" in units:
        head += [f"    % each box ({br}x{bc})",
                 f"    foreach (I in 1..{br}..N, J in 1..{bc}..N)",
                 f"        all_different([X[I+K,J+L] : K in 0..{br - 1}, L in 0..{bc - 1}])",
                 "    end,"]
    return head + out
