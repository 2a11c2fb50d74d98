"""The Import vector machine view (svmviz.views.ivm): its plan, the script written of it, and what the plan
computes, in this process."""
from __future__ import annotations

import numpy as np
import pytest

import svmviz
from svmviz import codegen
from svmviz.views import Executor
from svmviz.views.ivm import Settings, make_splits, n_train, view_plan

from .plan_utils import assert_script_is_plan

SETTINGS = Settings(0.71, 1, 1e-3, "onestep", None, 50, 11)

CASES = [("esl_mixture", {}, dict(lam_index=4, source="scratch", ln_lambda3=-2.0)),
         ("twonorm", {}, dict(lam_index=3, map_axes={"kind": "components"})),
         ("twonorm", {}, dict(lam_index=3)),
         ("esl_mixture3", {}, dict(lam_index=5)),
         ("esl_mixture", {"n": 500}, dict(lam_index=2))]


def _data(name, n=40):
    return svmviz.make_dataset(name, n=n, seed=1)


@pytest.mark.parametrize("name, data, kw", CASES)
def test_the_script_calls_are_the_plans_steps(name, data, kw):
    ds = _data(name, **data)
    p = view_plan(ds, SETTINGS, seed=1, **kw)
    assert_script_is_plan(p, codegen.plan_script(p, codegen.data_source(ds)))
    figures = set(p.figures())
    maps = {"fig_ivm_map_ivm", "fig_ivm_map_svm"}
    assert {"fig_ivm_path_err", "fig_ivm_path_size", "fig_ivm_classmap"} <= figures
    assert (maps <= figures) == (not ds.is_multiclass and (ds.X.shape[1] == 2 or "map_axes" in kw))
    assert ("fig_ivm_steps" in figures) == (not ds.is_multiclass)
    assert p.has("klr") == (ds.X.shape[0] <= 400)


def test_every_tab_is_in_the_script_the_open_tabs_figures_first():
    ds = _data("esl_mixture")
    p = view_plan(ds, SETTINGS, seed=1, lam_index=4)
    for tab in ("maps", "path", "multiclass"):
        script = codegen.plan_script(p, codegen.data_source(ds), open_tab=tab)
        first = [f for f in script.figures if p.step(f).tab == tab]
        assert list(script.figures[:len(first)]) == first and set(script.figures) == set(p.figures())
    default = codegen.plan_script(p, codegen.data_source(ds), open_tab="maps").python()
    for part in ("svm_test_error = error_rate(", "ivm_test_error = error_rate(", "fig_ivm_map_svm = "):
        assert part in default


def test_the_test_errors_are_the_machines_errors_on_the_test_set():
    ds = _data("esl_mixture")
    p = view_plan(ds, SETTINGS, seed=1, lam_index=4, source="scratch", ln_lambda3=-2.0)
    page = Executor({"ds": ds}).run(p, ["sp", "model", "svm", "ivm_test_error", "svm_test_error"])
    sp = page["sp"]
    assert page["ivm_test_error"] == np.mean(page["model"].predict(sp.X_test) != sp.y_test)
    assert page["svm_test_error"] == np.mean(page["svm"].predict(sp.X_test) != sp.y_test)


def test_the_training_size_is_the_splits():
    for name in ("esl_mixture", "twonorm"):
        ds = _data(name)
        assert n_train(ds, 3) == make_splits(ds, 50, 3).X.shape[0] == ds.X.shape[0]
    upload = svmviz.data.dataset_from_csv("a,b,label\n" + "\n".join(f"{i},{i % 3},{i % 2}" for i in range(30)),
                                          label_column="label")
    assert n_train(upload, 3) == make_splits(upload, 50, 3).X.shape[0] == 15


def test_a_lambda_off_the_grid_and_an_unknown_source_are_refused():
    ds = _data("esl_mixture")
    with pytest.raises(ValueError, match="off the λ grid"):
        view_plan(ds, SETTINGS, seed=1, lam_index=11)
    with pytest.raises(ValueError, match="source"):
        view_plan(ds, SETTINGS, seed=1, lam_index=1, source="fresh")
