"""The one place svmviz leans on Streamlit's private API, checked so an upgrade that breaks it fails here.

``svmviz.ui.common.ensure_app_frame`` resets ``PagesManager.uses_pages_directory``. Why: a fresh
server whose first request is a deep link (``/Tuning_criteria?…``) finds ``pages/`` beside ``app.py``
and runs the page in Streamlit's legacy multipage mode (no ``st.navigation`` frame, no wide layout),
and stays in that mode until ``st.navigation`` runs once. Streamlit (1.67) offers no public switch for
this: the flag is set from ``Path(main_script_parent / "pages").exists()`` when the first
``PagesManager`` is created, and only ``st.navigation`` clears it. The project keeps the top-level
``pages/`` folder (its layout), so the reset stays — isolated in one function, guarded here; the
browser test (tests/test_browser.py) checks the behaviour end to end on a fresh server.
"""
from __future__ import annotations

import inspect

import streamlit
from streamlit.commands import navigation
from streamlit.runtime import pages_manager
from streamlit.runtime.scriptrunner import script_runner


def test_pages_manager_still_has_the_legacy_flag():
    assert hasattr(pages_manager.PagesManager, "uses_pages_directory"), (
        f"Streamlit {streamlit.__version__} removed PagesManager.uses_pages_directory: "
        "review svmviz.ui.common.ensure_app_frame (deep links on a fresh server)."
    )


def test_the_flag_still_decides_legacy_mode_and_navigation_still_clears_it():
    src_pm = inspect.getsource(pages_manager.PagesManager.__init__)
    assert 'uses_pages_directory = Path(' in src_pm and '"pages"' in src_pm, (
        "PagesManager no longer derives legacy mode from a pages/ folder: ensure_app_frame may be obsolete "
        "or wrong; check a deep link on a fresh server (tests/test_browser.py)."
    )
    assert "uses_pages_directory" in inspect.getsource(script_runner.ScriptRunner), (
        "ScriptRunner no longer consults uses_pages_directory: review ensure_app_frame."
    )
    assert "uses_pages_directory = False" in inspect.getsource(navigation), (
        "st.navigation no longer clears the legacy flag: review ensure_app_frame."
    )


def test_ensure_app_frame_uses_the_flag():
    from svmviz.ui import common

    src = inspect.getsource(common.ensure_app_frame)
    assert "uses_pages_directory" in src
