"""`polydoku check`: is a complete grid a valid solution (of a puzzle, when one is given)?"""

from __future__ import annotations

import click

from ..errors import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_UNSAT, BadInput
from ..formats.read import read_puzzle
from ..model import parse_rules
from ..verify import grid_problems
from .app import cli
from .common import input_format_option, rules_option


@cli.command()
@click.argument("grid", metavar="GRID")
@rules_option
@input_format_option
@click.option("--puzzle", "puzzle_src", default=None, metavar="PUZZLE",
              help="Also check that GRID keeps this puzzle's givens.")
def check(grid, rules, input_format, puzzle_src):
    """Check that GRID is complete and breaks no rule: exit 0 valid, 1 invalid."""
    filled = read_puzzle(grid, fmt=input_format, rules=parse_rules(rules))
    empty = [i for i, v in enumerate(filled.givens) if not v]
    if empty:
        r, c = filled.geometry.cell(empty[0])
        raise BadInput(f"grid is not complete: {len(empty)} empty cells, the first r{r + 1}c{c + 1}")
    reference = filled.with_givens((0,) * filled.geometry.ncells)
    if puzzle_src:
        reference = read_puzzle(puzzle_src, rules=parse_rules(rules))
        if reference.geometry != filled.geometry:
            raise BadInput("GRID and --puzzle have different sizes")
    problems = grid_problems(reference, filled.givens)
    if not problems:
        click.echo("valid")
        return EXIT_SOLVED
    click.echo("invalid")
    for line in problems:
        click.echo(f"  {line}")
    return EXIT_UNSAT if problems else EXIT_BAD_INPUT
