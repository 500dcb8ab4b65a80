"""How `polydoku serve` runs the web application on uvicorn: a bounded number of open
connections, each given a short time to send its request's headers; stop signals (SIGINT,
SIGTERM, SIGHUP) that answer the runs in flight with JSON and stop their workers before the
server exits; and one line on stderr per logged error (tracebacks only when verbose).

It must not know the API: the application it serves is `web.app`'s, reached through
`app.state.site` only to answer runs in flight and stop workers at shutdown.

Roads not taken: uvicorn's `limit_concurrency` answers the connection over its limit with a
plain-text 503 and lets idle connections keep their places, so a thousand half-sent requests
still shut everyone out; here the oldest idle connection makes room for a new one instead.
"""

from __future__ import annotations

import contextlib
import json
import logging
import resource
import signal
import sys
import threading
import time
import traceback
from http import HTTPStatus
from typing import Any, Iterator

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..text import one_line

HEADER_SECONDS = 10.0      # to send a request's headers, on a new or a kept-alive connection
MAX_CONNECTIONS = 256      # open at once (fewer when the file limit is low)
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                     if hasattr(signal, name))
LOGGERS = ("uvicorn", "asyncio", "polydoku.web")
REPEAT_SECONDS = 10.0      # the same line again within this time is not printed


def connection_cap(wanted: int = MAX_CONNECTIONS) -> int:
    """Return how many connections may be open at once: `wanted`, or a quarter of this
    process's file limit when that is lower (workers, pipes and sandboxes need files too)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(4, min(wanted, soft // 4))


def json_error_bytes(status: int, message: str) -> bytes:
    """Return a whole HTTP/1.1 response carrying `{"error": message}`, closing the
    connection (for answers written below the application)."""
    body = json.dumps({"error": message}).encode()
    head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
            f"content-type: application/json\r\ncontent-length: {len(body)}\r\n"
            f"connection: close\r\n\r\n")
    return head.encode("ascii") + body


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a connection cap and a header timeout: a connection
    that has not sent a whole request's headers within `header_seconds` is closed (408), and
    one over the cap closes the oldest connection waiting for a request, or is itself
    refused (503) when every other one is busy with a request."""

    cap = MAX_CONNECTIONS
    header_seconds = HEADER_SECONDS

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._partial = False
        self._header_timer: Any = None
        self._arm()
        if len(self.connections) > self.cap:
            self._make_room()

    def data_received(self, data: bytes) -> None:
        self._partial = True
        super().data_received(data)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._partial = False
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        self._close_with(400, "not an HTTP/1.1 request this server reads")

    def is_waiting(self) -> bool:
        """Return whether the connection waits for a request (none is being answered)."""
        return self.cycle is None or self.cycle.response_complete

    def _arm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
        self._waiting_since = time.monotonic()
        self._header_timer = self.loop.call_later(self.header_seconds, self._header_timeout,
                                                  self.cycle)

    def _header_timeout(self, cycle) -> None:
        # The same cycle as when armed and still no request: its headers never came.
        if self.cycle is cycle and self.is_waiting() and not self.transport.is_closing():
            self._close_with(408, f"the request's headers did not come within "
                                  f"{self.header_seconds:g} s")

    def _make_room(self) -> None:
        idle = [c for c in self.connections if c is not self and isinstance(c, GuardedProtocol)
                and c.is_waiting() and not c.transport.is_closing()]
        if idle:
            oldest = min(idle, key=lambda c: c._waiting_since)
            oldest._close_with(408, f"closed to make room: over {self.cap} connections")
        else:
            self._close_with(503, f"busy: {self.cap} connections already open; "
                                  f"try again in a moment")

    def _close_with(self, status: int, message: str) -> None:
        """Answer with a JSON error when a request had begun, then close the connection."""
        if self.transport.is_closing():
            return
        if self._partial and self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE, h11.ERROR):
            self.transport.write(json_error_bytes(status, message))
        self.transport.close()


class Server(uvicorn.Server):
    """uvicorn's server stopped by SIGINT, SIGTERM or SIGHUP alike (remembered in
    `signalled`, not raised again once stopped), which first answers the runs in flight and,
    once every connection is closed, waits for their workers to stop."""

    signalled: int | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        saved = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in saved.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame) -> None:
        self.signalled = self.signalled or sig
        super().handle_exit(signal.SIGINT if sig == signal.SIGHUP else sig, frame)

    async def shutdown(self, sockets=None) -> None:
        site = getattr(self.config.app, "state", None)
        site = getattr(site, "site", None) if site is not None else None
        if site is not None:
            site.stopping()
        await super().shutdown(sockets)
        if site is not None:
            await site.close()


class OneLine(logging.Handler):
    """Writes each log record as one `polydoku: ...` line on stderr (the same line again
    within REPEAT_SECONDS is left out), with its traceback only when verbose."""

    def __init__(self, verbose: bool = False) -> None:
        super().__init__(logging.WARNING)
        self.verbose = verbose
        self._last: tuple[str, float] = ("", 0.0)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = line_of(record)
            if record.exc_info and not self.verbose:
                text += " (--verbose shows the traceback)"
            now = time.monotonic()
            if not self.verbose and self._last[0] == text and now - self._last[1] < REPEAT_SECONDS:
                return
            self._last = (text, now)
            sys.stderr.write(f"polydoku: {text}\n")
            if self.verbose and record.exc_info and record.exc_info[1] is not None:
                traceback.print_exception(*record.exc_info, file=sys.stderr)
            sys.stderr.flush()
        except Exception:  # a log line must never take the server down
            pass


def line_of(record: logging.LogRecord) -> str:
    """Return the one line a log record is shown as: its first line, and the exception's
    type and words when it carries one."""
    first = (record.getMessage().strip().splitlines() or [""])[0]
    if first == "Exception in ASGI application":
        first = "internal error"
    exc = record.exc_info[1] if record.exc_info else None
    if exc is not None:
        words = str(exc)
        first += f": {type(exc).__name__}" + (f": {words}" if words else "")
    return one_line(first)[:500]


def set_up_logging(verbose: bool) -> None:
    """Send the server's log records (uvicorn's, asyncio's, polydoku's own) to one OneLine
    handler, warnings and errors only."""
    handler = OneLine(verbose)
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            if isinstance(old, OneLine):
                logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(logging.WARNING)
        logger.propagate = False


def make_server(app, *, cap: int, header_seconds: float, stop_seconds: float) -> Server:
    """Return the uvicorn server of an application, with its connection cap and header
    timeout, and time enough at shutdown for the runs' workers to stop."""
    protocol = type("Guarded", (GuardedProtocol,), {"cap": cap, "header_seconds": header_seconds})
    config = uvicorn.Config(app, http=protocol, log_config=None, log_level="warning",
                            access_log=False, lifespan="off", server_header=False, backlog=64,
                            timeout_keep_alive=5, h11_max_incomplete_event_size=16 * 1024,
                            timeout_graceful_shutdown=int(stop_seconds) + 3)
    return Server(config)
