"""The warm-up's worker processes start with the server, at low priority, before their tasks (issue 13,
"Fast from the first click").

On a fresh install the path page's first chart waits for the ν-path follower's compilation, shared with
the warm-up's kernel task (``path-kernels``). Before, a visitor who opened the path page right after
the home page (bench_coldstart cold-now) got that task in a process started at the click, which then
spent ~0.5 s importing numba and the kernel modules before compiling; and every worker competed with
the server and the browser at the same priority while the page's charts were drawn. Now
:meth:`svmviz.ui.warmup._Warmup.spawn` starts the processes at the first run, niced
(:data:`svmviz.ui.warmup.WORKER_NICE`), importing :data:`svmviz.ui.warmup.PRELOADED`; tasks still
wait for :meth:`~svmviz.ui.warmup._Warmup.start` (START_DELAY, or a page opened).

Fake worker processes (tests/test_warmup_priority.py's), no compilation, except the last test.
"""
from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time

from .test_warmup_priority import _coordinator, _wait_state, _worker_of

from svmviz.ui import warmup

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = (("svmviz._nu_path.kkt", "kkt_tol", "f8, f8, f8"),)


def _nice(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[16])  # field 19 of stat: nice


def test_spawn_starts_the_processes_niced_and_gives_no_task_before_start():
    tasks = (warmup.Task("a", "tuning", {}, ("a_",)), warmup.Task("b", "losses", {}, ("b_",)))
    w = _coordinator(tasks, {"a": [[0.2, None]], "b": [[0.2, None]]}, workers=2)
    w.spawn()
    try:
        t0 = time.monotonic()
        while len(w.procs) < 2 and time.monotonic() - t0 < 10.0:
            time.sleep(0.02)
        assert len(w.procs) == 2  # both processes exist before any task…
        time.sleep(0.5)
        assert set(w.status()["state"].values()) == {"queued"}  # …and get none before start()
        own = _nice(os.getpid())
        for proc in w.procs:
            assert _nice(proc.pid) == min(19, own + warmup.WORKER_NICE)
        w.start()
        for t in tasks:
            assert w.done[t.label].wait(20.0)
        assert len(w.procs) == 2  # the same two processes ran them (the spare had nothing to do)
        assert all(v == "done" for v in w.status()["state"].values())
    finally:
        w.stop()


def test_a_spawned_worker_takes_only_the_visited_pages_kernel_task_at_a_visit():
    """The visitor opens the path page before the tasks start (cold-now): the idle, spawned workers
    start its kernel task at once — not its page task, which the server's own computation takes over
    (a worker that has run no task has not imported the page's code: the server computes sooner) —
    and not another page's task."""
    tasks = (warmup.Task("other", "tuning", {}, ("o_",)), warmup.Task("pg", "path", {}, ("pg_",)),
             warmup.Task("pg-kernels", "path", {}, (), KERNELS))
    w = _coordinator(tasks, {"other": [[0.2, None]], "pg-kernels": [[1.0, None]], "pg": [[0.2, None]]}, workers=2)
    w.spawn()
    try:
        with w.visit("path"):
            w.start()
            _wait_state(w, "pg-kernels", "running")
            assert _worker_of(w, "pg-kernels") in w.procs[:2]  # a spawned worker, not a new spare
            time.sleep(0.4)
            st = w.status()["state"]
            assert st["pg"] == "queued" and st["other"] == "queued", st
            with w.foreground("pg_x"):  # the page's computation takes its task over
                assert w.status()["state"]["pg"] == "skipped"
        for t in tasks:
            assert w.done[t.label].wait(20.0)
        _wait_state(w, "pg", "done")  # run again after the others (the stamp)
    finally:
        w.stop()


def test_stop_before_start_ends_the_spawned_processes():
    w = _coordinator((warmup.Task("a", "tuning", {}, ("a_",)),), {"a": [[0.1, None]]}, workers=2)
    w.spawn()
    t0 = time.monotonic()
    while len(w.procs) < 2 and time.monotonic() - t0 < 10.0:
        time.sleep(0.02)
    w.stop()
    for proc in w.procs:
        proc.wait(timeout=10)
    assert w.status()["state"]["a"] == "skipped"


def test_the_preloaded_modules_exist():
    for module in warmup.PRELOADED:
        importlib.import_module(module)
    assert {m for m, _, _ in warmup.PATH_KERNELS} <= set(warmup.PRELOADED)
    assert {m for m, _, _ in warmup.IVM_KERNELS} <= set(warmup.PRELOADED)


def test_checking_the_stamp_imports_no_numba(tmp_path):
    """The stamp is checked at the first run, in the server, before the home page is drawn: it must not
    cost numba's import (~0.35 s); the page that needs numba imports it."""
    code = ("import sys; from svmviz.ui import warmup; p = warmup._stamp_path(); "
            "print(p is not None and 'svmviz-warm-' in p, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["True", "False"]
