"""The Kernels & variable selection page's reruns: one fit of every kernel per rerun (exact LOO
refits the fits' own support vectors, :func:`svmviz.anova.add_exact_loo`), bit for bit the numbers
of ``compare_kernels(loo=True)`` and of an independent per-kernel ``gram_criteria_curves(loo=True)``;
the criteria chart drawn once per rerun when exact LOO is quick; the importance, interaction and
main-effect panels."""
from __future__ import annotations

import functools

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmviz import anova, data
from svmviz.kernels import SSANOVAKernel, fit_kernel, gram, kernel_diagonal
from svmviz.tuning import gram_criteria_curves

from tests.apptest_utils import figure_titled

LAMS = np.logspace(-5, -1, 6)


def _kernels():
    return {"G": "rbf", "A": SSANOVAKernel(order="additive"), "T": SSANOVAKernel(order="two-way", base="gaussian",
                                                                                  sigma=0.35)}


def _same(a, b):
    """Bitwise equality of two arrays (NaN where NaN, -0.0 kept apart from 0.0)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _assert_curves_equal(c1, c2):
    assert set(c1.values) == set(c2.values)
    for k in c1.values:
        assert _same(c1.values[k], c2.values[k]), k
    assert c1.best == c2.best
    for f in ("lambdas", "alphas", "b", "f_train", "f_loo", "n_sv", "status", "K_diag"):
        assert _same(getattr(c1, f), getattr(c2, f)), f


@pytest.mark.parametrize("name, kw, sigma", [("anova_structure", dict(n=70, seed=4), 1.4),
                                             ("twonorm", dict(n=60, seed=2), 2.0)])
def test_loo_from_the_fits_is_bitwise_compare_kernels_and_gram_criteria_curves(name, kw, sigma):
    ds = data.make_dataset(name, **kw)
    t = ds.test_sample(200, seed=9)
    args = (ds.X, ds.y, LAMS, _kernels())
    opts = dict(sigma=sigma, p_true=ds.p_true, X_test=t.X, y_test=t.y)
    fits = anova.compare_kernels(*args, loo=False, **opts)
    assert all("loo" not in c.values for c in fits.curves)
    two_step = anova.add_exact_loo(fits, ds.y)
    assert all("loo" not in c.values for c in fits.curves)  # the cached fits are not changed
    one_call = anova.compare_kernels(*args, loo=True, **opts)
    assert two_step.names == one_call.names
    assert _same(two_step.test_error, one_call.test_error)
    yy = np.where(ds.y > 0, 1.0, -1.0)
    for q, (label, kern) in enumerate(_kernels().items()):
        _assert_curves_equal(two_step.curves[q], one_call.curves[q])
        # an independent path: the kernel's gram and the one-problem criteria routine with LOO
        kf = fit_kernel(kern, ds.X)
        ref = gram_criteria_curves(gram(ds.X, kernel=kf, sigma=sigma), yy, LAMS,
                                   K_diag=kernel_diagonal(kf, ds.X, sigma=sigma), p_true=ds.p_true(ds.X), loo=True)
        _assert_curves_equal(two_step.curves[q], ref)


def test_add_exact_loo_refuses_a_result_without_grams():
    ds = data.make_dataset("anova_structure", n=40, seed=0)
    fits = anova.compare_kernels(ds.X, ds.y, LAMS[:2], {"G": "rbf"}, sigma=1.0)
    with pytest.raises(ValueError, match="no gram matrices"):
        anova.add_exact_loo(fits._replace(grams=None), ds.y)


def _counting(monkeypatch, module, name, *also):
    """Counts the calls of ``module.name``, also where the modules ``also`` hold it (a view's plan holds
    the function it imported)."""
    calls = []
    real = getattr(module, name)

    @functools.wraps(real)
    def wrapped(*a, **k):
        calls.append(name)
        return real(*a, **k)

    for m in (module,) + also:
        monkeypatch.setattr(m, name, wrapped)
    return calls


def test_a_seed_change_fits_every_kernel_once_and_draws_the_criteria_chart_once(monkeypatch):
    """A warm Seed + 1 with exact LOO on: three kernels fitted along λ three times (not six: the LOO
    step used to fit them all again), the criteria figure built once (not twice: a preliminary chart
    without LOO drawn and replaced at every rerun)."""
    from svmviz.figures import anova as fig
    from svmviz.ui import anova as page
    from svmviz.views import anova as view

    at = AppTest.from_string("from svmviz.ui import anova\nanova.page()\n", default_timeout=240)
    at.query_params["n"] = "60"
    at.query_params["seed"] = "8101"
    at.run()  # the server's first exact LOO: the fits' chart first (compilation may take long)
    assert not at.exception, at.exception
    assert page._LOO_RAN[0]
    # the fits' chart was drawn first and replaced: its note that LOO follows is gone with it
    assert not [c.value for c in at.caption if "added once it is computed" in c.value]
    fits = _counting(monkeypatch, anova, "gram_criteria_curves")
    draws = _counting(monkeypatch, fig, "plot_kernel_curves", view)
    at.sidebar.number_input(key="anova_seed").set_value(8102).run()
    assert not at.exception, at.exception
    assert len(fits) == 3, fits
    assert len(draws) == 1, draws
    panels = [a["text"] for a in figure_titled(at, "Tuning criteria along λ")["layout"]["annotations"]]
    assert any(p.startswith("exact leave-one-out") for p in panels), panels


# ----------------------------------------------------------------------------- merged figures
_PLACEMENT = ("xaxis", "yaxis", "showlegend", "legendgroup", "colorbar")


def _data(trace_json):
    """A trace's data and hover text, without where it sits (axes, legend, colour bar placement)."""
    out = {k: v for k, v in trace_json.items() if k not in _PLACEMENT}
    if "colorbar" in trace_json:
        out["colorbar title"] = trace_json["colorbar"]["title"]["text"]
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in out.items()}


def _on(js, axis):
    return [t for t in js["data"] if t.get("xaxis", "x") == axis]


@pytest.fixture(scope="module")
def expansion():
    from svmviz.svm import SVMClassifier

    ds = data.make_dataset("anova_structure", n=80, seed=3, d=4)
    svm = SVMClassifier(lam=1e-3, kernel=SSANOVAKernel(order="two-way")).fit(ds.X, ds.y)
    return ds, anova.expansion_of(svm)


@pytest.mark.parametrize("measure", ["norm", "rms"])
def test_the_importance_panels_are_the_two_old_charts(expansion, measure):
    from svmviz.figures import anova as fig

    ds, exp = expansion
    bars = fig.compute_importances(exp, X=ds.X, measure=measure)
    js = fig.plot_importance_panels(bars).to_plotly_json()
    var = fig.plot_variable_importances(bars).to_plotly_json()
    comp = fig.plot_importances(bars).to_plotly_json()
    assert [_data(t) for t in _on(js, "x")] == [_data(t) for t in var["data"]]
    assert [_data(t) for t in _on(js, "x2")] == [_data(t) for t in comp["data"]]
    lay = js["layout"]
    for mine, old in (("xaxis", var["layout"]["xaxis"]), ("yaxis", var["layout"]["yaxis"]),
                      ("xaxis2", comp["layout"]["xaxis"]), ("yaxis2", comp["layout"]["yaxis"])):
        assert lay[mine]["title"]["text"] == old["title"]["text"]
    assert list(lay["yaxis2"]["categoryarray"]) == list(comp["layout"]["yaxis"]["categoryarray"])
    assert [a["text"] for a in lay["annotations"][:2]] == [var["layout"]["title"]["text"],
                                                           comp["layout"]["title"]["text"]]
    assert lay["title"]["text"].startswith("Importance by variable and by component")
    # the legend: main effect / interaction once; the variable bars are not in it
    assert [t["name"] for t in js["data"] if t.get("showlegend", True)] == ["main effect", "interaction"]


def test_the_interaction_panels_are_the_old_maps(expansion):
    from svmviz.figures import anova as fig

    ds, exp = expansion
    its = [fig.compute_interaction(exp, 0, 1, ds.X, ds.y, grid_n=15),
           fig.compute_interaction(exp, 2, 3, ds.X, ds.y, grid_n=15)]
    js = fig.plot_interaction_panels(its).to_plotly_json()
    lay = js["layout"]
    for p, (axis, it) in enumerate(zip(("x", "x2"), its)):
        old = fig.plot_interaction(it).to_plotly_json()
        assert [_data(t) for t in _on(js, axis)] == [_data(t) for t in old["data"]]
        sfx = "" if p == 0 else "2"
        assert lay[f"xaxis{sfx}"]["title"]["text"] == old["layout"]["xaxis"]["title"]["text"]
        assert lay[f"yaxis{sfx}"]["title"]["text"] == old["layout"]["yaxis"]["title"]["text"]
        assert lay["annotations"][p]["text"] == old["layout"]["title"]["text"]
        # each panel's colour bar beside that panel
        cb = [t for t in _on(js, axis) if t["type"] == "contour"][0]["colorbar"]
        assert cb["x"] > lay[f"xaxis{sfx}"]["domain"][1]
    assert cb["x"] > lay["xaxis"]["domain"][1]
    assert [t["name"] for t in js["data"] if t.get("showlegend", True) and t["type"] == "scatter"] == \
        ["class −1", "class +1"]
    one = fig.plot_interaction_panels(its[:1]).to_plotly_json()
    assert [_data(t) for t in one["data"]] == [_data(t) for t in fig.plot_interaction(its[0]).to_plotly_json()["data"]]
    with pytest.raises(ValueError, match="at least one"):
        fig.plot_interaction_panels([])


def test_the_main_effects_rug_is_one_line_per_class_and_panel(expansion):
    """The data's ticks under each main effect: one line trace per class and panel whose ticks stand
    at exactly that class's values of the variable (not one marker node per point), one unbroken line
    whose joins lie below the panel's y range (no NaN gaps between the ticks)."""
    from svmviz.figures import anova as fig

    ds, exp = expansion
    me = fig.compute_main_effects(exp, ds.X, ds.y, grid_n=21)
    f = fig.plot_main_effects(me)
    assert not [t for t in f.data if "markers" in (t.mode or "")]
    order = np.argsort(-me.importance, kind="stable")
    for p, a in enumerate(order):
        axis = "x" if p == 0 else f"x{p + 1}"
        for cls, label in ((-1, "class −1"), (1, "class +1")):
            tr = [t for t in f.data if (t.xaxis or "x") == axis and t.name == f"data ({label})"]
            assert len(tr) == 1
            x = np.asarray(tr[0].x, dtype=float)
            y = np.asarray(tr[0].y, dtype=float)
            # one unbroken line (NaN gaps cost Plotly as much as the rest of the chart), a
            # tick up and back down at every value, joined below the axis's range (clipped away)
            assert np.all(np.isfinite(x)) and np.all(np.isfinite(y))
            want = np.sort(ds.X[ds.y == cls, a])
            for k in range(3):
                np.testing.assert_array_equal(x[k::3], want)
            yr = f.layout[f"yaxis{'' if p == 0 else p + 1}"].range
            assert np.ptp(y[0::3]) == 0 and np.ptp(y[1::3]) == 0 and np.array_equal(y[2::3], y[0::3])
            assert y[0] < yr[0] < y[1] < np.min(me.values)  # from under the panel's bottom edge, below the curves
        rng = f.layout[f"xaxis{'' if p == 0 else p + 1}"].range
        assert rng[0] < me.grids[a][0] and rng[1] > me.grids[a][-1]  # the range's ends are inside the axis
