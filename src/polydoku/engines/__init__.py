"""Engines: one small protocol, many solvers. See `base` for the protocol, `registry` for the ids."""

from .base import Availability, Engine, Outcome, Status
from .registry import ENGINE_IDS, engine_class, make_engine

__all__ = ["Availability", "ENGINE_IDS", "Engine", "Outcome", "Status", "engine_class", "make_engine"]
