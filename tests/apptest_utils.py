"""Helpers for AppTest page tests: decode Plotly figures, find charts, assert a clean run."""
from __future__ import annotations

import base64
import json
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def page_path(name: str) -> str:
    return os.path.join(ROOT, "pages", name)


def decode(v, dtype=None):
    """Plotly ≥ 6 encodes arrays as {"dtype", "bdata", "shape"}; return a numpy array either way.

    ``dtype`` applies to plain lists (Plotly leaves short or mixed arrays as JSON lists).
    """
    if isinstance(v, dict) and "bdata" in v:
        arr = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        if "shape" in v:
            arr = arr.reshape([int(s) for s in str(v["shape"]).split(",")])
        return arr
    if dtype is None and v and isinstance(v, list) and isinstance(v[0], str):
        dtype = object
    return np.asarray(v, dtype=dtype)


def figures(at) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def figure_titles(at) -> list[str]:
    out = []
    for f in figures(at):
        t = f.get("layout", {}).get("title", {})
        out.append(t.get("text", "") if isinstance(t, dict) else str(t))
    return out


def assert_clean(at):
    assert not at.exception, [e.value for e in at.exception]


def figures_by_title(at) -> dict:
    """The page's Plotly figures keyed by their title text."""
    out = {}
    for f in figures(at):
        t = f.get("layout", {}).get("title", {})
        out[t.get("text", "") if isinstance(t, dict) else str(t)] = f
    return out


def figure_titled(at, prefix: str) -> dict:
    """The one figure whose title starts with ``prefix`` (fails if none or several)."""
    figs = figures_by_title(at)
    hits = [f for t, f in figs.items() if t.startswith(prefix)]
    assert len(hits) == 1, f"expected one figure titled {prefix!r}; got {list(figs)}"
    return hits[0]


def traces_named(fig: dict, prefix: str) -> list[dict]:
    """The traces of ``fig`` whose name starts with ``prefix`` (fails if none)."""
    hits = [t for t in fig["data"] if str(t.get("name", "")).startswith(prefix)]
    assert hits, f"no trace named {prefix!r} in {[t.get('name') for t in fig['data']]}"
    return hits


def trace_named(fig: dict, prefix: str) -> dict:
    return traces_named(fig, prefix)[0]
