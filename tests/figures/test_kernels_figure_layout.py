"""The Kernels page's figures leave their texts room at a projector's width (1024 px: a chart ~700 px
wide): panel titles over lines of at most ~30 characters, at most two panels side by side, the
interaction maps one per row with each colour bar beside its own panel, the variable names of the
importance bars at −45°, and between two rows of panels enough pixels for the upper x axis's labels
and title and the lower panels' two-line titles."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as hst

from svmviz import anova, data
from svmviz.figures import anova as fig
from svmviz.kernels import SSANOVAKernel

NAMES = ("bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g")  # long column names


@pytest.fixture(scope="module")
def parts():
    from svmviz.svm import SVMClassifier

    ds = data.make_dataset("anova_structure", n=60, seed=3, d=4)
    svm = SVMClassifier(lam=1e-3, kernel=SSANOVAKernel(order="two-way")).fit(ds.X, ds.y)
    return ds, anova.expansion_of(svm)


def _line_lengths(text):
    return [len(line) for line in text.split("<br>")]


def _rows(layout):
    """The y domains of the panels, one per distinct row, top first."""
    doms = {tuple(v["domain"]) for k, v in layout.items() if k.startswith("yaxis")}
    return sorted(doms, key=lambda d: -d[1])


def _plot_height(layout):
    m = layout["margin"]
    return layout["height"] - m["t"] - m["b"]


def _gaps_px(layout):
    rows = _rows(layout)
    return [(a[0] - b[1]) * _plot_height(layout) for a, b in zip(rows, rows[1:])]


def test_criteria_panel_titles_are_short_lines_and_rows_leave_room():
    rng = np.random.default_rng(0)
    lam = np.logspace(-5, -1, 7)
    curves = {k: rng.uniform(0.05, 0.5, (2, 7)) for k in fig.CURVE_KEYS}
    kcv = fig.KernelCurves(lam, ["Gaussian", "two-way"], list(curves), curves,
                           {k: np.argmin(v, axis=1) for k, v in curves.items()}, rng.uniform(0.1, 0.3, (2, 7)))
    lay = fig.plot_kernel_curves(kcv).to_plotly_json()["layout"]
    titles = [a["text"] for a in lay["annotations"]]
    assert len(titles) == 5
    assert all(max(_line_lengths(t)) <= 30 for t in titles), titles
    assert min(_gaps_px(lay)) >= 100  # x ticks and title above, a two-line title below
    # the first row's two-line titles below the figure's title
    assert lay["margin"]["t"] >= 100


@pytest.mark.parametrize("kernels", [1, 3])
@pytest.mark.parametrize("keys", [fig.CURVE_KEYS, fig.CURVE_KEYS[:3]])
def test_criteria_legend_sits_right_under_the_last_rows_axis_title(kernels, keys):
    """The kernels' legend is on the figure's bottom edge and the bottom margin holds only the last
    row's x tick labels and title and the legend: no empty band above the legend, whatever the rows."""
    rng = np.random.default_rng(1)
    lam = np.logspace(-6, -1, 11)
    curves = {k: rng.uniform(0.05, 0.5, (kernels, 11)) for k in keys}
    names = ["Gaussian on all variables", "SS-ANOVA additive", "SS-ANOVA two-factor"][:kernels]
    kcv = fig.KernelCurves(lam, names, list(keys), curves, {k: np.argmin(v, axis=1) for k, v in curves.items()},
                           rng.uniform(0.1, 0.3, (kernels, 11)))
    lay = fig.plot_kernel_curves(kcv).to_plotly_json()["layout"]
    legend = lay["legend"]
    assert (legend.get("yref"), legend["y"], legend["yanchor"]) == ("container", 0.0, "bottom"), legend
    # x tick labels (~20 px) and title (~25 px), two legend rows (~45 px), a little air: at most 130 px
    assert 90 <= lay["margin"]["b"] <= 130, lay["margin"]


def test_main_effects_two_per_row_with_two_line_titles(parts):
    ds, exp = parts
    me = fig.compute_main_effects(exp, ds.X, ds.y, grid_n=11)._replace(names=NAMES)
    lay = fig.plot_main_effects(me, standardised=True).to_plotly_json()["layout"]
    xdoms = {tuple(v["domain"]) for k, v in lay.items() if k.startswith("xaxis")}
    assert len(xdoms) == 2  # two columns
    assert len(_rows(lay)) == 2
    for a in lay["annotations"]:
        name, imp = a["text"].split("<br>")
        assert name in NAMES and imp.startswith("(importance ")
    xtitles = [v["title"]["text"] for k, v in lay.items() if k.startswith("xaxis")]
    assert all(t.split("<br>") == [t.split("<br>")[0], "(standardised)"] for t in xtitles), xtitles
    assert min(_gaps_px(lay)) >= 140  # x ticks and a two-line title above, a two-line title below


def test_interactions_one_per_row_each_colour_bar_beside_its_panel(parts):
    ds, exp = parts
    its = [fig.compute_interaction(exp, a, b, ds.X, ds.y, grid_n=9) for a, b in ((0, 1), (2, 3))]
    js = fig.plot_interaction_panels(its).to_plotly_json()
    lay = js["layout"]
    assert lay["xaxis"]["domain"] == lay["xaxis2"]["domain"]  # one column
    rows = _rows(lay)
    assert len(rows) == 2 and min(_gaps_px(lay)) >= 110
    for axis, ref in (("x", "yaxis"), ("x2", "yaxis2")):
        cb = [t for t in js["data"] if t.get("xaxis", "x") == axis and t["type"] == "contour"][0]["colorbar"]
        lo, hi = lay[ref]["domain"]
        assert cb["y"] == pytest.approx((lo + hi) / 2) and cb["len"] == pytest.approx(hi - lo)
        assert cb["x"] > lay["xaxis"]["domain"][1]


def test_variable_names_of_the_importance_bars_at_minus_45_degrees(parts):
    _, exp = parts
    lay = fig.plot_importance_panels(fig.compute_importances(exp)).to_plotly_json()["layout"]
    assert lay["xaxis"]["tickangle"] == -45


def _contours(js):
    return [t for t in js["data"] if t["type"] == "contour"]


@pytest.mark.parametrize("scale", [3e-4, 0.75, 1.0, 5.3, 480.0])
def test_interaction_levels_are_round_and_each_one_a_tick_of_the_colour_bar(parts, scale):
    """The map's levels are read off its colour bar (a tick at every level, 0 among them), not off
    labels along the contour lines."""
    ds, exp = parts
    it = fig.compute_interaction(exp, 0, 1, ds.X, ds.y, grid_n=9)
    it = it._replace(Z=it.Z * (scale / np.max(np.abs(it.Z))))
    lim = float(np.max(np.abs(it.Z)))  # ``scale`` up to rounding
    for js in (fig.plot_interaction(it).to_plotly_json(), fig.plot_interaction_panels([it]).to_plotly_json()):
        (tr,) = _contours(js)
        c, cb = tr["contours"], tr["colorbar"]
        assert c["showlabels"] is False and tr["autocontour"] is False
        step, m = fig.interaction_levels(lim)
        levels = np.arange(c["start"], c["end"] + 0.5 * c["size"], c["size"])
        assert levels.size == 2 * m + 1 <= fig.INTERACTION_LEVELS
        np.testing.assert_allclose(levels, step * np.arange(-m, m + 1), atol=1e-12 * lim)
        assert np.all(np.abs(levels) < lim) and (m + 1) * step >= lim  # every level inside the colour scale
        assert (tr["zmin"], tr["zmax"]) == (-lim, lim)
        # the colour bar's ticks: every multiple of the step within [zmin, zmax] — the levels
        assert (cb["tickmode"], cb["tick0"], cb["dtick"]) == ("linear", 0.0, step)
        assert cb["title"]["text"] == "f(α, β)"
        assert "f(α, β) = %{z:.3g}" in tr["hovertemplate"]


@given(hst.floats(min_value=1e-12, max_value=1e12, allow_nan=False, allow_infinity=False))
def test_interaction_levels_take_the_finest_round_step_with_at_most_eleven_levels(lim):
    step, m = fig.interaction_levels(lim)
    mantissa = step / 10.0 ** np.floor(np.log10(step) + 1e-9)
    assert any(np.isclose(mantissa, r) for r in (1.0, 2.0, 2.5, 5.0)), (lim, step)
    assert m * step < lim <= (m + 1) * step * (1 + 1e-12)  # the levels ±m·step lie strictly inside (−lim, lim)
    assert 2 * m + 1 <= fig.INTERACTION_LEVELS
    # the next finer round step would draw more than INTERACTION_LEVELS levels
    finer = [r * 10.0 ** e for e in range(-14, 14) for r in (1.0, 2.0, 2.5, 5.0) if r * 10.0 ** e < step * (1 - 1e-9)]
    f = max(finer)
    assert 2 * (int(np.ceil(lim / f)) - 1) + 1 > fig.INTERACTION_LEVELS


@pytest.mark.parametrize("bad", [0.0, -1.0, np.nan, np.inf])
def test_interaction_levels_refuse_a_scale_that_is_not_finite_and_positive(bad):
    with pytest.raises(ValueError, match="finite positive"):
        fig.interaction_levels(bad)
