"""Gram matrices vs scikit-learn's pairwise kernels at equal resources, in one run, interleaved.

    python bench/bench_gram.py [n ...]        (default n = 2000 10000; 10 features)
    python bench/bench_gram.py --blocks [n]   svmviz's rbf gram with blocks of 64 KiB – 8 MiB

One thread on each side (threadpoolctl for BLAS, numba's own setting for compiled code). Each
repeat times svmviz's ``gram`` and sklearn's ``rbf_kernel`` / ``linear_kernel`` /
``polynomial_kernel`` one after the other on the same data; the table prints the medians of 7
repeats, the ratio sklearn / svmviz (above 1: svmviz faster) and the largest relative difference of
the two matrices. A compiled pair-at-a-time loop (distances summed directly, exp per element) is
timed alongside as the direct way of computing the same matrix.
"""
from __future__ import annotations

import sys
import time

import numba
import numpy as np
from _common import machine
from numba import njit
from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel
from threadpoolctl import threadpool_limits

from svmviz.kernels import _gram, gram

SIGMA = 1.0 / np.sqrt(2 * 0.1)  # sklearn's gamma = 0.1
REPEATS = 7


@njit(cache=True)
def direct_rbf(A, B, gamma):
    out = np.empty((A.shape[0], B.shape[0]))
    for i in range(A.shape[0]):
        for j in range(B.shape[0]):
            s = 0.0
            for k in range(A.shape[1]):
                t = A[i, k] - B[j, k]
                s += t * t
            out[i, j] = np.exp(-gamma * s)
    return out


def cases(X):
    g = 1.0 / (2 * SIGMA**2)
    return {
        "rbf": (lambda: gram(X, sigma=SIGMA), lambda: rbf_kernel(X, gamma=g), lambda: direct_rbf(X, X, g)),
        "linear": (lambda: gram(X, kernel="linear"), lambda: linear_kernel(X), None),
        "poly": (lambda: gram(X, kernel="poly", degree=3, gamma=0.1, coef0=1.0),
                 lambda: polynomial_kernel(X, degree=3, gamma=0.1, coef0=1.0), None),
    }


def seconds(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def interleaved(ours, ref, repeats):
    """``ours()`` then ``ref()``, ``repeats`` times: (median seconds of each, the last results of each)."""
    t_o, t_r = [], []
    for _ in range(repeats):
        a, out_o = seconds(ours)
        b, out_r = seconds(ref)
        t_o.append(a)
        t_r.append(b)
    return float(np.median(t_o)), float(np.median(t_r)), out_o, out_r


def compare(n):
    X = np.random.default_rng(0).normal(size=(n, 10))
    for name, (ours, ref, direct) in cases(X).items():
        t_o, t_r, t_d = [], [], []
        ours(), ref()
        if direct is not None and n <= 4000:
            direct()
        for _ in range(REPEATS):
            a, K_o = seconds(ours)
            b, K_r = seconds(ref)
            t_o.append(a)
            t_r.append(b)
            if direct is not None and n <= 4000:
                t_d.append(seconds(direct)[0])
            del K_r
        K_r = ref()
        rel = float(np.max(np.abs(K_o - K_r) / np.maximum(np.abs(K_r), 1e-300)))
        mo, mr = np.median(t_o), np.median(t_r)
        extra = f"  direct loop {np.median(t_d):.4f} s ({np.median(t_d) / mo:.1f}× svmviz)" if t_d else ""
        print(f"n={n:6d} {name:6s}  svmviz {mo:.4f} s  sklearn {mr:.4f} s  ratio {mr / mo:5.2f}  "
              f"max rel diff {rel:.1e}{extra}", flush=True)


def blocks(n):
    X = np.random.default_rng(0).normal(size=(n, 10))
    sizes = [2**k for k in range(16, 24)]
    times = {s: [] for s in sizes}
    for _ in range(REPEATS):
        for s in sizes:
            _gram.GRAM_BLOCK_BYTES = s
            times[s].append(seconds(lambda: gram(X, sigma=SIGMA))[0])
    for s in sizes:
        print(f"n={n} block {s // 1024:5d} KiB  {np.median(times[s]):.4f} s", flush=True)


if __name__ == "__main__":
    numba.set_num_threads(1)
    print(machine(), "| 1 thread each | medians of", REPEATS, flush=True)
    args = sys.argv[1:]
    with threadpool_limits(1):
        if args[:1] == ["--blocks"]:
            blocks(int(args[1]) if len(args) > 1 else 2000)
        else:
            for n in [int(a) for a in args] or [2000, 10000]:
                compare(n)
