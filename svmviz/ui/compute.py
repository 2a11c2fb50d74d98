"""The app's one cache, and its compute helper: progress, cost estimate, Cancel, readable warnings.

The cache
---------
Everything the app keeps between runs — results, data sets, parsed uploads, built figures — is held
in one store, under one policy:

- **key = content hash**: ``"<name>:<digest of key_parts>"`` (:func:`digest` hashes arrays, numbers,
  strings and nested sequences / dicts by their content), so equal inputs find the same entry
  whatever session, page or object they come from;
- **bounded**: at most ``max_entries`` entries per ``name``, and all entries together at most
  :data:`MAX_CACHE_BYTES` of the numpy arrays they hold; least recently used first;
- **per server**: one store for the process (held by ``st.cache_resource``, so
  ``st.cache_resource.clear()`` empties it too), shared by every session;
- **safe across sessions**: entries are shared read-only (a page never modifies what it gets), and
  what one session must not see of another (its uploaded file, its edits) is in the key.

Two ways in: :func:`cached` builds a quick value in the script's own thread (a data set, a figure);
:func:`cached_compute` runs the numerics in a background job with progress and Cancel.

The compute helper
------------------
Every page computes through :func:`cached_compute`::

    result = cached_compute("surface", (X, y, grid), lambda progress: criteria_surface(..., progress=progress),
                            progress_text="Fitting the grid…", cost=Cost(42.0, "exact leave-one-out"))

- **The cache above**: the result is stored under its name and the content hash of ``key_parts``.
- **The work runs in a background thread** ("job"), one per key for the whole server: a second
  session (or the rerun a widget triggers) asking for the same key waits for the same job instead
  of starting another. The script thread only waits, updating a progress bar and offering Cancel
  once the work has lasted :data:`PROGRESS_AFTER_SECONDS` (quicker work shows nothing).
- **Cancel** stops the job: its progress callback raises :class:`Cancelled` at the next call, which
  unwinds the numerics; their thread pools drop the tasks not yet started
  (:func:`svmviz._parallel.task_pool`). The compiled function running at that moment finishes its chunk
  (numba-compiled code cannot be interrupted), so the numerics report progress in small chunks. Nor can
  numba's first compilation of a function: on a fresh install without the background warm-up, a job
  cancelled while compiling says "Stopped" at once, and its thread finishes that compilation
  (tens of seconds of one core for LOO along the path) — kept in the on-disk cache for the next run.
- **Work nobody waits for stops**: when a browser tab closes, Streamlit asks the session's script
  thread to stop, and the next ``st.*`` call in it raises ``StopException`` — the waiting loop makes
  such a call every :data:`POLL_SECONDS`, detaches, and a job without waiters for
  :data:`ORPHAN_GRACE_SECONDS` is cancelled. (A rerun of the same view re-attaches within that grace.)
- **Cost first**: with a :class:`Cost` estimate above :data:`ASK_ABOVE_SECONDS` the user is asked
  before anything starts — "Run (about N s)" — and offered a seeded subsample that fits the budget. The
  duration is said once a computation of the same name has run on this server (its measured time
  corrects the cost model); before that the button says "Run" and the question names no duration.
- **Warnings** raised inside ``fn`` (on its thread) are collected and shown as ``st.warning`` in
  plain words: no internal function names, no advice about parameters the page has no control for.
- **Server shutdown** (SIGTERM): a watcher thread notices the main thread's end, cancels every job
  and, if numba-compiled code still runs after :data:`EXIT_GRACE_SECONDS`, ends the process — the pool
  threads of ``concurrent.futures`` are joined at exit and would otherwise keep the server alive for
  the rest of the computation.

Layout: this module is the Streamlit side (the question, the progress bar, Cancel, the session's
state, :func:`cached_compute`); the jobs, their store, the warning capture and the shutdown watch
are in ``_jobs.py`` (no drawing), whose names are imported here.
"""
from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np
import streamlit as st

from . import url_state
from .session import shared_choice
from ._jobs import (  # noqa: F401  (the job machinery lives in _jobs.py; the pages import its public names from here)
    EXIT_GRACE_SECONDS, MAX_CACHE_BYTES, ORPHAN_GRACE_SECONDS, Cancelled, Cost, _SHUTDOWN, _Entry, _Job, _Store,
    _attach_job, _install_shutdown_watch, _install_warning_hook, digest, nbytes, readable,
)
from . import _jobs

ASK_ABOVE_SECONDS = 10.0
"""Estimated durations above this ask the user first (ten seconds: longer than a user waits unasked)."""
SUBSAMPLE_TARGET_SECONDS = 8.0
"""The subsample offered when asking is the largest whose estimate stays under this."""
POLL_SECONDS = 0.25
"""How often the waiting script thread updates the progress bar (and so notices a stop request)."""
PROGRESS_AFTER_SECONDS = 0.3
"""A computation that ends within this shows nothing; longer work shows its progress bar and Cancel
from then on. Most computations of an interaction with cached inputs end in a few ms to a fraction
of a second: a bar and a Cancel button drawn and removed again for each would cost four delta
messages and a flash of the layout, several times a rerun. The script thread makes no ``st`` call meanwhile, which
delays its noticing a closed tab by this much (well within :data:`ORPHAN_GRACE_SECONDS`)."""


@st.cache_resource(show_spinner=False)
def _store() -> _Store:
    # in st.cache_resource so that ``st.cache_resource.clear()`` (tests) also empties it
    return _Store()


# ------------------------------------------------------------------------------------ the helper
_CONFIRMED = "_svmviz_compute_confirmed"   # session_state: keys the user agreed to run
_STOPPED = "_svmviz_compute_stopped"       # session_state: keys the user cancelled


def _session_set(name: str) -> set:
    s = st.session_state.get(name)
    if not isinstance(s, set):
        s = set()
        st.session_state[name] = s
    return s


def _on_cancel(key: str) -> None:
    store = _store()
    with store.lock:
        job = store.jobs.get(key)
    if job is not None:
        job.cancel("stopped by the user")
    _session_set(_STOPPED).add(key)
    _session_set(_CONFIRMED).discard(key)


def _on_run(key: str) -> None:
    _session_set(_STOPPED).discard(key)
    _session_set(_CONFIRMED).add(key)


def _on_subsample(cb: Callable[[int], None], m: int) -> None:
    cb(int(m))


def smaller_n(page_key: str) -> Callable[[int], None] | None:
    """A :attr:`Cost.on_subsample` for pages using the shared data-set sidebar: it sets the sidebar's n
    (``<page_key>_n``; every page's n) to the subsample size — a fresh seeded sample for generated
    data, a seeded stratified subsample of an uploaded file. None where the sidebar has no n (an
    uploaded file small enough to be used whole)."""
    k = f"{page_key}_n"
    if k not in st.session_state:
        return None

    def use(m: int) -> None:
        shared_choice()["n"] = int(m)
        st.session_state[k] = int(m)

    return use


def format_seconds(s: float) -> str:
    """"about 40 s", "about 3 min", "about 1.5 h" (estimates are rough: two significant digits)."""
    if not np.isfinite(s):
        return "unknown"
    if s < 1.5:
        return "about 1 s"
    if s < 90:
        return f"about {int(round(s))} s"
    if s < 5400:
        return f"about {int(round(s / 60))} min"
    return f"about {s / 3600:.1f} h"


def subsample_size(cost: Cost, factor: float = 1.0) -> int | None:
    """The largest subsample (a multiple of 10, at least 40 points) whose estimate is under
    :data:`SUBSAMPLE_TARGET_SECONDS`; None when no smaller sample fits or none can be offered."""
    if not cost.n or cost.seconds_at is None or cost.on_subsample is None:
        return None
    lo, hi = 40, int(cost.n) - 1
    if hi < lo or cost.seconds_at(lo) * factor > SUBSAMPLE_TARGET_SECONDS:
        return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if cost.seconds_at(mid) * factor <= SUBSAMPLE_TARGET_SECONDS:
            lo = mid
        else:
            hi = mid
    m = max(40, lo // 10 * 10)
    return m if m < cost.n else None


def _calibrated(name: str) -> bool:
    """True once a computation of ``name`` with an estimate has run to its end on this server: its
    measured time is what corrects the next estimate (``_jobs._speed_factor``). Before that the estimate
    is the cost tables' alone (:mod:`svmviz._cost`, measured on another machine, off several-fold on a
    busier or faster one), and no duration is shown."""
    store = _store()
    with store.lock:
        return bool(store.speed.get(name))


def _ask(key: str, cost: Cost | None, what: str, factor: float, stopped: bool, ui_key: str) -> None:
    """The question asked instead of starting: a costly computation, or one the user stopped. A
    duration is said only when this machine's speed at this computation is known (:func:`_calibrated`)."""
    known = cost is not None and _calibrated(key.split(":", 1)[0])
    seconds = cost.seconds * factor if known else float("nan")
    took = "" if not np.isfinite(seconds) else f" (it takes {format_seconds(seconds)} on this machine)"
    what = what[:1].upper() + what[1:]
    if stopped:
        st.warning(f"Stopped: {what[:1].lower() + what[1:]}{took}.", icon=":material/stop_circle:")
    elif known:
        st.info(f"{what} takes {format_seconds(seconds)} on this machine: start it when you are ready.",
                icon=":material/timer:")
    else:
        st.info(f"{what} can take a while; how long on this machine is known once it has run here: start it "
                "when you are ready.", icon=":material/timer:")
    m = None if cost is None else subsample_size(cost, factor)
    cols = st.columns(2)
    run = "Run" if not stopped else "Run again"
    cols[0].button(f"{run} ({format_seconds(seconds)})" if np.isfinite(seconds) else run, key=f"_cc_run_{ui_key}",
                   on_click=_on_run, args=(key,), type="primary",
                   help="Compute with every point; you can cancel it while it runs.")
    if m:
        label = f"Use a seeded subsample of {m} points"
        cols[1].button(f"{label} ({format_seconds(cost.seconds_at(m) * factor)})" if known else label,
                       key=f"_cc_sub_{ui_key}", on_click=_on_subsample, args=(cost.on_subsample, m),
                       help=f"A random subsample of {m} of the {cost.n} points, the same for the same seed, "
                            "both classes kept in proportion.")


def _progress_line(text: str, job: _Job, estimate: float | None, timed: bool = True) -> tuple[float, str]:
    """The progress bar's fraction and line: ``text``, the job's message, the seconds elapsed and, when
    ``timed``, the time left (from ``estimate`` and the rate so far, or the rate alone)."""
    frac = 0.0 if job.total <= 0 else min(1.0, job.done / job.total)
    elapsed = time.monotonic() - job.started
    if estimate:
        # one estimate from the prompt to the end: the prompt's total, trusted less as the work is
        # done, the total the rate so far extrapolates to trusted more (weight √frac: a linear weight
        # would never leave the prompt's figure) — early steps (few support vectors) run faster than
        # late ones, so the rate alone promised minutes where the prompt had said an hour
        w = math.sqrt(frac)
        total = (1.0 - w) * estimate + (w * elapsed / frac if frac > 0 else 0.0)
        left = max(0.0, total - elapsed)
    elif frac > 0.02:
        left = elapsed * (1.0 - frac) / frac
    else:
        left = float("nan")
    if job.compiling or not timed:  # numba compiles, or this server's speed is unknown: no time left
        left = float("nan")
    parts = [text]
    if job.message:
        parts.append(f"— {job.message}")
    parts.append(f"({elapsed:.0f} s" + (f", {format_seconds(left).replace('about ', '~')} left)" if np.isfinite(left)
                                         else ")"))
    return frac, " ".join(parts)


def cached_compute(name: str, key_parts, fn: Callable, *, progress_text: str | None = None,
                   max_entries: int = 48, cost: Cost | None = None, optional: bool = False,
                   show_warnings: bool = True):
    """Process-wide cache of ``fn(progress)``, computed in a background job with progress and Cancel.

    Parameters
    ----------
    name : str
        What is computed (the cache bounds ``max_entries`` per name).
    key_parts : anything :func:`digest` hashes (arrays, numbers, strings, nested sequences, dicts)
        Everything the result depends on.
    fn : callable(progress) -> result
        The numerics; ``progress(done, total, message)`` reports and raises :class:`Cancelled`
        when the job must stop (let it propagate).
    progress_text : str, optional
        Label of the progress bar (default: "Computing…").
    max_entries : int
        How many results of this ``name`` the cache keeps.
    cost : Cost, optional
        Estimate; above :data:`ASK_ABOVE_SECONDS` the user is asked first (with a subsample offer).
    optional : bool
        What happens while the result is not there (waiting for the user's go, or cancelled):
        ``False`` stops the page there (:func:`svmviz.ui.url_state.stop_page`), ``True`` returns None so the rest of the
        page still shows.
    show_warnings : bool
        Show the warnings ``fn`` raised (readable, deduplicated) as ``st.warning`` here.

    Returns
    -------
    The result of ``fn`` (cached), or None (``optional=True`` and not computed).

    Raises
    ------
    Whatever ``fn`` raised (e.g. ``ValueError`` for unusable input: show it with ``show_error``).
    """
    _install_warning_hook()
    _install_shutdown_watch()
    store = _store()
    key = f"{name}:{digest(key_parts)}"
    ui_key = key.replace(":", "_")[:60]
    entry = store.get(key)
    if entry is None:
        with store.lock:
            job = store.jobs.get(key)
        factor = _jobs._speed_factor(store, name)
        stopped = key in _session_set(_STOPPED)
        ask = stopped or (job is None and cost is not None and cost.seconds * factor > ASK_ABOVE_SECONDS
                          and key not in _session_set(_CONFIRMED))
        if ask and job is not None and not job.cancel_event.is_set():
            ask = False  # someone else's run of the same computation: wait for it
        if ask:
            what = cost.what if cost is not None else (progress_text or name).rstrip("…. ")
            _ask(key, cost, what, factor, stopped, ui_key)
            if optional:
                return None
            url_state.stop_page()  # the point editor draws its points first
        entry = _run_or_wait(store, key, name, fn, progress_text or "Computing…", max_entries, cost, factor,
                             ui_key)
        if entry is None:  # cancelled (by this user: the next run shows "Stopped")
            if optional:
                return None
            url_state.stop_page()  # the point editor draws its points first
    else:
        _session_set(_STOPPED).discard(key)  # finished after all (Cancel came too late): nothing to say
    if show_warnings:
        for m in entry.messages:
            st.warning(m, icon=":material/warning:")
    return entry.value


def cache_key(name: str, key_parts) -> str:
    """The cache's key of ``key_parts`` under ``name``: ``"<name>:<content hash>"``."""
    return f"{name}:{digest(key_parts)}"


def cached(name: str, key_parts, build: Callable[[], object], *, max_entries: int = 16):
    """``build()``, kept in the app's one cache under ``name`` and the content of ``key_parts``.

    For values quick to make in the script's own thread (a data set, a parsed upload, a figure):
    no job, no progress bar, no Cancel — :func:`cached_compute` is the way for numerics. Sessions
    asking for the same value at the same time wait for the one that builds it (it is built once).

    Parameters
    ----------
    name : str
        What is kept (the cache keeps at most ``max_entries`` values of one name).
    key_parts : anything :func:`digest` hashes (arrays, numbers, strings, nested sequences, dicts)
        Everything the value depends on.
    build : callable() -> value
        Makes the value; what it raises propagates and nothing is kept.
    max_entries : int, default 16
        How many values of this ``name`` the cache keeps.

    Returns
    -------
    The value, shared read-only with every session asking for the same key (a Plotly figure is
    copied by ``st.plotly_chart``; a data set is never modified).
    """
    store = _store()
    key = cache_key(name, key_parts)
    entry = store.get(key)
    if entry is None:
        with store.building(key):  # sessions asking at once: one builds, the others take its value
            entry = store.get(key)
            if entry is None:
                value = build()
                entry = _Entry(value, (), nbytes(value))
                store.put(key, name, entry, max_entries)
    return entry.value


def cached_result(name: str, key_parts):
    """The cached result of :func:`cached_compute` for the same ``name`` and ``key_parts``, or None
    if it is not computed yet — never computes (a page can draw what it has first)."""
    entry = _store().get(f"{name}:{digest(key_parts)}")
    return None if entry is None else entry.value


def _run_or_wait(store, key, name, fn, text, max_entries, cost, factor, ui_key):
    # a computation with a cost estimate says no time left until one of its kind has run here
    # (:func:`_calibrated`): the cost tables alone are off several-fold on another machine
    timed = cost is None or _calibrated(name)
    estimate = cost.seconds * factor if cost is not None and timed else None
    job = _attach_job(store, key, name, fn, cost, max_entries)
    if job is None:
        return store.get(key)
    # the progress bar and Cancel, in a slot of their own, drawn once the work has lasted
    # PROGRESS_AFTER_SECONDS: the slot takes the same place in the page then (no st call before),
    # and quick work leaves the page as a cached result does (no element at all)
    slot = bar = None
    try:
        job.finished.wait(PROGRESS_AFTER_SECONDS)
        while True:
            while not job.finished.is_set():
                frac, line = _progress_line(text, job, estimate, timed)
                if bar is None:
                    slot = st.empty()
                    with slot.container():
                        bar = st.progress(frac, text=line)
                        st.button("Cancel", key=f"_cc_cancel_{ui_key}", on_click=_on_cancel, args=(key,),
                                  help="Stop this computation (the page keeps what it has).")
                else:
                    bar.progress(frac, text=line)  # an st call: raises StopException when the tab has closed
                job.finished.wait(POLL_SECONDS)
            if not (isinstance(job.error, Cancelled) and job.cancel_reason == "stopped by the user"
                    and key not in _session_set(_STOPPED) and not _SHUTDOWN.is_set()):
                break
            # another session stopped the computation this one waits for too: start it again
            job.detach()
            job = _attach_job(store, key, name, fn, cost, max_entries)
            if job is None:  # finished meanwhile after all
                break
    finally:
        if job is not None:
            job.detach()
    if slot is not None:
        slot.empty()
    if job is None:
        return store.get(key)
    if job.error is not None:
        if isinstance(job.error, Cancelled):
            return None
        raise job.error
    return store.get(key) or _Entry(job.result, tuple(dict.fromkeys(readable(m) for m in job.messages)),
                                     nbytes(job.result))


def clear() -> None:
    """Forget every cached result and cancel every job (tests)."""
    _store().clear()


def plan_executor(ds, options: dict | None = None):
    """The executor of a page's view (:class:`svmviz.views.Executor`) on the data set ``ds``: the steps
    that name a cache run through :func:`cached_compute` (background job, progress, Cancel), keyed by
    what made their inputs.

    Parameters
    ----------
    ds : svmviz.data.Dataset or None
        The plan's input ``ds``; its name, points, labels and true p(x) at the points identify it.
        None for a plan without data.
    options : dict, optional
        ``{step name: keyword arguments of cached_compute}`` (a ``cost``, ``optional=True``…).

    Returns
    -------
    svmviz.views.Executor
    """
    from svmviz.views import Executor

    options = dict(options or {})

    def run(step, compute, key_parts):
        return cached_compute(step.cache, key_parts, compute, progress_text=step.progress,
                              **options.get(step.bind, {}))

    if ds is None:
        return Executor({}, runner=run)
    token = (ds.name, ds.X, ds.y, None if ds.p_true is None else ds.p_true(ds.X))
    return Executor({"ds": ds}, runner=run, tokens={"ds": token})
