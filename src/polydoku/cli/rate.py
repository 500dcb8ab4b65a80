"""`polydoku rate`: one row per puzzle of a file, in input order: its level, score,
difficulty, hardest technique, givens and whether it is unique; a bad line is an error row in
its place.

Rows stream as they are made, on --jobs processes (`many.run_lines`), as CSV, JSON lines or
an aligned table.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

import click

from ..errors import (EXIT_BAD_INPUT, EXIT_ENGINE, EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT,
                      PolydokuError)
from ..formats.read import Entry, read_puzzles
from ..rules import parse_rules
from ..reasoning.logic import prepare, solve_logically
from ..text import one_line
from .app import cli
from .common import (input_format_option, json_alias, json_line, puzzle_argument, rules_option,
                     seconds)
from .many import Job, Result, cluster_options, run_lines, source_size, spread_of

COLUMNS = ("line", "name", "level", "score", "difficulty", "hardest", "givens", "unique",
           "status")
WIDTHS = {"line": 6, "name": 16, "level": 8, "score": 6, "difficulty": 10, "hardest": 26,
          "givens": 6,
          "unique": 6}
SUMMARY = ((EXIT_SOLVED, "rated"), (EXIT_UNSAT, "not unique"), (EXIT_UNKNOWN, "unknown"),
           (EXIT_ENGINE, "errors"), (EXIT_BAD_INPUT, "bad input"))


@dataclass(frozen=True)
class Settings:
    fmt: str
    timeout: float


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@click.option("--format", "-f", "fmt", type=click.Choice(["table", "csv", "json"]),
              default="table", show_default=True,
              help="An aligned table, CSV with a header row, or one JSON object per line.")
@click.option("--timeout", type=seconds(), default=60.0, show_default=True,
              help="Seconds allowed per puzzle (the uniqueness proof and the rating).")
@cluster_options
@json_alias
def rate(puzzle, rules, input_format, fmt, timeout, jobs, dask, chunk, unordered):
    """Rate every puzzle of PUZZLE (a file of one puzzle per line, a literal, or -) with
    polydoku's logic: level (Easy..Extreme), score, difficulty (Sudoku Explainer's scale,
    1.0 to 11; for classic puzzles computed as it does), hardest technique, givens, unique.

    One row per input line, in input order; a bad line is an error row in its place and the
    others are still rated. Exit codes: 0 every puzzle rated, 1 some puzzle has no solution
    or several (not rated), 2 bad input, 4 a puzzle ran out of time.
    """
    spread = spread_of(jobs, dask, chunk, unordered)
    rule_objs = parse_rules(rules)
    settings = Settings(fmt, timeout)
    items = read_puzzles(puzzle, fmt=input_format, rules=rule_objs, raw=True)
    first = next(items, None)
    if fmt != "json":
        click.echo(header(fmt), nl=False)
    if first is None:
        return EXIT_SOLVED
    if isinstance(first, Entry):      # a source holding one puzzle
        if first.error:
            out, err, code = bad_row(first, settings), f"polydoku: {first.error}\n", EXIT_BAD_INPUT
        else:
            out, err, code = _rate_entry(first, None, settings)
        click.echo(out, nl=False)
        click.echo(err, nl=False, err=True)
        return code
    job = Job(_rate_entry, "native", None, {}, tuple(rule_objs), settings,
              json=fmt == "json", summary=SUMMARY, bad_row=bad_row)
    return run_lines(first, items, job, spread, source_size(puzzle))


def header(fmt: str) -> str:
    """Return the header line of a table or CSV."""
    if fmt == "csv":
        return _csv_line(list(COLUMNS))
    return _table_line({c: c for c in COLUMNS})


def row_text(row: dict, fmt: str) -> str:
    """Return one row in the output format (with its newline)."""
    if fmt == "json":
        return json_line(row)
    text = {**row, "unique": {True: "yes", False: "no", None: None}[row["unique"]]}
    if fmt == "csv":
        return _csv_line(["" if text[c] is None else text[c] for c in COLUMNS])
    return _table_line({c: "-" if text[c] is None else text[c] for c in COLUMNS})


def _csv_line(values: list) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(values)
    return buf.getvalue()


def _table_line(values: dict) -> str:
    cells = []
    for c in COLUMNS:
        text = one_line(str(values[c]))
        width = WIDTHS.get(c)
        if width is None:
            cells.append(text)
        else:
            text = text if len(text) <= width else text[:width - 1] + "…"
            cells.append(text.rjust(width) if c in ("line", "score", "difficulty", "givens") else
                         text.ljust(width))
    return "  ".join(cells).rstrip() + "\n"


def _row(entry: Entry, **fields) -> dict:
    name = entry.puzzle.name if entry.puzzle is not None else None
    row = dict.fromkeys(COLUMNS)
    row.update(line=entry.line, name=name or None, **fields)
    return row


def bad_row(entry: Entry, settings: Settings) -> str:
    """Return the error row of a bad line."""
    return row_text(_row(entry, status=f"error: {entry.error}"), settings.fmt)


def _rate_entry(entry: Entry, engine, settings: Settings) -> Result:
    """Return one puzzle's row (stdout), its message (stderr) and exit code."""
    p = entry.puzzle
    assert p is not None                    # bad lines never reach here (bad_row)
    givens = sum(1 for v in p.givens if v)
    where = f"line {entry.line}: " if entry.line else ""
    try:
        prep = prepare(p, timeout=settings.timeout)
        if prep.solution is None or not prep.unique:
            if prep.solution is None and prep.status.name == "UNKNOWN":
                status, code = "gave up", EXIT_UNKNOWN
            else:
                status = "no solution" if prep.solution is None else "several solutions"
                code = EXIT_UNSAT
            row = _row(entry, givens=givens, unique=False if code == EXIT_UNSAT else None,
                       status=status)
            return row_text(row, settings.fmt), f"polydoku: {where}{status}\n", code
        path = solve_logically(p, prepared=prep, max_seconds=settings.timeout)
    except PolydokuError as err:
        row = _row(entry, givens=givens, status=f"error: {err}")
        return row_text(row, settings.fmt), f"polydoku: {where}{err}\n", err.exit_code
    r = path.rating
    if path.timed_out:
        row = _row(entry, givens=givens, unique=True, status="gave up")
        return (row_text(row, settings.fmt),
                f"polydoku: {where}the rating ran out of time\n", EXIT_UNKNOWN)
    row = _row(entry, level=r.level, score=r.score, difficulty=r.difficulty,
               hardest=r.hardest or None, givens=givens,
               unique=True, status="rated" if r.solved else "rated (logic stalls)")
    return row_text(row, settings.fmt), "", EXIT_SOLVED
