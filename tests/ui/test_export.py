"""The app's CSV downloads read back with ``pandas.read_csv`` to the table written: names and text cells
holding commas, quotes, line breaks and any unicode; formula-like text (``= + - @``, tab, CR) written
with a leading ``'`` (OWASP's CSV-injection guidance), numbers as they are."""
from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from svmviz.ui.export import FORMULA_STARTS, csv_bytes, frame_csv, neutralise


def _read(data: bytes, text_columns) -> pd.DataFrame:
    """The file as a reader who knows which columns hold text reads it: those as str (empty text stays
    empty), the numeric ones with an empty cell as NaN."""
    head = pd.read_csv(io.BytesIO(data), nrows=0).columns
    numeric = [c for c in head if c not in text_columns]
    return pd.read_csv(io.BytesIO(data), dtype={c: str for c in text_columns}, keep_default_na=False,
                       na_values={c: [""] for c in numeric})


def test_names_with_commas_and_quotes_keep_every_value_under_its_header():
    """A header name holding a comma or a quote is one field, and every row has as many fields."""
    names = ["weight, kg", 'c"q,d', "x 1", "P(class, \"a\")", "P(b)", "predicted"]
    arrays = [np.array([1.5, -2.0]), np.array([0.25, 3.0]), np.array([1e-300, np.pi]),
              np.array([0.1, 0.9]), np.array([0.9, 0.1]), np.array(['say "hi", then', "b"])]
    back = _read(csv_bytes(names, arrays), ["predicted"])
    assert list(back.columns) == names
    for name, a in zip(names, arrays):
        np.testing.assert_array_equal(back[name].to_numpy(), a)


def test_formula_like_text_gets_a_leading_quote_and_numbers_stay():
    names = ["=HYPERLINK(\"http://evil\")", "+cmd|' /C calc'!A0", "@SUM(A1)", "-x", "\tlabel", "plain"]
    cells = np.array(["=1+1", "+1", "-1", "@a", "\rb", "-2.5e-3"])
    arrays = [cells, np.array([-1.0, 2, 3, 4, 5, 6]), np.array([-1, 1, -1, 1, -1, 1]), cells, cells, cells]
    back = _read(csv_bytes(names, arrays), [names[0], names[3], names[4], names[5]])
    assert list(back.columns) == ["'=HYPERLINK(\"http://evil\")", "'+cmd|' /C calc'!A0", "'@SUM(A1)", "'-x",
                                  "'\tlabel", "plain"]
    want = ["'=1+1", "+1", "-1", "'@a", "'\rb", "-2.5e-3"]
    assert back["plain"].tolist() == want
    np.testing.assert_array_equal(back["'+cmd|' /C calc'!A0"], [-1.0, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(back["'@SUM(A1)"], [-1, 1, -1, 1, -1, 1])


@pytest.mark.parametrize("cell, want", [("=A1", "'=A1"), ("+A1", "'+A1"), ("-A1", "'-A1"), ("@A1", "'@A1"),
                                        ("\tA1", "'\tA1"), ("\rA1", "'\rA1"), ("-", "'-"), ("-1", "-1"),
                                        ("+.5", "+.5"), ("-1e5", "-1e5"), ("-1+1", "'-1+1"), ("a=1", "a=1"),
                                        ("", ""), (-3.0, -3.0), (7, 7)])
def test_neutralise(cell, want):
    assert neutralise(cell) == want


def test_frame_csv_refuses_what_is_not_a_frame():
    with pytest.raises(TypeError, match="DataFrame"):
        frame_csv({"a": [1]})


def test_csv_bytes_refuses_columns_of_unequal_length_or_count():
    with pytest.raises(ValueError, match="same length"):
        csv_bytes(["a", "b"], [np.zeros(2), np.zeros(3)])
    with pytest.raises(ValueError, match="2 names for 1 columns"):
        csv_bytes(["a", "b"], [np.zeros(2)])


_HOSTILE = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12) | st.sampled_from(
    ["weight, kg", 'c"q,d', "a\nb", "a\r\nb", "=HYPERLINK(\"x\")", "+cmd|'/C calc'!A0", "-2+3", "@SUM(1)",
     "\tx", "\rx", "-1", "ü, ß", "'=already", "NA", "nan", "None", " "])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_names_and_labels_round_trip_through_read_csv(data):
    """Names and text labels of every kind come back exactly (after :func:`neutralise`), floats to the bit."""
    n_rows = data.draw(st.integers(1, 6))
    names = data.draw(st.lists(_HOSTILE.filter(lambda s: s != ""), min_size=2, max_size=5,
                               unique_by=lambda s: neutralise(s)))
    # a header name pandas would rename when reading (its "Unnamed: i" for a blank one) is not a test of the writer
    names = [s for s in names if s.strip() and not s.startswith("Unnamed")]
    if len(names) < 2:
        return
    floats = st.floats(allow_nan=True, allow_infinity=True, width=64)
    columns = {}
    for k, name in enumerate(names):
        if k % 2:
            columns[name] = np.array(data.draw(st.lists(floats, min_size=n_rows, max_size=n_rows)), dtype=float)
        else:
            columns[name] = np.array(data.draw(st.lists(_HOSTILE, min_size=n_rows, max_size=n_rows)), dtype=object)
    text = [neutralise(nm) for k, nm in enumerate(names) if not k % 2]
    back = _read(csv_bytes(names, list(columns.values())), text)
    assert list(back.columns) == [neutralise(nm) for nm in names]
    assert len(back) == n_rows
    for k, (name, values) in enumerate(columns.items()):
        got = back[neutralise(name)]
        if k % 2:
            np.testing.assert_array_equal(got.to_numpy(dtype=float), values)
        else:
            assert got.tolist() == [neutralise(v) for v in values]
            for g in got:  # a cell a spreadsheet could run is a plain number, nothing else
                assert not g.startswith(FORMULA_STARTS) or np.isfinite(float(g)), g


def test_frame_csv_writes_float32_as_the_same_float64():
    v = np.array([0.1, 1 / 3], dtype=np.float32)
    back = pd.read_csv(io.BytesIO(frame_csv(pd.DataFrame({"v": v}))))
    np.testing.assert_array_equal(back["v"].to_numpy(), v.astype(np.float64))


def test_every_download_button_of_the_app_leaves_the_page_as_it_is():
    """Every ``download_button`` call under ``svmviz/ui`` passes ``on_click="ignore"``. A download that
    reruns the page races its own file: Streamlit builds a deferred file (a callable ``data``) while the
    rerun starts, and the rerun's clearing of the session's outgoing queue can drop the file's reply,
    leaving the button spinning and disabled. Without the rerun there is nothing to race."""
    import ast
    import pathlib

    import svmviz.ui

    found = []
    for path in sorted(pathlib.Path(svmviz.ui.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "download_button":
                on_click = {k.arg: k.value for k in node.keywords}.get("on_click")
                ignored = isinstance(on_click, ast.Constant) and on_click.value == "ignore"
                found.append((f"{path.name}:{node.lineno}", ignored))
    assert len(found) >= 6, found  # the CSV helper, the path, the code panel's three, the study table's two
    assert all(ok for _, ok in found), [where for where, ok in found if not ok]
