"""The CSV loader on pandas: inputs that must not mislead silently, and the column names the UI offers.

Quotes, CRLF and empty rows, old Macintosh line ends, rows longer than the header and
``pick_delimiter`` guard what the loader must keep doing, with pitfalls of ``pandas.read_csv`` itself
— e.g. with ``index_col=False`` it cuts a row longer than the header with only a warning. The happy
and error paths of the loader are in ``tests/data/test_data.py``.
"""
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from svmviz import data as D


def _frame(n=6):
    rng = np.random.default_rng(3)
    return pd.DataFrame({"height": rng.normal(size=n), "weight": rng.normal(size=n) * 10,
                         "species": ["cat", "dog"] * (n // 2)})


# ------------------------------------------------------------------------------------------
# the row index DataFrame.to_csv() writes
# ------------------------------------------------------------------------------------------
def test_to_csv_index_column_is_dropped_with_a_note():
    df = _frame()
    ds = D.dataset_from_csv(df.to_csv())
    assert ds.feature_names == ("height", "weight")
    assert np.array_equal(ds.X, df[["height", "weight"]].to_numpy())  # exact: to_csv writes repr floats
    assert ds.classes == ("cat", "dog") and np.array_equal(ds.y, [-1, 1] * 3)
    assert len(ds.notes) == 1 and "Dropped the first column" in ds.notes[0] and "0 … 5" in ds.notes[0]
    assert ds.params["index_column"] == "column 1"
    # a shuffled index (after a train/test split) is an index too
    shuffled = df.sample(frac=1.0, random_state=1)
    ds2 = D.dataset_from_csv(shuffled.to_csv())
    assert ds2.feature_names == ("height", "weight") and "6 distinct row numbers" in ds2.notes[0]
    assert np.array_equal(ds2.X, shuffled[["height", "weight"]].to_numpy())
    # read back and written again: pandas names it "Unnamed: 0"
    again = pd.read_csv(io.StringIO(df.to_csv())).to_csv(index=False)
    assert D.dataset_from_csv(again).feature_names == ("height", "weight")


def test_a_named_or_non_integer_first_column_stays_a_feature():
    df = _frame()
    named = D.dataset_from_csv(df.rename_axis("id").to_csv())
    assert named.feature_names == ("id", "height", "weight")
    assert len(named.notes) == 1 and "identifier" in named.notes[0] and "'id'" in named.notes[0]
    assert np.array_equal(named.X[:, 0], np.arange(6))
    text = ",a,label\n0.5,1,x\n1.5,2,y\n2.5,3,x\n3.5,4,y\n"  # unnamed but not row numbers
    ds = D.dataset_from_csv(text)
    assert ds.feature_names == ("column 1", "a") and ds.notes == ()
    repeated = ",a,label\n0,1,x\n0,2,y\n1,3,x\n1,4,y\n"  # not distinct: a feature
    assert D.dataset_from_csv(repeated).feature_names == ("column 1", "a")
    # the index column itself chosen as the label: it is the label, not dropped
    two = D.dataset_from_csv(",a,b\n0,1,2\n1,2,3\n0,3,4\n1,4,5\n", label_column=0)
    assert two.feature_names == ("a", "b") and two.classes == (0, 1) and two.notes == ()


# ------------------------------------------------------------------------------------------
# trailing delimiters, decimal commas, comments, quotes, empty rows
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "a,b,label,\n1,2,x,\n3,4,y,\n5,6,x,\n7,8,y,\n",  # every line
    "a,b,label\n1,2,x,\n3,4,y,\n5,6,x,\n7,8,y,\n",  # the data lines only
    "1;2;x;\n3;4;y;\n5;6;x;\n7;8;y;\n",  # no header
])
def test_trailing_delimiter_adds_no_empty_label_column(text):
    ds = D.dataset_from_csv(text)
    assert ds.classes == ("x", "y") and ds.X.shape == (4, 2)
    assert np.array_equal(ds.X, [[1, 2], [3, 4], [5, 6], [7, 8]])


def test_a_value_in_the_trailing_empty_column_is_an_error_not_dropped():
    rows = "".join(f"{k},{k + 1},{'xy'[k % 2]},\n" for k in range(2000))  # beyond the sampled rows
    text = "a,b,label,\n" + rows + "7,8,x,oops\n"
    with pytest.raises(ValueError, match="Line 2002 has a value after the last column"):
        D.dataset_from_csv(text)


@pytest.mark.parametrize("text", [
    "a;b;label\n1,5;2,25;x\n2,5;3;y\n0,5;-1,75;x\n3,0;2,5e1;y\n",
    "1,5;2,25;x\n2,5;3;y\n0,5;-1,75;x\n3,0;2,5e1;y\n",  # no header: the numbers decide
    "a\tb\tlabel\n1,5\t2,25\tx\n2,5\t3\ty\n0,5\t-1,75\tx\n3,0\t2,5e1\ty\n",
])
def test_decimal_commas(text):
    ds = D.dataset_from_csv(text)
    assert np.array_equal(ds.X, [[1.5, 2.25], [2.5, 3.0], [0.5, -1.75], [3.0, 25.0]])
    assert ds.params["decimal"] == "," and any("decimal mark" in s for s in ds.notes)


def test_decimal_comma_file_with_a_decimal_point_names_the_cell():
    text = "a;b;label\n1,5;2,25;x\n2,5;3,5;y\n0,5;2.5;x\n3,0;1,5;y\n"
    ds = D.dataset_from_csv(text)
    assert ds.feature_names == ("a",)
    assert any("decimal mark" in s for s in ds.notes)
    assert any("'b' (numbers mixed with text, e.g. '2.5' at line 4)" in s for s in ds.notes)
    with pytest.raises(ValueError, match=r"Feature column 'b' mixes numbers and text \('2\.5' at line 4\)"):
        D.dataset_from_csv(text, feature_columns=["a", "b"])


def test_comment_lines():
    text = "# measured in 2024\n# units: cm, kg\nheight,weight,label\n1,2,C#\n  # a note\n3,4,F#\n5,6,C#\n7,8,F#\n"
    ds = D.dataset_from_csv(text)
    assert ds.feature_names == ("height", "weight") and ds.classes == ("C#", "F#")  # '#' inside a cell is data
    assert np.array_equal(ds.X, [[1, 2], [3, 4], [5, 6], [7, 8]])
    with pytest.raises(ValueError, match="Feature column 'weight' mixes numbers and text \\('oops' at line 6\\)"):
        D.dataset_from_csv("# c\nheight,weight,label\n1,2,x\n\n# c\n3,oops,y\n5,6,x\n7,8,y\n",
                           feature_columns=["height", "weight"])


def test_quotes_crlf_spaces_and_rows_of_empty_cells():
    text = 'a, b ,label\r\n"1", 2 ,"x,1"\r\n,,\r\n3,4, y \r\n;;\r\n5,6,"x,1"\r\n7,8,y\r\n'
    # ";;" is a one-cell row for ',' files: it is a ragged row, reported with its line
    with pytest.raises(ValueError, match="Line 5 has 1 cells, fewer"):
        D.dataset_from_csv(text)
    ds = D.dataset_from_csv(text.replace(";;\r\n", ",,\r\n"))
    assert ds.feature_names == ("a", "b") and ds.classes == ("x,1", "y")
    assert np.array_equal(ds.X, [[1, 2], [3, 4], [5, 6], [7, 8]])


def test_old_macintosh_line_ends():
    ds = D.dataset_from_csv(b"a,b,label\r1,2,x\r3,4,y\r5,6,x\r7,8,y\r")
    assert ds.X.shape == (4, 2) and ds.classes == ("x", "y")


def test_rows_longer_than_the_header_are_errors_not_cut():
    # pandas with index_col=False would drop the 4th cell with only a warning
    with pytest.raises(ValueError, match="Line 3 has 4 cells, more"):
        D.dataset_from_csv("a,b,label\n1,2,x\n3,4,y,9\n4,5,x\n6,7,y\n")


@pytest.mark.parametrize("text", [",,,\n,,,\n", ";;\n;;\n;;\n", " ; ;\n", ",\n"])
def test_a_file_of_only_delimiters_is_a_clear_error(text):
    with pytest.raises(ValueError, match="only delimiters"):
        D.dataset_from_csv(text)


def test_labels_with_spaces_and_bools_and_numeric_text():
    ds = D.dataset_from_csv("a,label\n1, yes\n2,no \n3,yes\n4,no\n")
    assert ds.classes == ("no", "yes") and np.array_equal(ds.y, [1, -1, 1, -1])
    b = D.dataset_from_csv("a,label\n1,True\n2,False\n3,True\n4,False\n")
    assert b.classes == ("False", "True")
    with pytest.raises(ValueError, match="no numeric feature column .*'a' \\(text, e.g. 'True' at line 2\\)"):
        D.dataset_from_csv("a,label\nTrue,1\nFalse,2\nTrue,1\nFalse,2\n")
    with pytest.raises(ValueError, match="'a' \\(numbers mixed with text, e.g. '1_0' at line 2\\)"):
        D.dataset_from_csv("a,label\n1_0,1\n2,2\n3,1\n4,2\n")


# ------------------------------------------------------------------------------------------
# label columns that are not classes
# ------------------------------------------------------------------------------------------
def test_continuous_label_column_gives_a_short_message():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.normal(size=150), "b": rng.normal(size=150), "y": rng.normal(size=150)})
    with pytest.raises(ValueError, match="continuous") as err:
        D.dataset_from_csv(df.to_csv(index=False))
    assert len(str(err.value)) < 400 and "150 different values" in str(err.value)
    with pytest.raises(ValueError, match="continuous") as err:  # fewer values than the class bound
        D.dataset_from_csv(df.head(30).to_csv(index=False))
    assert len(str(err.value)) < 400
    ids = pd.DataFrame({"a": np.arange(120.0), "id": np.arange(120)})
    with pytest.raises(ValueError, match="120 different values.*identifier") as err:
        D.dataset_from_csv(ids.to_csv(index=False))
    assert len(str(err.value)) < 400


def test_few_points_message_lists_at_most_five_classes():
    labels = ["a", "a", "b", "b"] + [f"c{k}" for k in range(20)]
    text = "x,label\n" + "".join(f"{k},{lab}\n" for k, lab in enumerate(labels))
    with pytest.raises(ValueError, match=r"at least 2 points.*'c0' \(1\).*and 15 more") as err:
        D.dataset_from_csv(text)
    assert len(str(err.value)) < 300


# ------------------------------------------------------------------------------------------
# csv_header: the label choices of the UI
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, names", [
    ("height,weight,species\n1,2,cat\n3,4,dog\n", ["height", "weight", "species"]),
    (",height,species\n0,1,cat\n1,3,dog\n", ["height", "species"]),  # to_csv index
    ("a;b;label;\n1,5;2;x;\n", ["a", "b", "label"]),  # trailing delimiter, decimal comma
    ("# units\n\na\tb\tlabel\n1\t2\tx\n", ["a", "b", "label"]),
    ("a,,label\n1,2,x\n", ["a", "column 2", "label"]),
    ("0.5,2,a\n1.5,3,b\n", ["column 1", "column 2", "column 3"]),  # no header
    ("", []),
    (",,\n,,\n", []),
    ("label\nx\ny\n", []),
])
def test_csv_header(text, names):
    assert D.csv_header(text.encode()) == names


def test_every_csv_header_name_is_a_label_column():
    rows = ["1,0,0", "0,1,1", "1,1,0", "0,0,1"]  # every column can be the label (two classes, 2 points each)
    texts = [
        "p,q,r\n" + "\n".join(rows),
        ",p,q,r\n" + "\n".join(f"{k},{r}" for k, r in enumerate(rows)),  # to_csv index: not a choice
        "p,,r\n" + "\n".join(rows),
        "\n".join(r.replace(",", ";") for r in rows),  # no header
        "p;q;r;\n" + "\n".join(r.replace(",", ";") + ";" for r in rows),
    ]
    for text in texts:
        names = D.csv_header(text.encode())
        assert len(names) == 3
        for j, name in enumerate(names):
            ds = D.dataset_from_csv(text, label_column=name)
            assert ds.X.shape == (4, 2) and ds.classes == (0, 1)
            assert ds.params["label_column"] == (name if ds.params["header"] else "label")
            assert np.array_equal(ds.y, [1.0 if r.split(",")[j] == "1" else -1.0 for r in rows])


def test_pick_delimiter():
    assert D.pick_delimiter("a,b,c") == ","
    assert D.pick_delimiter("a;b;c\n1,5;2;x") == ";"
    assert D.pick_delimiter("a\tb\tc,d\n1\t2\tx,y\n") == "\t"
    assert D.pick_delimiter("# a;b;c;d;e\na,b,c\n1,2,x\n") == ","  # comments do not vote
    assert D.pick_delimiter("abc") == ","


# ------------------------------------------------------------------------------------------
# round trip through pandas
# ------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(
    X=hnp.arrays(np.float64, st.tuples(st.integers(4, 12), st.integers(1, 4)),
                 elements=st.floats(allow_nan=False, allow_infinity=False, width=64)),
    index=st.booleans(),
    sep=st.sampled_from([",", ";", "\t"]),
    data=st.data(),
)
def test_round_trip_of_dataframe_to_csv(X, index, sep, data):
    n = X.shape[0]
    pattern = data.draw(st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n).filter(
        lambda v: 2 <= v.count("a") <= n - 2))
    df = pd.DataFrame(X, columns=[f"f{j}" for j in range(X.shape[1])]).assign(label=pattern)
    ds = D.dataset_from_csv(df.to_csv(index=index, sep=sep))
    assert np.array_equal(ds.X, X)  # exact
    assert ds.feature_names == tuple(df.columns[:-1])
    assert np.array_equal(ds.y, np.where(np.array(pattern) == "b", 1.0, -1.0))
    # the notes: the dropped index (when written), and a feature column of ten or more distinct
    # integers pointed out as a possible identifier
    dropped = [t for t in ds.notes if t.startswith("Dropped the first column")]
    flagged = [t for t in ds.notes if t.startswith("Looks like an identifier")]
    ids = [j for j in range(X.shape[1])
           if n >= 10 and np.all(X[:, j] == np.round(X[:, j])) and np.unique(X[:, j]).size == n]
    assert len(dropped) == index
    assert len(flagged) == (len(ids) > 0)
    assert all(f"'f{j}' (all its values are distinct integers)" in flagged[0] for j in ids)
    assert len(ds.notes) == len(dropped) + len(flagged)


@pytest.mark.parametrize("index", [False, True])
def test_round_trip_notes_a_feature_of_distinct_integers_as_a_possible_identifier(index):
    df = pd.DataFrame({"f0": np.arange(10.0, 0.0, -1.0), "f1": np.linspace(0.0, 1.0, 10), "label": list("ababababab")})
    ds = D.dataset_from_csv(df.to_csv(index=index))
    assert np.array_equal(ds.X, df[["f0", "f1"]].to_numpy()) and ds.feature_names == ("f0", "f1")
    assert [t.startswith("Dropped the first column") for t in ds.notes] == [True] * index + [False]
    assert "'f0' (all its values are distinct integers)" in ds.notes[-1] and "'f1'" not in ds.notes[-1]
