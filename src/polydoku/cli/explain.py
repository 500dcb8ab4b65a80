"""`polydoku explain`: a minimal set of givens that has no solution, or why a cell cannot hold a
value (`--why r1c6=4`). Parse -> `reasoning.explain` -> render -> exit code."""

from __future__ import annotations

from typing import Sequence

import click

from .. import api
from ..engines import Status
from ..errors import PolydokuError
from ..formats.grid import draw
from ..jsonout import explain_json, literal_name
from ..model import Puzzle
from ..reasoning.explain import (DEFAULT_SMALLEST_BUDGET, METHODS, Explanation, explain as run,
                                 parse_why)
from .app import cli
from .common import json_option
from .common import (ExitCode, STATUS_EXIT, echo_json, engine_options, good_puzzles, seconds,
                     input_format_option, parse_options, puzzle_argument, rules_option)

def marked_grid(puzzle: Puzzle, literals: Sequence[tuple[int, int]],
                marked: tuple[int, int] | None = None) -> str:
    """Return a grid showing only the literals; `marked` is drawn with a `*` after its value."""
    g = puzzle.geometry
    values = [0] * g.ncells
    for var, value in literals:
        values[var] = value
    texts = [puzzle.symbol(v) + ("*" if marked and marked[0] == i else "")
             for i, v in enumerate(values)]
    return draw(texts, g.size, g.box_rows, g.box_cols, cols=g.width)


def _rules_sentence(e: Explanation, puzzle: Puzzle) -> str | None:
    """Return what the variant rules have to do with the conflict (None without variant rules)."""
    if not any(r.is_global for r in puzzle.rules):
        return None
    if e.needed_rules:
        names = " and ".join(f"the {r} rule" for r in e.needed_rules)
        return f"it needs {names}: without {'it' if len(e.needed_rules) == 1 else 'each'}, " \
               f"these givens can be solved"
    if not e.classic_suffices:
        together = ", ".join(r.name for r in puzzle.rules if r.is_global)
        return f"it needs the variant rules together ({together}); no single one is needed"
    if e.clues:
        names = ", ".join(r.name for r in puzzle.rules if r.is_global)
        return f"the clues and the classic rules refute it ({names} not needed)"
    return "the classic rules alone already refute it (the variant rules are not needed)"


def _conflict_lines(e: Explanation, puzzle: Puzzle, why_text: str | None) -> list[str]:
    """Return the text lines of a conflict."""
    names = [literal_name(puzzle, g) for g in e.givens]
    k = len(names)
    these = "this given" if k == 1 else f"these {k} givens"
    drop = "remove it" if k == 1 else "remove any one"
    if why_text:
        cell, _, sym = why_text.partition("=")
        head = (f"{cell} cannot hold {sym}: with {why_text}, {these} "
                f"{'has' if k == 1 else 'have'} no solution ({drop} and there is one)")
    elif k == 0:
        head = "no solution: the rules alone have none, whatever the givens"
    else:
        prefix = "the puzzle has no solution at all" if e.puzzle_unsolvable else "no solution"
        head = (f"{prefix}: {these} already {'has' if k == 1 else 'have'} none "
                f"({drop} and the rest can be solved)")
    lines = [head, ", ".join(names) if names else "(no givens)",
             marked_grid(puzzle, list(e.givens) + ([e.assumption] if e.assumption else []),
                         e.assumption)]
    if e.assumption:
        lines.append(f"(* marks {why_text}, the value asked about)")
    lines.append("the native engine refutes them by propagation alone (naked and hidden singles)"
                 if e.by_propagation else
                 f"the native engine refutes them with a search "
                 f"({e.nodes} node{'' if e.nodes == 1 else 's'})")
    if e.clues:
        k = len(e.clues)
        lines.insert(1, f"together with {'this clue' if k == 1 else f'these {k} clues'} "
                        f"(remove {'it' if k == 1 else 'any one'} and there is a solution): "
                        + "; ".join(r.describe(puzzle.geometry) for r in e.clues))
    rules = _rules_sentence(e, puzzle)
    if rules:
        lines.append(rules)
    if e.smallest:
        s = e.smallest
        lines.append(f"smallest: no conflict has fewer givens (proved in {s.seconds:.2f} s)"
                     if s.is_proved else
                     f"smallest not proved: {s.message or 'gave up'}; no conflict has fewer than "
                     f"{s.lower_bound} givens, this one has {k}")
    return lines


def render_text(e: Explanation, puzzle: Puzzle, why_text: str | None) -> list[str]:
    """Return the text lines of an explanation."""
    if e.status is Status.UNSATISFIABLE:
        return _conflict_lines(e, puzzle, why_text if e.assumption else None)
    if e.status is Status.SOLVED:
        if why_text:
            sol = e.solutions[0]
            return [f"{why_text.partition('=')[0]} can hold {why_text.partition('=')[2]}: "
                    f"this solution has it", marked_grid(puzzle, list(enumerate(sol)), e.assumption)]
        if e.is_unique:
            return ["the puzzle has a solution, and only one: nothing to explain"]
        if e.is_unique is None:
            return [f"the puzzle has a solution: nothing to explain; uniqueness "
                    f"{e.message or 'not counted'}"]
        return ["the puzzle has several solutions (at least 2): nothing to explain "
                "(`polydoku solve --count --format grid` shows two and where they differ)"]
    lines = [f"unknown: {e.message or 'the engine gave up'}"]
    if e.givens:
        lines.append(f"these {len(e.givens)} givens have no solution, but they may not be "
                     f"minimal: {', '.join(literal_name(puzzle, g) for g in e.givens)}")
    return lines


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@engine_options
@click.option("--why", "why", default=None, metavar="CELL=VALUE",
              help="Explain why this cell cannot hold this value, e.g. r1c6=4.")
@click.option("--smallest", is_flag=True,
              help="Search for a conflict with the fewest givens (within --budget).")
@click.option("--budget", type=seconds(), default=DEFAULT_SMALLEST_BUDGET,
              show_default=True, help="Seconds allowed for --smallest.")
@click.option("--method", type=click.Choice(["auto", *METHODS]), default="auto",
              show_default=True, help="How the conflict is shrunk: auto is deletion up to "
                                      "9x9, QuickXplain above.")
@json_option("One JSON object per puzzle.")
def explain(puzzle, rules, input_format, engine, timeout, keep, options, why, smallest, budget,
            method, as_json):
    """Explain why PUZZLE has no solution: a minimal set of givens that already has none
    (remove any one and the rest can be solved). With --why r1c6=4: why that cell cannot hold
    that value. The engine may be any that solves; one with cores (see `polydoku engines`)
    shrinks faster.

    Exit codes: 0 there is a solution (of the puzzle, or with the --why value: nothing to
    explain), 1 no solution: the conflict is shown, 2 bad input, 3 engine unavailable or
    failed, 4 unknown (the engine gave up; the givens shown may not be minimal).
    """
    engine_obj = api.get_engine(engine, keep=keep, options=parse_options(options))
    code = ExitCode()
    first = True
    for p in good_puzzles(puzzle, rules, input_format, code):
        literal = parse_why(why, p) if why else None
        why_text = literal_name(p, literal) if literal else None
        try:
            e = run(p, why=literal, engine=engine_obj, method=method, smallest=smallest,
                    smallest_budget=budget, timeout=timeout)
        except PolydokuError as err:
            click.echo(f"polydoku: {p.name + ': ' if p.name else ''}{err}", err=True)
            code.add(err.exit_code)
            continue
        code.add(STATUS_EXIT[e.status])
        if as_json:
            echo_json(explain_json(e, p, why_text))
            continue
        if not first:
            click.echo("")
        first = False
        if p.name:
            click.echo(f"{p.name}:")
        click.echo("\n".join(render_text(e, p, why_text)))
    return code.code
