"""Column roles and the class choice of svmviz.data.dataset_from_csv and select_classes, checked against an
independent pandas read of the same file."""
from __future__ import annotations

import hashlib
import io
import os

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import svmviz.data as D
from tests.data.own_table import FEATURES, LABEL, TEXT_COLUMN, own_table_csv


def _pandas_reference(content: bytes, features, classes=None):
    """X, labels of the file read by plain pandas: rows with an empty feature or label cell dropped."""
    df = pd.read_csv(io.BytesIO(content))
    df = df.dropna(subset=list(features) + [LABEL])
    if classes is not None:
        df = df[df[LABEL].isin(classes)]
    return df[list(features)].to_numpy(dtype=np.float64), df[LABEL].to_numpy()


@pytest.fixture(scope="module")
def table() -> bytes:
    return own_table_csv()


def test_text_column_is_left_out_and_named_and_the_rest_matches_pandas(table):
    ds = D.dataset_from_csv(table)
    assert ds.feature_names == FEATURES and ds.classes == ("Europe", "Japan", "USA")
    X, labels = _pandas_reference(table, FEATURES)
    np.testing.assert_array_equal(ds.X, X)
    np.testing.assert_array_equal(np.asarray(ds.classes, dtype=object)[ds.y], labels)
    left_out = [n for n in ds.notes if n.startswith("Left out")]
    assert len(left_out) == 1 and f"'{TEXT_COLUMN}' (text, e.g. " in left_out[0]
    assert ds.params["feature_columns"] is None  # the argument: every numeric column
    assert ds.params["classes"] is None and ds.params["one_vs_rest"] is None
    # a missing name drops no row: only the feature and label columns count
    assert any("Dropped 6 of 120 rows" in n for n in ds.notes)


def test_a_column_of_numbers_and_text_is_text():
    rows = "".join(f"{i % 7 + 0.5},{'?' if i == 5 else i % 5},{'ab'[i % 2]}\n" for i in range(24))
    ds = D.dataset_from_csv("a,horsepower,label\n" + rows)
    assert ds.feature_names == ("a",)
    assert any("'horsepower' (numbers mixed with text, e.g. '?' at line 7)" in n for n in ds.notes)
    with pytest.raises(ValueError, match=r"Feature column 'horsepower' mixes numbers and text \('\?' at line 7\).*"
                                         r"numeric columns are: a"):
        D.dataset_from_csv("a,horsepower,label\n" + rows, feature_columns=["a", "horsepower"])


@pytest.mark.parametrize("name, why", [("id", "name"), ("Row ID", "name"), ("index", "name"),
                                       ("serial", "distinct integers")])
def test_identifier_like_columns_are_flagged_not_dropped(name, why):
    rows = "".join(f"{1000 + 7 * i},{(i * 37) % 11 / 4},{'ab'[i % 2]}\n" for i in range(20))
    ds = D.dataset_from_csv(f"{name},x,label\n" + rows)
    assert ds.feature_names == (name, "x")
    flagged = [n for n in ds.notes if n.startswith("Looks like an identifier")]
    assert len(flagged) == 1 and repr(name) in flagged[0] and why in flagged[0]
    assert "'x'" not in flagged[0]


def test_a_few_distinct_integers_or_repeated_ones_are_no_identifier():
    few = D.dataset_from_csv("n,x,label\n1,0.5,a\n2,0.7,b\n3,0.1,a\n4,0.2,b\n")
    counts = D.dataset_from_csv("n,x,label\n" + "".join(f"{i % 4},{i / 3},{'ab'[i % 2]}\n" for i in range(20)))
    assert not any("identifier" in n for n in few.notes + counts.notes)


def test_repeated_column_names_are_renamed_with_a_note():
    rows = "".join(f"{i},{10 * i + 1},{i % 3 + 0.5},{'ab'[i % 2]}\n" for i in range(12))
    text = "w,w,w (2),label\n" + rows
    ds = D.dataset_from_csv(text)
    assert ds.feature_names == ("w", "w (3)", "w (2)")
    reference = pd.read_csv(io.StringIO(text)).iloc[:, :3].to_numpy(dtype=np.float64)  # by position
    np.testing.assert_array_equal(ds.X, reference)
    assert any(n.startswith("Renamed repeated column names: 'w'") and "'w (3)'" in n for n in ds.notes)
    chosen = D.dataset_from_csv(text, feature_columns=["w (3)"])
    np.testing.assert_array_equal(chosen.X[:, 0], reference[:, 1])
    with pytest.raises(ValueError, match="Several columns are called 'w'; give one of the names 'w', 'w \\(3\\)'"):
        D.dataset_from_csv(text, label_column="w")


def test_feature_columns_selects_in_the_given_order(table):
    want = ["drag", "weight, kg", 'c"q,d']
    ds = D.dataset_from_csv(table, feature_columns=want, standardize=True)
    assert ds.feature_names == tuple(want) and ds.params["feature_columns"] == tuple(want)
    X, _ = _pandas_reference(table, want)
    np.testing.assert_allclose(ds.X, (X - X.mean(axis=0)) / X.std(axis=0), rtol=0, atol=1e-12)
    # a row missing only an unchosen feature is kept
    assert ds.X.shape[0] == len(pd.read_csv(io.BytesIO(table)).dropna(subset=want))
    left_out = [n for n in ds.notes if n.startswith("Left out")]  # the text column still named
    assert len(left_out) == 1 and "'Name' (text" in left_out[0] and "mpg" not in left_out[0]


@pytest.mark.parametrize("columns, pattern", [
    (["Name"], r"Feature column 'Name' holds text \('.*' at line \d+\); feature columns must hold numbers"),
    (["mpg", "nope"], r"Unknown feature column 'nope'; the columns are: Name, mpg"),
    (["mpg", "origin"], r"'origin' is the label column"),
    (["mpg", "mpg"], r"'mpg' is chosen twice"),
    ([], r"feature_columns is empty"),
    ("mpg", r"feature_columns must be a list of column names"),
])
def test_bad_feature_columns_are_clear_errors(table, columns, pattern):
    with pytest.raises(ValueError, match=pattern):
        D.dataset_from_csv(table, feature_columns=columns)


def test_two_of_the_classes(table):
    ds = D.dataset_from_csv(table, classes=("Japan", "USA"), standardize=True)
    assert ds.classes == ("Japan", "USA") and not ds.is_multiclass
    X, labels = _pandas_reference(table, FEATURES, classes=("Japan", "USA"))
    np.testing.assert_allclose(ds.X, (X - X.mean(axis=0)) / X.std(axis=0), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(ds.y, np.where(labels == "USA", 1.0, -1.0))
    assert ds.params["classes"] == ("Japan", "USA") and ds.params["one_vs_rest"] is None
    note = [n for n in ds.notes if n.startswith("Two of the classes")][0]
    assert "Japan (−1" in note and "USA (+1" in note and "rows of Europe" in note
    swapped = D.dataset_from_csv(table, classes=("USA", "Japan"))
    np.testing.assert_array_equal(swapped.y, -np.where(labels == "USA", 1.0, -1.0))


def test_one_class_against_the_rest(table):
    ds = D.dataset_from_csv(table, one_vs_rest="Japan")
    X, labels = _pandas_reference(table, FEATURES)
    np.testing.assert_array_equal(ds.X, X)
    np.testing.assert_array_equal(ds.y, np.where(labels == "Japan", 1.0, -1.0))
    assert ds.class_names == ("not Japan", "Japan") and ds.sign_note == "+1 = Japan, −1 = not Japan"
    assert ds.params["one_vs_rest"] == "Japan" and ds.params["classes"] is None
    assert any(n.startswith("One class against the rest: Japan (+1") for n in ds.notes)


def test_numeric_labels_are_chosen_by_value_or_text():
    rows = "".join(f"{i / 7},{i % 3 + 1}\n" for i in range(60))
    by_value = D.dataset_from_csv("x,label\n" + rows, classes=(3, 1))
    by_text = D.dataset_from_csv("x,label\n" + rows, classes=("3", "1"))
    assert by_value.classes == (3, 1) == by_text.classes
    np.testing.assert_array_equal(by_value.y, by_text.y)
    assert D.dataset_from_csv("x,label\n" + rows, one_vs_rest=2).class_names == ("not class 2", "class 2")


def test_a_rare_class_left_out_is_no_error():
    rows = "".join(f"{i / 7},{'ab'[i % 2]}\n" for i in range(40)) + "0.5,c\n"
    with pytest.raises(ValueError, match=r"at least 2 points.*'c' \(1\)"):
        D.dataset_from_csv("x,label\n" + rows)
    assert D.dataset_from_csv("x,label\n" + rows, classes=("a", "b")).X.shape == (40, 1)


def test_min_class_rows_lists_a_class_of_one_row_for_the_choice():
    rows = "".join(f"{i / 7},{'ab'[i % 2]}\n" for i in range(40)) + "0.5,c\n"
    ds = D.dataset_from_csv("x,label\n" + rows, min_class_rows=1)
    assert ds.classes == ("a", "b", "c") and np.bincount(ds.y.astype(int)).tolist() == [20, 20, 1]
    with pytest.raises(ValueError, match=r"at least 3 points.*'a' \(2\), 'b' \(2\), 'c' \(1\)"):
        D.dataset_from_csv("x,label\n0,a\n1,a\n2,b\n3,b\n4,c\n", min_class_rows=3)
    for bad in (0, -1, 1.5, True, "1", None):
        with pytest.raises(ValueError, match="min_class_rows must be an integer of at least 1"):
            D.dataset_from_csv("x,label\n" + rows, min_class_rows=bad)


@pytest.mark.parametrize("kwargs, pattern", [
    ({"classes": ("Japan", "Mars")}, r"Unknown class 'Mars' in classes; the classes are 'Europe', 'Japan', 'USA'"),
    ({"classes": ("Japan", "Japan")}, r"names 'Japan' twice"),
    ({"classes": "Japan"}, r"classes must be a pair \(A, B\)"),
    ({"classes": ("Japan", "USA", "Europe")}, r"classes must be a pair"),
    ({"one_vs_rest": "Mars"}, r"Unknown class 'Mars' in one_vs_rest"),
    ({"classes": ("Japan", "USA"), "one_vs_rest": "USA"}, r"not both"),
])
def test_bad_class_choices_are_clear_errors(table, kwargs, pattern):
    with pytest.raises(ValueError, match=pattern):
        D.dataset_from_csv(table, **kwargs)


def test_fewer_than_ten_rows_in_a_chosen_class_is_an_error():
    rows = "".join(f"{i / 7},{'a' if i < 30 else 'b' if i < 39 else 'c'}\n" for i in range(60))
    with pytest.raises(ValueError, match=r"Each chosen class needs at least 10 rows; the label column 'label' has "
                                         r"only b \(9\)\. Choose classes with more rows"):
        D.dataset_from_csv("x,label\n" + rows, classes=("a", "b"))
    assert D.dataset_from_csv("x,label\n" + rows, classes=("a", "c")).X.shape == (51, 1)
    with pytest.raises(ValueError, match=r"only b \(9\)"):
        D.dataset_from_csv("x,label\n" + rows, one_vs_rest="b")


@pytest.mark.parametrize("text, pattern", [
    ("name,label\n" + "".join(f"car {i},{'ab'[i % 2]}\n" for i in range(12)),
     r"no numeric feature column besides the label column 'label': 'name' \(text"),
    ("x,label\n" + "".join(f"{i},a\n" for i in range(12)), r"single class \('a'\)"),
])
def test_no_numeric_column_or_a_single_class_are_clear_errors(text, pattern):
    with pytest.raises(ValueError, match=pattern):
        D.dataset_from_csv(text)


def test_the_file_is_never_changed(tmp_path, table):
    path = tmp_path / "cars.csv"
    path.write_bytes(table)
    before = (hashlib.sha256(path.read_bytes()).hexdigest(), os.stat(path).st_mtime_ns)
    D.dataset_from_csv(path, one_vs_rest="USA", feature_columns=["mpg", "drag"], standardize=True,
                       missing="median")
    D.dataset_from_csv(str(path), classes=("Europe", "USA"))
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), os.stat(path).st_mtime_ns) == before
    assert sorted(os.listdir(tmp_path)) == ["cars.csv"]


def test_params_repeat_the_load(table):
    ds = D.dataset_from_csv(table, feature_columns=["mpg", "drag"], one_vs_rest="Europe")
    p = ds.params
    again = D.dataset_from_csv(table, label_column=p["label_column"], feature_columns=list(p["feature_columns"]),
                               classes=p["classes"], one_vs_rest=p["one_vs_rest"])
    np.testing.assert_array_equal(again.X, ds.X)
    np.testing.assert_array_equal(again.y, ds.y)


# ------------------------------------------------------------------ select_classes on any data set
def test_select_classes_on_iris_matches_a_direct_selection():
    iris = D.iris()
    two = D.select_classes(iris, classes=("virginica", "versicolor"))
    a, b = iris.classes.index("virginica"), iris.classes.index("versicolor")
    keep = (iris.y == a) | (iris.y == b)
    np.testing.assert_array_equal(two.X, iris.X[keep])
    np.testing.assert_array_equal(two.y, np.where(iris.y[keep] == b, 1.0, -1.0))
    assert two.class_names == ("virginica", "versicolor") and two.params["classes"] == ("virginica", "versicolor")
    ovr = D.select_classes(iris, one_vs_rest="setosa")
    assert ovr.class_names == ("not setosa", "setosa") and ovr.params["one_vs_rest"] == "setosa"
    np.testing.assert_array_equal(ovr.X, iris.X)
    assert D.select_classes(iris) is iris


def test_select_classes_drops_the_truth_of_all_classes():
    three = D.make_dataset("esl_mixture3", n=90, seed=1)
    assert three.p_true is not None
    two = D.select_classes(three, classes=(three.classes[0], three.classes[2]))
    assert two.p_true is None and two.test_sample is None and two.bayes_error is None
    assert two.params["n"] == three.params["n"] and two.params["seed"] == 1  # the generator's call, unchanged


def test_select_classes_on_two_classes_swaps_or_keeps():
    ds = D.make_dataset("banana", n=60, seed=0)
    swapped = D.select_classes(ds, classes=(ds.classes[1], ds.classes[0]))
    np.testing.assert_array_equal(swapped.y, -ds.y)
    same = D.select_classes(ds, one_vs_rest=ds.classes[1])
    np.testing.assert_array_equal(same.y, ds.y)
    assert same.classes == ds.classes  # the other class keeps its own name
    with pytest.raises(ValueError, match="needs a svmviz.data.Dataset"):
        D.select_classes(ds.X, classes=(0, 1))


@settings(max_examples=40, deadline=None)
@given(labels=st.lists(st.sampled_from("pqrs"), min_size=40, max_size=80), data=st.data())
def test_select_classes_keeps_exactly_the_chosen_rows(labels, data):
    counts = {c: labels.count(c) for c in set(labels)}
    names = sorted(counts)
    assume(len(names) >= 3)
    a, b = data.draw(st.permutations(names))[:2]
    text = "x,label\n" + "".join(f"{i},{c}\n" for i, c in enumerate(labels))
    if min(counts[a], counts[b]) < D.MIN_ROWS_PER_CHOSEN_CLASS:
        with pytest.raises(ValueError, match="at least 10 rows"):
            D.dataset_from_csv(text, classes=(a, b))
        return
    ds = D.dataset_from_csv(text, classes=(a, b))
    rows = [i for i, c in enumerate(labels) if c in (a, b)]
    np.testing.assert_array_equal(ds.X[:, 0], rows)
    np.testing.assert_array_equal(ds.y, [1.0 if labels[i] == b else -1.0 for i in rows])
    sel = D.select_classes(D.dataset_from_csv(text), classes=(a, b))
    np.testing.assert_array_equal(sel.X, ds.X)
    np.testing.assert_array_equal(sel.y, ds.y)


@settings(max_examples=300, deadline=None)
@given(cells=st.lists(st.text(alphabet="0123456789.,eE+-_ainfINF x?", min_size=1, max_size=8), min_size=1,
                      max_size=20), decimal=st.sampled_from([".", ","]))
def test_the_vectorised_number_test_agrees_with_the_cell_by_cell_one(cells, decimal):
    from svmviz.data.csv_upload import _is_number, _numbers_mask

    np.testing.assert_array_equal(_numbers_mask(pd.Series(cells), decimal), [_is_number(c, decimal) for c in cells])
