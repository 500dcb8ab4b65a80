"""Writing the files a user asks for (`--out`, `--keep`, `export`): inside the folder named,
never through a symbolic link, and with a one-line error (exit 2) when the place is wrong."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import BadInput


def _refuse_link(path: Path, what: str) -> None:
    if path.is_symlink():
        raise BadInput(f"{what} {path}: refusing to write through a symbolic link")


def write_output(path: str | Path, data: bytes | str, what: str = "--out") -> Path:
    """Write one file the user named; a missing folder or a symbolic link is bad input."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    parent = path.parent
    if not parent.is_dir():
        raise BadInput(f"{what} {path}: the folder {parent} does not exist")
    _refuse_link(path, what)
    if path.is_dir():
        raise BadInput(f"{what} {path}: is a folder, not a file")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0),
                     0o644)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except OSError as err:
        raise BadInput(f"{what} {path}: cannot write: {err.strerror}") from None
    return path


def make_folder(folder: str | Path, what: str = "--out") -> Path:
    """Create (or reuse) a folder the user named; a symbolic link or a file there is bad input."""
    folder = Path(folder)
    _refuse_link(folder, what)
    if folder.exists() and not folder.is_dir():
        raise BadInput(f"{what} {folder}: is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise BadInput(f"{what} {folder}: cannot create the folder: {err.strerror}") from None
    return folder


def copy_into(source: Path, folder: str | Path, what: str = "--keep") -> list[Path]:
    """Copy a tree into a user's folder: every file lands inside it, never through a symbolic
    link found there (links in `source` are copied as links, not followed). Returns the files."""
    folder = make_folder(folder, what)
    written = []
    for root, dirs, files in os.walk(source):
        rel = Path(root).relative_to(source)
        target_dir = folder / rel
        if rel != Path("."):
            make_folder(target_dir, what)
        links = [d for d in dirs if (Path(root) / d).is_symlink()]
        dirs[:] = [d for d in dirs if d not in links]
        for name in sorted(files + links):
            src, dst = Path(root) / name, target_dir / name
            _refuse_link(dst, what)
            if src.is_symlink():
                if dst.exists():
                    raise BadInput(f"{what} {dst}: already exists")
                os.symlink(os.readlink(src), dst)
            elif src.is_file():
                write_output(dst, src.read_bytes(), what)
            else:
                continue        # a named pipe or socket a tool left: reading it would block
            written.append(dst)
    return written
