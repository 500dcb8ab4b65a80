#!/usr/bin/env python3
"""Set up polydoku and run it: `python3 tasks.py demo` or `python3 tasks.py test [pytest args]`.

Needs only python3 on a Debian machine: it creates `.venv`, installs polydoku with its engines,
test tools and web page into it, installs the Debian programs the engines and tests drive
(deps/debian.txt) with apt-get when they are missing, and the Python tools that want a venv of
their own (deps/tools/NAME.txt -> .venv/tools/NAME).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / "bin"
STAMP = VENV / ".polydoku-installed"


def say(text: str) -> None:
    print(f"[tasks] {text}", flush=True)


def run(cmd: list[str], **kw) -> None:
    subprocess.run(cmd, check=True, **kw)


def read_list(path: Path) -> list[str]:
    """Return the non-comment words of a dependency list."""
    if not path.exists():
        return []
    return [w for line in path.read_text().splitlines() for w in line.split("#", 1)[0].split()]


def apt_install(packages: list[str]) -> None:
    """Install Debian packages that are missing (as root, or through sudo)."""
    missing = []
    for pkg in packages:
        probe = subprocess.run(["dpkg-query", "-W", "-f=${Status}", pkg], capture_output=True,
                               text=True)
        if "install ok installed" not in probe.stdout:
            missing.append(pkg)
    if not missing:
        return
    if not shutil.which("apt-get"):
        say(f"apt-get not found: install these yourself: {' '.join(missing)}")
        return
    sudo = [] if os.geteuid() == 0 else (["sudo"] if shutil.which("sudo") else None)
    if sudo is None:
        say(f"not root and no sudo: install these yourself: {' '.join(missing)}")
        return
    say(f"apt-get install {' '.join(missing)}")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(sudo + ["apt-get", "update", "-qq"], env=env)
    run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing], env=env)


def ensure_venv() -> None:
    """Create .venv (installing Debian's python3-venv first when ensurepip is missing)."""
    if (BIN / "python").exists():
        return
    say("creating .venv")
    made = subprocess.run([sys.executable, "-m", "venv", str(VENV)])
    if made.returncode != 0:
        shutil.rmtree(VENV, ignore_errors=True)
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        apt_install([f"{version}-venv"])
        run([sys.executable, "-m", "venv", str(VENV)])


def fingerprint() -> str:
    """Return a hash of everything that decides what gets installed."""
    h = hashlib.sha256()
    for path in sorted([ROOT / "pyproject.toml", ROOT / "setup.py", ROOT / "src" / "polydoku" / "_core.c",
                        *sorted((ROOT / "deps").rglob("*.txt")),
                        *sorted((ROOT / "deps" / "js").glob("package*.json"))]):
        h.update(path.name.encode() + path.read_bytes())
    return h.hexdigest()


def ensure_python_packages() -> None:
    """Install polydoku (editable) with engines, Dask (--dask) and test tools, and the tool
    venvs."""
    if STAMP.exists() and STAMP.read_text() == fingerprint():
        return
    pip = [str(BIN / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    say("installing polydoku and its engines into .venv")
    run(pip + ["--upgrade", "pip"])
    run(pip + ["-e", f"{ROOT}[engines,cluster,test,web]"])
    for req in sorted((ROOT / "deps" / "tools").glob("*.txt")):
        tool_venv = VENV / "tools" / req.stem
        if not (tool_venv / "bin" / "python").exists():
            run([str(BIN / "python"), "-m", "venv", str(tool_venv)])
        say(f"installing {req.stem} into {tool_venv.relative_to(ROOT)}")
        run([str(tool_venv / "bin" / "python"), "-m", "pip", "install", "-q",
             "--disable-pip-version-check", "-r", str(req)])
    ensure_js_tools()
    STAMP.write_text(fingerprint())


def ensure_js_tools() -> None:
    """Install the JavaScript package managers (deps/js, locked) into .venv/tools/js with the
    machine's npm (Debian's nodejs and npm first when there is no npm at all)."""
    if not shutil.which("npm"):
        apt_install(["nodejs", "npm"])
    target = VENV / "tools" / "js"
    target.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copyfile(ROOT / "deps" / "js" / name, target / name)
    say(f"installing pnpm, Yarn 1, Yarn 4 and Bun into {target.relative_to(ROOT)}")
    # no install scripts but Bun's own, which links the binary its platform package holds
    run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel", "error"],
        cwd=target)
    run(["node", "install.js"], cwd=target / "node_modules" / "bun")


def setup() -> None:
    apt_install(read_list(ROOT / "deps" / "debian.txt"))
    ensure_venv()
    ensure_python_packages()


def demo(args: list[str]) -> int:
    """Solve the bundled example with polydoku's own engine, then with real outside tools."""
    setup()
    example = "examples/wikipedia.txt"
    polydoku = str(BIN / "polydoku")
    steps = [
        ["solve", example, "--format", "grid"],
        ["solve", example, "--engine", "libsolv-deb"],      # Debian's libsolv on a Packages file
        ["solve", example, "--engine", "rattler"],          # conda's resolvo on a repodata.json
        ["solve", example, "--engine", "uv+tuned"],         # uv over a folder of wheels
        ["solve", example, "--engine", "sat"],              # CaDiCaL on CNF
        ["explain", example, "--why", "r1c6=4"],            # why r1c6 cannot be 4
        ["hint", example],                                  # the next logical move
        ["engines"],
    ]
    code = 0
    for k, step in enumerate(steps):
        say("polydoku " + " ".join(step))
        result = subprocess.run([polydoku, *step, *(["--timeout", "120"] if step[0] == "solve" else [])],
                                cwd=ROOT).returncode
        if k == 0:
            code = result
    return code


# The fast lane (`python3 tasks.py test --fast`): no outside tools, no browser, no cluster, well
# under a minute; for the edit-test loop. The full suite (no flag) is what CI runs.
FAST_ARGS = ["-m", "not slow and not browser and not tools", "-q", "-p", "no:cacheprovider",
             "-x"]


def lint() -> int:
    """Run ruff and mypy on the sources; return non-zero when either finds a problem."""
    for cmd in ([str(BIN / "ruff"), "check", "src", "tests", "tasks.py", "bench"],
                [str(BIN / "mypy")]):
        say(" ".join(Path(cmd[0]).name if k == 0 else c for k, c in enumerate(cmd)))
        if subprocess.run(cmd, cwd=ROOT).returncode:
            return 1
    return 0


def test(args: list[str]) -> int:
    setup()
    fast = "--fast" in args
    args = [a for a in args if a != "--fast"]
    env = dict(os.environ)
    if fast:
        env["POLYDOKU_FAST"] = "1"
        env.pop("CI", None)
        args = FAST_ARGS + args
    elif lint():
        return 1
    code = subprocess.run([str(BIN / "python"), "-m", "pytest", *args], cwd=ROOT,
                          env=env).returncode
    if code == 5:
        say("pytest collected no tests: that is a failure")
        return 1
    return code


def bench(args: list[str]) -> int:
    """Run bench/NAME.py (python3 tasks.py bench NAME [args]); without NAME, list them."""
    scripts = sorted(p.stem for p in (ROOT / "bench").glob("*.py") if not p.stem.startswith("_"))
    if not args or args[0] not in scripts:
        print(f"usage: python3 tasks.py bench {{{'|'.join(scripts)}}} [args]", file=sys.stderr)
        return 2
    setup()
    apt_install(read_list(ROOT / "deps" / "debian-bench.txt"))
    run([str(BIN / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check",
         "-e", f"{ROOT}[bench]"])          # the outside raters some benchmarks compare with
    return subprocess.run([str(BIN / "python"), str(ROOT / "bench" / f"{args[0]}.py"), *args[1:]],
                          cwd=ROOT).returncode


def docs(args: list[str]) -> int:
    """Write the parts of the docs drawn from the code: docs/rules.md's names of every kind in
    the other formats (between its `names` markers)."""
    if not (BIN / "python").exists():
        setup()
    path = ROOT / "docs" / "rules.md"
    table = subprocess.run([str(BIN / "python"), "-c", "from polydoku.formats.names import "
                            "names_table; print(names_table(), end='')"],
                           capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT / "src")}).stdout
    head, rest = path.read_text().split("<!-- names: begin -->\n", 1)
    tail = rest.split("<!-- names: end -->", 1)[1]
    path.write_text(f"{head}<!-- names: begin -->\n{table}<!-- names: end -->{tail}")
    print(f"wrote {path}")
    return 0


COMMANDS = {"setup": lambda args: setup() or 0, "demo": demo, "test": test, "bench": bench,
            "docs": docs}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        print(f"usage: python3 tasks.py {{{'|'.join(COMMANDS)}}} [args]", file=sys.stderr)
        sys.exit(2)
    sys.exit(COMMANDS[sys.argv[1]](sys.argv[2:]))
