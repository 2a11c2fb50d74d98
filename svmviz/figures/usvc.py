"""Figures of the unbiased-SVC page (Navia-Vázquez et al. 2004).

``compute_*`` return NamedTuples of arrays (no pixels); ``plot_*`` turn them into plotly figures.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from .. import usvc
from ..data import make_dataset
from .labels import features_hover, point_hover
from .plane import MapPlane, plane_mesh
from . import build
from .theme import CLASS_COLORS, LEGEND_BELOW, METHOD_STYLES
from .tuning import level_lines

STAGE_STYLE = {  # trajectory colours per IRWLS stage
    0: dict(name="LS start", color="#7f7f7f"),
    1: dict(name="IRWLS-SVC (hinge)", color="#d62728"),
    2: dict(name="USVC (smooth step)", color="#2ca02c"),
}
METHOD_COLORS = {"LS": "#7f7f7f", "SVC": "#d62728", "USVC(s=2)": "#2ca02c", "USVC(s=4)": "#17becf"}


# ----------------------------------------------------------------------------------------------
# scenario A / B: class densities and the theoretical CE
# ----------------------------------------------------------------------------------------------
class ScenarioView(NamedTuple):
    """The class-weighted densities and the theoretical CE(Th) of one scenario (Navia-Vázquez et al. 2004, Fig. 2).

    Attributes
    ----------
    scenario : str
        "A" or "B".
    bin_centres : ndarray of shape (B,)
        Centres of the histogram's bins.
    dens_plus : ndarray of shape (B,)
        P(+1) f(x | +1), estimated from a large sample (histogram).
    dens_minus : ndarray of shape (B,)
        P(−1) f(x | −1).
    th : ndarray of shape (m,)
        Thresholds Th.
    ce_theory : ndarray of shape (m,)
        The closed-form CE(Th) of the rule "+1 when x > Th" (:func:`svmviz.usvc.theoretical_ce`).
    p_plus : ndarray of shape (m,)
        P(y = +1 | x = Th), exact.
    """
    scenario: str
    bin_centres: np.ndarray   # (B,)
    dens_plus: np.ndarray     # (B,) P(+1) f(x|+1), estimated from a large sample (histogram)
    dens_minus: np.ndarray    # (B,) P(−1) f(x|−1)
    th: np.ndarray            # (m,)
    ce_theory: np.ndarray     # (m,) closed form (svmviz.data.usvc_theoretical_ce)
    p_plus: np.ndarray        # (m,) P(y = +1 | x = th) (exact)


def compute_scenario_view(scenario: str, *, n_sample: int = 40_000, n_bins: int = 120,
                          th=None, seed: int = 0) -> ScenarioView:
    """Class-weighted densities of scenario A or B and the theoretical CE(Th) (Navia-Vázquez et al. 2004, Fig. 2).

    The densities are histograms of a large sample from the generator; CE(Th) is the closed-form
    error of the rule "+1 when x > Th".

    Parameters
    ----------
    scenario : {"A", "B"}
        The scenario (data set ``usvc_A`` or ``usvc_B``).
    n_sample : int, default 40000
        Size of the sample the histograms are made of.
    n_bins : int, default 120
        Histogram bins over [−0.1, 1.15].
    th : array_like of shape (m,), optional
        Thresholds; default 461 points over [−0.05, 1.1].
    seed : int, default 0
        Seed of the sample.

    Returns
    -------
    ScenarioView
        The densities, CE(Th) and P(+1 | x = Th).

    See Also
    --------
    plot_scenario : Draws the result.
    svmviz.usvc.theoretical_ce : The closed-form CE(Th).
    """
    th = np.linspace(-0.05, 1.1, 461) if th is None else np.asarray(th, dtype=np.float64)
    ds = make_dataset(f"usvc_{scenario}", n=n_sample, seed=seed)
    x = ds.X[:, 0]
    edges = np.linspace(-0.1, 1.15, n_bins + 1)
    width = edges[1] - edges[0]
    hp, _ = np.histogram(x[ds.y > 0], bins=edges)
    hm, _ = np.histogram(x[ds.y < 0], bins=edges)
    n = x.size
    return ScenarioView(scenario, 0.5 * (edges[1:] + edges[:-1]), hp / (n * width), hm / (n * width), th,
                        usvc.theoretical_ce(scenario, th), ds.p_true(th.reshape(-1, 1)))


_SECONDARY = {"xaxis": "x", "yaxis": "y2"}  # a trace on the right-hand y axis of a one-panel secondary_y grid
# the right-hand axis's own round ticks and no grid of its own: ticks synchronised with the left axis's grid
# land on values such as 0.035, 0.232, 0.43
_OWN_TICKS = {"tickmode": "auto", "showgrid": False}


def plot_scenario(view: ScenarioView) -> go.Figure:
    """The two class-weighted densities and the theoretical CE(Th) with its minimum (Navia-Vázquez et al. 2004, Fig. 2).

    Parameters
    ----------
    view : ScenarioView
        From :func:`compute_scenario_view`.

    Returns
    -------
    plotly.graph_objects.Figure
        The densities (left axis) and CE(Th) (right axis), its minimum starred.

    See Also
    --------
    compute_scenario_view : The values drawn here.
    """
    grid = build.subplot_grid(1, 1, specs=[[{"secondary_y": True}]])
    data = [dict(type="scatter", x=view.bin_centres, y=dens, name=lab, mode="lines",
                 line=dict(color=CLASS_COLORS[cls], shape="hvh"),
                 hovertemplate="x = %{x:.3f}<br>density = %{y:.3f}<extra>" + lab + "</extra>", **grid.trace_axes(1, 1))
            for dens, lab, cls in ((view.dens_plus, "P(+1) f(x | +1)", 1), (view.dens_minus, "P(−1) f(x | −1)", -1))]
    data.append(dict(type="scatter", x=view.th, y=view.ce_theory, name="theoretical CE(Th)", mode="lines",
                     line=dict(color="black", dash=METHOD_STYLES["bayes"]["dash"]),
                     hovertemplate="Th = %{x:.3f}<br>CE = %{y:.3f}<extra></extra>", **_SECONDARY))
    j = int(np.argmin(view.ce_theory))
    data.append(dict(type="scatter", x=[view.th[j]], y=[view.ce_theory[j]], mode="markers", name="CE minimum",
                     marker=dict(symbol="star", size=13, color="black"),
                     hovertemplate="min CE %{y:.3f} at Th = %{x:.3f}<extra></extra>", **_SECONDARY))
    # the title on two lines and the legend below the plot: on a narrow chart a one-line title is cut
    # and a legend on top wraps upwards over it
    layout = build.theme(grid.layout, title=f"Scenario {view.scenario}: class densities<br>and theoretical CE of "
                         "“+1 when x > Th”", xtitle="x (and threshold Th)", ytitle="class-weighted density", height=440)
    # the legend at the figure's bottom edge (container coordinates), under the x axis title
    build.merge(layout, {"yaxis2": {"title": {"text": "CE(Th)"}, "rangemode": "tozero", **_OWN_TICKS}, "margin": {"t": 80, "b": 130},
                         "legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", xanchor="left",
                                        x=0.0)})
    return build.figure(data, layout)


# ----------------------------------------------------------------------------------------------
# error surfaces, trajectories and CE profiles
# ----------------------------------------------------------------------------------------------
class Trajectory(NamedTuple):
    """The LS → SVC → USVC iterates of a 1-D linear machine in (Th, w) (Navia-Vázquez et al. 2004, Figs. 3a, 3c).

    Attributes
    ----------
    th : ndarray of shape (T,)
        Th = −b/w at each iterate.
    w : ndarray of shape (T,)
        The slope at each iterate.
    stage : ndarray of int, shape (T,)
        0 LS, 1 SVC, 2 USVC.
    primal : ndarray of shape (T,)
        L̃ at each iterate, with the loss of its stage.
    ls, svc, usvc : tuple of (float, float)
        (Th, w) of the LS start, the SVC solution and the USVC solution.
    n_iter : dict of str to int
        IRWLS iterations of each stage.
    status : dict of str to int
        Convergence status of each stage (0 converged).
    """
    th: np.ndarray       # (T,) Th = −b/w per iterate
    w: np.ndarray        # (T,)
    stage: np.ndarray    # (T,) 0 LS, 1 SVC, 2 USVC
    primal: np.ndarray   # (T,)
    ls: tuple            # (Th, w) of the LS start
    svc: tuple           # (Th, w) of the SVC solution
    usvc: tuple          # (Th, w) of the USVC solution
    n_iter: dict
    status: dict


def compute_trajectory(clf: usvc.IRWLSClassifier) -> Trajectory:
    """LS → IRWLS-SVC → USVC iterates of a fitted 1-D linear smooth-step machine in (Th, w).

    Navia-Vázquez et al. 2004, Figs. 3a, 3c.

    Parameters
    ----------
    clf : IRWLSClassifier
        ``IRWLSClassifier(loss="smooth_step")`` fitted on one feature (its history holds the hinge
        stage it starts from).

    Returns
    -------
    Trajectory
        Every iterate's (Th, w), stage and primal value, and the three stages' end points.

    See Also
    --------
    plot_error_surface : Draws the trajectory on the error surface.
    """
    th, w, stage = clf.trajectory()
    last_svc = np.flatnonzero(stage == 1)
    i_svc = int(last_svc[-1]) if last_svc.size else 0
    return Trajectory(th, w, stage, clf.history_.primal.copy(), (th[0], w[0]), (th[i_svc], w[i_svc]),
                      (th[-1], w[-1]), clf.n_iter_stages_, clf.status_stages_)


class ErrorSurface(NamedTuple):
    """L̃(Th, w) on a grid, its profile over w and the empirical CE (Navia-Vázquez et al. 2004, Figs. 3–4).

    Attributes
    ----------
    loss : str
        "hinge" (SVC) or "smooth_step" (USVC).
    s : float
        The smooth step's exponent.
    th : ndarray of shape (m,)
        Thresholds Th.
    w : ndarray of shape (q,)
        Slopes w.
    L : ndarray of shape (q, m)
        L̃(Th, w) (:func:`svmviz.usvc.primal_surface`).
    profile_w : ndarray of shape (m,)
        argmin_w L̃(Th, ·).
    profile_L : ndarray of shape (m,)
        min_w L̃(Th, ·).
    profile_ce : ndarray of shape (m,)
        min_w L̃ / (C n): the "CE" this machine minimises.
    ce_emp : ndarray of shape (m,)
        The empirical training CE of the rule "+1 when x > Th".
    """
    loss: str
    s: float
    th: np.ndarray          # (m,)
    w: np.ndarray           # (q,)
    L: np.ndarray           # (q, m) L̃(Th, w)
    profile_w: np.ndarray   # (m,) argmin_w L̃(Th, ·)
    profile_L: np.ndarray   # (m,) min_w L̃(Th, ·)
    profile_ce: np.ndarray  # (m,) min_w L̃ / (C n): the "CE" this machine minimises
    ce_emp: np.ndarray      # (m,) empirical training CE


def compute_error_surface(x, y, *, C: float = 10.0, loss: str = "hinge", s: float = 2.0,
                          k_eps: float = 1e-4, th_range=(-0.05, 1.05), w_max: float = 20.0,
                          n_th: int = 111, n_w: int = 81) -> ErrorSurface:
    """L̃(Th, w) on a grid, its profile min_w L̃ and the empirical CE (Navia-Vázquez et al. 2004, Figs. 3–4).

    Parameters
    ----------
    x : array_like of shape (n,) or (n, 1)
        The one feature.
    y : array_like of shape (n,)
        Two-valued labels.
    C : float > 0, default 10.0
        Weight of the loss term of L̃ (eq. 5).
    loss : {"hinge", "smooth_step"}, default "hinge"
        θ: the SVC's hinge (eq. 4) or the USVC's smooth step (eq. 6).
    s : float, default 2.0
        The smooth step's exponent.
    k_eps : float in (0, 1), default 1e-4
        The smooth step's k_ε.
    th_range : tuple of (float, float), default (-0.05, 1.05)
        The range of Th.
    w_max : float, default 20.0
        The largest slope of the grid (from 0).
    n_th, n_w : int, default 111 and 81
        Grid points along Th and w.

    Returns
    -------
    ErrorSurface
        The surface, its profile and the empirical CE.

    See Also
    --------
    plot_error_surface : Draws the surface.
    plot_ce_profiles : Draws the profiles beside the CE.
    svmviz.usvc.primal_surface : The surface computed here.
    """
    th = np.linspace(th_range[0], th_range[1], int(n_th))
    w = np.linspace(0.0, float(w_max), int(n_w))
    L = usvc.primal_surface(x, y, th, w, C=C, loss=loss, s=s, k_eps=k_eps)
    prof = usvc.primal_profile(x, y, th, C=C, loss=loss, s=s, k_eps=k_eps)
    return ErrorSurface(loss, float(s), th, w, L, prof.w, prof.value, prof.per_sample,
                        usvc.empirical_ce(x, y, th))


def plot_error_surface(surf: ErrorSurface, traj: Trajectory | None = None, *, stages=(0, 1, 2),
                       n_steps: int | None = None) -> go.Figure:
    """Contour of log10 L̃(Th, w), the profile locus (dashed) and the IRWLS trajectory (Navia-Vázquez et al. 2004, Figs. 3a, 3c).

    Parameters
    ----------
    surf : ErrorSurface
        From :func:`compute_error_surface`.
    traj : Trajectory, optional
        From :func:`compute_trajectory`: its iterates, start and ends marked.
    stages : sequence of int, default (0, 1, 2)
        The stages of the trajectory drawn (0 LS, 1 SVC, 2 USVC).
    n_steps : int, optional
        Draw only the first ``n_steps`` iterates (default: all).

    Returns
    -------
    plotly.graph_objects.Figure
        The contour, the profile and the trajectory.

    See Also
    --------
    compute_error_surface : The surface drawn here.
    compute_trajectory : The trajectory drawn here.
    """
    what = "SVC (hinge)" if surf.loss == "hinge" else f"USVC (smooth step, s = {surf.s:g})"
    data = [dict(type="contour", x=surf.th, y=surf.w, z=np.log10(surf.L), colorscale=build.colorscale("Viridis"),
                 ncontours=30, colorbar=dict(title=dict(text="log10 L̃"), len=0.8), name="log10 L̃(Th, w)",
                 hovertemplate="Th = %{x:.3f}<br>w = %{y:.2f}<br>log10 L̃ = %{z:.4f}<extra></extra>")]
    inside = surf.profile_w <= surf.w[-1]
    # white on the dark map; its legend entry is drawn by a dark twin (white would not show on the page)
    data.append(dict(type="scatter", x=surf.th[inside], y=surf.profile_w[inside], mode="lines",
                     name="min over w (profile)", line=dict(color="white", dash="dash", width=2),
                     legendgroup="profile", showlegend=False,
                     hovertemplate="Th = %{x:.3f}<br>argmin w = %{y:.2f}<extra>profile</extra>"))
    data.append(dict(type="scatter", x=[None], y=[None], mode="lines", name="min over w (profile)",
                     legendgroup="profile", line=dict(color="#444", dash="dash", width=2), hoverinfo="skip"))
    if traj is not None:
        T = traj.th.size if n_steps is None else max(1, min(traj.th.size, int(n_steps)))
        th, w, st = traj.th[:T], traj.w[:T], traj.stage[:T]
        for k in stages:
            m = st == k
            if k == 1:  # draw the SVC stage from the LS start
                m = m | (np.arange(T) == 0)
            if not np.any(m) or k == 0:
                continue
            sty = STAGE_STYLE[k]
            data.append(dict(type="scatter", x=th[m], y=w[m], mode="lines+markers", name=sty["name"],
                             line=dict(color=sty["color"], width=2), marker=dict(size=4),
                             customdata=np.flatnonzero(m),
                             hovertemplate="iterate %{customdata}<br>Th = %{x:.4f}<br>w = %{y:.3f}"
                                           "<extra>" + sty["name"] + "</extra>"))
        marks = [("circle", "LS start", traj.ls, "white", 0)]
        if T > 1 and np.any(traj.stage[:T] == 1):
            marks.append(("x", "SVC solution", traj.svc, STAGE_STYLE[1]["color"], 1))
        if T == traj.th.size and np.any(traj.stage == 2):
            marks.append(("star", "USVC solution", traj.usvc, STAGE_STYLE[2]["color"], 2))
        for sym, lab, (tx, wy), col, k in marks:
            if k not in stages and k != 0:
                continue
            data.append(dict(type="scatter", x=[tx], y=[wy], mode="markers", name=lab,
                             marker=dict(symbol=sym, size=14, color=col, line=dict(color="black", width=1.5)),
                             hovertemplate=lab + "<br>Th = %{x:.4f}<br>w = %{y:.3f}<extra></extra>"))
    # one title line at the page column's width, placed as the theme places it: set at the figure's top
    # edge, the tilde of L̃ is cut off
    layout = build.theme({}, title=f"Error surface L̃(Th, w) of the {what}", xtitle="threshold Th = −b/w",
                         ytitle="slope w")
    build.merge(layout, {**LEGEND_BELOW, "height": 600, "xaxis": {"range": [surf.th[0], surf.th[-1]]},
                         "yaxis": {"range": [surf.w[0], surf.w[-1]]}})
    return build.figure(data, layout)


def plot_ce_profiles(surfaces, *, ce_theory=None, th_theory=None, marks=None) -> go.Figure:
    """Theoretical and empirical CE(Th), and each machine's profile min_w L̃/(C n) (Navia-Vázquez et al. 2004, Figs. 3b, 3d).

    Parameters
    ----------
    surfaces : sequence of ErrorSurface
        From :func:`compute_error_surface`, one per machine (the first gives the empirical CE); at least one.
    ce_theory : array_like of shape (k,), optional
        The theoretical CE at ``th_theory`` (e.g. ``ScenarioView.ce_theory``).
    th_theory : array_like of shape (k,), optional
        Its thresholds.
    marks : dict of str to float, optional
        {label: Th}: vertical markers at the fitted solutions.

    Returns
    -------
    plotly.graph_objects.Figure
        The CE curves (left axis) and the profiles (right axis).

    See Also
    --------
    compute_error_surface : The profiles drawn here.
    """
    grid = build.subplot_grid(1, 1, specs=[[{"secondary_y": True}]])
    primary = grid.trace_axes(1, 1)
    surf0 = surfaces[0]
    data = []
    if ce_theory is not None:
        data.append(dict(type="scatter", x=th_theory, y=ce_theory, name="theoretical CE", mode="lines",
                         line=dict(color="black"),
                         hovertemplate="Th = %{x:.3f}<br>CE = %{y:.3f}<extra>theory</extra>", **primary))
    data.append(dict(type="scatter", x=surf0.th, y=surf0.ce_emp, name="empirical CE (training)", mode="lines",
                     line=dict(color="black", dash="dot"),
                     hovertemplate="Th = %{x:.3f}<br>CE = %{y:.3f}<extra>empirical</extra>", **primary))
    for surf in surfaces:
        if surf.loss == "hinge":
            lab, col = "profile: min over w of L̃/(Cn), SVC", STAGE_STYLE[1]["color"]
        else:
            lab, col = f"profile: min over w of L̃/(Cn), USVC s = {surf.s:g}", STAGE_STYLE[2]["color"]
        data.append(dict(type="scatter", x=surf.th, y=surf.profile_ce, name=lab, mode="lines",
                         line=dict(color=col, dash="dash"),
                         hovertemplate="Th = %{x:.3f}<br>min over w of L̃/(Cn) = %{y:.4f}<extra>" + lab + "</extra>",
                         **_SECONDARY))
        j = int(np.argmin(surf.profile_ce))
        data.append(dict(type="scatter", x=[surf.th[j]], y=[surf.profile_ce[j]], mode="markers", showlegend=False,
                         marker=dict(symbol="x" if surf.loss == "hinge" else "star", size=12, color=col),
                         hovertemplate="profile minimum at Th = %{x:.3f}<extra></extra>", **_SECONDARY))
    layout = grid.layout
    for lab, t in (marks or {}).items():  # plotly's add_vline with an annotation at the bottom right
        layout.setdefault("shapes", []).append(dict(type="line", x0=float(t), x1=float(t), xref="x", y0=0, y1=1,
                                                    yref="y domain", line=dict(color="#555", dash="dot", width=1)))
        layout.setdefault("annotations", []).append(dict(showarrow=False, text=lab, x=float(t), xanchor="left",
                                                         xref="x", y=0, yanchor="bottom", yref="y domain"))
    build.theme(layout, title="CE curves and the CE each algorithm actually minimises", xtitle="threshold Th",
                ytitle="classification error")
    build.merge(layout, {**LEGEND_BELOW, "height": 560,
                         # short: the rotated title spans the plot's height (about 300 px) whole
                         "yaxis2": {"title": {"text": "min over w of L̃ / (C n)"}, **_OWN_TICKS}})
    return build.figure(data, layout)


# ----------------------------------------------------------------------------------------------
# Table 1
# ----------------------------------------------------------------------------------------------
def plot_table1(rows, scenario: str) -> go.Figure:
    """Test CE (mean ± sd over trials) and mean Th per method, ours beside the paper's (Navia-Vázquez et al. 2004, Table 1).

    Parameters
    ----------
    rows : sequence of dict
        One per method (:func:`svmviz.usvc.table1_summary`): "method", "test_ce_mean", "test_ce_sd",
        "threshold_mean", "threshold_sd", and the same keys prefixed ``paper_``.
    scenario : str
        "A" or "B", for the title.

    Returns
    -------
    plotly.graph_objects.Figure
        Two panels of grouped bars with error bars: test CE (%) and Th.

    See Also
    --------
    svmviz.usvc.table1_study : The trials summarised.
    """
    grid = build.subplot_grid(1, 2, ("test CE (%)", "threshold Th"))
    methods = [r["method"] for r in rows]
    data = []
    for who, key, col in (("svmviz", "", "#1f77b4"), ("paper", "paper_", "#ff7f0e")):
        for c, stat in ((1, "test_ce"), (2, "threshold")):
            mean = [r[f"{key}{stat}_mean"] for r in rows]
            sd = [r[f"{key}{stat}_sd"] for r in rows]
            data.append(dict(type="bar", x=methods, y=mean, name=who, marker=dict(color=col), showlegend=(c == 1),
                             error_y=dict(type="data", array=[0 if not np.isfinite(v) else v for v in sd]),
                             hovertemplate=f"{who}<br>%{{x}}: %{{y:.3f}}<extra>{stat}</extra>", **grid.trace_axes(1, c)))
    layout = build.theme(grid.layout, title=f"Table 1, scenario {scenario}: mean ± sd over trials, svmviz vs the paper",
                         xtitle="method", height=400)
    build.merge(layout, {"barmode": "group"})
    build.merge(grid.yaxis(1, 1), {"title": {"text": "test CE (%)"}})
    build.merge(grid.yaxis(1, 2), {"title": {"text": "Th = −b/w"}})
    return build.figure(data, layout)


# ----------------------------------------------------------------------------------------------
# 2-D: kernel USVC with R prototypes vs the SVM
# ----------------------------------------------------------------------------------------------
class KernelComparison(NamedTuple):
    """What the kernel comparison draws: the USVC and the SVM on the same data (Navia-Vázquez et al. 2004, Table 3).

    Attributes
    ----------
    X : ndarray of shape (n, d)
        The training points.
    y : ndarray of shape (n,)
        Their labels ±1.
    gx, gy : ndarray of shape (g,) or None
        The grid's axes (2-D data, or the map plane's coordinates; None otherwise).
    f_usvc, f_svm : ndarray of shape (g, g) or None
        The two machines' decision values on the grid, ``f[i, j]`` at (gx[j], gy[i]).
    prototypes : ndarray of shape (R, d)
        The USVC's prototype centres.
    support : ndarray of int, shape (n_SV,)
        Indices of the SVM's support vectors.
    test_error_usvc, test_error_svm : float
        Test misclassification rates.
    train_error_usvc, train_error_svm : float
        Training misclassification rates.
    size_usvc : int
        R, the USVC's number of kernels.
    size_svm : int
        The SVM's number of support vectors.
    n_iter : dict of str to int
        The USVC's IRWLS iterations per stage.
    status : dict of str to int
        Its convergence status per stage.
    test_kind : str
        "independent test sample" or "30 % held out".
    plane : MapPlane or None
        The maps' plane for data of more than two features (:mod:`svmviz.figures.plane`): the grid
        lies in it, and the points and prototypes are drawn at their map coordinates.
    """
    X: np.ndarray              # (n, d) training points
    y: np.ndarray              # (n,) ±1
    gx: np.ndarray | None      # (g,) grid axes (2-D data or a map plane)
    gy: np.ndarray | None
    f_usvc: np.ndarray | None  # (g, g) decision values on the grid
    f_svm: np.ndarray | None
    prototypes: np.ndarray     # (R, d)
    support: np.ndarray        # (n_SV,) indices of the SVM's support vectors
    test_error_usvc: float
    test_error_svm: float
    train_error_usvc: float
    train_error_svm: float
    size_usvc: int             # R kernels
    size_svm: int              # number of support vectors
    n_iter: dict
    status: dict
    test_kind: str             # "independent test sample" or "30 % held out"
    plane: MapPlane | None = None


def compute_kernel_comparison(fit: usvc.KernelComparisonFit, *, grid: int = 80,
                              plane: MapPlane | None = None) -> KernelComparison:
    """What the comparison plots show, from :func:`svmviz.usvc.kernel_comparison`'s fitted machines.

    Parameters
    ----------
    fit : KernelComparisonFit
        From :func:`svmviz.usvc.kernel_comparison`.
    grid : int, default 80
        Mesh points per axis over the training data (2-D data, or any with ``plane``).
    plane : MapPlane, optional
        For data of more than two features, the maps' plane
        (:func:`svmviz.figures.plane.compute_map_plane`): both machines, fitted on all features, on
        the plane's mesh (:func:`svmviz.figures.plane.plane_mesh`, padded by 8 %).

    Returns
    -------
    KernelComparison
        The decision values on the mesh, the prototypes, the support vectors, errors and machine sizes.

    See Also
    --------
    plot_kernel_comparison : The two boundaries side by side.
    plot_machine_size : The sizes and errors.
    """
    X, um, svm = fit.X_train, fit.usvc, fit.svm
    gx = gy = fu = fs = None
    if plane is not None:
        if plane.n_features != X.shape[1]:
            raise ValueError(f"the map's plane is of {plane.n_features} features; the data have {X.shape[1]}.")
        mesh = plane_mesh(plane, X, resolution=grid, pad=0.08)
        gx, gy = mesh.gx, mesh.gy
        fu = um.decision_function(mesh.points).reshape(grid, grid)
        fs = svm.decision_function(mesh.points).reshape(grid, grid)
    elif X.shape[1] == 2:
        pad = 0.08 * (X.max(axis=0) - X.min(axis=0))
        gx = np.linspace(X[:, 0].min() - pad[0], X[:, 0].max() + pad[0], grid)
        gy = np.linspace(X[:, 1].min() - pad[1], X[:, 1].max() + pad[1], grid)
        P = np.column_stack([np.tile(gx, grid), np.repeat(gy, grid)])  # row-major: y rows, x columns
        fu = um.decision_function(P).reshape(grid, grid)
        fs = svm.decision_function(P).reshape(grid, grid)
    return KernelComparison(X, fit.y_train, gx, gy, fu, fs, um.prototypes_, svm.support_, fit.test_error_usvc,
                            fit.test_error_svm, fit.train_error_usvc, fit.train_error_svm, um.machine_size_,
                            int(svm.support_.size), um.n_iter_stages_, um.status_stages_, fit.test_kind, plane)


def plot_kernel_comparison(kc: KernelComparison, *, class_names=("class −1", "class +1"),
                           feature_names=("x1", "x2"), axis_titles=None, scale=None) -> go.Figure:
    """Side by side: the USVC boundary with its R prototypes, the SVM boundary with its support vectors.

    Parameters
    ----------
    kc : KernelComparison
        From :func:`compute_kernel_comparison`, on 2-D data.
    class_names : tuple of (str, str), default ("class −1", "class +1")
        Names of the classes −1 and +1 (legend, hover).
    feature_names : sequence of str, default ("x1", "x2")
        Names of the two features in the hover; of all d features when ``kc`` has a map plane.
    axis_titles : tuple of (str, str), optional
        Axis titles; default the feature names (the plane's axis titles with a map plane).
    scale : tuple of ((float, float), (float, float)), optional
        The (mean, sd) of the two features when the data were standardised
        (:func:`svmviz.figures.labels.feature_scale`): the hover then shows each point's value in
        the data's own units beside the standardised one. None (generated data): standardised values
        only. One pair per feature when ``kc`` has a map plane.

    Returns
    -------
    plotly.graph_objects.Figure
        Two panels of f(x) (clipped at ±2) with the boundary f = 0 and the data.

    Raises
    ------
    ValueError
        ``kc`` has no grid: the data are not two-dimensional and no map plane was given.

    See Also
    --------
    compute_kernel_comparison : The values drawn here.
    """
    if kc.gx is None:
        raise ValueError("boundaries are drawn for two-dimensional data, or on a map plane "
                         "(compute_kernel_comparison(..., plane=...)).")
    # two lines each: side by side at half a 1280-pixel window, one line per title ran into the other
    # three short lines each: two panels share a chart about 530 px wide on a 1024-px screen
    titles = (f"USVC<br>{kc.size_usvc} prototype kernels<br>test error {kc.test_error_usvc:.3f}",
              f"SVM<br>{kc.size_svm} support vectors<br>test error {kc.test_error_svm:.3f}")
    plane = kc.plane
    fx, fy = (str(v) for v in (feature_names if plane is None else plane.axis_titles))
    where = f"{fx} = %{{x:.2f}}<br>{fy} = %{{y:.2f}}"

    def drawn(P):  # (coordinates drawn, hover lines, customdata) of points P of the training space
        if plane is None:
            return (P,) + point_hover(P, (fx, fy), scale)
        return (plane.coordinates(P),) + features_hover(P, feature_names, scale)

    grid = build.subplot_grid(1, 2, titles, shared_yaxes=True, horizontal_spacing=0.04)
    data = []
    legend_drawn = False
    for c, f, machine in ((1, kc.f_usvc, "USVC"), (2, kc.f_svm, "SVM")):
        axes = grid.trace_axes(1, c)
        # the map's values as float32 (hover shows two decimals of values clipped to ±2): half the bytes
        # of float64, sent again at every rerun that changes the data
        data.append(dict(type="contour", x=kc.gx, y=kc.gy, z=np.clip(f, -2, 2).astype(np.float32),
                         colorscale=build.colorscale("RdBu_r"), zmid=0, contours=dict(start=-2, end=2, size=0.25),
                         opacity=0.55, showscale=(c == 2), colorbar=dict(title=dict(text="f(x) (clipped ±2)")),
                         name="f(x)", showlegend=False, hovertemplate=where + "<br>f = %{z:.2f}<extra></extra>",
                         **axes))
        # the boundary as the line itself (marching squares on the same grid, what a contour trace of the
        # whole field at level 0 would leave to the browser): a few kB instead of the field again
        bx, by = level_lines(kc.gx, kc.gy, f, 0.0)
        if bx.size:  # one legend entry for the boundaries of both panels
            data.append(dict(type="scatter", x=bx, y=by, mode="lines", line=dict(color="black", width=2.5),
                             name="boundary f = 0", legendgroup="boundary", showlegend=not legend_drawn,
                             hoverinfo="skip", **axes))
            legend_drawn = True
        else:
            data.append(dict(type="scatter", x=[None], y=[None], mode="lines", line=dict(color="black", width=2.5),
                             name=f"{machine}: no boundary f = 0 in view (one sign everywhere)",
                             hoverinfo="skip", **axes))
        for cls, cname in ((-1, class_names[0]), (1, class_names[1])):
            m = kc.y == cls
            P, lines, orig = drawn(kc.X[m])
            data.append(dict(type="scatter", x=P[:, 0], y=P[:, 1], mode="markers", name=cname,
                             marker=dict(color=CLASS_COLORS[cls], size=5, opacity=0.8),
                             showlegend=(c == 1), legendgroup=f"c{cls}", customdata=orig,
                             hovertemplate=lines + f"<extra>{cname}</extra>", **axes))
    P, lines, orig = drawn(kc.prototypes)
    data.append(dict(type="scatter", x=P[:, 0], y=P[:, 1], mode="markers",
                     name="USVC prototypes cᵣ",
                     marker=dict(symbol="star", size=14, color="gold", line=dict(color="black", width=1)),
                     customdata=orig, hovertemplate="prototype<br>" + lines + "<extra></extra>", **grid.trace_axes(1, 1)))
    sv, lines, orig = drawn(kc.X[kc.support])
    data.append(dict(type="scatter", x=sv[:, 0], y=sv[:, 1], mode="markers", name="SVM support vectors",
                     marker=dict(symbol="circle-open", size=10, color="black", line=dict(width=1.5)),
                     customdata=orig, hovertemplate="support vector<br>" + lines + "<extra></extra>",
                     **grid.trace_axes(1, 2)))
    axis_titles = axis_titles or (fx, fy)
    layout = build.theme(grid.layout, title="Kernel USVC with R prototypes vs the SVM (same σ and C)",
                         xtitle=axis_titles[0], ytitle=axis_titles[1], height=560)
    # the figure's title at the top edge, the panels' three-line titles under it
    build.merge(layout, {"margin": dict(t=135, b=90), "title": {"y": 0.985, "yanchor": "top"},
                         "legend": dict(orientation="h", yanchor="top", y=-0.14, xanchor="left", x=0.0)})
    # the shared y axis is titled once, on the left; the x axes (the same variable and range) once, under
    # the left panel: two long column names side by side do not fit half a narrow chart each
    grid.yaxis(1, 2)["title"].pop("text", None)
    grid.xaxis(1, 2)["title"].pop("text", None)
    # the maps' extent, as the contour traces alone gave it (a line reaching the border would pad it)
    for r, c in ((1, 1), (1, 2)):
        build.merge(grid.xaxis(r, c), {"range": [float(kc.gx[0]), float(kc.gx[-1])]})
        build.merge(grid.yaxis(r, c), {"range": [float(kc.gy[0]), float(kc.gy[-1])]})
    return build.figure(data, layout)


def plot_machine_size(kc: KernelComparison) -> go.Figure:
    """Machine size and test error of the two machines, side by side (Navia-Vázquez et al. 2004, Table 3).

    Parameters
    ----------
    kc : KernelComparison
        From :func:`compute_kernel_comparison`.

    Returns
    -------
    plotly.graph_objects.Figure
        Two panels of bars: the number of kernels, and the test and training errors.

    See Also
    --------
    compute_kernel_comparison : The values drawn here.
    """
    grid = build.subplot_grid(1, 2, ("machine size (kernels)", "error"))
    names = ["USVC", "SVM"]
    data = [dict(type="bar", x=names, y=[kc.size_usvc, kc.size_svm], marker=dict(color=["#2ca02c", "#d62728"]),
                 name="kernels", hovertemplate="%{x}: %{y} kernels<extra></extra>", **grid.trace_axes(1, 1)),
            dict(type="bar", x=names, y=[kc.test_error_usvc, kc.test_error_svm], name=f"test ({kc.test_kind})",
                 marker=dict(color="#1f77b4"), hovertemplate="%{x}: test error %{y:.3f}<extra></extra>",
                 **grid.trace_axes(1, 2)),
            dict(type="bar", x=names, y=[kc.train_error_usvc, kc.train_error_svm], name="training",
                 marker=dict(color="#aec7e8"), hovertemplate="%{x}: training error %{y:.3f}<extra></extra>",
                 **grid.trace_axes(1, 2))]
    layout = build.theme(grid.layout, title="Machine size and error", xtitle="machine", ytitle="number of kernels",
                         height=400)
    # the legend at the figure's bottom edge (container coordinates), under the "machine" axis title
    # it would sit on otherwise
    build.merge(layout, {"barmode": "group", "margin": dict(b=110),
                         "legend": dict(orientation="h", yref="container", y=0.0, yanchor="bottom", xanchor="left",
                                        x=0.0)})
    build.merge(grid.yaxis(1, 2), {"title": {"text": "error rate"}})
    return build.figure(data, layout)
