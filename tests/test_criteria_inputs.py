"""The public criteria, tuning and loss functions validate their inputs as the estimators do: labels
of any two values mean classes_[0] → −1 and classes_[1] → +1 (or are refused naming the values),
shapes are checked with both named, λ > 0 and finite, α inside Wahba's box; GACV and ξα accept the
fitted estimator. Never a silently different number."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler

from svmviz import criteria, losses, tuning
from svmviz.kernels import SSANOVAKernel, gram
from svmviz.svm import SVMClassifier


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    lam = 1e-2
    return X, y, lam, SVMClassifier(lam=lam, sigma=5.0).fit(X, y)


@pytest.mark.parametrize("crit", [criteria.gacv, criteria.xa])
def test_zero_one_labels_give_the_plus_minus_one_answer(cancer, crit):
    """The labels the user fitted on (0/1) give the ±1 answer: 0 is classes_[0] ↔ −1."""
    X, y, lam, clf = cancer
    y_pm = np.where(y == 1, 1.0, -1.0)
    want = crit(clf.train_decision_, y_pm, clf.alpha_, lam)
    assert crit(clf.train_decision_, y, clf.alpha_, lam) == want
    assert crit(clf.train_decision_, np.where(y == 1, "malignant?", "benign?"), clf.alpha_, lam) == want
    assert crit(clf, y) == pytest.approx(want, rel=1e-12)  # the fitted estimator itself


def test_gacv_of_the_estimator_uses_its_kernel_diagonal_and_costs():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    clf = SVMClassifier(lam=1e-2, kernel=SSANOVAKernel(), L=(2.0, 1.0), class_weight={1: 1.5}).fit(X, y)
    Kd = np.diag(gram(X, kernel=clf.kernel_))
    y_pm = np.where(y == 1, 1.0, -1.0)
    want = criteria.gacv(clf.train_decision_, y_pm, clf.alpha_, 1e-2, Kd, (2.0, 1.5))
    assert criteria.gacv(clf, y) == pytest.approx(want, rel=1e-12)
    assert criteria.xa(clf, y) == pytest.approx(criteria.xa(clf.train_decision_, y_pm, clf.alpha_, 1e-2, Kd,
                                                             (2.0, 1.5)), rel=1e-12)


def test_estimator_with_other_arguments_or_labels_is_refused(cancer):
    X, y, lam, clf = cancer
    with pytest.raises(ValueError, match="give only its training labels"):
        criteria.gacv(clf, y, clf.alpha_, lam)
    with pytest.raises(ValueError, match="not one of the estimator's classes"):
        criteria.gacv(clf, y + 5)
    with pytest.raises(ValueError, match="fitted on 569 points"):
        criteria.gacv(clf, y[:-1])
    with pytest.raises(ValueError, match="not fitted"):
        criteria.gacv(SVMClassifier(), y)


@pytest.mark.parametrize("lam", [0.0, -1e-3, np.nan, np.inf])
def test_lambda_must_be_finite_and_positive(cancer, lam):
    X, y, _, clf = cancer
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning and nan: an error
        for crit in (criteria.gacv, criteria.xa):
            with pytest.raises(ValueError, match="lam"):
                crit(clf.train_decision_, y, clf.alpha_, lam)
        with pytest.raises(ValueError, match="lam"):
            criteria.theta(clf.alpha_, lam, y.size)


def test_lengths_are_checked_naming_both_shapes(cancer):
    X, y, lam, clf = cancer
    f, a = clf.train_decision_, clf.alpha_
    with pytest.raises(ValueError, match=r"y has shape \(568,\) but f has shape \(569,\)"):
        criteria.gacv(f, y[:-1], a, lam)
    with pytest.raises(ValueError, match=r"alpha has shape \(568,\) but f has shape \(569,\)"):
        criteria.xa(f, y, a[:-1], lam)
    with pytest.raises(ValueError, match=r"lam has shape \(3,\)"):
        criteria.gacv(f, y, a, np.full(3, lam))
    with pytest.raises(ValueError, match=r"p has shape \(568,\)"):
        criteria.gckl(f, np.full(568, 0.5))
    with pytest.raises(ValueError, match=r"y has shape \(568,\) but f_loo has shape \(569,\)"):
        criteria.loo_misclass(f, y[:-1])
    with pytest.raises(ValueError, match=r"K_diag"):
        criteria.gacv(f, y, a, lam, np.ones(5))


def test_labels_of_three_classes_or_one_foreign_class_are_refused(cancer):
    X, y, lam, clf = cancer
    y3 = y.copy()
    y3[0] = 2
    with pytest.raises(ValueError, match="found 3 distinct value.s.: 0, 1, 2"):
        criteria.gacv(clf.train_decision_, y3, clf.alpha_, lam)
    with pytest.raises(ValueError, match="found 1 distinct value.s.: 0"):
        criteria.loo_misclass(clf.train_decision_, np.zeros(569))


def test_alpha_outside_the_box_is_refused(cancer):
    """libsvm's scaling (C·α with, here, C = 50) is not Wahba's: refused with the conversion."""
    X, y, lam, clf = cancer
    with pytest.raises(ValueError, match="Wahba's box"):
        criteria.gacv(clf.train_decision_, y, 50.0 * clf.alpha_, lam)  # SVC(C=50)'s α
    with pytest.raises(ValueError, match="Wahba's box"):
        criteria.xa(clf.train_decision_, y, -clf.alpha_, lam)


def test_probabilities_and_values_are_checked():
    f = np.array([0.5, -0.2])
    with pytest.raises(ValueError, match=r"p must be probabilities"):
        criteria.misclass(f, [0.5, 1.2])
    with pytest.raises(ValueError, match="NaN"):
        criteria.gckl([np.nan, 0.1], [0.5, 0.5])
    with pytest.raises(ValueError, match="NaN"):
        criteria.step_star([np.nan])
    with pytest.raises(ValueError, match="square"):
        criteria.joachims_R2(np.ones((3, 2)))


def test_tuning_and_losses_refuse_silent_conversions():
    with pytest.raises(ValueError, match="ran_gacv_replicates must be a non-negative integer"):
        tuning.criteria_curves(np.random.default_rng(0).normal(size=(20, 2)), np.r_[np.zeros(10), np.ones(10)],
                               [1e-2], 1.0, ran_gacv_replicates=1.5)
    with pytest.raises(ValueError, match="unknown criterion 'nope'"):
        tuning.criterion_label("nope")
    with pytest.raises(ValueError, match=r"f has shape \(2,\) and p has shape \(3,\)"):
        losses.expected_loss("hinge", [0.0, 1.0], [0.5, 0.5, 0.5])
