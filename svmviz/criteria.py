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

from . import _smo
from ._docs import fill_doc
from ._validation import check_binary_labels, check_matrix, check_positive


def _weights(y, L):
    Lm, Lp = float(L[0]), float(L[1])
    return np.where(np.asarray(y) > 0, Lp, Lm)


def _expected_inputs(f, p, L):
    """f and p as float arrays and (L(−1), L(+1)) as floats: the inputs of GCKL and MISCLASS, which
    weigh a loss of both labels at each x by the true p."""
    return np.asarray(f, dtype=np.float64), np.asarray(p, dtype=np.float64), float(L[0]), float(L[1])


def _solution_inputs(f, y):
    """f and y as float arrays and n: the inputs of the criteria of a fitted solution."""
    y = np.asarray(y, dtype=np.float64)
    return np.asarray(f, dtype=np.float64), y, y.shape[0]


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
    return (np.asarray(tau) >= 0).astype(np.float64)


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
    alpha = np.asarray(alpha, dtype=np.float64)
    return alpha * np.asarray(K_diag) / (2.0 * n * _lam_axis(lam, alpha))


@fill_doc
def gckl(f, p, L=(1.0, 1.0)):
    """Generalized comparative Kullback–Leibler distance (Wahba et al. 2001, eq. 3; non-standard eq. 10).

    GCKL = (1/n) Σ_i {L(+1) p_i (1 − f_i)_+ + L(−1)(1 − p_i)(1 + f_i)_+}: the expected hinge loss at
    the training x's, which GACV estimates; it needs the true p.

    {crit_expected_params}
    """
    f, p, Lm, Lp = _expected_inputs(f, p, L)
    return np.mean(Lp * p * np.maximum(1.0 - f, 0.0) + Lm * (1.0 - p) * np.maximum(1.0 + f, 0.0), axis=-1)


@fill_doc
def misclass(f, p, L=(1.0, 1.0)):
    """Expected misclassification at the training x's (Wahba et al. 2001, eq. 5; BRMISCLASS eq. 12).

    MISCLASS = (1/n) Σ_i {L(+1) p_i [−f_i]_* + L(−1)(1 − p_i)[f_i]_*}: the target every criterion
    tries to track; with non-standard ``L`` it is BRMISCLASS.

    {crit_expected_params}
    """
    f, p, Lm, Lp = _expected_inputs(f, p, L)
    return np.mean(Lp * p * step_star(-f) + Lm * (1.0 - p) * step_star(f), axis=-1)


@fill_doc
def gacv(f, y, alpha, lam, K_diag=1.0, L=(1.0, 1.0)):
    """Generalized approximate cross validation (Wahba et al. 2001, eq. 4; non-standard eq. 9).

    GACV = (1/n)[Σ L(y_i)ξ_i + 2 Σ_{y_i f_i < −1} L(y_i)θ_i + Σ_{y_i f_i ∈ [−1,1]} L(y_i)θ_i], with
    ξ_i = (1 − y_i f_i)_+ and θ_i = α_i K_ii/(2nλ) (:func:`theta`): a computable proxy of GCKL.

    θ_i = 0 for non-support vectors and every support vector has y_i f_i ≤ 1, so the band
    [−1, 1] is applied as "y_i f_i ≥ −1": margin points (y_i f_i = 1 up to the solver's tolerance)
    always count, whichever side of 1 rounding puts them.

    {crit_solution_params}

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
    f, y, n = _solution_inputs(f, y)
    w = _weights(y, L)
    yf = y * f
    th = theta(alpha, lam, n, K_diag)
    xi = np.maximum(1.0 - yf, 0.0)
    mult = np.where(yf < -1.0, 2.0, 1.0)
    return np.mean(w * (xi + mult * th), axis=-1)


@fill_doc
def xa(f, y, alpha, lam, K_diag=1.0, L=(1.0, 1.0)):
    """ξα in Wahba et al.'s form, ρ = 1 and K_ii (Wahba et al. 2001, eq. 7); BRXA (eq. 11) with non-standard ``L``.

    XA = (1/n) Σ_i L(y_i){[−y_i f_i]_* + 1[y_i f_i ∈ (0, θ_i] and y_i f_i ≤ 1]}: the training errors
    plus the points whose leave-one-out fit may flip.

    As in :func:`gacv`, "y_i f_i ≤ 1" holds for every point with θ_i > 0 (a support vector), so it
    is not re-tested against rounding at the margin.

    {crit_solution_params}
    """
    f, y, n = _solution_inputs(f, y)
    yf = y * f
    th = theta(alpha, lam, n, K_diag)
    count = step_star(-yf) + ((yf > 0.0) & (yf <= th))
    return np.mean(_weights(y, L) * count, axis=-1)


def joachims_R2(K):
    """R² = max_{i,j}(K_ii − K_ij) over the training data, Joachims' bound used by XA_J (Wahba et al. 2001, eq. 6).

    Parameters
    ----------
    K : array_like of shape (n, n)
        Gram matrix of the training data.

    Returns
    -------
    float
    """
    K = np.asarray(K, dtype=np.float64)
    return float(np.max(np.diag(K)[:, None] - K))


@fill_doc
def xa_joachims(f, y, alpha, lam, R2, rho=2.0, L=(1.0, 1.0)):
    """Joachims' ξα, XA_J (Wahba et al. 2001, eq. 6): the fraction of points with ξ_i + ρ α_i R²/(2nλ) ≥ 1.

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
    """
    f, y, n = _solution_inputs(f, y)
    xi = np.maximum(1.0 - y * f, 0.0)
    R2 = np.asarray(R2, dtype=np.float64)
    th = rho * theta(alpha, lam, n) * (R2[..., None] if R2.ndim else R2)
    return np.mean(_weights(y, L) * step_star(xi + th - 1.0), axis=-1)


@fill_doc
def loo_misclass(f_loo, y, L=(1.0, 1.0)):
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
    y = np.asarray(y, dtype=np.float64)
    return np.mean(_weights(y, L) * step_star(-y * np.asarray(f_loo)), axis=-1)


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
    y, _ = check_binary_labels(y, n)
    lam = check_positive(lam, "lam")
    alpha = np.ascontiguousarray(np.asarray(alpha, dtype=np.float64))
    C = _weights(y, L).astype(np.float64)
    f_loo, status = _smo.loo_decisions(K, y, 1.0 / (2.0 * n * lam), -np.ones(n), C, alpha,
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
    s = np.asarray(y, dtype=np.float64) + np.asarray(z, dtype=np.float64)
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
    E = np.where(yf < -1.0, 1.0, np.where(yf < 1.0, 0.5, 0.0))
    if free is not None:
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
    yf = y * f
    E = ran_gacv_E(yf, free)
    hinge = np.mean(np.maximum(1.0 - yf, 0.0), axis=-1)
    corr = np.sum(np.asarray(z) * E * (np.asarray(f_perturbed) - f), axis=-1)
    return hinge + 2.0 / (n * sigma_z**2) * corr
