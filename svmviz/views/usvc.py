"""The view of the Unbiased SVC page (Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal 2004):
its settings and its plan."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from svmviz.data import fresh_sample, make_dataset
from svmviz.figures.plane import compute_line
from svmviz.figures.usvc import (compute_error_surface, compute_kernel_comparison, compute_scenario_view,
                                 compute_trajectory, plot_ce_profiles, plot_error_surface, plot_kernel_comparison,
                                 plot_machine_size, plot_scenario, plot_table1)
from svmviz.usvc import IRWLSClassifier, empirical_ce, kernel_comparison, table1_study, table1_summary, theoretical_ce

from ._maps import inputs_of, map_steps
from ._plan import Plan, Step, call, plan, ref

TITLE = "Unbiased SVC (Navia-Vázquez et al. 2004): the view of the app's page"

COMPONENTS = "components"
"""The "along" choice of the 1-D section: the first principal component of the standardised features."""


class Settings1D(NamedTuple):
    """The 1-D section: its data and the IRWLS machines (Navia-Vázquez et al. 2004, §3, eqs. 20–22).

    Attributes
    ----------
    source : {"A", "B", "sidebar"}
        The paper's scenario (eqs. 28–29) or the sidebar's data set.
    n, seed : int
        Size and seed of the scenario's sample.
    C : float
        The cost of the primal L̃(w, b).
    s : float
        Steepness of the smooth step θ̃ₛ.
    k_eps : float
        The smooth step's k (θ̃ₛ(0) > 0).
    damping : float
        d of the damped update w_k = d·w_{k−1} + (1 − d)·w_WLS.
    along : int, str or None
        Source "sidebar": the feature's index, or ``"components"`` (the first principal component).
    """

    source: str
    n: int
    seed: int
    C: float
    s: float
    k_eps: float
    damping: float
    along: int | str | None = None


class Table1Settings(NamedTuple):
    """The Table 1 study (Navia-Vázquez et al. 2004, Table 1): LS, SVC and USVC on independent samples.

    Attributes
    ----------
    scenario : {"A", "B"}
    n_trials, n_train, n_test : int
    C : float
    seed : int
    """

    scenario: str
    n_trials: int
    n_train: int
    n_test: int
    C: float
    seed: int


class KernelSettings(NamedTuple):
    """The kernel section: the USVC with R Gaussian prototypes against the SVM (Navia-Vázquez et al. 2004,
    eqs. 23–27).

    Attributes
    ----------
    sigma, C : float
        Gaussian width and cost of both machines.
    R : int
        Prototypes of the USVC.
    s : float
        Steepness of θ̃ₛ.
    prototypes : {"kmeans", "fscl"}
        How the prototypes are found.
    seed : int
        Seed of the prototypes, of the held-out split and of the test sample.
    test : bool
        Whether the test sample is 2,000 new points from the data's law (else 30 % held out).
    """

    sigma: float
    C: float
    R: int
    s: float
    prototypes: str
    seed: int
    test: bool


def surface_window(x, traj) -> tuple:
    """The (Th, w) window of the error surfaces: the data's range and the trajectory, padded.

    Parameters
    ----------
    x : ndarray of shape (n, 1)
        The 1-D points.
    traj : svmviz.figures.usvc.Trajectory

    Returns
    -------
    th_range : (float, float)
        Th from below the smallest to above the largest of the points and the iterates (5 % of the data's range beyond).
    w_max : float
        1.6 × the largest iterate's w, at least 20 over the data's range.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or x.shape[1] != 1 or x.shape[0] < 1:
        raise ValueError(f"surface_window: x must be of shape (n, 1), got {x.shape}.")
    lo, hi = float(np.min(x)), float(np.max(x))
    pad = 0.05 * (hi - lo)
    th_range = (min(lo - pad, float(np.nanmin(traj.th)) - pad), max(hi + pad, float(np.nanmax(traj.th)) + pad))
    return th_range, max(float(np.nanmax(traj.w)) * 1.6, 20.0 / max(hi - lo, 1e-12))


def _one_d_steps(one_d: Settings1D, steps: int | None) -> list:
    if one_d.source == "sidebar":
        along = COMPONENTS if one_d.along == COMPONENTS else int(one_d.along or 0)
        out = [Step("line", call(compute_line, ref("ds.X"), ref("ds.y"), along, feature_names=ref("ds.feature_names")),
                    "1-D: the sidebar's data along "
                    + ("their first principal component (of the standardised features)" if along == COMPONENTS
                       else "one feature") + ", the sign turned when the +1 class lies on the low side."),
               Step("X", ref("line.x")), Step("y", ref("ds.y"))]
    else:
        out = [Step("ds1", call(make_dataset, f"usvc_{one_d.source}", n=int(one_d.n), seed=int(one_d.seed)),
                    f"1-D: scenario {one_d.source} (Navia-Vázquez et al. 2004, eqs. 28–29) and its class densities."),
               Step("X", ref("ds1.X")), Step("y", ref("ds1.y")),
               Step("scenario", call(compute_scenario_view, one_d.source), cache="usvc_scenario"),
               Step("fig_usvc_dens", call(plot_scenario, ref("scenario")), figure="usvc_dens")]
    kw = dict(C=one_d.C, s=one_d.s, k_eps=one_d.k_eps)
    out += [Step("irwls", call(IRWLSClassifier, C=one_d.C, loss="smooth_step", s=one_d.s, k_eps=one_d.k_eps,
                               damping=one_d.damping),
                 "IRWLS from least squares to the SVC, then the USVC (smooth step θ̃ₛ) (Navia-Vázquez et al. 2004, "
                 "eqs. 20–22), and both error surfaces L̃(Th, w) on a window that holds the trajectory."),
            Step("clf", call(ref("irwls.fit"), ref("X"), ref("y")), cache="usvc_irwls"),
            Step("traj", call(compute_trajectory, ref("clf"))),
            Step("window", call(surface_window, ref("X"), ref("traj"))),
            Step("svc", call(compute_error_surface, ref("X"), ref("y"), loss="hinge", **kw,
                             th_range=ref("window", 0), w_max=ref("window", 1)), cache="usvc_surface"),
            Step("usv", call(compute_error_surface, ref("X"), ref("y"), loss="smooth_step", **kw,
                             th_range=ref("window", 0), w_max=ref("window", 1)), cache="usvc_surface"),
            Step("ce", call(empirical_ce, ref("X"), ref("y"), [ref("traj.svc", 0), ref("traj.usvc", 0)]),
                 "The training CE of the SVC's and the USVC's thresholds (the rule “+1 when x > Th”).")]
    n_steps = None if steps is None else int(steps)
    out += [Step("fig_usvc_surf_svc", call(plot_error_surface, ref("svc"), ref("traj"), stages=(0, 1), n_steps=n_steps),
                 "The surfaces with the IRWLS iterates shown" + ("" if steps is None else f" (the first {n_steps})")
                 + " (Navia-Vázquez et al. 2004, Figs. 3a, 3c), and the CE profiles.", figure="usvc_surf_svc"),
            Step("fig_usvc_surf_usvc", call(plot_error_surface, ref("usv"), ref("traj"), stages=(0, 1, 2),
                                            n_steps=n_steps), figure="usvc_surf_usvc")]
    theory = {}
    if one_d.source != "sidebar":
        out += [Step("th_theory", call(np.linspace, ref("svc.th", 0), ref("svc.th", -1), 400)),
                Step("ce_theory", call(theoretical_ce, one_d.source, ref("th_theory")))]
        theory = dict(ce_theory=ref("ce_theory"), th_theory=ref("th_theory"))
    out.append(Step("fig_usvc_ce", call(plot_ce_profiles, [ref("svc"), ref("usv")], **theory,
                                        marks={"SVC": ref("traj.svc", 0), "USVC": ref("traj.usvc", 0)}),
                    figure="usvc_ce"))
    return out


def view_plan(ds, one_d: Settings1D | None = None, *, steps: int | None = None, table1: Table1Settings | None = None,
              kernel: KernelSettings | None = None, map_axes: dict | None = None) -> Plan:
    """The Unbiased SVC page's plan: the sections the page draws.

    Parameters
    ----------
    ds : svmviz.data.Dataset or None
        The sidebar's data set (the plan's input ``ds`` when a section reads it: the kernel section, the
        1-D section on source "sidebar"); its number of features decides the kernel section's maps.
    one_d : Settings1D, optional
        The 1-D section's settings; None draws no 1-D section.
    steps : int, optional
        The IRWLS iterates shown on the error surfaces (default: all).
    table1 : Table1Settings, optional
        The Table 1 study, when shown.
    kernel : KernelSettings, optional
        The kernel section, when drawn (it needs ``ds``).
    map_axes : dict, optional
        For data of more than two features, the arguments of
        :func:`svmviz.figures.plane.compute_map_plane` of the kernel section's maps; None draws no maps
        for such data.

    Returns
    -------
    Plan
        Figures ``fig_usvc_dens`` (a scenario), ``fig_usvc_surf_svc``, ``fig_usvc_surf_usvc``, ``fig_usvc_ce``
        (1-D), ``fig_usvc_t1_fig`` (Table 1), ``fig_usvc_kernel`` (two features or ``map_axes``) and
        ``fig_usvc_size`` (kernel); values ``ce`` (training CE), ``rows`` (Table 1) and ``kc``.

    Raises
    ------
    ValueError
        A section that reads the sidebar's data without them.
    """
    out = []
    if one_d is not None:
        if one_d.source not in ("A", "B", "sidebar"):
            raise ValueError(f"view_plan: the 1-D source must be 'A', 'B' or 'sidebar', got {one_d.source!r}.")
        if one_d.source == "sidebar" and ds is None:
            raise ValueError("view_plan: the 1-D section on the sidebar's data needs a data set.")
        out += _one_d_steps(one_d, steps)
    if table1 is not None:
        out += [Step("res", call(table1_study, table1.scenario, n_trials=int(table1.n_trials),
                                 n_train=int(table1.n_train), n_test=int(table1.n_test), C=float(table1.C),
                                 seed=int(table1.seed)),
                     "Table 1 (Navia-Vázquez et al. 2004): LS, SVC and USVC (s = 2, 4) on independent samples.",
                     cache="usvc_table1", progress="Table 1 study…"),
                Step("rows", call(table1_summary, ref("res"))),
                Step("fig_usvc_t1_fig", call(plot_table1, ref("rows"), table1.scenario), figure="usvc_t1_fig")]
    if kernel is not None:
        if ds is None:
            raise ValueError("view_plan: the kernel section needs a data set.")
        test = {}
        if kernel.test:
            out.append(Step("te", call(fresh_sample, ref("ds"), 2000, seed=int(kernel.seed), role="test"),
                            "2,000 new points from the same law (the test error)."))
            test = dict(X_test=ref("te.X"), y_test=ref("te.y"))
        plane_steps, plane, axes = map_steps(ds.X.shape[1], map_axes)
        out += plane_steps
        out += [Step("fit", call(kernel_comparison, ref("ds.X"), ref("ds.y"), sigma=float(kernel.sigma),
                                 C=float(kernel.C), n_prototypes=int(kernel.R), s=float(kernel.s),
                                 prototypes=kernel.prototypes, seed=int(kernel.seed), **test),
                     f"The kernel USVC with R = {int(kernel.R)} prototypes against the SVM (Navia-Vázquez et al. "
                     "2004, eqs. 23–27, Table 3).", cache="usvc_kernel"),
                Step("kc", call(compute_kernel_comparison, ref("fit"), **({} if plane is None else {"plane": plane})))]
        if axes is not None:
            out.append(Step("fig_usvc_kernel", call(plot_kernel_comparison, ref("kc"),
                                                    class_names=ref("ds.class_names"), **axes),
                            figure="usvc_kernel"))
        out.append(Step("fig_usvc_size", call(plot_machine_size, ref("kc")), figure="usvc_size"))
    return plan(TITLE, inputs_of(out), out)
