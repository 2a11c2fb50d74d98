"""Tuning criteria for Wahba's (standard and non-standard) SVM — pure functions of a fitted solution.

Notation (Wahba et al. 2001): ``f_i = f_λ(x_i)`` training decision values, ``ξ_i = (1 − y_i f_i)_+``,
``θ_i = α_i K_ii/(2nλ)``, ``p_i = p(x_i)`` the true probability of +1 under the sampling
distribution, ``L = (L(−1), L(+1))`` the non-standard weights ((1, 1) is the standard SVM).
BRXA and BRMISCLASS are XA and MISCLASS with non-standard ``L`` (Wahba et al. 2001, eqs. 11, 12).

Every function accepts arrays with any leading shape and the sample axis last, so a whole
(σ, λ) grid of solutions is scored in one call: ``f`` and ``alpha`` of shape (..., n), ``lam``
broadcastable to ``f.shape[:-1]``, ``y`` and ``p`` of shape (n,).

[τ]_* = 1 if τ ≥ 0 else 0, so f exactly 0 counts as misclassified.
"""
from __future__ import annotations

import numpy as np

from .svm import loo_decisions
from ._docs import fill_doc
from ._validation import check_binary_labels, check_L, check_matrix, check_positive, check_solver_params
from .kernels import kernel_diagonal


def _weights(y, L):
    Lm, Lp = float(L[0]), float(L[1])
    return np.where(np.asarray(y) > 0, Lp, Lm)


def _values(v, name: str) -> np.ndarray:
    """A float array of at least one dimension with finite entries (decision values, margins)."""
    try:
        a = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers; got {type(v).__name__}.") from None
    if a.ndim == 0:
        raise ValueError(f"{name} must be an array with the points on its last axis; got a scalar.")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return a


def _pm_labels(y, n: int, fname: str = "f", fshape=None) -> np.ndarray:
    """Labels of two classes as ±1 floats: labels in {−1, +1} keep their meaning, any other two values
    map in sorted order (the smaller → −1: an estimator's ``classes_[0]``, e.g. 0/1 labels → −1/+1).
    One class other than ±1, or more than two, is refused naming the values found."""
    yy = np.asarray(y)
    if yy.ndim != 1:
        raise ValueError(f"y must be 1-D (one label per point); got shape {yy.shape}.")
    if yy.shape[0] != n:
        raise ValueError(f"y has shape {yy.shape} but {fname} has shape {fshape if fshape is not None else (n,)}; "
                         f"y needs one label per point of the last axis ({n}).")
    if yy.dtype.kind in "fc" and not np.all(np.isfinite(yy)):
        raise ValueError("y contains NaN or infinite values; every point needs a class label.")
    vals = np.unique(yy)
    if yy.dtype.kind in "iufb" and vals.size <= 2 and np.all(np.isin(vals, (-1, 1))):
        return yy.astype(np.float64)
    if vals.size == 2:
        return np.where(yy == vals[1], 1.0, -1.0)
    raise ValueError(f"y must hold the labels of two classes (−1/+1, or any two values, mapped in sorted order "
                     f"to −1/+1); found {vals.size} distinct value(s): {', '.join(map(str, vals[:6]))}"
                     f"{', ...' if vals.size > 6 else ''}.")


def _check_lam_of(lam, lead) -> np.ndarray:
    """λ: finite positive, a scalar or broadcastable to the solutions' shape ``lead`` (f.shape[:-1])."""
    try:
        lam = np.asarray(lam, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"lam must be a positive number or array; got {lam!r}.") from None
    if lam.size == 0 or not np.all(np.isfinite(lam)) or np.any(lam <= 0):
        raise ValueError(f"lam (λ) must be finite and positive; got {lam.ravel()[:3].tolist() if lam.ndim else float(lam)}.")
    if lam.ndim:
        try:
            ok = np.broadcast_shapes(lam.shape, tuple(lead)) == tuple(lead)
        except ValueError:
            ok = False
        if not ok or lam.ndim > len(lead):
            raise ValueError(f"lam has shape {lam.shape}; it must be a number or broadcast to the solutions' shape "
                             f"{tuple(lead)} (f.shape[:-1]).")
    return lam


def _check_alpha(alpha, f, y_pm, L) -> np.ndarray:
    """α of the solutions of ``f``: same shape, finite, within Wahba's box 0 ≤ α_i ≤ L(y_i)."""
    alpha = _values(alpha, "alpha")
    if alpha.shape != f.shape:
        raise ValueError(f"alpha has shape {alpha.shape} but f has shape {f.shape}; they must match "
                         "(one α per decision value).")
    upper = _weights(y_pm, L)
    if np.any(alpha < -1e-12) or np.any(alpha > upper * (1.0 + 1e-8) + 1e-12):
        raise ValueError("alpha must lie in Wahba's box 0 ≤ α_i ≤ L(y_i) (Wahba et al. 2001, eq. 2); got values "
                         f"in [{alpha.min():.4g}, {alpha.max():.4g}] with L = {tuple(L)}. libsvm's / scikit-learn's "
                         "dual_coef_ are y_i·C·α_i: divide |dual_coef_| by C = 1/(2nλ).")
    return alpha


def _check_K_diag(K_diag, n: int):
    if K_diag is None:
        return 1.0
    Kd = _values(np.atleast_1d(K_diag), "K_diag")
    if Kd.shape not in ((1,), (n,)) or np.any(Kd < 0):
        raise ValueError(f"K_diag must be a non-negative number or hold {n} values K(x_i, x_i); got shape {Kd.shape}.")
    return float(Kd[0]) if np.ndim(K_diag) == 0 else Kd


def _check_p(p, n: int) -> np.ndarray:
    p = _values(p, "p")
    if p.shape != (n,):
        raise ValueError(f"p has shape {p.shape} but f has {n} points on its last axis; p needs shape ({n},).")
    if np.any(p < 0) or np.any(p > 1):
        raise ValueError(f"p must be probabilities in [0, 1]; got values in [{p.min():.4g}, {p.max():.4g}].")
    return p


def _expected_inputs(f, p, L):
    """f and p as float arrays and (L(−1), L(+1)) as floats: the inputs of GCKL and MISCLASS, which
    weigh a loss of both labels at each x by the true p."""
    f = _values(f, "f")
    Lm, Lp = check_L((1.0, 1.0) if L is None else L)
    return f, _check_p(p, f.shape[-1]), Lm, Lp


def _solution_inputs(f, y, name: str = "f"):
    """f as a float array, y as ±1 floats, and n: the inputs of the criteria of a fitted solution."""
    f = _values(f, name)
    n = f.shape[-1]
    return f, _pm_labels(y, n, name, f.shape), n


def _from_estimator(est, y, alpha, lam, K_diag, L):
    """(f, y ±1, α, λ, K_diag, L) of a fitted :class:`~svmviz.svm.SVMClassifier` and its training labels."""
    if alpha is not None or lam is not None or K_diag is not None or L is not None:
        raise ValueError("with a fitted estimator give only its training labels y: alpha, lam, K_diag and L "
                         "are the estimator's.")
    if np.size(getattr(est, "classes_", ())) > 2:
        raise ValueError(f"the criteria (GACV, ξα, leave-one-out) are Wahba et al.'s for two classes; this "
                         f"{type(est).__name__} was fitted on {est.classes_.size} classes (one-vs-one). Fit it on "
                         "two classes, e.g. one class against the rest.")
    if not hasattr(est, "train_decision_"):
        raise ValueError(f"{type(est).__name__} is not fitted: fit it first, then pass it with its training labels.")
    n = est.alpha_.shape[0]
    if float(getattr(est, "n_weighted_", n)) != n:
        raise ValueError("the criteria are Wahba et al.'s for an unweighted fit; this estimator was fitted with "
                         "sample_weight.")
    yy = np.asarray(y).ravel()
    if yy.shape[0] != n:
        raise ValueError(f"y has {yy.shape[0]} labels but the estimator was fitted on {n} points; pass its "
                         "training labels.")
    known = np.isin(yy, est.classes_)
    if not np.all(known):
        raise ValueError(f"y holds {yy[~known][0]!r}, which is not one of the estimator's classes "
                         f"{est.classes_.tolist()}; pass its training labels.")
    y_pm = np.where(yy == est.classes_[1], 1.0, -1.0)
    Lm, Lp = check_L(est.L)
    wm, wp = est.class_weight_
    Kd = np.ones(n)
    if est.support_.size:
        Kd[est.support_] = est._kernel_diagonal_at_support()
    return est.train_decision_, y_pm, est.alpha_, est.lam_, Kd, (Lm * wm, Lp * wp)


def _is_estimator(f) -> bool:
    return hasattr(f, "get_params") and hasattr(f, "fit")


def _solution_problem(f, y, alpha, lam, K_diag, L):
    """The validated inputs (f, y ±1, α, λ, K_diag, L, n) of GACV and ξα, from arrays or an estimator."""
    if _is_estimator(f):
        f, y, alpha, lam, K_diag, L = _from_estimator(f, y, alpha, lam, K_diag, L)
    if alpha is None or lam is None:
        raise ValueError("give alpha and lam with the decision values f (or pass a fitted SVMClassifier as f).")
    f, y, n = _solution_inputs(f, y)
    L = check_L((1.0, 1.0) if L is None else L)
    alpha = _check_alpha(alpha, f, y, L)
    lam = _check_lam_of(lam, f.shape[:-1])
    return f, y, alpha, lam, _check_K_diag(K_diag, n), L, n


def _lam_axis(lam, f):
    lam = np.asarray(lam, dtype=np.float64)
    if lam.ndim == 0:
        return lam
    return lam.reshape(lam.shape + (1,) * (f.ndim - lam.ndim))


def step_star(tau):
    """[τ]_* = 1 if τ ≥ 0 else 0 (Wahba et al. 2001, eq. 5): a decision value f = 0 counts as an error.

    Parameters
    ----------
    tau : array_like of any shape
        Margins, e.g. −y_i f_i.

    Returns
    -------
    ndarray of float64, same shape as ``tau``
        1.0 where τ ≥ 0, else 0.0.
    """
    tau = np.asarray(tau)
    if tau.dtype.kind not in "iufb":
        raise ValueError(f"tau must be numbers; got an array of {tau.dtype}.")
    if tau.dtype.kind in "fc" and np.any(np.isnan(tau)):
        raise ValueError("tau contains NaN: [τ]_* is undefined there.")
    return (tau >= 0).astype(np.float64)


def theta(alpha, lam, n, K_diag=1.0):
    """θ_i = α_i K_ii / (2nλ) — the leave-one-out influence of point i (Wahba et al. 2001, eqs. 4, 7).

    Parameters
    ----------
    alpha : array_like of shape (..., n)
        Dual coefficients in Wahba's scaling (0 ≤ α_i ≤ L(y_i)).
    lam : float or array_like broadcastable to ``alpha.shape[:-1]``
        λ of each solution (e.g. shape (1, m) for a (k, m, n) grid of α).
    n : int
        Number of training points.
    K_diag : float or array_like of shape (n,), default 1.0
        K(x_i, x_i); 1 for the Gaussian kernel.

    Returns
    -------
    ndarray of shape (..., n)
    """
    alpha = _values(alpha, "alpha")
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer (the number of training points); got {n!r}.")
    if np.any(alpha < 0):
        raise ValueError("alpha must be non-negative (Wahba's scaling, 0 ≤ α_i ≤ L(y_i)).")
    lam = _check_lam_of(lam, alpha.shape[:-1])
    Kd = _check_K_diag(K_diag, alpha.shape[-1])
    return alpha * np.asarray(Kd) / (2.0 * int(n) * _lam_axis(lam, alpha))


@fill_doc
def gckl(f, p, L=None):
    """Generalized comparative Kullback–Leibler distance (Wahba et al. 2001, eq. 3; non-standard eq. 10).

    GCKL = (1/n) Σ_i {L(+1) p_i (1 − f_i)_+ + L(−1)(1 − p_i)(1 + f_i)_+}: the expected hinge loss at
    the training x's, which GACV estimates; it needs the true p.

    {crit_expected_params}

    See Also
    --------
    misclass : The misclassification rate against the same truth.
    gacv : Its estimate from the data alone.
    """
    f, p, Lm, Lp = _expected_inputs(f, p, L)
    return np.mean(Lp * p * np.maximum(1.0 - f, 0.0) + Lm * (1.0 - p) * np.maximum(1.0 + f, 0.0), axis=-1)


@fill_doc
def misclass(f, p, L=None):
    """Expected misclassification at the training x's (Wahba et al. 2001, eq. 5; BRMISCLASS eq. 12).

    MISCLASS = (1/n) Σ_i {L(+1) p_i [−f_i]_* + L(−1)(1 − p_i)[f_i]_*}: the target every criterion
    tries to track; with non-standard ``L`` it is BRMISCLASS.

    {crit_expected_params}

    See Also
    --------
    gckl : The GCKL against the same truth.
    """
    f, p, Lm, Lp = _expected_inputs(f, p, L)
    return np.mean(Lp * p * step_star(-f) + Lm * (1.0 - p) * step_star(f), axis=-1)


@fill_doc
def gacv(f, y, alpha=None, lam=None, K_diag=None, L=None):
    """Generalized approximate cross validation (Wahba et al. 2001, eq. 4; non-standard eq. 9).

    GACV = (1/n)[Σ L(y_i)ξ_i + 2 Σ_{y_i f_i < −1} L(y_i)θ_i + Σ_{y_i f_i ∈ [−1,1]} L(y_i)θ_i], with
    ξ_i = (1 − y_i f_i)_+ and θ_i = α_i K_ii/(2nλ) (:func:`theta`): a computable proxy of GCKL.

    θ_i = 0 for non-support vectors and every support vector has y_i f_i ≤ 1, so the band
    [−1, 1] is applied as "y_i f_i ≥ −1": margin points (y_i f_i = 1 up to the solver's tolerance)
    always count, whichever side of 1 rounding puts them.

    {crit_solution_params}

    See Also
    --------
    xa : The cheaper approximation ξα of the same GCKL.
    svmviz.tuning.criteria_surface : GACV and the other criteria over a (σ, λ) grid.
    svmviz.tuning.criteria_curves : The criteria along λ for one σ.

    Examples
    --------
    Four points, λ = 0.1, so θ_i = α_i / 0.8:

    >>> import numpy as np
    >>> from svmviz import gacv
    >>> f = np.array([1.2, 0.4, -0.3, -1.5])
    >>> y = np.array([1.0, 1.0, -1.0, 1.0])
    >>> alpha = np.array([0.0, 0.5, 1.0, 1.0])
    >>> float(gacv(f, y, alpha, lam=0.1))  # (0 + (0.6 + 0.625) + (0.7 + 1.25) + (2.5 + 2·1.25)) / 4
    2.04375

    Scored over a whole grid at once (here 2 solutions):

    >>> gacv(np.stack([f, 2 * f]), y, np.stack([alpha, alpha]), lam=np.array([0.1, 0.2])).shape
    (2,)
    """
    f, y, alpha, lam, K_diag, L, n = _solution_problem(f, y, alpha, lam, K_diag, L)
    w = _weights(y, L)
    yf = y * f
    th = theta(alpha, lam, n, K_diag)
    xi = np.maximum(1.0 - yf, 0.0)
    mult = np.where(yf < -1.0, 2.0, 1.0)
    return np.mean(w * (xi + mult * th), axis=-1)


@fill_doc
def xa(f, y, alpha=None, lam=None, K_diag=None, L=None):
    """ξα in Wahba et al.'s form, ρ = 1 and K_ii (Wahba et al. 2001, eq. 7); BRXA (eq. 11) with non-standard ``L``.

    XA = (1/n) Σ_i L(y_i){[−y_i f_i]_* + 1[y_i f_i ∈ (0, θ_i] and y_i f_i ≤ 1]}: the training errors
    plus the points whose leave-one-out fit may flip.

    As in :func:`gacv`, "y_i f_i ≤ 1" holds for every point with θ_i > 0 (a support vector), so it
    is not re-tested against rounding at the margin.

    {crit_solution_params}

    See Also
    --------
    gacv : The generalized approximate cross-validation this approximates.
    xa_joachims : Joachims' ξα with its R² bound.
    svmviz.tuning.criteria_surface : XA and the other criteria over a (σ, λ) grid.
    """
    f, y, alpha, lam, K_diag, L, n = _solution_problem(f, y, alpha, lam, K_diag, L)
    yf = y * f
    th = theta(alpha, lam, n, K_diag)
    count = step_star(-yf) + ((yf > 0.0) & (yf <= th))
    return np.mean(_weights(y, L) * count, axis=-1)


def joachims_R2(K):
    """R² = max_{i,j}(K_ii − K_ij) over the training data, Joachims' bound used by XA (Joachims' R²) (Wahba et al. 2001, eq. 6).

    Parameters
    ----------
    K : array_like of shape (n, n)
        Gram matrix of the training data.

    Returns
    -------
    float
    """
    K = check_matrix(K, "K")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"K must be the square gram matrix of the training data; got shape {K.shape}.")
    return float(np.max(np.diag(K)[:, None] - K))


@fill_doc
def xa_joachims(f, y, alpha, lam, R2, rho=2.0, L=None):
    """Joachims' ξα, XA (Joachims' R²), Wahba et al. 2001, eq. 6: the fraction of points with ξ_i + ρ α_i R²/(2nλ) ≥ 1.

    Parameters
    ----------
    {crit_solution}
    R2 : float or array_like of shape f.shape[:-1]
        R² of each solution's kernel (:func:`joachims_R2`).
    rho : float, default 2.0
        ρ; Joachims used 2, Wahba et al.'s XA corresponds to 1.
    {crit_L}

    Returns
    -------
    ndarray of shape f.shape[:-1] (a float for one solution)

    See Also
    --------
    xa : The ξα of Wahba et al. 2001.
    joachims_R2 : The R² it needs.
    """
    f, y, alpha, lam, _, L, n = _solution_problem(f, y, alpha, lam, None, L)
    rho = check_positive(rho, "rho")
    R2 = np.asarray(R2, dtype=np.float64)
    if not np.all(np.isfinite(R2)) or np.any(R2 < 0):
        raise ValueError("R2 must be finite and non-negative (joachims_R2 of each solution's kernel).")
    if R2.ndim and R2.shape != f.shape[:-1]:
        raise ValueError(f"R2 has shape {R2.shape}; it must be a number or have the solutions' shape {f.shape[:-1]}.")
    xi = np.maximum(1.0 - y * f, 0.0)
    th = rho * theta(alpha, lam, n) * (R2[..., None] if R2.ndim else R2)
    return np.mean(_weights(y, L) * step_star(xi + th - 1.0), axis=-1)


@fill_doc
def loo_misclass(f_loo, y, L=None):
    """Exact leave-one-out misclassification V_0 = (1/n) Σ L(y_i)[−y_i f_i^{[−i]}]_* (Wahba et al. 2001, §4).

    Parameters
    ----------
    f_loo : array_like of shape (..., n)
        Leave-one-out decision values f^{[−i]}(x_i) (:func:`leave_one_out_decisions`).
    y : array_like of shape (n,)
        Labels ±1.
    {crit_L}

    Returns
    -------
    ndarray of shape f_loo.shape[:-1] (a float for one solution)
    """
    f_loo, y, _ = _solution_inputs(f_loo, y, "f_loo")
    L = check_L((1.0, 1.0) if L is None else L)
    return np.mean(_weights(y, L) * step_star(-y * f_loo), axis=-1)


def kfold_folds(y, k=5, seed=0):
    """The fold of every point in k-fold cross-validation: ``StratifiedKFold(k, shuffle=True, random_state=seed)``.

    The convention of the documentation's Conventions page (the folds scikit-learn's ``GridSearchCV`` would use with
    ``cv=StratifiedKFold(k, shuffle=True, random_state=seed)``). The k-fold criterion is then
    CV = (1/n) Σ_i L(y_i)[−y_i f^{[−fold(i)]}(x_i)]_* — :func:`loo_misclass` of the held-out
    decision values — with every fold fitted with the full data's bounds C_i = L(y_i)/(2nλ).

    Parameters
    ----------
    y : array_like of shape (n,)
        Class labels.
    k : int ≥ 2, default 5
        Number of folds; at most the size of the smallest class.
    seed : int ≥ 0, default 0
        ``random_state`` of the shuffle.

    Returns
    -------
    ndarray of int64, shape (n,)
        Fold index 0..k−1 of each point.

    Examples
    --------
    >>> import numpy as np
    >>> from svmviz.criteria import kfold_folds
    >>> folds = kfold_folds(np.r_[-np.ones(6), np.ones(4)], k=2, seed=0)
    >>> np.bincount(folds).tolist()
    [5, 5]
    """
    from sklearn.model_selection import StratifiedKFold

    yy = np.asarray(y).ravel()
    if isinstance(k, bool) or int(k) != k or k < 2:
        raise ValueError(f"k (the number of folds) must be an integer ≥ 2; got {k!r}.")
    if isinstance(seed, bool) or int(seed) != seed or not 0 <= seed < 2**32:
        raise ValueError(f"seed must be an integer in [0, 2**32); got {seed!r}.")
    _, counts = np.unique(yy, return_counts=True)
    if counts.size < 2 or counts.min() < k:
        raise ValueError(f"{int(k)}-fold cross-validation needs at least {int(k)} points of every class; "
                         f"the class sizes are {counts.tolist()}. Use fewer folds or more data.")
    folds = np.empty(yy.size, dtype=np.int64)
    splitter = StratifiedKFold(int(k), shuffle=True, random_state=int(seed))
    for j, (_, held_out) in enumerate(splitter.split(np.zeros((yy.size, 1)), yy)):
        folds[held_out] = j
    return folds


def leave_one_out_decisions(K, y, lam, alpha, b=None, *, L=(1.0, 1.0), tol=1e-3,
                            max_iter=10_000_000):
    """Leave-one-out decision values f_i^{[−i]}(x_i) of Wahba's SVM, refitting support vectors only.

    Parameters
    ----------
    K : array_like of shape (n, n)
        Gram matrix of the training data.
    y : array_like of shape (n,)
        Labels (two classes, mapped to ±1).
    lam : float
        λ > 0.
    alpha : array_like of shape (n,)
        The full-data solution (Wahba's scaling), used as the warm start.
    b : float, optional
        Ignored for non-support vectors' values (they keep the full-data f); kept for symmetry.
    L : pair of float, default (1.0, 1.0)
        (L(−1), L(+1)): the per-sample bounds of every refit.
    tol : float, default 1e-3
        KKT tolerance of each refit.
    max_iter : int, default 10_000_000
        Iteration cap of each refit.

    Returns
    -------
    f_loo : ndarray of shape (n,)
    status : int
        0 if every refit converged.

    Notes
    -----
    Wahba et al. 2001, §4: removing a point with α_i = 0 leaves the solution unchanged, so only the
    support vectors are refitted, each warm-started from the full solution with α_i removed. The
    left-out problem keeps the full data's 1/(2nλ) scaling (the same λ and the same (1/n) factor
    on the remaining terms), which is what makes the non-support-vector shortcut exact.
    """
    K = check_matrix(K, "K")
    n = K.shape[0]
    if K.shape != (n, n):
        raise ValueError(f"K must be the square gram matrix of the training data; got shape {K.shape}.")
    y, _ = check_binary_labels(y, n)
    lam = check_positive(lam, "lam")
    L = check_L(L)
    alpha = np.ascontiguousarray(_check_alpha(alpha, np.zeros(n), y, L))
    tol, max_iter = check_solver_params(tol, max_iter)
    C = _weights(y, L).astype(np.float64)
    f_loo, status = loo_decisions(K, y, 1.0 / (2.0 * n * lam), -np.ones(n), C, alpha,
                                       float(tol), int(max_iter))
    return f_loo, int(status)


def ran_gacv_perturbations(n, n_replicates, sigma_z, kind="gaussian", seed=0):
    """The perturbations Z of the randomized GACV (Wahba 1998, eq. 1.63).

    Parameters
    ----------
    n : int
        Number of training points.
    n_replicates : int ≥ 1
        Number of perturbation vectors.
    sigma_z : float > 0
        Their size σ_z.
    kind : {"gaussian", "bernoulli"}, default "gaussian"
        N(0, σ_z²) entries, or ±σ_z with equal probability.
    seed : int, default 0
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    ndarray of shape (n_replicates, n)
    """
    sigma_z = check_positive(sigma_z, "sigma_z")
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ValueError(f"n must be a positive integer; got {n!r}.")
    n = int(n)
    if int(n_replicates) != n_replicates or n_replicates < 1:
        raise ValueError(f"n_replicates must be a positive integer; got {n_replicates!r}.")
    rng = np.random.default_rng(int(seed))
    if kind == "gaussian":
        return rng.normal(scale=sigma_z, size=(int(n_replicates), n))
    if kind == "bernoulli":
        return sigma_z * np.where(rng.random((int(n_replicates), n)) < 0.5, -1.0, 1.0)
    raise ValueError(f"perturbation must be 'gaussian' or 'bernoulli'; got {kind!r}.")


def perturbed_problem(y, z):
    """Dual data of the SVM with responses s = y + z (Wahba 1998, eq. 1.63): labels sign(s), bounds |s|, p = −1/|s|.

    (1 − s_i f_i)_+ = |s_i| (1/|s_i| − sign(s_i) f_i)_+, a weighted SVM with margins 1/|s_i|
    (|s_i| is floored at 1e-8).

    Parameters
    ----------
    y : array_like of shape (n,)
        Labels ±1.
    z : array_like of shape (n,)
        One perturbation vector.

    Returns
    -------
    y_t : ndarray of shape (n,)
        Labels sign(y + z) (+1 at 0).
    C : ndarray of shape (n,)
        Per-sample bounds |y + z|.
    p : ndarray of shape (n,)
        Linear term −1/|y + z| of the dual.
    """
    z = _values(z, "z")
    y = _pm_labels(y, z.shape[-1], "z", z.shape)
    s = y + z
    a = np.maximum(np.abs(s), 1e-8)
    y_t = np.where(s >= 0, 1.0, -1.0)
    return y_t, a, -1.0 / a


def ran_gacv_E(yf, free=None):
    """Diagonal of E in (Wahba 1998, eq. 1.63): 1 if y_i f_i < −1, ½ if −1 < y_i f_i < 1, 0 otherwise.

    ``free`` marks margin support vectors (0 < α_i < C_i): they sit at y_i f_i = 1 exactly (the
    degenerate point the paper sets aside), so they get 0 whatever rounding makes of y_i f_i.

    Parameters
    ----------
    yf : array_like of shape (..., n)
        Margins y_i f_i.
    free : array_like of bool, shape (..., n), optional
        Margin support vectors.

    Returns
    -------
    ndarray of shape (..., n)
    """
    yf = _values(yf, "yf")
    E = np.where(yf < -1.0, 1.0, np.where(yf < 1.0, 0.5, 0.0))
    if free is not None:
        free = np.asarray(free, dtype=bool)
        try:
            np.broadcast_shapes(free.shape, yf.shape)
        except ValueError:
            raise ValueError(f"free has shape {free.shape} but yf has shape {yf.shape}; they must match.") from None
        E = np.where(free, 0.0, E)
    return E


def ran_gacv_value(f, y, f_perturbed, z, sigma_z, free=None):
    """ranGACV = (1/n) Σ (1 − y_i f_i)_+ + (2/(nσ_z²)) Z'E(f^{Y+Z} − f^Y) (Wahba 1998, eq. 1.63).

    Parameters
    ----------
    f : array_like of shape (..., n)
        Decision values of the fit to y.
    y : array_like of shape (n,)
        Labels ±1.
    f_perturbed : array_like of shape (R, ..., n) or (..., n)
        Decision values of the fit to y + z (one per replicate).
    z : array_like, shape like ``f_perturbed``
        The perturbations.
    sigma_z : float
        Their size σ_z.
    free : array_like of bool, shape (..., n), optional
        Margin support vectors of the fit to y (see :func:`ran_gacv_E`).

    Returns
    -------
    ndarray of shape f_perturbed.shape[:-1]
        One value per replicate (and per solution).
    """
    f, y, n = _solution_inputs(f, y)
    sigma_z = check_positive(sigma_z, "sigma_z")
    fp, z = _values(f_perturbed, "f_perturbed"), _values(z, "z")
    for name, a in (("f_perturbed", fp), ("z", z)):
        if a.shape[-1] != n:
            raise ValueError(f"{name} has shape {a.shape} but f has shape {f.shape}; the last axes (points) must match.")
    if z.shape != fp.shape and z.ndim > 1 and z.shape[-fp.ndim:] != fp.shape[-z.ndim:]:
        raise ValueError(f"z has shape {z.shape} but f_perturbed has shape {fp.shape}; they must match.")
    yf = y * f
    E = ran_gacv_E(yf, free)
    hinge = np.mean(np.maximum(1.0 - yf, 0.0), axis=-1)
    corr = np.sum(z * E * (fp - f), axis=-1)
    return hinge + 2.0 / (n * sigma_z**2) * corr
