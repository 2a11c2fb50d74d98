"""Uploaded CSV files parsed once and shared by the sessions that uploaded the same bytes.

The parsed files live in the app's one cache (:mod:`svmviz.ui.compute`, under the name ``upload``);
what this module adds is their lifetime: a file nobody used for :data:`UPLOAD_TTL_SECONDS` is
dropped, and so is a file as soon as the last session that used it ends (each session holds a lease
in its state).

Memory given back when sessions end (:func:`start_release_watch`, once per server): Streamlit keeps a
closed tab's session ``server.disconnectedSessionTTL`` seconds (120 by default) for a reconnect, and
after that shuts it down only when another tab's closing makes it drop the expired session and the
garbage collector gets to it — on a server nobody visits afterwards, its uploaded bytes stay. Every
:data:`RELEASE_EVERY_SECONDS` (a quarter of the TTL when shorter) a watch thread has the expired
sessions shut down (:func:`svmviz.ui._streamlit_compat.release_ended_sessions`); when some ended, it
collects the garbage (the session's state, with its copy of the file and its lease on the parsed
table, goes then) and hands the freed heap back to the system (:func:`trim_heap`).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import hashlib
import io
import threading
import time
import weakref

import streamlit as st

from svmviz.ui import _streamlit_compat, compute

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

    def __init__(self, store):
        self.keys: set = set()
        # the store is looked up here, in the session's script thread: the finalizer runs in whatever
        # thread collects the session, where Streamlit's cache would log "missing ScriptRunContext"
        weakref.finalize(self, _release_uploads, id(self), self.keys, store)


def _release_uploads(lease_id: int, keys: set, store) -> None:
    """The session of lease ``lease_id`` ended: the parsed files no other session uses leave ``store``."""
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
    """Drop the parsed files nobody has used for :data:`UPLOAD_TTL_SECONDS`."""
    with _uploads_lock:
        old = [k for k, t in _upload_seen.items() if now - t > UPLOAD_TTL_SECONDS]
        for k in old:
            del _upload_seen[k]
            store.discard(k)


def parsed_csv(content: bytes, label_column: str | None, standardize: bool, missing: str = "drop",
               state=None, *, feature_columns=None, classes=None, one_vs_rest=None, min_class_rows=2):
    """The uploaded file parsed, shared by the sessions that uploaded the same bytes.

    Held in the app's one cache (:func:`svmviz.ui.compute.cached`), so its arrays count against that
    cache's byte budget (``MAX_CACHE_BYTES``, least recently used first); dropped when unused for
    :data:`UPLOAD_TTL_SECONDS`, and as soon as the last session that used it ends. ``state`` is the
    session's state (default ``st.session_state``), which keeps the session's lease.
    """
    from svmviz import data

    store = compute._store()
    now = _clock()
    _expire_uploads(store, now)
    key_parts = (hashlib.sha256(content).hexdigest(), label_column, bool(standardize), missing,
                 None if feature_columns is None else tuple(feature_columns),
                 None if classes is None else tuple(classes), one_vs_rest, min_class_rows)
    key = compute.cache_key("upload", key_parts)
    state = st.session_state if state is None else state
    lease = state.get(_UPLOAD_LEASE)
    if not isinstance(lease, _UploadLease):
        lease = _UploadLease(store)
        state[_UPLOAD_LEASE] = lease
    ds = compute.cached("upload", key_parts, lambda: data.dataset_from_csv(
        io.BytesIO(content), label_column=label_column, standardize=standardize, missing=missing,
        feature_columns=feature_columns, classes=classes, one_vs_rest=one_vs_rest, min_class_rows=min_class_rows),
        max_entries=16)
    with _uploads_lock:
        _upload_users.setdefault(key, set()).add(id(lease))
        _upload_seen[key] = now
        lease.keys.add(key)
    return ds


#: how often, at most, the watch of :func:`start_release_watch` looks for ended sessions (a quarter of
#: ``server.disconnectedSessionTTL`` when that is shorter)
RELEASE_EVERY_SECONDS = 15.0
_watch_lock = threading.Lock()
_watch: list[threading.Thread] = []


def _libc():
    """glibc, or None elsewhere (musl, macOS, Windows: nothing of this module's heap tuning applies)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.malloc_trim, libc.mallopt  # noqa: B018 — glibc's; AttributeError elsewhere
    except (OSError, AttributeError, TypeError):
        return None
    return libc


def tune_heap() -> bool:
    """Have glibc give freed memory back as it goes (called once per server, before the sessions run).

    * ``M_MMAP_THRESHOLD`` = 128 KiB, fixed: every block from 128 KiB up (a file's bytes, a parsed
      table's columns, the upload's request body) is its own mapping, returned to the system when freed.
      glibc's default threshold grows to 32 MiB after such a block is freed, and then places them in
      its heaps, where freed memory stays;
    * ``M_ARENA_MAX`` = 2: the sessions' threads share two heaps instead of up to eight per core, so
      the memory one session freed is reused by the next instead of staying in its own arena.

    False where there is no glibc."""
    libc = _libc()
    if libc is None:
        return False
    libc.mallopt.argtypes, libc.mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    M_ARENA_MAX, M_MMAP_THRESHOLD = -8, -3  # glibc's malloc.h
    libc.mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    libc.mallopt(M_ARENA_MAX, 2)
    return True


def trim_heap() -> bool:
    """Hand the heap memory freed by Python and numpy back to the system: glibc's ``malloc_trim(0)``.

    glibc keeps freed memory in its arenas (one per thread that allocated, and Streamlit runs every
    session in its own thread), so a server's resident size stays at its peak after the tables that
    filled it are freed. False where there is no glibc (nothing to do there)."""
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim.argtypes, libc.malloc_trim.restype = [ctypes.c_size_t], ctypes.c_int
    libc.malloc_trim(0)
    return True


def release_once(timeout: float = 10.0) -> int:
    """Shut down the sessions whose reconnect time ran out (their uploaded files go with them); if any
    ended, collect the garbage and trim the heap. The number of sessions released."""
    done = _streamlit_compat.release_ended_sessions()
    if done is None:
        return 0
    released = done.result(timeout=timeout)
    if released:
        gc.collect()  # a session's state holds cycles: its copy of the file and its upload lease go now
        trim_heap()
    return released


def _release_every() -> float:
    try:
        ttl = float(st.get_option("server.disconnectedSessionTTL"))
    except (RuntimeError, TypeError, ValueError):
        ttl = 120.0
    return min(RELEASE_EVERY_SECONDS, max(0.5, ttl / 4))


def _watch_loop() -> None:
    every = _release_every()
    while True:
        time.sleep(every)
        try:
            release_once()
        except Exception:  # noqa: BLE001 — the watch outlives one failed round; the log says why
            import logging

            logging.getLogger(__name__).exception("releasing the ended sessions failed")


def start_release_watch() -> None:
    """Start, once per process, the daemon thread that gives back what ended sessions held (module doc)."""
    with _watch_lock:
        if _watch:
            return
        tune_heap()
        thread = threading.Thread(target=_watch_loop, name="svmviz-release-watch", daemon=True)
        _watch.append(thread)
        thread.start()
