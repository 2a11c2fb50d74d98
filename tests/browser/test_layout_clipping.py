"""What only a browser shows: nothing clipped, nothing drawn over something else — no metric cut
short ("0.324 →…", "72 support v…"), no legend printed over a subplot title, no formula cut off.
The layout checks no AppTest can make, on every page's default view with every expander opened, in
a 1400 × 1000 window (Debian chromium driven by Playwright against ``streamlit run app.py``).
A page with a finding is photographed (tests/artifacts/layout_*.png).

The check flags all three on bare Streamlit scripts reproducing those fragments (the Unbiased SVC
metric rows, the Tuning page's GCKL and (BR)MISCLASS on one line, a horizontal legend on top of two
subplot titles).
"""
from __future__ import annotations

import os
import re

import pytest

from tests.browser.helpers import ARTIFACTS, _home, _nav, _new_page, _no_exception, _page_titles, _settle

pytestmark = pytest.mark.browser

#: pixels of overflow tolerated (sub-pixel rounding of the layout engine)
OVERFLOW_SLACK_PX = 1
#: pixels two text boxes may share: a text's box includes its line's leading above and below the
#: glyphs (a horizontal legend set just under a chart title shares 1–3 px with it and covers nothing;
#: a legend printed over a title covers the title's whole height, 12–16 px)
OVERLAP_SLACK_PX = 4

#: every metric's label and value, every displayed formula, every legend against every annotation
#: (subplot titles are plotly annotations) and against the figure title, in the page's own geometry
LAYOUT_PROBLEMS = """([slack, overlap]) => {
  const out = [];
  const clipped = (e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + slack;
  for (const m of document.querySelectorAll('[data-testid="stMetric"]')) {
    const parts = m.querySelectorAll('[data-testid="stMetricLabel"], [data-testid="stMetricLabel"] *,'
                                   + '[data-testid="stMetricValue"], [data-testid="stMetricValue"] *');
    for (const e of parts) {
      if (clipped(e)) { out.push('metric clipped: ' + m.innerText.replace(/\\s+/g, ' ').trim()); break; }
    }
  }
  for (const k of document.querySelectorAll('.katex-display')) {
    // each '.base' is a run of the formula as drawn; one beyond the display box's edges is cut off
    // (the box scrolls or clips). KaTeX's struts make scrollWidth exceed the drawn width by ~2 px,
    // so scrollWidth is not the test.
    const b = k.getBoundingClientRect();
    const cut = [...k.querySelectorAll('.base')].some(e => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && (r.right > b.right + slack || r.left < b.left - slack);
    });
    if (cut) out.push('formula cut off: ' + k.innerText.replace(/\\s+/g, ' ').slice(0, 60));
  }
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > overlap
                      && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > overlap;
  document.querySelectorAll('.js-plotly-plot').forEach((plot, i) => {
    const legend = plot.querySelector('g.legend .bg') || plot.querySelector('g.legend');
    if (!legend) return;
    const lr = legend.getBoundingClientRect();
    if (lr.width === 0 || lr.height === 0) return;
    const texts = [...plot.querySelectorAll('g.annotation-text-g, .infolayer .gtitle')];
    for (const t of texts) {
      const tr = t.getBoundingClientRect();
      if (tr.width > 0 && meet(lr, tr))
        out.push('legend over a title in chart ' + i + ': "' + t.textContent.slice(0, 50) + '"');
    }
  });
  return out;
}"""


def _open_expanders(page) -> None:
    closed = page.locator('[data-testid="stMain"] [data-testid="stExpander"] details:not([open]) > summary')
    for _ in range(20):  # each click opens one: the locator then finds the next
        if not closed.count():
            break
        closed.first.click()
        page.wait_for_timeout(300)


def test_nothing_clipped_or_overlapping_on_any_page(app_url, browser):
    """On every page's default view (expanders open) no metric label or value is cut
    (ellipsis), no displayed formula runs out of its box, and no legend covers a subplot title or
    the figure's title."""
    problems, errors = {}, []
    page = _new_page(browser, errors)
    _home(page, app_url)
    titles = _page_titles(page)
    assert len(titles) >= 6, titles
    seen = {"metrics": 0, "formulas": 0, "legends": 0}
    for title in titles:
        _nav(page, title)
        _no_exception(page, title)
        _open_expanders(page)
        _settle(page)
        found = page.evaluate(LAYOUT_PROBLEMS, [OVERFLOW_SLACK_PX, OVERLAP_SLACK_PX])
        seen["metrics"] += page.get_by_test_id("stMetric").count()
        seen["formulas"] += page.locator(".katex-display").count()
        seen["legends"] += page.locator(".js-plotly-plot g.legend").count()
        if found:  # a tall screenshot relayouts every chart twice: only of a page with a finding
            problems[title] = found
            size = page.viewport_size
            page.set_viewport_size({"width": size["width"], "height": 2400})
            page.wait_for_timeout(600)
            page.screenshot(path=os.path.join(ARTIFACTS, f"layout_{re.sub(r'[^A-Za-z]+', '_', title)[:30]}.png"))
            page.set_viewport_size(size)
    page.context.close()
    # the checks looked at something: the default views hold metrics, formulas and legends
    assert seen["metrics"] >= 5 and seen["formulas"] >= 5 and seen["legends"] >= 5, seen
    with open(os.path.join(ARTIFACTS, "layout_problems.txt"), "w") as fh:
        fh.write("\n".join(f"{t}: {x}" for t, xs in problems.items() for x in xs))
    assert not problems, problems
    assert not errors, errors


#: what a narrow window cuts besides metrics and formulas: a multiselect's tag, a word of a widget's
#: label broken over two lines ("steepn/ess"), a select box's chosen value, a table wider than its box
NARROW_PROBLEMS = """() => {
  const out = [];
  const main = document.querySelector('[data-testid="stMain"]');
  for (const t of document.querySelectorAll('[data-baseweb="tag"] span')) {  // the sidebar's tags too
    if (t.clientWidth > 0 && t.scrollWidth > t.clientWidth + 1) out.push('tag clipped: ' + t.textContent);
  }
  for (const l of main.querySelectorAll('[data-testid="stWidgetLabel"]')) {
    const walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
    let n;
    while ((n = walker.nextNode())) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(n.textContent))) {
        const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const rows = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
        if (rows.size > 1) out.push('word broken in a label: ' + m[0]);
      }
    }
    const p = l.querySelector('p');
    // (a formula's hidden MathML copy widens scrollWidth: labels with KaTeX are read by their words)
    if (p && !p.querySelector('.katex') && p.clientWidth > 0 && p.scrollWidth > p.clientWidth + 1)
      out.push('label cut: ' + l.innerText);
  }
  // the main area's select boxes and the sidebar's (the data-set choice on every page)
  for (const s of document.querySelectorAll('[data-testid="stSelectbox"] input')) {
    if (s.clientWidth > 0 && s.scrollWidth > s.clientWidth + 1) out.push('select value cut: ' + s.value);
  }
  for (const d of main.querySelectorAll('[data-testid="stDataFrame"] .dvn-scroller')) {
    if (d.scrollWidth > d.clientWidth + 1) out.push('table cut: ' + d.scrollWidth + ' > ' + d.clientWidth);
  }
  return out;
}"""

#: the narrowest plot area (pixels) of a chart, and of a map (a heatmap or contour panel), at 1024 × 768:
#: narrower, the tick labels pile up and a map's boundary and points shrink to a smudge; a chart that
#: narrow stacks under its neighbour instead
MIN_PLOT_PX, MIN_MAP_PX = 150, 160

#: every chart's panels at least the stated width; every chart and axis title and legend entry whole inside its chart
NARROW_CHARTS = """([minPlot, minMap]) => {
  const out = [];
  document.querySelectorAll('.js-plotly-plot').forEach((gd) => {
    const svg = gd.querySelector('svg.main-svg');
    if (!svg) return;
    const box = svg.getBoundingClientRect();
    if (box.width === 0) return;  // in a closed tab
    const t = gd.querySelector('.infolayer .gtitle');
    const name = ((t || {}).textContent || '(untitled)').slice(0, 50);
    const isMap = gd.querySelector('.heatmaplayer .hm, .contourlayer .contour') !== null;
    const least = isMap ? minMap : minPlot;
    for (const d of gd.querySelectorAll('.draglayer .nsewdrag')) {
      const w = d.getBoundingClientRect().width;
      if (w > 0 && w < least) { out.push((isMap ? 'map' : 'chart') + ' plot ' + Math.round(w) + ' px wide (< ' + least
                                         + '): "' + name + '"'); break; }
    }
    // the chart's title and its axes' titles (rotated ones too) whole inside the chart
    for (const e of gd.querySelectorAll('.infolayer .gtitle, .infolayer text[class$="title"]')) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
                          || r.bottom > box.bottom + 1)) out.push('title cut: "' + e.textContent.slice(0, 50) + '"');
    }
    for (const e of gd.querySelectorAll('.legendtext')) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.right > box.right + 1) { out.push('legend entry cut: "' + e.textContent.slice(0, 50) + '"'); break; }
    }
  });
  return out;
}"""


def _tabs(page):
    """Open each tab of the page in turn (the first is open); yields the tab's label ('' for a page without)."""
    yield ""
    for k in range(1, page.get_by_role("tab").count()):
        tab = page.get_by_role("tab").nth(k)
        tab.click()
        _settle(page)
        page.wait_for_timeout(600)  # Plotly draws a chart of a tab once the tab shows
        yield tab.inner_text().strip()


def test_every_page_fits_a_1024_by_768_projector(app_url, browser):
    """At 1024 × 768 (the sidebar open), on every page and tab: no metric or formula cut, no tag or
    select value clipped (the sidebar's data-set choice and kernel tags included), no word of a label
    broken, no table cut at the right, no chart or axis title or legend entry cut, no chart or map squeezed
    narrower than MIN_PLOT_PX / MIN_MAP_PX (tests/artifacts/layout_1024_*.png)."""
    problems, errors, seen = {}, [], []
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    _home(page, app_url)
    titles = _page_titles(page)
    assert len(titles) >= 7, titles
    for title in titles:
        _nav(page, title)
        _no_exception(page, title)
        _open_expanders(page)
        _settle(page)
        for tab in _tabs(page):
            where = f"{title} / {tab}" if tab else title
            seen.append((where, page.locator(".js-plotly-plot").count()))
            found = (page.evaluate(LAYOUT_PROBLEMS, [OVERFLOW_SLACK_PX, OVERLAP_SLACK_PX]) + page.evaluate(NARROW_PROBLEMS)
                     + page.evaluate(NARROW_CHARTS, [MIN_PLOT_PX, MIN_MAP_PX]))
            if found:
                problems[where] = found
                page.screenshot(path=os.path.join(ARTIFACTS, f"layout_1024_{re.sub(r'[^A-Za-z]+', '_', where)[:40]}.png"))
    page.context.close()
    # the walk measured charts: the chart pages and their tabs
    assert sum(n for _, n in seen) >= 20 and len(seen) > len(titles), seen
    assert not problems, problems
    assert not errors, errors
