"""SudokuPad's own puzzle format (`scl…` and `ctc…` payloads and links).

A payload is lz-string (base64) of a *zipped* JSON text: keys shortened (`ce` for cells, `re`
for regions, `o` for overlays…), keys unquoted, strings in single quotes, empty objects left
out between commas (`[,,]` is three of them), `t`/`f` for true/false and colours written
`#0`, `#F` or as six bare hex digits. `relaxed_json` reads that notation (and plain JSON) with
its own bounded parser: nothing is evaluated, depth and size are limited.

What carries meaning is read: the givens (`cells[r][c].value`), the regions, global rules
stated as metadata (`antiknight: …`, a flag or a hidden cage), killer cages with their sums,
kropki dots and XV letters on an edge, quadruple circles on a corner, and what the drawing
elements of `sudokupad_draw.py` stand for (arrows and their bulbs, little killer arrows, odd
and even shapes, inequality signs). SudokuPad draws lines without saying what they mean (their
meaning is in the rules text), so the user names them by colour: `--rules
'line:#C060F0=renban'` (`whispers:4` for Dutch whispers; `paths.py` turns a named line into
rules, also when it passes a cell twice); a line of a colour nobody named stops the reading with
exit 2 naming the colour and where the line starts. Elements that could mean a rule but are not
read (a coloured shape in a cell, a background image, fog) also stop it with exit 2, naming
them; text without a shape, whole shaded cells and metadata are cosmetic and listed in
`Converted.ignored`.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..errors import BadInput
from ..model import default_alphabet
from ..model.geometry import box_shape_for, box_shape_of, parse_cell
from ..text import whole_number
from . import rules_text
from . import sudokupad_draw as draw
from .foreign import Converted, decompress, global_flags
from .paths import kinds_help, line_rule, line_rules

MAX_DEPTH = 64
MAX_ITEMS = 200_000

# the zipped key of each of SudokuPad's keys (the format's own table)
SHORT_KEYS = {
    "c": "color", "ca": "cages", "ct": "center", "c1": "borderColor", "c2": "backgroundColor",
    "ce": "cells", "cs": "cellSize", "a": "arrows", "o": "overlays", "u": "underlays",
    "w": "width", "h": "height", "v": "value", "vd": "videos", "l": "lines", "r": "rounded",
    "re": "regions", "fs": "fontSize", "th": "thickness", "hl": "headLength", "wp": "wayPoints",
    "t": "title", "te": "text", "d": "duration", "d2": "d",
}


_HEX = re.compile(r"#?([0-9A-Fa-f]{6})([0-9A-Fa-f]{2})?$")
_KEY = re.compile(r"[A-Za-z0-9_$]")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_WORDS = {"t": True, "f": False, "true": True, "false": False, "null": None,
          "#0": "#000000", "#F": "#FFFFFF"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\",
            "'": "'", '"': '"'}


def colour(text: Any) -> str | None:
    """Return a colour as `#RRGGBB` (upper case, alpha dropped), None when it is not one."""
    m = _HEX.match(text.strip()) if isinstance(text, str) else None
    return f"#{m[1].upper()}" if m else None


# ---------------------------------------------------------------- the zipped notation

class _Reader:
    """A recursive-descent reader of zipped JSON (and of JSON, which it includes)."""

    def __init__(self, text: str):
        self.s, self.i, self.items = text, 0, 0

    def fail(self, what: str) -> BadInput:
        return BadInput(f"SudokuPad puzzle: {what} at character {self.i + 1}")

    def peek(self) -> str:
        while self.i < len(self.s) and self.s[self.i] in " \t\r\n":
            self.i += 1
        return self.s[self.i] if self.i < len(self.s) else ""

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} deep")
        self.items += 1
        if self.items > MAX_ITEMS:
            raise self.fail(f"more than {MAX_ITEMS} values")
        ch = self.peek()
        if ch == "{":
            return self.obj(depth)
        if ch == "[":
            return self.arr(depth)
        if ch in "'\"":
            return self.string(ch)
        return self.bare()

    def obj(self, depth: int) -> dict[str, Any]:
        self.i += 1
        out: dict[str, Any] = {}
        if self.peek() == "}":
            self.i += 1
            return out
        while True:
            ch = self.peek()
            key = self.string(ch) if ch in "'\"" else self.word()
            if not key:
                raise self.fail("a key expected")
            if self.peek() != ":":
                raise self.fail(f"':' expected after key {key[:20]!r}")
            self.i += 1
            out[key] = self.value(depth + 1)
            ch = self.peek()
            self.i += 1
            if ch == "}":
                return out
            if ch != ",":
                raise self.fail("',' or '}' expected")

    def arr(self, depth: int) -> list[Any]:
        self.i += 1
        out: list[Any] = []
        if self.peek() == "]":              # zipped: '[]' is one empty object; JSON: none
            self.i += 1
            return out
        while True:
            if self.peek() in ",]":
                out.append({})              # an empty object, left out when zipped
                self.items += 1
            else:
                out.append(self.value(depth + 1))
            ch = self.peek()
            self.i += 1
            if ch == "]":
                return out
            if ch != ",":
                raise self.fail("',' or ']' expected")

    def string(self, quote: str) -> str:
        self.i += 1
        out: list[str] = []
        s = self.s
        while True:
            if self.i >= len(s):
                raise self.fail("a string does not end")
            ch = s[self.i]
            self.i += 1
            if ch == quote:
                return "".join(out)
            if ch == "\\":
                if self.i >= len(s):
                    raise self.fail("a string does not end")
                esc = s[self.i]
                self.i += 1
                if esc == "u":
                    code = self.hex4()
                    low = s[self.i:self.i + 2] == "\\u" and 0xD800 <= code < 0xDC00
                    if low:                          # a surrogate pair: one character
                        self.i += 2
                        second = self.hex4()
                        if 0xDC00 <= second < 0xE000:
                            code = 0x10000 + ((code - 0xD800) << 10) + (second - 0xDC00)
                        else:
                            out.append(chr(code))
                            code = second
                    out.append(chr(code))
                else:
                    out.append(_ESCAPES.get(esc, esc))
            else:
                out.append(ch)

    def hex4(self) -> int:
        code = self.s[self.i:self.i + 4]
        if not re.fullmatch(r"[0-9A-Fa-f]{4}", code):
            raise self.fail("bad \\u escape")
        self.i += 4
        return int(code, 16)

    def word(self) -> str:
        start = self.i
        while self.i < len(self.s) and (_KEY.match(self.s[self.i]) or self.s[self.i] in ".-#+"):
            self.i += 1
        return self.s[start:self.i]

    def bare(self) -> Any:
        start = self.i
        text = self.word()
        if not text:
            raise self.fail(f"unexpected {self.s[start:start + 1]!r}")
        if text in _WORDS:
            return _WORDS[text]
        if _NUMBER.fullmatch(text):
            number = float(text)
            return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number
        if re.fullmatch(r"[0-9A-Fa-f]{6}", text):
            return "#" + text
        raise self.fail(f"unexpected {text[:20]!r}")


def relaxed_json(text: str) -> Any:
    """Return the value of a zipped SudokuPad JSON text (plain JSON too), with the short keys
    turned back into SudokuPad's own."""
    reader = _Reader(text)
    value = reader.value(0)
    if reader.peek():
        raise reader.fail("text after the puzzle")
    return _long_keys(value)


def _long_keys(value: Any) -> Any:
    if isinstance(value, list):
        return [_long_keys(v) for v in value]
    if isinstance(value, dict):
        return {SHORT_KEYS.get(k, k): _long_keys(v) for k, v in value.items()}
    return value


def decode(payload: str) -> dict[str, Any]:
    """Return the puzzle object of an `scl…`/`ctc…` payload (its prefix already removed)."""
    data = relaxed_json(decompress(payload, "the SudokuPad payload"))
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise BadInput("the SudokuPad puzzle has no cells")
    return data


# ---------------------------------------------------------------- the puzzle it describes

def _rc(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


def convert(data: dict[str, Any], names: Mapping[str, str] | None = None):
    """Return polydoku's puzzle JSON (a `Converted`) for a decoded SudokuPad puzzle; `names`
    maps a line colour (`#RRGGBB`) to the rule kind its lines stand for."""
    names = {colour(k) or k: v for k, v in (names or {}).items()}
    for spec in names.values():
        line_rule(spec, [])
    rows = data["cells"]
    n = len(rows)
    if not 4 <= n <= 25 or not all(isinstance(row, list) and len(row) == n for row in rows):
        raise BadInput("the SudokuPad puzzle's cells must be a square grid of 4 to 25 rows")
    out: dict[str, Any] = {"size": n}
    converted = Converted(out)
    ignored = converted.ignored
    alphabet = default_alphabet(n)
    givens = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            value = cell.get("value") if isinstance(cell, dict) else None
            if value in (None, ""):
                givens.append(".")
                continue
            digit = int(value) if isinstance(value, int) or (
                isinstance(value, str) and value.isdigit()) else None
            if digit is None or not 1 <= digit <= n:
                raise BadInput(f"SudokuPad cell {_rc(r, c)}: given {str(value)[:10]!r} is not a "
                               f"value 1..{n}")
            givens.append(alphabet[digit - 1])
    out["givens"] = "".join(givens)
    _regions(out, data.get("regions"), n)
    rules: list[Any] = []
    for key in ("fogLights", "foglight", "fog"):
        if data.get(key):
            raise BadInput(f"SudokuPad {key} are not read: write the puzzle as JSON "
                           f"(docs/rules.md)")
    found = data.get("metadata")
    metadata: dict[str, Any] = found if isinstance(found, dict) else {}
    for key in ("bgimage", "bgImage"):
        if metadata.get(key) or data.get(key):
            raise BadInput("the SudokuPad puzzle draws part of itself in a background image, "
                           "which polydoku cannot read")
    rules += [kind for key, kind in global_flags().items()     # global rules as metadata
              if metadata.get(key) not in (None, False) and _says_yes(metadata[key])]
    rules += _cages(data.get("cages"), n, out, ignored)
    found_lines = data.get("lines")
    lines: list[Any] = found_lines if isinstance(found_lines, list) else []
    shapes = draw.shapes_of(data, colour)
    used: set[int] = set()
    pills = _pills(lines, n, used, ignored)
    rules += draw.arrow_rules(data.get("arrows"), shapes, pills, n)
    line_rules_, reading = _lines(lines, n, names, ignored, used, rules_text_of(data, metadata),
                                  _bulb_cells(shapes, n))
    rules += [rule for rule in reading.rules if rule not in rules]
    meanings, said = rules_text.shape_meanings(rules_text_of(data, metadata))
    converted.said += reading.said + said
    rules += _shapes(shapes, n, ignored, _line_ends(line_rules_), meanings)
    rules += line_rules_
    out["rules"] = rules
    title = metadata.get("title") or data.get("title")
    if isinstance(title, str) and title.strip():
        out["name"] = title.strip()[:200]
    return converted


def _bulb_cells(shapes: list[draw.Shape], n: int) -> dict[str, set[str]]:
    """Return, by colour, the cells holding a filled round shape of that colour (where a
    thermometer of that colour starts)."""
    out: dict[str, set[str]] = {}
    for shape in shapes:
        if shape.rounded and shape.background and shape.centre and not shape.text \
                and 0.5 <= shape.width <= 1:
            cell = draw.cell_at(shape.centre, n)
            if cell is not None:
                out.setdefault(shape.background, set()).add(draw.rc_name(cell))
    return out


def rules_text_of(data: dict[str, Any], metadata: dict[str, Any]) -> str:
    """Return the puzzle's rules text (metadata `rules`, or a cage holding `rules: …`)."""
    texts = [metadata.get("rules")] + [
        cage["value"].partition(":")[2] for cage in data.get("cages") or []
        if isinstance(cage, dict) and isinstance(cage.get("value"), str)
        and cage["value"].lstrip().lower().startswith("rules:")]
    return "\n".join(t for t in texts if isinstance(t, str))[:20_000]


def _pills(lines: list[Any], n: int, used: set[int], ignored: list[str]):
    """Return the thick lines that can be a pill bulb, each with a function marking it (and
    the lines drawn over the same cells) used by an arrow."""
    thick = draw.thick_lines(lines, n)

    def marker(cells):
        def mark(what: str) -> None:
            for k, line in enumerate(lines):
                if any(line is other for other_cells, other in thick if other_cells == cells):
                    if k not in used:
                        used.add(k)
                        ignored.append(what)
        return mark
    return [(cells, marker(cells)) for cells, _ in thick]


def _regions(out: dict[str, Any], regions: Any, n: int) -> None:
    if not regions:
        return                                      # the default boxes
    if not isinstance(regions, list) or len(regions) != n:
        raise BadInput(f"the SudokuPad puzzle has {len(regions) if isinstance(regions, list) else 0}"
                       f" regions, a {n}x{n} grid needs {n}")
    named = [_cells(region, f"SudokuPad region {k + 1}", n) for k, region in enumerate(regions)]
    labels: list[int] = [-1] * (n * n)
    for k, region in enumerate(named):
        for name in region:
            r, c = parse_cell(name, n)
            labels[r * n + c] = k
    shape = box_shape_of(n, labels) if -1 not in labels else None
    if shape is None:
        out["regions"] = named
    elif list(shape) != list(box_shape_for(n)):
        out["box"] = list(shape)                    # boxes spelled out as regions


def _cells(items: Any, what: str, n: int) -> list[str]:
    """Return the names of a list of SudokuPad cells ([row, col], 0-based)."""
    if not isinstance(items, list):
        raise BadInput(f"{what} is not a list of cells")
    here = []
    for p in items:
        if not (isinstance(p, list) and len(p) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in p)):
            raise BadInput(f"{what}: bad cell {str(p)[:20]}")
        here.append(_rc(p[0], p[1]))
    return here


_NO = ("false", "0", "no", "off")


def _says_yes(value: Any) -> bool:
    """Return whether a metadata flag is on (present and not false, 0, no or off)."""
    return str(value).strip().lower() not in _NO

_META = re.compile(r"^\s*(title|author|rules|solution|msgcorrect|source|foglink|"
                   r"antiknight|antiking|nonconsecutive|disjointgroups|diagonal[+-])\s*:",
                   re.IGNORECASE)


def _cages(cages: Any, n: int, out: dict[str, Any], ignored: list[str]) -> list[Any]:
    rules: list[Any] = []
    for k, cage in enumerate(cages or []):
        if not isinstance(cage, dict):
            continue
        value, cells = cage.get("value"), cage.get("cells") or []
        if isinstance(value, str) and _META.match(value):
            field, _, text = value.partition(":")
            field = field.strip().lower()
            if field == "title" and text.strip():
                out.setdefault("name", text.strip()[:200])
            if field in global_flags():         # a global rule stated as metadata
                if _says_yes(text):
                    rules.append(global_flags()[field])
                continue
            ignored.append(f"metadata {field}")
            continue
        if not cells:
            continue
        here = _cells(cells, f"SudokuPad cage {k + 1}", n)
        rule: dict[str, Any] = {"kind": "killer", "cells": here}
        if isinstance(value, int) and not isinstance(value, bool):
            rule["sum"] = value
        elif isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
            rule["sum"] = whole_number(value.strip())
        elif isinstance(value, str) and (bounds := _bounds(value)) is not None:
            from ..rules.kind.killer_bound import KillerBound      # named by its class
            rule = {"kind": KillerBound.kind, "cells": here, **bounds}  # "<15", ">20"
        elif value not in (None, ""):
            raise BadInput(f"SudokuPad cage {k + 1} at {here[0]} reads {str(value)[:20]!r}, "
                           f"which is not a sum")
        rules.append(rule)
    return rules


def _bounds(clue: str) -> dict[str, int] | None:
    """Return the bounds a cage's inequality clue ("<15", "≥20") states, or None."""
    from ..rules.kind.killer_bound import bounds_of_clue
    return bounds_of_clue(clue)


def _edge(y: float, x: float, n: int) -> tuple[str, str] | None:
    """Return the two cells whose shared edge has its middle at (y, x), None when none has."""
    for (r1, c1, r2, c2) in ((y - 0.5, x - 1, y - 0.5, x), (y - 1, x - 0.5, y, x - 0.5)):
        if all(float(v).is_integer() for v in (r1, c1, r2, c2)):
            cells = [(int(r1), int(c1)), (int(r2), int(c2))]
            if all(0 <= r < n and 0 <= c < n for r, c in cells):
                return _rc(*cells[0]), _rc(*cells[1])
    return None


def _line_ends(line_rules: list[dict[str, Any]]) -> dict[str, str]:
    """Return the cells where a named line draws a shape of its own, with what it is: a
    thermometer's bulb (its first cell), a between line's two ends, a zipper's centre: each
    kind's `line_marks`."""
    from ..rules.registry import kinds
    ends: dict[str, str] = {}
    for rule in line_rules:
        cls = kinds().get(rule["kind"])
        if cls is not None and rule.get("cells"):
            ends.update(cls.line_marks(rule["cells"]))
    return ends


def _shapes(shapes: list[draw.Shape], n: int, ignored: list[str],
            line_ends: dict[str, str], meanings: dict[str, str]) -> list[Any]:
    """Return the rules of the shapes on edges, corners and in cells; what a grey circle or
    square in a cell, or a grey dot on an edge, is the rules text says (`meanings`; grey
    circles odd and squares even when it says nothing)."""
    rules: list[Any] = []
    for shape in shapes:
        kind = shape.layer[:-1]
        if shape.used:
            ignored.append(shape.used)
            continue
        if shape.centre is None:
            ignored.append(f"{kind} without a centre")
            continue
        y, x = shape.centre
        text, background = shape.text, shape.background
        edge = _edge(y, x, n)
        small = 0 < max(shape.width, shape.height) <= 0.5
        found = draw.cell_at(shape.centre, n)
        at_centre = found is not None and (y - 0.5).is_integer() and (x - 0.5).is_integer()
        centre_cell = draw.rc_name(found) if found is not None else ""
        if edge and text in ("X", "V", "x"):           # a lower-case v is an inequality sign
            rules.append({"kind": "xv", "cells": list(edge), "sum": text.upper()})
        elif edge and small and not text and background in ("#FFFFFF", "#000000"):
            kind_name = "kropki-white" if background == "#FFFFFF" else "kropki-black"
            rules.append({"kind": kind_name, "cells": list(edge)})
        elif edge and small and not text and draw.is_grey(background):
            if "grey dot" not in meanings:
                raise BadInput(f"SudokuPad grey dot between {edge[0]} and {edge[1]}: the rules "
                               f"text does not say what grey dots are; write the puzzle as "
                               f"JSON (docs/rules.md)")
            rules.append({"kind": meanings["grey dot"], "cells": list(edge)})
        elif (sign := draw.sign_rule(shape, n)) is not None:
            rules.append(sign)
        elif (y.is_integer() and x.is_integer() and 0 < y < n and 0 < x < n
              and text and re.fullmatch(r"[0-9 ,]+", text)):
            r, c = int(y), int(x)
            cells = [_rc(r - 1, c - 1), _rc(r - 1, c), _rc(r, c - 1), _rc(r, c)]
            values = [int(v) for v in re.findall(r"\d", text)]
            rules.append({"kind": "quadruple", "cells": cells, "values": values})
        elif not text and at_centre and centre_cell in line_ends:
            ignored.append(f"{line_ends[centre_cell]} at {centre_cell}")
        elif (in_cell := draw.cell_shape(shape, n)) is not None:
            shape_word, cell = in_cell
            rules.append({"kind": meanings.get(shape_word) or _shape_kinds()[shape_word],
                          "cells": [cell]})
        elif at_centre and not text and 0.95 <= min(shape.width, shape.height) \
                and max(shape.width, shape.height) <= 1.05 and not shape.rounded:
            ignored.append(f"shaded cell at {centre_cell}")
        elif not background and not shape.border and text:
            ignored.append(f"text {text[:20]!r} at {shape.where}")
        elif not background and not shape.border:
            ignored.append(f"empty {kind} at {shape.where}")
        else:
            raise BadInput(f"SudokuPad shape at {shape.where} (colour {background or '-'}"
                           f"{', text ' + repr(text[:10]) if text else ''}) is not read: "
                           f"polydoku reads dots, X/V and inequality signs on edges, "
                           f"quadruples on corners, odd circles and even squares in cells "
                           f"and arrow bulbs; write the puzzle as JSON (docs/rules.md)")
    return _merge_cells(rules)


def _shape_kinds() -> dict[str, str]:
    """Return the kind a grey circle or square in a cell is when the rules text says nothing
    (the kinds' `drawn_shape`: odd circles and even squares)."""
    from ..rules.registry import kinds
    return {cls.drawn_shape: kind for kind, cls in kinds().items() if cls.drawn_shape}


def _merge_cells(rules: list[Any]) -> list[Any]:
    """Return the rules with the cells of each kind a shape in a cell stands for (odd, even,
    minimum, maximum: the kinds with `shape_phrases`) in one rule of that kind."""
    from ..rules.registry import kinds
    out: list[Any] = []
    merged: dict[str, dict[str, Any]] = {}
    for rule in rules:
        if isinstance(rule, dict) and kinds()[rule["kind"]].shape_phrases:
            if rule["kind"] in merged:
                merged[rule["kind"]]["cells"] += rule["cells"]
                continue
            merged[rule["kind"]] = rule = dict(rule, cells=list(rule["cells"]))
        out.append(rule)
    return out


def _lines(lines: Any, n: int, names: Mapping[str, str], ignored: list[str],
           used: set[int], text: str,
           bulb_cells: dict[str, set[str]]) -> tuple[list[Any], rules_text.Reading]:
    """Return the rules of the lines (named by the user, else by the rules text; lines of a
    colour that all start in a bulb of their colour are thermometers) and what the rules text
    said."""
    rules: list[Any] = []
    paths: list[tuple[str, list[str]]] = []
    diagonals: list[str] = []
    for k, line in enumerate(lines or []):
        if not isinstance(line, dict) or k in used:
            continue
        points = [draw.point(p) for p in line.get("wayPoints") or []]
        tint = colour(line.get("color")) or str(line.get("color", "?"))[:20]
        thin = (draw.number(line.get("thickness")) or 0) <= 3
        if thin and tint not in names and (sign := draw.chevron_rule(points, n)) is not None:
            rules.append(sign)
            continue
        found = draw.path_cells(points, n)
        cells = [draw.rc_name(c) for c in found] if found else []
        if len(cells) < 2:
            if tint in names:
                raise BadInput(f"SudokuPad line of colour {tint} does not run through cells, "
                               f"so it names no cells")
            diagonals += draw.diagonal(points, n)
            ignored.append(f"line of colour {tint} off the cells")
            continue
        paths.append((tint, cells))
    unnamed: dict[str, list[str]] = {}
    for tint, cells in paths:
        if tint not in names:
            unnamed.setdefault(tint, []).append(cells[0])
    bulbs = {t: "thermometer" for t, starts in unnamed.items()
             if all(start in bulb_cells.get(t, ()) for start in starts)}
    reading = rules_text.read(text, {t: s[0] for t, s in unnamed.items() if t not in bulbs},
                              tuple(dict.fromkeys(diagonals)),
                              frozenset(["thermometer", "slow-thermometer"] if bulbs else []))
    if bulbs and re.search(r"slow thermo", text, re.IGNORECASE):
        bulbs = {t: "slow-thermometer" for t in bulbs}
    reading.said += [f"lines of colour {t} start in a bulb: {kind}" for t, kind in bulbs.items()]
    names = {**bulbs, **reading.lines, **names}
    unnamed = {t: starts for t, starts in unnamed.items() if t not in names}
    if unnamed:
        tint, starts = next(iter(unnamed.items()))
        more = f" (and lines of {len(unnamed) - 1} more colours)" if len(unnamed) > 1 else ""
        raise BadInput(f"SudokuPad draws lines without saying what they mean: "
                       f"{len(starts)} line{'s' if len(starts) > 1 else ''} of colour {tint} "
                       f"(the first from {starts[0]}){more}, and the rules text does not say; "
                       f"name each colour, for example --rules 'line:{tint}=renban' "
                       f"({kinds_help()})")
    for tint, cells in paths:
        rules += line_rules(names[tint], cells)
    return rules, reading
