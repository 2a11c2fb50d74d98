"""AppTest of the "Tuning criteria" page: defaults, every main widget, figure data, errors."""
from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest_utils import assert_clean, decode, figure_titles, figures, page_path

PAGE = page_path("1_Tuning_criteria.py")


def small(at: AppTest) -> AppTest:
    """Shrink n and the grid so each rerun takes well under a second."""
    at.sidebar.slider(key="tuning_n").set_value(80)
    at.sidebar.slider(key="tuning_res").set_value(8)
    return at.run()


def panel_traces(at, label):
    """The traces of the contour panel of criterion ``label`` (the criteria surfaces are the panels of
    one figure: figures.tuning.plot_contour_panels): those on the axes of its contour trace."""
    for f in figures(at):
        for t in f["data"]:
            if t.get("type") == "contour" and t.get("name") == label:
                axes = (t.get("xaxis", "x"), t.get("yaxis", "y"))
                return [u for u in f["data"] if (u.get("xaxis", "x"), u.get("yaxis", "y")) == axes]
    raise AssertionError(f"no panel of {label!r}; have {titles(at)}")


def titles(at):
    """Figure titles and the criteria panels' names."""
    return figure_titles(at) + [t["name"] for f in figures(at) for t in f["data"] if t.get("type") == "contour"]


def contour_z(at, title):
    return decode(next(t for t in panel_traces(at, title) if t["type"] == "contour")["z"])


def test_defaults_render_all_panels():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    assert_clean(at)
    names = titles(at)
    for t in ("GCKL", "GACV", "MISCLASS", "XA (ξα)", "Decision curves"):
        assert t in names
    assert not at.error
    assert at.metric[0].value == "1" and at.metric[2].value == "0.5"
    # the inefficiency table holds GACV and XA rows with values ≥ 1
    df = at.dataframe[0].value
    assert {"GACV", "XA (ξα)"} <= set(df["criterion"])
    assert (df["inefficiency"] >= 1).all()
    labels = [d.label for d in at.get("download_button")]
    assert "Download the surfaces (CSV)" in labels and "Download the table (CSV)" in labels


def test_widgets_change_the_figures():
    at = small(AppTest.from_file(PAGE, default_timeout=180).run())
    assert_clean(at)
    z0 = contour_z(at, "GACV")
    assert z0.shape == (8, 8)
    at.sidebar.slider(key="tuning_sig").set_value((-0.5, 0.5)).run()
    assert_clean(at)
    z1 = contour_z(at, "GACV")
    assert not np.allclose(z0, z1)
    at.sidebar.number_input(key="tuning_seed").set_value(3).run()
    assert_clean(at)
    assert not np.allclose(z1, contour_z(at, "GACV"))
    at.sidebar.slider(key="tuning_lam").set_value((-3.0, -1.0)).run()
    at.select_slider(key="tuning_pt_l").set_value(2).run()
    assert_clean(at)
    at.sidebar.checkbox(key="tuning_loo").check().run()
    assert_clean(at)
    assert "exact LOO" in titles(at)


def test_nonstandard_mode_shows_br_criteria_and_costs():
    at = small(AppTest.from_file(PAGE, default_timeout=180).run())
    at.sidebar.radio(key="tuning_mode").set_value("non-standard").run()
    assert_clean(at)
    assert [m.value for m in at.metric[:3]] == ["1.5", "0.5", "0.75"]
    names = titles(at)
    assert "BRMISCLASS" in names and "BRXA" in names
    at.sidebar.slider(key="tuning_pp").set_value(0.3).run()
    assert_clean(at)
    # L(−1) = C⁺π⁻/π_s⁻ = 0.7/0.6, L(+1) = C⁻π⁺/π_s⁺ = 0.6/0.4
    assert at.metric[0].value == f"{0.7 / 0.6:.3g}" and at.metric[1].value == f"{0.6 / 0.4:.3g}"


def test_other_data_sets_and_unknown_truth():
    at = small(AppTest.from_file(PAGE, default_timeout=180).run())
    at.sidebar.selectbox(key="tuning_data").select("banana").run()
    assert_clean(at)
    assert "XA (Joachims' R²)" in titles(at)  # no truth: GACV, XA and XA (Joachims' R²) panels
    assert any("need the true p(x)" in i.value for i in at.info)
    at.sidebar.selectbox(key="tuning_data").select("twonorm").run()
    assert_clean(at)
    # 20 features: the decision curves on the plane of the first two, the others at their medians
    curves = [f for f in figures(at) if str(f["layout"].get("title", {}).get("text", "")).startswith("Decision curves")]
    assert curves and curves[0]["layout"]["xaxis"]["title"]["text"].startswith("x1")
    assert any("other 18 features at their medians" in c.value for c in at.caption)


def test_upload_without_file_asks_for_one():
    at = AppTest.from_file(PAGE, default_timeout=180).run()
    at.sidebar.selectbox(key="tuning_data").select("Upload CSV…").run()
    assert_clean(at)
    assert any("Choose a CSV file" in i.value for i in at.sidebar.info)


def _with_upload(content: bytes) -> AppTest:
    """AppTest cannot drive st.file_uploader: put the uploaded bytes where the sidebar keeps them."""
    at = AppTest.from_file(PAGE, default_timeout=180)
    at.session_state["_svmviz_shared"] = {"data": "Upload CSV…", "upload": ("mine.csv", content)}
    return at.run()


def test_bad_csv_shows_an_error_not_an_exception():
    at = _with_upload(b"x1,x2,label\nabc,def,1\nghi,3.0,-1\njkl,1.0,1\n")  # no column of numbers
    assert_clean(at)
    assert any("mine.csv" in e.value and "no numeric feature column" in e.value and "'x2' (numbers mixed with text"
               in e.value for e in at.error), [e.value for e in at.error]


def test_good_csv_is_used():
    rng = np.random.default_rng(0)
    X = np.r_[rng.normal(size=(30, 2)), rng.normal(size=(30, 2)) + 2.5]
    lines = ["a,b,cls"] + [f"{x:.4f},{y:.4f},{'yes' if i < 30 else 'no'}" for i, (x, y) in enumerate(X)]
    at = _with_upload("\n".join(lines).encode())
    assert_clean(at)
    assert not at.error
    assert "Decision curves" in figure_titles(at)


def test_monte_carlo_study_runs():
    at = small(AppTest.from_file(PAGE, default_timeout=180).run())
    at.slider(key="tuning_R").set_value(2)
    at.button(key="tuning_mc_run").click().run()
    assert_clean(at)
    assert any(t.startswith("Inefficiency over 2") for t in figure_titles(at))


# ---------------------------------------------------------------- paths a person takes
def test_shared_link_restores_every_control():
    """Every control of the view is in the link, and a fresh session shows it back."""
    from tests.apptest_utils import assert_link_restores

    at = small(AppTest.from_file(PAGE, default_timeout=180).run())
    at.sidebar.radio(key="tuning_mode").set_value("non-standard").run()
    at.sidebar.number_input(key="tuning_cp").set_value(1.5)
    at.sidebar.number_input(key="tuning_cm").set_value(3.0)
    at.sidebar.slider(key="tuning_pp").set_value(0.2)
    at.sidebar.slider(key="tuning_lam").set_value((-4.0, -1.0))
    at.sidebar.slider(key="tuning_sig").set_value((-0.5, 0.75))
    at.sidebar.number_input(key="tuning_seed").set_value(2)
    at.run()
    opts = at.select_slider(key="tuning_pt_l").options
    at.select_slider(key="tuning_pt_l").set_value(float(opts[1]))
    at.select_slider(key="tuning_pt_s").set_value(float(at.select_slider(key="tuning_pt_s").options[-2]))
    at.run()
    assert_clean(at)
    url = assert_link_restores(PAGE, at, ["tuning_data", "tuning_n", "tuning_seed", "tuning_mode", "tuning_cp",
                                          "tuning_cm", "tuning_pp", "tuning_lam", "tuning_sig", "tuning_res",
                                          "tuning_loo", "tuning_pt_l", "tuning_pt_s"])
    assert url["mode"] == "non-standard" and url["lam_lo"] == "-4.0" and float(url["pt_l"]) == pytest.approx(float(opts[1]), abs=0.005)


def test_grid_point_is_the_plotted_point_after_a_new_grid():
    """After "Grid points per axis" changes, the grid-point sliders show the plotted point
    (options are the grid's values, reset to GACV's choice on a new grid)."""
    at = small(AppTest.from_file(PAGE, default_timeout=180).run())
    at.select_slider(key="tuning_pt_l").set_value(float(at.select_slider(key="tuning_pt_l").options[-1])).run()
    at.sidebar.slider(key="tuning_res").set_value(11).run()
    assert_clean(at)
    lam, sig = at.select_slider(key="tuning_pt_l").value, at.select_slider(key="tuning_pt_s").value
    panel = panel_traces(at, "GACV")
    marker = [t for t in panel if t.get("name", "").startswith("selected")][0]
    gacv = [t for t in panel if t.get("name", "").startswith("min GACV")][0]
    assert (marker["x"][0], marker["y"][0]) == pytest.approx((lam, sig), abs=1e-3)
    assert (gacv["x"][0], gacv["y"][0]) == pytest.approx((lam, sig), abs=1e-3)  # GACV's choice
    assert len(at.select_slider(key="tuning_pt_l").options) == 11
    assert at.query_params["pt_l"] == repr(lam)


def test_three_class_upload_and_continuous_labels_say_what_to_do():
    """A 3-class upload offers the choice of two classes (this page compares two); a
    continuous label column is answered briefly (not with a list of every value)."""
    from tests.apptest_utils import three_class_csv, with_upload

    at = with_upload(PAGE, three_class_csv(60))
    assert_clean(at)
    assert not at.error and any("3 classes" in c.value and "choose which" in c.value for c in at.sidebar.caption)
    assert at.sidebar.radio(key="tuning_clsmode").value == "pair"
    rng = np.random.default_rng(1)
    rows = "\n".join(f"{a:.4f},{b:.4f},{c:.4f}" for a, b, c in rng.normal(size=(150, 3)))
    at = with_upload(PAGE, ("x1,x2,width\n" + rows).encode())
    assert_clean(at)
    msg = " ".join(e.value for e in at.error)
    assert "continuous" in msg and len(msg) < 500, msg


def test_subsample_offered_for_a_large_upload():
    """An upload with more rows than the page computes with is used through a
    seeded, stratified subsample the sidebar offers (never all rows silently)."""
    from tests.apptest_utils import two_class_csv, with_upload

    at = with_upload(PAGE, two_class_csv(2400), query={"res": "6"})
    assert_clean(at)
    assert any("2400 rows" in w.value and "at most 2000" in w.value for w in at.sidebar.warning)
    n = at.sidebar.slider(key="tuning_n")
    assert n.label.startswith("Subsample size") and n.max == 2000
    n.set_value(100).run()
    assert_clean(at)
    assert any(c.value.startswith("100 points, 2 features — -1: 50, 1: 50") for c in at.sidebar.caption)

