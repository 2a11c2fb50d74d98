"""Benchmark: IRWLS-SVC (svmviz.usvc) vs libsvm's linear SVC and liblinear's LinearSVC (sklearn), same
data, same run.

Run by hand, one thread each: ``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 NUMBA_NUM_THREADS=1
.venv/bin/python bench/bench_usvc.py [--quick]``. Prints, for the linear machine on ringnorm, twonorm and
waveform at n = 5000 and C ∈ {0.01, 1}, the median wall time (5 interleaved rounds, after a warm-up
that compiles the numba kernels) and the IRWLS iterations with the exact finish and with the plain
iteration, against SVC(kernel="linear") and LinearSVC, the ratios, the largest relative difference
of (w, b) to SVC and to the plain iteration, and the load average beside every figure; the same for
the kernel machine (R = 20 prototypes) against the kernel SVC; then the cost of one IRWLS iteration
against n (a fixed number of iterations, d = 21) — the
linear machine solves a (d+1)×(d+1) weighted least-squares system per iteration (Navia-Vázquez et
al. 2004, eq. 20), O(n·d²), with no n×n matrix, so the time per iteration grows linearly in n; then
the Table 1 study timing (100 trials per scenario). The waveform / twonorm training sets of
n = 5,000–6,000 are those of the reproduction study (Navia-Vázquez et al. 2004, Tables 2–3).
"""
from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sklearn.datasets import make_classification  # noqa: E402
from sklearn.svm import SVC, LinearSVC  # noqa: E402

from svmviz.data import make_dataset  # noqa: E402
from svmviz.usvc import IRWLSClassifier, table1_study  # noqa: E402


def best_of(fn, reps=3):
    out, best = None, np.inf
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return out, best


def interleaved(fns, reps):
    """Median wall time of each of ``fns`` over ``reps`` rounds, the functions run in turn within a
    round (so a change of the machine's load falls on all of them alike); also each one's last result."""
    times = [[] for _ in fns]
    outs = [None] * len(fns)
    for _ in range(reps):
        for j, fn in enumerate(fns):
            t = time.perf_counter()
            outs[j] = fn()
            times[j].append(time.perf_counter() - t)
    return outs, [float(np.median(t)) for t in times]


def load():
    return os.getloadavg()[0]


def rel(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def main(quick=False):
    warnings.simplefilter("ignore")
    IRWLSClassifier(C=1.0).fit(*make_classification(50, 2, n_redundant=0, random_state=0))  # compile
    IRWLSClassifier(C=1.0, loss="smooth_step", kernel="rbf", n_prototypes=5).fit(
        *make_classification(50, 2, n_redundant=0, random_state=0))
    reps = 1 if quick else 5
    print(f"threads: OMP {os.environ.get('OMP_NUM_THREADS')}, OPENBLAS {os.environ.get('OPENBLAS_NUM_THREADS')}, "
          f"NUMBA {os.environ.get('NUMBA_NUM_THREADS')} (set all three to 1 for the 1-thread comparison)")
    # linear machines, n = 5000: the exact finish, the plain iteration and libsvm, interleaved
    print(f"\n{'linear, n = 5000':28s} {'finish s':>8s} {'iters':>6s} {'plain s':>8s} {'iters':>6s} {'SVC s':>8s} "
          f"{'/SVC':>6s} {'plain/SVC':>9s} {'LinSVC s':>8s} {'Δ(w,b) SVC':>10s} {'Δ plain':>8s} {'load':>5s}")
    for name in ("ringnorm", "twonorm", "waveform"):
        ds = make_dataset(name, n=5000, seed=0)
        for C in (0.01, 1.0):
            (fin, pl, ref, _), (t_fin, t_pl, t_ref, t_lin) = interleaved([
                lambda: IRWLSClassifier(C=C).fit(ds.X, ds.y),
                lambda: IRWLSClassifier(C=C, exact_finish=False).fit(ds.X, ds.y),
                lambda: SVC(kernel="linear", C=C, tol=1e-10).fit(ds.X, ds.y),
                lambda: LinearSVC(C=C, loss="hinge", dual=True, tol=1e-8, max_iter=100_000).fit(ds.X, ds.y),
            ], reps)
            r = np.r_[ref.coef_[0], ref.intercept_[0]]
            a, p = np.r_[fin.coef_[0], fin.intercept_], np.r_[pl.coef_[0], pl.intercept_]
            print(f"{name + f' d={ds.X.shape[1]}, C={C:g}':28s} {t_fin:8.3f} {fin.n_iter_:6d} {t_pl:8.3f} "
                  f"{pl.n_iter_:6d} {t_ref:8.3f} {t_fin / t_ref:6.2f} {t_pl / t_ref:9.2f} {t_lin:8.3f} "
                  f"{rel(a, r):10.1e} {rel(a, p):8.1e} {load():5.2f}", flush=True)
    # kernel machines: R = 20 k-means prototypes, Gaussian σ = √d, against libsvm's full kernel SVC
    # (a different machine, n support vectors against R prototypes: the time of the method each offers)
    print(f"\n{'rbf, R = 20, n = 5000':28s} {'finish s':>8s} {'iters':>6s} {'plain s':>8s} {'iters':>6s} {'SVC s':>8s} "
          f"{'/SVC':>6s} {'plain/SVC':>9s} {'load':>5s}")
    for name in ("ringnorm", "twonorm", "waveform"):
        ds = make_dataset(name, n=5000, seed=0)
        sigma = float(np.sqrt(ds.X.shape[1]))
        for C in (0.01, 1.0):
            kw = dict(C=C, kernel="rbf", sigma=sigma, n_prototypes=20)
            (fin, pl, _), (t_fin, t_pl, t_ref) = interleaved([
                lambda: IRWLSClassifier(**kw).fit(ds.X, ds.y),
                lambda: IRWLSClassifier(**kw, exact_finish=False).fit(ds.X, ds.y),
                lambda: SVC(kernel="rbf", C=C, gamma=1.0 / (2.0 * sigma ** 2), tol=1e-10).fit(ds.X, ds.y),
            ], 1 if quick else 3)
            print(f"{name + f' σ={sigma:.2f}, C={C:g}':28s} {t_fin:8.3f} {fin.n_iter_:6d} {t_pl:8.3f} {pl.n_iter_:6d} "
                  f"{t_ref:8.3f} {t_fin / t_ref:6.2f} {t_pl / t_ref:9.2f} {load():5.2f}", flush=True)
    if quick:
        return
    # the cost of one iteration against n: 200 iterations on waveform (d = 21), C = 0.1
    print(f"\n{'waveform d=21, 200 iterations':36s} {'n':>6s} {'s':>8s} {'ms/iter':>8s} {'µs/iter/n':>10s} {'load':>5s}")
    for n in (1500, 3000, 6000):
        ds = make_dataset("waveform", n=n, seed=0)
        _, t = best_of(lambda: IRWLSClassifier(C=0.1, max_iter=200, tol=1e-300, tol_f=1e-300, exact_finish=False).fit(ds.X, ds.y), reps)
        print(f"{'':36s} {n:6d} {t:8.3f} {5.0 * t:8.3f} {5e3 * t / n:10.4f} {load():5.2f}", flush=True)
    table1_study("A", n_trials=2)  # compile
    for sc in "AB":
        _, t = best_of(lambda: table1_study(sc, n_trials=100), reps=1)
        print(f"Table 1 study, scenario {sc}, 100 trials × (LS, SVC, USVC s=2, s=4): {t:.2f} s (load {load():.2f})")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
