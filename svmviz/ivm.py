"""Kernel logistic regression and the Import Vector Machine (Zhu & Hastie 2002).

Public layer over the numba kernels of :mod:`svmviz._klr`: input checks, label coding, warnings.

Model and conventions (SPEC §6). Labels are coded 0/1 internally (Zhu & Hastie 2002, §3): for two classes
``classes_[0]`` (−1 in the public ±1 convention) is the base class and ``f(x) = ln(p₊/p₋)``; for
M + 1 > 2 classes the *last* class ``classes_[-1]`` is the base (Zhu & Hastie 2002, §5) and
``f_j(x) = ln(p_j / p_{M+1})``. The fitted function is

    f_j(x) = b_j + Σ_{s ∈ S} a_sj K(x, x_s)

with an unpenalised intercept b (the paper drops it "for notational simplicity"; pass
``fit_intercept=False`` for the paper's literal model) and the regularised negative log-likelihood

    H = Σ_i [−y_i'f(x_i) + ln(1 + Σ_j e^{f_j(x_i)})] + (λ/2) Σ_j a_j' K_q a_j      (Zhu & Hastie 2002, eq. 4), (Zhu & Hastie 2002, eq. 9)

— a *sum* over the N training points, so λ is on the paper's scale (λ = e^−2 ≈ 0.135 for N = 200).
The Gaussian kernel is K(x, x') = exp(−‖x − x'‖²/(2σ²)) (SPEC §1). The seed does not state its σ;
we default to σ = 1/√2 (K = exp(−‖x − x'‖²), the width ESL uses for its radial-kernel examples
on the same mixture data).
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.exceptions import ConvergenceWarning

from sklearn.utils.validation import check_is_fitted

from . import _klr
from ._validation import (binary_targets, check_binary_labels, check_matrix, check_positive,
                          validate_fit_data, validate_predict_data)
from .kernels import KERNELS, fit_kernel, gram

DEFAULT_SIGMA = float(1.0 / np.sqrt(2.0))
METHODS = ("onestep", "full")
#: Most classes a fit accepts. The multi-class model (Zhu & Hastie 2002, eqs. 7–9) carries
#: M = n_classes − 1 coefficient vectors; its Newton systems are (M·|S|)² and the (B2*) candidate
#: blocks M²·N·chunk numbers, so memory grows with M². A target with more distinct values than this
#: is far more likely a continuous or identifier column than classes (a continuous y of n = 200
#: values used to become 200 classes: a 12 GB Newton system, and the process was killed).
MAX_CLASSES = 32
#: Largest working memory (bytes) a fit may plan for: the kernel matrix plus the Newton system of
#: the full KLR, or plus the IVM's candidate blocks and its largest Hessian. Checked before anything
#: is allocated, so a too-large problem is a ValueError instead of an exhausted machine.
MEMORY_BUDGET = 4 * 2**30
_STATUS_TEXT = {
    _klr.OK: "converged",
    _klr.MAX_IMPORT: "max_import reached before the stopping rule |H_k − H_{k−r}|/|H_k| < eps was met",
    _klr.NEWTON_MAXITER: "a Newton solve hit max_iter",
    _klr.NUMERICAL: "numerical failure (Hessian not positive definite or no descent)",
}


def paper_lambdas(n: int = 21) -> np.ndarray:
    """The λ grid of Zhu & Hastie (2002, Fig. 2): e^10 down to e^−10.

    Parameters
    ----------
    n : int ≥ 2
        Number of log-spaced values (21 = the integer powers).

    Returns
    -------
    ndarray of shape (n,), decreasing
    """
    if int(n) != n or n < 2:
        raise ValueError(f"the λ grid needs at least 2 values; got {n!r}.")
    return np.exp(np.linspace(10.0, -10.0, int(n)))


# --------------------------------------------------------------------------- input checks
def _code_labels(y, classes):
    """Return ``(Y, codes)``: Y (n, M) 0/1 indicators of the non-base classes, codes (n,) the index
    of each label in ``classes`` (validated labels and their sorted distinct values)."""
    n = y.shape[0]
    if classes.size == 2:
        y_pm = binary_targets(y, classes)
        return np.ascontiguousarray((y_pm > 0).astype(np.float64).reshape(-1, 1)), (y_pm > 0).astype(np.int64)
    codes = np.searchsorted(classes, y).astype(np.int64)
    M = classes.size - 1
    Y = np.zeros((n, M))
    for j in range(M):
        Y[:, j] = codes == j
    return np.ascontiguousarray(Y), codes


def _check_memory(what: str, n: int, n_classes: int, *, full: bool, max_import: int | None = None,
                  chunk: int = 0) -> None:
    """Refuse a fit whose planned working memory exceeds ``MEMORY_BUDGET`` (before allocating it).

    Full KLR: the kernel matrix (n²) and the Newton system (M(n + 1))². IVM: the kernel matrix, the
    (B2*) candidate blocks (~M²·n·(chunk + 1) + 2·M²·|S|·chunk) and the Hessian of the largest import
    set (M(|S| + 1))², |S| ≤ ``max_import``.
    """
    M = n_classes - 1
    if full:
        words = n * n + (M * (n + 1)) ** 2
    else:
        q = n if max_import is None else min(n, max_import)
        c = min(chunk, n)
        words = n * n + M * M * n * (c + 1) + 2 * M * M * (q + 1) * c + (M * (q + 1)) ** 2
    need = 8.0 * words
    if need > MEMORY_BUDGET:
        raise ValueError(
            f"{what} with n = {n} points and {n_classes} classes would need about {need / 2**30:.1f} GB "
            f"of working memory (limit {MEMORY_BUDGET / 2**30:.0f} GB): use fewer points or classes"
            + ("" if full else ", a smaller chunk or a max_import") + ".")


def _check_kernel(kernel, sigma, degree, gamma, coef0):
    """A kernel name of :data:`KERNELS` with a valid σ, or a kernel object (its own parameters)."""
    if not isinstance(kernel, str) and callable(kernel):
        return
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS} or a kernel object; got {kernel!r}.")
    check_positive(sigma, "sigma")


def _check_int(v, name, lo=1):
    if isinstance(v, bool) or int(v) != v or v < lo:
        raise ValueError(f"{name} must be an integer ≥ {lo}; got {v!r}.")
    return int(v)


def _warn(status: int, what: str) -> None:
    if status != _klr.OK:
        warnings.warn(f"{what}: {_STATUS_TEXT.get(int(status), 'status ' + str(status))}. "
                      "Raise max_import / max_iter, or increase λ.", ConvergenceWarning, stacklevel=3)


def _probs_from_logits(F):
    """(m, M) logits against the base → (m, M + 1) probabilities, base in the last column."""
    Fz = np.concatenate([F, np.zeros((F.shape[0], 1))], axis=1)
    Fz -= Fz.max(axis=1, keepdims=True)
    E = np.exp(Fz)
    return E / E.sum(axis=1, keepdims=True)


class _KernelLogitBase(ClassifierMixin, BaseEstimator):
    """Prediction shared by :class:`KernelLogisticRegression` and :class:`IVMClassifier`."""

    def _kernel(self, A, B=None):
        return gram(A, B, kernel=self.kernel_, sigma=self.sigma, degree=self.degree, gamma=self.gamma,
                    coef0=self.coef0)

    def _logits(self, X):
        """(m, M) logits f_j(x) = b_j + Σ_s a_sj K(x, x_s) against the base class."""
        X = validate_predict_data(self, X)
        F = np.tile(self.intercept_, (X.shape[0], 1))
        if self.coef_.shape[0]:
            F += self._kernel(X, self._basis_points) @ self.coef_
        return F

    def decision_function(self, X):
        """Logits.

        Parameters
        ----------
        X : array-like of shape (m, d)

        Returns
        -------
        f : ndarray of shape (m,) or (m, n_classes)
            Binary: f(x) = ln(p₊/p₋) (positive → ``classes_[1]``). Multi-class: ln(p_j / p_base) in
            ``classes_`` order (the last, base column is 0).
        """
        F = self._logits(X)
        if self.n_classes_ == 2:
            return F[:, 0]
        return np.concatenate([F, np.zeros((F.shape[0], 1))], axis=1)

    def predict_proba(self, X):
        """Class probabilities of shape (m, n_classes), columns in ``classes_`` order (Zhu & Hastie
        2002, eq. 3 and §5)."""
        F = self._logits(X)
        if self.n_classes_ == 2:
            p1 = 1.0 / (1.0 + np.exp(-np.clip(F[:, 0], -700, 700)))
            return np.column_stack([1.0 - p1, p1])
        return _probs_from_logits(F)

    def predict(self, X):
        """Most probable class, shape (m,). Binary: f exactly 0 goes to ``classes_[0]`` (SPEC: [τ]_*)."""
        check_is_fitted(self)
        if self.n_classes_ == 2:
            return np.where(self.decision_function(X) > 0, self.classes_[1], self.classes_[0])
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    def _check_common(self, X, y):
        """Validate fit input (scikit-learn's ``validate_data``, ``type_of_target``) and the shared
        parameters; nothing of size n² is allocated before this returns."""
        X, y, classes = validate_fit_data(self, X, y, binary=False, max_classes=MAX_CLASSES)
        Y, codes = _code_labels(y, classes)
        _check_kernel(self.kernel, self.sigma, self.degree, self.gamma, self.coef0)
        lam = check_positive(self.lam, "lam")
        tol = check_positive(self.tol, "tol")
        max_iter = _check_int(self.max_iter, "max_iter")
        self.kernel_ = fit_kernel(self.kernel, X)  # the kernel every later gram of this model uses
        return X, Y, classes, codes, lam, tol, max_iter


class KernelLogisticRegression(_KernelLogitBase):
    """Full kernel logistic regression (every training point indexes a basis function).

    Minimises H of (Zhu & Hastie 2002, eq. 4) (binary) or (Zhu & Hastie 2002, eq. 9) (multi-class, last class as base) by Newton's
    method, i.e. the weighted least-squares iteration (Zhu & Hastie 2002, eq. 5), with a backtracking line search.

    Parameters
    ----------
    lam : float, default=1.0
        λ > 0, the penalty (λ/2) Σ_j a_j' K a_j on a loss *summed* over the N points.
    sigma : float, default=1/√2
        Gaussian kernel width, K = exp(−‖x − x'‖²/(2σ²)).
    kernel : {"rbf", "linear", "poly"} or kernel object, default="rbf"
        See :func:`svmviz.kernels.gram`.
    fit_intercept : bool, default=True
        Add an unpenalised constant b_j to every logit.
    tol : float, default=1e-12
        Newton stops when the decrement g'H⁻¹g ≤ tol · max(1, |H|) (after taking that last step).
    max_iter : int, default=100
        Newton iterations.
    degree, gamma, coef0 : polynomial kernel parameters.

    Attributes
    ----------
    coef_ : ndarray of shape (n, M)
        a (M = 1 for two classes, M = n_classes − 1 otherwise).
    intercept_ : ndarray of shape (M,)
    support_X_ : ndarray of shape (n, d)
        The training inputs (every point is a basis point).
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    objective_ : float
        H at the solution.
    n_iter_ : int
        Newton iterations.
    status_ : int
        0 converged, 2 max_iter, 3 numerical failure.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (d,)
        When fitted on a DataFrame.

    Notes
    -----
    Zhu & Hastie 2002, eqs. 4, 5 and 9. A continuous target is refused ("Unknown label type"), as
    are more than ``MAX_CLASSES`` classes and problems whose Newton system exceeds ``MEMORY_BUDGET``
    — before any kernel matrix is computed.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_moons
    >>> from svmviz.ivm import KernelLogisticRegression
    >>> X, y = make_moons(100, noise=0.3, random_state=0)
    >>> klr = KernelLogisticRegression(lam=1.0, sigma=0.7).fit(X, y)
    >>> klr.status_, klr.coef_.shape
    (0, (100, 1))
    >>> np.round(klr.predict_proba(X[:2]), 3)
    array([[0.85 , 0.15 ],
           [0.142, 0.858]])
    >>> round(float(klr.score(X, y)), 2)
    0.93
    """

    def __init__(self, lam=1.0, sigma=DEFAULT_SIGMA, kernel="rbf", fit_intercept=True, tol=1e-12,
                 max_iter=100, degree=3, gamma=1.0, coef0=1.0):
        self.lam = lam
        self.sigma = sigma
        self.kernel = kernel
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0

    @property
    def _basis_points(self):
        return self.support_X_

    def fit(self, X, y):
        """Fit on X and labels y with two or more classes.

        Parameters
        ----------
        X : array-like of shape (n, d)
        y : array-like of shape (n,)

        Returns
        -------
        self
        """
        X, Y, classes, _, lam, tol, max_iter = self._check_common(X, y)
        _check_memory(type(self).__name__, X.shape[0], classes.size, full=True)
        K = self._kernel(X)
        st, theta, H, it = _klr_full(K, Y, lam, bool(self.fit_intercept), None, tol, max_iter)
        _warn(st, "KernelLogisticRegression")
        off = 1 if self.fit_intercept else 0
        self.coef_ = np.ascontiguousarray(theta[off:])
        self.intercept_ = theta[0].copy() if off else np.zeros(Y.shape[1])
        self.support_X_ = X
        self.classes_ = classes
        self.n_classes_ = classes.size
        self.objective_ = float(H)
        self.n_iter_ = int(it)
        self.status_ = int(st)
        return self


def _klr_full(K, Y, lam, icpt, theta0, tol, max_iter):
    off = 1 if icpt else 0
    if theta0 is None:
        theta0 = np.zeros((K.shape[0] + off, Y.shape[1]))
    return _klr._klr_full(np.ascontiguousarray(K), Y, float(lam), bool(icpt),
                          np.ascontiguousarray(theta0, dtype=np.float64), float(tol), int(max_iter))


class IVMClassifier(_KernelLogitBase):
    """The Import Vector Machine: kernel logistic regression on a greedily chosen import set S.

    Greedy forward selection (Zhu & Hastie 2002, B1–B4): starting from S = ∅ (intercept only), every remaining
    point x_l is scored by H(x_l) of the sub-model on S ∪ {x_l} (Zhu & Hastie 2002, eq. 6), the best one is imported,
    the sub-model refitted exactly and H_k recorded, until |H_k − H_{k−r}| / |H_k| < eps (Zhu & Hastie 2002, §3.3,
    checked for k ≥ r with H_0 = the starting fit).

    Parameters
    ----------
    lam : float, default=1.0
        λ > 0 of (Zhu & Hastie 2002, eqs. 4 and 9) (loss summed over the N points).
    sigma : float, default=1/√2
        Gaussian width, K = exp(−‖x − x'‖²/(2σ²)).
    kernel : {"rbf", "linear", "poly"} or kernel object, default="rbf"
        See :func:`svmviz.kernels.gram`.
    r : int, default=1
        Lag of the stopping rule (Zhu & Hastie 2002, §3.3).
    eps : float, default=1e-3
        Relative tolerance of the stopping rule (the paper's α = 0.001).
    max_import : int or None, default=None
        Cap on |S| (None: no cap). Reaching it before the rule holds gives status 1 and a warning.
    method : {"onestep", "full"}, default="onestep"
        "onestep" = (B2*): one Newton / weighted-LS step (Zhu & Hastie 2002, eq. 5) from the
        current fit per candidate, O(Nq) each through a bordered system; "full" = (B2): a full
        Newton solve per candidate.
    fit_intercept : bool, default=True
    tol : float, default=1e-10
        Newton tolerance (decrement relative to max(1, |H|)).
    max_iter : int, default=100
        Newton iteration cap of every refit.
    chunk : int, default=512
        Candidates scored per block in (B2*) (bounds memory at O(N · chunk · M²)).
    degree, gamma, coef0 : polynomial kernel parameters.

    Attributes
    ----------
    import_indices_ : ndarray of shape (q,), int
        Training indices of S in the order imported.
    import_points_ : ndarray of shape (q, d)
    coef_ : ndarray of shape (q, M)
        a on the import points (M = 1 binary, n_classes − 1 otherwise).
    intercept_ : ndarray of shape (M,)
    history_ : dict of ndarrays of shape (k_max + 1,)
        ``"k"`` step 0, 1, …; ``"H"`` H_k of the exact refit; ``"n_import"`` |S| after step k;
        ``"H_score"`` the candidate's score H(x_l*) that chose it (one-step approximation for B2*;
        NaN at k = 0).
    n_import_ : int
        |S|.
    n_iter_ : int
        Greedy steps taken (k_max: points imported by this fit).
    objective_ : float
        Final H.
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    status_ : int
        0 stopping rule met (or every point imported), 1 max_import, 2 Newton max_iter,
        3 numerical failure.
    converged_ : bool
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (d,)
        When fitted on a DataFrame.

    Notes
    -----
    Zhu & Hastie 2002, eqs. 4–6, algorithm (B1)–(B4) with (B2*) of §3.2, stopping rule §3.3,
    multi-class eqs. 7–9. Targets and sizes are validated as in :class:`KernelLogisticRegression`.

    Examples
    --------
    A few import points give the fit of the full kernel logistic regression (Zhu & Hastie 2002, §4):

    >>> import numpy as np
    >>> from sklearn.datasets import make_moons
    >>> from svmviz.ivm import IVMClassifier, KernelLogisticRegression
    >>> X, y = make_moons(100, noise=0.3, random_state=0)
    >>> ivm = IVMClassifier(lam=1.0, sigma=0.7).fit(X, y)
    >>> ivm.status_, ivm.n_import_
    (0, 12)
    >>> klr = KernelLogisticRegression(lam=1.0, sigma=0.7).fit(X, y)
    >>> float(np.mean(ivm.predict(X) == klr.predict(X)))
    1.0
    >>> round(ivm.objective_, 2), round(klr.objective_, 2)
    (39.91, 39.76)
    """

    def __init__(self, lam=1.0, sigma=DEFAULT_SIGMA, kernel="rbf", r=1, eps=1e-3, max_import=None,
                 method="onestep", fit_intercept=True, tol=1e-10, max_iter=100, chunk=512,
                 degree=3, gamma=1.0, coef0=1.0):
        self.lam = lam
        self.sigma = sigma
        self.kernel = kernel
        self.r = r
        self.eps = eps
        self.max_import = max_import
        self.method = method
        self.fit_intercept = fit_intercept
        self.tol = tol
        self.max_iter = max_iter
        self.chunk = chunk
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0

    @property
    def _basis_points(self):
        return self.import_points_

    def _check_ivm_params(self, n):
        r = _check_int(self.r, "r")
        eps = check_positive(self.eps, "eps")
        if self.max_import is None:
            max_import = n
        else:
            max_import = _check_int(self.max_import, "max_import")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS} ('onestep' = B2*, 'full' = B2); "
                             f"got {self.method!r}.")
        chunk = _check_int(self.chunk, "chunk")
        return r, eps, max_import, (_klr.METHOD_ONESTEP if self.method == "onestep" else _klr.METHOD_FULL), chunk

    def fit(self, X, y):
        """Fit on X and labels y with two or more classes.

        Parameters
        ----------
        X : array-like of shape (n, d)
        y : array-like of shape (n,)

        Returns
        -------
        self
        """
        X, Y, classes, _, lam, tol, max_iter = self._check_common(X, y)
        r, eps, max_import, method, chunk = self._check_ivm_params(X.shape[0])
        _check_memory(type(self).__name__, X.shape[0], classes.size, full=False,
                      max_import=max_import, chunk=chunk)
        K = self._kernel(X)
        off = 1 if self.fit_intercept else 0
        res = _klr._ivm_fit(K, Y, lam, bool(self.fit_intercept), np.zeros(0, np.int64),
                            np.zeros((off, Y.shape[1])), r, eps, max_import, method, tol, max_iter, chunk)
        _warn(res[0], "IVMClassifier")
        self._set_state(X, classes, res)
        return self

    def _set_state(self, X, classes, res):
        st, idx, theta, Hh, nS, Hsc = res
        off = 1 if self.fit_intercept else 0
        self.import_indices_ = np.asarray(idx, dtype=np.int64)
        self.import_points_ = X[self.import_indices_]
        self.coef_ = np.ascontiguousarray(theta[off:])
        self.intercept_ = theta[0].copy() if off else np.zeros(theta.shape[1])
        self.history_ = {"k": np.arange(Hh.shape[0]), "H": np.asarray(Hh), "n_import": np.asarray(nS),
                         "H_score": np.asarray(Hsc)}
        self.n_import_ = int(self.import_indices_.size)
        self.n_iter_ = int(Hh.shape[0] - 1)
        self.objective_ = float(Hh[-1])
        self.classes_ = classes
        self.n_classes_ = classes.size
        self.status_ = int(st)
        self.converged_ = st == _klr.OK
        self.n_features_in_ = X.shape[1]
        self._theta = theta
        return self


# --------------------------------------------------------------------------- λ path (Zhu & Hastie 2002, C1–C5)
class PathSteps(NamedTuple):
    """Every greedy step along the λ path: one row per (λ, k)."""

    lam_index: np.ndarray  # (s,) index into IVMPath.lams
    k: np.ndarray          # (s,) step within that λ (0 = warm-started refit)
    H: np.ndarray          # (s,) H_k
    n_import: np.ndarray   # (s,) |S| after the step


@dataclass
class IVMPath:
    """Result of :func:`ivm_lambda_path` (Zhu & Hastie 2002, C1–C5, Fig. 2).

    Attributes
    ----------
    lams : ndarray of shape (L,)
        Decreasing λ values.
    tune_error, train_error : ndarray of shape (L,)
        Misclassification on the tuning and the training set.
    n_import : ndarray of shape (L,)
        |S| at each λ.
    H : ndarray of shape (L,)
        Final H at each λ (Zhu & Hastie 2002, eq. 4).
    status : ndarray of shape (L,)
    best_index : int
        argmin of ``tune_error`` (ties: the largest λ).
    best_lam : float
    import_indices : list of L int arrays of shape (q_l,)
    coefs : list of L arrays of shape (q_l, M)
    intercepts : ndarray of shape (L, M)
    steps : PathSteps
        Every greedy step.
    classes : ndarray of shape (n_classes,)
    estimator : IVMClassifier
        The path's IVM at ``best_lam`` (its warm-started state, no refit); :meth:`model_at` gives
        the one at any λ.
    seconds : float
    """

    lams: np.ndarray
    tune_error: np.ndarray      # misclassification on the tuning set
    train_error: np.ndarray
    n_import: np.ndarray
    H: np.ndarray               # final H per λ
    status: np.ndarray
    best_index: int
    best_lam: float
    import_indices: list        # list of (q_l,) int arrays, the import set at each λ
    coefs: list                 # list of (q_l, M) arrays
    intercepts: np.ndarray      # (L, M)
    steps: PathSteps
    classes: np.ndarray
    estimator: IVMClassifier = field(repr=False)  # fitted at best_lam (no refit: the path's state)
    seconds: float = 0.0
    _X: np.ndarray | None = field(default=None, repr=False)
    _states: list = field(default_factory=list, repr=False)

    def model_at(self, index: int) -> IVMClassifier:
        """The path's IVM at ``lams[index]`` (its warm-started import set; no refit)."""
        if not 0 <= int(index) < self.lams.size:
            raise ValueError(f"index must be in 0..{self.lams.size - 1}; got {index!r}.")
        est = clone(self.estimator).set_params(lam=float(self.lams[int(index)]))
        est._set_state(self._X, self.classes, self._states[int(index)])
        est.kernel_ = self.estimator.kernel_
        if hasattr(self.estimator, "feature_names_in_"):
            est.feature_names_in_ = self.estimator.feature_names_in_
        return est


def _check_tune(X_tune, y_tune, d, classes):
    Xt = check_matrix(X_tune, "X_tune")
    if Xt.shape[1] != d:
        raise ValueError(f"X_tune has {Xt.shape[1]} features; X has {d}.")
    yt = np.asarray(y_tune).ravel()
    if yt.shape[0] != Xt.shape[0]:
        raise ValueError(f"y_tune has {yt.shape[0]} labels but X_tune has {Xt.shape[0]} rows.")
    unknown = np.setdiff1d(np.unique(yt), classes)
    if unknown.size:
        raise ValueError(f"y_tune has labels {unknown[:5].tolist()} not seen in y ({classes.tolist()}).")
    return Xt, yt


def ivm_lambda_path(X, y, X_tune, y_tune, *, lams=None, sigma=DEFAULT_SIGMA, kernel="rbf", r=1,
                    eps=1e-3, max_import=None, method="onestep", fit_intercept=True, tol=1e-10,
                    max_iter=100, chunk=512, degree=3, gamma=1.0, coef0=1.0,
                    progress: Callable | None = None) -> IVMPath:
    """The λ path of the IVM (Zhu & Hastie 2002, C1–C5): λ from large to small, warm-starting the import set.

    At each λ the import set S of the previous (larger) λ is refitted and then grown by (B2*)
    (or (B2)) until the stopping rule holds; the tuning-set misclassification, |S| and H are
    recorded. The chosen λ minimises the tuning misclassification (ties: the largest λ, i.e. the
    sparsest model).

    Parameters
    ----------
    X : array (n, d); y : array (n,), two or more classes
    X_tune : array (m, d); y_tune : array (m,) — the tuning set (Zhu & Hastie 2002, §3.4)
    lams : array (L,), optional
        Decreasing positive λ values; default :func:`paper_lambdas` (e^10 … e^−10, 21 values).
        They are sorted decreasing.
    sigma, kernel, r, eps, max_import, method, fit_intercept, tol, max_iter, chunk, degree, gamma,
    coef0 : as in :class:`IVMClassifier`.
    progress : callable(done, total, message), optional

    Returns
    -------
    IVMPath

    Notes
    -----
    Zhu & Hastie 2002, §3.4 (C1)–(C5) and Fig. 2.
    """
    import time

    t0 = time.perf_counter()
    lams = paper_lambdas() if lams is None else np.atleast_1d(np.asarray(lams, dtype=np.float64))
    if lams.ndim != 1 or lams.size == 0 or not np.all(np.isfinite(lams)) or np.any(lams <= 0):
        raise ValueError("lams must be a non-empty 1-D sequence of finite positive numbers.")
    lams = np.sort(lams)[::-1].copy()
    est = IVMClassifier(lam=float(lams[0]), sigma=sigma, kernel=kernel, r=r, eps=eps,
                        max_import=max_import, method=method, fit_intercept=fit_intercept, tol=tol,
                        max_iter=max_iter, chunk=chunk, degree=degree, gamma=gamma, coef0=coef0)
    X, Y, classes, codes, _, tol, max_iter = est._check_common(X, y)
    r, eps, max_import, meth, chunk = est._check_ivm_params(X.shape[0])
    _check_memory("ivm_lambda_path", X.shape[0], classes.size, full=False, max_import=max_import,
                  chunk=chunk)
    Xt, yt = _check_tune(X_tune, y_tune, X.shape[1], classes)
    K = est._kernel(X)
    Kt = est._kernel(Xt, X)
    M = Y.shape[1]
    off = 1 if fit_intercept else 0
    idx = np.zeros(0, np.int64)
    theta = np.zeros((off, M))
    L = lams.size
    out = dict(tune=np.empty(L), train=np.empty(L), nS=np.empty(L, np.int64), H=np.empty(L),
               st=np.empty(L, np.int64))
    idx_list, coef_list, icpts = [], [], np.zeros((L, M))
    s_lam, s_k, s_H, s_n = [], [], [], []
    states = []

    def _err(Kx, truth, idx_, th_):
        F = np.tile(th_[0] if off else np.zeros(M), (Kx.shape[0], 1))
        if idx_.size:
            F = F + Kx[:, idx_] @ th_[off:]
        if M == 1:
            pred = np.where(F[:, 0] > 0, classes[1], classes[0])
        else:
            pred = classes[np.argmax(np.concatenate([F, np.zeros((F.shape[0], 1))], axis=1), axis=1)]
        return float(np.mean(pred != truth))

    ytrain = classes[codes]
    for li, lam in enumerate(lams):
        res = _klr._ivm_fit(K, Y, float(lam), bool(fit_intercept), idx, theta, r, eps, max_import,
                            meth, tol, max_iter, chunk)
        st, idx, theta, Hh, nS, _ = res
        states.append(res)
        out["st"][li] = st
        out["H"][li] = Hh[-1]
        out["nS"][li] = idx.size
        out["tune"][li] = _err(Kt, yt, idx, theta)
        out["train"][li] = _err(K, ytrain, idx, theta)
        idx_list.append(idx.copy())
        coef_list.append(np.ascontiguousarray(theta[off:]).copy())
        if off:
            icpts[li] = theta[0]
        s_lam.append(np.full(Hh.size, li))
        s_k.append(np.arange(Hh.size))
        s_H.append(Hh)
        s_n.append(nS)
        if progress is not None:
            progress(li + 1, L, f"λ = e^{np.log(lam):.1f}: |S| = {idx.size}")
    bad = out["st"][out["st"] != _klr.OK]
    if bad.size:
        _warn(int(bad.max()), f"ivm_lambda_path ({bad.size} of {L} λ values)")
    best = int(np.argmin(out["tune"]))  # first minimum = largest λ among ties
    est.set_params(lam=float(lams[best]))
    est._set_state(X, classes, states[best])
    steps = PathSteps(np.concatenate(s_lam), np.concatenate(s_k), np.concatenate(s_H),
                      np.concatenate(s_n))
    return IVMPath(lams=lams, tune_error=out["tune"], train_error=out["train"], n_import=out["nS"],
                   H=out["H"], status=out["st"], best_index=best, best_lam=float(lams[best]),
                   import_indices=idx_list, coefs=coef_list, intercepts=icpts, steps=steps,
                   classes=classes, estimator=est, seconds=time.perf_counter() - t0, _X=X,
                   _states=states)


class KLRPath(NamedTuple):
    """Full KLR along a λ grid (the O(N³) reference the IVM approximates)."""

    lams: np.ndarray
    tune_error: np.ndarray
    H: np.ndarray
    status: np.ndarray
    best_index: int
    best_lam: float
    seconds: float


def klr_lambda_path(X, y, X_tune, y_tune, *, lams=None, sigma=DEFAULT_SIGMA, kernel="rbf",
                    fit_intercept=True, tol=1e-10, max_iter=100, degree=3, gamma=1.0, coef0=1.0,
                    progress: Callable | None = None) -> KLRPath:
    """Full kernel logistic regression for every λ (warm-started from the previous λ).

    The O(N³) reference the IVM's path approximates (Zhu & Hastie 2002, Fig. 2).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), two or more classes
    X_tune : array-like of shape (m, d)
    y_tune : array-like of shape (m,)
    lams : array-like of shape (L,), optional
        Default :func:`paper_lambdas`; sorted decreasing.
    sigma, kernel, fit_intercept, tol, max_iter, degree, gamma, coef0 : as in
        :class:`KernelLogisticRegression`.
    progress : callable(done, total, message), optional

    Returns
    -------
    KLRPath
        Tuning misclassification, H and status per λ (shape (L,)), the best λ.

    Notes
    -----
    Zhu & Hastie 2002, (Zhu & Hastie 2002, eq. 4)–(Zhu & Hastie 2002, eq. 5) with S = all points.
    """
    import time

    t0 = time.perf_counter()
    lams = paper_lambdas() if lams is None else np.atleast_1d(np.asarray(lams, dtype=np.float64))
    if lams.ndim != 1 or lams.size == 0 or not np.all(np.isfinite(lams)) or np.any(lams <= 0):
        raise ValueError("lams must be a non-empty 1-D sequence of finite positive numbers.")
    lams = np.sort(lams)[::-1].copy()
    est = KernelLogisticRegression(sigma=sigma, kernel=kernel, fit_intercept=fit_intercept, tol=tol,
                                   max_iter=max_iter, degree=degree, gamma=gamma, coef0=coef0)
    X, Y, classes, _, _, tol, max_iter = est._check_common(X, y)
    _check_memory("klr_lambda_path", X.shape[0], classes.size, full=True)
    Xt, yt = _check_tune(X_tune, y_tune, X.shape[1], classes)
    K = est._kernel(X)
    Kt = est._kernel(Xt, X)
    off = 1 if fit_intercept else 0
    theta = None
    L = lams.size
    tune, H, sts = np.empty(L), np.empty(L), np.empty(L, np.int64)
    for li, lam in enumerate(lams):
        st, theta, h, _ = _klr_full(K, Y, lam, fit_intercept, theta, tol, max_iter)
        F = Kt @ theta[off:] + (theta[0] if off else 0.0)
        if Y.shape[1] == 1:
            pred = np.where(F[:, 0] > 0, classes[1], classes[0])
        else:
            pred = classes[np.argmax(np.concatenate([F, np.zeros((F.shape[0], 1))], axis=1), axis=1)]
        tune[li], H[li], sts[li] = np.mean(pred != yt), h, st
        if progress is not None:
            progress(li + 1, L, f"λ = e^{np.log(lam):.1f}")
    bad = sts[sts != _klr.OK]
    if bad.size:
        _warn(int(bad.max()), f"klr_lambda_path ({bad.size} of {L} λ values)")
    best = int(np.argmin(tune))
    return KLRPath(lams, tune, H, sts, best, float(lams[best]), time.perf_counter() - t0)


# --------------------------------------------------------------------------- the SVM beside it
class SVMPath(NamedTuple):
    """Wahba's SVM on the IVM's λ grid, for the comparison of (Zhu & Hastie 2002, Fig. 3)."""

    lams: np.ndarray        # (L,) the SVM's own λ (Wahba's scaling) = lams_ivm / (2n)
    lams_ivm: np.ndarray    # (L,) the IVM λ each one corresponds to
    tune_error: np.ndarray  # (L,)
    n_support: np.ndarray   # (L,)
    best_index: int
    best_lam: float         # SVM scaling
    estimator: object       # svmviz.svm.SVMClassifier fitted at best_lam


def svm_lambda_path(X, y, X_tune, y_tune, *, lams_ivm=None, sigma=DEFAULT_SIGMA, kernel="rbf",
                    tol=1e-3) -> SVMPath:
    """Tune Wahba's SVM over the IVM's λ grid by tuning-set misclassification.

    The IVM minimises Σ_i loss_i + (λ/2)‖h‖² and Wahba's SVM (1/n) Σ_i hinge_i + λ_SVM‖h‖², so the
    same balance of loss and penalty is λ_SVM = λ / (2n); both curves can share one λ axis.

    Parameters
    ----------
    X : (n, d); y : (n,) two classes; X_tune : (m, d); y_tune : (m,)
    lams_ivm : (L,) IVM-scale λ values (default :func:`paper_lambdas`)
    sigma, kernel, tol : SVM kernel and SMO tolerance.

    Returns
    -------
    SVMPath (ties: the largest λ)

    Notes
    -----
    Zhu & Hastie 2002, (Zhu & Hastie 2002, eq. 1) and §4; Wahba et al. 2001, (Wahba et al. 2001, eq. 1).
    """
    from .svm import SVMClassifier, fit_lambda_sequence

    X = check_matrix(X, "X", min_rows=2)
    y_pm, classes = check_binary_labels(y, X.shape[0])
    Xt, yt = _check_tune(X_tune, y_tune, X.shape[1], classes)
    _check_kernel(kernel, sigma, 3, 1.0, 1.0)
    lams_ivm = paper_lambdas() if lams_ivm is None else np.atleast_1d(np.asarray(lams_ivm, dtype=float))
    if lams_ivm.ndim != 1 or not np.all(np.isfinite(lams_ivm)) or np.any(lams_ivm <= 0):
        raise ValueError("lams_ivm must be a 1-D sequence of finite positive numbers.")
    lams_ivm = np.sort(lams_ivm)[::-1].copy()
    n = X.shape[0]
    lams = lams_ivm / (2.0 * n)
    kernel = fit_kernel(kernel, X)
    K = gram(X, kernel=kernel, sigma=sigma)
    Kt = gram(Xt, X, kernel=kernel, sigma=sigma)
    seq = fit_lambda_sequence(K, y_pm, lams, tol=tol)
    F = (Kt @ (seq.alphas * y_pm).T) / (2.0 * n * lams) + seq.b  # (m, L)
    pred = np.where(F > 0, classes[1], classes[0])
    tune = np.mean(pred != yt[:, None], axis=0)
    n_sv = np.sum(seq.alphas > 0, axis=1)
    best = int(np.argmin(tune))
    est = SVMClassifier(lam=float(lams[best]), sigma=sigma, kernel=kernel, tol=tol).fit(X, y)
    return SVMPath(lams, lams_ivm, tune, n_sv, best, float(lams[best]), est)


def sigma_heuristic(X, *, max_points: int = 400, seed: int = 0) -> float:
    """A starting σ for data without a paper value: the median pairwise distance / √2.

    Parameters
    ----------
    X : array-like of shape (n, d)
    max_points : int
        At most this many rows are used (a seeded random subset) to stay cheap.
    seed : int

    Returns
    -------
    float
    """
    X = check_matrix(X, "X", min_rows=2)
    if X.shape[0] > max_points:
        X = X[np.random.default_rng(seed).choice(X.shape[0], max_points, replace=False)]
    from .kernels import squared_distances

    D = squared_distances(X)
    d = np.sqrt(D[np.triu_indices(X.shape[0], 1)])
    med = float(np.median(d))
    return med / np.sqrt(2.0) if med > 0 else 1.0
