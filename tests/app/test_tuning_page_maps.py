"""The Tuning criteria page on data with more than two features: decision curves on a chosen plane
(two features through the others' medians, or the first two principal components), the axes kept in
the link, the grid-edge warning with its one-click extension, and the support-vector note."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.apptest_utils import assert_clean, assert_link_restores, decode, figure_titled, page_path, url_of

from .codeview_utils import open_page

PAGE_FILE = "1_Tuning_criteria.py"
PAGE = page_path(PAGE_FILE)
COLUMNS = ("age", "income", "ratio", "height_cm", "rooms", "score")
SCALES = (10.0, 2000.0, 0.01, 8.0, 1.5, 0.3)


def six_feature_csv(n=60, seed=0) -> bytes:
    """Six features on scales from 0.01 to 2000, classes "Japan" and "USA" (shifted in the first three)."""
    rng = np.random.default_rng(seed)
    k = np.arange(n) % 2
    Z = rng.normal(size=(n, 6))
    Z[:, :3] += 1.2 * k[:, None]
    X = Z * np.array(SCALES) + 50.0
    frame = pd.DataFrame(X, columns=list(COLUMNS)).assign(origin=np.array(["Japan", "USA"])[k])
    return frame.to_csv(index=False, float_format="%.6g").encode()


def _upload(query, standardize=True):
    return open_page(PAGE_FILE, query, shared={"data": "Upload CSV…", "upload": ("cars.csv", six_feature_csv()),
                                               "standardize": standardize})


def test_six_features_draw_decision_curves_on_two_chosen_features_with_class_names():
    at = _upload({"res": "6", "map_x": "ratio", "map_y": "age"})
    assert_clean(at)
    fig = figure_titled(at, "Decision curves")
    names = [t.get("name") for t in fig["data"]]
    assert "Japan" in names and "USA" in names
    assert fig["layout"]["xaxis"]["title"]["text"] == "ratio (standardised)"
    assert fig["layout"]["yaxis"]["title"]["text"] == "age (standardised)"
    usa = next(t for t in fig["data"] if t.get("name") == "USA")
    for c in COLUMNS:  # the hover names every feature, in the file's units
        assert f"{c} = %{{customdata[" in usa["hovertemplate"]
    custom = decode(usa["customdata"]).reshape(-1, 6)
    assert np.all(np.abs(custom[:, 1] - 50.0) > 0) and np.ptp(custom[:, 1]) > 100 * np.ptp(custom[:, 3])
    captions = " ".join(c.value for c in at.caption)
    assert "ratio and age" in captions and "other 4 features at their medians" in captions
    assert not any("two-dimensional data only" in i.value for i in at.info)


def test_principal_components_map_and_its_link():
    at = _upload({"res": "6"})
    at.radio(key="tuning_map_kind").set_value("components").run()
    assert_clean(at)
    fig = figure_titled(at, "Decision curves")
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("1st principal component")
    assert "principal components" in " ".join(c.value for c in at.caption)
    assert url_of(at)["map"] == "components"


def test_map_axes_round_trip_through_the_link_on_generated_twenty_feature_data():
    at = open_page(PAGE_FILE, {"data": "twonorm", "n": "40", "res": "6", "map_x": "x5", "map_y": "x12"})
    assert at.selectbox(key="tuning_map_x").value == "x5" and at.selectbox(key="tuning_map_y").value == "x12"
    url = assert_link_restores(PAGE, at, ["tuning_map_kind", "tuning_map_x", "tuning_map_y"])
    assert url["map_x"] == "x5" and url["map"] == "features"
    fig = figure_titled(at, "Decision curves")
    assert fig["layout"]["xaxis"]["title"]["text"].startswith("x5")


def test_the_same_feature_on_both_axes_is_an_error_that_names_it():
    at = _upload({"res": "6", "map_x": "rooms", "map_y": "rooms"})
    assert any("both rooms" in e.value for e in at.error)
    assert at.selectbox(key="tuning_map_y").value == "rooms"  # the controls stay usable


def test_a_sigma_grid_far_below_the_data_scale_is_warned_and_extended_in_one_click():
    # unstandardised features of spread up to 2000 and σ ≤ 10: the minima at the largest σ
    at = _upload({"res": "6"}, standardize=False)
    assert_clean(at)
    warn = " ".join(w.value for w in at.warning)
    assert "minimum at the largest σ of the grid (log10 σ = 1.00)" in warn
    assert "support vectors at the selected (λ, σ)" in warn
    fig = figure_titled(at, "Criteria over")
    titles = [a["text"] for a in fig["layout"]["annotations"]]
    assert any(t.startswith("GACV") and t.endswith("minimum on the grid's edge") for t in titles), titles
    at.button(key="tuning_extend_0_high").click().run()
    assert_clean(at)
    assert at.slider(key="tuning_sig").value == (-1.0, 2.0)
    assert url_of(at)["sig_hi"] == "2.0"


ONE_FEATURE = ("x,label\n" + "\n".join(f"{(i % 7) * 0.3 + (i % 2) * 1.1:.3f},{'a' if i % 2 else 'b'}"
                                        for i in range(60))).encode()


@pytest.mark.parametrize("page_file, query", [("1_Tuning_criteria.py", {"res": "6"}),
                                              ("3_Regularization_path.py", {"ploo": "0"}),
                                              ("4_Unbiased_SVC.py", {"u_n": "100"})])
def test_one_feature_data_say_there_is_no_plane_to_map(page_file, query):
    at = open_page(page_file, query, shared={"data": "Upload CSV…", "upload": ("one.csv", ONE_FEATURE)})
    assert any("one feature: there is no plane to map" in i.value for i in at.info)
    assert not any(w.key and w.key.endswith("_map_kind") for w in at.radio)
