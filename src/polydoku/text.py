"""Text from puzzles is a stranger's text: the three ways polydoku lets it out.

- `clean_name` makes a puzzle's name safe to print: one line, no control or format characters,
  at most `MAX_NAME` characters (every `Puzzle` keeps its name cleaned).
- `label` makes any text safe inside an artifact an outside tool reads (Packages files, repodata,
  pyproject, requirements, models, READMEs): ASCII letters, digits, space and `._-` only, so it
  can end no quoted string, comment or field, whatever the file's syntax.
- `one_line` makes a message safe on a terminal: control characters shown as escapes.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 120
MAX_LABEL = 60

_UNSAFE_LABEL = re.compile(r"[^A-Za-z0-9._ -]+")


def _is_control(ch: str) -> bool:
    """Return whether a character is a control, format, surrogate, private or unassigned one,
    or a line or paragraph separator."""
    category = unicodedata.category(ch)
    return category[0] == "C" or category in ("Zl", "Zp")


def clean_name(text: str) -> str:
    """Return a name on one line: control characters become spaces, runs of space collapse,
    and the result is cut to MAX_NAME characters."""
    if text.isprintable() and len(text) <= MAX_NAME and "  " not in text and text.strip() == text:
        return text          # printable: no control, format or separator character but space
    out = "".join(" " if _is_control(ch) else ch for ch in text)
    out = " ".join(out.split())
    return out if len(out) <= MAX_NAME else out[:MAX_NAME - 1] + "…"


def label(text: str | None, default: str = "puzzle") -> str:
    """Return text fit for any artifact: only `[A-Za-z0-9._ -]`, at most MAX_LABEL characters."""
    if not text:
        return default
    out = _UNSAFE_LABEL.sub("_", text).strip(" _.-")[:MAX_LABEL].strip()
    return out or default


def one_line(text: str) -> str:
    """Return text for a terminal: newlines and other control characters written as escapes."""
    if not any(_is_control(ch) for ch in text):
        return text
    return "".join(ch.encode("unicode_escape").decode("ascii") if _is_control(ch) else ch
                   for ch in text)


def find_control(text: str) -> int | None:
    """Return the position (1-based) of the first control character in text, or None."""
    for k, ch in enumerate(text, 1):
        if _is_control(ch):
            return k
    return None


HUGE = 10 ** 18         # beyond every size, value, count or sum a puzzle holds


def whole_number(digits: str) -> int:
    """Return the whole number ASCII digits write, or HUGE for one of more than 18 digits
    (Python refuses to read one of over 4,300 digits, and no puzzle needs one that long)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else HUGE


def shorten(text: str, limit: int = 40) -> str:
    """Return text cut to `limit` characters (a stranger's long word in a one-line message)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
