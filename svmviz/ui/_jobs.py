"""Background jobs of the app's compute helper: one thread per computation, shared by every session
waiting for it, with Cancel, the results' cache store, warnings in the user's words and the shutdown
watch.

Used by :mod:`svmviz.ui.compute` (the Streamlit side: progress bar, Cancel button, the cost question),
which re-exports the public names the pages use (:class:`Cost`, :class:`Cancelled`, :func:`digest`…).
Nothing here draws: streamlit is only asked whether a server runs (:func:`_install_shutdown_watch`).
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import threading
import time
import warnings
from collections import OrderedDict
from typing import Any, Callable, NamedTuple

import numpy as np

from svmviz import _jit

ORPHAN_GRACE_SECONDS = 2.0
"""A job without waiters for this long is cancelled; a rerun re-attaches well within it (≈ 0.1–1 s)."""
EXIT_GRACE_SECONDS = 2.0
"""At server shutdown, running jobs get this long to stop before the process is ended."""
MAX_CACHE_BYTES = 2 * 1024**3
"""Arrays held by cached results, all sessions together (the ν-path at n = 2000 alone holds ~160 MB)."""


class Cancelled(Exception):
    """Raised by a job's progress callback when the job must stop (Cancel, no waiters, shutdown)."""


class Cost(NamedTuple):
    """What a computation is estimated to cost before it starts.

    seconds : estimated wall time on this machine.
    what : what it computes, in the user's words ("exact leave-one-out over 20 × 20 grid points").
    n : the number of data points the estimate is for (0: no subsample is offered).
    seconds_at : estimate for a subsample of ``m`` of the ``n`` points (for the offer).
    on_subsample : callback applying a seeded subsample of ``m`` points (called from a button's
        ``on_click``, before the next run; it changes what the page computes).
    """

    seconds: float
    what: str
    n: int = 0
    seconds_at: Callable[[int], float] | None = None
    on_subsample: Callable[[int], None] | None = None


# ------------------------------------------------------------------------------------ the key
def digest(obj, h=None) -> str | None:
    """A stable content hash of arrays, numbers, strings and (nested) tuples / lists / dicts."""
    top = h is None
    h = hashlib.sha1() if top else h
    if isinstance(obj, np.ndarray):
        a = np.ascontiguousarray(obj)
        h.update(f"nd{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes() if a.dtype != object else repr(a.tolist()).encode())
    elif isinstance(obj, (list, tuple)):
        h.update(f"seq{len(obj)}".encode())
        for o in obj:
            digest(o, h)
    elif isinstance(obj, dict):
        h.update(f"map{len(obj)}".encode())
        for k in sorted(obj, key=str):
            digest(k, h)
            digest(obj[k], h)
    else:
        h.update(f"{type(obj).__name__}:{obj!r}".encode())
    return h.hexdigest() if top else None


def nbytes(obj, _seen=None, _depth=0) -> int:
    """Bytes of the numpy arrays reachable from ``obj`` (tuples, lists, dicts, object attributes)."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen or _depth > 6:
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return int(obj.nbytes)
    if isinstance(obj, (str, bytes, int, float, complex, bool)) or obj is None:
        return 0
    if isinstance(obj, dict):
        return sum(nbytes(v, seen, _depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return sum(nbytes(v, seen, _depth + 1) for v in obj)
    d = getattr(obj, "__dict__", None)
    return nbytes(d, seen, _depth + 1) if isinstance(d, dict) else 0


# ------------------------------------------------------------------------------------ warnings
_tls = threading.local()
_hook_lock = threading.Lock()


def _showwarning_hook(message, category, filename, lineno, file=None, line=None):
    sink = getattr(_tls, "sink", None)
    if sink is not None:
        sink.append(str(message))
    else:
        _showwarning_hook.fallback(message, category, filename, lineno, file, line)


_showwarning_hook.fallback = warnings.showwarning


def _install_warning_hook() -> None:
    """Route warnings raised on a job's thread to that job; the rest go where they went.

    ``warnings.catch_warnings`` swaps module-global state and is not safe with several sessions
    computing at once; a thread-local sink is. Checked at every job start, because a
    ``catch_warnings`` block elsewhere (pytest wraps every test in one) restores the previous
    ``showwarning`` and filters when it ends. The package's own warnings are shown every time, not
    once per code location: each job reports its own."""
    with _hook_lock:
        if warnings.showwarning is not _showwarning_hook:
            _showwarning_hook.fallback = warnings.showwarning
            warnings.showwarning = _showwarning_hook
        if not any(f[0] == "always" and f[2] is Warning and getattr(f[3], "pattern", None) == r"svmviz(\.|$)"
                   for f in warnings.filters):
            warnings.filterwarnings("always", category=Warning, module=r"svmviz(\.|$)")


_PREFIX = re.compile(r"^\s*[A-Za-z_][\w.]*(\(\))?:\s+")
_ADVICE = re.compile(r"\b(raise|increase|decrease|lower|set|pass|use|try)\b.*"
                     r"(max_iter|max_qp_iter|max_breakpoints|\btol\b|tolerance|n_threads)", re.I)
_KNOBS = ((re.compile(r"\bmax_iter\b"), "the iteration limit"),
          (re.compile(r"\bmax_qp_iter\b"), "the iteration limit"),
          (re.compile(r"\bmax_breakpoints\b"), "the breakpoint limit"))


def readable(message: str) -> str:
    """A warning in the user's words: without the internal function name it starts with
    (``"loo_path: 3 refits…"``), without advice to change a parameter the app has no control for
    ("raise max_iter", "raise the tolerance"), and with such parameter names said in words."""
    msg = _PREFIX.sub("", str(message).strip(), count=1)
    parts = [p for p in re.split(r"(?<=[.;])\s+|\s+[—–]\s+", msg) if p]
    keep = [p for p in parts if not _ADVICE.search(p)] or parts[:1]
    out = " ".join(keep).strip().rstrip(" ;,—–")
    for pat, words in _KNOBS:
        out = pat.sub(words, out)
    if out and out[0].islower():
        out = out[0].upper() + out[1:]
    return out if out.endswith((".", "!", "?", ")")) else out + "."


# ------------------------------------------------------------------------------------ jobs
class _Job:
    """One computation running in its own (daemon) thread, shared by every session waiting for it."""

    def __init__(self, key: str, name: str, fn: Callable, cost: Cost | None, store: "_Store", max_entries: int):
        self.key, self.name, self.fn, self.cost = key, name, fn, cost
        self.store, self.max_entries = store, max_entries
        self.finished = threading.Event()
        self.cancel_event = threading.Event()
        self.cancel_reason = ""
        self.result: Any = None
        self.error: BaseException | None = None
        self.messages: list[str] = []
        self.done, self.total, self.message = 0, 0, ""
        self.started = time.monotonic()
        self.seconds = float("nan")
        self.waiters = 0
        self.detached_at = None
        self.count_speed = True  # False when the job also compiled numba functions
        self.compiling = False  # True while numba compiles for it: its time left is unknown
        self._message_before_compile = ""
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name=f"svmviz-job-{name}", daemon=True)

    # -- the job's own thread ----------------------------------------------------------------
    def check(self) -> None:
        """Raise :class:`Cancelled` if the job must stop (called at every progress report)."""
        if not self.cancel_event.is_set():
            with self.lock:
                orphan = (self.waiters == 0 and self.detached_at is not None
                          and time.monotonic() - self.detached_at > ORPHAN_GRACE_SECONDS)
            if orphan:
                self.cancel("nobody is waiting for it any more")
            elif _SHUTDOWN.is_set():
                self.cancel("the server is shutting down")
        if self.cancel_event.is_set():
            raise Cancelled(self.cancel_reason)

    def _compile_progress(self, text: str) -> None:
        """The compile progress line (:func:`svmviz._jit.notices_to`) in place of the job's own message;
        ``""`` when the compilation is over gives the job's message back."""
        if text:
            if not self.compiling:
                self._message_before_compile = self.message
            self.compiling, self.message = True, text
        elif self.compiling:
            self.compiling, self.message = False, self._message_before_compile

    def progress(self, done, total, message: str = "") -> None:
        self.done, self.total, self.message = done, total, str(message or "")
        self.check()

    def _run(self) -> None:
        _install_warning_hook()
        compiled = _jit.compilations()
        _tls.sink = self.messages
        try:
            self.check()
            with _jit.notices_to(self._compile_progress):  # a numba function that must compile says so on the progress line
                self.result = self.fn(self.progress)
            self.check()  # a cancelled job's result is not cached (it may be the stopped remainder)
        except BaseException as exc:  # noqa: BLE001 — handed to the waiting script thread
            self.error = exc
        finally:
            _tls.sink = None
            self.seconds = time.monotonic() - self.started
            # a job that waited for numba to compile says nothing about this machine's speed
            self.count_speed = _jit.compilations() == compiled
            _finish(self)
            self.finished.set()

    # -- any thread ----------------------------------------------------------------------------
    def cancel(self, reason: str) -> None:
        if not self.cancel_event.is_set():
            self.cancel_reason = reason
            self.cancel_event.set()

    def attach(self) -> None:
        with self.lock:
            self.waiters += 1
            self.detached_at = None

    def detach(self) -> None:
        with self.lock:
            self.waiters -= 1
            if self.waiters <= 0:
                self.waiters = 0
                self.detached_at = time.monotonic()
        if self.waiters == 0:
            # the job may sit in one long chunk of compiled code without reporting: a timer makes sure the
            # cancel flag is set as soon as the grace has passed, so the next report stops it
            t = threading.Timer(ORPHAN_GRACE_SECONDS + 0.05, self._orphan_check)
            t.daemon = True
            t.start()

    def _orphan_check(self) -> None:
        with self.lock:
            orphan = (self.waiters == 0 and self.detached_at is not None
                      and time.monotonic() - self.detached_at >= ORPHAN_GRACE_SECONDS)
        if orphan and not self.finished.is_set():
            self.cancel("nobody is waiting for it any more")


class _Entry(NamedTuple):
    value: Any
    messages: tuple
    nbytes: int


class _Store:
    """Results of every session (LRU by count and bytes) and the jobs running now."""

    def __init__(self):
        self.lock = threading.Lock()
        self.data: OrderedDict[str, _Entry] = OrderedDict()
        self.bytes = 0
        self.jobs: dict[str, _Job] = {}
        self.max_entries: dict[str, int] = {}
        self.speed: dict[str, list] = {}  # name → recent (actual / estimated) seconds
        self.max_bytes = MAX_CACHE_BYTES  # the byte bound of put (a test lowers it on one store)
        self._building: dict[str, list] = {}  # key → [lock, sessions using it] (see building)

    @contextlib.contextmanager
    def building(self, key):
        """Held while one session builds the value of ``key``: sessions asking for the same key at the same
        time wait for it, then find the value stored, so a value is built once whatever the number of
        sessions (a class opening one link)."""
        with self.lock:
            slot = self._building.setdefault(key, [threading.RLock(), 0])
            slot[1] += 1
        try:
            with slot[0]:
                yield
        finally:
            with self.lock:
                slot[1] -= 1
                if slot[1] == 0 and self._building.get(key) is slot:
                    del self._building[key]

    def get(self, key):
        with self.lock:
            e = self.data.get(key)
            if e is not None:
                self.data.move_to_end(key)
            return e

    def put(self, key, name, entry: _Entry, max_entries: int):
        with self.lock:
            if key in self.data:
                self.bytes -= self.data.pop(key).nbytes
            self.data[key] = entry
            self.bytes += entry.nbytes
            self.max_entries[name] = max_entries
            # the count bound per name first, then the byte bound over everything
            same = [k for k in self.data if k.startswith(name + ":")]
            for k in same[:max(0, len(same) - max_entries)]:
                self.bytes -= self.data.pop(k).nbytes
            while self.bytes > self.max_bytes and len(self.data) > 1:
                _, old = self.data.popitem(last=False)
                self.bytes -= old.nbytes

    def discard(self, key) -> bool:
        """Drop one entry (True if it was there)."""
        with self.lock:
            e = self.data.pop(key, None)
            if e is not None:
                self.bytes -= e.nbytes
            return e is not None

    def clear(self):
        with self.lock:
            self.data.clear()
            self.bytes = 0
            for job in self.jobs.values():
                job.cancel("the cache was cleared")
            self.jobs.clear()
            self.speed.clear()


_ACTIVE: dict[int, _Job] = {}  # every job whose thread runs, whatever store it belongs to
_ACTIVE_LOCK = threading.Lock()
_SHUTDOWN = threading.Event()


def _finish(job: _Job) -> None:
    """Runs on the job's thread when ``fn`` has returned or raised."""
    store = job.store
    with store.lock:
        if store.jobs.get(job.key) is job:
            del store.jobs[job.key]
    if job.error is None:
        msgs = tuple(dict.fromkeys(readable(m) for m in job.messages))
        store.put(job.key, job.name, _Entry(job.result, msgs, nbytes(job.result)), job.max_entries)
        if job.cost is not None and job.cost.seconds > 0.5 and job.count_speed:
            with store.lock:
                hist = store.speed.setdefault(job.name, [])
                hist.append(job.seconds / job.cost.seconds)
                del hist[:-5]
    with _ACTIVE_LOCK:
        _ACTIVE.pop(id(job), None)


def _speed_factor(store: _Store, name: str) -> float:
    """How much slower (> 1) or faster this machine ran the last jobs of ``name`` than their cost
    model said (median of up to 5, within [1/4, 8]), so that the next estimate learns from them."""
    with store.lock:
        hist = store.speed.get(name)
        return float(np.clip(np.median(hist), 0.25, 8.0)) if hist else 1.0


# ------------------------------------------------------------------------------------ shutdown
_watch_lock = threading.Lock()
_watch_started = False


def _install_shutdown_watch() -> None:
    """Under a real Streamlit server (not AppTest or a notebook), end the process at shutdown
    even while numba-compiled code runs: ``concurrent.futures`` joins its (non-daemon) pool threads
    at exit, so a computation of several minutes would keep a SIGTERM'd server alive that long.
    The watcher wakes when the main thread finishes (after Streamlit's own SIGTERM
    handling), cancels every job and, if work is still running after :data:`EXIT_GRACE_SECONDS`,
    exits the process with status 0 — what Streamlit returns after a SIGTERM."""
    global _watch_started
    with _watch_lock:
        if _watch_started:
            return
        _watch_started = True
    try:
        from streamlit import runtime
        if not runtime.exists():
            return
    except Exception:  # noqa: BLE001 — no runtime, no server to watch
        return

    def watch():
        threading.main_thread().join()
        _SHUTDOWN.set()
        with _ACTIVE_LOCK:
            jobs = list(_ACTIVE.values())
        for j in jobs:
            j.cancel("the server is shutting down")
        deadline = time.monotonic() + EXIT_GRACE_SECONDS
        for j in jobs:
            j.finished.wait(max(0.0, deadline - time.monotonic()))
        busy = [t for t in threading.enumerate()
                if not t.daemon and t is not threading.current_thread() and t is not threading.main_thread()
                and t.is_alive()]
        if any(not j.finished.is_set() for j in jobs) or busy:
            time.sleep(max(0.0, deadline - time.monotonic()))
            busy = [t for t in busy if t.is_alive()]
            if busy or any(not j.finished.is_set() for j in jobs):
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(0)

    threading.Thread(target=watch, name="svmviz-shutdown-watch", daemon=True).start()


# ------------------------------------------------------------------------------------ attaching
def _attach_job(store, key, name, fn, cost, max_entries):
    """The running job for ``key`` (someone else's too), or a new one; attached. None if cached."""
    with store.lock:
        if key in store.data:
            return None
        job = store.jobs.get(key)
        if job is None or job.cancel_event.is_set():
            job = _Job(key, name, fn, cost, store, max_entries)
            store.jobs[key] = job
            with _ACTIVE_LOCK:
                _ACTIVE[id(job)] = job
            job.attach()
            job.thread.start()
        else:
            job.attach()
        return job
