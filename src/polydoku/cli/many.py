"""A file of many puzzles through a per-puzzle command: in this process, on `--jobs` local
processes, or on a Dask cluster (`--dask`), with the same output in every case.

A command supplies a `Job`: its per-puzzle function `handle(entry, engine, settings)`, which
returns what one puzzle prints (stdout text, stderr text, exit code), and the settings it
needs. `run_lines` reads the lines, sends runs of them to the workers (each worker builds
its own engine once and parses its own lines, so line numbers, names and bad-input messages
are the same everywhere), prints the results in input order (or as they finish, with
`--unordered`), draws a progress bar on a terminal, prints a summary on stderr, and returns
the worst exit code. It must not know what a command does with a puzzle.

A worker without the engine answers exit 3 for each of its puzzles, naming the puzzle, the
engine and the worker; a run of lines the cluster could not compute is reported the same way,
line by line; a bad line is bad input (exit 2) on its own line wherever it ran.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, cast

import click

from .. import api
from ..batch import Progress, run_chunks
from ..jobs import default_jobs
from ..engines.base import Engine
from ..errors import (EXIT_BAD_INPUT, EXIT_ENGINE, EXIT_SOLVED, EXIT_UNKNOWN, EXIT_UNSAT)
from ..formats.read import Entry, RawLine, parse_entry
from .common import ExitCode, json_line, stderr_is_terminal
from .express import Resume, carried as express_carried, exit_of, summary_line

# What one puzzle prints: (stdout text, stderr text, exit code).
Result = tuple[str, str, int]
# What a run of lines prints: (characters read, stdout text, stderr text, each puzzle's code).
Batch = tuple[int, str, str, list[int]]

SOLVE_SUMMARY = ((EXIT_SOLVED, "solved"), (EXIT_UNSAT, "no solution"),
                 (EXIT_UNKNOWN, "unknown"), (EXIT_ENGINE, "engine errors"),
                 (EXIT_BAD_INPUT, "bad input"))


@dataclass(frozen=True)
class Job:
    """What every worker needs to run a command on its lines.

    `handle` is a top-level function (workers import it by name); `settings` is whatever it
    needs besides the entry and the engine (picklable). `json` says whether the command
    prints JSON lines, so that failures found outside `handle` print in the same format, with
    `error_fields` added (e.g. `{"unique": None}`). `summary` names the exit codes (and the
    tally tags of `express.exit_of`) in the closing line on stderr.
    """

    handle: Callable[[Entry, Engine, Any], Result]
    engine: str
    keep: str | None
    options: dict[str, str]
    rules: tuple
    settings: Any
    json: bool = False
    error_fields: dict[str, Any] = field(default_factory=dict)
    summary: tuple[tuple[int, str], ...] = SOLVE_SUMMARY
    note: str = ""               # said after the summary's counts
    source: str = "<stdin>"
    bad_row: Callable[[Entry, Any], str] | None = None   # a bad line's record, when not "error"
    # answers the leading lines of a run at once when it can: (texts, settings) -> (lines
    # done, their stdout, puzzles solved); solve's express lane (express.answer_lines)
    express: Callable[[list[str], Any], tuple[int, str, int]] | None = None


@dataclass(frozen=True)
class Spread:
    """Where a file's puzzles run: `jobs` processes, or the Dask cluster at `dask`, with a
    fixed chunk size or none, in input order unless `unordered`."""

    jobs: int | None = None
    dask: str | None = None
    chunk: int | None = None
    unordered: bool = False


def cluster_options(f):
    """--jobs, --dask ADDRESS, --chunk N and --unordered: where a file's puzzles run."""
    f = click.option("--unordered", is_flag=True,
                     help="With --dask: print results as they finish, not in input order "
                          "(JSON output names each puzzle's line).")(f)
    f = click.option("--chunk", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Lines per task sent to a worker (default: sized so a task takes "
                          "about 0.1 s locally, 1 s on Dask, smaller near the end).")(f)
    f = click.option("--dask", default=None, metavar="ADDRESS",
                     help="Run on the Dask scheduler at ADDRESS (tcp://host:8786), or "
                          "`local` to start a local cluster of --jobs workers.")(f)
    f = click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
                     help="Processes for a file of many puzzles (default and most: the core "
                          "count); 1 runs in this process. With --dask local: its workers.")(f)
    return f


def spread_of(jobs: int | None, dask: str | None, chunk: int | None,
              unordered: bool) -> Spread:
    """Return where to run, from the cluster options (--unordered needs --dask)."""
    if unordered and not dask:
        raise click.UsageError("--unordered needs --dask (local runs keep input order)")
    if jobs is not None:
        jobs = min(jobs, os.cpu_count() or 1)      # more processes than cores only cost memory
    return Spread(jobs, dask.strip() if dask else None, chunk, unordered)


def run_lines(first: RawLine, after: Iterable[RawLine | Entry], job: Job, spread: Spread,
              total: int | None = None) -> int:
    """Run a command on every line of a one-puzzle-per-line source (its first line and those
    `after` it), print the results, and return the worst exit code. `total` is the source's size
    in characters, for the progress bar, when known."""
    rest = cast(Iterable[RawLine], after)    # after a raw first line, read_puzzles yields no Entry
    job = replace(job, source=first.source)
    carried = express_carried()
    if carried is not None:
        # The express lane answered the first lines already: they become blank lines here, so
        # that every other line keeps its number (its index in the stream, on a pool).
        done = carried.lines
        rest = (RawLine("", r.line, r.source) if r.line <= done else r
                for r in chain([first], rest))
        first = next(rest)
    batches: Iterator[Batch]
    if spread.dask:
        batches = _cluster_batches(chain([first], rest), job, spread, count_lines(first.source))
        return stream(batches, total, job.summary, label="on Dask", note=job.note)
    head, lines = _peek_puzzles(first, rest, 2)
    jobs = 1 if head < 2 else (spread.jobs or default_jobs())   # one puzzle: no processes
    if jobs == 1:
        init_worker(job)
        batches = (run_batch(r.line - 1, [r.text]) for r in lines)
    else:
        # Raw lines come one per input line from line 1, so a line's number is its index + 1.
        batches = (result for _, result in run_chunks(
            run_batch, (r.text for r in lines), jobs=jobs, size=spread.chunk,
            initializer=init_worker, initargs=(job,), preload=(__name__,),
            on_lost=partial(lost_batch, job)))
    return stream(batches, total, job.summary, carried=carried, note=job.note)


def _cluster_batches(lines: Iterator[RawLine], job: Job, spread: Spread,
                     count: int | None) -> Iterator[Batch]:
    """Yield the batches of the lines (`count` of them, when known) as the Dask cluster
    computes them."""
    for _, result in run_chunks(run_batch, (r.text for r in lines), jobs=spread.jobs or 0,
                                dask=spread.dask, size=spread.chunk,
                                unordered=spread.unordered, initializer=init_worker,
                                initargs=(job,), total=count,
                                on_lost=lambda s, t, e: lost_batch(job, s, t, e)):
        yield result


def count_lines(source: str) -> int | None:
    """Return the number of lines of a file (None for standard input or a literal)."""
    if not os.path.isfile(source):
        return None
    count, last = 0, b"\n"
    with open(source, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            count += block.count(b"\n")
            last = block[-1:]
    return count + (last != b"\n")


def _peek_puzzles(first: RawLine, rest: Iterable[RawLine], wanted: int):
    """Return how many of the first lines hold a puzzle (up to `wanted`), and all the lines."""
    rest = iter(rest)
    head, found = [first], int(holds_puzzle(first.text))
    for line in rest:
        head.append(line)
        found += holds_puzzle(line.text)
        if found >= wanted:
            break
    return found, chain(head, rest)


def holds_puzzle(text: str) -> bool:
    """Return whether a line is neither blank nor a comment."""
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


def stream(batches: Iterable[Batch], total: int | None,
           summary: tuple[tuple[int, str], ...] = SOLVE_SUMMARY, label: str = "solving",
           carried: Resume | None = None, note: str = "") -> int:
    """Print batches of results as they come with a progress bar and a summary; return the
    worst exit code. `carried` is what the express lane printed before (its lines count too)."""
    code, tally, start = ExitCode(), Counter[int](), time.perf_counter()
    if carried is not None:
        tally.update(carried.tally)
        start = carried.start
        for c in carried.tally:
            code.add(exit_of(c))
    with Progress(total, enabled=stderr_is_terminal(), label=label) as bar:
        if carried is not None:
            bar.advance(carried.chars if total else carried.lines, items=carried.lines)
        for chars, out, err, codes in batches:
            if out:
                click.echo(out, nl=False)
            if err:
                click.echo(err, nl=False, err=True)
            tally.update(codes)
            for c in set(codes):
                code.add(exit_of(c))
            bar.advance(chars if total else len(codes), items=len(codes))
    line = summary_line(tally, time.perf_counter() - start, summary, note)
    if line:
        click.echo(line, err=True)
    return code.code


def error_result(job: Job, name: str | None, message: str, code: int = EXIT_ENGINE) -> Result:
    """Return what a puzzle prints when it failed outside the command's own handling."""
    line = f"polydoku: {name + ': ' if name else ''}{message}\n"
    if job.json:
        data = {"puzzle": name, "status": "error", **job.error_fields, "message": message}
        return json_line(data), line, code
    return "error\n", line, code


def bad_result(job: Job, entry: Entry) -> Result:
    """Return what a bad line prints: a record in its place on stdout (so that output stays
    aligned with input) and the one-line error on stderr; exit 2."""
    line = f"polydoku: {entry.error}\n"
    if job.bad_row is not None:
        return job.bad_row(entry, job.settings), line, EXIT_BAD_INPUT
    if job.json:
        data = {"puzzle": None, "line": entry.line, "status": "error", **job.error_fields,
                "message": str(entry.error)}
        return json_line(data), line, EXIT_BAD_INPUT
    return "error\n", line, EXIT_BAD_INPUT


def lost_batch(job: Job, start: int, texts: list[str], error: BaseException) -> Batch:
    """Return the batch of lines the workers could not compute: each puzzle an error (exit
    3), each bad line its own bad input (exit 2)."""
    from ..batch import lost_reason
    return lines_batch(job, start, texts, failed=lost_reason(error))


def lines_batch(job: Job, start: int, texts: list[str], engine: Engine | None = None,
                failed: str | None = None) -> Batch:
    """Return the batch of consecutive input lines (the first is line start + 1): a bad line
    is its own bad input, a puzzle is an error (exit 3) when `failed` says why, else the
    command's answer with `engine`."""
    results = []
    done, said, solved = 0, "", 0
    if job.express is not None and engine is not None and not failed:
        done, said, solved = job.express(texts, job.settings)
    for k, text in enumerate(texts[done:], start + done + 1):
        entry = parse_entry(text, k, job.source, rules=job.rules)
        if entry is None:
            continue
        if entry.error:
            results.append(bad_result(job, entry))
        elif failed or engine is None or entry.puzzle is None:
            name = entry.puzzle.name if entry.puzzle is not None else None
            results.append(error_result(job, name, failed or "no engine"))
        else:
            if job.keep:            # each puzzle keeps its files in its own folder
                engine.keep = Path(job.keep) / f"line-{k}"
            results.append(job.handle(entry, engine, job.settings))
    chars, out, err, codes = _join(texts, results)
    return chars, said + out, err, [EXIT_SOLVED] * solved + codes


# Worker side: each process (or Dask worker) builds its own engine once per run, then turns
# runs of lines into one compact batch (few objects to send back, so the main process never
# becomes the bottleneck).
_WORKER: dict = {}


def init_worker(job: Job) -> None:
    """Set up one worker: the job, its own engine, and whether the engine runs here."""
    engine = api.get_engine(job.engine, keep=job.keep, options=job.options, check=False)
    avail = engine.available()
    missing = None
    if not avail.ok:
        from ..cluster import worker_name
        hint = avail.hint or engine.install_hint
        missing = (f"engine {engine.id!r} is unavailable on {worker_name()}: {avail.reason}"
                   + (f" (install: {hint})" if hint else ""))
    _WORKER.update(job=job, engine=engine, missing=missing)


def run_batch(start: int, texts: list[str]) -> Batch:
    """Return the batch of consecutive input lines (the first is line start + 1), in this
    worker, with its engine (or each puzzle an error, when the engine is missing here)."""
    return lines_batch(_WORKER["job"], start, texts, _WORKER["engine"], _WORKER["missing"])


def _join(texts: list[str], results: list[Result]) -> Batch:
    """Return the batch of some lines' results."""
    return (sum(map(len, texts)), "".join(r[0] for r in results),
            "".join(r[1] for r in results), [r[2] for r in results])


def source_size(puzzle: str) -> int | None:
    """Return the size of PUZZLE in characters when it is a file (for the progress bar)."""
    return os.path.getsize(puzzle) if os.path.isfile(puzzle) else None
