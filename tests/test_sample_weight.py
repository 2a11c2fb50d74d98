"""``fit(X, y, sample_weight)``: against scikit-learn's SVC / LogisticRegression with weights,
integer weights against repeated rows, zero weights against removed rows, the weight checks, and
GridSearchCV / Pipeline passing the weights through."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmviz.svm import SVMClassifier


@pytest.fixture(scope="module")
def data():
    X, y = make_moons(90, noise=0.3, random_state=4)
    w = np.random.default_rng(0).integers(0, 4, size=90).astype(float)
    return X, y, w


def test_svm_weights_match_svc(data):
    """C_i = s_i·C (λ = 1/(2NC), N = Σ s_i): SVC(C).fit(X, y, sample_weight)."""
    X, y, _ = data
    w = np.random.default_rng(1).uniform(0.2, 3.0, X.shape[0])
    ours = SVMClassifier(C=2.0, gamma=1.5, tol=1e-10).fit(X, y, sample_weight=w)
    ref = SVC(C=2.0, gamma=1.5, tol=1e-10).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-6)
    np.testing.assert_allclose(ours.train_decision_, ref.decision_function(X), atol=1e-6)


def test_svm_weights_with_wahba_costs_and_class_weight_match_svc(data):
    """s_i multiplies L(y_i) w(y_i): SVC's C_i = C · class_weight · sample_weight."""
    X, y, _ = data
    w = np.random.default_rng(2).uniform(0.5, 2.0, X.shape[0])
    ours = SVMClassifier(C=1.0, gamma=1.0, L=(2.0, 1.0), class_weight={1: 1.5}, tol=1e-10).fit(X, y, sample_weight=w)
    ref = SVC(C=1.0, gamma=1.0, class_weight={0: 2.0, 1: 1.5}, tol=1e-10).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-6)


@pytest.mark.parametrize("params", [dict(lam=1e-2, sigma=0.7), dict(C=5.0, gamma=0.8)])
def test_svm_integer_weights_are_repeated_rows(data, params):
    X, y, w = data
    k = w.astype(int)
    weighted = SVMClassifier(tol=1e-10, **params).fit(X, y, sample_weight=w)
    repeated = SVMClassifier(tol=1e-10, **params).fit(np.repeat(X, k, 0), np.repeat(y, k))
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X), atol=1e-7)
    assert weighted.n_weighted_ == k.sum() and weighted.lam_ == pytest.approx(repeated.lam_)


def test_svm_zero_weights_are_removed_rows(data):
    X, y, w = data
    keep = w > 0
    weighted = SVMClassifier(lam=1e-2, sigma=0.7, tol=1e-10).fit(X, y, sample_weight=keep.astype(float))
    removed = SVMClassifier(lam=1e-2, sigma=0.7, tol=1e-10).fit(X[keep], y[keep])
    np.testing.assert_allclose(weighted.decision_function(X), removed.decision_function(X), atol=1e-8)
    assert np.all(weighted.alpha_[~keep] == 0)
    # the training decision values of the zero-weight rows are the fitted function's there
    np.testing.assert_allclose(weighted.train_decision_, weighted.decision_function(X), atol=1e-8)


@pytest.mark.parametrize("w, words", [
    (-np.ones(90), "non-negative"),
    (np.ones(89), "shape (89,) but X has 90 rows"),
    (np.zeros(90), "every sample_weight is 0"),
    (np.r_[np.nan, np.ones(89)], "NaN"),
])
def test_bad_weights_are_refused(data, w, words):
    X, y, _ = data
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        SVMClassifier().fit(X, y, sample_weight=w)


def test_weights_that_empty_a_class_are_refused(data):
    X, y, _ = data
    with pytest.raises(ValueError, match="total weight 0"):
        SVMClassifier().fit(X, y, sample_weight=(y == 1).astype(float))


def test_grid_search_and_pipeline_pass_weights(data):
    X, y, w = data
    pipe = make_pipeline(StandardScaler(), SVMClassifier(tol=1e-10))
    pipe.fit(X, y, svmclassifier__sample_weight=w)
    direct = SVMClassifier(tol=1e-10).fit(StandardScaler().fit_transform(X), y, sample_weight=w)
    np.testing.assert_allclose(pipe.decision_function(X), direct.decision_function(StandardScaler().fit_transform(X)))
    gs = GridSearchCV(SVMClassifier(tol=1e-6), {"C": [0.5, 5.0]}, cv=3).fit(X, y, sample_weight=w)
    assert gs.best_params_["C"] in (0.5, 5.0)
    unweighted = GridSearchCV(SVMClassifier(tol=1e-6), {"C": [0.5, 5.0]}, cv=3).fit(X, y)
    # the weights reach the fits: the refitted machines differ
    assert not np.allclose(gs.best_estimator_.decision_function(X), unweighted.best_estimator_.decision_function(X)) \
        or gs.best_params_ != unweighted.best_params_


# ------------------------------------------------------------------------- kernel logistic regression
from sklearn.linear_model import LogisticRegression  # noqa: E402

from svmviz.ivm import KernelLogisticRegression  # noqa: E402


def test_klr_weights_match_logistic_regression(data):
    """Linear kernel, loss summed (Zhu & Hastie 2002, eq. 4): LogisticRegression(C = 1/λ, sample_weight)."""
    X, y, _ = data
    w = np.random.default_rng(3).uniform(0.1, 3.0, X.shape[0])
    ours = KernelLogisticRegression(lam=0.5, kernel="linear").fit(X, y, sample_weight=w)
    ref = LogisticRegression(C=2.0, tol=1e-12, max_iter=10_000).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-7)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-8)


def test_klr_multiclass_integer_weights_are_repeated_rows():
    """Three classes (eq. 9, last class as base: not scikit-learn's symmetric multinomial, so the
    reference is the repeated-row fit)."""
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True)
    k = np.random.default_rng(5).integers(0, 3, X.shape[0])
    k[[0, 50, 100]] = 1  # every class keeps a point
    weighted = KernelLogisticRegression(lam=1.0, kernel="linear").fit(X, y, sample_weight=k.astype(float))
    repeated = KernelLogisticRegression(lam=1.0, kernel="linear").fit(np.repeat(X, k, 0), np.repeat(y, k))
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), atol=1e-9)


def test_klr_integer_weights_are_repeated_rows_and_zero_weights_removed_rows(data):
    X, y, w = data
    k = w.astype(int)
    weighted = KernelLogisticRegression(lam=0.5, sigma=0.7).fit(X, y, sample_weight=w)
    repeated = KernelLogisticRegression(lam=0.5, sigma=0.7).fit(np.repeat(X, k, 0), np.repeat(y, k))
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X), atol=1e-9)
    keep = w > 0
    removed = KernelLogisticRegression(lam=0.5, sigma=0.7).fit(X[keep], y[keep])
    zero = KernelLogisticRegression(lam=0.5, sigma=0.7).fit(X, y, sample_weight=keep * 1.0)
    np.testing.assert_allclose(zero.decision_function(X), removed.decision_function(X), atol=1e-9)


def test_klr_bad_weights_are_refused(data):
    X, y, _ = data
    with pytest.raises(ValueError, match="non-negative"):
        KernelLogisticRegression().fit(X, y, sample_weight=-np.ones(90))
    with pytest.raises(ValueError, match="total weight of 0"):
        KernelLogisticRegression().fit(X, y, sample_weight=(y == 1) * 1.0)


@pytest.mark.parametrize("name", ["IVMClassifier", "IRWLSClassifier", "NuSVMPath"])
def test_estimators_without_weights_say_so(data, name):
    """The IVM (greedy import set), IRWLS (prototypes from k-means / FSCL of the rows) and the ν-path
    (its events are those of the unit box) take no sample_weight: scikit-learn's meta-estimators see
    it (has_fit_parameter is False) and a direct call names the argument."""
    from sklearn.utils.validation import has_fit_parameter

    from svmviz.ivm import IVMClassifier
    from svmviz.path import NuSVMPath
    from svmviz.usvc import IRWLSClassifier
    est = {"IVMClassifier": IVMClassifier, "IRWLSClassifier": IRWLSClassifier, "NuSVMPath": NuSVMPath}[name]()
    assert not has_fit_parameter(est, "sample_weight")
    X, y, w = data
    with pytest.raises(TypeError, match="sample_weight"):
        est.fit(X, y, sample_weight=w)
