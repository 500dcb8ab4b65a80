"""`polydoku bench`: engines side by side on puzzle sets: a JSON result, a table and plots."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..batch import Progress
from ..benchmark import BenchSettings, run_bench, write_results
from ..benchmark.plots import draw_plots
from ..benchmark.summary import not_run_notes, summarize, table
from ..engines.registry import ENGINE_IDS
from ..errors import EXIT_ENGINE, EXIT_SOLVED
from ..files import Output
from .app import cli
from .common import seconds, stderr_is_terminal


def _specs(text: str) -> tuple[str, ...]:
    """Return the engine specs of a comma-separated list (`all`: every registered engine)."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    return tuple(dict.fromkeys(x for s in specs for x in (ENGINE_IDS if s == "all" else [s])))


@cli.command()
@click.argument("sets", nargs=-1, required=True, metavar="SET...")
@click.option("--engines", "-e", "engines", default="native", show_default=True,
              metavar="E1,E2,...", help="Engine specs (id or id+variant), or `all`.")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              help="Runs per puzzle and engine; times are medians.")
@click.option("--timeout", type=seconds(), default=60.0, show_default=True,
              help="Seconds allowed per run.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (more finish sooner but share the cores they time on).")
@click.option("--out", "-O", "out", default="bench-results", show_default=True,
              type=click.Path(file_okay=False), help="Folder for results.json and the plots.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many puzzles from each set.")
@click.option("--reference", default="native", show_default=True, metavar="ENGINE",
              help="The engine the ratios are to (it is run too).")
@click.option("--no-plots", is_flag=True, help="Skip the plots.")
@click.option("--dask", default=None, metavar="ADDRESS",
              help="Run on the Dask scheduler at ADDRESS (tcp://host:8786), or `local` to "
                   "start a local cluster of --jobs workers.")
def bench(sets, engines, repeat, timeout, jobs, out, limit, reference, no_plots, dask):
    """Run every engine on every puzzle of the SET files, side by side, every answer verified.

    Writes OUT/results.json (versioned: tool versions, machine, settings, per puzzle and engine
    status and times), prints a summary table, and draws OUT/times.{png,svg} and
    OUT/cactus.{png,svg}. Exit 0, or 3 when an engine gave a wrong answer.
    """
    jobs = min(jobs, os.cpu_count() or 1)        # more processes than cores skew the times
    settings = BenchSettings(tuple(sets), _specs(engines), repeat, timeout, jobs, limit,
                             reference.strip(), dask.strip() if dask else None)
    # The folder is made first (a wrong one fails before a long run), and removed again with
    # every file written into it when the run or the writing fails.
    with Output(out) as folder:
        with Progress(None, enabled=stderr_is_terminal(), label="bench", unit="runs") as bar:
            def progress(done: int, total: int) -> None:
                if done == 0:
                    bar.set_total(total)
                else:
                    bar.advance(1)
            results = run_bench(settings, progress)
        summary = summarize(results)
        results["summary"] = summary
        written = [write_results(results, folder / "results.json")]
        if not no_plots:
            written += draw_plots(results, folder)
    _show(results, summary, written)
    wrong = sum(row.get("wrong", 0) for row in summary.values())
    return EXIT_ENGINE if wrong else EXIT_SOLVED


def _show(results: dict, summary: dict, written: list[Path]) -> None:
    """Print the table, the engines that could not run, and the files written."""
    from rich.console import Console
    console = Console()
    if not console.is_terminal:
        console.width = 160       # a file or pipe gets the whole table, not 80 columns
    console.print(table(results, summary))
    for note in not_run_notes(summary):
        console.print(note, markup=False, highlight=False)
    console.print("wrote " + ", ".join(str(p) for p in written), markup=False, highlight=False)
