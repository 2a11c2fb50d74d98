"""Wahba's (standard and non-standard) support vector machine on a numba SMO solver.

Problem (Wahba, Lin, Lee & Zhang 2001, eq. (1) and §5; the documentation's References page)::

    min  (1/n) Σ L(y_i) (1 − y_i f(x_i))_+  +  λ ‖h‖²,   f = h + b,  f = Kc + b.

Dual: max −½ α'Hα + e'α, H = YKY/(2nλ), 0 ≤ α_i ≤ L(y_i), y'α = 0, and c = Yα/(2nλ).
Equivalent to libsvm / sklearn ``SVC(C=1/(2nλ), gamma=1/(2σ²), class_weight={-1: L(−1), +1: L(+1)})``
with α(ours) = α(libsvm)/C. :class:`SVMClassifier` takes Wahba's costs as ``L=(L(−1), L(+1))`` and
scikit-learn's ``class_weight`` (dict by class label, or "balanced") besides; they multiply.
"""
from __future__ import annotations

import os
import warnings
from concurrent.futures import as_completed
from collections.abc import Mapping
from typing import Callable, NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.class_weight import compute_class_weight
from sklearn.utils.metaestimators import available_if

from .. import _validation
from . import _libsvm_rules, _rows, _smo
from .._parallel import task_pool
from .._docs import fill_doc
from .._validation import (binary_targets, check_binary_labels, check_matrix,
                          check_positive, check_sample_weight, predict_in_chunks, validate_fit_data,
                          validate_predict_data)
from .._validation import check_L as _check_L
from .._validation import check_lambdas as _check_lambdas
from .._validation import check_solver_params as _check_solver_params
from ..kernels import KERNELS, GramRows, as_kernel_object, fit_kernel, gram, kernel_diagonal, squared_distances

DEFAULT_MAX_ITER = 10_000_000
#: :class:`SVMClassifier`'s λ when neither ``lam`` nor ``C`` is given
DEFAULT_LAM = 1e-3


def _fit_memory(n: int) -> float:
    """Peak bytes of :meth:`SVMClassifier.fit` on n rows: the n×n float64 kernel matrix, the n×n
    boolean finiteness mask of its check, and the solver's O(n) vectors."""
    return 9.0 * n * n + 8.0 * 16 * n


def _rows_memory(n: int, d: int, cache_size: float) -> float:
    """Peak bytes of the solver on cached rows (:func:`solve_dual_rows`): the cache of
    ``cache_size`` MB (or its n rows) and its two scratch rows, a copy of the n × d points, the
    solver's O(n) vectors."""
    return 8.0 * n * (_rows.cache_slots(n, cache_size) + 2) + 8.0 * n * (d + 16)


#: How :class:`SVMClassifier` computes the kernel (its ``strategy``): the n×n matrix before SMO, or
#: rows on demand in a cache (libsvm's design), or the choice of the two by cost.
STRATEGIES = ("auto", "full", "rows")


#: A kernel row's round trip on the cached-rows path besides its entries: the return from the compiled
#: loop, the BLAS call's setup, numba's dispatch of the distance pass and numpy's of the exp (measured
#: 11–13 µs a row, one thread, load 8.5, 2026-11-29).
ROW_CALL_NS = 12_000.0
#: One entry of the upper triangle of :func:`svmviz.kernels.gram`'s rbf matrix: about
#: ``GRAM_ENTRY_NS + GRAM_ENTRY_NS_PER_FEATURE · d`` (measured 7.0 ns at d = 10 and 10.3 ns at d = 20,
#: best of 3, n = 2000, one thread, load 8.5, 2026-11-29).
GRAM_ENTRY_NS = 3.7
GRAM_ENTRY_NS_PER_FEATURE = 0.33


def full_matrix_pays(n: int, d: int, cache_size: float) -> bool:
    """``strategy="auto"``'s choice for a two-class problem of n points with d features: the whole n×n
    kernel matrix when it fits in the kernel cache and costs no more to build than the round trips
    of computing each of its rows once on demand; rows on demand otherwise.

    Parameters
    ----------
    n : int
        Points of the two-class problem.
    d : int
        Features.
    cache_size : float
        Megabytes of the kernel cache (``SVMClassifier(cache_size=...)``).

    Returns
    -------
    bool
        True: compute the full matrix (:func:`solve_dual`); False: rows on demand
        (:func:`solve_dual_rows`).

    Notes
    -----
    The costs compared: building the matrix's upper triangle, ``n²/2 · (GRAM_ENTRY_NS +
    GRAM_ENTRY_NS_PER_FEATURE · d)``, against the rows path's overhead when SMO visits every row,
    ``n · ROW_CALL_NS``; their entries cost the same per entry on either path (a row's entries cost
    about twice a triangle's, which the symmetric half makes up). Below the crossing (n ≈ 3400 at
    d = 10, 2300 at d = 20) the full matrix is built; above it, and whenever the matrix is larger than
    the cache, the rows solver, whose SMO visits only the rows of the working sets and keeps its memory
    within ``cache_size``. ``bench/bench_fit.py --paths`` times both paths on the same fits (the
    performance page gives the table): at n = 5000 and 10000 the rows path is the faster on all four
    (C, γ) of the benchmark; at n = 2000 either can be the faster by up to 1.6× and both are ahead of
    ``SVC``.
    """
    build = 0.5 * n * n * (GRAM_ENTRY_NS + GRAM_ENTRY_NS_PER_FEATURE * d)
    return 8.0 * n * n <= cache_size * 2**20 and build <= n * ROW_CALL_NS


def _check_class_weight(class_weight, classes, y) -> np.ndarray:
    """scikit-learn's class weights, one per class of ``classes`` (shape (n_classes,)).

    ``None`` (all 1), ``"balanced"`` (n / (n_classes · n_c)) or a dict ``{class label: weight}``
    (labels left out weigh 1; a key that is not a class is an error), computed by
    ``sklearn.utils.class_weight.compute_class_weight``. Every weight must be finite and positive
    (a zero weight would take a class out of the problem).
    """
    if not (class_weight is None or isinstance(class_weight, Mapping)
            or (isinstance(class_weight, str) and class_weight == "balanced")):
        hint = (f" For Wahba's costs (L(-1), L(+1)) use the parameter L={tuple(class_weight)!r}."
                if np.ndim(class_weight) == 1 and len(class_weight) == 2 else "")
        raise ValueError("class_weight must be None, 'balanced' or a dict {class label: weight} (as in "
                         f"scikit-learn); got {class_weight!r}.{hint}")
    w = compute_class_weight(class_weight, classes=classes, y=y)
    if not np.all(np.isfinite(w)) or np.any(w <= 0):
        raise ValueError(f"every class weight must be a finite positive number; got {dict(zip(classes.tolist(), w.tolist()))}.")
    return np.asarray(w, dtype=np.float64)


def _warn_status(status, what: str) -> None:
    bad = int(np.sum(np.asarray(status) != _smo.STATUS_CONVERGED))
    if bad:
        warnings.warn(
            f"{what}: the SMO solver hit max_iter before reaching the tolerance in {bad} solve(s); "
            "the solution is approximate. Increase max_iter or tol.",
            ConvergenceWarning,
            stacklevel=3,
        )


class DualSolution(NamedTuple):
    """One solve of the general dual of :func:`solve_dual` (Wahba et al. 2001, eqs. 1–2).

    Attributes
    ----------
    alpha : ndarray of shape (n,)
        The dual coefficients, 0 ≤ α_i ≤ C_i.
    b : float
        The offset.
    f : ndarray of shape (n,)
        The training decision values, ``f_i = y_i (G_i − p_i) + b``.
    gradient : ndarray of shape (n,)
        G = Qα + p, the dual objective's gradient.
    objective : float
        ½α'Qα + p'α at the solution.
    n_iter : int
        SMO iterations.
    status : int
        0 converged, 1 stopped at ``max_iter``.
    """

    alpha: np.ndarray
    b: float
    f: np.ndarray
    gradient: np.ndarray
    objective: float
    n_iter: int
    status: int


def _check_dual_vectors(n: int, y, scale, C, p):
    """The dual's data for n points, checked: labels ±1, ``scale > 0``, bounds ``C_i`` finite and
    positive (a scalar for all), the linear term ``p`` finite (None: −1). Returns contiguous float64
    (y, scale, C, p)."""
    y = np.ascontiguousarray(np.asarray(y, dtype=np.float64).ravel())
    if y.shape[0] != n or not np.all(np.abs(y) == 1):
        raise ValueError("y must hold n labels in {-1, +1}.")
    scale = check_positive(scale, "scale")
    C = np.ascontiguousarray(np.broadcast_to(np.asarray(C, dtype=np.float64), (n,)).copy())
    if not np.all(np.isfinite(C)) or np.any(C <= 0):
        raise ValueError("every bound C_i must be a finite positive number.")
    p = -np.ones(n) if p is None else np.ascontiguousarray(np.asarray(p, dtype=np.float64).ravel())
    if p.shape[0] != n or not np.all(np.isfinite(p)):
        raise ValueError("p must hold n finite numbers.")
    return y, scale, C, p


def solve_dual(K, y, *, scale: float, C, p=None, alpha0=None, tol: float = 1e-3,
               max_iter: int = DEFAULT_MAX_ITER, shrinking: bool = True) -> DualSolution:
    """Solve ``min ½α'Qα + p'α, 0 ≤ α ≤ C, y'α = 0`` with ``Q = scale · YKY``.

    Parameters
    ----------
    K : array_like of shape (n, n)
        Kernel matrix (symmetric positive semi-definite).
    y : array_like of shape (n,)
        Labels ±1.
    scale : float
        Kernel scale ``s``; Wahba's SVM uses ``1/(2nλ)``.
    C : array_like of shape (n,) or float
        Upper bounds ``C_i > 0``.
    p : array_like of shape (n,), optional
        Linear term, default ``−1`` (the SVM); the randomized GACV uses ``−1/|s_i|``.
    alpha0 : array_like of shape (n,), optional
        Warm start; moved to the nearest-by-construction feasible point if it violates the box or
        ``y'α = 0`` slightly (e.g. after deleting a point for leave-one-out).
    tol : float, default 1e-3
        SMO's stopping tolerance on the largest KKT violation of a pair (libsvm's ``tol``).
    max_iter : int, default 10_000_000
        Iteration cap; the result's ``status`` is 1 if it is reached.
    shrinking : bool, default True
        libsvm's shrinking heuristic.

    Returns
    -------
    DualSolution
        ``f_i = y_i (G_i − p_i) + b`` are the training decision values (G the gradient).

    Raises
    ------
    ValueError
        ``K`` not square, labels not ±1, a bound not finite and positive, or a bad ``p``.

    Warns
    -----
    ConvergenceWarning
        The solve reached ``max_iter``.

    See Also
    --------
    fit_lambda_sequence : Many λ on one kernel matrix, warm-started.
    SVMClassifier : The estimator built on this solver.

    Notes
    -----
    Wahba et al. 2001, eq. (1)–(2); libsvm's SMO with second-order working-set selection.
    """
    K = check_matrix(K, "K")
    n = K.shape[0]
    if K.shape != (n, n):
        raise ValueError(f"K must be square; got shape {K.shape}.")
    y, scale, C, p = _check_dual_vectors(n, y, scale, C, p)
    if alpha0 is None:
        a0 = np.zeros(n)
    else:
        a0 = np.array(alpha0, dtype=np.float64).ravel()
        if a0.shape[0] != n or not np.all(np.isfinite(a0)):
            raise ValueError("alpha0 must hold n finite numbers.")
        if not _smo._make_feasible(a0, y, C):
            raise ValueError("alpha0 cannot be made feasible (0 ≤ α ≤ C, y'α = 0).")
    tol, max_iter = _check_solver_params(tol, max_iter)
    alpha, b, G, n_iter, status = _smo.solve_dual(K, y, scale, p, C, a0, tol, max_iter, bool(shrinking))
    _warn_status(status, "solve_dual")
    f = y * (G - p) + b
    objective = 0.5 * float(alpha @ (G + p))
    return DualSolution(alpha, float(b), f, G, objective, int(n_iter), int(status))


def solve_dual_rows(X, y, *, scale: float, C, p=None, kernel="rbf", sigma: float = 1.0, degree: int = 3,
                    gamma: float = 1.0, coef0: float = 1.0, tol: float = 1e-3, max_iter: int = DEFAULT_MAX_ITER,
                    shrinking: bool = True, cache_size: float = _rows.DEFAULT_CACHE_MB) -> DualSolution:
    """:func:`solve_dual` from α = 0 for the kernel matrix of the points X, without forming it: SMO on
    kernel rows computed on demand and kept in a least-recently-used cache of ``cache_size`` MB, with
    shrinking (libsvm's design: Chang & Lin 2011, its shrinking and kernel cache).

    Parameters
    ----------
    X : array_like of shape (n, d)
        The points; ``K_ij = k(x_i, x_j)``.
    y : array_like of shape (n,)
        Labels ±1.
    scale : float
        Kernel scale ``s`` of ``Q = s · YKY``; Wahba's SVM uses ``1/(2nλ)``.
    C : array_like of shape (n,) or float
        Upper bounds ``C_i > 0``.
    p : array_like of shape (n,), optional
        Linear term, default ``−1`` (the SVM).
    kernel : {"rbf", "linear", "poly"}
        A named kernel (:data:`svmviz.kernels.KERNELS`).
    sigma, degree, gamma, coef0
        As in :func:`svmviz.kernels.gram`.
    tol : float, default 1e-3
        SMO's stopping tolerance on the largest KKT violation of a pair (libsvm's ``tol``).
    max_iter : int, default 10_000_000
        Iteration cap; the result's ``status`` is 1 if it is reached.
    shrinking : bool, default True
        libsvm's shrinking heuristic: the rows of the shrunk problem only are computed.
    cache_size : float, default 200
        Megabytes of kernel rows kept (scikit-learn's ``SVC(cache_size=200)``); at least two rows
        are kept, however small.

    Returns
    -------
    DualSolution
        As :func:`solve_dual`: the same working-set selection, stopping rule and intercept, so the
        two agree to the tolerance.

    Raises
    ------
    ValueError
        A kernel that is not named, labels not ±1, a bound not finite and positive, a bad ``p`` or
        ``cache_size``.

    Warns
    -----
    ConvergenceWarning
        The solve reached ``max_iter``.

    Notes
    -----
    Wahba et al. 2001, eq. (1)–(2); Chang & Lin (2011), "LIBSVM", §4.1.2 (shrinking) and §5.1
    (caching); working-set selection of Fan, Chen & Lin (2005).
    """
    rows = GramRows(X, kernel=kernel, sigma=sigma, degree=degree, gamma=gamma, coef0=coef0)
    n = rows.points.shape[0]
    y, scale, C, p = _check_dual_vectors(n, y, scale, C, p)
    cache_size = _check_cache_size(cache_size)
    tol, max_iter = _check_solver_params(tol, max_iter)
    alpha, b, G, n_iter, status = _rows.solve_rows(rows, y, scale, p, C, tol, max_iter, bool(shrinking), cache_size)
    _warn_status(status, "solve_dual_rows")
    f = y * (G - p) + b
    objective = 0.5 * float(alpha @ (G + p))
    return DualSolution(alpha, float(b), f, G, objective, int(n_iter), int(status))


def _check_cache_size(cache_size) -> float:
    if isinstance(cache_size, (bool, np.bool_)) or not isinstance(cache_size, (int, float, np.integer, np.floating)) \
            or not np.isfinite(cache_size) or cache_size <= 0:
        raise ValueError(f"cache_size must be a finite positive number of megabytes (as SVC's); got {cache_size!r}.")
    return float(cache_size)


class LambdaSequence(NamedTuple):
    """Solutions of Wahba's SVM along a λ sequence for one kernel matrix (Wahba et al. 2001, eq. 1).

    Row k of every array belongs to ``lambdas[k]`` (the order given).

    Attributes
    ----------
    lambdas : ndarray of shape (m,)
        The λ values.
    alphas : ndarray of shape (m, n)
        α at each λ, Wahba's scaling (0 ≤ α_i ≤ L(y_i)).
    b : ndarray of shape (m,)
        The offset at each λ.
    f : ndarray of shape (m, n)
        The training decision values at each λ.
    n_iter : ndarray of int, shape (m,)
        SMO iterations of each solve.
    status : ndarray of int, shape (m,)
        0 converged, 1 stopped at ``max_iter``.
    """

    lambdas: np.ndarray
    alphas: np.ndarray
    b: np.ndarray
    f: np.ndarray
    n_iter: np.ndarray
    status: np.ndarray


#: The grid engine's default: no shrinking. With nothing shrunk every SMO iteration runs the
#: whole-set selection and gradient update in vector code (``_smo._select_all``); a shrunk active
#: set is walked through its index list in scalar code, which costs more than the points shrinking
#: leaves out: the serial 30×30 grid of ``bench/bench_svm.py`` runs about 1.2× faster without
#: shrinking at n = 200–1000 (1.5× at 2000) in as many iterations. Instead, a solve of a λ sequence
#: that runs long sets aside, once, the points libsvm's rule says stay at their bound, on a compacted
#: copy of the kernel matrix (``_smo._solve_compacting``: the same vector code on fewer points).
#: Single solves (``SVMClassifier``) keep libsvm's default ``shrinking=True``.
GRID_SHRINKING = False


def fit_lambda_sequence(K, y, lambdas, *, L=(1.0, 1.0), tol: float = 1e-3,
                        max_iter: int = DEFAULT_MAX_ITER, shrinking: bool = GRID_SHRINKING) -> LambdaSequence:
    """Fit Wahba's SVM for every λ on one precomputed kernel matrix, warm-starting from large λ down.

    Parameters
    ----------
    K : array_like of shape (n, n)
        Kernel matrix (symmetric positive semi-definite).
    y : array_like of shape (n,)
        Two-valued labels (mapped to ±1).
    lambdas : array_like of shape (m,)
        Positive λ values.
    L : tuple of (float, float), default (1.0, 1.0)
        (L(-1), L(+1)), misclassification weights of the non-standard SVM (Wahba et al. 2001, §5);
        (1, 1) standard.
    tol : float, default 1e-3
        SMO's stopping tolerance.
    max_iter : int, default 10_000_000
        Iteration cap of each solve.
    shrinking : bool, default False
        libsvm's shrinking heuristic; off by default here (:data:`GRID_SHRINKING`: faster on this
        solver's vector code path, same answers to the tolerance).

    Returns
    -------
    LambdaSequence
        Arrays of shape (m, n) and (m,), in the order of ``lambdas``.

    Warns
    -----
    ConvergenceWarning
        A solve reached ``max_iter``.

    See Also
    --------
    solve_dual : One solve.
    fit_sigma_lambda_grid : The same over a (σ, λ) grid of Gaussian kernels.

    Notes
    -----
    Wahba et al. 2001, eq. (1) (standard) and the weighted problem of §5. Each solve starts from the
    previous λ's solution; when no α is at its bound that solution divided by the ratio of the scales
    1/(2nλ) is the exact solution (the hard-margin regime, no iteration); otherwise, from the third λ
    on, the two previous solutions are extrapolated linearly in λ (the solution is linear in λ while
    no point changes group), clipped into the box with y'α = 0 restored; and a solve SMO has not
    settled in ``SEQUENCE_PIVOTS_AFTER_ITER`` iterations goes on by active-set pivots on its free set
    before SMO finishes. Every solution meets SMO's stopping rule at ``tol``.
    """
    K = check_matrix(K, "K")
    n = K.shape[0]
    if K.shape != (n, n):
        raise ValueError(f"K must be square; got shape {K.shape}.")
    y, _ = check_binary_labels(y, n)
    lam = _check_lambdas(lambdas)
    Lm, Lp = _check_L(L)
    tol, max_iter = _check_solver_params(tol, max_iter)
    C = np.where(y > 0, Lp, Lm)
    p = -np.ones(n)
    a, b, f, it, st = _smo.lambda_sequence(K, y, lam, C, p, np.zeros(n), tol, max_iter, bool(shrinking))
    _warn_status(st, "fit_lambda_sequence")
    return LambdaSequence(lam, a, b, f, it, st)


class SigmaLambdaGrid(NamedTuple):
    """Solutions of Wahba's SVM over a (σ, λ) grid of Gaussian kernels (Wahba et al. 2001, Figs. 1–2).

    Entry [q, k] of every array belongs to ``sigmas[q]`` and ``lambdas[k]``.

    Attributes
    ----------
    lambdas : ndarray of shape (m,)
        The λ values.
    sigmas : ndarray of shape (k,)
        The Gaussian widths σ.
    alphas : ndarray of shape (k, m, n)
        α at each (σ, λ), Wahba's scaling.
    b : ndarray of shape (k, m)
        The offset at each (σ, λ).
    f : ndarray of shape (k, m, n)
        The training decision values at each (σ, λ).
    n_iter : ndarray of int, shape (k, m)
        SMO iterations of each solve.
    status : ndarray of int, shape (k, m)
        0 converged, 1 stopped at ``max_iter``.
    """

    lambdas: np.ndarray
    sigmas: np.ndarray
    alphas: np.ndarray
    b: np.ndarray
    f: np.ndarray
    n_iter: np.ndarray
    status: np.ndarray


def _n_workers(tasks: int) -> int:
    return max(1, min(tasks, os.cpu_count() or 1))


def _check_threads(n_threads, tasks: int) -> int:
    """Threads for ``tasks`` σ values: ``None`` one per core, else ``n_threads`` (a positive integer),
    never more than the tasks."""
    if n_threads is None:
        return _n_workers(tasks)
    if isinstance(n_threads, bool) or int(n_threads) != n_threads or n_threads < 1:
        raise ValueError(f"n_threads must be a positive integer; got {n_threads!r}.")
    return max(1, min(int(n_threads), tasks))


class _GridProblem(NamedTuple):
    """A validated (σ, λ) grid problem (:func:`_check_grid_problem`)."""

    X: np.ndarray
    y: np.ndarray          # ±1
    lam: np.ndarray
    sig: np.ndarray
    L: tuple               # (L(−1), L(+1))
    C: np.ndarray          # the bounds L(y_i)
    tol: float
    max_iter: int
    workers: int


def _check_grid_problem(X, y, lambdas, sigmas, L, tol, max_iter, n_threads) -> _GridProblem:
    """The input checks every (σ, λ) grid of Gaussian-kernel SVMs makes (:func:`fit_sigma_lambda_grid`,
    :func:`svmviz.tuning.criteria_surface`, :func:`svmviz.tuning.kfold_cv_surface`), before anything
    of size n² is allocated: X (≥ 4 rows), two classes of ≥ 2 points, the λ and σ grids, L, the
    solver's tol and max_iter, and the threads."""
    X = check_matrix(X, "X", min_rows=4)
    y, _ = check_binary_labels(y, X.shape[0], min_per_class=2)
    lam = _check_lambdas(lambdas)
    sig = _check_lambdas(sigmas, "sigmas", "σ")
    Lm, Lp = _check_L(L)
    tol, max_iter = _check_solver_params(tol, max_iter)
    workers = _check_threads(n_threads, sig.size)
    return _GridProblem(X, y, lam, sig, (Lm, Lp), np.where(y > 0, Lp, Lm), tol, max_iter, workers)


#: Arrays of shape (σ, λ, n) a criteria surface holds at its peak: α, the training decision values,
#: the per-σ results before they are copied in, and the temporaries of the criteria formulas. 10
#: from ``bench_criteria.py memory`` (n = 1000, 30×30: peak 0.10 GB above the start, 3n² doubles
#: being 0.024 GB); leave-one-out or k-fold add one array each.
GRID_ARRAYS = 10


def grid_memory(n: int, n_sigmas: int, n_lambdas: int, n_threads: int, *, n_by_n_per_thread: int = 1,
                grid_arrays: int = GRID_ARRAYS) -> int:
    """Peak bytes of a (σ, λ) grid of Gaussian-kernel SVMs on n points.

    One n×n float64 matrix of squared distances, ``n_by_n_per_thread`` n×n matrices per thread (the
    kernel of the σ it solves; 2 for k-fold, whose folds also copy their distances), and
    ``grid_arrays`` float64 arrays of shape (σ, λ, n).

    Parameters
    ----------
    n, n_sigmas, n_lambdas, n_threads : int
    n_by_n_per_thread : int, default 1
    grid_arrays : int, default GRID_ARRAYS

    Returns
    -------
    int
        8 · (n² · (1 + n_threads · n_by_n_per_thread) + grid_arrays · n_sigmas · n_lambdas · n).
    """
    return 8 * (n * n * (1 + n_threads * n_by_n_per_thread) + grid_arrays * n_sigmas * n_lambdas * n)


def check_grid_memory(n: int, n_sigmas: int, n_lambdas: int, n_threads: int, *, what: str,
                      n_by_n_per_thread: int = 1, grid_arrays: int = GRID_ARRAYS, available=None) -> None:
    """Refuse, before anything is allocated, a grid that would not fit in the available memory.

    The memory available is the tightest of MemAvailable, ``ulimit -v``/``-d`` and the cgroup's
    limit, unless ``available`` (bytes) is given; the grid's need is :func:`grid_memory`.

    Parameters
    ----------
    n : int
        Number of points.
    n_sigmas, n_lambdas : int
        The grid's size.
    n_threads : int
        Threads solving σ values at once.
    what : str
        What the grid is, for the message ("(σ, λ) grid", …).
    n_by_n_per_thread : int, default 1
        n×n matrices each thread holds (2 for k-fold).
    grid_arrays : int, default 10
        float64 arrays of shape (σ, λ, n) the grid keeps.
    available : int, optional
        The memory available, in bytes (default: measured).

    Raises
    ------
    MemoryError
        A ``MemoryLimitError`` (also a ``ValueError``) saying how much the grid needs, how much is
        available and the largest n that fits (with these threads, and with one thread).

    See Also
    --------
    grid_memory : The bytes a grid needs.
    """
    need = grid_memory(n, n_sigmas, n_lambdas, n_threads, n_by_n_per_thread=n_by_n_per_thread,
                       grid_arrays=grid_arrays)
    avail, source = _validation.memory_room() if available is None else (int(available), "the given limit")
    if avail is None or need <= avail:
        return

    def n_max(threads):  # largest n with grid_memory(n, ...) ≤ avail
        a = 8.0 * (1 + threads * n_by_n_per_thread)
        b = 8.0 * grid_arrays * n_sigmas * n_lambdas
        m = int((-b + np.sqrt(b * b + 4.0 * a * avail)) / (2.0 * a))
        while m > 0 and grid_memory(m, n_sigmas, n_lambdas, threads, n_by_n_per_thread=n_by_n_per_thread,
                                    grid_arrays=grid_arrays) > avail:
            m -= 1
        return m

    one = (f" (n ≤ {n_max(1)} with n_threads=1)" if n_threads > 1 else "")
    raise _validation.MemoryLimitError(
        f"the {what} at n = {n} needs about {need / 1e9:.1f} GB ({1 + n_threads * n_by_n_per_thread} n×n "
        f"matrices: the squared distances and {n_by_n_per_thread} per thread × {n_threads} thread(s), plus the "
        f"{n_sigmas}×{n_lambdas}×n solutions) but only {avail / 1e9:.1f} GB of memory are available (the "
        f"tightest limit: {source}); use n ≤ {n_max(n_threads)}{one}, e.g. a stratified subsample of the data.")


def _sigma_lambda_grid(D, y, lam, sig, C, tol, max_iter, shrinking=GRID_SHRINKING, progress=None, n_threads=None):
    """The grid on validated arrays: one warm-started λ sequence per σ (kernel built from the squared
    distances ``D`` inside the compiled solver, which releases the GIL), σ values spread over threads."""
    n, ns, m = y.size, sig.size, lam.size
    alphas = np.empty((ns, m, n))
    bs = np.empty((ns, m))
    fs = np.empty((ns, m, n))
    its = np.empty((ns, m), dtype=np.int64)
    status = np.empty((ns, m), dtype=np.int64)
    pvec = -np.ones(n)
    workers = _check_threads(n_threads, ns)
    done = 0
    with task_pool(workers) as pool:  # queued σ values dropped if progress raises (Cancel)
        futures = {pool.submit(_smo.rbf_sigma_sequence, D, float(sig[q]), y, lam, C, pvec, tol, max_iter,
                               bool(shrinking)): q for q in range(ns)}
        for fut in as_completed(futures):
            q = futures[fut]
            alphas[q], bs[q], fs[q], its[q], status[q] = fut.result()
            done += 1
            if progress is not None:
                progress(done, ns, f"fitted {done}/{ns} σ values")
    return alphas, bs, fs, its, status


def fit_sigma_lambda_grid(X, y, lambdas, sigmas, *, L=(1.0, 1.0), tol: float = 1e-3,
                          max_iter: int = DEFAULT_MAX_ITER, shrinking: bool = GRID_SHRINKING,
                          n_threads: int | None = None, progress: Callable | None = None) -> SigmaLambdaGrid:
    """Fit Wahba's SVM with a Gaussian kernel at every (σ, λ) of a grid.

    One kernel matrix per σ (from squared distances computed once), every λ warm-started from the
    previous one (:func:`fit_lambda_sequence`, which says how), the σ values spread over ``n_threads`` threads
    (default: one per core; the compiled solver releases the GIL).

    Parameters
    ----------
    X : array_like of shape (n, d)
        Training points.
    y : array_like of shape (n,)
        Two-valued labels (mapped to ±1).
    lambdas : array_like of shape (m,)
        Positive λ values.
    sigmas : array_like of shape (k,)
        Positive Gaussian widths, K = exp(−‖x − x'‖²/(2σ²)).
    L : tuple of (float, float), default (1.0, 1.0)
        (L(-1), L(+1)) misclassification weights (Wahba et al. 2001, §5); (1, 1) standard.
    tol : float, default 1e-3
        SMO's stopping tolerance.
    max_iter : int, default 10_000_000
        Iteration cap of each solve.
    shrinking : bool, default False
        libsvm's shrinking heuristic, off by default (:data:`GRID_SHRINKING`).
    n_threads : int, optional
        Threads the σ values are spread over (default: one per core).
    progress : callable, optional
        ``progress(done, total, message)``, called after each σ.

    Returns
    -------
    SigmaLambdaGrid
        Arrays of shape (k, m, n) and (k, m).

    Raises
    ------
    MemoryError
        The grid would not fit in the available memory (:func:`check_grid_memory`).

    Warns
    -----
    ConvergenceWarning
        A solve reached ``max_iter``.

    See Also
    --------
    fit_lambda_sequence : One σ, any kernel matrix.
    svmviz.tuning.criteria_surface : The criteria over this grid.

    Notes
    -----
    Wahba et al. 2001, eq. (1) and §5; the grid of their Figures 1–2.
    """
    X, y, lam, sig, _, C, tol, max_iter, workers = _check_grid_problem(X, y, lambdas, sigmas, L, tol, max_iter,
                                                                       n_threads)
    check_grid_memory(X.shape[0], sig.size, lam.size, workers, what="(σ, λ) grid", grid_arrays=2)
    a, b, f, it, st = _sigma_lambda_grid(squared_distances(X), y, lam, sig, C, tol, max_iter, shrinking,
                                         progress, workers)
    _warn_status(st, "fit_sigma_lambda_grid")
    return SigmaLambdaGrid(lam, sig, a, b, f, it, st)


#: The bound of every α_i (with scale 1) that stands for C = ∞, the hard margin: a separable problem's
#: hard-margin α are far below it (they grow as 1/margin²), so the solution with this bound is the
#: hard-margin one; an α at the bound means no separating function of the kernel was found.
HARD_MARGIN_BOUND = 1e8
#: kernel names SVMClassifier takes besides :data:`svmviz.kernels.KERNELS`: the gram matrix given as X
PRECOMPUTED = "precomputed"


class SVMClassifier(ClassifierMixin, BaseEstimator):
    """Wahba's support vector machine (standard or non-standard), solved by SMO; scikit-learn's
    ``SVC`` where their meanings agree.

    Minimizes (Wahba, Lin, Lee & Zhang 2001, eq. 1 and §5)

        (1/n) Σ_i L(y_i) w(y_i) (1 − y_i f(x_i))_+  +  λ ‖h‖²,     f = h + b,

    through its dual (0 ≤ α_i ≤ L(y_i) w(y_i), y'α = 0) with libsvm's SMO: the machine of
    scikit-learn's ``SVC(C=1/(2nλ), gamma=1/(2σ²))``, with α(ours) = α(libsvm)/C. More than two
    classes are fitted one-vs-one as libsvm does (one machine per pair of classes, with the same C),
    and ``probability=True`` fits Platt's sigmoid to decision values of an internal 5-fold
    cross-validation (pairs coupled by Wu, Lin & Weng 2004), as libsvm does.

    Parameters
    ----------
    lam : float, default=None
        Regularization λ > 0; None means 1e-3, or λ = 1/(2nC) when ``C`` is given.
    sigma : float, default=None
        Gaussian kernel width, ``K = exp(−‖x − x'‖²/(2σ²))``; None means 1.0, or σ = 1/√(2γ) when
        ``gamma`` is given with the rbf kernel. Refused with any other kernel (it would be ignored).
    kernel : {"rbf", "linear", "poly", "precomputed"} or callable, default="rbf"
        A name in :data:`svmviz.kernels.KERNELS`; ``"precomputed"``: X is the (n, n) training gram at
        ``fit`` and the (m, n) gram of new points against the training points at prediction; or a
        callable ``k(X, Y)`` returning the (n_X, n_Y) gram matrix (scikit-learn's signature; svmviz's
        kernel objects with a ``fit(X)`` method, e.g. :class:`~svmviz.kernels.SSANOVAKernel`, are
        fitted on the training X first); see :func:`svmviz.kernels.gram`.
    L : (float, float), default=(1.0, 1.0)
        Wahba's misclassification costs (L(−1), L(+1)) of the non-standard SVM (Wahba et al. 2001,
        §5): L(−1) weighs the hinge losses of the points of ``classes_[0]``, L(+1) those of
        ``classes_[1]``. (1, 1) is the standard SVM; other costs need two classes.
    class_weight : dict, "balanced" or None, default=None
        scikit-learn's class weights w(y): a dict ``{class label: weight}`` (classes left out weigh
        1) or ``"balanced"`` (``n / (n_classes n_class)``). They multiply L: α_i ≤ L(y_i) w(y_i), i.e.
        libsvm's per-sample ``C_i = L(y_i) w(y_i) / (2nλ)``.
    tol : float, default=1e-3
        KKT tolerance on the maximal violating pair (libsvm's ``eps``).
    max_iter : int, default=10_000_000
        Cap on SMO iterations of each solve; reaching it gives ``status_ = 1`` and a
        ``ConvergenceWarning``.
    shrinking : bool, default=True
    degree : int, default=None
        Degree of the polynomial kernel ``(γ x·x' + c0)^degree``; None means 3. Refused with any other
        kernel (it would be ignored).
    gamma : float, "scale" or "auto", default=None
        scikit-learn's kernel coefficient. rbf: ``exp(−γ‖x − x'‖²)``, i.e. σ = 1/√(2γ) (give
        ``sigma`` or ``gamma``, not both). poly: the γ of ``(γ x·x' + c0)^degree``; None means 1.0.
        ``"scale"`` is 1/(d Var(X)) and ``"auto"`` 1/d at ``fit``, as in ``SVC``. Refused for the
        linear and precomputed kernels and callables, which have no γ.
    coef0 : float, default=None
        c0 of the polynomial kernel; None means 1.0. Refused with any other kernel.
    C : float, default=None
        scikit-learn's ``SVC(C=...)``: λ = 1/(2nC) with n the number of training rows at ``fit``
        (the user guide's Conventions page; the sum of the positive ``sample_weight`` when given), so
        the same C on more data is a smaller λ, as in libsvm. ``C=np.inf`` is the hard margin
        (refused, after the solve, when no function of the kernel separates the classes). Give
        ``lam`` or ``C``, not both.
    probability : bool, default=False
        Fit Platt's sigmoid for ``predict_proba`` (libsvm's internal 5-fold cross-validation:
        five more solves per pair of classes).
    random_state : int, RandomState or None, default=None
        Seeds the folds of ``probability=True``.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        With more than two classes: ``"ovo"`` gives each pair's decision value (positive for the
        pair's first class), ``"ovr"`` scikit-learn's transformation of them to one column per
        class (votes plus confidences in (−1/3, 1/3)).
    break_ties : bool, default=False
        With more than two classes and ``"ovr"``: ``predict`` takes the largest
        ``decision_function`` value instead of the first class with the most votes (refused by
        ``predict`` with ``"ovo"``).
    cache_size : float, default=200
        Megabytes of kernel rows the solver on cached rows keeps (scikit-learn's ``SVC(cache_size=200)``,
        libsvm's design); ``strategy="auto"`` builds the full matrix only when it fits in it.
    strategy : {"auto", "full", "rows"}, default="auto"
        How the kernel is computed. ``"full"``: the n×n kernel matrix, then SMO on it (:func:`solve_dual`).
        ``"rows"``: kernel rows computed on demand and kept in a least-recently-used cache of
        ``cache_size`` MB, with shrinking (``svmviz.svm.solve_dual_rows``; named kernels only).
        ``"auto"``: the full matrix when it fits in ``cache_size`` and costs less to build than
        computing its rows one by one, rows otherwise (``svmviz.svm.full_matrix_pays``, which gives
        the measurement); the full matrix for ``"precomputed"`` and callables. The solutions agree
        to ``tol``. ``probability=True``'s cross-validation solves on each pair's full matrix
        whatever the strategy.

    Attributes
    ----------
    lam_ : float
        The λ of the fit (``lam``, or 1/(2nC); 0 for the hard margin ``C=np.inf``).
    sigma_ : float or None
        The Gaussian width of the fit (``sigma``, or 1/√(2γ)); None for other kernels.
    n_weighted_ : float
        N, the n of eq. 1: the number of training rows, or the sum of the positive ``sample_weight``.
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors (α_i > 0 in some pair's machine), grouped by class in the
        order of ``classes_`` (as ``SVC``).
    support_vectors_ : ndarray of shape (n_SV, d)
        The support vectors (shape (0, 0) for ``kernel="precomputed"``, as ``SVC``).
    n_support_ : ndarray of shape (n_classes,), int32
        Support vectors of each class.
    dual_coef_ : ndarray of shape (n_classes − 1, n_SV)
        libsvm's layout. Two classes: c_i = y_i α_i/(2Nλ) at the support vectors, so
        f(x) = Σ c_i K(x_i, x) + b. More classes: the coefficient of a support vector of class i in
        the machine of the pair (i, j) is in row j − 1 if j > i, else in row j (positive for the
        pair's first class).
    intercept_ : ndarray of shape (n_classes (n_classes − 1)/2,)
        b of each pair's machine; where no α is free, the middle of its optimal interval (libsvm's
        rule).
    coef_ : ndarray of shape (n_classes (n_classes − 1)/2, d)
        The weights in feature space, linear kernel only.
    probA_, probB_ : ndarray of shape (n_classes (n_classes − 1)/2,)
        Platt's sigmoid of each pair, P(first class | x) = 1/(1 + exp(A f_ovo(x) + B)), with
        ``probability=True`` (else empty).
    classes_ : ndarray of shape (n_classes,)
        The original labels; with two, ``classes_[0]`` ↔ −1, ``classes_[1]`` ↔ +1.
    class_weight_ : ndarray of shape (n_classes,)
        w of each class.
    strategy_ : {"full", "rows"}
        How the kernel of the fit's largest two-class problem was computed (``strategy``).
    kernel_ : str or kernel object
        The kernel as used after fit (a fitted copy of a kernel object; a callable ``k(X, Y)`` as a
        ``svmviz.kernels.PairwiseKernel``).
    n_iter_ : ndarray of shape (n_classes (n_classes − 1)/2,), int32
        SMO iterations of each pair's solve.
    status_ : int
        0 converged, 1 max_iter reached (in some pair's solve).
    alpha_ : ndarray of shape (n,)
        Two classes: dual variables in Wahba's scaling, 0 ≤ α_i ≤ L(y_i) w(y_i) s_i (s the sample
        weights; 0 where s_i ≤ 0).
    objective_ : float
        Two classes: dual objective ½α'Hα − e'α at the solution.
    train_decision_ : ndarray of shape (n,)
        Two classes: f at the training points.
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (d,)
        Column names, when fitted on a DataFrame (predict then refuses other or reordered columns).

    See Also
    --------
    fit_sigma_lambda_grid : Many fits over a (σ, λ) grid, warm-started.
    svmviz.tuning.criteria_surface : GACV, XA and the other criteria over that grid.
    svmviz.path.NuSVMPath : The whole ν-SVM path instead of one λ.
    svmviz.figures.edit.compute_edit_view : The point editor's fit.

    Notes
    -----
    Wahba, Lin, Lee & Zhang 2001, eq. (1) and §5 (non-standard weights L(y)); SMO with the
    second-order working set of Fan, Chen & Lin (2005). The papers' criteria (GACV, ξα; the
    ``alpha_``, ``train_decision_`` and ``objective_`` they read) are for two classes.
    Probabilities: Platt (2000) with Lin, Lin & Weng (2007); Wu, Lin & Weng (2004), method 2.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_moons
    >>> from sklearn.svm import SVC
    >>> from svmviz.svm import SVMClassifier
    >>> X, y = make_moons(100, noise=0.2, random_state=0)
    >>> clf = SVMClassifier(lam=1e-2, sigma=0.5).fit(X, y)
    >>> clf.classes_
    array([0, 1])
    >>> round(float(clf.score(X, y)), 2)
    0.98
    >>> np.round(clf.decision_function(X[:3]), 2)
    array([-1.  ,  1.23, -0.13])

    The same machine as libsvm with C = 1/(2nλ) and gamma = 1/(2σ²) (to the solvers' tolerance),
    which scikit-learn's parameters also give:

    >>> ref = SVC(C=1 / (2 * 100 * 1e-2), gamma=1 / (2 * 0.5**2)).fit(X, y)
    >>> bool(np.allclose(clf.decision_function(X), ref.decision_function(X), atol=1e-2))
    True
    >>> same = SVMClassifier(C=1 / (2 * 100 * 1e-2), gamma=1 / (2 * 0.5**2)).fit(X, y)
    >>> bool(np.allclose(same.decision_function(X), clf.decision_function(X))), same.lam_, float(same.sigma_)
    (True, 0.01, 0.5)

    More classes are fitted one-vs-one, as ``SVC`` does:

    >>> from sklearn.datasets import load_iris
    >>> Xi, yi = load_iris(return_X_y=True)
    >>> iris = SVMClassifier(C=1.0, gamma="scale").fit(Xi, yi)
    >>> iris.dual_coef_.shape[0], iris.intercept_.shape, iris.decision_function(Xi[:2]).shape
    (2, (3,), (2, 3))
    >>> ref = SVC(C=1.0).fit(Xi, yi)
    >>> float(np.mean(iris.predict(Xi) == ref.predict(Xi)))
    1.0
    """

    def __init__(self, lam=None, sigma=None, kernel="rbf", L=(1.0, 1.0), class_weight=None, tol=1e-3,
                 max_iter=DEFAULT_MAX_ITER, shrinking=True, degree=None, gamma=None, coef0=None, C=None,
                 probability=False, random_state=None, decision_function_shape="ovr", break_ties=False,
                 cache_size=_rows.DEFAULT_CACHE_MB, strategy="auto"):
        self.lam = lam
        self.sigma = sigma
        self.kernel = kernel
        self.L = L
        self.class_weight = class_weight
        self.tol = tol
        self.max_iter = max_iter
        self.shrinking = shrinking
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.C = C
        self.probability = probability
        self.random_state = random_state
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.cache_size = cache_size
        self.strategy = strategy

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.pairwise = isinstance(self.kernel, str) and self.kernel == PRECOMPUTED
        return tags

    # ------------------------------------------------------------------ kernels
    @property
    def _precomputed(self) -> bool:
        return isinstance(self.kernel_, str) and self.kernel_ == PRECOMPUTED

    def _kernel(self, A, B=None):
        return gram(A, B, kernel=self.kernel_, sigma=1.0 if self.sigma_ is None else self.sigma_,
                    degree=self._degree, gamma=self._poly_gamma, coef0=self._coef0)

    def _gram_of(self, X, rows, cols=None):
        """The training gram between ``X[rows]`` and ``X[cols]`` (``cols`` None: ``rows``)."""
        if self._precomputed:
            return np.ascontiguousarray(X[np.ix_(rows, rows if cols is None else cols)])
        return self._kernel(X[rows]) if cols is None else self._kernel(X[rows], X[cols])

    def _kernel_diagonal_at_support(self) -> np.ndarray:
        """K(x_i, x_i) at the support vectors (the GACV and ξα of Wahba et al. 2001, eqs. 13–15)."""
        if self._precomputed:
            return self._train_diagonal[self.support_]
        if isinstance(self.kernel_, str) and self.kernel_ == "rbf":
            return np.ones(self.support_.size)
        return kernel_diagonal(self.kernel_, self.support_vectors_, degree=self._degree,
                               gamma=self._poly_gamma, coef0=self._coef0)

    def _resolve_params(self, n: float, X):
        """(λ, σ, polynomial γ, degree, c0) from ``lam``/``C``, ``sigma``/``gamma`` (scikit-learn's
        names), ``degree`` and ``coef0``; λ = 0 for the hard margin ``C=np.inf``."""
        if self.lam is not None and self.C is not None:
            raise ValueError(f"give lam or C, not both (got lam={self.lam!r}, C={self.C!r}): they are one "
                             "parameter, λ = 1/(2nC) with n the number of training rows.")
        if self.C is not None and not isinstance(self.C, (bool, str)) and np.isposinf(self.C):
            lam = 0.0
        elif self.C is not None:
            lam = 1.0 / (2.0 * n * check_positive(self.C, "C"))
        else:
            lam = check_positive(DEFAULT_LAM if self.lam is None else self.lam, "lam")
        kernel = self.kernel
        if not (callable(kernel) or (isinstance(kernel, str) and kernel in KERNELS + (PRECOMPUTED,))):
            raise ValueError(f"kernel must be one of {KERNELS + (PRECOMPUTED,)} or a callable k(X, Y) returning "
                             f"the gram matrix; got {kernel!r}.")
        _validation.check_kernel_params_used(kernel, sigma=self.sigma, gamma=self.gamma, gamma_means_sigma=True,
                                             degree=self.degree, coef0=self.coef0)
        sigma, poly_gamma, degree, coef0 = None, 1.0, 3, 1.0
        gamma = None if self.gamma is None else _libsvm_rules.resolve_gamma(self.gamma, X)
        if isinstance(kernel, str) and kernel == "rbf":
            if self.sigma is not None and self.gamma is not None:
                raise ValueError(f"give sigma or gamma, not both (got sigma={self.sigma!r}, gamma={self.gamma!r}): "
                                 "for the rbf kernel they are one parameter, gamma = 1/(2σ²).")
            if gamma is not None:
                sigma = 1.0 / np.sqrt(2.0 * check_positive(gamma, "gamma"))
            else:
                sigma = check_positive(1.0 if self.sigma is None else self.sigma, "sigma")
        elif isinstance(kernel, str) and kernel == "poly":
            if gamma is not None:
                poly_gamma = check_positive(gamma, "gamma")
            if self.degree is not None:
                degree = _validation.check_int(self.degree, "degree")
            if self.coef0 is not None:
                coef0 = float(self.coef0)
                if not np.isfinite(coef0):
                    raise ValueError(f"coef0 must be a finite number; got {self.coef0!r}.")
        return lam, sigma, poly_gamma, degree, coef0

    def _check_options(self):
        if self.decision_function_shape not in ("ovr", "ovo"):
            raise ValueError("decision_function_shape must be 'ovr' or 'ovo' (as in scikit-learn); got "
                             f"{self.decision_function_shape!r}.")
        for name in ("probability", "break_ties", "shrinking"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False; got {getattr(self, name)!r}.")
        if not (isinstance(self.strategy, str) and self.strategy in STRATEGIES):
            raise ValueError(f"strategy must be one of {STRATEGIES}; got {self.strategy!r}.")
        _check_cache_size(self.cache_size)
        if self.strategy == "rows" and not (isinstance(self.kernel, str) and self.kernel in KERNELS):
            raise ValueError(f"strategy='rows' computes kernel rows of a named kernel {KERNELS}; kernel={self.kernel!r} "
                             "gives its gram whole: use strategy='full' or 'auto'.")

    def _uses_rows(self, n: int, d: int) -> bool:
        """Whether a two-class problem of n points with d features is solved on cached rows (``strategy``)."""
        if self.strategy != "auto":
            return self.strategy == "rows"
        named = isinstance(self.kernel, str) and self.kernel in KERNELS
        return named and not full_matrix_pays(n, d, self.cache_size)

    # ------------------------------------------------------------------ fit
    def fit(self, X, y, sample_weight=None):
        """Fit on X and class labels y (two classes: Wahba's SVM; more: one machine per pair).

        Parameters
        ----------
        X : array-like or scipy sparse matrix of shape (n, d)
            Training points (a DataFrame's column names are kept in ``feature_names_in_``); the
            (n, n) training gram for ``kernel="precomputed"``.
        y : array-like of shape (n,)
            Class labels, two or more classes.
        sample_weight : array-like of shape (n,), default=None
            Weight of each point's loss (None: all 1); a weight ≤ 0 leaves the point out, as in
            scikit-learn's ``SVC``.

        Returns
        -------
        self

        Notes
        -----
        ``sample_weight`` s_i weighs point i's hinge loss in the weighted empirical risk
        (1/N) Σ s_i L(y_i) w(y_i) (1 − y_i f_i)_+ + λ‖h‖², N = Σ s_i (n when no weights are given):
        the bound of its dual variable is α_i ≤ s_i L(y_i) w(y_i), libsvm's per-sample
        ``C_i = s_i L(y_i) w(y_i)/(2Nλ)``. With ``C`` given, λ = 1/(2NC) and C_i = s_i L(y_i) w(y_i) C:
        scikit-learn's ``SVC(C).fit(X, y, sample_weight)``. A point of weight 0 or below leaves the
        problem (as in libsvm; N sums the positive weights), and integer weights give the fit to the
        rows repeated that many times (same λ, same C). X may be a scipy sparse matrix: it is made
        dense (refused first if that would not fit in memory).
        """
        X, y, classes, lam, bounds = self._prepare(X, y, sample_weight)
        if classes.size == 2:
            y_pm = binary_targets(y, classes)
            keep = np.flatnonzero(bounds > 0)  # weight ≤ 0: α_i = 0 at every solution; the SMO needs C_i > 0
            sol = self._solve(X, keep, y_pm[keep], bounds[keep])
            if keep.size < X.shape[0]:
                sol = self._expand_solution(X, y_pm, keep, sol)
            self._set_solution(X, y_pm, classes, lam, sol)
        else:
            self._fit_one_vs_one(X, y, classes, bounds)
        if self.probability:
            self._fit_platt(X, y, classes, bounds)
        else:
            self.probA_ = self.probB_ = np.empty(0)
        return self

    @property
    def _scale(self) -> float:
        """s of the dual's Q = s·YKY: 1/(2Nλ) (scikit-learn's C); 1 for the hard margin."""
        return 1.0 if self.lam_ == 0.0 else 1.0 / (2.0 * self.n_weighted_ * self.lam_)

    def _solve(self, X, rows, y_pm, bounds, *, check_margin: bool = True, K=None) -> "DualSolution":
        """One two-class problem, the rows ``rows`` of X: :func:`solve_dual_rows` on cached kernel rows
        or :func:`solve_dual` on the gram (``strategy``; ``K`` given: that gram); for the hard margin,
        the bound :data:`HARD_MARGIN_BOUND` and the refusal of a problem it does not separate."""
        hard = self.lam_ == 0.0
        C = bounds * HARD_MARGIN_BOUND if hard else bounds
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            if K is None and self._uses_rows(rows.size, X.shape[1]):
                sol = solve_dual_rows(X[rows], y_pm, scale=self._scale, C=C, kernel=self.kernel_,
                                      sigma=1.0 if self.sigma_ is None else self.sigma_, degree=self._degree,
                                      gamma=self._poly_gamma, coef0=self._coef0, tol=self.tol,
                                      max_iter=self.max_iter, shrinking=self.shrinking, cache_size=self.cache_size)
            else:
                sol = solve_dual(self._gram_of(X, rows) if K is None else K, y_pm, scale=self._scale, C=C,
                                 tol=self.tol, max_iter=self.max_iter, shrinking=self.shrinking)
        unseparated = hard and (sol.status != _smo.STATUS_CONVERGED or np.any(sol.alpha >= C * (1 - 1e-9)))
        if not (unseparated and check_margin):  # the refusal below says more than the solver's warning
            for w in caught:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        else:
            raise ValueError("C=inf asks for a hard margin, but this kernel does not separate the classes (a dual "
                             f"variable reached {HARD_MARGIN_BOUND:g}, the bound that stands for ∞): give a finite C, "
                             "or a kernel that separates them.")
        return sol

    def _expand_solution(self, X, y_pm, keep, sol: "DualSolution") -> "DualSolution":
        """The solution on every row from the one on the rows of positive weight: α = 0 on the others,
        their decision values from the support vectors and their dual gradient G_i = y_i(f_i − b) − 1."""
        n = X.shape[0]
        alpha = np.zeros(n)
        alpha[keep] = sol.alpha
        out = np.setdiff1d(np.arange(n), keep)
        sv = np.flatnonzero(alpha > 0)
        f = np.empty(n)
        f[keep] = sol.f
        f[out] = sol.b
        if sv.size:
            f[out] += self._gram_of(X, out, sv) @ (y_pm[sv] * alpha[sv] * self._scale)
        G = np.empty(n)
        G[keep] = sol.gradient
        G[out] = y_pm[out] * (f[out] - sol.b) - 1.0
        return DualSolution(alpha, sol.b, f, G, sol.objective, sol.n_iter, sol.status)

    def _prepare(self, X, y, sample_weight=None):
        """fit's validation: ``(X, y, classes, lam, bounds)`` with ``bounds`` the α bounds
        s_i L(y_i) w(y_i) (0 where s_i ≤ 0); sets ``kernel_``, ``class_weight_``, ``lam_``, ``sigma_``,
        ``n_weighted_``. Refuses, before the n×n kernel is computed, a fit that would not fit in
        memory."""
        self._check_options()
        precomputed = isinstance(self.kernel, str) and self.kernel == PRECOMPUTED
        X, y, classes = validate_fit_data(self, X, y, binary=False, accept_sparse=True)
        if precomputed and X.shape[0] != X.shape[1]:
            raise ValueError(f"kernel='precomputed' takes the (n, n) training gram matrix as X; got shape {X.shape}.")
        s = check_sample_weight(sample_weight, X.shape[0], allow_negative=True)
        positive = s > 0
        if not positive.any():
            raise ValueError("Invalid input - all samples have zero or negative weights.")
        if np.unique(y[positive]).size < 2:
            raise ValueError("Invalid input - all samples with positive weights belong to the same class: "
                             "a classifier needs a point of positive weight in two classes.")
        s = np.where(positive, s, 0.0)
        N = X.shape[0] if sample_weight is None else float(np.sum(s))
        lam, sigma, poly_gamma, degree, coef0 = self._resolve_params(N, X)
        if classes.size == 2:
            Lm, Lp = _check_L(self.L)
        elif tuple(_check_L(self.L)) != (1.0, 1.0):
            raise ValueError(f"L={tuple(self.L)!r} holds Wahba's costs (L(-1), L(+1)) of two classes; y has "
                             f"{classes.size}. Use class_weight={{label: weight}} for per-class costs.")
        w = _check_class_weight(self.class_weight, classes, y)
        codes = np.searchsorted(classes, y)
        pair_rows = [np.count_nonzero(positive & ((codes == i) | (codes == j)))
                     for i, j in _libsvm_rules.class_pairs(classes.size)]
        m = max(pair_rows)
        self.strategy_ = "rows" if self._uses_rows(m, X.shape[1]) else "full"
        if self.strategy_ == "rows" and not self.probability:  # Platt's cross-validation takes each pair's gram
            d = X.shape[1]
            _validation.check_memory(_rows_memory(m, d, self.cache_size), what=f"{type(self).__name__}.fit", n=m,
                                     n_max=lambda room: _validation.largest_n(
                                         lambda k: _rows_memory(k, d, self.cache_size), room),
                                     advice=", or a smaller cache_size")
        else:
            _validation.check_memory(_fit_memory(m), what=f"{type(self).__name__}.fit", n=m,
                                     n_max=lambda room: _validation.largest_n(_fit_memory, room),
                                     advice=", or strategy='rows' (kernel rows in a bounded cache)")
        self.kernel_ = PRECOMPUTED if precomputed else fit_kernel(as_kernel_object(self.kernel), X)
        self._train_diagonal = np.diag(X).copy() if precomputed else None
        self.class_weight_ = w
        self.lam_, self.sigma_, self._poly_gamma, self.n_weighted_ = lam, sigma, poly_gamma, N
        self._degree, self._coef0 = degree, coef0
        L = np.array([Lm, Lp]) if classes.size == 2 else np.ones(classes.size)
        return X, y, classes, lam, s * (L * w)[codes]

    def _set_solution(self, X, y_pm, classes, lam, sol: DualSolution):
        """The fitted attributes of a two-class solution (libsvm's layout for the SVC-shaped ones)."""
        self.classes_ = classes
        self.alpha_ = sol.alpha
        support = sol.alpha > 0
        self.support_ = np.concatenate([np.flatnonzero(support & (y_pm < 0)), np.flatnonzero(support & (y_pm > 0))])
        self.n_support_ = np.array([np.count_nonzero(support & (y_pm < 0)), np.count_nonzero(support & (y_pm > 0))],
                                   dtype=np.int32)
        self.dual_coef_ = (y_pm * sol.alpha * self._scale)[self.support_][None, :]
        self.intercept_ = np.array([sol.b])
        self.support_vectors_ = np.empty((0, 0)) if self._precomputed else X[self.support_]
        self.n_iter_ = np.array([sol.n_iter], dtype=np.int32)
        self.status_ = sol.status
        self.train_decision_ = sol.f
        self.objective_ = sol.objective
        return self

    def _fit_one_vs_one(self, X, y, classes, bounds):
        """libsvm's one-vs-one: a two-class machine per pair (i, j), i < j, on the rows of positive
        weight of those classes, with the same per-sample bounds; the attributes in libsvm's layout,
        where each pair's decision value is positive for class i."""
        codes = np.searchsorted(classes, y)
        k = classes.size
        pairs = _libsvm_rules.class_pairs(k)
        coef = np.zeros((k - 1, X.shape[0]))
        used = np.zeros(X.shape[0], dtype=bool)
        intercept, n_iter, status = np.empty(len(pairs)), np.empty(len(pairs), dtype=np.int32), 0
        for p, (i, j) in enumerate(pairs):
            rows = np.flatnonzero(((codes == i) | (codes == j)) & (bounds > 0))
            y_pm = np.where(codes[rows] == j, 1.0, -1.0)  # this solver's +1 is the pair's second class
            sol = self._solve(X, rows, y_pm, bounds[rows])
            c = -y_pm * sol.alpha * self._scale  # libsvm's sign: positive for class i
            sv = sol.alpha > 0
            first = codes[rows] == i
            coef[j - 1, rows[sv & first]] = c[sv & first]
            coef[i, rows[sv & ~first]] = c[sv & ~first]
            used[rows[sv]] = True
            intercept[p], n_iter[p], status = -sol.b, sol.n_iter, max(status, sol.status)
        self.support_ = np.concatenate([np.flatnonzero(used & (codes == c)) for c in range(k)])
        self.n_support_ = np.array([np.count_nonzero(used & (codes == c)) for c in range(k)], dtype=np.int32)
        self.dual_coef_ = coef[:, self.support_]
        self.intercept_ = intercept
        self.support_vectors_ = np.empty((0, 0)) if self._precomputed else X[self.support_]
        self.n_iter_, self.status_, self.classes_ = n_iter, status, classes
        for name in ("alpha_", "train_decision_", "objective_"):  # two-class only; a refit may change the classes
            self.__dict__.pop(name, None)

    def _pair_values(self, X, rows, y_pm, bounds, seed):
        """Decision values of the rows ``rows`` held out in libsvm's 5-fold cross-validation of one
        pair (rows ``rows``), positive for the pair's second class (y = +1)."""
        n = rows.size
        perm = seed.permutation(n)
        f = np.empty(n)
        K = self._gram_of(X, rows)
        for fold in range(_libsvm_rules.PLATT_FOLDS):
            test = perm[fold * n // _libsvm_rules.PLATT_FOLDS:(fold + 1) * n // _libsvm_rules.PLATT_FOLDS]
            train = np.setdiff1d(perm, test)
            yt = y_pm[train]
            if not np.any(yt > 0) or not np.any(yt < 0):  # libsvm: the training fold's one class, ±1
                f[test] = 1.0 if np.any(yt > 0) else (-1.0 if yt.size else 0.0)
                continue
            sol = self._solve(None, None, yt, bounds[train], check_margin=False, K=K[np.ix_(train, train)])
            f[test] = K[np.ix_(test, train)] @ (yt * sol.alpha * self._scale) + sol.b
        return f

    def _fit_platt(self, X, y, classes, bounds):
        """Platt's sigmoid of each pair on held-out decision values of an internal 5-fold
        cross-validation, seeded by ``random_state`` (libsvm's ``svm_binary_svc_probability``); stored
        for each pair's decision value positive for its first class, as libsvm does."""
        from sklearn.utils import check_random_state

        seed = check_random_state(self.random_state)
        codes = np.searchsorted(classes, y)
        pairs = _libsvm_rules.class_pairs(classes.size)
        A, B = np.empty(len(pairs)), np.empty(len(pairs))
        for p, (i, j) in enumerate(pairs):
            rows = np.flatnonzero(((codes == i) | (codes == j)) & (bounds > 0))
            y_pm = np.where(codes[rows] == j, 1.0, -1.0)
            f = self._pair_values(X, rows, y_pm, bounds[rows], seed)
            A[p], B[p] = _libsvm_rules.sigmoid_train(-f, -y_pm)  # the first class's side, as libsvm
        self.probA_, self.probB_ = A, B

    def _fit_from_sequence(self, X, y, seq: "LambdaSequence", k: int):
        """Fitted to the solution ``seq`` holds at ``seq.lambdas[k]`` instead of solving again.

        ``seq`` must be :func:`fit_lambda_sequence` of this estimator's problem on (X, y) — the same
        kernel, L and class weights (checked: the bounds and λ must match) — e.g. the λ chosen along
        a tuned sequence: the estimator is then the machine the sequence evaluated, and no second
        solve (nor the SMO variant with shrinking) is compiled or run.
        ``n_iter_`` is the sequence's iterations at that λ (warm-started from the larger λ).
        """
        X, y, classes, lam, C = self._prepare(X, y)
        if classes.size != 2:
            raise ValueError(f"a λ sequence is of a two-class problem; y has {classes.size} classes.")
        y_pm = binary_targets(y, classes)
        if lam != float(seq.lambdas[k]):
            raise ValueError(f"lam = {lam!r} is not the sequence's λ {float(seq.lambdas[k])!r}.")
        alpha = np.array(seq.alphas[k], dtype=np.float64)
        if alpha.shape != y_pm.shape or np.any(alpha < 0) or np.any(alpha > C):
            raise ValueError("the sequence's solution is not one of this problem (its α leave the box 0 ≤ α ≤ C).")
        b, f = float(seq.b[k]), np.array(seq.f[k], dtype=np.float64)
        G = y_pm * (f - b) - 1.0  # f_i = y_i (G_i − p_i) + b with p = −1
        sol = DualSolution(alpha, b, f, G, 0.5 * float(alpha @ (G - 1.0)), int(seq.n_iter[k]), int(seq.status[k]))
        self.probA_ = self.probB_ = np.empty(0)
        return self._set_solution(X, y_pm, classes, lam, sol)

    # ------------------------------------------------------------------ prediction
    def _test_kernel(self, X):
        """The kernel between the points X and the support vectors, shape (m, n_SV)."""
        if self._precomputed:
            return X[:, self.support_]
        return self._kernel(X, self.support_vectors_)

    def _ovo_values(self, X) -> np.ndarray:
        """Decision values: shape (m,) for two classes (positive for ``classes_[1]``), else
        (m, n_pairs) of each pair (i, j), positive for class i."""
        X = validate_predict_data(self, X, accept_sparse=True)
        if self._precomputed and X.shape[1] != self.n_features_in_:
            raise ValueError(f"kernel='precomputed' predicts from the (m, n) gram against the {self.n_features_in_} "
                             f"training points; got shape {X.shape}.")
        k = self.classes_.size
        if self.support_.size == 0:
            return np.full((X.shape[0],) if k == 2 else (X.shape[0], k * (k - 1) // 2), self.intercept_[0])
        if k == 2:
            c, b = self.dual_coef_[0], self.intercept_[0]
            return predict_in_chunks(lambda rows: self._test_kernel(rows) @ c + b, X, self.support_.size)
        start = np.concatenate([[0], np.cumsum(self.n_support_)])
        pairs = _libsvm_rules.class_pairs(k)

        def block(rows):
            Kt = self._test_kernel(rows)
            out = np.empty((rows.shape[0], len(pairs)))
            for p, (i, j) in enumerate(pairs):
                si, sj = slice(start[i], start[i + 1]), slice(start[j], start[j + 1])
                out[:, p] = (Kt[:, si] @ self.dual_coef_[j - 1, si] + Kt[:, sj] @ self.dual_coef_[i, sj]
                             + self.intercept_[p])
            return out

        return predict_in_chunks(block, X, self.support_.size)

    @fill_doc
    def decision_function(self, X):
        """Decision values f(x) = Σ c_i K(x_i, x) + b (of each pair of classes with more than two).

        {X_predict}

        Returns
        -------
        f : ndarray of shape (m,), (m, n_classes) or (m, n_classes (n_classes − 1)/2)
            Two classes: positive means ``classes_[1]``. More: ``decision_function_shape="ovr"``
            one column per class (the largest is the class with the most votes), ``"ovo"`` each
            pair's value (positive for the pair's first class).
        """
        dec = self._ovo_values(X)
        if self.classes_.size == 2 or self.decision_function_shape == "ovo":
            return dec
        return _libsvm_rules.ovr_decision(dec, self.classes_.size)

    def predict(self, X):
        """Class labels: two classes, ``classes_[1]`` where f(x) > 0, else ``classes_[0]`` (f exactly 0
        counts as ``classes_[0]``: [τ]_* counts 0 as an error); more, libsvm's one-vs-one vote (the
        first class of most votes), or the largest one-vs-rest value with ``break_ties``.

        Parameters
        ----------
        X : array-like of shape (m, d)
            Points to classify ((m, n) gram against the training points for ``kernel="precomputed"``).

        Returns
        -------
        ndarray of shape (m,)
        """
        if self.break_ties and self.decision_function_shape == "ovo":
            raise ValueError("break_ties must be False when decision_function_shape is 'ovo': ties are broken "
                             "by the one-vs-rest decision values.")
        dec = self._ovo_values(X)
        k = self.classes_.size
        if k == 2:
            return np.where(dec > 0, self.classes_[1], self.classes_[0])
        if self.break_ties and self.decision_function_shape == "ovr":
            return self.classes_[np.argmax(_libsvm_rules.ovr_decision(dec, k), axis=1)]
        return self.classes_[np.argmax(_libsvm_rules.ovo_votes(dec, k), axis=1)]

    def _check_proba(self):
        if not self.probability:
            raise AttributeError("predict_proba is available when probability=True (Platt's sigmoid is fitted at "
                                 "fit).")
        return True

    @available_if(_check_proba)
    def predict_proba(self, X):
        """Class probabilities: Platt's sigmoid of each pair's decision value, coupled across pairs
        by Wu, Lin & Weng (2004), method 2 (libsvm's), with ``probability=True``.

        Parameters
        ----------
        X : array-like of shape (m, d)

        Returns
        -------
        ndarray of shape (m, n_classes)
            Columns in the order of ``classes_``. Their argmax may differ from ``predict`` (the
            vote), as in ``SVC``.
        """
        dec = self._ovo_values(X)
        if self.probA_.size == 0:
            from sklearn.exceptions import NotFittedError

            raise NotFittedError("predict_proba is not available when fitted with probability=False: fit again with "
                                 "probability=True.")
        k = self.classes_.size
        if k == 2:
            r = _libsvm_rules.sigmoid_predict(-dec, self.probA_[0], self.probB_[0])
            r = np.clip(r, _libsvm_rules.MIN_PROB, 1.0 - _libsvm_rules.MIN_PROB)
            return np.column_stack([r, 1.0 - r])
        R = np.zeros((dec.shape[0], k, k))
        for p, (i, j) in enumerate(_libsvm_rules.class_pairs(k)):
            r = np.clip(_libsvm_rules.sigmoid_predict(dec[:, p], self.probA_[p], self.probB_[p]),
                        _libsvm_rules.MIN_PROB, 1.0 - _libsvm_rules.MIN_PROB)
            R[:, i, j], R[:, j, i] = r, 1.0 - r
        return _libsvm_rules.couple_pairwise(R)

    @available_if(_check_proba)
    def predict_log_proba(self, X):
        """The logarithm of ``predict_proba``.

        Parameters
        ----------
        X : array-like of shape (m, d)

        Returns
        -------
        ndarray of shape (m, n_classes)
        """
        return np.log(self.predict_proba(X))

    @property
    def coef_(self) -> np.ndarray:
        # documented in the class's Attributes section; linear kernel only, as SVC's coef_
        if not (isinstance(self.kernel, str) and self.kernel == "linear"):
            raise AttributeError("coef_ is only available when using a linear kernel")
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "dual_coef_")
        k = self.classes_.size
        if k == 2:
            out = self.dual_coef_ @ self.support_vectors_
        else:
            start = np.concatenate([[0], np.cumsum(self.n_support_)])
            out = np.empty((k * (k - 1) // 2, self.support_vectors_.shape[1]))
            for p, (i, j) in enumerate(_libsvm_rules.class_pairs(k)):
                si, sj = slice(start[i], start[i + 1]), slice(start[j], start[j + 1])
                out[p] = (self.dual_coef_[j - 1, si] @ self.support_vectors_[si]
                          + self.dual_coef_[i, sj] @ self.support_vectors_[sj])
        out.flags.writeable = False
        return out
