"""The ν-SVM regularization path, leave-one-out along it, and automatic stopping (Loosli & Canu 2006).

Problem (Loosli & Canu 2006, Dual; SPEC §4), ``m`` training points, ``λ = mν``::

    max_α −½ α'Gα   s.t.  α'1 = λ,  α'y = 0,  0 ≤ α_i ≤ 1,     G_ij = y_i y_j k(x_i, x_j)/m,

decision function ``f(x) + b = (1/m) Σ_j α_j y_j k(x_j, x) + b``, margin ``ρ``; the groups are
E (0 < α < 1, g = 0), L (α = 1, g < 0), R (α = 0, g > 0) with ``g_i = y_i (f(x_i) + b) − ρ``.

Where the path starts. For λ → 0 the box ``α ≤ 1`` is inactive and the solution is ``α = λ·α̂``, with
α̂ the minimizer of ``α'Gα`` over ``α ≥ 0``, ``Σ_{y=+1} α = Σ_{y=−1} α = ½`` — the closest points of
the two classes' convex hulls in feature space (a hard-margin SVM). So α, b and ρ are linear in λ
from the origin; the path is stored from ``λ₀ = 0`` (α = 0) and its first real event is the first
point to reach α = 1 (always at λ ≥ 2, since α̂_i ≤ ½) — the sparse end: only the hull's support
points are in E there. It ends at ``λ_max = 2·min(n₊, n₋)``, the largest feasible λ (each class
carries λ/2 ≤ n_c) — sklearn's ``NuSVC`` feasible range ``ν ≤ 2 min(n₊, n₋)/m``; ``λ = m`` only for
balanced classes (the seed's "stopped when λ = m").

Between breakpoints α, b and ρ are linear in λ (Loosli & Canu 2006, "Defining steps"). Breakpoints are returned in
non-decreasing order; two consecutive equal λ mark a jump of b and ρ (the optimal (b, ρ) is an
interval there because one class has no point strictly inside the box); ``state_at`` returns the
right limit, both are optimal at that λ.

The decision function at any λ on the path equals sklearn ``NuSVC(nu=λ/m)``'s up to a positive
factor (``NuSVC`` divides by its ρ): ``m (f + b) = r · decision_function`` with ``r = m ρ``.
"""
from __future__ import annotations

import warnings
from typing import Callable, NamedTuple

import numba
import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning

from . import _nu_path
from ._parallel import PARALLEL_LOCK
from ._validation import (BinaryClassifierMixin, check_binary_labels, check_matrix, check_positive,
                          validate_fit_data, validate_predict_data)
from .kernels import fit_kernel, gram, kernel_diagonal

GROUP_R, GROUP_E, GROUP_L = 0, 1, 2
GROUP_NAMES = {GROUP_R: "R (α = 0)", GROUP_E: "E (margin, 0 < α < 1)", GROUP_L: "L (bounded, α = 1)"}
STATUS_MESSAGES = {
    _nu_path.STATUS_OK: "path complete",
    _nu_path.STATUS_MAX_BREAKPOINTS: "stopped at max_breakpoints before λ_max",
    _nu_path.STATUS_LOST: "path lost: the KKT conditions could not be restored",
}
_ALPHA_TOL = 1e-12
MAX_N = 3000
# The path's default ``refresh``: s = Gα is recomputed exactly (O(m·#{α > 0}), up to m²) at least
# every EXACT_S_EVERY_MIN breakpoints, and for m > EXACT_S_EVERY_MIN·EXACT_S_POINTS_PER_STEP every
# m / EXACT_S_POINTS_PER_STEP: a step costs O(m·|E|) with |E| ≈ 70–140 on the benchmark data
# (bench/bench_path.py), so one recomputation per m/50 steps costs ≲ 25 m per step — a fraction of
# the step — where every 10 steps it was most of the time at m = 2000 (measured: 38 %). The updates
# s += h·G d between recomputations carry ~steps·ε of rounding: 1e-14 after 100 steps, below the
# drift that triggers a correction (SETTLE_DRIFT, 1e-12 of the scale).
EXACT_S_EVERY_MIN = 10
EXACT_S_POINTS_PER_STEP = 50


def _kernel_params(kernel, sigma, degree, gamma, coef0) -> dict:
    """The parameters ``kernel`` uses, for :func:`gram` (which validates them)."""
    if isinstance(kernel, str) and kernel == "rbf":
        return dict(kernel=kernel, sigma=sigma)
    if isinstance(kernel, str) and kernel == "poly":
        return dict(kernel=kernel, degree=degree, gamma=gamma, coef0=coef0)
    return dict(kernel=kernel)


def groups_from_alpha(alpha) -> np.ndarray:
    """Group codes (``GROUP_R`` 0, ``GROUP_E`` 1, ``GROUP_L`` 2) from α, shape like ``alpha``."""
    a = np.asarray(alpha)
    g = np.full(a.shape, GROUP_E, dtype=np.int8)
    g[a <= _ALPHA_TOL] = GROUP_R
    g[a >= 1.0 - _ALPHA_TOL] = GROUP_L
    return g


class NuPath:
    """The whole ν-SVM regularization path (returned by :func:`nu_path`).

    Attributes
    ----------
    lambdas : ndarray (T,)
        Breakpoints λ_t, non-decreasing, from 0 to ``lambda_max`` (equal neighbours mark a jump of
        b and ρ).
    nus : ndarray (T,)
        ``lambdas / m`` (sklearn ``NuSVC``'s ν).
    alphas : ndarray (T, m)
        α at each breakpoint (α_i y_i is the coefficient of point i).
    b, rho : ndarray (T,)
        Offset and margin at each breakpoint; ``thresholds`` (T, 2) holds (ρ − b, ρ + b).
    groups : ndarray (T, m) of int8
        ``GROUP_R`` (0), ``GROUP_E`` (1) or ``GROUP_L`` (2) of every point at each breakpoint.
    X : ndarray (m, d); y : ndarray (m,) of ±1; classes : labels mapped to (−1, +1)
    kernel_params : dict
    status : int
        0 complete, 1 stopped at ``max_breakpoints``, 2 path lost (see ``message``).
    n_corrections : int
        Simple-ν-SVM corrections applied where the KKT check failed (0 on a clean path).
    max_kkt_violation : float
        Largest KKT violation seen at a breakpoint, relative to ``max_i G_ii · max(λ, 1)``.
    """

    def __init__(self, X, y, classes, kernel_params, lambdas, alphas, thresholds, status,
                 n_corrections, max_kkt_violation, n_dependent):
        self.X = X
        self.y = y
        self.classes = classes
        self.kernel_params = dict(kernel_params)
        self.lambdas = lambdas
        self.alphas = alphas
        self.thresholds = thresholds
        self.b = 0.5 * (thresholds[:, 1] - thresholds[:, 0])
        self.rho = 0.5 * (thresholds[:, 0] + thresholds[:, 1])
        self.groups = groups_from_alpha(alphas)
        self.status = int(status)
        self.message = STATUS_MESSAGES.get(int(status), "unknown status")
        self.n_corrections = int(n_corrections)
        self.max_kkt_violation = float(max_kkt_violation)
        self.n_dependent = int(n_dependent)

    # -- basic facts ---------------------------------------------------------------------------
    @property
    def m(self) -> int:
        return int(self.X.shape[0])

    @property
    def nus(self) -> np.ndarray:
        return self.lambdas / self.m

    @property
    def lambda_max(self) -> float:
        return 2.0 * float(min(np.sum(self.y > 0), np.sum(self.y < 0)))

    @property
    def n_breakpoints(self) -> int:
        return int(self.lambdas.shape[0])

    @property
    def coefs(self) -> np.ndarray:
        """α_i y_i at every breakpoint, shape (T, m) (Loosli & Canu 2006, Fig. "Path")."""
        return self.alphas * self.y[None, :]

    # -- evaluation anywhere on the path -------------------------------------------------------
    def _check_lambda(self, lam) -> float:
        lam = float(lam)
        if not np.isfinite(lam) or lam < 0 or lam > self.lambdas[-1] * (1 + 1e-12):
            raise ValueError(
                f"λ must lie on the computed path, in [0, {self.lambdas[-1]:.6g}]; got {lam!r}.")
        return min(lam, float(self.lambdas[-1]))

    def state_at(self, lam):
        """``(alpha (m,), b, rho)`` at λ by linear interpolation between breakpoints."""
        lam = self._check_lambda(lam)
        L = self.lambdas
        k = int(np.searchsorted(L, lam, side="right")) - 1
        k = min(max(k, 0), L.shape[0] - 1)
        if k == L.shape[0] - 1 or L[k + 1] == L[k]:
            return self.alphas[k].copy(), float(self.b[k]), float(self.rho[k])
        w = (lam - L[k]) / (L[k + 1] - L[k])
        # a + w (a' − a): exact where both ends agree (α = 0 or 1 stays exactly at its bound)
        a = self.alphas[k] + w * (self.alphas[k + 1] - self.alphas[k])
        b = self.b[k] + w * (self.b[k + 1] - self.b[k])
        r = self.rho[k] + w * (self.rho[k + 1] - self.rho[k])
        return np.clip(a, 0.0, 1.0), float(b), float(r)

    def alpha_at(self, lam) -> np.ndarray:
        """α at λ, shape (m,)."""
        return self.state_at(lam)[0]

    def groups_at(self, lam) -> np.ndarray:
        """Group codes of the training points at λ, shape (m,)."""
        return groups_from_alpha(self.alpha_at(lam))

    def kernel(self, A, B=None) -> np.ndarray:
        """The path's kernel between ``A`` (n_A, d) and ``B`` (default: the training points)."""
        return gram(A, self.X if B is None else B, **self.kernel_params)

    def decision_function(self, X, lam) -> np.ndarray:
        """``f(x) + b`` at λ for the rows of ``X`` (n, d), shape (n,)."""
        X = check_matrix(X, "X")
        self._check_features(X)
        a, b, _ = self.state_at(lam)
        return self.kernel(X) @ (a * self.y) / self.m + b

    def error_rate(self, X, y, lam) -> float:
        """Fraction of the rows of ``X`` (n, d) with labels ``y`` (n,) of ±1 that the ν-SVM at λ
        misclassifies (a decision value of 0 counts as an error)."""
        return float(np.mean(np.asarray(y) * self.decision_function(X, lam) <= 0))

    def decision_path(self, X, lambdas=None) -> np.ndarray:
        """``f(x) + b`` for the rows of ``X`` at every breakpoint (or at ``lambdas``): (T, n)."""
        X = check_matrix(X, "X")
        self._check_features(X)
        Kx = self.kernel(X)
        if lambdas is None:
            C = self.coefs
            b = self.b
        else:
            states = [self.state_at(l) for l in np.atleast_1d(lambdas)]
            C = np.array([s[0] for s in states]) * self.y[None, :]
            b = np.array([s[1] for s in states])
        return C @ Kx.T / self.m + b[:, None]

    def _check_features(self, X):
        if X.shape[1] != self.X.shape[1]:
            raise ValueError(f"X has {X.shape[1]} features; the path was fitted on {self.X.shape[1]}.")

    def kkt_violation(self, lam) -> float:
        """Largest violation of the KKT conditions at λ (an independent check of the path)."""
        a, b, rho = self.state_at(lam)
        K = self.kernel(self.X)
        g = self.y * (K @ (a * self.y) / self.m + b) - rho
        v = np.where(a <= _ALPHA_TOL, -g, np.where(a >= 1 - _ALPHA_TOL, g, np.abs(g)))
        return float(max(0.0, v.max()))

    def to_columns(self) -> dict:
        """The path as flat named columns (one row per breakpoint and point) for a CSV download."""
        T, m = self.alphas.shape
        return {
            "breakpoint": np.repeat(np.arange(T), m),
            "lambda": np.repeat(self.lambdas, m),
            "nu": np.repeat(self.nus, m),
            "point": np.tile(np.arange(m), T),
            "y": np.tile(self.y, T),
            "alpha": self.alphas.ravel(),
            "alpha_y": self.coefs.ravel(),
            "group": np.array(["R", "E", "L"])[self.groups.ravel()],
            "b": np.repeat(self.b, m),
            "rho": np.repeat(self.rho, m),
        }


def nu_path(X, y, *, kernel: str = "rbf", sigma: float = 1.0, degree: int = 3, gamma: float = 1.0,
            coef0: float = 1.0, tol: float = 1e-9, max_breakpoints: int | None = None,
            refresh: int | None = None, max_qp_iter: int | None = None) -> NuPath:
    """Compute the whole ν-SVM regularization path (Loosli & Canu 2006).

    Parameters
    ----------
    X : array of shape (m, d)
    y : array of shape (m,) with two distinct values (mapped to −1, +1 in sorted order)
    kernel : {"rbf", "linear", "poly"} or kernel object (fitted on ``X`` by :func:`svmviz.kernels.fit_kernel`);
        sigma, degree, gamma, coef0 as in :func:`svmviz.kernels.gram`
    tol : float
        Relative tolerance of ties and KKT checks (scaled by ``max G_ii · max(λ, 1)``).
    max_breakpoints : int, optional
        Safety cap (default ``50 m + 100``); the result's ``status`` is 1 if it is reached.
    refresh : int, optional
        Recompute ``Gα`` exactly every ``refresh`` breakpoints (the rest are O(m·|E|) updates);
        default ``max(10, m // 50)`` (:data:`EXACT_S_EVERY_MIN`, :data:`EXACT_S_POINTS_PER_STEP`).
    max_qp_iter : int, optional
        Iteration cap of each active-set solve (default ``10 m + 100``).

    Returns
    -------
    NuPath
        Breakpoints ``lambdas`` (T,), ``alphas`` (T, m), ``b``, ``rho`` (T,), ``groups`` (T, m), and
        ``state_at``/``decision_function`` anywhere on the path.

    Warns
    -----
    ConvergenceWarning if the path is incomplete (``status`` 1 or 2).

    Notes
    -----
    Loosli & Canu 2006, (Loosli & Canu 2006, Summary) for the four events, (Loosli & Canu 2006, "Linear system to solve") for the
    direction; ties and singular systems as described in :mod:`svmviz._nu_path`.
    """
    X = check_matrix(X, "X", min_rows=2)
    y_pm, classes = check_binary_labels(y, X.shape[0])
    m = X.shape[0]
    if m > MAX_N:
        raise ValueError(f"the path stores α at every breakpoint (~O(m²) numbers); use at most {MAX_N} "
                         f"points (got {m}) — subsample the data.")
    # every scalar is checked before the (m, m) kernel matrix is allocated
    tol = check_positive(tol, "tol")
    if not tol < 1e-3:
        raise ValueError(f"tol must be below 1e-3 (a relative tolerance); got {tol!r}.")
    if max_breakpoints is None:
        max_breakpoints = 50 * m + 100
    if isinstance(max_breakpoints, bool) or int(max_breakpoints) != max_breakpoints or max_breakpoints < 2:
        raise ValueError(f"max_breakpoints must be an integer ≥ 2; got {max_breakpoints!r}.")
    if refresh is None:
        refresh = max(EXACT_S_EVERY_MIN, m // EXACT_S_POINTS_PER_STEP)
    if isinstance(refresh, bool) or int(refresh) != refresh or refresh < 1:
        raise ValueError(f"refresh must be a positive integer; got {refresh!r}.")
    if max_qp_iter is None:
        max_qp_iter = 10 * m + 100
    if isinstance(max_qp_iter, bool) or int(max_qp_iter) != max_qp_iter or max_qp_iter < 1:
        raise ValueError(f"max_qp_iter must be a positive integer; got {max_qp_iter!r}.")
    kp = _kernel_params(fit_kernel(kernel, X), sigma, degree, gamma, coef0)
    K = np.ascontiguousarray(gram(X, **kp))  # validates the kernel and its parameters
    lam, alphas, thr, status, ncorr, viol, ndep, reason = _nu_path.nu_path_kernel(
        K, np.ascontiguousarray(y_pm), int(max_breakpoints), float(tol), int(refresh), int(max_qp_iter))
    path = NuPath(X, y_pm, tuple(classes), kp, lam, alphas, thr, status, ncorr, viol, ndep)
    if reason:
        path.message += f" ({_nu_path.LOST_REASONS.get(int(reason), 'unknown')})"
    if status != _nu_path.STATUS_OK:
        warnings.warn(f"nu_path: {path.message} (λ reached {lam[-1]:.6g} of {path.lambda_max:.6g}).",
                      ConvergenceWarning, stacklevel=2)
    return path


RHO_ZERO_RTOL = 1e-9
"""A margin ρ ≤ ``RHO_ZERO_RTOL · max_i G_ii · max(λ, 1)`` is 0: the path's own KKT tolerance (the
default ``tol`` of :func:`nu_path`, on the scale it uses for ties and KKT checks). Below ν_min the
reduced convex hulls of the two classes overlap, the ν-SVM's margin is 0 and its decision function
is 0 up to rounding (Chang & Lin 2001, "Training ν-support vector classifiers", §3): there
leave-one-out values are rounding noise — measured on wahba2001 (n = 200, σ = 1) at λ = 2.73, where
ρ = 2.6e-13 (threshold 1.4e-11), LOO2 was 261 from the path's refits and 151 from an
interior-point reference; at λ = 19.1, ρ = 1.1e-10 (1.1 × the threshold), they agree to 0.1 %."""


class LooPath(NamedTuple):
    """Leave-one-out estimates along the path (Loosli & Canu 2006, "Leave-one-out evaluation").

    Attributes
    ----------
    lambdas, nus : ndarray of shape (k,)
        Where LOO was evaluated (λ and ν = λ/m).
    loo1 : ndarray of shape (k,)
        The leave-one-out error rate (1/m) Σ [−y_i ŷ_i]_* (LOO1).
    loo2 : ndarray of shape (k,)
        (1/m) Σ max(0, 1 − y_i ŷ_i/ρ^{[−i]}): the seed's LOO2, (1/m) Σ max(0, ρ − y_i ŷ_i), with
        each leave-i-out decision function in units of its own margin ρ^{[−i]} (the scale in which
        scikit-learn's ``NuSVC`` puts the margin at ±1). It is the leave-one-out hinge loss: ≥ LOO1,
        and large where the margin is small — near the sparse end the solution approaches the
        hard-margin SVM, whose margin between overlapping classes is tiny, so a misclassified
        left-out point lies many margins away (values in the hundreds).
    loo2_raw : ndarray of shape (k,)
        (1/m) Σ max(0, ρ^{[−i]} − y_i ŷ_i) in the raw scale of the dual; grows like ρ (∝ λ at the
        sparse end), so it never "stops varying".
    n_sv : ndarray of shape (k,)
        |E ∪ L| (= the number of refits).
    test_error : ndarray of shape (k,)
        Error on the test sample (NaN without one).
    rho : ndarray of shape (k,)
        The full solution's margin ρ at each λ.
    rho_zero : ndarray of bool, shape (k,)
        ρ is 0 to the path's tolerance (:data:`RHO_ZERO_RTOL`): ν is below ν_min, the ν-SVM has no
        margin and its decision function is 0 up to rounding; LOO1/LOO2 there are rounding noise
        and are ignored by the stopping rule.
    stop : int
        Index of the automatic stopping point (:func:`auto_stop`).
    status : ndarray of int, shape (k,)
        0 ok, else the number of refits that failed.
    seconds : float
    """

    lambdas: np.ndarray
    nus: np.ndarray
    loo1: np.ndarray
    loo2: np.ndarray
    loo2_raw: np.ndarray
    n_sv: np.ndarray
    test_error: np.ndarray
    rho: np.ndarray
    rho_zero: np.ndarray
    stop: int
    status: np.ndarray
    seconds: float


def zero_margin(path: NuPath, lambdas=None) -> np.ndarray:
    """Whether the margin ρ is 0 (to the path's tolerance, :data:`RHO_ZERO_RTOL`) at ``lambdas``
    (default: every breakpoint): ν below ν_min, no classifier there. Bool array like ``lambdas``."""
    lam = path.lambdas if lambdas is None else np.atleast_1d(np.asarray(lambdas, dtype=np.float64))
    rho = path.rho if lambdas is None else np.array([path.state_at(l)[2] for l in lam])
    params = {k: v for k, v in path.kernel_params.items() if k != "kernel"}
    gscale = float(np.max(kernel_diagonal(path.kernel_params["kernel"], path.X, **params))) / path.m
    return rho <= RHO_ZERO_RTOL * gscale * np.maximum(lam, 1.0)


def default_loo_lambdas(path: NuPath, max_evals: int = 60) -> np.ndarray:
    """Distinct positive breakpoints, thinned evenly (by index) to at most ``max_evals``."""
    lam = np.unique(path.lambdas[path.lambdas > 0])
    if lam.size > max_evals:
        idx = np.unique(np.round(np.linspace(0, lam.size - 1, max_evals)).astype(int))
        lam = lam[idx]
    return lam


def loo_at(path: NuPath, lam: float, *, tol: float = 1e-9, max_qp_iter: int | None = None,
           K: np.ndarray | None = None, method: str = "homotopy", parallel: bool = True):
    """Leave-one-out decision values at one λ of the path.

    Returns ``(yf, g, refit, status)``: ``yf`` (m,) = y_i ŷ_i (leave-i-out decision value times the
    label), ``g`` (m,) = y_i ŷ_i − ρ^{[−i]} (so ρ^{[−i]} = yf − g), ``refit`` (m,) bool (points of
    E ∪ L, the only ones refitted), ``status`` (m,) int (0 ok). Each refit keeps λ (clipped to
    2·min(n₊, n₋) of the reduced set) and the scaling G = YKY/m. ``method``: "homotopy" (default:
    α_i driven to 0 from the full solution along a one-dimensional path, 002's warm start) or
    "active_set" (a Simple-ν-SVM solve warm-started from the full solution; slower, kept as a
    cross-check). Where a class of the leave-i-out solution has no free point its threshold is the
    midpoint of its optimal interval (libsvm's convention); where its ρ is 0 (the reduced hulls
    intersect) the leave-i-out classifier is f ≡ 0 and ``yf = g = 0`` (counted as an error).
    ``parallel``: spread the refits over numba's threads (homotopy only; same results).
    """
    lam = path._check_lambda(lam)
    if method not in ("homotopy", "active_set"):
        raise ValueError(f"method must be 'homotopy' or 'active_set'; got {method!r}.")
    if K is None:
        K = np.ascontiguousarray(path.kernel(path.X))
    if max_qp_iter is None:
        max_qp_iter = 10 * path.m + 100
    a, _, _ = path.state_at(lam)
    a = np.ascontiguousarray(a)
    threads = numba.get_num_threads()
    if method == "homotopy" and parallel and threads > 1:
        with PARALLEL_LOCK:
            yg, yf, refit, status, _steps = _nu_path.loo_kernel_parallel(
                K, path.y, a, float(lam), float(tol), int(max_qp_iter), 4 * threads)
    else:
        yg, yf, refit, status, _steps = _nu_path.loo_kernel(K, path.y, a, float(lam), float(tol),
                                                            int(max_qp_iter), method == "homotopy")
    return yf, yg, refit, status


_STOP_SLACK = 1e-12  # rounding in "≤": LOO1 is a multiple of 1/m, LOO2 a mean of m ratios


def auto_stop(loo1, loo2, m: int, *, valid=None, n_se: float = 1.0, rtol: float = 0.1) -> int:
    """The automatic stopping point (Loosli & Canu 2006, "Stopping on the path", "Stopping criteria").

    The paper follows the path from the sparse end and wants the "sparsest good" solution: stop
    "when LOO2 doesn't vary anymore" — the over-fitting of the sparse end is over — with LOO1 as
    the estimate of the generalization error. Read on the evaluated λ (in path order), the stop
    is the first index ``k`` where both hold:

    - LOO1 is near the best: ``LOO1_k ≤ min LOO1 + n_se · SE``, SE the binomial standard error of
      the smallest LOO1, ``sqrt(p(1 − p)/m)`` (at least ``1/m``) — the one-standard-error rule
      (Hastie, Tibshirani & Friedman 2009, §7.10);
    - LOO2 has come down to its floor among those: ``LOO2_k ≤ (1 + rtol) · min LOO2`` over the
      evaluations whose LOO1 is near the best (so the set is never empty).

    Minima are taken over the ``valid`` evaluations only (default: all; the path excludes those
    whose margin is 0, where LOO values are rounding noise). The last index is returned if no
    evaluation is valid.

    Parameters
    ----------
    loo1, loo2 : array_like of shape (k,)
        LOO1 and LOO2 along the path, in path order.
    m : int
        Number of training points (for the standard error).
    valid : array_like of bool, shape (k,), optional
    n_se : float ≥ 0, default 1.0
    rtol : float > 0, default 0.1

    Returns
    -------
    int
    """
    l1 = np.asarray(loo1, dtype=np.float64)
    l2 = np.asarray(loo2, dtype=np.float64)
    if l1.ndim != 1 or l1.size == 0 or l2.shape != l1.shape:
        raise ValueError("loo1 and loo2 must be non-empty 1-D arrays of the same length.")
    if isinstance(m, bool) or int(m) != m or m < 1:
        raise ValueError(f"m must be a positive integer (the number of training points); got {m!r}.")
    ok = np.ones(l1.size, bool) if valid is None else np.asarray(valid, dtype=bool)
    if ok.shape != l1.shape:
        raise ValueError("valid must have the shape of loo1.")
    n_se = float(n_se)
    if not (np.isfinite(n_se) and n_se >= 0):
        raise ValueError(f"n_se must be a number ≥ 0; got {n_se!r}.")
    rtol = check_positive(rtol, "rtol")
    ok &= np.isfinite(l1) & np.isfinite(l2)
    if np.any((l1[ok] < 0) | (l1[ok] > 1)):
        raise ValueError("loo1 must be error rates in [0, 1].")
    if not ok.any():
        return l1.size - 1
    p = float(l1[ok].min())
    se = max(np.sqrt(p * (1.0 - p) / m), 1.0 / m)
    near = ok & (l1 <= p + n_se * se + _STOP_SLACK)  # never empty: holds the smallest LOO1
    good = near & (l2 <= (1.0 + rtol) * l2[near].min() + _STOP_SLACK)
    return int(np.flatnonzero(good)[0])


def loo_path(path: NuPath, lambdas=None, *, max_evals: int = 60, X_test=None, y_test=None,
             n_se: float = 1.0, rtol: float = 0.1, tol: float = 1e-9,
             progress: Callable[[int, int, str], None] | None = None) -> LooPath:
    """LOO1, LOO2 (Loosli & Canu 2006) and the test error along the path, with the automatic stopping point.

    Parameters
    ----------
    path : NuPath
    lambdas : array (k,), optional
        Where to evaluate (default :func:`default_loo_lambdas` with ``max_evals``).
    X_test, y_test : optional independent sample (n_t, d), (n_t,) labels of the same two classes.
    n_se, rtol : stopping rule of :func:`auto_stop`.
    progress : optional callback ``progress(done, total, message)``, called after each λ.

    Returns
    -------
    LooPath

    Warns
    -----
    ConvergenceWarning if any refit's active-set solve failed (counted in ``status``).

    Notes
    -----
    Loosli & Canu 2006, "Leave-one-out evaluation", "How to do it practically": only E ∪ L
    are refitted (removing a point of R leaves the solution unchanged), warm-started. Evaluations
    whose margin ρ is 0 (ν below ν_min, :data:`RHO_ZERO_RTOL`) are flagged in ``rho_zero``.
    """
    import time

    if not isinstance(path, NuPath):
        raise ValueError("path must be the NuPath returned by nu_path.")
    if lambdas is None:
        lambdas = default_loo_lambdas(path, max_evals)
    lambdas = np.atleast_1d(np.asarray(lambdas, dtype=np.float64))
    if lambdas.ndim != 1 or lambdas.size == 0:
        raise ValueError("lambdas must be a non-empty 1-D array.")
    for l in lambdas:
        path._check_lambda(l)
    if np.any(lambdas <= 0):
        raise ValueError("LOO needs λ > 0 (at λ = 0 the solution is α = 0).")
    have_test = X_test is not None
    if have_test:
        Xt = check_matrix(X_test, "X_test")
        path._check_features(Xt)
        yt = np.asarray(y_test).ravel()
        if yt.shape[0] != Xt.shape[0]:
            raise ValueError(f"y_test has {yt.shape[0]} labels but X_test has {Xt.shape[0]} rows.")
        known = set(path.classes)
        if not set(np.unique(yt)).issubset(known | {-1.0, 1.0}):
            raise ValueError(f"y_test must use the training classes {path.classes}.")
        yt_pm = np.where(yt == path.classes[1], 1.0, -1.0) if set(np.unique(yt)) <= known else yt
    t0 = time.perf_counter()
    K = np.ascontiguousarray(path.kernel(path.X))
    k = lambdas.size
    loo1 = np.empty(k)
    loo2 = np.empty(k)
    loo2_raw = np.empty(k)
    rho = np.empty(k)
    nsv = np.empty(k, dtype=np.int64)
    status = np.zeros(k, dtype=np.int64)
    for j, lam in enumerate(lambdas):
        yf, g, refit, st = loo_at(path, lam, tol=tol, K=K)
        loo1[j] = np.mean(yf <= 0)
        loo2_raw[j] = np.mean(np.maximum(0.0, -g))
        rho_i = yf - g
        with np.errstate(divide="ignore", invalid="ignore"):
            u = np.where(rho_i > 0, np.maximum(0.0, -g) / np.where(rho_i > 0, rho_i, 1.0), np.nan)
        loo2[j] = np.mean(np.where(np.isnan(u), np.where(yf > 0, 0.0, 1.0), u))
        nsv[j] = int(refit.sum())
        status[j] = int(np.sum(st != 0))
        if progress is not None:
            progress(j + 1, k, f"λ = {lam:.3g}")
    rho_zero = zero_margin(path, lambdas)
    test_error = np.full(k, np.nan)
    if have_test:
        F = path.decision_path(Xt, lambdas)
        test_error = np.mean(F * yt_pm[None, :] <= 0, axis=1)
    stop = auto_stop(loo1, loo2, path.m, valid=~rho_zero, n_se=n_se, rtol=rtol)
    if status.sum():
        warnings.warn(f"{int(status.sum())} leave-one-out refit(s) along the path did not converge; "
                      "LOO1 and LOO2 at those λ are approximate.", ConvergenceWarning, stacklevel=2)
    rho = np.array([path.state_at(l)[2] for l in lambdas])
    return LooPath(lambdas, lambdas / path.m, loo1, loo2, loo2_raw, nsv, test_error, rho, rho_zero, int(stop),
                   status, time.perf_counter() - t0)


class NuSVMPath(BinaryClassifierMixin, ClassifierMixin, BaseEstimator):
    """ν-SVM fitted through its whole regularization path, ν chosen on it.

    The path of the ν-SVM dual (Loosli & Canu 2006, "Dual"; α, b, ρ piecewise linear in λ = mν) is
    computed once by :func:`nu_path`; the classifier is the path's point at ``nu``, or at the
    automatic stopping point of leave-one-out along the path (Loosli & Canu 2006, "Stopping
    criteria": the sparsest solution whose LOO1 and LOO2 are near their best, :func:`auto_stop`). Its decision function equals scikit-learn's ``NuSVC(nu)`` up to a positive
    factor.

    Parameters
    ----------
    nu : float in (0, 1] or "auto", default="auto"
        The ν = λ/m used for prediction (feasible up to 2·min(n₊, n₋)/m); ``"auto"`` takes the
        automatic stopping point (:func:`auto_stop`).
    kernel : {"rbf", "linear", "poly"} or kernel object, default="rbf"
        See :func:`svmviz.kernels.gram`.
    sigma : float, default=1.0
        Gaussian width, K = exp(−‖x − x'‖²/(2σ²)).
    degree, gamma, coef0 : polynomial kernel parameters.
    max_evals : int, default=60
        λ values where LOO is evaluated (``nu="auto"`` only; :func:`default_loo_lambdas`).
    n_se, rtol : stopping rule of :func:`auto_stop` (``nu="auto"`` only): the first λ whose LOO1 is
        within ``n_se`` standard errors of the best and whose LOO2 is within ``rtol`` of its floor.
    tol : float, default=1e-9
        Relative tolerance of the path.

    Attributes
    ----------
    path_ : NuPath
        The whole path (breakpoints, α, b, ρ, groups).
    kernel_ : str or kernel object
        The kernel every later gram uses (a kernel object fitted on the training X).
    loo_ : LooPath or None
        LOO1/LOO2 along the path (``nu="auto"``).
    nu_ : float
        The chosen ν.
    lambda_ : float
        The chosen λ = m·ν.
    classes_ : ndarray of shape (2,)
        ``classes_[0]`` ↔ −1.
    status_ : int
        The path's status (0 complete).
    n_features_in_ : int
    feature_names_in_ : ndarray of shape (d,)
        When fitted on a DataFrame.

    Notes
    -----
    Loosli & Canu 2006, "Summary" (the four events of the path) and "Stopping criteria".

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import make_moons
    >>> from sklearn.svm import NuSVC
    >>> from svmviz.path import NuSVMPath
    >>> X, y = make_moons(60, noise=0.25, random_state=0)
    >>> clf = NuSVMPath(nu=0.3, sigma=0.5).fit(X, y)
    >>> clf.status_, round(clf.nu_, 2), clf.path_.lambda_max
    (0, 0.3, 60.0)
    >>> round(float(clf.score(X, y)), 3)
    0.983

    At ν = 0.3 the path's decision function is scikit-learn's ``NuSVC(nu=0.3)`` times a constant:

    >>> ref = NuSVC(nu=0.3, gamma=1 / (2 * 0.5**2), tol=1e-10).fit(X, y)
    >>> ratio = clf.decision_function(X) / ref.decision_function(X)
    >>> bool(np.ptp(ratio) < 1e-4 * ratio.mean())
    True
    """

    def __init__(self, *, nu="auto", kernel="rbf", sigma=1.0, degree=3, gamma=1.0, coef0=1.0,
                 max_evals=60, n_se=1.0, rtol=0.1, tol=1e-9):
        self.nu = nu
        self.kernel = kernel
        self.sigma = sigma
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.max_evals = max_evals
        self.n_se = n_se
        self.rtol = rtol
        self.tol = tol

    def fit(self, X, y):
        """Compute the path and choose ν on it.

        Parameters
        ----------
        X : array-like of shape (m, d)
        y : array-like of shape (m,), two distinct labels

        Returns
        -------
        self
        """
        auto = isinstance(self.nu, str) and self.nu == "auto"
        if not auto:
            try:
                nu = float(self.nu)
            except (TypeError, ValueError):
                nu = float("nan")
            if isinstance(self.nu, (bool, str)) or not 0 < nu <= 1:
                raise ValueError(f"nu must be 'auto' or a number in (0, 1]; got {self.nu!r}.")
        X, y, classes = validate_fit_data(self, X, y, binary=True)
        path = nu_path(X, y, kernel=self.kernel, sigma=self.sigma, degree=self.degree,
                       gamma=self.gamma, coef0=self.coef0, tol=self.tol)
        if auto:
            loo = loo_path(path, max_evals=self.max_evals, n_se=self.n_se, rtol=self.rtol)
            lam = float(loo.lambdas[loo.stop])
        else:
            loo = None
            lam = nu * path.m
            if lam > path.lambdas[-1] * (1 + 1e-12):
                raise ValueError(
                    f"nu = {self.nu} is infeasible: ν ≤ 2·min(n₊, n₋)/m = {path.lambdas[-1] / path.m:.4g}.")
            lam = min(lam, float(path.lambdas[-1]))
        self.path_ = path
        self.kernel_ = path.kernel_params["kernel"]  # the fitted kernel every later gram uses
        self.classes_ = classes
        self.status_ = path.status
        self.loo_ = loo
        self.lambda_ = lam
        self.nu_ = lam / path.m
        return self

    def decision_function(self, X):
        """f(x) + b at the chosen λ.

        Parameters
        ----------
        X : array-like of shape (n, d)

        Returns
        -------
        f : ndarray of shape (n,)
            Positive means ``classes_[1]``.
        """
        X = validate_predict_data(self, X)
        return self.path_.decision_function(X, self.lambda_)

    def predict(self, X):
        """Class labels, shape (n,) (a decision value of exactly 0 goes to ``classes_[0]``)."""
        f = self.decision_function(X)
        return np.where(f > 0, self.classes_[1], self.classes_[0])
