"""Real-browser test: Debian chromium driven by Playwright against `streamlit run app.py`.

Starts the app on a free port, opens the Tuning criteria page through the sidebar navigation,
waits for the contour charts, moves a slider and checks that the rerun finished with no exception
and no console errors. Two browser sessions then compute at once (the app must survive it).
Screenshots go to tests/artifacts/. Timings are printed (measured, never asserted).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from .apptest_utils import ROOT

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
ARTIFACTS = os.path.join(ROOT, "tests", "artifacts")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(log_name: str, env: dict | None = None):
    """``streamlit run app.py`` on a free port, output to tests/artifacts/<log_name>; (process, url,
    log file) once /_stcore/health answers (fails the test after 60 s)."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    port = _free_port()
    log = open(os.path.join(ARTIFACTS, log_name), "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://localhost:{port}"
    for _ in range(300):
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                return proc, url, log
        except OSError:
            time.sleep(0.2)
    proc.kill()
    log.close()
    pytest.fail(f"the app did not answer /_stcore/health within 60 s; see tests/artifacts/{log_name}")


def stop_server(proc, log) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log.close()


@pytest.fixture(scope="module")
def browser():
    """One headless Debian chromium for a test module (imported by the other browser test files)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def app_url():
    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian chromium is not installed: run `apt-get install -y chromium` (bash .ci/run does).")
    t0 = time.time()
    proc, url, log = start_server("streamlit.log")
    print(f"\nserver healthy after {time.time() - t0:.1f} s")
    try:
        yield url
    finally:
        stop_server(proc, log)


def _wait_idle(page, timeout=120_000):
    page.wait_for_timeout(300)
    page.get_by_test_id("stStatusWidget").wait_for(state="detached", timeout=timeout)


def _chart_count_when_settled(page, timeout_s=180.0, quiet_s=1.5) -> int:
    """Wait until the run is over and the number of charts has stopped changing; return it.

    Charts appear one by one while the script runs, and during a rerun the previous run's charts
    linger as stale elements until replaced; counting right after the status widget goes away
    can catch either (CI once counted 6 charts on a 5-chart page).
    """
    t_end = time.time() + timeout_s
    last, since = -1, time.time()
    while time.time() < t_end:
        n = page.get_by_test_id("stPlotlyChart").count()
        running = page.get_by_test_id("stStatusWidget").count() > 0
        if n != last or running:
            last, since = n, time.time()
        elif time.time() - since >= quiet_s:
            return n
        page.wait_for_timeout(100)
    raise AssertionError(f"the page did not settle within {timeout_s:.0f} s (charts: {last})")


def _open_tuning(page, url):
    page.goto(url)
    # the landing page (app.py's st.navigation) must be up before its navigation is used
    page.get_by_role("heading", name="svmviz").wait_for(timeout=60_000)
    _wait_idle(page)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Tuning criteria").first.click()
    page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=180_000)


def test_shared_link_on_a_fresh_server_opens_in_the_app_frame(app_url):
    """First visitor of a fresh server follows a link to a page (must stay the module's first test).

    Streamlit would run the page file in its legacy pages/ mode (no st.navigation, narrow layout)
    until the root URL is opened; ensure_app_frame() reruns it through app.py, keeping the URL.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{app_url}/Unbiased_SVC?data=wahba2001&n=150&seed=4")
        page.get_by_role("heading", name="Unbiased SVC").first.wait_for(timeout=180_000)
        _chart_count_when_settled(page)
        links = page.locator('[data-testid="stSidebarNav"] a').all_inner_texts()
        assert any("Home" in t for t in links), links
        assert any("Loss functions & randomized GACV" in t for t in links), links
        assert page.get_by_role("spinbutton", name="Seed").first.input_value() == "4"
        assert "seed=4" in page.url and "n=150" in page.url
        assert page.get_by_test_id("stException").count() == 0
        browser.close()


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
