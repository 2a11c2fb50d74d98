"""The ν-path's per-breakpoint loops written for speed against the plain loops they replace (as
tests/path/test_breakpoint_loops.py does for the KKT loops).

- ``asqp._solve_working_set``: its three products (the first solve, the residual with its scale, the
  correction) as sums of four scaled rows per sweep (``asqp._add_rows``, ``asqp._add_rows_abs``),
  −grad_W kept instead of grad_W, the class sums without a branch per member — bitwise the plain
  row-by-row loops, for every size of W around the blocks of four and every number of refinements;
- ``follower._direction_ok``: one pass over W instead of all points (d is 0 outside W): the same
  max |d| and verdict; its class sums equal the index-order sums to rounding;
- ``follower._count_dependent`` without branches: the same counts.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from svmviz.path._solver.asqp import _solve_working_set
from svmviz.path._solver.config import DEPENDENT_SKIP_FACTOR, DIRECTION_RESIDUAL_RTOL, DIRECTION_SUM_RTOL, TINY
from svmviz.path._solver.config import REFINE_TARGET
from svmviz.path._solver.follower import _count_dependent, _direction_ok

I64 = np.int64


# ------------------------------------------------------------------------------- plain references
@njit(cache=False)
def _ref_solve_working_set(y, grad, Minv, Mb, widx, nw, sol, solb, resid, gw, racc, rabs, max_refine):
    """asqp._solve_working_set as it was (one row per sweep, grad_W kept, a branch per member)."""
    p = nw + 2
    for k in range(nw):
        gw[k] = grad[widx[k]]
    for a in range(p):
        sol[a] = 0.0
    for k in range(nw):
        c = gw[k]
        row = Minv[2 + k]
        for a in range(p):
            sol[a] -= row[a] * c
    best_err = np.inf
    for ipass in range(max_refine + 1 if max_refine > 0 else 0):
        for k in range(nw):
            racc[k] = 0.0
            rabs[k] = 0.0
        for b in range(p):
            c = sol[b]
            row = Mb[b]
            for k in range(nw):
                v = row[2 + k] * c
                racc[k] += v
                rabs[k] += abs(v)
        rmax = 0.0
        scl = 0.0
        for k in range(nw):
            r = -gw[k] - racc[k]
            resid[2 + k] = r
            rmax = max(rmax, abs(r))
            scl = max(scl, abs(gw[k]) + rabs[k])
        resid[0] = 0.0
        resid[1] = 0.0
        cmax = 0.0
        for k in range(nw):
            cmax = max(cmax, abs(sol[2 + k]))
            if y[widx[k]] > 0:
                resid[0] -= sol[2 + k]
            else:
                resid[1] -= sol[2 + k]
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
        for b in range(p):
            c = resid[b]
            row = Minv[b]
            for a in range(p):
                racc[a] += row[a] * c
        for a in range(p):
            sol[a] += racc[a]


@njit(cache=False)
def _ref_direction_ok(y, d, gd, dt0, dt1, widx, nw, gs):
    dnorm = 0.0
    res = 0.0
    cs0 = -0.5
    cs1 = -0.5
    for i in range(d.shape[0]):
        dnorm = max(dnorm, abs(d[i]))
        if y[i] > 0:
            cs0 += d[i]
        else:
            cs1 += d[i]
    for k in range(nw):
        i = widx[k]
        res = max(res, abs(gd[i] - (dt0 if y[i] > 0 else dt1)))
    good = (res <= DIRECTION_RESIDUAL_RTOL * gs * max(1.0, dnorm)
            and abs(cs0) <= DIRECTION_SUM_RTOL * max(1.0, dnorm) and abs(cs1) <= DIRECTION_SUM_RTOL * max(1.0, dnorm))
    return good, dnorm, cs0, cs1


@njit(cache=False)
def _ref_count_dependent(y, alpha, d, gd, dt0, dt1, lo, hi, pos, tol, gs, dnorm):
    cnt = 0
    for i in range(alpha.shape[0]):
        if pos[i] < 0 and lo[i] < hi[i] and d[i] == 0.0:
            dg = gd[i] - (dt0 if y[i] > 0 else dt1)
            if alpha[i] > 0.0 and alpha[i] < 1.0 and abs(dg) > DEPENDENT_SKIP_FACTOR * tol * gs * max(1.0, dnorm):
                cnt += 1
    return cnt


# the rewritten kernels are helpers (no CPython wrapper): called from kernels here
@njit(cache=False)
def _run_solve(y, grad, Minv, Mb, widx, nw, sol, solb, resid, gw, racc, rabs, max_refine):
    _solve_working_set(y, grad, Minv, Mb, widx, nw, sol, solb, resid, gw, racc, rabs, max_refine)


@njit(cache=False)
def _run_direction_ok(y, d, gd, dt0, dt1, widx, nw, gs):
    return _direction_ok(y, d, gd, dt0, dt1, widx, nw, gs)


@njit(cache=False)
def _run_count_dependent(y, alpha, d, gd, dt0, dt1, lo, hi, pos, tol, gs, dnorm):
    return _count_dependent(y, alpha, d, gd, dt0, dt1, lo, hi, pos, tol, gs, dnorm)


def _bordered(rng, n, nw, noise):
    """A bordered KKT matrix of a Gaussian kernel on nw of n random points (both classes), and an
    inverse that is off by ``noise`` (an updated inverse drifts: the refinement has work to do)."""
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    widx = rng.choice(n, nw, replace=False).astype(I64)
    y[widx[0]], y[widx[1]] = 1.0, -1.0
    K = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / rng.choice([0.3, 3.0]))
    p = nw + 2
    Mb = np.full((n + 2, n + 2), np.nan)  # only the leading p x p block may be read
    C = np.zeros((2, nw))
    C[0, y[widx] > 0] = 1.0
    C[1, y[widx] < 0] = 1.0
    G = (y[widx, None] * y[None, widx]) * K[np.ix_(widx, widx)] / n + 1e-3 * np.eye(nw)
    Mb[:p, :p] = np.block([[np.zeros((2, 2)), C], [C.T, G]])
    Minv = np.full((n + 2, n + 2), np.nan)
    inv = np.linalg.inv(Mb[:p, :p])
    Minv[:p, :p] = inv * (1.0 + noise * rng.normal(size=(p, p)))
    return y, np.ascontiguousarray(Minv), np.ascontiguousarray(Mb), widx


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 41), st.integers(0, 4), st.sampled_from([0.0, 1e-12, 1e-6, 1e-3]), st.integers(0, 2**32 - 1))
def test_solve_working_set_in_blocks_of_four_rows_equals_the_plain_loops(nw, max_refine, noise, seed):
    rng = np.random.default_rng(seed)
    n = nw + int(rng.integers(0, 6))
    y, Minv, Mb, widx = _bordered(rng, n, nw, noise)
    grad = rng.normal(size=n) * rng.choice([1e-6, 1.0, 1e3])
    grad[rng.random(n) < 0.1] = 0.0
    out = []
    for run in (_run_solve, _ref_solve_working_set):
        work = np.full((6, n + 2), np.nan)
        run(y, grad, Minv, Mb, widx, I64(nw), *work, I64(max_refine))
        out.append(work[0, :nw + 2])
    assert np.array_equal(out[0], out[1]), np.abs(out[0] - out[1]).max()
    # and it solves the bordered system: M sol = (0, 0, -grad_W)
    if noise <= 1e-12 or (noise <= 1e-6 and max_refine >= 2):
        p = nw + 2
        rhs = np.r_[0.0, 0.0, -grad[widx]]
        np.testing.assert_allclose(Mb[:p, :p] @ out[0], rhs, atol=1e-6 * (1.0 + np.abs(rhs).max()))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 60), st.integers(0, 2**32 - 1), st.sampled_from([1e-12, 1e-9, 1e-6, 0.0]))
def test_direction_check_over_the_working_set_equals_the_pass_over_all_points(n, seed, off):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    nw = int(rng.integers(1, n + 1))
    widx = rng.choice(n, nw, replace=False).astype(I64)
    d = np.zeros(n)  # 0 outside W, as the derivative QP leaves it
    d[widx] = rng.normal(size=nw) * rng.choice([1e-3, 1.0, 1e4])
    for c in (1.0, -1.0):  # class sums ½ (up to `off`, around the tolerance)
        m = widx[y[widx] == c]
        if m.size:
            d[m[0]] += 0.5 + off - d[m].sum()
    gd = rng.normal(size=n) * 1e-9
    gs, dt0, dt1 = 0.3, 1e-9 * rng.normal(), 1e-9 * rng.normal()
    gd[widx] = np.where(y[widx] > 0, dt0, dt1) + rng.choice([0.0, 1e-8, 1e-3]) * rng.normal(size=nw)
    good, dnorm = _run_direction_ok(y, d, gd, dt0, dt1, widx, I64(nw), gs)
    g_ref, dn_ref, cs0, cs1 = _ref_direction_ok(y, d, gd, dt0, dt1, widx, I64(nw), gs)
    assert dnorm == dn_ref
    lim = DIRECTION_SUM_RTOL * max(1.0, dn_ref)
    # the verdict is the same unless a class sum lies within rounding of the tolerance
    if min(abs(abs(cs0) - lim), abs(abs(cs1) - lim)) > 1e-14 * max(1.0, dn_ref):
        assert good == g_ref


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 50), st.integers(0, 2**32 - 1))
def test_dependent_count_without_branches_equals_the_plain_loop(n, seed):
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    kind = rng.integers(0, 3, n)
    alpha = np.where(kind == 0, 0.0, np.where(kind == 2, 1.0, rng.uniform(1e-9, 1 - 1e-9, n)))
    d = np.where(rng.random(n) < 0.5, 0.0, rng.normal(size=n))
    gd = rng.normal(size=n) * rng.choice([1e-12, 1e-6, 1.0], n)
    lo = rng.choice([-np.inf, 0.0], n)
    hi = rng.choice([np.inf, 0.0], n)
    pos = np.where(rng.random(n) < 0.4, -1, rng.integers(0, n, n)).astype(I64)
    args = (y, alpha, d, gd, 1e-3, -2e-3, lo, hi, pos, 1e-9, 0.2, float(rng.choice([0.5, 3.0])))
    assert _run_count_dependent(*args) == _ref_count_dependent(*args)
