"""The app's one cached-compute helper (svmviz/ui/compute.py): cache, background jobs, cost gate,
Cancel, orphaned jobs, readable warnings; and the pools that drop queued tasks (svmviz/_parallel.py).

Pages are exercised by AppTest scripts built from functions (``AppTest.from_function``); the
job machinery is also driven directly, without Streamlit, where a test needs to act while a job
runs (AppTest waits for the script to finish).
"""
from __future__ import annotations

import threading
import time
import warnings

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svmviz._parallel import task_pool
from svmviz.ui import _jobs, compute


# ------------------------------------------------------------------ pure helpers
def test_digest_tells_contents_apart_and_is_stable():
    a = np.arange(6.0)
    assert compute.digest((a, 1, "x")) == compute.digest((a.copy(), 1, "x"))
    assert compute.digest((a, 1, "x")) != compute.digest((a.reshape(2, 3), 1, "x"))
    assert compute.digest((a, 1, "x")) != compute.digest((a.astype(np.float32), 1, "x"))
    assert compute.digest([1, 2]) != compute.digest([1.0, 2.0])  # int vs float
    assert compute.digest({"b": 1, "a": 2}) == compute.digest({"a": 2, "b": 1})
    assert compute.digest(None) != compute.digest("None")


def test_readable_warnings_drop_function_names_and_knob_advice():
    r = compute.readable
    assert r("loo_path: 7 leave-one-out refit(s) did not converge.") == "7 leave-one-out refit(s) did not converge."
    assert r("criteria_surface: 3 solve(s) hit max_iter before reaching the tolerance; values at those grid "
             "points are approximate.") == ("3 solve(s) hit the iteration limit before reaching the tolerance; "
                                            "values at those grid points are approximate.")
    assert r("some SVM fits along λ did not converge (σ = 1); the curves near them are approximate — raise the "
             "tolerance or narrow the λ range.") == ("Some SVM fits along λ did not converge (σ = 1); the curves "
                                                     "near them are approximate.")
    assert r("nu_path: stopped at max_breakpoints before λ_max (λ reached 3.2 of 58).") == \
        "Stopped at the breakpoint limit before λ_max (λ reached 3.2 of 58)."
    assert r("Plain message") == "Plain message."


def test_format_seconds_and_subsample_size():
    assert compute.format_seconds(0.3) == "about 1 s"
    assert compute.format_seconds(42.4) == "about 42 s"
    assert compute.format_seconds(600) == "about 10 min"
    assert compute.format_seconds(float("nan")) == "unknown"
    cost = compute.Cost(40.0, "x", 1000, lambda m: 40.0 * (m / 1000) ** 2, lambda m: None)
    m = compute.subsample_size(cost)
    assert m % 10 == 0 and 40.0 * (m / 1000) ** 2 <= compute.SUBSAMPLE_TARGET_SECONDS
    assert 40.0 * ((m + 10) / 1000) ** 2 > compute.SUBSAMPLE_TARGET_SECONDS
    assert compute.subsample_size(cost._replace(on_subsample=None)) is None
    assert compute.subsample_size(cost._replace(seconds_at=lambda m: 100.0)) is None  # nothing fits


# ------------------------------------------------------------------ jobs without Streamlit
def _job(fn, cost=None):
    store = _jobs._Store()
    job = _jobs._Job("k:1", "k", fn, cost, store, 4)
    store.jobs[job.key] = job
    return store, job


def test_a_job_nobody_waits_for_is_cancelled_at_its_next_progress_report():
    reported, go, after = threading.Event(), threading.Event(), []

    def fn(progress):
        progress(0, 2, "")
        reported.set()
        go.wait(10)
        progress(1, 2, "")  # the first report after the grace has passed without waiters: it stops here
        after.append(1)
        return "done"

    store, job = _job(fn)
    job.attach()
    job.thread.start()
    assert reported.wait(10)
    job.detach()  # the tab closed / the run moved on
    with job.lock:  # the grace has passed
        job.detached_at -= _jobs.ORPHAN_GRACE_SECONDS + 1.0
    go.set()
    assert job.finished.wait(10)
    assert isinstance(job.error, compute.Cancelled) and "nobody" in str(job.error)
    assert not after and store.get("k:1") is None  # stopped, nothing cached
    assert "k:1" not in store.jobs


def test_a_rerun_reattaching_within_the_grace_keeps_the_job():
    def fn(progress):
        for i in range(50):
            time.sleep(0.02)
            progress(i + 1, 50, "")
        return 7

    store, job = _job(fn)
    job.attach()
    job.thread.start()
    job.detach()
    job.attach()  # the rerun of the same view, well within the grace
    assert job.finished.wait(10)
    assert job.error is None and store.get("k:1").value == 7


def test_cancel_stops_a_job_and_its_pool_drops_queued_tasks():
    """Cancel while both workers run a task: the job stops at its next report and the tasks still
    queued never start."""
    started, futures = [], []
    release = [threading.Event() for _ in range(200)]
    both_running, submitted, queued_dropped = threading.Event(), threading.Event(), threading.Event()
    dropped = []

    def task(i):
        started.append(i)
        if len(started) == 2:
            both_running.set()
        release[i].wait(10)
        return i

    def fn(progress):
        from concurrent.futures import as_completed

        with task_pool(2) as pool:
            futures.extend(pool.submit(task, i) for i in range(200))
            submitted.set()
            for k, _ in enumerate(as_completed(futures), 1):
                progress(k, 200, "")
        return "all"

    def on_done(future):  # a queued task's future is done when the pool cancels it
        if future.cancelled():
            dropped.append(future)
            if len(dropped) == 197:
                queued_dropped.set()

    store, job = _job(fn)
    job.attach()
    job.thread.start()
    assert both_running.wait(10) and submitted.wait(10) and sorted(started) == [0, 1]
    for future in futures[3:]:  # the workers are busy: tasks 3… can only be queued (task 2 may start next)
        future.add_done_callback(on_done)
    job.cancel("stopped by the user")
    release[0].set()  # task 0 ends: the job reports, sees the cancel and leaves its pool
    assert queued_dropped.wait(10)
    for event in release:
        event.set()
    assert job.finished.wait(10)
    assert isinstance(job.error, compute.Cancelled) and set(started) <= {0, 1, 2}  # a freed worker may take task 2


def test_warnings_raised_on_a_job_thread_are_the_jobs_and_readable():
    _jobs._install_warning_hook()

    def fn(progress):
        warnings.warn("loo_path: 2 refit(s) did not converge — raise max_iter.", UserWarning)
        warnings.warn("loo_path: 2 refit(s) did not converge — raise max_iter.", UserWarning)
        return 1

    store, job = _job(fn)
    job.thread.start()
    assert job.finished.wait(5)
    assert store.get("k:1").messages == ("2 refit(s) did not converge.",)


def test_results_are_bounded_by_count_and_bytes(monkeypatch):
    store = _jobs._Store()
    for i in range(5):
        store.put(f"a:{i}", "a", _jobs._Entry(i, (), 10), max_entries=3)
    assert [k for k in store.data] == ["a:2", "a:3", "a:4"]
    store.max_bytes = 100  # (_jobs.MAX_CACHE_BYTES by default)
    store.put("b:0", "b", _jobs._Entry(np.zeros(8), (), 64), max_entries=10)
    store.put("b:1", "b", _jobs._Entry(np.zeros(8), (), 64), max_entries=10)
    assert "b:1" in store.data and "b:0" not in store.data and store.bytes <= 100
    assert compute.nbytes({"x": np.zeros(3), "y": (np.zeros(2, np.int8), "s")}) == 26


# ------------------------------------------------------------------ pages (AppTest)
def _page_counting():
    import streamlit as st

    from svmviz.ui.compute import cached_compute
    from tests.ui import test_compute

    def fn(progress):
        test_compute.COUNTER.append(1)
        for i in range(3):
            progress(i + 1, 3, f"step {i + 1}")
        return {"value": 42}

    out = cached_compute("t_count", ("a", 1), fn, progress_text="Computing the answer…")
    st.write(f"answer {out['value']}")


COUNTER: list = []


def test_cached_compute_runs_once_and_serves_every_run():
    COUNTER.clear()
    at = AppTest.from_function(_page_counting, default_timeout=30)
    at.run()
    assert not at.exception
    assert any("answer 42" in m.value for m in at.markdown)
    at.run()
    at2 = AppTest.from_function(_page_counting, default_timeout=30).run()
    assert any("answer 42" in m.value for m in at2.markdown)
    assert len(COUNTER) == 1


def test_a_quick_value_asked_for_by_many_sessions_at_once_is_built_once():
    """Thirty sessions opening one link at the same moment: the data set is built by one of them, the
    others wait for it and get the very same object."""
    compute._store().clear()
    store, key = compute._store(), compute.cache_key("t_once", ("banana", 200, 0))
    built, got = [], []
    start = threading.Barrier(30)

    def build():
        built.append(1)
        # every session has asked before the value is ready: each one holds the key's building slot
        deadline = time.monotonic() + 10
        while store._building[key][1] < 30 and time.monotonic() < deadline:
            time.sleep(0.001)
        return np.arange(5.0)

    def session():
        start.wait()
        got.append(compute.cached("t_once", ("banana", 200, 0), build))

    threads = [threading.Thread(target=session) for _ in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(built) == 1 and len(got) == 30 and all(g is got[0] for g in got)
    assert not compute._store()._building  # nothing left behind
    compute._store().clear()


def test_a_failed_build_is_not_kept_and_the_next_session_builds_again():
    compute._store().clear()

    def bad():
        raise ValueError("no such column")

    with pytest.raises(ValueError, match="no such column"):
        compute.cached("t_fail", (1,), bad)
    assert compute.cached("t_fail", (1,), lambda: 7) == 7
    assert not compute._store()._building
    compute._store().clear()


def _page_warns():
    import warnings

    import streamlit as st

    from svmviz.ui.compute import cached_compute

    def fn(progress):
        warnings.warn("criteria_surface: 3 solve(s) hit max_iter before reaching the tolerance; values at "
                      "those grid points are approximate.", UserWarning)
        return 5

    st.write(f"got {cached_compute('t_warn', (1,), fn)}")


def test_warnings_show_readably_on_the_page_also_when_cached():
    for _ in range(2):
        at = AppTest.from_function(_page_warns, default_timeout=30).run()
        assert not at.exception
        assert [w.value for w in at.warning] == [
            "3 solve(s) hit the iteration limit before reaching the tolerance; values at those grid points "
            "are approximate."]


def _page_costly():
    import streamlit as st

    from svmviz.ui.compute import Cost, cached_compute

    def use(m):
        st.session_state["n"] = m

    n = st.session_state.get("n", 1000)
    cost = Cost(40.0 * (n / 1000) ** 2, f"the answer for {n} points", n, lambda m: 40.0 * (m / 1000) ** 2, use)
    out = cached_compute("t_cost", (n,), lambda progress: n * 2, cost=cost, optional=True)
    st.write(f"result {out}")
    st.write("rest of the page")


def test_costly_work_asks_first_offers_a_subsample_and_runs_on_request(monkeypatch):
    monkeypatch.setattr(_jobs, "_speed_factor", lambda store, name: 1.0)  # the toy job takes no time
    monkeypatch.setattr(compute, "_calibrated", lambda name: True)  # as if its speed here were known
    at = AppTest.from_function(_page_costly, default_timeout=30).run()
    assert not at.exception
    assert any("result None" in m.value for m in at.markdown)
    assert any("rest of the page" in m.value for m in at.markdown)  # optional: the page goes on
    assert any("takes about 40 s" in i.value for i in at.info)
    run = [b for b in at.button if b.label == "Run (about 40 s)"]
    sub = [b for b in at.button if b.label.startswith("Use a seeded subsample of 440 points")]
    assert run and sub, [b.label for b in at.button]
    sub[0].click().run()
    assert at.session_state["n"] == 440
    assert any("result 880" in m.value for m in at.markdown)  # 7.7 s: no question
    at.session_state["n"] = 1000
    at.run()
    assert any("result None" in m.value for m in at.markdown)
    [b for b in at.button if b.label.startswith("Run (about")][0].click().run()
    assert any("result 2000" in m.value for m in at.markdown)


def test_an_estimate_without_this_machines_timing_shows_no_duration():
    at = AppTest.from_function(_page_costly, default_timeout=30).run()  # nothing of "t_cost" has run here
    assert not at.exception
    assert [i.value for i in at.info] == ["The answer for 1000 points can take a while; how long on this machine "
                                          "is known once it has run here: start it when you are ready."]
    labels = [b.label for b in at.button]
    assert "Run" in labels
    assert not [lab for lab in labels if "about" in lab or " s)" in lab], labels
    assert [lab for lab in labels if lab == "Use a seeded subsample of 440 points"], labels


def test_a_stopped_computation_says_so_and_offers_to_run_again():
    at = AppTest.from_function(_page_costly, default_timeout=30)
    at.session_state["n"] = 100  # 0.4 s: runs at once unless stopped
    key = "t_cost:" + compute.digest((100,))
    at.session_state[compute._STOPPED] = {key}
    at.run()
    assert any(w.value.startswith("Stopped: the answer for 100 points") for w in at.warning)
    again = [b for b in at.button if b.label.startswith("Run again")]
    assert again
    again[0].click().run()
    assert any("result 200" in m.value for m in at.markdown)
    assert not at.warning


def _page_error():
    import streamlit as st

    from svmviz.ui.compute import cached_compute

    def fn(progress):
        raise ValueError("the data have one class only")

    try:
        cached_compute("t_err", (1,), fn)
    except ValueError as exc:
        st.error(f"Could not: {exc}")


def test_an_error_reaches_the_page_and_is_not_cached():
    for _ in range(2):
        at = AppTest.from_function(_page_error, default_timeout=30).run()
        assert not at.exception
        assert [e.value for e in at.error] == ["Could not: the data have one class only"]


def test_the_speed_of_finished_jobs_corrects_the_next_estimate():
    store, jobs = _jobs._Store(), []

    def fn(progress):
        jobs[0].started -= 1.2  # the job has run 1.2 s when it returns
        return 1

    job = _jobs._Job("s:1", "s", fn, compute.Cost(0.6, "x"), store, 4)
    jobs.append(job)
    job.thread.start()
    assert job.finished.wait(5)
    assert store.speed["s"] and 2.0 <= store.speed["s"][0] < 2.5  # twice as long as estimated
    store.speed["s"] = [2.0, 2.2, 1.8, 40.0]
    assert _jobs._speed_factor(store, "s") == pytest.approx(2.1)  # median, robust to one outlier
    store.speed["s"] = [100.0]
    assert _jobs._speed_factor(store, "s") == 8.0  # bounded
    assert _jobs._speed_factor(store, "unknown") == 1.0


def test_the_progress_line_shows_the_compile_progress_and_no_time_left_while_numba_compiles():
    """While numba compiles for a job the line shows the compile's progress (svmviz._jit.notices_to) and
    no time left, which nothing can know; the job's own message comes back when the compile ends."""
    store, job = _job(lambda progress: 1)
    job.progress(1, 4, "σ 1 of 4")
    frac, line = compute._progress_line("Computing…", job, estimate=8.0)
    assert frac == 0.25 and "left" in line and "σ 1 of 4" in line
    job._compile_progress("Compiling the ν-path solver once for this installation: 3 of its 7 functions ready")
    frac, line = compute._progress_line("Computing…", job, estimate=8.0)
    assert "3 of its 7 functions ready" in line and "left" not in line and "σ 1 of 4" not in line
    job._compile_progress("")
    frac, line = compute._progress_line("Computing…", job, estimate=8.0)
    assert "σ 1 of 4" in line and "left" in line and not job.compiling


def test_task_pool_without_error_runs_everything():
    out = []
    with task_pool(2) as pool:
        for i in range(20):
            pool.submit(out.append, i)
    assert sorted(out) == list(range(20))


# ------------------------------------------------------------------ applied: Tuning and Loss pages
def _slow_machine(monkeypatch, per_refit=0.003):
    """A cost table as if every refit took ``per_refit`` seconds (and estimates learnt nothing yet)."""
    from svmviz import _cost

    monkeypatch.setattr(_cost, "SMO_LOO_REFIT", {200: per_refit, 400: per_refit, 800: 2 * per_refit})
    # serial refits (the Loss page) cost 1.5 × the grid's here, whatever the calibrated factor is, so
    # the page's estimate (and the subsample it offers) depends on ``per_refit`` alone
    monkeypatch.setattr(_cost, "SMO_LOO_REFIT_SERIAL_FACTOR", 1.5)
    monkeypatch.setattr(_jobs, "_speed_factor", lambda store, name: 1.0)
    monkeypatch.setattr(compute, "_calibrated", lambda name: True)


def _page(name, query):
    from tests.apptest_utils import page_path

    at = AppTest.from_file(page_path(name), default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def test_tuning_page_asks_before_a_costly_exact_loo(monkeypatch):
    """Exact LOO at n = 2000 started at once and ran for minutes with no estimate. Now it
    is estimated from the fitted grid's support vectors; above 10 s the page asks, with a subsample
    offer, and shows the surfaces without LOO meanwhile."""
    from tests.apptest_utils import figure_titles, figures

    _slow_machine(monkeypatch)
    at = _page("1_Tuning_criteria.py", {"data": "wahba2001", "n": "120", "seed": "0", "res": "8", "loo": "1"})
    assert not at.exception
    def titles(at):  # figure titles and the criteria panels' names (one figure of panels since a338cdf)
        return figure_titles(at) + [t["name"] for f in figures(at) for t in f["data"] if t.get("type") == "contour"]

    names = titles(at)
    assert "GACV" in names and "exact LOO" not in names
    run = [b for b in at.button if b.label.startswith("Run (about")]
    sub = [b for b in at.button if b.label.startswith("Use a seeded subsample of")]
    assert run and sub, [b.label for b in at.button]
    assert any("Exact leave-one-out over the 8 × 8 grid" in i.value for i in at.info)
    run[0].click().run()
    assert not at.exception
    assert "exact LOO" in titles(at)


def test_loss_page_asks_before_a_costly_exact_loo(monkeypatch):
    """The Loss page computes LOO by default; a 5,000-row upload took 274 s without a
    word. Now a costly LOO waits for the user; GACV and ranGACV are drawn meanwhile."""
    _slow_machine(monkeypatch, per_refit=0.005)
    at = _page("2_Loss_functions.py", {"data": "wahba2001", "n": "150", "seed": "0"})
    assert len(at.get("plotly_chart")) >= 5  # losses, prediction functions, the hinge-scale curves
    assert not at.exception
    assert [b for b in at.button if b.label.startswith("Run (about")], [b.label for b in at.button]
    assert any("Exact leave-one-out at 20 values of λ" in i.value for i in at.info)
    sub = [b for b in at.button if b.label.startswith("Use a seeded subsample of")]
    m = int(sub[0].label.split("subsample of ")[1].split(" ")[0])
    sub[0].click().run()
    assert not at.exception
    assert at.slider(key="loss_n").value == m


@pytest.mark.serial  # two timed runs compared: another test beside them would skew the ratio
def test_the_loss_pages_estimate_lands_within_twice_the_measured_time(monkeypatch):
    """Exact LOO along λ on the Loss page, asked for every time (threshold 0): its first run shows no
    duration and times this machine; the next one on the same points (another kernel width σ) is
    estimated from that timing, and the estimate it shows lands within 2× of the time it takes."""
    from svmviz import data
    from svmviz.losses import gacv_curves

    # the process's first LOO loads its compiled functions from the disk cache: done here, so that the
    # timed runs are the computation's own (a server pays it once, against tens of seconds of work)
    small = data.make_dataset("wahba2001", n=60, seed=5)
    gacv_curves(small.X, small.y, np.logspace(-4, -1, 3), 1.0, loo=True, ran_gacv_replicates=1)
    monkeypatch.setattr(compute, "ASK_ABOVE_SECONDS", 0.0)
    query = {"data": "wahba2001", "n": "400", "seed": "0"}
    at = _page("2_Loss_functions.py", query)
    assert not at.exception
    assert "Run" in [b.label for b in at.button]  # not timed here yet: no duration
    assert not [b.label for b in at.button if b.label.startswith("Run (about")]
    [b for b in at.button if b.label == "Run"][0].click().run()
    assert not at.exception
    speed = compute._store().speed["loss_gacv"]
    assert len(speed) == 1  # the first run timed this machine
    factor = _jobs._speed_factor(compute._store(), "loss_gacv")
    at.slider(key="lf_sig").set_value(0.1).run()  # the same points, σ = 10^0.1 instead of 1
    run = [b for b in at.button if b.label.startswith("Run (about")]
    assert run, [b.label for b in at.button]
    run[0].click().run()
    assert not at.exception
    # shown: the table's seconds × factor; taken: the table's seconds × the new ratio
    measured_over_estimate = compute._store().speed["loss_gacv"][-1] / factor
    assert 0.5 <= measured_over_estimate <= 2.0, (speed, factor)
