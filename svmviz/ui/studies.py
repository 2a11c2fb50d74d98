"""The "Criteria studies" page: ready-made studies run small on the app's Dask cluster, the criteria
compared on the user's own table, or a results folder.

Which criterion picks a good (λ, σ), on which data, how often, at what cost — against k-fold CV?
The page shows a study's distributions over replicates (box and strip plots per data set and
criterion, the published values overlaid), its summary table (median, IQR, win rate against
k-fold CV) and lets the table be downloaded. A ready-made study runs here at a small size (few
replicates, a coarser grid) on the app's embedded Dask cluster — one per server process, started
on the first run — with a progress bar; the full-size study is the command
``svmviz study run <name> --out DIR``, whose folder this page opens. On an uploaded table (its
column roles and class choice from the sidebar), each replicate is a seeded, stratified split of its
rows, and each criterion's pick is judged by its test error against the best grid point's.
"""
from __future__ import annotations

import dataclasses
import hashlib
import io
import os

import numpy as np
import pandas as pd
import streamlit as st

from svmviz.studies import (load_results, load_spec, ready_made_specs, run_study, shared_client, spec_from_dict,
                            spec_to_toml)
from svmviz.studies import storage
from svmviz.studies.engine import default_workers
from svmviz.published import published_table
from svmviz.views import Executor
from svmviz.views.studies import view_plan

from . import _streamlit_compat, charts, code_view, export, page_head
from .data_sidebar import UPLOAD_CHOICE, dataset_sidebar
from .compute import cached_compute
from .errors import show_error
from .progress import StreamlitProgress
from .widgets import control

SOURCES = ("Ready-made study", "Your table", "Open a results folder")
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
    with st.container(horizontal=True, gap="small"):  # Run and Stop side by side, at the left
        run = st.button("Run", type="primary", key="studies_run")
        st.button("Stop", key="studies_stop", help="Stops the run; the finished replicates stay.")
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

# ------------------------------------------------------------------------------------ your table
#: training rows per replicate the page offers at most (each replicate fits the whole grid; exact LOO n times)
MAX_OWN_N = 300
#: exact LOO is offered up to this many training rows (it refits the grid once per row)
MAX_LOO_N = 150
#: rows of an uploaded table the page reads (the test rows of a replicate are all those not trained on)
MAX_OWN_ROWS = 1_000_000
OWN_CRITERIA = {"gacv": "GACV", "xa": "XA (ξα)", "kfold": "5-fold CV", "loo": "exact LOO"}
#: the store of this session's study of its table (one: the newest)
OWN_RESULTS = "studies_own_results"


def own_spec(fname: str, path: str, *, n: int, replicates: int, grid: int, seed: int, label_column: str,
             feature_columns, classes=None, one_vs_rest=None, standardize: bool = True, missing: str = "drop",
             criteria=("gacv", "xa", "kfold")):
    """The study of an uploaded table: one CSV data set at ``path`` (its column roles and class choice)
    and the [svm] section's ``criteria`` on a ``grid`` × ``grid`` (σ, λ) grid, ``replicates``
    stratified splits of ``n`` training rows."""
    stem = os.path.splitext(os.path.basename(fname))[0]
    ds = {"name": "csv", "label": stem or "table", "path": path,
          "n": int(n), "label_column": label_column, "feature_columns": list(feature_columns),
          "standardize": bool(standardize), "missing": missing}
    if classes is not None:
        ds["classes"] = [str(c) for c in classes]
    if one_vs_rest is not None:
        ds["one_vs_rest"] = str(one_vs_rest)
    return spec_from_dict({"name": "own-table", "title": f"Criteria on {stem}", "replicates": int(replicates),
                           "seed": int(seed), "datasets": [ds],
                           "svm": {"criteria": list(criteria), "n_lambda": int(grid), "n_sigma": int(grid), "k": 5}})


def _own_table_controls():
    """The criteria compared on the session's uploaded table (its roles and classes from the sidebar);
    returns the StudyResults of the last run with these settings, or None."""
    ds = dataset_sidebar((), UPLOAD_CHOICE, key="studies", allow_upload=True, n_range=(20, MAX_OWN_ROWS))
    if st.session_state.get("studies_data") != UPLOAD_CHOICE:
        st.info("This study reads your CSV file: choose **Upload CSV…** as the sidebar's Data set (the ready-made "
                "studies cover the papers' data and scikit-learn's shipped sets).")
        return None
    if ds is None:
        return None
    from .session import shared_choice

    fname, content = shared_choice()["upload"]
    counts = np.bincount((np.asarray(ds.y) > 0).astype(int), minlength=2)
    rows = int(ds.X.shape[0])
    if counts.min() < 10:
        show_error(f"The two classes have {counts[0]} and {counts[1]} rows; a study needs at least 10 of each "
                   "(5-fold CV on the training rows, and test rows of both classes). Choose other classes or another "
                   "label column in the sidebar.", what="Too few rows")
        return None
    p = ds.params
    st.markdown(f"**{fname}** — {rows} rows, {ds.X.shape[1]} feature(s) ({', '.join(ds.feature_names)}), "
                f"{ds.class_names[0]} (−1) against {ds.class_names[1]} (+1). Each replicate splits the rows at random "
                "into training and test rows (stratified, seeded); every criterion picks (λ, σ) on the training rows, "
                "and its pick's test error is compared with the best grid point's: the *held-out inefficiency* "
                "(1 = as good as any point of the grid).")
    hi = int(min(MAX_OWN_N, rows - 4))
    lo = int(min(20, hi))
    s1, s2, s3 = st.columns(3)
    n = control(s1.slider, "Training rows per replicate", lo, hi, key="studies_own_n", url="s_n", clamp=True,
                default=int(np.clip(round(rows * 2 / 3), lo, hi)), depends=(fname, rows),
                help=f"Of the {rows} rows; the others are that replicate's test rows.")
    R = control(s2.slider, "Replicates", 2, MAX_APP_REPLICATES, key="studies_own_R", default=3, url="s_oR",
                help="Each replicate is a fresh stratified split of the rows.")
    grid = control(s3.slider, "Grid points per axis (λ and σ)", MIN_GRID, 12, key="studies_own_grid", default=6,
                   url="s_og", help="log10 λ from −5 to −0.5 and log10 σ from −1 to 1, log-spaced.")
    offered = [c for c in OWN_CRITERIA if c != "loo" or n <= MAX_LOO_N]
    crit = control(st.multiselect, "Criteria", offered, key="studies_own_crit", url="s_crit", default=offered,
                   format_func=OWN_CRITERIA.get, depends=n <= MAX_LOO_N,
                   help=f"Exact leave-one-out refits the grid once per training row: offered up to n = {MAX_LOO_N}.")
    if not crit:
        show_error("Choose at least one criterion.", what="No criterion")
        return None
    seed = control(st.number_input, "Seed of the splits", 0, 2**31 - 1, key="studies_own_seed", default=0,
                   url="s_seed", step=1, help="Same seed, same splits.")
    settings = dict(n=int(n), replicates=int(R), grid=int(grid), seed=int(seed), label_column=p["label_column"],
                    feature_columns=tuple(ds.feature_names), classes=p.get("classes"),
                    one_vs_rest=p.get("one_vs_rest"), standardize=bool(p.get("standardize", True)),
                    missing=p.get("missing", "drop"), criteria=tuple(crit))
    key = (hashlib.sha256(content).hexdigest(), repr(sorted(settings.items())))
    st.caption(f"{R} replicates of {n} training and {rows - n} test rows on a {grid} × {grid} (σ, λ) grid, on the "
               "app's Dask cluster. The file is written to a temporary folder for the run and removed after it; the "
               "results stay in this session only.")
    store = st.session_state.setdefault(OWN_RESULTS, {})
    if st.button("Run", type="primary", key="studies_own_run"):
        import tempfile

        bar = StreamlitProgress("Running the study on your table…")
        try:
            with tempfile.TemporaryDirectory(prefix="svmviz-study-") as tmp:
                path = os.path.join(tmp, "table.csv")
                with open(path, "wb") as fh:
                    fh.write(content)
                res = run_study(own_spec(fname, path, **settings), None, client=shared_client(), progress=bar)
        except ValueError as exc:
            show_error(exc, what="Could not run the study")
            return None
        finally:
            bar.done()
        # the spec shown and offered names the file as uploaded: it runs beside it
        d = res.spec.datasets[0]
        res.spec = dataclasses.replace(res.spec, base_dir=None,
                                       datasets=(dataclasses.replace(d, path=os.path.basename(fname)),))
        store.clear()
        store[key] = res
    res = store.get(key)
    if res is None:
        st.info("Press Run to compare the criteria on this table.")
    return res


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
    # the page shows what the view's plan computes (svmviz.views.studies) from the results it holds; its
    # code panel writes the same plan, which loads them from the folder the study's command writes
    ex = Executor({}, known={"results": results})
    plan = view_plan(spec.name, len(ex.value(view_plan(spec.name, 0), "figures")))
    st.dataframe(summary_frame(ex.value(plan, "summary")), hide_index=True, width="stretch")
    notes = pub.drop_duplicates("source")
    if not notes.empty:
        st.caption("Published values (black bars): " + "; ".join(f"{r.source} — {r.note}" for r in
                                                                 notes.itertuples() if r.note) + ".")
    for fig in plan.figures():
        charts.chart(ex.value(plan, fig), key=plan.step(fig).figure, width="stretch")
    d1, d2 = st.columns(2)
    d1.download_button("Download the table (CSV)", export.frame_csv(results.table),
                       file_name=f"{spec.name}.csv", mime="text/csv", key="studies_dl_csv", on_click="ignore")
    buf = io.BytesIO()
    results.table.to_parquet(buf, index=False)
    d2.download_button("Download the table (Parquet)", buf.getvalue(), file_name=f"{spec.name}.parquet",
                       mime="application/octet-stream", key="studies_dl_parquet", on_click="ignore")
    if results.directory:
        root = storage.results_root()
        where = (os.path.relpath(results.directory, root) if storage.is_inside(results.directory, root)
                 else storage.describe_location(results.directory))
        st.caption(f"Results folder: `{where}` (`svmviz study show` / `svmviz study report` read it).")
    code_view.studies(results, plan)


def page() -> None:
    """Criteria studies: many data sets × replicates × criteria, against k-fold CV.

    Nothing in this page's own Dask workers (they import the running page script again)."""
    if _streamlit_compat.spawned_without_server():
        return
    page_head.page_header("studies", (
        "Which criterion picks a good (λ, σ), on which data, how often, at what cost — GACV, XA, XA (Joachims' R²) "
        "and exact LOO against k-fold CV? The papers' studies re-run as distributions over replicates, published "
        "numbers beside, "
        "or the criteria compared on your own table."))
    source = control(st.radio, "Study", SOURCES, key="studies_source", default=SOURCES[0], url="s_source",
                     horizontal=True, label_visibility="collapsed")
    make = {SOURCES[0]: _ready_made_controls, SOURCES[1]: _own_table_controls, SOURCES[2]: _folder_controls}
    results = make[source]()
    if results is not None:
        show_results(results)
