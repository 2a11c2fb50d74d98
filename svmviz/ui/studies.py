"""The "Criteria studies" page: ready-made studies run small on the app's Dask cluster, or a results folder.

Which criterion picks a good (λ, σ), on which data, how often, at what cost — against k-fold CV?
The page shows a study's distributions over replicates (box and strip plots per data set and
criterion, the published values overlaid), its summary table (median, IQR, win rate against
k-fold CV) and lets the table be downloaded. A ready-made study runs here at a small size (few
replicates, a coarser grid) on the app's embedded Dask cluster — one per server process, started
on the first run — with a progress bar; the full-size study is the command
``svmviz study run <name> --out DIR``, whose folder this page opens.
"""
from __future__ import annotations

import hashlib
import io
import os

import numpy as np
import pandas as pd
import streamlit as st

from svmviz.studies import load_results, load_spec, ready_made_specs, run_study, shared_client, spec_to_toml
from svmviz.studies import storage
from svmviz.studies.engine import default_workers
from svmviz.studies.published import published_table
from svmviz.studies.results import summary_table

from . import charts, code_view, page_head
from .compute import cached_compute
from .errors import show_error
from .progress import StreamlitProgress
from .widgets import control

SOURCES = ("Ready-made study", "Open a results folder")
#: the app's small runs: at most this many replicates and grid points per axis
MAX_APP_REPLICATES = 30
MIN_GRID, MAX_GRID = 4, 30
DEFAULT_SPEC = "wahba2001_standard"


def small_spec(spec, replicates: int, grid: int | None):
    """``spec`` scaled down for a run in the app: ``replicates`` replicates and, for the [svm]
    section, ``grid`` log-spaced points per axis over the same (λ, σ) ranges."""
    changes = {"replicates": int(replicates)}
    d = {}
    if spec.svm is not None and grid is not None:
        lam, sig = np.asarray(spec.svm.lambdas), np.asarray(spec.svm.sigmas)
        d = {"lambdas": [float(v) for v in np.geomspace(lam.min(), lam.max(), min(grid, lam.size))],
             "sigmas": [float(v) for v in np.geomspace(sig.min(), sig.max(), min(grid, sig.size))]}
    out = spec.replace(**changes)
    if d:
        import dataclasses

        out = dataclasses.replace(out, svm=dataclasses.replace(out.svm, lambdas=tuple(d["lambdas"]),
                                                                sigmas=tuple(d["sigmas"])))
    return out


def app_results_dir(spec) -> str:
    """Where the app keeps a small run of ``spec``: in this user's data folder, per svmviz version,
    owner-only (:mod:`svmviz.studies.storage`); a rerun resumes it."""
    digest = hashlib.sha1(spec_to_toml(spec.replace(replicates=1)).encode()).hexdigest()[:10]
    return os.path.join(storage.app_data_root(), f"{spec.name}-{digest}")


def _mtimes(directory: str) -> tuple:
    out = []
    for sub in ("", "tasks"):
        p = os.path.join(directory, sub)
        out.append(os.stat(p).st_mtime_ns if os.path.exists(p) else 0)
    return tuple(out)


def open_results(directory: str, replicates: int | None = None):
    """The results folder's table, of its first ``replicates`` replicates if given (cached until the
    folder changes)."""
    return cached_compute("study-results", (os.path.abspath(directory), _mtimes(directory), replicates),
                          lambda _cb: load_results(directory, replicates=replicates))


def _ready_made_controls():
    specs = ready_made_specs()
    titles = {n: load_spec(p).title or n for n, p in specs.items()}
    names = list(specs)
    name = control(st.selectbox, "Ready-made study", names, key="studies_spec", url="study",
                   default=DEFAULT_SPEC if DEFAULT_SPEC in names else names[0], format_func=lambda n: titles[n])
    spec = load_spec(name)
    st.markdown(spec.description)
    with st.expander("The spec (TOML) — run it in full with the command line"):
        st.code(spec_to_toml(spec), language="toml")
        st.caption(f"`svmviz study run {name} --out results/{name}` runs all {spec.replicates} replicates "
                   "(one task per data set and replicate, on every core, or on a cluster with --scheduler); "
                   "then open that folder here.")
    c1, c2 = st.columns(2)
    R = control(c1.slider, "Replicates", 2, MAX_APP_REPLICATES, key="studies_R", default=4, url="s_R",
                help=f"The spec has {spec.replicates}; a small run in the app shows the shape of the distributions.")
    grid = None
    if spec.svm is not None:
        full = max(len(spec.svm.lambdas), len(spec.svm.sigmas))
        grid = control(c2.slider, "Grid points per axis (λ and σ)", MIN_GRID, min(MAX_GRID, full),
                       key="studies_grid", default=min(10, full), url="s_grid", depends=name,
                       help=f"The spec's grid has {len(spec.svm.sigmas)} σ × {len(spec.svm.lambdas)} λ over the "
                            "same ranges.")
    small = small_spec(spec, R, grid)
    try:
        directory = app_results_dir(small)
    except OSError as exc:
        show_error(exc, what="The app cannot keep study runs")
        return None
    n_workers = default_workers()
    on_grid = "" if small.svm is None else (f", each on a {len(small.svm.sigmas)} × {len(small.svm.lambdas)} grid of "
                                            f"(σ, λ) (the spec's: {len(spec.svm.sigmas)} × {len(spec.svm.lambdas)})")
    st.caption(f"{small.n_tasks} tasks ({len(small.datasets)} data set(s) × {R} replicates{on_grid}) on the app's "
               f"Dask cluster ({n_workers} worker process{'es' if n_workers > 1 else ''}, one thread each). Finished "
               "tasks are saved as they complete: Stop (or any change) keeps them, and Run continues from there. "
               "Seconds are timed warm: each worker first runs the criteria once, untimed, on a tiny problem, so "
               "numba's compilation is not counted.")
    b1, b2, _ = st.columns([1, 1, 4])
    run = b1.button("Run", type="primary", key="studies_run")
    b2.button("Stop", key="studies_stop", help="Stops the run; the finished replicates stay.")
    st.caption(f"Runs made here are kept on the server in its user's data folder "
               f"(`{storage.describe_location(directory)}`), owner-only, for {storage.MAX_AGE_DAYS} days since their "
               f"last change and {storage.MAX_BYTES // 1024**3} GB at most (the oldest go first).")
    if run:
        bar = StreamlitProgress("Running the study…")
        try:
            storage.prune(keep=(directory,))
            run_study(small, directory, client=shared_client(), progress=bar, wait=True)
        except ValueError as exc:
            show_error(exc, what="Could not run the study")
            return None
        finally:
            bar.done()
    if not os.path.exists(os.path.join(directory, "spec.toml")):
        st.info("Press Run to compute this study here (or open a results folder written by the command line).")
        return None
    return open_results(directory, R)


def _folder_controls():
    names = storage.list_result_folders()
    if not names:
        st.info("No results folder is offered by this server yet. On the server, `svmviz study run SPEC --out "
                "results/NAME` (in the folder the app was started from) writes one; `svmviz app --results-root "
                "DIR` offers the results folders under DIR.")
        return None
    name = control(st.selectbox, "Results folder", names, key="studies_dir", default=names[0], url="s_dir",
                   help="The study results folders the server offers (written by `svmviz study run SPEC --out DIR` "
                        "under its results root).")
    try:
        return open_results(storage.result_folder(name))
    except (ValueError, OSError) as exc:
        show_error(str(exc).replace(storage.results_root(), "the results root"), what=f"Could not open {name}")
        return None


def summary_frame(summary: pd.DataFrame) -> pd.DataFrame:
    """The summary table as shown: rounded, with readable column names."""
    if summary.empty:
        return summary
    cols = {"dataset": "data set", "label": "criterion / machine", "replicates": "R",
            "inefficiency_median": "inefficiency median", "inefficiency_q25": "ineff. q25",
            "inefficiency_q75": "ineff. q75", "test_inefficiency_median": "held-out ineff. median",
            "test_inefficiency_q25": "held-out ineff. q25", "test_inefficiency_q75": "held-out ineff. q75",
            "test_error_median": "test error median", "test_error_q25": "test q25",
            "test_error_q75": "test q75", "machine_size_median": "size median",
            "win_vs_baseline_inefficiency": "wins vs k-fold (ineff.)", "win_vs_baseline_test": "wins vs k-fold (test)",
            "bayes_error": "Bayes error", "median_seconds": "seconds", "published": "published"}
    # each kind of inefficiency only where the study measured it (against the truth, or on held-out rows)
    keep = [c for c in cols if not (c.startswith(("inefficiency_", "test_inefficiency_")) and summary[c].isna().all())]
    out = summary[keep].rename(columns=cols)
    num = out.select_dtypes("number").columns
    out[num] = out[num].round(4)
    return out


def show_results(results) -> None:
    from svmviz.studies.report import report_figures

    spec = results.spec
    st.subheader(spec.title or spec.name)
    m = st.columns(4)
    m[0].metric("Tasks done", f"{results.n_done} / {results.n_tasks}")
    m[1].metric("Failed", results.n_failed)
    m[2].metric("Rows", len(results.table))
    m[3].metric("Replicates", int(results.table["replicate"].nunique()) if len(results.table) else 0)
    for note in results.notes:
        st.caption(note[0].upper() + note[1:] + ".")
    for _, e in results.errors.iterrows():
        st.warning(f"{e['dataset']}, replicate {int(e['replicate'])} failed: {e['error']}")
    if results.table.empty:
        st.info("No finished task yet.")
        return
    pub = published_table(spec.published)
    st.markdown("**Summary** — median and interquartile range over replicates; *wins vs k-fold* = the share of "
                "replicates where the criterion does better than k-fold cross-validation (ties count ½).")
    st.dataframe(summary_frame(summary_table(results.table, published=pub)), hide_index=True, width="stretch")
    notes = pub.drop_duplicates("source")
    if not notes.empty:
        st.caption("Published values (black bars): " + "; ".join(f"{r.source} — {r.note}" for r in
                                                                 notes.itertuples() if r.note) + ".")
    figures = report_figures(results)
    for k, fig in enumerate(figures):
        charts.chart(fig, key=f"studies_fig_{k}", width="stretch")
    d1, d2 = st.columns(2)
    d1.download_button("Download the table (CSV)", results.table.to_csv(index=False).encode(),
                       file_name=f"{spec.name}.csv", mime="text/csv", key="studies_dl_csv")
    buf = io.BytesIO()
    results.table.to_parquet(buf, index=False)
    d2.download_button("Download the table (Parquet)", buf.getvalue(), file_name=f"{spec.name}.parquet",
                       mime="application/octet-stream", key="studies_dl_parquet")
    if results.directory:
        root = storage.results_root()
        where = (os.path.relpath(results.directory, root) if storage.is_inside(results.directory, root)
                 else storage.describe_location(results.directory))
        st.caption(f"Results folder: `{where}` (`svmviz study show` / `svmviz study report` read it).")
    code_view.studies(results, len(figures))


def page() -> None:
    """Criteria studies: many data sets × replicates × criteria, against k-fold CV."""
    page_head.page_header("studies", (
        "Which criterion picks a good (λ, σ), on which data, how often, at what cost — GACV, XA, XA_J and exact LOO "
        "against k-fold CV? The papers' studies re-run as distributions over replicates, published numbers beside."))
    source = control(st.radio, "Study", SOURCES, key="studies_source", default=SOURCES[0], url="s_source",
                     horizontal=True, label_visibility="collapsed")
    results = _ready_made_controls() if source == SOURCES[0] else _folder_controls()
    if results is not None:
        show_results(results)
