"""The Interactive Sudoku Solver as a measuring peer: its headless runner (`iss-count`, from
../shared/tools/iss or $POLYDOKU_ISS) run in node on ISS constraint strings.

The ISS snapshot is unpacked by the runner into a cache folder outside the repository
($XDG_CACHE_HOME, or the folder given here); nothing of ISS is kept in polydoku.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = Path(os.environ.get("POLYDOKU_ISS", ROOT.parent / "shared" / "tools" / "iss"))


def missing() -> str | None:
    """Return why ISS cannot run here (no node, no runner), or None when it can."""
    if shutil.which("node") is None:
        return "node is not installed (Debian: nodejs)"
    if not (TOOL / "iss-count").exists():
        return f"the ISS runner is not at {TOOL} (set POLYDOKU_ISS)"
    return None


def node_version() -> str:
    """Return node's version (v20.x), or "" when it is missing."""
    node = shutil.which("node")
    if not node:
        return ""
    return subprocess.run([node, "--version"], capture_output=True, text=True,
                          timeout=30).stdout.strip()


def count(strings: list[str], *, limit: int = 2, timeout: float = 600,
          cache: str | None = None) -> list[dict]:
    """Return ISS's answer for each constraint string, in order: `solutions` (up to `limit`),
    `solution`, `cpu_ms`, `guesses`, or `error`. One node process runs them all."""
    env = dict(os.environ)
    if cache:
        env["XDG_CACHE_HOME"] = cache
    done = subprocess.run(["sh", str(TOOL / "iss-count"), "--max", str(limit)],
                          input="".join(s + "\n" for s in strings), capture_output=True,
                          text=True, timeout=timeout, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"iss-count: exit {done.returncode}: {done.stderr[-300:]}")
    out = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if len(out) != len(strings):
        raise RuntimeError(f"iss-count answered {len(out)} of {len(strings)} strings")
    return out


def count_each(strings: list[str], *, limit: int = 2, timeout: float = 60,
               cache: str | None = None) -> list[dict]:
    """Return ISS's answer for each string as `count` does, one node process per string, so
    that a puzzle ISS cannot answer within `timeout` seconds is an answer of its own
    (`error`: timed out) and the others still run. The whole process group is stopped."""
    import signal
    env = dict(os.environ)
    if cache:
        env["XDG_CACHE_HOME"] = cache
    out = []
    for text in strings:
        proc = subprocess.Popen(["sh", str(TOOL / "iss-count"), "--max", str(limit)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env,
                                start_new_session=True)
        try:
            stdout, _ = proc.communicate(text + "\n", timeout=timeout)
            lines = [json.loads(ln) for ln in stdout.splitlines() if ln.strip()]
            out.append(lines[0] if lines else {"error": "no answer"})
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            out.append({"error": f"timed out after {timeout:g} s"})
    return out

