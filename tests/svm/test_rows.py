"""The solver on cached kernel rows (libsvm's design: rows on demand, an LRU cache, shrinking) against
the full-matrix solver, scikit-learn's SVC and the KKT conditions; SVMClassifier's ``strategy``."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_classification
from sklearn.svm import SVC

from svmviz import _validation
from svmviz.kernels import GramRows, gram
from svmviz.svm import DEFAULT_CACHE_MB, SVMClassifier, full_matrix_pays, solve_dual, solve_dual_rows
from svmviz.svm import _rows
from svmviz.svm._rows import MIN_SLOTS, cache_slots
from tests.naive import svm as naive

#: a cache of a few kilobytes: MIN_SLOTS rows at the sizes below, so rows are evicted and recomputed
TINY_CACHE_MB = 1e-6


def _problem(n, seed, general=False):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.where(X[:, 0] + 0.7 * rng.normal(size=n) > 0, 1.0, -1.0)
    y[0], y[1] = 1.0, -1.0
    if general:  # the randomized-GACV form: per-sample bounds and linear term
        s_ = y + rng.normal(scale=0.3, size=n)
        s_[np.abs(s_) < 0.05] = 0.05
        return X, y, np.abs(s_), -1 / np.abs(s_)
    return X, y, np.where(y > 0, 0.5, 1.5), None


@pytest.mark.parametrize("kernel,params", [("rbf", {"sigma": 0.7}), ("linear", {}),
                                           ("poly", {"degree": 3, "gamma": 0.5, "coef0": 2.0})])
def test_gram_rows_equal_rows_of_gram(kernel, params):
    X = np.random.default_rng(0).normal(size=(50, 6))
    K = gram(X, kernel=kernel, **params)
    rows = GramRows(X, kernel=kernel, **params)
    np.testing.assert_allclose(rows.diagonal, np.diag(K), rtol=1e-12)
    for i, (a, b) in [(0, (0, 50)), (7, (3, 41)), (49, (49, 50)), (20, (10, 10))]:
        out = np.empty(b - a)
        rows.row(i, a, b, out)
        np.testing.assert_allclose(out, K[i, a:b], rtol=1e-12, atol=1e-14)
    if kernel == "rbf":
        out = np.empty(50)
        rows.row(13, 0, 50, out)
        assert out[13] == 1.0  # K_ii exact: the distance of a point to itself is summed directly


def test_gram_rows_refuses_bad_input():
    X = np.ones((4, 2))
    with pytest.raises(ValueError, match="named kernel"):
        GramRows(X, kernel=lambda A, B=None: A @ (A if B is None else B).T)
    with pytest.raises(ValueError, match="sigma"):
        GramRows(X, sigma=-1.0)
    rows = GramRows(X)
    with pytest.raises(ValueError, match="outside"):
        rows.row(4, 0, 4, np.empty(4))
    with pytest.raises(ValueError, match="outside"):
        rows.row(0, 3, 2, np.empty(0))
    with pytest.raises(ValueError, match="shape"):
        rows.row(0, 0, 4, np.empty(3))


def test_cache_slots_bounded_by_memory_and_n():
    assert cache_slots(1000, DEFAULT_CACHE_MB) == 1000  # 8 MB of rows: all of them
    assert cache_slots(10_000, DEFAULT_CACHE_MB) == int(DEFAULT_CACHE_MB * 2**20 // 80_000)
    assert cache_slots(300, TINY_CACHE_MB) == MIN_SLOTS
    assert cache_slots(0, DEFAULT_CACHE_MB) == 0  # the memory bisection asks about n = 0


@pytest.mark.parametrize("cache_size", [DEFAULT_CACHE_MB, 0.05, TINY_CACHE_MB])
@pytest.mark.parametrize("shrinking", [True, False])
@pytest.mark.parametrize("seed,general", [(0, False), (1, True), (2, False)])
def test_rows_solver_equals_full_matrix_solver(cache_size, shrinking, seed, general):
    """Same selection, stopping rule and intercept on the same kernel, whether every row stays cached,
    some are evicted (0.05 MB ≈ 20 rows of 300) or only two are kept. The rows and the blocks of the
    gram differ in their last bits, which can send the two SMO runs through different pairs; both then
    stop inside the tolerance's neighbourhood of the one solution, so they are compared at a tight
    tol (1e-10), where that neighbourhood is about 1e-8 wide here."""
    n, sigma, scale = 300, 0.8, 5.0
    X, y, C, p = _problem(n, seed, general)
    full = solve_dual(gram(X, sigma=sigma), y, scale=scale, C=C, p=p, tol=1e-10, shrinking=shrinking)
    rows = solve_dual_rows(X, y, scale=scale, C=C, p=p, sigma=sigma, tol=1e-10, shrinking=shrinking,
                           cache_size=cache_size)
    assert full.status == rows.status == 0
    assert full.n_iter > 1000 or not shrinking  # shrinking ran (every 1000 iterations)
    assert abs(rows.n_iter - full.n_iter) <= 0.1 * full.n_iter
    np.testing.assert_allclose(rows.alpha, full.alpha, rtol=0, atol=1e-7 * C.max())
    assert rows.b == pytest.approx(full.b, abs=1e-7)
    np.testing.assert_allclose(rows.f, full.f, rtol=0, atol=1e-7)
    np.testing.assert_allclose(rows.gradient, full.gradient, rtol=0, atol=1e-7)
    assert rows.objective == pytest.approx(full.objective, rel=1e-12)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    n=st.integers(4, 60),
    log_lam=st.floats(-6, 0),
    log_sigma=st.floats(-1.5, 1.5),
    shrinking=st.booleans(),
    general=st.booleans(),
    cache_size=st.sampled_from([TINY_CACHE_MB, 0.01, DEFAULT_CACHE_MB]),
)
def test_rows_solver_meets_kkt_on_random_problems(seed, n, log_lam, log_sigma, shrinking, general, cache_size):
    X, y, C, p = _problem(n, seed, general)
    sigma = 10**log_sigma
    scale = 1 / (2 * n * 10**log_lam)
    tol = 1e-8
    sol = solve_dual_rows(X, y, scale=scale, C=C, p=p, sigma=sigma, tol=tol, shrinking=shrinking,
                          cache_size=cache_size)
    assert sol.status == 0
    a = sol.alpha
    assert np.all(a >= 0) and np.all(a <= C)
    assert abs(a @ y) <= 1e-10 * max(1.0, a.sum())
    K = naive.rbf_gram(X, X, sigma)
    gap = naive.dual_kkt_violation(K, y, scale, C, a, p)
    # the running gradient accumulates rounding of order ε·Σ|Q_ij α_j| (as the full-matrix solver's)
    assert gap <= tol + 1e-9 * (1 + scale * np.abs(K).sum(axis=1).max() * C.max())
    pp = -np.ones(n) if p is None else p
    G = scale * y * (K @ (y * a)) + pp
    np.testing.assert_allclose(sol.gradient, G, atol=1e-9 * (1 + np.abs(G).max()))


@pytest.mark.parametrize("C,gamma", [(1.0, 0.1), (10.0, 0.1), (100.0, 0.5), (0.1, 0.01)])
def test_rows_strategy_matches_sklearn_svc(C, gamma):
    """Decision values and intercept of SVC at a tight tolerance (the reference tests' 1e-6 relative
    to max |f|), with a cache of a tenth of the rows; dual_coef_ equal to the full-matrix path's to
    1e-7·C, and to SVC's to 1e-5·C: libsvm keeps its kernel cache in single precision, which moves
    its own α by about 1e-7 relative to the kernel's scale (3.5e-7·C measured at (C, γ) = (0.1, 0.01))."""
    X, y = make_classification(400, 10, n_informative=5, random_state=0)
    ours = SVMClassifier(C=C, gamma=gamma, tol=1e-10, strategy="rows", cache_size=0.12).fit(X, y)
    full = SVMClassifier(C=C, gamma=gamma, tol=1e-10, strategy="full").fit(X, y)
    ref = SVC(C=C, gamma=gamma, tol=1e-10).fit(X, y)
    assert ours.strategy_ == "rows"
    f_ref = ref.decision_function(X)
    scale = np.abs(f_ref).max()
    np.testing.assert_allclose(ours.decision_function(X), f_ref, rtol=0, atol=1e-6 * scale)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=0, atol=1e-6 * scale)

    def coef(m):
        c = np.zeros(X.shape[0])
        c[m.support_] = m.dual_coef_[0]
        return c

    np.testing.assert_allclose(coef(ours), coef(full), rtol=0, atol=1e-7 * C)
    np.testing.assert_allclose(coef(ours), coef(ref), rtol=0, atol=1e-5 * C)


@pytest.mark.parametrize("kernel,params", [("rbf", {"gamma": 0.3}), ("linear", {}),
                                           ("poly", {"degree": 2, "gamma": 0.2, "coef0": 1.0})])
def test_both_strategies_fit_the_same_machine_with_weights(kernel, params):
    """Sample weights (some ≤ 0: rows left out), class weights and Wahba's costs L through both paths:
    the same fitted attributes, predictions and decision values on new points."""
    X, y = make_classification(250, 5, random_state=3)
    w = np.random.default_rng(3).uniform(0.2, 2.0, size=y.size)
    w[:10] = 0.0
    w[10:13] = -1.0
    kw = dict(kernel=kernel, C=2.0, L=(1.5, 0.5), class_weight={0: 1.0, 1: 2.0}, tol=1e-10, **params)
    full = SVMClassifier(strategy="full", **kw).fit(X, y, sample_weight=w)
    rows = SVMClassifier(strategy="rows", cache_size=0.02, **kw).fit(X, y, sample_weight=w)
    assert (full.strategy_, rows.strategy_) == ("full", "rows")
    Xn = np.random.default_rng(4).normal(size=(40, 5))
    f = full.decision_function(Xn)
    np.testing.assert_allclose(rows.decision_function(Xn), f, rtol=0, atol=1e-7 * np.abs(f).max())
    np.testing.assert_array_equal(rows.predict(Xn), full.predict(Xn))
    np.testing.assert_array_equal(rows.support_, full.support_)
    np.testing.assert_allclose(rows.alpha_, full.alpha_, rtol=0, atol=1e-7)
    np.testing.assert_allclose(rows.train_decision_, full.train_decision_, rtol=0, atol=1e-7 * np.abs(f).max())


def test_both_strategies_fit_the_same_one_vs_one_machines():
    X, y = load_iris(return_X_y=True)
    kw = dict(C=10.0, gamma="scale", class_weight="balanced", tol=1e-10)
    full = SVMClassifier(strategy="full", **kw).fit(X, y)
    rows = SVMClassifier(strategy="rows", cache_size=TINY_CACHE_MB, **kw).fit(X, y)
    ref = SVC(**kw).fit(X, y)
    for shape in ("ovr", "ovo"):
        full.set_params(decision_function_shape=shape)
        rows.set_params(decision_function_shape=shape)
        ref.set_params(decision_function_shape=shape)
        f = ref.decision_function(X)
        np.testing.assert_allclose(rows.decision_function(X), full.decision_function(X), rtol=0, atol=1e-8)
        np.testing.assert_allclose(rows.decision_function(X), f, rtol=0, atol=1e-6 * np.abs(f).max())
    np.testing.assert_array_equal(rows.predict(X), full.predict(X))
    np.testing.assert_allclose(rows.intercept_, full.intercept_, rtol=0, atol=1e-8)
    np.testing.assert_array_equal(rows.n_support_, ref.n_support_)


def test_auto_takes_the_full_matrix_when_cheap_and_within_the_cache():
    assert full_matrix_pays(2000, 10, DEFAULT_CACHE_MB)  # 32 MB, n·d small
    assert not full_matrix_pays(2000, 10, 30.0)  # larger than the cache
    assert not full_matrix_pays(5000, 10, DEFAULT_CACHE_MB)  # fits (190.7 MB), but costs more than its rows
    assert not full_matrix_pays(10_000, 10, 10_000.0)
    assert full_matrix_pays(2000, 10, DEFAULT_CACHE_MB) and not full_matrix_pays(2000, 200, DEFAULT_CACHE_MB)
    X, y = make_classification(200, 4, random_state=0)
    assert SVMClassifier().fit(X, y).strategy_ == "full"
    assert SVMClassifier(cache_size=0.3).fit(X, y).strategy_ == "rows"  # 200² doubles = 0.31 MB
    assert SVMClassifier(cache_size=0.3, kernel=lambda A, B: A @ B.T).fit(X, y).strategy_ == "full"
    K = gram(X, kernel="linear")
    assert SVMClassifier(kernel="precomputed", cache_size=0.01).fit(K, y).strategy_ == "full"


@pytest.mark.parametrize("params,match", [
    ({"strategy": "cached"}, "strategy must be one of"),
    ({"strategy": None}, "strategy must be one of"),
    ({"cache_size": 0}, "cache_size"),
    ({"cache_size": -5.0}, "cache_size"),
    ({"cache_size": np.nan}, "cache_size"),
    ({"cache_size": "200"}, "cache_size"),
    ({"cache_size": True}, "cache_size"),
    ({"strategy": "rows", "kernel": "precomputed"}, "named kernel"),
    ({"strategy": "rows", "kernel": lambda A, B: A @ B.T}, "named kernel"),
])
def test_bad_strategy_or_cache_size_refused(params, match):
    X, y = make_classification(30, 4, random_state=0)
    if params.get("kernel") == "precomputed":
        X = gram(X, kernel="linear")
    with pytest.raises(ValueError, match=match):
        SVMClassifier(**params).fit(X, y)


def test_solve_dual_rows_refuses_bad_input():
    X = np.random.default_rng(0).normal(size=(6, 2))
    y = np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="label"):
        solve_dual_rows(X, np.arange(6.0), scale=1.0, C=1.0)
    with pytest.raises(ValueError, match="bound"):
        solve_dual_rows(X, y, scale=1.0, C=-1.0)
    with pytest.raises(ValueError, match="p must"):
        solve_dual_rows(X, y, scale=1.0, C=1.0, p=np.ones(5))
    with pytest.raises(ValueError, match="cache_size"):
        solve_dual_rows(X, y, scale=1.0, C=1.0, cache_size=0.0)
    with pytest.raises(ValueError, match="scale"):
        solve_dual_rows(X, y, scale=0.0, C=1.0)


def test_rows_fit_memory_is_the_cache_and_refused_when_it_does_not_fit(monkeypatch):
    """The rows path needs its cache and O(n d), not the n×n matrix: 20,000 points fit in 300 MB
    with a 10 MB cache, and a 200 MB cache that does not fit is refused before any work, naming the
    remedy."""
    monkeypatch.setattr(_validation, "memory_room", lambda: (300 * 2**20, "RLIMIT_AS (300 MB)"))
    X = np.random.default_rng(0).normal(size=(20_000, 2))
    y = np.where(X[:, 0] > 0, 1, 0)
    with pytest.raises(MemoryError, match="smaller cache_size"):
        SVMClassifier(strategy="rows", cache_size=400.0).fit(X, y)
    with pytest.raises(MemoryError, match="strategy='rows'"):
        SVMClassifier(strategy="full").fit(X, y)
    assert SVMClassifier(C=1.0, gamma=1.0, cache_size=10.0).fit(X[:3000], y[:3000]).strategy_ == "rows"


def test_rows_solver_compiles_its_one_call_helpers_into_its_loop():
    """The helpers the loop reaches from one place (and the LRU-ring and phase updates) are inlined by numba
    into their caller: compiling the loop compiles (or loads from the cache) the row fetch and the fastmath
    selections, each a function of its own, and never the inlined helpers (see the module's note on
    compile time)."""
    import numba

    from svmviz.svm import _rows

    X, y, _, _ = _problem(60, 0)
    SVMClassifier(C=10.0, gamma=0.5, strategy="rows", cache_size=TINY_CACHE_MB).fit(X, y)
    options = {k: v for k, v in _rows._run.targetoptions.items() if k != "nopython"}
    loop = numba.njit(**options)(_rows._run.py_func)  # a fresh compilation of the loop,
    loop.compile(_rows._run.signatures[0])  # which a loop loaded from the cache would not show
    inlined = (_rows._lru_move, _rows._swap, _rows._swap_columns, _rows._shrink_pass, _rows._recon,
               _rows._start_recon, _rows._pair_update, _rows._scratch_holds, _rows._forget_scratch, _rows._add_row)
    assert all(f.targetoptions.get("inline") == "always" and not f.signatures for f in inlined)
    assert all(f.signatures for f in (_rows._get_row, _rows._maxima, _rows._select_i, _rows._select_j))


@pytest.mark.parametrize("recon", sorted(_rows.RECON_RULES))
@pytest.mark.parametrize("seed,general", [(0, False), (1, True)])
def test_each_reconstruction_of_the_gradient_gives_the_full_matrix_solution(recon, seed, general):
    """Unshrinking reconstructs the inactive gradient from the free variables' rows or from the inactive
    points' rows (the solver's rule takes the one with fewer kernel entries): either way the solve ends
    at the full-matrix solver's solution, with every row cached or only two kept (see
    test_rows_solver_equals_full_matrix_solver for the tolerances)."""
    n, sigma, scale = 300, 0.8, 5.0
    X, y, C, p = _problem(n, seed, general)
    full = solve_dual(gram(X, sigma=sigma), y, scale=scale, C=C, p=p, tol=1e-10)
    pp = -np.ones(n) if p is None else p
    for cache_size in (DEFAULT_CACHE_MB, TINY_CACHE_MB):
        rows = GramRows(X, sigma=sigma)
        alpha, b, G, n_iter, status = _rows.solve_rows(rows, y.astype(float), scale, pp, C.astype(float), 1e-10,
                                                        10**7, True, cache_size, recon=recon)
        assert status == 0 == full.status
        np.testing.assert_allclose(alpha, full.alpha, rtol=0, atol=1e-7 * C.max())
        assert b == pytest.approx(full.b, abs=1e-7)
        np.testing.assert_allclose(G, full.gradient, rtol=0, atol=1e-7)


def test_unshrinking_reads_the_rows_that_need_fewer_kernel_entries():
    """The rule behind the reconstruction: many free variables and few inactive points read the inactive
    points' rows over the active columns; few free variables read theirs over the inactive columns;
    a free row already cached counts only its missing columns, and with rows shorter than n only its
    inactive columns are read."""
    n = 10
    C = np.full(n, 1.0)
    ipos = np.full((2, n), -1, dtype=np.int64)
    islot = np.zeros((4, 4), dtype=np.int64)
    st = np.zeros(_rows._N_ST, dtype=np.int64)
    st[_rows._RECON_RULE] = _rows._RULE_FEWER_ENTRIES
    st[_rows._NACT] = 8  # 8 · 2 = 16 entries by the inactive points' rows
    many_free = np.full(n, 0.5)  # 8 free rows × 10 columns = 80 entries
    assert _rows._recon_by(ipos, islot, st, many_free, C, n, n) == _rows._BY_INACTIVE_ROWS
    one_free = np.where(np.arange(n) == 3, 0.5, 0.0)  # 10 entries
    assert _rows._recon_by(ipos, islot, st, one_free, C, n, n) == _rows._BY_FREE_ROWS
    two_free = np.where(np.arange(n) < 2, 0.5, 0.0)  # 20 entries, or 4 with both rows cached to 8 columns
    assert _rows._recon_by(ipos, islot, st, two_free, C, n, n) == _rows._BY_INACTIVE_ROWS
    # rows shorter than n (9): a free row is read over its inactive columns only, 2 · 2 = 4 entries
    assert _rows._recon_by(ipos, islot, st, two_free, C, n, 9) == _rows._BY_FREE_ROWS
    ipos[_rows._SLOT, :2] = [0, 1]
    islot[_rows._LEN, :2] = 8
    assert _rows._recon_by(ipos, islot, st, two_free, C, n, n) == _rows._BY_FREE_ROWS
    st[_rows._RECON_RULE] = _rows._BY_INACTIVE_ROWS  # forced
    assert _rows._recon_by(ipos, islot, st, two_free, C, n, n) == _rows._BY_INACTIVE_ROWS


@pytest.mark.parametrize("recon", sorted(_rows.RECON_RULES))
@pytest.mark.parametrize("seed,general", [(0, False), (1, True)])
def test_shorter_rows_once_shrunk_give_the_full_matrix_solution(monkeypatch, recon, seed, general):
    """With a cache of a few rows, shrinking shortens the rows to the active set (more of them in the
    same memory) and unshrinking lengthens them again: the cached rows moved in place, the Ḡ updates
    and the reconstruction through the scratch rows; the solve ends at the full-matrix solver's
    solution (see test_rows_solver_equals_full_matrix_solver for the tolerances)."""
    n, sigma, scale = 300, 0.8, 5.0
    X, y, C, p = _problem(n, seed, general)
    full = solve_dual(gram(X, sigma=sigma), y, scale=scale, C=C, p=p, tol=1e-10)
    pp = -np.ones(n) if p is None else p
    strides = []
    restride = _rows._restride

    def recorded(data_old, data_new, islot_old, islot_new, ipos):
        strides.append((data_old.shape, data_new.shape))
        restride(data_old, data_new, islot_old, islot_new, ipos)
        # the ring links every slot once, and every cached row is where the position map says
        k, seen = islot_new[_rows._NEXT, -1], []
        while k != islot_new.shape[1] - 1:
            seen.append(k)
            k = islot_new[_rows._NEXT, k]
        assert sorted(seen) == list(range(islot_new.shape[1] - 1))
        cached = islot_new[_rows._POS] >= 0
        assert np.all(ipos[_rows._SLOT, islot_new[_rows._POS, cached]] == np.flatnonzero(cached))
        assert np.all(islot_new[_rows._LEN] <= data_new.shape[1])

    monkeypatch.setattr(_rows, "_restride", recorded)
    rows = GramRows(X, sigma=sigma)
    alpha, b, G, n_iter, status = _rows.solve_rows(rows, y.astype(float), scale, pp, C.astype(float), 1e-10,
                                                    10**7, True, 0.05, recon=recon)
    assert any(new[1] < old[1] for old, new in strides)  # shorter rows, more of them
    assert all(new[0] * new[1] <= _rows.cache_slots(n, 0.05) * n for _, new in strides)  # in the same memory
    assert status == 0 == full.status
    np.testing.assert_allclose(alpha, full.alpha, rtol=0, atol=1e-7 * C.max())
    assert b == pytest.approx(full.b, abs=1e-7)
    np.testing.assert_allclose(G, full.gradient, rtol=0, atol=1e-7)
