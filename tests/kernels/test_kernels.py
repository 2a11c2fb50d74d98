"""Kernel objects in svmviz.kernels: gram(kernel=<object>), fit_kernel, kernel_diagonal.

References are direct numpy evaluations (tests/naive-style, written here, independent of the numba
kernels) and scikit-learn's pairwise kernels.
"""
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from hypothesis.extra.numpy import arrays
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from svmviz import kernels as _kernels
from svmviz.kernels import KERNELS, SSANOVAKernel, cubic_spline_rk, fit_kernel, gram, kernel_diagonal


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


# ==============================================================================================
# SS-ANOVA kernels (Wahba 1998, eqs. 1.12–1.13; Gu & Wahba 1993)
# ==============================================================================================


def _bernoulli_k(r, x):
    """k_r(x) = B_r(x)/r! from the Bernoulli polynomials written out (an independent form of Gu's k_r)."""
    B = {1: x - 0.5, 2: x * x - x + 1 / 6, 4: x**4 - 2 * x**3 + x * x - 1 / 30}[r]
    return B / math.factorial(r)


def _gu_rk(s, t):
    """Gu's cubic-spline RK evaluated directly, one pair of scalars at a time."""
    return _bernoulli_k(1, s) * _bernoulli_k(1, t) + _bernoulli_k(2, s) * _bernoulli_k(2, t) - _bernoulli_k(4, abs(s - t))


def _rescaled(X, Xfit):
    lo, hi = Xfit.min(0), Xfit.max(0)
    return (X - lo) / (hi - lo)


def test_gu_k_polynomials_equal_the_bernoulli_form():
    x = np.linspace(-0.5, 1.5, 41)
    k1 = x - 0.5
    np.testing.assert_allclose((k1**2 - 1 / 12) / 2, _bernoulli_k(2, x), atol=1e-15)
    np.testing.assert_allclose((k1**4 - k1**2 / 2 + 7 / 240) / 24, _bernoulli_k(4, x), atol=1e-15)


@given(s=hst.floats(0, 1), t=hst.floats(0, 1))
@settings(max_examples=200, deadline=None)
def test_cubic_rk_equals_gu_formula(s, t):
    assert cubic_spline_rk(s, t) == pytest.approx(_gu_rk(s, t), abs=1e-15)
    assert _kernels._ssanova._cubic_rk(s, t) == pytest.approx(_gu_rk(s, t), abs=1e-15)      # the numba kernel


def test_cubic_rk_outside_unit_interval_is_the_same_polynomial():
    s = np.array([-0.4, -0.1, 1.2, 1.7])
    t = np.array([0.3, 1.3, 0.9, -0.2])
    want = np.array([_gu_rk(a, b) for a, b in zip(s, t)])
    np.testing.assert_allclose(cubic_spline_rk(s, t), want, atol=1e-15)
    np.testing.assert_allclose([_kernels._ssanova._cubic_rk(a, b) for a, b in zip(s, t)], want, atol=1e-15)


def test_cubic_rk_spans_cubic_splines():
    """Σ c_i R(x_i, ·) with Σ c_i = 0 is a cubic spline with knots at the x_i: between knots its
    fourth differences vanish, across a knot it is C² (third derivative jumps)."""
    rng = np.random.default_rng(4)
    knots = np.sort(rng.uniform(0.1, 0.9, 6))
    c = rng.normal(size=6)
    c -= c.mean()
    f = lambda t: cubic_spline_rk(knots[:, None], np.atleast_1d(t)[None, :]).T @ c  # noqa: E731
    h = 1e-3
    lo = knots[2] + 5 * h
    t = lo + h * np.arange(5)
    assert t[-1] < knots[3]
    fourth = f(t) @ np.array([1, -4, 6, -4, 1]) / h**4
    assert abs(fourth) < 1e-4 * (1 + np.abs(f(t)).max())
    # with Σ c ≠ 0 the quartic term −Σc · s⁴/24 would give a fourth difference of −Σc
    c2 = c + 0.5
    g = cubic_spline_rk(knots[:, None], t[None, :]).T @ c2
    assert g @ np.array([1, -4, 6, -4, 1]) / h**4 == pytest.approx(-c2.sum(), rel=1e-3)


@given(pts=arrays(np.float64, hst.integers(2, 40), elements=hst.floats(0, 1)))
@settings(max_examples=60, deadline=None)
def test_cubic_rk_is_positive_semidefinite_on_random_points(pts):
    K = cubic_spline_rk(pts[:, None], pts[None, :])
    ev = np.linalg.eigvalsh(K)
    assert ev.min() >= -1e-12 * max(1.0, ev.max()) * len(pts)


@given(seed=hst.integers(0, 10_000), n=hst.integers(3, 30), d=hst.integers(1, 4),
       order=hst.sampled_from(["additive", "two-way"]), base=hst.sampled_from(["cubic", "gaussian"]))
@settings(max_examples=40, deadline=None)
def test_ssanova_gram_is_positive_semidefinite(seed, n, d, order, base):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X[0], X[1] = X.min(0) - 1, X.max(0) + 1          # every column has a positive range
    theta = rng.uniform(0.1, 3, d)
    k = fit_kernel(SSANOVAKernel(order=order, base=base, sigma=0.3, theta=theta), X)
    K = gram(X, kernel=k)
    np.testing.assert_allclose(K, K.T, atol=1e-14)
    ev = np.linalg.eigvalsh(K)
    assert ev.min() >= -1e-11 * max(1.0, ev.max()) * n


@pytest.mark.parametrize("base", ["cubic", "gaussian"])
def test_additive_kernel_is_the_sum_of_the_per_coordinate_kernels(base):
    rng = np.random.default_rng(1)
    X, Xq = rng.normal(size=(30, 4)), rng.normal(size=(9, 4))
    theta = np.array([0.5, 2.0, 1.0, 0.0])
    k = fit_kernel(SSANOVAKernel(order="additive", base=base, sigma=0.3, theta=theta), X)
    U, Uq = _rescaled(X, X), _rescaled(Xq, X)
    R1 = (cubic_spline_rk if base == "cubic" else
          (lambda s, t: np.exp(-((s - t) ** 2) / (2 * 0.3**2))))
    want = sum(theta[a] * R1(Uq[:, a][:, None], U[:, a][None, :]) for a in range(4))
    np.testing.assert_allclose(gram(Xq, X, kernel=k), want, atol=1e-13)
    # each coordinate's kernel alone: an additive kernel on that one column
    for a in range(4):
        ka = fit_kernel(SSANOVAKernel(base=base, sigma=0.3), X[:, [a]])
        np.testing.assert_allclose(gram(Xq[:, [a]], X[:, [a]], kernel=ka),
                                   R1(Uq[:, a][:, None], U[:, a][None, :]), atol=1e-13)


@pytest.mark.parametrize("base", ["cubic", "gaussian"])
def test_two_way_on_two_variables_is_the_full_product_of_eq_1_12(base):
    """For d = 2 the two-way truncation is the whole expansion: K = Π_α (1 + θ_α R_α) (eq. 1.12)
    with the constant 1 carried by theta0 = 1."""
    rng = np.random.default_rng(2)
    X = rng.uniform(-3, 5, size=(25, 2))
    theta = np.array([0.7, 1.9])
    k = fit_kernel(SSANOVAKernel(order="two-way", base=base, sigma=0.4, theta=theta, theta0=1.0), X)
    U = _rescaled(X, X)
    R1 = (cubic_spline_rk if base == "cubic" else
          (lambda s, t: np.exp(-((s - t) ** 2) / (2 * 0.4**2))))
    want = np.prod([1 + theta[a] * R1(U[:, a][:, None], U[:, a][None, :]) for a in range(2)], axis=0)
    np.testing.assert_allclose(gram(X, kernel=k), want, atol=1e-12)


def test_two_way_per_component_weights_and_products_of_theta():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(20, 3))
    U = _rescaled(X, X)
    R = [cubic_spline_rk(U[:, a][:, None], U[:, a][None, :]) for a in range(3)]
    pairs = list(itertools.combinations(range(3), 2))
    w = np.array([1.0, 0.5, 2.0, 0.3, 0.0, 4.0])            # 3 mains then (0,1), (0,2), (1,2)
    k = fit_kernel(SSANOVAKernel(order="two-way", theta=w, theta0=0.25), X)
    want = 0.25 + sum(w[a] * R[a] for a in range(3)) + sum(w[3 + p] * R[a] * R[b] for p, (a, b) in enumerate(pairs))
    np.testing.assert_allclose(gram(X, kernel=k), want, atol=1e-13)
    th = np.array([2.0, 0.5, 3.0])                           # per coordinate: pairs get products
    k2 = fit_kernel(SSANOVAKernel(order="two-way", theta=th), X)
    np.testing.assert_allclose(k2.weights_, [2.0, 0.5, 3.0, 1.0, 6.0, 1.5])
    assert k2.component_names(["a", "b", "c"]) == ["a", "b", "c", "a × b", "a × c", "b × c"]


def test_coordinate_grams_assemble_any_theta_grid_like_the_direct_gram():
    rng = np.random.default_rng(5)
    X, Xq = rng.normal(size=(40, 5)), rng.normal(size=(7, 5))
    k = fit_kernel(SSANOVAKernel(order="two-way", base="gaussian", sigma=0.3, theta=rng.uniform(0.5, 2, 5)), X)
    R = k.coordinate_grams(X)
    assert R.shape == (5, 40, 40)
    np.testing.assert_allclose(k.gram_from_coordinate_grams(R), gram(X, kernel=k), atol=1e-13)
    np.testing.assert_allclose(k.gram_from_coordinate_grams(k.coordinate_grams(Xq, X)), gram(Xq, X, kernel=k),
                               atol=1e-13)
    for scale, coord in [(3.0, None), (0.2, None), (5.0, 2)]:
        w = k.component_weights(scale, coord)
        mult = np.full(5, scale) if coord is None else np.where(np.arange(5) == coord, scale, 1.0)
        want_w = np.array([k.weights_[i] * np.prod(mult[list(c)]) for i, c in enumerate(k.components_)])
        np.testing.assert_allclose(w, want_w)
        direct = fit_kernel(SSANOVAKernel(order="two-way", base="gaussian", sigma=0.3, theta=w), X)
        np.testing.assert_allclose(k.gram_from_coordinate_grams(R, w), gram(X, kernel=direct), atol=1e-12)


@pytest.mark.parametrize("order,base", [("additive", "cubic"), ("two-way", "cubic"), ("two-way", "gaussian")])
def test_ssanova_diagonal_is_not_one_and_matches_the_gram(order, base):
    rng = np.random.default_rng(6)
    X = rng.normal(size=(300, 3))
    k = fit_kernel(SSANOVAKernel(order=order, base=base), X)
    diag = kernel_diagonal(k, X)
    np.testing.assert_allclose(diag, np.diag(gram(X, kernel=k)), atol=1e-14)
    assert not np.allclose(diag, 1.0)
    if base == "gaussian":                                  # θ0 + Σ_c θ_c = 0 + 3 + 3
        np.testing.assert_allclose(diag, 6.0)


def test_fit_learns_the_unit_interval_map_and_keeps_it_for_prediction():
    rng = np.random.default_rng(7)
    X = rng.normal(3, 2, size=(50, 3))
    proto = SSANOVAKernel(order="two-way")
    k = fit_kernel(proto, X)
    assert not hasattr(proto, "lo_")
    U = k.transform(X)
    np.testing.assert_allclose(U.min(0), 0.0, atol=1e-15)
    np.testing.assert_allclose(U.max(0), 1.0, atol=1e-15)
    Xq = rng.normal(3, 6, size=(10, 3))                     # partly outside the training range
    K1 = gram(Xq, X, kernel=k)
    fit_kernel(proto, Xq)                                   # fitting another copy changes nothing
    np.testing.assert_array_equal(gram(Xq, X, kernel=k), K1)
    Uq = _rescaled(Xq, X)
    assert (Uq < 0).any() or (Uq > 1).any()
    want = sum(cubic_spline_rk(Uq[:, a][:, None], U[:, a][None, :]) for a in range(3)) + sum(
        cubic_spline_rk(Uq[:, a][:, None], U[:, a][None, :]) * cubic_spline_rk(Uq[:, b][:, None], U[:, b][None, :])
        for a, b in itertools.combinations(range(3), 2))
    np.testing.assert_allclose(K1, want, atol=1e-12)


def test_ssanova_refusals_are_clear_value_errors(monkeypatch):
    X = np.random.default_rng(8).normal(size=(10, 3))
    with pytest.raises(ValueError, match="not fitted"):
        SSANOVAKernel()(X)
    with pytest.raises(ValueError, match="constant"):
        fit_kernel(SSANOVAKernel(), np.column_stack([X, np.ones(10)]))
    with pytest.raises(ValueError, match="order"):
        fit_kernel(SSANOVAKernel(order="three-way"), X)
    with pytest.raises(ValueError, match="base"):
        fit_kernel(SSANOVAKernel(base="linear"), X)
    with pytest.raises(ValueError, match="theta needs 3 values .* or 6"):
        fit_kernel(SSANOVAKernel(order="two-way", theta=[1, 2]), X)
    with pytest.raises(ValueError, match="≥ 0"):
        fit_kernel(SSANOVAKernel(theta=[1, -2, 1]), X)
    with pytest.raises(ValueError, match="identically zero"):
        fit_kernel(SSANOVAKernel(theta=[0, 0, 0]), X)
    with pytest.raises(ValueError, match="sigma"):
        fit_kernel(SSANOVAKernel(base="gaussian", sigma=0), X)
    with pytest.raises(ValueError, match="1081 components"):
        fit_kernel(SSANOVAKernel(order="two-way"), np.random.default_rng(0).normal(size=(5, 46)))
    k = fit_kernel(SSANOVAKernel(), X)
    with pytest.raises(ValueError, match="fitted on 3"):
        gram(X[:, :2], kernel=k)
    monkeypatch.setattr(_kernels._ssanova, "COMPONENT_GRAM_BUDGET", 1000)
    with pytest.raises(ValueError, match="MiB"):
        k.coordinate_grams(X)
