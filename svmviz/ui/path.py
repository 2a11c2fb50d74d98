"""Streamlit layer of the "Regularization path" page: widgets, cached numerics, rendering.

Nothing here computes numerics itself; it calls :mod:`svmviz.path` through the app's one
cached-compute helper (:func:`svmviz.ui.compute.cached_compute`: progress, cost estimate, Cancel)
and draws :mod:`svmviz.figures.path`.
"""
from __future__ import annotations

import threading

import numpy as np
import streamlit as st

from svmviz import _cost
from svmviz import data as _data
from svmviz import path as _path
from svmviz.figures import path as figs
from svmviz.ui.kernel_width import SIGMAS, default_sigma
from svmviz.ui import charts, code_view, data_sidebar, edit, errors, export, page_head, url_state, widgets
from svmviz.ui.compute import Cost, cached_result, plan_executor, smaller_n
from svmviz.views.path import Settings, stopping_lambda, view_plan
from svmviz.ui.fit_notes import support_note
from svmviz.ui.map_axes import map_axes, one_feature_note

KEY = "path"
CHOICES = ["banana", "esl_mixture", "wahba2001", "usvc_A", "usvc_B", "twonorm", "ringnorm", "waveform"]
LOO_EVALS = [10, 20, 30, 45, 60]
N_RANGE = (20, 5000)  # the sidebar's n range (the path itself accepts up to svmviz.path.MAX_N)
LOO_DEFAULT_MAX_N = 300  # LOO computed by default up to this n (it refits every support vector)
LOO_UPFRONT_SECONDS = 1.5  # LOO estimated under this is computed before the charts (no second drawing)

LOO2_NOTE = ("LOO2 is the left-out points' hinge loss in units of the margin, mean max(0, 1 − y ŷ/ρ): "
             "at least LOO1, and large where the margin is small. Near the sparse end the solution "
             "approaches the hard-margin SVM, whose margin between overlapping classes is tiny, so a "
             "misclassified left-out point lies many margins away — values far above 1 are real (checked "
             "against refitting without each point), hence its own panel on a log scale.")
ZERO_NOTE = ("Grey: below ν_min the two classes' reduced convex hulls overlap, the margin ρ is 0 and the "
             "ν-SVM's decision function is 0 up to rounding — there is no classifier to leave points out "
             "of, so LOO is not drawn there (Chang & Lin 2001).")


def available() -> list[str]:
    return [c for c in CHOICES if c in _data.GENERATORS]


def sidebar_settings(ds) -> Settings:
    """The page's controls (sidebar), each kept in the URL; σ and the LOO default follow the data."""
    sb = st.sidebar
    sb.header("ν-SVM path")
    kernel = widgets.control(sb.radio, "Kernel", ["rbf", "linear"], key=f"{KEY}_kernel", default="rbf",
                            url="pkernel", horizontal=True, format_func={"rbf": "Gaussian", "linear": "linear"}.get)
    sigma = 1.0
    if kernel == "rbf":
        s_default, why = default_sigma(ds)
        sigma = widgets.control(sb.select_slider, "σ (Gaussian kernel width)", SIGMAS, key=f"{KEY}_sigma",
                               default=s_default, url="psigma", depends=(ds.name, int(ds.X.shape[1])),
                               help=f"K = exp(−‖x − x'‖²/(2σ²)). Default: {why}, σ = {s_default:g}; it "
                                    "follows the data set when you choose another.")
    x_axis = widgets.control(sb.radio, "Horizontal axis", list(figs.X_AXES), key=f"{KEY}_xaxis", default="lambda",
                            url="pxaxis", format_func=figs.X_TITLES.get, horizontal=True,
                            help="λ = m·ν runs from 0 to 2·min(m₊, m₋); ν = λ/m is sklearn's ν.")
    small = ds.X.shape[0] <= LOO_DEFAULT_MAX_N
    loo = widgets.control(sb.checkbox, "Leave-one-out along the path", key=f"{KEY}_loo", default=small, url="ploo",
                         depends=small, keep_choice=True,
                         help=f"Refits without each margin or bounded point (E ∪ L), warm-started, at evenly "
                              f"spaced breakpoints; points of R need no refit. On by default up to n = "
                              f"{LOO_DEFAULT_MAX_N}; above about 10 s you are asked first.")
    evals = widgets.control(sb.select_slider, "LOO evaluation points", LOO_EVALS, key=f"{KEY}_evals", default=30,
                           url="pevals", disabled=not loo,
                           help="Breakpoints (evenly thinned) where LOO1 / LOO2 are computed.")
    return Settings(kernel, float(sigma), x_axis, bool(loo), int(evals))


# --------------------------------------------------------------------------- cached numerics
# the page computes the view's plan (svmviz.views.path); its path and leave-one-out steps run through
# the app's cache for every session, with progress, a cost estimate and Cancel
def path_cost(ds) -> Cost:
    """Estimated time of the whole path."""
    n = ds.X.shape[0]
    return Cost(_cost.path_seconds(n), f"the ν-SVM path of {n} points", n, _cost.path_seconds, smaller_n(KEY))


def loo_cost(ds, p, lambdas) -> Cost:
    """Estimated time of LOO along the path: one refit per point of E ∪ L at each evaluated λ."""
    n = p.m
    refits = float(sum(int(np.sum(p.alpha_at(l) > 0)) for l in lambdas))
    per_point = refits / n

    def at(m: int) -> float:  # a subsample of m points: about as many refits per point
        return _cost.path_loo_seconds(m, per_point * m) + _cost.path_seconds(m)

    return Cost(_cost.path_loo_seconds(n, refits),
                f"leave-one-out at {lambdas.size} points of the path ({int(refits)} refits of {n} points)",
                n, at, smaller_n(KEY))


_LOO_DONE = threading.Event()  # a leave-one-out along the path has run in this server process


def _loo_compiled() -> bool:
    """Whether this process has run leave-one-out along the path before: until then its numba
    functions may still have to be compiled (tens of seconds on a fresh install) or loaded, so the
    path's charts are drawn first and LOO after them."""
    return _LOO_DONE.is_set()


def cached_loo(ds, plan):
    """LOO along the path if it is already computed (never computes)."""
    return cached_result("nu_path_loo", plan_executor(ds).key(plan, "loo"))


def compute_loo(ds, s: Settings, plan, p):
    """LOO1 / LOO2 / test error along the path (the view's ``loo`` step; progress, estimate, Cancel).
    None while the user has not started it (costly) or has stopped it."""
    cost = loo_cost(ds, p, _path.default_loo_lambdas(p, s.loo_evals))
    loo = plan_executor(ds, {"p": dict(cost=path_cost(ds)), "loo": dict(cost=cost, optional=True)}).value(plan, "loo")
    if loo is not None:
        _LOO_DONE.set()
    return loo


# --------------------------------------------------------------------------- widgets
def lam_cursor(p, loo) -> float:
    """The λ cursor (main area). It follows its default — the LOO stopping point, else a quarter of
    λ_max — until the user moves it; a shared link sets it."""
    lam_max = float(p.lambdas[-1])
    if loo is not None:
        default = stopping_lambda(loo)
        why = "the automatic stopping point"
    else:
        default = 0.25 * lam_max
        why = "a quarter of λ_max"
    step = max(lam_max / 2000.0, 1e-6)
    default = min(lam_max, round(default / step) * step)
    lam = widgets.control(st.slider, "λ cursor (= m·ν)", 0.0, lam_max, key=f"{KEY}_lam", default=default,
                         url="plam", depends=(p.m, lam_max, default), keep_choice=True, clamp=True, step=step,
                         format="%.3f", help=f"Where the data view below is drawn. Default: {why}. "
                                             f"ν = λ/m = λ/{p.m}; λ_max = 2·min(m₊, m₋) = {lam_max:g}.")
    return float(min(max(lam, 0.0), lam_max))


# --------------------------------------------------------------------------- page sections
def n_distinct_breakpoints(p) -> int:
    """Breakpoints at distinct λ (two equal λ in a row are one breakpoint where b and ρ jump)."""
    return int(np.unique(p.lambdas).size)


def render_metrics(p, lam: float, te, ds) -> None:
    g = p.groups_at(lam)
    rows = [st.columns(3), st.columns(3)]
    rows[0][0].metric("λ (= m·ν)", f"{lam:.4g}")
    rows[0][1].metric("ν = λ/m", f"{lam / p.m:.4f}")
    if te is not None:
        rows[0][2].metric("Test error", f"{p.error_rate(te.X, te.y, lam):.3f}",
                          help="On 2,000 new points from the same generator.")
    else:
        rows[0][2].metric("Training error", f"{p.error_rate(p.X, p.y, lam):.3f}")
    rows[1][0].metric("Support vectors", int(np.sum(g != _path.GROUP_R)), help="|E| + |L|; the rest (R) have α = 0.")
    rows[1][1].metric("On the margin (E)", int(np.sum(g == _path.GROUP_E)), help="0 < α < 1, g = 0.")
    rows[1][2].metric("Bounded (L)", int(np.sum(g == _path.GROUP_L)), help="α = 1: inside the margin or misclassified.")
    support_note(int(np.sum(g != _path.GROUP_R)), p.m, ds, at=f"the chosen point of the path (λ = {lam:.4g})",
                 advice="Toward λ_max every point joins L: move the cursor toward the sparse end (smaller λ), or "
                        "try another kernel width σ.")


def explain() -> None:
    with st.expander("What the path is, and how to read it", expanded=False):
        st.markdown("Loosli & Canu's ν-SVM with $m$ training points and $\\lambda = m\\nu$:")
        # two lines each: on one line these formulas overrun the page's column at 1024 × 768
        st.latex(r"\begin{gathered}\max_\alpha\ -\tfrac12\,\alpha^\top G\alpha,\qquad G_{ij}=y_iy_jk(x_i,x_j)/m"
                 r"\\ \text{s.t.}\quad \alpha^\top\mathbf 1=\lambda,\ \ \alpha^\top y = 0,\ \ 0\le\alpha_i\le 1"
                 r"\end{gathered}")
        st.markdown("With $g_i = y_i(f(x_i)+b)-\\rho$, every point is in one group: **E** (on the margin, "
                    "$0<\\alpha_i<1$, $g_i=0$), **L** (bounded, $\\alpha_i=1$, $g_i<0$) or **R** (inactive, "
                    "$\\alpha_i=0$, $g_i>0$). Between two events α, b and ρ are linear in λ: the path is "
                    "followed exactly from one breakpoint to the next, where a point enters or leaves E. "
                    "Small λ is the sparse end (few support vectors); λ_max = 2·min(m₊, m₋) puts every point "
                    "of the smaller class in L.")
        st.markdown("Leave-one-out along the path: only points of E ∪ L are refitted (removing a point of R "
                    "changes nothing), warm-started from the full solution; each left-out classifier keeps λ.")
        st.latex(r"\begin{gathered}\mathrm{LOO1}=\frac1m\sum_i \mathbb 1[y_i\hat y_i^{[-i]}\le 0],\\ "
                 r"\mathrm{LOO2}=\frac1m\sum_i \max\big(0,\ 1-y_i\hat y_i^{[-i]}/\rho^{[-i]}\big)\end{gathered}")
        st.markdown("LOO2 is the paper's $\\frac1m\\sum_i\\max(0,\\rho-\\hat y_i y_i)$ with each left-out "
                    "classifier in units of its own margin (scikit-learn's `NuSVC` scale).")
        st.markdown("**The automatic stopping point** is where the paper stops following the path: the "
                    "sparsest good solution. Reading the path from the sparse end, it is the first evaluated λ "
                    "where LOO1 is within one standard error of its smallest value (the one-standard-error "
                    "rule) and LOO2 has come down to within 10 % of its floor among those — it no longer "
                    "varies, the over-fitting of the sparse end is over. Move the cursor to compare it with "
                    "denser solutions.")


def render(ds, s: Settings) -> None:
    base = view_plan(ds, s)  # the steps before the cursor: the path, the test sample, leave-one-out
    ex = plan_executor(ds, {"p": dict(cost=path_cost(ds))})
    try:
        p = ex.value(base, "p")
    except ValueError as exc:
        errors.show_error(exc, what="Could not compute the path")
        return
    nd = n_distinct_breakpoints(p)
    jumps = p.n_breakpoints - nd
    st.caption(f"Path: {nd} breakpoints" + (f" ({jumps} of them also a jump of b and ρ)" if jumps else "")
               + f", λ from 0 to {p.lambdas[-1]:.4g}: {p.message}.")
    te = ex.value(base, "te") if base.has("te") else None
    explain()
    # leave-one-out can take a while: what is cached is used at once; if it takes under
    # LOO_UPFRONT_SECONDS it is computed now, otherwise at the bottom of the page after the path's
    # charts are drawn (the page then redraws with it: cursor default and stopping point)
    loo = None
    if s.loo:
        loo = cached_loo(ds, base)
        if loo is None and _loo_compiled() and \
                loo_cost(ds, p, _path.default_loo_lambdas(p, s.loo_evals)).seconds <= LOO_UPFRONT_SECONDS:
            try:
                loo = compute_loo(ds, s, base, p)
            except ValueError:
                loo = None  # said again, with its message, where the LOO section is drawn
    lam = lam_cursor(p, loo)
    axes = map_axes(ds, KEY)
    # what is drawn: the plan with leave-one-out once it is there
    plan = view_plan(ds, s._replace(loo=loo is not None), lam, map_axes=None if axes is None else axes.code_args)
    render_metrics(p, lam, te, ds)
    classes = ds.class_names
    charts.chart(ex.value(plan, "fig_path_coefs"), key=f"{KEY}_coefs")
    st.caption(f"Each line is one training point's αᵢyᵢ: {classes[1]} (+1) above zero, {classes[0]} (−1) below. A line "
               "leaves 0 when its point enters the margin (R → E) and flattens at ±1 when it becomes "
               "bounded (E → L). Ticks at the bottom mark the breakpoints; hover a line to see its point.")
    # the map and the group sizes one above the other: beside the map at 1024 × 768 the group-size
    # chart's plot is ~65 px wide, its title cut and its λ ticks piled up
    if plan.has("fig_path_map"):
        charts.chart(ex.value(plan, "fig_path_map"), key=f"{KEY}_map")
        if axes is not None:
            st.caption(axes.plane.caption)
    elif p.X.shape[1] < 2:
        one_feature_note(ds, "The paths, groups and leave-one-out still apply.")
    charts.chart(ex.value(plan, "fig_path_summary"), key=f"{KEY}_summary")
    summ = ex.value(plan, "summ")
    st.subheader("Leave-one-out along the path")
    if not s.loo:
        st.info("Tick “Leave-one-out along the path” in the sidebar to compute LOO1, LOO2"
                + (" and the test error" if te is not None else "") + " with the automatic stopping point.")
    else:
        had = loo is not None
        try:
            loo = compute_loo(ds, s, base, p)  # cached: shows its warnings; else estimate / progress / Cancel
        except ValueError as exc:
            errors.show_error(exc, what="Could not compute leave-one-out")
            loo = None
        if loo is not None and not had:
            st.rerun()  # draw the cursor default and the stopping point above with it
        if loo is not None:
            render_loo(ds, loo, ex.value(plan, "lc"), ex.value(plan, "fig_path_loo_fig"))
    d1, d2 = st.columns(2)
    with d1:
        # built only when clicked (Streamlit runs the callable then): at n = 1500 the path has
        # ~7,000 breakpoints, and every point at every breakpoint would be ten million rows
        st.download_button("Download the path (CSV)", data=lambda: _csv(figs.coef_path_table(p)),
                           file_name=f"nu_path_{ds.name}.csv", mime="text/csv", key=f"{KEY}_csv", on_click="ignore",
                           help="Each point's α at the breakpoints where its slope changes: exact, since α "
                                "is linear in λ in between (columns point, y, lambda, nu, alpha).")
    with d2:
        export.csv_download("Download the breakpoints (CSV)",
                            {"lambda": p.lambdas, "nu": p.nus, "b": p.b, "rho": p.rho, "n_E": summ.n_E,
                             "n_L": summ.n_L, "n_R": summ.n_R}, f"nu_path_breakpoints_{ds.name}.csv",
                            key=f"{KEY}_bp_csv")
    code_view.plan_panel(plan, ds, KEY, page="path")


def _csv(columns: dict) -> bytes:
    import pandas as pd

    return pd.DataFrame(columns).to_csv(index=False).encode()


def render_loo(ds, loo, lc, fig) -> None:
    """Leave-one-out along the path: its chart (the view's ``fig_path_loo_fig``, drawn from ``lc``), the
    stopping point and its download."""
    charts.chart(fig, key=f"{KEY}_loo_fig")
    st.caption(LOO2_NOTE + (" " + ZERO_NOTE if lc.zero_bands else ""))
    k = loo.stop
    ok = ~loo.rho_zero
    text = (f"**Automatic stopping point: λ = {loo.lambdas[k]:.4g} (ν = {loo.nus[k]:.3f})**, "
            f"{int(loo.n_sv[k])} support vectors — LOO1 {loo.loo1[k]:.3f}, LOO2 {loo.loo2[k]:.3f}")
    if np.isfinite(loo.test_error[k]):
        text += f", test error {loo.test_error[k]:.3f} (smallest on the path: {np.nanmin(loo.test_error):.3f})"
    if ok.any():
        best = int(np.flatnonzero(ok)[np.argmin(loo.loo1[ok])])
        text += (f". Smallest LOO1: {loo.loo1[best]:.3f} at λ = {loo.lambdas[best]:.4g} "
                 f"with {int(loo.n_sv[best])} support vectors")
    text += f". {loo.lambdas.size} evaluations in {loo.seconds:.1f} s."
    st.markdown(text)
    if ds.bayes_error is not None:
        st.caption(f"Bayes error of these data: {ds.bayes_error:.3f}.")
    export.csv_download("Download leave-one-out along the path (CSV)",
                        {"lambda": loo.lambdas, "nu": loo.nus, "loo1": loo.loo1, "loo2": loo.loo2,
                         "n_support": loo.n_sv, "test_error": loo.test_error, "rho": loo.rho,
                         "margin_zero": loo.rho_zero,
                         "is_stopping_point": np.arange(loo.lambdas.size) == loo.stop},
                        f"nu_path_loo_{ds.name}.csv", key=f"{KEY}_loo_csv")


# ------------------------------------------------------------------ the page
@url_state.page_view
def page() -> None:
    """Regularization path (Loosli & Canu 2006): the whole ν-SVM path with leave-one-out along it."""
    page_head.page_header("path", (
        "Loosli & Canu (2006): the ν-SVM solution for every ν at once — α is piecewise linear in λ = mν — and "
        "LOO along the path to choose ν automatically (Loosli & Canu 2006, Figs. “Path” and “LOO”)."))
    ds = data_sidebar.dataset_sidebar(available(), "banana", key=KEY, n_range=N_RANGE)
    if ds is None:
        url_state.stop_page()
    settings = sidebar_settings(ds)
    render(ds, settings)
    edit.show_machine(kernel=settings.kernel, sigma=settings.sigma, nu_lambda=st.session_state.get(f"{KEY}_lam"))
