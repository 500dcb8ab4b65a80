"""The Python packaging encoder: problem -> virtual index -> wheels, simple index, pyproject text.

One project per cell, `sudoku-r1c1` (the cell's name, so it works at any size: `sudoku-r1c10`),
with one release per value, `V.0.0`. Release V of a cell requires every peer `!= V.0.0`: each
lowered nogood x=a/y=b becomes `y != b.0.0` in release a of x (and `x != a.0.0` in release b of
y). An n-ary table becomes a project `sudoku-tableK` whose releases are its allowed tuples, each
requiring its cells `== v.0.0`. The root requires every cell (givens pinned `== V.0.0`) and every
table.

Encodings: `faithful` publishes every value of every cell, both directions of every nogood,
root requirements in row-major order (the write-ups' form). `tuned` prunes each cell's values by
the givens (a value a given peer holds is never published), drops requirements that the pruned
index already keeps, and lists the root requirements fewest-values first.

Pure: functions return text, or bytes keyed by relative path; nothing here writes files, opens
sockets or runs programs (the runner does).
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import zipfile
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...problem import Problem, Table, domains, lower, nogood_partners
from ...text import label

PREFIX = "sudoku-"
ROOT_NAME = "sudoku-puzzle"
ENCODINGS = ("faithful", "tuned")
PLACEHOLDER_URL = "http://127.0.0.1:8000/simple/"
_EPOCH = (1980, 1, 1, 0, 0, 0)     # fixed zip timestamps keep wheels byte-for-byte stable

Requirement = tuple[str, str]       # (project name, specifier such as "!=5.0.0" or "")


@dataclass(frozen=True)
class Release:
    """One version of a project and what it requires."""

    version: str
    requires: tuple[Requirement, ...]
    summary: str


@dataclass(frozen=True)
class Project:
    """A project of the index: a cell or a table, with its releases in publishing order."""

    name: str
    releases: tuple[Release, ...]


@dataclass(frozen=True)
class Index:
    """The virtual package index of a problem, and the root requirements that pose it."""

    projects: tuple[Project, ...]
    root: tuple[Requirement, ...]
    cells: tuple[tuple[str, int], ...]      # (project name, variable) for each cell project
    encoding: str
    title: str

    @cached_property
    def by_name(self) -> dict[str, Project]:
        """Return the projects by name."""
        return {p.name: p for p in self.projects}

    def releases(self) -> int:
        """Return how many releases the index publishes."""
        return sum(len(p.releases) for p in self.projects)

    def figures(self) -> dict[str, Any]:
        """Return the encoding and the number of releases, for an outcome's statistics."""
        return {"encoding": self.encoding, "releases": self.releases()}

    @cached_property
    def variable_of(self) -> dict[str, int]:
        """Return the variable of each cell project."""
        return dict(self.cells)


def version(value: int) -> str:
    """Return the version string of a value: 5 -> "5.0.0"."""
    return f"{value}.0.0"


def value_of(version_text: str) -> int:
    """Return the value a version string stands for: "5.0.0" -> 5, "5" -> 5."""
    return int(version_text.split(".", 1)[0])


def requirement_text(req: Requirement) -> str:
    """Return a requirement as PEP 508 text: `sudoku-r1c2!=5.0.0`."""
    return req[0] + req[1]


def project_name(problem: Problem, var: int) -> str:
    """Return the project name of a variable: `sudoku-r1c1` for a cell, `sudoku-aux-K` beyond."""
    if var >= problem.ncells:
        return f"{PREFIX}aux-{var - problem.ncells + 1}"
    return PREFIX + problem.name(var).lower()


def _lowered(problem: Problem) -> Problem:
    return lower(problem, ())


def _not_in(values: set[int] | tuple[int, ...]) -> str:
    return ",".join(f"!={version(b)}" for b in sorted(values))


def cell_project(problem: Problem, var: int, doms: list[tuple[int, ...]],
                 partners: dict[tuple[int, int], dict[int, set[int]]], encoding: str) -> Project:
    """Return the project of one cell: a release per published value, requiring its peers."""
    name, releases = project_name(problem, var), []
    for a in doms[var]:
        reqs = []
        for y, bs in sorted(partners.get((var, a), {}).items()):
            if encoding == "tuned":
                bs = bs & set(doms[y])
            if bs:
                reqs.append((project_name(problem, y), _not_in(bs)))
        releases.append(Release(version(a), tuple(reqs),
                                f"polydoku: cell {problem.name(var)} holds {a}"))
    return Project(name, tuple(releases))


def table_project(problem: Problem, k: int, table: Table, doms: list[tuple[int, ...]]) -> Project:
    """Return the project of a table: a release per allowed tuple, pinning its cells."""
    releases = []
    for t, values in enumerate(table.tuples, start=1):
        if all(v in doms[x] for x, v in zip(table.vars, values)):
            reqs = tuple((project_name(problem, x), f"=={version(v)}")
                         for x, v in zip(table.vars, values))
            releases.append(Release(version(t), reqs,
                                    f"polydoku: {table.label or 'table'} allows {values}"))
    return Project(f"{PREFIX}table{k}", tuple(releases))


def build_index(problem: Problem, encoding: str = "faithful") -> Index:
    """Return the virtual package index of a problem in one of the ENCODINGS."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r} (known: {', '.join(ENCODINGS)})")
    # sums become tables over auxiliary variables, which are projects like the cells
    # (`sudoku-<rule>_<k>_...`, named from the rule kind, never from puzzle text)
    lowered = _lowered(problem)
    title = label(problem.puzzle.name if problem.puzzle is not None else None)
    problem = lowered
    partners = nogood_partners(lowered)
    doms = domains(problem, encoding != "faithful", partners)
    cells = [cell_project(problem, v, doms, partners, encoding) for v in range(problem.nvars)]
    tables = [table_project(problem, k, c, doms)
              for k, c in enumerate((c for c in lowered.constraints if isinstance(c, Table)),
                                    start=1)]
    given = problem.given_map()
    order = list(range(problem.nvars))
    if encoding == "tuned":
        order.sort(key=lambda v: (len(doms[v]), v))
    root = [(cells[v].name, f"=={version(given[v])}" if v in given else "") for v in order]
    root += [(t.name, "") for t in tables]
    return Index(tuple(cells + tables), tuple(root),
                 tuple((cells[v].name, v) for v in range(problem.nvars)), encoding, title)


# --- wheels -------------------------------------------------------------------------------

def dist_name(name: str) -> str:
    """Return a project name as wheel file names spell it: `sudoku-r1c1` -> `sudoku_r1c1`."""
    return re.sub(r"[-_.]+", "_", name).lower()


def wheel_filename(name: str, release: Release) -> str:
    """Return the file name of a release's wheel."""
    return f"{dist_name(name)}-{release.version}-py3-none-any.whl"


def metadata_text(name: str, release: Release) -> str:
    """Return the METADATA of a release (core metadata 2.1 with Requires-Dist lines)."""
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {release.version}",
             f"Summary: {release.summary}"]
    lines += [f"Requires-Dist: {requirement_text(r)}" for r in release.requires]
    return "\n".join(lines) + "\n"


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def wheel_bytes(name: str, release: Release) -> bytes:
    """Return a tiny wheel of a release: METADATA, WHEEL and RECORD, stored uncompressed."""
    info = f"{dist_name(name)}-{release.version}.dist-info"
    files = {f"{info}/METADATA": metadata_text(name, release).encode(),
             f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: polydoku\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n"}
    record = "".join(f"{path},{_record_hash(data)},{len(data)}\n" for path, data in files.items())
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for path, data in files.items():
            entry = zipfile.ZipInfo(path, _EPOCH)
            entry.external_attr = 0o644 << 16
            zf.writestr(entry, data)
    return buf.getvalue()


def wheels(index: Index, folder: str = "wheels") -> dict[str, bytes]:
    """Return every release's wheel keyed by `folder/FILE.whl` (a --find-links folder)."""
    return {f"{folder}/{wheel_filename(p.name, r)}": wheel_bytes(p.name, r)
            for p in index.projects for r in p.releases}


def requirements_txt(index: Index) -> str:
    """Return the root requirements as a pip requirements file."""
    head = f"# polydoku: {index.title} ({index.encoding} encoding); givens pinned with ==\n"
    return head + "".join(requirement_text(r) + "\n" for r in index.root)


# --- PEP 503 simple index -----------------------------------------------------------------

def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def simple_index(index: Index, folder: str = "simple") -> dict[str, bytes]:
    """Return a PEP 503 simple index: project pages, wheels and PEP 658 `.metadata` files."""
    out: dict[str, bytes] = {}
    head = ('<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0">'
            '<title>{}</title></head><body>\n')
    listing = [head.format("Simple index")]
    for p in index.projects:
        listing.append(f'<a href="{p.name}/">{p.name}</a><br>\n')
        page = [head.format(f"Links for {p.name}")]
        for r in p.releases:
            fname, meta = wheel_filename(p.name, r), metadata_text(p.name, r).encode()
            whl = wheel_bytes(p.name, r)
            out[f"{folder}/{p.name}/{fname}"] = whl
            out[f"{folder}/{p.name}/{fname}.metadata"] = meta
            mhash = f"sha256={_sha256(meta)}"
            page.append(f'<a href="{fname}#sha256={_sha256(whl)}" data-dist-info-metadata="{mhash}"'
                        f' data-core-metadata="{mhash}">{fname}</a><br>\n')
        out[f"{folder}/{p.name}/index.html"] = "".join(page + ["</body></html>\n"]).encode()
    out[f"{folder}/index.html"] = "".join(listing + ["</body></html>\n"]).encode()
    return out


# --- pyproject.toml -----------------------------------------------------------------------

def _description(index: Index) -> str:
    return f"polydoku: {index.title} as Python packages ({index.encoding} encoding)"


def pyproject_poetry(index: Index, url: str = PLACEHOLDER_URL) -> str:
    """Return a Poetry-form pyproject.toml of the root, reading only the index at `url`."""
    deps = "".join(f'{name} = {{ version = "{spec or "*"}", source = "sudoku" }}\n'
                   for name, spec in index.root)
    return (f'[tool.poetry]\nname = "{ROOT_NAME}"\nversion = "0.0.0"\n'
            f'description = "{_description(index)}"\nauthors = []\npackage-mode = false\n\n'
            f'[tool.poetry.dependencies]\npython = ">=3.8"\n{deps}\n'
            f'[[tool.poetry.source]]\nname = "sudoku"\nurl = "{url}"\npriority = "primary"\n')


def pyproject_pep621(index: Index, url: str = PLACEHOLDER_URL) -> str:
    """Return a PEP 621 pyproject.toml of the root (with PDM's source pointing at `url`)."""
    deps = "".join(f'    "{requirement_text(r)}",\n' for r in index.root)
    return (f'[project]\nname = "{ROOT_NAME}"\nversion = "0.0.0"\n'
            f'description = "{_description(index)}"\nrequires-python = ">=3.8"\n'
            f'dependencies = [\n{deps}]\n\n'
            f'[tool.pdm]\ndistribution = false\n\n'
            f'[[tool.pdm.source]]\nname = "pypi"\nurl = "{url}"\nverify_ssl = false\n')
