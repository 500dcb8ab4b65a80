"""The CNF encoding shared by the `sat` (PySAT) and `pycosat` engines and the `dimacs` export."""

from .encode import Cnf, encode, to_dimacs

__all__ = ["Cnf", "encode", "to_dimacs"]
