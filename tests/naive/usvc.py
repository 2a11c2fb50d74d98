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


def wls_system_naive(X, G, y, a):
    """The weighted least-squares system of one IRWLS step (Navia-Vázquez et al. 2004, eqs. 20 and 25)
    written out: M = [Φ, 1]' D_a [Φ, 1] + diag(G, 0), r = [Φ, 1]' D_a y."""
    X = np.asarray(X, float)
    A = np.hstack([X, np.ones((X.shape[0], 1))])
    M = A.T @ (np.asarray(a, float)[:, None] * A)
    p = X.shape[1]
    M[:p, :p] += G
    return M, A.T @ (a * y)


def finish_objective_naive(X, y, G, bound, cap, beta, b):
    """½β'Gβ + Σ_i C_i H_i(ξ_i), H_i the capped IRWLS loss: 0 for ξ ≤ 0, a_i ξ²/(2C_i) up to
    ξ = C_i/a_i, ξ − C_i/(2a_i) beyond (points with a_i = 0 drop out)."""
    tot = 0.5 * float(beta @ G @ beta)
    for i in range(X.shape[0]):
        if cap[i] == 0.0:
            continue
        xi = 1.0 - y[i] * (float(X[i] @ beta) + b)
        u = bound[i] / cap[i]
        if xi > 0.0:
            tot += 0.5 * cap[i] * xi * xi if xi < u else bound[i] * (xi - 0.5 * u)
    return tot


def line_slope_naive(X, y, G, bound, cap, beta, b, dbeta, db, t):
    """The derivative in t of :func:`finish_objective_naive` at (β, b) + t (dβ, db), and the size its
    rounding scales with: the magnitudes of its terms, and for a slack in the band (0, C_i/a_i) the
    rounding of ξ_i = 1 − y_i f_i, eps·(1 + |f_i|), times a_i|dξ_i| (also at the band's edges, within
    that rounding)."""
    bt, bb = beta + t * dbeta, b + t * db
    val = float(bt @ G @ dbeta)
    size = float(np.linalg.norm(bt) * np.linalg.norm(G @ dbeta))
    for i in range(X.shape[0]):
        if cap[i] == 0.0:
            continue
        xi = 1.0 - y[i] * (float(X[i] @ bt) + bb)
        dxi = -y[i] * (float(X[i] @ dbeta) + db)
        val += dxi * min(max(cap[i] * xi, 0.0), bound[i])
        size += abs(dxi) * bound[i]
        f_size = 1.0 + abs(float(X[i] @ bt) + bb)
        if -1e-12 * f_size <= xi <= bound[i] / cap[i] + 1e-12 * f_size:  # in the band or at its edges
            size += cap[i] * abs(dxi) * f_size
    return val, size


def line_min_naive(X, y, G, bound, cap, beta, b, dbeta, db):
    """argmin over t ≥ 0 of :func:`finish_objective_naive` along (β, b) + t (dβ, db): its derivative
    g(t) is continuous, piecewise linear and non-decreasing; evaluated at every kink, the zero is
    interpolated linearly in the piece where g changes sign (or beyond the last kink)."""
    def g(t):
        return line_slope_naive(X, y, G, bound, cap, beta, b, dbeta, db, t)[0]

    ts = [0.0]
    for i in range(X.shape[0]):
        if cap[i] == 0.0:
            continue
        xi = 1.0 - y[i] * (float(X[i] @ beta) + b)
        dxi = -y[i] * (float(X[i] @ dbeta) + db)
        if dxi != 0.0:
            ts += [t for t in ((0.0 - xi) / dxi, (bound[i] / cap[i] - xi) / dxi) if t > 0.0]
    ts = sorted(ts)
    gs = [g(t) for t in ts]
    if gs[0] >= 0.0:
        return 0.0
    for q in range(1, len(ts)):
        if gs[q] >= 0.0:
            return ts[q - 1] - gs[q - 1] * (ts[q] - ts[q - 1]) / (gs[q] - gs[q - 1])
    t_last, t_far = ts[-1], ts[-1] + 1.0
    slope = g(t_far) - gs[-1]
    return t_last - gs[-1] / slope if slope > 0.0 else t_last


def box_qp_by_faces_naive(H, c, y, B, total):
    """argmin ½α'Hα + c'α over 0 ≤ α ≤ B with Σ α_i y_i = ``total`` (H positive definite), by
    enumerating every face: each of the 3^m assignments of the multipliers to 0, B or free, the
    equality-constrained minimiser of the free ones, kept when it lies in the box; the smallest
    objective among those is the minimiser. Small m only."""
    import itertools

    m = len(y)
    best, best_val = None, np.inf
    for assign in itertools.product((0, 1, 2), repeat=m):
        a = np.array([B[i] if s == 1 else 0.0 for i, s in enumerate(assign)])
        F = [i for i, s in enumerate(assign) if s == 2]
        rest = total - float(y @ a)
        if F:
            k = len(F)
            K = np.zeros((k + 1, k + 1))
            K[:k, :k] = H[np.ix_(F, F)]
            K[:k, k] = y[F]
            K[k, :k] = y[F]
            fixed = [i for i in range(m) if i not in F]
            r = np.r_[-(c[F] + H[np.ix_(F, fixed)] @ a[fixed]), rest]
            sol = np.linalg.solve(K, r)
            a[F] = sol[:k]
            if np.any(a[F] < -1e-12 * B[F]) or np.any(a[F] > B[F] * (1 + 1e-12)):
                continue
        elif abs(rest) > 1e-12 * max(1.0, np.abs(B).sum()):
            continue
        val = 0.5 * a @ H @ a + c @ a
        if val < best_val:
            best, best_val = a, val
    return best, best_val


def fscl_naive(X, R, n_epochs, lr0, lr1, seed):
    """Frequency Sensitive Competitive Learning (Ahalt et al. 1990) written out point by point: the winner
    j = argmin_r u_r ‖x − c_r‖² (first of ties) moves by η (x − c_j), u_j += 1, η decays geometrically from
    lr0 to lr1; the starts and visiting orders from NumPy's legacy generator seeded with ``seed``. Each
    distance is summed over the coordinates in order. Returns (prototypes (R, d), wins of the last epoch)."""
    np.random.seed(seed)
    n, d = X.shape
    c = X[np.random.permutation(n)[:R]].astype(float)
    u = np.ones(R)
    wins = np.zeros(R, dtype=int)
    total, step = n_epochs * n, 0
    for ep in range(n_epochs):
        for i in np.random.permutation(n):
            eta = lr0 * (lr1 / lr0) ** (step / max(1, total - 1))
            step += 1
            dist = np.zeros(R)
            for q in range(d):
                dist += (X[i, q] - c[:, q]) ** 2
            j = int(np.argmin(u * dist))
            c[j] += eta * (X[i] - c[j])
            u[j] += 1.0
            if ep == n_epochs - 1:
                wins[j] += 1
    return c, wins
