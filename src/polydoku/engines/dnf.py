"""The `dnf` engine: Fedora's dnf (libsolv inside) resolves an install of `sudoku-puzzle` from
an rpm-md repository in the sandbox, into an empty private installroot, and stops before the
transaction (`--assumeno`).

The repository is what dnf reads natively: `repodata/repomd.xml` and `primary.xml.gz`, one
`<package>` per release of the virtual index. Package `sudoku-r1c1` is cell r1c1 and its
version `V.0.0` says the cell holds V; RPM keeps one version of a name installed. Exclusions
use RPM's own word: release V of a cell has `<rpm:conflicts>` entries `sudoku-r1c2 = V.0.0`
for each peer. A table is a package `sudoku-tableK` whose versions require the cells of one
allowed tuple exactly. `sudoku-puzzle` requires every cell (givens pinned) and every table.
The RPM files themselves are never needed: dnf resolves from the metadata, and `--assumeno`
ends the run before any download.

Sandboxing: `--installroot`, `--config` (a file of ours: no host repositories), cache, logs and
persistence dirs all in the sandbox, `--setopt=reposdir=` pointing at our one `.repo` file,
`--releasever`, and `--nogpgcheck`. The host's rpmdb and dnf state are never read or written.

libsolv is complete: "nothing provides" or a "Problem:" block is a proof that no grid exists.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import shlex
from pathlib import Path
from xml.etree import ElementTree as ET

from ..model import Puzzle
from ..problem import build_problem
from .base import Availability, Status
from .pypi.encode import ROOT_NAME, Index, build_index
from .resolvers import ResolverEngine, ToolRun, after, excerpt, value

COMMON = "http://linux.duke.edu/metadata/common"
RPM = "http://linux.duke.edu/metadata/rpm"
REPO = "http://linux.duke.edu/metadata/repo"
ARCH = "noarch"
RELEASE = "1"


def _entry(parent: ET.Element, name: str, ver: str | None = None) -> None:
    attrs = {"name": name}
    if ver is not None:
        attrs.update({"flags": "EQ", "epoch": "0", "ver": ver})
    ET.SubElement(parent, f"{{{RPM}}}entry", attrs)


def _package(meta: ET.Element, name: str, ver: str, summary: str,
             requires: list[tuple[str, str | None]], conflicts: list[tuple[str, str]]) -> None:
    pkg = ET.SubElement(meta, f"{{{COMMON}}}package", {"type": "rpm"})
    ET.SubElement(pkg, f"{{{COMMON}}}name").text = name
    ET.SubElement(pkg, f"{{{COMMON}}}arch").text = ARCH
    ET.SubElement(pkg, f"{{{COMMON}}}version", {"epoch": "0", "ver": ver, "rel": RELEASE})
    pkgid = hashlib.sha256(f"{name}-{ver}".encode()).hexdigest()
    ET.SubElement(pkg, f"{{{COMMON}}}checksum", {"type": "sha256", "pkgid": "YES"}).text = pkgid
    ET.SubElement(pkg, f"{{{COMMON}}}summary").text = summary
    ET.SubElement(pkg, f"{{{COMMON}}}description").text = summary
    ET.SubElement(pkg, f"{{{COMMON}}}time", {"file": "0", "build": "0"})
    ET.SubElement(pkg, f"{{{COMMON}}}size", {"package": "0", "installed": "0", "archive": "0"})
    ET.SubElement(pkg, f"{{{COMMON}}}location",
                  {"href": f"packages/{name}-{ver}-{RELEASE}.{ARCH}.rpm"})
    fmt = ET.SubElement(pkg, f"{{{COMMON}}}format")
    ET.SubElement(fmt, f"{{{RPM}}}license").text = "CC0"
    provides = ET.SubElement(fmt, f"{{{RPM}}}provides")
    _entry(provides, name, ver)
    if requires:
        req = ET.SubElement(fmt, f"{{{RPM}}}requires")
        for dep, dver in requires:
            _entry(req, dep, dver)
    if conflicts:
        con = ET.SubElement(fmt, f"{{{RPM}}}conflicts")
        for dep, dver in conflicts:
            _entry(con, dep, dver)


def primary_xml(index: Index) -> bytes:
    """Return primary.xml: every release of the index and the root package."""
    ET.register_namespace("", COMMON)
    ET.register_namespace("rpm", RPM)
    meta = ET.Element(f"{{{COMMON}}}metadata")
    count = 0
    for project in index.projects:
        for release in project.releases:
            requires: list[tuple[str, str | None]] = []
            conflicts: list[tuple[str, str]] = []
            for name, spec in release.requires:
                if spec.startswith("!="):
                    conflicts += [(name, s[2:]) for s in spec.split(",")]
                else:
                    requires.append((name, spec[2:] if spec.startswith("==") else None))
            _package(meta, project.name, release.version, release.summary, requires, conflicts)
            count += 1
    root = [(name, spec[2:] if spec.startswith("==") else None) for name, spec in index.root]
    _package(meta, ROOT_NAME, "0.0.0",
             f"polydoku: {index.title} ({index.encoding} encoding)", root, [])
    meta.set("packages", str(count + 1))
    return ET.tostring(meta, encoding="utf-8", xml_declaration=True)


def repodata(index: Index) -> dict[str, bytes]:
    """Return the repository's metadata files by relative path (repodata/…)."""
    xml = primary_xml(index)
    packed = gzip.compress(xml, mtime=0)
    ET.register_namespace("", REPO)
    repomd = ET.Element(f"{{{REPO}}}repomd")
    ET.SubElement(repomd, f"{{{REPO}}}revision").text = "1"
    data = ET.SubElement(repomd, f"{{{REPO}}}data", {"type": "primary"})
    ET.SubElement(data, f"{{{REPO}}}checksum", {"type": "sha256"}).text = \
        hashlib.sha256(packed).hexdigest()
    ET.SubElement(data, f"{{{REPO}}}open-checksum", {"type": "sha256"}).text = \
        hashlib.sha256(xml).hexdigest()
    ET.SubElement(data, f"{{{REPO}}}location", {"href": "repodata/primary.xml.gz"})
    ET.SubElement(data, f"{{{REPO}}}timestamp").text = "0"
    ET.SubElement(data, f"{{{REPO}}}size").text = str(len(packed))
    ET.SubElement(data, f"{{{REPO}}}open-size").text = str(len(xml))
    return {"repodata/primary.xml.gz": packed,
            "repodata/repomd.xml": ET.tostring(repomd, encoding="utf-8", xml_declaration=True)}


def config(base: str) -> str:
    """Return dnf.conf and the .repo file's text for a sandbox rooted at `base`."""
    return (f"[main]\ngpgcheck=0\ninstallonly_limit=3\nclean_requirements_on_remove=False\n"
            f"best=False\nskip_if_unavailable=False\nreposdir={base}/repos.d\n"
            f"cachedir={base}/cache\nlogdir={base}/log\npersistdir={base}/persist\n"
            f"keepcache=0\nmetadata_expire=-1\nplugins=0\ninstall_weak_deps=0\n")


def repo_file(base: str) -> str:
    return (f"[sudoku]\nname=polydoku puzzle\nbaseurl=file://{base}/repo\nenabled=1\n"
            f"gpgcheck=0\nmetadata_expire=-1\n")


def command(base: str) -> list[str]:
    """Return dnf's arguments: resolve an install of the root into the private installroot."""
    return ["--config", f"{base}/dnf.conf", "--installroot", f"{base}/root",
            "--releasever", "1", "--setopt", f"reposdir={base}/repos.d", "--disablerepo", "*",
            "--enablerepo", "sudoku", "--nogpgcheck", "--noplugins", "-y", "--assumeno",
            "--color", "never", "install", ROOT_NAME]


_ROW = re.compile(r"^\s*(sudoku-\S+)\s+noarch\s+(\S+)\s+sudoku\b")


class DnfEngine(ResolverEngine):
    """dnf 4: `dnf install --assumeno` into a private installroot from an rpm-md repository."""

    id = "dnf"
    title = "dnf install --assumeno into a private installroot from an rpm-md repository"
    install_hint = "apt-get install dnf (python3 tasks.py setup does it)"
    program = "dnf"
    tool = "dnf"
    needs_root = True

    def available(self):
        if os.geteuid() != 0:
            return Availability(False, reason="dnf runs only as root (it refuses other users, "
                                              "even in a private installroot)",
                                hint="run polydoku as root (e.g. with sudo)")
        return super().available()

    def run_tool(self, box, index, timeout):
        base = str(box.path)
        for relpath, data in repodata(index).items():
            box.write(f"repo/{relpath}", data)
        box.write("dnf.conf", config(base))
        box.write("repos.d/sudoku.repo", repo_file(base))
        for sub in ("root", "cache", "log", "persist"):
            (box.path / sub).mkdir(exist_ok=True)
        run = box.run([self.program, *command(base)], timeout=timeout, memory_mb=self.memory_mb(),
                      name="dnf")
        # --assumeno ends with "Operation aborted." and exit 1 once the transaction was shown
        answer = run.stdout if "Operation aborted" in run.output else None
        if answer is not None:
            run.returncode = 0
        return ToolRun([run], answer, box.path / "repo")

    def pins(self, answer, index):
        cells = {name for name, _ in index.cells}
        out: dict[str, int] = {}
        for line in answer.splitlines():
            m = _ROW.match(line)
            if m and m[1] in cells:
                if m[1] in out:
                    raise ValueError(f"two versions of {m[1]} in the transaction")
                out[m[1]] = value(m[2])
        return out

    def failure(self, output):
        if "Problem:" in output or "Problem 1:" in output or "nothing provides" in output:
            return Status.UNSATISFIABLE, excerpt(after(output, "Problem"))
        return super().failure(output)


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the rpm-md repository and a README with the command (option encoding=…)."""
    from .exports import export_options, write_files
    encoding, _ = export_options(options)
    index = build_index(build_problem(puzzle), encoding)
    files: dict[str, bytes | str] = {f"repo/{k}": v for k, v in repodata(index).items()}
    files["dnf.conf.in"] = config("@PWD@")
    files["repos.d.in"] = repo_file("@PWD@")
    run = shlex.join(["dnf", *command("@PWD@")]).replace("@PWD@", '"$PWD"')
    files["README.md"] = f"""# {index.title}: a Sudoku for dnf

`repo/` is an rpm-md repository ({index.encoding} encoding): package `sudoku-rRcC` is cell rRcC,
its version `V.0.0` says the cell holds V, and each version conflicts with its peers holding V.
`sudoku-puzzle` requires every cell, the givens pinned. Only the metadata is there: dnf
resolves from it, and `--assumeno` stops before any download or install; its config, cache,
logs and installroot are folders here, so the machine's own package state is not touched.

```sh
mkdir -p repos.d root cache log persist
sed "s#@PWD@#$PWD#g" dnf.conf.in > dnf.conf
sed "s#@PWD@#$PWD#g" repos.d.in > repos.d/sudoku.repo
{run}
```

The transaction table lists `sudoku-rRcC noarch V.0.0-1`: cell rRcC holds V. When the puzzle
has no solution, dnf prints the "Problem:" libsolv found.
"""
    return write_files(out, files)
