"""A folder served over HTTP on 127.0.0.1 while a tool runs: the package indexes and registries
polydoku writes for pip, uv, Poetry, PDM, npm, pnpm, Yarn, Bun and Bundler.

One server for all: a free port on the loopback address only, keep-alive, no Nagle delay
(without TCP_NODELAY every response waits ~40 ms for a delayed ACK, since headers and body go
out in two writes), and quiet: a client that drops its connection (a tool killed at its
timeout, a closed keep-alive) is normal here and never prints a traceback on the user's
stderr. Each caller's handler adds what its tool expects (content types, cache headers).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from pathlib import Path
from typing import Iterator


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder: keep-alive, no Nagle delay, no log lines."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args) -> None:
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A threading server whose dropped connections stay silent."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass


@contextlib.contextmanager
def serve(directory: Path, handler: type[QuietHandler] = QuietHandler,
          name: str = "polydoku-index") -> Iterator[str]:
    """Serve `directory` on 127.0.0.1 (a free port) while the block runs; yield its base URL."""
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, name=name, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
