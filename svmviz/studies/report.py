"""An HTML report of a study: summary table, distributions with the published values, costs, failures.

One self-contained file (``svmviz study report DIR`` writes ``DIR/report.html``): Plotly's JavaScript
is embedded once, with the first figure, so the page opens offline.
"""
from __future__ import annotations

import html
import os

import numpy as np
import pandas as pd

from ..published import published_table
from .folders import load_results
from .results import StudyResults, summary_table

__all__ = ["report_figures", "build_report", "write_report"]

REPORT_FILE = "report.html"


def report_figures(results: StudyResults) -> list:
    """The study's figures, in report order: inefficiency (against the truth, or on held-out rows where
    the truth is unknown), test error, machine size, threshold, cost."""
    from ..figures import studies as figs

    t = results.table
    pub = published_table(results.spec.published if results.spec is not None else None)
    out = []
    for metric in ("inefficiency", "test_inefficiency", "test_error", "machine_size", "threshold", "tune_error"):
        if metric not in t.columns or not t[metric].notna().any():
            continue
        if metric == "machine_size" and not t["family"].isin(["irwls", "ivm"]).any():
            continue  # numbers of support vectors at each criterion's choice: in the table, not a figure
        out.append(figs.plot_distribution(figs.compute_distribution(t, metric, pub)))
    if (t["family"] == "svm").any() and (t["criterion"] == "gacv").any():
        out.append(figs.plot_costs(figs.compute_costs(t)))
    return out


def _fmt(v, digits=4):
    if isinstance(v, (float, np.floating)):
        return "—" if not np.isfinite(v) else f"{v:.{digits}g}"
    return html.escape(str(v))


def _summary_html(summary: pd.DataFrame) -> str:
    if summary.empty:
        return "<p>No results yet.</p>"
    cols = [("dataset", "data set"), ("label", "criterion / machine"), ("replicates", "R"),
            ("inefficiency_median", "inefficiency median"), ("inefficiency_q25", "q25"), ("inefficiency_q75", "q75"),
            ("test_inefficiency_median", "held-out inefficiency median"), ("test_inefficiency_q25", "q25"),
            ("test_inefficiency_q75", "q75"),
            ("test_error_median", "test error median"), ("test_error_q25", "q25"), ("test_error_q75", "q75"),
            ("machine_size_median", "size median"), ("win_vs_baseline_inefficiency", "wins vs k-fold (ineff.)"),
            ("win_vs_baseline_test", "wins vs k-fold (test)"), ("bayes_error", "Bayes error"),
            ("median_seconds", "seconds"), ("published", "published")]
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h in cols)
    body = []
    for _, r in summary.iterrows():
        body.append("<tr>" + "".join(f"<td>{_fmt(r[c])}</td>" for c, _ in cols) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def build_report(results: StudyResults) -> str:
    """The report of ``results`` as one HTML document (Plotly's JavaScript embedded once)."""
    spec = results.spec
    pub = published_table(spec.published if spec is not None else None)
    summary = summary_table(results.table, published=pub)
    parts = []
    title = (spec.title or spec.name) if spec is not None else "Criteria study"
    parts.append(f"<h1>{html.escape(title)}</h1>")
    if spec is not None and spec.description:
        parts.append(f"<p>{html.escape(spec.description)}</p>")
    parts.append(f"<p>{results.n_done} of {results.n_tasks} tasks (data set × replicate) done, "
                 f"{results.n_failed} failed; {len(results.table)} rows.</p>")
    notes = sorted(set(n for n in pub.get("note", pd.Series(dtype=str)) if n))
    if notes:
        parts.append("<p><b>Published values:</b> " + "; ".join(html.escape(f"{s}: {n}") for s, n in
                     pub.drop_duplicates("source")[["source", "note"]].itertuples(index=False)) + ".</p>")
    parts.append("<h2>Summary</h2>")
    parts.append("<p>Median and interquartile range over replicates; 'wins vs k-fold' = the fraction of "
                 "replicates in which the criterion's value is lower than k-fold cross-validation's, ties "
                 "counting one half.</p>")
    parts.append(_summary_html(summary))
    parts.append("<h2>Figures</h2>")
    for k, fig in enumerate(report_figures(results)):
        parts.append(fig.to_html(full_html=False, include_plotlyjs=(k == 0)))
    if results.n_failed:
        parts.append("<h2>Failed tasks</h2><ul>")
        for _, e in results.errors.iterrows():
            parts.append(f"<li>{html.escape(str(e['dataset']))}, replicate {int(e['replicate'])}: "
                         f"{html.escape(str(e['error']))}</li>")
        parts.append("</ul>")
    style = ("body{font-family:Inter,Helvetica,Arial,sans-serif;margin:2em;} table{border-collapse:collapse;"
             "font-size:13px;} td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;} "
             "td:first-child,td:nth-child(2),td:last-child{text-align:left;}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{style}</style></head><body>{''.join(parts)}</body></html>")


def write_report(directory, path=None) -> str:
    """Write the report of the results folder ``directory`` (default ``DIR/report.html``); returns its path."""
    results = load_results(directory)
    path = os.path.join(os.fspath(directory), REPORT_FILE) if path is None else os.fspath(path)
    text = build_report(results)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
