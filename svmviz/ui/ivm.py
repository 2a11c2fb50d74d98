"""Streamlit layer of the "Import vector machine" page: cached numerics, widgets, rendering.

Nothing here computes numerics itself; it calls :mod:`svmviz.ivm` (cached) and
:mod:`svmviz.figures.ivm`.
"""
from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
import streamlit as st
from sklearn.exceptions import ConvergenceWarning

from svmviz import data as _data
from svmviz import ivm
from svmviz.figures import ivm as fig_ivm
from svmviz.ui import common

KEY = "ivm"
CHOICES = ["esl_mixture", "esl_mixture3", "wahba2001", "banana", "twonorm", "ringnorm"]
SIGMAS = [0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.71, 0.85, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0,
          7.0, 10.0]
EPSILONS = [1e-4, 3e-4, 1e-3, 3e-3, 1e-2, 3e-2]
METHOD_LABELS = {"onestep": "B2* — one-step update (fast)", "full": "B2 — full Newton per candidate (slow)"}
PAPER_SIGMA_DATA = ("esl_mixture", "esl_mixture3")


class Settings(NamedTuple):
    sigma: float
    r: int
    eps: float
    method: str
    max_import: int | None
    n_tune: int
    n_lams: int


class Splits(NamedTuple):
    X: np.ndarray
    y: np.ndarray
    X_tune: np.ndarray
    y_tune: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    note: str


# --------------------------------------------------------------------------- cached numerics
@st.cache_data(show_spinner=False, max_entries=24)
def cached_path(X, y, X_tune, y_tune, sigma, r, eps, method, max_import, n_lams):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", ConvergenceWarning)
        path = ivm.ivm_lambda_path(X, y, X_tune, y_tune, lams=ivm.paper_lambdas(n_lams), sigma=sigma,
                                   r=r, eps=eps, method=method, max_import=max_import)
    return path, [str(x.message) for x in w]


@st.cache_data(show_spinner=False, max_entries=24)
def cached_klr_path(X, y, X_tune, y_tune, sigma, n_lams):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return ivm.klr_lambda_path(X, y, X_tune, y_tune, lams=ivm.paper_lambdas(n_lams), sigma=sigma)


@st.cache_data(show_spinner=False, max_entries=24)
def cached_svm_path(X, y, X_tune, y_tune, sigma, n_lams):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return ivm.svm_lambda_path(X, y, X_tune, y_tune, lams_ivm=ivm.paper_lambdas(n_lams), sigma=sigma)


@st.cache_data(show_spinner=False, max_entries=32)
def cached_fit(X, y, lam, sigma, r, eps, method, max_import):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", ConvergenceWarning)
        m = ivm.IVMClassifier(lam=lam, sigma=sigma, r=r, eps=eps, method=method,
                              max_import=max_import).fit(X, y)
    return m, [str(x.message) for x in w]


@st.cache_data(show_spinner=False, max_entries=16)
def cached_sigma_heuristic(X):
    return ivm.sigma_heuristic(X)


# --------------------------------------------------------------------------- data plumbing
def make_splits(ds, n_tune: int, seed: int) -> Splits:
    """Training = the data set; tuning / test = independent samples from the same law when the
    generator offers them, otherwise a seeded 50 / 25 / 25 split of the data."""
    if ds.test_sample is not None:
        tu = ds.test_sample(int(n_tune), seed=10_000 + int(seed))
        te = ds.test_sample(2000, seed=20_000 + int(seed))
        return Splits(ds.X, ds.y, tu.X, tu.y, te.X, te.y,
                      f"tuning set: {tu.X.shape[0]} independent points; test set: {te.X.shape[0]}.")
    n = ds.X.shape[0]
    if n < 12:
        raise ValueError(f"{ds.name} has only {n} points; the page needs at least 12 to split off "
                         "tuning and test sets.")
    rng = np.random.default_rng(int(seed))
    perm = rng.permutation(n)
    a, b = n // 2, (3 * n) // 4
    tr, tu, te = perm[:a], perm[a:b], perm[b:]
    if np.unique(ds.y[tr]).size < ds.n_classes:
        raise ValueError("the random training half lost a class; change the seed or upload more rows.")
    return Splits(ds.X[tr], ds.y[tr], ds.X[tu], ds.y[tu], ds.X[te], ds.y[te],
                  f"no generator for new points: random split {tr.size} train / {tu.size} tuning / "
                  f"{te.size} test.")


def sidebar_settings(ds) -> Settings:
    sb = st.sidebar
    sb.header("Import vector machine")
    if ds.name in PAPER_SIGMA_DATA and ds.X.shape[1] == 2:
        default_sigma = 0.71
        why = "1/√2 for the ESL mixture (K = exp(−‖x − x'‖²))"
    else:
        h = cached_sigma_heuristic(ds.X)
        default_sigma = min(SIGMAS, key=lambda s: abs(np.log(s / h)))
        why = "the median-distance heuristic for these data"
    sigma = sb.select_slider("σ (Gaussian kernel width)", SIGMAS, value=default_sigma,
                             key=f"{KEY}_sigma_{ds.name}",
                             help=f"K = exp(−‖x − x'‖²/(2σ²)). Default: {why}. The paper does not state its σ.")
    method = sb.radio("Candidate scoring", list(METHOD_LABELS), format_func=METHOD_LABELS.get,
                      key=f"{KEY}_method", help="(B2*) one Newton step from the current fit per "
                      "candidate, O(Nq); (B2) a full Newton solve per candidate (Zhu & Hastie 2002, §3.1–3.2).")
    if method == "full" and ds.X.shape[0] > 300:
        sb.warning("B2 refits every candidate to convergence: expect minutes above N ≈ 300.")
    eps = sb.select_slider("Stopping ε", EPSILONS, value=1e-3, key=f"{KEY}_eps",
                           format_func=lambda v: f"{v:g}",
                           help="Stop adding import points when |H_k − H_{k−r}| / |H_k| < ε (Zhu & Hastie 2002, §3.3).")
    r = int(sb.number_input("Stopping lag r", 1, 10, 1, key=f"{KEY}_r"))
    cap = int(sb.number_input("Max import points (0 = no cap)", 0, 2000, 0, step=5, key=f"{KEY}_cap"))
    n_tune = int(sb.slider("Tuning-set size", 50, 2000, 500, step=50, key=f"{KEY}_ntune",
                           help="Independent points from the same law (or a split of real data)."))
    n_lams = int(sb.select_slider("λ grid points (e^10 … e^−10)", [11, 21, 41], value=21,
                                  key=f"{KEY}_nlams"))
    return Settings(float(sigma), r, float(eps), method, cap or None, n_tune, n_lams)


# --------------------------------------------------------------------------- page sections
def run_path(sp: Splits, s: Settings):
    with st.status("Import vector machine along the λ path (C1–C5)…", expanded=False) as status:
        path, msgs = cached_path(sp.X, sp.y, sp.X_tune, sp.y_tune, s.sigma, s.r, s.eps, s.method,
                                 s.max_import, s.n_lams)
        status.update(label=f"λ path: {path.lams.size} values in {path.seconds:.2f} s "
                            f"(|S| at the chosen λ: {path.n_import[path.best_index]})", state="complete")
    for m in dict.fromkeys(msgs):
        st.warning(m)
    return path


def lam_picker(path) -> int:
    """Main-area choice of λ for the maps (default: the tuning-set choice)."""
    labels = [f"e^{np.log(l):.1f}" for l in path.lams]
    best = labels[path.best_index]
    choice = st.select_slider("λ shown in the maps", labels, value=best, key=f"{KEY}_lam",
                              help=f"Default: the λ with the smallest tuning misclassification ({best}).")
    return labels.index(choice)


def render_maps(ds, sp: Splits, s: Settings, path, li: int) -> None:
    source = st.radio("IVM shown", ["from the λ path (warm-started S, C1–C5)",
                                    "fitted from scratch at this λ (B1–B4)"],
                      key=f"{KEY}_source", horizontal=True)
    lam = float(path.lams[li])
    if source.startswith("from"):
        model, msgs = path.model_at(li), []
    else:
        model, msgs = cached_fit(sp.X, sp.y, lam, s.sigma, s.r, s.eps, s.method, s.max_import)
    for m in msgs:
        st.warning(m)
    svm_path = cached_svm_path(sp.X, sp.y, sp.X_tune, sp.y_tune, s.sigma, s.n_lams)
    svm = svm_path.estimator
    ivm_test = float(np.mean(model.predict(sp.X_test) != sp.y_test))
    svm_test = float(np.mean(svm.predict(sp.X_test) != sp.y_test))
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Import points (IVM)", model.n_import_)
    c2.metric("Support points (SVM)", int(svm.support_.size))
    c3.metric("IVM test error", f"{ivm_test:.3f}")
    c4.metric("SVM test error", f"{svm_test:.3f}",
              help=f"SVM tuned on the same tuning set over λ_SVM = λ/(2N); chosen λ_SVM = {svm.lam:.3g}.")
    if ds.bayes_error is not None:
        st.caption(f"Bayes error of these data: {ds.bayes_error:.3f}. {sp.note}")
    else:
        st.caption(sp.note)
    if sp.X.shape[1] != 2:
        st.info(f"The maps need 2 features; {ds.name} has {sp.X.shape[1]}. The λ path below still applies.")
        return
    p_true = ds.p_true if ds.p_true is not None and ds.test_sample is not None else None
    im = fig_ivm.compute_import_map(model, sp.X, sp.y, p_true=p_true, bayes_threshold=ds.bayes_threshold,
                                    X_test=sp.X_test, y_test=sp.y_test, grid_n=80)
    sm = fig_ivm.compute_svm_map(svm, sp.X, sp.y, p_true=p_true, bayes_threshold=ds.bayes_threshold,
                                 X_test=sp.X_test, y_test=sp.y_test, grid_n=80)
    a, b = st.columns(2)
    a.plotly_chart(fig_ivm.plot_import_map(im), key=f"{KEY}_map_ivm")
    b.plotly_chart(fig_ivm.plot_svm_map(sm), key=f"{KEY}_map_svm")
    steps = fig_ivm.compute_step_curve(model.history_, r=s.r, eps=s.eps)
    st.plotly_chart(fig_ivm.plot_steps(steps, title=f"H_k along the greedy steps at λ = {lam:.3g}"),
                    key=f"{KEY}_steps")


def render_path(ds, sp: Splits, s: Settings, path) -> None:
    klr = cached_klr_path(sp.X, sp.y, sp.X_tune, sp.y_tune, s.sigma, s.n_lams) if sp.X.shape[0] <= 400 else None
    svm_err = None
    svm_path = None
    if not ds.is_multiclass:
        svm_path = cached_svm_path(sp.X, sp.y, sp.X_tune, sp.y_tune, s.sigma, s.n_lams)
        svm_err = svm_path.tune_error
    curves = fig_ivm.compute_path_curves(path, klr_path=klr, svm_tune_error=svm_err)
    a, b = st.columns(2)
    a.plotly_chart(fig_ivm.plot_path_error(curves, bayes_error=ds.bayes_error), key=f"{KEY}_path_err")
    b.plotly_chart(fig_ivm.plot_path_size(curves), key=f"{KEY}_path_size")
    best = path.best_index
    st.markdown(
        f"**Chosen λ = e^{np.log(path.best_lam):.1f} = {path.best_lam:.3g}**: tuning misclassification "
        f"{path.tune_error[best]:.3f} with |S| = {path.n_import[best]} import points. "
        f"Zhu & Hastie (Zhu & Hastie 2002, Fig. 2, N = 200): 0.219 at λ = e^−2 = 0.135 with |S| = 21."
        + ("" if klr is not None else " (Full KLR is drawn only for N ≤ 400.)"))
    cols = {"ln_lambda": np.log(path.lams), "lambda": path.lams, "tune_error": path.tune_error,
            "train_error": path.train_error, "n_import": path.n_import, "H": path.H,
            "status": path.status}
    if klr is not None:
        cols["klr_tune_error"] = klr.tune_error
    if svm_path is not None:
        cols["svm_lambda"] = svm_path.lams
        cols["svm_tune_error"] = svm_path.tune_error
        cols["svm_n_support"] = svm_path.n_support
    common.csv_download("Download the λ path (CSV)", cols, f"ivm_path_{ds.name}.csv", key=f"{KEY}_csv")


def render_multiclass(ds, sp: Splits, s: Settings, path, li: int) -> None:
    if ds.is_multiclass and sp.X.shape[1] == 2:
        model = path.model_at(li)
        p_true = ds.p_true if ds.test_sample is not None else None
        cm = fig_ivm.compute_class_map(model, sp.X, sp.y, p_true=p_true, X_test=sp.X_test, y_test=sp.y_test,
                                       grid_n=100)
        st.plotly_chart(fig_ivm.plot_class_map(cm), key=f"{KEY}_classmap")
        return
    if ds.is_multiclass:
        st.info(f"{ds.name} has {sp.X.shape[1]} features: the class map needs 2. The λ path applies.")
        return
    st.caption("These data have two classes; here is the 3-class ESL mixture of (Zhu & Hastie 2002, Fig. 4) "
               "(N = 300, same seed and σ).")
    lnlam = st.slider("ln λ (3-class fit)", -6.0, 6.0, -1.0, step=0.5, key=f"{KEY}_mc_lnlam",
                      help="The paper's Fig 4 uses λ = e^−1 = 0.368 (|S| = 32).")
    seed = int(ds.params.get("seed", 0)) if isinstance(ds.params, dict) else 0
    ds3 = common.load_dataset("esl_mixture3", 300, seed)
    te = ds3.test_sample(2000, seed=20_000 + seed)
    model, msgs = cached_fit(ds3.X, ds3.y, float(np.exp(lnlam)), s.sigma, s.r, s.eps, "onestep",
                             s.max_import)
    for m in msgs:
        st.warning(m)
    cm = fig_ivm.compute_class_map(model, ds3.X, ds3.y, p_true=ds3.p_true, X_test=te.X, y_test=te.y,
                                   grid_n=100)
    st.plotly_chart(fig_ivm.plot_class_map(cm), key=f"{KEY}_classmap")
    st.caption(f"Bayes error {ds3.bayes_error:.3f}; test error {cm.test_error:.3f} with "
               f"{model.n_import_} import points (paper: |S| = 32 at λ = e^−1).")


def describe_available() -> list[str]:
    return [c for c in CHOICES if c in _data.GENERATORS]


# ------------------------------------------------------------------ the page
def page() -> None:
    """The page itself: import streamlit as st

    Run by ``pages/5_Import_vector_machine.py`` under ``streamlit run app.py`` and by the installed app's frame
    (:mod:`svmviz.ui.frame`).
    """
    from svmviz.ui import common

    st.title("Import vector machine")
    st.caption("Kernel logistic regression on a few greedily chosen import points, its λ path and the SVM "
               "beside it — Zhu & Hastie 2002, Figs. 2–4.")

    ds = common.dataset_sidebar(describe_available(), "esl_mixture", key="ivm", allow_multiclass=True)
    if ds is None:
        st.stop()
    settings = sidebar_settings(ds)
    try:
        splits = make_splits(ds, settings.n_tune, ds.params.get("seed", 0))
        path = run_path(splits, settings)
    except ValueError as exc:
        common.show_error(exc)
        st.stop()

    li = lam_picker(path)
    tab_map, tab_path, tab_mc = st.tabs(["Import points vs SVM", "λ path", "Multi-class"])
    with tab_map:
        if ds.is_multiclass:
            st.info("The SVM comparison is for two classes; the Multi-class tab shows these data.")
        else:
            render_maps(ds, splits, settings, path, li)
    with tab_path:
        render_path(ds, splits, settings, path)
    with tab_mc:
        render_multiclass(ds, splits, settings, path, li)
