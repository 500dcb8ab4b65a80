"""Pictures of grids: an SVG built with ElementTree, and a PNG drawn from that SVG by matplotlib.

The SVG is the one drawing. Every shape carries its own colours and sizes as attributes (no
stylesheet), so `render_png` redraws it with matplotlib shape for shape and the two never drift
apart. Semantics live in classes: each cell is a `<g class="cell given|solved|empty
[highlight]" data-cell="r1c6">` holding its square and its value or candidates.

It must not solve anything: callers pass the grid to show and the candidates (`candidates_for`
computes them by propagation).
"""

from __future__ import annotations

from typing import Any

import io
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from .errors import BadInput
from .files import write_output
from .model import Puzzle, Shape, ShapeKind, cell_name, parse_cell


INK, GIVEN, SOLVED, PENCIL, STRUCK = "#000000", "#000000", "#1f4fbf", "#6b6b6b", "#d62728"
HIGHLIGHT, THIN, DIAGONAL = "#ffd54f", "#9a9a9a", "#c9c9c9"
FONT = "DejaVu Sans, Arial, Helvetica, sans-serif"
DOT_FILLS = {"black": INK, "grey": "#9a9a9a"}     # a dot's fill by its style; white otherwise
LABEL_CHARS = 14                                   # a line label longer than this is cut


@dataclass(frozen=True)
class Layout:
    """Where things go, in SVG pixels."""

    size: int                   # columns (a cell index is row * size + column)
    cell: float
    margin: float
    top: float
    notes: tuple[str, ...]
    rows: int = 0               # rows, on a rectangular grid (0: as many as columns)
    titles: tuple[str, ...] = ()  # the title's lines above the grid

    @property
    def side(self) -> float:
        """Return the grid's width."""
        return self.size * self.cell

    @property
    def tall(self) -> float:
        """Return the grid's height."""
        return (self.rows or self.size) * self.cell

    @property
    def width(self) -> float:
        """Return the picture's width."""
        return self.side + 2 * self.margin

    @property
    def height(self) -> float:
        """Return the picture's height: title, grid, notes and margins."""
        return self.note_y(len(self.notes)) if self.notes else self.top + self.tall + self.margin

    def note_y(self, k: int) -> float:
        """Return the baseline of the k-th rule note, below the grid and its outside clues."""
        return self.top + self.tall + self.margin + 8 + 20 * k

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
    row, col = parse_cell(ref) if isinstance(ref, str) else ref
    if not g.in_grid(row, col):
        raise BadInput(f"cell {cell_name((row, col))} is outside the {g.shape_words()} grid")
    return g.index((row, col))


def rule_notes(puzzle: Puzzle, width: float = 10**6, font_size: float = 14) -> tuple[str, ...]:
    """Return the lines naming each variant rule and what it says, wrapped to `width` pixels."""
    chars = max(20, int(width / (font_size * 0.52)))   # a sans-serif character is ~0.52 em wide
    kinds = {rule.kind: rule.description for rule in puzzle.rules}    # each kind once
    return tuple(line for kind, text in kinds.items()
                 for line in textwrap.wrap(f"{kind}: {text}", chars, subsequent_indent="    "))


def layout_of(puzzle: Puzzle, title: str | None = None) -> Layout:
    """Return where `render_svg` puts things for a puzzle (cells of 48, 36 or 30 pixels)."""
    g = puzzle.geometry
    n, longest = g.width, g.longest
    cell = 48.0 if longest <= 9 else (36.0 if longest <= 16 else 30.0)
    margin = cell if any(sh.kind is ShapeKind.OUTSIDE for sh in _shapes(puzzle)) else 16.0
    titles = _wrapped(title, n * cell + 2 * margin - 16, 18, 3) if title else ()
    top = margin + (30.0 + 22 * (len(titles) - 1) if titles else 0.0)
    return Layout(n, cell, margin, top, rule_notes(puzzle, n * cell),
                  0 if g.is_square else g.size, titles)


def _wrapped(text: str, width: float, font_size: float, most: int) -> tuple[str, ...]:
    """Return `text` wrapped to `width` pixels in at most `most` lines, the last one cut
    with an ellipsis when the text is longer."""
    chars = max(12, int(width / (font_size * 0.6)))
    lines = textwrap.wrap(text, chars) or [text[:chars]]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][:chars - 1].rstrip() + "…"
    return tuple(lines)


def _shapes(puzzle: Puzzle) -> list[Shape]:
    """Return what the puzzle's rules draw."""
    return [sh for _, sh in _rule_shapes(puzzle)]


def _rule_shapes(puzzle: Puzzle) -> list[tuple[str, Shape]]:
    """Return what the puzzle's rules draw, each with the kind of the rule that draws it."""
    return [(rule.kind, sh) for rule in puzzle.rules for sh in rule.shapes(puzzle.geometry)]


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
    values = tuple(grid) if grid is not None else puzzle.givens
    if len(values) != puzzle.geometry.ncells:
        raise BadInput(f"grid has {len(values)} cells, expected {puzzle.geometry.ncells}")
    lay = layout_of(puzzle, title)
    shapes = _rule_shapes(puzzle)
    marked = {_index(puzzle, ref) for ref in highlight}
    red = {(_index(puzzle, ref), value) for ref, value in struck}
    svg = ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "version": "1.1",
                             "width": _num(lay.width), "height": _num(lay.height),
                             "viewBox": f"0 0 {_num(lay.width)} {_num(lay.height)}"})
    _el(svg, "title", title or puzzle.name or f"{puzzle.geometry.shape_words()} sudoku")
    _el(svg, "rect", class_="background", x=0, y=0, width=lay.width, height=lay.height,
        fill="#ffffff")
    for k, line in enumerate(lay.titles):
        _el(svg, "text", line, class_="title", x=lay.width / 2, y=16 + 13 + 22 * k, font_size=18,
            font_family=FONT, text_anchor="middle", fill=INK)
    under = _el(svg, "g", class_="rules")
    for kind, sh in shapes:
        if sh.kind not in _OVER:
            _draw_shape(under, sh, lay, kind)
    layer = _el(svg, "g", class_="cells")
    for i in range(puzzle.geometry.ncells):
        _draw_cell(layer, puzzle, lay, i, values[i], candidates, i in marked, red)
    _draw_lines(svg, puzzle, lay)
    over = _el(svg, "g", class_="rule-marks")
    for kind, sh in shapes:
        if sh.kind in _OVER:
            _draw_shape(over, sh, lay, kind)
    for k, note in enumerate(lay.notes):
        _el(svg, "text", note, class_="rule-note", x=lay.margin, y=lay.note_y(k),
            font_size=14, font_family=FONT, fill=INK)
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def _draw_cell(layer, puzzle, lay, i, value, candidates, is_marked, red) -> None:
    """Add one cell's group: its square, then its value or its candidates."""
    row, col = puzzle.geometry.cell(i)
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
    nv = puzzle.geometry.nvalues        # a mini grid of every value the cell may hold
    br = max(k for k in range(1, nv + 1) if k * k <= nv)
    bc = -(-nv // br)
    for v in sorted(candidates[i]):
        r, c = divmod(v - 1, bc)
        is_struck = (i, v) in red
        _el(group, "text", puzzle.symbol(v), class_="candidate" + (" struck" if is_struck else ""),
            x=lay.x(col + (c + 0.5) / bc), y=lay.y(row + (r + 0.5) / br),
            font_size=lay.cell / max(br, bc) * 0.72, font_family=FONT,
            font_weight="bold" if is_struck else "normal", fill=STRUCK if is_struck else PENCIL,
            text_anchor="middle", dominant_baseline="central")


GREY, LIGHT = "#b0b0b0", "#d9d9d9"
_OVER = {ShapeKind.CAGE, ShapeKind.DOT, ShapeKind.MARK, ShapeKind.OUTSIDE, ShapeKind.CORNER,
         ShapeKind.CELLMARK}    # drawn above grid lines
_ARROWS = {"ul": (-1, -1), "ur": (-1, 1), "dl": (1, -1), "dr": (1, 1)}


def _kind_colour(kind: str, default: str) -> str:
    """Return the colour a kind draws its lines or shaded cells in (its `drawn_colour`), or
    `default` when it names none."""
    from .rules.registry import kinds
    cls = kinds().get(kind)
    return (cls.drawn_colour if cls is not None else "") or default


def _centre(lay: Layout, i: int) -> tuple[float, float]:
    """Return the x, y of a cell's centre."""
    row, col = divmod(i, lay.size)
    return lay.x(col + 0.5), lay.y(row + 0.5)


def _points(lay: Layout, cells) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in (_centre(lay, i) for i in cells))


def _draw_shape(parent, sh: Shape, lay: Layout, rule: str = "") -> None:
    """Add the SVG elements of one rule shape (see `Shape` for the kinds), in a group that
    names the rule's kind (`data-rule`)."""
    c, group = lay.cell, _el(parent, "g", class_=f"rule {sh.kind} {sh.style}".strip(),
                             **({"data_rule": rule} if rule else {}))
    if sh.kind in (ShapeKind.LINE, ShapeKind.THERMO):
        colour = _kind_colour(sh.style, GREY) if sh.kind is ShapeKind.LINE else LIGHT
        width = c * (0.16 if sh.kind is ShapeKind.LINE else 0.24)
        _el(group, "polyline", points=_points(lay, sh.cells), fill="none", stroke=colour,
            stroke_width=width, stroke_linecap="round", stroke_linejoin="round",
            stroke_opacity=0.75)
        if sh.kind is ShapeKind.THERMO:
            x, y = _centre(lay, sh.cells[0])
            _el(group, "circle", cx=x, cy=y, r=c * 0.36, fill=LIGHT, stroke="none")
        elif sh.text:
            _draw_line_label(group, sh, lay)
    elif sh.kind is ShapeKind.ARROW:
        _draw_arrow(group, sh, lay)
    elif sh.kind is ShapeKind.CAGE:
        _draw_cage(group, sh, lay)
    elif sh.kind in (ShapeKind.DOT, ShapeKind.MARK):
        (x1, y1), (x2, y2) = (_centre(lay, i) for i in sh.cells[:2])
        x, y = (x1 + x2) / 2, (y1 + y2) / 2
        if sh.kind is ShapeKind.DOT:
            fill = DOT_FILLS.get(sh.style, "#ffffff")
            radius = c * (0.16 if sh.text else 0.12)     # room for a difference or a ratio
            _el(group, "circle", cx=x, cy=y, r=radius, stroke=INK, stroke_width=1.2, fill=fill)
            if sh.text:
                _el(group, "text", sh.text, x=x, y=y, font_size=c * 0.2, font_family=FONT,
                    font_weight="bold", fill="#ffffff" if fill == INK else INK,
                    text_anchor="middle", dominant_baseline="central")
        else:
            _el(group, "rect", x=x - c * 0.16, y=y - c * 0.16, width=c * 0.32, height=c * 0.32,
                fill="#ffffff")
            _el(group, "text", sh.text, x=x, y=y, font_size=c * 0.3, font_family=FONT,
                font_weight="bold", fill=INK, text_anchor="middle", dominant_baseline="central")
    elif sh.kind in (ShapeKind.CIRCLE, ShapeKind.SQUARE):
        for i in sh.cells:
            x, y = _centre(lay, i)
            fill = "#ffffff" if sh.style == "open" else LIGHT
            if sh.kind is ShapeKind.CIRCLE:
                _el(group, "circle", cx=x, cy=y, r=c * 0.4, fill=fill, stroke=GREY, stroke_width=1.5)
            else:
                _el(group, "rect", x=x - c * 0.38, y=y - c * 0.38, width=c * 0.76,
                    height=c * 0.76, fill=LIGHT)
    elif sh.kind is ShapeKind.SHADE:
        for i in sh.cells:
            row, col = divmod(i, lay.size)
            _el(group, "rect", x=lay.x(col), y=lay.y(row), width=c, height=c,
                fill=_kind_colour(rule, LIGHT), fill_opacity=0.55)
    elif sh.kind is ShapeKind.OUTSIDE:
        _draw_outside(group, sh, lay)
    elif sh.kind is ShapeKind.CORNER:
        rows = [i // lay.size for i in sh.cells]
        cols = [i % lay.size for i in sh.cells]
        x, y = lay.x(max(cols)), lay.y(max(rows))
        _el(group, "circle", cx=x, cy=y, r=c * 0.3, fill="#ffffff", stroke=INK, stroke_width=1)
        _el(group, "text", sh.text, x=x, y=y, font_size=c * (0.22 if len(sh.text) < 4 else 0.15),
            font_family=FONT, fill=INK, text_anchor="middle", dominant_baseline="central")
    elif sh.kind is ShapeKind.DIAGONAL:
        n = lay.size
        ends = ((0, 0), (n, n)) if sh.style == "main" else ((n, 0), (0, n))
        (x1, y1), (x2, y2) = ends
        _el(group, "line", x1=lay.x(x1), y1=lay.y(y1), x2=lay.x(x2), y2=lay.y(y2),
            stroke=DIAGONAL, stroke_width=3)
    elif sh.kind is ShapeKind.CELLMARK:
        for i in sh.cells:
            row, col = divmod(i, lay.size)
            _el(group, "text", sh.text, x=lay.x(col + 0.84), y=lay.y(row + 0.22),
                font_size=c * 0.26, font_family=FONT, fill=GREY, text_anchor="middle",
                dominant_baseline="central")


def _draw_arrow(group, sh: Shape, lay: Layout) -> None:
    """Add an arrow: a circle (or pill) on its first cells, a shaft with a head."""
    c, k = lay.cell, int(sh.text or 1)
    circle, shaft = sh.cells[:k], sh.cells[k:]
    rows = [i // lay.size for i in circle]
    cols = [i % lay.size for i in circle]
    pad = c * 0.1
    if shaft:
        _draw_shaft(group, (circle[-1],) + shaft, lay)
    _el(group, "rect", x=lay.x(min(cols)) + pad, y=lay.y(min(rows)) + pad,
        width=(max(cols) - min(cols) + 1) * c - 2 * pad, height=(max(rows) - min(rows) + 1) * c - 2 * pad,
        rx=c * 0.4, fill="#ffffff", stroke=GREY, stroke_width=2)


def _draw_shaft(group, path, lay: Layout) -> None:
    """Add an arrow's shaft through the cells of `path`, with a head on the last."""
    c = lay.cell
    _el(group, "polyline", points=_points(lay, path), fill="none", stroke=GREY,
        stroke_width=2, stroke_linejoin="round")
    (x1, y1), (x2, y2) = _centre(lay, path[-2]), _centre(lay, path[-1])
    dx, dy = x2 - x1, y2 - y1
    norm = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    ux, uy = dx / norm, dy / norm
    for sign in (1, -1):
        hx = x2 - c * 0.25 * ux + sign * c * 0.15 * -uy
        hy = y2 - c * 0.25 * uy + sign * c * 0.15 * ux
        _el(group, "line", x1=x2, y1=y2, x2=hx, y2=hy, stroke=GREY, stroke_width=2)


def _draw_line_label(group, sh: Shape, lay: Layout) -> None:
    """Add a line's text (a regex line's pattern) in the top corner of its first cell, cut
    to LABEL_CHARS with an ellipsis; the whole text is the group's tooltip."""
    c = lay.cell
    _el(group, "title", sh.text)
    text = sh.text if len(sh.text) <= LABEL_CHARS else sh.text[:LABEL_CHARS - 1] + "…"
    row, col = divmod(sh.cells[0], lay.size)
    _el(group, "rect", x=lay.x(col) + 1, y=lay.y(row) + 1, width=c * 0.11 * (len(text) + 1),
        height=c * 0.24, fill="#ffffff", fill_opacity=0.85)
    _el(group, "text", text, x=lay.x(col) + c * 0.06, y=lay.y(row) + c * 0.13,
        font_size=c * 0.2, font_family=FONT, fill=INK, dominant_baseline="central")


def _draw_cage(group, sh: Shape, lay: Layout) -> None:
    """Add a killer cage: a dashed outline just inside its cells, its sum in the first corner."""
    n, c, inset = lay.size, lay.cell, lay.cell * 0.08
    cells = set(sh.cells)
    for i in sh.cells:
        row, col = divmod(i, n)
        x0, y0, x1, y1 = lay.x(col) + inset, lay.y(row) + inset, lay.x(col + 1) - inset, lay.y(row + 1) - inset
        sides = {(-1, 0): (x0, y0, x1, y0), (1, 0): (x0, y1, x1, y1),
                 (0, -1): (x0, y0, x0, y1), (0, 1): (x1, y0, x1, y1)}
        for (dr, dc), (ax, ay, bx, by) in sides.items():
            r2, c2 = row + dr, col + dc
            if not (0 <= r2 < n and 0 <= c2 < n and r2 * n + c2 in cells):
                _el(group, "line", x1=ax, y1=ay, x2=bx, y2=by, stroke=INK, stroke_width=1,
                    stroke_dasharray="3,3")
    if sh.text:
        first = min(sh.cells)
        row, col = divmod(first, n)
        _el(group, "rect", x=lay.x(col) + 1, y=lay.y(row) + 1, width=c * 0.12 * (len(sh.text) + 1),
            height=c * 0.26, fill="#ffffff")
        _el(group, "text", sh.text, x=lay.x(col) + c * 0.06, y=lay.y(row) + c * 0.14,
            font_size=c * 0.22, font_family=FONT, fill=INK, dominant_baseline="central")


def _draw_outside(group, sh: Shape, lay: Layout) -> None:
    """Add a clue outside the grid: beside a row or column, or at a diagonal's start."""
    c = lay.cell
    row, col = divmod(sh.cells[0], lay.size)
    if sh.style in _ARROWS:
        dr, dc = _ARROWS[sh.style]
        x, y = lay.x(col + 0.5 - dc * 0.85), lay.y(row + 0.5 - dr * 0.85)
        _el(group, "line", x1=x + dc * c * 0.18, y1=y + dr * c * 0.18, x2=x + dc * c * 0.42,
            y2=y + dr * c * 0.42, stroke=INK, stroke_width=1)
        x, y = x - dc * c * 0.05, y - dr * c * 0.05
    else:
        offset = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}[sh.style]
        x, y = lay.x(col + 0.5 + offset[0] * 0.85), lay.y(row + 0.5 + offset[1] * 0.85)
    _el(group, "text", sh.text, x=x, y=y, font_size=c * 0.34, font_family=FONT, fill=INK,
        text_anchor="middle", dominant_baseline="central")


def _draw_lines(svg, puzzle, lay) -> None:
    """Add the thin cell lines, then the thick box (region) lines and the border on top."""
    g, h, w = puzzle.geometry, puzzle.geometry.size, puzzle.geometry.width
    thin, thick = _el(svg, "g", class_="cell-lines"), _el(svg, "g", class_="box-lines")
    region = g.region_of
    for horizontal in (True, False):
        lines, segments = (h, w) if horizontal else (w, h)
        for k, j in ((k, j) for k in range(lines + 1) for j in range(segments)):
            # the edge on line k between rows (horizontal) or columns (vertical), segment j
            if 0 < k < lines:
                a = (k - 1) * w + j if horizontal else j * w + k - 1
                b = k * w + j if horizontal else j * w + k
                is_box = region[a] != region[b] and g.has_boxes
            else:
                is_box = True
            group, width, colour = (thick, 3, INK) if is_box else (thin, 1, THIN)
            if horizontal:
                ends = dict(x1=lay.x(j), y1=lay.y(k), x2=lay.x(j + 1), y2=lay.y(k))
            else:
                ends = dict(x1=lay.x(k), y1=lay.y(j), x2=lay.x(k), y2=lay.y(j + 1))
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
    width, height = float(root.get("width", "0")), float(root.get("height", "0"))
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
    from matplotlib.patches import Circle, FancyBboxPatch, Rectangle
    tag = el.tag.rsplit("}", 1)[-1]

    def get(name: str, default: str = "0") -> str:
        return el.get(name, default)

    stroke = get("stroke", "none")
    edge = stroke if stroke != "none" else "none"
    width = float(get("stroke-width", "1"))
    if tag == "rect" and (get("fill", "none") != "none" or edge != "none"):
        x, y, w, h = (float(get(k)) for k in ("x", "y", "width", "height"))
        fill = get("fill", "none")
        common: dict[str, Any] = dict(facecolor=fill if fill != "none" else "none", edgecolor=edge,
                      linewidth=width if edge != "none" else 0,
                      alpha=float(get("fill-opacity", "1")), zorder=z)
        if el.get("rx"):
            rx = float(get("rx"))
            ax.add_patch(FancyBboxPatch((x + rx, y + rx), max(w - 2 * rx, 0.01),
                                        max(h - 2 * rx, 0.01),
                                        boxstyle=f"round,pad={rx}", **common))
        else:
            ax.add_patch(Rectangle((x, y), w, h, **common))
    elif tag == "circle":
        fill = get("fill", "none")
        ax.add_patch(Circle((float(get("cx")), float(get("cy"))), float(get("r")),
                            facecolor=fill if fill != "none" else "none", edgecolor=edge,
                            linewidth=width if edge != "none" else 0, zorder=z))
    elif tag == "polyline":
        xs, ys = zip(*(tuple(map(float, p.split(","))) for p in get("points", "").split()))
        ax.plot(xs, ys, color=stroke, linewidth=width, alpha=float(get("stroke-opacity", "1")),
                solid_capstyle="round", solid_joinstyle="round", zorder=z)
    elif tag == "line":
        ax.plot([float(get("x1")), float(get("x2"))], [float(get("y1")), float(get("y2"))],
                color=stroke, linewidth=width, zorder=z,
                linestyle=(0, (3, 3)) if el.get("stroke-dasharray") else "-",
                solid_capstyle="projecting")
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
    values (givens, and `grid`'s values when given: `core.unexcluded`); with `propagate`, what
    the propagation core leaves (`core.domains`) (singles included), falling back to the former on a contradiction."""
    from . import core
    from .problem import build_problem
    shown = puzzle.with_givens(grid) if grid is not None else puzzle
    problem = build_problem(shown)
    n = puzzle.size
    if propagate:
        masks = core.domains(problem)
        if masks is not None:
            return [frozenset(v for v in range(1, n + 1) if m >> (v - 1) & 1)
                    for m in masks[:n * n]]
    return core.unexcluded(problem, shown.givens)


def write_picture(path: str | Path, puzzle: Puzzle, grid: Sequence[int] | None = None,
                  **kwargs) -> Path:
    """Write an SVG or PNG picture (chosen by the file's suffix) and return its path."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        data = render_svg(puzzle, grid, **kwargs).encode("utf-8")
    elif suffix == ".png":
        data = render_png(puzzle, grid, **kwargs)
    else:
        raise BadInput(f"cannot draw {path.name}: the file must end in .svg or .png")
    write_output(path, data)
    return path
