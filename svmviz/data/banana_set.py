"""Banana (Loosli & Canu 2006, Experiments; PRTools gendatb): two curved 2-D classes."""
from __future__ import annotations

import numpy as np

from .._docs import fill_doc
from .dataset import Dataset, _check_n_seed, _check_real, _finish, _make_test_sampler, _train_rng


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


@fill_doc
def banana(n=200, seed=0, r=5.0, s=1.0) -> Dataset:
    """"Apple and banana" data, after PRTools' ``gendatb`` (Loosli & Canu 2006, Experiments).

    Class +1: θ ~ U(0.125π, 1.375π), x = r(sin θ, cos θ) + s·N(0, I);
    class −1: θ ~ U(−0.875π, 0.375π), x = r(sin θ, cos θ) + s·N(0, I) − (0.75r, 0.75r).
    Equal classes (n⁺ = ⌊n/2⌋).

    Parameters
    ----------
    {n_seed}
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
    Loosli & Canu 2006, Experiments (the documentation's References page).
    """
    n, seed = _check_n_seed(n, seed, "banana")
    p = dict(r=_check_real(r, "r", lo=0, lo_open=True), s=_check_real(s, "s", lo=0))
    return _banana_sample(n, seed, p, _train_rng)
