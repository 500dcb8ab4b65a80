"""The runners of the Python packaging engines: pip, uv, Poetry and PDM, each in its own sandbox.

The only home of subprocesses, temp dirs, the local HTTP server and timeouts for this family.
Every tool is pointed at the sandbox only: pip runs `--isolated`, uv `--no-config --no-cache`,
Poetry and PDM get their config, cache and data dirs inside the sandbox, no keyring, and an
index served on 127.0.0.1 by a server this module starts and always stops. Nothing of the
user's set-up is read or written; nothing leaves the machine.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from pathlib import Path
from typing import Iterator, Mapping

from ..localhost import QuietHandler, serve as serve_folder
from ..sandbox import Sandbox, ToolRun, find_program
from . import encode

NULL_KEYRING = "keyring.backends.null.Keyring"


def write_files(sandbox: Sandbox, files: Mapping[str, bytes | str]) -> None:
    """Write encoder output (relative path -> content) into the sandbox."""
    for relpath, content in files.items():
        sandbox.write(relpath, content)


class _QuietHandler(QuietHandler):
    """Serves a folder like a package index does: the Cache-Control header is the one PyPI
    sends, so clients that cache pages within a run may do so."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600, public")
        super().end_headers()


@contextlib.contextmanager
def serve(directory: Path) -> Iterator[str]:
    """Serve `directory` as a package index on 127.0.0.1 while the block runs; yield its URL."""
    with serve_folder(directory, _QuietHandler) as url:
        yield url


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


# --- pip ----------------------------------------------------------------------------------

def run_pip(sandbox: Sandbox, index: encode.Index, timeout: float | None) -> ToolRun:
    """Run `pip install --dry-run --report` over a wheel folder; the answer is the JSON report."""
    write_files(sandbox, encode.wheels(index, "wheels"))
    req = sandbox.write("requirements.txt", encode.requirements_txt(index))
    report = sandbox.path / "report.json"
    # relative paths (the run's cwd is the sandbox) keep temp paths out of pip's explanations
    cmd = [sys.executable, "-m", "pip", "install", "--isolated", "--dry-run",
           "--ignore-installed", "--no-index", "--find-links", "wheels", "--no-cache-dir",
           "--disable-pip-version-check", "--progress-bar", "off",
           "-r", req.name, "--report", report.name]
    run = sandbox.run(cmd, timeout=timeout, env=sandbox.env({"PYTHONNOUSERSITE": "1"}),
                      name="pip")
    return ToolRun([run], _read(report), sandbox.path)


# --- uv -----------------------------------------------------------------------------------

def run_uv(sandbox: Sandbox, index: encode.Index, timeout: float | None,
           resolution: str = "highest") -> ToolRun:
    """Run `uv pip compile --no-index --find-links` over a wheel folder; answer: pinned lines."""
    write_files(sandbox, encode.wheels(index, "wheels"))
    req = sandbox.write("requirements.in", encode.requirements_txt(index))
    out = sandbox.path / "requirements.txt"
    cmd = [find_program("uv") or "uv", "pip", "compile", req.name, "--no-index",
           "--find-links", "wheels", "--no-config", "--no-cache",
           "--python", sys.executable, "--no-python-downloads", "--resolution", resolution,
           "--no-header", "--no-annotate", "--color", "never", "-o", out.name]
    env = sandbox.env({"UV_NO_PROGRESS": "1", "NO_COLOR": "1"})
    run = sandbox.run(cmd, timeout=timeout, env=env, name="uv")
    return ToolRun([run], _read(out), sandbox.path)


# --- Poetry and PDM -----------------------------------------------------------------------

def _serve_index(sandbox: Sandbox, index: encode.Index) -> Path:
    """Write the simple index into the sandbox and return the folder to serve."""
    write_files(sandbox, encode.simple_index(index, "index/simple"))
    return sandbox.path / "index"


def poetry_env(sandbox: Sandbox) -> dict[str, str]:
    """Return Poetry's environment: config, cache and data inside the sandbox, no keyring."""
    base = sandbox.path / "poetry"
    return sandbox.env({
        "POETRY_CONFIG_DIR": str(base / "config"), "POETRY_CACHE_DIR": str(base / "cache"),
        "POETRY_DATA_DIR": str(base / "data"), "POETRY_HOME": str(base / "home"),
        "POETRY_VIRTUALENVS_PATH": str(base / "venvs"), "POETRY_NO_INTERACTION": "1",
        "POETRY_KEYRING_ENABLED": "false", "PYTHON_KEYRING_BACKEND": NULL_KEYRING,
        "POETRY_VIRTUALENVS_CREATE": "false", "POETRY_SOLVER_LAZY_WHEEL": "false",
        "POETRY_REQUESTS_TIMEOUT": "60", "NO_COLOR": "1"})


def run_poetry(sandbox: Sandbox, index: encode.Index, timeout: float | None) -> ToolRun:
    """Run `poetry lock -vv` against the simple index served locally; answer: poetry.lock."""
    folder = _serve_index(sandbox, index)
    project = sandbox.path / "project"
    with serve(folder) as url:
        sandbox.write("project/pyproject.toml", encode.pyproject_poetry(index, f"{url}/simple/"))
        cmd = [find_program("poetry") or "poetry", "lock", "--no-interaction", "--no-ansi",
               "--no-plugins", "-vv"]
        run = sandbox.run(cmd, timeout=timeout, env=poetry_env(sandbox), cwd=project,
                          name="poetry")
    return ToolRun([run], _read(project / "poetry.lock"), sandbox.path)


def pdm_env(sandbox: Sandbox, pdm: str, max_rounds: int | None = None) -> dict[str, str]:
    """Return PDM's environment: its config file, cache and home inside the sandbox."""
    base = sandbox.path / "pdm"
    extra = {
        "PDM_CONFIG_FILE": str(base / "config.toml"), "PDM_CACHE_DIR": str(base / "cache"),
        "PDM_HOME": str(base / "home"), "PDM_IGNORE_SAVED_PYTHON": "1",
        "PDM_IGNORE_ACTIVE_VENV": "1", "PDM_CHECK_UPDATE": "false", "PDM_NON_INTERACTIVE": "1",
        "PDM_USE_UV": "false", "PDM_USE_VENV": "false", "PDM_PYTHON": _tool_python(pdm), "PYTHON_KEYRING_BACKEND": NULL_KEYRING, "NO_COLOR": "1"}
    if max_rounds:
        extra["PDM_RESOLVE_MAX_ROUNDS"] = str(max_rounds)
    return sandbox.env(extra)


def run_pdm(sandbox: Sandbox, index: encode.Index, timeout: float | None,
            strategy: str = "", max_rounds: int | None = None) -> ToolRun:
    """Run `pdm lock -v` against the simple index served locally; answer: pdm.lock."""
    folder = _serve_index(sandbox, index)
    project = sandbox.path / "project"
    pdm = find_program("pdm") or "pdm"
    with serve(folder) as url:
        sandbox.write("project/pyproject.toml", encode.pyproject_pep621(index, f"{url}/simple/"))
        cmd = [pdm, "lock", "-v"]
        if strategy:
            cmd += ["--strategy", strategy]
        run = sandbox.run(cmd, timeout=timeout, env=pdm_env(sandbox, pdm, max_rounds), cwd=project,
                          name="pdm")
    return ToolRun([run], _read(project / "pdm.lock"), sandbox.path)


def _tool_python(program: str) -> str:
    """Return the Python beside a tool's launcher (its own venv), else this one."""
    beside = Path(program).parent / "python"
    return str(beside) if beside.exists() else sys.executable


# --- versions -----------------------------------------------------------------------------

_DIST_INFO = re.compile(r"^(?P<name>[A-Za-z0-9_.]+)-(?P<version>[^-]+)\.dist-info$")


def tool_version(program: str, dist: str) -> str:
    """Return the installed version of `dist` in the venv that holds `program` ("" if unknown)."""
    venv = Path(program).resolve().parent.parent
    want = re.sub(r"[-_.]+", "_", dist).lower()
    for site in sorted(venv.glob("lib/python*/site-packages")):
        for name in os.listdir(site):
            m = _DIST_INFO.match(name)
            if m and re.sub(r"[-_.]+", "_", m["name"]).lower() == want:
                return m["version"]
    return ""
