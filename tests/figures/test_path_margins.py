"""The path page's charts are drawn once: each starts with the margins Plotly's automargin wants
(``svmviz.figures.path.MARGINS``), checked here on the figures; in the browser by
tests/browser/test_path_page.py.

Streamlit's theme turns automargin on for every axis; a chart whose layout margins are narrower than
its tick labels, axis titles and legend need is drawn, measured and drawn again (Plotly's
doAutoMargin redraw). In the browser a chart is redrawn when the size Plotly computed (``gd._fullLayout._size``) differs from its layout's margins.
"""
from __future__ import annotations


from svmviz import data, path
from svmviz.figures import path as figs


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
        "summary": (figs.plot_path_summary(figs.compute_path_summary(p), cursor=lam), dict(t=100, b=190)),
        "loo": (figs.plot_loo_curves(figs.compute_loo_curves(p, loo), cursor=lam), dict(t=90, b=150)),
    }
    assert set(built) == set(figs.MARGINS)
    for key, (fig, kept) in built.items():
        margin = fig.to_dict()["layout"]["margin"]
        for side, value in {**kept, **figs.MARGINS[key]}.items():
            assert margin[side] == value, (key, side, margin)
