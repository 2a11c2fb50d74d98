"""What a Streamlit server loads ahead of its visitors, and the background warm-up it starts.

At every script run the app calls :func:`start`: it starts ``svmviz warmup`` in a background process
when the cache of compiled functions is not current (:func:`svmviz._warmup.start_background`), and,
in a browser's session on a server, one thread that loads what the pages use (:func:`load_in_server`):
it imports every page's module (scikit-learn, scipy, plotly and the kernel modules: about 2 s of CPU)
and, when the cache is current, runs the warm-up's steps (:data:`svmviz._warmup.STEPS`) on small
data, which loads each cached compiled function into the process; then it moves these long-lived
objects out of the garbage collector's scans (``gc.freeze``), which Streamlit's full collection after
every script run (``runner.postScriptGC``) would otherwise walk: about 250,000 objects, 0.12 s of CPU
per rerun with the GIL held. It works only while no page runs, so a visitor's first page finds its
modules and kernels ready instead of waiting for them (about 2 s of CPU for the Tuning page), and it
freezes once, at its end: what a page had cached by then is frozen too, and if it later becomes
cyclic garbage it stays (reference counting frees the rest).
"""
from __future__ import annotations

import gc
import importlib
import logging
import subprocess
import sys
import threading
import time
import warnings
import weakref
from typing import Callable

from svmviz import _warmup
from svmviz._jit import notices_to

_log = logging.getLogger("svmviz")


def start(page_modules: tuple[str, ...] = ()) -> subprocess.Popen | None:
    """Start the server's loading of ``page_modules`` (the app's page modules: this module imports
    nothing of the app) and the background warm-up; returns the warm-up's process (None: nothing
    started, see :func:`svmviz._warmup.start_background`)."""
    if page_modules:
        _SERVER["pages"] = tuple(page_modules)
    load_in_server()
    return _warmup.start_background()


RUN_WAIT = 60.0
"""Seconds a page's run waits at most for the loading unit in progress (one import or one step)."""

_SERVER: dict = {"pages": (), "thread": None, "lock": threading.Lock(), "unit": threading.Lock(), "runs": weakref.WeakSet()}


def _page_modules() -> list[str]:
    """The page modules the app registered with :func:`start`."""
    return list(_SERVER["pages"])


def _server_units() -> list[tuple[str, Callable[[], object]]]:
    """What the server's loading thread does, one unit at a time: import each page's module, then, if
    the cache is current, each warm-up step (with the cache current it loads kernels, compiles none)."""
    units = [(name, (lambda m=name: importlib.import_module(m))) for name in _page_modules()]
    if _warmup.is_current():
        units += [(step.name, step.run) for step in _warmup.STEPS]
    return units


def _no_run_in_progress(loader: threading.Thread) -> None:
    while any(t.is_alive() and t is not loader for t in list(_SERVER["runs"])):
        time.sleep(0.05)


def _load() -> None:
    me = threading.current_thread()
    for name, unit in _server_units():
        _no_run_in_progress(me)  # a visitor's page first: it would import or load the same itself
        with _SERVER["unit"], notices_to(lambda _text: None), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t0 = time.perf_counter()
            try:
                unit()
            except Exception as exc:  # noqa: BLE001 — the page that needs it reports it, in its own words
                _log.debug("svmviz: loading %s in the server failed: %r", name, exc)
            _log.debug("svmviz: loaded %s in the server in %.2f s", name, time.perf_counter() - t0)
    _no_run_in_progress(me)
    with _SERVER["unit"]:
        # modules, kernels and what they built live as long as the server: out of the collector's
        # scans (Streamlit collects every generation after each script run)
        gc.collect()
        gc.freeze()
        _log.debug("svmviz: the server's loading is done; %d objects frozen", gc.get_freeze_count())


def _browser_session() -> bool:
    """Whether this script run serves a browser's session on a Streamlit server: its session was opened
    by an HTTP request, whose headers ``st.context.headers`` holds (empty under AppTest)."""
    if "streamlit" not in sys.modules:  # a notebook, a script, the `svmviz app` command before it execs
        return False
    try:
        import streamlit as st

        return len(st.context.headers) > 0
    except Exception:  # noqa: BLE001 — outside a script run: no session
        return False


def load_in_server() -> threading.Thread | None:
    """Called at the start of every script run of the app (by :func:`start`): in a browser's
    session on a Streamlit server, start once the thread that loads what the pages use (see the module), and make this run
    wait for the loading unit in progress, if any, so that a page never imports beside it (two
    threads importing scikit-learn at once can see a partially initialised module). Returns the
    thread (None: not a browser's session, e.g. AppTest or a notebook, where nothing is loaded ahead)."""
    if not _browser_session():
        return None
    me = threading.current_thread()
    with _SERVER["lock"]:
        if _SERVER["thread"] is None:
            _SERVER["thread"] = threading.Thread(target=_load, name="svmviz-load", daemon=True)
            _SERVER["runs"].add(me)  # before the thread starts: it waits for this run to end
            _SERVER["thread"].start()
        _SERVER["runs"].add(me)
        loader = _SERVER["thread"]
    if me is not loader and loader.is_alive():
        t0 = time.perf_counter()
        if _SERVER["unit"].acquire(timeout=RUN_WAIT):
            _SERVER["unit"].release()
        _log.debug("svmviz: a script run waited %.2f s for the server's loading", time.perf_counter() - t0)
    return loader
