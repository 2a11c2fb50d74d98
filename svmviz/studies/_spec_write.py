"""Writing a study spec back: :class:`StudySpec` → the TOML structure (a dict) and TOML text
(:func:`spec_to_dict`, :func:`spec_to_toml`, public through :mod:`svmviz.studies.spec`); the results
folder keeps the TOML beside the table."""
from __future__ import annotations

import dataclasses
import math
import re
from typing import Any

import numpy as np

__all__ = ["spec_to_dict", "spec_to_toml"]


# ------------------------------------------------------------------------------------ writing
def _section_dict(obj) -> dict:
    out = {}
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if v is not None:
            out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def spec_to_dict(spec: StudySpec) -> dict:
    """The TOML structure of ``spec`` (grids written out as lists); ``spec_from_dict`` inverts it."""
    d: dict[str, Any] = {"name": spec.name}
    if spec.title:
        d["title"] = spec.title
    if spec.description:
        d["description"] = spec.description
    d.update(replicates=spec.replicates, seed=spec.seed, test_size=spec.test_size, setting=spec.setting)
    if spec.setting == "nonstandard":
        d["costs"] = dict(spec.costs)
    if spec.published:
        d["published"] = spec.published
    ds_list = []
    for ds in spec.datasets:
        e: dict[str, Any] = {"name": ds.name}
        if ds.n is not None:
            e["n"] = ds.n
        if ds.label != ds.name:
            e["label"] = ds.label
        for key in ("test_size", "n_prototypes", "path", "label_column"):
            if getattr(ds, key) is not None:
                e[key] = getattr(ds, key)
        if ds.L is not None:
            e["L"] = list(ds.L)
        if ds.name == "csv":
            e["standardize"] = ds.standardize
            for key in ("feature_columns", "classes"):
                if getattr(ds, key) is not None:
                    e[key] = list(getattr(ds, key))
            if ds.one_vs_rest is not None:
                e["one_vs_rest"] = ds.one_vs_rest
            if ds.missing != "drop":
                e["missing"] = ds.missing
            if ds.sha256 is not None:
                e["sha256"] = ds.sha256
        if ds.params:
            e["params"] = {k: (list(v) if isinstance(v, tuple) else v) for k, v in ds.params.items()}
        ds_list.append(e)
    d["datasets"] = ds_list
    if spec.svm is not None:
        d["svm"] = _section_dict(spec.svm)
    if spec.irwls is not None:
        sec = _section_dict(spec.irwls)
        if spec.irwls.kernel == "linear":
            sec.pop("sigmas")
        d["irwls"] = sec
    if spec.ivm is not None:
        d["ivm"] = _section_dict(spec.ivm)
    return d


def _toml_key(k: str) -> str:
    return k if re.match(r"^[A-Za-z0-9_-]+$", k) else _toml_value(k)


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"TOML cannot hold the number {v}.")
        return repr(v)
    if isinstance(v, str):
        esc = v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{esc}"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, (np.integer, np.floating)):
        return _toml_value(v.item())
    raise ValueError(f"cannot write {v!r} to TOML.")


def spec_to_toml(spec: StudySpec) -> str:
    """The spec as TOML text (``load_spec`` reads it back to an equal spec).

    Parameters
    ----------
    spec : StudySpec
        The study to write.

    Returns
    -------
    str
        TOML text, one table per section, ending with a newline.
    """
    d = spec_to_dict(spec)
    lines = []
    tables = {k: v for k, v in d.items() if isinstance(v, dict)}
    arrays = {k: v for k, v in d.items() if isinstance(v, list) and v and isinstance(v[0], dict)}
    for k, v in d.items():
        if k not in tables and k not in arrays:
            lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    for k, rows in arrays.items():
        for row in rows:
            lines.append("")
            lines.append(f"[[{k}]]")
            for kk, vv in row.items():
                lines.append(f"{_toml_key(kk)} = {_toml_value(vv)}")
    for k, v in tables.items():
        lines.append("")
        lines.append(f"[{k}]")
        for kk, vv in v.items():
            lines.append(f"{_toml_key(kk)} = {_toml_value(vv)}")
    return "\n".join(lines) + "\n"
