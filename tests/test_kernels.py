"""Kernel objects in svmviz.kernels: gram(kernel=<object>), fit_kernel, kernel_diagonal.

References are direct numpy evaluations (tests/naive-style, written here, independent of the numba
kernels) and scikit-learn's pairwise kernels.
"""
import numpy as np
import pytest
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from svmviz.kernels import KERNELS, fit_kernel, gram, kernel_diagonal


def _X(n=7, d=3, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


class Laplace:
    """A plain callable kernel (no fit): exp(-||a - b||_1)."""

    def __call__(self, A, B=None):
        B = A if B is None else B
        return np.exp(-np.abs(A[:, None, :] - B[None, :, :]).sum(-1))


class Centred:
    """A kernel object that learns the training mean: (a - m)·(b - m)."""

    def __init__(self):
        self.calls = 0

    def fit(self, X):
        self.mean_ = np.asarray(X).mean(0)
        return self

    def __call__(self, A, B=None):
        self.calls += 1
        B = A if B is None else B
        return (A - self.mean_) @ (B - self.mean_).T


def test_gram_names_unchanged_against_sklearn():
    X, Y = _X(), _X(5, seed=1)
    np.testing.assert_allclose(gram(X, Y, kernel="rbf", sigma=0.7), rbf_kernel(X, Y, gamma=1 / (2 * 0.49)),
                               rtol=1e-12)
    np.testing.assert_allclose(gram(X, Y, kernel="poly", degree=2, gamma=0.5, coef0=1.0),
                               polynomial_kernel(X, Y, degree=2, gamma=0.5, coef0=1.0), rtol=1e-12)


def test_gram_with_a_callable_object():
    X, Y = _X(), _X(5, seed=1)
    k = Laplace()
    np.testing.assert_array_equal(gram(X, Y, kernel=k), k(X, Y))
    K = gram(X, kernel=k)
    assert K.shape == (7, 7) and K.flags.c_contiguous and K.dtype == np.float64
    np.testing.assert_allclose(np.diag(K), 1.0)


def test_gram_object_with_bad_output_is_a_value_error():
    X = _X()
    with pytest.raises(ValueError, match="shape"):
        gram(X, kernel=lambda A, B=None: np.zeros((2, 2)))
    with pytest.raises(ValueError, match="NaN"):
        gram(X, kernel=lambda A, B=None: np.full((A.shape[0], A.shape[0]), np.nan))
    with pytest.raises(ValueError, match="one of"):
        gram(X, kernel="gauss")
    with pytest.raises(ValueError, match="kernel object"):
        gram(X, kernel=3)


def test_fit_kernel_names_callables_and_fitted_copies():
    X = _X()
    for name in KERNELS:
        assert fit_kernel(name, X) == name
    lap = Laplace()
    assert fit_kernel(lap, X) is lap
    c = Centred()
    f = fit_kernel(c, X)
    assert f is not c and not hasattr(c, "mean_")            # the user's object untouched
    np.testing.assert_allclose(f.mean_, X.mean(0))
    Y = _X(4, seed=2)
    np.testing.assert_allclose(gram(Y, X, kernel=f), (Y - X.mean(0)) @ (X - X.mean(0)).T)
    with pytest.raises(ValueError, match="one of"):
        fit_kernel("nope", X)


def test_fit_kernel_whose_fit_returns_none_still_gives_the_fitted_copy():
    class NoneFit(Centred):
        def fit(self, X):
            super().fit(X)

    f = fit_kernel(NoneFit(), _X())
    assert hasattr(f, "mean_")


@pytest.mark.parametrize("n", [5, 300, 513])
def test_kernel_diagonal_matches_the_gram_diagonal(n):
    X = _X(n, 2, seed=3)
    np.testing.assert_array_equal(kernel_diagonal("rbf", X, sigma=0.3), np.ones(n))
    np.testing.assert_allclose(kernel_diagonal("linear", X), np.diag(gram(X, kernel="linear")), rtol=1e-13)
    np.testing.assert_allclose(kernel_diagonal("poly", X, degree=3, gamma=0.5, coef0=2.0),
                               np.diag(gram(X, kernel="poly", degree=3, gamma=0.5, coef0=2.0)), rtol=1e-13)
    c = fit_kernel(Centred(), X)
    ref = np.diag(c(X))
    c.calls = 0
    np.testing.assert_allclose(kernel_diagonal(c, X), ref, rtol=1e-13)   # block fallback
    assert c.calls == 1 + (n - 1) // 256                                  # 256-row blocks


def test_kernel_diagonal_uses_the_objects_own_diagonal_and_checks_it():
    class WithDiag(Laplace):
        def diagonal(self, A):
            return np.full(A.shape[0], 2.0)

    np.testing.assert_array_equal(kernel_diagonal(WithDiag(), _X()), 2.0)

    class BadDiag(Laplace):
        def diagonal(self, A):
            return np.ones(3)

    with pytest.raises(ValueError, match="diagonal"):
        kernel_diagonal(BadDiag(), _X())
    with pytest.raises(ValueError, match="unknown kernel parameters"):
        kernel_diagonal("rbf", _X(), width=2)
    with pytest.raises(ValueError, match="sigma"):
        kernel_diagonal("rbf", _X(), sigma=-1)
