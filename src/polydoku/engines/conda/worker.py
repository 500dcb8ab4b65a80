"""Solve a conda channel with libsolv (PyPI `solv`) or resolvo (PyPI `py-rattler`), offline.

This file is run as a child process (`python worker.py TOOL CHANNEL [SPEC ...]`), never
imported by polydoku's engines: a tool that hangs or crashes (py-rattler has crashed at
interpreter exit after solving) then costs no answer, and the parent can kill it on a timeout.
It imports nothing from polydoku, so `polydoku export --to conda` copies it next to the channel
as `solve.py` for anyone to run by hand. It must not write anywhere but the `--json` file.

Usage: `python solve.py rattler|libsolv CHANNEL_DIR [SPEC ...] [--json FILE]`; without specs it
reads CHANNEL_DIR/specs.txt. Prints the packages chosen (or the tool's own explanation) and exits
0 solved, 1 the tool proved there is no solution, 3 error, 4 the tool gave up (timed out).

The PyPI `solv` wheel is built without conda support (`Pool.setdisttype(DISTTYPE_CONDA)` fails,
and there is no conda repodata reader), so the libsolv half reads `repodata.json` itself and
writes each match spec with libsolv's own version relations: `NAME !=V` as `NAME < V or > V`
(REL_LT|REL_GT), `NAME ==V` and `NAME=V` as `NAME = V` (REL_EQ; our versions are whole numbers,
so conda's fuzzy `=V`, that is `V.*`, is V alone). Other specs are refused, not guessed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import time
from pathlib import Path

EXIT = {"solved": 0, "unsatisfiable": 1, "error": 3, "unknown": 4}
SUBDIRS = ("noarch", "linux-64")
_SPEC = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(?:(!=|==|=|\s)\s*([0-9A-Za-z_.]+))?\s*$")


class SpecError(ValueError):
    """A match spec outside what the libsolv translation handles."""


def parse_spec(spec: str) -> tuple[str, str | None, str | None]:
    """Return (name, operator, version) of a spec `NAME`, `NAME !=V`, `NAME ==V`, `NAME=V`."""
    m = _SPEC.match(spec)
    if not m:
        raise SpecError(f"match spec {spec!r} is not NAME, NAME !=V, NAME ==V or NAME=V")
    name, op, version = m.groups()
    if op is not None and op.isspace():
        op = "=="        # `NAME V`: conda's exact form in depends
    return name, op, version


def read_records(channel: Path) -> list[dict]:
    """Return every package record of the channel's subdirs that exist."""
    records = []
    for subdir in SUBDIRS:
        path = channel / subdir / "repodata.json"
        if path.exists():
            data = json.loads(path.read_text(encoding="utf-8"))
            for key in ("packages", "packages.conda"):
                records.extend(data.get(key, {}).values())
    return records


# ---------------------------------------------------------------- libsolv

def _libsolv_dep(pool, spec: str, negate: bool = False):
    """Return a libsolv Dep for a spec (or for its negation, for `constrains`)."""
    import solv
    name, op, version = parse_spec(spec)
    dep = pool.Dep(name)
    if op is None:
        if negate:
            raise SpecError(f"constrains spec {spec!r} has no version")
        return dep
    equal = op in ("==", "=")
    if negate:
        equal = not equal
    flags = solv.REL_EQ if equal else solv.REL_LT | solv.REL_GT
    return dep.Rel(flags, pool.Dep(version))


def _libsolv_pool(records: list[dict]):
    """Return a libsolv pool holding the channel's packages (nothing installed)."""
    import solv
    pool = solv.Pool()
    pool.setarch()
    repo = pool.add_repo("channel")
    for rec in records:
        s = repo.add_solvable()
        s.name, s.evr, s.arch = rec["name"], f"{rec['version']}", "noarch"
        s.add_deparray(solv.SOLVABLE_PROVIDES, pool.Dep(s.name).Rel(solv.REL_EQ, pool.Dep(s.evr)))
        for spec in rec.get("depends", ()):
            s.add_deparray(solv.SOLVABLE_REQUIRES, _libsolv_dep(pool, spec))
        for spec in rec.get("constrains", ()):
            s.add_deparray(solv.SOLVABLE_CONFLICTS, _libsolv_dep(pool, spec, negate=True))
    repo.internalize()
    pool.installed = pool.add_repo("installed")
    pool.createwhatprovides()
    return pool


def _problem_text(problems) -> str:
    """Return libsolv's explanation as its `solv` tool prints it: each problem, then the ways
    out libsolv offers (for a puzzle: which requested givens to drop)."""
    lines = []
    for k, problem in enumerate(problems, start=1):
        lines += [f"Problem {k}/{len(problems)}:", f"  - {problem}"]
        for j, solution in enumerate(problem.solutions(), start=1):
            lines.append(f"  Solution {j}:")
            lines += [f"    - {element}" for element in solution.elements(True)]
    return "\n".join(lines)


def solve_libsolv(channel: Path, specs: list[str]) -> dict:
    """Return the result of solving `specs` against the channel with libsolv."""
    import solv
    t0 = time.perf_counter()
    pool = _libsolv_pool(read_records(channel))
    jobs = [pool.Job(solv.Job.SOLVER_INSTALL | solv.Job.SOLVER_SOLVABLE_PROVIDES,
                     _libsolv_dep(pool, spec).id) for spec in specs]
    t1 = time.perf_counter()
    solver = pool.Solver()
    problems = solver.solve(jobs)
    t2 = time.perf_counter()
    result = {"load_seconds": t1 - t0, "solve_seconds": t2 - t1}
    if problems:
        return dict(result, status="unsatisfiable", message=_problem_text(problems))
    chosen = solver.transaction().newsolvables()
    return dict(result, status="solved", installed=[[s.name, s.evr] for s in chosen])


# ---------------------------------------------------------------- rattler (resolvo)

def solve_rattler(channel: Path, specs: list[str], timeout: float | None) -> dict:
    """Return the result of solving `specs` against the channel with resolvo (py-rattler)."""
    import asyncio
    import datetime
    import rattler
    from rattler.exceptions import SolverError
    t0 = time.perf_counter()
    conda_channel = rattler.Channel(channel.resolve().as_uri())
    sources = [rattler.SparseRepoData(conda_channel, subdir, channel / subdir / "repodata.json")
               for subdir in SUBDIRS if (channel / subdir / "repodata.json").exists()]
    t1 = time.perf_counter()
    limit = datetime.timedelta(seconds=timeout) if timeout else None
    try:
        records = asyncio.run(rattler.solve_with_sparse_repodata(specs, sources, timeout=limit))
    except SolverError as err:
        text = str(err)
        status = "unsatisfiable" if text.startswith("Cannot solve the request") else "unknown"
        if status == "unknown" and timeout:
            text += f" (rattler's own time limit, {timeout:g}s)"
        return {"status": status, "message": text, "load_seconds": t1 - t0,
                "solve_seconds": time.perf_counter() - t1}
    return {"status": "solved", "load_seconds": t1 - t0, "solve_seconds": time.perf_counter() - t1,
            "installed": [[r.name.normalized, str(r.version)] for r in records]}


# ---------------------------------------------------------------- command line

DISTRIBUTION = {"rattler": "py-rattler", "libsolv": "solv"}


def tool_version(tool: str) -> str:
    """Return the installed version of the tool's Python distribution ("" when missing)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(DISTRIBUTION[tool])
    except PackageNotFoundError:
        return ""


def run(tool: str, channel: Path, specs: list[str], timeout: float | None) -> dict:
    """Return the result of one solve, errors included, with the tool and its version."""
    try:
        if tool == "libsolv":
            result = solve_libsolv(channel, specs)
        else:
            result = solve_rattler(channel, specs, timeout)
    except ImportError as err:
        result = {"status": "error", "message": f"{err} (pip install {DISTRIBUTION[tool]})"}
    except (SpecError, OSError, ValueError, KeyError) as err:
        result = {"status": "error", "message": f"{type(err).__name__}: {err}"}
    except Exception as err:     # the tool's own failure: report it, don't hide it
        result = {"status": "error", "message": f"{tool} failed: {type(err).__name__}: {err}"}
    result.update(tool=tool, version=tool_version(tool))
    return result


def report(result: dict) -> str:
    """Return the human-readable report of a result, conda-style."""
    if result["status"] == "solved":
        rows = sorted(result["installed"], key=lambda nv: _natural(nv[0]))
        return "\n".join(f"  {name}: {version}" for name, version in rows)
    return f"{result['status']}: {result.get('message', '')}"


def _natural(name: str) -> list:
    return [int(t) if t.isascii() and t.isdigit() else t for t in re.split(r"(\d+)", name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Solve a conda channel with libsolv or rattler.")
    parser.add_argument("tool", choices=("libsolv", "rattler"))
    parser.add_argument("channel", type=Path)
    parser.add_argument("specs", nargs="*", help="match specs (default: CHANNEL/specs.txt)")
    parser.add_argument("--json", type=Path, help="also write the result as JSON here")
    parser.add_argument("--timeout", type=float, default=None, help="seconds (rattler only)")
    args = parser.parse_args(argv)
    specs = args.specs or (args.channel / "specs.txt").read_text(encoding="utf-8").split()
    result = run(args.tool, args.channel, specs, args.timeout)
    if args.json:
        partial = args.json.with_suffix(".part")
        partial.write_text(json.dumps(result), encoding="utf-8")
        os.replace(partial, args.json)     # the parent sees the whole result or none
    try:
        print(report(result), flush=True)
    except BrokenPipeError:      # `| head`: the reader has what it wanted
        pass
    return EXIT[result["status"]]


if __name__ == "__main__":
    # os._exit skips interpreter teardown, where py-rattler has been seen to crash after
    # solving: the answer is written and flushed by then.
    os._exit(main())
