"""The registry of data sets: GENERATORS, make_dataset and describe (one-line descriptions for the UI)."""
from __future__ import annotations

import inspect
from typing import Callable

from .anova_set import _anova_sample, anova_structure
from .banana_set import _banana_sample, banana
from .breiman import _ringnorm_sample, _twonorm_sample, _waveform_sample, ringnorm, twonorm, waveform
from .dataset import _SYNTH, Dataset, _check_n, _check_seed
from .esl import _esl_sample, esl_mixture, esl_mixture3
from .real import breast_cancer, iris, wine
from .usvc_scenarios import _usvc_sample, usvc_A, usvc_B
from .wahba import _wahba_sample, wahba2001


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


_SYNTH.update({
    "wahba2001": _checked_sampler("wahba2001", _wahba_sample, lambda p: 4),
    "esl_mixture": _checked_sampler("esl_mixture", _esl_sample, _esl_min_n),
    "usvc_A": _checked_sampler("usvc_A", _usvc_A_sampler, lambda p: 4),
    "usvc_B": _checked_sampler("usvc_B", _usvc_B_sampler, lambda p: 4),
    "banana": _checked_sampler("banana", _banana_sample, lambda p: 4),
    "twonorm": _checked_sampler("twonorm", _twonorm_sample, lambda p: 4),
    "ringnorm": _checked_sampler("ringnorm", _ringnorm_sample, lambda p: 4),
    "waveform": _checked_sampler("waveform", _waveform_sample, lambda p: 4 if p["n_classes"] == 2 else 6),
    "anova_structure": _checked_sampler("anova_structure", _anova_sample, lambda p: 4),
})

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
    "anova_structure": anova_structure,
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
    "ringnorm": "20-D N(0, 4I) vs N(a·1, I), a = 2/√20, Bayes error 1.2 % — Breiman 1996 (Navia-Vázquez et al. 2004 Tables 2–3)",
    "waveform": "21-D noisy waveforms, class 0 vs rest — Breiman et al. 1984 (Navia-Vázquez et al. 2004 Tables 2–3)",
    "breast_cancer": "Wisconsin breast cancer, 569 × 30, real (scikit-learn) — 'Breast' of Navia-Vázquez et al. 2004 "
                     "Table 4",
    "iris": "Fisher's iris, 150 × 4, 3 classes, real (scikit-learn)",
    "wine": "UCI wine, 178 × 13, 3 classes, real (scikit-learn)",
    "anova_structure": ("x ~ U(−1, 1)^d; logit = 4x1 + 4cos(πx2) + 8x1x2, x3…xd noise — known main effects and "
                        "interaction for SS-ANOVA kernels (Wahba 1998 §1.1, §2)"),
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

