"""The engine registry: every engine id, where its class lives, imported only when asked for.

Engine modules import their own libraries lazily (in `available()`/`solve()`), so listing the
engines never needs them installed.
"""

from __future__ import annotations

import importlib

from ..errors import BadInput
from .base import Engine

# id -> "module:Class", in the order `polydoku engines` lists them.
_ENGINES: dict[str, str] = {
    "native": "polydoku.engines.native:NativeEngine",
    "apt": "polydoku.engines.debian.engines:AptEngine",
    "aptitude": "polydoku.engines.debian.engines:AptitudeEngine",
    "aspcud": "polydoku.engines.debian.engines:AspcudEngine",
    "mccs": "polydoku.engines.debian.engines:MccsEngine",
    "libsolv-deb": "polydoku.engines.debian.engines:LibsolvDebEngine",
    "dose": "polydoku.engines.debian.engines:DoseEngine",
    "sat": "polydoku.engines.sat:SatEngine",
    "pycosat": "polydoku.engines.pycosat_engine:PycosatEngine",
    "cpsat": "polydoku.engines.cpsat:CpSatEngine",
    "z3": "polydoku.engines.z3_engine:Z3Engine",
    "clingo": "polydoku.engines.asp.engine:ClingoEngine",
    "minizinc": "polydoku.engines.minizinc.engine:MiniZincEngine",
    "alloy": "polydoku.engines.models.runners:AlloyEngine",
    "picat": "polydoku.engines.models.runners:PicatEngine",
    "libsolv-conda": "polydoku.engines.conda.engine:LibsolvCondaEngine",
    "rattler": "polydoku.engines.conda.engine:RattlerEngine",
    "resolvelib": "polydoku.engines.pypi.engines:ResolvelibEngine",
    "pip": "polydoku.engines.pypi.engines:PipEngine",
    "uv": "polydoku.engines.pypi.engines:UvEngine",
    "poetry": "polydoku.engines.pypi.engines:PoetryEngine",
    "pdm": "polydoku.engines.pypi.engines:PdmEngine",
    "npm": "polydoku.engines.javascript:NpmEngine",
    "pnpm": "polydoku.engines.javascript:PnpmEngine",
    "yarn": "polydoku.engines.javascript:YarnEngine",
    "yarn-berry": "polydoku.engines.javascript:YarnBerryEngine",
    "bun": "polydoku.engines.javascript:BunEngine",
    "composer": "polydoku.engines.composer:ComposerEngine",
    "cargo": "polydoku.engines.cargo:CargoEngine",
    "dnf": "polydoku.engines.dnf:DnfEngine",
    "opam": "polydoku.engines.opam:OpamEngine",
    "bundler": "polydoku.engines.bundler:BundlerEngine",
    "cabal": "polydoku.engines.cabal:CabalEngine",
    "0install": "polydoku.engines.zeroinstall:ZeroInstallEngine",
}

ENGINE_IDS: tuple[str, ...] = tuple(_ENGINES)


def engine_class(engine_id: str) -> type[Engine]:
    """Return the class of an engine id (an unknown id is bad input)."""
    if engine_id not in _ENGINES:
        raise BadInput(f"unknown engine {engine_id!r} (known: {', '.join(_ENGINES)})")
    module, _, name = _ENGINES[engine_id].partition(":")
    return getattr(importlib.import_module(module), name)


def parse_spec(spec: str) -> tuple[str, str | None]:
    """Split an engine spec `id` or `id+variant` into its id and variant."""
    engine_id, _, variant = spec.strip().partition("+")
    return engine_id.strip().lower(), (variant.strip().lower() or None)


def make_engine(spec: str, **kwargs) -> Engine:
    """Return an engine for a spec such as `native`, `uv+tuned` (keyword options pass through)."""
    engine_id, variant = parse_spec(spec)
    return engine_class(engine_id)(variant, **kwargs)
