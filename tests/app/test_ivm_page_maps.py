"""The Import vector machine page on data with more than two features: its default tab draws the
import-point and SVM maps on the chosen plane (never a blank tab), the axes kept in the link."""
from __future__ import annotations

from tests.apptest_utils import assert_link_restores, figure_titled, page_path, url_of

from .codeview_utils import open_page
from .test_tuning_page_maps import COLUMNS, six_feature_csv

PAGE_FILE = "5_Import_vector_machine.py"
PAGE = page_path(PAGE_FILE)
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
