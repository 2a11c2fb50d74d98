"""The (σ, λ) grid engine: memory refusal before allocating, the σ kernels, and its λ sequences with and
without shrinking (the grid runs without it, ``svm.GRID_SHRINKING``): every solution meets the
stopping rule and the decision values of both settings agree to what the tolerance allows."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz import _surface, _validation, tuning
from svmviz.svm import _classes as svm_classes, _smo
from svmviz.criteria import leave_one_out_decisions
from svmviz.data import make_dataset
from svmviz.kernels import rbf_from_squared_distances, squared_distances
from svmviz.svm import GRID_SHRINKING, check_grid_memory, fit_lambda_sequence, fit_sigma_lambda_grid, grid_memory

LAM = np.logspace(-3, -1, 4)
SIG = np.array([0.5, 1.0, 2.0])


def test_grid_memory_counts_distances_kernels_per_thread_and_solutions():
    assert grid_memory(100, 3, 4, 2, grid_arrays=5) == 8 * (3 * 100**2 + 5 * 3 * 4 * 100)
    assert grid_memory(100, 3, 4, 2, n_by_n_per_thread=2, grid_arrays=0) == 8 * 5 * 100**2


@pytest.mark.parametrize("threads", [1, 2])
def test_refusal_names_the_largest_n_that_fits(threads):
    avail = 2 * 10**9
    with pytest.raises(ValueError) as exc:
        check_grid_memory(20_000, 30, 30, threads, what="criteria surface", available=avail)
    msg = str(exc.value)
    n_max = int(msg.split("use n ≤ ")[1].split()[0].rstrip(","))
    assert grid_memory(n_max, 30, 30, threads) <= avail < grid_memory(n_max + 1, 30, 30, threads)
    assert "20000" in msg.replace(",", "") and "GB" in msg
    assert ("n_threads=1" in msg) == (threads > 1)
    check_grid_memory(n_max, 30, 30, threads, what="criteria surface", available=avail)  # fits: no error


def _no_allocation(*args, **kwargs):
    raise AssertionError("the n×n distances were computed before the memory check")


def test_surfaces_refuse_before_computing_distances(monkeypatch):
    ds = make_dataset("wahba2001", n=600, seed=0)
    monkeypatch.setattr(_validation, "memory_room", lambda: (5 * 10**6, "MemAvailable"))  # 3·600² doubles = 8.6 MB
    monkeypatch.setattr(_surface, "squared_distances", _no_allocation)
    monkeypatch.setattr(svm_classes, "squared_distances", _no_allocation)
    for call in (lambda: tuning.criteria_surface(ds.X, ds.y, LAM, SIG, n_threads=2),
                 lambda: tuning.criteria_surface(ds.X, ds.y, LAM, SIG, kfold=3),
                 lambda: tuning.kfold_cv_surface(ds.X, ds.y, LAM, SIG, k=3),
                 lambda: fit_sigma_lambda_grid(ds.X, ds.y, LAM, SIG, n_threads=2)):
        with pytest.raises(ValueError, match=r"n = 600 needs about .* use n ≤ \d+"):
            call()


def test_surface_runs_when_memory_suffices(monkeypatch):
    ds = make_dataset("wahba2001", n=60, seed=0)
    monkeypatch.setattr(_validation, "memory_room", lambda: (10**9, "MemAvailable"))
    surf = tuning.criteria_surface(ds.X, ds.y, LAM, SIG, p_true=ds.p_true)
    assert surf.values["gacv"].shape == (3, 4)


def test_sigma_sequence_is_the_lambda_sequence_on_the_gaussian_kernel():
    """rbf_sigma_sequence builds K with kernels.py's Gaussian kernel: bitwise the same solutions."""
    ds = make_dataset("wahba2001", n=80, seed=3)
    y = np.where(ds.y > 0, 1.0, -1.0)
    D = squared_distances(ds.X)
    grid = fit_sigma_lambda_grid(ds.X, ds.y, LAM, SIG, n_threads=2)
    for q, s in enumerate(SIG):
        ref = fit_lambda_sequence(rbf_from_squared_distances(D, s), y, LAM)
        np.testing.assert_array_equal(grid.alphas[q], ref.alphas)
        np.testing.assert_array_equal(grid.f[q], ref.f)
        f_loo, st = _smo.rbf_sigma_loo(D, float(s), y, LAM[:1], np.ones(80), -np.ones(80),
                                       np.ascontiguousarray(ref.alphas[:1]), 1e-3, 10**7)
        f_ref, st_ref = leave_one_out_decisions(rbf_from_squared_distances(D, s), y, LAM[0], ref.alphas[0])
        np.testing.assert_array_equal(f_loo[0], f_ref)
        assert st[0] == st_ref == 0


# ------------------------------------------------------------------------------------------------------------
# The grid engine's λ sequences with and without shrinking (the grid runs without it by default,
# ``svm.GRID_SHRINKING``): every solution meets the stopping rule — the maximal violating pair of its own
# gradient, recomputed here from α, is under the tolerance — and the decision values of both settings agree to
# what that tolerance allows.
TOL = 1e-3
LAMBDAS = np.logspace(-5, -0.5, 8)


def _max_violation(K, y, lam, alpha, C):
    """Gmax + Gmax2 of libsvm's stopping rule from α (Fan, Chen & Lin 2005, eq. 9)."""
    n = y.size
    G = (1.0 / (2.0 * n * lam)) * y * (K @ (y * alpha)) - 1.0
    up = np.where(y > 0, alpha < C, alpha > 0)
    low = np.where(y > 0, alpha > 0, alpha < C)
    return np.max(-y[up] * G[up]) + np.max(y[low] * G[low])


@pytest.mark.parametrize("sigma", [0.2, 1.0, 5.0])
@pytest.mark.parametrize("shrinking", [False, True])
def test_lambda_sequence_meets_the_stopping_rule(sigma, shrinking):
    ds = make_dataset("wahba2001", n=150, seed=3)
    y = ds.y.astype(float)
    K = rbf_from_squared_distances(squared_distances(ds.X), sigma)
    seq = fit_lambda_sequence(K, y, LAMBDAS, tol=TOL, shrinking=shrinking)
    assert np.all(seq.status == 0)
    C = np.ones(y.size)
    for k, lam in enumerate(LAMBDAS):
        a = seq.alphas[k]
        assert np.all((a >= 0) & (a <= C)) and abs(y @ a) <= 1e-9 * max(1.0, a.sum())
        # 1e-9 slack: G is recomputed here in another summation order than the solver's updates
        assert _max_violation(K, y, lam, a, C) < TOL + 1e-9


def test_grid_default_and_shrinking_agree_to_the_tolerance():
    ds = make_dataset("wahba2001", n=120, seed=5)
    sig = np.array([0.3, 1.0, 3.0])
    a = fit_sigma_lambda_grid(ds.X, ds.y, LAMBDAS, sig, tol=TOL)
    b = fit_sigma_lambda_grid(ds.X, ds.y, LAMBDAS, sig, tol=TOL, shrinking=not GRID_SHRINKING)
    scale = np.abs(b.f).max(axis=-1, keepdims=True)
    # both stop with a maximal violating pair under tol; decision values then differ by O(tol)
    # relative to their size (the same bound bench_svm.py reports against libsvm: ≤ 1e-2)
    assert np.max(np.abs(a.f - b.f) / scale) < 1e-2
