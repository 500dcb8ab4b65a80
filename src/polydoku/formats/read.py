"""Reading puzzles from a literal, a file or standard input, with the format detected.

A file of many puzzles (one per line, `#` comments and blank lines allowed) is streamed:
each entry is yielded as it is read, so memory stays flat on huge files.
"""

from __future__ import annotations

import io
import math
import os
import stat
import sys
from dataclasses import dataclass
from itertools import islice
from typing import IO, Iterator, Literal, Sequence, overload

from ..errors import BadInput
from ..model import Puzzle, Rule
from ..model.geometry import MAX_SIZE, MIN_SIZE
from .grid import is_separator, parse_grid
from . import foreign
from .line import jigsaw_parts, parse_line
from .specs import looks_like_specs, parse_specs

FORMATS = ("auto", "line", "lines", "grid", "specs", "json", "ksudoku", "fpuzzles", "iss",
           "killer", "pencilmarks")
_PENCILMARK_LENGTHS = frozenset((216, 343, 512, 729))
_KILLER_ARROWS = frozenset("<>^v`',")       # with ".", the short killer format's arrows


def looks_like_link(text: str) -> bool:
    """Return whether text is an f-puzzles or SudokuPad link or payload."""
    t = text.strip()
    return (t.lower().startswith(("http://", "https://", "www.", "f-puzzles.com", "sudokupad.app",
                                "beta.sudokupad.app", "tinyurl.com"))
            or t.startswith(("N4Ig", "fpuz", "scl", "ctc")) and " " not in t)


MAX_LINE = 1 << 20          # characters in one line of a one-puzzle-per-line source
MAX_DOCUMENT = 16 << 20     # characters in a source holding one puzzle (a grid, JSON, XML)


def _lines(handle: IO[str], source: str) -> Iterator[str]:
    """Yield the lines of a stream, each cut to MAX_LINE + 1 characters. The rest of a longer
    line is read and dropped (`parse_entry` reports the line), at most MAX_DOCUMENT characters
    of it: an endless line (`- < /dev/zero`) stops the reading with bad input."""
    while True:
        line = handle.readline(MAX_LINE + 1)
        if not line:
            return
        yield line
        if len(line) > MAX_LINE and not line.endswith("\n"):
            _skip_rest(handle, source)


def _skip_rest(handle: IO[str], source: str) -> None:
    """Read and drop the rest of an over-long line, at most MAX_DOCUMENT characters of it."""
    skipped = 0
    while skipped <= MAX_DOCUMENT:
        rest = handle.readline(MAX_LINE)
        if not rest or rest.endswith("\n"):
            return
        skipped += len(rest)
    raise BadInput(f"a line longer than {MAX_DOCUMENT >> 20} MB: stopped reading",
                   source=source)


@dataclass
class Entry:
    """One puzzle read from a source, or the error found where it should have been."""

    puzzle: Puzzle | None
    error: BadInput | None = None
    line: int | None = None
    source: str = ""


@dataclass
class RawLine:
    """One line of a one-puzzle-per-line source, read but not parsed (`parse_entry` parses it)."""

    text: str
    line: int
    source: str


def _content(line: str) -> str:
    """Return a line without its comment and surrounding space (tdoku's `puzzle:count:…` keeps the puzzle)."""
    if looks_like_link(line) or line.lstrip().startswith("3x3:"):
        return line.strip()
    text = line.split("#", 1)[0].strip() if not line.lstrip().startswith("{") else line.strip()
    return text.split(":", 1)[0].strip() if ":" in text and not text.startswith("{") else text


def _looks_like_killer(text: str) -> bool:
    """Return whether text is a killer puzzle in a forum text format (formats/killer.py): the
    long one's `3x3:` head, or 81 symbols with an arrow among them (loaded only then)."""
    if not (text.startswith("3x3:") or len(text) == 81 and not _KILLER_ARROWS.isdisjoint(text)):
        return False
    from .killer import looks_like_killer
    return looks_like_killer(text)


def _looks_like_pencilmarks(text: str) -> bool:
    """Return whether text is a pencilmark grid (formats/pencilmarks.py; loaded only then)."""
    if len(text) not in _PENCILMARK_LENGTHS:
        return False
    from .pencilmarks import looks_like_pencilmarks
    return looks_like_pencilmarks(text)


def _looks_like_iss(text: str) -> bool:
    """Return whether text is an Interactive Sudoku Solver string: it starts with a dot and a
    constraint name or a cell (the reader of ISS strings is loaded only then)."""
    head = "".join(text[:40].split())
    head = "." + head.lstrip(".") if head.startswith("..") else head   # empty items first
    head = head[:2]
    if len(head) < 2 or head[0] != "." or not (head[1].isalpha() or head[1] == "~"):
        return False
    from .iss import looks_like_iss
    return looks_like_iss(text)


def _parse_single(text: str, fmt: str, rules: Sequence[Rule], size: int | None,
                  name: str | None) -> Puzzle:
    """Return the one puzzle in `text`, in format `fmt` (auto-detected when "auto")."""
    from ..model.rules import split_line_names
    rules, line_names = split_line_names(rules)
    stripped = text.strip()
    if fmt == "auto":
        if not stripped:
            raise BadInput("no puzzle: the input is empty")
        if looks_like_link(stripped):
            fmt = "fpuzzles"
        elif stripped.startswith("<"):
            fmt = "ksudoku"
        elif stripped.startswith("{"):
            fmt = "json"
        elif looks_like_specs(stripped):
            fmt = "specs"
        elif _looks_like_iss(stripped):
            fmt = "iss"
        elif _looks_like_killer(stripped):
            fmt = "killer"
        elif _looks_like_pencilmarks(stripped):
            fmt = "pencilmarks"
        else:
            content = [ln for ln in stripped.splitlines() if _content(ln)]
            if not content:
                raise BadInput("no puzzle: the input holds only comments")
            fmt = "line" if len(content) == 1 and (" " not in content[0].strip()
                                                   or jigsaw_parts(content[0])) else "grid"
    if line_names and fmt != "fpuzzles":
        raise BadInput("line colours (--rules line:COLOUR=KIND) name the lines of SudokuPad's "
                       "and f-puzzles puzzles (links and their JSON) only")
    if fmt == "line":
        content = [c for c in map(_content, stripped.splitlines()) if c]
        if len(content) != 1:
            raise BadInput(f"expected one line of symbols, found {len(content)} lines")
        return parse_line(content[0], rules=rules, name=name)
    if fmt == "grid":
        uncommented = "\n".join("" if ln.lstrip().startswith("#") else ln
                                 for ln in text.splitlines())
        return parse_grid(uncommented, rules=rules, name=name)
    if fmt == "specs":
        return parse_specs(stripped, size=size, rules=rules, name=name)
    if fmt == "json":
        from .jsonfmt import load_json, puzzle_from_dict
        data = load_json(stripped)
        if foreign.is_foreign(data):    # decoded f-puzzles JSON, or a SudokuPad puzzle object
            from .fpuzzles import convert_object
            puzzle = foreign.puzzle_of(convert_object(data), name)
        else:
            puzzle = puzzle_from_dict(data, name=name)
        return puzzle.with_rules(tuple(dict.fromkeys(puzzle.rules + tuple(rules))))
    if fmt == "fpuzzles":
        from .fpuzzles import read_link      # imported when a link is read
        converted = read_link(stripped, line_names)
        puzzle = foreign.puzzle_of(converted, name)
        return foreign.from_drawing(
            puzzle.with_rules(tuple(dict.fromkeys(puzzle.rules + tuple(rules)))), converted.said)
    if fmt == "iss":
        from .iss import parse_iss
        puzzle = parse_iss(stripped, name=name)
        return puzzle.with_rules(tuple(dict.fromkeys(puzzle.rules + tuple(rules))))
    if fmt == "killer":
        from .killer import parse_killer
        puzzle = parse_killer(stripped, name=name)
        return puzzle.with_rules(tuple(dict.fromkeys(puzzle.rules + tuple(rules))))
    if fmt == "pencilmarks":
        from .pencilmarks import parse_pencilmarks
        puzzle = parse_pencilmarks(stripped, name=name)
        return puzzle.with_rules(tuple(dict.fromkeys(puzzle.rules + tuple(rules))))
    if fmt == "ksudoku":
        from .ksudoku import parse_ksudoku
        puzzle = parse_ksudoku(text, name=name)
        return puzzle.with_rules(tuple(rules)) if rules else puzzle
    raise BadInput(f"unknown input format {fmt!r} (known: {', '.join(FORMATS)})")


def _is_many(first: list[str], fmt: str) -> bool:
    """Return whether peeked content lines are one puzzle per line (not one grid)."""
    if fmt == "lines":
        return True
    if fmt != "auto" or not first:
        return False
    if first[0].startswith("{"):            # JSON lines; a document's first line is not whole
        return first[0].endswith("}")
    if first[0].startswith("<"):
        return False                    # XML (a KSudoku save) is one document
    length = len(first[0])
    if jigsaw_parts(first[0]) and all(jigsaw_parts(x) for x in first):
        return True                     # jigsaw lines (givens, a space, the regions)
    if any(ch in first[0] for ch in " |") or is_separator(first[0]):
        return False
    if all(len(x) == length for x in first) and not _one_line_length(length) \
            and MIN_SIZE <= len(first) <= MAX_SIZE:
        return False                    # rows of a rectangle (6 lines of 8 symbols)
    return not (len(first) == length and all(len(x) == length for x in first))


def _one_line_length(length: int) -> bool:
    """Return whether `length` symbols can be one puzzle's line (N² for N in 4..25)."""
    n = math.isqrt(length)
    return n * n == length and MIN_SIZE <= n <= MAX_SIZE


def _iss_continued(head: list[str], content: list[str], fmt: str) -> bool:
    """Return whether the lines are one ISS string broken over lines: the first is ISS and a
    later one is indented and goes on with an item (`      .Or.…`), as ISS's own collection
    writes some; a file of ISS strings one per line starts each at the margin."""
    if fmt not in ("auto", "iss") or not content or not _looks_like_iss(content[0]):
        return False
    return any(ln[:1] in (" ", "\t") and ln.strip().startswith(".") for ln in head[1:])


def _stream(handle: IO[str], source: str, fmt: str, rules: Sequence[Rule],
            size: int | None, raw: bool = False) -> Iterator[Entry | RawLine]:
    """Yield the entries of an open text stream (unparsed `RawLine`s for many lines when `raw`)."""
    lines = _lines(handle, source)
    head = list(islice(lines, 27))
    if head and head[0].startswith("\ufeff"):      # a UTF-8 byte-order mark
        head[0] = head[0][1:]
    content = [c for c in (_content(ln) for ln in head if len(ln) <= MAX_LINE) if c]
    if not _is_many(content, fmt) or (fmt == "auto" and len(content) <= 1 and not
                                       (content and content[0].startswith("{"))) \
            or _iss_continued(head, content, fmt):
        try:
            long = next((k for k, ln in enumerate(head, 1) if len(ln) > MAX_LINE), None)
            if long is not None:
                raise BadInput(f"line longer than {MAX_LINE >> 20} MB", line=long)
            text = "".join(head)
            text += handle.read(MAX_DOCUMENT + 1 - len(text))
            if len(text) > MAX_DOCUMENT:
                raise BadInput(f"too large: one puzzle of more than {MAX_DOCUMENT >> 20} MB")
            yield Entry(_parse_single(text, fmt, rules, size, None), source=source)
        except BadInput as err:
            yield Entry(None, err.at(source=source), err.line, source)
        return
    for lineno, line in enumerate(_chain(head, lines), 1):
        if raw:
            yield RawLine(line, lineno, source)
            continue
        entry = parse_entry(line, lineno, source, rules=rules, size=size)
        if entry is not None:
            yield entry


def parse_entry(text: str, lineno: int, source: str, *, rules: Sequence[Rule] = (),
                size: int | None = None) -> Entry | None:
    """Return the entry of one line of a one-puzzle-per-line source (None for a blank or comment)."""
    if len(text) > MAX_LINE:
        return Entry(None, BadInput(f"line longer than {MAX_LINE >> 20} MB", source=source,
                                    line=lineno), lineno, source)
    text = _content(text)
    if not text:
        return None
    try:
        kind = ("fpuzzles" if looks_like_link(text) else "json" if text.startswith("{")
                else "specs" if looks_like_specs(text)
                else "iss" if _looks_like_iss(text)
                else "killer" if _looks_like_killer(text)
                else "pencilmarks" if _looks_like_pencilmarks(text) else "line")
        puzzle = _parse_single(text, kind, rules, size, f"{os.path.basename(source)}:{lineno}")
        return Entry(puzzle, line=lineno, source=source)
    except BadInput as err:
        return Entry(None, err.at(source=source, line=lineno), lineno, source)


def _chain(head: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from head
    yield from rest


def _special_file(source: str) -> str | None:
    """Return what a source names when it is something other than a plain file that exists
    (a folder, a device, a pipe, a socket: reading them blocks, never ends or makes no sense),
    else None."""
    if "\n" in source or "\0" in source or len(source) > 4096:
        return None
    try:
        mode = os.stat(source).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    return ("a named pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device")


def _stdin_text(stdin: IO[str] | None) -> IO[str]:
    """Return standard input as strict UTF-8 text (a byte-order mark allowed)."""
    if stdin is not None:
        return stdin
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:                      # replaced by a text stream (tests, embedding)
        return sys.stdin
    return io.TextIOWrapper(buffer, encoding="utf-8-sig", errors="strict")


@overload
def read_puzzles(source: str, *, fmt: str = "auto", rules: Sequence[Rule] = (),
                 size: int | None = None, stdin: IO[str] | None = None,
                 raw: Literal[False] = False) -> Iterator[Entry]: ...


@overload
def read_puzzles(source: str, *, fmt: str = "auto", rules: Sequence[Rule] = (),
                 size: int | None = None, stdin: IO[str] | None = None,
                 raw: bool) -> Iterator[Entry | RawLine]: ...


def read_puzzles(source: str, *, fmt: str = "auto", rules: Sequence[Rule] = (),
                 size: int | None = None, stdin: IO[str] | None = None,
                 raw: bool = False) -> Iterator[Entry | RawLine]:
    """Yield the puzzles of a literal, a file path, or `-` (standard input).

    With `raw`, a one-puzzle-per-line source yields `RawLine`s (every line, blank and comment
    lines too) for `parse_entry` to parse elsewhere, e.g. in worker processes.
    """
    if fmt not in FORMATS:
        raise BadInput(f"unknown input format {fmt!r} (known: {', '.join(FORMATS)})")
    if source == "-":
        try:
            yield from _stream(_stdin_text(stdin), "<stdin>", fmt, rules, size, raw)
        except UnicodeDecodeError as err:
            raise BadInput(f"not UTF-8 text (byte {err.start} of a block)",
                           source="<stdin>") from None
        return
    special = _special_file(source)
    if special:
        raise BadInput(f"is {special}, not a file of puzzles", source=source)
    if os.path.isfile(source):
        try:
            with open(source, encoding="utf-8-sig", errors="strict") as handle:
                yield from _stream(handle, source, fmt, rules, size, raw)
        except UnicodeDecodeError as err:
            raise BadInput(f"not UTF-8 text (byte {err.start})", source=source) from None
        except OSError as err:
            raise BadInput(f"cannot read: {err.strerror}", source=source) from None
        return
    is_document = "\n" in source or source.lstrip().startswith(("<", "{"))
    if not is_document and (os.sep in source and not any(ch in source for ch in ".0123456789")
                            or source.endswith((".txt", ".json", ".xml", ".jsonl", ".ksudoku"))):
        raise BadInput(f"no such file: {source}")
    yield from _stream(io.StringIO(source), "<argument>", fmt, rules, size, raw)


def read_puzzle(source: str, *, fmt: str = "auto", rules: Sequence[Rule] = (),
                size: int | None = None, stdin: IO[str] | None = None) -> Puzzle:
    """Return the one puzzle of a source (its first, when it holds many); bad input raises."""
    for entry in read_puzzles(source, fmt=fmt, rules=rules, size=size, stdin=stdin):
        return puzzle_of(entry)
    raise BadInput(f"no puzzle in {source}")


def puzzle_of(entry: Entry) -> Puzzle:
    """Return an entry's puzzle, or raise its error."""
    if entry.error:
        raise entry.error
    if entry.puzzle is None:
        raise BadInput("no puzzle", source=entry.source)
    return entry.puzzle


def read_text(text: str, *, fmt: str = "auto", rules: Sequence[Rule] = (),
              source: str = "<input>") -> Puzzle:
    """Return the first puzzle written in `text` (never taken as a file name); bad input raises."""
    if fmt not in FORMATS:
        raise BadInput(f"unknown input format {fmt!r} (known: {', '.join(FORMATS)})")
    for entry in _stream(io.StringIO(text), source, fmt, rules, None):
        assert isinstance(entry, Entry)         # not raw: every line parsed
        return puzzle_of(entry)
    raise BadInput("no puzzle: the input is empty", source=source)
