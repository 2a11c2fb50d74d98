"""The data editor's chart: points, click targets, and the fitted SVM's boundary, margins and support vectors.

:func:`compute_edit_view` fits :class:`svmviz.svm.SVMClassifier` (the standard SVM of Wahba, Lin, Lee &
Zhang 2001, eq. 1) to the edited points and evaluates its decision function f on a mesh (tested without
pixels); :func:`plot_edit_view` draws the points, f = 0 (the boundary), f = ±1 (the margins), the support
vectors, and a dense grid of nearly transparent click targets — clicking one adds a point there (see
:mod:`svmviz.ui.edit` for why the clicks go through Plotly selection events).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from . import build
from .theme import CLASS_COLORS

#: click targets per axis: their spacing must stay under Plotly's hover distance (20 px) on a chart
#: ~700 px wide, so a click anywhere in the view lands on one (60 → ~11 px apart)
TARGETS_PER_AXIS = 60
#: mesh of the decision function per axis (the boundary and margins are its contour lines)
MESH_PER_AXIS = 90
#: the view extends the data's box by this share of its size on every side (room to add points)
VIEW_PAD = 0.15


class EditView(NamedTuple):
    """What the point editor draws: the points, the fitted SVM on a mesh and the click targets.

    ``fitted`` (a property) is False when a class has fewer than 2 points: then there is no fit.

    Attributes
    ----------
    X : ndarray of shape (n, 2)
        The edited points.
    y : ndarray of shape (n,)
        Their labels ±1.
    xs, ys : ndarray of shape (mesh,)
        Abscissae and ordinates of the mesh over the view box.
    f : ndarray of shape (mesh, mesh) or None
        Decision function of the standard SVM, ``f[j, i]`` at ``(xs[i], ys[j])``; None when not fitted.
    support : ndarray of bool, shape (n,)
        α_i > 0 (all False when not fitted).
    targets : ndarray of shape (m, 2)
        The click targets, m ≤ targets_per_axis squared: snapped positions of a new point.
    train_error : float
        Share of points with y f(x) ≤ 0 (nan when not fitted).
    lam : float
        λ of Wahba et al. 2001, eq. 1.
    sigma : float
        The Gaussian kernel's width σ.
    """

    X: np.ndarray  # (n, 2) the edited points
    y: np.ndarray  # (n,) ±1
    xs: np.ndarray  # (MESH,) mesh abscissae
    ys: np.ndarray  # (MESH,) mesh ordinates
    f: np.ndarray | None  # (MESH, MESH) decision function, f[j, i] at (xs[i], ys[j]); None if not fitted
    support: np.ndarray  # (n,) bool, α_i > 0 (all False if not fitted)
    targets: np.ndarray  # (m, 2) click targets, m ≤ TARGETS² (snapped positions of new points)
    train_error: float  # share of points with y f(x) ≤ 0 (nan if not fitted)
    lam: float
    sigma: float

    @property
    def fitted(self) -> bool:
        return self.f is not None


def view_box(X, pad: float = VIEW_PAD) -> tuple[np.ndarray, np.ndarray]:
    """The (lo, hi) corners of the editing view around the points, padded on every side.

    Parameters
    ----------
    X : array_like of shape (n, 2)
        The points.
    pad : float, default 0.15
        Padding as a fraction of the points' span on each axis (a zero span counts as 1).

    Returns
    -------
    lo, hi : ndarray of shape (2,)
        Lower-left and upper-right corners.

    See Also
    --------
    compute_edit_view : Fits and evaluates the SVM over this box.
    """
    X = np.asarray(X, dtype=np.float64)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return lo - pad * span, hi + pad * span


def target_grid(lo, hi, per_axis: int = TARGETS_PER_AXIS) -> np.ndarray:
    """The click targets: a ``per_axis`` × ``per_axis`` grid over the box [lo, hi].

    Parameters
    ----------
    lo, hi : array_like of shape (2,)
        Lower-left and upper-right corners of the box.
    per_axis : int, default 60
        Targets per axis.

    Returns
    -------
    ndarray of shape (per_axis², 2)
        The targets, x1 varying fastest (row j of the grid holds x2 = j-th ordinate).

    See Also
    --------
    free_targets : The same grid less the targets next to a data point.
    """
    gx = np.linspace(lo[0], hi[0], per_axis)
    gy = np.linspace(lo[1], hi[1], per_axis)
    return np.c_[np.tile(gx, per_axis), np.repeat(gy, per_axis)]


def free_targets(lo, hi, X, per_axis: int = TARGETS_PER_AXIS) -> np.ndarray:
    """The click targets of :func:`target_grid` less those within one grid cell of a data point.

    Plotly's "closest" hover (which a click selects) measures a marker's distance as
    max(d − r, 1 − 3/r) pixels with r = max(3, marker radius): a target 3 px from the cursor scores 0,
    below a data point (r = 4.5) clicked dead centre (1/3). Without targets near the points, a click on
    a point selects the point.

    Parameters
    ----------
    lo, hi : array_like of shape (2,)
        Lower-left and upper-right corners of the box.
    X : array_like of shape (n, 2)
        The data points.
    per_axis : int, default 60
        Targets per axis of the full grid.

    Returns
    -------
    ndarray of shape (m, 2)
        The targets kept, m ≤ per_axis squared, in :func:`target_grid`'s order.
    """
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64).reshape(-1, 2)
    keep = np.ones((per_axis, per_axis), bool)  # [row j (x2), column i (x1)], as target_grid orders them
    if X.shape[0]:
        u = (X - lo) / ((hi - lo) / (per_axis - 1))  # fractional grid indices of the points
        for fi in (np.floor, np.ceil):
            for fj in (np.floor, np.ceil):
                i, j = fi(u[:, 0]).astype(np.int64), fj(u[:, 1]).astype(np.int64)
                ok = (i >= 0) & (i < per_axis) & (j >= 0) & (j < per_axis)
                keep[j[ok], i[ok]] = False
    return target_grid(lo, hi, per_axis)[keep.ravel()]


def compute_edit_view(X, y, *, lam: float, sigma: float, lo, hi, mesh: int = MESH_PER_AXIS,
                      targets_per_axis: int = TARGETS_PER_AXIS) -> EditView:
    """Fit the standard SVM at (λ, σ) to the points and evaluate it on a mesh over the box [lo, hi].

    Parameters
    ----------
    X : array_like of shape (n, 2)
        The points.
    y : array_like of shape (n,)
        Their labels ±1.
    lam, sigma : float
        λ of Wahba et al. 2001, eq. 1 (scikit-learn's C = 1/(2nλ)) and the Gaussian kernel's width.
    lo, hi : array_like of shape (2,)
        Corners of the view (e.g. from :func:`view_box`).
    mesh : int, default 90
        Mesh points per axis on which f is evaluated.
    targets_per_axis : int, default 60
        Click targets per axis (:func:`free_targets`).

    Returns
    -------
    EditView
        Not fitted (``f`` None) when a class has fewer than 2 points.

    Raises
    ------
    ValueError
        ``X`` is not of shape (n, 2) or ``y`` not of shape (n,).

    See Also
    --------
    plot_edit_view : Draws the result.
    svmviz.svm.SVMClassifier : The estimator fitted here.
    """
    from svmviz.svm import SVMClassifier

    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"the editor needs points of shape (n, 2) and n labels; got {X.shape} and {y.shape}.")
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    xs, ys = np.linspace(lo[0], hi[0], mesh), np.linspace(lo[1], hi[1], mesh)
    targets = free_targets(lo, hi, X, targets_per_axis)
    if min(int(np.sum(y > 0)), int(np.sum(y < 0))) < 2:
        return EditView(X, y, xs, ys, None, np.zeros(X.shape[0], bool), targets, float("nan"), lam, sigma)
    clf = SVMClassifier(lam=lam, sigma=sigma).fit(X, y)
    grid = np.c_[np.tile(xs, mesh), np.repeat(ys, mesh)]
    f = clf.decision_function(grid).reshape(mesh, mesh)
    support = np.zeros(X.shape[0], bool)
    support[clf.support_] = True
    err = float(np.mean(y * clf.train_decision_ <= 0))
    return EditView(X, y, xs, ys, f, support, targets, err, lam, sigma)


def class_names(classes=("-1", "1")) -> tuple[str, str]:
    """Names of the classes −1 and +1 with the data set's own class names.

    Parameters
    ----------
    classes : pair of str or number, default ("-1", "1")
        The data set's names of the classes −1 and +1.

    Returns
    -------
    tuple of (str, str)
        ("class −1 (name)", "class +1 (name)"); a name that only repeats ±1 is left out ("class −1").
    """
    out = []
    for sign, c in (("−1", classes[0]), ("+1", classes[1])):
        plain = str(c).replace("−", "-").lstrip("+")
        try:
            same = float(plain) == float(sign.replace("−", "-"))
        except ValueError:
            same = False
        out.append(f"class {sign}" if same else f"class {sign} ({c})")
    return out[0], out[1]


def plot_edit_view(v: EditView, *, mode: str = "pos", feature_names=("x1", "x2"), classes=("-1", "1"),
                   height: int = 520) -> go.Figure:
    """The point editor's figure: the data, the SVM's boundary f = 0 and margins f = ±1, and click targets.

    Trace 0 is the click-target grid (customdata (x1, x2)); the data points' customdata is their row
    index in ``v.X`` — the app's editor reads both from the selection. Support vectors are ringed.

    Parameters
    ----------
    v : EditView
        From :func:`compute_edit_view`.
    mode : {"pos", "neg", "remove"}, default "pos"
        What a click does (add a point of class +1, of class −1, or remove a point); said in the
        targets' hover text.
    feature_names : pair of str, default ("x1", "x2")
        Axis titles.
    classes : pair of str, default ("-1", "1")
        The data set's names of the classes −1 and +1 (:func:`class_names`).
    height : int, default 520
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        Equal-scaled axes over the view box, click-and-select enabled.

    See Also
    --------
    compute_edit_view : The values drawn here.
    """
    fx, fy = feature_names[0], feature_names[1]
    neg_name, pos_name = class_names(classes)
    what = {"pos": f"add a point of {pos_name}", "neg": f"add a point of {neg_name}",
            "remove": "nothing here (remove mode: click a point)"}[mode]
    data = [dict(
        type="scatter", x=v.targets[:, 0], y=v.targets[:, 1], mode="markers", name="click targets",
        showlegend=False, customdata=v.targets,
        marker=dict(size=6, color="rgba(120,120,120,0.02)", line=dict(width=0)),
        selected=dict(marker=dict(color="rgba(120,120,120,0.02)")),
        unselected=dict(marker=dict(color="rgba(120,120,120,0.02)", opacity=1.0)),
        hovertemplate=f"click: {what}<br>{fx} = %{{x:.2f}}, {fy} = %{{y:.2f}}<extra></extra>",
    )]
    if v.fitted:
        # imported here: figures.tuning brings in svmviz.tuning and scikit-learn, which the pages with
        # the editor do not otherwise need before their first chart
        from .tuning import zero_line_trace

        data.append(zero_line_trace(v.xs, v.ys, v.f, 0.0, "boundary f = 0", dict(color="black", dash="solid"),
                                    width=2.5))
        for lev in (-1.0, 1.0):
            data.append(zero_line_trace(v.xs, v.ys, v.f, lev, "margins f = ±1", dict(color="black", dash="dot"),
                                        width=1.2, legend=lev > 0))
    idx = np.arange(v.X.shape[0])
    for cls, name in ((-1.0, neg_name), (1.0, pos_name)):
        m = v.y == cls
        color = CLASS_COLORS[int(cls)]
        data.append(dict(
            type="scatter", x=v.X[m, 0], y=v.X[m, 1], mode="markers", name=name, customdata=idx[m],
            marker=dict(color=color, size=9, symbol="circle" if cls > 0 else "diamond",
                        line=dict(width=1, color="white")),
            selected=dict(marker=dict(color=color)), unselected=dict(marker=dict(opacity=1.0)),
            hovertemplate=f"{name}, point %{{customdata}}<br>{fx} = %{{x:.3f}}, {fy} = %{{y:.3f}}"
                          "<br>click to remove<extra></extra>",
        ))
    if v.support.any():
        data.append(dict(
            type="scatter", x=v.X[v.support, 0], y=v.X[v.support, 1], mode="markers",
            name="support vectors (α > 0)",
            marker=dict(size=15, color="rgba(0,0,0,0)", line=dict(width=1.4, color="black")), hoverinfo="skip",
        ))
    title = (f"Click to edit — SVM at log10 λ = {np.log10(v.lam):.2f}, σ = {v.sigma:g}" if v.fitted
             else "Click to edit — add points: each class needs at least 2")
    layout = build.theme({}, title=title, xtitle=fx, ytitle=fy, height=height)
    # constrain="domain": with equal scales Plotly otherwise widens one axis's range to fill the chart,
    # and a click in that margin (beyond the click targets) would do nothing; shrinking the plot area
    # instead keeps the plotting area exactly the targets' box, so every click in it lands on one
    build.merge(layout, {
        "xaxis": dict(range=[float(v.xs[0]), float(v.xs[-1])], constrain="domain"),
        "yaxis": dict(range=[float(v.ys[0]), float(v.ys[-1])], scaleanchor="x", scaleratio=1, constrain="domain"),
        "hovermode": "closest", "hoverdistance": 20, "clickmode": "event+select", "dragmode": "zoom",
        "legend": dict(orientation="h", yanchor="top", y=-0.14, xanchor="left", x=0.0),
        "margin": dict(b=90)})
    return build.figure(data, layout)
