"""Reading the Python packaging tools' answers back: pins, statuses, the tools' own words and stats.

Pure text in, data out: pins from pip's JSON report, uv's pinned requirements, `poetry.lock`
and `pdm.lock`; a failure is called unsatisfiable only when the tool's own words say it proved
that no resolution exists (pip's and PDM's ResolutionImpossible, uv's and Poetry's PubGrub
derivation ending in "unsatisfiable" / "version solving failed"); giving up is unknown.
"""

from __future__ import annotations

import json
import re
import tomllib

from ..base import Outcome, Status
from ..words import between, error_lines, excerpt
from .encode import Index, value_of

MAX_EXPLANATION_LINES = 80


def pins_pip_report(text: str) -> dict[str, str]:
    """Return name -> version from pip's `--report` JSON."""
    data = json.loads(text)
    return {_norm(item["metadata"]["name"]): item["metadata"]["version"]
            for item in data.get("install", [])}


def pins_requirements(text: str) -> dict[str, str]:
    """Return name -> version from `name==version` lines (uv's compiled requirements)."""
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, _, ver = line.partition("==")
            pins[_norm(name)] = ver.split(";", 1)[0].strip()
    return pins


def pins_lock(text: str) -> dict[str, str]:
    """Return name -> version from a `poetry.lock` or `pdm.lock` ([[package]] tables)."""
    return {_norm(p["name"]): p["version"] for p in tomllib.loads(text).get("package", [])}


PIN_READERS = {"pip": pins_pip_report, "uv": pins_requirements, "poetry": pins_lock,
               "pdm": pins_lock}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def solution(index: Index, pins: dict[str, str]) -> tuple[tuple[int, ...] | None, str]:
    """Return the solution the pins stand for, or None and what is missing."""
    values = [0] * len(index.cells)
    for name, var in index.cells:
        if name not in pins:
            return None, f"the answer has no version of {name}"
        values[var] = value_of(pins[name])
    return tuple(values), ""


# --- the tools' words ---------------------------------------------------------------------

def _excerpt(lines: list[str]) -> str:
    return excerpt(lines, MAX_EXPLANATION_LINES)


def failure(tool: str, output: str) -> tuple[Status, str]:
    """Return the status and the tool's own words for a run that wrote no answer."""
    if tool == "pip":
        if "ResolutionImpossible" in output:
            return Status.UNSATISFIABLE, _excerpt(
                between(output, "ERROR: Cannot install") +
                between(output, "The conflict is caused by:", "To fix this"))
        if "ResolutionTooDeep" in output:
            return Status.UNKNOWN, _excerpt(between(output, "ResolutionTooDeep"))
    elif tool == "uv":
        if "No solution found" in output and "unsatisfiable" in output:
            return Status.UNSATISFIABLE, _excerpt(between(output, "No solution found"))
    elif tool == "poetry":
        if "SolverProblemError" in output and "version solving failed" in output:
            return Status.UNSATISFIABLE, _excerpt(
                between(output.split("SolverProblemError", 1)[1], "Because",
                         "version solving failed"))
    elif tool == "pdm":
        if "Unable to find a resolution" in output and "ResolutionTooDeep" not in output:
            return Status.UNSATISFIABLE, _excerpt(
                between(output, "ERROR: Unable to find a resolution", "To fix this"))
        if "ResolutionTooDeep" in output or "too deep" in output.lower():
            return Status.UNKNOWN, _excerpt(_last_error(output))
    return Status.ERROR, _excerpt(_last_error(output)) or "the tool wrote no answer"


def _last_error(output: str) -> list[str]:
    """Return the last few lines that look like an error (the tool's closing words)."""
    return error_lines(output)


# --- the tools' statistics ----------------------------------------------------------------

def _count(pattern: str, text: str) -> int:
    return len(re.findall(pattern, text, re.MULTILINE))


def tool_stats(tool: str, output: str) -> dict[str, int | float | str]:
    """Return the statistics a tool printed about its own run."""
    out: dict[str, int | float | str] = {}
    if tool == "pip":
        out["wheels_processed"] = _count(r"^Processing ", output)
        out["backtrack_notices"] = _count(r"pip is looking at multiple versions", output)
    elif tool == "uv":
        m = re.search(r"Resolved (\d+) packages? in ([\d.]+\w+)", output)
        if m:
            out["resolved"], out["resolve_time"] = int(m[1]), m[2]
    elif tool == "poetry":
        m = re.search(r"Tried (\d+) solutions?", output)
        if m:
            out["tried_solutions"] = int(m[1])
        m = re.search(r"Version solving took ([\d.]+) seconds", output)
        if m:
            out["solving_seconds"] = float(m[1])
        out["decisions"] = _count(r"^\s*\d+: selecting ", output)
        out["conflicts"] = _count(r"^\s*\d+: conflict: ", output)
    elif tool == "pdm":
        rounds = [int(x) for x in re.findall(r"Starting round (\d+)", output)]
        out["rounds"] = max(rounds) + 1 if rounds else 0
        out["pins"] = _count(r"Adding new pin: ", output)
        out["rejections"] = _count(r"Candidate rejected: ", output)
        out["conflicts"] = _count(r"Conflicts detected", output)
    return out


def outcome(tool: str, index: Index, answer: str | None, output: str, *, returncode: int | None,
            timed_out: bool, seconds: float) -> Outcome:
    """Return the outcome of one tool run from its answer file and its output."""
    stats: dict = {"tool_seconds": round(seconds, 3), **tool_stats(tool, output)}
    if timed_out:
        return Outcome(Status.UNKNOWN, stats=stats,
                       message=f"{tool} timed out after {seconds:.0f} s without an answer")
    if returncode == 0 and answer:
        try:
            pins = PIN_READERS[tool](answer)
        except (ValueError, KeyError, TypeError) as err:
            return Outcome(Status.ERROR, stats=stats, message=f"cannot read {tool}'s answer: {err}")
        sol, missing = solution(index, pins)
        if sol is None:
            return Outcome(Status.ERROR, stats=stats, message=missing)
        return Outcome(Status.SOLVED, [sol], stats=stats)
    status, words = failure(tool, output)
    if status is Status.ERROR:
        words = f"{tool} exited with code {returncode}: {words}"
    return Outcome(status, exhausted=status is Status.UNSATISFIABLE, stats=stats, message=words)
