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


# ------------------------------------------------------------------ uploaded CSV files (AppTest cannot upload)
def two_class_csv(n: int = 60, seed: int = 0) -> bytes:
    """A clean two-feature file with ±1 labels (two well separated clouds)."""
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(size=(n // 2, 2)), rng.normal(size=(n - n // 2, 2)) + 2.5]
    y = np.r_[-np.ones(n // 2), np.ones(n - n // 2)]
    return ("x1,x2,label\n" + "\n".join(f"{a:.5f},{b:.5f},{int(c)}" for (a, b), c in zip(X, y))).encode()


def three_class_csv(n: int = 90, seed: int = 0) -> bytes:
    """A two-feature file with three named classes."""
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [3.0, 0.0], [1.5, 2.5]])
    k = np.arange(n) % 3
    X = centres[k] + rng.normal(scale=0.7, size=(n, 2))
    names = np.array(["setosa", "versicolor", "virginica"])[k]
    return ("a,b,species\n" + "\n".join(f"{p:.5f},{q:.5f},{s}" for (p, q), s in zip(X, names))).encode()


def with_upload(page_file: str, content: bytes, *, name: str = "mine.csv", query: dict | None = None,
                timeout: float = 180):
    """An AppTest of ``page_file`` whose sidebar holds the uploaded ``content`` (put where the sidebar
    keeps an upload; AppTest cannot drive st.file_uploader), run once."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(page_file, default_timeout=timeout)
    at.session_state["_svmviz_shared"] = {"data": "Upload CSV…", "upload": (name, content)}
    for k, v in (query or {}).items():
        at.query_params[k] = v
    return at.run()


def texts_of(fig: dict) -> list[str]:
    """Every text of a figure a person reads: title, axis titles, trace names, annotations."""
    lay = fig.get("layout", {})
    out = []

    def t(v):
        if isinstance(v, dict):
            v = v.get("text")
        if v:
            out.append(str(v))

    t(lay.get("title"))
    for k, v in lay.items():
        if k.startswith(("xaxis", "yaxis")) and isinstance(v, dict):
            t(v.get("title"))
    for a in lay.get("annotations", []) or []:
        t(a.get("text"))
    for tr in fig.get("data", []):
        t(tr.get("name"))
        cb = (tr.get("colorbar") or (tr.get("marker") or {}).get("colorbar") or {})
        t(cb.get("title"))
    return out


RAW_TEX = ("^{", "_{", "]_*", "\\", "$")
"""What raw TeX looks like in plotly text (plotly does not render it)."""


WIDGET_KINDS = ("slider", "select_slider", "selectbox", "radio", "number_input", "checkbox", "multiselect")


def widget_values(at) -> dict:
    """{key: value} of every keyed widget on the page (main area and sidebar)."""
    out = {}
    for kind in WIDGET_KINDS:
        for w in getattr(at, kind):
            if w.key and not w.key.startswith("_"):
                v = w.value
                out[w.key] = tuple(v) if isinstance(v, list) else v
    return out


def url_of(at) -> dict:
    """The page's query parameters after the run (what a copied link holds)."""
    return {k: at.query_params[k] for k in at.query_params}


def reopen(page_file: str, at, *, timeout: float = 180):
    """A fresh session (a fresh AppTest) opening the link ``at`` shows now: the same page and query."""
    from streamlit.testing.v1 import AppTest

    fresh = AppTest.from_file(page_file, default_timeout=timeout)
    for k, v in url_of(at).items():
        fresh.query_params[k] = v
    return fresh.run()


def assert_link_restores(page_file: str, at, keys) -> dict:
    """Open the link of ``at`` in a fresh session: every widget in ``keys`` comes back with its value."""
    before = widget_values(at)
    fresh = reopen(page_file, at)
    assert_clean(fresh)
    after = widget_values(fresh)
    for k in keys:
        assert k in before, f"no widget {k!r} on the page; have {sorted(before)}"
        assert after.get(k) == before[k], f"{k}: the link reopens {after.get(k)!r}, the page showed {before[k]!r}"
    return url_of(at)


# Palmer-penguins-shaped measurements (per-species means and sds of the published data set,
# Gorman, Williams & Fraser 2014): long column names, named classes, "NA" cells as R writes them.
_PENGUIN_COLUMNS = ("bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g")
_PENGUINS = {  # species: (count, means, sds)
    "Adelie": (152, (38.8, 18.3, 190.0, 3701.0), (2.7, 1.2, 6.5, 459.0)),
    "Gentoo": (124, (47.5, 15.0, 217.2, 5076.0), (3.1, 1.0, 6.5, 504.0)),
    "Chinstrap": (68, (48.8, 18.4, 195.8, 3733.0), (3.3, 1.1, 7.1, 384.0)),
}


def penguins_csv(species=("Adelie", "Gentoo"), missing_lines=(5, 273), seed: int = 0, columns=None) -> bytes:
    """A penguins-shaped CSV file: the four measurements (or those named in ``columns``) and a
    ``species`` label column, the species' rows in turn (as the published file), every measurement of
    the rows at ``missing_lines`` (1-based file lines, the header is line 1) written ``NA``. Two
    species: 276 rows."""
    rng = np.random.default_rng(seed)
    rows = []
    for sp in species:
        count, mean, sd = _PENGUINS[sp]
        X = rng.normal(mean, sd, size=(count, len(mean)))
        X[:, 2:] = np.round(X[:, 2:])  # flipper length and body mass are whole numbers in the data set
        rows += [[f"{v:.1f}" if k < 2 else f"{v:.0f}" for k, v in enumerate(x)] + [sp] for x in X]
    for line in missing_lines:
        rows[line - 2][:4] = ["NA"] * 4
    keep = [_PENGUIN_COLUMNS.index(c) for c in (columns or _PENGUIN_COLUMNS)] + [4]
    rows = [[r[k] for k in keep] for r in rows]
    header = [(_PENGUIN_COLUMNS + ("species",))[k] for k in keep]
    return (",".join(header) + "\n" + "\n".join(",".join(r) for r in rows) + "\n").encode()
