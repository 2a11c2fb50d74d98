"""The test sample's decision values of :func:`svmviz.anova.compare_kernels` are computed without
BLAS (``anova._test_decisions``: the same bits whatever OpenBLAS's thread count, no BLAS thread left
spinning beside exact LOO's threads and the browser), and the test errors are those of the matrix
product computed here."""
from __future__ import annotations

import numpy as np
import pytest
from threadpoolctl import ThreadpoolController

from svmviz import anova, data
from svmviz.kernels import SSANOVAKernel, fit_kernel, gram

LAMS = np.logspace(-6, -1, 11)


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def test_the_test_decisions_do_not_depend_on_blas_threads():
    """With OpenBLAS on one thread or on its default (both cores here) the decision values are the
    same bits (fails with the product ``coef @ Kt.T``: OpenBLAS splits it differently, 131 of 200
    random shapes differed), and they equal the product to rounding."""
    ctl = ThreadpoolController()
    # numpy's wheels bundle OpenBLAS: without a BLAS threadpoolctl can limit, this test could not vary
    # the threads, so it says so instead of skipping
    assert ctl.select(user_api="blas"), "no BLAS library that threadpoolctl can limit (numpy without OpenBLAS?)"
    rng = np.random.default_rng(0)
    for _ in range(12):
        m, n, t = int(rng.integers(2, 22)), int(rng.integers(50, 400)), int(rng.integers(500, 2500))
        coef, Kt, b = rng.standard_normal((m, n)), rng.random((t, n)), rng.standard_normal(m)
        with ctl.limit(limits=1, user_api="blas"):
            one = anova._test_decisions(coef, Kt, b)
        with ctl.limit(limits=2, user_api="blas"):
            two = anova._test_decisions(coef, Kt, b)
        assert _same(one, two), (m, n, t)
        ref = coef @ Kt.T + b[:, None]
        assert np.allclose(one, ref, rtol=1e-12, atol=1e-12 * np.abs(ref).max())


@pytest.mark.parametrize("name, kw, sigma", [("anova_structure", dict(n=120, seed=3), 1.4),
                                             ("twonorm", dict(n=90, seed=1), 2.0)])
def test_the_test_errors_are_those_of_the_matrix_product(name, kw, sigma):
    """Every kernel's test error along λ equals the one computed here with BLAS's product from the
    fits' own α and b, bit for bit (a sign of f changes only within rounding of 0)."""
    ds = data.make_dataset(name, **kw)
    t = ds.test_sample(1500, seed=7)
    kernels = {"G": "rbf", "A": SSANOVAKernel(order="additive"), "T": SSANOVAKernel(order="two-way")}
    kc = anova.compare_kernels(ds.X, ds.y, LAMS, kernels, sigma=sigma, X_test=t.X, y_test=t.y)
    yy, yt, n = np.where(ds.y > 0, 1.0, -1.0), np.where(t.y > 0, 1.0, -1.0), ds.X.shape[0]
    for q, kern in enumerate(kernels.values()):
        cur = kc.curves[q]
        Kt = gram(t.X, ds.X, kernel=fit_kernel(kern, ds.X), sigma=sigma)
        F = (cur.alphas * yy[None, :] / (2.0 * n * LAMS[:, None])) @ Kt.T + cur.b[:, None]
        assert _same(kc.test_error[q], np.mean(np.where(F > 0, 1.0, -1.0) != yt[None, :], axis=1)), q
