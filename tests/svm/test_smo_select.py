"""The vectorized whole-set working-set selection (``_smo._select_all``) chooses exactly what the
scalar selection over the active set (``_smo._select``) chooses when nothing is shrunk — including
ties (both keep the last index), empty I_up / I_low and duplicated points (quad ≤ 0 → TAU) — and
makes the same stopping decision ``Gmax + Gmax2 < tol`` at every tolerance: its Gmax2 is exact when
the test holds, else a lower bound y_j G_j that already fails it."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svmviz.svm import _smo
from svmviz.kernels import rbf_from_squared_distances, squared_distances


def _state(seed: int, n: int):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    X[n // 2] = X[0]  # a duplicated point: K_ii + K_jj − 2K_ij = 0
    K = rbf_from_squared_distances(squared_distances(X), 0.5 + rng.random())
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    C = np.where(y > 0, 1.0, 0.5 + rng.random())
    # α at 0, at C and free; gradients with repeated values so that ties occur
    kind = rng.integers(0, 3, n)
    alpha = np.where(kind == 0, 0.0, np.where(kind == 1, C, C * rng.random(n)))
    G = np.round(2.0 * rng.normal(size=n)) / 2.0
    t = n // 2  # the duplicated point is a full twin of point 0: equal second-order terms tie
    y[t], C[t], alpha[t], G[t] = y[0], C[0], alpha[0], G[0]
    return K, y, C, alpha, G


def _check_same_choice(K, Kd, y, s, C, alpha, G):
    n = y.size
    i, j, gmax, gmax2 = _smo._select(K, Kd, y, s, C, alpha, G, np.arange(n), n)
    gaps = [] if j < 0 else [gmax + gmax2]  # the tolerances on both sides of this problem's gap
    gaps += [] if j < 0 else [gmax + y[j] * G[j]]
    ou, ol = np.full(n, np.nan), np.full(n, np.nan)
    for t in range(n):
        _smo._set_sets(t, y, C, alpha, ou, ol)
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    np.testing.assert_array_equal(ou, np.where(up, 0.0, -np.inf))
    np.testing.assert_array_equal(ol, np.where(low, 0.0, -np.inf))
    for tol in [0.0, 1e-3, 0.5, 1e300] + gaps + [np.nextafter(g, np.inf) for g in gaps]:
        got = _smo._select_all(K, Kd, y, s, G, np.empty(n, dtype=np.int64), tol, ou, ol)
        assert got[:3] == (i, j, gmax)
        stop = j < 0 or gmax + gmax2 < tol
        assert (got[1] < 0 or got[2] + got[3] < tol) == stop
        if stop:
            assert got[3] == gmax2  # exact where the solver reads it
        else:  # exact, or y_j G_j when that already fails the test
            assert got[3] == gmax2 or (got[3] == y[j] * G[j] <= gmax2 and gmax + got[3] >= tol)


@pytest.mark.parametrize("seed", range(40))
def test_select_all_equals_select_on_the_whole_set(seed):
    n = 7 + seed % 13
    K, y, C, alpha, G = _state(seed, n)
    Kd = np.ascontiguousarray(np.diag(K))
    s = 10.0 ** (seed % 5 - 2)
    if seed % 7 == 0:  # every α at 0: I_low of the positive class is empty
        alpha[:] = 0.0
    if seed % 11 == 0:  # every positive α at its bound, every negative at 0: I_up is empty
        alpha = np.where(y > 0, C, 0.0)
    _check_same_choice(K, Kd, y, s, C, alpha, G)


@pytest.mark.parametrize("seed", range(12))
def test_select_all_equals_select_over_many_vector_lanes(seed):
    """Sizes past several 8-lane blocks of the reductions, with a tail (n % 8 ≠ 0) and ties between lanes."""
    n = 40 + 9 * seed
    K, y, C, alpha, G = _state(100 + seed, n)
    Kd = np.ascontiguousarray(np.diag(K))
    s = 10.0 ** (seed % 5 - 2)
    _check_same_choice(K, Kd, y, s, C, alpha, G)


_VALUES = st.sampled_from([-np.inf, np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 1e-300, -1e-300, 5e-324, -5e-324,
                           7.0, np.finfo(float).max, -np.finfo(float).max])
_FLOATS = _VALUES | st.floats(allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(a=_FLOATS, b=_FLOATS)
def test_keys_are_ordered_as_the_floats(a, b):
    """The integer order keys of the selection's maxima compare as the floats do (±0 equal) and
    give the float back (−0 as +0)."""
    ka, kb = _smo._key(a), _smo._key(b)
    assert (ka < kb) == (a < b)
    assert (ka == kb) == (a == b)
    assert _smo._key_value(ka) == a
    assert np.signbit(_smo._key_value(ka)) == (a < 0)


@settings(max_examples=300, deadline=None)
@given(v=st.lists(_FLOATS, min_size=1, max_size=40))
def test_key_maximum_and_last_index_are_the_scalar_loop(v):
    """The largest key and its last index equal a plain ``if v[t] >= best`` loop's value and index."""
    best, idx = -np.inf, -1
    for t, x in enumerate(v):
        if x >= best:
            best, idx = x, t
    keys = np.array([_smo._key(x) for x in v], dtype=np.int64)
    top = keys.max()
    assert _smo._key_value(top) == best
    assert _smo._last_key(keys, top) == idx
    assert _smo._last_key(keys, _smo._key(12345.0)) == (-1 if 12345.0 not in v else
                                                       len(v) - 1 - v[::-1].index(12345.0))


@pytest.mark.parametrize("seed", range(12))
def test_gradient_update_with_up_keys_is_the_update_then_up_keys(seed):
    """The solver's fused pass (``_update_gradient_up_keys``) leaves G bit for bit as the plain
    update G_t += y_t (K_it dai + K_jt daj) does, and returns I_up's keys and maximum of that new G
    exactly as ``_up_keys`` computes them; the selection from those keys is ``_select_all``'s."""
    n = 7 + 11 * seed
    K, y, C, alpha, G = _state(200 + seed, n)
    Kd = np.ascontiguousarray(np.diag(K))
    rng = np.random.default_rng(seed)
    i, j = rng.integers(0, n, 2)
    dai, daj = rng.normal(size=2) * 10.0 ** (seed % 5 - 2)
    ou, ol = np.empty(n), np.empty(n)
    for t in range(n):
        _smo._set_sets(t, y, C, alpha, ou, ol)
    G_plain = G.copy()
    for t in range(n):
        G_plain[t] += y[t] * (K[i, t] * dai + K[j, t] * daj)
    keys_plain = np.empty(n, dtype=np.int64)
    top_plain = _smo._up_keys(ou, y, G_plain, keys_plain, n)
    G_fused, up = G.copy(), np.empty(n, dtype=np.int64)
    top = _smo._update_gradient_up_keys(K, y, G_fused, i, j, dai, daj, ou, up)
    assert G_fused.tobytes() == G_plain.tobytes()
    assert top == top_plain
    np.testing.assert_array_equal(up, keys_plain)
    s = 10.0 ** (seed % 3 - 1)
    for tol in (0.0, 1e-3, 1e300):
        assert (_smo._select_from_up(K, Kd, y, s, G_fused, up, top, np.empty(n, dtype=np.int64), tol, ol)
                == _smo._select_all(K, Kd, y, s, G_plain, np.empty(n, dtype=np.int64), tol, ou, ol))
