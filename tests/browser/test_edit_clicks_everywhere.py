"""Real-browser test: a click anywhere inside the editor's plotting area adds a point (or lands on a
data point, which it removes) — the corners and edges of the plot included, not only the middle."""
from __future__ import annotations

import time

import pytest

from tests.browser.helpers import ARGS, ARTIFACTS, CHROMIUM
from tests.browser.test_edit import _editor, _points, _settle

pytestmark = pytest.mark.browser

# the plot area in page pixels and every data point's pixel position
GEOMETRY = """(gd) => { const L = gd._fullLayout, r = gd.getBoundingClientRect(), s = L._size;
  const xa = L.xaxis, ya = L.yaxis;
  const area = [r.left + xa._offset, r.top + ya._offset, xa._length, ya._length];
  const pts = [];
  for (const t of gd._fullData) { if (!String(t.name || '').startsWith('class')) continue;
    for (let i = 0; i < t.x.length; i++) pts.push([r.left + xa._offset + xa.d2p(t.x[i]), r.top + ya._offset + ya.d2p(t.y[i])]); }
  return {area: area, pts: pts}; }"""


def _spot(geo, k, inset=4, clearance=16):
    """The k-th of the plot area's corners, edge middles and middle (``inset`` px inside), or None when
    a data point lies within ``clearance`` px (a click there would remove that point)."""
    x0, y0, w, h = geo["area"]
    x = (x0 + inset, x0 + w / 2, x0 + w - inset)[k % 3]
    y = (y0 + inset, y0 + h / 2, y0 + h - inset)[k // 3]
    if all((x - a) ** 2 + (y - b) ** 2 >= clearance ** 2 for a, b in geo["pts"]):
        return x, y
    return None


def test_every_click_in_the_plotting_area_adds_a_point(app_url):
    from playwright.sync_api import sync_playwright

    url = app_url
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        page.goto(f"{url}/Tuning_criteria?data=edited&ebase=wahba2001&n=40&seed=1&res=6")
        gd = _editor(page)
        _settle(page)
        missed, clicked, corners = [], 0, 0
        for k in range(9):  # the view follows the points: measure it again before every click
            gd.scroll_into_view_if_needed()
            page.wait_for_timeout(200)
            geo = gd.evaluate(GEOMETRY)
            spot = _spot(geo, k)
            if spot is None:
                continue
            x, y = spot
            clicked += 1
            corners += k in (0, 2, 6, 8)
            neg, pos = _points(page)
            page.mouse.move(x, y)
            page.wait_for_timeout(200)
            page.mouse.click(x, y)
            t_end = time.time() + 20
            while time.time() < t_end and _points(page) == (neg, pos):
                page.wait_for_timeout(200)
            if _points(page) != (neg, pos + 1):
                missed.append((k, round(x), round(y), geo["area"]))
                page.screenshot(path=f"{ARTIFACTS}/edit_everywhere_missed_{k}.png")
            _settle(page)
            gd = _editor(page)
        assert corners >= 3 and clicked >= 6, (corners, clicked)
        page.screenshot(path=f"{ARTIFACTS}/edit_everywhere.png")
        assert page.get_by_test_id("stException").count() == 0
        browser.close()
    assert not missed, f"clicks inside the plotting area that added nothing (spot, x, y, plot area): {missed}"
