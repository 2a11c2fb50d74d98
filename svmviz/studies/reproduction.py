"""The reproduction report: every published number of the ready-made studies beside svmviz's own, one table.

``svmviz study reproduce`` runs the studies of :data:`REPRODUCTION_STUDIES` on a Dask cluster (each in
its own folder under the output folder, resumable) and writes :func:`reproduction_table` of them: one row
per published number of :func:`svmviz.published.published_table` (the numbers' one source), with

* the paper, its table or figure, the data set, the quantity and the published value as printed;
* svmviz's value over R replicates: mean ± sd where the paper gives a mean ± sd over its splits
  (Navia-Vázquez et al. 2004), else the median [2.5 %, 97.5 % quantiles] of the replicates with a
  bootstrap 95 % interval of the median, and the share of replicates at or below the paper's single draw
  (Wahba et al. 2001; Zhu & Hastie 2002);
* a verdict: ``within`` when the mean lies within the paper's sd of the paper's mean, or the paper's draw
  (or tied range) within the central 95 % of the replicates, or an exact machine size (USVC's R) equal;
  ``outside`` otherwise; ``no published value`` for a baseline the paper does not report;
* a note, written from the spec, where the paper leaves the protocol unstated or it differs here.

Every number comes from :mod:`svmviz.published` and the results folders; nothing is typed here.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["REPRODUCTION_STUDIES", "REPORT_COLUMNS", "ReproductionStudy", "reproduction_table",
           "format_reproduction", "write_reproduction", "run_reproduction", "COMMITTED_DIR"]

#: committed results of the last full run (results.parquet and spec.toml of each study, and the table)
COMMITTED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reproduction_results")
TABLE_FILE = "reproduction.parquet"
MARKDOWN_FILE = "reproduction.md"

#: central quantiles of the replicates shown for a one-draw published value, and the bootstrap level
QUANTILES = (0.025, 0.975)
N_BOOTSTRAP = 2000
BOOTSTRAP_SEED = 20011


@dataclass(frozen=True)
class ReproductionStudy:
    """One ready-made study of the report.

    Attributes
    ----------
    spec : str
        The ready-made spec's name (``svmviz study list``), also its folder under the output folder.
    paper : str
        The paper, as the report names it.
    baselines : tuple of (dataset_name, criterion, metric)
        Rows the report adds without a published value (a criterion the paper does not report).
    without : tuple of str
        Criteria of the spec's [svm] section left out of the run (none of them has a published number).
    notes : tuple of ((dataset_name, criterion, metric), text)
        Why a row is where it is, where the spec cannot say it (a measured explanation), appended to the
        row's note.
    """

    spec: str
    paper: str
    baselines: tuple = ()
    without: tuple = ()
    notes: tuple = ()

    def study_spec(self):
        """The ready-made spec, less the criteria of ``without``."""
        import dataclasses

        from .spec import load_spec, ready_made_path

        spec = load_spec(ready_made_path(self.spec))
        if self.without and spec.svm is not None:
            crit = tuple(c for c in spec.svm.criteria if c not in self.without)
            spec = dataclasses.replace(spec, svm=dataclasses.replace(spec.svm, criteria=crit))
        return spec


REPRODUCTION_STUDIES = (
    ReproductionStudy("navia2004_table1", "Navia-Vázquez et al. 2004"),
    ReproductionStudy("navia2004_linear", "Navia-Vázquez et al. 2004"),
    ReproductionStudy("navia2004_kernel", "Navia-Vázquez et al. 2004", notes=(
        (("waveform", "kfold", "test_error"),
         "the gap to the paper is the tuning on 400 points and the training size, not the solver: on "
         "replicates 0–3 scikit-learn's SVC at the chosen (C = 1/(2nλ), γ = 1/(2σ²)) errs exactly as svmviz "
         "and its 5-fold CV on the same folds picks the same point, while the grid's best point errs 9.14 % "
         "against the pick's 10.17 %; SVC at the paper's n = 4000 errs 8.3 %"),)),
    # exact leave-one-out (200 refits per grid point) is 96 % of a Wahba task's time and has no published number
    ReproductionStudy("wahba2001_standard", "Wahba et al. 2001", (("wahba2001", "kfold", "inefficiency"),), ("loo",)),
    ReproductionStudy("wahba2001_nonstandard", "Wahba et al. 2001", (("wahba2001", "kfold", "inefficiency"),),
                      ("loo",)),
    ReproductionStudy("zhu_hastie2002", "Zhu & Hastie 2002"),
    ReproductionStudy("zhu_hastie2002_fig4", "Zhu & Hastie 2002"),
)

REPORT_COLUMNS = ["paper", "table_figure", "dataset", "method", "quantity", "published", "svmviz", "R", "verdict",
                  "note", "study", "metric", "published_value", "published_sd", "published_low", "published_high",
                  "mean", "sd", "median", "q_low", "q_high", "median_ci_low", "median_ci_high", "share_at_or_below"]

_QUANTITY = {"test_error": "test CE", "threshold": "Th = −b/w", "machine_size": "machine size",
             "inefficiency": "inefficiency", "tune_error": "tuning error", "lam": "λ"}
#: metrics given in % by the papers (fractions in the results and in svmviz.published)
_PERCENT = {"test_error"}


def _fmt(v: float, metric: str, sd: bool = False) -> str:
    if not np.isfinite(v):
        return "—"
    if metric in _PERCENT:
        return f"{100 * v:.2f}%" if not sd else f"{100 * v:.2f}"
    if metric == "machine_size":
        return f"{v:.1f}" if sd or v != round(v) else f"{int(round(v))}"
    return f"{v:.4g}"


def _median_interval(x: np.ndarray) -> tuple[float, float]:
    """Percentile bootstrap 95 % interval of the median of ``x`` (fixed seed)."""
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    idx = rng.integers(0, x.size, size=(N_BOOTSTRAP, x.size))
    meds = np.median(x[idx], axis=1)
    return float(np.quantile(meds, 0.025)), float(np.quantile(meds, 0.975))


def _table_figure(source: str) -> str:
    return source.split(", ", 1)[1] if ", " in source else source


def _protocol_note(spec, dataset_name: str, criterion: str, metric: str, pub_note: str, one_draw: bool) -> str:
    """What the paper leaves unstated or what differs here, from the spec's own numbers."""
    ds = next((d for d in spec.datasets if d.name == dataset_name), None)
    parts = []
    if ds is not None:
        n_test = ds.test_size or spec.test_size
        from .tasks import SHIPPED

        test = "the other rows held out" if dataset_name in SHIPPED else f"{n_test} fresh test points"
        parts.append(f"n = {ds.n} training, {test}")
    if one_draw:
        parts.append(f"paper: {pub_note}; share = replicates at or below the paper's value")
    elif pub_note:
        parts.append(f"paper: {pub_note}")
    if not pub_note:
        parts.append("not reported by the paper: the baseline of the criteria above")
    if metric == "machine_size" and criterion.startswith("USVC") and ds is not None and ds.n_prototypes is not None:
        parts.append("USVC's R is set to the paper's, not chosen")
    return "; ".join(parts)


def _rows_for(study: ReproductionStudy, results, pub: pd.DataFrame) -> list[dict]:
    spec = results.spec
    table = results.table
    rows = []
    entries = [dict(p) for _, p in pub.iterrows()]
    for ds, crit, metric in study.baselines:
        entries.append(dict(dataset_name=ds, criterion=crit, metric=metric, value=np.nan, low=np.nan, high=np.nan,
                            sd=np.nan, text="", source=pub["source"].iloc[0] if len(pub) else "", note=""))
    for p in entries:
        ds, crit, metric = p["dataset_name"], p["criterion"], p["metric"]
        sub = table[(table["dataset_name"] == ds) & (table["criterion"] == crit)] if len(table) else table
        x = (pd.to_numeric(sub[metric], errors="coerce").astype(float).dropna().to_numpy()
             if metric in getattr(sub, "columns", ()) else np.array([]))
        label = sub["label"].iloc[0] if len(sub) else crit
        value, sd_pub = float(p["value"]), float(p["sd"])
        low = float(p["low"]) if np.isfinite(p["low"]) else value
        high = float(p["high"]) if np.isfinite(p["high"]) else value
        published = np.isfinite(value)
        # USVC's machine size is its number of prototypes R, which the spec sets to the paper's
        exact_size = (published and metric == "machine_size" and not np.isfinite(sd_pub) and len(sub)
                      and bool((sub["family"] == "irwls").all()))
        one_draw = published and not np.isfinite(sd_pub) and not exact_size
        r = dict(paper=study.paper, table_figure=_table_figure(p["source"]), dataset=ds, method=label,
                 quantity=_QUANTITY.get(metric, metric), published=p["text"] or "—", R=int(x.size), study=study.spec,
                 metric=metric, published_value=value, published_sd=sd_pub, published_low=low, published_high=high,
                 mean=np.nan, sd=np.nan, median=np.nan, q_low=np.nan, q_high=np.nan, median_ci_low=np.nan,
                 median_ci_high=np.nan, share_at_or_below=np.nan,
                 note="; ".join([_protocol_note(spec, ds, crit, metric, p["note"], one_draw)]
                                + [t for key, t in study.notes if key == (ds, crit, metric)]))
        if x.size == 0:
            r.update(svmviz="—", verdict="not run")
            rows.append(r)
            continue
        r["mean"], r["median"] = float(x.mean()), float(np.median(x))
        r["sd"] = float(x.std(ddof=1)) if x.size > 1 else np.nan
        r["q_low"], r["q_high"] = (float(q) for q in np.quantile(x, QUANTILES))
        r["median_ci_low"], r["median_ci_high"] = _median_interval(x)
        if published:
            r["share_at_or_below"] = float(np.mean(x <= high))
        if published and np.isfinite(sd_pub):  # the paper's mean ± sd over its splits
            r["svmviz"] = f"{_fmt(r['mean'], metric)} ± {_fmt(r['sd'], metric, sd=True)}"
            r["verdict"] = "within" if abs(r["mean"] - value) <= sd_pub else "outside"
        elif exact_size:  # USVC's number of prototypes: the paper's R, fixed
            r["svmviz"] = f"{_fmt(r['median'], metric)} [{_fmt(r['q_low'], metric)}, {_fmt(r['q_high'], metric)}]"
            r["verdict"] = "within" if np.all(x == value) else "outside"
        else:  # one draw in the paper (or none): the distribution over replicates
            r["svmviz"] = (f"{_fmt(r['median'], metric)} [{_fmt(r['q_low'], metric)}, {_fmt(r['q_high'], metric)}]; "
                           f"median CI [{_fmt(r['median_ci_low'], metric)}, {_fmt(r['median_ci_high'], metric)}]")
            if published:
                r["svmviz"] += f"; share ≤ paper {r['share_at_or_below']:.2f}"
                r["verdict"] = "within" if (high >= r["q_low"] and low <= r["q_high"]) else "outside"
            else:
                r["verdict"] = "no published value"
        rows.append(r)
    return rows


def reproduction_table(directory=None, studies=REPRODUCTION_STUDIES) -> pd.DataFrame:
    """The reproduction table of the results folders under ``directory`` (one folder per study).

    Parameters
    ----------
    directory : str or os.PathLike, optional
        The folder holding ``<spec name>/results.parquet`` for each study (``svmviz study reproduce
        --out DIR``); default: the committed results (:data:`COMMITTED_DIR`). A missing study gives
        its rows the verdict ``not run``.
    studies : sequence of ReproductionStudy, default REPRODUCTION_STUDIES

    Returns
    -------
    pandas.DataFrame
        One row per published number (and per baseline row), columns :data:`REPORT_COLUMNS`: the text
        columns paper … note, then the numbers behind them (published value, sd, range; svmviz's mean,
        sd, median, central 95 % quantiles, bootstrap interval of the median, share of replicates at or
        below the paper's value).

    Examples
    --------
    >>> from svmviz.studies.reproduction import reproduction_table
    >>> t = reproduction_table()
    >>> set(t["verdict"]) <= {"within", "outside", "no published value", "not run"}
    True
    """
    from ..published import published_table
    from .folders import TASKS_DIR, load_results
    from .results import RESULTS_FILE, SPEC_FILE, StudyResults, read_folder_spec, read_table

    base = COMMITTED_DIR if directory is None else os.fspath(directory)
    rows = []
    for study in studies:
        if not isinstance(study, ReproductionStudy):
            raise TypeError(f"studies must be ReproductionStudy objects; got {type(study).__name__}.")
        folder = os.path.join(base, study.spec)
        if os.path.isfile(os.path.join(folder, RESULTS_FILE)) and not os.path.isdir(os.path.join(folder, TASKS_DIR)):
            # a committed folder (results, errors and spec, no task files): its table, whatever the files'
            # modification times after a checkout (load_results would prefer task files newer than the table)
            results = StudyResults(read_table(os.path.join(folder, RESULTS_FILE)), pd.DataFrame(),
                                   read_folder_spec(os.path.join(folder, SPEC_FILE))[0], folder)
        elif os.path.isfile(os.path.join(folder, SPEC_FILE)):
            results = load_results(folder)  # a run's folder, finished or interrupted (its saved tasks)
        else:
            from .results import rows_to_frame

            results = StudyResults(rows_to_frame([]), pd.DataFrame(), study.study_spec())
        rows.extend(_rows_for(study, results, published_table(results.spec.published)))
    return pd.DataFrame(rows, columns=REPORT_COLUMNS)


def format_reproduction(table: pd.DataFrame) -> str:
    """The report's text columns as a Markdown table (paper … note)."""
    cols = REPORT_COLUMNS[:REPORT_COLUMNS.index("note") + 1]
    head = ["paper", "table/figure", "data set", "method", "quantity", "published", "svmviz", "R", "verdict", "note"]

    def cell(v) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for _, r in table[cols].iterrows():
        lines.append("| " + " | ".join(cell(r[c]) for c in cols) + " |")
    return "\n".join(lines)


def write_reproduction(directory, studies=REPRODUCTION_STUDIES) -> pd.DataFrame:
    """Build the table of ``directory`` and write it there: ``reproduction.parquet`` and ``reproduction.md``."""
    table = reproduction_table(directory, studies)
    d = os.fspath(directory)
    table.to_parquet(os.path.join(d, TABLE_FILE), index=False)
    with open(os.path.join(d, MARKDOWN_FILE), "w", encoding="utf-8") as fh:
        fh.write(format_reproduction(table) + "\n")
    return table


def run_reproduction(out, *, scheduler: str | None = None, workers: int | None = None, replicates: int | None = None,
                     progress=None, studies=REPRODUCTION_STUDIES, client=None) -> pd.DataFrame:
    """Run (or resume) every study of the report on one Dask cluster, then write the table in ``out``.

    Parameters
    ----------
    out : str or os.PathLike
        Output folder; study ``s`` runs in ``out/s`` (resumed when it holds that study's tasks).
    scheduler : str, optional
        Address of an existing Dask scheduler; default: an embedded LocalCluster of ``workers`` processes.
    workers : int, optional
        Worker processes of the embedded cluster (default: one per core).
    replicates : int, optional
        R for every study instead of the specs' own (a smaller R reuses the first R saved tasks).
    progress : callable(study, done, total, message), optional
    studies : sequence of ReproductionStudy, default REPRODUCTION_STUDIES
    client : distributed.Client, optional
        Use this client (left running).

    Returns
    -------
    pandas.DataFrame
        :func:`reproduction_table` of ``out``.
    """
    from distributed import Client

    from .engine import StudyWorkerSetup, _local_cluster, _numba_cache_dir, check_scheduler_address, default_workers
    from .engine import run_study

    if replicates is not None and (isinstance(replicates, bool) or not isinstance(replicates, (int, np.integer))
                                   or replicates < 1):
        raise ValueError(f"replicates must be an integer ≥ 1; got {replicates!r}.")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1):
        raise ValueError(f"workers must be an integer ≥ 1; got {workers!r}.")
    out = os.fspath(out)
    os.makedirs(out, exist_ok=True)
    cluster = None
    own = client is None
    if own:
        if scheduler is not None:
            client = Client(check_scheduler_address(scheduler), set_as_default=False)
        else:
            cluster = _local_cluster(workers or default_workers())
            client = Client(cluster, set_as_default=False)
        client.register_plugin(StudyWorkerSetup(_numba_cache_dir()), name=StudyWorkerSetup.name)
    try:
        for study in studies:
            cb = None if progress is None else (lambda d, t, m, _s=study.spec: progress(_s, d, t, m))
            run_study(study.study_spec(), os.path.join(out, study.spec), client=client, replicates=replicates,
                      progress=cb)
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
    return write_reproduction(out, studies)
