"""Level lines computed on the server (:func:`svmviz.figures.tuning.level_lines`) and drawn as lines,
instead of ``go.Contour`` traces of a whole 120 × 120 mesh that the browser traces again for one
level each (the Tuning page's decision-curves chart). These tests check the level lines against
independent references — closed forms, and the grid's own sign changes — and the figure's size.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst

from svmviz.figures.tuning import level_lines


def _polylines(x, y):
    """Split the NaN-separated output into a list of (k, 2) arrays."""
    cuts = np.flatnonzero(np.isnan(x))
    pts = np.c_[x, y]
    return [p for p in np.split(pts, cuts) if len(p)] if len(x) else []


def _strip(parts):
    return [p[~np.isnan(p[:, 0])] for p in parts]


def _bilinear(xs, ys, F, px, py):
    """Bilinear interpolation of F at points (the mesh's own interpolant; on a grid edge it is linear)."""
    j = np.clip(np.searchsorted(xs, px, side="right") - 1, 0, len(xs) - 2)
    i = np.clip(np.searchsorted(ys, py, side="right") - 1, 0, len(ys) - 2)
    u = (px - xs[j]) / (xs[j + 1] - xs[j])
    v = (py - ys[i]) / (ys[i + 1] - ys[i])
    return ((1 - u) * (1 - v) * F[i, j] + u * (1 - v) * F[i, j + 1] + (1 - u) * v * F[i + 1, j]
            + u * v * F[i + 1, j + 1])


def test_a_circle_is_one_closed_polyline_on_the_circle():
    xs = ys = np.linspace(-2.0, 2.0, 121)
    X, Y = np.meshgrid(xs, ys)
    x, y = level_lines(xs, ys, X ** 2 + Y ** 2, 1.0)
    parts = _strip(_polylines(x, y))
    assert len(parts) == 1
    p = parts[0]
    assert np.allclose(p[0], p[-1])  # closed
    r = np.hypot(p[:, 0], p[:, 1])
    h = xs[1] - xs[0]
    assert np.max(np.abs(r - 1.0)) < h ** 2  # linear interpolation of a quadratic along an edge
    ang = np.sort(np.arctan2(p[:, 1], p[:, 0]))
    assert np.max(np.diff(np.r_[ang, ang[0] + 2 * np.pi])) < 2 * h  # it goes all the way round
    # consecutive points share a cell: no jump across the picture
    assert np.max(np.hypot(*np.diff(p, axis=0).T)) <= np.sqrt(2) * h + 1e-12


def test_a_straight_line_is_exact_and_open_from_border_to_border():
    xs, ys = np.linspace(0.0, 1.0, 40), np.linspace(-1.0, 2.0, 55)
    X, Y = np.meshgrid(xs, ys)
    x, y = level_lines(xs, ys, 2.0 * X + 0.5 * Y, 0.8)
    parts = _strip(_polylines(x, y))
    assert len(parts) == 1
    p = parts[0]
    np.testing.assert_allclose(2.0 * p[:, 0] + 0.5 * p[:, 1], 0.8, atol=1e-12)
    # from the bottom edge (y = −1, x = 0.65) to the left one (x = 0, y = 1.6)
    ends = {tuple(np.round(p[0], 9)), tuple(np.round(p[-1], 9))}
    assert ends == {(0.65, -1.0), (0.0, 1.6)}


def test_two_separate_curves_are_two_polylines_and_no_crossing_draws_nothing():
    xs = ys = np.linspace(-3.0, 3.0, 91)
    X, Y = np.meshgrid(xs, ys)
    F = np.minimum((X - 1.5) ** 2 + Y ** 2, (X + 1.5) ** 2 + Y ** 2)
    x, y = level_lines(xs, ys, F, 0.5)
    parts = _strip(_polylines(x, y))
    assert len(parts) == 2 and sorted(np.sign(p[:, 0].mean()) for p in parts) == [-1.0, 1.0]
    assert np.isnan(x).sum() == 1
    e = level_lines(xs, ys, F, -1.0)
    assert len(e[0]) == 0 and len(e[1]) == 0


def test_a_saddle_cell_is_split_by_its_centre():
    """f = x·y on a 2 × 2 mesh at a level slightly above / below 0: the two branches keep the corners
    whose sign the centre shares together."""
    xs = ys = np.array([-1.0, 1.0])
    F = np.array([[1.0, -1.0], [-1.0, 1.0]])  # bottom-left +, bottom-right −, top-left −, top-right +
    for level, joined in ((-0.2, "positive"), (0.2, "negative")):  # centre 0 > level: + corners joined
        x, y = level_lines(xs, ys, F + 0.0, level)
        parts = _strip(_polylines(x, y))
        assert len(parts) == 2
        for p in parts:
            mid = p.mean(axis=0)
            # each branch cuts off one corner: the one of the sign the centre does NOT have
            corner = np.sign(mid)
            value = corner[0] * corner[1]  # F at that corner
            assert (value < 0) == (joined == "positive"), (level, p)


@settings(max_examples=40, deadline=None)
@given(hst.integers(0, 10_000), hst.integers(3, 25), hst.integers(3, 25), hst.floats(-0.8, 0.8))
def test_random_fields_every_crossing_once_and_on_the_level(seed, nx, ny, level):
    """On any field: the output points are exactly the grid edges' sign changes (each once, a closed
    curve's first point repeated), each where the mesh's interpolant equals the level, and
    consecutive points of a polyline lie in one cell."""
    rng = np.random.default_rng(seed)
    xs, ys = np.cumsum(rng.uniform(0.1, 1.0, nx)), np.cumsum(rng.uniform(0.1, 1.0, ny))
    F = rng.standard_normal((ny, nx))
    x, y = level_lines(xs, ys, F, level)
    s = F - level
    n_cross = int(((s[:, :-1] > 0) != (s[:, 1:] > 0)).sum() + ((s[:-1, :] > 0) != (s[1:, :] > 0)).sum())
    parts = _strip(_polylines(x, y))
    pts = []
    for p in parts:
        closed = len(p) > 2 and np.allclose(p[0], p[-1])
        pts.append(p[:-1] if closed else p)
        j = np.searchsorted(xs, p[:, 0], side="right") - 1
        i = np.searchsorted(ys, p[:, 1], side="right") - 1
        dx = np.abs(np.diff(np.clip(j, 0, nx - 2)))
        dy = np.abs(np.diff(np.clip(i, 0, ny - 2)))
        assert np.all(dx <= 1) and np.all(dy <= 1)
    allp = np.concatenate(pts) if pts else np.empty((0, 2))
    assert len(allp) == n_cross
    assert len(np.unique(np.round(allp, 12), axis=0)) == n_cross
    if n_cross:
        np.testing.assert_allclose(_bilinear(xs, ys, F, allp[:, 0], allp[:, 1]), level, atol=1e-9)


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="expected"):
        level_lines(np.arange(3.0), np.arange(4.0), np.zeros((3, 4)))


def test_the_decision_curves_chart_is_small_and_keeps_its_legend():
    """The page's decision-curves figure at its default view (wahba2001, n = 200, 20 × 20 grid):
    1.44 MB before (seven 120 × 120 contour traces), now under 100 kB; every curve keeps its legend
    entry and its style."""
    from svmviz import data as _data
    from svmviz.figures import tuning as F
    from svmviz.tuning import criteria_surface

    ds = _data.make_dataset("wahba2001", n=200, seed=0)
    surf = criteria_surface(ds.X, ds.y, np.logspace(-5, -0.5, 12), np.logspace(-1, 1, 12), L=(1.0, 1.0),
                            p_true=ds.p_true(ds.X), loo=False)
    chosen = {k: surf.best[k] for k in ("gacv", "xa", "misclass")}
    dc = F.compute_decision_curves(surf, chosen, p_true=ds.p_true, threshold=0.5, selected=surf.best["gacv"])
    fig = F.plot_decision_curves(dc)
    assert len(fig.to_json()) < 100_000
    lines = {t.name: t for t in fig.data if t.mode == "lines"}
    assert {"true (Bayes)", "GACV", "XA (ξα)", "MISCLASS", "margin f = +1 (selected)",
            "margin f = -1 (selected)"} <= set(lines)
    assert not any(t.type == "contour" for t in fig.data)
    assert lines["margin f = -1 (selected)"].showlegend is False and lines["margin f = +1 (selected)"].line.dash == "dot"
    # the Bayes curve is where p(x) = 1/2
    b = lines["true (Bayes)"]
    bx, by = np.asarray(b.x, float), np.asarray(b.y, float)
    ok = ~np.isnan(bx)
    p = ds.p_true(np.c_[bx[ok], by[ok]])
    assert np.max(np.abs(p - 0.5)) < 0.02
    json.loads(fig.to_json())  # valid JSON (NaN gaps encoded)
