"""The deprecated per-page generators of svmviz.codegen: each warns, names its replacement and returns
the script ``plan_script(view_plan(…))`` gives for the same settings; an argument the view has no
counterpart for, or one that disagrees with the data set, is refused."""
from __future__ import annotations

import collections

import numpy as np
import pytest

import svmviz
from svmviz import codegen
from svmviz.views import anova, ivm, losses, path, studies, tuning, usvc


def _data(name, n=30, seed=3, **params):
    ds = svmviz.make_dataset(name, n=n, seed=seed, **params)
    return ds, codegen.data_source(ds)


def _same(old_call, replacement: str, new):
    with pytest.warns(DeprecationWarning, match=replacement):
        got = old_call()
    assert got == new, "the alias's script differs from the replacement's"
    return got


TUNING_GRID = tuning.Grid((-4.0, -0.5), (-1.0, 0.75), 6, False)


@pytest.mark.parametrize("name, params, setting, axes", [
    ("wahba2001", {"nonstandard": True}, tuning.Setting(True, 1.5, 2.0, 0.2, 0.8), None),
    ("twonorm", {}, tuning.Setting(False, 1.0, 2.0, 0.1, 0.9), {"kind": "features", "axes": (5, 1)})])
def test_tuning_script_is_the_tuning_views_plan_script(name, params, setting, axes):
    ds, src = _data(name, **params)
    truth = ds.p_true is not None
    new = codegen.plan_script(tuning.view_plan(ds, setting, TUNING_GRID, selected=(1, 4), map_axes=axes), src)
    _same(lambda: codegen.tuning_script(src, setting, TUNING_GRID, selected=(1, 4),
                                        keys=tuning.plotted_keys(truth, False), truth=truth,
                                        two_d=ds.X.shape[1] == 2, map_axes=axes),
          r"plan_script\(svmviz\.views\.tuning\.view_plan", new)


def test_a_settings_tuple_with_the_views_fields_is_read_as_the_views_settings():
    ds, src = _data("banana")
    old_setting = collections.namedtuple("Setting", tuning.Setting._fields)(False, 1.0, 1.0, 0.5, 0.5)
    new = codegen.plan_script(tuning.view_plan(ds, tuning.Setting(*old_setting), TUNING_GRID, selected=(0, 0)), src)
    _same(lambda: codegen.tuning_script(src, old_setting, TUNING_GRID, selected=(0, 0),
                                        keys=tuning.plotted_keys(False, False), truth=False, two_d=True),
          "tuning", new)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match=r"svmviz\.views\.tuning\.Setting"):
        codegen.tuning_script(src, (False, 1.0, 1.0, 0.5, 0.5), TUNING_GRID, selected=(0, 0), keys=[], truth=False,
                              two_d=True)


def test_an_argument_that_disagrees_with_the_data_set_is_refused():
    ds, src = _data("wahba2001")
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="truth=False.*leave it out"):
        codegen.tuning_script(src, tuning.Setting(False, 1.0, 1.0, 0.5, 0.5), TUNING_GRID, selected=(0, 0),
                              keys=tuning.plotted_keys(True, False), truth=False, two_d=True)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="keys="):
        codegen.tuning_script(src, tuning.Setting(False, 1.0, 1.0, 0.5, 0.5), TUNING_GRID, selected=(0, 0),
                              keys=["gacv"], truth=True, two_d=True)


def test_a_csv_data_source_is_read_from_the_working_folder_as_the_script_reads_it(tmp_path, monkeypatch):
    content = "a,b,label\n" + "".join(f"{i / 7:.4f},{(i * 3) % 5},{'x' if i % 2 else 'y'}\n" for i in range(30))
    ds = svmviz.data.dataset_from_csv(content)
    src = codegen.data_source(ds, file_name="pts.csv", label_column="label")
    settings = path.Settings("linear", 1.0, "lambda", False, 30)
    monkeypatch.chdir(tmp_path)
    with pytest.warns(DeprecationWarning), pytest.raises(FileNotFoundError, match="pts.csv"):
        codegen.path_script(src, settings, lam=1.5, test_seed=None, two_d=True)
    (tmp_path / "pts.csv").write_text(content)
    new = codegen.plan_script(path.view_plan(ds, settings, 1.5), src)
    _same(lambda: codegen.path_script(src, settings, lam=1.5, test_seed=None, two_d=True), "path", new)


LOSS_VIEW = losses.LossView(("hinge", "deviance", "smooth_step"), 2.0, 1.0, -0.5, (2.0, 4.0), (-2.0, 3.0), True)
CURVE_VIEW = losses.CurveView(-0.25, (-4.0, -1.0), 5, 2, 0.2, "bernoulli", 5, False)


@pytest.mark.parametrize("name", ["wahba2001", "banana", None])
def test_losses_script_is_the_loss_views_plan_script(name):
    ds, src = (None, None) if name is None else _data(name)
    truth = ds is not None and ds.p_true is not None
    hinge, mis = ((), ()) if ds is None else losses.curve_keys(truth, CURVE_VIEW)
    new = codegen.plan_script(losses.view_plan(LOSS_VIEW, ds, CURVE_VIEW if ds is not None else None), src)
    _same(lambda: codegen.losses_script(src, LOSS_VIEW, CURVE_VIEW, hinge_keys=hinge, misclass_keys=mis, truth=truth),
          r"svmviz\.views\.losses\.view_plan", new)


def test_path_script_is_the_path_views_plan_script_and_refuses_another_line_count():
    ds, src = _data("twonorm", seed=1)
    settings = path.Settings("rbf", 0.5, "nu", True, 10)
    axes = {"kind": "components"}
    new = codegen.plan_script(path.view_plan(ds, settings, 1.5, map_axes=axes), src)
    _same(lambda: codegen.path_script(src, settings, lam=1.5, test_seed=path.sample_seed(ds), two_d=False,
                                      map_axes=axes), r"svmviz\.views\.path\.view_plan", new)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="max_lines=100 has no counterpart"):
        codegen.path_script(src, settings, lam=1.5, test_seed=path.sample_seed(ds), two_d=False, max_lines=100)


def test_usvc_script_is_the_usvc_views_plan_script():
    ds, src = _data("esl_mixture", n=40, seed=2)
    one_d = usvc.Settings1D("B", 100, 2, 3.0, 4.0, 1e-3, 0.3)
    table1 = usvc.Table1Settings("A", 2, 50, 50, 10.0, 1)
    kernel = usvc.KernelSettings(0.75, 10.0, 5, 3.0, "fscl", 2, True)
    new = codegen.plan_script(usvc.view_plan(ds, one_d, steps=3, table1=table1, kernel=kernel), src)
    _same(lambda: codegen.usvc_script(src, one_d, steps=3, table1=table1, kernel=(0.75, 10.0, 5, 3.0, "fscl"),
                                      test_seed=2, seed=2, two_d=True), r"svmviz\.views\.usvc\.view_plan", new)
    held_out = codegen.plan_script(usvc.view_plan(ds, kernel=kernel._replace(test=False)), src)
    _same(lambda: codegen.usvc_script(src, kernel=(0.75, 10.0, 5, 3.0, "fscl"), seed=2, two_d=True), "usvc", held_out)
    no_data = codegen.plan_script(usvc.view_plan(None, one_d, table1=table1), None)
    _same(lambda: codegen.usvc_script(None, one_d, table1=table1), "usvc", no_data)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="test_seed=5 differs from seed=2"):
        codegen.usvc_script(src, kernel=(0.75, 10.0, 5, 3.0, "fscl"), test_seed=5, seed=2, two_d=True)


def test_ivm_script_is_the_ivm_views_plan_script_and_refuses_a_missing_tab():
    ds, src = _data("esl_mixture", n=40, seed=1)
    settings = ivm.Settings(0.71, 1, 1e-3, "onestep", None, 50, 11)
    kw = dict(seed=1, lam_index=4, source="scratch", ln_lambda3=-2.0)
    derived = dict(fresh=True, multiclass=False, two_d=True, truth=True, klr=True)
    new = codegen.plan_script(ivm.view_plan(ds, settings, **kw), src)
    _same(lambda: codegen.ivm_script(src, settings, **kw, **derived), r"svmviz\.views\.ivm\.view_plan", new)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="lam_path=False has no counterpart"):
        codegen.ivm_script(src, settings, **kw, **derived, lam_path=False)
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="multiclass=True"):
        codegen.ivm_script(src, settings, **kw, **(derived | {"multiclass": True}))


def test_anova_script_is_the_anova_views_plan_script_and_refuses_a_criterions_name_for_lambda():
    ds, src = _data("anova_structure", n=40, seed=2, d=3)
    lams = np.logspace(-5, -1, 4)
    settings = anova.Settings(("gaussian", "additive", "two-way"), "cubic", 1.0, 0.25, lams, False)
    labels = dict(anova.SHORT)
    dc = {"q": 2, "machine": "klr", "lam": 1, "measure": "rms", "pairs": (0, 2), "true_effects": True,
          "interaction": 8.0}
    new = codegen.plan_script(anova.view_plan(
        ds, settings, test_seed=7, decomposition=anova.Decomposition(2, "klr", 1, float(lams[1]), "rms", (0, 2)),
        theta=anova.ThetaGrid(1, "gacv"), interaction=8.0), src)
    _same(lambda: codegen.anova_script(src, settings, kernel_labels=labels, test_seed=7, n_test=anova.N_TEST,
                                       truth=True, decomposition=dc,
                                       theta={"coordinate": 1, "criterion": "gacv", "scales": anova.THETA_SCALES}),
          r"svmviz\.views\.anova\.view_plan", new)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="pass the index of the λ"):
        codegen.anova_script(src, settings, kernel_labels=labels, test_seed=7, n_test=anova.N_TEST, truth=True,
                             decomposition=dc | {"lam": "gacv"})
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="n_test=500 has no counterpart"):
        codegen.anova_script(src, settings, kernel_labels=labels, test_seed=7, n_test=500, truth=True)


def test_studies_script_and_study_command_are_the_studies_views():
    _same(lambda: codegen.studies_script("tiny", 3), r"svmviz\.views\.studies\.view_plan",
          codegen.plan_script(studies.view_plan("tiny", 3), None))
    _same(lambda: codegen.study_command("tiny"), r"svmviz\.views\.studies\.study_command",
          studies.study_command("tiny"))


def test_the_old_module_offers_the_aliases():
    from svmviz.codegen import pages

    assert {"tuning_script", "losses_script", "path_script", "usvc_script", "ivm_script", "anova_script",
            "studies_script", "study_command"} <= set(vars(pages))
    with pytest.warns(DeprecationWarning, match="study_command"):
        assert pages.study_command("x") == studies.study_command("x")
