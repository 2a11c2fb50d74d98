"""Each chart is drawn once per rerun that changes its figure, in the real browser.

A changed figure is a new chart element; the element draws it (``Plotly.react`` on an empty plot) and
then hands Plotly a copy of the same figure after mounting, which Plotly would draw in full a second
time. Counted here: the ``Plotly.react`` calls that reach Plotly for each plot (a hook installed before
the page's scripts run, so it sits under the app's own script), and every call made (a hook over
all, installed once the page is up), which must stop when the page is idle (no endless hand-back).
The Seed + 1 of the sidebar changes every chart of the Kernels and Tuning pages."""
from __future__ import annotations

import time

import pytest

from tests.browser.helpers import _query, _settle

pytestmark = pytest.mark.browser

# under every other hook of window.Plotly: the draws Plotly is asked to make, per plot element
DRAWS = """() => {
  let held;
  const count = (P) => {
    if (!P || P.__drawsCounted) { return P; }
    const react = P.react;
    P.react = function (gd) {
      gd.__draws = (gd.__draws || 0) + 1;
      window.__draws = (window.__draws || 0) + 1;
      return react.apply(this, arguments);
    };
    P.__drawsCounted = true;
    return P;
  };
  Object.defineProperty(window, 'Plotly', {configurable: true, get() { return held; },
                                           set(v) { held = count(v); }});
}"""
# over every other hook: every call the page makes
CALLS = """() => {
  const P = window.Plotly;
  if (P.__callsCounted) { return; }
  const react = P.react;
  P.react = function () { window.__calls = (window.__calls || 0) + 1; return react.apply(this, arguments); };
  P.__callsCounted = true;
}"""
RESET = "() => { window.__draws = 0; window.__calls = 0; }"
PER_PLOT = """() => Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot'))
                    .map(gd => gd.__draws || 0)"""


def _step_seed(page, step, timeout_s: float = 300.0) -> int:
    """Click the Seed's + and wait until the page's run has begun (it writes the new seed into the URL),
    then until the page has settled; the number of charts. On a busy machine the rerun can start
    later than the settle's quiet time: the next click would then interrupt it, and a chart it had
    already drawn would be drawn again."""
    seed = page.get_by_test_id("stSidebar").get_by_role("spinbutton", name="Seed").first
    want = str(int(seed.input_value()) + 1)
    step.click()
    t_end = time.time() + timeout_s
    while _query(page).get("seed") != want:
        assert time.time() < t_end, f"the run for seed {want} did not start within {timeout_s:.0f} s"
        page.wait_for_timeout(100)
    return _settle(page, timeout_s=timeout_s)


@pytest.mark.parametrize("title", ["Kernels & variable selection", "Tuning criteria"])
def test_a_new_seed_draws_each_chart_once(app_url, browser, title):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.add_init_script(f"({DRAWS})()")
    try:
        page.goto(app_url)
        page.get_by_role("heading", name="svmviz").wait_for(timeout=60_000)
        page.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
        page.get_by_role("heading", name=title).first.wait_for(timeout=120_000)
        _settle(page, timeout_s=300)
        page.evaluate(CALLS)
        step = page.get_by_test_id("stSidebar").get_by_test_id("stNumberInputStepUp").first
        _step_seed(page, step)  # not counted: the reruns counted are those of a page already laid out and rerun once
        for _ in range(2):
            page.evaluate(RESET)
            n = _step_seed(page, step)
            per_plot = page.evaluate(PER_PLOT)
            draws, calls = page.evaluate("() => [window.__draws, window.__calls]")
            assert n >= 2 and len(per_plot) == n, (n, per_plot)
            # every chart is new (a new seed changes every figure) and drawn once
            assert per_plot == [1] * n, f"{title}: Plotly draws per chart {per_plot}"
            assert draws == n
            page.wait_for_timeout(1500)
            assert page.evaluate("() => window.__calls") == calls, f"{title}: charts handed to Plotly while idle"
        assert not errors, errors
    finally:
        context.close()
