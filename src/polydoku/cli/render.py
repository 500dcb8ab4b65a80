"""`polydoku render`: draw a puzzle (its solution, candidates, highlighted cells) as SVG or PNG."""

from __future__ import annotations

import click

from .. import api
from ..engines import Status
from ..errors import EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT, BadInput
from ..formats.read import read_puzzle
from ..rules import parse_rules
from ..render import candidates_for, write_picture
from .app import cli
from .common import (Finite, PlainText, input_format_option, puzzle_argument, rules_option,
                     seconds)


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@click.option("--out", "-O", "out", required=True, type=click.Path(dir_okay=False),
              help="The picture to write: FILE.svg or FILE.png.")
@click.option("--solution", is_flag=True, help="Solve it and draw the solution (in blue).")
@click.option("--candidates", is_flag=True,
              help="Draw the candidates of the empty cells (values no placed value rules out).")
@click.option("--propagate", is_flag=True,
              help="With --candidates: what the native engine's propagation leaves.")
@click.option("--highlight", default="", metavar="CELLS",
              help="Cells to highlight, comma-separated: r1c6,r2c6.")
@click.option("--title", type=PlainText(), default=None, help="A line above the grid.")
@click.option("--engine", "-e", default="native", show_default=True, metavar="ENGINE",
              help="Engine for --solution.")
@click.option("--timeout", type=seconds(), default=120.0, show_default=True,
              help="Seconds allowed for --solution.")
@click.option("--scale", type=Finite(min=0.25, max=16), default=2.0,
              show_default=True, help="PNG pixels per SVG unit.")
def render(puzzle, rules, input_format, out, solution, candidates, propagate, highlight, title,
           engine, timeout, scale):
    """Draw PUZZLE (its first puzzle, for a file of many) as an SVG or PNG picture.

    Givens are black, solved values blue, highlighted cells yellow; variant rules are named
    under the grid and diagonals drawn. Exit 0, or 1/4 when --solution finds no solution.
    """
    if not out.lower().endswith((".svg", ".png")):
        raise BadInput(f"--out {out}: the file must end in .svg or .png")
    p = read_puzzle(puzzle, fmt=input_format, rules=parse_rules(rules))
    cells = [c.strip() for c in highlight.split(",") if c.strip()]
    grid, code = None, EXIT_SOLVED
    if solution:
        outcome = api.solve(p, engine, timeout=timeout)
        if outcome.solutions:
            grid = outcome.solutions[0]
        else:
            code = EXIT_UNSAT if outcome.status is Status.UNSATISFIABLE else EXIT_UNKNOWN
            click.echo(f"polydoku: {outcome.message or outcome.status.value} "
                       f"(drawing the givens only)", err=True)
    cands = candidates_for(p, propagate=propagate) if candidates else None
    kwargs = {"scale": scale} if out.lower().endswith(".png") else {}
    path = write_picture(out, p, grid, candidates=cands, highlight=cells, title=title, **kwargs)
    click.echo(str(path))
    return code
