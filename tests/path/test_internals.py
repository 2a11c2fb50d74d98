"""Internals of the ν-path kernels (svmviz.path._solver): the shared step routine, named codes, config values.

tests/path/test_path.py checks the path and leave-one-out against independent references; these pin the
pieces a maintainer edits: the one ratio test and step (events.py) that the path follower, the
leave-one-out homotopy and the active-set QP share, the status codes and reasons, that the kernels
use the tolerances named in config.py, and that numba's cache follows an edit of any module.
Every expected value is computed by hand here from the inputs (a line says how).
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from svmviz.path import _solver as _nu_path
from svmviz.path._solver import config as cfg
from svmviz.path._solver.events import advance, max_zero_steps, ratio_test, step_to_event
from svmviz.path._solver.follower import _fix_class_sums, _record, _snap_lambda
from svmviz.path._solver.kkt import kkt_tol, minv_add, minv_add_tested, minv_build, tie_tolerance
from svmviz.data import banana, esl_mixture
from svmviz.path import STATUS_MESSAGES, nu_path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
I64 = np.int64


def _w(*idx):
    """(widx, pos, nw) of a working set holding the points ``idx`` (of 8 points)."""
    widx = np.zeros(8, I64)
    pos = -np.ones(8, I64)
    for k, j in enumerate(idx):
        widx[k] = j
        pos[j] = k
    return widx, pos, len(idx)


# ------------------------------------------------------------------------------- the ratio test
def test_ratio_test_takes_the_nearest_bound_and_names_the_blocking_point():
    y = np.array([1.0, 1.0, -1.0, -1.0])
    x = np.array([0.2, 0.9, 0.5, 0.3])
    lo, hi = np.zeros(4), np.ones(4)
    widx, pos, nw = _w(0, 1, 2, 3)
    d = np.array([-0.1, 0.2, 0.0, 0.5])  # to 0 at 2.0, to 1 at 0.5, never, to 1 at 1.4
    t, blk, to = ratio_test(y, x, d, widx, nw, lo, hi, 10.0, 1e-14 * 0.5, False)
    assert (t, blk, to) == ((1.0 - 0.9) / 0.2, 1, 1.0)
    t, blk, to = ratio_test(y, x, d, widx, nw, lo, hi, 0.25, 1e-14 * 0.5, False)  # nothing before t_max
    assert (t, blk) == (0.25, cfg.NO_POINT)
    # a member already past its bound blocks at once (never a negative step)
    t, blk, to = ratio_test(y, np.array([0.2, 1.0 + 1e-12, 0.5, 0.3]), d, widx, nw, lo, hi, 10.0, 1e-15, False)
    assert (t, blk, to) == (0.0, 1, 1.0)


def test_ratio_test_ignores_noise_infinite_bounds_and_the_last_member_of_a_class():
    y = np.array([1.0, 1.0, -1.0, -1.0])
    x = np.array([0.5, 0.5, 0.5, 0.5])
    widx, pos, nw = _w(0, 1, 2, 3)
    lo, hi = np.zeros(4), np.ones(4)
    d = np.array([1.0, 1e-15, -0.25, 0.0])  # point 1 would block first (t = 5e14) were it not noise
    tiny = cfg.DIRECTION_TINY * 1.0
    assert ratio_test(y, x, d, widx, nw, lo, hi, 1e20, tiny, False)[:2] == (0.5, 0)
    d = np.array([0.0, 2.0, -1.0, 0.0])
    # point 1's upper bound is +∞: only point 2 (lower bound 0, t = 0.5) can block
    assert ratio_test(y, x, d, widx, nw, lo, np.array([1.0, np.inf, 1.0, 1.0]), 9.0, 1e-14, False)[:2] == (0.5, 2)
    # the active set keeps one member per class in W: with W = {0, 1, 2}, point 2 is the last of its class
    widx, pos, nw = _w(0, 1, 2)
    assert ratio_test(y, x, d, widx, nw, lo, hi, 9.0, 1e-14, True)[:2] == (0.25, 1)
    assert ratio_test(y, x, d, widx, nw, lo, hi, 9.0, 1e-14, False)[:2] == (0.25, 1)
    d = np.array([0.0, 0.0, -1.0, 0.0])
    assert ratio_test(y, x, d, widx, nw, lo, hi, 9.0, 1e-14, True)[:2] == (9.0, cfg.NO_POINT)
    assert ratio_test(y, x, d, widx, nw, lo, hi, 9.0, 1e-14, False)[:2] == (0.5, 2)


# ------------------------------------------------------------------------------- events and the step
def _five_points():
    """W = {0, 1, 3}; point 2 is bound at α = 0 (class +1), point 4 at α = 1 (class −1), neither tied.

    Events (dt₊ = 0.4, dt₋ = 0): point 0 reaches α = 1 at h = 0.6/0.3 = 2; point 1 reaches 0 at
    0.6/0.1 = 6; point 2's g = 0.5 falls at dg = gd − dt₊ = −0.6, reaching 0 at 5/6; point 4's
    g = −0.9 rises at 0.3, reaching 0 at 3.
    """
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    x = np.array([0.4, 0.6, 0.0, 0.5, 1.0])
    widx, pos, nw = _w(0, 1, 3)
    d = np.array([0.3, -0.1, 0.0, 0.0, 0.0])
    gd = np.array([0.0, 0.0, -0.2, 0.0, 0.3])
    g = np.array([0.0, 0.0, 0.5, 0.0, -0.9])
    lo = np.array([-np.inf, -np.inf, 0.0, -np.inf, 0.0])
    hi = np.array([np.inf, np.inf, 0.0, np.inf, 0.0])
    return y, x, widx, pos, nw, d, gd, g, lo, hi


def _step(y, x, widx, pos, nw, d, gd, g, lo, hi, t_max=10.0, skip=-1):
    return step_to_event(y, x, d, gd, 0.4, 0.0, g, lo, hi, np.zeros(5), np.ones(5), widx, pos, nw, t_max,
                         np.abs(d).max(), 1e-12, skip, np.empty(5))


def test_step_to_event_finds_each_of_the_four_kinds_of_events():
    y, x, widx, pos, nw, d, gd, g, lo, hi = _five_points()
    assert _step(y, x, widx, pos, nw, d, gd, g, lo, hi) == 0.5 / -(-0.2 - 0.4)  # α = 0 point: g reaches 0
    assert _step(y, x, widx, pos, nw, d, gd, g, lo, hi, skip=2) == (1.0 - 0.4) / 0.3  # W member reaches 1
    d[0] = 0.0
    assert _step(y, x, widx, pos, nw, d, gd, g, lo, hi, skip=2) == 0.9 / 0.3  # α = 1 point: g reaches 0
    gd[4] = 0.0
    assert _step(y, x, widx, pos, nw, d, gd, g, lo, hi, skip=2) == -(0.6 - 0.0) / -0.1  # W member reaches 0
    assert _step(y, x, widx, pos, nw, d, gd, g, lo, hi, t_max=1.9, skip=2) == 1.9  # the range ends first
    y, x, widx, pos, nw, d, gd, g, lo, hi = _five_points()
    lo[2], hi[2] = 0.0, np.inf  # tied (free in the derivative QP): it moves with d, not an event
    assert _step(y, x, widx, pos, nw, d, gd, g, lo, hi) == (1.0 - 0.4) / 0.3


def _advance(y, x, s, d, gd, g, lo, hi, widx, pos, nw, remaining, tied, skip, n_zero, max_zero, dt=(0.0, 0.0)):
    n = x.shape[0]
    return advance(y, x, s, d, gd, dt[0], dt[1], g, lo, hi, np.zeros(n), np.ones(n), widx, pos, nw, remaining,
                   1.0, np.abs(d).max(), 1e-9, tied, skip, n_zero, max_zero, np.empty(n))


Y4 = np.array([1.0, 1.0, 1.0, -1.0])


def test_advance_moves_snaps_ties_and_updates_s():
    """Two members of W reach α = 1 within the step tolerance of each other: both end exactly on the
    bound (the path must not lose either); s moves by h·G d."""
    widx, pos, nw = _w(0, 1, 3)
    x = np.array([0.5, 0.5 + 1e-11, 0.0, 0.2])
    d = np.array([1.0, 1.0, 0.0, 0.0])  # point 1 reaches 1 at h = 0.5 − 1e-11, point 0 at 0.5
    gd = np.array([0.1, 0.2, 0.3, 0.4])
    s0 = np.array([1.0, 2.0, 3.0, 4.0])
    s, g = s0.copy(), np.full(4, 1.0)
    lo, hi = np.zeros(4), np.zeros(4)
    tied = np.ones(4, np.bool_)
    h_exp = (1.0 - x[1]) / 1.0
    h, at_end, n_zero, ok = _advance(Y4, x, s, d, gd, g, lo, hi, widx, pos, nw, 10.0, tied, -1, I64(3), 99)
    htol = cfg.STEP_SNAP_RTOL * 1.0 + cfg.STEP_SNAP_ATOL * 1.0  # h < 1 and the parameter's scale is 1
    assert ok and not at_end and n_zero == 0  # a step of positive length resets the count
    assert h == h_exp and 0.5 - h_exp < htol
    np.testing.assert_array_equal(x[:2], [1.0, 1.0])  # both snapped onto the bound
    np.testing.assert_array_equal(s, s0 + h * gd)
    assert not tied.any()  # reset, and no bound point reached g = 0 (point 2's g rises)


def test_advance_does_not_snap_beyond_the_tolerance_and_ends_at_the_range():
    widx, pos, nw = _w(0, 1, 3)
    gap = 10 * (cfg.STEP_SNAP_RTOL + cfg.STEP_SNAP_ATOL)  # ten step tolerances apart: two events
    x = np.array([0.5, 0.5 + gap, 0.0, 0.2])
    d = np.array([1.0, 1.0, 0.0, 0.0])
    s, gd, g, lo, hi = np.zeros(4), np.zeros(4), np.ones(4), np.zeros(4), np.zeros(4)
    tied = np.zeros(4, np.bool_)
    h_exp = 1.0 - x[1]
    h, at_end, n_zero, ok = _advance(Y4, x, s, d, gd, g, lo, hi, widx, pos, nw, 10.0, tied, -1, I64(0), 99)
    assert ok and h == h_exp
    assert x[1] == 1.0 and x[0] == 0.5 + h_exp < 1.0 - 0.5 * gap  # point 0 stays in W, short of 1
    # an event within the step tolerance of the range's end is the end: h = remaining exactly
    x = np.array([0.5, 0.1, 0.0, 0.2])
    h, at_end, n_zero, ok = _advance(Y4, x, s, d, gd, g, lo, hi, widx, pos, nw, 0.5 + 1e-12, tied, -1, I64(0),
                                     99)
    assert ok and at_end and h == 0.5 + 1e-12 and x[0] == 1.0


def test_advance_marks_bound_points_that_reach_g_zero_as_tied_unless_skipped():
    y, x, widx, pos, nw, d, gd, g, lo, hi = _five_points()
    tied = np.zeros(5, np.bool_)
    h, at_end, n_zero, ok = _advance(y, x, np.zeros(5), d, gd, g, lo, hi, widx, pos, nw, 10.0, tied, -1,
                                     I64(0), 99, dt=(0.4, 0.0))
    assert ok and h == 0.5 / -(-0.2 - 0.4)
    np.testing.assert_array_equal(tied, [False, False, True, False, False])  # point 4's event is at 3
    y, x, widx, pos, nw, d, gd, g, lo, hi = _five_points()
    h, at_end, n_zero, ok = _advance(y, x, np.zeros(5), d, gd, g, lo, hi, widx, pos, nw, 10.0, tied, 2,
                                     I64(0), 99, dt=(0.4, 0.0))
    assert h == (1.0 - 0.4) / 0.3 and not tied.any()  # point 2 skipped (the homotopy's left-out point)


def test_advance_counts_zero_steps_and_stops_cycling_without_moving():
    """A member at α = 0 with d < 0 blocks at once: zero-length steps are counted; one beyond
    max_zero_steps(m) = ZERO_STEPS_PER_POINT·m + ZERO_STEPS_SLACK is cycling, and nothing moves."""
    assert max_zero_steps(I64(7)) == cfg.ZERO_STEPS_PER_POINT * 7 + cfg.ZERO_STEPS_SLACK == 24
    widx, pos, nw = _w(0, 1, 3)
    d = np.array([-1.0, 1.0, 0.0, 0.0])
    s, gd, g, lo, hi = np.zeros(4), np.ones(4), np.ones(4), np.zeros(4), np.zeros(4)
    tied = np.zeros(4, np.bool_)
    x = np.array([0.0, 0.5, 0.0, 0.2])
    h, at_end, n_zero, ok = _advance(Y4, x, s, d, gd, g, lo, hi, widx, pos, nw, 10.0, tied, -1, I64(23), 24)
    assert (h, n_zero, ok) == (0.0, 24, True)
    h, at_end, n_zero, ok = _advance(Y4, x, s, d, gd, g, lo, hi, widx, pos, nw, 10.0, tied, -1, I64(24), 24)
    assert (h, n_zero, ok) == (0.0, 25, False)
    np.testing.assert_array_equal(x, [0.0, 0.5, 0.0, 0.2])
    np.testing.assert_array_equal(s, np.zeros(4))


# ------------------------------------------------------------------------------- named codes
def test_status_codes_and_lost_reasons_are_named_and_distinct():
    statuses = [cfg.STATUS_OK, cfg.STATUS_MAX_BREAKPOINTS, cfg.STATUS_LOST]
    lost = [cfg.LOST_NO_PIVOT, cfg.LOST_WORKING_SET, cfg.LOST_DIRECTION_SOLVE, cfg.LOST_DIRECTION_RESIDUAL,
            cfg.LOST_NO_PROGRESS, cfg.LOST_CORRECTION]
    assert len(set(statuses)) == 3 and len(set(lost)) == 6 and cfg.LOST_NONE not in lost
    assert set(cfg.LOST_REASONS) == set(lost) and all(cfg.LOST_REASONS[k] for k in lost)
    assert set(STATUS_MESSAGES) == set(statuses)  # svmviz.path words every status
    for name in ("follow_path", "loo_refits", "loo_refits_parallel", "LOST_REASONS", "STATUS_OK",
                 "STATUS_MAX_BREAKPOINTS", "STATUS_LOST"):
        assert getattr(_nu_path, name) is not None  # what svmviz.path uses, re-exported by the package
    for name in ("QP_OK", "QP_MAX_ITER", "QP_NUMERICAL", "LOO_OK", "LOO_QP_FAILED", "LOO_NUMERICAL"):
        assert getattr(_nu_path, name) == getattr(cfg, name)
    assert len({cfg.QP_OK, cfg.QP_MAX_ITER, cfg.QP_NUMERICAL}) == 3
    assert len({cfg.LOO_OK, cfg.LOO_QP_FAILED, cfg.LOO_NUMERICAL}) == 3


@pytest.mark.parametrize("case,reasons", [
    ("qp_cap", [cfg.LOST_DIRECTION_SOLVE]),  # 5 active-set iterations cannot solve the first direction
    # tol 1e-30, far below rounding, on a nearly singular K (σ = 10): no breakpoint can meet it, so the path
    # is lost on every machine; where and why (the correction, the direction solve) follow the kernel's
    # last bits, which depend on the CPU (see test_without_correction_qp.py)
    ("tiny_tol", list(cfg.LOST_REASONS)),
])
def test_a_lost_path_says_why_in_its_convergence_warning(case, reasons):
    if case == "qp_cap":
        ds, kw = banana(n=80, seed=1), dict(sigma=1.0, max_qp_iter=5)
    else:
        ds, kw = esl_mixture(n=60, seed=1), dict(sigma=10.0, tol=1e-30)
    with pytest.warns(ConvergenceWarning) as rec:
        p = nu_path(ds.X, ds.y, **kw)
    assert p.status == cfg.STATUS_LOST
    msg = str(rec[0].message)
    assert STATUS_MESSAGES[cfg.STATUS_LOST] in msg and any(cfg.LOST_REASONS[r] in msg for r in reasons), msg


# ------------------------------------------------------------------------------- config values in use
def test_scales_and_tie_tolerance():
    gs = 0.25
    assert kkt_tol(1.0, gs, 0.3) == 0.25 and kkt_tol(1e-7, gs, 8.0) == 1e-7 * 0.25 * 8.0
    s = np.array([0.0, -3e-6, 1e-6])
    floor = cfg.TIE_SCALE_FLOOR * gs * 8.0  # 2e-3 > max |s| = 3e-6: the floor decides
    assert tie_tolerance(s, 1e-9, gs, 8.0) == 1e-9 * floor
    assert tie_tolerance(s * 1e4, 1e-9, gs, 8.0) == 1e-9 * np.abs(s * 1e4).max()  # 3e-2: |s| decides


def _bordered_schur(G, y, W, j):
    """δ − v'M⁻¹v for point j against the bordered matrix of W (numpy), relative to δ = G_jj."""
    C = np.array([[1.0 if y[w] > 0 else 0.0 for w in W], [1.0 if y[w] < 0 else 0.0 for w in W]])
    M = np.block([[np.zeros((2, 2)), C], [C.T, G[np.ix_(W, W)]]])
    v = np.r_[[1.0, 0.0] if y[j] > 0 else [0.0, 1.0], G[W, j]]
    return (G[j, j] - v @ np.linalg.solve(M, v)) / G[j, j]


def test_dependent_points_do_not_enter_the_working_set():
    """DEP_TOL: a duplicated point cannot enter W; DEP_TOL_RETRY: a nearly dependent point (relative
    Schur complement between the two tolerances) enters on the first try and not on the retry."""
    X = np.array([[0.0, 0.0], [1.5, 0.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0 + 3e-5], [1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0, 1.0, 1.0, -1.0])
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2)
    m = len(y)
    G = np.outer(y, y) * K / m

    def fresh():
        Minv, Mb, widx, pos = np.zeros((m + 2, m + 2)), np.zeros((m + 2, m + 2)), np.zeros(m, I64), -np.ones(m, I64)
        ok, nw = minv_build(K, y, 1.0 / m, Minv, Mb, widx, pos, I64(0), np.array([0, 1, 2], I64), I64(3),
                            cfg.DEP_TOL)
        assert ok and nw == 3
        return Minv, Mb, widx, pos, nw

    rel_dup, rel_near, rel_far = (_bordered_schur(G, y, [0, 1, 2], j) for j in (3, 4, 5))
    assert abs(rel_dup) < 1e-14 and cfg.DEP_TOL < rel_near < cfg.DEP_TOL_RETRY and rel_far > 1e-2
    for j, tol, enters in ((3, cfg.DEP_TOL, False), (4, cfg.DEP_TOL, True), (4, cfg.DEP_TOL_RETRY, False),
                           (5, cfg.DEP_TOL_RETRY, True)):
        Minv, Mb, widx, pos, nw = fresh()
        ok, nw2 = minv_add(K, y, 1.0 / m, Minv, Mb, widx, pos, I64(nw), I64(j), tol)
        assert ok == enters and nw2 == nw + enters, (j, tol)



def test_signed_dependency_test_refuses_a_negative_schur_complement():
    """minv_add_tested: unsigned, as minv_add (the same inverse, bit for bit); signed, a point enters only
    if its Schur complement itself is above dep_tol of its diagonal. A Schur complement is ≥ 0 for a
    positive semidefinite G; lowering K_jj below what positive semidefiniteness allows makes point j's
    negative, −(its value before) of a diagonal still > 0."""
    X = np.array([[0.0, 0.0], [1.5, 0.0], [0.0, 1.0], [1.2, 0.2]])  # point 3 near point 1, its class
    y = np.array([1.0, -1.0, 1.0, -1.0])
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 2)
    m = len(y)
    j = 3
    sig = _bordered_schur(np.outer(y, y) * K / m, y, [0, 1, 2], j) * K[j, j]  # times m: in units of K
    Kneg = K.copy()
    Kneg[j, j] -= 2.0 * sig
    assert sig > 0.0 and Kneg[j, j] > 0.0
    rel_neg = _bordered_schur(np.outer(y, y) * Kneg / m, y, [0, 1, 2], j)
    assert rel_neg < -cfg.DEP_TOL_RETRY

    def fresh(Km):
        Minv, Mb, widx, pos = np.zeros((m + 2, m + 2)), np.zeros((m + 2, m + 2)), np.zeros(m, I64), -np.ones(m, I64)
        ok, nw = minv_build(Km, y, 1.0 / m, Minv, Mb, widx, pos, I64(0), np.array([0, 1, 2], I64), I64(3),
                            cfg.DEP_TOL)
        assert ok and nw == 3
        return Minv, Mb, widx, pos, nw

    for Km, signed, enters in ((K, False, True), (K, True, True), (Kneg, False, True), (Kneg, True, False)):
        Minv, Mb, widx, pos, nw = fresh(Km)
        ok, nw2 = minv_add_tested(Km, y, 1.0 / m, Minv, Mb, widx, pos, I64(nw), I64(j), cfg.DEP_TOL_RETRY,
                                  np.bool_(signed))
        assert ok == enters and nw2 == nw + enters, (signed, enters)
        if not signed:
            Minv1, Mb1, widx1, pos1, _ = fresh(Km)
            ok1, nw1 = minv_add(Km, y, 1.0 / m, Minv1, Mb1, widx1, pos1, I64(nw), I64(j), cfg.DEP_TOL_RETRY)
            assert (ok1, nw1) == (ok, nw2) and np.array_equal(Minv1, Minv) and np.array_equal(Mb1, Mb)
        if enters:  # the bordered inverse of W ∪ {j}
            p = nw2 + 2
            assert np.abs(Minv[:p, :p] @ Mb[:p, :p] - np.eye(p)).max() < 1e-8


def test_lambda_snap_and_class_sum_fix_follow_their_tolerances():
    y = np.array([1.0, 1.0, 1.0, -1.0, -1.0])
    x = np.array([1.0, 1.0, 0.0, 0.5, 0.5])  # class +1 has no free point: λ/2 = 2 α = 1 points
    assert _snap_lambda(y, x, 4.0 * (1 + 0.5 * cfg.LAMBDA_SNAP_RTOL)) == 4.0
    assert _snap_lambda(y, x, 4.0 * (1 + 2.0 * cfg.LAMBDA_SNAP_RTOL)) == 4.0 * (1 + 2.0 * cfg.LAMBDA_SNAP_RTOL)
    # class sums: put back exactly when off by less than CLASS_SUM_FIX_RTOL, else left for the KKT check
    K = np.eye(5)
    for off, fixed in ((0.5 * cfg.CLASS_SUM_FIX_RTOL, True), (2.0 * cfg.CLASS_SUM_FIX_RTOL, False)):
        x = np.array([0.3, 0.7 - off, 0.0, 0.5, 0.5])  # class +1 sums to 1 − off; λ/2 = 1
        s = np.zeros(5)
        _fix_class_sums(K, y, 0.2, x, s, 1.0)
        if fixed:  # the free point with the most room (point 0) takes the difference; s = Gx follows
            assert abs(x[0] + x[1] - 1.0) <= 2 * np.finfo(float).eps and x[0] > 0.3
            assert s[0] == pytest.approx((x[0] - 0.3) * 0.2, rel=1e-9) and not s[1:].any()
        else:
            assert x[0] == 0.3 and not s.any()


def test_record_grows_its_arrays():
    lam, al, t = np.empty(1), np.empty((1, 2)), np.empty((1, 2))
    nb = I64(0)
    for k in range(4):
        lam, al, t, nb = _record(lam, al, t, nb, float(k), np.array([k, -k], float), np.array([k, 2.0 * k]))
    assert nb == 4 and lam.shape[0] == 4 and al.shape == (4, 2)  # grown by half (at least 1): 1 → 2 → 3 → 4
    lam, al, t, nb = _record(lam, al, t, nb, 4.0, np.array([4.0, -4.0]), np.array([4.0, 8.0]))
    assert nb == 5 and lam.shape[0] == 6  # 4 → 6
    np.testing.assert_array_equal(lam[:5], [0.0, 1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(al[:5, 1], [0.0, -1.0, -2.0, -3.0, -4.0])
    np.testing.assert_array_equal(t[:5, 1], [0.0, 2.0, 4.0, 6.0, 8.0])


# ------------------------------------------------------------------------------- numba's cache
_PROBE = ("import numpy as np; from svmviz.path._solver.kkt import tie_tolerance; "
          "print(repr(tie_tolerance(np.zeros(3), 1.0, 1.0, 1.0)))")


def test_numba_cache_follows_an_edit_of_another_module(tmp_path):
    """``tie_tolerance`` (kkt.py) compiles in config.TIE_SCALE_FLOOR; numba checks only kkt.py's source
    for a cached copy. Edit config.py alone: the next process must see the new value, not the cache."""
    pkg = tmp_path / "src"
    shutil.copytree(os.path.join(ROOT, "svmviz"), pkg / "svmviz", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(pkg), PYTHONDONTWRITEBYTECODE="1")

    def probe():
        res = subprocess.run([sys.executable, "-c", _PROBE], env=env, cwd=tmp_path, capture_output=True,
                             text=True, timeout=600)
        assert res.returncode == 0, res.stderr
        return float(res.stdout.strip())

    assert probe() == cfg.TIE_SCALE_FLOOR
    assert probe() == cfg.TIE_SCALE_FLOOR  # from the cache now
    conf = pkg / "svmviz" / "path" / "_solver" / "config.py"
    text = conf.read_text()
    assert "TIE_SCALE_FLOOR = 1e-3\n" in text
    conf.write_text(text.replace("TIE_SCALE_FLOOR = 1e-3\n", "TIE_SCALE_FLOOR = 0.25\n"))
    assert probe() == 0.25
