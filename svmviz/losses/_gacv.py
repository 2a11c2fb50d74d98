"""Exact GACV, randomized GACV and exact leave-one-out along λ for one σ, standard SVM (gacv_curves).

Wahba et al. 2001, eq. 4 (GACV); Wahba 1998, eq. 1.63 (randomized GACV). Private module: import the names from :mod:`svmviz.losses`.
"""
from __future__ import annotations

import warnings
from typing import Callable, NamedTuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .._docs import fill_doc
from .._validation import check_binary_labels, check_kernel_memory, check_matrix, check_positive


@fill_doc
class GacvCurves(NamedTuple):
    """What :func:`gacv_curves` returns: the standard SVM's criteria along λ for one σ.

    Attributes
    ----------
    {curve_attrs}
    values : dict of str to ndarray of shape (m,)
        "gacv" (exact, Wahba et al. 2001, eq. 4), "rangacv" (mean over replicates, Wahba 1998,
        eq. 1.63), "loo_hinge" (V_0 of Wahba 1998, eq. 1.34, with g = hinge: what GACV estimates),
        "loo" (leave-one-out misclassification), "gckl" and "misclass" when the truth p is known,
        "hinge_obs" (OBS, Wahba 1998, eq. 1.36).
    rangacv_replicates : ndarray of shape (R, m) or None
    best : dict of str to int
        Index of each criterion's minimum along λ.
    n_sv : ndarray of shape (m,)
        Number of support vectors.
    status : int
        0 if every fit and refit converged.
    """

    lambdas: np.ndarray
    sigma: float
    values: dict
    rangacv_replicates: np.ndarray | None
    best: dict
    n_sv: np.ndarray
    status: int


@fill_doc
def gacv_curves(X, y, lambdas, sigma, *, p_true=None, loo: bool = True, ran_gacv_replicates: int = 5,
                sigma_z: float = 0.1, perturbation: str = "gaussian", seed: int = 0, tol: float = 1e-3,
                progress: Callable | None = None) -> GacvCurves:
    """Exact GACV, randomized GACV and exact leave-one-out (hinge and misclassification) along λ.

    Parameters
    ----------
    {curve_problem}
    p_true : callable or array_like of shape (n,), optional
        P(y = +1 | x_i), for GCKL and MISCLASS.
    loo : bool, default True
        Also exact leave-one-out (refits support vectors only, warm-started).
    ran_gacv_replicates : int ≥ 0, default 5
        Number of perturbation vectors Z (0 = no ranGACV).
    sigma_z : float > 0, default 0.1
        Perturbation size.
    perturbation : {"gaussian", "bernoulli"}, default "gaussian"
    seed : int, default 0
        Seed of the perturbations (the same Z for every λ).
    tol : float, default 1e-3
        KKT tolerance of the SMO solver.
    progress : callable(done, total, message), optional

    Returns
    -------
    GacvCurves

    Notes
    -----
    (Wahba 1998, eq. 1.34) (V_0), (Wahba 1998, eq. 1.63) (ranGACV); (Wahba et al. 2001, eq. 4)
    (GACV). The fits and ranGACV come from :func:`svmviz.tuning.criteria_curves`; the
    leave-one-out decision values from :func:`svmviz.criteria.leave_one_out_decisions`, from which
    both V_0 with g = (1 − τ)_+ and the leave-one-out misclassification are formed.
    """
    from .. import criteria
    from ..kernels import gram
    from ..tuning import criteria_curves

    X = check_matrix(X, "X", min_rows=4)
    y_pm, _ = check_binary_labels(y, X.shape[0], min_per_class=2)
    sigma = check_positive(sigma, "sigma")
    check_kernel_memory(X.shape[0], what="gacv_curves", copies=2)  # K and its check
    R = ran_gacv_replicates
    if isinstance(R, bool) or int(R) != R or R < 0:
        raise ValueError(f"ran_gacv_replicates must be a whole number ≥ 0; got {R!r}.")
    R = int(R)
    n = X.shape[0]
    m = int(np.size(lambdas))
    total = 1 + R + (m if loo else 0)
    step = None if progress is None else (lambda d, t, msg: progress(d, total, msg))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        cc = criteria_curves(X, y_pm, lambdas, sigma, p_true=p_true, loo=False, ran_gacv_replicates=R,
                             sigma_z=sigma_z, perturbation=perturbation, seed=int(seed), tol=tol, progress=step)
    status = int(any(issubclass(w.category, ConvergenceWarning) for w in caught))
    values = {k: np.asarray(v, dtype=np.float64) for k, v in cc.values.items() if k != "xa_j"}
    values["hinge_obs"] = np.mean(np.maximum(1.0 - y_pm[None, :] * cc.f_train, 0.0), axis=1)
    if loo:
        K = gram(X, sigma=sigma)
        f_loo = np.empty((m, n))
        for j in range(m):
            f_loo[j], st = criteria.leave_one_out_decisions(K, y_pm, float(cc.lambdas[j]), cc.alphas[j], cc.b[j],
                                                            tol=tol)
            status = max(status, int(st != 0))
            if progress is not None:
                progress(1 + R + j + 1, total, f"leave-one-out at λ {j + 1}/{m}")
        values["loo_hinge"] = np.mean(np.maximum(1.0 - y_pm[None, :] * f_loo, 0.0), axis=1)
        values["loo"] = criteria.loo_misclass(f_loo, y_pm)
    if status:
        warnings.warn(f"some SVM fits along λ did not converge (σ = {sigma:g}); the curves near them are "
                      "approximate — raise the tolerance or narrow the λ range.", ConvergenceWarning, stacklevel=2)
    best = {k: int(np.nanargmin(v)) for k, v in values.items()}
    n_sv = np.sum(cc.alphas > 0.0, axis=1)
    return GacvCurves(np.asarray(cc.lambdas), float(sigma), values, cc.rangacv_replicates, best, n_sv, status)
