"""Headless page test of pages/4_Unbiased_SVC.py (streamlit AppTest)."""
from __future__ import annotations

import json
import os

import numpy as np
from streamlit.testing.v1 import AppTest

from .apptest_utils import decode

PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pages", "4_Unbiased_SVC.py")


def _arr(v):
    return decode(v, object)


def charts(at):
    return {c.proto.id: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def chart_by_title(at, text):
    for spec in charts(at).values():
        title = spec["layout"].get("title", {}).get("text", "")
        if text in title:
            return spec
    raise AssertionError(f"no chart titled with {text!r}; have {[s['layout'].get('title', {}).get('text') for s in charts(at).values()]}")


def trace(spec, name):
    for t in spec["data"]:
        if t.get("name") == name:
            return t
    raise AssertionError(f"no trace {name!r}")


def test_page_runs_and_reacts_to_widgets():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert len(at.get("plotly_chart")) >= 6
    every = charts(at).values()
    for spec in every:  # every plot has a title and axis labels
        assert spec["layout"]["title"]["text"]
        assert spec["layout"]["xaxis"].get("title", {}).get("text") or spec["layout"].get("annotations")

    dens_a = _arr(trace(chart_by_title(at, "Scenario A"), "theoretical CE(Th)")["y"])
    usvc_a = _arr(chart_by_title(at, "USVC (smooth step, s = 2)")["data"][0]["z"])

    # scenario B: new densities and theoretical CE
    at.selectbox(key="usvc_scenario").select("Scenario B (Navia-Vázquez et al. 2004, eq. 29)").run()
    assert not at.exception
    dens_b = _arr(trace(chart_by_title(at, "Scenario B"), "theoretical CE(Th)")["y"])
    assert dens_b.shape == dens_a.shape and not np.allclose(dens_a, dens_b)
    usvc_b2 = _arr(chart_by_title(at, "USVC (smooth step, s = 2)")["data"][0]["z"])
    assert usvc_b2.shape != usvc_a.shape or not np.allclose(usvc_b2, usvc_a)

    # steeper loss: the USVC error surface changes
    at.slider(key="usvc_s").set_value(4.0).run()
    assert not at.exception and at.slider(key="usvc_s").value == 4.0
    surf4 = _arr(chart_by_title(at, "USVC (smooth step, s = 4)")["data"][0]["z"])
    assert surf4.ndim == 2
    assert surf4.shape != usvc_b2.shape or not np.allclose(surf4, usvc_b2)

    # step through the trajectory: only the first iterates are drawn
    full = _arr(trace(chart_by_title(at, "USVC (smooth step"), "IRWLS-SVC (hinge)")["x"])
    at.slider(key="usvc_steps").set_value(3).run()
    assert not at.exception
    short = _arr(trace(chart_by_title(at, "USVC (smooth step"), "IRWLS-SVC (hinge)")["x"])
    assert short.size == 3 < full.size

    # the kernel section reacts to R
    k_before = _arr(chart_by_title(at, "Kernel USVC")["data"][0]["z"])
    at.slider(key="usvc_R").set_value(5).run()
    assert not at.exception
    names = [t.get("name") for t in chart_by_title(at, "Kernel USVC")["data"]]
    proto = trace(chart_by_title(at, "Kernel USVC"), "USVC prototypes c_r")
    assert _arr(proto["x"]).size == 5 and "SVM support vectors" in names
    k_after = _arr(chart_by_title(at, "Kernel USVC")["data"][0]["z"])
    assert not np.allclose(k_before, k_after)


def test_table1_study_on_demand_with_csv():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    assert len(at.get("download_button")) == 0
    at.number_input(key="usvc_t1_trials").set_value(3)
    at.number_input(key="usvc_t1_ntr").set_value(200)
    at.number_input(key="usvc_t1_nte").set_value(200)
    at.button(key="usvc_t1_run").click().run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert len(at.get("download_button")) == 1
    table = at.dataframe[0].value
    assert list(table["method"]) == ["LS", "SVC", "USVC(s=2)", "USVC(s=4)"]
    assert table["test CE % (paper)"].iloc[2] == "20.4 ± 1.9"
    bars = chart_by_title(at, "Table 1, scenario A")
    ours = [t for t in bars["data"] if t["name"] == "svmviz"][0]
    assert _arr(ours["y"]).size == 4
    # the result stays after another widget changes (no recompute, still downloadable)
    at.slider(key="usvc_damp").set_value(0.3).run()
    assert not at.exception and len(at.get("download_button")) == 1
