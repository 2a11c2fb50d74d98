"""Charts in a page's tab that opens later are drawn when it is shown: with their traces and axis
ticks, at the tab's width (a chart drawn while hidden gets width 0 and no ticks).

The test records, per Plotly div, the ``plotly_afterplot`` events of draws that had data.
"""
from __future__ import annotations

import contextlib
import os

import pytest

from tests.browser.helpers import ARTIFACTS

pytestmark = pytest.mark.browser


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
def _page(browser, app_url: str, url_path: str):
    """A page with the draw counter open at ``url_path`` once its first chart is there and the page
    idle; yields (page, page errors)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(INIT)
    page.goto(f"{app_url}/{url_path}")
    page.locator('[data-testid="stPlotlyChart"]').first.wait_for(timeout=300_000)
    _idle(page)
    try:
        yield page, errors
    finally:
        page.close()


def test_charts_in_a_hidden_tab_draw_when_it_is_shown(app_url, browser):
    """Import vector machine page, the λ-path tab opened: its charts are drawn with their traces and
    ticks at the tab's width (the page's tabs are lazy: its charts mount when the tab opens)."""
    with _page(browser, app_url, "Import_vector_machine") as (page, errors):
        page.get_by_role("tab", name="λ path").click()
        page.wait_for_timeout(1500)
        _idle(page)
        rows = page.evaluate(DRAWN)
        visible = [row for row in rows if row[6]]
        assert len(visible) >= 2, rows
        for _, draws, n_traces, width, container, ticks, _visible in visible:
            assert n_traces > 0 and ticks > 0, rows
            assert draws[0] >= 1, f"a visible chart never drew its figure: {rows}"
            assert width == container
        page.screenshot(path=os.path.join(ARTIFACTS, "browser_ivm_path_tab.png"))
        assert not errors, errors
