"""The data editor: its numbers, its state (add, remove, Undo, Reset), and the pages using it.

The editor's boundary is checked against scikit-learn's SVC (C = 1/(2nλ), γ = 1/(2σ²)) and against
svmviz's SVMClassifier on the figure's own mesh; edits go through the same selection handler the
browser's clicks reach (Streamlit's documented ``event["selection"]`` shape). Clicks in a real
browser: tests/browser/test_edit.py.
"""
from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
import streamlit as st
from sklearn.svm import SVC
from streamlit.testing.v1 import AppTest

from svmviz import data as _data
from svmviz.figures import edit as fig_edit
from svmviz.svm import SVMClassifier
from svmviz.ui import edit

from tests.apptest_utils import assert_clean, decode, figures, page_path

TUNING = page_path("1_Tuning_criteria.py")
PATH = page_path("3_Regularization_path.py")
LOSS = page_path("2_Loss_functions.py")
# SMO stops at KKT violations below tol = 1e-3 (libsvm's eps too): two such solutions' decision
# values differ by a few 1e-3 (the SVMClassifier docstring's comparison uses the same 1e-2)
SOLVER_ATOL = 1e-2


@pytest.fixture(autouse=True)
def _clear_caches():
    st.cache_data.clear()
    st.cache_resource.clear()


def click(x1, x2):
    """The selection event of a click on the click target at (x1, x2)."""
    return {"points": [{"curve_number": 0, "point_number": 0, "point_index": 0, "x": x1, "y": x2,
                        "customdata": [x1, x2]}], "point_indices": [0], "box": [], "lasso": []}


def click_point(row):
    """The selection event of a click on the data point of row ``row`` (customdata = its row)."""
    return {"points": [{"curve_number": 4, "point_number": 0, "point_index": 0, "x": 0.0, "y": 0.0,
                        "customdata": row}], "point_indices": [0], "box": [], "lasso": []}


def make_state(n=40, seed=0, name="banana"):
    ds = _data.make_dataset(name, n=n, seed=seed)
    return edit.EditState((name, n, seed), ds), ds


# ------------------------------------------------------------------ numbers
def test_boundary_is_the_svm_decision_function_on_the_mesh():
    ds = _data.make_dataset("banana", n=80, seed=2)
    lo, hi = fig_edit.view_box(ds.X)
    lam, sigma = 10.0 ** -2.0, 0.7
    v = fig_edit.compute_edit_view(ds.X, ds.y, lam=lam, sigma=sigma, lo=lo, hi=hi, mesh=40)
    mesh = np.c_[np.tile(v.xs, 40), np.repeat(v.ys, 40)]
    ref = SVC(C=1.0 / (2 * 80 * lam), gamma=1.0 / (2 * sigma**2), tol=1e-6).fit(ds.X, ds.y)
    np.testing.assert_allclose(v.f, ref.decision_function(mesh).reshape(40, 40), atol=SOLVER_ATOL)
    support = np.zeros(80, bool)
    support[ref.support_] = True
    assert np.sum(v.support != support) <= 2  # points on the margin, decided at the solvers' tolerance
    assert v.train_error == pytest.approx(np.mean(ref.predict(ds.X) != ds.y), abs=1 / 80)
    # the view box holds every point with room around it; the click targets cover it
    assert np.all(lo < ds.X.min(axis=0)) and np.all(hi > ds.X.max(axis=0))
    # targets on the grid, none within one cell of a point (a click there must select the point)
    k = fig_edit.TARGETS_PER_AXIS
    full = fig_edit.target_grid(lo, hi)
    assert full.shape == (k * k, 2)
    np.testing.assert_allclose(full.min(axis=0), lo)
    np.testing.assert_allclose(full.max(axis=0), hi)
    cell = (hi - lo) / (k - 1)
    near = np.max(np.abs(full[:, None, :] - ds.X[None, :, :]) / cell, axis=2).min(axis=1) < 1
    assert near.sum() > 0
    np.testing.assert_allclose(v.targets, full[~near])


def test_too_few_points_give_no_fit():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    v = fig_edit.compute_edit_view(X, np.array([-1.0, 1.0, 1.0]), lam=0.01, sigma=1.0, lo=[-1, -1], hi=[3, 2])
    assert not v.fitted and not v.support.any() and np.isnan(v.train_error)
    fig = fig_edit.plot_edit_view(v)
    assert not any(t.name == "boundary f = 0" for t in fig.data)
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        fig_edit.compute_edit_view(np.zeros((4, 3)), np.ones(4), lam=0.01, sigma=1.0, lo=[0, 0], hi=[1, 1])


def test_figure_carries_what_the_click_handler_reads():
    st_, ds = make_state(30)
    v = st_.view(0.01, 1.0)
    fig = fig_edit.plot_edit_view(v, mode="neg")
    targets = fig.data[0]
    assert targets.name == "click targets"
    np.testing.assert_allclose(np.asarray(targets.customdata), v.targets)
    rows = np.concatenate([np.asarray(t.customdata) for t in fig.data if str(t.name).startswith("class")])
    assert sorted(rows.tolist()) == list(range(30))
    for t in fig.data:  # each data point's customdata is its row
        if str(t.name).startswith("class"):
            np.testing.assert_allclose(np.c_[t.x, t.y], ds.X[np.asarray(t.customdata)])
    assert "class −1" in targets.hovertemplate
    assert fig_edit.class_names((-1.0, 1.0)) == ("class −1", "class +1")
    assert fig_edit.class_names(("benign", "malignant")) == ("class −1 (benign)", "class +1 (malignant)")
    assert fig_edit.class_names((0, 1)) == ("class −1 (0)", "class +1")
    assert fig.layout.clickmode == "event+select"


# ------------------------------------------------------------------ the state
def test_clicks_add_remove_undo_reset():
    st_, ds = make_state(40)
    n_pos = int(np.sum(ds.y > 0))
    st_.apply_selection(click(0.5, -0.25), "pos")
    assert st_.X.shape == (41, 2) and st_.y[-1] == 1.0
    np.testing.assert_allclose(st_.X[-1], [0.5, -0.25])
    # what the browser sends for a row of a 2-D customdata (a typed array, JSON-encoded as an object)
    st_.apply_selection({"points": [{"customdata": {"0": 1.0, "1": 2.0}}], "box": [], "lasso": []}, "neg")
    assert st_.y[-1] == -1.0 and st_.X.shape[0] == 42
    np.testing.assert_allclose(st_.X[-1], [1.0, 2.0])
    v0 = st_.version
    for junk in ({"a": 1}, "x", None, [np.nan, 0.0]):  # never an exception from a click
        st_.apply_selection({"points": [{"customdata": junk}], "box": [], "lasso": []}, "pos")
    assert st_.version == v0
    # a click on a data point removes it, whatever the mode
    st_.apply_selection(click_point(0), "pos")
    assert st_.X.shape[0] == 41
    np.testing.assert_allclose(st_.X[0], ds.X[1])
    # remove mode: a click on empty space does nothing
    v0 = st_.version
    assert "Remove mode" in st_.apply_selection(click(0.0, 0.0), "remove")
    assert st_.version == v0 and st_.X.shape[0] == 41
    # a box removes the data points in it, not the click targets it holds
    box = {"points": [click(0.1, 0.1)["points"][0], click_point(3)["points"][0], click_point(5)["points"][0]],
           "point_indices": [0, 0, 0], "box": [{"x": [0, 1], "y": [0, 1]}], "lasso": []}
    st_.apply_selection(box, "pos")
    assert st_.X.shape[0] == 39
    # Undo steps back one edit at a time
    assert st_.undo() and st_.X.shape[0] == 41
    assert st_.undo() and st_.X.shape[0] == 42
    np.testing.assert_allclose(st_.X[0], ds.X[0])
    # Reset returns to the generated data; Undo brings the edits back
    st_.reset()
    np.testing.assert_array_equal(st_.X, ds.X)
    np.testing.assert_array_equal(st_.y, ds.y)
    assert int(np.sum(st_.y > 0)) == n_pos
    assert st_.undo() and st_.X.shape[0] == 42
    # the page's cap on n
    st_.apply_selection(click(0.0, 0.0), "pos", max_n=42)
    assert st_.X.shape[0] == 42 and "at most 42" in st_.message
    # the data set handed to the page
    d = st_.dataset()
    assert d.name == "edited" and d.X.shape == (42, 2) and set(np.unique(d.y)) == {-1.0, 1.0}
    assert d.feature_names == ds.feature_names and d.classes == ds.classes and d.p_true is None
    assert st_.dataset() is d  # one object per version (the pages' caches key on it)


def test_missing_counts_and_csv_round_trip():
    st_, ds = make_state(20)
    st_.add(0.25, -0.5, -1.0)
    cols = edit.points_table(st_)
    back = _data.dataset_from_csv(io.BytesIO(pd.DataFrame(cols).to_csv(index=False).encode()), label_column="label",
                                  standardize=False)
    np.testing.assert_allclose(back.X, st_.X)
    np.testing.assert_array_equal(back.y, st_.y)
    assert st_.missing() == {}
    neg = np.flatnonzero(st_.y < 0)
    st_.remove(neg[:-1])
    assert st_.missing() == {"−1": 1}
    st_.remove(np.flatnonzero(st_.y > 0))
    assert st_.missing() == {"+1": 2, "−1": 1}


# ------------------------------------------------------------------ the pages
def editor_figure(at) -> dict:
    hits = [f for f in figures(at) if f["layout"]["title"]["text"].startswith("Click to edit")]
    assert len(hits) == 1
    return hits[0]


def boundary_of(fig):
    t = next(t for t in fig["data"] if t.get("name") == "boundary f = 0")
    return decode(t["x"]), decode(t["y"]), decode(t["z"])


def selected_caption(at) -> str:
    return next(c.value for c in at.caption if c.value.startswith("Selected point:"))


def tuning_point(at) -> tuple[float, float]:
    """(λ, σ) of the Tuning page's chosen grid point: the grid of its sidebar, the point of its selectors."""
    lo, hi = at.sidebar.slider(key="tuning_lam").value
    slo, shi = at.sidebar.slider(key="tuning_sig").value
    res = at.sidebar.slider(key="tuning_res").value
    lams, sigs = np.logspace(lo, hi, res), np.logspace(slo, shi, res)
    j = int(np.argmin(np.abs(np.log10(lams) - at.select_slider(key="tuning_pt_l").value)))
    i = int(np.argmin(np.abs(np.log10(sigs) - at.select_slider(key="tuning_pt_s").value)))
    return float(lams[j]), float(sigs[i])


def open_tuning(**query) -> AppTest:
    at = AppTest.from_file(TUNING, default_timeout=180)
    for k, v in {"data": "edited", "ebase": "banana", "n": "40", "seed": "1", "res": "6", **query}.items():
        at.query_params[k] = v
    return at.run()


def test_tuning_page_edits_update_the_editor_and_the_page():
    at = open_tuning()
    assert_clean(at)
    # a link naming data=edited on a fresh session: the generated data, and why
    assert any("kept in one browser session only" in i.value for i in at.info)
    st_ = at.session_state[edit.STATE]
    assert st_.base == ("banana", 40, 1)
    assert selected_caption(at).endswith("of 40 points.")
    x0, y0, z0 = boundary_of(editor_figure(at))
    # the boundary drawn is SVMClassifier's decision function at the page's grid point on the same mesh
    lam, sigma = tuning_point(at)
    clf = SVMClassifier(lam=lam, sigma=sigma).fit(st_.X, st_.y)
    mesh = np.c_[np.tile(x0, y0.size), np.repeat(y0, x0.size)]
    np.testing.assert_allclose(z0, clf.decision_function(mesh).reshape(y0.size, x0.size), rtol=1e-10, atol=1e-10)

    st_.apply_selection(click(0.0, 0.0), "pos")  # what a click on the chart calls
    at.run()
    assert_clean(at)
    assert not any("kept in one browser session only" in i.value for i in at.info)  # for the link's first run only
    assert selected_caption(at).endswith("of 41 points.")
    assert any(c.value.startswith("Added a +1 point at (0.00, 0.00).") for c in at.caption)
    _, _, z1 = boundary_of(editor_figure(at))
    assert not np.allclose(z0, z1)
    n_sv_fig = sum(len(decode(t["x"])) for t in editor_figure(at)["data"]
                   if str(t.get("name", "")).startswith("support vectors"))
    lam, sigma = tuning_point(at)  # new data: the page's grid point starts again from GACV's choice
    clf = SVMClassifier(lam=lam, sigma=sigma).fit(st_.X, st_.y)
    assert n_sv_fig == clf.support_.size

    at.button(key="tuning_edit_undo").click().run()
    assert_clean(at)
    assert selected_caption(at).endswith("of 40 points.")
    np.testing.assert_allclose(boundary_of(editor_figure(at))[2], z0)

    st_.apply_selection(click_point(0), "pos")
    at.run()
    assert selected_caption(at).endswith("of 39 points.")
    at.button(key="tuning_edit_reset").click().run()
    assert_clean(at)
    assert selected_caption(at).endswith("of 40 points.")
    np.testing.assert_array_equal(at.session_state[edit.STATE].X, _data.make_dataset("banana", n=40, seed=1).X)
    labels = [d.label for d in at.get("download_button")]
    assert "Download the points (CSV)" in labels
    # the editor's camera button exports at slide resolution like every chart (svmviz.ui.charts)
    cfg = json.loads(next(el.proto.config for el in at.get("plotly_chart")
                          if json.loads(el.proto.spec)["layout"]["title"]["text"].startswith("Click to edit")))
    opts = cfg["toImageButtonOptions"]
    assert opts["width"] * opts["scale"] >= 1600


def test_too_few_points_say_what_to_add():
    at = open_tuning()
    st_ = at.session_state[edit.STATE]
    pos = np.flatnonzero(st_.y > 0)
    st_.remove(pos[1:])  # one +1 point left
    at.run()
    assert_clean(at)
    msg = [i.value for i in at.info if i.value.startswith("Each class needs at least 2 points")]
    assert msg and "add 1 more of class +1" in msg[0]
    assert len(figures(at)) == 1  # the editor only: nothing is fitted on the page
    assert not at.error
    st_.apply_selection(click(0.0, 0.0), "pos")
    at.run()
    assert_clean(at)
    assert not any(i.value.startswith("Each class needs") for i in at.info)
    assert selected_caption(at).endswith(f"of {st_.X.shape[0]} points.")


def test_generated_data_become_the_editors_start_and_the_link_message_is_for_links_only():
    at = AppTest.from_file(TUNING, default_timeout=180)
    at.query_params.update({"data": "esl_mixture", "n": "40", "seed": "2", "res": "6"})
    at.run()
    assert_clean(at)
    at.sidebar.selectbox(key="tuning_data").select("edited").run()
    assert_clean(at)
    assert not any("kept in one browser session only" in i.value for i in at.info)
    assert at.session_state[edit.STATE].base == ("esl_mixture", 40, 2)
    assert at.query_params["data"] == "edited" and at.query_params["ebase"] == "esl_mixture"
    # another start: the edits made on the first stay one Undo away
    st_ = at.session_state[edit.STATE]
    st_.apply_selection(click(0.0, 0.0), "pos")
    at.run()
    edited = st_.X.copy()
    at.sidebar.selectbox(key="tuning_data").select("banana").run()
    at.sidebar.selectbox(key="tuning_data").select("edited").run()
    assert_clean(at)
    st2 = at.session_state[edit.STATE]
    assert st2.base == ("banana", 40, 2)
    np.testing.assert_array_equal(st2.X, _data.make_dataset("banana", n=40, seed=2).X)
    assert any(c.value.startswith("Started afresh from banana (n = 40, seed 2). Undo brings back") for c in at.caption)
    at.button(key="tuning_edit_undo").click().run()
    assert_clean(at)
    np.testing.assert_array_equal(at.session_state[edit.STATE].X, edited)
    assert np.all(st2.lo <= edited.min(axis=0)) and np.all(st2.hi >= edited.max(axis=0))


@pytest.mark.parametrize("page", [PATH, LOSS])
def test_path_and_loss_pages_offer_the_editor(page):
    at = AppTest.from_file(page, default_timeout=180)
    # leave-one-out along the path off: the path itself is what the edited data feed here
    at.query_params.update({"data": "edited", "ebase": "banana", "n": "30", "seed": "0", "ploo": "0"})
    at.run()
    assert_clean(at)
    assert not at.error
    editor_figure(at)
    at.session_state[edit.STATE].apply_selection(click(0.0, 0.5), "neg")
    at.run()
    assert_clean(at)
    assert not at.error
    assert at.session_state[edit.STATE].X.shape[0] == 31


# ------------------------------------------------------------------ the editor draws the page's machine
def editor_f(at) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The editor chart's mesh and its decision values f (the boundary trace carries the whole mesh)."""
    return boundary_of(editor_figure(at))


def on_mesh(x, y) -> np.ndarray:
    return np.c_[np.tile(x, y.size), np.repeat(y, x.size)]


@pytest.mark.parametrize("mode", ["standard", "non-standard"])
def test_tuning_editor_draws_the_svm_at_the_pages_grid_point(mode):
    at = open_tuning(mode=mode, pt_l="-2.3", pt_s="0.2")
    assert_clean(at)
    st_ = at.session_state[edit.STATE]
    lam, sigma = tuning_point(at)
    assert (round(np.log10(lam), 4), round(np.log10(sigma), 4)) == (-2.3, 0.2)
    w = None
    if mode == "non-standard":  # L(−1) = C⁺π⁻/πₛ⁻, L(+1) = C⁻π⁺/πₛ⁺ (Wahba et al. 2001, §5), the page's defaults
        ps = float(np.mean(st_.y > 0))
        L = (1.0 * 0.9 / (1.0 - ps), 2.0 * 0.1 / ps)
        shown = {m.label: m.value for m in at.metric}
        assert (shown["L(−1)"], shown["L(+1)"]) == (f"{L[0]:.3g}", f"{L[1]:.3g}")
        w = np.where(st_.y > 0, L[1], L[0])
    x, y, f = editor_f(at)
    ref = SVMClassifier(lam=lam, sigma=sigma).fit(st_.X, st_.y, sample_weight=w).decision_function(on_mesh(x, y))
    np.testing.assert_allclose(f, ref.reshape(y.size, x.size), rtol=1e-10, atol=1e-10)
    if mode == "non-standard":  # the weights matter: the standard SVM draws another boundary
        std = SVMClassifier(lam=lam, sigma=sigma).fit(st_.X, st_.y).decision_function(on_mesh(x, y))
        assert np.max(np.abs(std - ref)) > 0.05
    # another grid point on the page: the editor follows
    at.select_slider(key="tuning_pt_s").set_value(-1.0).run()
    lam2, sigma2 = tuning_point(at)
    assert sigma2 != sigma
    x, y, f = editor_f(at)
    ref = SVMClassifier(lam=lam2, sigma=sigma2).fit(st_.X, st_.y, sample_weight=w).decision_function(on_mesh(x, y))
    np.testing.assert_allclose(f, ref.reshape(y.size, x.size), rtol=1e-10, atol=1e-10)


def test_path_editor_draws_the_nu_svm_at_the_pages_cursor():
    from svmviz.path import nu_path

    at = AppTest.from_file(PATH, default_timeout=180)
    at.query_params.update({"data": "edited", "ebase": "banana", "n": "40", "seed": "1", "ploo": "0", "psigma": "1.0"})
    at.run()
    assert_clean(at)
    st_ = at.session_state[edit.STATE]

    def check():
        sigma = float(at.sidebar.select_slider(key="path_sigma").value)
        lam = float(at.slider(key="path_lam").value)
        x, y, f = editor_f(at)
        ref = nu_path(st_.X, st_.y, sigma=sigma).decision_function(on_mesh(x, y), lam)
        np.testing.assert_allclose(f, ref.reshape(y.size, x.size), rtol=1e-10, atol=1e-10)
        return sigma, lam

    assert check()[0] == 1.0  # the page's σ, not a width of the editor's own
    at.slider(key="path_lam").set_value(0.5 * at.slider(key="path_lam").value).run()  # the page's cursor moves
    check()
    at.sidebar.select_slider(key="path_sigma").set_value(2.0).run()
    assert check()[0] == 2.0


def test_loss_editor_draws_the_svm_at_the_pages_sigma_and_one_of_its_lambdas():
    at = AppTest.from_file(LOSS, default_timeout=180)
    at.query_params.update({"data": "edited", "ebase": "banana", "n": "40", "seed": "1", "lf_sig": "0.3",
                            "lf_llo": "-4.0", "lf_lhi": "-1.0", "lf_m": "7"})
    at.run()
    assert_clean(at)
    st_ = at.session_state[edit.STATE]
    pick = at.select_slider(key="loss_edit_lam")
    np.testing.assert_allclose(pick.options and [float(v) for v in pick.options], np.linspace(-4.0, -1.0, 7))
    x, y, f = editor_f(at)
    ref = SVMClassifier(lam=10.0 ** float(pick.value), sigma=10.0 ** 0.3).fit(st_.X, st_.y)
    np.testing.assert_allclose(f, ref.decision_function(on_mesh(x, y)).reshape(y.size, x.size), rtol=1e-10,
                               atol=1e-10)


def test_a_page_stopped_by_its_cost_question_still_shows_the_edited_points(monkeypatch):
    """The path page asks before computing (every cost above the threshold: here any) and stops there,
    before naming its machine: the editor still draws every edited point, editable, and its title says
    why no boundary is drawn."""
    from svmviz.ui import compute

    monkeypatch.setattr(compute, "ASK_ABOVE_SECONDS", 0.0)
    at = AppTest.from_file(PATH, default_timeout=180)
    at.query_params.update({"data": "edited", "ebase": "banana", "n": "40", "seed": "1", "ploo": "0"})
    at.run()
    assert_clean(at)
    assert any(b.label.startswith("Run") for b in at.button), [b.label for b in at.button]  # the question
    fig = editor_figure(at)
    assert fig["layout"]["title"]["text"] == edit.STOPPED_TITLE
    assert not any(t.get("name") == "boundary f = 0" for t in fig["data"])
    st_ = at.session_state[edit.STATE]
    rows = np.concatenate([decode(t["customdata"], int) for t in fig["data"] if t.get("name") in st_.base_ds.classes
                           or t.get("customdata") is not None and t.get("name") != "click targets"])
    np.testing.assert_array_equal(np.sort(rows), np.arange(st_.X.shape[0]))
    # still editable: a click adds a point, and the page asks again with the editor drawn
    st_.apply_selection(click(0.0, 0.5), "neg")
    at.run()
    assert_clean(at)
    assert at.session_state[edit.STATE].X.shape[0] == 41
    assert editor_figure(at)["layout"]["title"]["text"] == edit.STOPPED_TITLE
