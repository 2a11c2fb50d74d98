"""A chart's width-less first call draws an empty plot WITHOUT axes (``svmviz.ui.charts.FIRST_DRAW_SCRIPT``).

Streamlit mounts a changed chart anew and calls ``Plotly.react`` first without a width; the frame's
script then draws an empty plot of the chart's height and config instead of the figure. Plotly's
default axes on that hidden plot (ticks, grid lines, zero lines of a [-1, 6] range) were most of its
cost: 15-25 ms a chart against 5-8 ms without them (standalone chromium, the path page's specs).
The test records, at each draw's ``plotly_afterplot``, whether it had data and how many axis ticks it
drew: empty draws draw none, the figures' draws do (path page, default view: four charts).
"""
from __future__ import annotations

import os

import pytest

from .test_browser import browser  # noqa: F401  (the module's chromium)

pytestmark = pytest.mark.browser

INIT = r"""
(() => {
  window.__svAfter = [];  // [has data, ticks] at every plotly_afterplot of a chart's div
  Object.defineProperty(HTMLDivElement.prototype, 'emit', {configurable: true, set(v) {
    const gd = this;
    Object.defineProperty(gd, 'emit', {configurable: true, writable: true, value: function (ev, d) {
      if (ev === 'plotly_afterplot') {
        window.__svAfter.push([(gd.data || []).length > 0, gd.querySelectorAll('.xtick, .ytick').length]);
      }
      return v.call(this, ev, d);
    }});
  }});
})();
"""


def test_the_empty_first_draw_draws_no_axes(browser):  # noqa: F811
    from .test_browser import start_server, stop_server

    proc, url, log = start_server("pathdraw11_firstdraw.log", env={**os.environ, "SVMVIZ_WARMUP": "0"})
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(INIT)
        page.goto(f"{url}/Regularization_path")
        page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=300_000)
        page.wait_for_timeout(700)
        page.get_by_test_id("stStatusWidget").wait_for(state="detached", timeout=300_000)
        page.wait_for_timeout(1500)
        after = page.evaluate("() => window.__svAfter")
        n_empty = page.evaluate("() => window.__svmvizEmptyDraws || 0")
        page.close()
    finally:
        stop_server(proc, log)
    empty = [ticks for has_data, ticks in after if not has_data]
    drawn = [ticks for has_data, ticks in after if has_data]
    assert n_empty >= 4 and len(empty) >= 4, after  # the page's four charts, each mounted with an empty draw
    assert all(t == 0 for t in empty), f"an empty first draw drew axis ticks: {after}"
    assert len(drawn) >= 4 and all(t > 0 for t in drawn), after
    assert not errors, errors
