"""svmviz._jit.njit: a cached kernel follows an edit of the kernel it calls in another module, in a
cache folder of svmviz's own.

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
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SVMVIZ_CACHE_DIR")}
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


def test_kernel_cache_folder_is_svmviz_own_and_numba_setting_untouched(tmp_path):
    """svmviz's kernels cache under ``<base>/svmviz-kernels-<digest>``; numba's own setting — what any
    other numba code of the process uses — is neither set nor changed by importing or compiling them."""
    code = ("import os, numba, numba.core.config as c; before = c.CACHE_DIR\n"
            "import numpy as np, svmviz.kernels as k; k.gram(np.eye(3), sigma=1.0)\n"
            "from svmviz import _jit\n"
            "print(repr(os.environ.get('NUMBA_CACHE_DIR')), before == c.CACHE_DIR, _jit.cache_folder())")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SVMVIZ_CACHE_DIR")}
    env.update(SVMVIZ_CACHE_DIR=str(tmp_path / "base"), PYTHONPATH=ROOT)
    res = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr
    numba_env, unchanged, folder = res.stdout.split()
    assert numba_env == "None" and unchanged == "True"
    assert os.path.dirname(folder) == str(tmp_path / "base")
    assert os.path.basename(folder).startswith("svmviz-kernels-")
    written = [f for _, _, fs in os.walk(folder) for f in fs]
    assert any(f.endswith(".nbi") for f in written) and any(f.endswith(".nbc") for f in written)


def test_warmup_stamp_of_one_copy_does_not_mark_another_copy_compiled(tmp_path):
    """numba loads a cached function only for the source path and file times it was saved with: two
    copies of the same sources (a second checkout or environment, a reinstall with new file times)
    share svmviz's content-keyed cache folder, but each must compile once, so ``svmviz warmup``'s stamp
    of one must not stand for the other."""
    code = "from svmviz import _jit; print(_jit.cache_folder()); print(_jit.stamp_path())"
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "SVMVIZ_CACHE_DIR")}
    env.update(SVMVIZ_CACHE_DIR=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")

    def folder_and_stamp(copy):
        res = subprocess.run([sys.executable, "-c", code], env={**env, "PYTHONPATH": str(copy)}, cwd=tmp_path,
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        return tuple(res.stdout.split())

    for name in ("a", "b"):
        shutil.copytree(os.path.join(ROOT, "svmviz"), tmp_path / name / "svmviz",
                        ignore=shutil.ignore_patterns("__pycache__"))
    folder_a, stamp_a = folder_and_stamp(tmp_path / "a")
    folder_b, stamp_b = folder_and_stamp(tmp_path / "b")
    assert folder_a == folder_b and stamp_a != stamp_b

    gram = tmp_path / "b" / "svmviz" / "kernels" / "_gram.py"
    t = os.stat(gram).st_mtime + 60.0
    os.utime(gram, (t, t))  # the same contents, a new time: numba compiles again
    folder_touched, stamp_touched = folder_and_stamp(tmp_path / "b")
    assert folder_touched == folder_b and stamp_touched != stamp_b
