"""How long the app's heavy computations take, estimated before they start, so that
the app can ask before one that takes more than about ten seconds.

The model is deliberately simple: a leave-one-out computation refits every support vector, so its
time is (number of refits) × (seconds per refit at this n); a ν-path's time depends on n alone.
The per-refit and per-path seconds are tables measured on a 2-core machine by
``bench/bench_cost_model.py`` (which prints them, and how far the model was from the measured
times), interpolated log-linearly in n and extrapolated with the last slope. They decide whether the
app asks before starting; the duration it shows is theirs corrected by how fast the last computations
of the same kind ran on the machine the app runs on (:mod:`svmviz.ui.compute`), and none is shown
before one has run there: on another machine, or under another load, the tables alone are off
several-fold.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import numpy as np

# bench/bench_cost_model.py on the 2-core machine, warm numba cache: n → seconds, measured on the idle
# machine (load ≈ 1) times 1.7: a busy machine (load ≈ 9) runs 2–3× slower, and the estimate sits
# between the two (the app then learns the actual speed from the jobs it finishes).
SMO_LOO_REFIT = {200: 2.9e-5, 400: 1.1e-4, 800: 2.4e-4, 1600: 1.4e-3}
"""Exact LOO of Wahba's SVM over a (σ, λ) grid (2 threads): seconds per support vector refitted."""
SMO_LOO_REFIT_SERIAL_FACTOR = 4.0
"""One thread instead of two (the Loss page's LOO along λ refits serially): measured 6.9 at n = 200
(the grid's refits warm-start better than the λ sequence's) and 2.3 at n = 800; 4 errs high at n = 800."""
PATH_LOO_REFIT = {200: 8.3e-5, 500: 1.4e-4, 1000: 3.2e-4, 1500: 5.3e-4, 2000: 8.8e-4}
"""Leave-one-out along the ν-path (numba's threads): seconds per point of E ∪ L refitted."""
PATH_SECONDS = {200: 0.07, 500: 0.1, 1000: 0.53, 1500: 1.4, 2000: 2.7, 5000: 22.0}
"""The whole ν-SVM path (one call of the compiled path follower; banana, σ = 1)."""


def _interp(table: dict, n: float) -> float:
    """Log-linear interpolation of ``table`` (n → seconds) at ``n``; the end slopes beyond it."""
    xs = np.log(np.array(sorted(table), dtype=np.float64))
    ys = np.log(np.array([table[k] for k in sorted(table)], dtype=np.float64))
    x = np.log(max(float(n), 1.0))
    if x <= xs[0]:
        slope = (ys[1] - ys[0]) / (xs[1] - xs[0]) if xs.size > 1 else 0.0
        return float(np.exp(ys[0] + max(slope, 0.0) * (x - xs[0])))
    if x >= xs[-1]:
        slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2]) if xs.size > 1 else 1.0
        return float(np.exp(ys[-1] + max(slope, 1.0) * (x - xs[-1])))
    return float(np.exp(np.interp(x, xs, ys)))


def smo_loo_seconds(n: int, n_refits: float, *, threads: int = 2) -> float:
    """Exact leave-one-out of Wahba's SVM: ``n_refits`` support vectors refitted at ``n`` points."""
    per = _interp(SMO_LOO_REFIT, n) * (SMO_LOO_REFIT_SERIAL_FACTOR if threads < 2 else 1.0)
    return float(n_refits) * per


def path_loo_seconds(n: int, n_refits: float) -> float:
    """Leave-one-out along the ν-path: ``n_refits`` points of E ∪ L refitted at ``n`` points."""
    return float(n_refits) * _interp(PATH_LOO_REFIT, n)


def path_seconds(n: int) -> float:
    """The whole ν-SVM path at ``n`` points."""
    return _interp(PATH_SECONDS, n)
