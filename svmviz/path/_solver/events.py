"""Event search and the step: the one ratio test and step routine of the path, the LOO homotopy and the QP.

Along a piecewise-linear solution path ``x(θ) = x + θ·d`` (θ = λ on the regularization path, τ on a
leave-one-out homotopy) the next breakpoint is the nearest event of the four kinds (Loosli & Canu
2006, Summary): a point of W reaching 0 or 1, or a bound point whose g reaches 0.

- :func:`ratio_test` — the largest step keeping the members of W within their bounds, with the
  variable that blocks it. The active-set QP (:func:`svmviz.path._solver.asqp.asqp`) takes its steps
  with it; the path and the homotopy through :func:`step_to_event`.
- :func:`advance` — one piece of a path: the step to the nearest event, the end of the parameter
  range, zero-length steps counted, the move with every point that reaches its event within the
  step tolerance snapped onto it (ties, duplicated points: the path must not lose them). The path
  follower and the leave-one-out homotopy both step with it; they differ only in the range and the
  scale of their parameter.
"""
from __future__ import annotations

import numpy as np
from ..._jit import njit

from .config import (BOX_SNAP, DIRECTION_TINY, STEP_SNAP_ATOL, STEP_SNAP_RTOL, ZERO_STEPS_PER_POINT,
                     ZERO_STEPS_SLACK)


@njit(cache=True)
def max_zero_steps(n):
    """Zero-length steps in a row after which a path with ``n`` points is cycling."""
    return ZERO_STEPS_PER_POINT * n + ZERO_STEPS_SLACK


@njit(cache=True)
def ratio_test(y, x, d, widx, nw, lo, hi, t_max, tiny, keep_one_per_class):
    """Largest ``t ≤ t_max`` (and ≥ 0) with ``lo ≤ x + t·d ≤ hi`` on the members of W.

    Components with ``|d_j| ≤ tiny`` are rounding noise and never block. With
    ``keep_one_per_class`` a member that is the last of its class in W is not a candidate (it cannot
    leave W: the bordered matrix would be singular). Returns (t, blocking point or NO_POINT, the
    bound it reaches).
    """
    cnt0 = 0
    cnt1 = 0
    if keep_one_per_class:
        for k in range(nw):  # without a branch per member (its class is unpredictable from the last)
            up = y[widx[k]] > 0
            cnt0 += up
            cnt1 += not up
    t = t_max
    blk = -1
    blk_to = 0.0
    for k in range(nw):
        j = widx[k]
        if keep_one_per_class and (cnt0 if y[j] > 0 else cnt1) <= 1:
            continue
        dj = d[j]
        if dj < -tiny:
            if not lo[j] > -np.inf:
                continue
            tk = -(x[j] - lo[j]) / dj
            bound = lo[j]
        elif dj > tiny:
            if not hi[j] < np.inf:
                continue
            tk = (hi[j] - x[j]) / dj
            bound = hi[j]
        else:
            continue
        if tk < t:
            t = max(tk, 0.0)
            blk = j
            blk_to = bound
    return t, blk, blk_to


@njit(cache=True)
def step_to_event(y, x, d, gd, dt0, dt1, g, lo, hi, box_lo, box_hi, widx, pos, nw, h, dnorm, epsg, skip, hit):
    """Largest step ``h`` (at most the given one) before the next event (Loosli & Canu 2006, Summary,
    four kinds): a point of W reaching its box bound (``box_lo``, ``box_hi``: 0 and 1), or a bound
    point (not tied, not ``skip``) whose g reaches 0 (its slope dg beyond ``epsg``).

    ``hit[j]`` (at least m entries) gets the step at which bound point j's g reaches 0, ``inf`` for a
    point without such an event (members of W, tied points, ``skip``, g moving away from 0): the
    points that :func:`move` marks as tied, read there without computing the hitting times again."""
    h, blk, blk_to = ratio_test(y, x, d, widx, nw, box_lo, box_hi, h, DIRECTION_TINY * dnorm, np.bool_(False))
    # the hitting times without a branch per point (a point's group and the sign of its slope are
    # unpredictable from the last): every point's quotient, inf selected where it has no event. The
    # quotient by np.divide, which gives inf or nan for a zero divisor (never read) where ``/`` would
    # raise: without that branch the compiler vectorises the pass (half the time of the branches)
    for j in range(x.shape[0]):
        dg = gd[j] - (dt0 if y[j] > 0 else dt1)
        at0 = x[j] <= 0.0
        bound = (pos[j] < 0) & (not lo[j] < hi[j]) & (j != skip)
        ev = bound & ((at0 & (dg < -epsg)) | ((x[j] >= 1.0) & (dg > epsg)))
        q = np.divide(max(g[j], 0.0) if at0 else max(-g[j], 0.0), -dg if at0 else dg)
        hit[j] = q if ev else np.inf
    return _min_hit(hit, x.shape[0], h)


@njit(cache=True, inline="always")  # compiled into the event search: no function of its own to compile
def _min_hit(hit, n, h):
    """The smallest of ``h`` and ``hit[:n]``: four independent running minima (not one serial chain
    of comparisons); the same number as the minimum in index order, which keeps the first of equal
    values — it differs from it only in the sign of a zero, so a zero minimum is taken again in index
    order."""
    h0 = h
    h1 = h
    h2 = h
    h3 = h
    j = 0
    while j + 4 <= n:
        a0 = hit[j]
        a1 = hit[j + 1]
        a2 = hit[j + 2]
        a3 = hit[j + 3]
        h0 = a0 if a0 < h0 else h0
        h1 = a1 if a1 < h1 else h1
        h2 = a2 if a2 < h2 else h2
        h3 = a3 if a3 < h3 else h3
        j += 4
    while j < n:
        a0 = hit[j]
        h0 = a0 if a0 < h0 else h0
        j += 1
    m = h0 if h0 < h1 else h1
    m2 = h2 if h2 < h3 else h3
    m = m if m < m2 else m2
    if m != 0.0:
        return m
    for j in range(n):
        if hit[j] < h:
            h = hit[j]
    return h


@njit(cache=True)
def move(x, d, widx, nw, h, htol, dnorm, tied, hit):
    """x += h·d on W, snapping every point that reaches its bound within ``htol``; marks as ``tied``
    the bound points whose g reaches 0 within the step: hitting time ``hit`` (from
    :func:`step_to_event`, taken before x moves) at most ``h + htol``."""
    n = x.shape[0]
    for k in range(nw):
        j = widx[k]
        dj = d[j]
        a = x[j] + h * dj
        if dj > DIRECTION_TINY * dnorm and (1.0 - x[j]) / dj <= h + htol and a >= 1.0 - BOX_SNAP:
            a = 1.0
        elif dj < -DIRECTION_TINY * dnorm and -x[j] / dj <= h + htol and a <= BOX_SNAP:
            a = 0.0
        x[j] = min(1.0, max(0.0, a))
    reach = h + htol
    for j in range(n):
        tied[j] = hit[j] <= reach


@njit(cache=True)
def advance(y, x, s, d, gd, dt0, dt1, g, lo, hi, box_lo, box_hi, widx, pos, nw, remaining, param_scale,
            dnorm, tol_gs, tied, skip, n_zero, max_zero, hit):
    """One piece of a piecewise-linear path: ``x += h·d``, ``s += h·gd`` up to the nearest event.

    ``d`` is the direction (``gd = G d``, ``dt0``/``dt1`` the thresholds' slopes, ``dnorm = max |d|``),
    ``remaining`` the rest of the parameter's range, ``param_scale`` the parameter's size (λ on the
    path, 1 on a homotopy τ ∈ [0, 1]: the absolute part of the step tolerance), ``tol_gs`` the tie
    tolerance per unit of slope, ``skip`` a fixed point left out of the events (NO_POINT: none).
    ``n_zero`` counts zero-length steps in a row; beyond ``max_zero`` the path is cycling and nothing
    moves. Returns (h, at_end, n_zero, ok); ``tied`` marks the bound points that reached g = 0.
    ``hit`` (at least m entries) is work space: the bound points' hitting times (:func:`step_to_event`).
    """
    epsg = tol_gs * max(1.0, dnorm)
    h = step_to_event(y, x, d, gd, dt0, dt1, g, lo, hi, box_lo, box_hi, widx, pos, nw, remaining, dnorm,
                      epsg, skip, hit)
    htol = STEP_SNAP_RTOL * max(1.0, h) + STEP_SNAP_ATOL * max(1.0, param_scale)
    # an event within rounding of the range's end (on the path typically the last points of the
    # smaller class reaching α = 1) is the end: otherwise a path would stop a few ulps short of it
    at_end = h >= remaining - htol
    if at_end:
        h = remaining
    if h <= htol:
        n_zero += 1
        if n_zero > max_zero:
            return h, at_end, n_zero, False
    else:
        n_zero = 0
    move(x, d, widx, nw, h, htol, dnorm, tied, hit)
    for j in range(x.shape[0]):
        s[j] += h * gd[j]
    return h, at_end, n_zero, True
