"""The modules of the physics layer import one another without a cycle (function-level
imports included), so each can be read, and loaded, on its own."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import splash.physics

PACKAGE = "splash.physics"


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports, anywhere."""
    folder = Path(splash.physics.__file__).parent
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        name = f"{PACKAGE}.{path.stem}" if path.stem != "__init__" else PACKAGE
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[name] = {m for m in found if m.startswith(PACKAGE + ".") and m != name}
    return graph


def test_the_physics_modules_import_one_another_without_a_cycle() -> None:
    graph = import_graph()
    assert "splash.physics.provider" in graph and "splash.physics.static_outcomes" in graph
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"import cycle: {' -> '.join(error.args[1])}") from None
    assert order.index("splash.physics.provider") < order.index("splash.physics.static_outcomes")
