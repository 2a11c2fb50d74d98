"""The Regularization path view (svmviz.views.path): its plan, the script written of it, and what the plan
computes, in this process."""
from __future__ import annotations

import pytest

import svmviz
from svmviz import codegen
from svmviz.views import Executor
from svmviz.views.path import Settings, stopping_lambda, view_plan

from .plan_utils import assert_script_is_plan

RBF = Settings("rbf", 0.5, "nu", True, 10)
LINEAR = Settings("linear", 1.0, "lambda", False, 30)


@pytest.mark.parametrize("name, settings, axes", [("esl_mixture", RBF, None), ("banana", LINEAR, None),
                                                  ("twonorm", RBF, {"kind": "features", "axes": (2, 0)}),
                                                  ("twonorm", LINEAR, {"kind": "components"}),
                                                  ("twonorm", LINEAR, None)])
def test_the_script_calls_are_the_plans_steps(name, settings, axes):
    ds = svmviz.make_dataset(name, n=30, seed=1)
    p = view_plan(ds, settings, 1.5, map_axes=axes)
    assert_script_is_plan(p, codegen.plan_script(p, codegen.data_source(ds)))
    drawn = {f[4:] for f in p.figures()}
    assert ("path_loo_fig" in drawn) == settings.loo
    assert ("path_map" in drawn) == (name != "twonorm" or axes is not None)
    assert p.has("te")  # generated data: a test sample from their law
    assert [s.bind for s in view_plan(ds, settings).steps] == ["p", "te"] + (["loo"] if settings.loo else [])


def test_the_stop_is_the_stopping_point():
    ds = svmviz.make_dataset("esl_mixture", n=30, seed=1)
    p = view_plan(ds, RBF, 2.0)
    page = Executor({"ds": ds}).run(p, ["loo", "stop", "lc"])
    loo = page["loo"]
    assert stopping_lambda(loo) == loo.lambdas[loo.stop]
    assert page["stop"] == page["lc"].stop  # the curves' own stopping point, on the ν axis
