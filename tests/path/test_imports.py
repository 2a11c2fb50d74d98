"""The path page imports no scikit-learn.

``from svmviz.ui import path`` must not import scikit-learn (most of the page's import time:
scipy.stats, pandas, joblib) through svmviz._validation, svmviz.path (NuSVMPath's base classes,
ConvergenceWarning), svmviz.path._loo or svmviz.ivm (sigma_heuristic), none of which the page's path
needs; nor scipy.special, which only some data sets' generators and Bayes rules use (not banana, the
page's default). The library's contract stays: NuSVMPath is importable from svmviz.path under that
``__module__`` and pickles there; the warnings are scikit-learn's ConvergenceWarning.
"""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEAVY = ("sklearn", "scipy.stats", "pandas", "joblib", "scipy.special")


def _modules_after(code: str) -> dict:
    """Which of HEAVY a fresh interpreter has imported after running ``code``."""
    probe = code + f"\nimport sys, json\nprint(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_path_page_imports_no_scikit_learn():
    seen = _modules_after("import streamlit\nfrom svmviz.ui import frame\nfrom svmviz.ui import path")
    assert not any(seen.values()), seen


def test_the_path_module_imports_scikit_learn_only_for_its_estimator():
    seen = _modules_after("import svmviz.path\nimport svmviz.kernels\nimport svmviz.data")
    assert not any(seen.values()), seen
    seen = _modules_after("from svmviz.path import NuSVMPath")
    assert seen["sklearn"]


def test_nusvmpath_keeps_its_name_module_and_pickles():
    from sklearn.base import BaseEstimator, ClassifierMixin

    import svmviz
    import svmviz.path._estimator
    import svmviz.path
    from svmviz.path import NuSVMPath

    assert NuSVMPath is svmviz.path.NuSVMPath is svmviz.NuSVMPath is svmviz.path._estimator.NuSVMPath
    assert NuSVMPath.__module__ == "svmviz.path._estimator" and NuSVMPath.__qualname__ == "NuSVMPath"
    assert issubclass(NuSVMPath, ClassifierMixin) and issubclass(NuSVMPath, BaseEstimator)
    assert "NuSVMPath" in dir(svmviz.path)
    with pytest.raises(AttributeError, match="has no attribute 'NoSuchThing'"):
        svmviz.path.NoSuchThing  # noqa: B018
    assert pickle.loads(pickle.dumps(NuSVMPath)) is NuSVMPath
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=30) > 0, 1, 0)
    clf = NuSVMPath(nu=0.4).fit(X, y)
    back = pickle.loads(pickle.dumps(clf))
    assert type(back) is NuSVMPath and repr(back) == "NuSVMPath(nu=0.4)"
    np.testing.assert_array_equal(back.decision_function(X), clf.decision_function(X))


def test_an_incomplete_path_warns_with_scikit_learns_convergence_warning():
    from sklearn.exceptions import ConvergenceWarning

    from svmviz.path import nu_path

    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 1] > 0, 1.0, -1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p = nu_path(X, y, max_breakpoints=3)
    assert p.status == 1
    assert [w.category for w in caught] == [ConvergenceWarning]


def test_sigma_heuristic_is_one_function_in_kernels_also_imported_from_ivm():
    import svmviz
    import svmviz.ivm
    import svmviz.kernels

    assert svmviz.ivm.sigma_heuristic is svmviz.kernels.sigma_heuristic is svmviz.sigma_heuristic
    assert svmviz.kernels.sigma_heuristic.__module__ == "svmviz.kernels._gram"
    X = np.random.default_rng(2).normal(size=(50, 3))
    h = svmviz.kernels.sigma_heuristic(X)
    d = np.sqrt(((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))[np.triu_indices(50, 1)]
    assert type(h) is float and abs(h - np.median(d) / np.sqrt(2)) < 1e-12
