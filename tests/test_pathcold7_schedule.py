"""The warm-up's schedule for the path page's first chart (issue 13, "Fast from the first click").

The ν-path follower's compilation is the longest a page's first chart waits for: its callees
(``warmup.PATH_KERNELS``, ~8 s of CPU) then the follower itself (~3.5 s, after all of them). The
kernel task ``path-kernels`` compiles the callees in the reverse of the follower's typing order so
that two processes share them; the earlier it starts, the fewer the follower's process compiles
itself. So it is the second task: with no visitor, the two workers start the Tuning page and the
follower's callees, and a visitor who opens the path page while they run finds the callees half
compiled; the page's own task is then taken over by the server's computation (which compiles the
follower beside the kernel task) — no worker process importing the whole page for seconds first.

Fake worker processes (tests/test_warmup_priority.py's), no compilation; a few seconds.
"""
from __future__ import annotations

import time

from .test_warmup_priority import _coordinator, _proc_state, _wait_state, _worker_of

from svmviz.ui import warmup


def _stopped_soon(pid: int, timeout: float = 5.0) -> bool:
    """Whether the process shows as stopped (SIGSTOP is delivered asynchronously)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if _proc_state(pid) == "T":
            return True
        time.sleep(0.02)
    return False


def _script():
    # every task runs long enough to be observed; the path page's computation reports its step
    return {t.label: [[5.0, None]] for t in warmup.TASKS}


def test_without_a_visitor_the_followers_callees_compile_from_the_start():
    w = _coordinator(warmup.TASKS, _script(), workers=warmup.WORKERS)
    w.start()
    try:
        _wait_state(w, warmup.TASKS[0].label, "running")
        _wait_state(w, "path-kernels", "running")
        st = w.status()["state"]
        assert [lb for lb, s in st.items() if s == "running"] == [warmup.TASKS[0].label, "path-kernels"]
        assert st["path"] == "queued"
        assert "start (spare)" not in [what for _, what, _ in w.status()["log"]]  # no third process
    finally:
        w.stop()


def test_a_visitor_of_the_path_page_gets_the_server_and_the_kernel_task_on_the_two_cores():
    w = _coordinator(warmup.TASKS, _script(), workers=warmup.WORKERS)
    w.start()
    try:
        _wait_state(w, warmup.TASKS[0].label, "running")
        _wait_state(w, "path-kernels", "running")
        first = _worker_of(w, warmup.TASKS[0].label)
        kernels = _worker_of(w, "path-kernels")
        with w.visit("path"):
            with w.foreground("nu_path"):  # the page's computation: takes its queued task over…
                t0 = time.monotonic()
                assert w.wait_for("nu_path", timeout=10.0) < 1.0  # …and waits for nothing
                assert time.monotonic() - t0 < 1.0
                st = w.status()["state"]
                assert st["path"] == "skipped"  # taken over (it runs again later, for the stamp)
                assert _stopped_soon(first.pid)  # the other page's worker is paused
                assert _proc_state(kernels.pid) != "T"  # the follower's callees go on compiling
                assert [lb for lb, s in st.items() if s == "running"] == [warmup.TASKS[0].label, "path-kernels"]
    finally:
        w.stop()


def _page_tracing():
    import streamlit as st

    from svmviz.ui.compute import cached_compute

    st.write(f"got {cached_compute('pathcold7_trace', ('x', 7), lambda _progress: 42)}")


def test_the_timeline_file_gets_the_servers_visits_and_computations(monkeypatch, tmp_path):
    import threading

    from streamlit.testing.v1 import AppTest

    log = tmp_path / "timeline"
    monkeypatch.setenv("SVMVIZ_WARMUP_LOG", str(log))
    monkeypatch.setattr(warmup, "_WARMUP", None)  # no warm-up in this process: the lines are written anyway
    monkeypatch.setattr(warmup, "_PRELOAD", {"lock": threading.Lock(), "visited": False, "running": False,
                                             "done": threading.Event()})
    with warmup.visit("path"):
        pass
    at = AppTest.from_function(_page_tracing, default_timeout=30).run()
    assert not at.exception and "got 42" in at.markdown[0].value
    # (a coordinator of an earlier test, stopped, may still note its last task's end here)
    lines = [ln.split(None, 1) for ln in log.read_text().splitlines() if ln.endswith("(server)")]
    assert [what for _, what in lines] == ["page run path (server)", "preloading ended path (server)",
                                           "computing pathcold7_trace (server)", "computed pathcold7_trace (server)"]
    stamps = [float(t) for t, _ in lines]  # epoch seconds first, as the warm-up's own lines
    assert stamps == sorted(stamps) and abs(stamps[-1] - time.time()) < 60


def test_a_page_opened_before_the_start_delay_starts_the_warm_up_at_once(monkeypatch):
    """bench_coldstart cold-now: the visitor clicks 0.6 s after the first run; the workers used to
    start START_DELAY (1 s) after it regardless — the kernel task ~1 s later than it could."""
    import threading

    monkeypatch.setattr(warmup, "START_DELAY", 30.0)
    monkeypatch.setattr(warmup, "_PAGE_OPENED", threading.Event())
    monkeypatch.setattr(warmup, "_stamp_path", lambda: None)
    monkeypatch.setattr(warmup, "_WARMUP", None)
    monkeypatch.setattr(warmup, "_PRELOAD", {"lock": threading.Lock(), "visited": False, "running": False,
                                             "done": threading.Event()})
    started, spawned = threading.Event(), threading.Event()

    class Spy:
        def spawn(self):  # the processes start at once (tests/test_warmup11.py), their tasks do not
            spawned.set()

        def start(self):
            started.set()

    threading.Thread(target=warmup._begin, args=(Spy(),), daemon=True).start()
    with warmup.visit(None):  # the home page: waits the delay out
        pass
    assert spawned.wait(5.0)
    assert not started.wait(0.5)
    t0 = time.monotonic()
    with warmup.visit("path"):
        assert started.wait(5.0)
    assert time.monotonic() - t0 < 5.0


def test_the_visit_is_open_while_the_page_waits_for_the_preloading(monkeypatch):
    """bench cold-now at load 8.8: the click came just after the preloading began, the page waited 9 s
    for it, and meanwhile the workers started the Tuning page's task, unpaused (the visit began only
    after the wait)."""
    import threading

    done = threading.Event()
    monkeypatch.setattr(warmup, "_PRELOAD", {"lock": threading.Lock(), "visited": False, "running": True,
                                             "done": done})
    monkeypatch.setattr(warmup, "_PAGE_OPENED", threading.Event())
    w = _coordinator(warmup.TASKS, _script(), workers=warmup.WORKERS)
    monkeypatch.setattr(warmup, "_WARMUP", w)
    inside = threading.Event()

    def page():
        with warmup.visit("path"):
            inside.set()

    t = threading.Thread(target=page)
    t.start()
    try:
        deadline = time.monotonic() + 5.0
        while not w.fg and time.monotonic() < deadline:
            time.sleep(0.02)
        assert w.fg and not inside.is_set()  # the visit is open, the page still waits for the imports
        w.start()  # the workers begin meanwhile: the path page's kernel task only, no Tuning
        _wait_state(w, "path-kernels", "running")
        time.sleep(0.5)
        assert w.status()["state"][warmup.TASKS[0].label] == "queued"
        done.set()
        t.join(5.0)
        assert inside.is_set() and not w.fg
    finally:
        done.set()
        w.stop()
