"""One generator per app page: the page's settings in, the :class:`~svmviz.codegen.core.Script` of its view out."""
from __future__ import annotations

from typing import Sequence

from .core import Cell, Code, DataSource, Script, call, data_cell, expect_fields, literal

IMPORTS = "import numpy as np\n\nimport svmviz\n"


PLANE_IMPORTS = ("from svmviz.figures.labels import plane_axis_titles\n"
                 "from svmviz.figures.plane import compute_map_plane\n")
"""The imports of a script whose map lies on a plane of more than two features."""


def plane_cell(map_axes: dict) -> Cell:
    """The cell that makes ``plane``, the map's plane (:func:`svmviz.figures.plane.compute_map_plane`).

    Parameters
    ----------
    map_axes : dict
        ``kind`` ("features" or "components") and, for two features, ``axes``.

    Returns
    -------
    Cell
    """
    return Cell("The map's plane: the model is fitted on all features; the map shows f "
                + ("on the first two principal components of the standardised features, through their mean."
                   if map_axes["kind"] == "components" else "over two features, the others at their medians."),
                "plane = " + call("compute_map_plane", Code("ds.X"), **map_axes, feature_names=Code("ds.feature_names")))


def losses_script(data: DataSource | None, loss_view, curve_view, *, hinge_keys: Sequence[str] = (),
                  misclass_keys: Sequence[str] = (), truth: bool = False) -> Script:
    """The code of the Loss functions & randomized GACV page (Wahba 1998).

    Parameters
    ----------
    data : DataSource or None
        The page's data set (None: the page shows the losses only).
    loss_view : NamedTuple or None
        The page's ``LossView``: ``names`` (losses), ``a``, ``eps_plus``, ``eps_minus``, ``s_values``,
        ``tau_range``, ``deviance_scaled`` (None: the loss settings were refused, no loss chart).
    curve_view : NamedTuple or None
        The page's ``CurveView``: ``log_sigma``, ``log_lambda``, ``n_lambda``, ``replicates``,
        ``sigma_z``, ``perturbation``, ``z_seed``, ``loo``.
    hinge_keys, misclass_keys : sequence of str
        The criteria of the hinge-scale and of the misclassification panel (the second is drawn when
        not empty).
    truth : bool
        Whether the data know p(x) (GCKL and MISCLASS).

    Returns
    -------
    Script
        Figures ``fig_loss_curves``, ``fig_mu_curves``, ``fig_fstar_curves``, ``fig_gacv_curves`` and
        ``fig_loo_curves``, those the page draws.
    """
    cells = [Cell("Imports.", IMPORTS + "from svmviz import losses\nfrom svmviz.figures import losses as figs")]
    if loss_view is not None:
        expect_fields(loss_view, ("names", "a", "eps_plus", "eps_minus", "s_values", "tau_range", "deviance_scaled"),
                      "losses_script")
        cells.append(Cell("The losses g(τ) of the margin τ = y f (Wahba 1998, §1) and their parameters.",
                          f"names = {literal(tuple(loss_view.names))}\n"
                          f"params = {literal({'a': loss_view.a, 'eps_plus': loss_view.eps_plus, 'eps_minus': loss_view.eps_minus})}\n"
                          f"s_values = {literal(tuple(loss_view.s_values))}  # θ̃ₛ's exponents\n"
                          f"tau_range = {literal(tuple(loss_view.tau_range))}\n"
                          "lc = " + call("figs.compute_loss_curves", Code("names"), tau_range=Code("tau_range"),
                                         params=Code("params"), s_values=Code("s_values"),
                                         deviance_scaled=bool(loss_view.deviance_scaled)) + "\n"
                          "fig_loss_curves = figs.plot_loss_curves(lc)", ("fig_loss_curves",)))
        cells.append(Cell("Prediction functions μ(f) (Wahba 1998, eq. 1.39) and the population minimizers f*(p).",
                          "pc = figs.compute_prediction_functions(names, f_range=tau_range, params=params, "
                          "s_values=s_values)\n"
                          "fig_mu_curves = figs.plot_prediction_functions(pc)\n"
                          "mc = figs.compute_population_minimizers(names, params=params, s_values=s_values)\n"
                          "fig_fstar_curves = figs.plot_population_minimizers(mc)",
                          ("fig_mu_curves", "fig_fstar_curves")))
    if data is not None and curve_view is not None:
        expect_fields(curve_view, ("log_sigma", "log_lambda", "n_lambda", "replicates", "sigma_z", "perturbation",
                                   "z_seed", "loo"), "losses_script")
        cells.append(data_cell(data))
        cells.append(Cell("GACV, randomized GACV" + (" and exact leave-one-out" if curve_view.loo else "")
                          + " of the standard SVM along λ, at one σ.",
                          f"sigma = 10.0 ** {literal(curve_view.log_sigma)}\n"
                          f"lambdas = np.logspace({literal(curve_view.log_lambda[0])}, "
                          f"{literal(curve_view.log_lambda[1])}, {int(curve_view.n_lambda)})\n"
                          f"p_true = {'ds.p_true(ds.X)' if truth else 'None'}\n"
                          "gc = " + call("losses.gacv_curves", Code("ds.X"), Code("ds.y"), Code("lambdas"),
                                         Code("sigma"), p_true=Code("p_true"), loo=bool(curve_view.loo),
                                         ran_gacv_replicates=int(curve_view.replicates),
                                         sigma_z=curve_view.sigma_z, perturbation=curve_view.perturbation,
                                         seed=int(curve_view.z_seed))))
        cells.append(Cell("The hinge-scale criteria; each one's minimizer starred.",
                          f"cp = figs.compute_criteria_panel(gc, {literal(list(hinge_keys))})\n"
                          "fig_gacv_curves = figs.plot_criteria_panel(\n"
                          "    cp, title=f\"Hinge scale: GACV, ranGACV, V₀<br>σ = {gc.sigma:.3g}\", "
                          "ytitle=\"criterion value\")", ("fig_gacv_curves",)))
        if misclass_keys:
            what = " and ".join(w for k, w in (("loo", "exact LOO"), ("misclass", "MISCLASS (truth)"))
                                if k in misclass_keys)
            cells.append(Cell("The misclassification rates along λ.",
                              f"cpm = figs.compute_criteria_panel(gc, {literal(list(misclass_keys))})\n"
                              "fig_loo_curves = figs.plot_criteria_panel(\n"
                              f"    cpm, title=f\"Misclassification:<br>{what}<br>σ = {{gc.sigma:.3g}}\", "
                              "ytitle=\"misclassification rate\")", ("fig_loo_curves",)))
    return Script("Loss functions & randomized GACV (Wahba 1998): the view of the app's page", tuple(cells),
                  data.files if data is not None else ())


def path_script(data: DataSource, settings, *, lam: float, test_seed: int | None, two_d: bool,
                max_lines: int = 400, map_axes: dict | None = None) -> Script:
    """The code of the Regularization path page (Loosli & Canu 2006).

    Parameters
    ----------
    data : DataSource
        The page's data set.
    settings : NamedTuple
        The page's ``Settings``: ``kernel`` ("rbf" or "linear"), ``sigma``, ``x_axis`` ("lambda" or
        "nu"), ``loo`` (leave-one-out along the path, as drawn), ``loo_evals`` (its evaluation points).
    lam : float
        The λ cursor (λ = m ν).
    test_seed : int or None
        The seed of the 2,000-point test sample drawn from the data's law (None: the data have none).
    two_d : bool
        Whether the boundary map is drawn (two features).
    max_lines : int
        Coefficient paths drawn at most (the page's ``MAX_LINES``).
    map_axes : dict, optional
        For data of more than two features, the arguments of
        :func:`svmviz.figures.plane.compute_map_plane` of the boundary map's plane; None draws no
        map for such data.

    Returns
    -------
    Script
        Figures ``fig_path_coefs``, ``fig_path_map`` (2-D data or ``map_axes``), ``fig_path_summary`` and
        ``fig_path_loo_fig`` (with leave-one-out).
    """
    expect_fields(settings, ("kernel", "sigma", "x_axis", "loo", "loo_evals"), "path_script")
    kernel = {"kernel": settings.kernel} | ({"sigma": settings.sigma} if settings.kernel == "rbf" else {})
    on_plane = map_axes is not None and not two_d
    cells = [Cell("Imports.", IMPORTS + "from svmviz import path\nfrom svmviz.figures import path as figs\n"
                  "from svmviz.figures.labels import axis_names, feature_scale"
                  + ("\n" + PLANE_IMPORTS.rstrip("\n") if on_plane else "")),
             data_cell(data),
             Cell("The whole ν-SVM path: α piecewise linear in λ = m ν (Loosli & Canu 2006).",
                  "p = " + call("path.nu_path", Code("ds.X"), Code("ds.y"), **kernel))]
    test = "None"
    if test_seed is not None:
        test = "te"
        cells.append(Cell("2,000 new points from the same law (the test error).",
                          "te = " + call("svmviz.data.fresh_sample", Code("ds"), 2000, seed=int(test_seed),
                                         role="test")))
    tx, ty = ("te.X", "te.y") if test_seed is not None else ("None", "None")
    if settings.loo:
        cells.append(Cell(f"Leave-one-out along the path at {settings.loo_evals} breakpoints, with the automatic "
                          "stopping point.",
                          f"loo = path.loo_path(p, path.default_loo_lambdas(p, {int(settings.loo_evals)}), "
                          f"X_test={tx}, y_test={ty})"))
    cells.append(Cell("The λ cursor and the horizontal axis.",
                      f"lam = {literal(float(lam))}\nx_axis = {literal(settings.x_axis)}\n"
                      "cursor = float(figs.axis_values(p, lam, x_axis))"
                      + ("\nstop = float(figs.axis_values(p, float(loo.lambdas[loo.stop]), x_axis))"
                         if settings.loo else "")))
    cells.append(Cell("The coefficient paths αᵢyᵢ(λ).",
                      f"cp = figs.compute_coef_paths(p, x_axis=x_axis, max_points={int(max_lines)})\n"
                      "fig_path_coefs = figs.plot_coef_paths(cp, cursor=cursor, classes=ds.class_names, X=p.X, "
                      f"stop={'stop' if settings.loo else 'None'})", ("fig_path_coefs",)))
    if two_d:
        cells.append(Cell("The data and the decision boundary at the cursor.",
                          "bm = " + call("figs.compute_boundary_map", Code("p"), Code("lam"), grid_n=70,
                                         X_test=Code(tx), y_test=Code(ty)) + "\n"
                          "fig_path_map = figs.plot_boundary_map(bm, classes=ds.class_names, "
                          "axis_titles=axis_names(ds),\n"
                          "                                      feature_names=ds.feature_names[:2], "
                          "scale=feature_scale(ds))", ("fig_path_map",)))
    elif on_plane:
        cells.append(plane_cell(map_axes))
        cells.append(Cell("The data and the decision boundary at the cursor, on that plane.",
                          "bm = " + call("figs.compute_boundary_map", Code("p"), Code("lam"), grid_n=70,
                                         X_test=Code(tx), y_test=Code(ty), plane=Code("plane")) + "\n"
                          "fig_path_map = figs.plot_boundary_map(\n"
                          "    bm, classes=ds.class_names, axis_titles=plane_axis_titles(ds, plane),\n"
                          "    feature_names=ds.feature_names, scale=feature_scale(ds, range(ds.X.shape[1])))",
                          ("fig_path_map",)))
    cells.append(Cell("b, ρ and the groups E, L, R along the path.",
                      "summ = figs.compute_path_summary(p, x_axis=x_axis)\n"
                      "fig_path_summary = figs.plot_path_summary(summ, cursor=cursor)", ("fig_path_summary",)))
    if settings.loo:
        cells.append(Cell("LOO1, LOO2" + (" and the test error" if test_seed is not None else "")
                          + " along the path.",
                          "lc = figs.compute_loo_curves(p, loo, x_axis=x_axis)\n"
                          "fig_path_loo_fig = figs.plot_loo_curves(lc, cursor=cursor)", ("fig_path_loo_fig",)))
    return Script("Regularization path (Loosli & Canu 2006): the view of the app's page", tuple(cells), data.files)
