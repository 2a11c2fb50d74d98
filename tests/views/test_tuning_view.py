"""The Tuning criteria view (svmviz.views.tuning): its plan, the script written of it, and what the plan
computes, in this process."""
from __future__ import annotations

import numpy as np
import pytest

import svmviz
from svmviz import codegen
from svmviz.views import Executor
from svmviz.views.tuning import Grid, Setting, chosen_points, plotted_keys, view_plan

from .plan_utils import assert_script_is_plan

STANDARD = Setting(False, 1.0, 2.0, 0.1, 0.9)
NONSTANDARD = Setting(True, 1.5, 2.0, 0.2, 0.8)
GRID = Grid((-4.0, -0.5), (-1.0, 0.75), 6, False)

CASES = [("wahba2001", {}, STANDARD, None), ("wahba2001", {"nonstandard": True}, NONSTANDARD, None),
         ("banana", {}, NONSTANDARD, None), ("twonorm", {}, STANDARD, {"kind": "components"}),
         ("twonorm", {}, NONSTANDARD, {"kind": "features", "axes": (5, 1)}), ("twonorm", {}, STANDARD, None)]


@pytest.mark.parametrize("name, params, setting, axes", CASES)
def test_the_script_calls_are_the_plans_steps(name, params, setting, axes):
    ds = svmviz.make_dataset(name, n=30, seed=3, **params)
    p = view_plan(ds, setting, GRID._replace(loo=name == "banana"), selected=(1, 4), map_axes=axes)
    assert_script_is_plan(p, codegen.plan_script(p, codegen.data_source(ds)))
    figures = set(p.figures())
    assert figures == ({"fig_contours"} if name == "twonorm" and axes is None else {"fig_contours", "fig_curves"})


def test_the_script_prints_the_inefficiency_table_with_pandas():
    ds = svmviz.make_dataset("wahba2001", n=30, seed=3, nonstandard=True)
    p = view_plan(ds, NONSTANDARD, GRID, selected=(2, 1))
    assert p.step("rows").table
    text = codegen.plan_script(p, codegen.data_source(ds)).python()
    assert "import pandas as pd" in text and "print(pd.DataFrame(rows).to_string(index=False))" in text


def test_the_plotted_keys_are_the_surfaces_panels_and_the_chosen_points_its_minimizers():
    for name in ("wahba2001", "banana"):
        ds = svmviz.make_dataset(name, n=30, seed=1)
        p_true = None if ds.p_true is None else ds.p_true(ds.X)
        for loo in (False, True):
            surf = svmviz.criteria_surface(ds.X, ds.y, GRID.lambdas, GRID.sigmas, p_true=p_true, loo=loo)
            keys = plotted_keys(p_true is not None, loo)
            assert set(keys) <= set(surf.values) and ("loo" in keys) == loo
            assert ("gckl" in keys) == ("misclass" in keys) == (p_true is not None)
            chosen = chosen_points(surf)
            assert set(chosen) == {"gacv", "xa", "misclass", "loo"} & set(surf.values)
            for k, (i, j) in chosen.items():
                assert surf.values[k][i, j] == np.nanmin(surf.values[k])


def test_the_nonstandard_weights_of_an_upload_come_from_the_sample_share():
    ds = svmviz.make_dataset("banana", n=30, seed=2)
    out = Executor({"ds": ds}).run(view_plan(ds, NONSTANDARD, GRID), ["L", "threshold"])
    Lm, Lp, thr = svmviz.data.wahba_costs(1.5, 2.0, 0.2, 0.8, float(np.mean(ds.y > 0)))
    assert out == {"L": (Lm, Lp), "threshold": thr}
