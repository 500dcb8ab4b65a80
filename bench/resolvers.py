#!/usr/bin/env python3
"""Benchmark: the package managers of every ecosystem on the same puzzles, faithful and tuned.

Engines: npm, pnpm, Yarn 1, Yarn 4, Bun, Composer, Cargo, dnf, opam, 0install, Bundler, cabal
and mccs (each `id` and `id+tuned`). Puzzles: the seeds' three classic puzzles (Wikipedia's,
the Evening Standard's of 2012-04-04, Inkala's, from `seeds.jsonl`) and the first `--hard` of
`norvig_hardest` (shared data; see its SOURCES.md). It runs `polydoku bench` with the native
engine as the reference, so every answer is verified, and writes its results.json, table and
plots into `--out`. A tool that times out or gives up is "unknown", never hidden.

Run: `python3 tasks.py bench resolvers [--engines npm,cargo] [--timeout 30] [--hard 2]
[--out bench/results/resolvers]`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from _common import DATA, RESULTS, ROOT

ENGINES = ("npm", "pnpm", "yarn", "yarn-berry", "bun", "composer", "cargo", "dnf", "opam",
           "0install", "bundler", "cabal", "mccs")
SEEDS = ("wikipedia", "evening-standard-2012-04-04", "inkala-hardest")


def puzzle_file(hard: int, out) -> str:
    """Write the benchmark's puzzles, one per line, and return the file's path."""
    seeds = {}
    for line in (DATA / "seeds.jsonl").read_text().splitlines():
        entry = json.loads(line)
        seeds[entry["id"]] = entry["givens"]
    lines = [seeds[name] for name in SEEDS]
    lines += (DATA / "norvig_hardest.txt").read_text().split()[:hard]
    path = out / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--variants", default="faithful,tuned")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--hard", type=int, default=2)
    ap.add_argument("--out", default=str(RESULTS / "resolvers"))
    args = ap.parse_args()
    from pathlib import Path
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    specs = [e if v == "faithful" else f"{e}+{v}" for e in args.engines.split(",")
             for v in args.variants.split(",")]
    cmd = [str(ROOT / ".venv" / "bin" / "polydoku"), "bench", puzzle_file(args.hard, out),
           "-e", ",".join(specs), "--timeout", f"{args.timeout:g}", "--out", str(out)]
    print("$ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
