"""A tool's own words, cut to what a person reads: the engines quote them when a tool proves
"no solution", gives up or fails (pip, uv, Poetry, PDM, Composer, Cargo, dnf, opam...)."""

from __future__ import annotations

import re


def excerpt(lines: list[str], most: int) -> str:
    """Return at most `most` non-empty lines, the middle cut out."""
    lines = [ln.rstrip() for ln in lines if ln.strip()]
    if len(lines) > most:
        cut = len(lines) - most
        lines = lines[:most // 2] + [f"[... {cut} lines ...]"] + lines[-most // 2:]
    return "\n".join(lines)


def between(text: str, start: str, end: str | None = None) -> list[str]:
    """Return the lines from the first one containing `start` to the first containing `end`
    (to the last line without `end`; none when no line contains `start`)."""
    lines = text.splitlines()
    first = next((k for k, ln in enumerate(lines) if start in ln), None)
    if first is None:
        return []
    if end is None:
        return lines[first:]
    last = next((k for k in range(first, len(lines)) if end in lines[k]), len(lines) - 1)
    return lines[first:last + 1]


def error_lines(output: str, n: int = 8, marks: str = r"error|Error|ERROR") -> list[str]:
    """Return the n lines from the last one that looks like an error (a line matching
    `marks`), else the last n lines: the tool's closing words."""
    lines = [ln for ln in output.splitlines() if ln.strip()]
    found = [k for k, ln in enumerate(lines) if re.search(marks, ln)]
    return lines[found[-1]:found[-1] + n] if found else lines[-n:]
