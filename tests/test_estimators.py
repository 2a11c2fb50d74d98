"""Inputs that must not give a wrong answer without an error, for every estimator:

* ``class_weight={1: 5.0, 2: 1.0}`` is keyed by class label (not read as Wahba's (L(−1), L(+1)));
* a model fitted on a DataFrame [a, b] refuses to predict on [b, a];
* a continuous y is refused before any allocation (one class per value would build a huge system);
* IRWLS converges (rbf with large σ on 40 points, X·1e200, every σ of the rbf machine with
  default settings) instead of a bare ``LinAlgError`` or a ``ConvergenceWarning``;
* SMO: an α rounded to ``C − 2.2e-16`` counts as at its bound, so b stays libsvm's midpoint (also in
  a leave-one-out refit).
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import linprog
from sklearn.datasets import load_iris, make_classification, make_moons
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import SVC

from svmviz.ivm import _classes as ivm_module
from svmviz.criteria import leave_one_out_decisions
from svmviz.data import make_dataset
from svmviz.ivm import IVMClassifier, KernelLogisticRegression
from svmviz.kernels import gram
from svmviz.path import NuSVMPath
from svmviz.svm import SVMClassifier, fit_lambda_sequence, solve_dual
from svmviz.usvc import IRWLSClassifier


def _estimators():
    return [SVMClassifier(lam=1e-2), IRWLSClassifier(C=1.0), IRWLSClassifier(kernel="rbf", n_prototypes=6),
            NuSVMPath(nu=0.3), KernelLogisticRegression(), IVMClassifier()]


# ---------------------------------------------------------------------------------- class_weight
def test_class_weight_dict_is_keyed_by_class_label_as_in_sklearn():
    X, y01 = make_moons(120, noise=0.3, random_state=3)
    labels = y01 + 1  # classes 1 and 2
    n, lam, sigma = 120, 1e-2, 0.7
    cw = {1: 5.0, 2: 1.0}
    ours = SVMClassifier(lam=lam, sigma=sigma, class_weight=cw, tol=1e-10).fit(X, labels)
    ref = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * sigma**2), class_weight=cw, tol=1e-10).fit(X, labels)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-6)
    np.testing.assert_array_equal(ours.class_weight_, [5.0, 1.0])
    # the same machine as Wahba's costs L = (L(−1), L(+1)) = (5, 1): classes_[0] = 1 is the −1 class
    wahba = SVMClassifier(lam=lam, sigma=sigma, L=(5.0, 1.0), tol=1e-10).fit(X, labels)
    np.testing.assert_allclose(ours.decision_function(X), wahba.decision_function(X), atol=1e-9)
    # both at once multiply: weight 5 on class 1 and L(−1) = 2 is a bound of 10
    both = SVMClassifier(lam=lam, sigma=sigma, L=(2.0, 1.0), class_weight=cw, tol=1e-10).fit(X, labels)
    assert both.alpha_.max() <= 10.0 and both.alpha_[labels == 1].max() > 5.0


def test_class_weight_balanced_as_in_sklearn():
    X, y = make_classification(150, 2, n_informative=2, n_redundant=0, weights=[0.8], flip_y=0.1,
                               random_state=4)
    n, lam, sigma = 150, 3e-3, 1.0
    ours = SVMClassifier(lam=lam, sigma=sigma, class_weight="balanced", tol=1e-10).fit(X, y)
    ref = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * sigma**2), class_weight="balanced", tol=1e-10).fit(X, y)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-6)
    np.testing.assert_allclose(ours.class_weight_, n / (2 * np.bincount(y)))


@pytest.mark.parametrize("cw, match", [
    ((1.5, 0.5), r"L=\(1\.5, 0\.5\)"),          # the old pair: now a clear pointer to L
    ({0: 1.0, 7: 2.0}, "not in class_weight"),  # a key that is not a class
    ({0: 1.0, 1: 0.0}, "positive"),             # a zero weight would drop a class
    ("equal", "class_weight must be"),
])
def test_bad_class_weight_raises(cw, match):
    X, y = make_moons(40, noise=0.2, random_state=0)
    with pytest.raises(ValueError, match=match):
        SVMClassifier(class_weight=cw).fit(X, y)


# ---------------------------------------------------------------------------------- feature names
@pytest.mark.parametrize("est", _estimators(), ids=lambda e: type(e).__name__)
def test_reordered_dataframe_columns_are_refused(est):
    X, y = make_moons(60, noise=0.25, random_state=1)
    df = pd.DataFrame(X, columns=["a", "b"])
    est.fit(df, y)
    np.testing.assert_array_equal(est.feature_names_in_, ["a", "b"])
    assert est.n_features_in_ == 2
    expected = est.predict(df)
    with pytest.raises(ValueError, match="feature names"):
        est.predict(df[["b", "a"]])
    with pytest.raises(ValueError, match="feature names"):
        est.predict(df.rename(columns={"b": "c"}))
    np.testing.assert_array_equal(est.predict(df[["a", "b"]]), expected)


# ---------------------------------------------------------------------------------- targets
def _no_kernel_matrix(*args, **kwargs):  # any gram would be an allocation of size n²
    raise AssertionError("a kernel matrix was computed before the target was validated")


@pytest.mark.parametrize("cls", [KernelLogisticRegression, IVMClassifier])
def test_continuous_target_is_refused_before_any_allocation(cls, monkeypatch):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(200, 2)), rng.normal(size=200)
    monkeypatch.setattr(ivm_module, "gram", _no_kernel_matrix)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        cls().fit(X, y)


@pytest.mark.parametrize("est", _estimators(), ids=lambda e: type(e).__name__)
def test_continuous_target_is_refused_by_every_estimator(est):
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        est.fit(rng.normal(size=(50, 2)), rng.normal(size=50))


def test_number_of_classes_and_memory_are_bounded_before_allocation(monkeypatch):
    monkeypatch.setattr(ivm_module, "gram", _no_kernel_matrix)
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 2))
    many = np.arange(400) % (ivm_module.MAX_CLASSES + 1)  # integer labels: "multiclass", not continuous
    for cls in (KernelLogisticRegression, IVMClassifier):
        with pytest.raises(ValueError, match=f"at most {ivm_module.MAX_CLASSES}"):
            cls().fit(X, many)
    # 20 classes on 1500 points: the full KLR's Newton system alone is (19·1501)² doubles ≈ 6 GB
    X = rng.normal(size=(1500, 2))
    with pytest.raises(ValueError, match="GB of working memory"):
        KernelLogisticRegression().fit(X, np.arange(1500) % 20)


# ---------------------------------------------------------------------------------- IRWLS
def _whitened_libsvm_primal(clf, X, y_pm, C, sigma):
    """The prototype machine's hinge problem as a linear SVC on Nyström features (libsvm, tight)."""
    Phi = gram(X, clf.prototypes_, kernel="rbf", sigma=sigma)
    lam, V = np.linalg.eigh(gram(clf.prototypes_, kernel="rbf", sigma=sigma))
    keep = lam > 1e-10 * lam[-1]
    Z = Phi @ (V[:, keep] / np.sqrt(lam[keep]))
    ref = SVC(kernel="linear", C=C, tol=1e-12, max_iter=10**8).fit(Z, y_pm)
    f = ref.decision_function(Z)
    return 0.5 * ref.coef_[0] @ ref.coef_[0] + C * np.maximum(0.0, 1.0 - y_pm * f).sum()


def test_irwls_rbf_large_sigma_on_40_points():
    ds = make_dataset("wahba2001", n=40, seed=0)  # was: LinAlgError: Matrix is singular
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = IRWLSClassifier(kernel="rbf", sigma=1e3).fit(ds.X, ds.y)
    y_pm = np.where(ds.y == clf.classes_[1], 1.0, -1.0)
    assert clf.machine_rank_ < clf.machine_size_  # K(c, c) is numerically singular at σ = 1000
    assert clf.primal_ <= _whitened_libsvm_primal(clf, ds.X, y_pm, 10.0, 1e3) * (1 + 1e-6)
    assert np.all(np.isfinite(clf.decision_function(ds.X)))


@pytest.mark.parametrize("sigma", [1.0, 3.0, 10.0, 30.0, 100.0, 300.0])
def test_irwls_rbf_default_settings_converge_to_the_qp_solution(sigma):
    X, y = make_moons(200, noise=0.3, random_state=0)  # was: LinAlgError (σ 3–30) or max_iter
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = IRWLSClassifier(kernel="rbf", sigma=sigma).fit(X, y)
    assert clf.status_ == 0
    y_pm = np.where(y == 1, 1.0, -1.0)
    assert clf.primal_ <= _whitened_libsvm_primal(clf, X, y_pm, 10.0, sigma) * (1 + 1e-6)


def test_irwls_linear_usvc_on_separable_data_converges():
    X, y = load_iris(return_X_y=True)  # setosa against the rest: separable in 4-D
    y = (y > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = IRWLSClassifier(C=10.0, loss="smooth_step").fit(X, y)  # was: max_iter in the USVC stage
    svc_end = clf.history_.primal[clf.history_.stage == 2][0]
    assert clf.primal_ <= svc_end and clf.score(X, y) == 1.0


def test_irwls_on_huge_inputs_is_the_unregularised_hinge_minimiser():
    X, y = make_classification(40, 2, n_informative=2, n_redundant=0, flip_y=0.2, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = IRWLSClassifier(C=1.0).fit(X * 1e200, y)  # was: LinAlgError (overflow)
    assert np.all(np.isfinite(clf.coef_)) and np.isfinite(clf.intercept_)
    # at this scale ½‖w‖² is ~1e-400: L̃/C is the smallest total hinge loss, an LP on the unscaled X
    y_pm = np.where(y == 1, 1.0, -1.0)
    n, d = X.shape
    A = np.hstack([-y_pm[:, None] * X, -y_pm[:, None], -np.eye(n)])  # ξ_i ≥ 1 − y_i(w'x_i + b)
    lp = linprog(np.r_[np.zeros(d + 1), np.ones(n)], A_ub=A, b_ub=-np.ones(n),
                 bounds=[(None, None)] * (d + 1) + [(0, None)] * n, method="highs")
    assert lp.status == 0 and lp.fun > 1.0
    np.testing.assert_allclose(clf.primal_, lp.fun, rtol=1e-6)
    f = clf.decision_function(X * 1e200)
    np.testing.assert_allclose(f, X @ (clf.coef_[0] * 1e200) + clf.intercept_, rtol=1e-12, atol=1e-12)


# ---------------------------------------------------------------------------------- intercept
def _moons_with_an_alpha_at_its_bound():
    X, y = make_moons(260, noise=0.3, random_state=777)
    return X[:200], y[:200]


def test_intercept_is_libsvm_midpoint_when_an_alpha_rounds_below_its_bound():
    X, y = _moons_with_an_alpha_at_its_bound()
    n, lam, sigma = 200, 1e-2, 3.0
    ours = SVMClassifier(lam=lam, sigma=sigma, L=(1.5, 0.5), tol=1e-10).fit(X, y)
    ref = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * sigma**2), class_weight={0: 1.5, 1: 0.5}, tol=1e-10).fit(X, y)
    assert abs(ours.intercept_ - ref.intercept_[0]) < 1e-6  # was −0.1448 vs −0.1387
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-6)
    # no α within a few ulps of a bound is left unsnapped
    bound = np.where(y == 1, 0.5, 1.5)
    gap = np.minimum(ours.alpha_, bound - ours.alpha_)
    assert np.all((gap == 0) | (gap > 1e-12))
    # the λ-sequence solver and the bare dual solver follow the same rule
    y_pm = np.where(y == 1, 1.0, -1.0)
    K = gram(X, kernel="rbf", sigma=sigma)
    seq = fit_lambda_sequence(K, y_pm, [1e-1, lam], L=(1.5, 0.5), tol=1e-10)
    assert abs(seq.b[1] - ref.intercept_[0]) < 1e-6
    sol = solve_dual(K, y_pm, scale=1 / (2 * n * lam), C=np.where(y_pm > 0, 0.5, 1.5), tol=1e-10)
    assert abs(sol.b - ref.intercept_[0]) < 1e-6


def test_leave_one_out_refits_follow_the_same_intercept_rule():
    X, y = _moons_with_an_alpha_at_its_bound()
    n, lam, sigma = 200, 1e-2, 3.0
    y_pm = np.where(y == 1, 1.0, -1.0)
    K = gram(X, kernel="rbf", sigma=sigma)
    sol = solve_dual(K, y_pm, scale=1 / (2 * n * lam), C=1.0, tol=1e-10)
    f_loo, status = leave_one_out_decisions(K, y_pm, lam, sol.alpha, tol=1e-10)
    assert status == 0
    # brute force: libsvm on the n − 1 other points with the full data's C = 1/(2nλ)
    worst = 0.0
    for i in np.flatnonzero(sol.alpha > 0):
        keep = np.arange(n) != i
        ref = SVC(C=1 / (2 * n * lam), gamma=1 / (2 * sigma**2), tol=1e-12).fit(X[keep], y_pm[keep])
        worst = max(worst, abs(ref.decision_function(X[i:i + 1])[0] - f_loo[i]))
    assert worst < 1e-6  # was 2.1e-3 at one support vector


@pytest.mark.parametrize("param", [{"degree": 2}, {"coef0": 0.5}], ids=lambda p: next(iter(p)))
@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("cls", [SVMClassifier, IRWLSClassifier, NuSVMPath, KernelLogisticRegression, IVMClassifier],
                         ids=lambda cls: cls.__name__)
def test_polynomial_parameters_refused_beside_other_kernels(cls, kernel, param):
    X, y = make_moons(40, noise=0.2, random_state=0)
    name = next(iter(param))
    with pytest.raises(ValueError, match=rf"{name}=.* has no meaning for kernel='{kernel}'"):
        cls(kernel=kernel, **param).fit(X, y)
    cls(kernel="poly", **param).fit(X, y)  # read by the polynomial kernel


def test_nu_path_auto_refuses_a_class_of_one_point_without_numpy_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning of numpy leaks
        with pytest.raises(ValueError, match="at least 2 points of each class"):
            NuSVMPath().fit([[0.0], [1.0], [2.0]], [0, 1, 1])


def test_klr_convergence_warning_names_only_its_own_parameters():
    X, y = make_moons(60, noise=0.3, random_state=0)
    with pytest.warns(ConvergenceWarning) as caught:
        KernelLogisticRegression(lam=1e-6, max_iter=1).fit(X, y)
    text = " ".join(str(w.message) for w in caught)
    assert "max_iter" in text and "max_import" not in text


def test_ivm_memory_refusal_advises_what_helps(monkeypatch):
    monkeypatch.setattr(ivm_module, "MEMORY_BUDGET", 8 * 1000 * 1000)  # below a 1001×1001 kernel
    with pytest.raises(MemoryError) as big:
        ivm_module._check_memory("IVMClassifier.fit", 1001, 2, full=False, max_import=5, chunk=64)
    assert "kernel matrix alone" in str(big.value) and "a max_import" not in str(big.value)
    monkeypatch.setattr(ivm_module, "MEMORY_BUDGET", 8 * 1000 * 1000 * 3)  # the kernel fits, the import set not
    with pytest.raises(MemoryError) as wide:
        ivm_module._check_memory("IVMClassifier.fit", 1000, 2, full=False, max_import=None, chunk=1000)
    assert "a max_import" in str(wide.value)
