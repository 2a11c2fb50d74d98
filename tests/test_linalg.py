"""svmviz._linalg: the LU solve (KLR's Newton systems, written out to compile fast) against numpy."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz import _linalg


# --------------------------------------------------------------------------- lu_solve (KLR's Newton systems)
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
    x, st = _linalg.lu_solve(A.copy(), b)
    assert st == 0
    np.testing.assert_allclose(x, ref, rtol=1e-8, atol=1e-10 * np.abs(ref).max())


def test_lu_solve_pivots_and_leaves_b_alone():
    A = np.array([[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]])  # a zero first pivot: a row swap
    b = np.array([1.0, 2.0, 3.0])
    x, st = _linalg.lu_solve(A.copy(), b)
    assert st == 0
    np.testing.assert_allclose(A @ x, b, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(b, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("A", [np.array([[1.0, 2.0], [2.0, 4.0]]),          # singular
                               np.array([[np.nan, 0.0], [0.0, 1.0]]),        # not finite
                               np.zeros((3, 3))])
def test_lu_solve_reports_a_singular_or_nonfinite_system(A):
    _, st = _linalg.lu_solve(A.copy(), np.ones(A.shape[0]))
    assert st == 3  # = _klr.NUMERICAL
