"""Headless page test of pages/4_Unbiased_SVC.py (streamlit AppTest); on data with more than two
features, the 1-D section along a chosen feature or the first principal component and the kernel
section's maps on the chosen plane with the class names."""
from __future__ import annotations

import json

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.apptest_utils import assert_clean, assert_link_restores, decode, figure_titled, page_path, url_of

from .codeview_utils import open_page
from .test_tuning_page_maps import COLUMNS, six_feature_csv

PAGE_FILE = "4_Unbiased_SVC.py"
PAGE = page_path(PAGE_FILE)


def _arr(v):
    return decode(v, object)


def charts(at):
    return {c.proto.id: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def chart_by_title(at, text):
    for spec in charts(at).values():
        title = spec["layout"].get("title", {}).get("text", "")
        if text in title:
            return spec
    raise AssertionError(f"no chart titled with {text!r}; have {[s['layout'].get('title', {}).get('text') for s in charts(at).values()]}")


def trace(spec, name):
    for t in spec["data"]:
        if t.get("name") == name:
            return t
    raise AssertionError(f"no trace {name!r}")


def test_page_runs_and_reacts_to_widgets():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert len(at.get("plotly_chart")) >= 6
    every = charts(at).values()
    for spec in every:  # every plot has a title and axis labels
        assert spec["layout"]["title"]["text"]
        assert spec["layout"]["xaxis"].get("title", {}).get("text") or spec["layout"].get("annotations")

    dens_a = _arr(trace(chart_by_title(at, "Scenario A"), "theoretical CE(Th)")["y"])
    usvc_a = _arr(chart_by_title(at, "USVC (smooth step, s = 2)")["data"][0]["z"])

    # scenario B: new densities and theoretical CE
    at.selectbox(key="usvc_scenario").select("B").run()
    assert not at.exception
    dens_b = _arr(trace(chart_by_title(at, "Scenario B"), "theoretical CE(Th)")["y"])
    assert dens_b.shape == dens_a.shape and not np.allclose(dens_a, dens_b)
    usvc_b2 = _arr(chart_by_title(at, "USVC (smooth step, s = 2)")["data"][0]["z"])
    assert usvc_b2.shape != usvc_a.shape or not np.allclose(usvc_b2, usvc_a)

    # steeper loss: the USVC error surface changes
    at.slider(key="usvc_s").set_value(4.0).run()
    assert not at.exception and at.slider(key="usvc_s").value == 4.0
    surf4 = _arr(chart_by_title(at, "USVC (smooth step, s = 4)")["data"][0]["z"])
    assert surf4.ndim == 2
    assert surf4.shape != usvc_b2.shape or not np.allclose(surf4, usvc_b2)

    # step through the trajectory: only the first iterates are drawn
    full = _arr(trace(chart_by_title(at, "USVC (smooth step"), "IRWLS-SVC (hinge)")["x"])
    at.slider(key="usvc_steps").set_value(3).run()
    assert not at.exception
    short = _arr(trace(chart_by_title(at, "USVC (smooth step"), "IRWLS-SVC (hinge)")["x"])
    assert short.size == 3 < full.size

    # the kernel section reacts to R
    k_before = _arr(chart_by_title(at, "Kernel USVC")["data"][0]["z"])
    at.slider(key="usvc_R").set_value(5).run()
    assert not at.exception
    names = [t.get("name") for t in chart_by_title(at, "Kernel USVC")["data"]]
    proto = trace(chart_by_title(at, "Kernel USVC"), "USVC prototypes cᵣ")
    assert _arr(proto["x"]).size == 5 and "SVM support vectors" in names
    k_after = _arr(chart_by_title(at, "Kernel USVC")["data"][0]["z"])
    assert not np.allclose(k_before, k_after)


def test_table1_study_on_demand_with_csv():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception

    def study_csv():  # the study's download (the page has others: the error surfaces, the kernel maps)
        return [d for d in at.get("download_button") if d.key == "usvc_t1_csv"]

    assert len(study_csv()) == 0
    at.number_input(key="usvc_t1_trials").set_value(3)
    at.number_input(key="usvc_t1_ntr").set_value(200)
    at.number_input(key="usvc_t1_nte").set_value(200)
    at.button(key="usvc_t1_run").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert len(study_csv()) == 1
    table = at.dataframe[0].value
    assert list(table["method"]) == ["LS", "SVC", "USVC(s=2)", "USVC(s=4)"]
    assert table["test CE % (paper)"].iloc[2] == "20.4 ± 1.9"
    bars = chart_by_title(at, "Table 1, scenario A")
    ours = [t for t in bars["data"] if t["name"] == "svmviz"][0]
    assert _arr(ours["y"]).size == 4
    # the result stays after another widget changes (no recompute, still downloadable)
    at.slider(key="usvc_damp").set_value(0.3).run()
    assert not at.exception and len(study_csv()) == 1


# ---------------------------------------------------------------- paths a person takes
def _small_query():
    """Small trajectories: each rerun well under a second."""
    return {"u_n": "200", "n": "80"}


def test_upload_runs_the_2d_section():
    """Any uploaded CSV crashed the 2-D section (int(None) of the CSV's seed)."""
    from tests.apptest_utils import assert_clean, two_class_csv, with_upload

    at = with_upload(PAGE, two_class_csv(80), query=_small_query())
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    kernel = chart_by_title(at, "Kernel USVC")
    assert _arr(trace(kernel, "USVC prototypes cᵣ")["x"]).size == 10
    metrics = {m.label: m.value for m in at.metric}
    assert int(metrics["USVC machine size (kernels)"]) == 10 and int(metrics["SVM machine size (support vectors)"]) > 0
    assert any("30 % held out" in c.value for c in at.caption)


def test_three_class_upload_offers_the_class_choice_to_every_section():
    """A 3-class upload: the sidebar offers two of the classes (or one against the rest); the kernel
    machines and the 1-D section run on the chosen two, named in the legend and the caption."""
    from tests.apptest_utils import assert_clean, three_class_csv, with_upload

    at = with_upload(PAGE, three_class_csv(90), query=_small_query())
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    assert at.selectbox(key="usvc_clsa").value == "setosa" and at.selectbox(key="usvc_clsb").value == "versicolor"
    assert any("3 classes" in c.value and "choose which" in c.value for c in at.sidebar.caption)
    kernel = chart_by_title(at, "Kernel USVC")
    names = {t.get("name") for t in kernel["data"]}
    assert {"setosa", "versicolor"} <= names and "virginica" not in names, names
    metrics = {m.label: m.value for m in at.metric}
    assert int(metrics["SVM machine size (support vectors)"]) > 0
    # one class against the rest: every row, the chosen class +1
    at.sidebar.radio(key="usvc_clsmode").set_value("rest").run()
    at.sidebar.selectbox(key="usvc_clsone").select("virginica").run()
    assert_clean(at)
    names = {t.get("name") for t in chart_by_title(at, "Kernel USVC")["data"]}
    assert "virginica" in names and "setosa" not in names, names
    # the 1-D section on the sidebar's data: the chosen classes along the first principal component
    at.selectbox(key="usvc_scenario").select("sidebar").run()
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    assert any("virginica when x > Th" in c.value for c in at.caption), [c.value for c in at.caption]


def test_shared_link_restores_every_control():
    """The Unbiased SVC link carried only data, n and seed."""
    from tests.apptest_utils import assert_link_restores

    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in _small_query().items():
        at.query_params[k] = v
    at.run()
    at.selectbox(key="usvc_scenario").select("B")
    at.select_slider(key="usvc_C1").set_value(3.0)
    at.slider(key="usvc_s").set_value(4.0)
    at.select_slider(key="usvc_k").set_value(1e-3)
    at.slider(key="usvc_damp").set_value(0.5)
    at.number_input(key="usvc_seed1").set_value(2)
    at.number_input(key="usvc_t1_trials").set_value(3)
    at.number_input(key="usvc_t1_ntr").set_value(100)
    at.number_input(key="usvc_t1_nte").set_value(100)
    at.select_slider(key="usvc_sigma").set_value(0.5)
    at.select_slider(key="usvc_C2").set_value(1.0)
    at.slider(key="usvc_R").set_value(6)
    at.selectbox(key="usvc_proto").select("fscl")
    at.slider(key="usvc_s2").set_value(3.0)
    at.run()
    at.slider(key="usvc_steps").set_value(2)
    at.button(key="usvc_t1_run").click()
    at.run()
    assert not at.exception, at.exception
    url = assert_link_restores(PAGE, at, ["usvc_data", "usvc_n", "usvc_seed", "usvc_scenario", "usvc_n1",
                                          "usvc_seed1", "usvc_C1", "usvc_s", "usvc_k", "usvc_damp", "usvc_steps",
                                          "usvc_t1_scen", "usvc_t1_trials", "usvc_t1_ntr", "usvc_t1_nte",
                                          "usvc_t1_seed", "usvc_sigma", "usvc_C2", "usvc_R", "usvc_proto",
                                          "usvc_s2"])
    assert url["u_src"] == "B" and url["u_t1"] == "1" and url["u_proto"] == "fscl"
    # the study shown comes back too (the link opens the same view)
    from tests.apptest_utils import reopen

    fresh = reopen(PAGE, at)
    assert list(fresh.dataframe[0].value["method"]) == ["LS", "SVC", "USVC(s=2)", "USVC(s=4)"]


def test_sigma_default_from_the_data():
    """The kernel σ starts at the option nearest
    the median-distance heuristic of the chosen data and follows a data change."""
    from svmviz import data, ivm
    from svmviz.ui.usvc import SIGMAS

    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in _small_query().items():
        at.query_params[k] = v
    at.run()
    for name in ("banana", "twonorm"):
        if name != "banana":
            at.selectbox(key="usvc_data").select(name).run()
        h = ivm.sigma_heuristic(data.make_dataset(name, n=80, seed=0).X)
        assert at.select_slider(key="usvc_sigma").value == min(SIGMAS, key=lambda v: abs(np.log(v / h)))
        assert "median-distance heuristic" in at.select_slider(key="usvc_sigma").help


# ------------------------------------------------------------------------------------------------------------
# The Unbiased SVC page on data with more than two features: the 1-D section on the sidebar's data along a
# chosen feature or the first principal component (or, on the paper's scenario, a caption that says so and why),
# and the kernel section's maps on the chosen plane with the class names.
SMALL = {"u_n": "100", "n": "60"}


def _upload(query):
    return open_page(PAGE_FILE, SMALL | query,
                     shared={"data": "Upload CSV…", "upload": ("cars.csv", six_feature_csv())})


def _metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def test_the_scenario_says_it_is_the_papers_and_the_upload_runs_along_a_feature():
    at = _upload({})
    assert_clean(at)
    assert any("The paper's scenario A" in c.value and "does not depend on the sidebar" in c.value
               for c in at.caption)
    scenario_th = _metric(at, "SVC threshold")
    at.selectbox(key="usvc_scenario").set_value("sidebar").run()
    assert_clean(at)
    assert at.selectbox(key="usvc_along").value == "components"
    at.selectbox(key="usvc_along").set_value("ratio").run()
    assert_clean(at)
    assert any("cars.csv along x = ratio" in c.value or "along x = ratio" in c.value for c in at.caption)
    assert _metric(at, "SVC threshold") != scenario_th
    assert url_of(at)["u_along"] == "ratio"
    assert figure_titled(at, "Error surface L̃(Th, w) of the USVC")


def test_kernel_maps_on_chosen_features_with_class_names_and_every_feature_in_the_hover():
    at = _upload({"map_x": "score", "map_y": "age"})
    assert_clean(at)
    fig = figure_titled(at, "Kernel USVC")
    names = {t.get("name") for t in fig["data"]}
    assert {"Japan", "USA"} <= names
    assert fig["layout"]["xaxis"]["title"]["text"] == "score (standardised)"
    usa = next(t for t in fig["data"] if t.get("name") == "USA")
    assert all(f"{c} = %{{customdata[" in usa["hovertemplate"] for c in COLUMNS)
    assert not any("drawn for 2-D data only" in i.value for i in at.info)


def test_usvc_along_and_map_axes_round_trip_through_the_link():
    at = open_page(PAGE_FILE, SMALL | {"data": "twonorm", "u_src": "sidebar", "u_along": "x4", "map": "components"})
    assert at.selectbox(key="usvc_along").value == "x4"
    assert_link_restores(PAGE, at, ["usvc_along", "usvc_map_kind"])
