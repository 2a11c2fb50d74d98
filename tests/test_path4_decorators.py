"""The ν-path's kernels without CPython wrappers (svmviz._nu_path._decorators, issue 13: the path
page's first compilation) are never called from Python: such a call is a segmentation fault, not
an exception. Checked on the source (every Python function of svmviz, bench/ and tests/ that calls a
``helper`` kernel by name), and the check itself on a snippet that does."""
from __future__ import annotations

import ast
import pathlib

import pytest

from svmviz._nu_path import _decorators

ROOT = pathlib.Path(__file__).resolve().parents[1]
PKG = ROOT / "svmviz" / "_nu_path"
HELPER_DECORATORS = {"helper", "helper_inline"}


def _decorator_names(fn: ast.FunctionDef) -> set[str]:
    out = set()
    for d in fn.decorator_list:
        d = d.func if isinstance(d, ast.Call) else d
        if isinstance(d, ast.Name):
            out.add(d.id)
        elif isinstance(d, ast.Attribute):
            out.add(d.attr)
    return out


def _helpers() -> dict[str, set[str]]:
    """module name (``kkt``) -> names of its kernels decorated ``helper``/``helper_inline``."""
    out = {}
    for f in PKG.glob("*.py"):
        tree = ast.parse(f.read_text())
        out[f.stem] = {n.name for n in tree.body
                       if isinstance(n, ast.FunctionDef) and _decorator_names(n) & HELPER_DECORATORS}
    return out


def _is_kernel(fn) -> bool:
    return bool(_decorator_names(fn) & ({"njit", "jit", "entry", "entry_alone"} | HELPER_DECORATORS))


def python_calls_of_helpers(source: str, module: str | None, helpers: dict[str, set[str]]) -> list[str]:
    """Calls of a helper kernel from Python code in ``source`` (``module``: its name when it is one of
    the _nu_path modules, whose own helpers it may call unqualified). Names are resolved through the
    file's imports from svmviz._nu_path (``from svmviz._nu_path.kkt import x``, ``from .kkt import x``,
    ``from svmviz._nu_path import kkt`` then ``kkt.x``)."""
    tree = ast.parse(source)
    names: dict[str, str] = {}    # local name -> "module.helper"
    modules: dict[str, str] = {}  # local name -> _nu_path module
    if module in helpers:
        names.update({h: f"{module}.{h}" for h in helpers[module]})
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            src = node.module or ""
            if node.level == 1 and module in helpers:
                src = "svmviz._nu_path." + src if src else "svmviz._nu_path"
            for a in node.names:
                local = a.asname or a.name
                if src.startswith("svmviz._nu_path."):
                    m = src.rsplit(".", 1)[1]
                    if a.name in helpers.get(m, ()):
                        names[local] = f"{m}.{a.name}"
                elif src in ("svmviz._nu_path", "svmviz") and a.name in helpers:
                    modules[local] = a.name
    found = []

    def visit(node, in_kernel):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            in_kernel = _is_kernel(node)
        if isinstance(node, ast.Call) and not in_kernel:
            f = node.func
            if isinstance(f, ast.Name) and f.id in names:
                found.append(f"{names[f.id]} (line {node.lineno})")
            elif (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in modules
                  and f.attr in helpers[modules[f.value.id]]):
                found.append(f"{modules[f.value.id]}.{f.attr} (line {node.lineno})")
        for child in ast.iter_child_nodes(node):
            visit(child, in_kernel)

    visit(tree, False)
    return found


def test_no_python_code_calls_a_kernel_without_its_cpython_wrapper():
    helpers = _helpers()
    assert sum(map(len, helpers.values())) >= 30  # the follower's and the LOO's inner kernels
    bad = {}
    for folder in ("svmviz", "bench", "tests"):
        for f in (ROOT / folder).rglob("*.py"):
            if ".venv" in f.parts:
                continue
            module = f.stem if f.parent == PKG else None
            calls = python_calls_of_helpers(f.read_text(), module, helpers)
            if calls:
                bad[str(f.relative_to(ROOT))] = calls
    assert not bad, f"Python calls of wrapper-less kernels (make them `entry`): {bad}"


def test_the_check_sees_a_python_call_of_a_helper():
    helpers = _helpers()
    assert "n_positive" not in helpers["kkt"] and "exact_s" in helpers["kkt"]
    snippet = ("from svmviz._nu_path.kkt import exact_s, n_positive\n"
               "from svmviz._nu_path import asqp\n"
               "def f(K, y, s):\n    n_positive(y)\n    exact_s(K, y, 1.0, s, s)\n    asqp.asqp(K)\n"
               "@njit\ndef g(K, y, s):\n    exact_s(K, y, 1.0, s, s)\n")
    assert python_calls_of_helpers(snippet, None, helpers) == ["kkt.exact_s (line 5)", "asqp.asqp (line 6)"]
    # inside the package: an unqualified call of the module's own helper from a Python function
    own = "def loo_kernel_parallel(y):\n    return _loo_setup(y)\n"
    assert python_calls_of_helpers(own, "loo", {"loo": {"_loo_setup"}}) == ["loo._loo_setup (line 2)"]


@pytest.mark.parametrize("name", ["helper", "helper_inline", "entry"])
def test_decorators_drop_the_cfunc_wrapper_and_helpers_the_cpython_one(name):
    from svmviz._nu_path import kkt

    fn = {"helper": kkt.exact_s, "entry": kkt.n_positive, "helper_inline": None}[name]
    if fn is None:
        from svmviz._nu_path import follower
        fn = follower._settle
    opts = fn.targetoptions
    assert opts.get("no_cfunc_wrapper") is True
    assert bool(opts.get("no_cpython_wrapper")) is (name != "entry")
    assert getattr(_decorators, name) is not None
