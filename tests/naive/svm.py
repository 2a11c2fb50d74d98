"""Slow, obviously-correct references (in the style of stumpy's tests/naive.py). Never used by the package."""
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
    """α in Wahba's scaling from a fitted sklearn SVC with C = 1/(2nλ)."""
    C = 1.0 / (2.0 * n * lam)
    a = np.zeros(n)
    a[svc.support_] = np.abs(svc.dual_coef_[0]) / C
    return a


# ------------------------------------------------------------------ criteria, one point at a time
def _star(t):
    return 1.0 if t >= 0 else 0.0


def gckl(f, p, L=(1.0, 1.0)):
    n = len(f)
    return sum(L[1] * p[i] * max(1 - f[i], 0) + L[0] * (1 - p[i]) * max(1 + f[i], 0) for i in range(n)) / n


def misclass(f, p, L=(1.0, 1.0)):
    n = len(f)
    return sum(L[1] * p[i] * _star(-f[i]) + L[0] * (1 - p[i]) * _star(f[i]) for i in range(n)) / n


def gacv(f, y, alpha, lam, Kii, L=(1.0, 1.0), margin_tol=0.0):
    """Literal (Wahba et al. 2001, eqs. 4 and 9); ``margin_tol`` lets y f = 1 + rounding count as on the margin."""
    n = len(f)
    total = 0.0
    for i in range(n):
        w = L[1] if y[i] > 0 else L[0]
        yf = y[i] * f[i]
        th = alpha[i] * Kii[i] / (2 * n * lam)
        total += w * max(1 - yf, 0)
        if yf < -1:
            total += 2 * w * th
        elif -1 <= yf <= 1 + margin_tol:
            total += w * th
    return total / n


def xa(f, y, alpha, lam, Kii, L=(1.0, 1.0), margin_tol=0.0):
    """Literal (Wahba et al. 2001, eqs. 7 and 11); ``margin_tol`` as in :func:`gacv`."""
    n = len(f)
    total = 0.0
    for i in range(n):
        w = L[1] if y[i] > 0 else L[0]
        yf = y[i] * f[i]
        th = alpha[i] * Kii[i] / (2 * n * lam)
        total += w * _star(-yf)
        if yf <= 1 + margin_tol and 0 < yf <= th:
            total += w
    return total / n


def xa_joachims(f, y, alpha, lam, R2, rho, L=(1.0, 1.0)):
    n = len(f)
    return sum((L[1] if y[i] > 0 else L[0]) * _star(max(1 - y[i] * f[i], 0) + rho * alpha[i] * R2 / (2 * n * lam) - 1)
               for i in range(n)) / n


def brute_force_loo(X, y, lam, sigma, L=(1.0, 1.0), tol=1e-10):
    """f_i^{[-i]}(x_i) by refitting sklearn's SVC on n − 1 points with the full data's C = 1/(2nλ)."""
    from sklearn.svm import SVC

    n = len(y)
    out = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        m = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * sigma**2), class_weight={-1.0: L[0], 1.0: L[1]},
                tol=tol).fit(X[keep], y[keep])
        out[i] = m.decision_function(X[i:i + 1])[0]
    return out


def wahba_like(n, seed):
    """A wahba2001-shaped sample written out by hand (Wahba et al. 2001, §6), independent of
    svmviz.data: 40 % of class +1 from N((0, 0), I), the rest from N((2, 2), diag(2, 1))."""
    rng = np.random.default_rng(seed)
    n1 = int(round(0.4 * n))
    X = np.r_[rng.normal(size=(n1, 2)), rng.normal(size=(n - n1, 2)) * [np.sqrt(2), 1] + 2]
    y = np.r_[np.ones(n1), -np.ones(n - n1)]
    return X, y
