"""`polydoku solve`: solve, count or enumerate one puzzle or a file of many, streaming."""

from __future__ import annotations

import click

from .. import api
from ..engines import Status
from ..errors import EXIT_BAD_INPUT, PolydokuError
from ..formats.line import write_line
from ..model import cell_name
from .app import cli
from .common import (STATUS_EXIT, ExitCode, echo_json, engine_options, entries,
                     input_format_option, outcome_json, parse_options, puzzle_argument,
                     render_grid, report_bad, rules_option)


def _differences(puzzle, a, b) -> list[str]:
    """Return the cells where two solutions differ, written `r1c2=3/4`."""
    return [f"{cell_name(puzzle.geometry.cell(i))}={puzzle.symbol(x)}/{puzzle.symbol(y)}"
            for i, (x, y) in enumerate(zip(a, b)) if x != y]


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@engine_options
@click.option("--count", "mode", flag_value="count", help="Count the solutions (up to --limit).")
@click.option("--all", "mode", flag_value="all", help="Print every solution (up to --limit).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many solutions (default 1; 100000 with --count/--all).")
@click.option("--format", "-f", "fmt", type=click.Choice(["line", "grid", "json"]),
              default="line", show_default=True, help="Output format.")
def solve(puzzle, rules, input_format, engine, timeout, keep, options, mode, limit, fmt):
    """Solve PUZZLE (a literal, a file of one or many puzzles, or - for stdin).

    Exit codes: 0 solved, 1 no solution, 2 bad input, 3 engine unavailable or failed,
    4 unknown (the engine gave up or timed out).
    """
    opts = parse_options(options)
    limit = limit or (100_000 if mode in ("count", "all") else 1)
    engine_obj = api.get_engine(engine, keep=keep, options=opts)
    code = ExitCode()
    for entry in entries(puzzle, rules, input_format):
        if entry.error:
            report_bad(entry)
            code.add(EXIT_BAD_INPUT)
            continue
        p = entry.puzzle
        try:
            outcome = api.solve(p, engine_obj, max_solutions=limit, timeout=timeout)
        except PolydokuError as err:
            click.echo(f"polydoku: {p.name + ': ' if p.name else ''}{err}", err=True)
            code.add(err.exit_code)
            if fmt == "json":
                echo_json({"puzzle": p.name or write_line(p), "status": "error",
                           "message": str(err)})
            else:
                click.echo("error")
            continue
        code.add(STATUS_EXIT[outcome.status])
        _print(p, outcome, mode, fmt)
    return code.code


def _print(p, outcome, mode, fmt) -> None:
    """Print one puzzle's outcome in the chosen format."""
    if fmt == "json":
        extra = {}
        if mode == "count" and outcome.count >= 2:
            extra["differences"] = _differences(p, *outcome.solutions[:2])
        data = outcome_json(p, outcome, **extra)
        if mode == "count":
            data["solutions"] = data["solutions"][:2]
        echo_json(data)
        return
    words = outcome.message or ""
    if outcome.status is Status.UNSATISFIABLE:
        click.echo("no solution")
        click.echo(f"polydoku: {p.name + ': ' if p.name else ''}"
                   f"{words or 'no solution (proved by ' + outcome.engine + ')'}", err=True)
        return
    if outcome.status is Status.UNKNOWN and not outcome.solutions:
        click.echo("unknown")
        click.echo(f"polydoku: {p.name + ': ' if p.name else ''}{outcome.engine} gave up without "
                   f"an answer: {words or 'timed out'}", err=True)
        return
    if mode == "count":
        exact = outcome.exhausted
        click.echo(f"{outcome.count}{'' if exact else '+'}")
        if outcome.count >= 2 and fmt == "grid":
            diff = _differences(p, *outcome.solutions[:2])
            click.echo(render_grid(p, outcome.solutions[0], fmt))
            click.echo("")
            click.echo(render_grid(p, outcome.solutions[1], fmt))
            click.echo(f"they differ in {len(diff)} cells: {' '.join(diff)}")
        return
    shown = outcome.solutions if mode == "all" else outcome.solutions[:1]
    for k, solution in enumerate(shown):
        if fmt == "grid" and k:
            click.echo("")
        click.echo(render_grid(p, solution, fmt))
    if fmt == "grid":
        click.echo("")
