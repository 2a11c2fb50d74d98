"""The Kernels & variable selection page: the SVM's test error shown above the decomposition is the
fits' own ``KernelCriteria.test_error[q, j]`` instead of a decomposition of the 2000 test points
evaluated again at every rerun — the same number (the decomposition's signs are the fits' on these
samples) with one decomposition less."""
from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmviz import anova, data
from svmviz.kernels import SSANOVAKernel

from tests.apptest_utils import assert_clean, page_path

PAGE = page_path("6_Kernels_and_variable_selection.py")
LAMS = np.logspace(-6, -1, 11)


def _decomposed_test_error(kc, q, j, ds, test, names):
    """The error the page computed before: the decomposition of the test sample, its sign."""
    cur = kc.curves[q]
    exp = anova.expansion_from_dual(kc.kernels[q], ds.X, ds.y, cur.alphas[j], cur.b[j], float(cur.lambdas[j]),
                                    feature_names=names)
    f = anova.decompose(exp, test.X).total
    return float(np.mean(np.where(f > 0, 1.0, -1.0) != test.y))


@pytest.mark.parametrize("name, kw, sigma, seed", [
    ("anova_structure", dict(n=200, d=6), 1.4, 0), ("anova_structure", dict(n=200, d=6), 1.4, 1),
    ("anova_structure", dict(n=120, d=4, interaction=0.0), 1.0, 5), ("twonorm", dict(n=90), 2.0, 1)])
def test_the_fits_test_error_is_the_decompositions(name, kw, sigma, seed):
    """For both SS-ANOVA kernels and every λ, the fits' test error equals the error of the
    decomposed fit on the same 2000 points (what the page showed before), exactly."""
    ds = data.make_dataset(name, seed=seed, **kw)
    test = ds.test_sample(2000, seed=10_000 + seed)
    kernels = {"A": SSANOVAKernel(order="additive"), "T": SSANOVAKernel(order="two-way")}
    kc = anova.compare_kernels(ds.X, ds.y, LAMS, kernels, sigma=sigma, X_test=test.X, y_test=test.y)
    for q in range(len(kernels)):
        for j in range(LAMS.size):
            assert kc.test_error[q, j] == _decomposed_test_error(kc, q, j, ds, test, ds.feature_names), (q, j)


def test_a_rerun_does_not_decompose_the_test_sample(monkeypatch):
    """On the SVM (the default machine) no decomposition of the 2000 test points at a Seed + 1
    (fails before: one call with 2000 rows per run), and the Test error metric is the fits'."""
    calls = []
    original = anova.decompose

    def spy(exp, X, *a, **k):
        calls.append(np.asarray(X).shape[0])
        return original(exp, X, *a, **k)

    monkeypatch.setattr(anova, "decompose", spy)
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert_clean(at)
    seed = [w for w in at.number_input if "eed" in w.label][0]
    calls.clear()
    seed.set_value(seed.value + 1).run()
    assert_clean(at)
    assert calls and 2000 not in calls, calls
    # the metric is the decomposed fit's error on the same test sample, as before
    ds = data.anova_structure(n=200, seed=int(seed.value))
    test = ds.test_sample(2000, seed=10_000 + int(seed.value))
    from svmviz.ui import anova as page

    s = page.Settings(tuple(page.KERNEL_LABELS), "cubic", float(at.select_slider(key="anova_sigma_anova_structure").value),
                      0.25, LAMS, True)
    kernels = {"Gaussian": "rbf", "SS-ANOVA additive": SSANOVAKernel(order="additive", base="cubic", sigma=0.25),
               "SS-ANOVA two-way": SSANOVAKernel(order="two-way", base="cubic", sigma=0.25)}
    kc = anova.add_exact_loo(anova.compare_kernels(ds.X, ds.y, LAMS, kernels, sigma=s.sigma,
                                                   X_test=test.X, y_test=test.y), ds.y)
    q = kc.names.index("SS-ANOVA two-way")
    j = int(kc.curves[q].best["loo"])
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Test error"] == f"{_decomposed_test_error(kc, q, j, ds, test, ds.feature_names):.3f}"
