"""The study tables' types: nullable integers, no column empty because it does not apply, a printed schema."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from svmviz.studies import load_results, run_study, spec_from_dict
from svmviz.studies.results import (COLUMNS, FAMILY_COLUMNS, SCHEMA, format_schema, read_table, rows_to_frame,
                                    stored_table)

SVM_ONLY = {"name": "types", "replicates": 2, "seed": 3, "test_size": 500, "datasets": [{"name": "wahba2001", "n": 40}],
            "svm": {"criteria": ["gacv", "kfold"], "n_lambda": 4, "n_sigma": 4}}
WITH_IRWLS = {**SVM_ONLY, "name": "types2", "replicates": 1,
              "irwls": {"methods": ["SVC"], "C": [1.0], "kernel": "linear"}}

INTEGER_COLUMNS = ("i_sigma", "j_lambda", "n_ties", "machine_size")


@pytest.fixture(scope="module")
def svm_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("types") / "out"
    return out, run_study(spec_from_dict(SVM_ONLY), out, workers=0)


def test_grid_indices_ties_and_sizes_are_nullable_integers(svm_run):
    _, res = svm_run
    for c in INTEGER_COLUMNS:
        assert str(res.table[c].dtype) == "Int64"
        assert res.table[c].notna().all()
    assert (res.table["n_ties"] >= 1).all()


def test_stored_table_leaves_out_the_columns_of_absent_families(svm_run):
    out, res = svm_run
    schema = pq.read_schema(out / "results.parquet")
    names = set(schema.names)
    assert {"C", "threshold", "tune_error"}.isdisjoint(names)
    for c in INTEGER_COLUMNS:
        assert str(schema.field(c).type) == "int64"
    task = next((out / "tasks").glob("*.parquet"))
    assert "C" not in pq.read_schema(task).names
    back = load_results(out).table
    assert list(back.columns) == list(COLUMNS)
    pd.testing.assert_frame_equal(back, res.table)
    assert back["C"].isna().all() and back["C"].dtype == np.float64


def test_rows_of_other_families_have_missing_grid_indices(tmp_path):
    res = run_study(spec_from_dict(WITH_IRWLS), tmp_path / "o", workers=0)
    t = res.table
    irwls = t[t["family"] == "irwls"]
    assert len(irwls) == 1 and irwls["i_sigma"].isna().all() and irwls["machine_size"].notna().all()
    stored = pq.read_schema(tmp_path / "o" / "results.parquet").names
    assert "C" in stored and "i_sigma" in stored and "tune_error" not in stored
    pd.testing.assert_frame_equal(load_results(tmp_path / "o").table, t)


def test_tables_of_earlier_versions_are_read_into_todays_types(svm_run, tmp_path):
    out, res = svm_run
    old = res.table.copy()
    for c in INTEGER_COLUMNS:
        old[c] = old[c].astype("float64")  # how earlier versions stored them: NaN-padded floats
    old.loc[0, "machine_size"] = np.nan
    old.to_parquet(tmp_path / "old.parquet", index=False)
    back = read_table(tmp_path / "old.parquet")
    assert str(back["i_sigma"].dtype) == "Int64" and back.loc[0, "machine_size"] is pd.NA
    assert (back["i_sigma"] == res.table["i_sigma"]).all()
    old["i_sigma"] = 0.5
    old.to_parquet(tmp_path / "bad.parquet", index=False)
    with pytest.raises(ValueError, match="'i_sigma' holds non-integer values"):
        read_table(tmp_path / "bad.parquet")
    pd.DataFrame({"study": ["x"], "colour": ["red"]}).to_parquet(tmp_path / "alien.parquet", index=False)
    with pytest.raises(ValueError, match="unexpected result column"):
        read_table(tmp_path / "alien.parquet")


def test_schema_names_every_column_with_type_unit_and_meaning():
    assert list(SCHEMA) == list(COLUMNS)
    for c, (typ, unit, meaning) in SCHEMA.items():
        assert typ == COLUMNS[c] and meaning
    assert set().union(*FAMILY_COLUMNS.values()) <= set(COLUMNS)
    text = format_schema(["i_sigma", "seconds"])
    lines = text.splitlines()
    assert lines[0].split() == ["column", "type", "unit", "meaning"]
    assert lines[2].startswith("i_sigma") and "Int64" in lines[2] and "grid index" in lines[2]
    assert lines[3].startswith("seconds") and " s " in lines[3]


def test_stored_table_keeps_every_column_that_says_something():
    t = rows_to_frame([dict(study="s", dataset="d", dataset_name="d", dataset_index=0, replicate=0, seed=1, n=4, d=1,
                            n_test=10, family="irwls", criterion="SVC", label="SVC", C=1.0, threshold=0.5)])
    kept = stored_table(t).columns
    assert "C" in kept and "threshold" in kept and "i_sigma" not in kept and "status" in kept
