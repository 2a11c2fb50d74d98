"""Running a study: one task per (data set, replicate), on Dask, resumable, in a results folder.

Where the tasks run:

* ``workers=N`` (default: one per core): an embedded ``distributed.LocalCluster`` of N worker
  processes with one thread each (the numba kernels already use a core each; a thread pool inside a
  worker would oversubscribe the machine), sharing the client's numba cache folder;
* ``scheduler="tcp://host:8786"`` — or Dask's usual ``DASK_SCHEDULER_ADDRESS`` environment
  variable — an existing cluster; each worker is set up once (numba's cache folder) by a worker
  plugin, and runs each task on one thread;
* ``workers=0``: in this process, one task after the other (the reference the others must equal).

The results folder holds ``spec.toml`` (the spec, as run, and the ``[provenance]`` of the run),
``tasks/<task>.parquet`` (the rows of each finished task, written by the client as soon as the task
completes, with the record of what it was computed from: :mod:`svmviz.studies.provenance`),
``tasks/<task>.error.json`` (a failed task's error and traceback), and, at the end of a run,
``results.parquet`` (the tidy table) and ``errors.parquet``. A run restarted with the same spec (more
replicates are fine) computes only the tasks that have no result yet — failed ones are tried again.
A saved task counts only if its record names this spec, data set, replicate and seed; a folder holding
another study's task files, or tasks computed by other versions of svmviz, numba, numpy or
scikit-learn, is refused (the latter unless ``allow_mixed_versions=True``). One run writes a folder at a
time: ``DIR/run.lock`` (``svmviz.studies.lock``) names it, and a second run is refused or waits
(``wait=True``). Tasks cut off by a shutdown of their cluster are counted as cancelled, not failed. A task that raises is reported and
loses nothing else; a worker that dies has its tasks rescheduled by Dask. Every task derives its
random draws from its own seeds (:func:`svmviz.studies.tasks.task_seeds`), so the table does not
depend on which worker computed what, nor on how many there were.
"""
from __future__ import annotations

import atexit
import dataclasses
import logging
import os
import threading
import time
import traceback
import uuid
from typing import Callable

import numpy as np
import pandas as pd

from .folders import TASKS_DIR, _paths, _read_task, _record_mismatch, _slug, _tasks, collect_results, \
    first_replicates, task_id
from .lock import FolderLock
from .provenance import RESUMABLE_CHANGES, describe_versions, read_parquet_record, spec_digest, task_record, \
    versions_of, write_parquet
from .provenance import provenance as _provenance
from .results import (ERROR_COLUMNS, ERRORS_FILE, RESULTS_FILE, SPEC_FILE, StudyResults, read_folder_spec,
                      rows_to_frame, sort_table, stored_table, write_json)
from .spec import SpecError, StudySpec, load_spec, spec_from_dict, spec_to_dict, spec_to_toml

__all__ = ["run_study", "collect_results", "task_id", "check_spec_data", "resolve_csv", "file_sha256", "StudyWorkerSetup", "shared_client",
           "close_shared_client", "default_workers", "monte_carlo_study"]

def _comparable_dict(spec: StudySpec) -> dict:
    d = spec_to_dict(spec)
    for k in RESUMABLE_CHANGES:
        d.pop(k, None)
    return d


def _absolute_csv_paths(spec: StudySpec) -> StudySpec:
    """The spec with CSV paths made absolute (the copy in the results folder must find them)."""
    ds = []
    for d in spec.datasets:
        if d.name == "csv" and d.path and not os.path.isabs(d.path):
            d = dataclasses.replace(d, path=os.path.abspath(os.path.join(spec.base_dir or ".", d.path)))
        ds.append(d)
    return dataclasses.replace(spec, datasets=tuple(ds))


def _prepare_directory(directory: str, spec: StudySpec) -> tuple[dict | None, int]:
    """Create or check the results folder; returns the provenance stored in its spec.toml (None: new)
    and the number of replicates that spec.toml names (0: new)."""
    os.makedirs(os.path.join(directory, TASKS_DIR), exist_ok=True)
    path = os.path.join(directory, SPEC_FILE)
    if not os.path.exists(path):
        return None, 0
    try:
        old, prov = read_folder_spec(path)
    except SpecError as exc:
        raise ValueError(f"{directory!r} holds a spec.toml that cannot be read ({exc}); choose another "
                         "results folder.") from None
    for i, (a, b) in enumerate(zip(old.datasets, spec.datasets)):
        if a.name == b.name == "csv" and a.sha256 is not None and a.sha256 != b.sha256:
            raise ValueError(f"{directory!r} holds results computed from {a.path} (SHA-256 {a.sha256}); {b.path} has "
                             f"SHA-256 {b.sha256} now: the file has changed since, so the saved replicates would "
                             "mix two data sets. Resume is refused: restore that file, or run into another results "
                             "folder.")
    a, b = _comparable_dict(old), _comparable_dict(spec)
    if a != b:
        raise ValueError(f"{directory!r} holds the results of a different study ({old.name!r}, or the same name "
                         f"with other data sets, grid, criteria or seed: {_first_difference(a, b)}); choose another "
                         "results folder, or rerun with the spec stored there to resume it.")
    return prov, old.replicates


def _first_difference(old, new, where: str = "") -> str:
    """``"datasets[0].feature_columns is ['a', 'b'] there, ['a'] here"``: the first key whose values differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        for k in list(old) + [k for k in new if k not in old]:
            if old.get(k) != new.get(k):
                return _first_difference(old.get(k), new.get(k), f"{where}.{k}" if where else str(k))
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for i, (x, y) in enumerate(zip(old, new)):
            if x != y:
                return _first_difference(x, y, f"{where}[{i}]")
    return f"{where or 'the spec'} is {old!r} there, {new!r} here"


def _write_folder_spec(directory: str, spec: StudySpec, prov: dict, task_versions: list[dict]) -> None:
    """spec.toml: the spec, then ``[provenance]`` (this run's) with the versions of the tasks in the folder."""
    from ._spec_write import _toml_value

    lines = ["", "# What computed these results (svmviz.studies.provenance); not part of the spec.", "[provenance]"]
    lines += [f"{k.replace('-', '_')} = {_toml_value(v if isinstance(v, bool) else str(v))}" for k, v in prov.items()]
    lines.append(f"task_versions = {_toml_value([describe_versions(v) for v in task_versions])}")
    path = os.path.join(directory, SPEC_FILE)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(spec_to_toml(spec) + "\n".join(lines) + "\n")
    os.replace(tmp, path)


def _check_saved_tasks(directory: str, spec: StudySpec, stored_prov: dict | None, now: dict,
                       allow_mixed: bool) -> tuple[set, list[dict], list[str]]:
    """The saved tasks of ``spec`` in ``directory`` that may be reused, the distinct versions behind
    them, and the task files that cannot be read as results tables (cut short, corrupt or foreign:
    their tasks are computed again).

    Raises ValueError for a task file of another study or task (or one without a record), and for
    tasks computed by other versions than ``now``'s unless ``allow_mixed``.
    """
    reusable, versions, where, unreadable = set(), [], {}, []
    if stored_prov is not None:
        v = versions_of({k.replace("_", "-"): x for k, x in stored_prov.items()})
        versions.append(v)
        where[describe_versions(v)] = os.path.join(directory, SPEC_FILE)
    for i, r in _tasks(spec):
        res, _ = _paths(directory, task_id(spec, i, r))
        if not os.path.exists(res):
            continue
        if _read_task(res) is None:
            unreadable.append(res)
            continue
        record = read_parquet_record(res)
        if record is None or "task" not in record:
            raise ValueError(f"{res!r} holds rows without a record of the spec, task and seed they were computed "
                             "from (written by an older svmviz, or by something else); it cannot be resumed safely. "
                             "Choose another results folder (or remove that folder's tasks).")
        why = _record_mismatch(record, spec, i, r)
        if why is not None:
            raise ValueError(f"{res!r} is not task {task_id(spec, i, r)} of the study {spec.name!r}: {why}. Choose "
                             "another results folder; results of different studies are never mixed.")
        v = versions_of(record.get("provenance", {}))
        if v not in versions:
            versions.append(v)
            where[describe_versions(v)] = res
        reusable.add((i, r))
    cur = versions_of(now)
    other = [v for v in versions if v != cur]
    if other and not allow_mixed:
        old = describe_versions(other[0])
        raise ValueError(f"{directory!r} holds results computed with {old} (e.g. {where[old]}); this run would add "
                         f"results of {describe_versions(cur)}. Resume with those versions, choose another "
                         "results folder, or mix them knowingly (svmviz study run --allow-mixed-versions, "
                         "run_study(..., allow_mixed_versions=True)).")
    if cur not in versions:
        versions.append(cur)
    return reusable, versions, unreadable


# ------------------------------------------------------------------------------------ the task wrapper
def _run_task_safe(spec: StudySpec, index: int, replicate: int, n_threads, csv_arrays):
    """Run one task; an exception becomes an error record (the run goes on)."""
    from .tasks import run_task

    t0 = time.perf_counter()
    try:
        table = run_task(spec, index, replicate, n_threads=n_threads, csv_arrays=csv_arrays)
        table["task_seconds"] = elapsed = time.perf_counter() - t0
        return "ok", table, None, elapsed
    except Exception as exc:  # noqa: BLE001 — reported per task, with its traceback
        interrupt = _interrupt_inside(exc)
        if interrupt is not None:
            raise interrupt from exc
        return "error", f"{type(exc).__name__}: {exc}", traceback.format_exc(), time.perf_counter() - t0


def _interrupt_inside(exc: BaseException):
    """The ``KeyboardInterrupt`` an exception wraps, or None.

    Ctrl-C while numba's dispatcher is calling a compiled function can surface as
    ``SystemError: CPUDispatcher(…) returned a result with an exception set`` whose cause is the
    ``KeyboardInterrupt`` (seen at 3 of 40 SIGINTs on ``svmviz study run --workers 0``). Recorded
    as a task failure, it swallowed the Ctrl-C: the run went on and reported a failed task.
    """
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def file_sha256(path: str) -> str:
    """SHA-256 of a file's bytes (64 hexadecimal digits)."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _csv_path(spec: StudySpec, d) -> str:
    return d.path if os.path.isabs(d.path) else os.path.join(spec.base_dir or ".", d.path)


def resolve_csv(spec: StudySpec) -> tuple[StudySpec, dict]:
    """Load the CSV data sets of ``spec`` once (by the client) and record what they were.

    Each CSV data set of the returned spec names its file's SHA-256, its label column and its
    feature columns as loaded (the column roles), so that the results folder says what the numbers
    were computed from, and a later run on a changed file is refused.

    Parameters
    ----------
    spec : StudySpec

    Returns
    -------
    (StudySpec, dict)
        The spec with the CSV data sets' ``sha256``, ``label_column`` and ``feature_columns`` filled
        in, and ``{index: (X, y ±1, classes, feature names)}``.

    Raises
    ------
    SpecError
        A file whose SHA-256 differs from the one the spec records, a file the loader refuses, or
        one with more than two classes and no class choice.
    """
    from .. import data as _data

    out, datasets = {}, []
    for i, d in enumerate(spec.datasets):
        if d.name != "csv":
            datasets.append(d)
            continue
        where = f"datasets[{i}] ({d.label})"
        path = _csv_path(spec, d)
        digest = file_sha256(path)
        if d.sha256 is not None and d.sha256 != digest:
            raise SpecError(f"{where}: {path} has changed since the spec recorded it: its SHA-256 is {digest}, the "
                            f"spec's sha256 is {d.sha256}. Restore the file the study was run on, or remove sha256 "
                            "from the spec and run on the file as it is now, into another results folder.")
        kwargs = {"label_column": d.label_column, "standardize": False, "missing": d.missing}
        for key in ("feature_columns", "classes", "one_vs_rest"):
            if getattr(d, key) is not None:
                kwargs[key] = getattr(d, key)
        try:
            ds = _data.dataset_from_csv(path, **kwargs)
        except ValueError as exc:
            raise SpecError(f"{where}: {exc}") from None
        if ds.is_multiclass:
            raise SpecError(f"{where}: the file has {ds.n_classes} classes ({', '.join(map(str, ds.classes))}); the "
                            "criteria compare two. Choose two of them (classes = [\"A\", \"B\"]) or one against the "
                            "rest (one_vs_rest = \"A\").")
        label_column = d.label_column if d.label_column is not None else _data.csv_header(path)[-1]
        datasets.append(dataclasses.replace(d, sha256=digest, label_column=label_column,
                                            feature_columns=tuple(ds.feature_names)))
        out[i] = (ds.X, ds.y, tuple(ds.classes), tuple(ds.feature_names))
    return dataclasses.replace(spec, datasets=tuple(datasets)), out


def _load_csv(spec: StudySpec) -> dict:
    """The CSV data sets of ``spec`` loaded once by the client: index -> (X, y ±1, classes, names)."""
    return resolve_csv(spec)[1]


def check_spec_data(spec: StudySpec, csv: dict | None = None) -> None:
    """Check what only the data can tell, before any task is sent: draw replicate 0 of every data set.

    Raises
    ------
    SpecError
        A data set that cannot be drawn with its parameters, is not binary, has no test set, has no
        truth for GCKL/MISCLASS, too few points per class for the folds, or too few for R prototypes.
    """
    from .tasks import SHIPPED, make_task_data

    csv = _load_csv(spec) if csv is None else csv
    for i, d in enumerate(spec.datasets):
        where = f"datasets[{i}] ({d.label})"
        try:
            td = make_task_data(spec, i, 0, csv.get(i))
        except (SpecError, ValueError) as exc:
            raise SpecError(f"{where}: {exc}") from None
        if td.X_test is None:
            hint = (f"use n below its {td.train.params.get('n_rows')} rows so that the others are held out"
                    if d.name in SHIPPED else "it has no test sample")
            raise SpecError(f"{where}: no test points — {hint}.")
        counts = (np.unique(td.train.y, return_counts=True)[1] if td.train.is_multiclass
                  else np.bincount((td.train.y > 0).astype(int), minlength=2))
        k_needed = 2
        if spec.svm is not None and "kfold" in spec.svm.criteria:
            k_needed = max(k_needed, spec.svm.k)
        if spec.irwls is not None and len(spec.irwls.C) * max(1, len(spec.irwls.sigmas)) > 1:
            k_needed = max(k_needed, spec.irwls.k)
        if counts.min() < k_needed:
            raise SpecError(f"{where}: the first replicate has {counts.min()} points in its smaller class; "
                            f"{k_needed}-fold cross-validation needs at least {k_needed}. Use a larger n or fewer folds.")
        if spec.svm is not None and td.p is None and {"gckl", "misclass"} & set(spec.svm.criteria):
            raise SpecError(f"{where}: GCKL and MISCLASS need the true p(x); {d.name} does not know it. Remove them "
                            "from svm.criteria (they are added by themselves where the truth is known).")
        if spec.irwls is not None and spec.irwls.kernel == "rbf":
            R = d.n_prototypes or spec.irwls.n_prototypes
            n_fold = int(td.train.X.shape[0] * (spec.irwls.k - 1) / spec.irwls.k)
            if R > n_fold:
                raise SpecError(f"{where}: R = {R} prototypes exceed the {n_fold} points of a training fold.")
        if spec.ivm is not None and (d.name in SHIPPED or d.name == "csv"):
            raise SpecError(f"{where}: the [ivm] section needs simulated data (an independent tuning sample).")


# ------------------------------------------------------------------------------------ Dask
def _numba_cache_dir() -> str | None:
    from svmviz._jit import cache_base  # svmviz's kernel cache (numba's own setting is left alone)

    return cache_base()


def worker_environment() -> dict:
    """Environment of the embedded cluster's workers: one BLAS / OpenMP / numba thread, the shared numba cache."""
    env = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
    cache = _numba_cache_dir()
    if cache:
        env["SVMVIZ_CACHE_DIR"] = cache
    return env


try:
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
except ImportError:  # pragma: no cover — distributed is a dependency
    _WorkerPlugin = object


class StudyWorkerSetup(_WorkerPlugin):
    """Set a Dask worker up for study tasks, once per worker process: the client's numba cache folder.

    When the worker can write the client's kernel cache folder (``SVMVIZ_CACHE_DIR``) (workers on other machines keep their
    own) and has not loaded the kernels yet, it uses that folder: each worker loads the compiled
    kernels from the cache — or compiles them once — and every later task reuses them. One BLAS
    thread per worker comes from the environment: Dask's nanny starts every worker with
    ``OMP_NUM_THREADS=MKL_NUM_THREADS=OPENBLAS_NUM_THREADS=1`` (``distributed.nanny.pre-spawn-environ``),
    and the embedded cluster passes them explicitly (:func:`worker_environment`). The tasks
    themselves run their σ values on one thread (``n_threads=1``).
    """

    name = "svmviz-study-setup"

    def __init__(self, numba_cache_dir: str | None = None):
        self.numba_cache_dir = numba_cache_dir

    def setup(self, worker=None):
        import sys

        path = self.numba_cache_dir
        if not path:
            return
        from svmviz._jit import creatable

        if not creatable(path) or "svmviz.svm._smo" in sys.modules:
            return  # not writable here, or the kernels already loaded with the worker's own cache
        os.environ["SVMVIZ_CACHE_DIR"] = path  # read when svmviz's first kernel is decorated


def default_workers() -> int:
    """Workers of the embedded cluster by default: one per core."""
    return max(1, os.cpu_count() or 1)


#: the scheduler's own HTTP server (health and metrics routes; no dashboard): a free port of the loopback
#: interface. Dask's scheduler always starts that server; with ``dashboard_address=None`` LocalCluster
#: leaves it on its default port 8787 of the scheduler's host, so a second study at the same time found
#: 8787 taken (distributed.node.ServerNode.start_http_server's ``default_port``).
SCHEDULER_HTTP = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}


def _local_cluster(n_workers: int):
    from distributed import LocalCluster

    return LocalCluster(n_workers=int(n_workers), threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, worker_dashboard_address=None, scheduler_kwargs=dict(SCHEDULER_HTTP),
                        env=worker_environment(), silence_logs=logging.ERROR)


_SHARED = {"lock": threading.Lock(), "cluster": None, "client": None}


def shared_client(n_workers: int | None = None):
    """The process's embedded Dask cluster (started on first use, closed at exit) and its client.

    The app runs its studies here: one cluster per server process, whatever the number of sessions.
    """
    from distributed import Client

    with _SHARED["lock"]:
        client = _SHARED["client"]
        if client is not None and client.status == "running" and _SHARED["cluster"].status.name == "running":
            return client
        _close_shared_locked()
        cluster = _local_cluster(n_workers or default_workers())
        client = Client(cluster, set_as_default=False)
        client.register_plugin(StudyWorkerSetup(_numba_cache_dir()), name=StudyWorkerSetup.name)
        _SHARED["cluster"], _SHARED["client"] = cluster, client
        return client


def _close_shared_locked():
    for key in ("client", "cluster"):
        obj = _SHARED[key]
        _SHARED[key] = None
        if obj is not None:
            try:
                obj.close()
            except Exception:  # noqa: BLE001 — closing at exit: nothing left to report to
                pass


def close_shared_client() -> None:
    """Close the embedded cluster of :func:`shared_client` (also done at exit)."""
    with _SHARED["lock"]:
        _close_shared_locked()


atexit.register(close_shared_client)


_SCHEDULER_FORMAT = ("a Dask scheduler address is [PROTOCOL://]HOST:PORT with PORT a number from 1 to 65535, "
                     "e.g. tcp://10.0.0.5:8786 or localhost:8786")


def check_scheduler_address(address: str) -> str:
    """``address`` if it has the form of a Dask scheduler address (``[tcp|tls|ucx|inproc://]host:port``).

    Raises
    ------
    ValueError
        Saying what format is expected.
    """
    if not isinstance(address, str) or not address.strip():
        raise ValueError(f"{_SCHEDULER_FORMAT}; got {address!r}.")
    text = address.strip()
    rest = text
    if "://" in text:
        proto, rest = text.split("://", 1)
        if proto not in ("tcp", "tls", "ucx", "inproc", "ws", "wss"):
            raise ValueError(f"unknown protocol {proto!r}: {_SCHEDULER_FORMAT}; got {address!r}.")
        if proto == "inproc":
            return text
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"{_SCHEDULER_FORMAT}; got {address!r}.")
    return text


def _scheduler_from_env() -> str | None:
    import dask

    addr = dask.config.get("scheduler-address", None) or os.environ.get("DASK_SCHEDULER_ADDRESS")
    return addr or None


# ------------------------------------------------------------------------------------ the run
def run_study(spec, out=None, *, scheduler: str | None = None, workers: int | None = None, client=None,
              progress: Callable | None = None, replicates: int | None = None,
              allow_mixed_versions: bool = False, wait: bool = False, record_host: bool = False) -> StudyResults:
    """Run a study (or the part of it that is not in ``out`` yet) and return its table.

    Parameters
    ----------
    spec : StudySpec, dict, str or os.PathLike
        The spec object, its TOML file, or the name of a ready-made spec.
    out : str or os.PathLike, optional
        Results folder (created; resumed if it holds this study). None: keep the results in memory only.
    scheduler : str, optional
        Address of an existing Dask scheduler (``tcp://host:8786``). Without it and without
        ``workers``, ``DASK_SCHEDULER_ADDRESS`` is used when set.
    workers : int, optional
        Worker processes of an embedded ``LocalCluster`` (default: one per core, at most one per
        task); 0 runs every task in this process.
    client : distributed.Client, optional
        Use this client (its cluster is left running).
    progress : callable(done, total, message), optional
        Called as each task completes (``done`` counts the tasks already saved too).
    replicates : int, optional
        Override the spec's number of replicates. Fewer than ``out`` holds already: the first
        ``replicates`` are computed where missing and returned, with a note ("showing 3 of 8 saved
        replicates"); the folder keeps the others, in its table and its spec.toml.
    allow_mixed_versions : bool, default False
        Resume a results folder whose saved tasks were computed by other versions of svmviz, numba,
        numpy or scikit-learn (refused otherwise, naming both).
    wait : bool, default False
        When another run holds ``out``'s lock (``svmviz.studies.lock``), wait for it to finish
        instead of refusing.
    record_host : bool, default False
        Record the host name in the provenance (``svmviz.studies.provenance.provenance``).

    Returns
    -------
    StudyResults
        ``table`` (one row per data set, replicate and criterion), ``errors`` (failed tasks),
        ``n_computed`` (tasks computed now), ``n_cancelled`` (tasks cancelled by a shutdown of
        their cluster: neither saved nor failed; a rerun computes them), ``notes`` (what the run
        said besides: a stale lock taken over, task files computed again, replicates shown).

    Raises
    ------
    SpecError
        An invalid spec (before any task runs).
    ValueError
        ``out`` holds another study (its spec.toml or a task file's record differs), tasks of other
        versions (without ``allow_mixed_versions``), or a bad ``workers``.
    svmviz.studies.lock.FolderLockedError
        Another run is writing ``out`` (without ``wait``); the message names its process, host and
        start time.
    """
    spec = load_spec(spec)
    for name, flag in (("allow_mixed_versions", allow_mixed_versions), ("wait", wait),
                       ("record_host", record_host)):
        if not isinstance(flag, bool):
            raise ValueError(f"{name} must be True or False; got {flag!r}.")
    if replicates is not None:
        spec = spec.replace(replicates=replicates)
    if scheduler is not None:
        scheduler = check_scheduler_address(scheduler)
    if workers is not None and (isinstance(workers, bool) or int(workers) != workers or workers < 0):
        raise ValueError(f"workers must be an integer ≥ 0 (0: in this process); got {workers!r}.")
    spec, csv = resolve_csv(spec)
    check_spec_data(spec, csv)
    directory = None if out is None else os.fspath(out)
    notes: list[str] = []
    total = spec.n_tasks

    def note(msg, done=0):
        notes.append(msg)
        if progress is not None:
            progress(done, total, msg)

    if directory is None:
        return _run_study_in(spec, None, csv, notes, note, progress=progress, client=client, scheduler=scheduler,
                             workers=workers, allow_mixed_versions=allow_mixed_versions, record_host=record_host)
    os.makedirs(directory, exist_ok=True)
    with FolderLock(directory, wait=wait, note=note):
        return _run_study_in(spec, directory, csv, notes, note, progress=progress, client=client,
                             scheduler=scheduler, workers=workers, allow_mixed_versions=allow_mixed_versions,
                             record_host=record_host)


def _run_study_in(spec, directory, csv, notes, note, *, progress, client, scheduler, workers, allow_mixed_versions,
                  record_host) -> StudyResults:
    """:func:`run_study` once the spec is checked and the results folder (if any) is locked."""
    stored = _absolute_csv_paths(spec)
    now = _provenance(record_host)
    saved, task_versions = set(), [versions_of(now)]
    folder_spec = spec
    if directory is not None:
        stored_prov, saved_replicates = _prepare_directory(directory, stored)
        if saved_replicates > spec.replicates:  # the folder keeps its replicates; the run shows the first ones
            folder_spec = spec.replace(replicates=saved_replicates)
        saved, task_versions, unreadable = _check_saved_tasks(directory, folder_spec, stored_prov, now,
                                                              allow_mixed_versions)
        for path in unreadable:
            if _task_of(path, spec) is not None:
                note(f"{path} cannot be read as a task's results (cut short, corrupt or another file): its task "
                     "is computed again.")
        _write_folder_spec(directory, _absolute_csv_paths(folder_spec), now, task_versions)
    todo = [(i, r) for i, r in _tasks(spec) if (i, r) not in saved]
    memory = {}
    total, done = spec.n_tasks, spec.n_tasks - len(todo)
    errors_now, cancelled = {}, []
    if progress is not None:
        progress(done, total, f"{done} of {total} tasks already saved" if done else f"{total} tasks to run")

    def record(i, r, outcome):
        nonlocal done
        seconds = outcome[3]
        tid = task_id(spec, i, r)
        done += outcome[0] != "cancelled"  # a cancelled task is still to do
        if outcome[0] == "ok":
            if directory is not None:
                res, err = _paths(directory, tid)
                write_parquet(res, stored_table(outcome[1]), {"task": task_record(spec, i, r),
                                                              "provenance": _provenance(record_host)})
                if os.path.exists(err):
                    os.remove(err)
            else:
                memory[(i, r)] = outcome[1]
            msg = f"{spec.datasets[i].label}, replicate {r} done ({seconds:.1f} s)"
        elif outcome[0] == "cancelled":
            cancelled.append((i, r))
            msg = (f"{spec.datasets[i].label}, replicate {r} cancelled ({outcome[1]}); a rerun computes it")
        else:
            from .tasks import task_seeds

            rec = dict(study=spec.name, dataset=spec.datasets[i].label, dataset_index=i, replicate=r,
                       seed=task_seeds(spec.seed, r).data, error=outcome[1], traceback=outcome[2])
            errors_now[(i, r)] = rec
            if directory is not None:
                write_json(_paths(directory, tid)[1], rec)
            msg = f"{spec.datasets[i].label}, replicate {r} FAILED: {outcome[1]}"
        return msg

    def report(msg):
        if progress is not None:
            progress(done, total, msg)

    if todo:
        if client is None and scheduler is None and workers is None:
            scheduler = _scheduler_from_env()
        if client is None and scheduler is None and workers == 0:
            for i, r in todo:
                report(record(i, r, _run_task_safe(spec, i, r, None, csv.get(i))))
        else:
            _run_on_dask(spec, todo, csv, record, report, client=client, scheduler=scheduler, workers=workers)

    if directory is not None:
        table, errors = collect_results(directory, folder_spec)
        meta = {"provenance": now, "task_versions": task_versions, "spec_digest": spec_digest(spec)}
        write_parquet(os.path.join(directory, RESULTS_FILE), stored_table(table), meta)
        write_parquet(os.path.join(directory, ERRORS_FILE), errors, meta)
        table, errors, shown = first_replicates(table, errors, spec.replicates)
        if shown:
            note(shown, done)
    else:
        table = sort_table(pd.concat(list(memory.values()), ignore_index=True)) if memory else rows_to_frame([])
        errors = rows_to_frame(list(errors_now.values()), ERROR_COLUMNS)
    return StudyResults(table, errors, stored, directory, n_computed=len(todo) - len(cancelled),
                        n_cancelled=len(cancelled), notes=notes)


def _task_of(path: str, spec: StudySpec):
    """The (data set, replicate) of ``spec`` whose task file is ``path``, or None."""
    name = os.path.basename(path)
    for i, r in _tasks(spec):
        if name == task_id(spec, i, r) + ".parquet":
            return i, r
    return None


def _run_on_dask(spec, todo, csv, record, report, *, client, scheduler, workers):
    """Run ``todo`` on Dask; ``record`` saves a task's outcome, then its future is released, then ``report``.

    A future the client still holds keeps its result on a worker and its task in the scheduler's
    graph: when that worker dies, Dask computes the task again though its rows are saved. Each
    future is therefore dropped as soon as its rows are written.
    """
    from distributed import Client, as_completed

    own_cluster = own_client = None
    try:
        if client is None:
            if scheduler is not None:
                own_client = client = Client(scheduler, set_as_default=False)
            else:
                n = min(int(workers) if workers else default_workers(), len(todo))
                own_cluster = _local_cluster(n)
                own_client = client = Client(own_cluster, set_as_default=False)
        client.register_plugin(StudyWorkerSetup(_numba_cache_dir()), name=StudyWorkerSetup.name)
        scattered = {i: client.scatter(arr, broadcast=True) for i, arr in csv.items()}
        run = uuid.uuid4().hex[:8]
        keys = [f"svmviz-study-{_slug(spec.name)}-{run}-{task_id(spec, i, r)}" for i, r in todo]
        futures = client.map(_run_task_safe, [spec] * len(todo), [i for i, _ in todo], [r for _, r in todo],
                             [1] * len(todo), [scattered.get(i) for i, _ in todo], key=keys, pure=False)
        pending = {f.key: (f, t) for f, t in zip(futures, todo)}
        completed = as_completed(futures, loop=client.loop)
        del futures  # from here on, `pending` holds the futures not yet saved, and nothing else does
        try:
            for fut in completed:
                _, (i, r) = pending.pop(fut.key)
                try:
                    outcome = fut.result()
                except Exception as exc:  # noqa: BLE001 — e.g. KilledWorker after repeated worker deaths
                    if fut.cancelled() or _is_cancellation(exc):  # the cluster shut down: not the task's fault
                        outcome = ("cancelled", "its cluster shut down", None, np.nan)
                    else:
                        outcome = ("error", f"{type(exc).__name__}: {exc}", traceback.format_exc(), np.nan)
                msg = record(i, r, outcome)
                fut.release()  # saved: the scheduler may forget the task and its result
                del fut, outcome
                report(msg)
        finally:
            left = [f for f, _ in pending.values() if not f.done()]
            pending.clear()
            if left:
                client.cancel(left)
    finally:
        if own_client is not None:
            own_client.close()
        if own_cluster is not None:
            own_cluster.close()


def _is_cancellation(exc: BaseException) -> bool:
    """Whether a future's exception says it was cancelled (Dask's ``FutureCancelledError`` and
    ``CancelledError``), not that its task raised."""
    import asyncio
    import concurrent.futures

    if isinstance(exc, (asyncio.CancelledError, concurrent.futures.CancelledError)):
        return True
    return type(exc).__name__ in ("FutureCancelledError", "CancelledError")


# ------------------------------------------------------------------------------------ Tuning page
def monte_carlo_study(name: str, n: int, params: dict, L, lambdas, sigmas, *, R: int, seed: int = 0,
                      criteria=("gacv", "xa"), client=None, workers: int | None = None,
                      progress: Callable | None = None):
    """:func:`svmviz.tuning.inefficiency_study` on the study engine: R fresh data sets from one generator.

    The same repetitions (seeds ``SeedSequence([seed, r])``) and the same numbers as the serial
    ``inefficiency_study``, computed as one Dask task per repetition.

    Parameters
    ----------
    name, n, params : the generator, its size and parameters (``nonstandard=True`` and Wahba's costs
        for wahba2001 select the non-standard setting).
    L : (L(−1), L(+1))
    lambdas, sigmas : the grid.
    R : int
        Repetitions.
    seed : int
    criteria : tuple of str
        Criteria judged by their inefficiency (keys of the [svm] section).
    client, workers : where to run (see :func:`run_study`).
    progress : callable(done, total, message), optional

    Returns
    -------
    svmviz.tuning.InefficiencyStudy
    """
    from ..tuning import InefficiencyStudy

    params = dict(params)
    setting, costs = "standard", {}
    if params.pop("nonstandard", False):
        setting = "nonstandard"
        costs = {k: params.pop(k) for k in ("C_plus", "C_minus", "pi_plus", "pi_minus") if k in params}
    L = (float(L[0]), float(L[1]))
    if L != (1.0, 1.0):
        setting = "nonstandard"
    d = {"name": f"monte-carlo-{_slug(name)}", "replicates": int(R), "seed": int(seed), "setting": setting,
         "datasets": [{"name": name, "n": int(n), "params": params, "L": list(L)}],
         "svm": {"criteria": list(criteria), "lambdas": [float(v) for v in np.asarray(lambdas)],
                 "sigmas": [float(v) for v in np.asarray(sigmas)]}}
    if costs:
        d["costs"] = costs
    res = run_study(spec_from_dict(d), None, client=client, workers=workers, progress=progress)
    if res.n_failed:
        raise ValueError(f"{res.n_failed} of {R} repetitions failed: {res.errors['error'].iloc[0]}")
    t = res.table
    val, low, high = {}, {}, {}
    for c in criteria:
        sub = t[t["criterion"] == c].sort_values("replicate")
        val[c], low[c], high[c] = (sub[k].to_numpy(float) for k in ("inefficiency", "inefficiency_low",
                                                                     "inefficiency_high"))
    seeds = t[t["criterion"] == criteria[0]].sort_values("replicate")["seed"].to_numpy(np.int64)
    return InefficiencyStudy(tuple(criteria), "misclass", val, low, high, seeds)
