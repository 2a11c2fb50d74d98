"""The Kernels & variable selection view (svmviz.views.anova): its plan, the script written of it, and what
the plan computes, in this process."""
from __future__ import annotations

import numpy as np
import pytest

import svmviz
from svmviz import anova, codegen
from svmviz.data import anova_structure_terms
from svmviz.views.anova import Decomposition, Settings, ThetaGrid, ranked_pairs, true_main_effects, view_plan

from .plan_utils import assert_script_is_plan

LAMS = np.logspace(-5, -1, 4)
ALL = Settings(("gaussian", "additive", "two-way"), "cubic", 1.0, 0.25, LAMS, False)


def _data(name="anova_structure", **kw):
    return svmviz.make_dataset(name, n=40, seed=2, **kw)


CASES = [(dict(d=3), ALL, dict(decomposition=Decomposition(2, "klr", 1, float(LAMS[1]), "rms", (0, 2)),
                                theta=ThetaGrid(1, "gacv"), interaction=8.0)),
         (dict(d=3), ALL._replace(loo=True), dict(decomposition=Decomposition(1, "svm", 2, float(LAMS[2]), "norm"))),
         ({}, ALL._replace(kernels=("gaussian",), base="gaussian"), {}),
         ({}, ALL._replace(base="gaussian"), dict(decomposition=Decomposition(2, "svm", 0, float(LAMS[0]), "norm")))]


@pytest.mark.parametrize("data, settings, kw", CASES)
def test_the_script_calls_are_the_plans_steps(data, settings, kw):
    ds = _data(**data)
    p = view_plan(ds, settings, test_seed=10_002, **kw)
    assert_script_is_plan(p, codegen.plan_script(p, codegen.data_source(ds)))
    dc = kw.get("decomposition")
    figures = set(p.figures())
    assert ("fig_anova_imp" in figures) == ("fig_anova_main" in figures) == (dc is not None)
    assert ("fig_anova_interactions" in figures) == bool(dc is not None and dc.pairs)
    assert ("fig_anova_thgrid" in figures) == ("theta" in kw)
    assert p.has("kc_loo") == settings.loo and p.has("truth") == (dc is not None and dc.machine == "klr")


def test_the_pairs_are_the_two_factor_components_by_decreasing_importance():
    ds = _data(d=4)
    kc = anova.compare_kernels(ds.X, ds.y, LAMS, {"T": svmviz.kernels.SSANOVAKernel(order="two-way")})
    exp = anova.expansion_from_dual(kc.kernels[0], ds.X, ds.y, kc.curves[0].alphas[1], kc.curves[0].b[1], LAMS[1])
    pairs = ranked_pairs(exp)
    imp = dict(zip(anova.importances(exp).components, anova.importances(exp).values))
    assert sorted(pairs) == [(a, b) for a in range(4) for b in range(a + 1, 4)]
    assert [imp[c] for c in pairs] == sorted((imp[c] for c in pairs), reverse=True)


def test_the_true_main_effects_are_the_logits_terms():
    t = np.linspace(-1, 1, 7)
    truth = true_main_effects(3, 8.0)
    X = np.zeros((7, 3))
    X[:, 1] = t
    assert np.array_equal(truth(1, t), anova_structure_terms(X, 8.0)[(1,)])
    assert np.array_equal(truth(2, t), np.zeros(7))  # a noise variable
    with pytest.raises(ValueError, match="d must be"):
        true_main_effects(0, 8.0)


def test_a_decomposition_of_the_gaussian_kernel_and_a_theta_grid_without_one_are_refused():
    ds = _data(d=3)
    with pytest.raises(ValueError, match="no decomposition"):
        view_plan(ds, ALL, decomposition=Decomposition(0, "svm", 0, float(LAMS[0]), "norm"))
    with pytest.raises(ValueError, match="give a decomposition"):
        view_plan(ds, ALL, theta=ThetaGrid(0, "gacv"))
    with pytest.raises(ValueError, match="kernels"):
        view_plan(ds, ALL._replace(kernels=()))
