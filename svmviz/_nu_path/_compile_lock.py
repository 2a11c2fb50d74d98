"""One compilation of a ν-path kernel at a time across processes sharing numba's on-disk cache.

On a fresh install the path page's first chart waits for the follower's compilation
(:func:`svmviz._nu_path.follower._follow` and its ~35 callees). The warm-up
(:mod:`svmviz.ui.warmup`, task ``path-kernels``) compiles the callees in a second process while
the server's compilation of the follower types them in the other order; numba looks into the cache
only when its typing reaches a callee, so a callee the other process was still compiling was
compiled a second time: both processes compiled ``minv_add``, ``rebuild_working_set_pivoted``, …
(two processes started together on an empty cache, CPU time per dispatcher), and the server's
compilation took 11.4–12.3 s of CPU with the task beside it against 4.65 s with every callee cached.

Here a process that misses a kernel in the cache takes a lock file beside the cache entry
(``<cache entry>.<signature digest>.compiling``, with its pid) until the compiled kernel is saved;
a process that misses the same kernel while another holds the lock WAITS for it and then loads it
from the cache instead of compiling it again. No deadlock: a process holds the locks of the kernels
it is compiling, each inside its caller's (the call graph is acyclic), and waits for one at a time.
A lock whose holder has ended (or older than :data:`MAX_WAIT_SECONDS`: its pid may name another
process by now) is removed; one whose holder is stopped (the warm-up pauses a worker with SIGSTOP
while a visitor's page runs), or that is held longer than :data:`MAX_WAIT_SECONDS`, is not waited
for: the process then compiles the kernel itself, as without the lock.

Measured (the task and the server's first path, banana n = 200, started together on an empty cache,
two alternated pairs each, load 5-8): kernels compiled in both processes asqp / minv_remove +
rebuild_working_set_pivoted before, none after; CPU of both processes 16.7 / 14.6 -> 14.1 / 13.1 s,
the server's path 10.7 / 8.3 -> 8.3 / 6.7 s of CPU.

:func:`coordinate` installs this on a dispatcher (the ν-path's decorators,
:mod:`svmviz._nu_path._decorators`); :func:`compiling_elsewhere` tells the warm-up's kernel task
to leave a kernel the server is compiling for later.
"""
from __future__ import annotations

import hashlib
import os
import time

MAX_WAIT_SECONDS = 120.0
"""Longest wait for another process's compilation of one kernel before compiling it here (and the
age beyond which a lock is a leftover): a kernel's lock is held while its callees compile too — the
follower's, on an empty cache, ~14 s of CPU idle — times the slow-down of a loaded 2-core machine
(3-4x), with room; a holder that hangs costs at most this."""
POLL_SECONDS = 0.02
"""Interval of the checks for the lock's release (a compilation takes 0.05–4 s)."""
SUFFIX = ".compiling"
_HAS_PROC = os.path.exists(f"/proc/{os.getpid()}/stat")
"""Whether a process's state (stopped or not) can be read: Linux's /proc. Elsewhere (macOS, Windows)
no lock is taken — a worker the warm-up paused would be waited for until MAX_WAIT_SECONDS."""


def _lock_path(cache, sig) -> str | None:
    """The lock file of ``sig``'s entry of numba's per-function ``cache`` (None: no cache folder)."""
    path = getattr(cache, "_cache_path", None)
    base = getattr(getattr(cache, "_impl", None), "filename_base", None)
    if not path or not base:
        return None
    digest = hashlib.sha1(str(tuple(sig) if isinstance(sig, (tuple, list)) else sig).encode()).hexdigest()[:12]
    return os.path.join(path, f"{base}.{digest}{SUFFIX}")


def _holder(lock: str) -> int | None:
    """The pid written in ``lock`` (None: no lock, or unreadable)."""
    try:
        with open(lock) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _state(pid: int) -> str:
    """"running", "stopped" (SIGSTOP: the warm-up pauses a worker so) or "ended" for process ``pid``."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return "ended"
    except PermissionError:
        return "running"
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "running"
    return "stopped" if state in ("T", "t") else "ended" if state in ("Z", "X") else "running"


def _age(lock: str) -> float:
    """Seconds since ``lock`` was written (0 if it is gone)."""
    try:
        return time.time() - os.path.getmtime(lock)
    except OSError:
        return 0.0


def _try_take(lock: str) -> bool:
    """Create ``lock`` holding this process's pid; False if it exists."""
    try:
        fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    except OSError:
        return True  # no lock possible (read-only folder …): compile as without it
    with os.fdopen(fd, "w") as f:
        f.write(f"{os.getpid()}\n")
    return True


def _release(lock: str) -> None:
    if _holder(lock) == os.getpid():
        try:
            os.unlink(lock)
        except OSError:
            pass


def compiling_elsewhere(dispatcher, sig) -> bool:
    """Whether another running process holds the compilation lock of ``dispatcher`` for ``sig``."""
    cache = getattr(dispatcher, "_cache", None)
    lock = _lock_path(getattr(cache, "_inner", cache), sig)
    if lock is None:
        return False
    pid = _holder(lock)
    return pid is not None and pid != os.getpid() and _state(pid) == "running"


class _CoordinatedCache:
    """numba's per-function cache of one dispatcher, with the lock around a miss (see the module)."""

    def __init__(self, inner):
        self._inner = inner
        self._held = {}  # lock path -> True while this process compiles that signature

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def load_overload(self, sig, target_context):
        cres = self._inner.load_overload(sig, target_context)
        lock = None if cres is not None else _lock_path(self._inner, sig)
        if lock is None:
            return cres
        t0 = time.monotonic()
        while True:
            if _try_take(lock):
                self._held[lock] = True
                return None  # a miss: numba compiles; save_overload (or a failure) releases the lock
            pid = _holder(lock)
            state = "running" if pid is None else "ended" if pid == os.getpid() else _state(pid)
            if state == "running" and _age(lock) > MAX_WAIT_SECONDS:
                state = "ended"  # older than any compilation: a leftover whose pid now names another process
            if state == "ended":  # its holder ended without releasing it (or a failure of ours)
                try:
                    os.unlink(lock)
                except OSError:
                    pass
                continue
            if state == "stopped" or time.monotonic() - t0 > MAX_WAIT_SECONDS:
                return None  # compile here, without the lock
            time.sleep(POLL_SECONDS)
            if not os.path.exists(lock):  # released: the kernel is in the cache
                cres = self._inner.load_overload(sig, target_context)
                if cres is not None:
                    return cres

    def save_overload(self, sig, data):
        try:
            return self._inner.save_overload(sig, data)
        finally:
            self.release(sig)

    def release(self, sig=None) -> None:
        """Release the lock of ``sig`` (None: every lock this cache holds — a failed compilation)."""
        locks = list(self._held) if sig is None else [_lock_path(self._inner, sig)]
        for lock in locks:
            if lock is not None and self._held.pop(lock, None):
                _release(lock)


def coordinate(dispatcher):
    """Put the cross-process compilation lock on ``dispatcher`` (a numba dispatcher with
    ``cache=True``; others are returned unchanged). Returns the dispatcher."""
    cache = getattr(dispatcher, "_cache", None)
    if cache is None or isinstance(cache, _CoordinatedCache) or not hasattr(cache, "_cache_path"):
        return dispatcher
    if not _HAS_PROC:  # a paused holder could not be told from a running one: no lock
        return dispatcher
    wrapped = _CoordinatedCache(cache)
    dispatcher._cache = wrapped
    compiler = dispatcher._compiler
    compile_ = compiler.compile

    def compile_and_release_on_failure(args, return_type):
        try:
            return compile_(args, return_type)
        except BaseException:
            wrapped.release()
            raise

    compiler.compile = compile_and_release_on_failure
    return dispatcher
