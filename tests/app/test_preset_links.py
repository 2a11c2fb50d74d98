"""A shared link to a preset's view carries the preset's note (what the paper leaves unstated)."""
from __future__ import annotations

import pytest

from svmviz.ui import presets
from tests.apptest_utils import assert_clean, page_path, reopen, url_of

LOSSES = page_path("2_Loss_functions.py")


@pytest.fixture(autouse=True)
def _fresh_caches():
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


def _notes(at) -> list[str]:
    return [i.value for i in at.info if i.value.startswith("**")]


@pytest.mark.parametrize("preset", presets.PRESETS["losses"], ids=lambda p: p.label[:30])
def test_link_to_a_preset_view_shows_its_note(preset):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(LOSSES, default_timeout=300).run()
    assert_clean(at)
    at.selectbox(key="_svmviz_preset_losses").select(preset.label).run()
    assert_clean(at)
    expected = f"**{preset.label}.** {preset.note}"
    assert _notes(at) == [expected]
    fresh = reopen(LOSSES, at)  # the copied link, opened in a new session
    assert_clean(fresh)
    assert _notes(fresh) == [expected]


def test_a_link_that_left_the_preset_view_has_no_note():
    from streamlit.testing.v1 import AppTest

    preset = presets.PRESETS["losses"][0]
    at = AppTest.from_file(LOSSES, default_timeout=300).run()
    at.selectbox(key="_svmviz_preset_losses").select(preset.label).run()
    link = url_of(at)
    link["lf_a"] = "2.0"  # one control away from the paper's setting
    fresh = AppTest.from_file(LOSSES, default_timeout=300)
    for k, v in link.items():
        fresh.query_params[k] = v
    fresh.run()
    assert_clean(fresh)
    assert _notes(fresh) == []


def test_view_preset_matches_every_parameter():
    preset = presets.PRESETS["path"][0]
    url = presets.url_values(preset)
    assert presets.view_preset("path", url) is preset
    assert presets.view_preset("path", {**url, "extra": "1"}) is preset  # other parameters do not matter
    assert presets.view_preset("path", {**url, "psigma": "2.0"}) is None
