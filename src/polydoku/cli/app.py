"""The click group and `main()`, which turns every error into one stderr line and an exit code."""

from __future__ import annotations

import signal
import sys
import traceback

import click

from .. import __version__
from ..errors import EXIT_BAD_INPUT, EXIT_ENGINE, PolydokuError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="polydoku")
def cli() -> None:
    """polydoku: one Sudoku model, many engines (native, SAT, CP, package managers), every answer verified."""


def main(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code (never shows a traceback unless POLYDOKU_DEBUG is set)."""
    from ..api import debug_enabled
    # A terminated polydoku unwinds like an interrupted one, so every sandbox still running
    # kills its tool and removes its folder on the way out.
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _terminate)
    try:
        result = cli.main(args=argv, prog_name="polydoku", standalone_mode=False)
        return int(result or 0)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("polydoku: aborted", err=True)
        return 130
    except click.ClickException as exc:
        click.echo(f"polydoku: {exc.format_message()}", err=True)
        return EXIT_BAD_INPUT if isinstance(exc, click.UsageError) else exc.exit_code
    except PolydokuError as exc:
        click.echo(f"polydoku: {exc}", err=True)
        return exc.exit_code
    except KeyboardInterrupt:
        click.echo("polydoku: interrupted", err=True)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # the last seam: one line, never a traceback by default
        if debug_enabled():
            traceback.print_exc()
        click.echo(f"polydoku: internal error: {type(exc).__name__}: {exc} "
                   f"(set POLYDOKU_DEBUG=1 for details)", err=True)
        return EXIT_ENGINE


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
