"""One SVMClassifier fit vs one scikit-learn SVC fit at the same (C, γ), in one run, interleaved.

    python bench/bench_fit.py [n ...]            (default n = 2000 10000)
    python bench/bench_fit.py --breiman [n ...]  twonorm, ringnorm, waveform (20–21 features)

make_classification with 10 features (5 informative, seed 0) by default. One thread on each side
(threadpoolctl for BLAS; numba's own setting). Each repeat fits ``SVMClassifier(C, gamma)`` then
``SVC(C, gamma)`` on the same data at libsvm's default tol 1e-3 (SVC with its default 200 MB kernel
cache); the table prints medians of the repeats (5 at n ≤ 2000, 3 above), the ratio
SVC / svmviz (above 1: svmviz faster), both iteration counts and the largest difference of the
training decision values relative to max |f|.
"""
from __future__ import annotations

import sys

import numba
import numpy as np
from _common import machine
from bench_gram import interleaved
from sklearn.datasets import make_classification
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from svmviz.data import make_dataset
from svmviz.svm import SVMClassifier

PAIRS = [(1.0, 0.1), (10.0, 0.1), (100.0, 0.5), (0.1, 0.01)]


def compare(name, X, y):
    n = X.shape[0]
    reps = 5 if n <= 2000 else 3
    for C, g in PAIRS:
        mo, mr, ours, ref = interleaved(lambda: SVMClassifier(C=C, gamma=g).fit(X, y),
                                        lambda: SVC(C=C, gamma=g).fit(X, y), reps)
        f_o, f_r = ours.train_decision_, ref.decision_function(X)
        rel = float(np.max(np.abs(f_o - f_r)) / np.max(np.abs(f_r)))
        print(f"{name:9s} n={n:6d} C={C:<6g} gamma={g:<5g} svmviz {mo:7.3f} s ({ours.n_iter_:6d} it)  "
              f"SVC {mr:7.3f} s ({int(ref.n_iter_[0]):6d} it)  ratio {mr / mo:5.2f}  max |Δf|/max|f| {rel:.1e}",
              flush=True)


if __name__ == "__main__":
    numba.set_num_threads(1)
    args = sys.argv[1:]
    breiman = "--breiman" in args
    sizes = [int(a) for a in args if a != "--breiman"] or [2000, 10000]
    print(machine(), "| 1 thread each | medians", flush=True)
    with threadpool_limits(1):
        SVMClassifier(C=1.0, gamma=0.1).fit(*make_classification(200, 10, random_state=0))  # compiled once
        for n in sizes:
            if breiman:
                for name in ("twonorm", "ringnorm", "waveform"):
                    ds = make_dataset(name, n=n, seed=0)
                    compare(name, ds.X, ds.y)
            else:
                X, y = make_classification(n, 10, n_informative=5, random_state=0)
                compare("make_clf", X, y)
