"""The frame's preloading of the page modules and a visitor's page never import at the same time:
first imports of scikit-learn from two threads at once can fail inside scikit-learn (a "partially
initialized module" ImportError), which a visitor would see as a broken page."""
from __future__ import annotations

import threading
import time

import pytest

from svmviz.ui import warmup


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.setattr(warmup, "_PRELOAD", {"lock": threading.Lock(), "visited": False, "running": False,
                                             "done": threading.Event()})
    monkeypatch.setattr(warmup, "START_DELAY", 0.0)
    monkeypatch.setattr(warmup, "_WARMUP", None)
    log = []

    def slow_import(module):
        log.append(("start", module, time.monotonic()))
        time.sleep(0.15)
        log.append(("end", module, time.monotonic()))

    monkeypatch.setattr(warmup, "_import_page", slow_import)
    return log


def test_a_page_opened_during_the_preloading_waits_for_it(fresh):
    t = threading.Thread(target=warmup._preload)
    t.start()
    while not fresh:
        time.sleep(0.005)
    with warmup.visit("tuning"):
        entered = time.monotonic()
    t.join()
    modules = list(dict.fromkeys(x.module for x in warmup.TASKS))
    assert [m for kind, m, _ in fresh if kind == "end"] == modules
    assert entered >= max(ts for kind, _, ts in fresh if kind == "end")  # no import overlapped the page


def test_no_preloading_after_a_page_was_opened(fresh):
    with warmup.visit("path"):
        pass
    warmup._preload()
    assert fresh == [] and warmup._PRELOAD["done"].is_set()


def test_the_home_page_does_not_stop_the_preloading(fresh):
    with warmup.visit(None):
        pass
    warmup._preload()
    assert len([1 for kind, _, _ in fresh if kind == "end"]) == len(dict.fromkeys(x.module for x in warmup.TASKS))
