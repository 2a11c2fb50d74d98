"""The one path of the named kernels (BLAS products in cache-sized blocks, guarded distances, the
compiled vector exp): equal to a pair-at-a-time reference to 1e-12 relative, the same for any block size, exact
where the distance cancels, and refused before allocating when the result cannot fit in memory."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from hypothesis.extra.numpy import arrays

from svmviz import _validation
from svmviz.kernels import _gram, gram, rbf_from_squared_distances, squared_distances
from tests.naive import kernels as naive
from tests.naive.svm import rbf_gram as naive_rbf


def _data(n=37, d=10, seed=0, offset=0.0):
    return np.random.default_rng(seed).normal(size=(n, d)) + offset


KERNEL_CASES = [
    ("rbf", dict(sigma=0.9), lambda A, B: naive_rbf(A, B, 0.9)),
    ("linear", {}, naive.linear_gram),
    ("poly", dict(degree=3, gamma=0.2, coef0=1.0), lambda A, B: naive.poly_gram(A, B, 3.0, 0.2, 1.0)),
]


@pytest.mark.parametrize("kernel, params, reference", KERNEL_CASES, ids=[c[0] for c in KERNEL_CASES])
def test_gram_equals_pairwise_reference(kernel, params, reference):
    A, B = _data(), _data(n=23, seed=1)
    np.testing.assert_allclose(gram(A, B, kernel=kernel, **params), reference(A, B), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(gram(A, kernel=kernel, **params), reference(A, A), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("kernel, params, reference", KERNEL_CASES, ids=[c[0] for c in KERNEL_CASES])
def test_gram_blocks_of_one_row_equal_one_block(monkeypatch, kernel, params, reference):
    """Two sets (row blocks of the whole matrix) and one set (blocks of the upper triangle, mirrored)."""
    A, B = _data(n=50), _data(n=31, seed=2)
    one_block = gram(A, B, kernel=kernel, **params), gram(A, kernel=kernel, **params)
    monkeypatch.setattr(_gram, "GRAM_MIN_ROWS", 1)
    monkeypatch.setattr(_gram, "GRAM_BLOCK_BYTES", 8)  # one row per block
    rows = gram(A, B, kernel=kernel, **params), gram(A, kernel=kernel, **params)
    monkeypatch.setattr(_gram, "GRAM_BLOCK_BYTES", 8 * 31 * 7)  # 7 (or 4) rows per block, the last one shorter
    sevens = gram(A, B, kernel=kernel, **params), gram(A, kernel=kernel, **params)
    for blocked in (rows, sevens):
        for got, want in zip(blocked, one_block):
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(blocked[1], reference(A, A), rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("kernel, params, reference", KERNEL_CASES, ids=[c[0] for c in KERNEL_CASES])
@pytest.mark.parametrize("n, d", [(300, 4), (2000, 10), (517, 13)])
def test_gram_of_one_set_is_exactly_symmetric(kernel, params, reference, n, d):
    """Also inside each block's diagonal square, where BLAS computes a·b and b·a in different orders."""
    A = _data(n=n, d=d)
    K = gram(A, kernel=kernel, **params)
    np.testing.assert_array_equal(K, K.T)


def test_block_rows_fill_the_block_budget_with_a_floor():
    assert _gram._block_rows(100) == _gram.GRAM_BLOCK_BYTES // (8 * 100)
    assert _gram._block_rows(10**9) == _gram.GRAM_MIN_ROWS


def test_squared_distances_far_from_the_origin_keep_relative_accuracy():
    """Rows at distance ~1 from each other and ~1e4 from the origin: ‖a‖² + ‖b‖² − 2a·b cancels eight
    digits; the guarded entries are summed directly."""
    A = _data(n=40, d=3, offset=1e4)
    B = _data(n=30, d=3, seed=3, offset=1e4)
    np.testing.assert_allclose(squared_distances(A, B), naive.squared_distances(A, B), rtol=1e-12)
    np.testing.assert_allclose(gram(A, B, sigma=2.0), naive_rbf(A, B, 2.0), rtol=1e-12)


def test_squared_distances_diagonal_and_duplicates_are_exactly_zero():
    A = _data(n=30, d=6, offset=5.0)
    A[7] = A[3]
    D = squared_distances(A)
    assert np.all(np.diag(D) == 0.0) and D[3, 7] == 0.0 and D[7, 3] == 0.0
    assert np.all(D >= 0.0)
    assert np.all(np.diag(gram(A, sigma=0.3)) == 1.0)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, hst.tuples(hst.integers(1, 12), hst.integers(1, 5)),
              elements=hst.floats(-1e3, 1e3, allow_subnormal=False)),
       arrays(np.float64, hst.tuples(hst.integers(1, 9), hst.integers(1, 5)),
              elements=hst.floats(-1e3, 1e3, allow_subnormal=False)))
def test_squared_distances_relative_accuracy_on_any_rows(A, B):
    B = np.resize(B, (B.shape[0], A.shape[1]))  # the same number of features
    ref = naive.squared_distances(A, B)
    np.testing.assert_allclose(squared_distances(A, B), ref, rtol=1e-12, atol=0)
    np.testing.assert_allclose(squared_distances(np.vstack([A, B])),
                               naive.squared_distances(np.vstack([A, B]), np.vstack([A, B])), rtol=1e-12, atol=0)


def test_rbf_from_squared_distances_leaves_its_input_alone():
    D = squared_distances(_data(n=12))
    D0 = D.copy()
    K = rbf_from_squared_distances(D, 0.7)
    np.testing.assert_array_equal(D, D0)
    # rtol: the product by 1/(2σ²) rounds once, and exp multiplies that relative error by |D/(2σ²)| ≤ 40
    np.testing.assert_allclose(K, np.exp(-D0 / (2 * 0.7**2)), rtol=1e-13)


@pytest.mark.parametrize("what, call", [
    ("squared_distances", lambda X: squared_distances(X)),
    ("gram", lambda X: gram(X)),
    ("gram", lambda X: gram(X, kernel="linear")),
    ("gram", lambda X: gram(X, X[:1000] + 1.0)),
], ids=["squared_distances", "gram-rbf", "gram-linear", "gram-two-sets"])
def test_refused_before_allocating_when_the_result_cannot_fit(monkeypatch, what, call):
    """n = 300,000 under a 2 GB limit: a MemoryError naming the function, the size and the largest n
    that fits, raised before any product is computed."""
    monkeypatch.setattr(_validation, "memory_room", lambda: (2 * 10**9, "RLIMIT_AS (2.00 GB)"))
    monkeypatch.setattr(_gram, "_blocked", lambda *a, **k: pytest.fail("the matrix was computed"))
    monkeypatch.setattr(_gram, "_sq_dists", lambda *a, **k: pytest.fail("the matrix was computed"))
    X = np.zeros((300_000, 2))
    with pytest.raises(MemoryError) as exc:
        call(X)
    msg = str(exc.value)
    assert f"{what} at n = 300000" in msg and "RLIMIT_AS" in msg and "largest n that fits is about" in msg, msg


def test_a_matrix_that_fits_is_not_refused(monkeypatch):
    monkeypatch.setattr(_validation, "memory_room", lambda: (2 * 10**9, "RLIMIT_AS (2.00 GB)"))
    X = _data(n=3000, d=2)
    assert gram(X[:10], X).shape == (10, 3000)


def test_a_small_result_does_not_ask_for_memory_room(monkeypatch):
    monkeypatch.setattr(_validation, "memory_room", lambda: pytest.fail("memory_room was asked"))
    X = _data(n=500, d=3)
    assert gram(X).shape == squared_distances(X).shape == (500, 500)
