"""The ν-SVM regularization path, leave-one-out along it, and automatic stopping (Loosli & Canu 2006).

Problem (Loosli & Canu 2006, "Dual"; the documentation's References page), ``m`` training points, ``λ = mν``::

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

Layout: the path (:func:`nu_path`, :class:`NuPath`) is here; leave-one-out along the path and the
stopping rule (:func:`loo_path`, :func:`loo_at`, :func:`auto_stop`, :class:`LooPath`) live in
``_loo.py``; the estimator :class:`NuSVMPath` (a scikit-learn estimator) lives in ``_estimator.py``,
handed out by :mod:`svmviz.path` on first use, so that importing the path does not import
scikit-learn (the path page needs none of it); the compiled solver is the ``_solver`` package.
"""
from __future__ import annotations

import warnings

import numpy as np

from . import _solver
from .._validation import (check_binary_labels, check_kernel_memory, check_kernel_params_used, check_matrix,
                           check_positive, predict_in_chunks)
from ..kernels import fit_kernel, gram

GROUP_R, GROUP_E, GROUP_L = 0, 1, 2
GROUP_NAMES = {GROUP_R: "R (α = 0)", GROUP_E: "E (margin, 0 < α < 1)", GROUP_L: "L (bounded, α = 1)"}
STATUS_MESSAGES = {
    _solver.STATUS_OK: "path complete",
    _solver.STATUS_MAX_BREAKPOINTS: "stopped at max_breakpoints before λ_max",
    _solver.STATUS_LOST: "path lost: the KKT conditions could not be restored",
}
_ALPHA_TOL = 1e-12
MAX_N = 5000
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
    """Group codes (``GROUP_R`` 0, ``GROUP_E`` 1, ``GROUP_L`` 2) from α (Loosli & Canu 2006, Summary).

    ``1 − [α ≤ tol] + [α ≥ 1 − tol]`` on int8 views of the two comparisons (NaN counts as E): two
    passes over α and two over one byte per entry, no boolean-indexed writes (the whole path's α is
    T·m entries).

    Parameters
    ----------
    alpha : array_like of any shape
        Dual coefficients in [0, 1].

    Returns
    -------
    ndarray of int8, shape like ``alpha``
        R (α = 0, outside the margin), E (0 < α < 1, on the margin) or L (α = 1, inside it).
    """
    a = np.asarray(alpha)
    g = np.empty(a.shape, np.int8)
    np.less_equal(a, _ALPHA_TOL, out=g.view(np.bool_))
    np.subtract(np.int8(GROUP_E), g, out=g)
    at_one = np.greater_equal(a, 1.0 - _ALPHA_TOL, out=np.empty(a.shape, np.bool_))
    np.add(g, at_one.view(np.int8), out=g)
    return g


class NuPath:
    """The whole ν-SVM regularization path (returned by :func:`nu_path`).

    Parameters
    ----------
    X : ndarray of shape (m, d)
        The training points.
    y : ndarray of shape (m,)
        Their labels ±1.
    classes : ndarray of shape (2,)
        The original labels mapped to (−1, +1), in sorted order.
    kernel_params : dict
        The kernel and its parameters (``kernel``, ``sigma``, ``degree``, ``gamma``, ``coef0``).
    lambdas : ndarray of shape (T,)
        Breakpoints λ_t.
    alphas : ndarray of shape (T, m)
        α at each breakpoint.
    thresholds : ndarray of shape (T, 2)
        (ρ − b, ρ + b) at each breakpoint, the two classes' thresholds.
    status : int
        0 complete, 1 stopped at ``max_breakpoints``, 2 path lost.
    n_corrections : int
        Simple-ν-SVM corrections applied where the KKT check failed.
    max_kkt_violation : float
        Largest relative KKT violation seen at a breakpoint.
    n_dependent : int
        Diagnostic: free or tied points left out of the working set as linearly dependent although
        their slope dg/dλ was not 0.

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
    X : ndarray (m, d)
        The training points.
    y : ndarray (m,)
        Their labels ±1.
    classes : ndarray (2,)
        The original labels mapped to (−1, +1).
    kernel_params : dict
        The kernel and its parameters.
    status : int
        0 complete, 1 stopped at ``max_breakpoints``, 2 path lost (see ``message``).
    message : str
        What ``status`` means.
    n_corrections : int
        Simple-ν-SVM corrections applied where the KKT check failed (0 on a clean path).
    max_kkt_violation : float
        Largest KKT violation seen at a breakpoint, relative to ``max_i G_ii · max(λ, 1)``.
    n_dependent : int
        Diagnostic count of dependent points left out of the working set with a non-zero slope.

    See Also
    --------
    nu_path : Computes the path.
    NuSVMPath : The estimator wrapping it.
    loo_path : Leave-one-out along the path.
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
        sv = np.flatnonzero(a > 0)  # points with α = 0 add nothing: the kernel block is (rows, n_SV)
        if sv.size == 0:  # no point with α_i > 0 at this λ: f = b
            return np.full(X.shape[0], b)
        Xs, c = self.X[sv], a[sv] * self.y[sv] / self.m
        return predict_in_chunks(lambda rows: self.kernel(rows, Xs) @ c + b, X, sv.size)

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
    X : array_like of shape (m, d)
        Training points.
    y : array_like of shape (m,)
        Two distinct values, mapped to −1, +1 in sorted order.
    kernel : {"rbf", "linear", "poly"} or kernel object, default "rbf"
        A name, or a kernel object (fitted on ``X`` by :func:`svmviz.kernels.fit_kernel`).
    sigma : float, default 1.0
        Gaussian width, ``exp(-||x - x'||² / (2σ²))`` (as in :func:`svmviz.kernels.gram`); used by
        ``kernel="rbf"`` only. Refused (a ValueError) at another value beside a kernel that does not read it.
    degree : int, default 3
        Degree of the polynomial kernel ``(γ x·x' + c0)^degree``.
    gamma, coef0 : float, default 1.0
        γ and c0 of the polynomial kernel.
    tol : float, default 1e-9
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
    ConvergenceWarning
        The path is incomplete (``status`` 1 or 2).

    See Also
    --------
    NuSVMPath : The scikit-learn-style estimator around this function.
    loo_path : Leave-one-out along the path.
    svmviz.figures.path.compute_coef_paths : The coefficient paths drawn from the result.

    Notes
    -----
    Loosli & Canu 2006, Summary, for the four events, and "Linear system to solve" for the direction;
    ties and singular systems as described in the private module ``svmviz.path._solver``.
    """
    X = check_matrix(X, "X", min_rows=2)
    y_pm, classes = check_binary_labels(y, X.shape[0])
    m = X.shape[0]
    if m > MAX_N:
        raise ValueError(f"the path stores α at every breakpoint (~O(m²) numbers); use at most {MAX_N} "
                         f"points (got {m}) — subsample the data.")
    # every scalar is checked before the (m, m) kernel matrix is allocated
    check_kernel_params_used(kernel, sigma=sigma, gamma=gamma, sigma_default=1.0, gamma_default=1.0)
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
    # the (m, m) kernel and the breakpoint rows of α (about 4m of them, _solver.config): 5 m² doubles
    check_kernel_memory(m, what="nu_path", copies=5)
    kp = _kernel_params(fit_kernel(kernel, X), sigma, degree, gamma, coef0)
    K = np.ascontiguousarray(gram(X, **kp))  # validates the kernel and its parameters
    lam, alphas, thr, status, ncorr, viol, ndep, reason = _solver.follow_path(
        K, np.ascontiguousarray(y_pm), int(max_breakpoints), float(tol), int(refresh), int(max_qp_iter))
    path = NuPath(X, y_pm, tuple(classes), kp, lam, alphas, thr, status, ncorr, viol, ndep)
    if reason:
        path.message += f" ({_solver.LOST_REASONS.get(int(reason), 'unknown')})"
    if status != _solver.STATUS_OK:
        from sklearn.exceptions import ConvergenceWarning  # (users filter scikit-learn's class)

        warnings.warn(f"nu_path: {path.message} (λ reached {lam[-1]:.6g} of {path.lambda_max:.6g}).",
                      ConvergenceWarning, stacklevel=2)
    return path

