"""Real-browser test: no two texts of a chart overlap, and no button label is cut, on every page.

The session's shared server, one browser session per data choice (generated data; a penguins-shaped
upload with long column names, named classes and missing values: two columns on every page, all four
on the Kernels page), every page visited once through the sidebar and measured at 1440 × 900, 1280 × 720
and 1024 × 768 (a projector), all its charts at each size. Every text of a Plotly chart is an SVG ``<text>`` (titles,
axis titles, tick labels, legend entries, annotations, colour-bar labels): two of them whose boxes on
screen intersect by more than a few pixels in both directions are a collision. A page and size with
a collision or a cut label is photographed (tests/artifacts/overlap_*.png); a tall screenshot
relayouts every chart twice, so pages without a finding are not.
"""
from __future__ import annotations

import os
import re
import time

import pytest

from svmviz.ui.glossary import GLOSSARY

from tests.apptest_utils import penguins_csv
from tests.browser.helpers import ARTIFACTS, _nav, _no_exception, _page_titles, _settle, _upload

pytestmark = pytest.mark.browser

SIZES = ((1440, 900), (1280, 720), (1024, 768))
#: overlap (pixels, in both directions) beyond which two texts collide; rotated texts' bounding
#: rectangles over-report, so they get a wider margin
MARGIN, ROTATED_MARGIN = 2.0, 5.0

# every visible text of every chart, and the pairs of the same chart whose boxes intersect
COLLISIONS = """([margin, rotatedMargin]) => {
  const out = [];
  document.querySelectorAll('.js-plotly-plot').forEach((gd) => {
    const title = ((gd.querySelector('.gtitle') || {}).textContent || '').slice(0, 60);
    const boxes = [];
    gd.querySelectorAll('svg text').forEach((t) => {
      const text = (t.textContent || '').trim();
      if (!text || t.closest('.hoverlayer')) return;
      for (let e = t; e && e !== gd; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return;
      }
      const r = t.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) return;
      const tf = (t.getAttribute('transform') || '') + ((t.parentElement && t.parentElement.getAttribute('transform')) || '');
      const rot = /rotate\\((?!0[ ,)])/.test(tf);
      boxes.push({text, cls: t.getAttribute('class') || (t.parentElement && t.parentElement.getAttribute('class')) || '',
                  l: r.left, r: r.right, t: r.top, b: r.bottom, rot});
    });
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const m = (a.rot || b.rot) ? rotatedMargin : margin;
      const ox = Math.min(a.r, b.r) - Math.max(a.l, b.l), oy = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (ox > m && oy > m) out.push({chart: title, a: a.text.slice(0, 50), b: b.text.slice(0, 50),
                                      ca: a.cls, cb: b.cls, ox: Math.round(ox), oy: Math.round(oy)});
    }
  });
  return out;
}"""

# buttons whose label does not fit (Streamlit cuts it with an ellipsis)
CUT_BUTTONS = """() => [...document.querySelectorAll('[data-testid="stButton"] button, [data-testid="stDownloadButton"] button')]
  .filter((b) => b.offsetParent !== null)
  .filter((b) => [...b.querySelectorAll('p, div, span')].some((e) => e.scrollWidth > e.clientWidth + 1))
  .map((b) => b.innerText.trim())"""


# the glossary's rows as text a person can read (an HTML table), and whether any cell is cut
GLOSSARY_ROWS = """() => [...document.querySelectorAll('[data-testid="stExpander"] table tbody tr')]
  .filter((tr) => tr.offsetParent !== null)
  .map((tr) => [tr.innerText.split('\\t')[0].trim(), [...tr.children].some((c) => c.scrollWidth > c.clientWidth + 1)])"""


def _check(page, where: str, found: list) -> None:
    page.wait_for_timeout(900)  # Plotly relayouts after a resize
    for c in page.evaluate(COLLISIONS, [MARGIN, ROTATED_MARGIN]):
        found.append(f"{where}: [{c['chart']}] {c['a']!r} ({c['ca']}) × {c['b']!r} ({c['cb']}), {c['ox']}×{c['oy']} px")
    for label in page.evaluate(CUT_BUTTONS):
        found.append(f"{where}: button label cut: {label!r}")


def _shot(page, name: str) -> None:
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 3200})
    page.wait_for_timeout(900)
    page.screenshot(path=os.path.join(ARTIFACTS, f"overlap_{name}.png"))
    page.set_viewport_size(size)


def _check_and_show(page, where: str, shot: str, found: list) -> None:
    """Check the page; photograph it only when the check found something."""
    before = len(found)
    _check(page, where, found)
    if len(found) > before:
        _shot(page, shot)


def _walk(page, titles, tag: str, found: list, visited: list) -> None:
    for title in titles:
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        t0 = time.time()
        _nav(page, title)
        _no_exception(page, f"{title} ({tag})")
        if tag != "generated" and title != "Criteria studies":  # the upload is every page's data
            assert page.get_by_test_id("stSidebar").get_by_text(f"Uploaded: {tag}.csv").count(), title
        for w, h in SIZES:
            page.set_viewport_size({"width": w, "height": h})
            _settle(page)
            where = f"{title}, {tag}, {w}×{h}"
            _check_and_show(page, where, f"{tag}_{w}_{re.sub(r'[^A-Za-z]+', '_', title)[:30]}", found)
        visited.append((title, tag, round(time.time() - t0, 1)))


def test_no_chart_text_collides_on_any_page_at_three_sizes(app_url, browser, tmp_path):
    url = app_url
    found, visited, errors = [], [], []
    # generated data; the penguins-shaped upload with two columns (every 2-D map drawn); with all four
    # columns on the Kernels page (its six components' long names)
    for tag in ("generated", "penguins", "penguins4"):
        context = browser.new_context(viewport={"width": SIZES[0][0], "height": SIZES[0][1]})
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        # small views: the generated data at n = 100 (shared by the pages), the grids of their links
        page.goto(f"{url}/Tuning_criteria?n=100&res=8")
        page.get_by_role("heading", name="Tuning criteria").first.wait_for(timeout=120_000)
        _settle(page)
        if tag != "generated":
            content = penguins_csv(columns=("bill_length_mm", "flipper_length_mm") if tag == "penguins" else None)
            _upload(page, content, f"{tag}.csv", tmp_path)
            assert page.get_by_text("Dropped 2 of 276 rows with missing values").count(), "no missing-value note"
        if tag == "penguins4":
            _walk(page, ["Kernels & variable selection"], tag, found, visited)
            context.close()
            continue
        # home through the sidebar: the same session, so the upload and n stay the pages' data
        page.locator('[data-testid="stSidebarNav"] a', has_text="Home").first.click()
        page.get_by_role("heading", name="svmviz").first.wait_for(timeout=60_000)
        _settle(page)
        for w, h in SIZES:  # the home page: its glossary opened
            page.set_viewport_size({"width": w, "height": h})
            if w == SIZES[0][0]:
                page.get_by_text("Glossary: every acronym of the app").first.click()
            _settle(page)
            before = len(found)
            _check(page, f"Home, {tag}, {w}×{h}", found)
            rows = page.evaluate(GLOSSARY_ROWS)  # every acronym's row, readable, no cell cut
            if len(rows) != len(GLOSSARY) or any(cut for _, cut in rows):
                found.append(f"Home, {tag}, {w}×{h}: glossary rows shown {len(rows)} of {len(GLOSSARY)}, cut: "
                             f"{[text for text, cut in rows if cut]}")
            if len(found) > before:
                _shot(page, f"{tag}_{w}_Home")
        _walk(page, _page_titles(page), tag, found, visited)
        context.close()
    print("\nvisited (page, data, seconds):", visited)
    assert not errors, errors
    assert len(visited) == 15, visited
    assert not found, "texts that collide or are cut:\n" + "\n".join(found)
