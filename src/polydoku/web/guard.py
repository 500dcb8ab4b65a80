"""The checks every request passes before the application sees it: its Host is a name this
server answers to (so a web page cannot reach it through a DNS name of its own pointed here,
DNS rebinding), and its Origin, when it has one, is the server itself (so another site's page
cannot start runs); and an answer in JSON even when the request is cut off by a shutdown.

A server bound to every interface (0.0.0.0, ::) cannot know the names it is reached by, so
only the Origin is checked there (`serve` warns about it).
"""

from __future__ import annotations

import asyncio
import json
from urllib.parse import urlsplit

ANY = "*"


def split_host(value: str, default_port: int | None = None) -> tuple[str, int | None]:
    """Return (host, port) of a Host header or an origin's netloc: lower case, IPv6
    addresses without their brackets, a trailing dot dropped; ("", None) when unreadable."""
    value = value.strip().lower()
    try:
        parts = urlsplit(f"//{value}")
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return "", None
    if parts.username is not None or parts.password is not None or parts.path or parts.query:
        return "", None
    return host.rstrip("."), port if port is not None else default_port


def origin_of(value: str) -> tuple[str, int | None] | None:
    """Return (host, port) of an Origin header, or None when it names no http(s) origin
    (`null`, another scheme)."""
    try:
        parts = urlsplit(value.strip().lower())
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or parts.path not in ("", "/"):
        return None
    host, port = split_host(parts.netloc, 443 if parts.scheme == "https" else 80)
    return (host, port) if host else None


def same_origin(origin: tuple[str, int | None] | None, host: str, port: int | None) -> bool:
    """Return whether an origin is the server reached at Host `host:port` (a Host without a
    port is reached on its scheme's default port)."""
    if origin is None or origin[0] != host:
        return False
    return origin[1] == port if port is not None else origin[1] in (80, 443)


class Guard:
    """ASGI middleware: a Host not answered here gets 400, a foreign Origin 403, both as
    `{"error": ...}`; a request cut off before its answer began gets a JSON 503."""

    def __init__(self, app, hosts: tuple[str, ...]) -> None:
        self.app = app
        self.hosts = None if ANY in hosts else {split_host(h)[0] or h for h in hosts}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self.refusal(scope)
        if refused is not None:
            await respond(send, *refused)
            return
        started = False

        async def watch(message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except asyncio.CancelledError:    # the server stopped while the request was read
            if not started:
                await respond(send, 503, "stopped: the server is shutting down")

    def refusal(self, scope) -> tuple[int, str] | None:
        """Return (status, message) when the request's Host or Origin is refused, else None."""
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]
                   if k in (b"host", b"origin")}
        host, port = split_host(headers.get("host", ""))
        if self.hosts is not None and host not in self.hosts:
            return 400, "this server does not answer to that Host name"
        if "origin" in headers and not same_origin(origin_of(headers["origin"]), host, port):
            return 403, "requests from another site's page are refused"
        return None


async def respond(send, status: int, message: str) -> None:
    """Send a whole JSON error response."""
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
