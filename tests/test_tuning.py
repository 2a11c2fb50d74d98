"""One exact-LOO thread-queue routine:
``tuning.exact_loo_curves`` runs the leave-one-out refits of several (gram, λ-sequence) problems on
one queue, used by ``gram_criteria_curves(loo=True)`` and ``anova.compare_kernels`` alike. Its
numbers are those of one ``criteria.leave_one_out_decisions`` call per (problem, λ), in any order."""
from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from svmviz import anova, criteria, data, tuning
from svmviz.kernels import SSANOVAKernel, fit_kernel, gram

LAMS = np.array([3e-2, 1e-4, 1e-3, 1e-2])  # not sorted: the queue orders by λ itself
L = (1.0, 2.0)


@pytest.fixture(scope="module")
def problem():
    ds = data.anova_structure(n=50, seed=5)
    y = np.where(ds.y == ds.y.max(), 1.0, -1.0)
    grams = [gram(ds.X, sigma=0.8), gram(ds.X, kernel=fit_kernel(SSANOVAKernel(order="additive"), ds.X))]
    curves = [tuning.gram_criteria_curves(K, y, LAMS, L=L) for K in grams]
    return ds, y, grams, curves


def _serial(K, y, cur):
    out = [criteria.leave_one_out_decisions(K, y, cur.lambdas[k], cur.alphas[k], L=L, tol=1e-3,
                                            max_iter=tuning.DEFAULT_MAX_ITER) for k in range(cur.lambdas.size)]
    return np.array([f for f, _ in out]), np.array([s for _, s in out])


def test_queue_equals_one_refit_call_per_problem_and_lambda(problem):
    _, y, grams, curves = problem
    out, secs = tuning.exact_loo_curves(curves, grams, y, L=L)
    assert secs.shape == (2,) and np.all(secs > 0)
    for K, cur, res in zip(grams, curves, out):
        f, st = _serial(K, y, cur)
        np.testing.assert_array_equal(res.f_loo, f)
        np.testing.assert_array_equal(res.values["loo"], criteria.loo_misclass(f, y, L))
        np.testing.assert_array_equal(res.status, np.maximum(cur.status, st))
        assert res.best["loo"] == int(np.nanargmin(res.values["loo"]))
        for key in cur.values:  # the other criteria untouched
            np.testing.assert_array_equal(res.values[key], cur.values[key])


def test_gram_criteria_curves_loo_is_the_routine(problem):
    _, y, grams, curves = problem
    full = tuning.gram_criteria_curves(grams[1], y, LAMS, L=L, loo=True)
    f, st = _serial(grams[1], y, curves[1])
    np.testing.assert_array_equal(full.f_loo, f)
    np.testing.assert_array_equal(full.values["loo"], criteria.loo_misclass(f, y, L))
    assert list(full.values) == list(curves[1].values) + ["loo"]


def test_compare_kernels_uses_the_one_routine(problem, monkeypatch):
    ds, *_ = problem
    calls = []
    real = tuning.exact_loo_curves

    def spy(curves, grams, y, **kw):
        calls.append(len(curves))
        return real(curves, grams, y, **kw)

    monkeypatch.setattr(tuning, "exact_loo_curves", spy)
    monkeypatch.setattr(anova, "exact_loo_curves", spy, raising=False)
    kc = anova.compare_kernels(ds.X, ds.y, LAMS, {"g": "rbf", "a": SSANOVAKernel(order="additive")}, sigma=0.8,
                               loo=True)
    assert calls == [2]
    assert all("loo" in c.values for c in kc.curves)
    assert not hasattr(anova, "_add_loo")


def test_costliest_first_progress_from_the_callers_thread(problem, monkeypatch):
    _, y, grams, curves = problem
    started, threads = [], []
    real = criteria.leave_one_out_decisions

    def record(K, yy, lam, alpha, **kw):
        started.append(float(lam))
        return real(K, yy, lam, alpha, **kw)

    monkeypatch.setattr(criteria, "leave_one_out_decisions", record)
    calls = []

    def progress(d, t, msg):
        threads.append(threading.get_ident())
        calls.append((d, t, msg))

    old = numba.get_num_threads()
    numba.set_num_threads(1)  # one worker: the queue's order is the order of the refits
    try:
        tuning.exact_loo_curves(curves, grams, y, L=L, labels=["G", "A"], progress=progress)
    finally:
        numba.set_num_threads(old)
    assert started == sorted(np.repeat(LAMS, 2).tolist())
    assert [d for d, _, _ in calls] == list(range(1, 2 * LAMS.size + 1))
    assert {t for _, t, _ in calls} == {2 * LAMS.size}
    assert set(threads) == {threading.get_ident()}
    assert sum(m.startswith("A: leave-one-out") for *_, m in calls) == LAMS.size


def test_an_exception_in_progress_cancels_the_queue(problem, monkeypatch):
    _, y, grams, curves = problem
    ran = []
    real = criteria.leave_one_out_decisions
    gate = threading.Event()

    def refit(*a, **kw):
        ran.append(1)
        if len(ran) > 1:  # every refit after the first waits, so the first one's progress report (which
            gate.wait(timeout=2.0)  # raises) comes before the pool could run the whole queue
        return real(*a, **kw)

    monkeypatch.setattr(criteria, "leave_one_out_decisions", refit)

    class Stop(Exception):
        pass

    def progress(d, t, msg):
        raise Stop

    threads = numba.get_num_threads()
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))  # the pool's size: 2 refits at a time
    try:
        with pytest.raises(Stop):
            tuning.exact_loo_curves(curves, grams, y, L=L, progress=progress)
    finally:
        gate.set()
        numba.set_num_threads(threads)
    # the first refit, and at most one more running on each of the pool's 2 threads; the queued never ran
    assert len(ran) <= 3 < 2 * LAMS.size


def test_one_gram_per_curve(problem):
    _, y, grams, curves = problem
    with pytest.raises(ValueError, match="one gram matrix per curve"):
        tuning.exact_loo_curves(curves, grams[:1], y)
