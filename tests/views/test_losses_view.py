"""The Loss functions view (svmviz.views.losses): its plan, the script written of it, and what the plan
computes, in this process."""
from __future__ import annotations

import pytest

import svmviz
from svmviz import codegen
from svmviz.views.losses import CurveView, LossView, curve_keys, view_plan

from .plan_utils import assert_script_is_plan

LOSSES = LossView(("hinge", "deviance", "smooth_step", "wahba_v"), 2.0, 1.0, -0.5, (2.0, 4.0), (-2.0, 3.0), True)
CURVES = CurveView(-0.25, (-4.0, -1.0), 5, 2, 0.2, "bernoulli", 5, True)


@pytest.mark.parametrize("name, losses, curves", [("wahba2001", LOSSES, CURVES), ("banana", None, CURVES),
                                                  ("banana", LOSSES, CURVES._replace(loo=False, replicates=0)),
                                                  (None, LOSSES, None)])
def test_the_script_calls_are_the_plans_steps(name, losses, curves):
    ds = None if name is None else svmviz.make_dataset(name, n=30, seed=2)
    p = view_plan(losses, ds, curves)
    assert_script_is_plan(p, codegen.plan_script(p, None if ds is None else codegen.data_source(ds)))
    drawn = {f[4:] for f in p.figures()}
    assert ({"loss_curves", "mu_curves", "fstar_curves"} <= drawn) == (losses is not None)
    assert ("gacv_curves" in drawn) == (ds is not None)
    assert ("loo_curves" in drawn) == (name == "wahba2001" or (ds is not None and curves.loo))


@pytest.mark.parametrize("name", ["wahba2001", "banana"])
def test_the_panels_criteria_are_those_the_curves_hold(name):
    ds = svmviz.make_dataset(name, n=30, seed=1)
    p_true = None if ds.p_true is None else ds.p_true(ds.X)
    for view in (CURVES, CURVES._replace(loo=False, replicates=0)):
        gc = svmviz.losses.gacv_curves(ds.X, ds.y, view.lambdas, view.sigma, p_true=p_true, loo=view.loo,
                                       ran_gacv_replicates=view.replicates, seed=view.z_seed)
        hinge, mis = curve_keys(p_true is not None, view)
        assert hinge == [k for k in svmviz.figures.losses.HINGE_SCALE if k in gc.values]
        assert mis == [k for k in svmviz.figures.losses.MISCLASS_SCALE if k in gc.values]
