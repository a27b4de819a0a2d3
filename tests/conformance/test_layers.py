"""The folders of ``splash`` import one another without a cycle, every import counted: those
at the top of a module, those inside a function and those under ``TYPE_CHECKING``, so a
cycle cannot hide in a function body (docs: the layers of the README's architecture).

The one way out: a function-level import of a module of ours that loads a heavy optional
dependency (:data:`HEAVY_DEPENDENCIES`) at its top, deferred so that a command that does not
use it does not pay for it.  None is needed today; the rule is written down for the day one
is.

Inside a package the files form a DAG as well (:func:`file_graph`): every import counts,
those inside a function included, but those under ``TYPE_CHECKING`` (a type named for the
checker, which loads nothing).  And a game's state, the record the rest of its package acts
on, imports none of the files that act on it: the rules, the views and the documents import
the state, never the other way round.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import splash

ROOT = Path(splash.__file__).parent
HEAVY_DEPENDENCIES = frozenset({"numba", "torch", "pyspiel", "dask", "optuna"})
"""Optional dependencies heavy enough that a module of ours loading them may be imported
inside a function, outside the folder graph."""
BASE = {"core": {"core"}, "games": {"core", "games"}}
"""The lowest layers and the only folders of ours each may import: the core nothing else,
the rules engines only the core (never the physics, the bots or anything above)."""


@dataclass(frozen=True)
class Imported:
    """One import of a module of ``splash`` by a file."""

    file: str
    """The importing file, relative to the package (``bots/ppo.py``)."""
    module: str
    """The module imported (``splash.envs.encoding``)."""
    in_function: bool
    """Whether the import stands inside a function body."""
    for_types: bool = False
    """Whether the import stands under ``if TYPE_CHECKING:`` (for the type checker only)."""


def folder_of(module: str, root: Path = ROOT) -> str | None:
    """The folder of the package at ``root`` that holds ``module`` (``None`` for the package
    itself, or for a module of another package)."""
    parts = module.split(".")
    if parts[0] != root.name or len(parts) < 2 or not (root / parts[1]).is_dir():
        return None
    return parts[1]


def _named(node: ast.Import | ast.ImportFrom, module: list[str]) -> list[str]:
    """What an import statement names, whole: ``from splash.bots import make_bot`` names
    ``splash.bots.make_bot`` (a module or a name in one); a relative import is resolved
    against the importing ``module``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parent = module[: len(module) - node.level]
        base = ".".join([*parent, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def imports_in(path: Path, root: Path = ROOT) -> Iterator[Imported]:
    """Every import of a module of the package at ``root`` in its file ``path``, wherever it
    stands."""
    relative = path.relative_to(root)
    module = [root.name, *relative.with_suffix("").parts]  # an __init__'s ``.`` is its package
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(node: ast.AST, in_function: bool, for_types: bool) -> Iterator[Imported]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                for name in _named(child, module):
                    if name.split(".")[0] == root.name:
                        yield Imported(relative.as_posix(), name, in_function, for_types)
            if isinstance(child, ast.If) and _type_checking(child.test):
                for branch, typed in ((child.body, True), (child.orelse, for_types)):
                    for statement in branch:
                        yield from walk(ast.Module([statement], []), in_function, typed)
                continue
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            yield from walk(child, inside, for_types)

    yield from walk(tree, False, False)


def _type_checking(test: ast.expr) -> bool:
    """Whether an ``if`` tests ``TYPE_CHECKING`` (or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def loads_heavy(module: str, root: Path = ROOT) -> bool:
    """Whether ``module`` (or the module of the name ``module``), of the package at ``root``,
    imports a heavy optional dependency (:data:`HEAVY_DEPENDENCIES`) at its top."""
    parts = module.split(".")[1:]
    while parts and not (
        root.joinpath(*parts).is_dir() or root.joinpath(*parts[:-1], parts[-1] + ".py").is_file()
    ):
        parts.pop()  # a name in a module: the module
    path = root.joinpath(*parts)
    file = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    for node in ast.parse(file.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
        else:
            continue
        if any(name.split(".")[0] in HEAVY_DEPENDENCIES for name in names):
            return True
    return False


def folder_graph(root: Path = ROOT) -> dict[str, dict[str, list[Imported]]]:
    """Each folder of the package at ``root``, the other folders it imports and the imports
    that do (a late import of a module that loads a heavy dependency left out)."""
    graph: dict[str, dict[str, list[Imported]]] = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if len(relative.parts) < 2:
            continue
        folder = relative.parts[0]
        edges = graph.setdefault(folder, {})
        for found in imports_in(path, root):
            target = folder_of(found.module, root)
            if target is None or target == folder:
                continue
            if found.in_function and loads_heavy(found.module, root):
                continue
            edges.setdefault(target, []).append(found)
    return graph


def file_of(module: str, root: Path = ROOT) -> Path | None:
    """The file of the package at ``root`` that defines ``module`` or the name ``module``
    (a package: its ``__init__.py``); ``None`` for a module of another package."""
    parts = module.split(".")
    if parts[0] != root.name:
        return None
    parts = parts[1:]
    while parts:
        path = root.joinpath(*parts)
        if (path / "__init__.py").is_file():
            return path / "__init__.py"
        if path.with_suffix(".py").is_file():
            return path.with_suffix(".py")
        parts.pop()  # a name in a module: the module
    return None


def packages(root: Path = ROOT) -> list[Path]:
    """Every package under ``root`` (a folder with an ``__init__.py``), ``root`` included."""
    return sorted(init.parent for init in root.rglob("__init__.py"))


def file_graph(package: Path, root: Path = ROOT) -> dict[str, dict[str, list[Imported]]]:
    """Each file of ``package`` (a folder of the package at ``root``), the files of the same
    folder it imports and the imports that do: those in a function too, not those under
    ``TYPE_CHECKING``."""
    graph: dict[str, dict[str, list[Imported]]] = {}
    for path in sorted(package.glob("*.py")):
        edges = graph.setdefault(path.name, {})
        for found in imports_in(path, root):
            target = file_of(found.module, root)
            if found.for_types or target is None or target.parent != package or target == path:
                continue
            edges.setdefault(target.name, []).append(found)
    return graph


def cycle_of(graph: Mapping[str, Mapping[str, object]]) -> list[str] | None:
    """A cycle of ``graph`` (each node imports the next), the first node repeated last;
    ``None`` when it has none."""
    try:
        TopologicalSorter({node: set(edges) for node, edges in graph.items()}).prepare()
    except CycleError as error:
        # graphlib gives the cycle against the arrows: each node is imported by the next.
        return list(reversed(error.args[1]))
    return None


def describe(
    graph: Mapping[str, Mapping[str, list[Imported]]], cycle: list[str], what: str = "folder"
) -> str:
    """The cycle (of ``what``: folders or files) with the imports that make each of its
    steps."""
    steps = []
    for folder, target in itertools.pairwise(cycle):
        where = ", ".join(
            f"{i.file} imports {i.module}{' (in a function)' if i.in_function else ''}"
            for i in graph[folder][target]
        )
        steps.append(f"{folder} -> {target}: {where}")
    return f"{what} cycle: " + "; ".join(steps)


def test_the_folders_of_splash_import_one_another_without_a_cycle() -> None:
    graph = folder_graph()
    assert {"core", "games", "bots", "fast", "envs", "sim", "report", "server"} <= set(graph)
    cycle = cycle_of(graph)
    assert cycle is None, describe(graph, cycle)


def test_the_files_of_each_package_import_one_another_without_a_cycle() -> None:
    found = [str(package.relative_to(ROOT.parent)) for package in packages()]
    assert {"splash/games/tower", "splash/games/bash", "splash/sim"} <= set(found)
    for package in packages():
        graph = file_graph(package)
        cycle = cycle_of(graph)
        where = package.relative_to(ROOT.parent).as_posix()
        assert cycle is None, f"{where}: " + describe(graph, cycle, "file")


def test_a_games_state_imports_none_of_the_files_that_act_on_it() -> None:
    states = sorted((ROOT / "games").glob("*/state.py"))
    assert {state.parent.name for state in states} >= {"tower", "bash"}
    for state in states:
        package, game = state.parent, state.parent.name
        acting = sorted(
            path.name
            for path in package.glob("*.py")
            if any(file_of(i.module) == state for i in imports_in(path))
        )
        assert "game.py" in acting  # it makes the states
        imported = {file_of(i.module) for i in imports_in(state) if not i.for_types}
        back = [name for name in acting if package / name in imported]
        assert not back, f"games/{game}/state.py imports {back}, which import it"


def test_the_core_and_the_rules_engines_import_no_folder_above_them() -> None:
    graph = folder_graph()
    for folder, allowed in BASE.items():
        above = [
            i for target, found in graph[folder].items() if target not in allowed for i in found
        ]
        assert not above, f"{folder} imports " + "; ".join(f"{i.file}: {i.module}" for i in above)


def _package(root: Path, files: Mapping[str, str]) -> Path:
    """A package ``splash`` under ``root`` with ``files`` (relative path: source)."""
    package = root / "splash"
    for name, source in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
    return package


def test_a_cycle_hidden_in_a_function_is_found(tmp_path: Path) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "core/__init__.py": "",
            "report/__init__.py": "from .. import core\nfrom splash.sim import runner\n",
            "sim/__init__.py": "",
            "sim/runner.py": "def late() -> None:\n    from splash.report import pages\n",
        },
    )
    graph = folder_graph(package)
    assert [(i.module, i.in_function) for i in graph["sim"]["report"]] == [
        ("splash.report.pages", True)
    ]
    assert set(graph["report"]) == {"core", "sim"}
    cycle = cycle_of(graph)
    assert cycle is not None
    text = describe(graph, cycle)
    assert "sim/runner.py imports splash.report.pages (in a function)" in text
    assert "report/__init__.py imports splash.sim.runner" in text


def test_a_file_cycle_counts_imports_in_functions_but_not_those_for_types(
    tmp_path: Path,
) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "games/__init__.py": "",
            "games/state.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    from splash.games.game import Game\n",
            "games/game.py": "from splash.games.state import State\n",
            "games/rules.py": "from splash.games import state\n",
            "games/view.py": "def late() -> None:\n    from splash.games.rules import legal\n",
        },
    )
    games = package / "games"
    graph = file_graph(games, package)
    assert set(graph["state.py"]) == set()  # a type for the checker only
    assert cycle_of(graph) is None
    (games / "rules.py").write_text(
        "from splash.games import state\n\n\ndef late() -> None:\n"
        "    from splash.games.view import shown\n",
        encoding="utf-8",
    )
    graph = file_graph(games, package)
    cycle = cycle_of(graph)
    assert cycle is not None
    assert "games/view.py imports splash.games.rules.legal (in a function)" in describe(
        graph, cycle
    )


def test_only_a_late_import_of_a_module_that_loads_a_heavy_dependency_escapes(
    tmp_path: Path,
) -> None:
    package = _package(
        tmp_path,
        {
            "__init__.py": "",
            "fast/__init__.py": "",
            "fast/kernel.py": "import numba\n",
            "fast/tables.py": "def late() -> None:\n    from splash.bots import greedy\n",
            "bots/__init__.py": "",
            "bots/greedy.py": "from splash.fast import tables\n\n\ndef late() -> None:\n"
            "    from splash.fast import kernel\n",
        },
    )
    graph = folder_graph(package)
    assert [i.file for i in graph["bots"]["fast"]] == ["bots/greedy.py"]  # tables, not kernel
    assert cycle_of(graph) is not None  # fast/tables.py's late import of bots still counts
    assert loads_heavy("splash.fast.kernel")  # ours: numba
    assert loads_heavy("splash.fast.kernel.greedy_decide")  # a name in it
    assert not loads_heavy("splash.sim.runner")
    assert not loads_heavy("splash.no_such_module")
