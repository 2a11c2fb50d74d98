"""Criteria compared on the user's own table: a CSV data set with column roles and a class choice,
replicates as seeded stratified train/test splits, each criterion's pick judged by its test error
against the best grid point's, the file's SHA-256 recorded and checked."""
from __future__ import annotations

import hashlib
import tomllib

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from svmviz.cli import main
from svmviz.studies import SpecError, load_spec, run_study, spec_from_dict, spec_to_toml
from svmviz.studies.engine import resolve_csv
from svmviz.studies.tasks import held_out_inefficiency, make_task_data, task_seeds

FEATURES = ["weight", "mpg", "accel", "cylinders"]


def _table(path, rows_per_class: int = 40, seed: int = 0) -> pd.DataFrame:
    """Cars of three origins: a text column, four numeric features on different scales, one empty cell."""
    rng = np.random.default_rng(seed)
    frames = []
    for k, origin in enumerate(["Europe", "Japan", "USA"]):
        m = rows_per_class
        frames.append(pd.DataFrame({"name": [f"{origin.lower()} car {i}" for i in range(m)],
                                    "weight": rng.normal(2600 + 300 * k, 350, m).round(),
                                    "mpg": rng.normal(31 - 3 * k, 4, m).round(1),
                                    "accel": rng.normal(15 + 0.6 * k, 2, m).round(1),
                                    "cylinders": rng.choice([4.0, 6.0, 8.0], m, p=[0.6 - 0.2 * k, 0.3, 0.1 + 0.2 * k]),
                                    "origin": origin}))
    df = pd.concat(frames, ignore_index=True)
    df.loc[3, "mpg"] = np.nan  # a Europe row: left out by missing = "drop"
    df.to_csv(path, index=False)
    return df


def _spec(path, replicates: int = 2, **data):
    d = {"name": "cars", "replicates": replicates, "seed": 4,
         "datasets": [{"name": "csv", "path": str(path), "n": 50, "label_column": "origin",
                       "classes": ["Japan", "USA"], **data}],
         "svm": {"criteria": ["gacv", "xa", "kfold", "loo"], "n_lambda": 3, "n_sigma": 3, "log10_sigma": [-0.3, 0.7],
                 "k": 3}}
    return spec_from_dict(d)


@pytest.fixture(scope="module")
def cars(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cars")
    df = _table(folder / "cars.csv")
    out = folder / "run"
    res = run_study(_spec(folder / "cars.csv"), out, workers=0)
    return folder / "cars.csv", df, out, res


def test_spec_records_the_files_sha256_and_its_column_roles(cars):
    path, _, out, res = cars
    ds = tomllib.loads((out / "spec.toml").read_text())["datasets"][0]
    assert ds["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert ds["label_column"] == "origin"
    assert ds["feature_columns"] == FEATURES  # the text column left out
    assert ds["classes"] == ["Japan", "USA"]
    t = res.table
    assert set(t["criterion"]) == {"gacv", "xa", "kfold", "loo"}
    assert (t["n"] == 50).all() and (t["n_test"] == 30).all() and (t["d"] == 4).all()
    assert t["inefficiency"].isna().all()  # no truth: the inefficiency is measured on the held-out rows


def test_held_out_inefficiency_is_each_picks_test_error_over_the_best_grid_points(cars):
    """Reference: the split redrawn from the file with pandas and scikit-learn, every grid point fitted
    by sklearn's SVC (C = 1/(2nλ), γ = 1/(2σ²)) and its test error counted."""
    path, df, _, res = cars
    spec = _spec(path)
    two = df[df["origin"].isin(["Japan", "USA"])].reset_index(drop=True)
    X, y = two[FEATURES].to_numpy(float), np.where(two["origin"] == "USA", 1.0, -1.0)
    for r in range(2):
        seed = task_seeds(spec.seed, r).data
        tr, te = train_test_split(np.arange(len(y)), train_size=50, stratify=y, random_state=seed % 2**32)
        tr, te = np.sort(tr), np.sort(te)
        mu, sd = X[tr].mean(axis=0), X[tr].std(axis=0)
        Xtr, Xte = (X[tr] - mu) / sd, (X[te] - mu) / sd
        errors = {}
        for s in spec.svm.sigmas:
            for lam in spec.svm.lambdas:
                f = SVC(C=1 / (2 * 50 * lam), gamma=1 / (2 * s**2), tol=1e-10).fit(Xtr, y[tr]).decision_function(Xte)
                errors[(s, lam)] = float(np.mean(y[te] * f <= 0))
        rows = res.table[res.table["replicate"] == r]
        assert rows["seed"].eq(seed).all()
        best = min(errors.values())
        assert rows["test_error_min"].eq(best).all()
        for _, row in rows.iterrows():
            assert row["test_error"] == errors[(row["sigma"], row["lam"])], row["criterion"]
            expected = held_out_inefficiency(errors[(row["sigma"], row["lam"])], best)
            assert row["test_inefficiency"] == pytest.approx(expected, nan_ok=True)
            assert np.isnan(row["test_inefficiency"]) or row["test_inefficiency"] >= 1


def test_held_out_inefficiency_of_a_grid_without_test_errors():
    assert held_out_inefficiency(0.1, 0.05) == pytest.approx(2.0)
    assert held_out_inefficiency(0.0, 0.0) == 1.0
    assert np.isnan(held_out_inefficiency(0.1, 0.0))


def test_replicates_are_seeded_stratified_splits(cars):
    path, _, _, _ = cars
    spec, csv = resolve_csv(_spec(path, replicates=3))
    draws = [make_task_data(spec, 0, r, csv[0]) for r in range(3)]
    for td in draws:
        assert np.sum(td.train.y > 0) == 25 and np.sum(td.y_test > 0) == 15  # 40 + 40 rows: half each way
    assert not np.array_equal(draws[0].train.X, draws[1].train.X)
    np.testing.assert_array_equal(make_task_data(spec, 0, 1, csv[0]).train.X, draws[1].train.X)


def test_resume_on_a_changed_file_is_refused_naming_the_change(cars, tmp_path, capsys):
    path, df, out, _ = cars
    import shutil

    folder = shutil.copytree(out, tmp_path / "run")
    changed = tmp_path / "cars.csv"
    shutil.copy(path, changed)
    spec = _spec(changed)
    old = hashlib.sha256(path.read_bytes()).hexdigest()
    with open(changed, "a", encoding="utf-8") as fh:
        fh.write("usa car 99,3500,18.0,14.0,8.0,USA\n")
    new = hashlib.sha256(changed.read_bytes()).hexdigest()
    # the folder's spec names the original file; point it at the copy that changed
    text = (folder / "spec.toml").read_text().replace(str(path), str(changed))
    (folder / "spec.toml").write_text(text)
    with pytest.raises(ValueError) as info:
        run_study(spec, folder, workers=0, replicates=3)
    assert "has changed since" in str(info.value) and old in str(info.value) and new in str(info.value)
    assert main(["study", "run", str(folder / "spec.toml"), "--out", str(folder), "--workers", "0"]) == 2
    err = capsys.readouterr().err
    assert f"{changed} has changed since the spec recorded it" in err and old in err and new in err
    assert sorted(p.name for p in (folder / "tasks").iterdir()) == ["000-csv-r00000.parquet", "000-csv-r00001.parquet"]


def test_table_of_three_classes_needs_a_class_choice(cars):
    path = cars[0]
    with pytest.raises(SpecError, match=r"3 classes \(Europe, Japan, USA\).*one_vs_rest"):
        run_study(_spec(path, classes=None), workers=0)


def test_one_class_against_the_rest(cars):
    path, df, _, _ = cars
    spec, csv = resolve_csv(_spec(path, classes=None, one_vs_rest="Japan"))
    X, y, classes, names = csv[0]
    assert len(y) == len(df) - 1 and int(np.sum(y > 0)) == 40  # every row but the one with an empty cell
    assert "Japan" in str(classes[1])
    assert spec.datasets[0].one_vs_rest == "Japan" and spec.datasets[0].classes is None


def test_feature_columns_chosen_are_the_ones_studied(cars):
    path = cars[0]
    spec, csv = resolve_csv(_spec(path, feature_columns=["mpg", "weight"]))
    assert csv[0][3] == ("mpg", "weight") and csv[0][0].shape[1] == 2
    assert spec.datasets[0].feature_columns == ("mpg", "weight")
    with pytest.raises(SpecError, match="'name'"):
        resolve_csv(_spec(path, feature_columns=["name", "mpg"]))


@pytest.mark.parametrize("data, message", [
    ({"feature_columns": "mpg"}, "feature_columns must be a list of column names"),
    ({"feature_columns": ["mpg", "mpg"]}, "names 'mpg' twice"),
    ({"classes": ["Japan"]}, "classes must be two different class names"),
    ({"classes": ["Japan", "Japan"]}, "classes must be two different class names"),
    ({"one_vs_rest": "Japan"}, "not both"),
    ({"sha256": "abc"}, "64 lowercase hexadecimal digits"),
    ({"missing": "guess"}, "missing must be one of"),
])
def test_csv_keys_are_checked(cars, data, message):
    with pytest.raises(SpecError, match=message):
        _spec(cars[0], **data)


def test_csv_keys_belong_to_csv_data_sets():
    with pytest.raises(SpecError, match="classes belong"):
        spec_from_dict({"name": "w", "datasets": [{"name": "wahba2001", "classes": ["a", "b"]}],
                        "svm": {"criteria": ["gacv"]}})


def test_recorded_sha256_of_another_file_is_refused(cars):
    path = cars[0]
    with pytest.raises(SpecError, match="has changed since the spec recorded it"):
        run_study(_spec(path, sha256="0" * 64), workers=0)


def test_spec_with_column_roles_round_trips_through_toml(cars, tmp_path):
    spec = _spec(cars[0], feature_columns=["mpg", "weight"], missing="median")
    file = tmp_path / "s.toml"
    file.write_text(spec_to_toml(spec))
    again = load_spec(file)
    assert again.datasets[0] == spec.datasets[0]


def test_summary_shows_the_held_out_inefficiency_where_the_truth_is_unknown(cars):
    from svmviz.studies import summary_table
    from svmviz.studies.results import format_summary

    res = cars[3]
    s = summary_table(res.table).set_index("criterion")
    for crit, sub in res.table.groupby("criterion"):
        assert s.loc[crit, "test_inefficiency_median"] == pytest.approx(sub["test_inefficiency"].median())
    assert s["inefficiency_median"].isna().all()
    text = format_summary(summary_table(res.table))
    assert text.count(" (test)") == 4 and "(test): the held-out inefficiency" in text
