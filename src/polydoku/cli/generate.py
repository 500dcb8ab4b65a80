"""`polydoku generate`: new puzzles with one solution, by level, symmetry, size and rules.

The making is `polydoku.generator`'s; this module parses the request, spreads the puzzles over
--jobs processes (puzzle k is the same on any number of them), prints each one as soon as it
and those before it are made, and keeps going past a puzzle that gave up (exit 4 at the end).
"""

from __future__ import annotations

import secrets
import sys
from dataclasses import dataclass
from functools import partial
from typing import Iterator

import click

from ..batch import Progress, run_map
from ..jobs import default_jobs
from ..errors import EXIT_BAD_INPUT, EXIT_SOLVED, EXIT_UNKNOWN, BadInput, PolydokuError
from ..formats.grid import write_grid
from ..formats.jsonfmt import puzzle_to_dict
from ..formats.line import write_line
from ..generator import (QQWING_LEVELS, SYMMETRIES, Generator, GaveUp, Made, Request,
                         clue_kinds)
from ..model import Geometry
from ..rules import parse_rules
from ..reasoning.logic import LEVELS
from ..text import shorten
from .app import cli
from .common import ExitCode, json_alias, json_line, seconds, stderr_is_terminal

FORMATS = ("auto", "line", "grid", "json", "specs", "ksudoku", "fpuzzles", "sudokupad")
LEVEL_NAMES = {lv.lower(): lv for lv in LEVELS}
MAX_COUNT = 1_000_000
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Output:
    """How each made puzzle is printed."""

    fmt: str
    solution: bool


def parse_box(text: str | None, size: int) -> Geometry:
    """Return the geometry of --size and --box RxC (or `none`: a latin square)."""
    if text is None:
        return Geometry.of_size(size)
    if text.strip().lower() == "none":
        return Geometry.irregular(size, [])
    rows, sep, cols = text.lower().partition("x")
    if not sep or not rows.strip().isdigit() or not cols.strip().isdigit():
        raise BadInput(f"--box {shorten(text)!r}: expected ROWSxCOLS (for example 2x3) or none")
    if max(len(rows.strip()), len(cols.strip())) > 2:
        raise BadInput(f"--box {shorten(text)!r}: a box side over 25, the largest grid size")
    return Geometry(size, int(rows), int(cols))


def level_of(text: str | None) -> str | None:
    """Return polydoku's level for a --level name.

    polydoku's own names are capitalised (Easy); qqwing's are lower case (easy), as qqwing
    writes them, optionally prefixed `qqwing:`. The one name both use, easy, is polydoku's
    Easy when capitalised and qqwing's easy (polydoku's Medium) in lower case; a qqwing name
    is said on stderr with the level it stands for."""
    if text is None:
        return None
    name = text.strip()
    if name in LEVELS:
        return name
    alias = name[len("qqwing:"):] if name.lower().startswith("qqwing:") else name
    if alias in QQWING_LEVELS:
        click.echo(f"polydoku: level {alias!r} is qqwing's: polydoku's "
                   f"{QQWING_LEVELS[alias]}", err=True)
        return QQWING_LEVELS[alias]
    if name.lower() == "easy":
        raise BadInput(f"level {text!r}: write Easy (polydoku's) or easy (qqwing's, "
                       f"polydoku's Medium)")
    level = LEVEL_NAMES.get(name.lower())
    if level is None:
        raise BadInput(f"unknown level {text!r}: expected one of {', '.join(LEVELS)} "
                       f"(or qqwing's {', '.join(QQWING_LEVELS)})")
    return level


def difficulty_of(text: str | None) -> tuple[float, float] | None:
    """Return the range a --difficulty names: `LO-HI`, or one number N for N.0-N.9."""
    if text is None:
        return None
    low, sep, high = text.strip().partition("-")
    try:
        bounds = (float(low), float(high)) if sep else (float(low), float(low) + 0.9)
    except ValueError:
        raise BadInput(f"--difficulty {text[:20]!r}: write a range such as 2.0-4.5, or one "
                       f"number such as 7") from None
    if not sep and float(low) != int(float(low)):
        bounds = (float(low), float(low))
    return bounds


@cli.command()
@click.option("--count", "-n", type=click.IntRange(1, MAX_COUNT), default=1, show_default=True,
              help="How many puzzles.")
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=None,
              help="The same seed gives the same puzzles, on any machine and any --jobs "
                   "(default: a random one, printed on stderr).")
@click.option("--level", "-l", default=None, metavar="LEVEL",
              help=f"{'|'.join(LEVELS)} (polydoku's rating levels, capitalised), or "
                   f"qqwing's {'|'.join(QQWING_LEVELS)} (lower case) for Easy..Unfair: "
                   f"easy is qqwing's, polydoku's Medium. Default: any.")
@click.option("--difficulty", "-d", default=None, metavar="LO-HI",
              help="Keep only puzzles whose difficulty (rate's number, Sudoku Explainer's "
                   "scale: 1.0-11+) lies in LO-HI, e.g. 2.0-4.5 or 7 (7.0-7.9); variants "
                   "too. Default: any.")
@click.option("--symmetry", type=click.Choice(SYMMETRIES), default="none", show_default=True,
              help="How the givens sit: rotational (180°), rotational90, mirror (left-right), "
                   "diagonal (about the main diagonal).")
@click.option("--minimal", is_flag=True,
              help="No given (no pair or group of them, with --symmetry) can be removed with "
                   "the puzzle keeping one solution.")
@click.option("--givens", type=click.IntRange(0, 625), default=None, metavar="N",
              help="Aim at N givens (stop removing there; said on stderr when a grid "
                   "cannot get that low).")
@click.option("--size", type=click.IntRange(4, 25), default=9, show_default=True,
              help="Grid size N (N×N).")
@click.option("--box", default=None, metavar="RxC",
              help="Box shape, rows x columns (default: the most square one for --size), "
                   "or none for no boxes.")
@click.option("--jigsaw", is_flag=True, help="Irregular regions, drawn at random per puzzle.")
@click.option("--rules", "-r", default="", metavar="RULES",
              help="Global variant rules, comma-separated (anti-knight, non-consecutive, "
                   "diagonal, disjoint-groups, windoku, ...).")
@click.option("--clues", default="", metavar="KINDS",
              help=f"Clue rules read off the solution grid, comma-separated: "
                   f"{', '.join(clue_kinds())}. The puzzle then needs fewer givens.")
@click.option("--format", "-f", "fmt", type=click.Choice(FORMATS), default="auto",
              show_default=True,
              help="auto: one line per puzzle, JSON lines (with the rating) when the puzzle "
                   "has rules or regions a line cannot hold.")
@click.option("--solution", is_flag=True, help="Also print each puzzle's solution (line, "
              "grid: after it; json: a field).")
@click.option("--timeout", type=seconds(0.1), default=None,
              help="Seconds allowed per puzzle; one that runs out is reported on stderr "
                   "(exit 4) and the others still made. Default: no limit.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes (default: every core when --count is more than 1); with "
                   "--dask local, its workers.")
@click.option("--dask", default=None, metavar="ADDRESS",
              help="Make the puzzles on the Dask scheduler at ADDRESS (tcp://host:8786), or "
                   "`local` to start a local cluster of --jobs workers; printed in order.")
@json_alias
def generate(count, seed, level, difficulty, symmetry, minimal, givens, size, box, jigsaw, rules, clues,
             fmt, solution, timeout, jobs, dask):
    """Make new puzzles with exactly one solution, rated by polydoku's logic, at the
    --level asked. Each is proved unique while it is dug (by PySAT's CaDiCaL or the native
    engine) and checked again before it is printed: by the other one where python-sat is
    installed, else by a second native search.

    Each puzzle is printed as soon as it is made, in order; Ctrl-C stops and keeps what was
    printed (exit 130).

    Exit codes: 0 every puzzle made, 2 an impossible request (a symmetry that cannot meet
    --givens, rules that leave no grid, an unknown level), 4 some puzzle ran out of --timeout
    (or, with --difficulty and no --timeout, no puzzle in range came of 200 grids).
    """
    if jigsaw and box is not None:
        raise BadInput("--jigsaw draws its own regions: leave out --box")
    geometry = parse_box(box, size)
    clue_names = tuple(k.strip().lower() for k in clues.split(",") if k.strip())
    drawn = seed is None
    if drawn:
        seed = secrets.randbelow(2**32)
    request = Request(geometry, tuple(parse_rules(rules)), level_of(level), symmetry, minimal,
                      givens, clue_names, jigsaw, seed, timeout, difficulty_of(difficulty))
    Generator(request)                       # an impossible request is refused before any work
    if drawn:                                # said once the request stands: bad input is one line
        click.echo(f"polydoku: seed {seed}", err=True)
    if fmt == "auto":
        fmt = "line" if not request.rules and not clue_names and not jigsaw else "json"
    elif fmt in ("line", "grid") and (request.rules or clue_names or jigsaw):
        raise BadInput(f"--format {fmt} cannot hold rules or regions: use --format json "
                       f"(or specs, ksudoku, fpuzzles)")
    output = Output(fmt, solution)
    n_jobs = 1 if count == 1 and not dask else min(jobs or default_jobs(), count)
    code = ExitCode()
    task = partial(_make_chunk, request, output)
    results: Iterator[tuple[int, tuple[str, str, int]]]
    if n_jobs == 1 and not dask:
        results = ((k, task([k])[0]) for k in range(count))
    else:
        results = run_map(task, range(count), jobs=n_jobs, dask=dask.strip() if dask else None,
                          preload=(__name__,), on_lost=partial(_lost, output))
    with Progress(count, enabled=count > 1 and stderr_is_terminal(), label="generating") as bar:
        for _, (out, err, exit_code) in results:
            if out:
                click.echo(out, nl=False)
                sys.stdout.flush()
            if err:
                if bar.enabled:
                    bar.note(err.rstrip("\n"))
                else:
                    click.echo(err, nl=False, err=True)
            code.add(exit_code)
            bar.advance()
    return code.code


_GENERATORS: dict[Request, Generator] = {}


def _make_chunk(request: Request, output: Output, numbers: list[int]
                ) -> list[tuple[str, str, int]]:
    """Return (stdout text, stderr text, exit code) for each numbered puzzle of a request."""
    gen = _GENERATORS.get(request)
    if gen is None:
        _GENERATORS.clear()
        gen = _GENERATORS[request] = Generator(request)
    out = []
    for k in numbers:
        try:
            made = gen.make(k)
        except GaveUp as err:
            out.append(("", f"polydoku: puzzle {k + 1}: gave up: {err}\n", EXIT_UNKNOWN))
            continue
        except BadInput as err:
            out.append(("", f"polydoku: {err}\n", EXIT_BAD_INPUT))
            continue
        except PolydokuError as err:
            out.append(("", f"polydoku: puzzle {k + 1}: {err}\n", err.exit_code))
            continue
        notes = "".join(f"polydoku: puzzle {k + 1}: {note}\n" for note in made.notes)
        out.append((render(made, output, request, k), notes, EXIT_SOLVED))
    return out


def _lost(output: Output, numbers: list[int], error: BaseException
          ) -> list[tuple[str, str, int]]:
    """Return what puzzles the workers lost print: an error line each (exit 3)."""
    from ..batch import lost_reason
    from ..errors import EXIT_ENGINE
    from ..text import one_line
    return [("", f"polydoku: puzzle {k + 1}: {one_line(lost_reason(error))}\n",
             EXIT_ENGINE) for k in numbers]


def render(made: Made, output: Output, request: Request, k: int) -> str:
    """Return one made puzzle in the output format (ending with a newline)."""
    p, fmt = made.puzzle, output.fmt
    if fmt == "line":
        text = write_line(p) + "\n"
        return text + (write_line(p, made.solution) + "\n" if output.solution else "")
    if fmt == "grid":
        text = write_grid(p) + "\n"
        return text + (write_grid(p, made.solution) + "\n" if output.solution else "") + "\n"
    if fmt == "json":
        data = puzzle_to_dict(p)
        data.update(number=k + 1, seed=request.seed,
                    givens_count=sum(1 for v in p.givens if v),
                    rating=made.rating.to_json() if made.rating else None,
                    minimal=made.minimal, unique=True)
        if output.solution:
            data["solution"] = write_line(p, made.solution)
        return json_line(data)
    if fmt == "specs":
        from ..formats.specs import write_specs
        return write_specs(p).rstrip("\n") + "\n\n"
    if fmt == "ksudoku":
        from ..formats.ksudoku import write_ksudoku
        return write_ksudoku(p, made.solution if output.solution else None).rstrip("\n") + "\n"
    from ..formats.fpuzzles import to_link
    return to_link(p, fmt, made.solution if output.solution else None) + "\n"
