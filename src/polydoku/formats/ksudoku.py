"""KSudoku save files (KDE's ksudoku, `src/gui/serializer.cpp`): reader and writer.

A save is XML:

    <!DOCTYPE ksudoku>
    <ksudoku>
     <game had-help="0" msecs-elapsed="0">
      <puzzle>
       <graph order="9" type="sudoku" specific-type="Plain"/>
       <values>_d__h____g__bkj____jk_ ...</values>      (the givens)
       <solution>...</solution>                       (optional)
      </puzzle>
      <history>...</history>                          (the player's moves; ignored here)
     </game>
    </ksudoku>

`values` and `solution` hold one symbol per cell: `_` for an empty cell (older saves wrote
`a`), and the letter 'a' + v for value v (so `b` is 1, `j` is 9, `z` is 25). Cells are in
KSudoku's order, column by column: the symbol of row r, column c is at c * order + r.
Only plain sudoku (`type="sudoku"`, order 4, 9, 16 or 25, square boxes) is read or written;
other game types (XSudoku, jigsaw, samurai, killer, roxdoku...) are refused with one line.

Parsing goes through defusedxml: a document that declares entities, or refers to outside
ones, is bad input; nothing is ever expanded or fetched. This module does no file I/O.
"""

from __future__ import annotations

from typing import Sequence
from xml.etree.ElementTree import Element, ParseError

from ..errors import BadInput
from ..model import Geometry, Puzzle
from ..text import shorten, whole_number

ORDERS = {4: 2, 9: 3, 16: 4, 25: 5}      # KSudoku's plain orders and their box side
EMPTY = "_"


def parse_ksudoku(text: str, *, name: str | None = None) -> Puzzle:
    """Return the puzzle (its givens) of a KSudoku save."""
    return read_ksudoku(text, name=name)[0]


def read_ksudoku(text: str, *, name: str | None = None
                 ) -> tuple[Puzzle, tuple[int, ...] | None]:
    """Return the puzzle of a KSudoku save and its stored solution (None when it has none),
    both row-major."""
    root = _parse_xml(text)
    if root.tag != "ksudoku":
        raise BadInput(f"not a KSudoku save: the root element is <{root.tag}>, not <ksudoku>")
    game = _only_child(root, "game", "<ksudoku>")
    puzzle_el = _only_child(game, "puzzle", "<game>")
    order = _plain_order(_only_child(puzzle_el, "graph", "<puzzle>"))
    values = _cells(_only_child(puzzle_el, "values", "<puzzle>"), order, "values")
    solution_el = _optional_child(puzzle_el, "solution", "<puzzle>")
    solution = None
    if solution_el is not None and (solution_el.text or "").strip():
        solution = _cells(solution_el, order, "solution")
        if 0 in solution:
            raise BadInput("KSudoku <solution> has an empty cell")
    puzzle = Puzzle(Geometry(order, ORDERS[order], ORDERS[order]), values, name=name)
    return puzzle, solution


def write_ksudoku(puzzle: Puzzle, solution: Sequence[int] | None = None) -> str:
    """Return a KSudoku save of a puzzle (and a solution, row-major, when given)."""
    g = puzzle.geometry
    if g.size not in ORDERS or g.box_rows != g.box_cols:
        raise BadInput(f"KSudoku saves plain sudoku of order 4, 9, 16 or 25 with square "
                       f"boxes, not {g.size}x{g.size} with {g.box_rows}x{g.box_cols} boxes")
    if not g.plain_values:
        raise BadInput(f"KSudoku saves values 1..{g.size}, not {g.values_words()}")
    if puzzle.rules:
        raise BadInput(f"a plain KSudoku save cannot carry the rules "
                       f"{', '.join(r.name for r in puzzle.rules)}")
    if solution is not None and (len(solution) != g.ncells or
                                 not all(1 <= v <= g.size for v in solution)):
        raise BadInput(f"a KSudoku solution needs {g.ncells} values in 1..{g.size}")
    lines = ["<!DOCTYPE ksudoku>", "<ksudoku>", ' <game had-help="0" msecs-elapsed="0">',
             "  <puzzle>",
             f'   <graph specific-type="Plain" type="sudoku" order="{g.size}"/>',
             f"   <values>{_symbols(puzzle.givens, g.size)}</values>"]
    if solution is not None:
        lines.append(f"   <solution>{_symbols(solution, g.size)}</solution>")
    lines += ["  </puzzle>", "  <history/>", " </game>", "</ksudoku>", ""]
    return "\n".join(lines)


def _parse_xml(text: str) -> Element:
    """Return the root element, refusing entity declarations and outside references."""
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring
    try:
        return fromstring(text, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as err:
        raise BadInput(f"unsafe XML refused ({type(err).__name__}): KSudoku saves declare "
                       f"no entities") from None
    except ParseError as err:
        line, column = err.position
        reason = str(err).split(":")[0]
        raise BadInput(f"malformed XML: {reason}", line=line, column=column + 1) from None


def _children(parent: Element, tag: str) -> list[Element]:
    return [child for child in parent if child.tag == tag]


def _only_child(parent: Element, tag: str, where: str) -> Element:
    """Return the one <tag> child of an element (bad input when missing or repeated)."""
    found = _optional_child(parent, tag, where)
    if found is None:
        raise BadInput(f"KSudoku save has no <{tag}> in {where}")
    return found


def _optional_child(parent: Element, tag: str, where: str) -> Element | None:
    """Return the <tag> child of an element, None when it has none (bad input when several)."""
    found = _children(parent, tag)
    if len(found) > 1:
        raise BadInput(f"KSudoku save has {len(found)} <{tag}> elements in {where}, expected one")
    return found[0] if found else None


def _plain_order(graph: Element) -> int:
    """Return the order of a plain-sudoku <graph>, refusing every other game type."""
    kind = graph.get("type")
    if kind != "sudoku":
        specific = graph.get("specific-type") or graph.get("name")
        what = f"{kind!r}" + (f" ({specific})" if specific else "")
        raise BadInput(f"KSudoku game type {what} is not supported: only plain sudoku "
                       f"(<graph type=\"sudoku\">)")
    raw = (graph.get("order") or "").strip()
    try:
        order = whole_number(raw) if raw.isascii() and raw.isdigit() else int(raw, 10)
    except ValueError:
        raise BadInput(f"KSudoku <graph> order {shorten(raw)!r} is not a whole number") from None
    if order not in ORDERS:
        raise BadInput(f"KSudoku <graph> order {shorten(raw)} is not a plain sudoku order "
                       f"(4, 9, 16 or 25)")
    return order


def _cells(element: Element, order: int, what: str) -> tuple[int, ...]:
    """Return the row-major values of a <values> or <solution> string (0 for empty)."""
    text = (element.text or "").strip()
    if len(text) != order * order:
        raise BadInput(f"KSudoku <{what}> has {len(text)} symbols, expected {order * order}")
    out = [0] * (order * order)
    for k, ch in enumerate(text):
        col, row = divmod(k, order)
        value = 0 if ch in (EMPTY, "a") else ord(ch) - ord("a")
        if not 0 <= value <= order:
            raise BadInput(f"KSudoku <{what}> symbol {k + 1} is {ch!r}: expected _ or a letter "
                           f"b..{chr(ord('a') + order)}")
        out[row * order + col] = value
    return tuple(out)


def _symbols(values: Sequence[int], order: int) -> str:
    """Return KSudoku's symbol string of row-major values, column by column."""
    return "".join(chr(ord("a") + values[row * order + col]) if values[row * order + col]
                   else EMPTY for col in range(order) for row in range(order))
