"""`polydoku export`: write the artifact an outside tool reads, with a README of commands."""

from __future__ import annotations

from pathlib import Path

import click

from ..engines.exports import EXPORTERS, export as do_export
from ..formats.read import read_puzzle
from ..model import parse_rules
from .app import cli
from .common import input_format_option, parse_options, puzzle_argument, rules_option


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@click.option("--to", "fmt", required=True, metavar="FORMAT",
              help="Export format (see the README: debian, conda, pypi, poetry, dimacs, …).")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), help="Folder to write.")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Exporter option (repeatable), e.g. -o encoding=tuned.")
def export(puzzle, rules, input_format, fmt, out, options):
    """Write PUZZLE as FORMAT into folder --out, with a README of the commands to run by hand."""
    p = read_puzzle(puzzle, fmt=input_format, rules=parse_rules(rules))
    written = do_export(p, fmt, Path(out), parse_options(options))
    for path in written:
        click.echo(str(path))
    return 0


export.help += f"\n\nFormats available: {', '.join(EXPORTERS) or 'none yet'}."
