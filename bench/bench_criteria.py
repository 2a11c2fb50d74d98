"""Criteria surfaces 30×30 vs the same computation on sklearn SVC; exact-LOO surface vs brute force.

    python bench/bench_criteria.py [n ...]     (default n = 200 500 1000)

Surface: GACV, XA, XA_J, GCKL, MISCLASS on every grid point (ours: warm-started λ sequences, one
kernel per σ, σ values on a thread pool; reference: a cold SVC fit per grid point and the same
criteria formulas on its (f, α)). Exact LOO at n = 200: ours (support vectors only, active-set
warm starts) vs brute force (n sklearn refits per grid point) measured on a 4×4 sub-grid and
scaled to 30×30.

    python bench/bench_criteria.py loo [--step k] [n ...]   exact-LOO surfaces alone (every k-th σ, λ)
    python bench/bench_criteria.py memory                   peak memory of surfaces up to n = 10,000
    python bench/bench_criteria.py surface [n ...]          the 30×30 surface alone (2 threads, best of 3)
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys

import numpy as np
from _common import Timer, machine
from sklearn.svm import SVC

from svmviz import criteria
from svmviz.data import make_dataset
from svmviz.svm import GRID_ARRAYS, grid_memory
from svmviz.tuning import criteria_surface

LAMBDAS = np.logspace(-5, -0.5, 30)
SIGMAS = np.logspace(-1, 1, 30)


def sklearn_surface(X, y, p, lambdas, sigmas):
    n = len(y)
    out = {k: np.empty((len(sigmas), len(lambdas))) for k in ("gacv", "xa", "gckl", "misclass")}
    for i, s in enumerate(sigmas):
        for j, lam in enumerate(lambdas):
            m = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * s * s)).fit(X, y)
            f = m.decision_function(X)
            a = np.zeros(n)
            a[m.support_] = np.abs(m.dual_coef_[0]) * 2 * n * lam
            out["gacv"][i, j] = criteria.gacv(f, y, a, lam)
            out["xa"][i, j] = criteria.xa(f, y, a, lam)
            out["gckl"][i, j] = criteria.gckl(f, p)
            out["misclass"][i, j] = criteria.misclass(f, p)
    return out


def brute_force_loo(X, y, lambdas, sigmas):
    n = len(y)
    out = np.empty((len(sigmas), len(lambdas)))
    for i, s in enumerate(sigmas):
        for j, lam in enumerate(lambdas):
            err = 0
            for k in range(n):
                keep = np.arange(n) != k
                m = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * s * s)).fit(X[keep], y[keep])
                err += y[k] * m.decision_function(X[k:k + 1])[0] <= 0
            out[i, j] = err / n
    return out


def main(ns):
    print(f"# criteria surface 30×30 (log10 λ ∈ [−5, −0.5], log10 σ ∈ [−1, 1]), wahba2001; {machine()}")
    warm = make_dataset("wahba2001", n=40, seed=1)
    criteria_surface(warm.X, warm.y, LAMBDAS[:3], SIGMAS[:3], p_true=warm.p_true, loo=True)
    print(f"{'n':>6} {'ours s':>8} {'sklearn s':>10} {'ratio':>7} {'max |ΔMISCLASS|':>16}")
    for n in ns:
        ds = make_dataset("wahba2001", n=n, seed=0)
        p = ds.p_true(ds.X)
        with Timer() as t1:
            s = criteria_surface(ds.X, ds.y, LAMBDAS, SIGMAS, p_true=p)
        with Timer() as t2:
            ref = sklearn_surface(ds.X, ds.y, p, LAMBDAS, SIGMAS)
        d = np.abs(s.values["misclass"] - ref["misclass"]).max()
        print(f"{n:>6} {t1.seconds:>8.2f} {t2.seconds:>10.2f} {t2.seconds / t1.seconds:>7.1f} {d:>16.2e}")

    ds = make_dataset("wahba2001", n=200, seed=0)
    with Timer() as t1:
        s = criteria_surface(ds.X, ds.y, LAMBDAS, SIGMAS, loo=True)
    sub_l, sub_s = LAMBDAS[::8], SIGMAS[::8]
    with Timer() as t2:
        bf = brute_force_loo(ds.X, ds.y, sub_l, sub_s)
    scale = (len(LAMBDAS) * len(SIGMAS)) / (len(sub_l) * len(sub_s))
    diff = np.abs(s.values["loo"][::8, ::8] - bf).max()
    print(f"# exact LOO surface 30×30, n = 200: ours {t1.seconds:.1f} s; brute force (sklearn, n refits per point) "
          f"{t2.seconds:.1f} s on a {len(sub_s)}×{len(sub_l)} sub-grid → ≈ {t2.seconds * scale:.0f} s for 30×30 "
          f"(ratio ≈ {t2.seconds * scale / t1.seconds:.0f}); max |ΔLOO| on the sub-grid {diff:.3f}")


def loo_surfaces(ns, step=1):
    """Exact-LOO surfaces (30×30, or every ``step``-th σ and λ) on two threads: time, refits, and
    the part of the wall time spent in the full-data fits."""
    print(f"# exact LOO surface (2 threads), wahba2001, tol 1e-3; {machine()}")
    warm = make_dataset("wahba2001", n=40, seed=1)
    criteria_surface(warm.X, warm.y, LAMBDAS[:3], SIGMAS[:3], loo=True)
    lam, sig = LAMBDAS[::step], SIGMAS[::step]
    for n in ns:
        ds = make_dataset("wahba2001", n=n, seed=0)
        with Timer() as t:
            s = criteria_surface(ds.X, ds.y, lam, sig, loo=True, n_threads=2)
        scale = (len(LAMBDAS) * len(SIGMAS)) / (len(lam) * len(sig))
        extra = f" → ≈ {t.seconds * scale:.0f} s for 30×30" if step > 1 else ""
        print(f"n = {n}: {len(sig)}×{len(lam)} grid, {int(s.n_sv.sum())} refits (support vectors), "
              f"{t.seconds:.1f} s (fits {s.seconds['fit']:.2f} s, leave-one-out {s.seconds['loo']:.1f} s){extra}; "
              f"load {os.getloadavg()[0]:.2f}", flush=True)


def surfaces(ns, repeat=3):
    """The 30×30 criteria surface alone (GACV, XA, XA_J, GCKL, MISCLASS; 2 threads), best of ``repeat``."""
    print(f"# criteria surface 30×30 alone (2 threads, best of {repeat}), wahba2001, tol 1e-3; {machine()}")
    warm = make_dataset("wahba2001", n=40, seed=1)
    criteria_surface(warm.X, warm.y, LAMBDAS[:3], SIGMAS[:3], p_true=warm.p_true)
    for n in ns:
        ds = make_dataset("wahba2001", n=n, seed=0)
        p = ds.p_true(ds.X)
        best = np.inf
        for _ in range(repeat):
            with Timer() as t:
                s = criteria_surface(ds.X, ds.y, LAMBDAS, SIGMAS, p_true=p, n_threads=2)
            best = min(best, t.seconds)
        print(f"n = {n}: {best:.2f} s (fits {s.seconds['fit']:.2f} s, criteria {s.seconds['criteria']:.2f} s); "
              f"load {os.getloadavg()[0]:.2f}", flush=True)


def _peak_rss() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def memory_one(n, n_sigmas, n_lambdas, lam_lo):
    """In a fresh process: peak RSS of one criteria surface above the process's peak before it."""
    warm = make_dataset("wahba2001", n=40, seed=1)
    criteria_surface(warm.X, warm.y, LAMBDAS[:3], SIGMAS[:3], p_true=warm.p_true)
    ds = make_dataset("wahba2001", n=n, seed=0)
    lam = np.logspace(lam_lo, -0.5, n_lambdas)
    sig = np.logspace(-1, 1, n_sigmas)
    p = ds.p_true(ds.X)
    before = _peak_rss()
    with Timer() as t:
        criteria_surface(ds.X, ds.y, lam, sig, p_true=p, n_threads=2)
    est = grid_memory(n, n_sigmas, n_lambdas, 2, grid_arrays=GRID_ARRAYS)
    print(f"{n:>6} {n_sigmas:>3}×{n_lambdas:<3} {(_peak_rss() - before) / 1e9:>8.2f} {est / 1e9:>9.2f} "
          f"{t.seconds:>8.1f}", flush=True)


def memory(cases):
    """Peak memory of criteria surfaces (2 threads) against ``svmviz.svm.grid_memory``'s estimate."""
    print(f"# criteria surface peak memory (2 threads, fresh process each; {machine()}); estimate = "
          f"8·(3n² + {GRID_ARRAYS}·σ·λ·n) bytes")
    print(f"{'n':>6} {'grid':>7} {'peak GB':>8} {'estim. GB':>9} {'time s':>8}")
    for n, ns, nl, lo in cases:
        subprocess.run([sys.executable, __file__, "memory-one", str(n), str(ns), str(nl), str(lo)], check=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "memory-one":
        memory_one(int(args[1]), int(args[2]), int(args[3]), float(args[4]))
    elif args and args[0] == "loo":  # loo [--step k] n ...
        rest, step = args[1:], 1
        if rest[:1] == ["--step"]:
            step, rest = int(rest[1]), rest[2:]
        loo_surfaces([int(a) for a in rest] or [200], step)
    elif args and args[0] == "surface":
        surfaces([int(a) for a in args[1:]] or [2000])
    elif args and args[0] == "memory":
        # (n, σ values, λ values, log10 of the smallest λ): the grid term, then the n² term up to n = 10,000
        memory([(300, 30, 30, -5), (1000, 30, 30, -5), (4000, 4, 6, -2), (10000, 2, 3, -1.5)])
    else:
        main([int(a) for a in args] or [200, 500, 1000])
