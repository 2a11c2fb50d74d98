"""The SMO engine and SVMClassifier against independent references (sklearn SVC, KKT, kernels)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel
from sklearn.svm import SVC

from svmviz.kernels import gram, rbf_from_squared_distances, squared_distances
from svmviz.svm import SVMClassifier, fit_lambda_sequence, fit_sigma_lambda_grid, solve_dual

from tests.naive import svm as naive
from tests.naive.svm import wahba_like


# ---------------------------------------------------------------- kernels
def test_kernels_match_sklearn_pairwise():
    rng = np.random.default_rng(1)
    A, B = rng.normal(size=(17, 4)), rng.normal(size=(9, 4))
    for sigma in (0.1, 1.0, 7.0):
        np.testing.assert_allclose(gram(A, B, sigma=sigma), rbf_kernel(A, B, gamma=1 / (2 * sigma**2)),
                                   rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(gram(A, B, kernel="linear"), linear_kernel(A, B), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(gram(A, B, kernel="poly", degree=3, gamma=0.5, coef0=2.0),
                               polynomial_kernel(A, B, degree=3, gamma=0.5, coef0=2.0), rtol=1e-12)
    np.testing.assert_allclose(gram(A, B, sigma=0.7), naive.rbf_gram(A, B, 0.7), rtol=1e-12)
    D = squared_distances(A, B)
    np.testing.assert_allclose(rbf_from_squared_distances(D, 0.7), naive.rbf_gram(A, B, 0.7), rtol=1e-12)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_kernel_rejects_non_finite(bad):
    A = np.ones((3, 2))
    A[1, 1] = bad
    with pytest.raises(ValueError, match="NaN or infinite"):
        gram(A)


def test_kernel_matrix_of_huge_finite_entries_is_accepted_and_one_nan_refused():
    """The finiteness check of a kernel matrix: entries whose sum overflows are finite all the same; a
    single NaN or inf among them is found."""
    K = np.full((4, 4), 1e308)
    y = np.array([-1.0, -1.0, 1.0, 1.0])
    from svmviz._validation import check_matrix
    np.testing.assert_array_equal(check_matrix(K, "K"), K)
    for bad in (np.nan, np.inf, -np.inf):
        K2 = K.copy()
        K2[2, 3] = bad
        with pytest.raises(ValueError, match=r"NaN or infinite values \(first at row 2, column 3\)"):
            solve_dual(K2, y, scale=1.0, C=1.0)


def test_kernel_rejects_bad_parameters():
    A = np.ones((3, 2))
    with pytest.raises(ValueError, match="sigma"):
        gram(A, sigma=0)
    with pytest.raises(ValueError, match="kernel must be"):
        gram(A, kernel="sigmoid")
    with pytest.raises(ValueError, match="features"):
        gram(A, np.ones((2, 3)))


# ---------------------------------------------------------------- against sklearn SVC
GRID = [  # (λ, σ, L(−1), L(+1)) — from heavy regularization to nearly hard margin, tiny to huge σ
    (1e-1, 1.0, 1, 1), (1e-2, 0.3, 1, 1), (1e-3, 1.0, 1, 1), (1e-4, 0.1, 1, 1), (1e-6, 0.3, 1, 1),
    (1e-2, 5.0, 1, 1), (3e-3, 0.03, 1, 1), (1e-3, 1.0, 1.5, 0.5), (1e-5, 0.5, 1.5, 0.5),
    (1e-1, 2.0, 0.3, 2.0),
]


@pytest.mark.parametrize("lam,sigma,Lm,Lp", GRID)
def test_matches_sklearn_svc(lam, sigma, Lm, Lp):
    """Decision values and dual coefficients equal sklearn's SVC with the mapping.

    libsvm keeps its kernel cache in single precision, so its own solution satisfies the KKT
    conditions (checked in double precision here) only to ~1e-7…1e-4 at small λ. Where libsvm's
    double-precision KKT gap is below 1e-7 we require 1e-6 agreement relative to max |f|; elsewhere
    our KKT gap must be at most the tolerance, our dual objective at least as low as libsvm's, and
    the difference in f bounded by libsvm's own KKT gap.
    """
    X, y = wahba_like(120, seed=3)
    n = len(y)
    ours = SVMClassifier(lam=lam, sigma=sigma, L=(Lm, Lp), tol=1e-10).fit(X, y)
    C = 1.0 / (2 * n * lam)
    ref = SVC(C=C, gamma=1 / (2 * sigma**2), class_weight={-1.0: Lm, 1.0: Lp}, tol=1e-10,
              max_iter=10**8).fit(X, y)
    K = gram(X, sigma=sigma)
    Cvec = np.where(y > 0, Lp, Lm)
    a_ref = naive.sklearn_wahba_alpha(ref, n, lam)
    gap_ours = naive.dual_kkt_violation(K, y, C, Cvec, ours.alpha_)
    gap_ref = naive.dual_kkt_violation(K, y, C, Cvec, a_ref)
    assert gap_ours <= 1.01e-10
    f_ours, f_ref = ours.decision_function(X), ref.decision_function(X)
    scale = np.abs(f_ref).max()
    obj_ours = naive.dual_objective(K, y, C, ours.alpha_)
    obj_ref = naive.dual_objective(K, y, C, a_ref)
    assert obj_ours <= obj_ref + 1e-10 * abs(obj_ref)
    if gap_ref < 1e-7:
        np.testing.assert_allclose(f_ours, f_ref, atol=1e-6 * scale, rtol=0)
        # α on the margin solves s·K_FF α_F = (KKT right-hand side): libsvm's residual gap_ref is
        # amplified by ‖(s K_FF)⁻¹‖ — the bound below is that propagation, not a fudge factor.
        free = (ours.alpha_ > 1e-12) & (ours.alpha_ < Cvec - 1e-12)
        amp = np.linalg.norm(np.linalg.inv(C * K[np.ix_(free, free)]), np.inf) if free.any() else 0.0
        np.testing.assert_allclose(ours.alpha_, a_ref, atol=1e-6 * max(Lm, Lp) + 2 * gap_ref * amp, rtol=0)
        np.testing.assert_allclose(ours.intercept_, ref.intercept_[0], atol=1e-6 * scale)
    else:
        assert np.abs(f_ours - f_ref).max() <= 10 * gap_ref + 1e-6 * scale
    # the estimator's own decision values on the training data agree with its dual
    np.testing.assert_allclose(ours.train_decision_, f_ours, atol=1e-9 * scale)
    np.testing.assert_array_equal(ours.predict(X), np.where(f_ours > 0, 1.0, -1.0))


def test_nearly_singular_kernel_matches_in_objective():
    """at tiny λ with large σ K is numerically singular and α is not unique — compare the
    dual objective (ours as low as libsvm's) and f to ~1e-3."""
    X, y = wahba_like(200, seed=0)
    n, lam, sigma = len(y), 1e-6, 2.4
    ours = SVMClassifier(lam=lam, sigma=sigma, tol=1e-9).fit(X, y)
    ref = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * sigma**2), tol=1e-9, max_iter=10**8).fit(X, y)
    K = gram(X, sigma=sigma)
    C = 1 / (2 * n * lam)
    obj_ours = naive.dual_objective(K, y, C, ours.alpha_)
    obj_ref = naive.dual_objective(K, y, C, naive.sklearn_wahba_alpha(ref, n, lam))
    assert obj_ours <= obj_ref + 1e-9 * abs(obj_ref)
    f_ref = ref.decision_function(X)
    assert np.abs(ours.decision_function(X) - f_ref).max() <= 1e-3 * np.abs(f_ref).max()


def test_linear_and_poly_kernels_match_sklearn():
    X, y = wahba_like(80, seed=5)
    n, lam = len(y), 1e-2
    for kw, skw in (({"kernel": "linear"}, {"kernel": "linear"}),
                    ({"kernel": "poly", "degree": 2, "gamma": 0.5, "coef0": 1.0},
                     {"kernel": "poly", "degree": 2, "gamma": 0.5, "coef0": 1.0})):
        ours = SVMClassifier(lam=lam, tol=1e-10, **kw).fit(X, y)
        ref = SVC(C=1 / (2 * n * lam), tol=1e-10, **skw).fit(X, y)
        f = ref.decision_function(X)
        np.testing.assert_allclose(ours.decision_function(X), f, atol=1e-6 * np.abs(f).max())


def test_any_two_labels_and_predict_mapping():
    X, y = wahba_like(60, seed=2)
    labels = np.where(y > 0, "cat", "dog")
    m = SVMClassifier(lam=1e-2, sigma=1.0).fit(X, labels)
    assert list(m.classes_) == ["cat", "dog"]  # "cat" ↦ −1 (sorted order), "dog" ↦ +1
    m2 = SVMClassifier(lam=1e-2, sigma=1.0).fit(X, -y)
    np.testing.assert_allclose(m.decision_function(X), m2.decision_function(X), atol=1e-9)
    assert set(m.predict(X)) <= {"cat", "dog"}
    assert m.score(X, labels) > 0.7


# ---------------------------------------------------------------- λ sequences and warm starts
def test_lambda_sequence_equals_cold_solves_in_any_order():
    X, y = wahba_like(150, seed=7)
    K = gram(X, sigma=0.8)
    lams = np.array([1e-3, 1e-1, 1e-5, 3e-4, 1e-2])  # deliberately unsorted
    seq = fit_lambda_sequence(K, y, lams, L=(1.5, 0.5), tol=1e-10)
    assert np.all(seq.status == 0)
    for k, lam in enumerate(lams):
        cold = SVMClassifier(lam=lam, sigma=0.8, L=(1.5, 0.5), tol=1e-10).fit(X, y)
        scale = np.abs(cold.train_decision_).max()
        np.testing.assert_allclose(seq.f[k], cold.train_decision_, atol=1e-7 * scale)
        np.testing.assert_allclose(seq.b[k], cold.intercept_, atol=1e-7 * scale)
        n = len(y)
        f_from_alpha = K @ (y * seq.alphas[k]) / (2 * n * lam) + seq.b[k]
        np.testing.assert_allclose(seq.f[k], f_from_alpha, atol=1e-9 * scale)


@pytest.mark.parametrize("n_threads", [1, 2])
def test_sigma_lambda_grid_equals_per_sigma_sequences_and_sklearn(n_threads):
    X, y = wahba_like(90, seed=3)
    lams, sigmas = np.logspace(-4, -1, 5), np.array([0.3, 1.0, 2.5])
    calls = []
    grid = fit_sigma_lambda_grid(X, y, lams, sigmas, L=(1.2, 0.8), tol=1e-10, n_threads=n_threads,
                                 progress=lambda d, t, msg: calls.append((d, t)))
    assert grid.alphas.shape == (3, 5, 90) and grid.f.shape == (3, 5, 90) and grid.b.shape == (3, 5)
    assert np.all(grid.status == 0) and sorted(calls) == [(1, 3), (2, 3), (3, 3)]
    for q, s in enumerate(sigmas):
        seq = fit_lambda_sequence(gram(X, sigma=s), y, lams, L=(1.2, 0.8), tol=1e-10)
        np.testing.assert_allclose(grid.f[q], seq.f, rtol=0, atol=1e-9 * np.abs(seq.f).max())
        np.testing.assert_allclose(grid.alphas[q], seq.alphas, rtol=0, atol=1e-9)
    n = len(y)
    ref = SVC(C=1 / (2 * n * lams[2]), gamma=1 / (2 * sigmas[1] ** 2), class_weight={-1: 1.2, 1: 0.8},
              tol=1e-10).fit(X, y)
    f_ref = ref.decision_function(X)
    np.testing.assert_allclose(grid.f[1, 2], f_ref, rtol=0, atol=1e-6 * np.abs(f_ref).max())
    with pytest.raises(ValueError, match="sigmas must be a non-empty"):
        fit_sigma_lambda_grid(X, y, lams, [])
    with pytest.raises(ValueError, match="n_threads"):
        fit_sigma_lambda_grid(X, y, lams, sigmas, n_threads=0)
    with pytest.raises(ValueError, match="every σ"):
        fit_sigma_lambda_grid(X, y, lams, [1.0, -2.0])


def test_warm_start_from_perturbed_alpha_reaches_same_solution():
    X, y = wahba_like(100, seed=11)
    K = gram(X, sigma=1.0)
    n, lam = len(y), 1e-3
    cold = solve_dual(K, y, scale=1 / (2 * n * lam), C=1.0, tol=1e-10)
    rng = np.random.default_rng(0)
    start = np.clip(cold.alpha + rng.normal(scale=0.1, size=n), 0, 1)  # infeasible in y'α: repaired
    warm = solve_dual(K, y, scale=1 / (2 * n * lam), C=1.0, alpha0=start, tol=1e-10)
    np.testing.assert_allclose(warm.f, cold.f, atol=1e-7 * np.abs(cold.f).max())
    assert warm.n_iter < cold.n_iter * 2


# ---------------------------------------------------------------- KKT on random problems
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(4, 40),
    log_lam=st.floats(-6, 0),
    log_sigma=st.floats(-1.5, 1.5),
    shrinking=st.booleans(),
    general=st.booleans(),
)
def test_kkt_conditions_hold_on_random_problems(seed, n, log_lam, log_sigma, shrinking, general):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    y[0], y[1] = 1.0, -1.0
    K = gram(X, sigma=10**log_sigma)
    scale = 1 / (2 * n * 10**log_lam)
    if general:  # the randomized-GACV form: per-sample bounds and linear term
        s_ = y + rng.normal(scale=0.3, size=n)
        s_[np.abs(s_) < 0.05] = 0.05
        C = np.abs(s_)
        p = -1 / np.abs(s_)
    else:
        C = np.where(y > 0, 0.5, 1.5)
        p = None
    tol = 1e-8
    sol = solve_dual(K, y, scale=scale, C=C, p=p, tol=tol, shrinking=shrinking)
    assert sol.status == 0
    a = sol.alpha
    assert np.all(a >= 0) and np.all(a <= C)
    assert abs(a @ y) <= 1e-10 * max(1.0, a.sum())
    gap = naive.dual_kkt_violation(K, y, scale, C, a, p)
    # the running gradient accumulates rounding of order ε·Σ|Q_ij α_j|
    assert gap <= tol + 1e-9 * (1 + scale * np.abs(K).sum(axis=1).max() * C.max())
    # the solver's gradient is the true gradient
    pp = -np.ones(n) if p is None else p
    G = scale * y * (K @ (y * a)) + pp
    np.testing.assert_allclose(sol.gradient, G, atol=1e-9 * (1 + np.abs(G).max()))


# ---------------------------------------------------------------- robustness
def test_reports_non_convergence():
    X, y = wahba_like(100, seed=1)
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        m = SVMClassifier(lam=1e-6, sigma=0.3, max_iter=5).fit(X, y)
    assert m.status_ == 1 and m.n_iter_ == 5


def test_converged_fit_does_not_warn():
    X, y = wahba_like(100, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        SVMClassifier(lam=1e-3, sigma=1.0).fit(X, y)


@pytest.mark.parametrize(
    "X,y,params,match",
    [
        (np.array([[0.0, np.nan], [1, 1], [2, 2]]), [1, -1, 1], {}, "contains NaN"),
        (np.ones((3, 2)), [1, 1, 1], {}, "only one class"),
        (np.ones((3, 2)), [1, -1], {}, "inconsistent numbers of samples"),
        (np.ones((3, 2)), [1, -1, 1], {"lam": 0}, "lam"),
        (np.ones((3, 2)), [1, -1, 1], {"lam": -1}, "lam"),
        (np.ones((3, 2)), [1, -1, 1], {"sigma": np.inf}, "sigma"),
        (np.ones((3, 2)), [1, -1, 1], {"L": (1, 0)}, "L\\(\\+1\\)"),
        (np.ones((3, 2)), [1, -1, 1], {"kernel": "nope"}, "kernel"),
        (np.ones((3, 2)), [1, -1, 1], {"tol": 0}, "tol"),
        ([["a", "b"], ["c", "d"]], [1, -1], {}, "could not convert string to float"),
    ],
)
def test_bad_input_raises_clear_value_error(X, y, params, match):
    with pytest.raises(ValueError, match=match):
        SVMClassifier(**params).fit(X, y)


def test_unfitted_and_wrong_width():
    with pytest.raises(ValueError, match="not fitted"):
        SVMClassifier().decision_function(np.ones((2, 2)))
    X, y = wahba_like(30, seed=0)
    m = SVMClassifier().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        m.decision_function(np.ones((2, 3)))


def test_estimator_contract():
    m = SVMClassifier(lam=0.01, sigma=2.0, L=(1.5, 0.5))
    assert m.get_params()["lam"] == 0.01
    c = clone(m)
    assert c.get_params() == m.get_params()
    X, y = wahba_like(40, seed=0)
    assert m.fit(X, y) is m
    assert m.alpha_.shape == (40,) and m.support_.ndim == 1
    assert np.all(m.alpha_ <= np.where(y > 0, 0.5, 1.5) + 1e-15)


def test_lambda_sequence_validation():
    K = np.eye(4)
    y = np.array([1.0, -1, 1, -1])
    with pytest.raises(ValueError, match="λ"):
        fit_lambda_sequence(K, y, [1e-3, -1])
    with pytest.raises(ValueError, match="square"):
        fit_lambda_sequence(np.ones((4, 3)), y, [1e-3])
