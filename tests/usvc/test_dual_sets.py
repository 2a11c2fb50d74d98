"""The dual guess of the exact finish's sets: the active-set method on the finish objective's dual
over the points near the margin (Navia-Vázquez et al. 2004, eqs. 9–13 with the cap's term) against
the minimiser found face by face (tests/naive/usvc.py), and the finish it starts against libsvm."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from sklearn.svm import SVC

from svmviz.data import make_dataset
from svmviz.usvc import IRWLSClassifier, _irwls
from tests.naive.usvc import box_qp_by_faces_naive
from tests.usvc.test_exact_finish import kkt_violation, random_problem


@settings(max_examples=40, deadline=None)
@given(seed=hst.integers(0, 10_000), m=hst.integers(2, 7), p=hst.integers(1, 4),
       log_cap=hst.floats(0.0, 8.0))
def test_dual_active_set_is_the_minimiser_found_face_by_face(seed, m, p, log_cap):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(m, p))
    ys = np.where(rng.normal(size=m) > 0, 1.0, -1.0)
    B = 10.0 ** rng.uniform(-2, 1, m)
    inv = np.full(m, 10.0 ** -log_cap)
    w0 = rng.normal(size=p)  # the part of the fixed points
    # a feasible start: Σ α y = total with α inside the box
    alpha = rng.uniform(0, 1, m) * B
    total = float(ys @ alpha)
    w = w0 + (ys[:, None] * Z).T @ alpha
    H = (ys[:, None] * Z) @ (ys[:, None] * Z).T + np.diag(inv)
    c = (ys[:, None] * Z) @ w0 - 1.0
    nu, ok = _irwls._dual_active_set(Z, ys, B, inv, alpha, w, 200)
    ref, ref_val = box_qp_by_faces_naive(H, c, ys, B, total)
    assert ok
    assert np.all(alpha >= 0.0) and np.all(alpha <= B)
    assert abs(ys @ alpha - total) <= 1e-12 * max(1.0, B.sum())
    np.testing.assert_allclose(w, w0 + (ys[:, None] * Z).T @ alpha, rtol=0, atol=1e-12 * (1 + np.abs(w).max()))
    val = 0.5 * alpha @ H @ alpha + c @ alpha
    assert val <= ref_val + 1e-10 * max(1.0, abs(ref_val))
    # H is positive definite: the minimiser is unique; its accuracy is that of the conditioning
    cond = np.linalg.cond(H)
    np.testing.assert_allclose(alpha, ref, rtol=0, atol=1e-12 * cond * B.max())
    # ν is the intercept: g_i + ν y_i = 0 on the free multipliers, ≥ 0 at 0, ≤ 0 at B
    lam = H @ alpha + c + nu * ys
    scale = 1e-9 * (1.0 + np.abs(H).max() * B.max())
    free = (alpha > 0) & (alpha < B)
    assert np.all(np.abs(lam[free]) <= scale)
    assert np.all(lam[alpha == 0.0] >= -scale)
    assert np.all(lam[alpha == B] <= scale)



@settings(max_examples=30, deadline=None)
@given(seed=hst.integers(0, 10_000), k=hst.integers(1, 150))
def test_cholesky_factor_follows_rows_added_and_removed_and_solves_with_them(seed, k):
    # the factor of :func:`_irwls._dual_active_set`'s free block, grown row by row (in two calls) and
    # with rows removed anywhere: its LL' is the block of the remaining rows
    rng = np.random.default_rng(seed)
    p = int(rng.integers(1, 12))
    Z = rng.normal(size=(k, p))
    inv = np.full(k, 10.0 ** rng.uniform(-8, 0))
    order = rng.permutation(k)
    L = np.empty((k, k))
    fk, ok = _irwls._chol_extend(L, 0, order[: k // 2], Z, inv)
    assert ok and fk == k // 2
    fk, ok = _irwls._chol_extend(L, fk, order, Z, inv)
    assert ok and fk == k
    H = Z @ Z.T + np.diag(inv)
    keep = list(order)
    for _ in range(int(rng.integers(0, k))):
        j = int(rng.integers(0, len(keep)))
        _irwls._chol_delete(L, len(keep), j)
        del keep[j]
        m = len(keep)
        Lk = np.tril(L[:m, :m])
        np.testing.assert_allclose(Lk @ Lk.T, H[np.ix_(keep, keep)], rtol=0,
                                   atol=1e-12 * np.abs(H).max() * k)
        assert np.all(np.diag(Lk) > 0)
    m = len(keep)
    a, c = rng.normal(size=m), rng.normal(size=m)
    x, z = _irwls._chol_solve_pair(L, a, c)
    Hk = H[np.ix_(keep, keep)]
    cond = np.linalg.cond(Hk)
    np.testing.assert_allclose(x, np.linalg.solve(Hk, a), rtol=0, atol=1e-12 * cond * (1 + np.abs(x).max()))
    np.testing.assert_allclose(z, np.linalg.solve(Hk, c), rtol=0, atol=1e-12 * cond * (1 + np.abs(z).max()))



def test_cholesky_factor_stops_at_a_row_that_leaves_the_block_singular():
    # no cap term (1/a^max = 0) and the third row a copy of the first: the block of the first three
    # has no Cholesky factor, the factor keeps the two rows before it
    Z = np.array([[1.0, 2.0], [0.5, -1.0], [1.0, 2.0]])
    L = np.empty((3, 3))
    fk, ok = _irwls._chol_extend(L, 0, np.arange(3), Z, np.zeros(3))
    assert not ok and fk == 2
    Lk = np.tril(L[:2, :2])
    np.testing.assert_allclose(Lk @ Lk.T, Z[:2] @ Z[:2].T, rtol=1e-14)

@settings(max_examples=10, deadline=None)
@given(seed=hst.integers(0, 10_000), log_cap=hst.floats(0.0, 8.0))
def test_dual_active_set_meets_the_kkt_conditions_with_many_free_multipliers(seed, log_cap):
    # m = 150 multipliers with rows z_i near 0 (the kernel machine at small σ) and bounds about twice
    # a^max: the minimiser has α_i ≈ a^max (1 − ν y_i) strictly inside the box for most of them, far
    # more than the p + 1 of a margin, so the factor of the free block grows to more than 64 rows and
    # loses rows on the way
    rng = np.random.default_rng(seed)
    m, p = 150, 6
    Z = 0.01 * rng.normal(size=(m, p))
    ys = np.where(rng.normal(size=m) > 0, 1.0, -1.0)
    B = 10.0 ** log_cap * rng.uniform(1.5, 2.5, m)
    inv = np.full(m, 10.0 ** -log_cap)
    w0 = rng.normal(size=p)
    alpha = rng.uniform(0, 1, m) * B
    total = float(ys @ alpha)
    w = w0 + (ys[:, None] * Z).T @ alpha
    H = (ys[:, None] * Z) @ (ys[:, None] * Z).T + np.diag(inv)
    c = (ys[:, None] * Z) @ w0 - 1.0
    nu, ok = _irwls._dual_active_set(Z, ys, B, inv, alpha, w, 1000)
    assert ok
    assert np.all(alpha >= 0.0) and np.all(alpha <= B)
    assert abs(ys @ alpha - total) <= 1e-12 * max(1.0, B.sum())
    lam = H @ alpha + c + nu * ys
    scale = 1e-9 * (1.0 + np.abs(H).max() * B.max())
    free = (alpha > 0) & (alpha < B)
    assert free.sum() > 64
    assert np.all(np.abs(lam[free]) <= scale)
    assert np.all(lam[alpha == 0.0] >= -scale)
    assert np.all(lam[alpha == B] <= scale)

def plain_iterate_and_guess(X, y, C, iters):
    """The IRWLS iterate after ``iters`` plain hinge steps from LS, the sets of its last step
    (:func:`_irwls._classify`) and the dual guess made from them."""
    n, p = X.shape
    Phi, G, cw = np.ascontiguousarray(X), np.eye(p), np.ones(n)
    beta, b, *_ = _irwls.irwls(Phi, G, y, C, cw, _irwls.LOSS_HINGE, 1.0, 1.0, 1e8, 1.0, 0.2, 1e-300, 1e-300,
                               iters, np.zeros(p), 0.0, True, False, False)
    f = _irwls._decision(Phi, beta, b)
    a = np.empty(n)
    _irwls._weights(f, y, C, cw, _irwls.LOSS_HINGE, 1.0, 1.0, 1e8, 1.0, a)
    new_beta, err = np.empty(p), np.zeros(1)
    b_new = _irwls._solve_wls(Phi, G, y, a, new_beta, err)
    f_wls = _irwls._decision(Phi, new_beta, b_new)
    sets = np.full(n, -1, dtype=np.int64)
    _irwls._classify(f, f_wls, y, C, cw, 1.0, a, sets)
    guess = sets.copy()
    ok = _irwls._dual_sets(Phi, G, y, C * cw, 1e8 * cw, f, a, f_wls, guess)
    return Phi, G, cw, beta, b, sets, guess, ok


@pytest.mark.parametrize("name", ["ringnorm", "twonorm", "waveform"])
@pytest.mark.parametrize("C", [0.01, 1.0])
def test_dual_guess_gives_the_limit_in_one_newton_step(name, C):
    # 40 plain steps: the sets of one step still hold more margin points (22–32) than the p + 1 = 21–22
    # a solution in general position has
    ds = make_dataset(name, n=2000, seed=3)
    Phi, G, cw, beta, b, sets, guess, ok = plain_iterate_and_guess(ds.X, ds.y, C, 40)
    assert ok
    assert np.sum(guess == _irwls.SET_MARGIN) <= Phi.shape[1] + 1
    out = np.empty(Phi.shape[1])
    fin, b_fin = _irwls._exact_finish(Phi, G, ds.y, C, cw, 1e8, 1.0, guess.copy(), beta, b, 1, out)
    assert fin
    assert kkt_violation(ds.X, ds.y, out, b_fin, C, cw) < 1e-6
    ref = SVC(kernel="linear", C=C, tol=1e-12).fit(ds.X, ds.y)
    r = np.r_[ref.coef_[0], ref.intercept_]
    assert np.max(np.abs(np.r_[out, b_fin] - r)) / np.max(np.abs(r)) < 1e-3  # libsvm's own stopping rule



def test_dual_guess_leaves_the_sets_alone_beyond_its_size_limit():
    # every slack within MARGIN_BAND of 0: more free points than DUAL_MAX_FREE
    n = _irwls.DUAL_MAX_FREE + 1
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    f = y * (1.0 - rng.uniform(-1e-3, 1e-3, n))
    sets = rng.integers(0, 3, n)
    guess = sets.copy()
    cw = np.ones(n)
    assert not _irwls._dual_sets(X, np.eye(2), y, cw, 1e8 * cw, f, cw, f, guess)
    np.testing.assert_array_equal(guess, sets)


def test_dual_guess_leaves_the_sets_alone_when_it_would_start_with_more_free_multipliers_than_the_margin_holds():
    # 40 points near the margin whose step multipliers α̂_i = a_i ξ̂_i = ½ B_i all start free, against the
    # p + 1 = 3 points a margin in general position holds: the active-set method could bound them one by
    # one, each step a solve over all the free ones (40³ multiply-adds against n·p² = 160 for an IRWLS
    # step's system)
    n, p = 40, 2
    rng = np.random.default_rng(1)
    X = rng.normal(size=(n, p))
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    f = y * (1.0 - rng.uniform(0.0, 5e-3, n))
    f_wls = 0.5 * y
    cw = np.ones(n)
    sets = np.full(n, _irwls.SET_MARGIN)
    guess = sets.copy()
    assert n > _irwls.MARGIN_EXCESS * (p + 1) and n ** 3 > n * p * p
    assert not _irwls._dual_sets(X, np.eye(p), y, cw, 1e8 * cw, f, cw, f_wls, guess)
    np.testing.assert_array_equal(guess, sets)


@pytest.mark.parametrize("name", ["ringnorm", "waveform"])
def test_dual_guess_of_the_same_free_set_and_fixed_multipliers_is_the_same_from_another_start(name):
    # the finish declines a fresh try whose dual input (:func:`_irwls._dual_input`) repeats that of a
    # try whose guess held too many margin points: the dual over the same free set with the same fixed
    # multipliers has one minimiser, so its guess does not depend on the start the step's
    # multipliers give it
    ds = make_dataset(name, n=1000, seed=5)
    Phi, G, cw, beta, b, sets, guess, ok = plain_iterate_and_guess(ds.X, ds.y, 1.0, 40)
    assert ok
    n = Phi.shape[0]
    f = _irwls._decision(Phi, beta, b)
    last = np.full(n, -1, dtype=np.int64)
    assert not _irwls._dual_input(ds.y, 1e8 * cw, f, sets, last)
    # another start: the multipliers of a step with weights a_i = 1 (clipped to the box and moved to
    # Σ α_i y_i fixed by the method)
    a2 = np.ones(n)
    beta2, err = np.empty(Phi.shape[1]), np.zeros(1)
    f_wls2 = _irwls._decision(Phi, beta2, _irwls._solve_wls(Phi, G, ds.y, a2, beta2, err))
    guess2 = sets.copy()
    assert _irwls._dual_sets(Phi, G, ds.y, cw, 1e8 * cw, f, a2, f_wls2, guess2)
    assert _irwls._dual_input(ds.y, 1e8 * cw, f, sets, last)
    np.testing.assert_array_equal(guess2, guess)


def test_dual_input_tells_a_changed_set_or_free_point():
    y = np.array([1.0, -1.0, 1.0, -1.0])
    cap = np.array([1e8, 1e8, 1e8, 0.0])
    f = np.array([0.5, -2.0, 1.0 - 1e-3, 0.0])  # slacks 0.5, −1, 1e-3 (within MARGIN_BAND), weight 0
    sets = np.array([_irwls.SET_IN, _irwls.SET_OUT, _irwls.SET_IN, _irwls.SET_OUT])
    last = np.full(4, -1, dtype=np.int64)
    assert not _irwls._dual_input(y, cap, f, sets, last)
    assert _irwls._dual_input(y, cap, f, sets, last)
    assert _irwls._dual_input(y, cap, f, np.array([2, 0, 0, 2]), last)  # point 2 free, point 3 weightless
    assert not _irwls._dual_input(y, cap, np.array([0.995, -2.0, 1.0, 0.0]), np.array([2, 0, 0, 2]), last)
    assert not _irwls._dual_input(y, cap, np.array([0.995, -2.0, 1.0, 0.0]), np.array([2, 2, 0, 2]), last)
