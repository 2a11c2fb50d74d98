"""Wahba's standard and non-standard support vector machine (Wahba, Lin, Lee & Zhang 2001).

The problem of Wahba et al. (2001), eq. (1) and §5, ``min (1/n) Σ L(y_i)(1 − y_i f(x_i))_+ + λ‖h‖²``,
solved in its dual by SMO with second-order working-set selection (Fan, Chen & Lin 2005):

- ``_classes`` — the validated layer: :func:`solve_dual`, the warm-started λ sequences
  (:func:`fit_lambda_sequence`), the (σ, λ) grid (:func:`fit_sigma_lambda_grid`, :func:`grid_memory`)
  and the estimator :class:`SVMClassifier`;
- ``_smo`` — the compiled solver it wraps: SMO on a precomputed kernel matrix, the λ and σ sequences
  and the exact leave-one-out refits (arrays in, status codes out).

Imports flow one way: this package re-exports ``_classes``, which calls ``_smo``.
"""
from ._classes import (
    DEFAULT_LAM, DEFAULT_MAX_ITER, GRID_ARRAYS, GRID_SHRINKING, DualSolution, LambdaSequence, SigmaLambdaGrid,
    SVMClassifier, check_grid_memory, fit_lambda_sequence, fit_sigma_lambda_grid, grid_memory, solve_dual,
)

__all__ = ["DEFAULT_LAM", "DEFAULT_MAX_ITER", "GRID_ARRAYS", "GRID_SHRINKING", "DualSolution", "LambdaSequence",
           "SigmaLambdaGrid", "SVMClassifier", "check_grid_memory", "fit_lambda_sequence", "fit_sigma_lambda_grid",
           "grid_memory", "solve_dual"]
