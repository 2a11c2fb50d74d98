"""Benchmark: IRWLS-SVC (svmviz.usvc) vs libsvm's linear SVC (sklearn), same data, same run.

Run by hand: ``.venv/bin/python bench/bench_usvc.py``. Prints wall times (best of 3, after a
warm-up that compiles the numba kernels), the ratio to sklearn and the largest relative
difference in (w, b); then the Table 1 study timing (100 trials per scenario).
"""
from __future__ import annotations

import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from sklearn.datasets import make_classification  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

from svmviz.data import make_dataset  # noqa: E402
from svmviz.usvc import IRWLSClassifier, table1_study  # noqa: E402


def best_of(fn, reps=3):
    out, best = None, np.inf
    for _ in range(reps):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return out, best


def main():
    warnings.simplefilter("ignore")
    IRWLSClassifier(C=1.0).fit(*make_classification(50, 2, n_redundant=0, random_state=0))  # compile
    cases = []
    for n, d in ((200, 2), (1000, 2), (1000, 10), (5000, 10), (5000, 50)):
        X, y = make_classification(n, d, n_informative=min(d, 5), n_redundant=0, flip_y=0.1, random_state=n + d)
        cases.append((f"make_classification n={n} d={d}, C=1", X, 2.0 * y - 1, 1.0))
    for sc in "AB":
        ds = make_dataset(f"usvc_{sc}", n=500, seed=1)
        cases.append((f"usvc_{sc} n=500 d=1, C=10", ds.X, ds.y, 10.0))
    print(f"{'case':42s} {'IRWLS s':>9s} {'iters':>6s} {'sklearn s':>10s} {'ratio':>7s} {'max rel diff (w,b)':>19s}")
    for name, X, y, C in cases:
        ours, t_ours = best_of(lambda: IRWLSClassifier(C=C).fit(X, y))
        ref, t_ref = best_of(lambda: SVC(kernel="linear", C=C, tol=1e-10).fit(X, y))
        a, r = np.r_[ours.coef_[0], ours.intercept_], np.r_[ref.coef_[0], ref.intercept_[0]]
        rel = np.max(np.abs(a - r)) / np.max(np.abs(r))
        print(f"{name:42s} {t_ours:9.4f} {ours.n_iter_:6d} {t_ref:10.4f} {t_ours / t_ref:7.2f} {rel:19.2e}")
    table1_study("A", n_trials=2)  # compile
    for sc in "AB":
        _, t = best_of(lambda: table1_study(sc, n_trials=100), reps=1)
        print(f"Table 1 study, scenario {sc}, 100 trials × (LS, SVC, USVC s=2, s=4): {t:.2f} s")


if __name__ == "__main__":
    main()
