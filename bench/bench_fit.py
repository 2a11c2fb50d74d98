"""One SVMClassifier fit vs one scikit-learn SVC fit at the same (C, γ), in one run, interleaved.

    python bench/bench_fit.py [n ...]            (default n = 2000 10000)
    python bench/bench_fit.py --breiman [n ...]  twonorm, ringnorm, waveform (20–21 features)
    python bench/bench_fit.py --paths [n ...]    also each of SVMClassifier's strategies forced
                                                 ("full" and "rows"), in the same interleaved repeats

make_classification with 10 features (5 informative, seed 0) by default. One thread on each side
(threadpoolctl for BLAS; numba's own setting). Each repeat fits ``SVMClassifier(C, gamma)`` then
``SVC(C, gamma)`` on the same data at libsvm's default tol 1e-3 (SVC with its default 200 MB kernel
cache); the table prints medians of the repeats (5 at n ≤ 2000, 3 above), the ratio
SVC / svmviz (above 1: svmviz faster), the path ``strategy="auto"`` chose (``strategy_``: the
whole kernel matrix or cached rows), both iteration counts and the largest difference of the
training decision values relative to max |f|. With ``--paths`` each repeat also fits with
``strategy="full"`` and ``strategy="rows"`` (the measurement behind
:func:`svmviz.svm.full_matrix_pays`), and their ratios SVC / path are printed.
"""
from __future__ import annotations

import sys

import numba
import numpy as np
from _common import machine
from bench_gram import seconds
from sklearn.datasets import make_classification
from sklearn.svm import SVC
from threadpoolctl import threadpool_limits

from svmviz.data import make_dataset
from svmviz.svm import STRATEGIES, SVMClassifier

PAIRS = [(1.0, 0.1), (10.0, 0.1), (100.0, 0.5), (0.1, 0.01)]


def interleaved_many(fits, repeats):
    """Each of ``fits`` (name → callable) in turn, ``repeats`` times: (median seconds, last result) by name."""
    times = {k: [] for k in fits}
    last = {}
    for _ in range(repeats):
        for k, fit in fits.items():
            t, last[k] = seconds(fit)
            times[k].append(t)
    return {k: (float(np.median(v)), last[k]) for k, v in times.items()}


def compare(name, X, y, paths=False):
    n = X.shape[0]
    reps = 5 if n <= 2000 else 3
    for C, g in PAIRS:
        fits = {"svmviz": lambda: SVMClassifier(C=C, gamma=g).fit(X, y),
                "SVC": lambda: SVC(C=C, gamma=g).fit(X, y)}
        if paths:
            for s in STRATEGIES[1:]:
                fits[s] = lambda s=s: SVMClassifier(C=C, gamma=g, strategy=s).fit(X, y)
        res = interleaved_many(fits, reps)
        (mo, ours), (mr, ref) = res["svmviz"], res["SVC"]
        f_o, f_r = ours.train_decision_, ref.decision_function(X)
        rel = float(np.max(np.abs(f_o - f_r)) / np.max(np.abs(f_r)))
        extra = "".join(f"  {s} {res[s][0]:7.3f} s (ratio {mr / res[s][0]:5.2f})" for s in STRATEGIES[1:] if s in res)
        print(f"{name:9s} n={n:6d} C={C:<6g} gamma={g:<5g} svmviz {mo:7.3f} s ({ours.strategy_}, {ours.n_iter_[0]:6d} it)  "
              f"SVC {mr:7.3f} s ({int(ref.n_iter_[0]):6d} it)  ratio {mr / mo:5.2f}  max |Δf|/max|f| {rel:.1e}{extra}",
              flush=True)


if __name__ == "__main__":
    numba.set_num_threads(1)
    args = sys.argv[1:]
    breiman = "--breiman" in args
    paths = "--paths" in args
    sizes = [int(a) for a in args if not a.startswith("--")] or [2000, 10000]
    print(machine(), "| 1 thread each | medians", flush=True)
    with threadpool_limits(1):
        for s in STRATEGIES[1:]:  # compiled once
            SVMClassifier(C=1.0, gamma=0.1, strategy=s).fit(*make_classification(200, 10, random_state=0))
        for n in sizes:
            if breiman:
                for name in ("twonorm", "ringnorm", "waveform"):
                    ds = make_dataset(name, n=n, seed=0)
                    compare(name, ds.X, ds.y, paths)
            else:
                X, y = make_classification(n, 10, n_informative=5, random_state=0)
                compare("make_clf", X, y, paths)
