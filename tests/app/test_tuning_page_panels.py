"""The Tuning criteria page's criteria surfaces are the panels of ONE figure
(:func:`svmviz.figures.tuning.plot_contour_panels`) instead of one chart per criterion: fewer charts
for the browser to draw at every rerun (``bench/bench_warm_breakdown.py --pages tuning`` measures the
renderer's and the server's CPU). These tests check that the panels carry exactly the numbers,
markers and legend of the per-criterion charts, and that the page draws two charts.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmviz.figures import tuning as F

from tests.apptest_utils import assert_clean, decode, figures, page_path


@pytest.fixture(scope="module")
def surf():
    from svmviz import data as _data
    from svmviz.tuning import criteria_surface

    ds = _data.make_dataset("wahba2001", n=80, seed=1)
    return criteria_surface(ds.X, ds.y, np.logspace(-4, -0.5, 7), np.logspace(-1, 1, 6), L=(1.0, 1.0),
                            p_true=ds.p_true(ds.X), loo=False)


def _panels(fig: dict) -> dict:
    """label -> traces on that panel's axes."""
    out = {}
    for t in fig["data"]:
        if t.get("type") == "contour":
            axes = (t.get("xaxis", "x"), t.get("yaxis", "y"))
            out[t["name"]] = [u for u in fig["data"] if (u.get("xaxis", "x"), u.get("yaxis", "y")) == axes]
    return out


def test_each_panel_is_the_single_criterion_chart(surf):
    """Per panel: the same contour (values, colours, hover) and the same markers as plot_contour's
    chart of that criterion; panels in the given order, their titles the criteria's labels."""
    keys = ["gckl", "gacv", "misclass", "xa"]
    cds = [F.compute_contour(surf, k) for k in keys]
    sel = (float(np.log10(surf.lambdas[2])), float(np.log10(surf.sigmas[3])))
    fig = json.loads(F.plot_contour_panels(cds, selected=sel).to_json())
    panels = _panels(fig)
    assert list(panels) == [cd.label for cd in cds]
    subplot_titles = [a["text"] for a in fig["layout"]["annotations"]]
    for cd in cds:
        lo, hi = F.color_range(cd.z)
        assert (cd.label + (" (colour clipped)" if hi < np.nanmax(cd.z) else "")) in subplot_titles
        one = json.loads(F.plot_contour(cd, selected=sel).to_json())["data"]
        mine = panels[cd.label]
        assert len(mine) == len(one)
        for a, b in zip(mine, one):
            assert a["type"] == b["type"] and a.get("name", "").split(" (")[0] == b.get("name", "").split(" (")[0]
            for field in ("x", "y", "z"):
                if field in b:
                    assert np.array_equal(decode(a[field]), decode(b[field]), equal_nan=True)
            for field in ("marker", "hovertemplate", "colorscale", "contours", "zmin", "zmax"):
                assert a.get(field) == b.get(field), field
        np.testing.assert_array_equal(decode(panels[cd.label][0]["z"]), surf.values[cd.key])
        # its own minimizer: the large white marker at the surface's grid minimizer
        i, j = surf.best[cd.key]
        own = [t for t in mine if t.get("name", "").startswith(f"min {cd.label} (")]
        assert len(own) == 1 and own[0]["marker"]["color"] == "white"
        assert (own[0]["x"][0], own[0]["y"][0]) == pytest.approx((np.log10(surf.lambdas[j]), np.log10(surf.sigmas[i])))
        cross = [t for t in mine if t.get("name") == "selected (λ, σ)"]
        assert len(cross) == 1 and (cross[0]["x"][0], cross[0]["y"][0]) == pytest.approx(sel)


def test_one_legend_entry_per_name_and_each_colour_bar_beside_its_panel(surf):
    keys = ["gckl", "gacv", "misclass", "xa"]
    fig = json.loads(F.plot_contour_panels([F.compute_contour(surf, k) for k in keys],
                                           selected=(-2.0, 0.0)).to_json())
    shown = [t["name"] for t in fig["data"] if t.get("type") != "contour" and t.get("showlegend", True)]
    assert len(shown) == len(set(shown))
    every = {t["name"] for t in fig["data"] if t.get("type") != "contour"}
    assert every == set(shown)  # every marker kind has its entry, which toggles it in every panel
    assert all(t["legendgroup"] == t["name"] for t in fig["data"] if t.get("type") != "contour")
    lay = fig["layout"]
    for t in (t for t in fig["data"] if t.get("type") == "contour"):
        ax = t.get("xaxis", "x").replace("x", "xaxis")
        ay = t.get("yaxis", "y").replace("y", "yaxis")
        x0, x1 = lay[ax]["domain"]
        y0, y1 = lay[ay]["domain"]
        cb = t["colorbar"]
        assert x1 < cb["x"] < x1 + 0.05 and cb["xanchor"] == "left"  # right of its panel, in the gap
        assert cb["y"] == pytest.approx((y0 + y1) / 2) and cb["len"] == pytest.approx(y1 - y0)
        assert cb["x"] + 0.12 < 1.0 or x1 > 0.9  # a left panel's bar ends before the right panel starts
    titles = {lay[k]["title"]["text"] for k in lay if k.startswith(("xaxis", "yaxis"))}
    assert titles == {"log10 λ", "log10 σ"}


def test_odd_number_of_panels_and_no_panel(surf):
    fig = F.plot_contour_panels([F.compute_contour(surf, k) for k in ("gacv", "xa", "misclass")])
    assert len(_panels(json.loads(fig.to_json()))) == 3
    with pytest.raises(ValueError, match="at least one"):
        F.plot_contour_panels([])


def test_the_tuning_page_draws_two_charts():
    """The page draws two charts: the criteria panels and the decision curves (not one contour chart
    per criterion)."""
    at = AppTest.from_file(page_path("1_Tuning_criteria.py"), default_timeout=180)
    at.run()
    at.sidebar.slider(key="tuning_n").set_value(80)
    at.sidebar.slider(key="tuning_res").set_value(8)
    at.run()
    assert_clean(at)
    figs = figures(at)
    assert [f["layout"]["title"]["text"] for f in figs] == ["Criteria over (λ, σ)", "Decision curves"]
    assert list(_panels(figs[0])) == ["GCKL", "GACV", "MISCLASS", "XA (ξα)"]
