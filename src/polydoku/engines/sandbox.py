"""The sandbox every runner uses: a private temp dir, subprocesses with a timeout and a memory
cap, killed as a process group, logs kept on request, always cleaned up.

Nothing outside the sandbox is written: HOME, TMPDIR and XDG dirs point inside it.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

from ..errors import EngineFailed

DEFAULT_MEMORY_MB = 4096
# Seconds a tool asked to stop (SIGTERM, on Ctrl-C or a cancelled run) has for its own
# clean-up before it is killed: Cargo takes several on a loaded machine.
TOOL_STOP_SECONDS = 10.0
PID_FILE = "running.pid"     # the running tool's process id, for whoever must kill it


@dataclass
class Run:
    """What one program run did."""

    cmd: list[str]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    cpu_seconds: float
    timed_out: bool
    log_path: str | None = None

    @property
    def output(self) -> str:
        """Return stdout and stderr together."""
        return self.stdout + ("\n" + self.stderr if self.stderr else "")


@dataclass
class ToolRun:
    """What one engine's runs of its tool left: the runs in order (set-up steps such as
    `apt-get update` or `opam init` first, the one that answers last), the answer text it
    wrote (None when none), the artifact to keep (a file or folder in the sandbox), a report
    the run printed as JSON, and the set-up step that failed, if one did (the tool never ran)."""

    runs: list[Run] = field(default_factory=list)
    answer: str | None = None
    artifact: Path | None = None
    report: dict = field(default_factory=dict)
    failed_step: str | None = None

    @property
    def last(self) -> Run:
        """Return the run that holds the tool's answer."""
        return self.runs[-1]

    @property
    def timed_out(self) -> bool:
        """Return whether any run hit the timeout."""
        return any(r.timed_out for r in self.runs)

    @property
    def seconds(self) -> float:
        """Return the wall seconds of all runs together."""
        return sum(r.seconds for r in self.runs)

    @property
    def cpu_seconds(self) -> float:
        """Return the CPU seconds of all runs together."""
        return sum(r.cpu_seconds for r in self.runs)

    @property
    def setup_seconds(self) -> float:
        """Return the wall seconds of the set-up runs (all but the last)."""
        return sum(r.seconds for r in self.runs[:-1])


def find_program(name: str) -> str | None:
    """Return the path of a program: polydoku's own tool venvs first, then this venv, then PATH."""
    prefix = Path(sys.prefix)
    for candidate in (prefix / "tools" / name / "bin" / name, prefix / "bin" / name):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which(name)


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


class Sandbox:
    """A private temporary directory for one engine run, removed on exit (copied to `keep` first)."""

    def __init__(self, engine_id: str, keep: str | Path | None = None):
        self.engine_id = engine_id
        self.keep = Path(keep) if keep else None
        try:
            self.path = Path(tempfile.mkdtemp(prefix=f"polydoku-{engine_id}-"))
        except OSError as err:
            raise EngineFailed(engine_id, f"cannot make a temporary folder in "
                                          f"{tempfile.gettempdir()}: {err.strerror}") from None
        for sub in ("home", "tmp", "logs"):
            (self.path / sub).mkdir()
        self._runs = 0

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Copy the sandbox to `keep` when asked, then remove it."""
        try:
            if self.keep:
                from ..files import copy_into
                copy_into(self.path, self.keep)
        finally:
            shutil.rmtree(self.path, ignore_errors=True)

    def kept(self, path: Path | str | None) -> str | None:
        """Return where a sandbox file will be found after the run (None unless kept)."""
        if path is None or self.keep is None:
            return None
        return str(self.keep / Path(path).relative_to(self.path))

    def write(self, relpath: str, content: str | bytes) -> Path:
        """Write a file inside the sandbox and return its path."""
        target = self.path / relpath
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
        except OSError as err:      # a full temporary folder: the run fails, polydoku does not
            raise EngineFailed(self.engine_id, f"cannot write {target}: "
                                               f"{err.strerror or type(err).__name__}") from None
        return target

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """Return a minimal environment whose home, temp and XDG dirs are inside the sandbox."""
        home = str(self.path / "home")
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": home, "TMPDIR": str(self.path / "tmp"),
            "XDG_CACHE_HOME": f"{home}/.cache", "XDG_CONFIG_HOME": f"{home}/.config",
            "XDG_DATA_HOME": f"{home}/.local/share", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
        }
        env.update(extra or {})
        return env

    def run(self, cmd: Sequence[str], *, timeout: float | None, env: Mapping[str, str] | None = None,
            cwd: str | Path | None = None, stdin: str | None = None,
            memory_mb: int | None = DEFAULT_MEMORY_MB, name: str | None = None) -> Run:
        """Run a program in the sandbox; a timeout kills its whole process group."""
        self._runs += 1
        log = self.path / "logs" / f"{self._runs:02d}-{name or Path(cmd[0]).name}.log"

        def limits() -> None:
            if memory_mb:
                cap = memory_mb * 1024 * 1024
                resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            if timeout:
                # A backstop for a child whose parent died before its wall-clock timeout
                # fired: the child runs in its own session, so nothing else would stop it.
                # Twice the timeout plus slack is never reached while the parent watches.
                seconds = int(2 * timeout) + 10
                resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))

        cpu0, t0 = _children_cpu(), time.perf_counter()
        proc = subprocess.Popen(
            list(cmd), cwd=str(cwd or self.path), env=dict(env) if env is not None else self.env(),
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
            start_new_session=True, preexec_fn=limits)
        pid_file = self.path / PID_FILE
        pid_file.write_text(str(proc.pid), encoding="ascii")
        timed_out = False
        try:
            out, err = proc.communicate(stdin, timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(proc)
            out, err = proc.communicate()
        except BaseException:       # a stop (Ctrl-C, SIGTERM): the tool may clean up first
            stop_group(proc, TOOL_STOP_SECONDS)
            raise
        finally:
            if proc.poll() is None:
                _kill_group(proc)
                proc.wait()
            pid_file.unlink(missing_ok=True)
        run = Run(list(cmd), None if timed_out else proc.returncode, out, err,
                  time.perf_counter() - t0, _children_cpu() - cpu0, timed_out)
        log.write_text(f"$ {' '.join(cmd)}\n# exit {run.returncode}, {run.seconds:.3f}s"
                       f"{', TIMED OUT' if timed_out else ''}\n--- stdout\n{out}\n--- stderr\n{err}\n",
                       encoding="utf-8")
        run.log_path = self.kept(log)
        return run


def stop_group(proc: subprocess.Popen, grace: float) -> None:
    """Ask a tool's process group to stop (SIGTERM), wait up to `grace` seconds for the tool
    to end (reading what it still writes, so it never blocks on a full pipe), then kill
    whatever is left of the group and close the pipes."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=grace)
    except (ProcessLookupError, PermissionError, subprocess.TimeoutExpired, ValueError,
            OSError):
        pass
    finally:
        _kill_group(proc)
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def tool_running(folder: Path) -> bool:
    """Return whether a sandbox under `folder` records a tool still running."""
    return any(folder.glob(f"*/{PID_FILE}"))


def remove_leftovers(folder: Path) -> None:
    """Kill the tools that sandboxes under `folder` still record as running (their process
    died before it could), then remove the folder."""
    for pid_file in folder.glob(f"*/{PID_FILE}"):
        try:
            pid = int(pid_file.read_text(encoding="ascii"))
            # The process must still be the tool: its environment names its sandbox.
            if str(pid_file.parent).encode() in Path(f"/proc/{pid}/environ").read_bytes():
                os.killpg(pid, signal.SIGKILL)
        except (OSError, ValueError):
            pass
    shutil.rmtree(folder, ignore_errors=True)


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
