"""Slow, obviously-correct references (stumpy's tests/naive.py style). Never used by the package."""
from __future__ import annotations

import numpy as np


def rbf_gram(A, B, sigma):
    out = np.empty((len(A), len(B)))
    for i, a in enumerate(A):
        for j, b in enumerate(B):
            out[i, j] = np.exp(-np.sum((a - b) ** 2) / (2.0 * sigma**2))
    return out


def dual_kkt_violation(K, y, scale, C, alpha, p=None):
    """Maximal violating pair gap m(α) − M(α) of ``min ½α'Qα + p'α, 0 ≤ α ≤ C, y'α = 0``.

    The point is optimal iff this is ≤ 0 (it is ≤ tol at an SMO solution with tolerance tol).
    """
    n = len(y)
    p = -np.ones(n) if p is None else p
    G = scale * y * (K @ (y * alpha)) + p
    up = ((y > 0) & (alpha < C)) | ((y < 0) & (alpha > 0))
    low = ((y > 0) & (alpha > 0)) | ((y < 0) & (alpha < C))
    return np.max(-y[up] * G[up]) - np.min(-y[low] * G[low])


def dual_objective(K, y, scale, alpha, p=None):
    p = -np.ones(len(y)) if p is None else p
    return 0.5 * scale * (y * alpha) @ K @ (y * alpha) + p @ alpha


def sklearn_wahba_alpha(svc, n, lam):
    """α in Wahba's scaling from a fitted sklearn SVC with C = 1/(2nλ) (SPEC §1)."""
    C = 1.0 / (2.0 * n * lam)
    a = np.zeros(n)
    a[svc.support_] = np.abs(svc.dual_coef_[0]) / C
    return a
