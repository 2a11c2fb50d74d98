"""The study engine on Dask: equal tables for any number of workers, an existing cluster, a killed
worker, an interrupted run resumed, a failing task, numba's cache on the workers, the Tuning page's
Monte Carlo through the engine, and the ``svmviz study`` command.

Studies are tiny (n ≤ 60, grids ≤ 6 × 6, ≤ 6 replicates); each Dask cluster takes 0.5–2 s to start.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest

from svmviz import make_dataset
from svmviz.studies import load_results, run_study, spec_from_dict, spec_to_toml
from svmviz.studies.engine import task_id
from svmviz.studies.results import comparable, read_table
from svmviz.studies.tasks import task_seeds

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PY = sys.executable

TINY = {
    "name": "tiny", "replicates": 3, "seed": 11, "test_size": 1500,
    "datasets": [{"name": "wahba2001", "n": 50}, {"name": "banana", "n": 40}],
    "svm": {"criteria": ["gacv", "xa", "xa_j", "kfold", "loo"], "log10_lambda": [-4.0, -0.5], "n_lambda": 5,
            "log10_sigma": [-0.5, 0.7], "n_sigma": 5},
}
#: a little heavier (≈ 0.1–0.3 s per task): a worker is still busy when the test kills it
SLOWER = {
    "name": "slower", "replicates": 6, "seed": 5, "test_size": 2000,
    "datasets": [{"name": "wahba2001", "n": 60}],
    "svm": {"criteria": ["gacv", "xa", "kfold", "loo"], "log10_lambda": [-5.0, -0.5], "n_lambda": 6,
            "log10_sigma": [-1.0, 1.0], "n_sigma": 6},
}


@pytest.fixture(scope="module")
def tiny():
    return spec_from_dict(TINY)


@pytest.fixture(scope="module")
def serial(tiny):
    """The reference: every task in this process, one after the other."""
    res = run_study(tiny, None, workers=0)
    assert res.n_failed == 0 and res.n_done == tiny.n_tasks
    return comparable(res.table)


@pytest.fixture(scope="module")
def slower_serial():
    res = run_study(spec_from_dict(SLOWER), None, workers=0)
    return comparable(res.table)


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("NUMBA_CACHE_DIR", os.path.join(ROOT, ".numba_cache"))
    env.pop("DASK_SCHEDULER_ADDRESS", None)
    return env


def test_table_has_one_row_per_dataset_replicate_and_criterion(serial, tiny):
    # 5 requested criteria + GCKL and MISCLASS (the truth) on wahba2001; banana has no truth
    n_rows = tiny.replicates * (7 + 5)
    assert len(serial) == n_rows
    assert not serial.duplicated(["dataset", "replicate", "criterion"]).any()
    w = serial[serial["dataset"] == "wahba2001"]
    assert (w["inefficiency"] >= 1.0).all() and (w.loc[w["criterion"] == "misclass", "inefficiency"] == 1.0).all()
    b = serial[serial["dataset"] == "banana"]
    assert b["inefficiency"].isna().all() and b["bayes_error"].isna().all() and b["test_error"].notna().all()
    assert (serial["n_test"] == 1500).all()
    assert serial["seed"].tolist()[:1] == [task_seeds(11, 0).data]


def test_two_worker_local_cluster_equals_the_serial_run(serial, tiny, tmp_path):
    seen = []
    res = run_study(tiny, tmp_path / "out", workers=2, progress=lambda d, t, m: seen.append((d, t)))
    pd.testing.assert_frame_equal(comparable(res.table), serial)
    assert seen[-1] == (tiny.n_tasks, tiny.n_tasks) and [d for d, _ in seen] == list(range(tiny.n_tasks + 1))
    # the folder: the spec beside the table, one Parquet file per task, the table read back equal
    assert sorted(os.listdir(tmp_path / "out")) == ["errors.parquet", "results.parquet", "spec.toml", "tasks"]
    assert len(os.listdir(tmp_path / "out" / "tasks")) == tiny.n_tasks
    pd.testing.assert_frame_equal(comparable(read_table(tmp_path / "out" / "results.parquet")), serial)
    again = load_results(tmp_path / "out")
    assert again.spec == tiny and again.n_done == tiny.n_tasks
    # rerunning the complete study computes nothing
    assert run_study(tiny, tmp_path / "out", workers=2).n_computed == 0


def test_workers_load_numba_kernels_from_the_shared_cache(tiny, tmp_path):
    """Each worker gets the client's kernel cache folder and loads the compiled SMO kernel from it
    (cache hits, no compilation), once per worker process."""
    from distributed import Client, LocalCluster

    from svmviz.studies.engine import worker_environment

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      env=worker_environment()) as cluster, Client(cluster) as client:
        run_study(tiny, None, client=client)

        def stats():
            import svmviz.svm._smo as smo

            st = smo._lambda_sequence_whole.stats  # the grid's λ-sequence kernel
            from svmviz._jit import cache_folder

            return cache_folder(), sum(st.cache_hits.values()), sum(st.cache_misses.values())

        out = client.run(stats)
    assert len(out) == 2
    from svmviz._jit import cache_folder

    for cache_dir, hits, misses in out.values():
        assert cache_dir == cache_folder()
        assert hits >= 1 and misses == 0


def _start(cmd, log):
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=_env(), cwd=ROOT,
                            start_new_session=True)


def test_existing_cluster_through_the_command_gives_the_same_table(serial, tiny, tmp_path):
    """`dask scheduler` and two `dask worker` processes on 127.0.0.1; `svmviz study run --scheduler`
    and, in a second folder, Dask's DASK_SCHEDULER_ADDRESS."""
    dask_cli = os.path.join(os.path.dirname(PY), "dask")
    sched_file = tmp_path / "scheduler.json"
    log = open(tmp_path / "cluster.log", "w")
    procs = [_start([dask_cli, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(sched_file)], log)]
    try:
        for _ in range(200):
            if sched_file.exists() and sched_file.stat().st_size:
                break
            time.sleep(0.1)
        addr = json.loads(sched_file.read_text())["address"]
        for _ in range(2):
            procs.append(_start([dask_cli, "worker", "--scheduler-file", str(sched_file), "--nthreads", "1",
                                 "--nworkers", "1", "--host", "127.0.0.1", "--no-dashboard"], log))
        spec_file = tmp_path / "tiny.toml"
        spec_file.write_text(spec_to_toml(tiny))
        out = subprocess.run([PY, "-m", "svmviz", "study", "run", str(spec_file), "--out", str(tmp_path / "a"),
                              "--scheduler", addr], capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=120)
        assert out.returncode == 0, out.stderr
        assert f"{tiny.n_tasks} of {tiny.n_tasks} tasks done" in out.stdout
        pd.testing.assert_frame_equal(comparable(load_results(tmp_path / "a").table), serial)
        env = _env() | {"DASK_SCHEDULER_ADDRESS": addr}
        out = subprocess.run([PY, "-m", "svmviz", "study", "run", str(spec_file), "--out", str(tmp_path / "b")],
                             capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        assert out.returncode == 0, out.stderr
        pd.testing.assert_frame_equal(comparable(load_results(tmp_path / "b").table), serial)
        # both used the existing cluster: its two workers ran the tasks
        from distributed import Client

        with Client(addr) as c:
            logs = c.run(lambda dask_worker: dask_worker.state.executed_count)
        assert len(logs) == 2 and sum(logs.values()) >= 2 * tiny.n_tasks
    finally:
        for p in procs[::-1]:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
        log.close()


def test_a_worker_killed_mid_run_does_not_change_the_table(slower_serial, tmp_path):
    from distributed import Client, LocalCluster

    from svmviz.studies.engine import worker_environment

    spec = spec_from_dict(SLOWER)
    killed = []
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      env=worker_environment()) as cluster, Client(cluster) as client:

        def progress(done, total, message):
            if done == 1 and not killed:
                busy = {w: keys for w, keys in client.processing().items() if keys}
                victim = sorted(busy)[0]
                pid = client.run(os.getpid, workers=[victim])[victim]
                os.kill(pid, signal.SIGKILL)
                killed.append((victim, len(busy[victim])))

        res = run_study(spec, tmp_path / "out", client=client, progress=progress)
    assert killed and killed[0][1] >= 1  # the killed worker held at least one task
    assert res.n_failed == 0
    pd.testing.assert_frame_equal(comparable(res.table), slower_serial)


class _Interrupt(KeyboardInterrupt):
    pass


def test_an_interrupted_run_resumes_and_ends_with_the_same_table(slower_serial, tmp_path):
    spec = spec_from_dict(SLOWER)
    out = tmp_path / "out"

    def stop_after_two(done, total, message):
        if done == 2:
            raise _Interrupt()

    with pytest.raises(KeyboardInterrupt):
        run_study(spec, out, workers=2, progress=stop_after_two)
    saved = [f for f in os.listdir(out / "tasks") if f.endswith(".parquet")]
    assert 2 <= len(saved) < spec.n_tasks
    assert not (out / "results.parquet").exists()
    res = run_study(spec, out, workers=2)
    assert res.n_computed == spec.n_tasks - len(saved)
    pd.testing.assert_frame_equal(comparable(res.table), slower_serial)
    # more replicates later: only the new ones are computed, the old rows stay
    more = run_study(spec.replace(replicates=7), out, workers=0)
    assert more.n_computed == 1
    pd.testing.assert_frame_equal(comparable(more.table[more.table["replicate"] < 6]), slower_serial)


def test_a_ctrl_c_wrapped_by_numba_stops_the_run(monkeypatch):
    """Ctrl-C inside numba's dispatcher can arrive as ``SystemError: CPUDispatcher(…) returned a
    result with an exception set`` caused by the KeyboardInterrupt (full CI at 2b7f832: the command
    exited 1 with a FAILED task instead of 130). The run must stop as for a plain Ctrl-C, and the task
    must not be recorded as failed."""
    from svmviz.studies import engine, tasks

    def interrupted_inside_numba(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as k:
            raise SystemError("CPUDispatcher(<function _rbf_exp>) returned a result with an exception set") from k

    monkeypatch.setattr(tasks, "run_task", interrupted_inside_numba)
    spec = spec_from_dict(SLOWER)
    with pytest.raises(KeyboardInterrupt):
        engine._run_task_safe(spec, 0, 0, None, None)
    # an ordinary error is still a task failure, also when something earlier in its chain is not an interrupt
    def fails(*args, **kwargs):
        try:
            raise ValueError("inner")
        except ValueError as v:
            raise SystemError("outer") from v

    monkeypatch.setattr(tasks, "run_task", fails)
    status, message, tb, _ = engine._run_task_safe(spec, 0, 0, None, None)
    assert status == "error" and message == "SystemError: outer" and "ValueError: inner" in tb


def test_an_interrupted_command_resumes(slower_serial, tmp_path):
    """Ctrl-C (SIGINT) on `svmviz study run`: the saved tasks stay, the same command finishes the rest."""
    spec_file = tmp_path / "s.toml"
    spec_file.write_text(spec_to_toml(spec_from_dict(SLOWER)))
    cmd = [PY, "-m", "svmviz", "study", "run", str(spec_file), "--out", str(tmp_path / "o"), "--workers", "0"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=ROOT)
    tasks = tmp_path / "o" / "tasks"
    deadline = time.time() + 60
    while time.time() < deadline and not (tasks.exists() and any(f.endswith(".parquet") for f in os.listdir(tasks))):
        time.sleep(0.02)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    n_saved = sum(f.endswith(".parquet") for f in os.listdir(tasks))
    if n_saved < 6:  # it was still running when interrupted
        assert p.returncode == 130 and "Run the same command again" in err, (p.returncode, err[-2000:])
    out = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"({6 - n_saved} computed now" in out.stdout
    pd.testing.assert_frame_equal(comparable(load_results(tmp_path / "o").table), slower_serial)


def test_a_failing_task_leaves_the_other_rows_saved(tmp_path):
    """5-fold CV needs 5 points per class; usvc_A draws its class sizes Binomial(n, 2/3), so some
    replicates of n = 14 cannot be cross-validated. Those tasks fail with that message; every
    other task is saved, and a rerun tries only the failed ones again."""
    d = {"name": "failing", "replicates": 6, "seed": 0, "test_size": 500,
         "datasets": [{"name": "usvc_A", "n": 14}],
         "svm": {"criteria": ["gacv", "kfold"], "n_lambda": 4, "n_sigma": 3}}
    spec = spec_from_dict(d)
    minority = [int(np.sum(make_dataset("usvc_A", n=14, seed=task_seeds(0, r).data).y < 0)) for r in range(6)]
    expected_failed = {r for r, c in enumerate(minority) if c < 5}
    assert expected_failed and len(expected_failed) < 6 and 0 not in expected_failed
    res = run_study(spec, tmp_path / "out", workers=2)
    assert set(res.errors["replicate"]) == expected_failed
    assert all("5-fold cross-validation needs at least 5 points" in e for e in res.errors["error"])
    assert set(res.table["replicate"]) == set(range(6)) - expected_failed
    for r in range(6):
        base = tmp_path / "out" / "tasks" / task_id(spec, 0, r)
        assert os.path.exists(f"{base}.parquet") == (r not in expected_failed)
        assert os.path.exists(f"{base}.error.json") == (r in expected_failed)
    serial = run_study(spec, None, workers=0)
    pd.testing.assert_frame_equal(comparable(res.table), comparable(serial.table))
    again = run_study(spec, tmp_path / "out", workers=0)
    assert again.n_computed == len(expected_failed) and again.n_failed == len(expected_failed)


def test_results_folder_of_another_study_is_refused(tiny, tmp_path):
    run_study(tiny.replace(replicates=1), tmp_path / "out", workers=0)
    other = tiny.replace(seed=12, replicates=1)
    with pytest.raises(ValueError, match="results of a different study"):
        run_study(other, tmp_path / "out", workers=0)


def test_monte_carlo_through_the_engine_equals_inefficiency_study():
    """The Tuning page's Monte Carlo: the engine's numbers are those of the serial inefficiency_study."""
    from svmviz.studies import monte_carlo_study
    from svmviz.tuning import inefficiency_study

    lam, sig = np.logspace(-4, -1, 5), np.logspace(-0.5, 0.5, 4)
    for params, L in (({}, (1.0, 1.0)), ({"nonstandard": True, "C_plus": 1.0, "C_minus": 2.0, "pi_plus": 0.1,
                                          "pi_minus": 0.9}, (1.5, 0.5))):
        def make(s, params=params, L=L):
            d = make_dataset("wahba2001", n=50, seed=s, **params)
            return d.X, d.y, d.p_true, L

        ref = inefficiency_study(make, R=3, lambdas=lam, sigmas=sig, seed=4)
        got = monte_carlo_study("wahba2001", 50, params, L, lam, sig, R=3, seed=4, workers=0)
        np.testing.assert_array_equal(got.seeds, ref.seeds)
        for c in ("gacv", "xa"):
            np.testing.assert_array_equal(got.value[c], ref.value[c])
            np.testing.assert_array_equal(got.low[c], ref.low[c])
            np.testing.assert_array_equal(got.high[c], ref.high[c])


def test_study_show_and_report_commands(tiny, tmp_path):
    run_study(tiny, tmp_path / "out", workers=0)
    show = subprocess.run([PY, "-m", "svmviz", "study", "show", str(tmp_path / "out")], capture_output=True,
                          text=True, env=_env(), cwd=ROOT, timeout=60)
    assert show.returncode == 0, show.stderr
    assert "6 of 6 tasks done" in show.stdout and "5-fold CV" in show.stdout and "exact LOO" in show.stdout
    md = subprocess.run([PY, "-m", "svmviz", "study", "show", "--markdown", str(tmp_path / "out")],
                        capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=60)
    assert md.returncode == 0, md.stderr
    rows = [line for line in md.stdout.splitlines() if line.startswith("| ")]
    summary_part, schema_part = show.stdout.split("\nColumns of ")
    plain = [line for line in summary_part.splitlines()[3:]
             if line and not line.startswith(("published", "FAILED", "(test)"))]
    assert "i_sigma" in schema_part and "Int64" in schema_part and "threshold" not in schema_part
    assert len(rows) == 1 + len(plain)  # the header and one row per criterion row of the plain table
    assert any(r.startswith("| ") and " | 5-fold CV | " in r for r in rows)
    rep = subprocess.run([PY, "-m", "svmviz", "study", "report", str(tmp_path / "out")], capture_output=True,
                         text=True, env=_env(), cwd=ROOT, timeout=60)
    assert rep.returncode == 0, rep.stderr
    html = (tmp_path / "out" / "report.html").read_text()
    assert html.count("* plotly.js v") == 1  # the library embedded once, for every figure
    assert html.count("Plotly.newPlot") >= 3 and "Summary" in html
    bad = subprocess.run([PY, "-m", "svmviz", "study", "show", str(tmp_path)], capture_output=True, text=True,
                         env=_env(), cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "not a study results folder" in bad.stderr


def test_run_command_reports_spec_errors_without_a_traceback(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('name = "bad"\n[[datasets]]\nname = "wahba2001"\nn = 2\n[svm]\ncriteria = ["gacv"]\n')
    out = subprocess.run([PY, "-m", "svmviz", "study", "run", str(f), "--out", str(tmp_path / "o")],
                         capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=60)
    assert out.returncode == 2
    assert "datasets[0].n must be ≥ 4; got 2" in out.stderr and "Traceback" not in out.stderr
