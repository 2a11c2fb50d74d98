"""Primal active-set QP at fixed class sums (the Simple-ν-SVM step of Loosli & Canu 2006).

``min ½ x'Gx  s.t.  Σ_{y_i = c} x_i fixed (per class),  lo ≤ x ≤ hi``, on the bordered inverse of
:mod:`svmviz.path._solver.kkt`. It solves the path's derivative QPs (direction ``d = dα/dλ`` over the tied
points), its corrections when the KKT conditions were lost, the leave-one-out homotopy's pieces and
the leave-one-out fallback refits.

Each iteration solves the equality-constrained problem on W (iteratively refined against the true
matrix), steps towards its solution until a member of W blocks (:func:`svmviz.path._solver.events.ratio_test`,
the ratio test the paths step with), and drops the blocking member exactly onto its bound — or, at
the working set's optimum, prices the variables outside W and lets the most violating one in.
"""
from __future__ import annotations

import numpy as np
from ..._jit import njit

from .config import (DEP_TOL, DIRECTION_SUM_RTOL, DIRECTION_TINY, NO_POINT, QP_MAX_ITER, QP_NUMERICAL,
                     QP_OK, REFINE_PASSES, REFINE_TARGET, TINY)
from .events import ratio_test
from .kkt import add_column, interval_thresholds, minv_add_tested, minv_build, minv_refresh, minv_remove


@njit(cache=True, inline="always")
def _add_rows(acc, M, r0, coef, nrows, length):
    """``acc[a] += M[r0 + b, a] · coef[b]`` for b < nrows (in that order), a < length: a sum of scaled
    rows, four rows per sweep of ``acc``.

    Each element's additions run in the order of one row at a time (``((acc + t0) + t1) + …``), so
    the numbers are those of the row-by-row loop; a sweep loads and stores ``acc`` once per four rows
    instead of once per row — that load and store (and each sweep's overhead: the vector loop's
    alias checks and its scalar remainder), not the multiply-add, bounded the row-by-row loop (issue
    17: the working-set solve was 4.0 of the path's 18.4 µs per breakpoint at m = 500, 2.9 after).
    Eight rows per sweep measured slower (p = 71: 927 against 853 cycles; the residual's version with
    absolute values 2.4× slower: LLVM vectorises it no more).
    """
    b = 0
    while b + 4 <= nrows:
        c0, c1, c2, c3 = coef[b], coef[b + 1], coef[b + 2], coef[b + 3]
        R0, R1, R2, R3 = M[r0 + b], M[r0 + b + 1], M[r0 + b + 2], M[r0 + b + 3]
        for a in range(length):
            acc[a] = (((acc[a] + R0[a] * c0) + R1[a] * c1) + R2[a] * c2) + R3[a] * c3
        b += 4
    while b < nrows:
        c0 = coef[b]
        R0 = M[r0 + b]
        for a in range(length):
            acc[a] += R0[a] * c0
        b += 1


@njit(cache=True, inline="always")
def _add_rows_abs(acc, accabs, M, coef, nrows, c0_, length):
    """``acc[k] += M[b, c0_ + k] · coef[b]`` and ``accabs[k] += |M[b, c0_ + k] · coef[b]|`` for b < nrows
    (in that order), k < length: :func:`_add_rows` with the terms' absolute values beside (the
    residual of a working-set solve and its scale), four rows per sweep."""
    b = 0
    while b + 4 <= nrows:
        c0, c1, c2, c3 = coef[b], coef[b + 1], coef[b + 2], coef[b + 3]
        R0, R1, R2, R3 = M[b], M[b + 1], M[b + 2], M[b + 3]
        for k in range(length):
            v0 = R0[c0_ + k] * c0
            v1 = R1[c0_ + k] * c1
            v2 = R2[c0_ + k] * c2
            v3 = R3[c0_ + k] * c3
            acc[k] = (((acc[k] + v0) + v1) + v2) + v3
            accabs[k] = (((accabs[k] + abs(v0)) + abs(v1)) + abs(v2)) + abs(v3)
        b += 4
    while b < nrows:
        c0 = coef[b]
        R0 = M[b]
        for k in range(length):
            v0 = R0[c0_ + k] * c0
            acc[k] += v0
            accabs[k] += abs(v0)
        b += 1


@njit(cache=True, inline="always")  # one caller, asqp: compiled inside it only
def _solve_working_set(y, grad, Minv, Mb, widx, nw, sol, solb, resid, gw, racc, rabs, max_refine):
    """``sol[:nw+2] = −M⁻¹ (0, 0, grad_W)``: the multipliers (sol[0], sol[1]) and the step on W.

    Iterative refinement against the true bordered matrix ``Mb`` (K may be nearly singular): up to
    ``max_refine`` corrections, stopping at the rounding level of the residual's terms, and keeping the
    best iterate should a correction make things worse (an inaccurate inverse can diverge).
    ``gw`` (at least nw), ``racc``, ``rabs`` (at least nw + 2) are work space. Every product runs as a
    sum of scaled rows of a symmetric matrix (M⁻¹, Mb), four rows per sweep (:func:`_add_rows`,
    :func:`_add_rows_abs`): independent accumulators that the compiler vectorises, where a dot product
    per output is one serial chain of additions. (The residual read K[W, W] by scattered columns before Mb was kept:
    1.2× the path time at m = 500, same process.) ``gw`` holds −grad_W: ``s − r·c`` and
    ``s + r·(−c)`` are the same number.
    """
    p = nw + 2
    for k in range(nw):
        gw[k] = -grad[widx[k]]
    for a in range(p):
        sol[a] = 0.0
    _add_rows(sol, Minv, 2, gw, nw, p)
    best_err = np.inf
    for ipass in range(max_refine + 1 if max_refine > 0 else 0):
        # M·sol on the members' rows (the first two are the class sums, below), by rows of the
        # symmetric bordered matrix Mb kept beside the inverse: contiguous, vectorised, four rows
        # per sweep of the accumulators (each element's terms in row order, as one row at a time)
        for k in range(nw):
            racc[k] = 0.0
            rabs[k] = 0.0
        _add_rows_abs(racc, rabs, Mb, sol, p, 2, nw)
        rmax = 0.0
        scl = 0.0
        for k in range(nw):
            r = gw[k] - racc[k]
            resid[2 + k] = r
            rmax = max(rmax, abs(r))
            scl = max(scl, abs(gw[k]) + rabs[k])
        # the class sums without a branch per member (its class is unpredictable from the last):
        # subtracting 0.0 leaves a sum as it is
        cs0 = 0.0
        cs1 = 0.0
        cmax = 0.0
        for k in range(nw):
            v = sol[2 + k]
            cmax = max(cmax, abs(v))
            up = y[widx[k]] > 0
            cs0 -= v if up else 0.0
            cs1 -= 0.0 if up else v
        resid[0] = cs0
        resid[1] = cs1
        err = max(rmax / max(scl, TINY), (abs(resid[0]) + abs(resid[1])) / max(cmax, TINY))
        if err < best_err:
            best_err = err
            for a in range(p):
                solb[a] = sol[a]
        else:
            for a in range(p):
                sol[a] = solb[a]
            break
        if err <= REFINE_TARGET or ipass == max_refine:
            break
        for a in range(p):
            racc[a] = 0.0
        _add_rows(racc, Minv, 0, resid, p, p)
        for a in range(p):
            sol[a] += racc[a]


@njit(cache=True)
def _price(y, x, grad, lo, hi, pos, skip, mu0, mu1, tol_price, widx, nw, n_movable):
    """The variable outside W that violates its optimality condition most (beyond ``tol_price``), or
    NO_POINT at the optimum.

    ``n_movable``: the number of variables with lo < hi, −1 if unknown. When W holds them all, no
    variable outside W may move: NO_POINT without a pass over all variables (a count over W)."""
    if n_movable >= 0:
        inw = 0
        for k in range(nw):
            j = widx[k]
            inw += lo[j] < hi[j]
        if inw == n_movable:
            return NO_POINT
    best = NO_POINT
    bestv = tol_price
    for j in range(x.shape[0]):
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
    return best


QP_WORK_ROWS = 9  # rows of the work space: asqp's eight, then HIT_ROW
HIT_ROW = 8  # the event search's hitting times (events.advance's ``hit``), between the QP's calls


def qp_work(n):
    """Work space of :func:`asqp` for problems of ``n`` points: (work (QP_WORK_ROWS, n + 2), skip (n,));
    its row ``HIT_ROW``, which asqp leaves alone, is the event search's (:func:`svmviz.path._solver.events.advance`)."""
    return np.empty((QP_WORK_ROWS, n + 2)), np.zeros(n, np.bool_)


def path_work(n):
    """The work arrays of one piecewise-linear path over ``n`` points (the path follower, a
    leave-one-out homotopy), allocated once before its loop:

    ``Minv``, ``Mb`` (n + 2, n + 2) the bordered inverse and the bordered matrix itself (only their
    leading (|W| + 2)² blocks are ever read, and written first: left uninitialised, their untouched
    pages cost no memory — at n = 5000 a zeroed one was 200 MB), ``widx`` (n,) and ``pos`` (n,) =
    NO_POINT the working set, ``d``, ``gd`` (n,) a direction and G·d, ``lo``, ``hi``, ``g`` (n,) the
    derivative QP's bounds and g, ``tied``, ``want`` (n,) flags, ``members`` (n,) an index list,
    ``box_lo``, ``box_hi`` (n,) the box [0, 1], and :func:`qp_work`'s ``work``, ``skip``.

    Plain numpy, called from Python (the follower's :func:`svmviz.path._solver.follower._start`, each
    leave-one-out chunk's caller), not compiled: compiled, its 16 allocations (numba's overloads
    of np.empty / np.zeros / np.full / np.ones) and a CPython wrapper boxing a 16-tuple cost about
    1 s of CPU on the path page's first chart on a fresh install.
    """
    work, skip = qp_work(n)
    return (np.empty((n + 2, n + 2)), np.empty((n + 2, n + 2)), np.empty(n, np.int64), np.full(n, NO_POINT, np.int64),
            np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n, np.bool_),
            np.zeros(n, np.bool_), np.empty(n, np.int64), np.zeros(n), np.ones(n), work, skip)


@njit(cache=True)
def asqp(K, y, inv_m, x, grad, lo, hi, Minv, Mb, widx, pos, nw, tol_price, max_iter, max_refine, work, skip,
         n_movable, dep_tol, signed):
    """min ½ x'Gx s.t. per-class sums fixed (at their current values), lo ≤ x ≤ hi.

    Each working-set solve is refined against the true matrix (up to ``max_refine`` corrections:
    REFINE_PASSES; LOO_REFINE_PASSES = 0 for the leave-one-out homotopy, whose result is checked
    against the KKT conditions anyway). ``n_movable``: the number of variables with lo < hi if the
    caller knows it (the path's derivative QP: :func:`svmviz.path._solver.kkt.qp_bounds` counts
    them), else −1; pricing then skips its pass when W holds them all. ``dep_tol``, ``signed``
    (np.bool_): the dependency test of a point that enters W
    (:func:`svmviz.path._solver.kkt.minv_add_tested`): DEP_TOL on |Schur complement|, or
    DEP_TOL_RETRY on the Schur complement itself on the path direction's last retry
    (:func:`svmviz.path._solver.follower._direction`).

    ``x`` must be feasible, every variable outside W at one of its bounds, ``grad = Gx``, and W must
    hold at least one point of each class. Modifies x, grad, Minv, Mb, widx, pos in place. ``work``,
    ``skip``: work space from :func:`qp_work` (no allocation per call: the path solves one QP per
    breakpoint).
    Returns (status, nw, mu_plus, mu_minus, iterations); at the optimum ``grad_i + mu_{c(i)} = 0``
    on W, so the class thresholds are ``t_c = −mu_c``.
    """
    n = x.shape[0]
    for j in range(n):
        skip[j] = False
    mu0 = 0.0
    mu1 = 0.0
    it = 0
    refreshed = False
    last_added = NO_POINT
    sol = work[0]
    solb = work[1]
    resid = work[2]
    gw = work[3]
    z = work[4]
    racc = work[5]
    rabs = work[6]
    dx = work[7]  # the step on W by point (the ratio test's direction)
    while it < max_iter:
        it += 1
        _solve_working_set(y, grad, Minv, Mb, widx, nw, sol, solb, resid, gw, racc, rabs, max_refine)
        dmax = 0.0
        cs0 = 0.0
        cs1 = 0.0
        for k in range(nw):  # class sums without a branch per member: adding 0.0 leaves a sum as it is
            v = sol[2 + k]
            if abs(v) > dmax:
                dmax = abs(v)
            up = y[widx[k]] > 0
            cs0 += v if up else 0.0
            cs1 += 0.0 if up else v
        if abs(cs0) > DIRECTION_SUM_RTOL * max(dmax, 1.0) or abs(cs1) > DIRECTION_SUM_RTOL * max(dmax, 1.0):
            if refreshed:
                return QP_NUMERICAL, nw, mu0, mu1, it
            minv_refresh(K, y, inv_m, Minv, Mb, widx, nw)
            refreshed = True
            it -= 1
            continue
        refreshed = False
        mu0 = sol[0]
        mu1 = sol[1]
        for k in range(nw):
            dx[widx[k]] = sol[2 + k]
        tau, blk, blk_to = ratio_test(y, x, dx, widx, nw, lo, hi, 1.0, DIRECTION_TINY * dmax, np.bool_(True))
        if tau > 0.0 and dmax > 0.0:
            for r in range(n):
                z[r] = 0.0
            # z = Σ_k c_k K[w_k, :] over the members, four rows per sweep of z (a quarter of its loads
            # and stores; the additions in the same order as one row at a time)
            for k in range(nw):
                x[widx[k]] += tau * sol[2 + k]
            k = 0
            while k + 4 <= nw:
                w0, w1, w2, w3 = widx[k], widx[k + 1], widx[k + 2], widx[k + 3]
                c0 = tau * sol[2 + k] * y[w0] * inv_m
                c1 = tau * sol[3 + k] * y[w1] * inv_m
                c2 = tau * sol[4 + k] * y[w2] * inv_m
                c3 = tau * sol[5 + k] * y[w3] * inv_m
                K0 = K[w0]
                K1 = K[w1]
                K2 = K[w2]
                K3 = K[w3]
                for r in range(n):
                    z[r] = (((z[r] + c0 * K0[r]) + c1 * K1[r]) + c2 * K2[r]) + c3 * K3[r]
                k += 4
            while k < nw:
                w0 = widx[k]
                c0 = tau * sol[2 + k] * y[w0] * inv_m
                K0 = K[w0]
                for r in range(n):
                    z[r] += c0 * K0[r]
                k += 1
            for r in range(n):
                grad[r] += y[r] * z[r]
        if blk >= 0:
            if blk == last_added and tau == 0.0:
                skip[blk] = True  # entered on noise and cannot move: do not cycle on it
            grad_fix = blk_to - x[blk]
            x[blk] = blk_to
            add_column(K, y, inv_m, grad, blk, grad_fix)
            ok, nw = minv_remove(Minv, Mb, widx, pos, nw, blk)
            if not ok:
                return QP_NUMERICAL, nw, mu0, mu1, it
            continue
        # pricing: the most violating variable outside W enters
        best = _price(y, x, grad, lo, hi, pos, skip, mu0, mu1, tol_price, widx, nw, n_movable)
        if best < 0:
            return QP_OK, nw, mu0, mu1, it
        ok, nw = minv_add_tested(K, y, inv_m, Minv, Mb, widx, pos, nw, best, dep_tol, signed)
        last_added = best
        if not ok:
            skip[best] = True
    return QP_MAX_ITER, nw, mu0, mu1, it


@njit(cache=True)  # called from Python: the path follower's correction (follower.follow_path), compiled when needed
def nu_qp_from(K, y, inv_m, x, grad, fixed, Minv, Mb, widx, pos, nw, tol_price, max_iter, work, skip):
    """Simple-ν-SVM solve at fixed class sums from a feasible ``x`` (box [0, 1]).

    W is rebuilt from the free points of ``x`` plus, for a class without one, one of its points.
    ``fixed[i]`` removes a point (its α stays 0); ``work``, ``skip`` from :func:`qp_work`.
    Returns (status, nw, t_plus, t_minus).
    """
    n = x.shape[0]
    lo = np.zeros(n)
    hi = np.ones(n)
    for i in range(n):
        if fixed[i]:
            hi[i] = 0.0
    members = np.empty(n, np.int64)
    nmem = np.int64(0)
    has = np.zeros(2, np.bool_)
    for i in range(n):
        if (not fixed[i]) and x[i] > 0.0 and x[i] < 1.0:
            members[nmem] = i
            nmem += 1
            has[0 if y[i] > 0 else 1] = True
    for c in range(2):
        if not has[c]:
            sgn = 1.0 if c == 0 else -1.0
            best = NO_POINT
            for i in range(n):
                if y[i] == sgn and not fixed[i]:
                    if best < 0 or grad[i] < grad[best]:
                        best = i
            if best < 0:
                return QP_NUMERICAL, nw, 0.0, 0.0
            members[nmem] = best
            nmem += 1
    ok, nw = minv_build(K, y, inv_m, Minv, Mb, widx, pos, nw, members, nmem, DEP_TOL)
    if not ok:
        return QP_NUMERICAL, nw, 0.0, 0.0
    st, nw, mu0, mu1, it = asqp(K, y, inv_m, x, grad, lo, hi, Minv, Mb, widx, pos, nw, tol_price, max_iter,
                                np.int64(REFINE_PASSES), work, skip, np.int64(-1), DEP_TOL, np.bool_(False))
    t = np.empty(2)
    interval_thresholds(y, x, grad, fixed, np.int64(NO_POINT), 0.0, -mu0, -mu1, t)
    return st, nw, t[0], t[1]
