"""The view of the Tuning criteria page (Wahba, Lin, Lee & Zhang 2001): its settings and its plan."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.data import wahba_costs
from svmviz.figures.tuning import (compute_contour, compute_decision_curves, compute_inefficiency_table,
                                   plot_contour_panels, plot_decision_curves)
from svmviz.tuning import criteria_surface

from ._maps import map_plane
from ._plan import Plan, Step, call, plan, ref

TITLE = "Tuning criteria (Wahba, Lin, Lee & Zhang 2001): the view of the app's page"


class Setting(NamedTuple):
    """The standard or the non-standard SVM (Wahba et al. 2001, §5).

    Attributes
    ----------
    nonstandard : bool
    C_plus, C_minus : float
        Costs of a false + and of a false −.
    pi_plus, pi_minus : float
        The target population's shares of +1 and −1.
    """

    nonstandard: bool
    C_plus: float
    C_minus: float
    pi_plus: float
    pi_minus: float


class Grid(NamedTuple):
    """The (λ, σ) grid.

    Attributes
    ----------
    log_lambda, log_sigma : (float, float)
        log10 ranges of λ and σ.
    resolution : int
        Points per axis, log-spaced.
    loo : bool
        Exact leave-one-out at every grid point.
    """

    log_lambda: tuple
    log_sigma: tuple
    resolution: int
    loo: bool

    @property
    def lambdas(self) -> np.ndarray:
        return np.logspace(self.log_lambda[0], self.log_lambda[1], self.resolution)

    @property
    def sigmas(self) -> np.ndarray:
        return np.logspace(self.log_sigma[0], self.log_sigma[1], self.resolution)


CHOSEN = ("gacv", "xa", "misclass", "loo")
"""The criteria whose choice of (λ, σ) the decision curves show."""


def chosen_points(surf) -> dict:
    """``{criterion: (i_sigma, j_lambda)}``: the grid minimizer of each of ``CHOSEN`` the surface holds.

    Parameters
    ----------
    surf : svmviz.tuning.CriteriaSurface

    Returns
    -------
    dict
    """
    return {k: surf.best[k] for k in CHOSEN if k in surf.best}


def plotted_keys(truth: bool, loo: bool) -> list:
    """The contour panels: Wahba et al.'s Fig. 2 (GCKL, GACV, MISCLASS, XA) with the truth, else GACV, XA
    and Joachims' ξα; then exact leave-one-out when computed.

    Parameters
    ----------
    truth : bool
        Whether the data know p(x) (GCKL and MISCLASS are computed).
    loo : bool
        Whether the surface holds exact leave-one-out.

    Returns
    -------
    list of str
        Keys of ``CriteriaSurface.values``, in the panels' order.
    """
    keys = ["gckl", "gacv", "misclass", "xa"] if truth else ["gacv", "xa", "xa_j"]
    return keys + (["loo"] if loo else [])


def selected_xy(grid: Grid, selected) -> tuple:
    """(log10 λ, log10 σ) of a grid point.

    Parameters
    ----------
    grid : Grid
    selected : (int, int)
        The point's index of σ and index of λ.

    Returns
    -------
    (float, float)
    """
    return float(np.log10(grid.lambdas[selected[1]])), float(np.log10(grid.sigmas[selected[0]]))


def view_plan(ds, setting: Setting, grid: Grid, *, selected=None, map_axes: dict | None = None) -> Plan:
    """The Tuning criteria page's plan.

    Parameters
    ----------
    ds : svmviz.data.Dataset
        The page's data set (the plan's input ``ds``): whether it knows p(x), its number of features
        and, for ``wahba2001``, its own costs decide the steps.
    setting : Setting
    grid : Grid
    selected : (int, int), optional
        The selected grid point (index of σ, index of λ), drawn in red; None draws none.
    map_axes : dict, optional
        For data of more than two features, the arguments of
        :func:`svmviz.figures.plane.compute_map_plane` (``kind``, and ``axes`` for two features) of the
        plane the decision curves are drawn on; None draws no curves for such data.

    Returns
    -------
    Plan
        Figures ``fig_contours`` and, on two features or with ``map_axes``, ``fig_curves``; with the
        truth, ``rows`` (the inefficiency table).
    """
    truth = ds.p_true is not None
    steps = []
    if not setting.nonstandard:
        steps += [Step("L", (1.0, 1.0), "Standard setting: equal misclassification weights L(−1) = L(+1) = 1, "
                                          "Bayes threshold ½."),
                  Step("threshold", 0.5)]
    elif ds.name == "wahba2001":
        steps += [Step("L", ref("ds.L"), "Non-standard setting (Wahba et al. 2001, §5): the generator's weights "
                                        "L(±1) and Bayes threshold."),
                  Step("threshold", ref("ds.bayes_threshold"))]
    else:
        pi_s = float(np.mean(ds.y > 0))
        steps += [Step("costs", call(wahba_costs, setting.C_plus, setting.C_minus, setting.pi_plus, setting.pi_minus,
                                     pi_s),
                       f"Non-standard setting (Wahba et al. 2001, §5): weights L(±1) and the Bayes threshold from "
                       f"the costs C±, the target shares π± and the sample's share πₛ⁺ = {pi_s:.4g} of +1."),
                  Step("L", (ref("costs", 0), ref("costs", 1))),
                  Step("threshold", ref("costs", 2))]
    steps += [Step("lambdas", call(np.logspace, grid.log_lambda[0], grid.log_lambda[1], grid.resolution),
                   f"The (λ, σ) grid: {grid.resolution} × {grid.resolution} points, log-spaced."),
              Step("sigmas", call(np.logspace, grid.log_sigma[0], grid.log_sigma[1], grid.resolution))]
    p_true = None
    if truth:
        steps.append(Step("p_true", call(ref("ds.p_true"), ref("ds.X")),
                          "The true P(y = +1 | x) at the points (simulated data only)."))
        p_true = ref("p_true")
    steps.append(Step("surf", call(criteria_surface, ref("ds.X"), ref("ds.y"), ref("lambdas"), ref("sigmas"),
                                   L=ref("L"), p_true=p_true, loo=bool(grid.loo)),
                      "Every criterion over the grid (Wahba et al. 2001, §3–4)"
                      + (" with exact leave-one-out." if grid.loo else "."), cache="surface",
                      progress="Leaving each support vector out at every grid point…" if grid.loo
                      else "Fitting the SVM over the (λ, σ) grid…", reports=True))
    keys = plotted_keys(truth, grid.loo)
    for n, k in enumerate(keys):
        steps.append(Step(f"contour_{k}", call(compute_contour, ref("surf"), k),
                          None if n else "The contour panels (Wahba et al. 2001, Fig. 2); the selected grid point "
                                         "in red."))
    sel_xy = None if selected is None else selected_xy(grid, selected)
    steps.append(Step("fig_contours", call(plot_contour_panels, [ref(f"contour_{k}") for k in keys],
                                           selected=sel_xy), figure="contours"))
    mp = map_plane(ds, map_axes)
    if mp is not None:
        steps += list(mp.steps)
        steps += [Step("chosen", call(chosen_points, ref("surf")),
                       "The decision curves chosen by each criterion" + (", the Bayes curve" if truth else "")
                       + " and the selected grid point's (Wahba et al. 2001, Fig. 1)"
                       + (", on that plane." if mp.plane is not None else ".")),
                  Step("dc", call(compute_decision_curves, ref("surf"), ref("chosen"),
                                  p_true=ref("ds.p_true") if truth else None, threshold=ref("threshold"),
                                  selected=None if selected is None else (int(selected[0]), int(selected[1])),
                                  **mp.plane_kwargs), cache="curves"),
                  Step("fig_curves", call(plot_decision_curves, ref("dc"), feature_names=ref("ds.feature_names"),
                                          class_names=ref("ds.class_names"), axis_titles=mp.axis_titles,
                                          scale=mp.scale), figure="curves")]
    if truth:
        steps.append(Step("rows", call(compute_inefficiency_table, ref("surf"), target="misclass"),
                          "Inefficiency: MISCLASS at each criterion's minimizer over its minimum on the grid.",
                          table=True))
    return plan(TITLE, ["ds"], steps)
