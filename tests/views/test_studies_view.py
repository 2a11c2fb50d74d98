"""The Criteria studies view (svmviz.views.studies): its plan, the script written of it, and what the plan
computes from a results folder, in this process; the executor's values a page already holds."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz import codegen
from svmviz.studies import load_results, published_table, run_study, spec_from_dict, summary_table
from svmviz.studies.report import report_figures
from svmviz.views import Executor, Step, call, plan, ref
from svmviz.views.studies import results_folder, study_command, view_plan

from .plan_utils import assert_script_is_plan, same_figures

SPEC = spec_from_dict({"name": "tiny", "replicates": 2, "seed": 1, "test_size": 200,
                       "datasets": [{"name": "banana", "n": 40}],
                       "svm": {"criteria": ["gacv", "kfold"], "n_lambda": 3, "n_sigma": 3}})


def test_the_script_calls_are_the_plans_steps_and_it_reads_the_commands_folder():
    p = view_plan("tiny", 3)
    script = codegen.plan_script(p, None)
    assert_script_is_plan(p, script)
    assert script.figures == ("fig_studies_fig_0", "fig_studies_fig_1", "fig_studies_fig_2")
    assert study_command("tiny") == "svmviz study run tiny.toml --out results/tiny"
    assert 'load_results("results/tiny")' in script.python() and study_command("tiny") in script.python()


def test_the_page_draws_the_reports_figures_and_summary_from_the_results_it_holds(tmp_path):
    run_study(SPEC, tmp_path / results_folder("tiny"), workers=0)
    held = load_results(str(tmp_path / "results" / "tiny"))  # the page's own copy, read elsewhere
    ex = Executor({}, known={"results": held})
    p = view_plan("tiny", len(ex.value(view_plan("tiny", 0), "figures")))
    report = report_figures(held)
    assert len(p.figures()) == len(report) > 0
    for fig, want in zip(p.figures(), report):
        assert same_figures(ex.value(p, fig), want), fig
    want = summary_table(held.table, published=published_table(held.spec.published))
    assert ex.value(p, "summary").equals(want)


def test_a_known_value_is_returned_and_its_step_not_evaluated():
    def refuse(_):
        raise AssertionError("a known step is not evaluated")

    p = plan("t", [], [Step("a", call(refuse, 1), "Refused."), Step("b", call(np.sqrt, ref("a")))])
    assert float(Executor({}, known={"a": 16.0}).value(p, "b")) == 4.0
    with pytest.raises(KeyError, match="binds"):
        Executor({}, known={"c": 1.0}).value(p, "c")


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_a_count_of_figures_that_is_not_a_whole_number_is_refused(bad):
    with pytest.raises(ValueError, match="n_figures"):
        view_plan("tiny", bad)


def test_a_name_with_a_folder_is_refused():
    with pytest.raises(ValueError, match="without a folder"):
        study_command("../tiny")
