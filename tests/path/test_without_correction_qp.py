"""The ν-path follower without its correction QP compiled in.

The Simple-ν-SVM correction (``_nu_path.asqp.nu_qp_from``) runs only where the KKT check finds the
path left — on none of the page's data sets (n = 200, 500) — so the follower's kernel pauses there,
``follow_path`` runs the correction on the paused state and the kernel resumes. Checked: a fresh
process compiling the follower on an empty numba cache does not compile the correction (a part of
the path page's first compilation it would rarely use); paths that need corrections (a tolerance far
below rounding forces them) still take them, and every breakpoint of such a path satisfies the
optimality conditions, checked independently (tests/naive/path.py).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import pytest

from svmviz import data as D
from svmviz.path import _solver as _nu_path
from svmviz.kernels import gram
from svmviz.path import nu_path

from tests.naive.path import feasibility_error, kkt_gap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_FRESH = r"""
import json, sys
from numba.core import event
names = []
class L(event.Listener):
    def on_start(self, ev):
        names.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
event.register("numba:compile", L())
from svmviz.data import banana
from svmviz.path import nu_path
from svmviz.path._solver import asqp, follower
ds = banana(n=60, seed=0)
p = nu_path(ds.X, ds.y, sigma=1.0)
print(json.dumps({"compiled": names, "n_corrections": int(p.n_corrections), "status": int(p.status),
                  "qp_signatures": len(asqp.nu_qp_from.signatures),
                  "check_signatures": len(follower._correction_ok.signatures)}))
"""


def test_the_follower_does_not_compile_the_correction_qp():
    """An empty numba cache, the page's default path (no correction needed): the follower and what it
    calls are compiled, the correction QP and its check are not (fails before: nu_qp_from was
    compiled into the follower)."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": ROOT}
        out = subprocess.run([sys.executable, "-c", _FRESH], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["status"] == 0 and res["n_corrections"] == 0
    assert "_follow" in res["compiled"] and "asqp" in res["compiled"]  # really compiled here, not loaded
    assert "nu_qp_from" not in res["compiled"] and "_correction_ok" not in res["compiled"], res["compiled"]
    assert res["qp_signatures"] == 0 and res["check_signatures"] == 0


def _problem(name, n, seed, sigma):
    ds = D.GENERATORS[name](n=n, seed=seed)
    y = np.where(ds.y == np.unique(ds.y)[1], 1.0, -1.0)
    return ds.X, y, np.ascontiguousarray(gram(ds.X, kernel="rbf", sigma=sigma))


# the breakpoints whose KKT check fails at a tol below rounding depend on the gram matrix's last bits,
# which depend on the CPU (numpy's exp is its own AVX-512 code where the CPU has AVX-512, the C library's
# elsewhere; the BLAS kernel too): at 1e-18 one such breakpoint on one machine, two on another
@pytest.mark.parametrize("tol", [1e-18])
def test_a_path_that_needs_corrections_takes_them_and_stays_optimal(tol):
    """tol far below rounding makes the KKT check fail at some breakpoints (esl_mixture, n = 120):
    the follower pauses, the correction runs, the follower resumes — every breakpoint of the path is
    feasible and optimal (independent certificate on α alone), and its decision values equal those
    of the path at the default tolerance (no correction) to rounding."""
    X, y, K = _problem("esl_mixture", 120, 2, 0.71)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a complete path: no ConvergenceWarning
        p = nu_path(X, y, sigma=0.71, tol=tol)
        ref = nu_path(X, y, sigma=0.71)
    assert p.status == _nu_path.STATUS_OK and ref.n_corrections == 0
    assert p.n_corrections >= 1
    scale = np.max(np.abs(K)) / K.shape[0]
    for lam, a in zip(p.lambdas, p.alphas):
        assert feasibility_error(y, a, lam) <= 1e-9 * max(1.0, lam)
        assert kkt_gap(K, y, a, K.shape[0]) <= 1e-7 * scale * max(1.0, lam)
    lams = np.linspace(0.05, 0.95, 19) * p.lambda_max
    f, f_ref = p.decision_path(X, lams), ref.decision_path(X, lams)
    assert np.max(np.abs(f - f_ref)) <= 1e-7 * np.max(np.abs(f_ref))


def test_a_correction_that_fails_loses_the_path_with_its_reason():
    """esl_mixture n = 200 at tol 1e-16: the correction cannot restore the KKT conditions at the
    required accuracy — the path is lost there, saying so (LOST_CORRECTION), with the breakpoints
    before it."""
    X, y, K = _problem("esl_mixture", 200, 0, 0.71)
    lam, alphas, thr, status, ncorr, viol, ndep, reason = _nu_path.follow_path(K, y, 10100, 1e-16, 10, 2100)
    assert status == _nu_path.STATUS_LOST and reason == _nu_path.config.LOST_CORRECTION and ncorr == 1
    assert lam.shape == (alphas.shape[0],) and thr.shape == (lam.size, 2) and lam.size >= 2
    assert all(isinstance(v, int) for v in (status, ncorr, ndep, reason)) and isinstance(viol, float)


def test_breakpoint_ticks_are_one_line_of_segments_not_a_marker_each():
    """The coefficient chart's breakpoint ticks are one line trace of vertical segments (each
    breakpoint's x twice, NaN between ticks), not one SVG marker node per breakpoint (hundreds at the
    default view, redrawn at every rerun; ``bench/bench_warm_breakdown.py`` counts the chart's DOM)."""
    from svmviz.figures import path as figs

    ds = D.GENERATORS["banana"](n=120, seed=0)
    p = nu_path(ds.X, ds.y, sigma=1.0)
    cp = figs.compute_coef_paths(p, x_axis="lambda", max_points=400)
    fig = figs.plot_coef_paths(cp, cursor=1.0, X=p.X)
    ticks = [t for t in fig.data if t.name.startswith("breakpoints")]
    assert len(ticks) == 1 and ticks[0].mode == "lines" and ticks[0].marker.symbol is None
    x, y = np.asarray(ticks[0].x, dtype=float), np.asarray(ticks[0].y, dtype=float)
    nb = cp.breakpoints.size
    assert ticks[0].name == f"breakpoints ({nb})" and x.size == y.size == 3 * nb
    assert np.all(np.isnan(x[2::3])) and np.all(np.isnan(y[2::3]))
    np.testing.assert_array_equal(x[0::3], cp.breakpoints)
    np.testing.assert_array_equal(x[1::3], cp.breakpoints)
    assert np.all(y[0::3] < y[1::3]) and np.all(y[1::3] < -1.0)  # below every line (α y ≥ −1)
