"""Streamlit layer of the "Unbiased SVC" page: widgets, cached numerics, rendering.

Nothing here computes numerics itself: it calls :mod:`svmviz.usvc` (through the shared
:func:`~svmviz.ui.compute.cached_compute`) and :mod:`svmviz.figures.usvc`. Every control is in the URL.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from svmviz.figures import usvc as figs
from svmviz.ivm import sigma_heuristic
from svmviz.ui import charts, code_view, data_sidebar, datasets, errors, export, page_head, url_state
from svmviz.ui.compute import plan_executor
from svmviz.ui.fit_notes import support_note
from svmviz.ui.map_axes import map_axes, one_feature_note
from svmviz.ui.widgets import control
from svmviz.views.usvc import COMPONENTS, KernelSettings, Settings1D, Table1Settings, view_plan

KEY = "usvc"
SOURCES = {"A": "Scenario A (Navia-Vázquez et al. 2004, eq. 28)", "B": "Scenario B (Navia-Vázquez et al. 2004, eq. 29)",
           "sidebar": "Sidebar data set, along one feature or its 1st principal component"}
CHOICES_2D = ["banana", "wahba2001", "esl_mixture", "usvc_A", "usvc_B", "twonorm", "ringnorm", "waveform"]
C_VALUES = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0]
K_VALUES = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2]
SIGMAS = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0]


# --------------------------------------------------------------------------- widgets
def settings_1d(ds=None) -> Settings1D:
    # the data choice on a row of its own, then three settings a row: seven in one row broke "steepness"
    # and "damping" over two lines and cut the Data choice at 1024 × 768
    source = control(st.selectbox, "Data", list(SOURCES), key=f"{KEY}_scenario", default="A", url="u_src",
                     format_func=SOURCES.get,
                     help="The paper's 1-D scenarios, or the sidebar's two-class data set along one of its features "
                          "or its first principal component.")
    c = [*st.columns(3), *st.columns(3)]  # the six settings under the data choice
    n = control(c[0].slider, "n", 100, 2000, step=50, key=f"{KEY}_n1", default=500, url="u_n",
                help="Training points (paper: 500).")
    seed = control(c[1].number_input, "Seed", 0, 2**31 - 1, key=f"{KEY}_seed1", default=0, url="u_seed")
    C = control(c[2].select_slider, "C", C_VALUES, key=f"{KEY}_C1", default=10.0, url="u_C", help="Paper: C = 10.")
    s = control(c[3].slider, "s (steepness)", 1.0, 8.0, step=0.5, key=f"{KEY}_s", default=2.0, url="u_s",
                help="θ̃ₛ approaches the step at ξ = 1 as s grows (paper: 2 and 4).")
    k = control(c[4].select_slider, "$k_\\varepsilon$", K_VALUES, key=f"{KEY}_k", default=1e-4, url="u_k",
                format_func=lambda v: f"{v:.0e}")
    d = control(c[5].slider, "damping d", 0.0, 0.9, step=0.1, key=f"{KEY}_damp", default=0.2, url="u_d",
                help="w_k = d·w_{k−1} + (1 − d)·w_WLS (paper: 0.2).")
    along = None
    if source == "sidebar" and ds is not None:
        names = [str(v) for v in ds.feature_names]
        options = ([COMPONENTS] if len(names) > 1 else []) + names
        label = {COMPONENTS: "1st principal component (standardised features)"}
        choice = control(st.selectbox, "Along", options, key=f"{KEY}_along", default=options[0], url="u_along",
                         depends=tuple(names), keep_choice=True, format_func=lambda v: label.get(v, v),
                         help="The 1-D section fits Th and w on one number per point: a feature's values or the "
                              "scores on the first principal component.")
        along = COMPONENTS if choice == COMPONENTS else names.index(choice)
    return Settings1D(source, int(n), int(seed), float(C), float(s), float(k), float(d), along)



def settings_table1() -> tuple[Table1Settings, bool]:
    """The study's settings and whether the user asked for it (the button, or a link that shows it)."""
    c = st.columns(5)
    scen = control(c[0].selectbox, "Scenario", ["A", "B"], key=f"{KEY}_t1_scen", default="A", url="u_t1_scen")
    n_trials = control(c[1].number_input, "Trials", 2, 200, key=f"{KEY}_t1_trials", default=20, url="u_t1_trials",
                       help="The paper uses 100; 20 run in about a second once compiled.")
    n_train = control(c[2].number_input, "n train", 50, 2000, step=50, key=f"{KEY}_t1_ntr", default=500,
                      url="u_t1_ntr")
    n_test = control(c[3].number_input, "n test", 50, 5000, step=50, key=f"{KEY}_t1_nte", default=500, url="u_t1_nte")
    seed = control(c[4].number_input, "Study seed", 0, 2**31 - 1, key=f"{KEY}_t1_seed", default=0, url="u_t1_seed")
    args = Table1Settings(scen, int(n_trials), int(n_train), int(n_test), 10.0, int(seed))
    shown = f"{KEY}_t1_shown"
    if url_state.url_speaks():  # a link (or Back) that showed a study shows it again
        st.session_state[shown] = url_state.query_value("u_t1", None, str) == "1"
    # below the five inputs, not in a sixth column: at 1280 px that column cut the label ("Run the Table 1 st…")
    if st.button("Run the Table 1 study", key=f"{KEY}_t1_run", type="primary"):
        st.session_state[shown] = True
    run = bool(st.session_state.get(shown))
    url_state.set_query(u_t1=int(run))
    return args, run


# --------------------------------------------------------------------------- helpers
def default_sigma(ds) -> float:
    """The σ option nearest the median-distance heuristic of these data (:func:`svmviz.ivm.sigma_heuristic`)."""
    h = sigma_heuristic(ds.X)
    return min(SIGMAS, key=lambda v: abs(np.log(v / h)))


# --------------------------------------------------------------------------- sections
def render_1d(s1: Settings1D, ds_sidebar):
    """The 1-D section (the view's 1-D steps); returns the settings and the iterates shown, or None when
    nothing is drawn."""
    if s1.source == "sidebar" and ds_sidebar is None:
        st.info("Choose a data set in the sidebar, or the paper's scenarios here.")
        return None
    ex = plan_executor(ds_sidebar)
    plan = view_plan(ds_sidebar, s1)
    if s1.source == "sidebar":
        line = ex.value(plan, "line")
        st.caption(f"{ds_sidebar.name} along x = {line.title}"
                   + (" (the sign turned so that the +1 class lies on the high side)" if line.flipped else "")
                   + f": the rule \u201c{ds_sidebar.class_names[1]} when x > Th\u201d on that one number per point. "
                   "Its class densities are unknown: no theoretical CE is drawn.")
    else:
        st.caption(f"The paper's scenario {s1.source} (Navia-Vázquez et al. 2004, eqs. 28–29): one-dimensional data "
                   "whose class densities are known, so the theoretical CE can be drawn beside the error surfaces "
                   "L̃(Th, w). It does not depend on the sidebar's data; choose \u201cSidebar data set\u201d under "
                   "Data to run this section on them, along one feature or the first principal component.")
        charts.chart(ex.value(plan, "fig_usvc_dens"), key=f"{KEY}_dens")

    try:
        traj, svc, usv, ce = ex.run(plan, ["traj", "svc", "usv", "ce"]).values()
    except ValueError as exc:
        errors.show_error(exc)
        return None
    X, y = ex.value(plan, "X"), ex.value(plan, "y")
    m = st.columns(3)
    m[0].metric("LS threshold", f"{traj.ls[0]:.3f}", help="Regularised least squares: the IRWLS start.")
    m[1].metric("SVC threshold", f"{traj.svc[0]:.3f}", help="QP-SVC solution reached by IRWLS from LS.")
    m[2].metric("USVC threshold", f"{traj.usvc[0]:.3f}", help="Smooth-step IRWLS started from the SVC.")
    m = st.columns(4)
    m[0].metric("SVC iterations", traj.n_iter.get("SVC", 0))
    m[1].metric("USVC iterations", traj.n_iter.get("USVC", 0))
    m[2].metric("Training CE, SVC", f"{ce[0]:.3f}", help="Share of training points the rule “+1 when x > Th” "
                "misclassifies (a point at Th counts as an error).")
    m[3].metric("Training CE, USVC", f"{ce[1]:.3f}", delta=f"{ce[1] - ce[0]:+.3f} vs SVC", delta_color="inverse")

    T = traj.th.size
    steps = control(st.slider, "IRWLS iterates shown (LS → SVC → USVC)", 1, T, key=f"{KEY}_steps", default=T,
                    url="u_steps", depends=(datasets.data_token(X, y), tuple(s1)),
                    help="Step through the trajectory: first the hinge (SVC) iterations from the LS start, "
                         "then the smooth-step (USVC) iterations from the SVC solution.")
    plan = view_plan(ds_sidebar, s1, steps=steps)
    # the two surfaces one above the other: half the column at 1024 × 768 leaves a map's plot ~120 px wide
    charts.chart(ex.value(plan, "fig_usvc_surf_svc"), key=f"{KEY}_surf_svc")
    charts.chart(ex.value(plan, "fig_usvc_surf_usvc"), key=f"{KEY}_surf_usvc")
    charts.chart(ex.value(plan, "fig_usvc_ce"), key=f"{KEY}_ce")
    export.csv_download("Download the error surfaces (CSV: L̃(Th, w) of the SVC and the USVC on the grid)",
                        surface_table(svc, usv), f"usvc_error_surfaces_{s1.source}.csv", key=f"{KEY}_surf_csv")
    st.caption("Upper map: the SVC's surface is convex; IRWLS goes from the regularised LS start (○) to the QP "
               "solution (×). Lower map: the smooth-step surface has several minima; the USVC starts at the SVC "
               "solution and moves to a minimum of the smooth-step primal (☆). The dashed curve is the locus of "
               "the minimum over w for each Th; below, that profile (divided by C n) is the CE each algorithm "
               "really minimises (right axis), beside the empirical and theoretical CE.")
    return s1, steps


def surface_table(svc: figs.ErrorSurface, usv: figs.ErrorSurface) -> dict:
    """The grid values behind the two error-surface maps, one row per (Th, w) grid point."""
    if not (np.array_equal(svc.th, usv.th) and np.array_equal(svc.w, usv.w)):
        raise ValueError("the two error surfaces must share one grid.")
    th, w = np.meshgrid(svc.th, svc.w)  # L[q, m] = L̃(th[m], w[q])
    return {"Th": th.ravel(), "w": w.ravel(), "L_svc": svc.L.ravel(), f"L_usvc_s{usv.s:g}": usv.L.ravel()}


def kernel_map_table(kc: figs.KernelComparison, feature_names=("x1", "x2")) -> dict:
    """The grid values behind the kernel USVC / SVM maps, one row per grid point (the grid's columns
    named by ``feature_names``)."""
    x1, x2 = np.meshgrid(kc.gx, kc.gy)  # f[i, j] = f(gx[j], gy[i])
    return {feature_names[0]: x1.ravel(), feature_names[1]: x2.ravel(), "f_usvc": kc.f_usvc.ravel(),
            "f_svm": kc.f_svm.ravel()}


def render_table1():
    """The Table 1 section; returns its settings when the study is shown."""
    args, run = settings_table1()
    if not run:
        st.info("Press the button to run LS, SVC and USVC (s = 2, 4) on independent samples, C = 10.")
        return None
    ex, plan = plan_executor(None), view_plan(None, table1=args)
    try:
        res, rows = ex.run(plan, ["res", "rows"]).values()
    except ValueError as exc:
        errors.show_error(exc)
        return None
    n_tr = args.n_trials
    table = {
        "method": [r["method"] for r in rows],
        "train CE % (svmviz)": [f"{r['train_ce_mean']:.1f} ± {r['train_ce_sd']:.1f}" for r in rows],
        "train CE % (paper)": [_paper(r, "train_ce") for r in rows],
        "test CE % (svmviz)": [f"{r['test_ce_mean']:.1f} ± {r['test_ce_sd']:.1f}" for r in rows],
        "test CE % (paper)": [_paper(r, "test_ce") for r in rows],
        "Th (svmviz)": [f"{r['threshold_mean']:.3f} ± {r['threshold_sd']:.3f}" for r in rows],
        "Th (paper)": [_paper(r, "threshold", 2) for r in rows],
        "constant machines": [r["n_constant"] for r in rows],
        "converged": [f"{r['converged']}/{n_tr}" for r in rows],
    }
    st.markdown(f"**Scenario {args.scenario}**, {n_tr} trials, {args.n_train} train / {args.n_test} test points, "
                f"C = {args.C:g}.")
    st.dataframe(table, hide_index=True)
    charts.chart(ex.value(plan, "fig_usvc_t1_fig"), key=f"{KEY}_t1_fig")
    cols = {"trial": np.repeat(np.arange(n_tr), len(res.methods)),
            "seed": np.repeat(res.seeds, len(res.methods)),
            "method": np.tile(np.array(res.methods), n_tr),
            "train_ce_percent": res.train_ce.ravel(), "test_ce_percent": res.test_ce.ravel(),
            "threshold": res.threshold.ravel(), "w": res.coef.ravel(), "b": res.intercept.ravel(),
            "iterations": res.n_iter.ravel(), "status": res.status.ravel()}
    export.csv_download("Download the study (CSV, one row per trial and method)", cols,
                        f"usvc_table1_{args.scenario}_{n_tr}trials.csv", key=f"{KEY}_t1_csv")
    return args


def _paper(row, key, digits=1) -> str:
    m, s = row[f"paper_{key}_mean"], row[f"paper_{key}_sd"]
    if not np.isfinite(m):
        return "—"
    return f"{m:.{digits}f} ± {s:.{digits}f}" if np.isfinite(s) else f"{m:.{digits}f}"


def render_kernel(ds):
    """The kernel section; returns its settings and the maps' axes when drawn."""
    if ds is None:
        st.info("Choose a data set in the sidebar.")
        return None
    c = st.columns(5)
    sigma = control(c[0].select_slider, "σ", SIGMAS, key=f"{KEY}_sigma", default=default_sigma(ds), url="u_sigma",
                    depends=datasets.data_token(ds.X, ds.y), keep_choice=True,
                    help="Gaussian width for both machines, K = exp(−‖x − x'‖²/(2σ²)). Default: the option "
                         "nearest the median-distance heuristic of these data (median distance / √2).")
    C = control(c[1].select_slider, "C ", C_VALUES, key=f"{KEY}_C2", default=10.0, url="u_C2",
                help="Both machines (SVM: λ = 1/(2nC)).")
    R = control(c[2].slider, "R prototypes", 2, 60, key=f"{KEY}_R", default=10, url="u_R")
    method = control(c[3].selectbox, "Prototypes by", ["kmeans", "fscl"], key=f"{KEY}_proto", default="kmeans",
                     url="u_proto", format_func=lambda v: {"kmeans": "k-means", "fscl": "FSCL"}[v])
    s = control(c[4].slider, "s ", 1.0, 8.0, step=0.5, key=f"{KEY}_s2", default=2.0, url="u_s2")
    args = KernelSettings(float(sigma), float(C), int(R), float(s), method, datasets.dataset_seed(ds),
                          ds.test_sample is not None)
    axes = map_axes(ds, KEY, where=st)
    ex, plan = plan_executor(ds), view_plan(ds, kernel=args, map_axes=None if axes is None else axes.code_args)
    try:
        kc = ex.value(plan, "kc")
    except ValueError as exc:
        errors.show_error(exc)
        return None
    m = [*st.columns(2), *st.columns(2)]  # two a row: four cut "machine size (support vectors)" at 1024 × 768
    m[0].metric("USVC machine size (kernels)", kc.size_usvc)
    m[1].metric("SVM machine size (support vectors)", kc.size_svm)
    m[2].metric("USVC test error", f"{kc.test_error_usvc:.3f}")
    m[3].metric("SVM test error", f"{kc.test_error_svm:.3f}",
                delta=f"{kc.test_error_svm - kc.test_error_usvc:+.3f} vs USVC", delta_color="off")
    support_note(kc.size_svm, kc.X.shape[0], ds, at=f"the SVM's (σ, C) = ({sigma:g}, {C:g})",
                 advice="Its machine size and test error then say little about the kernel width; try a larger σ "
                        "or another C.")
    if plan.has("fig_usvc_kernel"):
        charts.chart(ex.value(plan, "fig_usvc_kernel"), key=f"{KEY}_kernel")
        if axes is not None:
            st.caption(axes.plane.caption)
        if ds.sign_note:
            st.caption(f"f > 0 predicts {ds.class_names[1]} ({ds.sign_note}).")
        export.csv_download("Download the maps (CSV: each grid point's f of the USVC and of the SVM)",
                            kernel_map_table(kc, ds.feature_names[:2] if axes is None else axes.plane.axis_titles),
                            f"usvc_kernel_maps_{ds.name}.csv",
                            key=f"{KEY}_kernel_csv")
    elif ds.X.shape[1] < 2:
        one_feature_note(ds, "The machine sizes and errors below still apply; the 1-D section above draws "
                             "these data along their feature.")
    charts.chart(ex.value(plan, "fig_usvc_size"), key=f"{KEY}_size")
    st.caption(f"Test error on an {kc.test_kind}. The USVC's machine has R kernels whatever n is "
               "(Navia-Vázquez et al. 2004, eqs. 23–27); the SVM's grows with the number of support vectors "
               "(Navia-Vázquez et al. 2004, Table 3).")
    return args, axes


# ------------------------------------------------------------------ the page
@url_state.page_view
def page() -> None:
    """Unbiased SVC (Navia-Vázquez et al. 2004): IRWLS-trained SVC and the unbiased SVC."""
    page_head.page_header("usvc", (
        "Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal (2004): the SVC trained by IRWLS instead of "
        "the QP, and the USVC, whose smooth step loss θ̃ₛ counts errors: thresholds, CE and machine sizes "
        "against LS and the SVM."))

    # two-class machines throughout: data with more than two classes get the sidebar's class choice
    ds = data_sidebar.dataset_sidebar(CHOICES_2D, "banana", key=KEY)

    with st.expander("The primal and the algorithm", expanded=False):
        st.latex(r"\tilde L(w,b) = \tfrac12\|w\|^2 + C\sum_i \theta(\xi_i),\quad \xi_i = (1 - y_i f(x_i))_+")
        st.latex(r"\tilde\theta_s(\xi) = \begin{cases} \dfrac{(\xi + k^{1/s})^s}{2(1 + k^{1/s})^s} & 0 \le \xi < 1\\[1ex]"
                 r"1 - \dfrac{(1 + k^{1/s})^s}{2(\xi + k^{1/s})^s} & \xi \ge 1\end{cases}")
        st.markdown("IRWLS (Navia-Vázquez et al. 2004, eqs. 20–22): with $\\alpha_i = C\\,\\theta'(\\xi_i)$ for $\\xi_i \\ge 0$ (else 0) and "
                    "$a_i = \\alpha_i/\\xi_i$, solve the weighted least squares "
                    "$\\min \\tfrac12\\|w\\|^2 + \\tfrac12\\sum_i a_i (y_i - f_i)^2$, damp, repeat. "
                    "θ = ξ gives the SVC (the QP solution, checked against libsvm); θ̃ₛ the USVC, started from "
                    "the SVC. The paper's literal $a_i = 2\\alpha_i/(e_iy_i)$ would solve the problem with 2C.")

    st.header("1-D: error surfaces and trajectories")
    one_d = render_1d(settings_1d(ds), ds)

    st.header("Table 1: repeated trials")
    table = render_table1()

    st.header("2-D: kernel USVC with R prototypes vs the SVM")
    st.caption("Uses the data set chosen in the sidebar.")
    kernel, axes = render_kernel(ds) or (None, None)
    # the page draws what the view's plan computes (svmviz.views.usvc), its code panel writes the same plan
    s1, steps = one_d or (None, None)
    code_view.plan_panel(view_plan(ds, s1, steps=steps, table1=table, kernel=kernel,
                                   map_axes=None if axes is None else axes.code_args), ds, KEY, page="usvc")
