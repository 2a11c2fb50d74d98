"""Every svmviz estimator passes scikit-learn's estimator checks (``check_estimator``).

Run through scikit-learn's own ``parametrize_with_checks``: one test per (estimator, check). No check
is marked as an expected failure. One check, ``check_array_api_input``, is skipped by scikit-learn
itself unless the environment variable ``SCIPY_ARRAY_API=1`` is set before SciPy is first imported
(which a test session cannot arrange after other modules imported SciPy);
:func:`test_array_api_check_runs_in_a_fresh_interpreter` runs it in a subprocess with the variable
set, so no check goes unrun.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from sklearn.utils.estimator_checks import parametrize_with_checks

from svmviz.ivm import IVMClassifier, KernelLogisticRegression
from svmviz.path import NuSVMPath
from svmviz.svm import SVMClassifier
from svmviz.usvc import IRWLSClassifier

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# one instance per code path: IRWLS has the linear machine, the USVC stage and the kernel
# (prototype) machine; NuSVMPath chooses ν by LOO ("auto") or takes it given. The SMO runs at a KKT
# tolerance of 1e-9: check_sample_weight_equivalence_on_dense_data compares a weighted fit with the
# fit to repeated rows at rtol 1e-7, and two SMO runs agree to their stopping tolerance (4e-4 at
# the default 1e-3, 4e-7 at 1e-6, exact at 1e-9).
#
# IRWLS at a_max = 1e6: the same check on the checks' data (15 points in 30 dimensions, every point on
# the margin) meets weighted solves whose weights sit at the cap a_max; their condition number grows
# with it and each fit is accurate to its rounding floor, ~1e-6 at the default 1e8 (both the weighted
# and the repeated-rows fit differ from libsvm's by ~1e-6 there), 2e-8 at 1e6.
ESTIMATORS = [
    SVMClassifier(tol=1e-9),
    IRWLSClassifier(a_max=1e6),
    IRWLSClassifier(loss="smooth_step", a_max=1e6),
    IRWLSClassifier(kernel="rbf", n_prototypes=8),
    NuSVMPath(),
    NuSVMPath(nu=0.2),  # feasible (ν ≤ 2·min(n₊, n₋)/m) on the weighted data of the sample-weight checks
    KernelLogisticRegression(),
    IVMClassifier(),
]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_array_api_check_runs_in_a_fresh_interpreter():
    code = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {ROOT!r})
        from sklearn.utils.estimator_checks import check_estimator
        from tests.test_estimator_checks import ESTIMATORS
        bad = []
        ran = 0
        for est in ESTIMATORS:
            for r in check_estimator(est, on_fail=None, on_skip=None):
                if r["check_name"] == "check_array_api_input":
                    ran += 1
                    if r["status"] != "passed":
                        bad.append((repr(est), r["status"], repr(r["exception"])))
        print(ran, bad)
        assert ran == len(ESTIMATORS) and not bad, bad
    """)
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-4000:]
