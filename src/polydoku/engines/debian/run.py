"""Runners of the Debian tools: the only home of their subprocesses, temp dirs and timeouts.

Each runner lays the private apt tree (`layout.py`) out in a `Sandbox`, runs the real tool on
it in simulation with a timeout and a memory cap, and returns its output as a `ToolRun`.
Nothing is installed and no host state is read: apt and aptitude see only the tree (through
APT_CONFIG and explicit `-o` options), dose-distcheck and libsolv read only its Packages file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from ..sandbox import Sandbox, ToolRun
from . import layout

DEFAULT_MEMORY_MB = 4096
SYSTEM_PYTHON = "/usr/bin/python3"
CHILD = Path(__file__).with_name("solv_child.py")
TREE = "apt"


def prepare(box: Sandbox, packages: str) -> Path:
    """Write the private apt tree with the Packages file into the sandbox; return its root."""
    root = box.path / TREE
    for rel, content in layout.tree_files(str(root), packages).items():
        box.write(f"{TREE}/{rel}", content)
    return root


def _remaining(deadline: float | None) -> float | None:
    """Return the seconds left before `deadline` (at least a little, so a run can start)."""
    return None if deadline is None else max(0.05, deadline - time.monotonic())


def _env(box: Sandbox, root: Path) -> dict[str, str]:
    """Return the environment of an apt-family run: sandboxed home, and only our apt.conf."""
    return box.env({"APT_CONFIG": str(root / layout.APT_CONF), "DEBIAN_FRONTEND": "noninteractive",
                    "COLUMNS": "200"})


def run_apt_family(box: Sandbox, root: Path, command: list[str], *, timeout: float | None,
                   memory_mb: int) -> ToolRun:
    """Return the runs of `apt-get update` on the tree, then of `command` (apt-get or aptitude)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    env = _env(box, root)
    update = box.run(layout.update_command(str(root)), timeout=_remaining(deadline), env=env,
                     memory_mb=memory_mb, name="apt-get-update")
    tool = ToolRun([update])
    if update.timed_out or update.returncode != 0:
        tool.failed_step = None if update.timed_out else "apt-get update"
        return tool
    tool.runs.append(box.run(command, timeout=_remaining(deadline), env=env,
                             memory_mb=memory_mb, name=command[0]))
    return tool


def run_dose(box: Sandbox, root: Path, *, timeout: float | None, memory_mb: int) -> ToolRun:
    """Return the run of dose-distcheck on the tree's Packages file."""
    return ToolRun([box.run(layout.dose_command(str(root)), timeout=timeout, memory_mb=memory_mb,
                            name="dose-distcheck")])


def run_libsolv(box: Sandbox, root: Path, python: str, *, timeout: float | None,
                memory_mb: int) -> ToolRun:
    """Return the run of the libsolv child on the tree's Packages file, with its JSON report."""
    run = box.run([python, str(CHILD), str(root / layout.PACKAGES), layout.ROOT_PACKAGE],
                  timeout=timeout, memory_mb=memory_mb, name="libsolv")
    tool = ToolRun([run])
    if run.returncode == 0:
        try:
            tool.report = json.loads(run.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            tool.report = {}
    return tool


def solv_python(which: str = "auto") -> tuple[str | None, str]:
    """Return the Python that runs the libsolv child and its reader, or None and why not.

    "debian": the system Python with Debian's python3-solv (it reads Packages files itself);
    "pypi": this venv's Python with PyPI `solv`; "auto": the first of the two that works.
    """
    order = {"auto": ("debian", "pypi"), "debian": ("debian",), "pypi": ("pypi",)}[which]
    reasons = []
    for kind in order:
        python = SYSTEM_PYTHON if kind == "debian" else sys.executable
        reader = _probe(python)
        if reader and (kind == "pypi" or reader == "add_debpackages"):
            return python, reader
        reasons.append(f"{'Debian python3-solv' if kind == 'debian' else 'PyPI solv'} "
                       f"not importable by {python}")
    return None, "; ".join(reasons)


_PROBES: dict[str, str | None] = {}


def _probe(python: str) -> str | None:
    """Return the reader the child reports under `python` ("add_debpackages"/"parsed"), or None."""
    if python not in _PROBES:
        _PROBES[python] = None
        if os.access(python, os.X_OK):
            try:
                done = subprocess.run([python, str(CHILD), "--probe"], capture_output=True,
                                      text=True, timeout=30)
                if done.returncode == 0:
                    _PROBES[python] = json.loads(done.stdout).get("reader")
            except (OSError, subprocess.SubprocessError, ValueError):
                pass
    return _PROBES[python]


def debian_package_version(name: str) -> str:
    """Return the installed version of a Debian package ("" when it is not installed)."""
    try:
        done = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", name], capture_output=True,
                              text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
