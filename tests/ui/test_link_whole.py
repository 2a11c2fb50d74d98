"""A link is whole at once: before an upload it carries every setting, the settings apply once the file
arrives, and its numbers are written shortest-exact."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as hst

from svmviz.ui import url_state
from tests.apptest_utils import assert_clean, page_path, two_class_csv, url_of

TUNING = page_path("1_Tuning_criteria.py")
UPLOAD = "Upload CSV…"


@pytest.fixture(autouse=True)
def _fresh_caches():
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


def _tuning(query: dict):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(TUNING, default_timeout=300)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def test_choosing_upload_keeps_every_setting_in_the_link():
    at = _tuning({"res": "8", "lam_lo": "-4.5"})
    assert_clean(at)
    before = url_of(at)
    at.selectbox(key="tuning_data").select(UPLOAD).run()
    assert_clean(at)
    after = url_of(at)
    assert after["data"] == UPLOAD
    assert {k: v for k, v in after.items() if k != "data"} == {k: v for k, v in before.items() if k != "data"}


def test_a_link_opened_before_its_upload_keeps_its_settings_and_applies_them_when_the_file_arrives():
    link = {"data": UPLOAD, "res": "8", "lam_lo": "-4.5", "lam_hi": "-1.0", "std": "0", "na": "median",
            "mode": "standard"}
    at = _tuning(link)
    assert_clean(at)
    waiting = url_of(at)
    assert {k: waiting.get(k) for k in link} == link  # nothing lost while the page waits for the file
    at.session_state["_svmviz_shared"]["upload"] = ("mine.csv", two_class_csv())  # the file arrives
    at.run()
    assert_clean(at)
    assert at.slider(key="tuning_res").value == 8
    assert at.slider(key="tuning_lam").value == (-4.5, -1.0)
    assert at.checkbox(key="tuning_std").value is False
    assert at.radio(key="tuning_missing").value == "median"
    arrived = url_of(at)
    assert {k: arrived.get(k) for k in link} == link


def test_the_path_page_which_stops_for_its_upload_keeps_and_applies_its_settings():
    """The Regularization path page stops (``st.stop``) while its file is missing, where the Tuning page
    returns: the same link, the same settings once the file arrives."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(page_path("3_Regularization_path.py"), default_timeout=300)
    for k, v in {"data": "banana", "n": "60", "psigma": "2.0", "ploo": "0", "pxaxis": "nu"}.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    at.selectbox(key="path_data").select(UPLOAD).run()
    assert_clean(at)
    waiting = url_of(at)
    assert (waiting["data"], waiting["psigma"], waiting["ploo"], waiting["pxaxis"]) == (UPLOAD, "2.0", "0", "nu")
    at.session_state["_svmviz_shared"]["upload"] = ("mine.csv", two_class_csv())
    at.run()
    assert_clean(at)
    assert at.checkbox(key="path_loo").value is False
    assert at.radio(key="path_xaxis").value == "nu"
    # σ follows the data set when another is chosen (its default is the data's median distance)...
    assert at.select_slider(key="path_sigma").value != 2.0
    # ...but a link opened before its upload keeps the σ it names
    fresh = AppTest.from_file(page_path("3_Regularization_path.py"), default_timeout=300)
    for k, v in url_of(at).items():
        fresh.query_params[k] = v
    fresh.query_params["psigma"] = "2.0"
    fresh.run()
    assert_clean(fresh)
    assert url_of(fresh)["psigma"] == "2.0"
    fresh.session_state["_svmviz_shared"]["upload"] = ("mine.csv", two_class_csv())
    fresh.run()
    assert_clean(fresh)
    assert fresh.select_slider(key="path_sigma").value == 2.0
    assert (fresh.checkbox(key="path_loo").value, fresh.radio(key="path_xaxis").value) == (False, "nu")


def test_a_float_in_a_link_is_written_shortest():
    assert url_state.url_text(42.449999999999996) == "42.45"
    assert url_state.url_text(0.1 + 0.2) == "0.3"
    assert url_state.url_text((0.30000000000000004, -1.0)) == "0.3,-1.0"
    assert url_state.url_text(1e-7) == "1e-07"


@given(hst.floats(allow_nan=False, allow_infinity=False))
def test_a_float_round_trips_through_its_link_text(x):
    text = url_state.float_text(x)
    assert float(text) == float(f"{x:.{url_state.URL_DIGITS}g}")  # the rounded value, exactly
    assert len(text) <= len(repr(float(x)))  # never longer than the float's own repr
    assert math.isclose(float(text), x, rel_tol=10.0 ** (1 - url_state.URL_DIGITS), abs_tol=0.0)


@given(hst.integers(-10**11, 10**11), hst.integers(-12, 6))
def test_a_decimal_of_twelve_digits_round_trips_exactly(mantissa, exponent):
    x = float(f"{mantissa}e{exponent}")
    assert float(url_state.float_text(x)) == x
