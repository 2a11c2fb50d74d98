"""The ν-SVM regularization path and leave-one-out along it (Loosli & Canu 2006).

Independent references (tests/naive/path.py): the optimality certificate of the ν-problem (per
class, max_{α>0} s ≤ min_{α<1} s with s = Gα — it needs α only), a plain-numpy interior-point QP
solve, brute-force leave-one-out by refitting every point, and sklearn's ``NuSVC`` (libsvm).

How results are compared. ``s = Gα`` is unique over the optimal set (α is not, e.g. for duplicated
points). If α* is optimal and α is any feasible point, ½(α − α*)'G(α − α*) ≤ obj(α) − obj(α*), so
|s_i(α) − s_i(α*)| ≤ sqrt(2 G_ii (obj(α) − obj(α*))) — the tolerance used against a reference that
is only near-optimal (libsvm keeps its kernel cache in single precision and stops at its own
tolerance; the interior-point solve stops at ~1e-16 relative gap). It is a bound, not a fudge factor.
"""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_moons
from sklearn.exceptions import ConvergenceWarning

from svmviz.path import _solver as _nu_path
from svmviz.data import banana, esl_mixture, wahba2001
from svmviz.kernels import gram
from svmviz.path import (GROUP_E, GROUP_L, GROUP_NAMES, GROUP_R, LooPath, NuPath, NuSVMPath, auto_stop,
                         default_loo_lambdas, loo_at, loo_path, nu_path, zero_margin)

from tests.naive import path as nv


# ------------------------------------------------------------------------------- data sets
def moons_with_duplicates(n=140, noise=0.3, seed=1, n_dup=6):
    """Noisy two-moons plus ``n_dup`` exact copies of training rows (libsvm's NuSVC does
    not converge at small ν here)."""
    X, y = make_moons(n, noise=noise, random_state=seed)
    y = np.where(y > 0, 1.0, -1.0)
    idx = np.random.default_rng(seed).choice(n, n_dup, replace=False)
    return np.r_[X, X[idx]], np.r_[y, y[idx]]


def _dataset(name):
    if name == "banana":
        ds = banana(n=120, seed=0)
        return ds.X, ds.y, dict(kernel="rbf", sigma=1.0)
    if name == "esl":
        ds = esl_mixture(n=100, seed=1)
        return ds.X, ds.y, dict(kernel="rbf", sigma=0.7)
    if name == "linear":  # overlapping classes: ρ = 0 (f ≡ 0, reduced hulls intersect) for λ < 22
        ds = wahba2001(n=80, seed=0)
        return ds.X, ds.y, dict(kernel="linear")
    if name == "moons_dup":
        X, y = moons_with_duplicates()
        return X, y, dict(kernel="rbf", sigma=1.0)
    raise KeyError(name)


DATASETS = ["banana", "esl", "linear", "moons_dup"]


@functools.lru_cache(maxsize=None)
def fitted(name):
    X, y, kp = _dataset(name)
    p = nu_path(X, y, **kp)
    K = gram(X, **kp)
    return X, y, kp, p, K


def sklearn_kw(kp):
    if kp["kernel"] == "rbf":
        return dict(kernel="rbf", gamma=1.0 / (2 * kp["sigma"] ** 2))
    return dict(kernel="linear")


def thin(values, k):
    values = np.unique(values)
    if values.size <= k:
        return values
    return values[np.unique(np.round(np.linspace(0, values.size - 1, k)).astype(int))]


def obj_rounding(K, y, alpha, m):
    """Deterministic bound n·ε·½|v|'|K||v|/m on the rounding error of the computed ½α'Gα (v = α∘y)."""
    v = np.abs(alpha)
    return len(y) * np.finfo(float).eps * 0.5 * v @ np.abs(K) @ v / m


def s_bound(K, y, m, lam, a, a_ref):
    """Bound on |s(a) − s(a_ref)| from objective values (module docstring).

    For a feasible α with per-class violating-pair gap ε (``nv.kkt_gap``), obj(α) − obj* ≤ λ·ε
    (convexity: obj(α) − obj* ≤ s'(α − α*) ≤ Σ_c ε_c·λ/2). So ours is within e = λ·ε + rounding of
    the optimum, the reference within obj(a_ref) − obj(a) + e (plus its infeasibility times |s|),
    and |s_i − s_i*| ≤ sqrt(2 G_ii e) for each.
    """
    G_ii = np.diag(K) / m
    rnd = obj_rounding(K, y, a, m) + obj_rounding(K, y, a_ref, m)
    e_ours = lam * nv.kkt_gap(K, y, a, m) + rnd
    s_ref = y * (K @ (y * a_ref)) / m
    e_ref = (max(nv.dual_objective(K, y, a_ref, m) - nv.dual_objective(K, y, a, m), 0.0) + e_ours + rnd
             + nv.feasibility_error(y, a_ref, lam) * np.abs(s_ref).max())
    s_rnd = len(y) * np.finfo(float).eps * (np.abs(K) @ np.abs(a_ref) + np.abs(K) @ np.abs(a)) / m
    return np.sqrt(2 * G_ii * e_ours) + np.sqrt(2 * G_ii * e_ref) + s_rnd


TOL = 1e-9  # nu_path's default tol


def kkt_scale(K, lam, m):
    """The scale of nu_path's tolerance: max G_ii · max(λ, 1) (a bound on the size of the terms of s;
    s itself can be far smaller — ρ ≈ 0 where the data are nearly separable in feature space)."""
    return np.diag(K).max() / m * max(lam, 1.0)


def check_optimal(K, y, alpha, t, lam, m, where=""):
    """Feasibility, the α-only certificate, and the thresholds inside their optimal intervals, to the
    path's documented tolerance ``tol · max G_ii · max(λ, 1)``."""
    s = y * (K @ (y * alpha)) / m
    eps = TOL * kkt_scale(K, lam, m)
    # the kernel puts each class sum back to λ/2 after every step and snaps λ: what is left is rounding
    # (measured ≤ 6e-14·max(1, λ) on the four data sets and 60 random problems of the hypothesis kind)
    assert nv.feasibility_error(y, alpha, lam) <= 1e-12 * max(1.0, lam), where
    assert nv.kkt_gap(K, y, alpha, m) <= eps, (where, nv.kkt_gap(K, y, alpha, m), eps)
    for k, (lo, hi) in enumerate(nv.threshold_intervals(K, y, alpha, m)):
        assert lo - eps <= t[k] <= hi + eps, (where, k, lo, t[k], hi)
    return s, np.abs(s).max()


# ------------------------------------------------------------------------------- against NuSVC
@pytest.mark.parametrize("name", DATASETS)
def test_path_matches_nusvc_at_and_between_breakpoints(name):
    """at breakpoints (thinned to 15) and at midpoints between them the path's solution is
    optimal (certificate), and equals NuSVC(nu=λ/m) up to NuSVC's positive scale where libsvm
    converged; where it did not, ours is at least as good as the interior-point reference."""
    check_against_nusvc(name, *fitted(name))


def check_against_nusvc(name, X, y, kp, p, K, n_lambdas=15, min_checked=8):
    """The body of :func:`test_path_matches_nusvc_at_and_between_breakpoints` for one fitted path:
    ``n_lambdas`` breakpoints and the midpoints between them, of which at least ``min_checked``
    where libsvm converged and ``min_checked`` where both classes have a free point."""
    m = len(y)
    assert p.status == 0, p.message
    assert p.lambdas[0] == 0 and p.lambdas[-1] == p.lambda_max
    assert np.all(np.diff(p.lambdas) >= 0)
    lams = thin(p.lambdas[p.lambdas > 0], n_lambdas)
    mids = 0.5 * (lams[:-1] + lams[1:])
    Xg = np.random.default_rng(0).uniform(X.min(0), X.max(0), size=(50, X.shape[1]))
    Kg = gram(Xg, X, **kp)
    kxx = np.diag(gram(Xg, Xg, **kp))
    n_conv = n_fail = n_unique = 0
    for lam in np.r_[lams, mids]:
        a, b, rho = p.state_at(lam)
        t = (rho - b, rho + b)
        s, scale = check_optimal(K, y, a, t, lam, m, where=f"{name} λ={lam}")
        obj = nv.dual_objective(K, y, a, m)
        conv, a_ref, b_ref, rho_ref, clf = nv.nusvc_reference(X, y, lam, **sklearn_kw(kp))
        if conv:
            n_conv += 1
        else:
            n_fail += 1
            a_ref, t_ref = nv.nu_qp(K, y, lam, m)  # libsvm failed: the interior-point reference
            b_ref, rho_ref = 0.5 * (t_ref[1] - t_ref[0]), 0.5 * (t_ref[0] + t_ref[1])
        obj_ref = nv.dual_objective(K, y, a_ref, m)
        gap = nv.kkt_gap(K, y, a, m)
        # ours at least as good as the reference, up to its own certified suboptimality λ·gap
        assert obj <= obj_ref + lam * gap + obj_rounding(K, y, a, m) + obj_rounding(K, y, a_ref, m), (name, lam)
        s_ref = y * (K @ (y * a_ref)) / m
        tol_s = s_bound(K, y, m, lam, a, a_ref)
        assert np.all(np.abs(s - s_ref) <= tol_s), (name, lam, np.abs(s - s_ref).max())
        gap_ref = nv.kkt_gap(K, y, nv.snap(a_ref), m)
        if conv and gap_ref < 1e-8 * scale:  # libsvm at its best: plain agreement
            # libsvm's kernel cache is single precision (ε₃₂ = 6e-8): 1e-6 is ~16 ε₃₂ (measured ≤ 1.2e-8)
            np.testing.assert_allclose(s, s_ref, atol=1e-6 * scale, rtol=0)
        # the kernel part of the decision function on fresh points: |k(x)'Δ(αy)|/m ≤ sqrt(k(x,x)/K_ii)·tol_s
        kg = Kg @ (y * (a - a_ref)) / m
        kg_bound = np.sqrt(kxx / np.diag(K).min()) * tol_s.max()
        assert np.all(np.abs(kg) <= kg_bound), (name, lam)
        # thresholds: the reference's lie in our optimal intervals; unique where a class has a free point
        slack = tol_s.max() + gap_ref + TOL * kkt_scale(K, lam, m)
        t_ref = (rho_ref - b_ref, rho_ref + b_ref)
        for k, (lo, hi) in enumerate(nv.threshold_intervals(K, y, a, m)):
            assert lo - slack <= t_ref[k] <= hi + slack, (name, lam, k, lo, t_ref[k], hi)
        free = (a > 0) & (a < 1)
        if free[y > 0].any() and free[y < 0].any():
            n_unique += 1
            assert abs(t[0] - t_ref[0]) <= slack and abs(t[1] - t_ref[1]) <= slack, (name, lam)
            if conv:  # the decision function equals NuSVC's times NuSVC's margin ρ
                dec = p.decision_function(Xg, lam)
                assert np.all(np.abs(dec - rho_ref * clf.decision_function(Xg)) <= kg_bound + slack)
                assert rho >= -TOL * kkt_scale(K, lam, m)
    assert n_conv >= min_checked and n_unique >= min_checked
    if name == "moons_dup":
        assert n_fail >= 1  # the case libsvm cannot do is really exercised


@pytest.mark.parametrize("name", DATASETS)
def test_every_breakpoint_is_optimal_and_jumps_stay_in_the_interval(name):
    """Both records of a jump of b, ρ (equal consecutive λ) are optimal thresholds: inside the
    interval [max_{α>0} s, min_{α<1} s] of their class, which is wider than a point there."""
    X, y, kp, p, K = fitted(name)
    m = len(y)
    for k in range(1, p.n_breakpoints):
        check_optimal(K, y, p.alphas[k], p.thresholds[k], p.lambdas[k], m, where=f"{name} #{k}")
    jumps = np.flatnonzero(np.diff(p.lambdas) == 0)
    for k in jumps:
        assert np.any(np.abs(p.thresholds[k] - p.thresholds[k + 1]) > 0)
        np.testing.assert_array_equal(p.alphas[k], p.alphas[k + 1])
    if name != "banana":  # jumps happen at even λ (λ/2 bounded points fill a class exactly)
        assert jumps.size >= 1
        # λ is snapped onto the even integer there (config.LAMBDA_SNAP_RTOL): measured exactly even
        np.testing.assert_allclose(p.lambdas[jumps], 2 * np.round(p.lambdas[jumps] / 2), rtol=1e-10)


def test_path_starts_at_the_hull_solution_and_ends_full():
    X, y, kp, p, K = fitted("banana")
    m = len(y)
    # α = λ·α̂ on the first segment: α̂ the closest points of the convex hulls (hard margin)
    lam1 = p.lambdas[1]
    a_hat, _ = nv.nu_qp(K, y, 1.0, m)  # λ = 1 is on the first segment (first event at λ ≥ 2)
    assert lam1 >= 2 - 1e-12
    s_hat = y * (K @ (y * a_hat)) / m
    s1 = y * (K @ (y * p.alphas[1])) / m
    # the interior-point reference stops at ~1e-16 relative gap, s to ~sqrt of it (measured 3e-12)
    np.testing.assert_allclose(s1 / lam1, s_hat, atol=1e-9 * np.abs(s_hat).max())
    assert np.all(p.alphas[-1] == 1.0)  # balanced classes: λ_max = m, every point bounded
    assert np.all(p.groups[-1] == GROUP_L) and np.all(p.groups[0] == GROUP_R)
    assert set(GROUP_NAMES) == {GROUP_R, GROUP_E, GROUP_L}


# ------------------------------------------------------------------------------- random problems
@st.composite
def problems(draw):
    m = draw(st.integers(4, 30))
    seed = draw(st.integers(0, 2**31 - 1))
    kind = draw(st.sampled_from(["rbf", "rbf_grid", "linear", "linear_1d", "poly"]))
    n_dup = draw(st.integers(0, 4))
    rng = np.random.default_rng(seed)
    d = 1 if kind == "linear_1d" else 2
    if kind == "rbf_grid":  # integer grid: many tied distances
        X = rng.integers(0, 3, size=(m, d)).astype(float)
    else:
        X = rng.normal(size=(m, d))
    y = np.where(rng.random(m) < draw(st.floats(0.2, 0.8)), 1.0, -1.0)
    y[0], y[1] = 1.0, -1.0
    if n_dup:
        idx = rng.integers(0, m, n_dup)
        X, y = np.r_[X, X[idx]], np.r_[y, y[idx]]
    kp = {"rbf": dict(kernel="rbf", sigma=float(10 ** draw(st.floats(-0.7, 0.7)))),
          "rbf_grid": dict(kernel="rbf", sigma=1.0),
          "linear": dict(kernel="linear"), "linear_1d": dict(kernel="linear"),
          "poly": dict(kernel="poly", degree=2, gamma=1.0, coef0=1.0)}[kind]
    return X, y, kp


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_kkt_along_the_path_on_random_problems(problem):
    """Ties, duplicates (even with opposite labels), a linear kernel with more margin points than
    its rank: at every breakpoint and at segment midpoints the solution is feasible and optimal;
    α_i y_i is linear between breakpoints (the interpolated state equals an independent solve)."""
    X, y, kp = problem
    m = len(y)
    p = nu_path(X, y, **kp)
    assert p.status == 0, p.message
    K = gram(X, **kp)
    assert p.lambdas[-1] == p.lambda_max == 2 * min(np.sum(y > 0), np.sum(y < 0))
    for k in range(1, p.n_breakpoints):
        check_optimal(K, y, p.alphas[k], p.thresholds[k], p.lambdas[k], m, where=f"#{k}")
        assert abs(p.alphas[k] @ y) <= 1e-12 * max(1.0, p.lambdas[k])  # as in check_optimal (≤ 6e-14)
        assert abs(p.alphas[k].sum() - p.lambdas[k]) <= 1e-12 * max(1.0, p.lambdas[k])
        assert np.all((p.alphas[k] >= 0) & (p.alphas[k] <= 1))
    seg = np.flatnonzero(np.diff(p.lambdas) > 0)
    for k in seg[np.linspace(0, seg.size - 1, min(4, seg.size)).astype(int)]:
        lam = 0.5 * (p.lambdas[k] + p.lambdas[k + 1])
        a, b, rho = p.state_at(lam)
        s, scale = check_optimal(K, y, a, (rho - b, rho + b), lam, m, where=f"mid {k}")
        a_ref, _ = nv.nu_qp(K, y, lam, m)
        obj, obj_ref = nv.dual_objective(K, y, a, m), nv.dual_objective(K, y, a_ref, m)
        assert obj <= obj_ref + lam * nv.kkt_gap(K, y, a, m) + obj_rounding(K, y, a, m) \
            + obj_rounding(K, y, a_ref, m)
        s_ref = y * (K @ (y * a_ref)) / m
        assert np.all(np.abs(s - s_ref) <= s_bound(K, y, m, lam, a, a_ref))
        assert p.kkt_violation(lam) <= TOL * kkt_scale(K, lam, m)


def test_duplicates_with_opposite_labels_and_a_single_point_class():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [2.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0])
    for kp in (dict(sigma=0.5), dict(kernel="linear")):
        p = nu_path(X, y, **kp)
        assert p.status == 0 and p.lambdas[-1] == 4.0
        K = gram(X, **kp)
        for k in range(1, p.n_breakpoints):
            check_optimal(K, y, p.alphas[k], p.thresholds[k], p.lambdas[k], len(y))
    p = nu_path(np.array([[0.0], [1.0], [2.0]]), [1, -1, -1], kernel="linear")
    assert p.status == 0 and p.lambdas[-1] == 2.0


# ------------------------------------------------------------------------------- leave-one-out
LOO_CASES = [  # (data, λ values: first segment, middle, ambiguous thresholds near λ_max, λ_max)
    ("banana40", [1.0, 6.0, 17.5, 31.0, 38.5, 40.0]),
    ("esl50", [2.0, 12.0, 30.0, 40.0, 47.0, 50.0]),
    ("moons_dup46", [0.5, 3.0, 10.0, 25.0, 40.0, 44.0]),
    ("linear40", [2.0, 6.0, 15.0, 26.0, 32.0]),  # ρ = 0 (f ≡ 0) below λ = 4
]


@functools.lru_cache(maxsize=None)
def loo_problem(name):
    if name == "banana40":
        ds = banana(n=40, seed=3)
        X, y, kp = ds.X, ds.y, dict(sigma=1.0)
    elif name == "esl50":
        ds = esl_mixture(n=50, seed=1)
        X, y, kp = ds.X, ds.y, dict(sigma=0.7)
    elif name == "moons_dup46":
        X, y = moons_with_duplicates(n=40, seed=4, n_dup=6)
        kp = dict(sigma=0.6)
    else:
        ds = wahba2001(n=40, seed=0)
        X, y, kp = ds.X, ds.y, dict(kernel="linear")
    p = nu_path(X, y, **kp)
    return X, y, kp, p, gram(X, **kp)


@pytest.mark.parametrize("name,lams", LOO_CASES)
def test_loo_equals_brute_force_refits(name, lams):
    """LOO1, LOO2 (and every leave-i-out value) equal refitting without each point: same λ (clipped
    to the reduced set's 2·min(n₊, n₋)), same scaling G = YKY/m, thresholds at the midpoint of their
    optimal interval where it is not a point (libsvm's convention). Every point is refitted here,
    also those of R, which the package skips. Both refit methods are checked."""
    X, y, kp, p, K = loo_problem(name)
    m = len(y)
    lams = [min(l, p.lambda_max) for l in lams]
    lp = loo_path(p, lams)
    assert np.all(lp.status == 0)
    for j, lam in enumerate(lams):
        yf_ref, rho_ref = nv.brute_force_loo(K, y, lam)
        a = p.alpha_at(lam)
        for method in ("homotopy", "active_set"):
            yf, g, refit, status = loo_at(p, lam, method=method)
            assert np.all(status == 0)
            np.testing.assert_array_equal(refit, a > 0)
            scale = np.abs(rho_ref).max()
            msg = f"{name} λ={lam} {method}"
            # measured: active set ≤ 8e-10·scale; homotopy ≤ 8.5e-8·scale, at linear40 λ = 2 (below
            # ν_min of the full problem: the leave-i-out margins are small and carry the solves' rounding)
            np.testing.assert_allclose(yf, yf_ref, atol=1e-7 * scale, rtol=0, err_msg=msg)
            np.testing.assert_allclose(yf - g, rho_ref, atol=1e-7 * scale, rtol=0, err_msg=msg)
        loo1, loo2, loo2_raw = nv.loo_errors(yf_ref, rho_ref)
        assert lp.loo1[j] == loo1
        # means of the values above (measured ≤ 3.4e-8 relative, at linear40 λ = 2)
        np.testing.assert_allclose([lp.loo2[j], lp.loo2_raw[j]], [loo2, loo2_raw], rtol=1e-6, atol=1e-12)
        assert lp.n_sv[j] == np.sum(a > 0)


def test_loo_values_match_nusvc_refits_where_unambiguous():
    """A second, libsvm-based reference: NuSVC(nu=λ/(m−1)) on the m − 1 remaining points gives the
    same ŷ_i/ρ^{[−i]} (scale-free) wherever its thresholds are unique."""
    from sklearn.svm import NuSVC

    X, y, kp, p, K = loo_problem("banana40")
    m = len(y)
    lam = 17.5
    yf, g, refit, _ = loo_at(p, lam)
    checked = 0
    for i in np.flatnonzero(refit)[:12]:
        keep = np.arange(m) != i
        clf = NuSVC(nu=lam / (m - 1), tol=1e-12, gamma=0.5).fit(X[keep], y[keep])
        alpha_ref = np.zeros(m - 1)
        alpha_ref[clf.support_] = np.abs(clf.dual_coef_[0])
        alpha_ref *= lam / alpha_ref.sum()
        free = (alpha_ref > 1e-8) & (alpha_ref < 1 - 1e-8)
        if free[y[keep] > 0].any() and free[y[keep] < 0].any():
            ref = y[i] * clf.decision_function(X[i:i + 1])[0]
            # libsvm at tol 1e-12 with a single-precision kernel cache (measured ≤ 2.4e-8)
            assert abs(yf[i] / (yf[i] - g[i]) - ref) <= 1e-6 * max(1.0, abs(ref))
            checked += 1
    assert checked >= 5


def test_loo_path_fields_and_test_error():
    X, y, kp, p, K = loo_problem("banana40")
    te = banana(n=40, seed=3).test_sample(300, 0)
    lp = loo_path(p, max_evals=8, X_test=te.X, y_test=te.y)
    assert isinstance(lp, LooPath)
    assert lp.lambdas.size <= 8 and np.all(lp.lambdas > 0)
    np.testing.assert_allclose(lp.nus, lp.lambdas / p.m)
    assert np.all((lp.loo1 >= 0) & (lp.loo1 <= 1)) and np.all(lp.loo2 >= lp.loo1)  # LOO2 ≥ LOO1
    for j, lam in enumerate(lp.lambdas):
        f = p.decision_function(te.X, lam)
        assert lp.test_error[j] == np.mean(te.y * f <= 0)
    assert 0 <= lp.stop < lp.lambdas.size
    assert lp.stop == auto_stop(lp.loo1, lp.loo2, p.m, valid=~lp.rho_zero)
    calls = []
    loo_path(p, lp.lambdas[:3], progress=lambda d, t, msg: calls.append((d, t)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
    d5 = default_loo_lambdas(p, 5)
    assert d5.size == 5 and d5[-1] == p.lambda_max and np.all(np.isin(d5, p.lambdas)) and np.all(np.diff(d5) > 0)


# ------------------------------------------------------------------------------- stopping rule
def test_auto_stop_on_constructed_sequences():
    """The sparsest evaluation whose LOO1 is within n_se binomial standard errors of the best and
    whose LOO2 is within rtol of its floor among those (Loosli & Canu 2006, "Stopping criteria")."""
    m = 100  # SE of LOO1 = 0.10: sqrt(0.1 · 0.9 / 100) = 0.03
    loo1 = [0.40, 0.20, 0.12, 0.11, 0.10, 0.10, 0.14, 0.20]
    loo2 = [50.0, 3.00, 0.60, 0.52, 0.50, 0.51, 0.55, 0.70]
    assert auto_stop(loo1, loo2, m) == 3  # 0.12 is near the best, but LOO2 0.60 > 1.1 · 0.50
    assert auto_stop(loo1, loo2, m, rtol=0.25) == 2
    assert auto_stop(loo1, loo2, m, n_se=0.0) == 4  # the best LOO1 itself
    assert auto_stop(loo1, loo2, m, n_se=0.0, rtol=0.01) == 4
    # invalid evaluations (margin 0) are neither candidates nor minima
    valid = [False, False, False, True, True, True, True, True]
    assert auto_stop([0.0, 0.0] + loo1[2:], [0.0, 0.0] + loo2[2:], m, valid=valid) == 3
    assert auto_stop(loo1, loo2, m, valid=[False] * 8) == 7  # nothing valid: the last index
    assert auto_stop([0.0, 0.0], [0.2, 0.1], 50) == 1  # SE at least 1/m; LOO2 decides
    assert auto_stop([0.3], [5.0], 1) == 0
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        auto_stop([1.5, 0.2], [1.0, 1.0], 10)
    with pytest.raises(ValueError, match="non-empty"):
        auto_stop([], [], 10)
    with pytest.raises(ValueError, match="same length"):
        auto_stop([0.1, 0.2], [0.1], 10)
    with pytest.raises(ValueError, match="m must"):
        auto_stop([0.1], [0.1], 0)
    with pytest.raises(ValueError, match="n_se"):
        auto_stop([0.1], [0.1], 10, n_se=-1)
    with pytest.raises(ValueError, match="rtol"):
        auto_stop([0.1, 0.2], [0.1, 0.2], 10, rtol=-1)


def test_zero_margin_is_flagged_below_nu_min():
    """Below ν_min the reduced hulls overlap, ρ = 0, f ≡ 0 (linear kernel on overlapping classes:
    below λ = 4 here): the LOO values there are rounding noise, flagged and ignored by the stop."""
    X, y, kp, p, K = loo_problem("linear40")
    z = zero_margin(p)
    assert z[0] and not z[-1]
    assert np.all(p.lambdas[z] < 4.0) and np.all(p.rho[z] < 1e-12)
    lp = loo_path(p, [1.0, 2.0, 6.0, 15.0, 26.0])
    np.testing.assert_array_equal(lp.rho_zero, [True, True, False, False, False])
    assert lp.stop >= 2
    np.testing.assert_allclose(lp.rho, [p.state_at(l)[2] for l in lp.lambdas])


# ------------------------------------------------------------------------------- validation
@pytest.mark.parametrize(
    "X,y,params,match",
    [
        (np.array([[0.0, np.nan], [1, 1], [2, 2]]), [1, -1, 1], {}, "NaN or infinite"),
        (np.array([[0.0, np.inf], [1, 1], [2, 2]]), [1, -1, 1], {}, "NaN or infinite"),
        (np.ones((3, 2)), [1, 1, 1], {}, "only one class"),
        (np.ones((3, 2)), [0, 1, 2], {}, "3 classes"),
        (np.ones((3, 2)), [1, -1], {}, "must match"),
        (np.ones((3, 2)), [1.0, np.nan, 1], {}, "NaN or infinite"),
        (np.ones((3, 2)), [1, -1, 1], {"sigma": 0}, "sigma"),
        (np.ones((3, 2)), [1, -1, 1], {"sigma": np.nan}, "sigma"),
        (np.ones((3, 2)), [1, -1, 1], {"kernel": "sigmoid"}, "kernel"),
        (np.ones((3, 2)), [1, -1, 1], {"kernel": "poly", "degree": 1.5}, "degree"),
        (np.ones((3, 2)), [1, -1, 1], {"tol": 0}, "tol"),
        (np.ones((3, 2)), [1, -1, 1], {"tol": 0.1}, "tol"),
        (np.ones((3, 2)), [1, -1, 1], {"max_breakpoints": 1}, "max_breakpoints"),
        (np.ones((3, 2)), [1, -1, 1], {"refresh": 0}, "refresh"),
        ([["a", "b"], ["c", "d"]], [1, -1], {}, "numeric"),
    ],
)
def test_bad_input_raises_clear_value_error(X, y, params, match):
    with pytest.raises(ValueError, match=match):
        nu_path(X, y, **params)


def test_lambda_out_of_range_and_bad_loo_input():
    X, y, kp, p, K = loo_problem("banana40")
    for lam in (-1.0, p.lambda_max * 1.01, np.nan, np.inf):
        with pytest.raises(ValueError, match="λ must lie on the computed path"):
            p.state_at(lam)
        with pytest.raises(ValueError, match="λ must lie"):
            loo_path(p, [lam])
    with pytest.raises(ValueError, match="λ > 0"):
        loo_path(p, [0.0])
    with pytest.raises(ValueError, match="NuPath"):
        loo_path("not a path")
    with pytest.raises(ValueError, match="features"):
        p.decision_function(np.ones((2, 3)), 1.0)
    with pytest.raises(ValueError, match="y_test"):
        loo_path(p, [5.0], X_test=X[:5], y_test=y[:4])


def test_max_breakpoints_warns_and_stops():
    X, y, kp, p, K = loo_problem("banana40")
    with pytest.warns(ConvergenceWarning, match="max_breakpoints"):
        q = nu_path(X, y, max_breakpoints=5, **kp)
    assert q.status == _nu_path.STATUS_MAX_BREAKPOINTS == 1
    assert q.n_breakpoints == 5
    np.testing.assert_array_equal(q.lambdas, p.lambdas[:5])
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        assert nu_path(X, y, **kp).status == 0


# ------------------------------------------------------------------------------- API details
def test_labels_columns_and_estimator():
    X, y, kp, p, K = loo_problem("banana40")
    labels = np.where(y > 0, "pear", "apple")
    q = nu_path(X, labels, **kp)
    assert q.classes == ("apple", "pear")
    np.testing.assert_array_equal(q.lambdas, p.lambdas)
    cols = p.to_columns()
    assert len(cols["alpha"]) == p.n_breakpoints * p.m
    assert set(np.unique(cols["group"])) <= {"R", "E", "L"}
    k = int(np.flatnonzero(np.diff(p.lambdas) > 0)[5])  # a breakpoint that is not a jump
    np.testing.assert_allclose(p.decision_path(X)[k + 1], p.decision_function(X, p.lambdas[k + 1]), atol=1e-12)
    np.testing.assert_allclose(p.decision_path(X, [3.3])[0], p.decision_function(X, 3.3))
    est = NuSVMPath(nu=0.4, **kp).fit(X, labels)
    np.testing.assert_allclose(est.decision_function(X), p.decision_function(X, 0.4 * p.m))
    assert set(est.predict(X)) <= {"apple", "pear"}
    auto = NuSVMPath(nu="auto", max_evals=10, **kp).fit(X, y)
    assert auto.loo_ is not None and auto.lambda_ == auto.loo_.lambdas[auto.loo_.stop]
    with pytest.raises(ValueError, match="nu"):
        NuSVMPath(nu=1.5, **kp).fit(X, y)
    assert isinstance(p, NuPath)


def test_sigma_beside_a_kernel_without_width_is_refused():
    X, y = make_moons(40, noise=0.2, random_state=0)
    with pytest.raises(ValueError, match="sigma=0.5 has no meaning for kernel='linear'"):
        NuSVMPath(kernel="linear", sigma=0.5).fit(X, y)
    with pytest.raises(ValueError, match="gamma=3.0 has no meaning for kernel='rbf'"):
        nu_path(X, y, gamma=3.0)
