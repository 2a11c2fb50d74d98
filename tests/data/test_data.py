"""Tests of svmviz.data: generators against independent references (scipy densities, quadrature,
Monte Carlo), the published numbers of the papers, and the CSV loader's happy and error paths."""
from __future__ import annotations

import csv
import io
import math
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from svmviz import data as D

from tests.naive import bayes as naive_bayes

SYNTHETIC = ["wahba2001", "esl_mixture", "esl_mixture3", "usvc_A", "usvc_B", "banana", "twonorm",
             "ringnorm", "waveform"]
DIMS = {"wahba2001": 2, "esl_mixture": 2, "esl_mixture3": 2, "usvc_A": 1, "usvc_B": 1, "banana": 2,
        "twonorm": 20, "ringnorm": 20, "waveform": 21}


def _se(p, n):
    return math.sqrt(p * (1 - p) / n)


# ------------------------------------------------------------------------------------------
# Contract: determinism, shapes, labels, registry
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", SYNTHETIC)
def test_deterministic_shapes_labels_and_test_stream(name):
    a = D.make_dataset(name, n=60, seed=3)
    b = D.make_dataset(name, n=60, seed=3)
    c = D.make_dataset(name, n=60, seed=4)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)
    assert a.X.shape == (60, DIMS[name]) and a.X.dtype == np.float64 and a.X.flags.c_contiguous
    assert len(a.feature_names) == DIMS[name]
    assert a.params["n"] == 60 and a.params["seed"] == 3
    if a.is_multiclass:
        assert a.y.dtype.kind == "i" and set(np.unique(a.y)) == set(range(a.n_classes))
    else:
        assert a.n_classes == 2 and a.y.dtype == np.float64 and set(np.unique(a.y)) == {-1.0, 1.0}
    counts = [np.sum(a.y == v) for v in np.unique(a.y)]
    assert min(counts) >= 2
    # test sample: same law, other stream, deterministic, never the training sample
    t1 = a.test_sample(60, 3)
    t2 = a.test_sample(60, 3)
    assert np.array_equal(t1.X, t2.X) and not np.array_equal(t1.X, a.X)
    assert t1.X.shape == a.X.shape and t1.params == a.params
    assert t1.bayes_error == a.bayes_error and t1.classes == a.classes
    # picklable (p_true and test_sample are partials of module functions)
    r = pickle.loads(pickle.dumps(a))
    assert np.array_equal(r.X, a.X)
    if a.p_true is not None:
        assert np.allclose(r.p_true(a.X[:5]), a.p_true(a.X[:5]))


def test_registry_describe_and_make_dataset_errors():
    for name in D.GENERATORS:
        text = D.describe(name)
        assert isinstance(text, str) and len(text) > 20
    with pytest.raises(ValueError, match="choose one of.*wahba2001"):
        D.make_dataset("nope")
    with pytest.raises(ValueError, match="valid parameters: .*nonstandard"):
        D.make_dataset("wahba2001", sigma=1.0)
    with pytest.raises(ValueError, match="unknown data set"):
        D.describe("nope")
    for bad_n in (3, -1, 2.5, "10", True, None):
        with pytest.raises(ValueError, match="n"):
            D.make_dataset("banana", n=bad_n)
    for bad_seed in (-1, 1.5, "x", None):
        with pytest.raises(ValueError, match="seed"):
            D.make_dataset("banana", n=20, seed=bad_seed)
    with pytest.raises(ValueError, match="n ≥ 6"):
        D.esl_mixture3(n=5)
    with pytest.raises(ValueError, match="at least 2"):  # 0.4·4 rounds to 2 but 0.1·5 does not
        D.wahba2001(n=5, pi_s_plus=0.1)
    with pytest.raises(ValueError, match="pi_plus \\+ pi_minus"):
        D.wahba2001(pi_plus=0.2)
    with pytest.raises(ValueError, match="cov_plus"):
        D.wahba2001(cov_plus=(1.0, -1.0))
    with pytest.raises(ValueError, match="seed"):
        D.make_dataset("twonorm", n=10).test_sample(10, -2)
    with pytest.raises(ValueError, match="n ≥ 4"):
        D.make_dataset("twonorm", n=10).test_sample(2, 0)
    with pytest.raises(ValueError, match="2 column"):
        D.wahba2001(n=10).p_true(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="NaN"):
        D.wahba2001(n=10).p_true(np.array([[0.0, np.nan]]))
    with pytest.raises(ValueError, match="unknown"):
        D.banana(n=10).bayes_rule(np.zeros((2, 2)))


def test_class_proportions():
    for n, expect in [(200, 80), (7, 3), (13, 5), (50, 20), (101, 40)]:
        ds = D.wahba2001(n=n, seed=1)
        assert int(np.sum(ds.y > 0)) == expect == int(math.floor(0.4 * n + 0.5))
    assert int(np.sum(D.wahba2001(n=100, seed=0, pi_s_plus=0.25).y > 0)) == 25
    esl = D.esl_mixture(n=200, seed=2)
    assert np.sum(esl.y > 0) == 100 and esl.classes == ("blue", "orange")
    assert np.array_equal(np.bincount(D.esl_mixture3(n=200, seed=2).y), [67, 67, 66])
    ban = D.banana(n=201, seed=0)
    assert np.sum(ban.y > 0) == 100 and np.sum(ban.y < 0) == 101
    # Binomial counts: P(+1) = 2/3 in A, 0.7 in B, 1/2 for twonorm (within 5 SE)
    for name, P in [("usvc_A", 2 / 3), ("usvc_B", 0.7), ("twonorm", 0.5), ("ringnorm", 0.5)]:
        ds = D.make_dataset(name, n=20000, seed=5)
        assert abs(np.mean(ds.y > 0) - P) < 5 * _se(P, 20000), name
    w = D.waveform(n=30000, seed=1, n_classes=3)
    assert np.all(np.abs(np.bincount(w.y) / 30000 - 1 / 3) < 5 * _se(1 / 3, 30000))


# ------------------------------------------------------------------------------------------
# wahba2001
# ------------------------------------------------------------------------------------------
def test_wahba_p_true_against_scipy_and_sample_moments():
    ds = D.wahba2001(n=400, seed=0)
    Xq = np.random.default_rng(1).uniform(-3, 5, size=(300, 2))
    gp = stats.multivariate_normal([0, 0], np.diag([1.0, 1.0])).pdf(Xq)
    gm = stats.multivariate_normal([2, 2], np.diag([2.0, 1.0])).pdf(Xq)
    ref = 0.4 * gp / (0.4 * gp + 0.6 * gm)  # p_s: denominator with π_s⁺
    assert np.allclose(ds.p_true(Xq), ref, rtol=1e-12, atol=1e-14)
    big = D.wahba2001(n=40000, seed=2)
    Xm = big.X[big.y < 0]
    assert np.allclose(Xm.mean(axis=0), [2, 2], atol=0.05)
    assert np.allclose(Xm.var(axis=0), [2, 1], atol=0.08)  # cov_minus are variances
    assert np.allclose(big.X[big.y > 0].var(axis=0), [1, 1], atol=0.06)


def test_wahba_nonstandard_costs_and_threshold():
    L_minus, L_plus, thr = D.wahba_costs()
    assert (L_minus, L_plus) == pytest.approx((1.5, 0.5), abs=1e-15) and thr == pytest.approx(0.75)
    ds = D.wahba2001(n=50, nonstandard=True)
    assert ds.L == pytest.approx((1.5, 0.5)) and ds.bayes_threshold == pytest.approx(0.75)
    std = D.wahba2001(n=50)
    assert std.L == (1.0, 1.0) and std.bayes_threshold == 0.5
    # other values: formula L(−1) = C⁺π⁻/π_s⁻, L(+1) = C⁻π⁺/π_s⁺
    Lm, Lp, t = D.wahba_costs(C_plus=2.0, C_minus=3.0, pi_plus=0.3, pi_minus=0.7, pi_s_plus=0.5)
    assert (Lm, Lp) == pytest.approx((2.0 * 0.7 / 0.5, 3.0 * 0.3 / 0.5)) and t == pytest.approx(Lm / (Lm + Lp))
    # the Bayes rule uses the threshold: points with p in (0.5, 0.75] are −1 only in the non-standard case
    Xq = np.random.default_rng(0).uniform(-2, 4, size=(2000, 2))
    p = ds.p_true(Xq)
    mid = (p > 0.5) & (p <= 0.75)
    assert mid.sum() > 10
    assert np.all(ds.bayes_rule(Xq)[mid] == -1) and np.all(std.bayes_rule(Xq)[mid] == 1)


@pytest.mark.parametrize("nonstandard", [False, True])
def test_wahba_bayes_risk_against_large_sample(nonstandard):
    ds = D.wahba2001(n=50, nonstandard=nonstandard)
    big = ds.test_sample(100_000, 11)
    Lw = np.where(big.y > 0, ds.L[1], ds.L[0])
    loss = Lw * (ds.bayes_rule(big.X) != big.y)
    se = loss.std() / math.sqrt(loss.size)
    assert abs(loss.mean() - ds.bayes_error) < min(0.01, 5 * se)
    # no other threshold does better on the population (risk computed by the same sample)
    p = ds.p_true(big.X)
    for thr in (ds.bayes_threshold - 0.1, ds.bayes_threshold + 0.1):
        other = Lw * (np.where(p > thr, 1.0, -1.0) != big.y)
        assert other.mean() > loss.mean()
    # an independent derivation (tests/naive/bayes.py: 1-D quadrature of closed-form normal tails)
    # agrees with data.py's 2-D trapezoid grid to 2e-7 (measured); 1e-6 leaves room for the grid
    w_plus, w_minus = ds.L[1] * 0.4, ds.L[0] * 0.6
    assert ds.bayes_error == pytest.approx(naive_bayes.wahba_bayes_risk(w_plus, w_minus), abs=1e-6)


# ------------------------------------------------------------------------------------------
# ESL mixture
# ------------------------------------------------------------------------------------------
def test_esl_p_true_against_brute_force_mixture_density():
    ds = D.esl_mixture(n=40, seed=0)
    C = D.esl_centres(ds.params["centres_seed"])
    assert C.shape == (2, 10, 2)
    Xq = np.random.default_rng(3).uniform(-2, 3, size=(50, 2))
    dens = np.zeros((50, 2))
    for j in range(2):
        for k in range(10):
            dens[:, j] += stats.multivariate_normal(C[j, k], np.eye(2) / 5).pdf(Xq) / 10
    assert np.allclose(ds.p_true(Xq), dens[:, 1] / dens.sum(axis=1), rtol=1e-10, atol=1e-13)
    # centres: blue around (1, 0), orange around (0, 1); the sample follows the centres
    assert np.allclose(D.esl_centres(5), D.esl_centres(5))
    m3 = D.esl_mixture3(n=30, seed=0)
    C3 = D.esl_centres(m3.params["centres_seed"], n_classes=3)
    P3 = m3.p_true(Xq)
    dens3 = np.stack([sum(stats.multivariate_normal(C3[j, k], np.eye(2) / 5).pdf(Xq) for k in range(10))
                      for j in range(3)], axis=1)
    assert P3.shape == (50, 3) and np.allclose(P3, dens3 / dens3.sum(axis=1, keepdims=True), rtol=1e-10)
    assert np.array_equal(m3.bayes_rule(Xq), np.argmax(dens3, axis=1))
    # the sample follows its centres: class mean = mean of the centres, class covariance =
    # covariance of the centres (uniform choice) + I/5
    big = D.esl_mixture(n=40000, seed=1, centres_seed=5)
    Cb = D.esl_centres(5)
    for j, lab in ((0, -1.0), (1, 1.0)):
        Xc = big.X[big.y == lab]
        assert np.allclose(Xc.mean(axis=0), Cb[j].mean(axis=0), atol=0.03)
        cov = np.cov(Cb[j].T, bias=True) + np.eye(2) / 5
        assert np.allclose(np.cov(Xc.T), cov, atol=0.05)
    with pytest.raises(ValueError, match="class_means"):
        D.esl_mixture(n=40, class_means=((0, 0),))


@pytest.mark.parametrize("name", ["esl_mixture", "esl_mixture3"])
def test_esl_bayes_error_against_large_sample(name):
    ds = D.make_dataset(name, n=60, seed=0)
    big = ds.test_sample(100_000, 1)
    err = np.mean(ds.bayes_rule(big.X) != big.y)
    assert abs(err - ds.bayes_error) < min(0.01, 5 * _se(err, 100_000))
    if name == "esl_mixture":
        # adaptive cubature (tests/naive/bayes.py) agrees with data.py's 1001² trapezoid grid to 2.4e-7
        # (measured); and the default centres are a realization with ESL's Bayes error ≈ 0.21
        # (Hastie, Tibshirani & Friedman, §2.3.3; Zhu & Hastie 2002, §4)
        C = D.esl_centres(ds.params["centres_seed"])
        assert ds.bayes_error == pytest.approx(naive_bayes.esl_bayes_error(C), abs=1e-6)
        assert ds.bayes_error == pytest.approx(0.21, abs=0.005)


# ------------------------------------------------------------------------------------------
# USVC scenarios A and B
# ------------------------------------------------------------------------------------------
def _ce_by_quadrature(scenario, th):
    """Independent CE(Th): integrate the class densities written out from their definitions."""
    if scenario == "A":
        P, fp = 2 / 3, lambda x: 0.75 * stats.norm.pdf(x, 0.75, 0.15) + 0.25 * stats.norm.pdf(x, 0.2, 0.02)
    else:
        P, fp = 0.7, lambda x: (1 / 1.4) * ((0.7 <= x) & (x <= 0.95)) / 0.25 + (0.4 / 1.4) * stats.norm.pdf(x, 0.25, 0.02)
    miss_plus = integrate.quad(fp, -2, th, points=[0.2, 0.25, 0.7], limit=400)[0]
    miss_minus = max(0.0, 0.5 - max(th, 0.0)) / 0.5
    return P * miss_plus + (1 - P) * min(1.0, miss_minus)


def test_usvc_theoretical_ce_minima_from_spec():
    th = np.linspace(0.0, 1.0, 10001)
    ce_a = D.usvc_theoretical_ce("A", th)
    i = np.argmin(ce_a)
    assert ce_a[i] == pytest.approx(0.191, abs=1e-3) and th[i] == pytest.approx(0.5, abs=2e-3)
    loc = (th > 0.05) & (th < 0.3)
    j = np.argmin(np.where(loc, ce_a, np.inf))
    assert ce_a[j] == pytest.approx(0.231, abs=1e-3) and th[j] == pytest.approx(0.16, abs=0.01)
    assert ce_a[j] < ce_a[j - 50] and ce_a[j] < ce_a[j + 50]  # a genuine local minimum
    ce_b = D.usvc_theoretical_ce("B", th)
    k = np.argmin(ce_b)
    assert ce_b[k] == pytest.approx(0.179, abs=1e-3) and th[k] == pytest.approx(0.21, abs=0.01)
    flat = (th >= 0.5) & (th <= 0.7)
    assert np.all(np.abs(ce_b[flat] - 0.20) < 1e-3)
    for s in "AB":
        for t in (0.0, 0.16, 0.3, 0.5, 0.6, 0.8):
            assert D.usvc_theoretical_ce(s, t) == pytest.approx(_ce_by_quadrature(s, t), abs=1e-7)
    assert D.usvc_theoretical_ce("usvc_B", th[:3]).shape == (3,)
    with pytest.raises(ValueError, match="'A' or 'B'"):
        D.usvc_theoretical_ce("C", 0.5)


@pytest.mark.parametrize("scenario", ["A", "B"])
def test_usvc_empirical_ce_p_true_bins_and_bayes_error(scenario):
    ds = D.make_dataset(f"usvc_{scenario}", n=50, seed=0)
    big = ds.test_sample(200_000, 7)
    x = big.X[:, 0]
    for t in (0.16, 0.21, 0.35, 0.5, 0.6):
        emp = np.mean(np.where(x > t, 1.0, -1.0) != big.y)
        theo = float(D.usvc_theoretical_ce(scenario, t))
        assert abs(emp - theo) < 5 * _se(theo, x.size), (t, emp, theo)
    # p_true against the frequency of y = +1 in small bins (Monte Carlo)
    p = ds.p_true(big.X)
    edges = np.linspace(0.0, 1.0, 41)
    b = np.digitize(x, edges)
    checked = 0
    for k in np.unique(b):
        m = b == k
        if m.sum() < 500:
            continue
        freq = np.mean(big.y[m] > 0)
        pm = p[m].mean()
        assert abs(freq - pm) < 5 * _se(min(max(pm, 0.01), 0.99), m.sum()) + 1e-3, (edges[k - 1], freq, pm)
        checked += 1
    assert checked >= 20
    err = np.mean(ds.bayes_rule(big.X) != big.y)
    assert abs(err - ds.bayes_error) < 5 * _se(err, x.size)
    # the Bayes error is below the best threshold rule
    assert ds.bayes_error < D.usvc_theoretical_ce(scenario, np.linspace(0, 1, 2001)).min()


# ------------------------------------------------------------------------------------------
# banana, twonorm, ringnorm, waveform
# ------------------------------------------------------------------------------------------
def test_banana_recipe_noise_free():
    ds = D.banana(n=400, seed=1, r=5.0, s=0.0)
    assert ds.p_true is None and ds.bayes_error is None
    A = ds.X[ds.y > 0]
    B = ds.X[ds.y < 0] + 0.75 * 5.0
    assert np.allclose(np.hypot(A[:, 0], A[:, 1]), 5.0) and np.allclose(np.hypot(B[:, 0], B[:, 1]), 5.0)
    ta = np.mod(np.arctan2(A[:, 0], A[:, 1]), 2 * np.pi)  # x = r(sin θ, cos θ)
    assert ta.min() >= 0.125 * np.pi - 1e-9 and ta.max() <= 1.375 * np.pi + 1e-9
    tb = np.arctan2(B[:, 0], B[:, 1])
    assert tb.min() >= -0.875 * np.pi - 1e-9 and tb.max() <= 0.375 * np.pi + 1e-9
    # with noise: E x = r E(sin θ, cos θ) (closed form over the θ range), shift for class −1
    noisy = D.banana(n=20000, seed=1, r=5.0, s=1.0)
    for lab, (a, b), shift in ((1.0, (0.125, 1.375), 0.0), (-1.0, (-0.875, 0.375), -3.75)):
        a, b = a * np.pi, b * np.pi
        mean = 5.0 * np.array([np.cos(a) - np.cos(b), np.sin(b) - np.sin(a)]) / (b - a) + shift
        assert np.allclose(noisy.X[noisy.y == lab].mean(axis=0), mean, atol=0.06)


def test_twonorm_ringnorm_p_true_and_bayes_error():
    tw = D.twonorm(n=40, seed=0)
    rn = D.ringnorm(n=40, seed=0)
    a_t, a_r = 2 / math.sqrt(20), 2 / math.sqrt(20)
    Xq = np.random.default_rng(4).normal(0, 1.5, size=(40, 20))
    gp = stats.multivariate_normal(np.full(20, a_t), np.eye(20)).logpdf(Xq)
    gm = stats.multivariate_normal(np.full(20, -a_t), np.eye(20)).logpdf(Xq)
    assert np.allclose(tw.p_true(Xq), 1 / (1 + np.exp(gm - gp)), rtol=1e-10)
    rp = stats.multivariate_normal(np.zeros(20), 4 * np.eye(20)).logpdf(Xq)
    rm = stats.multivariate_normal(np.full(20, a_r), np.eye(20)).logpdf(Xq)
    assert np.allclose(rn.p_true(Xq), 1 / (1 + np.exp(rm - rp)), rtol=1e-10)
    assert tw.bayes_error == pytest.approx(stats.norm.cdf(-2.0), rel=1e-12)
    for ds in (tw, rn):
        big = ds.test_sample(100_000, 3)
        err = np.mean(ds.bayes_rule(big.X) != big.y)
        assert abs(err - ds.bayes_error) < 5 * _se(ds.bayes_error, 100_000) + 1e-4, ds.name
    big = rn.test_sample(40_000, 5)
    assert np.allclose(big.X[big.y > 0].var(axis=0).mean(), 4.0, atol=0.1)
    assert np.allclose(big.X[big.y < 0].mean(axis=0).mean(), a_r, atol=0.02)
    # closed form through non-central χ² tails (tests/naive/bayes.py), another route than data.py's
    assert rn.bayes_error == pytest.approx(naive_bayes.ringnorm_bayes_error(20), rel=1e-9)


def _waveform_density_by_quadrature(x, k):
    H = D.waveform_bases()
    ia, ib = [(0, 1), (0, 2), (1, 2)][k]
    f = lambda u: np.prod(stats.norm.pdf(x - (u * H[ia] + (1 - u) * H[ib])))  # noqa: E731
    return integrate.quad(f, 0.0, 1.0, epsabs=0, epsrel=1e-10, limit=200)[0]


def test_waveform_bases_p_true_and_bayes_error():
    H = D.waveform_bases()
    assert H.shape == (3, 21)
    assert np.argmax(H[0]) == 10 and np.argmax(H[1]) == 14 and np.argmax(H[2]) == 6 and H.max() == 6
    ds = D.waveform(n=40, seed=0)
    ds3 = D.waveform(n=40, seed=0, n_classes=3)
    assert ds.classes == ("wave 1 or 2", "wave 0")
    src = ds3.test_sample(6, 9).X
    dens = np.array([[_waveform_density_by_quadrature(x, k) for k in range(3)] for x in src])
    post = dens / dens.sum(axis=1, keepdims=True)
    assert np.allclose(ds3.p_true(src), post, rtol=1e-7, atol=1e-12)
    assert np.allclose(ds.p_true(src), post[:, 0], rtol=1e-7, atol=1e-12)
    for d in (ds, ds3):
        big = d.test_sample(60_000, 2)
        err = np.mean(d.bayes_rule(big.X) != big.y)
        assert abs(err - d.bayes_error) < 5 * _se(d.bayes_error, 60_000), (d.params, err, d.bayes_error)


# ------------------------------------------------------------------------------------------
# Real data
# ------------------------------------------------------------------------------------------
def test_sklearn_datasets():
    from sklearn.datasets import load_breast_cancer, load_iris

    raw = load_breast_cancer()
    full = D.breast_cancer(n=None, standardize=False)
    assert np.array_equal(full.X, raw.data) and full.test_sample is None
    assert np.array_equal(full.y, np.where(raw.target == 1, 1.0, -1.0)) and full.classes == ("malignant", "benign")
    std = D.make_dataset("breast_cancer", n=10_000, seed=0)  # more than the rows: all rows
    assert std.X.shape == (569, 30) and std.params["n"] == 569 and std.params["standardize"] is True
    assert np.allclose(std.X.mean(axis=0), 0, atol=1e-12) and np.allclose(std.X.std(axis=0), 1)
    sub = D.breast_cancer(n=100, seed=3, standardize=False)
    assert sub.X.shape == (100, 30)
    assert abs(np.mean(sub.y > 0) - np.mean(raw.target == 1)) < 0.011  # stratified
    assert np.array_equal(sub.X, D.breast_cancer(n=100, seed=3, standardize=False).X)
    held = sub.test_sample(None, 0)
    assert held.X.shape[0] == 469
    rows = {r.tobytes() for r in sub.X}
    assert not any(r.tobytes() in rows for r in held.X)
    both = np.vstack([sub.X, held.X])
    assert np.array_equal(np.unique(both, axis=0), np.unique(raw.data, axis=0))
    s2 = D.breast_cancer(n=100, seed=3)  # standardized with the training rows' mean and sd
    h2 = s2.test_sample(50, 1)
    mu, sd = sub.X.mean(axis=0), sub.X.std(axis=0)
    assert np.allclose(s2.X, (sub.X - mu) / sd)
    assert h2.X.shape == (50, 30) and np.allclose(h2.X * sd + mu, sub.test_sample(50, 1).X)
    ir = D.iris()
    assert ir.is_multiclass and ir.n_classes == 3 and ir.X.shape == (150, 4)
    assert np.array_equal(ir.y, load_iris().target)
    two = D.iris(keep_classes=("virginica", "versicolor"), standardize=False)
    assert not two.is_multiclass and two.classes == ("versicolor", "virginica") and two.X.shape == (100, 4)
    assert np.array_equal(two.X[two.y > 0], load_iris().data[load_iris().target == 2])
    assert D.wine().X.shape == (178, 13)
    with pytest.raises(ValueError, match="unknown class"):
        D.iris(keep_classes=("setosa", "rose"))
    with pytest.raises(ValueError, match="choose one of"):
        D.sklearn_dataset("digits")


# ------------------------------------------------------------------------------------------
# CSV loader
# ------------------------------------------------------------------------------------------
CSV_TEXT = "height,weight,species\n1.0,2.5,cat\n2.0,3.5,dog\n3.0,1.5,cat\n4.0,0.5,dog\n\n"


class _Uploaded(io.BytesIO):  # what Streamlit's UploadedFile looks like to us
    name = "animals.csv"


def test_csv_happy_paths(tmp_path):
    ds = D.dataset_from_csv(CSV_TEXT)
    assert ds.feature_names == ("height", "weight") and ds.classes == ("cat", "dog")
    assert np.array_equal(ds.X, [[1, 2.5], [2, 3.5], [3, 1.5], [4, 0.5]])
    assert np.array_equal(ds.y, [-1, 1, -1, 1]) and ds.params["label_column"] == "species"
    assert ds.p_true is None and ds.bayes_error is None and ds.test_sample is None
    path = tmp_path / "animals.csv"
    path.write_text(CSV_TEXT)
    for src in (str(path), path, CSV_TEXT.encode(), io.StringIO(CSV_TEXT), _Uploaded(CSV_TEXT.encode())):
        other = D.dataset_from_csv(src)
        assert np.array_equal(other.X, ds.X) and np.array_equal(other.y, ds.y)
    assert D.dataset_from_csv(_Uploaded(CSV_TEXT.encode())).name == "animals.csv"
    up = _Uploaded(CSV_TEXT.encode())
    up.read()  # already consumed by an earlier rerun: getvalue() still sees everything
    assert D.dataset_from_csv(up).X.shape == (4, 2)
    # label column chosen by name or position; headerless numeric file; ';' delimiter; BOM; ±1 labels
    with pytest.raises(ValueError, match=r"at least 2 points; too few for 1 \(1\), 2 \(1\).* column 'height'"):
        D.dataset_from_csv(CSV_TEXT, label_column="height")  # 'species' (text) is left out, not an error
    with pytest.raises(ValueError, match="Feature column 'species' holds text \\('cat' at line 2\\)"):
        D.dataset_from_csv(CSV_TEXT, label_column="height", feature_columns=["weight", "species"])
    first = D.dataset_from_csv("y,a,b\n1,0.5,2\n-1,1.5,3\n1,2,1\n-1,0,0\n", label_column=0)
    assert first.classes == (-1, 1) and np.array_equal(first.y, [1, -1, 1, -1])
    assert first.feature_names == ("a", "b")
    nohead = D.dataset_from_csv("0.5;2;0\n1.5;3;1\n2;1;0\n0;0;1\n", standardize=True)
    assert nohead.params["header"] is False and nohead.feature_names == ("x1", "x2")
    assert np.allclose(nohead.X.mean(axis=0), 0) and np.allclose(nohead.X.std(axis=0), 1)
    numeric_names = D.dataset_from_csv("1,2,class\n0.5,2,0\n1.5,3,1\n2,1,0\n0,0,1\n")
    assert numeric_names.feature_names == ("1", "2") and numeric_names.X.shape == (4, 2)
    bom = D.dataset_from_csv("\ufeffa,b\n1,x\n2,y\n3,x\n4,y\n".encode("utf-8"))
    assert bom.feature_names == ("a",)
    headerless_by_first_cell = D.dataset_from_csv("0.5,2,a\n1.5,3,b\n2,1,a\n0,0,b\n", label_column="a")
    assert headerless_by_first_cell.X.shape == (4, 2) and headerless_by_first_cell.classes == ("a", "b")
    multi = D.dataset_from_csv("a,b,c\n1,2,x\n2,3,y\n3,4,z\n4,5,x\n5,6,y\n6,7,z\n")
    assert multi.is_multiclass and multi.classes == ("x", "y", "z") and np.array_equal(multi.y, [0, 1, 2, 0, 1, 2])
    floats = D.dataset_from_csv("a,y\n1,1.0\n2,2\n3,1\n4,2.0\n")
    assert floats.classes == (1, 2) and np.array_equal(floats.y, [-1, 1, -1, 1])


@pytest.mark.parametrize("text, pattern", [
    ("", "empty"),
    ("  \n\n", "empty"),
    ("a,b,label\n", "header row but no data"),
    ("a,b,label\nq,oops,x\nr,s,y\nt,u,x\nv,w,y\n", "no numeric feature column besides the label column 'label': 'a' "
                                                    "\\(text, e.g. 'q' at line 2\\); 'b' \\(text"),
    ("a,b,label\n1,2,x\n3,nan,y\n4,5,x\n6,7,y\n", "(?i)column 'b' at line 3 holds 'nan'"),
    ("a,b,label\n1,2,x\n3,4,y\n-inf,5,x\n6,7,y\n", "(?i)column 'a' at line 4 holds '-inf'"),
    ("a,b,label\n1,2,x\n3,,y\n4,5,x\n6,7,y\n", "Missing value in column 'b' at line 3"),
    ("a,b,label\n1,2,x\n3,4,\n4,5,x\n6,7,y\n", "Missing label .* at line 3"),
    ("a,b,label\n1,2,x\n3,4\n4,5,x\n6,7,y\n", "Line 3 has 2 cells, fewer"),
    ("a,b,label\n1,2,x\n3,4,y,9\n4,5,x\n6,7,y\n", "Line 3 has 4 cells, more"),
    ("a,b,label\n1,2,x\n3,4,x\n4,5,x\n", "single class \\('x'\\)"),
    ("a,b,label\n1,2,x\n3,4,y\n4,5,x\n", "at least 2 points.*'y' \\(1\\)"),
    ("a,b,label\n1,2,0\n3,4,1\n4,5,0\n5,6,nan\n", "NaN/infinite labels"),
    ("label\nx\ny\n", "single column"),
])
def test_csv_error_paths(text, pattern):
    with pytest.raises(ValueError, match=pattern):
        D.dataset_from_csv(text, missing="error")
    if not any(word in pattern for word in ("Missing", "nan", "NaN")):  # the rest fail whatever the rule
        with pytest.raises(ValueError, match=pattern):
            D.dataset_from_csv(text)


def test_csv_bad_sources_and_label_columns(tmp_path):
    with pytest.raises(ValueError, match="Unknown label column 'species2'.*height, weight, species"):
        D.dataset_from_csv(CSV_TEXT, label_column="species2")
    with pytest.raises(ValueError, match="Unknown label column 3.*3 columns"):
        D.dataset_from_csv(CSV_TEXT, label_column=3)
    with pytest.raises(ValueError, match="label_column must be"):
        D.dataset_from_csv(CSV_TEXT, label_column=1.5)
    with pytest.raises(ValueError, match="neither an existing file nor CSV text"):
        D.dataset_from_csv(str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="Could not read"):
        D.dataset_from_csv(tmp_path / "missing.csv")
    with pytest.raises(ValueError, match="not UTF-8"):
        D.dataset_from_csv(b"a,b\n1,\xff\xfe\n")
    with pytest.raises(ValueError, match="No CSV given"):
        D.dataset_from_csv(None)
    with pytest.raises(ValueError, match="Cannot read a CSV"):
        D.dataset_from_csv(12)
    with pytest.raises(ValueError, match="Several columns"):
        D.dataset_from_csv("a,a,y\n1,2,x\n3,4,y\n5,6,x\n7,8,y\n", label_column="a")


_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=6).filter(
    lambda s: not D._is_number(s) and s not in ("nan", "null"))  # those two read as missing labels


@settings(max_examples=60, deadline=None)
@given(
    X=st.integers(4, 15).flatmap(lambda n: st.integers(1, 4).flatmap(lambda d: st.lists(
        st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64), min_size=d, max_size=d),
        min_size=n, max_size=n))),
    labels=st.one_of(st.tuples(_words, _words), st.tuples(st.integers(-5, 5), st.integers(-5, 5))).filter(
        lambda t: t[0] != t[1]),
    data=st.data(),
)
def test_csv_round_trip_and_label_mapping(X, labels, data):
    n = len(X)
    pattern = data.draw(st.lists(st.sampled_from([0, 1]), min_size=n, max_size=n).filter(
        lambda v: 2 <= sum(v) <= len(v) - 2))
    lab = [labels[k] for k in pattern]
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow([f"f{j}" for j in range(len(X[0]))] + ["label"])
    for row, y in zip(X, lab):
        w.writerow([repr(v) for v in row] + [y])
    ds = D.dataset_from_csv(buf.getvalue())
    assert np.array_equal(ds.X, np.array(X, dtype=np.float64))  # exact round trip
    lo, hi = sorted(labels)
    assert ds.classes == (lo, hi)
    assert np.array_equal(ds.y, np.array([1.0 if v == hi else -1.0 for v in lab]))
