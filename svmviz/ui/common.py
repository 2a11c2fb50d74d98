"""Widgets and helpers shared by every page: the view in the URL, the data-set sidebar, errors, downloads.

The view in the URL
-------------------
Every control that changes what a page shows is mirrored in the address bar
(``…/Tuning_criteria?data=banana&n=200&seed=0&res=20…``), so a link reopens the same view — on
another machine, on a fresh server — and the browser's Back and Forward buttons step through views.
One way does it: :func:`control` makes a widget whose value comes from

* the URL, when the URL speaks for this run: the first run of a browser session (a shared link,
  a reload) and a Back/Forward step (Streamlit reruns the page with that entry's URL);
* otherwise the widget's own state (what the user set), reset to its default when ``depends``
  changed (e.g. a data-dependent default after the data set changed) or when the value is no
  longer one of the widget's options;

and writes the page's parameters back with one ``st.query_params.from_dict`` per change. The URL
holds the shared data-set choice (``data``, ``n``, ``seed``, for uploads ``label``, ``std`` and ``na``) and
the current page's own parameters only: the first write after a page switch starts afresh, so a
URL never carries another page's parameters. Parameters of widgets a page no longer shows are
dropped when the page finishes (:func:`page_view`).

Streamlit's frontend turns every query-string change into a browser-history entry, and a page
switch into two; :data:`HISTORY_SCRIPT` (installed by the frame) makes that one entry per user
action: the first history push after a click or key press is kept, later pushes replace it. What
this needs of Streamlit's internals is in :mod:`svmviz.ui._streamlit_compat`.
"""
from __future__ import annotations

import collections
import functools
import hashlib
import io
import math
import threading
import time
import weakref
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import streamlit as st

from svmviz.ui import _streamlit_compat


class _Data:
    """:mod:`svmviz.data`, imported at its first use: it brings in scikit-learn (≈ 2 s at a server's
    start), which the home page — the first thing a visitor waits for — does not need."""

    def __getattr__(self, name):
        from svmviz import data

        return getattr(data, name)


_data = _Data()

SHARED = "_svmviz_shared"  # session_state key of the shared, page-independent choices
UPLOAD_CHOICE = "Upload CSV…"
SHIPPED = ("breast_cancer", "iris", "wine")
MISSING_RULES = {"drop": "Drop the row", "median": "Fill with the column median"}
"""The sidebar's choices for an uploaded file's missing cells (:func:`svmviz.data.dataset_from_csv`'s ``missing``)."""
SHARED_URL_KEYS = ("data", "n", "seed", "label", "std", "na")
"""URL parameters of the shared data-set choice (every page has them; the rest are the page's own)."""

_RUN = "_svmviz_url_run"      # session_state: this run's view (see _url_run)
_URL_PAGE = "_svmviz_url_page"  # session_state: the page that last wrote the URL
_PENDING = "_svmviz_url_pending"  # session_state: (page, {param: text}) a speaking URL set, not yet shown
_MISSING = object()


def _shared() -> dict:
    """The shared data-set choices of this browser session (data, n, seed, upload, label column…)."""
    return st.session_state.setdefault(SHARED, {})


def ensure_app_frame() -> None:
    """Reopen a page through app.py's navigation if Streamlit ran it as a bare ``pages/`` script.

    Call first on every page. A fresh server whose first visitor follows a shared link to a page
    (``…/Tuning_criteria?data=…``) runs that file in Streamlit's legacy ``pages/``-directory mode:
    no st.navigation sidebar, no wide layout — and every later link stays in that mode until someone
    opens the root URL, because Streamlit leaves it only once app.py has called ``st.navigation``.
    Leave it now and rerun: the rerun runs app.py, whose navigation resolves the same URL.
    Pages run on their own (``streamlit run pages/…``, AppTest) are not affected.
    """
    if _streamlit_compat.leave_pages_directory_mode():
        st.rerun()


# ------------------------------------------------------------------ the view in the URL
HISTORY_SCRIPT = _streamlit_compat.HISTORY_SCRIPT


class _UrlRun:
    """The view of one script run: does the URL speak, which page, what it registered."""

    def __init__(self, token, speaks: bool, page: str, base: dict):
        self.token, self.speaks, self.page = token, speaks, page
        self.base = base  # the page's parameters already in the URL when the run started
        self.values: dict[str, str] = {}  # parameters registered in this run


def _url_run() -> _UrlRun:
    """This run's view state, made at the first call of a run.

    A run is told apart by :func:`svmviz.ui._streamlit_compat.run_token` (the reference kept here
    keeps it from being recycled). The URL speaks in the first run of the session and in a
    Back/Forward rerun (:func:`svmviz.ui._streamlit_compat.is_history_navigation`)."""
    token = _streamlit_compat.run_token()
    run = st.session_state.get(_RUN)
    if isinstance(run, _UrlRun) and run.token is token:
        return run
    first = not isinstance(run, _UrlRun)
    history = _streamlit_compat.is_history_navigation()
    page = _streamlit_compat.page_id()
    url = st.query_params.to_dict()
    same_page = st.session_state.get(_URL_PAGE) == page
    base = {k: v for k, v in url.items() if same_page or first or history}
    run = _UrlRun(token, first or history, page, base)
    st.session_state[_RUN] = run
    pending = st.session_state.get(_PENDING)
    if run.speaks:
        # what the link sets for widgets this run may not reach (it stops to ask before a long
        # computation): they take it when they first appear on this page
        st.session_state[_PENDING] = (page, dict(url))
    elif pending is not None and pending[0] != page:
        st.session_state.pop(_PENDING, None)
    return run


def url_speaks() -> bool:
    """True when this run's URL sets the view (first run of the session, or Back/Forward)."""
    return _url_run().speaks


def _write_url(values: dict) -> None:
    run = _url_run()
    st.session_state[_URL_PAGE] = run.page
    if values != st.query_params.to_dict():
        st.query_params.from_dict(values)


def _register(**values) -> None:
    run = _url_run()
    run.values.update({k: _url_text(v) for k, v in values.items()})
    _write_url({**run.base, **run.values})


def _url_text(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    if isinstance(v, (list, tuple)):
        return ",".join(_url_text(x) for x in v)
    return str(v)


def url_text(v) -> str:
    """A control's value as the text the URL holds (booleans 1/0, floats by ``repr``, lists with commas)."""
    return _url_text(v)


def open_view(params: Mapping, forget: Sequence[str] = ()) -> None:
    """Make the next run open the view ``params`` (URL parameters) as a shared link's first run does:
    the URL is set to them, the widgets whose keys start with one of ``forget`` lose their state (they
    start from the URL or their defaults), and the run state is reset so that the URL speaks."""
    st.query_params.from_dict({k: _url_text(v) for k, v in params.items()})
    for key in [k for k in st.session_state if str(k).startswith(tuple(forget))]:
        del st.session_state[key]
    st.session_state.pop(_RUN, None)


def page_view(fn: Callable) -> Callable:
    """Decorator of a page's ``page()``: when the page has run to its end, the URL holds exactly the
    parameters registered in this run (those of widgets no longer shown are dropped)."""

    @functools.wraps(fn)
    def page() -> None:
        _url_run()
        fn()
        run = _url_run()
        _write_url(dict(run.values))

    return page


def query_value(name: str, default, cast: Callable = float):
    """The URL's value of ``name`` when the URL speaks for this run (cast), else ``default``.

    For values that are not widgets; widgets use :func:`control`."""
    if not url_speaks():
        return default
    raw = st.query_params.get(name)
    if raw is None:
        return default
    try:
        return cast(raw)
    except (TypeError, ValueError):
        return default


def set_query(**values) -> None:
    """Put view parameters that are not :func:`control` widgets in the URL (one write, only if changed)."""
    _register(**values)


def _parse_as(raw: str, like):
    """The URL text ``raw`` as a value of the type of ``like``; ValueError if it is not one."""
    if isinstance(like, (bool, np.bool_)):
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(raw)
    if isinstance(like, (int, np.integer)):
        v = float(raw)
        if not v.is_integer():
            raise ValueError(raw)
        return int(v)
    if isinstance(like, (float, np.floating)):
        v = float(raw)
        if not math.isfinite(v):
            raise ValueError(raw)
        return v
    return raw


def _same(a, b) -> bool:
    if isinstance(a, (int, float, np.number)) and isinstance(b, (int, float, np.number)) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return a == b


class _Rules:
    """What values a widget accepts (from its arguments), to check URL values and stale state."""

    def __init__(self, kind: str, args: tuple, kwargs: dict, clamp: bool):
        self.kind, self.clamp = kind, clamp
        self.options = self.lo = self.hi = None
        if kind in ("selectbox", "radio", "select_slider", "multiselect", "pills", "segmented_control"):
            opts = kwargs.get("options", args[0] if args else ())
            self.options = list(opts)
        elif kind == "tabs":  # st.tabs(labels, key=…): its value is the open tab's label
            self.options = list(args[0])
        elif kind in ("slider", "number_input"):
            self.lo = kwargs.get("min_value", args[0] if len(args) > 0 else None)
            self.hi = kwargs.get("max_value", args[1] if len(args) > 1 else None)

    def _one(self, v):
        if self.options is not None:
            for o in self.options:
                if _same(o, v):
                    return o
            raise ValueError(f"{v!r} is not an option")
        if self.lo is not None and v < self.lo:
            if not self.clamp:
                raise ValueError(f"{v!r} is below {self.lo!r}")
            v = type(v)(self.lo)
        if self.hi is not None and v > self.hi:
            if not self.clamp:
                raise ValueError(f"{v!r} is above {self.hi!r}")
            v = type(v)(self.hi)
        return v

    def check(self, value):
        """``value`` if the widget accepts it (options matched to their own objects), else ValueError."""
        if self.kind == "multiselect":
            return [self._one(v) for v in value]
        if isinstance(value, (tuple, list)):
            out = tuple(self._one(v) for v in value)
            if len(out) == 2 and out[0] > out[1]:
                raise ValueError("range ends in the wrong order")
            return out
        return self._one(value)

    def parse(self, raws: list[str], default):
        """URL texts → a value shaped like ``default`` (a tuple spread over several parameters, a list
        written comma-separated)."""
        if self.kind == "multiselect":
            like = self.options[0] if self.options else ""
            return [_parse_as(r, like) for r in raws[0].split(",") if r != ""]
        if isinstance(default, tuple):
            return tuple(_parse_as(r, d) for r, d in zip(raws, default))
        like = default
        if self.options:
            like = self.options[0]
        return _parse_as(raws[0], like)


def control(make: Callable, label: str, *args, key: str, default, url: str | tuple | None = None,
            depends: Any = None, keep_choice: bool = False, clamp: bool = False, **kwargs):
    """``make(label, *args, key=key, **kwargs)`` — a Streamlit widget — with its value kept in the URL.

    Parameters
    ----------
    make : a Streamlit widget function (``st.slider``, ``st.sidebar.selectbox``, ``cols[0].radio``…)
        Called without ``value``/``index``/``default``: the value is put in ``st.session_state[key]``.
    label, args, kwargs : the widget's own arguments.
    key : str
        The widget's key.
    default : the value when nothing else decides (a tuple for a range slider, a list for a multiselect).
    url : str or tuple of str, optional
        URL parameter name(s) (a range slider: two names). None: not in the URL.
    depends : hashable, optional
        Whatever the default depends on (e.g. the data set): when it changes, the value is reset to
        ``default`` — so a data-dependent default follows the data.
    keep_choice : bool
        With ``depends``: reset only a value that was the old default; a value the user chose stays
        (while it is still one of the options).
    clamp : bool
        A URL value outside a slider's bounds is clamped to them (instead of ignored).

    Returns
    -------
    The widget's value.
    """
    kind = getattr(make, "__name__", "")
    rules = _Rules(kind, (label, *args) if kind == "tabs" else args, kwargs, clamp)
    names = (url,) if isinstance(url, str) else tuple(url or ())
    run = _url_run()
    dep_key, def_key = f"_svmviz_depends_{key}", f"_svmviz_default_{key}"
    value = _MISSING
    if run.speaks and names:
        raws = [st.query_params.get(n) for n in names]
        if all(r is not None for r in raws):
            try:
                value = rules.check(rules.parse(raws, default))
            except (TypeError, ValueError):
                value = _MISSING
        if value is _MISSING:
            value = default
        pending = st.session_state.get(_PENDING)
        for n in names if pending else ():
            pending[1].pop(n, None)
    elif key not in st.session_state:
        value = default
        pending = st.session_state.get(_PENDING)
        raws = [pending[1].get(n) for n in names] if pending and pending[0] == run.page and names else [None]
        if all(r is not None for r in raws):
            for n in names:
                pending[1].pop(n, None)
            try:
                value = rules.check(rules.parse(raws, default))
            except (TypeError, ValueError):
                value = default
    elif st.session_state.get(dep_key, _MISSING) != depends and not (
            keep_choice and not _same_value(st.session_state[key], st.session_state.get(def_key, _MISSING))):
        value = default
    else:
        try:
            current = st.session_state[key]
            checked = rules.check(current)
            if not _same_value(checked, current):
                value = checked
        except (TypeError, ValueError):
            value = default
    if value is not _MISSING:
        st.session_state[key] = list(value) if kind == "multiselect" else value
    st.session_state[dep_key] = depends
    st.session_state[def_key] = default
    out = make(label, *args, key=key, **kwargs)
    if names:
        # lazy tabs (``st.tabs(…, key=…, on_change="rerun")``) return their containers: the value is the open tab
        parts = out if len(names) > 1 else (st.session_state.get(key, default) if kind == "tabs" else out,)
        _register(**{n: p for n, p in zip(names, parts)})
    return out


def _same_value(a, b) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) and type(x) is type(y) for x, y in zip(a, b))
    return _same(a, b) and type(a) is type(b)


# ------------------------------------------------------------------ the head of a page
def page_header(module: str, caption: str | None = None) -> None:
    """The head of every page, the same on each: the page's title (its entry in
    :data:`svmviz.ui.frame.PAGES`), a caption naming the paper and what the page shows (glossary
    terms spelled out, :func:`svmviz.ui.glossary.spell`) and the “Reproduce the paper's figure”
    picker (:func:`svmviz.ui.presets.picker`).

    Every page is a function ``page()`` in ``svmviz.ui.<module>`` that starts with this call; it
    is run by the thin script ``pages/<N>_<Title>.py`` under ``streamlit run app.py`` and by the
    installed app's frame (:mod:`svmviz.ui.frame`)."""
    from svmviz.ui import frame, glossary, presets

    spec = next(s for s in frame.PAGES if s.module == module)
    st.title(spec.title)
    if caption:
        st.caption(glossary.spell(caption))
    presets.picker(module)


# ------------------------------------------------------------------ figures kept between runs
_FIGURES: "collections.OrderedDict[str, Any]" = collections.OrderedDict()
_FIGURES_LOCK = threading.Lock()
MAX_FIGURES = 64
"""Built figures kept (all sessions): a page's figures of a few views."""


def cached_figure(name: str, key_parts, build: Callable[[], Any]):
    """``build()`` — a Plotly figure — kept for the next runs with the same ``key_parts`` (anything
    :func:`svmviz.ui.compute.digest` hashes: the data the figure shows and its options).

    For figures that do not change with most interactions (the Loss page's loss curves do not
    depend on the data set; the Unbiased SVC page's 1-D section not on the sidebar): building a
    figure validates every property (tens of ms each), and a page redraws all of them on every
    rerun. The figure is shared, read-only: ``st.plotly_chart`` copies it (``to_dict``)."""
    from svmviz.ui.compute import digest

    key = f"{name}:{digest(key_parts)}"
    with _FIGURES_LOCK:
        fig = _FIGURES.get(key)
        if fig is not None:
            _FIGURES.move_to_end(key)
            return fig
    fig = build()
    with _FIGURES_LOCK:
        _FIGURES[key] = fig
        while len(_FIGURES) > MAX_FIGURES:
            _FIGURES.popitem(last=False)
    return fig


# ------------------------------------------------------------------ messages and data sets
def show_error(exc_or_msg, *, what: str | None = None) -> None:
    """Show a bad-input or failed-solve problem as ``st.error`` saying what to fix (never a traceback)."""
    msg = str(exc_or_msg)
    if what:
        msg = f"{what}: {msg}"
    st.error(msg, icon="⚠️")


def label_of(name: str) -> str:
    if name == UPLOAD_CHOICE:
        return name
    if name == "edited":  # the data editor's choice (svmviz.ui.edit)
        from svmviz.ui.edit import CHOICE_LABEL

        return CHOICE_LABEL
    try:
        return f"{name} — {_data.describe(name)}"
    except Exception:  # noqa: BLE001 — a description is cosmetic
        return name


@st.cache_resource(show_spinner=False, max_entries=64)
def _cached_dataset(name: str, n: int | None, seed: int, params: tuple) -> "_data.Dataset":
    return _data.make_dataset(name, n=n, seed=seed, **dict(params))


# ------------------------------------------------------------------ uploaded files
#: a parsed upload nobody has used for this long is dropped (the session still holds the file's bytes,
#: and parses it again if it comes back)
UPLOAD_TTL_SECONDS = 20 * 60
_UPLOAD_LEASE = "_svmviz_upload_lease"  # session_state: this session's claim on the parsed uploads
_uploads_lock = threading.Lock()
_upload_users: dict[str, set] = {}  # cache key -> ids of the sessions using it
_upload_seen: dict[str, float] = {}  # cache key -> last use (monotonic seconds)
_clock = time.monotonic


class _UploadLease:
    """Lives in a session's state: when the session ends, Streamlit drops its state, the lease is
    collected, and the parsed files only that session used leave the cache (:func:`_release_uploads`)."""

    def __init__(self):
        self.keys: set = set()
        weakref.finalize(self, _release_uploads, id(self), self.keys)


def _release_uploads(lease_id: int, keys: set) -> None:
    from svmviz.ui.compute import _store

    store = _store()
    with _uploads_lock:
        for key in list(keys):
            users = _upload_users.get(key)
            if users is not None:
                users.discard(lease_id)
                if not users:
                    del _upload_users[key]
                    _upload_seen.pop(key, None)
                    store.discard(key)
        keys.clear()


def _expire_uploads(store, now: float) -> None:
    with _uploads_lock:
        old = [k for k, t in _upload_seen.items() if now - t > UPLOAD_TTL_SECONDS]
        for k in old:
            del _upload_seen[k]
            store.discard(k)


def _cached_csv(content: bytes, label_column: str | None, standardize: bool, missing: str = "drop",
                state=None) -> "_data.Dataset":
    """The uploaded file parsed, shared by the sessions that uploaded the same bytes.

    Held in the compute cache (:mod:`svmviz.ui.compute`), so its arrays count against that cache's one
    byte budget (``MAX_CACHE_BYTES``, least recently used first); dropped when unused for
    :data:`UPLOAD_TTL_SECONDS`, and as soon as the last session that used it ends. ``state`` is the
    session's state (default ``st.session_state``), which keeps the session's lease.
    """
    from svmviz.ui.compute import _Entry, _store, digest, nbytes

    store = _store()
    now = _clock()
    _expire_uploads(store, now)
    key = f"upload:{digest((hashlib.sha256(content).hexdigest(), label_column, bool(standardize), missing))}"
    state = st.session_state if state is None else state
    lease = state.get(_UPLOAD_LEASE)
    if not isinstance(lease, _UploadLease):
        lease = _UploadLease()
        state[_UPLOAD_LEASE] = lease
    entry = store.get(key)
    if entry is None:
        ds = _data.dataset_from_csv(io.BytesIO(content), label_column=label_column, standardize=standardize,
                                     missing=missing)
        store.put(key, "upload", _Entry(ds, (), nbytes(ds)), max_entries=16)
    else:
        ds = entry.value
    with _uploads_lock:
        _upload_users.setdefault(key, set()).add(id(lease))
        _upload_seen[key] = now
        lease.keys.add(key)
    return ds


def load_dataset(name: str, n: int | None, seed: int, params: Mapping | None = None):
    """Cached :func:`svmviz.data.make_dataset` (datasets hold callables, so ``cache_resource``)."""
    return _cached_dataset(name, n, int(seed), tuple(sorted((params or {}).items())))


def dataset_seed(ds) -> int:
    """The seed a page derives its own random choices from (splits, test samples): the data set's
    generator seed, 0 for data without one (uploaded files)."""
    seed = ds.params.get("seed") if isinstance(ds.params, dict) else None
    return int(seed) if seed is not None else 0


def data_token(X, y) -> tuple:
    """A cheap fingerprint of a data set (shape and sums): what data-dependent defaults depend on."""
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return (X.shape, round(float(X.sum()), 9), round(float((X * X).sum()), 9), round(float(y @ np.arange(y.size)), 9))


def _remember(field: str, key: str) -> None:
    """on_change of a shared widget: the user's choice becomes the session's (every page's)."""
    _shared()[field] = st.session_state[key]


def _shared_from_url(shared: dict) -> None:
    """A link or a Back/Forward step sets the session's data-set choice (before the widgets)."""
    qp = st.query_params
    for url, field, cast in (("data", "data", str), ("n", "n", int), ("seed", "seed", int),
                             ("label", "label_column", str), ("std", "standardize", lambda r: _parse_as(r, True)),
                             ("na", "missing", str)):
        raw = qp.get(url)
        if raw is None:
            continue
        try:
            shared[field] = cast(raw)
        except (TypeError, ValueError):
            pass


def dataset_sidebar(choices: Sequence[str], default: str, *, key: str, allow_upload: bool = True,
                    allow_multiclass: bool = False, params: Mapping | Callable | None = None,
                    n_range: tuple[int, int] = (20, 2000), default_n: int = 200):
    """Render the shared data-set widgets in the sidebar and return the chosen ``Dataset``.

    ``choices`` are the generator names the page accepts; scikit-learn's shipped data sets and the
    CSV upload are added when ``allow_upload``. Returns ``None`` (after a message saying what to
    do) when the data are unusable for this page. ``params`` are extra generator parameters, or a
    function of the chosen generator name returning them. ``n_range`` is what the page computes
    with: a larger uploaded file is used through a seeded, stratified subsample
    (:func:`svmviz.data.subsample_dataset`). The choice is shared by the pages: a page changes it
    only when the user changes it there (a value outside this page's range is shown clamped here and
    kept for the others).
    """
    shared = _shared()
    if url_speaks():
        _shared_from_url(shared)
    options = list(choices)
    if allow_upload:
        options += [s for s in SHIPPED if s not in options and s in _data.GENERATORS]
        options.append(UPLOAD_CHOICE)
    from svmviz.ui import edit as _edit  # the data editor (issue 14): offered on the pages with a 2-D view

    if key in _edit.PAGES:
        options.append(_edit.CHOICE)
    wanted = shared.get("data", default)
    sb = st.sidebar
    sb.header("Data")
    name = control(sb.selectbox, "Data set", options, key=f"{key}_data", default=wanted if wanted in options else default,
                   url="data", format_func=label_of, help="Shared by every page that can use it.",
                   on_change=_remember, args=("data", f"{key}_data"))
    if wanted != name and wanted not in options:
        sb.caption(f"{wanted} (chosen on another page) is not offered here; showing {name}.")
    lo, hi = n_range
    if name == _edit.CHOICE:
        return _edit.edited_dataset(key=key, default=default, params=params, n_range=n_range, default_n=default_n)
    if name == UPLOAD_CHOICE:
        ds = _uploaded(sb, key, shared, lo, hi)
        if ds is None:
            return None
    else:
        want_n = int(shared.get("n", default_n))
        n = control(sb.slider, "n (training points)", lo, hi, key=f"{key}_n", default=int(np.clip(want_n, lo, hi)),
                    url="n", clamp=True, step=10, on_change=_remember, args=("n", f"{key}_n"),
                    help="Real data sets are subsampled to n points (at most all rows).")
        if want_n != n and not lo <= want_n <= hi:
            sb.caption(f"n = {want_n} (chosen on another page or in the link) is outside what this page computes "
                       f"with ({lo}–{hi}): it uses n = {n}; the other pages keep {want_n}.")
        seed = control(sb.number_input, "Seed", 0, 2**31 - 1, key=f"{key}_seed", default=int(shared.get("seed", 0)),
                       url="seed", step=1, on_change=_remember, args=("seed", f"{key}_seed"),
                       help="Same seed, same data.")
        try:
            ds = load_dataset(name, int(n), int(seed), params(name) if callable(params) else params)
        except ValueError as exc:
            show_error(exc, what=f"Could not make {name}")
            return None
        if name in SHIPPED and ds.X.shape[0] < n:
            sb.caption(f"{name} has {ds.X.shape[0]} rows; all are used.")
        if key in _edit.PAGES:
            _edit.remember_base(shared, ds, name, int(n), int(seed))
    if ds.is_multiclass and not allow_multiclass:
        show_error(f"{ds.name} has {ds.n_classes} classes; this page is for two classes. "
                   "Choose another data set or upload a file with two label values.")
        return None
    counts = ", ".join(f"{c}: {int(np.sum(ds.y == v))}" for c, v in _class_values(ds))
    sb.caption(f"{ds.X.shape[0]} points, {ds.X.shape[1]} features — {counts}")
    return ds


def _uploaded(sb, key: str, shared: dict, lo: int, hi: int):
    """The uploaded CSV file as a Dataset (subsampled to at most ``hi`` rows), or None after saying why."""
    up = sb.file_uploader("CSV file (numeric features, one label column)", type=["csv", "txt"], key=f"{key}_upload")
    if up is not None:
        shared["upload"] = (up.name, up.getvalue())
    if "upload" not in shared:
        sb.info("Choose a CSV file: one row per point, numeric feature columns and a label column. "
                "(A link cannot carry the file: whoever opens it is asked for it.)")
        return None
    fname, content = shared["upload"]
    header = _data.csv_header(content)
    label_col = None
    if header:
        stored = shared.get("label_column")
        label_col = control(sb.selectbox, "Label column", header, key=f"{key}_labelcol",
                            default=stored if stored in header else header[-1], url="label",
                            on_change=_remember, args=("label_column", f"{key}_labelcol"))
    standardize = control(sb.checkbox, "Standardize features", key=f"{key}_std",
                          default=bool(shared.get("standardize", True)), url="std",
                          on_change=_remember, args=("standardize", f"{key}_std"),
                          help="Scale each column to mean 0, sd 1 so one σ suits all columns.")
    missing = control(sb.radio, "Rows with missing values", list(MISSING_RULES), key=f"{key}_missing",
                      default=shared.get("missing") if shared.get("missing") in MISSING_RULES else "drop", url="na",
                      format_func=MISSING_RULES.get, on_change=_remember, args=("missing", f"{key}_missing"),
                      help="An empty cell (or NA, NaN, null): leave the row out, or fill the cell with the median "
                           "of its column (a row without a label is left out either way).")
    sb.caption(f"Uploaded: {fname}")
    try:
        ds = _cached_csv(content, label_col, bool(standardize), missing)
    except ValueError as exc:
        show_error(exc, what=f"Could not use {fname}")
        return None
    for note in ds.notes:  # what the loader decided for the user (e.g. a dropped index column)
        sb.info(note)
    rows = ds.X.shape[0]
    if rows <= hi:
        return ds
    sb.warning(f"{fname} has {rows} rows; this page computes with at most {hi} (its work and memory grow like "
               "n²). It uses a seeded, stratified random subsample of the rows:")
    want_n = int(shared.get("n", hi))
    n = control(sb.slider, "Subsample size n", max(lo, 2 * ds.n_classes), hi, key=f"{key}_n",
                default=int(np.clip(want_n, max(lo, 2 * ds.n_classes), hi)), url="n", clamp=True, step=10,
                on_change=_remember, args=("n", f"{key}_n"),
                help="Rows drawn at random, each class keeping its share of the file.")
    seed = control(sb.number_input, "Subsample seed", 0, 2**31 - 1, key=f"{key}_seed",
                   default=int(shared.get("seed", 0)), url="seed", step=1,
                   on_change=_remember, args=("seed", f"{key}_seed"), help="Same seed, same rows.")
    return _data.subsample_dataset(ds, int(n), int(seed))


def _class_values(ds):
    if ds.is_multiclass:
        return [(c, i) for i, c in enumerate(ds.classes)]
    return [(ds.classes[0], -1.0), (ds.classes[1], 1.0)]


def csv_download(label: str, columns: Mapping[str, Sequence], file_name: str, *, key: str) -> None:
    """A download button for a table given as named, equally long columns. The CSV text is written
    when the button is clicked (Streamlit calls :func:`csv_bytes` then), not at every run of the
    page: a page offers several tables (the USVC error surfaces alone are 24,000 rows)."""
    names = list(columns)
    arrays = [np.asarray(columns[c]).ravel() for c in names]
    if arrays and len({a.shape[0] for a in arrays}) != 1:
        raise ValueError("csv_download: every column must have the same length.")
    st.download_button(label, functools.partial(csv_bytes, names, arrays), file_name=file_name, mime="text/csv",
                       key=key)


def csv_bytes(names: Sequence[str], arrays: Sequence[np.ndarray]) -> bytes:
    """The CSV file of :func:`csv_download`: a header line, then one line per row (floats written
    with every digit, ``repr``)."""
    buf = io.StringIO()
    buf.write(",".join(names) + "\n")
    for row in zip(*arrays):
        buf.write(",".join(_fmt(v) for v in row) + "\n")
    return buf.getvalue().encode()


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


# the one cached-compute helper (progress, cost estimate, Cancel, readable warnings): svmviz/ui/compute.py
from svmviz.ui.compute import Cancelled, Cost, cached_compute  # noqa: E402,F401
