"""Two of the λ sequence's refinements of the warm start (``_smo._sequence_kernel``; the extrapolated
start: test_grid_secant_start.py): with no α at its
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


def _compacting_and_whole(K, y, s, C):
    """(α, G, iterations, status) of the compacting solve and of SMO on the whole set, both from α = 0."""
    n = y.size
    p = -np.ones(n)
    out = []
    for solve in (_smo._solve_compacting, _smo._solve_whole):
        a, G = np.zeros(n), p.copy()
        it, st = solve(K, y, s, p, C, a, G, TOL, 10**7)
        out.append((a, G, it, st))
    return out


def _violation(K, y, s, C, a):
    """Gmax + Gmax2 of libsvm's stopping rule from α and the exact gradient."""
    G = s * y * (K @ (y * a)) - 1.0
    up = np.where(y > 0, a < C, a > 0)
    low = np.where(y > 0, a > 0, a < C)
    return np.max(-y[up] * G[up]) + np.max(y[low] * G[low])


def test_compacting_solve_sets_points_aside_and_meets_the_whole_stopping_rule():
    """Wahba data at a small λ: hundreds of iterations, many points at 0 or at their bound, so the
    compacted copy is made; the solution meets the
    whole problem's stopping rule with the gradient exact, and its decision values are those of SMO
    on the whole set within what two solutions at the same tolerance differ by."""
    ds = make_dataset("wahba2001", n=300, seed=2)
    y = ds.y.astype(float)
    K = rbf_from_squared_distances(squared_distances(ds.X), 0.5)
    n, s = y.size, 1.0 / (2.0 * 300 * 1e-4)
    C = np.ones(n)
    (a, G, it, st), (aw, Gw, itw, stw) = _compacting_and_whole(K, y, s, C)
    assert st == 0 and stw == 0 and it > _smo.COMPACT_AFTER_ITER
    # the compacted copy was made: the gradient of the points set aside is recomputed at the end,
    # not updated at each step (SMO on the whole set would leave every bit as it is here otherwise)
    assert not np.array_equal(G, Gw)
    np.testing.assert_allclose(G, s * y * (K @ (y * a)) - 1.0, atol=1e-9 * s)
    assert np.all((a >= 0) & (a <= C)) and abs(y @ a) <= 1e-9 * n
    assert _violation(K, y, s, C, a) < TOL + 1e-9
    f = y * (G + 1.0) + _smo._intercept(y, C, a, G)
    fw = y * (Gw + 1.0) + _smo._intercept(y, C, aw, Gw)
    assert np.abs(f - fw).max() / np.abs(fw).max() < 1e-2


@given(seed=hst.integers(0, 10_000), n=hst.integers(30, 160), log_sigma=hst.floats(-1.0, 1.0),
       log_lam=hst.floats(-6.0, -1.0), weighted=hst.booleans())
@settings(max_examples=40, deadline=None)
def test_compacting_solve_meets_the_stopping_rule_on_random_problems(seed, n, log_sigma, log_lam, weighted):
    """KKT on random problems (weighted boxes too): box, y'α = 0, the exact gradient and the maximal
    violating pair under the tolerance, whether or not points were set aside."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[:2] = (-1.0, 1.0)
    K = rbf_from_squared_distances(squared_distances(X), 10.0**log_sigma)
    s = 1.0 / (2.0 * n * 10.0**log_lam)
    C = np.where(y > 0, 1.5, 0.5) if weighted else np.ones(n)
    (a, G, it, st), _ = _compacting_and_whole(K, y, s, C)
    assert st == 0
    assert np.all((a >= 0) & (a <= C)) and abs(y @ a) <= 1e-9 * max(1.0, a.sum())
    np.testing.assert_allclose(G, s * y * (K @ (y * a)) - 1.0, atol=1e-8 * max(s, 1.0))
    assert _violation(K, y, s, C, a) < TOL + 1e-9


def test_pivots_keep_the_equality_on_an_ill_conditioned_gram():
    """One feature, a wide Gaussian and λ = 10⁻⁶: the smallest λ's solve goes to the active-set pivots
    with a free set whose KKT system is ill-conditioned; every step still keeps y'α = 0 to rounding
    (found by the random problems above)."""
    rng = np.random.default_rng(51)
    n = 51
    X = rng.normal(size=(n, 1))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[:2] = (-1.0, 1.0)
    K = rbf_from_squared_distances(squared_distances(X), 10.0**0.3359375)
    lams = np.logspace(-6.0, -0.5, 10)
    seq = fit_lambda_sequence(K, y, lams, tol=TOL, shrinking=False)
    assert np.all(seq.status == 0) and seq.n_iter[0] >= _smo.SEQUENCE_PIVOTS_AFTER_ITER
    for k, lam in enumerate(lams):
        a = seq.alphas[k]
        assert abs(y @ a) <= 1e-12 * max(1.0, a.sum())
        assert _max_violation(K, y, lam, a, np.ones(n)) < TOL + 1e-9
