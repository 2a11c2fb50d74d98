"""AppTest of the "Import vector machine" page: renders, reacts to its widgets, offers the CSV; on data
with more than two features its default tab draws the import-point and SVM maps on the chosen plane;
the open tab is in the shared link like every other control."""
from __future__ import annotations


import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest_utils import (assert_clean, assert_link_restores, decode, figure_titled, figure_titles, page_path,
                                 url_of)
from tests.apptest_utils import figure_titled as _fig, figures_by_title as _figs, trace_named as _trace

from .codeview_utils import open_page
from .test_tuning_page_maps import COLUMNS, six_feature_csv

PAGE_FILE = "5_Import_vector_machine.py"
PAGE = page_path(PAGE_FILE)


def _arr(v):
    return decode(v, float)


def _run(**sidebar):
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception, at.exception
    return at


def _open(at, tab: str, key: str = "ivm_tab"):
    """Open the page's tab ``tab`` (lazy tabs: only the open one computes and draws) and rerun."""
    at.session_state[key] = tab
    return at.run()


def test_default_page_renders_maps_path_and_download():
    at = _run()
    assert not at.error
    titles = list(_figs(at))
    assert any(t.startswith("IVM:") for t in titles) and any(t.startswith("SVM:") for t in titles)
    metrics = {m.label: m.value for m in at.metric}
    n_imp, n_sv = int(metrics["Import points (IVM)"]), int(metrics["Support points (SVM)"])
    assert 0 < n_imp < n_sv  # (Zhu & Hastie 2002, §4): import points far fewer than support points
    imp = _trace(_fig(at, "IVM:"), "import points")
    assert _arr(imp["x"]).size == n_imp
    _open(at, "Multi-class")
    assert any(t.startswith("Multi-class IVM") for t in _figs(at))
    _open(at, "λ path")
    titles = list(_figs(at))
    assert any(t.startswith("Tuning misclassification") for t in titles)
    assert any(t.startswith("Number of import points") for t in titles)
    err = _trace(_fig(at, "Tuning misclassification"), "IVM tuning error")
    e = _arr(err["y"])
    assert e.size == 21 and np.all((e >= 0) & (e <= 1))
    assert at.get("download_button"), "the λ path CSV download is missing"


def test_lambda_and_sigma_widgets_change_the_charts():
    at = _run()
    before = _arr(_trace(_fig(at, "IVM:"), "p̂(x)")["z"]).copy()
    lam = at.select_slider(key="ivm_lam")
    lam.set_value(7.0).run()  # ln λ = 7: a very smooth fit
    assert not at.exception
    after = _arr(_trace(_fig(at, "IVM:"), "p̂(x)")["z"])
    assert after.shape == before.shape and not np.allclose(after, before)
    _open(at, "λ path")
    err0 = _arr(_trace(_fig(at, "Tuning misclassification"), "IVM tuning error")["y"]).copy()
    sig = [s for s in at.select_slider if s.label.startswith("σ")][0]
    sig.set_value(2.0).run()
    assert not at.exception
    err1 = _arr(_trace(_fig(at, "Tuning misclassification"), "IVM tuning error")["y"])
    assert not np.allclose(err0, err1)


def test_scratch_fit_and_step_plot():
    at = _run()
    at.radio(key="ivm_source").set_value("scratch").run()
    assert not at.exception
    steps = _fig(at, "Hₖ along the greedy steps")
    H = _arr(_trace(steps, "Hₖ")["y"])
    k = _arr(_trace(steps, "Hₖ")["x"])
    assert k[0] == 0 and np.all(np.diff(H) <= 1e-9 * np.abs(H[1:]))  # intercept-only start, H falls
    n_imp = int({m.label: m.value for m in at.metric}["Import points (IVM)"])
    assert n_imp == k[-1]


def test_multiclass_data_and_twenty_feature_data():
    at = _run()
    at.selectbox(key="ivm_data").select("esl_mixture3").run()
    assert not at.exception and not at.error
    assert any("two classes" in c.value for c in at.caption)
    fig = _fig(at, "Multi-class IVM: 3 classes")
    assert sum(t["type"] == "scatter" and t["name"].startswith("class ") for t in fig["data"]) == 3
    at.selectbox(key="ivm_data").select("twonorm").run()
    assert not at.exception and not at.error
    # 20 features: the default tab draws both maps on the plane of the first two features
    assert _fig(at, "IVM:")["layout"]["xaxis"]["title"]["text"].startswith("x1")
    assert _fig(at, "SVM:")
    assert any("other 18 features at their medians" in c.value for c in at.caption)
    assert _fig(_open(at, "λ path"), "Tuning misclassification")


def test_splits_for_data_without_a_generator():
    from svmviz import data
    from svmviz.views import ivm as ui

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    lab = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, "yes", "no")
    text = "a,b,label\n" + "\n".join(f"{x0},{x1},{l}" for (x0, x1), l in zip(X, lab))
    ds = data.dataset_from_csv(text, label_column="label")
    sp = ui.make_splits(ds, 500, 3)
    assert (sp.X.shape[0], sp.X_tune.shape[0], sp.X_test.shape[0]) == (20, 10, 10)
    rows = np.vstack([sp.X, sp.X_tune, sp.X_test])
    assert np.unique(rows, axis=0).shape[0] == 40  # a partition of the 40 rows
    assert "split" in sp.note
    tiny = data.dataset_from_csv("a,label\n" + "\n".join(f"{i},{i % 2}" for i in range(8)), label_column="label")
    with pytest.raises(ValueError, match="at least 12"):
        ui.make_splits(tiny, 100, 0)


# ---------------------------------------------------------------- paths a person takes
def _small(at):
    """A short λ grid and a small tuning set: each rerun well under a second."""
    at.select_slider(key="ivm_nlams").set_value(11)
    at.slider(key="ivm_ntune").set_value(100)
    return at.run()


def test_two_class_upload_draws_every_tab():
    """A clean ±1 two-feature upload crashed the page (TypeError on the CSV's seed None)."""
    from tests.apptest_utils import assert_clean, two_class_csv, with_upload

    at = with_upload(PAGE, two_class_csv(80), query={"i_nlams": "11"})
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    titles = list(_figs(at))
    assert any(t.startswith("IVM:") for t in titles) and any(t.startswith("SVM:") for t in titles)
    assert any("random split 40 train / 20 tuning / 20 test" in c.value for c in at.caption)
    _open(at, "λ path")
    assert_clean(at)
    assert any(t.startswith("Tuning misclassification") for t in _figs(at))


def test_three_class_upload_draws_the_class_map():
    """A 3-class upload gave a traceback; now the class map of the uploaded classes."""
    from tests.apptest_utils import assert_clean, three_class_csv, with_upload

    at = with_upload(PAGE, three_class_csv(90), query={"i_nlams": "11"})
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    fig = _fig(at, "Multi-class IVM: 3 classes")
    names = [t["name"] for t in fig["data"] if t.get("type") == "scatter"]
    assert {"setosa", "versicolor", "virginica"} <= set(names), names
    assert any("3 classes" in c.value and "two classes" in c.value for c in at.caption)  # why no SVM maps


def test_lambda_shown_follows_the_data():
    """"λ shown" kept its old value after the data set changed; it restarts at the new
    data's tuning choice (and σ at the new data's default)."""
    at = _small(_open(_run(), "λ path"))
    lam = at.select_slider(key="ivm_lam")
    lam.set_value(6.0).run()  # the user looks at ln λ = 6 on esl_mixture
    assert at.select_slider(key="ivm_lam").value == 6.0
    at.selectbox(key="ivm_data").select("banana").run()
    assert not at.exception
    chosen = _trace(_fig(at, "Tuning misclassification"), "chosen λ")
    best_ln = float(_arr(chosen["x"])[0])
    assert at.select_slider(key="ivm_lam").value == pytest.approx(best_ln, abs=0.01)
    from svmviz import data, ivm
    ds = data.make_dataset("banana", n=200, seed=0)
    h = ivm.sigma_heuristic(ds.X)
    from svmviz.ui.ivm import SIGMAS
    assert at.select_slider(key="ivm_sigma").value == min(SIGMAS, key=lambda v: abs(np.log(v / h)))


def test_ln_lambda_on_the_slider_and_the_axes():
    """The slider was in ln units beside a log10 axis; both are ln λ now."""
    at = _small(_open(_run(), "λ path"))
    lam = at.select_slider(key="ivm_lam")
    assert "ln λ" in lam.label
    for title in ("Tuning misclassification", "Number of import points"):
        assert _fig(at, title)["layout"]["xaxis"]["title"]["text"].startswith("ln λ")
    x = _arr(_trace(_fig(at, "Tuning misclassification"), "IVM tuning error")["x"])
    np.testing.assert_allclose(x, np.linspace(10, -10, 11))  # Zhu & Hastie's grid e^10 … e^−10


def test_shared_link_restores_every_control():
    """The IVM link carried only data, n and seed."""
    from tests.apptest_utils import assert_link_restores

    at = _small(_run())
    at.number_input(key="ivm_seed").set_value(3).run()
    at.select_slider(key="ivm_sigma").set_value(1.0)
    at.select_slider(key="ivm_eps").set_value(1e-2)
    at.number_input(key="ivm_r").set_value(2)
    at.number_input(key="ivm_cap").set_value(30)
    at.run()
    at.select_slider(key="ivm_lam").set_value(0.0)
    at.radio(key="ivm_source").set_value("scratch")
    at.slider(key="ivm_mc_lnlam").set_value(1.5)
    at.run()
    assert not at.exception
    url = assert_link_restores(PAGE, at, ["ivm_data", "ivm_n", "ivm_seed", "ivm_sigma", "ivm_method", "ivm_eps",
                                          "ivm_r", "ivm_cap", "ivm_ntune", "ivm_nlams", "ivm_lam", "ivm_source",
                                          "ivm_mc_lnlam"])
    assert url["i_sigma"] == "1.0" and url["i_source"] == "scratch" and url["seed"] == "3"


def test_sigma_default_follows_the_data_a_chosen_sigma_stays():
    """Σ's default comes from the data (the help says so) and follows a data change; a σ the
    user chose stays when only the sample changes."""
    from svmviz import data, ivm
    from svmviz.ui.ivm import SIGMAS

    at = _small(_run())
    assert at.select_slider(key="ivm_sigma").value == 0.71  # ESL mixture: 1/√2
    at.selectbox(key="ivm_data").select("twonorm").run()
    h = ivm.sigma_heuristic(data.make_dataset("twonorm", n=200, seed=0).X)
    assert at.select_slider(key="ivm_sigma").value == min(SIGMAS, key=lambda v: abs(np.log(v / h))) != 0.71
    at.select_slider(key="ivm_sigma").set_value(7.0).run()
    at.number_input(key="ivm_seed").set_value(5).run()
    assert not at.exception and at.select_slider(key="ivm_sigma").value == 7.0


# ------------------------------------------------------------------------------------------------------------
# The Import vector machine page on data with more than two features: its default tab draws the import-point and
# SVM maps on the chosen plane (never a blank tab), the axes kept in the link.
SMALL = {"i_nlams": "7", "n": "80", "i_ntune": "100"}


def test_six_features_default_tab_draws_both_maps_on_chosen_features_with_class_names():
    at = open_page(PAGE_FILE, SMALL | {"map_x": "rooms", "map_y": "ratio"},
                   shared={"data": "Upload CSV…", "upload": ("cars.csv", six_feature_csv(n=80))})
    for prefix in ("IVM:", "SVM:"):
        fig = figure_titled(at, prefix)
        names = {t.get("name") for t in fig["data"]}
        assert {"Japan", "USA"} <= names, names
        assert fig["layout"]["xaxis"]["title"]["text"] == "rooms (standardised)"
        assert fig["layout"]["yaxis"]["title"]["text"] == "ratio (standardised)"
        usa = next(t for t in fig["data"] if t.get("name") == "USA")
        assert all(f"{c} = %{{customdata[" in usa["hovertemplate"] for c in COLUMNS)
    assert any("other 4 features at their medians" in c.value for c in at.caption)
    assert not any("The maps need 2 features" in i.value for i in at.info)


def test_ivm_map_axes_round_trip_through_the_link():
    at = open_page(PAGE_FILE, SMALL | {"data": "twonorm", "map": "components"})
    assert figure_titled(at, "IVM:")["layout"]["xaxis"]["title"]["text"].startswith("1st principal component")
    assert url_of(at)["map"] == "components"
    assert_link_restores(PAGE, at, ["ivm_map_kind"])


def test_one_feature_says_there_is_no_plane_and_offers_no_lambda_of_the_maps():
    content = ("x,label\n" + "\n".join(f"{(i % 7) * 0.3 + (i % 2) * 1.1:.3f},{'a' if i % 2 else 'b'}"
                                        for i in range(60))).encode()
    at = open_page(PAGE_FILE, SMALL, shared={"data": "Upload CSV…", "upload": ("one.csv", content)})
    assert any("one feature: there is no plane to map" in i.value for i in at.info)
    assert not [w for w in at.select_slider if w.key == "ivm_lam"]


# ------------------------------------------------------------------------------------------------------------
# The Import vector machine page's lazy tabs in the shared link: the open tab changes the view (only it computes
# and draws), so it is in the link like every other control — a link to the λ path opens on the λ path, and
# opening a tab writes it to the URL.
def _open_link(**params) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["i_nlams"] = "11"
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    return at


def test_a_link_to_the_lambda_path_tab_opens_it():
    at = _open_link(i_tab="λ path")
    titles = figure_titles(at)
    assert titles and titles[0].startswith("Tuning misclassification"), titles
    assert at.query_params["i_tab"] == "λ path"


def test_opening_a_tab_puts_it_in_the_link_and_a_bad_one_falls_back():
    at = _open_link()
    assert at.query_params["i_tab"] == "Import points vs SVM"
    at.session_state["ivm_tab"] = "Multi-class"
    at.run()
    assert_clean(at)
    assert at.query_params["i_tab"] == "Multi-class"
    assert any(t.startswith("Multi-class IVM") for t in figure_titles(at))
    at = _open_link(i_tab="no such tab")
    assert at.query_params["i_tab"] == "Import points vs SVM"
    assert [t.split(":")[0] for t in figure_titles(at)[:2]] == ["IVM", "SVM"]


def test_multiclass_data_link_to_their_lambda_path():
    at = _open_link(data="esl_mixture3", i_tab="λ path")
    assert any(t.startswith("Tuning misclassification") for t in figure_titles(at)), figure_titles(at)
    assert at.query_params["i_tab"] == "λ path"
