"""Page: Loss functions & randomized GACV (Wahba 1998)."""
import streamlit as st

from svmviz import losses
from svmviz.figures import losses as figs
from svmviz.ui import losses as ui
from svmviz.ui.common import csv_download, dataset_sidebar, ensure_app_frame, show_error

ensure_app_frame()
st.title("Loss functions & randomized GACV")
st.caption("Wahba (1998), *Support vector machines, reproducing kernel Hilbert spaces and the randomized "
           "GACV*: the losses g(τ) of the margin τ = y f(x), what each makes f estimate, and choosing λ by "
           "the exact GACV, its randomized version and exact leave-one-out.")

# ------------------------------------------------------------------ 1. the losses
st.subheader("Loss functions of τ = y f")
st.markdown("A classifier $f$ is fitted by minimizing $\\frac1n\\sum_i g(y_i f(x_i)) + \\lambda\\|h\\|^2$. "
            "Each loss below is a function of the margin $\\tau = y f$; $[u]_* = 1$ if $u \\ge 0$ else 0, "
            "$(u)_+ = \\max(u, 0)$.")
try:
    lview = ui.loss_widgets()
    lc = ui.loss_curves(lview)
except ValueError as exc:
    show_error(exc, what="Loss plot")
    lview = lc = None
if lc is not None:
    st.plotly_chart(figs.plot_loss_curves(lc), key="loss_curves", width="stretch")
    st.caption("How to read it: everything right of τ = 0 is classified correctly, left of it wrongly. "
               "Convex losses (hinge, deviance, exponential, v) keep penalizing correct points with small "
               "margins and punish gross errors without bound; the bounded ones (sigmoid, [1 − e^{aτ}]₊, θ̃_s) "
               "approximate the count of errors [−τ]_* but are not convex.")
    with st.expander("Formulas of the plotted losses", expanded=False):
        for name in lview.names:
            fn, tex, desc = losses.LOSSES[name]
            st.markdown(f"**{figs.SHORT[name]}** — {desc}")
            st.latex((losses.WAHBA_V_LATEX if name == "wahba_v" else f"g(\\tau) = {tex}"))
        if "smooth_step" in lview.names:
            st.latex(r"\tilde\theta_s(\xi)=\begin{cases}\frac{(\xi+k^{1/s})^s}{2(1+k^{1/s})^s} & 0\le\xi<1\\"
                     r" 1-\frac{(1+k^{1/s})^s}{2(\xi+k^{1/s})^s} & \xi\ge1\end{cases},\quad k = 10^{-4}"
                     r"\quad\text{(Navia-Vázquez et al. 2004, eq. 6)}")
    csv_download("Download the loss curves (CSV)", ui.loss_table(lc), "loss_curves.csv", key="dl_losses")

    # ------------------------------------------------------------------ 2. prediction functions
    st.subheader("Prediction functions μ(f) and what f estimates")
    st.markdown("Wahba's prediction of $y$ given $f$ (Wahba 1998, eq. 1.39) and the population minimizer at a point where "
                "$P(y = +1\\mid x) = p$:")
    st.latex(r"\mu(f) = \sum_{y=\pm1}\frac{\partial}{\partial f}\,g(yf) = g'(f) - g'(-f), \qquad "
             r"f^*(p) = \arg\min_f\; p\,g(f) + (1-p)\,g(-f)")
    try:
        pc = ui.prediction_curves(lview)
        mc = ui.minimizer_curves(lview)
    except ValueError as exc:
        show_error(exc, what="Prediction functions")
        pc = mc = None
    if pc is not None:
        c1, c2 = st.columns(2)
        with c1:
            st.plotly_chart(figs.plot_prediction_functions(pc), key="mu_curves", width="stretch")
            st.caption("Deviance: μ(f) = 2p − 1 with p = 1/(1 + e^{−f}) — a smooth, strictly increasing prediction. "
                       "v_{ε+,ε−}: −1, then piecewise linear, then +1 (switching at ±max{ε₊, −ε₋}). Hinge: a step "
                       "−1, 0, +1. Sigmoid and [−τ]_* give μ ≡ 0 (their slopes cancel), the exponential 2 sinh f.")
        with c2:
            st.plotly_chart(figs.plot_population_minimizers(mc), key="fstar_curves", width="stretch")
            st.caption("Hinge: sign(p − ½) — the SVM estimates the Bayes rule, not p. Deviance: the log-odds; "
                       "exponential: half the log-odds — both recover p. Sigmoid: ±∞. [1 − e^{aτ}]₊: f* = 0 for "
                       "every p (its expected loss is 0 there). Hover for the whole set of minimizers.")
        csv_download("Download μ(f) and f*(p) (CSV)", ui.prediction_table(pc, mc), "prediction_functions.csv",
                     key="dl_mu")

# ------------------------------------------------------------------ 3. GACV curves
st.subheader("Choosing λ: exact GACV, randomized GACV and leave-one-out")
ds = dataset_sidebar(ui.DATASETS, "wahba2001", key="loss")
if ds is None:
    st.stop()
try:
    cview = ui.curve_widgets()
except ValueError as exc:
    show_error(exc)
    st.stop()
st.markdown("For the standard SVM ($g(\\tau) = (1-\\tau)_+$) with $f_\\lambda$ the solution, "
            "$\\theta_i = \\alpha_i K_{ii}/(2n\\lambda)$, the leave-one-out function $V_0$ (Wahba 1998, eq. 1.34), the exact "
            "GACV (Wahba et al. 2001, eq. 4) and Wahba's randomized GACV (Wahba 1998, eq. 1.63) with a perturbation $Z$ of the responses:")
st.latex(r"V_0(\lambda)=\frac1n\sum_i\big(1-y_if^{[-i]}_{\lambda i}\big)_+,\qquad"
         r"\mathrm{GACV}(\lambda)=\frac1n\Big[\sum_i\xi_i+2\!\!\sum_{y_if_i<-1}\!\!\theta_i+\!\!\sum_{y_if_i\in[-1,1]}\!\!\theta_i\Big]")
st.latex(r"\mathrm{ranGACV}(\lambda)=\frac1n\sum_i(1-y_if_{\lambda i})_+ + \frac{2}{n\sigma_z^2}\,"
         r"Z'E\,(f_\lambda^{Y+Z}-f_\lambda^{Y}),\quad E=\mathrm{diag}\big(1\ (y_if_i<-1),\ \tfrac12\ (|y_if_i|<1),\ 0\big)")
try:
    gc = ui.gacv_curves(ds, cview)
except ValueError as exc:
    show_error(exc, what="Could not compute the curves")
    st.stop()
if gc.status:
    st.warning("Some SVM fits along λ hit the iteration limit; the values next to them are approximate.")

hinge_keys = [k for k in figs.HINGE_SCALE if k in gc.values]
mis_keys = [k for k in figs.MISCLASS_SCALE if k in gc.values]
c1, c2 = st.columns(2)
with c1:
    cp = figs.compute_criteria_panel(gc, hinge_keys)
    st.plotly_chart(figs.plot_criteria_panel(cp, title=f"Hinge scale: GACV, ranGACV, V₀ — σ = {gc.sigma:.3g}",
                                             ytitle="criterion value"), key="gacv_curves", width="stretch")
    st.caption("How to read it: each criterion's minimizer (star) is its choice of λ. V₀ is what GACV and "
               "ranGACV approximate; GCKL (when the truth p is known) is what they stand in for. The pink band "
               "is the spread of ranGACV over the perturbation vectors; the exact GACV can leave the frame at "
               "small λ (hover, or double-click to zoom out).")
with c2:
    if mis_keys:
        cpm = figs.compute_criteria_panel(gc, mis_keys)
        st.plotly_chart(figs.plot_criteria_panel(cpm, title=f"Misclassification: exact LOO — σ = {gc.sigma:.3g}",
                                                 ytitle="misclassification rate"), key="loo_curves", width="stretch")
        st.caption("Leave-one-out error count (and the expected misclassification rate MISCLASS when p is known): "
                   "the target a λ chosen by the hinge-scale criteria should do well on.")
    else:
        st.info("Tick “Exact leave-one-out” in the sidebar (or choose simulated data with a known p) to see "
                "the misclassification curves.")

st.markdown("**The λ each criterion chooses** (grid minimizer)")
st.dataframe(ui.minimizer_table(gc), hide_index=True, width="stretch")
csv_download("Download the λ curves (CSV)", ui.curves_table(gc), "gacv_curves.csv", key="dl_curves")
