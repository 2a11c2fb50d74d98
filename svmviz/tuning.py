"""(λ, σ) criteria surfaces, λ curves with randomized GACV, and inefficiencies (Wahba et al. 2001).

All fits run on the warm-started λ-sequence SMO solver, one Gaussian kernel matrix per σ, in
parallel over σ on a pool of threads (the compiled solver releases the GIL), and progress is reported
through an optional callback ``progress(done, total, message)``. The (σ, λ) surface engine
(:func:`criteria_surface`, :func:`kfold_cv_surface`, :func:`grid_decision_function`) lives in
the shared internal module ``svmviz._surface`` and is importable from here.
"""
from __future__ import annotations

import time
from typing import Callable, NamedTuple

import numpy as np

from . import criteria
from ._docs import fill_doc
# the criteria-surface engine lives in svmviz/_surface.py; its public names are importable from here
from ._surface import (CriteriaSurface, KFoldSurface, check_p_true, criteria_surface,  # noqa: F401
                       grid_decision_function, kfold_cv_surface, replicate_seed, warn_unconverged)
from ._validation import check_binary_labels, check_matrix, check_positive
from .kernels import gram
from .svm import lambda_sequence
from ._validation import check_L as _check_L
from ._validation import check_lambdas as _check_lambdas
from ._validation import check_solver_params as _check_solver_params
from .svm import DEFAULT_MAX_ITER, GRID_SHRINKING  # the grid engine's one setting: curves equal surfaces

#: the criteria a surface can hold, with their names in the standard / non-standard case
CRITERIA_NAMES = {
    "gacv": ("GACV", "GACV"),
    "xa": ("XA (ξα)", "BRXA"),
    "xa_j": ("XA (Joachims' R²)", "XA (Joachims' R²)"),
    "gckl": ("GCKL", "GCKL"),
    "misclass": ("MISCLASS", "BRMISCLASS"),
    "loo": ("exact LOO", "exact LOO (BR)"),
    "rangacv": ("ranGACV", "ranGACV"),
    "kfold": ("k-fold CV", "k-fold CV (BR)"),
}


def criterion_label(key: str, L=(1.0, 1.0)) -> str:
    """Display name of a criterion: XA becomes BRXA and MISCLASS BRMISCLASS when L ≠ (1, 1).

    Parameters
    ----------
    key : str
        A key of :data:`CRITERIA_NAMES` ("gacv", "xa", "xa_j", "gckl", "misclass", "loo", "rangacv").
    L : pair of float, default (1.0, 1.0)
        (L(−1), L(+1)).

    Returns
    -------
    str
    """
    if key not in CRITERIA_NAMES:
        raise ValueError(f"unknown criterion {key!r}; choose one of {', '.join(CRITERIA_NAMES)}.")
    std, nonstd = CRITERIA_NAMES[key]
    return std if _check_L(L) == (1.0, 1.0) else nonstd


@fill_doc
class CriteriaCurves(NamedTuple):
    """Criteria along λ for one σ (returned by :func:`criteria_curves`).

    Attributes
    ----------
    {curve_attrs}
    values : dict of str to ndarray of shape (m,)
        As in :class:`CriteriaSurface`, plus "rangacv" (mean over the replicates) when requested.
    rangacv_replicates : ndarray of shape (R, m) or None
        One ranGACV curve per perturbation.
    best : dict of str to int
        Index of each criterion's minimum along λ.
    alphas : ndarray of shape (m, n)
    b : ndarray of shape (m,)
    f_train : ndarray of shape (m, n)
    """

    lambdas: np.ndarray
    sigma: float
    values: dict
    rangacv_replicates: np.ndarray | None
    best: dict
    alphas: np.ndarray
    b: np.ndarray
    f_train: np.ndarray


def ran_gacv(K, y, lambdas, *, n_replicates: int = 5, sigma_z: float = 0.1, perturbation: str = "gaussian",
             seed: int = 0, tol: float = 1e-3, max_iter: int = DEFAULT_MAX_ITER,
             progress: Callable | None = None):
    """Randomized GACV along λ for one kernel matrix (Wahba 1998, eq. 1.63).

    The same perturbation Z is used for every λ; each replicate solves the SVM with responses
    y + z (a weighted SVM: labels sign(y + z), bounds |y + z|, linear term −1/|y + z|).

    Parameters
    ----------
    K : array_like of shape (n, n)
        Gram matrix of the training data.
    y : array_like of shape (n,)
        Labels of two classes (mapped to ±1).
    lambdas : array_like of shape (m,)
        Positive λ values.
    n_replicates : int, default 5
        Number of perturbation vectors Z.
    sigma_z : float, default 0.1
        Size of the perturbations.
    perturbation : {"gaussian", "bernoulli"}, default "gaussian"
    seed : int, default 0
        Seed of the perturbations.
    tol : float, default 1e-3
        KKT tolerance of the SMO solver.
    max_iter : int, default svmviz.svm.DEFAULT_MAX_ITER
    progress : callable(done, total, message), optional
        Called after each replicate.

    Returns
    -------
    ndarray of shape (n_replicates, m)
        One ranGACV curve per replicate (average them).
    """
    K = check_matrix(K, "K")
    n = K.shape[0]
    y, _ = check_binary_labels(y, n)
    lam = _check_lambdas(lambdas)
    tol, max_iter = _check_solver_params(tol, max_iter)
    sigma_z = check_positive(sigma_z, "sigma_z")
    Z = criteria.ran_gacv_perturbations(n, n_replicates, sigma_z, perturbation, seed)
    ones = np.ones(n)
    alphas, _, f, _, st = lambda_sequence(K, y, lam, ones, -ones, np.zeros(n), tol, max_iter, GRID_SHRINKING)
    warn_unconverged(st, "ran_gacv")
    free = (alphas > 0.0) & (alphas < 1.0)
    out = np.empty((Z.shape[0], lam.size))
    for r in range(Z.shape[0]):
        y_t, C_t, p_t = criteria.perturbed_problem(y, Z[r])
        _, _, f_pert, _, st = lambda_sequence(K, y_t, lam, C_t, p_t, np.zeros(n), tol, max_iter, GRID_SHRINKING)
        warn_unconverged(st, "ran_gacv (perturbed fit)")
        out[r] = criteria.ran_gacv_value(f, y, f_pert, Z[r], sigma_z, free)
        if progress is not None:
            progress(r + 1, Z.shape[0], f"ranGACV replicate {r + 1}/{Z.shape[0]}")
    return out


@fill_doc
def criteria_curves(X, y, lambdas, sigma, *, L=(1.0, 1.0), p_true=None, loo: bool = False,
                    ran_gacv_replicates: int = 0, sigma_z: float = 0.1, perturbation: str = "gaussian",
                    seed: int = 0, tol: float = 1e-3, max_iter: int = DEFAULT_MAX_ITER,
                    progress: Callable | None = None) -> CriteriaCurves:
    """The criteria of :func:`criteria_surface` along λ for one σ, plus the randomized GACV.

    Parameters
    ----------
    {curve_problem}
    L : pair of float, default (1.0, 1.0)
        (L(−1), L(+1)).
    p_true : callable or array_like of shape (n,), optional
        True P(y = +1 | x); enables "gckl" and "misclass".
    loo : bool, default False
        Also exact leave-one-out ("loo").
    ran_gacv_replicates : int, default 0
        Number of ranGACV replicates (0: none). Standard SVM only: the randomized GACV of Wahba 1998
        is defined for L ≡ 1.
    sigma_z : float, default 0.1
    perturbation : {"gaussian", "bernoulli"}, default "gaussian"
    seed : int, default 0
        Seed of the perturbations.
    tol : float, default 1e-3
    max_iter : int, default svmviz.svm.DEFAULT_MAX_ITER
    progress : callable(done, total, message), optional

    Returns
    -------
    CriteriaCurves
        ``values["rangacv"]`` is the mean over the replicates.
    """
    sigma = check_positive(sigma, "sigma")
    if isinstance(ran_gacv_replicates, bool) or int(ran_gacv_replicates) != ran_gacv_replicates \
            or ran_gacv_replicates < 0:
        raise ValueError(f"ran_gacv_replicates must be a non-negative integer; got {ran_gacv_replicates!r}.")
    if ran_gacv_replicates and _check_L(L) != (1.0, 1.0):
        raise ValueError("the randomized GACV is defined for the standard SVM only (L(−1) = L(+1) = 1); "
                         "set ran_gacv_replicates=0 for the non-standard case.")
    surf = criteria_surface(X, y, lambdas, [sigma], L=L, p_true=p_true, loo=loo, tol=tol,
                            max_iter=max_iter, progress=None)
    if progress is not None:
        progress(1, 1 + ran_gacv_replicates, "fitted")
    values = {k: v[0] for k, v in surf.values.items()}
    reps = None
    if ran_gacv_replicates:
        K = gram(surf.X, sigma=sigma)
        step = None if progress is None else (lambda d, t, msg: progress(1 + d, 1 + t, msg))
        reps = ran_gacv(K, surf.y, surf.lambdas, n_replicates=int(ran_gacv_replicates), sigma_z=sigma_z,
                        perturbation=perturbation, seed=seed, tol=tol, max_iter=max_iter, progress=step)
        values["rangacv"] = reps.mean(axis=0)
    best = {k: int(np.nanargmin(v)) for k, v in values.items()}
    return CriteriaCurves(surf.lambdas, sigma, values, reps, best, surf.alphas[0], surf.b[0], surf.f_train[0])


class GridEdge(NamedTuple):
    """A grid minimizer that lies on the grid's edge: the optimum may lie beyond the grid.

    Attributes
    ----------
    axis : int
        The grid axis (0 for σ and 1 for λ on a :class:`CriteriaSurface`; 0 on a 1-D grid).
    side : str
        "low" (the axis' first value) or "high" (its last).
    """

    axis: int
    side: str


def grid_edges(index, shape) -> tuple[GridEdge, ...]:
    """The edges of a grid of ``shape`` on which the grid point ``index`` lies.

    An axis of a single value has no edge (nothing lies beyond it on the grid).

    Parameters
    ----------
    index : int or tuple of int
        The grid point, one index per axis.
    shape : int or tuple of int
        The grid's shape.

    Returns
    -------
    tuple of GridEdge
        One per axis along which ``index`` is the first or the last value; empty inside the grid.

    Raises
    ------
    ValueError
        ``index`` and ``shape`` differ in length, or an index lies outside the grid.
    """
    index = (index,) if np.ndim(index) == 0 else tuple(index)
    shape = (shape,) if np.ndim(shape) == 0 else tuple(shape)
    if len(index) != len(shape):
        raise ValueError(f"index {index} and grid shape {shape} have different numbers of axes.")
    out = []
    for ax, (i, m) in enumerate(zip(index, shape)):
        i, m = int(i), int(m)
        if m < 1 or not 0 <= i < m:
            raise ValueError(f"index {i} lies outside axis {ax} of {m} grid points.")
        if m > 1 and i == 0:
            out.append(GridEdge(ax, "low"))
        elif m > 1 and i == m - 1:
            out.append(GridEdge(ax, "high"))
    return tuple(out)


def surface_edges(surface: CriteriaSurface, keys=None) -> dict:
    """The criteria of ``surface`` whose grid minimizer lies on the (σ, λ) grid's edge.

    Parameters
    ----------
    surface : CriteriaSurface
        From :func:`criteria_surface`.
    keys : sequence of str, optional
        The criteria looked at (default: every criterion of ``surface.best``).

    Returns
    -------
    dict of str to tuple of GridEdge
        Criterion → the edges on which every one of its tied grid minimizers lies (axis 0 is σ,
        axis 1 is λ); only the criteria with at least one edge. A minimum attained inside the grid
        too (a valley reaching the edge, a flat surface) is not on the edge.
    """
    shape = (len(surface.sigmas), len(surface.lambdas))
    keys = list(surface.best) if keys is None else list(keys)
    out = {}
    for k in keys:
        if k not in surface.best:
            raise ValueError(f"the surface holds no criterion {k!r}; it has {', '.join(surface.best)}.")
        tied = surface.ties.get(k, np.array([surface.best[k]]))
        common = set(grid_edges(surface.best[k], shape))
        for point in tied:
            common &= set(grid_edges(tuple(point), shape))
        edges = tuple(e for e in grid_edges(surface.best[k], shape) if e in common)
        if edges:
            out[k] = edges
    return out


def extended_range(lo: float, hi: float, side: str, *, by: float = 1.0, limits=(-np.inf, np.inf)) -> tuple:
    """The range (lo, hi) moved ``by`` past its ``side`` end, within ``limits``: the grid past an edge.

    Parameters
    ----------
    lo, hi : float
        The range's ends, lo < hi (log10 units on the tuning grids).
    side : {"low", "high"}
        The end that is pushed out.
    by : float, default 1.0
        How far (> 0).
    limits : pair of float, default (−inf, inf)
        The widest range allowed.

    Returns
    -------
    tuple of (float, float)
        The new (lo, hi); equal to the old one when that end already is at its limit.
    """
    lo, hi, by = float(lo), float(hi), float(by)
    if not lo < hi:
        raise ValueError(f"the range needs lo < hi; got ({lo}, {hi}).")
    if not by > 0:
        raise ValueError(f"by must be > 0; got {by}.")
    if side == "low":
        return max(lo - by, float(limits[0])), hi
    if side == "high":
        return lo, min(hi + by, float(limits[1]))
    raise ValueError(f"side must be 'low' or 'high'; got {side!r}.")


class Inefficiency(NamedTuple):
    """MISCLASS at a criterion's choice over the grid's best MISCLASS (Wahba et al. 2001, §6).

    Attributes
    ----------
    criterion : str
    target : str
    value : float
        Inefficiency at the criterion's first tied minimizer (≥ 1; 1 is a perfect choice).
    low, high : float
        Its range over every tied minimizer.
    n_ties : int
        Number of tied minimizers.
    lam, sigma : float
        The (first) chosen λ and σ.
    target_min : float
        The grid minimum of the target.
    """

    criterion: str
    target: str
    value: float
    low: float
    high: float
    n_ties: int
    lam: float
    sigma: float
    target_min: float


def inefficiency(surface: CriteriaSurface, criterion: str, target: str = "misclass") -> Inefficiency:
    """Inefficiency of ``criterion``'s grid minimizer with respect to ``target`` (Wahba et al. 2001, §6).

    Parameters
    ----------
    surface : CriteriaSurface
    criterion : str
        The criterion that chooses (σ, λ), e.g. "gacv", "xa", "loo".
    target : str, default "misclass"
        What the choice is judged by (needs the truth: "misclass" or "gckl").

    Returns
    -------
    Inefficiency
        target(chosen) / min target; ties of the criterion are reported as a range.

    See Also
    --------
    inefficiency_study : Its distribution over simulated data sets.
    svmviz.figures.tuning.compute_inefficiency_table : One row per criterion.
    """
    for k in (criterion, target):
        if k not in surface.values:
            raise ValueError(f"the surface has no {k!r} values (available: {sorted(surface.values)}).")
    T = surface.values[target]
    tmin = float(np.min(T))
    if tmin <= 0:
        raise ValueError(f"the minimum of {target} on the grid is {tmin}; inefficiency needs a positive minimum.")
    ties = surface.ties[criterion]
    vals = T[ties[:, 0], ties[:, 1]] / tmin
    i, j = surface.best[criterion]
    return Inefficiency(criterion, target, float(T[i, j] / tmin), float(vals.min()), float(vals.max()),
                        int(len(ties)), float(surface.lambdas[j]), float(surface.sigmas[i]), tmin)


class InefficiencyStudy(NamedTuple):
    """Monte-Carlo inefficiencies (returned by :func:`inefficiency_study`).

    Attributes
    ----------
    criteria : tuple of str
    target : str
    value, low, high : dict of str to ndarray of shape (R,)
        Per criterion: the inefficiency of each repetition and its range over tied minimizers.
    seeds : ndarray of int64, shape (R,)
        The data seed of each repetition.
    """

    criteria: tuple
    target: str
    value: dict
    low: dict
    high: dict
    seeds: np.ndarray


def inefficiency_study(make_data: Callable[[int], tuple], *, R: int, lambdas, sigmas,
                       criteria_keys=("gacv", "xa"), target: str = "misclass", seed: int = 0,
                       progress: Callable | None = None) -> InefficiencyStudy:
    """Repeat data generation ``R`` times and collect each criterion's inefficiency (Wahba et al. 2001, §6).

    Parameters
    ----------
    make_data : callable(seed) -> (X, y, p_true, L)
        Draws one training set.
    R : int ≥ 1
        Number of repetitions.
    lambdas : array_like of shape (m,)
    sigmas : array_like of shape (k,)
    criteria_keys : tuple of str, default ("gacv", "xa")
        Criteria to judge ("loo" adds exact leave-one-out fits).
    target : str, default "misclass"
    seed : int, default 0
        Seeds of the repetitions come from ``SeedSequence([seed, r])``: the study is reproducible.
    progress : callable(done, total, message), optional

    Returns
    -------
    InefficiencyStudy

    See Also
    --------
    inefficiency : On one data set.
    svmviz.figures.tuning.plot_inefficiency_study : Draws the result.
    """
    if int(R) != R or R < 1:
        raise ValueError(f"R must be a positive integer; got {R!r}.")
    seeds = np.array([replicate_seed(seed, r) for r in range(int(R))], dtype=np.int64)
    val = {c: np.empty(int(R)) for c in criteria_keys}
    low = {c: np.empty(int(R)) for c in criteria_keys}
    high = {c: np.empty(int(R)) for c in criteria_keys}
    for r, s in enumerate(seeds):
        X, y, p_true, L = make_data(int(s))
        surf = criteria_surface(X, y, lambdas, sigmas, L=L, p_true=p_true, loo="loo" in criteria_keys)
        for c in criteria_keys:
            ie = inefficiency(surf, c, target)
            val[c][r], low[c][r], high[c][r] = ie.value, ie.low, ie.high
        if progress is not None:
            progress(r + 1, int(R), f"repetition {r + 1}/{int(R)}")
    return InefficiencyStudy(tuple(criteria_keys), target, val, low, high, seeds)


class GramCriteria(NamedTuple):
    """Criteria along λ for one precomputed kernel matrix (returned by :func:`gram_criteria_curves`).

    Attributes
    ----------
    lambdas : ndarray of shape (m,)
    values : dict of str to ndarray of shape (m,)
        "gacv", "xa" (BRXA when L ≠ (1, 1)), "xa_j"; with the truth "gckl", "misclass"; "loo" with
        ``loo=True``.
    best : dict of str to int
        Index of each criterion's first minimum along λ.
    alphas : ndarray of shape (m, n)
    b : ndarray of shape (m,)
    f_train : ndarray of shape (m, n)
    f_loo : ndarray of shape (m, n) or None
    n_sv : ndarray of shape (m,)
    status : ndarray of int, shape (m,)
        0 where the fit (and its leave-one-out refits) converged.
    K_diag : ndarray of shape (n,)
        The K_ii used by GACV and XA.
    """

    lambdas: np.ndarray
    values: dict
    best: dict
    alphas: np.ndarray
    b: np.ndarray
    f_train: np.ndarray
    f_loo: np.ndarray | None
    n_sv: np.ndarray
    status: np.ndarray
    K_diag: np.ndarray


def gram_criteria_curves(K, y, lambdas, *, K_diag=None, L=(1.0, 1.0), p_true=None, loo: bool = False,
                         xa_rho: float = 2.0, tol: float = 1e-3, max_iter: int = DEFAULT_MAX_ITER,
                         progress: Callable | None = None) -> GramCriteria:
    """GACV, XA (BRXA), XA (Joachims' R²), exact LOO and — with the truth — GCKL, (BR)MISCLASS along λ for ANY kernel.

    The kernel-agnostic counterpart of :func:`criteria_curves`: the gram matrix is given (an
    SS-ANOVA kernel, a user's kernel object, …) and K_ii is not assumed to be 1 — GACV's and XA's
    θ_i = α_i K_ii/(2nλ) (Wahba et al. 2001, eqs. 4, 7) use ``K_diag``, Joachims' R² uses K itself.

    Parameters
    ----------
    K : array_like of shape (n, n)
        Gram matrix of the training data.
    y : array_like of shape (n,)
        Labels of two classes (mapped to ±1), at least 2 points each.
    lambdas : array_like of shape (m,)
        Positive λ values (fitted from the largest down, warm-started).
    K_diag : array_like of shape (n,), optional
        K(x_i, x_i); default ``diag(K)``.
    L : pair of float, default (1.0, 1.0)
        (L(−1), L(+1)).
    p_true : array_like of shape (n,), optional
        True P(y = +1 | x_i) at the training points; enables "gckl" and "misclass".
    loo : bool, default False
        Also exact leave-one-out misclassification ("loo"), refitting support vectors only
        (:func:`svmviz.criteria.leave_one_out_decisions`, the full data's C_i kept).
    xa_rho : float, default 2.0
        ρ of XA (Joachims' R²).
    tol, max_iter : as in :func:`criteria_surface`.
    progress : callable(done, total, message), optional
        Called after the fits and after each λ's leave-one-out refits.

    Returns
    -------
    GramCriteria
    """
    K = check_matrix(K, "K", min_rows=4)
    n = K.shape[0]
    if K.shape != (n, n):
        raise ValueError(f"K must be square; got shape {K.shape}.")
    y, _ = check_binary_labels(y, n, min_per_class=2)
    lam = _check_lambdas(lambdas)
    Lm, Lp = _check_L(L)
    tol, max_iter = _check_solver_params(tol, max_iter)
    Kd = np.diag(K).copy() if K_diag is None else np.asarray(K_diag, dtype=np.float64).ravel()
    if Kd.shape != (n,) or not np.all(np.isfinite(Kd)):
        raise ValueError(f"K_diag must hold {n} finite numbers (K(x_i, x_i) of every training point).")
    p = None if p_true is None else check_p_true(np.asarray(p_true, dtype=np.float64), K)
    C = np.where(y > 0, Lp, Lm)
    total = 1 + (lam.size if loo else 0)
    alphas, bs, fs, _, status = lambda_sequence(K, y, lam, C, -np.ones(n), np.zeros(n), tol, max_iter, GRID_SHRINKING)
    if progress is not None:
        progress(1, total, "fitted every λ")
    values = {"gacv": criteria.gacv(fs, y, alphas, lam, Kd, (Lm, Lp)),
              "xa": criteria.xa(fs, y, alphas, lam, Kd, (Lm, Lp)),
              "xa_j": criteria.xa_joachims(fs, y, alphas, lam, criteria.joachims_R2(K), rho=xa_rho, L=(Lm, Lp))}
    if p is not None:
        values["gckl"] = criteria.gckl(fs, p, (Lm, Lp))
        values["misclass"] = criteria.misclass(fs, p, (Lm, Lp))
    warn_unconverged(status, "gram_criteria_curves")
    best = {key: int(np.nanargmin(v)) for key, v in values.items()}
    cur = GramCriteria(lam, values, best, alphas, bs, fs, None, np.sum(alphas > 0, axis=-1), status, Kd)
    if loo:
        step = None if progress is None else (lambda d, t, msg: progress(1 + d, 1 + t, msg))
        cur = exact_loo_curves([cur], [K], y, L=(Lm, Lp), tol=tol, max_iter=max_iter, progress=step)[0][0]
    return cur


def exact_loo_curves(curves, grams, y, *, L=(1.0, 1.0), tol: float = 1e-3, max_iter: int = DEFAULT_MAX_ITER,
                     labels=None, progress: Callable | None = None) -> tuple[list, np.ndarray]:
    """Add exact leave-one-out ("loo") to the λ curves of several gram matrices, every refit on one
    queue of threads (Wahba et al. 2001, §4).

    The one routine behind ``gram_criteria_curves(loo=True)`` (one problem) and
    :func:`svmviz.anova.compare_kernels` (one problem per kernel). Each (problem, λ) is
    :func:`svmviz.criteria.leave_one_out_decisions` of that λ's full solution (support vectors
    refitted, warm-started; numba without the GIL); all of them form one queue on a pool of
    ``numba.get_num_threads()`` threads, the costliest first — the smallest λ (the largest C, the
    worst-conditioned refits) of every problem, then the next λ, so that no long task starts last and
    leaves a core idle (a pool per problem or per λ would). With the
    active-set refits (``_smo._active_set``) the tasks are short and even: at the Kernels page's
    default (anova_structure n = 200, three kernels, 11 λ) 33 tasks of a few hundredths of a second
    each. The numbers do not depend on the order or the threads.

    Parameters
    ----------
    curves : list of GramCriteria
        Each problem's curves without "loo" (:func:`gram_criteria_curves` with ``loo=False``): their
        ``lambdas`` (m,) and ``alphas`` (m, n) are refitted.
    grams : list of ndarray of shape (n, n)
        The gram matrix of each problem.
    y : ndarray of shape (n,)
        Labels ±1 (shared by every problem).
    L : pair of float, default (1.0, 1.0)
        (L(−1), L(+1)).
    tol, max_iter : SMO stopping rule of each refit.
    labels : list of str, optional
        A name per problem for the progress messages.
    progress : callable(done, total, message), optional
        Called from the caller's thread only, after each (problem, λ) refit ends, ``done`` = 1 …
        ``total`` (problems × λ values). An exception it raises (e.g. a Cancel) cancels the queued
        refits and propagates once the running ones end.

    Returns
    -------
    curves : list of GramCriteria
        ``curves`` with ``values["loo"]``, ``best["loo"]``, ``f_loo`` (m, n) and ``status`` (the
        worse of the fit's and the refits') set. A refit that hit ``max_iter`` where the fit had not
        is warned about ("leave-one-out").
    seconds : ndarray of shape (len(curves),)
        Each problem's refit seconds (wall time of its refits, summed over λ).
    """
    from concurrent.futures import ThreadPoolExecutor, as_completed

    import numba

    if len(curves) != len(grams):
        raise ValueError(f"one gram matrix per curve: got {len(grams)} gram matrices for {len(curves)} curves.")
    Lm, Lp = _check_L(L)
    tasks = sorted(((k, q) for q, c in enumerate(curves) for k in range(c.lambdas.size)),
                   key=lambda t: (curves[t[1]].lambdas[t[0]], t[1]))  # smallest λ first
    f_loo = [np.empty_like(c.f_train) for c in curves]
    st_loo = [np.zeros(c.lambdas.size, dtype=np.int64) for c in curves]

    secs = np.zeros(len(curves))

    def run(q, k):
        t0 = time.perf_counter()
        f, st = criteria.leave_one_out_decisions(grams[q], y, curves[q].lambdas[k], curves[q].alphas[k],
                                                 L=(Lm, Lp), tol=tol, max_iter=max_iter)
        return q, k, f, st, time.perf_counter() - t0

    done = 0
    pool = ThreadPoolExecutor(max_workers=max(1, min(numba.get_num_threads(), len(tasks))))
    try:
        futures = [pool.submit(run, q, k) for k, q in tasks]
        for fut in as_completed(futures):
            q, k, f, st, sec = fut.result()
            secs[q] += sec
            f_loo[q][k] = f
            st_loo[q][k] = st
            done += 1
            if progress is not None:
                who = "" if labels is None else f"{labels[q]}: "
                progress(done, len(tasks), f"{who}leave-one-out at λ = {curves[q].lambdas[k]:.3g}")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    out = []
    for q, cur in enumerate(curves):
        warn_unconverged(np.where(cur.status == 0, st_loo[q], 0), "gram_criteria_curves (leave-one-out)")
        values = dict(cur.values)
        values["loo"] = criteria.loo_misclass(f_loo[q], y, (Lm, Lp))
        best = dict(cur.best)
        best["loo"] = int(np.nanargmin(values["loo"]))
        out.append(cur._replace(values=values, best=best, f_loo=f_loo[q], status=np.maximum(cur.status, st_loo[q])))
    return out, secs
