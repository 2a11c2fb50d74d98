"""Slow, plain-Python/NumPy references for tests/usvc/test_usvc.py — written from the formulas of
Navia-Vázquez et al. 2004, independently of svmviz/usvc/_irwls.py."""
from __future__ import annotations

import math

import numpy as np


def theta_naive(xi: float, s: float, k: float) -> float:
    """θ̃_s(ξ) (Navia-Vázquez et al. 2004, eq. 6), scalar, ξ clipped at 0."""
    xi = max(float(xi), 0.0)
    kap = k ** (1.0 / s)
    if xi < 1.0:
        return (xi + kap) ** s / (2.0 * (1.0 + kap) ** s)
    return 1.0 - (1.0 + kap) ** s / (2.0 * (xi + kap) ** s)


def primal_naive(X, y, w, b, C, loss="hinge", s=2.0, k=1e-4) -> float:
    """½‖w‖² + C Σ θ((1 − y_i(w'x_i + b))_+), loops."""
    X = np.asarray(X, float)
    tot = 0.0
    for i in range(X.shape[0]):
        f = sum(w[j] * X[i, j] for j in range(X.shape[1])) + b
        xi = max(0.0, 1.0 - y[i] * f)
        tot += xi if loss == "hinge" else theta_naive(xi, s, k)
    return 0.5 * sum(v * v for v in w) + C * tot


def primal_grid_naive(x, y, th, w, C, loss="hinge", s=2.0, k=1e-4):
    out = np.empty((len(w), len(th)))
    for i, wv in enumerate(w):
        for j, t in enumerate(th):
            out[i, j] = primal_naive(np.asarray(x, float).reshape(-1, 1), y, [wv], -wv * t, C, loss, s, k)
    return out


def primal_grid_vectorised(x, y, th, w, C, loss="hinge", s=2.0, k=1e-4):
    """The same grid as :func:`primal_grid_naive`, by NumPy broadcasting (for dense grids)."""
    x = np.asarray(x, float).ravel()
    xi = np.maximum(0.0, 1.0 - y[None, None, :] * np.asarray(w)[:, None, None]
                    * (x[None, None, :] - np.asarray(th)[None, :, None]))
    if loss == "hinge":
        th_v = xi
    else:
        kap = k ** (1.0 / s)
        with np.errstate(over="ignore"):
            th_v = np.where(xi < 1.0, (xi + kap) ** s / (2.0 * (1.0 + kap) ** s),
                            1.0 - (1.0 + kap) ** s / (2.0 * (xi + kap) ** s))
    return 0.5 * np.asarray(w)[:, None] ** 2 + C * th_v.sum(axis=2)


def ridge_ls(X, y):
    """Regularised LS with a_i = 1: min ½‖w‖² + ½ Σ (y_i − w'x_i − b)², by normal equations built
    from an augmented design (b unpenalised)."""
    X = np.asarray(X, float)
    n, d = X.shape
    Z = np.hstack([X, np.ones((n, 1))])
    P = np.eye(d + 1)
    P[d, d] = 0.0
    sol = np.linalg.solve(Z.T @ Z + P, Z.T @ y)
    return sol[:d], sol[d]


def irwls_naive(X, y, C, n_steps, *, loss="hinge", s=2.0, k=1e-4, a_max=1e8, damping=0.2,
                start=None):
    """n_steps damped IRWLS iterations in plain NumPy (Navia-Vázquez et al. 2004, 20–22 with a_i = α_i/ξ_i); returns the
    list of (w, b) iterates including the start (LS if ``start`` is None)."""
    X = np.asarray(X, float)
    n, d = X.shape
    if start is None:
        w, b = ridge_ls(X, y)
    else:
        w, b = np.array(start[0], float), float(start[1])
    out = [(w.copy(), b)]
    kap = k ** (1.0 / s)
    for _ in range(n_steps):
        xi = 1.0 - y * (X @ w + b)
        a = np.zeros(n)
        for i in range(n):
            if xi[i] < 0:
                continue
            if loss == "hinge":
                dth = 1.0
            elif xi[i] < 1:
                dth = s * (xi[i] + kap) ** (s - 1) / (2 * (1 + kap) ** s)
            else:
                dth = s * (1 + kap) ** s / (2 * (xi[i] + kap) ** (s + 1))
            alpha = C * dth
            a[i] = a_max if xi[i] * a_max <= alpha else alpha / xi[i]
        # minimise ½‖w‖² + ½ Σ a_i (y_i − w'x_i − b)² directly (weighted ridge, b free)
        Z = np.hstack([X, np.ones((n, 1))])
        P = np.eye(d + 1)
        P[d, d] = 0.0
        sol = np.linalg.solve(Z.T @ (a[:, None] * Z) + P, Z.T @ (a * y))
        w = damping * w + (1 - damping) * sol[:d]
        b = damping * b + (1 - damping) * sol[d]
        out.append((w.copy(), b))
    return out


def rbf_decision_naive(X, centres, beta, b, sigma):
    """Σ_r β_r exp(−‖c_r − x‖²/(2σ²)) + b, loops (Navia-Vázquez et al. 2004, eq. 27)."""
    out = np.empty(len(X))
    for i, x in enumerate(np.asarray(X, float)):
        t = b
        for r, c in enumerate(np.asarray(centres, float)):
            d2 = sum((x[q] - c[q]) ** 2 for q in range(len(x)))
            t += beta[r] * math.exp(-d2 / (2 * sigma * sigma))
        out[i] = t
    return out


def empirical_ce_naive(x, y, th):
    return np.array([np.mean([1.0 if yi * (xi - t) <= 0 else 0.0 for xi, yi in zip(x, y)]) for t in th])
