"""SVC trained by iterated re-weighted least squares (IRWLS) and the unbiased SVC (USVC).

Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal (2004), "Advantages of unbiased
support vector classifiers for data mining applications" (Navia-Vázquez et al. 2004; SPEC §5).

Primal (Navia-Vázquez et al. 2004, eq. 5)::

    L̃(w, b) = ½‖w‖² + C Σ_i θ(ξ_i),   ξ_i = (1 − y_i f(x_i))_+,

with θ(ξ) = ξ (the SVC, (Navia-Vázquez et al. 2004, eq. 4)) or the smooth step θ̃_s (the USVC, (Navia-Vázquez et al. 2004, eq. 6))::

    θ̃_s(ξ) = (ξ + k^{1/s})^s / (2 (1 + k^{1/s})^s)           0 ≤ ξ < 1
    θ̃_s(ξ) = 1 − (1 + k^{1/s})^s / (2 (ξ + k^{1/s})^s)       ξ ≥ 1.

Training: IRWLS (Navia-Vázquez et al. 2004, eqs. 20–22), damped (Navia-Vázquez et al. 2004, §3), from the regularised LS solution (a_i = 1) to the SVC,
and from the SVC to the USVC (Navia-Vázquez et al. 2004, §2). The machine is linear, f(x) = w'x + b, or semiparametric,
f(x) = Σ_r β_r K(c_r, x) + b with R prototypes c_r from k-means or FSCL (Navia-Vázquez et al. 2004, eqs. 23–27).

The weight convention. (Navia-Vázquez et al. 2004, eq. 22) writes a_i = 2α_i/(e_i y_i). With it the fixed point of (Navia-Vázquez et al. 2004, eq. 20)
satisfies w = Σ 2α_i y_i x_i, i.e. the KKT conditions of the problem with 2C, not (Navia-Vázquez et al. 2004, eq. 10). We use
a_i = α_i/(e_i y_i) (``weight_factor=1``), whose fixed point is the KKT point of (Navia-Vázquez et al. 2004, eq. 5) with the
stated C — for the hinge the libsvm QP solution (a test). ``weight_factor=2`` reproduces the literal
formula (≡ doubling C).
"""
from __future__ import annotations

import math
import warnings
from typing import Callable, NamedTuple

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from sklearn.utils.validation import check_is_fitted

from . import _irwls
from ._validation import (BinaryClassifierMixin, binary_targets, check_binary_labels, check_matrix,
                          check_positive, validate_fit_data, validate_predict_data)
from .kernels import fit_kernel, gram

LOSSES = {"hinge": _irwls.LOSS_HINGE, "smooth_step": _irwls.LOSS_SMOOTH_STEP}
PROTOTYPE_METHODS = ("kmeans", "fscl")
STAGES = ("LS", "SVC", "USVC")
DEFAULT_R = 20

#: Navia-Vázquez et al. 2004, Table 1 (n = 500 train / 500 test, C = 10, 100 trials, linear machine):
#: mean and (sd) of train CE %, test CE % and Th = −b/w; "optimal" are the theoretical values.
PAPER_TABLE1 = {
    "A": {
        "optimal": {"train_ce": (20.0, None), "test_ce": (20.0, None), "threshold": (0.5, None)},
        "LS": {"train_ce": (30.5, 2.9), "test_ce": (30.7, 2.7), "threshold": (0.30, 0.02)},
        "SVC": {"train_ce": (26.8, 2.6), "test_ce": (27.1, 2.4), "threshold": (0.35, 0.02)},
        "USVC(s=2)": {"train_ce": (19.9, 1.7), "test_ce": (20.4, 1.9), "threshold": (0.49, 0.06)},
        "USVC(s=4)": {"train_ce": (21.1, 2.0), "test_ce": (21.8, 2.6), "threshold": (0.47, 0.1)},
    },
    "B": {
        "optimal": {"train_ce": (17.0, None), "test_ce": (17.0, None), "threshold": (0.6, None)},
        "LS": {"train_ce": (31.8, 1.4), "test_ce": (31.7, 1.9), "threshold": (0.30, 0.02)},
        "SVC": {"train_ce": (24.8, 2.6), "test_ce": (25.5, 2.4), "threshold": (0.40, 0.02)},
        "USVC(s=2)": {"train_ce": (19.7, 1.8), "test_ce": (19.8, 1.9), "threshold": (0.58, 0.01)},
        "USVC(s=4)": {"train_ce": (20.1, 5.2), "test_ce": (19.7, 5.4), "threshold": (0.56, 0.02)},
    },
}


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


def _check_int(v, name, lo) -> int:
    if isinstance(v, bool) or int(v) != v or v < lo:
        raise ValueError(f"{name} must be an integer ≥ {lo}; got {v!r}.")
    return int(v)


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
    return float(_irwls._primal(X, np.eye(X.shape[1]), y_pm, w, b, check_positive(C, "C"),
                                _check_loss(loss), _check_s(s), _check_k(k_eps)))


def primal_surface(x, y, th, w, *, C: float = 10.0, loss: str = "hinge", s: float = 2.0,
                   k_eps: float = 1e-4) -> np.ndarray:
    """The error surface L̃(Th, w) of a 1-D linear machine f(x) = w (x − Th) on a grid.

    Parameters
    ----------
    x : (n,) or (n, 1) ; y : (n,) ; th : (m,) thresholds ; w : (q,) slopes

    Returns
    -------
    L : ndarray (q, m) — rows follow ``w``, columns follow ``th`` (plotly's contour layout).

    Notes
    -----
    Navia-Vázquez et al. 2004, (Navia-Vázquez et al. 2004, eq. 5) in the (Th, w) parametrisation of Fig. 3 (Th = −b/w).
    """
    xv, y_pm = _check_1d_problem(x, y)
    return _irwls.primal_grid_1d(xv, y_pm, _check_grid(th, "th"), _check_grid(w, "w"),
                                 check_positive(C, "C"), _check_loss(loss), _check_s(s),
                                 _check_k(k_eps))


class Profile(NamedTuple):
    """min over w ≥ 0 of L̃(Th, w) for each Th."""

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
    n_w = _check_int(n_w, "n_w", 3)
    if w_max is None:
        L0 = _irwls.primal_grid_1d(xv, y_pm, thg[:1], np.zeros(1), C, code, s, k)[0, 0]
        w_max = math.sqrt(2.0 * L0)
    w_max = check_positive(w_max, "w_max")
    w_best, L_best = _irwls.profile_1d(xv, y_pm, thg, w_max, n_w, C, code, s, k, 40)
    return Profile(thg, w_best, L_best, L_best / (C * xv.shape[0]))


def empirical_ce(x, y, th) -> np.ndarray:
    """Training classification error of the rule "+1 when x > Th" for each Th.

    A point exactly at Th counts as an error (SPEC §1, [τ]_*).

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
    from .data import usvc_theoretical_ce

    return np.asarray(usvc_theoretical_ce(scenario, _check_grid(th, "th")), dtype=np.float64)


# ----------------------------------------------------------------------------------------------
# prototypes
# ----------------------------------------------------------------------------------------------
def fscl_prototypes(X, n_prototypes: int, *, n_epochs: int = 20, lr0: float = 0.3, lr1: float = 0.01,
                    random_state: int = 0):
    """Frequency Sensitive Competitive Learning (Ahalt et al. 1990), the prototype finder of (Navia-Vázquez et al. 2004, §4).

    Each point moves its winner j = argmin_r u_r ‖x − c_r‖² (u_r its win count so far) by
    η (x − c_r); η decays geometrically from ``lr0`` to ``lr1``.

    Parameters
    ----------
    X : array-like of shape (n, d)
    n_prototypes : int
        R ≤ n.
    n_epochs : int
    lr0, lr1 : float
        First and last learning rate η.
    random_state : int

    Returns
    -------
    centres : ndarray of shape (R, d)
    wins : ndarray of shape (R,), int
        Wins of each prototype in the last epoch.
    """
    X = check_matrix(X, "X")
    R = _check_int(n_prototypes, "n_prototypes", 1)
    if R > X.shape[0]:
        raise ValueError(f"n_prototypes ({R}) cannot exceed the number of points ({X.shape[0]}).")
    n_epochs = _check_int(n_epochs, "n_epochs", 1)
    lr0, lr1 = check_positive(lr0, "lr0"), check_positive(lr1, "lr1")
    return _irwls.fscl(X, R, n_epochs, lr0, lr1, int(random_state) % (2**32 - 1))


def _kmeans_prototypes(X, R, seed):
    from sklearn.cluster import KMeans

    km = KMeans(n_clusters=R, n_init=4, random_state=int(seed)).fit(X)
    return np.ascontiguousarray(km.cluster_centers_)


# ----------------------------------------------------------------------------------------------
# the estimator
# ----------------------------------------------------------------------------------------------
class IRWLSHistory(NamedTuple):
    """Every IRWLS iterate: LS start, then the SVC stage, then (smooth_step) the USVC stage."""

    coef: np.ndarray       # (T, p): w (linear) or β (prototype machine)
    intercept: np.ndarray  # (T,)
    primal: np.ndarray     # (T,) L̃ with the loss of the row's stage (LS row: hinge)
    stage: np.ndarray      # (T,) int: 0 LS, 1 SVC, 2 USVC  (names in STAGES)


#: Eigen-directions of the prototype gram G = K(c, c) below this fraction of its largest eigenvalue
#: are dropped from the machine: they carry (numerically) no norm ‖w‖ and no function value, and
#: their coefficients β are undetermined. In float64, G (entries ≤ 1) knows such a direction only to
#: a relative ~eps·λ_max/λ_k, 2e-6 at this cutoff.
RANK_RTOL = 1e-10
#: Feature columns of the linear machine larger than this (2^64) are scaled down by an exact power
#: of two before the weighted solves, with the regulariser scaled to match (the same problem): the
#: sums a_i x_ij x_il of the weighted system would otherwise overflow (X·1e200). Ordinary columns
#: are left untouched, so their numbers do not change.
EQUILIBRATE_ABOVE = 2.0 ** 64


class IRWLSClassifier(BinaryClassifierMixin, ClassifierMixin, BaseEstimator):
    """SVC and unbiased SVC trained by iterated re-weighted least squares.

    Minimizes L̃(w, b) = ½‖w‖² + C Σ_i θ(ξ_i), ξ_i = (1 − y_i f(x_i))_+ (Navia-Vázquez et al. 2004,
    eq. 5) with θ(ξ) = ξ (the SVC, eq. 4) or the smooth step θ̃_s (the USVC, eq. 6), by the IRWLS
    iteration of eqs. 20–22: regularised LS → SVC → USVC.

    Parameters
    ----------
    C : float, default=10.0
        Weight of the loss term in L̃ (Navia-Vázquez et al. 2004, eq. 5); the same C as scikit-learn's
        ``SVC``.
    loss : {"hinge", "smooth_step"}, default="hinge"
        "hinge" is the SVC (Navia-Vázquez et al. 2004, eq. 4); "smooth_step" the USVC with θ̃_s
        (eq. 6), started from the SVC.
    s : float ≥ 1, default=2.0
        Steepness of θ̃_s (paper: 2, also 4).
    k_eps : float in (0, 1), default=1e-4
        k_ε of (Navia-Vázquez et al. 2004, eq. 6).
    damping : float in [0, 1), default=0.2
        d in w_k = d·w_{k−1} + (1 − d)·w_WLS (Navia-Vázquez et al. 2004, §3; paper 0.2).
    kernel : {"linear", "rbf", "poly"} or kernel object, default="linear"
        "linear" without prototypes is the linear machine f = w'x + b (any dimension); otherwise the
        semiparametric machine f(x) = Σ_r β_r K(c_r, x) + b (Navia-Vázquez et al. 2004, eq. 27).
        A kernel object is a callable ``kernel(A, B=None)`` (see :func:`svmviz.kernels.gram`).
    sigma : float, default=1.0
        Gaussian width, K = exp(−‖x − x'‖²/(2σ²)).
    n_prototypes : int or None, default=None
        R. None: the linear machine for ``kernel="linear"``, R = min(n, 20) otherwise.
    prototypes : {"kmeans", "fscl"}, default="kmeans"
        How the prototypes c_r are found (Navia-Vázquez et al. 2004, §2.1, §4).
    tol : float, default=1e-8
        Converged when the estimated remaining relative change of the parameters — (w, b) for the
        linear machine, (γ, b) with ‖γ‖ = ‖w‖ the RKHS norm for the kernel machine — is below
        ``tol`` (or below the rounding floor of the weighted solves, measured at every iteration)
        and the relative change of L̃ below ``tol_f``, for several consecutive iterations.
    tol_f : float, default=1e-10
    max_iter : int, default=50_000
        Per stage (SVC, USVC). IRWLS converges linearly: a point that ends on the margin with
        multiplier α_i* approaches it at the rate α_i*/(C θ'(0)) per iteration, so problems with a
        margin multiplier close to its bound need thousands of (cheap) iterations.
    a_max : float, default=1e8
        Cap on the weights a_i near ξ_i = 0; margin points settle at ξ ≈ α_i/a_max.
    weight_factor : float, default=1.0
        1: a_i = α_i/ξ_i, the KKT-consistent weights. 2: the paper's literal a_i = 2α_i/(e_i y_i)
        (Navia-Vázquez et al. 2004, eq. 22), equivalent to C → 2C.
    random_state : int, default=0
        Seed of the prototype search.
    degree, gamma, coef0 : polynomial kernel parameters.

    Attributes
    ----------
    coef_ : ndarray of shape (1, p)
        w (linear machine, p = d) or β (prototype machine, p = R).
    intercept_ : float
        b.
    beta_ : ndarray of shape (p,)
        The same numbers as ``coef_[0]``.
    prototypes_ : ndarray of shape (R, d) or None
    machine_rank_ : int
        Directions of the machine the solver used: d for the linear machine; for the prototype
        machine the numerical rank of K(c, c) (``RANK_RTOL``), below R when σ is large.
    threshold_ : float
        Th = −b/w for one-dimensional linear machines, else NaN.
    alpha_ : ndarray of shape (n,)
        α_i = C θ'(ξ_i) for ξ_i ≥ 0, else 0, at the solution (Navia-Vázquez et al. 2004, eq. 21).
    support_ : ndarray of int
        Indices with ξ_i ≥ 0 (on or inside the margin).
    n_iter_ : int
        IRWLS iterations of the final stage; ``n_iter_stages_`` per stage.
    status_ : int
        Status of the final stage (0 converged); ``status_stages_`` per stage.
    history_ : IRWLSHistory
    primal_ : float
        L̃ at the solution (with ``loss``).
    train_decision_ : ndarray of shape (n,)
    classes_ : ndarray of shape (2,)
        ``classes_[0]`` ↔ −1.
    machine_size_ : int
        Number of kernels (R) or of inputs (d) in the final machine.
    kernel_ : str or kernel object
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (d,)
        When fitted on a DataFrame.

    Notes
    -----
    Navia-Vázquez et al. 2004: primal (eqs. 5 and 4); loss (eq. 6); IRWLS (eqs. 20–22) with
    damping (§3); semiparametric machine (eqs. 23–27).

    Why the kernel machine used to end with a ``ConvergenceWarning`` (rbf, default settings, σ from
    1 to 300 on make_moons(200)), and what changed. Two causes. (1) Large σ: K(c, c) is numerically
    singular (eigenvalue ratio below 1e-12 from σ ≈ 10 on), so β has directions that change neither
    ‖w‖ nor f; the weighted solve either failed ("Matrix is singular") or β drifted along such a
    direction by ~3 % per iteration while f had settled to 1e-10, and the test on the change of β
    never passed. The machine is now solved in the orthonormal coordinates γ of its RKHS span
    (β = V Λ^{-1/2} γ with K(c, c) = V Λ V' over the eigenvalues above ``RANK_RTOL``·λ_max, so
    ½β'K(c, c)β = ½‖γ‖²): the same problem without the undetermined directions. (2) Moderate σ:
    margin points carry weights a_i = α_i/ξ_i up to a_max, the weighted system's condition number
    reaches ~a_max·‖Φ‖², and its solutions jitter at ~1e-8 relative — above the default tol: the
    primal had settled to 12 digits after ~1000 iterations, the remaining 49 000 were rounding noise.
    Each weighted solve now also estimates its own rounding error (one step of iterative
    refinement) and steps at that floor count as converged (:func:`svmviz._irwls.irwls`). The same
    floor stopped the linear USVC on separable data (iris) at max_iter.

    Examples
    --------
    Scenario A of Navia-Vázquez et al. (2004, §3, Table 1): the SVC's threshold Th = −b/w is
    biased (paper: 0.35), the USVC's is close to the optimal 0.5 (paper: 0.49).

    >>> import numpy as np
    >>> from sklearn.svm import SVC
    >>> from svmviz.data import make_dataset
    >>> from svmviz.usvc import IRWLSClassifier
    >>> ds = make_dataset("usvc_A", n=500, seed=0)
    >>> svc = IRWLSClassifier(C=10.0).fit(ds.X, ds.y)
    >>> usvc = IRWLSClassifier(C=10.0, loss="smooth_step").fit(ds.X, ds.y)
    >>> svc.status_, usvc.status_
    (0, 0)
    >>> round(svc.threshold_, 2), round(usvc.threshold_, 2)
    (0.32, 0.5)

    The IRWLS limit of the hinge loss is the QP solution:

    >>> ref = SVC(kernel="linear", C=10.0, tol=1e-10).fit(ds.X, ds.y)
    >>> bool(np.allclose(svc.coef_, ref.coef_, rtol=1e-5))
    True
    """

    def __init__(self, C=10.0, loss="hinge", s=2.0, k_eps=1e-4, damping=0.2, kernel="linear",
                 sigma=1.0, n_prototypes=None, prototypes="kmeans", tol=1e-8, tol_f=1e-10,
                 max_iter=50_000, a_max=1e8, weight_factor=1.0, random_state=0, degree=3,
                 gamma=1.0, coef0=1.0):
        self.C = C
        self.loss = loss
        self.s = s
        self.k_eps = k_eps
        self.damping = damping
        self.kernel = kernel
        self.sigma = sigma
        self.n_prototypes = n_prototypes
        self.prototypes = prototypes
        self.tol = tol
        self.tol_f = tol_f
        self.max_iter = max_iter
        self.a_max = a_max
        self.weight_factor = weight_factor
        self.random_state = random_state
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0

    # -- helpers -------------------------------------------------------------------------------
    def _gram(self, A, B=None):
        return gram(A, B, kernel=self.kernel_, sigma=self.sigma, degree=self.degree, gamma=self.gamma,
                    coef0=self.coef0)

    def _features(self, X):
        if self.prototypes_ is None:
            return X
        return np.ascontiguousarray(self._gram(X, self.prototypes_))

    def _solver_machine(self, Phi):
        """The coordinates the IRWLS kernel iterates in: features Ψ = ΦT, regulariser T'GT, β = Tγ.

        Linear machine: T = I except for columns above ``EQUILIBRATE_ABOVE``, scaled down by an exact
        power of two (T'GT = T², the same problem). Prototype machine: T = V_k Λ_k^{-1/2} over the
        eigenpairs of G = K(c, c) above ``RANK_RTOL``·λ_max, so T'GT = I (Nyström coordinates).
        """
        if self.prototypes_ is None:
            big = np.max(np.abs(Phi), axis=0) > EQUILIBRATE_ABOVE
            scale = np.ones(Phi.shape[1])
            if np.any(big):
                _, e = np.frexp(np.max(np.abs(Phi[:, big]), axis=0))
                scale[big] = np.ldexp(1.0, -e)
            T = np.diag(scale)
            return np.ascontiguousarray(Phi * scale), np.diag(scale * scale), T
        G = np.asarray(self._gram(self.prototypes_), dtype=np.float64)
        lam, V = np.linalg.eigh(0.5 * (G + G.T))
        if not lam[-1] > 0:
            raise ValueError("the kernel matrix of the prototypes K(c, c) has no positive eigenvalue; "
                             "the kernel must be positive semi-definite and not identically zero.")
        keep = lam > RANK_RTOL * lam[-1]
        T = V[:, keep] / np.sqrt(lam[keep])
        return np.ascontiguousarray(Phi @ T), np.eye(int(keep.sum())), np.ascontiguousarray(T)

    def fit(self, X, y):
        """Fit the LS start, the SVC and (``loss="smooth_step"``) the USVC.

        Parameters
        ----------
        X : array-like of shape (n, d)
        y : array-like of shape (n,), two distinct labels

        Returns
        -------
        self
        """
        X, y, classes = validate_fit_data(self, X, y, binary=True)
        y_pm = binary_targets(y, classes)
        n, d = X.shape
        C = check_positive(self.C, "C")
        code = _check_loss(self.loss)
        s, k = _check_s(self.s), _check_k(self.k_eps)
        damping = _check_unit(self.damping, "damping")
        tol_f = check_positive(self.tol_f, "tol_f")
        max_iter = _check_int(self.max_iter, "max_iter", 1)
        a_max = check_positive(self.a_max, "a_max")
        factor = check_positive(self.weight_factor, "weight_factor")
        if self.prototypes not in PROTOTYPE_METHODS:
            raise ValueError(f"prototypes must be one of {PROTOTYPE_METHODS}; got {self.prototypes!r}.")
        R = self.n_prototypes
        if R is None and not (isinstance(self.kernel, str) and self.kernel == "linear"):
            R = min(n, DEFAULT_R)
        if R is not None:
            R = _check_int(R, "n_prototypes", 1)
            if R > n:
                raise ValueError(f"n_prototypes ({R}) cannot exceed the number of training points ({n}).")
        tol = check_positive(self.tol, "tol")
        self.kernel_ = fit_kernel(self.kernel, X)
        if R is not None:
            self._gram(X[:1])  # the kernel and its parameters are valid, before the prototype search
            if self.prototypes == "kmeans":
                centres = _kmeans_prototypes(X, R, self.random_state)
            else:
                centres, _ = fscl_prototypes(X, R, random_state=self.random_state)
            self.prototypes_ = np.ascontiguousarray(centres)
            Phi = self._features(X)
            G = np.asarray(self._gram(self.prototypes_), dtype=np.float64)
            G = np.ascontiguousarray(0.5 * (G + G.T))
        else:
            self.prototypes_ = None
            Phi = X
            G = np.eye(d)
        Psi, Gs, T = self._solver_machine(Phi)
        q = Psi.shape[1]

        stages_g, stages_b, stages_P, stages_id = [], [], [], []
        n_iter_stages, status_stages = {}, {}
        dummy = np.zeros(q)
        # stage 0: regularised LS (a_i = 1)
        gl, b_l, _, st_l, hb, hbb, hp = _irwls.irwls(Psi, Gs, y_pm, C, _irwls.LOSS_HINGE, 1.0, k, a_max,
                                                     factor, damping, tol, tol_f, 0, dummy, 0.0, True, True)
        stages_g.append(hb), stages_b.append(hbb), stages_P.append(hp), stages_id.append(np.zeros(1, int))
        n_iter_stages["LS"], status_stages["LS"] = 0, int(st_l)
        # stage 1: SVC (hinge) from LS
        gh, b_h, it_h, st_h, hb, hbb, hp = _irwls.irwls(Psi, Gs, y_pm, C, _irwls.LOSS_HINGE, 1.0, k, a_max,
                                                        factor, damping, tol, tol_f, max_iter, gl, b_l,
                                                        False, True)
        stages_g.append(hb[1:]), stages_b.append(hbb[1:]), stages_P.append(hp[1:])
        stages_id.append(np.ones(hb.shape[0] - 1, int))
        n_iter_stages["SVC"], status_stages["SVC"] = int(it_h), int(st_h)
        g, b, it, st = gh, b_h, it_h, st_h
        if code == _irwls.LOSS_SMOOTH_STEP:
            gu, b_u, it_u, st_u, hb, hbb, hp = _irwls.irwls(Psi, Gs, y_pm, C, code, s, k, a_max, factor,
                                                            damping, tol, tol_f, max_iter, gh, b_h,
                                                            False, True)
            # the USVC stage starts where the SVC ended: its row 0 re-evaluates the primal there
            stages_g.append(hb), stages_b.append(hbb), stages_P.append(hp)
            stages_id.append(np.full(hb.shape[0], 2, int))
            n_iter_stages["USVC"], status_stages["USVC"] = int(it_u), int(st_u)
            g, b, it, st = gu, b_u, it_u, st_u
        beta = T @ g
        if not (np.all(np.isfinite(beta)) and np.isfinite(b)):
            raise ValueError(f"IRWLS broke down: {_irwls.STATUS_TEXT[_irwls.STATUS_NONFINITE]} "
                             f"(stages: {status_stages}).")

        self.history_ = IRWLSHistory(np.vstack(stages_g) @ T.T, np.concatenate(stages_b),
                                     np.concatenate(stages_P), np.concatenate(stages_id))
        self.classes_ = classes
        self.coef_ = beta.reshape(1, -1).copy()
        self.beta_ = beta.copy()
        self.intercept_ = float(b)
        self.n_iter_ = int(it)
        self.status_ = int(st)
        self.n_iter_stages_ = n_iter_stages
        self.status_stages_ = status_stages
        self.machine_size_ = Phi.shape[1]
        self.machine_rank_ = q
        f = _irwls._decision(Phi, beta, float(b))
        self.train_decision_ = f
        xi = 1.0 - y_pm * f
        self.alpha_ = np.where(xi >= 0, C * _irwls._dtheta_array(np.maximum(xi, 0.0), code, s, k), 0.0)
        self.support_ = np.flatnonzero(xi >= 0)
        self.primal_ = float(_irwls._primal(Phi, G, y_pm, beta, float(b), C, code, s, k))
        self.threshold_ = (-float(b) / float(beta[0])
                           if (self.prototypes_ is None and d == 1 and beta[0] != 0) else float("nan"))
        bad = {name: v for name, v in status_stages.items() if v != _irwls.STATUS_CONVERGED}
        if bad:
            msg = "; ".join(f"{name}: {_irwls.STATUS_TEXT[v]}" for name, v in bad.items())
            warnings.warn(f"IRWLSClassifier did not converge ({msg}). Increase max_iter or tol, or "
                          "check the data.", ConvergenceWarning, stacklevel=2)
        return self

    def decision_function(self, X):
        """Decision values f(x) = w'x + b, or Σ_r β_r K(c_r, x) + b (Navia-Vázquez et al. 2004, eq. 27).

        Parameters
        ----------
        X : array-like of shape (m, d)

        Returns
        -------
        f : ndarray of shape (m,)
        """
        X = validate_predict_data(self, X)
        return _irwls._decision(self._features(X), self.beta_, self.intercept_)

    def predict(self, X):
        """Class labels; f exactly 0 goes to ``classes_[0]``.

        Parameters
        ----------
        X : array-like of shape (m, d)

        Returns
        -------
        ndarray of shape (m,)
        """
        return np.where(self.decision_function(X) > 0, self.classes_[1], self.classes_[0])

    def trajectory(self):
        """(Th, w, stage) along the iterations of a 1-D linear machine: Th = −b/w (Navia-Vázquez et al.
        2004, Fig. 3); three arrays of shape (T,)."""
        check_is_fitted(self)
        if self.prototypes_ is not None or self.n_features_in_ != 1:
            raise ValueError("the (Th, w) trajectory exists only for a one-dimensional linear machine.")
        w = self.history_.coef[:, 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            th = np.where(w != 0, -self.history_.intercept / w, np.nan)
        return th, w.copy(), self.history_.stage.copy()


# ----------------------------------------------------------------------------------------------
# the Table 1 study
# ----------------------------------------------------------------------------------------------
class Table1Result(NamedTuple):
    """Per-trial results; arrays are (n_trials, n_methods), methods ordered as ``methods``."""

    scenario: str
    methods: tuple
    train_ce: np.ndarray
    test_ce: np.ndarray
    threshold: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    n_iter: np.ndarray
    status: np.ndarray
    seeds: np.ndarray      # (n_trials,) seeds: make_dataset(seed) and its test_sample(n_test, seed)
    params: dict


def table1_study(scenario: str = "A", *, n_trials: int = 100, n_train: int = 500, n_test: int = 500,
                 C: float = 10.0, s_values=(2.0, 4.0), k_eps: float = 1e-4, damping: float = 0.2,
                 tol: float = 1e-8, tol_f: float = 1e-10, max_iter: int = 50_000, a_max: float = 1e8,
                 weight_factor: float = 1.0, seed: int = 0,
                 progress: Callable[[int, int, str], None] | None = None, chunk: int = 10) -> Table1Result:
    """Repeated-trials study of seed Table 1: LS, SVC and USVC(s) on scenario A or B.

    Each trial draws a training sample (``n_train``) with :func:`svmviz.data.make_dataset`
    (``"usvc_A"``/``"usvc_B"``) and an independent test sample (``n_test``) with its
    ``test_sample``, fits the regularised LS (a_i = 1),
    the SVC by IRWLS from it, and the USVC for each s from the SVC, and records train/test CE (%)
    and Th = −b/w. ``progress(done, total, message)`` is called after each chunk of trials.

    Parameters
    ----------
    scenario : {"A", "B"}
        Navia-Vázquez et al. 2004, eqs. 28–29.
    n_trials, n_train, n_test : int
    C, k_eps, damping, tol, tol_f, max_iter, a_max, weight_factor : as in :class:`IRWLSClassifier`.
    s_values : sequence of float
        The USVC steepness values s (one method each).
    seed : int
        Root seed; trial t uses ``seeds[t]`` drawn from it.
    progress : callable(done, total, message), optional
    chunk : int
        Trials per numba call (and per progress report).

    Returns
    -------
    Table1Result
        Arrays of shape (n_trials, 2 + len(s_values)), methods LS, SVC, USVC(s)….

    Warns
    -----
    ConvergenceWarning if any IRWLS fit reached ``max_iter``.

    Notes
    -----
    Navia-Vázquez et al. 2004, §3, Table 1 (C = 10, d = 0.2, 500/500 points, 100 trials).
    """
    from .data import make_dataset

    if scenario not in ("A", "B"):
        raise ValueError(f"scenario must be 'A' or 'B'; got {scenario!r}.")
    n_trials = _check_int(n_trials, "n_trials", 1)
    n_train = _check_int(n_train, "n_train", 4)
    n_test = _check_int(n_test, "n_test", 1)
    C = check_positive(C, "C")
    s_arr = np.ascontiguousarray(np.atleast_1d(np.asarray(s_values, dtype=np.float64)))
    for v in s_arr:
        _check_s(v)
    k = _check_k(k_eps)
    damping = _check_unit(damping, "damping")
    tol, tol_f = check_positive(tol, "tol"), check_positive(tol_f, "tol_f")
    max_iter = _check_int(max_iter, "max_iter", 1)
    a_max = check_positive(a_max, "a_max")
    factor = check_positive(weight_factor, "weight_factor")
    chunk = _check_int(chunk, "chunk", 1)
    methods = ("LS", "SVC") + tuple(f"USVC(s={v:g})" for v in s_arr)
    seeds = np.random.SeedSequence(int(seed)).generate_state(n_trials, dtype=np.uint32).astype(np.int64)

    name = f"usvc_{scenario}"
    parts = []
    for start in range(0, n_trials, chunk):
        stop = min(n_trials, start + chunk)
        Xtr = np.empty((stop - start, n_train))
        ytr = np.empty_like(Xtr)
        Xte = np.empty((stop - start, n_test))
        yte = np.empty_like(Xte)
        for j, t in enumerate(range(start, stop)):
            tr = make_dataset(name, n=n_train, seed=int(seeds[t]))
            te = tr.test_sample(n_test, int(seeds[t]))  # the generator's independent test stream
            Xtr[j], ytr[j] = tr.X[:, 0], tr.y
            Xte[j], yte[j] = te.X[:, 0], te.y
        parts.append(_irwls.table1_trials(Xtr, ytr, Xte, yte, C, s_arr, k, a_max, factor, damping, tol,
                                          tol_f, max_iter))
        if progress is not None:
            progress(stop, n_trials, f"scenario {scenario}: {stop}/{n_trials} trials")
    tr, te, th, ws, bs, nit, st = (np.vstack([p[i] for p in parts]) for i in range(7))
    bad = int(np.sum(st != _irwls.STATUS_CONVERGED))
    if bad:
        warnings.warn(f"table1_study: {bad} of {st.size} IRWLS fits did not converge; their last "
                      "iterate is used (see the status array).", ConvergenceWarning, stacklevel=2)
    params = dict(n_trials=n_trials, n_train=n_train, n_test=n_test, C=C, s_values=tuple(s_arr),
                  k_eps=k, damping=damping, weight_factor=factor, seed=int(seed))
    return Table1Result(scenario, methods, 100.0 * tr, 100.0 * te, th, ws, bs, nit, st, seeds, params)


#: a fitted threshold outside this range means w ≈ 0: the machine is (almost) constant on the data
THRESHOLD_RANGE = (-0.5, 1.5)


def table1_summary(result: Table1Result) -> list[dict]:
    """One row per method: mean and sd of train CE %, test CE %, Th, beside the paper's numbers.

    Th statistics leave out trials whose machine is constant on the data (w ≈ 0, so Th = −b/w falls
    outside ``THRESHOLD_RANGE``: the hinge optimum of scenario B is occasionally w = 0, b = 1);
    their number is ``n_constant``. CE statistics use every trial.

    Parameters
    ----------
    result : Table1Result

    Returns
    -------
    list of dict
        One per method: ``method``, ``{train_ce,test_ce,threshold}_{mean,sd}``, the paper's
        ``paper_*`` values (Navia-Vázquez et al. 2004, Table 1), ``n_constant``, ``converged``,
        ``mean_iterations``.
    """
    paper = PAPER_TABLE1[result.scenario]
    rows = []
    lo, hi = THRESHOLD_RANGE
    for j, m in enumerate(result.methods):
        row = {"method": m}
        th = result.threshold[:, j]
        ok = np.isfinite(th) & (th >= lo) & (th <= hi)
        row["n_constant"] = int(np.sum(~ok))
        for key, arr in (("train_ce", result.train_ce[:, j]), ("test_ce", result.test_ce[:, j]),
                         ("threshold", th[ok])):
            v = arr
            row[f"{key}_mean"] = float(np.mean(v)) if v.size else float("nan")
            row[f"{key}_sd"] = float(np.std(v, ddof=1)) if v.size > 1 else float("nan")
            ref = paper.get(m, {}).get(key)
            row[f"paper_{key}_mean"] = ref[0] if ref else float("nan")
            row[f"paper_{key}_sd"] = ref[1] if (ref and ref[1] is not None) else float("nan")
        row["converged"] = int(np.sum(result.status[:, j] == _irwls.STATUS_CONVERGED))
        row["mean_iterations"] = float(np.mean(result.n_iter[:, j]))
        rows.append(row)
    return rows


class KernelComparisonFit(NamedTuple):
    """The kernel USVC and the SVM fitted on the same data with the same σ and C (see
    :func:`kernel_comparison`)."""

    usvc: IRWLSClassifier   # fitted: R Gaussian prototype kernels, smooth-step loss
    svm: object             # fitted svmviz.svm.SVMClassifier, λ = 1/(2nC)
    X_train: np.ndarray     # (n, d)
    y_train: np.ndarray     # (n,) ±1
    X_test: np.ndarray      # (m, d)
    y_test: np.ndarray      # (m,) ±1
    test_kind: str          # "independent test sample" or "30 % held out"
    train_error_usvc: float
    train_error_svm: float
    test_error_usvc: float
    test_error_svm: float


def kernel_comparison(X, y, *, sigma: float = 1.0, C: float = 10.0, n_prototypes: int = 10, s: float = 2.0,
                      prototypes: str = "kmeans", seed: int = 0, X_test=None, y_test=None,
                      held_out: float = 0.3) -> KernelComparisonFit:
    """The semiparametric USVC with R Gaussian prototypes against the SVM (Navia-Vázquez et al. 2004,
    eqs. 23–27 and Table 3): both with the Gaussian kernel of width ``sigma`` and the same C (the
    SVM's λ = 1/(2nC)).

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), two classes (the larger label is +1)
    sigma, C, s : float
        Kernel width, cost, smooth-step exponent.
    n_prototypes : int
        R (at most the training size).
    prototypes : {"kmeans", "fscl"}
    seed : int
        Prototype initialisation and, without a test sample, the held-out split.
    X_test, y_test : arrays of shape (m, d) and (m,), optional
        An independent test sample. Without it, a seeded ``held_out`` fraction of the rows is
        held out for testing and the machines are trained on the rest.
    held_out : float in (0, 1)

    Returns
    -------
    KernelComparisonFit
        Both fitted machines, the training and test data, and their misclassification rates (a
        point with f = 0 counts as an error).
    """
    from .svm import SVMClassifier

    X = check_matrix(X, "X")
    y, classes = check_binary_labels(y, X.shape[0])
    if X_test is not None:
        Xtr, ytr = X, y
        Xte = check_matrix(X_test, "X_test")
        yte = binary_targets(np.asarray(y_test), classes)
        kind = "independent test sample"
    else:
        if not 0.0 < float(held_out) < 1.0:
            raise ValueError(f"held_out must be in (0, 1); got {held_out!r}.")
        perm = np.random.default_rng(int(seed)).permutation(X.shape[0])
        cut = int(round((1.0 - float(held_out)) * X.shape[0]))
        Xtr, ytr, Xte, yte = X[perm[:cut]], y[perm[:cut]], X[perm[cut:]], y[perm[cut:]]
        kind = f"{int(round(100 * float(held_out)))} % held out"
    if np.unique(ytr).size < 2:
        raise ValueError("the training part holds a single class; use more rows or another seed.")
    n = Xtr.shape[0]
    um = IRWLSClassifier(C=C, loss="smooth_step", s=s, kernel="rbf", sigma=sigma,
                         n_prototypes=min(int(n_prototypes), n), prototypes=prototypes,
                         random_state=int(seed), tol=1e-6, max_iter=5000).fit(Xtr, ytr)
    svm = SVMClassifier(lam=1.0 / (2.0 * n * C), sigma=sigma, kernel="rbf").fit(Xtr, ytr)

    def err(m, A, b):
        return float(np.mean(m.decision_function(A) * b <= 0)) if A.shape[0] else float("nan")

    return KernelComparisonFit(um, svm, Xtr, ytr, Xte, yte, kind, err(um, Xtr, ytr), err(svm, Xtr, ytr),
                               err(um, Xte, yte), err(svm, Xte, yte))

