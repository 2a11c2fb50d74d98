"""Small dense linear algebra for the numba solvers (_klr, _irwls): thin products, jittered Cholesky, weighted grams.

Plain loops, not BLAS/LAPACK: the systems are small (a few dozen unknowns) and the products thin, where
a multithreaded BLAS on the project's loaded 2-core machines spends its time synchronising threads.
"""
from __future__ import annotations

import numpy as np

from ._jit import njit  # numba.njit whose cache follows the kernels called in other modules
_FAILED = 3  # = _klr.NUMERICAL: the Cholesky factorisation failed even with jitter


@njit(cache=True)
def _mm(A, B):
    """A @ B for 2-D arrays, safe for empty dimensions.

    Plain loops (the inner one contiguous, so LLVM vectorises it) rather than BLAS: the products
    here are thin (one side ~ q), where a multithreaded BLAS on a loaded machine spends its time
    synchronising threads (measured 270x slower Newton solves at N = 1000, q = 30, 2 busy cores).
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
def _cholesky(A):
    """Lower Cholesky factor of a symmetric matrix, adding diagonal jitter if needed.

    Returns ``(L, status)``; status 0 on success, 3 when even a jitter of 1e-4 * max|diag| fails.

    Written out rather than ``np.linalg.cholesky`` (issue 16): LAPACK's raises instead of retrying with
    jitter, and it is slower here. Measured (factor + solve of one
    right-hand side inside numba, best of 3, 2 cores at load 13, 2026-11-23): n = 10: 1.2 µs against
    4.6 µs (np.linalg.cholesky + np.linalg.solve); n = 30: 12.5 against 38.5 µs; n = 60: 53 against
    136 µs; n = 400: 21 against 122 ms — the KLR/IVM systems are M·|S| ≤ a few hundred unknowns.
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
def _column(v):
    """A copy of the vector v as an (n, 1) column (an element loop: ``v.reshape`` and ``[:, 0]`` cost
    numba's compiler more than the kernels that use them — issue 13)."""
    n = v.shape[0]
    out = np.empty((n, 1))
    for i in range(n):
        out[i, 0] = v[i]
    return out


@njit(cache=True)
def _chol_solve(L, B):
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

    The one dense elimination of the package: kernel logistic regression's Newton systems
    (:func:`_lu_solve`) and the exact-LOO active-set pivots (``svmviz.svm._smo._active_set``, whose KKT
    systems live in the leading block of a preallocated buffer and are singular to working
    precision below a relative pivot). Written out rather than ``np.linalg.solve``: numba's binding
    to LAPACK's gesv formats its error messages and checks shapes at compile time — 3–4 s of CPU on a
    fresh install, paid by the first full kernel logistic regression (issue 13) — and the rows here
    are contiguous, so the elimination vectorises. The pivot is the first largest |A[i, k]|, as
    LAPACK's.
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
        for i in range(k + 1, m):
            f = A[i, k] / d
            if f != 0.0:
                for j in range(k + 1, m):
                    A[i, j] -= f * A[k, j]
                x[i] -= f * x[k]
    for i in range(m - 1, -1, -1):
        t = x[i]
        for j in range(i + 1, m):
            t -= A[i, j] * x[j]
        x[i] = t / A[i, i]
    return True


@njit(cache=True)
def _lu_solve(A, b):
    """Solve the square system A x = b (:func:`gauss_solve`; A is overwritten by its factors, b is
    not). Returns ``(x, status)``: status 3 when a pivot is 0 or not finite."""
    n = A.shape[0]
    x = np.empty(n)
    for i in range(n):
        x[i] = b[i]
    if not gauss_solve(A, x, n, 0.0):
        return x, _FAILED
    return x, 0


@njit(cache=True)
def weighted_gram_upper(Phi, w, out):
    """Add Φ' diag(w) Φ to the upper triangle of ``out`` (s ≥ r); rows with w_i = 0 are skipped.

    The normal-equation accumulation of a weighted least-squares solve, shared by the IRWLS machine
    (Navia-Vázquez et al. 2004, eqs. 20 and 25) and KLR's Newton Hessian blocks (Zhu & Hastie 2002, eq. 5).

    Parameters
    ----------
    Phi : (N, p) float64
    w : (N,) float64
    out : (≥ p, ≥ p) float64, updated in place (rows/columns 0..p−1)
    """
    N, p = Phi.shape
    for i in range(N):
        wi = w[i]
        if wi == 0.0:
            continue
        for r in range(p):
            a = wi * Phi[i, r]
            for s in range(r, p):
                out[r, s] += a * Phi[i, s]
