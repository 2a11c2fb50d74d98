"""Loss functions of the margin τ = yf, their prediction functions, and the GACV curves (Wahba 1998).

- ``_losses`` — the losses g(τ) of Wahba (1998), §1.2–§1.3 (hinge, misclassification, deviance,
  exponential, sigmoid, concave exponential, v_{ε+,ε−} of eq. 1.23, the USVC's smooth step), their
  derivatives, Wahba's prediction function μ(f) (eq. 1.39), expected losses and population minimizers;
- ``_gacv`` — exact GACV (Wahba et al. 2001, eq. 4), randomized GACV (Wahba 1998, eq. 1.63) and exact
  leave-one-out along λ for one σ (:func:`gacv_curves`).
"""
from ._gacv import GacvCurves, gacv_curves
from ._losses import (
    DEFAULT_PARAMS, LOSS_PARAMS, LOSSES, WAHBA_V_LATEX, Minimizer, concave_exp, deviance, expected_loss, exponential,
    hinge, loss_derivative, loss_values, misclassification, population_minimizer, prediction_function, sigmoid,
    smooth_step, wahba_v,
)

__all__ = ["DEFAULT_PARAMS", "LOSS_PARAMS", "LOSSES", "WAHBA_V_LATEX", "GacvCurves", "Minimizer", "concave_exp",
           "deviance", "expected_loss", "exponential", "gacv_curves", "hinge", "loss_derivative", "loss_values",
           "misclassification", "population_minimizer", "prediction_function", "sigmoid", "smooth_step", "wahba_v"]
