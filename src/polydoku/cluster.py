"""Many puzzles on a Dask cluster: the chunked map of `batch`, with a scheduler instead of a pool.

`cluster_chunks(task, items, address=...)` connects to a Dask distributed scheduler (or starts a
LocalCluster for `local`), sends consecutive chunks of items to its workers as tasks, and
yields each chunk with its result, in input order or (`unordered`) as they finish. Like
`batch.ordered_chunks` it reads its input lazily (a few chunks per worker thread in flight),
sizes chunks by time unless told a size, and knows nothing of what an item is. When the number
of items is known, chunks shrink towards the end (guided scheduling: at most half of what is
left per worker thread, down to an eighth of the usual size), so the big chunks that keep the scheduler's per-task cost small do
not leave one worker finishing alone.

Every task is a pure function of its input: (task, initializer and its arguments, the chunk's
start, the chunk), under a key made of the run and the chunk's index. So when a worker dies,
the scheduler runs its tasks again elsewhere (and recomputes results it held and we had not
fetched yet), and the client takes each chunk index once: no item is lost or answered twice.
A chunk that cannot be computed (its task raised, or it killed workers too often) becomes
`on_lost(start, chunk, error)`, so the caller reports its items on their own lines and the
rest goes on. Ctrl-C, a closed pipe or an error cancels the tasks in flight and closes the
client (and the LocalCluster) on the way out.

Dask is imported only here and only when a cluster is asked for. Workers import this module
(for `run_on_worker`) and the caller's task and initializer, so they need polydoku installed.

Roads not taken: `client.map` over the whole input submits everything at once (memory grows
with the file, and output waits); Dask bags and dataframes repartition and reorder, and bring
nothing a map of chunks needs.
"""

from __future__ import annotations

import gc
import logging
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import uuid
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, TypeVar

from .errors import ClusterUnavailable
from .jobs import default_jobs

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"                 # --dask local: a LocalCluster on this machine
TARGET_SECONDS = 1.0            # a task through a scheduler costs ~5-15 ms of CPU: big chunks
TAIL_SHARE = 2                  # near the end, a chunk is at most 1/2 of a thread's share left,
TAIL_FLOOR = 8                  # and at least 1/8 of the time-based size (tasks are not free)
MAX_CHUNK = 4096
FIRST_CHUNK = 16
GROWTH = 8                      # a chunk is at most 8 times the size of the one measured last
IN_FLIGHT_PER_THREAD = 4        # tasks queued per worker thread: enough to hide the round trip
CONNECT_SECONDS = 10
POLL_SECONDS = 0.2              # how often a wait looks for Ctrl-C
INSTALL_HINT = "pip install 'polydoku[cluster]' (Dask distributed)"
# Dask's background work, made rarer for the clusters we start (`--dask local`): the workers'
# statistical profiler (for the dashboard) samples the solving thread every 10 ms, and every
# process wakes every 20 ms (event-loop tick), 100 ms (memory monitor) and 500 ms (system
# monitor). Idle, that costs a 2-worker cluster ~15% of a core, which puzzles that take well
# under a millisecond feel. docs/cluster.md gives the same settings for `dask worker`.
QUIET = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
         "distributed.admin.system-monitor.interval": "2s",
         "distributed.worker.memory.monitor-interval": "1s"}


@contextmanager
def connect(address: str, *, workers: int) -> Iterator[Any]:
    """Yield a Dask client of the scheduler at `address`, or of a new LocalCluster of
    `workers` single-threaded processes for `local`; close both on the way out."""
    try:
        import dask
        import distributed
    except ImportError:
        raise ClusterUnavailable(f"--dask needs Dask distributed, which is not installed "
                                 f"(install: {INSTALL_HINT})") from None
    cluster, scratch = None, None
    try:
        if address == LOCAL:
            # The workers' spill space goes in a folder of this run's own, removed with it
            # (Dask's default, $TMPDIR/dask-scratch-space, stayed behind). Its logs are
            # silenced below CRITICAL: a killed worker is Dask's business (its chunk runs
            # again), not a line on the user's terminal.
            scratch = tempfile.mkdtemp(prefix="polydoku-dask-")
            with dask.config.set({**QUIET, "temporary-directory": scratch}):
                cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                                   processes=True, dashboard_address=":0",
                                                   local_directory=scratch,
                                                   silence_logs=logging.CRITICAL)
            client = distributed.Client(cluster)
        else:
            _probe(address)
            client = distributed.Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError, TypeError) as err:
        if cluster is not None:
            cluster.close()
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
        where = "start a local Dask cluster" if address == LOCAL else \
            f"reach the Dask scheduler at {address!r}"
        raise ClusterUnavailable(f"cannot {where}: {one_line(err)}") from None
    try:
        yield client
    finally:
        try:
            client.close()
            if cluster is not None:
                cluster.close()
        finally:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)


def _probe(address: str) -> None:
    """Fail at once when nothing listens at a tcp address (Dask would retry until its
    timeout); other addresses are left to Dask."""
    scheme, sep, rest = address.rpartition("://")
    if sep and scheme != "tcp":
        return
    host, colon, port = rest.rpartition(":")
    if not colon or not (port.isascii() and port.isdigit()):
        raise ClusterUnavailable(f"bad Dask scheduler address {address!r}: expected "
                                 f"tcp://HOST:PORT, HOST:PORT or `local`")
    with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS):
        pass


def cluster_chunks(task: Callable[[int, list[T]], R], items: Iterable[T], *, address: str,
                   workers: int | None = None, size: int | None = None,
                   unordered: bool = False, initializer: Callable[..., Any] | None = None,
                   initargs: tuple = (),
                   on_lost: Callable[[int, list[T], BaseException], R] | None = None,
                   total: int | None = None) -> Iterator[tuple[list[T], R]]:
    """Yield (chunk, task(start, chunk)) for consecutive chunks of the items, computed on the
    Dask cluster at `address` (`local`: a LocalCluster of `workers` processes, default the
    core count), in input order unless `unordered`. Each worker runs `initializer(*initargs)`
    once per run before its first chunk; `size` fixes the chunk size (default: by time); a
    chunk the cluster cannot compute yields on_lost(start, chunk, error) (without `on_lost`
    it ends the run with ClusterUnavailable). `total`, the number of items when known (an
    estimate will do), lets the last chunks shrink."""
    with connect(address, workers=workers or default_jobs()) as client:
        with _interrupts() as stop:
            run = _Run(client, task, initializer, initargs, size, unordered, on_lost, total,
                       stop)
            yield from run.results(iter(items))


@contextmanager
def _interrupts() -> Iterator[threading.Event]:
    """Yield an event set by Ctrl-C or SIGTERM while a run waits on the cluster.

    Python raises KeyboardInterrupt wherever the main thread happens to be, and inside Dask
    that may be a finalizer (where it is ignored: the run goes on) or Dask's own event-loop
    plumbing (which logs a traceback). So, while a run is on, the signals only set this event,
    which the run checks while it waits and turns into KeyboardInterrupt at a safe point; a
    second Ctrl-C interrupts at once.
    """
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def handler(signum, frame):
        if stop.is_set():
            raise KeyboardInterrupt
        stop.set()

    saved = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for sig, old in saved.items():
            signal.signal(sig, old)


@dataclass
class _Chunk:
    """A chunk in flight: its index, its first item's index, its items, its future."""

    index: int
    start: int
    items: list
    future: Any


class _Run:
    """One run's client-side state: chunks in flight, the chunk size, the chunks taken."""

    def __init__(self, client, task, initializer, initargs, size, unordered, on_lost, total,
                 stop):
        import distributed
        self.client, self.task, self.on_lost, self.stop = client, task, on_lost, stop
        self.init = (initializer, initargs)
        self.fixed, self.size, self.total = size, size or FIRST_CHUNK, total
        self.token = uuid.uuid4().hex
        self.pending: dict[str, _Chunk] = {}          # by task key
        self.order: deque[str] = deque()               # keys in input order
        self.finished = distributed.as_completed() if unordered else None
        self.taken: set[int] = set()                   # chunk indexes already yielded
        self.next_index = self.next_start = 0
        self.exhausted = False
        self.threads, self.threads_checked = 1, 0.0

    def results(self, source: Iterator) -> Iterator[tuple[list, Any]]:
        """Yield (chunk, result) until the source is used up and every chunk is back."""
        try:
            while True:
                self._fill(source)
                if not self.pending:
                    return
                chunk = self.pending.pop(self._next_key())
                result = self._result(chunk)
                if chunk.index in self.taken:
                    continue
                self.taken.add(chunk.index)
                yield chunk.items, result
        finally:
            self._cancel()

    def _fill(self, source: Iterator) -> None:
        """Submit chunks until enough are in flight or the source is used up."""
        while not self.exhausted and len(self.pending) < IN_FLIGHT_PER_THREAD * self._threads():
            size = self._next_size()
            items = list(islice(source, size))
            if items:
                self._submit(items)
            self.exhausted = len(items) < size

    def _next_size(self) -> int:
        """Return the size of the next chunk: the time-based size, smaller near the end."""
        if self.fixed or not self.total:
            return self.size
        left = self.total - self.next_start
        share = left // (TAIL_SHARE * self._threads())
        return max(1, self.size // TAIL_FLOOR, min(self.size, share))

    def _submit(self, items: list) -> None:
        key = f"polydoku-{self.token}-{self.next_index}"
        future = self.client.submit(run_on_worker, self.token, *self.init, self.task,
                                    self.next_start, items, key=key, pure=False)
        self.pending[key] = _Chunk(self.next_index, self.next_start, items, future)
        if self.finished is None:
            self.order.append(key)
        else:
            self.finished.add(future)
        self.next_index += 1
        self.next_start += len(items)

    def _next_key(self) -> str:
        """Return the key of the next chunk to take: the oldest, or the first to finish."""
        if self.finished is None:
            return self.order.popleft()
        while True:
            while not self.finished.has_ready():
                self._check_stop()
                time.sleep(POLL_SECONDS / 10)
            key = next(self.finished).key
            if key in self.pending:
                return key

    def _wait(self, future) -> None:
        """Wait until a future is done (checking for Ctrl-C now and then)."""
        from distributed import wait
        while True:
            self._check_stop()
            try:
                wait([future], timeout=POLL_SECONDS)
                return
            except TimeoutError:
                pass

    def _check_stop(self) -> None:
        """Raise KeyboardInterrupt when Ctrl-C or SIGTERM came."""
        if self.stop.is_set():
            raise KeyboardInterrupt

    def _result(self, chunk: _Chunk) -> Any:
        """Return a chunk's result (waiting for it), or what on_lost makes of its failure."""
        self._wait(chunk.future)
        try:
            result, seconds = chunk.future.result()
        except Exception as err:
            if self.client.status not in ("running", "connecting"):
                raise ClusterUnavailable(f"lost the Dask scheduler: {one_line(err)}") from None
            if self.on_lost is None:
                raise ClusterUnavailable(
                    f"the cluster could not compute items {chunk.start + 1}.."
                    f"{chunk.start + len(chunk.items)}: {one_line(err)}") from None
            return self.on_lost(chunk.start, chunk.items, err)
        if self.fixed is None:
            self.size = next_size(self.size, seconds, len(chunk.items))
        return result

    def _threads(self) -> int:
        """Return the worker threads of the cluster (asked at most once a second)."""
        now = time.monotonic()
        if now - self.threads_checked >= 1.0:
            self.threads = max(1, sum(self.client.nthreads().values()))
            self.threads_checked = now
        return self.threads

    def _cancel(self) -> None:
        """Cancel the chunks still in flight (after an early stop; nothing when done)."""
        futures = [c.future for c in self.pending.values()]
        self.pending.clear()
        if futures and self.client.status == "running":
            self.client.cancel(futures)


def next_size(size: int, seconds: float, items: int) -> int:
    """Return the chunk size that should take about TARGET_SECONDS, at most GROWTH times the
    last one (tasks are dear here, so sizes move faster than `batch.next_chunk_size`'s)."""
    per_item = seconds / max(items, 1)
    wanted = TARGET_SECONDS / per_item if per_item > 0 else MAX_CHUNK
    return max(1, min(MAX_CHUNK, size * GROWTH, round(wanted)))


# Worker side. A worker process runs one run's initializer before that run's first chunk; the
# lock keeps a second thread (or a second client's run) from switching the set-up under a chunk.
_LOCK = threading.Lock()
_READY: dict[str, str | None] = {"token": None}


def run_on_worker(token: str, initializer: Callable[..., Any] | None, initargs: tuple,
                  task: Callable[[int, list[T]], R], start: int,
                  items: list[T]) -> tuple[R, float]:
    """Return task(start, items) and the seconds it took, set up for run `token` first."""
    with _LOCK:
        if _READY["token"] != token:
            if _READY["token"] is None:
                # A worker holds Dask's many long-lived objects; the garbage collector's full
                # passes need not walk them again and again while puzzles are solved.
                gc.freeze()
            if initializer is not None:
                initializer(*initargs)
            _READY["token"] = token
        began = time.perf_counter()
        return task(start, items), time.perf_counter() - began


def one_line(error: BaseException, limit: int = 300) -> str:
    """Return an error's type and message on one line of at most `limit` characters (Dask's
    messages run over several lines)."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def worker_name() -> str:
    """Return the address of the Dask worker running this code, else this host's name."""
    distributed = sys.modules.get("distributed")
    if distributed is not None:
        try:
            return distributed.get_worker().address
        except ValueError:
            pass
    return socket.gethostname()
