"""The export registry: `polydoku export PUZZLE --to FORMAT --out DIR`.

Each exporter is `export(puzzle, out: Path, options: dict[str, str]) -> list[Path]`: it writes
the artifact a tool reads natively plus a README.md with the exact commands a person can run,
and returns the files written. Exporters live beside their engine's encoder.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Mapping

from ..errors import BadInput
from ..files import make_folder, write_file
from ..model import Puzzle

# format -> "module:function"
EXPORTERS: dict[str, str] = {
    "debian": "polydoku.engines.debian.export:export",
    "conda": "polydoku.engines.conda.export:export",
    "pypi": "polydoku.engines.pypi.export:export_pypi",
    "poetry": "polydoku.engines.pypi.export:export_poetry",
    "npm": "polydoku.engines.javascript:export",
    "composer": "polydoku.engines.composer:export",
    "cargo": "polydoku.engines.cargo:export",
    "dnf": "polydoku.engines.dnf:export",
    "opam": "polydoku.engines.opam:export",
    "bundler": "polydoku.engines.bundler:export",
    "cabal": "polydoku.engines.cabal:export",
    "0install": "polydoku.engines.zeroinstall:export",
    "dimacs": "polydoku.engines.models.export:dimacs",
    "smtlib": "polydoku.engines.models.export:smt",
    "minizinc": "polydoku.engines.models.export:minizinc",
    "asp": "polydoku.engines.models.export:asp",
    "alloy": "polydoku.engines.models.export:alloy_model",
    "picat": "polydoku.engines.models.export:picat_program",
}


# format -> the engine whose encoding it writes: an export refuses what that engine refuses
ENGINE_OF: dict[str, str] = {
    "debian": "apt", "conda": "libsolv-conda", "pypi": "pip", "poetry": "poetry", "npm": "npm", "composer": "composer",
    "cargo": "cargo", "dnf": "dnf", "0install": "0install", "opam": "opam",
    "bundler": "bundler", "cabal": "cabal",
    "dimacs": "sat", "smtlib": "z3", "minizinc": "minizinc", "asp": "clingo",
    "alloy": "alloy", "picat": "picat",
}


def export_options(options: dict[str, str], *, port: str | None = None) -> tuple[str, str]:
    """Return an exporter's (encoding, port) from its options: `encoding=faithful|tuned`, and
    `port=N` where the exporter serves something (`port` is its default); others are bad input."""
    known = ["encoding", "port"] if port else ["encoding"]
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise BadInput(f"unknown export option {unknown[0]!r} (known: {', '.join(known)})")
    encoding = options.get("encoding", "faithful")
    if encoding not in ("faithful", "tuned"):
        raise BadInput(f"export option encoding={encoding!r} is not one of faithful, tuned")
    value = options.get("port", port or "")
    if port and (not (value.isascii() and value.isdigit()) or not 0 < int(value) < 65536):
        raise BadInput(f"export option port={value!r} is not a port number")
    return encoding, value


def write_files(out: Path, files: Mapping[str, bytes | str]) -> list[Path]:
    """Write an exporter's files (relative path -> text or bytes) under `out`; return them."""
    written = []
    for relpath, content in files.items():
        written.append(write_file(out / relpath, content, make_parents=True))
    return written


def export(puzzle: Puzzle, fmt: str, out: Path, options: dict[str, str] | None = None) -> list[Path]:
    """Write `puzzle` in format `fmt` into folder `out` and return the files written."""
    if fmt not in EXPORTERS:
        raise BadInput(f"unknown export format {fmt!r} (known: {', '.join(EXPORTERS) or 'none'})")
    if fmt in ENGINE_OF:
        from ..problem import build_problem
        from .registry import make_engine
        refusal = make_engine(ENGINE_OF[fmt]).refusal(build_problem(puzzle))
        if refusal:
            raise BadInput(f"export --to {fmt}: {refusal}")
    module, _, name = EXPORTERS[fmt].partition(":")
    make_folder(out)
    return getattr(importlib.import_module(module), name)(puzzle, out, dict(options or {}))
