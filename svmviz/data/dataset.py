"""The Dataset type, argument checks and random streams shared by every data family of svmviz.data.

A synthetic sample is drawn from ``numpy.random.default_rng(seed)``; its ``test_sample`` from a *different*
stream (``SeedSequence(seed, spawn_key=(0x7E57,))``), so a training and a test sample never coincide even for
equal seeds. ``_SYNTH`` (filled by :mod:`svmviz.data.registry`) maps a generator name to its checked sampler.
"""
from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
# scipy.special is imported inside the functions that use it, not here: ~0.1 s of CPU that the
# path page's first chart (its default data set, banana) does not need.

from .._validation import check_int, check_matrix

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

    @property
    def class_names(self) -> tuple:
        """What a person reads for each class, in the order of the coding (legends, hover, downloads).

        The data's own label when it is a name (``"Gentoo"``; ``"class 0"`` stays as it is); for a
        label that is a number, ``"class −1"`` / ``"class +1"`` (or ``"class 3"``).
        """
        return class_display_names(self.classes)

    @property
    def sign_note(self) -> str:
        """``"+1 = Gentoo, −1 = Adelie"`` for two named classes (the sign of f picks the class); ``""``
        when the classes are the codes ±1 themselves or there are more than two."""
        if self.is_multiclass or _is_number_label(self.classes[0]) and _is_number_label(self.classes[1]) \
                and {float(self.classes[0]), float(self.classes[1])} == {-1.0, 1.0}:
            return ""
        neg, pos = self.class_names
        return f"+1 = {pos}, −1 = {neg}"

    @property
    def is_standardized(self) -> bool:
        """Whether X holds standardised values (``params["feature_mean"]``, ``["feature_sd"]`` give the scale)."""
        return self.params.get("feature_mean") is not None and self.params.get("feature_sd") is not None

    def axis_title(self, j: int) -> str:
        """Feature ``j``'s name, with ``" (standardised)"`` when X holds standardised values."""
        name = str(self.feature_names[j])
        return f"{name} (standardised)" if self.is_standardized else name

    def original_values(self, j: int, values) -> np.ndarray:
        """Standardised values of feature ``j`` back in the data's units (``values`` when not standardised)."""
        v = np.asarray(values, dtype=np.float64)
        if not self.is_standardized:
            return v
        return v * float(self.params["feature_sd"][j]) + float(self.params["feature_mean"][j])

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


def _is_number_label(c) -> bool:
    return isinstance(c, numbers.Real) and not isinstance(c, bool)


def class_display_names(classes) -> tuple:
    """Names to show for the classes ``classes`` (see :attr:`Dataset.class_names`)."""
    classes = tuple(classes)
    signs = all(_is_number_label(c) for c in classes) and sorted(map(float, classes)) == [-1.0, 1.0]
    out = []
    for c in classes:
        if _is_number_label(c):
            v = float(c)
            text = f"{int(v):+d}".replace("-", "−") if signs else (str(int(v)) if v.is_integer() else repr(v))
            out.append(f"class {text}")
        else:
            out.append(str(c))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# Argument checks
# --------------------------------------------------------------------------------------------
def _check_seed(seed) -> int:
    return check_int(seed, "seed", minimum=0, maximum=_MAX_SEED)


def _check_n(n, name: str, *, minimum: int = 4, why: str = "at least 2 points per class") -> int:
    if isinstance(n, (numbers.Integral, numbers.Real)) and not isinstance(n, bool):
        if isinstance(n, numbers.Real) and not float(n).is_integer():
            raise ValueError(f"n must be an integer; got {n!r}.")
        if int(n) < minimum:
            raise ValueError(f"{name} needs n ≥ {minimum} ({why}); got n = {n!r}.")
        return int(n)
    raise ValueError(f"n must be an integer ≥ {minimum}; got {n!r}.")


def _check_n_seed(n, seed, name: str) -> tuple[int, int]:
    """(n, seed) of a simulation generator: the seed checked first, then n ≥ 4 (:func:`_check_n`)."""
    seed = _check_seed(seed)
    return _check_n(n, name), seed


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
    from scipy import special

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


def _code_labels(yi: np.ndarray, K: int):
    if K == 2:
        return np.where(yi == 1, 1.0, -1.0)
    return yi.astype(np.int64)


def _standardizer(X):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    return mu, sd


def _trapz_weights(a: float, b: float, m: int):
    x = np.linspace(a, b, m)
    w = np.full(m, (b - a) / (m - 1))
    w[0] *= 0.5
    w[-1] *= 0.5
    return x, w


# name -> checked sampler (n, seed, params, rng_maker) -> Dataset; filled by svmviz.data.registry
_SYNTH: dict[str, Callable] = {}
