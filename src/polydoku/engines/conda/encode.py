"""The conda encoder: a problem becomes a conda channel (`repodata.json`) and the match specs to
install. Pure: problem -> text; it must not run anything, touch files or solve anything.

The channel follows the conda write-up (asmeurer/sudoku): one package per cell, `RxC-is`
(1-based), with one version per value 1..N and build string `sudoku`; version v of a cell depends
on the `sudoku` metapackage and on `PEER-is !=v` for every peer; `sudoku` depends on every cell;
the givens are the specs `RxC-is=v` (for our versions, which are whole numbers, conda's fuzzy
`=v`, meaning `v.*`, matches v alone).

Any rule lowers to the same two mechanisms (`problem.lower`):
- a nogood x=a / y=b becomes the dependency `Y-is !=b` of version a of x (and `X-is !=a` of
  version b of y). As `sudoku` requires every cell, y is always installed, so "y is installed
  with a version other than b" is exactly "not y=b": the dependency is the nogood, no more;
- an n-ary table becomes a package `table-K` whose versions 1..T are its allowed tuples; version
  t depends on `VAR-is ==value` for each variable of tuple t, and `sudoku` depends on `table-K`.

Variants (`ENCODINGS`; `-o KNOB=VALUE` overrides a knob of `Encoding`):
- `faithful`: the write-up's channel, generalised as above; every cell publishes every value.
- `tuned`: the same rules, plus three honest changes. (1) What the givens settle is left out:
  a given cell publishes only its value, a value that a given's peer or nogood excludes is not
  published, and a spec that no published version could break (`Y-is !=b` where y has no version
  b) is dropped; this goes one step from the givens and no further. (2) `sudoku` is asked for
  directly, so cells need not depend on it, and it lists its dependencies fewest candidates
  first. (3) It also states that every unit (a row, column, box or diagonal of N cells) holds
  every value: a package `row-1-has-5` whose versions are the cells that could hold 5, version k
  depending on `CELL-is ==5`. That is a consequence of the rules, not a new one (N different
  values in N cells), and it gives the resolvers the "hidden single" step they cannot derive
  from `!=` specs alone; it is what turns minutes into milliseconds for libsolv on the miracle
  puzzle. The tool still does all of the solving.
- knob `nogoods=constrains` writes the nogood specs under conda's `constrains` ("if y is
  installed, it is not b") instead of `depends`: the same solutions, kept for comparison.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from ...problem import AllDifferent, Nogood, Problem, Table, lower

META = "sudoku"            # the metapackage, and the build string of every package
SUBDIR = "noarch"
EMPTY_SUBDIRS = ("linux-64", "linux-aarch64", "osx-64", "osx-arm64", "win-64")


@dataclass(frozen=True)
class Channel:
    """A conda channel for one problem: the noarch repodata and the specs to install."""

    repodata: dict
    specs: tuple[str, ...]
    names: tuple[str, ...]          # the package of each variable
    variant: str

    def files(self) -> dict[str, str]:
        """Return the channel's files, {relative path: text}: noarch plus empty platform subdirs."""
        out = {f"{SUBDIR}/repodata.json": dump(self.repodata)}
        for subdir in EMPTY_SUBDIRS:
            out[f"{subdir}/repodata.json"] = dump(_repodata(subdir, {}))
        return out

    @property
    def npackages(self) -> int:
        """Return the number of package records (versions) published."""
        return len(self.repodata["packages"])


def dump(obj: dict) -> str:
    """Return repodata as JSON text, one key per line (keys in the encoder's order)."""
    return json.dumps(obj, indent=1) + "\n"


def package_name(problem: Problem, var: int) -> str:
    """Return the package of a variable: `RxC-is` (1-based) for a cell, `vK-is` beyond the grid."""
    if var < problem.size * problem.size:
        r, c = problem.cell(var)
        return f"{r + 1}x{c + 1}-is"
    return f"v{var + 1}-is"


def given_specs(problem: Problem, names: tuple[str, ...] | None = None) -> list[str]:
    """Return the givens as conda match specs `RxC-is=v`, in row-major order."""
    names = names or tuple(package_name(problem, v) for v in range(problem.nvars))
    return [f"{names[var]}={value}" for var, value in problem.givens]


def _repodata(subdir: str, packages: dict) -> dict:
    return {"info": {"subdir": subdir}, "packages": packages, "packages.conda": {},
            "repodata_version": 1}


def _record(name: str, version: int | str, depends: list[str]) -> tuple[str, dict]:
    """Return the file name and record of one package version."""
    return (f"{name}-{version}-{META}.tar.bz2",
            {"build": META, "build_number": 0, "depends": depends, "name": name,
             "subdir": SUBDIR, "version": str(version)})


@dataclass(frozen=True)
class Encoding:
    """The knobs of the channel; `ENCODINGS` names the two variants, options can override."""

    prune: bool = False          # leave out what the givens settle (one step, no further)
    order: bool = False          # `sudoku` lists its dependencies fewest candidates first
    cells_need_meta: bool = True  # every cell version depends on `sudoku` (the write-up does)
    units: bool = False          # state that each unit holds every value (`row-1-has-5`)
    nogoods: str = "depends"     # `depends` (`Y-is !=b`) or `constrains` (the same spec there)

    def with_options(self, options: dict[str, str]) -> "Encoding":
        """Return the encoding with `-o knob=value` overrides (unknown knobs are bad input)."""
        changes: dict[str, Any] = {}
        for key, value in options.items():
            if key not in self.__dataclass_fields__:
                raise ValueError(f"unknown conda encoding option {key!r} "
                                 f"(known: {', '.join(self.__dataclass_fields__)})")
            if key == "nogoods":
                if value not in ("depends", "constrains"):
                    raise ValueError(f"option nogoods={value!r}: expected depends or constrains")
                changes[key] = value
            elif value.lower() in ("1", "true", "yes", "on", "0", "false", "no", "off"):
                changes[key] = value.lower() in ("1", "true", "yes", "on")
            else:
                raise ValueError(f"option {key}={value!r}: expected true or false")
        return replace(self, **changes)


ENCODINGS = {
    "faithful": Encoding(),
    "tuned": Encoding(prune=True, order=True, cells_need_meta=False, units=True),
}
VARIANTS = tuple(ENCODINGS)


def _domains(problem: Problem, peers: list[list[int]], nogoods: list[Nogood],
             prune: bool) -> list[list[int]]:
    """Return the values each variable publishes (all of them, or what the givens leave)."""
    if not prune:
        return [list(problem.domain(v)) for v in range(problem.nvars)]
    given = problem.given_map()
    out = [[given[v]] if v in given else list(problem.domain(v)) for v in range(problem.nvars)]
    for y, b in given.items():
        for x in peers[y]:
            if x not in given and b in out[x]:
                out[x].remove(b)
    for ng in nogoods:
        for x, a, y, b in ((ng.x, ng.a, ng.y, ng.b), (ng.y, ng.b, ng.x, ng.a)):
            if given.get(y) == b and x not in given and a in out[x]:
                out[x].remove(a)
    return out


def _peers(problem: Problem) -> list[list[int]]:
    """Return each variable's peers (the variables an AllDifferent keeps apart from it), sorted."""
    peers: list[list[int]] = [[] for _ in range(problem.nvars)]
    for x, y in problem.difference_pairs:
        peers[x].append(y)
        peers[y].append(x)
    return [sorted(p) for p in peers]


def _cell_records(problem, names, peers, domains, nogoods, enc: Encoding) -> dict[str, dict]:
    """Return the records of every published cell version, with its nogoods as specs.

    The peers of an AllDifferent give `PEER-is !=v` on version v (the write-up's list, in cell
    order); other nogoods x=a/y=b give `Y-is !=b` on version a of x, and `X-is !=a` on y's b.
    """
    published = [set(d) for d in domains]
    specs = [[f"{name} !={b}" for b in range(problem.max_domain + 1)] for name in names]
    extra: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for ng in nogoods:
        for x, a, y, b in ((ng.x, ng.a, ng.y, ng.b), (ng.y, ng.b, ng.x, ng.a)):
            if not (a == b and y in peers[x]):          # the peers list has it already
                extra.setdefault((x, a), []).append((y, b))
    packages = {}
    for x, dom in enumerate(domains):
        for a in dom:
            # with pruning, `Y-is !=b` is left out when y has no version b: it could not fail
            nots = [specs[y][a] for y in peers[x] if not enc.prune or a in published[y]]
            nots += [specs[y][b] for y, b in extra.get((x, a), ())
                     if not enc.prune or b in published[y]]
            depends = [META] if enc.cells_need_meta else []
            if enc.nogoods == "depends":
                key, record = _record(names[x], a, depends + nots)
            else:
                key, record = _record(names[x], a, depends)
                record["constrains"] = nots
            packages[key] = record
    return packages


def _choice_package(name: str, options: list[list[str]], packages: dict) -> tuple[int, str]:
    """Add a package whose version k depends on `options[k-1]`; return (versions, name)."""
    for k, depends in enumerate(options, start=1):
        key, record = _record(name, k, depends)
        packages[key] = record
    return len(options), name


def _slug(label: str, taken: set[str]) -> str:
    """Return a package-name-safe, unused form of a constraint label (`row 1` -> `row-1`)."""
    base = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-") or "unit"
    slug, k = base, 1
    while slug in taken:
        k += 1
        slug = f"{base}-{k}"
    taken.add(slug)
    return slug


def _unit_packages(problem, names, domains, packages) -> list[tuple[int, str]]:
    """Add `UNIT-has-V` packages (one version per cell that could hold V); return the members."""
    given, members = problem.given_map(), []
    taken: set[str] = set()
    for c in problem.constraints:
        if not (isinstance(c, AllDifferent) and len(c.vars) == problem.size):
            continue
        slug = _slug(c.label, taken)
        held = {given[x] for x in c.vars if x in given}
        for v in problem.values:
            if v not in held:      # a given already holds v here: nothing to state
                cells = [x for x in c.vars if v in domains[x]]
                members.append(_choice_package(f"{slug}-has-{v}",
                                               [[f"{names[x]} =={v}"] for x in cells], packages))
    return members


def encode(problem: Problem, variant: str = "faithful",
           options: dict[str, str] | None = None) -> Channel:
    """Return the conda channel and the specs of a problem in one of `VARIANTS` (with overrides)."""
    if variant not in ENCODINGS:
        raise ValueError(f"unknown conda encoding {variant!r}")
    enc = ENCODINGS[variant].with_options(options or {})
    # AllDifferent stays (peers are listed directly); sums become tables over auxiliaries,
    # which are packages like the cells (`vK-is`), versions 1..their domain size
    low = lower(problem, (AllDifferent,))
    nogoods = [c for c in low.constraints if isinstance(c, Nogood)]
    names = tuple(package_name(low, v) for v in range(low.nvars))
    peers = _peers(low)
    domains = _domains(low, peers, nogoods, enc.prune)
    packages = _cell_records(low, names, peers, domains, nogoods, enc)
    members = [(len(dom), names[x]) for x, dom in enumerate(domains)]
    tables = [c for c in low.constraints if isinstance(c, Table)]
    for k, table in enumerate(tables, start=1):
        allowed = [t for t in table.tuples
                   if all(v in domains[x] for x, v in zip(table.vars, t))]
        members.append(_choice_package(
            f"table-{k}", [[f"{names[x]} =={v}" for x, v in zip(table.vars, t)] for t in allowed],
            packages))
    if enc.units:
        members += _unit_packages(problem, names, domains, packages)
    if enc.order:
        members.sort(key=lambda m: m[0])    # stable: ties keep their order
    key, record = _record(META, 0, [name for _, name in members])
    packages = {key: record, **packages}
    specs = tuple(given_specs(low, names)) + (META,)
    return Channel(_repodata(SUBDIR, packages), specs, names, variant)
