"""Streamlit layer of the "Kernels & variable selection" page (Wahba 1998, §1.1 eqs. 1.12–1.13, §2).

Nothing here computes numerics itself: it calls :mod:`svmviz.anova` (through the shared cached
compute helper) and :mod:`svmviz.figures.anova`.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from svmviz import anova
from svmviz import ivm
from svmviz.figures import anova as fig
from svmviz.tuning import extended_range, grid_edges
from svmviz.ui import charts, code_view, compute, data_sidebar, errors, glossary, page_head, url_state, widgets
from svmviz.ui.compute import cached_result, plan_executor
from svmviz.views.anova import Decomposition, Settings, ThetaGrid, view_plan

KEY = "anova"
CHOICES = ["anova_structure", "twonorm", "ringnorm", "wahba2001", "banana", "esl_mixture"]
#: the kernels' names in the sidebar's choice, as the charts name them (short: whole in the choice's tags at
#: 1024 × 768); what each is, is the choice's help
KERNEL_LABELS = {"gaussian": "Gaussian", "additive": "SS-ANOVA additive", "two-way": "SS-ANOVA two-way"}
BASE_LABELS = {"cubic": "cubic spline (Gu & Wahba)", "gaussian": "Gaussian per coordinate"}
SIGMAS = [0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0, 5.6, 8.0]
SIGMAS_1D = [0.05, 0.1, 0.15, 0.2, 0.25, 0.35, 0.5, 0.75, 1.0]
#: seconds of ``compare_kernels(loo=True)`` for the three kernels, 11 λ values, n = 200, 2 idle cores
#: (bench/bench_anova.py, anova_structure data: about 0.35 s, and ten times that at n = 600, hence the
#: exponent 2.2 below)
_LOO_SECONDS_AT_200 = 0.4
#: exact LOO estimated to take longer than this (seconds) draws the criteria chart of the fits first and
#: redraws it with LOO's curve; a shorter one is awaited (a chart drawn and replaced within a second
#: costs the browser a second Plotly draw to show a chart for a fraction of a second). The first exact
#: LOO of a server is always preceded by the fits' chart: it may compile numba functions first.
PRELIMINARY_ABOVE_SECONDS = 1.5
_LOO_RAN = [False]  # exact LOO has completed in this server process


def _structure_params(name: str) -> dict:
    """Sidebar sliders of the known-structure generator (other data sets have none here)."""
    if name != "anova_structure":
        return {}
    sb = st.sidebar
    d = widgets.control(sb.slider, "Variables d (x1, x2 informative, the rest noise)", 2, 12, key=f"{KEY}_d",
                       default=6, url="a_d")
    a = widgets.control(sb.slider, "Interaction a in the logit 4·x1 + 4·cos(π·x2) + a·x1·x2", 0.0, 12.0, step=1.0,
                       key=f"{KEY}_inter", default=8.0, url="a_inter",
                       help="a = 0 makes the truth additive: then the additive kernel has the right structure.")
    return {"d": int(d), "interaction": float(a)}


def _sigma_heuristic(X) -> float:
    """The median-distance σ of ``X`` (:func:`svmviz.ivm.sigma_heuristic`), kept in the app's cache."""
    return compute.cached("sigma_heuristic", X, lambda: ivm.sigma_heuristic(X))


def sidebar_settings(ds) -> Settings:
    sb = st.sidebar
    sb.header("Kernels")
    chosen = widgets.control(sb.multiselect, "Kernels to compare", list(KERNEL_LABELS), key=f"{KEY}_kernels",
                            default=list(KERNEL_LABELS), url="a_kernels", format_func=KERNEL_LABELS.get,
                            help="Gaussian: one Gaussian kernel on all variables at once. SS-ANOVA additive: main "
                                 "effects only. SS-ANOVA two-way: main effects and two-factor interactions.")
    base = widgets.control(sb.radio, "One-dimensional kernel R(α) of the SS-ANOVA kernels", list(BASE_LABELS),
                          key=f"{KEY}_base", default="cubic", url="a_base", format_func=BASE_LABELS.get,
                          help="Cubic spline: R(s, t) = k1(s)k1(t) + k2(s)k2(t) − k4(|s − t|) on each coordinate "
                               "rescaled to [0, 1] by its training range (a linear and a smooth part). "
                               "Gaussian: exp(−(s − t)²/(2σ₁²)) on the same rescaled coordinate.")
    sigma_1d = 0.25
    if base == "gaussian":
        sigma_1d = widgets.control(sb.select_slider,
                                  "σ₁ of the per-coordinate Gaussian (fraction of each variable's range)", SIGMAS_1D,
                                  key=f"{KEY}_sigma1d", default=0.25, url="a_sigma1")
    h = _sigma_heuristic(ds.X)
    default = min(SIGMAS, key=lambda s: abs(np.log(s / h)))
    sigma = widgets.control(sb.select_slider, "σ of the Gaussian kernel on all variables", SIGMAS,
                           key=f"{KEY}_sigma_{ds.name}", default=default, url="a_sigma", depends=default,
                           keep_choice=True,
                           help=f"K = exp(−‖x − x'‖²/(2σ²)). Default: the median-distance heuristic ({h:.2g}).")
    sb.header("λ grid")
    lo, hi = widgets.control(sb.slider, "log10 λ from … to", *LAMBDA_LIMITS, step=1, key=f"{KEY}_lamrange",
                            default=(-6, -1), url=("a_lo", "a_hi"))
    m = widgets.control(sb.select_slider, "λ values", [6, 8, 11, 16, 21], key=f"{KEY}_nlam", default=11, url="a_nlam")
    loo = widgets.control(sb.checkbox, "Exact leave-one-out (refits every support vector at every λ)", key=f"{KEY}_loo",
                         default=True, url="a_loo")
    if lo >= hi:
        hi = lo + 1
    return Settings(tuple(chosen), base, float(sigma), float(sigma_1d), np.logspace(lo, hi, int(m)), bool(loo))


def test_seed(ds) -> int | None:
    """The seed of the test sample of data with a generator (None without one)."""
    return None if ds.test_sample is None else 10_000 + int(ds.params.get("seed", 0))


def interaction(ds) -> float | None:
    """The interaction a of ``anova_structure`` data (their true main effects are known), else None."""
    return float(ds.params.get("interaction", 8.0)) if ds.name == "anova_structure" else None


def base_plan(ds, s: Settings, **kw):
    """The view's plan of these data and settings (:func:`svmviz.views.anova.view_plan`)."""
    return view_plan(ds, s, test_seed=test_seed(ds), interaction=interaction(ds), **kw)


def _cost_kwargs(n: int, s: Settings) -> dict:
    """A cost estimate for the compute helper when it takes one (seconds scale as n^2.2 with LOO)."""
    if not s.loo:
        return {}
    sec = _LOO_SECONDS_AT_200 * (n / 200.0) ** 2.2 * (s.lambdas.size / 11.0) * (len(s.kernels) / 3.0)
    return {"cost": compute.Cost(sec, f"exact leave-one-out for {len(s.kernels)} kernels × {s.lambdas.size} λ values")}


def executor(ds, s: Settings):
    """The page's executor: exact LOO, when asked for, with its cost estimate (the user is asked above
    the threshold) and optional (None until computed)."""
    return plan_executor(ds, {"kc_loo": dict(optional=True, **_cost_kwargs(ds.X.shape[0], s))})


def _loo_is_quick(ex, plan, s: Settings, n: int) -> bool:
    """Exact LOO is awaited without drawing the criteria chart first: its result is cached, or this
    server has run exact LOO before (its numba functions are compiled) and the estimate is under
    :data:`PRELIMINARY_ABOVE_SECONDS`."""
    if cached_result("anova_loo", ex.key(plan, "kc_loo")) is not None:
        return True
    cost = _cost_kwargs(n, s).get("cost")
    return _LOO_RAN[0] and cost is not None and cost.seconds <= PRELIMINARY_ABOVE_SECONDS


# --------------------------------------------------------------------------- sections
def render_curves(ds, ex, plan, test, *, suffix: str = "") -> None:
    """The criteria chart of ``plan``, its table and notes (``suffix`` keys a preliminary copy drawn
    before exact LOO)."""
    st.subheader("Which structure do the criteria prefer?")
    kc = ex.value(plan, "kc_loo" if plan.has("kc_loo") else "kc")
    kcv = ex.value(plan, "kcv")
    charts.chart(ex.value(plan, "fig_anova_curves"), key=f"{KEY}_curves{suffix}")
    # one row per kernel and criterion (long form): a column per criterion and quantity made 14
    # columns, cut at the right at 1024 × 768. λ̂ spans decades: written as the page's other λ values
    # (Python's ".3g", 3.16e-06), since the table's "%.3g" writes every zero of 0.00000316
    rows = []
    for q, name in enumerate(kc.names):
        cur = kc.curves[q]
        for key in kcv.keys:
            j = cur.best[key]
            row = {"kernel": name, "criterion": _LABEL[key], "minimum": float(cur.values[key][j]),
                   "λ̂ (its minimizer)": f"{float(cur.lambdas[j]):.3g}"}
            if kc.test_error is not None:
                row["test error at λ̂"] = float(kc.test_error[q, j])
            rows.append(row)
    st.dataframe(rows, hide_index=True, key=f"{KEY}_table{suffix}", width="stretch",
                 column_config={k: st.column_config.NumberColumn(format="%.3g") for k in rows[0]
                                if k not in ("kernel", "criterion", "λ̂ (its minimizer)")})
    st.caption("Seconds per kernel (the fits along λ and the criteria): "
               + ", ".join(f"{name} {float(t):.2g} s" for name, t in zip(kc.names, kc.seconds)) + ".")
    notes = ["GACV (generalized approximate cross-validation) and XA (ξα) use each kernel's own diagonal K(x_i, x_i), "
             "which is not 1 for SS-ANOVA kernels; exact LOO (leave-one-out) refits every support vector with the "
             "full data's bounds C_i = 1/(2nλ)."]
    if "misclass" in kcv.keys:
        notes.append("MISCLASS is the true expected error at the training points (it needs the true p(x)): the "
                     "criterion a tuning rule should track.")
    if test is not None:
        notes.append(f"Test error: {test.X.shape[0]} new points from the same distribution"
                     + (f"; the Bayes error is {ds.bayes_error:.3f}." if ds.bayes_error is not None else "."))
    else:
        notes.append("These data have no generator for new points, so there is no test error.")
    st.caption(glossary.spell(" ".join(notes)))


_LABEL = {"gacv": "GACV", "xa": "XA", "loo": "exact LOO", "misclass": "MISCLASS"}


LAMBDA_LIMITS = (-9, 1)
"""The log10 λ range slider's ends."""


def _extend_lambdas(new: tuple) -> None:
    st.session_state[f"{KEY}_lamrange"] = new


def edge_note(cur, j: int, lam_text: str) -> None:
    """Says when a criterion's λ (index ``j`` of ``cur.lambdas``) lies on the grid's edge, with a button that
    extends the λ grid one decade past it (:func:`svmviz.tuning.grid_edges`, :func:`svmviz.tuning.extended_range`)."""
    edges = grid_edges(j, cur.lambdas.size)
    if not edges or lam_text.endswith("(by hand)"):
        return
    side = edges[0].side
    lo, hi = (int(round(float(v))) for v in np.log10(cur.lambdas[[0, -1]]))
    new = tuple(int(v) for v in extended_range(lo, hi, side, by=1.0, limits=LAMBDA_LIMITS))
    word = "smallest" if side == "low" else "largest"
    st.warning(f"{lam_text.split(' (')[0]} is the {word} λ on the grid (λ = {cur.lambdas[j]:.2g}): "
               f"the best λ may lie {'below' if side == 'low' else 'above'} it, and the decomposition below is "
               "drawn at the grid's edge (very large importances and offset are then common). Extend the λ grid "
               "past that edge.")
    at_limit = new == (lo, hi)
    st.button(f"log10 λ is at the slider's end ({new[0] if side == 'low' else new[1]})" if at_limit else
              f"Extend the λ grid to 10^{new[0] if side == 'low' else new[1]}", key=f"{KEY}_extend_{side}",
              disabled=at_limit, on_click=_extend_lambdas, args=(new,))


def _lambda_choice(kc, q: int) -> tuple[int, str]:
    cur = kc.curves[q]
    options = [k for k in ("gacv", "xa", "loo", "misclass") if k in cur.values]
    labels = {k: f"{_LABEL[k]}'s choice (λ = {cur.lambdas[cur.best[k]]:.2g})" for k in options}
    labels["hand"] = "chosen by hand"
    default = options.index("loo") if "loo" in options else 0
    how = widgets.control(st.radio, "λ of the fit to decompose", list(labels), key=f"{KEY}_lamsrc",
                         default=list(labels)[default], url="a_lamsrc", depends=tuple(options), keep_choice=True,
                         format_func=labels.get, horizontal=True,
                         help="Default: exact leave-one-out's choice when it was computed, else GACV's.")
    if how == "hand":
        j = widgets.control(st.select_slider, "λ", list(range(cur.lambdas.size)), key=f"{KEY}_lamhand",
                           default=int(cur.best["gacv"]), url="a_lamhand", depends=cur.lambdas.size,
                           keep_choice=True, format_func=lambda i: f"{cur.lambdas[i]:.2g}")
        return int(j), f"λ = {cur.lambdas[j]:.2g} (by hand)"
    return int(cur.best[how]), labels[how]


def _test_error(kc, q: int, j: int, exp, test, machine: str) -> float:
    """The decomposed fit's error on the test sample. The SVM's is the fits' own
    ``kc.test_error[q, j]`` (its decision values on the same sample, computed with the fits): the
    decomposition of the 2000 test points gives the same signs, so it is not evaluated again (one
    decomposition of the test sample less per rerun). KLR's fit is not among the fits: its test
    sample is decomposed."""
    if machine == "svm" and kc.test_error is not None:
        return float(kc.test_error[q, j])
    f_test = anova.decompose(exp, test.X).total
    return float(np.mean(np.where(f_test > 0, 1.0, -1.0) != test.y))


def render_decomposition(ds, s: Settings, ex, kc, test):
    """The decomposition of the fit of one SS-ANOVA kernel; returns the plan drawn (None when no SS-ANOVA
    kernel is chosen)."""
    st.subheader("The decomposition of f: main effects, interactions, importances")
    ss = [q for q, name in enumerate(kc.names) if not isinstance(kc.kernels[q], str)]
    if not ss:
        st.info("Choose an SS-ANOVA kernel in the sidebar to split the fitted function into its components: the "
                "Gaussian kernel on all variables has no such decomposition.")
        return None
    c1, c2 = st.columns(2)
    q = widgets.control(c1.selectbox, "Kernel", ss, key=f"{KEY}_which", default=ss[-1], url="a_dkernel",
                       depends=tuple(kc.names), keep_choice=True, format_func=lambda i: kc.names[i])
    machine = widgets.control(c2.radio, "Machine", ["svm", "klr"], key=f"{KEY}_machine", default="svm",
                             url="a_machine", horizontal=True,
                             format_func={"svm": "SVM (support vector machine)",
                                          "klr": "KLR (kernel logistic regression), same λ"}.get,
                             help="KLR estimates the logit log(p/(1 − p)) itself, so its components can be set against "
                                  "the true ones; its penalty (Λ/2)·a′Ka on a summed loss is the SVM's λ with "
                                  "Λ = 2nλ.")
    j, lam_text = _lambda_choice(kc, q)
    cur, kern = kc.curves[q], kc.kernels[q]
    edge_note(cur, j, lam_text)
    lam = float(cur.lambdas[j])
    # the expansion does not depend on the measure, chosen below it: the plan is made again with it
    dc = Decomposition(q, machine, j, lam, list(fig.MEASURES)[0])
    plan = base_plan(ds, s, decomposition=dc)
    try:
        exp = ex.value(plan, "exp")
    except ValueError as exc:
        errors.show_error(exc, what="Kernel logistic regression failed")
        return None
    if machine == "svm":
        what = f"SVM, {kc.names[q]}, {lam_text}: {exp.basis.shape[0]} support vectors"
        f_solver = cur.f_train[j]  # the solver's own decision values at the training points
    else:
        what = f"KLR, {kc.names[q]}, Λ = 2nλ = {2 * ds.X.shape[0] * lam:.3g}"
        f_solver = ex.value(plan, "klr").decision_function(ds.X)
    comp_train = anova.decompose(exp, ds.X)
    m1, m2, m3 = st.columns(3)
    m1.metric("Training error", f"{np.mean(np.where(comp_train.total > 0, 1.0, -1.0) != ds.y):.3f}")
    if test is not None:
        m2.metric("Test error", f"{_test_error(kc, q, j, exp, test, machine):.3f}")
    m3.metric("Expansion points", exp.basis.shape[0])
    gap = float(np.max(np.abs(comp_train.values.sum(1) + comp_train.constant + comp_train.intercept - f_solver)))
    source = ("the SMO solver's own decision values, kept up to date along its iterations" if machine == "svm"
              else "KLR's decision_function, b + K(x, X)·a")
    st.caption(f"{what}. f(x) is b plus the sum of its components, exactly: the largest difference between f "
               f"({source}) and b plus the components over the training points is {gap:.1e} — rounding; "
               f"b = {exp.intercept:.3g}.")
    measure = widgets.control(st.radio, "Importance measure", list(fig.MEASURES), key=f"{KEY}_measure",
                             default=list(fig.MEASURES)[0], url="a_measure", horizontal=True,
                             format_func={"norm": "squared RKHS norm θ·c′Kc of each component (Wahba 1998, §2)",
                                          "rms": "size over the data (root mean square of each component)"}.get)
    dc = dc._replace(measure=measure)
    plan = base_plan(ds, s, decomposition=dc)
    charts.chart(ex.value(plan, "fig_anova_imp"), key=f"{KEY}_imp")
    st.caption("The squared norm weighs a component by its roughness as well as its size: a linear main effect is "
               "cheap, a wiggly fit to a noise variable dear — at a small λ the machine fits noise and the noise "
               "variables' norms grow. Compare the two measures and several λ before dropping a variable "
               "(Wahba 1998, §2: the SVM as a preprocessor that sifts variables before a risk-factor model).")
    if plan.has("truth"):
        st.caption("Dashed green: the true main effects of the logit (4·x1, 4·cos(π·x2), 0 for the noise "
                   "variables), each with mean 0 over [−1, 1] as the cubic-spline components are over the "
                   "training range.")
    charts.chart(ex.value(plan, "fig_anova_main"), key=f"{KEY}_main")
    if ds.sign_note:
        st.caption(f"f > 0 predicts {ds.class_names[1]} ({ds.sign_note}): a component rising with its variable pushes "
                   f"towards {ds.class_names[1]}.")
    if plan.has("pairs"):
        pairs = ex.value(plan, "pairs")
        names = ds.feature_names
        label = {c: f"{names[c[0]]} × {names[c[1]]}" for c in pairs}
        cols = st.columns(2)
        chosen = []
        for i, col in enumerate(cols[:min(2, len(pairs))]):
            chosen.append(int(widgets.control(col.selectbox, f"Interaction {i + 1} (most important first)",
                                              list(range(len(pairs))), key=f"{KEY}_pair{i}", default=i,
                                              url=f"a_pair{i + 1}", depends=len(pairs), keep_choice=True,
                                              format_func=lambda k: label[pairs[k]])))
        dc = dc._replace(pairs=tuple(chosen))
        plan = base_plan(ds, s, decomposition=dc)
        if plan.has("fig_anova_interactions"):
            charts.chart(ex.value(plan, "fig_anova_interactions"), key=f"{KEY}_interactions")
    elif kern.order == "additive":
        st.caption("The additive kernel has no interactions: choose the two-factor SS-ANOVA kernel to see them.")
    return render_theta_grid(ds, s, ex, dc) or plan


def render_theta_grid(ds, s: Settings, ex, dc: Decomposition):
    """The θ grid's expander; returns the plan with the grid when computed, else None."""
    with st.expander("Tune one θ at a time (a grid over λ and θ(α) of one variable α)"):
        st.markdown("Multiply θ(α) of one variable α by a factor (its interactions follow, θ(α, β) = θ(α)·θ(β)) and refit "
                    "along λ: where GACV, XA or exact LOO want the factor small, they would rather drop the "
                    "variable. For the additive kernel a factor on every θ at once only relabels λ (s·K at λ is "
                    "K at λ/s), which is why the grid varies one variable.")
        names = ds.feature_names
        a = widgets.control(st.selectbox, "Variable", list(range(len(names))), key=f"{KEY}_thvar", default=0,
                           url="a_thvar", depends=tuple(names), keep_choice=True, format_func=lambda i: names[i])
        crit = widgets.control(st.radio, "Criterion", ["gacv", "xa", "loo"], key=f"{KEY}_thcrit", default="gacv",
                              url="a_thcrit", horizontal=True, format_func=_LABEL.get)
        if not st.checkbox("Compute this grid", value=False, key=f"{KEY}_thgo"):
            return None
        plan = base_plan(ds, s, decomposition=dc, theta=ThetaGrid(int(a), crit))
        try:
            charts.chart(ex.value(plan, "fig_anova_thgrid"), key=f"{KEY}_thgrid")
        except ValueError as exc:
            errors.show_error(exc)
            return None
        return plan


# --------------------------------------------------------------------------- the page
@url_state.page_view
def page() -> None:
    page_head.page_header("anova")
    st.markdown(glossary.spell(
        "SS-ANOVA (smoothing-spline analysis of variance) kernels build a kernel on d variables from one-dimensional "
        "kernels R(α), one per variable α, each on that variable's values: K(s, t) = Π [1 + θ(α)·R(α)] over the "
        "variables = 1 + Σ θ(α)·R(α) + Σ θ(α)·θ(β)·R(α)·R(β) over the pairs α < β + … (Wahba 1998, eqs. 1.12–1.13), "
        "cut after the main effects (additive kernel) "
        "or after the two-factor interactions. The fitted function then splits exactly into main effects "
        "f(α) and interactions f(α, β), and the size of each piece says which variables the "
        "classifier uses — the support vector machine (SVM) as a variable-selection preprocessor (Wahba 1998, §2). "
        "The constant 1 is left to the intercept b, which every machine here fits freely. Per kernel, GACV, XA "
        "and exact LOO choose λ; the fit of the SVM or of KLR at that λ is then split into its components."
    ))
    ds = data_sidebar.dataset_sidebar(CHOICES, "anova_structure", key=KEY, params=_structure_params, n_range=(40, 600),
                                default_n=200)
    if ds is None:
        return
    if ds.name == "anova_structure":
        st.caption("Known structure: only x1 and x2 matter — a linear main effect of x1, a curved main effect of "
                   "x2 and their interaction; the other variables are noise. Bayes error "
                   f"{ds.bayes_error:.3f}.")
    s = sidebar_settings(ds)
    if not s.kernels:
        st.info("Choose at least one kernel in the sidebar.")
        return
    # the page draws what the view's plan computes (svmviz.views.anova), its code panel writes the same plan
    ex = executor(ds, s)
    fits = base_plan(ds, s._replace(loo=False))
    test = ex.value(fits, "test") if fits.has("test") else None
    try:
        # the fits and GACV / XA first (a fraction of a second); exact LOO, which refits every support
        # vector at every λ, follows as its own cached step from these fits. When it may take long (or
        # compile numba functions first) the fits' chart is drawn first and redrawn with LOO's curve.
        kc = ex.value(fits, "kc")
    except ValueError as exc:
        errors.show_error(exc, what="Could not fit these kernels")
        return
    shown = fits
    if s.loo:
        with_loo = base_plan(ds, s)
        # the place of the criteria drawn while exact LOO is awaited, on every run: the criteria below it
        # then have the same place in the page whether LOO was awaited or not, and the next rerun updates
        # their chart instead of mounting and drawing it anew
        slot, spelled_before = st.empty(), None
        if not _loo_is_quick(ex, with_loo, s, ds.X.shape[0]):
            spelled_before = glossary.seen_snapshot()
            with slot.container():
                render_curves(ds, ex, fits, test, suffix="_before_loo")
                st.caption("Exact leave-one-out's curve and λ are added once it is computed.")
        try:
            kc_loo = ex.value(with_loo, "kc_loo")
        except ValueError as exc:
            errors.show_error(exc, what="Exact leave-one-out failed")
            kc_loo = None
        if kc_loo is not None:
            _LOO_RAN[0] = True
            kc, shown = kc_loo, with_loo
            if spelled_before is not None:
                glossary.restore_seen(spelled_before)  # the chart and notes drawn before LOO are replaced
                slot.empty()
            render_curves(ds, ex, shown, test)
        elif spelled_before is None:  # not run (too long: the user is asked) or failed
            render_curves(ds, ex, fits, test)
    else:
        render_curves(ds, ex, fits, test)
    s = s._replace(loo=shown is not fits)
    plan = render_decomposition(ds, s, ex, kc, test) or shown
    code_view.plan_panel(plan, ds, KEY, page="anova")
