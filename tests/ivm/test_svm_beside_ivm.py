"""The IVM page's SVM beside the IVM is the λ sequence's own solution at the chosen λ (no second
solve, no second SMO variant compiled)."""
from __future__ import annotations

import numpy as np
import pytest

from svmviz import data
from svmviz.ivm import paper_lambdas, svm_lambda_path
from svmviz.kernels import gram
from svmviz.svm import SVMClassifier, fit_lambda_sequence


def _mixture(n, seed):
    ds = data.make_dataset("esl_mixture", n=n, seed=seed)
    return ds.X, ds.y


def test_the_chosen_svm_is_the_sequence_solution_at_its_lambda():
    X, y = _mixture(120, 0)
    Xt, yt = _mixture(200, 1)
    lams = paper_lambdas(11)
    sp = svm_lambda_path(X, y, Xt, yt, lams_ivm=lams, sigma=0.71)
    est, k = sp.estimator, sp.best_index
    y_pm = np.where(y == est.classes_[1], 1.0, -1.0)
    seq = fit_lambda_sequence(gram(X, sigma=0.71), y_pm, sp.lams)
    np.testing.assert_array_equal(est.alpha_, seq.alphas[k])  # a fresh solve differs at the tolerance
    assert est.intercept_ == seq.b[k] and est.lam == sp.best_lam == seq.lambdas[k]
    np.testing.assert_array_equal(est.train_decision_, seq.f[k])
    np.testing.assert_array_equal(np.sort(est.support_), np.flatnonzero(seq.alphas[k] > 0))  # grouped by class
    assert est.support_.size == sp.n_support[k]
    # its tuning error is the one the path chose it by (decision values away from 0)
    away = np.abs(est.decision_function(Xt)) > 1e-9
    assert abs(np.mean(est.predict(Xt) != yt) - sp.tune_error[k]) <= np.mean(~away) + 1e-12
    # the same machine as a fit at that λ, to the SMO tolerance
    ref = SVMClassifier(lam=sp.best_lam, sigma=0.71, tol=1e-10).fit(X, y)
    np.testing.assert_allclose(est.decision_function(Xt), ref.decision_function(Xt), atol=2e-2)
    # dual objective ½α'Qα − e'α from the kernel matrix
    Q = y_pm[:, None] * y_pm[None, :] * gram(X, sigma=0.71) / (2 * X.shape[0] * sp.best_lam)
    a = est.alpha_
    assert est.objective_ == pytest.approx(0.5 * a @ Q @ a - a.sum(), rel=1e-9)


def test_fit_from_sequence_refuses_another_problem():
    X, y = _mixture(60, 2)
    y_pm = np.where(y > 0, 1.0, -1.0)
    seq = fit_lambda_sequence(gram(X, sigma=0.7), y_pm, [1e-2, 1e-3])
    with pytest.raises(ValueError, match="λ"):
        SVMClassifier(lam=5e-3, sigma=0.7)._fit_from_sequence(X, y, seq, 0)
    with pytest.raises(ValueError, match="box"):
        SVMClassifier(lam=1e-2, sigma=0.7, L=(0.1, 0.1))._fit_from_sequence(X, y, seq, 0)
