"""The binary-only estimators say how to fit more classes: scikit-learn's OneVsRestClassifier /
OneVsOneClassifier, which work on iris; CalibratedClassifierCV on three classes gets the same advice.
SVMClassifier fits more classes itself (one-vs-one, as SVC), and the wrappers still work around it."""
from __future__ import annotations

import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_iris
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier

from svmviz.path import NuSVMPath
from svmviz.svm import SVMClassifier
from svmviz.usvc import IRWLSClassifier

BINARY = [IRWLSClassifier(C=10.0), NuSVMPath(nu=0.2)]


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True)


@pytest.mark.parametrize("est", BINARY, ids=lambda e: type(e).__name__)
def test_multiclass_error_names_the_wrappers(iris, est):
    X, y = iris
    with pytest.raises(ValueError) as exc:
        est.fit(X, y)
    msg = str(exc.value)
    assert "Only binary classification is supported" in msg
    assert "OneVsRestClassifier" in msg and "OneVsOneClassifier" in msg
    assert f"OneVsRestClassifier({type(est).__name__}())" in msg


@pytest.mark.parametrize("wrapper, floor", [(OneVsRestClassifier, 0.95), (OneVsOneClassifier, 0.95)])
@pytest.mark.parametrize("est", BINARY + [SVMClassifier(lam=1e-3)], ids=lambda e: type(e).__name__)
def test_wrappers_fit_iris(iris, est, wrapper, floor):
    X, y = iris
    model = wrapper(est).fit(X, y)
    assert list(model.classes_) == [0, 1, 2]
    assert model.score(X, y) >= floor


def test_calibrated_classifier_on_three_classes_gives_the_advice(iris):
    X, y = iris
    with pytest.raises(ValueError) as exc:
        CalibratedClassifierCV(IRWLSClassifier(C=10.0), cv=3).fit(X, y)
    assert "OneVsRestClassifier" in str(exc.value)
