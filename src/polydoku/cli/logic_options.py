"""The options the logic commands (`steps`, `hint`) share, apart from the commands themselves."""

from __future__ import annotations

import click

from ..reasoning.logic import LEVELS


def level_option(f):
    """--max-level Easy|Medium|Hard|Unfair|Extreme: use techniques up to this level only."""
    return click.option("--max-level", "max_level", type=click.Choice(LEVELS), default=None,
                        help="Use techniques up to this level only (Unfair: no forcing nets).")(f)
