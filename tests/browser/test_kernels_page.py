"""The Kernels & variable selection page in the real browser: reached from the home page's
navigation, its four charts drawn once with their final margins, the interaction panels' colour bar
clear of the right panel's axis, the criteria chart kept through a rerun after exact LOO was awaited,
and a switch of the machine to KLR. One visit of the page serves the other tests (the module's
``kernels_page`` fixture); the KLR switch comes last. Screenshots: tests/artifacts/anova_*.png."""
from __future__ import annotations

import os
import time

import pytest

from tests.browser.helpers import ARTIFACTS, _chart_count_when_settled, _wait_idle

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def kernels_page(app_url, browser):
    """Chromium (1400 × 1000) on the Kernels page reached from the home page's navigation, its four
    charts drawn and settled; yields (page, console and page errors seen so far and later)."""
    errors = []
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(app_url)
    page.get_by_role("heading", name="svmviz").wait_for(timeout=60_000)
    _wait_idle(page)
    t0 = time.time()
    page.locator('[data-testid="stSidebarNav"] a', has_text="Kernels & variable selection").first.click()
    page.get_by_role("heading", name="Kernels & variable selection").first.wait_for(timeout=60_000)
    # criteria curves, importances (two panels), main effects, interaction maps (two panels)
    n_charts = _chart_count_when_settled(page, timeout_s=300)
    print(f"\nKernels & variable selection: all {n_charts} charts after {time.time() - t0:.1f} s")
    assert n_charts == 4
    try:
        yield page, errors
    finally:
        context.close()


def test_the_kernels_page_charts_are_drawn_with_their_final_margins(kernels_page):
    """Each of the page's four charts starts with margins at least as wide as Plotly's automargin wants
    (figures.anova.MARGINS), so Plotly draws it once: a chart whose computed margins differ from its
    layout's was drawn a second time after measuring (doAutoMargin), widened past its margins."""
    page, _ = kernels_page
    sizes = page.evaluate("""() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(gd => [
        gd.layout.title.text, gd.layout.margin, gd._fullLayout._size])""")
    assert len(sizes) == 4
    for title, margin, size in sizes:
        for side in ("l", "r", "t", "b"):
            assert size[side] == margin[side], (title, side, margin, size)


def test_the_colour_bars_clear_every_panels_y_axis(kernels_page):
    """The interaction panels: no colour bar (its bar and tick labels) lies over a panel's y-axis tick
    labels or title (a spacing too narrow for the page's width puts a bar over the next panel's y title)."""
    page, _ = kernels_page
    boxes = page.evaluate("""() => {
        const gd = Array.from(document.querySelectorAll('.js-plotly-plot')).find(
            d => d.layout.title.text.includes('Two-factor interactions'));
        const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.right]; };
        return {bars: Array.from(gd.querySelectorAll('.colorbar')).map(box),
                ytitle: Array.from(gd.querySelectorAll('.g-ytitle text, .g-y2title text')).map(box),
                yticks: Array.from(gd.querySelectorAll('.ytick text, .y2tick text')).map(box)};
    }""")
    assert len(boxes["bars"]) == 2 and boxes["ytitle"] and boxes["yticks"]
    for left, right in boxes["bars"]:
        for a, b in boxes["ytitle"] + boxes["yticks"]:
            assert right + 8 <= a or b + 8 <= left, boxes  # 8 px apart, on either side


def test_the_criteria_chart_stays_the_element_it_was_after_exact_loo_was_awaited(app_url, browser):
    """At n = 600 exact LOO is awaited on any server (its estimate is above
    ``PRELIMINARY_ABOVE_SECONDS``; a seed no other test draws, so nothing is cached): the criteria chart
    is drawn without LOO, then again with it. The next rerun, a switch of the importance measure, changes
    the importance, main-effect and interaction charts only: the criteria chart stays the element it was
    (a chart moved to another place in the page is mounted and drawn anew)."""
    import numpy as np

    from svmviz.ui import anova

    defaults = anova.Settings(tuple(anova.KERNEL_LABELS), "cubic", 1.0, 0.2, np.logspace(-6, -1, 11), True)
    assert anova._cost_kwargs(600, defaults)["cost"].seconds > anova.PRELIMINARY_ABOVE_SECONDS
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.goto(f"{app_url}/Kernels_and_variable_selection?n=600&seed=61")
        page.get_by_role("heading", name="Kernels & variable selection").first.wait_for(timeout=60_000)
        _wait_idle(page, timeout=300_000)
        assert _chart_count_when_settled(page, timeout_s=300) == 4
        assert "n=600&seed=61&" in page.url  # the view the link asked for
        mark = """() => document.querySelectorAll('.js-plotly-plot').forEach(gd => { gd.__svSeen = true; })"""
        seen = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(
            gd => [gd.layout.title.text.split(' ')[0], !!gd.__svSeen])"""
        page.evaluate(mark)
        radio = page.get_by_test_id("stRadio").filter(has_text="Importance measure").first
        radio.locator("label").filter(has_not=page.locator("input:checked")).last.click()
        _wait_idle(page)
        assert _chart_count_when_settled(page, timeout_s=120) == 4
        kept = page.evaluate(seen)
        assert kept[0] == ["Tuning", True], kept
    finally:
        context.close()


def test_kernels_page_in_a_real_browser(kernels_page):
    """The page drawn with no exception, then the machine switched to KLR: four charts again, the
    true main effect shown, no exception, no console error (the module's last test: it changes the
    view)."""
    page, errors = kernels_page
    assert page.get_by_test_id("stException").count() == 0
    page.screenshot(path=os.path.join(ARTIFACTS, "anova_initial.png"), full_page=True)
    page.get_by_text("KLR (kernel logistic regression), same λ").first.click()
    _wait_idle(page, timeout=300_000)
    assert _chart_count_when_settled(page, timeout_s=300) == 4
    assert page.get_by_test_id("stException").count() == 0
    page.get_by_text("true main effect").first.wait_for(timeout=30_000)
    page.screenshot(path=os.path.join(ARTIFACTS, "anova_klr.png"), full_page=True)
    assert not errors, errors
