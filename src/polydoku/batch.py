"""Many puzzles on many processes: a bounded, ordered, chunked map over a stream of items.

`ordered_chunks(task, items, jobs=N)` sends chunks of items to N worker processes and yields
each chunk with its result in input order (`ordered_map` yields `(item, result)` pairs). At
most a few chunks per worker are in flight, so memory stays flat on inputs of any length and
output starts at once. Chunks grow until one takes about
`TARGET_SECONDS` in a worker, so the per-item cost of talking to workers stays small on easy
puzzles, while hard puzzles still spread over every worker one or a few at a time.

It must not know what an item is: reading, parsing, solving and rendering belong to the caller
and its task (a top-level function, so workers can import it). Each worker sets itself up once
through `initializer` (e.g. builds its own engine).

A worker that dies (SIGKILL, the out-of-memory killer) does not end the run: the pool is
replaced and the chunks it had not finished run again, the oldest alone first, so a chunk that
kills its worker every time is found and given up after `MAX_ATTEMPTS` runs (`on_lost` says
what its items become), as the Dask path does.

`run_chunks` / `run_map` take the same task to a Dask cluster instead when given `dask=ADDRESS`
(`polydoku.cluster`): a command written for `--jobs` runs on a cluster by passing its `--dask`.

Roads not taken: `Pool.imap(chunksize=…)` reads its whole input ahead (memory grows with the
file); `fork` is the cheapest start but unsafe once the parent has threads (a progress bar has
one), so workers come from a fork server.
"""

from __future__ import annotations

import os
import time
from collections import deque
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sized, TypeVar

from .stops import STOP_SIGNALS, install_main_handlers

if TYPE_CHECKING:      # imported where a pool starts: a one-process run never pays for them
    import multiprocessing.context
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

TARGET_SECONDS = 0.1   # how long one chunk should keep a worker busy
MAX_CHUNK = 1024
IN_FLIGHT_PER_JOB = 4   # chunks queued per worker: enough to hide the round trip, no more


def _timed(task: Callable[[int, list[T]], R], start: int, chunk: list[T]) -> tuple[R, float]:
    """Return a task's result for a chunk and the worker's seconds spent on it. A stop signal
    unwinds the task (its sandboxes clean up) and then ends the worker."""
    global _IN_TASK
    began = time.perf_counter()
    _IN_TASK = True
    try:
        return task(start, chunk), time.perf_counter() - began
    except KeyboardInterrupt:
        os._exit(130)
    finally:
        _IN_TASK = False


_IN_TASK = False     # in a worker: whether a task is running (a stop signal unwinds it)


def next_chunk_size(size: int, seconds: float, items: int, *, target: float = TARGET_SECONDS,
                    largest: int = MAX_CHUNK) -> int:
    """Return the chunk size that should take about `target` seconds, moving halfway there."""
    per_item = seconds / max(items, 1)
    wanted = target / per_item if per_item > 0 else largest
    return max(1, min(largest, round((size * max(1.0, wanted)) ** 0.5)))


def _context(preload: tuple[str, ...]) -> multiprocessing.context.BaseContext:
    """Return the fork-server start method where there is one (importing `preload` once in
    the server, so workers start with it), else spawn."""
    import multiprocessing
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    if preload:
        ctx.set_forkserver_preload(list(preload))   # no effect once the server runs
    return ctx


class WorkerLost(Exception):
    """A chunk whose worker process ended (killed by a signal, out of memory) every time it
    ran: MAX_ATTEMPTS times, each time alone in a fresh pool."""


def lost_reason(error: BaseException) -> str:
    """Return why a chunk was given up, in a few words for its items' error lines."""
    if isinstance(error, WorkerLost):
        return f"lost: {error}"
    text = " ".join(f"{type(error).__name__}: {error}".split())[:300]
    return f"lost on the cluster ({text})"


MAX_ATTEMPTS = 3        # runs of a chunk that kills its worker before it is given up (Dask: 3)
BROKEN_GRACE = 2.0      # seconds a broken pool's surviving workers get to stop before they are killed


@dataclass
class _Pending:
    """A chunk in flight: its first item's index, its items, its future, its failed runs."""

    start: int
    chunk: list
    future: Future
    attempts: int = 0


class _SurvivingPool:
    """A process pool that outlives its workers: when one dies (SIGKILL, the out-of-memory
    killer), the executor breaks and fails every chunk not yet done; a fresh pool then runs
    the oldest such chunk alone (so the chunk that kills is found, and given up after
    MAX_ATTEMPTS runs), then the others. Chunks done before the break keep their results."""

    def __init__(self, jobs: int, context, initializer, initargs, task):
        self.jobs, self.context, self.task = max(1, jobs), context, task
        self.init = (initializer, initargs)
        self.pool = self._new()

    def _new(self) -> ProcessPoolExecutor:
        from concurrent.futures import ProcessPoolExecutor
        return ProcessPoolExecutor(self.jobs, mp_context=self.context,
                                   initializer=_start_worker, initargs=self.init)

    def submit(self, start: int, chunk: list) -> Future:
        """Return the future of task(start, chunk) on the pool (already failed when the pool
        broke before `result` saw it: it runs again with the others)."""
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool
        try:
            return self.pool.submit(_timed, self.task, start, chunk)
        except BrokenProcessPool as err:
            failed: Future = Future()
            failed.set_exception(err)
            return failed

    def result(self, pending: deque[_Pending]) -> tuple[Any, float] | WorkerLost:
        """Return the oldest pending chunk's (result, seconds), running it again (and the
        chunks after it) while its worker dies; WorkerLost once it has killed one too often."""
        from concurrent.futures.process import BrokenProcessPool
        oldest = pending[0]
        while True:
            try:
                return oldest.future.result()
            except BrokenProcessPool:
                oldest.attempts += 1
            self._end_broken()
            self.pool = self._new()
            if oldest.attempts >= MAX_ATTEMPTS:
                self._resubmit(list(pending)[1:])
                return WorkerLost(f"its worker process ended {oldest.attempts} times "
                                  f"(killed, or out of memory)")
            self._resubmit([oldest])
            if oldest.future.exception() is None:     # alone first: a chunk that kills is found
                self._resubmit(list(pending)[1:])

    def _end_broken(self) -> None:
        """Shut a broken pool down: its surviving workers are asked to stop (their chunks run
        again), then killed after a grace. CPython 3.11's executor, breaking, waits for its
        task feeder while a surviving worker waits to send a result nobody reads: without
        this the shutdown waits forever."""
        processes = stop_workers(self.pool)
        ends = time.monotonic() + BROKEN_GRACE
        for proc in processes:
            proc.join(timeout=max(0.0, ends - time.monotonic()))
        _signal_alive(processes, kill=True)
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _resubmit(self, entries: list[_Pending]) -> None:
        """Run again the chunks whose futures the broken pool failed (not those it finished)."""
        for entry in entries:
            future = entry.future
            if future.cancelled() or not future.done() or future.exception() is not None:
                entry.future = self.submit(entry.start, entry.chunk)


def ordered_chunks(task: Callable[[int, list[T]], R], items: Iterable[T], *, jobs: int,
                   initializer: Callable[..., Any] | None = None, initargs: tuple = (),
                   preload: tuple[str, ...] = (), size: int | None = None,
                   on_lost: Callable[[int, list[T], BaseException], R] | None = None
                   ) -> Iterator[tuple[list[T], R]]:
    """Yield (chunk, task(start, chunk)) for consecutive chunks of the items, in input order,
    computed on `jobs` processes; `start` is the index of the chunk's first item. `preload`
    names modules the workers need (imported once, before they start). `size` fixes the
    chunk size (default: sized by time). A worker that dies is replaced and its chunk run
    again; a chunk that kills its worker MAX_ATTEMPTS times yields on_lost(start, chunk,
    error) (without `on_lost` it raises WorkerLost)."""
    source = iter(items)
    context = _context(preload)       # first: it names the modules the fork server preloads
    _start_helpers()
    pool = _SurvivingPool(jobs, context, initializer, initargs, task)
    pending: deque[_Pending] = deque()
    fixed = size
    size, start, exhausted, finished, stopped = fixed or 1, 0, False, False, False
    try:
        while True:
            while not exhausted and len(pending) < jobs * IN_FLIGHT_PER_JOB:
                chunk = list(islice(source, size))
                if chunk:
                    pending.append(_Pending(start, chunk, pool.submit(start, chunk)))
                start += len(chunk)
                exhausted = len(chunk) < size
            if not pending:
                break
            answer = pool.result(pending)
            entry = pending.popleft()
            if isinstance(answer, WorkerLost):
                if on_lost is None:
                    raise answer
                yield entry.chunk, on_lost(entry.start, entry.chunk, answer)
                continue
            result, seconds = answer
            size = fixed or next_chunk_size(size, seconds, len(entry.chunk))
            yield entry.chunk, result
        finished = True
    except KeyboardInterrupt:
        stopped = True
        raise
    finally:
        # An early stop (an error, a closed pipe) drops the queued chunks at once. A stop
        # request (Ctrl-C, SIGTERM, SIGHUP) also asks each worker to stop: it unwinds its run
        # (its sandbox kills the tool and removes its folder) instead of finishing a puzzle
        # that may take minutes, and is waited for a few seconds at most.
        if stopped:
            processes = stop_workers(pool.pool)
            pool.pool.shutdown(wait=False, cancel_futures=True)
            for proc in processes:
                proc.join(timeout=5)
        else:
            pool.pool.shutdown(wait=True, cancel_futures=not finished)


def _start_helpers() -> None:
    """Start multiprocessing's helper processes (the fork server, the resource tracker) deaf
    to SIGTERM and SIGHUP: when a service manager stops the whole process group, they must
    outlive the workers' clean-up and end with this process, as they do on Ctrl-C."""
    import signal
    sigs = [getattr(signal, n) for n in STOP_SIGNALS if hasattr(signal, n)]
    saved = [signal.signal(sig, signal.SIG_IGN) for sig in sigs]
    try:
        import multiprocessing
        from multiprocessing import forkserver, resource_tracker
        resource_tracker.ensure_running()
        if "forkserver" in multiprocessing.get_all_start_methods():
            forkserver.ensure_running()
    finally:
        for sig, old in zip(sigs, saved):
            signal.signal(sig, old)


def stop_workers(pool: ProcessPoolExecutor) -> list:
    """Send SIGTERM to every worker process of a pool (each unwinds as on Ctrl-C); return the
    processes."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    _signal_alive(processes)
    return processes


def _signal_alive(processes: list, kill: bool = False) -> None:
    """Send SIGTERM (SIGKILL with `kill`) to each process still alive."""
    for proc in processes:
        try:
            if proc.is_alive():
                proc.kill() if kill else proc.terminate()
        except (OSError, ValueError):
            pass


def _start_worker(initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    """Set up one worker process: a stop signal unwinds it like Ctrl-C (so that sandboxes are
    cleaned up), then the caller's own set-up."""
    install_stop_handlers(worker=True)
    if initializer is not None:
        initializer(*initargs)


def install_stop_handlers(worker: bool = False) -> None:
    """Make SIGTERM and SIGHUP raise KeyboardInterrupt in this process (where they still have
    their default action), so that every `finally` and context manager runs on the way out.
    In a worker, Ctrl-C does the same, and only the first stop signal counts: the others
    (a process group gets one, then the main process sends one) must not break off the
    clean-up the first one started."""
    if not worker:
        install_main_handlers()
        return
    import signal
    for name in STOP_SIGNALS + ("SIGINT",):
        sig = getattr(signal, name, None)
        if sig is not None:
            signal.signal(sig, _interrupt_once)


def _ignore(signum, frame) -> None:
    pass


def _interrupt_once(signum, frame) -> None:
    import signal
    for name in STOP_SIGNALS + ("SIGINT",):
        sig = getattr(signal, name, None)
        if sig is not None:       # a Python no-op, not SIG_IGN: a signal already on its way
            signal.signal(sig, _ignore)   # to this process must find a handler to run
    if not _IN_TASK:            # an idle worker has nothing to clean up
        os._exit(130)
    raise KeyboardInterrupt


def ordered_map(task: Callable[[list[T]], list[R]], items: Iterable[T], *, jobs: int,
                initializer: Callable[..., Any] | None = None, initargs: tuple = (),
                preload: tuple[str, ...] = ()) -> Iterator[tuple[T, R]]:
    """Yield (item, result) for every item, in input order, computed on `jobs` processes
    (`task` maps a chunk of items to their results)."""
    for chunk, results in ordered_chunks(partial(_without_start, task), items, jobs=jobs,
                                         initializer=initializer, initargs=initargs,
                                         preload=preload):
        yield from zip(chunk, results)


def _without_start(task: Callable[[list[T]], list[R]], start: int, chunk: list[T]) -> list[R]:
    """Return task(chunk), for tasks that do not need the chunk's position."""
    return task(chunk)


def run_chunks(task: Callable[[int, list[T]], R], items: Iterable[T], *, jobs: int,
               dask: str | None = None, size: int | None = None, unordered: bool = False,
               initializer: Callable[..., Any] | None = None, initargs: tuple = (),
               preload: tuple[str, ...] = (),
               on_lost: Callable[[int, list[T], BaseException], R] | None = None,
               total: int | None = None) -> Iterator[tuple[list[T], R]]:
    """Yield (chunk, task(start, chunk)) for consecutive chunks of the items: on `jobs` local
    processes (`ordered_chunks`), or on the Dask cluster at `dask` (an address, or `local`
    for a LocalCluster of `jobs` workers; see `polydoku.cluster.cluster_chunks`, which also
    says what `unordered`, `on_lost` and `total` do there). `size` fixes the chunk size."""
    if dask:
        from .cluster import cluster_chunks     # Dask is imported only when asked for
        if total is None and isinstance(items, Sized):
            total = len(items)
        return cluster_chunks(task, items, address=dask, workers=jobs, size=size,
                              unordered=unordered, initializer=initializer, initargs=initargs,
                              on_lost=on_lost, total=total)
    return ordered_chunks(task, items, jobs=jobs, initializer=initializer, initargs=initargs,
                          preload=preload, size=size, on_lost=on_lost)


def run_map(task: Callable[[list[T]], list[R]], items: Iterable[T], *, jobs: int,
            dask: str | None = None, size: int | None = None, unordered: bool = False,
            preload: tuple[str, ...] = (),
            on_lost: Callable[[list[T], BaseException], list[R]] | None = None
            ) -> Iterator[tuple[T, R]]:
    """Yield (item, result) for every item, as `run_chunks` computes them (`task` maps a chunk
    of items to their results; `on_lost` gives the results of a chunk the cluster lost)."""
    lost = partial(_lost_without_start, on_lost) if on_lost else None
    for chunk, results in run_chunks(partial(_without_start, task), items, jobs=jobs,
                                     dask=dask, size=size, unordered=unordered,
                                     preload=preload, on_lost=lost):
        yield from zip(chunk, results)


def _lost_without_start(on_lost, start: int, chunk: list, error: BaseException) -> list:
    """Return on_lost(chunk, error), for callers that do not need the chunk's position."""
    return on_lost(chunk, error)


class Progress:
    """A progress bar with an ETA on stderr, drawn by rich; every method is a no-op when off.

    `advance` is cheap enough to call once per puzzle: the bar is redrawn at most ten times a
    second.
    """

    def __init__(self, total: float | None, *, enabled: bool, label: str = "solving",
                 unit: str = "puzzles"):
        self.enabled, self.label, self.unit, self.total = enabled, label, unit, total
        self.count, self._pending, self._last = 0, 0.0, 0.0
        self._bar: Any = None               # a rich Progress while the bar shows
        self._task: Any = None

    def __enter__(self) -> "Progress":
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, Progress as RichProgress, TaskProgressColumn,
                                       TextColumn, TimeElapsedColumn, TimeRemainingColumn)
            self._bar = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                     TaskProgressColumn(), TimeElapsedColumn(),
                                     TextColumn("ETA"), TimeRemainingColumn(),
                                     console=Console(stderr=True), transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total)
        return self

    def set_total(self, total: float | None) -> None:
        """Set the amount of work the bar counts up to (None: unknown)."""
        self.total = total
        if self._bar is not None:
            self._bar.update(self._task, total=total)

    def advance(self, amount: float = 1.0, items: int = 1) -> None:
        """Move the bar by `amount` (in units of the total) after `items` more puzzles."""
        self.count += items
        if self._bar is None:
            return
        self._pending += amount
        now = time.monotonic()
        if now - self._last >= 0.1:
            self._flush(now)

    def _flush(self, now: float) -> None:
        self._bar.update(self._task, advance=self._pending,
                         description=f"{self.label}: {self.count:,} {self.unit}")
        self._pending, self._last = 0.0, now

    def note(self, text: str) -> None:
        """Print a line above the bar (or nothing when the bar is off)."""
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._flush(time.monotonic())
            self._bar.__exit__(*exc)
