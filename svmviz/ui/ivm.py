"""Streamlit layer of the "Import vector machine" page: cached numerics, widgets, rendering.

Nothing here computes numerics itself; it calls :mod:`svmviz.ivm` (cached) and
:mod:`svmviz.figures.ivm`.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from svmviz import data as _data
from svmviz import ivm
from svmviz.figures import ivm as fig_ivm
from svmviz.published import ZHU_HASTIE_FIG2, ZHU_HASTIE_FIG4
from svmviz.ui import charts, code_view, data_sidebar, datasets, errors, export, page_head, url_state, widgets
from svmviz.ui.compute import plan_executor
from svmviz.ui.fit_notes import support_note
from svmviz.ui.map_axes import map_axes, one_feature_note
from svmviz.ui.widgets import control
from svmviz.views.ivm import KLR_MAX_N, Settings, view_plan

KEY = "ivm"
TABS = f"{KEY}_tab"
"""session_state key of the open tab of two-class data ("Import points vs SVM", "λ path", "Multi-class")."""
TABS_MULTICLASS = f"{KEY}_tab_mc"
"""session_state key of the open tab of multi-class data ("Multi-class", "λ path")."""
CHOICES = ["esl_mixture", "esl_mixture3", "wahba2001", "banana", "twonorm", "ringnorm"]
SIGMAS = [0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.71, 0.85, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0,
          7.0, 10.0]
EPSILONS = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2]
METHOD_LABELS = {"onestep": "B2* — one-step update (fast)", "full": "B2 — full Newton per candidate (slow)"}
PAPER_SIGMA_DATA = ("esl_mixture", "esl_mixture3")


def default_sigma(ds) -> tuple[float, str]:
    """The σ the page starts from for these data, and why."""
    if ds.name in PAPER_SIGMA_DATA and ds.X.shape[1] == 2:
        return 0.71, "1/√2 for the ESL mixture (K = exp(−‖x − x'‖²))"
    h = ivm.sigma_heuristic(ds.X)
    return min(SIGMAS, key=lambda v: abs(np.log(v / h))), "the median-distance heuristic for these data"


def sidebar_settings(ds) -> Settings:
    sb = st.sidebar
    sb.header("Import vector machine")
    sigma0, why = default_sigma(ds)
    sigma = control(sb.select_slider, "σ (Gaussian kernel width)", SIGMAS, key=f"{KEY}_sigma", default=sigma0,
                    url="i_sigma", depends=datasets.data_token(ds.X, ds.y), keep_choice=True,
                    help=f"K = exp(−‖x − x'‖²/(2σ²)). Default: {why}. The paper does not state its σ.")
    method = control(sb.radio, "Candidate scoring", list(METHOD_LABELS), key=f"{KEY}_method", default="onestep",
                     url="i_method", format_func=METHOD_LABELS.get,
                     help="(B2*) one Newton step from the current fit per candidate, O(Nq); (B2) a full Newton "
                          "solve per candidate (Zhu & Hastie 2002, §3.1–3.2).")
    if method == "full" and ds.X.shape[0] > 300:
        sb.warning("B2 refits every candidate to convergence: expect minutes above N ≈ 300.")
    eps = control(sb.select_slider, "Stopping ε", EPSILONS, key=f"{KEY}_eps", default=1e-3, url="i_eps",
                  format_func=lambda v: f"{v:g}",
                  help="Stop adding import points when |Hₖ − Hₖ₋ᵣ| / |Hₖ| < ε (Zhu & Hastie 2002, §3.3).")
    r = control(sb.number_input, "Stopping lag r", 1, 10, key=f"{KEY}_r", default=1, url="i_r")
    cap = control(sb.number_input, "Max import points (0 = no cap)", 0, 2000, step=5, key=f"{KEY}_cap", default=0,
                  url="i_cap")
    n_tune = control(sb.slider, "Tuning-set size", 50, 2000, step=50, key=f"{KEY}_ntune", default=500,
                     url="i_ntune", help="Independent points from the same law (or a split of real data).")
    n_lams = control(sb.select_slider, "λ grid points (ln λ from 10 to −10)", [11, 21, 41], key=f"{KEY}_nlams",
                     default=21, url="i_nlams")
    return Settings(float(sigma), int(r), float(eps), method, int(cap) or None, int(n_tune), int(n_lams))


# --------------------------------------------------------------------------- page sections
def lam_picker(path) -> int:
    """Main-area choice of λ for the maps (default: the tuning-set choice), in ln λ like the path plots."""
    ln = [round(float(v), 2) for v in np.log(path.lams)]
    best = ln[path.best_index]
    choice = control(st.select_slider, "λ shown in the maps (ln λ)", ln, key=f"{KEY}_lam", default=best,
                     url="i_lnlam", depends=(tuple(ln), best), format_func=lambda v: f"{v:.1f}",
                     help=f"ln λ, the axis of the λ-path plots. Default: the λ with the smallest tuning "
                          f"misclassification (ln λ = {best:.1f}, λ = {np.exp(best):.3g}); it follows the data.")
    return ln.index(choice)


def maps_lam(ds, path) -> int:
    """The index of the λ the maps show: the tab's own control where there is a plane to map (data of
    one feature have no map), else the tuning set's choice."""
    return lam_picker(path) if ds.X.shape[1] >= 2 else path.best_index


def render_maps(ds, ex, base, *, draw: bool = True):
    """The "Import points vs SVM" tab; with ``draw=False`` (the tab is not open) only its controls, which
    keep their values and their place in the link, and nothing computed or drawn. ``ex`` executes the
    view's plan, ``base`` that plan's settings (the keyword arguments of
    :func:`svmviz.views.ivm.view_plan` but the tab's own). Returns the tab's settings: ``lam_index``,
    ``source`` and ``map_axes`` (their widgets' values), and the maps' axes
    (:func:`svmviz.ui.map_axes.map_axes`; None for two features)."""
    path = ex.value(view_plan(ds, **base), "path")
    li = maps_lam(ds, path)
    source = control(st.radio, "IVM shown", ["path", "scratch"], key=f"{KEY}_source", default="path",
                     url="i_source", horizontal=True,
                     format_func={"path": "from the λ path (warm-started S, C1–C5)",
                                  "scratch": "fitted from scratch at this λ (B1–B4)"}.get)
    axes = map_axes(ds, KEY, where=st)
    mine = dict(lam_index=li, source=source, map_axes=None if axes is None else axes.code_args)
    if not draw:
        return mine, axes
    plan = view_plan(ds, **(base | mine))
    sp, model = ex.value(plan, "sp"), ex.value(plan, "model")
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Import points (IVM)", model.n_import_)
    c3.metric("IVM test error", f"{ex.value(plan, 'ivm_test_error'):.3f}")
    if ds.bayes_error is not None:
        st.caption(f"Bayes error of these data: {ds.bayes_error:.3f}. {sp.note}")
    else:
        st.caption(sp.note)
    maps = plan.has("fig_ivm_map_ivm")
    if maps:
        # the IVM's map first: it needs only the IVM path, so it is drawn before the SVM comparison
        # (its own cached step, with its own progress line) is computed, so the first chart comes sooner.
        # The two maps stack: half the column at 1024 × 768 leaves a map's plot ~125 px wide
        charts.chart(ex.value(plan, "fig_ivm_map_ivm"), key=f"{KEY}_map_ivm")
        b = st.container()  # the SVM's map right under the IVM's, drawn once the SVM is fitted
    svm = ex.value(plan, "svm")
    c2.metric("Support points (SVM)", int(svm.support_.size))
    c4.metric("SVM test error", f"{ex.value(plan, 'svm_test_error'):.3f}",
              help=f"SVM tuned on the same tuning set over λ_SVM = λ/(2N); chosen λ_SVM = {svm.lam:.3g}.")
    support_note(svm.support_.size, sp.X.shape[0], ds, at=f"the SVM's tuned λ_SVM = {svm.lam:.3g}",
                 advice="The IVM's few import points are then the sparser machine by far; a larger σ in the "
                        "sidebar may suit both machines better.")
    if not maps:
        if sp.X.shape[1] < 2:
            one_feature_note(ds, "The λ path tab shows the IVM along λ.")
        return mine, axes  # else the same feature on both axes: map_axes said so
    charts.chart(ex.value(plan, "fig_ivm_map_svm"), key=f"{KEY}_map_svm", where=b)
    if axes is not None:
        st.caption(axes.plane.caption)
    if ds.sign_note:
        st.caption(f"p̂ is the probability of {ds.class_names[1]}; f > 0 predicts {ds.class_names[1]} ({ds.sign_note}).")
    export.csv_download(f"Download the maps (CSV: each grid point's IVM P({ds.class_names[1]}), SVM f and the Bayes margin)",
                        map_table(ex.value(plan, "im"), ex.value(plan, "sm"),
                                  feature_names=ds.feature_names[:2] if axes is None else axes.plane.axis_titles,
                                  plus_name=ds.class_names[1]),
                        f"ivm_maps_{ds.name}.csv", key=f"{KEY}_maps_csv")
    charts.chart(ex.value(plan, "fig_ivm_steps"), key=f"{KEY}_steps")
    return mine, axes


def render_path(ds, ex, plan) -> None:
    """The "λ path" tab: the plan's path figures."""
    path = ex.value(plan, "path")
    klr = ex.value(plan, "klr") if plan.has("klr") else None
    svm = ex.value(plan, "svm_path") if plan.has("svm_path") else None
    # one above the other: side by side at 1024 × 768 their titles run past the charts' right edge
    charts.chart(ex.value(plan, "fig_ivm_path_err"), key=f"{KEY}_path_err")
    charts.chart(ex.value(plan, "fig_ivm_path_size"), key=f"{KEY}_path_size")
    best = path.best_index
    st.markdown(
        f"**Chosen λ: ln λ = {np.log(path.best_lam):.1f}, λ = {path.best_lam:.3g}**: tuning misclassification "
        f"{path.tune_error[best]:.3f} with |S| = {path.n_import[best]} import points. "
        f"Zhu & Hastie (2002, Fig. 2, N = 200): {ZHU_HASTIE_FIG2['tune_error']} at "
        f"ln λ = −2 (λ = {ZHU_HASTIE_FIG2['lam']}) with "
        f"|S| = {ZHU_HASTIE_FIG2['machine_size']}."
        + ("" if klr is not None else f" (Full KLR is drawn only for N ≤ {KLR_MAX_N}.)"))
    cols = {"ln_lambda": np.log(path.lams), "lambda": path.lams, "tune_error": path.tune_error,
            "train_error": path.train_error, "n_import": path.n_import, "H": path.H,
            "status": path.status}
    if klr is not None:
        cols["klr_tune_error"] = klr.tune_error
    if svm is not None:
        cols["svm_lambda"] = svm.lams
        cols["svm_tune_error"] = svm.tune_error
        cols["svm_n_support"] = svm.n_support
    export.csv_download("Download the λ path (CSV)", cols, f"ivm_path_{ds.name}.csv", key=f"{KEY}_csv")


def render_multiclass(ds, ex, base, *, draw: bool = True):
    """The "Multi-class" tab; with ``draw=False`` (the tab is not open) only its controls (data of more
    than two classes: the map's λ and axes; two-class data: the 3-class fit's ln λ), which keep their
    values and their place in the link. Returns the tab's settings (keyword arguments of
    :func:`svmviz.views.ivm.view_plan`) and the map's axes."""
    if not ds.is_multiclass:
        return _example_multiclass(ds, ex, base, draw=draw), None
    path = ex.value(view_plan(ds, **base), "path")
    li = maps_lam(ds, path)
    axes = map_axes(ds, KEY, where=st)
    mine = dict(lam_index=li, map_axes=None if axes is None else axes.code_args)
    if not draw:
        return mine, axes
    plan = view_plan(ds, **(base | mine))
    if plan.has("fig_ivm_classmap"):
        charts.chart(ex.value(plan, "fig_ivm_classmap"), key=f"{KEY}_classmap")
        if axes is not None:
            st.caption(axes.plane.caption)
        export.csv_download("Download the class map (CSV: each grid point's class probabilities)",
                            class_map_table(ex.value(plan, "cm"), feature_names=ds.feature_names[:2] if axes is None
                                            else axes.plane.axis_titles), f"ivm_class_map_{ds.name}.csv",
                            key=f"{KEY}_classmap_csv")
    elif ds.X.shape[1] < 2:
        one_feature_note(ds, "The λ path tab shows the IVM along λ.")
    return mine, axes  # else the same feature on both axes: map_axes said so


def _example_multiclass(ds, ex, base, *, draw: bool) -> dict:
    """The "Multi-class" tab of two-class data: the 3-class ESL mixture at its own ln λ; returns its
    setting (``ln_lambda3``)."""
    if draw:
        st.caption("These data have two classes; here is the 3-class ESL mixture of Zhu & Hastie (2002, Fig. 4): "
                   "N = 300, the same seed and σ.")
    lnlam = control(st.slider, "ln λ (3-class fit)", -6.0, 6.0, step=0.5, key=f"{KEY}_mc_lnlam", default=-1.0,
                    url="i_mc_lnlam", help=f"The paper's Fig 4 uses λ = e^−1 = {ZHU_HASTIE_FIG4['lam']} "
                                           f"(|S| = {ZHU_HASTIE_FIG4['machine_size']}).")
    mine = dict(ln_lambda3=float(lnlam))
    if not draw:
        return mine
    plan = view_plan(ds, **(base | mine))
    ds3, model, cm = ex.run(plan, ["ds3", "model3", "cm"]).values()
    charts.chart(ex.value(plan, "fig_ivm_classmap"), key=f"{KEY}_classmap")
    export.csv_download("Download the class map (CSV: each grid point's class probabilities)",
                        class_map_table(cm), "ivm_class_map_esl_mixture3.csv", key=f"{KEY}_classmap_csv")
    st.caption(f"Bayes error {ds3.bayes_error:.3f}; test error {cm.test_error:.3f} with "
               f"{model.n_import_} import points (paper: |S| = {ZHU_HASTIE_FIG4['machine_size']} at λ = e^−1).")
    return mine


def map_table(im: fig_ivm.ImportMap, sm: fig_ivm.SVMMap, feature_names=("x1", "x2"), plus_name: str = "plus") -> dict:
    """The grid values behind the two maps, one row per grid point (both maps share the grid of
    ``fig_ivm._grid``): the IVM's P(+1) (column ``ivm_p_<plus_name>``), the SVM's f and, when the truth
    is known, p(x) − the Bayes threshold; the grid's columns are named by ``feature_names``."""
    if not (np.array_equal(im.gx, sm.gx) and np.array_equal(im.gy, sm.gy)):
        raise ValueError("the IVM and SVM maps must share one grid.")
    x1, x2 = np.meshgrid(im.gx, im.gy)  # [i, j] = (gx[j], gy[i]), the maps' layout
    cols = {feature_names[0]: x1.ravel(), feature_names[1]: x2.ravel(), f"ivm_p_{plus_name}": im.p.ravel(),
            "svm_f": sm.f.ravel()}
    if im.bayes is not None:
        cols["p_true_minus_threshold"] = im.bayes.ravel()
    return cols


def class_map_table(cm: fig_ivm.ClassMap, feature_names=("x1", "x2")) -> dict:
    """The grid values behind the class map: each class's fitted probability, the predicted class and,
    when the truth is known, the Bayes class; the grid's columns are named by ``feature_names``."""
    x1, x2 = np.meshgrid(cm.gx, cm.gy)
    cols = {feature_names[0]: x1.ravel(), feature_names[1]: x2.ravel()}
    for k, name in enumerate(cm.classes):
        cols[f"p_{name}"] = cm.probs[:, :, k].ravel()
    cols["predicted"] = cm.classes[cm.label.ravel()]
    if cm.bayes_label is not None:
        cols["bayes_class"] = cm.classes[cm.bayes_label.ravel()]
    return cols


def describe_available() -> list[str]:
    return [c for c in CHOICES if c in _data.GENERATORS]


# ------------------------------------------------------------------ the page
@url_state.page_view
def page() -> None:
    """Import vector machine (Zhu & Hastie 2002): kernel logistic regression on a few import points."""
    page_head.page_header("ivm", (
        "The IVM: KLR on a few greedily chosen import points, its λ path and the SVM beside it — Zhu & Hastie "
        "2002, Figs. 2–4."))

    ds = data_sidebar.dataset_sidebar(describe_available(), "esl_mixture", key="ivm", allow_multiclass=True)
    if ds is None:
        return
    settings = sidebar_settings(ds)
    # the page draws what the view's plan computes (svmviz.views.ivm), its code panel writes the same plan
    ex = plan_executor(ds)
    base = dict(settings=settings, seed=datasets.dataset_seed(ds), lam_index=0)
    try:
        path = ex.value(view_plan(ds, **base), "path")
    except ValueError as exc:
        errors.show_error(exc)
        return
    best = path.best_index
    head = st.empty()  # the path's line above the tabs, written once the maps' tab has given its λ
    # only the open tab computes and draws (Streamlit's lazy tabs: a tab switch reruns the page; the
    # other tabs keep their controls, so their values and the link stay): a rerun builds and sends
    # one tab's charts, not three (bench/bench_warm_breakdown.py --pages ivm measures a rerun).
    # The maps' λ is a control of the tab that draws maps, hidden while the λ path tab is open.
    if ds.is_multiclass:  # the SVM comparison is for two classes: these data's class map first
        tab_mc, tab_path = widgets.control(st.tabs, ["Multi-class", "λ path"], key=TABS_MULTICLASS,
                                          default="Multi-class", url="i_tab", on_change="rerun")
        st.caption(f"{ds.name} has {ds.n_classes} classes: the import-point vs SVM maps are for two classes.")
        tabs = {"multiclass": tab_mc, "path": tab_path}
    else:
        tab_map, tab_path, tab_mc = widgets.control(st.tabs, ["Import points vs SVM", "λ path", "Multi-class"],
                                                   key=TABS, default="Import points vs SVM", url="i_tab",
                                                   on_change="rerun")
        tabs = {"maps": tab_map, "path": tab_path, "multiclass": tab_mc}
        with tab_map:
            mine, _ = render_maps(ds, ex, base, draw=_is_open(tab_map))
        base |= mine
    with tab_path:
        if _is_open(tab_path):
            render_path(ds, ex, view_plan(ds, **base))
    with tab_mc:
        mine, _ = render_multiclass(ds, ex, base, draw=_is_open(tab_mc))
    base |= mine
    li = base["lam_index"]
    # one source for |S|: the path's count at the λ the maps show (the maps' titles count the same model)
    head.caption(f"λ path: {path.lams.size} values in {path.seconds:.2f} s. At the "
               + ("λ shown in the maps " if ds.X.shape[1] >= 2 else "tuning set's choice ")
               + f"(ln λ = {np.log(path.lams[li]):.1f}): |S| = {path.n_import[li]} import points"
               + ("" if li == best else f"; at the tuning set's choice (ln λ = {np.log(path.lams[best]):.1f}): "
                                        f"|S| = {path.n_import[best]}") + ".")
    code_view.plan_panel(view_plan(ds, **base), ds, KEY, page="ivm",
                         open_tab=next((t for t, tab in tabs.items() if _is_open(tab)), None))


def _is_open(tab) -> bool:
    """Whether ``tab`` (of lazy ``st.tabs``) is the open one; a Streamlit that does not say runs every tab."""
    return getattr(tab, "open", None) is not False
