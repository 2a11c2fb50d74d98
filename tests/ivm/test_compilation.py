"""The IVM page's first compilation: the λ path compiles one Newton kernel (with the
next step's state) and the (B2*) scores, each with one signature; the greedy step's Φ and penalty
are numpy, the (B2) scores a Python loop over the same Newton kernel. The state the (B2*) scores
start from is that of a direct recomputation at the final θ."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from svmviz import data
from svmviz.ivm import _klr


_PROBE = """
import warnings, json
import numpy as np
from numba.core.registry import CPUDispatcher
from svmviz import data, ivm
from svmviz.ivm import _klr
ds = data.esl_mixture(n=80, seed=2)
ivm.ivm_lambda_path(ds.X, ds.y, ds.X, ds.y, lams=ivm.paper_lambdas(5), sigma=0.71)
ds3 = data.esl_mixture3(n=60, seed=2)
ivm.IVMClassifier(lam=0.5, sigma=0.71).fit(ds3.X, ds3.y)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    ivm.IVMClassifier(lam=0.5, sigma=0.71, method="full", max_import=3).fit(ds.X, ds.y)
print(json.dumps({n: len(o.signatures) for n, o in vars(_klr).items() if isinstance(o, CPUDispatcher)}))
"""


def test_one_signature_per_kernel_and_no_wrapper_kernels():
    # a process of its own: other tests may have called the kernels with other argument types
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=600,
                         cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    assert out.returncode == 0, out.stderr
    sigs = json.loads(out.stdout.strip().splitlines()[-1])
    # binary and 3-class paths, (B2*) and (B2): the Newton kernel and the scores, one signature each
    assert sigs["_newton_fit"] == 1 and sigs["_scores_onestep"] == 1, sigs
    assert all(v <= 1 for v in sigs.values()), sigs
    for name in ("_refit", "_scores_full", "_newton", "_build_phi", "_build_pen"):
        assert not isinstance(getattr(_klr, name), CPUDispatcher), name  # no kernel around a kernel


@pytest.mark.parametrize("icpt,multi", [(True, False), (False, False), (True, True)])
def test_refit_state_is_the_state_at_the_final_theta(icpt, multi):
    ds = data.esl_mixture3(n=60, seed=1) if multi else data.esl_mixture(n=60, seed=1)
    K = np.ascontiguousarray(np.exp(-((ds.X[:, None, :] - ds.X[None, :, :]) ** 2).sum(-1)))
    classes = np.unique(ds.y)
    Y = np.ascontiguousarray((ds.y[:, None] == classes[None, 1:]).astype(float))
    idx = np.array([3, 17, 40, 8], dtype=np.int64)
    theta = np.zeros((idx.size + icpt, Y.shape[1]))
    st, H, Phi, Pen, F, P, G, Lh, stc = _klr._refit(K, idx, icpt, 0.3, Y, theta, 1e-12, 100)
    assert st == _klr.OK and stc == 0
    np.testing.assert_array_equal(Phi, _klr._build_phi(K, idx, icpt))
    np.testing.assert_allclose(F, Phi @ theta, rtol=1e-13, atol=1e-13)
    th2 = np.zeros_like(theta)
    st2, H2, it2 = _klr._newton(Phi, Pen, Y, th2, 1e-12, 100)
    assert st2 == st and H2 == H  # the same Newton iterates, bitwise
    np.testing.assert_array_equal(th2, theta)
    P2 = np.empty_like(P)
    _klr._loss_probs(np.ascontiguousarray(Phi @ theta), Y, P2, _klr._UNWEIGHTED)
    np.testing.assert_allclose(P, P2, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(G, _klr._gradient(Phi, Pen, Y, P, theta), rtol=1e-12, atol=1e-12)
    Hs = _klr._hessian(Phi, Phi, Pen, P)
    np.testing.assert_allclose(Lh @ Lh.T, Hs, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(np.abs(G).max(), 0.0, atol=1e-6)  # converged: gradient ~ 0
    pen = np.zeros_like(Pen)
    pen[icpt:, icpt:] = 0.3 * K[np.ix_(idx, idx)]
    np.testing.assert_array_equal(Pen, pen)
