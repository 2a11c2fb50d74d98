"""scikit-learn's own SVC tests, run against SVMClassifier.

The installed scikit-learn's ``sklearn/svm/tests/test_svm.py`` (found through ``sklearn.__file__``,
never copied) runs in a subprocess with the plugin ``tests/svm/_peer_shim.py``, which puts
SVMClassifier (with SVC's defaults) in the place of ``sklearn.svm.SVC`` and keeps the tests of SVC.
Every one of them passes, or is listed in :data:`DIFFERENCES` with the reason; a listed test that
passes fails this check too, so the list stays exact.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import sklearn

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(os.path.dirname(sklearn.__file__), "svm", "tests", "test_svm.py")

#: test of scikit-learn's test_svm.py → why SVMClassifier differs there
DIFFERENCES = {
    "test_tweak_params": "writes libsvm's private _dual_coef_",
    "test_gamma_scale": "reads libsvm's private _gamma (SVMClassifier's is sigma_ = 1/√(2γ))",
    "test_svc_raises_error_internal_representation": "writes libsvm's private _n_support",
    "test_custom_kernel_not_array_input[SVC]": "X of strings for a callable kernel: SVMClassifier takes numeric X only",
    "test_libsvm_convergence_warnings[42]": "matches libsvm's own warning text (SVMClassifier's ConvergenceWarning "
                                            "names the SMO's max_iter)",
    "test_unfitted": "the NotFittedError names SVMClassifier, not SVC",
    "test_svc_nonfinite_params[42]": "X near the largest float: refused before the solve (Var(X) of gamma='scale' "
                                     "overflows), with another message",
    "test_bad_input[42-lil_matrix]": "predicts from a sparse X after a dense fit (made dense) where libsvm needs the "
                                     "fit's format",
    "test_bad_input[42-lil_array]": "the same, lil_array",
    "test_sparse_precomputed[csr_matrix]": "a sparse precomputed gram is made dense where libsvm refuses it",
    "test_sparse_precomputed[csr_array]": "the same, csr_array",
    "test_svm_classifier_sided_sample_weight[estimator0]": "sets kernel='linear' on an estimator made with "
                                                           "gamma='scale': SVMClassifier refuses a gamma its kernel "
                                                           "ignores",
    "test_probability_raises_futurewarning[True-SVC-SVC]": "scikit-learn 1.9 deprecates probability=; "
                                                           "SVMClassifier keeps it",
    "test_probability_raises_futurewarning[False-SVC-SVC]": "the same",
    "test_svc_nusvc_probA_probB_deprecated[SVC]": "scikit-learn 1.9 deprecates probA_/probB_; SVMClassifier keeps them",
    "test_svm_equivalence_sample_weight_C": "SVMClassifier()'s default is Wahba's λ = 0.001, not C = 1: the test's two "
                                            "fits solve two problems with one optimum (no α at a bound), each "
                                            "stopped by tol = 1e-3 at its own point; their dual coefficients "
                                            "agree to 2e-3, not 1e-7 (to 1e-9 at tol = 1e-9)",
}


def test_sklearn_svc_tests_pass_or_are_listed(tmp_path):
    out = tmp_path / "outcomes.json"
    env = dict(os.environ, SVMVIZ_PEER_RESULTS=str(out), PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "tests.svm._peer_shim", "-p", "no:cacheprovider",
                          "--rootdir", ROOT, "-W", "ignore::DeprecationWarning", PEER],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert out.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    outcomes = json.loads(out.read_text())
    passed = sorted(name for name, o in outcomes.items() if o == "passed")
    failed = sorted(name for name, o in outcomes.items() if o != "passed")
    print(f"scikit-learn {sklearn.__version__}: {len(passed)} of {len(outcomes)} SVC tests pass with SVMClassifier")
    assert len(outcomes) >= 40, run.stdout[-3000:]  # the SVC tests were found and run
    unexplained = [name for name in failed if name not in DIFFERENCES]
    assert not unexplained, (unexplained, run.stdout[-6000:])
    stale = [name for name in DIFFERENCES if name in passed or name not in outcomes]
    assert not stale, f"listed in DIFFERENCES but passing or not run: {stale}"
