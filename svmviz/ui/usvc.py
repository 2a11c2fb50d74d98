"""Streamlit layer of the "Unbiased SVC" page: cached numerics, widgets, rendering.

Nothing here computes numerics itself; it calls :mod:`svmviz.usvc` and :mod:`svmviz.figures.usvc`
(cached).
"""
from __future__ import annotations

import hashlib
import warnings
from typing import NamedTuple

import numpy as np
import streamlit as st
from sklearn.exceptions import ConvergenceWarning

from svmviz import usvc
from svmviz.figures import usvc as figs
from svmviz.ui import common

KEY = "usvc"
SCENARIOS = {"Scenario A (Navia-Vázquez et al. 2004, eq. 28)": "A", "Scenario B (Navia-Vázquez et al. 2004, eq. 29)": "B"}
SIDEBAR_1D = "Sidebar data set (1-D only)"
CHOICES_2D = ["banana", "wahba2001", "esl_mixture", "usvc_A", "usvc_B", "twonorm", "ringnorm", "waveform"]
C_VALUES = [0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0]
K_VALUES = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2]
SIGMAS = [0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0]


def _digest(*arrays) -> str:
    h = hashlib.sha1()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _collect(fn, *args, **kwargs):
    """Run ``fn`` and return (result, list of ConvergenceWarning messages)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", ConvergenceWarning)
        out = fn(*args, **kwargs)
    return out, [str(x.message) for x in w if issubclass(x.category, ConvergenceWarning)]


# --------------------------------------------------------------------------- cached numerics
@st.cache_data(show_spinner=False, max_entries=8)
def cached_scenario_view(scenario: str):
    return figs.compute_scenario_view(scenario)


@st.cache_data(show_spinner=False, max_entries=16)
def cached_surfaces(X, y, C, s, k_eps, damping):
    """Trajectory LS → SVC → USVC and both error surfaces on a grid that holds the trajectory."""
    traj, msgs = _collect(figs.compute_trajectory, X, y, C=C, s=s, k_eps=k_eps, damping=damping)
    x = X[:, 0]
    lo, hi = float(np.min(x)), float(np.max(x))
    pad = 0.05 * (hi - lo)
    th_lo = min(lo - pad, float(np.nanmin(traj.th)) - pad)
    th_hi = max(hi + pad, float(np.nanmax(traj.th)) + pad)
    w_max = max(float(np.nanmax(traj.w)) * 1.6, 20.0 / max(hi - lo, 1e-12))
    kw = dict(C=C, s=s, k_eps=k_eps, th_range=(th_lo, th_hi), w_max=w_max)
    svc = figs.compute_error_surface(X, y, loss="hinge", **kw)
    usv = figs.compute_error_surface(X, y, loss="smooth_step", **kw)
    return traj, svc, usv, msgs


@st.cache_data(show_spinner=False, max_entries=8)
def cached_table1(scenario, n_trials, n_train, n_test, C, seed, _progress=None):
    res, msgs = _collect(usvc.table1_study, scenario, n_trials=n_trials, n_train=n_train, n_test=n_test,
                         C=C, seed=seed, progress=_progress)
    return res, usvc.table1_summary(res), msgs


@st.cache_data(show_spinner=False, max_entries=8)
def cached_kernel_comparison(ds_key, _ds, sigma, C, R, s, prototypes, seed):
    return _collect(figs.compute_kernel_comparison, _ds, sigma=sigma, C=C, n_prototypes=R, s=s,
                    prototypes=prototypes, seed=seed)


# --------------------------------------------------------------------------- widgets
class Settings1D(NamedTuple):
    source: str
    n: int
    seed: int
    C: float
    s: float
    k_eps: float
    damping: float


def settings_1d() -> Settings1D:
    c = st.columns([1.4, 1, 1, 1, 1, 1, 1])
    source = c[0].selectbox("Data", list(SCENARIOS) + [SIDEBAR_1D], key=f"{KEY}_scenario",
                            help="The paper's 1-D scenarios, or the sidebar data set when it is one-dimensional.")
    n = c[1].slider("n", 100, 2000, 500, step=50, key=f"{KEY}_n1", help="Training points (paper: 500).")
    seed = c[2].number_input("Seed", 0, 2**31 - 1, 0, key=f"{KEY}_seed1")
    C = c[3].select_slider("C", C_VALUES, value=10.0, key=f"{KEY}_C1", help="Paper: C = 10.")
    s = c[4].slider("s (steepness)", 1.0, 8.0, 2.0, step=0.5, key=f"{KEY}_s",
                    help="θ̃_s approaches the step at ξ = 1 as s grows (paper: 2 and 4).")
    k = c[5].select_slider("k_ε", K_VALUES, value=1e-4, key=f"{KEY}_k", format_func=lambda v: f"{v:.0e}")
    d = c[6].slider("damping d", 0.0, 0.9, 0.2, step=0.1, key=f"{KEY}_damp",
                    help="w_k = d·w_{k−1} + (1 − d)·w_WLS (paper: 0.2).")
    return Settings1D(source, int(n), int(seed), float(C), float(s), float(k), float(d))


# --------------------------------------------------------------------------- sections
def render_1d(st1: Settings1D, ds_sidebar) -> None:
    scenario = SCENARIOS.get(st1.source)
    if scenario is None:
        if ds_sidebar is None or ds_sidebar.X.shape[1] != 1:
            st.info("The sidebar data set is not one-dimensional; the error surface L̃(Th, w) needs 1-D data "
                    "(choose usvc_A or usvc_B there, or a one-feature CSV).")
            return
        X, y = ds_sidebar.X, ds_sidebar.y
    else:
        ds = common.load_dataset(f"usvc_{scenario}", st1.n, st1.seed)
        X, y = ds.X, ds.y
        st.plotly_chart(figs.plot_scenario(cached_scenario_view(scenario)), key=f"{KEY}_dens")

    try:
        with st.spinner("IRWLS trajectories and error surfaces…"):
            traj, svc, usv, msgs = cached_surfaces(X, y, st1.C, st1.s, st1.k_eps, st1.damping)
    except ValueError as exc:
        common.show_error(exc)
        return
    for m in msgs:
        st.warning(m)

    m = st.columns(6)
    m[0].metric("LS threshold", f"{traj.ls[0]:.3f}")
    m[1].metric("SVC threshold", f"{traj.svc[0]:.3f}", help="QP-SVC solution reached by IRWLS from LS.")
    m[2].metric("USVC threshold", f"{traj.usvc[0]:.3f}", help="Smooth-step IRWLS started from the SVC.")
    m[3].metric("SVC iterations", traj.n_iter.get("SVC", 0))
    m[4].metric("USVC iterations", traj.n_iter.get("USVC", 0))
    ce = lambda t: float(np.mean(y * (X[:, 0] - t) <= 0))  # noqa: E731 (display only: rule +1 when x > Th)
    m[5].metric("training CE: SVC → USVC", f"{ce(traj.svc[0]):.3f} → {ce(traj.usvc[0]):.3f}")

    T = traj.th.size
    steps = st.slider("IRWLS iterates shown (LS → SVC → USVC)", 1, T, T, key=f"{KEY}_steps",
                      help="Step through the trajectory: first the hinge (SVC) iterations from the LS start, "
                           "then the smooth-step (USVC) iterations from the SVC solution.")
    left, right = st.columns(2)
    left.plotly_chart(figs.plot_error_surface(svc, traj, stages=(0, 1), n_steps=steps), key=f"{KEY}_surf_svc")
    right.plotly_chart(figs.plot_error_surface(usv, traj, stages=(0, 1, 2), n_steps=steps),
                       key=f"{KEY}_surf_usvc")
    th_theory = ce_theory = None
    if scenario is not None:
        th_theory = np.linspace(svc.th[0], svc.th[-1], 400)
        ce_theory = usvc.theoretical_ce(scenario, th_theory)
    st.plotly_chart(figs.plot_ce_profiles([svc, usv], ce_theory=ce_theory, th_theory=th_theory,
                                          marks={"SVC": traj.svc[0], "USVC": traj.usvc[0]}),
                    key=f"{KEY}_ce")
    st.caption("Left: the SVC's surface is convex; IRWLS goes from the regularised LS start (○) to the QP "
               "solution (×). Right: the smooth-step surface has several minima; the USVC starts at the SVC "
               "solution and moves to a minimum of the smooth-step primal (☆). The dashed curve is the locus of "
               "min over w for each Th; below, that profile (divided by C n) is the CE each algorithm really "
               "minimises (right axis), beside the empirical and theoretical CE.")


def render_table1() -> None:
    c = st.columns([1, 1, 1, 1, 1, 1.2])
    scen = c[0].selectbox("Scenario", ["A", "B"], key=f"{KEY}_t1_scen")
    n_trials = c[1].number_input("Trials", 2, 200, 20, key=f"{KEY}_t1_trials",
                                 help="The paper uses 100; 20 run in about a second once compiled.")
    n_train = c[2].number_input("n train", 50, 2000, 500, step=50, key=f"{KEY}_t1_ntr")
    n_test = c[3].number_input("n test", 50, 5000, 500, step=50, key=f"{KEY}_t1_nte")
    seed = c[4].number_input("Study seed", 0, 2**31 - 1, 0, key=f"{KEY}_t1_seed")
    run = c[5].button("Run the Table 1 study", key=f"{KEY}_t1_run", type="primary")
    args = (scen, int(n_trials), int(n_train), int(n_test), 10.0, int(seed))
    if run:
        bar = common.StreamlitProgress("Table 1 study…")
        try:
            st.session_state[f"{KEY}_t1_result"] = (args, cached_table1(*args, _progress=bar))
        except ValueError as exc:
            common.show_error(exc)
        finally:
            bar.done()
    stored = st.session_state.get(f"{KEY}_t1_result")
    if stored is None:
        st.info("Press the button to run LS, SVC and USVC (s = 2, 4) on independent samples, C = 10.")
        return
    (scen_r, n_tr, n_train_r, n_test_r, C_r, seed_r), (res, rows, msgs) = stored
    if stored[0] != args:
        st.caption("Showing the last study run; press the button to run it with the settings above.")
    for m in msgs:
        st.warning(m)
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
    st.markdown(f"**Scenario {scen_r}**, {n_tr} trials, {n_train_r} train / {n_test_r} test points, C = {C_r:g}.")
    st.dataframe(table, hide_index=True)
    st.plotly_chart(figs.plot_table1(rows, scen_r), key=f"{KEY}_t1_fig")
    cols = {"trial": np.repeat(np.arange(n_tr), len(res.methods)),
            "seed": np.repeat(res.seeds, len(res.methods)),
            "method": np.tile(np.array(res.methods), n_tr),
            "train_ce_percent": res.train_ce.ravel(), "test_ce_percent": res.test_ce.ravel(),
            "threshold": res.threshold.ravel(), "w": res.coef.ravel(), "b": res.intercept.ravel(),
            "iterations": res.n_iter.ravel(), "status": res.status.ravel()}
    common.csv_download("Download the study (CSV, one row per trial and method)", cols,
                        f"usvc_table1_{scen_r}_{n_tr}trials.csv", key=f"{KEY}_t1_csv")


def _paper(row, key, digits=1) -> str:
    m, s = row[f"paper_{key}_mean"], row[f"paper_{key}_sd"]
    if not np.isfinite(m):
        return "—"
    return f"{m:.{digits}f} ± {s:.{digits}f}" if np.isfinite(s) else f"{m:.{digits}f}"


def render_kernel(ds) -> None:
    if ds is None:
        return
    c = st.columns(5)
    sigma = c[0].select_slider("σ", SIGMAS, value=1.0 if ds.X.shape[1] <= 2 else 3.0, key=f"{KEY}_sigma",
                               help="Gaussian width for both machines, K = exp(−‖x − x'‖²/(2σ²)).")
    C = c[1].select_slider("C ", C_VALUES, value=10.0, key=f"{KEY}_C2", help="Both machines (SVM: λ = 1/(2nC)).")
    R = c[2].slider("R prototypes", 2, 60, 10, key=f"{KEY}_R")
    method = c[3].selectbox("Prototypes by", ["kmeans", "fscl"], key=f"{KEY}_proto",
                            format_func=lambda v: {"kmeans": "k-means", "fscl": "FSCL"}[v])
    s = c[4].slider("s ", 1.0, 8.0, 2.0, step=0.5, key=f"{KEY}_s2")
    key = (ds.name, _digest(ds.X, ds.y))
    try:
        with st.spinner("Fitting the kernel USVC and the SVM…"):
            kc, msgs = cached_kernel_comparison(key, ds, float(sigma), float(C), int(R), float(s), method,
                                                int(ds.params.get("seed", 0)))
    except ValueError as exc:
        common.show_error(exc)
        return
    for m in msgs:
        st.warning(m)
    m = st.columns(4)
    m[0].metric("USVC machine size", f"{kc.size_usvc} kernels")
    m[1].metric("SVM machine size", f"{kc.size_svm} support vectors")
    m[2].metric("USVC test error", f"{kc.test_error_usvc:.3f}")
    m[3].metric("SVM test error", f"{kc.test_error_svm:.3f}",
                delta=f"{kc.test_error_svm - kc.test_error_usvc:+.3f} vs USVC", delta_color="off")
    if kc.gx is not None:
        st.plotly_chart(figs.plot_kernel_comparison(kc), key=f"{KEY}_kernel")
    else:
        st.info(f"{ds.name} has {ds.X.shape[1]} features: boundaries are drawn for 2-D data only.")
    st.plotly_chart(figs.plot_machine_size(kc), key=f"{KEY}_size")
    st.caption(f"Test error on an {kc.test_kind}. The USVC's machine has R kernels whatever n is "
               "(Navia-Vázquez et al. 2004, eqs. 23–27); the SVM's grows with the number of support vectors (Navia-Vázquez et al. 2004, Table 3).")


# ------------------------------------------------------------------ the page
def page() -> None:
    """The page itself: Unbiased SVC — IRWLS-trained SVC and the unbiased SVC (Navia-Vázquez et al. 2004).

    Run by ``pages/4_Unbiased_SVC.py`` under ``streamlit run app.py`` and by the installed app's frame
    (:mod:`svmviz.ui.frame`).
    """
    from svmviz.ui import common

    st.title("Unbiased SVC")
    st.caption("Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal (2004): the SVC trained by iterated "
               "weighted least squares, and the unbiased SVC whose smooth step loss θ̃_s counts errors.")

    ds = common.dataset_sidebar(CHOICES_2D, "banana", key=KEY)

    with st.expander("The primal and the algorithm", expanded=False):
        st.latex(r"\tilde L(w,b) = \tfrac12\|w\|^2 + C\sum_i \theta(\xi_i),\quad \xi_i = (1 - y_i f(x_i))_+")
        st.latex(r"\tilde\theta_s(\xi) = \begin{cases} \dfrac{(\xi + k^{1/s})^s}{2(1 + k^{1/s})^s} & 0 \le \xi < 1\\[1ex]"
                 r"1 - \dfrac{(1 + k^{1/s})^s}{2(\xi + k^{1/s})^s} & \xi \ge 1\end{cases}")
        st.markdown("IRWLS (Navia-Vázquez et al. 2004, eqs. 20–22): with $\\alpha_i = C\\,\\theta'(\\xi_i)$ for $\\xi_i \\ge 0$ (else 0) and "
                    "$a_i = \\alpha_i/\\xi_i$, solve the weighted least squares "
                    "$\\min \\tfrac12\\|w\\|^2 + \\tfrac12\\sum_i a_i (y_i - f_i)^2$, damp, repeat. "
                    "θ = ξ gives the SVC (the QP solution, checked against libsvm); θ̃_s the USVC, started from "
                    "the SVC. The seed's literal $a_i = 2\\alpha_i/(e_iy_i)$ would solve the problem with 2C.")

    st.header("1-D: error surfaces and trajectories")
    settings = settings_1d()
    render_1d(settings, ds)

    st.header("Table 1: repeated trials")
    render_table1()

    st.header("2-D: kernel USVC with R prototypes vs the SVM")
    st.caption("Uses the data set chosen in the sidebar.")
    render_kernel(ds)
