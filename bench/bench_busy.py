"""One fit on a busy machine, at every library's default threads: svmviz against scikit-learn.

    python bench/bench_busy.py [--busy K] [--repeats R]

What a user's notebook or the app meets when another program keeps a core busy: ``--busy K``
(default 1) processes spin in pure Python for the whole run. Nothing limits BLAS or numba here (both
at their defaults, one thread per core), as a user runs them; scikit-learn's SVC (libsvm) computes on
one thread. Interleaved repeats (default 7), medians of wall seconds, the ratio SVC / svmviz (above 1:
svmviz faster):

* ``SVMClassifier(C, gamma)`` against ``SVC(C, gamma)``: make_classification, n = 2000, 10 features,
  the four (C, γ) pairs of bench_fit.py;
* the semiparametric IRWLS machine of the reproduction study on ringnorm (n = 400, R = 90 FSCL
  prototypes, C = 10, σ = 1, standardized) against ``SVC(kernel="rbf", tol=1e-10)`` at γ = 1/(2σ²).
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import time

import numpy as np
from _common import machine
from sklearn.datasets import make_classification
from sklearn.svm import SVC
from threadpoolctl import threadpool_info

from svmviz.data import make_dataset
from svmviz.svm import SVMClassifier
from svmviz.usvc import IRWLSClassifier

PAIRS = [(1.0, 0.1), (10.0, 0.1), (100.0, 0.5), (0.1, 0.01)]


def spin(stop):
    while not stop.is_set():
        for _ in range(100_000):
            pass


def medians(fits, repeats):
    times = {k: [] for k in fits}
    for _ in range(repeats):
        for k, fit in fits.items():
            t = time.perf_counter()
            fit()
            times[k].append(time.perf_counter() - t)
    return {k: float(np.median(v)) for k, v in times.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--busy", type=int, default=1, help="processes spinning during the run (default 1)")
    ap.add_argument("--repeats", type=int, default=7)
    a = ap.parse_args()
    X, y = make_classification(n_samples=2000, n_features=10, n_informative=5, random_state=0)
    ds = make_dataset("ringnorm", n=400, seed=1)
    Xr = (ds.X - ds.X.mean(0)) / ds.X.std(0)
    machine_kw = dict(C=10.0, kernel="rbf", sigma=1.0, n_prototypes=90, prototypes="fscl")
    SVMClassifier(C=1.0, gamma=0.1).fit(X[:200], y[:200])  # compiled (or loaded) before the clock
    IRWLSClassifier(**machine_kw).fit(Xr, ds.y)
    blas = ", ".join(f"{i['internal_api']} {i['num_threads']} threads" for i in threadpool_info()
                     if i["user_api"] == "blas")
    stop = mp.Event()
    busy = [mp.Process(target=spin, args=(stop,), daemon=True) for _ in range(a.busy)]
    for p in busy:
        p.start()
    try:
        time.sleep(0.5)
        print(f"{machine()} | {a.busy} busy process(es) | default threads (BLAS: {blas or 'none found'}) | "
              f"medians of {a.repeats}", flush=True)
        for C, g in PAIRS:
            m = medians({"svmviz": lambda: SVMClassifier(C=C, gamma=g).fit(X, y),
                         "SVC": lambda: SVC(C=C, gamma=g).fit(X, y)}, a.repeats)
            print(f"SVMClassifier n=2000 d=10 C={C:<5g} gamma={g:<5g} svmviz {m['svmviz']:7.4f} s  "
                  f"SVC {m['SVC']:7.4f} s  ratio {m['SVC'] / m['svmviz']:5.2f}", flush=True)
        m = medians({"svmviz": lambda: IRWLSClassifier(**machine_kw).fit(Xr, ds.y),
                     "SVC": lambda: SVC(kernel="rbf", C=10.0, gamma=0.5, tol=1e-10).fit(Xr, ds.y)}, a.repeats)
        print(f"IRWLSClassifier ringnorm n=400 R=90 C=10 σ=1  svmviz {m['svmviz']:7.4f} s  SVC {m['SVC']:7.4f} s  "
              f"ratio {m['SVC'] / m['svmviz']:5.2f}", flush=True)
    finally:
        stop.set()
        for p in busy:
            p.join()


if __name__ == "__main__":
    main()
