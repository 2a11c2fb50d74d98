"""Figures of the "Regularization path" page (Loosli & Canu 2006, Figs. "Path" and "LOO").

``compute_*`` read an already computed :class:`~svmviz.path.NuPath` / :class:`~svmviz.path.LooPath`
and return NamedTuples of arrays; ``plot_*`` draw them. Nothing here follows a path or refits.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from ..path import GROUP_E, GROUP_L, GROUP_R, zero_margin
from . import build
from .labels import features_hover, point_hover
from .plane import MapPlane, compute_map_plane, plane_mesh
from .theme import CLASS_COLORS, LEGEND_BELOW

X_AXES = ("lambda", "nu")
X_TITLES = {"lambda": "λ = m·ν", "nu": "ν = λ/m"}
#: the page's charts start with the margins Plotly's automargin widens them to, a little more (in
#: chromium, 1400 px window, svmviz's page look ``svmviz.figures.theme.PAGE_LOOK``, over the page's
#: data sets, both x axes and the linear kernel: the y tick labels, the boundary map's legend below,
#: the group sizes' dual axis on the right). Plotly then draws each chart once instead of drawing it
#: again after measuring (its doAutoMargin redraw, a large part of a chart's first draw). Wider labels
#: still widen a margin (automargin stays on), at the cost of that redraw.
MARGINS = {"coefs": dict(l=85, r=25), "map": dict(l=80, b=225), "summary": dict(l=75, r=78),
           "loo": dict(l=85)}
#: the group-size chart's bottom margin (pixels): x tick labels and title, two rows of legend entries
SUMMARY_BOTTOM = 125
GROUP_STYLES = {  # marker of each group on the data map
    GROUP_E: dict(name="E: on the margin (0 < α < 1)", symbol="circle", size=11),
    GROUP_L: dict(name="L: bounded (α = 1)", symbol="x", size=9),
    GROUP_R: dict(name="R: inactive (α = 0)", symbol="circle", size=5),
}


def axis_values(path, lambdas, x_axis):
    """The horizontal coordinate of the path plots: λ, or ν = λ/m.

    Parameters
    ----------
    path : NuPath
        From :func:`svmviz.path.nu_path` (its ``m``, the number of training points).
    lambdas : array_like of shape (k,)
        λ values on the path.
    x_axis : {"lambda", "nu"}
        Which coordinate.

    Returns
    -------
    ndarray of shape (k,)
        λ, or ν = λ/m (scikit-learn ``NuSVC``'s ν).

    Raises
    ------
    ValueError
        An unknown ``x_axis``.
    """
    if x_axis not in X_AXES:
        raise ValueError(f"x_axis must be one of {X_AXES}; got {x_axis!r}.")
    lam = np.asarray(lambdas, dtype=np.float64)
    return lam / path.m if x_axis == "nu" else lam


# --------------------------------------------------------------------------- coefficient paths
class CoefPaths(NamedTuple):
    """α_i y_i against λ (or ν) for every point, one polyline per point (Loosli & Canu 2006, Fig. "Path").

    Each class's polylines are concatenated with NaN separators. A polyline keeps only the vertices
    where its slope changes (the path is linear in between), so the drawing is exact with far fewer
    vertices than points × breakpoints.

    Attributes
    ----------
    x, y : dict of int to ndarray
        ``x[c]``, ``y[c]``: the vertices (λ or ν, α_i y_i) of class c in (−1, +1), NaN at separators.
    point : dict of int to ndarray of int
        ``point[c]``: index of the training point of each vertex, −1 at separators.
    breakpoints : ndarray of shape (T,)
        x positions of the path's distinct breakpoints.
    x_axis : {"lambda", "nu"}
        The horizontal coordinate.
    n_vertices : int
        Vertices kept in all.
    n_points : int
        Points whose lines are drawn.
    n_total : int
        Training points.
    """

    x: dict
    y: dict
    point: dict
    breakpoints: np.ndarray   # (T,) x positions of the breakpoints (distinct)
    x_axis: str
    n_vertices: int
    n_points: int             # points whose lines are drawn
    n_total: int              # training points


def _kink_mask(xs, C, rtol=1e-9):
    """Vertices of the piecewise-linear columns of ``C`` (T, m) over increasing ``xs`` (T,) where
    the slope changes: (T, m) bool, first and last always kept. Equal consecutive ``xs`` (the b / ρ
    jumps of the path; α is continuous there) must have been removed."""
    T = xs.size
    keep = np.zeros(C.shape, bool)
    keep[0] = keep[-1] = True
    if T <= 2:
        return keep
    dx = np.diff(xs)[:, None]
    slope = np.diff(C, axis=0) / dx
    scale = np.maximum(1.0, np.max(np.abs(C), axis=0))
    keep[1:-1] = np.abs(slope[1:] - slope[:-1]) * (dx[1:] + dx[:-1]) > rtol * scale
    return keep


def lines_shown(y, max_points: int | None, seed: int = 0) -> np.ndarray:
    """Indices of the points whose coefficient lines are drawn: all, or a seeded sample.

    A thousand overlapping lines show nothing more than a few hundred, and weigh tens of megabytes in
    the browser.

    Parameters
    ----------
    y : array_like of shape (m,)
        Labels ±1.
    max_points : int or None
        At most about this many points, both classes in proportion (each at least one); None: all.
    seed : int, default 0
        Seed of the sample.

    Returns
    -------
    ndarray of int
        Sorted indices into ``y``.
    """
    y = np.asarray(y)
    m = y.size
    if max_points is None or m <= max_points:
        return np.arange(m)
    rng = np.random.default_rng(seed)
    out = []
    for c in (-1, 1):
        idx = np.flatnonzero(y == c)
        k = max(1, int(round(max_points * idx.size / m)))
        out.append(rng.choice(idx, size=min(k, idx.size), replace=False))
    return np.sort(np.concatenate(out))


def compute_coef_paths(path, *, x_axis: str = "lambda", max_points: int | None = None,
                       seed: int = 0) -> CoefPaths:
    """The coefficient paths α_i y_i(λ) of Loosli & Canu 2006, Fig. "Path", from a computed path.

    Parameters
    ----------
    path : NuPath
        From :func:`svmviz.path.nu_path`.
    x_axis : {"lambda", "nu"}, default "lambda"
        The horizontal coordinate (:func:`axis_values`).
    max_points : int, optional
        Draw a seeded sample of about this many points (:func:`lines_shown`); default: every point.
    seed : int, default 0
        Seed of that sample.

    Returns
    -------
    CoefPaths
        One polyline per point drawn, only at the vertices where its slope changes.

    See Also
    --------
    plot_coef_paths : Draws the result.
    coef_path_table : The same vertices as table columns.
    """
    xs_all = axis_values(path, path.lambdas, x_axis)
    first = np.concatenate([[True], np.diff(xs_all) > 0])  # drop the repeated λ of b / ρ jumps
    xs = xs_all[first]
    shown = lines_shown(path.y, max_points, seed)
    C = path.coefs[first][:, shown]
    keep = _kink_mask(xs, C)
    out_x, out_y, out_p = {}, {}, {}
    nv = 0
    for c in (-1, 1):
        px, py, pp = [], [], []
        for col in np.flatnonzero(path.y[shown] == c):
            i = shown[col]
            k = np.flatnonzero(keep[:, col])
            px.append(xs[k])
            py.append(C[k, col])
            pp.append(np.full(k.size, i))
            px.append([np.nan])
            py.append([np.nan])
            pp.append([-1])
            nv += k.size
        out_x[c] = np.concatenate(px) if px else np.empty(0)
        out_y[c] = np.concatenate(py) if py else np.empty(0)
        out_p[c] = np.concatenate(pp).astype(np.int64) if pp else np.empty(0, np.int64)
    return CoefPaths(out_x, out_y, out_p, np.unique(xs), x_axis, nv, int(shown.size), int(path.m))


def coef_path_table(path) -> dict:
    """The whole path as exact, compact columns, for a CSV download.

    Each point's α_i at the breakpoints where its slope changes (α is linear in λ in between).

    Parameters
    ----------
    path : NuPath
        From :func:`svmviz.path.nu_path`.

    Returns
    -------
    dict of str to ndarray
        Columns "point", "y", "lambda", "nu" and "alpha" of equal length, sorted by point then λ.

    See Also
    --------
    compute_coef_paths : The same vertices for the chart.
    """
    cp = compute_coef_paths(path)
    cols = {"point": [], "y": [], "lambda": [], "nu": [], "alpha": []}
    for c in (-1, 1):
        ok = cp.point[c] >= 0
        cols["point"].append(cp.point[c][ok])
        cols["y"].append(np.full(int(ok.sum()), c))
        cols["lambda"].append(cp.x[c][ok])
        cols["alpha"].append(c * cp.y[c][ok])
    out = {k: np.concatenate(v) for k, v in cols.items() if v}
    order = np.lexsort((out["lambda"], out["point"]))
    out = {k: v[order] for k, v in out.items()}
    out["nu"] = out["lambda"] / path.m
    return {k: out[k] for k in ("point", "y", "lambda", "nu", "alpha")}


def plot_coef_paths(cp: CoefPaths, *, cursor: float | None = None, classes=("class −1", "class +1"),
                    X=None, stop: float | None = None) -> go.Figure:
    """α_i y_i against λ or ν: one line per training point, coloured by class (Loosli & Canu 2006, Fig. "Path").

    Breakpoints show as ticks along the bottom, the λ cursor and the LOO stopping point as vertical
    lines. Built as plain dictionaries (:mod:`svmviz.figures.build`: the page's first chart, redrawn
    at every rerun, skips plotly's property-by-property validation of its arrays).

    Parameters
    ----------
    cp : CoefPaths
        From :func:`compute_coef_paths`.
    cursor : float, optional
        The selected λ (or ν), drawn as a vertical line.
    classes : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1 (``svmviz.data.Dataset.class_names``).
    X : ndarray of shape (m, d), optional
        The training points: with two or more features, the hover gives each point's coordinates.
    stop : float, optional
        The automatic LOO stopping point (:func:`svmviz.path.auto_stop`), drawn as a dashed line.

    Returns
    -------
    plotly.graph_objects.Figure
        The coefficient lines of both classes.

    See Also
    --------
    compute_coef_paths : The values drawn here.
    plot_path_summary : Group sizes, b and ρ along the same axis.
    """
    data = []
    for c, label in zip((-1, 1), classes):
        pts = cp.point[c]
        if X is not None and X.shape[1] >= 2:
            safe = np.where(pts >= 0, pts, 0)
            # float32: the point number is exact (below 2**24) and the coordinates are shown to two
            # decimals; as float64 the hover data would be about half of this chart's bytes, sent and
            # parsed again at every interaction
            cd = np.column_stack([pts, X[safe, 0], X[safe, 1]]).astype(np.float32)
            hov = ("point %{customdata[0]} at (%{customdata[1]:.2f}, %{customdata[2]:.2f})<br>"
                   "α y = %{y:.4f} at " + X_TITLES[cp.x_axis].split(" ")[0] + " = %{x:.4g}<extra>"
                   + label + "</extra>")
        else:
            cd = pts.astype(np.int32)[:, None]
            hov = ("point %{customdata[0]}<br>α y = %{y:.4f} at " + X_TITLES[cp.x_axis].split(" ")[0]
                   + " = %{x:.4g}<extra>" + label + "</extra>")
        data.append(dict(type="scatter", x=cp.x[c], y=cp.y[c], mode="lines", name=f"αᵢyᵢ, {label}",
                         line=dict(color=CLASS_COLORS[c], width=1.1), opacity=0.75, customdata=cd,
                         hovertemplate=hov, connectgaps=False))
    # the breakpoints as ticks along the bottom: short vertical segments of ONE line trace (NaN between
    # them) — one SVG path in the browser, where a marker per breakpoint was a DOM node each (463 at
    # the default view, redrawn at every interaction)
    nbk = cp.breakpoints.size
    tick_x = np.repeat(np.asarray(cp.breakpoints, dtype=np.float64), 3)
    tick_x[2::3] = np.nan
    tick_y = np.tile([-1.10, -1.06, np.nan], nbk)
    data.append(dict(type="scatter", x=tick_x, y=tick_y, mode="lines", name=f"breakpoints ({nbk})",
                     line=dict(color="#666", width=1), connectgaps=False,
                     hovertemplate="breakpoint at %{x:.5g}<extra></extra>"))
    if stop is not None:
        data.append(dict(type="scatter", x=[stop, stop], y=[-1.1, 1.1], mode="lines", name="LOO stopping point",
                         line=dict(color="#2ca02c", dash="dash", width=2), hoverinfo="skip"))
    if cursor is not None:
        data.append(dict(type="scatter", x=[cursor, cursor], y=[-1.1, 1.1], mode="lines", name="cursor",
                         line=dict(color="black", width=2), hoverinfo="skip"))
    title = "Coefficient paths αᵢyᵢ (piecewise linear in λ)"
    if cp.n_points < cp.n_total:
        title += f"<br><sup>{cp.n_points} of the {cp.n_total} points' lines (a seeded sample, classes in proportion)</sup>"
    layout = build.theme({}, title=title, xtitle=X_TITLES[cp.x_axis], ytitle="αᵢyᵢ", height=480)
    build.merge(layout, {"yaxis": {"range": [-1.15, 1.15]}})
    build.merge(layout, LEGEND_BELOW)
    return build.figure(data, build.merge(layout, {"margin": MARGINS["coefs"]}))


# --------------------------------------------------------------------------- groups, b and ρ
class PathSummary(NamedTuple):
    """Group sizes and the offset and margin at every breakpoint of a ν-SVM path.

    Attributes
    ----------
    x : ndarray of shape (T,)
        λ or ν at each breakpoint.
    n_E, n_L, n_R : ndarray of int, shape (T,)
        Sizes of the groups E (on the margin, 0 < α < 1), L (α = 1) and R (α = 0).
    b : ndarray of shape (T,)
        The offset.
    rho : ndarray of shape (T,)
        The margin ρ.
    x_axis : {"lambda", "nu"}
        The horizontal coordinate.
    """

    x: np.ndarray        # (T,) λ or ν
    n_E: np.ndarray      # (T,)
    n_L: np.ndarray
    n_R: np.ndarray
    b: np.ndarray
    rho: np.ndarray
    x_axis: str


def compute_path_summary(path, *, x_axis: str = "lambda") -> PathSummary:
    """The sizes of the groups E, L and R and the offset b and margin ρ at every breakpoint of the path.

    Parameters
    ----------
    path : NuPath
        From :func:`svmviz.path.nu_path`.
    x_axis : {"lambda", "nu"}, default "lambda"
        The horizontal coordinate (:func:`axis_values`).

    Returns
    -------
    PathSummary
        One value per breakpoint.

    See Also
    --------
    plot_path_summary : Draws the result.
    """
    G = path.groups
    return PathSummary(axis_values(path, path.lambdas, x_axis), np.sum(G == GROUP_E, axis=1),
                       np.sum(G == GROUP_L, axis=1), np.sum(G == GROUP_R, axis=1),
                       np.asarray(path.b), np.asarray(path.rho), x_axis)


def plot_path_summary(s: PathSummary, *, cursor: float | None = None) -> go.Figure:
    """The sizes of the groups E, L, R along the path (left axis) with b and ρ (right axis).

    Built as plain dictionaries (:mod:`svmviz.figures.build`), redrawn at every rerun.

    Parameters
    ----------
    s : PathSummary
        From :func:`compute_path_summary`.
    cursor : float, optional
        The selected λ (or ν), drawn as a vertical line.

    Returns
    -------
    plotly.graph_objects.Figure
        Step lines of the group sizes and lines of b and ρ on a second axis, the legend below.

    See Also
    --------
    compute_path_summary : The values drawn here.
    """
    data = []
    for name, v, color in (("|E| margin", s.n_E, "#d62728"), ("|L| bounded", s.n_L, "#9467bd"),
                           ("|R| inactive", s.n_R, "#7f7f7f")):
        data.append(dict(type="scatter", x=s.x, y=v, mode="lines", name=name, line=dict(color=color, shape="hv"),
                         hovertemplate=name + " = %{y} at %{x:.4g}<extra></extra>"))
    for name, v, dash in (("b (offset)", s.b, "dot"), ("ρ (margin)", s.rho, "dash")):
        data.append(dict(type="scatter", x=s.x, y=v, mode="lines", name=name, yaxis="y2",
                         line=dict(color="black", dash=dash, width=1.5),
                         hovertemplate=name + " = %{y:.4g} at %{x:.4g}<extra></extra>"))
    layout = {}
    if cursor is not None:  # plotly's add_vline: a line shape over the whole plot height
        layout["shapes"] = [dict(type="line", x0=cursor, x1=cursor, xref="x", y0=0, y1=1, yref="y domain",
                                 line=dict(color="black", width=2))]
    # the page's whole column (under the map): the title on one line
    title = "Group sizes, offset b and margin ρ along the path"
    build.theme(layout, title=title, xtitle=X_TITLES[s.x_axis], ytitle="number of points", height=460)
    build.merge(layout, {"margin": {"t": build.title_top(title)},
                        "yaxis2": dict(title={"text": "b, ρ (dual scale)"}, overlaying="y", side="right",
                                       showgrid=False, tickmode="auto", zeroline=False)})
    # the five entries (two rows at 1024 × 768) at the figure's bottom edge, under the axis title
    return build.figure(data, build.merge(layout, {
        "legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", x=0.0, xanchor="left"),
        "margin": dict(b=SUMMARY_BOTTOM, **MARGINS["summary"])}))


# --------------------------------------------------------------------------- the data at the cursor
class BoundaryMap(NamedTuple):
    """The ν-SVM at one λ on a grid: boundary f + b = 0, margins at ±ρ.

    Attributes
    ----------
    gx, gy : ndarray of shape (g,)
        The grid's abscissae and ordinates (the data's range, padded by 8 %).
    F : ndarray of shape (g, g)
        ``F[i, j]`` = f(x) + b at (gx[j], gy[i]).
    rho : float
        The margin ρ at λ.
    lam : float
        The λ of the map.
    X : ndarray of shape (m, 2)
        The training points.
    y : ndarray of shape (m,)
        Their labels ±1.
    groups : ndarray of int8, shape (m,)
        Group codes at λ (R 0, E 1, L 2).
    alpha : ndarray of shape (m,)
        α at λ.
    train_error, test_error : float
        Misclassification rates at λ (``test_error`` nan without a test sample).
    n_sv : int
        Support vectors (points of E ∪ L).
    plane : MapPlane or None
        The plane of a map of data with more than two features (:mod:`svmviz.figures.plane`); ``X``
        then holds the points' map coordinates.
    X_full : ndarray of shape (m, d) or None
        With ``plane``: the training points in all d features (the hover shows each).
    """

    gx: np.ndarray
    gy: np.ndarray
    F: np.ndarray
    rho: float
    lam: float
    X: np.ndarray
    y: np.ndarray
    groups: np.ndarray       # (n,) group codes at λ
    alpha: np.ndarray        # (n,)
    train_error: float
    test_error: float
    n_sv: int
    plane: MapPlane | None = None
    X_full: np.ndarray | None = None


def compute_boundary_map(path, lam: float, *, grid_n: int = 70, X_test=None, y_test=None,
                         plane: MapPlane | None = None) -> BoundaryMap:
    """Evaluate the path's decision function at λ on a grid over the training data's plane.

    Parameters
    ----------
    path : NuPath
        From :func:`svmviz.path.nu_path`: on data of 2 features, or of any number with ``plane``.
    lam : float
        λ on the path.
    grid_n : int ≥ 5, default 70
        Grid points per axis.
    X_test, y_test : array_like of shape (n_t, d) and (n_t,), optional
        A test sample for the test error.
    plane : MapPlane, optional
        The map's plane (:func:`svmviz.figures.plane.compute_map_plane` on ``path.X``): the path's f,
        fitted on all features, on the plane's mesh (:func:`svmviz.figures.plane.plane_mesh`); the
        points at their map coordinates.

    Returns
    -------
    BoundaryMap
        f + b on the grid, ρ, the groups and errors at λ.

    Raises
    ------
    ValueError
        The data have not 2 features and no ``plane`` is given, ``plane`` is of another number of
        features, or a bad ``grid_n``.

    See Also
    --------
    plot_boundary_map : Draws the result.
    """
    X = np.asarray(path.X)
    if plane is None and X.shape[1] != 2:
        raise ValueError(f"the boundary map needs exactly 2 features or a map plane (svmviz.figures.plane); "
                         f"these data have {X.shape[1]}.")
    if plane is not None and plane.n_features != X.shape[1]:
        raise ValueError(f"the map's plane is of {plane.n_features} features; the data have {X.shape[1]}.")
    if int(grid_n) != grid_n or grid_n < 5:
        raise ValueError(f"grid_n must be an integer ≥ 5; got {grid_n!r}.")
    if plane is None:
        plane = compute_map_plane(X, kind="features", axes=(0, 1))
        drawn, full, kept = X, None, None
    else:
        drawn, full, kept = plane.coordinates(X), X, plane
    mesh = plane_mesh(plane, X, resolution=int(grid_n), pad=0.08)
    gx, gy, XX = mesh.gx, mesh.gy, mesh.points
    a, _b, rho = path.state_at(lam)
    F = path.decision_function(XX, lam).reshape(gy.size, gx.size)
    train_err = path.error_rate(X, path.y, lam)
    test_err = float("nan")
    if X_test is not None and y_test is not None:
        test_err = path.error_rate(X_test, y_test, lam)
    groups = path.groups_at(lam)
    return BoundaryMap(gx, gy, F, float(rho), float(lam), drawn, np.asarray(path.y), groups, a, train_err,
                       test_err, int(np.sum(groups != GROUP_R)), kept, full)


def plot_boundary_map(bm: BoundaryMap, *, classes=("class −1", "class +1"), axis_titles=("x₁", "x₂"),
                      feature_names=None, scale=None) -> go.Figure:
    """Data coloured by class and marked by group (E / L / R), with f + b = 0 and the margins ±ρ.

    Built as plain dictionaries (:mod:`svmviz.figures.build`), redrawn at every rerun.

    Parameters
    ----------
    bm : BoundaryMap
        From :func:`compute_boundary_map`.
    classes : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1.
    axis_titles : tuple of (str, str), default ("x₁", "x₂")
        Names of the two features.
    feature_names : sequence of str, optional
        The features' own names in the hover (``axis_titles`` may end in "(standardised)"); default:
        ``axis_titles``. All d names when ``bm`` has a map plane.
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of the two features when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only. One pair per feature when ``bm`` has a map plane.

    Returns
    -------
    plotly.graph_objects.Figure
        The shaded f + b, its zero contour and the margins, the points of each class and group.

    See Also
    --------
    compute_boundary_map : The values drawn here.
    """
    data = [dict(type="contour", x=bm.gx, y=bm.gy, z=bm.F, showscale=False, name="f(x) + b",
                 contours=dict(coloring="heatmap"), colorscale=build.colorscale("RdBu_r"), opacity=0.35,
                 zmid=0.0, line=dict(width=0),
                 hovertemplate="f + b = %{z:.3g}<extra>(%{x:.2f}, %{y:.2f})</extra>")]
    for lev, name, dash in ((0.0, "boundary f + b = 0", "solid"), (bm.rho, "margin f + b = ±ρ", "dash"),
                            (-bm.rho, None, "dash")):
        if lev != 0.0 and not bm.rho > 0:
            continue
        data.append(dict(type="contour", x=bm.gx, y=bm.gy, z=bm.F, showscale=False,
                         contours=dict(coloring="lines", start=lev, end=lev, size=1.0),
                         line=dict(color="black", width=2.4 if lev == 0 else 1.3, dash=dash),
                         colorscale=[[0, "black"], [1, "black"]], hoverinfo="skip",
                         name=name or "margin", showlegend=name is not None))
    names = feature_names or axis_titles
    for c, label in zip((-1, 1), classes):
        for g, st in GROUP_STYLES.items():
            idx = np.flatnonzero((bm.y == c) & (bm.groups == g))
            if idx.size == 0:
                continue
            # the coordinates (in the data's units beside the standardised values when ``scale`` is
            # given) first in customdata, the point's row and α after them
            if bm.plane is not None:
                lines, orig = features_hover(bm.X_full[idx], names, scale)
            else:
                lines, orig = point_hover(bm.X[idx], names, scale)
            cd = np.column_stack([idx, bm.alpha[idx]]) if orig is None else np.column_stack([orig, idx, bm.alpha[idx]])
            k = 0 if orig is None else orig.shape[1]
            data.append(dict(
                type="scatter", x=bm.X[idx, 0], y=bm.X[idx, 1], mode="markers", name=f"{label}, {st['name']}",
                marker=dict(color=CLASS_COLORS[c], symbol=st["symbol"], size=st["size"],
                            line=dict(width=1, color="black") if g == GROUP_E else dict(width=0)),
                customdata=cd, hovertemplate=f"point %{{customdata[{k}]}}<br>{lines}<br>α = %{{customdata[{k + 1}]:.4f}}"
                                             f"<extra>{label}, {st['name']}</extra>"))
    sub = f"{bm.n_sv} support vectors, training error {bm.train_error:.3f}"
    if np.isfinite(bm.test_error):
        sub += f", test error {bm.test_error:.3f}"
    # two lines: the plot sits half a row wide, one line would be cut off
    title = f"ν-SVM at λ = {bm.lam:.4g} (ν = {bm.lam / bm.X.shape[0]:.3f})<br><sup>{sub}</sup>"
    layout = build.theme({}, title=title, xtitle=axis_titles[0], ytitle=axis_titles[1], height=560)
    build.merge(layout, {"margin": {"t": 80}})
    build.merge(layout, LEGEND_BELOW)
    return build.figure(data, build.merge(layout, {"margin": MARGINS["map"]}))


# --------------------------------------------------------------------------- leave-one-out
class LooCurves(NamedTuple):
    """LOO1, LOO2 and the test error along the path, ready to draw (Loosli & Canu 2006, Fig. "LOO").

    Attributes
    ----------
    x : ndarray of shape (k,)
        λ or ν of each evaluation.
    loo1 : ndarray of shape (k,)
        The leave-one-out error rate; NaN where the margin is 0.
    loo2 : ndarray of shape (k,)
        The mean left-out hinge loss in margin units, max(0, 1 − y ŷ/ρ); NaN where the margin is 0.
    test_error : ndarray of shape (k,)
        Error on the test sample (NaN without one, or where the margin is 0).
    n_sv : ndarray of int, shape (k,)
        Support vectors at each evaluation.
    zero : ndarray of bool, shape (k,)
        Where the margin is 0: ν below ν_min, where leave-one-out values are rounding noise
        (:data:`svmviz.path.RHO_ZERO_RTOL`).
    zero_bands : tuple of (float, float)
        The (start, end) x intervals of the path where ρ = 0, from its breakpoints.
    stop : float
        x of the automatic stopping point.
    x_axis : {"lambda", "nu"}
        The horizontal coordinate.
    """

    x: np.ndarray
    loo1: np.ndarray
    loo2: np.ndarray
    test_error: np.ndarray
    n_sv: np.ndarray
    zero: np.ndarray
    zero_bands: tuple
    stop: float
    x_axis: str


def _runs(xs, mask) -> tuple:
    """(first x, last x) of each run of True in ``mask`` over increasing ``xs``."""
    out = []
    start = None
    for x, z in zip(xs, mask):
        if z and start is None:
            start = x
        if z:
            last = x
        elif start is not None:
            out.append((float(start), float(last)))
            start = None
    if start is not None:
        out.append((float(start), float(last)))
    return tuple(out)


def compute_loo_curves(path, loo, *, x_axis: str = "lambda") -> LooCurves:
    """The leave-one-out curves of Loosli & Canu 2006, Fig. "LOO", from a computed ``LooPath``.

    Parameters
    ----------
    path : NuPath
        From :func:`svmviz.path.nu_path`.
    loo : LooPath
        From :func:`svmviz.path.loo_path` on that path.
    x_axis : {"lambda", "nu"}, default "lambda"
        The horizontal coordinate (:func:`axis_values`).

    Returns
    -------
    LooCurves
        The curves with the zero-margin stretch masked.

    See Also
    --------
    plot_loo_curves : Draws the result.
    """
    x = axis_values(path, loo.lambdas, x_axis)
    zero = np.asarray(loo.rho_zero, dtype=bool)
    loo1 = np.where(zero, np.nan, loo.loo1)
    loo2 = np.where(zero, np.nan, loo.loo2)
    test = np.where(zero, np.nan, np.asarray(loo.test_error, dtype=np.float64))  # f ≡ 0 there: signs of rounding
    bands = _runs(axis_values(path, path.lambdas, x_axis), zero_margin(path))
    return LooCurves(x, loo1, loo2, test, np.asarray(loo.n_sv), zero, bands, float(x[loo.stop]), x_axis)


LOO2_NOTE = ("LOO2 = mean of max(0, 1 − y ŷ/ρ) over the left-out points: their hinge loss in units of the "
             "margin ρ. Near the sparse end the solution approaches the hard-margin SVM, whose margin "
             "between overlapping classes is tiny, so a misclassified left-out point lies many margins "
             "away: values far above 1 are real, hence the log scale.")


def plot_loo_curves(lc: LooCurves, *, cursor: float | None = None) -> go.Figure:
    """Two panels sharing the path axis (Loosli & Canu 2006, Fig. "LOO").

    The error rates — LOO1 and the test error, linear — above; LOO2 (a hinge loss that runs from
    hundreds to below 1) on a log axis below; the automatic stopping point, the cursor and the
    zero-margin stretch (ν < ν_min) on both. Built as plain dictionaries (:mod:`svmviz.figures.build`).

    Parameters
    ----------
    lc : LooCurves
        From :func:`compute_loo_curves`.
    cursor : float, optional
        The selected λ (or ν), drawn as a vertical line.

    Returns
    -------
    plotly.graph_objects.Figure
        The two panels.

    See Also
    --------
    compute_loo_curves : The values drawn here.
    """
    has_test = bool(np.any(np.isfinite(lc.test_error)))
    grid = build.subplot_grid(2, 1, ("Error rates: LOO1 and the test error" if has_test else "Error rate: LOO1",
                                    "LOO2: left-out hinge loss in margin units (log scale)"),
                             shared_xaxes=True, vertical_spacing=0.14, row_heights=[0.55, 0.45])
    top_panel, low_panel = grid.trace_axes(1, 1), grid.trace_axes(2, 1)
    name = X_TITLES[lc.x_axis].split(" ")[0]
    cd = np.column_stack([lc.n_sv])
    data = [dict(type="scatter", x=lc.x, y=lc.loo1, mode="lines+markers", name="LOO1: leave-one-out error rate",
                 line=dict(color="#d62728"), marker=dict(size=5), customdata=cd, connectgaps=False,
                 hovertemplate="LOO1 = %{y:.4f} at " + name + " = %{x:.4g}<br>%{customdata[0]} "
                               "support vectors<extra></extra>", **top_panel)]
    if has_test:
        data.append(dict(type="scatter", x=lc.x, y=lc.test_error, mode="lines", name="test error (independent sample)",
                         line=dict(color="black", dash="dot"),
                         hovertemplate="test error = %{y:.4f} at " + name + " = %{x:.4g}<extra></extra>", **top_panel))
    data.append(dict(type="scatter", x=lc.x, y=lc.loo2, mode="lines+markers",
                     name="LOO2: mean max(0, 1 − y ŷ/ρ), left out",
                     line=dict(color="#1f77b4", dash="dash"), marker=dict(size=5), connectgaps=False, customdata=cd,
                     hovertemplate="LOO2 = %{y:.4g} at " + name + " = %{x:.4g}<br>%{customdata[0]} "
                                   "support vectors<extra></extra>", **low_panel))
    # the zero-margin stretch shaded in both panels, as plotly's add_vrect(row=…) draws it
    shapes = [dict(type="rect", x0=a, x1=b, xref=grid.refs[row, 1][0], y0=0, y1=1,
                   yref=grid.refs[row, 1][1] + " domain", fillcolor="#bbbbbb", opacity=0.35, line=dict(width=0),
                   layer="below") for a, b in lc.zero_bands for row in (1, 2)]
    if lc.zero_bands:  # a legend entry for the shaded stretch (a rectangle has none)
        data.append(dict(type="scatter", x=[None], y=[None], mode="lines", line=dict(color="#bbbbbb", width=8),
                         name="margin ρ = 0 (ν < νₘᵢₙ): no classifier, LOO not shown", hoverinfo="skip",
                         **top_panel))
    fin1 = np.concatenate([lc.loo1[np.isfinite(lc.loo1)], lc.test_error[np.isfinite(lc.test_error)], [0.0]])
    top = max(0.05, float(fin1.max()) * 1.08)
    fin2 = lc.loo2[np.isfinite(lc.loo2) & (lc.loo2 > 0)]
    lo2, hi2 = (float(fin2.min()), float(fin2.max())) if fin2.size else (0.1, 1.0)
    # the cursor first: where it sits on the stopping point, the dashed stop line stays visible on it
    for x0, label, style in ((cursor, "cursor", dict(color="black", width=2)),
                             (lc.stop, "automatic stopping point", dict(color="#2ca02c", dash="dash", width=2.5))):
        if x0 is None:
            continue
        data.append(dict(type="scatter", x=[x0, x0], y=[0, top], mode="lines", name=label, line=style,
                         legendgroup=label, hovertemplate=label + " at " + name + " = %{x:.4g}<extra></extra>",
                         **top_panel))
        data.append(dict(type="scatter", x=[x0, x0], y=[lo2 / 1.3, hi2 * 1.3], mode="lines", name=label,
                         line=dict(style), legendgroup=label, showlegend=False, hoverinfo="skip", **low_panel))
    layout = build.theme(grid.layout, title="Leave-one-out along the path, with the automatic stopping point",
                        height=640)
    if shapes:
        layout["shapes"] = shapes
    build.merge(grid.yaxis(1, 1), {"title": {"text": "error rate"}, "range": [0, top]})
    # log ticks 1, 2, 5 per decade, written out (plotly's own minor labels read "5" for 0.5)
    ticks = [m * 10.0 ** e for e in range(int(np.floor(np.log10(lo2 / 1.3))), int(np.ceil(np.log10(hi2 * 1.3))) + 1)
             for m in (1, 2, 5) if lo2 / 1.3 <= m * 10.0 ** e <= hi2 * 1.3]
    build.merge(grid.yaxis(2, 1), {"title": {"text": "LOO2 (log scale)"}, "type": "log", "tickvals": ticks,
                                  "ticktext": [f"{t:g}" for t in ticks]})
    build.merge(grid.xaxis(2, 1), {"title": {"text": X_TITLES[lc.x_axis]}})
    build.merge(layout, LEGEND_BELOW)
    return build.figure(data, build.merge(layout, {"legend": {"y": -0.12},
                                                 "margin": dict(t=90, b=150, **MARGINS["loo"])}))
