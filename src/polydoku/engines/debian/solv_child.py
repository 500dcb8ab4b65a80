"""libsolv on a Debian Packages file, run as a child process: `python solv_child.py PACKAGES ROOT`.

Standalone on purpose (the standard library and `solv` only, never polydoku): it runs under the
venv's Python with PyPI `solv`, or under the system Python with Debian's `python3-solv`, and the
runner gives it a timeout and a memory cap. It prints one JSON object: the packages libsolv would
install for the job "install ROOT", or libsolv's own problem text (a proof that none exists).

Debian's python3-solv is built with Debian support: `repo.add_debpackages` reads the Packages
file itself, in a pool of dist type deb. The PyPI wheel is built for RPM only (no
`add_debpackages`; `setdisttype(DISTTYPE_DEB)` fails), so there this script reads the paragraphs
itself and adds each package with the same Provides, Depends and Conflicts; unversioned names
and `(= V)`-style relations mean the same in both dist types.
"""

from __future__ import annotations

import json
import sys

import solv

_OPS = {"=": solv.REL_EQ, ">=": solv.REL_GT | solv.REL_EQ, "<=": solv.REL_LT | solv.REL_EQ,
        ">>": solv.REL_GT, "<<": solv.REL_LT, ">": solv.REL_GT, "<": solv.REL_LT}


def has_debian_reader() -> bool:
    """Return whether this libsolv reads Debian Packages files itself."""
    pool = solv.Pool()
    return hasattr(pool.add_repo("probe"), "add_debpackages") and \
        pool.setdisttype(solv.Pool.DISTTYPE_DEB) != -1


def paragraphs(text: str):
    """Yield each paragraph of a Packages file as {field: value} (continuation lines joined)."""
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        key = None
        for line in block.splitlines():
            if line[:1] in (" ", "\t") and key:
                fields[key] += " " + line.strip()
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
        if "Package" in fields:
            yield fields


def dep(pool, text: str):
    """Return the libsolv dependency of one relation `name`, `name (>= 1)` or `a | b`."""
    out = None
    for alt in text.split("|"):
        name, _, rest = alt.strip().partition("(")
        d = pool.Dep(name.strip().split(":")[0])
        if rest:
            op, _, version = rest.rstrip(") ").partition(" ")
            d = d.Rel(_OPS[op.strip()], pool.Dep(version.strip()))
        out = d if out is None else out.Rel(solv.REL_OR, d)
    return out


def add_parsed(pool, repo, text: str) -> None:
    """Add every paragraph of a Packages file to `repo` (for a libsolv without a Debian reader)."""
    for fields in paragraphs(text):
        s = repo.add_solvable()
        s.name, s.evr, s.arch = fields["Package"], fields.get("Version", "0"), "noarch"
        s.add_provides(pool.Dep(s.name).Rel(solv.REL_EQ, pool.Dep(s.evr)))
        for field, add in (("Provides", s.add_provides), ("Depends", s.add_requires),
                           ("Pre-Depends", s.add_requires), ("Conflicts", s.add_conflicts),
                           ("Breaks", s.add_conflicts)):
            for relation in filter(None, (r.strip() for r in fields.get(field, "").split(","))):
                add(dep(pool, relation))
    repo.internalize()


def solve(path: str, root: str) -> dict:
    """Return libsolv's answer for installing `root` from the Packages file at `path`."""
    pool = solv.Pool()
    native = has_debian_reader()
    if native:
        pool.setdisttype(solv.Pool.DISTTYPE_DEB)
    pool.setarch("amd64" if native else "x86_64")
    repo = pool.add_repo("puzzle")
    if native:
        handle = solv.xfopen(path)
        repo.add_debpackages(handle)
        handle.close()
    else:
        with open(path, encoding="utf-8") as f:
            add_parsed(pool, repo, f.read())
    pool.addfileprovides()
    pool.createwhatprovides()
    jobs = pool.select(root, solv.Selection.SELECTION_NAME).jobs(solv.Job.SOLVER_INSTALL)
    if not jobs:
        return {"reader": _reader(native), "problems": [f"no package named {root}"]}
    solver = pool.Solver()
    problems = solver.solve(jobs)
    if problems:
        return {"reader": _reader(native), "problems": [_problem_text(p, len(problems))
                                                        for p in problems]}
    installed = [s.name for s in solver.transaction().newsolvables()]
    return {"reader": _reader(native), "installed": installed}


def _reader(native: bool) -> str:
    return "add_debpackages" if native else "parsed"


def _problem_text(problem, total: int) -> str:
    """Return one libsolv problem as its own words: "Problem 1/1: - rule; - rule"."""
    rules = [r.info().problemstr() for r in problem.findallproblemrules()]
    return f"Problem {problem.id}/{total}: " + "; ".join(f"- {r}" for r in rules)


def main(argv: list[str]) -> int:
    if argv[1:2] == ["--probe"]:
        print(json.dumps({"reader": _reader(has_debian_reader())}))
        return 0
    print(json.dumps(solve(argv[1], argv[2])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
