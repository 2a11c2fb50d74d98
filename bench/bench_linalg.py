"""The package's two dense eliminations: a solve (``_linalg.gauss_solve``) against a solve through the
inverse (``_linalg.invert_in_place`` and a product), on the systems their callers solve.

    python bench/bench_linalg.py [p ...]     (default p = 20 60 150 300)

``gauss_solve`` is what kernel logistic regression's Newton steps and the exact-LOO active set call:
one system per factorisation. ``invert_in_place`` is what the ν-path keeps between rank-one updates
and the leave-one-out refits warm-start from: the inverse itself is used. The question this answers:
could the solves go through the inverse, leaving one elimination? Prints CPU time per call (best of
5 repetitions of a batch, ``time.process_time``) and the ratio, with the largest difference of the
two solutions relative to max |z|, on symmetric positive definite systems (the Newton Hessians') of
size p.
"""
from __future__ import annotations

import sys
import time

import numpy as np
from _common import machine
from numba import njit

from svmviz._linalg import gauss_solve, invert_in_place


@njit(cache=True)
def _solve_batch(A, x, reps):
    z = np.empty_like(x)
    p = A.shape[0]
    for _ in range(reps):
        B = A.copy()
        z[:] = x
        gauss_solve(B, z, p, 0.0)
    return z


@njit(cache=True)
def _inverse_batch(A, x, reps):
    p = A.shape[0]
    z = np.empty_like(x)
    work = np.empty(p, np.int64)
    for _ in range(reps):
        B = A.copy()
        invert_in_place(B, p, work, 0.0)
        for i in range(p):
            t = 0.0
            for j in range(p):
                t += B[i, j] * x[j]
            z[i] = t
    return z


def _best(fn, A, x, reps):
    best = np.inf
    for _ in range(5):
        t0 = time.process_time()
        z = fn(A, x, reps)
        best = min(best, (time.process_time() - t0) / reps)
    return best, z


def main(sizes):
    print(f"bench_linalg: {machine()}")
    print(f"{'p':>5} {'solve µs':>10} {'inverse+product µs':>19} {'ratio':>6} {'max |Δz|/max |z|':>17}")
    rng = np.random.default_rng(0)
    for p in sizes:
        G = rng.normal(size=(p, p))
        A = G @ G.T + p * np.eye(p)
        x = rng.normal(size=p)
        reps = max(3, int(2e7 / p**3))
        _solve_batch(A, x, 1)
        _inverse_batch(A, x, 1)  # compiled (or loaded) before timing
        ts, zs = _best(_solve_batch, A, x, reps)
        ti, zi = _best(_inverse_batch, A, x, reps)
        diff = np.max(np.abs(zs - zi)) / np.max(np.abs(zs))
        print(f"{p:5d} {ts * 1e6:10.1f} {ti * 1e6:19.1f} {ti / ts:6.2f} {diff:17.1e}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [20, 60, 150, 300])
