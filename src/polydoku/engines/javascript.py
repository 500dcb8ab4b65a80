"""The JavaScript package managers: `npm`, `pnpm`, `yarn` (Yarn 1), `yarn-berry` (Yarn 4) and
`bun`, each resolving a project against an npm registry that polydoku serves on 127.0.0.1.

None of these tools backtracks over versions, so none solves a Sudoku by search; what they can
do honestly is shown here. With plain `dependencies`, a package whose range is not met at the
top gets its own nested copy, so a cell ends up with two versions (the seed's Yarn failure).
So exclusions are **peerDependencies**: version V of cell `sudoku-r1c1` names each peer with
a range that leaves V out (`<5.0.0 || >5.0.0`), and a peer is the one copy at the top. A table
is a package `sudoku-tableK` whose versions peer-depend on the cells of one allowed tuple. The
root `package.json` depends on every cell (givens pinned) and every table.

Each tool picks one version per dependency (the highest its range allows) and then checks the
peers: when the tuned encoding leaves one version per cell a valid grid comes out; otherwise
the tool stops with its own peer-conflict words, which polydoku reports as "gave up" (exit 4).
The lockfile is always read back and checked: a lock with two versions of a cell, or one
whose versions break the rules (a tool that only warns about peers), is never a solution.

`overrides`/`resolutions` are never written: they erase the constraints. Every run has its own
cache, config and home inside the sandbox, and reads only the registry on 127.0.0.1.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import io
import json
import re
import shutil
import tarfile
from pathlib import Path
from typing import ClassVar

from ..errors import BadInput
from ..model import Puzzle
from ..problem import build_problem
from .base import Availability, Option, Outcome, Status
from .pypi.encode import ROOT_NAME, Index, build_index
from .resolvers import ResolverEngine, ToolRun, excerpt, last_lines, value
from .localhost import QuietHandler, serve
from .sandbox import Sandbox, find_program

TOOLS_DIR = "tools/js/node_modules"        # under the venv: deps/js/package.json
EPOCH = "2000-01-01T00:00:00.000Z"


# --- the registry -------------------------------------------------------------------------------

def excluding(values: list[str]) -> str:
    """Return a semver range that allows every version but these: `<3.0.0 || >3.0.0 <5.0.0 || >5.0.0`."""
    vs = sorted(values, key=lambda v: tuple(int(x) for x in v.split(".")))
    parts = [f"<{vs[0]}"] + [f">{a} <{b}" for a, b in zip(vs, vs[1:])] + [f">{vs[-1]}"]
    return " || ".join(parts)


def manifests(index: Index) -> dict[str, dict[str, dict]]:
    """Return name -> version -> package.json of every release (peer form)."""
    out: dict[str, dict[str, dict]] = {}
    for project in index.projects:
        versions = out.setdefault(project.name, {})
        for release in project.releases:
            peers = {}
            for name, spec in release.requires:
                if spec.startswith("!="):
                    peers[name] = excluding([s[2:] for s in spec.split(",")])
                elif spec.startswith("=="):
                    peers[name] = spec[2:]
                else:
                    peers[name] = "*"
            manifest: dict = {"name": project.name, "version": release.version,
                        "description": release.summary, "license": "CC0-1.0"}
            if peers:
                manifest["peerDependencies"] = peers
            versions[release.version] = manifest
    return out


def tarball(manifest: dict) -> bytes:
    """Return a package tarball: `package/package.json`, with fixed times (stable bytes)."""
    data = json.dumps(manifest, indent=1).encode()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.USTAR_FORMAT) as tar:
        info = tarfile.TarInfo("package/package.json")
        info.size, info.mtime, info.mode = len(data), 0, 0o644
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def registry_files(index: Index, url: str) -> dict[str, bytes]:
    """Return the registry's files by path: the packument of package NAME at `NAME` (what a
    client asks for, `GET /NAME`), its tarballs in `-/`; any static file server can serve it."""
    out: dict[str, bytes] = {}
    for name, versions in manifests(index).items():
        # publication times long past: Yarn 4 quarantines versions it cannot date
        doc: dict = {"name": name, "versions": {}, "dist-tags": {},
                     "time": {"created": EPOCH, "modified": EPOCH}}
        for ver, manifest in versions.items():
            tgz = tarball(manifest)
            path = f"-/{name}-{ver}.tgz"
            out[path] = tgz
            integrity = "sha512-" + base64.b64encode(hashlib.sha512(tgz).digest()).decode()
            doc["versions"][ver] = {**manifest, "dist": {
                "tarball": f"{url}/{path}", "shasum": hashlib.sha1(tgz).hexdigest(),
                "integrity": integrity}}
            doc["time"][ver] = EPOCH
        latest = max(versions, key=lambda v: tuple(int(x) for x in v.split(".")))
        doc["dist-tags"]["latest"] = latest
        out[name] = json.dumps(doc).encode()
    return out


def package_json(index: Index) -> dict:
    """Return the root project's package.json: every cell (givens pinned) and every table."""
    deps = {name: spec[2:] if spec.startswith("==") else "*" for name, spec in index.root}
    return {"name": ROOT_NAME, "version": "0.0.0", "private": True, "license": "CC0-1.0",
            "description": f"polydoku: {index.title} ({index.encoding} encoding)",
            "dependencies": deps}


class _Registry(QuietHandler):
    """Serves the registry folder: packuments as JSON, tarballs as bytes."""

    def guess_type(self, path) -> str:
        return "application/octet-stream" if str(path).endswith(".tgz") else "application/json"


def serve_registry(folder: Path, handler: type[QuietHandler] = _Registry
                   ) -> contextlib.AbstractContextManager[str]:
    """Serve a registry folder on 127.0.0.1 (a free port) while the block runs."""
    return serve(folder, handler, name="polydoku-npm")


def js_program(name: str) -> str | None:
    """Return a JavaScript tool: polydoku's own tools folder first, then PATH."""
    import sys
    own = Path(sys.prefix) / TOOLS_DIR / ".bin" / name
    return str(own) if own.exists() else find_program(name)


def js_file(relpath: str) -> str | None:
    """Return a file of polydoku's tools folder (Yarn's two CLIs share the name `yarn`)."""
    import sys
    path = Path(sys.prefix) / TOOLS_DIR / relpath
    return str(path) if path.exists() else None


# --- the engines --------------------------------------------------------------------------------

PEER_WORDS = ("ERESOLVE", "peer", "Peer", "YN0060", "YN0082", "YN0002")
MAX_WORDS = 12          # a tool may print one line per broken peer: the first ones tell enough


class JavaScriptEngine(ResolverEngine):
    """Shared body: registry, project, the tool's run, the lockfile checked against the rules."""

    install_hint = "python3 tasks.py setup (deps/js/package.json -> .venv/tools/js)"
    differential_limit = 0
    status_timeout = 8
    lockfile: ClassVar[str] = ""

    def command(self) -> list[str] | None:
        """Return the tool's command line (None when it is not installed)."""
        raise NotImplementedError

    def available(self) -> Availability:
        if self.command() is None:
            return Availability(False, reason=f"{self.tool} not found", hint=self.install_hint)
        from .versions import program_version
        return Availability(True, program_version(self._version_cmd()) or "unknown version")

    def _version_cmd(self) -> list[str]:
        cmd = self.command() or [self.program]
        base = cmd[:2] if cmd[0].endswith("node") else cmd[:1]
        return [*base, "--version"]

    def project_files(self, index: Index, url: str, box: Sandbox) -> dict[str, str]:
        """Return the project's files (package.json and the tool's config)."""
        return {"package.json": json.dumps(package_json(index), indent=1) + "\n"}

    def env(self, box: Sandbox, url: str) -> dict[str, str]:
        return box.env({"npm_config_registry": f"{url}/", "NO_COLOR": "1", "CI": "1",
                        "npm_config_update_notifier": "false", "npm_config_fund": "false",
                        "npm_config_audit": "false"})

    def run_tool(self, box, index, timeout):
        cmd = self.command()
        if cmd is None:
            raise BadInput(f"engine {self.id}: {self.tool} is not installed ({self.install_hint})")
        folder = box.path / "registry"
        project = box.path / "project"
        with serve_registry(folder) as url:
            for relpath, data in registry_files(index, url).items():
                box.write(f"registry/{relpath}", data)
            for relpath, text in self.project_files(index, url, box).items():
                box.write(f"project/{relpath}", text)
            # V8 reserves far more address space than it uses (WebAssembly guard regions), so
            # an address-space cap breaks Node: its heap is capped instead (NODE_OPTIONS)
            env = self.env(box, url)
            env["NODE_OPTIONS"] = f"--max-old-space-size={self.memory_mb()}"
            run = box.run(cmd, timeout=timeout, env=env, cwd=project, memory_mb=None,
                          name=self.id)
        lock = project / self.lockfile
        answer = lock.read_text(encoding="utf-8") if lock.exists() else None
        if box.keep is None:
            for heavy in ("node_modules", ".yarn"):
                shutil.rmtree(project / heavy, ignore_errors=True)
        return ToolRun([run], answer, project)

    def read(self, problem, index, done, timeout, seconds):
        out = super().read(problem, index, done, timeout, seconds)
        puzzle = problem.puzzle
        if out.status is Status.SOLVED and puzzle is not None:
            from ..verify import grid_problems
            broken = "; ".join(grid_problems(puzzle, out.solutions[0][:problem.ncells])[:3])
            if broken:
                words = [ln for ln in done.last.output.splitlines()
                         if any(w in ln for w in PEER_WORDS)]
                words = words[:MAX_WORDS] + ([f"[... {len(words) - MAX_WORDS} more]"]
                                             if len(words) > MAX_WORDS else [])
                return Outcome(Status.UNKNOWN, message=(
                    f"{self.tool} wrote a lockfile that breaks the puzzle ({broken}); it did not "
                    f"solve it. It said: {excerpt(words) or 'nothing about peers'}"))
        return out

    def failure(self, output):
        words = [ln for ln in output.splitlines() if any(w in ln for w in PEER_WORDS)]
        if words:
            more = [f"[... {len(words) - MAX_WORDS} more]"] if len(words) > MAX_WORDS else []
            return Status.UNKNOWN, excerpt(words[:MAX_WORDS] + more)
        return Status.ERROR, last_lines(output)


def _no_duplicates(pairs: list[tuple[str, str]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name, ver in pairs:
        if not name.startswith("sudoku-") or name == ROOT_NAME:
            continue
        v = value(ver)
        if out.get(name, v) != v:
            raise ValueError(f"two versions of {name} in the lockfile")
        out[name] = v
    return out


class NpmEngine(JavaScriptEngine):
    """npm: `npm install --package-lock-only --strict-peer-deps`."""

    id = "npm"
    title = "npm install --package-lock-only against an npm registry on 127.0.0.1 (peer form)"
    program = "npm"
    tool = "npm"
    lockfile = "package-lock.json"

    def command(self):
        npm = js_program("npm")
        return None if npm is None else [npm, "install", "--package-lock-only",
                                         "--strict-peer-deps", "--ignore-scripts", "--no-audit",
                                         "--no-fund", "--loglevel", "warn"]

    def env(self, box, url):
        env = super().env(box, url)
        env["npm_config_cache"] = str(box.path / "home" / "npm-cache")
        env["npm_config_userconfig"] = str(box.path / "home" / ".npmrc")
        env["npm_config_globalconfig"] = str(box.path / "home" / "npmrc-global")
        return env

    def pins(self, answer, index):
        packages = json.loads(answer).get("packages", {})
        return _no_duplicates([(key.rsplit("node_modules/", 1)[-1], meta.get("version", ""))
                               for key, meta in packages.items() if key])


class PnpmEngine(JavaScriptEngine):
    """pnpm: `pnpm install --lockfile-only` with strict peer dependencies."""

    id = "pnpm"
    title = "pnpm install --lockfile-only (strict peers) against an npm registry on 127.0.0.1"
    program = "pnpm"
    tool = "pnpm"
    lockfile = "pnpm-lock.yaml"

    def command(self):
        pnpm = js_program("pnpm")
        return None if pnpm is None else [pnpm, "install", "--lockfile-only",
                                          "--ignore-scripts", "--reporter", "append-only",
                                          "--config.strict-peer-dependencies=true",
                                          "--config.auto-install-peers=false"]

    def env(self, box, url):
        env = super().env(box, url)
        home = box.path / "home"
        env.update({"npm_config_store_dir": str(home / "pnpm-store"),
                    "npm_config_cache_dir": str(home / "pnpm-cache"),
                    "PNPM_HOME": str(home / "pnpm"),
                    "npm_config_userconfig": str(home / ".npmrc")})
        return env

    def pins(self, answer, index):
        section = answer.split("\npackages:", 1)[-1].split("\nsnapshots:", 1)[0]
        return _no_duplicates(re.findall(r"^  '?(sudoku-[a-z0-9-]+)@(\d+\.\d+\.\d+)", section,
                                         re.M))


class YarnEngine(JavaScriptEngine):
    """Yarn 1 (classic): `yarn install` into the sandbox's project."""

    id = "yarn"
    title = "Yarn 1 (classic) yarn install against an npm registry on 127.0.0.1 (peer form)"
    program = "yarn"
    tool = "Yarn 1"
    lockfile = "yarn.lock"

    def command(self):
        node, cli = find_program("node"), js_file("yarn/bin/yarn.js")
        return None if node is None or cli is None else [
            node, cli, "install", "--ignore-scripts", "--non-interactive", "--no-progress",
            "--no-default-rc", "--ignore-engines"]

    def env(self, box, url):
        env = super().env(box, url)
        home = box.path / "home"
        env.update({"YARN_CACHE_FOLDER": str(home / "yarn-cache"),
                    "YARN_REGISTRY": f"{url}/", "npm_config_registry": f"{url}/"})
        return env

    def project_files(self, index, url, box):
        files = super().project_files(index, url, box)
        files[".yarnrc"] = f'registry "{url}/"\n'
        return files

    def pins(self, answer, index):
        pairs = []
        for block in answer.split("\n\n"):
            head = re.match(r'^"?(sudoku-[a-z0-9-]+)@', block.strip())
            ver = re.search(r'^\s+version "([^"]+)"', block, re.M)
            if head and ver:
                pairs.append((head[1], ver[1]))
        return _no_duplicates(pairs)


class YarnBerryEngine(JavaScriptEngine):
    """Yarn 4 (berry): `yarn install --mode=update-lockfile`, node-modules linker (`+pnp`:
    Plug'n'Play)."""

    id = "yarn-berry"
    title = "Yarn 4 yarn install --mode=update-lockfile against an npm registry on 127.0.0.1"
    program = "yarn"
    tool = "Yarn 4"
    lockfile = "yarn.lock"
    variants = ("faithful", "tuned", "pnp", "pnp-tuned")

    OPTIONS = {**JavaScriptEngine.OPTIONS,
               "encoding": Option(("faithful", "tuned"),
                                  {"faithful": "faithful", "tuned": "tuned", "pnp": "faithful",
                                   "pnp-tuned": "tuned"})}

    def command(self):
        node, cli = find_program("node"), js_file("@yarnpkg/cli-dist/bin/yarn.js")
        return None if node is None or cli is None else [node, cli, "install",
                                                          "--mode=update-lockfile"]

    def env(self, box, url):
        env = super().env(box, url)
        env.update({"YARN_ENABLE_TELEMETRY": "0", "YARN_ENABLE_GLOBAL_CACHE": "0",
                    "YARN_ENABLE_PROGRESS_BARS": "0", "YARN_ENABLE_COLORS": "0",
                    "YARN_IGNORE_PATH": "1", "COREPACK_ENABLE_STRICT": "0",
                    "YARN_GLOBAL_FOLDER": str(box.path / "home" / "yarn-global")})
        return env

    def project_files(self, index, url, box):
        files = super().project_files(index, url, box)
        linker = "pnp" if self.variant.startswith("pnp") else "node-modules"
        files[".yarnrc.yml"] = (f'npmRegistryServer: "{url}"\nunsafeHttpWhitelist:\n'
                                f'  - "127.0.0.1"\nnodeLinker: {linker}\nenableTelemetry: false\n'
                                f'enableGlobalCache: false\ncacheFolder: ./.yarn/cache\nnpmMinimalAgeGate: 0\n')
        files["yarn.lock"] = ""
        return files

    def pins(self, answer, index):
        pairs = re.findall(r'^"?(sudoku-[a-z0-9-]+)@npm:[^\n]*\n\s+version: "?(\d+\.\d+\.\d+)',
                           answer, re.M)
        return _no_duplicates(pairs)


class BunEngine(JavaScriptEngine):
    """Bun: `bun install --lockfile-only`."""

    id = "bun"
    title = "bun install --lockfile-only against an npm registry on 127.0.0.1 (peer form)"
    program = "bun"
    tool = "Bun"
    lockfile = "bun.lock"

    def command(self):
        bun = js_program("bun")
        return None if bun is None else [bun, "install", "--lockfile-only", "--ignore-scripts",
                                         "--no-progress", "--no-summary"]

    def env(self, box, url):
        env = super().env(box, url)
        env.update({"BUN_INSTALL_CACHE_DIR": str(box.path / "home" / "bun-cache"),
                    "BUN_CONFIG_REGISTRY": f"{url}/", "DO_NOT_TRACK": "1",
                    "BUN_INSTALL": str(box.path / "home" / "bun")})
        return env

    def pins(self, answer, index):
        section = answer.split('"packages"', 1)[-1]
        return _no_duplicates(re.findall(r'"(?:[^"]*/)?(sudoku-[a-z0-9-]+)": \["sudoku-[a-z0-9-]+@'
                                         r'(\d+\.\d+\.\d+)"', section))


def export(puzzle: Puzzle, out: Path, options: dict[str, str]) -> list[Path]:
    """Write the registry folder, package.json and a README (option encoding=…)."""
    from .exports import export_options, write_files
    encoding, port = export_options(options, port="4873")
    index = build_index(build_problem(puzzle), encoding)
    url = f"http://127.0.0.1:{port}"
    files: dict[str, bytes | str] = {f"registry/{k}": v
                                     for k, v in registry_files(index, url).items()}
    files["project/package.json"] = json.dumps(package_json(index), indent=1) + "\n"
    files["README.md"] = f"""# {index.title}: a Sudoku for npm, pnpm, Yarn and Bun

`registry/` is an npm registry as files ({index.encoding} encoding): `registry/NAME` is the
packument of package NAME, `registry/-/*.tgz` the tarballs. Package `sudoku-rRcC` is
cell rRcC, its version `V.0.0` says the cell holds V, and each version names its peers in
`peerDependencies` with a range that leaves V out. `project/package.json` depends on every
cell, the givens pinned.

None of these tools backtracks: each takes the highest version a range allows, then checks the
peers. Expect a peer conflict unless the tuned encoding already leaves one version per cell.

Serve the registry on 127.0.0.1 (any static file server), then resolve in `project/`; npm
and pnpm may loop on a peer conflict, so give them a time limit:

```sh
python3 -m http.server {port} --bind 127.0.0.1 --directory registry &
cd project
timeout 60 npm install --package-lock-only --strict-peer-deps --registry {url}/ || true
timeout 60 pnpm install --lockfile-only --config.strict-peer-dependencies=true --registry {url}/ || true
kill %1
```

`package-lock.json` / `pnpm-lock.yaml` then name one version of each cell: check it with
`polydoku verify` before you believe it.
"""
    return write_files(out, files)
