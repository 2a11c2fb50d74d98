"""The Kernels & variable selection page says when the criterion's λ that the decomposition uses is the
smallest (or largest) λ on the grid, and extends the grid past that edge in one click."""
from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.apptest_utils import assert_clean, page_path, url_of

PAGE = page_path("6_Kernels_and_variable_selection.py")


def test_a_choice_at_the_grids_smallest_lambda_is_said_and_the_grid_extended():
    at = AppTest.from_file(PAGE, default_timeout=240)
    # λ ≥ 0.1 is far too smooth for these data: every criterion prefers the smallest λ of the grid
    for k, v in {"n": "60", "a_lo": "-1", "a_hi": "1", "a_nlam": "6", "a_loo": "0", "a_lamsrc": "gacv"}.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    warn = " ".join(w.value for w in at.warning)
    assert "GACV's choice is the smallest λ on the grid (λ = 0.1)" in warn
    at.button(key="anova_extend_low").click().run()
    assert_clean(at)
    assert tuple(at.slider(key="anova_lamrange").value) == (-2, 1)
    assert url_of(at)["a_lo"] == "-2"


def test_no_note_for_a_choice_inside_the_grid_or_one_made_by_hand():
    at = AppTest.from_file(PAGE, default_timeout=240)
    for k, v in {"n": "60", "a_nlam": "6", "a_loo": "0", "a_lamsrc": "hand", "a_lamhand": "0"}.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    assert not any("on the grid (λ =" in w.value for w in at.warning)
    assert np.isclose(float(at.select_slider(key="anova_lamhand").value), 0)
