"""The one visual theme of svmviz figures."""
from __future__ import annotations

import copy
import functools

import plotly.graph_objects as go

from ._plotly_compat import assign_unvalidated, raw_property

#: class colours: y = -1, y = +1 (colour-blind safe pair), then extra classes for multi-class data
CLASS_COLORS = {-1: "#1f77b4", 1: "#ff7f0e"}
MULTI_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")
#: one colour and dash per tuning criterion / method, used by every page
METHOD_STYLES = {
    "bayes": dict(color="black", dash="solid"),
    "gacv": dict(color="#d62728", dash="dash"),
    "xa": dict(color="#2ca02c", dash="dot"),
    "brxa": dict(color="#2ca02c", dash="dot"),
    "misclass": dict(color="#9467bd", dash="dashdot"),
    "brmisclass": dict(color="#9467bd", dash="dashdot"),
    "gckl": dict(color="#8c564b", dash="longdash"),
    "loo": dict(color="#17becf", dash="longdashdot"),
    "rangacv": dict(color="#e377c2", dash="dash"),
}
FONT = dict(family="Inter, Helvetica, Arial, sans-serif", size=13)


def apply_theme(fig: go.Figure, *, title: str, xtitle: str | None = None, ytitle: str | None = None,
                height: int = 450, legend: bool = True) -> go.Figure:
    """Give ``fig`` the svmviz look: title, axis titles, white template, legend on top.

    With panel titles (a ``make_subplots`` grid), the legend goes below the plot instead.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure, updated in place.
    title : str
        The figure's title.
    xtitle, ytitle : str, optional
        Title of every x (y) axis.
    height : int, default 450
        Figure height in pixels.
    legend : bool, default True
        Show the legend.

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself.

    See Also
    --------
    svmviz.figures.build.theme : The same on a layout dictionary.
    theme_layout : The layout entries applied.
    """
    _white_template(fig)
    fig.update_layout(**theme_layout(title=title, height=height, legend=legend))
    if xtitle is not None:
        fig.update_xaxes(title_text=xtitle)
    if ytitle is not None:
        fig.update_yaxes(title_text=ytitle)
    if legend and _has_subplot_titles(fig):
        legend_below(fig)  # a legend on top would sit on the subplot titles
    return fig


def theme_layout(*, title: str, height: int = 450, legend: bool = True) -> dict:
    """The layout entries of the svmviz look (:func:`apply_theme`).

    Parameters
    ----------
    title : str
        The figure's title (at the left).
    height : int, default 450
        Figure height in pixels.
    legend : bool, default True
        Show the legend (horizontal, on top at the right).

    Returns
    -------
    dict
        Title, font, height, margins, legend and hover-label entries (full trace names).
    """
    return dict(
        title=dict(text=title, x=0.0, xanchor="left"),
        font=FONT,
        height=height,
        margin=dict(l=60, r=20, t=60, b=50),
        showlegend=legend,
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="right", x=1.0),
        hoverlabel=dict(namelength=-1),
    )


#: :func:`legend_below`'s layout entries: the legend under the plot, room for it in the bottom margin
LEGEND_BELOW = dict(legend=dict(orientation="h", yanchor="top", y=-0.16, xanchor="left", x=0.0), margin=dict(b=130))


@functools.lru_cache(maxsize=1)
def _white_json() -> dict:
    import plotly.io as pio

    return pio.templates["plotly_white"].to_plotly_json()


def white_template_json() -> dict:
    """plotly_white as a plain dictionary, for figures built as dictionaries (:mod:`svmviz.figures.build`).

    Returns
    -------
    dict
        A copy (the template's JSON is made once).
    """
    return copy.deepcopy(_white_json())


def _white_template(fig: go.Figure) -> None:
    """``fig.layout.template = "plotly_white"`` without plotly validating and copying the whole
    template again (the largest part of building a small figure): plotly's own way for its default template (``BaseFigure._initialize_layout_template``);
    the figure's JSON is the same."""
    import plotly.io as pio

    assign_unvalidated(fig.layout, "template", pio.templates["plotly_white"])


#: ``template.layout`` entries that style one kind of subplot, and the trace types drawn on it
_SUBPLOT_STYLES = {
    "polar": frozenset({"scatterpolar", "scatterpolargl", "barpolar"}),
    "ternary": frozenset({"scatterternary"}),
    "scene": frozenset({"scatter3d", "surface", "mesh3d", "cone", "streamtube", "volume", "isosurface"}),
    "geo": frozenset({"scattergeo", "choropleth"}),
    "mapbox": frozenset({"scattermapbox", "choroplethmapbox", "densitymapbox"}),
    "map": frozenset({"scattermap", "choroplethmap", "densitymap"}),
}


def slim_template(fig: go.Figure) -> go.Figure:
    """Keep in ``fig``'s template only what can apply to ``fig``.

    The trace defaults of the trace types it has (Plotly applies ``template.data[<type>]`` to traces of
    that type only) and the layout defaults but those of kinds of subplots it has none of (polar,
    ternary, 3-D scene, geo, map). The figure draws the same; its JSON loses most of plotly_white's
    6.5 kB, sent, parsed and copied for every chart at every rerun. Idempotent (a second call changes
    nothing), and cheap: the template's own dictionary is filtered in place of being validated again.

    The app calls it just before a figure is sent, when all its traces are there (figures add traces
    after :func:`apply_theme` too).

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure, updated in place.

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself.
    """
    lay = fig.layout
    tmpl = raw_property(lay, "template")
    if not isinstance(tmpl, dict):
        return fig
    types = {tr.type for tr in fig.data}
    data = tmpl.get("data") or {}
    layout = tmpl.get("layout") or {}
    drop_data = [k for k in data if k not in types]
    drop_layout = [k for k in layout if k in _SUBPLOT_STYLES and not (_SUBPLOT_STYLES[k] & types)]
    if not drop_data and not drop_layout:
        return fig
    slim = {k: v for k, v in tmpl.items() if k not in ("data", "layout")}
    kept = {k: v for k, v in data.items() if k in types}
    if kept:
        slim["data"] = kept
    if layout:
        slim["layout"] = {k: v for k, v in layout.items() if k not in drop_layout}
    assign_unvalidated(lay, "template", slim)  # the figure's own template, filtered: nothing to validate
    return fig


#: the page's text colours, grid colour and fonts (Streamlit's light theme): charts are drawn with their own
#: template (``st.plotly_chart(..., theme=None)``), so the look the page's chart theme gave them is here
PAGE_TEXT = "#808495"
PAGE_HEADING = "#2F2D2B"
PAGE_LEGEND_TEXT = "#262730"
PAGE_GRID = "#e6eaf1"
PAGE_BORDER = "#DCD8D4"
PAGE_FONT = '"Source Sans", sans-serif'
#: template layout entries of every chart of the app (:func:`page_look`): a bold heading-coloured title,
#: grey text, horizontal grid lines only, axes that make room for their labels
PAGE_LOOK = {
    "font": {"color": PAGE_TEXT, "family": PAGE_FONT, "size": 12},
    "title": {"font": {"family": PAGE_FONT, "size": 16, "color": PAGE_HEADING, "weight": 700},
              "pad": {"l": 4}, "xanchor": "left", "x": 0},
    # white paper, plot and legend: plotly_white's and Plotly's defaults
    "legend": {"font": {"size": 12, "color": PAGE_LEGEND_TEXT}, "title": {"font": {"size": 12, "color": PAGE_TEXT}},
               "valign": "top"},
    "margin": {"pad": 8},
    "hoverlabel": {"bgcolor": "#FFFFFF", "bordercolor": PAGE_BORDER,
                   "font": {"family": PAGE_FONT, "size": 12, "color": PAGE_TEXT}},
    "xaxis": {"showgrid": False, "zeroline": False, "gridcolor": PAGE_GRID,
              "automargin": True, "tickfont": {"size": 12, "color": PAGE_TEXT},
              "title": {"font": {"size": 14, "color": PAGE_TEXT}, "standoff": 20}},
    "yaxis": {"gridcolor": PAGE_GRID, "zerolinecolor": PAGE_GRID, "automargin": True, "ticklabelposition": "outside",
              "tickfont": {"size": 12, "color": PAGE_TEXT},
              "title": {"font": {"size": 14, "color": PAGE_TEXT}, "standoff": 24}},
}


def _merged(base: dict, over: dict) -> dict:
    """``base`` updated by ``over``, nested dictionaries merged (neither is changed)."""
    out = dict(base)
    for k, v in over.items():
        out[k] = _merged(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def page_look(fig: go.Figure) -> go.Figure:
    """Give ``fig``'s template the app page's look (``PAGE_LOOK``).

    The entries go into the template's layout, under the figure's own layout: a figure's own font,
    margins or grid lines win, as they did under the page's chart theme. Idempotent.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure, updated in place.

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself.
    """
    tmpl = raw_property(fig.layout, "template")
    tmpl = tmpl if isinstance(tmpl, dict) else {}
    # a new dictionary: the stored template may be plotly's own, shared by every figure
    look = {**tmpl, "layout": _merged(tmpl.get("layout") or {}, PAGE_LOOK)}
    assign_unvalidated(fig.layout, "template", look)
    return fig


def has_panel_titles(n_panels: int, annotations) -> bool:
    """Whether a layout is a grid of at least two panels with titles over them.

    Titles are annotations (dictionaries) at the top in paper coordinates, as
    ``make_subplots(subplot_titles=...)`` puts them. The one rule of :func:`apply_theme` and
    :func:`svmviz.figures.build.theme` for a legend below the plot.

    Parameters
    ----------
    n_panels : int
        Number of panels (x axes) of the layout.
    annotations : iterable of dict
        The layout's annotations.

    Returns
    -------
    bool
        True for two or more panels and an annotation at y ≥ 0.9 in paper coordinates.
    """
    return n_panels >= 2 and any(a.get("yref") == "paper" and a.get("y") is not None and a["y"] >= 0.9
                                 for a in annotations)


def _has_subplot_titles(fig: go.Figure) -> bool:
    """:func:`has_panel_titles` of a ``make_subplots`` figure."""
    n_panels = sum(1 for _ in fig.select_xaxes()) if fig.layout.annotations else 0
    return has_panel_titles(n_panels, [a.to_plotly_json() for a in fig.layout.annotations or ()])


def legend_below(fig: go.Figure, height: int | None = None) -> go.Figure:
    """Move the legend under the plot.

    For figures that sit two to a row or carry many traces, where a legend on top would cover the title.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
        The figure, updated in place.
    height : int, optional
        A new figure height in pixels (room for the legend).

    Returns
    -------
    plotly.graph_objects.Figure
        ``fig`` itself.
    """
    fig.update_layout(**LEGEND_BELOW)
    if height is not None:
        fig.update_layout(height=height)
    return fig
