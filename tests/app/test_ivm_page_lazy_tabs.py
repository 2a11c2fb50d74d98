"""The Import vector machine page: only the open tab computes and draws (the λ path's two charts
and the 3-class fit with its 100 × 100 class map are not computed in hidden tabs;
``bench/bench_warm_breakdown.py --pages ivm`` measures a rerun). The closed tabs keep their controls
(values and link parameters).
"""
from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

from tests.apptest_utils import assert_clean, figure_titles, page_path

PAGE = page_path("5_Import_vector_machine.py")


def _small() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params["i_nlams"] = "11"
    at.run()
    assert_clean(at)
    return at


def test_seed_plus_one_on_the_first_tab_draws_only_its_charts():
    at = _small()
    at.number_input(key="ivm_seed").set_value(1).run()
    assert_clean(at)
    titles = figure_titles(at)
    assert len(titles) == 3, titles  # IVM map, SVM map, Hₖ (not the closed tabs' λ path and class map)
    assert [t.split(":")[0] for t in titles[:2]] == ["IVM", "SVM"] and titles[2].startswith("Hₖ")
    at.session_state["ivm_tab"] = "λ path"
    at.run()
    assert_clean(at)
    titles = figure_titles(at)
    assert len(titles) == 2 and titles[0].startswith("Tuning misclassification"), titles


def test_closed_tabs_keep_their_controls_and_the_link():
    at = _small()
    at.session_state["ivm_tab"] = "Multi-class"
    at.run()
    at.slider(key="ivm_mc_lnlam").set_value(1.5).run()
    assert_clean(at)
    assert any(f"λ = {np.exp(1.5):.3g}" in t for t in figure_titles(at) if t.startswith("Multi-class IVM"))
    at.session_state["ivm_tab"] = "Import points vs SVM"
    at.run()
    at.radio(key="ivm_source").set_value("scratch").run()
    at.number_input(key="ivm_seed").set_value(2).run()
    assert_clean(at)
    assert at.slider(key="ivm_mc_lnlam").value == 1.5 and at.query_params["i_mc_lnlam"] == "1.5"
    at.session_state["ivm_tab"] = "λ path"
    at.run()
    assert_clean(at)
    assert at.radio(key="ivm_source").value == "scratch" and at.query_params["i_source"] == "scratch"
    assert at.query_params["i_mc_lnlam"] == "1.5"
    at.session_state["ivm_tab"] = "Multi-class"
    at.run()
    assert any(f"λ = {np.exp(1.5):.3g}" in t for t in figure_titles(at) if t.startswith("Multi-class IVM"))


def test_multiclass_data_open_on_the_class_map_and_offer_the_path():
    at = _small()
    at.selectbox(key="ivm_data").select("esl_mixture3").run()
    assert_clean(at)
    titles = figure_titles(at)
    assert len(titles) == 1 and titles[0].startswith("Multi-class IVM: 3 classes"), titles
    at.session_state["ivm_tab_mc"] = "λ path"
    at.run()
    assert_clean(at)
    assert any(t.startswith("Tuning misclassification") for t in figure_titles(at))


def _tab(at, label):
    return next(t for t in at.tabs if t.label == label)


def test_the_maps_lambda_is_a_control_of_the_tabs_with_maps_only():
    at = _small()
    keys = {label: {w.key for w in _tab(at, label).select_slider} for label in
            ("Import points vs SVM", "λ path", "Multi-class")}
    assert "ivm_lam" in keys["Import points vs SVM"], keys
    assert "ivm_lam" not in keys["λ path"] | keys["Multi-class"], keys
    # the λ it shows is the maps' and the line above the tabs counts its import points
    at.select_slider(key="ivm_lam").set_value(0.0).run()
    assert_clean(at)
    assert any("λ shown in the maps (ln λ = 0.0)" in c.value for c in at.caption)
    assert any(t.startswith("IVM") and f"λ = {np.exp(0.0):.3g}" in t for t in figure_titles(at))
    at.session_state["ivm_tab"] = "λ path"
    at.run()
    assert_clean(at)
    assert at.select_slider(key="ivm_lam").value == 0.0 and at.query_params["i_lnlam"] == "0.0"
    # three classes: the maps' λ sits in the multi-class tab, beside the class map it sets
    three = AppTest.from_file(PAGE, default_timeout=120)
    three.query_params.update({"i_nlams": "11", "data": "esl_mixture3"})
    three.run()
    assert_clean(three)
    assert "ivm_lam" in {w.key for w in _tab(three, "Multi-class").select_slider}
    assert "ivm_lam" not in {w.key for w in _tab(three, "λ path").select_slider}
