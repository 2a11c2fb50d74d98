"""Data sets with known truth: the simulation designs of the five papers, real data, CSV upload.

Every synthetic generator is deterministic given ``(n, seed)`` (``numpy.random.default_rng(seed)``),
returns a :class:`Dataset` carrying the exact conditional class probability ``p_true`` (where it is
known in closed form), the Bayes rule threshold, the misclassification weights ``L`` and the Bayes
risk, and offers ``test_sample(n, seed)``: an independent sample from the same law drawn from a
*different* random stream (``SeedSequence(seed, spawn_key=(0x7E57,))``), so a training and a test
sample never coincide even for equal seeds.

Conventions (SPEC §1–2): binary labels are float ±1 with ``classes[0] -> -1`` and
``classes[1] -> +1``; multi-class labels are ints ``0..K-1`` in the order of ``classes``. Rows of a
synthetic sample are shuffled (class-sorted blocks would bias order-dependent solvers).

How each Bayes risk is computed (all deterministic):

* ``wahba2001`` and ``esl_mixture``: trapezoidal rule on a fine 2-D grid (1201² resp. 1001² nodes)
  covering ±10 resp. ±9 standard deviations around every mean/centre. The class densities are
  products of 1-D Gaussians, so the grid values are outer products (cheap). Measured
  discretisation error < 1e-7 (against 4001² resp. 3201² nodes).
* ``usvc_A`` / ``usvc_B``: adaptive 1-D quadrature of ``min_c P(c) f(x|c)`` over the support
  [0, 0.5] of the class −1 density (outside it the minimum is 0).
* ``twonorm``: closed form Φ(−a√d). ``ringnorm``: 1-D quadrature over the projection on the
  diagonal with a χ² tail for the orthogonal part (exact up to quadrature error).
* ``waveform``: fixed-seed Monte Carlo (200 000 draws) of E[1 − max_k p_k(x)] with the exact
  posterior p_k (Rao–Blackwellised; standard error ≈ 3e-4).
* ``banana`` and real data: unknown (``None``).
"""
from __future__ import annotations

import csv
import functools
import inspect
import io
import math
import numbers
import os
import pathlib
import re
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np
from scipy import special  # scipy.integrate is imported lazily (import time)

from ._validation import check_matrix

__all__ = [
    "Dataset",
    "GENERATORS",
    "make_dataset",
    "describe",
    "wahba2001",
    "wahba_costs",
    "esl_mixture",
    "esl_mixture3",
    "esl_centres",
    "usvc_A",
    "usvc_B",
    "usvc_theoretical_ce",
    "banana",
    "twonorm",
    "ringnorm",
    "waveform",
    "waveform_bases",
    "breast_cancer",
    "iris",
    "wine",
    "sklearn_dataset",
    "dataset_from_csv",
    "csv_header",
    "pick_delimiter",
    "CSV_DELIMITERS",
    "MAX_CSV_CLASSES",
]

_TEST_STREAM_KEY = 0x7E57  # spawn key of the test-sample random stream
_MAX_SEED = 2**63 - 1


# --------------------------------------------------------------------------------------------
# The Dataset container
# --------------------------------------------------------------------------------------------
# eq=False: generated __eq__/__hash__ over ndarray fields would raise ("truth value of an array is
# ambiguous" / unhashable); a Dataset compares and hashes by identity instead.
@dataclass(frozen=True, eq=False)
class Dataset:
    """A labelled sample, with the truth about its distribution where it is known.

    Attributes
    ----------
    X : ndarray of shape (n, d), float64
        Features.
    y : ndarray of shape (n,)
        float64 ±1 for two classes (``classes[0] -> -1``, ``classes[1] -> +1``); int64 ``0..K-1``
        for K > 2 classes.
    name : str
        Generator name (or file name for CSV data).
    classes : tuple
        Original labels, in the order of the coding above.
    feature_names : tuple of str, length d
    p_true : callable or None
        ``p_true(X)`` with X of shape (m, d): binary → (m,) P(y=+1 | x) under the sampling
        distribution; multi-class → (m, K) class probabilities. ``None`` if unknown.
    bayes_threshold : float
        Bayes rule = sign(p_true(x) − bayes_threshold); 0.5 in the standard case,
        L(−1)/(L(−1)+L(+1)) in Wahba's non-standard case (Wahba et al. 2001, §5).
    bayes_error : float or None
        Minimal expected (L-weighted) misclassification of a new point from the sampling law:
        E{L(+1) p [−φ]_* + L(−1)(1 − p) [φ]_*} at the Bayes rule φ (the population analogue of
        BRMISCLASS, (Wahba et al. 2001, eq. 12)); plain Bayes error when L = (1, 1). ``None`` if unknown.
    L : tuple (L(−1), L(+1))
        Misclassification weights, (1.0, 1.0) standard.
    params : dict
        Generator parameters, including ``n`` and ``seed``.
    test_sample : callable or None
        ``test_sample(n, seed) -> Dataset``: an independent sample from the same law.
    notes : tuple of str
        What the loader decided on the user's behalf and the user should be told (e.g. a dropped
        row-index column of an uploaded CSV file); empty for generated data.
    """

    X: np.ndarray
    y: np.ndarray
    name: str
    classes: tuple
    feature_names: tuple
    p_true: Callable | None = None
    bayes_threshold: float = 0.5
    bayes_error: float | None = None
    L: tuple = (1.0, 1.0)
    params: dict = field(default_factory=dict)
    test_sample: Callable | None = None
    notes: tuple = ()

    def __post_init__(self):
        if self.X.ndim != 2:
            raise ValueError(f"Dataset.X must be 2-D (n, d); got shape {self.X.shape}.")
        if self.y.shape != (self.X.shape[0],):
            raise ValueError(f"Dataset.y must have shape ({self.X.shape[0]},); got {self.y.shape}.")
        if len(self.feature_names) != self.X.shape[1]:
            raise ValueError("Dataset.feature_names must name every column of X.")

    @property
    def n_classes(self) -> int:
        return len(self.classes)

    @property
    def is_multiclass(self) -> bool:
        return self.n_classes > 2

    def bayes_rule(self, X) -> np.ndarray:
        """Bayes classifier at the points ``X`` of shape (m, d).

        Binary: ±1 float array, +1 where ``p_true(x) > bayes_threshold``. Multi-class: int array of
        the most probable class. Raises ``ValueError`` when the truth is unknown.
        """
        if self.p_true is None:
            raise ValueError(f"The Bayes rule of {self.name!r} is unknown (no p_true for this data set).")
        p = self.p_true(X)
        if self.is_multiclass:
            return np.argmax(p, axis=1)
        return np.where(p > self.bayes_threshold, 1.0, -1.0)


# --------------------------------------------------------------------------------------------
# Argument checks
# --------------------------------------------------------------------------------------------
def _check_int(value, name: str, *, minimum: int, maximum: int | None = None) -> int:
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{name} must be an integer ≥ {minimum}; got {value!r}.")
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif isinstance(value, numbers.Real) and float(value).is_integer():
        v = int(value)
    else:
        raise ValueError(f"{name} must be an integer ≥ {minimum}; got {value!r}.")
    if v < minimum or (maximum is not None and v > maximum):
        rng = f"between {minimum} and {maximum}" if maximum is not None else f"≥ {minimum}"
        raise ValueError(f"{name} must be an integer {rng}; got {value!r}.")
    return v


def _check_seed(seed) -> int:
    return _check_int(seed, "seed", minimum=0, maximum=_MAX_SEED)


def _check_n(n, name: str, *, minimum: int = 4, why: str = "at least 2 points per class") -> int:
    if isinstance(n, (numbers.Integral, numbers.Real)) and not isinstance(n, bool):
        if isinstance(n, numbers.Real) and not float(n).is_integer():
            raise ValueError(f"n must be an integer; got {n!r}.")
        if int(n) < minimum:
            raise ValueError(f"{name} needs n ≥ {minimum} ({why}); got n = {n!r}.")
        return int(n)
    raise ValueError(f"n must be an integer ≥ {minimum}; got {n!r}.")


def _check_real(value, name: str, *, lo=-math.inf, hi=math.inf, lo_open=False, hi_open=False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number; got {value!r}.") from None
    ok = math.isfinite(v) and (v > lo if lo_open else v >= lo) and (v < hi if hi_open else v <= hi)
    if not ok:
        left = "(" if lo_open else "["
        right = ")" if hi_open else "]"
        raise ValueError(f"{name} must be a finite number in {left}{lo}, {hi}{right}; got {value!r}.")
    return v


def _check_pair(value, name: str, *, positive: bool = False) -> tuple:
    try:
        arr = np.asarray(value, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be two numbers, e.g. (0, 0); got {value!r}.") from None
    if arr.shape != (2,) or not np.all(np.isfinite(arr)) or (positive and np.any(arr <= 0)):
        need = "two positive numbers (variances)" if positive else "two finite numbers"
        raise ValueError(f"{name} must be {need}; got {value!r}.")
    return (float(arr[0]), float(arr[1]))


def _norm_pdf(x, mu, sd):
    z = (np.asarray(x, dtype=np.float64) - mu) / sd
    return np.exp(-0.5 * z * z) / (sd * math.sqrt(2.0 * math.pi))


def _norm_cdf(x, mu, sd):
    return special.ndtr((np.asarray(x, dtype=np.float64) - mu) / sd)


def _unif_pdf(x, a, b):
    x = np.asarray(x, dtype=np.float64)
    return ((x >= a) & (x <= b)) / (b - a)


def _unif_cdf(x, a, b):
    return np.clip((np.asarray(x, dtype=np.float64) - a) / (b - a), 0.0, 1.0)


def _check_points(X, d: int, who: str) -> np.ndarray:
    A = check_matrix(X, "X")
    if A.shape[1] != d:
        raise ValueError(f"{who}: X must have {d} column(s); got {A.shape[1]}.")
    return A


def _train_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _test_rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(_TEST_STREAM_KEY,)))


def _binomial_counts(rng, n: int, p: float, name: str) -> int:
    """n⁺ ~ Binomial(n, p), redrawn until both classes have ≥ 2 points (conditioning that is
    negligible for the n the app uses; for tiny n it keeps every sample usable)."""
    for _ in range(10_000):
        k = int(rng.binomial(n, p))
        if k >= 2 and n - k >= 2:
            return k
    raise ValueError(f"{name}: n = {n} is too small to get 2 points of each class; increase n.")


def _finish(name, X, y, rng, **kw) -> Dataset:
    perm = rng.permutation(X.shape[0])
    X = np.ascontiguousarray(X[perm], dtype=np.float64)
    y = np.ascontiguousarray(y[perm])
    return Dataset(X=X, y=y, name=name, **kw)


def _make_test_sampler(name: str, params: dict):
    return functools.partial(_synthetic_test_sample, name, tuple(sorted(params.items())))


def _synthetic_test_sample(name: str, items: tuple, n, seed=0) -> Dataset:
    return _SYNTH[name](n, seed, dict(items), _test_rng)


# --------------------------------------------------------------------------------------------
# 1. Wahba, Lin, Lee & Zhang 2001 (Wahba et al. 2001, §6)
# --------------------------------------------------------------------------------------------
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
    """p_s(x) = π_s⁺g⁺ / (π_s⁺g⁺ + π_s⁻g⁻) (Wahba et al. 2001, §5, denominator with π_s⁺ as in SPEC §2.1)."""
    A = _check_points(X, 2, "wahba2001 p_true")
    lp = np.log(pi_s_plus) + _diag_gauss_logpdf(A, mean_plus, cov_plus)
    lm = np.log1p(-pi_s_plus) + _diag_gauss_logpdf(A, mean_minus, cov_minus)
    return special.expit(lp - lm)


def _trapz_weights(a: float, b: float, m: int):
    x = np.linspace(a, b, m)
    w = np.full(m, (b - a) / (m - 1))
    w[0] *= 0.5
    w[-1] *= 0.5
    return x, w


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
    Wahba, Lin, Lee & Zhang 2001, §5–6; the p_s denominator uses π_s⁺ (SPEC §2.1).
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


# --------------------------------------------------------------------------------------------
# 2. ESL mixture (Zhu & Hastie 2002, §4, §5; Hastie, Tibshirani & Friedman §2.3.3)
# --------------------------------------------------------------------------------------------
_ESL_VAR = 0.2  # each observation ~ N(m_k, I/5)
_ESL_CENTRES_SEED = 12  # a realization whose Bayes error (0.2101) matches ESL's ≈ 0.21
_ESL_MEANS = {2: ((1.0, 0.0), (0.0, 1.0)), 3: ((0.0, 1.0), (1.0, 0.0), (1.0, 1.0))}


def _esl_means(n_classes, class_means):
    K = _check_int(n_classes, "n_classes", minimum=2, maximum=10)
    if class_means is None:
        if K not in _ESL_MEANS:
            raise ValueError(f"give class_means (one (x1, x2) pair per class) for n_classes = {K}.")
        return K, _ESL_MEANS[K]
    try:
        M = np.asarray(class_means, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"class_means must be {K} pairs of numbers; got {class_means!r}.") from None
    if M.shape != (K, 2) or not np.all(np.isfinite(M)):
        raise ValueError(f"class_means must be {K} finite (x1, x2) pairs (one per class); got {class_means!r}.")
    return K, tuple((float(a), float(b)) for a, b in M)


def esl_centres(centres_seed=_ESL_CENTRES_SEED, n_classes=2, class_means=None) -> np.ndarray:
    """The 10 mixture centres of each class.

    Class j's centres are ``class_means[j] + N(0, I)`` draws from ``default_rng(centres_seed)``,
    class 0 first. Binary default: class 0 (= label −1, ESL "blue") around (1, 0), class 1
    (= label +1, "orange") around (0, 1); 3 classes: (0, 1), (1, 0), (1, 1).

    Parameters
    ----------
    centres_seed : int ≥ 0, default 12
        Seed of the centres.
    n_classes : {2, 3}, default 2
    class_means : sequence of n_classes pairs, optional
        Means of each class's centre distribution.

    Returns
    -------
    ndarray of shape (n_classes, 10, 2)

    Notes
    -----
    Hastie, Tibshirani & Friedman, ESL §2.3.3; Zhu & Hastie 2002, §4.
    """
    seed = _check_int(centres_seed, "centres_seed", minimum=0, maximum=_MAX_SEED)
    K, means = _esl_means(n_classes, class_means)
    return _esl_centres_cached(seed, means)


@functools.lru_cache(maxsize=64)
def _esl_centres_cached(seed: int, means: tuple) -> np.ndarray:
    rng = np.random.default_rng(seed)
    C = np.stack([np.asarray(m) + rng.standard_normal((10, 2)) for m in means])
    C.setflags(write=False)
    return C


def _esl_log_dens(A, centres):
    """(m, K) log class densities of the 10-component mixtures with covariance I/5."""
    K = centres.shape[0]
    out = np.empty((A.shape[0], K))
    for j in range(K):
        d2 = ((A[:, None, :] - centres[j][None, :, :]) ** 2).sum(axis=2)
        out[:, j] = special.logsumexp(-d2 / (2 * _ESL_VAR), axis=1) - math.log(10 * 2 * math.pi * _ESL_VAR)
    return out


def _esl_p(centres_seed, means, X):
    A = _check_points(X, 2, "esl_mixture p_true")
    C = _esl_centres_cached(centres_seed, means)
    ld = _esl_log_dens(A, C)  # equal class priors
    if C.shape[0] == 2:
        return special.expit(ld[:, 1] - ld[:, 0])
    return special.softmax(ld, axis=1)


@functools.lru_cache(maxsize=64)
def _esl_bayes_error(centres_seed, means, m=1001):
    """1 − ∫ max_j π_j g_j(x) dx, equal priors, on a 2-D trapezoid grid."""
    C = _esl_centres_cached(centres_seed, means)
    K = C.shape[0]
    sd = math.sqrt(_ESL_VAR)
    pts = C.reshape(-1, 2)
    (x1, w1), (x2, w2) = (_trapz_weights(pts[:, j].min() - 9 * sd, pts[:, j].max() + 9 * sd, m) for j in range(2))
    # class j density = (1/10) Σ_k φ(x1; c_k1) φ(x2; c_k2) = A_j' B_j
    Aj = [_norm_pdf(x1[None, :], C[j, :, 0:1], sd) / 10.0 for j in range(K)]
    Bj = [_norm_pdf(x2[None, :], C[j, :, 1:2], sd) for j in range(K)]
    total = 0.0
    for s in range(0, m, 256):
        e = min(m, s + 256)
        best = None
        for j in range(K):
            G = Aj[j][:, s:e].T @ Bj[j] / K
            best = G if best is None else np.maximum(best, G)
        total += float(w1[s:e] @ best @ w2)
    return 1.0 - total


def _esl_sample(n, seed, p, rng_maker) -> Dataset:
    rng = rng_maker(seed)
    means = p["class_means"]
    K = len(means)
    C = _esl_centres_cached(p["centres_seed"], means)
    counts = [n // K + (1 if j < n % K else 0) for j in range(K)]
    Xs, ys = [], []
    for j in range(K):
        k = rng.integers(10, size=counts[j])
        Xs.append(C[j][k] + rng.standard_normal((counts[j], 2)) * math.sqrt(_ESL_VAR))
        ys.append(np.full(counts[j], j))
    X = np.vstack(Xs)
    yi = np.concatenate(ys)
    if K == 2:
        y = np.where(yi == 1, 1.0, -1.0)
        classes = ("blue", "orange")
        name = "esl_mixture"
    else:
        y = yi.astype(np.int64)
        classes = tuple(f"class {j}" for j in range(K))
        name = "esl_mixture3" if K == 3 else f"esl_mixture (K={K})"
    return _finish(
        name, X, y, rng, classes=classes, feature_names=("x1", "x2"),
        p_true=functools.partial(_esl_p, p["centres_seed"], means),
        bayes_threshold=0.5, bayes_error=_esl_bayes_error(p["centres_seed"], means), L=(1.0, 1.0),
        params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler("esl_mixture", p),
    )


def esl_mixture(n=200, seed=0, centres_seed=_ESL_CENTRES_SEED, n_classes=2, class_means=None) -> Dataset:
    """ESL's Gaussian-mixture classes (Zhu & Hastie 2002, §4; multi-class §5).

    Each class has 10 centres (see :func:`esl_centres`, drawn once from ``centres_seed``); an
    observation picks one of its class's centres uniformly and draws N(m_k, I/5). Class sizes are
    equal (n/K; the first n mod K classes get one more).

    Parameters
    ----------
    n : int ≥ 2K
        Number of points.
    seed : int ≥ 0
        Seed of the training stream.
    centres_seed : int ≥ 0
        Seed of the centres. The default (12) is a realization whose Bayes error is 0.2101, like
        ESL's published one (≈ 0.21); its 3-class version has Bayes error 0.2190.
    n_classes : int
        2 (labels ±1: −1 "blue" around (1, 0), +1 "orange" around (0, 1)) or 3 (labels 0, 1, 2).
    class_means : sequence of K pairs, optional
        Means of each class's centre distribution N(mean, I).

    Returns
    -------
    Dataset
        X (n, 2); ``p_true`` exact from the centres (binary: P(+1|x), shape (m,); K classes:
        (m, K)); ``bayes_error`` from a 1001² trapezoid grid.

    Notes
    -----
    Hastie, Tibshirani & Friedman 2001, §2.3.3; Zhu & Hastie 2002, §4 and §5.
    """
    seed = _check_seed(seed)
    cs = _check_int(centres_seed, "centres_seed", minimum=0, maximum=_MAX_SEED)
    K, means = _esl_means(n_classes, class_means)
    n = _check_n(n, "esl_mixture", minimum=max(4, 2 * K))
    p = dict(centres_seed=cs, n_classes=K, class_means=means)
    return _esl_sample(n, seed, p, _train_rng)


def esl_mixture3(n=300, seed=0, centres_seed=_ESL_CENTRES_SEED, class_means=None) -> Dataset:
    """Three-class ESL mixture (Zhu & Hastie 2002, §5), default centre means (0, 1), (1, 0), (1, 1).

    Same as ``esl_mixture(n, seed, centres_seed, n_classes=3, class_means)``.

    Parameters
    ----------
    n : int ≥ 6, default 300
        Number of points (Zhu & Hastie 2002, Fig. 4 uses 300).
    seed : int ≥ 0
    centres_seed : int ≥ 0, default 12
    class_means : sequence of 3 pairs, optional

    Returns
    -------
    Dataset
        X (n, 2), y ∈ {0, 1, 2}; ``p_true`` returns (m, 3) class probabilities.

    Notes
    -----
    Zhu & Hastie 2002, §5, Fig. 4.
    """
    return esl_mixture(n=n, seed=seed, centres_seed=centres_seed, n_classes=3, class_means=class_means)


# --------------------------------------------------------------------------------------------
# 3. Navia-Vázquez et al. 2004, scenarios A and B (Navia-Vázquez et al. 2004, eqs. 28–29, SPEC §2.3)
# --------------------------------------------------------------------------------------------
# (P(+1), [(weight, kind, a, b)...] for f(x|+1)); f(x|-1) = U(0, 0.5) in both.
# kind "n": N(mean=a, sd=b); kind "u": U(a, b).
_USVC = {
    "A": (2.0 / 3.0, ((0.75, "n", 0.75, 0.15), (0.25, "n", 0.2, 0.02))),
    "B": (0.7, ((1.0 / 1.4, "u", 0.7, 0.95), (0.4 / 1.4, "n", 0.25, 0.02))),
}


def _usvc_scenario(scenario) -> str:
    s = str(scenario).upper().replace("USVC_", "")
    if s not in _USVC:
        raise ValueError(f"scenario must be 'A' or 'B'; got {scenario!r}.")
    return s


def _usvc_plus_pdf(s, x):
    out = np.zeros_like(x, dtype=np.float64)
    for w, kind, a, b in _USVC[s][1]:
        out += w * (_norm_pdf(x, a, b) if kind == "n" else _unif_pdf(x, a, b))
    return out


def _usvc_plus_cdf(s, x):
    out = np.zeros_like(x, dtype=np.float64)
    for w, kind, a, b in _USVC[s][1]:
        out += w * (_norm_cdf(x, a, b) if kind == "n" else _unif_cdf(x, a, b))
    return out


def usvc_theoretical_ce(scenario, th):
    """Theoretical classification error of the rule "+1 when x > Th" in scenario A or B.

    CE(Th) = P(+1) F(Th | +1) + P(−1) (1 − F(Th | −1)), closed form with normal/uniform cdfs.

    Parameters
    ----------
    scenario : {"A", "B"}
    th : float or array_like
        Thresholds.

    Returns
    -------
    ndarray of the shape of ``th``
        A: global minimum ≈ 0.191 at Th = 0.5, local minimum ≈ 0.231 near Th ≈ 0.16;
        B: global minimum ≈ 0.179 at Th ≈ 0.21, flat 0.20 on [0.5, 0.7].

    Notes
    -----
    Navia-Vázquez et al. 2004, eqs. 28–29 as read in SPEC §2.3; Fig. 2c–d.
    """
    s = _usvc_scenario(scenario)
    t = np.asarray(th, dtype=np.float64)
    if not np.all(np.isfinite(t)):
        raise ValueError("th must be finite numbers.")
    P = _USVC[s][0]
    return P * _usvc_plus_cdf(s, t) + (1.0 - P) * (1.0 - _unif_cdf(t, 0.0, 0.5))


def _usvc_p(s, X):
    A = _check_points(X, 1, f"usvc_{s} p_true")[:, 0]
    P = _USVC[s][0]
    fp = P * _usvc_plus_pdf(s, A)
    fm = (1.0 - P) * _unif_pdf(A, 0.0, 0.5)
    tot = fp + fm
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tot > 0, fp / np.where(tot > 0, tot, 1.0), 0.5)
    return p


@functools.lru_cache(maxsize=4)
def _usvc_bayes_error(s):
    from scipy import integrate

    P = _USVC[s][0]
    f = lambda x: min(P * float(_usvc_plus_pdf(s, np.array([x]))[0]), (1.0 - P) * 2.0)  # noqa: E731
    val, _ = integrate.quad(f, 0.0, 0.5, points=[0.1, 0.15, 0.2, 0.25, 0.3], limit=500,
                            epsabs=1e-12, epsrel=1e-10)
    return float(val)


def _usvc_sample(n, seed, p, rng_maker, s) -> Dataset:
    rng = rng_maker(seed)
    P, comps = _USVC[s]
    n_plus = _binomial_counts(rng, n, P, f"usvc_{s}")
    n_minus = n - n_plus
    weights = np.array([c[0] for c in comps])
    which = rng.choice(len(comps), size=n_plus, p=weights / weights.sum())
    xp = np.empty(n_plus)
    for j, (_, kind, a, b) in enumerate(comps):
        m = which == j
        k = int(m.sum())
        xp[m] = rng.normal(a, b, size=k) if kind == "n" else rng.uniform(a, b, size=k)
    xm = rng.uniform(0.0, 0.5, size=n_minus)
    X = np.concatenate([xp, xm])[:, None]
    y = np.concatenate([np.ones(n_plus), -np.ones(n_minus)])
    name = f"usvc_{s}"
    return _finish(
        name, X, y, rng, classes=(-1, 1), feature_names=("x",),
        p_true=functools.partial(_usvc_p, s), bayes_threshold=0.5, bayes_error=_usvc_bayes_error(s),
        L=(1.0, 1.0), params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler(name, p),
    )


def usvc_A(n=500, seed=0) -> Dataset:
    """Scenario A of the unbiased-SVC paper, one-dimensional (Navia-Vázquez et al. 2004, eq. 28).

    f(x|+1) = ¾ N(0.75, 0.15) + ¼ N(0.2, 0.02) (second argument = standard deviation), P(+1) = 2/3;
    f(x|−1) = U(0, 0.5), P(−1) = 1/3; class counts ~ Binomial(n, P(+1)) (redrawn in the rare case
    a class gets fewer than 2 points).

    Parameters
    ----------
    n : int ≥ 4
        Number of points.
    seed : int ≥ 0
        Seed of the training stream (``test_sample`` draws from an independent one).

    Returns
    -------
    Dataset
        X (n, 1), y ±1, exact ``p_true``; ``bayes_error`` by quadrature of min_c P(c) f(x|c).

    Notes
    -----
    Navia-Vázquez et al. 2004, eq. 28; SPEC §2.3.
    """
    seed = _check_seed(seed)
    n = _check_n(n, "usvc_A")
    return _usvc_sample(n, seed, {}, _train_rng, "A")


def usvc_B(n=500, seed=0) -> Dataset:
    """Scenario B of the unbiased-SVC paper, one-dimensional (Navia-Vázquez et al. 2004, eq. 29).

    f(x|+1) = (1/1.4) U(0.7, 0.95) + (0.4/1.4) N(0.25, 0.02), P(+1) = 0.7; f(x|−1) = U(0, 0.5),
    P(−1) = 0.3; class counts ~ Binomial(n, P(+1)).

    Parameters
    ----------
    n : int ≥ 4
        Number of points.
    seed : int ≥ 0
        Seed of the training stream (``test_sample`` draws from an independent one).

    Returns
    -------
    Dataset
        X (n, 1), y ±1, exact ``p_true`` and Bayes error.

    Notes
    -----
    Navia-Vázquez et al. 2004, eq. 29; SPEC §2.3.
    """
    seed = _check_seed(seed)
    n = _check_n(n, "usvc_B")
    return _usvc_sample(n, seed, {}, _train_rng, "B")


# --------------------------------------------------------------------------------------------
# 4. Banana (Loosli & Canu 2006, Experiments; PRTools gendatb)
# --------------------------------------------------------------------------------------------
def _banana_sample(n, seed, p, rng_maker) -> Dataset:
    rng = rng_maker(seed)
    r, s = p["r"], p["s"]
    n_plus = n // 2
    n_minus = n - n_plus
    ta = rng.uniform(0.125 * np.pi, 1.375 * np.pi, size=n_plus)
    Xp = r * np.column_stack([np.sin(ta), np.cos(ta)]) + s * rng.standard_normal((n_plus, 2))
    tb = rng.uniform(-0.875 * np.pi, 0.375 * np.pi, size=n_minus)
    Xm = r * np.column_stack([np.sin(tb), np.cos(tb)]) + s * rng.standard_normal((n_minus, 2)) - 0.75 * r
    X = np.vstack([Xp, Xm])
    y = np.concatenate([np.ones(n_plus), -np.ones(n_minus)])
    return _finish(
        "banana", X, y, rng, classes=(-1, 1), feature_names=("x1", "x2"), p_true=None,
        bayes_threshold=0.5, bayes_error=None, L=(1.0, 1.0), params={"n": n, "seed": seed, **p},
        test_sample=_make_test_sampler("banana", p),
    )


def banana(n=200, seed=0, r=5.0, s=1.0) -> Dataset:
    """"Apple and banana" data, after PRTools' ``gendatb`` (Loosli & Canu 2006, Experiments).

    Class +1: θ ~ U(0.125π, 1.375π), x = r(sin θ, cos θ) + s·N(0, I);
    class −1: θ ~ U(−0.875π, 0.375π), x = r(sin θ, cos θ) + s·N(0, I) − (0.75r, 0.75r).
    Equal classes (n⁺ = ⌊n/2⌋).

    Parameters
    ----------
    n : int ≥ 4
        Number of points.
    seed : int ≥ 0
        Seed of the training stream (``test_sample`` draws from an independent one).
    r : float > 0, default 5.0
        Radius of the arcs.
    s : float ≥ 0, default 1.0
        Standard deviation of the Gaussian noise.

    Returns
    -------
    Dataset
        X (n, 2), y ±1. No closed-form p(x): ``p_true`` and ``bayes_error`` are None.

    Notes
    -----
    Loosli & Canu 2006, Experiments; SPEC §2.4.
    """
    seed = _check_seed(seed)
    n = _check_n(n, "banana")
    p = dict(r=_check_real(r, "r", lo=0, lo_open=True), s=_check_real(s, "s", lo=0))
    return _banana_sample(n, seed, p, _train_rng)


# --------------------------------------------------------------------------------------------
# 5. Breiman's twonorm, ringnorm, waveform
# --------------------------------------------------------------------------------------------
def _twonorm_p(a, X):
    A = check_matrix(X, "X")
    return special.expit(2.0 * a * A.sum(axis=1))


def _twonorm_sample(n, seed, p, rng_maker) -> Dataset:
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


def twonorm(n=200, seed=0, d=20) -> Dataset:
    """Breiman's twonorm: class +1 ~ N(a·1, I), class −1 ~ N(−a·1, I), a = 2/√d (d = 20).

    Classes are equally likely (counts ~ Binomial(n, ½)). p(x) = 1/(1 + exp(−2a Σ x_j)); the
    Bayes rule is sign(Σ x_j) with error Φ(−a√d) = Φ(−2) ≈ 0.0228.

    Parameters
    ----------
    n : int ≥ 4
        Number of points.
    seed : int ≥ 0
        Seed of the training stream (``test_sample`` draws from an independent one).
    d : int ≥ 1, default 20
        Dimension.

    Returns
    -------
    Dataset
        X (n, d), y ±1, exact ``p_true`` and ``bayes_error``.

    Notes
    -----
    Breiman 1996 (the data sets of Navia-Vázquez et al. 2004, Tables 2–3); SPEC §2.5.
    """
    seed = _check_seed(seed)
    n = _check_n(n, "twonorm")
    return _twonorm_sample(n, seed, dict(d=_check_int(d, "d", minimum=1, maximum=1000)), _train_rng)


def _ringnorm_p(d, X):
    A = _check_points(X, d, "ringnorm p_true")
    a = 1.0 / math.sqrt(d)
    lp = -0.5 * d * math.log(4.0) - (A**2).sum(axis=1) / 8.0
    lm = -((A - a) ** 2).sum(axis=1) / 2.0
    return special.expit(lp - lm)


@functools.lru_cache(maxsize=16)
def _ringnorm_bayes_error(d):
    """Exact up to quadrature: with t = 1'x/√d and W = ‖x‖² − t² (independent of t, χ²_{d−1}
    scaled by the class variance), log g⁺ − log g⁻ = −d ln 2 + 3W/8 + (t − c)²/2 − t²/8, c = a√d = 1,
    so the Bayes rule says +1 iff W > τ(t) = (8/3)(d ln 2 − (t − c)²/2 + t²/8)."""
    from scipy import integrate

    c = 1.0
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
    a = 1.0 / math.sqrt(d)
    n_plus = _binomial_counts(rng, n, 0.5, "ringnorm")
    X = np.vstack([2.0 * rng.standard_normal((n_plus, d)), a + rng.standard_normal((n - n_plus, d))])
    y = np.concatenate([np.ones(n_plus), -np.ones(n - n_plus)])
    return _finish(
        "ringnorm", X, y, rng, classes=(-1, 1), feature_names=tuple(f"x{j + 1}" for j in range(d)),
        p_true=functools.partial(_ringnorm_p, d), bayes_threshold=0.5, bayes_error=_ringnorm_bayes_error(d),
        L=(1.0, 1.0), params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler("ringnorm", p),
    )


def ringnorm(n=200, seed=0, d=20) -> Dataset:
    """Breiman's ringnorm: class +1 ~ N(0, 4I), class −1 ~ N(a·1, I), a = 1/√d (d = 20).

    Classes equally likely (counts ~ Binomial(n, ½)).

    Parameters
    ----------
    n : int ≥ 4
        Number of points.
    seed : int ≥ 0
        Seed of the training stream (``test_sample`` draws from an independent one).
    d : int ≥ 1, default 20
        Dimension.

    Returns
    -------
    Dataset
        X (n, d), y ±1. ``p_true`` exact from the two densities; ``bayes_error`` exact up to 1-D
        quadrature: 0.01497 for d = 20 (Breiman quotes ≈ 1.3 %; a 2·10⁶-point Monte Carlo gives
        0.0150, so the quoted value is a rough estimate).

    Notes
    -----
    Breiman 1996 (the data sets of Navia-Vázquez et al. 2004, Tables 2–3); SPEC §2.5.
    """
    seed = _check_seed(seed)
    n = _check_n(n, "ringnorm")
    return _ringnorm_sample(n, seed, dict(d=_check_int(d, "d", minimum=2, maximum=1000)), _train_rng)


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
    K = _check_int(n_classes, "n_classes", minimum=2, maximum=3)
    n = _check_n(n, "waveform", minimum=4 if K == 2 else 6)
    return _waveform_sample(n, seed, dict(n_classes=K), _train_rng)


# --------------------------------------------------------------------------------------------
# 6. Real data shipped with scikit-learn
# --------------------------------------------------------------------------------------------
_SKLEARN = {"breast_cancer": "load_breast_cancer", "iris": "load_iris", "wine": "load_wine"}


@functools.lru_cache(maxsize=8)
def _load_sklearn(name):
    import sklearn.datasets

    b = getattr(sklearn.datasets, _SKLEARN[name])()
    X = np.ascontiguousarray(b.data, dtype=np.float64)
    X.setflags(write=False)
    t = np.asarray(b.target, dtype=np.int64)
    t.setflags(write=False)
    return X, t, tuple(str(c) for c in b.target_names), tuple(str(f) for f in b.feature_names)


def _stratified_subset(yi: np.ndarray, n: int, rng, K: int) -> np.ndarray:
    """Indices of a stratified random subset of size n (proportional allocation by largest
    remainder, at least 2 per class)."""
    counts = np.bincount(yi, minlength=K)
    if n < 2 * K:
        raise ValueError(f"n must be at least {2 * K} (2 points per class); got {n}.")
    quota = counts * n / counts.sum()
    alloc = np.maximum(np.floor(quota).astype(int), 2)
    alloc = np.minimum(alloc, counts)
    while alloc.sum() < n:
        j = int(np.argmax(np.where(alloc < counts, quota - alloc, -np.inf)))
        alloc[j] += 1
    while alloc.sum() > n:
        j = int(np.argmax(np.where(alloc > 2, alloc - quota, -np.inf)))
        alloc[j] -= 1
    idx = np.concatenate([rng.choice(np.flatnonzero(yi == j), size=alloc[j], replace=False) for j in range(K)])
    return rng.permutation(idx)


def _code_labels(yi: np.ndarray, K: int):
    if K == 2:
        return np.where(yi == 1, 1.0, -1.0)
    return yi.astype(np.int64)


def _standardizer(X):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    return mu, sd


def _sklearn_pick(name, keep_classes):
    X, t, tnames, fnames = _load_sklearn(name)
    if keep_classes is None:
        return X, t, tnames, fnames
    keep = tuple(keep_classes)
    if len(keep) < 2 or len(set(keep)) != len(keep):
        raise ValueError(f"keep_classes must name at least two different classes of {name}: {', '.join(tnames)}.")
    codes = []
    for c in keep:
        if c in tnames:
            codes.append(tnames.index(c))
        elif isinstance(c, numbers.Integral) and 0 <= int(c) < len(tnames):
            codes.append(int(c))
        else:
            raise ValueError(f"unknown class {c!r} in keep_classes; {name} has {', '.join(tnames)}.")
    codes = sorted(codes)
    mask = np.isin(t, codes)
    remap = {c: j for j, c in enumerate(codes)}
    return X[mask], np.array([remap[int(v)] for v in t[mask]]), tuple(tnames[c] for c in codes), fnames


def _sklearn_test_sample(name, classes, fnames, held_out_X, held_out_y, mu, sd, params, n=None, seed=0):
    seed = _check_seed(seed)
    K = len(classes)
    m = held_out_X.shape[0]
    n = m if n is None else min(_check_n(n, name, minimum=2 * K), m)
    rng = _test_rng(seed)
    idx = _stratified_subset(held_out_y, n, rng, K) if n < m else rng.permutation(m)
    X = (held_out_X[idx] - mu) / sd
    return Dataset(X=np.ascontiguousarray(X), y=_code_labels(held_out_y[idx], K), name=name, classes=classes,
                   feature_names=fnames, params={**params, "n": int(n), "seed": seed, "held_out": True})


def sklearn_dataset(name, n=None, seed=0, standardize=True, keep_classes=None) -> Dataset:
    """A real data set shipped with scikit-learn: "breast_cancer", "iris" or "wine".

    Parameters
    ----------
    name : {"breast_cancer", "iris", "wine"}
        breast_cancer is binary (malignant −1, benign +1; the "Breast" row of (Navia-Vázquez et al. 2004, Table 4));
        iris and wine have 3 classes unless ``keep_classes`` names two of them.
    n : int or None
        None or n ≥ the number of rows: all rows. Otherwise a stratified random subset of n rows
        chosen by ``seed``; the remaining rows form ``test_sample``.
    seed : int ≥ 0
    standardize : bool
        Scale each feature to mean 0, sd 1 using the training rows (the same shift and scale are
        applied to ``test_sample``). Default True: with raw breast-cancer features an RBF width
        is dominated by one large-valued column.
    keep_classes : sequence of class names (or codes), optional
        Keep only these classes (two of them gives a binary problem).

    Returns
    -------
    Dataset
        ``p_true`` and ``bayes_error`` are None (unknown).
    """
    if name not in _SKLEARN:
        raise ValueError(f"unknown scikit-learn data set {name!r}; choose one of {', '.join(_SKLEARN)}.")
    seed = _check_seed(seed)
    X, t, classes, fnames = _sklearn_pick(name, keep_classes)
    K = len(classes)
    N = X.shape[0]
    n_req = None if n is None else _check_n(n, name, minimum=2 * K)
    rng = _train_rng(seed)
    if n_req is None or n_req >= N:
        idx = np.arange(N)
        rest = np.array([], dtype=np.int64)
    else:
        idx = _stratified_subset(t, n_req, rng, K)
        rest = np.setdiff1d(np.arange(N), idx)
    Xtr = X[idx]
    if standardize:
        mu, sd = _standardizer(Xtr)
    else:
        mu, sd = np.zeros(X.shape[1]), np.ones(X.shape[1])
    params = {"n": int(idx.size), "seed": seed, "standardize": bool(standardize), "n_rows": int(N),
              "keep_classes": None if keep_classes is None else tuple(keep_classes)}
    test = None
    if rest.size >= 2 * K and np.all(np.bincount(t[rest], minlength=K) >= 2):
        test = functools.partial(_sklearn_test_sample, name, classes, fnames, X[rest], t[rest], mu, sd, params)
    return Dataset(
        X=np.ascontiguousarray((Xtr - mu) / sd), y=_code_labels(t[idx], K), name=name, classes=classes,
        feature_names=fnames, p_true=None, bayes_threshold=0.5, bayes_error=None, L=(1.0, 1.0),
        params=params, test_sample=test,
    )


def breast_cancer(n=None, seed=0, standardize=True) -> Dataset:
    """Wisconsin breast cancer (569 × 30; malignant −1, benign +1). See :func:`sklearn_dataset`.

    Parameters
    ----------
    n : int or None
        None: all rows; otherwise a stratified subset (the rest is ``test_sample``).
    seed : int ≥ 0
    standardize : bool, default True

    Returns
    -------
    Dataset
    """
    return sklearn_dataset("breast_cancer", n=n, seed=seed, standardize=standardize)


def iris(n=None, seed=0, standardize=True, keep_classes=None) -> Dataset:
    """Fisher's iris (150 × 4, 3 classes; two with ``keep_classes``). See :func:`sklearn_dataset`.

    Parameters
    ----------
    n : int or None
    seed : int ≥ 0
    standardize : bool, default True
    keep_classes : sequence of two class names, optional

    Returns
    -------
    Dataset
    """
    return sklearn_dataset("iris", n=n, seed=seed, standardize=standardize, keep_classes=keep_classes)


def wine(n=None, seed=0, standardize=True, keep_classes=None) -> Dataset:
    """UCI wine (178 × 13, 3 classes; two with ``keep_classes``). See :func:`sklearn_dataset`.

    Parameters
    ----------
    n : int or None
    seed : int ≥ 0
    standardize : bool, default True
    keep_classes : sequence of two class names, optional

    Returns
    -------
    Dataset
    """
    return sklearn_dataset("wine", n=n, seed=seed, standardize=standardize, keep_classes=keep_classes)


# --------------------------------------------------------------------------------------------
# CSV upload (pandas)
# --------------------------------------------------------------------------------------------
#: Delimiters the loader recognises, in the order that breaks ties.
CSV_DELIMITERS = (",", ";", "\t")
# The layout (delimiter, decimal mark, header, index column) is read from the first
# _CSV_SAMPLE_ROWS content rows within the first _CSV_SAMPLE_CHARS characters.
_CSV_SAMPLE_CHARS = 1 << 18
_CSV_SAMPLE_ROWS = 1000
#: A label column with more distinct values than this is not a class column (every page here has
#: two or three classes; a 150-value column is a measurement or an identifier).
MAX_CSV_CLASSES = 50
_LIST_AT_MOST = 5  # values quoted in a message
_DECIMAL_COMMA = re.compile(r"[+-]?(\d+,\d*|,\d+)([eE][+-]?\d+)?")
_DECIMAL_POINT = re.compile(r"[+-]?(\d+\.\d*|\.\d+)([eE][+-]?\d+)?")
_UNNAMED = re.compile(r"(Unnamed: 0)?")


def _read_source(obj):
    """(UTF-8 bytes without BOM, source name) from a path, CSV text, bytes or a file-like object.

    Bytes, not text: pandas reads them without the 4-byte-per-character copy a large ``str`` in a
    ``StringIO`` costs. The bytes are checked to be UTF-8 here, so the error can say so.
    """
    if obj is None:
        raise ValueError("No CSV given: pass CSV text, a path to a .csv file, or an uploaded file.")
    name = None
    raw = None
    if isinstance(obj, (bytes, bytearray, memoryview)):
        raw = bytes(obj)
    elif isinstance(obj, os.PathLike):
        name = os.path.basename(os.fspath(obj))
        try:
            with open(obj, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            raise ValueError(f"Could not read the CSV file {os.fspath(obj)!r}: {exc.strerror or exc}.") from None
    elif isinstance(obj, str):
        if "\n" not in obj and "\r" not in obj and len(obj) < 4096 and os.path.isfile(obj):
            return _read_source(pathlib.Path(obj))
        if obj.strip() and not any(ch in obj for ch in ",;\t\n\r"):
            raise ValueError(
                f"{obj!r} is neither an existing file nor CSV text; give the path of a CSV file or its content."
            )
        raw = obj.removeprefix("\ufeff").encode("utf-8")
    elif hasattr(obj, "getvalue") or hasattr(obj, "read"):
        name = getattr(obj, "name", None)
        name = os.path.basename(name) if isinstance(name, str) else None
        if hasattr(obj, "getvalue"):
            raw = obj.getvalue()
        else:
            if hasattr(obj, "seek"):
                try:
                    obj.seek(0)
                except (OSError, ValueError):
                    pass
            raw = obj.read()
        if isinstance(raw, str):
            raw = raw.removeprefix("\ufeff").encode("utf-8")
    else:
        raise ValueError(
            f"Cannot read a CSV from a {type(obj).__name__}; pass CSV text, bytes, a path or an open file."
        )
    raw = bytes(raw)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\r" in raw and b"\n" not in raw:  # old Macintosh line ends
        raw = raw.replace(b"\r", b"\n")
    try:
        raw.decode("utf-8")  # a check only: the text is not kept
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"The CSV file is not UTF-8 text (undecodable byte at position {exc.start}); save it as 'CSV UTF-8'."
        ) from None
    return raw, name


def _to_float(s: str, decimal: str = ".") -> float | None:
    """The number a cell holds (as pandas reads it, plus Python's 'nan'/'inf' spellings), else None."""
    if "_" in s:
        return None
    if decimal != ".":
        if "." in s:
            return None
        s = s.replace(decimal, ".")
    try:
        return float(s)
    except ValueError:
        return None


def _is_number(s: str, decimal: str = ".") -> bool:
    return _to_float(s, decimal) is not None


def _content_lines(raw: bytes):
    """(1-based line number, line as str) of every line that is neither blank nor a ``#`` comment."""
    for lineno, bline in enumerate(io.BytesIO(raw), start=1):
        stripped = bline.strip()
        if stripped and not stripped.startswith(b"#"):
            yield lineno, bline.decode("utf-8", "replace")


def _split(line: str, delimiter: str) -> list[str]:
    try:
        cells = next(csv.reader([line], delimiter=delimiter, skipinitialspace=True), [])
    except csv.Error:  # a quoted cell running over the line end
        cells = line.rstrip("\r\n").split(delimiter)
    return [c.strip() for c in cells]


def _sample_lines(raw: bytes) -> list[tuple[int, str]]:
    sample = raw[:_CSV_SAMPLE_CHARS]
    if len(raw) > _CSV_SAMPLE_CHARS and b"\n" in sample:
        sample = sample[: sample.rindex(b"\n")]  # no half line
    out = []
    for item in _content_lines(sample):
        out.append(item)
        if len(out) >= _CSV_SAMPLE_ROWS:
            break
    return out


def pick_delimiter(sample: str) -> str:
    """The delimiter of CSV text — ``,``, ``;`` or tab — judged on its first lines.

    Each candidate splits every content line of ``sample`` (blank and ``#`` comment lines skipped);
    the winner gives at least two cells on the most lines, the same number on every line, then the
    most cells that are numbers. A ``;`` file with decimal commas (``1,5;2,25;x``) is therefore read
    as ``;``-separated. ``,`` when nothing splits.

    Parameters
    ----------
    sample : str or bytes
        The beginning of the file (one line or many; bytes are UTF-8).

    Returns
    -------
    str
        One of :data:`CSV_DELIMITERS`.

    Examples
    --------
    >>> pick_delimiter("a,b,label\\n1.5,2,x\\n")
    ','
    >>> pick_delimiter("a;b;label\\n1,5;2,25;x\\n3,0;4,5;y\\n")
    ';'
    >>> pick_delimiter("1,5;2,25;x\\n3,0;4,5;y\\n")  # no header: the numbers decide
    ';'
    """
    if isinstance(sample, str):
        sample = sample.encode("utf-8")
    lines = [ln for _, ln in _sample_lines(sample)]
    best, best_score = ",", None
    for prio, d in enumerate(CSV_DELIMITERS):
        rows = [_split(ln, d) for ln in lines]
        counts = [len(r) for r in rows]
        if not counts:
            continue
        mode = max(set(counts), key=lambda c: (counts.count(c), c))
        if mode < 2:
            continue
        consistent = counts.count(mode) / len(counts)
        cells = [c for r in (rows[1:] or rows) for c in r if c]
        decimals = (".",) if d == "," else (".", ",")
        numeric = sum(any(_is_number(c, m) for m in decimals) for c in cells) / max(len(cells), 1)
        score = (consistent, numeric, mode, -prio)
        if best_score is None or score > best_score:
            best, best_score = d, score
    return best


def _pick_decimal(rows: list[list[str]], delimiter: str) -> str:
    """',' when the cells use decimal commas (``1,5``) more often than decimal points (never with ',' delimiters)."""
    if delimiter == ",":
        return "."
    commas = sum(1 for r in rows for c in r if _DECIMAL_COMMA.fullmatch(c))
    points = sum(1 for r in rows for c in r if _DECIMAL_POINT.fullmatch(c))
    return "," if commas > points else "."


class _CsvLayout(NamedTuple):
    delimiter: str
    decimal: str
    header: bool
    names: list  # one per column the file has (a trailing empty column excluded)
    n_columns: int  # the columns pandas sees (a trailing empty column included)
    label: int  # position of the label column in ``names``
    index: bool  # the first column looks like an unnamed row index (confirmed on every row later)
    first_cells: list
    notes: list


_COLUMN_J = re.compile(r"column (\d+)")


def _label_position(label_column, first_cells: list) -> int:
    """Position of the label column.

    A name is matched against the first row's cells (an empty cell is called ``column j``); failing
    that, ``column j`` is the j-th column (1-based) — the name :func:`csv_header` gives the columns
    of a file without header.
    """
    first_cells = [c if c else f"column {j + 1}" for j, c in enumerate(first_cells)]
    ncol = len(first_cells)
    if label_column is None:
        return ncol - 1
    if isinstance(label_column, numbers.Integral) and not isinstance(label_column, bool):
        li = int(label_column)
        if not -ncol <= li < ncol:
            raise ValueError(
                f"Unknown label column {label_column}: the file has {ncol} columns (positions 0..{ncol - 1}, "
                f"first row: {', '.join(first_cells)})."
            )
        return li % ncol
    if isinstance(label_column, str):
        hits = [j for j, c in enumerate(first_cells) if c == label_column.strip()]
        by_position = _COLUMN_J.fullmatch(label_column.strip())
        if not hits and by_position and 1 <= int(by_position.group(1)) <= ncol:
            hits = [int(by_position.group(1)) - 1]
        if not hits:
            raise ValueError(f"Unknown label column {label_column!r}; the columns are: {', '.join(first_cells)}.")
        if len(hits) > 1:
            raise ValueError(f"Several columns are called {label_column!r}; rename them or give the position.")
        return hits[0]
    raise ValueError(f"label_column must be None, a column position or a column name; got {label_column!r}.")


def _is_index_values(values) -> bool:
    """Distinct non-negative integers: what ``DataFrame.to_csv()`` writes as the row index."""
    import pandas as pd

    s = pd.Series(values)
    if not pd.api.types.is_integer_dtype(s.dtype):
        return False
    return bool(len(s) and s.min() >= 0 and s.is_unique)


def _csv_layout(raw: bytes, label_column) -> _CsvLayout:
    """Delimiter, decimal mark, header, label position and index column, from the file's first rows."""
    sample = _sample_lines(raw)
    if not sample:
        raise ValueError("The CSV file is empty; it needs a row per point with feature columns and a label column.")
    d = pick_delimiter("".join(ln for _, ln in sample).encode("utf-8"))
    rows = [_split(ln, d) for _, ln in sample]
    if all(c == "" for r in rows for c in r):
        shown = "tab" if d == "\t" else repr(d)
        raise ValueError(
            f"The CSV file holds only delimiters ({shown}) and no values; it needs a row per point with numeric "
            "feature columns and a label column."
        )
    notes = []
    first_cells = rows[0]
    n_columns = len(first_cells)
    ncol = n_columns
    if ncol >= 2 and all(not r or len(r) < ncol or r[ncol - 1] == "" for r in rows):
        ncol -= 1  # every line ends with the delimiter: no empty label column
        first_cells = first_cells[:ncol]
        notes.append("The last column is empty (the lines end with a delimiter); it was ignored.")
    if ncol < 2:
        raise ValueError(
            "The CSV file has a single column; it needs at least one numeric feature column and a label "
            "column, separated by ',', ';' or tabs."
        )
    decimal = _pick_decimal(rows, d)
    li = _label_position(label_column, first_cells)
    feat_idx = [j for j in range(ncol) if j != li]
    other_labels = [r[li] for r in rows[1:] if len(r) > li]
    header = any(not _is_number(first_cells[j], decimal) for j in feat_idx) or (
        not _is_number(first_cells[li], decimal) and bool(other_labels)
        and all(_is_number(v, decimal) for v in other_labels)
    )
    if header:
        names = [c if c else f"column {j + 1}" for j, c in enumerate(first_cells)]
    else:
        names = [f"x{k + 1}" for k in range(ncol - 1)]
        names.insert(li, "label")
    index = False
    if header and ncol >= 3 and li != 0 and _UNNAMED.fullmatch(first_cells[0]):
        col0 = [r[0] for r in rows[1:] if r]
        index = bool(col0) and all(c.isdigit() for c in col0) and len(set(col0)) == len(col0)
    if decimal == ",":
        notes.append("Numbers are read with ',' as the decimal mark (the delimiter is "
                     f"{'a tab' if d == chr(9) else repr(d)}).")
    return _CsvLayout(d, decimal, header, names, n_columns, li, index, first_cells, notes)


def _comment_lines(raw: bytes) -> list[int]:
    """0-based numbers of the lines whose first non-blank character is ``#``."""
    out = []
    pos = raw.find(b"#")
    line, counted_to = 0, 0
    while pos != -1:
        start = raw.rfind(b"\n", 0, pos) + 1
        if not raw[start:pos].strip():
            line += raw.count(b"\n", counted_to, start)
            counted_to = start
            out.append(line)
        nxt = raw.find(b"\n", pos)
        if nxt == -1:
            break
        pos = raw.find(b"#", nxt)
    return out


def _data_rows(raw: bytes, layout: _CsvLayout):
    """(line number, cells) of every data row, in the order pandas reads them (header skipped)."""
    rows = _content_lines(raw)
    if layout.header:
        next(rows, None)
    for lineno, line in rows:
        cells = _split(line, layout.delimiter)
        if len(cells) == layout.n_columns + 1 and cells[-1] == "":
            cells.pop()  # a trailing delimiter (pandas ignores it too)
        yield lineno, cells[: len(layout.names)] if len(cells) == layout.n_columns else cells


def _line_of_row(raw: bytes, layout: _CsvLayout, row: int) -> int | str:
    for k, (lineno, _) in enumerate(_data_rows(raw, layout)):
        if k == row:
            return lineno
    return "?"


def _first_bad_row(raw: bytes, layout: _CsvLayout, feat_idx: list[int]) -> ValueError | None:
    """The clear message for the first row a data set cannot be built from (None if every row is fine)."""
    names, li = layout.names, layout.label
    mark = "decimal comma ','" if layout.decimal == "," else "decimal point '.'"
    for line, cells in _data_rows(raw, layout):
        if all(c == "" for c in cells):
            continue  # an empty row (pandas drops it too)
        if len(cells) != len(names):
            more = "more" if len(cells) > len(names) else "fewer"
            return ValueError(
                f"Line {line} has {len(cells)} cells, {more} than the {len(names)} columns of the first row; "
                "fill in missing cells or remove the extra ones (check for stray delimiters)."
            )
        for j in feat_idx:
            s = cells[j]
            if s == "":
                return ValueError(f"Missing value in column {names[j]!r} at line {line}; fill it in or remove the row.")
            v = _to_float(s, layout.decimal)
            if v is None:
                return ValueError(
                    f"Non-numeric value {s!r} in feature column {names[j]!r} at line {line}; every column except "
                    f"the label column ({names[li]!r}) must hold numbers ({mark})."
                )
            if not math.isfinite(v):
                return ValueError(
                    f"Column {names[j]!r} at line {line} holds {s!r}; NaN or infinite values are not allowed — "
                    "remove or impute them."
                )
        if cells[li] == "":
            return ValueError(f"Missing label in column {names[li]!r} at line {line}; every point needs a class.")
    return None


def _read_frame(raw: bytes, layout: _CsvLayout):
    import warnings

    import pandas as pd

    kw = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}  # exact floats
    comments = _comment_lines(raw) if b"#" in raw else []
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)  # rows longer than the header: not silently cut
        warnings.simplefilter("ignore", pd.errors.DtypeWarning)  # mixed chunks: the checks below say what is wrong
        return pd.read_csv(
            io.BytesIO(raw), encoding="utf-8", sep=layout.delimiter, decimal=layout.decimal, header=0 if layout.header else None,
            index_col=False, skiprows=comments or None, skip_blank_lines=True, skipinitialspace=True,
            keep_default_na=False, na_values=[""], quotechar='"', engine="c", **kw,
        )


def _format_values(values) -> str:
    shown = ", ".join(repr(v) for v in values[:_LIST_AT_MOST])
    return shown + (f", … ({len(values) - _LIST_AT_MOST} more)" if len(values) > _LIST_AT_MOST else "")


def _csv_labels(data: bytes, layout: _CsvLayout, col):
    """(codes 0..K−1, classes) of the label column; clear errors for missing, NaN and continuous labels."""
    import pandas as pd

    name = layout.names[layout.label]
    numeric = pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype)
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    if np.any(codes < 0):
        return None  # missing labels: the row scan says where
    if numeric:
        values = [float(u) for u in np.asarray(uniques, dtype=np.float64)]
        shown = [repr(v) for v in values]
    else:
        shown = [str(u).strip() for u in uniques]
        if any(s == "" for s in shown):
            return None
        numeric = all(_is_number(s, layout.decimal) for s in shown)
        values = [_to_float(s, layout.decimal) for s in shown] if numeric else shown
    if numeric:
        for k, v in enumerate(values):
            if not math.isfinite(v):
                line = _line_of_row(data, layout, int(col.index[int(np.argmax(codes == k))]))
                raise ValueError(f"Label {shown[k]!r} at line {line} is not a class; NaN/infinite labels are not allowed.")
    order = sorted(set(values))
    K = len(order)
    continuous = numeric and any(not float(v).is_integer() for v in order)
    if K > MAX_CSV_CLASSES:
        what = "a continuous measurement" if continuous else "an identifier or a measurement"
        raise ValueError(
            f"The label column {name!r} holds {K} different values (e.g. {_format_values(order)}); a label column "
            f"holds a few classes (at most {MAX_CSV_CLASSES}), so this looks like {what}. Choose the column with the "
            "classes, or group the values into classes."
        )
    rank = {v: j for j, v in enumerate(order)}
    remap = np.array([rank[v] for v in values], dtype=np.int64)
    yi = remap[codes]
    classes = tuple(int(v) if numeric and float(v).is_integer() else v for v in order)
    if K < 2:
        raise ValueError(
            f"The label column {name!r} holds a single class ({classes[0]!r}); a classifier needs two "
            "or more — check that the right column is the label."
        )
    counts = np.bincount(yi, minlength=K)
    few = [j for j in range(K) if counts[j] < 2]
    if few and continuous and len(few) > K / 2:
        raise ValueError(
            f"The label column {name!r} holds {K} different non-integer numbers, most of them once "
            f"(e.g. {_format_values(list(order))}); it looks like a continuous measurement, not classes. Choose the "
            "column with the classes, or group the values into classes."
        )
    if few:
        listed = [f"{classes[j]!r} ({counts[j]})" for j in few]
        more = f" and {len(listed) - _LIST_AT_MOST} more" if len(listed) > _LIST_AT_MOST else ""
        raise ValueError(
            f"Each class needs at least 2 points; too few for {', '.join(listed[:_LIST_AT_MOST])}{more} in column "
            f"{name!r}. Add points or remove those rows."
        )
    return yi, classes


def csv_header(content) -> list[str]:
    """The column names of a CSV file as :func:`dataset_from_csv` sees them — the choices of label column.

    With a header row: its names (an empty one becomes ``"column j"``), without an unnamed row-index
    column or an empty trailing column. Without a header: ``"column 1"``, ``"column 2"``, … (the
    first row's numbers would be ambiguous names). Only the first rows are read. An unreadable file
    gives ``[]`` (:func:`dataset_from_csv` then says what is wrong).

    Parameters
    ----------
    content : bytes, str, path-like or file-like
        What :func:`dataset_from_csv` accepts.

    Returns
    -------
    list of str
        One name per column the loader keeps; each is a valid ``label_column``.

    Examples
    --------
    >>> csv_header(b",height,weight,species\\n0,1.0,2.5,cat\\n1,2.0,3.5,dog\\n")
    ['height', 'weight', 'species']
    >>> csv_header(b"# measured 2024\\na;b;label\\n1,5;2;x\\n")
    ['a', 'b', 'label']
    """
    try:
        raw, _ = _read_source(content)
        layout = _csv_layout(raw, None)
    except ValueError:
        return []
    if not layout.header:
        return [f"column {j + 1}" for j in range(len(layout.names))]
    return list(layout.names[1:] if layout.index else layout.names)


def dataset_from_csv(file_or_text, label_column=None, standardize=False) -> Dataset:
    """Load a labelled data set from CSV: numeric feature columns and one label column (read by pandas).

    Parameters
    ----------
    file_or_text : str, path-like, bytes or file-like
        A path to an existing file, the CSV text itself, its bytes (UTF-8, with or without BOM), or
        an open file / Streamlit ``UploadedFile``.
    label_column : None, int or str
        None: the last column. int: 0-based position among the file's columns (negative counts from
        the end). str: a header name (for a file without header, the text of that column in the
        first row), or ``"column j"`` for the j-th column (1-based) — :func:`csv_header` lists the
        choices.
    standardize : bool
        Scale every feature column to mean 0, sd 1 (constant columns are only centred).

    Returns
    -------
    Dataset
        ``X`` of shape (n, d) float64 and ``y`` of shape (n,): two label values → y ±1 (``classes``
        sorted, numerically when all labels are numbers; classes[0] → −1); more values → y ∈
        {0..K−1} (``is_multiclass``). ``p_true`` and ``bayes_error`` are None. ``notes`` says what
        the loader decided for the user (a dropped index column, decimal commas, a trailing
        delimiter); ``params`` records the delimiter, decimal mark and header.

    Raises
    ------
    ValueError
        Naming the line and column: empty file, only delimiters, header without data, a single
        column, unknown label column, non-numeric feature text, missing/NaN/infinite cells, ragged
        rows, a single class, a class with fewer than 2 points, a continuous (or identifier) label
        column.

    Notes
    -----
    The layout is read from the first rows: the delimiter (``,`` ``;`` or tab, see
    :func:`pick_delimiter`); the decimal mark (``,`` when a ``;``- or tab-separated file writes
    ``1,5``); the header (the first row is a header when one of its feature cells is not a number,
    or when only its label cell is text while every other label is a number). Blank lines and lines
    starting with ``#`` are skipped; a delimiter ending every line adds no column. A first column
    with no name in the header and distinct non-negative integers in every row is the row index
    that ``DataFrame.to_csv()`` writes: it is dropped, with a note. Then ``pandas.read_csv`` (C
    engine) reads the whole file; when it finds a problem, the rows are scanned once more to say
    which line is wrong.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"height": [1.0, 2.0, 3.0, 4.0], "species": ["cat", "dog", "cat", "dog"]})
    >>> ds = dataset_from_csv(df.to_csv())  # with the index column pandas writes
    >>> ds.X.shape, ds.feature_names, ds.classes, ds.y.tolist()
    ((4, 1), ('height',), ('cat', 'dog'), [-1.0, 1.0, -1.0, 1.0])
    >>> print(ds.notes[0])
    Dropped the first column: it has no name and holds the row numbers 0 … 3, the index that pandas' DataFrame.to_csv() writes. Give it a name in the header to keep it as a feature.
    >>> dataset_from_csv("a;b;label\\n1,5;2;x\\n2,5;3;y\\n0,5;1;x\\n3,0;2;y\\n").X[:, 0].tolist()
    [1.5, 2.5, 0.5, 3.0]
    """
    import pandas as pd

    raw, source = _read_source(file_or_text)
    layout = _csv_layout(raw, label_column)
    names, li = layout.names, layout.label
    feat_idx = [j for j in range(len(names)) if j != li]

    def row_error():
        return _first_bad_row(raw, layout, feat_idx) or ValueError(
            "The CSV file could not be read as numeric feature columns and a label column; check the delimiter "
            f"({layout.delimiter!r}) and the decimal mark ({layout.decimal!r})."
        )

    try:
        df = _read_frame(raw, layout)
    except (pd.errors.ParserError, pd.errors.ParserWarning):
        raise row_error() from None
    except pd.errors.EmptyDataError:
        df = None
    if df is not None and df.shape[1] != layout.n_columns:
        raise row_error()
    if df is not None:
        beyond = df.iloc[:, len(names):].notna().any(axis=1).to_numpy()  # the "empty" trailing column
        if beyond.any():
            line = _line_of_row(raw, layout, int(df.index[int(np.argmax(beyond))]))
            raise ValueError(
                f"Line {line} has a value after the last column (the first lines end with an empty cell, so "
                f"the file has {len(names)} columns); remove it or give that column a name in the header."
            )
        df = df.iloc[:, : len(names)]
        empty = df.isna().all(axis=1).to_numpy()
        if empty.any():  # rows of empty cells (spreadsheets write them)
            df = df[~empty]
    if df is None or df.shape[0] == 0:
        if layout.header:
            raise ValueError("The CSV file has a header row but no data rows; add one row per point.")
        raise ValueError("The CSV file is empty; it needs a row per point with feature columns and a label column.")
    for j in feat_idx:
        col = df.iloc[:, j]
        ok = pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype)
        if not ok or (pd.api.types.is_float_dtype(col.dtype) and not np.isfinite(col.to_numpy()).all()):
            raise row_error()
    labels = _csv_labels(raw, layout, df.iloc[:, li])
    if labels is None:
        raise row_error()
    yi, classes = labels
    notes = list(layout.notes)
    index_name = None
    if layout.index and _is_index_values(df.iloc[:, 0]):
        n_rows = df.shape[0]
        idx = df.iloc[:, 0].to_numpy()
        span = (f"the row numbers 0 … {n_rows - 1}" if np.array_equal(idx, np.arange(n_rows))
                else f"{n_rows} distinct row numbers from {idx.min()} to {idx.max()}")
        notes.insert(0, f"Dropped the first column: it has no name and holds {span}, the index that pandas' "
                        "DataFrame.to_csv() writes. Give it a name in the header to keep it as a feature.")
        index_name = names[0]
        feat_idx = feat_idx[1:]
        if not feat_idx:
            raise ValueError("The CSV file has no feature column besides its row index and the label column.")
    X = df.iloc[:, feat_idx].to_numpy(dtype=np.float64)
    n = X.shape[0]
    if standardize:
        mu, sd = _standardizer(X)
        X = (X - mu) / sd
    K = len(classes)
    return Dataset(
        X=np.ascontiguousarray(X), y=_code_labels(yi, K), name=source or "uploaded CSV", classes=classes,
        feature_names=tuple(names[j] for j in feat_idx), p_true=None, bayes_threshold=0.5, bayes_error=None,
        L=(1.0, 1.0),
        params={"n": n, "seed": None, "source": source, "label_column": names[li], "standardize": bool(standardize),
                "delimiter": layout.delimiter, "decimal": layout.decimal, "header": bool(layout.header),
                "index_column": index_name},
        test_sample=None, notes=tuple(notes),
    )


# --------------------------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------------------------
# internal samplers (n, seed, params, rng_maker) -> Dataset, used by test_sample
def _usvc_A_sampler(n, seed, p, rng_maker):
    return _usvc_sample(n, seed, p, rng_maker, "A")


def _usvc_B_sampler(n, seed, p, rng_maker):
    return _usvc_sample(n, seed, p, rng_maker, "B")


def _checked_sampler(name, sampler, minimum):
    def run(n, seed, p, rng_maker):
        return sampler(_check_n(n, name, minimum=minimum(p)), _check_seed(seed), p, rng_maker)

    return run


def _esl_min_n(p):
    return max(4, 2 * p["n_classes"])


_SYNTH = {
    "wahba2001": _checked_sampler("wahba2001", _wahba_sample, lambda p: 4),
    "esl_mixture": _checked_sampler("esl_mixture", _esl_sample, _esl_min_n),
    "usvc_A": _checked_sampler("usvc_A", _usvc_A_sampler, lambda p: 4),
    "usvc_B": _checked_sampler("usvc_B", _usvc_B_sampler, lambda p: 4),
    "banana": _checked_sampler("banana", _banana_sample, lambda p: 4),
    "twonorm": _checked_sampler("twonorm", _twonorm_sample, lambda p: 4),
    "ringnorm": _checked_sampler("ringnorm", _ringnorm_sample, lambda p: 4),
    "waveform": _checked_sampler("waveform", _waveform_sample, lambda p: 4 if p["n_classes"] == 2 else 6),
}

GENERATORS: dict[str, Callable[..., Dataset]] = {
    "wahba2001": wahba2001,
    "esl_mixture": esl_mixture,
    "esl_mixture3": esl_mixture3,
    "usvc_A": usvc_A,
    "usvc_B": usvc_B,
    "banana": banana,
    "twonorm": twonorm,
    "ringnorm": ringnorm,
    "waveform": waveform,
    "breast_cancer": breast_cancer,
    "iris": iris,
    "wine": wine,
}

_DESCRIPTIONS = {
    "wahba2001": "2-D Gaussians N((0,0), I) vs N((2,2), diag(2,1)), 40/60 — Wahba, Lin, Lee & Zhang 2001 §6 "
                 "(standard or non-standard costs)",
    "esl_mixture": "2-D mixtures of 10 Gaussians per class, Bayes error 0.21 — Zhu & Hastie 2002 §4 (ESL §2.3.3)",
    "esl_mixture3": "3-class 2-D Gaussian mixtures — Zhu & Hastie 2002 §5 (multi-class IVM)",
    "usvc_A": "1-D scenario A: Gaussian mixture vs uniform, best threshold 0.5 — Navia-Vázquez et al. 2004 (eq. 28)",
    "usvc_B": "1-D scenario B: uniform + narrow Gaussian vs uniform — Navia-Vázquez et al. 2004 (eq. 29)",
    "banana": "2-D curved 'apple and banana' classes (PRTools gendatb) — Loosli & Canu 2006",
    "twonorm": "20-D Gaussians N(±a·1, I), Bayes error 2.3 % — Breiman 1996 (Navia-Vázquez et al. 2004 Tables 2–3)",
    "ringnorm": "20-D N(0, 4I) vs N(a·1, I), Bayes error 1.5 % — Breiman 1996 (Navia-Vázquez et al. 2004 Tables 2–3)",
    "waveform": "21-D noisy waveforms, class 0 vs rest — Breiman et al. 1984 (Navia-Vázquez et al. 2004 Tables 2–3)",
    "breast_cancer": "Wisconsin breast cancer, 569 × 30, real (scikit-learn) — 'Breast' of Navia-Vázquez et al. 2004 "
                     "Table 4",
    "iris": "Fisher's iris, 150 × 4, 3 classes, real (scikit-learn)",
    "wine": "UCI wine, 178 × 13, 3 classes, real (scikit-learn)",
}


def describe(name: str) -> str:
    """One-line description of a generator (with the paper it comes from), for the UI.

    Parameters
    ----------
    name : str
        A key of :data:`GENERATORS`.

    Returns
    -------
    str
    """
    if name not in _DESCRIPTIONS:
        raise ValueError(f"unknown data set {name!r}; choose one of {', '.join(GENERATORS)}.")
    return _DESCRIPTIONS[name]


def make_dataset(name: str, n: int = 200, seed: int = 0, **params) -> Dataset:
    """Generate (or load) the data set ``name`` with ``n`` points and ``seed``.

    Parameters
    ----------
    name : str
        A key of :data:`GENERATORS` (the simulations of the five papers, and scikit-learn's
        breast_cancer, iris, wine).
    n : int
        Number of points (real data: a stratified subset; n ≥ the number of rows or None → all rows).
    seed : int ≥ 0
        Same seed, same data.
    **params
        The generator's own parameters (see its docstring).

    Returns
    -------
    Dataset
        ``X`` (n, d), ``y`` (n,) — ±1 for two classes — and, for the simulations, the truth:
        ``p_true``, ``bayes_threshold``, ``bayes_error``, ``test_sample``.

    Raises
    ------
    ValueError
        Unknown name or parameter (the message lists the valid ones), or invalid values.

    Examples
    --------
    >>> from svmviz import make_dataset
    >>> ds = make_dataset("wahba2001", n=100, seed=0)  # Wahba et al. 2001, §6
    >>> ds.X.shape, ds.classes, ds.L
    ((100, 2), (-1, 1), (1.0, 1.0))
    >>> round(ds.bayes_error, 3)  # the error of the Bayes rule sign(p(x) − ½)
    0.095
    >>> ns = make_dataset("wahba2001", n=100, seed=0, nonstandard=True)  # unequal costs, biased sampling
    >>> ns.L, ns.bayes_threshold
    ((1.5, 0.5), 0.75)
    >>> ds.test_sample(1000, seed=1).X.shape  # an independent sample from the same law
    (1000, 2)
    >>> make_dataset("wahba2001", n=100, sigma=2)
    Traceback (most recent call last):
    ...
    ValueError: unknown parameter(s) sigma for 'wahba2001'; valid parameters: nonstandard, C_plus, C_minus, pi_plus, pi_minus, pi_s_plus, mean_plus, cov_plus, mean_minus, cov_minus.
    """
    if name not in GENERATORS:
        raise ValueError(f"unknown data set {name!r}; choose one of {', '.join(GENERATORS)}.")
    gen = GENERATORS[name]
    allowed = [p for p in inspect.signature(gen).parameters if p not in ("n", "seed")]
    bad = sorted(set(params) - set(allowed))
    if bad:
        valid = ", ".join(allowed) if allowed else "none besides n and seed"
        raise ValueError(f"unknown parameter(s) {', '.join(bad)} for {name!r}; valid parameters: {valid}.")
    return gen(n=n, seed=seed, **params)


# --------------------------------------------------------------------------------------------
# 6. Known ANOVA structure: main effects of x1 and x2, their interaction, d − 2 noise variables
#    (for the SS-ANOVA kernels of Wahba 1998, §1.1 and the variable selection of §2)
# --------------------------------------------------------------------------------------------
def anova_structure_terms(X, interaction=8.0) -> dict:
    """The true logit of :func:`anova_structure` split into its ANOVA terms at the rows of ``X``.

    η(x) = 4 x1 + 4 cos(π x2) + a x1 x2: on U(−1, 1)^d these three terms are exactly the functional
    ANOVA decomposition (each has mean 0 in each of its variables); x3, …, xd contribute nothing.

    Parameters
    ----------
    X : array_like of shape (m, d), d ≥ 2
    interaction : float, default 8.0
        The coefficient a.

    Returns
    -------
    dict
        ``{(0,): 4 x1, (1,): 4 cos(π x2), (0, 1): a x1 x2}``, each of shape (m,) — keys as the
        components of :class:`svmviz.kernels.SSANOVAKernel`.
    """
    A = check_matrix(X, "X")
    if A.shape[1] < 2:
        raise ValueError(f"anova_structure has at least 2 variables; X has {A.shape[1]} column(s).")
    x1, x2 = A[:, 0], A[:, 1]
    return {(0,): 4.0 * x1, (1,): 4.0 * np.cos(np.pi * x2), (0, 1): float(interaction) * x1 * x2}


def _anova_eta(interaction, A):
    return sum(anova_structure_terms(A, interaction).values())


def _anova_p(d, interaction, X):
    A = _check_points(X, d, "anova_structure p_true")
    return special.expit(_anova_eta(interaction, A))


@functools.lru_cache(maxsize=32)
def _anova_bayes_error(interaction, m=801):
    """E[min(p, 1 − p)] = E[expit(−|η(x1, x2)|)] over U(−1, 1)²: a tensor Gauss–Legendre rule on the
    square (η is smooth, min(p, 1 − p) has a kink on η = 0; 801² nodes agree with 401² and 1601² to ≈ 1e−6)."""
    t, w = np.polynomial.legendre.leggauss(m)
    G = np.stack(np.meshgrid(t, t, indexing="ij"), axis=-1).reshape(-1, 2)
    val = special.expit(-np.abs(_anova_eta(interaction, G))).reshape(m, m)
    return float(w @ val @ w) / 4.0


def _anova_sample(n, seed, p, rng_maker) -> Dataset:
    rng = rng_maker(seed)
    d, a = p["d"], p["interaction"]
    for _ in range(10_000):  # redraw until both classes have ≥ 2 points (negligible for n ≥ 20)
        X = rng.uniform(-1.0, 1.0, size=(n, d))
        y = np.where(rng.random(n) < special.expit(_anova_eta(a, X)), 1.0, -1.0)
        if min(np.sum(y > 0), np.sum(y < 0)) >= 2:
            break
    else:
        raise ValueError(f"anova_structure: n = {n} is too small to get 2 points of each class; increase n.")
    return _finish(
        "anova_structure", X, y, rng, classes=(-1, 1), feature_names=tuple(f"x{j + 1}" for j in range(d)),
        p_true=functools.partial(_anova_p, d, a), bayes_threshold=0.5, bayes_error=_anova_bayes_error(a),
        L=(1.0, 1.0), params={"n": n, "seed": seed, **p}, test_sample=_make_test_sampler("anova_structure", p),
    )


def anova_structure(n=200, seed=0, d=6, interaction=8.0) -> Dataset:
    """Known ANOVA structure: x ~ U(−1, 1)^d, logit p(x) = 4 x1 + 4 cos(π x2) + a·x1·x2.

    Only x1 and x2 matter: a linear main effect of x1, a curved main effect of x2 and their
    two-factor interaction (a = ``interaction``); x3, …, xd are noise. Each term has mean 0 in each
    of its variables, so they are the functional ANOVA decomposition of the logit — the structure an
    SS-ANOVA kernel (Wahba 1998, eqs. 1.12–1.13) can recover, and the setting of "SVMs as a
    preprocessor for variable selection" (Wahba 1998, §2). With a = 0 the truth is additive.
    Labels are drawn y = +1 with probability p(x) (class counts random).

    Parameters
    ----------
    n : int ≥ 4
        Number of points.
    seed : int ≥ 0
        Seed of the training stream (``test_sample`` draws from an independent one).
    d : int, 2 ≤ d ≤ 100, default 6
        Dimension: 2 informative variables and d − 2 noise variables.
    interaction : float, default 8.0
        Coefficient a of x1·x2 in the logit (|a| ≤ 100).

    Returns
    -------
    Dataset
        X (n, d), y ±1, exact ``p_true``; Bayes rule sign(logit); ``bayes_error`` by 2-D quadrature
        (0.1192 for a = 8, 0.1335 for a = 0).

    Examples
    --------
    >>> from svmviz.data import anova_structure
    >>> ds = anova_structure(n=100, seed=0)
    >>> ds.X.shape, round(ds.bayes_error, 4)
    ((100, 6), 0.1192)
    """
    seed = _check_seed(seed)
    n = _check_n(n, "anova_structure")
    p = dict(d=_check_int(d, "d", minimum=2, maximum=100),
             interaction=_check_real(interaction, "interaction", lo=-100.0, hi=100.0))
    return _anova_sample(n, seed, p, _train_rng)


_SYNTH["anova_structure"] = _checked_sampler("anova_structure", _anova_sample, lambda p: 4)
GENERATORS["anova_structure"] = anova_structure
_DESCRIPTIONS["anova_structure"] = ("x ~ U(−1, 1)^d; logit = 4x1 + 4cos(πx2) + 8x1x2, x3…xd noise — known "
                                    "main effects and interaction for SS-ANOVA kernels (Wahba 1998 §1.1, §2)")
__all__ += ["anova_structure", "anova_structure_terms"]


# --------------------------------------------------------------------------------------------
# 7. A seeded, stratified subsample of any data set (uploads larger than a page computes with)
# --------------------------------------------------------------------------------------------
def subsample_dataset(ds: Dataset, n: int, seed: int = 0) -> Dataset:
    """A seeded, stratified random subsample of ``n`` rows of ``ds`` (classes kept in proportion).

    For data sets larger than a computation can hold — the criteria surface keeps about 3 n²
    doubles — the pages offer this instead of using every row of an uploaded file.

    Parameters
    ----------
    ds : Dataset
        Any data set (two or more classes).
    n : int
        Rows to keep, at least 2 per class. ``n`` ≥ the rows of ``ds`` returns ``ds`` unchanged.
    seed : int
        Same seed, same rows.

    Returns
    -------
    Dataset
        ``X`` of shape (n, d) and ``y`` of shape (n,) in a random order; each class gets its share
        of n by largest remainder (at least 2 points, at most all of its points). ``name``,
        ``classes``, ``feature_names``, the truth and ``test_sample`` are those of ``ds``;
        ``params`` gains ``subsample_of`` (the original row count), ``n`` and ``seed``; ``notes``
        gains one saying what was kept.

    Raises
    ------
    ValueError
        ``n`` smaller than 2 per class, or a negative seed.

    Examples
    --------
    >>> ds = make_dataset("banana", n=400, seed=1)
    >>> sub = subsample_dataset(ds, 100, seed=3)
    >>> sub.X.shape, int((sub.y > 0).sum()) == round(100 * float((ds.y > 0).mean()))
    ((100, 2), True)
    """
    from dataclasses import replace

    N = ds.X.shape[0]
    n = _check_int(n, "n", minimum=1)
    seed = _check_seed(seed)
    if n >= N:
        return ds
    K = ds.n_classes
    yi = ds.y.astype(np.int64) if ds.is_multiclass else (ds.y > 0).astype(np.int64)
    idx = _stratified_subset(yi, n, np.random.default_rng(seed), K)
    note = (f"Using a stratified random subsample of {n} of the {N} rows (seed {seed}): each class keeps its "
            "share of the rows.")
    return replace(ds, X=np.ascontiguousarray(ds.X[idx]), y=ds.y[idx].copy(),
                   params={**ds.params, "n": n, "seed": seed, "subsample_of": N}, notes=tuple(ds.notes) + (note,))


__all__.append("subsample_dataset")
