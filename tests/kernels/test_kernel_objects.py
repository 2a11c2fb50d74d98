"""Every estimator and path function accepts a kernel object (CONVENTIONS: a callable ``kernel(A, B=None)``,
optionally with ``fit(X)``), and gives the same answers as the named kernel it reproduces."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_moons
from sklearn.utils.estimator_checks import parametrize_with_checks

from svmviz.ivm import IVMClassifier, KernelLogisticRegression, svm_lambda_path
from svmviz.kernels import gram
from svmviz.path import NuSVMPath, nu_path
from svmviz.svm import SVMClassifier
from svmviz.usvc import IRWLSClassifier


class LinearKernel:
    """x·x' written out: no fit, a plain callable."""

    def __call__(self, A, B=None):
        B = A if B is None else B
        return np.asarray(A, dtype=float) @ np.asarray(B, dtype=float).T

    def __repr__(self):
        return "LinearKernel()"


class StandardizedRBF:
    """Gaussian kernel on coordinates standardized by the TRAINING data (learnt in fit)."""

    def __init__(self, sigma=1.0):
        self.sigma = sigma
        self.mean_ = self.scale_ = None

    def fit(self, X):
        X = np.asarray(X, dtype=float)
        self.mean_, self.scale_ = X.mean(axis=0), X.std(axis=0) + 1e-12
        return self

    def __call__(self, A, B=None):
        Z = (np.asarray(A, dtype=float) - self.mean_) / self.scale_
        W = Z if B is None else (np.asarray(B, dtype=float) - self.mean_) / self.scale_
        return gram(Z, W, kernel="rbf", sigma=self.sigma)

    def __repr__(self):
        return f"StandardizedRBF(sigma={self.sigma})"


def _data(n=80, seed=0):
    X, y = make_moons(n, noise=0.3, random_state=seed)
    return X * [3.0, 0.5] + [1.0, -2.0], y


@pytest.mark.parametrize("make", [
    lambda k: SVMClassifier(lam=1e-2, kernel=k, tol=1e-10),
    lambda k: KernelLogisticRegression(lam=0.1, kernel=k),
    lambda k: IVMClassifier(lam=0.1, kernel=k),
    lambda k: IRWLSClassifier(C=1.0, kernel=k, n_prototypes=20, random_state=0),
    lambda k: NuSVMPath(nu=0.4, kernel=k),
], ids=["svm", "klr", "ivm", "irwls", "nupath"])
def test_a_callable_linear_kernel_equals_kernel_linear(make):
    X, y = _data()
    Xq = np.random.default_rng(1).normal(size=(30, 2))
    a = make("linear").fit(X, y)
    b = make(LinearKernel()).fit(X, y)
    np.testing.assert_allclose(b.decision_function(Xq), a.decision_function(Xq), rtol=1e-8, atol=1e-8)
    assert isinstance(b.kernel_, LinearKernel)


def test_a_fitted_kernel_keeps_the_training_map_and_leaves_the_users_object_alone():
    X, y = _data()
    k = StandardizedRBF(sigma=1.0)
    model = SVMClassifier(lam=1e-2, kernel=k, tol=1e-10).fit(X, y)
    assert k.mean_ is None  # the user's object is not fitted in place
    np.testing.assert_allclose(model.kernel_.mean_, X.mean(axis=0))
    # the same model by hand: standardize with the training map, then the named Gaussian kernel
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    ref = SVMClassifier(lam=1e-2, sigma=1.0, tol=1e-10).fit(Z, y)
    Xq = np.random.default_rng(2).normal(size=(25, 2)) * 2
    Zq = (Xq - X.mean(axis=0)) / X.std(axis=0)  # prediction uses the TRAINING map, not Xq's own
    np.testing.assert_allclose(model.decision_function(Xq), ref.decision_function(Zq), rtol=1e-6, atol=1e-8)


def test_path_and_lambda_path_functions_take_kernel_objects():
    X, y = _data(60)
    # the same numbers as kernel="rbf" bit for bit (a linear kernel on 2-D data is so degenerate that
    # rounding-level differences in K move the path's tie handling: that would test numerics, not routing)
    p_obj = nu_path(X, y, kernel=lambda A, B=None: gram(A, B, kernel="rbf", sigma=0.8))
    p_rbf = nu_path(X, y, kernel="rbf", sigma=0.8)
    np.testing.assert_array_equal(p_obj.lambdas, p_rbf.lambdas)
    Xq = np.random.default_rng(4).normal(size=(20, 2))
    lam = p_rbf.lambdas[len(p_rbf.lambdas) // 2]
    np.testing.assert_array_equal(p_obj.decision_function(Xq, lam), p_rbf.decision_function(Xq, lam))
    Xt, yt = _data(40, seed=3)
    a = svm_lambda_path(X, y, Xt, yt, kernel="linear")
    b = svm_lambda_path(X, y, Xt, yt, kernel=LinearKernel())
    np.testing.assert_allclose(b.tune_error, a.tune_error)


# tol=1e-9: the weighted-vs-repeated-rows check compares two SMO solutions at rtol 1e-7
# (tests/test_estimator_checks.py)
@parametrize_with_checks([SVMClassifier(kernel=LinearKernel(), tol=1e-9),
                          KernelLogisticRegression(kernel=StandardizedRBF())])
def test_estimators_with_kernel_objects_pass_sklearn_checks(estimator, check):
    check(estimator)
