"""A warm-up worker whose process ends between two tasks (killed, crashed) fails the task it was
being given, as one that ends while it works does — the feeder thread does not die with a
BrokenPipeError leaving the task "running" forever (seen in CI: PytestUnhandledThreadExceptionWarning
"Exception in thread svmviz-warmup-0 … BrokenPipeError" in proc.stdin.write), so a server computation
waiting for that task is not left waiting until its timeout."""
from __future__ import annotations

import sys
import threading
import time

from svmviz.ui import warmup

# a worker that takes one task, closes its stdin (as a dying process does), reports it and lingers
# with stdout still open: the next task's write meets a closed pipe, deterministically
CLOSES_STDIN = r"""
import json, os, sys, time
label = sys.stdin.readline().strip()
os.close(0)
print(json.dumps({"label": label, "ok": True, "seconds": 0.0, "compiled": 0}), flush=True)
time.sleep(20)
"""


def test_a_worker_gone_before_its_next_task_fails_that_task():
    errors = []
    old_hook = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_type)
    tasks = (warmup.Task("first", "tuning", {}, ("first_",)), warmup.Task("second", "path", {}, ("second_",)))
    w = warmup._Warmup(tasks=tasks, workers=1, command=[sys.executable, "-c", CLOSES_STDIN])
    try:
        w.start()
        t0 = time.monotonic()
        while w.status()["state"]["second"] not in ("done", "failed") and time.monotonic() - t0 < 15:
            time.sleep(0.05)
        state = w.status()["state"]
        assert state["first"] == "done", state
        assert state["second"] == "failed", state
        assert w.done["second"].is_set()
        assert w.status()["report"]["second"]["error"] == "the warm-up process ended"
    finally:
        w.stop()
        threading.excepthook = old_hook
    assert not errors, errors
