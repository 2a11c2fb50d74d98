"""The ν-path's per-breakpoint loops written for speed against independent references.

Each fast loop (four kernel rows per sweep of s = Gα in ``exact_s``, both classes' thresholds in one
pass, the derivative QP's bounds without branches in ``qp_bounds``, the rank-one update's u = M⁻¹v
four rows at a time in ``minv_add``, the event search's hitting times kept for ``move``'s tie marks,
the one scan after a step that serves the settle and the class sums' correction),
the KKT violation and the tie tolerance are checked against
their definitions in plain numpy (:mod:`tests.naive.path`), on random states with every kind of
point (α = 0, free, α = 1; g on either side of the tie tolerance; tied flags; lengths around the
blocks of four). Where the definition does the same floating-point operations (a comparison, a
subtraction, a maximum) the numbers are equal; where it sums in another order they agree to rounding.
``exact_s`` is also bitwise the sum of :func:`~svmviz.path._solver.kkt.add_column` over the points,
the update the path applies between recomputations (its docstring's promise).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from svmviz.path._solver import config as cfg
from svmviz.path._solver.config import DIRECTION_TINY, TIE_SCALE_FLOOR
from svmviz.path._solver.events import _min_hit, move, ratio_test, step_to_event
from svmviz.path._solver.follower import _apply_class_sums, _scan_free
from svmviz.path._solver.kkt import (add_column, exact_s, kkt_tol, kkt_violation, minv_add, minv_build, qp_bounds,
                                     thresholds, tie_tolerance)
from tests.naive import path as nv

I64 = np.int64


# the loops are helpers (no CPython wrapper): called from kernels here
@njit(cache=False)
def _run_exact_s(K, y, inv_m, alpha, s):
    exact_s(K, y, inv_m, alpha, s)


@njit(cache=False)
def _run_add_columns(K, y, inv_m, alpha, s):
    s[:] = 0.0
    for j in range(alpha.shape[0]):
        if alpha[j] != 0.0:
            add_column(K, y, inv_m, s, j, alpha[j])


@njit(cache=False)
def _run_thresholds(y, alpha, s, t):
    return thresholds(y, alpha, s, t)


@njit(cache=False)
def _run_qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi, want):
    qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi, want)


@njit(cache=False)
def _run_kkt_violation(y, alpha, s, t):
    return kkt_violation(y, alpha, s, t)


@njit(cache=False)
def _run_scan_and_fix(K, y, inv_m, x, s, t, half):
    scan = _scan_free(y, x, s, t)
    _apply_class_sums(K, y, inv_m, x, s, half, scan[3], scan[4], scan[5], scan[6], scan[7], scan[8], scan[9],
                      scan[10], scan[11], scan[12])
    return scan


# ------------------------------------------------------------------------------- random states
@st.composite
def states(draw, max_n=14):
    """A ν-path state: m points of both labels (or one), α in {0, free, 1}, s with exact ties,
    duplicated values, zeros of either sign, and the kernel of random points (some coinciding)."""
    n = draw(st.integers(1, max_n))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.choice([-1.0, 1.0], n) if draw(st.booleans()) else np.full(n, draw(st.sampled_from([-1.0, 1.0])))
    kind = rng.integers(0, 3, n)  # 0: α = 0, 1: free, 2: α = 1
    alpha = np.where(kind == 0, 0.0, np.where(kind == 2, 1.0, rng.uniform(1e-12, 1.0 - 1e-12, n)))
    s = rng.normal(size=n) * draw(st.sampled_from([1e-12, 1e-3, 1.0, 1e3]))
    s[rng.random(n) < 0.2] = 0.0
    s[rng.random(n) < 0.1] = -0.0
    if n > 1 and draw(st.booleans()):
        s[1:] = np.where(rng.random(n - 1) < 0.5, s[0], s[1:])  # exact ties
    X = rng.normal(size=(n, 2))
    X[rng.random(n) < 0.2] = X[0]  # duplicated points
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / rng.choice([0.01, 1.0, 100.0]))
    tied = rng.random(n) < 0.3
    return y, alpha, s, np.ascontiguousarray(K), tied


@settings(max_examples=150, deadline=None)
@given(states(max_n=23))
def test_exact_s_is_g_alpha_and_the_sum_of_the_path_updates(state):
    y, alpha, _, K, _ = state
    inv_m = 1.0 / y.size
    s_fast, s_updates = np.full(y.size, np.nan), np.full(y.size, np.nan)
    _run_exact_s(K, y, inv_m, alpha, s_fast)
    np.testing.assert_allclose(s_fast, nv.gram_s(K, y, alpha, y.size), rtol=1e-12, atol=1e-15)
    _run_add_columns(K, y, inv_m, alpha, s_updates)
    assert np.array_equal(s_fast, s_updates)  # bitwise (±0 compare equal)


@settings(max_examples=150, deadline=None)
@given(states())
def test_thresholds_are_the_free_points_mean_else_the_lowest_s_at_zero_with_max_abs_s_the_free_count_and_kkt(state):
    y, alpha, s, _, _ = state
    t = np.full(2, 7.0)
    ok, smax, nfree, viol = _run_thresholds(y, alpha, s, t)
    ref = nv.class_thresholds(y, alpha, s)
    assert ok == (ref is not None)
    # from the same pass: the tie tolerance's scale, the count of E, the KKT violation at t (bitwise)
    assert smax == np.abs(s).max()
    assert nfree == ((alpha > 0) & (alpha < 1)).sum()
    if ok:
        assert viol == nv.kkt_violation(y, alpha, s, t)
    if ref is not None:  # a mean in index order against numpy's pairwise sum: equal to rounding
        np.testing.assert_allclose(t, ref, rtol=1e-13, atol=1e-15 * (np.abs(s).max() + 1e-300))


@settings(max_examples=150, deadline=None)
@given(states(), st.sampled_from([0.0, 1e-12, 1e-3, 0.5]))
def test_qp_bounds_are_the_derivative_qps_bounds_and_the_wanted_points(state, tolg):
    """g, lo, hi their definitions; the points wanted in W the free ones and the tied ones that may
    move."""
    y, alpha, s, _, tied = state
    t = np.array([np.median(s), -np.median(s)])
    out = [np.full(y.size, np.nan) for _ in range(3)]
    wanted = np.zeros(y.size, np.bool_) | (np.arange(y.size) % 2 == 0)  # overwritten everywhere
    _run_qp_bounds(y, alpha, s, t, tied, tolg, *out, wanted)
    ref = nv.gradient_and_qp_bounds(y, alpha, s, t, tied, tolg)
    for got, want in zip(out, ref):
        assert np.array_equal(got, want)
    free = (alpha > 0) & (alpha < 1)
    assert np.array_equal(wanted, free | (tied & (ref[1] < ref[2])))


@settings(max_examples=150, deadline=None)
@given(states(max_n=23))
def test_kkt_violation_and_tie_tolerance_are_their_definitions(state):
    y, alpha, s, _, _ = state
    t = np.array([0.1, -0.2]) * (np.abs(s).max() + 1.0)
    assert _run_kkt_violation(y, alpha, s, t) == nv.kkt_violation(y, alpha, s, t)
    gs, lam, tol = 0.25, 3.0, 1e-9
    assert tie_tolerance(s, tol, gs, lam) == tol * max(np.abs(s).max(), TIE_SCALE_FLOOR * gs * max(lam, 1.0))
    assert kkt_tol(TIE_SCALE_FLOOR, gs, lam) == TIE_SCALE_FLOOR * gs * max(lam, 1.0)


@settings(max_examples=150, deadline=None)
@given(states(max_n=23), st.sampled_from([0.0, 1e-12, 1e-3]), st.integers(0, 2**32 - 1))
def test_event_search_keeps_each_points_hitting_time_and_move_ties_those_within_the_step(state, epsg, seed):
    """step_to_event's step is the least of W's box events and the bound points' hitting times, which
    it leaves in ``hit`` (their definition, the same operations: equal); move then marks as tied
    exactly the points whose hitting time is within the step and its tolerance."""
    y, x, s, _, tied = state
    n = y.size
    rng = np.random.default_rng(seed)
    member = ((x > 0) & (x < 1)) & (rng.random(n) < 0.7)
    widx = np.flatnonzero(member).astype(I64)
    pos = np.full(n, -1, I64)
    pos[widx] = np.arange(widx.size)
    lo = np.where(member | tied, -np.inf, 0.0)
    hi = np.where(member | tied, np.inf, 0.0)
    d = np.where(member, rng.normal(size=n), 0.0)
    dt = rng.normal(size=2)
    gd = dt[np.where(y > 0, 0, 1)] + rng.normal(size=n) * rng.choice([1e-13, 1e-3, 1.0], n)
    g = s.copy()
    skip = int(rng.integers(-1, n))
    dnorm = float(np.abs(d).max()) if widx.size else 0.0
    hit = np.full(n, np.nan)
    h = step_to_event(y, x, d, gd, dt[0], dt[1], g, lo, hi, np.zeros(n), np.ones(n), widx, pos, I64(widx.size),
                      10.0, dnorm, epsg, skip, hit)
    want = nv.hitting_times(y, x, gd, dt, g, lo, hi, pos, epsg, skip)
    assert np.array_equal(hit, want)
    h_w = ratio_test(y, x, d, widx, I64(widx.size), np.zeros(n), np.ones(n), 10.0, DIRECTION_TINY * dnorm,
                     np.bool_(False))[0]
    assert h == min(h_w, want.min())
    htol = 1e-10
    marks = np.zeros(n, np.bool_)
    move(x, d, widx, I64(widx.size), h, htol, dnorm, marks, hit)
    assert np.array_equal(marks, want <= h + htol)
    assert np.all((x >= 0) & (x <= 1))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([np.inf, 0.0, -0.0, 1e-300, 0.5, 2.0, np.nan]), max_size=13),
       st.sampled_from([np.inf, 0.0, -0.0, 1.0]))
def test_event_search_minimum_is_the_first_least_hitting_time_in_index_order(times, h0):
    """The event search's minimum over the hitting times (four running minima) is the one a loop in
    index order keeps — ``if hit < h: h = hit`` — down to the sign of a zero; nan never taken."""
    hit = np.array(times, dtype=float)
    want = h0
    for v in hit:
        if v < want:
            want = v
    got = _min_hit(hit, I64(hit.size), h0)
    assert got == want and np.signbit(got) == np.signbit(want)


@settings(max_examples=150, deadline=None)
@given(states(max_n=23), st.sampled_from([0.0, 1e-12, 1e-7, 1e-3]))
def test_scan_after_a_step_and_the_class_sums_put_back(state, off):
    """_scan_free's free flags, drift, sums and most-room candidates are their definitions; with them
    _apply_class_sums moves a class sum that is off by less than CLASS_SUM_FIX_RTOL back to λ/2 on
    the candidate with room for it (its s by that column of G), and leaves a larger difference."""
    y, x, s, K, _ = state
    n = y.size
    t = np.array([0.1, -0.2]) * (np.abs(s).max() + 1.0)
    half = float(max(np.sum(x[y > 0]), np.sum(x[y < 0]))) + off
    x0, s0 = x.copy(), s.copy()
    scan = _run_scan_and_fix(K, y, 1.0 / n, x, s, t, half)
    ref = nv.free_scan(y, x0, s0, t)
    assert scan[:3] == (ref["free0"], ref["free1"], ref["drift"])
    np.testing.assert_allclose(scan[3:5], (ref["sum0"], ref["sum1"]), rtol=1e-13, atol=1e-13)
    assert scan[5:9] == (ref["up0"], ref["down0"], ref["up1"], ref["down1"])
    for c, sgn in ((0, 1.0), (1, -1.0)):
        cls = y == sgn
        delta = half - scan[3 + c]
        b = scan[5 + 2 * c] if delta > 0 else scan[6 + 2 * c]
        room = (1.0 - x0[b] if delta > 0 else x0[b]) if b >= 0 else 0.0
        moved = 0.0 < abs(delta) <= cfg.CLASS_SUM_FIX_RTOL * max(1.0, half) and b >= 0 and room > abs(delta)
        if moved:
            assert np.sum(x[cls]) == pytest.approx(half, abs=1e-12)
            assert x[b] == x0[b] + delta and np.array_equal(np.flatnonzero(x[cls] != x0[cls]), [np.sum(cls[:b])])
        else:
            assert np.array_equal(x[cls], x0[cls])
    np.testing.assert_allclose(s, s0 + K @ ((x - x0) * y) * y / n, rtol=0, atol=1e-12 * (np.abs(s0).max() + 1))


@settings(max_examples=60, deadline=None)
@given(st.integers(6, 40), st.integers(0, 2**32 - 1))
def test_rank_one_update_borders_the_matrix_and_inverts_it(n, seed):
    """minv_add with point j: the bordered KKT matrix of W ∪ {j} by its definition, its inverse to
    rounding, j placed last in W; refused exactly when j's Schur complement is below dep_tol times its
    diagonal, leaving everything as it stood. Every size of W around the blocks of four."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    K = np.ascontiguousarray(np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 0.2))  # well-conditioned
    inv_m, dep_tol = 1.0 / n, 1e-11
    members = rng.permutation(n).astype(I64)
    members[:2] = members[:2][np.argsort(-y[members[:2]])] if y[members[0]] != y[members[1]] else [0, 1]
    members[2:] = [k for k in rng.permutation(n) if k not in members[:2]]
    nmem = I64(rng.integers(2, n - 1))
    Minv, Mb = np.zeros((n + 2, n + 2)), np.zeros((n + 2, n + 2))
    widx, pos = np.zeros(n, I64), np.full(n, -1, I64)
    ok, nw = minv_build(K, y, inv_m, Minv, Mb, widx, pos, I64(0), members, nmem, dep_tol)
    assert ok
    j = I64(next(k for k in members if pos[k] < 0))
    W = [int(w) for w in widx[:nw]]
    before = [a.copy() for a in (Minv, Mb, widx, pos)]
    M_old, M_new = nv.bordered_matrix(K, y, W, n), nv.bordered_matrix(K, y, W + [int(j)], n)
    v, delta = M_new[:-1, -1], M_new[-1, -1]
    schur = delta - v @ np.linalg.solve(M_old, v)
    added, nw_after = minv_add(K, y, inv_m, Minv, Mb, widx, pos, nw, j, dep_tol)
    assert added == (abs(schur) > dep_tol * delta)
    if not added:
        assert nw_after == nw and all(np.array_equal(a, b) for a, b in zip((Minv, Mb, widx, pos), before))
        return
    p = nw + 3
    assert nw_after == nw + 1 and widx[nw] == j and pos[j] == nw and list(widx[:nw]) == W
    np.testing.assert_allclose(Mb[:p, :p], M_new, rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose(Minv[:p, :p], np.linalg.inv(M_new), rtol=1e-7, atol=1e-9 * np.abs(Minv[:p, :p]).max())
    np.testing.assert_allclose(Minv[:p, :p] @ Mb[:p, :p], np.eye(p), atol=1e-9)
