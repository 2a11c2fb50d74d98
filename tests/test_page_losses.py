"""AppTest of the "Loss functions & randomized GACV" page: renders, reacts to its widgets, offers CSVs."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from .apptest_utils import decode, figure_titled as _by_title, trace_named as _trace

PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pages", "2_Loss_functions.py")


def _arr(v):
    return decode(v, float)


def _y(at, title, name):
    return _arr(_trace(_by_title(at, title), name)["y"]).copy()


def _query(at, name):
    v = at.query_params[name]
    return v[0] if isinstance(v, list) else v


def _run(query=None):
    at = AppTest.from_file(PAGE, default_timeout=120)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


def test_defaults_render_every_figure_and_download():
    at = _run()
    assert not at.error
    titles = [json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")]
    for prefix in ("Loss functions", "Prediction functions", "What f estimates", "Hinge scale", "Misclassification"):
        assert any(t.startswith(prefix) for t in titles), titles
    losses = _by_title(at, "Loss functions")
    assert len(losses["data"]) == 9  # 7 losses + θ̃_s for s = 2 and 4
    assert all(t.get("hovertemplate") for t in losses["data"])
    gacv = _by_title(at, "Hinge scale")
    assert len([t for t in gacv["data"] if t.get("name") == "ranGACV replicates"]) == 5
    lam = _arr(_trace(gacv, "GACV (exact")["x"])
    assert lam.size == 20 and lam[0] == pytest.approx(-5.0) and lam[-1] == pytest.approx(-0.5)
    for name in ("GCKL", "exact LOO V₀", "ranGACV (mean"):
        v = _arr(_trace(gacv, name)["y"])
        assert v.size == 20 and np.all(np.isfinite(v))
    loo = _arr(_trace(_by_title(at, "Misclassification"), "exact LOO misclassification")["y"])
    assert np.all((loo >= 0) & (loo <= 1))
    assert len(at.get("download_button")) == 3
    assert at.dataframe and len(at.dataframe[0].value) == 6


def test_loss_widgets_change_the_loss_and_mu_charts():
    at = _run()
    sig0 = _y(at, "Loss functions", "sigmoid")
    at.slider(key="lf_a").set_value(3.0).run()
    assert not at.exception and _query(at, "lf_a") == "3.0"
    assert not np.allclose(_y(at, "Loss functions", "sigmoid"), sig0)

    v0 = _y(at, "Loss functions", "v_{ε+,ε−}")
    mu0 = _y(at, "Prediction functions", "v_{ε+,ε−}")
    at.slider(key="lf_eps").set_value((-1.0, 1.5)).run()
    assert not at.exception
    assert not np.allclose(_y(at, "Loss functions", "v_{ε+,ε−}"), v0)
    assert not np.allclose(_y(at, "Prediction functions", "v_{ε+,ε−}"), mu0)

    at.multiselect(key="lf_s").set_value([2.0, 4.0, 8.0]).run()
    assert not at.exception
    assert len([t for t in _by_title(at, "Loss functions")["data"] if t["name"].startswith("θ̃_s")]) == 3

    at.multiselect(key="lf_losses").set_value(["hinge", "deviance"]).run()
    assert not at.exception
    assert [t["name"] for t in _by_title(at, "Loss functions")["data"]] == ["hinge (1−τ)₊", "deviance ln(1+e^{−τ})"]
    at.checkbox(key="lf_dev2").check().run()
    assert "ln 2" in _by_title(at, "Loss functions")["data"][1]["name"]

    at.multiselect(key="lf_losses").set_value([]).run()  # bad input: an error message, no traceback
    assert not at.exception and any("at least one loss" in e.value for e in at.error)


def test_curve_widgets_change_the_gacv_charts():
    at = _run()
    g0 = _y(at, "Hinge scale", "GACV (exact")
    r0 = _y(at, "Hinge scale", "ranGACV (mean")
    at.slider(key="lf_sig").set_value(0.3).run()
    assert not at.exception and not at.error
    assert not np.allclose(_y(at, "Hinge scale", "GACV (exact"), g0)

    r1 = _y(at, "Hinge scale", "ranGACV (mean")
    at.slider(key="lf_sz").set_value(0.3).run()
    assert not at.exception
    assert not np.allclose(_y(at, "Hinge scale", "ranGACV (mean"), r1)
    assert not np.allclose(r0, r1)

    at.slider(key="lf_R").set_value(2).run()
    assert len([t for t in _by_title(at, "Hinge scale")["data"] if t.get("name") == "ranGACV replicates"]) == 2
    at.slider(key="lf_m").set_value(8)
    at.slider(key="lf_lam").set_value((-4.0, -1.0)).run()
    x = _arr(_trace(_by_title(at, "Hinge scale"), "GACV (exact")["x"])
    assert x.size == 8 and x[0] == pytest.approx(-4.0)

    at.checkbox(key="lf_loo").uncheck().run()
    assert not at.exception
    names = [t.get("name") for t in _by_title(at, "Hinge scale")["data"]]
    assert not any(str(n).startswith("exact LOO") for n in names)
    # wahba2001 knows p: MISCLASS remains on the misclassification panel
    assert _trace(_by_title(at, "Misclassification"), "MISCLASS")


def test_url_state_and_other_data():
    at = _run({"lf_R": "0", "lf_sig": "0.5", "lf_a": "2.0"})
    assert at.slider(key="lf_R").value == 0 and at.slider(key="lf_a").value == 2.0
    names = [t.get("name") for t in _by_title(at, "Hinge scale")["data"]]
    assert not any("ranGACV" in str(n) for n in names)
    at.selectbox(key="loss_data").select("banana").run()
    assert not at.exception and not at.error
    assert at.slider(key="lf_R").value == 0 and at.slider(key="lf_a").value == 2.0  # the URL view persists
    fig = _by_title(at, "Hinge scale")
    assert not any(str(t.get("name")).startswith("GCKL") for t in fig["data"])  # no truth for banana
