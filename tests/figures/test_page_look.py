"""The page's look of every chart (:func:`svmviz.figures.theme.page_look`): the entries of PAGE_LOOK in the
template's layout, under the figure's own layout, plotly_white itself untouched."""
from __future__ import annotations

import json

import plotly.graph_objects as go
import plotly.io as pio
from streamlit.testing.v1 import AppTest

from svmviz.figures.theme import PAGE_LOOK, apply_theme, page_look, slim_template


def _themed() -> go.Figure:
    fig = go.Figure(go.Scatter(x=[0, 1], y=[1, 0], name="line"))
    return apply_theme(fig, title="A chart", xtitle="x", ytitle="y")


def test_the_look_goes_into_the_template_and_the_figures_own_layout_wins():
    fig = page_look(slim_template(_themed()))
    spec = json.loads(pio.to_json(fig, validate=False))
    look = spec["layout"]["template"]["layout"]
    assert look["yaxis"]["gridcolor"] == PAGE_LOOK["yaxis"]["gridcolor"]
    assert look["xaxis"]["showgrid"] is False and look["xaxis"]["automargin"] is True
    assert look["title"]["font"]["weight"] == 700
    assert look["font"]["color"] == PAGE_LOOK["font"]["color"]
    # plotly_white's other entries stay (its hover mode, colour scales)
    assert look["hovermode"] == pio.templates["plotly_white"].layout.hovermode
    # the figure's own font (family, size) is its layout's, above the template's
    assert spec["layout"]["font"]["size"] == 13 and "Inter" in spec["layout"]["font"]["family"]


def test_the_look_is_idempotent_and_leaves_plotly_white_alone():
    white = pio.templates["plotly_white"].to_plotly_json()
    once = json.loads(pio.to_json(page_look(_themed()), validate=False))
    twice = json.loads(pio.to_json(page_look(page_look(_themed())), validate=False))
    assert once == twice
    assert pio.templates["plotly_white"].to_plotly_json() == white
    assert json.loads(pio.to_json(_themed(), validate=False))["layout"]["template"] == white


def _page_chart():
    import plotly.graph_objects as go

    from svmviz.figures.theme import apply_theme
    from svmviz.ui.charts import chart

    chart(apply_theme(go.Figure(go.Scatter(x=[0, 1], y=[1, 0])), title="A chart"), key="look")


def test_a_chart_is_sent_without_streamlits_theme_and_with_the_page_look():
    at = AppTest.from_function(_page_chart, default_timeout=30).run()
    assert not at.exception
    (el,) = at.get("plotly_chart")
    assert el.proto.theme == ""  # theme=None: drawn once, with its own template
    spec = json.loads(el.proto.spec)
    assert spec["layout"]["template"]["layout"]["yaxis"]["gridcolor"] == PAGE_LOOK["yaxis"]["gridcolor"]
