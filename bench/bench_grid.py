"""A user's 20 × 20 (C, γ) grid and the papers' 30 × 30 (λ, σ) grid: svmviz's grid engine vs a loop of
scikit-learn SVC fits, one run, interleaved, one thread each.

    python bench/bench_grid.py [n]              (default n = 500)
    python bench/bench_grid.py --papers [n]     the papers' grid only

C ∈ [1e-2, 1e3] and γ ∈ [1e-2, 10], 20 log-spaced values each; λ = 1/(2nC), σ = 1/√(2γ). Data: the
2-D Wahba et al. (2001) simulation and a 6-feature ``make_classification`` (4 informative, seed 0).
The papers' grid (Wahba et al. 2001, Figures 1–2; the Tuning criteria page's and the criteria
surfaces' default): log10 λ ∈ [−5, −0.5] and log10 σ ∈ [−1, 1], 30 log-spaced values each, on the
Wahba et al. (2001) simulation; SVC(C = 1/(2nλ), γ = 1/(2σ²)) in the loop.
svmviz: :func:`svmviz.svm.fit_sigma_lambda_grid` on one thread (one kernel matrix per γ, warm starts
along C, active-set pivots for the solves SMO does not settle quickly). scikit-learn:
``SVC(C, gamma).fit`` cold at each grid point, its training decision values kept. Both at tol
1e-3. Prints medians of 3 interleaved repeats, the ratio loop / svmviz in wall time and in CPU time of this process (``time.process_time``, which a machine loaded by other work
inflates far less than wall time), the median and largest difference of the decision values
relative to max |f| over the grid, and the SMO iterations of the whole grid (svmviz's warm-started
sequences; libsvm's cold fits).
"""
from __future__ import annotations

import sys
import time

import numba
import numpy as np
from _common import machine
from sklearn.datasets import make_classification
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from svmviz.data import make_dataset
from svmviz.svm import fit_sigma_lambda_grid

CS = np.logspace(-2, 3, 20)
GAMMAS = np.logspace(-2, 1, 20)
PAPERS_LAMBDAS = np.logspace(-5, -0.5, 30)
PAPERS_SIGMAS = np.logspace(-1, 1, 30)
REPEATS = 3


def ours(X, y, Cs=CS, gammas=GAMMAS):
    """(training decision values (n_gamma, n_C, n), SMO iterations over the grid)."""
    n = X.shape[0]
    g = fit_sigma_lambda_grid(X, y, 1.0 / (2.0 * n * Cs), 1.0 / np.sqrt(2.0 * gammas), n_threads=1)
    return g.f, int(g.n_iter.sum())


def loop(X, y, Cs=CS, gammas=GAMMAS):
    """(training decision values (n_gamma, n_C, n), libsvm's SMO iterations over the grid)."""
    F = np.empty((gammas.size, Cs.size, X.shape[0]))
    iters = 0
    for i, g in enumerate(gammas):
        for j, C in enumerate(Cs):
            clf = SVC(C=C, gamma=g).fit(X, y)
            F[i, j] = clf.decision_function(X)
            iters += int(clf.n_iter_[0])
    return F, iters


def timed(fn):
    """(wall seconds, CPU seconds of this process, result) of one call."""
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - w0, time.process_time() - c0, out


def row(name, X, y, Cs=CS, gammas=GAMMAS):
    wall, cpu = {"ours": [], "loop": []}, {"ours": [], "loop": []}
    for _ in range(REPEATS):  # interleaved
        for key, fn in (("ours", lambda: ours(X, y, Cs, gammas)), ("loop", lambda: loop(X, y, Cs, gammas))):
            w, c, out = timed(fn)
            wall[key].append(w)
            cpu[key].append(c)
            if key == "ours":
                Fo, it_o = out
            else:
                Fr, it_r = out
    mo, mr = np.median(wall["ours"]), np.median(wall["loop"])
    co, cr = np.median(cpu["ours"]), np.median(cpu["loop"])
    rel = np.abs(Fo - Fr).max(axis=2) / np.abs(Fr).max(axis=2)
    print(f"{name:22s} n={X.shape[0]}  svmviz {mo:6.3f} s  SVC loop {mr:6.3f} s  ratio {mr / mo:5.2f}  "
          f"in CPU time {co:6.3f} s / {cr:6.3f} s = {cr / co:5.2f}  "
          f"|Δf|/max|f| median {np.median(rel):.1e} max {rel.max():.1e}  SMO iterations {it_o} / libsvm {it_r}  "
          f"({machine()})",
          flush=True)


if __name__ == "__main__":
    numba.set_num_threads(1)
    args = sys.argv[1:]
    papers = "--papers" in args
    args = [a for a in args if a != "--papers"]
    n = int(args[0]) if args else 500
    with threadpool_limits(1):
        ds = make_dataset("wahba2001", n=n, seed=0)
        ours(ds.X[:60], ds.y[:60])  # compiled once
        if papers:
            # λ = 1/(2nC), σ = 1/√(2γ): the papers' λ and σ as the C and γ of the loop's SVC
            print(machine(), "| 1 thread each | the papers' 30 × 30 (λ, σ) | medians of", REPEATS, flush=True)
            row("wahba2001 papers' grid", ds.X, ds.y, 1.0 / (2.0 * n * PAPERS_LAMBDAS),
                1.0 / (2.0 * PAPERS_SIGMAS ** 2))
            sys.exit(0)
        print(machine(), "| 1 thread each | 20 × 20 (C, γ) | medians of", REPEATS, flush=True)
        row("wahba2001 (2-D)", ds.X, ds.y)
        X, y = make_classification(n, 6, n_informative=4, n_redundant=0, random_state=0)
        row("make_clf (6 features)", X, y)
