"""The Kernels page's figures are built as plain specifications (:mod:`svmviz.figures.build`: trace
and layout dictionaries, one ``go.Figure`` constructed without plotly's per-property validation).
Each figure must be the one plotly's validated construction gives (the JSON a chart sends is the
same), and valid: re-validated by ``go.Figure(fig.to_dict())``, so a misspelt property or a value
plotly would refuse fails here."""
from __future__ import annotations

import json
import re

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from svmviz import anova, data
from svmviz.figures import anova as fig
from svmviz.figures import build
from svmviz.figures.theme import apply_theme, legend_below
from svmviz.kernels import SSANOVAKernel


@pytest.fixture(scope="module")
def parts():
    from svmviz.svm import SVMClassifier

    ds = data.make_dataset("anova_structure", n=80, seed=3, d=5)
    svm = SVMClassifier(lam=1e-3, kernel=SSANOVAKernel(order="two-way")).fit(ds.X, ds.y)
    exp = anova.expansion_of(svm)
    rng = np.random.default_rng(0)
    lam = np.logspace(-5, -1, 7)
    curves = {k: rng.uniform(0.05, 0.5, (3, 7)) for k in ("gacv", "xa", "loo", "misclass")}
    kcv = fig.KernelCurves(lam, ["Gaussian", "additive", "two-way"], list(curves), curves,
                           {k: np.argmin(v, axis=1) for k, v in curves.items()}, rng.uniform(0.1, 0.3, (3, 7)))
    kcv_short = fig.KernelCurves(lam, ["Gaussian"], ["gacv", "xa"], {k: curves[k][:1] for k in ("gacv", "xa")},
                                 {k: np.argmin(curves[k][:1], axis=1) for k in ("gacv", "xa")}, None)
    tg = anova.ThetaGrid(np.array([0.1, 1.0, 10.0]), 1, lam, {"gacv": rng.uniform(0.5, 1, (3, 7)),
                                                             "xa": rng.uniform(0.1, 0.4, (3, 7))},
                         {"gacv": (1, 2), "xa": (0, 3)}, np.ones((3, 4)), np.zeros((3, 7, 80)), np.zeros((3, 7)),
                         None)
    its = [fig.compute_interaction(exp, a, b, ds.X, ds.y, grid_n=9) for a, b in ((0, 1), (1, 3))]

    def truth(a, t):
        return np.sin(t) * a

    builders = {
        "main effects": lambda: fig.plot_main_effects(fig.compute_main_effects(exp, ds.X, ds.y, grid_n=21),
                                                      ylabel="f(α) (SVM decision value)"),
        "main effects, truth, rms": lambda: fig.plot_main_effects(
            fig.compute_main_effects(exp, ds.X, ds.y, grid_n=21, truth=truth, measure="rms"), columns=2),
        "one main effect": lambda: fig.plot_main_effects(fig.compute_main_effects(exp, ds.X, ds.y, grid_n=21),
                                                         max_panels=1),
        "interaction": lambda: fig.plot_interaction(its[0]),
        "interaction panels": lambda: fig.plot_interaction_panels(its),
        "one interaction panel": lambda: fig.plot_interaction_panels(its[:1]),
        "importances": lambda: fig.plot_importances(fig.compute_importances(exp)),
        "variable importances": lambda: fig.plot_variable_importances(fig.compute_importances(exp)),
        "importance panels": lambda: fig.plot_importance_panels(fig.compute_importances(exp)),
        "importance panels, rms": lambda: fig.plot_importance_panels(fig.compute_importances(exp, X=ds.X,
                                                                                             measure="rms")),
        "kernel curves": lambda: fig.plot_kernel_curves(kcv),
        "kernel curves, no test": lambda: fig.plot_kernel_curves(kcv_short),
        "theta grid gacv": lambda: fig.plot_theta_grid(fig.compute_theta_grid(tg, "gacv", "x2")),
        "theta grid xa": lambda: fig.plot_theta_grid(fig.compute_theta_grid(tg, "xa", "x2")),
    }
    return builders


NAMES = ["main effects", "main effects, truth, rms", "one main effect", "interaction", "interaction panels",
         "one interaction panel", "importances", "variable importances", "importance panels",
         "importance panels, rms", "kernel curves", "kernel curves, no test", "theta grid gacv", "theta grid xa"]


def _validated(make_figure):
    build.VALIDATE = True
    try:
        return make_figure()
    finally:
        build.VALIDATE = False


@pytest.mark.parametrize("name", NAMES)
def test_every_kernels_page_figure_is_the_validated_construction_and_valid(parts, name):
    quick = parts[name]()
    assert isinstance(quick, go.Figure)
    d = quick.to_dict()
    assert d == _validated(parts[name]).to_dict()  # plotly's validated construction: the same figure
    again = go.Figure(d)  # re-validation: raises on an unknown property or a value plotly refuses
    assert again.to_dict() == d
    assert d["layout"]["template"]["layout"]  # plotly_white's look
    assert d["layout"]["title"]["text"] and "$" not in d["layout"]["title"]["text"]
    assert all(t.get("hovertemplate") for t in d["data"])


def test_the_revalidation_catches_a_misspelt_property():
    bad = build.figure([dict(type="scatter", x=[0.0, 1.0], y=[1.0, 0.0], hovertemplat="%{x}")], {})
    with pytest.raises(ValueError, match="hovertemplat"):
        go.Figure(bad.to_dict())
    with pytest.raises(ValueError):
        _validated(lambda: build.figure([dict(type="scatter", mode="line")], {}))  # not a plotly mode


@pytest.mark.parametrize("rows, cols, kw", [(1, 2, dict(horizontal_spacing=0.16)),
                                            (2, 3, dict(horizontal_spacing=0.07, vertical_spacing=110 / 520)),
                                            (1, 2, dict(column_widths=[0.42, 0.58], horizontal_spacing=0.16)),
                                            (3, 2, dict(vertical_spacing=0.14, horizontal_spacing=0.08))])
def test_subplot_grid_is_make_subplots_layout(rows, cols, kw):
    titles = [f"panel {i} (importance 0.{i})" for i in range(rows * cols - 1)]  # one cell without a title
    ref = make_subplots(rows=rows, cols=cols, subplot_titles=titles, **kw)
    grid = build.subplot_grid(rows, cols, titles, **kw)
    want = ref.layout.to_plotly_json()
    want.pop("template")
    assert grid.layout == want
    for r in range(rows):
        for c in range(cols):
            assert grid.trace_axes(r + 1, c + 1) == ref._grid_ref[r][c][0].trace_kwargs
    grid.layout["xaxis"]["title"] = {"text": "changed"}  # the caller's copy: the next grid is clean
    assert build.subplot_grid(rows, cols, titles, **kw).layout == want
    with pytest.raises(ValueError, match="non-empty"):
        build.subplot_grid(rows, cols, ["a", ""])


@pytest.mark.parametrize("panels", [False, True])
def test_spec_theme_is_apply_theme(panels):
    if panels:
        ref = make_subplots(rows=1, cols=2, subplot_titles=["a", "b"])
        layout = build.subplot_grid(1, 2, ["a", "b"]).layout
    else:
        ref, layout = go.Figure(), {}
    apply_theme(ref, title="T", xtitle="x title", ytitle="y title", height=333)
    got = build.figure([], build.theme(layout, title="T", xtitle="x title", ytitle="y title", height=333))
    assert got.to_dict()["layout"] == ref.to_dict()["layout"]
    assert got.layout.legend.y == (-0.16 if panels else 1.0)
    # legend_below on a figure = the LEGEND_BELOW entries merged into a layout
    legend_below(ref)
    from svmviz.figures.theme import LEGEND_BELOW

    assert build.figure([], build.merge(got.to_dict()["layout"], LEGEND_BELOW)).to_dict() == ref.to_dict()


def test_merge_copies_nested_constants():
    const = {"font": {"size": 13}}
    dst = build.merge({}, const)
    dst["font"]["size"] = 20
    assert const == {"font": {"size": 13}}
    assert build.merge({"margin": {"l": 1, "b": 2}, "x": [1]}, {"margin": {"b": 5}, "x": [2]}) == \
        {"margin": {"l": 1, "b": 5}, "x": [2]}


def test_colorscale_is_plotlys_expansion_of_the_name():
    for name in ("RdBu", "Viridis"):
        want = go.Figure(go.Contour(z=[[0, 1], [1, 0]], colorscale=name)).to_dict()["data"][0]["colorscale"]
        assert build.colorscale(name) == want
        build.colorscale(name)[0][1] = "changed"  # a copy each call
        assert build.colorscale(name) == want


#: a subscript typed the plain-text way ("f_α", "θ_c", "K_c"), which plotly shows as typed
UNDERSCORE_SCRIPT = re.compile(r"[A-Za-zα-ωΑ-Ω]_[A-Za-z0-9α-ωΑ-Ω{(]")


@pytest.mark.parametrize("name", NAMES)
def test_kernels_page_figures_write_no_underscore_subscripts(parts, name):
    """Titles, axis titles, legend entries, colour-bar titles and hover texts write the page's notation
    (f(α), f(α, β), θ·c′Kc), never a plain-text underscore subscript such as f_α or θ_c, which plotly
    shows as typed."""
    from tests.apptest_utils import texts_of

    d = json.loads(parts[name]().to_json())
    texts = texts_of(d) + [t["hovertemplate"] for t in d["data"] if t.get("hovertemplate")]
    assert texts
    assert not [t for t in texts if UNDERSCORE_SCRIPT.search(t)], name
