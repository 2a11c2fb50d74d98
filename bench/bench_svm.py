"""SVM λ-sequence over a 30×30 (λ, σ) grid vs a loop of sklearn SVC, in the same run.

    python bench/bench_svm.py [n ...]      (default n = 200 500 1000)

For each σ ours computes one kernel matrix and solves every λ warm-started from the previous one
(largest λ first) — serially ("ours"), and with the σ values spread over the cores ("threads",
``fit_sigma_lambda_grid``, what the app's criteria surfaces run on); the reference fits sklearn's SVC(C=1/(2nλ), gamma=1/(2σ²)) cold at each grid
point. Both at libsvm's default tol 1e-3. Prints both times, the ratio and the largest difference
in training decision values relative to max |f| (median and max over the grid).
"""
from __future__ import annotations

import sys

import numpy as np
from _common import Timer, machine
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


def ours_threads(X, y):
    """The app's way (criteria_surface): the σ values spread over the cores."""
    return fit_sigma_lambda_grid(X, y, LAMBDAS, SIGMAS).f


def sklearn_loop(X, y):
    n = len(y)
    F = np.empty((len(SIGMAS), len(LAMBDAS), n))
    for i, s in enumerate(SIGMAS):
        for j, lam in enumerate(LAMBDAS):
            F[i, j] = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * s * s)).fit(X, y).decision_function(X)
    return F


def main(ns):
    print(f"# SVM λ-sequence, 30×30 grid (log10 λ ∈ [−5, −0.5], log10 σ ∈ [−1, 1]), wahba2001; {machine()}")
    ds = make_dataset("wahba2001", n=40, seed=1)
    ours(ds.X, ds.y)  # JIT / cache load
    ours_threads(ds.X, ds.y)
    print(f"{'n':>6} {'ours s':>8} {'threads s':>10} {'sklearn s':>10} {'ratio':>7} {'ratio thr':>10} "
          f"{'median rel diff':>16} {'max rel diff':>13}")
    for n in ns:
        ds = make_dataset("wahba2001", n=n, seed=0)
        with Timer() as t1:
            F1 = ours(ds.X, ds.y)
        with Timer() as t3:
            F3 = ours_threads(ds.X, ds.y)
        assert np.array_equal(F1, F3)  # same solves, only spread over threads
        with Timer() as t2:
            F2 = sklearn_loop(ds.X, ds.y)
        rel = np.abs(F1 - F2).max(axis=-1) / np.abs(F2).max(axis=-1)
        print(f"{n:>6} {t1.seconds:>8.2f} {t3.seconds:>10.2f} {t2.seconds:>10.2f} {t2.seconds / t1.seconds:>7.1f} "
              f"{t2.seconds / t3.seconds:>10.1f} {np.median(rel):>16.2e} {rel.max():>13.2e}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [200, 500, 1000])
