"""The Kernels & variable selection page's shared link: every control of the main area that changes
the view (the kernel and machine decomposed, the λ chosen, the importance measure, the two
interactions shown, the θ-grid's variable and criterion) is in the link, and a fresh session opening
that link shows the same view."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.apptest_utils import assert_clean, assert_link_restores, page_path

PAGE = page_path("6_Kernels_and_variable_selection.py")
SMALL = {"n": "80", "a_nlam": "6", "a_loo": "0", "a_d": "3"}


def test_main_area_controls_are_in_the_link():
    at = AppTest.from_file(PAGE, default_timeout=240)
    for k, v in SMALL.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    at.radio(key="anova_machine").set_value("klr")
    at.radio(key="anova_measure").set_value("rms")
    at.run()
    at.radio(key="anova_lamsrc").set_value("hand")
    at.run()
    at.select_slider(key="anova_lamhand").set_value(1)
    at.selectbox(key="anova_thvar").set_value(2)
    at.radio(key="anova_thcrit").set_value("xa")
    at.run()
    at.selectbox(key="anova_pair0").set_value(2)  # the third most important interaction
    at.run()
    assert_clean(at)
    keys = ["anova_which", "anova_machine", "anova_measure", "anova_lamsrc", "anova_lamhand", "anova_thvar",
            "anova_thcrit", "anova_pair0"]
    url = assert_link_restores(PAGE, at, keys)
    assert url["a_machine"] == "klr" and url["a_measure"] == "rms" and url["a_lamsrc"] == "hand"
    assert url["a_lamhand"] == "1" and url["a_thvar"] == "2" and url["a_thcrit"] == "xa"
    assert url["a_pair1"] == "2"
