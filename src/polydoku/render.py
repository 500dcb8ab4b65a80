"""Pictures of grids: an SVG built with ElementTree, and a PNG drawn from that SVG by matplotlib.

The SVG is the one drawing. Every shape carries its own colours and sizes as attributes (no
stylesheet), so `render_png` redraws it with matplotlib shape for shape and the two never drift
apart. Semantics live in classes: each cell is a `<g class="cell given|solved|empty
[highlight]" data-cell="r1c6">` holding its square and its value or candidates.

It must not solve anything: callers pass the grid to show and the candidates (`candidates_for`
computes them by propagation).
"""

from __future__ import annotations

import io
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from .errors import BadInput
from .model import Puzzle, cell_name, parse_cell
from .model.rules import Diagonal


INK, GIVEN, SOLVED, PENCIL, STRUCK = "#000000", "#000000", "#1f4fbf", "#6b6b6b", "#d62728"
HIGHLIGHT, THIN, DIAGONAL = "#ffd54f", "#9a9a9a", "#c9c9c9"
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"


@dataclass(frozen=True)
class Layout:
    """Where things go, in SVG pixels."""

    size: int
    cell: float
    margin: float
    top: float
    notes: tuple[str, ...]

    @property
    def side(self) -> float:
        """Return the grid's side length."""
        return self.size * self.cell

    @property
    def width(self) -> float:
        """Return the picture's width."""
        return self.side + 2 * self.margin

    @property
    def height(self) -> float:
        """Return the picture's height: title, grid, notes and margins."""
        return self.top + self.side + self.margin + 20 * len(self.notes) + (8 if self.notes else 0)

    def x(self, col: float) -> float:
        """Return the x of a column edge (fractional columns allowed)."""
        return self.margin + col * self.cell

    def y(self, row: float) -> float:
        """Return the y of a row edge (fractional rows allowed)."""
        return self.top + row * self.cell


def _num(v: float) -> str:
    """Return a number as short SVG text (at most two decimals)."""
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _el(parent: ET.Element, tag: str, text: str | None = None, **attrs) -> ET.Element:
    """Return a new child element, attribute names with `_` written as `-`."""
    el = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): _num(v)
                                     if isinstance(v, (int, float)) else str(v)
                                     for k, v in attrs.items()})
    if text is not None:
        el.text = text
    return el


def _index(puzzle: Puzzle, ref) -> int:
    """Return the index of a cell named `r1c6` or given as 0-based (row, col); outside is bad
    input."""
    g = puzzle.geometry
    row, col = parse_cell(ref, g.size) if isinstance(ref, str) else ref
    if not g.in_grid(row, col):
        raise BadInput(f"cell {cell_name((row, col))} is outside the {g.size}x{g.size} grid")
    return g.index((row, col))


def rule_notes(puzzle: Puzzle, width: float = 10**6, font_size: float = 14) -> tuple[str, ...]:
    """Return the lines naming each variant rule and what it says, wrapped to `width` pixels."""
    chars = max(20, int(width / (font_size * 0.52)))   # a sans-serif character is ~0.52 em wide
    return tuple(line for rule in puzzle.rules
                 for line in textwrap.wrap(f"{rule.name}: {rule.description}", chars,
                                           subsequent_indent="    "))


def layout_of(puzzle: Puzzle, title: str | None = None) -> Layout:
    """Return where `render_svg` puts things for a puzzle (cells of 48, 36 or 30 pixels)."""
    n = puzzle.size
    cell = 48.0 if n <= 9 else (36.0 if n <= 16 else 30.0)
    return Layout(n, cell, 16.0, 16.0 + (30.0 if title else 0.0), rule_notes(puzzle, n * cell))


def render_svg(puzzle: Puzzle, grid: Sequence[int] | None = None, *,
               candidates: Sequence[Iterable[int]] | None = None,
               highlight: Iterable = (), title: str | None = None,
               struck: Iterable[tuple] = ()) -> str:
    """Return an SVG picture of a puzzle.

    `grid`: values to show (0 = empty), e.g. a solution; givens stay black, other values blue.
    `candidates`: per cell, the values still possible, drawn small in empty cells.
    `highlight`: cells (`"r1c6"` or 0-based `(row, col)`) drawn on a yellow ground.
    `struck`: (cell, value) candidates drawn in red, e.g. the ones a hint eliminates.
    `title`: a line above the grid. Variant rules are named under the grid.
    """
    n = puzzle.size
    values = tuple(grid) if grid is not None else puzzle.givens
    if len(values) != n * n:
        raise BadInput(f"grid has {len(values)} cells, expected {n * n}")
    lay = layout_of(puzzle, title)
    marked = {_index(puzzle, ref) for ref in highlight}
    red = {(_index(puzzle, ref), value) for ref, value in struck}
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
                             "width": _num(lay.width), "height": _num(lay.height),
                             "viewBox": f"0 0 {_num(lay.width)} {_num(lay.height)}"})
    _el(svg, "title", title or puzzle.name or f"{n}x{n} sudoku")
    _el(svg, "rect", class_="background", x=0, y=0, width=lay.width, height=lay.height,
        fill="#ffffff")
    if title:
        _el(svg, "text", title, class_="title", x=lay.width / 2, y=16 + 13, font_size=18,
            font_family=FONT, text_anchor="middle", fill=INK)
    _draw_rules(svg, puzzle, lay)
    layer = _el(svg, "g", class_="cells")
    for i in range(n * n):
        _draw_cell(layer, puzzle, lay, i, values[i], candidates, i in marked, red)
    _draw_lines(svg, puzzle, lay)
    for k, note in enumerate(lay.notes):
        _el(svg, "text", note, class_="rule-note", x=lay.margin,
            y=lay.top + lay.side + 24 + 20 * k, font_size=14, font_family=FONT, fill=INK)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _draw_cell(layer, puzzle, lay, i, value, candidates, is_marked, red) -> None:
    """Add one cell's group: its square, then its value or its candidates."""
    n, (row, col) = puzzle.size, puzzle.geometry.cell(i)
    kind = "given" if puzzle.givens[i] else ("solved" if value else "empty")
    group = _el(layer, "g", class_=f"cell {kind}" + (" highlight" if is_marked else ""),
                data_cell=cell_name((row, col)))
    _el(group, "rect", x=lay.x(col), y=lay.y(row), width=lay.cell, height=lay.cell,
        fill=HIGHLIGHT if is_marked else "none", fill_opacity=0.85 if is_marked else 1)
    if value:
        _el(group, "text", puzzle.symbol(value), class_="value", x=lay.x(col + 0.5),
            y=lay.y(row + 0.5), font_size=lay.cell * 0.6, font_family=FONT,
            font_weight="bold" if kind == "given" else "normal",
            fill=GIVEN if kind == "given" else SOLVED, text_anchor="middle",
            dominant_baseline="central")
        return
    if candidates is None:
        return
    br, bc = puzzle.geometry.box_rows, puzzle.geometry.box_cols
    for v in sorted(candidates[i]):
        r, c = divmod(v - 1, bc)
        is_struck = (i, v) in red
        _el(group, "text", puzzle.symbol(v), class_="candidate" + (" struck" if is_struck else ""),
            x=lay.x(col + (c + 0.5) / bc), y=lay.y(row + (r + 0.5) / br),
            font_size=lay.cell / max(br, bc) * 0.72, font_family=FONT,
            font_weight="bold" if is_struck else "normal", fill=STRUCK if is_struck else PENCIL,
            text_anchor="middle", dominant_baseline="central")


def _draw_rules(svg, puzzle, lay) -> None:
    """Add the variant markings drawn on the grid itself: the diagonals."""
    if not any(isinstance(rule, Diagonal) for rule in puzzle.rules):
        return
    group = _el(svg, "g", class_="rule diagonal")
    n = puzzle.size
    for (x1, y1), (x2, y2) in (((0, 0), (n, n)), ((n, 0), (0, n))):
        _el(group, "line", x1=lay.x(x1), y1=lay.y(y1), x2=lay.x(x2), y2=lay.y(y2),
            stroke=DIAGONAL, stroke_width=3)


def _draw_lines(svg, puzzle, lay) -> None:
    """Add the thin cell lines, then the thick box lines and the border on top."""
    g, n = puzzle.geometry, puzzle.size
    thin, thick = _el(svg, "g", class_="cell-lines"), _el(svg, "g", class_="box-lines")
    for k in range(n + 1):
        for is_row, step in ((True, g.box_rows), (False, g.box_cols)):
            group, width, colour = (thick, 3, INK) if k % step == 0 else (thin, 1, THIN)
            if is_row:
                ends = dict(x1=lay.x(0), y1=lay.y(k), x2=lay.x(n), y2=lay.y(k))
            else:
                ends = dict(x1=lay.x(k), y1=lay.y(0), x2=lay.x(k), y2=lay.y(n))
            _el(group, "line", **ends, stroke=colour, stroke_width=width,
                stroke_linecap="square")


def render_png(puzzle: Puzzle, grid: Sequence[int] | None = None, *, scale: float = 2.0,
               **kwargs) -> bytes:
    """Return a PNG picture of a puzzle (`render_svg`'s arguments; `scale` pixels per SVG unit)."""
    return svg_to_png(render_svg(puzzle, grid, **kwargs), scale=scale)


def svg_to_png(svg_text: str, *, scale: float = 2.0) -> bytes:
    """Return a PNG of an SVG written by `render_svg` (rects, lines and texts only)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    root = ET.fromstring(svg_text)
    width, height = float(root.get("width")), float(root.get("height"))
    # One SVG unit is one point at 72 dpi, so widths and font sizes carry over unchanged.
    fig = Figure(figsize=(width / 72, height / 72), dpi=72 * scale)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    for z, el in enumerate(root.iter()):
        _draw_element(ax, el, z)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=72 * scale)
    return out.getvalue()


def _draw_element(ax, el: ET.Element, z: int) -> None:
    """Draw one SVG element on matplotlib axes (unknown tags are containers or metadata)."""
    from matplotlib.patches import Rectangle
    tag = el.tag.rsplit("}", 1)[-1]
    get = lambda name, default="0": el.get(name, default)  # noqa: E731
    if tag == "rect" and get("fill", "none") != "none":
        ax.add_patch(Rectangle((float(get("x")), float(get("y"))), float(get("width")),
                               float(get("height")), facecolor=get("fill"), edgecolor="none",
                               alpha=float(get("fill-opacity", "1")), zorder=z))
    elif tag == "line":
        ax.plot([float(get("x1")), float(get("x2"))], [float(get("y1")), float(get("y2"))],
                color=get("stroke"), linewidth=float(get("stroke-width", "1")),
                solid_capstyle="projecting", zorder=z)
    elif tag == "text" and el.text:
        anchor = {"middle": "center", "end": "right"}.get(get("text-anchor", "start"), "left")
        central = get("dominant-baseline", "") == "central"
        ax.text(float(get("x")), float(get("y")), el.text, fontsize=float(get("font-size")),
                color=get("fill", INK), fontweight=get("font-weight", "normal"),
                ha=anchor, va="center" if central else "baseline", zorder=z,
                family="DejaVu Sans")


def candidates_for(puzzle: Puzzle, grid: Sequence[int] | None = None, *,
                   propagate: bool = False) -> list[frozenset[int]]:
    """Return each cell's candidates: the values no constraint rules out against the placed
    values (givens, and `grid`'s values when given); with `propagate`, what the native engine's
    propagation leaves (singles included), falling back to the former on a contradiction."""
    from .problem import build_problem
    shown = puzzle.with_givens(grid) if grid is not None else puzzle
    problem = build_problem(shown)
    n = puzzle.size
    if propagate:
        from .engines.native import compile_problem, initial_candidates
        masks = initial_candidates(problem, compile_problem(problem))
        if masks is not None:
            return [frozenset(v for v in range(1, n + 1) if m >> (v - 1) & 1) for m in masks]
    return _unexcluded(problem, shown.givens)


def _unexcluded(problem, values: Sequence[int]) -> list[frozenset[int]]:
    """Return, per cell, its value when placed, else the values no placed value excludes."""
    from .problem import AbsDiffNot, AllDifferent, Nogood
    n = problem.size
    out = [({values[i]} if values[i] else set(range(1, n + 1))) for i in range(len(values))]
    for c in problem.constraints:
        if isinstance(c, AllDifferent):
            placed = {values[v] for v in c.vars if values[v]}
            for v in c.vars:
                if not values[v]:
                    out[v] -= placed
        elif isinstance(c, Nogood):
            for x, a, y, b in ((c.x, c.a, c.y, c.b), (c.y, c.b, c.x, c.a)):
                if not values[x] and values[y] == b:
                    out[x].discard(a)
        elif isinstance(c, AbsDiffNot):
            for x, y in ((c.x, c.y), (c.y, c.x)):
                if not values[x] and values[y]:
                    out[x] -= {values[y] - c.d, values[y] + c.d}
    return [frozenset(cands) for cands in out]


def write_picture(path: str | Path, puzzle: Puzzle, grid: Sequence[int] | None = None,
                  **kwargs) -> Path:
    """Write an SVG or PNG picture (chosen by the file's suffix) and return its path."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(render_svg(puzzle, grid, **kwargs), encoding="utf-8")
    elif suffix == ".png":
        path.write_bytes(render_png(puzzle, grid, **kwargs))
    else:
        raise BadInput(f"cannot draw {path.name}: the file must end in .svg or .png")
    return path
