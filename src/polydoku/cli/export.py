"""`polydoku export`: write the artifact an outside tool reads, with a README of commands."""

from __future__ import annotations

import click

from ..engines.exports import EXPORTERS, export as do_export
from ..formats.read import read_puzzle
from ..rules import parse_rules
from ..errors import BadInput
from ..files import Output, links_in, write_file
from .app import cli
from .common import input_format_option, parse_options, puzzle_argument, rules_option


@cli.command()
@puzzle_argument
@rules_option
@input_format_option
@click.option("--to", "fmt", required=True, metavar="FORMAT",
              help="Export format (see the README: debian, conda, pypi, poetry, dimacs, …).")
@click.option("--out", "-O", "out", type=click.Path(file_okay=False),
              help="Folder to write (needed except for fpuzzles, sudokupad and iss, which print).")
@click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
              help="Exporter option (repeatable), e.g. -o encoding=tuned.")
@click.option("--solution", is_flag=True,
              help="fpuzzles/sudokupad: put the puzzle's solution (solved natively) in the link.")
def export(puzzle, rules, input_format, fmt, out, options, solution):
    """Write PUZZLE as FORMAT into folder --out, with a README of the commands to run by hand;
    `--to fpuzzles|sudokupad` prints a link that opens the puzzle in those apps, `--to iss`
    the Interactive Sudoku Solver's constraint string."""
    p = read_puzzle(puzzle, fmt=input_format, rules=parse_rules(rules))
    if fmt in ("fpuzzles", "sudokupad"):
        from .. import api
        from ..formats.fpuzzles import to_link
        grid = None
        if solution:
            outcome = api.solve(p)
            grid = outcome.solutions[0] if outcome.solutions else None
        link = to_link(p, fmt, grid)
        if out:
            _write_one(out, "link.txt", link)
        click.echo(link)
        return 0
    if fmt == "iss":
        from ..formats.iss import to_iss
        text = to_iss(p)
        if out:
            _write_one(out, "puzzle.iss.txt", text)
        click.echo(text)
        return 0
    if not out:
        raise click.UsageError(f"--to {fmt} needs --out FOLDER")
    with Output(out) as folder:
        symlink = next(links_in(folder), None)
        if symlink is not None:
            raise BadInput(f"--out {out}: holds a symbolic link ({symlink}); export into a new or "
                           "plain folder")
        written = do_export(p, fmt, folder, parse_options(options))
    names = sorted(str(path.relative_to(folder)) for path in written)
    shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
    click.echo(f"wrote {len(names)} files to {folder}: {shown}")
    return 0


def _write_one(out: str, name: str, line: str) -> None:
    """Write one line into file `name` of folder `out` (made when missing)."""
    with Output(out) as folder:
        write_file(folder / name, line + "\n")


export.help = (export.help or "") + f"\n\nFormats available: {', '.join([*EXPORTERS, 'fpuzzles', 'sudokupad', 'iss'])}."
