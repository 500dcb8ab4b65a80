"""`polydoku engines`: every engine, whether it runs here, its version or install hint."""

from __future__ import annotations

import os
import sys


from ..jsonout import engine_rows
from .app import cli
from .common import json_option
from .common import echo_json


@cli.command()
@json_option("One JSON object per engine.")
def engines(as_json):
    """List the engines, whether each runs here, and how to install the missing ones (an
    engine whose tool runs only as root says so to other users)."""
    rows = engine_rows()
    if as_json:
        for row in rows:
            echo_json(row)
        return 0
    from rich.console import Console
    from rich.table import Table
    table = Table(title="polydoku engines")
    for col in ("id", "status", "can", "variants", "runs"):
        table.add_column(col)
    for row in rows:
        status = (f"[green]{row['version'] or 'yes'}[/green]" if row["available"]
                  else f"[yellow]needs root[/yellow]: {row['reason']}"
                  if row["needs_root"] and os.geteuid() != 0
                  else f"[red]missing[/red]: {row['reason']}; install: {row['install']}")
        if row["needs_root"] and row["available"]:
            status += " (as root only)"
        table.add_row(row["id"], status, ",".join(row["capabilities"]),
                      ",".join(row["variants"]), row["title"])
    Console(width=None if sys.stdout.isatty() else 160).print(table)
    return 0
