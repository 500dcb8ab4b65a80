"""`polydoku check`: is a complete grid a valid solution (of a puzzle, when one is given)?"""

from __future__ import annotations

import click

from ..errors import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_UNSAT, BadInput
from ..formats.read import read_puzzle
from ..model import Puzzle
from ..rules import parse_rules
from ..verify import grid_problems
from .app import cli
from .common import ExitCode, entries, input_format_option, rules_option


@cli.command()
@click.argument("grid", metavar="GRID")
@rules_option
@input_format_option
@click.option("--puzzle", "puzzle_src", default=None, metavar="PUZZLE",
              help="Also check that GRID keeps this puzzle's givens (and its rules).")
def check(grid, rules, input_format, puzzle_src):
    """Check that GRID is complete and breaks no rule: exit 0 valid, 1 invalid, 2 bad input.

    GRID may be a file of many grids, one per line: each gets one line (valid, invalid: the
    broken rules, or error), in input order, and the exit code is the worst one. The rules a
    grid carries (a JSON grid's "rules") and the puzzle's rules all apply.
    """
    reference = read_puzzle(puzzle_src, rules=parse_rules(rules)) if puzzle_src else None
    code, count = ExitCode(), 0
    for entry in entries(grid, rules, input_format):
        count += 1
        try:
            if entry.error or entry.puzzle is None:
                raise entry.error or BadInput("no grid")
            problems = _problems(entry.puzzle, reference)
        except BadInput as err:              # a bad line, or a grid that is not complete
            click.echo(f"polydoku: {err.at(source=entry.source, line=entry.line)}", err=True)
            click.echo("error")
            code.add(EXIT_BAD_INPUT)
            continue
        if not problems:
            click.echo("valid")
            code.add(EXIT_SOLVED)
        elif entry.line is None:            # one grid: the problems on lines of their own
            click.echo("invalid")
            for line in problems:
                click.echo(f"  {line}")
            code.add(EXIT_UNSAT)
        else:
            click.echo(f"invalid: {'; '.join(problems)}")
            code.add(EXIT_UNSAT)
    if not count:
        raise BadInput("no grid to check")
    return code.code


def _problems(filled: Puzzle, reference: Puzzle | None) -> list[str]:
    """Return what a complete grid breaks, against its own rules and a puzzle's givens and rules."""
    empty = [i for i, v in enumerate(filled.givens) if not v]
    if empty:
        r, c = filled.geometry.cell(empty[0])
        raise BadInput(f"grid is not complete: {len(empty)} empty cells, the first r{r + 1}c{c + 1}")
    if reference is None:
        reference = filled.with_givens((0,) * filled.geometry.ncells)
    elif reference.geometry != filled.geometry:
        raise BadInput("GRID and --puzzle have different sizes")
    else:
        reference = reference.with_rules(tuple(dict.fromkeys(reference.rules + filled.rules)))
    return grid_problems(reference, filled.givens)
