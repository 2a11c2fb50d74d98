"""AppTest of the "Losses & randomized GACV" page: renders, reacts to its widgets, offers CSVs."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.apptest_utils import decode, figure_titled as _by_title, trace_named as _trace

PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "pages", "2_Loss_functions.py")


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
    assert len([d for d in at.get("download_button") if "_code_" not in d.proto.id]) == 3  # besides the code view's
    assert at.dataframe and len(at.dataframe[0].value) == 6


def test_loss_widgets_change_the_loss_and_mu_charts():
    at = _run()
    sig0 = _y(at, "Loss functions", "sigmoid")
    at.slider(key="lf_a").set_value(3.0).run()
    assert not at.exception and _query(at, "lf_a") == "3.0"
    assert not np.allclose(_y(at, "Loss functions", "sigmoid"), sig0)

    v0 = _y(at, "Loss functions", "v(τ; ε₊")
    mu0 = _y(at, "Prediction functions", "v(τ; ε₊")
    at.slider(key="lf_eps").set_value((-1.0, 1.5)).run()
    assert not at.exception
    assert not np.allclose(_y(at, "Loss functions", "v(τ; ε₊"), v0)
    assert not np.allclose(_y(at, "Prediction functions", "v(τ; ε₊"), mu0)

    at.multiselect(key="lf_s").set_value([2.0, 4.0, 8.0]).run()
    assert not at.exception
    assert len([t for t in _by_title(at, "Loss functions")["data"] if t["name"].startswith("θ̃ₛ")]) == 3

    at.multiselect(key="lf_losses").set_value(["hinge", "deviance"]).run()
    assert not at.exception
    assert [t["name"] for t in _by_title(at, "Loss functions")["data"]] == ["hinge (1−τ)₊", "deviance ln(1 + exp(−τ))"]
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


# ---------------------------------------------------------------- paths a person takes
SMALL = {"lf_m": "6", "lf_R": "2", "n": "60"}


def test_no_exact_loo_title_when_loo_is_off():
    """The misclassification panel was titled "exact LOO" with LOO off."""
    at = _run(dict(SMALL, lf_loo="0"))
    titles = [t for t in _figs_titles(at) if t.startswith("Misclassification")]
    assert titles and all("LOO" not in t and "MISCLASS" in t for t in titles), titles
    at.checkbox(key="lf_loo").check().run()
    titles = [t for t in _figs_titles(at) if t.startswith("Misclassification")]
    assert titles and all("exact LOO" in t for t in titles), titles


def _figs_titles(at):
    from tests.apptest_utils import figure_titles

    return figure_titles(at)


def test_no_raw_tex_in_the_figures():
    """Plotly does not render TeX; legends showed `e^{−τ}` and `v_{ε+,ε−}`."""
    from tests.apptest_utils import RAW_TEX, figures, texts_of

    at = _run(SMALL)
    for fig in figures(at):
        for text in texts_of(fig):
            assert not any(t in text for t in RAW_TEX), text
    names = [t["name"] for t in _by_title(at, "Loss functions")["data"]]
    assert "exponential exp(−τ)" in names and "v(τ; ε₊ = 1, ε₋ = 0)" in names, names


def test_shared_link_restores_every_control():
    """Every control of the view is in the link."""
    from tests.apptest_utils import assert_link_restores

    at = _run(SMALL)
    at.multiselect(key="lf_losses").set_value(["hinge", "deviance", "smooth_step"])
    at.slider(key="lf_a").set_value(2.5)
    at.slider(key="lf_eps").set_value((-0.5, 0.5))
    at.multiselect(key="lf_s").set_value([1.5, 8.0])
    at.slider(key="lf_tau").set_value((-2.0, 4.0))
    at.checkbox(key="lf_dev2").check()
    at.slider(key="lf_sig").set_value(0.25)
    at.slider(key="lf_lam").set_value((-4.0, -1.0))
    at.slider(key="lf_sz").set_value(0.2)
    at.radio(key="lf_pert").set_value("bernoulli")
    at.number_input(key="lf_zseed").set_value(7)
    at.checkbox(key="lf_loo").uncheck()
    at.run()
    assert not at.exception
    url = assert_link_restores(PAGE, at, ["loss_data", "loss_n", "loss_seed", "lf_losses", "lf_a", "lf_eps", "lf_s",
                                          "lf_tau", "lf_dev2", "lf_sig", "lf_lam", "lf_m", "lf_R", "lf_sz",
                                          "lf_pert", "lf_zseed", "lf_loo"])
    assert url["lf_losses"] == "hinge,deviance,smooth_step" and url["lf_s"] == "1.5,8.0" and url["lf_loo"] == "0"


def test_misclassification_note_matches_the_leave_one_out_box(monkeypatch):
    """Data without a known p: with "Exact leave-one-out" ticked and its cost asked first, the note points to
    the Run button (the box is already ticked); with the box unticked, it says to tick it."""
    import svmviz.ui.compute as compute

    monkeypatch.setattr(compute, "ASK_ABOVE_SECONDS", 0.0)  # every leave-one-out asks before it runs
    at = _run(dict(SMALL, lf_R="0"))
    at.selectbox(key="loss_data").select("banana").run()
    assert not at.exception and at.checkbox(key="lf_loo").value
    notes = [i.value for i in at.info if "misclassification curves" in i.value]
    assert notes and all("Run button" in n and "Tick" not in n for n in notes), notes
    run = [b for b in at.button if b.label.startswith("Run")]
    assert run, [b.label for b in at.button]
    run[0].click().run()
    assert not at.exception
    assert not [i.value for i in at.info if "misclassification curves" in i.value]
    assert any(t.startswith("Misclassification:<br>exact LOO") for t in _figs_titles(at)), _figs_titles(at)
    at.checkbox(key="lf_loo").uncheck().run()
    notes = [i.value for i in at.info if "misclassification curves" in i.value]
    assert notes and all(n.startswith("Tick “Exact leave-one-out”") for n in notes), notes


def test_bad_input_messages_start_with_a_capital():
    """The sidebar's λ range with equal ends and θ̃ₛ without an s: each error is a sentence."""
    at = _run(dict(SMALL, lf_R="0", lf_loo="0"))
    at.multiselect(key="lf_s").set_value([]).run()
    at.slider(key="lf_lam").set_value((-2.0, -2.0)).run()
    assert not at.exception
    texts = [e.value for e in at.error]
    assert any("Choose at least one s" in t for t in texts) and any(t.startswith("The λ range") for t in texts), texts
