"""The import structure of the package: no import cycles in ``svmviz/``, and every method family's
private modules leave their package's facade alone.

What counts as an import (read from the source with :mod:`ast`, nothing is run): every ``import``
and ``from … import`` statement of a module, wherever a reader meets it — at the top, inside a
function or method, under ``if TYPE_CHECKING:`` or ``try:`` — absolute (``svmviz.x``) or relative
(``from .x import``, ``from .. import x``). A statement ``from P import n`` is an arrow to the module
``P.n`` when that is a module of the package (``from . import criteria``), else to ``P`` itself
(``from .kernels import gram`` is an arrow to ``svmviz.kernels``, the package's ``__init__``).
Arrows point at modules of ``svmviz`` only. The parent packages that Python initialises on the way
(``svmviz.path`` before ``svmviz.path._solver``) are not arrows: an ``__init__`` importing its own
private modules is the facade's job, and the walk from the facade down does not come back.

A cycle is a set of modules each reachable from every other by arrows (a strongly connected
component of more than one module, or a module importing itself); each is reported with one loop of
arrows through it. The cycles are tested per area: the Streamlit layer ``svmviz.ui``, the Dask
studies ``svmviz.studies``, and the rest of the library — a cycle belongs to the first of ``ui`` and
``studies`` that one of its modules is in.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

import svmviz

ROOT = pathlib.Path(svmviz.__file__).parent
FAMILIES = ("svm", "path", "usvc", "ivm", "kernels", "losses")


def _module_files() -> dict[str, pathlib.Path]:
    """Every module of the package, by dotted name (a package by the name of its ``__init__``)."""
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _module_files()


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of a relative import's base (``from ..x import`` in ``svmviz.a.b``)."""
    if level == 0:
        return name or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def import_arrows(module: str) -> list[tuple[str, int]]:
    """(imported module of svmviz, line) for every import statement of ``module``, in source order."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    arrows = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    arrows.append((alias.name, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:
                    arrows.append((sub, node.lineno))
                elif base in MODULES:
                    arrows.append((base, node.lineno))
    return sorted(set(arrows), key=lambda a: (a[1], a[0]))


def import_graph() -> dict[str, dict[str, int]]:
    """module -> {imported module: first line importing it} (self-arrows of a package's own name dropped)."""
    graph = {}
    for module in MODULES:
        targets: dict[str, int] = {}
        for target, line in import_arrows(module):
            if target != module or not MODULES[module].name == "__init__.py":
                targets.setdefault(target, line)
        graph[module] = targets
    return graph


def strongly_connected(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module, or with a self-arrow."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph[v]:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def one_loop(graph: dict[str, dict[str, int]], comp: list[str]) -> str:
    """A loop of arrows through the first module of ``comp``, as ``a (line) -> b (line) -> … -> a``."""
    members, start = set(comp), comp[0]
    # breadth-first from start back to start, inside the component
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w not in members:
                    continue
                if w == start:
                    chain = [v]
                    while prev[chain[-1]] is not None:
                        chain.append(prev[chain[-1]])
                    chain.reverse()
                    chain.append(start)
                    return " -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(chain, chain[1:])) + f" -> {start}"
                if w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return " , ".join(comp)  # pragma: no cover — a strongly connected component always has a loop


def _area(comp: list[str]) -> str:
    for area in ("svmviz.ui", "svmviz.studies"):
        if any(m == area or m.startswith(area + ".") for m in comp):
            return area
    return "svmviz"


GRAPH = import_graph()
CYCLES = strongly_connected(GRAPH)


def test_the_graph_reads_every_kind_of_import():
    """The reader meets top-level, relative, parent-relative and function-level imports alike."""
    assert "svmviz.kernels" in GRAPH["svmviz.svm._classes"]  # from ..kernels import …
    assert "svmviz.svm._smo" in GRAPH["svmviz.svm._classes"]  # from . import _smo
    assert "svmviz._jit" in GRAPH["svmviz.path._solver.kkt"]  # from ..._jit import njit
    assert "svmviz.path._estimator" in GRAPH["svmviz.path"]  # inside the module __getattr__
    assert "svmviz.usvc" in GRAPH["svmviz.losses._losses"]  # inside a function


def test_the_cycle_finder_finds_a_planted_cycle():
    graph = {"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3, "d": 4}, "d": {}, "e": {"e": 5}}
    assert strongly_connected(graph) == [["a", "b", "c"], ["e"]]
    assert one_loop(graph, ["a", "b", "c"]) == "a (line 1) -> b (line 2) -> c (line 3) -> a"


@pytest.mark.parametrize("area", ["svmviz", "svmviz.ui", "svmviz.studies"])
def test_no_import_cycles(area):
    """No module of ``area`` is imported back, even indirectly, by what it imports."""
    found = [one_loop(GRAPH, comp) for comp in CYCLES if _area(comp) == area]
    assert not found, f"{len(found)} import cycle(s) in {area}:\n" + "\n".join(found)


@pytest.mark.parametrize("family", FAMILIES)
def test_private_modules_of_a_family_do_not_import_its_facade(family):
    """``svmviz.<family>/__init__`` re-exports from its private modules; none of them imports it back,
    nor the top-level facade ``svmviz``."""
    package = f"svmviz.{family}"
    assert MODULES[package].name == "__init__.py", f"{package} is a package"
    bad = [f"{m} line {line} imports {t}" for m in MODULES if m.startswith(package + ".")
           for t, line in GRAPH[m].items() if t in (package, "svmviz")]
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------------------------- private means private
SHARED_MARKER = "Shared internal module of svmviz"
"""The sentence a top-level private module's docstring holds when the whole package may import it."""


def unit(module: str) -> str:
    """Who owns ``module``: a subpackage of ``svmviz`` (``svmviz.svm`` owns ``svmviz.svm._smo``), or, for a
    module at the top of the package, the module itself (``svmviz.tuning``, ``svmviz._surface``)."""
    parts = module.split(".")
    head = ".".join(parts[:2])
    if len(parts) >= 2 and head in MODULES and MODULES[head].name == "__init__.py":
        return head
    return module


def _is_private_name(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def shared_modules() -> set[str]:
    """The top-level private modules whose docstring says that they serve the whole package."""
    out = set()
    for module, path in MODULES.items():
        if module.count(".") == 1 and _is_private_name(module.split(".")[1]) and path.name != "__init__.py":
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            if SHARED_MARKER in doc:
                out.add(module)
    return out


SHARED = shared_modules()


def is_private_module(module: str) -> bool:
    """A module of ``svmviz`` with a private part in its dotted name (``svmviz.svm._smo``,
    ``svmviz.path._solver.kkt``), unless it is a shared internal module (:data:`SHARED_MARKER`)."""
    return module not in SHARED and any(_is_private_name(p) for p in module.split(".")[1:])


def private_crossings(module: str) -> list[str]:
    """The rule, for one module: an import whose target belongs to another :func:`unit` must name a
    module that is not private (:func:`is_private_module`: facades, public modules, shared internal
    modules) and import from it no private name (``from svmviz.tuning import _x``; dunders such as
    ``__version__`` are not private). Returns one line per crossing: importer, line, what it takes."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES and unit(alias.name) != unit(module) and is_private_module(alias.name):
                    out.add((node.lineno, alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:
                    if unit(sub) != unit(module) and is_private_module(sub):
                        out.add((node.lineno, sub))
                elif base in MODULES and unit(base) != unit(module):
                    if is_private_module(base):
                        out.add((node.lineno, base))
                    if _is_private_name(alias.name):
                        out.add((node.lineno, f"{base}.{alias.name}"))
    return [f"{module} line {line} imports {what}" for line, what in sorted(out)]


def test_the_private_rule_reads_units_and_shared_modules():
    assert unit("svmviz.svm._smo") == unit("svmviz.svm") == "svmviz.svm"
    assert unit("svmviz.path._solver.kkt") == "svmviz.path"
    assert unit("svmviz.tuning") == "svmviz.tuning" and unit("svmviz") == "svmviz"
    assert {"svmviz._jit", "svmviz._linalg", "svmviz._validation", "svmviz._surface"} <= SHARED
    assert is_private_module("svmviz.svm._smo") and is_private_module("svmviz.path._solver")
    assert not is_private_module("svmviz.svm") and not is_private_module("svmviz._linalg")


def test_the_private_rule_finds_planted_crossings(tmp_path, monkeypatch):
    """A module taking a private module, or a private name, of another unit is reported; its own
    unit's private modules, facades and shared modules are not."""
    planted = tmp_path / "planted.py"
    planted.write_text("from .svm import _smo\nfrom .svm._classes import SVMClassifier\n"
                       "from ._surface import _x, grid_minima\nfrom .svm import SVMClassifier\n"
                       "import svmviz.path._solver.kkt\nfrom . import __version__\n", encoding="utf-8")
    monkeypatch.setitem(MODULES, "svmviz.planted", planted)
    assert private_crossings("svmviz.planted") == [
        "svmviz.planted line 1 imports svmviz.svm._smo", "svmviz.planted line 2 imports svmviz.svm._classes",
        "svmviz.planted line 3 imports svmviz._surface._x", "svmviz.planted line 5 imports svmviz.path._solver.kkt"]
    assert private_crossings("svmviz.svm") == []  # a facade imports its own private modules


def test_no_private_import_crosses_a_unit():
    """No module imports a private module or a private name of another subpackage (or top-level module);
    what others need is offered by a facade ``__init__`` or a shared internal module."""
    found = [line for module in MODULES for line in private_crossings(module)]
    print(f"private imports crossing a unit: {len(found)}")
    assert not found, f"{len(found)} private import(s) across units:\n" + "\n".join(found)


# ---------------------------------------------------------------------------------- third-party imports by place
def third_party_importers(top: str) -> dict[str, list[int]]:
    """module -> lines of its imports of the third-party package ``top`` (``streamlit``, ``numba.core.event``:
    the dotted name or anything below it), wherever they stand in the module."""
    out: dict[str, list[int]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            if any(n == top or n.startswith(top + ".") for n in names):
                out.setdefault(module, []).append(node.lineno)
    return out


def _in_ui(module: str) -> bool:
    return module == "svmviz.ui" or module.startswith("svmviz.ui.")


def test_streamlit_is_imported_only_under_ui():
    """The library, the studies and the figures run without Streamlit; only ``svmviz/ui/`` imports it."""
    importers = third_party_importers("streamlit")
    outside = {m: lines for m, lines in importers.items() if not _in_ui(m)}
    print(f"modules importing streamlit outside svmviz/ui: {len(outside)}")
    assert any(_in_ui(m) for m in importers)  # the reader sees the app's imports
    assert not outside, "\n".join(f"{m} lines {lines} import streamlit" for m, lines in outside.items())


def test_one_numba_compile_listener():
    """numba's compile events are listened to in one place, :mod:`svmviz._jit` (the notices, the compile
    progress line and the count of compilations the app's jobs read)."""
    importers = sorted(third_party_importers("numba.core.event"))
    print(f"modules listening to numba's compile events: {len(importers)}")
    assert importers == ["svmviz._jit"], importers


def test_a_facades_offer_to_the_package_is_not_public_api():
    """Names a facade offers svmviz's other modules only (its ``_INTERNAL``) exist and stay out of its
    ``__all__`` (they are arrays-in, status-out entry points whose callers validate)."""
    import importlib

    offering = []
    for module, path in MODULES.items():
        if path.name == "__init__.py" and "_INTERNAL" in path.read_text(encoding="utf-8"):
            mod = importlib.import_module(module)
            offering.append(module)
            assert all(hasattr(mod, name) for name in mod._INTERNAL), module
            assert not set(mod._INTERNAL) & set(getattr(mod, "__all__", ())), module
    assert "svmviz.svm" in offering
