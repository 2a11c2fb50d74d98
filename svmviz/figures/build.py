"""The figure builder: figures built as plain dictionaries, traces and layout, one ``go.Figure`` at the end.

Plotly validates every property as it is assigned (``go.Scatter(...)``, ``add_trace``, each
``update_layout`` / ``update_xaxes``, ``make_subplots``), at every rerun of a page, for figures whose
properties are fixed by this code. Here a figure is a list of trace dictionaries (each with its
``type``) and a layout dictionary, handed to :func:`figure`, which constructs the ``go.Figure`` once
without validating (:mod:`svmviz.figures._plotly_compat`: each property stored as given). The figure
and the JSON a chart sends are those of the validated construction: the tests build every figure
both ways (:data:`VALIDATE`) and compare their ``to_dict()``, and re-validate each one
(``go.Figure(fig.to_dict())``), so a misspelt property still fails a test.

* :func:`subplot_grid` — ``make_subplots``' layout (axes' domains and anchors, the panels' title
  annotations) for a grid shape, computed once per shape and copied;
* :func:`theme` — :func:`svmviz.figures.theme.apply_theme` on a layout dictionary (the same values:
  :func:`svmviz.figures.theme.theme_layout`);
* :func:`merge` — plotly's ``update`` (nested dictionaries merged, other values replaced).
"""
from __future__ import annotations

import copy
import functools
import json
import re
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from . import _plotly_compat
from .theme import LEGEND_BELOW, has_panel_titles, theme_layout, white_template_json

#: construct figures with plotly's validation of every property (the tests set it to compare the two
#: constructions; the app leaves it off)
VALIDATE = False


def merge(dst: dict, src: dict) -> dict:
    """Merge ``src`` into ``dst`` in place as plotly's ``update`` does.

    A dictionary value updates the dictionary already there (recursively), any other value replaces
    it. ``src``'s dictionaries are copied, never shared (constants such as
    :data:`svmviz.figures.theme.FONT` stay untouched).

    Parameters
    ----------
    dst : dict
        The dictionary updated.
    src : dict
        The entries merged into it (not modified).

    Returns
    -------
    dict
        ``dst`` itself.
    """
    for k, v in src.items():
        if isinstance(v, dict):
            cur = dst.get(k)
            if not isinstance(cur, dict):
                cur = dst[k] = {}
            merge(cur, v)
        else:
            dst[k] = v
    return dst


@functools.lru_cache(maxsize=16)
def _colorscale(name: str) -> tuple:
    return tuple(tuple(step) for step in go.Figure(go.Heatmap(colorscale=name)).to_dict()["data"][0]["colorscale"])


def colorscale(name: str) -> list:
    """A named colour scale as the list of [position, colour] pairs plotly's validation turns the name into.

    Parameters
    ----------
    name : str
        A plotly colour scale name ("RdBu", "Viridis", "RdBu_r"…).

    Returns
    -------
    list of [float, str]
        The scale's steps, positions from 0 to 1 (what plotly sends for the name).
    """
    return [list(step) for step in _colorscale(name)]


def figure(data: list, layout: dict) -> go.Figure:
    """``go.Figure(data=data, layout=layout)``, validated only when :data:`VALIDATE` is set.

    Parameters
    ----------
    data : list of dict
        Trace dictionaries, each with its ``type`` ("scatter", "bar", "contour"…).
    layout : dict
        The layout dictionary (with its ``template``: :func:`theme` puts plotly_white's).

    Returns
    -------
    plotly.graph_objects.Figure
        The figure, built without plotly's property-by-property validation unless :data:`VALIDATE`.

    See Also
    --------
    theme : The layout of the svmviz look.
    subplot_grid : A layout of several panels.
    """
    return _plotly_compat.figure(data, layout, validate=VALIDATE)


class Grid(NamedTuple):
    """A ``make_subplots`` layout as a dictionary, and each panel's axes.

    Attributes
    ----------
    layout : dict
        The layout (axes ``xaxis``, ``yaxis2``…, the panels' title annotations); the caller's copy.
    refs : dict of (int, int) to (str, str)
        (row, col), 1-based → the panel's axis references ("x2", "y2"), as a trace's ``xaxis`` /
        ``yaxis``.
    """

    layout: dict
    refs: dict

    def trace_axes(self, row: int, col: int) -> dict:
        """The ``xaxis`` / ``yaxis`` entries that put a trace in panel (row, col)."""
        x, y = self.refs[row, col]
        return {"xaxis": x, "yaxis": y}

    def xaxis(self, row: int, col: int) -> dict:
        """The layout dictionary of panel (row, col)'s x axis (update it in place)."""
        return self.layout[_axis_key(self.refs[row, col][0])]

    def yaxis(self, row: int, col: int) -> dict:
        """The layout dictionary of panel (row, col)'s y axis (update it in place)."""
        return self.layout[_axis_key(self.refs[row, col][1])]


_LIST = "list"  # marks a list argument of make_subplots, held as its JSON text in the cache key
_AXIS_KEY = re.compile(r"xaxis\d*")  # one per panel of a grid


def _axis_key(ref: str) -> str:
    return ref[0] + "axis" + ref[1:]


def subplot_grid(rows: int, cols: int, titles=(), **kwargs) -> Grid:
    """The layout ``make_subplots(rows=rows, cols=cols, subplot_titles=titles, **kwargs)`` makes, as a :class:`Grid`.

    The grid of a shape is made once and copied; the titles are put into its annotations, which
    make_subplots places by their order alone.

    Parameters
    ----------
    rows, cols : int
        Panels down and across.
    titles : sequence of str, default ()
        The panels' titles, row by row, each non-empty.
    **kwargs
        make_subplots' spacing, size and layout arguments (``horizontal_spacing``, ``vertical_spacing``,
        ``column_widths``, ``row_heights``, ``shared_xaxes``, ``specs``…), hashable or lists of JSON values.

    Returns
    -------
    Grid
        A copy of the layout (the caller updates it) and each panel's axis references.

    Raises
    ------
    ValueError
        A title is empty.

    See Also
    --------
    figure : Builds the figure from the grid's layout.
    """
    titles = [str(t) for t in titles]
    if any(not t for t in titles):
        raise ValueError("subplot_grid: every panel title must be a non-empty string.")
    frozen = tuple(sorted((k, (_LIST, json.dumps(v)) if isinstance(v, list) else v) for k, v in kwargs.items()))
    layout, refs = _grid(int(rows), int(cols), len(titles), frozen)
    layout = copy.deepcopy(layout)
    for ann, text in zip(layout.get("annotations", ()), titles):
        ann["text"] = text
    return Grid(layout, refs)


@functools.lru_cache(maxsize=64)
def _grid(rows: int, cols: int, n_titles: int, frozen: tuple) -> tuple[dict, dict]:
    from plotly.subplots import make_subplots

    kwargs = {k: json.loads(v[1]) if isinstance(v, tuple) and v[:1] == (_LIST,) else list(v) if isinstance(v, tuple)
              else v for k, v in frozen}
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[f"title {i}" for i in range(n_titles)] or None,
                        **kwargs)
    layout = fig.layout.to_plotly_json()
    layout.pop("template", None)  # the theme sets the template
    refs = {}
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            panel = fig.get_subplot(r, c)
            if panel is not None:  # "x2" / "y2" from the panel's axes "xaxis2" / "yaxis2"
                refs[r, c] = tuple(ax.plotly_name.replace("axis", "") for ax in (panel.xaxis, panel.yaxis))
    return layout, refs


def theme(layout: dict, *, title: str, xtitle: str | None = None, ytitle: str | None = None,
          height: int = 450, legend: bool = True) -> dict:
    """:func:`svmviz.figures.theme.apply_theme` on a layout dictionary.

    plotly_white, the title, font, size, margins and legend of
    :func:`~svmviz.figures.theme.theme_layout`, every axis titled ``xtitle`` / ``ytitle`` when given,
    and the legend below the plot when it has panels with titles
    (:func:`~svmviz.figures.theme.has_panel_titles`: a :func:`subplot_grid` of two or more panels
    with its titles, found in the layout as apply_theme finds them in the figure).

    Parameters
    ----------
    layout : dict
        The layout, updated in place.
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
    dict
        ``layout`` itself.

    See Also
    --------
    svmviz.figures.theme.apply_theme : The same on a ``go.Figure``.
    """
    n_panels = sum(1 for k in layout if _AXIS_KEY.fullmatch(k))
    panel_titles = has_panel_titles(n_panels, layout.get("annotations", ()))
    layout["template"] = white_template_json()
    merge(layout, theme_layout(title=title, height=height, legend=legend))
    for key, text in (("xaxis", xtitle), ("yaxis", ytitle)):
        if text is None:
            continue
        axes = [k for k in layout if k.startswith(key)] or [key]
        for k in axes:
            merge(layout.setdefault(k, {}), {"title": {"text": text}})
    if legend and panel_titles:
        merge(layout, LEGEND_BELOW)
    return layout


def log_ticks(values) -> dict:
    """Tick values and texts of a log axis over ``values``, every label the same size.

    1, 2, 5 per decade over less than two decades, the powers of ten otherwise (at least two
    ticks: 1, 1.5, 2, 3, 5, 7 per decade when fewer fit). Plotly's own labels of a log axis write
    the minor ticks in a smaller font ("1" with "9" under it) or on top of each other.

    Parameters
    ----------
    values : array-like
        The values the axis shows; non-finite and non-positive ones are left out.

    Returns
    -------
    dict
        ``tickvals`` and ``ticktext`` for the axis layout; empty without a positive finite value.
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    v = v[np.isfinite(v) & (v > 0)]
    if v.size == 0:
        return {}
    lo, hi = float(v.min()) / 1.15, float(v.max()) * 1.15
    e0, e1 = int(np.floor(np.log10(lo))), int(np.ceil(np.log10(hi)))
    steps = (1, 2, 5) if e1 - e0 <= 2 else (1,)
    ticks = [m * 10.0 ** e for e in range(e0, e1 + 1) for m in steps if lo <= m * 10.0 ** e <= hi]
    if len(ticks) < 2:
        ticks = [m * 10.0 ** e for e in range(e0, e1 + 1) for m in (1, 1.5, 2, 3, 5, 7) if lo <= m * 10.0 ** e <= hi]
    return dict(tickvals=ticks, ticktext=[f"{t:g}" for t in ticks])


def title_top(title: str) -> int:
    """Top margin (px) that holds ``title``'s lines ("<br>"-separated) at the theme's title size.

    Parameters
    ----------
    title : str
        A chart title, its lines separated by ``<br>``.

    Returns
    -------
    int
        40 px of room plus 22 px per line.
    """
    return 40 + 22 * (str(title).count("<br>") + 1)
