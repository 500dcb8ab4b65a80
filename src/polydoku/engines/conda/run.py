"""The conda runner: writes a channel into a private sandbox, runs libsolv or rattler on it in a
child process (`worker.py`), with a timeout, and reads the result back.

This is the only place of the conda engines that makes temp dirs and subprocesses. The child
reads only the sandbox's channel and writes only its result file; the sandbox's HOME, TMPDIR and
XDG dirs keep every tool cache away from the user's. A child that crashes after writing its
result (py-rattler has been seen to crash at interpreter exit) still gives its answer.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..sandbox import Run, Sandbox

WORKER = Path(__file__).with_name("worker.py")
GRACE_SECONDS = 5.0     # time to start Python and read the channel, beyond the solve's timeout


@dataclass
class ToolResult:
    """What the tool said: status, the packages chosen, its own words, and how the run went."""

    status: str
    installed: list[tuple[str, str]] = field(default_factory=list)
    message: str = ""
    stats: dict = field(default_factory=dict)
    log_path: str | None = None
    artifact_path: str | None = None


def write_channel(sandbox: Sandbox, files: dict[str, str], specs: tuple[str, ...]) -> Path:
    """Write the channel and its specs.txt into the sandbox; return the channel folder."""
    for rel, text in files.items():
        sandbox.write(f"channel/{rel}", text)
    sandbox.write("channel/specs.txt", "\n".join(specs) + "\n")
    return sandbox.path / "channel"


def worker_command(tool: str, channel: Path, result: Path, timeout: float | None) -> list[str]:
    """Return the command line that solves the channel with `tool` in a child Python."""
    cmd = [sys.executable, "-I", str(WORKER), tool, str(channel), "--json", str(result)]
    if timeout is not None:
        cmd += ["--timeout", f"{timeout:g}"]
    return cmd


def run_tool(tool: str, engine_id: str, files: dict[str, str], specs: tuple[str, ...], *,
             timeout: float | None, keep: str | Path | None) -> ToolResult:
    """Return what `tool` (libsolv or rattler) made of the channel, within `timeout` seconds."""
    with Sandbox(engine_id, keep) as sandbox:
        channel = write_channel(sandbox, files, specs)
        result_path = sandbox.path / "result.json"
        limit = None if timeout is None else timeout + GRACE_SECONDS
        run = sandbox.run(worker_command(tool, channel, result_path, timeout), timeout=limit,
                          env=sandbox.env(), name=tool)
        out = _read(result_path, run, tool, timeout)
        out.log_path = run.log_path
        out.artifact_path = sandbox.kept(channel)
        return out


def _read(result_path: Path, run: Run, tool: str, timeout: float | None) -> ToolResult:
    """Return the tool's result from its file, or what the run itself shows when there is none."""
    stats: dict[str, object] = {"tool_cpu_seconds": round(run.cpu_seconds, 6),
                                "tool_seconds": round(run.seconds, 6)}
    if result_path.exists():
        data = json.loads(result_path.read_text(encoding="utf-8"))
        stats.update({k: round(data[k], 6) for k in ("load_seconds", "solve_seconds") if k in data})
        stats["tool_version"] = data.get("version", "")
        if run.returncode not in (0, 1, 3, 4):
            stats["exit_after_answer"] = run.returncode     # e.g. a crash at exit: noted, harmless
        return ToolResult(data["status"], [tuple(nv) for nv in data.get("installed", ())],
                          data.get("message", ""), stats)
    if run.timed_out:
        return ToolResult("unknown", message=f"{tool} was stopped after {run.seconds:.1f}s "
                          f"(timeout {timeout:g}s) without an answer", stats=stats)
    tail = (run.stderr.strip() or run.stdout.strip()).splitlines()[-1:] or ["no output"]
    return ToolResult("error", message=f"{tool} exited {run.returncode} without an answer: "
                      f"{tail[0]}", stats=stats)
