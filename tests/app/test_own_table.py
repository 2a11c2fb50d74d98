"""The data sidebar with a table as a user brings it (a text column, 6 features on very different scales,
3 named classes, empty cells, names with commas and quotes): column roles, the class choice, notes,
bad input, the link, and the generated code — as a person uses the pages (the session's stored upload,
since AppTest cannot upload a file)."""
from __future__ import annotations

import numpy as np
import pytest

from tests.data.own_table import own_table_csv, own_table_frame

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
    assert feats.options == HEADER[1:7]  # the numeric columns
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


PATH = "3_Regularization_path.py"


@pytest.mark.parametrize("page_file, page, query, says", [
    (TUNING, "tuning", {"res": "6", "cls": "pair", "ca": "USA", "cb": "Japan", "map_x": "drag", "map_y": "mpg"},
     ['classes=("USA", "Japan")', "kind=\"features\", axes=(2, 0)"]),
    (PATH, "path", {"ploo": "0", "cls": "rest", "c1": "Japan", "map": "components"},
     ['one_vs_rest="Japan"', 'kind="components"']),
    (IVM, "ivm", {"i_nlams": "11", "i_ntune": "50", "map_x": "weight, kg", "map_y": "drag"},
     ["kind=\"features\", axes=(1, 2)"]),
])
def test_the_generated_code_reproduces_a_view_of_chosen_columns_classes_and_map_axes(page_file, page, query, says,
                                                                                    tmp_path, monkeypatch):
    dl = Downloads(monkeypatch)
    at = open_page(page_file, {"n": "40", "feat": "1,3,6"} | query, shared=_shared(standardize=True))
    assert_clean(at)
    assert not _errors(at), _errors(at)
    text = check_reproduces(at, dl, tmp_path, page, {FILE: CONTENT})
    assert 'feature_columns=["mpg", "weight, kg", "drag"]' in text
    for s in says:
        assert s in text, (s, text)


def test_a_class_with_too_few_rows_is_an_error_and_the_controls_stay_usable():
    rng = np.random.default_rng(0)
    rows = [f"{rng.normal():.4f},{rng.normal():.4f},{c}" for c in ["a"] * 30 + ["b"] * 25 + ["c"] * 6]
    content = ("u,v,kind\n" + "\n".join(rows) + "\n").encode()
    at = open_page(LOSS, {}, shared={"data": UPLOAD, "upload": ("few.csv", content), "standardize": False})
    assert not any("spreads differ" in i for i in _infos(at))  # unstandardised, but on one scale
    at.sidebar.selectbox(key="loss_clsb").set_value("c").run()
    errors = _errors(at)
    assert len(errors) == 1 and "at least 10 rows" in errors[0] and "c (6)" in errors[0] and "few.csv" in errors[0]
    at.sidebar.selectbox(key="loss_clsb").set_value("b").run()
    assert_clean(at)
    assert not _errors(at) and _caption_of_points(at)[0].startswith("55 points")


def test_a_class_of_one_row_leaves_the_choice_of_the_other_two():
    rng = np.random.default_rng(1)
    rows = [f"{rng.normal():.4f},{rng.normal():.4f},{c}" for c in ["a"] * 20 + ["b"] * 15 + ["lone"]]
    content = ("u,v,kind\n" + "\n".join(rows) + "\n").encode()
    at = open_page(LOSS, {}, shared={"data": UPLOAD, "upload": ("lone.csv", content)})
    assert at.sidebar.selectbox(key="loss_clsa").options == ["a (20 rows)", "b (15 rows)", "lone (1 rows)"]
    assert_clean(at)
    assert not _errors(at), _errors(at)
    assert _caption_of_points(at)[0].startswith("35 points") and "a: 20" in _caption_of_points(at)[0]
    at.sidebar.radio(key="loss_clsmode").set_value("rest").run()
    at.sidebar.selectbox(key="loss_clsone").set_value("lone").run()  # one row against the rest: said, not run
    errors = _errors(at)
    assert len(errors) == 1 and "at least 10 rows" in errors[0] and "lone (1)" in errors[0], errors


@pytest.mark.parametrize("page", [TUNING, IVM])
def test_a_two_class_table_with_fewer_than_ten_rows_in_a_class_says_what_to_change(page):
    rng = np.random.default_rng(2)
    rows = [f"{rng.normal():.4f},{rng.normal():.4f},{c}" for c in ["yes"] * 30 + ["no"] * 7]
    content = ("u,v,answer\n" + "\n".join(rows) + "\n").encode()
    at = open_page(page, {"i_nlams": "11"} if page == IVM else {"res": "6"},
                   shared={"data": UPLOAD, "upload": ("small.csv", content)})
    assert_clean(at)
    errors = _errors(at)
    assert len(errors) == 1, errors
    assert "small.csv" in errors[0] and "'no' has 7 rows" in errors[0] and "at least 10 rows per class" in errors[0]
    assert not at.get("plotly_chart")  # nothing fitted on too few rows
    key = "ivm" if page == IVM else "tuning"
    at.sidebar.radio(key=f"{key}_missing").set_value("median").run()  # the controls stay usable
    assert_clean(at)


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


def test_an_identifier_column_is_pointed_out_and_can_be_left_out():
    frame = own_table_frame()
    frame.insert(0, "car id", range(1001, 1001 + len(frame)))
    content = frame.to_csv(index=False).encode()
    at = open_page(LOSS, {}, shared={"data": UPLOAD, "upload": ("ids.csv", content)})
    flagged = [i for i in _infos(at) if i.startswith("Looks like an identifier")]
    assert len(flagged) == 1 and "'car id'" in flagged[0], _infos(at)
    feats = at.sidebar.multiselect(key="loss_feats")
    assert feats.options[0] == "car id"
    feats.set_value([j for j in feats.value if j != 0]).run()  # the positions in the header: "car id" first
    assert_clean(at)
    assert not any(i.startswith("Looks like an identifier") for i in _infos(at))
    assert "car id" not in code_of(at).split("feature_columns=")[1].split("]")[0]
