"""`polydoku serve`: the local web page and JSON API (Starlette on uvicorn), until Ctrl-C."""

from __future__ import annotations

import socket
import threading
import webbrowser
from dataclasses import replace

import click

from ..errors import BadInput, PolydokuError
from .app import cli
from .common import seconds


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


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (anything but 127.0.0.1 lets other machines in).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--max-timeout", type=seconds(0.1), default=120.0,
              show_default=True, help="Longest run allowed, in seconds.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Runs at once (default: the core count); more wait briefly, then get 429.")
def serve(host, port, open_browser, max_timeout, workers):
    """Serve a web page to enter, paste, solve, check and explain puzzles, and its JSON API
    under /api/, on this machine until Ctrl-C."""
    try:
        import uvicorn
        from ..web.app import Settings, create_app
    except ImportError as err:
        raise PolydokuError(f"serve needs {err.name}, which is not installed (install: "
                            f"pip install 'polydoku[web]', or 'polydoku[all]' for the "
                            f"engines too)") from None
    sock = listen(host, port)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    local = host in ("127.0.0.1", "localhost")
    settings = Settings(max_timeout=max_timeout)
    if workers:
        settings = replace(settings, workers=workers)
    if not local:
        settings = replace(settings, hosts=("*",))
    config = uvicorn.Config(create_app(settings), log_level="warning", access_log=False,
                            lifespan="off", timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    click.echo(f"polydoku: serving on {url} (Ctrl-C stops)", err=True)
    click.echo(url)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:      # uvicorn re-raises the Ctrl-C it caught once it has stopped
        pass
    click.echo("polydoku: stopped", err=True)
    return 0
