"""SVMClassifier takes scikit-learn's C and gamma: λ = 1/(2nC), σ = 1/√(2γ), checked
against SVC's decision values; giving both names of one parameter is refused, never ignored."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, make_moons
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from svmviz.svm import SVMClassifier


@pytest.fixture(scope="module")
def moons():
    return make_moons(120, noise=0.25, random_state=1)


@pytest.mark.parametrize("C, gamma", [(0.5, 0.3), (3.0, 2.0), (50.0, 10.0)])
def test_C_and_gamma_give_svc_decision_values(moons, C, gamma):
    X, y = moons
    ours = SVMClassifier(C=C, gamma=gamma, tol=1e-9).fit(X, y)
    ref = SVC(C=C, gamma=gamma, tol=1e-9).fit(X, y)
    # both solvers stop at a KKT tolerance on α(libsvm) = C·α(ours): agreement scales with C
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-6 * max(1.0, C / 10))
    assert ours.lam_ == pytest.approx(1.0 / (2 * X.shape[0] * C))
    assert ours.sigma_ == pytest.approx(1.0 / np.sqrt(2 * gamma))


def test_gamma_changes_the_fit(moons):
    """gamma=100 is honoured: not the default fit (it was silently the default σ = 1)."""
    X, y = moons
    default = SVMClassifier().fit(X, y).decision_function(X)
    sharp = SVMClassifier(gamma=100.0).fit(X, y).decision_function(X)
    assert np.max(np.abs(default - sharp)) > 0.1
    np.testing.assert_allclose(sharp, SVMClassifier(sigma=1 / np.sqrt(200.0)).fit(X, y).decision_function(X))


def test_C_on_real_data_matches_svc():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    ours = SVMClassifier(C=2.0, gamma=0.02, tol=1e-8).fit(X, y)
    ref = SVC(C=2.0, gamma=0.02, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=2e-5)


def test_poly_gamma_is_the_polynomial_coefficient(moons):
    X, y = moons
    ours = SVMClassifier(kernel="poly", C=1.0, gamma=0.5, degree=3, coef0=1.0, tol=1e-9).fit(X, y)
    ref = SVC(kernel="poly", C=1.0, gamma=0.5, degree=3, coef0=1.0, tol=1e-9).fit(X, y)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-5)


@pytest.mark.parametrize("params, words", [
    (dict(sigma=0.5, gamma=2.0), ["sigma or gamma", "1/(2σ²)"]),
    (dict(lam=1e-2, C=1.0), ["lam or C", "1/(2nC)"]),
    (dict(kernel="linear", gamma=1.0), ["gamma=1.0", "no meaning", "linear"]),
    (dict(C=-1.0), ["C must be"]),
    (dict(gamma=0.0), ["gamma must be"]),
])
def test_conflicting_or_bad_parameters_are_refused(moons, params, words):
    X, y = moons
    with pytest.raises(ValueError) as exc:
        SVMClassifier(**params).fit(X, y)
    for w in words:
        assert w in str(exc.value)


def test_defaults_are_lambda_1e3_and_sigma_1(moons):
    X, y = moons
    clf = SVMClassifier().fit(X, y)
    assert clf.lam_ == 1e-3 and clf.sigma_ == 1.0
    np.testing.assert_array_equal(clf.decision_function(X),
                                  SVMClassifier(lam=1e-3, sigma=1.0).fit(X, y).decision_function(X))


@pytest.mark.parametrize("kernel", ["poly", "linear", "object"])
def test_sigma_beside_a_kernel_without_width_is_refused(moons, kernel):
    """σ is the Gaussian width only: with any other kernel the fit would be the default one."""
    from svmviz.kernels import SSANOVAKernel
    X, y = moons
    k = SSANOVAKernel() if kernel == "object" else kernel
    with pytest.raises(ValueError) as exc:
        SVMClassifier(kernel=k, sigma=0.3).fit(X, y)
    assert "sigma=0.3 has no meaning" in str(exc.value) and "rbf" in str(exc.value)
    SVMClassifier(kernel=k).fit(X, y)  # without sigma the same kernel fits


def test_gamma_beside_a_kernel_object_is_refused(moons):
    from svmviz.kernels import SSANOVAKernel
    X, y = moons
    with pytest.raises(ValueError, match="gamma=2.0 has no meaning for the kernel object SSANOVAKernel"):
        SVMClassifier(kernel=SSANOVAKernel(), gamma=2.0).fit(X, y)
