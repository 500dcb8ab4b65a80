"""`polydoku check-unique`: does PUZZLE have exactly one solution? yes/no, fast (the search
stops at the second solution); streams a file of many, one answer line per puzzle, on --jobs
processes or a Dask cluster (`many.run_lines`)."""

from __future__ import annotations


import click

from .. import api
from ..errors import (EXIT_BAD_INPUT, EXIT_ENGINE, EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT,
                      PolydokuError)
from ..formats.read import Entry, read_puzzles
from ..rules import parse_rules
from ..jsonout import differences, error_json, unique_json, verdict
from .app import cli
from .common import (engine_options, input_format_option, json_line, json_option, parse_options,
                     puzzle_argument, rules_option)
from .many import Job, Result, cluster_options, run_lines, source_size, spread_of

SUMMARY = ((EXIT_SOLVED, "unique"), (EXIT_UNSAT, "not unique"), (EXIT_UNKNOWN, "unknown"),
           (EXIT_ENGINE, "engine errors"), (EXIT_BAD_INPUT, "bad input"))


@cli.command("check-unique")
@puzzle_argument
@rules_option
@input_format_option
@engine_options
@json_option("One JSON object per puzzle.")
@cluster_options
def check_unique(puzzle, rules, input_format, engine, timeout, keep, options, as_json, jobs,
                 dask, chunk, unordered):
    """Answer whether PUZZLE (or each puzzle of a file) has exactly one solution: `yes`, or
    `no` with the reason (no solution, or two solutions and the cells where they differ).

    A file of many puzzles is checked on --jobs processes (or a Dask cluster with --dask),
    one answer line per puzzle in input order, and a summary on stderr.

    Exit codes: 0 every puzzle is unique, 1 some puzzle has no solution or several,
    2 bad input, 3 engine unavailable or failed, 4 unknown (the engine gave up).
    """
    spread = spread_of(jobs, dask, chunk, unordered)
    opts = parse_options(options)
    engine_obj = api.get_engine(engine, keep=keep, options=opts, check=not spread.dask)
    if "count" not in engine_obj.capabilities:
        raise click.UsageError(f"engine {engine_obj.spec} cannot count solutions, so it cannot "
                               f"tell one solution from several (try --engine native)")
    rule_objs = parse_rules(rules)
    items = read_puzzles(puzzle, fmt=input_format, rules=rule_objs, raw=True)
    first = next(items, None)
    if first is None:
        return EXIT_SOLVED
    settings = (timeout, as_json)
    if isinstance(first, Entry):      # a source holding one puzzle
        out, err, code = _check_entry(first, api.get_engine(engine_obj), settings)
        click.echo(out, nl=False)
        click.echo(err, nl=False, err=True)
        return code
    job = Job(_check_entry, engine, keep, opts, tuple(rule_objs), settings, json=as_json,
              error_fields={"unique": None}, summary=SUMMARY)
    return run_lines(first, items, job, spread, source_size(puzzle))


def _check_entry(entry: Entry, engine, settings: tuple[float, bool]) -> Result:
    """Return what one puzzle's answer prints on stdout and stderr, and its exit code."""
    timeout, as_json = settings
    if entry.error or entry.puzzle is None:
        return "", f"polydoku: {entry.error}\n", EXIT_BAD_INPUT
    p = entry.puzzle
    try:
        outcome = api.solve(p, engine, max_solutions=2, timeout=timeout)
    except PolydokuError as err:
        message = f"polydoku: {p.name + ': ' if p.name else ''}{err}\n"
        if as_json:
            return json_line(error_json(p, err, unique=None)), message, err.exit_code
        return "error\n", message, err.exit_code
    _, line, exit_code = verdict(outcome)
    if as_json:
        return json_line(unique_json(p, outcome)), "", exit_code
    diff = differences(p, *outcome.solutions[:2]) if outcome.count >= 2 else []
    if diff:
        line = f"{line}; two differ in {len(diff)} cells: {' '.join(diff)}"
    return line + "\n", "", exit_code
