"""The data sidebar with a table as a user brings it (a text column, 6 features on very different scales,
3 named classes, empty cells, names with commas and quotes): column roles, the class choice, notes,
bad input, the link, and the generated code — as a person uses the pages (the session's stored upload,
since AppTest cannot upload a file)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.data.own_table import own_table_csv

from ..apptest_utils import assert_clean
from .codeview_utils import Downloads, check_reproduces, code_of, open_page

LOSS = "2_Loss_functions.py"
TUNING = "1_Tuning_criteria.py"
IVM = "5_Import_vector_machine.py"
UPLOAD = "Upload CSV…"
FILE = "cars, \"2024\".csv"
CONTENT = own_table_csv()
HEADER = ["Name", "mpg", "cylinders", "weight, kg", 'c"q,d', "acceleration", "drag", "origin"]


def _shared(**extra):
    return {"data": UPLOAD, "upload": (FILE, CONTENT), **extra}


def _infos(at):
    return [i.value for i in at.sidebar.info]


def _errors(at):
    return [e.value for e in at.error]


def _caption_of_points(at):
    return [c.value for c in at.sidebar.caption if " points, " in c.value]


def test_a_text_column_is_left_out_and_three_classes_are_chosen_from(tmp_path):
    at = open_page(LOSS, {}, shared=_shared(standardize=False))
    assert not _errors(at), _errors(at)
    assert any("Left out 1 column" in i and "'Name'" in i for i in _infos(at))
    feats = at.sidebar.multiselect(key="loss_feats")
    assert [HEADER[j] for j in feats.value] == HEADER[1:7]
    assert feats.options == HEADER[:7]
    mode = at.sidebar.radio(key="loss_clsmode")
    assert mode.value == "pair"
    assert at.sidebar.selectbox(key="loss_clsa").value == "Europe"
    assert at.sidebar.selectbox(key="loss_clsb").value == "Japan"
    assert _caption_of_points(at) and "Europe: " in _caption_of_points(at)[0] and "Japan: " in _caption_of_points(at)[0]
    # unstandardised features whose spreads differ about 10⁴-fold: the note says so and what to do
    spread = [i for i in _infos(at) if "spreads differ" in i]
    assert len(spread) == 1 and "'weight, kg'" in spread[0] and "'drag'" in spread[0] and "Standardize" in spread[0]
    at.sidebar.checkbox(key="loss_std").check().run()
    assert not any("spreads differ" in i for i in _infos(at))
    # one class against the rest: every row, named sides
    at.sidebar.radio(key="loss_clsmode").set_value("rest").run()
    at.sidebar.selectbox(key="loss_clsone").set_value("Japan").run()
    assert_clean(at)
    assert not _errors(at)
    caption = _caption_of_points(at)[0]
    assert caption.startswith("114 points") and "not Japan: " in caption and "Japan: " in caption


def test_feature_columns_and_the_class_choice_reach_the_link_and_the_code():
    at = open_page(LOSS, {}, shared=_shared(standardize=True))
    at.sidebar.multiselect(key="loss_feats").set_value([1, 3, 4]).run()
    at.sidebar.radio(key="loss_clsmode").set_value("rest").run()
    at.sidebar.selectbox(key="loss_clsone").set_value("USA").run()
    assert_clean(at)
    assert at.query_params["feat"] == "1,3,4" and at.query_params["cls"] == "rest"
    assert at.query_params["c1"] == "USA"
    code = code_of(at)
    assert "feature_columns=[\"mpg\", \"weight, kg\", 'c\"q,d']" in code and 'one_vs_rest="USA"' in code
    # the link opened in a new session with the same file: the same roles and classes
    query = {k: at.query_params[k] for k in at.query_params}
    again = open_page(LOSS, query, shared={"upload": (FILE, CONTENT)})
    assert again.sidebar.selectbox(key="loss_data").value == UPLOAD
    assert list(again.sidebar.multiselect(key="loss_feats").value) == [1, 3, 4]
    assert again.sidebar.radio(key="loss_clsmode").value == "rest"
    assert again.sidebar.selectbox(key="loss_clsone").value == "USA"
    assert code_of(again) == code


def test_the_generated_code_reproduces_a_view_of_two_of_the_classes(tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(TUNING, {"res": "6", "n": "40", "feat": "1,3,6", "cls": "pair", "ca": "USA", "cb": "Japan"},
                   shared=_shared(standardize=True))
    assert not _errors(at), _errors(at)
    text = check_reproduces(at, dl, tmp_path, "tuning", {FILE: CONTENT})
    assert 'feature_columns=["mpg", "weight, kg", "drag"]' in text and 'classes=("USA", "Japan")' in text


def test_a_class_with_too_few_rows_is_an_error_and_the_controls_stay_usable():
    rng = np.random.default_rng(0)
    rows = [f"{rng.normal():.4f},{rng.normal():.4f},{c}" for c in ["a"] * 30 + ["b"] * 25 + ["c"] * 6]
    content = ("u,v,kind\n" + "\n".join(rows) + "\n").encode()
    at = open_page(LOSS, {}, shared={"data": UPLOAD, "upload": ("few.csv", content)})
    at.sidebar.selectbox(key="loss_clsb").set_value("c").run()
    errors = _errors(at)
    assert len(errors) == 1 and "at least 10 rows" in errors[0] and "c (6)" in errors[0] and "few.csv" in errors[0]
    at.sidebar.selectbox(key="loss_clsb").set_value("b").run()
    assert_clean(at)
    assert not _errors(at) and _caption_of_points(at)[0].startswith("55 points")


@pytest.mark.parametrize("content, says", [
    (b"name,kind\n" + b"".join(f"car {i},{'ab'[i % 2]}\n".encode() for i in range(20)), "no numeric feature column"),
    (b"x,kind\n" + b"".join(f"{i},a\n".encode() for i in range(20)), "single class"),
])
def test_a_table_without_numbers_or_with_one_class_says_what_to_change(content, says):
    at = open_page(LOSS, {}, shared={"data": UPLOAD, "upload": ("bad.csv", content)})
    errors = _errors(at)
    assert len(errors) == 1 and says in errors[0] and "bad.csv" in errors[0]
    label = at.sidebar.selectbox(key="loss_labelcol")
    assert label.options == ["name", "kind"] or label.options == ["x", "kind"]
    at.sidebar.radio(key="loss_missing").set_value("median").run()  # still usable
    assert_clean(at)


def test_shipped_iris_gets_the_same_class_choice():
    at = open_page(LOSS, {"data": "iris", "cls": "rest", "c1": "virginica"})
    assert not _errors(at), _errors(at)
    assert at.sidebar.selectbox(key="loss_clsone").value == "virginica"
    assert _caption_of_points(at)[0].startswith("150 points") and "not virginica: 100" in _caption_of_points(at)[0]
    assert "svmviz.data.select_classes(ds, one_vs_rest=\"virginica\")" in code_of(at)


def test_the_multiclass_page_keeps_every_class():
    at = open_page(IVM, {"i_tab": "λ path"}, shared=_shared(standardize=True))
    assert not _errors(at), _errors(at)
    assert all(r.key != "ivm_clsmode" for r in at.sidebar.radio)
    caption = _caption_of_points(at)[0]
    assert all(f"{c}: " in caption for c in ("USA", "Europe", "Japan"))
