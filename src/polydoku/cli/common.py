"""Options and output helpers shared by the commands."""

from __future__ import annotations

import functools
import json
import math
import sys
from typing import Any, Iterator

import click

from ..engines import Status
from ..errors import (EXIT_BAD_INPUT, EXIT_ENGINE, EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT,
                      BadInput)
from ..formats.grid import write_grid
from ..formats.line import write_line
from ..formats.read import FORMATS, Entry, read_puzzles
from ..jsonout import outcome_json  # noqa: F401  (re-exported for the commands)
from ..model import Puzzle
from ..rules import parse_rules
from ..text import find_control
from .express import MAX_SECONDS   # a week: a longer --timeout is surely a mistake

# Worst first: the exit code of a run over many puzzles is the worst one seen.
_SEVERITY = [EXIT_BAD_INPUT, EXIT_ENGINE, EXIT_UNKNOWN, EXIT_UNSAT, EXIT_SOLVED]

STATUS_EXIT = {Status.SOLVED: EXIT_SOLVED, Status.UNSATISFIABLE: EXIT_UNSAT,
               Status.UNKNOWN: EXIT_UNKNOWN, Status.ERROR: EXIT_ENGINE}


class ExitCode:
    """The worst exit code seen so far."""

    def __init__(self) -> None:
        self.code = EXIT_SOLVED

    def add(self, code: int) -> None:
        """Record one puzzle's exit code."""
        if _SEVERITY.index(code) < _SEVERITY.index(self.code):
            self.code = code



class Finite(click.FloatRange):
    """A float range that also refuses nan and infinities (`--timeout nan` is bad input)."""

    name = "finite number"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


def seconds(minimum: float = 0.001) -> Finite:
    """Return the type of a --timeout: finite seconds, at least `minimum`, at most a week."""
    return Finite(min=minimum, max=MAX_SECONDS)


class PlainText(click.ParamType):
    """Text on one line: a control character (a newline, an escape) is bad input."""

    name = "text"

    def convert(self, value, param, ctx):
        at = find_control(str(value))
        if at is not None:
            self.fail(f"control character at position {at}", param, ctx)
        return str(value)


def json_option(help_text: str = "One JSON object per puzzle."):
    """`--format text|json` (the spelling every command shares), with `--json` kept as its
    short form; the command receives `as_json`."""
    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, fmt: str = "text", as_json: bool = False, **kwargs):
            return f(*args, as_json=as_json or fmt == "json", **kwargs)
        wrapper = click.option("--json", "as_json", is_flag=True,
                               help="Same as --format json.")(wrapper)
        return click.option("--format", "-f", "fmt", type=click.Choice(["text", "json"]),
                            default="text", show_default=True, help=help_text)(wrapper)
    return decorate


def json_alias(f):
    """`--json`, the short form of `--format json`, on a command whose --format has more
    choices than text and json (the command receives `fmt`)."""
    @functools.wraps(f)
    def wrapper(*args, fmt: str, as_json: bool = False, **kwargs):
        return f(*args, fmt="json" if as_json else fmt, **kwargs)
    return click.option("--json", "as_json", is_flag=True, help="Same as --format json.")(wrapper)


def puzzle_argument(f):
    """The PUZZLE argument: a literal, a file, or - for standard input."""
    return click.argument("puzzle", metavar="PUZZLE")(f)


def _verbose(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value and "logging" not in sys.modules:
        return                  # never verbose in this process: start-up stays without logging
    import logging
    log = logging.getLogger("polydoku")
    for old in [h for h in log.handlers if getattr(h, "polydoku_verbose", False)]:
        log.removeHandler(old)                      # one run, one handler (tests run many)
    if value:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("polydoku: %(message)s"))
        handler.polydoku_verbose = True             # type: ignore[attr-defined]
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    else:
        log.setLevel(logging.WARNING)


def _offline(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    # the fetcher (urllib, ssl: a third of a one-puzzle command's start-up) is imported only
    # to be told, or when an earlier command in this process loaded it and may have set it
    if value or "polydoku.formats.fetch" in sys.modules:
        from ..formats.fetch import set_offline
        set_offline(value)


def rules_option(f):
    """--rules anti-knight,windoku,... (the global rules; others are written in JSON),
    --verbose (say what reading a link left out as cosmetic) and --offline (never fetch a
    short link)."""
    f = click.option("--offline", is_flag=True, expose_value=False, callback=_offline,
                     help="Never fetch a SudokuPad short link's puzzle from its site (also "
                          "POLYDOKU_OFFLINE=1); paste the full link instead.")(f)
    f = click.option("--verbose", "-v", is_flag=True, expose_value=False, callback=_verbose,
                     help="Say what reading a link left out as cosmetic (text, drawn "
                          "shapes, metadata).")(f)
    return click.option("--rules", "-r", default="", metavar="RULES",
                        help="Global variant rules, comma-separated: anti-knight, anti-king, "
                             "non-consecutive, diagonal, diagonal-main, diagonal-anti, "
                             "disjoint-groups, windoku, kropki-negative, xv-negative; and "
                             "line:COLOUR=KIND to name a SudokuPad puzzle's lines. Rules with "
                             "parameters (cages, lines, dots...) go in a JSON puzzle: "
                             "docs/rules.md.")(f)


def input_format_option(f):
    """--input-format auto|line|lines|grid|specs|json|ksudoku"""
    return click.option("--input-format", "input_format", default="auto",
                        type=click.Choice(FORMATS), show_default=True,
                        help="How PUZZLE is written (auto-detected by default).")(f)


def engine_options(f):
    """--engine, --timeout, --keep, -o KEY=VALUE."""
    f = click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                     help="Engine-specific option (repeatable).")(f)
    f = click.option("--keep", type=click.Path(file_okay=False), default=None,
                     help="Keep the engine's artifact and log in this folder.")(f)
    f = click.option("--timeout", type=seconds(), default=120.0,
                     show_default=True, help="Seconds allowed per puzzle.")(f)
    f = click.option("--engine", "-e", default="native", show_default=True, metavar="ENGINE",
                     help="Engine id, optionally with a variant: uv+tuned "
                          "(see `polydoku engines`).")(f)
    return f


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """Return -o KEY=VALUE pairs as a dict (a pair without = is bad input)."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadInput(f"bad engine option {pair!r}: expected KEY=VALUE")
        out[key.strip()] = value.strip()
    return out


def entries(puzzle: str, rules: str, input_format: str = "auto") -> Iterator[Entry]:
    """Yield the entries of PUZZLE with the --rules applied."""
    yield from read_puzzles(puzzle, fmt=input_format, rules=parse_rules(rules))


def good_puzzles(puzzle: str, rules: str, input_format: str, code: ExitCode) -> Iterator[Puzzle]:
    """Yield the puzzles of PUZZLE; a bad entry is reported on stderr and recorded as exit 2."""
    for entry in entries(puzzle, rules, input_format):
        if entry.error:
            report_bad(entry)
            code.add(EXIT_BAD_INPUT)
        elif entry.puzzle is not None:
            yield entry.puzzle


def report_bad(entry: Entry) -> None:
    """Print a bad entry's one-line error on stderr."""
    click.echo(f"polydoku: {entry.error}", err=True)


def render_grid(puzzle: Puzzle, grid, fmt: str) -> str:
    """Return a grid in the chosen output format (line or grid)."""
    return write_grid(puzzle, grid) if fmt == "grid" else write_line(puzzle, grid)


def json_line(data: Any) -> str:
    """Return one JSON object as one line of output (with its newline)."""
    return json.dumps(data, default=str) + "\n"


def echo_json(data: Any) -> None:
    """Print one JSON object on one line."""
    click.echo(json_line(data), nl=False)


def stderr_is_terminal() -> bool:
    """Return whether stderr is a terminal (progress bars only then)."""
    return sys.stderr.isatty()
