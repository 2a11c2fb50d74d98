"""svmviz._linalg's LU solve (KLR's Newton systems, written out to compile fast) against numpy, and
the Kernels page drawing its first charts (GACV, the decomposition) before exact LOO finishes."""
from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmviz import _linalg

from tests.apptest_utils import figure_titled


# --------------------------------------------------------------------------- _lu_solve (KLR's Newton systems)
@pytest.mark.parametrize("n", [1, 2, 7, 60])
@pytest.mark.parametrize("seed", [0, 1])
def test_lu_solve_equals_numpy_on_nonsymmetric_systems(n, seed):
    rng = np.random.default_rng(seed)
    # the shape of _klr_full's system: W K + λ I with W a positive diagonal — not symmetric
    X = rng.normal(size=(n, 2))
    K = np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    A = rng.uniform(0.05, 0.25, size=n)[:, None] * K + 1e-3 * np.eye(n)
    b = rng.normal(size=n)
    ref = np.linalg.solve(A, b)
    x, st = _linalg._lu_solve(A.copy(), b)
    assert st == 0
    np.testing.assert_allclose(x, ref, rtol=1e-8, atol=1e-10 * np.abs(ref).max())


def test_lu_solve_pivots_and_leaves_b_alone():
    A = np.array([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]])  # a zero first pivot: a row swap
    b = np.array([1.0, 2.0, 3.0])
    x, st = _linalg._lu_solve(A.copy(), b)
    assert st == 0
    np.testing.assert_allclose(A @ x, b, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(b, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("A", [np.array([[1.0, 2.0], [2.0, 4.0]]),          # singular
                               np.array([[np.nan, 0.0], [0.0, 1.0]]),        # not finite
                               np.zeros((3, 3))])
def test_lu_solve_reports_a_singular_or_nonfinite_system(A):
    _, st = _linalg._lu_solve(A.copy(), np.ones(A.shape[0]))
    assert st == 3  # = _klr.NUMERICAL


# --------------------------------------------------------------------------- Kernels page: first chart before LOO
def test_kernels_page_draws_gacv_and_the_decomposition_while_exact_loo_waits(monkeypatch):
    """Exact LOO is its own step after the fits: when it is not run (here: its estimate is made long, so
    the page asks first), the criteria chart without LOO and the decomposition at GACV's λ are there.
    (The long estimate is set by monkeypatch, undone after the test: set in the script, it stayed for
    every later test of the process and the Kernels page's own test found no LOO panel.)"""
    from svmviz.ui import anova as anova_page

    monkeypatch.setattr(anova_page, "_LOO_SECONDS_AT_200", 1e6)
    at = AppTest.from_string("from svmviz.ui import anova\nanova.page()\n", default_timeout=180)
    at.query_params["n"] = "60"
    at.run()
    assert not at.exception, at.exception
    fig = figure_titled(at, "Tuning criteria along λ")
    panels = [a["text"] for a in fig["layout"]["annotations"]]
    assert any(p.startswith("GACV") for p in panels)
    assert not any("leave-one-out" in p for p in panels)  # not computed: no LOO panel
    figure_titled(at, "Importance by variable")  # the decomposition, at GACV's λ
    assert any(b.label.startswith("Run") for b in at.button), [b.label for b in at.button]
    assert any("GACV's choice" in str(o) for r in at.radio for o in r.options)
