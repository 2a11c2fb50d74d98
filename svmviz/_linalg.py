"""Small dense linear algebra for the numba solvers (_klr, _irwls): thin products, jittered Cholesky, small solves.

Plain loops, not BLAS/LAPACK: the systems are small (a few dozen unknowns) and the products thin, where
a multithreaded BLAS on the project's loaded 2-core machines spends its time synchronising threads.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import numpy as np

from ._jit import njit  # numba.njit whose cache follows the functions called in other modules
_FAILED = 3  # = _klr.NUMERICAL: the Cholesky factorisation failed even with jitter


@njit(cache=True)
def mm(A, B):
    """A @ B for 2-D arrays, safe for empty dimensions.

    Plain loops (the inner one contiguous, so LLVM vectorises it) rather than BLAS: the products
    here are thin (one side ~ q), where a multithreaded BLAS on a loaded machine spends its time
    synchronising threads (Newton solves at N = 1000, q = 30 run two orders of magnitude slower).
    """
    n, k = A.shape
    m = B.shape[1]
    C = np.zeros((n, m))
    for i in range(n):
        for t in range(k):
            a = A[i, t]
            if a != 0.0:
                for j in range(m):
                    C[i, j] += a * B[t, j]
    return C


@njit(cache=True)
def cholesky(A):
    """Lower Cholesky factor of a symmetric matrix, adding diagonal jitter if needed.

    Returns ``(L, status)``; status 0 on success, 3 when even a jitter of 1e-4 * max|diag| fails.

    Written out rather than ``np.linalg.cholesky``: LAPACK's raises instead of retrying with
    jitter, and through numba it is slower at the sizes of the KLR/IVM systems (M·|S| ≤ a few
    hundred unknowns), where a factor and solve of one right-hand side here takes a third to a
    fifth of the time of ``np.linalg.cholesky`` + ``np.linalg.solve``.
    """
    n = A.shape[0]
    L = np.zeros((n, n))
    if n == 0:
        return L, 0
    scale = 0.0
    for i in range(n):
        if abs(A[i, i]) > scale:
            scale = abs(A[i, i])
    if scale == 0.0 or not np.isfinite(scale):
        scale = 1.0
    jitter = 0.0
    for attempt in range(10):
        ok = True
        for j in range(n):
            s = A[j, j] + jitter
            for k in range(j):
                s -= L[j, k] * L[j, k]
            if not (s > 0.0) or not np.isfinite(s):
                ok = False
                break
            d = np.sqrt(s)
            L[j, j] = d
            for i in range(j + 1, n):
                t = A[i, j]
                for k in range(j):
                    t -= L[i, k] * L[j, k]
                L[i, j] = t / d
        if ok:
            return L, 0
        jitter = scale * 1e-13 * (10.0 ** attempt)
        L[:, :] = 0.0
    return L, _FAILED


@njit(cache=True)
def column(v):
    """A copy of the vector v as an (n, 1) column (an element loop: ``v.reshape`` and ``[:, 0]`` cost
    numba's compiler more than the functions that use them)."""
    n = v.shape[0]
    out = np.empty((n, 1))
    for i in range(n):
        out[i, 0] = v[i]
    return out


@njit(cache=True)
def chol_solve(L, B):
    """Solve (L L') X = B for X, B of shape (n, m).

    The forward (L Y = B) and the backward (L' X = Y) substitutions are two loops of one shape on
    purpose: they run in opposite directions over L's rows and columns, and one routine with a flag
    would put a branch into the innermost loop of every IVM / IRWLS solve."""
    n, m = B.shape
    X = B.copy()
    for i in range(n):
        for k in range(i):
            lik = L[i, k]
            if lik != 0.0:
                for c in range(m):
                    X[i, c] -= lik * X[k, c]
        d = L[i, i]
        for c in range(m):
            X[i, c] /= d
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            lki = L[k, i]
            if lki != 0.0:
                for c in range(m):
                    X[i, c] -= lki * X[k, c]
        d = L[i, i]
        for c in range(m):
            X[i, c] /= d
    return X


@njit(cache=True)
def gauss_solve(A, x, m, rel_tol):
    """Solve ``A[:m, :m] z = x[:m]`` in place by Gaussian elimination with partial pivoting: A's block
    is overwritten by its factors, z returned in x. False when a pivot is not finite or not above
    ``rel_tol`` times the block's largest |entry| (``rel_tol = 0``: exactly zero).

    The one dense solve of the package: kernel logistic regression's Newton systems
    (:func:`lu_solve`). Written out rather than ``np.linalg.solve``: numba's binding
    to LAPACK's gesv formats its error messages and checks shapes at compile time, which lengthens
    the first compilation of every cached function calling it, and the rows here are contiguous, so
    the elimination vectorises — over row views indexed from 0: in a loop over ``range(k + 1, m)``
    numba cannot prove the indices non-negative, and LLVM leaves the loop scalar. The pivot is the
    first largest |A[i, k]|, as LAPACK's.

    A second elimination beside :func:`invert_in_place` on purpose: its caller needs one solution
    per system, and a solve through the inverse costs 1.5–1.7× as much CPU at p = 20–300
    (``bench/bench_linalg.py``).
    """
    scale = 0.0
    if rel_tol > 0.0:
        for i in range(m):
            for j in range(m):
                scale = max(scale, abs(A[i, j]))
    for k in range(m):
        piv = k
        big = abs(A[k, k])
        for i in range(k + 1, m):
            v = abs(A[i, k])
            if v > big:
                big = v
                piv = i
        if not (big > rel_tol * scale) or not np.isfinite(big):
            return False
        if piv != k:
            for j in range(k, m):
                t = A[k, j]
                A[k, j] = A[piv, j]
                A[piv, j] = t
            t = x[k]
            x[k] = x[piv]
            x[piv] = t
        d = A[k, k]
        pivot_row = A[k, k + 1:m]  # row views indexed from 0: a loop from k + 1 is not vectorised
        for i in range(k + 1, m):
            f = A[i, k] / d
            if f != 0.0:
                row = A[i, k + 1:m]
                for j in range(row.shape[0]):
                    row[j] -= f * pivot_row[j]
                x[i] -= f * x[k]
    for i in range(m - 1, -1, -1):
        t = x[i]
        for j in range(i + 1, m):
            t -= A[i, j] * x[j]
        x[i] = t / A[i, i]
    return True


@njit(cache=True)
def invert_in_place(A, p, work, min_pivot):
    """Invert ``A[:p, :p]`` in place by Gauss–Jordan elimination with partial pivoting.

    The one dense inverse of the package: the ν-path's bordered KKT matrix (rebuilt from scratch
    between rank-one updates, ``svmviz.path._solver.kkt.minv_refresh``), the exact-LOO prediction's
    free-set system (``svmviz.svm._smo._invert``) and the active-set pivots' (likewise updated by
    rank-one steps between fresh inversions, ``svmviz.svm._smo._kkt_inverse``). ``work`` holds at
    least p integers (the row swaps); nothing is allocated. Returns False, leaving ``A`` garbage,
    when a pivot's modulus is not above ``min_pivot`` (singular in floating point, or not finite):
    the path passes an underflow threshold (its bordered matrix is indefinite and may be
    ill-conditioned, which it handles by iterative refinement and residual checks), the leave-one-out
    refits and the active-set pivots a relative one.

    Written out rather than ``np.linalg.inv``: LAPACK through a multithreaded BLAS costs more in
    thread hand-offs than the arithmetic at these sizes (p ≲ a few hundred) and its spinning threads
    slow the whole path on a loaded machine (``bench/bench_path.py``), and numba's LAPACK binding
    lengthens the first compilation of every cached function that calls it.
    """
    for k in range(p):
        r = k
        big = abs(A[k, k])
        for i in range(k + 1, p):
            if abs(A[i, k]) > big:
                big = abs(A[i, k])
                r = i
        if not big > min_pivot:
            return False
        work[k] = r
        if r != k:
            for c in range(p):
                tmp = A[k, c]
                A[k, c] = A[r, c]
                A[r, c] = tmp
        piv = 1.0 / A[k, k]
        A[k, k] = 1.0
        for c in range(p):
            A[k, c] *= piv
        for i in range(p):
            if i == k:
                continue
            f = A[i, k]
            if f != 0.0:
                A[i, k] = 0.0
                for c in range(p):
                    A[i, c] -= f * A[k, c]
    for k in range(p - 1, -1, -1):  # undo the row swaps as column swaps of the inverse
        r = work[k]
        if r != k:
            for i in range(p):
                tmp = A[i, k]
                A[i, k] = A[i, r]
                A[i, r] = tmp
    return True


@njit(cache=True)
def lu_solve(A, b):
    """Solve the square system A x = b (:func:`gauss_solve`; A is overwritten by its factors, b is
    not). Returns ``(x, status)``: status 3 when a pivot is 0 or not finite."""
    n = A.shape[0]
    x = np.empty(n)
    for i in range(n):
        x[i] = b[i]
    if not gauss_solve(A, x, n, 0.0):
        return x, _FAILED
    return x, 0
