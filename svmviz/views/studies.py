"""The view of the Criteria studies page: a study's results folder, its summary and its charts."""
from __future__ import annotations

from svmviz.studies import load_results, published_table, summary_table
from svmviz.studies.report import report_figures

from ._plan import Plan, Step, call, plan, ref

TITLE = "Criteria studies: the view of the app's page"


def results_folder(name: str) -> str:
    """Where :func:`study_command` writes the study ``name``'s results: ``results/<name>``.

    Parameters
    ----------
    name : str
        The study's name (its spec file is ``<name>.toml``).

    Returns
    -------
    str
    """
    if not isinstance(name, str) or not name or "/" in name or "\\" in name:
        raise ValueError(f"results_folder: the study's name must be a file name without a folder, got {name!r}.")
    return f"results/{name}"


def study_command(name: str) -> str:
    """The command that runs a study from a shell, beside its spec file.

    Parameters
    ----------
    name : str
        The study's name: its spec file is ``<name>.toml``.

    Returns
    -------
    str
        ``svmviz study run <name>.toml --out results/<name>``.
    """
    return f"svmviz study run {name}.toml --out {results_folder(name)}"


def view_plan(name: str, n_figures: int) -> Plan:
    """The Criteria studies page's plan: load the results folder the command writes, the summary, the charts.

    Parameters
    ----------
    name : str
        The study's name: its spec file is ``<name>.toml``; :func:`study_command` writes its results to
        :func:`results_folder`, which the plan reads (the page holds its results already: it executes
        the plan from ``results`` on, :class:`svmviz.views.Executor`'s ``known``).
    n_figures : int
        The charts the page draws (``svmviz.studies.report.report_figures``, in order).

    Returns
    -------
    Plan
        Values ``results``, ``summary`` and ``figures``; figures ``fig_studies_fig_0`` …
        ``fig_studies_fig_<n − 1>``. No input: the files it needs are the spec file and the folder the
        command writes from it.

    Raises
    ------
    ValueError
        A negative ``n_figures`` or a name with a folder.
    """
    if isinstance(n_figures, bool) or not isinstance(n_figures, int) or n_figures < 0:
        raise ValueError(f"view_plan: n_figures must be a whole number ≥ 0, got {n_figures!r}.")
    steps = [Step("results", call(load_results, results_folder(name)),
                  f"The results of the study: first run it from a shell, beside its spec file `{name}.toml` —\n"
                  f"`{study_command(name)}`"),
             Step("summary", call(summary_table, ref("results.table"),
                                  published=call(published_table, ref("results.spec.published"))),
                  "The summary: median and interquartile range over replicates per data set and criterion, "
                  "published values beside them."),
             Step("figures", call(report_figures, ref("results")),
                  "The page's charts: distributions over replicates per data set and criterion, published values "
                  "overlaid.")]
    steps += [Step(f"fig_studies_fig_{k}", ref("figures", k), figure=f"studies_fig_{k}") for k in range(n_figures)]
    return plan(TITLE, [], steps)
