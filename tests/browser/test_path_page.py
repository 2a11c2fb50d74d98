"""The Regularization path page in the real browser: its charts are drawn once, each starting with
the margins Plotly's automargin wants (``svmviz.figures.path.MARGINS``; the figures' margins
themselves are checked without a browser in tests/figures/test_path_margins.py)."""
from __future__ import annotations

import pytest

from tests.browser.helpers import _chart_count_when_settled, _wait_idle

pytestmark = pytest.mark.browser


def test_the_path_page_charts_are_drawn_with_their_final_margins(app_url, browser):
    """Default view (banana, four charts with LOO) and twonorm (20 features, the map on two of them: four
    charts), 1400 px window:
    every chart's computed size equals its layout margins, i.e. Plotly did not widen and redraw it
    (a chart narrower than its tick labels, axis titles and legend need is widened and redrawn)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        for query, n_charts in (("", 4), ("?data=twonorm", 4)):
            page.goto(app_url + "/Regularization_path" + query)
            page.get_by_test_id("stPlotlyChart").first.wait_for(timeout=300_000)
            _wait_idle(page, timeout=300_000)
            assert _chart_count_when_settled(page, timeout_s=300) == n_charts, query
            sizes = page.evaluate("""() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(gd => [
                gd.layout.title.text, gd.layout.margin, gd._fullLayout._size])""")
            assert len(sizes) == n_charts, query
            for title, margin, size in sizes:
                for side in ("l", "r", "t", "b"):
                    assert round(size[side]) == margin[side], (query, title, side, margin, size)
    finally:
        context.close()
