"""The Import vector machine page's lazy tabs in the shared link: the open tab changes the view (only
it computes and draws), so it is in the link like every other control — a link to the λ path opens
on the λ path, and opening a tab writes it to the URL."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.apptest_utils import assert_clean, figure_titles, page_path

PAGE = page_path("5_Import_vector_machine.py")


def _open(**params) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["i_nlams"] = "11"
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    return at


def test_a_link_to_the_lambda_path_tab_opens_it():
    at = _open(i_tab="λ path")
    titles = figure_titles(at)
    assert titles and titles[0].startswith("Tuning misclassification"), titles
    assert at.query_params["i_tab"] == "λ path"


def test_opening_a_tab_puts_it_in_the_link_and_a_bad_one_falls_back():
    at = _open()
    assert at.query_params["i_tab"] == "Import points vs SVM"
    at.session_state["ivm_tab"] = "Multi-class"
    at.run()
    assert_clean(at)
    assert at.query_params["i_tab"] == "Multi-class"
    assert any(t.startswith("Multi-class IVM") for t in figure_titles(at))
    at = _open(i_tab="no such tab")
    assert at.query_params["i_tab"] == "Import points vs SVM"
    assert [t.split(":")[0] for t in figure_titles(at)[:2]] == ["IVM", "SVM"]


def test_multiclass_data_link_to_their_lambda_path():
    at = _open(data="esl_mixture3", i_tab="λ path")
    assert any(t.startswith("Tuning misclassification") for t in figure_titles(at)), figure_titles(at)
    assert at.query_params["i_tab"] == "λ path"
