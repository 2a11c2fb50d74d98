"""Figures of the Import Vector Machine page (Zhu & Hastie 2002, Figs. 2–4).

``compute_*`` evaluate already-fitted models on grids / paths and return NamedTuples of arrays;
``plot_*`` draw them. Nothing here fits a model.
"""
from __future__ import annotations

import copy
from typing import Callable, NamedTuple

import numpy as np
import plotly.graph_objects as go

from ..data.dataset import class_display_names
from .labels import features_hover, point_hover
from .plane import MapPlane, plane_mesh
from . import build
from .theme import CLASS_COLORS, LEGEND_BELOW, MULTI_COLORS
from .tuning import level_lines

IMPORT_STYLE = dict(symbol="circle-open", size=13, color="black", line=dict(width=2.2))
SUPPORT_STYLE = dict(symbol="circle-open", size=12, color="#444", line=dict(width=1.6))


def _import_points_trace(X, imp, text, names=("x1", "x2"), scale=None, X_full=None) -> dict:
    """The import points (rows ``imp`` of ``X``) as one trace, with their hover ``text``."""
    return _points_trace(X[imp], text, names, scale, name=f"import points ({imp.size})",
                         marker=copy.deepcopy(IMPORT_STYLE), full=None if X_full is None else X_full[imp])


def _points_trace(P, text, names, scale, full=None, **kw) -> dict:
    # hover: the point's text, then its coordinates (in the data's units beside the standardised
    # values when ``scale`` is given: svmviz.figures.labels.point_hover); on a map plane of more
    # than two features (``full``: the points' d features) every feature
    lines, custom = point_hover(P, names, scale) if full is None else features_hover(full, names, scale)
    trace = dict(type="scatter", x=P[:, 0], y=P[:, 1], mode="markers", text=text,
                 hovertemplate=f"%{{text}}<br>{lines}<extra></extra>", **kw)
    if custom is not None:
        trace["customdata"] = custom
    return trace


# --------------------------------------------------------------------------- helpers
def _check_2d(X, what):
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"the {what} needs exactly 2 features or a map plane (svmviz.figures.plane); these data "
                         f"have {X.shape[1] if X.ndim == 2 else X.ndim}.")
    return X


def _grid(X, grid_n, pad=0.08):
    if int(grid_n) != grid_n or grid_n < 5:
        raise ValueError(f"grid_n must be an integer ≥ 5; got {grid_n!r}.")
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    gx = np.linspace(lo[0] - pad * span[0], hi[0] + pad * span[0], int(grid_n))
    gy = np.linspace(lo[1] - pad * span[1], hi[1] + pad * span[1], int(grid_n))
    XX = np.column_stack([np.tile(gx, gy.size), np.repeat(gy, gx.size)])  # row = gy index
    return gx, gy, XX


def _map_grid(X, what, grid_n, p_true, bayes_threshold, plane=None):
    """The points as drawn, the map's grid (gx, gy and its points XX in feature space), the Bayes margin
    p_true − threshold on it (g, g) or None, and the points in all features (None without ``plane``)
    — shared by the IVM's and the SVM's maps so that both use one grid."""
    if plane is None:
        X = _check_2d(X, what)
        gx, gy, XX = _grid(X, grid_n)
        full = None
    else:
        full = np.asarray(X, dtype=np.float64)
        if full.ndim != 2 or full.shape[1] != plane.n_features:
            raise ValueError(f"the map's plane is of {plane.n_features} features; X has shape {full.shape}.")
        if int(grid_n) != grid_n or grid_n < 5:
            raise ValueError(f"grid_n must be an integer ≥ 5; got {grid_n!r}.")
        mesh = plane_mesh(plane, full, resolution=int(grid_n), pad=0.08)
        gx, gy, XX = mesh.gx, mesh.gy, mesh.points
        X = plane.coordinates(full)
    bayes = None if p_true is None else (np.asarray(p_true(XX)) - bayes_threshold).reshape(gy.size, gx.size)
    return X, gx, gy, XX, bayes, full


def error_rate(model, X_test, y_test) -> float:
    """The share of test points a fitted classifier misclassifies.

    Parameters
    ----------
    model : fitted classifier
        With ``predict``.
    X_test : array_like of shape (m, d) or None
    y_test : array_like of shape (m,) or None

    Returns
    -------
    float
        mean(predict(X_test) ≠ y_test); NaN without test points.
    """
    if X_test is None or y_test is None:
        return float("nan")
    return float(np.mean(model.predict(X_test) != np.asarray(y_test)))


# --------------------------------------------------------------------------- binary maps
class ImportMap(NamedTuple):
    """A fitted binary IVM on a grid: ``p[i, j]`` = P(classes_[1] | (gx[j], gy[i])) (Zhu & Hastie 2002, Fig. 3).

    Attributes
    ----------
    gx, gy : ndarray of shape (g,)
        The grid's abscissae and ordinates (the data's range, padded by 8 %).
    p : ndarray of shape (g, g)
        The fitted probability of the second class at each grid point.
    bayes : ndarray of shape (g, g) or None
        p_true − threshold on the grid (the Bayes boundary at 0); None when p_true is unknown.
    X : ndarray of shape (n, 2)
        The training points.
    y : ndarray of shape (n,)
        Their labels.
    import_idx : ndarray of int, shape (q,)
        Indices in ``X`` of the import points, in the order the greedy steps chose them.
    p_train : ndarray of shape (n,)
        The fitted P(classes_[1]) at the training points.
    train_error, test_error : float
        Misclassification rates on the training and the test sample (nan without a test sample).
    lam : float
        The model's λ.
    plane : MapPlane or None
        The plane of a map of more than two features (:mod:`svmviz.figures.plane`): ``X`` then holds
        the points' map coordinates.
    X_full : ndarray of shape (n, d) or None
        With ``plane``: the training points in all d features (the hover shows each).
    """

    gx: np.ndarray            # (g,)
    gy: np.ndarray            # (g,)
    p: np.ndarray             # (g, g)
    bayes: np.ndarray | None  # (g, g) p_true − threshold (Bayes boundary at 0), or None
    X: np.ndarray             # (n, 2)
    y: np.ndarray             # (n,) ±1
    import_idx: np.ndarray    # (q,)
    p_train: np.ndarray       # (n,) fitted P(+1) at the training points
    train_error: float
    test_error: float
    lam: float
    plane: MapPlane | None = None
    X_full: np.ndarray | None = None


def compute_import_map(model, X, y, *, p_true: Callable | None = None, bayes_threshold: float = 0.5,
                       X_test=None, y_test=None, grid_n: int = 60, plane: MapPlane | None = None) -> ImportMap:
    """Evaluate a fitted binary IVM on a grid over the data (Zhu & Hastie 2002, Fig. 3).

    Parameters
    ----------
    model : IVMClassifier
        A fitted :class:`~svmviz.ivm.IVMClassifier` with two classes.
    X : array_like of shape (n, 2)
        The training points (they set the grid's range).
    y : array_like of shape (n,)
        Their labels.
    p_true : callable, optional
        ``p_true(XX) -> (m,)``, the true P(+1 | x) when the data are simulated; draws the Bayes boundary.
    bayes_threshold : float, default 0.5
        The level of ``p_true`` that is the Bayes boundary (another level for unequal costs).
    X_test, y_test : array_like of shape (n_test, 2) and (n_test,), optional
        A test sample for the test error.
    grid_n : int ≥ 5, default 60
        Grid points per axis.
    plane : MapPlane, optional
        The map's plane for data of more than two features
        (:func:`svmviz.figures.plane.compute_map_plane` on ``X``): the model, fitted on all features,
        on the plane's mesh; ``X`` is then of shape (n, d) and the points are drawn at their map
        coordinates.

    Returns
    -------
    ImportMap
        p̂ on the grid, the import points, the training and test errors.

    Raises
    ------
    ValueError
        The model has more than two classes (use :func:`compute_class_map`), or ``X`` is not 2-D.

    See Also
    --------
    plot_import_map : Draws the result.
    compute_svm_map : The SVM's map on the same grid.
    """
    if model.n_classes_ != 2:
        raise ValueError("compute_import_map is for two classes; use compute_class_map.")
    X, gx, gy, XX, bayes, full = _map_grid(X, "import-point map", grid_n, p_true, bayes_threshold, plane)
    Xm = X if full is None else full  # the points the model sees
    p = model.predict_proba(XX)[:, 1].reshape(gy.size, gx.size)
    y = np.asarray(y)
    return ImportMap(gx, gy, p, bayes, X, y, np.asarray(model.import_indices_),
                     model.predict_proba(Xm)[:, 1], float(np.mean(model.predict(Xm) != y)),
                     error_rate(model, X_test, y_test), float(model.lam), plane, full)


class SVMMap(NamedTuple):
    """An SVM's decision function on a grid, its support points and margins f = ±1 (Zhu & Hastie 2002, Fig. 3).

    Attributes
    ----------
    gx, gy : ndarray of shape (g,)
        The grid's abscissae and ordinates (the data's range, padded by 8 %).
    f : ndarray of shape (g, g)
        ``f[i, j]`` = f(gx[j], gy[i]), the decision function.
    bayes : ndarray of shape (g, g) or None
        p_true − threshold on the grid (the Bayes boundary at 0); None when p_true is unknown.
    X : ndarray of shape (n, 2)
        The training points.
    y : ndarray of shape (n,)
        Their labels.
    support_idx : ndarray of int, shape (s,)
        Indices in ``X`` of the support points (α_i > 0).
    train_error, test_error : float
        Misclassification rates on the training and the test sample (nan without a test sample).
    lam : float
        The SVM's λ (Wahba et al. 2001, eq. 1).
    plane : MapPlane or None
        The plane of a map of more than two features: ``X`` then holds the points' map coordinates.
    X_full : ndarray of shape (n, d) or None
        With ``plane``: the training points in all d features.
    """

    gx: np.ndarray
    gy: np.ndarray
    f: np.ndarray             # (g, g)
    bayes: np.ndarray | None
    X: np.ndarray
    y: np.ndarray
    support_idx: np.ndarray
    train_error: float
    test_error: float
    lam: float
    plane: MapPlane | None = None
    X_full: np.ndarray | None = None


def compute_svm_map(model, X, y, *, p_true: Callable | None = None, bayes_threshold: float = 0.5,
                    X_test=None, y_test=None, grid_n: int = 60, plane: MapPlane | None = None) -> SVMMap:
    """Evaluate a fitted SVM on a grid over the data, on the grid :func:`compute_import_map` uses.

    Parameters
    ----------
    model : SVMClassifier
        A fitted :class:`~svmviz.svm.SVMClassifier`.
    X : array_like of shape (n, 2)
        The training points (they set the grid's range).
    y : array_like of shape (n,)
        Their labels.
    p_true : callable, optional
        ``p_true(XX) -> (m,)``, the true P(+1 | x) when the data are simulated; draws the Bayes boundary.
    bayes_threshold : float, default 0.5
        The level of ``p_true`` that is the Bayes boundary.
    X_test, y_test : array_like of shape (n_test, 2) and (n_test,), optional
        A test sample for the test error.
    grid_n : int ≥ 5, default 60
        Grid points per axis.
    plane : MapPlane, optional
        The map's plane for data of more than two features
        (:func:`svmviz.figures.plane.compute_map_plane` on ``X``): the model, fitted on all features,
        on the plane's mesh; ``X`` is then of shape (n, d) and the points are drawn at their map
        coordinates.

    Returns
    -------
    SVMMap
        f on the grid, the support points, the training and test errors.

    See Also
    --------
    plot_svm_map : Draws the result.
    compute_import_map : The IVM's map on the same grid.
    """
    X, gx, gy, XX, bayes, full = _map_grid(X, "SVM map", grid_n, p_true, bayes_threshold, plane)
    Xm = X if full is None else full  # the points the model sees
    f = model.decision_function(XX).reshape(gy.size, gx.size)
    y = np.asarray(y)
    return SVMMap(gx, gy, f, bayes, X, y, np.asarray(model.support_),
                  float(np.mean(model.predict(Xm) != y)), error_rate(model, X_test, y_test),
                  float(model.lam), plane, full)


def _data_traces(X, y, hover_extra=None, class_names=("class −1", "class +1"), names=("x1", "x2"),
                 scale=None, X_full=None) -> list:
    """The training points of the two classes, one trace each (``X_full``: their d features, for the hover)."""
    out = []
    for c, name in ((-1, class_names[0]), (1, class_names[1])):
        sel = np.flatnonzero(y == c)
        text = [f"point {i}<br>{name} (y = {c:+d})" + ("" if hover_extra is None else hover_extra[i])
                for i in sel]
        out.append(_points_trace(X[sel], text, names, scale, name=name,
                                 marker=dict(color=CLASS_COLORS[c], size=6, opacity=0.75),
                                 full=None if X_full is None else X_full[sel]))
    return out


def _level_trace(gx, gy, fields, name, line, short=None, **kw) -> dict:
    """The contour lines ``field = level`` of every (field (g, g), level) in ``fields`` as ONE line
    trace, traced here (:func:`svmviz.figures.tuning.level_lines`, the pieces separated by NaN).

    Traced on the server, a line is a few hundred points; a ``go.Contour`` trace per level would
    send the whole grid to the browser at every rerun and leave the tracing to it. ``short`` names the field in the hover text
    (``"p̂ = 0.25"``); without it the line has no hover. A level not crossed in view draws nothing
    and says so in the legend."""
    xs, ys, text = [], [], []
    for field, level in fields:
        z = np.asarray(field, dtype=float)
        if not np.nanmin(z) < level < np.nanmax(z):
            continue
        lx, ly = level_lines(gx, gy, z, level)
        if len(lx):
            xs += [lx, [np.nan]]
            ys += [ly, [np.nan]]
            text += [f"{short} = {level:g}"] * (len(lx) + 1)
    if not xs:
        name = f"{name} (not crossed in view)"
    if not short:
        hover = dict(hoverinfo="skip")
    elif len(set(text)) <= 1:  # one level: one hover text, no array
        hover = dict(hovertemplate=(text[0] if text else short) + "<extra></extra>")
    else:
        hover = dict(text=text, hovertemplate="%{text}<extra></extra>")
    # float32: the lines are drawn, not read back (half the bytes)
    return dict(type="scatter", x=np.concatenate(xs).astype(np.float32) if xs else [],
                y=np.concatenate(ys).astype(np.float32) if ys else [], mode="lines",
                name=name, line=line, **hover, **kw)


def _bayes_traces(gx, gy, bayes) -> list:
    """The Bayes boundary's line, if the truth is known."""
    if bayes is None:
        return []
    # purple dashed, as in (Zhu & Hastie 2002, Fig. 3); black is taken by the fitted boundary here
    return [_level_trace(gx, gy, [(bayes, 0.0)], "Bayes boundary",
                         dict(color="#9467bd", dash="dash", width=2.5), "Bayes: p(x) − threshold")]


def _surface_traces(gx, gy, z, zrange, name, hover, short, boundary, band) -> list:
    """The layers the IVM's and the SVM's maps share (Zhu & Hastie 2002, Fig. 3): the shaded surface
    z (g, g) with its colour bar, its boundary line (solid) and a pair of band lines (dashed).

    ``boundary`` and ``band`` are (legend name, levels) of the contour lines (:func:`_level_trace`);
    ``hover`` names z on the surface, ``short`` on the lines."""
    # z as float32: shaded and hovered to 3 decimals, in half the bytes of float64 sent at every rerun
    out = [dict(type="heatmap", x=gx, y=gy, z=np.asarray(z, dtype=np.float32), zmin=zrange[0], zmax=zrange[1],
                showscale=True, opacity=0.35,
                colorscale=[[0, CLASS_COLORS[-1]], [0.5, "#ffffff"], [1, CLASS_COLORS[1]]],
                colorbar=dict(title=dict(text=name), len=0.6), name=name, showlegend=False,
                hovertemplate=f"x = (%{{x:.2f}}, %{{y:.2f}})<br>{hover} = %{{z:.3f}}<extra></extra>")]
    for (label, levels), line in ((boundary, dict(color="black", width=2.5)),
                                  (band, dict(color="black", width=1.3, dash="dash"))):
        out.append(_level_trace(gx, gy, [(z, lev) for lev in levels], label, line, short))
    return out


def _class_of(y, class_names) -> str:
    return class_names[1] if y > 0 else class_names[0]


def plot_import_map(m: ImportMap, *, title: str | None = None, class_names=("class −1", "class +1"),
                    axis_titles=("x1", "x2"), feature_names=None, scale=None) -> go.Figure:
    """Data, import points, the fitted p̂(x) = 0.25 / 0.5 / 0.75 contours and the Bayes boundary (Zhu & Hastie 2002, Fig. 3).

    Parameters
    ----------
    m : ImportMap
        From :func:`compute_import_map`.
    title : str, optional
        The figure's title; default: the number of import points, the test error and λ.
    class_names : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1 (legend, hover: p̂ is the probability of the second).
    axis_titles : tuple of (str, str), default ("x1", "x2")
        Names of the two features.
    feature_names : sequence of str, optional
        The features' own names in the hover (``axis_titles`` may end in "(standardised)"); default:
        ``axis_titles``. All d names on a map plane of more than two features.
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of the two features when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only.

    Returns
    -------
    plotly.graph_objects.Figure
        The shaded p̂(x) map with its contours, the data, the import points ringed and numbered in the
        hover text, the legend below.

    See Also
    --------
    compute_import_map : The values drawn here.
    plot_svm_map : The SVM's figure beside it.
    """
    plus = class_names[1]
    data = _surface_traces(m.gx, m.gy, m.p, (0, 1), "p̂(x)", f"p̂({plus} | x)", "p̂",
                           ("p̂(x) = 0.5 (IVM boundary)", (0.5,)), ("p̂(x) = 0.25, 0.75", (0.25, 0.75)))
    data += _bayes_traces(m.gx, m.gy, m.bayes)
    extra = [f"<br>p̂({plus}) = {v:.3f}" for v in m.p_train]
    names = feature_names or axis_titles
    data += _data_traces(m.X, m.y, extra, class_names, names, scale, m.X_full)
    imp = m.import_idx
    data.append(_import_points_trace(m.X, imp, [f"import point #{k + 1} (point {i}), {_class_of(m.y[i], class_names)}"
                                              for k, i in enumerate(imp)], names, scale, m.X_full))
    te = "" if np.isnan(m.test_error) else f"<br>test error {m.test_error:.3f}"  # a map gets half a row
    layout = build.theme({}, title=title or f"IVM: {imp.size} import points{te}<br><sup>λ = {m.lam:.3g}</sup>",
                         xtitle=axis_titles[0], ytitle=axis_titles[1], height=520)
    return build.figure(data, build.merge(build.merge(layout, {**LEGEND_BELOW, "height": 600}),
                                          {"margin": {"t": build.title_top(layout["title"]["text"])}}))


def plot_svm_map(m: SVMMap, *, title: str | None = None, class_names=("class −1", "class +1"),
                 axis_titles=("x1", "x2"), feature_names=None, scale=None) -> go.Figure:
    """SVM boundary f = 0, margins f = ±1, support points and the Bayes boundary (Zhu & Hastie 2002, Fig. 3).

    Parameters
    ----------
    m : SVMMap
        From :func:`compute_svm_map`.
    title : str, optional
        The figure's title; default: the number of support points, the test error and λ.
    class_names : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1.
    axis_titles : tuple of (str, str), default ("x1", "x2")
        Names of the two features.
    feature_names : sequence of str, optional
        The features' own names in the hover (``axis_titles`` may end in "(standardised)"); default:
        ``axis_titles``. All d names on a map plane of more than two features.
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of the two features when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only.

    Returns
    -------
    plotly.graph_objects.Figure
        The shaded f(x) map with its contours, the data and the support points ringed, the legend below.

    See Also
    --------
    compute_svm_map : The values drawn here.
    plot_import_map : The IVM's figure beside it.
    """
    lim = float(np.max(np.abs(m.f))) or 1.0
    data = _surface_traces(m.gx, m.gy, m.f, (-lim, lim), "f(x)", "f(x)", "f",
                           ("f(x) = 0 (SVM boundary)", (0.0,)), ("margins f(x) = ±1", (-1.0, 1.0)))
    data += _bayes_traces(m.gx, m.gy, m.bayes)
    names = feature_names or axis_titles
    data += _data_traces(m.X, m.y, None, class_names, names, scale, m.X_full)
    sv = m.support_idx
    data.append(_points_trace(m.X[sv], [f"support point (point {i}), {_class_of(m.y[i], class_names)}" for i in sv],
                            names, scale, name=f"support points ({sv.size})", marker=copy.deepcopy(SUPPORT_STYLE),
                            full=None if m.X_full is None else m.X_full[sv]))
    te = "" if np.isnan(m.test_error) else f"<br>test error {m.test_error:.3f}"  # a map gets half a row
    layout = build.theme({}, title=title or f"SVM: {sv.size} support points{te}<br><sup>λ of the SVM = {m.lam:.3g}</sup>",
                         xtitle=axis_titles[0], ytitle=axis_titles[1], height=520)
    return build.figure(data, build.merge(build.merge(layout, {**LEGEND_BELOW, "height": 600}),
                                          {"margin": {"t": build.title_top(layout["title"]["text"])}}))


# --------------------------------------------------------------------------- λ path (Zhu & Hastie 2002, Fig. 2)
LN_LAMBDA_TITLE = "ln λ (natural log, as in Zhu & Hastie 2002)"


class PathCurves(NamedTuple):
    """Curves along an IVM's λ path, for plotting (Zhu & Hastie 2002, Fig. 2).

    Attributes
    ----------
    log10_lam, ln_lam : ndarray of shape (L,)
        The path's λ values, as log10 and as natural log (the paper's axis).
    tune_error : ndarray of shape (L,)
        Misclassification rate on the tuning set at each λ.
    train_error : ndarray of shape (L,)
        Misclassification rate on the training set.
    n_import : ndarray of int, shape (L,)
        Number of import points chosen at each λ.
    H : ndarray of shape (L,)
        The regularized negative log-likelihood at the end of each fit.
    best_index : int
        Index of the chosen λ (least tuning error).
    klr_tune_error : ndarray of shape (L,) or None
        Full kernel logistic regression's tuning error on the same grid, if given.
    svm_tune_error : ndarray of shape (L,) or None
        The SVM's tuning error on the same grid, if given.
    """
    log10_lam: np.ndarray   # (L,)
    ln_lam: np.ndarray      # (L,)
    tune_error: np.ndarray  # (L,)
    train_error: np.ndarray
    n_import: np.ndarray
    H: np.ndarray
    best_index: int
    klr_tune_error: np.ndarray | None  # full KLR on the same grid, if given
    svm_tune_error: np.ndarray | None  # SVM on the same grid, if given


def compute_path_curves(path, *, klr_path=None, svm_tune_error=None) -> PathCurves:
    """Curves of an IVM λ path, optionally with the full-KLR and the SVM tuning errors beside it.

    Parameters
    ----------
    path : IVMPath
        From :func:`svmviz.ivm.ivm_lambda_path`.
    klr_path : KLRPath, optional
        From :func:`svmviz.ivm.klr_lambda_path` on the same λ grid.
    svm_tune_error : array_like of shape (L,), optional
        The SVM's tuning error at each λ of the path (e.g. ``svm_lambda_path(...).tune_error``).

    Returns
    -------
    PathCurves
        λ (log10 and ln), the errors, the number of import points, H and the chosen index.

    Raises
    ------
    ValueError
        ``klr_path`` uses another λ grid, or ``svm_tune_error`` has not one value per λ.

    See Also
    --------
    plot_path_error : The errors along λ.
    plot_path_size : The number of import points along λ.
    """
    lams = np.asarray(path.lams)
    klr = None
    if klr_path is not None:
        if not np.allclose(klr_path.lams, lams):
            raise ValueError("the full-KLR path must use the same λ grid as the IVM path.")
        klr = np.asarray(klr_path.tune_error)
    svm = None if svm_tune_error is None else np.asarray(svm_tune_error, dtype=float)
    if svm is not None and svm.shape != lams.shape:
        raise ValueError("svm_tune_error must have one value per λ of the path.")
    return PathCurves(np.log10(lams), np.log(lams), np.asarray(path.tune_error),
                      np.asarray(path.train_error), np.asarray(path.n_import), np.asarray(path.H),
                      int(path.best_index), klr, svm)


def _lam_hover(c: PathCurves):
    return [f"ln λ = {a:.1f}, λ = {np.exp(a):.3g}" for a in c.ln_lam]


def _best_line(c: PathCurves, y=None, name=None, hover="tuning error %{y:.3f}") -> tuple[dict, dict]:
    """The chosen λ: a dotted vertical line (a layout shape) and a star at (ln λ, ``y``) (default: the
    tuning error)."""
    b = c.best_index
    y = c.tune_error if y is None else y
    name = name or f"chosen λ: ln λ = {c.ln_lam[b]:.1f} (λ = {np.exp(c.ln_lam[b]):.3g})"
    line = dict(type="line", x0=c.ln_lam[b], x1=c.ln_lam[b], xref="x", y0=0, y1=1, yref="y domain",
                line=dict(color="#d62728", dash="dot", width=1.5))
    star = dict(type="scatter", x=[c.ln_lam[b]], y=[y[b]], mode="markers", name=name,
                marker=dict(color="#d62728", size=11, symbol="star"),
                hovertemplate=f"chosen λ<br>{hover}<extra></extra>")
    return line, star


def plot_path_error(c: PathCurves, *, bayes_error: float | None = None) -> go.Figure:
    """Tuning-set misclassification against ln λ, with the chosen λ (Zhu & Hastie 2002, Fig. 2, left).

    Parameters
    ----------
    c : PathCurves
        From :func:`compute_path_curves`.
    bayes_error : float, optional
        The Bayes error, drawn as a horizontal line.

    Returns
    -------
    plotly.graph_objects.Figure
        The IVM's tuning and training errors (and the full KLR's and the SVM's tuning errors when
        given) against ln λ, the chosen λ marked.

    See Also
    --------
    compute_path_curves : The values drawn here.
    plot_path_size : The number of import points along the same path.
    """
    hov = _lam_hover(c)
    data = []
    shapes, notes = [], []
    data.append(dict(type="scatter", x=c.ln_lam, y=c.tune_error, mode="lines+markers", name="IVM tuning error",
                     line=dict(color="black"), text=hov,
                     hovertemplate="%{text}<br>tuning error %{y:.3f}<extra></extra>"))
    data.append(dict(type="scatter", x=c.ln_lam, y=c.train_error, mode="lines", name="IVM training error",
                     line=dict(color="#7f7f7f", dash="dot"), text=hov,
                     hovertemplate="%{text}<br>training error %{y:.3f}<extra></extra>"))
    if c.klr_tune_error is not None:
        data.append(dict(type="scatter", x=c.ln_lam, y=c.klr_tune_error, mode="lines", name="full KLR tuning error",
                         line=dict(color="#17becf", dash="dash"), text=hov,
                         hovertemplate="%{text}<br>full KLR %{y:.3f}<extra></extra>"))
    if c.svm_tune_error is not None:
        data.append(dict(type="scatter", x=c.ln_lam, y=c.svm_tune_error, mode="lines", name="SVM tuning error",
                         line=dict(color="#2ca02c", dash="dashdot"), text=hov,
                         hovertemplate="%{text}<br>SVM %{y:.3f}<extra></extra>"))
    if bayes_error is not None:
        # plotly's add_hline with an annotation at the top left
        shapes.append(dict(type="line", x0=0, x1=1, xref="x domain", y0=bayes_error, y1=bayes_error, yref="y",
                           line=dict(color="#9467bd", dash="dash")))
        notes.append(dict(showarrow=False, text=f"Bayes error {bayes_error:.3f}", x=0, xanchor="left",
                          xref="x domain", y=bayes_error, yanchor="bottom", yref="y"))
    line, star = _best_line(c)
    shapes.append(line)
    data.append(star)
    layout = {"shapes": shapes, **({"annotations": notes} if notes else {})}
    build.theme(layout, title="Tuning misclassification along the λ path", xtitle=LN_LAMBDA_TITLE,
                ytitle="misclassification rate")
    return build.figure(data, build.merge(layout, {**LEGEND_BELOW, "height": 520}))


def plot_path_size(c: PathCurves) -> go.Figure:
    """The number of import points against ln λ (Zhu & Hastie 2002, Fig. 2, middle).

    Parameters
    ----------
    c : PathCurves
        From :func:`compute_path_curves`.

    Returns
    -------
    plotly.graph_objects.Figure
        The number of import points along the path, the chosen λ marked.

    See Also
    --------
    compute_path_curves : The values drawn here.
    plot_path_error : The errors along the same path.
    """
    line, star = _best_line(c, y=c.n_import, name=f"chosen λ: |S| = {c.n_import[c.best_index]}", hover="|S| = %{y}")
    data = [dict(type="scatter", x=c.ln_lam, y=c.n_import, mode="lines+markers", name="|S| import points",
                 line=dict(color="black"), text=_lam_hover(c), hovertemplate="%{text}<br>|S| = %{y}<extra></extra>"),
            star]
    layout = build.theme({"shapes": [line]}, title="Number of import points along the λ path", xtitle=LN_LAMBDA_TITLE,
                         ytitle="|S| (import points)")
    return build.figure(data, build.merge(layout, {**LEGEND_BELOW, "height": 520}))


class StepCurve(NamedTuple):
    """H_k of the greedy steps of one IVM fit, the stopping-rule ratio and where it stopped (Zhu & Hastie 2002, §3.3).

    Attributes
    ----------
    k : ndarray of int, shape (s,)
        The step numbers.
    H : ndarray of shape (s,)
        H_k, the regularized negative log-likelihood after the exact refit at step k.
    H_score : ndarray of shape (s,)
        The score that selected the point added at step k (the one-step approximation for B2*).
    n_import : ndarray of int, shape (s,)
        The number of import points after step k.
    ratio : ndarray of shape (s,)
        The stopping rule's |H_k − H_{k−r}| / |H_k|, NaN for k < r.
    stop_k : int
        The step at which the fit stopped.
    r : int
        The rule's lag.
    eps : float
        The rule's threshold ε: the fit stops once the ratio falls below it.
    """

    k: np.ndarray           # (s,)
    H: np.ndarray           # (s,)
    H_score: np.ndarray     # (s,) the selecting score (one-step approximation for B2*)
    n_import: np.ndarray    # (s,)
    ratio: np.ndarray       # (s,) |H_k − H_{k−r}| / |H_k|, NaN for k < r
    stop_k: int
    r: int
    eps: float


def compute_step_curve(history: dict, *, r: int = 1, eps: float = 1e-3) -> StepCurve:
    """The H_k sequence of an IVM fit and its stopping-rule ratio (Zhu & Hastie 2002, §3.3).

    Parameters
    ----------
    history : dict
        A fitted :class:`~svmviz.ivm.IVMClassifier`'s ``history_`` (keys "k", "H", "H_score",
        "n_import", one entry per step).
    r : int, default 1
        The stopping rule's lag.
    eps : float, default 1e-3
        The stopping rule's threshold ε.

    Returns
    -------
    StepCurve
        The arrays of the steps, the ratio |H_k − H_{k−r}| / |H_k| and the last step.

    See Also
    --------
    plot_steps : Draws the result.
    """
    H = np.asarray(history["H"], dtype=float)
    ratio = np.full(H.size, np.nan)
    if H.size > r:
        ratio[r:] = np.abs(H[r:] - H[:-r]) / np.abs(H[r:])
    return StepCurve(np.asarray(history["k"]), H, np.asarray(history["H_score"], dtype=float),
                     np.asarray(history["n_import"]), ratio, int(H.size - 1), int(r), float(eps))


def plot_steps(s: StepCurve, *, title: str | None = None) -> go.Figure:
    """H_k against k, with the one-step scores and the stopping point (Zhu & Hastie 2002, Fig. 2, right).

    Parameters
    ----------
    s : StepCurve
        From :func:`compute_step_curve`.
    title : str, optional
        The figure's title; default "Regularized NLL Hₖ along the greedy steps".

    Returns
    -------
    plotly.graph_objects.Figure
        H_k (exact refit) as a line, the selecting scores as crosses, the stop starred; ticks on whole
        steps.

    See Also
    --------
    compute_step_curve : The values drawn here.
    """
    data = []
    text = [f"k = {k}, |S| = {n}<br>ratio = {r:.2e}" if np.isfinite(r) else f"k = {k}, |S| = {n}"
            for k, n, r in zip(s.k, s.n_import, s.ratio)]
    data.append(dict(type="scatter", x=s.k, y=s.H, mode="lines+markers", name="Hₖ (exact refit)",
                     line=dict(color="black"), text=text,
                     hovertemplate="%{text}<br>Hₖ = %{y:.4f}<extra></extra>"))
    ok = np.isfinite(s.H_score)
    if np.any(ok):
        data.append(dict(type="scatter", x=s.k[ok], y=s.H_score[ok], mode="markers", name="selecting score H(xₗ*)",
                         marker=dict(color="#ff7f0e", symbol="x", size=8),
                         hovertemplate="k = %{x}<br>score = %{y:.4f}<extra></extra>"))
    data.append(dict(type="scatter", x=[s.stop_k], y=[s.H[-1]], mode="markers",
                     name=f"stop: |S| = {s.n_import[-1]}",
                     marker=dict(color="#d62728", size=12, symbol="star"),
                     hovertemplate=f"stopping rule (r = {s.r}, ε = {s.eps:g})<br>"
                                   "k = %{x}, H = %{y:.4f}<extra></extra>"))
    layout = build.theme({}, title=title or "Regularized NLL Hₖ along the greedy steps", xtitle="step k",
                         ytitle="Hₖ (regularized negative log-likelihood)")
    # k counts steps: ticks on whole steps only (Plotly's automatic ticks put 0.5, 1.5, … on a short axis),
    # at most about ten of them
    build.merge(layout, {"xaxis": dict(tick0=0, dtick=max(1, int(np.ceil((int(np.max(s.k)) + 1) / 10))))})
    return build.figure(data, layout)


# --------------------------------------------------------------------------- multi-class (Zhu & Hastie 2002, Fig. 4)
class ClassMap(NamedTuple):
    """Class regions of a fitted multi-class IVM on a grid (Zhu & Hastie 2002, Fig. 4).

    Attributes
    ----------
    gx, gy : ndarray of shape (g,)
        The grid's abscissae and ordinates (the data's range, padded by 8 %).
    label : ndarray of int, shape (g, g)
        Index into ``classes`` of the most probable class at each grid point.
    pmax : ndarray of shape (g, g)
        Its probability.
    probs : ndarray of shape (g, g, K)
        Every class's fitted probability.
    bayes_label : ndarray of int, shape (g, g) or None
        The Bayes class index when p_true is known, else None.
    X : ndarray of shape (n, 2)
        The training points.
    y_index : ndarray of int, shape (n,)
        Their labels as indices into ``classes``.
    classes : ndarray of shape (K,)
        The class names shown (``class_names``, or the model's labels).
    import_idx : ndarray of int, shape (q,)
        Indices in ``X`` of the import points.
    test_error : float
        Misclassification rate on the test sample (nan without one).
    lam : float
        The model's λ.
    plane : MapPlane or None
        The plane of a map of more than two features: ``X`` then holds the points' map coordinates.
    X_full : ndarray of shape (n, d) or None
        With ``plane``: the training points in all d features.
    """
    gx: np.ndarray
    gy: np.ndarray
    label: np.ndarray          # (g, g) index into classes of the most probable class
    pmax: np.ndarray           # (g, g) its probability
    probs: np.ndarray          # (g, g, K)
    bayes_label: np.ndarray | None  # (g, g) Bayes class index, if p_true is known
    X: np.ndarray
    y_index: np.ndarray        # (n,) index into classes
    classes: np.ndarray        # (K,) the names shown (class_names, or the model's labels)
    import_idx: np.ndarray
    test_error: float
    lam: float
    plane: MapPlane | None = None
    X_full: np.ndarray | None = None


def compute_class_map(model, X, y, *, p_true: Callable | None = None, X_test=None, y_test=None,
                      grid_n: int = 60, class_names=None, plane: MapPlane | None = None) -> ClassMap:
    """Class regions (argmax of the fitted probabilities) of a fitted IVM on a grid (Zhu & Hastie 2002, Fig. 4).

    Parameters
    ----------
    model : IVMClassifier
        A fitted :class:`~svmviz.ivm.IVMClassifier` (any number K ≥ 2 of classes).
    X : array_like of shape (n, 2)
        The training points (they set the grid's range).
    y : array_like of shape (n,)
        Their labels (values of ``model.classes_``).
    p_true : callable, optional
        ``p_true(XX)`` -> (m, K) true class probabilities, or (m,) P(+1 | x) for two classes; draws the
        Bayes boundaries.
    X_test, y_test : array_like of shape (n_test, 2) and (n_test,), optional
        A test sample for the test error.
    grid_n : int ≥ 5, default 60
        Grid points per axis.
    class_names : sequence of str of length K, optional
        Names of the model's classes in order (e.g. a data set's original labels for codes 0 … K−1);
        default: the model's labels. A label that is a number is shown as ``class 2``
        (``svmviz.data.dataset.class_display_names``).
    plane : MapPlane, optional
        The map's plane for data of more than two features
        (:func:`svmviz.figures.plane.compute_map_plane` on ``X``): the model, fitted on all features,
        on the plane's mesh; ``X`` is then of shape (n, d) and the points are drawn at their map
        coordinates.

    Returns
    -------
    ClassMap
        The predicted class and its probability on the grid, the data and import points.

    Raises
    ------
    ValueError
        ``X`` is not 2-D, or ``class_names`` has not K names.

    See Also
    --------
    plot_class_map : Draws the result.
    compute_import_map : The two-class map of p̂.
    """
    X, gx, gy, XX, _, full = _map_grid(X, "class map", grid_n, None, 0.0, plane)
    g = gx.size
    P = model.predict_proba(XX)
    K = P.shape[1]
    label = np.argmax(P, axis=1)
    bayes = None
    if p_true is not None:
        pt = np.asarray(p_true(XX))
        if pt.ndim == 1:  # binary truth: P(+1 | x)
            pt = np.column_stack([1 - pt, pt])
        bayes = np.argmax(pt, axis=1).reshape(g, g)
    y_index = np.searchsorted(model.classes_, np.asarray(y))
    names = np.asarray(class_display_names(model.classes_ if class_names is None else class_names), dtype=object)
    if names.size != K:
        raise ValueError(f"class_names must name the {K} classes; got {names.size}.")
    return ClassMap(gx, gy, label.reshape(g, g), P.max(axis=1).reshape(g, g), P.reshape(g, g, K),
                    bayes, X, y_index, names, np.asarray(model.import_indices_),
                    error_rate(model, X_test, y_test), float(model.lam), plane, full)


def plot_class_map(m: ClassMap, *, title: str | None = None, axis_titles=("x1", "x2"), feature_names=None,
                   scale=None) -> go.Figure:
    """Class regions, data and import points for M + 1 classes (Zhu & Hastie 2002, Fig. 4).

    Parameters
    ----------
    m : ClassMap
        From :func:`compute_class_map`.
    title : str, optional
        The figure's title; default: the number of import points, the test error and λ.
    axis_titles : tuple of (str, str), default ("x1", "x2")
        Names of the two features.
    feature_names : sequence of str, optional
        The features' own names in the hover (``axis_titles`` may end in "(standardised)"); default:
        ``axis_titles``. All d names on a map plane of more than two features.
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of the two features when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only.

    Returns
    -------
    plotly.graph_objects.Figure
        The predicted class regions shaded, the Bayes boundaries dashed (when known), the data of each
        class and the import points ringed.

    See Also
    --------
    compute_class_map : The values drawn here.
    """
    K = m.classes.size
    cols = [MULTI_COLORS[i % len(MULTI_COLORS)] for i in range(K)]
    colorscale = []
    for i, c in enumerate(cols):
        colorscale += [[i / K, c], [(i + 1) / K, c]]
    data = []
    names = np.array([str(c) for c in m.classes])
    data.append(dict(type="heatmap", x=m.gx, y=m.gy, z=m.label, zmin=-0.5, zmax=K - 0.5, colorscale=colorscale,
                     opacity=0.3, showscale=False, name="class regions", showlegend=False,
                     customdata=np.asarray(m.pmax, dtype=np.float32),  # one number a cell, binary
                     text=names[m.label],
                     hovertemplate="x = (%{x:.2f}, %{y:.2f})<br>predicted: %{text}"
                                   "<br>p̂ = %{customdata:.3f}<extra></extra>"))
    if m.bayes_label is not None:
        # the Bayes boundaries as the 0.5 contour of each class indicator, one line trace
        data.append(_level_trace(m.gx, m.gy, [((m.bayes_label == i).astype(float), 0.5) for i in range(K)],
                                 "Bayes boundaries", dict(color="#9467bd", dash="dash", width=2)))
    fnames = feature_names or axis_titles
    for i in range(K):
        sel = np.flatnonzero(m.y_index == i)
        data.append(_points_trace(m.X[sel], [f"point {j}, {names[i]}" for j in sel], fnames, scale,
                                  name=names[i], marker=dict(color=cols[i], size=6, opacity=0.8),
                                  full=None if m.X_full is None else m.X_full[sel]))
    imp = m.import_idx
    data.append(_import_points_trace(m.X, imp, [f"import point #{k + 1} (point {j}), {names[m.y_index[j]]}"
                                                for k, j in enumerate(imp)], fnames, scale, m.X_full))
    te = "" if np.isnan(m.test_error) else f"<br>test error {m.test_error:.3f}"  # a map gets half a row
    layout = build.theme({}, title=title or f"Multi-class IVM: {K} classes, {imp.size} import points{te}"
                                    f"<br><sup>λ = {m.lam:.3g}</sup>", xtitle=axis_titles[0], ytitle=axis_titles[1],
                height=520)
    return build.figure(data, build.merge(build.merge(layout, {**LEGEND_BELOW, "height": 600}),
                                          {"margin": {"t": build.title_top(layout["title"]["text"])}}))
