"""The CNF encoding shared by the `sat` (PySAT) and `pycosat` engines and the `dimacs` export."""

from ..models.common import ModelCache
from .encode import Cnf, encode, to_dimacs

# One encoding per (geometry, rules) for both SAT engines of a process.
ENCODINGS = ModelCache(encode)

__all__ = ["Cnf", "ENCODINGS", "encode", "to_dimacs"]
