"""AppTest of the frame (app.py): navigation and landing page."""
from __future__ import annotations

import os

from streamlit.testing.v1 import AppTest

from svmviz.ui.frame import ENTRY_SCRIPT, PAGES

from .apptest_utils import ROOT, assert_clean


def test_landing_page_lists_every_page():
    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60).run()
    assert_clean(at)
    assert at.title[0].value == "svmviz"
    # every page file of pages/ is registered in the frame (none forgotten, none missing)
    files = sorted(f for f in os.listdir(os.path.join(ROOT, "pages")) if f.endswith(".py"))
    assert sorted(os.path.basename(s.file) for s in PAGES) == files
    for spec in PAGES:
        # the thin script reopens itself in the frame when a fresh server runs it as a bare pages/
        # script (see ensure_app_frame; the browser test checks the behaviour), then runs page()
        page = open(os.path.join(ROOT, spec.file)).read()
        assert page.index("ensure_app_frame()") < page.index(f"{spec.module}.page()"), spec.file
    captions = " ".join(c.value for c in at.caption)
    assert "GACV" in captions


def test_installed_entry_runs_the_same_frame():
    """The installed command's entry script (pages as functions, no pages/ folder) shows the same home."""
    at = AppTest.from_file(ENTRY_SCRIPT, default_timeout=60).run()
    assert_clean(at)
    assert at.title[0].value == "svmviz"
    assert "GACV" in " ".join(c.value for c in at.caption)


def test_tuning_view_reopens_from_the_url():
    at = AppTest.from_file(os.path.join(ROOT, "pages", "1_Tuning_criteria.py"), default_timeout=180)
    at.query_params["data"] = "banana"
    at.query_params["n"] = "60"
    at.query_params["seed"] = "4"
    at.query_params["res"] = "7"
    at.query_params["mode"] = "non-standard"
    at.run()
    assert_clean(at)
    assert at.sidebar.selectbox(key="tuning_data").value == "banana"
    assert at.sidebar.slider(key="tuning_n").value == 60
    assert at.sidebar.number_input(key="tuning_seed").value == 4
    assert at.sidebar.slider(key="tuning_res").value == 7
    assert at.sidebar.radio(key="tuning_mode").value == "non-standard"
