"""`polydoku hint`: the next logical move, in one sentence (the easiest technique that makes progress).

Exit codes: 0 a move was found (or the grid is already full), 1 no solution, 2 bad input,
3 internal failure (a wrong step), 4 logic stalls (no technique applies; the candidates are shown).
"""

from __future__ import annotations

import click

from ..errors import EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT, BadInput
from ..jsonout import graded_hint_json
from ..reasoning.logic import GRADES, Hint, HintStatus, candidates_grid, hint as next_hint
from .app import cli
from .common import json_option
from .common import ExitCode, echo_json, good_puzzles, input_format_option, puzzle_argument
from .common import rules_option
from .logic_options import level_option

_EXIT = {HintStatus.MOVE: EXIT_SOLVED, HintStatus.COMPLETE: EXIT_SOLVED,
         HintStatus.STALLED: EXIT_UNKNOWN, HintStatus.UNSATISFIABLE: EXIT_UNSAT,
         HintStatus.UNKNOWN: EXIT_UNKNOWN}


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
        h = next_hint(p, max_level=max_level, grade=grade)
        code.add(_EXIT[h.status])
        if h.board is None:                 # logic not tried: no solution, or none found
            show(p, h, as_json)
            continue
        if out is not None:
            if drawn:
                raise BadInput("--out draws the hint of one puzzle: PUZZLE holds several")
            draw(out, p, h)
            drawn += 1
        show(p, h, as_json)
    return code.code


def draw(out: str, p, h: Hint) -> None:
    """Write the picture of a hint: the position with its candidates, the house or pattern
    highlighted, and with the answer its eliminations struck and placements filled in."""
    from ..reasoning.logic.board import values_of
    from ..render import write_picture
    board = h.board
    if board is None:
        return
    n = p.size
    values = list(board.value)
    cands = [frozenset(values_of(board.cand[i])) if not values[i] else frozenset()
             for i in range(n * n)]
    title: str | None = None
    highlight: tuple[int, ...] = ()
    struck: tuple[tuple[tuple[int, int], int], ...] = ()
    g = h.graded
    if h.step is not None and g is not None:
        # the title fits over the grid (about five characters per column): a long answer
        # is printed on the terminal, the picture names its technique and house
        short = f"{h.step.technique}" + (f" in {g.house}" if g.house else "")
        title = g.text if len(g.text) <= 5 * n else short
        highlight = g.highlight
        struck = tuple((divmod(i, n), v) for i, v in g.struck)
        for i, v in g.placed:
            values[i] = v
    write_picture(out, p, values, candidates=cands, title=title,
                  highlight=[divmod(i, n) for i in highlight], struck=struck)


def show(p, h: Hint, as_json: bool) -> None:
    """Print one puzzle's next move (or why there is none), as a sentence or as JSON."""
    if as_json:
        echo_json(graded_hint_json(p, h))
    elif h.board is None:
        click.echo(h.message)
        click.echo(f"polydoku: {p.name + ': ' if p.name else ''}{h.message}", err=True)
    elif h.graded is not None:
        click.echo(h.graded.text)
    elif h.status is HintStatus.COMPLETE:
        click.echo("The grid is already complete.")
    else:
        click.echo("No technique applies: logic stalls here. Candidates:")
        click.echo(candidates_grid(h.board))
