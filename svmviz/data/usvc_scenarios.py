"""Scenarios A and B of Navia-Vázquez et al. 2004 (eqs. 28–29): 1-D classes with a closed-form error curve."""
from __future__ import annotations

import functools

import numpy as np

from .._docs import fill_doc
from .dataset import (
    Dataset, _binomial_counts, _check_n_seed, _check_points, _finish, _make_test_sampler, _norm_cdf, _norm_pdf,
    _train_rng, _unif_cdf, _unif_pdf,
)


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
    Navia-Vázquez et al. 2004, eqs. 28–29 as read in the documentation's Navia-Vázquez chapter; Fig. 2c–d.
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


@fill_doc
def usvc_A(n=500, seed=0) -> Dataset:
    """Scenario A of the unbiased-SVC paper, one-dimensional (Navia-Vázquez et al. 2004, eq. 28).

    f(x|+1) = ¾ N(0.75, 0.15) + ¼ N(0.2, 0.02) (second argument = standard deviation), P(+1) = 2/3;
    f(x|−1) = U(0, 0.5), P(−1) = 1/3; class counts ~ Binomial(n, P(+1)) (redrawn in the rare case
    a class gets fewer than 2 points).

    {usvc_params}
        Here ``bayes_error`` is a quadrature of min_c P(c) f(x|c).

    Notes
    -----
    Navia-Vázquez et al. 2004, eq. 28 (the documentation's References page).
    """
    n, seed = _check_n_seed(n, seed, "usvc_A")
    return _usvc_sample(n, seed, {}, _train_rng, "A")


@fill_doc
def usvc_B(n=500, seed=0) -> Dataset:
    """Scenario B of the unbiased-SVC paper, one-dimensional (Navia-Vázquez et al. 2004, eq. 29).

    f(x|+1) = (1/1.4) U(0.7, 0.95) + (0.4/1.4) N(0.25, 0.02), P(+1) = 0.7; f(x|−1) = U(0, 0.5),
    P(−1) = 0.3; class counts ~ Binomial(n, P(+1)).

    {usvc_params}

    Notes
    -----
    Navia-Vázquez et al. 2004, eq. 29 (the documentation's References page).
    """
    n, seed = _check_n_seed(n, seed, "usvc_B")
    return _usvc_sample(n, seed, {}, _train_rng, "B")
