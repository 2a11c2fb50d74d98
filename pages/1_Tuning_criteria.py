"""Page: Tuning criteria — GACV, ξα (XA), BRXA against GCKL, (BR)MISCLASS and exact LOO (Wahba et al. 2001)."""
import streamlit as st

from svmviz.figures import tuning as figs
from svmviz.tuning import criterion_label
from svmviz.ui import tuning as ui
from svmviz.ui.common import csv_download, dataset_sidebar, ensure_app_frame, show_error

ensure_app_frame()
st.title("Tuning criteria")
st.caption("Wahba, Lin, Lee & Zhang (2001): the GACV and Joachims' ξα, standard and non-standard, "
           "against the truth they stand in for.")

setting = ui.setting_widgets()
ds = dataset_sidebar(ui.DATASETS, "wahba2001", key="tuning", params=lambda name: ui.dataset_params(name, setting))
if ds is None:
    st.stop()
try:
    grid = ui.grid_widgets(ds.X.shape[0])
except ValueError as exc:
    show_error(exc)
    st.stop()

cost = ui.costs(ds, setting)
c = st.columns(5)
c[0].metric("L(−1)", f"{cost.L[0]:.3g}", help="Weight of a training error on a −1 point: C⁺π⁻/π_s⁻.")
c[1].metric("L(+1)", f"{cost.L[1]:.3g}", help="Weight of a training error on a +1 point: C⁻π⁺/π_s⁺.")
c[2].metric("Bayes threshold", f"{cost.threshold:.3g}", help="Bayes rule: sign[p_s(x) − L(−1)/(L(−1)+L(+1))].")
c[3].metric("π_s⁺ (sample)", f"{cost.pi_s_plus:.3f}", help="Share of +1 points in the training sample.")
c[4].metric("Bayes risk", "unknown" if ds.bayes_error is None else f"{ds.bayes_error:.4f}",
             help="Smallest possible (L-weighted) error rate on new data from the sampling law.")

try:
    surf = ui.surface(ds, cost.L, grid)
except ValueError as exc:
    show_error(exc, what="Could not fit the grid")
    st.stop()

with st.expander("What the criteria are", expanded=False):
    st.markdown("With $f_\\lambda$ the SVM solution, $\\xi_i = (1 - y_i f_i)_+$, "
                "$\\theta_i = \\alpha_i K_{ii} / (2n\\lambda)$ and $p_i$ the true probability of +1:")
    st.latex(r"\mathrm{GACV} = \frac1n\Big[\sum_i L(y_i)\xi_i + 2\!\!\sum_{y_if_i<-1}\!\! L(y_i)\theta_i"
             r" + \!\!\sum_{y_if_i\in[-1,1]}\!\! L(y_i)\theta_i\Big]")
    st.latex(r"\mathrm{(BR)XA} = \frac1n\sum_i L(y_i)\Big\{[-y_if_i]_* + I\big[y_if_i\in(0,\theta_i],\ y_if_i\le 1\big]\Big\}")
    st.latex(r"\mathrm{GCKL} = \frac1n\sum_i L(1)p_i(1-f_i)_+ + L(-1)(1-p_i)(1+f_i)_+,\quad"
             r"\mathrm{(BR)MISCLASS} = \frac1n\sum_i L(1)p_i[-f_i]_* + L(-1)(1-p_i)[f_i]_*")
    st.markdown("GCKL and (BR)MISCLASS need the truth $p$ (known only for simulated data); GACV and XA are "
                "computable from the data. Exact leave-one-out refits the SVM without each support vector. "
                "XA is optimistic at small σ with tiny λ and pessimistic at large σ: the grid range decides "
                "which minimum it finds.")

st.subheader("Criteria over (λ, σ)")
st.caption("Each panel: one criterion; its minimizer is the large white marker, the others' minimizers "
           "are overlaid (hover for values). Long shallow valleys mean many (λ, σ) are nearly as good.")
sel = ui.point_selector(surf)
keys = ui.plotted_keys(surf)
sel_xy = ui.selected_xy(surf, sel)
cols = st.columns(2)
for k_i, key in enumerate(keys):
    with cols[k_i % 2]:
        st.plotly_chart(figs.plot_contour(figs.compute_contour(surf, key), selected=sel_xy),
                        key=f"contour_{key}", width="stretch")
if surf.status.max() > 0:
    st.warning("Some grid points hit the iteration limit; their values are approximate.")

st.subheader("Decision curves")
if ds.X.shape[1] == 2:
    st.caption("The true Bayes curve and the curves chosen by each criterion; in red the selected grid "
               "point with its margins f = ±1 and its support vectors (circled).")
    dc = ui.decision_curves(surf, ds, cost.threshold, sel)
    st.plotly_chart(figs.plot_decision_curves(dc, feature_names=ds.feature_names), key="curves",
                    width="stretch")
else:
    st.info(f"{ds.name} has {ds.X.shape[1]} features: decision curves are drawn for two-dimensional data only.")
st.caption(f"Selected point: {int(surf.n_sv[sel])} support vectors of {ds.X.shape[0]} points.")

st.subheader("Inefficiency")
target = "misclass"
rows = figs.compute_inefficiency_table(surf, target=target)
if rows:
    st.caption(f"{criterion_label(target, surf.L)} at each criterion's grid minimizer divided by its minimum "
               "over the grid (1 is perfect). Ties on the grid are reported as a range.")
    table = ui.table_columns(rows)
    st.dataframe(table, hide_index=True, width="stretch")
else:
    st.info("Inefficiencies need the true p(x); this data set does not know it.")

d1, d2 = st.columns(2)
with d1:
    csv_download("Download the surfaces (CSV)", ui.surface_table(surf), "criteria_surfaces.csv", key="dl_surf")
with d2:
    if rows:
        csv_download("Download the table (CSV)", table, "inefficiencies.csv", key="dl_table")

if ds.p_true is not None and ds.name in ui.DATASETS:
    with st.expander("Monte Carlo: inefficiency over many data sets"):
        m1, m2 = st.columns(2)
        R = m1.slider("Repetitions R", 2, 100, 10, key="tuning_R")
        mc_seed = m2.number_input("Study seed", 0, 2**31 - 1, 0, key="tuning_mc_seed")
        if st.button("Run the study", key="tuning_mc_run"):
            st.session_state["tuning_mc"] = (R, int(mc_seed))
        if st.session_state.get("tuning_mc"):
            R_, s_ = st.session_state["tuning_mc"]
            study = ui.monte_carlo(ds, cost.L, grid, R_, s_)
            st.plotly_chart(figs.plot_inefficiency_study(study, cost.L), key="mc_plot", width="stretch")
            csv_download("Download the study (CSV)",
                         {f"{k}_inefficiency": study.value[k] for k in study.criteria} | {"seed": study.seeds},
                         "inefficiency_study.csv", key="dl_mc")
