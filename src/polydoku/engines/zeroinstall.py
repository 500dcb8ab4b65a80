"""The `0install` engine: Zero Install's SAT-based solver selects implementations from local feed
files, offline: `0install select --offline --xml --command= puzzle.xml`.

Feed `sudoku-r1c1.xml` is cell r1c1 and its implementation of version `V.0.0` says the cell
holds V. Exclusions use 0install's own word for "if that one is selected, not this version":
the implementation of V has `<restricts interface="…/sudoku-r1c2.xml" version="!V.0.0"/>` for
each peer. A table is a feed `sudoku-tableK.xml` whose implementations `<requires>` the cells
of one allowed tuple exactly. The root feed `sudoku-puzzle.xml` requires every cell (givens
pinned) and every table. Feeds are local files named by absolute path; every implementation
is a `local-path` (an empty folder), so nothing is ever downloaded, and `--command=` selects
without a program to run. HOME and the XDG dirs (0install's config and cache) are inside the
sandbox.

0install's solver is a SAT solver: "Can't find all required implementations" is its proof
that no grid exists, with the rejected candidates as its reasons.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from xml.etree import ElementTree as ET

from ..model import Puzzle
from ..problem import build_problem
from .base import Status
from .pypi.encode import ROOT_NAME, Index, build_index
from .resolvers import ResolverEngine, ToolRun, after, excerpt, value

NS = "http://zero-install.sourceforge.net/2004/injector/interface"
FEEDS = "feeds"
EMPTY = "impl"


def feed_path(base: str, project: str) -> str:
    """Return the absolute path (the interface URI) of a project's feed under `base`."""
    return f"{base}/{FEEDS}/{project}.xml"


def _feed(name: str, summary: str) -> ET.Element:
    feed = ET.Element(f"{{{NS}}}interface")
    ET.SubElement(feed, f"{{{NS}}}name").text = name
    ET.SubElement(feed, f"{{{NS}}}summary").text = summary
    return feed


def _implementation(feed: ET.Element, ident: str, ver: str, base: str) -> ET.Element:
    return ET.SubElement(feed, f"{{{NS}}}implementation",
                         {"id": ident, "version": ver, "local-path": f"{base}/{EMPTY}"})


def feeds(index: Index, base: str) -> dict[str, bytes]:
    """Return every feed by relative path, its URIs and local paths rooted at `base`."""
    ET.register_namespace("", NS)
    out: dict[str, bytes] = {}
    for project in index.projects:
        feed = _feed(project.name, f"polydoku: {project.name}")
        for release in project.releases:
            impl = _implementation(feed, f"v{release.version}", release.version, base)
            for name, spec in release.requires:
                if spec.startswith("!="):
                    for s in spec.split(","):
                        ET.SubElement(impl, f"{{{NS}}}restricts",
                                      {"interface": feed_path(base, name), "version": "!" + s[2:]})
                else:
                    attrs = {"interface": feed_path(base, name)}
                    if spec.startswith("=="):
                        attrs["version"] = spec[2:]
                    ET.SubElement(impl, f"{{{NS}}}requires", attrs)
        out[f"{FEEDS}/{project.name}.xml"] = ET.tostring(feed, encoding="utf-8",
                                                         xml_declaration=True)
    root = _feed(ROOT_NAME, f"polydoku: {index.title} ({index.encoding} encoding)")
    impl = _implementation(root, "puzzle", "0", base)
    for name, spec in index.root:
        attrs = {"interface": feed_path(base, name)}
        if spec.startswith("=="):
            attrs["version"] = spec[2:]
        ET.SubElement(impl, f"{{{NS}}}requires", attrs)
    out[f"{FEEDS}/{ROOT_NAME}.xml"] = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return out


def command(base: str) -> list[str]:
    """Return the arguments of the selection: offline, XML out, no command to run."""
    return ["select", "--offline", "--xml", "--command=", feed_path(base, ROOT_NAME)]


class ZeroInstallEngine(ResolverEngine):
    """Zero Install 2: `0install select --offline` over local feed files."""

    id = "0install"
    title = "0install select --offline over local feed files (<restricts> for exclusions)"
    install_hint = "apt-get install 0install-core (python3 tasks.py setup does it)"
    program = "0install"
    tool = "0install"

    def run_tool(self, box, index, timeout):
        base = str(box.path)
        for relpath, data in feeds(index, base).items():
            box.write(relpath, data)
        (box.path / EMPTY).mkdir(exist_ok=True)
        run = box.run([self.program, *command(base)], timeout=timeout,
                      memory_mb=self.memory_mb(), name="0install")
        return ToolRun([run], run.stdout if run.returncode == 0 else None, box.path / FEEDS)

    def pins(self, answer, index):
        out: dict[str, int] = {}
        for sel in ET.fromstring(answer).iter(f"{{{NS}}}selection"):
            name = Path(sel.get("interface", "")).stem
            if name in out:
                raise ValueError(f"two selections of {name}")
            if name != ROOT_NAME:
                out[name] = value(sel.get("version", ""))
        return out

    def failure(self, output):
        if "Can't find all required implementations" in output:
            return Status.UNSATISFIABLE, excerpt(after(output,
                                                       "Can't find all required implementations"))
        return super().failure(output)


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the feeds (URIs under @PWD@, set by the README's first command) and a README."""
    from .exports import export_options, write_files
    encoding, _ = export_options(options)
    index = build_index(build_problem(puzzle), encoding)
    files: dict[str, bytes | str] = dict(feeds(index, "@PWD@"))
    run = shlex.join(["0install", *command("@PWD@")]).replace("@PWD@", '"$PWD"')
    files["README.md"] = f"""# {index.title}: a Sudoku for 0install

`feeds/` holds one feed per cell ({index.encoding} encoding): feed `sudoku-rRcC.xml` is cell
rRcC, its implementation of version `V.0.0` says the cell holds V, and `<restricts>` keeps
each peer off V. `sudoku-puzzle.xml` requires every cell, the givens pinned. Feeds name each
other by absolute path, so the first command writes this folder's path into them.

```sh
sed -i "s#@PWD@#$PWD#g" feeds/*.xml && mkdir -p {EMPTY}
{run}
```

The selections name one version per cell feed: the solution. When the puzzle has none,
0install says "Can't find all required implementations" and lists the rejected candidates.
"""
    return write_files(out, files)
