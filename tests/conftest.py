"""Shared fixtures: puzzle data, real engines (skip locally when missing, fail in CI), the CLI."""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("POLYDOKU_DATA", ROOT.parent / "shared" / "data"))
EXAMPLES = ROOT / "examples"
IN_CI = bool(os.environ.get("CI"))


FAST = bool(os.environ.get("POLYDOKU_FAST"))
# Engines that run in this process (libraries): the fast lane uses only these.
IN_PROCESS = {"native", "sat", "pycosat", "cpsat", "z3", "clingo", "resolvelib"}
# Modules that drive outside programs throughout: marked `tools`, left out of the fast lane.
TOOL_MODULES = {"test_conda", "test_debian", "test_pypi_engines", "test_cluster",
                "test_web_browser", "test_exports", "test_published_variants", "test_bench",
                "test_solvers", "test_sandbox"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.module.__name__ in TOOL_MODULES:
            item.add_marker(pytest.mark.tools)


def missing(reason: str) -> None:
    """Skip locally, fail in CI: in CI every engine and data set must be there."""
    if IN_CI and not FAST:
        pytest.fail(f"required in CI: {reason}", pytrace=False)
    pytest.skip(reason)


def data_path(name: str) -> Path:
    """Return a file of the shared puzzle data (skip or fail when it is not there)."""
    path = DATA / name
    if not path.exists():
        missing(f"puzzle data {path} not found (set POLYDOKU_DATA)")
    return path


def data_lines(name: str, limit: int | None = None, step: int = 1) -> list[str]:
    """Return the puzzle lines of a shared data file (every `step`-th, at most `limit`)."""
    lines = [ln.strip() for ln in data_path(name).read_text().splitlines() if ln.strip()]
    lines = lines[::step]
    return lines[:limit] if limit else lines


def need_engine(engine_id: str, **kwargs):
    """Return an engine that runs here (skip or fail when it does not)."""
    from polydoku.engines import make_engine
    if FAST and engine_id.split("+")[0] not in IN_PROCESS:
        pytest.skip(f"fast lane: {engine_id} runs an outside program")
    engine = make_engine(engine_id, **kwargs)
    avail = engine.available()
    if not avail.ok:
        missing(f"engine {engine_id} unavailable: {avail.reason}; install: "
                f"{avail.hint or engine.install_hint}")
    return engine


CHROMIUM = Path("/usr/bin/chromium")


def need_browser() -> Path:
    """Return Debian's chromium for Playwright to drive (skip or fail when it or Playwright is
    missing); Playwright's own browser download is never used."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing("the playwright package is not installed (pip install 'polydoku[test]')")
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} not found (apt-get install chromium)")
    return CHROMIUM


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys, monkeypatch):
    """Run polydoku in process: run_cli("solve", "...", stdin="...") -> CliResult."""
    from polydoku.cli import main

    def run(*args: str, stdin: str | None = None) -> CliResult:
        if stdin is not None:
            monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        code = main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run
