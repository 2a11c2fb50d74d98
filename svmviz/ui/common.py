"""Widgets and helpers shared by every page: the data-set sidebar, errors, downloads, progress.

The data-set choice (name, n, seed, uploaded file) is shared across pages and mirrored in the URL
(``?data=banana&n=200&seed=0``) so a teacher can send a link that reopens the same view.
"""
from __future__ import annotations

import io
from typing import Callable, Mapping, Sequence

import numpy as np
import streamlit as st

from svmviz import data as _data

SHARED = "_svmviz_shared"  # session_state key of the shared, page-independent choices
UPLOAD_CHOICE = "Upload CSV…"
SHIPPED = ("breast_cancer", "iris", "wine")


def _shared() -> dict:
    """The shared choices; seeded once per session from the URL's query parameters."""
    if SHARED not in st.session_state:
        qp = st.query_params
        shared = {}
        if "data" in qp:
            shared["data"] = qp["data"]
        for k in ("n", "seed"):
            if k in qp:
                try:
                    shared[k] = int(qp[k])
                except ValueError:
                    pass
        st.session_state[SHARED] = shared
    return st.session_state[SHARED]


def ensure_app_frame() -> None:
    """Reopen a page through app.py's navigation if Streamlit ran it as a bare ``pages/`` script.

    Call first on every page. A fresh server whose first visitor follows a shared link to a page
    (``…/Tuning_criteria?data=…``) runs that file in Streamlit's legacy ``pages/``-directory mode:
    no st.navigation sidebar, no wide layout — and every later link stays in that mode until someone
    opens the root URL, because Streamlit leaves it only once app.py has called ``st.navigation``.
    Leave it now and rerun: the rerun runs app.py, whose navigation resolves the same URL.
    Pages run on their own (``streamlit run pages/…``, AppTest) are not affected.
    """
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # a Streamlit without the legacy mode
        return
    if getattr(PagesManager, "uses_pages_directory", None):
        PagesManager.uses_pages_directory = False
        st.rerun()


def query_value(name: str, default, cast: Callable = float):
    """A view parameter from the URL (first run of the session) or ``default``; bad values ignored."""
    seeded = st.session_state.setdefault("_svmviz_qp_seen", {})
    if name in seeded:
        return default
    seeded[name] = True
    raw = st.query_params.get(name)
    if raw is None:
        return default
    try:
        return cast(raw)
    except (TypeError, ValueError):
        return default


def set_query(**values) -> None:
    """Mirror the current view in the URL (only values that changed are written)."""
    for k, v in values.items():
        sv = str(v)
        if st.query_params.get(k) != sv:
            st.query_params[k] = sv


def show_error(exc_or_msg, *, what: str | None = None) -> None:
    """Show a bad-input or failed-solve problem as ``st.error`` saying what to fix (never a traceback)."""
    msg = str(exc_or_msg)
    if what:
        msg = f"{what}: {msg}"
    st.error(msg, icon="⚠️")


def label_of(name: str) -> str:
    if name == UPLOAD_CHOICE:
        return name
    try:
        return f"{name} — {_data.describe(name)}"
    except Exception:  # noqa: BLE001 — a description is cosmetic
        return name


@st.cache_resource(show_spinner=False, max_entries=64)
def _cached_dataset(name: str, n: int | None, seed: int, params: tuple) -> "_data.Dataset":
    return _data.make_dataset(name, n=n, seed=seed, **dict(params))


@st.cache_resource(show_spinner=False, max_entries=16)
def _cached_csv(content: bytes, label_column: str | None, standardize: bool) -> "_data.Dataset":
    return _data.dataset_from_csv(io.BytesIO(content), label_column=label_column, standardize=standardize)


def load_dataset(name: str, n: int | None, seed: int, params: Mapping | None = None):
    """Cached :func:`svmviz.data.make_dataset` (datasets hold callables, so ``cache_resource``)."""
    return _cached_dataset(name, n, int(seed), tuple(sorted((params or {}).items())))


def _csv_header(content: bytes) -> list[str]:
    """The label-column choices: the column names as the loader sees them (:func:`svmviz.data.csv_header`)."""
    return _data.csv_header(content)


def dataset_sidebar(choices: Sequence[str], default: str, *, key: str, allow_upload: bool = True,
                    allow_multiclass: bool = False, params: Mapping | Callable | None = None,
                    n_range: tuple[int, int] = (20, 2000), default_n: int = 200):
    """Render the shared data-set widgets in the sidebar and return the chosen ``Dataset``.

    ``choices`` are the generator names the page accepts; scikit-learn's shipped data sets and the
    CSV upload are added when ``allow_upload``. Returns ``None`` (after an ``st.error`` saying what
    to fix) when the data are unusable for this page. ``params`` are extra generator parameters, or
    a function of the chosen generator name returning them.
    """
    shared = _shared()
    options = list(choices)
    if allow_upload:
        options += [s for s in SHIPPED if s not in options and s in _data.GENERATORS]
        options.append(UPLOAD_CHOICE)
    current = shared.get("data", default)
    if current not in options:
        current = default
    sb = st.sidebar
    sb.header("Data")
    name = sb.selectbox("Data set", options, index=options.index(current), format_func=label_of,
                        key=f"{key}_data", help="Shared by every page that can use it.")
    ds = None
    if name == UPLOAD_CHOICE:
        up = sb.file_uploader("CSV file (numeric features, one label column)", type=["csv", "txt"],
                              key=f"{key}_upload")
        if up is not None:
            shared["upload"] = (up.name, up.getvalue())
        if "upload" not in shared:
            sb.info("Choose a CSV file: one row per point, numeric feature columns and a label column.")
            shared["data"] = name
            return None
        fname, content = shared["upload"]
        header = _csv_header(content)
        label_col = None
        if header:
            stored = shared.get("label_column")
            idx = header.index(stored) if stored in header else len(header) - 1
            label_col = sb.selectbox("Label column", header, index=idx, key=f"{key}_labelcol")
            shared["label_column"] = label_col
        standardize = sb.checkbox("Standardize features", value=shared.get("standardize", True),
                                  key=f"{key}_std",
                                  help="Scale each column to mean 0, sd 1 so one σ suits all columns.")
        shared["standardize"] = standardize
        sb.caption(f"Uploaded: {fname}")
        try:
            ds = _cached_csv(content, label_col, standardize)
        except ValueError as exc:
            show_error(exc, what=f"Could not use {fname}")
            shared["data"] = name
            return None
        for note in ds.notes:  # what the loader decided for the user (e.g. a dropped index column)
            sb.info(note)
        seed = shared.get("seed", 0)
    else:
        real = name in SHIPPED
        lo, hi = n_range
        n_default = int(np.clip(shared.get("n", default_n), lo, hi))
        n = sb.slider("n (training points)", lo, hi, n_default, step=10, key=f"{key}_n",
                      help="Real data sets are subsampled to n points (at most all rows).")
        seed = sb.number_input("Seed", min_value=0, max_value=2**31 - 1, value=int(shared.get("seed", 0)),
                               step=1, key=f"{key}_seed", help="Same seed, same data.")
        shared["n"], shared["seed"] = int(n), int(seed)
        try:
            ds = load_dataset(name, int(n), int(seed), params(name) if callable(params) else params)
        except ValueError as exc:
            show_error(exc, what=f"Could not make {name}")
            shared["data"] = name
            return None
        if real and ds.X.shape[0] < n:
            sb.caption(f"{name} has {ds.X.shape[0]} rows; all are used.")
    shared["data"] = name
    set_query(data=name, n=shared.get("n", default_n), seed=shared.get("seed", 0))
    if ds.is_multiclass and not allow_multiclass:
        show_error(f"{ds.name} has {ds.n_classes} classes; this page is for two classes. "
                   "Choose another data set or upload a file with two label values.")
        return None
    counts = ", ".join(f"{c}: {int(np.sum(ds.y == v))}" for c, v in _class_values(ds))
    sb.caption(f"{ds.X.shape[0]} points, {ds.X.shape[1]} features — {counts}")
    return ds


def _class_values(ds):
    if ds.is_multiclass:
        return [(c, i) for i, c in enumerate(ds.classes)]
    return [(ds.classes[0], -1.0), (ds.classes[1], 1.0)]


def csv_download(label: str, columns: Mapping[str, Sequence], file_name: str, *, key: str) -> None:
    """A download button for a table given as named, equally long columns."""
    names = list(columns)
    arrays = [np.asarray(columns[c]).ravel() for c in names]
    if arrays and len({a.shape[0] for a in arrays}) != 1:
        raise ValueError("csv_download: every column must have the same length.")
    buf = io.StringIO()
    buf.write(",".join(names) + "\n")
    for row in zip(*arrays):
        buf.write(",".join(_fmt(v) for v in row) + "\n")
    st.download_button(label, buf.getvalue().encode(), file_name=file_name, mime="text/csv", key=key)


def _fmt(v) -> str:
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    s = str(v)
    return f'"{s}"' if ("," in s or '"' in s) else s


class StreamlitProgress:
    """Adapter from a numerics progress callback ``cb(done, total, message)`` to ``st.progress``."""

    def __init__(self, text: str):
        self._bar = st.progress(0.0, text=text)
        self._text = text

    def __call__(self, done: int, total: int, message: str = "") -> None:
        frac = 0.0 if total <= 0 else min(1.0, done / total)
        self._bar.progress(frac, text=f"{self._text} {message}".strip())

    def done(self) -> None:
        self._bar.empty()


# ------------------------------------------------------------------ shared memo with progress
def _digest(obj, h=None):
    """A stable content hash of arrays, numbers, strings and (nested) tuples/lists/dicts."""
    import hashlib

    top = h is None
    h = hashlib.sha1() if top else h
    if isinstance(obj, np.ndarray):
        a = np.ascontiguousarray(obj)
        h.update(f"nd{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    elif isinstance(obj, (list, tuple)):
        h.update(f"seq{len(obj)}".encode())
        for o in obj:
            _digest(o, h)
    elif isinstance(obj, dict):
        h.update(f"map{len(obj)}".encode())
        for k in sorted(obj, key=str):
            _digest(k, h)
            _digest(obj[k], h)
    else:
        h.update(repr(obj).encode())
    return h.hexdigest() if top else None


@st.cache_resource(show_spinner=False)
def _memo_store():
    import threading
    from collections import OrderedDict

    return {"lock": threading.Lock(), "data": OrderedDict()}


def cached_compute(name: str, key_parts, fn: Callable, *, progress_text: str | None = None,
                   max_entries: int = 48):
    """Process-wide LRU cache (shared by every session, like ``st.cache_resource``) for numerics that
    report progress: ``fn(progress)`` runs only on a miss, with an ``st.progress`` bar fed by the
    callback ``progress(done, total, message)``. Returns the cached result."""
    store = _memo_store()
    key = name + ":" + _digest(key_parts)
    with store["lock"]:
        if key in store["data"]:
            store["data"].move_to_end(key)
            return store["data"][key]
    bar = StreamlitProgress(progress_text) if progress_text else None
    try:
        result = fn(bar)
    finally:
        if bar is not None:
            bar.done()
    with store["lock"]:
        store["data"][key] = result
        while len(store["data"]) > max_entries:
            store["data"].popitem(last=False)
    return result
