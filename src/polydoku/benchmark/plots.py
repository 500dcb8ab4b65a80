"""Benchmark plots, drawn with matplotlib's Agg canvas (no display), each saved as PNG and SVG:

- `times`: seconds per puzzle per engine on a log scale (few puzzles: one column per puzzle,
  engines side by side; many: puzzles sorted by the reference engine's time, one line each);
  timeouts sit on the time-limit line as hollow triangles, runs that gave up or failed are
  hollow markers at their time, wrong answers are red crosses.
- `cactus`: as solver competitions draw it, each engine's finished puzzles sorted by time: the
  point (k, t) says k puzzles were each finished within t seconds. Further right and lower is
  better.

It must not run anything: it reads a benchmark result.
"""

from __future__ import annotations

from pathlib import Path

FINISHED = ("solved", "unsat")
MARKERS = "osD^vP*Xhp<>d"
MANY = 40   # above this many puzzles, the time plot draws lines over sorted puzzles


def _figure(width: float, height: float):
    """Return a new figure on an Agg canvas and its axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot()


def _style(k: int, count: int) -> dict:
    """Return the colour and marker of the k-th engine (never red: red means a wrong answer)."""
    from matplotlib import colormaps
    if count <= 9:
        colours = [colormaps["tab10"](i) for i in range(10) if i != 3]       # 3 is red
    else:
        colours = [colormaps["tab20"](i) for i in range(20) if i not in (6, 7)]
    return {"color": colours[k % len(colours)], "marker": MARKERS[k % len(MARKERS)]}


def _engines(results: dict) -> list[str]:
    """Return the engine specs that ran, reference first."""
    return [spec for spec, info in results["engines"].items() if info["available"]]


def _label(p: dict, several_sets: bool) -> str:
    return f"{p['set']}:{p['line']}" if several_sets else str(p["line"])


def _save(fig, out_dir: Path, stem: str) -> list[Path]:
    """Write a figure as PNG and SVG; return both paths."""
    import io
    from ..files import write_file
    paths = [out_dir / f"{stem}.png", out_dir / f"{stem}.svg"]
    for path in paths:
        buffer = io.BytesIO()      # drawn in memory, written whole by the one file writer
        fig.savefig(buffer, format=path.suffix[1:])
        write_file(path, buffer.getvalue(), "--out", make_parents=True)
    return paths


def _finish_axes(ax, timeout: float, title: str, xlabel: str, ylabel: str) -> None:
    """Add the log scale, the time-limit line, labels, grid and the legend outside the plot."""
    ax.set_yscale("log")
    ax.axhline(timeout, color="0.4", linestyle="--", linewidth=1,
               label=f"time limit ({timeout:g} s)")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, which="major", axis="y", alpha=0.35)
    ax.grid(True, which="minor", axis="y", alpha=0.12)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)


def _points(puzzles: list[dict], order: list[int], spec: str, shift: float) -> dict:
    """Return an engine's (x, y) points per kind: finished, timeout, stopped (gave up or
    error), wrong."""
    out: dict[str, list] = {"finished": [], "timeout": [], "stopped": [], "wrong": []}
    for x, idx in enumerate(order):
        r = puzzles[idx]["results"].get(spec)
        if r is not None:
            kind = ("finished" if r["status"] in FINISHED else r["status"]
                    if r["status"] in ("timeout", "wrong") else "stopped")
            out[kind].append((x + shift, max(r["seconds"], 1e-6)))
    return out


def plot_times(results: dict, out_dir: Path) -> list[Path]:
    """Draw seconds per puzzle per engine (log scale); return the PNG and SVG paths."""
    puzzles, engines = results["puzzles"], _engines(results)
    timeout = results["settings"]["timeout"]
    many = len(puzzles) > MANY
    if many:
        ref = results["settings"]["reference"]
        order = sorted(range(len(puzzles)), key=lambda k: puzzles[k]["results"].get(ref, {})
                       .get("seconds", float("inf")))
    else:
        order = list(range(len(puzzles)))
    fig, ax = _figure(max(8.0, min(16.0, 4 + 0.45 * len(puzzles))) if not many else 11.0, 5.5)
    for k, spec in enumerate(engines):
        style = _style(k, len(engines))
        shift = 0.0 if many else (k - (len(engines) - 1) / 2) * 0.7 / len(engines)
        pts = _points(puzzles, order, spec, shift)
        xs, ys = [x for x, _ in pts["finished"]], [y for _, y in pts["finished"]]
        if many and spec == results["settings"]["reference"]:   # the sorted curve, as a line
            ax.plot(xs, ys, color=style["color"], linewidth=1.6, label=spec, zorder=4)
        else:
            ax.scatter(xs, ys, s=12 if many else 28, alpha=0.75 if many else 1.0, label=spec,
                       zorder=3, **style)
        for kind, marker, size in (("timeout", "^", 36), ("stopped", style["marker"], 30)):
            if pts[kind]:
                ax.scatter([x for x, _ in pts[kind]],
                           [timeout if kind == "timeout" else y for _, y in pts[kind]],
                           s=size, marker=marker, facecolors="none", edgecolors=style["color"],
                           zorder=3)
        if pts["wrong"]:
            ax.scatter(*zip(*pts["wrong"]), s=80, marker="X", color="red", zorder=4)
    ax.scatter([], [], marker="^", facecolors="none", edgecolors="0.3", label="timed out")
    ax.scatter([], [], marker="o", facecolors="none", edgecolors="0.3",
               label="gave up or failed (hollow)")
    ax.scatter([], [], marker="X", color="red", label="wrong answer")
    repeat = results["settings"]["repeat"]
    _finish_axes(ax, timeout, "Time per puzzle (wall clock"
                 + (f", median of {repeat} runs)" if repeat > 1 else ")"),
                 _puzzle_axis(ax, results, order, many), "seconds (log scale)")
    return _save(fig, out_dir, "times")


def _puzzle_axis(ax, results: dict, order: list[int], many: bool) -> str:
    """Label the puzzle axis (one tick per puzzle when few) and return its title."""
    if many:
        return f"puzzles, sorted by {results['settings']['reference']}'s time"
    several = len(results["sets"]) > 1
    tilt = len(order) > 12 or several
    ax.set_xticks(range(len(order)))
    ax.set_xticklabels([_label(results["puzzles"][i], several) for i in order],
                       rotation=45 if tilt else 0, ha="right" if tilt else "center",
                       fontsize="small")
    for x in range(len(order) - 1):      # separate the puzzles' columns
        ax.axvline(x + 0.5, color="0.85", linewidth=0.6, zorder=0)
    return "puzzle (line in " + ", ".join(s["name"] for s in results["sets"]) + ")"


def plot_cactus(results: dict, out_dir: Path) -> list[Path]:
    """Draw the cactus plot (puzzles finished within a time limit); return PNG and SVG paths."""
    puzzles, engines = results["puzzles"], _engines(results)
    fig, ax = _figure(10.0, 5.5)
    for k, spec in enumerate(engines):
        times = sorted(max(p["results"][spec]["seconds"], 1e-6) for p in puzzles
                       if spec in p["results"] and p["results"][spec]["status"] in FINISHED)
        style = _style(k, len(engines))
        if not times:
            ax.plot([], [], color=style["color"], marker=style["marker"], markersize=4,
                    label=f"{spec} (none finished)")
            continue
        counts = range(1, len(times) + 1)
        ax.plot(counts, times, color=style["color"], linewidth=1.4,
                marker=style["marker"] if len(times) <= 60 else None, markersize=4,
                label=f"{spec} ({len(times)}/{len(puzzles)})")
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, len(puzzles) + 0.5)
    ax.set_xlabel("puzzles finished (solved or proved unsatisfiable)")
    _finish_axes(ax, results["settings"]["timeout"],
                 "Cactus plot: how many puzzles each engine finishes within a time limit "
                 "(right and low is better)", "puzzles finished (solved or proved unsatisfiable)",
                 "time limit per puzzle, seconds (log scale)")
    return _save(fig, out_dir, "cactus")


def draw_plots(results: dict, out_dir: str | Path) -> list[Path]:
    """Draw both plots into `out_dir`; return the four files' paths."""
    out = Path(out_dir)
    return plot_times(results, out) + plot_cactus(results, out)
