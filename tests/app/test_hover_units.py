"""The data's own units in the hover of every chart whose points are standardised: the IVM maps,
the Regularization path's boundary map, the Unbiased SVC maps, the Kernels page's main effects and
interactions. The hover's original values are checked against mean + sd·z computed here from the
raw file with pandas (not through the package), and against the file's rows; generated data (not
standardised) carry nothing extra."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from svmviz import data as D
from svmviz.figures.labels import point_hover
from tests.apptest_utils import assert_clean, decode, figure_titled, page_path, penguins_csv, with_upload

TWO_COLUMNS = ("bill_length_mm", "flipper_length_mm")


@pytest.fixture(autouse=True)
def _fresh_caches():
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


def _raw_scale(content, columns):
    """(mean, sd) of each of ``columns`` of the file after dropping incomplete rows (the upload's
    default), computed with pandas: population sd, as the data are standardised."""
    raw = pd.read_csv(io.BytesIO(content)).dropna()
    return raw, [(float(raw[c].mean()), float(raw[c].std(ddof=0))) for c in columns]


def _check_points(trace, scale, file_rows=None, columns=(0, 1)):
    """The trace's customdata (first columns) is mean + sd·z of its standardised x (and y), and the
    hover shows it beside the standardised value."""
    cd = decode(trace["customdata"])
    zs = [decode(trace["x"], np.float64)] + ([decode(trace["y"], np.float64)] if len(columns) == 2 else [])
    cd = cd.reshape(zs[0].size, -1)
    assert cd.shape[0] > 0
    for k, z in enumerate(zs):
        ok = np.isfinite(z)
        mu, sd = scale[columns[k]]
        np.testing.assert_allclose(cd[ok, k].astype(np.float64), mu + sd * z[ok], rtol=1e-5, atol=1e-6)
        assert f"%{{customdata[{k}]" in trace["hovertemplate"] and "(standardised %{" + "xy"[k] in trace["hovertemplate"]
    if file_rows is not None:
        shown = {(round(float(a), 3), round(float(b), 3)) for a, b in cd[:, :2]}
        assert shown <= file_rows, shown - file_rows


def _rows(raw, columns):
    return {(round(float(a), 3), round(float(b), 3)) for a, b in raw[list(columns)].to_numpy()}


# ------------------------------------------------------------------ the helper
def test_point_hover_one_and_two_axes():
    X = np.array([[0.0, 1.0], [-2.0, 0.5]])
    lines, cd = point_hover(X, ("a", "b"), ((10.0, 2.0), (-1.0, 4.0)))
    np.testing.assert_allclose(cd, [[10.0, 3.0], [6.0, 1.0]])
    assert lines == ("a = %{customdata[0]:.4g} (standardised %{x:.2f})<br>"
                     "b = %{customdata[1]:.4g} (standardised %{y:.2f})")
    lines, cd = point_hover(np.array([1.0, np.nan, -1.0]), ("a",), ((5.0, 3.0),))
    np.testing.assert_allclose(cd[:, 0], [8.0, np.nan, 2.0])
    assert lines == "a = %{customdata[0]:.4g} (standardised %{x:.2f})"
    assert point_hover(X, ("a", "b")) == ("a = %{x:.3f}<br>b = %{y:.3f}", None)


@pytest.mark.parametrize("names, scale, match", [
    (("a", "b", "c"), None, "1 or 2 axes"),
    (("a", "b"), ((0.0, 1.0),), r"\(mean, sd\) for each of the 2 axes"),
    (("a",), ((0.0,),), r"\(mean, sd\) for each of the 1 axes"),
])
def test_point_hover_refuses_a_mismatched_scale(names, scale, match):
    with pytest.raises(ValueError, match=match):
        point_hover(np.zeros((3, len(names))), names, scale)


# ------------------------------------------------------------------ the figures, without the pages
def test_main_effects_and_interactions_hover_in_the_data_units():
    from svmviz import anova
    from svmviz.figures import anova as fig
    from svmviz.kernels import SSANOVAKernel
    from svmviz.svm import SVMClassifier

    cols = ("bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g")
    content = penguins_csv()
    raw, scale = _raw_scale(content, cols)
    ds = D.dataset_from_csv(content, standardize=True)
    assert ds.feature_names == cols
    svm = SVMClassifier(lam=1e-2, kernel=SSANOVAKernel(order="two-way")).fit(ds.X, ds.y)
    exp = anova.expansion_of(svm, feature_names=ds.feature_names)
    me = fig.compute_main_effects(exp, ds.X, ds.y, grid_n=21)
    f = fig.plot_main_effects(me, class_names=ds.class_names, standardised=True, scale=scale).to_plotly_json()
    effects = [t for t in f["data"] if t["name"] == "main effect f(α)"]
    rugs = [t for t in f["data"] if t["name"].startswith("data (")]
    assert len(effects) == 4 and len(rugs) == 8
    for t in effects + rugs:
        a = next(j for j, c in enumerate(cols) if t["hovertemplate"].startswith(c + " = "))
        _check_points(t, scale, columns=(a,))
    # the rug's original values are the file's values of that column
    for t in rugs:
        a = next(j for j, c in enumerate(cols) if t["hovertemplate"].startswith(c + " = "))
        shown = {round(float(v), 3) for v in decode(t["customdata"]).ravel() if np.isfinite(v)}
        assert shown <= {round(float(v), 3) for v in raw[cols[a]]}
    it = fig.compute_interaction(exp, 0, 2, ds.X, ds.y, grid_n=11)
    for figure in (fig.plot_interaction(it, ds.class_names, scale=scale),
                   fig.plot_interaction_panels([it], ds.class_names, standardised=True, scale=scale)):
        pts = [t for t in figure.to_plotly_json()["data"] if t["type"] == "scatter"]
        assert [t["name"] for t in pts] == list(ds.class_names)
        for t in pts:
            _check_points(t, [scale[0], scale[2]], _rows(raw, (cols[0], cols[2])))
    with pytest.raises(ValueError, match="for each of the 4 features"):
        fig.plot_main_effects(me, scale=scale[:2])
    # generated data are not standardised: their hover shows the values as drawn, nothing extra
    plain = fig.plot_main_effects(me).to_plotly_json()
    assert all(t.get("customdata") is None for t in plain["data"] if t["type"] == "scatter")


# ------------------------------------------------------------------ the pages, uploaded data
def _points_of(fig, names):
    return [t for t in fig["data"] if t.get("type", "scatter") == "scatter" and t.get("mode") == "markers"
            and any(t.get("name", "").startswith(n) for n in names)]


def test_ivm_maps_hover_in_the_data_units():
    content = penguins_csv(columns=TWO_COLUMNS)
    raw, scale = _raw_scale(content, TWO_COLUMNS)
    at = with_upload(page_path("5_Import_vector_machine.py"), content, query={"i_nlams": "7", "n": "120"})
    assert_clean(at)
    for prefix, marked in (("IVM:", "import points"), ("SVM:", "support points")):
        fig = figure_titled(at, prefix)
        pts = _points_of(fig, ("Adelie", "Gentoo", marked))
        assert len(pts) == 3, [t.get("name") for t in fig["data"]]
        for t in pts:
            _check_points(t, scale, _rows(raw, TWO_COLUMNS))
            assert "bill_length_mm = %{customdata[0]" in t["hovertemplate"]


def test_regularization_path_boundary_map_hover_in_the_data_units():
    content = penguins_csv(columns=TWO_COLUMNS)
    raw, scale = _raw_scale(content, TWO_COLUMNS)
    at = with_upload(page_path("3_Regularization_path.py"), content, query={"n": "80"})
    assert_clean(at)
    fig = figure_titled(at, "ν-SVM at λ")
    pts = _points_of(fig, ("Adelie", "Gentoo"))
    assert pts
    for t in pts:
        _check_points(t, scale, _rows(raw, TWO_COLUMNS))
        # the point's row and α follow the coordinates
        assert "point %{customdata[2]}" in t["hovertemplate"] and "α = %{customdata[3]" in t["hovertemplate"]
        cd = decode(t["customdata"]).reshape(-1, 4)
        assert np.all(cd[:, 2] == np.round(cd[:, 2])) and np.all(cd[:, 3] >= -1e-12)


def test_unbiased_svc_maps_hover_in_the_data_units():
    content = penguins_csv(columns=TWO_COLUMNS)
    raw, scale = _raw_scale(content, TWO_COLUMNS)
    at = with_upload(page_path("4_Unbiased_SVC.py"), content, query={"u_n": "200", "n": "80"})
    assert_clean(at)
    fig = figure_titled(at, "Kernel USVC")
    pts = _points_of(fig, ("Adelie", "Gentoo", "SVM support vectors"))
    assert len(pts) == 5, [t.get("name") for t in fig["data"]]  # two classes in each map, support vectors
    for t in pts:
        _check_points(t, scale, _rows(raw, TWO_COLUMNS))
    # the prototypes are centres, not rows of the file: in the data's units all the same
    _check_points(_points_of(fig, ("USVC prototypes",))[0], scale)


def test_kernels_page_hover_in_the_data_units():
    cols = ("bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g")
    content = penguins_csv()
    raw, scale = _raw_scale(content, cols)
    at = with_upload(page_path("6_Kernels_and_variable_selection.py"), content,
                     query={"a_nlam": "5", "a_kernels": "additive,two-way", "a_loo": "0", "n": "120"})
    assert_clean(at)
    main = figure_titled(at, "Main effects")
    lines = [t for t in main["data"] if t["name"] == "main effect f(α)" or t["name"].startswith("data (")]
    assert lines
    for t in lines:
        a = next(j for j, c in enumerate(cols) if t["hovertemplate"].startswith(c + " = "))
        _check_points(t, scale, columns=(a,))


# ------------------------------------------------------------------ generated data: nothing extra
def test_generated_data_hover_has_no_second_value():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(page_path("5_Import_vector_machine.py"), default_timeout=300)
    at.query_params.update({"data": "esl_mixture", "n": "100", "i_nlams": "7"})
    at.run()
    assert_clean(at)
    fig = figure_titled(at, "IVM:")
    for t in _points_of(fig, ("class −1", "class +1", "import points")):
        assert t.get("customdata") is None and "standardised" not in t["hovertemplate"], t["hovertemplate"]
