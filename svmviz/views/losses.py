"""The view of the Loss functions & randomized GACV page (Wahba 1998): its settings and its plan."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.figures.losses import (HINGE_SCALE, MISCLASS_SCALE, compute_criteria_panel, compute_loss_curves,
                                   compute_population_minimizers, compute_prediction_functions, plot_criteria_panel,
                                   plot_loss_curves, plot_population_minimizers, plot_prediction_functions)
from svmviz.losses import gacv_curves

from ._plan import Plan, Step, call, plan, ref

TITLE = "Loss functions & randomized GACV (Wahba 1998): the view of the app's page"


class LossView(NamedTuple):
    """The losses drawn and their parameters (Wahba 1998, §1).

    Attributes
    ----------
    names : tuple of str
        Keys of :data:`svmviz.losses.LOSSES`.
    a : float
        Steepness of the sigmoid and of [1 − exp(aτ)]₊.
    eps_plus, eps_minus : float
        ε₊ and ε₋ of Wahba's v(τ; ε₊, ε₋) (Wahba 1998, eq. 1.23).
    s_values : tuple of float
        Exponents of the smooth step θ̃ₛ (Navia-Vázquez et al. 2004, eq. 6).
    tau_range : (float, float)
        The margins τ drawn.
    deviance_scaled : bool
        The deviance divided by ln 2.
    """

    names: tuple
    a: float
    eps_plus: float
    eps_minus: float
    s_values: tuple
    tau_range: tuple
    deviance_scaled: bool

    @property
    def params(self) -> dict:
        return {"a": self.a, "eps_plus": self.eps_plus, "eps_minus": self.eps_minus}


class CurveView(NamedTuple):
    """GACV, ranGACV and leave-one-out along λ at one σ (Wahba 1998, eqs. 1.34 and 1.63).

    Attributes
    ----------
    log_sigma : float
        log10 of the Gaussian kernel's width.
    log_lambda : (float, float)
        log10 range of λ.
    n_lambda : int
        Values of λ, log-spaced.
    replicates : int
        ranGACV's perturbation vectors Z (0: no ranGACV).
    sigma_z : float
        Their size.
    perturbation : {"gaussian", "bernoulli"}
    z_seed : int
        Their seed.
    loo : bool
        Exact leave-one-out along λ.
    """

    log_sigma: float
    log_lambda: tuple
    n_lambda: int
    replicates: int
    sigma_z: float
    perturbation: str
    z_seed: int
    loo: bool

    @property
    def sigma(self) -> float:
        return float(10.0 ** self.log_sigma)

    @property
    def lambdas(self) -> np.ndarray:
        return np.logspace(self.log_lambda[0], self.log_lambda[1], self.n_lambda)


def curve_keys(truth: bool, view: CurveView) -> tuple:
    """The criteria of the two λ panels: the hinge scale's and the misclassification's, those
    :func:`svmviz.losses.gacv_curves` computes for these settings.

    Parameters
    ----------
    truth : bool
        Whether the data know p(x) (GCKL and MISCLASS).
    view : CurveView

    Returns
    -------
    (list of str, list of str)
        Keys of ``GacvCurves.values`` in ``svmviz.figures.losses.HINGE_SCALE`` and
        ``MISCLASS_SCALE`` order.
    """
    present = {"gacv", "hinge_obs"} | ({"gckl", "misclass"} if truth else set()) \
        | ({"rangacv"} if view.replicates else set()) | ({"loo_hinge", "loo"} if view.loo else set())
    return [k for k in HINGE_SCALE if k in present], [k for k in MISCLASS_SCALE if k in present]


def misclass_title(keys, sigma: float) -> str:
    """The misclassification panel's title: what it shows, and σ.

    Parameters
    ----------
    keys : sequence of str
        Its criteria ("loo", "misclass").
    sigma : float

    Returns
    -------
    str
    """
    what = " and ".join(w for k, w in (("loo", "exact LOO"), ("misclass", "MISCLASS (truth)")) if k in keys)
    return f"Misclassification:<br>{what}<br>σ = {sigma:.3g}"


def view_plan(loss_view: LossView | None, ds=None, curve_view: CurveView | None = None) -> Plan:
    """The Loss functions page's plan.

    Parameters
    ----------
    loss_view : LossView or None
        The losses' settings (None: the page draws no loss chart).
    ds : svmviz.data.Dataset, optional
        The page's data set (the plan's input ``ds``); None: the page draws the losses only.
    curve_view : CurveView, optional
        The λ curves' settings (with ``ds``).

    Returns
    -------
    Plan
        Figures ``fig_loss_curves``, ``fig_mu_curves``, ``fig_fstar_curves`` (with ``loss_view``),
        ``fig_gacv_curves`` and ``fig_loo_curves`` (with data, the second when it has criteria).
    """
    steps = []
    if loss_view is not None:
        lv = loss_view
        steps += [Step("names", tuple(lv.names), "The losses g(τ) of the margin τ = y f (Wahba 1998, §1) and "
                                                 "their parameters; θ̃ₛ's exponents s."),
                  Step("params", lv.params),
                  Step("s_values", tuple(lv.s_values)),
                  Step("tau_range", tuple(lv.tau_range)),
                  Step("lc", call(compute_loss_curves, ref("names"), tau_range=ref("tau_range"), params=ref("params"),
                                  s_values=ref("s_values"), deviance_scaled=bool(lv.deviance_scaled)),
                       cache="loss_curves_data"),
                  Step("fig_loss_curves", call(plot_loss_curves, ref("lc")), figure="loss_curves", cache="loss_curves"),
                  Step("pc", call(compute_prediction_functions, ref("names"), f_range=ref("tau_range"),
                                  params=ref("params"), s_values=ref("s_values")),
                       "Prediction functions μ(f) (Wahba 1998, eq. 1.39) and the population minimizers f*(p).",
                       cache="prediction_curves_data"),
                  Step("fig_mu_curves", call(plot_prediction_functions, ref("pc")), figure="mu_curves",
                       cache="mu_curves"),
                  Step("mc", call(compute_population_minimizers, ref("names"), params=ref("params"),
                                  s_values=ref("s_values")), cache="minimizer_curves_data"),
                  Step("fig_fstar_curves", call(plot_population_minimizers, ref("mc")), figure="fstar_curves",
                       cache="fstar_curves")]
    if ds is None or curve_view is None:
        return plan(TITLE, [], steps)
    cv, truth = curve_view, ds.p_true is not None
    hinge, mis = curve_keys(truth, cv)
    what = "Fitting the SVM along λ" + (f", {cv.replicates} ranGACV replicates" if cv.replicates else "")
    steps += [Step("sigma", call(pow, 10.0, cv.log_sigma),
                   "GACV (Wahba et al. 2001, eq. 4), randomized GACV (Wahba 1998, eq. 1.63)"
                   + (" and exact leave-one-out" if cv.loo else "") + " of the standard SVM along λ, at one σ."),
              Step("lambdas", call(np.logspace, cv.log_lambda[0], cv.log_lambda[1], int(cv.n_lambda)))]
    p_true = None
    if truth:
        steps.append(Step("p_true", call(ref("ds.p_true"), ref("ds.X"))))
        p_true = ref("p_true")
    steps += [Step("gc", call(gacv_curves, ref("ds.X"), ref("ds.y"), ref("lambdas"), ref("sigma"), p_true=p_true,
                              loo=bool(cv.loo), ran_gacv_replicates=int(cv.replicates), sigma_z=cv.sigma_z,
                              perturbation=cv.perturbation, seed=int(cv.z_seed)),
                   cache="loss_gacv", progress=what + (" and leave-one-out…" if cv.loo else "…"), reports=True),
              Step("cp", call(compute_criteria_panel, ref("gc"), hinge), "The hinge-scale criteria; each one's "
                                                                          "minimizer starred."),
              Step("fig_gacv_curves", call(plot_criteria_panel, ref("cp"),
                                           title=f"Hinge scale: GACV, ranGACV, V₀<br>σ = {cv.sigma:.3g}",
                                           ytitle="criterion value"), figure="gacv_curves")]
    if mis:
        steps += [Step("cpm", call(compute_criteria_panel, ref("gc"), mis), "The misclassification rates along λ."),
                  Step("fig_loo_curves", call(plot_criteria_panel, ref("cpm"), title=misclass_title(mis, cv.sigma),
                                              ytitle="misclassification rate"), figure="loo_curves")]
    return plan(TITLE, ["ds"], steps)
