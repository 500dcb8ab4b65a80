"""The click group and `main()`, which turns every error into one stderr line and an exit code."""

from __future__ import annotations

import os
import sys

import click
from click.exceptions import NoArgsIsHelpError

from .. import __version__
from ..batch import install_stop_handlers
from ..errors import EXIT_BAD_INPUT, EXIT_ENGINE, PolydokuError
from ..text import one_line


HELPERS = ("app", "common", "express", "logic_options", "many")  # modules that hold no command


# Each command's summary, as `polydoku --help` lists it without importing every command (a
# test holds each to the first sentence of its command's own help).
SUMMARIES = {
    'bench': 'Run every engine on every puzzle of the SET files, side by side, every answer verified.',
    'candidates': "Show PUZZLE's true candidates: for each cell, the values that appear in at least one solution (with --at-least K, in at least K solutions), found without enumerating every solution: each solution found witnesses all its values at once.",
    'check': 'Check that GRID is complete and breaks no rule: exit 0 valid, 1 invalid, 2 bad input.',
    'check-unique': 'Answer whether PUZZLE (or each puzzle of a file) has exactly one solution: `yes`, or `no` with the reason (no solution, or two solutions and the cells where they differ).',
    'engines': 'List the engines, whether each runs here, and how to install the missing ones (an engine whose tool runs only as root says so to other users).',
    'explain': 'Explain why PUZZLE has no solution: a minimal set of givens that already has none (remove any one and the rest can be solved).',
    'export': "Write PUZZLE as FORMAT into folder --out, with a README of the commands to run by hand; `--to fpuzzles|sudokupad` prints a link that opens the puzzle in those apps, `--to iss` the Interactive Sudoku Solver's constraint string.",
    'generate': "Make new puzzles with exactly one solution, rated by polydoku's logic, at the --level asked.",
    'hint': 'Show the next move for PUZZLE: the easiest named technique that makes progress, told as much as --level asks (a nudge, the technique, its cells, or the answer).',
    'rate': "Rate every puzzle of PUZZLE (a file of one puzzle per line, a literal, or -) with polydoku's logic: level (Easy..Extreme), score, difficulty (Sudoku Explainer's scale, 1.0 to 11; for classic puzzles computed as it does), hardest technique, givens, unique.",
    'render': 'Draw PUZZLE (its first puzzle, for a file of many) as an SVG or PNG picture.',
    'serve': 'Serve a web page to enter, paste, solve, check and explain puzzles, and its JSON API under /api/, on this machine until Ctrl-C.',
    'solve': 'Solve PUZZLE (a literal, a file of one or many puzzles, or - for stdin).',
    'steps': 'Solve PUZZLE step by step with named techniques, as a person would, and rate it.',
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use: each module registers its command on
    `cli` when imported (`@cli.command()`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUMMARIES)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands and their summaries (from SUMMARIES: nothing is imported)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        with formatter.section("Commands"):
            formatter.write_dl([(n, click.Command(n, help=SUMMARIES[n]).get_short_help_str(limit))
                                for n in names])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = name.replace("-", "_")
        if name not in self.commands and module.isidentifier() and not module.startswith("_") \
                and module not in HELPERS:
            import importlib
            try:
                importlib.import_module(f"{__package__}.{module}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{__package__}.{module}":
                    raise
        return self.commands.get(name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="polydoku")
def cli() -> None:
    """polydoku: one Sudoku model, many engines (native, SAT, CP, package managers), every answer verified."""


SHORT_USAGE = """usage: polydoku COMMAND PUZZLE [OPTIONS]

  polydoku solve PUZZLE          solve (a literal, a file of many, - for stdin, a link)
  polydoku explain PUZZLE        why it has no solution, or --why r1c6=4
  polydoku hint PUZZLE           the next logical move
  polydoku engines               what runs here

polydoku --help lists every command; polydoku COMMAND --help tells one."""


def main(argv: list[str] | None = None, answered: object = None) -> int:
    """Run the CLI and return its exit code (never shows a traceback unless POLYDOKU_DEBUG is
    set); `answered` is what the express lane answered first, given to the command as click's
    context object."""
    from ..errors import debug_enabled
    # A terminated polydoku unwinds like an interrupted one, so every sandbox still running
    # kills its tool and removes its folder on the way out.
    install_stop_handlers()
    stdout = sys.stdout
    try:
        result = cli.main(args=argv, prog_name="polydoku", standalone_mode=False, obj=answered)
        return int(result or 0)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("polydoku: aborted", err=True)
        return 130
    except click.ClickException as exc:
        if isinstance(exc, NoArgsIsHelpError) or (
                isinstance(exc, click.UsageError) and "\n" in exc.format_message()):
            click.echo(SHORT_USAGE, err=True)         # `polydoku` alone: a short usage
            return EXIT_BAD_INPUT
        click.echo(f"polydoku: {one_line(exc.format_message())}", err=True)
        return EXIT_BAD_INPUT if isinstance(exc, click.UsageError) else exc.exit_code
    except PolydokuError as exc:
        click.echo(f"polydoku: {one_line(str(exc))}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("polydoku: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return _reader_left()
    except SystemExit as exc:
        # click answers a closed pipe (`polydoku solve FILE | head -1`) with exit 1; the reader
        # has what it wanted, which is no failure
        if sys.stdout is not stdout:        # click wraps standard output when the pipe closed
            return _reader_left()
        return exc.code if isinstance(exc.code, int) else EXIT_ENGINE
    except Exception as exc:  # the last seam: one line, never a traceback by default
        if _interrupted_in_c(exc):
            click.echo("polydoku: interrupted", err=True)
            return 130
        if debug_enabled():
            import traceback
            traceback.print_exc()
        click.echo(f"polydoku: internal error: {type(exc).__name__}: {one_line(str(exc))} "
                   f"(set POLYDOKU_DEBUG=1 for details)", err=True)
        return EXIT_ENGINE


def _interrupted_in_c(exc: Exception) -> bool:
    """Return whether `exc` is Ctrl-C caught inside a compiled solver: PySAT's solvers turn the
    SIGINT that arrives while they search into their own error, not a KeyboardInterrupt."""
    return (type(exc).__module__ == "pysolvers"
            and "keyboard interrupt" in str(exc).lower())


def _reader_left() -> int:
    """Point standard output at /dev/null (so that nothing fails at exit) and return 0."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return 0


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
