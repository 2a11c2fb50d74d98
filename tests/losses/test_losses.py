"""Losses of τ = yf, Wahba's μ(f), population minimizers, GACV/LOO curves and their figure data.

References: hand-computed values, finite differences, brute-force minimization of the expected loss
over a fine f grid, and brute-force leave-one-out with scikit-learn's SVC (libsvm).
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy.special import expit
from sklearn.svm import SVC

from svmviz import losses as L
from svmviz.figures import losses as figs
from svmviz.usvc import theta_smooth

ALL = list(L.LOSSES)
CONVEX = ("hinge", "deviance", "exponential", "wahba_v")
V_PARAMS = [(1.0, 0.0), (0.5, -2.0), (-0.5, -2.0), (1.0, 1.0), (-1.0, -1.0), (2.0, 1.5), (0.0, 0.0)]


# ------------------------------------------------------------------------------- hand-checked values
def test_hand_checked_values():
    t = np.array([-1.0, 0.0, 0.5, 1.0, 3.0])
    np.testing.assert_allclose(L.hinge(t), [2.0, 1.0, 0.5, 0.0, 0.0])
    np.testing.assert_array_equal(L.misclassification([-0.1, 0.0, 1e-12, 2.0]), [1.0, 1.0, 0.0, 0.0])
    np.testing.assert_allclose(L.deviance([0.0, 1.0]), [math.log(2.0), math.log(1.0 + math.exp(-1.0))], rtol=1e-15)
    np.testing.assert_allclose(L.exponential([0.0, 1.0, -2.0]), [1.0, math.exp(-1.0), math.exp(2.0)], rtol=1e-15)
    np.testing.assert_allclose(L.sigmoid([0.0, 1.0], a=2.0), [0.5, 1.0 / (1.0 + math.exp(2.0))], rtol=1e-14)
    np.testing.assert_allclose(L.concave_exp([-1.0, -0.5, 0.0, 2.0], a=1.0),
                               [1 - math.exp(-1.0), 1 - math.exp(-0.5), 0.0, 0.0], rtol=1e-15)
    np.testing.assert_allclose(L.concave_exp(-0.5, a=3.0), 1 - math.exp(-1.5), rtol=1e-15)
    # v_{1,0}: ½ − τ below 0, (τ − 1)²/2 on [0, 1], 0 above
    np.testing.assert_allclose(L.wahba_v([-1.0, 0.0, 0.5, 1.0, 2.0], 1.0, 0.0), [1.5, 0.5, 0.125, 0.0, 0.0])
    # v_{0.5,−2}: midpoint −0.75; at τ = −1 (quadratic piece) (−1.5)²/5
    np.testing.assert_allclose(L.wahba_v([-3.0, -1.0], 0.5, -2.0), [2.25, 2.25 / 5.0])


def test_numerically_stable_at_extreme_margins():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = L.deviance([-1e4, 1e4, -800.0])
        np.testing.assert_allclose(d, [1e4, 0.0, 800.0], atol=1e-300)
        assert np.all(np.isfinite(L.sigmoid([-1e4, 1e4], a=5.0)))
        assert np.all(np.isfinite(L.concave_exp([-1e4, 1e4], a=5.0)))
        np.testing.assert_array_equal(L.loss_values("exponential", [np.inf]), [0.0])
    assert L.loss_values("smooth_step", -np.inf) == 1.0


def test_smooth_step_is_usvc_theta_at_one_minus_tau():
    s, k = 2.0, 1e-4
    t = np.linspace(-3, 3, 61)
    np.testing.assert_allclose(L.smooth_step(t, s, k), theta_smooth(np.maximum(1 - t, 0), s=s, k_eps=k), rtol=0)
    c = k ** (1 / s)  # hand formula of (Navia-Vázquez et al. 2004, eq. 6) at ξ = 2, ξ = 1, ξ = 0
    np.testing.assert_allclose(L.smooth_step([-1.0, 0.0, 1.0, 5.0], s, k),
                               [1 - (1 + c) ** s / (2 * (2 + c) ** s), 0.5, c**s / (2 * (1 + c) ** s),
                                c**s / (2 * (1 + c) ** s)], rtol=1e-12)


# ------------------------------------------------------------------------------- properties
TAU = np.linspace(-4, 4, 1601)


def _second_diff(v):
    return v[2:] - 2 * v[1:-1] + v[:-2]


@pytest.mark.parametrize("name", CONVEX)
def test_convex_losses_are_convex(name):
    for ep, em in (V_PARAMS if name == "wahba_v" else [(1.0, 0.0)]):
        v = L.loss_values(name, TAU, eps_plus=ep, eps_minus=em)
        assert np.all(_second_diff(v) >= -1e-12 * np.maximum(1.0, np.abs(v[1:-1])))


def test_upper_bounds_of_the_misclassification_loss():
    m = L.misclassification(TAU)
    assert np.all(L.hinge(TAU) >= m)
    assert np.all(L.deviance(TAU) / math.log(2.0) >= m - 1e-15)
    assert np.all(L.exponential(TAU) >= m)
    assert np.all(L.concave_exp(TAU, a=1.0) <= m)  # a lower approximation
    # v_{ε+,ε−} ≥ [ε − τ]_+ shifted? v is between [m − τ]_+ and [ε+ − τ]_+ with m = (ε+ + ε−)/2
    v = L.wahba_v(TAU, 1.0, 0.0)
    assert np.all(v >= np.maximum(0.5 - TAU, 0.0) - 1e-15) and np.all(v <= np.maximum(1.0 - TAU, 0.0) + 1e-15)


def test_limits():
    t = np.array([-2.0, -0.3, 0.3, 2.0])
    step = L.misclassification(t)
    np.testing.assert_allclose(L.sigmoid(t, a=200.0), step, atol=1e-20)
    np.testing.assert_allclose(L.concave_exp(t, a=200.0), step, atol=1e-20)
    np.testing.assert_allclose(L.smooth_step(t, s=400.0), step, atol=1e-20)
    assert L.deviance(60.0) < 1e-25 and abs(L.deviance(-60.0) - 60.0) < 1e-20  # → 0 and ~ −τ
    # v_{ε,ε} = [ε − τ]_+ and v_{0,0} = [−τ]_+ (001, below 1.23); v_{ε+,ε−} → v_{ε,ε} as ε− ↑ ε+
    np.testing.assert_allclose(L.wahba_v(TAU, 0.7, 0.7), np.maximum(0.7 - TAU, 0))
    np.testing.assert_allclose(L.wahba_v(TAU, 0.0, 0.0), np.maximum(-TAU, 0))
    np.testing.assert_allclose(L.wahba_v(TAU, 0.7, 0.7 - 1e-7), np.maximum(0.7 - TAU, 0), atol=1e-7)


def test_v_is_continuously_differentiable():
    for ep, em in [(1.0, 0.0), (0.5, -2.0), (2.0, 1.5)]:
        for x in (em, ep):  # value and slope continuous at the joints
            lo, hi = L.wahba_v([x - 1e-9, x + 1e-9], ep, em)
            assert abs(lo - hi) < 1e-8
            d = L.loss_derivative("wahba_v", [x - 1e-7, x + 1e-7], eps_plus=ep, eps_minus=em)
            assert abs(d[0] - d[1]) < 1e-6 / (ep - em)


@pytest.mark.parametrize("name", ALL)
def test_derivative_matches_finite_differences(name):
    prm = dict(a=1.7, eps_plus=1.0, eps_minus=-0.5, s=3.0)
    kinks = {"hinge": [1.0], "misclassification": [0.0], "concave_exp": [0.0], "wahba_v": [-0.5, 1.0],
             "smooth_step": [0.0, 1.0]}.get(name, [])
    t = np.linspace(-3, 3, 241) + 0.0123
    t = t[np.min(np.abs(t[:, None] - np.array(kinks + [99.0])[None, :]), axis=1) > 1e-3]
    h = 1e-6
    fd = (L.loss_values(name, t + h, **prm) - L.loss_values(name, t - h, **prm)) / (2 * h)
    np.testing.assert_allclose(L.loss_derivative(name, t, **prm), fd, rtol=1e-5, atol=1e-7)


# ------------------------------------------------------------------------------- μ(f) (Wahba 1998, eq. 1.39)
@pytest.mark.parametrize("name", ALL)
def test_mu_is_the_sum_over_y_of_the_derivative_of_g_yf(name):
    prm = dict(a=1.3, eps_plus=0.8, eps_minus=-0.4, s=2.0)
    f = np.linspace(-2.5, 2.5, 101) + 0.0071
    h = 1e-6

    def G(ff):  # Σ_y g(y f) — its f-derivative is μ by (Wahba 1998, eq. 1.39)
        return L.loss_values(name, ff, **prm) + L.loss_values(name, -ff, **prm)

    fd = (G(f + h) - G(f - h)) / (2 * h)
    ok = np.min(np.abs(np.abs(f)[:, None] - np.array([0.0, 0.4, 0.8, 1.0])[None, :]), axis=1) > 1e-3
    np.testing.assert_allclose(L.prediction_function(name, f, **prm)[ok], fd[ok], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(L.prediction_function(name, -f, **prm), -L.prediction_function(name, f, **prm))


def test_mu_matches_the_seed_statements():
    f = np.linspace(-4, 4, 801)
    # deviance: μ(f) = 2p − 1 = E{y | p}, p = 1/(1 + e^{−f})
    np.testing.assert_allclose(L.prediction_function("deviance", f), 2 * expit(f) - 1, atol=1e-15)
    # and at the population minimizer (the log-odds) μ(f*(p)) = 2p − 1
    p = np.array([0.05, 0.3, 0.5, 0.8, 0.99])
    np.testing.assert_allclose(L.prediction_function("deviance", L.population_minimizer("deviance", p).f), 2 * p - 1,
                               atol=1e-12)
    # v: −1 below −max{ε+, −ε−}, +1 above it, non-decreasing and piecewise linear in between
    for ep, em in [(1.0, 0.0), (0.5, -2.0), (2.0, 1.5), (1.0, -1.0)]:
        mu = L.prediction_function("wahba_v", f, eps_plus=ep, eps_minus=em)
        M = max(ep, -em)
        assert np.all(mu[f > M + 1e-9] == 1.0) and np.all(mu[f < -M - 1e-9] == -1.0)
        assert np.all(np.diff(mu) >= -1e-12)
        breaks = np.array([ep, em, -ep, -em])
        away = np.min(np.abs(f[1:-1, None] - breaks[None, :]), axis=1) > 0.011
        assert np.all(np.abs(_second_diff(mu)[away]) < 1e-9)
    # v_{1,−1}: μ(f) = clip(f, −1, 1) exactly
    np.testing.assert_allclose(L.prediction_function("wahba_v", f, eps_plus=1.0, eps_minus=-1.0), np.clip(f, -1, 1),
                               atol=1e-15)


# ------------------------------------------------------------------------------- f*(p) vs brute force
F_GRID = np.linspace(-6.0, 6.0, 12001)
P_VALUES = np.array([0.0, 0.05, 0.2, 0.4, 0.5, 0.6, 0.83, 0.97, 1.0])


def _cases():
    for name in ALL:
        if name == "wahba_v":
            for ep, em in V_PARAMS:
                yield name, dict(eps_plus=ep, eps_minus=em)
        elif name in ("sigmoid", "concave_exp"):
            yield name, dict(a=1.0)
            yield name, dict(a=3.0)
        elif name == "smooth_step":
            yield name, dict(s=2.0)
            yield name, dict(s=4.0)
        else:
            yield name, {}


@pytest.mark.parametrize("name,prm", list(_cases()), ids=lambda v: str(v))
def test_population_minimizer_against_brute_force(name, prm):
    m = L.population_minimizer(name, P_VALUES, **prm)
    h = F_GRID[1] - F_GRID[0]
    for p, f, lo, hi in zip(P_VALUES, m.f, m.lo, m.hi):
        assert lo <= f <= hi
        R = L.expected_loss(name, F_GRID, p, **prm)
        Rmin = R.min()
        tol = 1e-6
        Rf = float(L.expected_loss(name, f, p, **prm))
        assert Rf <= Rmin + tol, (p, f, Rf, Rmin)      # f* is (at least) as good as the best grid point
        if np.isfinite(f):                             # … and no grid point is noticeably better
            assert Rf >= Rmin - tol
        else:  # ±∞: the infimum is only approached — R must fall all the way towards that end
            assert Rf >= Rmin - 5e-2
            dR = np.diff(R) if f > 0 else -np.diff(R)
            assert np.all(dR <= 1e-15)
            continue
        # every grid minimizer lies in [lo, hi] (clipped to the grid)
        S = F_GRID[R <= Rmin + tol]
        lo_c, hi_c = np.clip(lo, F_GRID[0], F_GRID[-1]), np.clip(hi, F_GRID[0], F_GRID[-1])
        assert S.min() >= lo_c - 0.01 and S.max() <= hi_c + 0.01, (p, lo, hi, S.min(), S.max())
        if name in CONVEX and np.isfinite(lo) and np.isfinite(hi):  # convex: the whole [lo, hi] is optimal
            inside = F_GRID[(F_GRID >= lo) & (F_GRID <= hi)]
            assert np.all(L.expected_loss(name, inside, p, **prm) <= Rmin + tol)
        if name == "smooth_step" and 0 < p < 1:  # nonconvex: both reported ends are minimizers
            for g in (lo, hi):
                assert float(L.expected_loss(name, g, p, **prm)) <= Rmin + tol


def test_population_minimizer_closed_forms():
    p = np.array([0.1, 0.3, 0.7, 0.9])
    logit = np.log(p / (1 - p))
    np.testing.assert_allclose(L.population_minimizer("deviance", p).f, logit, rtol=1e-14)
    np.testing.assert_allclose(L.population_minimizer("exponential", p).f, 0.5 * logit, rtol=1e-14)
    np.testing.assert_array_equal(L.population_minimizer("hinge", p).f, np.sign(p - 0.5))
    np.testing.assert_array_equal(L.population_minimizer("concave_exp", p).f, 0.0)
    half = L.population_minimizer("hinge", 0.5)
    assert (float(half.lo), float(half.hi)) == (-1.0, 1.0)
    assert L.population_minimizer("sigmoid", 0.7).f == np.inf
    assert L.population_minimizer("hinge", np.full((2, 3), 0.8)).f.shape == (2, 3)


# ------------------------------------------------------------------------------- validation
def test_bad_input_raises_value_errors_saying_what_to_fix():
    with pytest.raises(ValueError, match="NaN"):
        L.hinge([0.0, np.nan])
    with pytest.raises(ValueError, match="a "):
        L.sigmoid([0.0], a=0.0)
    with pytest.raises(ValueError, match="swap"):
        L.wahba_v([0.0], eps_plus=0.0, eps_minus=1.0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        L.population_minimizer("hinge", [1.2])
    with pytest.raises(ValueError, match="unknown loss"):
        L.loss_values("square", [0.0])
    with pytest.raises(ValueError, match="unknown loss parameter"):
        L.loss_values("hinge", [0.0], b=1.0)
    with pytest.raises(ValueError, match="s "):
        L.loss_values("smooth_step", [0.0], s=0.5)
    with pytest.raises(ValueError, match="τ range"):
        figs.compute_loss_curves(["hinge"], tau_range=(1.0, 1.0))


def test_registry_entries():
    for name, (fn, tex, desc) in L.LOSSES.items():
        assert callable(fn) and tex and desc and name in L.LOSS_PARAMS and name in figs.LOSS_STYLES


# ------------------------------------------------------------------------------- GACV / LOO curves
def _moons(n, seed=0):
    from sklearn.datasets import make_moons

    X, y = make_moons(n, noise=0.35, random_state=seed)
    return X, np.where(y == 1, 1.0, -1.0)


def test_leave_one_out_hinge_against_brute_force_sklearn():
    X, y = _moons(40)
    n, sigma = X.shape[0], 0.7
    lambdas = np.array([1e-3, 1e-2, 1e-1])
    gc = L.gacv_curves(X, y, lambdas, sigma, loo=True, ran_gacv_replicates=0, tol=1e-6)
    gamma = 1 / (2 * sigma**2)
    for j, lam in enumerate(gc.lambdas):
        C = 1 / (2 * n * lam)
        f_full = SVC(C=C, kernel="rbf", gamma=gamma, tol=1e-10).fit(X, y).decision_function(X)
        f_loo = np.empty(n)
        for i in range(n):
            keep = np.arange(n) != i
            f_loo[i] = SVC(C=C, kernel="rbf", gamma=gamma, tol=1e-10).fit(X[keep], y[keep]).decision_function(X[i:i + 1])[0]
        assert abs(gc.values["loo_hinge"][j] - np.mean(np.maximum(1 - y * f_loo, 0))) < 2e-3
        assert abs(gc.values["loo"][j] - np.mean(y * f_loo <= 0)) <= 1.0 / n + 1e-12
        assert abs(gc.values["hinge_obs"][j] - np.mean(np.maximum(1 - y * f_full, 0))) < 2e-3
        assert gc.n_sv[j] == np.sum(SVC(C=C, kernel="rbf", gamma=gamma, tol=1e-10).fit(X, y).n_support_)


def test_curves_agree_with_the_tuning_module_and_hold_every_criterion():
    from svmviz.tuning import criteria_curves

    X, y = _moons(60, seed=1)
    p = np.clip(0.5 + 0.3 * np.tanh(X[:, 0] - 0.5), 0, 1)
    lambdas = np.logspace(-4, -1, 6)
    gc = L.gacv_curves(X, y, lambdas, 0.8, p_true=p, loo=True, ran_gacv_replicates=3, sigma_z=0.2, seed=5)
    ref = criteria_curves(X, y, lambdas, 0.8, p_true=p, loo=True, ran_gacv_replicates=3, sigma_z=0.2, seed=5)
    assert set(gc.values) == {"gacv", "xa", "gckl", "misclass", "rangacv", "hinge_obs", "loo_hinge", "loo"}
    for k in ("gacv", "gckl", "misclass", "rangacv"):
        np.testing.assert_allclose(gc.values[k], ref.values[k], rtol=1e-12)
    np.testing.assert_allclose(gc.values["loo"], ref.values["loo"], atol=1.0 / 60 + 1e-12)
    assert gc.rangacv_replicates.shape == (3, 6)
    np.testing.assert_allclose(gc.rangacv_replicates.mean(axis=0), gc.values["rangacv"])
    for k, v in gc.values.items():
        assert gc.best[k] == int(np.argmin(v))
    # V₀ ≥ OBS: leaving a point out can only worsen its fit (hinge LOO lemma, Wahba 1998, eqs. 1.35–1.37)
    assert np.all(gc.values["loo_hinge"] >= gc.values["hinge_obs"] - 1e-9)
    with pytest.raises(ValueError, match="replicates"):
        L.gacv_curves(X, y, lambdas, 0.8, ran_gacv_replicates=-1)


# ------------------------------------------------------------------------------- figure data
def test_loss_curve_data_and_figure():
    lc = figs.compute_loss_curves(ALL, tau_range=(-2, 2), n_points=101, s_values=(2.0, 4.0, 8.0),
                                  params=dict(a=2.0), deviance_scaled=True)
    assert len(lc.keys) == len(ALL) + 2 and lc.values.shape == (len(ALL) + 2, lc.tau.size)
    assert 0.0 in lc.tau
    i0 = int(np.flatnonzero(lc.tau == 0.0)[0])
    dev = lc.values[lc.keys.index("deviance")]
    assert dev[i0] == pytest.approx(1.0) and "ln 2" in lc.labels[lc.keys.index("deviance")]
    np.testing.assert_allclose(lc.values[lc.keys.index("sigmoid")], L.sigmoid(lc.tau, a=2.0))
    np.testing.assert_allclose(lc.values[lc.keys.index("smooth_step_s8")], L.smooth_step(lc.tau, s=8.0))
    fig = figs.plot_loss_curves(lc)
    assert fig.layout.title.text and fig.layout.xaxis.title.text and fig.layout.yaxis.title.text
    assert len(fig.data) == len(lc.keys) and all(t.hovertemplate for t in fig.data)
    assert len({(t.line.color, t.line.dash) for t in fig.data}) == len(fig.data)  # every curve its own style


def test_prediction_and_minimizer_data_and_figures():
    pc = figs.compute_prediction_functions(["deviance", "wahba_v"], f_range=(-3, 3), n_points=61,
                                           params=dict(eps_plus=1.0, eps_minus=-1.0))
    np.testing.assert_allclose(pc.mu[1], np.clip(pc.f, -1, 1), atol=1e-15)
    mc = figs.compute_population_minimizers(["hinge", "sigmoid"], n_points=11)
    assert 0.5 in mc.p and mc.f.shape == (2, mc.p.size)
    fig = figs.plot_population_minimizers(mc, clip=3.0)
    ys = np.asarray(fig.data[1].y)
    assert np.all(np.abs(ys) <= 3.0) and "+∞" in fig.data[1].text[-1]
    for fg in (figs.plot_prediction_functions(pc), fig):
        assert fg.layout.title.text and fg.layout.xaxis.title.text and fg.layout.yaxis.title.text


def test_criteria_panel_data():
    X, y = _moons(50, seed=2)
    gc = L.gacv_curves(X, y, np.logspace(-4, -1, 5), 1.0, loo=True, ran_gacv_replicates=4, sigma_z=0.3)
    cp = figs.compute_criteria_panel(gc, figs.HINGE_SCALE)
    assert set(cp.curves) == {"gacv", "rangacv", "loo_hinge", "hinge_obs"}  # no GCKL without p
    np.testing.assert_allclose(cp.band_lo, gc.rangacv_replicates.min(axis=0))
    np.testing.assert_allclose(cp.band_hi, gc.rangacv_replicates.max(axis=0))
    assert set(cp.best) == {"gacv", "rangacv", "loo_hinge"}
    for k, (x, v) in cp.best.items():
        assert x == pytest.approx(np.log10(gc.lambdas[gc.best[k]])) and v == pytest.approx(gc.values[k].min())
    fig = figs.plot_criteria_panel(cp, title="t", ytitle="v")
    assert fig.layout.xaxis.title.text == "log10 λ"
    reps = [t for t in fig.data if t.name == "ranGACV replicates"]
    assert len(reps) == 4
