"""Figures of the "Tuning criteria" page (Wahba et al. 2001, Figs. 1–2): data first, then pixels."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from ..published import WAHBA2001_INEFFICIENCY, range_text
from ..tuning import (CriteriaSurface, InefficiencyStudy, criterion_label, grid_decision_function, inefficiency,
                      surface_edges)
from .labels import features_hover, point_hover
from .plane import MapPlane, plane_mesh
from . import build
from .theme import CLASS_COLORS, METHOD_STYLES

MARKERS = {"gacv": "star", "xa": "diamond", "xa_j": "triangle-up", "gckl": "square", "misclass": "circle",
           "loo": "x", "selected": "cross"}


def _style_key(key: str, L) -> str:
    nonstd = tuple(map(float, L)) != (1.0, 1.0)
    if nonstd and key in ("xa", "misclass"):
        return "br" + key
    return key


class ContourData(NamedTuple):
    """One criterion over (log10 σ, log10 λ) and every criterion's minimizer (Wahba et al. 2001, Fig. 2).

    Attributes
    ----------
    key : str
        The criterion's key ("gacv", "xa", "misclass"…).
    label : str
        Its display name.
    log_lambda : ndarray of shape (n_lambda,)
        log10 of the λ grid.
    log_sigma : ndarray of shape (n_sigma,)
        log10 of the σ grid.
    z : ndarray of shape (n_sigma, n_lambda)
        The criterion's values.
    minimizers : dict of str to (float, float, str)
        Every criterion's grid minimizer: key → (log10 λ, log10 σ, label).
    tie_points : ndarray of shape (k, 2)
        (log10 λ, log10 σ) of this criterion's tied minima.
    edges : tuple of GridEdge
        The grid edges this criterion's minimum lies on (:func:`svmviz.tuning.surface_edges`; axis 0
        is σ, axis 1 is λ); empty inside the grid.
    """

    key: str
    label: str
    log_lambda: np.ndarray
    log_sigma: np.ndarray
    z: np.ndarray
    minimizers: dict  # key -> (log10 λ, log10 σ, label)
    tie_points: np.ndarray  # (k, 2) of (log10 λ, log10 σ) for this criterion's tied minima
    edges: tuple = ()


def compute_contour(surface: CriteriaSurface, key: str) -> ContourData:
    """The surface of ``key`` and the grid minimizers of every criterion the surface holds.

    Parameters
    ----------
    surface : CriteriaSurface
        From :func:`svmviz.tuning.criteria_surface`.
    key : str
        A criterion of ``surface.values``.

    Returns
    -------
    ContourData
        Its values over (σ, λ), every criterion's minimizer and this criterion's ties.

    See Also
    --------
    plot_contour : Draws one criterion.
    plot_contour_panels : Draws several side by side.
    """
    ll, ls = np.log10(surface.lambdas), np.log10(surface.sigmas)
    mins = {}
    for k, (i, j) in surface.best.items():
        mins[k] = (float(ll[j]), float(ls[i]), criterion_label(k, surface.L))
    t = surface.ties[key]
    ties = np.c_[ll[t[:, 1]], ls[t[:, 0]]]
    edges = surface_edges(surface, [key]).get(key, ()) if key in surface.best else ()
    return ContourData(key, criterion_label(key, surface.L), ll, ls, surface.values[key], mins, ties, edges)


EDGE_NOTE = "minimum on the grid's edge"
"""What a panel's title adds when its criterion's minimizer lies on the grid's edge."""


def edge_words(edges) -> str:
    """The grid edges of a minimizer in words ("largest σ", "smallest λ and largest σ").

    Parameters
    ----------
    edges : sequence of GridEdge
        Edges of a (σ, λ) grid (axis 0 is σ, axis 1 is λ).

    Returns
    -------
    str
    """
    return " and ".join(f"{'smallest' if e.side == 'low' else 'largest'} {'σ' if e.axis == 0 else 'λ'}"
                        for e in edges)


def _contour_traces(cd: ContourData, *, selected: tuple | None, overlay, own_suffix: str = " (this plot)") -> list:
    """The traces of one criterion's panel: its contour, its tied minima, the minimizers of ``overlay``
    (its own last, large and white) and the ``selected`` grid point."""
    lo, hi = color_range(cd.z)
    clipped = hi < np.nanmax(cd.z)
    traces = [dict(
        type="contour", x=cd.log_lambda, y=cd.log_sigma, z=cd.z, colorscale=build.colorscale("Viridis"), ncontours=25,
        zmin=lo, zmax=hi, zauto=False, contours=dict(start=lo, end=hi, size=(hi - lo) / 25 or 1.0),
        colorbar=dict(title=dict(text=cd.label + (" (colour clipped)" if clipped else ""), side="right"),
                      thickness=12),
        hovertemplate="log10 λ = %{x:.2f}<br>log10 σ = %{y:.2f}<br>" + cd.label + " = %{z:.4f}<extra></extra>",
        name=cd.label, showlegend=False,
    )]
    if len(cd.tie_points) > 1:
        traces.append(dict(type="scatter", x=cd.tie_points[:, 0], y=cd.tie_points[:, 1], mode="markers",
                                 marker=dict(symbol="circle-open", size=9, color="white"),
                                 name=f"{cd.label}: tied minima", hoverinfo="skip"))
    for k in tuple(o for o in overlay if o != cd.key) + (cd.key,):
        if k not in cd.minimizers:
            continue
        x, y, lab = cd.minimizers[k]
        own = k == cd.key
        style = METHOD_STYLES.get(k, {})
        edge = own and bool(cd.edges)
        traces.append(dict(
            type="scatter", x=[x], y=[y], mode="markers",
            marker=dict(symbol=MARKERS.get(k, "circle"), size=16 if own else 11,
                        color="white" if own else style.get("color", "black"),
                        line=dict(color="red" if edge else "black", width=3 if edge else 1.5)),
            name=f"min {lab}" + (own_suffix if own else ""),
            hovertemplate=f"minimizer of {lab}<br>log10 λ = {x:.2f}<br>log10 σ = {y:.2f}"
                          + (f"<br>{EDGE_NOTE} ({edge_words(cd.edges)})" if edge else "") + "<extra></extra>",
        ))
    if selected is not None:
        traces.append(dict(type="scatter", x=[selected[0]], y=[selected[1]], mode="markers",
                                 marker=dict(symbol="cross-thin", size=18, line=dict(color="red", width=3)),
                                 name="selected (λ, σ)", hoverinfo="skip"))
    return traces


def plot_contour(cd: ContourData, *, selected: tuple | None = None, overlay=("gacv", "xa", "misclass", "loo"),
                 height: int = 380) -> go.Figure:
    """Contour of one criterion over (log10 λ, log10 σ) with its minimizer and the others' overlaid.

    Parameters
    ----------
    cd : ContourData
        From :func:`compute_contour`.
    selected : tuple of (float, float), optional
        A selected (log10 λ, log10 σ), marked.
    overlay : sequence of str, default ("gacv", "xa", "misclass", "loo")
        The criteria whose minimizers are marked.
    height : int, default 380
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        The contour with its colour bar (clipped by :func:`color_range`), the minimizers, the legend below.

    See Also
    --------
    compute_contour : The values drawn here.
    plot_contour_panels : Several criteria in one figure.
    """
    layout = build.theme({}, title=cd.label + (f": {EDGE_NOTE}" if cd.edges else ""), xtitle="log10 λ",
                         ytitle="log10 σ", height=height)
    # margins as wide as the colour bar and the legend below take on a ~480-px panel (in chromium):
    # with smaller ones Plotly widens them after drawing and draws the chart a second time, on every
    # rerun; wider labels still widen them
    build.merge(layout, {"legend": dict(orientation="h", y=-0.25, x=0, xanchor="left", yanchor="top"),
                         "margin": dict(l=70, r=130, b=170)})
    return build.figure(_contour_traces(cd, selected=selected, overlay=overlay), layout)


PANEL_GAP = 0.22
"""Horizontal gap between the columns of :func:`plot_contour_panels` (fraction of the plot width):
room for a left panel's colour bar, its tick labels and the next panel's y tick labels and title."""
ROW_GAP_PX = 90
"""Vertical gap between two rows of :func:`plot_contour_panels` in pixels: the upper panel's x tick
labels and title, then the lower panel's title."""
_PANELS_MARGIN = dict(l=70, r=90, t=80, b=170)


def plot_contour_panels(contours, *, selected: tuple | None = None, overlay=("gacv", "xa", "misclass", "loo"),
                        panel_height: int = 330, title: str = "Criteria over (λ, σ)", columns: int = 1) -> go.Figure:
    """Every criterion's contour over (log10 λ, log10 σ) as the panels of ONE figure.

    As Wahba et al. (2001, Fig. 2) show them: each panel is :func:`plot_contour`'s (the same traces,
    its colour bar beside it), the legend is shared (each minimizer's entry toggles it in every panel).
    One chart instead of one per criterion: the browser draws one Plotly figure, one legend and one
    tool bar, and the camera button exports the whole figure. One panel to a row by default: the chart
    does not know the width it gets, and two panels side by side with their colour bars and tick labels
    need about 900 px (a 1024-px-wide projector gives the chart about 530).

    Parameters
    ----------
    contours : sequence of ContourData
        One panel each, row by row (from :func:`compute_contour`); at least one.
    selected : tuple of (float, float), optional
        A selected (log10 λ, log10 σ), marked in every panel.
    overlay : sequence of str, default ("gacv", "xa", "misclass", "loo")
        The criteria whose minimizers are marked.
    panel_height : int, default 330
        Height of one row of panels in pixels.
    title : str, default "Criteria over (λ, σ)"
        The figure's title.
    columns : {1, 2}, default 1
        Panels to a row.

    Returns
    -------
    plotly.graph_objects.Figure
        ``ceil(len(contours) / columns)`` rows of ``columns`` panels.

    Raises
    ------
    ValueError
        ``contours`` is empty, or ``columns`` is not 1 or 2.

    See Also
    --------
    compute_contour : The values drawn here.
    """
    contours = list(contours)
    if not contours:
        raise ValueError("plot_contour_panels needs at least one criterion surface.")
    if columns not in (1, 2):
        raise ValueError(f"plot_contour_panels: columns must be 1 or 2, got {columns!r}.")
    rows = (len(contours) + columns - 1) // columns
    height = panel_height * rows + 210
    plot_height = height - _PANELS_MARGIN["t"] - _PANELS_MARGIN["b"]
    vgap = min(0.3, ROW_GAP_PX / plot_height) if rows > 1 else 0.0
    titles = []
    for cd in contours:
        lo, hi = color_range(cd.z)
        titles.append(cd.label + (" (colour clipped)" if hi < np.nanmax(cd.z) else "")
                      + (f": {EDGE_NOTE}" if cd.edges else ""))
    spacing = dict(horizontal_spacing=PANEL_GAP) if columns > 1 else {}
    grid = build.subplot_grid(rows, columns, titles, vertical_spacing=vgap, **spacing)
    data = []
    seen = set()
    for i, cd in enumerate(contours):
        r, c = i // columns + 1, i % columns + 1
        xdom = grid.xaxis(r, c)["domain"]
        ydom = grid.yaxis(r, c)["domain"]
        for tr in _contour_traces(cd, selected=selected, overlay=overlay,
                                  own_suffix=" (white, its own panel)"):
            if tr["type"] == "contour":
                build.merge(tr["colorbar"], dict(x=xdom[1] + 0.01, xanchor="left", y=(ydom[0] + ydom[1]) / 2,
                                                 yanchor="middle", len=ydom[1] - ydom[0], lenmode="fraction"))
                tr["colorbar"]["title"].pop("text", None)  # the panel's title names the criterion
            else:
                # one legend entry per name: the overlaid minimizers and the selected point are
                # the same in every panel (legendgroup: clicking the entry toggles all of them)
                tr["legendgroup"] = tr["name"]
                tr["showlegend"] = tr["name"] not in seen
                seen.add(tr["name"])
            data.append({**tr, **grid.trace_axes(r, c)})
    layout = build.theme(grid.layout, title=title, xtitle="log10 λ", ytitle="log10 σ", height=height)
    # the legend at the figure's bottom edge (container coordinates), under the last row's x axis
    # title: the bottom margin holds its tick labels, its title and four rows of legend entries
    build.merge(layout, {"legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", x=0,
                                        xanchor="left"),
                         "margin": dict(_PANELS_MARGIN)})
    return build.figure(data, layout)


def color_range(z) -> tuple[float, float]:
    """Colour limits that show a criterion's valley.

    GACV grows like 1/λ at tiny λ, so when the surface spans more than a factor 4 the top is clipped
    at its 60th percentile (hover still shows true values).

    Parameters
    ----------
    z : array_like
        The surface's values (NaN ignored).

    Returns
    -------
    lo, hi : float
        The colour scale's limits, lo < hi.
    """
    lo, hi = float(np.nanmin(z)), float(np.nanmax(z))
    if lo > 0 and hi > 4 * lo:
        hi = max(float(np.nanquantile(z, 0.6)), lo * 1.05)
    if hi <= lo:
        hi = lo + (abs(lo) * 1e-3 or 1e-3)
    return lo, hi


class DecisionCurves(NamedTuple):
    """Decision functions on a 2-D mesh, each zero on its curve (Wahba et al. 2001, Fig. 1).

    Attributes
    ----------
    xs : ndarray of shape (nx,)
        The mesh's abscissae.
    ys : ndarray of shape (ny,)
        The mesh's ordinates.
    fields : dict of str to (str, ndarray of shape (ny, nx))
        label → (style key, values whose zero level is the curve): the Bayes rule's p_true − threshold
        and each criterion's chosen f.
    X : ndarray of shape (n, 2)
        The training points.
    y : ndarray of shape (n,)
        Their labels ±1.
    selected_label : str or None
        Label of the selected grid point.
    selected_field : ndarray of shape (ny, nx) or None
        f of the selected grid point (its margins at ±1).
    support : ndarray of bool, shape (n,) or None
        The selected point's support vectors (α > 0).
    plane : MapPlane or None
        The plane of a map of data with more than two features (:mod:`svmviz.figures.plane`); then
        ``X`` holds the points' map coordinates and the mesh lies in that plane.
    X_full : ndarray of shape (n, d) or None
        The training points in all d features (with ``plane``: the hover shows every feature).
    """

    xs: np.ndarray
    ys: np.ndarray
    fields: dict  # label -> (style key, (ny, nx) values whose zero level is the curve)
    X: np.ndarray
    y: np.ndarray
    selected_label: str | None
    selected_field: np.ndarray | None  # f of the selected grid point (margins at ±1)
    support: np.ndarray | None  # bool mask of the selected point's support vectors
    plane: MapPlane | None = None
    X_full: np.ndarray | None = None


def compute_decision_curves(surface: CriteriaSurface, chosen: dict, *, p_true=None, threshold: float = 0.5,
                            selected: tuple | None = None, resolution: int = 120, pad: float = 0.6,
                            plane: MapPlane | None = None) -> DecisionCurves:
    """Zero-level fields of the Bayes rule and of each criterion's chosen solution on a mesh.

    Parameters
    ----------
    surface : CriteriaSurface
        From :func:`svmviz.tuning.criteria_surface`: on two-dimensional data, or on any number of
        features with ``plane``.
    chosen : dict of str to (int, int)
        Criterion key → its grid point (i_sigma, j_lambda).
    p_true : callable, optional
        ``p_true(mesh) -> (m,)``, the true P(+1 | x); gives the Bayes curve.
    threshold : float, default 0.5
        The level of ``p_true`` that is the Bayes curve (another for unequal costs).
    selected : tuple of (int, int), optional
        One more grid point (i_sigma, j_lambda): its margins f = ±1 and support vectors are kept too.
    resolution : int, default 120
        Mesh points per axis.
    pad : float, default 0.6
        The mesh extends this far beyond the data on every side (data units; without ``plane``).
    plane : MapPlane, optional
        The plane of the map (:func:`svmviz.figures.plane.compute_map_plane` on ``surface.X``): every
        field is f of the model fitted on all features, evaluated on that plane's mesh
        (:func:`svmviz.figures.plane.plane_mesh`, padded by 8 % of the coordinates' range); the
        points are drawn at their map coordinates.

    Returns
    -------
    DecisionCurves
        The fields on the mesh, the data and the selected point's margins and support vectors.

    Raises
    ------
    ValueError
        The data are not two-dimensional and no ``plane`` is given, or ``plane`` is of another
        number of features.

    See Also
    --------
    plot_decision_curves : Draws the result.
    svmviz.tuning.grid_decision_function : The decision function of one grid point.
    """
    X = surface.X
    X_drawn = X_full = None
    if plane is not None:
        if plane.n_features != X.shape[1]:
            raise ValueError(f"the map's plane is of {plane.n_features} features; the data have {X.shape[1]}.")
        pm = plane_mesh(plane, X, resolution=resolution)
        xs, ys, mesh = pm.gx, pm.gy, pm.points
        X_drawn, X_full = plane.coordinates(X), X
    else:
        if X.shape[1] != 2:
            raise ValueError("decision curves need two-dimensional data, or a map plane (svmviz.figures.plane).")
        lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
        xs = np.linspace(lo[0], hi[0], resolution)
        ys = np.linspace(lo[1], hi[1], resolution)
        mesh = np.c_[np.repeat(xs[None, :], resolution, 0).ravel(), np.repeat(ys[:, None], resolution, 1).ravel()]
        X_drawn = X
    fields = {}
    if p_true is not None:
        fields["true (Bayes)"] = ("bayes", (p_true(mesh) - threshold).reshape(resolution, resolution))
    for key, (i, j) in chosen.items():
        f = grid_decision_function(surface, i, j, mesh).reshape(resolution, resolution)
        fields[criterion_label(key, surface.L)] = (_style_key(key, surface.L), f)
    sel_f = support = None
    label = None
    if selected is not None:
        i, j = selected
        sel_f = grid_decision_function(surface, i, j, mesh).reshape(resolution, resolution)
        support = surface.alphas[i, j] > 0
        label = f"selected: log10 λ = {np.log10(surface.lambdas[j]):.2f}, log10 σ = {np.log10(surface.sigmas[i]):.2f}"
    return DecisionCurves(xs, ys, fields, X_drawn, surface.y, label, sel_f, support, plane, X_full)


#: the decision-curve map's bottom margin for its legend below: up to six rows of entries at 20 px
DECISION_LEGEND_PX = 120


def plot_decision_curves(dc: DecisionCurves, *, title: str = "Decision curves", height: int = 680,
                         feature_names=("x1", "x2"), class_names=("class −1", "class +1"), axis_titles=None,
                         scale=None) -> go.Figure:
    """The data, the Bayes curve and each criterion's decision curve f = 0 (Wahba et al. 2001, Fig. 1).

    Parameters
    ----------
    dc : DecisionCurves
        From :func:`compute_decision_curves`.
    title : str, default "Decision curves"
        The figure's title.
    height : int, default 680
        Figure height in pixels (the map and, below it, the legend).
    feature_names : sequence of str, default ("x1", "x2")
        Names of the two features in the hover; of all d features when ``dc`` has a map plane.
    class_names : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1 (legend, hover).
    axis_titles : tuple of (str, str), optional
        Axis titles; default ``feature_names``.
    scale : tuple of (float, float) pairs, optional
        (mean, sd) per axis (:func:`svmviz.figures.labels.feature_scale`): puts the data's own units in
        the hover of standardised values; one pair per feature when ``dc`` has a map plane.

    Returns
    -------
    plotly.graph_objects.Figure
        The points of both classes, each curve as a line (:func:`level_lines`), the selected point's
        margins and support vectors.

    See Also
    --------
    compute_decision_curves : The values drawn here.
    """
    data = []
    for cls, name in ((-1.0, class_names[0]), (1.0, class_names[1])):
        m = dc.y == cls
        if dc.plane is not None:
            lines, custom = features_hover(dc.X_full[m], feature_names, scale)
        else:
            lines, custom = point_hover(dc.X[m], feature_names, scale)
        data.append(dict(
            type="scatter", x=dc.X[m, 0], y=dc.X[m, 1], mode="markers", name=name, customdata=custom,
            marker=dict(color=CLASS_COLORS[int(cls)], size=6, symbol="circle" if cls > 0 else "circle-open",
                        line=dict(width=1.2, color=CLASS_COLORS[int(cls)])),
            hovertemplate=f"{name}<br>{lines}<extra></extra>",
        ))
    if dc.support is not None and dc.support.any():
        data.append(dict(
            type="scatter", x=dc.X[dc.support, 0], y=dc.X[dc.support, 1], mode="markers", name="support vectors (selected)",
            marker=dict(size=11, color="rgba(0,0,0,0)", line=dict(width=1.3, color="black")),
            hoverinfo="skip",
        ))
    for label, (style_key, field) in dc.fields.items():
        data.append(zero_line_trace(dc.xs, dc.ys, field, 0.0, label, METHOD_STYLES.get(style_key, {}), width=3,
                                    as_contour=False))
    if dc.selected_field is not None:
        sty = dict(color="red", dash="solid")
        data.append(zero_line_trace(dc.xs, dc.ys, dc.selected_field, 0.0, dc.selected_label, sty, width=2,
                                    as_contour=False))
        for lev in (-1.0, 1.0):
            data.append(zero_line_trace(dc.xs, dc.ys, dc.selected_field, lev, f"margin f = {lev:+.0f} (selected)",
                                        dict(color="red", dash="dot"), width=1, legend=lev > 0, as_contour=False))
    axis_titles = axis_titles or (dc.plane.axis_titles if dc.plane is not None else feature_names)
    layout = build.theme({}, title=title, xtitle=axis_titles[0], ytitle=axis_titles[1], height=height)
    # the legend below the map, its bottom at the figure's bottom edge (container coordinates) and
    # room for it from the start (Plotly would widen the margin after drawing and draw again: see
    # plot_contour): beside the map it took 310 px of a ~560-px chart at 1024 × 768, leaving the map
    # a third of the width
    # equal units on both axes where they share a unit (the data's two features, or two component
    # scores); two chosen features of a wider table may be of different units and spreads
    same_units = dc.plane is None or dc.plane.kind == "components"
    build.merge(layout, {"yaxis": dict(scaleanchor="x", scaleratio=1) if same_units else {},
                         "margin": dict(l=65, r=20, b=55 + DECISION_LEGEND_PX),
                         "legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", x=0,
                                        xanchor="left")})
    return build.figure(data, layout)


def zero_line_trace(xs, ys, field, level, name, style, width=2, legend=True, *, as_contour=True) -> dict:
    """The contour line of ``field`` at ``level`` as a legend-bearing trace dictionary.

    A contour trace of the whole field (the data editor's chart, whose tests read the field back
    from it), or with ``as_contour=False`` the line itself (:func:`level_lines`, ~1 % of the bytes).
    A level not crossed in view gives an empty line whose legend entry says so.

    Parameters
    ----------
    xs, ys : ndarray of shape (nx,), (ny,)
        The grid's coordinates.
    field : ndarray of shape (ny, nx)
        The values on the grid.
    level : float
        The level drawn.
    name : str
        The legend entry.
    style : dict
        ``color`` and ``dash`` of the line (black, solid by default).
    width : float, default 2
        Line width in pixels.
    legend : bool, default True
        Show the legend entry.
    as_contour : bool, default True
        A contour trace of the field instead of the traced line.

    Returns
    -------
    dict
        A plotly trace ("contour" or "scatter").
    """
    crosses = bool(np.nanmin(field) < level < np.nanmax(field))
    lx, ly = level_lines(xs, ys, field, level) if crosses and not as_contour else ((), ())
    if not crosses or (not as_contour and not len(lx)):
        return dict(type="scatter", x=[None], y=[None], mode="lines", name=f"{name} (no crossing in view)",
                    line=dict(color=style.get("color", "black"), dash=style.get("dash", "solid")))
    line = dict(color=style.get("color", "black"), dash=style.get("dash", "solid"), width=width)
    if as_contour:
        return dict(type="contour", x=xs, y=ys, z=field, showscale=False, name=name, showlegend=legend,
                    contours=dict(start=level, end=level, size=1.0, coloring="none"), line=line,
                    hoverinfo="skip", legendgroup=name)
    return dict(type="scatter", x=lx, y=ly, mode="lines", name=name, showlegend=legend, line=line,
                hoverinfo="skip", legendgroup=name)


def _published_text(mode: str, key: str) -> str:
    """Wahba et al. (2001, §6)'s inefficiency of criterion ``key`` as text, "—" where the paper has none."""
    pub = WAHBA2001_INEFFICIENCY[mode].get(key)
    return "—" if pub is None else range_text(*pub)


class InefficiencyRow(NamedTuple):
    """One criterion's row of the inefficiency table (Wahba et al. 2001, §6).

    Attributes
    ----------
    criterion : str
        The criterion's display name.
    log10_lambda, log10_sigma : float
        Its chosen grid point.
    target_value : float
        The target criterion (MISCLASS by default) at that point.
    inefficiency : float
        target(chosen) / min target over the grid.
    tie_low, tie_high : float
        The inefficiency's range over the criterion's tied minima.
    n_ties : int
        Number of tied minima.
    published : str
        Wahba et al. (2001, §6)'s inefficiency of the criterion as text, "—" where the paper has none.
    """
    criterion: str
    log10_lambda: float
    log10_sigma: float
    target_value: float
    inefficiency: float
    tie_low: float
    tie_high: float
    n_ties: int
    published: str


def compute_inefficiency_table(surface: CriteriaSurface, keys=("gacv", "xa", "xa_j", "gckl", "loo"),
                               target: str = "misclass") -> list[InefficiencyRow]:
    """One row per criterion the surface holds: chosen (λ, σ), the target there, inefficiency (tie range).

    Parameters
    ----------
    surface : CriteriaSurface
        From :func:`svmviz.tuning.criteria_surface`.
    keys : tuple of str, default ("gacv", "xa", "xa_j", "gckl", "loo")
        The criteria (those the surface lacks are skipped); the target is added last.
    target : str, default "misclass"
        The criterion the inefficiency is measured in.

    Returns
    -------
    list of InefficiencyRow
        Empty when the surface lacks the target.

    See Also
    --------
    svmviz.tuning.inefficiency : The inefficiency of one criterion.
    plot_inefficiency_study : Its distribution over simulated data sets.
    """
    if target not in surface.values:
        return []
    mode = "standard" if tuple(map(float, surface.L)) == (1.0, 1.0) else "nonstandard"
    rows = []
    for k in keys + (target,):
        if k not in surface.values:
            continue
        ie = inefficiency(surface, k, target)
        i, j = surface.best[k]
        rows.append(InefficiencyRow(criterion_label(k, surface.L), float(np.log10(ie.lam)),
                                    float(np.log10(ie.sigma)), float(surface.values[target][i, j]), ie.value,
                                    ie.low, ie.high, ie.n_ties, _published_text(mode, k)))
    return rows


def plot_inefficiency_study(study: InefficiencyStudy, L=(1.0, 1.0), height: int = 380) -> go.Figure:
    """Distribution over repetitions of each criterion's inefficiency, with the published values (Wahba et al. 2001, §6).

    Parameters
    ----------
    study : InefficiencyStudy
        From :func:`svmviz.tuning.inefficiency_study`.
    L : tuple of (float, float), default (1.0, 1.0)
        The misclassification costs (L(−1), L(+1)); (1, 1) compares with the paper's standard case,
        others with its nonstandard one.
    height : int, default 380
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        One box of inefficiencies per criterion, the published value as a black bar.

    See Also
    --------
    svmviz.tuning.inefficiency_study : The values drawn here.
    compute_inefficiency_table : The same on one data set.
    """
    data = []
    mode = "standard" if tuple(map(float, L)) == (1.0, 1.0) else "nonstandard"
    for k in study.criteria:
        lab = criterion_label(k, L)
        data.append(dict(type="box", y=study.value[k], name=lab, boxpoints="all", jitter=0.4, pointpos=0,
                         marker=dict(color=METHOD_STYLES.get(_style_key(k, L), {}).get("color", "gray")),
                         hovertemplate=lab + " inefficiency %{y:.4f}<extra></extra>"))
        pub = WAHBA2001_INEFFICIENCY[mode].get(k)
        if pub:
            data.append(dict(type="scatter", x=[lab], y=[pub[0]], mode="markers",
                             name=f"published {lab} ({range_text(*pub)})",
                             marker=dict(symbol="line-ew-open", size=40, line=dict(width=3, color="black"))))
    layout = build.theme({}, title=f"Inefficiency over {len(study.seeds)} simulated data sets",
                         xtitle="criterion", ytitle=f"{criterion_label(study.target, L)}(chosen) / min", height=height)
    return build.figure(data, layout)


# ------------------------------------------------------------------ level lines (drawn as polylines)
def level_lines(xs, ys, field, level: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """The curve ``field = level`` as polylines, by marching squares.

    Linear interpolation on the grid's edges (what Plotly's contour traces draw in the browser), the
    segments joined into polylines. A saddle cell (the four corners alternating in sign) is split by
    the sign of its centre, the mean of its corners. Drawn as one ``go.Scatter`` line this is about
    1 % of the bytes of a ``go.Contour`` trace of the same field and leaves the browser nothing to
    compute.

    Parameters
    ----------
    xs : array_like of shape (nx,)
        Increasing abscissae.
    ys : array_like of shape (ny,)
        Increasing ordinates.
    field : array_like of shape (ny, nx)
        Values on the grid (NaN cells draw nothing).
    level : float, default 0.0
        The level drawn.

    Returns
    -------
    x, y : ndarray
        The polylines one after the other, separated by NaN (a Plotly line breaks there); a closed
        curve repeats its first point.

    Raises
    ------
    ValueError
        The shapes do not match.
    """
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    s = np.asarray(field, dtype=float) - float(level)
    ny, nx = s.shape
    if xs.shape != (nx,) or ys.shape != (ny,):
        raise ValueError(f"field has shape {s.shape}, xs {xs.shape}, ys {ys.shape}: expected (ny, nx), (nx,), (ny,).")
    pos = s > 0
    # crossing points of the horizontal edges (i, j)–(i, j+1) and the vertical ones (i, j)–(i+1, j)
    with np.errstate(invalid="ignore", divide="ignore"):
        h_cut = (pos[:, :-1] != pos[:, 1:]) & np.isfinite(s[:, :-1]) & np.isfinite(s[:, 1:])
        th = np.where(h_cut, s[:, :-1] / (s[:, :-1] - s[:, 1:]), 0.0)
        v_cut = (pos[:-1, :] != pos[1:, :]) & np.isfinite(s[:-1, :]) & np.isfinite(s[1:, :])
        tv = np.where(v_cut, s[:-1, :] / (s[:-1, :] - s[1:, :]), 0.0)
    hx = xs[None, :-1] + th * np.diff(xs)[None, :]
    hy = np.broadcast_to(ys[:, None], th.shape)
    vx = np.broadcast_to(xs[None, :], tv.shape)
    vy = ys[:-1, None] + tv * np.diff(ys)[:, None]
    px = np.concatenate([hx.ravel(), vx.ravel()])
    py = np.concatenate([hy.ravel(), vy.ravel()])
    n_h = ny * (nx - 1)
    # the four edges of cell (i, j): bottom H(i, j), right V(i, j+1), top H(i+1, j), left V(i, j)
    i, j = np.meshgrid(np.arange(ny - 1), np.arange(nx - 1), indexing="ij")
    edges = np.stack([i * (nx - 1) + j, n_h + i * nx + j + 1, (i + 1) * (nx - 1) + j, n_h + i * nx + j], -1)
    cut = np.stack([h_cut[:-1, :], v_cut[:, 1:], h_cut[1:, :], v_cut[:, :-1]], -1)
    k = cut.sum(-1)
    two = k == 2
    pairs = [edges[two][cut[two]].reshape(-1, 2)]
    four = k == 4
    if four.any():  # saddle: the centre's sign says which opposite corners are joined
        e4 = edges[four]
        centre = (s[:-1, :-1] + s[:-1, 1:] + s[1:, :-1] + s[1:, 1:])[four] > 0
        same = centre == pos[:-1, :-1][four]  # centre like the bottom-left corner: cut off br and tl
        pairs.append(np.where(same[:, None], e4[:, [0, 1]], e4[:, [0, 3]]))
        pairs.append(np.where(same[:, None], e4[:, [2, 3]], e4[:, [1, 2]]))
    return _join_segments(np.concatenate(pairs), px, py)


def _join_segments(pairs: np.ndarray, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Chain segments (pairs of edge ids; an edge is shared by at most two segments) into polylines."""
    ends: dict[int, list[int]] = {}
    for s_i, (a, b) in enumerate(pairs.tolist()):
        ends.setdefault(a, []).append(s_i)
        ends.setdefault(b, []).append(s_i)
    used = np.zeros(len(pairs), dtype=bool)
    lines = []

    def walk(node: int, seg: int) -> list[int]:
        path = [node]
        while seg is not None:
            used[seg] = True
            a, b = pairs[seg]
            node = int(b) if a == node else int(a)
            path.append(node)
            seg = next((t for t in ends[node] if not used[t]), None)
        return path

    # open curves start at an edge of one segment (the mesh's border), then the closed ones
    for node in [e for e, segs in ends.items() if len(segs) == 1]:
        if not used[ends[node][0]]:
            lines.append(walk(node, ends[node][0]))
    for seg in range(len(pairs)):
        if not used[seg]:
            lines.append(walk(int(pairs[seg][0]), seg))
    if not lines:
        return np.empty(0), np.empty(0)
    idx = np.concatenate([np.append(np.asarray(p, dtype=float), np.nan) for p in lines])[:-1]
    gap = np.isnan(idx)
    at = np.where(gap, 0, idx).astype(int)
    return np.where(gap, np.nan, px[at]), np.where(gap, np.nan, py[at])
