"""The Unbiased SVC page on data with more than two features: the 1-D section on the sidebar's data
along a chosen feature or the first principal component (or, on the paper's scenario, a caption that
says so and why), and the kernel section's maps on the chosen plane with the class names."""
from __future__ import annotations

from tests.apptest_utils import assert_clean, assert_link_restores, figure_titled, page_path, url_of

from .codeview_utils import open_page
from .test_tuning_page_maps import COLUMNS, six_feature_csv

PAGE_FILE = "4_Unbiased_SVC.py"
PAGE = page_path(PAGE_FILE)
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
    assert figure_titled(at, "Error surface L̃(Th, w)<br>of the USVC")


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
