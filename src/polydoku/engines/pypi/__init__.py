"""The Python packaging family: resolvelib in process; pip, uv, Poetry and PDM run for real.

A problem becomes a virtual package index (`encode`): one project per cell (`sudoku-r1c1`),
one release per value (`5.0.0`), each release requiring its peers `!= 5.0.0`; a root requires
every cell with the givens pinned. The same index is written as wheels, a PEP 503 simple
index and a `pyproject.toml` (`encode`); `run` drives the tools in a sandbox, `decode` reads
their answers back, `resolver` is the in-process resolvelib provider, `engines` the classes.
"""
