"""One generator per app page: the page's settings in, the :class:`~svmviz.codegen.core.Script` of its view out."""
from __future__ import annotations

from typing import Sequence

from .core import Cell, Code, DataSource, Script, call, data_cell, expect_fields, literal

IMPORTS = "import numpy as np\n\nimport svmviz\n"


def tuning_script(data: DataSource, setting, grid, *, selected: tuple, keys: Sequence[str], truth: bool,
                  two_d: bool) -> Script:
    """The code of the Tuning criteria page (Wahba, Lin, Lee & Zhang 2001).

    Parameters
    ----------
    data : DataSource
        The page's data set (:func:`svmviz.codegen.data_source`).
    setting : NamedTuple
        The page's ``Setting``: ``nonstandard``, ``C_plus``, ``C_minus``, ``pi_plus``, ``pi_minus``
        (misclassification costs and target-population shares, §5 of the paper).
    grid : NamedTuple
        The page's ``Grid``: ``log_lambda`` and ``log_sigma`` (ranges, log10), ``resolution`` (points
        per axis), ``loo`` (exact leave-one-out).
    selected : (int, int)
        The selected grid point (index of σ, index of λ).
    keys : sequence of str
        The criteria drawn as contour panels, in the page's order.
    truth : bool
        Whether the data know their class probability p(x) (GCKL, MISCLASS and the Bayes curve).
    two_d : bool
        Whether the data have two features (the decision curves are drawn for those only).

    Returns
    -------
    Script
        Figures ``fig_contours`` and, for 2-D data, ``fig_curves``.
    """
    expect_fields(setting, ("nonstandard", "C_plus", "C_minus", "pi_plus", "pi_minus"), "tuning_script")
    expect_fields(grid, ("log_lambda", "log_sigma", "resolution", "loo"), "tuning_script")
    i, j = (int(v) for v in selected)
    cells = [Cell("Imports.", IMPORTS + "from svmviz.figures import tuning as figs\n"
                  "from svmviz.figures.labels import axis_names, feature_scale\n"
                  "from svmviz.tuning import criteria_surface"),
             data_cell(data)]
    if not setting.nonstandard:
        cells.append(Cell("Standard setting: equal misclassification weights L(−1) = L(+1) = 1, Bayes threshold ½.",
                          "L = (1.0, 1.0)\nthreshold = 0.5"))
    elif data.kind == "generated" and data.name == "wahba2001":
        cells.append(Cell("Non-standard setting (Wahba et al. 2001, §5): the generator's weights L(±1) and "
                          "Bayes threshold.", "L = tuple(ds.L)\nthreshold = float(ds.bayes_threshold)"))
    else:
        cells.append(Cell("Non-standard setting (Wahba et al. 2001, §5): weights L(±1) and the Bayes threshold "
                          "from the costs C±, the target shares π± and the sample's share πₛ⁺ of +1.",
                          "pi_s_plus = float(np.mean(ds.y > 0))\n"
                          "L_minus, L_plus, threshold = "
                          + call("svmviz.data.wahba_costs", setting.C_plus, setting.C_minus, setting.pi_plus,
                                 setting.pi_minus, Code("pi_s_plus"))
                          + "\nL = (L_minus, L_plus)"))
    cells.append(Cell(f"The (λ, σ) grid: {grid.resolution} × {grid.resolution} points, log-spaced.",
                      f"lambdas = np.logspace({literal(grid.log_lambda[0])}, {literal(grid.log_lambda[1])}, "
                      f"{grid.resolution})\n"
                      f"sigmas = np.logspace({literal(grid.log_sigma[0])}, {literal(grid.log_sigma[1])}, "
                      f"{grid.resolution})"))
    p_code = "ds.p_true(ds.X)" if truth else "None"
    cells.append(Cell("Every criterion over the grid" + (" (with exact leave-one-out)." if grid.loo else "."),
                      f"p_true = {p_code}  # the true P(y = +1 | x) at the points (simulated data only)\n"
                      + "surf = " + call("criteria_surface", Code("ds.X"), Code("ds.y"), Code("lambdas"),
                                         Code("sigmas"), L=Code("L"), p_true=Code("p_true"), loo=bool(grid.loo))))
    cells.append(Cell("The contour panels; the selected grid point in red.",
                      f"keys = {literal(list(keys))}\n"
                      f"selected = (float(np.log10(lambdas[{j}])), float(np.log10(sigmas[{i}])))  "
                      "# (log10 λ, log10 σ)\n"
                      "fig_contours = figs.plot_contour_panels([figs.compute_contour(surf, k) for k in keys], "
                      "selected=selected)", ("fig_contours",)))
    if two_d:
        cells.append(Cell("The decision curves chosen by each criterion"
                          + (", the Bayes curve" if truth else "") + " and the selected grid point's.",
                          'chosen = {k: surf.best[k] for k in ("gacv", "xa", "misclass", "loo") if k in surf.best}\n'
                          "dc = " + call("figs.compute_decision_curves", Code("surf"), Code("chosen"),
                                         p_true=Code("ds.p_true" if truth else "None"), threshold=Code("threshold"),
                                         selected=(i, j)) + "\n"
                          "fig_curves = figs.plot_decision_curves(dc, feature_names=ds.feature_names, "
                          "class_names=ds.class_names,\n"
                          "                                       axis_titles=axis_names(ds), scale=feature_scale(ds))",
                          ("fig_curves",)))
    if truth:
        cells.append(Cell("Inefficiency: MISCLASS at each criterion's minimizer over its minimum on the grid.",
                          'rows = figs.compute_inefficiency_table(surf, target="misclass")\n'
                          "for r in rows:\n"
                          "    print(f\"{r.criterion:12s} {r.inefficiency:.4f}\")"))
    return Script("Tuning criteria (Wahba, Lin, Lee & Zhang 2001): the view of the app's page", tuple(cells),
                  data.files)
