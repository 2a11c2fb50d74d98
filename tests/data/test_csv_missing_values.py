"""Uploaded files with missing cells: drop the incomplete rows (default), impute column medians, or
stop with an error naming every line — checked against pandas' own dropna / fillna(median)."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from svmviz import data as D
from tests.apptest_utils import assert_clean, page_path, penguins_csv, url_of, with_upload

FEATURES = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"]


def _frame(content: bytes) -> pd.DataFrame:
    return pd.read_csv(io.BytesIO(content))  # pandas reads "NA" as missing by default


def test_incomplete_rows_are_dropped_by_default_with_a_note_naming_the_lines():
    content = penguins_csv()
    ds = D.dataset_from_csv(content)
    assert ds.notes == ("Dropped 2 of 276 rows with missing values: lines 5, 273.",)
    ref = _frame(content).dropna()
    np.testing.assert_array_equal(ds.X, ref[FEATURES].to_numpy())
    assert ds.classes == ("Adelie", "Gentoo")
    np.testing.assert_array_equal(ds.y, np.where(ref["species"] == "Gentoo", 1.0, -1.0))
    assert ds.params["missing"] == "drop"


def test_median_imputation_equals_pandas_fillna_with_the_column_median():
    content = penguins_csv()
    ds = D.dataset_from_csv(content, missing="median")
    df = _frame(content)
    ref = df[FEATURES].fillna(df[FEATURES].median())
    np.testing.assert_allclose(ds.X, ref.to_numpy(), rtol=0, atol=0)
    assert ds.X.shape == (276, 4)
    assert len(ds.notes) == 1 and "Filled 8 missing values" in ds.notes[0] and "lines 5, 273" in ds.notes[0]
    std = D.dataset_from_csv(content, missing="median", standardize=True)  # imputed before scaling
    np.testing.assert_allclose(std.X, (ref - ref.mean()) / ref.std(ddof=0), atol=1e-12)


def test_error_names_every_incomplete_line_at_once():
    with pytest.raises(ValueError, match=r"Missing values in 2 rows \(lines 5, 273; columns 'bill_length_mm'"):
        D.dataset_from_csv(penguins_csv().replace(b"NA", b""), missing="error")


def test_many_incomplete_rows_are_named_first_few_and_a_count():
    text = "a,b,label\n" + "\n".join(f"{k},{'' if k < 8 else k},{'xy'[k % 2]}" for k in range(20)) + "\n"
    ds = D.dataset_from_csv(text)
    assert ds.notes[0] == "Dropped 8 of 20 rows with missing values: lines 2, 3, 4, 5, 6 and 3 more."
    with pytest.raises(ValueError, match=r"Missing values in 8 rows \(lines 2, 3, 4, 5, 6 and 3 more; column 'b'\)"):
        D.dataset_from_csv(text, missing="error")


def test_a_row_without_label_is_dropped_even_when_imputing():
    text = "a,b,label\n1,2,x\n3,,y\n4,5,\n6,7,y\n8,1,x\n"
    ds = D.dataset_from_csv(text, missing="median")
    assert ds.notes[0] == "Dropped 1 of 5 rows with no label (a class cannot be imputed): line 4."
    np.testing.assert_array_equal(ds.X, [[1, 2], [3, 2], [6, 7], [8, 1]])  # median of b over 2, 7, 1


@pytest.mark.parametrize("bad", ["zero", "", None, "Drop", 1])
def test_missing_rule_is_validated(bad):
    with pytest.raises(ValueError, match="missing must be one of 'drop', 'median', 'error'"):
        D.dataset_from_csv(penguins_csv(), missing=bad)


def test_only_incomplete_rows_or_an_empty_column_are_clear_errors():
    with pytest.raises(ValueError, match="Every one of the 3 rows has a missing value"):
        D.dataset_from_csv("a,b,label\n1,,x\n,2,y\n3,,x\n")
    empty_column = "a,b,label\n1,,x\n2,,y\n3,,x\n4,,y\n"
    for rule in ("drop", "median"):
        ds = D.dataset_from_csv(empty_column, missing=rule)  # an empty column is left out, not a reason to drop rows
        assert ds.feature_names == ("a",) and ds.X.shape == (4, 1)
        assert any("'b' (empty)" in note for note in ds.notes)
    with pytest.raises(ValueError, match="Feature column 'b' is empty"):
        D.dataset_from_csv(empty_column, missing="median", feature_columns=["a", "b"])


def test_infinite_cells_stay_errors_whatever_the_rule():
    for rule in ("drop", "median"):
        with pytest.raises(ValueError, match="Column 'b' at line 3 holds 'inf'"):
            D.dataset_from_csv("a,b,label\n1,2,x\n3,inf,y\n4,5,x\n6,7,y\n", missing=rule)


# ------------------------------------------------------------------ the sidebar
@pytest.fixture(autouse=True)
def _fresh_caches():
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


def test_sidebar_drops_by_default_says_which_lines_and_the_link_keeps_the_choice():
    page = page_path("3_Regularization_path.py")
    at = with_upload(page, penguins_csv())
    assert_clean(at)
    infos = [i.value for i in at.sidebar.info]
    assert "Dropped 2 of 276 rows with missing values: lines 5, 273." in infos
    radio = next(r for r in at.sidebar.radio if r.key.endswith("_missing"))
    assert radio.value == "drop"
    radio.set_value("median").run()
    assert_clean(at)
    assert url_of(at)["na"] == "median"
    assert any(i.value.startswith("Filled 8 missing values") for i in at.sidebar.info)
    assert not any(e.value for e in at.error)
    fresh = with_upload(page, penguins_csv(), query=url_of(at))
    assert_clean(fresh)
    assert next(r for r in fresh.sidebar.radio if r.key.endswith("_missing")).value == "median"
    assert any(i.value.startswith("Filled 8 missing values") for i in fresh.sidebar.info)
