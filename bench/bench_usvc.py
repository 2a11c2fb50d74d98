"""Benchmark: IRWLS-SVC (svmviz.usvc) vs libsvm's linear SVC and liblinear's LinearSVC (sklearn), same
data, same run, one thread each.

Run by hand: ``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 NUMBA_NUM_THREADS=1 .venv/bin/python
bench/bench_usvc.py [--quick | --replicate | --cpu | --kernel [--quick]]``. First the Breiman
benchmarks of the reproduction study (Navia-Vázquez et al. 2004, Tables 2–3) at n = 5000 — ringnorm, twonorm, waveform, C ∈ {0.01, 1} —:
medians of interleaved repeats (svmviz with the exact finish, svmviz's plain iteration, SVC,
LinearSVC, in turn), the IRWLS iterations of both, the ratios SVC / svmviz and LinearSVC / svmviz
(above 1: svmviz faster), the largest relative difference of (w, b) to SVC, and the load average
beside every row. Then the same for other data (best of 3); the cost of one IRWLS iteration against n
(a fixed number of iterations, d = 21) — the linear machine solves a (d+1)×(d+1) weighted
least-squares system per iteration (Navia-Vázquez et al. 2004, eq. 20), O(n·d²), with no n×n matrix,
so the time per iteration grows linearly in n; then the Table 1 study timing (100 trials per scenario).
``--cpu``: the Breiman rows in CPU seconds of the process and the kernel machines of the reproduction
study against ``SVC(kernel="rbf")`` (:func:`kernel`; medians of 3). ``--kernel [--quick]``: those kernel
machines at the study's n = 400, C = 10, then in the linear rows' setting — ringnorm, twonorm,
waveform at n = 5000, C ∈ {0.01, 1} — (medians of 3, of 1 with ``--quick``). ``--replicate``: one
linear replicate of the reproduction study's IRWLS fits with and without the
exact finish (:func:`replicate`).
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


def load():
    return os.getloadavg()[0]


def interleaved(fns, reps, clock=time.perf_counter):
    """Medians of ``reps`` rounds, each round calling every function once in turn; last outputs.
    ``clock``: wall time by default, ``time.process_time`` for the CPU seconds of this process (which
    other processes' load on the machine inflates less)."""
    outs, wall, cpu = interleaved_clocks(fns, reps)
    return outs, (cpu if clock is time.process_time else wall)


def interleaved_clocks(fns, reps):
    """:func:`interleaved` with both clocks: ``(outs, wall medians, CPU medians)``."""
    wall = [[] for _ in fns]
    cpu = [[] for _ in fns]
    outs = [None] * len(fns)
    for _ in range(reps):
        for k, fn in enumerate(fns):
            t, c = time.perf_counter(), time.process_time()
            outs[k] = fn()
            cpu[k].append(time.process_time() - c)
            wall[k].append(time.perf_counter() - t)
    return outs, [float(np.median(t)) for t in wall], [float(np.median(t)) for t in cpu]


def breiman(reps, clock=time.perf_counter):
    print(f"{'n = 5000, medians of ' + str(reps):28s} {'svmviz s':>8s} {'iters':>5s} {'plain s':>8s} {'iters':>6s} "
          f"{'SVC s':>7s} {'SVC/svmviz':>10s} {'LinSVC s':>8s} {'LinSVC/svmviz':>13s} {'rel diff':>8s} {'load':>5s}")
    for name in ("ringnorm", "twonorm", "waveform"):
        ds = make_dataset(name, n=5000, seed=0)
        for C in (0.01, 1.0):
            (ours, plain, ref, _), (t_ours, t_plain, t_ref, t_lin) = interleaved([
                lambda: IRWLSClassifier(C=C).fit(ds.X, ds.y),
                lambda: IRWLSClassifier(C=C, exact_finish=False).fit(ds.X, ds.y),
                lambda: SVC(kernel="linear", C=C, tol=1e-10).fit(ds.X, ds.y),
                lambda: LinearSVC(C=C, loss="hinge", dual=True, tol=1e-8, max_iter=100_000).fit(ds.X, ds.y),
            ], reps, clock)
            a, r = np.r_[ours.coef_[0], ours.intercept_], np.r_[ref.coef_[0], ref.intercept_[0]]
            rel = np.max(np.abs(a - r)) / np.max(np.abs(r))
            print(f"{name + ' d=' + str(ds.X.shape[1]) + ', C=' + format(C, 'g'):28s} {t_ours:8.3f} {ours.n_iter_:5d} "
                  f"{t_plain:8.3f} {plain.n_iter_:6d} {t_ref:7.3f} {t_ref / t_ours:10.2f} {t_lin:8.3f} "
                  f"{t_lin / t_ours:13.3f} {rel:8.1e} {load():5.2f}", flush=True)


#: The reproduction study's kernel machines (``navia2004_kernel``): R FSCL prototypes per data set, σ values.
KERNEL_MACHINES = (("twonorm", 12), ("ringnorm", 90), ("waveform", 30))
KERNEL_SIGMAS = (1.0, 3.16, 10.0, 31.6)


def kernel(reps, n=400, Cs=(10.0,), seed=1):
    """The kernel machines of the reproduction study (``navia2004_kernel``: σ ∈ {1, 3.2, 10, 31.6}, R FSCL
    prototypes — 12 twonorm, 90 ringnorm, 30 waveform; the study: n = 400, C = 10) on standardized data:
    the semiparametric IRWLS SVC (Navia-Vázquez et al. 2004, eqs. 23–26; the hinge, the exact finish)
    and the whole USVC fit (s = 2) against libsvm's ``SVC(kernel="rbf", tol=1e-10)`` at the same C and
    γ = 1/(2σ²) on the same data, interleaved; medians of wall and CPU seconds (one process, one
    thread). The machines differ (R prototypes against the SVC's support vectors, ``nSV``): the ratio
    is of the cost of a fit, not of one solution. "1 it cpu s" is the SVC stage stopped after one
    iteration (``max_iter=1``): the fit's fixed work — FSCL, the prototypes' gram and its
    eigendecomposition, the set-up — and one step, the floor of any fit of the machine; "SVC/1 it" is
    libsvm's CPU time over it (below 1: the fixed work alone is slower than libsvm's whole solve)."""
    print(f"{'n = ' + str(n) + ', medians of ' + str(reps):30s} {'SVC stage s':>11s} {'cpu s':>7s} {'iters':>5s} "
          f"{'1 it cpu s':>10s} {'USVC fit s':>10s} {'cpu s':>7s} {'iters':>5s} {'SVC rbf s':>9s} {'cpu s':>7s} "
          f"{'nSV':>5s} {'SVC/svmviz':>10s} {'cpu':>5s} {'SVC/1 it':>8s} {'load':>5s}")
    for name, R in KERNEL_MACHINES:
        ds = make_dataset(name, n=n, seed=seed)
        X = (ds.X - ds.X.mean(0)) / ds.X.std(0)
        for C in Cs:
            for sigma in KERNEL_SIGMAS:
                machine = dict(C=C, kernel="rbf", sigma=sigma, n_prototypes=R, prototypes="fscl")
                (ours, _, usvc, ref), wall, cpu = interleaved_clocks([
                    lambda: IRWLSClassifier(**machine).fit(X, ds.y),
                    lambda: IRWLSClassifier(max_iter=1, **machine).fit(X, ds.y),  # warns: not converged
                    lambda: IRWLSClassifier(loss="smooth_step", s=2.0, **machine).fit(X, ds.y),
                    lambda: SVC(kernel="rbf", C=C, gamma=1.0 / (2.0 * sigma ** 2), tol=1e-10).fit(X, ds.y),
                ], reps)
                it_u = usvc.n_iter_stages_["SVC"] + usvc.n_iter_stages_["USVC"]
                print(f"{name + ' R=' + str(R) + ', C=' + format(C, 'g') + ', σ=' + format(sigma, 'g'):30s} "
                      f"{wall[0]:11.4f} {cpu[0]:7.4f} {ours.n_iter_:5d} {cpu[1]:10.4f} {wall[2]:10.4f} {cpu[2]:7.4f} "
                      f"{it_u:5d} {wall[3]:9.4f} {cpu[3]:7.4f} {ref.n_support_.sum():5d} {wall[3] / wall[0]:10.2f} "
                      f"{cpu[3] / cpu[0]:5.2f} {cpu[3] / cpu[1]:8.2f} {load():5.2f}", flush=True)


def replicate():
    """One linear replicate of the reproduction study's IRWLS fits (``navia2004_linear``): on each Breiman
    data set at its training size, LS → SVC → USVC(s = 2) for C ∈ {0.001, …, 100} by 5-fold
    cross-validation plus the refit (the study refits at the chosen C only: 31 fits; here all six),
    with and without the exact finish, alternating fit by fit."""
    from sklearn.model_selection import StratifiedKFold
    for name, n in (("ringnorm", 5920), ("twonorm", 5920), ("waveform", 4000)):
        ds = make_dataset(name, n=n, seed=1)
        X = (ds.X - ds.X.mean(0)) / ds.X.std(0)
        tot = {True: 0.0, False: 0.0}
        its = {True: [], False: []}
        splits = list(StratifiedKFold(5, shuffle=True, random_state=0).split(X, ds.y)) + [(np.arange(n), None)]
        for C in (0.001, 0.01, 0.1, 1.0, 10.0, 100.0):
            for tr, _ in splits:
                for fin in (True, False):
                    t = time.perf_counter()
                    clf = IRWLSClassifier(C=C, loss="smooth_step", exact_finish=fin).fit(X[tr], ds.y[tr])
                    tot[fin] += time.perf_counter() - t
                    its[fin].append(clf.n_iter_stages_["SVC"])
        print(f"{name} n={n}: 36 fits, exact finish {tot[True]:.1f} s (SVC iterations {min(its[True])}–"
              f"{max(its[True])}), plain {tot[False]:.1f} s ({min(its[False])}–{max(its[False])}), "
              f"plain / finish {tot[False] / tot[True]:.2f}×; load {load():.2f}", flush=True)


def main(quick=False):
    warnings.simplefilter("ignore")
    IRWLSClassifier(C=1.0).fit(*make_classification(50, 2, n_redundant=0, random_state=0))  # compile
    reps = 1 if quick else 3
    breiman(3 if quick else 5)
    print()
    cases = []
    for name, n in (("waveform", 5000), ("waveform", 6000), ("twonorm", 5000), ("twonorm", 6000)):
        ds = make_dataset(name, n=n, seed=0)
        for C in (0.1, 1.0):
            cases.append((f"{name} n={n} d={ds.X.shape[1]}, C={C:g}", ds.X, ds.y, C))
    if not quick:
        for n, d in ((200, 2), (1000, 10), (5000, 50)):
            X, y = make_classification(n, d, n_informative=min(d, 5), n_redundant=0, flip_y=0.1, random_state=n + d)
            cases.append((f"make_classification n={n} d={d}, C=1", X, 2.0 * y - 1, 1.0))
        for sc in "AB":
            ds = make_dataset(f"usvc_{sc}", n=500, seed=1)
            cases.append((f"usvc_{sc} n=500 d=1, C=10", ds.X, ds.y, 10.0))
    print(f"{'case':36s} {'IRWLS s':>8s} {'iters':>6s} {'ms/iter':>8s} {'SVC s':>8s} {'/SVC':>6s} "
          f"{'LinSVC s':>8s} {'/LinSVC':>8s} {'rel diff (w,b)':>14s} {'load':>5s}")
    for name, X, y, C in cases:
        ours, t_ours = best_of(lambda: IRWLSClassifier(C=C).fit(X, y), reps)
        ref, t_ref = best_of(lambda: SVC(kernel="linear", C=C, tol=1e-10).fit(X, y), reps)
        _, t_lin = best_of(lambda: LinearSVC(C=C, loss="hinge", dual=True, tol=1e-8, max_iter=100_000).fit(X, y), reps)
        a, r = np.r_[ours.coef_[0], ours.intercept_], np.r_[ref.coef_[0], ref.intercept_[0]]
        rel = np.max(np.abs(a - r)) / np.max(np.abs(r))
        iters = sum(ours.n_iter_stages_.values())
        print(f"{name:36s} {t_ours:8.3f} {iters:6d} {1e3 * t_ours / max(iters, 1):8.3f} {t_ref:8.3f} "
              f"{t_ours / t_ref:6.2f} {t_lin:8.3f} {t_ours / t_lin:8.2f} {rel:14.2e} {load():5.2f}", flush=True)
    # the cost of one iteration against n: 200 iterations on waveform (d = 21), C = 0.1
    print(f"\n{'waveform d=21, 200 iterations':36s} {'n':>6s} {'s':>8s} {'ms/iter':>8s} {'µs/iter/n':>10s} {'load':>5s}")
    for n in (1500, 3000, 6000):
        ds = make_dataset("waveform", n=n, seed=0)
        _, t = best_of(lambda: IRWLSClassifier(C=0.1, max_iter=200, tol=1e-300, tol_f=1e-300).fit(ds.X, ds.y), reps)
        print(f"{'':36s} {n:6d} {t:8.3f} {5.0 * t:8.3f} {5e3 * t / n:10.4f} {load():5.2f}", flush=True)
    if quick:
        return
    table1_study("A", n_trials=2)  # compile
    for sc in "AB":
        _, t = best_of(lambda: table1_study(sc, n_trials=100), reps=1)
        print(f"Table 1 study, scenario {sc}, 100 trials × (LS, SVC, USVC s=2, s=4): {t:.2f} s (load {load():.2f})")


if __name__ == "__main__":
    if "--replicate" in sys.argv:
        warnings.simplefilter("ignore")
        replicate()
    elif "--cpu" in sys.argv:
        warnings.simplefilter("ignore")
        IRWLSClassifier(C=1.0).fit(*make_classification(50, 2, n_redundant=0, random_state=0))  # compile
        print("CPU seconds of this process (time.process_time)")
        breiman(3, time.process_time)
        print()
        kernel(3)
    elif "--kernel" in sys.argv:
        warnings.simplefilter("ignore")
        IRWLSClassifier(C=1.0, kernel="rbf", n_prototypes=5).fit(*make_classification(50, 2, n_redundant=0,
                                                                                      random_state=0))  # compile
        kernel(3)
        print()
        kernel(1 if "--quick" in sys.argv else 3, n=5000, Cs=(0.01, 1.0), seed=0)
    else:
        main(quick="--quick" in sys.argv)
