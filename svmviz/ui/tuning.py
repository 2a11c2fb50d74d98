"""Cached computations and widgets of the "Tuning criteria" page (Wahba et al. 2001)."""
from __future__ import annotations

import numpy as np
import streamlit as st

from svmviz import _cost
from svmviz.tuning import criterion_label
from svmviz.views.tuning import Grid, Setting, plotted_keys, view_plan

from . import charts, code_view, datasets, edit, page_head, url_state
from .compute import Cost, cached_compute, plan_executor, smaller_n
from .fit_notes import support_note
from .map_axes import map_axes, one_feature_note
from .widgets import control

DATASETS = ["wahba2001", "esl_mixture", "banana", "twonorm", "ringnorm", "waveform"]


def setting_widgets() -> Setting:
    """Standard / non-standard mode and, for the latter, the costs and target-population proportions."""
    sb = st.sidebar
    sb.header("SVM")
    mode = control(sb.radio, "Setting", ["standard", "non-standard"], key="tuning_mode", default="standard",
                   url="mode", horizontal=True,
                   help="Non-standard: unequal misclassification costs and a training sample whose class "
                        "proportions differ from the target population's (Wahba et al. 2001, §5).")
    C_plus, C_minus, pi_plus = 1.0, 2.0, 0.1
    if mode == "non-standard":
        c1, c2 = sb.columns(2)
        C_plus = control(c1.number_input, "C⁺ (cost of a false +)", 0.01, 100.0, step=0.1, key="tuning_cp",
                         default=1.0, url="cp")
        C_minus = control(c2.number_input, "C⁻ (cost of a false −)", 0.01, 100.0, step=0.1, key="tuning_cm",
                          default=2.0, url="cm")
        pi_plus = control(sb.slider, "π⁺ (target population share of +1)", 0.01, 0.99, step=0.01, key="tuning_pp",
                          default=0.1, url="pp")
    return Setting(mode == "non-standard", float(C_plus), float(C_minus), float(pi_plus), 1.0 - float(pi_plus))


def dataset_params(name: str, setting: Setting) -> dict:
    if name == "wahba2001" and setting.nonstandard:
        return dict(nonstandard=True, C_plus=setting.C_plus, C_minus=setting.C_minus, pi_plus=setting.pi_plus,
                    pi_minus=setting.pi_minus)
    return {}


def sample_share(ds) -> float:
    """πₛ⁺, the share of +1 in the training sample (the generator's, for wahba2001)."""
    pi_s = float(np.mean(ds.y > 0))
    return float(ds.params.get("pi_s_plus", pi_s)) if ds.name == "wahba2001" else pi_s


LAMBDA_LIMITS = (-8.0, 1.0)
"""The log10 λ slider's ends."""
SIGMA_LIMITS = (-2.0, 2.0)
"""The log10 σ slider's ends."""


def grid_widgets(n: int) -> Grid:
    sb = st.sidebar
    sb.header("Grid")
    ll = control(sb.slider, "log10 λ range", *LAMBDA_LIMITS, step=0.25, key="tuning_lam", default=(-5.0, -0.5),
                 url=("lam_lo", "lam_hi"), help="λ weighs ‖h‖² against the data fit; sklearn's C = 1/(2nλ).")
    ls = control(sb.slider, "log10 σ range", *SIGMA_LIMITS, step=0.125, key="tuning_sig", default=(-1.0, 1.0),
                 url=("sig_lo", "sig_hi"), help="Gaussian kernel exp(−‖x − x'‖²/(2σ²)).")
    res = control(sb.slider, "Grid points per axis", 6, 40, step=1, key="tuning_res", default=20, url="res")
    loo = control(sb.checkbox, "Exact leave-one-out (slower)", key="tuning_loo", default=False, url="loo",
                  help="Refits the SVM without each support vector, at every grid point.")
    if ll[0] >= ll[1] or ls[0] >= ls[1]:
        raise ValueError("each range needs two different ends; widen the λ or σ range.")
    return Grid(tuple(map(float, ll)), tuple(map(float, ls)), int(res), bool(loo))


def surface(ds, setting: Setting, grid: Grid):
    """The criteria surface of ``ds`` and the grid it was computed on (the view's ``surf`` step, cached
    for every session; progress bar while computing).

    Exact leave-one-out refits every support vector at every grid point: its cost is estimated from
    the fitted grid's support vectors first, and above ~10 s the user is asked (and offered a
    subsample) — meanwhile, or if stopped, the surface without LOO is returned, with its grid."""
    plain = grid._replace(loo=False)
    base = plan_executor(ds).value(view_plan(ds, setting, plain), "surf")
    if not grid.loo:
        return base, plain
    n, refits = ds.X.shape[0], float(base.n_sv.sum())
    cost = Cost(_cost.smo_loo_seconds(n, refits),
                f"exact leave-one-out over the {grid.resolution} × {grid.resolution} grid ({int(refits)} refits "
                f"of {n} points)", n, lambda m: _cost.smo_loo_seconds(m, refits * m / n), smaller_n("tuning"))
    full = plan_executor(ds, {"surf": dict(cost=cost, optional=True)}).value(view_plan(ds, setting, grid), "surf")
    return (base, plain) if full is None else (full, grid)


def point_selector(surf):
    """Choose a grid point (defaults to GACV's minimizer); returns (i_sigma, j_lambda)."""
    ll = [round(float(v), 4) for v in np.log10(surf.lambdas)]
    ls = [round(float(v), 4) for v in np.log10(surf.sigmas)]
    i0, j0 = surf.best["gacv"]
    # the grid's values are the options (not their positions), so a new grid cannot show one point
    # and plot another; a new grid or new data start again from GACV's choice
    depends = (datasets.data_token(surf.X, surf.y), tuple(ll), tuple(ls))
    c1, c2 = st.columns(2)
    lam = control(c1.select_slider, "Grid point: log10 λ", ll, key="tuning_pt_l", default=ll[j0], url="pt_l",
                  depends=depends, format_func=lambda v: f"{v:.2f}",
                  help="The point drawn in red on the decision curves; starts at GACV's choice.")
    sig = control(c2.select_slider, "Grid point: log10 σ", ls, key="tuning_pt_s", default=ls[i0], url="pt_s",
                  depends=depends, format_func=lambda v: f"{v:.2f}")
    return ls.index(sig), ll.index(lam)


SLIDERS = {0: ("tuning_sig", "σ", SIGMA_LIMITS), 1: ("tuning_lam", "λ", LAMBDA_LIMITS)}
"""Grid axis of a surface (0: σ, 1: λ) → its range slider's key, its symbol and the slider's ends."""


def _extend(key: str, new: tuple) -> None:
    st.session_state[key] = new


def edge_warning(surf, keys, grid: Grid) -> None:
    """Says which criteria have their minimizer on the grid's edge, with a button per edge that extends
    the grid one decade past it (:func:`svmviz.tuning.surface_edges`)."""
    from svmviz.figures.tuning import edge_words
    from svmviz.tuning import extended_range, surface_edges

    edges = surface_edges(surf, keys)
    if not edges:
        return
    by_edge = {}
    for k, es in edges.items():
        for e in es:
            by_edge.setdefault(e, []).append(criterion_label(k, surf.L))
    lines = [f"{', '.join(names)}: minimum at the {edge_words([e])} of the grid "
             f"(log10 {SLIDERS[e.axis][1]} = "
             f"{(grid.log_sigma if e.axis == 0 else grid.log_lambda)[0 if e.side == 'low' else 1]:.2f})"
             for e, names in by_edge.items()]
    st.warning("The best (λ, σ) of these criteria may lie beyond the grid; their panels say 'minimum on the "
               "grid's edge' and circle the minimizer in red.\n\n" + "\n".join(f"- {t}" for t in lines)
               + "\n\nExtend the grid past that edge (or, with features on very different scales, standardise "
                 "them).")
    cols = st.columns(len(by_edge))
    for col, e in zip(cols, by_edge):
        key, sym, limits = SLIDERS[e.axis]
        lo, hi = grid.log_sigma if e.axis == 0 else grid.log_lambda
        new = extended_range(lo, hi, e.side, by=1.0, limits=limits)
        at_limit = new == (lo, hi)
        end = new[0] if e.side == "low" else new[1]
        label = (f"log10 {sym} is at the slider's end ({end:.2f})" if at_limit else
                 f"Extend log10 {sym} to {end:.2f}")
        col.button(label, key=f"tuning_extend_{e.axis}_{e.side}", disabled=at_limit, on_click=_extend,
                   args=(key, new))


def surface_table(surf) -> dict:
    """Long-form columns of every criterion on the grid (for the CSV download)."""
    ll, ls = np.log10(surf.lambdas), np.log10(surf.sigmas)
    I, J = np.meshgrid(np.arange(len(ls)), np.arange(len(ll)), indexing="ij")
    cols = {"log10_sigma": ls[I].ravel(), "log10_lambda": ll[J].ravel()}
    for k, v in surf.values.items():
        cols[criterion_label(k, surf.L).replace(" ", "_")] = v.ravel()
    cols["n_support_vectors"] = surf.n_sv.ravel()
    return cols


#: the inefficiency table's short headers on screen (every column shows at 1024 × 768), the whole
#: words in each header's help; the CSV keeps the long names of :func:`table_columns`
TABLE_HEADS = {
    "criterion": st.column_config.TextColumn("criterion", width=115),
    "log10 λ": st.column_config.NumberColumn("log λ", help="log10 λ of the criterion's grid minimizer", width=55),
    "log10 σ": st.column_config.NumberColumn("log σ", help="log10 σ of the criterion's grid minimizer", width=55),
    "target there": st.column_config.NumberColumn("target", width=60,
                                                  help="The target (MISCLASS or BRMISCLASS) at that grid point"),
    "inefficiency": st.column_config.NumberColumn("ineff.", width=60,
                                                  help="The target there over its minimum on the grid (1 is perfect)"),
    "over ties": st.column_config.TextColumn("over ties", width=98,
                                             help="The inefficiency's range over the criterion's tied minimizers"),
    "tied grid points": st.column_config.NumberColumn("ties", help="Grid points tied at the criterion's minimum",
                                                      width=40),
    "published (one realization)": st.column_config.TextColumn(
        "published", help="Wahba et al. (2001)'s value for one realization of these data", width=65),
}


def table_columns(rows) -> dict:
    return {
        "criterion": [r.criterion for r in rows],
        "log10 λ": [round(r.log10_lambda, 3) for r in rows],
        "log10 σ": [round(r.log10_sigma, 3) for r in rows],
        "target there": [round(r.target_value, 4) for r in rows],
        "inefficiency": [round(r.inefficiency, 4) for r in rows],
        "over ties": [f"{r.tie_low:.4f} – {r.tie_high:.4f}" if r.n_ties > 1 else "—" for r in rows],
        "tied grid points": [r.n_ties for r in rows],
        "published (one realization)": [r.published for r in rows],
    }


def monte_carlo(ds, L, grid: Grid, R: int, seed: int):
    """Inefficiency study over R fresh data sets from ``ds``'s generator: one task per data set on the
    app's Dask cluster (the study engine, :func:`svmviz.studies.monte_carlo_study`), progress bar."""
    from svmviz.studies import monte_carlo_study, shared_client

    name, n, params = ds.name, ds.X.shape[0], {k: v for k, v in ds.params.items() if k not in ("n", "seed")}
    Lt = tuple(L)
    key = (name, n, params, Lt, grid.lambdas, grid.sigmas, R, seed)
    return cached_compute("mc", key, lambda cb: monte_carlo_study(
        name, n, params, Lt, grid.lambdas, grid.sigmas, R=R, seed=seed, client=shared_client(), progress=cb),
        progress_text=f"Monte Carlo: {R} data sets on the app's Dask cluster")


# ------------------------------------------------------------------ the page
@url_state.page_view
def page() -> None:
    """Tuning criteria (Wahba et al. 2001): GACV, ξα (XA), BRXA against GCKL, (BR)MISCLASS and exact LOO."""
    from svmviz.figures import tuning as figs
    from svmviz.tuning import criterion_label
    from svmviz.ui.data_sidebar import dataset_sidebar
    from svmviz.ui.errors import show_error
    from svmviz.ui.export import csv_download

    page_head.page_header("tuning", (
        "Wahba, Lin, Lee & Zhang (2001): choosing λ and σ of the SVM by the GACV and by Joachims' ξα estimate "
        "XA (BRXA when costs are unequal), standard and non-standard, against the truth they stand in for: "
        "GCKL, MISCLASS (BRMISCLASS) and exact LOO."))

    setting = setting_widgets()
    ds = dataset_sidebar(DATASETS, "wahba2001", key="tuning", params=lambda name: dataset_params(name, setting))
    if ds is None:
        return
    try:
        grid = grid_widgets(ds.X.shape[0])
    except ValueError as exc:
        show_error(exc)
        return

    # the page draws what the view's plan computes (svmviz.views.tuning), its code panel writes the same plan
    ex = plan_executor(ds)
    L, threshold = ex.run(view_plan(ds, setting, grid), ["L", "threshold"]).values()
    # three metrics a row: five in one row cut "Bayes threshold" and "Bayes risk" at 1024 × 768
    c = [*st.columns(3), *st.columns(3)]
    c[0].metric("L(−1)", f"{L[0]:.3g}", help="Weight of a training error on a −1 point: C⁺π⁻/πₛ⁻.")
    c[1].metric("L(+1)", f"{L[1]:.3g}", help="Weight of a training error on a +1 point: C⁻π⁺/πₛ⁺.")
    c[2].metric("Bayes threshold", f"{threshold:.3g}", help="Bayes rule: sign[p_s(x) − L(−1)/(L(−1)+L(+1))].")
    c[3].metric("πₛ⁺ (sample)", f"{sample_share(ds):.3f}", help="Share of +1 points in the training sample.")
    c[4].metric("Bayes risk", "unknown" if ds.bayes_error is None else f"{ds.bayes_error:.4f}",
                 help="Smallest possible (L-weighted) error rate on new data from the sampling law.")

    try:
        surf, shown = surface(ds, setting, grid)
    except ValueError as exc:
        show_error(exc, what="Could not fit the grid")
        return

    with st.expander("What the criteria are", expanded=False):
        st.markdown("With $f_\\lambda$ the SVM solution, $\\xi_i = (1 - y_i f_i)_+$, "
                    "$\\theta_i = \\alpha_i K_{ii} / (2n\\lambda)$ and $p_i$ the true probability of +1:")
        st.latex(r"\mathrm{GACV} = \frac1n\Big[\sum_i L(y_i)\xi_i + 2\!\!\sum_{y_if_i<-1}\!\! L(y_i)\theta_i"
                 r" + \!\!\sum_{y_if_i\in[-1,1]}\!\! L(y_i)\theta_i\Big]")
        st.latex(r"\mathrm{(BR)XA} = \frac1n\sum_i L(y_i)\Big\{[-y_if_i]_* + I\big[y_if_i\in(0,\theta_i],\ y_if_i\le 1\big]\Big\}")
        st.latex(r"\mathrm{GCKL} = \frac1n\sum_i \Big[L(1)\,p_i(1-f_i)_+ + L(-1)(1-p_i)(1+f_i)_+\Big]")
        st.latex(r"\mathrm{(BR)MISCLASS} = \frac1n\sum_i \Big[L(1)\,p_i[-f_i]_* + L(-1)(1-p_i)[f_i]_*\Big]")
        st.markdown("GCKL and (BR)MISCLASS need the truth $p$ (known only for simulated data); GACV and XA are "
                    "computable from the data. Exact leave-one-out refits the SVM without each support vector. "
                    "XA is optimistic at small σ with tiny λ and pessimistic at large σ: the grid range decides "
                    "which minimum it finds.")

    st.subheader("Criteria over (λ, σ)")
    st.caption("Each panel: one criterion; its minimizer is the large white marker, the others' minimizers "
               "are overlaid (hover for values; click a legend entry to hide it in every panel). Long shallow "
               "valleys mean many (λ, σ) are nearly as good.")
    sel = point_selector(surf)
    edit.show_machine(sigma=float(surf.sigmas[sel[0]]), lam=float(surf.lambdas[sel[1]]), L=tuple(L))
    keys = plotted_keys(ds.p_true is not None, shown.loo)
    # one figure of all panels (one chart for the browser to draw: figures.tuning.plot_contour_panels)
    charts.chart(ex.value(view_plan(ds, setting, shown, selected=sel), "fig_contours"), key="contours",
                 width="stretch")
    if surf.status.max() > 0:
        st.warning("Some grid points hit the iteration limit; their values are approximate.")
    edge_warning(surf, keys, grid)

    st.subheader("Decision curves")
    axes = map_axes(ds, "tuning")
    d = ds.X.shape[1]
    plan = view_plan(ds, setting, shown, selected=sel, map_axes=None if axes is None else axes.code_args)
    if d == 2 or axes is not None:
        lead = ("The true Bayes curve and the curves chosen by each criterion" if ds.p_true is not None else
                "The curves chosen by each criterion (these data have no known Bayes curve)")
        sign = f" f > 0 predicts {ds.class_names[1]} ({ds.sign_note})." if ds.sign_note else ""
        st.caption(f"{lead}; in red the selected grid point with its margins f = ±1 and its support vectors "
                   f"(circled).{sign}" + ("" if axes is None else " " + axes.plane.caption))
        charts.chart(ex.value(plan, "fig_curves"), key="curves", width="stretch")
    elif d < 2:
        one_feature_note(ds, "The criteria surfaces above and the inefficiencies below still apply.")
    st.caption(f"Selected point: {int(surf.n_sv[sel])} support vectors of {ds.X.shape[0]} points.")
    support_note(int(surf.n_sv[sel]), ds.X.shape[0], ds, at="the selected (λ, σ)",
                 advice="Criteria and leave-one-out are then little to be trusted; look at other grid points or "
                        "widen the grid.")

    st.subheader("Inefficiency")
    target = "misclass"
    rows = ex.value(plan, "rows") if plan.has("rows") else []
    if rows:
        st.caption(f"{criterion_label(target, surf.L)} at each criterion's grid minimizer divided by its minimum "
                   "over the grid (1 is perfect). Ties on the grid are reported as a range.")
        table = table_columns(rows)
        st.dataframe(table, hide_index=True, width="stretch", column_config=TABLE_HEADS)
    else:
        st.info("Inefficiencies need the true p(x); this data set does not know it.")

    d1, d2 = st.columns(2)
    with d1:
        csv_download("Download the surfaces (CSV)", surface_table(surf), "criteria_surfaces.csv", key="dl_surf")
    with d2:
        if rows:
            csv_download("Download the table (CSV)", table, "inefficiencies.csv", key="dl_table")
    code_view.plan_panel(plan, ds, "tuning", page="tuning")

    if ds.p_true is not None and ds.name in DATASETS:
        with st.expander("Monte Carlo: inefficiency over many data sets"):
            m1, m2 = st.columns(2)
            R = m1.slider("Repetitions R", 2, 100, 10, key="tuning_R")
            mc_seed = m2.number_input("Study seed", 0, 2**31 - 1, 0, key="tuning_mc_seed")
            if st.button("Run the study", key="tuning_mc_run"):
                st.session_state["tuning_mc"] = (R, int(mc_seed))
            if st.session_state.get("tuning_mc"):
                R_, s_ = st.session_state["tuning_mc"]
                study = monte_carlo(ds, L, grid, R_, s_)
                charts.chart(figs.plot_inefficiency_study(study, L), key="mc_plot", width="stretch")
                csv_download("Download the study (CSV)",
                             {f"{k}_inefficiency": study.value[k] for k in study.criteria} | {"seed": study.seeds},
                             "inefficiency_study.csv", key="dl_mc")
