"""Real browser (Debian chromium, Playwright): the home page's tour and the slide export of a chart.

The tour's first link opens the Loss functions page; the modebar's camera of a chart downloads a PNG
that is at least ``charts.MIN_EXPORT_WIDTH`` pixels wide (read from the file's IHDR header), and,
after "SVG" is chosen in the sidebar, an SVG file. Screenshots: tests/artifacts/teaching_*.png.
"""
from __future__ import annotations

import os
import struct
import time

import pytest

from svmviz.ui import charts
from svmviz.ui.frame import PAGES, tour

from tests.browser.helpers import ARGS, ARTIFACTS, CHROMIUM

pytestmark = pytest.mark.browser


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _idle(page, timeout: float = 120.0) -> None:
    """Wait until the rerun has finished (no running-status widget)."""
    page.wait_for_timeout(300)
    t0 = time.time()
    while page.get_by_test_id("stStatusWidget").count() and time.time() - t0 < timeout:
        page.wait_for_timeout(200)


def _download(page, chart) -> bytes:
    """Click the chart's modebar camera ("Download plot as a PNG" / "… SVG") and return the file."""
    chart.hover()
    button = chart.locator('.modebar-btn[data-title^="Download plot"]').first
    button.wait_for(state="visible", timeout=10_000)
    with page.expect_download(timeout=60_000) as info:
        button.click()
    return open(info.value.path(), "rb").read()


def test_home_tour_and_camera_export_at_slide_resolution(app_url):
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        pytest.fail("Debian chromium is not installed: run `apt-get install -y chromium` (bash .ci/run does).")
    url = app_url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        links = page.get_by_test_id("stPageLink")
        links.first.wait_for(timeout=60_000)
        assert links.count() == len(PAGES)
        first = tour()[0]
        assert f"1. {first.title}" in links.first.inner_text()
        page.screenshot(path=os.path.join(ARTIFACTS, "teaching_home.png"), full_page=True)
        page.get_by_text("Glossary: every acronym of the app").click()
        page.get_by_text("generalized approximate cross-validation").first.wait_for(timeout=10_000)
        page.screenshot(path=os.path.join(ARTIFACTS, "teaching_glossary.png"), full_page=True)

        links.first.click()  # step 1 of the tour: the Loss functions page
        page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=120_000)
        _idle(page)
        assert page.get_by_test_id("stException").count() == 0
        chart = page.get_by_test_id("stPlotlyChart").first
        t0 = time.time()
        png = _download(page, chart)
        width, height = png_size(png)
        print(f"\ncamera PNG: {width} × {height} px in {time.time() - t0:.1f} s (on screen "
              f"{chart.bounding_box()['width']:.0f} px wide)")
        assert width >= charts.MIN_EXPORT_WIDTH
        assert width == charts.SLIDE_WIDTH * charts.SLIDE_SCALE

        box = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").filter(has_text="Figure export")
        box.scroll_into_view_if_needed()
        box.locator("input").first.click()
        page.screenshot(path=os.path.join(ARTIFACTS, "teaching_export_choice.png"))
        page.get_by_role("option").filter(has_text="SVG").first.click()
        _idle(page)
        chart = page.get_by_test_id("stPlotlyChart").first
        svg = _download(page, chart)
        assert b"<svg" in svg[:2000], svg[:200]
        page.screenshot(path=os.path.join(ARTIFACTS, "teaching_losses.png"), full_page=False)
        assert not errors, errors
        browser.close()
