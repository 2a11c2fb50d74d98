"""Breiman's twonorm, ringnorm and waveform (Breiman 1996; Breiman et al. 1984), with their Bayes errors."""
from __future__ import annotations

import functools
import math

import numpy as np
# (scipy.special is imported in the functions that use it: see svmviz/data/dataset.py)

from .._validation import check_matrix
from .._docs import fill_doc
from .._validation import check_int
from .dataset import (
    Dataset, _binomial_counts, _check_n, _check_n_seed, _check_points, _check_seed, _finish,
    _make_test_sampler, _norm_pdf, _train_rng,
)


def _twonorm_p(a, X):
    from scipy import special

    A = check_matrix(X, "X")
    return special.expit(2.0 * a * A.sum(axis=1))


def _twonorm_sample(n, seed, p, rng_maker) -> Dataset:
    from scipy import special

    rng = rng_maker(seed)
    d = p["d"]
    a = 2.0 / math.sqrt(d)
    n_plus = _binomial_counts(rng, n, 0.5, "twonorm")
    X = np.vstack([a + rng.standard_normal((n_plus, d)), -a + rng.standard_normal((n - n_plus, d))])
    y = np.concatenate([np.ones(n_plus), -np.ones(n - n_plus)])
    return _finish(
        "twonorm", X, y, rng, classes=(-1, 1), feature_names=tuple(f"x{j + 1}" for j in range(d)),
        p_true=functools.partial(_twonorm_p_checked, d, a), bayes_threshold=0.5,
        bayes_error=float(special.ndtr(-a * math.sqrt(d))), L=(1.0, 1.0),
        params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler("twonorm", p),
    )


def _twonorm_p_checked(d, a, X):
    _check_points(X, d, "twonorm p_true")
    return _twonorm_p(a, X)


@fill_doc
def twonorm(n=200, seed=0, d=20) -> Dataset:
    """Breiman's twonorm: class +1 ~ N(a·1, I), class −1 ~ N(−a·1, I), a = 2/√d (d = 20).

    Classes are equally likely (counts ~ Binomial(n, ½)). p(x) = 1/(1 + exp(−2a Σ x_j)); the
    Bayes rule is sign(Σ x_j) with error Φ(−a√d) = Φ(−2) ≈ 0.0228.

    {breiman_params}

    Returns
    -------
    Dataset
        X (n, d), y ±1, exact ``p_true`` and ``bayes_error``.

    Notes
    -----
    Breiman 1996 (the data sets of Navia-Vázquez et al. 2004, Tables 2–3; the documentation's References page).
    """
    n, seed = _check_n_seed(n, seed, "twonorm")
    return _twonorm_sample(n, seed, dict(d=check_int(d, "d", minimum=1, maximum=1000)), _train_rng)


def _ringnorm_a(d):
    """Ringnorm's class −1 mean a·1: a = 2/√d, so that ‖a·1‖ = 2 (Breiman 1996; the benchmark
    collections' ringnorm, Bayes error ≈ 1.2 %, best linear rule ≈ 23 %)."""
    return 2.0 / math.sqrt(d)


def _ringnorm_p(d, X):
    from scipy import special

    A = _check_points(X, d, "ringnorm p_true")
    a = _ringnorm_a(d)
    lp = -0.5 * d * math.log(4.0) - (A**2).sum(axis=1) / 8.0
    lm = -((A - a) ** 2).sum(axis=1) / 2.0
    return special.expit(lp - lm)


@functools.lru_cache(maxsize=16)
def _ringnorm_bayes_error(d):
    """Exact up to quadrature: with t = 1'x/√d and W = ‖x‖² − t² (independent of t, χ²_{d−1}
    scaled by the class variance), log g⁺ − log g⁻ = −d ln 2 + 3W/8 + (t − c)²/2 − t²/8, c = a√d = 2,
    so the Bayes rule says +1 iff W > τ(t) = (8/3)(d ln 2 − (t − c)²/2 + t²/8)."""
    from scipy import integrate, special

    c = _ringnorm_a(d) * math.sqrt(d)
    k = d - 1

    def tau(t):
        return (8.0 / 3.0) * (d * math.log(2.0) - 0.5 * (t - c) ** 2 + t * t / 8.0)

    def err_plus(t):  # class +1: t ~ N(0, 4), W ~ 4 χ²_k; error when W ≤ τ
        ta = tau(t)
        if ta <= 0:
            return 0.0
        return float(special.chdtr(k, ta / 4.0)) if k > 0 else 1.0

    def err_minus(t):  # class −1: t ~ N(c, 1), W ~ χ²_k; error when W > τ
        ta = tau(t)
        if ta <= 0:
            return 1.0
        return float(special.chdtrc(k, ta)) if k > 0 else 0.0

    e1, _ = integrate.quad(lambda t: err_plus(t) * _norm_pdf(t, 0.0, 2.0), -30, 30, limit=400,
                           epsabs=1e-12, epsrel=1e-10)
    e2, _ = integrate.quad(lambda t: err_minus(t) * _norm_pdf(t, c, 1.0), c - 15, c + 15, limit=400,
                           epsabs=1e-12, epsrel=1e-10)
    return 0.5 * (e1 + e2)


def _ringnorm_sample(n, seed, p, rng_maker) -> Dataset:
    rng = rng_maker(seed)
    d = p["d"]
    a = _ringnorm_a(d)
    n_plus = _binomial_counts(rng, n, 0.5, "ringnorm")
    X = np.vstack([2.0 * rng.standard_normal((n_plus, d)), a + rng.standard_normal((n - n_plus, d))])
    y = np.concatenate([np.ones(n_plus), -np.ones(n - n_plus)])
    return _finish(
        "ringnorm", X, y, rng, classes=(-1, 1), feature_names=tuple(f"x{j + 1}" for j in range(d)),
        p_true=functools.partial(_ringnorm_p, d), bayes_threshold=0.5, bayes_error=_ringnorm_bayes_error(d),
        L=(1.0, 1.0), params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler("ringnorm", p),
    )


@fill_doc
def ringnorm(n=200, seed=0, d=20) -> Dataset:
    """Breiman's ringnorm: class +1 ~ N(0, 4I), class −1 ~ N(a·1, I), a = 2/√d (d = 20).

    Classes equally likely (counts ~ Binomial(n, ½)). a = 2/√d puts the −1 mean at distance 2 from
    the origin, as in the benchmark collections (DELVE, Rätsch's) that Navia-Vázquez et al. (2004)
    used.

    {breiman_params}

    Returns
    -------
    Dataset
        X (n, d), y ±1. ``p_true`` exact from the two densities; ``bayes_error`` exact up to 1-D
        quadrature: 0.01240 for d = 20 (Breiman quotes ≈ 1.3 %). The best linear rule,
        sign(±(1'x/√d − θ)), errs ½[P(N(0, 4) > θ) + P(N(2, 1) < θ)] = 0.2297 at θ = 0.762:
        the floor of the linear machines of Navia-Vázquez et al. 2004, Table 2 (23 %).

    Notes
    -----
    Breiman 1996 (the data sets of Navia-Vázquez et al. 2004, Tables 2–3; the documentation's References page).
    """
    n, seed = _check_n_seed(n, seed, "ringnorm")
    return _ringnorm_sample(n, seed, dict(d=check_int(d, "d", minimum=2, maximum=1000)), _train_rng)


def waveform_bases() -> np.ndarray:
    """Breiman's three triangular waves h1, h2, h3 (rows), each of length 21.

    h1(j) = max(6 − |j − 11|, 0), h2(j) = h1(j − 4), h3(j) = h1(j + 4), j = 1..21 (CART §2.6.2;
    ESL §12.7).

    Returns
    -------
    ndarray of shape (3, 21)
    """
    j = np.arange(1, 22, dtype=np.float64)
    h1 = np.maximum(6.0 - np.abs(j - 11.0), 0.0)
    h2 = np.maximum(6.0 - np.abs(j - 4.0 - 11.0), 0.0)
    h3 = np.maximum(6.0 - np.abs(j + 4.0 - 11.0), 0.0)
    return np.vstack([h1, h2, h3])


# class k: x = u·h_a + (1 − u)·h_b + N(0, I), u ~ U(0, 1)
_WAVE_PAIRS = ((0, 1), (0, 2), (1, 2))


def _waveform_log_dens(A):
    """(m, 3) exact log class densities: ∫₀¹ φ₂₁(x − b − u v) du in closed form, v = a − b."""
    from scipy import special

    H = waveform_bases()
    d = H.shape[1]
    out = np.empty((A.shape[0], 3))
    for k, (ia, ib) in enumerate(_WAVE_PAIRS):
        v = H[ia] - H[ib]
        vv = float(v @ v)
        nv = math.sqrt(vv)
        R = A - H[ib]
        rv = R @ v
        m = rv / vv
        hi = nv * (1.0 - m)
        lo = -nv * m
        # log(Φ(hi) − Φ(lo)), stable in both tails (use the mirrored form when lo > 0)
        flip = lo > 0
        top = np.where(flip, -lo, hi)
        bot = np.where(flip, -hi, lo)
        lt = special.log_ndtr(top)
        lb = special.log_ndtr(bot)
        log_diff = lt + np.log1p(-np.exp(lb - lt))
        out[:, k] = (-0.5 * d * math.log(2 * math.pi) - 0.5 * ((R**2).sum(axis=1) - rv * m)
                     + 0.5 * math.log(2 * math.pi) - math.log(nv) + log_diff)
    return out


def _waveform_p(n_classes, X):
    from scipy import special

    A = _check_points(X, 21, "waveform p_true")
    post = special.softmax(_waveform_log_dens(A), axis=1)  # equal priors
    return post[:, 0] if n_classes == 2 else post


def _waveform_draw(rng, n, n_classes):
    for _ in range(10_000):
        k = rng.integers(3, size=n)
        counts = np.bincount(k, minlength=3)
        ok = (counts[0] >= 2 and n - counts[0] >= 2) if n_classes == 2 else bool(np.all(counts >= 2))
        if ok:
            break
    else:  # pragma: no cover — only for absurdly small n, which _check_n rules out
        raise ValueError("waveform: n is too small to get 2 points of each class; increase n.")
    H = waveform_bases()
    u = rng.uniform(size=n)[:, None]
    pairs = np.asarray(_WAVE_PAIRS)[k]
    X = u * H[pairs[:, 0]] + (1.0 - u) * H[pairs[:, 1]] + rng.standard_normal((n, 21))
    return X, k


def _waveform_bayes_error(n_classes):
    return _waveform_bayes_errors()[0 if n_classes == 2 else 1]


@functools.lru_cache(maxsize=1)
def _waveform_bayes_errors(n_mc=200_000):
    """(binary, 3-class) Bayes errors: fixed-seed Monte Carlo of E[min(p₀, 1 − p₀)] and
    E[1 − max_k p_k] with the exact posteriors (one shared sample)."""
    from scipy import special

    rng = np.random.default_rng(np.random.SeedSequence(20240, spawn_key=(0xBA7E5,)))
    H = waveform_bases()
    pairs_all = np.asarray(_WAVE_PAIRS)
    tot2 = tot3 = 0.0
    done = 0
    while done < n_mc:
        m = min(50_000, n_mc - done)
        k = rng.integers(3, size=m)
        u = rng.uniform(size=m)[:, None]
        pairs = pairs_all[k]
        X = u * H[pairs[:, 0]] + (1.0 - u) * H[pairs[:, 1]] + rng.standard_normal((m, 21))
        post = special.softmax(_waveform_log_dens(X), axis=1)
        tot2 += float(np.minimum(post[:, 0], 1.0 - post[:, 0]).sum())
        tot3 += float((1.0 - post.max(axis=1)).sum())
        done += m
    return tot2 / n_mc, tot3 / n_mc


def _waveform_sample(n, seed, p, rng_maker) -> Dataset:
    rng = rng_maker(seed)
    K = p["n_classes"]
    X, k = _waveform_draw(rng, n, K)
    if K == 2:
        y = np.where(k == 0, 1.0, -1.0)
        classes = ("wave 1 or 2", "wave 0")
    else:
        y = k.astype(np.int64)
        classes = ("wave 0", "wave 1", "wave 2")
    return _finish(
        "waveform", X, y, rng, classes=classes, feature_names=tuple(f"x{j + 1}" for j in range(21)),
        p_true=functools.partial(_waveform_p, K), bayes_threshold=0.5, bayes_error=_waveform_bayes_error(K),
        L=(1.0, 1.0), params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler("waveform", p),
    )


def waveform(n=200, seed=0, n_classes=2) -> Dataset:
    """Breiman's 21-D three-waveform data; binary version = wave class 0 (+1) vs the rest (−1).

    Class 0: x = u h1 + (1 − u) h2 + ε; class 1: u h1 + (1 − u) h3 + ε; class 2: u h2 + (1 − u) h3 + ε,
    u ~ U(0, 1), ε ~ N(0, I₂₁), classes equally likely (see :func:`waveform_bases`).

    Parameters
    ----------
    n : int ≥ 4 (≥ 6 for 3 classes)
    seed : int ≥ 0
    n_classes : {2, 3}
        2: y = +1 for wave class 0, −1 otherwise (the benchmark collections' binary version);
        3: y ∈ {0, 1, 2}.

    Returns
    -------
    Dataset
        X (n, 21). ``p_true`` exact: each class density is ∫₀¹ φ(x − h_b − u(h_a − h_b)) du, a closed
        form with Φ. ``bayes_error`` by fixed-seed Monte Carlo (2e5 draws) of E[1 − max_k p_k(x)].

    Notes
    -----
    Breiman, Friedman, Olshen & Stone 1984, §2.6.2; the data sets of (Navia-Vázquez et al. 2004, Tables 2–3).
    """
    seed = _check_seed(seed)
    K = check_int(n_classes, "n_classes", minimum=2, maximum=3)
    n = _check_n(n, "waveform", minimum=4 if K == 2 else 6)
    return _waveform_sample(n, seed, dict(n_classes=K), _train_rng)
