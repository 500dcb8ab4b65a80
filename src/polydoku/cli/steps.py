"""`polydoku steps`: the whole logical path of a puzzle, one named technique per line, and its rating.

Exit codes: 0 solved by logic alone, 1 no solution, 2 bad input, 3 internal failure (a wrong
step), 4 logic stalls (no technique applies; the candidates are shown) or the engine gave up.
"""

from __future__ import annotations

import click

from ..errors import EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT
from ..jsonout import path_json, unsolvable_json
from ..model import Puzzle
from ..reasoning.logic import Path, Prepared, candidates_grid
from ..reasoning.logic import prepare, solve_logically
from .app import cli
from .common import json_option
from .common import ExitCode, echo_json, good_puzzles, input_format_option, puzzle_argument
from .common import rules_option
from .logic_options import level_option


def unsolvable(p: Puzzle, prep: Prepared, as_json: bool) -> int | None:
    """Print why logic is not tried (no solution, engine gave up) and return the exit code, else None."""
    if prep.solution is not None:
        return None
    data = unsolvable_json(p, prep)
    code = EXIT_UNSAT if data["status"] == "unsatisfiable" else EXIT_UNKNOWN
    words = data["message"]
    if as_json:
        echo_json(data)
    else:
        click.echo(words)
        click.echo(f"polydoku: {p.name + ': ' if p.name else ''}{words}", err=True)
    return code


def print_path(p: Puzzle, path: Path) -> None:
    """Print a path: numbered steps, then the outcome, the candidates when stalled, the rating."""
    width = len(str(len(path.steps)))
    for k, step in enumerate(path.steps, 1):
        click.echo(f"{k:>{width}}. {step.text}")
    if path.solved:
        click.echo(f"Solved by logic alone in {len(path.steps)} steps.")
    else:
        click.echo(f"Logic stalls after {len(path.steps)} steps: no technique applies"
                   f"{' (the puzzle has more than one solution)' if not path.prepared.unique else ''}"
                   f". Candidates:")
        if path.board is not None:
            click.echo(candidates_grid(path.board))
    click.echo(f"Rating: {path.rating}")


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@level_option
@json_option("One JSON object per puzzle.")
def steps(puzzle, rules, input_format, max_level, as_json):
    """Solve PUZZLE step by step with named techniques, as a person would, and rate it.

    Each line is one move: the technique, the pattern it uses, what it places or removes.
    Every step is checked against the solution the native engine finds. Exit codes: 0 solved
    by logic alone, 1 no solution, 2 bad input, 3 internal failure, 4 logic stalls (the
    candidates are shown).
    """
    code = ExitCode()
    many = 0
    for p in good_puzzles(puzzle, rules, input_format, code):
        if many and not as_json:
            click.echo("")
        many += 1
        prep = prepare(p)
        early = unsolvable(p, prep, as_json)
        if early is not None:
            code.add(early)
            continue
        path = solve_logically(p, max_level=max_level, prepared=prep)
        code.add(EXIT_SOLVED if path.solved else EXIT_UNKNOWN)
        if as_json:
            echo_json(path_json(p, path))
        else:
            print_path(p, path)
    return code.code
