"""Short links: the puzzle a SudokuPad short link (`sudokupad.app/abc123`) names, fetched;
and the link a shortened link (`tinyurl.com/abc123`, how f-puzzles puzzles are mostly shared)
leads to, asked of the shortener without following it: only an HTTPS f-puzzles or SudokuPad
link is taken, then read as if pasted.

SudokuPad keeps a shared puzzle on its server under a short id and hands its payload out at
`https://sudokupad.app/api/puzzle/ID`. The fetch is bounded: HTTPS only, to that one host (a
redirect anywhere else is refused), at most MAX_BYTES, at most TIMEOUT seconds per network
step; the answer must be a puzzle payload (`scl…`, `ctc…`, `fpuz…` or the zipped JSON).
Each payload fetched is kept in polydoku's cache folder (cache.py), so a link read once is
read again offline.

`--offline` (or POLYDOKU_OFFLINE=1) refuses to go to the network; the error then says what to
paste instead. Nothing else in polydoku reads the network. `API` and `CONTEXT` are module
settings so that tests can point the fetch at a local server with its own certificate.
"""

from __future__ import annotations

import hashlib
import os
import re
import ssl
import urllib.error
import urllib.request
from urllib.parse import quote, urlparse

from ..errors import BadInput

API = "https://sudokupad.app/api/puzzle/"
CONTEXT: ssl.SSLContext | None = None          # None: the system's certificates
MAX_BYTES = 2_000_000
TIMEOUT = 10.0
OFFLINE_ENV = "POLYDOKU_OFFLINE"
_offline = False
_PAYLOAD = re.compile(r"(scl|ctc|fpuzzles|fpuz|N4Ig|\{)")
INSTEAD = ("paste the puzzle's full link instead (a sudokupad.app/scl…, sudokupad.app/fpuzzles… "
           "or f-puzzles.com/?load=… link), or save the puzzle's JSON to a file")


def set_offline(value: bool) -> None:
    """Refuse (True) or allow (False) fetching short links in this process."""
    global _offline
    _offline = value


def is_offline() -> bool:
    """Return whether fetching is refused (--offline, or POLYDOKU_OFFLINE set to 1/yes/true)."""
    return _offline or os.environ.get(OFFLINE_ENV, "").strip().lower() in ("1", "yes", "true")


def short_link(puzzle_id: str) -> str:
    """Return the payload of a SudokuPad short link (from the cache, or fetched)."""
    from .. import cache
    name = "sudokupad-" + hashlib.sha256(puzzle_id.encode()).hexdigest()[:32] + ".json"
    kept = cache.read_json(name)
    if isinstance(kept, dict) and kept.get("id") == puzzle_id \
            and isinstance(kept.get("payload"), str) and _PAYLOAD.match(kept["payload"]):
        return kept["payload"]
    if is_offline():
        raise BadInput(f"the SudokuPad short link {puzzle_id[:40]!r} names a puzzle kept on "
                       f"SudokuPad's server, and polydoku is offline: {INSTEAD}")
    text = _fetch(puzzle_id)
    cache.write_json(name, {"id": puzzle_id, "payload": text})
    return text


class _SameHost(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to the same scheme and host."""

    def __init__(self, scheme: str, host: str):
        self.scheme, self.host = scheme, host

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        url = urlparse(newurl)
        if url.scheme != self.scheme or (url.hostname or "").lower() != self.host:
            raise BadInput(f"SudokuPad redirected the short link off its site "
                           f"({url.scheme}://{(url.hostname or '')[:60]})")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _fetch(puzzle_id: str) -> str:
    """Return the payload SudokuPad's server holds for a short id."""
    url = API + "/".join(quote(part, safe="") for part in puzzle_id.split("/"))
    parts = urlparse(url)
    if parts.scheme != "https" and not _is_test_server(parts.hostname):
        raise BadInput("short links are fetched over HTTPS only")
    handlers: list[urllib.request.BaseHandler] = [
        _SameHost(parts.scheme, (parts.hostname or "").lower()),
        urllib.request.HTTPSHandler(context=CONTEXT or ssl.create_default_context())]
    opener = urllib.request.build_opener(*handlers)
    request = urllib.request.Request(url, headers={"User-Agent": "polydoku",
                                                   "Accept": "text/plain, */*"})
    try:
        with opener.open(request, timeout=TIMEOUT) as answer:
            body = answer.read(MAX_BYTES + 1)
    except urllib.error.HTTPError as err:
        what = "has no puzzle" if err.code == 404 else f"answered {err.code} for"
        raise BadInput(f"SudokuPad {what} short link {puzzle_id[:40]!r}: {INSTEAD}") from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = getattr(err, "reason", err)
        raise BadInput(f"cannot fetch the SudokuPad short link {puzzle_id[:40]!r} "
                       f"({str(reason)[:80]}): {INSTEAD}") from None
    if len(body) > MAX_BYTES:
        raise BadInput(f"SudokuPad's answer for {puzzle_id[:40]!r} is more than {MAX_BYTES} "
                       f"bytes")
    try:
        text = body.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise BadInput(f"SudokuPad's answer for {puzzle_id[:40]!r} is not text") from None
    if not _PAYLOAD.match(text):
        raise BadInput(f"SudokuPad's answer for {puzzle_id[:40]!r} is not a puzzle payload")
    return text


def _is_test_server(host: str | None, base: str | None = None) -> bool:
    """Return whether a plain-HTTP base is a local test server (127.0.0.1 only)."""
    return host == "127.0.0.1" and (base or API).startswith("http://127.0.0.1")


# ---- short links made with a link shortener ------------------------------------------------

SHORTENER = "https://tinyurl.com/"             # where f-puzzles' shared short links live
# where a shortened link may lead: the two sites whose links polydoku reads
PUZZLE_HOSTS = ("f-puzzles.com", "www.f-puzzles.com", "sudokupad.app", "beta.sudokupad.app")
_ALIAS = re.compile(r"[A-Za-z0-9_-]{1,100}")


class _Stop(urllib.request.HTTPRedirectHandler):
    """Follows no redirect: the first Location header is the answer."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise _Redirected(newurl)


class _Redirected(Exception):
    def __init__(self, url: str):
        super().__init__(url)
        self.url = url


def expand(alias: str) -> str:
    """Return the f-puzzles or SudokuPad link a shortened link (`tinyurl.com/ALIAS`) leads to
    (from the cache, or asked of the shortener without following it anywhere)."""
    from .. import cache
    if not _ALIAS.fullmatch(alias):
        raise BadInput(f"the short link's name {alias[:40]!r} is not one a link shortener makes")
    name = "shortened-" + hashlib.sha256(alias.encode()).hexdigest()[:32] + ".json"
    kept = cache.read_json(name)
    if isinstance(kept, dict) and kept.get("alias") == alias and isinstance(kept.get("url"), str):
        return _puzzle_link(kept["url"], alias)
    if is_offline():
        raise BadInput(f"the short link tinyurl.com/{alias} leads elsewhere, and polydoku is "
                       f"offline: {INSTEAD}")
    url = _puzzle_link(_location(alias), alias)
    cache.write_json(name, {"alias": alias, "url": url})
    return url


def _location(alias: str) -> str:
    """Return where the shortener sends its alias (the Location of its redirect)."""
    url = SHORTENER + alias
    parts = urlparse(url)
    if parts.scheme != "https" and not _is_test_server(parts.hostname, SHORTENER):
        raise BadInput("short links are fetched over HTTPS only")
    opener = urllib.request.build_opener(
        _Stop(), urllib.request.HTTPSHandler(context=CONTEXT or ssl.create_default_context()))
    request = urllib.request.Request(url, headers={"User-Agent": "polydoku"})
    try:
        with opener.open(request, timeout=TIMEOUT):
            pass
    except _Redirected as where:
        return where.url[:MAX_BYTES]
    except urllib.error.HTTPError as err:
        if err.code == 404:
            raise BadInput(f"the short link tinyurl.com/{alias} leads nowhere: {INSTEAD}") from None
        raise BadInput(f"the link shortener answered {err.code} for tinyurl.com/{alias}: "
                       f"{INSTEAD}") from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = getattr(err, "reason", err)
        raise BadInput(f"cannot fetch the short link tinyurl.com/{alias} ({str(reason)[:80]}): "
                       f"{INSTEAD}") from None
    raise BadInput(f"the short link tinyurl.com/{alias} leads to no puzzle: {INSTEAD}")


def _puzzle_link(url: str, alias: str) -> str:
    """Return the link when it is an HTTPS f-puzzles or SudokuPad link, else refuse."""
    parts = urlparse(url)
    host = (parts.hostname or "").lower()
    if parts.scheme != "https" or host not in PUZZLE_HOSTS:
        raise BadInput(f"the short link tinyurl.com/{alias} leads off the puzzle sites "
                       f"({parts.scheme}://{host[:60]}), and polydoku follows it no further")
    return url
