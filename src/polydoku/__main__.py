"""`python -m polydoku`: the command line."""

from .cli.app import entry

entry()
