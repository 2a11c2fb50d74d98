"""Studies without Dask: the k-fold criterion against GridSearchCV, each task's rows against independent
references (sklearn SVC fits, brute-force LOO, the Table 1 kernel, GridSearchCV over IRWLS), spec
validation, the summary's win rates, the published numbers and the figures' data."""
from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.svm import SVC

from svmviz import make_dataset
from svmviz.criteria import kfold_folds
from svmviz.studies import SpecError, load_spec, ready_made_specs, run_study, spec_from_dict, spec_to_toml
from svmviz.published import published_table
from svmviz.studies.results import COLUMNS, rows_to_frame, summary_table
from svmviz.studies.tasks import irwls_rows, make_task_data
from svmviz.tuning import criteria_surface, kfold_cv_surface

from tests.naive.svm import brute_force_loo


# --------------------------------------------------------------------------- k-fold CV == GridSearchCV
def _gridsearch_pooled(X, y, lam, sig, k, seed, L=(1.0, 1.0)):
    """Misclassification of GridSearchCV(SVC(C = 1/(2nλ), gamma = 1/(2σ²))) with the same folds, pooled
    over the folds (fold error × fold size / n), L-weighted through class_weight and sample weights."""
    n = len(y)
    grid = [{"C": [1 / (2 * n * l)], "gamma": [1 / (2 * s**2)]} for s in sig for l in lam]
    cv = StratifiedKFold(k, shuffle=True, random_state=seed)
    weights = np.where(y > 0, L[1], L[0])

    def weighted_errors(est, Xv, yv):
        w = np.where(yv > 0, L[1], L[0])
        return float(np.sum(w * (est.predict(Xv) != yv)))

    g = GridSearchCV(SVC(tol=1e-10, class_weight={-1.0: L[0], 1.0: L[1]}), grid, cv=cv,
                     scoring=weighted_errors, refit=False).fit(X, y)
    total = sum(g.cv_results_[f"split{j}_test_score"] for j in range(k))
    return (total / n).reshape(len(sig), len(lam)), weights


@pytest.mark.parametrize("n, k, L", [(50, 5, (1.0, 1.0)), (53, 5, (1.0, 1.0)), (48, 3, (1.5, 0.5))])
def test_kfold_cv_equals_gridsearchcv_with_the_same_folds(n, k, L):
    ds = make_dataset("wahba2001", n=n, seed=n)
    lam, sig = np.logspace(-4, -0.5, 5), np.logspace(-0.5, 0.6, 5)
    cv = kfold_cv_surface(ds.X, ds.y, lam, sig, k=k, seed=7, L=L, tol=1e-10)
    ref, _ = _gridsearch_pooled(ds.X, ds.y, lam, sig, k, 7, L)
    np.testing.assert_allclose(cv.values, ref, atol=1e-12)
    # the folds are StratifiedKFold's
    for j, (_, held) in enumerate(StratifiedKFold(k, shuffle=True, random_state=7).split(ds.X, ds.y)):
        assert np.array_equal(np.flatnonzero(cv.folds == j), np.sort(held))


def test_kfold_equal_fold_sizes_is_one_minus_mean_test_score():
    ds = make_dataset("wahba2001", n=50, seed=2)  # 20 / 30 points: five folds of 4 + 6
    lam, sig = np.logspace(-3, -1, 3), [0.7, 1.4]
    cv = kfold_cv_surface(ds.X, ds.y, lam, sig, k=5, seed=3, tol=1e-10)
    n = 50
    g = GridSearchCV(SVC(tol=1e-10), [{"C": [1 / (2 * n * l)], "gamma": [1 / (2 * s**2)]} for s in sig for l in lam],
                     cv=StratifiedKFold(5, shuffle=True, random_state=3)).fit(ds.X, ds.y)
    np.testing.assert_allclose(cv.values.ravel(), 1 - g.cv_results_["mean_test_score"], atol=1e-12)


def test_criteria_surface_kfold_matches_kfold_surface_and_threads_do_not_matter():
    ds = make_dataset("banana", n=60, seed=1)
    lam, sig = np.logspace(-4, -1, 4), np.logspace(-0.3, 0.6, 4)
    s1 = criteria_surface(ds.X, ds.y, lam, sig, kfold=4, kfold_seed=9, loo=True, n_threads=1)
    s2 = criteria_surface(ds.X, ds.y, lam, sig, kfold=4, kfold_seed=9, loo=True)
    cv = kfold_cv_surface(ds.X, ds.y, lam, sig, k=4, seed=9)
    np.testing.assert_array_equal(s1.values["kfold"], cv.values)
    for key in s1.values:
        np.testing.assert_array_equal(s1.values[key], s2.values[key])
    assert set(s1.seconds) == {"fit", "criteria", "loo", "kfold"} and all(v >= 0 for v in s1.seconds.values())


def test_kfold_validation():
    y = np.r_[-np.ones(4), np.ones(10)]
    with pytest.raises(ValueError, match="5-fold cross-validation needs at least 5 points of every class"):
        kfold_folds(y, 5)
    with pytest.raises(ValueError, match="k .* must be an integer ≥ 2"):
        kfold_folds(y, 1)
    ds = make_dataset("wahba2001", n=40, seed=0)
    with pytest.raises(ValueError, match="n_threads must be a positive integer"):
        criteria_surface(ds.X, ds.y, [0.01], [1.0], n_threads=0)


# --------------------------------------------------------------------------- one task against references
SVM_SPEC = {"name": "check", "replicates": 2, "seed": 3, "test_size": 800,
            "datasets": [{"name": "wahba2001", "n": 40}],
            "svm": {"criteria": ["gacv", "xa", "kfold", "loo"], "log10_lambda": [-3.5, -1.0], "n_lambda": 4,
                    "log10_sigma": [-0.3, 0.5], "n_sigma": 3, "k": 4, "tol": 1e-10}}


def test_svm_rows_against_sklearn_and_brute_force():
    spec = spec_from_dict(SVM_SPEC)
    table = run_study(spec, workers=0).table
    td = make_task_data(spec, 0, 1)
    X, y, n = td.train.X, td.train.y, 40
    rows = table[table["replicate"] == 1].set_index("criterion")
    lam, sig = np.asarray(spec.svm.lambdas), np.asarray(spec.svm.sigmas)
    # the truth: MISCLASS of every grid point from sklearn fits, the grid minimum and each inefficiency
    p = td.p
    mis = np.empty((sig.size, lam.size))
    for i, s in enumerate(sig):
        for j, l in enumerate(lam):
            f = SVC(C=1 / (2 * n * l), gamma=1 / (2 * s**2), tol=1e-10).fit(X, y).decision_function(X)
            mis[i, j] = np.mean(p * (f <= 0) + (1 - p) * (f >= 0))
    assert rows.loc["misclass", "misclass_min"] == pytest.approx(mis.min(), abs=1e-12)
    for c in ("gacv", "xa", "kfold", "loo"):
        i, j = int(rows.loc[c, "i_sigma"]), int(rows.loc[c, "j_lambda"])
        assert rows.loc[c, "lam"] == lam[j] and rows.loc[c, "sigma"] == sig[i]
        assert rows.loc[c, "inefficiency"] == pytest.approx(mis[i, j] / mis.min(), abs=1e-12)
        # the chosen model's test error, from sklearn's SVC at the chosen (λ, σ)
        svc = SVC(C=1 / (2 * n * lam[j]), gamma=1 / (2 * sig[i] ** 2), tol=1e-10).fit(X, y)
        assert rows.loc[c, "test_error"] == pytest.approx(np.mean(svc.predict(td.X_test) != td.y_test), abs=1.5e-3)
        assert rows.loc[c, "machine_size"] == svc.n_support_.sum()
    # exact LOO's value at its choice: brute-force refits
    i, j = int(rows.loc["loo", "i_sigma"]), int(rows.loc["loo", "j_lambda"])
    f_loo = brute_force_loo(X, y, lam[j], sig[i])
    assert rows.loc["loo", "criterion_value"] == pytest.approx(np.mean(y * f_loo <= 0), abs=1e-12)
    # k-fold's value at its choice: GridSearchCV
    i, j = int(rows.loc["kfold", "i_sigma"]), int(rows.loc["kfold", "j_lambda"])
    ref, _ = _gridsearch_pooled(X, y, lam[j:j + 1], sig[i:i + 1], 4, td.seeds.cv)
    assert rows.loc["kfold", "criterion_value"] == pytest.approx(ref[0, 0], abs=1e-12)
    assert (rows["bayes_error"] == td.train.bayes_error).all()
    assert rows.loc["kfold", "label"] == "4-fold CV"


def test_irwls_rows_equal_the_table1_kernel_and_sklearn():
    """LS, SVC and USVC read from one IRWLS fit's history equal table1_study's batch kernel on the
    same trial; the SVC threshold is libsvm's."""
    from svmviz.usvc import table1_study

    spec = load_spec("navia2004_table1")
    for scen in ("A", "B"):
        res = table1_study(scen, n_trials=1, seed=5)
        s = int(res.seeds[0])
        tr = make_dataset(f"usvc_{scen}", n=500, seed=s)
        te = tr.test_sample(500, s)
        rows = {r["criterion"]: r for r in irwls_rows(tr.X, tr.y, te.X, te.y, spec.irwls)}
        for j, m in enumerate(res.methods):
            assert rows[m]["threshold"] == pytest.approx(res.threshold[0, j], abs=1e-6), (scen, m)
            assert rows[m]["test_error"] == pytest.approx(res.test_ce[0, j] / 100, abs=1e-12), (scen, m)
        ref = SVC(kernel="linear", C=10.0, tol=1e-10).fit(tr.X, tr.y)
        th = -ref.intercept_[0] / ref.coef_[0, 0]
        assert rows["SVC"]["threshold"] == pytest.approx(th, abs=1e-4)


def test_irwls_choice_of_C_is_gridsearchcv_over_the_estimator():
    from svmviz.usvc import IRWLSClassifier

    ds = make_dataset("twonorm", n=100, seed=4, d=5)
    te = ds.test_sample(500, 1)
    irw = spec_from_dict({"name": "c", "datasets": [{"name": "twonorm", "n": 100}],
                          "irwls": {"methods": ["SVC"], "C": [0.001, 0.01, 1.0], "k": 5}}).irwls
    rows = irwls_rows(ds.X, ds.y, te.X, te.y, irw, cv_seed=8)
    g = GridSearchCV(IRWLSClassifier(loss="hinge"), {"C": list(irw.C)},
                     cv=StratifiedKFold(5, shuffle=True, random_state=8)).fit(ds.X, ds.y)
    assert rows[0]["C"] == g.best_params_["C"]
    assert rows[0]["criterion_value"] == pytest.approx(1 - g.cv_results_["mean_test_score"][g.best_index_])
    assert rows[0]["test_error"] == pytest.approx(np.mean(g.best_estimator_.predict(te.X) != te.y))


def test_ivm_rows_and_csv_data(tmp_path):
    from svmviz.data import breast_cancer

    b = breast_cancer()
    frame = pd.DataFrame(b.X[:, :4] * 3 + 1, columns=[f"x{i}" for i in range(4)])
    frame["label"] = np.where(b.y > 0, "benign", "malignant")
    frame.to_csv(tmp_path / "bc.csv", index=False)
    spec_file = tmp_path / "s.toml"
    spec_file.write_text('name = "mix"\nreplicates = 1\nseed = 2\ntest_size = 2000\n'
                         '[[datasets]]\nname = "csv"\npath = "bc.csv"\nn = 120\n'
                         '[svm]\ncriteria = ["gacv", "kfold"]\nn_lambda = 3\nn_sigma = 3\n')
    spec = load_spec(spec_file)
    t = run_study(spec, workers=0).table
    assert set(t["criterion"]) == {"gacv", "kfold"} and (t["n"] == 120).all() and (t["n_test"] == 569 - 120).all()
    from svmviz.studies.engine import _load_csv

    td = make_task_data(spec, 0, 0, csv_arrays=_load_csv(spec)[0])
    np.testing.assert_allclose(td.train.X.mean(axis=0), 0, atol=1e-12)  # standardized with the training rows
    assert td.train.classes == ("benign", "malignant")  # sorted labels: malignant is +1
    assert abs(np.mean(td.train.y > 0) - np.mean(frame["label"] == "malignant")) < 0.01  # stratified
    ivm = spec_from_dict({"name": "z", "replicates": 1, "test_size": 3000, "datasets": [{"name": "esl_mixture", "n": 100}],
                          "ivm": {"tune_size": 100, "ln_lambda": [-4.0, 4.0], "n_lambda": 5}})
    rows = run_study(ivm, workers=0).table.set_index("criterion")
    from svmviz.ivm import ivm_lambda_path

    td = make_task_data(ivm, 0, 0)
    tune = td.train.test_sample(100, td.seeds.tune)
    path = ivm_lambda_path(td.train.X, td.train.y, tune.X, tune.y, lams=np.exp(np.linspace(4, -4, 5)))
    assert rows.loc["IVM", "machine_size"] == len(path.estimator.import_indices_)
    assert rows.loc["IVM", "test_error"] == pytest.approx(np.mean(path.estimator.predict(td.X_test) != td.y_test))
    assert rows.loc["IVM", "tune_error"] == path.tune_error[path.best_index]
    assert rows.loc["SVM", "machine_size"] > rows.loc["IVM", "machine_size"]  # Zhu & Hastie 2002, §4


def test_three_class_ivm_task_rows_equal_the_multiclass_ivm_path():
    """The multi-class IVM (Zhu & Hastie 2002, §5, Fig. 4) as a study task: its λ, |S| and errors are those of
    ivm_lambda_path on the task's samples, the test error the share of points whose most probable class is wrong."""
    spec = spec_from_dict({"name": "z3", "replicates": 1, "test_size": 2000, "seed": 4,
                           "datasets": [{"name": "esl_mixture3", "n": 90}],
                           "ivm": {"methods": ["IVM"], "tune_size": 90, "ln_lambda": [-3.0, 3.0], "n_lambda": 4}})
    assert spec.multiclass
    row = run_study(spec, workers=0).table.set_index("criterion").loc["IVM"]
    from svmviz.ivm import ivm_lambda_path

    td = make_task_data(spec, 0, 0)
    assert set(np.unique(td.y_test)) == {0, 1, 2}
    tune = td.train.test_sample(90, td.seeds.tune)
    path = ivm_lambda_path(td.train.X, td.train.y, tune.X, tune.y, lams=np.exp(np.linspace(3, -3, 4)))
    est = path.estimator
    proba = est.predict_proba(td.X_test)
    assert row["machine_size"] == len(est.import_indices_) == path.n_import[path.best_index]
    assert row["lam"] == pytest.approx(path.best_lam)
    assert row["tune_error"] == path.tune_error[path.best_index]
    assert row["test_error"] == pytest.approx(np.mean(est.classes_[np.argmax(proba, axis=1)] != td.y_test))
    assert row["train_error"] == pytest.approx(np.mean(est.predict(td.train.X) != td.train.y))


def test_three_class_data_need_an_ivm_only_spec():
    three = [{"name": "esl_mixture3", "n": 90}]
    for sections in ({"svm": {"criteria": ["gacv"]}}, {"irwls": {"methods": ["SVC"]}}, {"ivm": {}},
                     {"ivm": {"methods": ["IVM"]}, "svm": {"criteria": ["gacv"]}}):
        with pytest.raises(SpecError, match="IVM only"):
            spec_from_dict({"name": "b", "datasets": three, **sections})
    with pytest.raises(SpecError, match="IVM only"):
        spec_from_dict({"name": "b", "datasets": [{"name": "waveform", "n": 90, "params": {"n_classes": 3}}],
                        "ivm": {"methods": ["IVM", "SVM"]}})
    assert not spec_from_dict({"name": "b", "datasets": [{"name": "esl_mixture", "n": 90}], "ivm": {}}).multiclass


# --------------------------------------------------------------------------- specs
def test_ready_made_specs_load_round_trip_and_carry_published_numbers():
    names = set(ready_made_specs())
    assert names == {"wahba2001_standard", "wahba2001_nonstandard", "navia2004_table1", "navia2004_linear",
                     "navia2004_kernel", "zhu_hastie2002", "zhu_hastie2002_fig4"}
    import tomllib

    for name in names:
        spec = load_spec(name)
        assert spec_from_dict(tomllib.loads(spec_to_toml(spec))) == spec
        pub = published_table(spec.published)
        assert not pub.empty and set(pub["dataset_name"]) <= {d.name for d in spec.datasets}
    w = load_spec("wahba2001_standard")
    assert len(w.svm.lambdas) == 30 and len(w.svm.sigmas) == 30 and w.datasets[0].n == 200
    assert set(w.svm.criteria) == {"gacv", "xa", "xa_j", "kfold", "loo"} and w.replicates == 100
    ns = published_table("wahba2001_nonstandard").set_index("criterion")
    assert ns.loc["gacv", "value"] == 1.151 and ns.loc["xa", "value"] == 1.166
    t1 = published_table("navia2004_table1")
    a = t1[(t1["dataset_name"] == "usvc_A") & (t1["criterion"] == "USVC(s=2)") & (t1["metric"] == "test_error")]
    assert a["value"].item() == pytest.approx(0.204)


BASE = {"name": "ok", "datasets": [{"name": "wahba2001", "n": 50}], "svm": {"criteria": ["gacv"]}}


def _with(path, value):
    d = copy.deepcopy(BASE)
    node = d
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return d


@pytest.mark.parametrize("path, value, message", [
    (("name",), "bad name!", "name must be 1–80 letters"),
    (("replicates",), 0, "replicates must be ≥ 1; got 0"),
    (("replicates",), 2.5, "replicates must be an integer"),
    (("seed",), -1, "seed must be ≥ 0"),
    (("setting",), "weird", "setting must be one of 'standard', 'nonstandard'"),
    (("datasets",), [], "needs at least one [[datasets]]"),
    (("datasets", 0, "name"), "moons", "unknown data set 'moons'"),
    (("datasets", 0, "n"), 2, "datasets[0].n must be ≥ 4; got 2"),
    (("datasets", 0, "params"), {"sigma": 2}, "unknown parameter(s) sigma for 'wahba2001'"),
    (("datasets", 0, "params"), {"nonstandard": True}, "the study's setting decides it"),
    (("datasets", 0, "L"), [1.5, 0.5], "unequal weights need setting = \"nonstandard\""),
    (("datasets", 0, "colour"), "red", "unknown key 'colour' in datasets[0]"),
    (("svm", "criteria"), ["gacv", "magic"], "unknown criterion 'magic'"),
    (("svm", "criteria"), [], "must be a non-empty list of criterion"),
    (("svm", "k"), 1, "svm.k must be ≥ 2"),
    (("svm", "log10_lambda"), [0.0, -3.0], "needs low < high"),
    (("svm", "lambdas"), [0.1, -1.0], "every value must be a finite positive number"),
    (("svm", "n_sigma"), 1000, "svm.n_sigma must be ≤ 200"),
    (("svm",), KeyError, "nothing to run"),
    (("extra",), 1, "unknown key 'extra' in the spec"),
])
def test_spec_errors_name_the_field(path, value, message):
    with pytest.raises(SpecError) as exc:
        spec_from_dict(_with(path, value))
    assert message in str(exc.value)


def test_spec_errors_needing_the_data_and_the_setting():
    d = _with(("setting",), "nonstandard")
    d["datasets"].append({"name": "banana", "n": 40})
    with pytest.raises(SpecError, match=r"datasets\[1\]: the non-standard setting needs L"):
        spec_from_dict(d)
    d["datasets"][1]["L"] = [1.5, 0.5]
    d["svm"]["criteria"] = ["gacv", "rangacv"]
    with pytest.raises(SpecError, match="randomized GACV is defined for the standard SVM only"):
        spec_from_dict(d)
    with pytest.raises(SpecError, match="GCKL and MISCLASS need the true p"):
        run_study(spec_from_dict({"name": "b", "datasets": [{"name": "banana", "n": 40}],
                                  "svm": {"criteria": ["misclass"]}}), workers=0)
    with pytest.raises(SpecError, match="no test points"):
        run_study(spec_from_dict({"name": "b", "datasets": [{"name": "breast_cancer"}],
                                  "svm": {"criteria": ["gacv"]}}), workers=0)
    with pytest.raises(SpecError, match="iris has three classes"):
        spec_from_dict({"name": "b", "datasets": [{"name": "iris"}], "svm": {"criteria": ["gacv"]}})
    with pytest.raises(SpecError, match="LS.*linear machine only"):
        spec_from_dict({"name": "b", "datasets": [{"name": "twonorm"}], "irwls": {"kernel": "rbf"}})
    with pytest.raises(SpecError, match="not valid TOML"):
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as fh:
            fh.write("name = \n")
        load_spec(fh.name)
    with pytest.raises(SpecError, match="no ready-made study 'nope'"):
        load_spec("nope")


# --------------------------------------------------------------------------- summary and figures
def _table(values: dict) -> pd.DataFrame:
    rows = []
    for crit, vals in values.items():
        for r, (ie, te) in enumerate(vals):
            rows.append(dict(study="s", dataset="d", dataset_name="wahba2001", dataset_index=0, replicate=r, seed=r,
                             n=10, d=2, n_test=5, family="svm", criterion=crit, label=crit.upper(), inefficiency=ie,
                             test_error=te, seconds=1.0 + (crit == "loo")))
    return rows_to_frame(rows)


def test_summary_median_iqr_and_win_rates_against_kfold():
    t = _table({"gacv": [(1.0, 0.1), (1.2, 0.2), (1.1, 0.3), (1.3, 0.1)],
                "kfold": [(1.1, 0.1), (1.1, 0.3), (1.1, 0.2), (1.1, 0.2)]})
    s = summary_table(t).set_index("criterion")
    assert s.loc["gacv", "inefficiency_median"] == pytest.approx(1.15)
    assert s.loc["gacv", "inefficiency_q25"] == pytest.approx(np.quantile([1.0, 1.2, 1.1, 1.3], 0.25))
    # inefficiency: lower in replicate 0, tie in 2, higher in 1 and 3 -> (1 + 0.5) / 4
    assert s.loc["gacv", "win_vs_baseline_inefficiency"] == pytest.approx(0.375)
    # test error: tie in 0, lower in 1, higher in 2, lower in 3 -> (0.5 + 1 + 1) / 4
    assert s.loc["gacv", "win_vs_baseline_test"] == pytest.approx(0.625)
    assert np.isnan(s.loc["kfold", "win_vs_baseline_test"]) and s.loc["gacv", "replicates"] == 4
    assert list(COLUMNS) == list(t.columns)


def test_distribution_figure_data_and_published_overlay():
    from svmviz.figures.studies import compute_costs, compute_distribution, plot_costs, plot_distribution

    t = _table({"gacv": [(1.0, 0.1), (1.2, 0.2)], "xa": [(1.1, 0.1), (1.4, 0.2)], "loo": [(1.0, 0.1), (1.0, 0.2)]})
    dd = compute_distribution(t, "inefficiency", published_table("wahba2001_standard"))
    assert dd.datasets == ("d",) and dd.criteria == ("gacv", "xa", "loo")
    np.testing.assert_array_equal(dd.values[("d", "xa")], [1.1, 1.4])
    assert [(p[1], p[2], p[3], p[4]) for p in dd.published] == [("gacv", 1.0064, 1.0064, 1.0064),
                                                                 ("xa", 1.0062, 1.0062, 1.0094)]
    fig = plot_distribution(dd)
    boxes = [tr for tr in fig.data if tr.type == "box"]
    pubs = [tr for tr in fig.data if tr.name == "published"]
    assert [b.name for b in boxes] == ["GACV", "XA", "LOO"] and len(pubs) == 2
    assert list(pubs[1].error_y.array) == pytest.approx([1.0094 - 1.0062])
    assert "MISCLASS(chosen) / grid minimum" in fig.layout.yaxis.title.text and fig.layout.title.text == "Inefficiency over 2 replicates"
    cd = compute_costs(t)
    np.testing.assert_allclose(cd.relative, [1.0, 1.0, 2.0])
    assert plot_costs(cd).layout.yaxis.type == "log"


def test_summary_puts_our_median_beside_a_published_number_of_another_metric():
    """Navia-Vázquez et al. 2004, Table 1 publishes the threshold Th; the summary has no Th column, so
    the published text carries our median [IQR] of it."""
    rows = [dict(study="s", dataset="A", dataset_name="usvc_A", dataset_index=0, replicate=r, seed=r, n=10, d=1,
                 n_test=5, family="irwls", criterion="LS", label="LS", test_error=0.1 * r, threshold=th)
            for r, th in enumerate([0.5, 0.7, 0.9, 1.1])]
    s = summary_table(rows_to_frame(rows), published=published_table("navia2004_table1")).iloc[0]
    q25, med, q75 = np.quantile([0.5, 0.7, 0.9, 1.1], [0.25, 0.5, 0.75])
    texts = s["published"].split("; ")
    assert texts[0].startswith("test CE ") and "ours" not in texts[0]  # test error has its own column
    assert texts[1].startswith("Th ") and texts[1].endswith(f"(ours {med:.3g} [{q25:.3g}, {q75:.3g}])")


def test_markdown_summary_is_a_table_with_one_row_per_criterion():
    from svmviz.studies.results import format_summary

    t = _table({"gacv": [(1.0, 0.1), (1.2, 0.2)], "kfold": [(1.1, 0.1), (1.1, 0.3)]})
    s = summary_table(t, published=published_table("wahba2001_standard"))
    md = format_summary(s, markdown=True).splitlines()
    assert len(md) == 2 + 2 and all(line.startswith("| ") and line.endswith(" |") for line in md[2:])
    assert md[1] == "|" + "---|" * 9 and md[0].count(" | ") == 8
    gacv = md[2].split(" | ")
    assert gacv[1] == "GACV" and gacv[3] == "1.1 [1.05, 1.15]" and "GACV 1.0064" in gacv[-1]
    assert format_summary(s).splitlines()[2].split()[1] == "GACV"  # the plain text table unchanged
