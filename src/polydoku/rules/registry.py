"""The registry of rule kinds, and reading rules by name (`--rules`) or as JSON data.

`kinds()` builds the registry once, from the list each family module declares; nothing else
adds to it. The families are imported then, not with this module: a puzzle without rules
never loads them (most of the start-up of a one-puzzle command). The readers look kinds up
in it, so they live above the kinds, not in the model.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import BadInput
from ..model.geometry import Geometry
from ..model.rules import LineName, Rule, hooks_of

_KINDS: dict[str, type[Rule]] | None = None


def kinds() -> dict[str, type[Rule]]:
    """Return every rule kind by name, in the order of the families (built on first use,
    whole before it is shared: the web server's threads may ask at once)."""
    global _KINDS
    if _KINDS is None:
        from . import arrows, cells, globals, lines, outside, pairs
        found = {cls.kind: cls for family in (globals, cells, pairs, lines, arrows, outside)
                 for cls in family.KINDS}
        for module in _kind_modules():
            for cls in module.KINDS:
                if cls.kind in found:
                    raise RuntimeError(f"rule kind {cls.kind!r} is declared twice")
                found[cls.kind] = cls
        _KINDS = found
    return _KINDS


def named_in(fmt: str) -> dict[str, list[type[Rule]]]:
    """Return the kinds by the names a format knows them under, in registry order: "iss" ->
    {ISS name: kinds that read it}, "fpuzzles" -> {f-puzzles key: kinds that read it}
    (only the kinds that define the reading hook)."""
    hook = {"iss": "read_iss", "fpuzzles": "read_fpuzzles"}[fmt]
    out: dict[str, list[type[Rule]]] = {}
    for cls in kinds().values():
        if hook in hooks_of(cls):
            names = cls.iss.split() if fmt == "iss" else cls.fpuzzles
            for name in names:
                out.setdefault(name, []).append(cls)
    return out


def line_kinds() -> dict[str, type[Rule]]:
    """Return the kinds a drawn line can be named as (`along_path`), by name."""
    return {k: cls for k, cls in kinds().items() if cls.along_path}


def _kind_modules() -> list[Any]:
    """Return the modules of the `kind` package, one kind (or a few close ones) each, in
    name order: each lists its classes in `KINDS`, and nothing else registers them."""
    import importlib
    import pkgutil

    from . import kind as package
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if not m.ispkg)
    return [importlib.import_module(f"{package.__name__}.{name}") for name in names]


def _kind_of(text: str) -> str:
    """Return the registered kind a user's spelling names (`antiknight`, `x` -> diagonal)."""
    key = text.strip().lower().replace("_", "-").replace(" ", "-")
    known = kinds()
    if key in known:
        return key
    for kind, cls in known.items():
        if key in cls.aliases or key.replace("-", "") == kind.replace("-", ""):
            return kind
    return ""


def parse_rules(text: str | Sequence[str] | None) -> tuple[Rule, ...]:
    """Return the global rules named in a comma-separated string or a list (unknown names,
    and kinds that need parameters, are bad input)."""
    if not text:
        return ()
    names = text.split(",") if isinstance(text, str) else list(text)
    out: list[Rule] = []
    for raw in names:
        if not isinstance(raw, str):
            raise BadInput(f"rule {raw!r} is not a name")
        if not raw.strip():
            continue
        if raw.strip().lower().startswith("line:"):
            colour, sep, line_kind = raw.strip()[5:].partition("=")
            if not sep or not colour.strip() or not line_kind.strip():
                raise BadInput(f"rule {raw.strip()[:40]!r}: write a line name as "
                               "line:COLOUR=KIND, for example line:#C060F0=renban")
            out.append(LineName(colour.strip(), line_kind.strip().lower()))
            continue
        name, _, marks = raw.partition(":")
        kind = _kind_of(name)
        if not kind:
            raise BadInput(f"unknown rule {raw.strip()[:40]!r} (known: {', '.join(global_kinds())})")
        cls = kinds()[kind]
        if not cls.is_global:
            raise BadInput(f"rule {kind!r} needs parameters: give it as a JSON object "
                           f"(see docs/rules.md)")
        rule = _with_marks(cls, marks.strip()) if marks.strip() else cls()
        if rule not in out:
            out.append(rule)
    return tuple(out)


def _with_marks(cls: type[Rule], marks: str) -> Rule:
    """Return a negative rule for some of its marks only (`kropki-negative:white`,
    `xv-negative:v`, several joined by `+`)."""
    field, known = getattr(cls, "field", ""), getattr(cls, "all_marks", ())
    if not field or not known:
        raise BadInput(f"rule {cls.kind!r} takes no marks ({cls.kind}:{marks[:20]})")
    chosen = [m.strip().lower() for m in marks.split("+")]
    for mark in chosen:
        if mark not in known:
            raise BadInput(f"rule {cls.kind}: mark {mark[:20]!r} is not one of "
                           f"{', '.join(known)} ({cls.kind}:{known[0]})")
    return cls.from_data({field: chosen}, None)          # type: ignore[arg-type]


def global_kinds() -> list[str]:
    """Return the kinds that take no parameters (the ones `--rules` accepts)."""
    return [k for k, cls in kinds().items() if cls.is_global]


def rule_from_data(item: Any, geometry: Geometry, index: int = 0) -> Rule:
    """Return the rule of one item of a JSON "rules" list: a kind name or an object.

    Errors name the rule (its 1-based place in the list and its kind) and the field.
    """
    where = f"rule {index + 1}"
    if isinstance(item, str):
        kind = _kind_of(item)
        if not kind:
            raise BadInput(f"{where}: unknown kind {item[:40]!r}")
        cls = kinds()[kind]
        if not cls.is_global:
            raise BadInput(f"{where} ({kind}): needs parameters, give it as an object")
        return cls()
    if not isinstance(item, dict):
        raise BadInput(f"{where}: expected a kind name or an object, not {type(item).__name__}")
    raw_kind = item.get("kind")
    if not isinstance(raw_kind, str):
        raise BadInput(f"{where}: field \"kind\" must be a string")
    kind = _kind_of(raw_kind)
    if not kind:
        raise BadInput(f"{where}: unknown kind {raw_kind[:40]!r}")
    try:
        return kinds()[kind].from_data(item, geometry)
    except BadInput as err:
        raise BadInput(f"{where} ({kind}): {err.reason}") from None


def rules_from_data(items: Any, geometry: Geometry) -> tuple[Rule, ...]:
    """Return the rules of a JSON "rules" list (duplicates dropped, order kept)."""
    if items is None:
        return ()
    if not isinstance(items, list):
        raise BadInput(f"\"rules\" must be a list, not {type(items).__name__}")
    return tuple(dict.fromkeys(rule_from_data(item, geometry, k) for k, item in enumerate(items)))
