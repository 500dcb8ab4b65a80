"""The shape of the house: no import cycle among polydoku's modules, and no import from a lower
layer into a higher one (the order of docs/layout.md).

Every import counts: at module level, inside functions (the lazy ones) and under
`TYPE_CHECKING`. The graph is read from the sources with `ast`, never by importing them.
"""

from __future__ import annotations

import ast
import functools
import graphlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

# bottom to top; a top-level module or sub-package of polydoku may import its own layer
# (without a cycle) and the layers below it, never one above
LAYERS = (
    {"polydoku", "text", "errors", "stops", "units", "jobs", "files", "cache", "batch",
     "cluster", "gcpause"},                                  # basics, which know no puzzle
    {"model"},                                    # puzzle, geometry, the rule base
    {"rules"},                                    # the rule kinds and their registry
    {"formats", "problem", "verify"},             # readers and writers, the CSP IR, the checker
    {"core"},                                     # the propagation core: what excludes what
    {"engines"},
    {"reasoning", "render", "generator"},
    {"api", "jsonout"},
    {"benchmark", "web"},
    {"cli", "__main__"},                          # the faces
)


def _modules(root: Path, package: str) -> dict[str, tuple[Path, bool]]:
    """Return {dotted module name: (path, is a package)} for every .py file of a package."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return out


def _targets(node: ast.AST, module: str, is_package: bool, known: set[str]) -> list[str]:
    """Return the dotted names an import statement reaches (a submodule when it names one)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[:len(base) - node.level + 1]
        origin = ".".join(base + ([node.module] if node.module else []))
    else:
        origin = node.module or ""
    return [f"{origin}.{a.name}" if f"{origin}.{a.name}" in known else origin for a in node.names]


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Return {module: the package's modules it imports}, over every import statement."""
    modules = _modules(root, package)
    known = set(modules)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            for target in _targets(node, name, is_package, known):
                while target and target not in known:      # an object or a compiled module:
                    target = target.rpartition(".")[0]      # its nearest enclosing module
                if target and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """Return one import cycle of the graph (its modules, the first repeated last), or []."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as err:
        return list(err.args[1])
    return []


@functools.cache
def _polydoku() -> dict[str, set[str]]:
    return import_graph(SRC, "polydoku")


def _layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else module
    for k, layer in enumerate(LAYERS):
        if top in layer:
            return k
    raise AssertionError(f"{module}: polydoku.{top} has no layer in LAYERS (tests/test_imports.py)")


def test_the_scan_sees_lazy_and_type_checking_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from .b import thing\n")
    (pkg / "a.py").write_text("def f():\n    from .sub import b\n    return b\n")
    (pkg / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                      "    from ..a import f\nthing = 1\n")
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.a"] == {"pkg.sub.b"} and graph["pkg.sub.b"] == {"pkg.a"}
    assert find_cycle(graph)[0] == find_cycle(graph)[-1]
    (pkg / "sub" / "b.py").write_text("thing = 1\n")
    assert find_cycle(import_graph(tmp_path, "pkg")) == []


def test_polydoku_has_no_import_cycle():
    graph = _polydoku()
    assert "polydoku.formats.fpuzzles" in graph["polydoku.formats.read"]      # a lazy import
    cycle = find_cycle(graph)
    assert not cycle, "import cycle: " + " -> ".join(cycle)


@pytest.mark.parametrize("layer", range(len(LAYERS)), ids=lambda k: "+".join(sorted(LAYERS[k])))
def test_no_layer_imports_one_above_it(layer):
    graph = _polydoku()
    upward = sorted(f"{m} -> {t}" for m, targets in graph.items() if _layer(m) == layer
                    for t in targets if _layer(t) > layer)
    assert not upward, "imports of a higher layer: " + "; ".join(upward)


def test_no_command_imports_another_command():
    """The commands share app, common options and the batch loop (`many`), never each other."""
    cli = SRC / "polydoku" / "cli"
    commands = {f"polydoku.cli.{p.stem}" for p in cli.glob("*.py")
                if "@cli.command" in p.read_text() and p.stem != "app"}
    assert {"polydoku.cli.solve", "polydoku.cli.hint", "polydoku.cli.steps"} <= commands
    for module in sorted(commands):
        reached = _polydoku()[module] & commands - {module}
        assert not reached, f"{module} imports the command(s) {sorted(reached)}"
