"""Figures of the "Tuning criteria" page (Wahba et al. 2001, Figs. 1–2): data first, then pixels."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from ..published import WAHBA2001_INEFFICIENCY, range_text
from ..tuning import CriteriaSurface, InefficiencyStudy, criterion_label, grid_decision_function, inefficiency
from .theme import CLASS_COLORS, METHOD_STYLES, apply_theme

MARKERS = {"gacv": "star", "xa": "diamond", "xa_j": "triangle-up", "gckl": "square", "misclass": "circle",
           "loo": "x", "selected": "cross"}


def _style_key(key: str, L) -> str:
    nonstd = tuple(map(float, L)) != (1.0, 1.0)
    if nonstd and key in ("xa", "misclass"):
        return "br" + key
    return key


class ContourData(NamedTuple):
    """One criterion over (log10 σ, log10 λ): ``z`` (n_sigma, n_lambda) and every criterion's minimizer."""

    key: str
    label: str
    log_lambda: np.ndarray
    log_sigma: np.ndarray
    z: np.ndarray
    minimizers: dict  # key -> (log10 λ, log10 σ, label)
    tie_points: np.ndarray  # (k, 2) of (log10 λ, log10 σ) for this criterion's tied minima


def compute_contour(surface: CriteriaSurface, key: str) -> ContourData:
    """The surface of ``key`` and the grid minimizers of every criterion the surface holds."""
    ll, ls = np.log10(surface.lambdas), np.log10(surface.sigmas)
    mins = {}
    for k, (i, j) in surface.best.items():
        mins[k] = (float(ll[j]), float(ls[i]), criterion_label(k, surface.L))
    t = surface.ties[key]
    ties = np.c_[ll[t[:, 1]], ls[t[:, 0]]]
    return ContourData(key, criterion_label(key, surface.L), ll, ls, surface.values[key], mins, ties)


def plot_contour(cd: ContourData, *, selected: tuple | None = None, overlay=("gacv", "xa", "misclass", "loo"),
                 height: int = 380) -> go.Figure:
    """Contour of one criterion over (log10 λ, log10 σ) with its minimizer and the others' overlaid."""
    fig = go.Figure()
    lo, hi = color_range(cd.z)
    clipped = hi < np.nanmax(cd.z)
    fig.add_trace(go.Contour(
        x=cd.log_lambda, y=cd.log_sigma, z=cd.z, colorscale="Viridis", ncontours=25,
        zmin=lo, zmax=hi, zauto=False, contours=dict(start=lo, end=hi, size=(hi - lo) / 25 or 1.0),
        colorbar=dict(title=dict(text=cd.label + (" (colour clipped)" if clipped else ""), side="right"),
                      thickness=12),
        hovertemplate="log10 λ = %{x:.2f}<br>log10 σ = %{y:.2f}<br>" + cd.label + " = %{z:.4f}<extra></extra>",
        name=cd.label, showlegend=False,
    ))
    if len(cd.tie_points) > 1:
        fig.add_trace(go.Scatter(x=cd.tie_points[:, 0], y=cd.tie_points[:, 1], mode="markers",
                                 marker=dict(symbol="circle-open", size=9, color="white"),
                                 name=f"{cd.label}: tied minima", hoverinfo="skip"))
    for k in tuple(o for o in overlay if o != cd.key) + (cd.key,):
        if k not in cd.minimizers:
            continue
        x, y, lab = cd.minimizers[k]
        own = k == cd.key
        style = METHOD_STYLES.get(k, {})
        fig.add_trace(go.Scatter(
            x=[x], y=[y], mode="markers",
            marker=dict(symbol=MARKERS.get(k, "circle"), size=16 if own else 11,
                        color="white" if own else style.get("color", "black"),
                        line=dict(color="black", width=1.5)),
            name=f"min {lab}" + (" (this plot)" if own else ""),
            hovertemplate=f"minimizer of {lab}<br>log10 λ = {x:.2f}<br>log10 σ = {y:.2f}<extra></extra>",
        ))
    if selected is not None:
        fig.add_trace(go.Scatter(x=[selected[0]], y=[selected[1]], mode="markers",
                                 marker=dict(symbol="cross-thin", size=18, line=dict(color="red", width=3)),
                                 name="selected (λ, σ)", hoverinfo="skip"))
    apply_theme(fig, title=cd.label, xtitle="log10 λ", ytitle="log10 σ", height=height)
    fig.update_layout(legend=dict(orientation="h", y=-0.25, x=0, xanchor="left", yanchor="top"),
                      margin=dict(b=90))
    return fig


def color_range(z) -> tuple[float, float]:
    """Colour limits that show the valley: GACV grows like 1/λ at tiny λ, so when the surface spans
    more than a factor 4 the top is clipped at its 60th percentile (hover still shows true values)."""
    lo, hi = float(np.nanmin(z)), float(np.nanmax(z))
    if lo > 0 and hi > 4 * lo:
        hi = max(float(np.nanquantile(z, 0.6)), lo * 1.05)
    if hi <= lo:
        hi = lo + (abs(lo) * 1e-3 or 1e-3)
    return lo, hi


class DecisionCurves(NamedTuple):
    """Decision functions on a 2-D mesh: ``fields[name]`` (ny, nx) is zero on that curve."""

    xs: np.ndarray
    ys: np.ndarray
    fields: dict  # label -> (style key, (ny, nx) values whose zero level is the curve)
    X: np.ndarray
    y: np.ndarray
    selected_label: str | None
    selected_field: np.ndarray | None  # f of the selected grid point (margins at ±1)
    support: np.ndarray | None  # bool mask of the selected point's support vectors


def compute_decision_curves(surface: CriteriaSurface, chosen: dict, *, p_true=None, threshold: float = 0.5,
                            selected: tuple | None = None, resolution: int = 120, pad: float = 0.6) -> DecisionCurves:
    """Zero-level fields of the Bayes rule and of each criterion's chosen solution on a mesh.

    ``chosen`` maps a criterion key to its grid point (i_sigma, j_lambda); ``selected`` is one more
    grid point (its margins f = ±1 and support vectors are kept too).
    """
    X = surface.X
    if X.shape[1] != 2:
        raise ValueError("decision curves need two-dimensional data.")
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    xs = np.linspace(lo[0], hi[0], resolution)
    ys = np.linspace(lo[1], hi[1], resolution)
    mesh = np.c_[np.repeat(xs[None, :], resolution, 0).ravel(), np.repeat(ys[:, None], resolution, 1).ravel()]
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
    return DecisionCurves(xs, ys, fields, X, surface.y, label, sel_f, support)


def plot_decision_curves(dc: DecisionCurves, *, title: str = "Decision curves", height: int = 560,
                         feature_names=("x1", "x2")) -> go.Figure:
    fig = go.Figure()
    for cls, name in ((-1.0, "class −1"), (1.0, "class +1")):
        m = dc.y == cls
        fig.add_trace(go.Scatter(
            x=dc.X[m, 0], y=dc.X[m, 1], mode="markers", name=name,
            marker=dict(color=CLASS_COLORS[int(cls)], size=6, symbol="circle" if cls > 0 else "circle-open",
                        line=dict(width=1.2, color=CLASS_COLORS[int(cls)])),
            hovertemplate=f"{name}<br>{feature_names[0]} = %{{x:.3f}}<br>{feature_names[1]} = %{{y:.3f}}<extra></extra>",
        ))
    if dc.support is not None and dc.support.any():
        fig.add_trace(go.Scatter(
            x=dc.X[dc.support, 0], y=dc.X[dc.support, 1], mode="markers", name="support vectors (selected)",
            marker=dict(size=11, color="rgba(0,0,0,0)", line=dict(width=1.3, color="black")),
            hoverinfo="skip",
        ))
    for label, (style_key, field) in dc.fields.items():
        _zero_line(fig, dc.xs, dc.ys, field, 0.0, label, METHOD_STYLES.get(style_key, {}), width=3)
    if dc.selected_field is not None:
        sty = dict(color="red", dash="solid")
        _zero_line(fig, dc.xs, dc.ys, dc.selected_field, 0.0, dc.selected_label, sty, width=2)
        for lev in (-1.0, 1.0):
            _zero_line(fig, dc.xs, dc.ys, dc.selected_field, lev, f"margin f = {lev:+.0f} (selected)",
                       dict(color="red", dash="dot"), width=1, legend=lev > 0)
    apply_theme(fig, title=title, xtitle=feature_names[0], ytitle=feature_names[1], height=height)
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    fig.update_layout(legend=dict(orientation="v", x=1.02, xanchor="left", y=1.0, yanchor="top"),
                      margin=dict(r=10))
    return fig


def _zero_line(fig, xs, ys, field, level, name, style, width=2, legend=True):
    """A single contour line of ``field`` at ``level`` drawn as a legend-bearing trace."""
    if not (np.nanmin(field) < level < np.nanmax(field)):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=f"{name} (no crossing in view)",
                                 line=dict(color=style.get("color", "black"), dash=style.get("dash", "solid"))))
        return
    fig.add_trace(go.Contour(
        x=xs, y=ys, z=field, showscale=False, name=name, showlegend=legend,
        contours=dict(start=level, end=level, size=1.0, coloring="none"),
        line=dict(color=style.get("color", "black"), dash=style.get("dash", "solid"), width=width),
        hoverinfo="skip", legendgroup=name,
    ))


def _published_text(mode: str, key: str) -> str:
    """Wahba et al. (2001, §6)'s inefficiency of criterion ``key`` as text, "—" where the paper has none."""
    pub = WAHBA2001_INEFFICIENCY[mode].get(key)
    return "—" if pub is None else range_text(*pub)


class InefficiencyRow(NamedTuple):
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
    """One row per criterion the surface holds: chosen (λ, σ), target there, inefficiency (tie range)."""
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
    """Distribution over repetitions of each criterion's inefficiency, with the published values."""
    fig = go.Figure()
    mode = "standard" if tuple(map(float, L)) == (1.0, 1.0) else "nonstandard"
    for k in study.criteria:
        lab = criterion_label(k, L)
        fig.add_trace(go.Box(y=study.value[k], name=lab, boxpoints="all", jitter=0.4, pointpos=0,
                             marker=dict(color=METHOD_STYLES.get(_style_key(k, L), {}).get("color", "gray")),
                             hovertemplate=lab + " inefficiency %{y:.4f}<extra></extra>"))
        pub = WAHBA2001_INEFFICIENCY[mode].get(k)
        if pub:
            fig.add_trace(go.Scatter(x=[lab], y=[pub[0]], mode="markers", name=f"published {lab} ({range_text(*pub)})",
                                     marker=dict(symbol="line-ew-open", size=40, line=dict(width=3, color="black"))))
    apply_theme(fig, title=f"Inefficiency over {len(study.seeds)} simulated data sets",
                xtitle="criterion", ytitle=f"{criterion_label(study.target, L)}(chosen) / min", height=height)
    return fig
