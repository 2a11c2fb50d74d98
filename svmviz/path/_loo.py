"""Leave-one-out along the ν-SVM path and its automatic stopping point (Loosli & Canu 2006).

The public layer of ``svmviz.path._solver.loo``: :func:`loo_at` (leave-one-out decision values at one
λ of a :class:`~svmviz.path.NuPath`), :func:`loo_path` (LOO1, LOO2 and the test error along the path),
:func:`auto_stop` (the stopping rule), :func:`zero_margin` and :func:`default_loo_lambdas`. Documented
and imported from :mod:`svmviz.path`.
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Callable, NamedTuple

import numba
import numpy as np

from . import _solver
from .._parallel import PARALLEL_LOCK
from .._validation import check_matrix, check_positive
from ..kernels import kernel_diagonal

if TYPE_CHECKING:
    from ._nu_path import NuPath


RHO_ZERO_RTOL = 1e-9
"""A margin ρ ≤ ``RHO_ZERO_RTOL · max_i G_ii · max(λ, 1)`` is 0: the path's own KKT tolerance (the
default ``tol`` of :func:`nu_path`, on the scale it uses for ties and KKT checks). Below ν_min the
reduced convex hulls of the two classes overlap, the ν-SVM's margin is 0 and its decision function
is 0 up to rounding (Chang & Lin 2001, "Training ν-support vector classifiers", §3): there
leave-one-out values are rounding noise — measured on wahba2001 (n = 200, σ = 1) at λ = 2.73, where
ρ = 2.6e-13 (threshold 1.4e-11), LOO2 was 261 from the path's refits and 151 from an
interior-point reference; at λ = 19.1, ρ = 1.1e-10 (1.1 × the threshold), they agree to 0.1 %."""


class LooPath(NamedTuple):
    """Leave-one-out estimates along the path (Loosli & Canu 2006, "Leave-one-out evaluation").

    Attributes
    ----------
    lambdas, nus : ndarray of shape (k,)
        Where LOO was evaluated (λ and ν = λ/m).
    loo1 : ndarray of shape (k,)
        The leave-one-out error rate (1/m) Σ [−y_i ŷ_i]_* (LOO1).
    loo2 : ndarray of shape (k,)
        (1/m) Σ max(0, 1 − y_i ŷ_i/ρ^{[−i]}): the seed's LOO2, (1/m) Σ max(0, ρ − y_i ŷ_i), with
        each leave-i-out decision function in units of its own margin ρ^{[−i]} (the scale in which
        scikit-learn's ``NuSVC`` puts the margin at ±1). It is the leave-one-out hinge loss: ≥ LOO1,
        and large where the margin is small — near the sparse end the solution approaches the
        hard-margin SVM, whose margin between overlapping classes is tiny, so a misclassified
        left-out point lies many margins away (values in the hundreds).
    loo2_raw : ndarray of shape (k,)
        (1/m) Σ max(0, ρ^{[−i]} − y_i ŷ_i) in the raw scale of the dual; grows like ρ (∝ λ at the
        sparse end), so it never "stops varying".
    n_sv : ndarray of shape (k,)
        |E ∪ L| (= the number of refits).
    test_error : ndarray of shape (k,)
        Error on the test sample (NaN without one).
    rho : ndarray of shape (k,)
        The full solution's margin ρ at each λ.
    rho_zero : ndarray of bool, shape (k,)
        ρ is 0 to the path's tolerance (:data:`RHO_ZERO_RTOL`): ν is below ν_min, the ν-SVM has no
        margin and its decision function is 0 up to rounding; LOO1/LOO2 there are rounding noise
        and are ignored by the stopping rule.
    stop : int
        Index of the automatic stopping point (:func:`auto_stop`).
    status : ndarray of int, shape (k,)
        0 ok, else the number of refits that failed.
    seconds : float
    """

    lambdas: np.ndarray
    nus: np.ndarray
    loo1: np.ndarray
    loo2: np.ndarray
    loo2_raw: np.ndarray
    n_sv: np.ndarray
    test_error: np.ndarray
    rho: np.ndarray
    rho_zero: np.ndarray
    stop: int
    status: np.ndarray
    seconds: float


def zero_margin(path: NuPath, lambdas=None) -> np.ndarray:
    """Whether the margin ρ is 0 at ``lambdas``: ν below ν_min, no classifier there.

    Zero is to the path's tolerance: ρ ≤ :data:`RHO_ZERO_RTOL` · max_i G_ii · max(λ, 1).

    Parameters
    ----------
    path : NuPath
        From :func:`nu_path`.
    lambdas : array_like of shape (k,), optional
        Where to look (default: every breakpoint of the path).

    Returns
    -------
    ndarray of bool
        One entry per λ (shape (T,) at the breakpoints, else (k,)).
    """
    lam = path.lambdas if lambdas is None else np.atleast_1d(np.asarray(lambdas, dtype=np.float64))
    rho = path.rho if lambdas is None else np.array([path.state_at(l)[2] for l in lam])
    params = {k: v for k, v in path.kernel_params.items() if k != "kernel"}
    gscale = float(np.max(kernel_diagonal(path.kernel_params["kernel"], path.X, **params))) / path.m
    return rho <= RHO_ZERO_RTOL * gscale * np.maximum(lam, 1.0)


def default_loo_lambdas(path: NuPath, max_evals: int = 60) -> np.ndarray:
    """Where :func:`loo_path` evaluates by default: the path's distinct positive breakpoints, thinned.

    Parameters
    ----------
    path : NuPath
        From :func:`nu_path`.
    max_evals : int, default 60
        At most this many λ, taken evenly by index among the breakpoints.

    Returns
    -------
    ndarray of shape (k,)
        Increasing λ values, k ≤ ``max_evals``.

    See Also
    --------
    loo_path : Evaluates leave-one-out at these λ.
    """
    lam = np.unique(path.lambdas[path.lambdas > 0])
    if lam.size > max_evals:
        idx = np.unique(np.round(np.linspace(0, lam.size - 1, max_evals)).astype(int))
        lam = lam[idx]
    return lam


def loo_at(path: NuPath, lam: float, *, tol: float = 1e-9, max_qp_iter: int | None = None,
           K: np.ndarray | None = None, method: str = "homotopy", parallel: bool = True):
    """Leave-one-out decision values at one λ of the path (Loosli & Canu 2006, "Leave-one-out evaluation").

    Each refit keeps λ (clipped to 2·min(n₊, n₋) of the reduced set) and the scaling G = YKY/m. Where
    a class of the leave-i-out solution has no free point its threshold is the midpoint of its optimal
    interval (libsvm's convention); where its ρ is 0 (the reduced hulls intersect) the leave-i-out
    classifier is f ≡ 0 and ``yf = g = 0`` (counted as an error).

    Parameters
    ----------
    path : NuPath
        From :func:`nu_path`.
    lam : float
        λ in [0, λ_max] of the path.
    tol : float, default 1e-9
        Relative tolerance of ties and KKT checks of the refits.
    max_qp_iter : int, optional
        Iteration cap of each refit (default ``10 m + 100``).
    K : ndarray of shape (m, m), optional
        The kernel matrix of the path's points, if already computed (else computed here).
    method : {"homotopy", "active_set"}, default "homotopy"
        "homotopy": α_i driven to 0 from the full solution along a one-dimensional path (warm start);
        "active_set": a Simple-ν-SVM solve warm-started from the full solution (slower, kept as a
        cross-check).
    parallel : bool, default True
        Spread the refits over numba's threads (homotopy only; same results).

    Returns
    -------
    yf : ndarray of shape (m,)
        y_i ŷ_i: the leave-i-out decision value times the label.
    g : ndarray of shape (m,)
        y_i ŷ_i − ρ^{[−i]} (so ρ^{[−i]} = yf − g).
    refit : ndarray of bool, shape (m,)
        The points of E ∪ L, the only ones refitted (removing a point of R leaves the solution unchanged).
    status : ndarray of int, shape (m,)
        0 where the refit converged.

    Raises
    ------
    ValueError
        λ outside the path, or an unknown ``method``.

    See Also
    --------
    loo_path : LOO1 and LOO2 along the whole path.
    """
    lam = path._check_lambda(lam)
    if method not in ("homotopy", "active_set"):
        raise ValueError(f"method must be 'homotopy' or 'active_set'; got {method!r}.")
    if K is None:
        K = np.ascontiguousarray(path.kernel(path.X))
    if max_qp_iter is None:
        max_qp_iter = 10 * path.m + 100
    a, _, _ = path.state_at(lam)
    a = np.ascontiguousarray(a)
    threads = numba.get_num_threads()
    if method == "homotopy" and parallel and threads > 1:
        with PARALLEL_LOCK:
            yg, yf, refit, status, _steps = _solver.loo_refits_parallel(
                K, path.y, a, float(lam), float(tol), int(max_qp_iter), 4 * threads)
    else:
        yg, yf, refit, status, _steps = _solver.loo_refits(K, path.y, a, float(lam), float(tol),
                                                            int(max_qp_iter), method == "homotopy")
    return yf, yg, refit, status


_STOP_SLACK = 1e-12  # rounding in "≤": LOO1 is a multiple of 1/m, LOO2 a mean of m ratios


def auto_stop(loo1, loo2, m: int, *, valid=None, n_se: float = 1.0, rtol: float = 0.1) -> int:
    """The automatic stopping point (Loosli & Canu 2006, "Stopping on the path", "Stopping criteria").

    The paper follows the path from the sparse end and wants the "sparsest good" solution: stop
    "when LOO2 doesn't vary anymore" — the over-fitting of the sparse end is over — with LOO1 as
    the estimate of the generalization error. Read on the evaluated λ (in path order), the stop
    is the first index ``k`` where both hold:

    - LOO1 is near the best: ``LOO1_k ≤ min LOO1 + n_se · SE``, SE the binomial standard error of
      the smallest LOO1, ``sqrt(p(1 − p)/m)`` (at least ``1/m``) — the one-standard-error rule
      (Hastie, Tibshirani & Friedman 2009, §7.10);
    - LOO2 has come down to its floor among those: ``LOO2_k ≤ (1 + rtol) · min LOO2`` over the
      evaluations whose LOO1 is near the best (so the set is never empty).

    Minima are taken over the ``valid`` evaluations only (default: all; the path excludes those
    whose margin is 0, where LOO values are rounding noise). The last index is returned if no
    evaluation is valid.

    Parameters
    ----------
    loo1, loo2 : array_like of shape (k,)
        LOO1 and LOO2 along the path, in path order.
    m : int
        Number of training points (for the standard error).
    valid : array_like of bool, shape (k,), optional
    n_se : float ≥ 0, default 1.0
    rtol : float > 0, default 0.1

    Returns
    -------
    int
    """
    l1 = np.asarray(loo1, dtype=np.float64)
    l2 = np.asarray(loo2, dtype=np.float64)
    if l1.ndim != 1 or l1.size == 0 or l2.shape != l1.shape:
        raise ValueError("loo1 and loo2 must be non-empty 1-D arrays of the same length.")
    if isinstance(m, bool) or int(m) != m or m < 1:
        raise ValueError(f"m must be a positive integer (the number of training points); got {m!r}.")
    ok = np.ones(l1.size, bool) if valid is None else np.asarray(valid, dtype=bool)
    if ok.shape != l1.shape:
        raise ValueError("valid must have the shape of loo1.")
    n_se = float(n_se)
    if not (np.isfinite(n_se) and n_se >= 0):
        raise ValueError(f"n_se must be a number ≥ 0; got {n_se!r}.")
    rtol = check_positive(rtol, "rtol")
    ok &= np.isfinite(l1) & np.isfinite(l2)
    if np.any((l1[ok] < 0) | (l1[ok] > 1)):
        raise ValueError("loo1 must be error rates in [0, 1].")
    if not ok.any():
        return l1.size - 1
    p = float(l1[ok].min())
    se = max(np.sqrt(p * (1.0 - p) / m), 1.0 / m)
    near = ok & (l1 <= p + n_se * se + _STOP_SLACK)  # never empty: holds the smallest LOO1
    good = near & (l2 <= (1.0 + rtol) * l2[near].min() + _STOP_SLACK)
    return int(np.flatnonzero(good)[0])


def loo_path(path: NuPath, lambdas=None, *, max_evals: int = 60, X_test=None, y_test=None,
             n_se: float = 1.0, rtol: float = 0.1, tol: float = 1e-9,
             progress: Callable[[int, int, str], None] | None = None) -> LooPath:
    """LOO1, LOO2 (Loosli & Canu 2006) and the test error along the path, with the automatic stopping point.

    Parameters
    ----------
    path : NuPath
        From :func:`nu_path`.
    lambdas : array_like of shape (k,), optional
        Where to evaluate, each λ > 0 on the path (default :func:`default_loo_lambdas` with ``max_evals``).
    max_evals : int, default 60
        At most this many λ when ``lambdas`` is not given.
    X_test, y_test : array_like of shape (n_t, d) and (n_t,), optional
        An independent sample, labels of the same two classes, for the test error.
    n_se, rtol : float, default 1.0 and 0.1
        The stopping rule of :func:`auto_stop`.
    tol : float, default 1e-9
        Relative tolerance of the refits (:func:`loo_at`).
    progress : callable, optional
        ``progress(done, total, message)``, called after each λ.

    Returns
    -------
    LooPath
        LOO1 (the leave-one-out error rate), LOO2 (the mean left-out hinge loss in margin units), the
        test error, the number of support vectors at each λ and the stopping index.

    Raises
    ------
    ValueError
        ``path`` is not a :class:`NuPath`, or ``lambdas`` is empty or has a λ ≤ 0 or off the path.

    Warns
    -----
    ConvergenceWarning
        Some refit's solve failed (counted in ``status``).

    See Also
    --------
    loo_at : The leave-one-out values at one λ.
    nu_path : Computes the path.
    svmviz.figures.path.compute_loo_curves : The curves drawn from the result.

    Notes
    -----
    Loosli & Canu 2006, "Leave-one-out evaluation", "How to do it practically": only E ∪ L
    are refitted (removing a point of R leaves the solution unchanged), warm-started. Evaluations
    whose margin ρ is 0 (ν below ν_min, :data:`RHO_ZERO_RTOL`) are flagged in ``rho_zero``.
    """
    import time

    from ._nu_path import NuPath

    if not isinstance(path, NuPath):
        raise ValueError("path must be the NuPath returned by nu_path.")
    if lambdas is None:
        lambdas = default_loo_lambdas(path, max_evals)
    lambdas = np.atleast_1d(np.asarray(lambdas, dtype=np.float64))
    if lambdas.ndim != 1 or lambdas.size == 0:
        raise ValueError("lambdas must be a non-empty 1-D array.")
    for l in lambdas:
        path._check_lambda(l)
    if np.any(lambdas <= 0):
        raise ValueError("LOO needs λ > 0 (at λ = 0 the solution is α = 0).")
    have_test = X_test is not None
    if have_test:
        Xt = check_matrix(X_test, "X_test")
        path._check_features(Xt)
        yt = np.asarray(y_test).ravel()
        if yt.shape[0] != Xt.shape[0]:
            raise ValueError(f"y_test has {yt.shape[0]} labels but X_test has {Xt.shape[0]} rows.")
        known = set(path.classes)
        if not set(np.unique(yt)).issubset(known | {-1.0, 1.0}):
            raise ValueError(f"y_test must use the training classes {path.classes}.")
        yt_pm = np.where(yt == path.classes[1], 1.0, -1.0) if set(np.unique(yt)) <= known else yt
    t0 = time.perf_counter()
    K = np.ascontiguousarray(path.kernel(path.X))
    k = lambdas.size
    loo1 = np.empty(k)
    loo2 = np.empty(k)
    loo2_raw = np.empty(k)
    rho = np.empty(k)
    nsv = np.empty(k, dtype=np.int64)
    status = np.zeros(k, dtype=np.int64)
    for j, lam in enumerate(lambdas):
        yf, g, refit, st = loo_at(path, lam, tol=tol, K=K)
        loo1[j] = np.mean(yf <= 0)
        loo2_raw[j] = np.mean(np.maximum(0.0, -g))
        rho_i = yf - g
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.where(rho_i > 0, np.maximum(0.0, -g) / np.where(rho_i > 0, rho_i, 1.0), np.nan)
        loo2[j] = np.mean(np.where(np.isnan(u), np.where(yf > 0, 0.0, 1.0), u))
        nsv[j] = int(refit.sum())
        status[j] = int(np.sum(st != 0))
        if progress is not None:
            progress(j + 1, k, f"λ = {lam:.3g}")
    rho_zero = zero_margin(path, lambdas)
    test_error = np.full(k, np.nan)
    if have_test:
        F = path.decision_path(Xt, lambdas)
        test_error = np.mean(F * yt_pm[None, :] <= 0, axis=1)
    stop = auto_stop(loo1, loo2, path.m, valid=~rho_zero, n_se=n_se, rtol=rtol)
    if status.sum():
        from sklearn.exceptions import ConvergenceWarning  # (users filter scikit-learn's class; imported only here)

        warnings.warn(f"{int(status.sum())} leave-one-out refit(s) along the path did not converge; "
                      "LOO1 and LOO2 at those λ are approximate.", ConvergenceWarning, stacklevel=2)
    rho = np.array([path.state_at(l)[2] for l in lambdas])
    return LooPath(lambdas, lambdas / path.m, loo1, loo2, loo2_raw, nsv, test_error, rho, rho_zero, int(stop),
                   status, time.perf_counter() - t0)
