"""The background warm-up gives way to the visitor (issue 13, "Fast from the first click").

Measured before this test (README, Cold start): with the warm-up on, a page opened right after the
home page drew its first chart LATER than without it (Import vector machine 50 s against 36 s,
Loss functions 6.4 s against 3.7 s): a computation waited for the warm-up task of its page to run
the WHOLE page, and the page's script ran beside two worker processes on two cores.

These tests drive the coordinator (:class:`svmviz.ui.warmup._Warmup`) with fake worker processes
that speak the workers' protocol (a ``step`` line after each computation, then the task's report),
so they check the orchestration in seconds, without compiling anything.
"""
from __future__ import annotations

import json
import sys
import time

import pytest

from svmviz.ui import warmup

# a worker: for each task label read on stdin, sleeps and reports steps as SCRIPT[label] says, then "ok"
FAKE_WORKER = r"""
import json, sys, time
script = json.loads(sys.argv[1])
for line in sys.stdin:
    label = line.strip()
    if not label:
        continue
    for delay, step in script.get(label, []):
        time.sleep(delay)
        if step:
            print(json.dumps({"label": label, "step": step}), flush=True)
    print("some page output", flush=True)
    print(json.dumps({"label": label, "ok": True, "seconds": 0.0, "compiled": 0}), flush=True)
"""


def _coordinator(tasks, script, workers=1):
    return warmup._Warmup(tasks=tasks, workers=workers,
                          command=[sys.executable, "-c", FAKE_WORKER, json.dumps(script)])


def _proc_state(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def _wait_state(w, label, state, timeout=20.0):
    t0 = time.monotonic()
    while w.status()["state"][label] != state and time.monotonic() - t0 < timeout:
        time.sleep(0.02)
    assert w.status()["state"][label] == state, w.status()


def _worker_of(w, label, timeout=20.0):
    """The process running task ``label`` (once its worker has started it)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        with w.lock:
            procs = [p for lab, p in w.current.values() if lab == label]
        if procs:
            return procs[0]
        time.sleep(0.02)
    raise AssertionError(f"no worker runs {label}: {w.status()}")


def test_a_computation_waits_for_its_own_step_not_for_the_whole_page():
    """The server's "first" computation stops waiting as soon as the worker has finished the same
    computation (≈ 0.3 s), while the worker still runs the rest of the page (3 s more): the first
    chart is not held back by the page's later computations."""
    tasks = (warmup.Task("pg", "studies", {}, ("first", "second")),)
    w = _coordinator(tasks, {"pg": [[0.3, "first"], [3.0, "second"]]})
    w.start()
    try:
        _wait_state(w, "pg", "running")
        waited = w.wait_for("first", timeout=30.0)
        assert waited < 2.5, (waited, w.status()["log"])
        assert w.status()["state"]["pg"] == "running"  # the page goes on in the worker
        waited2 = w.wait_for("second", timeout=30.0)  # the next computation waits for its own step
        assert 1.0 < waited2 < 10.0
        assert "first" in w.steps["pg"] and "second" in w.steps["pg"]
        assert w.done["pg"].wait(10.0) and w.status()["state"]["pg"] == "done"
    finally:
        w.stop()


def test_a_computation_the_page_never_reports_waits_for_the_task():
    """A computation the worker's view does not run (no step line) waits until the task has ended."""
    tasks = (warmup.Task("pg", "studies", {}, ("first", "other")),)
    w = _coordinator(tasks, {"pg": [[0.2, "first"], [1.0, None]]})
    w.start()
    try:
        _wait_state(w, "pg", "running")
        waited = w.wait_for("other", timeout=30.0)
        assert waited > 0.8 and w.status()["state"]["pg"] == "done"
    finally:
        w.stop()


def test_a_visit_pauses_other_pages_and_hands_its_own_tasks_to_the_idle_worker():
    """While a visitor's page runs: the worker busy with another page is stopped (SIGSTOP), a free
    worker starts the visited page's queued task before the queue's other pages, and nothing of
    another page starts; afterwards everything resumes and the queue runs to its end."""
    tasks = (warmup.Task("a1", "tuning", {}, ("a1_",)), warmup.Task("b0", "path", {}, ("b0_",)),
             warmup.Task("a2", "tuning", {}, ("a2_",)), warmup.Task("b1", "path", {}, ("b1_",)))
    # a1 and b0 start at once (two workers); b0 ends quickly, a1 is long
    w = _coordinator(tasks, {"a1": [[4.0, None]], "b0": [[0.5, None]], "a2": [[0.2, None]], "b1": [[1.5, None]]},
                     workers=2)
    w.start()
    try:
        _wait_state(w, "a1", "running")
        _wait_state(w, "b0", "running")
        a1_proc = _worker_of(w, "a1")
        with w.visit("path"):
            time.sleep(0.3)
            assert _proc_state(a1_proc.pid) == "T"  # another page's task: paused
            _wait_state(w, "b0", "done")
            _wait_state(w, "b1", "running")  # the free worker takes the visited page's task…
            assert w.status()["state"]["a2"] == "queued"  # …not the next one of another page
            _wait_state(w, "b1", "done")
            time.sleep(0.5)
            assert w.status()["state"]["a2"] == "queued"  # nothing of another page starts meanwhile
            assert _proc_state(a1_proc.pid) == "T"
        time.sleep(0.3)
        assert _proc_state(a1_proc.pid) != "T" and not w.paused
        assert w.done["a2"].wait(20.0) and w.done["a1"].wait(20.0)
        st = w.status()
        assert all(v == "done" for v in st["state"].values()), st
        order = [label for _, what, label in st["log"] if what == "start"]
        assert order.index("b1") < order.index("a2"), st["log"]
    finally:
        w.stop()


def test_the_home_page_pauses_nothing():
    """The home page (no page module) lets the warm-up run: the visitor reading it is what the
    warm-up is for."""
    tasks = (warmup.Task("a1", "tuning", {}, ("a1_",)),)
    w = _coordinator(tasks, {"a1": [[3.0, None]]})
    w.start()
    try:
        _wait_state(w, "a1", "running")
        old = warmup._WARMUP
        warmup._WARMUP = w
        try:
            with warmup.visit(None):
                time.sleep(0.2)
                assert not w.paused and not w.fg
        finally:
            warmup._WARMUP = old
    finally:
        w.stop()


def test_a_computation_takes_its_queued_task_over_before_a_free_worker_can():
    """A server computation whose task has not started compiles itself at once: entering its
    foreground drops the task from the queue (a free worker must not start the same compilation)."""
    tasks = (warmup.Task("a1", "tuning", {}, ("a1_",)), warmup.Task("b0", "path", {}, ("nu_",)))
    w = _coordinator(tasks, {"a1": [[0.3, None]], "b0": [[0.3, None]]})
    w.start()
    try:
        _wait_state(w, "a1", "running")
        with w.foreground("nu_path"):
            assert w.status()["state"]["b0"] == "skipped"
            assert w.wait_for("nu_path", timeout=5.0) < 0.2
        assert w.done["a1"].wait(10.0)
    finally:
        w.stop()


def test_a_task_taken_over_runs_again_and_the_stamp_is_written(monkeypatch, tmp_path):
    """A visitor's computation took a queued task over (the server compiled its kernels itself):
    the task runs again in a worker once the others have run (from the cache, quickly; it compiles
    what the visitor's page did not), so every task has run and the "done for this version" stamp is
    written — before, the warm-up never wrote it and ran again at every server start although the
    cache was full."""
    import os

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    tasks = (warmup.Task("a1", "tuning", {}, ("a1_",)), warmup.Task("b0", "path", {}, ("nu_",)),
             warmup.Task("c2", "usvc", {}, ("c2_",)))
    w = _coordinator(tasks, {"a1": [[0.6, None]], "b0": [[0.2, None]], "c2": [[0.2, None]]})
    w.start()
    try:
        _wait_state(w, "a1", "running")
        with w.foreground("nu_path"):
            assert w.status()["state"]["b0"] == "skipped"  # the server compiles it now
            assert w.wait_for("nu_path", timeout=5.0) < 0.2
        stamp = warmup._stamp_path()
        t0 = time.monotonic()
        while not os.path.exists(stamp) and time.monotonic() - t0 < 20.0:
            time.sleep(0.05)
        st = w.status()
        assert os.path.exists(stamp), st
        assert all(v == "done" for v in st["state"].values()), st
        order = [(what, label) for _, what, label in st["log"] if what in ("start", "again", "taken over by nu_path")]
        # b0 ran in a worker after the others, not twice before
        assert order.index(("again", "b0")) > order.index(("start", "c2")), order
        assert [x for x in order if x == ("start", "b0")] == [("start", "b0")], order
    finally:
        w.stop()


def test_a_task_run_again_is_not_waited_for_nor_taken_over(monkeypatch, tmp_path):
    """The second run of a taken-over task only completes the stamp (its kernels are compiled): a
    server computation of its page neither waits for it nor takes it over again, and a visit of
    another page pauses it."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    tasks = (warmup.Task("b0", "path", {}, ("nu_",)),)
    w = _coordinator(tasks, {"b0": [[3.0, None]]})
    with w.foreground("nu_path"):  # before any worker starts: taken over
        assert w.status()["state"]["b0"] == "skipped"
    w.start()
    try:
        _wait_state(w, "b0", "running")
        assert "b0" in w.rerun
        assert w.wait_for("nu_path", timeout=5.0) < 0.2
        proc = _worker_of(w, "b0")
        with w.visit("tuning"):
            time.sleep(0.3)
            assert _proc_state(proc.pid) == "T"
        with w.visit("path"):  # its own page: paused too (nobody waits for it)
            time.sleep(0.3)
            assert _proc_state(proc.pid) == "T"
        assert w.done["b0"].is_set()
        _wait_state(w, "b0", "done")
    finally:
        w.stop()


def test_the_frame_runs_every_page_inside_a_visit(monkeypatch):
    """The frame wraps the chosen page's script run in ``warmup.visit(<its module>)``; the home page
    opens none."""
    import contextlib
    import os

    from streamlit.testing.v1 import AppTest

    seen = []

    class Spy:
        def visit(self, module):
            seen.append(module)
            return contextlib.nullcontext()

        def foreground(self, name):
            return contextlib.nullcontext()

        def wait_for(self, name, timeout, report=None):
            return 0.0

    monkeypatch.setattr(warmup, "_WARMUP", Spy())
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    at = AppTest.from_file(os.path.join(root, "app.py"), default_timeout=120)
    at.run()
    assert not at.exception and seen == []  # the home page
    at.switch_page("pages/7_Criteria_studies.py").run()
    assert not at.exception
    assert seen == ["studies"]


def test_a_real_worker_reports_each_computation_of_the_page():
    """``python -m svmviz.ui.warmup --worker`` (the module runs as ``__main__``, the pages' jobs
    report through ``svmviz.ui.warmup``): a ``step`` line for each computation of the page, before
    the task's report."""
    import os
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.run([sys.executable, "-m", "svmviz.ui.warmup", "--worker"], input="usvc\n", text=True,
                          capture_output=True, cwd=root, timeout=600, env={**os.environ, "SVMVIZ_WARMUP": "0"})
    msgs = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    steps = [m["step"] for m in msgs if "step" in m]
    assert {"usvc_scenario", "usvc_surfaces", "usvc_kernel"} <= set(steps), (msgs, proc.stderr[-2000:])
    assert "ok" in msgs[-1] and msgs[-1]["ok"] and all("step" in m for m in msgs[:-1]), msgs


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
