"""What a study's numbers were computed from: the spec, the task, its seed, and the code and machine.

Every task file of a results folder carries, in its Parquet metadata (key ``svmviz``), a record of

* the task: the spec's digest (:func:`spec_digest`: everything that decides the numbers — data
  sets, grids, criteria, seed, setting; not the number of replicates, the title or the
  description), the study's name, the data set's index and parameters, the replicate and the seed
  of its training sample (:func:`task_record`);
* the provenance (:func:`provenance`): the versions of svmviz and of every runtime dependency
  (:data:`RUNTIME_PACKAGES`), the Python version, the platform, the time the task finished, the git
  commit of the checkout svmviz was imported from (and whether its tracked files had changes), and
  the host name only when asked for (``record_host=True``: results folders are shared).

A resumed run reuses a saved task only if its task record equals the one the spec gives now, and
only if it was computed by the same versions of :data:`VERSION_KEYS` (unless mixing is asked for:
``run_study(..., allow_mixed_versions=True)``, ``svmviz study run --allow-mixed-versions``). The
results table (``results.parquet``) and ``spec.toml`` (its ``[provenance]`` table) carry the
provenance of the run that wrote them and the versions of every task in the table.
"""
from __future__ import annotations

import datetime
import hashlib
import json
import os
import platform
import socket
import subprocess

__all__ = ["VERSION_KEYS", "RUNTIME_PACKAGES", "META_KEY", "git_state", "RESUMABLE_CHANGES", "provenance", "versions_of", "spec_digest", "task_record",
           "write_parquet", "read_parquet_record", "describe_versions"]

#: the packages whose versions decide the numbers: tasks computed under other versions are not mixed in
VERSION_KEYS = ("svmviz", "numba", "numpy", "scikit-learn")
#: every runtime dependency whose version a provenance record carries: (record key, module name)
RUNTIME_PACKAGES = (("numpy", "numpy"), ("scipy", "scipy"), ("scikit-learn", "sklearn"), ("pandas", "pandas"),
                    ("pyarrow", "pyarrow"), ("dask", "dask"), ("distributed", "distributed"), ("numba", "numba"),
                    ("llvmlite", "llvmlite"), ("streamlit", "streamlit"), ("plotly", "plotly"))
#: the key of the record in a Parquet file's schema metadata
META_KEY = b"svmviz"
#: fields that may differ between the spec of a results folder and the spec resuming it (not in the digest)
RESUMABLE_CHANGES = ("replicates", "title", "description")


def _version(module: str) -> str:
    from importlib import import_module

    try:
        return str(import_module(module).__version__)
    except Exception:  # noqa: BLE001 — a package that cannot be imported is recorded as such
        return "not installed"


def git_state(path: str | None = None) -> dict:
    """The git commit of the checkout holding ``path`` (default: svmviz's own source), and its state.

    Parameters
    ----------
    path : str, optional
        A folder inside a git checkout (default: the folder above the ``svmviz`` package).

    Returns
    -------
    dict
        ``{"git_commit": 40 hex digits, "git_dirty": True if tracked files differ from the commit}``;
        empty when svmviz is not imported from a checkout (an installed wheel) or git is unavailable.
    """
    if path is None:
        path = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        path = os.path.dirname(path)
        if not os.path.exists(os.path.join(path, ".git")):  # an installed package: no commit to name
            return {}
    try:
        head = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return {}
        status = subprocess.run(["git", "-C", path, "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return {}
    out = {"git_commit": head.stdout.strip()}
    if status.returncode == 0:
        out["git_dirty"] = bool(status.stdout.strip())
    return out


def provenance(record_host: bool = False) -> dict:
    """The code and machine computing now: versions of svmviz, its runtime dependencies and Python,
    the git commit of svmviz's checkout, platform, time (UTC) and, if asked, the host name.

    Parameters
    ----------
    record_host : bool, default False
        Add the host name (``"machine"``). Off by default: results folders are shared, and a host
        name says where and by whom they were computed.

    Returns
    -------
    dict
        ``{"svmviz": "0.…", "numpy": …, "scipy": …, …, "plotly": …, "python": …, "platform": OS and
        architecture, "time": ISO 8601 UTC}``, plus ``"git_commit"`` and ``"git_dirty"`` when svmviz
        runs from a git checkout and ``"machine"`` with ``record_host``.
    """
    if not isinstance(record_host, bool):
        raise ValueError(f"record_host must be True or False; got {record_host!r}.")
    out = {"svmviz": _version("svmviz")}
    out.update({key: _version(module) for key, module in RUNTIME_PACKAGES})
    out.update(python=platform.python_version(), platform=f"{platform.system()} {platform.machine()}",
               time=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"))
    out.update(_git_state_cached())
    if record_host:
        out["machine"] = socket.gethostname()
    return out


_GIT: dict = {}


def _git_state_cached() -> dict:
    """:func:`git_state` of svmviz's source, asked once per process (a study records it for every task)."""
    if "state" not in _GIT:
        _GIT["state"] = git_state()
    return dict(_GIT["state"])


def versions_of(prov: dict) -> dict:
    """The :data:`VERSION_KEYS` part of a provenance record (missing ones as ``"unknown"``)."""
    return {k: str(prov.get(k, "unknown")) for k in VERSION_KEYS}


def describe_versions(versions: dict) -> str:
    """``"svmviz 0.5, numba 0.61, numpy 2.2, scikit-learn 1.7"``."""
    return ", ".join(f"{k} {versions.get(k, 'unknown')}" for k in VERSION_KEYS)


def spec_digest(spec) -> str:
    """SHA-256 of what decides a study's numbers: the spec without replicates, title and description.

    Parameters
    ----------
    spec : StudySpec

    Returns
    -------
    str
        64 hexadecimal digits; two specs that may share task files have the same digest.
    """
    from .spec import spec_to_dict

    d = spec_to_dict(spec)
    for k in RESUMABLE_CHANGES:
        d.pop(k, None)
    return hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()


def task_record(spec, index: int, replicate: int) -> dict:
    """The record a task file must carry to count as task (``index``, ``replicate``) of ``spec``.

    Parameters
    ----------
    spec : StudySpec
    index : int
        The data set's position in ``spec.datasets``.
    replicate : int

    Returns
    -------
    dict
        ``study``, ``spec_digest``, ``dataset_index``, ``dataset`` (its spec table), ``replicate``, ``seed``.
    """
    from .spec import spec_to_dict
    from .tasks import task_seeds

    if not 0 <= int(index) < len(spec.datasets):
        raise ValueError(f"index must be a data set's position, 0 to {len(spec.datasets) - 1}; got {index!r}.")
    if int(replicate) < 0:
        raise ValueError(f"replicate must be ≥ 0; got {replicate!r}.")
    ds = spec_to_dict(spec)["datasets"][int(index)]
    return {"study": spec.name, "spec_digest": spec_digest(spec), "dataset_index": int(index),
            "dataset": json.loads(json.dumps(ds, default=str)), "replicate": int(replicate),
            "seed": int(task_seeds(spec.seed, int(replicate)).data)}


def write_parquet(path: str, df, record: dict) -> None:
    """Write ``df`` to ``path`` (atomically: a temporary file renamed) with ``record`` in its metadata."""
    import uuid

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(record, sort_keys=True, default=str).encode()
    table = table.replace_schema_metadata(meta)
    tmp = f"{path}.{uuid.uuid4().hex[:6]}.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, path)  # a kill never leaves half a file under the final name


def read_parquet_record(path: str) -> dict | None:
    """The record :func:`write_parquet` stored in ``path``; None for a file without one (or unreadable)."""
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
    except Exception:  # noqa: BLE001 — a file cut short by a kill has no record
        return None
    raw = meta.get(META_KEY)
    if raw is None:
        return None
    try:
        out = json.loads(raw)
    except ValueError:
        return None
    return out if isinstance(out, dict) else None
