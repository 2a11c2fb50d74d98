"""The λ sequence's two refinements of the warm start (``_smo._sequence_kernel``): with no α at its
bound the previous solution carries over to the next λ exactly (the hard-margin regime), and a solve
SMO has not settled in ``SEQUENCE_PIVOTS_AFTER_ITER`` iterations goes on by active-set pivots. Both
are checked against independent libsvm fits at every grid point and against the stopping rule on
random problems."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hst
from sklearn.datasets import make_classification
from sklearn.svm import SVC

from svmviz.data import make_dataset
from svmviz.kernels import rbf_from_squared_distances, squared_distances
from svmviz.svm import _smo, fit_lambda_sequence, fit_sigma_lambda_grid
from tests.svm.test_grid_engine import _max_violation

N = 150
CS = np.logspace(-1, 3, 6)
GAMMAS = np.array([0.01, 0.1, 3.0])  # a wide Gaussian (ill-conditioned at large C) … a narrow one (separable)
TOL = 1e-3


def _grid(X, y):
    return fit_sigma_lambda_grid(X, y, 1.0 / (2.0 * N * CS), 1.0 / np.sqrt(2.0 * GAMMAS), tol=TOL, n_threads=1)


def _assert_libsvm_decisions(X, y, grid):
    """Training decision values of SVC(C, γ) at every grid point, within what two solvers stopping at
    the same KKT tolerance can differ by (bench_grid.py reports the same measure: ≤ 1e-2 of max |f|)."""
    for q, g in enumerate(GAMMAS):
        for k, C in enumerate(CS):
            ref = SVC(C=C, gamma=g, tol=TOL).fit(X, y).decision_function(X)
            assert np.abs(grid.f[q, k] - ref).max() / np.abs(ref).max() < 1e-2, (g, C)


def test_separable_sequence_carries_the_hard_margin_solution_over_without_iterations():
    X, y = make_classification(N, 6, n_informative=4, n_redundant=0, random_state=0)
    grid = _grid(X, y)
    q = 2  # γ = 3: separable; from some C on no α is at its bound and s·α is the hard-margin solution
    free = [k for k in range(1, CS.size) if np.all(grid.alphas[q, k - 1] < 1.0)]
    assert len(free) >= 2
    for k in free:
        assert grid.n_iter[q, k] == 0
        np.testing.assert_allclose(CS[k] * grid.alphas[q, k], CS[k - 1] * grid.alphas[q, k - 1], rtol=1e-12)
        np.testing.assert_allclose(grid.f[q, k], grid.f[q, k - 1], rtol=1e-12, atol=1e-12)
    _assert_libsvm_decisions(X, y, grid)


def test_a_solve_smo_does_not_settle_is_finished_by_pivots():
    """γ = 0.01, C = 1000: SMO alone needs several times SEQUENCE_PIVOTS_AFTER_ITER iterations here;
    after that many the pivots reach the optimum and SMO's check finds (nearly) nothing left to do."""
    X, y = make_classification(N, 6, n_informative=4, n_redundant=0, random_state=0)
    grid = _grid(X, y)
    budget = _smo.SEQUENCE_PIVOTS_AFTER_ITER
    K = rbf_from_squared_distances(squared_distances(X), 1.0 / np.sqrt(2.0 * GAMMAS[0]))
    y_pm = np.where(y > 0, 1.0, -1.0)
    alone = _smo.solve_dual(K, y_pm, CS[-1], -np.ones(N), np.ones(N), grid.alphas[0, -2], TOL, 10**7, False)[3]
    assert alone > 2 * budget
    assert budget <= grid.n_iter[0, -1] < budget + 100
    assert np.all(grid.status == 0)
    a = grid.alphas[0, -1]
    assert np.all((a >= 0) & (a <= 1)) and abs(y_pm @ a) <= 1e-9 * max(1.0, a.sum())
    assert _max_violation(K, y_pm, 1.0 / (2.0 * N * CS[-1]), a, np.ones(N)) < TOL + 1e-9
    _assert_libsvm_decisions(X, y, grid)


def test_wahba_grid_matches_libsvm_at_every_point():
    ds = make_dataset("wahba2001", n=N, seed=1)
    grid = _grid(ds.X, ds.y)
    assert np.all(grid.status == 0)
    _assert_libsvm_decisions(ds.X, ds.y, grid)


@given(seed=hst.integers(0, 10_000), n=hst.integers(12, 60), d=hst.integers(1, 4),
       log_sigma=hst.floats(-1.0, 1.0), log_lam_min=hst.floats(-6.0, -3.0), shrinking=hst.booleans())
@settings(max_examples=40, deadline=None)
def test_every_solution_of_a_sequence_meets_the_stopping_rule(seed, n, d, log_sigma, log_lam_min, shrinking):
    """Random problems, λ down to 10⁻⁶ (C up to 10⁶/(2n)): box, y'α = 0 and the maximal violating pair
    under the tolerance at every λ, whichever warm start each solve took."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[:2] = (-1.0, 1.0)
    K = rbf_from_squared_distances(squared_distances(X), 10.0**log_sigma)
    lams = np.logspace(log_lam_min, -0.5, 10)
    seq = fit_lambda_sequence(K, y, lams, tol=TOL, shrinking=shrinking)
    assert np.all(seq.status == 0)
    C = np.ones(n)
    for k, lam in enumerate(lams):
        a = seq.alphas[k]
        assert np.all((a >= 0) & (a <= C)) and abs(y @ a) <= 1e-9 * max(1.0, a.sum())
        assert _max_violation(K, y, lam, a, C) < TOL + 1e-9
