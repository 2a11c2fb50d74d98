"""What a study's numbers were computed from: the spec, the task, its seed, and the code and machine.

Every task file of a results folder carries, in its Parquet metadata (key ``svmviz``), a record of

* the task: the spec's digest (:func:`spec_digest`: everything that decides the numbers — data
  sets, grids, criteria, seed, setting; not the number of replicates, the title or the
  description), the study's name, the data set's index and parameters, the replicate and the seed
  of its training sample (:func:`task_record`);
* the provenance (:func:`provenance`): the versions of svmviz, numba, numpy and scikit-learn, the
  Python version, the machine and the time the task finished.

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

__all__ = ["VERSION_KEYS", "META_KEY", "RESUMABLE_CHANGES", "provenance", "versions_of", "spec_digest", "task_record",
           "write_parquet", "read_parquet_record", "describe_versions"]

#: the packages whose versions decide the numbers: tasks computed under other versions are not mixed in
VERSION_KEYS = ("svmviz", "numba", "numpy", "scikit-learn")
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


def provenance() -> dict:
    """The code and machine computing now: versions of :data:`VERSION_KEYS` and Python, host, time (UTC).

    Returns
    -------
    dict
        ``{"svmviz": "0.…", "numba": …, "numpy": …, "scikit-learn": …, "python": …, "machine": host
        name, "platform": OS and architecture, "time": ISO 8601 UTC}``.
    """
    out = {"svmviz": _version("svmviz"), "numba": _version("numba"), "numpy": _version("numpy"),
           "scikit-learn": _version("sklearn"), "python": platform.python_version(),
           "machine": socket.gethostname(), "platform": f"{platform.system()} {platform.machine()}",
           "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
    return out


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
