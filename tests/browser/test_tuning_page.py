"""Real-browser test: Debian chromium driven by Playwright against `streamlit run app.py`.

Starts the app on a free port, opens the Tuning criteria page through the sidebar navigation,
waits for the contour charts, moves a slider and checks that the rerun finished with no exception
and no console errors. Two browser sessions then compute at once (the app must survive it).
Screenshots go to tests/artifacts/. Timings are printed (measured, never asserted).
"""
from __future__ import annotations

import os
import time

import pytest

from tests.browser.helpers import ARGS, ARTIFACTS, CHROMIUM, _chart_count_when_settled, _wait_idle, start_server, stop_server

pytestmark = pytest.mark.browser


def _open_tuning(page, url):
    page.goto(url)
    # the landing page (app.py's st.navigation) must be up before its navigation is used
    page.get_by_role("heading", name="svmviz").wait_for(timeout=60_000)
    _wait_idle(page)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Tuning criteria").first.click()
    # the page's own run over (the home page's chart is gone), then its first chart
    page.get_by_role("heading", name="Tuning criteria").first.wait_for(timeout=60_000)
    _wait_idle(page, timeout=180_000)
    page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=180_000)


def test_shared_link_on_a_fresh_server_opens_in_the_app_frame():
    """First visitor of a fresh server follows a link to a page (a server of its own: the session's
    shared server has had its root URL opened by other tests).

    Streamlit would run the page file in its legacy pages/ mode (no st.navigation, narrow layout)
    until the root URL is opened; ensure_app_frame() reruns it through app.py, keeping the URL.
    """
    from playwright.sync_api import sync_playwright

    proc, app_url, log = start_server("streamlit_fresh_link.log")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{app_url}/Unbiased_SVC?data=wahba2001&n=150&seed=4")
            page.get_by_role("heading", name="Unbiased SVC").first.wait_for(timeout=180_000)
            _chart_count_when_settled(page)
            links = page.locator('[data-testid="stSidebarNav"] a').all_inner_texts()
            assert any("Home" in t for t in links), links
            assert any("Losses & randomized GACV" in t for t in links), links
            assert page.get_by_role("spinbutton", name="Seed").first.input_value() == "4"
            assert "seed=4" in page.url and "n=150" in page.url
            assert page.get_by_test_id("stException").count() == 0
            browser.close()
    finally:
        stop_server(proc, log)


def test_tuning_page_in_a_real_browser(app_url):
    from playwright.sync_api import sync_playwright

    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        t0 = time.time()
        _open_tuning(page, app_url)
        first_chart = time.time() - t0
        n_charts = _chart_count_when_settled(page)
        cold = time.time() - t0
        assert n_charts == 2  # the criteria surfaces (one figure of four panels) and the decision curves
        page.screenshot(path=os.path.join(ARTIFACTS, "tuning_initial.png"), full_page=True)

        # move the "Grid points per axis" slider one step: the page reruns and redraws
        slider = page.get_by_role("slider", name="Grid points per axis")
        t1 = time.time()
        slider.focus()
        page.keyboard.press("ArrowRight")
        _wait_idle(page)
        rerun = time.time() - t1
        assert page.get_by_test_id("stException").count() == 0
        assert _chart_count_when_settled(page) == n_charts
        assert "res=21" in page.url  # the slider moved 20 → 21, and the view is mirrored in the URL
        page.screenshot(path=os.path.join(ARTIFACTS, "tuning_after_slider.png"), full_page=True)
        print(f"cold start: first chart {first_chart:.1f} s, whole page {cold:.1f} s; slider rerun {rerun:.2f} s")
        browser.close()
    assert not errors, errors


def test_two_sessions_compute_at_once(app_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages = [browser.new_context().new_page() for _ in range(2)]
        errors = []
        for pg in pages:
            pg.on("pageerror", lambda e: errors.append(str(e)))
            # each session asks for a different, uncached grid through the URL
        for k, pg in enumerate(pages):
            pg.goto(f"{app_url}/Tuning_criteria?data=wahba2001&n=150&seed={100 + k}&res=12")
        for pg in pages:
            pg.get_by_test_id("stPlotlyChart").first.wait_for(timeout=180_000)
        # both change the seed at the same time
        for pg in pages:
            box = pg.get_by_role("spinbutton", name="Seed")
            box.fill("7")
        for pg in pages:
            pg.get_by_role("spinbutton", name="Seed").press("Enter")
        for pg in pages:
            _wait_idle(pg)
            assert pg.get_by_test_id("stException").count() == 0
            assert _chart_count_when_settled(pg) == 2  # the criteria surfaces (one figure, a338cdf), decision curves
        browser.close()
    assert not errors, errors
