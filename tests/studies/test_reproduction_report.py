"""The reproduction report: every study of the papers' published numbers on an embedded Dask cluster, one table.

A small-R run (R = 2, the specs' data sets and grids shrunk so that it takes seconds) checks the table's
shape, that each row's published value is the one of :mod:`svmviz.published` (a patched value changes the
report), the verdict rules, resuming, and the command's messages.
"""
from __future__ import annotations

import dataclasses
import os

import numpy as np
import pandas as pd
import pytest

import svmviz.published as P
from svmviz.studies import reproduction as RP
from svmviz.studies.spec import load_spec, ready_made_path

R_SMALL = 2


def _shrunk(study):
    """The report's spec of ``study`` at a few seconds' size: n ≤ 60, grids thinned, 500 test points, no LOO."""
    spec = study.study_spec()
    ds = tuple(dataclasses.replace(d, n=min(d.n or 60, 60), test_size=None if d.test_size is None else 500,
                                   n_prototypes=None if d.n_prototypes is None else min(d.n_prototypes, 6))
               for d in spec.datasets)
    kw = dict(datasets=ds, replicates=R_SMALL, test_size=500)
    if spec.svm is not None:
        kw["svm"] = dataclasses.replace(spec.svm, lambdas=spec.svm.lambdas[::8], sigmas=spec.svm.sigmas[::10])
    if spec.irwls is not None:
        kw["irwls"] = dataclasses.replace(spec.irwls, C=spec.irwls.C[:2], sigmas=spec.irwls.sigmas[:2])
    if spec.ivm is not None:
        kw["ivm"] = dataclasses.replace(spec.ivm, tune_size=60)
    return dataclasses.replace(spec, **kw)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory, monkeypatch_module):
    """Run the report's studies, shrunk, through run_reproduction on an embedded cluster of 2 workers."""
    specs = {s.spec: _shrunk(s) for s in RP.REPRODUCTION_STUDIES}
    from svmviz.studies import engine

    real_run = engine.run_study

    def run_small(spec, out=None, **kw):
        return real_run(specs[spec.name], out, **kw)

    monkeypatch_module.setattr(engine, "run_study", run_small)
    out = tmp_path_factory.mktemp("reproduction")
    calls = []
    table = RP.run_reproduction(out, workers=2, progress=lambda s, d, t, m: calls.append((s, d, t)))
    return out, table, calls, specs


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_report_has_one_row_per_published_number_with_a_verdict(small_run):
    out, table, calls, _ = small_run
    assert list(table.columns) == RP.REPORT_COLUMNS
    n_published = sum(len(P.published_table(load_spec(ready_made_path(s.spec)).published))
                      for s in RP.REPRODUCTION_STUDIES)
    n_baselines = sum(len(s.baselines) for s in RP.REPRODUCTION_STUDIES)
    assert len(table) == n_published + n_baselines
    assert set(table["verdict"]) <= {"within", "outside", "no published value"}
    assert (table["R"] == R_SMALL).all()
    assert table["svmviz"].str.len().gt(1).all()
    assert (table.loc[table["verdict"] == "no published value", "published"] == "—").all()
    # every study ran on the cluster and is on disk with the table beside it
    assert {c[0] for c in calls} == {s.spec for s in RP.REPRODUCTION_STUDIES}
    for s in RP.REPRODUCTION_STUDIES:
        assert os.path.isfile(os.path.join(out, s.spec, "results.parquet"))
    stored = pd.read_parquet(os.path.join(out, RP.TABLE_FILE))
    pd.testing.assert_frame_equal(stored.reset_index(drop=True), table.reset_index(drop=True), check_dtype=False)
    md = open(os.path.join(out, RP.MARKDOWN_FILE), encoding="utf-8").read().splitlines()
    assert len(md) == len(table) + 2 and md[0].startswith("| paper | table/figure |")
    # the three-class IVM of Zhu & Hastie's Fig. 4: its λ and |S| rows, from the multi-class task
    fig4 = table[table["study"] == "zhu_hastie2002_fig4"].set_index("metric")
    assert set(fig4.index) == {"lam", "machine_size"} and (fig4["dataset"] == "esl_mixture3").all()
    assert (fig4["table_figure"] == "Fig. 4").all() and (fig4["R"] == R_SMALL).all()


def test_every_published_value_is_read_from_svmviz_published(small_run, monkeypatch):
    out, table, _, _ = small_run
    for key in P.PUBLISHED_SETS:
        pub = P.published_table(key)
        for _, p in pub.iterrows():
            rows = table[(table["dataset"] == p["dataset_name"]) & (table["metric"] == p["metric"])
                         & (table["published"] == p["text"])]
            if key == "navia2004_table1" or rows.empty and key not in {s.spec for s in RP.REPRODUCTION_STUDIES}:
                continue
            assert len(rows) >= 1, (key, p["text"])
            assert np.allclose(rows["published_value"], p["value"]), (key, p["text"])
    # patch published numbers: the report changes with them, and with nothing else
    monkeypatch.setitem(P.NAVIA_TABLES_2_4["table2"], "ringnorm", {"LS": (71.5, 0.5), "SVMlight": (23.4, 1.1),
                                                                    "USVC": (22.9, 1.1)})
    monkeypatch.setitem(P.WAHBA2001_INEFFICIENCY["standard"], "gacv", (7.25, 7.25))
    monkeypatch.setitem(P.ZHU_HASTIE_FIG2, "machine_size", 977)
    patched = RP.reproduction_table(out)
    changed = patched["published"] != table["published"]
    assert changed.sum() == 3
    ls = patched[(patched["study"] == "navia2004_linear") & (patched["dataset"] == "ringnorm")
                 & (patched["method"] == "LS")].iloc[0]
    assert ls["published_value"] == pytest.approx(0.715) and ls["published_sd"] == pytest.approx(0.005)
    assert "71.5%" in ls["published"] and ls["verdict"] == "outside"
    g = patched[(patched["study"] == "wahba2001_standard") & (patched["method"].str.lower() == "gacv")].iloc[0]
    assert g["published_value"] == 7.25 and g["verdict"] == "outside" and g["share_at_or_below"] == 1.0
    z = patched[(patched["study"] == "zhu_hastie2002") & (patched["metric"] == "machine_size")].iloc[0]
    assert z["published_value"] == 977 and "977" in z["published"]


def test_verdicts_follow_the_papers_sd_and_the_replicates_interval(small_run):
    _, table, _, _ = small_run
    sd_rows = table[np.isfinite(table["published_sd"]) & (table["metric"] != "machine_size")]
    assert len(sd_rows)
    inside = (sd_rows["mean"] - sd_rows["published_value"]).abs() <= sd_rows["published_sd"]
    assert ((sd_rows["verdict"] == "within") == inside).all()
    draw = table[~np.isfinite(table["published_sd"]) & np.isfinite(table["published_value"])
                 & (table["study"].str.startswith("wahba") | table["study"].str.startswith("zhu"))]
    assert len(draw)
    overlap = (draw["published_high"] >= draw["q_low"]) & (draw["published_low"] <= draw["q_high"])
    assert ((draw["verdict"] == "within") == overlap).all()
    assert (draw["median_ci_low"] <= draw["median"]).all() and (draw["median"] <= draw["median_ci_high"]).all()


def test_report_numbers_are_the_results_statistics(small_run):
    out, table, _, _ = small_run
    from svmviz.studies.folders import load_results

    res = load_results(os.path.join(out, "navia2004_linear"))
    t = res.table
    x = t[(t["dataset_name"] == "twonorm") & (t["criterion"] == "SVC")]["test_error"].to_numpy(float)
    row = table[(table["study"] == "navia2004_linear") & (table["dataset"] == "twonorm")
                & (table["method"] == "SVC")].iloc[0]
    assert row["mean"] == pytest.approx(x.mean()) and row["sd"] == pytest.approx(x.std(ddof=1))
    assert row["svmviz"] == f"{100 * x.mean():.2f}% ± {100 * x.std(ddof=1):.2f}"


def test_a_missing_study_folder_gives_not_run_rows(tmp_path):
    t = RP.reproduction_table(tmp_path)
    assert len(t) and (t["verdict"] == "not run").all() and (t["R"] == 0).all()


def test_the_rerun_resumes_from_the_saved_tasks(small_run, monkeypatch):
    out, table, _, specs = small_run
    calls = []
    again = RP.run_reproduction(out, workers=1, progress=lambda s, d, t, m: calls.append(m))
    pd.testing.assert_frame_equal(again, table)
    assert len(calls) == len(RP.REPRODUCTION_STUDIES)  # one message per study: its tasks were all on disk
    assert all(m.endswith("tasks already saved") for m in calls), calls


def test_run_reproduction_rejects_bad_sizes(tmp_path):
    with pytest.raises(ValueError, match="replicates must be an integer ≥ 1"):
        RP.run_reproduction(tmp_path, replicates=0)
    with pytest.raises(ValueError, match="workers must be an integer ≥ 1"):
        RP.run_reproduction(tmp_path, workers=1.5)


def test_reproduce_command_options(capsys):
    from svmviz.cli import main

    with pytest.raises(SystemExit):
        main(["study", "reproduce", "--quick", "--replicates", "3"])
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["study", "reproduce", "--workers", "0"])
    assert "expected an integer ≥ 1" in capsys.readouterr().err


def test_a_studys_notes_are_appended_to_their_rows_note_only(tmp_path):
    study = RP.ReproductionStudy("zhu_hastie2002_fig4", "Zhu & Hastie 2002",
                                 notes=((("esl_mixture3", "IVM", "lam"), "a measured reason"),))
    plain = RP.reproduction_table(tmp_path, studies=[dataclasses.replace(study, notes=())]).set_index("metric")
    noted = RP.reproduction_table(tmp_path, studies=[study]).set_index("metric")
    assert noted.loc["lam", "note"] == plain.loc["lam", "note"] + "; a measured reason"
    assert noted.loc["machine_size", "note"] == plain.loc["machine_size", "note"]


def test_report_specs_are_the_ready_made_ones_less_exact_loo():
    for s in RP.REPRODUCTION_STUDIES:
        ours, ready = s.study_spec(), load_spec(ready_made_path(s.spec))
        if s.without:
            assert set(ready.svm.criteria) - set(ours.svm.criteria) == set(s.without) == {"loo"}
            assert dataclasses.replace(ours, svm=ready.svm) == ready
        else:
            assert ours == ready


def test_committed_report_matches_its_committed_results():
    """The committed table (the docs render it) is the one the committed results give now."""
    path = os.path.join(RP.COMMITTED_DIR, RP.TABLE_FILE)
    committed = pd.read_parquet(path)
    fresh = RP.reproduction_table(RP.COMMITTED_DIR)
    pd.testing.assert_frame_equal(committed.reset_index(drop=True), fresh.reset_index(drop=True), check_dtype=False)
    assert (fresh["verdict"] != "not run").all()
    for s in RP.REPRODUCTION_STUDIES:
        assert os.path.isfile(os.path.join(RP.COMMITTED_DIR, s.spec, "spec.toml"))
