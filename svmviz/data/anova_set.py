"""Known ANOVA structure (Wahba 1998, §1.1, §2): main effects of x1 and x2, their interaction, noise variables."""
from __future__ import annotations

import functools

import numpy as np
# (scipy.special is imported in the functions that use it: see svmviz/data/dataset.py)

from .._validation import check_matrix
from .._docs import fill_doc
from .._validation import check_int
from .dataset import (
    Dataset, _check_n_seed, _check_points, _check_real, _finish, _make_test_sampler, _train_rng,
)


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
    from scipy import special

    A = _check_points(X, d, "anova_structure p_true")
    return special.expit(_anova_eta(interaction, A))


@functools.lru_cache(maxsize=32)
def _anova_bayes_error(interaction, m=801):
    """E[min(p, 1 − p)] = E[expit(−|η(x1, x2)|)] over U(−1, 1)²: a tensor Gauss–Legendre rule on the
    square (η is smooth, min(p, 1 − p) has a kink on η = 0; 801² nodes agree with 401² and 1601² to ≈ 1e−6)."""
    from scipy import special

    t, w = np.polynomial.legendre.leggauss(m)
    G = np.stack(np.meshgrid(t, t, indexing="ij"), axis=-1).reshape(-1, 2)
    val = special.expit(-np.abs(_anova_eta(interaction, G))).reshape(m, m)
    return float(w @ val @ w) / 4.0


def _anova_sample(n, seed, p, rng_maker) -> Dataset:
    from scipy import special

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


@fill_doc
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
    {n_seed}
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
    n, seed = _check_n_seed(n, seed, "anova_structure")
    p = dict(d=check_int(d, "d", minimum=2, maximum=100),
             interaction=_check_real(interaction, "interaction", lo=-100.0, hi=100.0))
    return _anova_sample(n, seed, p, _train_rng)

