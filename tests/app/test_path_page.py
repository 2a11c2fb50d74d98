"""AppTest of the "Regularization path" page: renders, reacts to its widgets, offers the CSVs; the
leave-one-out chart and its stopping point, σ from the data, the page's URL parameters, the cost gate
(n = 5000), the boundary map of data with more than two features, and a first run that imports no
scikit-learn nor pandas."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmviz import _cost, data, path
from svmviz.path import nu_path

from tests.apptest_utils import assert_clean, assert_link_restores, decode, figure_titled as _fig
from tests.apptest_utils import figures_by_title as _figs, page_path, traces_named as _traces, url_of

from .codeview_utils import open_page
from .test_tuning_page_maps import COLUMNS, six_feature_csv

PAGE = page_path("3_Regularization_path.py")
N = 80


def _arr(v):
    return decode(v, float)


def _run(shared=None, path_loo=None, **state) -> AppTest:
    """The page with the shared data-set choice ``shared``; LOO on/off through the URL (a first run
    takes its view from the URL: the page's ``ploo`` parameter)."""
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.session_state["_svmviz_shared"] = {"data": "banana", "n": N, **(shared or {})}
    if path_loo is not None:
        at.query_params["ploo"] = "1" if path_loo else "0"
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
    for c, name in ((-1, "αᵢyᵢ, class −1"), (1, "αᵢyᵢ, class +1")):
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
    assert int(m["On the margin (E)"]) == int(np.sum(g == 1))
    assert int(m["Bounded (L)"]) == int(np.sum(g == 2))
    mp = _fig(at, "ν-SVM at λ")
    n_e = sum(_arr(t["x"]).size for t in _traces(mp, "class") if "E:" in t["name"])
    assert n_e == int(m["On the margin (E)"])
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
    assert float(_metrics(at)["λ (= m·ν)"]) == 60.0
    assert float(at.query_params["plam"]) == 60.0


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


def test_high_dimensional_data_show_paths_and_the_map_on_two_features():
    at = _run(shared={"data": "twonorm", "n": 60}, path_loo=False)
    assert not at.error
    assert any("other 18 features at their medians" in c.value for c in at.caption)
    # the generator's test sample gives the test error
    m = _metrics(at)
    ds = data.twonorm(n=60, seed=0)
    te = ds.test_sample(2000, seed=20_000)
    lam = float(at.slider(key="path_lam").value)
    ref = nu_path(ds.X, ds.y, sigma=at.select_slider(key="path_sigma").value)
    assert float(m["Test error"]) == pytest.approx(ref.error_rate(te.X, te.y, lam), abs=5e-4)
    titles = list(_figs(at))
    assert any(t.startswith("Coefficient paths") for t in titles)
    assert any(t.startswith("ν-SVM at λ") for t in titles)


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


# ------------------------------------------------------------------ the LOO chart
def _loo_panels(at):
    fig = _fig(at, "Leave-one-out along the path")
    l1 = _traces(fig, "LOO1")[0]
    l2 = _traces(fig, "LOO2")[0]
    return fig, l1, l2


def test_loo_chart_puts_error_rates_and_loo2_on_their_own_readable_axes():
    """wahba2001, n = 200: LOO2 reached 261 at the sparse end and flattened LOO1 and the test error
    (0.1–0.3) to a line at 0 on one shared axis. Now: error rates on a linear axis of their own
    scale, LOO2 on a second, log-scaled axis; where the margin is 0 (ν < ν_min) nothing is drawn
    and the stretch is shaded, with a legend entry."""
    at = _run(shared={"data": "wahba2001", "n": 200})
    fig, l1, l2 = _loo_panels(at)
    lay = fig["layout"]
    assert l1.get("yaxis", "y") == "y" and l2["yaxis"] == "y2"
    assert lay["yaxis2"]["type"] == "log"
    y1 = _arr(l1["y"])
    te = _arr(_traces(fig, "test error")[0]["y"])
    top = lay["yaxis"]["range"][1]
    assert np.nanmax(y1) > 0.3 * top and top < 0.5  # the error rates fill their axis
    assert np.nanmax(te) <= top
    y2 = _arr(l2["y"])
    assert np.all(np.isnan(y2) == np.isnan(y1))
    assert np.isnan(y2[0]) and np.nanmax(y2) < 100  # the 261 of the zero-margin sparse end is not drawn
    assert np.nanmin(y2) < 1 < np.nanmax(y2)  # real values spanning decades: why the log axis
    assert _traces(fig, "margin ρ = 0")
    assert any(c.value.startswith("LOO2 is the left-out points' hinge loss") for c in at.caption)


def test_loo2_values_far_above_one_are_those_of_brute_force_refits():
    """The page's LOO2 is the independent brute-force value (every point refitted by an interior-point
    QP, tests/naive/path.py) where it is far above 1: wahba2001, n = 80, at its sparse end."""
    from tests.naive import path as nv
    from svmviz.kernels import gram
    from svmviz.path import loo_path

    ds = data.wahba2001(n=80, seed=0)
    p = nu_path(ds.X, ds.y, sigma=1.0)
    lam = 2.311608287453264
    lp = loo_path(p, [lam])
    assert not lp.rho_zero[0] and lp.loo2[0] > 5
    yf, rho = nv.brute_force_loo(gram(ds.X, sigma=1.0), p.y, lam)
    loo1, loo2, _ = nv.loo_errors(yf, rho)
    assert lp.loo1[0] == loo1
    assert lp.loo2[0] == pytest.approx(loo2, rel=1e-6)


@pytest.mark.parametrize("name", ["wahba2001", "esl_mixture", "ringnorm", "usvc_A"])
def test_automatic_stopping_point_is_the_sparsest_near_best_solution(name):
    """The old rule ("LOO2 stays within 5 % for 5 evaluations") stopped at λ_max (ν = 1,
    every point a support vector) on esl_mixture and ringnorm. Now, with the page's defaults
    (n = 200, seed 0): the stop has LOO1 within one standard error of the path's best, far fewer
    support vectors than λ_max, a margin, and a test error near the path's best."""
    at = _run(shared={"data": name, "n": 200})
    ds = data.make_dataset(name, n=200, seed=0)
    fig, l1, l2 = _loo_panels(at)
    x = _arr(l1["x"])
    y1 = _arr(l1["y"])
    stop = float(_arr(_traces(fig, "automatic stopping point")[0]["x"])[0])
    k = int(np.argmin(np.abs(x - stop)))
    assert x[k] == pytest.approx(stop)
    assert np.isfinite(y1[k])  # not in the zero-margin stretch
    best = np.nanmin(y1)
    se = max(np.sqrt(best * (1 - best) / 200), 1 / 200)
    assert y1[k] <= best + se + 1e-12
    lam_max = 2 * min(np.sum(ds.y > 0), np.sum(ds.y < 0))
    assert stop < 0.75 * lam_max
    p = nu_path(ds.X, ds.y, sigma=at.select_slider(key="path_sigma").value)
    assert np.sum(p.alpha_at(stop) > 0) <= 0.75 * np.sum(p.alpha_at(lam_max) > 0)
    te = _arr(_traces(fig, "test error")[0]["y"])
    assert te[k] <= np.nanmin(te) + 0.03
    assert float(at.slider(key="path_lam").value) == pytest.approx(stop, abs=float(x.max()) / 1000)


# ------------------------------------------------------------------ links and defaults
def test_sigma_follows_the_data_set():
    """After banana (σ = 1), 20-D twonorm kept σ = 1.0 — a degenerate path with every
    point on the margin — although the help promised the median-distance default."""
    from svmviz.ivm import sigma_heuristic
    from svmviz.ui.path import SIGMAS

    at = _run(path_loo=False)
    assert at.select_slider(key="path_sigma").value == 1.0
    at.selectbox(key="path_data").select("twonorm").run()
    assert not at.exception and not at.error
    h = sigma_heuristic(data.twonorm(n=N, seed=0).X)
    expect = min(SIGMAS, key=lambda v: abs(np.log(v / h)))
    assert expect >= 3.0
    assert at.select_slider(key="path_sigma").value == expect
    assert float(at.query_params["psigma"]) == expect
    # the user's own σ stays while the data set does
    at.select_slider(key="path_sigma").set_value(7.0).run()
    at.number_input(key="path_seed").set_value(3).run()
    assert at.select_slider(key="path_sigma").value == 7.0


def test_shared_link_restores_axis_and_loo_evaluation_points():
    at = AppTest.from_file(PAGE, default_timeout=300)
    at.query_params.update({"data": "banana", "n": str(N), "seed": "0", "pxaxis": "nu", "pevals": "10",
                            "ploo": "1", "psigma": "0.71"})
    at.run()
    assert not at.exception
    assert at.radio(key="path_xaxis").value == "nu"
    assert at.select_slider(key="path_evals").value == 10
    assert at.select_slider(key="path_sigma").value == 0.71
    assert _arr(_traces(_fig(at, "Leave-one-out along the path"), "LOO1")[0]["y"]).size == 10
    at.select_slider(key="path_evals").set_value(20).run()
    assert at.query_params["pevals"] == "20" and at.query_params["pxaxis"] == "nu"


def test_opening_the_page_keeps_a_shared_n_of_1500():
    """The page's n range ended at 1000 and clamped a shared n of 1500 for every page."""
    at = _run(shared={"data": "banana", "n": 1500}, path_loo=False)
    assert at.slider(key="path_n").value == 1500
    assert at.session_state["_svmviz_shared"]["n"] == 1500
    assert at.query_params["n"] == "1500"


def test_breakpoint_counts_agree():
    """The status said 694 breakpoints, the chart's legend 686 (eight λ repeated where b and
    ρ jump). Both count distinct λ now, and say how many are also jumps."""
    at = _run(shared={"data": "banana", "n": 200}, path_loo=False)
    cp = _fig(at, "Coefficient paths")
    legend = _traces(cp, "breakpoints")[0]["name"]
    n_legend = int(legend.split("(")[1].split(")")[0])
    status = [c.value for c in at.caption if c.value.startswith("Path: ")][0]
    assert status.startswith(f"Path: {n_legend} breakpoints")


# ------------------------------------------------------------------ estimate, ask, subsample
def test_costly_leave_one_out_asks_first_and_offers_a_subsample(monkeypatch):
    """LOO estimated above 10 s is not started: the page asks ("Run (about N s)") and offers a
    seeded subsample; the path's charts are drawn meanwhile. Run computes it; the subsample button
    sets n for every page."""
    from svmviz import _cost
    from svmviz.ui import compute

    # a slow machine: ~13 s at n = 120 (refits ∝ n below 200), so a subsample of about half fits in 8 s;
    # its speed known (as after a first run), so that the question says how long
    monkeypatch.setattr(_cost, "PATH_LOO_REFIT", {200: 0.005, 500: 0.005, 1000: 0.01, 2000: 0.02})
    monkeypatch.setattr(compute, "_calibrated", lambda name: True)
    at = _run(shared={"data": "banana", "n": 120}, path_loo=True)
    labels = [b.label for b in at.button]
    run = [b for b in at.button if b.label.startswith("Run (about")]
    sub = [b for b in at.button if b.label.startswith("Use a seeded subsample of")]
    assert run and sub, labels
    assert any("takes about" in i.value for i in at.info)
    titles = list(_figs(at))
    assert any(t.startswith("Coefficient paths") for t in titles)
    assert not any(t.startswith("Leave-one-out along the path") for t in titles)
    m = int(sub[0].label.split("subsample of ")[1].split(" ")[0])
    assert 40 <= m < 120
    sub[0].click().run()
    assert not at.exception
    assert at.slider(key="path_n").value == m and at.session_state["_svmviz_shared"]["n"] == m
    assert not [b for b in at.button if b.label.startswith("Run (about")]  # under 10 s now: computed
    lp = _fig(at, "Leave-one-out along the path")
    assert _arr(_traces(lp, "LOO1")[0]["y"]).size == 30


def test_run_button_computes_the_costly_leave_one_out(monkeypatch):
    from svmviz import _cost

    monkeypatch.setattr(_cost, "PATH_LOO_REFIT", {200: 0.05, 500: 0.05, 1000: 0.1, 2000: 0.2})
    at = _run(shared={"data": "banana", "n": 60}, path_loo=True)
    run = [b for b in at.button if b.label == "Run"]  # its time on this machine not known yet
    assert run and not [b for b in at.button if b.label.startswith("Use a seeded")]  # nothing small enough
    run[0].click().run()
    assert not at.exception
    lp = _fig(at, "Leave-one-out along the path")
    assert _arr(_traces(lp, "LOO1")[0]["y"]).size == 30
    # once computed it stays: another rerun asks nothing
    at.run()
    assert not [b for b in at.button if b.label.startswith("Run")]


# ------------------------------------------------------------------ the cost gate at n = 5000
# The Regularization path page at n = 5000: the page accepts n = 5000, estimates the path's cost
# from svmviz._cost, asks before starting it and offers a seeded subsample that fits in the ~10 s
# budget (the path's own time and memory at large n: ``bench/bench_path.py --big 5000``). No path has
# run on this server yet, so the question names no duration.
def test_path_page_asks_before_a_5000_point_path():
    assert path.MAX_N >= 5000
    at = AppTest.from_file(page_path("3_Regularization_path.py"), default_timeout=120)
    for k, v in {"data": "banana", "n": "5000", "seed": "0"}.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    assert not at.error, [e.value for e in at.error]
    assert [s.value for s in at.slider if s.key and s.key.endswith("_n")] == [5000]  # not clamped
    assert any("ν-SVM path of 5000 points can take a while" in i.value for i in at.info), [i.value for i in at.info]
    run = [b.label for b in at.button if b.label == "Run"]
    sub = [b.label for b in at.button if b.label.startswith("Use a seeded subsample of")]
    assert run and sub, [b.label for b in at.button]
    m = int(sub[0].split("subsample of ")[1].split(" ")[0])
    assert 2000 < m < 5000 and _cost.path_seconds(m) <= 10.0


# ------------------------------------------------------------------ more than two features: the boundary map
# The Regularization path page on data with more than two features: the boundary map on the chosen
# plane with the class names, every feature in the hover, the axes kept in the link.

PAGE_FILE = "3_Regularization_path.py"


def test_six_features_draw_the_boundary_map_on_chosen_features_with_class_names():
    at = open_page(PAGE_FILE, {"ploo": "0", "map_x": "height_cm"},
                   shared={"data": "Upload CSV…", "upload": ("cars.csv", six_feature_csv())})
    fig = _fig(at, "ν-SVM at λ")
    names = {t.get("name") for t in fig["data"]}
    assert any(str(n).startswith("Japan,") for n in names) and any(str(n).startswith("USA,") for n in names)
    assert fig["layout"]["xaxis"]["title"]["text"] == "height_cm (standardised)"
    assert fig["layout"]["yaxis"]["title"]["text"] == "income (standardised)"
    pts = [t for t in fig["data"] if t.get("type") == "scatter" and t.get("customdata") is not None]
    assert pts and all(f"{c} = %{{customdata[" in t["hovertemplate"] for t in pts for c in COLUMNS)
    assert any("other 4 features at their medians" in c.value for c in at.caption)
    assert not any("the boundary map needs 2" in i.value for i in at.info)


def test_path_map_axes_round_trip_through_the_link():
    at = open_page(PAGE_FILE, {"data": "twonorm", "n": "40", "ploo": "0", "map": "components"})
    assert _fig(at, "ν-SVM at λ")["layout"]["xaxis"]["title"]["text"].startswith("1st principal")
    assert url_of(at)["map"] == "components"
    assert_link_restores(PAGE, at, ["path_map_kind"])


# ------------------------------------------------------------------ what the first run imports
# The path page's first run imports no scikit-learn, pandas or scipy.special: neither its header
# (svmviz.ui.presets -> svmviz.published: pandas) nor its data sidebar (svmviz.ui.edit ->
# svmviz.figures.edit -> svmviz.figures.tuning -> svmviz.tuning: sklearn) may import them before the
# path's computation starts.
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PROBE = """
import json, os, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(os.path.join({root!r}, "pages", "3_Regularization_path.py"), default_timeout=600).run()
print(json.dumps({{"charts": len(at.get("plotly_chart")), "exception": len(at.exception), "error": len(at.error),
                  "heavy": [m for m in ("sklearn", "pandas", "scipy.special", "svmviz.tuning") if m in sys.modules]}}))
"""


def test_the_path_pages_first_run_imports_no_scikit_learn_nor_pandas():
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", PROBE.format(root=ROOT)], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["exception"] == 0 and res["error"] == 0 and res["charts"] >= 3, res
    assert res["heavy"] == [], res
