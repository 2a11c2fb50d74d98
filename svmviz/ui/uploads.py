"""Uploaded CSV files parsed once and shared by the sessions that uploaded the same bytes.

The parsed files live in the app's one cache (:mod:`svmviz.ui.compute`, under the name ``upload``);
what this module adds is their lifetime: a file nobody used for :data:`UPLOAD_TTL_SECONDS` is
dropped, and so is a file as soon as the last session that used it ends (each session holds a lease
in its state).
"""
from __future__ import annotations

import hashlib
import io
import threading
import time
import weakref

import streamlit as st

from svmviz.ui import compute

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
    """The session of lease ``lease_id`` ended: the parsed files no other session uses leave the cache."""
    store = compute._store()
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
        lease = _UploadLease()
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
