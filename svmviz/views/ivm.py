"""The view of the Import vector machine page (Zhu & Hastie 2002): its settings and its plan."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.data import fresh_sample, make_dataset, split_indices
from svmviz.figures.ivm import (compute_class_map, compute_import_map, compute_path_curves, compute_step_curve,
                                compute_svm_map, error_rate, plot_class_map, plot_import_map, plot_path_error,
                                plot_path_size, plot_steps, plot_svm_map)
from svmviz.figures.labels import axis_names, feature_scale
from svmviz.ivm import IVMClassifier, ivm_lambda_path, klr_lambda_path, paper_lambdas, svm_lambda_path

from ._maps import map_steps
from ._plan import Plan, Step, call, plan, ref

TITLE = "Import vector machine (Zhu & Hastie 2002): the view of the app's page"

KLR_MAX_N = 400
"""The full-KLR path (O(N³) per Newton step) is drawn up to this training size."""

TABS = ("maps", "path", "multiclass")
"""The page's tabs, as the plan's steps name them: the import points against the SVM, the λ path, the
multi-class map."""


class Settings(NamedTuple):
    """The IVM's settings (Zhu & Hastie 2002, §3).

    Attributes
    ----------
    sigma : float
        Gaussian width, K = exp(−‖x − x'‖²/(2σ²)).
    r : int
        Stopping lag: stop when |Hₖ − Hₖ₋ᵣ| / |Hₖ| < ε (§3.3).
    eps : float
        Stopping ε.
    method : {"onestep", "full"}
        Candidate scoring: one Newton step (B2*) or a full Newton solve (B2).
    max_import : int or None
        Cap on the import points.
    n_tune : int
        Size of the tuning sample (data with a generator).
    n_lams : int
        Points of the λ grid, ln λ from 10 to −10.
    """

    sigma: float
    r: int
    eps: float
    method: str
    max_import: int | None
    n_tune: int
    n_lams: int


class Splits(NamedTuple):
    """Training, tuning and test points.

    Attributes
    ----------
    X, y, X_tune, y_tune, X_test, y_test : ndarray
    note : str
        Where the tuning and test points come from, in words.
    """

    X: np.ndarray
    y: np.ndarray
    X_tune: np.ndarray
    y_tune: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    note: str


SPLIT = (0.5, 0.25, 0.25)
"""Training, tuning and test shares of data without a generator of new points."""


def make_splits(ds, n_tune: int, seed: int) -> Splits:
    """Training = the data set; tuning / test = independent samples from the same law when the generator
    offers them (``n_tune`` and 2,000 points), otherwise a seeded, stratified 50 / 25 / 25 split of the data.

    Parameters
    ----------
    ds : svmviz.data.Dataset
    n_tune : int
        Size of the tuning sample (data with a generator).
    seed : int
        Seed of the samples or of the split.

    Returns
    -------
    Splits

    Raises
    ------
    ValueError
        Fewer than 12 points to split, or a training half that lost a class.
    """
    if ds.test_sample is not None:
        tu = fresh_sample(ds, int(n_tune), int(seed), role="tuning")
        te = fresh_sample(ds, 2000, int(seed), role="test")
        return Splits(ds.X, ds.y, tu.X, tu.y, te.X, te.y,
                      f"Tuning set: {tu.X.shape[0]} independent points; test set: {te.X.shape[0]}.")
    n = ds.X.shape[0]
    if n < 12:
        raise ValueError(f"{ds.name} has only {n} points; the page needs at least 12 to split off "
                         "tuning and test sets.")
    tr, tu, te = split_indices(ds.y, SPLIT, int(seed))
    if np.unique(ds.y[tr]).size < ds.n_classes:
        raise ValueError("The random training half lost a class; change the seed or upload more rows.")
    return Splits(ds.X[tr], ds.y[tr], ds.X[tu], ds.y[tu], ds.X[te], ds.y[te],
                  f"No generator for new points: random split {tr.size} train / {tu.size} tuning / "
                  f"{te.size} test.")


def n_train(ds, seed: int) -> int:
    """The training size :func:`make_splits` gives ``ds``.

    Parameters
    ----------
    ds : svmviz.data.Dataset
        The page's data set.
    seed : int
        The seed of the stratified split (train / tune / test in the proportions ``SPLIT``).

    Returns
    -------
    int
        All of ``ds`` when it has its own test sample, else the size of the split's training half.
    """
    if ds.test_sample is not None:
        return int(ds.X.shape[0])
    return int(split_indices(ds.y, SPLIT, int(seed))[0].size)


def view_plan(ds, settings: Settings, *, seed: int, lam_index: int, source: str = "path",
              ln_lambda3: float = -1.0, map_axes: dict | None = None) -> Plan:
    """The Import vector machine page's plan: every tab's figures.

    Parameters
    ----------
    ds : svmviz.data.Dataset
        The page's data set (the plan's input ``ds``).
    settings : Settings
    seed : int
        Seed of the tuning / test samples or of the split (and of the 3-class example).
    lam_index : int
        The λ of the maps (index into the path's grid, largest λ first).
    source : {"path", "scratch"}
        The maps' IVM: the path's at that λ, or one fitted from scratch there.
    ln_lambda3 : float
        ln λ of the 3-class example shown beside two-class data.
    map_axes : dict, optional
        For data of more than two features, the arguments of
        :func:`svmviz.figures.plane.compute_map_plane` of the maps' plane; None draws no maps for
        such data.

    Returns
    -------
    Plan
        Tab "maps" (two-class data): values ``ivm_test_error``, ``svm_test_error``, ``svm``, figures
        ``fig_ivm_map_ivm``, ``fig_ivm_map_svm`` (two features or ``map_axes``) and ``fig_ivm_steps``;
        tab "path": ``fig_ivm_path_err``, ``fig_ivm_path_size``; tab "multiclass": ``fig_ivm_classmap``.

    Raises
    ------
    ValueError
        An unknown ``source`` or a ``lam_index`` off the grid.
    """
    s = settings
    if source not in ("path", "scratch"):
        raise ValueError(f"view_plan: source must be 'path' or 'scratch', got {source!r}.")
    lams = np.sort(paper_lambdas(int(s.n_lams)))[::-1]
    if not 0 <= int(lam_index) < lams.size:
        raise ValueError(f"view_plan: lam_index {lam_index} is off the λ grid of {lams.size} values.")
    li, d, multiclass = int(lam_index), ds.X.shape[1], ds.is_multiclass
    fit_kw = dict(sigma=s.sigma, r=int(s.r), eps=s.eps, method=s.method, max_import=s.max_import)
    test = dict(X_test=ref("sp.X_test"), y_test=ref("sp.y_test"))
    plane_steps, plane, axes = map_steps(d, map_axes)
    on_plane = {} if plane is None else {"plane": plane}
    p_true = ref("ds.p_true") if ds.p_true is not None and ds.test_sample is not None else None
    steps = [Step("sp", call(make_splits, ref("ds"), int(s.n_tune), int(seed)),
                  f"Training, tuning and test points: tuning ({s.n_tune} points) and test (2,000) samples from the "
                  "same law, or a seeded, stratified 50 / 25 / 25 split of data without a generator."),
             Step("lams", call(paper_lambdas, int(s.n_lams)),
                  "The IVM along Zhu & Hastie's λ grid (warm-started import set, C1–C5), tuned on the tuning set."),
             Step("path", call(ivm_lambda_path, ref("sp.X"), ref("sp.y"), ref("sp.X_tune"), ref("sp.y_tune"),
                               lams=ref("lams"), **fit_kw), cache="ivm_path",
                  progress="Import vector machine along the λ path (C1–C5)…")]
    svm = [Step("svm_path", call(svm_lambda_path, ref("sp.X"), ref("sp.y"), ref("sp.X_tune"), ref("sp.y_tune"),
                                 lams_ivm=ref("lams"), sigma=s.sigma), cache="ivm_svm_path")]
    if not multiclass:
        model = (call(ref("path.model_at"), li) if source == "path" else
                 call(ref("ivm_at.fit"), ref("sp.X"), ref("sp.y")))
        steps += ([] if source == "path" else
                  [Step("ivm_at", call(IVMClassifier, lam=call(float, ref("path.lams", li)), **fit_kw),
                        "The IVM of the maps, fitted from scratch at the chosen λ (B1–B4).", tab="maps")])
        steps += [Step("model", model, "Import points against the SVM at the chosen λ"
                       + (" (the path's model)" if source == "path" else "") + ": their test errors; the SVM is "
                       "tuned on the same tuning set (λ_SVM = λ/(2N)).", tab="maps",
                       cache=None if source == "path" else "ivm_fit"),
                  Step("ivm_test_error", call(error_rate, ref("model"), **test), tab="maps")]
        steps += [st._replace(tab="maps") for st in svm]
        steps += [Step("svm", ref("svm_path.estimator"), tab="maps"),
                  Step("svm_test_error", call(error_rate, ref("svm"), **test), tab="maps")]
        if axes is not None:
            steps += [st._replace(tab="maps") for st in plane_steps]
            maps = dict(p_true=p_true, bayes_threshold=ref("ds.bayes_threshold"), **test, grid_n=80, **on_plane)
            steps += [Step("im", call(compute_import_map, ref("model"), ref("sp.X"), ref("sp.y"), **maps),
                           "The IVM's and the SVM's maps (Zhu & Hastie 2002, Fig. 3).", tab="maps"),
                      Step("fig_ivm_map_ivm", call(plot_import_map, ref("im"), class_names=ref("ds.class_names"),
                                                   **axes), figure="ivm_map_ivm", tab="maps"),
                      Step("sm", call(compute_svm_map, ref("svm"), ref("sp.X"), ref("sp.y"), **maps), tab="maps"),
                      Step("fig_ivm_map_svm", call(plot_svm_map, ref("sm"), class_names=ref("ds.class_names"), **axes),
                           figure="ivm_map_svm", tab="maps")]
        steps += [Step("hk", call(compute_step_curve, ref("model.history_"), r=int(s.r), eps=s.eps),
                       "Hₖ along the IVM's greedy steps.", tab="maps"),
                  Step("fig_ivm_steps", call(plot_steps, ref("hk"), title=f"Hₖ along the greedy steps at "
                                                                         f"λ = {float(lams[li]):.3g}"),
                       figure="ivm_steps", tab="maps")]
    klr = n_train(ds, seed) <= KLR_MAX_N
    if klr:
        steps.append(Step("klr", call(klr_lambda_path, ref("sp.X"), ref("sp.y"), ref("sp.X_tune"), ref("sp.y_tune"),
                                      lams=ref("lams"), sigma=s.sigma),
                          "The λ path: tuning error and machine size, beside full KLR"
                          + (" and the SVM." if not multiclass else "."), tab="path", cache="ivm_klr_path",
                          progress="Full kernel logistic regression along λ…"))
    if multiclass:
        steps.append(Step("curves", call(compute_path_curves, ref("path"), klr_path=ref("klr") if klr else None),
                          None if klr else "The λ path: tuning error and machine size.", tab="path"))
    else:
        steps.append(Step("curves", call(compute_path_curves, ref("path"), klr_path=ref("klr") if klr else None,
                                         svm_tune_error=ref("svm_path.tune_error")),
                          None if klr else "The λ path: tuning error and machine size, beside the SVM.", tab="path"))
    steps += [Step("fig_ivm_path_err", call(plot_path_error, ref("curves"), bayes_error=ref("ds.bayes_error")),
                   figure="ivm_path_err", tab="path"),
              Step("fig_ivm_path_size", call(plot_path_size, ref("curves")), figure="ivm_path_size", tab="path")]
    if multiclass and axes is not None:
        steps += [st._replace(tab="multiclass") for st in plane_steps]
        steps += [Step("model_mc", call(ref("path.model_at"), li),
                       "The multi-class IVM's class map at the chosen λ (Zhu & Hastie 2002, Fig. 4).", tab="multiclass"),
                  Step("cm", call(compute_class_map, ref("model_mc"), ref("sp.X"), ref("sp.y"), p_true=p_true, **test,
                                  grid_n=100, class_names=ref("ds.classes"), **on_plane), tab="multiclass"),
                  Step("fig_ivm_classmap", call(plot_class_map, ref("cm"), **axes), figure="ivm_classmap",
                       tab="multiclass")]
    elif not multiclass:
        steps += [Step("ds3", call(make_dataset, "esl_mixture3", n=300, seed=int(seed)),
                       "The 3-class ESL mixture of Zhu & Hastie (2002, Fig. 4), N = 300, same seed and σ.",
                       tab="multiclass"),
                  Step("te3", call(fresh_sample, ref("ds3"), 2000, seed=int(seed), role="test"), tab="multiclass"),
                  Step("ivm3", call(IVMClassifier, lam=call(float, call(np.exp, float(ln_lambda3))),
                                    **(fit_kw | {"method": "onestep"})), tab="multiclass"),
                  Step("model3", call(ref("ivm3.fit"), ref("ds3.X"), ref("ds3.y")), tab="multiclass", cache="ivm_fit"),
                  Step("cm", call(compute_class_map, ref("model3"), ref("ds3.X"), ref("ds3.y"), p_true=ref("ds3.p_true"),
                                  X_test=ref("te3.X"), y_test=ref("te3.y"), grid_n=100,
                                  class_names=ref("ds3.classes")), tab="multiclass"),
                  Step("fig_ivm_classmap", call(plot_class_map, ref("cm"), axis_titles=call(axis_names, ref("ds3")),
                                                feature_names=ref("ds3.feature_names"),
                                                scale=call(feature_scale, ref("ds3"))),
                       figure="ivm_classmap", tab="multiclass")]
    return plan(TITLE, ["ds"], steps)
