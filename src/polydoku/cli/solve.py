"""`polydoku solve`: solve, count or enumerate one puzzle or a file of many, streaming.

A file of many puzzles (one per line) is solved on `--jobs` processes (default: every core), or
on a Dask cluster with `--dask`, one output line per input line in input order; `--jobs 1`
solves in this process. Each puzzle's output is made by `_handle_entry`, the same function on
every path (`many.run_lines` runs it), so they print the same.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import click

from .. import api
from ..engines import Status
from ..engines.base import Engine, not_counted
from ..errors import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_UNKNOWN, PolydokuError
from ..formats.read import Entry, read_puzzles
from ..rules import parse_rules
from ..jsonout import differences, error_json, solve_json
from .app import cli
from .common import (STATUS_EXIT, ExitCode, engine_options, input_format_option, json_alias,
                     json_line, parse_options, puzzle_argument, render_grid, rules_option)
from .express import (NOT_CHECKED, SEVERAL, UNCHECKED, budget_words, exit_of,
                      not_unique_words, unchecked_words)
from .many import (SOLVE_SUMMARY, Job, Result, cluster_options, holds_puzzle, run_lines,
                   source_size, spread_of, stream)

# Kept under their old names for modules that import them from here.
_stream, _holds_puzzle = stream, holds_puzzle


@dataclass(frozen=True)
class Settings:
    """What to do with each puzzle: the mode (None, count, all), limit, output format, timeout."""

    mode: str | None
    limit: int
    fmt: str
    timeout: float
    check: bool = False        # look for a second solution of each puzzle solved


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@engine_options
@click.option("--count", "mode", flag_value="count",
              help="Count the solutions (up to --limit); with --format grid or json, also two "
                   "of them and the cells where they differ.")
@click.option("--all", "mode", flag_value="all", help="Print every solution (up to --limit).")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many solutions (default 1; 100000 with --count/--all).")
@click.option("--format", "-f", "fmt", type=click.Choice(["line", "grid", "json"]),
              default="line", show_default=True, help="Output format.")
@click.option("--check-unique/--no-check-unique", "check", default=None,
              help="Also look for a second solution (within "
                   f"{api.UNIQUE_BUDGET:g} s, by the engine when it counts, else native) and say "
                   "on stderr when there is one. Default: on for one puzzle, off for a file "
                   "of many.")
@cluster_options
@json_alias
def solve(puzzle, rules, input_format, engine, timeout, keep, options, mode, limit, fmt, check,
          jobs, dask, chunk, unordered):
    """Solve PUZZLE (a literal, a file of one or many puzzles, or - for stdin).

    A file of many puzzles prints one result per line, in input order, and a summary on stderr.
    One puzzle is also checked for a second solution: `not unique` on stderr when one is
    found, `uniqueness not checked` when the search ran out of time (the grid is printed and
    the exit code is 0 either way: use check-unique for an exit code that says it).

    Exit codes: 0 solved, 1 no solution, 2 bad input, 3 engine unavailable or failed,
    4 unknown (the engine gave up or timed out); over many puzzles, the worst one seen.
    """
    spread = spread_of(jobs, dask, chunk, unordered)
    opts = parse_options(options)
    settings = Settings(mode, limit or (100_000 if mode in ("count", "all") else 1), fmt, timeout,
                        check is not False and mode is None)
    # With --dask the engine runs on the workers: this machine need not have it.
    engine_obj = api.get_engine(engine, keep=keep, options=opts, check=not spread.dask)
    rule_objs = parse_rules(rules)
    items = read_puzzles(puzzle, fmt=input_format, rules=rule_objs, raw=True)
    first = next(items, None)
    if first is None:
        return EXIT_SOLVED
    if isinstance(first, Entry):      # a source holding one puzzle
        if spread.dask:
            engine_obj = api.get_engine(engine_obj)
        return _emit(_handle_entry(first, engine_obj, settings), ExitCode()).code
    settings = replace(settings, check=bool(check) and mode is None)   # many: when asked
    plain = (engine == "native" and not opts and not keep and not rule_objs and mode is None
             and settings.limit == 1 and fmt == "line" and not settings.check)
    job = Job(_handle_entry, engine, keep, opts, tuple(rule_objs), settings, json=fmt == "json",
              express=_express if plain else None,
              summary=SOLVE_SUMMARY + ((SEVERAL, "solved but not unique"),
                                       (UNCHECKED, "solved, uniqueness not checked")),
              note="uniqueness checked" if settings.check else
              NOT_CHECKED if mode is None else "")
    return run_lines(first, items, job, spread, source_size(puzzle))


def _express(texts: list[str], s: Settings) -> tuple[int, str, int]:
    """Answer the leading classic puzzle lines of a run in C (cli/express.py), as
    `_handle_entry` would one by one: the first solution of each, checked, as a line."""
    from .express import answer_lines
    return answer_lines(texts, s.timeout)


def _emit(result: Result, code: ExitCode) -> ExitCode:
    """Print one result and record its exit code; return the running exit code."""
    out, err, exit_code = result
    if out:
        click.echo(out, nl=False)
    if err:
        click.echo(err, nl=False, err=True)
    code.add(exit_of(exit_code))
    return code


def _handle_entry(entry: Entry, engine: Engine, s: Settings) -> Result:
    """Return what one puzzle prints on stdout and stderr, and its exit code."""
    if entry.error or entry.puzzle is None:
        return "", f"polydoku: {entry.error}\n", EXIT_BAD_INPUT
    p = entry.puzzle
    try:
        outcome = api.solve(p, engine, max_solutions=s.limit, timeout=s.timeout,
                            keep_solutions=2 if s.mode == "count" else None)
    except PolydokuError as err:
        message = f"polydoku: {p.name + ': ' if p.name else ''}{err}\n"
        if s.fmt == "json":
            return json_line(error_json(p, err)), message, err.exit_code
        return "error\n", message, err.exit_code
    unique = None
    if s.check and outcome.status is Status.SOLVED and outcome.solutions:
        unique, said = _uniqueness(p, engine, outcome, s.timeout)
        out, _ = _render(p, outcome, s.mode, s.fmt, unique)
        tag = EXIT_SOLVED if unique else SEVERAL if unique is False else UNCHECKED
        return out, said, tag
    out, said = _render(p, outcome, s.mode, s.fmt)
    if outcome.status is Status.SOLVED and not outcome.exhausted and outcome.count < s.limit:
        # cut short before the limit (by the timeout, or an engine that does not count): the
        # count is a lower bound, gave up
        where = p.name + ": " if p.name else ""
        if "count" not in engine.capabilities:
            return out, said or f"polydoku: {where}{not_counted(engine.spec, False)}\n", \
                EXIT_UNKNOWN
        return out, said or f"polydoku: {where}stopped after {outcome.count} solutions: " \
                           f"{outcome.message or 'timed out'}\n", EXIT_UNKNOWN
    return out, said, STATUS_EXIT[outcome.status]


def _uniqueness(p, engine: Engine, outcome, timeout: float) -> tuple[bool | None, str]:
    """Return whether a solved puzzle is unique (None when not settled) and what stderr
    says of it."""
    where = p.name + ": " if p.name else ""
    unique, who, budget = api.second_solution(p, engine, outcome, timeout)
    if unique is None:
        return None, unchecked_words(where, who or budget_words(budget))
    if unique:
        return unique, ""
    from ..formats.foreign import UNREAD, is_from_drawing
    return unique, not_unique_words(where, who) + (
        f"polydoku: {where}{UNREAD}\n" if is_from_drawing(p) else "")


def _render(p, outcome, mode, fmt, unique: bool | None = None) -> tuple[str, str]:
    """Return one puzzle's outcome as stdout and stderr text in the chosen format (with
    `unique` in JSON when it was checked)."""
    if fmt == "json":
        from ..formats.foreign import said_of
        data = solve_json(p, outcome, mode)
        if mode is None:
            data["unique"] = unique
        if said := said_of(p):
            data["read_from_text"] = said
        return json_line(data), ""
    words = outcome.message or ""
    where = p.name + ": " if p.name else ""
    if outcome.status is Status.UNSATISFIABLE:
        return "no solution\n", (f"polydoku: {where}"
                                 f"{words or 'no solution (proved by ' + outcome.engine + ')'}\n")
    if outcome.status is Status.UNKNOWN and not outcome.solutions:
        return "unknown\n", (f"polydoku: {where}{outcome.engine} gave up without an answer: "
                             f"{words or 'timed out'}\n")
    out: list[str] = []
    if mode == "count":
        out.append(f"{outcome.count}{'' if outcome.exhausted else '+'}")
        if outcome.count >= 2 and fmt == "grid":
            diff = differences(p, *outcome.solutions[:2])
            out += [render_grid(p, outcome.solutions[0], fmt), "",
                    render_grid(p, outcome.solutions[1], fmt),
                    f"they differ in {len(diff)} cells: {' '.join(diff)}"]
        return "".join(line + "\n" for line in out), ""
    shown = outcome.solutions if mode == "all" else outcome.solutions[:1]
    for k, solution in enumerate(shown):
        if fmt == "grid" and k:
            out.append("")
        out.append(render_grid(p, solution, fmt))
    if fmt == "grid":
        out.append("")
    return "".join(line + "\n" for line in out), ""
