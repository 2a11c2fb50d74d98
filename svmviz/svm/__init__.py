"""Wahba's standard and non-standard support vector machine (Wahba, Lin, Lee & Zhang 2001).

The problem of Wahba et al. (2001), eq. (1) and §5, ``min (1/n) Σ L(y_i)(1 − y_i f(x_i))_+ + λ‖h‖²``,
solved in its dual by SMO with second-order working-set selection (Fan, Chen & Lin 2005):

- ``_classes`` — the validated layer: :func:`solve_dual`, the warm-started λ sequences
  (:func:`fit_lambda_sequence`), the (σ, λ) grid (:func:`fit_sigma_lambda_grid`, :func:`grid_memory`)
  and the estimator :class:`SVMClassifier`;
- ``_smo`` — the compiled solver it wraps: SMO on a precomputed kernel matrix, the λ and σ sequences
  and the exact leave-one-out refits (arrays in, status codes out);
- ``_rows`` — SMO on kernel rows computed on demand in a bounded LRU cache, with shrinking (libsvm's
  design), for :func:`solve_dual_rows` and :class:`SVMClassifier`'s ``strategy``; it reuses
  ``_smo``'s tolerances, shrinking test and intercept.

Imports flow one way: this package re-exports ``_classes``, which calls ``_rows`` and ``_smo``.

Besides :data:`__all__`, the facade offers svmviz's other modules (the criteria-surface engine
``svmviz._surface``, :mod:`svmviz.tuning`, :mod:`svmviz.criteria`) the grid's input checks and
the compiled entry points they run: :func:`check_grid_problem`, :func:`sigma_lambda_grid`,
:func:`lambda_sequence`, :func:`loo_decisions`, :func:`rbf_sigma_sequence` and :func:`rbf_sigma_loo`
(arrays in, status codes out; their callers validate the inputs). They are not public API: they are
listed in ``_INTERNAL``, not in ``__all__``.
"""
from ._classes import (
    DEFAULT_LAM, DEFAULT_MAX_ITER, GRID_ARRAYS, GRID_SHRINKING, DualSolution, LambdaSequence, SigmaLambdaGrid,
    STRATEGIES, SVMClassifier, check_grid_memory, fit_lambda_sequence, fit_sigma_lambda_grid, full_matrix_pays,
    grid_memory, solve_dual, solve_dual_rows,
)
from ._rows import DEFAULT_CACHE_MB
from ._classes import _check_grid_problem as check_grid_problem
from ._classes import _sigma_lambda_grid as sigma_lambda_grid
from ._smo import lambda_sequence, loo_decisions, rbf_sigma_loo, rbf_sigma_sequence

__all__ = ["DEFAULT_CACHE_MB", "DEFAULT_LAM", "DEFAULT_MAX_ITER", "GRID_ARRAYS", "GRID_SHRINKING", "DualSolution",
           "LambdaSequence", "STRATEGIES", "SigmaLambdaGrid", "SVMClassifier", "check_grid_memory",
           "fit_lambda_sequence", "fit_sigma_lambda_grid", "full_matrix_pays", "grid_memory", "solve_dual",
           "solve_dual_rows"]

#: names this facade offers svmviz's other modules only (see the module's docstring)
_INTERNAL = ("check_grid_problem", "sigma_lambda_grid", "lambda_sequence", "loo_decisions", "rbf_sigma_loo",
             "rbf_sigma_sequence")
