"""The USVC's loss and objective (Navia-Vázquez et al. 2004, eqs. 4–6): θ̃_s, the primal functional, its surfaces and profiles, error curves.

Private module: import the names from :mod:`svmviz.usvc`.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import _irwls
from .._validation import check_binary_labels, check_int, check_matrix, check_positive

LOSSES = {"hinge": _irwls.LOSS_HINGE, "smooth_step": _irwls.LOSS_SMOOTH_STEP}


# ----------------------------------------------------------------------------------------------
# validation helpers
# ----------------------------------------------------------------------------------------------
def _check_loss(loss) -> int:
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {tuple(LOSSES)}; got {loss!r}.")
    return LOSSES[loss]


def _check_s(s) -> float:
    s = check_positive(s, "s")
    if s < 1.0:
        raise ValueError(f"s (the smooth-step exponent) must be at least 1; got {s!r}.")
    return s


def _check_k(k_eps) -> float:
    k = check_positive(k_eps, "k_eps")
    if k >= 1.0:
        raise ValueError(f"k_eps must be a small positive constant below 1 (e.g. 1e-4); got {k_eps!r}.")
    return k


def _check_unit(v, name) -> float:
    try:
        v = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number in [0, 1); got {v!r}.") from None
    if not (0.0 <= v < 1.0):
        raise ValueError(f"{name} must lie in [0, 1) (0 = no damping); got {v!r}.")
    return v


def _check_1d_problem(x, y):
    X = check_matrix(x, "x", min_rows=2)
    if X.shape[1] != 1:
        raise ValueError(f"x must be one-dimensional (one feature); got {X.shape[1]} features.")
    y_pm, _ = check_binary_labels(y, X.shape[0])
    return np.ascontiguousarray(X[:, 0]), y_pm


def _check_grid(v, name) -> np.ndarray:
    g = np.atleast_1d(np.asarray(v, dtype=np.float64))
    if g.ndim != 1 or g.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of numbers.")
    if not np.all(np.isfinite(g)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return np.ascontiguousarray(g)


# ----------------------------------------------------------------------------------------------
# the loss
# ----------------------------------------------------------------------------------------------
def theta_smooth(xi, s: float = 2.0, k_eps: float = 1e-4) -> np.ndarray:
    """Smooth step loss θ̃_s(ξ) (Navia-Vázquez et al. 2004, eq. 6) on slacks ξ (negative ξ is clipped to 0).

    Parameters
    ----------
    xi : array-like of any shape
    s : float ≥ 1 — steepness; θ̃_s → the step at ξ = 1 as s → ∞.
    k_eps : float in (0, 1) — keeps a small slope at ξ = 0 (maximal margin on separable data).

    Returns
    -------
    ndarray, same shape as ``xi``.

    Notes
    -----
    Navia-Vázquez et al. 2004, (Navia-Vázquez et al. 2004, eq. 6).
    """
    x = np.asarray(xi, dtype=np.float64)
    if not np.all(np.isfinite(x)):
        raise ValueError("xi contains NaN or infinite values.")
    return _irwls._theta_array(np.ascontiguousarray(x.ravel()), _irwls.LOSS_SMOOTH_STEP,
                               _check_s(s), _check_k(k_eps)).reshape(x.shape)


def theta_smooth_derivative(xi, s: float = 2.0, k_eps: float = 1e-4) -> np.ndarray:
    """dθ̃_s/dξ, the derivative of the smooth step (right derivative at ξ = 0; ξ < 0 is treated as 0).

    Parameters
    ----------
    xi : array-like of any shape
        Slacks ξ.
    s : float ≥ 1
        Steepness of θ̃_s.
    k_eps : float in (0, 1)
        k_ε of θ̃_s.

    Returns
    -------
    ndarray of the shape of ``xi``

    Notes
    -----
    Navia-Vázquez et al. 2004, derivative of eq. 6, used in the IRWLS weights of eq. 21.
    """
    x = np.asarray(xi, dtype=np.float64)
    if not np.all(np.isfinite(x)):
        raise ValueError("xi contains NaN or infinite values.")
    return _irwls._dtheta_array(np.ascontiguousarray(x.ravel()), _irwls.LOSS_SMOOTH_STEP,
                                _check_s(s), _check_k(k_eps)).reshape(x.shape)


def loss_values(xi, loss: str = "hinge", s: float = 2.0, k_eps: float = 1e-4) -> np.ndarray:
    """The loss θ(ξ) of the SVC (hinge, θ(ξ) = ξ) or the USVC (smooth step θ̃_s) on slacks ξ.

    Parameters
    ----------
    xi : array-like of any shape
        Slacks ξ (ξ < 0 is clipped to 0).
    loss : {"hinge", "smooth_step"}
    s, k_eps : float
        Parameters of θ̃_s (``loss="smooth_step"`` only).

    Returns
    -------
    ndarray of the shape of ``xi``

    Notes
    -----
    Navia-Vázquez et al. 2004, eqs. 4 (hinge) and 6 (smooth step).
    """
    code = _check_loss(loss)
    if code == _irwls.LOSS_HINGE:
        x = np.asarray(xi, dtype=np.float64)
        return np.maximum(x, 0.0)
    return theta_smooth(xi, s, k_eps)


# ----------------------------------------------------------------------------------------------
# primal functional, surfaces and profiles
# ----------------------------------------------------------------------------------------------
def primal_value(X, y, coef, intercept, *, C: float = 10.0, loss: str = "hinge", s: float = 2.0,
                 k_eps: float = 1e-4) -> float:
    """L̃(w, b) = ½‖w‖² + C Σ θ((1 − y_i(w'x_i + b))_+) for a linear machine.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), two-valued labels
    coef : array-like of shape (d,)
        w.
    intercept : float
        b.
    C, loss, s, k_eps : as in :class:`IRWLSClassifier`.

    Returns
    -------
    float

    Notes
    -----
    Navia-Vázquez et al. 2004, (Navia-Vázquez et al. 2004, eq. 5) (smooth step) and (Navia-Vázquez et al. 2004, eq. 4) (hinge).
    """
    X = check_matrix(X, "X")
    y_pm, _ = check_binary_labels(y, X.shape[0])
    w = np.ascontiguousarray(np.asarray(coef, dtype=np.float64).ravel())
    if w.shape[0] != X.shape[1] or not np.all(np.isfinite(w)):
        raise ValueError(f"coef must hold {X.shape[1]} finite numbers; got shape {w.shape}.")
    b = float(intercept)
    return float(_irwls._primal(X, np.eye(X.shape[1]), y_pm, w, b, check_positive(C, "C"), np.ones(X.shape[0]),
                                _check_loss(loss), _check_s(s), _check_k(k_eps)))


def primal_surface(x, y, th, w, *, C: float = 10.0, loss: str = "hinge", s: float = 2.0,
                   k_eps: float = 1e-4) -> np.ndarray:
    """The error surface L̃(Th, w) of a 1-D linear machine f(x) = w (x − Th) on a grid.

    L̃(w, b) = ½w² + C Σ_i θ((1 − y_i f(x_i))_+) (Navia-Vázquez et al. 2004, eq. 5) in the (Th, w)
    parametrisation of their Fig. 3 (Th = −b/w), with θ the hinge (eq. 4) or the smooth step θ̃_s (eq. 6).

    Parameters
    ----------
    x : array_like of shape (n,) or (n, 1)
        The one feature.
    y : array_like of shape (n,)
        Two-valued labels (mapped to −1, +1 in sorted order).
    th : array_like of shape (m,)
        Thresholds Th.
    w : array_like of shape (q,)
        Slopes w.
    C : float > 0, default 10.0
        Weight of the loss term.
    loss : {"hinge", "smooth_step"}, default "hinge"
        θ: the SVC's hinge or the USVC's smooth step.
    s : float, default 2.0
        The smooth step's exponent s.
    k_eps : float in (0, 1), default 1e-4
        The smooth step's k_ε (a small slope at ξ = 0).

    Returns
    -------
    L : ndarray of shape (q, m)
        Rows follow ``w``, columns follow ``th`` (plotly's contour layout).

    See Also
    --------
    primal_profile : Its minimum over w at each Th.
    svmviz.figures.usvc.compute_error_surface : The surface for the page's figure.
    """
    xv, y_pm = _check_1d_problem(x, y)
    return _irwls.primal_grid_1d(xv, y_pm, _check_grid(th, "th"), _check_grid(w, "w"),
                                 check_positive(C, "C"), _check_loss(loss), _check_s(s),
                                 _check_k(k_eps))


class Profile(NamedTuple):
    """min over w ≥ 0 of L̃(Th, w) for each threshold Th (Navia-Vázquez et al. 2004, Figs. 3b, 3d).

    Attributes
    ----------
    th : ndarray of shape (m,)
        The thresholds Th.
    w : ndarray of shape (m,)
        The minimising slope at each Th.
    value : ndarray of shape (m,)
        min_w L̃(Th, w).
    per_sample : ndarray of shape (m,)
        ``value / (C n)``: the "error count" per sample the machine minimises.
    """

    th: np.ndarray       # (m,)
    w: np.ndarray        # (m,) minimising slope
    value: np.ndarray    # (m,) min_w L̃(Th, w)
    per_sample: np.ndarray  # (m,) value / (C n): the "error count" the machine minimises


def primal_profile(x, y, th, *, C: float = 10.0, loss: str = "hinge", s: float = 2.0,
                   k_eps: float = 1e-4, n_w: int = 400, w_max: float | None = None) -> Profile:
    """Profile min_{w ≥ 0} L̃(Th, w) — the CE curve the algorithm actually minimises (Navia-Vázquez et al. 2004, Figs. 3b, 3d).

    The minimiser lies in [0, √(2 L̃(Th, 0))] (as L̃ ≥ ½w²), the default ``w_max``. Grid search on
    ``n_w`` points, then golden-section refinement next to the best one. For the hinge L̃ is convex
    in w and the result is the exact minimum; for the smooth step it is the best of the grid, refined.

    Parameters
    ----------
    x : array-like of shape (n,) or (n, 1)
    y : array-like of shape (n,), two-valued labels
    th : array-like of shape (m,)
        Thresholds Th.
    C, loss, s, k_eps : as in :class:`IRWLSClassifier`.
    n_w : int
        Grid points in w.
    w_max : float, optional
        Upper end of the w grid (default √(2 L̃(Th_0, 0))).

    Returns
    -------
    Profile with arrays of shape (m,).

    Notes
    -----
    Navia-Vázquez et al. 2004, §3 and Fig. 3 (dashed cross-section of the error surface).
    """
    xv, y_pm = _check_1d_problem(x, y)
    thg = _check_grid(th, "th")
    C = check_positive(C, "C")
    code, s, k = _check_loss(loss), _check_s(s), _check_k(k_eps)
    n_w = check_int(n_w, "n_w", 3)
    if w_max is None:
        L0 = _irwls.primal_grid_1d(xv, y_pm, thg[:1], np.zeros(1), C, code, s, k)[0, 0]
        w_max = math.sqrt(2.0 * L0)
    w_max = check_positive(w_max, "w_max")
    w_best, L_best = _irwls.profile_1d(xv, y_pm, thg, w_max, n_w, C, code, s, k, 40)
    return Profile(thg, w_best, L_best, L_best / (C * xv.shape[0]))


def empirical_ce(x, y, th) -> np.ndarray:
    """Training classification error of the rule "+1 when x > Th" for each Th.

    A point exactly at Th counts as an error ([τ]_* = 1 at τ = 0).

    Parameters
    ----------
    x : array-like of shape (n,) or (n, 1)
    y : array-like of shape (n,), two-valued labels (the larger one is +1)
    th : array-like of shape (m,)

    Returns
    -------
    ndarray of shape (m,)
        Fraction of misclassified points (Navia-Vázquez et al. 2004, Fig. 3b, "empirical CE").
    """
    xv, y_pm = _check_1d_problem(x, y)
    return _irwls.empirical_ce_1d(xv, y_pm, _check_grid(th, "th"))


def theoretical_ce(scenario: str, th) -> np.ndarray:
    """Theoretical CE(Th) of scenario "A" or "B" (Navia-Vázquez et al. 2004, eqs. 28–29).

    Delegates to :func:`svmviz.data.usvc_theoretical_ce` (the single implementation of that formula).

    Parameters
    ----------
    scenario : {"A", "B"}
    th : array-like of shape (m,)

    Returns
    -------
    ndarray of shape (m,)
    """
    from ..data import usvc_theoretical_ce

    return np.asarray(usvc_theoretical_ce(scenario, _check_grid(th, "th")), dtype=np.float64)
