"""The criteria-surface engine: criteria surfaces and k-fold cross-validation over a (σ, λ) Gaussian-kernel grid.

Every (σ, λ) is fitted by the warm-started λ-sequence SMO solver (:mod:`svmviz.svm`), one kernel
matrix per σ built inside the compiled solver (without the GIL) from squared distances computed once, the σ values spread
over a pool of threads; the criteria of Wahba, Lin, Lee & Zhang (2001) are then computed from the
fits for the whole grid at once (:mod:`svmviz.criteria`). A grid that would not fit in memory is
refused before anything large is allocated (:func:`svmviz.svm.check_grid_memory`).

Its public names are documented and imported from :mod:`svmviz.tuning`; :func:`grid_minima`,
:func:`check_p_true`, :func:`warn_unconverged` and :func:`replicate_seed` serve :mod:`svmviz.tuning`
and :mod:`svmviz.studies` too.

Shared internal module of svmviz: its names serve the package's other modules; not public API.
"""
from __future__ import annotations

import time
import warnings
from concurrent.futures import as_completed
from typing import Callable, NamedTuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from . import criteria
from ._parallel import task_pool
from ._validation import check_matrix
from .kernels import gram, rbf_from_squared_distances, squared_distances
from .svm import (DEFAULT_MAX_ITER, GRID_ARRAYS, GRID_SHRINKING, check_grid_memory, check_grid_problem,
                  rbf_sigma_loo, rbf_sigma_sequence, sigma_lambda_grid)


class CriteriaSurface(NamedTuple):
    """Criteria over a (σ, λ) grid and the solutions behind them (returned by :func:`criteria_surface`).

    The decision function of any grid point follows from ``alphas`` and ``b`` without refitting
    (:func:`grid_decision_function`).

    Attributes
    ----------
    lambdas : ndarray of shape (m,)
        The λ grid, increasing.
    sigmas : ndarray of shape (k,)
        The Gaussian widths σ, increasing.
    values : dict of str to ndarray of shape (k, m)
        Criterion values: "gacv", "xa" (BRXA when L ≠ (1, 1)), "xa_j", and with the truth "gckl",
        "misclass" (BRMISCLASS); "loo" with ``loo=True``.
    alphas : ndarray of shape (k, m, n)
        Dual coefficients (Wahba's scaling) of every fit.
    b : ndarray of shape (k, m)
        Intercepts.
    f_train : ndarray of shape (k, m, n)
        Training decision values.
    f_loo : ndarray of shape (k, m, n) or None
        Exact leave-one-out decision values (``loo=True``).
    n_sv : ndarray of shape (k, m)
        Number of support vectors.
    status : ndarray of int, shape (k, m)
        0 where the fit (and its leave-one-out refits) converged.
    X : ndarray of shape (n, d)
        The training points.
    y : ndarray of shape (n,)
        Their labels, ±1.
    L : tuple (L(−1), L(+1))
    best : dict of str to (int, int)
        (i_sigma, j_lambda) of the first grid minimizer of each criterion.
    ties : dict of str to ndarray of shape (t, 2)
        Every grid point attaining that minimum (XA is a count: ties are common).
    seconds : dict of str to float
        Wall time of the parts: "fit" (the full-data grid fits), "criteria" (GACV, XA, XA (Joachims' R²), GCKL,
        MISCLASS from them), "loo" (the leave-one-out refits), "kfold" (the k-fold fits).
    """

    lambdas: np.ndarray
    sigmas: np.ndarray
    values: dict
    alphas: np.ndarray
    b: np.ndarray
    f_train: np.ndarray
    f_loo: np.ndarray | None
    n_sv: np.ndarray
    status: np.ndarray
    X: np.ndarray
    y: np.ndarray
    L: tuple
    best: dict
    ties: dict
    seconds: dict | None = None


def check_p_true(p_true, X):
    """``p_true`` as one probability of +1 in [0, 1] per row of ``X`` (Wahba et al. 2001, §3: the
    true p(x) of the non-standard case's GCKL and Bayes-risk criteria).

    Parameters
    ----------
    p_true : None, array-like of shape (n,) or callable
        The probabilities, or a function of ``X`` giving them.
    X : ndarray of shape (n, d)
        The training points.

    Returns
    -------
    ndarray of shape (n,) or None
        The probabilities (None when ``p_true`` is None).

    Raises
    ------
    ValueError
        When there is not one finite probability in [0, 1] per row of ``X``.
    """
    if p_true is None:
        return None
    p = p_true(X) if callable(p_true) else p_true
    p = np.asarray(p, dtype=np.float64).ravel()
    if p.shape[0] != X.shape[0] or not np.all(np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError("p_true must give one probability in [0, 1] per training point.")
    return p


def grid_minima(values: dict, rtol: float = 1e-12):
    """Each 2-D criterion's minimum over the (σ, λ) grid, and every grid point tied with it.

    Parameters
    ----------
    values : dict of str to ndarray
        Criterion name -> values; arrays of shape (k, m) over (σ, λ) are searched, others skipped.
    rtol : float, default 1e-12
        A point ties when it is within ``rtol · max(1, |min|)`` of the minimum.

    Returns
    -------
    best : dict of str to tuple of int
        Criterion -> the first tied (σ index, λ index) in row-major order.
    ties : dict of str to ndarray of shape (t, 2)
        Criterion -> every tied (σ index, λ index).
    """
    best, ties = {}, {}
    for key, V in values.items():
        if V.ndim != 2:
            continue
        vmin = np.nanmin(V)
        tied = np.argwhere(V <= vmin + rtol * max(1.0, abs(vmin)))
        best[key] = (int(tied[0, 0]), int(tied[0, 1]))
        ties[key] = tied
    return best, ties


def warn_unconverged(status, what):
    """One ``ConvergenceWarning`` naming ``what`` when any solve stopped at its iteration limit.

    Parameters
    ----------
    status : array-like of int
        The solves' status codes (0: converged).
    what : str
        The computation named in the warning.

    Returns
    -------
    None
    """
    bad = int(np.sum(np.asarray(status) != 0))
    if bad:
        warnings.warn(f"{what}: {bad} solve(s) hit max_iter before reaching the tolerance; values at "
                      "those grid points are approximate.", ConvergenceWarning, stacklevel=3)


def replicate_seed(seed: int, r: int) -> int:
    """An independent, reproducible seed for repetition ``r`` of a study seeded with ``seed``.

    Parameters
    ----------
    seed : int
        The study's seed.
    r : int
        The repetition.

    Returns
    -------
    int
        The first word of ``numpy.random.SeedSequence([seed, r])``.
    """
    return int(np.random.SeedSequence([int(seed), int(r)]).generate_state(1)[0])


def criteria_surface(X, y, lambdas, sigmas, *, L=(1.0, 1.0), p_true=None, loo: bool = False,
                     kfold: int = 0, kfold_seed: int = 0, xa_rho: float = 2.0, tol: float = 1e-3,
                     max_iter: int = DEFAULT_MAX_ITER, n_threads: int | None = None,
                     progress: Callable | None = None) -> CriteriaSurface:
    """GACV, XA (BRXA), XA (Joachims' R²) and — with the truth — GCKL, (BR)MISCLASS, exact LOO, k-fold CV over (σ, λ).

    Every (σ, λ) is fitted by the warm-started λ-sequence SMO solver on one Gaussian kernel matrix
    per σ, the σ values spread over a pool of threads (:func:`svmviz.svm.fit_sigma_lambda_grid`).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Training points (n ≥ 4).
    y : array_like of shape (n,)
        Labels of two classes (mapped to ±1), at least 2 points each.
    lambdas : array_like of shape (m,)
        Positive λ values.
    sigmas : array_like of shape (k,)
        Positive Gaussian widths σ (K(x, x') = exp(−‖x − x'‖²/(2σ²))).
    L : pair of float, default (1.0, 1.0)
        (L(−1), L(+1)) non-standard weights; (1, 1) standard.
    p_true : callable or array_like of shape (n,), optional
        True P(y = +1 | x) under the sampling distribution (a function of X of shape (n, d), or its
        values at the training points); enables "gckl" and "misclass".
    loo : bool, default False
        Also exact leave-one-out misclassification ("loo"), refitting support vectors only.
    kfold : int, default 0
        k ≥ 2: also k-fold cross-validation misclassification ("kfold", :func:`kfold_cv_surface`)
        with the folds of ``StratifiedKFold(kfold, shuffle=True, random_state=kfold_seed)``.
    kfold_seed : int, default 0
    xa_rho : float, default 2.0
        ρ of XA (Joachims' R²).
    tol : float, default 1e-3
        KKT tolerance of the SMO solver (as libsvm's).
    max_iter : int, default svmviz.svm.DEFAULT_MAX_ITER
        Iteration cap of each solve (a ConvergenceWarning names the grid points that hit it).
    n_threads : int, optional
        Threads the σ values are spread over (default: one per core). Use 1 inside a process that
        already runs one task per core (a Dask worker).
    progress : callable(done, total, message), optional
        Called after each σ (and each leave-one-out or k-fold σ).

    Returns
    -------
    CriteriaSurface
        ``values[key]`` of shape (k, m), the fits behind them, and each criterion's grid minimizer.

    Raises
    ------
    ValueError
        Invalid data or grids (before anything is allocated).

    Notes
    -----
    Wahba, Lin, Lee & Zhang 2001, eqs. (3)–(7) and (9)–(12) (the documentation's References page).

    Examples
    --------
    >>> import numpy as np
    >>> from svmviz import make_dataset, criteria_surface, inefficiency
    >>> ds = make_dataset("wahba2001", n=80, seed=1)
    >>> surf = criteria_surface(ds.X, ds.y, np.logspace(-4, -1, 4), [0.5, 1.0, 2.0], p_true=ds.p_true)
    >>> surf.values["gacv"].shape  # (σ, λ)
    (3, 4)
    >>> sorted(surf.values)
    ['gacv', 'gckl', 'misclass', 'xa', 'xa_j']
    >>> i, j = surf.best["gacv"]  # GACV's choice on the grid
    >>> float(surf.values["gacv"][i, j]) == float(surf.values["gacv"].min())
    True
    >>> inefficiency(surf, "gacv").value >= 1.0  # MISCLASS at GACV's choice / the grid's best MISCLASS
    True
    """
    X, y, lam, sig, (Lm, Lp), C, tol, max_iter, workers = check_grid_problem(X, y, lambdas, sigmas, L, tol,
                                                                              max_iter, n_threads)
    p = check_p_true(p_true, X)
    folds = criteria.kfold_folds(y, kfold, kfold_seed) if kfold else None
    n = X.shape[0]
    check_grid_memory(n, sig.size, lam.size, workers, what="criteria surface", n_by_n_per_thread=2 if kfold else 1,
                      grid_arrays=GRID_ARRAYS + bool(loo) + bool(kfold))
    seconds = {}
    t0 = time.perf_counter()
    D = squared_distances(X)
    pvec = -np.ones(n)
    ns, m = sig.size, lam.size
    total = ns * (1 + (m if loo else 0) + bool(kfold))  # fits per σ, leave-one-out per (σ, λ), k-fold per σ
    fit_progress = None if progress is None else (lambda d, _t, msg: progress(d, total, msg))
    alphas, bs, fs, _, status = sigma_lambda_grid(D, y, lam, sig, C, tol, max_iter, GRID_SHRINKING, fit_progress,
                                                   workers)
    t1 = time.perf_counter()
    seconds["fit"] = t1 - t0
    done = ns
    f_loo = None
    values = {}
    lam_row = lam[None, :]
    values["gacv"] = criteria.gacv(fs, y, alphas, lam_row, 1.0, (Lm, Lp))
    values["xa"] = criteria.xa(fs, y, alphas, lam_row, 1.0, (Lm, Lp))
    R2 = 1.0 - np.exp(-D.max() / (2.0 * sig**2))  # max_ij (K_ii − K_ij) for the Gaussian kernel
    values["xa_j"] = criteria.xa_joachims(fs, y, alphas, lam_row, np.repeat(R2[:, None], m, 1),
                                          rho=xa_rho, L=(Lm, Lp))
    if p is not None:
        values["gckl"] = criteria.gckl(fs, p, (Lm, Lp))
        values["misclass"] = criteria.misclass(fs, p, (Lm, Lp))
    t2 = time.perf_counter()
    seconds["criteria"] = t2 - t1
    if loo:
        f_loo = np.empty((ns, m, n))
        loo_status = np.empty((ns, m), dtype=np.int64)
        # one task per (σ, λ) — the same kernel call on one λ, identical results — so that progress
        # and Cancel come every few seconds (one σ's λ values take minutes at n = 2000)
        with task_pool(workers) as pool:
            futures = {pool.submit(rbf_sigma_loo, D, float(sig[q]), y, lam[j:j + 1], C, pvec,
                                   np.ascontiguousarray(alphas[q, j:j + 1]), tol, max_iter): (q, j)
                       for q in range(ns) for j in range(m)}
            for fut in as_completed(futures):
                q, j = futures[fut]
                f_one, st_one = fut.result()
                f_loo[q, j], loo_status[q, j] = f_one[0], st_one[0]
                done += 1
                if progress is not None:
                    progress(done, total, f"leave-one-out {done - ns}/{ns * m} grid points")
        values["loo"] = criteria.loo_misclass(f_loo, y, (Lm, Lp))
        status = np.maximum(status, loo_status)
        seconds["loo"] = time.perf_counter() - t2
    if kfold:
        t3 = time.perf_counter()
        cv_progress = None if progress is None else (
            lambda d, _t, msg: progress(done + d, total, msg))
        f_cv, cv_status = _kfold_grid(D, y, lam, sig, C, folds, tol, max_iter, workers, cv_progress)
        values["kfold"] = criteria.loo_misclass(f_cv, y, (Lm, Lp))  # the same pooled count, held-out folds
        status = np.maximum(status, cv_status)
        seconds["kfold"] = time.perf_counter() - t3
    warn_unconverged(status, "criteria_surface")
    best, ties = grid_minima(values)
    n_sv = np.sum(alphas > 0, axis=-1)
    return CriteriaSurface(lam, sig, values, alphas, bs, fs, f_loo, n_sv, status, X, y, (Lm, Lp), best, ties,
                           seconds)


def _kfold_sigma(D, sigma, y, lam, C, folds, tol, max_iter):
    """Held-out decision values of every λ for one σ: each fold a warm-started λ sequence whose
    bounds are the full data's, C_i/(2nλ) (λ rescaled by n/n_train for the fold's n_train points)."""
    n, m = y.size, lam.size
    f = np.empty((m, n))
    status = np.zeros(m, dtype=np.int64)
    for j in range(int(folds.max()) + 1):
        te = np.flatnonzero(folds == j)
        tr = np.flatnonzero(folds != j)
        ntr = tr.size
        a, b, _, _, st = rbf_sigma_sequence(np.ascontiguousarray(D[np.ix_(tr, tr)]), float(sigma), y[tr],
                                                 lam * (n / ntr), C[tr], -np.ones(ntr), tol, max_iter, GRID_SHRINKING)
        K_te = rbf_from_squared_distances(D[np.ix_(te, tr)], sigma)
        f[:, te] = ((a * y[tr]) @ K_te.T) / (2.0 * n * lam[:, None]) + b[:, None]
        status = np.maximum(status, st)
    return f, status


def _kfold_grid(D, y, lam, sig, C, folds, tol, max_iter, workers, progress=None):
    ns, m, n = sig.size, lam.size, y.size
    f_cv = np.empty((ns, m, n))
    status = np.empty((ns, m), dtype=np.int64)
    done = 0
    with task_pool(workers) as pool:
        futures = {pool.submit(_kfold_sigma, D, float(sig[q]), y, lam, C, folds, tol, max_iter): q
                   for q in range(ns)}
        for fut in as_completed(futures):
            q = futures[fut]
            f_cv[q], status[q] = fut.result()
            done += 1
            if progress is not None:
                progress(done, ns, f"k-fold cross-validation {done}/{ns} σ values")
    return f_cv, status


class KFoldSurface(NamedTuple):
    """k-fold cross-validation over a (σ, λ) grid (returned by :func:`kfold_cv_surface`).

    Attributes
    ----------
    lambdas : ndarray of shape (m,)
    sigmas : ndarray of shape (k,)
    values : ndarray of shape (k, m)
        CV = (1/n) Σ_i L(y_i)[−y_i f^{[−fold(i)]}(x_i)]_*.
    f_cv : ndarray of shape (k, m, n)
        Held-out decision values f^{[−fold(i)]}(x_i).
    folds : ndarray of int64, shape (n,)
        Fold of each point (:func:`svmviz.criteria.kfold_folds`).
    status : ndarray of int, shape (k, m)
        0 where every fold's solve converged.
    """

    lambdas: np.ndarray
    sigmas: np.ndarray
    values: np.ndarray
    f_cv: np.ndarray
    folds: np.ndarray
    status: np.ndarray


def kfold_cv_surface(X, y, lambdas, sigmas, *, k: int = 5, seed: int = 0, L=(1.0, 1.0), tol: float = 1e-3,
                     max_iter: int = DEFAULT_MAX_ITER, n_threads: int | None = None,
                     progress: Callable | None = None) -> KFoldSurface:
    """k-fold cross-validation misclassification of Wahba's SVM over a (σ, λ) grid (Stone 1974).

    Folds from ``StratifiedKFold(k, shuffle=True, random_state=seed)``; each fold is fitted with the
    full data's bounds C_i = L(y_i)/(2nλ) — scikit-learn's ``SVC(C=1/(2nλ))`` on the fold's training
    points, as ``GridSearchCV`` does — by the warm-started λ-sequence SMO solver (every λ of a σ
    warm-started from the previous one), one kernel matrix per fold and σ.

    Parameters
    ----------
    X : array_like of shape (n, d)
    y : array_like of shape (n,)
        Labels of two classes (mapped to ±1), at least k points each.
    lambdas : array_like of shape (m,)
        Positive λ values.
    sigmas : array_like of shape (q,)
        Positive Gaussian widths σ.
    k : int ≥ 2, default 5
    seed : int, default 0
        ``random_state`` of the folds.
    L : pair of float, default (1.0, 1.0)
        (L(−1), L(+1)).
    tol, max_iter : as in :func:`criteria_surface`.
    n_threads : int, optional
        Threads the σ values are spread over (default: one per core).
    progress : callable(done, total, message), optional
        Called after each σ.

    Returns
    -------
    KFoldSurface
        ``values`` of shape (q, m): the pooled misclassification (1/n) Σ_i L(y_i)[−y_i f^{[−fold(i)]}_i]_*.

    Notes
    -----
    With equal fold sizes the pooled rate equals ``1 − mean_test_score`` of
    ``GridSearchCV(SVC(C=1/(2nλ), gamma=1/(2σ²)), cv=StratifiedKFold(k, shuffle=True, random_state=seed))``;
    with unequal sizes it is their size-weighted mean (a test checks both).

    Examples
    --------
    >>> import numpy as np
    >>> from svmviz import make_dataset
    >>> from svmviz.tuning import kfold_cv_surface
    >>> ds = make_dataset("wahba2001", n=60, seed=0)
    >>> cv = kfold_cv_surface(ds.X, ds.y, np.logspace(-4, -1, 4), [0.5, 1.0, 2.0], k=5, seed=0)
    >>> cv.values.shape, np.bincount(cv.folds).tolist()
    ((3, 4), [12, 12, 12, 12, 12])
    """
    X, y, lam, sig, (Lm, Lp), C, tol, max_iter, workers = check_grid_problem(X, y, lambdas, sigmas, L, tol,
                                                                              max_iter, n_threads)
    folds = criteria.kfold_folds(y, k, seed)
    check_grid_memory(X.shape[0], sig.size, lam.size, workers, what="k-fold surface", n_by_n_per_thread=2,
                      grid_arrays=2)
    f_cv, status = _kfold_grid(squared_distances(X), y, lam, sig, C, folds, tol, max_iter, workers, progress)
    warn_unconverged(status, "kfold_cv_surface")
    return KFoldSurface(lam, sig, criteria.loo_misclass(f_cv, y, (Lm, Lp)), f_cv, folds, status)


def grid_decision_function(surface: CriteriaSurface, i_sigma: int, j_lambda: int, Xq) -> np.ndarray:
    """Decision values at ``Xq`` of the solution at grid point (σ_i, λ_j) — no refit.

    f(x) = Σ_k y_k α_k K_σ(x_k, x)/(2nλ) + b (Wahba et al. 2001, eq. 2).

    Parameters
    ----------
    surface : CriteriaSurface
    i_sigma : int
        Index into ``surface.sigmas``.
    j_lambda : int
        Index into ``surface.lambdas``.
    Xq : array_like of shape (q, d)
        Query points.

    Returns
    -------
    ndarray of shape (q,)
    """
    Xq = check_matrix(Xq, "Xq")
    a = surface.alphas[i_sigma, j_lambda]
    sv = a > 0
    n = surface.y.shape[0]
    c = surface.y[sv] * a[sv] / (2.0 * n * surface.lambdas[j_lambda])
    if not np.any(sv):
        return np.full(Xq.shape[0], surface.b[i_sigma, j_lambda])
    return gram(Xq, surface.X[sv], sigma=surface.sigmas[i_sigma]) @ c + surface.b[i_sigma, j_lambda]
