"""The ν-path's per-breakpoint loops written for speed against independent references (as
tests/path/test_breakpoint_loops.py does for the KKT loops), their definitions in numpy
(:mod:`tests.naive.path`):

- ``asqp._solve_working_set`` (four scaled rows per sweep, −grad_W kept, class sums without a branch
  per member), for every size of W around the blocks of four and every number of refinements: with
  no refinement it is −M⁻¹[:, W] grad_W to rounding; refinement never leaves it further from the
  solution of the bordered system M sol = (0, 0, −grad_W), and with a near-exact inverse it is that
  solution (numpy.linalg.solve);
- ``follower._direction_ok`` (one pass over W, d being 0 outside W): the definition's max |d| and
  verdict (unless a class sum lies within rounding of its tolerance);
- ``follower._count_dependent`` without branches: the definition's count;
- ``asqp._price`` with and without the count of the variables that may move (none to price when W
  holds them all): the definition's choice.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from svmviz.path._solver.asqp import _price, _solve_working_set
from svmviz.path._solver.config import DEPENDENT_SKIP_FACTOR, DIRECTION_RESIDUAL_RTOL, DIRECTION_SUM_RTOL, TINY
from svmviz.path._solver.follower import _count_dependent, _direction_ok
from tests.naive import path as nv

I64 = np.int64


# the loops are helpers (no CPython wrapper): called from kernels here
@njit(cache=False)
def _run_solve(y, grad, Minv, Mb, widx, nw, sol, solb, resid, gw, racc, rabs, max_refine):
    _solve_working_set(y, grad, Minv, Mb, widx, nw, sol, solb, resid, gw, racc, rabs, max_refine)


@njit(cache=False)
def _run_direction_ok(y, d, gd, dt0, dt1, widx, nw, gs):
    return _direction_ok(y, d, gd, dt0, dt1, widx, nw, gs)


@njit(cache=False)
def _run_count_dependent(y, alpha, d, gd, dt0, dt1, lo, hi, pos, widx, nw, nfree, tol, gs, dnorm):
    return _count_dependent(y, alpha, d, gd, dt0, dt1, lo, hi, pos, widx, nw, nfree, tol, gs, dnorm)


@njit(cache=False)
def _run_price(y, x, grad, lo, hi, pos, skip, mu0, mu1, tol_price, widx, nw, n_movable):
    return _price(y, x, grad, lo, hi, pos, skip, mu0, mu1, tol_price, widx, nw, n_movable)


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
def test_solve_working_set_solves_the_bordered_system(nw, max_refine, noise, seed):
    rng = np.random.default_rng(seed)
    n = nw + int(rng.integers(0, 6))
    y, Minv, Mb, widx = _bordered(rng, n, nw, noise)
    grad = rng.normal(size=n) * rng.choice([1e-6, 1.0, 1e3])
    grad[rng.random(n) < 0.1] = 0.0
    p = nw + 2
    M, rhs = Mb[:p, :p], np.r_[0.0, 0.0, -grad[widx]]

    def solve(refinements):
        work = np.full((6, n + 2), np.nan)
        _run_solve(y, grad, Minv, Mb, widx, I64(nw), *work, I64(refinements))
        return work[0, :p].copy()

    first, sol = solve(0), solve(max_refine)
    # the first solve: M⁻¹ rhs by the rows of M⁻¹ (the columns of an inverse that is not quite symmetric)
    scale = np.abs(Minv[2:p, :p]).sum(axis=0) * np.abs(grad[widx]).max() + 1e-300
    assert np.all(np.abs(first - Minv[2:p, :p].T @ rhs[2:]) <= 1e-12 * scale)
    exact = np.linalg.solve(M, rhs)
    err = lambda v: np.abs(v - exact).max()  # noqa: E731
    assert err(sol) <= err(first) * (1 + 1e-9) + 1e-12 * np.abs(exact).max()  # refinement keeps the best
    if noise <= 1e-12 or (noise <= 1e-6 and max_refine >= 2):
        np.testing.assert_allclose(M @ sol, rhs, atol=1e-6 * (1.0 + np.abs(rhs).max()))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 60), st.integers(0, 2**32 - 1), st.sampled_from([1e-12, 1e-9, 1e-6, 0.0]))
def test_direction_check_over_the_working_set_is_its_definition(n, seed, off):
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
    g_ref, dn_ref, (cs0, cs1) = nv.direction_check(y, d, gd, (dt0, dt1), widx, gs, DIRECTION_RESIDUAL_RTOL,
                                                   DIRECTION_SUM_RTOL)
    assert dnorm == dn_ref
    lim = DIRECTION_SUM_RTOL * max(1.0, dn_ref)
    # the verdict is the same unless a class sum lies within rounding of the tolerance
    if min(abs(abs(cs0) - lim), abs(abs(cs1) - lim)) > 1e-14 * max(1.0, dn_ref):
        assert good == g_ref


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 50), st.integers(0, 2**32 - 1))
def test_dependent_count_without_branches_is_its_definition(n, seed):
    """The count over all points, and 0 without that pass when W holds every free point: both its
    definition (W's members drawn so that about half the cases hold every free point)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    kind = rng.integers(0, 3, n)
    alpha = np.where(kind == 0, 0.0, np.where(kind == 2, 1.0, rng.uniform(1e-9, 1 - 1e-9, n)))
    d = np.where(rng.random(n) < 0.5, 0.0, rng.normal(size=n))
    gd = rng.normal(size=n) * rng.choice([1e-12, 1e-6, 1.0], n)
    lo = rng.choice([-np.inf, 0.0], n)
    hi = rng.choice([np.inf, 0.0], n)
    free = (alpha > 0) & (alpha < 1)
    member = rng.random(n) < 0.6
    if rng.random() < 0.5:
        member |= free
    widx = rng.permutation(np.flatnonzero(member)).astype(I64)
    pos = np.full(n, -1, I64)
    pos[widx] = np.arange(widx.size)
    tol, gs, dnorm = 1e-9, 0.2, float(rng.choice([0.5, 3.0]))
    got = _run_count_dependent(y, alpha, d, gd, 1e-3, -2e-3, lo, hi, pos, widx, I64(widx.size), I64(free.sum()), tol,
                               gs, dnorm)
    threshold = DEPENDENT_SKIP_FACTOR * tol * gs * max(1.0, dnorm)
    assert got == nv.dependent_count(y, alpha, d, gd, (1e-3, -2e-3), lo, hi, pos, threshold)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2**32 - 1), st.booleans())
def test_pricing_is_the_most_violating_variable_and_none_when_w_holds_every_movable_one(n, seed, all_in_w):
    """The choice of the definition, with the count of the variables that may move (lo < hi) or
    without (−1); when W holds every one of them, none (the count skips the pass)."""
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    lo = rng.choice([-np.inf, 0.0], n)
    hi = rng.choice([np.inf, 0.0], n)
    x = np.where(rng.random(n) < 0.5, 0.0, rng.normal(size=n))
    x = np.where(lo == 0.0, np.maximum(x, 0.0), x)
    x = np.where(hi == 0.0, np.minimum(x, 0.0), x)
    grad = rng.normal(size=n) * rng.choice([1e-12, 1e-3, 1.0])
    movable = lo < hi
    member = (rng.random(n) < 0.4) | (movable if all_in_w else False)
    widx = rng.permutation(np.flatnonzero(member)).astype(I64)
    pos = np.full(n, -1, I64)
    pos[widx] = np.arange(widx.size)
    skip = rng.random(n) < 0.1
    mu0, mu1, tol_price = float(rng.normal()), float(rng.normal()), float(rng.choice([0.0, 1e-9, 0.5]))
    ref = nv.most_violating(y, x, grad, lo, hi, pos, skip, (mu0, mu1), tol_price)
    for count in (I64(-1), I64(movable.sum())):
        assert _run_price(y, x, grad, lo, hi, pos, skip, mu0, mu1, tol_price, widx, I64(widx.size), count) == ref
    if all_in_w:
        assert ref == -1
