"""`polydoku candidates`: for each cell, the values that appear in at least one solution (or in
at least k), as a candidate grid or JSON. Parse -> `reasoning.candidates` -> render -> exit code."""

from __future__ import annotations

import click

from .. import api
from ..engines import Status
from ..errors import PolydokuError
from ..formats.grid import draw
from ..jsonout import candidates_json, cell_texts, literal_name
from ..model import Puzzle
from ..reasoning.candidates import Candidates, true_candidates
from .app import cli
from .common import json_option
from .common import (ExitCode, STATUS_EXIT, echo_json, engine_options, good_puzzles,
                     input_format_option, parse_options, puzzle_argument, rules_option)


def candidate_grid(puzzle: Puzzle, texts: list[str]) -> str:
    """Return the candidate strings drawn as a grid, columns aligned, boxes separated."""
    g = puzzle.geometry
    return draw(texts, g.size, g.box_rows, g.box_cols, cols=g.width)


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@engine_options
@click.option("--at-least", "at_least", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="K", help="Keep the values that appear in at least K solutions.")
@json_option("One JSON object per puzzle.")
def candidates(puzzle, rules, input_format, engine, timeout, keep, options, at_least, as_json):
    """Show PUZZLE's true candidates: for each cell, the values that appear in at least one
    solution (with --at-least K, in at least K solutions), found without enumerating every
    solution: each solution found witnesses all its values at once.

    Exit codes: 0 computed, 1 no solution, 2 bad input, 3 engine unavailable or failed,
    4 unknown (the engine gave up; the values shown are proved, the undecided ones listed).
    """
    engine_obj = api.get_engine(engine, keep=keep, options=parse_options(options))
    if at_least > 1 and "count" not in engine_obj.capabilities:
        raise click.UsageError(f"engine {engine_obj.spec} cannot count solutions, which "
                               f"--at-least {at_least} needs")
    code = ExitCode()
    first = True
    for p in good_puzzles(puzzle, rules, input_format, code):
        try:
            result = true_candidates(p, at_least=at_least, engine=engine_obj, timeout=timeout)
        except PolydokuError as err:
            click.echo(f"polydoku: {p.name + ': ' if p.name else ''}{err}", err=True)
            code.add(err.exit_code)
            continue
        code.add(STATUS_EXIT[result.status])
        if as_json:
            echo_json(candidates_json(p, result))
            continue
        if not first:
            click.echo("")
        first = False
        if p.name:
            click.echo(f"{p.name}:")
        click.echo("\n".join(_text(p, result)))
    return code.code


def _plural(k: int, one: str, many: str | None = None) -> str:
    """Return `1 solution`, `2 solutions`."""
    return f"{k} {one if k == 1 else many or one + 's'}"


def _text(p: Puzzle, result: Candidates) -> list[str]:
    """Return the text lines of a puzzle's true candidates."""
    if result.status is Status.UNSATISFIABLE:
        return ["no solution: no cell has a candidate (`polydoku explain` shows why)"]
    k = result.at_least
    where = "at least one solution" if k == 1 else f"at least {k} solutions"
    lines = [candidate_grid(p, cell_texts(p, result)),
             f"{result.total} candidates (values in {where}), from "
             f"{_plural(result.solutions_seen, 'solution')} found in "
             f"{_plural(result.searches, 'search', 'searches')}"]
    if result.status is Status.UNKNOWN:
        lines.append(f"unknown: {result.message}; undecided: "
                     f"{', '.join(literal_name(p, x) for x in result.undecided)}")
    return lines
