"""svmviz.data.subsample_dataset (uploads larger than a page computes with) and
svmviz.usvc.kernel_comparison (the Unbiased SVC page's 2-D comparison, moved out of the figures)."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz import data
from svmviz.usvc import IRWLSClassifier, kernel_comparison


def _csv(n_per_class, seed=0):
    rng = np.random.default_rng(seed)
    rows, labels = [], []
    for k, m in enumerate(n_per_class):
        rows.append(rng.normal(size=(m, 2)) + 3 * k)
        labels += [f"c{k}"] * m
    X = np.vstack(rows)
    return data.dataset_from_csv("a,b,label\n" + "\n".join(f"{p},{q},{c}" for (p, q), c in zip(X, labels)))


def test_subsample_is_stratified_seeded_and_says_so():
    ds = _csv([300, 100])  # 75 % / 25 %
    sub = data.subsample_dataset(ds, 80, seed=4)
    assert sub.X.shape == (80, 2) and sub.y.shape == (80,)
    assert int(np.sum(sub.y < 0)) == 60 and int(np.sum(sub.y > 0)) == 20  # the file's shares, exactly
    # every row is a row of the file, none twice
    rows = {tuple(r) for r in ds.X}
    assert all(tuple(r) in rows for r in sub.X) and np.unique(sub.X, axis=0).shape[0] == 80
    # same seed, same rows; another seed, other rows
    np.testing.assert_array_equal(data.subsample_dataset(ds, 80, seed=4).X, sub.X)
    assert not np.array_equal(data.subsample_dataset(ds, 80, seed=5).X, sub.X)
    assert sub.classes == ds.classes and sub.feature_names == ds.feature_names and sub.name == ds.name
    assert sub.params["subsample_of"] == 400 and sub.params["n"] == 80 and sub.params["seed"] == 4
    assert "80 of the 400 rows (seed 4)" in sub.notes[-1]


def test_subsample_of_three_classes_keeps_every_class():
    ds = _csv([200, 30, 6])
    sub = data.subsample_dataset(ds, 40, seed=0)
    counts = np.bincount(sub.y, minlength=3)
    assert counts.sum() == 40 and counts.min() >= 2  # at least 2 per class, even the rare one
    assert sub.is_multiclass and sub.classes == ("c0", "c1", "c2")


def test_subsample_edges():
    ds = data.make_dataset("banana", n=100, seed=0)
    assert data.subsample_dataset(ds, 100, seed=1) is ds and data.subsample_dataset(ds, 500, seed=1) is ds
    sub = data.subsample_dataset(ds, 30, seed=1)
    assert sub.p_true is ds.p_true and sub.test_sample is ds.test_sample  # the law is the same
    with pytest.raises(ValueError, match="at least 4"):
        data.subsample_dataset(ds, 3, seed=0)
    with pytest.raises(ValueError):
        data.subsample_dataset(ds, 30, seed=-1)


def test_kernel_comparison_is_the_two_machines_fitted_directly():
    from svmviz.svm import SVMClassifier

    ds = data.make_dataset("banana", n=120, seed=2)
    te = ds.test_sample(500, 2)
    fit = kernel_comparison(ds.X, ds.y, sigma=1.5, C=3.0, n_prototypes=8, seed=2, X_test=te.X, y_test=te.y)
    um = IRWLSClassifier(C=3.0, loss="smooth_step", kernel="rbf", sigma=1.5, n_prototypes=8, random_state=2,
                         tol=1e-6, max_iter=5000).fit(ds.X, ds.y)
    svm = SVMClassifier(lam=1.0 / (2 * 120 * 3.0), sigma=1.5).fit(ds.X, ds.y)
    np.testing.assert_allclose(fit.usvc.decision_function(te.X), um.decision_function(te.X), rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(fit.svm.decision_function(te.X), svm.decision_function(te.X), rtol=1e-10, atol=1e-10)
    assert fit.test_error_svm == pytest.approx(np.mean(svm.decision_function(te.X) * te.y <= 0))
    assert fit.test_kind == "independent test sample" and fit.X_train.shape == (120, 2)
    # without a test sample: a seeded 30 % of the rows held out, the machines trained on the rest
    held = kernel_comparison(ds.X, ds.y, sigma=1.5, C=3.0, n_prototypes=8, seed=2)
    assert held.X_train.shape == (84, 2) and held.X_test.shape == (36, 2) and held.test_kind == "30 % held out"
    assert {tuple(r) for r in held.X_train}.isdisjoint({tuple(r) for r in held.X_test})
    # labels of any two values (the larger is +1)
    words = np.where(ds.y > 0, "yes", "no")
    f2 = kernel_comparison(ds.X, words, sigma=1.5, C=3.0, n_prototypes=8, seed=2, X_test=te.X,
                           y_test=np.where(te.y > 0, "yes", "no"))
    assert f2.test_error_usvc == pytest.approx(fit.test_error_usvc)
