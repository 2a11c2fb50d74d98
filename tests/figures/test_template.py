"""Every chart carries only the part of the plotly_white template it can use: the trace defaults of
its own trace types and the layout defaults but those of subplot kinds it has none of (the whole
template, most of it defaults for traces and subplots the chart does not have, would be sent at every
rerun). The figure must draw the same: all but the template is unchanged, and what is kept is
plotly_white's."""
from __future__ import annotations

import copy
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots
from streamlit.testing.v1 import AppTest

from svmviz.figures.theme import _SUBPLOT_STYLES, PAGE_LOOK, apply_theme, slim_template

WHITE = pio.templates["plotly_white"].to_plotly_json()


def _json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False))


def _figure() -> go.Figure:
    fig = make_subplots(rows=1, cols=2, subplot_titles=("a", "b"))
    fig.add_trace(go.Contour(z=np.arange(12.0).reshape(3, 4), showscale=False), row=1, col=1)
    fig.add_trace(go.Scatter(x=[0, 1], y=[1, 0], name="line"), row=1, col=2)
    apply_theme(fig, title="panels", xtitle="log10 λ", ytitle="log10 σ")
    fig.add_trace(go.Heatmap(z=np.eye(3), showscale=False), row=1, col=2)  # a trace added after the theme
    return fig


def test_the_kept_template_is_plotly_whites_for_the_figures_own_traces_and_nothing_else_changes():
    fig = _figure()
    before = _json(fig)
    assert before["layout"]["template"] == WHITE  # apply_theme's template
    slim_template(fig)
    after = _json(fig)
    tmpl = after["layout"].pop("template")
    del before["layout"]["template"]
    assert after == before  # every trace and every other layout property as it was
    assert set(tmpl["data"]) == {"contour", "scatter", "heatmap"}
    for k, v in tmpl["data"].items():
        assert v == WHITE["data"][k]
    assert set(tmpl["layout"]) == set(WHITE["layout"]) - set(_SUBPLOT_STYLES)
    for k, v in tmpl["layout"].items():
        assert v == WHITE["layout"][k]
    size = len(json.dumps(tmpl, separators=(",", ":")))
    assert size < 2600 < 6000 < len(json.dumps(WHITE, separators=(",", ":"))), size


def test_slim_template_is_idempotent_and_keeps_the_defaults_of_subplot_kinds_in_use():
    fig = _figure()
    slim_template(fig)
    once = _json(fig)
    slim_template(fig)
    assert _json(fig) == once
    polar = go.Figure(go.Scatterpolar(r=[1, 2], theta=[0, 90]))
    apply_theme(polar, title="polar")
    slim_template(polar)
    tmpl = _json(polar)["layout"]["template"]
    assert tmpl["layout"]["polar"] == WHITE["layout"]["polar"] and "scene" not in tmpl["layout"]
    assert set(tmpl["data"]) == {"scatterpolar"}
    bare = go.Figure(go.Scatter(x=[1], y=[1]))  # not themed: the default template, trimmed the same way
    slim_template(bare)
    assert set(_json(bare)["layout"]["template"].get("data", {})) <= {"scatter"}


def test_a_shared_figure_is_not_copied_and_the_call_is_cheap():
    """charts.chart trims figures that the figure cache shares between sessions: the second call must
    not write (nothing left to drop)."""
    fig = _figure()
    slim_template(fig)
    held = fig.layout._props["template"]
    slim_template(fig)
    assert fig.layout._props["template"] is held


def _page_chart():
    import numpy as np
    import plotly.graph_objects as go

    from svmviz.figures.theme import apply_theme
    from svmviz.ui.charts import chart

    fig = go.Figure(go.Contour(z=np.arange(9.0).reshape(3, 3)))
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], name="points"))
    apply_theme(fig, title="A chart")
    chart(fig, key="c8")


def test_every_chart_sends_only_its_part_of_the_template():
    at = AppTest.from_function(_page_chart, default_timeout=30).run()
    assert not at.exception
    (spec,) = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    tmpl = spec["layout"]["template"]
    assert set(tmpl["data"]) == {"contour", "scatter"}  # before: all 24 trace types of plotly_white
    # plotly_white's defaults of a contour and a scatter (< 2,600 characters), and the page's look
    assert len(json.dumps(tmpl, separators=(",", ":"))) < 2600 + len(json.dumps(PAGE_LOOK, separators=(",", ":")))
    assert tmpl["data"]["contour"] == WHITE["data"]["contour"]


def test_the_pages_charts_carry_no_template_defaults_they_cannot_use():
    """The Loss page (six charts, scatter / bar / heatmap): each chart's template holds only its own
    trace types."""
    from tests.app.test_losses_page import _run

    at = _run()
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    assert len(specs) >= 3
    for spec in specs:
        types = {t.get("type", "scatter") for t in spec["data"]}
        tmpl = copy.deepcopy(spec["layout"]["template"])
        assert set(tmpl.get("data", {})) <= types, (spec["layout"].get("title"), set(tmpl.get("data", {})), types)
        assert not set(tmpl["layout"]) & set(_SUBPLOT_STYLES)
