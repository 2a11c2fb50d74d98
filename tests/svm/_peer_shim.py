"""pytest plugin: scikit-learn's own SVC tests with ``sklearn.svm.SVC`` replaced by SVMClassifier.

Loaded by ``tests/svm/test_sklearn_peer_suite.py`` in a subprocess (``-p tests.svm._peer_shim``)
that runs the installed scikit-learn's ``sklearn/svm/tests/test_svm.py``. Loading it as a plugin replaces
``sklearn.svm.SVC`` — before that test module is imported, so its parametrize lists see the
replacement too — by :func:`SVC`, which takes SVC's parameters with SVC's defaults and returns an
``SVMClassifier``. Collection keeps the tests of SVC: those that name ``svm.SVC`` in their code, or
whose parameter is SVC, and not those whose parameter is another estimator (NuSVC, SVR, …). Each
test's outcome is written as JSON to the file named by ``SVMVIZ_PEER_RESULTS``.
"""
from __future__ import annotations

import inspect
import json
import os
import re

import sklearn.svm

from svmviz.svm import DEFAULT_MAX_ITER, SVMClassifier

_OTHERS = tuple(getattr(sklearn.svm, name) for name in ("LinearSVC", "LinearSVR", "NuSVC", "NuSVR", "OneClassSVM",
                                                         "SVR"))


def SVC(C=1.0, kernel="rbf", degree=3, gamma="scale", coef0=0.0, shrinking=True, probability=False, tol=1e-3,
        cache_size=200, class_weight=None, verbose=False, max_iter=-1, decision_function_shape="ovr",
        break_ties=False, random_state=None):
    """``SVC(...)`` as SVMClassifier: SVC's defaults (C = 1, gamma = "scale", coef0 = 0); the
    parameters a kernel does not read (which SVMClassifier refuses) are passed only to the kernels
    that read them; ``cache_size`` and ``verbose`` (libsvm's cache and log) have no counterpart."""
    poly = isinstance(kernel, str) and kernel == "poly"
    reads_gamma = isinstance(kernel, str) and kernel in ("rbf", "poly")
    return SVMClassifier(C=C, kernel=kernel, degree=degree if poly else None, gamma=gamma if reads_gamma else None,
                         coef0=coef0 if poly else None, shrinking=shrinking, probability=probability, tol=tol,
                         class_weight=class_weight, max_iter=DEFAULT_MAX_ITER if max_iter == -1 else max_iter,
                         decision_function_shape=decision_function_shape, break_ties=break_ties,
                         random_state=random_state)



def pytest_configure(config):
    """Loaded as a plugin (``-p``): the replacement happens before collection imports the SVC tests.
    Imported any other way (the suite's doctest collection reads every module of tests/), it patches
    nothing."""
    sklearn.svm.SVC = SVC


def _is_svc_test(item) -> bool:
    params = list(getattr(getattr(item, "callspec", None), "params", {}).values())
    if any(v is SVC or isinstance(v, SVMClassifier) for v in params):
        return True
    if any((isinstance(v, type) and issubclass(v, _OTHERS)) or isinstance(v, _OTHERS) for v in params):
        return False
    return re.search(r"\bsvm\.SVC\b", inspect.getsource(item.function)) is not None


def pytest_collection_modifyitems(config, items):
    keep = [item for item in items if _is_svc_test(item)]
    config.hook.pytest_deselected(items=[item for item in items if item not in keep])
    items[:] = keep


_OUTCOMES: dict[str, str] = {}


def pytest_runtest_logreport(report):
    name = report.nodeid.split("::", 1)[-1]
    if report.failed:
        _OUTCOMES[name] = "failed"
    elif report.skipped:
        _OUTCOMES.setdefault(name, "skipped")
    elif report.when == "call":
        _OUTCOMES.setdefault(name, "passed")


def pytest_sessionfinish(session):
    path = os.environ.get("SVMVIZ_PEER_RESULTS")
    if path:
        with open(path, "w") as fh:
            json.dump(_OUTCOMES, fh, indent=1, sort_keys=True)
