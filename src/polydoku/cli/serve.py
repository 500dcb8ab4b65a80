"""`polydoku serve`: the local web page and JSON API (Starlette on uvicorn), until Ctrl-C,
SIGTERM or SIGHUP (exit 130)."""

from __future__ import annotations

import ipaddress
import signal
import socket
import threading
import webbrowser
from dataclasses import replace

import click

from ..errors import debug_enabled
from ..errors import BadInput, PolydokuError
from .app import cli
from .common import seconds

EXIT_INTERRUPTED = 130


def listen(host: str, port: int) -> socket.socket:
    """Return a listening socket on host:port (port 0: a free one); bad input when it cannot."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except (OSError, OverflowError) as err:
        sock.close()
        raise BadInput(f"cannot listen on {host}:{port}: "
                       f"{getattr(err, 'strerror', None) or err}") from None
    return sock


def allowed_hosts(host: str, sock: socket.socket) -> tuple[str, ...] | None:
    """Return the Host names a server listening on `sock` answers (the address it is bound
    to, the name it was given, and `localhost` on a loopback address), or None when it is
    bound to every interface and cannot know them."""
    bound = sock.getsockname()[0]
    try:
        address = ipaddress.ip_address(bound)
    except ValueError:
        return (host,)
    if address.is_unspecified:
        return None
    names = {host.strip("[]").lower(), str(address)}
    if address.is_loopback:
        names |= {"localhost", "127.0.0.1"} if address.version == 4 else {"localhost"}
    return tuple(sorted(names))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (anything but 127.0.0.1 lets other machines in; "
                   "0.0.0.0 or :: every interface).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--max-timeout", type=seconds(0.1), default=120.0,
              show_default=True, help="Longest run allowed, in seconds.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Runs at once (default: the core count); more wait briefly, then get 429.")
@click.option("--verbose", is_flag=True, help="Show the traceback of an error logged.")
def serve(host, port, open_browser, max_timeout, workers, verbose):
    """Serve a web page to enter, paste, solve, check and explain puzzles, and its JSON API
    under /api/, on this machine until Ctrl-C."""
    try:
        import uvicorn  # noqa: F401  (asked first, so a missing one is named)
        from ..web.app import Settings, create_app
        from ..web.server import (HEADER_SECONDS, connection_cap, make_server,
                                  set_up_logging)
    except ImportError as err:
        raise PolydokuError(f"serve needs {err.name}, which is not installed (install: "
                            f"pip install 'polydoku[web]', or 'polydoku[all]' for the "
                            f"engines too)") from None
    sock = listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    hosts = allowed_hosts(host, sock)
    settings = replace(Settings(max_timeout=max_timeout), hosts=hosts or ("*",))
    if workers:
        settings = replace(settings, workers=workers)
    set_up_logging(verbose or debug_enabled())
    server = make_server(create_app(settings), cap=connection_cap(),
                         header_seconds=HEADER_SECONDS, stop_seconds=settings.stop_grace)
    if hosts is None:
        click.echo(f"polydoku: warning: listening on every interface ({host}): any machine "
                   f"that reaches this one can start runs here, and no Host name is checked "
                   f"(--host 127.0.0.1 keeps it to this machine)", err=True)
    click.echo(f"polydoku: serving on {url} (Ctrl-C stops)", err=True)
    click.echo(url)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:      # a stop signal that came before the server caught them
        server.signalled = signal.SIGINT
    click.echo("polydoku: stopped", err=True)
    return EXIT_INTERRUPTED if server.signalled else 0
