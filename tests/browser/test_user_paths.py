"""Real-browser tests of the paths a person takes: uploads on every
page, the Back button, the grid-point slider, and shared links opened on a fresh server.

Debian chromium driven by Playwright against ``streamlit run app.py``. What only a browser shows:
history entries (``history.length``), Back/Forward, the uploader, what a slider displays, a link
opened by another person on another server. Screenshots go to tests/artifacts/paths_*.png; the
time to the first chart of each page is printed (measured, never asserted).
"""
from __future__ import annotations

import os
import re
import time
import urllib.parse

import pytest

from tests.apptest_utils import three_class_csv, two_class_csv
from tests.browser.helpers import (ARTIFACTS, _home, _nav, _new_page, _no_exception, _page_titles, _path, _query,
                                   _settle, _slider_text, _upload, start_server, stop_server)

pytestmark = pytest.mark.browser


def _shot(page, name: str, height: int = 2400) -> None:
    """A screenshot of the page's first ``height`` pixels (Streamlit scrolls inside its own container,
    so the viewport is made tall for the picture, then restored)."""
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": height})
    page.wait_for_timeout(800)
    page.screenshot(path=os.path.join(ARTIFACTS, f"paths_{name}.png"))
    page.set_viewport_size(size)


# ---------------------------------------------------------------------------------------------
def test_back_button_one_entry_per_action_and_the_grid_point(app_url, browser):
    """Opening a page and moving a slider add one history entry each; Back returns to the
    previous view (URL and widgets), and from another page to a URL with that page's parameters only.
    After "Grid points per axis" changes, the grid-point slider shows the plotted point."""
    errors = []
    page = _new_page(browser, errors)
    _home(page, app_url)
    h0 = page.evaluate("history.length")
    t_tuning = _nav(page, "Tuning criteria")
    assert page.evaluate("history.length") == h0 + 1, "opening a page: one history entry"
    q20 = _query(page)
    assert q20["res"] == "20" and {"data", "n", "seed", "pt_l", "pt_s", "lam_lo"} <= set(q20)
    _shot(page, "tuning")

    page.get_by_role("slider", name="Grid points per axis").focus()
    page.keyboard.press("ArrowRight")
    _settle(page)
    _no_exception(page, "Tuning after the grid change")
    assert page.evaluate("history.length") == h0 + 2, "one slider move: one history entry"
    q21 = _query(page)
    assert q21["res"] == "21"
    # the slider, the URL and the plotted point (decision-curve legend) agree
    shown = float(_slider_text(page, "Grid point: log10 λ"))
    legend = page.get_by_test_id("stPlotlyChart").filter(has_text="selected: log10 λ").first.inner_text()
    plotted = float(re.search(r"selected: log10 λ = (−?-?[0-9.]+)", legend).group(1).replace("−", "-"))
    assert shown == pytest.approx(plotted, abs=0.006) == pytest.approx(float(q21["pt_l"]), abs=0.006)
    _shot(page, "tuning_res21")

    page.go_back()
    _settle(page)
    assert _query(page) == q20 and _slider_text(page, "Grid points per axis") == "20", "Back: the previous view"
    page.go_forward()
    _settle(page)
    assert _query(page) == q21 and _slider_text(page, "Grid points per axis") == "21", "Forward: the next view"

    h = page.evaluate("history.length")
    t_loss = _nav(page, "Losses & randomized GACV")
    assert page.evaluate("history.length") == h + 1
    q_loss = _query(page)
    assert {"lf_sig", "lf_losses"} <= set(q_loss) and not {"res", "pt_l", "mode"} & set(q_loss)
    page.go_back()
    _settle(page)
    assert _path(page).endswith("/Tuning_criteria") and _query(page) == q21, "Back from another page"
    assert not any(k.startswith("lf_") for k in _query(page))
    assert _slider_text(page, "Grid points per axis") == "21"
    _no_exception(page, "Tuning after Back")
    page.go_back()
    page.go_back()
    _settle(page)
    assert _path(page) in ("", "/") and not _query(page), "two more Backs: home"
    page.context.close()
    assert not errors, errors
    print(f"\nfirst visit, first chart: Tuning criteria {t_tuning:.1f} s; Losses {t_loss:.1f} s")


def test_every_page_with_uploaded_files(app_url, browser, tmp_path):
    """With an uploaded two-class (±1, two features) and three-class file, every page
    draws its charts or says why not — no traceback."""
    errors = []
    page = _new_page(browser, errors)
    _home(page, app_url)
    titles = _page_titles(page)
    assert len(titles) >= 5, titles
    for content, tag in ((two_class_csv(80), "2class"), (three_class_csv(90), "3class")):
        _nav(page, "Tuning criteria")
        _upload(page, content, f"{tag}.csv", tmp_path)
        for title in titles:
            if title != "Tuning criteria":
                _nav(page, title)
            _no_exception(page, f"{title} with the {tag} upload")
            assert page.get_by_test_id("stSidebar").get_by_text(f"Uploaded: {tag}.csv").count() or \
                "Criteria studies" in title, f"{title}: the upload is not the page's data"
            charts = page.get_by_test_id("stPlotlyChart").count()
            said = page.get_by_test_id("stAlert").count()
            assert charts or said, f"{title}: neither a chart nor a message with the {tag} upload"
            _shot(page, f"upload_{tag}_{re.sub(r'[^A-Za-z]+', '_', title)[:30]}")
    page.context.close()
    assert not errors, errors


#: a control of each page changed through the UI before its link is copied (label, key presses)
CHANGES = {
    "Tuning criteria": ("Grid points per axis", ["ArrowLeft", "ArrowLeft"]),
    "Losses & randomized GACV": ("Number of λ values", ["ArrowLeft"]),
    "Unbiased SVC": ("R prototypes", ["ArrowRight"]),
    "Import vector machine": ("Tuning-set size", ["ArrowLeft"]),
}


def _seed_input(page):
    """The sidebar's Seed of a page that has one, once it is drawn: some pages draw their data sidebar
    after their first sections (the Losses page, after its loss charts), so a slow run shows it late."""
    seed = page.get_by_test_id("stSidebar").get_by_role("spinbutton", name="Seed")
    try:
        seed.first.wait_for(timeout=15_000)
    except Exception as exc:  # Playwright's TimeoutError: this page has no Seed
        if "Timeout" not in type(exc).__name__:
            raise
    _settle(page)
    return seed


def test_shared_links_reopen_every_page_on_a_fresh_server(app_url, browser):
    """A link copied from any page reopens the same view for another person on a fresh
    server — every control comes back (the page, having read its controls from the link, writes
    exactly the same link) and the shared seed is the one chosen."""
    errors = []
    page = _new_page(browser, errors)
    _home(page, app_url)
    links = {}
    for title in _page_titles(page):
        _nav(page, title)
        seed = _seed_input(page)
        if seed.count() and seed.first.input_value() != "3":  # the seed is shared: set once, kept by the others
            seed.first.fill("3")
            seed.first.press("Enter")
            _settle(page)
        if title in CHANGES:
            label, keys = CHANGES[title]
            page.get_by_role("slider", name=label).first.focus()
            for k in keys:
                page.keyboard.press(k)
                _settle(page)
        _no_exception(page, title)
        shown = _slider_text(page, CHANGES[title][0]) if title in CHANGES else None
        links[title] = (page.url, shown)
    page.context.close()

    proc, fresh, log = start_server("streamlit_paths_fresh.log")
    try:
        for title, (link, shown) in links.items():
            other = _new_page(browser, errors)
            t0 = time.time()
            other.goto(fresh + link[len(app_url):])
            other.get_by_role("heading", name=title).first.wait_for(timeout=120_000)
            _settle(other)
            took = time.time() - t0
            _no_exception(other, f"{title} from a link")
            assert _query(other) == dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query)), title
            nav = other.locator('[data-testid="stSidebarNav"] a').all_inner_texts()
            assert any("Home" in t for t in nav), f"{title}: not in the app frame"
            seed = _seed_input(other)
            if seed.count():
                assert seed.first.input_value() == "3", title
            if title in CHANGES:  # the control changed on the first server shows the same value here
                assert _slider_text(other, CHANGES[title][0]) == shown, title
            _shot(other, f"link_{re.sub(r'[^A-Za-z]+', '_', title)[:30]}")
            print(f"\nlink on a fresh server: {title} settled in {took:.1f} s")
            other.context.close()
    finally:
        stop_server(proc, log)
    assert not errors, errors


def test_sidebar_page_titles_are_whole_at_1024x768(app_url, browser):
    """A projector's 1024 × 768: every page's title in the sidebar's navigation is shown whole (its text
    is not wider than the box Streamlit gives it, which would end it with an ellipsis)."""
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    _home(page, app_url)
    spans = page.evaluate("""() => Array.from(document.querySelectorAll('[data-testid="stSidebarNav"] a span'))
        .map(s => [s.textContent, s.scrollWidth, s.clientWidth])""")
    from svmviz.ui.frame import PAGES

    shown = {text: (scroll, client) for text, scroll, client in spans}  # the icons' spans hold their names
    for spec in PAGES:
        assert spec.title in shown, (spec.title, sorted(shown))
        scroll, client = shown[spec.title]
        assert scroll <= client, f"“{spec.title}” is cut in the sidebar at 1024 × 768 ({scroll} > {client} px)"
    page.context.close()
