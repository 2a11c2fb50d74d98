"""The λ sequence's start extrapolated from the two previous solutions (``_smo._secant_start``): exact
where no point changes group (the solution is linear in λ there), feasible with its gradient exact where
points do, and not taken for a step longer than the previous one or after a repeated λ. The sequences
it starts are checked against libsvm and the stopping rule in test_grid_warm_starts.py."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from svmviz.data import make_dataset
from svmviz.kernels import rbf_from_squared_distances, squared_distances
from svmviz.svm import _smo, fit_lambda_sequence
from tests.svm.test_grid_engine import _max_violation


def _exact(K, y, lam, C, tol=1e-13):
    """(α, G) of SMO from α = 0 at a tolerance far below the grid's: the solution to ~1e-12."""
    n = y.size
    a, _, G, _, st = _smo.solve_dual(K, y, 1.0 / (2.0 * n * lam), -np.ones(n), C, np.zeros(n), tol, 10**8, False)
    assert st == 0
    return a, G


def _groups(a, C):
    return np.where(a <= 0.0, 0, np.where(a >= C, 2, 1))


def _start(K, y, lams, C, sols):
    """_secant_start for lams[2] from the solutions ``sols`` at lams[0], lams[1]: (taken, α, G)."""
    n = y.size
    alphas = np.array([sols[0][0], sols[1][0], np.zeros(n)])
    Gh = np.array([sols[0][1], sols[1][1]])  # row q % 2 holds the gradient of the q-th solve
    a, G = np.full(n, -7.0), np.full(n, -7.0)
    taken = _smo._secant_start(K, y, 1.0 / (2.0 * n * lams[2]), -np.ones(n), C, lams, np.arange(3, dtype=np.int64),
                               2, alphas, Gh, a, G)
    return taken, a, G


@pytest.mark.parametrize("lam", [3e-2, 1e-2, 1e-3])
@pytest.mark.parametrize("spacing", ["log", "even"])
def test_start_is_the_solution_where_no_point_changes_group(lam, spacing):
    """Three λ close enough that every point keeps its group: the extrapolated α is the solution at the
    third (to the precision of the two it starts from), and its gradient is s·YKYα + p."""
    ds = make_dataset("wahba2001", n=80, seed=0)
    y = np.where(ds.y > 0, 1.0, -1.0)
    n = y.size
    K = rbf_from_squared_distances(squared_distances(ds.X), 1.0)
    C = np.ones(n)
    lams = lam * (np.array([1.0, 0.99, 0.98]) if spacing == "even" else np.array([1.0, 0.99, 0.99**2]))
    sols = [_exact(K, y, v, C) for v in lams]
    groups = [_groups(a, C) for a, _ in sols]
    assert np.array_equal(groups[0], groups[2]) and np.any(groups[0] == 1) and np.any(groups[0] == 2)
    taken, a, G = _start(K, y, lams, C, sols)
    assert taken
    np.testing.assert_allclose(a, sols[2][0], rtol=0, atol=1e-9)
    s = 1.0 / (2.0 * n * lams[2])
    np.testing.assert_allclose(G, s * y * (K @ (y * a)) - 1.0, rtol=0, atol=1e-12 * s)
    # the extrapolation is what makes it exact: the previous solution is far from it
    assert np.abs(sols[1][0] - sols[2][0]).max() > 1e3 * np.abs(a - sols[2][0]).max()


@given(seed=hst.integers(0, 10_000), n=hst.integers(12, 60), log_sigma=hst.floats(-1.0, 1.0),
       log_lam=hst.floats(-5.0, -1.0), ratio=hst.floats(0.3, 0.95), weighted=hst.booleans())
@settings(max_examples=40, deadline=None)
def test_start_across_group_changes_is_feasible_with_the_exact_gradient(seed, n, log_sigma, log_lam, ratio,
                                                                        weighted):
    """Random problems and steps long enough that points change group: the start is in the box, meets
    y'α = 0 and carries the exact gradient of its α (the clipping and the balance keep G exact)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[:2] = (-1.0, 1.0)
    K = rbf_from_squared_distances(squared_distances(X), 10.0**log_sigma)
    C = np.where(y > 0, 1.5, 0.5) if weighted else np.ones(n)
    lams = 10.0**log_lam * np.array([1.0, ratio, ratio * ratio])
    sols = [_exact(K, y, v, C, tol=1e-6) for v in lams[:2]]
    taken, a, G = _start(K, y, lams, C, sols + [None])
    assert taken
    assert np.all((a >= 0) & (a <= C)) and abs(y @ a) <= 1e-12 * max(1.0, a.sum())
    s = 1.0 / (2.0 * n * lams[2])
    np.testing.assert_allclose(G, s * y * (K @ (y * a)) - 1.0, rtol=0, atol=1e-10 * max(s, 1.0))


def test_start_is_not_taken_for_a_longer_step_or_after_a_repeated_lambda():
    """t > 1 would amplify the rounding of the gradients, a repeated λ gives no direction: the start
    is left as it is (the sequence then rescales the previous gradient)."""
    ds = make_dataset("wahba2001", n=60, seed=1)
    y = np.where(ds.y > 0, 1.0, -1.0)
    K = rbf_from_squared_distances(squared_distances(ds.X), 0.7)
    C = np.ones(y.size)
    for lams in (np.array([1e-2, 0.9e-2, 0.5e-2]), np.array([1e-2, 1e-2, 0.9e-2])):
        sols = [_exact(K, y, v, C, tol=1e-6) for v in lams[:2]]
        taken, a, G = _start(K, y, lams, C, sols + [None])
        assert not taken and np.all(a == -7.0) and np.all(G == -7.0)


def test_sequence_with_the_extrapolated_starts_matches_cold_solves():
    """A fine λ grid, where most starts are extrapolated within a group segment: every solution meets the
    stopping rule and its decision values are those of a solve from α = 0 to what the tolerance allows."""
    ds = make_dataset("wahba2001", n=150, seed=3)
    y = np.where(ds.y > 0, 1.0, -1.0)
    n = y.size
    K = rbf_from_squared_distances(squared_distances(ds.X), 0.5)
    C = np.ones(n)
    lams = np.logspace(-2, -4, 25)
    seq = fit_lambda_sequence(K, y, lams, tol=1e-3)
    assert np.all(seq.status == 0)
    for k, lam in enumerate(lams):
        assert _max_violation(K, y, lam, seq.alphas[k], C) < 1e-3 + 1e-9
        a, b, G, _, st = _smo.solve_dual(K, y, 1.0 / (2.0 * n * lam), -np.ones(n), C, np.zeros(n), 1e-3, 10**7, False)
        f = y * (G + 1.0) + b
        assert np.abs(seq.f[k] - f).max() / np.abs(f).max() < 1e-2
