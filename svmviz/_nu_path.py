"""Private numba kernels: the ν-SVM regularization path and leave-one-out refits along it.

Problem (Loosli & Canu 2006, "Dual"; SPEC §4), with ``m`` points::

    min_α ½ α'Gα   s.t.  α'1 = λ,  α'y = 0,  0 ≤ α_i ≤ 1,     G_ij = y_i y_j k(x_i, x_j) / m.

Both equality constraints together say that each class carries half of λ: Σ_{y_i = c} α_i = λ/2.
Writing ``s = Gα`` (so ``s_i = y_i f(x_i)``), the KKT conditions are, with one threshold per class
``t_+ = ρ − b`` and ``t_− = ρ + b``::

    g_i = s_i − t_{y_i} = y_i (f(x_i) + b) − ρ,   g_i ≥ 0 on R (α=0), = 0 on E (0<α<1), ≤ 0 on L (α=1).

Path following (Loosli & Canu 2006, Summary). At a breakpoint the solution α(λ) is known. Its right derivative
``d = dα/dλ`` solves the *derivative QP*

    min ½ d'Gd   s.t. Σ_{y_i=c} d_i = ½ (each class),  d_i free on E,
                      d_i ≥ 0 for "tied" points with α_i = 0, g_i = 0,
                      d_i ≤ 0 for tied points with α_i = 1, g_i = 0,   d_i = 0 for all others,

whose multipliers are ``dt_c = dt_c/dλ``. In the generic case (one point enters or leaves E) this is
the linear system ``[[G_E, y_E, −1], [y_E', 0, 0], [1', 0, 0]] η = (0, 0, 1)`` of the seed (Loosli & Canu 2006, "Linear
system to solve"); solving it as a QP over the tied points is what keeps the path exact when several
points reach an event at once (ties, duplicated points) — the point the seed warns about ("if a point
is missed, the path is left"). The QP is solved by a primal active-set method — the Simple-ν-SVM
step of the seed — on an incrementally updated inverse of the bordered KKT matrix
``M = [[0, C'], [C, G_WW]]`` (``C`` = class indicators of the working set W).

Singular KKT systems. A point whose column is linearly dependent on the working set (exact or
numerically exact duplicates; more margin points than a linear kernel's rank) cannot enter W: its
Schur complement is ~0. Such a point is provably not needed — the solution restricted to W reaches
the same G·d, hence the same decision function and the same ``dt`` — and it stays "tied" (g = 0)
until the points it depends on leave W. So α is not unique there (it never is for duplicates) but
f, b, ρ are exact. When a class has no point strictly inside the box the thresholds are not unique
(b and ρ jump); the path takes the end of the optimal interval that lets the class continue
(``t_c = min_{α_i=0, y_i=c} s_i``) and records the jump as two breakpoints at the same λ.

Path lost. At every breakpoint the KKT conditions are checked on ``s = Gα``; a violation beyond
the tolerance triggers a correction (a Simple-ν-SVM solve at the current λ, warm-started from the
current groups); if that fails too the kernel stops and returns ``STATUS_LOST``.

Everything takes arrays and scalars only and returns status codes.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

STATUS_OK = 0
STATUS_MAX_BREAKPOINTS = 1
STATUS_LOST = 2

QP_OK = 0
QP_MAX_ITER = 1
QP_NUMERICAL = 2

LOST_REASONS = {
    1: "a class has no point that can enter the margin",
    2: "the KKT matrix of the working set could not be rebuilt",
    3: "the active-set direction solve did not converge",
    4: "the direction's residual stayed large after a refactorization",
    5: "no progress in λ (degenerate cycling)",
    6: "the Simple-ν-SVM correction could not restore the KKT conditions",
}

DEP_TOL = 1e-11
DEP_TOL_RETRY = 1e-8  # after a breakdown of the direction solve: nearly dependent counts as dependent


# ----------------------------------------------------------------------------------------------
# Bordered KKT inverse: ordering [constraint +, constraint −, W members in widx order]
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _minv_add(K, y, inv_m, Minv, widx, pos, nw, j, dep_tol=DEP_TOL):
    """Border the inverse with point ``j``. Returns (ok, new nw); ok False if j is dependent (its
    Schur complement below ``dep_tol`` times its diagonal)."""
    p = nw + 2
    v = np.empty(p)
    if y[j] > 0:
        v[0] = 1.0
        v[1] = 0.0
    else:
        v[0] = 0.0
        v[1] = 1.0
    for k in range(nw):
        w = widx[k]
        v[2 + k] = y[w] * y[j] * K[w, j] * inv_m
    delta = K[j, j] * inv_m
    u = np.empty(p)
    for a in range(p):
        acc = 0.0
        for b in range(p):
            acc += Minv[a, b] * v[b]
        u[a] = acc
    sig = delta
    for a in range(p):
        sig -= v[a] * u[a]
    if not (abs(sig) > dep_tol * delta):
        return False, nw
    inv = 1.0 / sig
    for a in range(p):
        ua = u[a] * inv
        for b in range(p):
            Minv[a, b] += ua * u[b]
        Minv[a, p] = -ua
        Minv[p, a] = -ua
    Minv[p, p] = inv
    widx[nw] = j
    pos[j] = nw
    return True, nw + 1


@njit(cache=True)
def _minv_remove(Minv, widx, pos, nw, j):
    """Remove point ``j`` from W. Returns (ok, new nw)."""
    k = pos[j]
    p = nw + 2
    a = 2 + k
    last = p - 1
    if a != last:
        for r in range(p):
            tmp = Minv[r, a]
            Minv[r, a] = Minv[r, last]
            Minv[r, last] = tmp
        for c in range(p):
            tmp = Minv[a, c]
            Minv[a, c] = Minv[last, c]
            Minv[last, c] = tmp
        moved = widx[nw - 1]
        widx[k] = moved
        pos[moved] = k
    d = Minv[last, last]
    if not (abs(d) > 1e-300):
        return False, nw
    for r in range(last):
        f = Minv[r, last] / d
        if f != 0.0:
            for c in range(last):
                Minv[r, c] -= f * Minv[last, c]
    pos[j] = -1
    return True, nw - 1


@njit(cache=True)
def _minv_build(K, y, inv_m, Minv, widx, pos, nw, members, nmem, dep_tol=DEP_TOL):
    """Rebuild W and its inverse from ``members[:nmem]`` (must hold both classes).

    Dependent members are left out. Returns (ok, nw).
    """
    for k in range(nw):
        pos[widx[k]] = -1
    a = -1
    b = -1
    for q in range(nmem):
        j = members[q]
        if y[j] > 0 and a < 0:
            a = j
        if y[j] < 0 and b < 0:
            b = j
    if a < 0 or b < 0:
        return False, 0
    M = np.zeros((4, 4))
    M[0, 2] = 1.0
    M[2, 0] = 1.0
    M[1, 3] = 1.0
    M[3, 1] = 1.0
    M[2, 2] = K[a, a] * inv_m
    M[3, 3] = K[b, b] * inv_m
    M[2, 3] = -K[a, b] * inv_m
    M[3, 2] = -K[a, b] * inv_m
    # closed-form inverse of [[0, I], [I, H]] is [[-H, I], [I, 0]]
    for r in range(4):
        for c in range(4):
            Minv[r, c] = 0.0
    Minv[0, 0] = -M[2, 2]
    Minv[0, 1] = -M[2, 3]
    Minv[1, 0] = -M[3, 2]
    Minv[1, 1] = -M[3, 3]
    Minv[0, 2] = 1.0
    Minv[1, 3] = 1.0
    Minv[2, 0] = 1.0
    Minv[3, 1] = 1.0
    widx[0] = a
    widx[1] = b
    pos[a] = 0
    pos[b] = 1
    nw = 2
    for q in range(nmem):
        j = members[q]
        if j == a or j == b or pos[j] >= 0:
            continue
        ok, nw = _minv_add(K, y, inv_m, Minv, widx, pos, nw, j, dep_tol)
    return True, nw


@njit(cache=True)
def _minv_refresh(K, y, inv_m, Minv, widx, nw):
    """Recompute the inverse of the current bordered matrix by LU (removes accumulated error)."""
    p = nw + 2
    M = np.zeros((p, p))
    for k in range(nw):
        i = widx[k]
        c = 0 if y[i] > 0 else 1
        M[c, 2 + k] = 1.0
        M[2 + k, c] = 1.0
        for q in range(nw):
            j = widx[q]
            M[2 + k, 2 + q] = y[i] * y[j] * K[i, j] * inv_m
    try:
        Mi = np.linalg.inv(M)
    except Exception:  # exactly singular in floating point: keep the updated inverse
        return False
    for a in range(p):
        for b in range(p):
            Minv[a, b] = Mi[a, b]
    return True


@njit(cache=True)
def _add_column(K, y, inv_m, grad, j, coef):
    """grad += coef · G[:, j]."""
    c = coef * y[j] * inv_m
    if c == 0.0:
        return
    for r in range(grad.shape[0]):
        grad[r] += c * y[r] * K[j, r]


# ----------------------------------------------------------------------------------------------
# Primal active-set QP (Simple-ν-SVM step)
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _asqp(K, y, inv_m, x, grad, lo, hi, Minv, widx, pos, nw, tol_price, max_iter, max_refine=4):
    """min ½ x'Gx s.t. per-class sums fixed (at their current values), lo ≤ x ≤ hi.

    Each working-set solve is refined against the true matrix (up to ``max_refine`` corrections;
    0: none — the leave-one-out homotopy, whose result is checked against the KKT conditions anyway).

    ``x`` must be feasible, every variable outside W at one of its bounds, ``grad = Gx``, and W must
    hold at least one point of each class. Modifies x, grad, Minv, widx, pos in place.
    Returns (status, nw, mu_plus, mu_minus, iterations); at the optimum ``grad_i + mu_{c(i)} = 0``
    on W, so the class thresholds are ``t_c = −mu_c``.
    """
    n = x.shape[0]
    skip = np.zeros(n, np.bool_)
    cnt = np.zeros(2, np.int64)
    for k in range(nw):
        if y[widx[k]] > 0:
            cnt[0] += 1
        else:
            cnt[1] += 1
    mu0 = 0.0
    mu1 = 0.0
    it = 0
    refreshed = False
    last_added = -1
    sol = np.empty(n + 2)
    solb = np.empty(n + 2)
    resid = np.empty(n + 2)
    z = np.empty(n)
    while it < max_iter:
        it += 1
        p = nw + 2
        for a in range(p):
            acc = 0.0
            for k in range(nw):
                acc -= Minv[a, 2 + k] * grad[widx[k]]
            sol[a] = acc
        # iterative refinement against the true bordered matrix (K may be nearly singular): up to
        # four corrections, stopping at the rounding level of the residual's terms, and keeping the
        # best iterate should a correction make things worse (an inaccurate inverse can diverge)
        best_err = np.inf
        for ipass in range(max_refine + 1 if max_refine > 0 else 0):
            rmax = 0.0
            scl = 0.0
            for k in range(nw):
                i = widx[k]
                acc = -grad[i] - (sol[0] if y[i] > 0 else sol[1])
                tsum = abs(grad[i]) + abs(sol[0] if y[i] > 0 else sol[1])
                for q in range(nw):
                    j = widx[q]
                    v = y[i] * y[j] * K[i, j] * inv_m * sol[2 + q]
                    acc -= v
                    tsum += abs(v)
                resid[2 + k] = acc
                rmax = max(rmax, abs(acc))
                scl = max(scl, tsum)
            resid[0] = 0.0
            resid[1] = 0.0
            cmax = 0.0
            for k in range(nw):
                cmax = max(cmax, abs(sol[2 + k]))
                if y[widx[k]] > 0:
                    resid[0] -= sol[2 + k]
                else:
                    resid[1] -= sol[2 + k]
            err = max(rmax / max(scl, 1e-300), (abs(resid[0]) + abs(resid[1])) / max(cmax, 1e-300))
            if err < best_err:
                best_err = err
                for a in range(p):
                    solb[a] = sol[a]
            else:
                for a in range(p):
                    sol[a] = solb[a]
                break
            if err <= 1e-14 or ipass == max_refine:
                break
            for a in range(p):
                acc = 0.0
                for b in range(p):
                    acc += Minv[a, b] * resid[b]
                sol[a] += acc
        dmax = 0.0
        cs0 = 0.0
        cs1 = 0.0
        for k in range(nw):
            if abs(sol[2 + k]) > dmax:
                dmax = abs(sol[2 + k])
            if y[widx[k]] > 0:
                cs0 += sol[2 + k]
            else:
                cs1 += sol[2 + k]
        if abs(cs0) > 1e-9 * max(dmax, 1.0) or abs(cs1) > 1e-9 * max(dmax, 1.0):
            if refreshed:
                return QP_NUMERICAL, nw, mu0, mu1, it
            _minv_refresh(K, y, inv_m, Minv, widx, nw)
            refreshed = True
            it -= 1
            continue
        refreshed = False
        mu0 = sol[0]
        mu1 = sol[1]
        tiny = 1e-14 * dmax
        tau = 1.0
        blk = -1
        blk_to = 0.0
        for k in range(nw):
            i = widx[k]
            if cnt[0 if y[i] > 0 else 1] <= 1:
                continue
            dk = sol[2 + k]
            if dk < -tiny and lo[i] > -np.inf:
                tk = (lo[i] - x[i]) / dk
                if tk < tau:
                    tau = max(tk, 0.0)
                    blk = i
                    blk_to = lo[i]
            elif dk > tiny and hi[i] < np.inf:
                tk = (hi[i] - x[i]) / dk
                if tk < tau:
                    tau = max(tk, 0.0)
                    blk = i
                    blk_to = hi[i]
        if tau > 0.0 and dmax > 0.0:
            for r in range(n):
                z[r] = 0.0
            for k in range(nw):
                w = widx[k]
                dk = tau * sol[2 + k]
                if dk == 0.0:
                    continue
                x[w] += dk
                c = dk * y[w] * inv_m
                for r in range(n):
                    z[r] += c * K[w, r]
            for r in range(n):
                grad[r] += y[r] * z[r]
        if blk >= 0:
            if blk == last_added and tau == 0.0:
                skip[blk] = True  # entered on noise and cannot move: do not cycle on it
            grad_fix = blk_to - x[blk]
            x[blk] = blk_to
            _add_column(K, y, inv_m, grad, blk, grad_fix)
            ok, nw = _minv_remove(Minv, widx, pos, nw, blk)
            if not ok:
                return QP_NUMERICAL, nw, mu0, mu1, it
            cnt[0 if y[blk] > 0 else 1] -= 1
            continue
        # pricing: the most violating variable outside W enters
        best = -1
        bestv = tol_price
        for j in range(n):
            if pos[j] >= 0 or skip[j] or not (lo[j] < hi[j]):
                continue
            r = grad[j] + (mu0 if y[j] > 0 else mu1)
            if x[j] <= lo[j]:
                v = -r
            elif x[j] >= hi[j]:
                v = r
            else:
                v = abs(r)
            if v > bestv:
                bestv = v
                best = j
        if best < 0:
            return QP_OK, nw, mu0, mu1, it
        ok, nw = _minv_add(K, y, inv_m, Minv, widx, pos, nw, best)
        last_added = best
        if ok:
            cnt[0 if y[best] > 0 else 1] += 1
        else:
            skip[best] = True
    return QP_MAX_ITER, nw, mu0, mu1, it


@njit(cache=True)
def _qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi):
    """g = s − t_c and the bounds of the derivative QP: free on E, d ≥ 0 for tied α = 0 points,
    d ≤ 0 for tied α = 1 points, d = 0 for the rest."""
    for i in range(alpha.shape[0]):
        g[i] = s[i] - (t[0] if y[i] > 0 else t[1])
        a = alpha[i]
        if a > 0.0 and a < 1.0:
            lo[i] = -np.inf
            hi[i] = np.inf
        elif a <= 0.0 and (g[i] <= tolg or tied[i]):
            lo[i] = 0.0
            hi[i] = np.inf
        elif a >= 1.0 and (g[i] >= -tolg or tied[i]):
            lo[i] = -np.inf
            hi[i] = 0.0
        else:
            lo[i] = 0.0
            hi[i] = 0.0


@njit(cache=True)
def _snap_lambda(y, x, lam):
    """A class without free points carries exactly (number of its α = 1) = λ/2: λ is then an even
    integer, which the accumulated steps only approximate. Snap it (within 1e-9 relative)."""
    n = x.shape[0]
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        free = False
        cnt = 0
        for i in range(n):
            if y[i] == sgn:
                if x[i] > 0.0 and x[i] < 1.0:
                    free = True
                    break
                if x[i] >= 1.0:
                    cnt += 1
        if not free and abs(lam - 2.0 * cnt) <= 1e-9 * max(1.0, lam):
            return 2.0 * cnt
    return lam


@njit(cache=True)
def _fix_class_sums(K, y, inv_m, x, s, half):
    """Put each class sum back to ``half`` exactly: snapping points to a bound at a common step
    (within the event tolerance, times a possibly large |dα/dλ|) moves the sums by up to ~1e-9. The
    difference goes to the free point of the class with the most room; ``s`` follows."""
    n = x.shape[0]
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        acc = 0.0
        for i in range(n):
            if y[i] == sgn:
                acc += x[i]
        delta = half - acc
        if delta == 0.0 or abs(delta) > 1e-6 * max(1.0, half):
            continue
        best = -1
        room = 0.0
        for i in range(n):
            if y[i] == sgn and x[i] > 0.0 and x[i] < 1.0:
                r = 1.0 - x[i] if delta > 0.0 else x[i]
                if r > room:
                    room = r
                    best = i
        if best >= 0 and room > abs(delta):
            x[best] += delta
            _add_column(K, y, inv_m, s, best, delta)


@njit(cache=True)
def _settle(K, y, inv_m, alpha, s, t, Minv, widx, pos, nw, scale, tol, box_lo, box_hi, max_iter):
    """After a step: if g has drifted off 0 on E (beyond 1e-12·scale), re-solve the ν-problem at the
    current λ by the Simple-ν-SVM active set, warm-started (its first iteration is a Newton
    correction of α on E; it also handles a point that the correction pushes across its bound).
    Returns (nw, 1 if corrected else 0).

    Drift comes from points that joined E with a tiny g ≠ 0 (ties are detected to a tolerance)
    and from the residuals of directions on a nearly singular G_EE (ρ ≈ 0: data almost separable
    in feature space); correcting before the breakpoint is recorded keeps every recorded α at the
    accuracy of a fresh solve.
    """
    n = alpha.shape[0]
    has0 = False
    has1 = False
    drift = 0.0
    for i in range(n):
        if alpha[i] > 0.0 and alpha[i] < 1.0:
            if y[i] > 0:
                has0 = True
            else:
                has1 = True
            drift = max(drift, abs(s[i] - (t[0] if y[i] > 0 else t[1])))
    if not (has0 and has1) or drift <= 1e-12 * scale:
        return nw, 0
    # W = the free points: members that reached a bound leave (the active set re-adds what it needs)
    k = 0
    while k < nw:
        i = widx[k]
        if not (alpha[i] > 0.0 and alpha[i] < 1.0):
            ok, nw = _minv_remove(Minv, widx, pos, nw, i)
            if not ok:
                return nw, 0
        else:
            k += 1
    c0 = False
    c1 = False
    for k in range(nw):
        if y[widx[k]] > 0:
            c0 = True
        else:
            c1 = True
    if not (c0 and c1):
        return nw, 0
    _exact_s(K, y, inv_m, alpha, s)
    st, nw, mu0, mu1, it = _asqp(K, y, inv_m, alpha, s, box_lo, box_hi, Minv, widx, pos, nw,
                                 0.1 * tol * scale, max_iter)
    _thresholds(y, alpha, s, t)
    return nw, 1


@njit(cache=True)
def _exact_s(K, y, inv_m, alpha, s):
    n = alpha.shape[0]
    for r in range(n):
        s[r] = 0.0
    for j in range(n):
        if alpha[j] != 0.0:
            _add_column(K, y, inv_m, s, j, alpha[j])


@njit(cache=True)
def _thresholds(y, alpha, s, t):
    """Class thresholds from the free points (mean), else the smallest s among α = 0 points.

    Returns False when a class has neither (it is full: λ = 2 n_c).
    """
    n = alpha.shape[0]
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        acc = 0.0
        cnt = 0
        mn = np.inf
        for i in range(n):
            if y[i] != sgn:
                continue
            if alpha[i] > 0.0 and alpha[i] < 1.0:
                acc += s[i]
                cnt += 1
            elif alpha[i] <= 0.0 and s[i] < mn:
                mn = s[i]
        if cnt > 0:
            t[c] = acc / cnt
        elif mn < np.inf:
            t[c] = mn
        else:
            return False
    return True


@njit(cache=True)
def _kkt_violation(y, alpha, s, t):
    v = 0.0
    for i in range(alpha.shape[0]):
        g = s[i] - (t[0] if y[i] > 0 else t[1])
        if alpha[i] <= 0.0:
            e = -g
        elif alpha[i] >= 1.0:
            e = g
        else:
            e = abs(g)
        if e > v:
            v = e
    return v


@njit(cache=True)
def _nu_qp_from(K, y, inv_m, x, grad, fixed, Minv, widx, pos, nw, tol_price, max_iter):
    """Simple-ν-SVM solve at fixed class sums from a feasible ``x`` (box [0, 1]).

    W is rebuilt from the free points of ``x`` plus, for a class without one, one of its points.
    ``fixed[i]`` removes a point (its α stays 0). Returns (status, nw, t_plus, t_minus).
    """
    n = x.shape[0]
    lo = np.zeros(n)
    hi = np.ones(n)
    for i in range(n):
        if fixed[i]:
            hi[i] = 0.0
    members = np.empty(n, np.int64)
    nmem = 0
    has = np.zeros(2, np.bool_)
    for i in range(n):
        if (not fixed[i]) and x[i] > 0.0 and x[i] < 1.0:
            members[nmem] = i
            nmem += 1
            has[0 if y[i] > 0 else 1] = True
    for c in range(2):
        if not has[c]:
            sgn = 1.0 if c == 0 else -1.0
            best = -1
            for i in range(n):
                if y[i] == sgn and not fixed[i]:
                    if best < 0 or grad[i] < grad[best]:
                        best = i
            if best < 0:
                return QP_NUMERICAL, nw, 0.0, 0.0
            members[nmem] = best
            nmem += 1
    ok, nw = _minv_build(K, y, inv_m, Minv, widx, pos, nw, members, nmem)
    if not ok:
        return QP_NUMERICAL, nw, 0.0, 0.0
    st, nw, mu0, mu1, it = _asqp(K, y, inv_m, x, grad, lo, hi, Minv, widx, pos, nw, tol_price, max_iter)
    t = np.empty(2)
    _interval_thresholds(y, x, grad, fixed, -1, 0.0, -mu0, -mu1, t)
    return st, nw, t[0], t[1]


@njit(cache=True)
def _interval_thresholds(y, x, s, fixed, skip, eps, t0, t1, t):
    """Thresholds at an optimum: per class the mean of s over its free points, else the midpoint of
    its optimal interval [max_{α=1} s, min_{α=0} s] (libsvm's choice, so results compare), or its
    finite end if one side is empty; ``t0``/``t1`` for a class with no point at all.

    Points with ``fixed[i]`` (``fixed`` may be empty) and point ``skip`` (−1: none) are left out; α
    within ``eps`` of a bound counts as bound."""
    n = x.shape[0]
    nf = fixed.shape[0]
    t[0] = t0
    t[1] = t1
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        acc = 0.0
        cnt = 0
        lo = -np.inf
        up = np.inf
        for i in range(n):
            if y[i] != sgn or i == skip or (nf > 0 and fixed[i]):
                continue
            if x[i] > eps and x[i] < 1.0 - eps:
                acc += s[i]
                cnt += 1
            elif x[i] >= 1.0 - eps:
                if s[i] > lo:
                    lo = s[i]
            elif s[i] < up:
                up = s[i]
        if cnt > 0:
            t[c] = acc / cnt
        elif lo > -np.inf and up < np.inf:
            t[c] = 0.5 * (lo + up)
        elif lo > -np.inf:
            t[c] = lo
        elif up < np.inf:
            t[c] = up


@njit(cache=True)
def _record(lam_out, alpha_out, t_out, nb, lam, alpha, t):
    if nb >= lam_out.shape[0]:
        cap = 2 * lam_out.shape[0]
        l2 = np.empty(cap)
        a2 = np.empty((cap, alpha_out.shape[1]))
        t2 = np.empty((cap, 2))
        l2[:nb] = lam_out[:nb]
        a2[:nb] = alpha_out[:nb]
        t2[:nb] = t_out[:nb]
        lam_out, alpha_out, t_out = l2, a2, t2
    lam_out[nb] = lam
    alpha_out[nb, :] = alpha
    t_out[nb, 0] = t[0]
    t_out[nb, 1] = t[1]
    return lam_out, alpha_out, t_out, nb + 1


@njit(cache=True)
def _rebuild_working_set(K, y, inv_m, Minv, widx, pos, nw, want, piv, members, dep_tol=DEP_TOL):
    """Factorize W afresh: the two pivots first (one per class), then every other wanted point.
    Returns (ok, nw)."""
    n = K.shape[0]
    nmem = 0
    for c in range(2):
        members[nmem] = piv[c]
        nmem += 1
    for j in range(n):
        if want[j] and j != piv[0] and j != piv[1]:
            members[nmem] = j
            nmem += 1
    return _minv_build(K, y, inv_m, Minv, widx, pos, nw, members, nmem, dep_tol)


@njit(cache=True)
def _sync_working_set(K, y, inv_m, Minv, widx, pos, nw, want, piv, members):
    """Make W the wanted points by rank-one updates of the bordered inverse — additions first (each
    class keeps a member), then removals — or, if an update breaks down, by a rebuild.
    Returns (ok, nw)."""
    n = K.shape[0]
    ok = True
    for j in range(n):
        if want[j] and pos[j] < 0:
            ok2, nw = _minv_add(K, y, inv_m, Minv, widx, pos, nw, j) if nw >= 2 else (False, nw)
            if not ok2:
                ok = False
                break
    if ok:
        k = 0
        while k < nw:
            j = widx[k]
            if not want[j]:
                ok, nw = _minv_remove(Minv, widx, pos, nw, j)
                if not ok:
                    break
            else:
                k += 1
    if not ok:
        ok, nw = _rebuild_working_set(K, y, inv_m, Minv, widx, pos, nw, want, piv, members)
    return ok, nw


@njit(cache=True)
def _step_to_event(y, x, d, gd, dt0, dt1, g, lo, hi, widx, pos, nw, h, dnorm, epsg, skip):
    """Largest step ``h`` (at most the given one) before the next event (Loosli & Canu 2006, Summary, four kinds): a
    point of W reaching 0 or 1, or a bound point (not tied, not ``skip``) whose g reaches 0."""
    for k in range(nw):
        j = widx[k]
        dj = d[j]
        if dj > 1e-14 * dnorm:
            hk = (1.0 - x[j]) / dj
        elif dj < -1e-14 * dnorm:
            hk = -x[j] / dj
        else:
            continue
        if hk < h:
            h = max(hk, 0.0)
    for j in range(x.shape[0]):
        if pos[j] >= 0 or lo[j] < hi[j] or j == skip:
            continue
        dg = gd[j] - (dt0 if y[j] > 0 else dt1)
        if x[j] <= 0.0 and dg < -epsg:
            hk = max(g[j], 0.0) / (-dg)
        elif x[j] >= 1.0 and dg > epsg:
            hk = max(-g[j], 0.0) / dg
        else:
            continue
        if hk < h:
            h = hk
    return h


@njit(cache=True)
def _move(y, x, d, gd, dt0, dt1, g, lo, hi, widx, pos, nw, h, htol, dnorm, epsg, tied, skip):
    """x += h·d on W, snapping every point that reaches its bound within ``htol``; marks as ``tied``
    the bound points (not ``skip``) whose g reaches 0 within the step."""
    n = x.shape[0]
    for j in range(n):
        tied[j] = False
    for k in range(nw):
        j = widx[k]
        dj = d[j]
        a = x[j] + h * dj
        if dj > 1e-14 * dnorm and (1.0 - x[j]) / dj <= h + htol and a >= 1.0 - 1e-9:
            a = 1.0
        elif dj < -1e-14 * dnorm and -x[j] / dj <= h + htol and a <= 1e-9:
            a = 0.0
        x[j] = min(1.0, max(0.0, a))
    for j in range(n):
        if pos[j] >= 0 or lo[j] < hi[j] or j == skip:
            continue
        dg = gd[j] - (dt0 if y[j] > 0 else dt1)
        if x[j] <= 0.0 and dg < -epsg and max(g[j], 0.0) / (-dg) <= h + htol:
            tied[j] = True
        elif x[j] >= 1.0 and dg > epsg and max(-g[j], 0.0) / dg <= h + htol:
            tied[j] = True


@njit(cache=True)
def nu_path_kernel(K, y, max_breakpoints, tol, refresh, max_qp_iter):
    """Follow the ν-SVM path from λ = 0⁺ (sparse end) to λ_max = 2·min(n₊, n₋).

    Parameters: K (m, m) kernel matrix, y (m,) ±1, max_breakpoints, tol (relative tolerance, e.g.
    1e-9), refresh (recompute s = Gα exactly every this many breakpoints), max_qp_iter.

    Returns (lambdas (T,), alphas (T, m), thresholds (T, 2) = (t₊, t₋), status, n_corrections,
    max_kkt_violation (relative), n_dependent_skips, reason) — ``reason`` says why a lost path was
    lost (``LOST_REASONS``), 0 otherwise.
    """
    n = K.shape[0]
    inv_m = 1.0 / n
    npos = 0
    for i in range(n):
        if y[i] > 0:
            npos += 1
    nneg = n - npos
    lam_max = 2.0 * min(npos, nneg)
    gs = 0.0
    for i in range(n):
        if K[i, i] * inv_m > gs:
            gs = K[i, i] * inv_m
    cap0 = max(64, 4 * n + 8)
    lam_out = np.empty(cap0)
    alpha_out = np.empty((cap0, n))
    t_out = np.empty((cap0, 2))
    alpha = np.zeros(n)
    s = np.zeros(n)
    t = np.zeros(2)
    lam = 0.0
    nb = 0
    lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)

    Minv = np.zeros((n + 2, n + 2))
    widx = np.empty(n, np.int64)
    pos = -np.ones(n, np.int64)
    nw = 0
    d = np.zeros(n)
    gd = np.zeros(n)
    lo = np.zeros(n)
    hi = np.zeros(n)
    g = np.zeros(n)
    tied = np.zeros(n, np.bool_)
    members = np.empty(n, np.int64)
    want = np.zeros(n, np.bool_)
    nofix = np.zeros(n, np.bool_)
    status = STATUS_OK
    n_corr = 0
    max_viol = 0.0
    n_zero = 0
    n_dep = 0
    reason = 0
    step_count = 0
    n_polish = 0
    n_rebuild = 0
    box_lo = np.zeros(n)
    box_hi = np.ones(n)
    t_end = np.zeros(2)
    while True:
        # ---- thresholds (and a jump of b, ρ when a class has no free point) -------------------
        if not _thresholds(y, alpha, s, t):
            break  # a class is full: λ = λ_max
        if nb > 1 and (abs(t[0] - t_end[0]) > 1e-7 * gs * max(lam, 1.0)
                       or abs(t[1] - t_end[1]) > 1e-7 * gs * max(lam, 1.0)):
            lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
        # ---- KKT check, Simple-ν-SVM correction if the path was left --------------------------
        viol = _kkt_violation(y, alpha, s, t) / (gs * max(lam, 1.0))
        if viol > max_viol:
            max_viol = viol
        if viol > 1e4 * tol and lam > 0.0:
            _exact_s(K, y, inv_m, alpha, s)
            _thresholds(y, alpha, s, t)
            viol = _kkt_violation(y, alpha, s, t) / (gs * max(lam, 1.0))
            if viol > 1e4 * tol:
                n_corr += 1
                qst, nw, t0, t1 = _nu_qp_from(K, y, inv_m, alpha, s, nofix, Minv, widx, pos, nw,
                                              tol * gs * max(lam, 1.0), max_qp_iter)
                _exact_s(K, y, inv_m, alpha, s)
                _thresholds(y, alpha, s, t)
                viol = _kkt_violation(y, alpha, s, t) / (gs * max(lam, 1.0))
                sp = 0.0
                sn = 0.0
                for i in range(n):
                    if y[i] > 0:
                        sp += alpha[i]
                    else:
                        sn += alpha[i]
                if abs(sp - 0.5 * lam) > 1e-8 * max(1.0, lam) or abs(sn - 0.5 * lam) > 1e-8 * max(1.0, lam):
                    qst = QP_NUMERICAL
                if qst != QP_OK or viol > 1e4 * tol:
                    status = STATUS_LOST
                    reason = 6
                    break
                lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
        # tie tolerance: relative to the size of s itself — near ρ ≈ 0 (nearly separable data, a
        # nearly singular K) s is orders of magnitude below max G_ii·λ, and a tolerance on that
        # scale would let points that are not at their event move (the path would skip an event)
        smax = 0.0
        for i in range(n):
            smax = max(smax, abs(s[i]))
        tolg = tol * max(smax, 1e-3 * gs * max(lam, 1.0))
        # ---- bounds of the derivative QP ------------------------------------------------------
        _qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi)
        # ---- working set: free points plus one pivot per class without one --------------------
        for i in range(n):
            want[i] = alpha[i] > 0.0 and alpha[i] < 1.0
            d[i] = 0.0
        piv = np.array([-1, -1])
        for c in range(2):
            sgn = 1.0 if c == 0 else -1.0
            f = -1
            for i in range(n):
                if y[i] == sgn and want[i]:
                    f = i
                    break
            if f >= 0:
                piv[c] = f
                continue
            best = -1
            if lam == 0.0:
                pass  # chosen below as the closest pair
            else:
                for i in range(n):
                    if y[i] == sgn and alpha[i] <= 0.0 and lo[i] < hi[i]:
                        if best < 0 or g[i] < g[best]:
                            best = i
                if best < 0:
                    status = STATUS_LOST
                    reason = 1
                    break
                piv[c] = best
                want[best] = True
        if status != STATUS_OK:
            break
        if lam == 0.0:
            # closest pair of opposite classes in feature space: the start of the hull problem
            bestv = np.inf
            for i in range(n):
                if y[i] < 0:
                    continue
                for j in range(n):
                    if y[j] > 0:
                        continue
                    v = K[i, i] + K[j, j] - 2.0 * K[i, j]
                    if v < bestv:
                        bestv = v
                        piv[0] = i
                        piv[1] = j
            want[piv[0]] = True
            want[piv[1]] = True
        ok, nw = _sync_working_set(K, y, inv_m, Minv, widx, pos, nw, want, piv, members)
        if not ok:
            status = STATUS_LOST
            reason = 2
            break
        # ---- the derivative QP; if its solve breaks down (W nearly singular: K with eigenvalues
        # near rounding), W is rebuilt once treating nearly dependent points as dependent
        for rebuild in range(2):
            if rebuild == 1:
                okb, nw = _rebuild_working_set(K, y, inv_m, Minv, widx, pos, nw, want, piv, members,
                                               DEP_TOL_RETRY)
                if not okb:
                    break
                _minv_refresh(K, y, inv_m, Minv, widx, nw)
                n_rebuild += 1
            good = False
            # feasible start: ½ on one allowed point per class
            for i in range(n):
                d[i] = 0.0
                gd[i] = 0.0
            d[piv[0]] = 0.5
            d[piv[1]] = 0.5
            _add_column(K, y, inv_m, gd, piv[0], 0.5)
            _add_column(K, y, inv_m, gd, piv[1], 0.5)
            qst, nw, mu0, mu1, it = _asqp(K, y, inv_m, d, gd, lo, hi, Minv, widx, pos, nw,
                                          tol * gs, max_qp_iter)
            if qst != QP_OK:
                continue
            dt0 = -mu0
            dt1 = -mu1
            # residual check of the direction on W (a stale inverse shows here): G d = dt on W and
            # class sums of d equal to ½; on failure refactorize (LU) and solve again
            for attempt in range(2):
                dnorm = 0.0
                for i in range(n):
                    dnorm = max(dnorm, abs(d[i]))
                res = 0.0
                cs0 = -0.5
                cs1 = -0.5
                for i in range(n):
                    if y[i] > 0:
                        cs0 += d[i]
                    else:
                        cs1 += d[i]
                for k in range(nw):
                    i = widx[k]
                    res = max(res, abs(gd[i] - (dt0 if y[i] > 0 else dt1)))
                good = (res <= 1e-6 * gs * max(1.0, dnorm) and abs(cs0) <= 1e-9 * max(1.0, dnorm)
                        and abs(cs1) <= 1e-9 * max(1.0, dnorm))
                if good or attempt == 1:
                    break
                _minv_refresh(K, y, inv_m, Minv, widx, nw)
                for i in range(n):
                    d[i] = 0.0
                    gd[i] = 0.0
                # restart from the pivots (feasible) with the refreshed inverse
                d[piv[0]] = 0.5
                d[piv[1]] = 0.5
                _add_column(K, y, inv_m, gd, piv[0], 0.5)
                _add_column(K, y, inv_m, gd, piv[1], 0.5)
                qst, nw, mu0, mu1, it = _asqp(K, y, inv_m, d, gd, lo, hi, Minv, widx, pos, nw,
                                              tol * gs, max_qp_iter)
                dt0 = -mu0
                dt1 = -mu1
                if qst != QP_OK:
                    break
            if qst == QP_OK and good:
                break
        if qst != QP_OK:
            status = STATUS_LOST
            reason = 3
            break
        if not good:
            status = STATUS_LOST
            reason = 4
            break
        # free or tied points left out of W although their g has the wrong sign direction
        for i in range(n):
            if pos[i] < 0 and lo[i] < hi[i] and d[i] == 0.0:
                dg = gd[i] - (dt0 if y[i] > 0 else dt1)
                if alpha[i] > 0.0 and alpha[i] < 1.0 and abs(dg) > 1e3 * tol * gs * max(1.0, dnorm):
                    n_dep += 1
        # ---- step length to the nearest event (Loosli & Canu 2006, Summary, four kinds) ------------------------
        epsg = tol * gs * max(1.0, dnorm)
        h = _step_to_event(y, alpha, d, gd, dt0, dt1, g, lo, hi, widx, pos, nw, lam_max - lam, dnorm,
                           epsg, -1)
        htol = 1e-10 * max(1.0, h) + 1e-12 * max(1.0, lam)
        # an event within rounding of λ_max (typically the last points of the smaller class reaching
        # α = 1) is the end: otherwise the path would stop a few ulps short of λ_max
        at_end = h >= (lam_max - lam) - htol
        if at_end:
            h = lam_max - lam
        if h <= htol:
            n_zero += 1
            if n_zero > 2 * n + 10:
                status = STATUS_LOST
                reason = 5
                break
        else:
            n_zero = 0
        # ---- move, snapping every point that reaches its event within the tolerance ----------
        _move(y, alpha, d, gd, dt0, dt1, g, lo, hi, widx, pos, nw, h, htol, dnorm, epsg, tied, -1)
        for i in range(n):
            s[i] += h * gd[i]
        t[0] += h * dt0
        t[1] += h * dt1
        lam = lam_max if at_end else lam + h
        if not at_end:
            lam = _snap_lambda(y, alpha, lam)
        else:  # at λ_max the smaller class is full: every α of it is exactly 1
            for i in range(n):
                if (y[i] > 0 and npos * 2.0 == lam_max) or (y[i] < 0 and nneg * 2.0 == lam_max):
                    alpha[i] = 1.0
        step_count += 1
        if refresh > 0 and step_count % refresh == 0:
            _exact_s(K, y, inv_m, alpha, s)
        if step_count % 64 == 0:
            _minv_refresh(K, y, inv_m, Minv, widx, nw)
        if not at_end:
            nw, did = _settle(K, y, inv_m, alpha, s, t, Minv, widx, pos, nw, gs * max(lam, 1.0), tol,
                              box_lo, box_hi, max_qp_iter)
            n_polish += did
            _fix_class_sums(K, y, inv_m, alpha, s, 0.5 * lam)
        t_end[0] = t[0]
        t_end[1] = t[1]
        if at_end:
            # the left limit (the thresholds the last segment ends with), then, where a class has no
            # free point at λ_max, a jump to the midpoint of its optimal interval (libsvm's choice)
            lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
            _exact_s(K, y, inv_m, alpha, s)
            tt = np.empty(2)
            _interval_thresholds(y, alpha, s, nofix, -1, 0.0, t[0], t[1], tt)
            if (abs(tt[0] - t[0]) > 1e-7 * gs * max(lam, 1.0)
                    or abs(tt[1] - t[1]) > 1e-7 * gs * max(lam, 1.0)):
                lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, tt)
            break
        lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
        if nb >= max_breakpoints:
            status = STATUS_MAX_BREAKPOINTS
            break
    return (lam_out[:nb].copy(), alpha_out[:nb].copy(), t_out[:nb].copy(), status, n_corr,
            max_viol, n_dep, reason)


# ----------------------------------------------------------------------------------------------
# Leave-one-out along the path (Loosli & Canu 2006, "Leave-one-out evaluation")
# ----------------------------------------------------------------------------------------------
LOO_OK = 0
LOO_QP_FAILED = 1  # the fallback active-set solve did not converge
LOO_NUMERICAL = 2  # the fallback active-set solve broke down

ALPHA_EPS = 1e-9  # α within this of a bound counts as bound when the thresholds are chosen
# ρ below RHO_ZERO·max G_ii·max(λ, 1) is ρ = 0: the reduced convex hulls intersect, the ν-SVM's
# decision function is f ≡ 0 and its s = Gα is rounding noise. A leave-i-out solution there predicts
# ŷ_i = 0 (counted as an error), instead of a sign drawn from rounding.
RHO_ZERO = 1e-12


NO_POINTS = np.zeros(0, np.bool_)


@njit(cache=True)
def _mid_thresholds(y, x, s, skip, t):
    """Thresholds of a leave-``skip``-out solution (libsvm's convention, :func:`_interval_thresholds`),
    α within ``ALPHA_EPS`` of a bound counting as bound."""
    _interval_thresholds(y, x, s, NO_POINTS, skip, ALPHA_EPS, np.inf, np.inf, t)


@njit(cache=True)
def _loo_values(s_i, y_i, t0, t1, gs, lam):
    """(y_i ŷ_i, y_i ŷ_i − ρ) of a leave-i-out solution with s_i = (Gx)_i and thresholds t0, t1; both 0
    where ρ = 0 (the leave-i-out classifier is f ≡ 0, see ``RHO_ZERO``)."""
    b = (t1 - t0) * 0.5
    rho = (t0 + t1) * 0.5
    if abs(rho) <= RHO_ZERO * gs * max(lam, 1.0):
        return 0.0, 0.0
    yf = s_i + y_i * b
    return yf, yf - rho


@njit(cache=True)
def _base_without(y, i, Minv0, widx0, nw0, Minv, widx, pos):
    """Copy the base working set (``Minv0``, ``widx0[:nw0]``) into ``Minv``, ``widx``, ``pos`` and remove
    point i from it. Returns (ok, nw); ok is False when i is its class's only member of W (removing it
    would leave the bordered matrix singular) or the removal broke down."""
    p0 = nw0 + 2
    for a in range(p0):
        for b in range(p0):
            Minv[a, b] = Minv0[a, b]
    for k in range(nw0):
        widx[k] = widx0[k]
        pos[widx0[k]] = k
    if pos[i] < 0:
        return True, nw0
    cnt_c = 0
    for k in range(nw0):
        if y[widx[k]] == y[i]:
            cnt_c += 1
    if cnt_c <= 1:
        return False, nw0
    return _minv_remove(Minv, widx, pos, nw0, i)


@njit(cache=True)
def _loo_homotopy(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter, max_steps,
                  Minv0, widx0, nw0, x, sx, d, gd, lo, hi, g, tied, want, members, Minv, widx, pos,
                  refine=0):
    """Leave-i-out solution by driving α_i to 0 along a one-dimensional path (002's idea).

    Parameter τ ∈ [0, 1]: α_i = (1 − τ) α_i⁰ and both class sums go linearly from λ/2 to
    T = min(λ/2, n_c − 1, n_o) (λ clipped to the reduced set's 2·min(n₊, n₋)). At τ = 0 the full
    solution is optimal for the problem with α_i fixed; the optimum is piecewise linear in τ, and
    each piece is a derivative QP exactly like the path's (``_asqp`` with point i as a fixed
    variable carrying the right-hand side −G_{:,i} α_i⁰), with the same four kinds of events. Usually
    a handful of pieces, each O(m·|W|), instead of a cold active-set solve.

    ``x`` and ``sx`` (= Gx) hold the result (x_i = 0). Returns (ok, steps): ok False when a piece
    failed (the caller then falls back to an active-set solve warm-started from the full solution).
    """
    n = K.shape[0]
    ci = 0 if y[i] > 0 else 1
    n_c = (npos if ci == 0 else n - npos) - 1
    n_o = n - npos if ci == 0 else npos
    half = 0.5 * lam
    T = min(half, float(n_c), float(n_o))
    a_i = alpha[i]
    R0 = T - half
    R1 = T - half
    if ci == 0:
        R0 += a_i
    else:
        R1 += a_i
    for j in range(n):
        x[j] = alpha[j]
        sx[j] = s[j]
        tied[j] = False
        pos[j] = -1
    # working set: the base (free points of the full solution), without i
    ok, nw = _base_without(y, i, Minv0, widx0, nw0, Minv, widx, pos)
    if not ok:  # start from an empty W: the first update rebuilds it
        for k in range(nw):
            pos[widx[k]] = -1
        nw = 0
    smax = 0.0
    for j in range(n):
        smax = max(smax, abs(s[j]))
    tolg = tol * max(smax, 1e-3 * gs * max(lam, 1.0))  # as in the path (nu_path_kernel)
    tau = 0.0
    steps = 0
    n_zero = 0
    t = np.empty(2)
    piv = np.empty(2, np.int64)
    while True:
        # ---- thresholds and pivots: a class without free points gets the end of its optimal
        # interval that lets it move the way its class sum must go
        for c in range(2):
            sgn = 1.0 if c == 0 else -1.0
            Rc = R0 if c == 0 else R1
            acc = 0.0
            cnt = 0
            first = -1
            for j in range(n):
                if y[j] == sgn and j != i and x[j] > 0.0 and x[j] < 1.0:
                    acc += sx[j]
                    cnt += 1
                    if first < 0:
                        first = j
            if cnt > 0:
                t[c] = acc / cnt
                piv[c] = first
                continue
            best_r = -1
            best_l = -1
            for j in range(n):
                if y[j] != sgn or j == i:
                    continue
                if x[j] <= 0.0:
                    if best_r < 0 or sx[j] < sx[best_r]:
                        best_r = j
                elif best_l < 0 or sx[j] > sx[best_l]:
                    best_l = j
            if Rc > 0.0:
                f = best_r
            elif Rc < 0.0:
                f = best_l
            else:
                f = best_r if best_r >= 0 else best_l
            if f < 0:
                return False, steps
            piv[c] = f
            t[c] = sx[f]
        _qp_bounds(y, x, sx, t, tied, tolg, g, lo, hi)
        lo[i] = -a_i
        hi[i] = -a_i
        for c in range(2):  # a pivot at a bound may move in its class's direction
            f = piv[c]
            if x[f] <= 0.0:
                lo[f] = 0.0
                hi[f] = np.inf
            elif x[f] >= 1.0:
                lo[f] = -np.inf
                hi[f] = 0.0
        # ---- working set: free points (not i) plus the pivots
        for j in range(n):
            want[j] = j != i and x[j] > 0.0 and x[j] < 1.0
            d[j] = 0.0
            gd[j] = 0.0
        want[piv[0]] = True
        want[piv[1]] = True
        ok, nw = _sync_working_set(K, y, inv_m, Minv, widx, pos, nw, want, piv, members)
        if not ok:
            return False, steps
        # ---- derivative QP: d_i = −α_i⁰ fixed, class sums of the others R_c, started on the pivots
        d[i] = -a_i
        _add_column(K, y, inv_m, gd, i, -a_i)
        d[piv[0]] += R0
        _add_column(K, y, inv_m, gd, piv[0], R0)
        d[piv[1]] += R1
        _add_column(K, y, inv_m, gd, piv[1], R1)
        qst, nw, mu0, mu1, it = _asqp(K, y, inv_m, d, gd, lo, hi, Minv, widx, pos, nw,
                                      tol * gs, max_qp_iter, refine)
        if qst != QP_OK:
            return False, steps
        dt0 = -mu0
        dt1 = -mu1
        dnorm = 0.0
        for j in range(n):
            if j != i:
                dnorm = max(dnorm, abs(d[j]))
        # ---- step to the nearest event, or to τ = 1
        epsg = tol * gs * max(1.0, dnorm)
        h = _step_to_event(y, x, d, gd, dt0, dt1, g, lo, hi, widx, pos, nw, 1.0 - tau, dnorm, epsg, i)
        htol = 1e-10 * max(1.0, h) + 1e-12
        at_end = h >= (1.0 - tau) - htol
        if at_end:
            h = 1.0 - tau
        if h <= htol:
            n_zero += 1
            if n_zero > 2 * n + 10:
                return False, steps
        else:
            n_zero = 0
        # ---- move, snapping every point that reaches its event within the tolerance
        _move(y, x, d, gd, dt0, dt1, g, lo, hi, widx, pos, nw, h, htol, dnorm, epsg, tied, i)
        for j in range(n):
            sx[j] += h * gd[j]
        tau = 1.0 if at_end else tau + h
        x[i] = 0.0 if at_end else a_i * (1.0 - tau)
        steps += 1
        if at_end:
            break
        if steps >= max_steps:
            return False, steps
        if steps % 10 == 0:
            _exact_s(K, y, inv_m, x, sx)
    return True, steps


@njit(cache=True)
def _loo_refit_asqp(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter,
                    Minv0, widx0, nw0, ok0, x, grad, fixed, lo, hi, Minv, widx, pos):
    """Fallback leave-i-out refit: a Simple-ν-SVM active-set solve warm-started from the full solution
    with α_i's mass moved to the free points of its class (then to the α = 0 points with the
    smallest g). ``x``, ``grad`` hold the result. Returns the ``_asqp`` status."""
    n = K.shape[0]
    c_i = 0 if y[i] > 0 else 1
    n_c = (npos if c_i == 0 else n - npos) - 1
    n_o = n - npos if c_i == 0 else npos
    half = 0.5 * lam
    target = min(half, float(n_c), float(n_o))
    for j in range(n):
        x[j] = alpha[j]
        grad[j] = s[j]
        fixed[j] = False
        lo[j] = 0.0
        hi[j] = 1.0
        pos[j] = -1
    fixed[i] = True
    hi[i] = 0.0
    x[i] = 0.0
    _add_column(K, y, inv_m, grad, i, -alpha[i])
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        cur = 0.0
        for j in range(n):
            if y[j] == sgn:
                cur += x[j]
        delta = target - cur
        if delta > 0.0:
            for j in range(n):
                if delta <= 0.0:
                    break
                if y[j] == sgn and not fixed[j] and x[j] > 0.0 and x[j] < 1.0:
                    add = min(1.0 - x[j], delta)
                    x[j] += add
                    _add_column(K, y, inv_m, grad, j, add)
                    delta -= add
            while delta > 1e-15 * max(1.0, half):
                best = -1
                for j in range(n):
                    if y[j] == sgn and not fixed[j] and x[j] <= 0.0:
                        if best < 0 or grad[j] < grad[best]:
                            best = j
                if best < 0:
                    break
                add = min(1.0, delta)
                x[best] = add
                _add_column(K, y, inv_m, grad, best, add)
                delta -= add
        elif delta < 0.0:
            f = target / cur
            for j in range(n):
                if y[j] == sgn and x[j] > 0.0:
                    old = x[j]
                    x[j] = old * f
                    _add_column(K, y, inv_m, grad, j, x[j] - old)
    use_base = ok0
    nw = 0
    if use_base:
        use_base, nw = _base_without(y, i, Minv0, widx0, nw0, Minv, widx, pos)
        if use_base:
            for j in range(n):
                if x[j] > 0.0 and x[j] < 1.0 and pos[j] < 0 and not fixed[j]:
                    oka, nw = _minv_add(K, y, inv_m, Minv, widx, pos, nw, j)
    if use_base:
        st, nw, mu0, mu1, itq = _asqp(K, y, inv_m, x, grad, lo, hi, Minv, widx, pos, nw,
                                      tol * gs * max(lam, 1.0), max_qp_iter)
    else:
        for k in range(nw):
            pos[widx[k]] = -1
        st, nw, t0, t1 = _nu_qp_from(K, y, inv_m, x, grad, fixed, Minv, widx, pos, 0,
                                     tol * gs * max(lam, 1.0), max_qp_iter)
    return st


@njit(cache=True)
def _loo_base(K, y, inv_m, alpha, s, Minv0, widx0, pos0, members):
    """The working set every refit starts from: the free points of the full solution (plus, for a
    class without one, its α = 0 point of smallest s), factorized once and refreshed by LU.
    Returns (ok, nw0)."""
    n = K.shape[0]
    nmem = 0
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        first = -1
        for i in range(n):
            if y[i] == sgn and alpha[i] > 0.0 and alpha[i] < 1.0:
                first = i
                break
        if first < 0:
            for i in range(n):
                if y[i] == sgn and alpha[i] <= 0.0 and (first < 0 or s[i] < s[first]):
                    first = i
            if first < 0:
                for i in range(n):
                    if y[i] == sgn:
                        first = i
                        break
        members[nmem] = first
        nmem += 1
    for i in range(n):
        if alpha[i] > 0.0 and alpha[i] < 1.0 and i != members[0] and i != members[1]:
            members[nmem] = i
            nmem += 1
    ok0, nw0 = _minv_build(K, y, inv_m, Minv0, widx0, pos0, 0, members, nmem)
    if ok0:
        _minv_refresh(K, y, inv_m, Minv0, widx0, nw0)
    return ok0, nw0


@njit(cache=True)
def _loo_chunk(K, y, inv_m, lam, npos, alpha, s, gs, tol, max_qp_iter, Minv0, widx0, nw0, ok0,
               idx, lo_k, hi_k, yf, yg, status, steps, homotopy):
    """Refit the points ``idx[lo_k:hi_k]`` (each needs α_i > 0), with work arrays of its own."""
    n = K.shape[0]
    x = np.empty(n)
    sx = np.empty(n)
    d = np.empty(n)
    gd = np.empty(n)
    lo = np.empty(n)
    hi = np.empty(n)
    g = np.empty(n)
    tied = np.zeros(n, np.bool_)
    want = np.zeros(n, np.bool_)
    fixed = np.zeros(n, np.bool_)
    members = np.empty(n, np.int64)
    Minv = np.empty((n + 2, n + 2))
    widx = np.empty(n, np.int64)
    pos = -np.ones(n, np.int64)
    tt = np.empty(2)
    max_steps = 4 * n + 20
    for q in range(lo_k, hi_k):
        i = idx[q]
        ok = False
        nst = 0
        if ok0 and homotopy:
            ok, nst = _loo_homotopy(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter, max_steps,
                                    Minv0, widx0, nw0, x, sx, d, gd, lo, hi, g, tied, want, members,
                                    Minv, widx, pos)
        if ok:
            # the solution must satisfy the KKT conditions (to the path's tolerance) or be refitted
            _mid_thresholds(y, x, sx, i, tt)
            smax = 0.0
            for j in range(n):
                smax = max(smax, abs(sx[j]))
            tolg = tol * max(smax, 1e-3 * gs * max(lam, 1.0))
            for j in range(n):
                if j == i:
                    continue
                gj = sx[j] - (tt[0] if y[j] > 0 else tt[1])
                if (x[j] <= 0.0 and gj < -10 * tolg) or (x[j] >= 1.0 and gj > 10 * tolg) or (
                        x[j] > 0.0 and x[j] < 1.0 and abs(gj) > 10 * tolg):
                    ok = False
                    break
        st = LOO_OK
        if not ok:
            nst = -1
            r = _loo_refit_asqp(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter,
                                Minv0, widx0, nw0, ok0, x, sx, fixed, lo, hi, Minv, widx, pos)
            st = LOO_OK if r == QP_OK else (LOO_QP_FAILED if r == QP_MAX_ITER else LOO_NUMERICAL)
            _mid_thresholds(y, x, sx, i, tt)
        for k in range(n):
            pos[k] = -1
        status[i] = st
        steps[i] = nst
        yf[i], yg[i] = _loo_values(sx[i], y[i], tt[0], tt[1], gs, lam)


@njit(cache=True)
def _loo_prepare(K, y, alpha, lam, gs):
    """Per-λ set-up: s = Gα exactly, the base working set, and the leave-one-out values of the points
    that are not refitted (α_i = 0: α unchanged; with libsvm's midpoint thresholds the optimal
    interval of the point's class may still change when the point was its end)."""
    n = K.shape[0]
    inv_m = 1.0 / n
    s = np.zeros(n)
    _exact_s(K, y, inv_m, alpha, s)
    t = np.zeros(2)
    _mid_thresholds(y, alpha, s, -1, t)
    yf = np.empty(n)
    yg = np.empty(n)
    tt = np.empty(2)
    for i in range(n):
        if alpha[i] <= 0.0:  # the point may have been an end of its class's optimal interval
            _mid_thresholds(y, alpha, s, i, tt)
            yf[i], yg[i] = _loo_values(s[i], y[i], tt[0], tt[1], gs, lam)
        else:  # refitted later
            yf[i], yg[i] = _loo_values(s[i], y[i], t[0], t[1], gs, lam)
    return s, yf, yg


@njit(cache=True)
def _loo_setup(K, y, alpha, lam):
    """Shared part of :func:`loo_kernel`: the values of the points not refitted, the base working
    set and the list of points to refit."""
    n = K.shape[0]
    inv_m = 1.0 / n
    gs = 0.0
    for i in range(n):
        gs = max(gs, K[i, i] * inv_m)
    s, yf, yg = _loo_prepare(K, y, alpha, lam, gs)
    Minv0 = np.zeros((n + 2, n + 2))
    widx0 = np.empty(n, np.int64)
    pos0 = -np.ones(n, np.int64)
    members = np.empty(n, np.int64)
    ok0, nw0 = _loo_base(K, y, inv_m, alpha, s, Minv0, widx0, pos0, members)
    refit = np.zeros(n, np.bool_)
    nref = 0
    for i in range(n):
        if alpha[i] > 0.0:
            refit[i] = True
            members[nref] = i
            nref += 1
    return gs, s, yf, yg, Minv0, widx0, ok0, nw0, refit, members[:nref].copy()


@njit(cache=True)
def loo_kernel(K, y, alpha, lam, tol, max_qp_iter, homotopy=True):
    """Leave-one-out decision values at one point of the path.

    ``alpha`` is the full solution at ``lam``. Only points with α_i > 0 (E ∪ L) are refitted — a
    point of R leaves α unchanged — each by :func:`_loo_homotopy` (α_i driven to 0 from the full
    solution), falling back to a warm-started active-set solve if a piece fails or its result
    violates the KKT conditions (``homotopy=False``: that solve only, the previous method, kept as
    a check). Same λ (clipped to the feasible 2·min(n₊, n₋) of the reduced set) and same scaling
    G = YKY/m as the full problem. Thresholds follow libsvm's convention (:func:`_mid_thresholds`).

    Returns (yg (m,) = y_i ŷ_i − ρ^{[−i]} (the leave-i-out margin residual g), yf (m,) = y_i ŷ_i,
    refit (m,) bool, status (m,) int, steps (m,) int: homotopy pieces per refit, −1 = fallback).
    """
    n = K.shape[0]
    npos = 0
    for i in range(n):
        if y[i] > 0:
            npos += 1
    gs, s, yf, yg, Minv0, widx0, ok0, nw0, refit, idx = _loo_setup(K, y, alpha, lam)
    status = np.zeros(n, np.int64)
    steps = np.zeros(n, np.int64)
    _loo_chunk(K, y, 1.0 / n, lam, npos, alpha, s, gs, tol, max_qp_iter, Minv0, widx0, nw0, ok0,
               idx, 0, idx.shape[0], yf, yg, status, steps, homotopy)
    return yg, yf, refit, status, steps


@njit(cache=True, parallel=True)
def loo_kernel_parallel(K, y, alpha, lam, tol, max_qp_iter, n_chunks):
    """:func:`loo_kernel` (homotopy) with the refits spread over threads: ``n_chunks`` interleaved
    groups of points, each with work arrays of its own (refits are independent). Callers serialise
    calls (``svmviz._parallel.PARALLEL_LOCK``)."""
    n = K.shape[0]
    npos = 0
    for i in range(n):
        if y[i] > 0:
            npos += 1
    gs, s, yf, yg, Minv0, widx0, ok0, nw0, refit, idx = _loo_setup(K, y, alpha, lam)
    status = np.zeros(n, np.int64)
    steps = np.zeros(n, np.int64)
    nref = idx.shape[0]
    nc = max(1, min(n_chunks, nref))
    # interleave (refit costs vary along the index order) into contiguous chunks
    perm = np.empty(nref, np.int64)
    q = 0
    bounds = np.empty(nc + 1, np.int64)
    for c in range(nc):
        bounds[c] = q
        for k in range(c, nref, nc):
            perm[q] = idx[k]
            q += 1
    bounds[nc] = nref
    for c in prange(nc):
        _loo_chunk(K, y, 1.0 / n, lam, npos, alpha, s, gs, tol, max_qp_iter, Minv0, widx0, nw0, ok0,
                   perm, bounds[c], bounds[c + 1], yf, yg, status, steps, True)
    return yg, yf, refit, status, steps
