"""The compiled solver: iterated re-weighted least squares (IRWLS) training of the SVC and of
the unbiased SVC (Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal 2004).

Arrays and scalars only; every solver returns a status code (``STATUS_*``). The public, validated
API is :mod:`svmviz.usvc`.

One machine covers both cases of the paper: the decision function is ``f = Φβ + b`` with features
``Φ`` (n, p) and regulariser ``½ β'Gβ``:

* linear machine (Navia-Vázquez et al. 2004, eq. 20): ``Φ = X``, ``G = I`` (β = w);
* semiparametric kernel machine with prototypes c_1..c_R (Navia-Vázquez et al. 2004, eqs. 23–26): ``Φ_ir = K(x_i, c_r)``,
  ``G = K(c, c)`` (``½‖w‖² = ½β'Gβ``).

Each IRWLS step solves the weighted least-squares system (Navia-Vázquez et al. 2004, eqs. 20 and 25)::

    [ Φ'D_aΦ + G   Φ'a ] [β]   [ Φ'D_a y ]
    [ a'Φ          a'1 ] [b] = [ a'y     ]

i.e. minimises ``½β'Gβ + ½ Σ a_i e_i²`` with ``e_i = y_i − f_i``, then recomputes the weights from
the new slacks. Weights (Navia-Vázquez et al. 2004, eqs. 21–22)::

    ξ_i = e_i y_i = 1 − y_i f_i,   α_i = C θ'(ξ_i) if ξ_i ≥ 0 else 0,
    a_i = factor · α_i / ξ_i       if ξ_i > 0,   capped at a_max (and a_max at ξ_i = 0),
    a_i = 0                        if ξ_i < 0.

``factor = 1`` makes the fixed point of the iteration satisfy the KKT conditions (8)–(13) of the
primal (5) — the gradient of ``½ a_i e_i²`` in f_i is ``−a_i e_i = −(α_i/ξ_i)·ξ_i y_i = −α_i y_i``, as
(10) requires. The seed's literal ``a_i = 2α_i/(e_i y_i)`` (``factor = 2``) matches the *value*
``α_i ξ_i = ½ a_i e_i²`` but doubles the gradient: its fixed point is the solution of the problem with
2C (verified against libsvm in the tests). ``factor`` is exposed so both readings can be compared.

Points that end exactly on the margin (0 < α_i < C) are reached geometrically: with a_i = α_i/ξ_i the
next slack is ξ_new = ξ_old · α_i*/C, until the cap a_max stops it at ξ ≈ α_i*/a_max (a bias of
order C/a_max in the slack, 1e-7 at the defaults).
"""
from __future__ import annotations

import numpy as np

from .._jit import njit  # numba.njit whose cache follows the functions called in other modules
from .._linalg import weighted_gram_upper

LOSS_HINGE = 0
LOSS_SMOOTH_STEP = 1

ROUNDING_FLOOR = 1000.0 * np.finfo(np.float64).eps  # ≈ 2.2e-13 relative change of (β, b)
#: Steps of (β, b) below FLOOR_FACTOR times the weighted solve's estimated rounding error (measured
#: at each solve by one step of iterative refinement) are rounding noise, not progress: they count as
#: converged. Without this, a fixed tol under the floor — which weights near a_max raise to ~1e-8
#: relative when about as many margin points as parameters hold the solution (kernel machines,
#: separable data) — is never met and the iteration runs to max_iter in noise.
FLOOR_FACTOR = 10.0
PATIENCE = 10  # consecutive passing iterations before IRWLS is declared converged

STATUS_CONVERGED = 0
STATUS_MAX_ITER = 1
STATUS_DEGENERATE = 2  # every weight a_i is zero: (Navia-Vázquez et al. 2004, eq. 20) does not determine b
STATUS_NONFINITE = 3

STATUS_TEXT = {
    STATUS_CONVERGED: "converged",
    STATUS_MAX_ITER: "max_iter reached before the tolerance",
    STATUS_DEGENERATE: "every weight a_i is zero (no point on or inside the margin); b is undetermined",
    STATUS_NONFINITE: "non-finite values appeared (overflow); reduce C or rescale X",
}


# ----------------------------------------------------------------------------------------------
# the smooth step θ̃_s (Navia-Vázquez et al. 2004, eq. 6) and its derivative
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _theta(xi, loss, s, k):
    """Loss θ(ξ) for the slack ξ = (1 − y f)_+ (ξ < 0 is clipped to 0)."""
    if xi < 0.0:
        xi = 0.0
    if loss == LOSS_HINGE:
        return xi
    kap = k ** (1.0 / s)
    if xi < 1.0:
        return (xi + kap) ** s / (2.0 * (1.0 + kap) ** s)
    return 1.0 - (1.0 + kap) ** s / (2.0 * (xi + kap) ** s)


@njit(cache=True)
def _dtheta(xi, loss, s, k):
    """Right derivative dθ/dξ at ξ ≥ 0 (ξ < 0 is treated as 0)."""
    if xi < 0.0:
        xi = 0.0
    if loss == LOSS_HINGE:
        return 1.0
    kap = k ** (1.0 / s)
    if xi < 1.0:
        return s * (xi + kap) ** (s - 1.0) / (2.0 * (1.0 + kap) ** s)
    return s * (1.0 + kap) ** s / (2.0 * (xi + kap) ** (s + 1.0))


@njit(cache=True)
def _theta_values(xi, loss, s, k, derivative):
    """θ(ξ) (or dθ/dξ when ``derivative``) of every element of the array ``xi``, same shape."""
    out = np.empty_like(xi)
    for i in range(xi.size):
        v = xi.flat[i]
        out.flat[i] = _dtheta(v, loss, s, k) if derivative else _theta(v, loss, s, k)
    return out


def _theta_array(xi, loss, s, k):
    """θ(ξ) elementwise (:func:`_theta_values`)."""
    return _theta_values(xi, loss, s, k, False)


def _dtheta_array(xi, loss, s, k):
    """dθ/dξ elementwise (:func:`_theta_values`)."""
    return _theta_values(xi, loss, s, k, True)


# ----------------------------------------------------------------------------------------------
# one IRWLS machine
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _decision(Phi, beta, b):
    n, p = Phi.shape
    f = np.empty(n)
    for i in range(n):
        t = b
        for j in range(p):
            t += Phi[i, j] * beta[j]
        f[i] = t
    return f


@njit(cache=True)
def _primal(Phi, G, y, beta, b, C, cw, loss, s, k):
    """L̃ = ½β'Gβ + C Σ c_i θ((1 − y_i f_i)_+)  (Navia-Vázquez et al. 2004, eq. 5; hinge: eq. 4), with
    the per-sample weights c_i (``cw``; all 1 in the paper): C_i = c_i·C."""
    p = beta.shape[0]
    reg = 0.0
    for i in range(p):
        t = 0.0
        for j in range(p):
            t += G[i, j] * beta[j]
        reg += beta[i] * t
    f = _decision(Phi, beta, b)
    tot = 0.0
    for i in range(y.shape[0]):
        if cw[i] != 0.0:
            tot += cw[i] * _theta(1.0 - y[i] * f[i], loss, s, k)
    return 0.5 * reg + C * tot


@njit(cache=True)
def _weights(f, y, C, cw, loss, s, k, a_max, factor, a):
    """IRWLS weights (Navia-Vázquez et al. 2004, eqs. 21–22) into ``a``; returns Σ a_i.

    Per-sample weights c_i (``cw``) make the bound of point i C_i = c_i·C, so α_i = C_i θ'(ξ_i), and
    its cap c_i·a_max: the weights of one row of weight c_i are then those of c_i copies of it, cap
    included (the margin points' slack ξ ≈ α_i/a_max is the same either way). A point of weight 0
    gets a_i = 0 and drops out of the weighted solve, as a removed row would.
    """
    tot = 0.0
    for i in range(y.shape[0]):
        xi = 1.0 - y[i] * f[i]
        if xi < 0.0 or cw[i] == 0.0:
            a[i] = 0.0
        else:
            alpha = C * cw[i] * _dtheta(xi, loss, s, k)
            cap = a_max * cw[i]
            if alpha <= 0.0:
                a[i] = 0.0
            elif xi * cap <= factor * alpha:
                a[i] = cap
            else:
                a[i] = factor * alpha / xi
        tot += a[i]
    return tot


@njit(cache=True)
def _solve_wls(Phi, G, y, a, beta_out, err_out):
    """Solve (Navia-Vázquez et al. 2004, eqs. 20 and 25) for fixed weights; β into ``beta_out``, returns b.

    ``err_out[0]`` receives an estimate of the solve's relative rounding error,
    ‖M⁻¹(r − M x̂)‖ / max(1, ‖x̂‖) (one step of iterative refinement, not applied).
    """
    n, p = Phi.shape
    M = np.zeros((p + 1, p + 1))
    r = np.zeros(p + 1)
    weighted_gram_upper(Phi, a, M)  # Φ' D_a Φ (upper triangle)
    for i in range(n):  # the intercept's row and the right-hand side
        ai = a[i]
        if ai == 0.0:
            continue
        for j in range(p):
            pij = ai * Phi[i, j]
            M[j, p] += pij
            r[j] += pij * y[i]
        M[p, p] += ai
        r[p] += ai * y[i]
    for j in range(p):
        for l in range(j, p):
            M[j, l] += G[j, l]
            M[l, j] = M[j, l]
        M[p, j] = M[j, p]
    ok = True
    sol = np.zeros(p + 1)
    try:
        sol = np.linalg.solve(M, r)
    except Exception:  # noqa: BLE001 - numba: LU met an exactly zero pivot
        ok = False
    if not ok:
        # Singular to working precision (e.g. duplicated features whose ridge term is lost beside
        # weights a_i ~ a_max): the system is consistent (r lies in the range of Φ'D), so its
        # minimum-norm least-squares solution is a minimiser of the weighted problem (SVD-based).
        sol = np.linalg.lstsq(M, r, -1.0)[0]
    err = 0.0
    nrm = 0.0
    if ok:
        res = r - M @ sol
        dx = np.linalg.solve(M, res)
        for j in range(p + 1):
            err += dx[j] * dx[j]
            nrm += sol[j] * sol[j]
    err_out[0] = np.sqrt(err) / max(1.0, np.sqrt(nrm))
    for j in range(p):
        beta_out[j] = sol[j]
    return sol[p]


@njit(cache=True)
def irwls(Phi, G, y, C, cw, loss, s, k, a_max, factor, damping, tol, tol_f, max_iter,
          beta0, b0, from_ls, record):
    """Iterate (Navia-Vázquez et al. 2004, eqs. 20 and 21–22) to the fixed point.

    ``cw``: per-sample weights c_i ≥ 0 (C_i = c_i·C; all 1 in the paper). ``from_ls``: start from the
    regularised LS solution (a_i = c_i, undamped; history row 0);
    otherwise start from (beta0, b0) (history row 0). Damped update
    ``β_k = d·β_{k−1} + (1 − d)·β_WLS`` (Navia-Vázquez et al. 2004, §3). Converged when, for PATIENCE consecutive
    iterations, the estimated remaining relative change of (β, b), d_k/(1 − d_k/d_{k−1}) with d_k
    the relative change of the step, is below ``tol`` AND the relative change of the primal is
    below ``tol_f``.

    Returns ``(beta, b, n_iter, status, hist_beta, hist_b, hist_primal)``; ``n_iter`` counts the
    re-weighted solves after the start; with ``record`` the history holds every iterate (rows
    0..n_iter), otherwise only the final one.
    """
    n, p = Phi.shape
    rows = max_iter + 1 if record else 1
    hist_beta = np.zeros((rows, p))
    hist_b = np.zeros(rows)
    hist_primal = np.zeros(rows)
    beta = np.empty(p)
    a = np.empty(n)
    err_buf = np.zeros(1)
    if from_ls:
        for i in range(n):
            a[i] = cw[i]
        b = _solve_wls(Phi, G, y, a, beta, err_buf)
    else:
        for j in range(p):
            beta[j] = beta0[j]
        b = b0
    prim = _primal(Phi, G, y, beta, b, C, cw, loss, s, k)
    hist_beta[0] = beta
    hist_b[0] = b
    hist_primal[0] = prim
    status = STATUS_MAX_ITER
    it = 0
    new_beta = np.empty(p)
    d_prev = np.inf
    streak = 0
    # the last PATIENCE + 1 iterates (β, b) and step sizes, to tell rounding jitter from drift
    ring = np.zeros((PATIENCE + 1, p + 1))
    ring_d = np.zeros(PATIENCE + 1)
    for j in range(p):
        ring[0, j] = beta[j]
    ring[0, p] = b
    if max_iter == 0:
        status = STATUS_CONVERGED
    while it < max_iter:
        f = _decision(Phi, beta, b)
        if not np.all(np.isfinite(f)):
            status = STATUS_NONFINITE
            break
        if _weights(f, y, C, cw, loss, s, k, a_max, factor, a) == 0.0:
            status = STATUS_DEGENERATE
            break
        b_new = _solve_wls(Phi, G, y, a, new_beta, err_buf)
        it += 1
        num = 0.0
        den = 0.0
        for j in range(p):
            v = damping * beta[j] + (1.0 - damping) * new_beta[j]
            num += (v - beta[j]) ** 2
            den += v * v
            beta[j] = v
        v = damping * b + (1.0 - damping) * b_new
        num += (v - b) ** 2
        den += v * v
        b = v
        prim_new = _primal(Phi, G, y, beta, b, C, cw, loss, s, k)
        if not np.isfinite(prim_new):
            status = STATUS_NONFINITE
            break
        d_par = np.sqrt(num) / max(1.0, np.sqrt(den))
        d_pri = abs(prim_new - prim) / max(1.0, abs(prim_new))
        prim = prim_new
        if record:
            hist_beta[it] = beta
            hist_b[it] = b
            hist_primal[it] = prim
        # IRWLS converges linearly (margin points approach ξ = 0 geometrically) and can pause near
        # a point it later leaves (a released point drifting back across the margin makes the steps
        # grow again), so one small step is not the end: bound the remaining distance by
        # d/(1 − ρ) with the observed contraction ρ = d_k/d_{k−1}, and ask for PATIENCE consecutive
        # contracting steps that pass. Steps below tol/1000, or at the weighted LS solve's rounding
        # floor (at least ROUNDING_FLOOR; FLOOR_FACTOR × the solve's measured error: with weights
        # up to a_max such steps neither shrink nor contract), always pass: a tol under that floor
        # is otherwise unattainable and the iteration would cycle in rounding noise up to max_iter.
        slot = it % (PATIENCE + 1)
        for j in range(p):
            ring[slot, j] = beta[j]
        ring[slot, p] = b
        ring_d[slot] = d_par
        floor = max(ROUNDING_FLOOR, FLOOR_FACTOR * err_buf[0])
        if d_par <= max(1e-3 * tol, floor):
            small = True
        elif d_prev > 0.0 and d_par < d_prev:
            small = d_par / (1.0 - d_par / d_prev) < tol
        else:
            small = False
        if not small and d_par < max(tol, floor) and it > PATIENCE:
            # Ill-conditioned weighted solves (as many margin points as parameters, weights near
            # a_max) have a rounding floor far above ROUNDING_FLOOR: the steps then jitter in
            # size instead of contracting. Jitter goes nowhere — the net move over the window is
            # well under the summed steps — while slow drift (ρ → 1) moves by about their sum.
            old_slot = (it + 1) % (PATIENCE + 1)
            net = 0.0
            for j in range(p + 1):
                net += (ring[slot, j] - ring[old_slot, j]) ** 2
            net = np.sqrt(net) / max(1.0, np.sqrt(den))
            path = 0.0
            for q in range(PATIENCE + 1):
                if q != old_slot:
                    path += ring_d[q]
            small = net < max(tol, floor) and net < 0.5 * path
        d_prev = d_par
        if small and d_pri < tol_f:
            streak += 1
        else:
            streak = 0
        if streak >= PATIENCE:
            status = STATUS_CONVERGED
            break
    if record:
        return beta, b, it, status, hist_beta[: it + 1].copy(), hist_b[: it + 1].copy(), \
            hist_primal[: it + 1].copy()
    hist_beta[0] = beta
    hist_b[0] = b
    hist_primal[0] = prim
    return beta, b, it, status, hist_beta, hist_b, hist_primal


# ----------------------------------------------------------------------------------------------
# 1-D error surfaces: f(x) = w (x − Th)
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _primal_1d(x, y, th, w, C, loss, s, k):
    tot = 0.0
    for i in range(x.shape[0]):
        tot += _theta(1.0 - y[i] * w * (x[i] - th), loss, s, k)
    return 0.5 * w * w + C * tot


@njit(cache=True)
def primal_grid_1d(x, y, th_grid, w_grid, C, loss, s, k):
    """L̃(Th, w) on a grid, shape (len(w_grid), len(th_grid)) (rows: w, columns: Th)."""
    out = np.empty((w_grid.shape[0], th_grid.shape[0]))
    for i in range(w_grid.shape[0]):
        for j in range(th_grid.shape[0]):
            out[i, j] = _primal_1d(x, y, th_grid[j], w_grid[i], C, loss, s, k)
    return out


@njit(cache=True)
def profile_1d(x, y, th_grid, w_max, n_w, C, loss, s, k, n_golden):
    """min over w ∈ [0, w_max] of L̃(Th, w) for each Th: grid search on ``n_w`` points, then
    golden-section refinement in the bracket around the best grid point (keeps the best value
    seen, so the result is never above the grid minimum)."""
    m = th_grid.shape[0]
    w_best = np.empty(m)
    L_best = np.empty(m)
    gr = (np.sqrt(5.0) - 1.0) / 2.0
    h = w_max / (n_w - 1)
    for j in range(m):
        th = th_grid[j]
        jb = 0
        Lb = np.inf
        for i in range(n_w):
            v = _primal_1d(x, y, th, i * h, C, loss, s, k)
            if v < Lb:
                Lb = v
                jb = i
        wb = jb * h
        lo = max(0.0, (jb - 1) * h)
        hi = min(w_max, (jb + 1) * h)
        c1 = hi - gr * (hi - lo)
        c2 = lo + gr * (hi - lo)
        f1 = _primal_1d(x, y, th, c1, C, loss, s, k)
        f2 = _primal_1d(x, y, th, c2, C, loss, s, k)
        for _ in range(n_golden):
            if f1 < f2:
                if f1 < Lb:
                    Lb = f1
                    wb = c1
                hi = c2
                c2 = c1
                f2 = f1
                c1 = hi - gr * (hi - lo)
                f1 = _primal_1d(x, y, th, c1, C, loss, s, k)
            else:
                if f2 < Lb:
                    Lb = f2
                    wb = c2
                lo = c1
                c1 = c2
                f1 = f2
                c2 = lo + gr * (hi - lo)
                f2 = _primal_1d(x, y, th, c2, C, loss, s, k)
        if f1 < Lb:
            Lb = f1
            wb = c1
        if f2 < Lb:
            Lb = f2
            wb = c2
        w_best[j] = wb
        L_best[j] = Lb
    return w_best, L_best


@njit(cache=True)
def empirical_ce_1d(x, y, th_grid):
    """Fraction of points with y_i (x_i − Th) ≤ 0 for each Th (f = 0 counts as an error)."""
    out = np.empty(th_grid.shape[0])
    n = x.shape[0]
    for j in range(th_grid.shape[0]):
        e = 0
        for i in range(n):
            if y[i] * (x[i] - th_grid[j]) <= 0.0:
                e += 1
        out[j] = e / n
    return out


# ----------------------------------------------------------------------------------------------
# the Table 1 study: LS, SVC and USVC(s) for many 1-D trials
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _ce(x, y, w, b):
    e = 0
    for i in range(x.shape[0]):
        if y[i] * (w * x[i] + b) <= 0.0:
            e += 1
    return e / x.shape[0]


@njit(cache=True)
def table1_trials(Xtr, ytr, Xte, yte, C, s_values, k, a_max, factor, damping, tol, tol_f,
                  max_iter):
    """Fit LS, SVC and USVC(s) for each s on every 1-D trial.

    Xtr, ytr (T, n); Xte, yte (T, m). Returns train CE, test CE, Th = −b/w, w, b, n_iter and status,
    each (T, 2 + len(s_values)) with methods ordered LS, SVC, USVC(s_0), USVC(s_1), ...
    """
    T = Xtr.shape[0]
    M = 2 + s_values.shape[0]
    tr = np.empty((T, M))
    te = np.empty((T, M))
    th = np.empty((T, M))
    ws = np.empty((T, M))
    bs = np.empty((T, M))
    nit = np.zeros((T, M), dtype=np.int64)
    st = np.zeros((T, M), dtype=np.int64)
    G = np.eye(1)
    dummy = np.zeros(1)
    ones = np.ones(Xtr.shape[1])
    for t in range(T):
        Phi = np.ascontiguousarray(Xtr[t]).reshape(-1, 1)
        y = np.ascontiguousarray(ytr[t])
        xs = np.ascontiguousarray(Xtr[t])
        xt = np.ascontiguousarray(Xte[t])
        yt = np.ascontiguousarray(yte[t])
        # LS (a_i = 1) and SVC from it
        bl, b_l, _, s_l, _, _, _ = irwls(Phi, G, y, C, ones, LOSS_HINGE, 1.0, k, a_max, factor, damping,
                                         tol, tol_f, 0, dummy, 0.0, True, False)
        bh, b_h, n_h, s_h, _, _, _ = irwls(Phi, G, y, C, ones, LOSS_HINGE, 1.0, k, a_max, factor, damping,
                                           tol, tol_f, max_iter, bl, b_l, False, False)
        res_w = np.empty(M)
        res_b = np.empty(M)
        res_w[0] = bl[0]
        res_b[0] = b_l
        res_w[1] = bh[0]
        res_b[1] = b_h
        nit[t, 0] = 0
        st[t, 0] = s_l
        nit[t, 1] = n_h
        st[t, 1] = s_h
        for q in range(s_values.shape[0]):
            bu, b_u, n_u, s_u, _, _, _ = irwls(Phi, G, y, C, ones, LOSS_SMOOTH_STEP, s_values[q], k, a_max,
                                               factor, damping, tol, tol_f, max_iter, bh, b_h,
                                               False, False)
            res_w[2 + q] = bu[0]
            res_b[2 + q] = b_u
            nit[t, 2 + q] = n_u
            st[t, 2 + q] = s_u
        for q in range(M):
            ws[t, q] = res_w[q]
            bs[t, q] = res_b[q]
            tr[t, q] = _ce(xs, y, res_w[q], res_b[q])
            te[t, q] = _ce(xt, yt, res_w[q], res_b[q])
            th[t, q] = -res_b[q] / res_w[q] if res_w[q] != 0.0 else np.nan
    return tr, te, th, ws, bs, nit, st


# ----------------------------------------------------------------------------------------------
# Frequency Sensitive Competitive Learning (Ahalt et al. 1990), prototypes for (Navia-Vázquez et al. 2004, eq. 23)
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def fscl(X, R, n_epochs, lr0, lr1, seed):
    """FSCL: winner j = argmin u_j ‖x − c_j‖², c_j += η (x − c_j), u_j += 1; η decays
    geometrically from lr0 to lr1 over the epochs; prototypes start at R distinct random points.
    Returns (prototypes (R, d), win counts (R,))."""
    np.random.seed(seed)
    n, d = X.shape
    perm = np.random.permutation(n)
    c = np.empty((R, d))
    for r in range(R):
        c[r] = X[perm[r]]
    u = np.ones(R)
    wins = np.zeros(R, dtype=np.int64)
    total = n_epochs * n
    step = 0
    for ep in range(n_epochs):
        order = np.random.permutation(n)
        for t in range(n):
            i = order[t]
            eta = lr0 * (lr1 / lr0) ** (step / max(1, total - 1))
            step += 1
            jb = 0
            best = np.inf
            for r in range(R):
                dist = 0.0
                for q in range(d):
                    dd = X[i, q] - c[r, q]
                    dist += dd * dd
                v = u[r] * dist
                if v < best:
                    best = v
                    jb = r
            for q in range(d):
                c[jb, q] += eta * (X[i, q] - c[jb, q])
            u[jb] += 1.0
            if ep == n_epochs - 1:
                wins[jb] += 1
    return c, wins
