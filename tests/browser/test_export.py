"""Real browser (Debian chromium, Playwright): the home page's tour, the slide export of a chart, and the
CSV downloads of every page after an upload with hostile names.

The tour's first link opens the Losses & randomized GACV page; the modebar's camera of a chart downloads a PNG
that is at least ``charts.MIN_EXPORT_WIDTH`` pixels wide (read from the file's IHDR header), and,
after "SVG" is chosen in the sidebar, an SVG file. Screenshots: tests/artifacts/teaching_*.png.
"""
from __future__ import annotations

import os
import re
import struct
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

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
    from playwright.sync_api import expect, sync_playwright

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
        # the page streams its elements: every link is there once the script has run, not with the first
        expect(links).to_have_count(len(PAGES), timeout=30_000)
        first = tour()[0]
        assert f"1. {first.title}" in links.first.inner_text()
        page.screenshot(path=os.path.join(ARTIFACTS, "teaching_home.png"), full_page=True)
        page.get_by_text("Glossary: every acronym of the app").click()
        page.get_by_text("generalized approximate cross-validation").first.wait_for(timeout=10_000)
        page.screenshot(path=os.path.join(ARTIFACTS, "teaching_glossary.png"), full_page=True)

        links.first.click()  # step 1 of the tour: the Losses & randomized GACV page
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


# --------------------------------------------------------------------------- every CSV of every page
HOSTILE_FEATURES = ["weight, kg", 'c"q,d', '=HYPERLINK("http://x")']
HOSTILE_LABEL = "@class, \"y\""
HOSTILE_CLASSES = ("=cmd|' /C calc'!A0", '-"b,c"')


def _hostile_csv() -> bytes:
    """300 rows: three features and a label column whose names and classes hold commas, quotes and
    leading = - @ (two Gaussian classes, so every page can fit them)."""
    import io

    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    X = rng.normal(size=(300, 3)) + 1.2 * y[:, None]
    frame = pd.DataFrame(X, columns=HOSTILE_FEATURES)
    frame[HOSTILE_LABEL] = np.array(HOSTILE_CLASSES, dtype=object)[y]
    buf = io.StringIO()
    frame.to_csv(buf, index=False)
    return buf.getvalue().encode()


def _check_round_trip(data: bytes, name: str) -> None:
    """Every row has the header's number of fields, pandas reads the same header, and no text cell
    a spreadsheet would run as a formula is left bare."""
    import csv
    import io

    import pandas as pd

    from svmviz.ui.export import FORMULA_STARTS

    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    assert rows, f"{name} is empty"
    header = rows[0]
    assert all(len(r) == len(header) for r in rows[1:]), f"{name}: rows of {sorted({len(r) for r in rows})} fields"
    frame = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)
    assert list(frame.columns) == header, (name, list(frame.columns), header)
    for cell in [*header, *frame.to_numpy().ravel().tolist()]:
        if cell.startswith(FORMULA_STARTS):  # only a number (-1.5, -inf) may begin so: text gets its '
            try:
                float(cell)
            except ValueError:
                raise AssertionError(f"{name}: a bare formula-like cell {cell!r}") from None
    text = "\n".join([*header, *frame.to_numpy().ravel().tolist()])
    for hostile in (*HOSTILE_CLASSES, *HOSTILE_FEATURES):  # a name written into the file keeps every character
        if hostile[1:-1] in text:
            assert hostile in text, (name, hostile)


def test_every_csv_of_every_page_round_trips_after_an_upload_with_hostile_names(browser, app_url, tmp_path):
    """After an upload whose column and class names hold commas, quotes and formula prefixes, each page's
    CSV downloads are read back by ``csv`` and ``pandas.read_csv`` to the same header and fields."""
    from tests.browser.helpers import _home, _nav, _settle, _upload

    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _home(page, app_url)
    # the pages drawn from the data set (the Criteria studies page has its own data; the Kernels page no CSV)
    data_pages = [spec for spec in tour() if spec.module not in ("studies", "anova")]
    _nav(page, data_pages[0].title)
    _upload(page, _hostile_csv(), "hostile.csv", tmp_path)
    got: dict = {}
    def run_what_asks_first():
        # "Run", or "Run (about N s)" once this server has timed a computation of the kind
        run = page.get_by_role("button", name=re.compile(r"^Run( \(about [^)]*\))?$"))
        if run.count() and run.first.is_visible():  # a computation that asks before it starts
            run.first.click()
            _settle(page, timeout_s=300)

    for spec in data_pages:
        _nav(page, spec.title)
        run_what_asks_first()
        assert page.get_by_test_id("stException").count() == 0, spec.title
        seen: set = set()
        tabs = page.get_by_test_id("stMain").get_by_role("tab")
        for t in range(-1, tabs.count()):  # the page as it opens, then each of its tabs (lazy tabs draw on opening)
            if t >= 0:
                tabs.nth(t).click()
                _settle(page, timeout_s=300)
                run_what_asks_first()
                assert page.get_by_test_id("stException").count() == 0, (spec.title, t)
            buttons = page.locator('[data-testid="stDownloadButton"] button', has_text="CSV")
            for i in range(buttons.count()):
                button = buttons.nth(i)
                label = button.inner_text() if button.is_visible() else None
                if label is None or label in seen:
                    continue
                seen.add(label)
                print(f"\n{spec.title}: {label}", flush=True)
                download = None
                # a button that a rerun redraws while it is scrolled to or clicked (detached, or redrawn
                # without its download) is tried once more after the page settles
                for attempt in range(2):
                    _settle(page, timeout_s=300)
                    try:
                        button.scroll_into_view_if_needed()
                        with page.expect_download(timeout=90_000) as info:
                            button.click()
                        download = info.value
                        break
                    except PlaywrightError:
                        if attempt:
                            raise
                name = download.suggested_filename
                data = open(download.path(), "rb").read()
                _check_round_trip(data, f"{spec.title}: {name}")
                got.setdefault(spec.title, []).append(name)
    print("\nCSV files checked:\n" + "\n".join(f"  {k}: {', '.join(v)}" for k, v in got.items()))
    assert all(got.get(spec.title) for spec in data_pages), f"pages without a CSV download: {got}"
    assert not errors, errors
    context.close()

