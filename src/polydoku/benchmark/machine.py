"""What machine a benchmark ran on: CPU model, cores, memory, load, Python, OS.

Read from /proc where there is one; what cannot be read is left empty, never guessed.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path


def _proc_field(path: str, key: str) -> str:
    """Return the first `key: value` value of a /proc file ("" when it is not there)."""
    try:
        for line in Path(path).read_text().splitlines():
            name, sep, value = line.partition(":")
            if sep and name.strip() == key:
                return value.strip()
    except OSError:
        pass
    return ""


def machine_info() -> dict:
    """Return the machine's description for a benchmark result."""
    mem_kb = _proc_field("/proc/meminfo", "MemTotal").split()
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = []
    return {
        "cpu": _proc_field("/proc/cpuinfo", "model name") or platform.processor(),
        "cores": os.cpu_count(),
        "memory_gb": round(int(mem_kb[0]) / 1024**2, 1) if mem_kb else None,
        "load_average": load,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": platform.platform(),
    }
