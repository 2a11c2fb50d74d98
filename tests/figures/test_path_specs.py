"""The path page's four charts (coefficient paths, boundary map, group sizes, leave-one-out) are
built as plain specifications (``svmviz.figures.build``: trace and layout dictionaries, one
``go.Figure`` without plotly's per-property validation). Each must be the figure plotly's validated
construction gives, and valid: re-validated by ``go.Figure(fig.to_dict())``, so a misspelt property
or a refused value fails here."""
from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from svmviz import data, path
from svmviz.figures import path as figs
from svmviz.figures import build
from svmviz.figures.theme import slim_template


@pytest.fixture(scope="module")
def coef_paths():
    ds = data.make_dataset("banana", n=80, seed=1)
    p = path.nu_path(ds.X, ds.y, kernel="rbf", sigma=1.0)
    return p, figs.compute_coef_paths(p, max_points=50), figs.compute_coef_paths(p, x_axis="nu")


CALLS = [dict(cursor=3.0, X=True, stop=None), dict(cursor=None, X=False, stop=2.0),
         dict(cursor=1.0, X=True, stop=1.5, classes=("a", "b"))]


@pytest.mark.parametrize("call", range(len(CALLS)))
@pytest.mark.parametrize("which", [1, 2])
def test_coef_paths_figure_is_the_validated_construction(coef_paths, monkeypatch, call, which):
    p, cp = coef_paths[0], coef_paths[which]
    kw = dict(CALLS[call], X=p.X if CALLS[call]["X"] else None)
    fast = figs.plot_coef_paths(cp, **kw)
    assert fast._validate is False  # built without plotly's per-property validation (it was, before)
    monkeypatch.setattr(build, "VALIDATE", True)
    checked = figs.plot_coef_paths(cp, **kw)
    for f in (fast, checked):
        slim_template(f)
    assert json.loads(fast.to_json()) == json.loads(checked.to_json())
    again = go.Figure(fast.to_dict())  # plotly's validation of every property and value
    assert json.loads(again.to_json()) == json.loads(fast.to_json())
    names = [t["name"] for t in fast.to_dict()["data"]]
    assert names[-1 - (kw["cursor"] is not None) - (kw["stop"] is not None)].startswith("breakpoints (")
    lay = fast.to_dict()["layout"]
    assert lay["yaxis"]["range"] == [-1.15, 1.15] and lay["height"] == 480
    assert lay["margin"] == dict(l=85, r=25, t=60, b=130) and lay["legend"]["y"] == -0.16
    assert lay["xaxis"]["title"]["text"] == figs.X_TITLES[cp.x_axis]
    cd = fast.data[0].customdata
    assert cd.dtype == (np.float32 if kw["X"] is not None else np.int32)


def test_a_misspelt_property_fails_revalidation(coef_paths):
    """The re-validation above can fail: a trace property plotly does not know is refused."""
    p, cp = coef_paths[0], coef_paths[1]
    d = figs.plot_coef_paths(cp, cursor=1.0, X=p.X).to_dict()
    d["data"][0]["connectgap"] = False
    with pytest.raises(ValueError):
        go.Figure(d)


def _same_as_validated(make_figure, monkeypatch):
    fast = make_figure()
    assert fast._validate is False  # built without plotly's per-property validation (it was, before)
    with monkeypatch.context() as m:
        m.setattr(build, "VALIDATE", True)
        checked = make_figure()
    for f in (fast, checked):
        slim_template(f)
    assert json.loads(fast.to_json()) == json.loads(checked.to_json())
    again = go.Figure(fast.to_dict())
    assert json.loads(again.to_json()) == json.loads(fast.to_json())
    return fast.to_dict()


@pytest.mark.parametrize("frac", [0.0, 0.3])
def test_boundary_map_is_the_validated_construction(coef_paths, monkeypatch, frac):
    p = coef_paths[0]
    bm = figs.compute_boundary_map(p, frac * float(p.lambdas[-1]), grid_n=15, X_test=p.X[:20], y_test=p.y[:20])
    d = _same_as_validated(lambda: figs.plot_boundary_map(bm), monkeypatch)
    assert d["data"][0]["colorscale"] == build.colorscale("RdBu_r")  # the named scale, reversed, as plotly sends it
    lines = [t for t in d["data"] if t["type"] == "contour"][1:]
    assert [t["contours"]["start"] for t in lines] == [0.0, bm.rho, -bm.rho]  # (at ρ = 0 too, as before)
    assert d["layout"]["margin"] == dict(l=80, r=20, t=80, b=225)


@pytest.mark.parametrize("cursor", [None, 2.0])
def test_path_summary_is_the_validated_construction(coef_paths, monkeypatch, cursor):
    p = coef_paths[0]
    sm = figs.compute_path_summary(p, x_axis="nu")
    d = _same_as_validated(lambda: figs.plot_path_summary(sm, cursor=cursor), monkeypatch)
    assert [t.get("yaxis") for t in d["data"]] == [None, None, None, "y2", "y2"]
    assert d["layout"]["yaxis2"]["title"]["text"] == "b, ρ (dual scale)"
    if cursor is None:
        assert "shapes" not in d["layout"]
    else:  # the cursor as plotly's add_vline draws it
        ref = go.Figure()
        ref.add_vline(x=cursor, line=dict(color="black", width=2))
        assert d["layout"]["shapes"] == ref.to_dict()["layout"]["shapes"]


@pytest.fixture(scope="module")
def loo_curves(coef_paths):
    p = coef_paths[0]
    return figs.compute_loo_curves(p, path.loo_path(p, path.default_loo_lambdas(p, 8), X_test=p.X[:30],
                                                    y_test=p.y[:30]), x_axis="nu")


@pytest.mark.parametrize("bands", [None, (), ((0.0, 0.01), (0.02, 0.03))])
@pytest.mark.parametrize("cursor", [None, 0.2])
def test_loo_curves_are_the_validated_construction(loo_curves, monkeypatch, bands, cursor):
    lc = loo_curves if bands is None else loo_curves._replace(zero_bands=bands)
    d = _same_as_validated(lambda: figs.plot_loo_curves(lc, cursor=cursor), monkeypatch)
    assert d["layout"]["yaxis2"]["type"] == "log" and d["layout"]["xaxis2"]["title"]["text"] == "ν = λ/m"
    assert [a["text"] for a in d["layout"]["annotations"]] == ["Error rates: LOO1 and the test error",
                                                               "LOO2: left-out hinge loss in margin units (log scale)"]
    shapes = d["layout"].get("shapes", [])
    assert len(shapes) == 2 * len(lc.zero_bands)
    if lc.zero_bands:  # as plotly's add_vrect(row=…) draws them, once the panels have traces
        from plotly.subplots import make_subplots

        ref = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.14, row_heights=[0.55, 0.45])
        for row in (1, 2):
            ref.add_trace(go.Scatter(x=[0.0], y=[1.0]), row=row, col=1)
        for a, b in lc.zero_bands:
            for row in (1, 2):
                ref.add_vrect(x0=a, x1=b, fillcolor="#bbbbbb", opacity=0.35, line_width=0, layer="below", row=row,
                              col=1)
        assert shapes == ref.to_dict()["layout"]["shapes"]
