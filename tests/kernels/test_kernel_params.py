"""Kernel objects follow scikit-learn's parameter protocol: get_params / set_params, clone, an
estimator's nested kernel__<parameter>, GridSearchCV over a kernel parameter; the ANOVA functions
accept the fitted estimator."""
from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV

from svmviz import anova
from svmviz.ivm import KernelLogisticRegression
from svmviz.kernels import SSANOVAKernel, gram
from svmviz.svm import SVMClassifier


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(80, n_features=3, n_informative=2, n_redundant=0, random_state=0)
    return X, y


def test_get_and_set_params():
    k = SSANOVAKernel(order="two-way", base="gaussian", sigma=0.3, theta=[1.0, 2.0, 0.5], theta0=0.1)
    p = k.get_params()
    assert p == {"base": "gaussian", "order": "two-way", "sigma": 0.3, "theta": [1.0, 2.0, 0.5], "theta0": 0.1}
    assert k.set_params(order="additive", sigma=0.5) is k and (k.order, k.sigma) == ("additive", 0.5)
    with pytest.raises(ValueError, match="Invalid parameter 'degree' for SSANOVAKernel"):
        k.set_params(degree=3)


def test_clone_gives_an_equal_unfitted_kernel(data):
    X, _ = data
    k = SSANOVAKernel(order="two-way", theta=np.array([1.0, 2.0, 0.5])).fit(X)
    c = clone(k)
    assert c is not k and c.get_params().keys() == k.get_params().keys()
    np.testing.assert_array_equal(c.theta, k.theta)
    assert not hasattr(c, "lo_")
    np.testing.assert_allclose(gram(X, kernel=c.fit(X)), gram(X, kernel=k))


def test_estimator_lists_and_sets_nested_kernel_params(data):
    X, y = data
    est = SVMClassifier(kernel=SSANOVAKernel())
    assert est.get_params()["kernel__order"] == "additive"
    est.set_params(kernel__order="two-way")
    assert est.kernel.order == "two-way"
    c = clone(est)
    assert c.kernel is not est.kernel and c.kernel.order == "two-way"


def test_grid_search_over_kernel_order(data):
    X, y = data
    gs = GridSearchCV(SVMClassifier(lam=1e-2, kernel=SSANOVAKernel()),
                      {"kernel__order": ["additive", "two-way"]}, cv=3).fit(X, y)
    assert gs.best_params_["kernel__order"] in ("additive", "two-way")
    assert gs.best_estimator_.kernel_.order == gs.best_params_["kernel__order"]
    # each candidate's score is the fit with that order
    for order, score in zip(gs.cv_results_["param_kernel__order"], gs.cv_results_["mean_test_score"]):
        assert 0.5 < score <= 1.0, order


@pytest.mark.parametrize("make", [lambda: SVMClassifier(lam=1e-2, kernel=SSANOVAKernel(order="two-way")),
                                  lambda: KernelLogisticRegression(lam=1.0, kernel=SSANOVAKernel())],
                         ids=["svm", "klr"])
def test_importances_and_decompose_accept_the_fitted_estimator(data, make):
    X, y = data
    est = make().fit(X, y)
    exp = anova.expansion_of(est)
    got, want = anova.importances(est, X), anova.importances(exp, X)
    np.testing.assert_array_equal(got.values, want.values)
    np.testing.assert_array_equal(got.rms, want.rms)
    assert got.names == want.names
    np.testing.assert_allclose(anova.decompose(est, X[:5]).total, est.decision_function(X[:5]), atol=1e-10)


def test_importances_of_an_estimator_without_anova_kernel_is_refused(data):
    X, y = data
    with pytest.raises(ValueError, match="SSANOVAKernel"):
        anova.importances(SVMClassifier(lam=1e-2).fit(X, y))
