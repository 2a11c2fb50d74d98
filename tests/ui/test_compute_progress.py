"""The compute helper's progress bar and Cancel: a computation that ends quickly draws neither, nor
the slot that holds them (no bar and Cancel button drawn and removed again at each cache miss); long
work still shows both, and its Cancel still stops it."""
from __future__ import annotations

import time

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from svmviz.ui import compute

DRAWN: list = []  # ("progress" | "Cancel", ...) drawn by the page's script thread


@pytest.fixture
def counting(monkeypatch):
    """Count the progress bars and Cancel buttons the helper draws (it calls ``st.progress`` and
    ``st.button`` inside its slot's container)."""
    DRAWN.clear()
    progress, button, empty = st.progress, st.button, st.empty

    def counted_empty(*a, **k):
        DRAWN.append("slot")
        return empty(*a, **k)

    def counted_progress(*a, **k):
        DRAWN.append("progress")
        return progress(*a, **k)

    def counted_button(label, *a, **k):
        if label == "Cancel":
            DRAWN.append("Cancel")
        return button(label, *a, **k)

    monkeypatch.setattr(st, "progress", counted_progress)
    monkeypatch.setattr(st, "button", counted_button)
    monkeypatch.setattr(st, "empty", counted_empty)
    compute.clear()
    yield DRAWN
    compute.clear()


def _page_quick():
    import streamlit as st

    from svmviz.ui.compute import cached_compute

    seed = st.session_state.setdefault("seed", 0)
    out = cached_compute("t_progress_quick", ("quick", seed), lambda progress: seed * 2,
                         progress_text="Quick…")
    st.write(f"answer {out}")


def _page_slow():
    import time

    import streamlit as st

    from svmviz.ui.compute import cached_compute

    def fn(progress):
        for i in range(12):
            time.sleep(0.1)
            progress(i + 1, 12, "")
        return 7

    out = cached_compute("t_progress_slow", ("slow",), fn, progress_text="Slow…")
    st.write(f"answer {out}")


def test_a_quick_computation_draws_no_progress_bar_and_no_cancel(counting):
    at = AppTest.from_function(_page_quick, default_timeout=30).run()
    assert not at.exception and any("answer 0" in m.value for m in at.markdown)
    for seed in (1, 2, 3):  # a warm interaction: a new key, a cache miss each time, computed in ~1 ms
        at.session_state["seed"] = seed
        at.run()
        assert not at.exception and any(f"answer {2 * seed}" in m.value for m in at.markdown)
    assert counting == [], counting  # before: a slot, a progress bar and a Cancel button per computation
    assert not at.get("progress") and not [b for b in at.button if b.label == "Cancel"]


def test_long_work_still_shows_its_progress_bar_and_cancel(counting):
    t0 = time.monotonic()
    at = AppTest.from_function(_page_slow, default_timeout=30).run()
    assert not at.exception and any("answer 7" in m.value for m in at.markdown)
    assert time.monotonic() - t0 >= 1.2
    assert counting.count("Cancel") == 1 and counting.count("progress") == 1 and counting.count("slot") == 1
    assert not at.get("progress")  # removed when the work ended


def test_the_delay_is_short_beside_the_orphan_grace():
    """The script thread makes no st call while it waits for a quick result, so it notices a closed
    tab that much later: the delay must stay well inside the grace before a job without waiters stops,
    and at most ~1/3 s (long work shows progress and a Cancel that works)."""
    assert 0 < compute.PROGRESS_AFTER_SECONDS <= 0.35 < compute.ORPHAN_GRACE_SECONDS


RUNS: list = []


def _page_restarted():
    import threading
    import time

    import streamlit as st

    from svmviz.ui import compute
    from tests.ui import test_compute_progress as T

    def fn(progress):
        T.RUNS.append(1)
        for i in range(8):
            time.sleep(0.1)
            progress(i + 1, 8, "")
        return len(T.RUNS)

    store, key = compute._store(), f"t_progress_restart:{compute.digest(('r',))}"

    def another_session_stops_it():  # as _on_cancel does in another session
        time.sleep(0.5)
        with store.lock:
            job = store.jobs.get(key)
        job.cancel("stopped by the user")

    if not T.RUNS:
        threading.Thread(target=another_session_stops_it, daemon=True).start()
    out = compute.cached_compute("t_progress_restart", ("r",), fn, progress_text="Restarted…")
    st.write(f"answer {out}")


def test_work_another_session_stopped_is_started_again_under_the_same_bar(counting):
    """The session that did not press Cancel starts the computation again and keeps waiting, with the
    progress bar it has (one slot, one bar, one Cancel), which goes when the result is there."""
    RUNS.clear()
    at = AppTest.from_function(_page_restarted, default_timeout=30).run()
    assert not at.exception and any("answer 2" in m.value for m in at.markdown), [m.value for m in at.markdown]
    assert len(RUNS) == 2
    assert counting.count("slot") == 1 and counting.count("Cancel") == 1 and counting.count("progress") == 1
    assert not at.get("progress")


LINES: list = []  # the progress lines the helper drew


def _page_estimated():
    import threading

    import streamlit as st

    from svmviz.ui import compute
    from tests.ui import test_compute_progress as T

    drawn = threading.Event()
    line = compute._progress_line

    def recorded(*a, **k):
        out = line(*a, **k)
        T.LINES.append(out[1])
        drawn.set()
        return out

    compute._progress_line = recorded  # the module's global, restored by the test's monkeypatch

    def fn(progress):
        progress(1, 4, "")
        assert drawn.wait(20)  # returns once the bar has shown a line (no sleep)
        return 5

    out = compute.cached_compute("t_progress_estimated", (st.session_state.setdefault("seed", 0),), fn,
                                 progress_text="Estimated…", cost=compute.Cost(2.0, "estimated work"))
    st.write(f"answer {out}")


@pytest.mark.parametrize("measured_here", [False, True])
def test_time_left_is_shown_only_once_this_kind_of_computation_has_run_here(monkeypatch, measured_here):
    """Before one computation of a kind has run on this server its cost-table estimate is not this
    machine's: the line says the seconds elapsed and no time left."""
    compute.clear()
    LINES.clear()
    monkeypatch.setattr(compute, "PROGRESS_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(compute, "_progress_line", compute._progress_line)
    if measured_here:
        with compute._store().lock:
            compute._store().speed["t_progress_estimated"] = [1.0]
    at = AppTest.from_function(_page_estimated, default_timeout=30).run()
    assert not at.exception and any("answer 5" in m.value for m in at.markdown)
    assert LINES and all(line.startswith("Estimated…") for line in LINES), LINES
    assert all(("left" in line) == measured_here for line in LINES), LINES
    compute.clear()
