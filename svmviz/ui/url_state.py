"""The view in the URL: which parameters this run's address holds, and when the address speaks for the run.

The view in the URL
-------------------
Every control that changes what a page shows is mirrored in the address bar
(``…/Tuning_criteria?data=banana&n=200&seed=0&res=20…``), so a link reopens the same view — on
another machine, on a fresh server — and the browser's Back and Forward buttons step through views.
One way does it: :func:`svmviz.ui.widgets.control` makes a widget whose value comes from

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
"""
from __future__ import annotations

import functools
import math
from typing import Callable, Mapping, Sequence

import numpy as np
import streamlit as st

from svmviz.ui import _streamlit_compat

_RUN = "_svmviz_url_run"      # session_state: this run's view (see current_run)
_URL_PAGE = "_svmviz_url_page"  # session_state: the page that last wrote the URL
PENDING = "_svmviz_url_pending"  # session_state: (page, {param: text}) a speaking URL set, not yet shown


HISTORY_SCRIPT = _streamlit_compat.HISTORY_SCRIPT


class _UrlRun:
    """The view of one script run: does the URL speak, which page, what it registered."""

    def __init__(self, token, speaks: bool, page: str, base: dict):
        self.token, self.speaks, self.page = token, speaks, page
        self.base = base  # the page's parameters already in the URL when the run started
        self.values: dict[str, str] = {}  # parameters registered in this run
        self.waiting = False  # the page waits for data only the user can give (see wait_for_data)
        self.at_end: list[Callable[[], None]] = []  # drawn when the page has run to its end (at_page_end)
        self.at_stop: list[Callable[[], None]] = []  # drawn when the page stops early (at_page_stop)


def current_run() -> _UrlRun:
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
    pending = st.session_state.get(PENDING)
    if run.speaks:
        # what the link sets for widgets this run may not reach (it stops to ask before a long
        # computation): they take it when they first appear on this page
        st.session_state[PENDING] = (page, dict(url))
    elif pending is not None and pending[0] != page:
        st.session_state.pop(PENDING, None)
    return run


def url_speaks() -> bool:
    """True when this run's URL sets the view (first run of the session, or Back/Forward)."""
    return current_run().speaks


def _write_url(values: dict) -> None:
    """Set the URL's query to ``values`` (one write, only if it differs) and note the page that wrote it."""
    run = current_run()
    st.session_state[_URL_PAGE] = run.page
    if values != st.query_params.to_dict():
        st.query_params.from_dict(values)


def register(**values) -> None:
    """Record this run's parameters ``values`` (their URL text) and write the URL once if it changed."""
    run = current_run()
    run.values.update({k: _url_text(v) for k, v in values.items()})
    _write_url({**run.base, **run.values})


URL_DIGITS = 12
"""Significant digits of a float in a URL: a slider's arithmetic leaves noise in the last of the 17
digits a float needs (42.45 held as 42.449999999999996); twelve keep every value a control offers."""


def _url_text(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return float_text(v)
    if isinstance(v, (list, tuple)):
        return ",".join(_url_text(x) for x in v)
    return str(v)


def float_text(x: float) -> str:
    """``x`` as the shortest text that reads back as ``x`` rounded to :data:`URL_DIGITS` significant digits
    (``42.449999999999996`` → ``"42.45"``; ``repr`` of the rounded float, so ``float(text)`` is that float)."""
    x = float(x)
    if not math.isfinite(x):
        return repr(x)
    return repr(float(f"{x:.{URL_DIGITS}g}"))


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
        current_run()
        fn()
        run = current_run()
        for finish in run.at_end:
            finish()
        # waiting for a file, the controls after the data are not shown: their parameters stay (wait_for_data)
        _write_url({**run.base, **run.values} if run.waiting else dict(run.values))

    return page


def at_page_stop(fn: Callable[[], None]) -> None:
    """Call ``fn()`` when this run's page stops before its end (:func:`stop_page`, after a cost question
    or a message): what an element drawn early shows when the page will not complete it."""
    current_run().at_stop.append(fn)


def stop_page() -> None:
    """``st.stop()`` after the hooks of :func:`at_page_stop`: once ``st.stop()`` is called nothing more
    is drawn (Streamlit ends the run at the next element), so what must show is drawn first."""
    run = current_run()
    hooks, run.at_stop = run.at_stop, []
    for finish in hooks:
        finish()
    st.stop()


def at_page_end(fn: Callable[[], None]) -> None:
    """Call ``fn()`` when this run's page has run to its end (:func:`page_view`): what an element drawn
    early can only complete once the page has read all its controls (the point editor's chart)."""
    current_run().at_end.append(fn)


def wait_for_data() -> None:
    """Say that this run stops before the page's controls because it waits for data only the user can
    give (an uploaded file, which a link cannot carry). The URL then keeps the parameters of the controls
    not shown, and those controls take them once the data arrive (whether the page then returns or stops)."""
    run = current_run()
    run.waiting = True
    held = {k: v for k, v in run.base.items() if k not in run.values}  # the controls not shown yet
    pending = st.session_state.get(PENDING)
    earlier = dict(pending[1]) if pending is not None and pending[0] == run.page else {}
    st.session_state[PENDING] = (run.page, {**earlier, **held})


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
    register(**values)


def note_clamped(where, label: str, names: Sequence[str], raws: Sequence[str], value) -> None:
    """Say, beside the widget ``label`` (in the container ``where``, else the page), that the link's
    values ``raws`` of the parameters ``names`` lay outside its range and that ``value``, the nearest
    limit, is used instead."""
    given = ", ".join(f"{n} = {r}" for n, r in zip(names, raws))
    used = ", ".join(_url_text(v) for v in value) if isinstance(value, (list, tuple)) else _url_text(value)
    info = getattr(where, "info", None) or st.info
    info(f"The link's {given} is outside what “{label}” allows: the nearest limit, {used}, is used.", icon=":material/info:")


def parse_as(raw: str, like):
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
