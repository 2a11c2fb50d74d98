"""The compiled solver: iterated re-weighted least squares (IRWLS) training of the SVC and of
the unbiased SVC (Navia-Vázquez, Pérez-Cruz, Artés-Rodríguez & Figueiras-Vidal 2004).

Arrays and scalars only; every solver returns a status code (``STATUS_*``). The public, validated
API is :mod:`svmviz.usvc`.

One machine covers both cases of the paper: the decision function is ``f = Φβ + b`` with features
``Φ`` (n, p) and regulariser ``½ β'Gβ``:

* linear machine (Navia-Vázquez et al. 2004, eq. 20): ``Φ = X``, ``G = I`` (β = w);
* semiparametric kernel machine with prototypes c_1..c_R (Navia-Vázquez et al. 2004, eqs. 23–26): ``Φ_ir = K(x_i, c_r)``,
  ``G = K(c, c)`` (``½‖w‖² = ½β'Gβ``).

Each IRWLS step solves the weighted least-squares system (Navia-Vázquez et al. 2004, eqs. 20 and 25)::

    [ Φ'D_aΦ + G   Φ'a ] [β]   [ Φ'D_a y ]
    [ a'Φ          a'1 ] [b] = [ a'y     ]

i.e. minimises ``½β'Gβ + ½ Σ a_i e_i²`` with ``e_i = y_i − f_i``, then recomputes the weights from
the new slacks. Weights (Navia-Vázquez et al. 2004, eqs. 21–22)::

    ξ_i = e_i y_i = 1 − y_i f_i,   α_i = C θ'(ξ_i) if ξ_i ≥ 0 else 0,
    a_i = factor · α_i / ξ_i       if ξ_i > 0,   capped at a_max (and a_max at ξ_i = 0),
    a_i = 0                        if ξ_i < 0.

``factor = 1`` makes the fixed point of the iteration satisfy the KKT conditions (8)–(13) of the
primal (5) — the gradient of ``½ a_i e_i²`` in f_i is ``−a_i e_i = −(α_i/ξ_i)·ξ_i y_i = −α_i y_i``, as
(10) requires. The seed's literal ``a_i = 2α_i/(e_i y_i)`` (``factor = 2``) matches the *value*
``α_i ξ_i = ½ a_i e_i²`` but doubles the gradient: its fixed point is the solution of the problem with
2C (verified against libsvm in the tests). ``factor`` is exposed so both readings can be compared.

Points that end exactly on the margin (0 < α_i < C) are reached geometrically: with a_i = α_i/ξ_i the
next slack is ξ_new = ξ_old · α_i*/C, until the cap a_max stops it at ξ ≈ α_i*/a_max (a bias of
order C/a_max in the slack, 1e-7 at the defaults). The sets of points (beyond, on, inside the
margin) settle long before; for the hinge the exact finish (:func:`_exact_finish`) then solves for
the iteration's limit with those sets and accepts it only when it is that limit.

Compile time. numba compiles every function a compiled function calls on its own (its optimisation,
machine code and cache entry), then links it into each caller and optimises and emits it there again.
The functions called from one place only — the exact finish (:func:`_exact_finish`) with its Newton
step and line search, its dual guess of the sets (:func:`_dual_sets`) with the active-set method, the
weighted solve's system — are therefore inlined by numba (``inline='always'``): their code is
optimised inside their caller only. Loops over the solver (the Table 1 study,
:func:`table1_trials`) run in Python, where numba would link the whole solver into a compiled loop.
"""
from __future__ import annotations

import numpy as np

from .._jit import njit  # numba.njit whose cache follows the functions called in other modules
from .._linalg import cholesky

LOSS_HINGE = 0
LOSS_SMOOTH_STEP = 1

ROUNDING_FLOOR = 1000.0 * np.finfo(np.float64).eps  # ≈ 2.2e-13 relative change of (β, b)
#: Steps of (β, b) below FLOOR_FACTOR times the weighted solve's estimated rounding error (measured
#: at each solve by one step of iterative refinement) are rounding noise, not progress: they count as
#: converged. Without this, a fixed tol under the floor — which weights near a_max raise to ~1e-8
#: relative when about as many margin points as parameters hold the solution (kernel machines,
#: separable data) — is never met and the iteration runs to max_iter in noise.
FLOOR_FACTOR = 10.0
PATIENCE = 10  # consecutive passing iterations before IRWLS is declared converged
#: Rows the recorded history of :func:`irwls` starts with (it doubles when full).
HISTORY_ROWS = 64

#: The sets of points of the exact finish (:func:`_exact_finish`): beyond, on and inside the margin.
SET_OUT = 0
SET_MARGIN = 1
SET_IN = 2
#: A point counts as on its way to the margin when the multiplier of its weighted solve, a_i·ξ̂_i, is
#: below (1 − MARGIN_GAP) times its bound (:func:`_classify`): its slack still shrinks geometrically.
MARGIN_GAP = 1e-3
#: ... and its slack is at most MARGIN_BAND (points deep inside the margin whose slacks still move
#: are not margin points in the making).
MARGIN_BAND = 1e-2
#: Iterations with unchanged sets before the exact finish is tried.
SET_PATIENCE = 1
#: Newton steps (each with its exact line search, O(n·p) plus a selection over the kinks) of the first
#: try of the finish; each failed try doubles the next one's, up to FINISH_ROUNDS. A try that fails
#: hands its last point on to the next one (when that point is still below the IRWLS iterate in the
#: finish's objective), so the steps of failed tries are not lost. A fresh try starts from the sets of
#: the finish objective's dual over the points near the margin (:func:`_dual_sets`): when that guess
#: holds, its first Newton step is the limit.
FIRST_ROUNDS = 8
FINISH_ROUNDS = 32
#: The exact line search (:func:`_line_min`) halves its bracket of kinks at their median until at most
#: this many remain, then sorts and walks them.
LINE_WALK = 64
#: Steps of the active-set method of the dual guess of the finish's sets (:func:`_dual_active_set`).
DUAL_STEPS = 200
#: Rounds of :func:`_dual_sets`' decomposition (points outside its free set that its solution moves join it).
DUAL_ROUNDS = 8
#: Most free points of :func:`_dual_sets` (its dense dual matrix holds their number squared).
DUAL_MAX_FREE = 2000
#: Tolerance of :func:`_dual_active_set`'s steps and sign conditions (relative to the bounds).
DUAL_TOL = 1e-9
#: Most iterations between tries of the finish after a failed one (the gap doubles from 1 up to this).
#: A try costs its Newton steps and a dual guess, each O(n·p) or more; where the sets never admit the
#: finish (degenerate data: w = 0 with every point of one class on the margin) the iteration runs on
#: for thousands of steps, and the tries, at most about T/MAX_GAP + log₂ MAX_GAP of them over T
#: iterations, stay a small part of it. A finish that a later try does give waits at most MAX_GAP
#: iterations more.
MAX_GAP = 64
#: The finish is not tried while more than MARGIN_EXCESS·(p + 1) points sit on the margin (points in
#: general position put at most p + 1 there): such sets have not settled, or the data are degenerate.
MARGIN_EXCESS = 4
#: Relative tolerance of the finish's KKT checks (multipliers against their bounds, stationarity
#: against the size of its terms), beside the measured rounding of the candidate's solve.
FINISH_KKT_TOL = 1e-9
#: The finish's step check (b): the candidate solves the weighted system of one plain IRWLS step from
#: it (eq. 20 with the weights of eq. 22 at the candidate) to a componentwise relative residual of at
#: most STAY_TOL (its backward error; a few hundred times the rounding of forming the residual). The
#: step's own solution is no finer a test: its forward error is the system's condition number
#: (~a_max·‖Φ‖²) times eps, ~1e-8 relative, above the candidate's.
STAY_TOL = 1e-12

STATUS_CONVERGED = 0
STATUS_MAX_ITER = 1
STATUS_DEGENERATE = 2  # every weight a_i is zero: (Navia-Vázquez et al. 2004, eq. 20) does not determine b
STATUS_NONFINITE = 3

STATUS_TEXT = {
    STATUS_CONVERGED: "converged",
    STATUS_MAX_ITER: "max_iter reached before the tolerance",
    STATUS_DEGENERATE: "every weight a_i is zero (no point on or inside the margin); b is undetermined",
    STATUS_NONFINITE: "non-finite values appeared (overflow); reduce C or rescale X",
}


# ----------------------------------------------------------------------------------------------
# the smooth step θ̃_s (Navia-Vázquez et al. 2004, eq. 6) and its derivative
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _theta(xi, loss, s, k):
    """Loss θ(ξ) for the slack ξ = (1 − y f)_+ (ξ < 0 is clipped to 0)."""
    if xi < 0.0:
        xi = 0.0
    if loss == LOSS_HINGE:
        return xi
    kap = k ** (1.0 / s)
    if xi < 1.0:
        return (xi + kap) ** s / (2.0 * (1.0 + kap) ** s)
    return 1.0 - (1.0 + kap) ** s / (2.0 * (xi + kap) ** s)


@njit(cache=True)
def _dtheta(xi, loss, s, k):
    """Right derivative dθ/dξ at ξ ≥ 0 (ξ < 0 is treated as 0)."""
    if xi < 0.0:
        xi = 0.0
    if loss == LOSS_HINGE:
        return 1.0
    kap = k ** (1.0 / s)
    if xi < 1.0:
        return s * (xi + kap) ** (s - 1.0) / (2.0 * (1.0 + kap) ** s)
    return s * (1.0 + kap) ** s / (2.0 * (xi + kap) ** (s + 1.0))


@njit(cache=True)
def _theta_values(xi, loss, s, k, derivative):
    """θ(ξ) (or dθ/dξ when ``derivative``) of every element of the array ``xi``, same shape."""
    out = np.empty_like(xi)
    for i in range(xi.size):
        v = xi.flat[i]
        out.flat[i] = _dtheta(v, loss, s, k) if derivative else _theta(v, loss, s, k)
    return out


def _theta_array(xi, loss, s, k):
    """θ(ξ) elementwise (:func:`_theta_values`)."""
    return _theta_values(xi, loss, s, k, False)


def _dtheta_array(xi, loss, s, k):
    """dθ/dξ elementwise (:func:`_theta_values`)."""
    return _theta_values(xi, loss, s, k, True)


# ----------------------------------------------------------------------------------------------
# one IRWLS machine
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _decision(Phi, beta, b):
    """f = Φβ + b (Navia-Vázquez et al. 2004, eqs. 20 and 27), one BLAS matrix-vector product."""
    n, p = Phi.shape
    if n == 0 or p == 0:
        return np.full(n, b)
    return np.ascontiguousarray(Phi) @ beta + b


@njit(cache=True)
def _primal(Phi, G, y, beta, b, C, cw, loss, s, k):
    """L̃ = ½β'Gβ + C Σ c_i θ((1 − y_i f_i)_+)  (Navia-Vázquez et al. 2004, eq. 5; hinge: eq. 4), with
    the per-sample weights c_i (``cw``; all 1 in the paper): C_i = c_i·C."""
    return _primal_at(_decision(Phi, beta, b), G, y, beta, C, cw, loss, s, k)


@njit(cache=True)
def _primal_at(f, G, y, beta, C, cw, loss, s, k):
    """:func:`_primal` with the decision values f = Φβ + b given."""
    p = beta.shape[0]
    reg = 0.0
    for i in range(p):
        t = 0.0
        for j in range(p):
            t += G[i, j] * beta[j]
        reg += beta[i] * t
    tot = 0.0
    for i in range(y.shape[0]):
        if cw[i] != 0.0:
            tot += cw[i] * _theta(1.0 - y[i] * f[i], loss, s, k)
    return 0.5 * reg + C * tot


@njit(cache=True)
def _weights(f, y, C, cw, loss, s, k, a_max, factor, a):
    """IRWLS weights (Navia-Vázquez et al. 2004, eqs. 21–22) into ``a``; returns Σ a_i.

    Per-sample weights c_i (``cw``) make the bound of point i C_i = c_i·C, so α_i = C_i θ'(ξ_i), and
    its cap c_i·a_max: the weights of one row of weight c_i are then those of c_i copies of it, cap
    included (the margin points' slack ξ ≈ α_i/a_max is the same either way). A point of weight 0
    gets a_i = 0 and drops out of the weighted solve, as a removed row would.
    """
    tot = 0.0
    for i in range(y.shape[0]):
        xi = 1.0 - y[i] * f[i]
        if xi < 0.0 or cw[i] == 0.0:
            a[i] = 0.0
        else:
            alpha = C * cw[i] * _dtheta(xi, loss, s, k)
            cap = a_max * cw[i]
            if alpha <= 0.0:
                a[i] = 0.0
            elif xi * cap <= factor * alpha:
                a[i] = cap
            else:
                a[i] = factor * alpha / xi
        tot += a[i]
    return tot


@njit(cache=True)
def _solve_wls(Phi, G, y, a, beta_out, err_out):
    """Solve (Navia-Vázquez et al. 2004, eqs. 20 and 25) for fixed weights; β into ``beta_out``, returns b.

    ``err_out[0]`` receives an estimate of the solve's relative rounding error,
    ‖M⁻¹(r − M x̂)‖ / max(1, ‖x̂‖) (one step of iterative refinement, not applied).
    """
    p = Phi.shape[1]
    M, r = _wls_system(Phi, G, y, a)
    return _solve_wls_system(M, r, p, beta_out, err_out)


@njit(cache=True)
def _wls_system(Phi, G, y, a):
    """The weighted least-squares system M (β, b) = r of (Navia-Vázquez et al. 2004, eqs. 20 and 25)::

        M = [[Φ'D_aΦ + G, Φ'a], [a'Φ, Σa]],   r = (Φ'D_a y, a'y)

    as A'A and A't with the rows of A = D_a^{1/2} [Φ, 1] and t = D_a^{1/2} y of the points of positive
    weight (one BLAS product: the points beyond the margin, a_i = 0, drop out).
    """
    n, p = Phi.shape
    m = 0
    for i in range(n):
        if a[i] != 0.0:
            m += 1
    A = np.empty((m, p + 1))
    t = np.empty(m)
    q = 0
    for i in range(n):
        ai = a[i]
        if ai == 0.0:
            continue
        sa = np.sqrt(ai)
        for j in range(p):
            A[q, j] = sa * Phi[i, j]
        A[q, p] = sa
        t[q] = sa * y[i]
        q += 1
    if m > 0:
        M = A.T @ A
        r = A.T @ t
    else:
        M = np.zeros((p + 1, p + 1))
        r = np.zeros(p + 1)
    for j in range(p):
        for l in range(p):
            M[j, l] += G[j, l]
    for j in range(p + 1):  # exactly symmetric, as the products of the lower triangle round differently
        for l in range(j + 1, p + 1):
            M[l, j] = M[j, l]
    return M, r


@njit(cache=True, inline="always")  # one caller, _solve_wls: see "Compile time" in the module
def _solve_wls_system(M, r, p, beta_out, err_out):
    """The solve of :func:`_solve_wls`."""
    ok = True
    sol = np.zeros(p + 1)
    try:
        sol = np.linalg.solve(M, r)
    except Exception:  # noqa: BLE001 - numba: LU met an exactly zero pivot
        ok = False
    if not ok:
        # Singular to working precision (e.g. duplicated features whose ridge term is lost beside
        # weights a_i ~ a_max): the system is consistent (r lies in the range of Φ'D), so its
        # minimum-norm least-squares solution is a minimiser of the weighted problem (SVD-based).
        sol = np.linalg.lstsq(M, r, -1.0)[0]
    err = 0.0
    nrm = 0.0
    if ok:
        res = r - M @ sol
        dx = np.linalg.solve(M, res)
        for j in range(p + 1):
            err += dx[j] * dx[j]
            nrm += sol[j] * sol[j]
    err_out[0] = np.sqrt(err) / max(1.0, np.sqrt(nrm))
    for j in range(p):
        beta_out[j] = sol[j]
    return sol[p]


# ----------------------------------------------------------------------------------------------
# the exact finish of the hinge stage: the iteration's limit once its sets are known
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _classify(f_old, f_wls, y, C, cw, factor, a, sets):
    """The sets one hinge IRWLS step puts the points in (``SET_*`` into ``sets``); returns whether any changed.

    The weighted solve (Navia-Vázquez et al. 2004, eq. 20) with weights a_i (eq. 22) is stationary with
    the multipliers α̂_i = a_i ξ̂_i, ξ̂_i its new slacks (``f_wls``). Beyond the margin: a_i = 0. Inside
    it: α̂_i within ``MARGIN_GAP`` of the bound B_i = factor·C_i (eq. 21), its slack has settled. On the
    margin: α̂_i clearly below B_i — the slack shrinks by the factor α̂_i/B_i per solve, the geometric
    approach to ξ = 0 of a margin point (or its weight is capped) — and a slack ξ_i (of ``f_old``,
    the weights' iterate) of at most ``MARGIN_BAND``. The exact finish needs only a guess: it
    corrects the sets itself.
    """
    changed = False
    for i in range(y.shape[0]):
        margin = (1.0 - y[i] * f_old[i] <= MARGIN_BAND
                  and a[i] * (1.0 - y[i] * f_wls[i]) < (1.0 - MARGIN_GAP) * factor * C * cw[i])
        c = SET_OUT if a[i] == 0.0 else (SET_MARGIN if margin else SET_IN)
        changed |= c != sets[i]
        sets[i] = c
    return changed


@njit(cache=True)
def _slack(Phi, i, beta, b, y):
    """ξ_i = 1 − y_i f_i at (β, b), and 1 + |b| + Σ_j |φ_ij β_j|, the size its rounding scales with."""
    mag = abs(b)
    tot = b
    for j in range(beta.shape[0]):
        mag += abs(Phi[i, j] * beta[j])
        tot += Phi[i, j] * beta[j]
    return 1.0 - y[i] * tot, 1.0 + mag


@njit(cache=True, inline="always")  # one caller, _finish_newton: see "Compile time" in the module
def _solve_near(K, r, x0, err_out, estimate):
    """Solve K x = r by LU; where LU meets an exactly zero pivot, the least-squares solution nearest
    ``x0`` (x0 + the minimum-norm solution of K δ = r − K x0): a direction the system leaves free
    (the intercept when no point is on the margin) keeps the iterate's value. ``err_out[0]``: with
    ``estimate``, the estimated relative rounding error of an LU solve (one step of iterative
    refinement, a second solve), else 0."""
    q = r.shape[0]
    ok = True
    x = np.zeros(q)
    try:
        x = np.linalg.solve(K, r)
    except Exception:  # noqa: BLE001 - numba: LU met an exactly zero pivot
        ok = False
    err_out[0] = 0.0
    if not ok:
        return x0 + np.linalg.lstsq(K, r - K @ x0, -1.0)[0]
    if not estimate:
        return x
    dx = np.linalg.solve(K, r - K @ x)
    err_out[0] = np.sqrt(np.sum(dx * dx)) / max(1.0, np.sqrt(np.sum(x * x)))
    return x


@njit(cache=True, inline="always")  # one caller, _exact_finish: see "Compile time" in the module
def _finish_newton(Phi, G, y, bound, cap, sets, beta0, b0, err):
    """The minimiser of the objective's quadratic piece with the given sets (:func:`_exact_finish`),
    from the bordered KKT system; returns ``(x, idx)``: x = (β, b, α_M), idx the margin points."""
    n, p = Phi.shape
    idx = np.flatnonzero(sets == SET_MARGIN)
    m = idx.shape[0]
    q = p + 1 + m
    K = np.zeros((q, q))
    r = np.zeros(q)
    x0 = np.zeros(q)
    for j in range(p):
        x0[j] = beta0[j]
        for l in range(p):
            K[j, l] = G[j, l]
    x0[p] = b0
    for i in range(n):
        if sets[i] == SET_IN:
            t = bound[i] * y[i]
            for j in range(p):
                r[j] += t * Phi[i, j]
            r[p] += t
    for jj in range(m):
        i = idx[jj]
        c = p + 1 + jj
        for l in range(p):
            K[l, c] = -y[i] * Phi[i, l]
            K[c, l] = K[l, c]
        K[p, c] = -y[i]
        K[c, p] = -y[i]
        K[c, c] = -1.0 / cap[i]
        r[c] = -1.0
        xi, _size = _slack(Phi, i, beta0, b0, y)
        x0[c] = min(max(cap[i] * xi, 0.0), bound[i])
    return _solve_near(K, r, x0, err, True), idx


@njit(cache=True)
def _dot(u, v):
    t = 0.0
    for j in range(u.shape[0]):
        t += u[j] * v[j]
    return t


@njit(cache=True, inline="always")
def _copy_into(dst, src):
    """``dst[:] = src`` for 1-D arrays of one length, element by element: numba compiles an array
    assignment with its shape check and the formatting of that check's error message (``0.5–1.3 s``
    of first compilation per number of dimensions), which a copy of equal lengths never raises."""
    for j in range(dst.shape[0]):
        dst[j] = src[j]


@njit(cache=True)
def _psi(xi, bound, cap):
    """Derivative of the capped IRWLS objective's loss term in ξ (:func:`_exact_finish`)."""
    if xi <= 0.0:
        return 0.0
    return min(cap * xi, bound)


@njit(cache=True)
def _line_slope(gG, hG, bound, cap, xi0, dxi, t):
    """dΦ/dt of :func:`_exact_finish`'s objective at (β, b) + t (dβ, db): ``gG + t·hG`` (the regulariser)
    plus Σ_i dξ_i ψ_i(ξ_i(t)) with ψ_i the derivative of the loss term (:func:`_psi`)."""
    g = gG + t * hG
    for i in range(xi0.shape[0]):
        if cap[i] != 0.0 and dxi[i] != 0.0:
            g += dxi[i] * _psi(xi0[i] + t * dxi[i], bound[i], cap[i])
    return g


@njit(cache=True)
def _line_curvature(hG, cap, dxi, lo, hi, t):
    """d²Φ/dt² just right of t: hG plus a_i^max dξ_i² for the points whose slack is in the band
    (0, B_i/a_i^max) there, i.e. lo_i ≤ t < hi_i (the band's interval of t, from the same kink values
    the line search walks; a point with dξ_i = 0 adds nothing)."""
    h = hG
    for i in range(dxi.shape[0]):
        if cap[i] != 0.0 and dxi[i] != 0.0 and lo[i] <= t < hi[i]:
            h += cap[i] * dxi[i] * dxi[i]
    return h


@njit(cache=True)
def _kth_smallest(x, k):
    """The k-th smallest (0-based) of the numbers ``x`` (none NaN): ``np.partition(x, k)[k]``, by
    Hoare's selection (FIND, Hoare 1961) on a copy, pivot the middle element of the range.

    The k-th order statistic is one number whatever the algorithm that finds it. numba's
    ``np.partition`` also checks and de-duplicates its ``kth`` argument (``np.unique``, an integer sort),
    seconds of first compilation for one scalar index."""
    a = x.copy()
    lo = 0
    hi = a.shape[0] - 1
    while lo < hi:
        pivot = a[(lo + hi) >> 1]
        i = lo
        j = hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                t = a[i]
                a[i] = a[j]
                a[j] = t
                i += 1
                j -= 1
        if k <= j:  # a[lo..j] ≤ pivot ≤ a[i..hi], and a[j+1..i−1] equal the pivot
            hi = j
        elif k >= i:
            lo = i
        else:
            return a[k]
    return a[k]


@njit(cache=True, inline="always")  # one caller, _exact_finish: see "Compile time" in the module
def _line_min(Phi, G, y, bound, cap, beta, b, dbeta, db):
    """The exact minimiser t* ≥ 0 of the convex piecewise-quadratic objective of :func:`_exact_finish`
    along (β, b) + t (dβ, db): its derivative is continuous, piecewise linear and non-decreasing in t,
    its slope changing by a_i^max dξ_i² where a slack enters or leaves the band (0, B_i/a_i^max).

    The kinks are halved around their median (the derivative evaluated there, O(n)) until at most
    ``LINE_WALK`` remain in the bracket of the derivative's zero; those are sorted and walked to it.
    O(n log n) element operations in all, the n·log n of them comparisons of a selection, not a sort
    of every kink.
    """
    n, p = Phi.shape
    Gd = G @ dbeta
    gG = _dot(beta, Gd)
    hG = _dot(dbeta, Gd)
    xi0 = np.zeros(n)
    dxi = np.zeros(n)
    lo = np.zeros(n)
    hi = np.zeros(n)
    kinks = np.empty(2 * n)
    who = np.empty(2 * n, dtype=np.int64)
    nk = 0
    for i in range(n):
        if cap[i] == 0.0:
            continue
        xi, _size = _slack(Phi, i, beta, b, y)
        xi0[i] = xi
        d = -y[i] * (_dot(Phi[i], dbeta) + db)
        dxi[i] = d
        if d == 0.0:
            continue
        u = bound[i] / cap[i]
        t0 = (0.0 - xi) / d
        t1 = (u - xi) / d
        lo[i] = min(t0, t1)
        hi[i] = max(t0, t1)
        for t in (t0, t1):
            if t > 0.0:
                kinks[nk] = t
                who[nk] = i
                nk += 1
    g = _line_slope(gG, hG, bound, cap, xi0, dxi, 0.0)
    if g >= 0.0:
        return 0.0
    t_c = 0.0
    K = kinks[:nk]
    W = who[:nk]
    while K.shape[0] > LINE_WALK:
        piv = _kth_smallest(K, K.shape[0] // 2)
        gp = _line_slope(gG, hG, bound, cap, xi0, dxi, piv)
        if gp >= 0.0:
            keep = K < piv
        else:
            keep = K > piv
            t_c = piv
            g = gp
        K = K[keep]
        W = W[keep]
    h = _line_curvature(hG, cap, dxi, lo, hi, t_c)
    inband = np.zeros(n, dtype=np.bool_)
    for q in range(W.shape[0]):
        i = W[q]
        inband[i] = lo[i] <= t_c < hi[i]
    order = np.argsort(K)
    for q in range(K.shape[0]):
        t_n = K[order[q]]
        if h > 0.0 and g + h * (t_n - t_c) >= 0.0:
            return t_c - g / h
        g += h * (t_n - t_c)
        t_c = t_n
        i = W[order[q]]
        inband[i] = not inband[i]
        if inband[i]:
            h += cap[i] * dxi[i] * dxi[i]
        else:
            h -= cap[i] * dxi[i] * dxi[i]
    if h > 0.0:
        return t_c - g / h
    return t_c


@njit(cache=True)
def _stopped(beta, b, beta_out):
    """A try of :func:`_exact_finish` that ends without the limit: its last point (β, b) out."""
    for j in range(beta.shape[0]):
        beta_out[j] = beta[j]
    return False, b


@njit(cache=True)
def _finish_objective(Phi, G, y, bound, cap, beta, b):
    """Φ(β, b) of :func:`_exact_finish`: ½β'Gβ + Σ_i C_i H_i(ξ_i), the objective whose minimiser is the
    hinge IRWLS iteration's limit."""
    val = 0.5 * _dot(beta, G @ beta)
    for i in range(Phi.shape[0]):
        if cap[i] == 0.0:
            continue
        xi, _size = _slack(Phi, i, beta, b, y)
        if xi <= 0.0:
            continue
        u = bound[i] / cap[i]
        val += 0.5 * cap[i] * xi * xi if xi < u else bound[i] * (xi - 0.5 * u)
    return val


@njit(cache=True, inline="always")  # one caller, irwls: see "Compile time" in the module
def _exact_finish(Phi, G, y, C, cw, a_max, factor, sets, beta0, b0, rounds, beta_out):
    """The limit of the hinge IRWLS iteration (Navia-Vázquez et al. 2004, eqs. 20–22), found from a
    guess of its sets.

    The weights of eq. 22 capped at a_i^max = c_i·a_max make the iteration minimise the convex
    piecewise-quadratic Φ(β, b) = ½β'Gβ + Σ_i C_i H_i(ξ_i) with H_i(ξ) = 0 for ξ ≤ 0,
    a_i^max ξ²/(2C_i) up to ξ = C_i/a_i^max and ξ − C_i/(2a_i^max) beyond (factor·C_i for C_i with
    ``factor``): its fixed point is where Φ is stationary, and G is positive definite, so the limit is
    unique in β. With sets of points — M on the margin (slack in the band), I inside it, the rest
    beyond it — Φ is one quadratic whose minimiser solves (eqs. 9–10 with B_i = factor·C_i, eq. 21)::

        Gβ − Σ_M α_j y_j φ_j = Σ_I B_i y_i φ_i          (eq. 10)
           − Σ_M α_j y_j     = Σ_I B_i y_i              (eq. 9)
        y_j (φ_j'β + b) + α_j / a_j^max = 1,   j ∈ M    (a margin point's weight is its cap)

    the margin multipliers α_M as unknowns of the bordered symmetric system (reading them off as
    a_j^max·ξ_j would multiply the rounding of ξ_j by a_max). From the IRWLS iterate and the guessed
    sets this is Newton's method on Φ: the step to the piece's minimiser, an exact line search along
    it (:func:`_line_min`), the sets read off the slacks at the new point (a point still in the band
    whose multiplier left [0, B_j] to the set it asks for), at most ``rounds`` times (Newton's method
    with exact line search ends in finitely many steps on a convex piecewise quadratic; Keerthi &
    DeCoste 2005). A piece's minimiser is accepted only when

    (a) it meets the conditions of its sets within ``FINISH_KKT_TOL`` (relative to the bounds B_i,
        beside the measured rounding of the solve): beyond the margin ξ_i ≤ 0, inside a_i^max ξ_i ≥ B_i
        (its weight B_i/ξ_i is not capped), on it 0 ≤ α_j ≤ B_j, and stationarity (eqs. 9–10) holds
        for the multipliers so defined — the KKT conditions of Φ, which make it Φ's minimiser, the
        iteration's own limit;
    (b) one plain IRWLS step (eqs. 22 and 20) from it stays put: the candidate solves the step's
        weighted system to a componentwise backward error of ``STAY_TOL``.

    ``sets`` (the guess) is updated in place to the sets of the last point. Returns ``(ok, b)`` with β
    in ``beta_out``: the limit, or (not ok) the last point of the Newton steps, where Φ is at most its
    value at (β0, b0).
    """
    n, p = Phi.shape
    eps = np.finfo(np.float64).eps
    bound = factor * C * cw
    cap = a_max * cw
    for i in range(n):
        if cw[i] == 0.0:
            sets[i] = SET_OUT
    beta = beta0.copy()
    b = b0
    err = np.zeros(1)
    for _round in range(rounds):
        if _margin_excess(sets, p):
            return _stopped(beta, b, beta_out)
        x, idx = _finish_newton(Phi, G, y, bound, cap, sets, beta, b, err)
        if not np.all(np.isfinite(x)):
            return _stopped(beta, b, beta_out)
        if _meets_kkt(Phi, G, y, bound, cap, sets, x, idx, err[0]):
            # (b) one plain IRWLS step from the candidate stays put
            f = _decision(Phi, x[:p], x[p])
            a = np.empty(n)
            if _weights(f, y, C, cw, LOSS_HINGE, 1.0, 1.0, a_max, factor, a) == 0.0:
                return _stopped(beta, b, beta_out)
            M, r = _wls_system(Phi, G, y, a)
            for j in range(p + 1):
                res = r[j]
                size = abs(r[j])
                for l in range(p + 1):
                    res -= M[j, l] * x[l]
                    size += abs(M[j, l] * x[l])
                if not abs(res) <= STAY_TOL * size:
                    return _stopped(beta, b, beta_out)
            for j in range(p):
                beta_out[j] = x[j]
            return True, x[p]
        dbeta = x[:p] - beta
        db = x[p] - b
        t = _line_min(Phi, G, y, bound, cap, beta, b, dbeta, db)
        for j in range(p):
            beta[j] += t * dbeta[j]
        b += t * db
        # the sets at the new point: the band (0, B_i/a_i^max) of the slack, beside its rounding
        changed = False
        for i in range(n):
            if cw[i] == 0.0:
                continue
            xi, size = _slack(Phi, i, beta, b, y)
            sl = (8.0 * eps + FLOOR_FACTOR * err[0]) * size
            c = SET_OUT if xi < -sl else (SET_MARGIN if xi <= bound[i] / cap[i] + sl else SET_IN)
            changed |= c != sets[i]
            sets[i] = c
        # a margin point of the piece whose multiplier left [0, B_j] and whose slack is still in the
        # band sits at the band's edge (its step is below rounding): it goes to the set its
        # multiplier asks for
        for jj in range(idx.shape[0]):
            i = idx[jj]
            if sets[i] == SET_MARGIN:
                if x[p + 1 + jj] > bound[i]:
                    sets[i] = SET_IN
                    changed = True
                elif x[p + 1 + jj] < 0.0:
                    sets[i] = SET_OUT
                    changed = True
        if not changed and t == 0.0:
            return _stopped(beta, b, beta_out)
    return _stopped(beta, b, beta_out)


@njit(cache=True)
def _margin_excess(sets, p):
    """Whether ``sets`` put more than MARGIN_EXCESS·(p + 1) points on the margin: :func:`_exact_finish`
    then declines at once."""
    return np.sum(sets == SET_MARGIN) > MARGIN_EXCESS * (p + 1)


@njit(cache=True)
def _dual_input(y, cap, f, sets, last):
    """What a fresh dual guess (:func:`_dual_sets`) at the iterate's decision values ``f`` and sets
    ``sets`` is a function of: per point, its set outside the guess's free set S (the fixed multiplier
    B_i inside, 0 beyond), or SET_MARGIN + 3 in S (the guessed margin points and the slacks within
    MARGIN_BAND of 0). The dual over S with those fixed multipliers has one minimiser (its Hessian
    (YZ)(YZ)' + diag(1/a^max) is positive definite), whatever the start: the same input gives the
    same guess (the step's multipliers, its start, decide only whether the guess declines early, on
    its count of free multipliers or steps). Writes the input into ``last`` and returns whether it
    equals the one held there."""
    same = True
    for i in range(y.shape[0]):
        if cap[i] == 0.0:
            c = -1
        elif sets[i] == SET_MARGIN or abs(1.0 - y[i] * f[i]) <= MARGIN_BAND:
            c = SET_MARGIN + 3
        else:
            c = sets[i]
        same &= c == last[i]
        last[i] = c
    return same


@njit(cache=True)
def _forward(L, v):
    """L⁻¹v for lower-triangular L (forward substitution)."""
    p = v.shape[0]
    z = np.empty(p)
    for j in range(p):
        t = v[j]
        for q in range(j):
            t -= L[j, q] * z[q]
        z[j] = t / L[j, j]
    return z


@njit(cache=True)
def _forward_rows(L, Phi, S):
    """The rows z_i = L⁻¹φ_i of the points S (:func:`_forward`), shape (len(S), p)."""
    Z = np.empty((S.shape[0], Phi.shape[1]))
    for q in range(S.shape[0]):
        Z[q] = _forward(L, Phi[S[q]])
    return Z


@njit(cache=True)
def _backward(L, w):
    """L'⁻¹w for lower-triangular L (back substitution)."""
    p = w.shape[0]
    x = np.empty(p)
    for j in range(p - 1, -1, -1):
        t = w[j]
        for q in range(j + 1, p):
            t -= L[q, j] * x[q]
        x[j] = t / L[j, j]
    return x


@njit(cache=True, inline="always")  # one caller, irwls: see "Compile time" in the module
def _dual_sets(Phi, G, y, bound, cap, f, a, f_wls, sets):
    """A guess of the exact finish's sets (:func:`_exact_finish`) from the dual of its objective Φ over
    the points near the margin, the others held at their sets' multipliers.

    Φ's dual (Navia-Vázquez et al. 2004, eqs. 9–13 with the cap's term) is
    ``min ½‖Σ_i α_i y_i z_i‖² + Σ_i α_i²/(2a_i^max) − Σ_i α_i`` over 0 ≤ α_i ≤ B_i, Σ_i α_i y_i = 0, with
    z_i = L⁻¹φ_i (G = LL'); its solution puts α_j = a_j^max ξ_j strictly inside (0, B_j) on the margin,
    B_i inside it, 0 beyond it. The free points S are the guessed margin points and those whose slack
    at the iterate (decision values ``f``) is within MARGIN_BAND of 0; the rest keep α_i = B_i (inside)
    or 0 (beyond). From the multipliers of the IRWLS step's weighted solve, α̂_i = a_i ξ̂_i (weights
    ``a``, its decision values ``f_wls``; eq. 20's stationarity), clipped to [0, B_i] and moved to
    Σ α_i y_i = 0, the active-set method :func:`_dual_active_set` solves the dual over S; a point
    outside S whose slack at that solution contradicts its set joins S and the dual is solved again
    (at most DUAL_ROUNDS times). S's points go to the sets their multipliers name (``sets`` in place).
    Returns False, leaving ``sets`` alone, when G has no Cholesky factor even with jitter
    (:func:`svmviz._linalg.cholesky`), S holds more than DUAL_MAX_FREE points, no feasible start exists,
    the start has too many free multipliers (more than MARGIN_EXCESS·(p + 1), and k³ > n·p² for k of
    them) or the method does not end: the finish then starts from the guess it had. The finish's
    Newton step and its checks (a) and (b) decide whether the guess gives the limit.
    """
    n, p = Phi.shape
    L, status = cholesky(G)  # a jittered factor of a G not positive definite still gives a guess
    if status != 0:
        return False
    free = np.zeros(n, dtype=np.bool_)
    m = 0
    v = np.zeros(p)
    delta = 0.0
    for i in range(n):
        if cap[i] == 0.0:
            continue
        if sets[i] == SET_MARGIN or abs(1.0 - y[i] * f[i]) <= MARGIN_BAND:
            free[i] = True
            m += 1
        elif sets[i] == SET_IN:
            t = bound[i] * y[i]
            for j in range(p):
                v[j] += t * Phi[i, j]
            delta -= t
    if m < 2 or m > DUAL_MAX_FREE:
        return False
    S = np.flatnonzero(free)
    Z = _forward_rows(L, Phi, S)
    w = _forward(L, v)
    ys = y[S]
    B = bound[S]
    inv = 1.0 / cap[S]
    alpha = np.empty(m)
    for q in range(m):
        alpha[q] = min(max(a[S[q]] * (1.0 - ys[q] * f_wls[S[q]]), 0.0), B[q])
    # Σ_S α_i y_i = delta: move the multipliers of one sign of y toward it, within their boxes
    r = delta - np.sum(alpha * ys)
    for q in range(m):
        if r == 0.0:
            break
        room = (B[q] - alpha[q]) if ys[q] * r > 0.0 else alpha[q]
        step = min(room, abs(r))
        alpha[q] += ys[q] * np.sign(r) * step
        r -= np.sign(r) * step
    if abs(r) > FINISH_KKT_TOL * max(1.0, abs(delta)):
        return False
    # each step of the active-set method frees or bounds one multiplier and solves over the free ones,
    # O(k³) for k free: a start with more free multipliers than the margin can hold (about p + 1 points
    # in general position) may bound them one by one, O(k⁴) in all. Declined when it holds more than
    # MARGIN_EXCESS·(p + 1) of them and one solve over them, k³, costs more than the weighted system
    # of an IRWLS step, n·p²: the iterations it would save cost less.
    free_start = 0
    for q in range(m):
        if 0.0 < alpha[q] < B[q]:
            free_start += 1
    if free_start > MARGIN_EXCESS * (p + 1) and float(free_start) ** 3 > float(n) * p * p:
        return False
    for q in range(m):
        for j in range(p):
            w[j] += alpha[q] * ys[q] * Z[q, j]
    # decomposition: the dual over S, then the points outside S whose slack at its solution contradicts
    # their set join S, until none does
    for _round in range(DUAL_ROUNDS):
        b, ok = _dual_active_set(Z, ys, B, inv, alpha, w, DUAL_STEPS)
        if not ok:
            return False
        beta = _backward(L, w)
        add = 0
        for i in range(n):
            if cap[i] == 0.0 or free[i]:
                continue
            t = b
            for j in range(p):
                t += Phi[i, j] * beta[j]
            xi = 1.0 - y[i] * t
            if (xi > 0.0) if sets[i] == SET_OUT else (xi < bound[i] / cap[i]):
                free[i] = True
                add += 1
        if add == 0:
            for q in range(S.shape[0]):
                sets[S[q]] = SET_OUT if alpha[q] <= 0.0 else (SET_IN if alpha[q] >= B[q] else SET_MARGIN)
            return True
        S_new = np.flatnonzero(free)
        if S_new.shape[0] > DUAL_MAX_FREE:
            return False
        alpha_new = np.empty(S_new.shape[0])
        q = 0
        for k in range(S_new.shape[0]):
            i = S_new[k]
            if q < S.shape[0] and S[q] == i:
                alpha_new[k] = alpha[q]
                q += 1
            else:
                alpha_new[k] = bound[i] if sets[i] == SET_IN else 0.0  # its multiplier while it was fixed
        S = S_new
        alpha = alpha_new
        Z = _forward_rows(L, Phi, S)
        ys = y[S]
        B = bound[S]
        inv = 1.0 / cap[S]
    return False


@njit(cache=True, inline="always")  # one caller, _dual_sets: see "Compile time" in the module
def _dual_active_set(Z, ys, B, inv, alpha, w, max_iter):
    """The primal active-set method for convex QPs (Nocedal & Wright 2006, Algorithm 16.3) on the dual
    of :func:`_dual_sets` over its free points: ``min ½α'Hα + c'α`` over 0 ≤ α ≤ B with Σ α_i y_i fixed,
    H = (YZ)(YZ)' + diag(1/a^max) and c_i = y_i z_i'w₀ − 1, w₀ the fixed points' part of ``w``. Rows
    z_i of Z, labels ys, bounds B, 1/a_i^max in ``inv``; α (feasible) and w = w₀ + Σ α_i y_i z_i are
    updated in place. Each step solves the equality-constrained problem of the multipliers off their
    bounds (a bordered system), moves to it or to the first bound in its way (which joins the bounds),
    and at a minimiser frees the bounded multiplier whose sign condition is violated most. H has rank p
    plus its diagonal and is never formed: the gradient costs O(m·p) per step through w; a step's
    bordered system over the k free multipliers is solved through the Cholesky factor of their block
    of H, which follows the free set (a row added, O(k·p + k²), or removed, O(k²), per step). Returns
    ``(ν, ok)``: the equality's multiplier ν (the intercept: g_i + ν y_i = 0 for the free multipliers,
    g = Hα + c) and whether the KKT conditions hold to DUAL_TOL within ``max_iter`` steps (not when
    the free block has no Cholesky factor in floating point)."""
    m, p = Z.shape
    YZ = np.empty((m, p))
    for q in range(m):
        for j in range(p):
            YZ[q, j] = ys[q] * Z[q, j]
    w0 = w - YZ.T @ alpha
    free = np.zeros(m, dtype=np.bool_)
    for q in range(m):
        free[q] = 0.0 < alpha[q] < B[q]
    nu = 0.0
    ok = False
    at_min = False
    # the free multipliers in the order they were freed, and the Cholesky factor of their block of H
    # in that order (its first ``fk`` rows; :func:`_chol_extend`, :func:`_chol_delete`): a step adds
    # or bounds one multiplier, so the factor follows in O(k·p + k²) where a solve from scratch costs O(k³)
    F_all = np.flatnonzero(free)
    k = F_all.shape[0]
    order = np.empty(m, dtype=np.int64)
    _copy_into(order[:k], F_all)
    Lf = np.empty((m, m))  # k × k of it in use (m ≤ DUAL_MAX_FREE)
    fk = 0
    for _it in range(max_iter):
        # g = Hα + c = YZ(w₀ + (YZ)'α) + α/a^max − 1: O(m·p), H never formed (its rank is p)
        g = YZ @ (w0 + YZ.T @ alpha) + inv * alpha - 1.0
        F = order[:k]
        d = np.zeros(k)
        if k > 0 and not at_min:
            fk, fac = _chol_extend(Lf, fk, F, YZ, inv)
            if not fac:
                break  # H_FF has no Cholesky factor in floating point: no guess
            # the bordered system [[H_FF, y_F], [y_F', 0]] (d, ν) = (−g_F, 0) through H_FF's factor:
            # d = u − ν v with H_FF u = −g_F, H_FF v = y_F and ν = y_F'u / y_F'v
            yF = np.empty(k)
            gF = np.empty(k)
            for u in range(k):
                yF[u] = ys[F[u]]
                gF[u] = -g[F[u]]
            uu, vv = _chol_solve_pair(Lf, gF, yF)
            yv = _dot(yF, vv)
            nu = _dot(yF, uu) / yv
            for u in range(k):
                d[u] = uu[u] - nu * vv[u]
            # one step of iterative refinement on the bordered system (its residual with H_FF applied
            # through YZ, O(k·p)): u and v grow like a^max where H_FF's rank-p part leaves directions
            # to 1/a^max, and d is their difference
            zd = np.zeros(YZ.shape[1])
            for u in range(k):
                zd += d[u] * YZ[F[u]]
            r1 = np.empty(k)
            for u in range(k):
                r1[u] = gF[u] - (_dot(YZ[F[u]], zd) + inv[F[u]] * d[u] + nu * yF[u])
            c1, _c = _chol_solve_pair(Lf, r1, r1)
            dnu = (_dot(yF, c1) + _dot(yF, d)) / yv
            for u in range(k):
                d[u] += c1[u] - dnu * vv[u]
            nu += dnu
            # y_F'd = 0 to the rounding of its sum (u and v are large where 1/a^max is small, and
            # y_F'd is their difference): the step keeps Σ α_i y_i
            drift = _dot(yF, d) / k
            for u in range(k):
                d[u] -= drift * yF[u]
        elif k == 0:
            # no free multiplier: ν within the range the bounded ones leave it
            lo_nu, hi_nu = -np.inf, np.inf
            for q in range(m):
                # at 0: g_q + ν y_q ≥ 0; at B: g_q + ν y_q ≤ 0
                t = -g[q] * ys[q]
                if (alpha[q] <= 0.0) == (ys[q] > 0):
                    lo_nu = max(lo_nu, t)
                else:
                    hi_nu = min(hi_nu, t)
            nu = lo_nu if not np.isfinite(hi_nu) else (hi_nu if not np.isfinite(lo_nu) else 0.5 * (lo_nu + hi_nu))
        step = 0.0
        for u in range(k):
            step = max(step, abs(d[u]))
        if at_min or step <= DUAL_TOL * max(1.0, np.max(B)):
            # a minimiser on this face: the bounded multiplier that most wants to move is freed
            at_min = False
            worst = DUAL_TOL
            i_w = -1
            for q in range(m):
                if free[q]:
                    continue
                lam = g[q] + nu * ys[q]
                v = -lam if alpha[q] <= 0.0 else lam
                if v > worst:
                    worst = v
                    i_w = q
            if i_w < 0:
                ok = True
                break
            free[i_w] = True
            order[k] = i_w
            k += 1
            continue
        t = 1.0
        block = -1
        for u in range(k):
            q = F[u]
            if d[u] < 0.0 and -alpha[q] / d[u] < t:
                t = -alpha[q] / d[u]
                block = u
            elif d[u] > 0.0 and (B[q] - alpha[q]) / d[u] < t:
                t = (B[q] - alpha[q]) / d[u]
                block = u
        for u in range(k):
            alpha[F[u]] = min(max(alpha[F[u]] + t * d[u], 0.0), B[F[u]])
        if block >= 0:
            q = F[block]
            alpha[q] = 0.0 if d[block] < 0.0 else B[q]
            free[q] = False
            for u in range(block, k - 1):
                order[u] = order[u + 1]
            k -= 1
            _chol_delete(Lf, fk, block)
            fk -= 1
        else:
            at_min = True  # the face's minimiser: its ν is this solve's
    _copy_into(w, w0 + YZ.T @ alpha)
    return nu, ok


@njit(cache=True)
def _chol_extend(L, fk, F, YZ, inv):
    """Extend the Cholesky factor L (its first ``fk`` rows) of the block of H = (YZ)(YZ)' + diag(1/a^max)
    over the multipliers F[:fk] (:func:`_dual_active_set`) to all of F, one row per multiplier q:
    L_rt = (h_t − Σ_{s<t} L_ts L_rs)/L_tt with h_t = z_q'z_{F_t} (the products of its row of YZ with the
    earlier ones), then the pivot L_rr = √(z_q'z_q + 1/a_q^max − Σ_{s<r} L_rs²). L holds at least
    len(F) rows and columns. Returns ``(rows, ok)``; ok is False when a pivot is not positive (H_FF not
    positive definite in floating point), L then holds only the rows before it."""
    k = F.shape[0]
    p = YZ.shape[1]
    for r in range(fk, k):
        q = F[r]
        for t in range(r + 1):
            o = F[t]
            acc = 0.0
            for j in range(p):
                acc += YZ[q, j] * YZ[o, j]
            if t < r:
                for s in range(t):
                    acc -= L[t, s] * L[r, s]
                L[r, t] = acc / L[t, t]
            else:
                piv = acc + inv[q]
                for s in range(r):
                    piv -= L[r, s] * L[r, s]
                if not piv > 0.0:
                    return r, False
                L[r, r] = np.sqrt(piv)
    return k, True


@njit(cache=True)
def _chol_solve_pair(L, a, c):
    """(LL')⁻¹a and (LL')⁻¹c for lower-triangular L (its leading k × k block, k = len(a)): both
    right-hand sides in one pass over L's rows, forward then backward (L'x = z column by column, so
    that L is read by rows)."""
    k = a.shape[0]
    x = np.empty(k)
    z = np.empty(k)
    for j in range(k):
        s = a[j]
        t = c[j]
        for q in range(j):
            s -= L[j, q] * x[q]
            t -= L[j, q] * z[q]
        x[j] = s / L[j, j]
        z[j] = t / L[j, j]
    for q in range(k - 1, -1, -1):
        x[q] /= L[q, q]
        z[q] /= L[q, q]
        for j in range(q):
            x[j] -= L[q, j] * x[q]
            z[j] -= L[q, j] * z[q]
    return x, z


@njit(cache=True)
def _chol_delete(L, k, j):
    """The Cholesky factor (first k rows of L) of a matrix without its row and column j, in place:
    L's row j removed leaves rows j..k−2 with one entry right of the diagonal, which Givens rotations
    of columns (i, i + 1), i = j..k−2, zero (an orthogonal factor from the right keeps LL')."""
    for i in range(j, k - 1):
        for t in range(i + 2):
            L[i, t] = L[i + 1, t]
    for i in range(j, k - 1):
        a = L[i, i]
        b = L[i, i + 1]
        rad = np.hypot(a, b)
        if rad == 0.0:
            continue
        c = a / rad
        s = b / rad
        for rr in range(i, k - 1):
            x = L[rr, i]
            z = L[rr, i + 1]
            L[rr, i] = c * x + s * z
            L[rr, i + 1] = -s * x + c * z
        L[i, i] = rad
        L[i, i + 1] = 0.0


@njit(cache=True)
def _meets_kkt(Phi, G, y, bound, cap, sets, x, idx, err):
    """Condition (a) of :func:`_exact_finish` at the piece's minimiser x = (β, b, α_M)."""
    n, p = Phi.shape
    eps = np.finfo(np.float64).eps
    beta = x[:p]
    b = x[p]
    m = idx.shape[0]
    xnorm = max(1.0, np.sqrt(np.sum(x * x)))
    slack_rel = 8.0 * eps + FLOOR_FACTOR * err
    for jj in range(m):  # margin multipliers within [0, B_j]
        B = bound[idx[jj]]
        rel = FINISH_KKT_TOL + slack_rel * xnorm / B
        if x[p + 1 + jj] < -rel * B or x[p + 1 + jj] > (1.0 + rel) * B:
            return False
    res = np.zeros(p + 1)
    scale = np.zeros(p + 1)
    for j in range(p):
        for l in range(p):
            res[j] += G[j, l] * beta[l]
            scale[j] += abs(G[j, l] * beta[l])
    jj = 0
    for i in range(n):
        if cap[i] == 0.0 or sets[i] == SET_OUT:
            continue
        if sets[i] == SET_MARGIN:  # idx lists the margin points in increasing order
            alpha = x[p + 1 + jj]
            jj += 1
        else:  # inside: the weight B_i/ξ_i must not reach the cap
            xi, size = _slack(Phi, i, beta, b, y)
            if cap[i] * (xi + slack_rel * size) < (1.0 - FINISH_KKT_TOL) * bound[i]:
                return False
            alpha = bound[i]
        for j in range(p):
            res[j] -= alpha * y[i] * Phi[i, j]
            scale[j] += abs(alpha * Phi[i, j])
        res[p] -= alpha * y[i]
        scale[p] += abs(alpha)
    for i in range(n):  # beyond the margin: no positive slack
        if cap[i] != 0.0 and sets[i] == SET_OUT:
            xi, size = _slack(Phi, i, beta, b, y)
            if cap[i] * (xi - slack_rel * size) > FINISH_KKT_TOL * bound[i]:
                return False
    for j in range(p + 1):
        if abs(res[j]) > (FINISH_KKT_TOL + slack_rel) * max(scale[j], eps):
            return False
    return True


@njit(cache=True)
def _record(hist_beta, hist_b, hist_primal, it, beta, b, prim):
    """Row ``it`` of the history of :func:`irwls` := (β, b, L̃); the arrays, twice as long when full."""
    if it >= hist_b.shape[0]:
        rows = 2 * hist_b.shape[0]
        grown_beta = np.zeros((rows, hist_beta.shape[1]))
        grown_b = np.zeros(rows)
        grown_primal = np.zeros(rows)
        for r in range(it):  # element copies: see _copy_into
            _copy_into(grown_beta[r], hist_beta[r])
            grown_b[r] = hist_b[r]
            grown_primal[r] = hist_primal[r]
        hist_beta, hist_b, hist_primal = grown_beta, grown_b, grown_primal
    _copy_into(hist_beta[it], beta)
    hist_b[it] = b
    hist_primal[it] = prim
    return hist_beta, hist_b, hist_primal


@njit(cache=True)
def irwls(Phi, G, y, C, cw, loss, s, k, a_max, factor, damping, tol, tol_f, max_iter,
          beta0, b0, from_ls, record, finish):
    """Iterate (Navia-Vázquez et al. 2004, eqs. 20 and 21–22) to the fixed point.

    ``cw``: per-sample weights c_i ≥ 0 (C_i = c_i·C; all 1 in the paper). ``from_ls``: start from the
    regularised LS solution (a_i = c_i, undamped; history row 0);
    otherwise start from (beta0, b0) (history row 0). Damped update
    ``β_k = d·β_{k−1} + (1 − d)·β_WLS`` (Navia-Vázquez et al. 2004, §3). Converged when, for PATIENCE consecutive
    iterations, the estimated remaining relative change of (β, b), d_k/(1 − d_k/d_{k−1}) with d_k
    the relative change of the step, is below ``tol`` AND the relative change of the primal is
    below ``tol_f``.

    ``finish`` (hinge only): once the sets of points (beyond, on, inside the margin;
    :func:`_classify`) have not changed for ``SET_PATIENCE`` iterations, solve for the iteration's
    limit from those sets, corrected by the finish objective's dual over the points near the margin
    (:func:`_dual_sets`; :func:`_exact_finish`, ``FIRST_ROUNDS`` Newton steps doubling after each
    failed try up to ``FINISH_ROUNDS``); when it
    passes its checks it is the last iterate and the iteration has converged. A failed try is repeated
    after 1, 2, 4, … (at most ``MAX_GAP``) more iterations, the gap reset when the sets change; it goes
    on from the failed try's last point while that point is below the iterate in the finish's
    objective. A fresh try whose dual guess has the input (:func:`_dual_input`) of the last fresh
    guess, which held more than MARGIN_EXCESS·(p + 1) margin points, is declined without solving: the
    same input gives the same guess, and the finish declines it (degenerate data, where the sets
    stay put for thousands of iterations, would otherwise solve the dual at every try). Margin points approach the margin
    geometrically, at the rate d + (1 − d)·α_i*/C_i per iteration, so the plain iteration needs
    hundreds to thousands of iterations where the sets settle in tens.

    Returns ``(beta, b, n_iter, status, hist_beta, hist_b, hist_primal, finished)``; ``n_iter`` counts
    the re-weighted solves after the start, the exact finish included (``finished``); with ``record``
    the history holds every iterate (rows 0..n_iter), otherwise only the final one.
    """
    n, p = Phi.shape
    # the history grows by doubling (:func:`_record`): a stage takes tens of iterations where
    # max_iter allows tens of thousands, and zeroing (max_iter + 1)·p numbers would cost more than them
    rows = min(max_iter + 1, HISTORY_ROWS) if record else 1
    hist_beta = np.zeros((rows, p))
    hist_b = np.zeros(rows)
    hist_primal = np.zeros(rows)
    beta = np.empty(p)
    a = np.empty(n)
    err_buf = np.zeros(1)
    if from_ls:
        for i in range(n):
            a[i] = cw[i]
        b = _solve_wls(Phi, G, y, a, beta, err_buf)
    else:
        for j in range(p):
            beta[j] = beta0[j]
        b = b0
    # the decision values of the current iterate, kept from the primal's evaluation for the next step
    f = _decision(Phi, beta, b)
    prim = _primal_at(f, G, y, beta, C, cw, loss, s, k)
    hist_beta[0] = beta
    hist_b[0] = b
    hist_primal[0] = prim
    status = STATUS_MAX_ITER
    it = 0
    new_beta = np.empty(p)
    d_prev = np.inf
    streak = 0
    # the last PATIENCE + 1 iterates (β, b) and step sizes, to tell rounding jitter from drift
    ring = np.zeros((PATIENCE + 1, p + 1))
    ring_d = np.zeros(PATIENCE + 1)
    for j in range(p):
        ring[0, j] = beta[j]
    ring[0, p] = b
    if max_iter == 0:
        status = STATUS_CONVERGED
    finish = finish and loss == LOSS_HINGE
    sets = np.full(n, -1, dtype=np.int64)
    stable = 0
    next_try = 0
    gap = 1
    finished = False
    fin_beta = np.empty(p)
    fin_b = 0.0
    fin_sets = np.empty(n, dtype=np.int64)
    kept = False
    bound = factor * C * cw
    cap = a_max * cw
    rounds = FIRST_ROUNDS
    # the input of the last fresh dual guess (:func:`_dual_input`), and whether its sets held too many
    # margin points for the finish (:func:`_margin_excess`)
    dual_in = np.full(n, -1, dtype=np.int64)
    declined = False
    while it < max_iter:
        if not np.all(np.isfinite(f)):
            status = STATUS_NONFINITE
            break
        if _weights(f, y, C, cw, loss, s, k, a_max, factor, a) == 0.0:
            status = STATUS_DEGENERATE
            break
        b_new = _solve_wls(Phi, G, y, a, new_beta, err_buf)
        if finish:
            f_wls = _decision(Phi, new_beta, b_new)
            if _classify(f, f_wls, y, C, cw, factor, a, sets):
                stable = 0
                gap = 1
                next_try = it
            else:
                stable += 1
            if stable >= SET_PATIENCE and it >= next_try:
                # the try goes on from the last one's point and sets while that point is below the
                # iterate in the finish's objective Φ, else it starts at the iterate
                # with the sets of its step
                fresh = not (kept and _finish_objective(Phi, G, y, bound, cap, fin_beta, fin_b)
                             <= _finish_objective(Phi, G, y, bound, cap, beta, b))
                if fresh:
                    _copy_into(fin_sets, sets)
                    _copy_into(fin_beta, beta)
                    fin_b = b
                    repeat = _dual_input(y, cap, f, sets, dual_in) and declined
                    if not repeat:
                        _dual_sets(Phi, G, y, bound, cap, f, a, f_wls, fin_sets)
                        declined = _margin_excess(fin_sets, p)
                else:
                    repeat = False
                start_beta = fin_beta.copy()
                start_b = fin_b
                if repeat:
                    finished, b_fin = False, start_b
                else:
                    finished, b_fin = _exact_finish(Phi, G, y, C, cw, a_max, factor, fin_sets, start_beta, start_b,
                                                    rounds, fin_beta)
                if finished:
                    it += 1
                    for j in range(p):
                        beta[j] = fin_beta[j]
                    b = b_fin
                    prim = _primal(Phi, G, y, beta, b, C, cw, loss, s, k)
                    if record:
                        hist_beta, hist_b, hist_primal = _record(hist_beta, hist_b, hist_primal, it, beta, b, prim)
                    status = STATUS_CONVERGED
                    break
                # a try that did not move leaves nothing to go on from
                kept = b_fin != start_b or np.any(fin_beta != start_beta)
                fin_b = b_fin
                rounds = min(2 * rounds, FINISH_ROUNDS)
                next_try = it + gap
                gap = min(2 * gap, MAX_GAP)
        it += 1
        num = 0.0
        den = 0.0
        for j in range(p):
            v = damping * beta[j] + (1.0 - damping) * new_beta[j]
            num += (v - beta[j]) ** 2
            den += v * v
            beta[j] = v
        v = damping * b + (1.0 - damping) * b_new
        num += (v - b) ** 2
        den += v * v
        b = v
        f = _decision(Phi, beta, b)
        prim_new = _primal_at(f, G, y, beta, C, cw, loss, s, k)
        if not np.isfinite(prim_new):
            status = STATUS_NONFINITE
            break
        d_par = np.sqrt(num) / max(1.0, np.sqrt(den))
        d_pri = abs(prim_new - prim) / max(1.0, abs(prim_new))
        prim = prim_new
        if record:
            hist_beta, hist_b, hist_primal = _record(hist_beta, hist_b, hist_primal, it, beta, b, prim)
        # IRWLS converges linearly (margin points approach ξ = 0 geometrically) and can pause near
        # a point it later leaves (a released point drifting back across the margin makes the steps
        # grow again), so one small step is not the end: bound the remaining distance by
        # d/(1 − ρ) with the observed contraction ρ = d_k/d_{k−1}, and ask for PATIENCE consecutive
        # contracting steps that pass. Steps below tol/1000, or at the weighted LS solve's rounding
        # floor (at least ROUNDING_FLOOR; FLOOR_FACTOR × the solve's measured error: with weights
        # up to a_max such steps neither shrink nor contract), always pass: a tol under that floor
        # is otherwise unattainable and the iteration would cycle in rounding noise up to max_iter.
        slot = it % (PATIENCE + 1)
        for j in range(p):
            ring[slot, j] = beta[j]
        ring[slot, p] = b
        ring_d[slot] = d_par
        floor = max(ROUNDING_FLOOR, FLOOR_FACTOR * err_buf[0])
        if d_par <= max(1e-3 * tol, floor):
            small = True
        elif d_prev > 0.0 and d_par < d_prev:
            small = d_par / (1.0 - d_par / d_prev) < tol
        else:
            small = False
        if not small and d_par < max(tol, floor) and it > PATIENCE:
            # Ill-conditioned weighted solves (as many margin points as parameters, weights near
            # a_max) have a rounding floor far above ROUNDING_FLOOR: the steps then jitter in
            # size instead of contracting. Jitter goes nowhere — the net move over the window is
            # well under the summed steps — while slow drift (ρ → 1) moves by about their sum.
            old_slot = (it + 1) % (PATIENCE + 1)
            net = 0.0
            for j in range(p + 1):
                net += (ring[slot, j] - ring[old_slot, j]) ** 2
            net = np.sqrt(net) / max(1.0, np.sqrt(den))
            path = 0.0
            for q in range(PATIENCE + 1):
                if q != old_slot:
                    path += ring_d[q]
            small = net < max(tol, floor) and net < 0.5 * path
        d_prev = d_par
        if small and d_pri < tol_f:
            streak += 1
        else:
            streak = 0
        if streak >= PATIENCE:
            status = STATUS_CONVERGED
            break
    if record:
        return beta, b, it, status, hist_beta[: it + 1].copy(), hist_b[: it + 1].copy(), \
            hist_primal[: it + 1].copy(), finished
    hist_beta[0] = beta
    hist_b[0] = b
    hist_primal[0] = prim
    return beta, b, it, status, hist_beta, hist_b, hist_primal, finished


# ----------------------------------------------------------------------------------------------
# 1-D error surfaces: f(x) = w (x − Th)
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _primal_1d(x, y, th, w, C, loss, s, k):
    tot = 0.0
    for i in range(x.shape[0]):
        tot += _theta(1.0 - y[i] * w * (x[i] - th), loss, s, k)
    return 0.5 * w * w + C * tot


@njit(cache=True)
def primal_grid_1d(x, y, th_grid, w_grid, C, loss, s, k):
    """L̃(Th, w) on a grid, shape (len(w_grid), len(th_grid)) (rows: w, columns: Th)."""
    out = np.empty((w_grid.shape[0], th_grid.shape[0]))
    for i in range(w_grid.shape[0]):
        for j in range(th_grid.shape[0]):
            out[i, j] = _primal_1d(x, y, th_grid[j], w_grid[i], C, loss, s, k)
    return out


@njit(cache=True)
def profile_1d(x, y, th_grid, w_max, n_w, C, loss, s, k, n_golden):
    """min over w ∈ [0, w_max] of L̃(Th, w) for each Th: grid search on ``n_w`` points, then
    golden-section refinement in the bracket around the best grid point (keeps the best value
    seen, so the result is never above the grid minimum)."""
    m = th_grid.shape[0]
    w_best = np.empty(m)
    L_best = np.empty(m)
    gr = (np.sqrt(5.0) - 1.0) / 2.0
    h = w_max / (n_w - 1)
    for j in range(m):
        th = th_grid[j]
        jb = 0
        Lb = np.inf
        for i in range(n_w):
            v = _primal_1d(x, y, th, i * h, C, loss, s, k)
            if v < Lb:
                Lb = v
                jb = i
        wb = jb * h
        lo = max(0.0, (jb - 1) * h)
        hi = min(w_max, (jb + 1) * h)
        c1 = hi - gr * (hi - lo)
        c2 = lo + gr * (hi - lo)
        f1 = _primal_1d(x, y, th, c1, C, loss, s, k)
        f2 = _primal_1d(x, y, th, c2, C, loss, s, k)
        for _ in range(n_golden):
            if f1 < f2:
                if f1 < Lb:
                    Lb = f1
                    wb = c1
                hi = c2
                c2 = c1
                f2 = f1
                c1 = hi - gr * (hi - lo)
                f1 = _primal_1d(x, y, th, c1, C, loss, s, k)
            else:
                if f2 < Lb:
                    Lb = f2
                    wb = c2
                lo = c1
                c1 = c2
                f1 = f2
                c2 = lo + gr * (hi - lo)
                f2 = _primal_1d(x, y, th, c2, C, loss, s, k)
        if f1 < Lb:
            Lb = f1
            wb = c1
        if f2 < Lb:
            Lb = f2
            wb = c2
        w_best[j] = wb
        L_best[j] = Lb
    return w_best, L_best


@njit(cache=True)
def empirical_ce_1d(x, y, th_grid):
    """Fraction of points with y_i (x_i − Th) ≤ 0 for each Th (f = 0 counts as an error)."""
    out = np.empty(th_grid.shape[0])
    n = x.shape[0]
    for j in range(th_grid.shape[0]):
        e = 0
        for i in range(n):
            if y[i] * (x[i] - th_grid[j]) <= 0.0:
                e += 1
        out[j] = e / n
    return out


# ----------------------------------------------------------------------------------------------
# the Table 1 study: LS, SVC and USVC(s) for many 1-D trials
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _ce(x, y, w, b):
    e = 0
    for i in range(x.shape[0]):
        if y[i] * (w * x[i] + b) <= 0.0:
            e += 1
    return e / x.shape[0]


def table1_trials(Xtr, ytr, Xte, yte, C, s_values, k, a_max, factor, damping, tol, tol_f,
                  max_iter, finish):
    """Fit LS, SVC and USVC(s) for each s on every 1-D trial.

    Xtr, ytr (T, n); Xte, yte (T, m). Returns train CE, test CE, Th = −b/w, w, b, n_iter and status,
    each (T, 2 + len(s_values)) with methods ordered LS, SVC, USVC(s_0), USVC(s_1), ...
    ``finish``: the SVC stage's exact finish (:func:`irwls`).

    A loop in Python over :func:`irwls` (compiled, releases the GIL), not a compiled function around it:
    numba would link, optimise and emit the whole IRWLS solver once more into such a caller, seconds
    of first compilation for a loop of ``T·(2 + len(s_values))`` fits.
    """
    T = Xtr.shape[0]
    M = 2 + s_values.shape[0]
    tr = np.empty((T, M))
    te = np.empty((T, M))
    th = np.empty((T, M))
    ws = np.empty((T, M))
    bs = np.empty((T, M))
    nit = np.zeros((T, M), dtype=np.int64)
    st = np.zeros((T, M), dtype=np.int64)
    G = np.eye(1)
    dummy = np.zeros(1)
    ones = np.ones(Xtr.shape[1])
    for t in range(T):
        Phi = np.ascontiguousarray(Xtr[t]).reshape(-1, 1)
        y = np.ascontiguousarray(ytr[t])
        xs = np.ascontiguousarray(Xtr[t])
        xt = np.ascontiguousarray(Xte[t])
        yt = np.ascontiguousarray(yte[t])
        # LS (a_i = 1) and SVC from it
        bl, b_l, _, s_l, _, _, _, _ = irwls(Phi, G, y, C, ones, LOSS_HINGE, 1.0, k, a_max, factor, damping,
                                            tol, tol_f, 0, dummy, 0.0, True, False, False)
        bh, b_h, n_h, s_h, _, _, _, _ = irwls(Phi, G, y, C, ones, LOSS_HINGE, 1.0, k, a_max, factor, damping,
                                              tol, tol_f, max_iter, bl, b_l, False, False, finish)
        res_w = np.empty(M)
        res_b = np.empty(M)
        res_w[0] = bl[0]
        res_b[0] = b_l
        res_w[1] = bh[0]
        res_b[1] = b_h
        nit[t, 0] = 0
        st[t, 0] = s_l
        nit[t, 1] = n_h
        st[t, 1] = s_h
        for q in range(s_values.shape[0]):
            bu, b_u, n_u, s_u, _, _, _, _ = irwls(Phi, G, y, C, ones, LOSS_SMOOTH_STEP, s_values[q], k,
                                                  a_max, factor, damping, tol, tol_f, max_iter, bh, b_h,
                                                  False, False, False)
            res_w[2 + q] = bu[0]
            res_b[2 + q] = b_u
            nit[t, 2 + q] = n_u
            st[t, 2 + q] = s_u
        for q in range(M):
            ws[t, q] = res_w[q]
            bs[t, q] = res_b[q]
            tr[t, q] = _ce(xs, y, res_w[q], res_b[q])
            te[t, q] = _ce(xt, yt, res_w[q], res_b[q])
            th[t, q] = -res_b[q] / res_w[q] if res_w[q] != 0.0 else np.nan
    return tr, te, th, ws, bs, nit, st


# ----------------------------------------------------------------------------------------------
# Frequency Sensitive Competitive Learning (Ahalt et al. 1990), prototypes for (Navia-Vázquez et al. 2004, eq. 23)
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def fscl(X, R, n_epochs, lr0, lr1, seed):
    """FSCL: winner j = argmin u_j ‖x − c_j‖², c_j += η (x − c_j), u_j += 1; η decays
    geometrically from lr0 to lr1 over the epochs; prototypes start at R distinct random points.
    Returns (prototypes (R, d), win counts (R,)).

    The prototypes are held transposed, (d, R): the distances of one point to all R of them then
    accumulate coordinate by coordinate over contiguous rows of R numbers, a loop over independent
    prototypes that the compiler vectorises (each distance summed in the order of the coordinates)."""
    np.random.seed(seed)
    n, d = X.shape
    perm = np.random.permutation(n)
    cT = np.empty((d, R))
    for r in range(R):
        for q in range(d):
            cT[q, r] = X[perm[r], q]
    u = np.ones(R)
    wins = np.zeros(R, dtype=np.int64)
    dist = np.empty(R)
    total = n_epochs * n
    step = 0
    for ep in range(n_epochs):
        order = np.random.permutation(n)
        for t in range(n):
            i = order[t]
            eta = lr0 * (lr1 / lr0) ** (step / max(1, total - 1))
            step += 1
            dist[:] = 0.0
            for q in range(d):
                xq = X[i, q]
                row = cT[q]
                for r in range(R):
                    dd = xq - row[r]
                    dist[r] += dd * dd
            jb = 0
            best = np.inf
            for r in range(R):
                v = u[r] * dist[r]
                if v < best:
                    best = v
                    jb = r
            for q in range(d):
                cT[q, jb] += eta * (X[i, q] - cT[q, jb])
            u[jb] += 1.0
            if ep == n_epochs - 1:
                wins[jb] += 1
    return np.ascontiguousarray(cT.T), wins
