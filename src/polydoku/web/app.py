"""The web page and its JSON API (Starlette): routes, request limits and worker processes.

Every run (solve, count, check-unique, explain, candidates, hint, steps) goes to a worker
process of its own, at most `workers` at once (the rest wait `queue_wait` seconds, then get
429), killed at its time limit or when the page cancels it (the client disconnects). Answers
are the CLI's JSON; errors are one line in `{"error": ...}`, never a traceback. The page is
static files; it writes what users typed only as text (textContent), and the Content Security
Policy forbids inline scripts besides.

Roads not taken: a process pool (a stuck engine cannot be killed without breaking the pool for
everyone) and threads (a CPU-bound engine would hold the GIL and the page with it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..engines.sandbox import TOOL_STOP_SECONDS, remove_leftovers, tool_running
from ..errors import BadInput
from . import runs
from .guard import Guard

T = TypeVar("T")
STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 1 << 20
BODY_SECONDS = 30.0
ISS_PAGE = "https://sigh.github.io/Interactive-Sudoku-Solver/?q="
STOP_SECONDS = TOOL_STOP_SECONDS + 5.0      # a worker's clean-up: its tool's, then its own
QUICK_STOP = 2.0                            # ... and one's with no tool running
LOG = logging.getLogger("polydoku.web")
CSP = ("default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


@dataclass(frozen=True)
class Settings:
    """Server limits: runs at once, seconds a run may wait for a slot, longest run allowed,
    seconds past it before the worker is stopped, seconds a stopped worker has to clean up
    before it is killed, and the Host names answered (another name is refused, so a web site
    cannot reach the server through a DNS name of its own; "*" answers any)."""

    workers: int = os.cpu_count() or 1
    queue_wait: float = 2.0
    max_timeout: float = runs.MAX_TIMEOUT
    grace: float = 5.0
    stop_grace: float = STOP_SECONDS
    hosts: tuple[str, ...] = ("127.0.0.1", "localhost")


class SlowBody(Exception):
    """A request body not all sent within BODY_SECONDS."""


class TooLarge(Exception):
    """A request body over the limit."""


class NotJson(Exception):
    """A request body not declared as JSON (what a cross-site form or `no-cors` fetch sends)."""


async def read_json(request: Request) -> dict:
    """Return the JSON body of a request (at most MAX_BODY bytes, declared application/json);
    NotJson, TooLarge, SlowBody or BadInput else."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise NotJson
    declared = request.headers.get("content-length")
    if declared and declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise TooLarge
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):      # a body sent a byte a minute holds a place
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise TooLarge
    except TimeoutError:
        raise SlowBody from None
    try:
        data = json.loads(body.decode("utf-8") if body else "{}")
    except (ValueError, RecursionError) as err:      # bad UTF-8, bad JSON, huge numbers
        where = (f" (line {err.lineno}, column {err.colno})"
                 if isinstance(err, json.JSONDecodeError) else "")
        why = getattr(err, "msg", None) or ("not UTF-8" if isinstance(err, UnicodeDecodeError)
                                            else "too deep or too long")
        raise BadInput(f"the request body is not JSON: {why}{where}") from None
    if not isinstance(data, dict):
        raise BadInput("the request body must be a JSON object")
    return data


def error(status: int, message: str) -> JSONResponse:
    """Return a JSON error response of one line."""
    return JSONResponse({"error": message}, status_code=status)


async def read_body(request: Request, parse: Callable[[dict], T]) -> tuple[T | None,
                                                                         JSONResponse | None]:
    """Return (parse(the JSON body), None), or (None, the error response: 413 too large,
    415 not declared JSON, 408 not all sent in time, 400 bad JSON or a bad puzzle with
    polydoku's one-line message)."""
    try:
        return parse(await read_json(request)), None
    except SlowBody:
        return None, error(408, f"the request body did not come within {BODY_SECONDS:g} s")
    except TooLarge:
        return None, error(413, f"request body over {MAX_BODY} bytes")
    except NotJson:
        return None, error(415, "the request body must be sent as application/json")
    except BadInput as err:
        return None, error(400, str(err))
    except ClientDisconnect:
        LOG.warning("a client went away while sending its request")
        return None, error(499, "cancelled: the request was cut off")


class Workers:
    """Runs requests in worker processes, a bounded number at once; each worker's sandboxes
    live in a folder of its own, removed once the worker has stopped."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.slots = asyncio.Semaphore(settings.workers)
        self.ctx = multiprocessing.get_context("forkserver")
        self.ctx.set_forkserver_preload(["polydoku.web.runs"])
        self.closing = asyncio.Event()
        self.stopping: set[asyncio.Task] = set()

    async def run(self, req: runs.Request, request: Request) -> tuple[int, dict]:
        """Return (status, JSON) of a request run in a worker: 429 when every slot stays busy,
        the run stopped at its time limit, when the client goes away or the server stops.
        The answer goes out once the worker has stopped and its slot is free again (at once
        when the server is shutting down: the worker is stopped behind it)."""
        try:
            await asyncio.wait_for(self.slots.acquire(), self.settings.queue_wait)
        except TimeoutError:
            return 429, {"error": f"busy: {self.settings.workers} runs already going; "
                                  f"try again in a moment"}
        folder = tempfile.mkdtemp(prefix="polydoku-run-")
        receive, send = self.ctx.Pipe(duplex=False)
        proc = self.ctx.Process(target=runs.worker_main, args=(send, req, folder), daemon=True)
        try:
            proc.start()
            send.close()
            return await self._wait(proc, receive, req, request)
        finally:
            receive.close()
            task = asyncio.get_running_loop().create_task(self._stop(proc, folder))
            self.stopping.add(task)
            task.add_done_callback(self.stopping.discard)
            if not self.closing.is_set():
                await asyncio.shield(task)

    async def _wait(self, proc, receive, req: runs.Request, request: Request) -> tuple[int, dict]:
        """Return the worker's answer, or an answer of the server's own at the deadline, a
        disconnect or a shutdown."""
        deadline = time.monotonic() + req.timeout + self.settings.grace
        next_check = 0.0
        try:
            while True:
                if receive.poll():
                    return receive.recv()
                if not proc.is_alive() and not receive.poll():
                    LOG.warning("a worker ended without an answer (exit code %s)", proc.exitcode)
                    return 500, {"error": f"internal error: the worker ended "
                                          f"(exit code {proc.exitcode})"}
                if self.closing.is_set():
                    return 503, {"error": "stopped: the server is shutting down"}
                now = time.monotonic()
                if now > deadline:
                    return 200, runs.stopped_json(req, req.timeout + self.settings.grace)
                if now > next_check:
                    next_check = now + 0.25
                    if await request.is_disconnected():
                        return 499, {"error": "cancelled"}
                await asyncio.sleep(0.01)
        except EOFError:
            LOG.warning("a worker ended without an answer")
            return 500, {"error": "internal error: the worker ended without an answer"}

    async def _stop(self, proc, folder: str) -> None:
        try:
            await asyncio.to_thread(stop, proc, folder, self.settings.stop_grace)
        finally:
            self.slots.release()

    async def close(self) -> None:
        """Answer every run still going (503) and wait until every worker has stopped."""
        self.closing.set()
        while self.stopping:
            await asyncio.gather(*list(self.stopping), return_exceptions=True)


def stop(proc, folder: str | None = None, grace: float = STOP_SECONDS) -> None:
    """Stop a worker process: SIGTERM (its sandboxes ask their tools to stop, wait for them
    a while, then remove their folders), SIGKILL after `grace` seconds, or after QUICK_STOP
    when no tool of it is running (an engine in the worker itself has nothing to clean up);
    then kill whatever tool a killed worker left running and remove the worker's folder."""
    start = time.monotonic()
    if proc.is_alive():
        proc.terminate()
    while proc.is_alive():
        waited = time.monotonic() - start
        if waited > grace or (waited > QUICK_STOP and not (
                folder is not None and tool_running(Path(folder)))):
            proc.kill()
            break
        proc.join(0.05)
    proc.join()
    proc.close()
    if folder is not None:
        remove_leftovers(Path(folder))


class Site:
    """The handlers of the page and the API, sharing the settings, the workers and the engine
    list (computed once)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._workers: Workers | None = None
        self._engines: list | None = None
        self._menu: str | None = None

    def workers(self) -> Workers:
        """Return the workers (made on first use, inside the running event loop)."""
        if self._workers is None:
            self._workers = Workers(self.settings)
        return self._workers

    def stopping(self) -> None:
        """Answer every run still going (503): the server is shutting down."""
        if self._workers is not None:
            self._workers.closing.set()

    async def close(self) -> None:
        """Wait until every worker has stopped and its folder is removed."""
        if self._workers is not None:
            await self._workers.close()

    async def page(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Content-Security-Policy": CSP,
                                                            "Cache-Control": "no-store"})

    async def engines(self, request: Request) -> Response:
        if self._engines is None:
            from ..jsonout import engine_rows
            self._engines = await asyncio.to_thread(engine_rows)
        return JSONResponse(self._engines)

    async def engine_menu(self, request: Request) -> Response:
        if self._menu is None:
            from .engines import menu_script
            self._menu = await asyncio.to_thread(menu_script)
        return Response(self._menu, media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    async def links(self, request: Request) -> Response:
        puzzle, refused = await read_body(request, runs.read_puzzle_fields)
        return refused or JSONResponse(links_json(puzzle))

    async def board(self, request: Request) -> Response:
        puzzle, refused = await read_body(request, runs.read_puzzle_fields)
        return refused or JSONResponse(board_json(puzzle))

    async def run(self, request: Request) -> Response:
        kind = request.path_params["kind"]
        if kind not in runs.KINDS:
            return error(404, f"no such API call: {kind} (known: {', '.join(runs.KINDS)})")
        req, refused = await read_body(
            request, lambda data: runs.read_request(kind, data, self.settings.max_timeout))
        if refused is not None or req is None:
            return refused or error(400, "the request body holds no puzzle")
        status, data = await self.workers().run(req, request)
        return JSONResponse(data, status_code=status)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    return error(exc.status_code, exc.detail)


async def _internal(request: Request, exc: Exception) -> Response:
    return error(500, f"internal error: {type(exc).__name__}")


async def _no_icon(request: Request) -> Response:
    return Response(status_code=204)


def create_app(settings: Settings | None = None) -> Starlette:
    """Return the web application: the page, its static files and the JSON API."""
    site = Site(settings or Settings())
    settings = site.settings
    routes = [Route("/", site.page), Route("/favicon.ico", _no_icon),
              Route("/api/engines", site.engines),
              Route("/engines.js", site.engine_menu),
              Route("/api/board", site.board, methods=["POST"]),
              Route("/api/links", site.links, methods=["POST"]),
              Route("/api/{kind}", site.run, methods=["POST"]),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, hosts=settings.hosts)],
                    exception_handlers={HTTPException: _http_error,  # type: ignore[dict-item]
                                        Exception: _internal})
    app.state.site = site
    return app


def board_json(puzzle) -> dict:
    """Return what the page needs to draw a puzzle: size, boxes, symbols, givens, rules, and
    the SVG polydoku renders (lines, variant markings, rule notes; no values) with where its
    cells lie."""
    from ..formats.line import write_line
    from ..render import layout_of, render_svg
    from .checks import checks_json
    g, lay = puzzle.geometry, layout_of(puzzle)
    svg = render_svg(puzzle, [0] * g.ncells)
    return {"name": puzzle.name, "size": g.size, "cols": g.width, "values": g.nvalues,
            "box": [g.box_rows, g.box_cols],
            "alphabet": puzzle.alphabet, "givens": write_line(puzzle),
            "rules": [{"name": r.name, "description": r.description} for r in puzzle.rules],
            "svg": svg, "cell": lay.cell, "margin": lay.margin, "top": lay.top,
            "width": lay.width, "height": lay.height, "checks": checks_json(puzzle)}


def links_json(puzzle) -> dict:
    """Return links that open the puzzle (givens and rules) in other solvers' pages, and a
    sentence for each page a link cannot be made for."""
    from urllib.parse import quote

    from ..formats import fpuzzles, iss
    makers = {"fpuzzles": ("f-puzzles", lambda: fpuzzles.to_link(puzzle, "fpuzzles")),
              "sudokupad": ("SudokuPad", lambda: fpuzzles.to_link(puzzle, "sudokupad")),
              "iss": ("the Interactive Sudoku Solver",
                      lambda: ISS_PAGE + quote(iss.to_iss(puzzle), safe="~."))}
    links, missing = [], []
    for app, (title, make) in makers.items():
        try:
            links.append({"app": app, "title": title, "url": make()})
        except BadInput as err:
            missing.append(f"no {title} link: {err}")
    return {"links": links, "missing": missing}
