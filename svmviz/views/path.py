"""The view of the Regularization path page (Loosli & Canu 2006): its settings and its plan."""
from __future__ import annotations

from typing import NamedTuple

from svmviz.data import fresh_sample
from svmviz.figures.path import (axis_values, compute_boundary_map, compute_coef_paths, compute_loo_curves,
                                 compute_path_summary, plot_boundary_map, plot_coef_paths, plot_loo_curves,
                                 plot_path_summary)
from svmviz.path import default_loo_lambdas, loo_path, nu_path

from ._data import dataset_seed
from ._maps import map_plane
from ._plan import Plan, Step, call, plan, ref

TITLE = "Regularization path (Loosli & Canu 2006): the view of the app's page"

MAX_LINES = 400
"""Coefficient paths drawn at most (a seeded sample beyond: 1,500 lines weigh ~36 MB of JSON)."""
TEST_SIZE = 2000
"""Points of the test sample drawn from the data's law."""
MAP_GRID = 70
"""Mesh points per axis of the boundary map."""


class Settings(NamedTuple):
    """The path's kernel, its horizontal axis and leave-one-out along it.

    Attributes
    ----------
    kernel : {"rbf", "linear"}
    sigma : float
        The Gaussian kernel's width (read with ``kernel="rbf"`` only).
    x_axis : {"lambda", "nu"}
        λ = m ν or ν on the horizontal axes.
    loo : bool
        Leave-one-out along the path (Loosli & Canu 2006, "LOO").
    loo_evals : int
        Its evaluation points (breakpoints, evenly thinned).
    """

    kernel: str
    sigma: float
    x_axis: str
    loo: bool
    loo_evals: int


def stopping_lambda(loo) -> float:
    """λ at the automatic stopping point of leave-one-out along the path.

    Parameters
    ----------
    loo : svmviz.path.LooPath

    Returns
    -------
    float
    """
    return float(loo.lambdas[loo.stop])


def sample_seed(ds) -> int | None:
    """The seed of the test sample drawn from the data's law (the data set's own seed), None when the
    data have no law to draw from (an upload).

    Parameters
    ----------
    ds : svmviz.data.Dataset

    Returns
    -------
    int or None
    """
    return None if ds.test_sample is None else dataset_seed(ds)


def view_plan(ds, settings: Settings, lam: float | None = None, *, map_axes: dict | None = None) -> Plan:
    """The Regularization path page's plan.

    Parameters
    ----------
    ds : svmviz.data.Dataset
        The page's data set (the plan's input ``ds``).
    settings : Settings
    lam : float, optional
        The λ cursor (λ = m ν). None: the steps before the cursor only (the path, the test sample,
        leave-one-out).
    map_axes : dict, optional
        For data of more than two features, the arguments of
        :func:`svmviz.figures.plane.compute_map_plane` of the boundary map's plane; None draws no map
        for such data.

    Returns
    -------
    Plan
        Figures ``fig_path_coefs``, ``fig_path_map`` (two features or ``map_axes``), ``fig_path_summary``
        and, with leave-one-out, ``fig_path_loo_fig``.
    """
    s = settings
    kernel = {"kernel": s.kernel} | ({"sigma": s.sigma} if s.kernel == "rbf" else {})
    steps = [Step("p", call(nu_path, ref("ds.X"), ref("ds.y"), **kernel),
                  "The whole ν-SVM path: α piecewise linear in λ = m ν (Loosli & Canu 2006).", cache="nu_path",
                  progress="Following the ν-SVM path from the sparse end to λ_max…")]
    seed = sample_seed(ds)
    X_test = y_test = None
    if seed is not None:
        steps.append(Step("te", call(fresh_sample, ref("ds"), TEST_SIZE, seed=seed, role="test"),
                          f"{TEST_SIZE:,} new points from the same law (the test error)."))
        X_test, y_test = ref("te.X"), ref("te.y")
    if s.loo:
        steps.append(Step("loo", call(loo_path, ref("p"), call(default_loo_lambdas, ref("p"), int(s.loo_evals)),
                                      X_test=X_test, y_test=y_test),
                          f"Leave-one-out along the path at {s.loo_evals} breakpoints, with the automatic "
                          "stopping point (Loosli & Canu 2006, “LOO”).", cache="nu_path_loo",
                          progress="Leave-one-out: refitting without each support vector…", reports=True))
    if lam is None:
        return plan(TITLE, ["ds"], steps)
    steps += [Step("lam", float(lam), "The λ cursor and the horizontal axis."),
              Step("x_axis", s.x_axis),
              Step("cursor", call(float, call(axis_values, ref("p"), ref("lam"), ref("x_axis"))))]
    stop = None
    if s.loo:
        steps.append(Step("stop", call(float, call(axis_values, ref("p"), call(stopping_lambda, ref("loo")),
                                                   ref("x_axis")))))
        stop = ref("stop")
    steps += [Step("cp", call(compute_coef_paths, ref("p"), x_axis=ref("x_axis"), max_points=MAX_LINES),
                   "The coefficient paths αᵢyᵢ(λ)."),
              Step("fig_path_coefs", call(plot_coef_paths, ref("cp"), cursor=ref("cursor"),
                                          classes=ref("ds.class_names"), X=ref("p.X"), stop=stop),
                   figure="path_coefs")]
    mp = map_plane(ds, map_axes)
    if mp is not None:
        steps += list(mp.steps)
        steps += [Step("bm", call(compute_boundary_map, ref("p"), ref("lam"), grid_n=MAP_GRID, X_test=X_test,
                                  y_test=y_test, **mp.plane_kwargs),
                       "The data and the decision boundary at the cursor"
                       + (", on that plane." if mp.plane is not None else ".")),
                  Step("fig_path_map", call(plot_boundary_map, ref("bm"), classes=ref("ds.class_names"),
                                            axis_titles=mp.axis_titles, feature_names=ref("ds.feature_names"),
                                            scale=mp.scale), figure="path_map")]
    steps += [Step("summ", call(compute_path_summary, ref("p"), x_axis=ref("x_axis")),
                   "b, ρ and the groups E, L, R along the path."),
              Step("fig_path_summary", call(plot_path_summary, ref("summ"), cursor=ref("cursor")),
                   figure="path_summary")]
    if s.loo:
        steps += [Step("lc", call(compute_loo_curves, ref("p"), ref("loo"), x_axis=ref("x_axis")),
                       "LOO1, LOO2" + (" and the test error" if seed is not None else "") + " along the path."),
                  Step("fig_path_loo_fig", call(plot_loo_curves, ref("lc"), cursor=ref("cursor")),
                       figure="path_loo_fig")]
    return plan(TITLE, ["ds"], steps)
