"""The "Python code of this view" panel: each page's generated script and notebook, run in a fresh
interpreter, draw the page's charts with the same numbers; every control that changes a chart
changes the code."""
from __future__ import annotations

import json

import numpy as np

from ..apptest_utils import two_class_csv
from .codeview_utils import (Downloads, check_reproduces, check_reproduces_here, code_of, open_page, page_charts,
                             walk_every_widget)

TUNING = "1_Tuning_criteria.py"
SMALL_TUNING = {"res": "6", "n": "40"}


def _edit(at, adds=((0.5, 0.5, 1.0), (2.5, 1.0, -1.0)), removes=(0, 3)):
    """Edit the session's points as clicks would (add two points, remove two), then rerun."""
    state = at.session_state["_svmviz_edit"]
    for x1, x2, label in adds:
        state.add(x1, x2, label)
    state.remove(list(removes))
    return at.run()


def test_tuning_code_reproduces_a_nonstandard_view_with_a_moved_grid_point(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(TUNING, SMALL_TUNING | {"data": "wahba2001", "seed": "3", "mode": "non-standard", "cp": "1.5",
                                           "pp": "0.2", "lam_lo": "-4.0", "sig_hi": "0.75"})
    at.select_slider(key="tuning_pt_l").set_value(at.select_slider(key="tuning_pt_l").value).run()
    opts = at.select_slider(key="tuning_pt_s").options
    at.select_slider(key="tuning_pt_s").set_value(float(opts[1])).run()
    text = check_reproduces(at, dl, tmp_path, "tuning")
    assert "nonstandard=True" in text and "C_plus=1.5" in text and "pi_plus=0.2" in text
    assert "selected=(1, " in text


def test_tuning_code_reproduces_an_uploaded_file(tmp_path, monkeypatch):
    content = two_class_csv(50, seed=2)
    at = open_page(TUNING, SMALL_TUNING | {"mode": "non-standard", "cm": "3.0"},
                   shared={"data": "Upload CSV…", "upload": ("my points.csv", content), "standardize": False})
    text = check_reproduces_here(at, tmp_path, monkeypatch, {"my points.csv": content})
    assert 'svmviz.data.dataset_from_csv("my points.csv", label_column="label")' in text
    assert "wahba_costs(" in text


def test_tuning_code_reproduces_edited_points(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(TUNING, SMALL_TUNING | {"data": "edited"}, shared={"data": "edited", "n": 40})
    _edit(at)
    assert not at.exception
    assert "edited_points.csv" in dl.files, "the editor offers the points as edited_points.csv"
    text = check_reproduces_here(at, tmp_path, monkeypatch, {"edited_points.csv": dl.files["edited_points.csv"]})
    assert "edited_points.csv" in text


def test_tuning_code_reproduces_twenty_features_on_principal_components(tmp_path, monkeypatch):
    at = open_page(TUNING, SMALL_TUNING | {"data": "twonorm", "map": "components"})
    assert "curves" in page_charts(at)
    text = check_reproduces_here(at, tmp_path, monkeypatch)
    assert 'compute_map_plane(ds.X, kind="components", feature_names=ds.feature_names)' in text


def test_tuning_code_reproduces_an_uploaded_six_feature_map_on_two_chosen_features(tmp_path, monkeypatch):
    from .test_tuning_page_maps import six_feature_csv

    content = six_feature_csv()
    at = open_page(TUNING, SMALL_TUNING | {"map_x": "score", "map_y": "income"},
                   shared={"data": "Upload CSV…", "upload": ("cars.csv", content), "standardize": True})
    text = check_reproduces_here(at, tmp_path, monkeypatch, {"cars.csv": content})
    assert 'compute_map_plane(ds.X, kind="features", axes=(5, 1), feature_names=ds.feature_names)' in text


def test_tuning_notebook_is_a_valid_nbformat_4_notebook(monkeypatch):
    dl = Downloads(monkeypatch)
    open_page(TUNING, SMALL_TUNING)
    nb = json.loads(dl.files["svmviz_tuning.ipynb"])
    import nbformat

    nbformat.validate(nbformat.from_dict(nb))
    assert [c["cell_type"] for c in nb["cells"][:3]] == ["markdown", "markdown", "code"]


def test_every_tuning_control_that_changes_a_chart_changes_the_code():
    at = open_page(TUNING, SMALL_TUNING | {"data": "banana"})
    code_of(at)
    done, undriven = walk_every_widget(at)
    assert {"tuning_data", "tuning_n", "tuning_seed", "tuning_mode", "tuning_lam", "tuning_sig", "tuning_res",
            "tuning_loo", "tuning_pt_l", "tuning_pt_s", "tuning_cp", "tuning_cm", "tuning_pp"} <= set(done), \
        (done, undriven)


LOSSES = "2_Loss_functions.py"
SMALL_LOSSES = {"lf_m": "5", "lf_R": "0", "lf_loo": "0", "n": "40"}


def test_losses_code_reproduces_chosen_losses_and_rangacv(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(LOSSES, SMALL_LOSSES | {"data": "banana", "seed": "2", "lf_losses": "hinge,deviance,smooth_step",
                                           "lf_a": "2.0", "lf_s": "3.0", "lf_tlo": "-2.0", "lf_R": "2", "lf_sz": "0.2",
                                           "lf_pert": "bernoulli", "lf_zseed": "5", "lf_loo": "1", "lf_sig": "0.2"})
    text = check_reproduces(at, dl, tmp_path, "losses")
    assert "ran_gacv_replicates=2" in text and 'perturbation="bernoulli"' in text and "loo=True" in text
    assert "fig_loo_curves" in text


def test_losses_code_reproduces_an_uploaded_file(tmp_path, monkeypatch):
    content = two_class_csv(44, seed=5)
    at = open_page(LOSSES, SMALL_LOSSES | {"lf_dev2": "1"},
                   shared={"data": "Upload CSV…", "upload": ("points.csv", content)})
    text = check_reproduces_here(at, tmp_path, monkeypatch, {"points.csv": content})
    assert 'dataset_from_csv("points.csv", label_column="label", standardize=True)' in text


def test_losses_code_reproduces_edited_points(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(LOSSES, SMALL_LOSSES | {"data": "edited"}, shared={"data": "edited", "n": 40})
    _edit(at)
    assert not at.exception
    check_reproduces_here(at, tmp_path, monkeypatch, {"edited_points.csv": dl.files["edited_points.csv"]})


def test_every_losses_control_that_changes_a_chart_changes_the_code():
    at = open_page(LOSSES, SMALL_LOSSES | {"data": "banana"})
    done, undriven = walk_every_widget(at)
    assert {"loss_data", "loss_n", "loss_seed", "lf_losses", "lf_a", "lf_eps", "lf_s", "lf_tau", "lf_dev2", "lf_sig",
            "lf_lam", "lf_m", "lf_R", "lf_sz", "lf_pert", "lf_zseed", "lf_loo"} <= set(done), (done, undriven)


PATH = "3_Regularization_path.py"
SMALL_PATH = {"n": "40", "ploo": "0"}


def test_path_code_reproduces_a_twenty_feature_boundary_map_on_two_chosen_features(tmp_path, monkeypatch):
    at = open_page(PATH, SMALL_PATH | {"data": "twonorm", "map_x": "x3", "map_y": "x1"})
    assert "path_map" in page_charts(at)
    text = check_reproduces_here(at, tmp_path, monkeypatch)
    assert 'compute_map_plane(ds.X, kind="features", axes=(2, 0), feature_names=ds.feature_names)' in text


def test_path_code_reproduces_leave_one_out_a_moved_cursor_and_the_nu_axis(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(PATH, SMALL_PATH | {"data": "esl_mixture", "seed": "1", "ploo": "1", "pevals": "10",
                                       "psigma": "0.5", "pxaxis": "nu"})
    lam = at.slider(key="path_lam")
    lam.set_value(round(lam.max * 0.6, 3)).run()
    text = check_reproduces(at, dl, tmp_path, "path")
    assert "sigma=0.5" in text and 'x_axis = "nu"' in text and "loo_path(" in text and "fresh_sample(" in text


def test_path_code_reproduces_an_uploaded_file_with_a_linear_kernel(tmp_path, monkeypatch):
    content = two_class_csv(40, seed=7)
    at = open_page(PATH, SMALL_PATH | {"pkernel": "linear"},
                   shared={"data": "Upload CSV…", "upload": ("two clouds.csv", content)})
    text = check_reproduces_here(at, tmp_path, monkeypatch, {"two clouds.csv": content})
    assert 'kernel="linear"' in text


def test_path_code_reproduces_edited_points(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(PATH, SMALL_PATH | {"data": "edited", "ploo": "1", "pevals": "10"},
                   shared={"data": "edited", "n": 40})
    _edit(at)
    assert not at.exception
    check_reproduces_here(at, tmp_path, monkeypatch, {"edited_points.csv": dl.files["edited_points.csv"]})


def test_every_path_control_that_changes_a_chart_changes_the_code():
    at = open_page(PATH, SMALL_PATH | {"data": "banana", "ploo": "1", "pevals": "10"})
    done, undriven = walk_every_widget(at)
    assert {"path_data", "path_n", "path_seed", "path_kernel", "path_sigma", "path_xaxis", "path_loo",
            "path_evals", "path_lam"} <= set(done), (done, undriven)


USVC = "4_Unbiased_SVC.py"
SMALL_USVC = {"u_n": "100", "n": "40"}


def test_usvc_code_reproduces_scenario_b_the_table1_study_and_the_kernel_machines(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(USVC, SMALL_USVC | {"data": "esl_mixture", "seed": "2", "u_src": "B", "u_s": "4.0", "u_d": "0.3",
                                       "u_k": "0.001", "u_C": "3.0", "u_t1": "1", "u_t1_trials": "2",
                                       "u_t1_ntr": "50", "u_t1_nte": "50", "u_t1_scen": "B", "u_R": "5",
                                       "u_proto": "fscl", "u_sigma": "0.75", "u_s2": "3.0"})
    steps = at.slider(key="usvc_steps")
    steps.set_value(max(1, steps.value - 2)).run()
    text = check_reproduces(at, dl, tmp_path, "usvc")
    for part in ('"usvc_B"', "table1_study(", 'prototypes="fscl"', "n_prototypes=5", "fresh_sample("):
        assert part in text, part


def test_usvc_code_reproduces_an_uploaded_file(tmp_path, monkeypatch):
    content = two_class_csv(40, seed=3)
    at = open_page(USVC, SMALL_USVC, shared={"data": "Upload CSV…", "upload": ("u.csv", content)})
    text = check_reproduces_here(at, tmp_path, monkeypatch, {"u.csv": content})
    assert 'dataset_from_csv("u.csv"' in text and "fresh_sample(" not in text


def test_usvc_code_reproduces_twenty_features_along_the_first_component_and_on_two_chosen_features(
        tmp_path, monkeypatch):
    at = open_page(USVC, SMALL_USVC | {"data": "twonorm", "u_src": "sidebar", "map_x": "x2", "map_y": "x7"})
    assert at.selectbox(key="usvc_along").value == "components"
    assert {"usvc_surf_svc", "usvc_kernel"} <= set(page_charts(at))
    text = check_reproduces_here(at, tmp_path, monkeypatch)
    assert 'compute_line(ds.X, ds.y, "components", feature_names=ds.feature_names)' in text
    assert 'compute_map_plane(ds.X, kind="features", axes=(1, 6), feature_names=ds.feature_names)' in text


def test_every_usvc_control_that_changes_a_chart_changes_the_code():
    at = open_page(USVC, SMALL_USVC | {"data": "banana", "u_t1": "1", "u_t1_trials": "2", "u_t1_ntr": "50",
                                       "u_t1_nte": "50"})
    done, undriven = walk_every_widget(at)
    assert {"usvc_data", "usvc_n", "usvc_seed", "usvc_scenario", "usvc_n1", "usvc_seed1", "usvc_C1", "usvc_s",
            "usvc_k", "usvc_damp", "usvc_steps", "usvc_t1_scen", "usvc_t1_trials", "usvc_t1_ntr", "usvc_t1_nte",
            "usvc_t1_seed", "usvc_sigma", "usvc_C2", "usvc_R", "usvc_proto", "usvc_s2"} <= set(done), \
        (done, undriven)


IVM = "5_Import_vector_machine.py"
SMALL_IVM = {"i_nlams": "11", "i_ntune": "50", "n": "40"}


def test_ivm_code_reproduces_twenty_feature_maps_on_principal_components(tmp_path, monkeypatch):
    at = open_page(IVM, SMALL_IVM | {"data": "twonorm", "map": "components"})
    assert {"ivm_map_ivm", "ivm_map_svm"} <= set(page_charts(at))
    text = check_reproduces_here(at, tmp_path, monkeypatch)
    assert 'compute_map_plane(ds.X, kind="components", feature_names=ds.feature_names)' in text


def test_ivm_code_reproduces_a_scratch_fit_a_moved_lambda_and_the_three_class_map(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(IVM, SMALL_IVM | {"data": "esl_mixture", "seed": "1", "i_source": "scratch", "i_eps": "0.003",
                                     "i_mc_lnlam": "-2.0", "i_r": "2"})
    lam = at.select_slider(key="ivm_lam")
    lam.set_value(float(lam.options[2])).run()
    text = check_reproduces(at, dl, tmp_path, "ivm")
    assert "IVMClassifier(lam=float(path.lams[2])" in text and "model_mc" not in text
    # every tab's figures in the script, whichever tab is open; the open tab's shown first
    for tab, first in (("λ path", "fig_ivm_path_err"), ("Multi-class", "fig_ivm_classmap")):
        at = open_page(IVM, SMALL_IVM | {"data": "esl_mixture", "seed": "1", "i_mc_lnlam": "-2.0", "i_tab": tab})
        text = check_reproduces_here(at, tmp_path, monkeypatch)
        assert "np.exp(-2.0)" in text and "fig_ivm_map_svm = plot_svm_map(" in text
        assert text.split('if __name__ == "__main__":')[1].split()[0] == f"{first}.show()"


def test_ivm_code_reproduces_an_uploaded_file_and_a_multiclass_one(tmp_path, monkeypatch):
    from ..apptest_utils import three_class_csv

    for name, content, tab in (("two.csv", two_class_csv(60, seed=4), "λ path"),
                               ("three.csv", three_class_csv(60, seed=1), "Multi-class")):
        at = open_page(IVM, SMALL_IVM | {"i_tab": tab}, shared={"data": "Upload CSV…", "upload": (name, content)})
        text = check_reproduces_here(at, tmp_path, monkeypatch, {name: content})
        assert "sp = make_splits(ds, " in text


def test_every_ivm_control_that_changes_a_chart_changes_the_code():
    at = open_page(IVM, SMALL_IVM | {"data": "banana"})
    done, undriven = walk_every_widget(at)
    assert {"ivm_data", "ivm_n", "ivm_seed", "ivm_sigma", "ivm_method", "ivm_eps", "ivm_r", "ivm_cap", "ivm_ntune",
            "ivm_nlams", "ivm_lam", "ivm_source", "ivm_mc_lnlam"} <= set(done), (done, undriven)


STUDIES = "7_Criteria_studies.py"


def test_studies_command_spec_and_script_reproduce_the_page(tmp_path, monkeypatch):
    """The page's spec file, run with the page's command (by the ``svmviz`` command's entry point, the
    tasks in this process), writes the folder the script loads; the script draws the page's charts
    from it."""
    import os
    import shlex

    from svmviz.cli import main
    from svmviz.studies import load_spec, spec_to_toml
    from svmviz.ui.studies import DEFAULT_SPEC, small_spec
    from svmviz.views.studies import study_command

    spec = small_spec(load_spec(DEFAULT_SPEC), 2, 4).replace(name="tiny_study")
    served = tmp_path / "served"
    (served / "results").mkdir(parents=True)
    (served / "tiny_study.toml").write_text(spec_to_toml(spec))
    command = shlex.split(study_command("tiny_study"))
    assert command[0] == "svmviz"
    monkeypatch.chdir(served)
    assert main(command[1:] + ["--workers", "0"]) == 0
    monkeypatch.setenv("SVMVIZ_RESULTS_ROOT", str(served / "results"))
    dl = Downloads(monkeypatch)
    at = open_page(STUDIES, {"s_source": "Open a results folder", "s_dir": "tiny_study"})
    assert at.get("plotly_chart"), "the page draws the study"
    assert dl.files["tiny_study.toml"].decode() == spec_to_toml(spec)
    commands = [c.value for c in at.code if c.language == "bash"]
    assert commands == [shlex.join(command)] == ["svmviz study run tiny_study.toml --out results/tiny_study"]
    # the spec file and the folder agree
    assert load_spec(str(served / "tiny_study.toml")) == spec
    work = tmp_path / "script"
    work.mkdir()
    os.symlink(served / "results", work / "results")
    check_reproduces(at, dl, work, "studies")


ANOVA = "6_Kernels_and_variable_selection.py"
SMALL_ANOVA = {"n": "40", "a_nlam": "6", "a_loo": "0"}


def test_anova_code_reproduces_a_klr_decomposition_by_hand_and_the_theta_grid(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(ANOVA, SMALL_ANOVA | {"data": "anova_structure", "a_d": "3", "a_inter": "4.0", "seed": "2",
                                         "a_machine": "klr", "a_lamsrc": "hand", "a_lamhand": "2",
                                         "a_measure": "rms", "a_loo": "1"})
    at.checkbox(key="anova_thgo").check().run()
    text = check_reproduces(at, dl, tmp_path, "anova")
    from svmviz.codegen import literal

    lam = float(np.logspace(-6, -1, 6)[2])  # the λ chosen by hand: the third of the page's grid
    for part in (f"KernelLogisticRegression(lam={literal(2.0 * 40 * lam)}", 'measure="rms"',
                 "truth = true_main_effects(3, 4.0)", "theta_lambda_grid(", "kc_loo = add_exact_loo(",
                 "fig_anova_interactions"):
        assert part in text, part


def test_anova_code_reproduces_an_uploaded_file_with_gaussian_coordinates(tmp_path, monkeypatch):
    content = two_class_csv(50, seed=6)
    at = open_page(ANOVA, SMALL_ANOVA | {"a_base": "gaussian", "a_sigma1": "0.5", "a_kernels": "gaussian,additive"},
                   shared={"data": "Upload CSV…", "upload": ("a.csv", content)})
    text = check_reproduces_here(at, tmp_path, monkeypatch, {"a.csv": content})
    assert 'base="gaussian", sigma=0.5' in text


def test_every_anova_control_that_changes_a_chart_changes_the_code():
    at = open_page(ANOVA, SMALL_ANOVA | {"data": "anova_structure", "a_d": "3"})
    at.checkbox(key="anova_thgo").check().run()
    done, undriven = walk_every_widget(at, skip=("anova_thgo",))
    assert {"anova_data", "anova_n", "anova_seed", "anova_d", "anova_inter", "anova_kernels", "anova_base",
            "anova_lamrange", "anova_nlam", "anova_loo", "anova_which", "anova_machine", "anova_lamsrc",
            "anova_measure", "anova_thvar", "anova_thcrit"} <= set(done), (done, undriven)
    # the interaction choices belong to the two-way kernel: walked while it stays the decomposed one
    at = open_page(ANOVA, SMALL_ANOVA | {"data": "anova_structure", "a_d": "3"})
    done, undriven = walk_every_widget(at, skip=("anova_which", "anova_kernels", "anova_data"))
    assert {"anova_pair0", "anova_pair1"} <= set(done), (done, undriven)
