"""The Python code of a view: readable scripts and notebooks that reproduce what an app page shows.

Every page of the app computes its charts from a few settings (the data set, the grid, the selected
point …). The functions here write those settings out as literals in a short script that calls only
the public API (:func:`svmviz.data.make_dataset`, :func:`svmviz.data.dataset_from_csv`, the estimators and
the ``compute_*`` / ``plot_*`` functions of :mod:`svmviz.figures`), one step per cell, so that the
script — or the notebook made of the same cells — draws the page's figures again, outside the app.

A page's script is written from its view's plan (:mod:`svmviz.views`), the steps the page itself
executes, so a setting is part of the code by construction. Nothing here needs Streamlit or a
running app: the documentation can reuse it.

* :class:`Script` — cells (a markdown line and the code of one step); ``Script.python()`` (a
  script in the "percent" cell format Jupyter, VS Code and jupytext read) and ``Script.notebook()``
  (a Jupyter notebook, nbformat 4).
* :class:`DataSource` and :func:`data_source` — where a page's data set comes from (a generator, a
  CSV file) and the cell that loads it.
* :func:`plan_script` — the script of a page whose view is a plan (:mod:`svmviz.views`): one line per
  step, the imports derived from the functions the plan holds (:func:`public_import`).

Deprecated, for one release: the per-page generators ``tuning_script``, ``losses_script``,
``path_script``, ``usvc_script``, ``ivm_script``, ``anova_script``, ``studies_script`` and
``study_command`` (:mod:`svmviz.codegen.pages`); each warns and returns what its replacement,
``plan_script(view_plan(…))`` or :func:`svmviz.views.studies.study_command`, returns.
"""
from __future__ import annotations

from .core import Cell, DataSource, Script, data_cell, data_source, literal
from .pages import (anova_script, ivm_script, losses_script, path_script, studies_script, study_command, tuning_script,
                    usvc_script)
from .plan import plan_script, public_import

__all__ = ["Cell", "Script", "DataSource", "data_source", "data_cell", "literal", "plan_script", "public_import"]
