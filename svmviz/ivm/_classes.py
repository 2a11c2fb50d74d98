"""Kernel logistic regression and the Import Vector Machine (Zhu & Hastie 2002).

Public layer over the compiled solver ``svmviz.ivm._klr``: input checks, label coding, warnings.

Model and conventions (Zhu & Hastie 2002). Labels are coded 0/1 internally (Zhu & Hastie 2002, §3): for two classes
``classes_[0]`` (−1 in the public ±1 convention) is the base class and ``f(x) = ln(p₊/p₋)``; for
M + 1 > 2 classes the *last* class ``classes_[-1]`` is the base (Zhu & Hastie 2002, §5) and
``f_j(x) = ln(p_j / p_{M+1})``. The fitted function is

    f_j(x) = b_j + Σ_{s ∈ S} a_sj K(x, x_s)

with an unpenalised intercept b (the paper drops it "for notational simplicity"; pass
``fit_intercept=False`` for the paper's literal model) and the regularised negative log-likelihood

    H = Σ_i [−y_i'f(x_i) + ln(1 + Σ_j e^{f_j(x_i)})] + (λ/2) Σ_j a_j' K_q a_j      (Zhu & Hastie 2002, eq. 4), (Zhu & Hastie 2002, eq. 9)

— a *sum* over the N training points, so λ is on the paper's scale (λ = e^−2 ≈ 0.135 for N = 200).
The Gaussian kernel is K(x, x') = exp(−‖x − x'‖²/(2σ²)) as everywhere in svmviz. The paper does not state its σ;
we default to σ = 1/√2 (K = exp(−‖x − x'‖²), the width ESL uses for its radial-kernel examples
on the same mixture data).
"""
from __future__ import annotations

import warnings

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from sklearn.utils.validation import check_is_fitted

from . import _klr
from .._docs import fill_doc
from .. import _validation
from .._validation import (binary_targets, check_int, check_positive, check_sample_weight, predict_in_chunks,
                          validate_fit_data, validate_predict_data)
from ..kernels import KERNELS, fit_kernel, gram
from ..kernels import sigma_heuristic  # noqa: F401  (a kernel-width rule, defined in kernels; importable from here too)

DEFAULT_SIGMA = float(1.0 / np.sqrt(2.0))
METHODS = ("onestep", "full")
#: Most classes a fit accepts. The multi-class model (Zhu & Hastie 2002, eqs. 7–9) carries
#: M = n_classes − 1 coefficient vectors; its Newton systems are (M·|S|)² and the (B2*) candidate
#: blocks M²·N·chunk numbers, so memory grows with M². A target with more distinct values than this
#: is far more likely a continuous or identifier column than classes (a continuous y of n = 200
#: values read as 200 classes would need a 12 GB Newton system).
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


def _fit_words(n: int, n_classes: int, full: bool, max_import: int | None, chunk: int) -> int:
    """float64 words of a fit's working memory (:func:`_check_memory`)."""
    M = n_classes - 1
    if full:
        return n * n + (M * (n + 1)) ** 2
    q = n if max_import is None else min(n, max_import)
    c = min(chunk, n)
    return n * n + M * M * n * (c + 1) + 2 * M * M * (q + 1) * c + (M * (q + 1)) ** 2


def _check_memory(what: str, n: int, n_classes: int, *, full: bool, max_import: int | None = None,
                  chunk: int = 0) -> None:
    """Refuse, before allocating it, a fit whose planned working memory exceeds ``MEMORY_BUDGET`` or
    what this process can allocate (:func:`svmviz._validation.memory_room`: MemAvailable, ulimit,
    cgroup), with a :class:`~svmviz._validation.MemoryLimitError` naming the size and the largest n.

    Full KLR: the kernel matrix (n²) and the Newton system (M(n + 1))². IVM: the kernel matrix, the
    (B2*) candidate blocks (~M²·n·(chunk + 1) + 2·M²·|S|·chunk) and the Hessian of the largest import
    set (M(|S| + 1))², |S| ≤ ``max_import``.
    """
    def need(m):
        return 8.0 * _fit_words(m, n_classes, full, max_import, chunk)

    room, source = _validation.memory_room()
    if room is None or room > MEMORY_BUDGET:
        room, source = MEMORY_BUDGET, f"the package's MEMORY_BUDGET of {MEMORY_BUDGET / 2**30:.0f} GiB"
    if full:
        advice = ", or fewer classes"
    elif 8.0 * n * n <= room:
        advice = ", fewer classes, a smaller chunk or a max_import"
    else:  # the n×n kernel alone fills the room: no max_import or chunk helps
        advice = (f": the {n}×{n} kernel matrix alone needs {8.0 * n * n / 2**30:.2f} GiB, whatever max_import or "
                  "chunk")
    _validation.check_memory(need(n), what=f"{what} with {n_classes} classes", n=n, available=room, source=source,
                             n_max=lambda r: _validation.largest_n(need, r, hi=1 << 32), advice=advice)


def _check_kernel(kernel, sigma, degree, gamma, coef0):
    """A kernel name of :data:`KERNELS` with a valid σ, or a kernel object (its own parameters); σ, γ,
    the degree or c0 beside a kernel that does not read them is refused."""
    if isinstance(kernel, str) and kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS} or a kernel object; got {kernel!r}.")
    _validation.check_kernel_params_used(kernel, sigma=sigma, gamma=gamma, sigma_default=DEFAULT_SIGMA,
                                         gamma_default=1.0, degree=degree, coef0=coef0, degree_default=3,
                                         coef0_default=1.0)
    if not isinstance(kernel, str) and callable(kernel):
        return
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS} or a kernel object; got {kernel!r}.")
    check_positive(sigma, "sigma")


def _warn(status: int, what: str) -> None:
    if status != _klr.OK:
        raise_what = "max_import / max_iter" if what == "IVMClassifier" else "max_iter"  # KLR has no max_import
        warnings.warn(f"{what}: {_STATUS_TEXT.get(int(status), 'status ' + str(status))}. "
                      f"Raise {raise_what}, or increase λ.", ConvergenceWarning, stacklevel=3)


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
        if not self.coef_.shape[0]:
            return np.tile(self.intercept_, (X.shape[0], 1))
        B, A, b = self._basis_points, self.coef_, self.intercept_
        return predict_in_chunks(lambda rows: self._kernel(rows, B) @ A + b, X, B.shape[0])

    @fill_doc
    def decision_function(self, X):
        """Logits.

        {X_predict}

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
        """Most probable class, shape (m,). Binary: f exactly 0 goes to ``classes_[0]`` ([τ]_* counts 0 as an error)."""
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
        max_iter = check_int(self.max_iter, "max_iter")
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
        Gaussian kernel width, K = exp(−‖x − x'‖²/(2σ²)); used by kernel="rbf" only. Refused (a ValueError) at another value beside a kernel that does not read it.
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

    See Also
    --------
    IVMClassifier : Its sparse approximation.
    svmviz.ivm.klr_lambda_path : The full KLR along a λ grid.

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

    @fill_doc
    def fit(self, X, y, sample_weight=None):
        """Fit on X and labels y with two or more classes.

        {fit_multiclass_weighted}

        Notes
        -----
        ``sample_weight`` s_i multiplies point i's negative log-likelihood in H (Zhu & Hastie 2002,
        eq. 4: the loss is summed, not averaged), so integer weights are repeated rows at the same λ,
        and with a linear kernel the fit is scikit-learn's
        ``LogisticRegression(C=1/λ).fit(X, y, sample_weight)``. A point of weight 0 stays a basis
        point (its coefficient is then 0).
        """
        X, Y, classes, codes, lam, tol, max_iter = self._check_common(X, y)
        Sw = check_sample_weight(sample_weight, X.shape[0])
        per_class = np.bincount(codes, weights=Sw, minlength=classes.size)
        if np.any(per_class <= 0):
            raise ValueError(f"sample_weight gives class {classes[np.argmax(per_class <= 0)]!r} a total weight of 0; "
                             "every class needs a point of positive weight (or leave the class out of y).")
        _check_memory(type(self).__name__, X.shape[0], classes.size, full=True)
        K = self._kernel(X)
        st, theta, H, it = _klr_full(K, Y, lam, bool(self.fit_intercept), None, tol, max_iter, Sw)
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


def _klr_full(K, Y, lam, icpt, theta0, tol, max_iter, sample_weight=None):
    off = 1 if icpt else 0
    if theta0 is None:
        theta0 = np.zeros((K.shape[0] + off, Y.shape[1]))
    Sw = np.ones(K.shape[0]) if sample_weight is None else np.ascontiguousarray(sample_weight, dtype=np.float64)
    return _klr._klr_full(np.ascontiguousarray(K), Y, float(lam), bool(icpt),
                          np.ascontiguousarray(theta0, dtype=np.float64), float(tol), int(max_iter), Sw)


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
        Gaussian width, K = exp(−‖x − x'‖²/(2σ²)); used by kernel="rbf" only. Refused (a ValueError) at another value beside a kernel that does not read it.
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

    See Also
    --------
    KernelLogisticRegression : The full kernel logistic regression this approximates.
    svmviz.ivm.ivm_lambda_path : The IVM along a λ grid.
    svmviz.figures.ivm.compute_import_map : Its map of p̂ and import points.

    Notes
    -----
    Zhu & Hastie 2002, eqs. 4–6, algorithm (B1)–(B4) with (B2*) of §3.2, stopping rule §3.3,
    multi-class eqs. 7–9. Targets and sizes are validated as in :class:`KernelLogisticRegression`.
    ``fit`` takes ``sample_weight``: each point's negative log-likelihood is weighed, in the refits
    and in the greedy criterion alike, and a point of weight 0 is never imported.

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
        r = check_int(self.r, "r")
        eps = check_positive(self.eps, "eps")
        if self.max_import is None:
            max_import = n
        else:
            max_import = check_int(self.max_import, "max_import")
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {METHODS} ('onestep' = B2*, 'full' = B2); "
                             f"got {self.method!r}.")
        chunk = check_int(self.chunk, "chunk")
        return r, eps, max_import, (_klr.METHOD_ONESTEP if self.method == "onestep" else _klr.METHOD_FULL), chunk

    @fill_doc
    def fit(self, X, y, sample_weight=None):
        """Fit on X and labels y with two or more classes.

        {fit_multiclass_weighted}

        Notes
        -----
        ``sample_weight`` s_i multiplies point i's negative log-likelihood in H (Zhu & Hastie 2002,
        eq. 4), in the exact refits of the sub-model and in the greedy criterion H(x_l) (B2*, B2) alike,
        so integer weights are repeated rows at the same λ. A point of weight 0 is never imported (a
        removed row could not be): the fit equals the fit without it. With every point of positive
        weight imported the model is :class:`KernelLogisticRegression` with the same weights.
        """
        X, Y, classes, codes, lam, tol, max_iter = self._check_common(X, y)
        Sw = None
        if sample_weight is not None:
            Sw = check_sample_weight(sample_weight, X.shape[0])
            per_class = np.bincount(codes, weights=Sw, minlength=classes.size)
            if np.any(per_class <= 0):
                raise ValueError(f"sample_weight gives class {classes[np.argmax(per_class <= 0)]!r} a total weight "
                                 "of 0; every class needs a point of positive weight (or leave the class out of y).")
        r, eps, max_import, method, chunk = self._check_ivm_params(X.shape[0])
        _check_memory(type(self).__name__, X.shape[0], classes.size, full=False,
                      max_import=max_import, chunk=chunk)
        K = self._kernel(X)
        off = 1 if self.fit_intercept else 0
        res = _klr._ivm_fit(K, Y, lam, bool(self.fit_intercept), np.zeros(0, np.int64),
                            np.zeros((off, Y.shape[1])), r, eps, max_import, method, tol, max_iter, chunk, Sw)
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

