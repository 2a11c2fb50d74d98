"""The Kernels page's interaction panels in the real browser: the left panel's colour bar (its bar
and tick labels) ends before the right panel's y-axis tick labels and title begin. Failed before
(horizontal spacing 0.16 at the page's width): colour bar 790-855 px, the right y title 837-853 px."""
from __future__ import annotations

import pytest

from .test_browser import app_url  # noqa: F401
from .test_kernels8 import kernels_page_settled


@pytest.mark.browser
def test_the_left_colour_bar_clears_the_right_panels_y_axis(app_url):  # noqa: F811
    with kernels_page_settled(app_url) as page:
        boxes = page.evaluate("""() => {
            const gd = Array.from(document.querySelectorAll('.js-plotly-plot')).find(
                d => d.layout.title.text.includes('Two-factor interactions'));
            const box = e => { const b = e.getBoundingClientRect(); return [b.left, b.right]; };
            return {bars: Array.from(gd.querySelectorAll('.colorbar')).map(box),
                    ytitle: Array.from(gd.querySelectorAll('.g-y2title text')).map(box),
                    yticks: Array.from(gd.querySelectorAll('.y2tick text')).map(box)};
        }""")
    assert len(boxes["bars"]) == 2 and boxes["ytitle"] and boxes["yticks"]
    left_bar_right = min(b[1] for b in boxes["bars"])  # the left panel's colour bar
    right_axis_left = min(b[0] for b in boxes["ytitle"] + boxes["yticks"])
    assert left_bar_right + 8 <= right_axis_left, boxes
