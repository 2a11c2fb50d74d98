"""The λ paths of the import vector machine, full kernel logistic regression and the SVM (Zhu & Hastie 2002, C1–C5, Fig. 2).

Private module: import the names from :mod:`svmviz.ivm`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import numpy as np
from sklearn.base import clone

from . import _klr
from .._validation import check_binary_labels, check_matrix
from ._classes import (
    DEFAULT_SIGMA, IVMClassifier, KernelLogisticRegression, _check_kernel, _check_memory, _klr_full, _warn, paper_lambdas,
)
from ..kernels import fit_kernel, gram


# --------------------------------------------------------------------------- λ path (Zhu & Hastie 2002, C1–C5)
class PathSteps(NamedTuple):
    """Every greedy step along the IVM's λ path: one row per (λ, k) (Zhu & Hastie 2002, Fig. 2).

    Attributes
    ----------
    lam_index : ndarray of int, shape (s,)
        Index into ``IVMPath.lams`` of the step's λ.
    k : ndarray of int, shape (s,)
        The step within that λ (0 = the warm-started refit).
    H : ndarray of shape (s,)
        H_k, the regularized negative log-likelihood after the step (Zhu & Hastie 2002, eq. 4).
    n_import : ndarray of int, shape (s,)
        The number of import points after the step.
    """

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
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Their labels, two or more classes.
    X_tune : array_like of shape (m, d)
        The tuning set (Zhu & Hastie 2002, §3.4).
    y_tune : array_like of shape (m,)
        Its labels, of the classes of ``y``.
    lams : array (L,), optional
        Decreasing positive λ values; default :func:`paper_lambdas` (e^10 … e^−10, 21 values).
        They are sorted decreasing.
    sigma, kernel, r, eps, max_import, method, fit_intercept, tol, max_iter, chunk, degree, gamma, coef0
        As in :class:`IVMClassifier`.
    progress : callable(done, total, message), optional

    Returns
    -------
    IVMPath
        The tuning and training errors, the number of import points and H at each λ, and the chosen λ.

    See Also
    --------
    IVMClassifier : The estimator fitted at each λ.
    klr_lambda_path : Full kernel logistic regression on the same grid.
    svm_lambda_path : The SVM tuned on the same grid.
    svmviz.figures.ivm.compute_path_curves : The curves drawn from the result.

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
    """Full kernel logistic regression along a λ grid (the O(N³) reference the IVM approximates).

    Attributes
    ----------
    lams : ndarray of shape (L,)
        Decreasing λ values (the IVM's scaling, (λ/2)‖h‖²).
    tune_error : ndarray of shape (L,)
        Misclassification on the tuning set at each λ.
    H : ndarray of shape (L,)
        The regularized negative log-likelihood at each λ (Zhu & Hastie 2002, eq. 4).
    status : ndarray of int, shape (L,)
        Each fit's convergence status (0 converged).
    best_index : int
        argmin of ``tune_error`` (ties: the largest λ).
    best_lam : float
        ``lams[best_index]``.
    seconds : float
        Wall time of the whole path.

    See Also
    --------
    klr_lambda_path : Computes it.
    IVMPath : The IVM's path on the same grid.
    """

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
    """Wahba's SVM on the IVM's λ grid, for the comparison of Zhu & Hastie 2002, Fig. 3.

    Attributes
    ----------
    lams : ndarray of shape (L,)
        The SVM's own λ (Wahba et al. 2001, eq. 1) = ``lams_ivm / (2n)``.
    lams_ivm : ndarray of shape (L,)
        The IVM λ each one corresponds to.
    tune_error : ndarray of shape (L,)
        Misclassification on the tuning set at each λ.
    n_support : ndarray of int, shape (L,)
        Support vectors at each λ.
    best_index : int
        argmin of ``tune_error`` (ties: the largest λ).
    best_lam : float
        The chosen λ, SVM scaling.
    estimator : SVMClassifier
        The fitted :class:`svmviz.svm.SVMClassifier` at ``best_lam``.

    See Also
    --------
    svm_lambda_path : Computes it.
    """

    lams: np.ndarray        # (L,) the SVM's own λ (Wahba's scaling) = lams_ivm / (2n)
    lams_ivm: np.ndarray    # (L,) the IVM λ each one corresponds to
    tune_error: np.ndarray  # (L,)
    n_support: np.ndarray   # (L,)
    best_index: int
    best_lam: float         # SVM scaling
    estimator: object       # svmviz.svm.SVMClassifier: the sequence's solution at best_lam


def svm_lambda_path(X, y, X_tune, y_tune, *, lams_ivm=None, sigma=DEFAULT_SIGMA, kernel="rbf",
                    tol=1e-3) -> SVMPath:
    """Tune Wahba's SVM over the IVM's λ grid by tuning-set misclassification.

    The IVM minimises Σ_i loss_i + (λ/2)‖h‖² and Wahba's SVM (1/n) Σ_i hinge_i + λ_SVM‖h‖², so the
    same balance of loss and penalty is λ_SVM = λ / (2n); both curves can share one λ axis.

    Parameters
    ----------
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Their labels, two classes.
    X_tune : array_like of shape (m, d)
        The tuning set.
    y_tune : array_like of shape (m,)
        Its labels, of the classes of ``y``.
    lams_ivm : array_like of shape (L,), optional
        IVM-scale λ values (default :func:`paper_lambdas`).
    sigma : float, default 1/√2
        The Gaussian kernel's width.
    kernel : str, default "rbf"
        The SVM's kernel.
    tol : float, default 1e-3
        The SMO tolerance.

    Returns
    -------
    SVMPath
        The tuning error and support size at each λ, the chosen λ (ties: the largest) and its
        fitted SVM.

    See Also
    --------
    ivm_lambda_path : The IVM's path on the same grid.
    svmviz.figures.ivm.compute_path_curves : Draws both tuning errors.

    Notes
    -----
    Zhu & Hastie 2002, (Zhu & Hastie 2002, eq. 1) and §4; Wahba et al. 2001, (Wahba et al. 2001, eq. 1).
    """
    from ..svm import GRID_SHRINKING, SVMClassifier, fit_lambda_sequence

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
    # the chosen machine is the sequence's solution at that λ (the one its tuning error is of), not a
    # second solve, which would compile and run SVMClassifier's own SMO variant for it
    est = SVMClassifier(lam=float(lams[best]), sigma=sigma if isinstance(kernel, str) and kernel == "rbf" else None,
                        kernel=kernel, tol=tol,
                        shrinking=GRID_SHRINKING)._fit_from_sequence(X, y, seq, best)
    return SVMPath(lams, lams_ivm, tune, n_sv, best, float(lams[best]), est)
