"""The (B2*) scores with pruning by the loss's tangent plane (Zhu & Hastie 2002, §3.2) against the
same scores computed for every candidate and against the naive one-step score of ``tests/naive/ivm.py``:
the smallest score and its candidate are the same bitwise, and every candidate left unscored holds a
true lower bound of its score that exceeds the smallest one."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logsumexp

from svmviz.ivm import _klr
from svmviz.kernels import gram

from tests.naive import ivm as nv


def _state(X, codes, M, S, icpt, lam, weights, shift):
    """What the greedy step scores from: the sub-model on S fitted by Newton, then moved by ``shift``."""
    K = gram(X, sigma=0.6)
    Y = nv.indicator(codes, M) if M > 1 else codes.astype(float).reshape(-1, 1)
    Y = np.ascontiguousarray(Y)
    Phi = _klr._build_phi(K, S, icpt)
    Pen = _klr._build_pen(K, S, icpt, lam)
    theta = np.zeros((S.size + icpt, M))
    _klr._newton(Phi, Pen, Y, theta, 1e-12, 100, weights)
    theta = np.ascontiguousarray(theta + shift)
    F = np.ascontiguousarray(Phi @ theta)
    P = np.empty_like(F)
    _klr._loss_probs(F, Y, P, weights)
    if S.size + icpt:
        _, _, _, F, P, G, Lh, stc = _klr._newton_fit(Phi, Pen, Y, theta, 1e-12, 0, True, weights)
        assert stc == 0
    else:
        G, Lh = np.zeros(0), np.zeros((0, 0))
    return K, Y, Phi, Pen, theta, F, P, G, Lh


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), M=st.sampled_from([1, 2, 3]), icpt=st.booleans(), q=st.integers(0, 6),
       lam=st.sampled_from([1e-3, 0.05, 0.4, 5.0]), chunk=st.sampled_from([3, 7, 512]), weighted=st.booleans(),
       shift=st.sampled_from([0.0, 0.05, -0.3]))
def test_pruned_scores_pick_the_same_candidate_with_the_same_score(seed, M, icpt, q, lam, chunk, weighted, shift):
    rng = np.random.default_rng(seed)
    n = 30
    X = rng.normal(size=(n, 2))
    codes = np.arange(n) % (M + 1)
    rng.shuffle(codes)
    X += codes[:, None] * 0.8
    weights = rng.uniform(0.2, 3.0, n) if weighted else _klr._UNWEIGHTED
    S = np.sort(rng.choice(n, q, replace=False)).astype(np.int64)
    K, Y, Phi, Pen, theta, F, P, G, Lh = _state(X, codes, M, S, icpt, lam, weights, shift)
    cand = np.setdiff1d(np.arange(n), S).astype(np.int64)
    args = (K, S, cand, Phi, Pen, Y, theta, F, P, Lh, G, lam, icpt, chunk, weights)
    full, b_full, th_full = _klr._scores_onestep(*args, False)
    pruned, b_pruned, th_pruned = _klr._scores_onestep(*args, True)
    b = int(np.argmin(full))
    assert int(np.argmin(pruned)) == b
    assert pruned[b] == full[b]  # the same operations: bitwise
    scored = pruned == full
    assert np.all(pruned[~scored] > full[b])  # an unscored candidate cannot be the best
    assert np.all(pruned[~scored] <= full[~scored])  # and holds a lower bound of its score
    if not np.isfinite(full[b]):  # no candidate adds a new direction
        assert b_full == b_pruned == -1
        return
    assert b_full == b_pruned == b  # the best candidate, and its one-step parameters, in both modes
    np.testing.assert_array_equal(th_pruned, th_full)
    # its parameters after one Newton step on S ∪ {l} from (θ, 0), as the naive reference takes it
    PhiL, QL = nv.design(K, list(S) + [int(cand[b])], icpt)
    th0 = np.vstack([theta, np.zeros((1, M))])
    Sw = np.ones(n) if not weighted else weights
    g, Hs = _weighted_grad_hess(PhiL, QL, Y, lam, th0, Sw)
    th1 = th0 - np.linalg.solve(Hs, g).reshape(M, -1).T
    np.testing.assert_allclose(th_full, th1, rtol=1e-7, atol=1e-7 * max(1.0, np.abs(th1).max()))
    if not weighted:
        ref = nv.one_step_score(K, S, int(cand[b]), Y, lam, theta, icpt)
        np.testing.assert_allclose(full[b], ref, rtol=1e-9)


def _weighted_grad_hess(Phi, Q, Y, lam, theta, Sw):
    """nv.grad_hess with point i's loss weighed by Sw_i (its rows of Φ scaled by √Sw_i, Y's kept)."""
    r = np.sqrt(Sw)[:, None]
    g_pen, H_pen = nv.grad_hess(np.zeros((0, Phi.shape[1])), Q, Y[:0], lam, theta)
    N, p = Phi.shape
    M = Y.shape[1]
    F = Phi @ theta
    Fz = np.column_stack([F, np.zeros(N)])
    Pr = np.exp(Fz - logsumexp(Fz, axis=1, keepdims=True))[:, :M]
    g = np.einsum("ia,ir->ar", Sw[:, None] * (Pr - Y), Phi).ravel()
    Wi = np.einsum("ia,ab->iab", Pr, np.eye(M)) - np.einsum("ia,ib->iab", Pr, Pr)
    Hs = np.einsum("iab,ir,is->arbs", Wi, r * Phi, r * Phi).reshape(M * p, M * p)
    return g + g_pen, Hs + H_pen


def test_pruning_scores_few_candidates_exactly_on_the_three_class_mixture():
    from svmviz import data

    ds = data.esl_mixture3(n=120, seed=3)
    codes = np.searchsorted(np.unique(ds.y), ds.y)
    S = np.array([4, 50, 77, 101], dtype=np.int64)
    K, Y, Phi, Pen, theta, F, P, G, Lh = _state(ds.X, codes, 2, S, True, 0.3, _klr._UNWEIGHTED, 0.0)
    cand = np.setdiff1d(np.arange(120), S).astype(np.int64)
    args = (K, S, cand, Phi, Pen, Y, theta, F, P, Lh, G, 0.3, True, 512, _klr._UNWEIGHTED)
    full, b_full, th_full = _klr._scores_onestep(*args, False)
    pruned, b_pruned, th_pruned = _klr._scores_onestep(*args, True)
    assert np.argmin(pruned) == np.argmin(full) and pruned.min() == full.min()
    assert np.sum(pruned == full) < 0.5 * cand.size  # most candidates are settled by their bound


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.sampled_from([0.0, -1.5, 2.0, 2.0 + 2**-50, np.inf, -np.inf, np.nan]) | st.floats(-3, 3),
                       min_size=0, max_size=40))
def test_argsort_stable_is_numpys_stable_argsort_with_ties_infinities_and_nan(values):
    x = np.array(values, dtype=np.float64)
    np.testing.assert_array_equal(_klr._argsort_stable(x, True), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(_klr._argsort_stable(x, False), np.arange(x.size))
