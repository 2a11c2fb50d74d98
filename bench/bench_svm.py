"""SVM over a 30×30 (λ, σ) grid vs scikit-learn at equal resources, in the same run; where the time goes.

    python bench/bench_svm.py [n ...]              (default n = 200 500 1000)
    python bench/bench_svm.py breakdown [n ...]    time breakdown and floor of one serial grid

Ours: one kernel matrix per σ, every λ warm-started from the previous one (largest λ first), on one
thread ("ours 1 thr") and with the σ values over two threads (``fit_sigma_lambda_grid``, what the
criteria surfaces run on). The reference fits sklearn's SVC(C=1/(2nλ), gamma=1/(2σ²)) cold at every
grid point and takes its training decision values, in one process ("sklearn 1 proc") and with the σ
values over two joblib worker processes ("sklearn 2 proc"). Both at libsvm's default tol 1e-3, best
of 3. Prints the times, the equal-resource ratios and the largest difference in training decision
values relative to max |f| (median and max over the grid), and the 1-vs-1 ratio in CPU time
(``time.process_time``), which a machine loaded by other work inflates far less than wall time.

``breakdown`` splits one serial grid into kernel matrices and SMO iterations (iterations per solve ×
cost per iteration) and measures the floor: the time one iteration needs just to read two kernel
rows and update the gradient with them (float64 and float32), and with both working-set selection
passes; libsvm's iteration count on the same grid (cold starts) for comparison.
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np
from _common import Timer, machine
from numba import njit
from joblib import Parallel, delayed
from sklearn.svm import SVC

from svmviz.data import make_dataset
from svmviz.kernels import rbf_from_squared_distances, squared_distances
from svmviz.svm import fit_lambda_sequence, fit_sigma_lambda_grid

LAMBDAS = np.logspace(-5, -0.5, 30)
SIGMAS = np.logspace(-1, 1, 30)


def ours(X, y):
    F = np.empty((len(SIGMAS), len(LAMBDAS), len(y)))
    D = squared_distances(X)
    for i, s in enumerate(SIGMAS):
        F[i] = fit_lambda_sequence(rbf_from_squared_distances(D, s), y, LAMBDAS).f
    return F


def ours_threads(X, y, n_threads=2):
    """The app's way (criteria_surface): the σ values spread over two threads."""
    return fit_sigma_lambda_grid(X, y, LAMBDAS, SIGMAS, n_threads=n_threads).f


def best_of(fn, *args, repeat=3, cpu=None):
    """(fastest wall time of ``repeat`` runs, the last result). With a list ``cpu``, the fastest
    CPU time of this process (``time.process_time``) is appended to it."""
    best = best_cpu = np.inf
    for _ in range(repeat):
        c0 = time.process_time()
        with Timer() as t:
            out = fn(*args)
        best = min(best, t.seconds)
        best_cpu = min(best_cpu, time.process_time() - c0)
    if cpu is not None:
        cpu.append(best_cpu)
    return best, out


def _sklearn_sigma(X, y, s):
    n = len(y)
    return np.stack([SVC(C=1 / (2 * n * lam), gamma=1 / (2 * s * s)).fit(X, y).decision_function(X)
                     for lam in LAMBDAS])


def sklearn_loop(X, y):
    return np.stack([_sklearn_sigma(X, y, s) for s in SIGMAS])


def sklearn_joblib(X, y, n_jobs=2):
    """The scikit-learn way on two cores: the σ values over two joblib (loky) worker processes."""
    return np.stack(Parallel(n_jobs=n_jobs)(delayed(_sklearn_sigma)(X, y, s) for s in SIGMAS))


@njit(cache=False, nogil=True)
def _touch_two_rows(K, G, rows, scale):
    """The memory traffic every SMO iteration cannot avoid: read two kernel rows i, j (length n) and
    update the gradient with them. ``rows`` (n_it, 2) are random pairs, so caches behave as in SMO."""
    n = G.shape[0]
    for q in range(rows.shape[0]):
        i, j = rows[q, 0], rows[q, 1]
        for t in range(n):
            G[t] += K[i, t] * scale + K[j, t] * scale


@njit(cache=False, nogil=True)
def _select_and_update(K, y, G, alpha, C, rows, scale):
    """One SMO iteration's full sweep without shrinking or clipping logic: the first-order max over
    I_up, the second-order pass over row i, the gradient update with rows i, j, written as plain
    loops with a branch per point (a reference: the solver's own
    selection — 0/−∞ set offsets, integer-key maxima, ``_smo._select_all`` — costs less than this)."""
    n = G.shape[0]
    acc = 0.0
    for q in range(rows.shape[0]):
        i, j = rows[q, 0], rows[q, 1]
        gmax = -np.inf
        for t in range(n):
            v = -y[t] * G[t]
            if (alpha[t] < C[t]) if y[t] > 0 else (alpha[t] > 0.0):
                gmax = max(gmax, v)
        best = np.inf
        for t in range(n):
            d = gmax + y[t] * G[t]
            if d > 0.0:
                od = -d * d / (2.0 - 2.0 * K[i, t] + 1e-12)
                best = min(best, od)
        acc += best
        for t in range(n):
            G[t] += y[t] * (K[i, t] * scale + K[j, t] * scale)
    return acc


def _per_iteration(fn, K, n_it, *args):
    rng = np.random.default_rng(0)
    rows = rng.integers(0, K.shape[0], size=(n_it, 2))
    G = np.zeros(K.shape[0])
    fn(K, G, rows[:10], 1e-9) if not args else fn(K, *args, G, rows[:10], 1e-9)  # compile
    best = np.inf
    for _ in range(3):
        with Timer() as t:
            fn(K, G, rows, 1e-9) if not args else fn(K, *args, G, rows, 1e-9)
        best = min(best, t.seconds)
    return best / n_it


def breakdown(n, sklearn_iters=True):
    """Where the time of one serial grid goes, and the floor it implies (printed)."""
    ds = make_dataset("wahba2001", n=n, seed=0)
    y = ds.y.astype(np.float64)
    D = squared_distances(ds.X)
    t_kernel = t_solve = 0.0
    iters = np.zeros((len(SIGMAS), len(LAMBDAS)), dtype=np.int64)
    for q, s in enumerate(SIGMAS):
        with Timer() as tk:
            K = rbf_from_squared_distances(D, s)
        with Timer() as ts:
            iters[q] = fit_lambda_sequence(K, y, LAMBDAS).n_iter
        t_kernel += tk.seconds
        t_solve += ts.seconds
    total = int(iters.sum())
    per_it = t_solve / total
    K = rbf_from_squared_distances(D, 1.0)
    n_it = max(2000, 20_000_000 // n)
    touch64 = _per_iteration(_touch_two_rows, K, n_it)
    touch32 = _per_iteration(_touch_two_rows, K.astype(np.float32), n_it)
    sweep = _per_iteration(_select_and_update, K, n_it, y, np.zeros(n) + 0.5, np.ones(n))
    print(f"# breakdown n = {n} (serial, one kernel per σ; {machine()})")
    print(f"#   kernel matrices exp(−D/(2σ²)): {t_kernel:.3f} s for 30 σ ({t_kernel / (30 * n * n) * 1e9:.2f} ns per entry)")
    print(f"#   SMO: {total} iterations ({total / iters.size:.0f} per warm-started solve; "
          f"{iters[:, 0].mean():.0f} at the smallest λ, {iters[:, -1].mean():.0f} at the largest) in "
          f"{t_solve:.3f} s = {per_it * 1e6:.2f} µs per iteration = {per_it / n * 1e9:.2f} ns per point per iteration")
    print(f"#   floor per iteration: reading two kernel rows + gradient update {touch64 * 1e6:.2f} µs (float64), "
          f"{touch32 * 1e6:.2f} µs (float32); with both selection passes as plain branchy loops {sweep * 1e6:.2f} µs")
    floor = total * touch64 + t_kernel
    print(f"#   floor at these iterations: {floor:.3f} s (two rows, float64) + kernels; "
          f"{total * sweep + t_kernel:.3f} s with the plain selection passes; measured {t_solve + t_kernel:.3f} s "
          f"= {(t_solve + t_kernel) / floor:.1f}× the two-row floor")
    if sklearn_iters:
        it_sk = 0
        with Timer() as tsk:
            for s in SIGMAS:
                for lam in LAMBDAS:
                    it_sk += int(SVC(C=1 / (2 * n * lam), gamma=1 / (2 * s * s)).fit(ds.X, ds.y).n_iter_[0])
        print(f"#   libsvm (cold, every grid point): {it_sk} iterations ({it_sk / iters.size:.0f} per solve) in "
              f"{tsk.seconds:.2f} s = {tsk.seconds / it_sk * 1e6:.2f} µs per iteration (the fits alone)")
    return total, t_solve, t_kernel


def main(ns, repeat=3):
    print(f"# SVM λ-sequence, 30×30 grid (log10 λ ∈ [−5, −0.5], log10 σ ∈ [−1, 1]), wahba2001, tol 1e-3, "
          f"train decision values, best of {repeat}; {machine()}")
    ds = make_dataset("wahba2001", n=40, seed=1)
    ours(ds.X, ds.y)  # JIT / cache load
    ours_threads(ds.X, ds.y)
    sklearn_joblib(ds.X, ds.y)  # start the worker processes
    print(f"{'n':>6} {'ours 1 thr':>10} {'sklearn 1 proc':>14} {'ratio 1v1':>9} {'ours 2 thr':>10} "
          f"{'sklearn 2 proc':>14} {'ratio 2v2':>9} {'median rel diff':>16} {'max rel diff':>13} {'load':>5} "
          f"{'1v1 in CPU time':>15}")
    for n in ns:
        ds = make_dataset("wahba2001", n=n, seed=0)
        cpu = []  # one thread vs one process in CPU time: what a loaded machine does not inflate
        t1, F1 = best_of(ours, ds.X, ds.y, repeat=repeat, cpu=cpu)
        t3, F3 = best_of(ours_threads, ds.X, ds.y, repeat=repeat)
        assert np.array_equal(F1, F3)  # same solves, only spread over threads
        t2, F2 = best_of(sklearn_loop, ds.X, ds.y, repeat=repeat, cpu=cpu)
        t4, F4 = best_of(sklearn_joblib, ds.X, ds.y, repeat=repeat)
        assert np.array_equal(F2, F4)
        rel = np.abs(F1 - F2).max(axis=-1) / np.abs(F2).max(axis=-1)
        print(f"{n:>6} {t1:>10.3f} {t2:>14.2f} {t2 / t1:>8.1f}× {t3:>10.3f} {t4:>14.2f} {t4 / t3:>8.1f}× "
              f"{np.median(rel):>16.2e} {rel.max():>13.2e} {os.getloadavg()[0]:>5.2f} "
              f"{cpu[1] / cpu[0]:>14.1f}×")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args and args[0] == "breakdown":
        for n in [int(a) for a in args[1:]] or [200, 500, 1000]:
            breakdown(n)
    else:
        main([int(a) for a in args] or [200, 500, 1000])
