"""compare_kernels' exact LOO on a pool of threads:
the same numbers as gram_criteria_curves(loo=True) kernel by kernel, progress counted to its total,
and a progress callback that raises stops the refits."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz import anova, data
from svmviz.kernels import SSANOVAKernel, fit_kernel, gram, kernel_diagonal
from svmviz.tuning import gram_criteria_curves

LAMS = np.logspace(-5, -1, 5)
KERNELS = {"Gaussian": "rbf", "additive": SSANOVAKernel(order="additive"),
           "two-way": SSANOVAKernel(order="two-way")}


@pytest.fixture(scope="module")
def ds():
    return data.anova_structure(n=70, seed=3)


def test_threaded_loo_equals_gram_criteria_curves(ds):
    calls = []
    kc = anova.compare_kernels(ds.X, ds.y, LAMS, KERNELS, sigma=0.8, p_true=ds.p_true, loo=True,
                               progress=lambda d, t, msg: calls.append((d, t, msg)))
    yy = np.where(ds.y == ds.y.max(), 1.0, -1.0)
    for name, cur in zip(kc.names, kc.curves):
        kf = fit_kernel(KERNELS[name], ds.X)
        ref = gram_criteria_curves(gram(ds.X, kernel=kf, sigma=0.8), yy, LAMS,
                                   K_diag=kernel_diagonal(kf, ds.X, sigma=0.8), p_true=ds.p_true(ds.X), loo=True)
        assert list(cur.values) == list(ref.values) and list(cur.best) == list(ref.best)
        for key in ref.values:
            np.testing.assert_array_equal(cur.values[key], ref.values[key])
        assert cur.best == ref.best
        np.testing.assert_array_equal(cur.f_loo, ref.f_loo)
        np.testing.assert_array_equal(cur.status, ref.status)
        np.testing.assert_array_equal(cur.alphas, ref.alphas)
    total = 2 * len(KERNELS) + len(KERNELS) * LAMS.size
    assert [d for d, _, _ in calls] == list(range(1, total + 1))
    assert {t for _, t, _ in calls} == {total}
    assert sum("leave-one-out" in msg for _, _, msg in calls) == len(KERNELS) * LAMS.size


class _Stop(Exception):
    pass


def test_progress_exception_stops_the_refits(ds):
    seen = []

    def progress(done, total, msg):
        seen.append(done)
        if "leave-one-out" in msg:
            raise _Stop

    with pytest.raises(_Stop):
        anova.compare_kernels(ds.X, ds.y, LAMS, KERNELS, sigma=0.8, loo=True, progress=progress)
    assert seen[-1] == 2 * len(KERNELS) + 1
