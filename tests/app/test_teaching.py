"""The start-here path: the home page's tour, acronyms spelled out on every page, the
glossary, "Reproduce the paper's figure" presets, slide-resolution export of every chart, and the
CSV of the IVM and USVC maps."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmviz.ui import charts, glossary, presets
from svmviz.ui.frame import PAGES, tour

from tests.apptest_utils import ROOT, assert_clean, url_of, widget_values

TEXT_KINDS = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "success", "error")
PAGE_OF = {spec.module: os.path.join(ROOT, spec.file) for spec in PAGES}


def page_texts(at) -> list[str]:
    """Every running text of a page: titles, headers, markdown, captions and messages (main area and sidebar)."""
    return [str(e.value) for kind in TEXT_KINDS for e in at.get(kind)]


def chart_configs(at) -> list[dict]:
    return [json.loads(el.proto.config) for el in at.get("plotly_chart")]


def assert_slide_export(at, fmt: str = "png") -> None:
    configs = chart_configs(at)
    assert configs, "the page drew no chart"
    for cfg in configs:
        opts = cfg["toImageButtonOptions"]
        assert opts["format"] == fmt
        assert cfg["displaylogo"] is False
        if fmt == "png":
            assert opts["scale"] >= 2 and opts["width"] * opts["scale"] >= charts.MIN_EXPORT_WIDTH, opts


# ------------------------------------------------------------------ the glossary helper
def test_spell_writes_each_acronym_out_once_and_leaves_tex_alone():
    at = AppTest.from_function(_spell_script).run()
    assert_clean(at)
    first, second, tex = (m.value for m in at.markdown)
    assert first == ("The GACV (generalized approximate cross-validation) stands in for GCKL (generalized "
                     "comparative Kullback–Leibler distance); GACV again.")
    assert second == "GACV and GCKL once more, then LOO (leave-one-out)."
    assert tex == "$\\mathrm{XA}$ stays TeX, but XA (Joachims' ξα estimate) is spelled; BRXA (Bayes-risk ξα) too."
    # an acronym inside a longer word is not the acronym
    assert glossary.find_terms("ranGACV and BRXA and LOO1") == ["ranGACV", "BRXA"]


def _spell_script():
    import streamlit as st

    from svmviz.ui.glossary import spell

    st.markdown(spell("The GACV stands in for GCKL; GACV again."))
    st.markdown(spell("GACV and GCKL once more, then LOO."))
    st.markdown(spell("$\\mathrm{XA}$ stays TeX, but XA is spelled; BRXA too."))


def test_glossary_entries_are_complete():
    for term in ("GACV", "GCKL", "XA", "BRXA", "BRMISCLASS", "LOO", "IRWLS", "USVC", "KLR", "IVM", "SS-ANOVA", "CV"):
        t = glossary.GLOSSARY[term]
        assert t.name and t.meaning and t.source, term
        assert any(c.isdigit() for c in t.source), f"{term}: cite the paper with its year and equation"
    assert "(003" not in " ".join(t.source for t in glossary.GLOSSARY.values())


# ------------------------------------------------------------------ the home page
def test_home_tour_follows_the_page_registry_and_shows_the_glossary():
    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=60).run()
    assert_clean(at)
    links = [el.proto for el in at.get("page_link")]
    ordered = tour()
    assert [p.label for p in links] == [f"**{k}. {s.title}** — {s.paper}" for k, s in enumerate(ordered, 1)]
    assert sorted(s.module for s in ordered) == sorted(s.module for s in PAGES)
    assert [s.lecture for s in ordered] == sorted(s.lecture for s in PAGES)
    captions = [c.value for c in at.caption]
    for spec in PAGES:  # each step says which question its page answers
        assert spec.question and any(spec.question.split(",")[0][:30] in c for c in captions), spec.module
    text = " ".join(page_texts(at))
    assert "GACV (generalized approximate cross-validation)" in text
    table = at.table[0].value  # a static table: long cells wrap
    assert list(table.index) == list(glossary.GLOSSARY)
    assert "generalized comparative Kullback–Leibler distance" in set(table["spelled out"])


# ------------------------------------------------------------------ every page
@pytest.mark.parametrize("module", [s.module for s in PAGES])
def test_page_spells_out_acronyms_exports_slides_and_its_paper_preset_sets_every_control(module):
    """A user's own view: every acronym on the page is spelled out, the text under the title spells out
    its own, every chart exports at slide resolution. Then the paper's preset: every control takes the
    preset's value (those it does not name take their defaults), exactly as a link holding only the
    preset's values gives, and the URL holds the preset."""
    preset = presets.PRESETS[module][0]
    at = AppTest.from_file(PAGE_OF[module], default_timeout=300)
    own = {"s_R": "3"} if module == "studies" else {"seed": "7"}
    for k, v in own.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    assert all(url_of(at)[k] == v for k, v in own.items())
    texts = page_texts(at)
    joined = "\n".join(texts).lower()
    found = set().union(*(glossary.find_terms(t) for t in texts))
    assert found, "no acronym found: the page's text was not read"
    for term in found:
        assert glossary.GLOSSARY[term].name.lower() in joined, f"{module}: {term} is never spelled out"
    intro = (at.markdown if module == "anova" else at.caption)[0].value
    assert glossary.find_terms(intro)
    for term in glossary.find_terms(intro):
        assert glossary.GLOSSARY[term].name.lower() in intro.lower(), f"{module}: {term} not spelled out"
    if module != "studies":  # the studies page draws its charts only after a run
        assert_slide_export(at)

    box = at.selectbox(key=f"_svmviz_preset_{module}")
    assert box.label == "Reproduce the paper's figure"
    assert box.options == [p.label for p in presets.PRESETS[module]]
    box.set_value(preset.label).run()
    assert_clean(at)
    assert at.selectbox(key=f"_svmviz_preset_{module}").value is None  # the choice is an action
    assert any(preset.label in m.value for m in at.info)
    url = url_of(at)
    for k, v in presets.url_values(preset).items():
        assert url.get(k) == v, f"{module}: URL {k} = {url.get(k)!r}, preset {v!r}"
    link = AppTest.from_file(PAGE_OF[module], default_timeout=300)
    for k, v in presets.url_values(preset).items():
        link.query_params[k] = v
    link.run()
    assert_clean(link)
    assert widget_values(at) == widget_values(link)
    assert url_of(at) == url_of(link)


def test_every_preset_names_only_controls_of_its_page():
    """Each preset's parameters are URL parameters its page registers (no typo silently ignored)."""
    for module, ps in presets.PRESETS.items():
        assert ps, module
        for p in ps:
            assert p.note and p.label, p
    from svmviz.studies import ready_made_specs

    assert {p.params["study"] for p in presets.PRESETS["studies"]} == set(ready_made_specs())


@pytest.mark.parametrize("module,label", [(m, p.label) for m, ps in presets.PRESETS.items() for p in ps[1:]
                                          if m in ("tuning", "losses", "ivm", "usvc")])
def test_other_presets_reach_their_urls(module, label):
    preset = next(p for p in presets.PRESETS[module] if p.label == label)
    at = AppTest.from_file(PAGE_OF[module], default_timeout=300)
    for k, v in presets.url_values(preset).items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    url = url_of(at)
    for k, v in presets.url_values(preset).items():
        assert url.get(k) == v, f"{module} / {label}: URL {k} = {url.get(k)!r}, preset {v!r}"


def test_svg_export_choice_reaches_every_chart():
    at = AppTest.from_file(os.path.join(ROOT, "app.py"), default_timeout=300).run()
    assert_clean(at)
    assert "_svmviz_export_widget" in [w.key for w in at.sidebar.selectbox]  # the home page's figure has one too
    assert_slide_export(at, "png")
    at.switch_page("pages/2_Loss_functions.py").run()
    assert_clean(at)
    assert_slide_export(at, "png")
    box = at.sidebar.selectbox(key="_svmviz_export_widget")
    assert at.sidebar.selectbox[-1].key == box.key  # below the page's own controls
    box.set_value("svg").run()
    assert_clean(at)
    assert_slide_export(at, "svg")
    at.sidebar.number_input(key="loss_seed").set_value(2).run()  # the choice stays for the session
    assert_slide_export(at, "svg")


# ------------------------------------------------------------------ CSV of the IVM and USVC maps
def test_ivm_map_csv_holds_the_model_at_each_grid_point():
    from svmviz import ivm
    from svmviz.data import make_dataset
    from svmviz.figures import ivm as fig_ivm
    from svmviz.ui.ivm import class_map_table, map_table

    ds = make_dataset("esl_mixture", n=80, seed=1)
    model = ivm.IVMClassifier(lam=np.exp(-2), sigma=0.71).fit(ds.X, ds.y)
    svm = __import__("svmviz").SVMClassifier(lam=1e-2, sigma=0.71).fit(ds.X, ds.y)
    im = fig_ivm.compute_import_map(model, ds.X, ds.y, p_true=ds.p_true, grid_n=7)
    sm = fig_ivm.compute_svm_map(svm, ds.X, ds.y, p_true=ds.p_true, grid_n=7)
    cols = map_table(im, sm)
    pts = np.column_stack([cols["x1"], cols["x2"]])
    assert pts.shape == (49, 2) and len({tuple(p) for p in pts}) == 49
    np.testing.assert_allclose(cols["ivm_p_plus"], model.predict_proba(pts)[:, 1], rtol=1e-12)
    np.testing.assert_allclose(cols["svm_f"], svm.decision_function(pts), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cols["p_true_minus_threshold"], ds.p_true(pts) - 0.5, rtol=1e-12)

    ds3 = make_dataset("esl_mixture3", n=90, seed=0)
    m3 = ivm.IVMClassifier(lam=np.exp(-1), sigma=0.71).fit(ds3.X, ds3.y)
    cm = fig_ivm.compute_class_map(m3, ds3.X, ds3.y, grid_n=5, class_names=ds3.classes)
    c3 = class_map_table(cm)
    P = m3.predict_proba(np.column_stack([c3["x1"], c3["x2"]]))
    for k, name in enumerate(ds3.classes):
        np.testing.assert_allclose(c3[f"p_{name}"], P[:, k], rtol=1e-12)
    assert list(c3["predicted"]) == [str(ds3.classes[k]) for k in P.argmax(axis=1)]


def test_usvc_csv_holds_the_surfaces_and_maps_at_each_grid_point():
    from svmviz import usvc
    from svmviz.data import make_dataset
    from svmviz.figures import usvc as figs
    from svmviz.ui.usvc import kernel_map_table, surface_table

    ds = make_dataset("usvc_A", n=120, seed=0)
    x = ds.X[:, 0]
    svc = figs.compute_error_surface(x, ds.y, loss="hinge", n_th=9, n_w=5)
    usv = figs.compute_error_surface(x, ds.y, loss="smooth_step", s=2.0, n_th=9, n_w=5)
    cols = surface_table(svc, usv)
    for r in (0, 13, 44):  # a primal value recomputed at the row's own (Th, w)
        th, w = cols["Th"][r], cols["w"][r]
        want = usvc.primal_surface(x, ds.y, np.array([th]), np.array([w]), C=10.0, loss="hinge")[0, 0]
        assert cols["L_svc"][r] == pytest.approx(want, rel=1e-12)
        want = usvc.primal_surface(x, ds.y, np.array([th]), np.array([w]), C=10.0, loss="smooth_step", s=2.0)[0, 0]
        assert cols["L_usvc_s2"][r] == pytest.approx(want, rel=1e-12)

    d2 = make_dataset("banana", n=60, seed=0)
    fit = usvc.kernel_comparison(d2.X, d2.y, sigma=1.0, C=10.0, n_prototypes=5, s=2.0, seed=0)
    kc = figs.compute_kernel_comparison(fit, grid=6)
    km = kernel_map_table(kc)
    pts = np.column_stack([km["x1"], km["x2"]])
    np.testing.assert_allclose(km["f_usvc"], fit.usvc.decision_function(pts), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(km["f_svm"], fit.svm.decision_function(pts), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("module,keys", [("ivm", ("ivm_maps_csv",)), ("usvc", ("usvc_surf_csv", "usvc_kernel_csv"))])
def test_map_downloads_are_on_the_pages(module, keys):
    at = AppTest.from_file(PAGE_OF[module], default_timeout=300).run()
    assert_clean(at)
    have = {d.proto.id.split("-", 3)[-1] for d in at.get("download_button")}
    for k in keys:
        assert k in have, f"{module}: no download {k}; have {sorted(have)}"
