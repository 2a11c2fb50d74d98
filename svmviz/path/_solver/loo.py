"""Leave-one-out along the path: homotopy refits of E ∪ L (Loosli & Canu 2006, "Leave-one-out evaluation").

At a point of the path only the points with α_i > 0 need refitting (a point of R leaves α unchanged).
Each refit drives α_i to 0 from the full solution along a one-dimensional path (:func:`_loo_homotopy`,
the paper's warm start), stepping with the path's own step routine
(:func:`svmviz.path._solver.events.advance`); a refit whose piece fails, or whose result violates the KKT
conditions, is redone by a warm-started Simple-ν-SVM solve (:func:`_loo_refit_asqp`). Refits are
independent: :func:`loo_refits_parallel` spreads them over ``numba.get_num_threads()`` Python threads.

Same λ (clipped to the reduced set's 2·min(n₊, n₋)) and the same scaling G = YKY/m as the full
problem; thresholds follow libsvm's convention (:func:`_mid_thresholds`).
"""
from __future__ import annotations

import numpy as np
from ..._jit import njit

from .asqp import HIT_ROW, asqp, nu_qp_from, path_work
from .config import (ALPHA_EPS, DEP_TOL, HOMOTOPY_EXACT_S_EVERY, HOMOTOPY_STEPS_PER_POINT, HOMOTOPY_STEPS_SLACK,
                     LOO_KKT_ACCEPT, LOO_NUMERICAL, LOO_OK, LOO_QP_FAILED, LOO_REFINE_PASSES, MASS_RESIDUAL_RTOL,
                     NO_POINT, QP_MAX_ITER, QP_OK, REFINE_PASSES, RHO_ZERO)
from .events import advance, max_zero_steps
from .kkt import (add_column, base_without, exact_s, first_free, gram_scale, interval_thresholds, kkt_tol, minv_add,
                  minv_build, minv_refresh, n_positive, qp_bounds, sync_working_set, tie_tolerance)


@njit(cache=True)
def _mid_thresholds(y, x, s, skip, t):
    """Thresholds of a leave-``skip``-out solution (libsvm's convention,
    :func:`svmviz.path._solver.kkt.interval_thresholds`), α within ALPHA_EPS of a bound counting as bound."""
    interval_thresholds(y, x, s, np.zeros(0, np.bool_), skip, ALPHA_EPS, np.inf, np.inf, t)


@njit(cache=True)
def _loo_values(s_i, y_i, t0, t1, gs, lam):
    """(y_i ŷ_i, y_i ŷ_i − ρ) of a leave-i-out solution with s_i = (Gx)_i and thresholds t0, t1; both 0
    where ρ = 0 (the leave-i-out classifier is f ≡ 0, see ``RHO_ZERO``)."""
    b = (t1 - t0) * 0.5
    rho = (t0 + t1) * 0.5
    if abs(rho) <= kkt_tol(RHO_ZERO, gs, lam):
        return 0.0, 0.0
    yf = s_i + y_i * b
    return yf, yf - rho


@njit(cache=True)
def _reduced_half(y_i, n, npos, lam):
    """(λ/2, T): the class sums of the full problem and of the problem without a point of label
    ``y_i``, T = min(λ/2, n_c − 1, n_o) (λ clipped to the reduced set's 2·min(n₊, n₋))."""
    n_c = (npos if y_i > 0 else n - npos) - 1
    n_o = n - npos if y_i > 0 else npos
    half = 0.5 * lam
    return half, min(half, float(n_c), float(n_o))


@njit(cache=True)
def _homotopy_pivots(y, x, sx, i, R0, R1, t, piv):
    """Thresholds and one pivot per class for a piece of the homotopy: the mean of s over the free
    points (not i), else the end of the class's optimal interval that lets it move the way its class
    sum must go (``R_c``). Returns False if a class has no point to move."""
    n = x.shape[0]
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
            return False
        piv[c] = f
        t[c] = sx[f]
    return True


@njit(cache=True)
def _loo_homotopy(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter, max_steps,
                  Minv0, Mb0, widx0, nw0, x, sx, d, gd, lo, hi, g, tied, want, members, Minv, Mb, widx, pos,
                  box_lo, box_hi, work, skip):
    """Leave-i-out solution by driving α_i to 0 along a one-dimensional path (Loosli & Canu 2006).

    Parameter τ ∈ [0, 1]: α_i = (1 − τ) α_i⁰ and both class sums go linearly from λ/2 to
    T = min(λ/2, n_c − 1, n_o) (λ clipped to the reduced set's 2·min(n₊, n₋)). At τ = 0 the full
    solution is optimal for the problem with α_i fixed; the optimum is piecewise linear in τ, and
    each piece is a derivative QP exactly like the path's (``asqp`` with point i as a fixed
    variable carrying the right-hand side −G_{:,i} α_i⁰), with the same four kinds of events. Usually
    a handful of pieces, each O(m·|W|), instead of a cold active-set solve.

    ``x`` and ``sx`` (= Gx) hold the result (x_i = 0). Returns (ok, steps): ok False when a piece
    failed (the caller then falls back to an active-set solve warm-started from the full solution).
    """
    n = K.shape[0]
    half, T = _reduced_half(y[i], n, npos, lam)
    a_i = alpha[i]
    R0 = T - half
    R1 = T - half
    if y[i] > 0:
        R0 += a_i
    else:
        R1 += a_i
    for j in range(n):
        x[j] = alpha[j]
        sx[j] = s[j]
        tied[j] = False
        pos[j] = NO_POINT
    # working set: the base (free points of the full solution), without i
    ok, nw = base_without(y, i, Minv0, Mb0, widx0, nw0, Minv, Mb, widx, pos)
    if not ok:  # start from an empty W: the first update rebuilds it
        for k in range(nw):
            pos[widx[k]] = NO_POINT
        nw = np.int64(0)
    tolg = tie_tolerance(s, tol, gs, lam)  # as in the path (follow_path)
    tau = 0.0
    steps = 0
    n_zero = np.int64(0)
    max_zero = max_zero_steps(n)
    t = np.empty(2)
    piv = np.empty(2, np.int64)
    while True:
        if not _homotopy_pivots(y, x, sx, i, R0, R1, t, piv):
            return False, steps
        qp_bounds(y, x, sx, t, tied, tolg, g, lo, hi, want)  # its want: set below
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
        ok, nw = sync_working_set(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members)
        if not ok:
            return False, steps
        # ---- derivative QP: d_i = −α_i⁰ fixed, class sums of the others R_c, started on the pivots
        d[i] = -a_i
        add_column(K, y, inv_m, gd, i, -a_i)
        d[piv[0]] += R0
        add_column(K, y, inv_m, gd, piv[0], R0)
        d[piv[1]] += R1
        add_column(K, y, inv_m, gd, piv[1], R1)
        qst, nw, mu0, mu1, it = asqp(K, y, inv_m, d, gd, lo, hi, Minv, Mb, widx, pos, nw, tol * gs, max_qp_iter,
                                     np.int64(LOO_REFINE_PASSES), work, skip, np.int64(-1), DEP_TOL,
                                     np.bool_(False))
        if qst != QP_OK:
            return False, steps
        dnorm = 0.0
        for j in range(n):
            if j != i:
                dnorm = max(dnorm, abs(d[j]))
        # ---- step to the nearest event, or to τ = 1
        h, at_end, n_zero, ok = advance(y, x, sx, d, gd, -mu0, -mu1, g, lo, hi, box_lo, box_hi, widx, pos, nw,
                                        1.0 - tau, 1.0, dnorm, tol * gs, tied, i, n_zero, max_zero, work[HIT_ROW])
        if not ok:
            return False, steps
        tau = 1.0 if at_end else tau + h
        x[i] = 0.0 if at_end else a_i * (1.0 - tau)
        steps += 1
        if at_end:
            break
        if steps >= max_steps:
            return False, steps
        if steps % HOMOTOPY_EXACT_S_EVERY == 0:
            exact_s(K, y, inv_m, x, sx)
    return True, steps


@njit(cache=True)
def _rebalance_class(K, y, inv_m, x, grad, fixed, sgn, target, half):
    """Bring the sum of class ``sgn`` to ``target``: up onto its free points, then onto its α = 0
    points of smallest gradient; down by scaling its α > 0 (``grad = Gx`` follows)."""
    n = x.shape[0]
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
                add_column(K, y, inv_m, grad, j, add)
                delta -= add
        while delta > MASS_RESIDUAL_RTOL * max(1.0, half):
            best = np.int64(NO_POINT)
            for j in range(n):
                if y[j] == sgn and not fixed[j] and x[j] <= 0.0:
                    if best < 0 or grad[j] < grad[best]:
                        best = j
            if best < 0:
                break
            add = min(1.0, delta)
            x[best] = add
            add_column(K, y, inv_m, grad, best, add)
            delta -= add
    elif delta < 0.0:
        f = target / cur
        for j in range(n):
            if y[j] == sgn and x[j] > 0.0:
                old = x[j]
                x[j] = old * f
                add_column(K, y, inv_m, grad, j, x[j] - old)


@njit(cache=True)
def _loo_refit_asqp(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter,
                    Minv0, Mb0, widx0, nw0, ok0, x, grad, fixed, lo, hi, Minv, Mb, widx, pos, work, skip):
    """Fallback leave-i-out refit: a Simple-ν-SVM active-set solve warm-started from the full solution
    with α_i's mass moved to the free points of its class (then to the α = 0 points with the
    smallest g). ``x``, ``grad`` hold the result. Returns the ``asqp`` status."""
    n = K.shape[0]
    half, target = _reduced_half(y[i], n, npos, lam)
    for j in range(n):
        x[j] = alpha[j]
        grad[j] = s[j]
        fixed[j] = False
        lo[j] = 0.0
        hi[j] = 1.0
        pos[j] = NO_POINT
    fixed[i] = True
    hi[i] = 0.0
    x[i] = 0.0
    add_column(K, y, inv_m, grad, i, -alpha[i])
    _rebalance_class(K, y, inv_m, x, grad, fixed, 1.0, target, half)
    _rebalance_class(K, y, inv_m, x, grad, fixed, -1.0, target, half)
    use_base = ok0
    nw = np.int64(0)
    if use_base:
        use_base, nw = base_without(y, i, Minv0, Mb0, widx0, nw0, Minv, Mb, widx, pos)
        if use_base:
            for j in range(n):
                if x[j] > 0.0 and x[j] < 1.0 and pos[j] < 0 and not fixed[j]:
                    oka, nw = minv_add(K, y, inv_m, Minv, Mb, widx, pos, nw, j, DEP_TOL)
    if use_base:
        st, nw, mu0, mu1, itq = asqp(K, y, inv_m, x, grad, lo, hi, Minv, Mb, widx, pos, nw, kkt_tol(tol, gs, lam),
                                     max_qp_iter, np.int64(REFINE_PASSES), work, skip, np.int64(-1), DEP_TOL,
                                     np.bool_(False))
    else:
        for k in range(nw):
            pos[widx[k]] = NO_POINT
        st, nw, t0, t1 = nu_qp_from(K, y, inv_m, x, grad, fixed, Minv, Mb, widx, pos, np.int64(0),
                                    kkt_tol(tol, gs, lam), max_qp_iter, work, skip)
    return st


@njit(cache=True)
def _loo_base(K, y, inv_m, alpha, s, Minv0, Mb0, widx0, pos0, members):
    """The working set every refit starts from: the free points of the full solution (plus, for a
    class without one, its α = 0 point of smallest s), factorized once and refreshed from scratch.
    Returns (ok, nw0)."""
    n = K.shape[0]
    nmem = np.int64(0)
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        first = first_free(y, alpha, sgn)
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
    ok0, nw0 = minv_build(K, y, inv_m, Minv0, Mb0, widx0, pos0, np.int64(0), members, nmem, DEP_TOL)
    if ok0:
        minv_refresh(K, y, inv_m, Minv0, Mb0, widx0, nw0)
    return ok0, nw0


@njit(cache=True)
def _kkt_accepts(y, x, sx, i, tt, tolg):
    """Whether a leave-i-out solution satisfies the KKT conditions to LOO_KKT_ACCEPT·tolg."""
    for j in range(x.shape[0]):
        if j == i:
            continue
        gj = sx[j] - (tt[0] if y[j] > 0 else tt[1])
        if (x[j] <= 0.0 and gj < -LOO_KKT_ACCEPT * tolg) or (x[j] >= 1.0 and gj > LOO_KKT_ACCEPT * tolg) or (
                x[j] > 0.0 and x[j] < 1.0 and abs(gj) > LOO_KKT_ACCEPT * tolg):
            return False
    return True


@njit(cache=True, nogil=True)
def _loo_chunk(K, y, inv_m, lam, npos, alpha, s, gs, tol, max_qp_iter, Minv0, Mb0, widx0, nw0, ok0,
               idx, lo_k, hi_k, yf, yg, status, steps, homotopy, ws):
    """Refit the points ``idx[lo_k:hi_k]`` (each needs α_i > 0), with work arrays of its own: ``ws``,
    :func:`svmviz.path._solver.asqp.path_work`'s tuple (allocated by the caller, in Python)."""
    n = K.shape[0]
    Minv, Mb, widx, pos, d, gd, lo, hi, g, tied, want, members, box_lo, box_hi, work, skip = ws
    x = np.empty(n)
    sx = np.empty(n)
    fixed = np.zeros(n, np.bool_)
    tt = np.empty(2)
    max_steps = HOMOTOPY_STEPS_PER_POINT * n + HOMOTOPY_STEPS_SLACK
    for q in range(lo_k, hi_k):
        i = idx[q]
        ok = False
        nst = 0
        if ok0 and homotopy:
            ok, nst = _loo_homotopy(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter, max_steps,
                                    Minv0, Mb0, widx0, nw0, x, sx, d, gd, lo, hi, g, tied, want, members,
                                    Minv, Mb, widx, pos, box_lo, box_hi, work, skip)
        if ok:
            # the solution must satisfy the KKT conditions (to the path's tolerance) or be refitted
            _mid_thresholds(y, x, sx, i, tt)
            ok = _kkt_accepts(y, x, sx, i, tt, tie_tolerance(sx, tol, gs, lam))
        st = LOO_OK
        if not ok:
            nst = -1
            r = _loo_refit_asqp(K, y, inv_m, i, lam, npos, alpha, s, gs, tol, max_qp_iter,
                                Minv0, Mb0, widx0, nw0, ok0, x, sx, fixed, lo, hi, Minv, Mb, widx, pos, work, skip)
            st = LOO_OK if r == QP_OK else (LOO_QP_FAILED if r == QP_MAX_ITER else LOO_NUMERICAL)
            _mid_thresholds(y, x, sx, i, tt)
        for k in range(n):
            pos[k] = NO_POINT
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
    exact_s(K, y, inv_m, alpha, s)
    t = np.zeros(2)
    _mid_thresholds(y, alpha, s, np.int64(NO_POINT), t)
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
    """Shared part of :func:`loo_refits`: the values of the points not refitted, the base working
    set and the list of points to refit."""
    n = K.shape[0]
    inv_m = 1.0 / n
    gs = gram_scale(K, inv_m)
    s, yf, yg = _loo_prepare(K, y, alpha, lam, gs)
    Minv0 = np.empty((n + 2, n + 2))  # only the leading (|W| + 2)² blocks are used (written first)
    Mb0 = np.empty((n + 2, n + 2))
    widx0 = np.empty(n, np.int64)
    pos0 = -np.ones(n, np.int64)
    members = np.empty(n, np.int64)
    ok0, nw0 = _loo_base(K, y, inv_m, alpha, s, Minv0, Mb0, widx0, pos0, members)
    refit = np.zeros(n, np.bool_)
    nref = 0
    for i in range(n):
        if alpha[i] > 0.0:
            refit[i] = True
            members[nref] = i
            nref += 1
    return gs, s, yf, yg, Minv0, Mb0, widx0, ok0, nw0, refit, members[:nref].copy()


def loo_refits(K, y, alpha, lam, tol, max_qp_iter, homotopy=True):
    """Leave-one-out decision values at one point of the path.

    ``alpha`` is the full solution at ``lam``. Only points with α_i > 0 (E ∪ L) are refitted — a
    point of R leaves α unchanged — each by :func:`_loo_homotopy` (α_i driven to 0 from the full
    solution), falling back to a warm-started active-set solve if a piece fails or its result
    violates the KKT conditions (``homotopy=False``: that solve only, the previous method, kept as
    a check). Same λ (clipped to the feasible 2·min(n₊, n₋) of the reduced set) and same scaling
    G = YKY/m as the full problem. Thresholds follow libsvm's convention (:func:`_mid_thresholds`).

    Returns (yg (m,) = y_i ŷ_i − ρ^{[−i]} (the leave-i-out margin residual g), yf (m,) = y_i ŷ_i,
    refit (m,) bool, status (m,) int (LOO_*), steps (m,) int: homotopy pieces per refit, −1 =
    fallback).
    """
    n = K.shape[0]
    npos = n_positive(y)
    gs, s, yf, yg, Minv0, Mb0, widx0, ok0, nw0, refit, idx = _loo_setup(K, y, alpha, lam)
    status = np.zeros(n, np.int64)
    steps = np.zeros(n, np.int64)
    _loo_chunk(K, y, 1.0 / n, lam, npos, alpha, s, gs, tol, max_qp_iter, Minv0, Mb0, widx0, nw0, ok0,
               idx, np.int64(0), np.int64(idx.shape[0]), yf, yg, status, steps, bool(homotopy), path_work(np.int64(n)))
    return yg, yf, refit, status, steps


@njit(cache=True)
def _interleave(idx, n_chunks):
    """``idx`` in ``n_chunks`` interleaved groups (refit costs vary along the index order), stored
    contiguously: (perm, bounds), group c = perm[bounds[c]:bounds[c + 1]]."""
    nref = idx.shape[0]
    nc = max(1, min(n_chunks, nref))
    perm = np.empty(nref, np.int64)
    bounds = np.empty(nc + 1, np.int64)
    q = 0
    for c in range(nc):
        bounds[c] = q
        for k in range(c, nref, nc):
            perm[q] = idx[k]
            q += 1
    bounds[nc] = nref
    return perm, bounds


def loo_refits_parallel(K, y, alpha, lam, tol, max_qp_iter, n_chunks):
    """:func:`loo_refits` (homotopy) with the refits spread over ``numba.get_num_threads()`` threads:
    ``n_chunks`` interleaved groups of points, each refitted by :func:`_loo_chunk` (which releases
    the GIL) with work arrays of its own (refits are independent).

    Python threads rather than a ``prange`` loop: numba's parallel compilation of this function cost
    more on the first visit of the path page than its threads gave back (the refits themselves are
    the same compiled code either way). Callers serialise calls (``svmviz._parallel.PARALLEL_LOCK``).
    """
    import numba

    from ..._parallel import task_pool

    n = K.shape[0]
    npos = n_positive(y)
    gs, s, yf, yg, Minv0, Mb0, widx0, ok0, nw0, refit, idx = _loo_setup(K, y, alpha, lam)
    status = np.zeros(n, np.int64)
    steps = np.zeros(n, np.int64)
    perm, bounds = _interleave(idx, np.int64(n_chunks))

    def run(c):
        _loo_chunk(K, y, 1.0 / n, lam, npos, alpha, s, gs, tol, max_qp_iter, Minv0, Mb0, widx0, nw0, ok0,
                   perm, bounds[c], bounds[c + 1], yf, yg, status, steps, True, path_work(np.int64(n)))

    nc = bounds.shape[0] - 1
    with task_pool(max(1, min(nc, numba.get_num_threads()))) as pool:
        for f in [pool.submit(run, c) for c in range(nc)]:
            f.result()
    return yg, yf, refit, status, steps
