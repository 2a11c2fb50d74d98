"""AppTest of the "Import vector machine" page: renders, reacts to its widgets, offers the CSV."""
from __future__ import annotations

import os

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from .apptest_utils import decode, figure_titled as _fig, figures_by_title as _figs, trace_named as _trace

PAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pages",
                    "5_Import_vector_machine.py")


def _arr(v):
    return decode(v, float)


def _run(**sidebar):
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception, at.exception
    return at


def test_default_page_renders_maps_path_and_download():
    at = _run()
    assert not at.error
    titles = list(_figs(at))
    assert any(t.startswith("IVM:") for t in titles) and any(t.startswith("SVM:") for t in titles)
    assert any(t.startswith("Tuning misclassification") for t in titles)
    assert any(t.startswith("Number of import points") for t in titles)
    assert any(t.startswith("Multi-class IVM") for t in titles)
    metrics = {m.label: m.value for m in at.metric}
    n_imp, n_sv = int(metrics["Import points (IVM)"]), int(metrics["Support points (SVM)"])
    assert 0 < n_imp < n_sv  # (Zhu & Hastie 2002, §4): import points far fewer than support points
    imp = _trace(_fig(at, "IVM:"), "import points")
    assert _arr(imp["x"]).size == n_imp
    err = _trace(_fig(at, "Tuning misclassification"), "IVM tuning error")
    e = _arr(err["y"])
    assert e.size == 21 and np.all((e >= 0) & (e <= 1))
    assert at.get("download_button"), "the λ path CSV download is missing"


def test_lambda_and_sigma_widgets_change_the_charts():
    at = _run()
    before = _arr(_trace(_fig(at, "IVM:"), "p̂(x) = 0.5")["z"]).copy()
    lam = at.select_slider(key="ivm_lam")
    lam.set_value(lam.options[3]).run()  # e^7: a very smooth fit
    assert not at.exception
    after = _arr(_trace(_fig(at, "IVM:"), "p̂(x) = 0.5")["z"])
    assert after.shape == before.shape and not np.allclose(after, before)
    err0 = _arr(_trace(_fig(at, "Tuning misclassification"), "IVM tuning error")["y"]).copy()
    sig = [s for s in at.select_slider if s.label.startswith("σ")][0]
    sig.set_value(2.0).run()
    assert not at.exception
    err1 = _arr(_trace(_fig(at, "Tuning misclassification"), "IVM tuning error")["y"])
    assert not np.allclose(err0, err1)


def test_scratch_fit_and_step_plot():
    at = _run()
    at.radio(key="ivm_source").set_value("fitted from scratch at this λ (B1–B4)").run()
    assert not at.exception
    steps = _fig(at, "H_k along the greedy steps")
    H = _arr(_trace(steps, "H_k")["y"])
    k = _arr(_trace(steps, "H_k")["x"])
    assert k[0] == 0 and np.all(np.diff(H) <= 1e-9 * np.abs(H[1:]))  # intercept-only start, H falls
    n_imp = int({m.label: m.value for m in at.metric}["Import points (IVM)"])
    assert n_imp == k[-1]


def test_multiclass_data_and_non_2d_data():
    at = _run()
    at.selectbox(key="ivm_data").select("esl_mixture3").run()
    assert not at.exception and not at.error
    assert any("two classes" in i.value for i in at.info)
    fig = _fig(at, "Multi-class IVM: 3 classes")
    assert sum(t["type"] == "scatter" and t["name"].startswith("class ") for t in fig["data"]) == 3
    at.selectbox(key="ivm_data").select("twonorm").run()
    assert not at.exception and not at.error
    assert any("2 features" in i.value for i in at.info)
    assert _fig(at, "Tuning misclassification")


def test_splits_for_data_without_a_generator():
    from svmviz import data
    from svmviz.ui import ivm as ui

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    lab = np.where(X[:, 0] + 0.3 * rng.normal(size=40) > 0, "yes", "no")
    text = "a,b,label\n" + "\n".join(f"{x0},{x1},{l}" for (x0, x1), l in zip(X, lab))
    ds = data.dataset_from_csv(text, label_column="label")
    sp = ui.make_splits(ds, 500, 3)
    assert (sp.X.shape[0], sp.X_tune.shape[0], sp.X_test.shape[0]) == (20, 10, 10)
    rows = np.vstack([sp.X, sp.X_tune, sp.X_test])
    assert np.unique(rows, axis=0).shape[0] == 40  # a partition of the 40 rows
    assert "split" in sp.note
    tiny = data.dataset_from_csv("a,label\n" + "\n".join(f"{i},{i % 2}" for i in range(8)), label_column="label")
    with pytest.raises(ValueError, match="at least 12"):
        ui.make_splits(tiny, 100, 0)
