"""Streamlit layer of the "Regularization path" page: cached numerics, widgets, rendering.

Nothing here computes numerics itself; it calls :mod:`svmviz.path` (cached for every session,
with progress) and :mod:`svmviz.figures.path`.
"""
from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
import streamlit as st
from sklearn.exceptions import ConvergenceWarning

from svmviz import data as _data
from svmviz import path as _path
from svmviz.figures import path as figs
from svmviz.ivm import sigma_heuristic
from svmviz.ui import common

KEY = "path"
CHOICES = ["banana", "esl_mixture", "wahba2001", "usvc_A", "usvc_B", "twonorm", "ringnorm", "waveform"]
SIGMAS = [0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.71, 0.85, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0,
          7.0, 10.0]
PAPER_SIGMA = {"banana": 1.0, "esl_mixture": 0.71, "wahba2001": 1.0}
LOO_EVALS = [10, 20, 30, 45, 60]
N_RANGE = (20, 1000)
LOO_DEFAULT_MAX_N = 300  # LOO computed by default up to this n (it refits every support vector)


class Settings(NamedTuple):
    kernel: str
    sigma: float
    x_axis: str
    loo: bool
    loo_evals: int


def available() -> list[str]:
    return [c for c in CHOICES if c in _data.GENERATORS]


def default_sigma(ds) -> tuple[float, str]:
    if ds.name in PAPER_SIGMA and ds.X.shape[1] == 2:
        return PAPER_SIGMA[ds.name], "a width that suits these data's scale"
    h = sigma_heuristic(ds.X)
    return min(SIGMAS, key=lambda s: abs(np.log(s / h))), "the median-distance heuristic for these data"


def sidebar_settings(ds) -> Settings:
    sb = st.sidebar
    sb.header("ν-SVM path")
    kernels = ["rbf", "linear"]
    k0 = common.query_value("pkernel", "rbf", str)
    kernel = sb.radio("Kernel", kernels, index=kernels.index(k0) if k0 in kernels else 0, horizontal=True,
                      key=f"{KEY}_kernel", format_func={"rbf": "Gaussian", "linear": "linear"}.get)
    sigma = 1.0
    if kernel == "rbf":
        s0, why = default_sigma(ds)
        s0 = common.query_value("psigma", s0, float)
        s0 = min(SIGMAS, key=lambda s: abs(np.log(s / s0))) if s0 > 0 else 1.0
        sigma = sb.select_slider("σ (Gaussian kernel width)", SIGMAS, value=s0, key=f"{KEY}_sigma",
                                 help=f"K = exp(−‖x − x'‖²/(2σ²)). Default: {why}.")
    axes = list(figs.X_AXES)
    x_axis = sb.radio("Horizontal axis", axes, format_func=figs.X_TITLES.get, horizontal=True,
                      key=f"{KEY}_xaxis", help="λ = m·ν runs from 0 to 2·min(m₊, m₋); ν = λ/m is sklearn's ν.")
    loo_default = int(ds.X.shape[0] <= LOO_DEFAULT_MAX_N)
    loo = sb.checkbox("Leave-one-out along the path", value=bool(common.query_value("ploo", loo_default, int)),
                      key=f"{KEY}_loo", help="Refits without each margin or bounded point (E ∪ L), warm-started, "
                      "at evenly spaced breakpoints. Points of R need no refit.")
    evals = sb.select_slider("LOO evaluation points", LOO_EVALS, value=30, key=f"{KEY}_evals",
                             disabled=not loo, help="Breakpoints (evenly thinned) where LOO1/LOO2 are computed.")
    common.set_query(pkernel=kernel, psigma=sigma, ploo=int(loo))
    return Settings(kernel, float(sigma), x_axis, bool(loo), int(evals))


# --------------------------------------------------------------------------- cached numerics
def _kernel_kwargs(s: Settings) -> dict:
    return dict(kernel=s.kernel, sigma=s.sigma) if s.kernel == "rbf" else dict(kernel=s.kernel)


def compute_path(ds, s: Settings):
    """The whole path (cached for every session) and the warnings it raised."""
    def run(_cb):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always", ConvergenceWarning)
            p = _path.nu_path(ds.X, ds.y, **_kernel_kwargs(s))
        return p, [str(x.message) for x in w]

    with st.status("Following the ν-SVM path from the sparse end to λ_max…", expanded=False) as status:
        p, msgs = common.cached_compute("nu_path", (ds.X, ds.y, s.kernel, s.sigma), run)
        status.update(label=f"Path: {p.n_breakpoints} breakpoints up to λ = {p.lambdas[-1]:.4g} "
                            f"({p.message})", state="complete" if p.status == 0 else "error")
    return p, msgs


def test_sample(ds):
    if ds.test_sample is None:
        return None
    seed = int(ds.params.get("seed", 0)) if isinstance(ds.params, dict) else 0
    return ds.test_sample(2000, seed=20_000 + seed)


def compute_loo(ds, s: Settings, p, te):
    """LOO1 / LOO2 / test error along the path (cached for every session, progress bar)."""
    lambdas = _path.default_loo_lambdas(p, s.loo_evals)
    Xt = None if te is None else te.X
    yt = None if te is None else te.y

    def run(cb):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always", ConvergenceWarning)
            lp = _path.loo_path(p, lambdas, X_test=Xt, y_test=yt, progress=cb)
        return lp, [str(x.message) for x in w]

    key = (ds.X, ds.y, s.kernel, s.sigma, lambdas, None if te is None else (te.X, te.y))
    return common.cached_compute("nu_path_loo", key, run,
                                 progress_text="Leave-one-out: refitting without each support vector…")


# --------------------------------------------------------------------------- widgets
def lam_cursor(p, loo) -> float:
    """The λ cursor (main area); defaults to the LOO stopping point, else a quarter of λ_max."""
    lam_max = float(p.lambdas[-1])
    if loo is not None:
        default = float(loo.lambdas[loo.stop])
        why = "the automatic stopping point of LOO2"
    else:
        default = 0.25 * lam_max
        why = "a quarter of λ_max"
    default = common.query_value("plam", default, float)
    default = float(np.clip(default, 0.0, lam_max))
    step = max(lam_max / 2000.0, 1e-6)
    lam = st.slider("λ cursor (= m·ν)", 0.0, lam_max, min(lam_max, round(default / step) * step), step=step,
                    key=f"{KEY}_lam", format="%.3f",
                    help=f"Where the data view below is drawn. Default: {why}. "
                         f"ν = λ/m = λ/{p.m}; λ_max = 2·min(m₊, m₋) = {lam_max:g}.")
    common.set_query(plam=f"{lam:.6g}")
    return float(min(max(lam, 0.0), lam_max))


# --------------------------------------------------------------------------- page sections
def render_metrics(p, lam: float, bm) -> None:
    g = p.groups_at(lam)
    c = st.columns(6)
    c[0].metric("λ", f"{lam:.4g}")
    c[1].metric("ν = λ/m", f"{lam / p.m:.4f}")
    c[2].metric("|E| margin", int(np.sum(g == _path.GROUP_E)), help="0 < α < 1, on the margin (g = 0).")
    c[3].metric("|L| bounded", int(np.sum(g == _path.GROUP_L)), help="α = 1, inside the margin or misclassified.")
    c[4].metric("Support vectors", int(np.sum(g != _path.GROUP_R)), help="|E| + |L|; the rest (R) have α = 0.")
    if bm is not None:
        c[5].metric("Test error" if np.isfinite(bm.test_error) else "Training error",
                    f"{bm.test_error if np.isfinite(bm.test_error) else bm.train_error:.3f}")
    else:
        c[5].metric("Training error", f"{p.error_rate(p.X, p.y, lam):.3f}")


def x_of(p, lam: float, x_axis: str) -> float:
    return float(figs.axis_values(p, lam, x_axis))


def explain() -> None:
    with st.expander("What the path is, and how to read it", expanded=False):
        st.markdown("Loosli & Canu's ν-SVM in the form of (002), with $m$ training points and $\\lambda = m\\nu$:")
        st.latex(r"\max_\alpha\ -\tfrac12\,\alpha^\top G\alpha\quad\text{s.t.}\quad \alpha^\top\mathbf 1=\lambda,"
                 r"\ \ \alpha^\top y = 0,\ \ 0\le\alpha_i\le 1,\qquad G_{ij}=y_iy_jk(x_i,x_j)/m")
        st.markdown("With $g_i = y_i(f(x_i)+b)-\\rho$, every point is in one group: **E** (on the margin, "
                    "$0<\\alpha_i<1$, $g_i=0$), **L** (bounded, $\\alpha_i=1$, $g_i<0$) or **R** (inactive, "
                    "$\\alpha_i=0$, $g_i>0$). Between two events α, b and ρ are linear in λ: the path is "
                    "followed exactly from one breakpoint to the next, where a point enters or leaves E. "
                    "Small λ is the sparse end (few support vectors, large margin in the dual scale); "
                    "λ_max = 2·min(m₊, m₋) puts every point of the smaller class in L.")
        st.markdown("Leave-one-out along the path (002): only points of E ∪ L are refitted (removing a point "
                    "of R changes nothing), warm-started from the full solution.")
        st.latex(r"\mathrm{LOO1}=\frac1m\sum_i \mathbb 1[y_i\hat y_i^{[-i]}\le 0],\qquad "
                 r"\mathrm{LOO2}=\frac1m\sum_i \max\big(0,\ 1-y_i\hat y_i^{[-i]}/\rho^{[-i]}\big)")
        st.markdown("The automatic stopping point is the first evaluated λ after which LOO2 stays within 5 % "
                    "of its value for the next 5 evaluations: the sparsest solution whose leave-one-out "
                    "behaviour no longer improves — move the cursor to compare it with denser solutions.")


def render(ds, s: Settings) -> None:
    try:
        p, msgs = compute_path(ds, s)
    except ValueError as exc:
        common.show_error(exc, what="Could not compute the path")
        return
    for m in dict.fromkeys(msgs):
        st.warning(m)
    te = test_sample(ds)
    loo = None
    if s.loo:
        try:
            loo, lmsgs = compute_loo(ds, s, p, te)
        except ValueError as exc:
            common.show_error(exc, what="Could not compute leave-one-out")
            lmsgs = []
        for m in dict.fromkeys(lmsgs):
            st.warning(m)
    explain()
    lam = lam_cursor(p, loo)
    bm = None
    if p.X.shape[1] == 2:
        bm = figs.compute_boundary_map(p, lam, grid_n=70, X_test=None if te is None else te.X,
                                       y_test=None if te is None else te.y)
    render_metrics(p, lam, bm)
    classes = tuple(str(c) for c in ds.classes)
    stop_x = None if loo is None else x_of(p, float(loo.lambdas[loo.stop]), s.x_axis)
    cp = figs.compute_coef_paths(p, x_axis=s.x_axis)
    st.plotly_chart(figs.plot_coef_paths(cp, cursor=x_of(p, lam, s.x_axis), classes=classes, X=p.X,
                                         stop=stop_x), key=f"{KEY}_coefs")
    st.caption("Each line is one training point's α_i y_i: class +1 above zero, class −1 below. A line "
               "leaves 0 when its point enters the margin (R → E) and flattens at ±1 when it becomes "
               "bounded (E → L). Ticks at the bottom mark the breakpoints; hover a line to see its point.")
    left, right = st.columns([3, 2])
    with left:
        if bm is not None:
            st.plotly_chart(figs.plot_boundary_map(bm, classes=classes), key=f"{KEY}_map")
        else:
            st.info(f"{ds.name} has {p.X.shape[1]} feature(s): the boundary map needs 2. "
                    "The paths, groups and leave-one-out below still apply.")
    with right:
        summ = figs.compute_path_summary(p, x_axis=s.x_axis)
        st.plotly_chart(figs.plot_path_summary(summ, cursor=x_of(p, lam, s.x_axis)), key=f"{KEY}_summary")
    st.subheader("Leave-one-out along the path")
    if loo is None:
        st.info("Tick “Leave-one-out along the path” in the sidebar to compute LOO1, LOO2"
                + (" and the test error" if te is not None else "") + " with the automatic stopping point.")
    else:
        lc = figs.compute_loo_curves(p, loo, x_axis=s.x_axis)
        st.plotly_chart(figs.plot_loo_curves(lc, cursor=x_of(p, lam, s.x_axis)), key=f"{KEY}_loo_fig")
        k = loo.stop
        best = int(np.argmin(loo.loo1))
        text = (f"**Automatic stopping point: λ = {loo.lambdas[k]:.4g} (ν = {loo.nus[k]:.3f})** — LOO1 "
                f"{loo.loo1[k]:.3f}, LOO2 {loo.loo2[k]:.3f}, {int(loo.n_sv[k])} support vectors")
        if np.isfinite(loo.test_error[k]):
            text += f", test error {loo.test_error[k]:.3f} (smallest on the path: {np.nanmin(loo.test_error):.3f})"
        text += (f". Smallest LOO1: {loo.loo1[best]:.3f} at λ = {loo.lambdas[best]:.4g}. "
                 f"{loo.lambdas.size} evaluations in {loo.seconds:.1f} s.")
        st.markdown(text)
        if ds.bayes_error is not None:
            st.caption(f"Bayes error of these data: {ds.bayes_error:.3f}.")
        common.csv_download("Download leave-one-out along the path (CSV)",
                            {"lambda": loo.lambdas, "nu": loo.nus, "loo1": loo.loo1, "loo2": loo.loo2,
                             "n_support": loo.n_sv, "test_error": loo.test_error,
                             "is_stopping_point": np.arange(loo.lambdas.size) == loo.stop},
                            f"nu_path_loo_{ds.name}.csv", key=f"{KEY}_loo_csv")
    common.csv_download("Download the path (CSV: α, group, b, ρ of every point at every breakpoint)",
                        p.to_columns(), f"nu_path_{ds.name}.csv", key=f"{KEY}_csv")


# ------------------------------------------------------------------ the page
def page() -> None:
    """The page itself: Regularization path — the whole ν-SVM path with leave-one-out along it (Loosli & Canu 2006).

    Run by ``pages/3_Regularization_path.py`` under ``streamlit run app.py`` and by the installed app's frame
    (:mod:`svmviz.ui.frame`).
    """
    from svmviz.ui import common

    st.title("Regularization path")
    st.caption("Loosli & Canu (2006): the ν-SVM solution for every ν at once — α is piecewise linear in "
               "λ = mν — and leave-one-out along the path to choose ν automatically (Loosli & Canu 2006, Figs. “Path” "
               "and “LOO”).")

    ds = common.dataset_sidebar(available(), "banana", key=KEY, n_range=N_RANGE)
    if ds is None:
        st.stop()
    settings = sidebar_settings(ds)
    render(ds, settings)
