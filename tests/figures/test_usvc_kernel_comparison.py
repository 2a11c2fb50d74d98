"""The Unbiased SVC page's kernel comparison chart, sent at every rerun: its two decision boundaries
f = 0 are the lines themselves (:func:`svmviz.figures.tuning.level_lines`), not contour traces of the
whole 80 × 80 field contoured again in the browser, and its maps are float32 (values clipped to ±2,
hover shows two decimals). Checked here against the fitted machines' own decision functions, not
against the figure code.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from svmviz.data import make_dataset
from svmviz.figures import usvc as F
from svmviz.usvc import kernel_comparison

from tests.apptest_utils import decode

BOUNDARY = "boundary f = 0"


@pytest.fixture(scope="module")
def fitted():
    ds = make_dataset("banana", n=120, seed=3)
    return kernel_comparison(ds.X, ds.y, sigma=1.0, C=10.0, n_prototypes=8, seed=3)


@pytest.fixture(scope="module")
def kc(fitted):
    return F.compute_kernel_comparison(fitted, grid=40)


def _traces(fig, name):
    return [t for t in fig.data if t.name == name]


def test_boundaries_are_lines_on_the_machines_zero_level(fitted, kc):
    fig = F.plot_kernel_comparison(kc)
    lines = _traces(fig, BOUNDARY)
    assert len(lines) == 2 and all(t.type == "scatter" and t.mode == "lines" for t in lines)
    assert [t.showlegend for t in lines] == [True, False]  # one legend entry for both panels
    assert all(t.hoverinfo == "skip" for t in lines)
    # one per panel: USVC on the left (x), SVM on the right (x2)
    assert {t.xaxis for t in lines} == {"x", "x2"}
    span = np.ptp(kc.gx) / (kc.gx.size - 1)
    for t, machine in zip(sorted(lines, key=lambda t: t.xaxis), (fitted.usvc, fitted.svm)):
        x, y = np.asarray(t.x, dtype=float), np.asarray(t.y, dtype=float)
        ok = np.isfinite(x)
        assert ok.sum() > 10
        f = machine.decision_function(np.c_[x[ok], y[ok]])
        # linear interpolation along a grid edge: the error is second order in the grid step; the
        # machine's slope times one step bounds it generously
        slope = np.abs(np.gradient(kc.f_usvc if machine is fitted.usvc else kc.f_svm, span)).max()
        assert np.abs(f).max() < 0.25 * slope * span
        # inside the mapped region
        assert np.all((x[ok] >= kc.gx[0]) & (x[ok] <= kc.gx[-1]) & (y[ok] >= kc.gy[0]) & (y[ok] <= kc.gy[-1]))


def test_axes_span_the_maps(kc):
    """The axes end where the maps end (no blank band that a line reaching the border would add)."""
    fig = F.plot_kernel_comparison(kc)
    for ax in ("xaxis", "xaxis2"):
        assert tuple(fig.layout[ax].range) == (kc.gx[0], kc.gx[-1])
    for ax in ("yaxis", "yaxis2"):
        assert tuple(fig.layout[ax].range) == (kc.gy[0], kc.gy[-1])


def test_maps_are_float32_of_the_clipped_field(kc):
    fig = F.plot_kernel_comparison(kc)
    maps = [t for t in fig.data if t.type == "contour"]
    assert len(maps) == 2  # the filled maps only: no contour trace for the boundary any more
    spec = json.loads(fig.to_json())
    zs = [decode(t["z"]) for t in spec["data"] if t["type"] == "contour"]
    for z, f in zip(zs, (kc.f_usvc, kc.f_svm)):
        assert z.dtype == np.float32 and z.shape == f.shape
        np.testing.assert_array_equal(z, np.clip(f, -2, 2).astype(np.float32))
    assert all(t.hovertemplate and "%{z:.2f}" in t.hovertemplate for t in maps)


def test_default_chart_is_small(fitted):
    """At the page's default grid (80 × 80) the chart was 356 kB of JSON at every rerun."""
    full = F.compute_kernel_comparison(fitted)  # grid = 80, the page's
    assert full.f_usvc.shape == (80, 80)
    size = len(F.plot_kernel_comparison(full).to_json())
    assert size < 140_000, size


def test_no_crossing_says_so():
    """A machine whose f keeps one sign over the view draws no boundary and says so in the legend."""
    ds = make_dataset("banana", n=60, seed=0)
    fit = kernel_comparison(ds.X, ds.y, sigma=1.0, C=10.0, n_prototypes=4, seed=0)
    kc = F.compute_kernel_comparison(fit, grid=12)
    kc = kc._replace(f_usvc=np.abs(kc.f_usvc) + 0.5)  # positive everywhere
    fig = F.plot_kernel_comparison(kc)
    lines = [t for t in fig.data if t.type == "scatter" and t.mode == "lines"]
    assert [t.name for t in lines] == ["USVC: no boundary f = 0 in view (one sign everywhere)", BOUNDARY]
    assert all(t.showlegend is not False for t in lines)  # the SVM's boundary carries the legend entry now
