"""A results folder never mixes studies or code versions: task records, provenance, released futures."""
from __future__ import annotations

import json
import os
import shutil
import time
import tomllib

import pandas as pd
import pyarrow.parquet as pq
import pytest

from svmviz.cli import main
from svmviz.studies import load_results, load_spec, run_study, spec_from_dict, spec_to_toml
from svmviz.studies import provenance as prov
from svmviz.studies.spec import spec_to_dict


def _small(name: str, replicates: int = 2):
    """A ready-made spec at a size a test can run: n = 40, a 4 × 4 grid, GACV and XA, 1,000 test points."""
    d = spec_to_dict(load_spec(name))
    d.update(replicates=replicates, test_size=1000)
    d["datasets"][0]["n"] = 40
    d["svm"].update(criteria=["gacv", "xa"], lambdas=d["svm"]["lambdas"][::9][:4], sigmas=d["svm"]["sigmas"][::9][:4])
    return spec_from_dict(d)


@pytest.fixture(scope="module")
def standard_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("std") / "wahba2001_standard"
    run_study(_small("wahba2001_standard"), out, workers=0)
    return out


def _copy(src, dst):
    shutil.copytree(src, dst)
    return dst


def test_folder_without_its_spec_refuses_another_studys_task_files(standard_run, tmp_path, capsys):
    """A standard study's folder stripped of spec.toml and its tables is not adopted by the non-standard study."""
    folder = _copy(standard_run, tmp_path / "copy")
    for f in ("spec.toml", "results.parquet", "errors.parquet"):
        os.remove(folder / f)
    spec_file = tmp_path / "nonstandard.toml"
    spec_file.write_text(spec_to_toml(_small("wahba2001_nonstandard")))
    code = main(["study", "run", str(spec_file), "--out", str(folder), "--workers", "0", "--replicates", "2"])
    err = capsys.readouterr().err
    assert code == 2
    assert "wahba2001_standard" in err and "wahba2001_nonstandard" in err and "never mixed" in err
    assert not (folder / "results.parquet").exists()
    with pytest.raises(ValueError, match="computed for the study 'wahba2001_standard'"):
        run_study(_small("wahba2001_nonstandard"), folder, workers=0)


def test_task_file_records_spec_task_seed_and_provenance(standard_run):
    spec = _small("wahba2001_standard")
    tasks = sorted(os.listdir(standard_run / "tasks"))
    assert len(tasks) == 2
    rec = prov.read_parquet_record(str(standard_run / "tasks" / tasks[1]))
    assert rec["task"] == prov.task_record(spec, 0, 1)
    assert rec["task"]["seed"] == int(pd.read_parquet(standard_run / "tasks" / tasks[1])["seed"].iloc[0])
    import numba
    import numpy
    import sklearn

    import svmviz

    p = rec["provenance"]
    assert (p["svmviz"], p["numba"], p["numpy"], p["scikit-learn"]) == (
        svmviz.__version__, numba.__version__, numpy.__version__, sklearn.__version__)
    assert "machine" not in p and p["time"].endswith("+00:00")


def test_results_table_and_spec_toml_carry_provenance(standard_run):
    meta = json.loads(pq.read_schema(standard_run / "results.parquet").metadata[b"svmviz"])
    assert meta["provenance"]["numpy"] == prov.provenance()["numpy"]
    assert meta["task_versions"] == [prov.versions_of(prov.provenance())]
    with open(standard_run / "spec.toml", "rb") as fh:
        d = tomllib.load(fh)
    assert d["provenance"]["scikit_learn"] == prov.provenance()["scikit-learn"]
    assert d["provenance"]["task_versions"] == [prov.describe_versions(prov.provenance())]
    res = load_results(standard_run)  # the [provenance] table does not make the spec unreadable
    assert res.n_done == 2 and res.spec.name == "wahba2001_standard"


def test_resume_under_other_versions_refuses_naming_both_unless_asked(standard_run, tmp_path, monkeypatch, capsys):
    folder = _copy(standard_run, tmp_path / "upgrade")
    real = prov._version

    def upgraded(module):
        return "99.0" if module == "numba" else real(module)

    monkeypatch.setattr(prov, "_version", upgraded)
    with pytest.raises(ValueError) as info:
        run_study(_small("wahba2001_standard", replicates=3), folder, workers=0)
    import numba

    msg = str(info.value)
    assert f"numba {numba.__version__}" in msg and "numba 99.0" in msg and "--allow-mixed-versions" in msg
    assert len(os.listdir(folder / "tasks")) == 2  # nothing computed
    spec_file = tmp_path / "std.toml"
    spec_file.write_text(spec_to_toml(_small("wahba2001_standard")))
    assert main(["study", "run", str(spec_file), "--out", str(folder), "--workers", "0", "--replicates", "3"]) == 2
    assert "numba 99.0" in capsys.readouterr().err
    assert main(["study", "run", str(spec_file), "--out", str(folder), "--workers", "0", "--replicates", "3",
                 "--allow-mixed-versions"]) == 0
    assert "1 computed now" in capsys.readouterr().out
    meta = json.loads(pq.read_schema(folder / "results.parquet").metadata[b"svmviz"])
    assert {v["numba"] for v in meta["task_versions"]} == {numba.__version__, "99.0"}


def test_task_file_without_a_record_is_not_resumed(standard_run, tmp_path):
    folder = _copy(standard_run, tmp_path / "bare")
    task = folder / "tasks" / sorted(os.listdir(folder / "tasks"))[0]
    pd.read_parquet(task).to_parquet(task, index=False)  # rows without the record
    with pytest.raises(ValueError, match="without a record"):
        run_study(_small("wahba2001_standard"), folder, workers=0)


def test_task_record_of_another_replicate_is_refused(standard_run, tmp_path):
    folder = _copy(standard_run, tmp_path / "swap")
    a, b = sorted(os.listdir(folder / "tasks"))
    shutil.copy(folder / "tasks" / b, folder / "tasks" / a)
    with pytest.raises(ValueError, match="replicate"):
        run_study(_small("wahba2001_standard"), folder, workers=0)


def test_task_record_validates_its_inputs():
    spec = _small("wahba2001_standard")
    with pytest.raises(ValueError, match="index"):
        prov.task_record(spec, 3, 0)
    with pytest.raises(ValueError, match="replicate"):
        prov.task_record(spec, 0, -1)


def test_each_future_is_released_once_its_rows_are_written(tmp_path):
    """While the run goes on, the client holds no future of a task whose rows are saved."""
    from distributed import Client, LocalCluster

    spec = _small("wahba2001_standard", replicates=4)
    held_after_save = []
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster, set_as_default=False) as client:
        saved = set()

        def progress(done, total, message):
            tasks = {f[:-len(".parquet")] for f in os.listdir(tmp_path / "out" / "tasks") if f.endswith(".parquet")}
            saved.update(tasks)
            deadline = time.monotonic() + 5.0  # the client drops a released key on its event loop
            while True:
                held = [k for k in list(client.futures) if isinstance(k, str) and k.startswith("svmviz-study-")
                        and any(k.endswith(t) for t in saved)]
                if not held or time.monotonic() > deadline:
                    break
                time.sleep(0.02)
            held_after_save.append(held)

        res = run_study(spec, tmp_path / "out", client=client, progress=progress)
        assert res.n_done == 4
        assert len(held_after_save) == 5  # the start, then one call per saved task
        assert held_after_save == [[]] * 5
        assert not [k for k in client.futures if isinstance(k, str) and k.startswith("svmviz-study-")]
