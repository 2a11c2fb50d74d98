"""Real-browser test of the data editor: clicks in Debian chromium add and remove points.

Opens a link to the Tuning criteria page with ``data=edited`` in a new session (the editor starts
from the generated data and says that edits are per session), clicks on empty space of the editor's chart
(a point is added where the click was, the boundary f = 0 moves, the page's GACV surface is recomputed
on n + 1 points and changes), clicks on a data point (it is removed), Undo, then a Box Select drag removes the points
inside the box. Screenshots go to tests/artifacts/
(edit_*.png). Timings are printed, never asserted.
"""
from __future__ import annotations

import re
import time

import pytest

from tests.browser.helpers import ARGS, ARTIFACTS, CHROMIUM, _wait_idle

pytestmark = pytest.mark.browser

# data coordinates → page pixels of a Plotly graph div (its axes' d2p plus each axis's offset: with
# constrain="domain" the axes start inside the margins)
TO_PIXELS = """([gd, x, y]) => { const L = gd._fullLayout, r = gd.getBoundingClientRect();
  return [r.left + L.xaxis._offset + L.xaxis.d2p(x), r.top + L.yaxis._offset + L.yaxis.d2p(y)]; }"""
# (gd._fullData: the traces with their arrays decoded from base64)
# the click target farthest from every data point, and the first +1 data point (x, y, row)
SPOTS = """(gd) => {
  const pts = [];
  let plus = null;
  for (const t of gd._fullData) {
    if (!String(t.name || '').startsWith('class')) continue;
    for (let i = 0; i < t.x.length; i++) {
      pts.push([t.x[i], t.y[i]]);
      if (plus === null && String(t.name).startsWith('class +1')) plus = [t.x[i], t.y[i]];
    }
  }
  const T = gd._fullData[0];
  const L = gd._fullLayout, xr = L.xaxis.range, yr = L.yaxis.range;
  let best = null, bestD = -1;
  for (let k = 0; k < T.x.length; k++) {
    const x = T.x[k], y = T.y[k];
    // stay off the border (keep the modebar and the axes out of the way)
    if (x < xr[0] + 0.15 * (xr[1] - xr[0]) || x > xr[1] - 0.15 * (xr[1] - xr[0])) continue;
    if (y < yr[0] + 0.15 * (yr[1] - yr[0]) || y > yr[1] - 0.25 * (yr[1] - yr[0])) continue;
    let d = Infinity;
    for (const p of pts) d = Math.min(d, Math.hypot((p[0] - x) / (xr[1] - xr[0]), (p[1] - y) / (yr[1] - yr[0])));
    if (d > bestD) { bestD = d; best = [x, y]; }
  }
  return {empty: best, plus: plus, n: pts.length};
}"""
# how many data points have their centre in the pixel box [ax, bx] × [ay, by] grown by m pixels
IN_PX_BOX = """([gd, ax, bx, ay, by, m]) => { let k = 0;
  const L = gd._fullLayout, r = gd.getBoundingClientRect();
  const x0 = Math.min(ax, bx) - m, x1 = Math.max(ax, bx) + m, y0 = Math.min(ay, by) - m, y1 = Math.max(ay, by) + m;
  for (const t of gd._fullData) { if (!String(t.name || '').startsWith('class')) continue;
    for (let i = 0; i < t.x.length; i++) {
      const px = r.left + L.xaxis._offset + L.xaxis.d2p(t.x[i]), py = r.top + L.yaxis._offset + L.yaxis.d2p(t.y[i]);
      if (px > x0 && px < x1 && py > y0 && py < y1) k++; } }
  return k; }"""
BOUNDARY = """(gd) => { const t = gd._fullData.find(t => t.name === 'boundary f = 0'); if (!t) return null;
  let s = 0, k = 0;
  const add = (v) => { s += v * (1 + (k % 7)); k += 1; };
  for (const row of t.z) { if (typeof row === 'number') add(row); else for (const v of row) add(v); }
  return [s, k]; }"""  # a weighted checksum of the decision function drawn (and its size)


# the page's GACV surface (the contour named "GACV" on the Tuning page): a weighted checksum of its values
GACV_SURFACE = """() => { for (const gd of document.querySelectorAll('.js-plotly-plot')) {
  const t = (gd._fullData || []).find(t => t.type === 'contour' && String(t.name || '').startsWith('GACV'));
  if (!t) continue;
  let s = 0, k = 0;
  for (const row of t.z) for (const v of (typeof row === 'number' ? [row] : row)) {
    if (v !== null && isFinite(v)) s += v * (1 + (k % 7)); k += 1; }
  return [s, k]; }
  return null; }"""


def _editor(page):
    chart = page.get_by_test_id("stPlotlyChart").filter(has_text="Click to edit").first
    chart.wait_for(timeout=120_000)
    return chart.locator(".js-plotly-plot").first


def _settle(page):
    _wait_idle(page)
    page.wait_for_timeout(700)  # Plotly redraws after the script run ends


def _points(page) -> tuple[int, int]:
    txt = page.get_by_test_id("stMetric").filter(has_text="Points (−1 / +1)").first.inner_text()
    m = re.search(r"(\d+)\s*/\s*(\d+)", txt)
    return int(m.group(1)), int(m.group(2))


def _selected_caption(page) -> str:
    return page.get_by_text(re.compile(r"^Selected point: \d+ support vectors of \d+ points")).first.inner_text()


def _click_data(page, gd, x, y):
    px, py = page.evaluate(TO_PIXELS, [gd.element_handle(), x, y])
    page.mouse.move(px, py)
    page.wait_for_timeout(150)
    page.mouse.click(px, py)


def test_clicks_add_and_remove_points_and_the_boundary_moves(app_url):
    from playwright.sync_api import sync_playwright

    url = app_url
    errors = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.on("pageerror", lambda e: errors.append(str(e)))
        t0 = time.time()
        page.goto(f"{url}/Tuning_criteria?data=edited&ebase=wahba2001&n=60&seed=1&res=8")
        gd = _editor(page)
        _settle(page)
        print(f"\nfirst editor chart after {time.time() - t0:.1f} s")
        assert page.get_by_text("Edited points are kept in one browser session only").count() == 1
        assert page.get_by_test_id("stException").count() == 0
        neg0, pos0 = _points(page)
        assert neg0 + pos0 == 60
        cap0 = _selected_caption(page)
        assert cap0.endswith("of 60 points.")
        bd0 = gd.evaluate(BOUNDARY)
        assert bd0 and bd0[1] == 90 * 90, bd0
        gacv0 = page.evaluate(GACV_SURFACE)
        assert gacv0 and gacv0[1] == 8 * 8, gacv0  # res=8: the 8 × 8 (λ, σ) grid
        page.screenshot(path=f"{ARTIFACTS}/edit_0_start.png", full_page=False)

        # 1. click on empty space: a +1 point is added there
        spots = gd.evaluate(SPOTS)
        t1 = time.time()
        _click_data(page, gd, *spots["empty"])
        page.get_by_text(re.compile(r"Added a \+1 point at")).first.wait_for(timeout=60_000)
        _settle(page)
        print(f"click → page settled: {time.time() - t1:.2f} s")
        assert _points(page) == (neg0, pos0 + 1)
        gd = _editor(page)
        bd1 = gd.evaluate(BOUNDARY)
        assert bd1 != bd0, "the boundary did not move after adding a point"
        gacv1 = page.evaluate(GACV_SURFACE)
        assert gacv1 and gacv1[1] == gacv0[1] and gacv1 != gacv0, "the GACV surface did not change"
        cap1 = _selected_caption(page)
        assert cap1.endswith("of 61 points."), cap1
        added = gd.evaluate(SPOTS)
        assert added["n"] == 61
        page.screenshot(path=f"{ARTIFACTS}/edit_1_added.png", full_page=False)

        # 2. click on a data point: it is removed
        _click_data(page, gd, *added["plus"])
        page.get_by_text(re.compile(r"Removed 1 point")).first.wait_for(timeout=60_000)
        _settle(page)
        assert _points(page) == (neg0, pos0)
        gd = _editor(page)
        assert gd.evaluate(SPOTS)["n"] == 60
        assert _selected_caption(page).endswith("of 60 points.")
        page.screenshot(path=f"{ARTIFACTS}/edit_2_removed.png", full_page=False)

        # 3. Undo brings the removed point back
        page.get_by_role("button", name="Undo").first.click()
        page.get_by_text(re.compile(r"^Undone\.")).first.wait_for(timeout=60_000)
        _settle(page)
        assert _points(page) == (neg0, pos0 + 1)
        assert page.get_by_test_id("stException").count() == 0
        page.screenshot(path=f"{ARTIFACTS}/edit_3_undone.png")

        # 4. a box drawn with the modebar's Box Select removes every point inside it
        gd = _editor(page)
        x, y = gd.evaluate(SPOTS)["plus"]
        a = page.evaluate(TO_PIXELS, [gd.element_handle(), x - 0.6, y + 0.6])
        b = page.evaluate(TO_PIXELS, [gd.element_handle(), x + 0.6, y - 0.6])
        # points within 2 px of the box's edges may fall either side (mouse positions are whole pixels)
        fewest = page.evaluate(IN_PX_BOX, [gd.element_handle(), a[0], b[0], a[1], b[1], -2])
        most = page.evaluate(IN_PX_BOX, [gd.element_handle(), a[0], b[0], a[1], b[1], 2])
        assert fewest >= 1
        page.mouse.move(*a)
        page.wait_for_timeout(300)
        gd.locator('.modebar-btn[data-title="Box Select"]').first.click()
        page.mouse.move(*a)
        page.mouse.down()
        page.mouse.move((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, steps=5)
        page.mouse.move(*b, steps=5)
        page.mouse.up()
        page.wait_for_timeout(500)
        page.screenshot(path=f"{ARTIFACTS}/edit_4_box_drawn.png")
        msg = page.get_by_text(re.compile(r"Removed \d+ points?\.")).first
        msg.wait_for(timeout=60_000)
        removed = int(re.search(r"Removed (\d+)", msg.inner_text()).group(1))
        assert fewest <= removed <= most, (fewest, removed, most)
        _settle(page)
        assert sum(_points(page)) == 61 - removed
        assert _selected_caption(page).endswith(f"of {61 - removed} points.")
        assert page.get_by_test_id("stException").count() == 0
        page.screenshot(path=f"{ARTIFACTS}/edit_4_box_removed.png")
        browser.close()
    assert not errors, errors
