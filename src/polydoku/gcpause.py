"""Pausing Python's cyclic garbage collector over a burst of allocations. Lowering and
compiling a problem make thousands of small objects that form no cycle (nogoods, rows of
conflicts, tables); with the collector on, every 700 of them start a collection, and every
tenth of those one of the older objects too, so a build of 4,000 nogoods paid for a dozen
collections, now and then a full one over the whole heap (14 ms in a process holding a few
hundred puzzles). Paused, the objects are looked at once, in the first collection after."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block with the cyclic collector paused, turning it back on after (unless it
    was already off, which it is left as)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
