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
