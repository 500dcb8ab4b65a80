"""A newcomer's install: the wheel is built, installed with `pip install 'polydoku[all]'`
into a fresh venv by a user who is not root (offline, from a folder of the wheels it needs),
and that user's polydoku solves, checks uniqueness with the SAT engine, serves the page, and
marks dnf as needing root."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, missing

pytestmark = [pytest.mark.slow, pytest.mark.tools]

WIKI = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")
SOLVED = ("534678912672195348198342567859761423426853791713924856961537284287419635345286179")
USER = "nobody"


def as_user(cmd: list[str], home: Path) -> list[str]:
    """Return the command run as the non-root user (as is, when this is not root)."""
    env = [f"HOME={home}", "PIP_CONFIG_FILE=/dev/null", "PIP_NO_INPUT=1",
           "PIP_DISABLE_PIP_VERSION_CHECK=1", f"PATH={os.environ.get('PATH', '')}"]
    if os.geteuid() != 0:
        return ["env", "-i", *env, *cmd]
    return ["runuser", "-u", USER, "--", "env", "-i", *env, *cmd]


def user_python(home: Path) -> str:
    """Return a Python of this one's version that the non-root user can run."""
    wanted = f"{sys.version_info[0]}.{sys.version_info[1]}"
    for python in (os.path.realpath(sys._base_executable), f"/usr/bin/python{wanted}"):
        probe = subprocess.run(as_user([python, "-c", "import sys, venv, ensurepip; "
                                        "print('%d.%d' % sys.version_info[:2])"], home),
                               capture_output=True, text=True, timeout=60)
        if probe.returncode == 0 and probe.stdout.strip() == wanted:
            return python
    missing(f"no Python {wanted} with venv and ensurepip that user {USER} can run")
    raise AssertionError


def run(cmd: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    """Return a finished command's result (it must succeed)."""
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, (cmd, done.stdout[-2000:], done.stderr[-2000:])
    return done


def wheelhouse(work: Path) -> Path:
    """Return a folder with polydoku's wheel and every wheel `polydoku[all]` needs (built
    and fetched by this user's pip, from its usual indexes)."""
    src = work / "source"            # a clean copy: no build files left in the checkout
    shutil.copytree(ROOT / "src", src / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info"))
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    wheels = work / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    run(pip + ["wheel", "-q", "--no-deps", "-w", str(wheels), str(src)])
    built = next(wheels.glob("polydoku-*.whl"))
    run(pip + ["wheel", "-q", "-w", str(wheels), f"polydoku[all] @ {built.as_uri()}"])
    return wheels


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_user_without_root_installs_the_wheel_and_runs_it():
    if os.geteuid() == 0 and not shutil.which("runuser"):
        missing("runuser not found (util-linux)")
    work = Path(tempfile.mkdtemp(prefix="polydoku-install-"))
    try:
        work.chmod(0o755)
        home = work / "home"
        home.mkdir()
        if os.geteuid() == 0:
            shutil.chown(home, USER)
        python = user_python(home)
        wheels = wheelhouse(work)
        subprocess.run(["chmod", "-R", "a+rX", str(wheels)], check=True)
        venv = home / "venv"
        built = next(wheels.glob("polydoku-*.whl"))
        run(as_user([python, "-m", "venv", str(venv)], home))
        run(as_user([str(venv / "bin" / "pip"), "install", "-q", "--no-compile", "--no-index",
                     "--find-links", str(wheels), f"{built}[all]"], home))
        polydoku = str(venv / "bin" / "polydoku")
        assert run(as_user([polydoku, "solve", WIKI], home)).stdout == SOLVED + "\n"
        assert run(as_user([polydoku, "check-unique", WIKI, "--engine", "sat"],
                           home)).stdout == "yes\n"
        rows = {r["id"]: r for r in map(json.loads, run(as_user(
            [polydoku, "engines", "--json"], home)).stdout.splitlines())}
        for engine_id in ("sat", "pycosat", "cpsat", "z3", "clingo", "resolvelib"):
            assert rows[engine_id]["available"], rows[engine_id]
        assert rows["dnf"]["needs_root"] and not rows["dnf"]["available"]
        port = free_port()
        server = subprocess.Popen(as_user([polydoku, "serve", "--port", str(port),
                                           "--workers", "1"], home),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  start_new_session=True)
        try:
            answer = None
            for _ in range(300):
                try:
                    request = urllib.request.Request(
                        f"http://127.0.0.1:{port}/api/solve",
                        data=json.dumps({"puzzle": WIKI}).encode(),
                        headers={"Content-Type": "application/json"})
                    with urllib.request.urlopen(request, timeout=30) as response:
                        answer = json.loads(response.read())
                    break
                except OSError:
                    assert server.poll() is None, server.communicate()
                    time.sleep(0.1)
            assert answer is not None and answer["solutions"] == [SOLVED]
        finally:
            os.killpg(server.pid, signal.SIGINT)
            try:
                server.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.communicate()
    finally:
        shutil.rmtree(work, ignore_errors=True)
