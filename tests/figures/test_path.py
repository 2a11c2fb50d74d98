"""Figures of the Regularization path page: the computed data are checked against the path itself
(no pixels); the drawn figures carry titles, axis titles and named traces; their margins and the
hover data's dtypes."""
from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from svmviz import data, path
from svmviz.data import banana, wahba2001
from svmviz.figures import path as figs
from svmviz.figures.path import (compute_boundary_map, compute_coef_paths, compute_loo_curves,
                                 compute_path_summary, plot_boundary_map, plot_coef_paths, plot_loo_curves,
                                 plot_path_summary)
from svmviz.path import GROUP_E, GROUP_L, GROUP_R, loo_path, nu_path

from tests.apptest_utils import decode


@functools.lru_cache(maxsize=None)
def _path():
    ds = banana(n=60, seed=2)
    te = ds.test_sample(200, seed=5)
    return ds, te, nu_path(ds.X, ds.y, sigma=1.0)


@pytest.mark.parametrize("x_axis", ["lambda", "nu"])
def test_coef_paths_keep_only_kinks_yet_reproduce_every_breakpoint(x_axis):
    ds, _, p = _path()
    cp = compute_coef_paths(p, x_axis=x_axis)
    scale = p.m if x_axis == "nu" else 1.0
    xs = p.lambdas / scale
    first = np.concatenate([[True], np.diff(xs) > 0])
    total = 0
    for c in (-1, 1):
        x, y, pt = cp.x[c], cp.y[c], cp.point[c]
        assert np.all(np.isnan(x) == (pt < 0)) and np.all(np.isnan(y) == (pt < 0))
        for i in np.flatnonzero(p.y == c):
            sel = pt == i
            assert np.all(np.diff(x[sel]) > 0)
            # linear interpolation between the kept vertices gives α_i y_i at every breakpoint
            np.testing.assert_allclose(np.interp(xs[first], x[sel], y[sel]), p.coefs[first, i], atol=1e-9)
            total += int(sel.sum())
        assert set(pt[pt >= 0]) == set(np.flatnonzero(p.y == c))
    assert total == cp.n_vertices < p.m * int(first.sum()) // 2  # far fewer vertices than points × breakpoints
    np.testing.assert_allclose(cp.breakpoints, np.unique(xs))
    fig = plot_coef_paths(cp, cursor=xs[5], X=ds.X, stop=xs[7])
    assert fig.layout.title.text.startswith("Coefficient paths")
    assert fig.layout.xaxis.title.text and fig.layout.yaxis.title.text == "αᵢyᵢ"
    names = [t.name for t in fig.data]
    assert names[:2] == ["αᵢyᵢ, class −1", "αᵢyᵢ, class +1"]
    assert {"LOO stopping point", "cursor"} <= set(names)
    assert all(t.hovertemplate for t in fig.data[:2])


def test_boundary_map_equals_the_path_decision_function():
    ds, te, p = _path()
    lam = 0.37 * p.lambda_max
    bm = compute_boundary_map(p, lam, grid_n=21, X_test=te.X, y_test=te.y)
    XX = np.column_stack([np.tile(bm.gx, bm.gy.size), np.repeat(bm.gy, bm.gx.size)])
    np.testing.assert_allclose(bm.F.ravel(), p.decision_function(XX, lam), rtol=0, atol=1e-12)
    a = p.alpha_at(lam)
    assert bm.n_sv == int(np.sum(a > 0))
    np.testing.assert_array_equal(bm.groups == GROUP_R, a <= 0)
    np.testing.assert_array_equal(bm.groups == GROUP_L, a >= 1)
    assert bm.train_error == np.mean(ds.y * p.decision_function(ds.X, lam) <= 0)
    assert bm.test_error == np.mean(te.y * p.decision_function(te.X, lam) <= 0)
    assert bm.rho == pytest.approx(p.state_at(lam)[2]) and bm.rho > 0
    fig = plot_boundary_map(bm)
    assert fig.layout.title.text.startswith("ν-SVM at λ") and f"{bm.n_sv} support vectors" in fig.layout.title.text
    assert fig.layout.xaxis.title.text == "x₁" and fig.layout.yaxis.title.text == "x₂"
    e_pts = sum(len(t.x) for t in fig.data if t.name and "E:" in t.name)
    assert e_pts == int(np.sum(bm.groups == GROUP_E))
    with pytest.raises(ValueError, match="2 features"):
        X3 = np.column_stack([ds.X, ds.X[:, 0]])
        compute_boundary_map(nu_path(X3, ds.y, sigma=1.0), lam)


@pytest.mark.parametrize("x_axis", ["lambda", "nu"])
def test_summary_and_loo_curves_follow_the_path(x_axis):
    _, te, p = _path()
    s = compute_path_summary(p, x_axis=x_axis)
    np.testing.assert_array_equal(s.n_E + s.n_L + s.n_R, np.full(p.n_breakpoints, p.m))
    np.testing.assert_array_equal(s.n_L, np.sum(p.alphas >= 1, axis=1))
    np.testing.assert_allclose(s.rho, p.rho)
    lp = loo_path(p, max_evals=6, X_test=te.X, y_test=te.y)
    lc = compute_loo_curves(p, lp, x_axis=x_axis)
    div = p.m if x_axis == "nu" else 1.0
    assert lc.stop == lp.lambdas[lp.stop] / div
    np.testing.assert_allclose(lc.x, lp.lambdas / div)
    fig = plot_loo_curves(lc, cursor=lc.x[1])
    names = [t.name for t in fig.data]
    assert names[0].startswith("LOO1") and any(nm.startswith("LOO2") for nm in names)
    assert "automatic stopping point" in names and "test error (independent sample)" in names
    assert "cursor" in names
    # two panels on one x axis: error rates (linear) above, LOO2 (log) below
    loo2 = next(t for t in fig.data if t.name.startswith("LOO2"))
    assert loo2.yaxis == "y2" and fig.layout.yaxis2.type == "log"
    assert fig.layout.yaxis.title.text == "error rate" and fig.layout.xaxis2.title.text
    assert all(t.hovertemplate or t.hoverinfo == "skip" for t in fig.data)
    fig2 = plot_path_summary(s, cursor=lc.x[1])
    assert fig2.layout.title.text.startswith("Group sizes") and fig2.layout.yaxis2.title.text
    with pytest.raises(ValueError, match="x_axis"):
        compute_path_summary(p, x_axis="C")


def test_linear_kernel_paths_on_wahba_data():
    ds = wahba2001(n=40, seed=1)
    p = nu_path(ds.X, ds.y, kernel="linear")
    cp = compute_coef_paths(p)
    assert cp.n_vertices >= p.m * 2 and np.nanmax(np.abs(cp.y[1])) <= 1.0


def test_loo_curves_hide_zero_margin_evaluations_and_shade_them():
    """Linear kernel on overlapping classes: ρ = 0 below λ = 4 (ν < ν_min, f ≡ 0): LOO1/LOO2 there
    are rounding noise — NaN in the curves, the stretch shaded from the path's own breakpoints."""
    from svmviz.path import zero_margin

    ds = wahba2001(n=40, seed=0)
    p = nu_path(ds.X, ds.y, kernel="linear")
    lp = loo_path(p, [1.0, 2.0, 6.0, 15.0, 26.0])
    lc = compute_loo_curves(p, lp)
    np.testing.assert_array_equal(np.isnan(lc.loo1), lp.rho_zero)
    np.testing.assert_array_equal(np.isnan(lc.loo2), lp.rho_zero)
    np.testing.assert_array_equal(lc.zero, lp.rho_zero)
    z = zero_margin(p)
    assert len(lc.zero_bands) >= 1
    a, b = lc.zero_bands[0]
    assert a == 0.0 and b == p.lambdas[z].max() < 4.0
    fig = plot_loo_curves(lc)
    assert any(t.name.startswith("margin ρ = 0") for t in fig.data)
    assert len(fig.layout.shapes) == 2 * len(lc.zero_bands)  # one band per panel


def test_path_table_is_exact_and_large_paths_draw_a_sample_of_lines():
    """The path CSV lists each point's α where its slope changes: interpolating it gives α at every
    breakpoint. Beyond ``max_points`` a seeded sample of lines is drawn, both classes in proportion."""
    from svmviz.figures.path import coef_path_table, lines_shown

    ds, _, p = _path()
    t = coef_path_table(p)
    lam = np.unique(p.lambdas)
    for i in range(p.m):
        sel = t["point"] == i
        assert np.all(t["y"][sel] == p.y[i])
        np.testing.assert_allclose(np.interp(lam, t["lambda"][sel], t["alpha"][sel]),
                                   [p.alpha_at(l)[i] for l in lam], atol=1e-9)
    np.testing.assert_allclose(t["nu"], t["lambda"] / p.m)
    assert t["point"].size < p.m * lam.size // 2
    idx = lines_shown(p.y, 20, seed=1)
    assert idx.size == 20 and np.all(np.diff(idx) > 0)
    assert abs(np.mean(p.y[idx] > 0) - np.mean(p.y > 0)) <= 0.05
    np.testing.assert_array_equal(idx, lines_shown(p.y, 20, seed=1))
    np.testing.assert_array_equal(lines_shown(p.y, None), np.arange(p.m))
    cp = compute_coef_paths(p, max_points=20, seed=1)
    assert cp.n_points == 20 and cp.n_total == p.m
    assert set(np.concatenate([cp.point[-1], cp.point[1]])) - {-1} == set(idx)
    assert "20 of the 60 points" in plot_coef_paths(cp).layout.title.text


# ------------------------------------------------------------------ margins
# The path page's charts are drawn once: each starts with the margins Plotly's automargin wants
# (``svmviz.figures.path.MARGINS``), checked here on the figures; in the browser by
# tests/browser/test_path_page.py.
# 
# The page look (svmviz.figures.theme.PAGE_LOOK) turns automargin on for every axis; a chart whose
# layout margins are narrower than its tick labels, axis titles and legend need is drawn, measured and
# drawn again (Plotly's doAutoMargin redraw). In the browser a chart is redrawn when the size Plotly
# computed (``gd._fullLayout._size``) differs from its layout's margins.
def _small_path():
    ds = data.make_dataset("banana", n=60, seed=0)
    return path.nu_path(ds.X, ds.y, kernel="rbf", sigma=1.0)


def test_every_path_figure_carries_its_measured_margins():
    """Each plot_* of figures.path sets its MARGINS entry (and keeps the margins it set before on the
    other sides): the figure's JSON changes only there."""
    p = _small_path()
    lam = 0.3 * float(p.lambdas[-1])
    loo = path.loo_path(p, path.default_loo_lambdas(p, 8))
    built = {
        "coefs": (figs.plot_coef_paths(figs.compute_coef_paths(p), cursor=lam, X=p.X), dict(t=60, b=130)),
        "map": (figs.plot_boundary_map(figs.compute_boundary_map(p, lam, grid_n=20)), dict(t=80)),
        "summary": (figs.plot_path_summary(figs.compute_path_summary(p), cursor=lam), dict(t=62, b=figs.SUMMARY_BOTTOM)),
        "loo": (figs.plot_loo_curves(figs.compute_loo_curves(p, loo), cursor=lam), dict(t=90, b=150)),
    }
    assert set(built) == set(figs.MARGINS)
    for key, (fig, kept) in built.items():
        margin = fig.to_dict()["layout"]["margin"]
        for side, value in {**kept, **figs.MARGINS[key]}.items():
            assert margin[side] == value, (key, side, margin)


# ------------------------------------------------------------------ hover data
# The coefficient-path chart's hover data are sent as float32 / int32 (they are most of the chart's
# bytes at every rerun), and still name the right point and its coordinates.
@pytest.mark.parametrize("two_d", [True, False])
def test_coef_path_hover_data_are_compact_and_exact(two_d):
    ds = data.banana(n=120, seed=1)
    p = nu_path(ds.X, ds.y, kernel="rbf", sigma=1.0)
    cp = figs.compute_coef_paths(p)
    X = ds.X if two_d else None
    spec = json.loads(figs.plot_coef_paths(cp, X=X).to_json())
    lines = [t for t in spec["data"] if str(t.get("name", "")).startswith("αᵢyᵢ")]
    assert len(lines) == 2
    for t, c in zip(lines, (-1, 1)):
        assert t["customdata"]["dtype"] == ("f4" if two_d else "i4")
        cd = decode(t["customdata"])
        pts = cp.point[c]
        np.testing.assert_array_equal(cd[:, 0], pts)  # exact point numbers (−1 at the separators)
        if two_d:
            ok = pts >= 0
            np.testing.assert_allclose(cd[ok, 1:], ds.X[pts[ok]], rtol=1e-6, atol=1e-6)
        # x and y stay float64: the drawn vertices are the path's own numbers
        np.testing.assert_array_equal(decode(t["x"]), cp.x[c])
        np.testing.assert_array_equal(decode(t["y"]), cp.y[c])
        # 4 bytes a value, in base64: a third of the chart's per-vertex bytes (x, y: 8 each)
        assert len(t["customdata"]["bdata"]) <= 4 * (3 if two_d else 1) * pts.size * 4 / 3 + 4
