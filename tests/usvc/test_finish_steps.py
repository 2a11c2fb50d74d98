"""The pieces of the exact finish of the hinge IRWLS stage against written-out references
(tests/naive/usvc.py): the weighted system of one IRWLS step (Navia-Vázquez et al. 2004, eqs. 20 and
25) and the exact line search of the finish's Newton steps on its piecewise-quadratic objective."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hst

from svmviz.usvc import _irwls
from tests.naive.usvc import finish_objective_naive, line_min_naive, line_slope_naive, wls_system_naive


@settings(max_examples=30, deadline=None)
@given(seed=hst.integers(0, 10_000), n=hst.integers(1, 60), p=hst.integers(1, 5),
       zeros=hst.floats(0.0, 1.0))
def test_weighted_system_equals_the_written_out_normal_equations(seed, n, p, zeros):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.where(rng.normal(size=n) > 0, 1.0, -1.0)
    a = np.where(rng.random(n) < zeros, 0.0, 10.0 ** rng.uniform(-3, 8, n))  # caps up to a_max = 1e8
    B = rng.normal(size=(p, p))
    G = B @ B.T + np.eye(p)
    M, r = _irwls._wls_system(X, G, y, a)
    M_ref, r_ref = wls_system_naive(X, G, y, a)
    np.testing.assert_array_equal(M, M.T)
    scale = np.abs(np.hstack([X, np.ones((n, 1))])).T ** 2 @ a + np.abs(M_ref).max()
    assert np.all(np.abs(M - M_ref) <= 1e-13 * scale)
    np.testing.assert_allclose(r, r_ref, rtol=0, atol=1e-13 * (np.abs(np.hstack([X, np.ones((n, 1))])).T @ a).max())


def line_problem(seed, n, p):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.where(rng.normal(size=n) > 0, 1.0, -1.0)
    cw = rng.integers(0, 3, n).astype(float)
    bound, cap = 10.0 ** rng.uniform(-2, 1) * cw, 10.0 ** rng.uniform(0, 8) * cw
    beta, dbeta = rng.normal(size=p), rng.normal(size=p)
    b, db = rng.normal(), rng.normal()
    if seed % 3 == 0:  # point 0 starts exactly on the margin (a kink at t = 0)
        b = y[0] - float(X[0] @ beta)
    return X, y, np.eye(p), bound, cap, beta, b, dbeta, db


@settings(max_examples=40, deadline=None)
@given(seed=hst.integers(0, 10_000), n=hst.integers(2, 200), p=hst.integers(1, 4))
def test_line_search_is_the_exact_minimiser_along_the_line(seed, n, p):
    # up to 400 kinks: the bracket is halved at the median kink until LINE_WALK remain
    X, y, G, bound, cap, beta, b, dbeta, db = line_problem(seed, n, p)
    t = _irwls._line_min(X, G, y, bound, cap, beta, b, dbeta, db)
    t_ref = line_min_naive(X, y, G, bound, cap, beta, b, dbeta, db)
    assert t >= 0.0
    phi = finish_objective_naive(X, y, G, bound, cap, beta + t * dbeta, b + t * db)
    phi_ref = finish_objective_naive(X, y, G, bound, cap, beta + t_ref * dbeta, b + t_ref * db)
    assert phi <= phi_ref + 1e-12 * max(1.0, abs(phi_ref))
    # the derivative vanishes there (it is continuous in t), to the rounding of its terms along the
    # walk from t = 0; t itself is only as well determined as the derivative's cancellation allows
    slope, size = line_slope_naive(X, y, G, bound, cap, beta, b, dbeta, db, t)
    slope0, size0 = line_slope_naive(X, y, G, bound, cap, beta, b, dbeta, db, 0.0)
    # the walk adds slope·Δt over each piece: its rounding grows with t times the curvature of the
    # bands it crosses (a_i dξ_i² each, up to 1e8 here)
    dxi = -y * (X @ dbeta + db)
    xi0 = 1.0 - y * (X @ beta + b)
    crossed = (cap > 0) & (np.minimum(xi0, xi0 + t * dxi) <= bound / np.where(cap > 0, cap, 1.0)) \
        & (np.maximum(xi0, xi0 + t * dxi) >= 0.0)
    walk = t * (float(dbeta @ G @ dbeta) + np.sum(cap[crossed] * dxi[crossed] ** 2))
    assert abs(slope) <= 1e-10 * (size + size0) + 1e-13 * walk or (t == 0.0 and slope >= 0.0)


def test_finish_objective_equals_the_written_out_one():
    X, y, G, bound, cap, beta, b, _, _ = line_problem(4, 150, 3)
    np.testing.assert_allclose(_irwls._finish_objective(X, G, y, bound, cap, beta, b),
                               finish_objective_naive(X, y, G, bound, cap, beta, b), rtol=1e-13)


@settings(max_examples=30, deadline=None)
@given(seed=hst.integers(0, 10_000), n=hst.integers(1, 60), p=hst.integers(1, 6), zeros=hst.floats(0.0, 0.9))
def test_weighted_solve_meets_its_system_to_rounding(seed, n, p, zeros):
    # the solve of one IRWLS step (eqs. 20 and 25): a backward error of rounding, a forward error within
    # cond(M)·eps of the reference solution, and a rounding estimate of that size
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.where(rng.normal(size=n) > 0, 1.0, -1.0)
    a = np.where(rng.random(n) < zeros, 0.0, 10.0 ** rng.uniform(-3, 8, n))
    a[0] = max(a[0], 1.0)
    B = rng.normal(size=(p, p))
    G = B @ B.T + np.eye(p)
    M, r = wls_system_naive(X, G, y, a)
    beta, err = np.empty(p), np.zeros(1)
    b = _irwls._solve_wls(X, G, y, a, beta, err)
    x = np.r_[beta, b]
    eps = np.finfo(float).eps
    assert np.linalg.norm(r - M @ x) <= 100 * (p + 1) * eps * (np.linalg.norm(M) * np.linalg.norm(x) + np.linalg.norm(r))
    x_ref = np.linalg.solve(M, r)
    assert np.linalg.norm(x - x_ref) <= 100 * np.linalg.cond(M) * eps * max(np.linalg.norm(x_ref), 1e-300)
    assert 0.0 <= err[0] <= max(1e-6, 100 * np.linalg.cond(M) * eps)


def test_weighted_solve_of_an_indefinite_or_singular_system():
    beta, err = np.empty(2), np.zeros(1)
    # indefinite: the solution
    M = np.array([[1.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 3.0]])
    r = np.array([1.0, -1.0, 2.0])
    b = _irwls._solve_wls_system(M.copy(), r.copy(), 2, beta, err)
    np.testing.assert_allclose(np.r_[beta, b], np.linalg.solve(M, r), rtol=1e-14)
    assert err[0] < 1e-14
    # exactly singular (a duplicated feature whose ridge term is lost): the minimum-norm least-squares solution
    M = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 2.0]])
    r = np.array([2.0, 2.0, 1.0])
    b = _irwls._solve_wls_system(M.copy(), r.copy(), 2, beta, err)
    np.testing.assert_allclose(np.r_[beta, b], [1.0, 1.0, 0.5], rtol=1e-14)
    assert err[0] == 0.0
