"""Calibrate and check the cost model of svmviz/_cost.py (the estimates the app shows before a heavy
computation).

Measures, on this machine with a warm numba cache:

* exact LOO of Wahba's SVM over a (σ, λ) grid (``criteria_surface(loo=True)`` minus the fit), per
  support vector refitted, at several n — two threads (Tuning page) and one (Loss page, along λ);
* leave-one-out along the ν-path (``loo_path``), per point of E ∪ L refitted;
* the whole ν-path (``nu_path``).

Prints the tables to paste into svmviz/_cost.py, then how far the model (with the tables it has
now) is from the measured times.

    python bench/bench_cost_model.py            # ~5 min on 2 cores
"""
from __future__ import annotations

import time

import numpy as np
from _common import machine

from svmviz import _cost, data
from svmviz.losses import gacv_curves
from svmviz.path import default_loo_lambdas, loo_path, nu_path
from svmviz.tuning import criteria_surface


def smo_loo(n: int, res: int) -> tuple[float, float, float]:
    ds = data.make_dataset("wahba2001", n=n, seed=0)
    lam, sig = np.logspace(-5, -0.5, res), np.logspace(-1, 1, res)
    t = time.perf_counter()
    s0 = criteria_surface(ds.X, ds.y, lam, sig)
    t_fit = time.perf_counter() - t
    t = time.perf_counter()
    criteria_surface(ds.X, ds.y, lam, sig, loo=True)
    t_all = time.perf_counter() - t
    refits = float(s0.n_sv.sum())
    return (t_all - t_fit) / refits, t_all - t_fit, refits


def smo_loo_serial(n: int) -> tuple[float, float, float]:
    ds = data.make_dataset("wahba2001", n=n, seed=0)
    lam = np.logspace(-5, -0.5, 20)
    t = time.perf_counter()
    g0 = gacv_curves(ds.X, ds.y, lam, 1.0, loo=False, ran_gacv_replicates=0)
    t_fit = time.perf_counter() - t
    t = time.perf_counter()
    gacv_curves(ds.X, ds.y, lam, 1.0, loo=True, ran_gacv_replicates=0)
    t_all = time.perf_counter() - t
    refits = float(np.sum(g0.n_sv))
    return (t_all - t_fit) / refits, t_all - t_fit, refits


def path_costs(n: int, evals: int) -> tuple[float, float, float, float]:
    ds = data.make_dataset("banana", n=n, seed=0)
    t = time.perf_counter()
    p = nu_path(ds.X, ds.y, sigma=1.0)
    t_path = time.perf_counter() - t
    lam = default_loo_lambdas(p, evals)
    refits = float(sum(int(np.sum(p.alpha_at(l) > 0)) for l in lam))
    t = time.perf_counter()
    loo_path(p, lam)
    t_loo = time.perf_counter() - t
    return t_path, t_loo / refits, t_loo, refits


def main():
    print(machine())
    print("\nexact LOO over a grid (2 threads), per refit:")
    smo = {}
    for n, res in ((200, 10), (400, 8), (800, 6), (1600, 4)):
        per, secs, refits = smo_loo(n, res)
        smo[n] = per
        est = _cost.smo_loo_seconds(n, refits)
        print(f"  n={n:5d} {res}×{res}: {secs:7.2f} s for {refits:8.0f} refits = {per * 1e3:.3f} ms/refit; "
              f"model said {est:7.2f} s ({est / secs:.2f}×)")
    print("\nexact LOO along λ (1 thread), per refit:")
    for n in (200, 800):
        per, secs, refits = smo_loo_serial(n)
        est = _cost.smo_loo_seconds(n, refits, threads=1)
        print(f"  n={n:5d}: {secs:7.2f} s for {refits:8.0f} refits = {per * 1e3:.3f} ms/refit "
              f"(serial / 2-thread = {per / smo[n]:.2f}); model said {est:7.2f} s ({est / secs:.2f}×)")
    print("\nν-path and LOO along it:")
    pth, ploo = {}, {}
    for n, evals in ((200, 30), (500, 20), (1000, 10), (1500, 6), (2000, 5)):
        t_path, per, secs, refits = path_costs(n, evals)
        pth[n], ploo[n] = t_path, per
        print(f"  n={n:5d}: path {t_path:6.2f} s (model {_cost.path_seconds(n):6.2f}); LOO {secs:6.2f} s for "
              f"{refits:7.0f} refits = {per * 1e3:.3f} ms/refit (model {_cost.path_loo_seconds(n, refits):6.2f} s)")
    fmt = lambda d: "{" + ", ".join(f"{k}: {v:.2g}" for k, v in d.items()) + "}"  # noqa: E731
    print("\ntables for svmviz/_cost.py:")
    print(f"SMO_LOO_REFIT = {fmt(smo)}")
    print(f"PATH_LOO_REFIT = {fmt(ploo)}")
    print(f"PATH_SECONDS = {fmt(pth)}")


if __name__ == "__main__":
    main()
