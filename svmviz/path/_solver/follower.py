"""The path follower: ``follow_path``, the exact ν-SVM regularization path from λ = 0⁺ to λ_max.

Problem (Loosli & Canu 2006, "Dual"), with ``m`` points::

    min_α ½ α'Gα   s.t.  α'1 = λ,  α'y = 0,  0 ≤ α_i ≤ 1,     G_ij = y_i y_j k(x_i, x_j) / m.

Both equality constraints together say that each class carries half of λ: Σ_{y_i = c} α_i = λ/2.

Path following (Loosli & Canu 2006, Summary). At a breakpoint the solution α(λ) is known. Its right
derivative ``d = dα/dλ`` solves the *derivative QP*

    min ½ d'Gd   s.t. Σ_{y_i=c} d_i = ½ (each class),  d_i free on E,
                      d_i ≥ 0 for "tied" points with α_i = 0, g_i = 0,
                      d_i ≤ 0 for tied points with α_i = 1, g_i = 0,   d_i = 0 for all others,

whose multipliers are ``dt_c = dt_c/dλ``. In the generic case (one point enters or leaves E) this is
the linear system ``[[G_E, y_E, −1], [y_E', 0, 0], [1', 0, 0]] η = (0, 0, 1)`` of Loosli & Canu
2006 ("Linear system to solve"); solving it as a QP over the tied points
(:func:`svmviz.path._solver.asqp.asqp`) is what keeps the path exact when several points reach an event
at once (ties, duplicated points) — the point the paper warns about ("if a point is missed, the path
is left"). The step to the next event is :func:`svmviz.path._solver.events.advance`.

Where α is not unique (dependent points, :mod:`svmviz.path._solver.kkt`) f, b and ρ still are. When a class
has no point strictly inside the box the thresholds are not unique (b and ρ jump); the path takes the
end of the optimal interval that lets the class continue (``t_c = min_{α_i=0, y_i=c} s_i``) and
records the jump as two breakpoints at the same λ.

Path lost. At every breakpoint the KKT conditions are checked on ``s = Gα``; a violation beyond
the tolerance triggers a correction (a Simple-ν-SVM solve at the current λ, warm-started from the
current groups); if that fails too the kernel stops with ``STATUS_LOST`` and a ``LOST_*`` reason
(:mod:`svmviz.path._solver.config`).
"""
from __future__ import annotations

import numpy as np

from ..._jit import njit
from ..._pages import empty_in_small_pages

from .asqp import HIT_ROW, asqp, nu_qp_from, path_work
from .config import (BREAKPOINT_MAP_MIN_BYTES, CAPACITY_EXTRA, CAPACITY_MIN, CAPACITY_PER_POINT, CLASS_SUM_FIX_RTOL,
                     CORRECTION_SUM_RTOL, DEP_TOL, DEP_TOL_RETRY, DEPENDENT_SKIP_FACTOR, DIRECTION_RESIDUAL_RTOL,
                     DIRECTION_SUM_RTOL, KKT_CORRECT_FACTOR, LAMBDA_SNAP_RTOL, LOST_CORRECTION,
                     LOST_DIRECTION_RESIDUAL, LOST_DIRECTION_SOLVE, LOST_NO_PIVOT, LOST_NO_PROGRESS,
                     LOST_NONE, LOST_WORKING_SET, MINV_REFRESH_EVERY, NO_POINT, QP_NUMERICAL, QP_OK,
                     REFINE_PASSES, SETTLE_DRIFT, SETTLE_PRICE_FACTOR, STATUS_LOST, STATUS_MAX_BREAKPOINTS,
                     STATUS_OK, THRESHOLD_JUMP_RTOL)
from .events import advance, max_zero_steps
from .kkt import (add_column, exact_s, first_free, gram_scale, interval_thresholds, kkt_tol, kkt_violation,
                  minv_refresh, minv_remove, n_positive, qp_bounds, rebuild_working_set, rebuild_working_set_pivoted,
                  sync_working_set, thresholds, tie_tolerance, tie_tolerance_of)


@njit(cache=True)
def _record(lam_out, alpha_out, t_out, nb, lam, alpha, t):
    """Append a breakpoint (the arrays grow by half when full). Returns the arrays and the new count."""
    m = alpha_out.shape[1]
    if nb >= lam_out.shape[0]:
        cap = lam_out.shape[0] + max(1, lam_out.shape[0] // 2)  # 1.5×: old and new arrays coexist here
        l2 = np.empty(cap)
        a2 = np.empty((cap, m))
        t2 = np.empty((cap, 2))
        # element loops, not slice assignments: those compile numba's shape-mismatch error path with
        # its message formatting — seconds of the path follower's first compilation
        for k in range(nb):
            l2[k] = lam_out[k]
            t2[k, 0] = t_out[k, 0]
            t2[k, 1] = t_out[k, 1]
            for i in range(m):
                a2[k, i] = alpha_out[k, i]
        lam_out, alpha_out, t_out = l2, a2, t2
    lam_out[nb] = lam
    for i in range(m):
        alpha_out[nb, i] = alpha[i]
    t_out[nb, 0] = t[0]
    t_out[nb, 1] = t[1]
    return lam_out, alpha_out, t_out, nb + 1


@njit(cache=True)
def _jumped(t, t_ref, gs, lam):
    """Whether the thresholds ``t`` differ from ``t_ref`` by more than rounding: a jump of b, ρ."""
    return (abs(t[0] - t_ref[0]) > kkt_tol(THRESHOLD_JUMP_RTOL, gs, lam)
            or abs(t[1] - t_ref[1]) > kkt_tol(THRESHOLD_JUMP_RTOL, gs, lam))


@njit(cache=True)
def _snap_lambda(y, x, lam):
    """A class without free points carries exactly (number of its α = 1) = λ/2: λ is then an even
    integer, which the accumulated steps only approximate. Snap it (within LAMBDA_SNAP_RTOL)."""
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
        if not free and abs(lam - 2.0 * cnt) <= LAMBDA_SNAP_RTOL * max(1.0, lam):
            return 2.0 * cnt
    return lam


@njit(cache=True, inline="always")
def _more_room(xi, i, up, best_up, down, best_down):
    """:func:`_scan_free`'s candidates of one class after point ``i`` (α = ``xi``): the free point
    with the most room up (1 − α) and down (α) so far."""
    if xi > 0.0 and xi < 1.0:
        if 1.0 - xi > up:
            up = 1.0 - xi
            best_up = i
        if xi > down:
            down = xi
            best_down = i
    return up, best_up, down, best_down


@njit(cache=True, inline="always")
def _scan_free(y, x, s, t):
    """One pass over the points after a step, for :func:`_settle` and :func:`_fix_class_sums`: whether
    each class has a free point (0 < α < 1), the drift ``max |s_i − t_c|`` over the free points, the
    class sums of α, and per class the free point with the most room up (1 − α) and down (α).

    Returns (free0, free1, drift, acc0, acc1, best0, best1, best2, best3, room0, room1, room2, room3):
    per class (+: 0, −: 1) its sum ``acc``, its point with most room up (best0, best2) and down
    (best1, best3) and that room. Sums and candidates in scalars, not small arrays: np.zeros / np.full
    compiled two numba overloads into the caller (0.2-0.3 s of CPU on an empty cache)."""
    free0 = False
    free1 = False
    drift = 0.0
    acc0 = 0.0
    acc1 = 0.0
    best0 = np.int64(NO_POINT)  # int64, not the literal -1 (add_column would be compiled for it)
    best1 = best0
    best2 = best0
    best3 = best0
    room0 = 0.0
    room1 = 0.0
    room2 = 0.0
    room3 = 0.0
    for i in range(x.shape[0]):
        xi = x[i]
        if y[i] > 0:
            acc0 += xi
            if xi > 0.0 and xi < 1.0:
                free0 = True
                drift = max(drift, abs(s[i] - t[0]))
            room0, best0, room1, best1 = _more_room(xi, i, room0, best0, room1, best1)
        else:
            acc1 += xi
            if xi > 0.0 and xi < 1.0:
                free1 = True
                drift = max(drift, abs(s[i] - t[1]))
            room2, best2, room3, best3 = _more_room(xi, i, room2, best2, room3, best3)
    return free0, free1, drift, acc0, acc1, best0, best1, best2, best3, room0, room1, room2, room3


@njit(cache=True)
def _apply_class_sums(K, y, inv_m, x, s, half, acc0, acc1, best0, best1, best2, best3, room0, room1, room2, room3):
    """Put each class sum back to ``half`` exactly: snapping points to a bound at a common step
    (within the event tolerance, times a possibly large |dα/dλ|) moves the sums by up to ~1e-9. The
    difference goes to the free point of the class with the most room; ``s`` follows. The sums and
    candidates are :func:`_scan_free`'s, taken on this ``x``."""
    for c in range(2):
        delta = half - (acc0 if c == 0 else acc1)
        if delta == 0.0 or abs(delta) > CLASS_SUM_FIX_RTOL * max(1.0, half):
            continue
        if c == 0:
            b, r = (best0, room0) if delta > 0.0 else (best1, room1)
        else:
            b, r = (best2, room2) if delta > 0.0 else (best3, room3)
        if b >= 0 and r > abs(delta):
            x[b] += delta
            add_column(K, y, inv_m, s, b, delta)


@njit(cache=True)
def _fix_class_sums(K, y, inv_m, x, s, half):
    """:func:`_apply_class_sums` on a fresh :func:`_scan_free` of ``x`` (after a settle's solve moved it;
    the scan's drift, against thresholds 0, is not read)."""
    _, _, _, acc0, acc1, b0, b1, b2, b3, r0, r1, r2, r3 = _scan_free(y, x, s, (0.0, 0.0))
    _apply_class_sums(K, y, inv_m, x, s, half, acc0, acc1, b0, b1, b2, b3, r0, r1, r2, r3)


@njit(cache=True, inline="always")  # see _follow's note on compile time
def _settle(K, y, inv_m, alpha, s, t, Minv, Mb, widx, pos, nw, scale, tol, box_lo, box_hi, max_iter, work, skip):
    """After a step where g has drifted off 0 on E (both classes with a free point and
    :func:`_scan_free`'s drift beyond SETTLE_DRIFT·scale): re-solve the ν-problem at the current λ by
    the Simple-ν-SVM active set, warm-started (its first iteration is a Newton correction of α on E;
    it also handles a point that the correction pushes across its bound). Returns nw.

    Drift comes from points that joined E with a tiny g ≠ 0 (ties are detected to a tolerance)
    and from the residuals of directions on a nearly singular G_EE (ρ ≈ 0: data almost separable
    in feature space); correcting before the breakpoint is recorded keeps every recorded α at the
    accuracy of a fresh solve.
    """
    # W = the free points: members that reached a bound leave (the active set re-adds what it needs)
    k = 0
    while k < nw:
        i = widx[k]
        if not (alpha[i] > 0.0 and alpha[i] < 1.0):
            ok, nw = minv_remove(Minv, Mb, widx, pos, nw, i)
            if not ok:
                return nw
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
        return nw
    exact_s(K, y, inv_m, alpha, s)
    st, nw, mu0, mu1, it = asqp(K, y, inv_m, alpha, s, box_lo, box_hi, Minv, Mb, widx, pos, nw,
                                SETTLE_PRICE_FACTOR * tol * scale, max_iter, np.int64(REFINE_PASSES), work, skip,
                                np.int64(-1), DEP_TOL, np.bool_(False))
    thresholds(y, alpha, s, t)
    return nw


@njit(cache=True, inline="always")  # see _follow's note on compile time
def _kkt_check(K, y, inv_m, alpha, s, t, lam, gs, tol, found):
    """The KKT check at a breakpoint on the violation ``found`` in s and t
    (:func:`svmviz.path._solver.kkt.thresholds`'). Returns (violation found (relative), whether the
    Simple-ν-SVM correction at λ is needed: the violation exceeds KKT_CORRECT_FACTOR·tol even with s
    recomputed exactly, whether s and t were recomputed so — the correction's start, or the path's
    if it is not needed)."""
    viol = found / kkt_tol(1.0, gs, lam)
    if not (viol > KKT_CORRECT_FACTOR * tol and lam > 0.0):
        return viol, False, False
    exact_s(K, y, inv_m, alpha, s)
    thresholds(y, alpha, s, t)
    viol2 = kkt_violation(y, alpha, s, t) / kkt_tol(1.0, gs, lam)
    return viol, viol2 > KKT_CORRECT_FACTOR * tol, True


@njit(cache=True)  # called by follow_path after the correction: compiled when a path needs one
def _correction_ok(K, y, inv_m, alpha, s, t, lam, gs, tol, qst):
    """After the Simple-ν-SVM correction (status ``qst``): s and t recomputed; whether the KKT
    conditions and the class sums λ/2 hold again."""
    exact_s(K, y, inv_m, alpha, s)
    thresholds(y, alpha, s, t)
    viol2 = kkt_violation(y, alpha, s, t) / kkt_tol(1.0, gs, lam)
    sp = 0.0
    sn = 0.0
    for i in range(alpha.shape[0]):
        if y[i] > 0:
            sp += alpha[i]
        else:
            sn += alpha[i]
    if (abs(sp - 0.5 * lam) > CORRECTION_SUM_RTOL * max(1.0, lam)
            or abs(sn - 0.5 * lam) > CORRECTION_SUM_RTOL * max(1.0, lam)):
        qst = QP_NUMERICAL
    return qst == QP_OK and not viol2 > KKT_CORRECT_FACTOR * tol


@njit(cache=True)
def _pivots(K, y, alpha, lam, g, lo, hi, want, piv):
    """The working set wanted for the derivative QP: ``want`` from :func:`qp_bounds` (the free points
    and the bound points that the last step brought to g = 0 — ``tied``: in the generic case they
    enter E, and entering them now saves the active set an iteration; one that should not is blocked
    at once), plus a pivot per class without one (its α = 0 point of smallest g that may move; at
    λ = 0 the closest pair of opposite classes in feature space, the start of the hull problem).
    ``piv`` gets one point per class. Returns False if a class has no point that can enter."""
    n = alpha.shape[0]
    piv[0] = NO_POINT
    piv[1] = NO_POINT
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        f = first_free(y, alpha, sgn)
        if f >= 0:
            piv[c] = f
            continue
        if lam == 0.0:
            continue  # chosen below as the closest pair
        best = -1
        for i in range(n):
            if y[i] == sgn and alpha[i] <= 0.0 and lo[i] < hi[i]:
                if best < 0 or g[i] < g[best]:
                    best = i
        if best < 0:
            return False
        piv[c] = best
        want[best] = True
    if lam == 0.0:
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
    return True


@njit(cache=True)
def _start_direction(K, y, inv_m, d, gd, piv):
    """A feasible start of the derivative QP: ½ on the pivot of each class (``gd = G d``)."""
    p0 = piv[0]
    p1 = piv[1]
    for i in range(d.shape[0]):
        d[i] = 0.0
    d[p0] = 0.5
    d[p1] = 0.5
    c0 = 0.5 * y[p0] * inv_m  # gd = ½ G[:, p0] + ½ G[:, p1] in one pass (add_column's arithmetic)
    c1 = 0.5 * y[p1] * inv_m
    for r in range(gd.shape[0]):
        gd[r] = c0 * y[r] * K[p0, r] + c1 * y[r] * K[p1, r]


@njit(cache=True)
def _direction_ok(y, d, gd, dt0, dt1, widx, nw, gs):
    """Residual check of a direction (a stale inverse shows here): G d = dt on W and class sums of d
    equal to ½. Returns (ok, max |d|).

    d is 0 outside W (the derivative QP moves only W's members; a member leaving W is put on its
    bound, 0), so one pass over W, without a branch per member (adding 0.0 leaves a sum as it is),
    instead of a pass over all m points: max |d| is the same number, the class sums differ from the
    sums in index order by rounding (they are compared with DIRECTION_SUM_RTOL = 1e-9)."""
    dnorm = 0.0
    res = 0.0
    cs0 = -0.5
    cs1 = -0.5
    for k in range(nw):
        i = widx[k]
        di = d[i]
        up = y[i] > 0
        dnorm = max(dnorm, abs(di))
        cs0 += di if up else 0.0
        cs1 += 0.0 if up else di
        res = max(res, abs(gd[i] - (dt0 if up else dt1)))
    good = (res <= DIRECTION_RESIDUAL_RTOL * gs * max(1.0, dnorm)
            and abs(cs0) <= DIRECTION_SUM_RTOL * max(1.0, dnorm) and abs(cs1) <= DIRECTION_SUM_RTOL * max(1.0, dnorm))
    return good, dnorm


@njit(cache=True, inline="always")  # see _follow's note on compile time
def _direction(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members, d, gd, lo, hi, gs, tol, max_qp_iter, work,
               skip, n_movable):
    """The path's direction d = dα/dλ (``gd = G d``) and the thresholds' slopes: the derivative QP.

    A direction whose residual is large is solved again on a refactorized inverse; if the solve
    breaks down (W nearly singular: K with eigenvalues near rounding), W is rebuilt treating nearly
    dependent points as dependent (DEP_TOL_RETRY): first in index order, and should that fail too,
    largest Schur complement first (:func:`svmviz.path._solver.kkt.rebuild_working_set_pivoted`: in
    index order, nearly dependent points can inflate the inverse until its dependency test reads
    rounding noise — usvc_B n = 500, σ = 0.2 was lost so). The index-order rebuild stays first so
    that the paths it recovers keep their breakpoints bitwise. Should the QP break down on that W as
    well, the last retry rebuilds it pivoted once more and lets the QP add a point only if its Schur
    complement itself (not its absolute value) is above DEP_TOL_RETRY of its diagonal: with DEP_TOL,
    points of Schur complements 1e-8 … 1e-11 of their diagonal, then noise of either sign, enter
    during the QP, the bordered matrix's condition passes 1e16 and the class sums of its solves fail
    (usvc_B n = 500, σ = 0.2, seeds 2 and 5 with the kernel's exp rounded as glibc's). Each retry runs only where
    the one before failed, so the paths an earlier one finds keep their breakpoints bitwise.
    ``n_movable``: the number of points with lo < hi (:func:`svmviz.path._solver.kkt.qp_bounds`'s).
    Returns (reason, nw, dt0, dt1, max |d|), reason LOST_NONE or why no direction was found.
    """
    qst = QP_OK
    good = False
    dt0 = 0.0
    dt1 = 0.0
    dnorm = 0.0
    for rebuild in range(4):
        qp_dep_tol = DEP_TOL_RETRY if rebuild == 3 else DEP_TOL
        qp_signed = np.bool_(rebuild == 3)
        if rebuild > 0:
            if rebuild == 1:
                okb, nw = rebuild_working_set(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members,
                                              DEP_TOL_RETRY)
            else:
                okb, nw = rebuild_working_set_pivoted(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members,
                                                      DEP_TOL_RETRY)
            if not okb:
                continue
            minv_refresh(K, y, inv_m, Minv, Mb, widx, nw)
        good = False
        _start_direction(K, y, inv_m, d, gd, piv)
        qst, nw, mu0, mu1, it = asqp(K, y, inv_m, d, gd, lo, hi, Minv, Mb, widx, pos, nw, tol * gs, max_qp_iter,
                                     np.int64(REFINE_PASSES), work, skip, n_movable, qp_dep_tol, qp_signed)
        if qst != QP_OK:
            continue
        dt0 = -mu0
        dt1 = -mu1
        for attempt in range(2):
            good, dnorm = _direction_ok(y, d, gd, dt0, dt1, widx, nw, gs)
            if good or attempt == 1:
                break
            minv_refresh(K, y, inv_m, Minv, Mb, widx, nw)
            _start_direction(K, y, inv_m, d, gd, piv)  # restart (feasible) with the refreshed inverse
            qst, nw, mu0, mu1, it = asqp(K, y, inv_m, d, gd, lo, hi, Minv, Mb, widx, pos, nw, tol * gs,
                                         max_qp_iter, np.int64(REFINE_PASSES), work, skip, n_movable, qp_dep_tol,
                                         qp_signed)
            dt0 = -mu0
            dt1 = -mu1
            if qst != QP_OK:
                break
        if qst == QP_OK and good:
            break
    if qst != QP_OK:
        return LOST_DIRECTION_SOLVE, nw, dt0, dt1, dnorm
    if not good:
        return LOST_DIRECTION_RESIDUAL, nw, dt0, dt1, dnorm
    return LOST_NONE, nw, dt0, dt1, dnorm


@njit(cache=True)
def _count_dependent(y, alpha, d, gd, dt0, dt1, lo, hi, pos, widx, nw, nfree, tol, gs, dnorm):
    """Free points left out of W (dependent) although their g moves off 0 (diagnostic). ``nfree``:
    the number of free points (:func:`svmviz.path._solver.kkt.thresholds`'s), −1 if unknown. When W
    holds them all (the rule: a dependent point is rare) the count is 0 without a pass over all
    points; else counted without branches."""
    infree = 0
    for k in range(nw):
        a = alpha[widx[k]]
        infree += (a > 0.0) & (a < 1.0)
    if infree == nfree:
        return 0
    cnt = 0
    big = DEPENDENT_SKIP_FACTOR * tol * gs * max(1.0, dnorm)
    for i in range(alpha.shape[0]):
        dg = gd[i] - (dt0 if y[i] > 0 else dt1)
        cnt += ((pos[i] < 0) & (lo[i] < hi[i]) & (d[i] == 0.0) & (alpha[i] > 0.0) & (alpha[i] < 1.0)
                & (abs(dg) > big))
    return cnt


PAUSED_FOR_CORRECTION = -1
"""``_follow``'s status when the path was left and the Simple-ν-SVM correction must run (never
returned by :func:`follow_path`, which runs it and resumes)."""
# the follower's scalar state between a pause and its resumption: int64 and float64 slots
_I_NB, _I_NW, _I_N_CORR, _I_N_DEP, _I_N_ZERO, _I_STEP, _I_RESUME, _I_OK, _N_INTS = range(9)
_F_LAM, _F_MAX_VIOL, _F_VIOL, _F_PRICE_TOL, _F_GS, _N_FLOATS = range(6)


@njit(cache=True)
def _follow(K, y, max_breakpoints, tol, refresh, max_qp_iter, lam_out, alpha_out, t_out, alpha, s, t, Minv, Mb,
            widx, pos, d, gd, lo, hi, g, tied, want, members, box_lo, box_hi, work, skip, nofix, piv, t_end, ints,
            floats):
    """The path follower's loop (:func:`follow_path`), from its state at λ = 0 (:func:`_start`)
    or from a pause (``ints[_I_RESUME]``: the correction has run, ``ints[_I_OK]`` whether it
    succeeded).

    Returns (lam_out, alpha_out, t_out, status, reason): the breakpoint arrays (reallocated as they
    grow; their first ``ints[_I_NB]`` rows are the breakpoints), STATUS_* or PAUSED_FOR_CORRECTION
    (the state saved in the arrays, ``ints`` and ``floats``), LOST_*.

    Compile time (the path page's first visit): the helpers called once here that wrap the
    active-set QP (``_settle``, ``_direction``) are inlined by numba (``inline='always'``) rather
    than compiled as functions of their own, each of which would optimise its own copy of the QP's
    code (about a seventh of the first compilation's CPU); inlining the smaller helpers as well
    gains nothing measurable.
    """
    n = K.shape[0]
    inv_m = 1.0 / n
    npos = n_positive(y)
    nneg = n - npos
    lam_max = 2.0 * min(npos, nneg)
    gs = gram_scale(K, inv_m)
    nb = ints[_I_NB]
    nw = ints[_I_NW]
    n_corr = ints[_I_N_CORR]
    n_dep = ints[_I_N_DEP]
    n_zero = ints[_I_N_ZERO]
    step_count = ints[_I_STEP]
    resume = ints[_I_RESUME] != 0
    ints[_I_RESUME] = 0
    lam = floats[_F_LAM]
    max_viol = floats[_F_MAX_VIOL]
    status = STATUS_OK
    reason = LOST_NONE
    max_zero = max_zero_steps(n)
    no_point = np.int64(NO_POINT)
    while True:
        if resume:  # back from the correction, which follow_path ran on the state saved below
            resume = False
            viol = floats[_F_VIOL]
            corrected = True
            fresh = True  # s and t recomputed (max |s| and the count of E below: unknown)
            smax = 0.0
            nfree = np.int64(-1)
            ok = ints[_I_OK] != 0
        else:
            # ---- thresholds (and a jump of b, ρ when a class has no free point) ---------------
            going, smax, nfree, found = thresholds(y, alpha, s, t)
            if not going:
                break  # a class is full: λ = λ_max
            if nb > 1 and _jumped(t, t_end, gs, lam):
                lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
            # ---- KKT check; if the path was left, a pause for the Simple-ν-SVM correction -----
            viol, need, fresh = _kkt_check(K, y, inv_m, alpha, s, t, lam, gs, tol, found)
            corrected = False
            ok = True
            if need:
                status = PAUSED_FOR_CORRECTION
                floats[_F_VIOL] = viol
                floats[_F_PRICE_TOL] = kkt_tol(tol, gs, lam)
                floats[_F_GS] = gs
                break
        if viol > max_viol:
            max_viol = viol
        if corrected:
            n_corr += 1
            if not ok:
                status = STATUS_LOST
                reason = LOST_CORRECTION
                break
            lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
        # ---- bounds of the derivative QP, working set: free points plus one pivot per class ---
        tolg = tie_tolerance(s, tol, gs, lam) if fresh else tie_tolerance_of(smax, tol, gs, lam)
        n_movable = qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi, want)
        if not _pivots(K, y, alpha, lam, g, lo, hi, want, piv):
            status = STATUS_LOST
            reason = LOST_NO_PIVOT
            break
        ok, nw = sync_working_set(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members)
        if not ok:
            status = STATUS_LOST
            reason = LOST_WORKING_SET
            break
        # ---- the derivative QP ------------------------------------------------------------------
        why, nw, dt0, dt1, dnorm = _direction(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members, d, gd,
                                              lo, hi, gs, tol, max_qp_iter, work, skip, n_movable)
        if why != LOST_NONE:
            status = STATUS_LOST
            reason = why
            break
        n_dep += _count_dependent(y, alpha, d, gd, dt0, dt1, lo, hi, pos, widx, nw, nfree, tol, gs, dnorm)
        # ---- step to the nearest event (Loosli & Canu 2006, Summary, four kinds) -------------------
        h, at_end, n_zero, ok = advance(y, alpha, s, d, gd, dt0, dt1, g, lo, hi, box_lo, box_hi, widx, pos,
                                        nw, lam_max - lam, lam, dnorm, tol * gs, tied, no_point, n_zero,
                                        max_zero, work[HIT_ROW])
        if not ok:
            status = STATUS_LOST
            reason = LOST_NO_PROGRESS
            break
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
            exact_s(K, y, inv_m, alpha, s)
        if step_count % MINV_REFRESH_EVERY == 0:
            minv_refresh(K, y, inv_m, Minv, Mb, widx, nw)
        if not at_end:  # the settle where g drifted on E, then the class sums put back to λ/2
            free0, free1, drift, acc0, acc1, b0, b1, b2, b3, r0, r1, r2, r3 = _scan_free(y, alpha, s, t)
            if free0 and free1 and not drift <= SETTLE_DRIFT * kkt_tol(1.0, gs, lam):
                nw = _settle(K, y, inv_m, alpha, s, t, Minv, Mb, widx, pos, nw, kkt_tol(1.0, gs, lam), tol, box_lo,
                             box_hi, max_qp_iter, work, skip)
                _fix_class_sums(K, y, inv_m, alpha, s, 0.5 * lam)
            else:  # α and s as scanned
                _apply_class_sums(K, y, inv_m, alpha, s, 0.5 * lam, acc0, acc1, b0, b1, b2, b3, r0, r1, r2, r3)
        t_end[0] = t[0]
        t_end[1] = t[1]
        if at_end:
            # the left limit (the thresholds the last segment ends with), then, where a class has no
            # free point at λ_max, a jump to the midpoint of its optimal interval (libsvm's choice)
            lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
            exact_s(K, y, inv_m, alpha, s)
            tt = np.empty(2)
            interval_thresholds(y, alpha, s, nofix, no_point, 0.0, t[0], t[1], tt)
            if _jumped(tt, t, gs, lam):
                lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, tt)
            break
        lam_out, alpha_out, t_out, nb = _record(lam_out, alpha_out, t_out, nb, lam, alpha, t)
        if nb >= max_breakpoints:
            status = STATUS_MAX_BREAKPOINTS
            break
    ints[_I_NB] = nb
    ints[_I_NW] = nw
    ints[_I_N_CORR] = n_corr
    ints[_I_N_DEP] = n_dep
    ints[_I_N_ZERO] = n_zero
    ints[_I_STEP] = step_count
    floats[_F_LAM] = lam
    floats[_F_MAX_VIOL] = max_viol
    return lam_out, alpha_out, t_out, status, reason


def _breakpoint_rows(rows, n):
    """An uninitialised (rows, n) float64 array in an anonymous private memory mapping of its own,
    in small pages.

    The α breakpoint array (``CAPACITY_PER_POINT·n`` rows: 1.6 GB of address space at n = 5000, of
    which a path writes ~80 %). numpy asks the kernel for transparent huge pages on large arrays
    (``madvise(MADV_HUGEPAGE)``): each first write then faults in and zeroes 2 MB, and the kernel
    compacts memory to find them — at banana n = 5000 (31278 breakpoints) three to four times the
    system time of 4 kB pages, and a peak RSS higher by a third without the copy of the returned rows. ``MADV_NOHUGEPAGE`` keeps that so where the
    system enables huge pages for every mapping. Pages never written still take no memory.
    """
    return empty_in_small_pages((rows, n))


def _start(K):
    """The follower's state at λ = 0 (α = 0, recorded as the first breakpoint): the breakpoint arrays,
    α, s, t, :func:`svmviz.path._solver.asqp.path_work`'s arrays, nofix, piv, t_end, and ``ints``,
    ``floats`` its scalars (the ``_I_*``, ``_F_*`` slots) — allocated here, in Python: as a compiled
    function it would add seconds to the first compilation (a CPython wrapper boxing 27 arrays). α's rows:
    :func:`_breakpoint_rows` from BREAKPOINT_MAP_MIN_BYTES on, else ``np.empty``."""
    n = K.shape[0]
    cap0 = max(CAPACITY_MIN, CAPACITY_PER_POINT * n + CAPACITY_EXTRA)
    lam_out = np.empty(cap0)
    big = cap0 * n * 8 >= BREAKPOINT_MAP_MIN_BYTES
    alpha_out = _breakpoint_rows(cap0, n) if big else np.empty((cap0, n))
    t_out = np.empty((cap0, 2))
    lam_out[0] = 0.0
    alpha_out[0] = 0.0
    t_out[0] = 0.0
    ints = np.zeros(_N_INTS, np.int64)
    ints[_I_NB] = 1
    return [lam_out, alpha_out, t_out, np.zeros(n), np.zeros(n), np.zeros(2), *path_work(np.int64(n)),
            np.zeros(n, np.bool_), np.empty(2, np.int64), np.zeros(2), ints, np.zeros(_N_FLOATS)]


def follow_path(K, y, max_breakpoints, tol, refresh, max_qp_iter):
    """Follow the ν-SVM path from λ = 0⁺ (sparse end) to λ_max = 2·min(n₊, n₋).

    Parameters: K (m, m) kernel matrix (C-contiguous float64), y (m,) ±1 (float64), max_breakpoints,
    tol (relative tolerance, e.g. 1e-9), refresh (recompute s = Gα exactly every this many
    breakpoints), max_qp_iter.

    Returns (lambdas (T,), alphas (T, m), thresholds (T, 2) = (t₊, t₋), status, n_corrections,
    max_kkt_violation (relative), n_dependent_skips, reason) — ``status`` one of STATUS_*,
    ``reason`` why a lost path was lost (LOST_*, words in ``LOST_REASONS``), LOST_NONE otherwise.

    The loop is the kernel :func:`_follow`. Where the KKT check finds the path left (rare: none of
    the page's data sets at n = 200 and 500, three seeds each), it pauses; the Simple-ν-SVM
    correction (:func:`svmviz.path._solver.asqp.nu_qp_from`) and its check (:func:`_correction_ok`)
    run here on the loop's state and the loop resumes — the same arithmetic as the correction inside
    the loop (the paths are bitwise those of the follower before the split, with and without
    corrections), so that the correction is not compiled into the follower: numba compiles it on the
    first path that needs it. The follower's first compilation (the path page's first visit on a
    fresh install) is about 10 % shorter for it, at the same run time.
    """
    state = _start(K)
    rows0 = state[1]
    inv_m = 1.0 / K.shape[0]
    args = (K, y, np.int64(max_breakpoints), float(tol), np.int64(refresh), np.int64(max_qp_iter))
    while True:
        lam_out, alpha_out, t_out, status, reason = _follow(*args, *state)
        state[0], state[1], state[2] = lam_out, alpha_out, t_out
        alpha, s, t = state[3], state[4], state[5]
        Minv, Mb, widx, pos = state[6], state[7], state[8], state[9]
        work, skip, nofix, ints, floats = state[20], state[21], state[22], state[-2], state[-1]
        if status != PAUSED_FOR_CORRECTION:
            break
        qst, nw, _, _ = nu_qp_from(K, y, inv_m, alpha, s, nofix, Minv, Mb, widx, pos, ints[_I_NW],
                                   floats[_F_PRICE_TOL], np.int64(max_qp_iter), work, skip)
        ints[_I_NW] = nw
        ints[_I_OK] = _correction_ok(K, y, inv_m, alpha, s, t, floats[_F_LAM], floats[_F_GS], float(tol), qst)
        ints[_I_RESUME] = 1
    nb = int(ints[_I_NB])
    alphas = alpha_out[:nb]  # a view of the mapping keeps it whole (its unwritten rows take no memory)
    if alpha_out.ctypes.data != rows0.ctypes.data or rows0.nbytes < BREAKPOINT_MAP_MIN_BYTES:
        alphas = alphas.copy()  # np.empty's rows, or rows the follower reallocated: as before
    return (lam_out[:nb].copy(), alphas, t_out[:nb].copy(), int(status), int(ints[_I_N_CORR]),
            float(floats[_F_MAX_VIOL]), int(ints[_I_N_DEP]), int(reason))
