"""`polydoku solve`: solve, count or enumerate one puzzle or a file of many, streaming.

A file of many puzzles (one per line) is solved on `--jobs` processes (default: every core),
one output line per input line in input order; `--jobs 1` solves in this process. Each puzzle's
output is made by `_handle_entry`, the same function in both paths, so they print the same.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from dataclasses import dataclass
from itertools import chain

import click

from .. import api
from ..batch import Progress, default_jobs, ordered_chunks
from ..engines import Status
from ..engines.base import Engine
from ..errors import (EXIT_BAD_INPUT, EXIT_ENGINE, EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT,
                      PolydokuError)
from ..formats.read import Entry, RawLine, parse_entry, read_puzzles
from ..jsonout import differences, error_json, solve_json
from ..model import parse_rules
from .app import cli
from .common import (STATUS_EXIT, ExitCode, engine_options, input_format_option,
                     parse_options, puzzle_argument, render_grid, rules_option,
                     stderr_is_terminal)

# What one puzzle prints: (stdout text, stderr text, exit code).
Result = tuple[str, str, int]

_SUMMARY = ((EXIT_SOLVED, "solved"), (EXIT_UNSAT, "no solution"), (EXIT_UNKNOWN, "unknown"),
            (EXIT_ENGINE, "engine errors"), (EXIT_BAD_INPUT, "bad input"))


@dataclass(frozen=True)
class Settings:
    """What to do with each puzzle: the mode (None, count, all), limit, output format, timeout."""

    mode: str | None
    limit: int
    fmt: str
    timeout: float


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
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes for a file of many puzzles (default: the core count); "
                   "1 solves in this process.")
def solve(puzzle, rules, input_format, engine, timeout, keep, options, mode, limit, fmt, jobs):
    """Solve PUZZLE (a literal, a file of one or many puzzles, or - for stdin).

    A file of many puzzles prints one result per line, in input order, and a summary on stderr.

    Exit codes: 0 solved, 1 no solution, 2 bad input, 3 engine unavailable or failed,
    4 unknown (the engine gave up or timed out); over many puzzles, the worst one seen.
    """
    opts = parse_options(options)
    settings = Settings(mode, limit or (100_000 if mode in ("count", "all") else 1), fmt, timeout)
    engine_obj = api.get_engine(engine, keep=keep, options=opts)
    rule_objs = parse_rules(rules)
    items = read_puzzles(puzzle, fmt=input_format, rules=rule_objs, raw=True)
    first = next(items, None)
    if first is None:
        return EXIT_SOLVED
    if isinstance(first, Entry):      # a source holding one puzzle
        return _emit(_handle_entry(first, engine_obj, settings), ExitCode()).code
    head, lines = _peek_puzzles(first, items, 2)
    jobs = 1 if head < 2 else (jobs or default_jobs())   # one puzzle: no processes to start
    total = os.path.getsize(puzzle) if os.path.isfile(puzzle) else None
    if jobs == 1:
        _init_worker(engine_obj, keep, opts, first.source, rule_objs, settings)
        batches = (_solve_lines(r.line - 1, [r.text]) for r in lines)
    else:
        # Raw lines come one per input line from line 1, so a line's number is its index + 1.
        batches = (result for _, result in ordered_chunks(
            _solve_lines, (r.text for r in lines), jobs=jobs, initializer=_init_worker,
            initargs=(engine, keep, opts, first.source, rule_objs, settings),
            preload=(__name__,)))
    return _stream(batches, total)


def _peek_puzzles(first: RawLine, rest, wanted: int):
    """Return how many of the first lines hold a puzzle (up to `wanted`), and all the lines."""
    head, found = [first], _holds_puzzle(first.text)
    for line in rest:
        head.append(line)
        found += _holds_puzzle(line.text)
        if found >= wanted:
            break
    return found, chain(head, rest)


def _holds_puzzle(text: str) -> bool:
    """Return whether a line is neither blank nor a comment."""
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


def _stream(batches, total: int | None) -> int:
    """Print batches of results in order with a progress bar and a summary; return the exit
    code."""
    code, tally, start = ExitCode(), Counter(), time.perf_counter()
    with Progress(total, enabled=stderr_is_terminal()) as bar:
        for chars, out, err, codes in batches:
            if out:
                click.echo(out, nl=False)
            if err:
                click.echo(err, nl=False, err=True)
            tally.update(codes)
            for c in set(codes):
                code.add(c)
            bar.advance(chars if total else len(codes), items=len(codes))
    seconds = time.perf_counter() - start
    done = sum(tally.values())
    if done > 1:
        counts = ", ".join(f"{tally[k]:,} {name}" for k, name in _SUMMARY if tally[k])
        click.echo(f"polydoku: {done:,} puzzles in {seconds:.2f} s "
                   f"({done / max(seconds, 1e-9):,.0f}/s): {counts}", err=True)
    return code.code


def _emit(result: Result, code: ExitCode) -> ExitCode:
    """Print one result and record its exit code; return the running exit code."""
    out, err, exit_code = result
    if out:
        click.echo(out, nl=False)
    if err:
        click.echo(err, nl=False, err=True)
    code.add(exit_code)
    return code


# Worker side: each process builds its own engine once, then turns runs of lines into one
# compact batch (few objects to send back, so the main process never becomes the bottleneck).
_WORKER: dict = {}


def _init_worker(spec, keep, options, source, rules, settings) -> None:
    """Set up one worker process: its own engine and the run's settings."""
    _WORKER.update(engine=api.get_engine(spec, keep=keep, options=options), source=source,
                   rules=rules, settings=settings)


def _solve_lines(start: int, texts: list[str]) -> tuple[int, str, str, list[int]]:
    """Return a batch for consecutive input lines (the first is line start + 1): characters
    read, stdout text, stderr text, and the exit code of each puzzle (none for blank lines)."""
    w = _WORKER
    outs, errs, codes = [], [], []
    for k, text in enumerate(texts, start + 1):
        entry = parse_entry(text, k, w["source"], rules=w["rules"])
        if entry is not None:
            out, err, code = _handle_entry(entry, w["engine"], w["settings"])
            outs.append(out)
            errs.append(err)
            codes.append(code)
    return sum(map(len, texts)), "".join(outs), "".join(errs), codes


def _handle_entry(entry: Entry, engine: Engine, s: Settings) -> Result:
    """Return what one puzzle prints on stdout and stderr, and its exit code."""
    if entry.error:
        return "", f"polydoku: {entry.error}\n", EXIT_BAD_INPUT
    p = entry.puzzle
    try:
        outcome = api.solve(p, engine, max_solutions=s.limit, timeout=s.timeout)
    except PolydokuError as err:
        message = f"polydoku: {p.name + ': ' if p.name else ''}{err}\n"
        if s.fmt == "json":
            return _json_line(error_json(p, err)), message, err.exit_code
        return "error\n", message, err.exit_code
    out, err = _render(p, outcome, s.mode, s.fmt)
    return out, err, STATUS_EXIT[outcome.status]


def _json_line(data) -> str:
    """Return one JSON object as one line."""
    return json.dumps(data, default=str) + "\n"


def _render(p, outcome, mode, fmt) -> tuple[str, str]:
    """Return one puzzle's outcome as stdout and stderr text in the chosen format."""
    if fmt == "json":
        return _json_line(solve_json(p, outcome, mode)), ""
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
