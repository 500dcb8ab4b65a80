"""f-puzzles and SudokuPad links: read them into polydoku's puzzle JSON, and write them back.

An f-puzzles link is `https://www.f-puzzles.com/?load=PAYLOAD`, where PAYLOAD is the puzzle's
JSON compressed with lz-string (`compressToBase64`); SudokuPad opens the same payload as
`https://sudokupad.app/fpuzzles` + PAYLOAD (or `fpuz` + PAYLOAD). The bare payload and the JSON
itself are read too. SudokuPad's short links (`sudokupad.app/abc123`) name a puzzle kept on its
server: `formats/fetch.py` fetches it (or says, offline, what to paste instead). Its own
`scl`/`ctc` payloads are read by `formats/sudokupad.py` (their lines are named by colour by
the user).

Elements that carry meaning become rules (docs/rules.md); cosmetic ones (lines, shapes, text
and plain cages drawn without a rule) are ignored and listed in `Converted.ignored`; any other
element is bad input naming it.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from ..errors import BadInput
from ..model.rules import Rule, hooks_of
from ..rules.base import fpuzzles_cells, fpuzzles_number, fpuzzles_refused
from ..text import whole_number
from .foreign import Converted, decompress, is_foreign

MAX_PAYLOAD = 2_000_000          # characters: a real puzzle is a few thousand
COSMETIC = ("rectangle", "circle", "text", "cage", "fogofwar", "foglight",
            "disabledlogic", "truecandidatesoptions", "solution", "author", "ruleset",
            "metadata", "highlightConflicts")
_CELL = re.compile(r"^R(\d+)C(\d+)$", re.IGNORECASE | re.ASCII)


def read_link(text: str, lines: dict[str, str] | None = None) -> Converted:
    """Return the puzzle of a link, a payload or f-puzzles JSON; `lines` names the kind of
    a SudokuPad puzzle's lines by colour."""
    return convert_object(_payload_json(text.strip()), lines)


def convert_object(data: dict[str, Any], lines: dict[str, str] | None = None) -> Converted:
    """Return the puzzle of decoded f-puzzles JSON, or of a SudokuPad puzzle object."""
    from .foreign import cage_meaning
    if "cells" in data and "grid" not in data:
        from . import sudokupad
        converted = sudokupad.convert(data, lines)
        meta = data.get("metadata")
        cage_meaning(converted, sudokupad.rules_text_of(data, meta if isinstance(meta, dict)
                                                        else {}))
        return converted
    converted = convert(data, lines)
    text = data.get("ruleset")
    cage_meaning(converted, text[:20_000] if isinstance(text, str) else "")
    return converted


def _payload_json(text: str) -> dict[str, Any]:
    """Return the decoded f-puzzles JSON of a link, a payload or the JSON itself (or the
    puzzle object of a SudokuPad scl/ctc payload)."""
    if len(text) > MAX_PAYLOAD:
        raise BadInput(f"the link is {len(text)} characters long, more than {MAX_PAYLOAD}")
    if text.startswith("{"):
        return _json(text)
    return payload_object(link_payload(text))


_SHORT = re.compile(r"[A-Za-z0-9_.~-]{1,100}(/[A-Za-z0-9_.~-]{1,100}){0,3}")


def link_payload(text: str) -> str:
    """Return the payload of an f-puzzles or SudokuPad link (`?load=`, `?puzzle=`,
    `?puzzleid=`, `/puzzle/…`, `/sudoku/…` or the path itself), or the text when it is no
    link."""
    if not ("://" in text or text.lower().startswith(("www.", "f-puzzles.com", "sudokupad.app",
                                                       "beta.sudokupad.app", "tinyurl.com"))):
        return text.replace(" ", "+")
    url = urlparse(text if "://" in text else "https://" + text)
    host = (url.hostname or "").lower()
    if host == "tinyurl.com" or host.endswith(".tinyurl.com"):
        from .fetch import expand        # the network module loads only for a short link
        return link_payload(expand(url.path.strip("/")))
    query = parse_qs(url.query)
    if host.endswith("f-puzzles.com"):
        load = query.get("load")
        if not load:
            raise BadInput("f-puzzles link without a ?load= payload")
        return load[0].replace(" ", "+")
    if not host.endswith(("sudokupad.app", "crackingthecryptic.com")):
        raise BadInput(f"not an f-puzzles or SudokuPad link: {host[:60]!r}")
    for key in ("puzzleid", "puzzle"):
        if query.get(key):
            return query[key][0].replace(" ", "+")
    path = url.path.lstrip("/")
    for prefix in ("puzzle/", "sudoku/"):
        if path.startswith(prefix):
            path = path[len(prefix):]
    return unquote(path).replace(" ", "+")


def payload_object(payload: str, fetched: bool = False) -> dict[str, Any]:
    """Return the puzzle object of a payload: SudokuPad's `scl`/`ctc` (its own format),
    `fpuzzles`/`fpuz` or a bare f-puzzles payload; a short link's puzzle is fetched from
    SudokuPad (formats/fetch.py), whose answer may also be the puzzle's zipped JSON."""
    if fetched and payload.startswith("{"):
        from .sudokupad import relaxed_json
        data = relaxed_json(payload)
        if not is_foreign(data):
            raise BadInput("SudokuPad's answer has no puzzle (no \"cells\" or \"grid\")")
        return data
    if payload.startswith(("scl", "ctc")):
        from .sudokupad import decode
        return decode(payload[3:])
    for prefix in ("fpuzzles", "fpuz"):
        if payload.startswith(prefix):
            return _json(decompress(payload[len(prefix):], "the link's payload"))
    if payload.startswith("N4Ig"):
        return _json(decompress(payload, "the link's payload"))
    if fetched or not _SHORT.fullmatch(payload):
        raise BadInput(f"the link's payload {payload[:20]!r}... is no SudokuPad or f-puzzles "
                       f"payload (scl, ctc, fpuz, fpuzzles) nor a short link")
    from .fetch import short_link
    return payload_object(short_link(payload), fetched=True)


def _json(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:     # JSONDecodeError is a ValueError
        why = getattr(err, "msg", "too deep or too long")
        raise BadInput(f"the link's puzzle is not JSON: {why}") from None
    if not is_foreign(data):
        raise BadInput("the link's puzzle has no \"grid\" (f-puzzles) or \"cells\" (SudokuPad)")
    return data


def _cell(text: Any, what: str, n: int, outside: bool = False) -> tuple[int, int]:
    """Return the 1-based (row, col) of `R1C1` (0 and n+1 allowed when `outside`)."""
    m = _CELL.match(text) if isinstance(text, str) else None
    if not m:
        raise BadInput(f"{what}: bad cell {str(text)[:20]!r}")
    r, c = whole_number(m[1]), whole_number(m[2])
    low, high = (0, n + 1) if outside else (1, n)
    if not (low <= r <= high and low <= c <= high):
        raise BadInput(f"{what}: cell {text[:20]} is outside the {n}x{n} grid")
    return r, c


def _name(rc: tuple[int, int]) -> str:
    return f"r{rc[0]}c{rc[1]}"


def _entries(data: dict, key: str) -> list[dict]:
    items = data.get(key) or []
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise BadInput(f"f-puzzles \"{key}\" must be a list of objects")
    return items


def convert(data: dict[str, Any], names: dict[str, str] | None = None) -> Converted:
    """Return polydoku's puzzle JSON for decoded f-puzzles JSON; `names` maps the colour of
    its plain lines (`#RRGGBB`) to the kind they stand for."""
    n = data.get("size", 9)
    if isinstance(n, bool) or not isinstance(n, int) or not 4 <= n <= 25:
        raise BadInput("f-puzzles \"size\" must be a number from 4 to 25")
    grid = data["grid"]
    if len(grid) != n or not all(isinstance(row, list) and len(row) == n for row in grid):
        raise BadInput(f"f-puzzles \"grid\" must be {n} rows of {n} cells")
    out: dict[str, Any] = {"size": n}
    givens, regions = [], []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            cell = cell if isinstance(cell, dict) else {}
            value = cell.get("value")
            given = cell.get("given") and value not in (None, "", 0)
            givens.append(_symbol(fpuzzles_number(value, f"grid R{r + 1}C{c + 1}"), n) if given else ".")
            regions.append(cell.get("region"))
    out["givens"] = "".join(givens)
    _geometry(out, regions, n)
    converted = Converted(out)
    rules: list[Any] = _rules(data, n, converted)
    rules += _named_lines(data, n, names or {}, converted)
    out["rules"] = rules
    title = data.get("title")
    if isinstance(title, str) and title.strip():
        out["name"] = title.strip()[:200]
    return converted


def _symbol(value: int, n: int) -> str:
    from ..model.puzzle import default_alphabet
    if not 1 <= value <= n:
        raise BadInput(f"given {value} is outside 1..{n}")
    return default_alphabet(n)[value - 1]


def _geometry(out: dict, regions: list, n: int) -> None:
    """Set "regions" (or "box": "none", or another box shape) when the grid's regions are not
    the default boxes."""
    from ..model.geometry import Geometry, box_shape_of
    try:
        default = Geometry.of_size(n).region_of
        boxed = True
    except BadInput:                # a prime size: f-puzzles' default region is the row
        default = tuple(i // n for i in range(n * n))
        boxed = False
    ids = [r if isinstance(r, int) and not isinstance(r, bool) else default[i]
           for i, r in enumerate(regions)]
    if ids == list(default):
        if not boxed:
            out["box"] = "none"            # whole-row regions: no boxes at all
        return
    shape = box_shape_of(n, ids)
    if shape:                              # boxes of another shape (3x2 on a 6x6), spelled out
        out["box"] = list(shape)
        return
    symbols = "ABCDEFGHIJKLMNOPQRSTUVWXY"
    remap: dict[int, str] = {}
    text = []
    for v in ids:
        if v not in remap:
            if len(remap) >= len(symbols):
                raise BadInput("f-puzzles grid has too many regions")
            remap[v] = symbols[len(remap)]
        text.append(remap[v])
    out["regions"] = "".join(text)


def _rules(data: dict, n: int, conv: Converted) -> list[dict]:
    """Return the rules of every element with a meaning: the kinds whose `fpuzzles` keys name
    it read it (bad input for an element no kind reads)."""
    rules: list[dict] = []
    for key, value in data.items():
        if key in ("size", "grid", "title", "line"):
            continue
        if key in COSMETIC:
            if value:
                conv.ignored.append(key)
            continue
        kinds = _kinds_keyed().get(key)
        if not kinds:
            if not value:
                continue
            raise BadInput(f"f-puzzles element {key[:30]!r} is not supported")
        if value or key == "negative":
            rules += _read_by_kinds(kinds, key, data, n)
    return rules


def _kinds_keyed() -> dict[str, list[type[Rule]]]:
    """Return the kinds that read f-puzzles elements, by key (`Rule.fpuzzles`)."""
    from ..rules.registry import named_in
    return named_in("fpuzzles")


def _read_by_kinds(kinds: list[type[Rule]], key: str, data: dict, n: int) -> list[Any]:
    """Return the rules the kinds saved under `key` read from its value (`read_fpuzzles`); a
    list value is checked to be a list of objects first, as f-puzzles writes them."""
    raw = data[key]
    value = _entries(data, key) if isinstance(raw, list) and key != "negative" else raw

    def cell(text: Any, outside: bool = False) -> str:
        return _name(_cell(text, key, n, outside))

    return [rule for cls in kinds for rule in cls.fpuzzles_rules(key, value, n, cell)]


def _named_lines(data: dict, n: int, names: dict[str, str], conv: Converted) -> list[dict]:
    """Return the rules of the plain lines whose colour is named (`line:#RRGGBB=kind`, or by
    a sentence of the rules text that names the colour); the others are cosmetic, listed with
    their colour."""
    from . import rules_text
    from .paths import line_rules
    from .sudokupad import colour
    names = {colour(k) or k: v for k, v in names.items()}
    text = data.get("ruleset") if isinstance(data.get("ruleset"), str) else ""
    tints = {t: "" for e in _entries(data, "line") if (t := colour(e.get("outlineC")))
             and t not in names}
    if text and tints:
        reading = rules_text.read(text[:20_000], tints, by_colour_only=True)
        conv.said += reading.said
        names = {**reading.lines, **names}
    rules: list[dict] = []
    for e in _entries(data, "line"):
        tint = colour(e.get("outlineC")) or str(e.get("outlineC", "?"))[:20]
        spec = names.get(tint)
        for line in e.get("lines") or []:
            if spec is None:
                conv.ignored.append(f"line of colour {tint}")
                continue
            cells = fpuzzles_cells(line, lambda x: _name(_cell(x, "line", n)), "line")
            rules += line_rules(spec, [c for i, c in enumerate(cells)
                                       if i == 0 or c != cells[i - 1]])
    for spec_colour in names:
        if not any((colour(e.get("outlineC")) or "") == spec_colour
                   for e in _entries(data, "line")):
            raise BadInput(f"the f-puzzles puzzle has no line of colour {spec_colour} "
                           f"(--rules line:{spec_colour}=...)")
    return rules


# ---------------------------------------------------------------------------- writing

def to_fpuzzles(puzzle, solution=None) -> dict[str, Any]:
    """Return the f-puzzles JSON of a puzzle (its rules, regions and givens)."""
    from .jsonfmt import puzzle_to_dict
    if not puzzle.geometry.plain_values:
        g = puzzle.geometry
        raise BadInput(f"f-puzzles and SudokuPad hold values 1..{g.size}, not "
                       f"{g.values_words()}" if g.is_square else
                       f"f-puzzles and SudokuPad hold square grids, not {g.shape_words()}")
    d = puzzle_to_dict(puzzle)
    n = d["size"]
    g = puzzle.geometry
    grid = []
    for r in range(n):
        row = []
        for c in range(n):
            v = puzzle.givens[r * n + c]
            cell: dict[str, Any] = {"value": v, "given": True} if v else {}
            if not g.is_rectangular:
                cell["region"] = g.region_of[r * n + c]
            row.append(cell)
        grid.append(row)
    out: dict[str, Any] = {"size": n, "grid": grid}
    if puzzle.name:
        out["title"] = puzzle.name
    for rule in puzzle.rules:
        if "write_fpuzzles" not in hooks_of(type(rule)):
            raise fpuzzles_refused(rule.kind)
        _add(out, rule.fpuzzles_entries(n, _write_cell))
    if solution is not None:
        out["solution"] = list(solution)
    return out


def _write_cell(cell: tuple[int, int]) -> str:
    """Return a cell (0-based row and column, -1 and n allowed) as f-puzzles writes it."""
    return f"R{cell[0] + 1}C{cell[1] + 1}"


def _add(out: dict[str, Any], added: dict[str, Any]) -> None:
    """Add what a rule writes to the f-puzzles JSON: lists extend the key's list, other
    values (flags) are set."""
    for key, value in added.items():
        if isinstance(value, list):
            out.setdefault(key, []).extend(value)
        else:
            out[key] = value


def to_link(puzzle, app: str = "fpuzzles", solution=None) -> str:
    """Return a link that opens the puzzle in f-puzzles or SudokuPad."""
    import lzstring
    payload = lzstring.LZString().compressToBase64(json.dumps(to_fpuzzles(puzzle, solution)))
    if app == "sudokupad":
        return "https://sudokupad.app/fpuzzles" + payload
    return "https://www.f-puzzles.com/?load=" + payload
