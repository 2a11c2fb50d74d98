"""Kernels and gram matrices (numba).

Conventions (SPEC §1): Gaussian ``K(x, x') = exp(-||x - x'||² / (2σ²))`` — sklearn's
``gamma = 1/(2σ²)``; linear ``x·x'``; polynomial ``(γ x·x' + c0)^degree``.

Two layers: private ``@njit`` kernels on contiguous float64 arrays, and :func:`gram`, the public
wrapper that validates and dispatches.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ._validation import check_matrix, check_positive

KERNELS = ("rbf", "linear", "poly")


@njit(cache=True)
def _sq_dists(A, B):
    n, m, d = A.shape[0], B.shape[0], A.shape[1]
    out = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for k in range(d):
                t = A[i, k] - B[j, k]
                s += t * t
            out[i, j] = s
    return out


@njit(cache=True)
def _rbf_gram(A, B, sigma):
    D = _sq_dists(A, B)
    scale = -1.0 / (2.0 * sigma * sigma)
    for i in range(D.shape[0]):
        for j in range(D.shape[1]):
            D[i, j] = np.exp(D[i, j] * scale)
    return D


@njit(cache=True)
def _rbf_from_sq_dists(D, sigma):
    out = np.empty_like(D)
    scale = -1.0 / (2.0 * sigma * sigma)
    for i in range(D.shape[0]):
        for j in range(D.shape[1]):
            out[i, j] = np.exp(D[i, j] * scale)
    return out


@njit(cache=True)
def _linear_gram(A, B):
    n, m, d = A.shape[0], B.shape[0], A.shape[1]
    out = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            s = 0.0
            for k in range(d):
                s += A[i, k] * B[j, k]
            out[i, j] = s
    return out


@njit(cache=True)
def _poly_gram(A, B, degree, gamma, coef0):
    G = _linear_gram(A, B)
    for i in range(G.shape[0]):
        for j in range(G.shape[1]):
            G[i, j] = (gamma * G[i, j] + coef0) ** degree
    return G


def squared_distances(A, B=None) -> np.ndarray:
    """Pairwise squared Euclidean distances, shape (n_A, n_B)."""
    A = check_matrix(A, "A")
    B = A if B is None else check_matrix(B, "B")
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A has {A.shape[1]} features and B has {B.shape[1]}; they must match.")
    return _sq_dists(A, B)


def rbf_from_squared_distances(D, sigma: float) -> np.ndarray:
    """Gaussian kernel from precomputed squared distances: reuse ``D`` across a σ grid."""
    sigma = check_positive(sigma, "sigma")
    return _rbf_from_sq_dists(np.ascontiguousarray(D, dtype=np.float64), sigma)


def gram(A, B=None, *, kernel: str = "rbf", sigma: float = 1.0, degree: int = 3,
         gamma: float = 1.0, coef0: float = 1.0) -> np.ndarray:
    """Gram matrix ``K[i, j] = k(A[i], B[j])``.

    Parameters
    ----------
    A : array of shape (n_A, d)
    B : array of shape (n_B, d), optional (defaults to ``A``)
    kernel : {"rbf", "linear", "poly"}
    sigma : float
        Gaussian width, ``exp(-||x - x'||² / (2σ²))`` (Wahba et al. 2001, §6).
    degree, gamma, coef0 : polynomial kernel ``(γ x·x' + c0)^degree``.

    Returns
    -------
    K : ndarray of shape (n_A, n_B), float64, C-contiguous.
    """
    A = check_matrix(A, "A")
    B = A if B is None else check_matrix(B, "B")
    if A.shape[1] != B.shape[1]:
        raise ValueError(f"A has {A.shape[1]} features and B has {B.shape[1]}; they must match.")
    if kernel == "rbf":
        return _rbf_gram(A, B, check_positive(sigma, "sigma"))
    if kernel == "linear":
        return _linear_gram(A, B)
    if kernel == "poly":
        if int(degree) != degree or degree < 1:
            raise ValueError(f"degree must be a positive integer; got {degree!r}.")
        return _poly_gram(A, B, float(degree), check_positive(gamma, "gamma"), float(coef0))
    raise ValueError(f"kernel must be one of {KERNELS}; got {kernel!r}.")
