"""Slow, independent references for the ν-SVM path tests (tests/path/test_path.py). Never used by the package.

The ν-problem (Loosli & Canu 2006, Dual) with ``m`` the scaling (the full data's size, also for
leave-one-out refits)::

    min ½ α'Gα,  G_ij = y_i y_j K_ij / m,  Σ_{y_i=+1} α_i = Σ_{y_i=−1} α_i = λ/2,  0 ≤ α_i ≤ 1.

With ``s = Gα`` the optimality conditions are, per class c, one threshold t_c with
``s_i ≥ t_c`` where α_i = 0, ``s_i = t_c`` where 0 < α_i < 1, ``s_i ≤ t_c`` where α_i = 1 — i.e. the
interval ``[max_{α_i>0} s_i, min_{α_i<1} s_i]`` (over class c) is not empty, and every t_c in it is
optimal. ``t_± = ρ ∓ b``.
"""
from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg


def dual_objective(K, y, alpha, m):
    """½ α'Gα with G = YKY/m."""
    v = y * alpha
    return 0.5 * v @ K @ v / m


def threshold_intervals(K, y, alpha, m, delta=0.0):
    """Per class (+1, −1): the optimal threshold interval ``(lo, hi)`` = (max_{α>δ} s, min_{α<1−δ} s).

    ``delta`` > 0 for an interior-point solution whose bounded α are only near 0 or 1.
    """
    s = y * (K @ (y * alpha)) / m
    out = []
    for c in (1.0, -1.0):
        inc = y == c
        pos = inc & (alpha > delta)
        und = inc & (alpha < 1.0 - delta)
        lo = s[pos].max() if pos.any() else -np.inf
        hi = s[und].min() if und.any() else np.inf
        out.append((lo, hi))
    return out


def kkt_gap(K, y, alpha, m):
    """Largest per-class violation max_{α>0} s − min_{α<1} s (≤ 0 at an optimum): a certificate that
    depends on α alone."""
    return max(max(lo - hi, 0.0) if np.isfinite(lo) and np.isfinite(hi) else 0.0
               for lo, hi in threshold_intervals(K, y, alpha, m))


def feasibility_error(y, alpha, lam):
    """max(|Σ_{+} α − λ/2|, |Σ_{−} α − λ/2|, box violation)."""
    return max(abs(alpha[y > 0].sum() - lam / 2), abs(alpha[y < 0].sum() - lam / 2),
               max(0.0, -alpha.min()), max(0.0, alpha.max() - 1.0))


def nu_qp(K, y, lam, m, *, tol=1e-17, max_iter=300):
    """Solve the ν-problem by a primal–dual interior-point method (Mehrotra predictor–corrector).

    Dense Newton systems of size (n + 2); ``lam`` is clipped to 2·min(n₊, n₋) (a class that must
    carry all of its points is fixed at α = 1). Returns ``(alpha, t)``, t = (t₊, t₋) the multipliers
    of the class constraints (a point of the optimal interval when it is not a single point).
    """
    K = np.asarray(K, dtype=float)
    y = np.asarray(y, dtype=float)
    n = len(y)
    npos, nneg = int(np.sum(y > 0)), int(np.sum(y < 0))
    lam = min(lam, 2.0 * min(npos, nneg))
    half = lam / 2
    alpha = np.zeros(n)
    fixed = np.zeros(n, bool)
    for c, nc in ((1.0, npos), (-1.0, nneg)):
        if half >= nc * (1 - 1e-15):
            fixed |= y == c
    alpha[fixed] = 1.0
    Q = (y[:, None] * y[None, :]) * K  # unscaled: s = Qα/m
    free = ~fixed
    cls = [c for c in (1.0, -1.0) if np.any(free & (y == c))]
    t = np.zeros(2)
    if cls:
        idx = np.flatnonzero(free)
        nf = idx.size
        Qf = Q[np.ix_(idx, idx)]
        qf = Q[np.ix_(idx, np.flatnonzero(fixed))].sum(axis=1) if fixed.any() else np.zeros(nf)
        A = np.array([(y[idx] == c).astype(float) for c in cls])
        cvec = np.full(len(cls), half)
        x = np.empty(nf)
        for k, c in enumerate(cls):
            sel = y[idx] == c
            x[sel] = half / sel.sum()
        x = np.clip(x, 1e-3, 1 - 1e-3) if np.all(x < 1) else x
        x = np.where(x >= 1, 1 - 1e-3, x)
        v = 1.0 - x  # kept as its own variable: 1 − x would round to 0 for α within ε of 1
        z = np.ones(nf)
        w = np.ones(nf)
        mu_eq = np.zeros(len(cls))
        best = np.inf
        last_ok = None  # the latest iterate at the accuracy floor: a fallback if the next step breaks down

        def newton_matrix():
            # the predictor and the corrector share it: factored once per iteration
            D = Qf + np.diag(z / x + w / v)
            M = np.block([[D, -A.T], [A, np.zeros((len(cls), len(cls)))]])
            with warnings.catch_warnings():  # an exact zero pivot is raised below, as np.linalg.solve would
                warnings.simplefilter("ignore", scipy.linalg.LinAlgWarning)
                lu = scipy.linalg.lu_factor(M, check_finite=False)
            if not np.all(np.isfinite(lu[0])) or np.any(np.diag(lu[0]) == 0):
                raise np.linalg.LinAlgError("singular Newton matrix")
            return lu

        def newton(lu, rxz, rvw):
            rhs = -rd + rxz / x - rvw / v
            sol = scipy.linalg.lu_solve(lu, np.r_[rhs, -rp], check_finite=False)
            dx = sol[:nf]
            dmu = sol[nf:]
            dz = (rxz - z * dx) / x
            dw = (rvw + w * dx) / v
            return dx, dmu, dz, dw

        def step(val, dval):
            neg = dval < 0
            return min(1.0, np.min(-val[neg] / dval[neg])) if neg.any() else 1.0

        for it in range(max_iter):
            grad = Qf @ x + qf
            terms = (np.abs(Qf) @ np.abs(x) + np.abs(qf)).max() + np.abs(mu_eq).max()  # rounding size of rd
            # the size of s (∝ ρ): the gap is relative to it — but ρ = 0 (s ≡ 0, the reduced hulls
            # overlap, e.g. a linear kernel on overlapping classes at small λ) must end too
            scale = max(np.abs(grad).max(), 1e-4 * terms) + 1e-300
            rd = grad - A.T @ mu_eq - z + w
            rp = A @ x - cvec
            gap = (x @ z + v @ w) / (2 * nf)
            small_res = np.abs(rd).max() < 1e-13 * terms and np.abs(rp).max() < 1e-13 * max(1.0, half)
            if small_res and gap < tol * scale:
                break
            if (np.abs(rd).max() < 1e-9 * terms and np.abs(rp).max() < 1e-13 * max(1.0, half)
                    and gap < 1e-11 * scale):
                # accurate enough if the next steps break down (K nearly singular: the Newton systems
                # lose digits); any feasible α is a valid upper bound for the tests' comparisons
                last_ok = (x.copy(), mu_eq.copy())
            if small_res and gap < 1e-13 * scale:  # rounding floor: stop once no longer improving
                if gap > 0.5 * best:
                    break
                best = min(best, gap)
            try:
                with np.errstate(divide="raise", invalid="raise", over="raise"):
                    # predictor (affine scaling)
                    lu = newton_matrix()
                    dx, dmu, dz, dw = newton(lu, -x * z, -v * w)
                    ap = min(step(x, dx), step(v, -dx))
                    ad = min(step(z, dz), step(w, dw))
                    gap_aff = ((x + ap * dx) @ (z + ad * dz) + (v - ap * dx) @ (w + ad * dw)) / (2 * nf)
                    sigma = (gap_aff / gap) ** 3
                    # corrector
                    dx, dmu, dz, dw = newton(lu, sigma * gap - x * z - dx * dz, sigma * gap - v * w + dx * dw)
            except (np.linalg.LinAlgError, FloatingPointError):
                if last_ok is None:
                    raise RuntimeError("naive interior-point solve broke down") from None
                x, mu_eq = last_ok
                break
            ap = 0.995 * min(step(x, dx), step(v, -dx))
            ad = 0.995 * min(step(z, dz), step(w, dw))
            x = x + ap * dx
            v = v - ap * dx
            mu_eq = mu_eq + ad * dmu
            z = z + ad * dz
            w = w + ad * dw
        else:
            if last_ok is None:
                raise RuntimeError("naive interior-point solve did not converge")
            x, mu_eq = last_ok
        alpha[idx] = x
        for k, c in enumerate(cls):
            t[0 if c > 0 else 1] = mu_eq[k] / m
    s = y * (K @ (y * alpha)) / m
    for k, c in enumerate((1.0, -1.0)):
        if c not in cls:  # all at 1: the interval is [max s, ∞); report its finite end
            t[k] = s[y == c].max()
    return alpha, t


def midpoint_thresholds(K, y, alpha, m, delta):
    """libsvm's convention: the midpoint of each class's optimal threshold interval (its finite end
    when the interval is a half-line)."""
    t = np.empty(2)
    for k, (lo, hi) in enumerate(threshold_intervals(K, y, alpha, m, delta)):
        if np.isfinite(lo) and np.isfinite(hi):
            t[k] = 0.5 * (lo + hi)
        else:
            t[k] = lo if np.isfinite(lo) else hi
    return t


def brute_force_loo(K, y, lam, *, delta=1e-9, rho_zero=1e-12):
    """Leave-one-out by refitting every point (also those with α = 0) with :func:`nu_qp` on m − 1 points,
    same λ (clipped to the reduced set's 2·min(n₊, n₋)) and the same scaling G = YKY/m.

    Returns ``(yf, rho)``: ``yf_i`` = y_i (f^{[−i]}(x_i) + b^{[−i]}) and ``rho_i`` = ρ^{[−i]}, with the
    thresholds at the midpoints of their optimal intervals (libsvm's convention, also the package's).
    Where ρ^{[−i]} ≤ ``rho_zero``·max K_ii/m·max(λ, 1) the reduced hulls intersect, f^{[−i]} ≡ 0 and
    both are reported as 0 (the package's convention: ŷ_i = 0 counts as an error).
    """
    m = len(y)
    zero = rho_zero * np.diag(K).max() / m * max(lam, 1.0)
    yf = np.empty(m)
    rho = np.empty(m)
    for i in range(m):
        keep = np.arange(m) != i
        Kk, yk = K[np.ix_(keep, keep)], y[keep]
        a, _ = nu_qp(Kk, yk, lam, m)
        tp, tm = midpoint_thresholds(Kk, yk, a, m, delta)
        b = 0.5 * (tm - tp)
        rho[i] = 0.5 * (tp + tm)
        yf[i] = y[i] * (K[i, keep] @ (yk * a) / m + b)
        if abs(rho[i]) <= zero:
            yf[i] = rho[i] = 0.0
    return yf, rho


def loo_errors(yf, rho):
    """(LOO1, LOO2 in units of each ρ^{[−i]}, LOO2 raw) from leave-one-out values (002)."""
    loo1 = np.mean(yf <= 0)
    raw = np.maximum(0.0, rho - yf)
    loo2 = np.mean(np.where(rho > 0, raw / np.where(rho > 0, rho, 1.0), np.where(yf > 0, 0.0, 1.0)))
    return loo1, loo2, np.mean(raw)


def nusvc_reference(X, y, lam, *, max_iter=200_000, **svc_kw):
    """sklearn ``NuSVC(nu=λ/m, tol=1e-12)`` mapped to the path's scaling.

    libsvm solves the same dual with the same α (class sums λ/2, box 1) and reports
    ``dual_coef = α y / r``, ``intercept = −ρ_lib / r`` with r = mρ, ρ_lib = −m b. Σα = λ fixes r.
    Returns ``(converged, alpha, b, rho, clf)``; ``converged`` is False (and the rest None) also where
    libsvm's margin r is ≤ 0 (sklearn then raises "not finite", e.g. at ν = 1, every α = 1).
    """
    import warnings

    from sklearn.svm import NuSVC

    m = len(y)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the max_iter ConvergenceWarning: reported as converged=False
            clf = NuSVC(nu=lam / m, tol=1e-12, max_iter=max_iter, **svc_kw).fit(X, y)
    except ValueError:
        return False, None, None, None, None
    converged = int(clf.n_iter_[0]) < max_iter
    a = np.zeros(m)
    a[clf.support_] = np.abs(clf.dual_coef_[0])
    r = lam / a.sum()
    a *= r
    return converged, a, float(clf.intercept_[0]) * r / m, r / m, clf


def snap(alpha, delta=1e-9):
    """α with values within ``delta`` of 0 or 1 set to the bound (for an interior-point solution)."""
    return np.where(alpha < delta, 0.0, np.where(alpha > 1 - delta, 1.0, alpha))


# ------------------------------------------------------------------ the per-breakpoint quantities
def gram_s(K, y, alpha, m):
    """s = Gα with G_ij = y_i y_j K_ij / m, as a matrix product."""
    return y * (K @ (alpha * y)) / m


def class_thresholds(y, alpha, s):
    """(t₊, t₋) per class: the mean of s over its free points (0 < α < 1), else the smallest s over its
    points at α = 0; None when a class has neither (it is full)."""
    t = []
    for sign in (1.0, -1.0):
        mine = y == sign
        free, low = mine & (alpha > 0) & (alpha < 1), mine & (alpha <= 0)
        if free.any():
            t.append(s[free].mean())
        elif low.any():
            t.append(s[low].min())
        else:
            return None
    return np.array(t)


def gradient_and_qp_bounds(y, alpha, s, t, tied, tolg):
    """g = s − t_c and the bounds [lo, hi] on dα of the derivative QP: free where 0 < α < 1, dα ≥ 0 at
    α = 0 when g ≤ tolg or the point is tied, dα ≤ 0 at α = 1 when g ≥ −tolg or tied, else dα = 0."""
    g = s - np.where(y > 0, t[0], t[1])
    free = (alpha > 0) & (alpha < 1)
    up = (alpha <= 0) & ((g <= tolg) | tied)
    down = (alpha >= 1) & ((g >= -tolg) | tied) & ~up
    lo = np.where(free | down, -np.inf, 0.0)
    hi = np.where(free | up, np.inf, 0.0)
    return g, lo, hi


def kkt_violation(y, alpha, s, t):
    """max over points of −g at α = 0, g at α = 1, |g| for free points, and 0."""
    g = s - np.where(y > 0, t[0], t[1])
    e = np.where(alpha <= 0, -g, np.where(alpha >= 1, g, np.abs(g)))
    return max(0.0, float(e.max())) if e.size else 0.0


def bordered_matrix(K, y, members, m):
    """The KKT matrix of the working set ``members``: [[0, Eᵀ], [E, G_WW]] with E's rows (1, 0) for
    y = +1 and (0, 1) for y = −1, and G_WW = y_w y_w' K_ww' / m."""
    w = np.asarray(members, dtype=np.int64)
    M = np.zeros((w.size + 2, w.size + 2))
    E = np.column_stack([y[w] > 0, y[w] < 0]).astype(float)
    M[2:, :2], M[:2, 2:] = E, E.T
    M[2:, 2:] = np.outer(y[w], y[w]) * K[np.ix_(w, w)] / m
    return M


def direction_check(y, d, gd, dt, widx, gs, residual_rtol, sum_rtol):
    """Whether the direction d = dα/dλ solves its system: G d = dt_c on the working set ``widx`` (max
    residual within ``residual_rtol · gs · max(1, max |d|)``) and each class's Σ d = ½ (within
    ``sum_rtol · max(1, max |d|)``). Returns (ok, max |d|, (Σ₊ d − ½, Σ₋ d − ½))."""
    dnorm = float(np.abs(d).max()) if d.size else 0.0
    sums = (float(np.sum(d[y > 0])) - 0.5, float(np.sum(d[y < 0])) - 0.5)
    w = np.asarray(widx)
    res = float(np.abs(gd[w] - np.where(y[w] > 0, dt[0], dt[1])).max()) if w.size else 0.0
    scale = max(1.0, dnorm)
    ok = res <= residual_rtol * gs * scale and all(abs(c) <= sum_rtol * scale for c in sums)
    return ok, dnorm, sums


def dependent_count(y, alpha, d, gd, dt, lo, hi, pos, threshold):
    """How many free points (0 < α < 1) outside the working set (pos < 0), with room to move (lo < hi)
    and d = 0, have |g's slope − dt_c| above ``threshold``."""
    slope = gd - np.where(y > 0, dt[0], dt[1])
    return int(np.sum((pos < 0) & (lo < hi) & (d == 0.0) & (alpha > 0) & (alpha < 1) & (np.abs(slope) > threshold)))


def most_violating(y, x, grad, lo, hi, pos, skip, mu, tol_price):
    """The active-set QP's pricing: among the variables outside W (pos < 0), not skipped, with room to
    move (lo < hi), the first of those whose violation of its optimality condition (r = grad + μ_c:
    −r at lo, r at hi, |r| inside) is largest and above ``tol_price``; −1 if none."""
    r = grad + np.where(y > 0, mu[0], mu[1])
    v = np.where(x <= lo, -r, np.where(x >= hi, r, np.abs(r)))
    v = np.where((pos < 0) & ~skip & (lo < hi), v, -np.inf)
    if v.size == 0 or not v.max() > tol_price:
        return -1
    return int(np.argmax(v))


def hitting_times(y, x, gd, dt, g, lo, hi, pos, epsg, skip):
    """The step at which each bound point's g = s − t_c reaches 0 on the line g + h·(gd − dt_c):
    g/(−slope) at α = 0 with slope below −epsg, −g/slope at α = 1 with slope above epsg (g on the
    wrong side of 0 counting as 0); ``inf`` for members of W (pos ≥ 0), points the derivative QP lets
    move (lo < hi), the point ``skip`` and every other point."""
    slope = gd - np.where(y > 0, dt[0], dt[1])
    out = np.full(y.size, np.inf)
    bound = (pos < 0) & ~(lo < hi) & (np.arange(y.size) != skip)
    with np.errstate(divide="ignore", invalid="ignore"):
        at0 = bound & (x <= 0) & (slope < -epsg)
        at1 = bound & (x >= 1) & (slope > epsg) & ~at0
        out[at0] = np.maximum(g[at0], 0.0) / -slope[at0]
        out[at1] = np.maximum(-g[at1], 0.0) / slope[at1]
    return out


def free_scan(y, x, s, t):
    """Per class (+, −): whether it has a free point (0 < α < 1), the largest |s_i − t_c| over the free
    points (0 without any), the sum of α, and the free point with the most room up (1 − α) and down
    (α), the first in index order among equals (−1 without a free point)."""
    free = (x > 0) & (x < 1)
    out = {"drift": float(np.max(np.abs(s - np.where(y > 0, t[0], t[1]))[free], initial=0.0))}
    for c, sgn in ((0, 1.0), (1, -1.0)):
        fc = free & (y == sgn)
        idx = np.flatnonzero(fc)
        out[f"free{c}"] = bool(fc.any())
        out[f"sum{c}"] = float(np.sum(x[y == sgn]))
        out[f"up{c}"] = int(idx[np.argmax(1.0 - x[idx])]) if idx.size else -1
        out[f"down{c}"] = int(idx[np.argmax(x[idx])]) if idx.size else -1
    return out
