"""svmviz._jit.njit: a cached kernel follows an edit of the kernel it calls in another module.

numba alone does not (its cache is keyed on the caller's own file): the control case shows the stale
value that a ``pip install --upgrade`` over a persistent cache would run, the svmviz case the fresh one.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

CALLEE = "from {imp} import njit\n\n\n@njit(cache=True)\ndef value():\n    return {v}\n"
CALLER = ("from {imp} import njit\n\nfrom svmviz._probe_callee import value\n\n\n"
          "@njit(cache=True)\ndef twice():\n    return 2.0 * value()\n")
PROBE = "from svmviz._probe_caller import twice; print(repr(twice()))"


def _package(tmp_path, imp: str):
    pkg = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "svmviz"), pkg / "svmviz", ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "svmviz" / "_probe_callee.py").write_text(CALLEE.format(imp=imp, v="1.0"))
    (pkg / "svmviz" / "_probe_caller.py").write_text(CALLER.format(imp=imp))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(pkg), PYTHONDONTWRITEBYTECODE="1")

    def probe() -> float:
        res = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=tmp_path, capture_output=True,
                             text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        return float(res.stdout.strip())

    def edit_callee(v: str) -> None:
        (pkg / "svmviz" / "_probe_callee.py").write_text(CALLEE.format(imp=imp, v=v))

    return probe, edit_callee


@pytest.mark.parametrize("imp, after_edit", [("numba", 2.0), ("svmviz._jit", 6.0)],
                         ids=["numba-alone-stale", "svmviz-fresh"])
def test_cached_caller_after_an_edit_of_its_callee(tmp_path, imp, after_edit):
    probe, edit_callee = _package(tmp_path, imp)
    assert probe() == 2.0
    assert probe() == 2.0  # loaded from the cache now
    edit_callee("3.0")
    assert probe() == after_edit  # numba alone: the caller's cache still holds value() = 1


def test_cache_folder_is_keyed_and_restored(monkeypatch, tmp_path):
    from numba.core import config

    from svmviz import _jit

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))  # numba re-reads its environment at times
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path))
    assert _jit.cache_folder() == os.path.join(str(tmp_path), _jit.CACHE_PREFIX + _jit.source_digest())

    @_jit.njit(cache=True)
    def f(x):
        return x + 1.0

    assert f(1.0) == 2.0
    assert config.CACHE_DIR == str(tmp_path)  # switched only while the decorator ran
    assert os.path.isdir(_jit.cache_folder())  # numba wrote the kernel there


_FOLDERS = r"""
import os, sys, threading
import numba
from numba.core.registry import CPUDispatcher
order = sys.argv[1].split(",")
def load(names):
    for name in names:
        __import__(name)
if len(order) > 1 and sys.argv[2] == "threads":
    # third-party packages first: concurrent first imports of scikit-learn fail inside scikit-learn
    import scipy.linalg, scipy.special, sklearn.base, sklearn.utils.validation, sklearn.svm, pandas  # noqa
    ts = [threading.Thread(target=load, args=([n],)) for n in order]
    [t.start() for t in ts]; [t.join() for t in ts]
else:
    load(order)
from svmviz import _jit
want = os.path.join(os.environ["NUMBA_CACHE_DIR"], _jit.CACHE_PREFIX + _jit.source_digest())
bad, n = [], 0
for name, mod in list(sys.modules.items()):
    if not name.startswith("svmviz."):
        continue
    for obj in vars(mod).values():
        if isinstance(obj, CPUDispatcher) and obj._cache is not None and obj.__module__ == name:
            n += 1
            path = obj._cache._cache_path
            if os.path.dirname(path) != want:
                bad.append((name, obj.__name__, path))
print(n, bad[:3])
assert n > 50 and not bad
"""


@pytest.mark.parametrize("order,how", [("svmviz.path,svmviz.tuning,svmviz.ivm,svmviz.anova", "serial"),
                                       ("svmviz.tuning,svmviz.path,svmviz.ivm,svmviz.anova", "serial"),
                                       ("svmviz.path,svmviz.tuning,svmviz.ivm,svmviz.anova", "threads")])
def test_every_cached_kernel_in_one_folder_whatever_the_import_order(tmp_path, order, how):
    """A server compiled again what the warm-up had cached (the path page's first chart 20–27 s on a
    filled cache): ``_nu_path`` switched numba's global cache folder for its whole import while other
    modules (and other threads' decorators) switched it too, so kernels landed in nested folders that
    depended on which page was opened first. Every cached kernel of svmviz must sit in
    ``$NUMBA_CACHE_DIR/svmviz-kernels-<digest>/<source folder>/`` — imported in any order, by threads."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-c", _FOLDERS, order, how], env=env, capture_output=True, text=True,
                       timeout=300, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
