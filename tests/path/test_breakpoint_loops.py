"""The ν-path's per-breakpoint loops written for speed compute exactly the numbers of plain loops.

Each fast loop keeps the arithmetic and changes only how the loop runs: s = Gα four kernel rows per
sweep (``exact_s``), both classes' thresholds in one pass, the derivative QP's bounds without branches
(``qp_bounds``), the rank-one update's u = M⁻¹v four rows at a time (``minv_add``); the KKT
violation and the tie tolerance beside them. The references below are the plain loops (one point,
one column or one row at a time); results must be bitwise equal, on random states with every kind of
point (α = 0, free, α = 1; g on either side of the tie tolerance; tied flags; lengths around the
blocks of four).
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from svmviz.path._solver.config import TIE_SCALE_FLOOR
from svmviz.path._solver.kkt import exact_s, kkt_tol, kkt_violation, minv_add, minv_build, qp_bounds, thresholds
from svmviz.path._solver.kkt import tie_tolerance

I64 = np.int64


# ------------------------------------------------------------------------------- plain references
@njit(cache=False)
def _ref_exact_s(K, y, inv_m, alpha, s):
    n = alpha.shape[0]
    for r in range(n):
        s[r] = 0.0
    for j in range(n):
        if alpha[j] != 0.0:
            c = alpha[j] * y[j] * inv_m
            if c == 0.0:
                continue
            for r in range(n):
                s[r] += c * y[r] * K[j, r]


@njit(cache=False)
def _ref_thresholds(y, alpha, s, t):
    n = alpha.shape[0]
    for c in range(2):
        sgn = 1.0 if c == 0 else -1.0
        acc = 0.0
        cnt = 0
        mn = np.inf
        for i in range(n):
            if y[i] != sgn:
                continue
            if alpha[i] > 0.0 and alpha[i] < 1.0:
                acc += s[i]
                cnt += 1
            elif alpha[i] <= 0.0 and s[i] < mn:
                mn = s[i]
        if cnt > 0:
            t[c] = acc / cnt
        elif mn < np.inf:
            t[c] = mn
        else:
            return False
    return True


@njit(cache=False)
def _ref_qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi):
    for i in range(alpha.shape[0]):
        g[i] = s[i] - (t[0] if y[i] > 0 else t[1])
        a = alpha[i]
        if a > 0.0 and a < 1.0:
            lo[i] = -np.inf
            hi[i] = np.inf
        elif a <= 0.0 and (g[i] <= tolg or tied[i]):
            lo[i] = 0.0
            hi[i] = np.inf
        elif a >= 1.0 and (g[i] >= -tolg or tied[i]):
            lo[i] = -np.inf
            hi[i] = 0.0
        else:
            lo[i] = 0.0
            hi[i] = 0.0


@njit(cache=False)
def _ref_kkt_violation(y, alpha, s, t):
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


@njit(cache=False)
def _ref_minv_add(K, y, inv_m, Minv, Mb, widx, pos, nw, j, dep_tol):
    """kkt.minv_add with u = M⁻¹v one row (one dot product) at a time."""
    p = nw + 2
    v = np.empty(p)
    v[0] = 1.0 if y[j] > 0 else 0.0
    v[1] = 0.0 if y[j] > 0 else 1.0
    for k in range(nw):
        w = widx[k]
        v[2 + k] = y[w] * y[j] * K[w, j] * inv_m
    delta = K[j, j] * inv_m
    u = np.empty(p)
    for a in range(p):
        acc = 0.0
        for b in range(p):
            acc += Minv[a, b] * v[b]
        u[a] = acc
    sig = delta
    for a in range(p):
        sig -= v[a] * u[a]
    if not (abs(sig) > dep_tol * delta):
        return False, nw
    inv = 1.0 / sig
    for a in range(p):
        ua = u[a] * inv
        for b in range(p):
            Minv[a, b] += ua * u[b]
        Minv[a, p] = -ua
        Minv[p, a] = -ua
    Minv[p, p] = inv
    for a in range(p):
        Mb[a, p] = v[a]
        Mb[p, a] = v[a]
    Mb[p, p] = delta
    widx[nw] = j
    pos[j] = nw
    return True, nw + 1


# the rewritten kernels are helpers (no CPython wrapper): called from kernels here
@njit(cache=False)
def _run_exact_s(K, y, inv_m, alpha, s):
    exact_s(K, y, inv_m, alpha, s)


@njit(cache=False)
def _run_thresholds(y, alpha, s, t):
    return thresholds(y, alpha, s, t)


@njit(cache=False)
def _run_qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi):
    qp_bounds(y, alpha, s, t, tied, tolg, g, lo, hi)


@njit(cache=False)
def _run_kkt_violation(y, alpha, s, t):
    return kkt_violation(y, alpha, s, t)


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
def test_exact_s_equals_adding_columns_one_at_a_time(state):
    y, alpha, _, K, _ = state
    inv_m = 1.0 / y.size
    s_new, s_ref = np.full(y.size, np.nan), np.full(y.size, np.nan)
    _run_exact_s(K, y, inv_m, alpha, s_new)
    _ref_exact_s(K, y, inv_m, alpha, s_ref)
    assert np.array_equal(s_new, s_ref)  # bitwise (±0 compare equal)
    # and it is s = Gα
    np.testing.assert_allclose(s_new, y * (K @ (alpha * y)) * inv_m, rtol=1e-12, atol=1e-15)


@settings(max_examples=150, deadline=None)
@given(states())
def test_thresholds_in_one_pass_equal_one_pass_per_class(state):
    y, alpha, s, _, _ = state
    t_new, t_ref = np.full(2, 7.0), np.full(2, 7.0)
    ok_new = _run_thresholds(y, alpha, s, t_new)
    ok_ref = _ref_thresholds(y, alpha, s, t_ref)
    assert ok_new == ok_ref
    if ok_ref:
        assert np.array_equal(t_new, t_ref)
    else:  # a class is full (λ = λ_max): the positive class's threshold is set before the check
        assert t_new[0] == t_ref[0] or not np.any(y > 0)


@settings(max_examples=150, deadline=None)
@given(states(), st.sampled_from([0.0, 1e-12, 1e-3, 0.5]))
def test_qp_bounds_without_branches_equal_the_plain_loop(state, tolg):
    y, alpha, s, _, tied = state
    t = np.array([np.median(s), -np.median(s)])
    out_new = [np.full(y.size, np.nan) for _ in range(3)]
    out_ref = [np.full(y.size, np.nan) for _ in range(3)]
    _run_qp_bounds(y, alpha, s, t, tied, tolg, *out_new)
    _ref_qp_bounds(y, alpha, s, t, tied, tolg, *out_ref)
    for a, b in zip(out_new, out_ref):
        assert np.array_equal(a, b)


@settings(max_examples=150, deadline=None)
@given(states(max_n=23))
def test_kkt_violation_and_tie_tolerance_equal_the_plain_loop(state):
    y, alpha, s, _, _ = state
    t = np.array([0.1, -0.2]) * (np.abs(s).max() + 1.0)
    assert _run_kkt_violation(y, alpha, s, t) == _ref_kkt_violation(y, alpha, s, t)
    gs, lam, tol = 0.25, 3.0, 1e-9
    assert tie_tolerance(s, tol, gs, lam) == tol * max(np.abs(s).max(), kkt_tol(TIE_SCALE_FLOOR, gs, lam))


@settings(max_examples=60, deadline=None)
@given(st.integers(6, 40), st.integers(0, 2**32 - 1))
def test_rank_one_update_equals_row_by_row_dot_products(n, seed):
    """minv_add's u = M⁻¹v four rows at a time: the updated inverse and bordered matrix are bitwise
    those of one dot product per row, for every size of W around the blocks of four."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    K = np.ascontiguousarray(np.exp(-((X[:, None] - X[None]) ** 2).sum(-1) / 0.2))  # well-conditioned
    inv_m = 1.0 / n
    members = rng.permutation(n).astype(I64)
    members[:2] = members[:2][np.argsort(-y[members[:2]])] if y[members[0]] != y[members[1]] else [0, 1]
    members[2:] = [k for k in rng.permutation(n) if k not in members[:2]]
    nmem = I64(rng.integers(2, n - 1))
    Minv, Mb = np.zeros((n + 2, n + 2)), np.zeros((n + 2, n + 2))
    widx, pos = np.zeros(n, I64), np.full(n, -1, I64)
    ok, nw = minv_build(K, y, inv_m, Minv, Mb, widx, pos, I64(0), members, nmem, 1e-11)
    assert ok
    j = I64(next(k for k in members if pos[k] < 0))
    a = [Minv.copy(), Mb.copy(), widx.copy(), pos.copy()]
    b = [Minv.copy(), Mb.copy(), widx.copy(), pos.copy()]
    r_new = minv_add(K, y, inv_m, *a, nw, j, 1e-11)
    r_ref = _ref_minv_add(K, y, inv_m, *b, nw, j, 1e-11)
    assert tuple(r_new) == tuple(r_ref)
    for u, v in zip(a, b):
        assert np.array_equal(u, v)
    if r_new[0]:  # and it is the inverse of the bordered matrix
        p = int(r_new[1]) + 2
        np.testing.assert_allclose(a[0][:p, :p] @ a[1][:p, :p], np.eye(p), atol=1e-9)
