"""ESL mixture (Zhu & Hastie 2002, §4–5; Hastie, Tibshirani & Friedman §2.3.3): 2-D Gaussian mixtures, 2 or 3 classes."""
from __future__ import annotations

import functools
import math

import numpy as np
# (scipy.special is imported in the functions that use it: see svmviz/data/dataset.py)

from .._validation import check_int
from .dataset import (
    _MAX_SEED, Dataset, _check_n, _check_points, _check_seed, _finish, _make_test_sampler, _norm_pdf,
    _train_rng, _trapz_weights,
)


_ESL_VAR = 0.2  # each observation ~ N(m_k, I/5)
_ESL_CENTRES_SEED = 12  # a realization whose Bayes error (0.2101) matches ESL's ≈ 0.21
_ESL_MEANS = {2: ((1.0, 0.0), (0.0, 1.0)), 3: ((0.0, 1.0), (1.0, 0.0), (1.0, 1.0))}


def _esl_means(n_classes, class_means):
    K = check_int(n_classes, "n_classes", minimum=2, maximum=10)
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
    seed = check_int(centres_seed, "centres_seed", minimum=0, maximum=_MAX_SEED)
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
    from scipy import special

    K = centres.shape[0]
    out = np.empty((A.shape[0], K))
    for j in range(K):
        d2 = ((A[:, None, :] - centres[j][None, :, :]) ** 2).sum(axis=2)
        out[:, j] = special.logsumexp(-d2 / (2 * _ESL_VAR), axis=1) - math.log(10 * 2 * math.pi * _ESL_VAR)
    return out


def _esl_p(centres_seed, means, X):
    from scipy import special

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
    cs = check_int(centres_seed, "centres_seed", minimum=0, maximum=_MAX_SEED)
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
