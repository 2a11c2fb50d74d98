"""One generator per app page: the page's settings in, the :class:`~svmviz.codegen.core.Script` of its view out."""
from __future__ import annotations

from typing import Sequence

import numpy as np

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


def study_command(name: str) -> str:
    """The command that runs a study.

    Parameters
    ----------
    name : str
        The study's name: its spec file is ``<name>.toml``.

    Returns
    -------
    str
        ``svmviz study run <name>.toml --out results/<name>``.
    """
    return f"svmviz study run {name}.toml --out results/{name}"


def studies_script(spec_name: str, n_figures: int) -> Script:
    """The code of the Criteria studies page: load a study's results folder and draw the page's charts.

    Parameters
    ----------
    spec_name : str
        The study's name: its spec file is ``<spec_name>.toml`` and :func:`study_command` writes its
        results to ``results/<spec_name>``, which the script reads.
    n_figures : int
        The charts the page draws (``svmviz.studies.report.report_figures``, in order).

    Returns
    -------
    Script
        Figures ``fig_studies_fig_0`` … ``fig_studies_fig_<n − 1>``; the files it needs are the spec
        file (and the results folder the command writes from it).
    """
    if n_figures < 0:
        raise ValueError(f"studies_script: n_figures must be ≥ 0, got {n_figures}.")
    names = tuple(f"fig_studies_fig_{k}" for k in range(int(n_figures)))
    cells = [Cell("Imports.", "from svmviz.studies import load_results, summary_table\n"
                  "from svmviz.studies.published import published_table\n"
                  "from svmviz.studies.report import report_figures"),
             Cell(f"The results of the study: first run it from a shell, beside its spec file "
                  f"`{spec_name}.toml` —\n`{study_command(spec_name)}`",
                  f"results = load_results({literal(f'results/{spec_name}')})\n"
                  "print(summary_table(results.table, published=published_table(results.spec.published)))"),
             Cell("The page's charts: distributions over replicates per data set and criterion, published values "
                  "overlaid.", "figures = report_figures(results)\n"
                  + "".join(f"{n} = figures[{k}]\n" for k, n in enumerate(names)).rstrip(), names)]
    return Script("Criteria studies: the view of the app's page", tuple(cells), (f"{spec_name}.toml",))


def anova_script(data: DataSource, settings, *, kernel_labels: dict, test_seed: int | None, n_test: int,
                 truth: bool, decomposition: dict | None = None, theta: dict | None = None) -> Script:
    """The code of the Kernels & variable selection page (Wahba 1998, §1.1 eqs. 1.12–1.13, §2).

    Parameters
    ----------
    data : DataSource
        The page's data set.
    settings : NamedTuple
        The page's ``Settings``: ``kernels``, ``base``, ``sigma``, ``sigma_1d``, ``lambdas``, ``loo``.
    kernel_labels : dict
        Label of each kernel choice (the names the fits carry).
    test_seed : int or None
        Seed of the test sample (None: the data have no generator).
    n_test : int
        Size of the test sample.
    truth : bool
        Whether the data know p(x) (MISCLASS).
    decomposition : dict, optional
        The decomposed fit: ``q`` (kernel index), ``machine`` ("svm" or "klr"), ``lam`` (a criterion's
        name, or a λ index chosen by hand), ``measure``, ``pairs`` (interaction ranks shown),
        ``true_effects`` (the known main effects drawn, with ``interaction``).
    theta : dict, optional
        The θ grid when computed: ``coordinate``, ``criterion``, ``scales``.

    Returns
    -------
    Script
        Figures ``fig_anova_curves``, ``fig_anova_imp``, ``fig_anova_main``, ``fig_anova_interactions``,
        ``fig_anova_thgrid``: those the page draws.
    """
    expect_fields(settings, ("kernels", "base", "sigma", "sigma_1d", "lambdas", "loo"), "anova_script")
    s = settings
    kernels = ",\n".join(
        f"    {literal(kernel_labels[k])}: "
        + ('"rbf"' if k == "gaussian" else call("SSANOVAKernel", order=k, base=s.base, sigma=s.sigma_1d))
        for k in s.kernels)
    cells = [Cell("Imports.", IMPORTS + "from svmviz import anova\nfrom svmviz.figures import anova as figs\n"
                  "from svmviz.figures.labels import feature_scale\nfrom svmviz.ivm import KernelLogisticRegression\n"
                  "from svmviz.kernels import SSANOVAKernel"),
             data_cell(data)]
    if test_seed is not None:
        cells.append(Cell(f"{n_test} new points from the same law (the test error).",
                          f"test = ds.test_sample({int(n_test)}, seed={int(test_seed)})"))
    tx, ty = ("test.X", "test.y") if test_seed is not None else ("None", "None")
    cells.append(Cell("Every kernel along λ: the Gaussian on all variables and the SS-ANOVA kernels "
                      "K = Π_α [1 + θ_α R_α] cut after the main effects or the two-factor interactions; "
                      "GACV, XA" + (", exact LOO" if s.loo else "") + (" and MISCLASS." if truth else "."),
                      f"lambdas = np.array({literal(np.asarray(s.lambdas).tolist())})\n"
                      f"kernels = {{\n{kernels},\n}}\n"
                      f"p_true = {'ds.p_true(ds.X)' if truth else 'None'}\n"
                      "kc = " + call("anova.compare_kernels", Code("ds.X"), Code("ds.y"), Code("lambdas"),
                                     Code("kernels"), sigma=s.sigma, p_true=Code("p_true"), loo=False,
                                     X_test=Code(tx), y_test=Code(ty))
                      + ("\nkc = anova.add_exact_loo(kc, ds.y)  # refits every support vector at every λ"
                         if s.loo else "") + "\n"
                      "fig_anova_curves = figs.plot_kernel_curves(figs.compute_kernel_curves(kc))",
                      ("fig_anova_curves",)))
    if decomposition is not None:
        d = decomposition
        lam = (f"kc.curves[q].best[{literal(d['lam'])}]  # that criterion's choice" if isinstance(d["lam"], str)
               else f"{int(d['lam'])}  # chosen by hand")
        if d["machine"] == "svm":
            fit = ("exp = anova.expansion_from_dual(kc.kernels[q], ds.X, ds.y, cur.alphas[j], cur.b[j], lam,\n"
                   "                                 feature_names=ds.feature_names)")
        else:
            fit = ("klr = KernelLogisticRegression(lam=2.0 * ds.X.shape[0] * lam, "
                   "kernel=list(kernels.values())[q]).fit(ds.X, ds.y)\n"
                   "exp = anova.expansion_of(klr, feature_names=ds.feature_names)")
        cells.append(Cell(f"The {'SVM' if d['machine'] == 'svm' else 'KLR'} fit of one SS-ANOVA kernel at one λ, "
                          "split exactly into main effects and interactions; their importances.",
                          f"q = {int(d['q'])}  # {_label_of(kernel_labels, s.kernels, d['q'])}\n"
                          f"j = {lam}\ncur = kc.curves[q]\nlam = float(cur.lambdas[j])\n{fit}\n"
                          f"measure = {literal(d['measure'])}\n"
                          "fig_anova_imp = figs.plot_importance_panels(figs.compute_importances(exp, X=ds.X, "
                          "measure=measure))", ("fig_anova_imp",)))
        truth_code = "truth = None\n"
        if d.get("true_effects"):
            truth_code = ("def truth(a, t):  # the known main effects of the logit\n"
                          "    Xq = np.zeros((t.size, ds.X.shape[1]))\n"
                          "    Xq[:, a] = t\n"
                          f"    return svmviz.data.anova_structure_terms(Xq, {literal(float(d['interaction']))})"
                          ".get((a,), np.zeros(t.size))\n\n\n")
        units = "SVM decision value" if d["machine"] == "svm" else "logit log(p/(1 − p))"
        cells.append(Cell("The main effects f_α(x_α).",
                          truth_code
                          + "me = figs.compute_main_effects(exp, ds.X, ds.y, grid_n=101, truth=truth, measure=measure)\n"
                          f"fig_anova_main = figs.plot_main_effects(me, ylabel={literal(f'f_α ({units})')}, "
                          "class_names=ds.class_names,\n"
                          "                                       standardised=ds.is_standardized, "
                          "scale=feature_scale(ds, range(ds.X.shape[1])))", ("fig_anova_main",)))
        if d.get("pairs"):
            cells.append(Cell("The interactions f_αβ, ranked by importance.",
                              "imp = anova.importances(exp)\n"
                              "pairs = [c for _, c in sorted(((v, c) for v, c in zip(imp.values, imp.components) "
                              "if len(c) == 2),\n"
                              "                              key=lambda t: -t[0])]\n"
                              f"its = [figs.compute_interaction(exp, *pairs[k], ds.X, ds.y, grid_n=41) "
                              f"for k in {literal(list(d['pairs']))}]\n"
                              "fig_anova_interactions = figs.plot_interaction_panels(its, class_names=ds.class_names, "
                              "standardised=ds.is_standardized,\n"
                              "                                                     "
                              "scale=feature_scale(ds, range(ds.X.shape[1])))", ("fig_anova_interactions",)))
    if theta is not None:
        cells.append(Cell("θ_α of one variable times a factor, refitted along λ.",
                          "tg = " + call("anova.theta_lambda_grid", Code("ds.X"), Code("ds.y"), Code("lambdas"),
                                         Code("list(kernels.values())[q]"), Code(f"np.array({literal(list(theta['scales']))})"),
                                         coordinate=int(theta["coordinate"]), p_true=Code("p_true"),
                                         loo=theta["criterion"] == "loo") + "\n"
                          f"fig_anova_thgrid = figs.plot_theta_grid(figs.compute_theta_grid(tg, "
                          f"{literal(theta['criterion'])}, ds.feature_names[{int(theta['coordinate'])}]))",
                          ("fig_anova_thgrid",)))
    return Script("Kernels & variable selection (Wahba 1998): the view of the app's page", tuple(cells), data.files)


def _label_of(labels: dict, kernels, q: int) -> str:
    """The label of the q-th chosen kernel (a comment in the code)."""
    return labels[kernels[q]]
