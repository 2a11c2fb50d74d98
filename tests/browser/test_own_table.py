"""A table as a user brings it, uploaded in a real browser (Debian chromium, Playwright): a text column,
6 numeric features on very different scales, 3 named classes, empty cells, column names with commas
and quotes. The sidebar offers the column roles and the class choice; every page opens with the table and draws
its map (or its main chart) with the class names in the legend; a copied link reopens the same roles,
classes and map axes once the file is uploaded again."""
from __future__ import annotations

import os

import pytest

from tests.browser.helpers import (ARTIFACTS, _home, _nav, _new_page, _no_exception, _page_titles, _query, _settle,
                                   _upload)
from tests.data.own_table import own_table_csv

pytestmark = pytest.mark.browser

FILE = "cars by origin.csv"
LOSS = "Losses & randomized GACV"


def _shot(page, name: str, height: int = 2400) -> None:
    """A picture of the page and its whole sidebar (each scrolls in its own container: the viewport is
    made tall for the picture, then restored)."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": height})
    page.wait_for_timeout(800)
    page.screenshot(path=os.path.join(ARTIFACTS, f"own_table_{name}.png"))
    page.set_viewport_size(size)


def _choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the sidebar's selectbox labelled ``label``."""
    sb = page.get_by_test_id("stSidebar")
    box = sb.get_by_test_id("stSelectbox").filter(has_text=label).first
    box.scroll_into_view_if_needed()  # the map axes sit low in the sidebar
    box.locator("input").first.click()
    page.get_by_role("option", name=option, exact=False).first.click()
    _settle(page)


def _chips(page) -> list[str]:
    box = page.get_by_test_id("stSidebar").get_by_test_id("stMultiSelect").filter(has_text="Feature columns").first
    box.wait_for(timeout=60_000)
    return [t.strip() for t in box.locator("[data-tag] [title]").all_inner_texts()]


def _legend(page) -> set[str]:
    """The legend entries of every chart on the page."""
    texts = page.locator('[data-testid="stPlotlyChart"] .legendtext').all_text_contents()
    return {t.strip() for t in texts}


def _names_the_classes(legend: set[str], names: set[str]) -> bool:
    """Whether every class name is a legend entry, or the start of one ("Japan, E: on the margin")."""
    return all(any(t == c or t.startswith(f"{c}, ") for t in legend) for c in names)


def _x_titles(page) -> list[str]:
    return [t.strip() for t in page.locator('[data-testid="stPlotlyChart"] .xtitle').all_text_contents()]


#: the class names each page's legend shows: two-class pages the sidebar's choice, the IVM's every class
PAIR = {"Japan", "not Japan"}
EVERY = {"Europe", "Japan", "USA"}
#: pages whose main chart is no map of the classes (the decomposition of f; the studies' criteria)
NO_CLASS_LEGEND = ("Kernels", "Criteria studies")
TUNING = "Tuning criteria"


def _sidebar(page) -> str:
    return page.get_by_test_id("stSidebar").inner_text()


def test_roles_and_classes_of_an_uploaded_table_on_every_page_and_through_a_link(app_url, browser, tmp_path):
    errors: list = []
    page = _new_page(browser, errors)
    _home(page, app_url)
    titles = _page_titles(page)
    _nav(page, LOSS)
    _upload(page, own_table_csv(), FILE, tmp_path)
    _no_exception(page, "the upload")
    text = _sidebar(page)
    assert "Left out 1 column" in text and "'Name'" in text
    assert _chips(page) == ["mpg", "cylinders", "weight, kg", 'c"q,d', "acceleration", "drag"]
    assert "3 classes (Europe, Japan, USA)" in text and "Two of the classes" in text
    # a person's choices: leave out a feature, one class against the rest
    page.get_by_test_id("stSidebar").get_by_role("button", name="Remove cylinders").click()
    _settle(page)
    page.get_by_test_id("stSidebar").get_by_text("One class against the rest").click()
    _settle(page)
    _choose(page, "The class (+1)", "Japan")
    _no_exception(page, "the class choice")
    text = _sidebar(page)
    assert "115 points, 5 features — not Japan: " in text, text[-800:]
    assert not page.get_by_test_id("stException").count()
    _shot(page, "loss_page")
    link = page.url
    q = _query(page)
    assert q["feat"] == "1,3,4,5,6" and q["cls"] == "rest" and q["c1"] == "Japan", q

    for title in titles:
        if title == LOSS:
            continue
        _nav(page, title)
        _no_exception(page, f"{title} with the uploaded table")
        text = _sidebar(page)
        if "Criteria studies" in title:
            continue
        assert f"Uploaded: {FILE}" in text, f"{title}: the upload is not the page's data"
        assert "Left out 1 column" in text, title
        binary = "Import vector machine" not in title  # every other page compares two classes
        if binary:  # the class choice made on the loss page holds here
            assert "not Japan: " in text, f"{title}: {text[-600:]}"
        assert page.get_by_test_id("stPlotlyChart").count(), f"{title}: no chart"
        if not title.startswith(NO_CLASS_LEGEND):
            names = PAIR if binary else EVERY
            assert _names_the_classes(_legend(page), names), f"{title}: legend {_legend(page)}"
        if title == TUNING:  # the decision curves on a plane of two chosen features
            _choose(page, "Horizontal axis", "drag")
            _no_exception(page, "the map axes")
            assert any(t.startswith("drag") for t in _x_titles(page)), _x_titles(page)
            link = page.url
        _shot(page, title.split()[0].lower())
    page.context.close()

    # the copied link, in another browser context: asked for the file, then the same roles and classes
    other = _new_page(browser, errors)
    other.goto(link)
    _settle(other)
    assert "A link cannot carry the file" in _sidebar(other)
    _upload(other, own_table_csv(), FILE, tmp_path)
    _no_exception(other, "the link's page after the upload")
    assert _chips(other) == ["mpg", "weight, kg", 'c"q,d', "acceleration", "drag"]
    text = _sidebar(other)
    assert "115 points, 5 features — not Japan: " in text, text[-800:]
    q = _query(other)
    assert q["feat"] == "1,3,4,5,6" and q["cls"] == "rest" and q["c1"] == "Japan", q
    assert q["map_x"] == "drag", q
    assert any(t.startswith("drag") for t in _x_titles(other)), _x_titles(other)
    assert _names_the_classes(_legend(other), PAIR), _legend(other)
    _shot(other, "link_reopened")
    other.context.close()
    assert not errors, errors
