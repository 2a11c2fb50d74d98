"""AppTest of the "Regularization path" page: renders, reacts to its widgets, offers the CSVs."""
from __future__ import annotations


import numpy as np
from streamlit.testing.v1 import AppTest

from svmviz import data
from svmviz.path import nu_path

from .apptest_utils import decode, figure_titled as _fig, figures_by_title as _figs, page_path
from .apptest_utils import traces_named as _traces

PAGE = page_path("3_Regularization_path.py")
N = 80


def _arr(v):
    return decode(v, float)


def _run(shared=None, **state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["_svmviz_shared"] = {"data": "banana", "n": N, **(shared or {})}
    for k, v in state.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _metrics(at):
    return {m.label: m.value for m in at.metric}


def test_default_page_draws_paths_map_groups_and_loo_that_match_the_numerics():
    at = _run()
    assert not at.error, [e.value for e in at.error]
    titles = list(_figs(at))
    for prefix in ("Coefficient paths", "ν-SVM at λ", "Group sizes", "Leave-one-out along the path"):
        assert any(t.startswith(prefix) for t in titles), titles
    ds = data.banana(n=N, seed=0)
    ref = nu_path(ds.X, ds.y, sigma=1.0)
    cp = _fig(at, "Coefficient paths")
    for c, name in ((-1, "α_i y_i, class -1"), (1, "α_i y_i, class 1")):
        tr = _traces(cp, name)[0]
        y = _arr(tr["y"])
        x = _arr(tr["x"])
        # one polyline per point of the class, separated by NaN; α y on the class's side of zero
        assert np.sum(np.isnan(y)) == np.sum(ds.y == c)
        yy = y[~np.isnan(y)]
        assert np.all(c * yy >= -1e-12) and np.all(np.abs(yy) <= 1 + 1e-12)
        assert np.nanmax(x) == ref.lambdas[-1]
        # every vertex lies on the reference path
        pts = np.asarray(decode(tr["customdata"], float))[:, 0].astype(int)
        ok = ~np.isnan(y)
        for xv, yv, i in list(zip(x[ok], y[ok], pts[ok]))[::7]:
            assert abs(ref.alpha_at(xv)[i] * c - yv) < 1e-9
    # the metrics at the cursor agree with the map's markers and with the path
    m = _metrics(at)
    lam = float(at.slider(key="path_lam").value)
    g = ref.groups_at(lam)
    assert int(m["Support vectors"]) == int(np.sum(g != 0))
    assert int(m["|E| margin"]) == int(np.sum(g == 1))
    mp = _fig(at, "ν-SVM at λ")
    n_e = sum(_arr(t["x"]).size for t in _traces(mp, "class") if "E:" in t["name"])
    assert n_e == int(m["|E| margin"])
    loo = _fig(at, "Leave-one-out along the path")
    l1 = _arr(_traces(loo, "LOO1")[0]["y"])
    assert l1.size == 30 and np.all((l1 >= 0) & (l1 <= 1))
    assert np.all(np.isfinite(_arr(_traces(loo, "test error")[0]["y"])))
    labels = [b.label for b in at.get("download_button")]
    assert any(lbl.startswith("Download the path") for lbl in labels)
    assert any(lbl.startswith("Download leave-one-out") for lbl in labels)


def test_cursor_moves_the_boundary_and_the_counts():
    at = _run()
    at.slider(key="path_lam").set_value(5.0).run()
    mp0 = _fig(at, "ν-SVM at λ")
    z0 = _arr(_traces(mp0, "f(x) + b")[0]["z"]).copy()
    sv0 = int(_metrics(at)["Support vectors"])
    at.slider(key="path_lam").set_value(60.0).run()
    assert not at.exception
    mp1 = _fig(at, "ν-SVM at λ")
    z1 = _arr(_traces(mp1, "f(x) + b")[0]["z"])
    assert z1.shape == z0.shape and not np.allclose(z0, z1)
    assert int(_metrics(at)["Support vectors"]) > sv0  # denser towards λ_max
    assert float(_metrics(at)["λ"]) == 60.0
    assert at.query_params["plam"] == "60"


def test_sigma_kernel_and_axis_widgets_change_the_paths():
    at = _run(path_loo=False)
    assert any("Leave-one-out along the path" in i.value for i in at.info)
    assert len(at.get("plotly_chart")) == 3
    x0 = _arr(_traces(_fig(at, "Coefficient paths"), "breakpoints")[0]["x"]).copy()
    at.select_slider(key="path_sigma").set_value(2.0).run()
    assert not at.exception
    x1 = _arr(_traces(_fig(at, "Coefficient paths"), "breakpoints")[0]["x"])
    assert not (x0.size == x1.size and np.allclose(x0, x1))
    at.radio(key="path_xaxis").set_value("nu").run()
    assert not at.exception
    cp = _fig(at, "Coefficient paths")
    assert cp["layout"]["xaxis"]["title"]["text"].startswith("ν")
    assert np.isclose(np.nanmax(_arr(_traces(cp, "breakpoints")[0]["x"])), 1.0)  # balanced: ν_max = 1
    at.radio(key="path_kernel").set_value("linear").run()
    assert not at.exception and not at.error
    assert at.query_params["pkernel"] == "linear"


def test_high_dimensional_data_show_paths_without_the_map():
    at = _run(shared={"data": "twonorm", "n": 60}, path_loo=False)
    assert not at.error
    assert any("boundary map needs 2" in i.value for i in at.info)
    titles = list(_figs(at))
    assert any(t.startswith("Coefficient paths") for t in titles)
    assert not any(t.startswith("ν-SVM at λ") for t in titles)


def test_bad_csv_shows_an_error_not_an_exception():
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.session_state["_svmviz_shared"] = {"data": "Upload CSV…",
                                          "upload": ("mine.csv", b"x1,x2,label\n1.0,abc,1\n2.0,3.0,-1\n")}
    at.run()
    assert not at.exception
    assert any("mine.csv" in e.value for e in at.error), [e.value for e in at.error]


def test_unbalanced_csv_path_ends_at_twice_the_smaller_class():
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(0, 1, (30, 2)), rng.normal(2, 1, (12, 2))])
    lab = ["a"] * 30 + ["b"] * 12
    text = "u,v,label\n" + "\n".join(f"{x:.6f},{y:.6f},{c}" for (x, y), c in zip(X, lab))
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["_svmviz_shared"] = {"data": "Upload CSV…", "upload": ("two.csv", text.encode())}
    at.session_state["path_loo"] = True
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    cp = _fig(at, "Coefficient paths")
    assert np.isclose(np.nanmax(_arr(_traces(cp, "breakpoints")[0]["x"])), 24.0)
    # no generator behind uploaded data: no test-error curve
    assert not [t for t in _fig(at, "Leave-one-out along the path")["data"] if t["name"].startswith("test")]
