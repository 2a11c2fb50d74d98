"""The IVM page's figures: its maps send their contour lines as lines, no ``go.Contour`` trace (each would
send its whole grid and leave the browser to trace it), the lines where closed forms put them, the legend
and hover kept; the "Hₖ along the greedy steps" chart's ticks fall on whole steps."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz.figures import ivm as fig_ivm

G = 81
GX = np.linspace(-2.0, 2.0, G)
GY = np.linspace(-1.5, 2.5, G)
XX, YY = np.meshgrid(GX, GY)  # [i, j] = (gx[j], gy[i]), the maps' layout
X = np.array([[-1.0, 0.0], [1.0, 1.0], [0.5, -1.0], [-0.5, 2.0]])
Y = np.array([-1.0, 1.0, 1.0, -1.0])


def _lines(fig, name_start):
    (tr,) = [t for t in fig.data if t.name.startswith(name_start)]
    assert tr.type == "scatter" and tr.mode == "lines"
    x, y = np.asarray(tr.x, dtype=float), np.asarray(tr.y, dtype=float)
    ok = np.isfinite(x)
    assert ok.sum() > 20
    return x[ok], y[ok], tr


def _import_map():
    p = 1.0 / (1.0 + np.exp(-2.0 * XX))  # p = 1/2 on x1 = 0; p = 1/4, 3/4 on x1 = ∓ln(3)/2
    bayes = YY - 0.25 * XX  # the Bayes boundary x2 = x1 / 4
    return fig_ivm.ImportMap(GX, GY, p, bayes, X, Y, np.array([1, 2]), np.full(4, 0.5), 0.0, 0.1, 1.0)


def test_import_map_lines_where_the_closed_forms_put_them():
    fig = fig_ivm.plot_import_map(_import_map())
    assert not [t for t in fig.data if t.type == "contour"]
    x, y, tr = _lines(fig, "p̂(x) = 0.5")
    np.testing.assert_allclose(x, 0.0, atol=2e-6)  # linear interpolation of a function odd about 0, float32
    assert y.min() == GY[0] and y.max() == GY[-1]  # across the whole view
    assert "p̂ = 0.5" in tr.hovertemplate
    x, y, tr = _lines(fig, "p̂(x) = 0.25, 0.75")
    half = np.log(3.0) / 2.0
    assert np.all(np.minimum(np.abs(x - half), np.abs(x + half)) < 2e-3)  # the grid's linear interpolation
    assert set(tr.text) == {"p̂ = 0.25", "p̂ = 0.75"}
    x, y, _ = _lines(fig, "Bayes boundary")
    np.testing.assert_allclose(y, x / 4.0, atol=1e-6)
    assert len(fig.to_json()) < 120_000  # 387 kB with contour traces at 81 x 81


def test_svm_map_margins_and_a_level_not_in_view():
    f = XX.copy()  # f = x1: boundary x1 = 0, margins x1 = ±1
    sm = fig_ivm.SVMMap(GX, GY, f, None, X, Y, np.array([0, 3]), 0.0, np.nan, 1e-3)
    fig = fig_ivm.plot_svm_map(sm)
    x, _, _ = _lines(fig, "margins f(x) = ±1")
    np.testing.assert_allclose(np.abs(x), 1.0, atol=1e-6)
    far = fig_ivm.plot_svm_map(sm._replace(f=f + 10.0))  # f > 0 everywhere: no boundary in view
    (tr,) = [t for t in far.data if t.name.startswith("f(x) = 0")]
    assert "not crossed in view" in tr.name and len(tr.x) == 0


def test_class_map_bayes_boundaries_one_trace_and_binary_hover():
    label = np.where(XX < 0, 0, np.where(YY < 0.5, 1, 2))
    probs = np.stack([label == k for k in range(3)], axis=-1).astype(float)
    cm = fig_ivm.ClassMap(GX, GY, label, np.full(label.shape, 0.9), probs, label, X, np.array([0, 1, 2, 0]),
                          np.array(["a", "b", "c"]), np.array([1]), 0.2, 0.5)
    fig = fig_ivm.plot_class_map(cm)
    assert not [t for t in fig.data if t.type == "contour"]
    x, y, tr = _lines(fig, "Bayes boundaries")
    dx = np.diff(GX)[0]
    on_vertical = np.abs(x - (-dx / 2)) < 1e-6  # between the grid columns either side of x1 = 0
    on_horizontal = (x >= -dx) & (np.abs(y - 0.5) < np.diff(GY)[0])
    assert np.all(on_vertical | on_horizontal)
    heat = fig.data[0]
    assert heat.type == "heatmap" and "%{customdata:.3f}" in heat.hovertemplate
    assert np.asarray(heat.customdata).shape == label.shape


# ------------------------------------------------------------------------------------------------------------
# The IVM page's "Hₖ along the greedy steps" chart: its x axis counts steps, so its ticks fall on whole steps
# (Plotly's automatic ticks would read 0, 0.5, 1, 1.5, … over four steps).
def _steps(n_steps: int) -> fig_ivm.StepCurve:
    k = np.arange(n_steps + 1)
    H = 100.0 - np.cumsum(np.r_[0.0, np.full(n_steps, 0.1)])
    ratio = np.r_[np.nan, np.nan, np.full(max(n_steps - 1, 0), 0.5)][: n_steps + 1]
    fields = dict(k=k, H=H, H_score=H - 0.01, n_import=k + 1, ratio=ratio, stop_k=int(k[-1]), r=1, eps=1e-3)
    return fig_ivm.StepCurve(**{f: fields[f] for f in fig_ivm.StepCurve._fields})


@pytest.mark.parametrize("n_steps, dtick", [(4, 1), (9, 1), (10, 2), (24, 3), (120, 13)])
def test_step_axis_ticks_are_whole_steps(n_steps, dtick):
    fig = fig_ivm.plot_steps(_steps(n_steps))
    ax = fig.layout.xaxis
    assert ax.tick0 == 0 and ax.dtick == dtick
    assert float(ax.dtick).is_integer() and (n_steps // ax.dtick) + 1 <= 11  # at most about ten ticks
