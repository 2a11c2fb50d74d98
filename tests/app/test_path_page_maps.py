"""The Regularization path page on data with more than two features: the boundary map on the chosen
plane with the class names, every feature in the hover, the axes kept in the link."""
from __future__ import annotations

from tests.apptest_utils import assert_link_restores, figure_titled, page_path, url_of

from .codeview_utils import open_page
from .test_tuning_page_maps import COLUMNS, six_feature_csv

PAGE_FILE = "3_Regularization_path.py"
PAGE = page_path(PAGE_FILE)


def test_six_features_draw_the_boundary_map_on_chosen_features_with_class_names():
    at = open_page(PAGE_FILE, {"ploo": "0", "map_x": "height_cm"},
                   shared={"data": "Upload CSV…", "upload": ("cars.csv", six_feature_csv())})
    fig = figure_titled(at, "ν-SVM at λ")
    names = {t.get("name") for t in fig["data"]}
    assert any(str(n).startswith("Japan,") for n in names) and any(str(n).startswith("USA,") for n in names)
    assert fig["layout"]["xaxis"]["title"]["text"] == "height_cm (standardised)"
    assert fig["layout"]["yaxis"]["title"]["text"] == "income (standardised)"
    pts = [t for t in fig["data"] if t.get("type") == "scatter" and t.get("customdata") is not None]
    assert pts and all(f"{c} = %{{customdata[" in t["hovertemplate"] for t in pts for c in COLUMNS)
    assert any("other 4 features at their medians" in c.value for c in at.caption)
    assert not any("the boundary map needs 2" in i.value for i in at.info)


def test_path_map_axes_round_trip_through_the_link():
    at = open_page(PAGE_FILE, {"data": "twonorm", "n": "40", "ploo": "0", "map": "components"})
    assert figure_titled(at, "ν-SVM at λ")["layout"]["xaxis"]["title"]["text"].startswith("1st principal")
    assert url_of(at)["map"] == "components"
    assert_link_restores(PAGE, at, ["path_map_kind"])
