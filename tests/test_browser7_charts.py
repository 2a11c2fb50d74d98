"""Each changed chart is drawn once per rerun in the browser (issue 13, warm interactions).

Streamlit mounts a chart anew whenever its figure changes, before it has measured the chart's width,
and its chart component calls ``Plotly.react`` twice: first without a width (on a hidden div), then
with the measured width — Plotly drew the whole figure both times (``bench/bench_warm_breakdown.py
--profile``: ``doCalcdata`` and ``drawData`` twice per chart). The frame installs
``charts.FIRST_DRAW_SCRIPT``, which makes the first, width-less call draw an empty plot.

The test counts, per Plotly div, the ``plotly_afterplot`` events of draws that had data.
"""
from __future__ import annotations

import contextlib
import os

import pytest

from svmviz.ui.charts import FIRST_DRAW_SCRIPT

from .test_browser import browser  # noqa: F401  (the module's chromium)

pytestmark = pytest.mark.browser


def test_the_frame_installs_the_first_draw_script():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(os.path.join(os.path.dirname(os.path.dirname(__file__)), "app.py")).run(timeout=60)
    assert not at.exception
    assert any(FIRST_DRAW_SCRIPT in h.proto.body for h in at.get("html"))


# ------------------------------------------------------------------ in the browser
INIT = r"""
(() => {
  // every Plotly div's draws: Plotly.react sets gd.emit; count plotly_afterplot of draws with data
  window.__svDraws = [];
  Object.defineProperty(HTMLDivElement.prototype, 'emit', {configurable: true, set(v) {
    const gd = this;
    if (gd.__svIdx === undefined) { gd.__svIdx = window.__svDraws.length; window.__svDraws.push([0, 0]); }
    Object.defineProperty(gd, 'emit', {configurable: true, writable: true, value: function (ev, d) {
      if (ev === 'plotly_afterplot') { window.__svDraws[gd.__svIdx][(gd.data || []).length ? 0 : 1] += 1; }
      return v.call(this, ev, d);
    }});
  }});
})();
"""

DRAWN = r"""() => Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')).map(gd => [
  gd.__svIdx === undefined ? null : gd.__svIdx, gd.__svIdx === undefined ? null : window.__svDraws[gd.__svIdx],
  (gd.data || []).length,
  gd._fullLayout ? gd._fullLayout.width : null, gd.parentElement ? gd.parentElement.clientWidth : null,
  gd.querySelectorAll('.xtick').length, gd.offsetWidth > 0 && gd.getClientRects().length > 0])"""


def _idle(page, timeout: float = 240.0) -> None:
    page.wait_for_timeout(700)
    page.get_by_test_id("stStatusWidget").wait_for(state="detached", timeout=timeout * 1000)
    page.wait_for_timeout(700)


@contextlib.contextmanager
def _page(browser, url_path: str, log_name: str):
    """A server of its own (no warm-up), a page with the draw counter open at ``url_path`` once its
    first chart is there and the page idle; yields (page, page errors)."""
    from .test_browser import start_server, stop_server

    proc, url, log = start_server(log_name, env={**os.environ, "SVMVIZ_WARMUP": "0"})
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(INIT)
        page.goto(f"{url}/{url_path}")
        page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=300_000)
        _idle(page)
        yield page, errors
        page.close()
    finally:
        stop_server(proc, log)


def test_a_rerun_draws_each_changed_chart_once(browser):
    """Loss page, Seed + 1: its two data-dependent charts are mounted anew; each draws its figure
    once (before: twice — without a width, then at the measured width), at the measured width, with
    its ticks; the figures that did not change are not redrawn."""
    with _page(browser, "Loss_functions", "browser7_charts.log") as (page, errors):
        before = page.evaluate(DRAWN)
        page.get_by_test_id("stSidebar").get_by_test_id("stNumberInputStepUp").first.click()
        _idle(page)
        after = page.evaluate(DRAWN)
        assert len(after) == len(before) >= 4
        old = {row[0] for row in before}
        new = [row for row in after if row[0] is not None and row[0] not in old]
        kept = [row for row in after if row in before]  # the same div, drawn as often as before
        assert new, after
        for _, draws, n_traces, width, container, ticks, _visible in new:
            assert n_traces > 0 and ticks > 0
            assert draws[0] == 1, f"a changed chart drew its figure {draws[0]} times: {after}"
            assert width == container
        assert len(kept) >= 2  # the loss / μ(f) figures do not change with the seed: not redrawn
        assert page.evaluate("() => window.__svmvizEmptyDraws || 0") >= len(new)
        assert not errors, errors


def test_charts_in_a_hidden_tab_draw_when_it_is_shown(browser):
    """Import vector machine page, the λ-path tab opened: its charts are drawn with their traces and
    ticks, once, at the tab's width. (Written when the closed tabs drew hidden, width 0: Streamlit
    then called Plotly.react twice without a width and the figure was drawn three times; the page's
    tabs are lazy since, so its charts mount when the tab opens.)"""
    with _page(browser, "Import_vector_machine", "browser7_tabs.log") as (page, errors):
        page.get_by_role("tab", name="λ path").click()
        page.wait_for_timeout(1500)
        _idle(page)
        rows = page.evaluate(DRAWN)
        visible = [row for row in rows if row[6]]
        assert len(visible) >= 2, rows
        for _, draws, n_traces, width, container, ticks, _visible in visible:
            assert n_traces > 0 and ticks > 0, rows
            # the page's tabs are lazy (svmviz.ui.ivm: only the open tab computes and draws): the λ path's
            # charts are new when the tab opens and draw once at its width (2 while hidden tabs drew)
            assert draws[0] == 1, f"a chart drew its figure {draws[0]} times: {rows}"
            assert width == container
        page.screenshot(path=os.path.join(os.path.dirname(__file__), "artifacts", "browser7_ivm_path_tab.png"))
        assert not errors, errors
