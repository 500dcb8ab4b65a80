"""The console entry point, and the express lane of `polydoku solve FILE --jobs 1`.

A file of classic puzzles, one per line (any size with rectangular boxes, 4x4 to 25x25, with
its usual boxes and symbols, `.` or `0` for a blank), is what batch users feed polydoku most,
and on it the Python model costs more than the search: reading a line, building its problem,
verifying and printing the answer take about 100 µs, the compiled search 17 µs on a 17-clue
puzzle, and click and the API take 90 ms to import. So `entry()` looks at the command line
before importing any of that. When it is exactly `solve FILE`, with `--jobs 1` (or `-j 1`)
or on a file of at most one block (256 KiB: more would go to every core), the compiled core
is built here (`POLYDOKU_NATIVE=python` asks for the pure-Python search: no express lane),
and the file's first lines are classic puzzle lines of one size (blank and `#` comment lines
allowed), the core's `solve_lines` reads, solves, checks and writes whole runs of lines in C,
the first solution of each, as the native engine would. The check there is its own code
(`classic_wrong`), not the search's: rows, columns, boxes and givens, from the two lines and
the box shape alone. `solve LINE`, one classic puzzle line given literally, is answered the
same way. One puzzle (a line, or a file of one) is also searched for a second solution (the
compiled search counting to two, within `UNIQUE_BUDGET`), as `solve` does with one puzzle.

The first line the express lane cannot answer itself (another format or size, a puzzle with no
solution, a timeout) and everything after it go to the full command (`app.main`), which reads
the file again from the start, skips the lines already answered (`Resume`) and goes on with
the same tally, so the output, messages, summary and exit code are the same as the full path
gives for the whole file (tests/test_express.py holds them equal).
"""

from __future__ import annotations

import os
import sys
import time

from ..errors import EXIT_SOLVED as SOLVED      # errors.py imports nothing

# (cells in a line) -> (size, box rows, box cols, symbols): every size with rectangular boxes,
# its default box shape and symbols (tests/test_express.py holds this to Geometry.of_size and
# default_alphabet); letters may come in lower case, as the reader takes them.
_BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3), 10: (2, 5), 12: (3, 4), 14: (2, 7),
          15: (3, 5), 16: (4, 4), 18: (3, 6), 20: (4, 5), 21: (3, 7), 22: (2, 11), 24: (4, 6),
          25: (5, 5)}
CLASSIC = {n * n: (n, r, c, b"123456789ABCDEFGHIJKLMNOP"[:n]) for n, (r, c) in _BOXES.items()}
HEAD_LINES = 27          # as many lines as the reader peeks to tell one grid from many lines
BLOCK = 1 << 18          # bytes read and solved at a time
DEFAULT_TIMEOUT = 120.0  # seconds per puzzle: `solve --timeout`'s default
UNIQUE_BUDGET = 2.0      # api.UNIQUE_BUDGET (this module imports no more than it must)

# Tally tags beyond the exit codes: a puzzle solved (exit 0) whose second solution was found,
# or whose uniqueness was not settled; a run's closing summary counts them apart.
SEVERAL = 0x100
UNCHECKED = 0x200
NOT_CHECKED = "uniqueness not checked (--check-unique checks it)"


def exit_of(tag: int) -> int:
    """Return the exit code of a tally tag (an exit code is its own tag)."""
    return tag & 0xFF


def not_unique_words(where: str, engine: str) -> str:
    """Return the stderr line of a puzzle solved with a second solution found."""
    return (f"polydoku: {where}not unique: {engine} found a second solution "
            f"(polydoku solve --count --format grid shows two and where they differ)\n")


def unchecked_words(where: str, reason: str) -> str:
    """Return the stderr line of a puzzle solved whose uniqueness was not settled."""
    return f"polydoku: {where}uniqueness not checked: {reason}\n"


def budget_words(budget: float) -> str:
    """Return why a search for a second solution stopped: its budget ran out."""
    return f"no second solution ruled out within {budget:g} s (polydoku check-unique decides)"


class Resume:
    """What the express lane did before it handed a file over: the lines it answered (1..lines),
    their characters, each exit code's count, and when it started (time.perf_counter). (A
    plain class: dataclasses would cost the express lane milliseconds to import.)"""

    __slots__ = ("lines", "chars", "tally", "start")

    def __init__(self, lines: int, chars: int, tally: dict[int, int], start: float):
        self.lines, self.chars, self.tally, self.start = lines, chars, tally, start


_resume: Resume | None = None


def take_resume() -> Resume | None:
    """Return (once) what the express lane answered before handing its file to the full path."""
    global _resume
    out, _resume = _resume, None
    return out


def summary_line(tally: dict[int, int], seconds: float,
                 names: tuple[tuple[int, str], ...], note: str = "") -> str | None:
    """Return the closing line of a run over many puzzles (None for one puzzle or none),
    with a note after its counts (`solve` says whether it checked uniqueness)."""
    done = sum(tally.values())
    if done <= 1:
        return None
    counts = ", ".join(f"{tally[k]:,} {name}" for k, name in names if tally.get(k))
    return (f"polydoku: {done:,} puzzles in {seconds:.2f} s "
            f"({done / max(seconds, 1e-9):,.0f}/s): {counts}{'; ' + note if note else ''}")


def plain_solve(argv: list[str]) -> tuple[str, bool, bool] | None:
    """Return (FILE, whether --jobs 1 was given, whether --no-check-unique was) when the
    arguments are exactly `solve FILE` and at most `--jobs 1` (in any order, as `-j 1`, `-j1`
    or `--jobs=1`) and `--no-check-unique`, and FILE is a regular file or one classic puzzle
    line given literally; else None."""
    if not argv or argv[0] != "solve":
        return None
    path, jobs, k, skip = None, None, 1, False
    while k < len(argv):
        arg = argv[k]
        if arg in ("--jobs", "-j") and k + 1 < len(argv):
            jobs, k = argv[k + 1], k + 2
            continue
        if arg.startswith("--jobs="):
            jobs = arg[7:]
        elif arg.startswith("-j") and len(arg) > 2:
            jobs = arg[2:]
        elif arg == "--no-check-unique":
            skip = True
        elif arg.startswith("-") or path is not None:
            return None
        else:
            path = arg
        k += 1
    if jobs is not None and jobs.strip() != "1" or path is None or not (
            os.path.isfile(path) or _is_literal(path)):
        return None
    return path, jobs is not None, skip


def _is_literal(text: str) -> bool:
    """Return whether an argument is one classic puzzle line given literally (no such file)."""
    return "\n" not in text and _plain_head(text.encode("utf-8", "replace")) is not None \
        and not os.path.exists(text)


def _core_for(cells: int):
    """Return (core, box rows, box cols, symbols) for lines of `cells` symbols, None when the
    compiled core is not built here or not wanted (`POLYDOKU_NATIVE=python`, or
    `POLYDOKU_EXPRESS=off`: every line through the Python model, the reference the tests and
    the benchmark compare with)."""
    if os.environ.get("POLYDOKU_NATIVE", "").lower() == "python" \
            or os.environ.get("POLYDOKU_EXPRESS", "").lower() in ("off", "0", "no"):
        return None
    try:
        from .. import _core
    except ImportError:
        return None
    from ..units import classic_core_args
    size, rows, cols, symbols = CLASSIC[cells]
    return _core.Core(*classic_core_args(size, rows, cols)), rows, cols, symbols


_built: dict[int, tuple | None] = {}


def answer_lines(texts: list[str], timeout: float) -> tuple[int, str, int]:
    """Answer in C the leading classic puzzle lines of a run of input lines (each with its
    newline, as the reader gives them), for `solve` on a worker (or with options the console
    lane does not take): return how many lines were done, what they print, and how many
    puzzles they held. The lines from there on are the caller's."""
    cells = next((len(t.rstrip("\r\n")) for t in texts if t.strip() and t[0] != "#"), 0)
    if cells not in CLASSIC:
        return 0, "", 0
    if cells not in _built:
        _built[cells] = _core_for(cells)
    built = _built[cells]
    if built is None:
        return 0, "", 0
    core, rows, cols, symbols = built
    out, _, lines, answered = core.solve_lines("".join(texts).encode(), symbols, rows, cols,
                                               timeout)
    return lines, out.decode(), answered


def _plain_head(head: bytes) -> int | None:
    """Return the cells per line when the first lines of a file (all of it when short) are
    classic puzzle lines of one size, blank lines and `#` comments; else None."""
    lines = head.split(b"\n", HEAD_LINES)[:HEAD_LINES]
    bodies = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    puzzles = [b for b in bodies if b and not b.startswith(b"#")]
    widths = {len(b) for b in puzzles}
    if len(widths) != 1:
        return None
    cells = widths.pop()
    if cells not in CLASSIC:
        return None
    symbols = CLASSIC[cells][3]
    allowed = set(symbols) | set(symbols.lower()) | set(b".0")
    return cells if all(set(b) <= allowed for b in puzzles) else None


def run(argv: list[str]) -> int | None:
    """Answer `solve FILE` on a file of classic puzzle lines (with --jobs 1, or of one block at
    most: more would go to every core) and return the exit code; None when the command is not
    that, or the file does not start with such lines (nothing was printed: the full command
    runs)."""
    global _resume
    asked = plain_solve(argv)
    if asked is None:
        return None
    path, one_job, skip_check = asked
    if not os.path.isfile(path):
        return _answer_literal(path.encode(), skip_check)
    try:
        handle = open(path, "rb")
    except OSError:
        return None
    with handle:
        size = os.fstat(handle.fileno()).st_size
        if not one_job and size > BLOCK:
            return None
        data = handle.read(BLOCK)
        cells = _plain_head(data)
        built = _core_for(cells) if cells else None
        if built is None:
            return None
        core, rows, cols, symbols = built
        from ..stops import install_main_handlers
        install_main_handlers()         # SIGTERM and SIGHUP stop it as Ctrl-C does
        bar = _progress(size)
        start = time.perf_counter()
        lines = chars = answered = 0
        out = sys.stdout.buffer
        try:
            while data:
                more = handle.read(BLOCK)
                cut = len(data) if not more else data.rfind(b"\n") + 1
                if cut == 0:                # a line longer than a block: the full path
                    break
                text, used, done, solved = core.solve_lines(data[:cut], symbols, rows, cols,
                                                            DEFAULT_TIMEOUT)
                if text:
                    out.write(text)
                lines, chars, answered = lines + done, chars + used, answered + solved
                if bar is not None:
                    bar.advance(used, items=solved)
                if used < cut:
                    break
                data = data[cut:] + more
            out.flush()
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        if data:                            # a line the full path must answer, and the rest
            if not answered:
                return None
            _resume = Resume(lines, chars, {SOLVED: answered}, start)
            return None
        line = summary_line({SOLVED: answered}, time.perf_counter() - start,
                            ((SOLVED, "solved"),), NOT_CHECKED)
        if line:
            sys.stderr.write(line + "\n")
        elif answered == 1 and not skip_check:      # a file of one puzzle
            _check_one(core, path, symbols)
        return SOLVED


def _answer_literal(line: bytes, skip_check: bool) -> int | None:
    """Answer `solve LINE`, one classic puzzle given literally, as the full command would, and
    return the exit code; None when the puzzle has no solution or timed out (nothing was
    printed: the full command runs and says so)."""
    built = _core_for(len(line))
    if built is None:
        return None
    core, rows, cols, symbols = built
    from ..stops import install_main_handlers
    install_main_handlers()
    out, _, _, solved = core.solve_lines(line + b"\n", symbols, rows, cols, DEFAULT_TIMEOUT)
    if solved != 1:
        return None
    sys.stdout.buffer.write(out)
    sys.stdout.flush()
    if not skip_check:
        _check_line(core, line, symbols)
    return SOLVED


def _check_one(core, path: str, symbols: bytes) -> None:
    """Look for a second solution of a file's one classic puzzle (as `_check_line`)."""
    with open(path, "rb") as handle:
        data = handle.read(BLOCK)
    _check_line(core, next(b for b in (ln.rstrip(b"\r") for ln in data.split(b"\n"))
                           if b and not b.startswith(b"#")), symbols)


def _check_line(core, body: bytes, symbols: bytes) -> None:
    """Look for a second solution of one classic puzzle line, within the budget, and say on
    stderr when there is one or when the budget ran out (the full path says the same)."""
    value = {ch: k + 1 for k, ch in enumerate(symbols)}
    value.update({ch: k + 1 for k, ch in enumerate(symbols.lower())})
    givens = [(i, value[ch]) for i, ch in enumerate(body) if ch in value]
    _, found, _, _, timed_out = core.search(givens, 2, 0, time.monotonic() + UNIQUE_BUDGET)
    if found >= 2:
        sys.stderr.write(not_unique_words("", "native"))
    elif timed_out:
        sys.stderr.write(unchecked_words("", budget_words(UNIQUE_BUDGET)))


def _progress(total: int):
    """Return a started progress bar on a terminal (the full path draws the same), else None."""
    if not sys.stderr.isatty():
        return None
    from ..batch import Progress
    return Progress(total, enabled=True).__enter__()


def entry() -> None:
    """Console-script entry point: the express lane when it applies, else the full command."""
    argv = sys.argv[1:]
    try:
        code = run(argv)
    except KeyboardInterrupt:
        sys.stderr.write("polydoku: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        from .app import _reader_left
        sys.exit(_reader_left())
    if code is not None:
        sys.exit(code)
    from .app import main
    sys.exit(main(argv))
