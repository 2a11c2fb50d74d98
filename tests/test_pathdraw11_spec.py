"""The path page's coefficient-path chart is built as a plain specification (``svmviz.figures.spec``:
trace and layout dictionaries, one ``go.Figure`` without plotly's per-property validation; issue 13,
the page's first chart). It must be the figure plotly's validated construction gives, and valid:
re-validated by ``go.Figure(fig.to_dict())``, so a misspelt property or a refused value fails here.
(Written against the go.Scatter / apply_theme construction it replaced: the same JSON on 90 cases —
five paths, both axes, all / sampled lines, with and without cursor, stop, hover coordinates.)"""
from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from svmviz import data, path
from svmviz.figures import path as figs
from svmviz.figures import spec
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
    monkeypatch.setattr(spec, "VALIDATE", True)
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
