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
    (-np.ones(90), "all samples have zero or negative weights"),
    (np.ones(89), "shape (89,) but X has 90 rows"),
    (np.zeros(90), "all samples have zero or negative weights"),
    (np.r_[np.nan, np.ones(89)], "NaN"),
])
def test_bad_weights_are_refused(data, w, words):
    X, y, _ = data
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        SVMClassifier().fit(X, y, sample_weight=w)


def test_weights_that_empty_a_class_are_refused(data):
    X, y, _ = data
    with pytest.raises(ValueError, match="belong to the same class"):
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


# ------------------------------------------------------------------------- IRWLS (Navia-Vázquez et al. 2004)
from svmviz.usvc import IRWLSClassifier  # noqa: E402


@pytest.fixture(scope="module")
def linear_data():
    from sklearn.datasets import make_classification
    X, y = make_classification(120, 4, n_informative=3, n_redundant=0, flip_y=0.1, random_state=3)
    w = np.random.default_rng(7).integers(0, 4, size=120).astype(float)
    return X, y, w


def test_irwls_weights_match_linear_svc(linear_data):
    """C_i = c_i·C in eq. 5: the IRWLS-SVC fixed point is SVC(kernel="linear", C, sample_weight)."""
    X, y, _ = linear_data
    w = np.random.default_rng(8).uniform(0.2, 3.0, X.shape[0])
    ours = IRWLSClassifier(C=2.0).fit(X, y, sample_weight=w)
    ref = SVC(kernel="linear", C=2.0, tol=1e-10).fit(X, y, sample_weight=w)
    assert ours.status_ == 0
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(ours.decision_function(X), ref.decision_function(X), atol=1e-5)
    # α_i ≤ C_i, and the primal is the weighted one
    assert np.all(ours.alpha_ <= 2.0 * w * (1 + 1e-12))
    f = ours.decision_function(X)
    y_pm = 2.0 * y - 1
    primal = 0.5 * ours.coef_[0] @ ours.coef_[0] + 2.0 * np.sum(w * np.maximum(0, 1 - y_pm * f))
    assert ours.primal_ == pytest.approx(primal, rel=1e-10)


@pytest.mark.parametrize("loss", ["hinge", "smooth_step"])
def test_irwls_integer_weights_are_repeated_rows_and_zero_weights_removed_rows(linear_data, loss):
    X, y, w = linear_data
    k = w.astype(int)
    weighted = IRWLSClassifier(C=1.0, loss=loss).fit(X, y, sample_weight=w)
    repeated = IRWLSClassifier(C=1.0, loss=loss).fit(np.repeat(X, k, 0), np.repeat(y, k))
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X), atol=1e-6)
    keep = w > 0
    zero = IRWLSClassifier(C=1.0, loss=loss).fit(X, y, sample_weight=keep * 1.0)
    removed = IRWLSClassifier(C=1.0, loss=loss).fit(X[keep], y[keep])
    np.testing.assert_allclose(zero.decision_function(X), removed.decision_function(X), atol=1e-8)
    assert np.all(zero.alpha_[~keep] == 0) and not np.isin(np.flatnonzero(~keep), zero.support_).any()


def test_irwls_prototype_machine_weights_match_svc_on_its_features():
    """The prototype machine f = Σ β_r K(c_r, x) + b with ½β'K(c, c)β (eqs. 23–27) is the linear SVM on
    the features K(x, c) K(c, c)^{-1/2}: SVC(kernel="precomputed") with Φ K(c, c)⁻¹ Φ' and the same weights."""
    from svmviz.kernels import gram
    X, y = make_moons(100, noise=0.3, random_state=2)
    w = np.random.default_rng(9).uniform(0.3, 2.5, X.shape[0])
    ours = IRWLSClassifier(C=3.0, kernel="rbf", sigma=0.8, n_prototypes=8).fit(X, y, sample_weight=w)
    Phi = gram(X, ours.prototypes_, sigma=0.8)
    K = Phi @ np.linalg.solve(gram(ours.prototypes_, sigma=0.8), Phi.T)
    ref = SVC(kernel="precomputed", C=3.0, tol=1e-10).fit(K, y, sample_weight=w)
    np.testing.assert_allclose(ours.train_decision_, ref.decision_function(K), atol=1e-4)
    # the prototypes are the weighted k-means centres
    from sklearn.cluster import KMeans
    km = KMeans(n_clusters=8, n_init=4, random_state=0).fit(X, sample_weight=w)
    np.testing.assert_allclose(ours.prototypes_, km.cluster_centers_)


def test_irwls_weights_refusals(linear_data):
    X, y, _ = linear_data
    with pytest.raises(ValueError, match="prototypes='fscl' takes no sample_weight.*prototypes='kmeans'"):
        IRWLSClassifier(kernel="rbf", prototypes="fscl").fit(X, y, sample_weight=np.ones(len(y)))
    with pytest.raises(ValueError, match="total weight 0"):
        IRWLSClassifier().fit(X, y, sample_weight=(y == 1) * 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        IRWLSClassifier().fit(X, y, sample_weight=-np.ones(len(y)))
    with pytest.raises(ValueError, match=r"n_prototypes \(5\) cannot exceed .*\(4 of positive weight\)"):
        four = np.zeros(len(y))
        four[np.r_[np.flatnonzero(y == 0)[:2], np.flatnonzero(y == 1)[:2]]] = 1.0
        IRWLSClassifier(kernel="rbf", n_prototypes=5).fit(X, y, sample_weight=four)


def test_irwls_weights_in_pipeline_and_grid_search(linear_data):
    X, y, w = linear_data
    pipe = make_pipeline(StandardScaler(), IRWLSClassifier(C=1.0)).fit(X, y, irwlsclassifier__sample_weight=w)
    Z = StandardScaler().fit_transform(X)
    direct = IRWLSClassifier(C=1.0).fit(Z, y, sample_weight=w)
    np.testing.assert_allclose(pipe.decision_function(X), direct.decision_function(Z), atol=1e-10)
    gs = GridSearchCV(IRWLSClassifier(), {"C": [0.1, 1.0]}, cv=3).fit(X, y, sample_weight=w)
    ref = IRWLSClassifier(C=gs.best_params_["C"]).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(gs.best_estimator_.coef_, ref.coef_)


# ------------------------------------------------------------------------- IVM (Zhu & Hastie 2002)
from svmviz.ivm import IVMClassifier  # noqa: E402


@pytest.fixture(scope="module")
def small():
    X, y = make_moons(40, noise=0.3, random_state=6)
    w = np.random.default_rng(11).integers(0, 4, size=40).astype(float)
    w[[np.flatnonzero(y == 0)[0], np.flatnonzero(y == 1)[0]]] = 1.0
    return X, y, w


def test_ivm_with_every_point_imported_is_weighted_klr(small):
    """All points imported (eps far below any change of H): the weighted IVM is the weighted KLR."""
    X, y, _ = small
    w = np.random.default_rng(12).uniform(0.2, 3.0, X.shape[0])
    ivm = IVMClassifier(lam=0.5, sigma=0.7, eps=1e-300, tol=1e-12).fit(X, y, sample_weight=w)
    klr = KernelLogisticRegression(lam=0.5, sigma=0.7).fit(X, y, sample_weight=w)
    assert ivm.n_import_ == X.shape[0]
    np.testing.assert_allclose(ivm.decision_function(X), klr.decision_function(X), atol=1e-7)
    assert ivm.objective_ == pytest.approx(klr.objective_, rel=1e-10)


def test_ivm_linear_kernel_with_every_point_imported_is_logistic_regression(small):
    X, y, _ = small
    w = np.random.default_rng(13).uniform(0.2, 3.0, X.shape[0])
    ivm = IVMClassifier(lam=0.5, kernel="linear", eps=1e-300, tol=1e-12).fit(X, y, sample_weight=w)
    ref = LogisticRegression(C=2.0, tol=1e-12, max_iter=10_000).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ivm.decision_function(X), ref.decision_function(X), atol=1e-6)


@pytest.mark.parametrize("method", ["onestep", "full"])
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # max_import caps the fits
def test_ivm_integer_weights_are_repeated_rows(small, method):
    """The greedy criterion H(x_l) carries the weights: the same import points, the same model."""
    X, y, w = small
    k = w.astype(int)
    weighted = IVMClassifier(lam=0.3, sigma=0.7, max_import=8, method=method).fit(X, y, sample_weight=w)
    Xr, yr = np.repeat(X, k, 0), np.repeat(y, k)
    repeated = IVMClassifier(lam=0.3, sigma=0.7, max_import=8, method=method).fit(Xr, yr)
    np.testing.assert_allclose(weighted.import_points_, repeated.import_points_)
    np.testing.assert_allclose(weighted.decision_function(X), repeated.decision_function(X), atol=1e-8)
    np.testing.assert_allclose(weighted.history_["H"], repeated.history_["H"], rtol=1e-10)


def test_ivm_zero_weights_are_removed_rows(small):
    X, y, w = small
    keep = w > 0
    zero = IVMClassifier(lam=0.3, sigma=0.7, eps=1e-4).fit(X, y, sample_weight=keep * 1.0)
    removed = IVMClassifier(lam=0.3, sigma=0.7, eps=1e-4).fit(X[keep], y[keep])
    assert keep[zero.import_indices_].all()
    np.testing.assert_allclose(zero.import_points_, removed.import_points_)
    np.testing.assert_allclose(zero.decision_function(X), removed.decision_function(X), atol=1e-9)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # max_import caps the fits
def test_ivm_weights_refusals_and_grid_search(small):
    X, y, w = small
    with pytest.raises(ValueError, match="total weight of 0"):
        IVMClassifier().fit(X, y, sample_weight=(y == 1) * 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        IVMClassifier().fit(X, y, sample_weight=-np.ones(len(y)))
    gs = GridSearchCV(IVMClassifier(sigma=0.7, max_import=6), {"lam": [0.1, 1.0]}, cv=3).fit(X, y, sample_weight=w)
    ref = IVMClassifier(sigma=0.7, max_import=6, lam=gs.best_params_["lam"]).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(gs.best_estimator_.decision_function(X), ref.decision_function(X))


# ------------------------------------------------------------------------- ν-path (Loosli & Canu 2006)
from svmviz.path import NuSVMPath  # noqa: E402


def test_nu_path_weights_are_per_point_boxes_matching_svc(small):
    """Box 0 ≤ α_i ≤ w_i, m = Σ w_i: at a point of the path with margin ρ > 0 the decision function
    divided by ρ is the C-SVM's with C = 1/(ρ m) and the same per-sample bounds C·w_i (SVC)."""
    X, y, w = small
    est = NuSVMPath(nu=0.4, sigma=0.7, tol=1e-10).fit(X, y, sample_weight=w)
    a, b, rho = est.path_.state_at(est.lambda_)
    m = w.sum()
    assert est.path_.m == m and rho > 0
    agg = np.bincount(np.repeat(np.arange(len(w)), w.astype(int)), weights=a, minlength=len(w))
    assert np.all(agg <= w * (1 + 1e-12)) and np.any((agg > 0) & (agg < w))  # per-point boxes, free points
    ref = SVC(C=1.0 / (rho * m), gamma=1.0 / (2 * 0.7**2), tol=1e-12).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(est.decision_function(X) / rho, ref.decision_function(X), atol=1e-6)


def test_nu_path_zero_weights_are_removed_rows(small):
    X, y, w = small
    keep = w > 0
    zero = NuSVMPath(nu=0.4, sigma=0.7).fit(X, y, sample_weight=keep * 1.0)
    removed = NuSVMPath(nu=0.4, sigma=0.7).fit(X[keep], y[keep])
    np.testing.assert_allclose(zero.decision_function(X), removed.decision_function(X), atol=1e-12)


def test_nu_path_fractional_weights_are_refused_with_what_to_do(small):
    X, y, _ = small
    with pytest.raises(ValueError, match=r"whole-number sample weights only \(got 0.5 at row 0\).*SVMClassifier"):
        NuSVMPath().fit(X, y, sample_weight=np.r_[0.5, np.ones(len(y) - 1)])
    with pytest.raises(ValueError, match="total weight 0"):
        NuSVMPath().fit(X, y, sample_weight=(y == 1) * 1.0)


def test_weighted_estimators_declare_sample_weight():
    """scikit-learn's meta-estimators (GridSearchCV, Pipeline routing, check_estimator) see the argument."""
    from sklearn.utils.validation import has_fit_parameter

    for est in (IVMClassifier(), IRWLSClassifier(), NuSVMPath(), SVMClassifier(), KernelLogisticRegression()):
        assert has_fit_parameter(est, "sample_weight"), type(est).__name__


# ---------------------------------------------------------------------------------------------
# what each estimator's docstrings say of sample_weight is what its fit does
import inspect  # noqa: E402
import re  # noqa: E402

from sklearn.base import ClassifierMixin  # noqa: E402
from sklearn.utils.validation import has_fit_parameter  # noqa: E402

import svmviz  # noqa: E402

ESTIMATORS = sorted((getattr(svmviz, name) for name in svmviz.__all__
                     if inspect.isclass(getattr(svmviz, name)) and issubclass(getattr(svmviz, name), ClassifierMixin)),
                    key=lambda cls: cls.__name__)


def _says_it_takes_weights(cls) -> bool:
    """The class's and its fit's docstrings: "takes no ``sample_weight``" is a no; a
    ``sample_weight`` entry among fit's parameters, or "takes ``sample_weight``", is a yes."""
    text = " ".join((inspect.getdoc(cls) or "", inspect.getdoc(cls.fit) or ""))
    no = re.search(r"takes\s+no\s+``sample_weight``", text) is not None
    yes = (re.search(r"^sample_weight\s*:", inspect.getdoc(cls.fit) or "", re.M) is not None
           or re.search(r"takes\s+``sample_weight``", text) is not None)
    assert no != yes, f"{cls.__name__}'s docstrings say both, or neither, whether fit takes sample_weight"
    return yes


def test_every_public_estimator_is_checked():
    assert {cls.__name__ for cls in ESTIMATORS} >= {"SVMClassifier", "IRWLSClassifier", "NuSVMPath",
                                                    "KernelLogisticRegression", "IVMClassifier"}


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda cls: cls.__name__)
def test_docstring_sample_weight_claim_is_what_fit_does(cls, data):
    X, y, _ = data
    says = _says_it_takes_weights(cls)
    assert has_fit_parameter(cls(), "sample_weight") == says
    w = np.where(np.arange(y.size) % 3 == 0, 2.0, 1.0)  # whole numbers: every estimator's kind of weight
    if says:
        weighted = cls().fit(X, y, sample_weight=w)
        assert weighted.predict(X).shape == y.shape
    else:
        with pytest.raises(TypeError):
            cls().fit(X, y, sample_weight=w)
