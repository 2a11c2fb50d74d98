"""Cached computations and widgets of the "Loss functions & randomized GACV" page (Wahba 1998)."""
from __future__ import annotations

import numpy as np
import streamlit as st

from svmviz import _cost
from svmviz import losses as _losses
from svmviz.figures import losses as figs
from svmviz.views.losses import CurveView, LossView, view_plan

from . import charts, code_view, edit, glossary, page_head, url_state
from .compute import Cost, plan_executor, smaller_n
from .widgets import control

DATASETS = ["wahba2001", "esl_mixture", "banana", "twonorm", "ringnorm"]
LOSS_NAMES = list(_losses.LOSSES)
S_CHOICES = [1.0, 1.5, 2.0, 3.0, 4.0, 8.0, 16.0]
PERTURBATIONS = ["gaussian", "bernoulli"]


# ----------------------------------------------------------------------------------------------
# widgets (every one in the URL, see svmviz.ui.widgets.control)
# ----------------------------------------------------------------------------------------------
def loss_widgets() -> LossView:
    """The loss choice and parameters (a, ε±, s, τ range)."""
    names = control(st.multiselect, "Losses", LOSS_NAMES, key="lf_losses", default=list(LOSS_NAMES), url="lf_losses",
                    format_func=lambda n: figs.SHORT[n])
    # two controls a row: at 1024 × 768 four in a row clip the s tags and the τ range's label
    c = [*st.columns(2), *st.columns(2)]
    a = control(c[0].slider, "a (sigmoid, [1 − exp(aτ)]₊)", 0.25, 10.0, step=0.25, key="lf_a", default=1.0, url="lf_a",
                help="Steepness: both tend to the step [−τ]∗ as a → ∞ (Wahba's Fig 1.1 uses a = 1).")
    em, ep = control(c[1].slider, "ε₋ and ε₊ of v", -2.0, 2.0, step=0.05, key="lf_eps", default=(0.0, 1.0),
                     url=("lf_em", "lf_ep"),
                     help="v(τ; ε₊, ε₋) is linear below ε₋, a parabola on [ε₋, ε₊], 0 above ε₊ (Wahba 1998, eq. 1.23). "
                          "ε₋ = ε₊ = ε gives the hinge [ε − τ]₊.")
    s_values = control(c[2].multiselect, "s of θ̃ₛ", S_CHOICES, key="lf_s", default=[2.0, 4.0], url="lf_s",
                       format_func=lambda v: f"{v:g}",
                       help="Smooth-step exponent of the USVC loss (Navia-Vázquez et al. 2004, eq. 6); larger s, steeper step.")
    tlo, thi = control(c[3].slider, "τ range", -8.0, 8.0, step=0.5, key="lf_tau", default=(-3.0, 3.0),
                       url=("lf_tlo", "lf_thi"))
    scaled = control(st.checkbox, "Divide the deviance by ln 2 (so it passes through (0, 1) and bounds [−τ]∗)",
                     key="lf_dev2", default=False, url="lf_dev2")
    if thi <= tlo:
        raise ValueError("The τ range needs two different ends; widen it.")
    if "smooth_step" in names and not s_values:
        raise ValueError("Choose at least one s for θ̃ₛ, or remove θ̃ₛ from the losses.")
    return LossView(tuple(names), float(a), float(ep), float(em), tuple(float(v) for v in s_values),
                    (float(tlo), float(thi)), bool(scaled))


def curve_widgets() -> CurveView:
    """σ, the λ grid, the ranGACV replicates / σ_z / perturbation, exact LOO — in the sidebar."""
    sb = st.sidebar
    sb.header("GACV curves")
    ls = control(sb.slider, "log10 σ (Gaussian kernel width)", -1.5, 1.5, step=0.05, key="lf_sig", default=0.0,
                 url="lf_sig", help="K(x, x') = exp(−‖x − x'‖²/(2σ²)); one σ, curves over λ.")
    ll = control(sb.slider, "log10 λ range", -8.0, 1.0, step=0.25, key="lf_lam", default=(-5.0, -0.5),
                 url=("lf_llo", "lf_lhi"), help="λ weighs ‖h‖² against the data fit; sklearn's C = 1/(2nλ).")
    m = control(sb.slider, "Number of λ values", 5, 50, step=1, key="lf_m", default=20, url="lf_m")
    R = control(sb.slider, "ranGACV replicates (perturbation vectors Z)", 0, 20, step=1, key="lf_R", default=5,
                url="lf_R", help="Each replicate refits the SVM with responses y + z along λ; 0 = off.")
    sz = control(sb.slider, "σ_z (perturbation size)", 0.01, 1.0, step=0.01, key="lf_sz", default=0.1, url="lf_sz",
                 help="Z ~ N(0, σ_z² I) (or ±σ_z): small enough for the finite difference, large enough "
                      "to move the solution.")
    pert = control(sb.radio, "Perturbation", PERTURBATIONS, key="lf_pert", default="gaussian", url="lf_pert",
                   horizontal=True)
    zseed = control(sb.number_input, "Perturbation seed", 0, 2**31 - 1, step=1, key="lf_zseed", default=0,
                    url="lf_zseed", help="The same Z is used for every λ.")
    loo = control(sb.checkbox, "Exact leave-one-out", key="lf_loo", default=True, url="lf_loo",
                  help="Refits the SVM without each support vector, at every λ (warm-started).")
    if ll[0] >= ll[1]:
        raise ValueError("The λ range needs two different ends; widen it.")
    return CurveView(float(ls), (float(ll[0]), float(ll[1])), int(m), int(R), float(sz), str(pert), int(zseed),
                     bool(loo))


# ----------------------------------------------------------------------------------------------
# numerics: the view's plan (svmviz.views.losses); its cached steps keep the loss curves and their
# figures (they do not depend on the data) and the λ curves for every session
# ----------------------------------------------------------------------------------------------
def gacv_curves(ds, view: CurveView):
    """GACV / ranGACV / LOO along λ (the view's ``gc`` step; progress bar while computing) and the
    settings they were computed with: without leave-one-out while the user has not started it (its
    cost is estimated from the fit's support vectors and asked for above ~10 s)."""
    plain = view._replace(loo=False)
    base = plan_executor(ds).value(view_plan(None, ds, plain), "gc")
    if not view.loo:
        return base, plain
    # exact leave-one-out refits every support vector at every λ, one thread (a 5,000-row upload took 274 s)
    n, refits = ds.X.shape[0], float(np.sum(base.n_sv))
    cost = Cost(_cost.smo_loo_seconds(n, refits, threads=1),
                f"exact leave-one-out at {len(view.lambdas)} values of λ ({int(refits)} refits of {n} points)", n,
                lambda m: _cost.smo_loo_seconds(m, refits * m / n, threads=1), smaller_n("loss"))
    full = plan_executor(ds, {"gc": dict(cost=cost, optional=True)}).value(view_plan(None, ds, view), "gc")
    return (base, plain) if full is None else (full, view)


# ----------------------------------------------------------------------------------------------
# tables
# ----------------------------------------------------------------------------------------------
def loss_table(lc: figs.LossCurves) -> dict:
    cols = {"tau": lc.tau}
    for k, v in zip(lc.keys, lc.values):
        cols[k] = v
    return cols


def prediction_table(pc: figs.PredictionCurves, mc: figs.MinimizerCurves) -> dict:
    """μ(f) on the f grid and f*(p) on the p grid, in long form (curve, x, value)."""
    curve, var, x, val = [], [], [], []
    for k, mu in zip(pc.keys, pc.mu):
        curve += [k] * pc.f.size
        var += ["mu(f)"] * pc.f.size
        x += list(pc.f)
        val += list(mu)
    for k, f in zip(mc.keys, mc.f):
        curve += [k] * mc.p.size
        var += ["f_star(p)"] * mc.p.size
        x += list(mc.p)
        val += list(f)
    return {"loss": curve, "quantity": var, "x": np.asarray(x, float), "value": np.asarray(val, float)}


def curves_table(gc: _losses.GacvCurves) -> dict:
    cols = {"lambda": gc.lambdas, "log10_lambda": np.log10(gc.lambdas)}
    for k, v in gc.values.items():
        cols[k] = v
    if gc.rangacv_replicates is not None:
        for r, rep in enumerate(gc.rangacv_replicates):
            cols[f"rangacv_replicate_{r + 1}"] = rep
    cols["n_support_vectors"] = gc.n_sv
    return cols


def minimizer_table(gc: _losses.GacvCurves) -> dict:
    """One row per criterion: its grid minimizer λ̂ and the value there."""
    keys = [k for k in figs.HINGE_SCALE + figs.MISCLASS_SCALE if k in gc.values and k not in figs.NO_MINIMIZER]
    return {
        "criterion": [figs.CRITERIA[k][0] for k in keys],
        "log10 λ̂": [round(float(np.log10(gc.lambdas[gc.best[k]])), 3) for k in keys],
        "value at λ̂": [round(float(gc.values[k][gc.best[k]]), 4) for k in keys],
        "support vectors at λ̂": [int(gc.n_sv[gc.best[k]]) for k in keys],
    }


# ------------------------------------------------------------------ the page
@url_state.page_view
def page() -> None:
    """Loss functions & randomized GACV (Wahba 1998): the losses, μ(f), and GACV / ranGACV / LOO along λ."""
    from svmviz import losses
    from svmviz.figures import losses as figs
    from svmviz.ui.data_sidebar import dataset_sidebar
    from svmviz.ui.errors import show_error
    from svmviz.ui.export import csv_download

    page_head.page_header("losses", (
        "Wahba (1998), *Support vector machines, reproducing kernel Hilbert spaces and the randomized GACV*: "
        "the losses g(τ) of the margin τ = y f(x), what each makes f estimate, and choosing λ of the SVM by "
        "GACV, its randomized version ranGACV and exact LOO, beside GCKL and MISCLASS where the truth is known."))

    # ------------------------------------------------------------------ 1. the losses
    st.subheader("Loss functions of τ = y f")
    st.markdown("A classifier $f$ is fitted by minimizing $\\frac1n\\sum_i g(y_i f(x_i)) + \\lambda\\|h\\|^2$. "
                "Each loss below is a function of the margin $\\tau = y f$; $[u]_* = 1$ if $u \\ge 0$ else 0, "
                "$(u)_+ = \\max(u, 0)$.")
    ex = plan_executor(None)
    try:
        lview = loss_widgets()
        lplan = view_plan(lview)
        lc = ex.value(lplan, "lc")
    except ValueError as exc:
        show_error(exc, what="Loss plot")
        lview = lc = None
    if lc is not None:
        charts.chart(ex.value(lplan, "fig_loss_curves"), key="loss_curves", width="stretch")
        st.caption("How to read it: everything right of τ = 0 is classified correctly, left of it wrongly. "
                   "Convex losses (hinge, deviance, exponential, v) keep penalizing correct points with small "
                   "margins and punish gross errors without bound; the bounded ones (sigmoid, [1 − exp(aτ)]₊, θ̃ₛ) "
                   "approximate the count of errors [−τ]∗ but are not convex.")
        with st.expander("Formulas of the plotted losses", expanded=False):
            for name in lview.names:
                fn, tex, desc = losses.LOSSES[name]
                st.markdown(glossary.spell(f"**{figs.SHORT[name]}** — {desc}"))
                st.latex((losses.WAHBA_V_LATEX if name == "wahba_v" else f"g(\\tau) = {tex}"))
            if "smooth_step" in lview.names:
                st.markdown("θ̃ₛ of the USVC (Navia-Vázquez et al. 2004, eq. 6), with $k = 10^{-4}$:")
                st.latex(r"\tilde\theta_s(\xi)=\begin{cases}\frac{(\xi+k^{1/s})^s}{2(1+k^{1/s})^s} & 0\le\xi<1\\"
                         r" 1-\frac{(1+k^{1/s})^s}{2(\xi+k^{1/s})^s} & \xi\ge1\end{cases}")
        csv_download("Download the loss curves (CSV)", loss_table(lc), "loss_curves.csv", key="dl_losses")

        # ------------------------------------------------------------------ 2. prediction functions
        st.subheader("Prediction functions μ(f) and what f estimates")
        st.markdown("Wahba's prediction of $y$ given $f$ (Wahba 1998, eq. 1.39) and the population minimizer at a point where "
                    "$P(y = +1\\mid x) = p$:")
        st.latex(r"\begin{aligned}\mu(f) &= \sum_{y=\pm1}\frac{\partial}{\partial f}\,g(yf) = g'(f) - g'(-f),\\"
                 r"f^*(p) &= \arg\min_f\; p\,g(f) + (1-p)\,g(-f)\end{aligned}")
        try:
            pc, mc = ex.value(lplan, "pc"), ex.value(lplan, "mc")
        except ValueError as exc:
            show_error(exc, what="Prediction functions")
            pc = mc = None
        if pc is not None:
            # one above the other: in half the column at 1024 × 768 the legends outgrow the plots
            c1, c2 = st.container(), st.container()
            with c1:
                charts.chart(ex.value(lplan, "fig_mu_curves"), key="mu_curves", width="stretch")
                st.caption("Deviance: μ(f) = 2p − 1 with p = 1/(1 + exp(−f)) — a smooth, strictly increasing prediction. "
                           "v(τ; ε₊, ε₋): −1, then piecewise linear, then +1 (switching at ±max(ε₊, −ε₋)). Hinge: a step "
                           "−1, 0, +1. Sigmoid and [−τ]∗ give μ ≡ 0 (their slopes cancel), the exponential 2 sinh f.")
            with c2:
                charts.chart(ex.value(lplan, "fig_fstar_curves"), key="fstar_curves", width="stretch")
                st.caption("Hinge: sign(p − ½) — the SVM estimates the Bayes rule, not p. Deviance: the log-odds; "
                           "exponential: half the log-odds — both recover p. Sigmoid: ±∞. [1 − exp(aτ)]₊: f* = 0 for "
                           "every p (its expected loss is 0 there). Hover for the whole set of minimizers.")
            csv_download("Download μ(f) and f*(p) (CSV)", prediction_table(pc, mc), "prediction_functions.csv",
                         key="dl_mu")

    # ------------------------------------------------------------------ 3. GACV curves
    st.subheader("Choosing λ: exact GACV, randomized GACV and leave-one-out")
    ds = dataset_sidebar(DATASETS, "wahba2001", key="loss")
    if ds is None:
        return
    try:
        cview = curve_widgets()
    except ValueError as exc:
        show_error(exc)
        return
    edit.show_machine(sigma=cview.sigma, lambdas=cview.lambdas)
    st.markdown("For the standard SVM ($g(\\tau) = (1-\\tau)_+$) with $f_\\lambda$ the solution, "
                "$\\theta_i = \\alpha_i K_{ii}/(2n\\lambda)$, the leave-one-out function $V_0$ (Wahba 1998, eq. 1.34), the exact "
                "GACV (Wahba et al. 2001, eq. 4) and Wahba's randomized GACV (Wahba 1998, eq. 1.63) with a perturbation $Z$ of the responses:")
    # one equation a line, ranGACV over three: at 1024 × 768 the page's column is about 560 px wide
    st.latex(r"V_0(\lambda)=\frac1n\sum_i\big(1-y_if^{[-i]}_{\lambda i}\big)_+")
    st.latex(r"\mathrm{GACV}(\lambda)=\frac1n\Big[\sum_i\xi_i+2\!\!\sum_{y_if_i<-1}\!\!\theta_i+\!\!\sum_{y_if_i\in[-1,1]}\!\!\theta_i\Big]")
    st.latex(r"\begin{aligned}\mathrm{ranGACV}(\lambda)&=\frac1n\sum_i(1-y_if_{\lambda i})_+ + \frac{2}{n\sigma_z^2}\,"
             r"Z'E\,(f_\lambda^{Y+Z}-f_\lambda^{Y}),\\"
             r"E&=\mathrm{diag}\big(1\ (y_if_i<-1),\ \tfrac12\ (|y_if_i|<1),\ 0\big)\end{aligned}")
    try:
        gc, shown = gacv_curves(ds, cview)
    except ValueError as exc:
        show_error(exc, what="Could not compute the curves")
        return

    plan = view_plan(lview, ds, shown)
    ex = plan_executor(ds)
    # one above the other: in half the column at 1024 × 768 the seven-entry legend outgrows its plot and
    # its longest entry runs past the chart's edge
    c1, c2 = st.container(), st.container()
    with c1:
        charts.chart(ex.value(plan, "fig_gacv_curves"), key="gacv_curves", width="stretch")
        st.caption("How to read it: each criterion's minimizer (star) is its choice of λ. V₀ is what GACV and "
                   "ranGACV approximate; GCKL (when the truth p is known) is what they stand in for. The pink band "
                   "is the spread of ranGACV over the perturbation vectors; the exact GACV can leave the frame at "
                   "small λ (hover, or double-click to zoom out).")
    with c2:
        if plan.has("fig_loo_curves"):
            charts.chart(ex.value(plan, "fig_loo_curves"), key="loo_curves", width="stretch")
            st.caption("Leave-one-out error count (and the expected misclassification rate MISCLASS when p is known): "
                       "the target a λ chosen by the hinge-scale criteria should do well on.")
        elif cview.loo:  # ticked, and waiting for the Run button that its cost put above the charts
            st.info("The misclassification curves need the exact leave-one-out: start it with its Run button "
                    "above (or choose simulated data with a known p).")
        else:
            st.info("Tick “Exact leave-one-out” in the sidebar (or choose simulated data with a known p) to see "
                    "the misclassification curves.")

    st.markdown("**The λ each criterion chooses** (grid minimizer)")
    st.dataframe(minimizer_table(gc), hide_index=True, width="stretch")
    csv_download("Download the λ curves (CSV)", curves_table(gc), "gacv_curves.csv", key="dl_curves")
    code_view.plan_panel(plan, ds, "loss", page="losses")
