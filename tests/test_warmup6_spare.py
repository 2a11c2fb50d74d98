"""The warm-up's spare worker (issue 13, "Fast from the first click"): while a visitor's page runs
and a worker busy with another page is paused (SIGSTOP), the core it leaves idle compiles the
visited page's kernel task (``Task.kernels``: e.g. the ν-path follower's callees, which the
follower then loads from the cache) — before the spare, the path page's first chart waited ~18 s
for its worker's follower with one core idle (bench_coldstart's timeline: the tuning worker paused
from 7 s to 38 s). Fake worker processes (tests/test_warmup_priority.py's), no compilation."""
from __future__ import annotations

import time

from .test_warmup_priority import _coordinator, _proc_state, _wait_state, _worker_of

from svmviz.ui import warmup

KERNELS = (("svmviz._nu_path.kkt", "kkt_tol", "f8, f8, f8"),)


def _tasks():
    return (warmup.Task("other", "tuning", {}, ("o_",)), warmup.Task("pg", "path", {}, ("pg_",)),
            warmup.Task("pg-kernels", "path", {}, (), KERNELS), warmup.Task("other2", "tuning", {}, ("o2_",)))


def test_the_spare_compiles_the_visited_pages_kernels_while_a_worker_is_paused():
    w = _coordinator(_tasks(), {"other": [[4.0, None]], "pg": [[3.0, None]], "pg-kernels": [[0.5, None]],
                                "other2": [[0.2, None]]}, workers=2)
    w.start()
    try:
        _wait_state(w, "other", "running")
        _wait_state(w, "pg", "running")
        time.sleep(0.3)
        assert w.status()["state"]["pg-kernels"] == "queued"  # no visitor: the spare does nothing
        other = _worker_of(w, "other")
        with w.visit("path"):
            _wait_state(w, "pg-kernels", "running")  # the spare takes the page's kernel task at once…
            assert _proc_state(other.pid) == "T"
            assert w.status()["state"]["pg"] == "running"  # …beside the page's own task
            spare = _worker_of(w, "pg-kernels")
            assert spare is not _worker_of(w, "pg") and spare is not other
            _wait_state(w, "pg-kernels", "done")
            assert w.status()["state"]["other2"] == "queued"  # nothing of another page starts
        assert w.done["other2"].wait(20.0) and w.done["other"].wait(20.0)
        st = w.status()
        assert all(v == "done" for v in st["state"].values()), st
        assert ("start (spare)", "pg-kernels") in [(what, label) for _, what, label in st["log"]]
    finally:
        w.stop()


def test_without_a_visit_the_kernel_task_runs_in_a_worker_in_queue_order():
    w = _coordinator(_tasks(), {"other": [[0.3, None]], "pg": [[0.3, None]]}, workers=2)
    w.start()
    try:
        for t in _tasks():
            assert w.done[t.label].wait(20.0)
        st = w.status()
        assert all(v == "done" for v in st["state"].values()), st
        assert [what for _, what, label in st["log"] if label == "pg-kernels"][0] == "start"
    finally:
        w.stop()


def test_no_spare_task_while_nothing_is_paused():
    """A visit that pauses nobody (the page's own tasks are all that run) leaves the spare idle: three
    processes on two cores would slow the visitor's page."""
    tasks = (warmup.Task("pg", "path", {}, ("pg_",)), warmup.Task("pg-kernels", "path", {}, (), KERNELS))
    w = _coordinator(tasks, {"pg": [[2.0, None]], "pg-kernels": [[0.2, None]]}, workers=1)
    w.start()
    try:
        _wait_state(w, "pg", "running")
        with w.visit("path"):
            time.sleep(1.0)
            assert w.status()["state"]["pg-kernels"] == "queued"
        assert w.done["pg-kernels"].wait(20.0)
        assert "start (spare)" not in [what for _, what, _ in w.status()["log"]]
    finally:
        w.stop()


def test_a_page_opened_before_the_workers_start_gets_its_kernel_task_at_once():
    """The visitor opens the path page before the warm-up's processes exist (bench_coldstart cold-now:
    the click 0.6 s after the first run, the workers START_DELAY later): its page task is taken over
    by the server's computation; its kernel task starts in a new worker at once (the warm-up's rule
    that a new process waits — it would import for seconds while the page compiles sooner itself —
    is for page tasks) and the other page's task waits for the visit to end."""
    tasks = (warmup.Task("other", "tuning", {}, ("o_",)), warmup.Task("pg", "path", {}, ("pg_",)),
             warmup.Task("pg-kernels", "path", {}, (), KERNELS))
    w = _coordinator(tasks, {"other": [[0.2, None]], "pg-kernels": [[1.0, None]], "pg": [[0.2, None]]}, workers=2)
    with w.visit("path"):
        with w.foreground("pg_x"):  # the page's computation: takes its queued task over
            w.start()
            _wait_state(w, "pg-kernels", "running")
            time.sleep(0.3)
            assert w.status()["state"]["other"] == "queued"
            assert w.status()["state"]["pg"] == "skipped"  # taken over
    try:
        for t in tasks:
            assert w.done[t.label].wait(20.0)
        _wait_state(w, "pg", "done")  # run again after the others (the stamp)
    finally:
        w.stop()
