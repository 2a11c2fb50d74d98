"""The view of the Kernels & variable selection page (Wahba 1998, §1.1 eqs. 1.12–1.13, §2): its settings
and its plan."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.anova import add_exact_loo, compare_kernels, expansion_from_dual, expansion_of, importances, \
    theta_lambda_grid
from svmviz.data import anova_structure_terms
from svmviz.figures.anova import (compute_importances, compute_interaction, compute_kernel_curves,
                                  compute_main_effects, compute_theta_grid, plot_importance_panels,
                                  plot_interaction_panels, plot_kernel_curves, plot_main_effects, plot_theta_grid)
from svmviz.figures.labels import feature_scale
from svmviz.ivm import KernelLogisticRegression
from svmviz.kernels import SSANOVAKernel

from ._plan import Plan, Ref, Step, call, plan, ref

TITLE = "Kernels & variable selection (Wahba 1998): the view of the app's page"

SHORT = {"gaussian": "Gaussian", "additive": "SS-ANOVA additive", "two-way": "SS-ANOVA two-way"}
"""The name each kernel choice's fits carry."""
N_TEST = 2000
"""Size of the test sample drawn from the data's law."""
THETA_SCALES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)
"""The factors of θ of the θ grid."""


class Settings(NamedTuple):
    """The kernels and the λ grid.

    Attributes
    ----------
    kernels : tuple of str
        Keys of ``SHORT``: the Gaussian on all variables, the SS-ANOVA kernels K = Π_α [1 + θ_α R_α]
        cut after the main effects ("additive") or the two-factor interactions ("two-way").
    base : {"cubic", "gaussian"}
        The one-dimensional kernel R_α.
    sigma : float
        σ of the Gaussian kernel on all variables.
    sigma_1d : float
        σ₁ of the per-coordinate Gaussian R_α (a fraction of each variable's range).
    lambdas : ndarray of shape (m,)
        The λ grid.
    loo : bool
        Exact leave-one-out at every λ.
    """

    kernels: tuple
    base: str
    sigma: float
    sigma_1d: float
    lambdas: np.ndarray
    loo: bool


class Decomposition(NamedTuple):
    """The decomposed fit: one SS-ANOVA kernel's machine at one λ.

    Attributes
    ----------
    q : int
        The kernel's index among the fits.
    machine : {"svm", "klr"}
        The SVM's fit, or kernel logistic regression's at λ_KLR = 2nλ.
    j : int
        The λ's index on the grid.
    lam : float
        That λ.
    measure : {"norm", "rms"}
        The importance measure.
    pairs : tuple of int
        Ranks (most important first) of the interactions drawn.
    """

    q: int
    machine: str
    j: int
    lam: float
    measure: str
    pairs: tuple = ()


class ThetaGrid(NamedTuple):
    """The grid over λ and a factor on θ_α of one variable (its interactions follow).

    Attributes
    ----------
    coordinate : int
        The variable.
    criterion : {"gacv", "xa", "loo"}
    """

    coordinate: int
    criterion: str


def kernel_of(settings: Settings, choice: str):
    """The plan's kernel of a choice.

    Parameters
    ----------
    settings : Settings
        The page's settings (the SS-ANOVA base kernel and its one-dimensional σ).
    choice : str
        ``"gaussian"``, ``"additive"`` or ``"two-way"`` (the ANOVA decomposition cut after the main
        effects or after the two-factor interactions, Wahba 1998 §1.1).

    Returns
    -------
    str or Call
        ``"rbf"``, or the plan's call of an unfitted :class:`svmviz.kernels.SSANOVAKernel`.
    """
    if choice == "gaussian":
        return "rbf"
    return call(SSANOVAKernel, order=choice, base=settings.base, sigma=settings.sigma_1d)


def ranked_pairs(exp) -> list:
    """The interactions of an expansion, most important first.

    Parameters
    ----------
    exp : svmviz.anova.AnovaExpansion

    Returns
    -------
    list of (int, int)
        The pairs of variables of its two-factor components, by decreasing importance
        (:func:`svmviz.anova.importances`; ties in the components' order).
    """
    imp = importances(exp)
    return [c for _, c in sorted(((v, c) for v, c in zip(imp.values, imp.components) if len(c) == 2),
                                 key=lambda t: -t[0])]


def true_main_effects(d: int, interaction: float):
    """The known main effects of the ``anova_structure`` data's logit (:func:`svmviz.data.anova_structure_terms`).

    Parameters
    ----------
    d : int
        The data's number of variables.
    interaction : float
        The interaction a of the logit 4·x1 + 4·cos(π·x2) + a·x1·x2.

    Returns
    -------
    callable
        ``truth(a, t)``: the main effect of variable ``a`` at the values ``t`` (0 for the noise variables).
    """
    if int(d) < 1:
        raise ValueError(f"true_main_effects: d must be ≥ 1, got {d}.")

    def truth(a, t):
        t = np.asarray(t, dtype=float)
        Xq = np.zeros((t.size, int(d)))
        Xq[:, a] = t
        return anova_structure_terms(Xq, float(interaction)).get((a,), np.zeros(t.size))

    return truth


def view_plan(ds, settings: Settings, *, test_seed: int | None = None, decomposition: Decomposition | None = None,
              theta: ThetaGrid | None = None, interaction: float | None = None) -> Plan:
    """The Kernels & variable selection page's plan.

    Parameters
    ----------
    ds : svmviz.data.Dataset
        The page's data set (the plan's input ``ds``).
    settings : Settings
    test_seed : int, optional
        Seed of the test sample of ``N_TEST`` points (None: the data have no generator).
    decomposition : Decomposition, optional
        The decomposed fit; None draws no decomposition (no SS-ANOVA kernel chosen).
    theta : ThetaGrid, optional
        The θ grid of the decomposition's kernel, when computed.
    interaction : float, optional
        The interaction of ``anova_structure`` data: their true main effects are drawn beside KLR's
        (cubic-spline R_α).

    Returns
    -------
    Plan
        ``kc`` (the fits; ``kc_loo`` with exact LOO), figure ``fig_anova_curves``; with the
        decomposition ``exp``, figures ``fig_anova_imp``, ``fig_anova_main``, on the two-way kernel
        ``pairs`` and ``fig_anova_interactions`` (interactions chosen); ``fig_anova_thgrid``.

    Raises
    ------
    ValueError
        No kernel, an unknown kernel or machine, or a θ grid without a decomposition.
    """
    s = settings
    if not s.kernels or any(k not in SHORT for k in s.kernels):
        raise ValueError(f"view_plan: choose kernels among {list(SHORT)}, got {list(s.kernels)}.")
    truth, d = ds.p_true is not None, ds.X.shape[1]
    steps, test = [], {}
    if test_seed is not None:
        steps.append(Step("test", call(ref("ds.test_sample"), N_TEST, seed=int(test_seed)),
                          f"{N_TEST} new points from the same law (the test error)."))
        test = dict(X_test=ref("test.X"), y_test=ref("test.y"))
    steps += [Step("lambdas", call(np.array, [float(v) for v in s.lambdas]),
                   "Every kernel along λ: the Gaussian on all variables and the SS-ANOVA kernels "
                   "K = Π [1 + θ(α)·R(α)] cut after the main effects or the two-factor interactions (Wahba 1998, "
                   "eqs. 1.12–1.13); GACV, XA" + (", exact LOO" if s.loo else "") + (" and MISCLASS." if truth else ".")),
              Step("kernels", {SHORT[k]: kernel_of(s, k) for k in s.kernels})]
    p_true = None
    if truth:
        steps.append(Step("p_true", call(ref("ds.p_true"), ref("ds.X"))))
        p_true = ref("p_true")
    steps.append(Step("kc", call(compare_kernels, ref("ds.X"), ref("ds.y"), ref("lambdas"), ref("kernels"),
                                 sigma=s.sigma, p_true=p_true, loo=False, **test),
                      cache="anova_kernels", progress="Fitting every kernel along λ…"))
    kc = "kc"
    if s.loo:
        steps.append(Step("kc_loo", call(add_exact_loo, ref("kc"), ref("ds.y")),
                          "Exact leave-one-out: refits every support vector at every λ.", cache="anova_loo",
                          progress="Exact leave-one-out for every kernel along λ…"))
        kc = "kc_loo"
    steps += [Step("kcv", call(compute_kernel_curves, ref(kc)), "Which structure do the criteria prefer?"),
              Step("fig_anova_curves", call(plot_kernel_curves, ref("kcv")), figure="anova_curves")]
    if decomposition is None:
        if theta is not None:
            raise ValueError("view_plan: the θ grid is of the decomposition's kernel; give a decomposition.")
        return plan(TITLE, ["ds"], steps)
    dc = decomposition
    if dc.machine not in ("svm", "klr"):
        raise ValueError(f"view_plan: the machine must be 'svm' or 'klr', got {dc.machine!r}.")
    q, j, order = int(dc.q), int(dc.j), s.kernels[int(dc.q)]
    if order == "gaussian":
        raise ValueError("view_plan: the Gaussian kernel on all variables has no decomposition; choose an SS-ANOVA one.")
    what = (f"The {'SVM' if dc.machine == 'svm' else 'KLR'} fit of the {SHORT[order]} kernel at λ = {dc.lam:.3g}, "
            "split exactly into main effects and interactions; their importances (Wahba 1998, §2).")
    names = ref("ds.feature_names")
    if dc.machine == "svm":
        steps.append(Step("exp", call(expansion_from_dual, Ref(kc, ("kernels", q)), ref("ds.X"), ref("ds.y"),
                                      Ref(kc, ("curves", q, "alphas", j)), Ref(kc, ("curves", q, "b", j)),
                                      float(dc.lam), feature_names=names), what))
    else:
        steps += [Step("klr_machine", call(KernelLogisticRegression, lam=2.0 * ds.X.shape[0] * float(dc.lam),
                                           kernel=kernel_of(s, order)), what),
                  Step("klr", call(ref("klr_machine.fit"), ref("ds.X"), ref("ds.y")), cache="anova_klr"),
                  Step("exp", call(expansion_of, ref("klr"), feature_names=names))]
    scale = call(feature_scale, ref("ds"), call(range, d))
    steps += [Step("bars", call(compute_importances, ref("exp"), X=ref("ds.X"), measure=dc.measure)),
              Step("fig_anova_imp", call(plot_importance_panels, ref("bars")), figure="anova_imp")]
    known = dc.machine == "klr" and interaction is not None and s.base == "cubic"
    if known:
        steps.append(Step("truth", call(true_main_effects, d, float(interaction)),
                          "The known main effects of the logit, beside KLR's."))
    units = "SVM decision value" if dc.machine == "svm" else "logit log(p/(1 − p))"
    steps += [Step("me", call(compute_main_effects, ref("exp"), ref("ds.X"), ref("ds.y"), grid_n=101,
                              truth=ref("truth") if known else None, measure=dc.measure),
                   "The main effects f(α) of each variable α." if not known else None),
              Step("fig_anova_main", call(plot_main_effects, ref("me"), ylabel=f"f(α) ({units})",
                                          class_names=ref("ds.class_names"), standardised=ref("ds.is_standardized"),
                                          scale=scale), figure="anova_main")]
    if order == "two-way" and d >= 2:
        steps.append(Step("pairs", call(ranked_pairs, ref("exp")), "The interactions, most important first."))
        if dc.pairs:
            steps += [Step(f"interaction_{i}", call(compute_interaction, ref("exp"), Ref("pairs", (int(k), 0)),
                                                    Ref("pairs", (int(k), 1)), ref("ds.X"), ref("ds.y"), grid_n=41))
                      for i, k in enumerate(dc.pairs)]
            steps.append(Step("fig_anova_interactions",
                              call(plot_interaction_panels, [ref(f"interaction_{i}") for i in range(len(dc.pairs))],
                                   class_names=ref("ds.class_names"), standardised=ref("ds.is_standardized"),
                                   scale=scale), figure="anova_interactions"))
    if theta is not None:
        a = int(theta.coordinate)
        steps += [Step("tg", call(theta_lambda_grid, ref("ds.X"), ref("ds.y"), ref("lambdas"), kernel_of(s, order),
                                  call(np.array, list(THETA_SCALES)), coordinate=a, p_true=p_true,
                                  loo=theta.criterion == "loo"),
                       "θ of one variable times a factor (its interactions follow), refitted along λ.",
                       cache="anova_theta", progress=f"θ grid for {ds.feature_names[a]}…"),
                  Step("fig_anova_thgrid", call(plot_theta_grid, call(compute_theta_grid, ref("tg"), theta.criterion,
                                                                     Ref("ds", ("feature_names", a)))),
                       figure="anova_thgrid")]
    return plan(TITLE, ["ds"], steps)
