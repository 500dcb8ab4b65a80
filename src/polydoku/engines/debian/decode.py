"""Reading the Debian tools' answers: which `cellR.C-V` packages they would install, or their words.

Pure: text in, findings out. Each reader returns a `Finding`: the packages of the answer (when
the tool gave one), whether the tool proved that `puzzle` cannot be installed, and the tool's own
words for the outcome message. Nothing here decides more than the tool said.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...problem import Problem
from .encode import parse_package

ROOT = "puzzle"


@dataclass
class Finding:
    """What a tool's output says: the packages it would install, a proof of none, its words."""

    installed: list[str] = field(default_factory=list)
    proved_none: bool = False
    words: str = ""

    @property
    def answered(self) -> bool:
        """Return whether the tool named an installation that includes `puzzle`."""
        return ROOT in self.installed


def solution(problem: Problem, installed: list[str]) -> tuple[tuple[int, ...] | None, str]:
    """Return the grid the installed cell packages spell, or None and what is wrong with it."""
    grid = [0] * problem.ncells          # auxiliaries are fixed by the cells: not read back
    for name in installed:
        found = parse_package(name)
        if found is None:
            continue
        r, c, v = found
        var = r * problem.size + c
        if not (0 <= r < problem.size and 0 <= c < problem.size):
            return None, f"package {name} names no cell of the grid"
        if grid[var] and grid[var] != v:
            return None, f"two values for cell {problem.name(var)}: {grid[var]} and {v}"
        grid[var] = v
    missing = [problem.name(x) for x, v in enumerate(grid) if not v]
    if missing:
        return None, f"no package installed for {len(missing)} cells ({', '.join(missing[:5])}…)"
    return tuple(grid), ""


def _brief(lines: list[str], limit: int = 6) -> str:
    """Return the first `limit` non-empty lines joined into one line ("…" when cut)."""
    kept = [ln.strip() for ln in lines if ln.strip()]
    text = " / ".join(kept[:limit])
    return text + (" / …" if len(kept) > limit else "")


def read_apt(output: str) -> Finding:
    """Return what `apt-get -s install puzzle` printed: its `Inst` lines, else its complaint."""
    installed = [m.group(1) for m in re.finditer(r"^Inst (\S+)", output, re.MULTILINE)]
    if ROOT in installed:
        return Finding(installed)
    lines = output.splitlines()
    errors = [ln for ln in lines if ln.startswith(("E:", "W:"))]
    unmet = []
    if "The following packages have unmet dependencies:" in output:
        start = lines.index("The following packages have unmet dependencies:")
        unmet = [ln for ln in lines[start + 1:] if ln.strip() and not ln.startswith("E:")][:3]
    return Finding(installed, False, _brief(errors + unmet) or _brief(lines[-6:]))


def read_aptitude(output: str) -> Finding:
    """Return what `aptitude -s -y install puzzle` printed: its final plan, else its complaint.

    aptitude first prints the request as asked (broken packages marked `{b}`), then, when it had
    to resolve, "The following actions will resolve these dependencies:" and the plan it chose,
    which may keep puzzle out ("No packages will be installed"). Only that final plan counts.
    """
    marker = "The following actions will resolve these dependencies:"
    final = output.rsplit(marker, 1)[-1]
    lines = final.splitlines()
    heads = [k for k, ln in enumerate(lines) if ln.startswith("The following NEW packages")]
    words: list[str] = []
    if heads:
        for ln in lines[heads[-1] + 1:]:
            if not ln.startswith(" "):
                break
            words += ln.split()
    installed = [w.split("{")[0] for w in words]
    broken = any(w.endswith("{b}") for w in words)
    if ROOT in installed and not broken and "Unable to resolve" not in output:
        return Finding(installed)
    said = [ln for ln in output.splitlines() if ln.startswith(("E:", "W:"))
            or "Unable to resolve" in ln or "No packages will be installed" in ln]
    if f"{ROOT} [Not Installed]" in final:
        said.append(f"its plan keeps {ROOT} [Not Installed]")
    return Finding([], False, _brief(said) or _brief(output.splitlines()[-6:]))


def read_dose(output: str) -> Finding:
    """Return what dose-distcheck printed for puzzle: its installation set, or why it is broken."""
    status = re.search(r"^\s*status:\s*(\S+)", output, re.MULTILINE)
    if status and status.group(1) == "ok":
        block = output.split("installationset:", 1)[-1]
        return Finding(re.findall(r"^\s*-?\s*package:\s*(\S+)", block, re.MULTILINE))
    if status and status.group(1) == "broken":
        reasons = _dose_reasons(output.split("reasons:", 1)[-1])
        shown = "; ".join(reasons[:4]) + (f"; … ({len(reasons)} reasons in all)"
                                          if len(reasons) > 4 else "")
        return Finding([], True, f"dose-distcheck: puzzle is broken: {shown}")
    return Finding([], False, _brief(output.splitlines()[-6:]))


def _dose_reasons(text: str) -> list[str]:
    """Return dose's reasons, one line each: `conflict A / B (on X)` or `missing A needs X`."""
    out = []
    for entry in re.split(r"^\s*-\s*$\n(?=\s*(?:conflict|missing):)", text, flags=re.MULTILINE):
        names = re.findall(r"^\s*package:\s*(\S+)", entry, re.MULTILINE)
        kind = entry.lstrip().split(":", 1)[0]
        if kind == "conflict" and len(names) >= 2:
            on = re.search(r"unsat-conflict:\s*(.+)", entry)
            out.append(f"conflict {names[0]} / {names[1]}" + (f" (on {on.group(1).strip()})"
                                                               if on else ""))
        elif kind == "missing" and names:
            need = re.search(r"unsat-dependency:\s*(.+)", entry)
            out.append(f"missing: {names[0]} needs {need.group(1).strip() if need else '?'}")
    return out


def read_libsolv(report: dict) -> Finding:
    """Return what the libsolv child reported: its transaction, or its problems (a proof)."""
    if report.get("problems"):
        problems = [_cut(p, 12) for p in report["problems"]]
        return Finding([], True, "libsolv: " + " / ".join(problems))
    return Finding(list(report.get("installed", ())))


def _cut(problem: str, rules: int) -> str:
    """Return a libsolv problem with at most `rules` of its rules (the count when cut)."""
    parts = problem.split("; ")
    if len(parts) <= rules:
        return problem
    return "; ".join(parts[:rules]) + f"; … ({len(parts)} rules in all)"
