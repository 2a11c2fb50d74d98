"""Figures of criteria studies: distributions over replicates with the published values, and costs.

``compute_*`` turn a results table (:mod:`svmviz.studies.results`) into arrays; ``plot_*`` draw them.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from . import build
from .theme import LEGEND_BELOW, METHOD_STYLES

#: axis titles of the metrics a distribution can show
METRIC_LABELS = {
    "inefficiency": "(BR)MISCLASS(chosen) / grid minimum",
    "test_error": "test error of the chosen model",
    "test_inefficiency": "test error / best grid point's",
    "machine_size": "machine size (support vectors, import points, prototypes)",
    "threshold": "threshold Th = −b/w",
    "tune_error": "tuning-set error",
    "seconds": "seconds per replicate",
}
#: figure titles (followed by "over R replicates")
METRIC_TITLES = {"inefficiency": "Inefficiency", "test_inefficiency": "Inefficiency on held-out rows",
                 "test_error": "Test error of the chosen model",
                 "machine_size": "Machine size", "threshold": "Threshold Th = −b/w", "tune_error": "Tuning-set error",
                 "seconds": "Seconds"}
#: criteria that only studies show (black is kept for the published values)
_STUDY_COLORS = {"kfold": "#555555", "xa_j": "#bcbd22"}
_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
            "#17becf")


def criterion_color(key: str, index: int = 0) -> str:
    """The colour of a criterion or machine: the theme's where it has one, else a palette colour.

    Parameters
    ----------
    key : str
        The criterion's or machine's key ("gacv", "xa", "loo"…).
    index : int, default 0
        Its position, which picks the palette colour of a key the theme has none for.

    Returns
    -------
    str
        A CSS colour.
    """
    if key in _STUDY_COLORS:
        return _STUDY_COLORS[key]
    style = METHOD_STYLES.get(key) or METHOD_STYLES.get(key.lower())
    if style:
        return style["color"]
    return _PALETTE[index % len(_PALETTE)]


class DistributionData(NamedTuple):
    """One metric over replicates, per data set and criterion (from :func:`compute_distribution`).

    Attributes
    ----------
    metric, metric_label : str
    datasets : tuple of str
        Data set labels, in spec order.
    criteria : tuple of str
        Criterion / machine keys, in table order.
    labels : dict of str to str
        Display name of each key.
    values : dict of (dataset, criterion) to ndarray of shape (R,)
        The metric per replicate (NaN dropped).
    replicates : dict of (dataset, criterion) to ndarray of int, shape (R,)
    published : list of tuple
        (dataset, criterion, value, low, high, sd, text) of the published numbers of this metric.
    bayes : dict of str to float
        Bayes error per data set where known (for test errors).
    """

    metric: str
    metric_label: str
    datasets: tuple
    criteria: tuple
    labels: dict
    values: dict
    replicates: dict
    published: list
    bayes: dict


def compute_distribution(table: pd.DataFrame, metric: str, published: pd.DataFrame | None = None,
                         *, datasets=None) -> DistributionData:
    """The values of ``metric`` per data set and criterion, and the published ones beside them.

    Parameters
    ----------
    table : pandas.DataFrame
        A results table.
    metric : str
        A numeric column ("inefficiency", "test_error", "machine_size", …).
    published : pandas.DataFrame, optional
        :func:`svmviz.published.published_table` rows (matched on generator name and criterion).
    datasets : sequence of str, optional
        Only these data set labels.

    Returns
    -------
    DistributionData
    """
    if metric not in table.columns:
        raise ValueError(f"the results table has no column {metric!r}.")
    t = table if datasets is None else table[table["dataset"].isin(list(datasets))]
    t = t[t[metric].notna()]
    ds_order = tuple(t.sort_values("dataset_index")["dataset"].drop_duplicates())
    crit_order = tuple(t["criterion"].drop_duplicates())
    labels = dict(zip(t["criterion"], t["label"]))
    values, reps = {}, {}
    for (ds, c), g in t.groupby(["dataset", "criterion"], sort=False):
        values[(ds, c)] = g[metric].to_numpy(float)
        reps[(ds, c)] = g["replicate"].to_numpy(int)
    pub = []
    if published is not None and not published.empty:
        names = dict(zip(t["dataset"], t["dataset_name"]))
        for ds in ds_order:
            rows = published[(published["dataset_name"] == names[ds]) & (published["metric"] == metric)]
            for _, r in rows.iterrows():
                if (ds, r["criterion"]) in values:
                    pub.append((ds, r["criterion"], float(r["value"]), float(r["low"]), float(r["high"]),
                                float(r["sd"]), str(r["text"])))
    bayes = {}
    if metric == "test_error":
        for ds, g in t.groupby("dataset"):
            b = g["bayes_error"].dropna()
            if not b.empty:
                bayes[ds] = float(b.iloc[0])
    return DistributionData(metric, METRIC_LABELS.get(metric, metric), ds_order, crit_order, labels, values, reps,
                            pub, bayes)


def plot_distribution(dd: DistributionData, *, title: str | None = None, height: int = 460) -> go.Figure:
    """Box and strip plot per data set (one panel each) and criterion, published values as black bars.

    A published single value is a black horizontal bar; a published range or ± sd is drawn as an
    error bar on it. The Bayes error (test errors, where known) is a dotted line.

    Parameters
    ----------
    dd : DistributionData
        From :func:`compute_distribution`.
    title : str, optional
        The figure's title; default: what the values are.
    height : int, default 460
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        One panel per data set sharing the y axis, one box of replicates per criterion.

    See Also
    --------
    compute_distribution : The values drawn here.
    """
    n_ds = max(1, len(dd.datasets))
    grid = build.subplot_grid(1, n_ds, list(dd.datasets), shared_yaxes=True,
                              horizontal_spacing=0.04 if n_ds > 1 else 0.0)
    data, shapes, notes = [], [], []
    shown = set()
    for col, ds in enumerate(dd.datasets, start=1):
        axes = grid.trace_axes(1, col)
        n_before = len(data)
        for ci, c in enumerate(dd.criteria):
            v = dd.values.get((ds, c))
            if v is None or v.size == 0:
                continue
            lab = dd.labels[c]
            data.append(dict(
                type="box", x=[lab] * v.size, y=v, name=lab, legendgroup=c, showlegend=c not in shown,
                boxpoints="all", jitter=0.4, pointpos=0, marker=dict(color=criterion_color(c, ci), size=5),
                line=dict(width=1.5), customdata=dd.replicates[(ds, c)],
                hovertemplate=f"{ds}, {lab}<br>{dd.metric}: %{{y:.4g}}<br>replicate %{{customdata}}<extra></extra>",
                **axes))
            shown.add(c)
        for (pds, c, val, lo, hi, sd, text) in dd.published:
            if pds != ds:
                continue
            err = None
            if np.isfinite(lo) and np.isfinite(hi) and hi > lo:
                err = dict(type="data", symmetric=False, array=[hi - val], arrayminus=[val - lo], color="black",
                           thickness=2, width=10)
            elif np.isfinite(sd) and sd > 0:
                err = dict(type="data", array=[sd], color="black", thickness=2, width=10)
            trace = dict(
                type="scatter", x=[dd.labels[c]], y=[val], mode="markers", name="published",
                legendgroup="published", showlegend="published" not in shown,
                marker=dict(symbol="line-ew-open", size=34, line=dict(width=3, color="black"), color="black"),
                hovertemplate=f"{ds}, {dd.labels[c]}<br>published: {text}<extra></extra>", **axes)
            if err is not None:
                trace["error_y"] = err
            data.append(trace)
            shown.add("published")
        if ds in dd.bayes and len(data) > n_before:  # a line across the panel (a panel without traces shows none)
            xref, yref = f"{axes['xaxis']} domain", axes["yaxis"]
            y = dd.bayes[ds]
            shapes.append(dict(type="line", x0=0, x1=1, xref=xref, y0=y, y1=y, yref=yref,
                               line=dict(color="gray", dash="dot")))
            notes.append(dict(text="Bayes error", showarrow=False, x=0, xanchor="left", xref=xref, y=y,
                              yanchor="top", yref=yref))
    layout = grid.layout
    if shapes:
        layout["shapes"] = shapes
        layout["annotations"] = list(layout.get("annotations", ())) + notes
    n_rep = max((v.size for v in dd.values.values()), default=0)
    build.theme(layout, title=title or f"{METRIC_TITLES.get(dd.metric, dd.metric)} over {n_rep} replicates",
                ytitle=dd.metric_label, height=height)
    xaxes = [k for k in layout if k.startswith("xaxis")] or ["xaxis"]
    for k in xaxes:
        if n_ds > 1:  # several panels: the legend names the boxes (and the hover does)
            build.merge(layout.setdefault(k, {}), {"showticklabels": False})
        else:
            build.merge(layout.setdefault(k, {}), {"tickangle": 0, "automargin": True})
    return build.figure(data, build.merge(layout, LEGEND_BELOW))


class CostData(NamedTuple):
    """Seconds per replicate of each criterion, and relative to one GACV surface (from :func:`compute_costs`).

    Attributes
    ----------
    criteria : tuple of str
    labels : tuple of str
    median_seconds : ndarray of shape (c,)
        Median over replicates and data sets.
    relative : ndarray of shape (c,)
        Median over replicates of seconds / the same replicate's GACV seconds (NaN without GACV).
    """

    criteria: tuple
    labels: tuple
    median_seconds: np.ndarray
    relative: np.ndarray


def compute_costs(table: pd.DataFrame) -> CostData:
    """What each criterion of a study's [svm] section costs, per replicate and against one GACV surface.

    GACV, XA, XA (Joachims' R²), GCKL and MISCLASS come from the same fits and share their time; exact LOO adds
    its refits to those fits; k-fold CV and the randomized GACV run their own fits.

    Parameters
    ----------
    table : pandas.DataFrame
        A study's results table (:mod:`svmviz.studies`; columns "family", "criterion", "label",
        "dataset_index", "replicate", "seconds").

    Returns
    -------
    CostData
        Per criterion of the [svm] section: the median seconds per replicate and the median ratio to
        GACV's seconds on the same replicate.

    See Also
    --------
    plot_costs : Draws the result.
    """
    t = table[table["family"] == "svm"]
    crit = tuple(t["criterion"].drop_duplicates())
    labels = tuple(t.drop_duplicates("criterion")["label"])
    med, rel = [], []
    base = t[t["criterion"] == "gacv"].set_index(["dataset_index", "replicate"])["seconds"]
    for c in crit:
        s = t[t["criterion"] == c].set_index(["dataset_index", "replicate"])["seconds"]
        med.append(float(s.median()) if not s.empty else np.nan)
        both = pd.concat([s, base], axis=1, keys=["c", "g"]).dropna()
        rel.append(float((both["c"] / both["g"]).median()) if not both.empty else np.nan)
    return CostData(crit, labels, np.asarray(med), np.asarray(rel))


def plot_costs(cd: CostData, *, height: int = 360) -> go.Figure:
    """Bar chart of each criterion's cost relative to one GACV surface (log axis), seconds in the hover.

    Parameters
    ----------
    cd : CostData
        From :func:`compute_costs`.
    height : int, default 360
        Figure height in pixels.

    Returns
    -------
    plotly.graph_objects.Figure
        One bar per criterion on a log axis.

    See Also
    --------
    compute_costs : The values drawn here.
    """
    data = [dict(type="bar", x=list(cd.labels), y=cd.relative,
                 marker=dict(color=[criterion_color(c, i) for i, c in enumerate(cd.criteria)]),
                 customdata=cd.median_seconds, name="cost",
                 hovertemplate="%{x}: %{y:.3g} × one GACV surface<br>median %{customdata:.3g} s per replicate"
                               "<extra></extra>")]
    layout = build.theme({}, title="Cost of each criterion per replicate, relative to one GACV surface<br><sup>timed "
                         "warm: each worker runs the criteria once, untimed, on 12 points first (numba compiles "
                         "then)</sup>", xtitle="criterion", ytitle="seconds / seconds of GACV (log axis)",
                         height=height, legend=False)
    # every decade's labels the same size (Plotly's own log ticks write the minor ones smaller)
    return build.figure(data, build.merge(layout, {"yaxis": {"type": "log", **build.log_ticks(cd.relative)}}))
