"""The console entry point, and the express lane: classic puzzles answered in C, before click
and the Python model are imported.

Classic puzzles (any size with rectangular boxes, 4x4 to 25x25, with their usual boxes and
symbols, `.` or `0` for a blank) are what users feed polydoku most, one at a time or a file
of many, and on them the Python model costs more than the search: reading a line, building
its problem, verifying and printing the answer take about 100 µs, the compiled search 17 µs on
a 17-clue puzzle, and click and the API take tens of milliseconds to import. So `entry()`
reads the command line first (`plain_args`: every spelling of the same job, options named
long or short, joined or apart, `--engine native`, `--format line`, `--jobs N`, `--timeout S`,
`--no-check-unique`, a table the tests hold to the click commands), and answers here:

- `solve FILE` or `solve -`: when its first lines are classic puzzle lines of one size (blank
  and `#` comment lines allowed), the core's `solve_lines` reads, solves, checks and writes
  whole runs of lines in C, the first solution of each, as the native engine would, in this
  one process (a worker process costs more to start than the lines it would take; only a file
  over `PARALLEL_FROM` with `--jobs N` > 1 is shared by N processes, each answering its runs
  in C). A source of one puzzle is also searched for a second solution (the compiled search
  counting to two, within `UNIQUE_BUDGET`), as `solve` does with one puzzle.
- `solve LINE` and `check-unique LINE`, one classic line given as the argument: its solution
  (and the search for a second one), or `yes` when the search proves it unique.

The check is its own code (`classic_wrong`), not the search's: rows, columns, boxes and
givens, from the two lines and the box shape alone. `POLYDOKU_NATIVE=python` asks for the
pure-Python search and `POLYDOKU_EXPRESS=off` for the full command: no express lane.

Whatever the lane cannot answer itself (another format or size, a puzzle with no solution or
not unique for check-unique, a timeout, an option it does not read) goes to the full command
(`app.main`): a file it reads again from the start, skipping the lines already answered
(`Resume`); standard input it reads again as the lane read it (`_give_back`); and it goes on
with the same tally, so the output, messages, summary and exit code are the same as the full
path gives for the whole source (tests/test_express.py holds them equal).
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
PARALLEL_FROM = 8 * BLOCK  # a file this large with --jobs N > 1 is shared by N processes
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


def carried() -> Resume | None:
    """Return what the express lane answered before it handed this command's source over (the
    full command is run with it as click's context object), or None."""
    import click
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return obj if isinstance(obj, Resume) else None


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


# The options the lane reads, for `solve` and `check-unique`, each as the full command
# declares it (tests/test_express.py holds this table to the click commands): those that take
# a value, and the only values with which the lane can answer as the full command would (None:
# any value the lane checks itself); the flags it reads; anything else goes to the full command.
_VALUES = {"--engine": "engine", "-e": "engine", "--format": "format", "-f": "format",
           "--input-format": "input", "--jobs": "jobs", "-j": "jobs", "--timeout": "timeout",
           "--chunk": "chunk"}
_TAKES: dict[str, tuple[str, ...] | None] = {
    "engine": ("native",), "format": ("line",), "input": ("auto", "line", "lines"), "jobs": None,
    "timeout": None, "chunk": None}
_FLAGS = {"--check-unique": True, "--no-check-unique": False}
_COMMANDS = {"solve": frozenset(_TAKES), "check-unique": frozenset(_TAKES) - {"format"}}
MAX_SECONDS = 7 * 24 * 3600.0      # a week: a longer --timeout is refused (here and in click)


class Asked:
    """A command the lane can answer: `solve` or `check-unique`, the source (a file, `-` or a
    literal line), the timeout, the uniqueness check asked (None: the command's default) and
    the input format named (`line`: one puzzle, `lines`: one per line, `auto`)."""

    __slots__ = ("command", "source", "timeout", "check", "input", "jobs")

    def __init__(self, command: str, source: str, timeout: float, check: bool | None,
                 input: str = "auto", jobs: int = 1):
        self.command, self.source, self.timeout, self.check = command, source, timeout, check
        self.input, self.jobs = input, jobs


def _number(text: str, what: str) -> float | None:
    """Return an option's value as the full command takes it (None: leave it to that one)."""
    try:
        value = float(text) if what == "timeout" else int(text)
    except ValueError:
        return None
    if what == "timeout":
        return value if 0.001 <= value <= MAX_SECONDS else None
    return value if value >= 1 else None


def plain_args(argv: list[str]) -> Asked | None:
    """Return the command when the arguments are `solve` or `check-unique` of one source with
    only options that leave the answer as the lane gives it (any spelling: `--engine native`,
    `-enative`, `--format=line`, `--jobs N`, `--timeout S`, `--no-check-unique`...); else None."""
    if not argv or argv[0] not in _COMMANDS:
        return None
    command, takes = argv[0], _COMMANDS[argv[0]]
    source, timeout, check, form, jobs, k = None, DEFAULT_TIMEOUT, None, "auto", 1, 1
    while k < len(argv):
        arg, k = argv[k], k + 1
        if arg in _FLAGS and command == "solve":
            check = _FLAGS[arg]
            continue
        name, value = arg, None
        if arg.startswith("--") and "=" in arg:
            name, value = arg.split("=", 1)
        elif len(arg) > 2 and arg[0] == "-" and arg[1] != "-":
            name, value = arg[:2], arg[2:]
        what = _VALUES.get(name)
        if what is None:
            if arg.startswith("-") and arg != "-" or source is not None:
                return None
            source = arg
            continue
        if value is None:
            if k >= len(argv):
                return None
            value, k = argv[k], k + 1
        allowed = _TAKES[what]
        if what not in takes or allowed is not None and value not in allowed:
            return None
        if what == "input":
            form = value
        if allowed is None:
            number = _number(value, what)
            if number is None:
                return None
            if what == "timeout":
                timeout = number
            elif what == "jobs":
                jobs = int(number)
    if source is None:
        return None
    return Asked(command, source, timeout, check, form, jobs)


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


def run(argv: list[str]) -> int | Resume | None:
    """Answer `solve` (a file of classic puzzle lines, `-`, or one classic line) or
    `check-unique` (one classic line) in C and return the exit code; else hand the command to
    the full one: None when nothing was printed, or what the lane answered first (`Resume`)."""
    asked = plain_args(argv)
    if asked is None:
        return None
    source = asked.source
    if source != "-" and not os.path.isfile(source):
        return None if asked.input == "lines" else _literal(asked)
    if asked.command != "solve" or asked.check or asked.input == "line":
        return None                     # a file's uniqueness, or read as one puzzle: the full one
    if source == "-":
        return _stream(sys.stdin.buffer, None, asked)
    try:
        handle = open(source, "rb")
    except OSError:
        return None
    with handle:
        size = os.fstat(handle.fileno()).st_size
        if asked.jobs > 1 and size > PARALLEL_FROM:
            return None                 # worth the processes: each answers its runs in C
        return _stream(handle, size, asked)


def _literal(asked: Asked) -> int | None:
    """Answer one classic puzzle line given as the argument: its solution (and no second one
    within the budget), or `yes` for check-unique; None for anything the full command says
    better (no solution, a bad line, a timeout, not unique for check-unique)."""
    body = asked.source.strip().encode()
    built = _core_for(len(body)) if len(body) in CLASSIC and _plain_head(body) else None
    if built is None:
        return None
    core, rows, cols, symbols = built
    from ..stops import install_main_handlers
    install_main_handlers()
    if asked.command == "solve":
        text, _, _, solved = core.solve_lines(body + b"\n", symbols, rows, cols, asked.timeout)
        if solved != 1:
            return None
        sys.stdout.buffer.write(text)
        sys.stdout.buffer.flush()
        if asked.check is not False:
            _check_second(core, body, symbols)
        return SOLVED
    from .. import _core
    givens = _givens(body, symbols)
    found_list, found, _, _, timed_out = core.search(givens, 2, 1,
                                                     time.monotonic() + asked.timeout)
    if found != 1 or timed_out:
        return None
    given = [-1] * len(body)                # the check's terms: 0-based values, -1 for a blank
    for i, v in givens:
        given[i] = v - 1
    if not _core.check_classic(given, [v - 1 for v in found_list[0][:len(body)]], rows, cols):
        return None                         # never trust the search: the full command checks
    sys.stdout.write("yes\n")
    sys.stdout.flush()
    return SOLVED


def _stream(handle, size: int | None, asked: Asked) -> int | Resume | None:
    """Answer a file or standard input of classic puzzle lines block by block; hand the first
    line it cannot answer, and the rest, to the full command (returning what it answered, or
    None when nothing)."""
    data = first = handle.read(BLOCK)
    cells = _plain_head(data)
    built = _core_for(cells) if cells else None
    if built is None:
        _give_back(handle, size, data)
        return None
    core, rows, cols, symbols = built
    from ..stops import install_main_handlers
    install_main_handlers()         # SIGTERM and SIGHUP stop it as Ctrl-C does
    bar = _progress(size) if size else None
    start = time.perf_counter()
    lines = chars = answered = 0
    head, head_lines = b"", 0           # the first lines answered, for standard input's replay
    out = sys.stdout.buffer
    try:
        while data:
            more = handle.read(BLOCK)
            cut = len(data) if not more else data.rfind(b"\n") + 1
            if cut == 0:                # a line longer than a block: the full path
                data += more
                break
            text, used, done, solved = core.solve_lines(data[:cut], symbols, rows, cols,
                                                        asked.timeout)
            if text:
                out.write(text)
            if not lines:
                head, head_lines = data[:used], done
            lines, chars, answered = lines + done, chars + used, answered + solved
            if bar is not None:
                bar.advance(used, items=solved)
            if used < cut:
                data = data[used:] + more
                break
            data = data[cut:] + more
        out.flush()
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)
    if data:                            # a line the full path must answer, and the rest
        _give_back(handle, size, head + b"\n" * (lines - head_lines) + data)
        return Resume(lines, chars, {SOLVED: answered}, start) if answered else None
    line = summary_line({SOLVED: answered}, time.perf_counter() - start,
                        ((SOLVED, "solved"),), NOT_CHECKED)
    if line:
        sys.stderr.write(line + "\n")
    elif answered == 1 and asked.check is not False:      # a source of one puzzle
        _check_second(core, _first_body(first), symbols)
    return SOLVED


def _first_body(data: bytes) -> bytes:
    """Return the first puzzle line of a block (not blank, not a comment)."""
    return next(b for b in (ln.rstrip(b"\r") for ln in data.split(b"\n"))
                if b and not b.startswith(b"#"))


def _give_back(handle, size: int | None, text: bytes) -> None:
    """Let the full command read standard input as if from the start: `text` (the first
    lines the lane answered, as the full command decides on them, then one blank line for each
    further line answered, which it skips as it skips them in a file, then what the lane read
    and did not answer), then the rest. A file the full command opens again itself."""
    if size is not None:
        return
    import io
    replay = _replay(text, handle)
    sys.stdin = io.TextIOWrapper(io.BufferedReader(replay), encoding="utf-8-sig")


def _replay(head: bytes, rest):
    """Return a raw stream of `head`, then of the rest of the binary stream `rest`."""
    import io

    class Replay(io.RawIOBase):
        def __init__(self) -> None:
            self._head = io.BytesIO(head)

        def readable(self) -> bool:
            return True

        def readinto(self, buffer) -> int:
            n = self._head.readinto(buffer)
            if n:
                return n
            chunk = rest.read1(len(buffer)) if hasattr(rest, "read1") else rest.read(len(buffer))
            buffer[:len(chunk)] = chunk
            return len(chunk)

    return Replay()


def _givens(body: bytes, symbols: bytes) -> list[tuple[int, int]]:
    """Return the givens of a classic line as (cell, value)."""
    value = {ch: k + 1 for k, ch in enumerate(symbols)}
    value.update({ch: k + 1 for k, ch in enumerate(symbols.lower())})
    return [(i, value[ch]) for i, ch in enumerate(body) if ch in value]


def _check_second(core, body: bytes, symbols: bytes) -> None:
    """Look for a second solution of one classic puzzle, within the budget, and say on stderr
    when there is one or when the budget ran out (the full path says the same)."""
    _, found, _, _, timed_out = core.search(_givens(body, symbols), 2, 0,
                                            time.monotonic() + UNIQUE_BUDGET)
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
        answered = run(argv)
    except KeyboardInterrupt:
        sys.stderr.write("polydoku: interrupted\n")
        sys.exit(130)
    except BrokenPipeError:
        from .app import _reader_left
        sys.exit(_reader_left())
    if isinstance(answered, int):
        sys.exit(answered)
    from .app import main
    sys.exit(main(argv, answered))
