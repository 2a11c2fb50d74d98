"""IRWLS SVC and the unbiased SVC (Navia-Vázquez et al. 2004) against independent references.

References: libsvm through sklearn ``SVC(kernel="linear")`` (also on the whitened prototype features
for the kernel machine), finite differences, the plain-NumPy iteration and loops of
``tests/naive/usvc.py``, scipy's scalar minimiser, and the KKT conditions (Navia-Vázquez et al. 2004, eqs. 8–13).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as hst
from scipy.optimize import minimize_scalar
from sklearn.base import clone
from sklearn.datasets import make_blobs, make_classification
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from svmviz.usvc import _irwls
from svmviz.kernels import gram
from svmviz.usvc import (IRWLSClassifier, empirical_ce, fscl_prototypes, primal_profile,
                         primal_surface, primal_value, theta_smooth, theta_smooth_derivative)

from tests.naive import usvc as nv


def scenario_like(n, seed, case="A"):
    """Scenario A/B of (Navia-Vázquez et al. 2004, eqs. 28–29) drawn here with NumPy (independent of svmviz.data)."""
    rng = np.random.default_rng(seed)
    if case == "A":
        npos = rng.binomial(n, 2 / 3)
        comp = rng.random(npos) < 0.75
        xp = np.where(comp, rng.normal(0.75, 0.15, npos), rng.normal(0.2, 0.02, npos))
    else:
        npos = rng.binomial(n, 0.7)
        comp = rng.random(npos) < 1 / 1.4
        xp = np.where(comp, rng.uniform(0.7, 0.95, npos), rng.normal(0.25, 0.02, npos))
    xn = rng.uniform(0, 0.5, n - npos)
    return np.r_[xp, xn][:, None], np.r_[np.ones(npos), -np.ones(n - npos)]


def classification(n, d, seed, flip=0.1):
    X, y = make_classification(n, d, n_informative=min(d, 2), n_redundant=0, n_clusters_per_class=1,
                               flip_y=flip, random_state=seed)
    return X, np.where(y == 1, 1.0, -1.0)


def rel_diff(w, b, w_ref, b_ref):
    a = np.r_[np.ravel(w), b]
    r = np.r_[np.ravel(w_ref), b_ref]
    return np.max(np.abs(a - r)) / np.max(np.abs(r))


# ----------------------------------------------------------------------------------------------
# the IRWLS SVC equals the QP solution
# ----------------------------------------------------------------------------------------------
CASES = [
    ("2-D noisy", lambda: classification(150, 2, 0), 1.0),
    ("3-D noisy", lambda: classification(200, 3, 1), 0.5),
    ("5-D noisy", lambda: classification(120, 5, 2, flip=0.2), 2.0),
    ("1-D scenario A, C=10", lambda: scenario_like(300, 3, "A"), 10.0),
    ("1-D scenario B, C=10", lambda: scenario_like(300, 4, "B"), 10.0),
    ("separable blobs", lambda: (lambda X, y: (X, 2.0 * y - 1))(*make_blobs(80, 2, centers=[[-3, 0], [3, 0]],
                                                                          random_state=5)), 1.0),
]


@pytest.mark.parametrize("name,make,C", CASES, ids=[c[0] for c in CASES])
def test_irwls_hinge_equals_libsvm(name, make, C):
    X, y = make()
    clf = IRWLSClassifier(C=C).fit(X, y)
    ref = SVC(kernel="linear", C=C, tol=1e-12).fit(X, y)
    assert clf.status_ == 0
    assert rel_diff(clf.coef_, clf.intercept_, ref.coef_, ref.intercept_[0]) < 1e-4
    # primal value: ours is not above libsvm's (both optimal up to tolerance)
    P_ref = nv.primal_naive(X, y, ref.coef_[0], ref.intercept_[0], C)
    assert clf.primal_ <= P_ref * (1 + 1e-7)
    assert clf.primal_ == pytest.approx(nv.primal_naive(X, y, clf.coef_[0], clf.intercept_, C), rel=1e-12)


def test_literal_paper_weights_solve_the_problem_with_2C():
    """(Navia-Vázquez et al. 2004, eq. 22) a_i = 2α_i/(e_i y_i): the fixed point is the SVC with 2C (see svmviz.usvc docstring)."""
    X, y = scenario_like(300, 3, "A")
    C = 1.0
    lit = IRWLSClassifier(C=C, weight_factor=2.0).fit(X, y)
    ref2 = SVC(kernel="linear", C=2 * C, tol=1e-12).fit(X, y)
    ref1 = SVC(kernel="linear", C=C, tol=1e-12).fit(X, y)
    assert rel_diff(lit.coef_, lit.intercept_, ref2.coef_, ref2.intercept_[0]) < 1e-4
    assert rel_diff(lit.coef_, lit.intercept_, ref1.coef_, ref1.intercept_[0]) > 1e-2


def test_trajectory_matches_plain_numpy_iteration():
    X, y = classification(100, 2, 7)
    clf = IRWLSClassifier(C=2.0, loss="smooth_step").fit(X, y)
    h = clf.history_
    # row 0 is the regularised LS solution (a_i = 1)
    w_ls, b_ls = nv.ridge_ls(X, y)
    np.testing.assert_allclose(h.coef[0], w_ls, rtol=1e-10, atol=1e-12)
    assert h.intercept[0] == pytest.approx(b_ls, rel=1e-10, abs=1e-12)
    # the next SVC iterates follow the plain-NumPy damped IRWLS
    ref = nv.irwls_naive(X, y, 2.0, 15)
    for t in range(1, 16):
        np.testing.assert_allclose(h.coef[t], ref[t][0], rtol=1e-7, atol=1e-9)
        assert h.intercept[t] == pytest.approx(ref[t][1], rel=1e-7, abs=1e-9)
    # the USVC stage starts where the SVC stage ended, and follows the smooth-step iteration
    svc_rows = np.flatnonzero(h.stage == 1)
    u_rows = np.flatnonzero(h.stage == 2)
    np.testing.assert_array_equal(h.coef[u_rows[0]], h.coef[svc_rows[-1]])
    ref_u = nv.irwls_naive(X, y, 2.0, 5, loss="smooth_step", start=(h.coef[u_rows[0]], h.intercept[u_rows[0]]))
    for t in range(1, 6):
        np.testing.assert_allclose(h.coef[u_rows[t]], ref_u[t][0], rtol=1e-7, atol=1e-9)
    # last history row is the fitted machine; primal column matches the naive primal
    np.testing.assert_array_equal(h.coef[-1], clf.coef_[0])
    for t in (0, 5, svc_rows[-1]):
        assert h.primal[t] == pytest.approx(nv.primal_naive(X, y, h.coef[t], h.intercept[t], 2.0), rel=1e-10)
    assert h.primal[-1] == pytest.approx(
        nv.primal_naive(X, y, h.coef[-1], h.intercept[-1], 2.0, "smooth_step"), rel=1e-10)


def test_history_past_its_first_rows_holds_every_iterate():
    # the recorded history starts with HISTORY_ROWS rows and doubles: row t must be the iterate a fit
    # stopped after t iterations ends at, on both sides of every doubling
    X, y = classification(120, 3, 11)
    plain = dict(C=5.0, exact_finish=False, tol=1e-300, tol_f=1e-300)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf = IRWLSClassifier(max_iter=300, **plain).fit(X, y)
        h, T = clf.history_, clf.n_iter_
        rows = _irwls.HISTORY_ROWS
        assert T > 2 * rows + 1 and h.coef.shape == (T + 1, 3) and h.intercept.shape == h.primal.shape == (T + 1,)
        for t in (rows - 1, rows, rows + 1, 2 * rows, 2 * rows + 1, T):
            stopped = IRWLSClassifier(max_iter=t, **plain).fit(X, y)
            np.testing.assert_array_equal(h.coef[t], stopped.coef_[0])
            assert h.intercept[t] == stopped.intercept_
            assert h.primal[t] == pytest.approx(nv.primal_naive(X, y, h.coef[t], h.intercept[t], 5.0), rel=1e-10)


# ----------------------------------------------------------------------------------------------
# the smooth step loss θ̃_s
# ----------------------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(s=hst.floats(1.0, 8.0), logk=hst.floats(-7.0, -1.0),
       xi=hst.floats(0.0, 6.0).filter(lambda v: abs(v - 1.0) > 1e-3 and v > 1e-3))
def test_theta_matches_formula_and_finite_differences(s, logk, xi):
    k = 10.0 ** logk
    assert theta_smooth(xi, s, k) == pytest.approx(nv.theta_naive(xi, s, k), rel=1e-12, abs=1e-300)
    h = 1e-6 * max(1.0, xi)
    fd = (nv.theta_naive(xi + h, s, k) - nv.theta_naive(xi - h, s, k)) / (2 * h)
    assert theta_smooth_derivative(xi, s, k) == pytest.approx(fd, rel=1e-5, abs=1e-9)


@pytest.mark.parametrize("s", [1.0, 2.0, 4.0, 7.5])
def test_theta_shape(s):
    k = 1e-4
    kap = k ** (1 / s)
    assert float(theta_smooth(1.0, s, k)) == pytest.approx(0.5)
    # continuous, C¹ at ξ = 1; value and slope at 0
    e = 1e-9
    assert float(theta_smooth(1 - e, s, k)) == pytest.approx(float(theta_smooth(1 + e, s, k)), abs=1e-8)
    assert float(theta_smooth_derivative(1 - e, s, k)) == pytest.approx(
        float(theta_smooth_derivative(1.0, s, k)), rel=1e-6)
    assert float(theta_smooth_derivative(1.0, s, k)) == pytest.approx(s / (2 * (1 + kap)))
    assert float(theta_smooth(0.0, s, k)) == pytest.approx(k / (2 * (1 + kap) ** s))
    assert float(theta_smooth(-3.0, s, k)) == float(theta_smooth(0.0, s, k))
    xi = np.linspace(0, 10, 2001)
    th = theta_smooth(xi, s, k)
    assert np.all(np.diff(th) > 0) and np.all((th > 0) & (th < 1))
    # shape preserved
    assert theta_smooth(xi[:2000].reshape(40, 50), s, k).shape == (40, 50)


def test_theta_tends_to_the_step():
    xi = np.array([0.3, 0.8, 1.25, 3.0])
    step = np.array([0, 0, 1, 1])
    gaps = [np.abs(theta_smooth(xi, s, 1e-4) - step).max() for s in (2, 4, 8, 16, 50, 200)]
    assert np.all(np.diff(gaps) < 0)  # k^{1/s} → 1 as s grows, so the approach is gradual
    assert gaps[-1] < 1e-6


# ----------------------------------------------------------------------------------------------
# the USVC fixed point
# ----------------------------------------------------------------------------------------------
def _kkt_parts(clf, X, y, s, k):
    w, b, C = clf.coef_[0], clf.intercept_, clf.C
    f = X @ w + b
    xi = 1 - y * f
    # effective multipliers of the last weighted LS system: α_i = a_i ξ_i
    a = np.zeros(len(y))
    _irwls._weights(f, y, C, np.ones(y.shape[0]), _irwls.LOSS_SMOOTH_STEP, s, k, clf.a_max, 1.0, a)
    return w, b, xi, a * np.maximum(xi, 0)


@pytest.mark.parametrize("case,seed,s", [("A", 11, 2.0), ("B", 12, 2.0), ("A", 13, 4.0), ("2d", 14, 2.0)])
def test_smooth_step_kkt_fixed_point(case, seed, s):
    k, C = 1e-4, 10.0
    X, y = classification(200, 2, seed, flip=0.15) if case == "2d" else scenario_like(400, seed, case)
    # a tight tol: margin points carry α_i = a_max ξ_i, so the KKT residual amplifies the last
    # iterate's error (the default tol gives ~1e-5 here; the primal check below uses the default)
    clf = IRWLSClassifier(C=C, loss="smooth_step", s=s, k_eps=k, tol=1e-11).fit(X, y)
    assert clf.status_ == 0
    w, b, xi, alpha = _kkt_parts(clf, X, y, s, k)
    scale = C * np.sum(np.abs(alpha) > 0) + 1
    # (Navia-Vázquez et al. 2004, eq. 10) w = Σ α_i y_i x_i and (Navia-Vázquez et al. 2004, eq. 9) Σ α_i y_i = 0
    np.testing.assert_allclose(w, (alpha * y) @ X, atol=1e-6 * max(1.0, np.abs(w).max()))
    assert abs(np.sum(alpha * y)) < 1e-6 * scale
    # (Navia-Vázquez et al. 2004, eqs. 8 and 21): away from the margin α_i = C θ̃'(ξ_i) (ξ_i > 0) or 0 (ξ_i < 0)
    off = np.abs(xi) > 1e-5
    expect = np.where(xi > 0, C * theta_smooth_derivative(np.maximum(xi, 0), s, k), 0.0)
    np.testing.assert_allclose(alpha[off], expect[off], rtol=1e-8, atol=1e-12)
    # on the margin α_i lies in the subdifferential [0, C θ̃'(0)] of the kink at ξ = 0
    on = ~off
    assert np.all(alpha[on] >= 0) and np.all(alpha[on] <= C * theta_smooth_derivative(0.0, s, k) * (1 + 1e-6))
    # and the default-tol solution is a local minimum of the primal: no small move lowers it
    clf = IRWLSClassifier(C=C, loss="smooth_step", s=s, k_eps=k).fit(X, y)
    w, b = clf.coef_[0], clf.intercept_
    P0 = nv.primal_naive(X, y, w, b, C, "smooth_step", s, k)
    rng = np.random.default_rng(seed)
    for eps in (1e-4, 1e-3, 1e-2):
        for _ in range(10):
            v = rng.normal(size=X.shape[1] + 1)
            v /= np.linalg.norm(v)
            vw = w + eps * v[:-1] * max(1, np.abs(w).max())
            vb = b + eps * v[-1] * max(1, abs(b))
            assert nv.primal_naive(X, y, vw, vb, C, "smooth_step", s, k) >= P0 * (1 - 1e-9)


@pytest.mark.parametrize("loss", ["hinge", "smooth_step"])
def test_tolerance_below_rounding_floor_still_converges(loss):
    """A tol under the weighted LS solve's rounding floor must not cycle to max_iter.

    Regression: steps at rounding level (~1e-14 relative) neither shrink nor contract, and the
    iteration ran to max_iter with tol = 1e-11 on scenario A (seed 11).
    """
    X, y = scenario_like(400, 11, "A")
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        tight = IRWLSClassifier(C=10.0, loss=loss, tol=1e-14, max_iter=2000).fit(X, y)
    ref = IRWLSClassifier(C=10.0, loss=loss, tol=1e-10).fit(X, y)
    assert tight.status_ == 0 and tight.n_iter_ < 2000
    np.testing.assert_allclose(np.r_[tight.coef_[0], tight.intercept_], np.r_[ref.coef_[0], ref.intercept_],
                               rtol=1e-8)


def test_usvc_moves_scenario_a_threshold_to_the_global_minimum():
    """(Navia-Vázquez et al. 2004, §3, Table 1): SVC is biased (Th ≈ 0.35); the USVC from it moves to Th ≈ 0.5."""
    X, y = scenario_like(500, 21, "A")
    svc = IRWLSClassifier(C=10.0).fit(X, y)
    usvc = IRWLSClassifier(C=10.0, loss="smooth_step").fit(X, y)
    assert 0.28 < svc.threshold_ < 0.42
    assert 0.44 < usvc.threshold_ < 0.56
    ce = lambda c: np.mean(c.predict(X) != y)  # noqa: E731
    assert ce(usvc) < ce(svc)
    # the USVC lowers the smooth-step primal below the SVC point's value
    P_svc_pt = nv.primal_naive(X, y, svc.coef_[0], svc.intercept_, 10.0, "smooth_step")
    assert usvc.primal_ < P_svc_pt
    th, w, stage = usvc.trajectory()
    assert th.shape == w.shape == stage.shape and set(np.unique(stage)) == {0, 1, 2}
    assert th[-1] == pytest.approx(usvc.threshold_)


# ----------------------------------------------------------------------------------------------
# the semiparametric kernel machine
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["kmeans", "fscl"])
def test_kernel_machine_prediction_is_the_prototype_expansion(method):
    X, y = classification(150, 2, 3, flip=0.1)
    # tol 1e-6: a small kernel machine's rounding floor is ~eps·a_max (see IRWLSClassifier's tol)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = IRWLSClassifier(C=5.0, kernel="rbf", sigma=0.8, n_prototypes=8, prototypes=method,
                              loss="smooth_step", tol=1e-6).fit(X, y)
    assert clf.prototypes_.shape == (8, 2) and clf.beta_.shape == (8,) and clf.machine_size_ == 8
    Xt, _ = classification(40, 2, 4)
    ref = nv.rbf_decision_naive(Xt, clf.prototypes_, clf.beta_, clf.intercept_, 0.8)
    np.testing.assert_allclose(clf.decision_function(Xt), ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(clf.predict(Xt), np.where(ref > 0, 1.0, -1.0))


def test_kernel_machine_hinge_equals_libsvm_on_whitened_features():
    """½β'Gβ + C Σ ξ with f = Φβ + b is a linear SVC on Z = Φ L^{-T} (G = LL'), v = L'β."""
    X, y = classification(160, 2, 9, flip=0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = IRWLSClassifier(C=3.0, kernel="rbf", sigma=1.0, n_prototypes=6, tol=1e-6).fit(X, y)
    Phi = gram(X, clf.prototypes_, kernel="rbf", sigma=1.0)
    G = gram(clf.prototypes_, kernel="rbf", sigma=1.0)
    G[np.diag_indices_from(G)] += 1e-10 * max(1.0, np.mean(np.diag(G)))
    L = np.linalg.cholesky(G)
    Z = scipy.linalg.solve_triangular(L, Phi.T, lower=True).T
    ref = SVC(kernel="linear", C=3.0, tol=1e-12).fit(Z, y)
    f_ref = ref.decision_function(Z)
    scale = np.abs(f_ref).max()
    np.testing.assert_allclose(clf.train_decision_, f_ref, atol=1e-4 * scale)
    beta_ref = scipy.linalg.solve_triangular(L.T, ref.coef_[0], lower=False)
    assert rel_diff(clf.beta_, clf.intercept_, beta_ref, ref.intercept_[0]) < 1e-4


def test_fscl_prototypes():
    X, _ = make_blobs(300, 2, centers=[[0, 0], [5, 5], [0, 6]], cluster_std=0.5, random_state=0)
    c1, wins = fscl_prototypes(X, 3, random_state=4)
    c2, _ = fscl_prototypes(X, 3, random_state=4)
    np.testing.assert_array_equal(c1, c2)
    assert wins.sum() == 300
    # one prototype per blob, near its centre
    for centre in ([0, 0], [5, 5], [0, 6]):
        assert np.min(np.linalg.norm(c1 - centre, axis=1)) < 0.5
    with pytest.raises(ValueError, match="n_prototypes"):
        fscl_prototypes(X[:5], 6)


@settings(max_examples=20, deadline=None)
@given(seed=hst.integers(0, 10_000), n=hst.integers(8, 60), d=hst.integers(1, 7), R=hst.integers(1, 8),
       epochs=hst.integers(1, 4))
def test_fscl_matches_the_point_by_point_loop(seed, n, d, R, epochs):
    # the compiled FSCL keeps its prototypes transposed; the reference moves them row by row
    X = np.random.default_rng(seed).normal(size=(n, d))
    R = min(R, n)
    c, wins = fscl_prototypes(X, R, n_epochs=epochs, lr0=0.4, lr1=0.02, random_state=seed)
    c_ref, wins_ref = nv.fscl_naive(X, R, epochs, 0.4, 0.02, seed)
    np.testing.assert_allclose(c, c_ref, rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(wins, wins_ref)


# ----------------------------------------------------------------------------------------------
# surfaces, profiles and CE curves
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("loss", ["hinge", "smooth_step"])
def test_primal_surface_matches_loops(loss):
    X, y = scenario_like(60, 1, "B")
    th = np.linspace(-0.1, 1.1, 7)
    w = np.linspace(0, 25, 5)
    got = primal_surface(X[:, 0], y, th, w, C=10.0, loss=loss, s=3.0)
    ref = nv.primal_grid_naive(X[:, 0], y, th, w, 10.0, loss, 3.0)
    np.testing.assert_allclose(got, ref, rtol=1e-12)
    assert primal_value(X, y, [w[2]], -w[2] * th[3], C=10.0, loss=loss, s=3.0) == pytest.approx(ref[2, 3])


def test_profile_hinge_is_exact_minimum_over_w():
    X, y = scenario_like(200, 2, "A")
    th = np.linspace(0.0, 0.9, 10)
    prof = primal_profile(X, y, th, C=10.0)
    for j, t in enumerate(th):
        r = minimize_scalar(lambda v: nv.primal_naive(X, y, [v], -v * t, 10.0), bounds=(0, 200),
                            method="bounded", options={"xatol": 1e-10})
        assert prof.value[j] <= r.fun * (1 + 1e-9)
        assert prof.value[j] == pytest.approx(r.fun, rel=1e-7)
    np.testing.assert_allclose(prof.per_sample, prof.value / (10.0 * 200))


def test_profile_smooth_step_not_above_dense_brute_force():
    X, y = scenario_like(150, 5, "A")
    th = np.linspace(0.05, 0.8, 6)
    prof = primal_profile(X, y, th, C=10.0, loss="smooth_step", n_w=300)
    w_dense = np.linspace(0, prof.w.max() * 3 + 10, 6000)
    dense = nv.primal_grid_vectorised(X[:, 0], y, th, w_dense, 10.0, "smooth_step").min(axis=0)
    np.testing.assert_allclose(nv.primal_grid_vectorised(X[:, 0], y, th, w_dense[::1000], 10.0, "smooth_step"),
                               nv.primal_grid_naive(X[:, 0], y, th, w_dense[::1000], 10.0, "smooth_step"),
                               rtol=1e-12)
    assert np.all(prof.value <= dense + 1e-9 * dense)
    assert np.all(prof.value >= dense - 1e-3 * dense)  # the dense grid is within 0.1 %
    # the value reported is L̃ at the reported w
    for j, t in enumerate(th):
        assert prof.value[j] == pytest.approx(
            nv.primal_naive(X, y, [prof.w[j]], -prof.w[j] * t, 10.0, "smooth_step"), rel=1e-12)


def test_empirical_ce_matches_loops():
    X, y = scenario_like(90, 6, "A")
    th = np.r_[np.linspace(-0.2, 1.2, 15), X[3, 0]]  # including a threshold exactly at a point
    np.testing.assert_allclose(empirical_ce(X, y, th), nv.empirical_ce_naive(X[:, 0], y, th))


# ----------------------------------------------------------------------------------------------
# contracts: sklearn, validation, warnings
# ----------------------------------------------------------------------------------------------
def test_sklearn_contract_and_labels():
    X, y = classification(80, 2, 0)
    est = IRWLSClassifier(C=2.0, loss="smooth_step")
    assert clone(est).get_params() == est.get_params()
    labels = np.where(y > 0, "yes", "no")
    clf = est.fit(X, labels)
    assert clf is est and list(clf.classes_) == ["no", "yes"]
    assert set(clf.predict(X)) <= {"no", "yes"}
    assert clf.score(X, labels) > 0.7
    assert np.isnan(clf.threshold_)
    with pytest.raises(ValueError, match="one-dimensional"):
        clf.trajectory()


@pytest.mark.parametrize("kwargs,X_bad,match", [
    (dict(loss="squared"), None, "loss must be"),
    (dict(s=0.5), None, "s .*at least 1"),
    (dict(damping=1.0), None, "damping"),
    (dict(C=-1.0), None, "C must be"),
    (dict(k_eps=2.0), None, "k_eps"),
    (dict(kernel="rbf", n_prototypes=1000), None, "n_prototypes"),
    (dict(prototypes="pca", kernel="rbf"), None, "prototypes must be"),
    ({}, "nan", "NaN"),
    ({}, "one_class", "only one class"),
])
def test_bad_input_raises_with_a_fix(kwargs, X_bad, match):
    X, y = classification(40, 2, 0)
    if X_bad == "nan":
        X = X.copy()
        X[3, 1] = np.nan
    if X_bad == "one_class":
        y = np.ones_like(y)
    with pytest.raises(ValueError, match=match):
        IRWLSClassifier(**kwargs).fit(X, y)


def test_not_converged_warns_and_records_status():
    X, y = classification(150, 3, 0)
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        clf = IRWLSClassifier(C=1.0, max_iter=3).fit(X, y)
    assert clf.status_ == _irwls.STATUS_MAX_ITER and clf.n_iter_ == 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        IRWLSClassifier(C=1.0).fit(X, y)


def test_unfitted_and_wrong_shape():
    with pytest.raises(ValueError, match="not fitted"):
        IRWLSClassifier().decision_function(np.zeros((2, 2)))
    X, y = classification(40, 2, 0)
    clf = IRWLSClassifier().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        clf.predict(np.zeros((3, 5)))


# ----------------------------------------------------------------------------------------------
# the Table 1 study and the figures
# ----------------------------------------------------------------------------------------------
def test_table1_study_matches_direct_fits_and_is_reproducible():
    from sklearn.svm import SVC as _SVC

    from svmviz.data import make_dataset
    from svmviz.usvc import PAPER_TABLE1, table1_study, table1_summary

    calls = []
    r = table1_study("A", n_trials=3, n_train=150, n_test=120, seed=5, chunk=2,
                     progress=lambda d, t, m: calls.append((d, t)))
    assert calls == [(2, 3), (3, 3)]
    assert r.methods == ("LS", "SVC", "USVC(s=2)", "USVC(s=4)") and r.test_ce.shape == (3, 4)
    r2 = table1_study("A", n_trials=3, n_train=150, n_test=120, seed=5)
    np.testing.assert_array_equal(r.test_ce, r2.test_ce)
    for t in range(3):
        ds = make_dataset("usvc_A", n=150, seed=int(r.seeds[t]))
        te = ds.test_sample(120, int(r.seeds[t]))
        w_ls, b_ls = nv.ridge_ls(ds.X, ds.y)
        assert r.coef[t, 0] == pytest.approx(w_ls[0], rel=1e-9)
        ref = _SVC(kernel="linear", C=10.0, tol=1e-12).fit(ds.X, ds.y)
        assert rel_diff(r.coef[t, 1], r.intercept[t, 1], ref.coef_[0], ref.intercept_[0]) < 1e-4
        u = IRWLSClassifier(C=10.0, loss="smooth_step", s=4.0).fit(ds.X, ds.y)
        assert r.threshold[t, 3] == pytest.approx(u.threshold_, rel=1e-9)
        assert r.test_ce[t, 3] == pytest.approx(100 * np.mean(u.decision_function(te.X) * te.y <= 0))
        assert r.train_ce[t, 1] == pytest.approx(100 * np.mean((ds.X[:, 0] * r.coef[t, 1] + r.intercept[t, 1])
                                                               * ds.y <= 0))
    rows = table1_summary(r)
    assert rows[2]["paper_test_ce_mean"] == PAPER_TABLE1["A"]["USVC(s=2)"]["test_ce"][0] == 20.4
    assert rows[1]["test_ce_mean"] == pytest.approx(np.mean(r.test_ce[:, 1]))
    with pytest.raises(ValueError, match="scenario"):
        table1_study("C")


def test_figures_compute_and_plot():
    from svmviz.data import make_dataset, usvc_theoretical_ce
    from svmviz.figures import usvc as F

    ds = make_dataset("usvc_A", n=200, seed=1)
    clf = IRWLSClassifier(C=10.0, loss="smooth_step").fit(ds.X, ds.y)
    tr = F.compute_trajectory(clf)
    assert tr.usvc[0] == pytest.approx(clf.threshold_) and tr.svc[0] == pytest.approx(
        IRWLSClassifier(C=10.0).fit(ds.X, ds.y).threshold_)
    surf = F.compute_error_surface(ds.X, ds.y, loss="smooth_step", n_th=21, n_w=11, w_max=15.0)
    assert surf.L.shape == (11, 21)
    np.testing.assert_allclose(surf.L, nv.primal_grid_vectorised(ds.X[:, 0], ds.y, surf.th, surf.w, 10.0,
                                                                 "smooth_step"), rtol=1e-12)
    np.testing.assert_allclose(surf.ce_emp, nv.empirical_ce_naive(ds.X[:, 0], ds.y, surf.th))
    view = F.compute_scenario_view("B", n_sample=5000, th=np.linspace(0, 1, 11))
    np.testing.assert_allclose(view.ce_theory, usvc_theoretical_ce("B", np.linspace(0, 1, 11)))
    # the histogram densities integrate to one (both classes together)
    width = view.bin_centres[1] - view.bin_centres[0]
    assert (view.dens_plus.sum() + view.dens_minus.sum()) * width == pytest.approx(1.0, abs=1e-9)
    figs = [F.plot_scenario(view), F.plot_error_surface(surf, tr, n_steps=4),
            F.plot_ce_profiles([surf], ce_theory=view.ce_theory, th_theory=view.th, marks={"USVC": 0.5})]
    from svmviz.usvc import kernel_comparison

    kc = F.compute_kernel_comparison(kernel_comparison(make_dataset("banana", n=80, seed=0).X,
                                                       make_dataset("banana", n=80, seed=0).y,
                                                       sigma=1.5, n_prototypes=6), grid=15)
    assert kc.f_usvc.shape == (15, 15) and kc.prototypes.shape == (6, 2) and kc.size_usvc == 6
    assert kc.size_svm == kc.support.size > 0 and 0 <= kc.test_error_usvc <= 1
    figs += [F.plot_kernel_comparison(kc), F.plot_machine_size(kc)]
    for fig in figs:
        assert fig.layout.title.text and fig.layout.xaxis.title.text
        assert all(t.hovertemplate or t.hoverinfo == "skip" for t in fig.data)


@pytest.mark.parametrize("params, words", [
    (dict(kernel="linear", sigma=0.3), "sigma=0.3 has no meaning for kernel='linear'"),
    (dict(kernel="poly", sigma=0.3), "sigma=0.3 has no meaning for kernel='poly'"),
    (dict(kernel="rbf", gamma=5.0), "sigma = 1/√(2γ)"),
    (dict(kernel="linear", gamma=5.0), "gamma=5.0 has no meaning for kernel='linear'"),
])
def test_irwls_kernel_parameter_the_kernel_ignores_is_refused(params, words):
    X, y = make_blobs(60, centers=2, random_state=0)
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        IRWLSClassifier(n_prototypes=5, **params).fit(X, y)
