"""A link's value beyond a control's range takes the nearest limit — never the default — and a note beside
the control says so; a value within the range, or one that is no value of the control at all, says nothing."""
from __future__ import annotations

import os

from streamlit.testing.v1 import AppTest

from tests.apptest_utils import assert_clean, page_path

APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "link_clamp_app.py")


def _open(query: dict, path: str = APP, timeout: float = 60) -> AppTest:
    at = AppTest.from_file(path, default_timeout=timeout)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def _notes(at) -> list[str]:
    return list(at.info.values)  # the sidebar's as well


def test_values_beyond_the_range_take_the_nearest_limit_with_a_note():
    at = _open({"res": "1000000", "sig_lo": "-7", "sig_hi": "0.5", "seed": "-3", "lam": "50"})
    assert_clean(at)
    assert at.sidebar.slider(key="res").value == 40
    assert at.slider(key="sig").value == (-2.0, 0.5)
    assert at.number_input(key="seed").value == 0
    assert at.select_slider(key="lam").value == 1.0
    notes = _notes(at)
    assert any("res = 1000000" in n and "“Grid points per axis”" in n and "nearest limit, 40" in n
               for n in at.sidebar.info.values), notes
    assert any("sig_lo = -7, sig_hi = 0.5" in n and "-2.0, 0.5" in n for n in notes), notes
    assert any("seed = -3" in n and "nearest limit, 0" in n for n in notes), notes
    assert any("lam = 50" in n and "nearest limit, 1.0" in n for n in notes), notes
    assert at.query_params["res"] == "40" and at.query_params["seed"] == "0"


def test_values_below_the_range_take_the_lower_limit():
    at = _open({"res": "2", "lam": "1e-9"})
    assert at.sidebar.slider(key="res").value == 6
    assert at.select_slider(key="lam").value == 0.001
    assert len(_notes(at)) == 2


def test_values_within_the_range_or_not_values_at_all_say_nothing():
    at = _open({"res": "33", "sig_lo": "-1.5", "sig_hi": "1.5", "seed": "7", "lam": "0.01", "kernel": "poly"})
    assert (at.sidebar.slider(key="res").value, at.slider(key="sig").value) == (33, (-1.5, 1.5))
    assert not _notes(at)
    at = _open({"res": "many", "kernel": "sigmoid", "lam": "0.05"})
    assert at.sidebar.slider(key="res").value == 20  # no number: the default
    assert at.selectbox(key="kernel").value == "rbf" and at.select_slider(key="lam").value == 0.1
    assert not _notes(at)


def test_the_note_shows_only_while_the_link_speaks():
    at = _open({"res": "1000000"})
    assert _notes(at)
    at.sidebar.slider(key="res").set_value(12).run()
    assert not _notes(at) and at.query_params["res"] == "12"


def test_tuning_page_link_with_a_huge_grid_opens_at_the_largest_grid():
    """``res=10⁶`` on the Tuning criteria page: the grid of 40 points per axis, its maximum, not the default 20."""
    at = _open({"data": "banana", "n": "40", "seed": "0", "res": "1000000"},
               path=page_path("1_Tuning_criteria.py"), timeout=300)
    assert_clean(at)
    assert at.sidebar.slider(key="tuning_res").value == 40
    assert any("res = 1000000" in n and "nearest limit, 40" in n for n in at.sidebar.info.values)
