"""SVMClassifier where its meaning is scikit-learn's SVC's: gamma="scale"/"auto", callable and
precomputed kernels, one-vs-one multi-class with SVC's attribute layout, Platt probabilities, sparse
input, weights of any sign and the hard margin C=inf — each checked against SVC itself."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import load_iris, make_classification, make_moons
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.svm import SVC

from svmviz import criteria
from svmviz.svm import SVMClassifier

TOL = 1e-8  # both solvers to this KKT tolerance: decision values agree to ~1e-6


def _svc(**params):
    """scikit-learn's SVC; its ``probability`` parameter warns of its deprecation (scikit-learn ≥ 1.9)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return SVC(**params)


def _fit_svc(X, y, sample_weight=None, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return SVC(**params).fit(X, y, sample_weight=sample_weight)


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)


@pytest.fixture(scope="module")
def binary():
    X, y = make_classification(300, n_features=5, flip_y=0.1, random_state=0)
    return train_test_split(X, y, test_size=0.4, random_state=0)


@pytest.mark.parametrize("gamma", ["scale", "auto", 0.3])
def test_gamma_as_svc_defines_it(binary, gamma):
    Xtr, Xte, ytr, _ = binary
    ours = SVMClassifier(C=1.0, gamma=gamma, tol=TOL).fit(Xtr * 3.0, ytr)
    ref = SVC(C=1.0, gamma=gamma, tol=TOL).fit(Xtr * 3.0, ytr)
    np.testing.assert_allclose(ours.decision_function(Xte * 3.0), ref.decision_function(Xte * 3.0), atol=1e-5)
    assert ours.sigma_ == pytest.approx(1.0 / np.sqrt(2.0 * ref._gamma))


def test_gamma_string_refused_when_unknown(binary):
    Xtr, _, ytr, _ = binary
    with pytest.raises(ValueError, match="'scale' or 'auto'"):
        SVMClassifier(gamma="median").fit(Xtr, ytr)


def test_callable_kernel_with_sklearn_signature(binary):
    Xtr, Xte, ytr, _ = binary

    def cubic(A, B):
        return (A @ B.T / 5.0 + 1.0) ** 3

    ours = SVMClassifier(kernel=cubic, C=0.5, tol=TOL).fit(Xtr, ytr)
    ref = SVC(kernel=cubic, C=0.5, tol=TOL).fit(Xtr, ytr)
    np.testing.assert_allclose(ours.decision_function(Xte), ref.decision_function(Xte), atol=1e-5)
    lam = SVMClassifier(kernel=lambda X, Y: X @ Y.T, C=0.5).fit(Xtr, ytr)  # a two-argument lambda
    assert lam.score(Xte, binary[3]) > 0.6


def test_precomputed_kernel_as_svc(iris):
    Xtr, Xte, ytr, _ = iris
    Ktr, Kte = Xtr @ Xtr.T, Xte @ Xtr.T
    ours = SVMClassifier(kernel="precomputed", C=1.0, tol=TOL, decision_function_shape="ovo").fit(Ktr, ytr)
    ref = SVC(kernel="precomputed", C=1.0, tol=TOL, decision_function_shape="ovo").fit(Ktr, ytr)
    f_ref = ref.decision_function(Kte)  # values up to ~10: the solvers agree to ~1e-5 of that
    np.testing.assert_allclose(ours.decision_function(Kte), f_ref, atol=1e-5 * np.abs(f_ref).max())
    np.testing.assert_array_equal(ours.support_, ref.support_)
    assert ours.support_vectors_.shape == ref.support_vectors_.shape
    linear = SVMClassifier(kernel="linear", C=1.0, tol=TOL, decision_function_shape="ovo").fit(Xtr, ytr)
    np.testing.assert_allclose(ours.decision_function(Kte), linear.decision_function(Xte), atol=1e-9)
    with pytest.raises(ValueError, match="training gram"):
        SVMClassifier(kernel="precomputed").fit(Xtr, ytr)
    with pytest.raises(ValueError):
        ours.predict(Xte)


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_iris_one_vs_one_agrees_with_svc(iris, shape):
    Xtr, Xte, ytr, yte = iris
    ours = SVMClassifier(C=1.0, gamma="scale", tol=TOL, decision_function_shape=shape).fit(Xtr, ytr)
    ref = SVC(C=1.0, tol=TOL, decision_function_shape=shape).fit(Xtr, ytr)
    assert np.mean(ours.predict(Xte) == ref.predict(Xte)) >= 0.98
    np.testing.assert_allclose(ours.decision_function(Xte), ref.decision_function(Xte), atol=1e-5)
    for name in ("support_", "n_support_"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(ref, name))
    for name in ("dual_coef_", "intercept_"):
        assert getattr(ours, name).shape == getattr(ref, name).shape
        np.testing.assert_allclose(getattr(ours, name), getattr(ref, name), atol=1e-5)
    assert ours.n_iter_.shape == ref.n_iter_.shape == (3,)
    assert ours.dual_coef_.shape == (2, ours.support_.size)


def test_binary_attributes_have_svc_shapes(binary):
    Xtr, _, ytr, _ = binary
    ours = SVMClassifier(kernel="linear", C=0.1, tol=TOL).fit(Xtr, ytr)
    ref = SVC(kernel="linear", C=0.1, tol=TOL).fit(Xtr, ytr)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_array_equal(ours.n_support_, ref.n_support_)
    for name in ("dual_coef_", "intercept_", "coef_"):
        assert getattr(ours, name).shape == getattr(ref, name).shape
        np.testing.assert_allclose(getattr(ours, name), getattr(ref, name), atol=1e-5)
    assert isinstance(ours.n_iter_, np.ndarray) and ours.n_iter_.shape == (1,)
    with pytest.raises(AttributeError, match="linear kernel"):
        SVMClassifier().fit(Xtr, ytr).coef_


def test_break_ties_takes_the_largest_ovr_value(iris):
    Xtr, Xte, ytr, _ = iris
    ours = SVMClassifier(C=1.0, gamma="scale", break_ties=True).fit(Xtr, ytr)
    np.testing.assert_array_equal(ours.predict(Xte), ours.classes_[np.argmax(ours.decision_function(Xte), axis=1)])
    with pytest.raises(ValueError, match="break_ties"):
        SVMClassifier(break_ties=True, decision_function_shape="ovo").fit(Xtr, ytr).predict(Xte)


def test_per_class_weights_with_three_classes(iris):
    Xtr, Xte, ytr, _ = iris
    cw = {0: 0.5, 2: 3.0}
    ours = SVMClassifier(C=1.0, gamma="scale", class_weight=cw, tol=TOL).fit(Xtr, ytr)
    ref = SVC(C=1.0, class_weight=cw, tol=TOL).fit(Xtr, ytr)
    np.testing.assert_allclose(ours.decision_function(Xte), ref.decision_function(Xte), atol=1e-5)
    with pytest.raises(ValueError, match="class_weight"):
        SVMClassifier(L=(2.0, 1.0)).fit(Xtr, ytr)


def test_probabilities_agree_with_svc_on_held_out_data(binary):
    Xtr, Xte, ytr, yte = binary
    ours = SVMClassifier(C=1.0, gamma="scale", probability=True, random_state=0).fit(Xtr, ytr)
    ref = _fit_svc(Xtr, ytr, C=1.0, probability=True, random_state=0)
    p, q = ours.predict_proba(Xte), ref.predict_proba(Xte)
    assert np.mean(np.abs(p - q)) <= 0.05
    assert log_loss(yte, p) <= 1.02 * log_loss(yte, q)
    np.testing.assert_allclose(ours.predict_log_proba(Xte), np.log(p))
    again = SVMClassifier(C=1.0, gamma="scale", probability=True, random_state=0).fit(Xtr, ytr)
    np.testing.assert_array_equal(again.predict_proba(Xte), p)  # seeded by random_state


def test_multiclass_probabilities_agree_with_svc(iris):
    Xtr, Xte, ytr, yte = iris
    ours = SVMClassifier(C=1.0, gamma="scale", probability=True, random_state=0).fit(Xtr, ytr)
    ref = _fit_svc(Xtr, ytr, C=1.0, probability=True, random_state=0)
    p, q = ours.predict_proba(Xte), ref.predict_proba(Xte)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, atol=1e-12)
    assert np.mean(np.abs(p - q)) <= 0.05
    assert log_loss(yte, p) <= 1.02 * log_loss(yte, q)


def test_predict_proba_only_with_probability(binary):
    Xtr, _, ytr, _ = binary
    assert not hasattr(SVMClassifier().fit(Xtr, ytr), "predict_proba")
    assert hasattr(SVMClassifier(probability=True), "predict_proba")


@pytest.mark.parametrize("container", [sp.csr_matrix, sp.csc_matrix])
def test_sparse_input_fits_as_dense(iris, container):
    Xtr, Xte, ytr, _ = iris
    dense = SVMClassifier(C=1.0, gamma="scale").fit(Xtr, ytr)
    sparse = SVMClassifier(C=1.0, gamma="scale").fit(container(Xtr), ytr)
    np.testing.assert_allclose(sparse.decision_function(container(Xte)), dense.decision_function(Xte), atol=1e-12)


def test_weights_of_any_sign_as_svc(binary):
    Xtr, Xte, ytr, _ = binary
    w = np.random.default_rng(0).normal(1.0, 1.0, ytr.size)  # about a sixth ≤ 0
    ours = SVMClassifier(C=1.0, gamma="scale", tol=TOL).fit(Xtr, ytr, sample_weight=w)
    ref = SVC(C=1.0, tol=TOL).fit(Xtr, ytr, sample_weight=w)
    np.testing.assert_allclose(ours.decision_function(Xte), ref.decision_function(Xte), atol=1e-5)
    assert not np.isin(np.flatnonzero(w <= 0), ours.support_).any()
    with pytest.raises(ValueError, match="all samples have zero or negative weights"):
        SVMClassifier().fit(Xtr, ytr, sample_weight=-np.ones(ytr.size))
    with pytest.raises(ValueError, match="belong to the same class"):
        SVMClassifier().fit(Xtr, ytr, sample_weight=np.where(ytr == 1, 1.0, -0.5))


def test_infinite_C_is_the_hard_margin():
    X, y = make_moons(60, noise=0.05, random_state=0)
    hard = SVMClassifier(C=np.inf, gamma=2.0, tol=TOL).fit(X, y)
    ref = SVC(C=np.inf, gamma=2.0, tol=TOL).fit(X, y)
    np.testing.assert_allclose(hard.decision_function(X), ref.decision_function(X), atol=1e-4)
    assert hard.lam_ == 0.0 and np.all(y * 2 - 1 == np.sign(hard.decision_function(X)))
    with pytest.raises(ValueError, match="does not separate the classes"):
        SVMClassifier(C=np.inf, kernel="linear").fit([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])


def test_criteria_refuse_more_than_two_classes(iris):
    Xtr, _, ytr, _ = iris
    clf = SVMClassifier(lam=1e-2).fit(Xtr, ytr)
    with pytest.raises(ValueError, match="two classes.*3 classes"):
        criteria.gacv(clf, ytr)


@pytest.mark.parametrize("params", [{"degree": 2}, {"coef0": 0.5}])
@pytest.mark.parametrize("kernel", ["rbf", "linear", "precomputed"])
def test_polynomial_parameters_refused_with_other_kernels(binary, kernel, params):
    Xtr, _, ytr, _ = binary
    X = Xtr @ Xtr.T if kernel == "precomputed" else Xtr
    with pytest.raises(ValueError, match=f"{next(iter(params))}=.*kernel='{kernel}'"):
        SVMClassifier(kernel=kernel, **params).fit(X, ytr)
