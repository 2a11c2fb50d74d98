"""The Criteria studies page in the real browser: a ready-made study run from the page on a server of
its own (its study folders in the test's temporary folder), its charts and table drawn, no page
error. Screenshots: tests/artifacts/studies_page*.png."""
from __future__ import annotations

import os

import pytest

from tests import serving
from tests.apptest_utils import ROOT

pytestmark = pytest.mark.browser


@pytest.mark.browser
def test_studies_page_in_chromium(tmp_path):
    pw = pytest.importorskip("playwright.sync_api")
    if not os.path.exists("/usr/bin/chromium"):
        pytest.fail("Debian's chromium is missing: apt-get install -y chromium")
    port = serving.free_port()
    log = open(tmp_path / "server.log", "w")
    env = dict(os.environ, TMPDIR=str(tmp_path), SVMVIZ_DATA_DIR=str(tmp_path / "data"))
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache"))
    try:
        server, _ = serving.start(serving.streamlit_run("app.py", port), port, log=log, cwd=ROOT, env=env)
    except serving.ServerDidNotStart as exc:
        log.close()
        pytest.fail(f"the app did not start: {exc}")
    try:
        errors = []
        with pw.sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-quic"])
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"http://localhost:{port}/")
            page.get_by_test_id("stSidebarNav").get_by_role("link", name="Criteria studies").click()
            page.get_by_role("button", name="Run").wait_for(timeout=60_000)
            page.get_by_role("button", name="Run").click()
            page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=180_000)
            page.wait_for_function("document.querySelectorAll('[data-testid=stStatusWidget]').length == 0",
                                   timeout=60_000)
            page.wait_for_timeout(1500)
            assert page.get_by_test_id("stException").count() == 0
            assert page.get_by_test_id("stPlotlyChart").count() >= 3
            assert page.get_by_test_id("stDataFrame").count() == 1
            out = os.path.join(ROOT, "tests", "artifacts")
            os.makedirs(out, exist_ok=True)
            page.screenshot(path=os.path.join(out, "studies_page.png"))
            charts = page.get_by_test_id("stPlotlyChart")
            charts.first.scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            page.screenshot(path=os.path.join(out, "studies_page_inefficiency.png"))
            charts.nth(1).scroll_into_view_if_needed()
            page.wait_for_timeout(500)
            page.screenshot(path=os.path.join(out, "studies_page_test_error.png"))
            browser.close()
        assert not errors, errors
    finally:
        serving.stop(server, timeout=20)
        log.close()


@pytest.mark.browser
def test_study_on_an_uploaded_table_in_chromium(browser, tmp_path):
    """A table uploaded in the sidebar (text column, 6 features, 3 classes, empty cells), "Your table" chosen,
    Run at R = 3: the summary table and the charts are drawn, the held-out inefficiency among them.
    Screenshot: tests/artifacts/studies_own_table.png."""
    from tests.browser.helpers import _home, _nav, _new_page, _settle, _upload, start_server, stop_server
    from tests.data.own_table import own_table_csv

    env = dict(os.environ, TMPDIR=str(tmp_path), SVMVIZ_DATA_DIR=str(tmp_path / "data"))
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache"))
    proc, url, log = start_server("studies_own_table.log", env)
    errors = []
    try:
        page = _new_page(browser, errors)
        _home(page, url)
        _nav(page, "Criteria studies")
        page.get_by_text("Your table", exact=True).click()
        _settle(page)
        _upload(page, own_table_csv(), "cars by origin.csv", tmp_path)
        assert "Europe (−1) against Japan (+1)" in " ".join(page.get_by_test_id("stMarkdown").all_inner_texts())
        page.get_by_role("button", name="Run").click()
        page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=240_000)
        _settle(page, timeout_s=240)
        assert page.get_by_test_id("stException").count() == 0
        assert page.get_by_test_id("stDataFrame").count() == 1
        assert page.get_by_test_id("stPlotlyChart").count() >= 3
        assert page.locator(".gtitle", has_text="Inefficiency on held-out rows over").count() == 1
        assert "3 / 3" in page.get_by_test_id("stMetric").first.inner_text()
        page.get_by_test_id("stPlotlyChart").first.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        page.screenshot(path=os.path.join(ROOT, "tests", "artifacts", "studies_own_table.png"))
        assert not errors, errors
    finally:
        stop_server(proc, log)
