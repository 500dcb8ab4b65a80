"""`polydoku engines`: every engine, whether it runs here, its version or install hint."""

from __future__ import annotations

import sys

import click

from ..engines.registry import ENGINE_IDS, engine_class
from .app import cli
from .common import echo_json


def engine_rows() -> list[dict]:
    """Return one row per registered engine: id, title, availability, version or reason, hint."""
    rows = []
    for engine_id in ENGINE_IDS:
        cls = engine_class(engine_id)
        avail = cls().available()
        rows.append({"id": engine_id, "title": cls.title, "available": avail.ok,
                     "version": avail.version, "reason": avail.reason,
                     "install": avail.hint or cls.install_hint,
                     "capabilities": sorted(cls.capabilities), "variants": list(cls.variants)})
    return rows


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON object per engine.")
def engines(as_json):
    """List the engines, whether each runs here, and how to install the missing ones."""
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
                  else f"[red]missing[/red]: {row['reason']}; install: {row['install']}")
        table.add_row(row["id"], status, ",".join(row["capabilities"]),
                      ",".join(row["variants"]), row["title"])
    Console(width=None if sys.stdout.isatty() else 160).print(table)
    return 0
