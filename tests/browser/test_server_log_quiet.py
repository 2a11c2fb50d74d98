"""The server's log after a visitor's walk through the app — the home page, every page, a ready-made
criteria study run on the Criteria studies page (its Dask worker processes included) — holds no
"missing ScriptRunContext" line: none of the app's own threads and processes calls Streamlit outside a
script run."""
from __future__ import annotations

import os

import pytest

from tests.browser.helpers import ARGS, CHROMIUM, _home, _nav, _new_page, _no_exception, _page_titles, start_server, \
    stop_server

pytestmark = pytest.mark.browser


def test_a_walk_through_every_page_and_a_study_run_logs_no_missing_script_run_context(tmp_path):
    from playwright.sync_api import sync_playwright

    env = dict(os.environ, TMPDIR=str(tmp_path), SVMVIZ_DATA_DIR=str(tmp_path / "data"))
    proc, url, log = start_server("server_log_quiet.log", env=env)
    try:
        errors: list = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = _new_page(browser, errors)
            _home(page, url)
            titles = _page_titles(page)
            assert "Criteria studies" in titles
            for title in titles:
                _nav(page, title)
                _no_exception(page, title)
            _nav(page, "Criteria studies")
            page.get_by_role("button", name="Run").click()
            page.get_by_test_id("stDataFrame").first.wait_for(timeout=300_000)
            page.wait_for_function("document.querySelectorAll('[data-testid=stStatusWidget]').length == 0",
                                   timeout=120_000)
            _no_exception(page, "the study run")
            browser.close()
        assert not errors, errors
    finally:
        stop_server(proc, log)
    with open(log.name) as fh:
        lines = [ln for ln in fh if "missing ScriptRunContext" in ln]
    assert not lines, f"{len(lines)} lines, the first: {lines[0].strip()}"
