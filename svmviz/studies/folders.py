"""A study's results folder: its task files (one per data set and replicate, with the record of what
computed it) and the table they make (:func:`collect_results`, :func:`load_results`).

::

    DIR/spec.toml            the spec as run, and the run's [provenance]
    DIR/tasks/<task id>.parquet, .error.json
    DIR/results.parquet, errors.parquet    the table of a finished run
"""
from __future__ import annotations

import json
import os
import re

import numpy as np
import pandas as pd

from .provenance import read_parquet_record, task_record
from .results import (ERROR_COLUMNS, ERRORS_FILE, RESULTS_FILE, SPEC_FILE, StudyResults, read_folder_spec, read_table,
                      rows_to_frame, sort_table)
from .spec import StudySpec

__all__ = ["TASKS_DIR", "task_id", "collect_results", "load_results", "first_replicates", "rebuild_command",
           "unreadable_tasks"]

TASKS_DIR = "tasks"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")[:40] or "data"


def task_id(spec: StudySpec, index: int, replicate: int) -> str:
    """File-name id of a task: ``<index>-<data set label>-r<replicate>``.

    Parameters
    ----------
    spec : StudySpec
    index : int
        The data set's position in ``spec.datasets``.
    replicate : int

    Returns
    -------
    str
    """
    return f"{index:03d}-{_slug(spec.datasets[index].label)}-r{replicate:05d}"


def _tasks(spec: StudySpec) -> list[tuple[int, int]]:
    return [(i, r) for r in range(spec.replicates) for i in range(len(spec.datasets))]


def _paths(directory: str, tid: str) -> tuple[str, str]:
    base = os.path.join(directory, TASKS_DIR, tid)
    return base + ".parquet", base + ".error.json"


def _read_task(path: str):
    try:
        return read_table(path)
    except Exception:  # noqa: BLE001 — a file cut short by a kill: computed again
        return None


def collect_results(directory: str, spec: StudySpec) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The table of every saved task of ``spec`` in ``directory``, and the table of failed tasks.

    Parameters
    ----------
    directory : str
        A results folder.
    spec : StudySpec
        Its spec: a task file counts only when its record is this spec's task.

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame)
        The results table of the saved tasks, and one row per failed task.
    """
    frames, errors = [], []
    for i, r in _tasks(spec):
        tid = task_id(spec, i, r)
        res, err = _paths(directory, tid)
        df = _read_task(res) if os.path.exists(res) else None
        if df is not None and _record_mismatch(read_parquet_record(res), spec, i, r) is None:
            frames.append(df)
        elif os.path.exists(err):
            try:
                with open(err, encoding="utf-8") as fh:
                    errors.append(json.load(fh))
            except (OSError, ValueError):
                pass
    table = sort_table(pd.concat(frames, ignore_index=True)) if frames else rows_to_frame([])
    return table, rows_to_frame(errors, ERROR_COLUMNS)


def _record_mismatch(record: dict | None, spec: StudySpec, index: int, replicate: int) -> str | None:
    """Why a task file's record is not task (index, replicate) of ``spec`` (None: it is, or it has no record)."""
    if record is None or "task" not in record:
        return None
    want, got = task_record(spec, index, replicate), record["task"]
    if got.get("spec_digest") != want["spec_digest"]:
        return (f"it was computed for the study {got.get('study', '?')!r} with another spec "
                f"(digest {str(got.get('spec_digest'))[:12]}…, this spec's is {want['spec_digest'][:12]}…)")
    for key in ("dataset_index", "dataset", "replicate", "seed"):
        if got.get(key) != want[key]:
            return f"its {key} is {got.get(key)!r}, this task's is {want[key]!r}"
    return None


def unreadable_tasks(directory: str, spec: StudySpec) -> list[str]:
    """The task files of ``spec`` in ``directory`` that exist but cannot be read as results tables."""
    out = []
    for i, r in _tasks(spec):
        res, _ = _paths(directory, task_id(spec, i, r))
        if os.path.exists(res) and _read_task(res) is None:
            out.append(res)
    return out


def first_replicates(table: pd.DataFrame, errors: pd.DataFrame, replicates: int) -> tuple:
    """The rows (and failed tasks) of replicates 0 … ``replicates`` − 1, and a note when the table holds more.

    Parameters
    ----------
    table, errors : pandas.DataFrame
        A results table and its failed tasks.
    replicates : int
        How many replicates to show.

    Returns
    -------
    (pandas.DataFrame, pandas.DataFrame, str)
        The rows kept, the failed tasks kept, and ``"showing 3 of 8 saved replicates …"`` (empty
        when no saved replicate is left out).
    """
    if isinstance(replicates, bool) or not isinstance(replicates, (int, np.integer)) or replicates < 1:
        raise ValueError(f"replicates must be an integer ≥ 1; got {replicates!r}.")
    saved = int(table["replicate"].nunique()) if len(table) else 0
    keep = table["replicate"] < replicates
    shown = int(table.loc[keep, "replicate"].nunique()) if len(table) else 0
    note = ""
    if shown < saved:
        note = (f"showing {shown} of {saved} saved replicates (the first {int(replicates)} were asked for); the results "
                "folder keeps the others: its table and spec.toml are unchanged")
    return (table[keep].reset_index(drop=True), errors[errors["replicate"] < replicates].reset_index(drop=True),
            note)


def rebuild_command(directory: str) -> str:
    """The command that rebuilds a results folder's tables from its task files (computing any task missing)."""
    import shlex

    return f"svmviz study run {shlex.quote(os.path.join(directory, SPEC_FILE))} --out {shlex.quote(directory)}"


def _read_folder_table(path: str, directory: str, reader) -> pd.DataFrame:
    try:
        return reader(path)
    except Exception as exc:  # noqa: BLE001 — any unreadable file gets the same advice
        raise ValueError(f"{path} cannot be read as this study's table ({type(exc).__name__}: {exc}); it is cut "
                         f"short, corrupt or another file. Rebuild it from the task files with: "
                         f"{rebuild_command(directory)}") from None


def load_results(directory, replicates: int | None = None) -> StudyResults:
    """Read a results directory written by :func:`svmviz.studies.run_study` (or the ``svmviz study run`` command).

    Parameters
    ----------
    directory : str or os.PathLike
    replicates : int, optional
        Show at most the first ``replicates`` replicates (a note in ``notes`` says how many are saved).

    Returns
    -------
    StudyResults

    Raises
    ------
    ValueError
        Not a results directory (no ``spec.toml``), or an unreadable table (named, with the command
        that rebuilds it).
    """
    directory = os.fspath(directory)
    spec_path = os.path.join(directory, SPEC_FILE)
    if not os.path.isdir(directory):
        raise ValueError(f"no folder {directory!r}.")
    if not os.path.isfile(spec_path):
        raise ValueError(f"{directory!r} is not a study results folder: it has no {SPEC_FILE} "
                         "(run 'svmviz study run SPEC --out DIR' to make one).")
    spec, _ = read_folder_spec(spec_path)
    res_path, err_path = os.path.join(directory, RESULTS_FILE), os.path.join(directory, ERRORS_FILE)
    stamps = [os.stat(os.path.join(directory, p)).st_mtime_ns for p in (SPEC_FILE, "tasks") if
              os.path.exists(os.path.join(directory, p))]
    if (os.path.exists(res_path) and os.path.exists(err_path)
            and os.stat(res_path).st_mtime_ns >= max(stamps, default=0)):  # the table of a finished run
        table = _read_folder_table(res_path, directory, read_table)
        errors = _read_folder_table(err_path, directory, _read_errors)
    else:  # a run in progress or interrupted: the saved tasks
        table, errors = collect_results(directory, spec)
    notes = [f"{path} cannot be read as a task's results (cut short, corrupt or another file); {rebuild_command(directory)} "
             "computes its task again" for path in unreadable_tasks(directory, spec)]
    if replicates is not None:
        table, errors, note = first_replicates(table, errors, replicates)
        spec = spec.replace(replicates=min(int(replicates), spec.replicates))
        if note:
            notes.append(note)
    return StudyResults(table, errors, spec, directory, notes=notes)


def _read_errors(path: str) -> pd.DataFrame:
    df = pd.read_parquet(path)
    missing = sorted(set(ERROR_COLUMNS) - set(df.columns))
    if missing:
        raise ValueError(f"no column(s) {', '.join(missing)}")
    return df
