"""Writing the files a user asks for (`--out`, `--keep`, `export`, `bench`, `render`): the one
way every command writes them.

- A file is written whole or not at all: into a temporary file beside it, renamed into place
  once complete, so a full disk leaves no truncated file.
- Never through a symbolic link (the file, the folder named, or a folder made inside it), and
  never over something that is not a plain file (a device, a pipe).
- Any OS error becomes one line naming the path (`BadInput`, exit 2: the place is the user's).
- `Output(folder)` wraps a command's writing: when the command fails part way (an error, a full
  disk, Ctrl-C), the files and folders it created are removed again.

It must not know what it writes: callers hand it bytes or text.
"""

from __future__ import annotations

import os
import stat
from contextvars import ContextVar, Token
from pathlib import Path
from typing import Iterator

from .errors import BadInput

_ACTIVE: ContextVar["Output | None"] = ContextVar("polydoku_output", default=None)


def _refuse_link(path: Path, what: str) -> None:
    if path.is_symlink():
        raise BadInput(f"{what} {path}: refusing to write through a symbolic link")


def _os_error(path: Path | str, err: OSError, what: str, doing: str = "cannot write",
              exact: bool = False) -> BadInput:
    """Return the one-line bad input of an OS error on a user's path (the error's own file
    name unless `exact`)."""
    named = isinstance(err.filename, str) and err.filename and not exact
    where = err.filename if named else path
    reason = err.strerror or type(err).__name__
    return BadInput(f"{what} {where}: {doing}: {reason}")


class Output:
    """A folder a command writes into: `with Output(folder) as out:` creates it (a symbolic link
    or a file there is bad input) and, when the block fails, removes every file and folder the
    block created (files it replaced keep their new, whole content). An OS error escaping the
    block becomes bad input naming its path."""

    def __init__(self, folder: str | Path, what: str = "--out"):
        self.folder, self.what = Path(folder), what
        self.created: list[Path] = []         # in the order made: removed in reverse
        self._token: Token[Output | None] | None = None
        self._outer: Output | None = None

    def __enter__(self) -> Path:
        self._outer = _ACTIVE.get()
        self._token = _ACTIVE.set(self)
        try:
            make_folder(self.folder, self.what)
        except BaseException:
            self._reset()
            raise
        return self.folder

    def __exit__(self, kind, error, tb) -> None:
        self._reset()
        if error is None:
            if self._outer is not None:       # the enclosing output undoes them if it fails
                self._outer.created.extend(self.created)
            return
        self.undo()
        if isinstance(error, OSError):
            raise _os_error(self.folder, error, self.what) from None

    def _reset(self) -> None:
        if self._token is not None:
            _ACTIVE.reset(self._token)
            self._token = None

    def inside(self, path: Path) -> bool:
        """Return whether `path` is the folder or below it."""
        return path == self.folder or self.folder in path.parents

    def undo(self) -> None:
        """Remove what this output created (folders only when left empty)."""
        for path in reversed(self.created):
            try:
                if path.is_dir() and not path.is_symlink():
                    path.rmdir()
                else:
                    path.unlink()
            except OSError:
                pass            # not empty (someone else's file) or already gone
        self.created.clear()

    def record(self, path: Path) -> None:
        """Remember a file or folder this output created."""
        self.created.append(path)


def _record(path: Path) -> None:
    output = _ACTIVE.get()
    if output is not None:
        output.record(path)


def _check_target(path: Path, what: str) -> None:
    """Refuse a link, a folder or a special file where a file is to be written."""
    _refuse_link(path, what)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as err:
        raise _os_error(path, err, what) from None
    if stat.S_ISDIR(mode):
        raise BadInput(f"{what} {path}: is a folder, not a file")
    if not stat.S_ISREG(mode):
        raise BadInput(f"{what} {path}: is not a plain file (a device, pipe or socket)")


def write_file(path: str | Path, data: bytes | str, what: str = "--out", *,
               make_parents: bool = False) -> Path:
    """Write one file whole (or not at all) and return its path; its folder must exist unless
    `make_parents`. A symbolic link, a special file or an OS error is bad input naming it."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    parent = path.parent
    if make_parents:
        make_folder(parent, what)
    elif not parent.is_dir():
        why = "is a file, not a folder" if os.path.lexists(parent) else "does not exist"
        raise BadInput(f"{what} {path}: the folder {parent} {why}")
    _check_target(path, what)
    existed = os.path.lexists(path)
    part = parent / f".{path.name[:200]}.{os.getpid()}.{os.urandom(4).hex()}.part"
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL
                     | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        except BaseException:
            os.unlink(part)
            raise
        _check_target(path, what)          # a link put there meanwhile is not followed either
        os.replace(part, path)
    except OSError as err:
        try:
            os.unlink(part)
        except OSError:
            pass
        raise _os_error(path, err, what, exact=True) from None
    if not existed:
        _record(path)
    return path


def write_output(path: str | Path, data: bytes | str, what: str = "--out") -> Path:
    """Write one file the user named (in a folder that exists); see `write_file`."""
    return write_file(path, data, what)


def make_folder(folder: str | Path, what: str = "--out") -> Path:
    """Create (or reuse) a folder and the missing ones above it; a symbolic link or a file
    there, or among the folders made inside the current `Output`, is bad input."""
    folder = Path(folder)
    output = _ACTIVE.get()
    missing = []
    for level in [folder, *folder.parents]:
        if output is not None and output.inside(level) or level == folder:
            _refuse_link(level, what)
        if level.is_dir():
            break
        if os.path.lexists(level):
            raise BadInput(f"{what} {level}: is a file, not a folder")
        missing.append(level)
    for level in reversed(missing):
        try:
            level.mkdir()
        except FileExistsError:
            _refuse_link(level, what)
            if not level.is_dir():
                raise BadInput(f"{what} {level}: is a file, not a folder") from None
            continue
        except OSError as err:
            raise _os_error(level, err, what, "cannot create the folder") from None
        _record(level)
    return folder


def links_in(folder: Path) -> Iterator[Path]:
    """Yield the symbolic links below a folder (not following them)."""
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            if (Path(root) / name).is_symlink():
                yield Path(root) / name


def copy_into(source: Path, folder: str | Path, what: str = "--keep") -> list[Path]:
    """Copy a tree into a user's folder: every file lands inside it, never through a symbolic
    link found there (links in `source` are copied as links, not followed); on a failure the
    files copied so far are removed. Returns the files."""
    with Output(folder, what) as out:
        written = []
        for root, dirs, files in os.walk(source):
            rel = Path(root).relative_to(source)
            target_dir = out / rel
            if rel != Path("."):
                make_folder(target_dir, what)
            links = [d for d in dirs if (Path(root) / d).is_symlink()]
            dirs[:] = [d for d in dirs if d not in links]
            for name in sorted(files + links):
                src, dst = Path(root) / name, target_dir / name
                _refuse_link(dst, what)
                if src.is_symlink():
                    if os.path.lexists(dst):
                        raise BadInput(f"{what} {dst}: already exists")
                    os.symlink(os.readlink(src), dst)
                    _record(dst)
                elif src.is_file():
                    write_file(dst, src.read_bytes(), what)
                else:
                    continue        # a named pipe or socket a tool left: reading it would block
                written.append(dst)
    return written
