"""A results folder says what it holds: one writer at a time, replicates shown without rewriting the spec,
cancelled tasks not failed, provenance without the host, unreadable files named with the command that
rebuilds them."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import tomllib

import pandas as pd
import pyarrow.parquet as pq
import pytest

from svmviz.cli import main
from svmviz.studies import load_results, run_study, spec_from_dict, spec_to_toml
from svmviz.studies import provenance as prov
from svmviz.studies.lock import LOCK_FILE, FolderLock, FolderLockedError, read_lock


def _spec(replicates: int = 2):
    """A study a test can run in a second: n = 40, a 3 × 3 grid, GACV, 200 test points."""
    return spec_from_dict({"name": "safety", "replicates": replicates, "seed": 3, "test_size": 200,
                           "datasets": [{"name": "wahba2001", "n": 40}],
                           "svm": {"criteria": ["gacv"], "n_lambda": 3, "n_sigma": 3}})


@pytest.fixture(scope="module")
def four_replicates(tmp_path_factory):
    out = tmp_path_factory.mktemp("four") / "run"
    run_study(_spec(4), out, workers=0)
    return out


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


def _spec_file(tmp_path, replicates: int = 2):
    path = tmp_path / "safety.toml"
    path.write_text(spec_to_toml(_spec(replicates)))
    return path


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


# ------------------------------------------------------------------------------------ one writer
def test_second_run_on_a_folder_being_written_is_refused_naming_the_holder(tmp_path, capsys):
    """While one run computes, a second `study run` on its folder computes nothing and names the first."""
    folder = tmp_path / "out"
    spec_file = _spec_file(tmp_path, 3)
    first_saved, go_on = threading.Event(), threading.Event()
    outcome = {}

    def progress(done, total, message):
        if "replicate 0 done" in message:
            first_saved.set()
            go_on.wait(300)

    def first():
        outcome["res"] = run_study(_spec(3), folder, workers=0, progress=progress)

    t = threading.Thread(target=first)
    t.start()
    try:
        assert first_saved.wait(300)
        holder = read_lock(str(folder))
        code = main(["study", "run", str(spec_file), "--out", str(folder), "--workers", "0"])
        err = capsys.readouterr().err
        assert code == 2
        assert f"process {os.getpid()} on host {socket.gethostname()}, started {holder['started']}" in err
        assert "--wait" in err
        assert sorted(os.listdir(folder / "tasks")) == ["000-wahba2001-r00000.parquet"]  # the second computed none
    finally:
        go_on.set()
        t.join(300)
    assert outcome["res"].n_computed == 3 and outcome["res"].n_done == 3
    assert read_lock(str(folder)) is None  # released at the end of the run


def test_wait_runs_once_the_holder_has_finished(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (folder / LOCK_FILE).write_text(json.dumps({"pid": holder.pid, "host": socket.gethostname(),
                                                    "started": "2026-01-01T00:00:00+00:00"}))
        with pytest.raises(FolderLockedError, match=f"process {holder.pid} on host"):
            run_study(_spec(), folder, workers=0)
        threading.Timer(1.0, lambda: os.remove(folder / LOCK_FILE)).start()
        res = run_study(_spec(), folder, workers=0, wait=True)
    finally:
        holder.kill()
        holder.wait()
    assert res.n_done == 2
    assert any(n.startswith(f"waiting for process {holder.pid} on host") for n in res.notes)


def test_stale_lock_of_a_dead_process_is_taken_over_with_a_note(tmp_path, capsys):
    folder = tmp_path / "out"
    folder.mkdir()
    pid = _dead_pid()
    (folder / LOCK_FILE).write_text(json.dumps({"pid": pid, "host": socket.gethostname(),
                                                "started": "2026-01-01T00:00:00+00:00"}))
    code = main(["study", "run", str(_spec_file(tmp_path)), "--out", str(folder), "--workers", "0"])
    err = capsys.readouterr().err
    assert code == 0
    assert f"took over the lock of process {pid} on host {socket.gethostname()}" in err
    assert "no longer running" in err
    assert read_lock(str(folder)) is None


def test_lock_of_another_host_is_respected(tmp_path):
    (tmp_path / LOCK_FILE).write_text(json.dumps({"pid": _dead_pid(), "host": "elsewhere.invalid",
                                                  "started": "2026-01-01T00:00:00+00:00"}))
    with pytest.raises(FolderLockedError, match="on host elsewhere.invalid") as info:
        FolderLock(str(tmp_path)).acquire()
    assert LOCK_FILE in str(info.value)
    with pytest.raises(FolderLockedError, match="after 0.2 s of waiting"):
        FolderLock(str(tmp_path), wait=True, timeout=0.2).acquire()


def test_lock_validates_its_inputs(tmp_path):
    with pytest.raises(ValueError, match="wait must be True or False"):
        FolderLock(str(tmp_path), wait="yes")
    with pytest.raises(ValueError, match="timeout"):
        FolderLock(str(tmp_path), timeout=-1)
    with pytest.raises(ValueError, match="wait must be True or False"):
        run_study(_spec(), tmp_path / "out", workers=0, wait=1)


# ------------------------------------------------------------------------------------ replicates
def test_fewer_replicates_than_saved_show_the_first_and_keep_the_spec(four_replicates, tmp_path, capsys):
    folder = _copy(four_replicates, tmp_path / "copy")
    spec_before = tomllib.loads((folder / "spec.toml").read_text())
    res = run_study(_spec(4), folder, workers=0, replicates=2)
    assert res.n_computed == 0
    assert sorted(res.table["replicate"].unique()) == [0, 1]
    assert res.n_tasks == 2 and res.n_done == 2
    assert any(n.startswith("showing 2 of 4 saved replicates") for n in res.notes)
    after = tomllib.loads((folder / "spec.toml").read_text())
    assert after["replicates"] == spec_before["replicates"] == 4
    assert sorted(pd.read_parquet(folder / "results.parquet")["replicate"].unique()) == [0, 1, 2, 3]
    assert load_results(folder).n_done == 4  # `study show` still shows all four

    code = main(["study", "run", str(_spec_file(tmp_path, 4)), "--out", str(folder), "--workers", "0",
                 "--replicates", "3"])
    assert code == 0
    assert "showing 3 of 4 saved replicates" in capsys.readouterr().err
    shown = load_results(folder, replicates=1)
    assert sorted(shown.table["replicate"].unique()) == [0] and shown.n_tasks == 1
    assert shown.notes and shown.notes[0].startswith("showing 1 of 4 saved replicates")


def test_more_replicates_than_saved_extend_the_spec(four_replicates, tmp_path):
    folder = _copy(four_replicates, tmp_path / "copy")
    res = run_study(_spec(4), folder, workers=0, replicates=5)
    assert res.n_computed == 1 and res.n_done == 5 and not res.notes
    assert tomllib.loads((folder / "spec.toml").read_text())["replicates"] == 5


# ------------------------------------------------------------------------------------ cancellation
def test_shutdown_of_the_cluster_marks_running_tasks_cancelled_not_failed(tmp_path, capsys):
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    client = Client(cluster, set_as_default=False)
    messages = []

    def progress(done, total, message):
        messages.append(message)
        if message.endswith("s)") and "replicate" in message:  # the first task saved: the app shuts down
            client.close()
            cluster.close()

    res = run_study(_spec(4), tmp_path / "out", client=client, progress=progress)
    assert res.n_done == 1 and res.n_failed == 0 and res.n_cancelled == 3
    assert not [f for f in os.listdir(tmp_path / "out" / "tasks") if f.endswith(".error.json")]
    assert sum("cancelled (its cluster shut down)" in m for m in messages) == 3
    assert not any("FAILED" in m or "CancelledError" in m for m in messages)
    again = run_study(_spec(4), tmp_path / "out", workers=0)  # a rerun computes the cancelled ones
    assert again.n_computed == 3 and again.n_done == 4 and again.n_failed == 0


# ------------------------------------------------------------------------------------ provenance
def test_provenance_records_every_runtime_dependency_and_no_host(tmp_path, monkeypatch):
    import importlib

    p = prov.provenance()
    for key, module in prov.RUNTIME_PACKAGES:
        assert p[key] == importlib.import_module(module).__version__, key
    assert {"scipy", "pandas", "pyarrow", "dask", "distributed", "llvmlite", "streamlit", "plotly"} <= set(p)
    assert "machine" not in p
    assert prov.provenance(record_host=True)["machine"] == socket.gethostname()
    with pytest.raises(ValueError, match="record_host"):
        prov.provenance(record_host="yes")
    host = "a-host-name-only-this-test-uses"
    monkeypatch.setattr(socket, "gethostname", lambda: host)
    run_study(_spec(1), tmp_path / "out", workers=0)
    for root, _, files in os.walk(tmp_path / "out"):
        for f in files:
            with open(os.path.join(root, f), "rb") as fh:
                assert host.encode() not in fh.read(), f  # no file of the folder names the machine
    assert "machine" not in tomllib.loads((tmp_path / "out" / "spec.toml").read_text())["provenance"]


def test_provenance_records_the_git_commit_of_the_checkout():
    import svmviz

    root = os.path.dirname(os.path.dirname(os.path.abspath(svmviz.__file__)))
    p = prov.provenance()
    if not os.path.exists(os.path.join(root, ".git")):  # an installed wheel: no commit to name
        assert "git_commit" not in p
        return
    head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    assert p["git_commit"] == head and isinstance(p["git_dirty"], bool)


def test_git_state_says_whether_tracked_files_changed(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t")

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)

    git("init", "-q")
    (repo / "a.txt").write_text("1")
    git("add", "a.txt")
    git("commit", "-q", "-m", "one")
    state = prov.git_state(str(repo))
    assert len(state["git_commit"]) == 40 and state["git_dirty"] is False
    (repo / "b.txt").write_text("untracked files do not count")
    assert prov.git_state(str(repo))["git_dirty"] is False
    (repo / "a.txt").write_text("2")
    assert prov.git_state(str(repo)) == {"git_commit": state["git_commit"], "git_dirty": True}
    assert prov.git_state(str(tmp_path / "nowhere")) == {}


def test_record_host_is_asked_for_on_the_command_line(tmp_path):
    folder = tmp_path / "out"
    assert main(["study", "run", str(_spec_file(tmp_path, 1)), "--out", str(folder), "--workers", "0",
                 "--record-host"]) == 0
    task = next((folder / "tasks").iterdir())
    assert prov.read_parquet_record(str(task))["provenance"]["machine"] == socket.gethostname()
    assert tomllib.loads((folder / "spec.toml").read_text())["provenance"]["machine"] == socket.gethostname()


# ------------------------------------------------------------------------------------ unreadable files
@pytest.mark.parametrize("damage", ["truncated", "foreign"])
def test_unreadable_results_table_is_named_with_the_command_that_rebuilds_it(four_replicates, tmp_path, damage,
                                                                            capsys):
    folder = _copy(four_replicates, tmp_path / "copy")
    path = folder / "results.parquet"
    if damage == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:
        pd.DataFrame({"price": [1.5, 2.5], "name": ["a", "b"]}).to_parquet(path)
    command = f"svmviz study run {folder / 'spec.toml'} --out {folder}"
    with pytest.raises(ValueError) as info:
        load_results(folder)
    assert str(path) in str(info.value) and command in str(info.value)
    assert main(["study", "show", str(folder)]) == 2
    assert command in capsys.readouterr().err
    assert main(command.split()[1:] + ["--workers", "0"]) == 0  # the command given rebuilds it
    assert "0 computed now" in capsys.readouterr().out
    assert load_results(folder).n_done == 4


def test_corrupt_task_file_is_named_when_computed_again(four_replicates, tmp_path, capsys):
    folder = _copy(four_replicates, tmp_path / "copy")
    task = folder / "tasks" / "000-wahba2001-r00002.parquet"
    expected = pd.read_parquet(task)
    task.write_bytes(task.read_bytes()[:100])
    code = main(["study", "run", str(folder / "spec.toml"), "--out", str(folder), "--workers", "0"])
    captured = capsys.readouterr()
    assert code == 0 and "1 computed now" in captured.out
    assert f"{task} cannot be read as a task's results" in captured.err and "computed again" in captured.err
    again = pd.read_parquet(task)
    pd.testing.assert_frame_equal(again.drop(columns=["seconds", "task_seconds"]),
                                  expected.drop(columns=["seconds", "task_seconds"]))
    assert prov.read_parquet_record(str(task))["task"]["replicate"] == 2
    meta = json.loads(pq.read_schema(folder / "results.parquet").metadata[b"svmviz"])
    assert meta["spec_digest"] == prov.spec_digest(_spec(4))


def test_unreadable_task_file_of_an_unfinished_run_is_named_by_show(four_replicates, tmp_path, capsys):
    folder = _copy(four_replicates, tmp_path / "copy")
    for f in ("results.parquet", "errors.parquet"):  # as a run cut off before its end leaves the folder
        os.remove(folder / f)
    task = folder / "tasks" / "000-wahba2001-r00001.parquet"
    pd.DataFrame({"price": [1.0]}).to_parquet(task)
    res = load_results(folder)
    assert res.n_done == 3
    assert res.notes == [f"{task} cannot be read as a task's results (cut short, corrupt or another file); svmviz "
                         f"study run {folder / 'spec.toml'} --out {folder} computes its task again"]
    assert main(["study", "show", str(folder)]) == 0
    assert f"{task} cannot be read" in capsys.readouterr().err


def test_lock_file_without_a_record_is_held_by_an_unknown_process(tmp_path):
    """A lock file being created has no record yet for an instant; one that stays so names no holder."""
    (tmp_path / LOCK_FILE).write_text("")
    os.utime(tmp_path / LOCK_FILE, (0, 0))  # long past: not a lock being written
    with pytest.raises(FolderLockedError, match="an unknown process"):
        FolderLock(str(tmp_path)).acquire()
    (tmp_path / LOCK_FILE).write_text("")  # just created: its writer gets a moment, then it is released
    threading.Timer(0.3, lambda: os.remove(tmp_path / LOCK_FILE)).start()
    with FolderLock(str(tmp_path)) as lock:
        assert read_lock(str(tmp_path)) == lock.record
