"""`polydoku hint`: the next logical move, in one sentence (the easiest technique that makes progress).

Exit codes: 0 a move was found (or the grid is already full), 1 no solution, 2 bad input,
3 internal failure (a wrong step), 4 logic stalls (no technique applies; the candidates are shown).
"""

from __future__ import annotations

import click

from ..errors import EXIT_SOLVED, EXIT_UNKNOWN
from ..jsonout import hint_json
from ..reasoning.logic import allowed_finders, candidates_grid, check_step
from ..reasoning.logic import next_step, prepare, start_board
from .app import cli
from .common import json_option
from .common import ExitCode, echo_json, good_puzzles, input_format_option, puzzle_argument
from .common import rules_option
from .steps import level_option, unsolvable


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@level_option
@json_option("One JSON object per puzzle: technique, placements, eliminations, pattern, text.")
def hint(puzzle, rules, input_format, max_level, as_json):
    """Show the next move for PUZZLE: the easiest named technique that makes progress.

    PUZZLE is the position as it stands (givens and the values placed so far). Exit codes:
    0 a move was found (or the grid is full), 1 no solution, 2 bad input, 3 internal failure,
    4 logic stalls (the candidates are shown).
    """
    code = ExitCode()
    for p in good_puzzles(puzzle, rules, input_format, code):
        prep = prepare(p)
        early = unsolvable(p, prep, as_json)
        if early is not None:
            code.add(early)
            continue
        board = start_board(prep)
        step = None if board.is_solved() else next_step(board, allowed_finders(max_level))
        if step is not None:
            check_step(step, prep.solution, board)
        status = "move" if step else ("complete" if board.is_solved() else "stalled")
        code.add(EXIT_UNKNOWN if status == "stalled" else EXIT_SOLVED)
        show(p, board, step, status, as_json)
    return code.code


def show(p, board, step, status: str, as_json: bool) -> None:
    """Print one puzzle's next move (or why there is none), as a sentence or as JSON."""
    if as_json:
        echo_json(hint_json(p, board, step, status))
    elif step is not None:
        click.echo(step.text)
    elif status == "complete":
        click.echo("The grid is already complete.")
    else:
        click.echo("No technique applies: logic stalls here. Candidates:")
        click.echo(candidates_grid(board))
