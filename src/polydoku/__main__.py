"""`python -m polydoku`: the command line."""

from .cli.express import entry

entry()
