"""Stop signals in the main process: SIGTERM and SIGHUP unwind it like Ctrl-C. Light (only
`signal`), so the express lane of `polydoku solve` (cli/express.py) installs them without the
batch machinery; worker processes get their own handlers in batch.py."""

from __future__ import annotations

import _signal        # signal's C half: `signal` itself imports enum, 4 ms of start-up

STOP_SIGNALS = ("SIGTERM", "SIGHUP")


def raise_interrupt(signum, frame) -> None:
    """A signal handler that unwinds the process like Ctrl-C."""
    raise KeyboardInterrupt


def install_main_handlers() -> None:
    """Make SIGTERM and SIGHUP raise KeyboardInterrupt in this process (where they still have
    their default action), so that every `finally` and context manager runs on the way out."""
    for name in STOP_SIGNALS:
        sig = getattr(_signal, name, None)
        if sig is not None and _signal.getsignal(sig) == _signal.SIG_DFL:
            _signal.signal(sig, raise_interrupt)
