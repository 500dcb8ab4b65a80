"""`polydoku hint`: the next logical move, in one sentence (the easiest technique that makes progress).

Exit codes: 0 a move was found (or the grid is already full), 1 no solution, 2 bad input,
3 internal failure (a wrong step), 4 logic stalls (no technique applies; the candidates are shown).
"""

from __future__ import annotations

import click

from ..errors import EXIT_SOLVED, EXIT_UNKNOWN, BadInput
from ..jsonout import graded_hint_json
from ..reasoning.graded import GRADES, graded
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
@click.option("--level", "-l", "grade", type=click.Choice(GRADES), default="answer",
              show_default=True,
              help="How much to tell: nudge (where to look: a house), technique (and its "
                   "name), cells (and the pattern's cells), answer (the move itself).")
@click.option("--out", "-O", "out", type=click.Path(dir_okay=False), default=None,
              help="Also draw the hint on the grid (FILE.svg or FILE.png): the house or the "
                   "pattern highlighted, with --level answer the eliminations struck in red.")
@json_option("One JSON object per puzzle: what the --level tells (with answer: technique, "
             "placements, eliminations, pattern, text).")
def hint(puzzle, rules, input_format, max_level, grade, out, as_json):
    """Show the next move for PUZZLE: the easiest named technique that makes progress,
    told as much as --level asks (a nudge, the technique, its cells, or the answer).

    PUZZLE is the position as it stands (givens and the values placed so far). Exit codes:
    0 a move was found (or the grid is full), 1 no solution, 2 bad input, 3 internal failure,
    4 logic stalls (the candidates are shown).
    """
    if out is not None and not out.lower().endswith((".svg", ".png")):
        raise BadInput(f"--out {out}: the file must end in .svg or .png")
    code = ExitCode()
    drawn = 0
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
        if out is not None:
            if drawn:
                raise BadInput("--out draws the hint of one puzzle: PUZZLE holds several")
            draw(out, p, board, step, grade)
            drawn += 1
        show(p, board, step, status, as_json, grade)
    return code.code


def draw(out: str, p, board, step, grade: str) -> None:
    """Write the picture of a hint: the position with its candidates, the house or pattern
    highlighted, and with the answer its eliminations struck and placements filled in."""
    from ..reasoning.logic.board import values_of
    from ..render import write_picture
    n = p.size
    values = list(board.value)
    cands = [frozenset(values_of(board.cand[i])) if not values[i] else frozenset()
             for i in range(n * n)]
    title: str | None = None
    highlight: tuple[int, ...] = ()
    struck: tuple[tuple[tuple[int, int], int], ...] = ()
    if step is not None:
        g = graded(step, board.layout, grade)
        # the title fits over the grid (about five characters per column): a long answer
        # is printed on the terminal, the picture names its technique and house
        short = f"{step.technique}" + (f" in {g.house}" if g.house else "")
        title = g.text if len(g.text) <= 5 * n else short
        highlight = g.highlight
        struck = tuple((divmod(i, n), v) for i, v in g.struck)
        for i, v in g.placed:
            values[i] = v
    write_picture(out, p, values, candidates=cands, title=title,
                  highlight=[divmod(i, n) for i in highlight], struck=struck)


def show(p, board, step, status: str, as_json: bool, grade: str = "answer") -> None:
    """Print one puzzle's next move (or why there is none), as a sentence or as JSON."""
    if as_json:
        echo_json(graded_hint_json(p, board, step, status, grade))
    elif step is not None and grade != "answer":
        click.echo(graded(step, board.layout, grade).text)
    elif step is not None:
        click.echo(step.text)
    elif status == "complete":
        click.echo("The grid is already complete.")
    else:
        click.echo("No technique applies: logic stalls here. Candidates:")
        click.echo(candidates_grid(board))
