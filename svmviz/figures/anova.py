"""Figures of the "Kernels & variable selection" page (Wahba 1998, §1.1 eqs. 1.12–1.13 and §2).

``compute_*`` evaluate an already-fitted SS-ANOVA expansion (:mod:`svmviz.anova`) or criteria
curves and return NamedTuples of arrays; ``plot_*`` draw them. Nothing here fits a model.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from .. import anova
from ..tuning import criterion_label
from . import build
from .labels import point_hover
from .theme import CLASS_COLORS

#: one colour per kernel of the comparison (in the order given)
KERNEL_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2")
#: the criteria drawn along λ, in panel order; MISCLASS (the truth) only when it is known
CURVE_KEYS = ("gacv", "xa", "loo", "misclass")
#: the criteria chart's bottom margin (pixels): the last row's x tick labels and axis title, then the
#: kernels' legend on the figure's bottom edge in up to two rows (three long kernel names wrap at 1024 px)
CURVES_BOTTOM = 120
#: the page's charts start with the margins Plotly's automargin widens them to at the page's default
#: (940 px wide, in chromium: the y tick labels and titles, the legend below, the colour bars), a little
#: more: Plotly then draws each chart once instead of drawing it again after measuring (its
#: doAutoMargin redraw). Wider labels still widen a margin (automargin stays on), at the cost of that redraw.
MARGINS = {"curves": dict(l=80, b=CURVES_BOTTOM), "importances": dict(l=80), "main": dict(l=75), "interactions": dict(l=85, r=100)}


def _margins(layout: dict, which: str) -> dict:
    return build.merge(layout, {"margin": MARGINS[which]})


def _check_grid_n(grid_n, lo=5):
    if isinstance(grid_n, bool) or int(grid_n) != grid_n or grid_n < lo:
        raise ValueError(f"grid_n must be an integer ≥ {lo}; got {grid_n!r}.")
    return int(grid_n)


def _coordinate_grams(exp: anova.AnovaExpansion, Xg) -> np.ndarray:
    """R_α(Xg[j, α], x_iα) of every coordinate α, grid row j and expansion point x_i, shape (d, g, n)
    (:meth:`svmviz.kernels.SSANOVAKernel.coordinate_grams`). Its callers sum over i with numpy's own
    loops (``einsum``), not BLAS: the same bits whatever the BLAS thread count."""
    return exp.kernel.coordinate_grams(np.ascontiguousarray(Xg, dtype=np.float64), exp.basis)


def _axis_grid(exp: anova.AnovaExpansion, a: int, grid_n: int) -> np.ndarray:
    """grid_n points over the training range of coordinate a (the kernel's [0, 1] map)."""
    k = exp.kernel
    return k.lo_[a] + k.span_[a] * np.linspace(0.0, 1.0, grid_n)


# ----------------------------------------------------------------------------- main effects
class MainEffects(NamedTuple):
    """Main effects f_α(x_α) on a grid over each variable's training range.

    Attributes
    ----------
    names : list of str, length d
    grids : ndarray of shape (d, g)
        Grid of each variable, in the data's units.
    values : ndarray of shape (d, g)
        f_α on the grid (θ_α Σ_i c_i R_α(x_iα, t)).
    importance : ndarray of shape (d,)
        Importance of each main effect (θ_α c'R_α c, or its root mean square over the data).
    X : ndarray of shape (n, d)
        The data points for the rug.
    y : ndarray of shape (n,)
        Their labels ±1.
    truth : ndarray of shape (d, g) or None
        The true main effects on the same grids (known structure only).
    """

    names: list
    grids: np.ndarray
    values: np.ndarray
    importance: np.ndarray
    X: np.ndarray
    y: np.ndarray
    truth: np.ndarray | None = None


def compute_main_effects(exp: anova.AnovaExpansion, X, y, grid_n: int = 101, truth=None,
                         measure: str = "norm") -> MainEffects:
    """Main effect curves of every variable, with the data for the rug.

    Parameters
    ----------
    exp : AnovaExpansion
    X : array_like of shape (n, d)
        Training points (the rug).
    y : array_like of shape (n,)
        Their labels ±1.
    grid_n : int ≥ 5, default 101
    truth : callable, optional
        ``truth(a, t) -> (g,)``: the true main effect of coordinate ``a`` at the grid ``t`` (e.g. from
        :func:`svmviz.data.anova_structure_terms`), drawn dashed beside the fit.
    measure : {"norm", "rms"}, default "norm"
        The importance that orders the panels: θ_α c'R_α c, or the root mean square of f_α over X.

    Returns
    -------
    MainEffects

    See Also
    --------
    plot_main_effects : Draws the result.
    compute_interaction : The two-factor terms.
    """
    g = _check_grid_n(grid_n)
    k = exp.kernel
    d = k.n_features_in_
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != d:
        raise ValueError(f"X must have {d} columns.")
    grids = np.stack([_axis_grid(exp, a, g) for a in range(d)])
    # f_α(t) = w_α Σ_i c_i R_α(t, x_iα) depends on coordinate α alone, so row j of one g × d query
    # carries every variable's j-th grid point and R_α's gram of column α gives f_α on its grid:
    # d·g·n one-dimensional RK values, where decomposing d·g full rows takes d·g·n·(every component)
    R = _coordinate_grams(exp, grids.T)
    main_col = {c[0]: i for i, c in enumerate(k.components_) if len(c) == 1}
    values = np.stack([k.weights_[main_col[a]] * np.einsum("jn,n->j", R[a], exp.coef) for a in range(d)])
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {sorted(MEASURES)}; got {measure!r}.")
    imp = anova.importances(exp, X=X if measure == "rms" else None)
    imp_vals = getattr(imp, MEASURES[measure][0])
    true_vals = None if truth is None else np.stack([np.asarray(truth(a, grids[a]), dtype=np.float64)
                                                     for a in range(d)])
    return MainEffects(list(exp.feature_names), grids, values, imp_vals[[main_col[a] for a in range(d)]],
                       X, np.asarray(y, dtype=np.float64), true_vals)


def _rug(xs, top: float, below: float) -> tuple[np.ndarray, np.ndarray]:
    """A rug as ONE unbroken line: at every x (sorted) a tick from ``below`` up to ``top`` and back,
    the ticks joined along ``below``. With ``below`` under the y axis's range the joins (and the
    ticks' lower part) are clipped away by the plot area: what shows is a tick from the panel's
    bottom edge up to ``top`` at every x.

    One SVG path per class and panel instead of one marker node per point (6 panels × 200 points
    would be tens of thousands of DOM mutations a redraw), and unbroken: the same ticks as separate
    segments (NaN between them) cost Plotly about as much to draw as the rest of the chart.
    """
    xs = np.sort(np.asarray(xs, dtype=np.float64))
    rx = np.repeat(xs, 3)
    ry = np.tile(np.array([below, top, below]), xs.size)
    return rx, ry


def plot_main_effects(me: MainEffects, *, columns: int = 2, max_panels: int = 12,
                      ylabel: str = "f(α) (units of f)", class_names=("class −1", "class +1"),
                      standardised: bool = False, scale=None) -> go.Figure:
    """One panel per main effect f_α(x_α), most important first (Wahba 1998, §1.1 eq. 1.12).

    Each panel draws the fitted main effect as a black line (and the true effect dashed green when
    ``me.truth`` is known) over the variable's training range, with the data's rug of the two classes
    along its bottom edge. Panel titles give each effect's importance.

    Parameters
    ----------
    me : MainEffects
        The curves, from :func:`compute_main_effects`.
    columns : int, default 2
        Panels per row (two leave each panel's two-line titles room at a projector's 1024 px).
    max_panels : int, default 12
        At most this many panels: the most important main effects.
    ylabel : str, default "f(α) (units of f)"
        Title of the y axes (first column).
    class_names : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1 in the rug's legend.
    standardised : bool, default False
        Whether the variables were standardised; says so in the x axis titles.
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of each variable when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only.

    Returns
    -------
    plotly.graph_objects.Figure
        A grid of ``ceil(min(d, max_panels) / columns)`` rows of panels, legend below.

    See Also
    --------
    compute_main_effects : The curves drawn here.
    plot_interaction : The two-factor terms of the same expansion.
    """
    order = np.argsort(-me.importance, kind="stable")[:max_panels]
    cols = max(1, min(columns, order.size))
    rows = int(np.ceil(order.size / cols))
    titles = [f"{me.names[a]}<br>(importance {me.importance[a]:.3g})" for a in order]
    # between two rows: the upper x tick labels and two-line axis titles, the lower two-line panel titles
    panel, gap = 220, 150
    plot_height = rows * panel + (rows - 1) * gap
    grid = build.subplot_grid(rows, cols, titles, horizontal_spacing=0.1,
                             vertical_spacing=round(gap / plot_height, 4) if rows > 1 else 0.1)
    data = []
    both = me.values[order] if me.truth is None else np.concatenate([me.values[order], me.truth[order]])
    lo = float(np.min(both)) if order.size else 0.0
    hi = float(np.max(both)) if order.size else 1.0
    pad = 0.08 * max(hi - lo, 1e-12)
    rug_y = lo - pad
    y_range = [rug_y - pad, hi + pad]  # the rug's ticks rise from the bottom edge to rug_y + 0.45·pad
    below = y_range[0] - (y_range[1] - y_range[0])  # under the range: clipped
    scale = _check_scale(scale, len(me.names))
    for p, a in enumerate(order):
        r, c = p // cols + 1, p % cols + 1
        at = grid.trace_axes(r, c)
        # x in the data's units beside the standardised value when ``scale`` is given
        sa = None if scale is None else (scale[a],)
        lines, orig = point_hover(me.grids[a], (me.names[a],), sa)
        data.append(dict(type="scatter", x=me.grids[a], y=me.values[a], mode="lines",
                         line=dict(color="black", width=2), name="main effect f(α)", legendgroup="effect",
                         showlegend=p == 0, customdata=orig, hovertemplate=f"{lines}<br>f = %{{y:.3g}}<extra></extra>",
                         **at))
        if me.truth is not None:
            data.append(dict(type="scatter", x=me.grids[a], y=me.truth[a], mode="lines",
                             line=dict(color="#2ca02c", width=2, dash="dash"), name="true main effect",
                             legendgroup="truth", showlegend=p == 0,
                             hovertemplate=f"true effect of {me.names[a]} = %{{y:.3g}}<extra></extra>", **at))
        for cls, label in ((-1, class_names[0]), (1, class_names[1])):
            rx, ry = _rug(me.X[me.y == cls, a], rug_y + 0.45 * pad, below)
            lines, orig = point_hover(rx, (me.names[a],), sa)
            data.append(dict(type="scatter", x=rx, y=ry, mode="lines", line=dict(color=CLASS_COLORS[cls], width=1),
                             name=f"data ({label})", legendgroup=label, showlegend=p == 0, customdata=orig,
                             hovertemplate=f"{lines} ({label})<extra></extra>", **at))
        g0, g1 = float(me.grids[a][0]), float(me.grids[a][-1])
        build.merge(grid.xaxis(r, c), dict(title=dict(text=me.names[a] + ("<br>(standardised)" if standardised else "")),
                                          range=[g0 - 0.03 * (g1 - g0), g1 + 0.03 * (g1 - g0)]))
        grid.yaxis(r, c)["range"] = list(y_range)
    for r in range(1, rows + 1):
        build.merge(grid.yaxis(r, 1), dict(title=dict(text=ylabel)))
    title = "Main effects f(α) — most important first; ticks: the data"
    top = build.title_top(title) + 40  # the figure's title, then the first row's two-line panel titles
    layout = build.theme(grid.layout, title=title, height=plot_height + top + 150)
    # the legend at the figure's bottom edge (container coordinates), under the last row's axis
    # titles: a fraction of the plot's height below it ran over a long title ("flipper_length_mm
    # (standardised)")
    build.merge(layout, {"legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", x=0.0,
                                       xanchor="left"), "margin": dict(t=top, b=150)})
    return build.figure(data, _margins(layout, "main"))


# ----------------------------------------------------------------------------- interactions
class Interaction(NamedTuple):
    """A two-factor interaction f_αβ(x_α, x_β) on a grid.

    Attributes
    ----------
    name : str
    a, b : int
        The two coordinates.
    gx, gy : ndarray of shape (g,)
        Grids of x_a (horizontal) and x_b (vertical), data units.
    Z : ndarray of shape (g, g)
        ``Z[i, j]`` = f_ab(gx[j], gy[i]).
    importance : float
        θ_ab c'R_ab c.
    X : ndarray of shape (n, 2)
        The data's (x_a, x_b).
    y : ndarray of shape (n,)
    names : tuple of str
        (name of x_a, name of x_b).
    """

    name: str
    a: int
    b: int
    gx: np.ndarray
    gy: np.ndarray
    Z: np.ndarray
    importance: float
    X: np.ndarray
    y: np.ndarray
    names: tuple


def compute_interaction(exp: anova.AnovaExpansion, a: int, b: int, X, y, grid_n: int = 41) -> Interaction:
    """The interaction f_αβ(x_a, x_b) of coordinates ``a`` and ``b`` on a grid (Wahba 1998, §1.1 eq. 1.12).

    The other coordinates do not enter an interaction term; they are held at their training minimum.

    Parameters
    ----------
    exp : AnovaExpansion
        A fitted SS-ANOVA expansion (:func:`svmviz.anova.expansion`) whose kernel has the interaction
        term of ``a`` and ``b`` (``order="two-way"``).
    a, b : int
        The two coordinates, 0-based, ``a != b``; ``a`` is drawn horizontally.
    X : array_like of shape (n, d)
        The data points drawn on top of the map.
    y : array_like of shape (n,)
        Their labels ±1.
    grid_n : int ≥ 5, default 41
        Grid points per axis (``grid_n × grid_n`` evaluations).

    Returns
    -------
    Interaction
        The grids ``gx``, ``gy``, the values ``Z[i, j] = f_ab(gx[j], gy[i])``, the term's importance
        θ_ab c'R_ab c and the data's two columns.

    Raises
    ------
    ValueError
        The kernel has no such interaction (an additive kernel has none).

    See Also
    --------
    plot_interaction : Draws the result.
    top_interactions : The pairs worth drawing.
    """
    g = _check_grid_n(grid_n)
    k = exp.kernel
    key = (min(a, b), max(a, b))
    cols = [i for i, c in enumerate(k.components_) if tuple(c) == key]
    if a == b or not cols:
        raise ValueError(f"the kernel has no interaction between {exp.feature_names[a]} and {exp.feature_names[b]} "
                         "(an additive kernel has none; use order='two-way').")
    gx, gy = _axis_grid(exp, a, g), _axis_grid(exp, b, g)
    # f_ab(s, t) = w_ab Σ_i c_i R_a(s, x_ia) R_b(t, x_ib) is a product over the two coordinates, so the
    # g × g map is one matrix product of the two one-dimensional grams: Z = w_ab (R_b · diag c) R_aᵀ
    Xg = np.tile(k.lo_, (g, 1))
    Xg[:, a], Xg[:, b] = gx, gy
    R = _coordinate_grams(exp, Xg)
    Z = k.weights_[cols[0]] * np.einsum("in,jn->ij", R[b] * exp.coef, R[a])
    imp = anova.importances(exp).values[cols[0]]
    X = np.asarray(X, dtype=np.float64)
    name = k.component_names(exp.feature_names)[cols[0]]
    return Interaction(name, a, b, gx, gy, Z, float(imp), X[:, [a, b]],
                       np.asarray(y, dtype=np.float64), (exp.feature_names[a], exp.feature_names[b]))


def top_interactions(imp: anova.Importances, count: int = 3) -> list:
    """The ``count`` most important two-factor interactions (Wahba 1998, §2).

    Parameters
    ----------
    imp : Importances
        Component importances, from :func:`svmviz.anova.importances`.
    count : int, default 3
        How many pairs to return at most.

    Returns
    -------
    list of tuple of (int, int)
        The (a, b) coordinate pairs, most important first; empty for an additive kernel.

    See Also
    --------
    compute_interaction : Evaluates one of these pairs on a grid.
    """
    pairs = [(v, c) for v, c in zip(imp.values, imp.components) if len(c) == 2]
    pairs.sort(key=lambda t: -t[0])
    return [tuple(c) for _, c in pairs[:count]]


def _check_scale(scale, d):
    # scale: None, or (mean, sd) of each of the d features (svmviz.figures.labels.feature_scale)
    if scale is None:
        return None
    scale = tuple(scale)
    if len(scale) != d:
        raise ValueError(f"scale must give (mean, sd) for each of the {d} features; got {len(scale)}.")
    return scale


#: at most this many contour levels on an interaction map, each one a tick of its colour bar
INTERACTION_LEVELS = 11
#: the round steps between two contour levels, times a power of ten
_ROUND_STEPS = (0.1, 0.2, 0.25, 0.5, 1.0, 2.0, 2.5, 5.0, 10.0)


def interaction_levels(lim: float) -> tuple[float, int]:
    """The contour levels of a map coloured over [−lim, lim]: ``k·step`` for ``k = −m … m``.

    ``step`` is the smallest round step (1, 2, 2.5 or 5 times a power of ten) that leaves at most
    ``INTERACTION_LEVELS`` levels strictly inside (−lim, lim); 0 is always a level (where the
    interaction changes sign).

    Parameters
    ----------
    lim : float > 0
        The largest |f_αβ| on the map (its colour scale runs over [−lim, lim]).

    Returns
    -------
    step : float
        The distance between two levels.
    m : int ≥ 0
        The levels are ``−m·step, …, 0, …, m·step``.

    Raises
    ------
    ValueError
        ``lim`` is not a finite positive number.

    Examples
    --------
    >>> interaction_levels(5.3)
    (1.0, 5)
    >>> interaction_levels(0.75)
    (0.2, 3)
    """
    lim = float(lim)
    if not np.isfinite(lim) or lim <= 0.0:
        raise ValueError(f"lim must be a finite positive number; got {lim!r}.")
    decade = 10.0 ** np.floor(np.log10(lim))
    for r in _ROUND_STEPS:  # lim / decade lies in [1, 10): the last step, 10 × decade, leaves 0 alone
        step = float(f"{r * decade:.12g}")
        m = int(np.ceil(lim / step)) - 1  # the largest m with m·step < lim
        if 2 * m + 1 <= INTERACTION_LEVELS:
            return step, m
    raise AssertionError("unreachable: a step of 10 × decade leaves one level")


def _interaction_traces(it: Interaction, class_names=("class −1", "class +1"), scale=None) -> list:
    """The filled contours of f_αβ (colours symmetric about 0, at the round levels of
    :func:`interaction_levels`, each level a tick of the colour bar; the hover gives f_αβ at the
    pointer) and the data's two classes on top (trace dictionaries, :mod:`svmviz.figures.build`);
    ``class_names`` name the classes −1 and +1. The levels are read off the colour bar, not written
    on the lines: placing labels along every contour line is most of the browser's work for the map."""
    if scale is not None and len(scale) <= max(it.a, it.b):
        raise ValueError(f"scale must give (mean, sd) for every feature (at least {max(it.a, it.b) + 1}); "
                         f"got {len(scale)}.")
    lim = float(np.max(np.abs(it.Z))) or 1.0
    step, top = interaction_levels(lim)
    traces = [dict(type="contour", x=it.gx, y=it.gy, z=it.Z, colorscale=build.colorscale("RdBu"), reversescale=True, zmin=-lim,
                   zmax=lim, autocontour=False, contours=dict(start=-top * step, end=top * step, size=step, showlabels=False),
                   colorbar=dict(title=dict(text="f(α, β)"), tickmode="linear", tick0=0.0, dtick=step), name=it.name,
                   hovertemplate=(f"{it.names[0]} = %{{x:.3g}}<br>{it.names[1]} = %{{y:.3g}}"
                                  "<br>f(α, β) = %{z:.3g}<extra></extra>"))]
    for cls, label in ((-1, class_names[0]), (1, class_names[1])):
        m = it.y == cls
        # the data's units beside the standardised values when ``scale`` (every feature's) is given
        lines, orig = point_hover(it.X[m], it.names, None if scale is None else (scale[it.a], scale[it.b]))
        traces.append(dict(type="scatter", x=it.X[m, 0], y=it.X[m, 1], mode="markers", name=label,
                           marker=dict(color=CLASS_COLORS[cls], size=5, line=dict(width=0.5, color="white")),
                           customdata=orig, hovertemplate=f"{lines}<br>{label}<extra></extra>"))
    return traces


#: height of one interaction panel and the gap between two (pixels): the upper panel's x tick labels
#: and axis title, then the lower panel's two-line title
INTERACTION_PANEL, INTERACTION_GAP = 380, 130


def _interaction_title(it: Interaction) -> str:
    # two lines: the pair of long column names and the importance
    return f"Interaction {it.name}<br>(importance {it.importance:.3g})"


def plot_interaction(it: Interaction, class_names=("class −1", "class +1"), scale=None) -> go.Figure:
    """Contour map of the interaction f_αβ with the data points on top.

    Parameters
    ----------
    it : Interaction
        From :func:`compute_interaction`.
    class_names : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1 in the legend.
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of each plotted variable when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only.

    Returns
    -------
    plotly.graph_objects.Figure
        The contours of f_αβ over (x_a, x_b) with its colour bar, the points of the two classes, the
        term's importance in the title.

    See Also
    --------
    compute_interaction : The values drawn here.
    plot_interaction_panels : Several interactions side by side in one figure.
    """
    return build.figure(_interaction_traces(it, class_names, scale), build.theme({}, title=_interaction_title(it), xtitle=it.names[0],
                                                           ytitle=it.names[1], height=430))


def plot_interaction_panels(its, class_names=("class −1", "class +1"), standardised: bool = False,
                            scale=None) -> go.Figure:
    """Several interactions as the panels of ONE figure, one above the other.

    Each panel is :func:`plot_interaction`'s traces (its own colour bar beside it, its own axis
    titles); one panel per row, so a colour bar's tick labels never meet another panel's y axis
    and the two-line titles have the chart's full width; the legend of the two classes is shared (an entry toggles the class in every panel). One
    chart instead of one per interaction: the browser draws one Plotly figure, legend and tool bar.

    Parameters
    ----------
    its : sequence of Interaction
        One panel each, left to right (from :func:`compute_interaction`); at least one.
    class_names : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1 in the legend.
    standardised : bool, default False
        Whether the variables were standardised; says so in the axis titles.
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of each plotted variable when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only.

    Returns
    -------
    plotly.graph_objects.Figure
        One column of ``len(its)`` contour panels.

    Raises
    ------
    ValueError
        ``its`` is empty.

    See Also
    --------
    plot_interaction : One interaction alone.
    """
    its = list(its)
    if not its:
        raise ValueError("plot_interaction_panels needs at least one interaction.")
    rows = len(its)
    plot_height = rows * INTERACTION_PANEL + (rows - 1) * INTERACTION_GAP
    grid = build.subplot_grid(rows, 1, [_interaction_title(it) for it in its],
                             vertical_spacing=round(INTERACTION_GAP / plot_height, 4) if rows > 1 else 0.1)
    data = []
    for r, it in enumerate(its, start=1):
        xdom, ydom = grid.xaxis(r, 1)["domain"], grid.yaxis(r, 1)["domain"]
        for tr in _interaction_traces(it, class_names, scale):
            if tr["type"] == "contour":
                build.merge(tr["colorbar"], dict(x=xdom[1] + 0.01, xanchor="left", y=(ydom[0] + ydom[1]) / 2,
                                                 yanchor="middle", len=ydom[1] - ydom[0], lenmode="fraction"))
            else:
                tr["legendgroup"] = tr["name"]
                tr["showlegend"] = r == 1
            data.append(dict(tr, **grid.trace_axes(r, 1)))
        unit = " (standardised)" if standardised else ""
        grid.xaxis(r, 1)["title"] = dict(text=it.names[0] + unit)
        grid.yaxis(r, 1)["title"] = dict(text=it.names[1] + unit)
    title = "Two-factor interactions f(α, β), most important first" if rows > 1 else \
        "Two-factor interaction f(α, β)"
    top = build.title_top(title) + 40  # the figure's title, then the first panel's two-line title
    layout = build.theme(grid.layout, title=title, height=plot_height + top + 110)
    # the classes' legend under the panels (container coordinates)
    build.merge(layout, {"legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", x=0.0,
                                       xanchor="left"), "margin": dict(t=top, b=110)})
    return build.figure(data, _margins(layout, "interactions"))


# ----------------------------------------------------------------------------- importances
class ImportanceBars(NamedTuple):
    """Component importances sorted for a bar chart.

    Attributes
    ----------
    names : list of str
        Components, most important first.
    values : ndarray
        The chosen measure (θ_c c'R_c c, or the RMS of f_c over the data).
    share : ndarray
        Fraction of the total.
    kinds : list of str
        "main effect" or "interaction".
    by_variable : ndarray of shape (d,)
    variable_names : tuple of str
    measure : str
        A key of :data:`MEASURES`.
    """

    names: list
    values: np.ndarray
    share: np.ndarray
    kinds: list
    by_variable: np.ndarray
    variable_names: tuple
    measure: str = "norm"


#: the two importance measures: (attribute of Importances, by-variable attribute, axis label, title)
MEASURES = {
    "norm": ("values", "by_variable", "θ·c′Kc", "squared RKHS norm θ·c′Kc"),
    "rms": ("rms", "rms_by_variable", "RMS of each component over the data", "root mean square of each component over the data"),
}


def compute_importances(exp: anova.AnovaExpansion, max_bars: int = 30, *, X=None,
                        measure: str = "norm") -> ImportanceBars:
    """The ``max_bars`` largest component importances, sorted (Wahba 1998, §2).

    Parameters
    ----------
    exp : AnovaExpansion
        A fitted SS-ANOVA expansion (:func:`svmviz.anova.expansion`).
    max_bars : int, default 30
        Keep at most this many components (at least one).
    X : array_like of shape (n, d), optional
        The points over which the root mean square of f_c is taken; needed when ``measure="rms"``.
    measure : {"norm", "rms"}, default "norm"
        "norm": the squared RKHS norm θ_c c'K_c c of each component; "rms": the root mean square of
        f_c over ``X``.

    Returns
    -------
    ImportanceBars
        The components most important first, their values and share of the total, their kind (main
        effect or interaction) and the importance summed by variable.

    Raises
    ------
    ValueError
        An unknown ``measure``, or ``measure="rms"`` without ``X``.

    See Also
    --------
    plot_importances : Bars by component.
    plot_variable_importances : Bars by variable.
    plot_importance_panels : Both in one figure.
    """
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {sorted(MEASURES)}; got {measure!r}.")
    if measure == "rms" and X is None:
        raise ValueError("the RMS measure needs the points X over which each component is averaged.")
    imp = anova.importances(exp, X=X)
    attr, by_attr = MEASURES[measure][:2]
    vals, by_var = getattr(imp, attr), getattr(imp, by_attr)
    tot = float(vals.sum())
    share = vals / tot if tot > 0 else np.zeros_like(vals)
    order = np.argsort(-vals, kind="stable")[:max(1, int(max_bars))]
    return ImportanceBars([imp.names[i] for i in order], vals[order], share[order],
                          ["interaction" if len(imp.components[i]) == 2 else "main effect" for i in order],
                          by_var, imp.variable_names, measure)


def _component_bar_traces(bars: ImportanceBars) -> list:
    """Horizontal bars of the components: main effects and interactions in two colours."""
    traces = []
    for kind, color in (("main effect", "#1f77b4"), ("interaction", "#d62728")):
        idx = [i for i, k in enumerate(bars.kinds) if k == kind]
        if not idx:
            continue
        traces.append(dict(type="bar", y=[bars.names[i] for i in idx], x=bars.values[idx], orientation="h",
                           name=kind, marker=dict(color=color), customdata=100 * bars.share[idx],
                           hovertemplate="%{y}: %{x:.4g} (%{customdata:.1f} % of the total)<extra></extra>"))
    return traces


def _variable_bar_traces(bars: ImportanceBars) -> list:
    """One bar per variable, largest first."""
    order = np.argsort(-bars.by_variable, kind="stable")
    names = [bars.variable_names[i] for i in order]
    tot = float(bars.by_variable.sum()) or 1.0
    return [dict(type="bar", x=names, y=bars.by_variable[order], marker=dict(color="#1f77b4"), name="variable",
                 customdata=100 * bars.by_variable[order] / tot,
                 hovertemplate="%{x}: %{y:.4g} (%{customdata:.1f} % of the sum over variables)<extra></extra>")]


_VARIABLE_AXIS = "variable: its main effect plus its interactions"


def _component_height(bars: ImportanceBars) -> int:
    return max(300, 24 * len(bars.names) + 140)


def plot_importances(bars: ImportanceBars) -> go.Figure:
    """Horizontal bars of the component importances, most important on top.

    Parameters
    ----------
    bars : ImportanceBars
        From :func:`compute_importances`.

    Returns
    -------
    plotly.graph_objects.Figure
        One bar per component; main effects and interactions in two colours, hover with the share of
        the total.

    See Also
    --------
    compute_importances : The values drawn here.
    plot_importance_panels : These bars and the per-variable bars in one figure.
    """
    _, _, xlabel, what = MEASURES[bars.measure]
    layout = {"yaxis": dict(categoryorder="array", categoryarray=list(reversed(bars.names)))}
    return build.figure(_component_bar_traces(bars),
                       build.theme(layout, title="Importance by component", xtitle=f"{what}", ytitle="component",
                                  height=_component_height(bars)))


def plot_variable_importances(bars: ImportanceBars) -> go.Figure:
    """One bar per variable: the sum of the importances of the components it enters.

    Parameters
    ----------
    bars : ImportanceBars
        From :func:`compute_importances` (its ``by_variable`` and ``variable_names``).

    Returns
    -------
    plotly.graph_objects.Figure
        Vertical bars, one per variable (its main effect plus its interactions).

    See Also
    --------
    compute_importances : The values drawn here.
    plot_importances : The same importances by component.
    """
    _, _, ylabel, _ = MEASURES[bars.measure]
    return build.figure(_variable_bar_traces(bars), build.theme({}, title="Importance by variable", xtitle=_VARIABLE_AXIS,
                                                              ytitle=ylabel, height=380, legend=False))


def plot_importance_panels(bars: ImportanceBars) -> go.Figure:
    """Importance by variable (upper panel) and by component (lower panel) as ONE figure (Wahba 1998, §2).

    The upper panel has :func:`plot_variable_importances`' bars, the lower one
    :func:`plot_importances`' bars. One above the other: long component names ("bill_length_mm ×
    flipper_length_mm") sit in the figure's left margin, which grows to fit them.

    Parameters
    ----------
    bars : ImportanceBars
        From :func:`compute_importances`.

    Returns
    -------
    plotly.graph_objects.Figure
        Two panels, the legend (main effect / interaction) at the bottom.

    See Also
    --------
    compute_importances : The values drawn here.
    """
    _, _, label, what = MEASURES[bars.measure]
    longest = max([len(str(v)) for v in bars.variable_names] + [1])
    upper = 240  # the variable bars' plot height (pixels)
    lower = _component_height(bars) - 100
    gap = 75 + min(140, 5 * longest)  # the upper panel's (rotated) tick labels, its axis title, the lower title
    plot_height = upper + gap + lower
    grid = build.subplot_grid(2, 1, ["Importance by variable", "Importance by component"],
                             row_heights=[upper / (upper + lower), lower / (upper + lower)],
                             vertical_spacing=round(gap / plot_height, 3))
    data = [dict(tr, showlegend=False, **grid.trace_axes(1, 1)) for tr in _variable_bar_traces(bars)]
    data += [dict(tr, **grid.trace_axes(2, 1)) for tr in _component_bar_traces(bars)]
    # the variable names at −45°: at Plotly's own 30° long names ("flipper_length_mm") overlap
    build.merge(grid.xaxis(1, 1), dict(title=dict(text=_VARIABLE_AXIS), tickangle=-45))
    build.merge(grid.yaxis(1, 1), dict(title=dict(text=label), automargin=True))
    grid.xaxis(2, 1)["title"] = dict(text=what)
    build.merge(grid.yaxis(2, 1), dict(title=dict(text="component"), categoryorder="array",
                                      categoryarray=list(reversed(bars.names)), automargin=True))
    layout = build.theme(grid.layout, title=f"Importance by variable and by component — {what}",
                        height=plot_height + 150)
    # the legend (main effect / interaction) at the figure's bottom edge, clear of the panels' titles
    build.merge(layout, {"legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", x=0.0,
                                       xanchor="left"), "margin": dict(b=110)})
    layout = _margins(layout, "importances")
    # the left margin the component names and the axis title need from the first draw (~7 px a
    # character at the theme's font): Plotly's automargin would otherwise widen it and draw again
    names = max([len(str(v)) for v in bars.names] + [1])
    layout["margin"]["l"] = max(int(layout["margin"].get("l", 80)), 7 * names + 50)
    return build.figure(data, layout)


# ----------------------------------------------------------------------------- criteria per kernel
class KernelCurves(NamedTuple):
    """Criteria along λ, one curve per kernel, for plotting.

    Attributes
    ----------
    lambdas : ndarray of shape (m,)
    kernel_names : list of str
    keys : list of str
        The criteria present (a subset of :data:`CURVE_KEYS`).
    values : dict of str to ndarray of shape (k, m)
    best : dict of str to ndarray of int, shape (k,)
        Index of each kernel's minimum along λ.
    test_error : ndarray of shape (k, m) or None
    """

    lambdas: np.ndarray
    kernel_names: list
    keys: list
    values: dict
    best: dict
    test_error: np.ndarray | None


def compute_kernel_curves(kc: anova.KernelCriteria) -> KernelCurves:
    """Gather the curves of :func:`svmviz.anova.compare_kernels` by criterion, for plotting.

    Parameters
    ----------
    kc : KernelCriteria
        The criteria of each kernel along λ, from :func:`svmviz.anova.compare_kernels`.

    Returns
    -------
    KernelCurves
        λ, the kernel names, the criteria present in every kernel's curves (of GACV, XA, LOO, MISCLASS),
        their values as arrays of shape (k kernels, m λ), each kernel's minimising index and the test
        error when there is a test sample.

    See Also
    --------
    plot_kernel_curves : Draws the result.
    """
    lam = kc.curves[0].lambdas
    keys = [k for k in CURVE_KEYS if all(k in c.values for c in kc.curves)]
    values = {k: np.stack([c.values[k] for c in kc.curves]) for k in keys}
    best = {k: np.array([c.best[k] for c in kc.curves]) for k in keys}
    return KernelCurves(lam, list(kc.names), keys, values, best, kc.test_error)


#: the panels' titles, over two lines of at most ~28 characters: on one line each runs into its
#: neighbour's in a two-column grid ~700 px wide (a projector's 1024 px page)
_CURVE_TITLES = {"gacv": "GACV (generalized<br>approximate cross-validation)",
                 "xa": "XA (Joachims' ξα,<br>Wahba's form)",
                 "loo": "exact leave-one-out<br>error",
                 "misclass": "MISCLASS (true expected<br>error, needs the truth)",
                 "test": "test-sample<br>error"}


def plot_kernel_curves(kcv: KernelCurves) -> go.Figure:
    """One panel per criterion (and the test error when there is a test sample), one line per kernel.

    Parameters
    ----------
    kcv : KernelCurves
        From :func:`compute_kernel_curves`.

    Returns
    -------
    plotly.graph_objects.Figure
        Panels on a two-column grid over log10 λ; each kernel's minimum is starred.

    See Also
    --------
    compute_kernel_curves : The values drawn here.
    """
    keys = list(kcv.keys) + (["test"] if kcv.test_error is not None else [])
    vals = dict(kcv.values)
    if kcv.test_error is not None:
        vals["test"] = kcv.test_error
    cols = 2
    rows = int(np.ceil(len(keys) / cols))
    # between two rows: the upper panels' x tick labels and axis title, the lower panels' two-line titles
    panel, gap = 250, 115
    plot_height = rows * panel + (rows - 1) * gap
    grid = build.subplot_grid(rows, cols, [_CURVE_TITLES[k] for k in keys],
                             vertical_spacing=round(gap / plot_height, 4) if rows > 1 else 0.1,
                             horizontal_spacing=0.1)
    data = []
    ll = np.log10(kcv.lambdas)
    for p, key in enumerate(keys):
        r, c = p // cols + 1, p % cols + 1
        V = vals[key]
        name = "test error" if key == "test" else criterion_label(key)
        at = grid.trace_axes(r, c)
        for q, kname in enumerate(kcv.kernel_names):
            color = KERNEL_COLORS[q % len(KERNEL_COLORS)]
            data.append(dict(type="scatter", x=ll, y=V[q], mode="lines+markers", line=dict(color=color, width=2),
                             marker=dict(size=5), name=kname, legendgroup=kname, showlegend=p == 0,
                             hovertemplate=f"{kname}<br>log10 λ = %{{x:.2f}}<br>{name} = %{{y:.4g}}<extra></extra>",
                             **at))
            j = int(np.nanargmin(V[q]))
            data.append(dict(type="scatter", x=[float(ll[j])], y=[float(V[q, j])], mode="markers", legendgroup=kname,
                             showlegend=False,
                             marker=dict(symbol="star", size=13, color=color, line=dict(width=1, color="black")),
                             hovertemplate=f"minimum for {kname}<br>log10 λ = %{{x:.2f}}<br>{name} = %{{y:.4g}}"
                                           "<extra></extra>", **at))
        grid.xaxis(r, c)["title"] = dict(text="log10 λ")
        if key == "gacv":
            build.merge(grid.yaxis(r, c), dict(type="log", title=dict(text="GACV (log scale)"), **build.log_ticks(V)))
        else:
            grid.yaxis(r, c)["title"] = dict(
                text="error rate" if key in ("xa", "loo", "misclass", "test") else name)
    title = "Tuning criteria along λ for each kernel — stars: each kernel's minimum"
    top = build.title_top(title) + 40  # the figure's title, then the first row's two-line panel titles
    layout = build.theme(grid.layout, title=title, height=plot_height + top + MARGINS["curves"]["b"])
    # the legend at the figure's bottom edge (container coordinates), right under the last row's axis
    # title: a fraction of the plot's height below it grows with the rows and left an empty band
    build.merge(layout, {"legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", x=0.0,
                                       xanchor="left")})
    layout = _margins(layout, "curves")
    layout["margin"]["t"] = top
    return build.figure(data, layout)


# ----------------------------------------------------------------------------- θ × λ grid
class ThetaGridMap(NamedTuple):
    """One criterion over (θ factor of one variable, λ).

    Attributes
    ----------
    log_scales : ndarray of shape (k,)
        log10 of the factors.
    log_lambdas : ndarray of shape (m,)
    Z : ndarray of shape (k, m)
    best : (int, int)
        (i_scale, j_lambda) of the minimum.
    criterion : str
    variable : str
    """

    log_scales: np.ndarray
    log_lambdas: np.ndarray
    Z: np.ndarray
    best: tuple
    criterion: str
    variable: str


def compute_theta_grid(tg: anova.ThetaGrid, criterion: str, variable: str) -> ThetaGridMap:
    """Pick one criterion of :func:`svmviz.anova.theta_lambda_grid` for a heat map.

    Parameters
    ----------
    tg : ThetaGrid
        The criteria over (factor on one θ, λ), from :func:`svmviz.anova.theta_lambda_grid`.
    criterion : str
        A key of ``tg.values`` ("gacv", "xa", "loo" or "misclass").
    variable : str
        Name of the variable whose θ was scaled (for the titles).

    Returns
    -------
    ThetaGridMap
        log10 of the factors and of λ, the criterion's values of shape (k, m) and its minimum.

    Raises
    ------
    ValueError
        ``tg`` has no values of ``criterion``.

    See Also
    --------
    plot_theta_grid : Draws the result.
    """
    if criterion not in tg.values:
        raise ValueError(f"the grid has no {criterion!r} values (available: {sorted(tg.values)}).")
    return ThetaGridMap(np.log10(tg.scales), np.log10(tg.lambdas), tg.values[criterion], tg.best[criterion],
                        criterion, str(variable))


def plot_theta_grid(tm: ThetaGridMap) -> go.Figure:
    """Heat map of one criterion over (log10 λ, log10 θ factor) with its minimum starred.

    Parameters
    ----------
    tm : ThetaGridMap
        From :func:`compute_theta_grid`.

    Returns
    -------
    plotly.graph_objects.Figure
        The heat map (log10 of GACV, the other criteria as they are), hover with the raw value.

    See Also
    --------
    compute_theta_grid : The values drawn here.
    """
    name = criterion_label(tm.criterion)
    z = np.log10(tm.Z) if tm.criterion == "gacv" else tm.Z
    ztitle = "log10 GACV" if tm.criterion == "gacv" else name
    i, j = tm.best
    data = [dict(type="heatmap", x=tm.log_lambdas, y=tm.log_scales, z=z, colorscale=build.colorscale("Viridis"),
                 colorbar=dict(title=dict(text=ztitle)), customdata=tm.Z, name=name,
                 hovertemplate=("log10 λ = %{x:.2f}<br>log10 factor = %{y:.2f}"
                                f"<br>{name} = %{{customdata:.4g}}<extra></extra>")),
            dict(type="scatter", x=[float(tm.log_lambdas[j])], y=[float(tm.log_scales[i])], mode="markers",
                 name="minimum", marker=dict(symbol="star", size=16, color="white", line=dict(width=1.5, color="black")),
                 hovertemplate=f"minimum of {name}<br>log10 λ = %{{x:.2f}}<br>log10 factor = %{{y:.2f}}"
                               "<extra></extra>")]
    return build.figure(data, build.theme({}, title=f"{name} over λ and the θ factor of {tm.variable}", xtitle="log10 λ",
                                        ytitle=f"log10 (factor on θ of {tm.variable})", height=420))
