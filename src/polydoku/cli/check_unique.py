"""`polydoku check-unique`: does PUZZLE have exactly one solution? yes/no, fast (the search
stops at the second solution); streams a file of many, one answer line per puzzle."""

from __future__ import annotations

import click

from .. import api
from ..errors import PolydokuError
from ..jsonout import differences, error_json, unique_json, verdict
from .app import cli
from .common import (ExitCode, echo_json, engine_options, good_puzzles, input_format_option,
                     parse_options, puzzle_argument, rules_option)


@cli.command("check-unique")
@puzzle_argument
@rules_option
@input_format_option
@engine_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle.")
def check_unique(puzzle, rules, input_format, engine, timeout, keep, options, as_json):
    """Answer whether PUZZLE (or each puzzle of a file) has exactly one solution: `yes`, or
    `no` with the reason (no solution, or two solutions and the cells where they differ).

    Exit codes: 0 every puzzle is unique, 1 some puzzle has no solution or several,
    2 bad input, 3 engine unavailable or failed, 4 unknown (the engine gave up).
    """
    engine_obj = api.get_engine(engine, keep=keep, options=parse_options(options))
    if "count" not in engine_obj.capabilities:
        raise click.UsageError(f"engine {engine_obj.spec} cannot count solutions, so it cannot "
                               f"tell one solution from several (try --engine native)")
    code = ExitCode()
    for p in good_puzzles(puzzle, rules, input_format, code):
        try:
            outcome = api.solve(p, engine_obj, max_solutions=2, timeout=timeout)
        except PolydokuError as err:
            click.echo(f"polydoku: {p.name + ': ' if p.name else ''}{err}", err=True)
            code.add(err.exit_code)
            if as_json:
                echo_json(error_json(p, err, unique=None))
            else:
                click.echo("error")
            continue
        _, line, exit_code = verdict(outcome)
        code.add(exit_code)
        diff = differences(p, *outcome.solutions[:2]) if outcome.count >= 2 else []
        if as_json:
            echo_json(unique_json(p, outcome))
        elif diff:
            click.echo(f"{line}; two differ in {len(diff)} cells: {' '.join(diff)}")
        else:
            click.echo(line)
    return code.code
