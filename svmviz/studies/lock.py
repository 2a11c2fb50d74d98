"""One writer per results folder: a lock file that names its holder.

``DIR/run.lock`` holds a JSON record of the process running the study in ``DIR``: its process id,
host and start time. It is created with ``O_CREAT | O_EXCL``, so of two runs started on one folder
only one gets it. The other is refused with the holder's name (:class:`FolderLockedError`), or
waits for the lock with ``wait=True`` (``svmviz study run --wait``). A lock whose process is gone —
on this host, a process id that no longer exists — is stale: it is taken over, with a note.
A lock held by a process of another host cannot be checked from here and is always respected.
"""
from __future__ import annotations

import datetime
import errno
import json
import os
import socket
import time
from typing import Callable

__all__ = ["LOCK_FILE", "FolderLockedError", "FolderLock", "read_lock", "describe_holder"]

LOCK_FILE = "run.lock"
#: seconds between two looks at a held lock while waiting
POLL_SECONDS = 0.5
#: a lock file without a readable record is being written for this long at most
FRESH_SECONDS = 2.0


class FolderLockedError(ValueError):
    """A results folder is being written by another run; the message names it."""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists on this host (a process of another user counts as alive)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except OSError as exc:
        return exc.errno == errno.EPERM
    return True


def _younger_than(path: str, seconds: float) -> bool:
    try:
        return time.time() - os.stat(path).st_mtime < seconds
    except FileNotFoundError:
        return False


def read_lock(directory: str) -> dict | None:
    """The holder record of ``directory``'s lock; None when there is no lock.

    An unreadable record (a lock file cut short) is returned as ``{}``: held by an unknown process.
    """
    path = os.path.join(directory, LOCK_FILE)
    if not os.path.lexists(path):
        return None
    return read_lock_file(path)


def describe_holder(rec: dict) -> str:
    """``"process 1234 on host node7, started 2026-01-02T03:04:05+00:00"``."""
    if not rec:
        return "an unknown process (its lock record is unreadable)"
    return (f"process {rec.get('pid', '?')} on host {rec.get('host', '?')}, started "
            f"{rec.get('started', '?')}")


def _stale(rec: dict) -> bool:
    """A lock of this host whose process is gone."""
    if not rec or rec.get("host") != socket.gethostname():
        return False
    try:
        pid = int(rec.get("pid"))
    except (TypeError, ValueError):
        return False
    return not _alive(pid)


class FolderLock:
    """The lock of one results folder, held by this process between :meth:`acquire` and :meth:`release`.

    Parameters
    ----------
    directory : str
        The results folder (it must exist).
    wait : bool, default False
        Wait for a lock held by a live process instead of refusing.
    timeout : float or None
        With ``wait``, give up after this many seconds (None: wait as long as it takes).
    note : callable(str), optional
        Receives the notes of a stale lock taken over and of a wait started.

    Examples
    --------
    >>> import tempfile
    >>> from svmviz.studies.lock import FolderLock, read_lock
    >>> d = tempfile.mkdtemp()
    >>> with FolderLock(d):
    ...     read_lock(d)["pid"] == os.getpid()
    True
    >>> read_lock(d) is None
    True
    """

    def __init__(self, directory: str, *, wait: bool = False, timeout: float | None = None,
                 note: Callable[[str], None] | None = None):
        if not isinstance(wait, bool):
            raise ValueError(f"wait must be True or False; got {wait!r}.")
        if timeout is not None and not (isinstance(timeout, (int, float)) and timeout >= 0):
            raise ValueError(f"timeout must be a number of seconds ≥ 0 or None; got {timeout!r}.")
        self.directory = os.fspath(directory)
        self.path = os.path.join(self.directory, LOCK_FILE)
        self.wait = wait
        self.timeout = timeout
        self.note = note or (lambda _msg: None)
        self.record: dict | None = None

    def _try_create(self) -> bool:
        rec = {"pid": os.getpid(), "host": socket.gethostname(),
               "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")}
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(rec, fh)
        self.record = rec
        return True

    def _take_over(self, rec: dict) -> bool:
        """Remove a stale lock (if it is still the same one) and create ours."""
        stale = os.path.join(self.directory, f"{LOCK_FILE}.stale.{os.getpid()}")
        try:
            os.rename(self.path, stale)  # atomic: of two runs taking over, one renames it
        except FileNotFoundError:
            return self._try_create()
        moved = read_lock_file(stale)
        os.remove(stale)
        if moved != rec:  # another run took it over and locked meanwhile: put its lock back
            try:
                with open(self.path, "x", encoding="utf-8") as fh:
                    json.dump(moved, fh)
            except FileExistsError:
                pass
            return False
        if self._try_create():
            self.note(f"took over the lock of {describe_holder(rec)}: that process is no longer running "
                      f"(its {LOCK_FILE} was left behind, e.g. by a kill).")
            return True
        return False

    def acquire(self) -> "FolderLock":
        """Take the lock, or raise :class:`FolderLockedError` (or wait, with ``wait=True``)."""
        t0 = time.monotonic()
        told = False
        while True:
            if self._try_create():
                return self
            rec = read_lock(self.directory)
            if rec is None:
                continue  # released between our two looks
            if not rec and _younger_than(self.path, FRESH_SECONDS):
                time.sleep(0.05)  # created by another run that has not written its record yet
                continue
            if _stale(rec) and self._take_over(rec):
                return self
            holder = describe_holder(rec)
            if not self.wait:
                raise FolderLockedError(
                    f"{self.directory!r} is being written by another run: {holder}. Wait for it to finish "
                    f"(svmviz study run --wait waits for it), or choose another results folder. If that process "
                    f"is gone from another host, remove {self.path!r}.")
            if self.timeout is not None and time.monotonic() - t0 > self.timeout:
                raise FolderLockedError(f"{self.directory!r} is still being written by {holder} after "
                                        f"{self.timeout:g} s of waiting.")
            if not told:
                self.note(f"waiting for {holder} to finish writing {self.directory!r}")
                told = True
            time.sleep(POLL_SECONDS)

    def release(self) -> None:
        """Remove the lock file if it is still ours."""
        if self.record is None:
            return
        if read_lock(self.directory) == self.record:
            try:
                os.remove(self.path)
            except FileNotFoundError:
                pass
        self.record = None

    def __enter__(self) -> "FolderLock":
        return self.acquire()

    def __exit__(self, *exc) -> None:
        self.release()


def read_lock_file(path: str) -> dict:
    """The record of a lock file at ``path`` (``{}`` if unreadable)."""
    try:
        with open(path, encoding="utf-8") as fh:
            rec = json.load(fh)
    except (OSError, ValueError):
        return {}
    return rec if isinstance(rec, dict) else {}
