"""SudokuPad's own puzzle format (`scl…` and `ctc…` payloads and links).

A payload is lz-string (base64) of a *zipped* JSON text: keys shortened (`ce` for cells, `re`
for regions, `o` for overlays…), keys unquoted, strings in single quotes, empty objects left
out between commas (`[,,]` is three of them), `t`/`f` for true/false and colours written
`#0`, `#F` or as six bare hex digits. `relaxed_json` reads that notation (and plain JSON) with
its own bounded parser: nothing is evaluated, depth and size are limited.

What carries meaning is read: the givens (`cells[r][c].value`), the regions, global rules
stated as metadata (`antiknight: …`, a flag or a hidden cage), killer cages with their sums, kropki dots (small round white or black shapes on an edge between two cells), XV
letters on an edge, quadruple circles on a corner. SudokuPad draws lines without saying what
they mean (their meaning is in the rules text), so the user names them by colour:
`--rules 'line:#C060F0=renban'` (`whispers:4` for Dutch whispers); a line of a colour nobody named stops the reading with exit 2
naming the colour and where the line starts. Elements that could mean a rule but are not read
(arrows, shapes inside cells, a background image, fog) also stop it with exit 2, naming them;
text without a shape, and metadata, are cosmetic and listed in `Converted.ignored`.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

from ..errors import BadInput
from ..model import default_alphabet
from ..model.geometry import box_shape_for, box_shape_of, parse_cell
from ..text import whole_number
from .foreign import GLOBALS, Converted, decompress

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

# line kinds a colour can be named as (polydoku rule kinds whose parameter is a path of cells)
LINE_KINDS = ("whispers", "renban", "palindrome", "thermometer", "slow-thermometer", "between",
              "entropic", "modular", "zipper", "region-sum", "parity", "lockout", "double-arrow",
              "sum-line")
# the kinds a line name gives a number to (`whispers:4`, `lockout:4`, `sum-line:15`)
LINE_NUMBERS = {"whispers": "difference", "lockout": "difference", "sum-line": "sum"}

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

def _number(x: Any) -> float | None:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x)


def _point(p: Any) -> tuple[float, float] | None:
    if isinstance(p, list) and len(p) == 2:
        y, x = _number(p[0]), _number(p[1])
        if y is not None and x is not None:
            return y, x
    return None


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
    for key in ("arrows", "fogLights", "foglight", "fog"):
        if data.get(key):
            raise BadInput(f"SudokuPad {key} are not read: write the puzzle as JSON "
                           f"(docs/rules.md)")
    found = data.get("metadata")
    metadata: dict[str, Any] = found if isinstance(found, dict) else {}
    for key in ("bgimage", "bgImage"):
        if metadata.get(key) or data.get(key):
            raise BadInput("the SudokuPad puzzle draws part of itself in a background image, "
                           "which polydoku cannot read")
    rules += [kind for key, kind in GLOBALS.items()      # global rules as metadata flags
              if metadata.get(key) not in (None, False) and _says_yes(metadata[key])]
    rules += _cages(data.get("cages"), n, out, ignored)
    line_rules = _lines(data.get("lines"), n, names, ignored)
    rules += _shapes(data, n, ignored, _line_ends(line_rules))
    rules += line_rules
    out["rules"] = rules
    title = metadata.get("title") or data.get("title")
    if isinstance(title, str) and title.strip():
        out["name"] = title.strip()[:200]
    return converted


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
            if field in GLOBALS:                # a global rule stated as metadata
                if _says_yes(text):
                    rules.append(GLOBALS[field])
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
        elif value not in (None, ""):
            raise BadInput(f"SudokuPad cage {k + 1} at {here[0]} reads {str(value)[:20]!r}, "
                           f"which is not a sum")
        rules.append(rule)
    return rules


def _centre_cell(p: tuple[float, float] | None, n: int) -> str | None:
    """Return the cell whose centre is the point (y, x) of SudokuPad's coordinates (a cell
    (r, c) spans r..r+1, c..c+1), None when the point is no cell's centre."""
    if p is None or not ((p[0] - 0.5).is_integer() and (p[1] - 0.5).is_integer()):
        return None
    r, c = int(p[0] - 0.5), int(p[1] - 0.5)
    return _rc(r, c) if 0 <= r < n and 0 <= c < n else None


def _edge(y: float, x: float, n: int) -> tuple[str, str] | None:
    """Return the two cells whose shared edge has its middle at (y, x), None when none has."""
    for (r1, c1, r2, c2) in ((y - 0.5, x - 1, y - 0.5, x), (y - 1, x - 0.5, y, x - 0.5)):
        if all(float(v).is_integer() for v in (r1, c1, r2, c2)):
            cells = [(int(r1), int(c1)), (int(r2), int(c2))]
            if all(0 <= r < n and 0 <= c < n for r, c in cells):
                return _rc(*cells[0]), _rc(*cells[1])
    return None


def _line_ends(line_rules: list[dict[str, Any]]) -> dict[str, str]:
    """Return the cells where a named line draws a circle of its own, with what it is: a
    thermometer's bulb (its first cell), a between line's two ends."""
    ends = {}
    for rule in line_rules:
        if rule["kind"] in ("thermometer", "slow-thermometer"):
            ends[rule["cells"][0]] = f"{rule['kind']} bulb"
        elif rule["kind"] == "between":
            ends[rule["cells"][0]] = ends[rule["cells"][-1]] = "between line end"
    return ends


def _shapes(data: dict[str, Any], n: int, ignored: list[str],
            line_ends: dict[str, str]) -> list[Any]:
    rules: list[Any] = []
    for layer in ("overlays", "underlays"):
        for shape in data.get(layer) or []:
            if not isinstance(shape, dict):
                continue
            centre = _point(shape.get("center"))
            text = str(shape.get("text", "")).strip()
            width, height = _number(shape.get("width")), _number(shape.get("height"))
            background = colour(shape.get("backgroundColor"))
            if centre is None:
                ignored.append(f"{layer[:-1]} without a centre")
                continue
            y, x = centre
            where = f"({y:g}, {x:g})"
            edge = _edge(y, x, n)
            small = width is not None and height is not None and max(width, height) <= 0.5
            if edge and text.upper() in ("X", "V"):
                rules.append({"kind": "xv", "cells": list(edge), "sum": text.upper()})
            elif edge and small and not text and background in ("#FFFFFF", "#000000"):
                kind = "kropki-white" if background == "#FFFFFF" else "kropki-black"
                rules.append({"kind": kind, "cells": list(edge)})
            elif (y.is_integer() and x.is_integer() and 0 < y < n and 0 < x < n
                  and text and re.fullmatch(r"[0-9 ,]+", text)):
                r, c = int(y), int(x)
                cells = [_rc(r - 1, c - 1), _rc(r - 1, c), _rc(r, c - 1), _rc(r, c)]
                values = [int(v) for v in re.findall(r"\d", text)]
                rules.append({"kind": "quadruple", "cells": cells, "values": values})
            elif not text and (cell := _centre_cell(centre, n)) is not None \
                    and cell in line_ends:
                ignored.append(f"{line_ends[cell]} at {cell}")
            elif not background and not shape.get("borderColor") and text:
                ignored.append(f"text {text[:20]!r} at {where}")
            elif not background and not shape.get("borderColor"):
                ignored.append(f"empty {layer[:-1]} at {where}")
            else:
                raise BadInput(f"SudokuPad shape at {where} (colour {background or '-'}"
                               f"{', text ' + repr(text[:10]) if text else ''}) is not read: "
                               f"polydoku reads dots and X/V on edges and quadruples on "
                               f"corners; write the puzzle as JSON (docs/rules.md)")
    return rules


def line_rule(spec: str, cells: list[str]) -> dict[str, Any]:
    """Return the rule a named line stands for: `spec` is a line kind, or with a number for
    the kinds that take one (`whispers:4`: Dutch whispers; `lockout:4`; `sum-line:15`). A
    sum line drawn back to its first cell is a loop."""
    kind, _, param = spec.partition(":")
    if kind not in LINE_KINDS:
        raise BadInput(f"line kind {kind[:30]!r} is not one polydoku reads from SudokuPad lines "
                       f"(known: {', '.join(LINE_KINDS)}; whispers:D, lockout:D for a difference D, sum-line:S for a sum S)")
    rule: dict[str, Any] = {"kind": kind, "cells": cells}
    if param:
        if kind not in LINE_NUMBERS or not param.isascii() or not param.isdigit() \
                or len(param) > 2:
            raise BadInput(f"line kind {spec[:30]!r}: only whispers, lockout and sum-line take "
                           f"a number (whispers:4, lockout:4, sum-line:10)")
        rule[LINE_NUMBERS[kind]] = int(param)
    if kind == "sum-line" and len(cells) > 2 and cells[0] == cells[-1]:
        rule.update(cells=cells[:-1], loop=True)
    return rule


def _lines(lines: Any, n: int, names: Mapping[str, str], ignored: list[str]) -> list[Any]:
    rules: list[Any] = []
    unnamed: dict[str, list[str]] = {}
    for line in lines or []:
        if not isinstance(line, dict):
            continue
        points = [_point(p) for p in line.get("wayPoints") or []]
        tint = colour(line.get("color")) or str(line.get("color", "?"))[:20]
        centres = [_centre_cell(p, n) for p in points]
        cells = [c for c in centres if c is not None] if None not in centres else []
        if len(cells) < 2:
            if tint in names:
                raise BadInput(f"SudokuPad line of colour {tint} does not run through cell "
                               f"centres, so it names no cells")
            ignored.append(f"line of colour {tint} off the cell centres")
            continue
        spec = names.get(tint)
        if spec is None:
            unnamed.setdefault(tint, []).append(cells[0])
            continue
        rules.append(line_rule(spec, cells))
    if unnamed:
        tint, starts = next(iter(unnamed.items()))
        more = f" (and lines of {len(unnamed) - 1} more colours)" if len(unnamed) > 1 else ""
        raise BadInput(f"SudokuPad draws lines without saying what they mean: "
                       f"{len(starts)} line{'s' if len(starts) > 1 else ''} of colour {tint} "
                       f"(the first from {starts[0]}){more}; name each colour, for example "
                       f"--rules 'line:{tint}=renban' (kinds: {', '.join(LINE_KINDS)}; "
                       f"whispers:D, lockout:D for a difference D, sum-line:S for a sum S)")
    return rules
