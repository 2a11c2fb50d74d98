"""The data's class names and column names wherever a class or a feature appears: legends, hover,
captions, axis titles, CSV downloads; "(standardised)" on standardised axes with the data's units in
the hover; captions that promise only what the data have."""
from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest

from svmviz import data as D
from tests.apptest_utils import (
    assert_clean, decode, figure_titled, figures, page_path, penguins_csv, texts_of, with_upload,
)

TWO_COLUMNS = ("bill_length_mm", "flipper_length_mm")


@pytest.fixture(autouse=True)
def _fresh_caches():
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


def _all_text(at) -> str:
    return json.dumps([texts_of(f) for f in figures(at)] + [
        [t.get("hovertemplate", ""), t.get("text", "")] for f in figures(at) for t in f["data"]], ensure_ascii=False)


# ------------------------------------------------------------------ the names themselves
def test_class_names_and_the_sign_mapping():
    pen = D.dataset_from_csv(penguins_csv())
    assert pen.class_names == ("Adelie", "Gentoo") and pen.sign_note == "+1 = Gentoo, −1 = Adelie"
    gen = D.make_dataset("banana", n=40, seed=0)
    assert gen.class_names == ("class −1", "class +1") and gen.sign_note == ""
    three = D.make_dataset("esl_mixture3", n=60, seed=0)
    assert three.class_names == ("class 0", "class 1", "class 2") and three.sign_note == ""
    coded = D.dataset_from_csv("a,b,y\n1,2,0\n2,3,1\n3,3,0\n4,4,1\n")
    assert coded.class_names == ("class 0", "class 1") and coded.sign_note == "+1 = class 1, −1 = class 0"


def test_standardised_axes_say_so_and_give_back_the_data_units():
    content = penguins_csv()
    raw = pd.read_csv(io.BytesIO(content)).dropna()
    ds = D.dataset_from_csv(content, standardize=True)
    assert ds.is_standardized and ds.axis_title(2) == "flipper_length_mm (standardised)"
    np.testing.assert_allclose(ds.original_values(2, ds.X[:, 2]), raw["flipper_length_mm"], rtol=1e-12)
    plain = D.dataset_from_csv(content, standardize=False)
    assert not plain.is_standardized and plain.axis_title(2) == "flipper_length_mm"
    np.testing.assert_array_equal(plain.original_values(2, plain.X[:, 2]), raw["flipper_length_mm"])
    iris = D.make_dataset("iris", n=60, seed=0)  # scikit-learn's data sets are standardised too
    assert iris.axis_title(0) == "sepal length (cm) (standardised)"


# ------------------------------------------------------------------ the pages
def test_tuning_page_names_classes_axes_and_units_of_an_upload():
    content = penguins_csv(columns=TWO_COLUMNS)
    at = with_upload(page_path("1_Tuning_criteria.py"), content, query={"res": "6", "n": "80"})
    assert_clean(at)
    fig = figure_titled(at, "Decision curves")
    names = [t.get("name") for t in fig["data"]]
    assert "Adelie" in names and "Gentoo" in names and not any("class" in str(n) for n in names), names
    lay = fig["layout"]
    assert lay["xaxis"]["title"]["text"] == "bill_length_mm (standardised)"
    assert lay["yaxis"]["title"]["text"] == "flipper_length_mm (standardised)"
    gentoo = next(t for t in fig["data"] if t.get("name") == "Gentoo")
    assert "bill_length_mm = %{customdata[0]" in gentoo["hovertemplate"]
    # the hover's original values are rows of the file (the subsample's points, unstandardised)
    raw = pd.read_csv(io.BytesIO(content)).dropna()
    file_rows = {(round(a, 6), round(b, 6)) for a, b in raw[list(TWO_COLUMNS)].to_numpy()}
    shown = decode(gentoo["customdata"]).reshape(-1, 2)
    assert shown.shape[0] > 0 and all((round(a, 6), round(b, 6)) in file_rows for a, b in shown)
    captions = " ".join(c.value for c in at.caption)
    assert "+1 = Gentoo, −1 = Adelie" in captions
    assert "true Bayes curve" not in captions  # uploaded data have no known Bayes curve


def test_kernels_page_main_effects_and_interactions_name_the_classes():
    at = with_upload(page_path("6_Kernels_and_variable_selection.py"), penguins_csv(),
                     query={"a_nlam": "5", "a_kernels": "additive,two-way", "a_loo": "0", "n": "120"})
    assert_clean(at)
    text = _all_text(at)
    assert "data (Adelie)" in text and "data (Gentoo)" in text
    assert "class −1" not in text and "class +1" not in text
    main = figure_titled(at, "Main effects")
    titles = [v["title"]["text"] for k, v in main["layout"].items() if k.startswith("xaxis") and "title" in v]
    assert titles and all(t.endswith("(standardised)") for t in titles), titles
    assert any("+1 = Gentoo" in c.value for c in at.caption)


def test_ivm_maps_use_column_and_class_names():
    content = penguins_csv(columns=TWO_COLUMNS)
    at = with_upload(page_path("5_Import_vector_machine.py"), content, query={"i_nlams": "7", "n": "120"})
    assert_clean(at)
    for prefix in ("IVM:", "SVM:"):
        fig = figure_titled(at, prefix)
        assert fig["layout"]["xaxis"]["title"]["text"] == "bill_length_mm (standardised)", prefix
        assert fig["layout"]["yaxis"]["title"]["text"] == "flipper_length_mm (standardised)", prefix
        names = [t.get("name") for t in fig["data"]]
        assert "Adelie" in names and "Gentoo" in names, names
    assert "class −1" not in _all_text(at)
    assert any("p̂ is the probability of Gentoo" in c.value for c in at.caption)


def test_ivm_three_class_preset_counts_import_points_from_one_source():
    from svmviz.ui import presets

    preset = next(p for p in presets.PRESETS["ivm"] if "three classes" in p.label)
    query = dict(presets.url_values(preset), i_nlams="11")
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(page_path("5_Import_vector_machine.py"), default_timeout=300)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    fig = figure_titled(at, "Multi-class IVM")
    assert "class class" not in _all_text(at)
    names = [t.get("name") for t in fig["data"] if t.get("type") == "scatter"]
    assert {"class 0", "class 1", "class 2"} <= set(names), names
    in_title = int(fig["layout"]["title"]["text"].split(" import points")[0].split(", ")[-1])
    caption = next(c.value for c in at.caption if c.value.startswith("λ path:"))
    assert f"|S| = {in_title} import points" in caption.split(";")[0], (caption, in_title)


def test_ivm_downloads_name_columns_and_classes():
    from svmviz.figures import ivm as fig_ivm
    from svmviz.ui.ivm import class_map_table

    ds = D.dataset_from_csv(penguins_csv(species=("Adelie", "Gentoo", "Chinstrap"), columns=TWO_COLUMNS),
                            standardize=True)
    from svmviz.ivm import IVMClassifier

    model = IVMClassifier(lam=0.1, sigma=1.0).fit(ds.X, ds.y)
    cm = fig_ivm.compute_class_map(model, ds.X, ds.y, grid_n=10, class_names=ds.classes)
    cols = class_map_table(cm, feature_names=ds.feature_names)
    assert list(cols)[:2] == list(TWO_COLUMNS)
    assert {"p_Adelie", "p_Chinstrap", "p_Gentoo"} <= set(cols)
    assert set(cols["predicted"]) <= {"Adelie", "Chinstrap", "Gentoo"}


def test_loo_chart_title_promises_a_test_error_only_when_there_is_one():
    from svmviz.figures import path as figs

    x = np.linspace(1, 10, 6)
    base = dict(x=x, loo1=np.full(6, 0.2), loo2=np.full(6, 0.5), n_sv=np.arange(6), zero=np.zeros(6, bool),
                zero_bands=(), stop=3.0, x_axis="lambda")
    without = figs.plot_loo_curves(figs.LooCurves(test_error=np.full(6, np.nan), **base))
    titles = [a["text"] for a in without.to_dict()["layout"]["annotations"]]
    assert "Error rate: LOO1" in titles and not any("test error" in t for t in titles)
    with_test = figs.plot_loo_curves(figs.LooCurves(test_error=np.full(6, 0.25), **base))
    assert "Error rates: LOO1 and the test error" in [a["text"] for a in with_test.to_dict()["layout"]["annotations"]]
