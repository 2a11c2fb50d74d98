"""Wahba, Lin, Lee & Zhang 2001 (§6): two 2-D Gaussian classes, standard or non-standard costs."""
from __future__ import annotations

import functools
import math

import numpy as np
# (scipy.special is imported in the functions that use it: see svmviz/data/dataset.py)

from .dataset import (
    Dataset, _check_n, _check_pair, _check_points, _check_real, _check_seed, _finish, _make_test_sampler, _norm_pdf,
    _train_rng, _trapz_weights,
)


def wahba_costs(C_plus=1.0, C_minus=2.0, pi_plus=0.1, pi_minus=0.9, pi_s_plus=0.4):
    """Misclassification weights of the non-standard SVM and its Bayes threshold.

    Parameters
    ----------
    C_plus, C_minus : float > 0
        Cost of a false positive resp. a false negative.
    pi_plus, pi_minus : float in (0, 1), summing to 1
        Class frequencies in the target population.
    pi_s_plus : float in (0, 1)
        Frequency of class +1 in the sample (π_s⁻ = 1 − π_s⁺).

    Returns
    -------
    (L_minus, L_plus, threshold) : tuple of float
        L(−1) = C⁺π⁻/π_s⁻, L(+1) = C⁻π⁺/π_s⁺ and the Bayes threshold on p_s(x),
        L(−1)/(L(−1)+L(+1)); (1.5, 0.5, 0.75) for the paper's values.

    Notes
    -----
    Wahba, Lin, Lee & Zhang 2001, §5 and §6.
    """
    Cp = _check_real(C_plus, "C_plus", lo=0, lo_open=True)
    Cm = _check_real(C_minus, "C_minus", lo=0, lo_open=True)
    pp = _check_real(pi_plus, "pi_plus", lo=0, hi=1, lo_open=True, hi_open=True)
    pm = _check_real(pi_minus, "pi_minus", lo=0, hi=1, lo_open=True, hi_open=True)
    if abs(pp + pm - 1.0) > 1e-9:
        raise ValueError(
            f"pi_plus + pi_minus must equal 1 (target-population class frequencies); got {pp} + {pm}."
        )
    ps = _check_real(pi_s_plus, "pi_s_plus", lo=0, hi=1, lo_open=True, hi_open=True)
    L_minus = Cp * pm / (1.0 - ps)
    L_plus = Cm * pp / ps
    return L_minus, L_plus, L_minus / (L_minus + L_plus)


def _diag_gauss_logpdf(X, mean, var):
    mean = np.asarray(mean)
    var = np.asarray(var)
    return -0.5 * np.sum((X - mean) ** 2 / var + np.log(2.0 * np.pi * var), axis=1)


def _wahba_p(mean_plus, cov_plus, mean_minus, cov_minus, pi_s_plus, X):
    """p_s(x) = π_s⁺g⁺ / (π_s⁺g⁺ + π_s⁻g⁻) (Wahba et al. 2001, §5, denominator with π_s⁺, correcting a typo)."""
    from scipy import special

    A = _check_points(X, 2, "wahba2001 p_true")
    lp = np.log(pi_s_plus) + _diag_gauss_logpdf(A, mean_plus, cov_plus)
    lm = np.log1p(-pi_s_plus) + _diag_gauss_logpdf(A, mean_minus, cov_minus)
    return special.expit(lp - lm)


@functools.lru_cache(maxsize=64)
def _wahba_bayes_risk(mean_plus, cov_plus, mean_minus, cov_minus, w_plus, w_minus, m=1201):
    """∫ min(w⁺ g⁺, w⁻ g⁻) dx on a 2-D trapezoid grid (densities are products of 1-D normals)."""
    axes = []
    for j in range(2):
        sds = (math.sqrt(cov_plus[j]), math.sqrt(cov_minus[j]))
        lo = min(mean_plus[j] - 10 * sds[0], mean_minus[j] - 10 * sds[1])
        hi = max(mean_plus[j] + 10 * sds[0], mean_minus[j] + 10 * sds[1])
        axes.append(_trapz_weights(lo, hi, m))
    (x1, w1), (x2, w2) = axes
    a_p = w_plus * _norm_pdf(x1, mean_plus[0], math.sqrt(cov_plus[0]))
    b_p = _norm_pdf(x2, mean_plus[1], math.sqrt(cov_plus[1]))
    a_m = w_minus * _norm_pdf(x1, mean_minus[0], math.sqrt(cov_minus[0]))
    b_m = _norm_pdf(x2, mean_minus[1], math.sqrt(cov_minus[1]))
    total = 0.0
    for s in range(0, m, 256):
        e = min(m, s + 256)
        block = np.minimum(np.outer(a_p[s:e], b_p), np.outer(a_m[s:e], b_m))
        total += float(w1[s:e] @ block @ w2)
    return total


def _wahba_sample(n, seed, p, rng_maker) -> Dataset:
    rng = rng_maker(seed)
    n_plus = int(math.floor(p["pi_s_plus"] * n + 0.5))
    if n_plus < 2 or n - n_plus < 2:
        raise ValueError(
            f"wahba2001: n = {n} with pi_s_plus = {p['pi_s_plus']} gives {n_plus} points of class +1 and "
            f"{n - n_plus} of class −1; increase n so that both have at least 2."
        )
    n_minus = n - n_plus
    Xp = np.asarray(p["mean_plus"]) + rng.standard_normal((n_plus, 2)) * np.sqrt(p["cov_plus"])
    Xm = np.asarray(p["mean_minus"]) + rng.standard_normal((n_minus, 2)) * np.sqrt(p["cov_minus"])
    X = np.vstack([Xp, Xm])
    y = np.concatenate([np.ones(n_plus), -np.ones(n_minus)])
    L_minus, L_plus, thr = wahba_costs(p["C_plus"], p["C_minus"], p["pi_plus"], p["pi_minus"], p["pi_s_plus"])
    if not p["nonstandard"]:
        L_minus, L_plus, thr = 1.0, 1.0, 0.5
    ps = p["pi_s_plus"]
    risk = _wahba_bayes_risk(p["mean_plus"], p["cov_plus"], p["mean_minus"], p["cov_minus"],
                             L_plus * ps, L_minus * (1.0 - ps))
    return _finish(
        "wahba2001", X, y, rng,
        classes=(-1, 1), feature_names=("x1", "x2"),
        p_true=functools.partial(_wahba_p, p["mean_plus"], p["cov_plus"], p["mean_minus"], p["cov_minus"], ps),
        bayes_threshold=thr, bayes_error=risk, L=(L_minus, L_plus),
        params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler("wahba2001", p),
    )


def wahba2001(n=200, seed=0, nonstandard=False, C_plus=1.0, C_minus=2.0, pi_plus=0.1, pi_minus=0.9,
              pi_s_plus=0.4, mean_plus=(0.0, 0.0), cov_plus=(1.0, 1.0), mean_minus=(2.0, 2.0),
              cov_minus=(2.0, 1.0)) -> Dataset:
    """Wahba et al.'s two-Gaussian simulation, standard or non-standard (Wahba et al. 2001, §6).

    Class +1 ~ N(mean_plus, diag(cov_plus)), class −1 ~ N(mean_minus, diag(cov_minus)) (``cov_*``
    are the two variances); n⁺ = round(π_s⁺ n) points of class +1 (half-up rounding), the rest −1.

    Parameters
    ----------
    n : int ≥ 4
    seed : int ≥ 0
    nonstandard : bool
        False: L = (1, 1), Bayes threshold 0.5. True: L(−1) = C⁺π⁻/π_s⁻, L(+1) = C⁻π⁺/π_s⁺
        (1.5 and 0.5 by default) and threshold L(−1)/(L(−1)+L(+1)) (0.75), see :func:`wahba_costs`.
    C_plus, C_minus, pi_plus, pi_minus, pi_s_plus : float
        Costs, target-population and sample class frequencies (used when ``nonstandard``).
    mean_plus, cov_plus, mean_minus, cov_minus : pairs of float

    Returns
    -------
    Dataset
        X (n, 2), y ±1; ``p_true`` = p_s(x) = π_s⁺g⁺/(π_s⁺g⁺ + π_s⁻g⁻); ``bayes_error`` is the
        L-weighted Bayes risk ∫ min(L(+1)π_s⁺g⁺, L(−1)π_s⁻g⁻) dx (2-D trapezoid grid).

    Notes
    -----
    Wahba, Lin, Lee & Zhang 2001, §5–6; the p_s denominator uses π_s⁺ (the paper's π⁺ is a typo).
    """
    seed = _check_seed(seed)
    n = _check_n(n, "wahba2001")
    wahba_costs(C_plus, C_minus, pi_plus, pi_minus, pi_s_plus)  # validates the six cost parameters
    p = dict(
        nonstandard=bool(nonstandard), C_plus=float(C_plus), C_minus=float(C_minus), pi_plus=float(pi_plus),
        pi_minus=float(pi_minus), pi_s_plus=float(pi_s_plus),
        mean_plus=_check_pair(mean_plus, "mean_plus"), cov_plus=_check_pair(cov_plus, "cov_plus", positive=True),
        mean_minus=_check_pair(mean_minus, "mean_minus"),
        cov_minus=_check_pair(cov_minus, "cov_minus", positive=True),
    )
    return _wahba_sample(n, seed, p, _train_rng)
