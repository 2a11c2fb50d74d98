"""What the real-browser tests share: Debian chromium's path and flags, a ``streamlit run app.py``
server on a free port, and waits for a page's run to settle. Playwright never downloads a browser of
its own; the fixtures (one chromium per module, one app server per session) are in conftest.py.
"""
from __future__ import annotations

import os
import shutil
import time
import urllib.parse

import pytest

from tests import serving
from tests.apptest_utils import ROOT

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic", "--disable-dev-shm-usage"]
ARTIFACTS = os.path.join(ROOT, "tests", "artifacts")


def start_server(log_name: str, env: dict | None = None, script: str = "app.py"):
    """``streamlit run <script>`` (the app by default) on a free port, output to tests/artifacts/<log_name>;
    (process, url, log file) once /_stcore/health answers (fails the test after 60 s)."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    port = serving.free_port()
    log = open(os.path.join(ARTIFACTS, log_name), "w")
    try:
        proc, url = serving.start(serving.streamlit_run(script, port), port, log=log, cwd=ROOT, env=env)
    except serving.ServerDidNotStart as exc:
        log.close()
        pytest.fail(f"the app did not start: {exc}")
    return proc, url, log


def stop_server(proc, log) -> None:
    serving.stop(proc)
    log.close()


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


def _new_page(browser, errors: list):
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _settle(page, timeout_s: float = 180.0, quiet_s: float = 1.2) -> int:
    """Wait until the run is over and the page has stopped changing; return its number of charts."""
    t_end = time.time() + timeout_s
    last, since = None, time.time()
    page.wait_for_timeout(300)
    while time.time() < t_end:
        running = page.get_by_test_id("stStatusWidget").count() > 0
        state = (page.get_by_test_id("stPlotlyChart").count(), page.url)
        if state != last or running:
            last, since = state, time.time()
        elif time.time() - since >= quiet_s:
            return state[0]
        page.wait_for_timeout(100)
    raise AssertionError(f"the page did not settle within {timeout_s:.0f} s")


def _nav(page, title: str) -> float:
    """Open a page through the sidebar navigation; seconds to its first chart (or settled page)."""
    t0 = time.time()
    page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
    page.get_by_role("heading", name=title).first.wait_for(timeout=60_000)
    # a chart, or a message saying why there is none
    page.locator('[data-testid="stPlotlyChart"], [data-testid="stAlert"]').first.wait_for(timeout=120_000)
    first = time.time() - t0
    _settle(page)
    return first


def _home(page, url: str) -> None:
    page.goto(url)
    page.get_by_role("heading", name="svmviz").wait_for(timeout=60_000)
    _settle(page)


def _query(page) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(page.url).query))


def _path(page) -> str:
    return urllib.parse.urlsplit(page.url).path


def _slider_text(page, name: str) -> str:
    return page.get_by_role("slider", name=name).first.get_attribute("aria-valuetext")


def _no_exception(page, where: str) -> None:
    n = page.get_by_test_id("stException").count()
    assert n == 0, f"{where}: {page.get_by_test_id('stException').first.inner_text()[:400]}"


def _page_titles(page) -> list[str]:
    texts = [t.strip().split("\n")[-1].strip() for t in page.locator('[data-testid="stSidebarNav"] a').all_inner_texts()]
    return [t for t in texts if t and t != "Home"]


def _upload(page, content: bytes, name: str, tmp_path) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    sb = page.get_by_test_id("stSidebar")
    sb.get_by_test_id("stSelectbox").first.click()
    page.get_by_role("option", name="Upload", exact=False).first.click()
    page.locator("input[type=file]").first.set_input_files(str(path))
    _settle(page)
