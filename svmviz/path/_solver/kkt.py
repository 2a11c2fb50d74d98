"""The KKT system of the ν-problem: bordered inverse with rank-one updates, working set, thresholds.

With ``s = Gα`` and one threshold per class ``t_c`` (``t_+ = ρ − b``, ``t_− = ρ + b``), the KKT
conditions of the ν-problem (Loosli & Canu 2006, "Dual") are

    g_i = s_i − t_{y_i} ≥ 0 on R (α = 0),  = 0 on E (0 < α < 1),  ≤ 0 on L (α = 1).

Every direction solve works on the working set W (the free points, plus a pivot per class without
one) through the inverse of the bordered KKT matrix ``M = [[0, C'], [C, G_WW]]`` (``C`` = class
indicators of W), ordered [constraint +, constraint −, members of W in ``widx`` order] and kept by
rank-one updates (:func:`minv_add`, :func:`minv_remove`), recomputed from scratch when the updates have
drifted (:func:`minv_refresh`).

Singular systems. A point whose column is linearly dependent on W (duplicated points; more margin
points than a linear kernel's rank) cannot enter: its Schur complement is ~0 (``DEP_TOL``). It is not
needed — the solution restricted to W reaches the same G·d, hence the same decision function and
thresholds — and it stays "tied" (g = 0) until the points it depends on leave W.

Integers passed to another compiled function are made ``np.int64`` (never a literal or a constant): numba
compiles one specialization of the callee per literal value it is called with.
"""
from __future__ import annotations

import numpy as np
from ..._jit import njit
from ..._linalg import invert_in_place

from .config import DEP_NOISE_FACTOR, DEP_TOL, EPS, NO_POINT, TIE_SCALE_FLOOR, TINY


# ----------------------------------------------------------------------------------------------
# Scales
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def first_free(y, alpha, sgn):
    """The first point of class ``sgn`` (±1.0) with 0 < α < 1 (free, on the margin), or −1: where the
    path follower and the leave-one-out refits start a class's working set."""
    for i in range(y.shape[0]):
        if y[i] == sgn and alpha[i] > 0.0 and alpha[i] < 1.0:
            return i
    return -1


@njit(cache=True)
def gram_scale(K, inv_m):
    """``max_i G_ii`` (= max_i K_ii / m): the size of the problem's numbers per unit of λ."""
    gs = 0.0
    for i in range(K.shape[0]):
        if K[i, i] * inv_m > gs:
            gs = K[i, i] * inv_m
    return gs


@njit(cache=True)
def n_positive(y):
    """The number of points with label +1."""
    npos = 0
    for i in range(y.shape[0]):
        if y[i] > 0:
            npos += 1
    return npos


@njit(cache=True)
def kkt_tol(rtol, gs, lam):
    """``rtol · max G_ii · max(λ, 1)``: a relative tolerance on the scale of s, the thresholds and
    the gradients at λ (``kkt_tol(1.0, gs, lam)`` is the scale itself)."""
    return rtol * gs * max(lam, 1.0)


@njit(cache=True)
def tie_tolerance_of(smax, tol, gs, lam):
    """Within this of 0, g counts as 0 (a tie): ``tol · max(max |s|, TIE_SCALE_FLOOR · scale)``, from
    ``smax = max |s|`` (:func:`thresholds` takes it in its pass)."""
    return tol * max(smax, kkt_tol(TIE_SCALE_FLOOR, gs, lam))


@njit(cache=True)
def tie_tolerance(s, tol, gs, lam):
    """:func:`tie_tolerance_of` with max |s| taken over ``s``."""
    smax = 0.0
    for i in range(s.shape[0]):
        smax = max(smax, abs(s[i]))
    return tie_tolerance_of(smax, tol, gs, lam)


# ----------------------------------------------------------------------------------------------
# s = Gα
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def add_column(K, y, inv_m, grad, j, coef):
    """grad += coef · G[:, j]."""
    c = coef * y[j] * inv_m
    if c == 0.0:
        return
    for r in range(grad.shape[0]):
        grad[r] += c * y[r] * K[j, r]


@njit(cache=True)
def exact_s(K, y, inv_m, alpha, s):
    """s = Gα from scratch (the updates along a path accumulate rounding).

    ``s = y ∘ Σ_j c_j K[j, :]`` with ``c_j = α_j y_j / m`` over the points with α ≠ 0, four rows of K
    per sweep of s (a quarter of its loads and stores). The same numbers as adding the columns one
    at a time (:func:`add_column`, ``s_r += (c_j y_r) K_jr``): the additions run in the same order
    and a sign flip commutes exactly with rounding. At m = 500 (≈ 250 points with α > 0) a
    recomputation every 10 breakpoints would be ≈ 1/5 of the path's time.
    """
    n = alpha.shape[0]
    for r in range(n):
        s[r] = 0.0
    w0 = 0  # the points waiting for a block of four (no index array: nothing allocated)
    w1 = 0
    w2 = 0
    q = 0
    for j in range(n):
        if alpha[j] != 0.0 and alpha[j] * y[j] * inv_m != 0.0:
            if q == 0:
                w0 = j
            elif q == 1:
                w1 = j
            elif q == 2:
                w2 = j
            else:
                c0 = alpha[w0] * y[w0] * inv_m
                c1 = alpha[w1] * y[w1] * inv_m
                c2 = alpha[w2] * y[w2] * inv_m
                c3 = alpha[j] * y[j] * inv_m
                K0 = K[w0]
                K1 = K[w1]
                K2 = K[w2]
                K3 = K[j]
                for r in range(n):
                    s[r] = (((s[r] + c0 * K0[r]) + c1 * K1[r]) + c2 * K2[r]) + c3 * K3[r]
            q = (q + 1) & 3
    for k in range(q):  # the last one to three, one at a time, in order
        w = w0 if k == 0 else (w1 if k == 1 else w2)
        c0 = alpha[w] * y[w] * inv_m
        K0 = K[w]
        for r in range(n):
            s[r] += c0 * K0[r]
    for r in range(n):
        s[r] *= y[r]


# ----------------------------------------------------------------------------------------------
# Bordered KKT inverse: ordering [constraint +, constraint −, W members in widx order]
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def minv_add(K, y, inv_m, Minv, Mb, widx, pos, nw, j, dep_tol):
    """Border the inverse with point ``j``. Returns (ok, new nw); ok False if j is dependent (its
    Schur complement below ``dep_tol`` times its diagonal, in absolute value)."""
    return minv_add_tested(K, y, inv_m, Minv, Mb, widx, pos, nw, j, dep_tol, np.bool_(False))


@njit(cache=True)
def minv_add_tested(K, y, inv_m, Minv, Mb, widx, pos, nw, j, dep_tol, signed):
    """:func:`minv_add` with the choice of dependency test: ``signed`` (np.bool_) False, |Schur
    complement| below ``dep_tol`` times the diagonal; True, the Schur complement itself — G is
    positive semidefinite, so an exact Schur complement is ≥ 0 and a negative computed one is rounding
    noise of a dependent point (the active-set QP on the path direction's last retry,
    :func:`svmviz.path._solver.follower._direction`). Returns (ok, new nw)."""
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
    # u = M⁻¹ v, four rows at a time: four independent chains of additions (one chain, each term
    # waiting for the previous, ran at the adder's latency), each row's terms in the order of one
    # row at a time — the same numbers. (By rows of the symmetric M⁻¹ instead, u would differ by the
    # asymmetry of the updated inverse: tried, it lost a stress path at λ = 0.)
    a = 0
    while a + 4 <= p:
        r0 = Minv[a]
        r1 = Minv[a + 1]
        r2 = Minv[a + 2]
        r3 = Minv[a + 3]
        acc0 = 0.0
        acc1 = 0.0
        acc2 = 0.0
        acc3 = 0.0
        for b in range(p):
            vb = v[b]
            acc0 += r0[b] * vb
            acc1 += r1[b] * vb
            acc2 += r2[b] * vb
            acc3 += r3[b] * vb
        u[a] = acc0
        u[a + 1] = acc1
        u[a + 2] = acc2
        u[a + 3] = acc3
        a += 4
    while a < p:
        acc = 0.0
        for b in range(p):
            acc += Minv[a, b] * v[b]
        u[a] = acc
        a += 1
    sig = delta
    for a in range(p):
        sig -= v[a] * u[a]
    if not ((sig if signed else abs(sig)) > dep_tol * delta):
        return False, nw
    inv = 1.0 / sig
    for a in range(p):
        ua = u[a] * inv
        for b in range(p):
            Minv[a, b] += ua * u[b]
        Minv[a, p] = -ua
        Minv[p, a] = -ua
    Minv[p, p] = inv
    for a in range(p):  # the bordered matrix itself grows by the same row and column
        Mb[a, p] = v[a]
        Mb[p, a] = v[a]
    Mb[p, p] = delta
    widx[nw] = j
    pos[j] = nw
    return True, nw + 1


@njit(cache=True)
def _swap_symmetric(A, p, a, b):
    """Swap rows and columns ``a`` and ``b`` of ``A[:p, :p]`` (reorders the unknowns of a bordered
    matrix or of its inverse)."""
    for r in range(p):
        tmp = A[r, a]
        A[r, a] = A[r, b]
        A[r, b] = tmp
    for c in range(p):
        tmp = A[a, c]
        A[a, c] = A[b, c]
        A[b, c] = tmp


@njit(cache=True)
def minv_remove(Minv, Mb, widx, pos, nw, j):
    """Remove point ``j`` from W. Returns (ok, new nw)."""
    k = pos[j]
    p = nw + 2
    a = 2 + k
    last = p - 1
    if a != last:
        _swap_symmetric(Minv, p, a, last)
        _swap_symmetric(Mb, p, a, last)  # the bordered matrix: its last row and column then drop
        moved = widx[nw - 1]
        widx[k] = moved
        pos[moved] = k
    d = Minv[last, last]
    if not (abs(d) > TINY):
        return False, nw
    for r in range(last):
        f = Minv[r, last] / d
        if f != 0.0:
            for c in range(last):
                Minv[r, c] -= f * Minv[last, c]
    pos[j] = NO_POINT
    return True, nw - 1


@njit(cache=True)
def minv_build(K, y, inv_m, Minv, Mb, widx, pos, nw, members, nmem, dep_tol):
    """Rebuild W and its inverse from ``members[:nmem]`` (must hold both classes).

    Dependent members are left out. Returns (ok, nw).
    """
    for k in range(nw):
        pos[widx[k]] = NO_POINT
    a = np.int64(NO_POINT)
    b = np.int64(NO_POINT)
    for q in range(nmem):
        j = members[q]
        if y[j] > 0 and a < 0:
            a = j
        if y[j] < 0 and b < 0:
            b = j
    if a < 0 or b < 0:
        return False, np.int64(0)
    # the bordered matrix of the pair written into Mb directly (a 4 x 4 np.zeros compiled numba's
    # 2-D zeros overload into this function for nothing)
    for r in range(4):
        for c in range(4):
            Mb[r, c] = 0.0
            Minv[r, c] = 0.0
    Mb[0, 2] = 1.0
    Mb[2, 0] = 1.0
    Mb[1, 3] = 1.0
    Mb[3, 1] = 1.0
    Mb[2, 2] = K[a, a] * inv_m
    Mb[3, 3] = K[b, b] * inv_m
    Mb[2, 3] = -K[a, b] * inv_m
    Mb[3, 2] = -K[a, b] * inv_m
    # closed-form inverse of [[0, I], [I, H]] is [[-H, I], [I, 0]]
    Minv[0, 0] = -Mb[2, 2]
    Minv[0, 1] = -Mb[2, 3]
    Minv[1, 0] = -Mb[3, 2]
    Minv[1, 1] = -Mb[3, 3]
    Minv[0, 2] = 1.0
    Minv[1, 3] = 1.0
    Minv[2, 0] = 1.0
    Minv[3, 1] = 1.0
    widx[0] = a
    widx[1] = b
    pos[a] = 0
    pos[b] = 1
    nw = np.int64(2)
    for q in range(nmem):
        j = members[q]
        if j == a or j == b or pos[j] >= 0:
            continue
        ok, nw = minv_add(K, y, inv_m, Minv, Mb, widx, pos, nw, j, dep_tol)
    return True, nw


@njit(cache=True)
def minv_refresh(K, y, inv_m, Minv, Mb, widx, nw):
    """Recompute the inverse of the current bordered matrix (``Mb``, kept beside it) from scratch
    (removes the error that the rank-one updates accumulate); the updated inverse is kept if the
    matrix is singular in floating point. Returns whether it was recomputed."""
    p = nw + 2
    M = np.empty((p, p))
    for a in range(p):
        for b in range(p):
            M[a, b] = Mb[a, b]
    if not invert_in_place(M, p, np.empty(p, np.int64), TINY):
        return False
    for a in range(p):
        for b in range(p):
            Minv[a, b] = M[a, b]
    return True


# ----------------------------------------------------------------------------------------------
# The working set
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def rebuild_working_set(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members, dep_tol):
    """Factorize W afresh: the two pivots first (one per class), then every other wanted point.
    Returns (ok, nw)."""
    n = K.shape[0]
    nmem = np.int64(0)
    for c in range(2):
        members[nmem] = piv[c]
        nmem += 1
    for j in range(n):
        if want[j] and j != piv[0] and j != piv[1]:
            members[nmem] = j
            nmem += 1
    return minv_build(K, y, inv_m, Minv, Mb, widx, pos, nw, members, nmem, dep_tol)


@njit(cache=True)
def rebuild_working_set_pivoted(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members, dep_tol):
    """Factorize W afresh, the largest Schur complement first: the two pivots (one per class), then
    repeatedly the wanted point whose Schur complement relative to its diagonal is largest, while it
    is above ``dep_tol``. Returns (ok, nw).

    The direction's last retry after a breakdown (:func:`svmviz.path._solver.follower._direction`), when
    :func:`rebuild_working_set` did not help either. In its index order, nearly dependent points enter one after another (1-D
    data with close points, a Gaussian kernel of numerical rank ~20: ``usvc_B`` n = 500, σ = 0.2, in
    the stretch ν < ν_min where every point is tied): each inflates the inverse by 1/(its Schur
    complement), until the Schur complements computed through it are rounding noise above
    ``dep_tol`` and hundreds of dependent points enter (measured: 341 members, ‖M⁻¹M − I‖ = 2e6).
    Largest first (diagonal pivoting, as in a pivoted Cholesky factorization) every accepted point
    is the best conditioned one left, so the inverse grows only as much as W needs and the test reads
    Schur complements computed through an accurate inverse. O(#wanted · |W|³); only on a retry.
    """
    n = K.shape[0]
    members[0] = piv[0]
    members[1] = piv[1]
    ok, nw = minv_build(K, y, inv_m, Minv, Mb, widx, pos, nw, members, np.int64(2), dep_tol)
    if not ok:
        return False, nw
    v = np.empty(n + 2)
    while True:
        p = nw + 2
        best = np.int64(NO_POINT)
        best_rel = dep_tol
        for j in range(n):
            if not want[j] or pos[j] >= 0:
                continue
            v[0] = 1.0 if y[j] > 0 else 0.0
            v[1] = 0.0 if y[j] > 0 else 1.0
            for k in range(nw):
                w = widx[k]
                v[2 + k] = y[w] * y[j] * K[w, j] * inv_m
            delta = K[j, j] * inv_m
            sig = delta
            for a in range(p):
                acc = 0.0
                for b in range(p):
                    acc += Minv[a, b] * v[b]
                sig -= v[a] * acc
            if sig > best_rel * delta:
                best_rel = sig / delta
                best = j
        if best < 0:
            return True, nw
        # a Schur complement computed through an inverse of condition κ is off by ~ε·κ of its diagonal:
        # the test reads noise from there on (pivots only decrease), so W stops growing
        big_inv = 0.0
        big_m = 0.0
        for a in range(p):
            for b in range(p):
                big_inv = max(big_inv, abs(Minv[a, b]))
                big_m = max(big_m, abs(Mb[a, b]))
        if not best_rel > DEP_NOISE_FACTOR * EPS * big_inv * big_m:
            return True, nw
        ok, nw = minv_add(K, y, inv_m, Minv, Mb, widx, pos, nw, best, dep_tol)
        if not ok:
            return True, nw


@njit(cache=True)
def sync_working_set(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members):
    """Make W the wanted points by rank-one updates of the bordered inverse — additions first (each
    class keeps a member), then removals — or, if an update breaks down, by a rebuild.
    Returns (ok, nw)."""
    n = K.shape[0]
    ok = True
    for j in range(n):
        if want[j] and pos[j] < 0:
            ok2, nw = minv_add(K, y, inv_m, Minv, Mb, widx, pos, nw, j, DEP_TOL) if nw >= 2 else (False, nw)
            if not ok2:
                ok = False
                break
    if ok:
        k = 0
        while k < nw:
            j = widx[k]
            if not want[j]:
                ok, nw = minv_remove(Minv, Mb, widx, pos, nw, j)
                if not ok:
                    break
            else:
                k += 1
    if not ok:
        ok, nw = rebuild_working_set(K, y, inv_m, Minv, Mb, widx, pos, nw, want, piv, members, DEP_TOL)
    return ok, nw


@njit(cache=True)
def base_without(y, i, Minv0, Mb0, widx0, nw0, Minv, Mb, widx, pos):
    """Copy a working set (``Minv0``, ``widx0[:nw0]``) into ``Minv``, ``widx``, ``pos`` and remove
    point i from it. Returns (ok, nw); ok is False when i is its class's only member of W (removing it
    would leave the bordered matrix singular) or the removal broke down."""
    p0 = nw0 + 2
    for a in range(p0):
        for b in range(p0):
            Minv[a, b] = Minv0[a, b]
            Mb[a, b] = Mb0[a, b]
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
    return minv_remove(Minv, Mb, widx, pos, nw0, i)


# ----------------------------------------------------------------------------------------------
# Thresholds and the KKT conditions
# ----------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _class_point(a, si, acc, cnt, lo, up, mn, mx):
    """One point (α = ``a``, s = ``si``) of a class in :func:`thresholds`' pass: on E its s added to
    the sum (``acc``, ``cnt``) and to E's extremes (``lo``, ``up``), on R to R's smallest s ``mn``,
    on L to L's largest s ``mx``. Returns the six updated."""
    if a > 0.0 and a < 1.0:
        return acc + si, cnt + 1, min(lo, si), max(up, si), mn, mx
    if a <= 0.0:
        return acc, cnt, lo, up, (si if si < mn else mn), mx
    return acc, cnt, lo, up, mn, max(mx, si)


@njit(cache=True)
def thresholds(y, alpha, s, t):
    """Class thresholds from the free points (mean), else the smallest s among α = 0 points.

    Returns (ok, max |s|, the number of free points, the KKT violation): ok False when a class has
    neither (it is full: λ = 2 n_c); from the same pass max |s| (the scale of
    :func:`tie_tolerance_of`), the count of E and, when ok, :func:`kkt_violation` at these thresholds
    (y = ±1): per class the largest of s − t on E and L and t − s on E and R, each from the extreme
    s of its group — the same number, since s ↦ fl(s − t) is monotone and fl(t − s) = −fl(s − t).
    """
    n = alpha.shape[0]
    # per class (+: 0, −: 1), both in one pass (each class's sum in index order, as two passes
    # would): the sum and count of s on E, min and max s on E, min s on R, max s on L
    acc0, cnt0, lo0, up0, mn0, mx0 = 0.0, 0, np.inf, -np.inf, np.inf, -np.inf
    acc1, cnt1, lo1, up1, mn1, mx1 = 0.0, 0, np.inf, -np.inf, np.inf, -np.inf
    smax = 0.0
    for i in range(n):
        a = alpha[i]
        si = s[i]
        smax = max(smax, abs(si))
        if y[i] == 1.0:
            acc0, cnt0, lo0, up0, mn0, mx0 = _class_point(a, si, acc0, cnt0, lo0, up0, mn0, mx0)
        elif y[i] == -1.0:
            acc1, cnt1, lo1, up1, mn1, mx1 = _class_point(a, si, acc1, cnt1, lo1, up1, mn1, mx1)
    if cnt0 > 0:
        t[0] = acc0 / cnt0
    elif mn0 < np.inf:
        t[0] = mn0
    else:
        return False, smax, cnt0 + cnt1, 0.0
    if cnt1 > 0:
        t[1] = acc1 / cnt1
    elif mn1 < np.inf:
        t[1] = mn1
    else:
        return False, smax, cnt0 + cnt1, 0.0
    viol = 0.0
    for c in range(2):
        tc = t[c]
        for e in ((up0 - tc, tc - lo0, tc - mn0, mx0 - tc) if c == 0 else (up1 - tc, tc - lo1, tc - mn1, mx1 - tc)):
            if e > viol:  # an empty group's ±inf gives −inf: never above
                viol = e
    return True, smax, cnt0 + cnt1, viol


@njit(cache=True)
def interval_thresholds(y, x, s, fixed, skip, eps, t0, t1, t):
    """Thresholds at an optimum: per class the mean of s over its free points, else the midpoint of
    its optimal interval [max_{α=1} s, min_{α=0} s] (libsvm's choice, so results compare), or its
    finite end if one side is empty; ``t0``/``t1`` for a class with no point at all.

    Points with ``fixed[i]`` (``fixed`` may be empty) and point ``skip`` (NO_POINT: none) are left
    out; α within ``eps`` of a bound counts as bound."""
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
def kkt_violation(y, alpha, s, t):
    """Largest violation of the KKT conditions (−g on R, g on L, |g| on E)."""
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
def qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi, want):
    """g = s − t_c and the bounds of the derivative QP: free on E, d ≥ 0 for tied α = 0 points,
    d ≤ 0 for tied α = 1 points, d = 0 for the rest; ``want`` the points the path wants in W before
    its pivots: the free ones and the tied ones that may move (their flags from the same pass).
    Returns the number of points that may move (lo < hi)."""
    t0 = t[0]
    t1 = t[1]
    movable = 0
    for i in range(alpha.shape[0]):  # without branches: a point's group is unpredictable from the last
        gi = s[i] - (t0 if y[i] > 0 else t1)
        g[i] = gi
        a = alpha[i]
        free = (a > 0.0) & (a < 1.0)
        up = free | ((a <= 0.0) & ((gi <= tolg) | tied[i]))  # may increase
        down = free | ((a >= 1.0) & ((gi >= -tolg) | tied[i]))  # may decrease
        lo[i] = -np.inf if down else 0.0
        hi[i] = np.inf if up else 0.0
        want[i] = free | (tied[i] & (up | down))
        movable += up | down
    return movable
