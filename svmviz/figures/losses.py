"""Figures of the "Loss functions & randomized GACV" page (Wahba 1998, Figs 1.1–1.2): data, then pixels."""
from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
import plotly.graph_objects as go

from .. import losses as L
from ..losses import GacvCurves
from . import build
from .theme import METHOD_STYLES

#: one colour and dash per loss (smooth_step: one dash per s, see :func:`_smooth_style`)
LOSS_STYLES = {
    "hinge": dict(color="#1f77b4", dash="solid", width=2.5),
    "misclassification": dict(color="black", dash="solid", width=2),
    "deviance": dict(color="#ff7f0e", dash="dash", width=2.5),
    "exponential": dict(color="#2ca02c", dash="dot", width=2.5),
    "sigmoid": dict(color="#d62728", dash="dashdot", width=2),
    "concave_exp": dict(color="#9467bd", dash="longdash", width=2),
    "wahba_v": dict(color="#8c564b", dash="solid", width=3.5),
    "smooth_step": dict(color="#e377c2", dash="longdashdot", width=2),
}
_SMOOTH_DASHES = ("longdashdot", "dash", "dot", "solid", "dashdot")

SHORT = {
    "hinge": "hinge (1−τ)₊",
    "misclassification": "misclassification [−τ]*",
    "deviance": "deviance ln(1 + exp(−τ))",
    "exponential": "exponential exp(−τ)",
    "sigmoid": "sigmoid 1/(1 + exp(aτ))",
    "concave_exp": "[1 − exp(aτ)]₊",
    "wahba_v": "v(τ; ε₊, ε₋)",
    "smooth_step": "θ̃ₛ(1 − τ)",
}

#: criteria of the λ-curve plots: key -> (label, style)
CRITERIA = {
    "gacv": ("GACV (exact, Wahba et al. 2001, eq. 4)", METHOD_STYLES["gacv"]),
    "rangacv": ("ranGACV (mean, Wahba 1998, eq. 1.63)", METHOD_STYLES["rangacv"]),
    "loo_hinge": ("exact LOO V₀, hinge (Wahba 1998, eq. 1.34)", dict(color="#17becf", dash="solid")),
    "gckl": ("GCKL (truth)", METHOD_STYLES["gckl"]),
    "hinge_obs": ("OBS: training hinge (Wahba 1998, eq. 1.36)", dict(color="#7f7f7f", dash="dot")),
    "loo": ("exact LOO misclassification", METHOD_STYLES["loo"]),
    "misclass": ("MISCLASS (truth)", METHOD_STYLES["misclass"]),
}
HINGE_SCALE = ("gckl", "loo_hinge", "gacv", "rangacv", "hinge_obs")
MISCLASS_SCALE = ("misclass", "loo")
#: curves whose minimizer chooses nothing (the training hinge falls as λ → 0)
NO_MINIMIZER = ("hinge_obs",)


def _smooth_style(i: int) -> dict:
    return dict(LOSS_STYLES["smooth_step"], dash=_SMOOTH_DASHES[i % len(_SMOOTH_DASHES)])


def _vline(x: float, line: dict) -> dict:
    """A vertical line at ``x`` across the plot (plotly's ``add_vline`` shape)."""
    return dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain", line=line)


def _hline(y: float, line: dict) -> dict:
    """A horizontal line at ``y`` across the plot (plotly's ``add_hline`` shape)."""
    return dict(type="line", x0=0, x1=1, xref="x domain", y0=y, y1=y, yref="y", line=line)


def _selected_curves(names: Sequence[str], params: dict, s_values: Sequence[float]):
    """(key, loss name, label, params, style) for every curve: one per loss, one per s for θ̃_s."""
    out = []
    for name in names:
        if name not in L.LOSSES:
            raise ValueError(f"unknown loss {name!r}; choose among {', '.join(L.LOSSES)}.")
        if name == "smooth_step":
            if len(s_values) == 0:
                raise ValueError("choose at least one s for the smooth step θ̃ₛ.")
            for i, s in enumerate(s_values):
                prm = dict(params, s=float(s))
                out.append((f"smooth_step_s{float(s):g}", name, f"θ̃ₛ(1 − τ), s = {float(s):g}", prm, _smooth_style(i)))
        else:
            label = SHORT[name]
            if name in ("sigmoid", "concave_exp"):
                label += f", a = {params.get('a', L.DEFAULT_PARAMS['a']):g}"
            if name == "wahba_v":
                label = (f"v(τ; ε₊ = {params.get('eps_plus', L.DEFAULT_PARAMS['eps_plus']):g}, "
                         f"ε₋ = {params.get('eps_minus', L.DEFAULT_PARAMS['eps_minus']):g})")
            out.append((name, name, label, dict(params), dict(LOSS_STYLES[name])))
    return out


# ----------------------------------------------------------------------------------------------
# (1) the losses against τ
# ----------------------------------------------------------------------------------------------
class LossCurves(NamedTuple):
    """Loss values on a τ grid, one row per curve (Wahba 1998, Fig. 1.1).

    Attributes
    ----------
    tau : ndarray of shape (m,)
        The grid of τ = y f(x) (τ = 0 included when the range spans it).
    keys : tuple of str, length k
        One key per curve: the loss's name, ``smooth_step_s<s>`` for each s of the smooth step.
    labels : tuple of str, length k
        The legend's label of each curve.
    values : ndarray of shape (k, m)
        g(τ) of each curve.
    styles : tuple of dict, length k
        Plotly line styles.
    """

    tau: np.ndarray
    keys: tuple
    labels: tuple
    values: np.ndarray
    styles: tuple


def compute_loss_curves(names: Sequence[str], *, tau_range=(-3.0, 3.0), n_points: int = 601,
                        params: dict | None = None, s_values: Sequence[float] = (2.0, 4.0),
                        deviance_scaled: bool = False) -> LossCurves:
    """Every selected loss g(τ) on ``n_points`` values of τ in ``tau_range`` (plus τ = 0 exactly).

    Parameters
    ----------
    names : sequence of str
        Loss names of ``svmviz.losses.LOSSES`` (at least one).
    tau_range : tuple of (float, float), default (-3.0, 3.0)
        The grid's ends, finite, low < high.
    n_points : int, default 601
        Grid points.
    params : dict, optional
        Parameters of the losses (``a``, ``eps_plus``, ``eps_minus``; ``svmviz.losses.DEFAULT_PARAMS``).
    s_values : sequence of float, default (2.0, 4.0)
        One curve of the smooth step θ̃_s(1 − τ) per s (at least one when it is selected).
    deviance_scaled : bool, default False
        Divide the deviance by ln 2 so that it passes through (0, 1) like the others (it then bounds
        [−τ]∗ from above).

    Returns
    -------
    LossCurves
        τ and one row of g(τ) per curve, with labels and styles.

    Raises
    ------
    ValueError
        An unknown loss, no loss, no s for the smooth step, or a bad range.

    See Also
    --------
    plot_loss_curves : Draws the result.
    svmviz.losses.loss_values : The loss values computed here.
    """
    lo, hi = float(tau_range[0]), float(tau_range[1])
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"the τ range must be two finite numbers, low < high; got {tau_range!r}.")
    if not names:
        raise ValueError("choose at least one loss to plot.")
    params = dict(params or {})
    tau = np.union1d(np.linspace(lo, hi, int(n_points)), [0.0] if lo < 0.0 < hi else [])
    keys, labels, vals, styles = [], [], [], []
    for key, name, label, prm, style in _selected_curves(names, params, s_values):
        v = L.loss_values(name, tau, **prm)
        if name == "deviance" and deviance_scaled:
            v = v / np.log(2.0)
            label = label.replace("deviance", "deviance / ln 2")
        keys.append(key)
        labels.append(label)
        vals.append(v)
        styles.append(style)
    return LossCurves(tau, tuple(keys), tuple(labels), np.vstack(vals), tuple(styles))


def plot_loss_curves(lc: LossCurves, *, height: int = 480) -> go.Figure:
    """The selected losses against τ = y f (Wahba 1998, Fig. 1.1).

    Parameters
    ----------
    lc : LossCurves
        From :func:`compute_loss_curves`.
    height : int, default 480
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per curve, the y axis cut at the hinge's largest value, the legend on the right.

    See Also
    --------
    compute_loss_curves : The values drawn here.
    plot_prediction_functions : What each loss's minimizer predicts.
    """
    data = [dict(type="scatter", x=lc.tau, y=v, mode="lines", name=lab, line=dict(st),
                 hovertemplate=f"{lab}<br>τ = %{{x:.3f}}<br>g(τ) = %{{y:.4f}}<extra></extra>")
            for lab, v, st in zip(lc.labels, lc.values, lc.styles)]
    fin = lc.values[np.isfinite(lc.values)]
    bounded = fin[fin <= 1.0 + 1e-12]
    # up to the hinge's largest value (the exponential's e^{−τ} would flatten everything else)
    top = min(float(fin.max()) if fin.size else 1.25, max(1.25, 1.0 - float(lc.tau[0]))) + 0.1
    layout = build.theme({"shapes": [_vline(0.0, dict(color="#bbbbbb", width=1))]},
                         title="Loss functions of τ = y f (Wahba 1998, Fig 1.1)", xtitle="τ = y f(x)",
                         ytitle="loss g(τ)", height=height)
    return build.figure(data, build.merge(layout, {
        "yaxis": {"range": [min(-0.05, float(bounded.min()) - 0.05) if bounded.size else -0.05, top]},
        "legend": dict(orientation="v", y=1.0, x=1.02, xanchor="left", yanchor="top"), "margin": dict(r=250)}))


# ----------------------------------------------------------------------------------------------
# (2) Wahba's prediction functions μ(f) (Wahba 1998, eq. 1.39, Fig. 1.2)
# ----------------------------------------------------------------------------------------------
class PredictionCurves(NamedTuple):
    """Wahba's prediction function μ(f) = g'(f) − g'(−f) on an f grid (Wahba 1998, eq. 1.39, Fig. 1.2).

    Attributes
    ----------
    f : ndarray of shape (m,)
        The grid of f.
    keys : tuple of str, length k
        One key per curve (as in :class:`LossCurves`).
    labels : tuple of str, length k
        The legend's label of each curve.
    mu : ndarray of shape (k, m)
        μ(f) of each curve.
    styles : tuple of dict, length k
        Plotly line styles.
    """

    f: np.ndarray
    keys: tuple
    labels: tuple
    mu: np.ndarray
    styles: tuple


def compute_prediction_functions(names: Sequence[str], *, f_range=(-3.0, 3.0), n_points: int = 601,
                                 params: dict | None = None, s_values: Sequence[float] = (2.0, 4.0)) -> PredictionCurves:
    """Wahba's μ(f) = g'(f) − g'(−f) (Wahba 1998, eq. 1.39) for each selected loss on ``n_points`` values of f.

    Parameters
    ----------
    names : sequence of str
        Loss names of ``svmviz.losses.LOSSES`` (at least one).
    f_range : tuple of (float, float), default (-3.0, 3.0)
        The grid's ends, finite, low < high.
    n_points : int, default 601
        Grid points.
    params : dict, optional
        Parameters of the losses (``svmviz.losses.DEFAULT_PARAMS``).
    s_values : sequence of float, default (2.0, 4.0)
        One curve of the smooth step per s.

    Returns
    -------
    PredictionCurves
        f and one row of μ(f) per curve, with labels and styles.

    Raises
    ------
    ValueError
        An unknown loss, no loss, or a bad range.

    See Also
    --------
    plot_prediction_functions : Draws the result.
    svmviz.losses.prediction_function : The μ(f) computed here.
    """
    lo, hi = float(f_range[0]), float(f_range[1])
    if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
        raise ValueError(f"the f range must be two finite numbers, low < high; got {f_range!r}.")
    if not names:
        raise ValueError("choose at least one loss.")
    f = np.linspace(lo, hi, int(n_points))
    keys, labels, mus, styles = [], [], [], []
    for key, name, label, prm, style in _selected_curves(names, dict(params or {}), s_values):
        keys.append(key)
        labels.append(label)
        mus.append(L.prediction_function(name, f, **prm))
        styles.append(style)
    return PredictionCurves(f, tuple(keys), tuple(labels), np.vstack(mus), tuple(styles))


def plot_prediction_functions(pc: PredictionCurves, *, height: int = 560) -> go.Figure:
    """μ(f) against f (Wahba 1998, Fig. 1.2).

    Parameters
    ----------
    pc : PredictionCurves
        From :func:`compute_prediction_functions`.
    height : int, default 560
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per curve, dotted lines at μ = ±1; the y axis is cut at ±1.6 (the exponential loss's
        2 sinh f leaves it).

    See Also
    --------
    compute_prediction_functions : The values drawn here.
    plot_loss_curves : The losses themselves.
    """
    data = [dict(type="scatter", x=pc.f, y=mu, mode="lines", name=lab, line=dict(st),
                 hovertemplate=f"{lab}<br>f = %{{x:.3f}}<br>μ(f) = %{{y:.4f}}<extra></extra>")
            for lab, mu, st in zip(pc.labels, pc.mu, pc.styles)]
    shapes = [_hline(yv, dict(color="#bbbbbb", width=1, dash="dot")) for yv in (-1.0, 1.0)]
    title = "Prediction functions<br>μ(f) = g′(f) − g′(−f)<br>(Wahba 1998, Fig 1.2)"
    layout = build.theme({"shapes": shapes}, title=title,
                         xtitle="f", ytitle="μ(f)", height=height)
    # title lines of at most ~30 characters: the chart gets half a row (~270 px at 1024 px)
    return build.figure(data, build.merge(layout, {"yaxis": {"range": [-1.6, 1.6]}, "margin": dict(t=build.title_top(title), b=150),
                                                   "legend": dict(orientation="h", y=-0.2, x=0, xanchor="left",
                                                                  yanchor="top")}))


# ----------------------------------------------------------------------------------------------
# (3) population minimizers f*(p): what f estimates
# ----------------------------------------------------------------------------------------------
class MinimizerCurves(NamedTuple):
    """The population minimizer f*(p) of each loss on a p grid, possibly ±inf.

    Attributes
    ----------
    p : ndarray of shape (m,)
        The grid of p = P(y = +1 | x) over [0, 1] (p = ½ included).
    keys : tuple of str, length k
        One key per curve (as in :class:`LossCurves`).
    labels : tuple of str, length k
        The legend's label of each curve.
    f : ndarray of shape (k, m)
        f*(p) = argmin_f p g(f) + (1 − p) g(−f).
    lo, hi : ndarray of shape (k, m)
        The ends of the whole set of minimizers (equal to ``f`` where the minimizer is unique).
    styles : tuple of dict, length k
        Plotly line styles.
    """

    p: np.ndarray
    keys: tuple
    labels: tuple
    f: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    styles: tuple


def compute_population_minimizers(names: Sequence[str], *, n_points: int = 201, params: dict | None = None,
                                  s_values: Sequence[float] = (2.0, 4.0)) -> MinimizerCurves:
    """argmin_f p g(f) + (1 − p) g(−f) for p on a grid of [0, 1] (p = ½ included), per selected loss.

    Parameters
    ----------
    names : sequence of str
        Loss names of ``svmviz.losses.LOSSES`` (at least one).
    n_points : int, default 201
        Grid points of p.
    params : dict, optional
        Parameters of the losses (``svmviz.losses.DEFAULT_PARAMS``).
    s_values : sequence of float, default (2.0, 4.0)
        One curve of the smooth step per s.

    Returns
    -------
    MinimizerCurves
        p and, per curve, f*(p) and the ends of its set of minimizers.

    Raises
    ------
    ValueError
        An unknown loss, or no loss.

    See Also
    --------
    plot_population_minimizers : Draws the result.
    svmviz.losses.population_minimizer : The minimizer computed here.
    """
    if not names:
        raise ValueError("choose at least one loss.")
    p = np.union1d(np.linspace(0.0, 1.0, int(n_points)), [0.5])
    keys, labels, fs, los, his, styles = [], [], [], [], [], []
    for key, name, label, prm, style in _selected_curves(names, dict(params or {}), s_values):
        m = L.population_minimizer(name, p, **prm)
        keys.append(key)
        labels.append(label)
        fs.append(m.f)
        los.append(m.lo)
        his.append(m.hi)
        styles.append(style)
    return MinimizerCurves(p, tuple(keys), tuple(labels), np.vstack(fs), np.vstack(los), np.vstack(his), tuple(styles))


def _fmt_f(v: float) -> str:
    return "+∞" if v == np.inf else ("−∞" if v == -np.inf else f"{v:.3f}")


def plot_population_minimizers(mc: MinimizerCurves, *, clip: float = 3.0, height: int = 560) -> go.Figure:
    """f*(p) against p; ±∞ is drawn at ±``clip``.

    Parameters
    ----------
    mc : MinimizerCurves
        From :func:`compute_population_minimizers`.
    clip : float, default 3.0
        Values beyond ±clip (±∞ included) are drawn at ±clip; the hover gives the true value and the
        whole set of minimizers.
    height : int, default 560
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per curve, a dotted line at p = ½.

    See Also
    --------
    compute_population_minimizers : The values drawn here.
    """
    data = []
    for lab, f, lo, hi, st in zip(mc.labels, mc.f, mc.lo, mc.hi, mc.styles):
        shown = np.clip(f, -clip, clip)
        text = [f"f* = {_fmt_f(a)}" + ("" if lo_ == hi_ else f"; minimizers from {_fmt_f(lo_)} to {_fmt_f(hi_)}")
                for a, lo_, hi_ in zip(f, lo, hi)]
        data.append(dict(type="scatter", x=mc.p, y=shown, mode="lines", name=lab, line=dict(st), text=text,
                         hovertemplate=f"{lab}<br>p = %{{x:.3f}}<br>%{{text}}<extra></extra>"))
    title = "What f estimates: f*(p) =<br>the f minimizing<br>p·g(f) + (1−p)·g(−f)"
    layout = build.theme({"shapes": [_vline(0.5, dict(color="#bbbbbb", width=1, dash="dot"))]}, title=title,
                         xtitle="p = P(y = +1 | x)", ytitle=f"f*(p) (±∞ drawn at ±{clip:g})", height=height)
    return build.figure(data, build.merge(layout, {"yaxis": {"range": [-clip - 0.2, clip + 0.2]},
                                                   "margin": dict(t=build.title_top(title), b=150),
                                                   "legend": dict(orientation="h", y=-0.2, x=0, xanchor="left",
                                                                  yanchor="top")}))


# ----------------------------------------------------------------------------------------------
# (4) GACV, ranGACV and leave-one-out along λ
# ----------------------------------------------------------------------------------------------
class CriteriaPanel(NamedTuple):
    """Criteria curves over log10 λ, ready to draw (Wahba et al. 2001, Figs. 1–2).

    Attributes
    ----------
    log_lambda : ndarray of shape (m,)
        log10 of the λ grid.
    curves : dict of str to (str, ndarray of shape (m,))
        ``curves[key]`` = (label, values) of each criterion drawn.
    replicates : ndarray of shape (R, m) or None
        The ranGACV replicates, when ranGACV is drawn.
    band_lo, band_hi : ndarray of shape (m,) or None
        Their minimum and maximum at each λ.
    best : dict of str to (float, float)
        ``best[key]`` = (log10 λ, value) of each curve's minimizer (not for the curves that have none).
    y_range : tuple of (float, float)
        The y axis's range: every curve but the exact GACV's small-λ values, whose minimum is kept.
    """

    log_lambda: np.ndarray
    curves: dict
    replicates: np.ndarray | None
    band_lo: np.ndarray | None
    band_hi: np.ndarray | None
    best: dict
    y_range: tuple


def compute_criteria_panel(gc: GacvCurves, keys: Sequence[str]) -> CriteriaPanel:
    """The curves of ``keys`` that ``gc`` holds and the ranGACV spread, ready to draw.

    Parameters
    ----------
    gc : GacvCurves
        Criteria along λ, from :func:`svmviz.losses.gacv_curves`.
    keys : sequence of str
        The criteria to draw (keys of ``gc.values``; the others are skipped).

    Returns
    -------
    CriteriaPanel
        log10 λ, the curves, the ranGACV band and each curve's minimizer.

    Raises
    ------
    ValueError
        None of ``keys`` is in ``gc``.

    See Also
    --------
    plot_criteria_panel : Draws the result.
    """
    ll = np.log10(gc.lambdas)
    curves = {k: (CRITERIA[k][0], np.asarray(gc.values[k])) for k in keys if k in gc.values}
    if not curves:
        raise ValueError("none of the requested criteria were computed.")
    reps = lo = hi = None
    if "rangacv" in curves and gc.rangacv_replicates is not None:
        reps = np.asarray(gc.rangacv_replicates)
        lo, hi = reps.min(axis=0), reps.max(axis=0)
    best = {k: (float(ll[int(np.nanargmin(v))]), float(np.nanmin(v))) for k, (_, v) in curves.items()
            if k not in NO_MINIMIZER}
    # y range: everything but the exact GACV, whose small-λ values can be 100 times larger
    ref = [v for k, (_, v) in curves.items() if k != "gacv"] + ([hi, lo] if reps is not None else [])
    if "gacv" in curves:
        ref.append(np.array([best["gacv"][1]]))
    allv = np.concatenate([np.ravel(r) for r in ref]) if ref else np.concatenate([v for _, v in curves.values()])
    allv = allv[np.isfinite(allv)]
    ymin, ymax = float(allv.min()), float(allv.max())
    pad = 0.08 * max(ymax - ymin, 1e-3)
    return CriteriaPanel(ll, curves, reps, lo, hi, best, (min(0.0, ymin - pad), ymax + pad))


def plot_criteria_panel(cp: CriteriaPanel, *, title: str, ytitle: str, height: int = 460) -> go.Figure:
    """Criteria against log10 λ with their minimizers starred; ranGACV: mean, min–max band, replicates.

    Parameters
    ----------
    cp : CriteriaPanel
        From :func:`compute_criteria_panel`.
    title : str
        The figure's title.
    ytitle : str
        The y axis's title.
    height : int, default 460
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        One line per criterion over log10 λ, each minimizer starred.

    See Also
    --------
    compute_criteria_panel : The values drawn here.
    """
    data = []
    x = cp.log_lambda
    if cp.replicates is not None:
        col = METHOD_STYLES["rangacv"]["color"]
        data.append(dict(type="scatter", x=np.r_[x, x[::-1]], y=np.r_[cp.band_hi, cp.band_lo[::-1]], fill="toself",
                         fillcolor="rgba(227,119,194,0.15)", line=dict(width=0), mode="lines",
                         name=f"ranGACV: min–max over {cp.replicates.shape[0]} replicates", hoverinfo="skip"))
        for r, rep in enumerate(cp.replicates):
            data.append(dict(type="scatter", x=x, y=rep, mode="lines", line=dict(color=col, width=1), opacity=0.35,
                             name="ranGACV replicates", legendgroup="reps", showlegend=r == 0,
                             hovertemplate=f"replicate {r + 1}<br>log10 λ = %{{x:.2f}}<br>"
                                           "ranGACV = %{y:.4f}<extra></extra>"))
    for k, (lab, v) in cp.curves.items():
        st = dict(CRITERIA[k][1])
        data.append(dict(type="scatter", x=x, y=v, mode="lines+markers", name=lab, legendgroup=k,
                         line=dict(color=st.get("color"), dash=st.get("dash"), width=2.5),
                         marker=dict(size=4, color=st.get("color")),
                         hovertemplate=f"{lab}<br>log10 λ = %{{x:.2f}}<br>value = %{{y:.4f}}<extra></extra>"))
        if k not in cp.best:
            continue
        bx, by = cp.best[k]
        data.append(dict(type="scatter", x=[bx], y=[by], mode="markers", legendgroup=k, showlegend=False,
                         marker=dict(symbol="star", size=15, color=st.get("color"),
                                     line=dict(color="black", width=1)),
                         name=f"min {lab}",
                         hovertemplate=f"minimizer of {lab}<br>log10 λ = {bx:.2f}<br>value = {by:.4f}"
                                       "<extra></extra>"))
    layout = build.theme({}, title=title, xtitle="log10 λ", ytitle=ytitle, height=height)
    # the legend at the bottom of the figure (container coordinates), under the axis title: placed a
    # fraction of the plot's height below the plot, it would run over "log10 λ" at the page's heights
    # room above the plot for each line of the title (the page's titles take two or three lines)
    return build.figure(data, build.merge(layout, {
        "yaxis": {"range": list(cp.y_range)}, "margin": dict(t=build.title_top(title), b=140),
        "legend": dict(orientation="h", yref="container", y=0.0, x=0, xanchor="left", yanchor="bottom")}))
