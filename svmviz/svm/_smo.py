"""The compiled solver: SMO for the general SVM dual on a precomputed kernel matrix.

Problem (libsvm's form, with the kernel scale pulled out)::

    min_α  ½ α'Qα + p'α    s.t.  0 ≤ α_i ≤ C_i,  y'α = 0,   Q_ij = s · y_i y_j K_ij.

Wahba's SVM (Wahba et al. 2001, eq. 1) is ``s = 1/(2nλ)``, ``p = −1``, ``C_i = L(y_i)``. Because the box does not
depend on λ, a solution for one λ is a feasible warm start for every other λ. The gradient
``G = Qα + p`` is the same number as libsvm's gradient in its own scaling (α_libsvm = s·α), so a
tolerance means the same here as there.

Working-set selection is the second-order rule (Fan, Chen & Lin 2005, "WSS2"); shrinking follows the
same idea as libsvm's (shrink bounded variables that cannot move, reconstruct the gradient before the
final check). Everything here takes arrays and scalars only and returns a status code:

    0 converged, 1 max_iter reached.

Every function is compiled with ``nogil=True``: grids over σ run these serial, cached functions on a
pool of Python threads (one σ per task), which needs no numba threading layer — so two Streamlit
sessions computing at once are safe — and nothing to compile at start-up beyond the cache load.

Why one module of ~850 lines: the λ sequences and the exact leave-one-out refits are two callers of
one solver and share all of its private helpers (``_solve``, ``_select``/``_select_all``,
``_shrink``, ``_restore_balance``, the gradient updates); a second module would import those private
names back. About a fifth of the lines are the comments that say why each tolerance and branch is
what it is.

Compile time: numba compiles every function a compiled function calls on its own (its optimisation,
machine code and cache entry), then links it into each caller and optimises and emits it there again.
The helpers called from one place only (the compacting solve, the secant start, the shrinking loop's
selection and shrink, the KKT solve and the LOO refits' inverse) are inlined by numba
(``inline='always'``): compiled inside their caller only. The selections compiled with ``fastmath``
are not (an inlined copy takes its caller's flags and would lose the vector code).
"""
from __future__ import annotations

import numpy as np

from .._bits import bits_float, float_bits
from .._jit import njit
from .._linalg import invert_in_place
from ..kernels import rbf_from_squared_distances

TAU = 1e-12
#: α within this many ulps (relative to its bound C_i) of 0 or C_i is set exactly to the bound. The
#: clipping of an SMO step computes the partner of a clipped α as e.g. ``C_i − diff``; rounding can
#: leave it at ``C_j − 2.2e-16`` where the exact value is ``C_j``. Such an α would count as free in
#: the intercept rule (b = mean of y_i G_i over free α) instead of bounded (b = middle of the
#: optimal interval, libsvm's choice) and move b to the end of that interval.
BOUND_SNAP = 4.0 * np.finfo(np.float64).eps
STATUS_CONVERGED = 0
STATUS_MAX_ITER = 1


@njit(cache=True, nogil=True)
def _snap(a, c):
    """α moved onto 0 or its bound c when within ``BOUND_SNAP``·c of it (see ``BOUND_SNAP``)."""
    if a <= BOUND_SNAP * c:
        return 0.0
    if a >= c - BOUND_SNAP * c:
        return c
    return a


@njit(cache=True, nogil=True)
def _indices(n):
    """0, 1, …, n−1 as int64: a loop, because ``np.arange`` adds ≈ 0.5 s to the first compilation."""
    out = np.empty(n, dtype=np.int64)
    for t in range(n):
        out[t] = t
    return out


@njit(cache=True, nogil=True)
def _full_gradient(K, y, s, p, alpha, G, idx, n_idx):
    """G[t] = p[t] + s·y_t Σ_j y_j K_tj α_j for t in idx[:n_idx] (only nonzero α_j contribute)."""
    n = y.shape[0]
    nz = np.empty(n, dtype=np.int64)
    m = 0
    for j in range(n):
        if alpha[j] != 0.0:
            nz[m] = j
            m += 1
    for k in range(n_idx):
        t = idx[k]
        acc = 0.0
        for q in range(m):
            j = nz[q]
            acc += y[j] * alpha[j] * K[t, j]
        G[t] = p[t] + s * y[t] * acc


@njit(cache=True, nogil=True)
def _make_feasible(alpha, y, C):
    """Move ``alpha`` into {0 ≤ α ≤ C, y'α = 0} with small changes (used after removing a point):
    clip into the box, then :func:`_restore_balance`. Returns True when feasible."""
    n = y.shape[0]
    for i in range(n):
        if alpha[i] < 0.0:
            alpha[i] = 0.0
        elif alpha[i] > C[i]:
            alpha[i] = C[i]
    r, need = _restore_balance(np.empty((0, 0)), y, 0.0, C, alpha, np.empty(0), False, 0.0)
    if r != 0.0:
        for i in range(n):
            alpha[i] = _snap(alpha[i], C[i])
    return need <= 1e-12 * (1.0 + abs(r))


@njit(cache=True, nogil=True, inline="always")  # one caller, the SMO loop with shrinking: compiled inside it only
def _select(K, Kd, y, s, C, alpha, G, active, n_active):
    """WSS2 over the active set. Returns (i, j, Gmax, Gmax2); j = -1 means nothing to do."""
    Gmax = -np.inf
    i = -1
    for k in range(n_active):
        t = active[k]
        if y[t] > 0:
            if alpha[t] < C[t]:
                v = -G[t]
                if v >= Gmax:
                    Gmax = v
                    i = t
        else:
            if alpha[t] > 0.0:
                v = G[t]
                if v >= Gmax:
                    Gmax = v
                    i = t
    Gmax2 = -np.inf
    j = -1
    obj_min = np.inf
    if i < 0:
        return i, j, Gmax, Gmax2
    Kii = Kd[i]
    # The two branches below mirror each other on purpose (libsvm's select_working_set is written
    # the same way): I_low is α > 0 for y = +1 and α < C for y = −1, and the sign of G flips with y.
    # This loop is most of an SMO iteration; written out, each branch compiles to straight-line code
    # with no call and no extra multiplication by y.
    for k in range(n_active):
        t = active[k]
        if y[t] > 0:
            if alpha[t] > 0.0:
                v = G[t]
                if v >= Gmax2:
                    Gmax2 = v
                grad_diff = Gmax + G[t]
                if grad_diff > 0.0:
                    quad = s * (Kii + Kd[t] - 2.0 * K[i, t])
                    if quad <= 0.0:
                        quad = TAU
                    od = -(grad_diff * grad_diff) / quad
                    if od <= obj_min:
                        obj_min = od
                        j = t
        else:
            if alpha[t] < C[t]:
                v = -G[t]
                if v >= Gmax2:
                    Gmax2 = v
                grad_diff = Gmax - G[t]
                if grad_diff > 0.0:
                    quad = s * (Kii + Kd[t] - 2.0 * K[i, t])
                    if quad <= 0.0:
                        quad = TAU
                    od = -(grad_diff * grad_diff) / quad
                    if od <= obj_min:
                        obj_min = od
                        j = t
    return i, j, Gmax, Gmax2


_MAGNITUDE = np.int64(0x7FFFFFFFFFFFFFFF)  # every bit of a float64 but its sign
_NO_KEY = np.int64(-0x7FFFFFFFFFFFFFFF - 1)  # below every key


@njit(cache=True, nogil=True)
def _key(x):
    """An int64 ordered as the float64 values x are (NaN aside; ±0 both get 0): x's bits without
    the sign, negated for x < 0.

    The selection's maxima are taken over these keys: LLVM turns a maximum of integers into vector
    code but leaves a float maximum's compare-and-select chain scalar, and the keys let each
    reduction run inside the loop that computes the values (``bench/bench_svm.py breakdown``; the
    solutions are bitwise the same)."""
    b = float_bits(x)
    m = b & _MAGNITUDE
    return m if b >= 0 else -m


@njit(cache=True, nogil=True)
def _key_value(k):
    """The float64 whose :func:`_key` is k (+0 for the key 0)."""
    return bits_float(k if k >= 0 else (-k) | _NO_KEY)


@njit(cache=True, nogil=True)
def _last_key(keys, key):
    """The last t with keys[t] == key (−1 if none): the index a scalar ``if v[t] >= best`` loop
    keeps on ties, found by a branch-free select that compiles to vector code."""
    r = -1
    for t in range(keys.shape[0]):
        r = t if keys[t] == key else r
    return r


#: Flags of the whole-set selection: no NaN (the gradient is finite) and no signed zeros let LLVM
#: turn its loops into vector code; no reassociation or contraction, so every value is computed
#: exactly as in :func:`_select` and the same pair is chosen.
_VECTOR_MATH = {"nnan", "nsz"}


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH)
def _up_keys(ou, y, G, keys, n):
    """The order keys (:func:`_key`) of ``ou_t − y_t G_t`` for t < n, written into ``keys``, and their
    maximum: WSS2's i is the last t holding it (:func:`_last_key`), Gmax its value. A branch-free loop
    that LLVM turns into vector code."""
    a = _NO_KEY
    for t in range(n):
        k = _key(ou[t] - y[t] * G[t])
        keys[t] = k
        a = k if k > a else a
    return a


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH)
def _select_all(K, Kd, y, s, G, keys, tol, ou, ol):
    """:func:`_select` when nothing is shrunk (active = 0 … n−1), for a solver stopping at ``tol``.

    ``ou`` and ``ol`` (n,) say which points are in I_up and I_low (0 if in, −∞ if not;
    :func:`_set_sets`, which the solver calls for the two α it moves), so α and C are not read.
    Each pass computes its candidates' values in a loop without indirection or branches, which LLVM
    turns into vector code (the divisions of the second-order terms included), writes their order
    keys (:func:`_key`) into ``keys`` (n, int64) and takes their maximum on the way;
    :func:`_last_key` then finds the last index with it, the one ``_select`` keeps on ties: the
    same (i, j, Gmax). Adding 0 or −∞ instead of testing α against 0 and C_i for the sign of y
    halves the time of the two passes (``bench/bench_svm.py breakdown``); it changes at most the sign
    of a zero, which no comparison here sees.

    Gmax2 (the largest y_t G_t over I_low) serves only the stopping test ``Gmax + Gmax2 < tol``, and
    the chosen j is in I_low: when ``Gmax + y_j G_j ≥ tol`` the test fails whatever Gmax2 is
    (rounded addition is monotone, so ``Gmax + Gmax2 ≥ Gmax + y_j G_j`` in floating point too), and
    ``y_j G_j`` is returned in its place. Only near the end of a solve is the exact maximum taken (one
    more pass): every decision is the one ``_select`` makes, without a third reduction per
    iteration (the solutions are bitwise the same)."""
    return _select_from_up(K, Kd, y, s, G, keys, _up_keys(ou, y, G, keys, y.shape[0]), keys, tol, ol)


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH)
def _select_from_up(K, Kd, y, s, G, up, a, keys, tol, ol):
    """:func:`_select_all` from I_up's order keys ``up`` (n,) and their maximum ``a``
    (:func:`_up_keys`, or :func:`_update_gradient_up_keys` on the way through the gradient update);
    ``keys`` (n, int64) takes the second pass's keys and may be ``up`` itself (i is read first)."""
    n = y.shape[0]
    Gmax = _key_value(a)
    if Gmax == -np.inf:
        return -1, -1, Gmax, -np.inf
    i = _last_key(up, a)
    Kii = Kd[i]
    a = _NO_KEY
    for t in range(n):
        grad_diff = Gmax + (y[t] * G[t] + ol[t])
        quad = s * (Kii + Kd[t] - 2.0 * K[i, t])
        quad = quad if quad > 0.0 else TAU
        # −(objective decrease) of ``_select``, negated (exact in IEEE): its last minimum is
        # the last maximum of this
        k = _key((grad_diff * grad_diff) / quad if grad_diff > 0.0 else -np.inf)
        keys[t] = k
        a = k if k > a else a
    j = -1 if _key_value(a) == -np.inf else _last_key(keys, a)  # -1: no candidate
    if j >= 0:
        v = y[j] * G[j]
        if Gmax + v >= tol:  # not converged, whatever Gmax2 is
            return i, j, Gmax, v
    a = _NO_KEY
    for t in range(n):
        k = _key(y[t] * G[t] + ol[t])
        a = k if k > a else a
    return i, j, Gmax, _key_value(a)


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH)
def _update_gradient_up_keys(K, y, G, i, j, dai, daj, ou, up):
    """The gradient update of an SMO step on α_i, α_j (G_t += y_t (K_it dai + K_jt daj), the very
    operations of the solver's update) and, in the same pass, the next iteration's I_up order keys
    into ``up`` and their maximum (:func:`_up_keys` of the new G): one loop through G instead of two.
    ``ou`` must already say which points are in I_up after the step (:func:`_set_sets`)."""
    a = _NO_KEY
    for t in range(y.shape[0]):
        g = G[t] + y[t] * (K[i, t] * dai + K[j, t] * daj)
        G[t] = g
        k = _key(ou[t] - y[t] * g)
        up[t] = k
        a = k if k > a else a
    return a


@njit(cache=True, nogil=True)
def _set_sets(t, y, C, alpha, ou, ol):
    """ou[t] = 0 if t is in I_up (α_t < C_t for y_t = +1, α_t > 0 for y_t = −1), else −∞; ol[t] the
    same for I_low (α_t > 0 for y_t = +1, α_t < C_t for y_t = −1): the sets of :func:`_select`."""
    if y[t] > 0:
        ou[t] = 0.0 if alpha[t] < C[t] else -np.inf
        ol[t] = 0.0 if alpha[t] > 0.0 else -np.inf
    else:
        ou[t] = 0.0 if alpha[t] > 0.0 else -np.inf
        ol[t] = 0.0 if alpha[t] < C[t] else -np.inf


@njit(cache=True, nogil=True)
def _be_shrunk(t, y, C, alpha, G, Gmax1, Gmax2):
    if alpha[t] >= C[t]:
        if y[t] > 0:
            return -G[t] > Gmax1
        return -G[t] > Gmax2
    if alpha[t] <= 0.0:
        if y[t] > 0:
            return G[t] > Gmax2
        return G[t] > Gmax1
    return False


@njit(cache=True, nogil=True)
def _shrink_thresholds(y, C, alpha, G, active, n_active):
    """(Gmax1, Gmax2) over the active points: the largest −y_t G_t over I_up and y_t G_t over I_low,
    the thresholds libsvm's shrinking rule (:func:`_be_shrunk`) compares with."""
    Gmax1 = -np.inf
    Gmax2 = -np.inf
    for k in range(n_active):
        t = active[k]
        if y[t] > 0:
            if alpha[t] < C[t] and -G[t] >= Gmax1:
                Gmax1 = -G[t]
            if alpha[t] > 0.0 and G[t] >= Gmax2:
                Gmax2 = G[t]
        else:
            if alpha[t] < C[t] and -G[t] >= Gmax2:
                Gmax2 = -G[t]
            if alpha[t] > 0.0 and G[t] >= Gmax1:
                Gmax1 = G[t]
    return Gmax1, Gmax2


@njit(cache=True, nogil=True, inline="always")  # one caller, the SMO loop with shrinking: compiled inside it only
def _shrink(K, y, s, p, C, alpha, G, active, n_active, unshrunk, tol):
    Gmax1, Gmax2 = _shrink_thresholds(y, C, alpha, G, active, n_active)
    if (not unshrunk) and Gmax1 + Gmax2 <= tol * 10.0:
        unshrunk = True
        n_active = _unshrink(K, y, s, p, alpha, G, active, n_active)
    k = 0
    while k < n_active:
        t = active[k]
        if _be_shrunk(t, y, C, alpha, G, Gmax1, Gmax2):
            # swap with the last active one
            n_active -= 1
            active[k] = active[n_active]
            active[n_active] = t
        else:
            k += 1
    return n_active, unshrunk


@njit(cache=True, nogil=True)
def _unshrink(K, y, s, p, alpha, G, active, n_active):
    n = y.shape[0]
    if n_active < n:
        _full_gradient(K, y, s, p, alpha, G, active[n_active:], n - n_active)
    return n


def _smo_loop(shrinking):
    """The SMO solver compiled with libsvm's shrinking (``True``) or without it (``False``).

    ``solve(K, y, s, p, C, alpha, G, tol, max_iter)`` runs SMO in place on (alpha, G); G must equal
    Qα + p on entry. Returns (n_iter, status). ``shrinking`` is a constant of the compilation (a
    closure variable, whose branches numba prunes before typing): the variant without shrinking —
    the grid engine's (:data:`svmviz.svm.GRID_SHRINKING`) and the exact-LOO refits' — compiles
    neither :func:`_shrink`, :func:`_select` nor :func:`_unshrink`, which the first compilation of
    the Tuning and Kernels pages' λ sequences would pay for without running them. One source
    for both variants; each has a name of its own (numba's cache keys a compiled function on its name).
    """
    def solve(K, y, s, p, C, alpha, G, tol, max_iter):
        n = y.shape[0]
        Kd = np.empty(n)
        for t in range(n):
            Kd[t] = K[t, t]
        keys = np.empty(n, dtype=np.int64)
        up = np.empty(n, dtype=np.int64)  # I_up's order keys, computed with each gradient update
        ou = np.empty(n)  # I_up and I_low as 0 / −∞ (_select_all), kept up to date for the α that move
        ol = np.empty(n)
        for t in range(n):
            _set_sets(t, y, C, alpha, ou, ol)
        active = _indices(n)
        n_active = n
        unshrunk = n < 0  # False, typed as a plain bool (a literal False compiles _shrink twice)
        counter = min(n, 1000) + 1
        it = 0
        status = STATUS_MAX_ITER
        a_up = _up_keys(ou, y, G, up, n)
        while it < max_iter:
            if shrinking:  # a constant: the variant without shrinking has only the else branches
                counter -= 1
                if counter == 0:
                    counter = min(n, 1000)
                    n_active, unshrunk = _shrink(K, y, s, p, C, alpha, G, active, n_active, unshrunk, tol)
                if n_active == n:
                    i, j, Gmax, Gmax2 = _select_all(K, Kd, y, s, G, keys, tol, ou, ol)
                else:
                    i, j, Gmax, Gmax2 = _select(K, Kd, y, s, C, alpha, G, active, n_active)
            else:
                i, j, Gmax, Gmax2 = _select_from_up(K, Kd, y, s, G, up, a_up, keys, tol, ol)
            if j < 0 or Gmax + Gmax2 < tol:
                if shrinking:
                    if n_active < n:
                        n_active = _unshrink(K, y, s, p, alpha, G, active, n_active)
                        counter = 1
                        i, j, Gmax, Gmax2 = _select_all(K, Kd, y, s, G, keys, tol, ou, ol)
                        if j < 0 or Gmax + Gmax2 < tol:
                            status = STATUS_CONVERGED
                            break
                    else:
                        status = STATUS_CONVERGED
                        break
                else:
                    status = STATUS_CONVERGED
                    break
            it += 1
            ai_old = alpha[i]
            aj_old = alpha[j]
            Ci = C[i]
            Cj = C[j]
            quad = s * (K[i, i] + K[j, j] - 2.0 * K[i, j])
            if quad <= 0.0:
                quad = TAU
            if y[i] != y[j]:
                delta = (-G[i] - G[j]) / quad
                diff = alpha[i] - alpha[j]
                alpha[i] += delta
                alpha[j] += delta
                if diff > 0.0:
                    if alpha[j] < 0.0:
                        alpha[j] = 0.0
                        alpha[i] = diff
                else:
                    if alpha[i] < 0.0:
                        alpha[i] = 0.0
                        alpha[j] = -diff
                if diff > Ci - Cj:
                    if alpha[i] > Ci:
                        alpha[i] = Ci
                        alpha[j] = Ci - diff
                else:
                    if alpha[j] > Cj:
                        alpha[j] = Cj
                        alpha[i] = Cj + diff
            else:
                delta = (G[i] - G[j]) / quad
                total = alpha[i] + alpha[j]
                alpha[i] -= delta
                alpha[j] += delta
                if total > Ci:
                    if alpha[i] > Ci:
                        alpha[i] = Ci
                        alpha[j] = total - Ci
                else:
                    if alpha[j] < 0.0:
                        alpha[j] = 0.0
                        alpha[i] = total
                if total > Cj:
                    if alpha[j] > Cj:
                        alpha[j] = Cj
                        alpha[i] = total - Cj
                else:
                    if alpha[i] < 0.0:
                        alpha[i] = 0.0
                        alpha[j] = total
            alpha[i] = _snap(alpha[i], Ci)
            alpha[j] = _snap(alpha[j], Cj)
            _set_sets(i, y, C, alpha, ou, ol)
            _set_sets(j, y, C, alpha, ou, ol)
            dai = (alpha[i] - ai_old) * y[i] * s
            daj = (alpha[j] - aj_old) * y[j] * s
            if not shrinking:  # contiguous rows i, j and the next I_up keys in one pass: vector code
                a_up = _update_gradient_up_keys(K, y, G, i, j, dai, daj, ou, up)
            elif n_active == n:
                for t in range(n):
                    G[t] += y[t] * (K[i, t] * dai + K[j, t] * daj)
            else:
                for k in range(n_active):
                    t = active[k]
                    G[t] += y[t] * (K[i, t] * dai + K[j, t] * daj)
        if shrinking:
            if n_active < n:
                _unshrink(K, y, s, p, alpha, G, active, n_active)
        return it, status

    solve.__name__ = solve.__qualname__ = "_solve_shrinking" if shrinking else "_solve_whole"
    return njit(cache=True, nogil=True)(solve)


_solve_whole = _smo_loop(False)
_solve_shrinking = _smo_loop(True)


#: SMO iterations on the whole set before :func:`_solve_compacting` looks for points to set aside:
#: most warm-started solves of a λ sequence end before (a few hundred iterations at n = 500) and pay
#: nothing; 50–500 cost the same within the noise on the papers' grid (``bench/bench_grid.py --papers``).
COMPACT_AFTER_ITER = 200
#: The compacted copy is made only when libsvm's rule sets aside at least this fraction of the points:
#: the copy costs O(m²) for the m points kept, which fewer points left out would not repay.
COMPACT_MIN_SHRUNK = 0.2


@njit(cache=True, nogil=True, inline="always")  # one caller, the λ sequence: compiled inside it only
def _solve_compacting(K, y, s, p, C, alpha, G, tol, max_iter):
    """SMO on the whole set (:func:`_solve_whole`) that, once, sets aside the points libsvm's shrinking
    rule (:func:`_be_shrunk`) says stay at their bound, on a compacted copy of the kernel matrix.

    After :data:`COMPACT_AFTER_ITER` iterations the points the rule sets aside (at least
    :data:`COMPACT_MIN_SHRUNK` of them) are left out: SMO goes on with the same vector code on the
    other m points' m × m kernel matrix, their α and their gradient (which holds the fixed points'
    terms, so the sub-problem's solution is the whole problem's restricted to them), then the
    gradient of the points left out is recomputed (:func:`_full_gradient`) and SMO on the whole set
    checks the stopping rule and goes on if a point left out violates it: every solution meets the
    whole problem's stopping test at ``tol``, as without shrinking. The index-list shrinking of
    :func:`_smo_loop` walks the active set in scalar code, which costs more than the points it
    leaves out; a copy keeps every pass contiguous. Same arguments and returns as the solver.
    """
    n = y.shape[0]
    it, st = _solve_whole(K, y, s, p, C, alpha, G, tol, min(max_iter, COMPACT_AFTER_ITER))
    if st == STATUS_CONVERGED or it >= max_iter:
        return it, st
    Gmax1, Gmax2 = _shrink_thresholds(y, C, alpha, G, _indices(n), n)
    keep = np.empty(n, dtype=np.int64)
    out = np.empty(n, dtype=np.int64)
    m = 0
    n_out = 0
    for t in range(n):
        if _be_shrunk(t, y, C, alpha, G, Gmax1, Gmax2):
            out[n_out] = t
            n_out += 1
        else:
            keep[m] = t
            m += 1
    if n_out < COMPACT_MIN_SHRUNK * n or m < 2:
        it2, st = _solve_whole(K, y, s, p, C, alpha, G, tol, max_iter - it)
        return it + it2, st
    Kc = np.empty((m, m))
    yc = np.empty(m)
    Cc = np.empty(m)
    ac = np.empty(m)
    Gc = np.empty(m)
    for a_ in range(m):
        r = keep[a_]
        for b_ in range(m):
            Kc[a_, b_] = K[r, keep[b_]]
        yc[a_] = y[r]
        Cc[a_] = C[r]
        ac[a_] = alpha[r]
        Gc[a_] = G[r]
    # the solver without shrinking reads p only through G, which carries it
    it2, st = _solve_whole(Kc, yc, s, np.empty(0), Cc, ac, Gc, tol, max_iter - it)
    it += it2
    for a_ in range(m):
        alpha[keep[a_]] = ac[a_]
        G[keep[a_]] = Gc[a_]
    _full_gradient(K, y, s, p, alpha, G, out, n_out)
    if it >= max_iter:
        return it, st
    it3, st = _solve_whole(K, y, s, p, C, alpha, G, tol, max_iter - it)
    return it + it3, st


def _solve(K, y, s, p, C, alpha, G, tol, max_iter, shrinking):
    """From Python: :func:`_smo_loop`'s variant for ``shrinking`` (kernels call one by name)."""
    return (_solve_shrinking if shrinking else _solve_whole)(K, y, s, p, C, alpha, G, tol, max_iter)


@njit(cache=True, nogil=True)
def _intercept(y, C, alpha, G):
    """b = −ρ with libsvm's rule: mean of y_i G_i over free α_i, else the middle of the feasible range."""
    n = y.shape[0]
    ub = np.inf
    lb = -np.inf
    acc = 0.0
    nfree = 0
    for i in range(n):
        if C[i] <= 0.0:  # a point taken out of the problem (leave-one-out)
            continue
        yG = y[i] * G[i]
        if alpha[i] >= C[i]:
            if y[i] < 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        elif alpha[i] <= 0.0:
            if y[i] > 0:
                ub = min(ub, yG)
            else:
                lb = max(lb, yG)
        else:
            nfree += 1
            acc += yG
    if nfree > 0:
        rho = acc / nfree
    else:
        rho = 0.5 * (ub + lb)
    return -rho


def solve_dual(K, y, s, p, C, alpha0, tol, max_iter, shrinking):
    """Solve one dual from the feasible start ``alpha0``.

    Returns (alpha, b, G, n_iter, status); the training decision values are
    ``f_i = y_i (G_i − p_i) + b``. Python over three kernels (the gradient, the SMO variant for
    ``shrinking``, the intercept): no kernel of its own to compile around the solver's.
    """
    alpha = np.array(alpha0, dtype=np.float64)  # a C-contiguous copy
    n = y.shape[0]
    G = np.empty(n)
    _full_gradient(K, y, s, p, alpha, G, np.arange(n, dtype=np.int64), n)
    n_iter, status = _solve(K, y, s, p, C, alpha, G, tol, max_iter, shrinking)
    b = _intercept(y, C, alpha, G)
    return alpha, b, G, n_iter, status


#: SMO iterations a solve of a λ sequence gets before :func:`_active_set` pivots from where SMO stands
#: (then SMO finishes and verifies, so the stopping rule is SMO's). Most warm-started solves converge
#: in far fewer (a few hundred at n = 500); the ones that do not are the ill-conditioned corners of a
#: grid (large C with a wide or a narrow Gaussian), where SMO takes 10⁴–6·10⁴ iterations to settle a
#: free set of a few tens of points that a few tens of dense pivots settle exactly. 2000 from
#: ``bench/bench_grid.py`` and ``bench/bench_svm.py``'s grids at n = 500: 1000–3000 cost the same within
#: ≈ 10 %; 300 spends more on pivots of solves SMO would have finished (the papers' grid 1.7× slower).
SEQUENCE_PIVOTS_AFTER_ITER = 2000


#: The largest ratio t of a λ step to the previous one for which :func:`_secant_start` extrapolates:
#: 1 (equal steps) up to the rounding of the ratio of two differences of evenly spaced λ (a few ulps),
#: whose amplification of the gradient's rounding over any sequence is nil.
SECANT_MAX_STEP = 1.0 + 1e-9


@njit(cache=True, nogil=True, inline="always")  # one caller, the λ sequence: compiled inside it only
def _secant_start(K, y, s, p, C, lambdas, order, q, alphas, Gh, alpha, G):
    """The start of the q-th solve of a λ sequence (q ≥ 2) extrapolated from the two previous
    solutions α₁, α₂ (rows ``order[q−1]``, ``order[q−2]`` of ``alphas``) and their gradients G₁, G₂
    (``Gh[(q−1) % 2]``, ``Gh[q % 2]``), into (alpha, G). Returns False, with (alpha, G) left as the
    previous solution's, unless 0 ≤ t ≤ 1 (below).

    Between the λ at which a point changes group (0, free, at its bound) the solution is linear in λ:
    with s = 1/(2nλ) and the groups fixed, the KKT conditions of the free set F,
    s·(Q_FF α_F + Q_FB α_B) + b·y_F = 1 and y_F'α_F = −y_B'α_B (Wahba et al. 2001, eq. 1; Q = YKY),
    are linear in (α_F, b/s) with a right-hand side linear in 1/s = 2nλ (the piecewise linear path of
    Hastie et al. 2004). So α = α₁ + t(α₁ − α₂), t = (λ − λ₁)/(λ₁ − λ₂), is the solution where no
    point changes group between λ₂ and λ. Its gradient follows from the two previous ones without a
    product with K, G − p = s·[(1 + t)(G₁ − p)/s₁ − t(G₂ − p)/s₂], and the points that do change group
    are then clipped into the box and y'α = 0 is restored by moves that keep G exact
    (:func:`_move`, :func:`_restore_balance`, O(n) each). SMO starts from this feasible point and its
    stopping rule alone decides the solution.

    With 0 ≤ t ≤ 1 (λ₂ ≥ λ₁ ≥ λ, the new step no longer than the previous one: every log- or
    evenly spaced grid solved from the largest λ down; :data:`SECANT_MAX_STEP`) the rounding of G₁
    and G₂ is carried over as the rescaled gradient of the plain warm start carries it (the
    recurrence e = (1 + t)e₁ − t·e₂ has the roots 1 and t); a longer step would amplify it, and a
    repeated λ gives no direction: both take the plain start."""
    n = y.shape[0]
    k1 = order[q - 1]
    k2 = order[q - 2]
    lam1 = lambdas[k1]
    den = lam1 - lambdas[k2]
    if den == 0.0:
        return False
    t = (lambdas[order[q]] - lam1) / den
    if not (0.0 <= t <= SECANT_MAX_STEP):
        return False
    s1 = 1.0 / (2.0 * n * lam1)
    s2 = 1.0 / (2.0 * n * lambdas[k2])
    c1 = s * (1.0 + t) / s1
    c2 = s * t / s2
    G1 = Gh[(q - 1) % 2]
    G2 = Gh[q % 2]
    for i in range(n):
        alpha[i] = alphas[k1, i] + t * (alphas[k1, i] - alphas[k2, i])
        G[i] = p[i] + c1 * (G1[i] - p[i]) - c2 * (G2[i] - p[i])
    for i in range(n):  # the points that change group: into the box (snapped onto a bound), G kept exact
        new = min(max(alpha[i], 0.0), C[i])
        if _snap(new, C[i]) != alpha[i]:
            _move(K, y, s, alpha, G, i, new, C[i])
    r, need = _restore_balance(K, y, s, C, alpha, G, True, 0.0)
    if need > 1e-12 * (1.0 + abs(r)):  # cannot happen from two feasible solutions; the plain start then
        for i in range(n):
            alpha[i] = alphas[k1, i]
            G[i] = G1[i]
        return False
    return True


def _sequence_kernel(shrinking):
    """:func:`lambda_sequence`'s kernel for one SMO variant (:func:`_smo_loop`; ``shrinking`` a
    constant of the compilation).

    From one λ to the next (s = 1/(2nλ) grows by r = s/s_prev) the start is the previous solution,
    with three refinements that keep SMO's stopping rule as the only test of a solution:

    * no α at its bound C_i: the previous α divided by r is the exact solution at the new s (the
      gradient G = s·YKYα + p does not change, the box and y'α = 0 still hold; Wahba et al. 2001,
      eq. 1: the hard-margin solution, whose sα does not depend on λ), so G is kept as it is;
    * otherwise, from the third λ on, the start is extrapolated linearly in λ from the two previous
      solutions (:func:`_secant_start`: exact where no point changes group, its gradient exact), and
      for the second λ (or after a longer step or a repeated λ) G is rescaled to the new s;
    * a solve that has not converged after
      :data:`SEQUENCE_PIVOTS_AFTER_ITER` SMO iterations is handed back: the kernel returns (q, it),
      the caller runs :func:`_active_set` on (alpha, G) and calls the kernel again with ``q0 = q``,
      ``it0 = it``, which lets SMO verify or finish from whatever feasible point the pivots leave.
      The pivots run from Python, not from here: a compiled call would link and optimise
      ``_active_set`` and the dense solve again into both variants of this kernel (≈ 1.7 s CPU more
      at their first compilation), for solves only the ill-conditioned corners of a grid need.

    Without libsvm's shrinking each solve runs :func:`_solve_compacting`: SMO on the whole set that sets
    aside, once, the points libsvm's rule says stay at their bound.

    ``alpha``, ``G`` (n,) and ``Gh`` (2, n, the gradients of the last two solutions) hold the state
    between calls; the solutions go into ``alphas``, ``bs``, ``fs``, ``iters``, ``stats`` at the
    positions of ``order``. Returns (q, it): q = m when every λ is solved.
    """
    def sequence(K, y, lambdas, order, C, p, alpha, G, Gh, q0, it0, alphas, bs, fs, iters, stats, tol, max_iter):
        n = y.shape[0]
        m = lambdas.shape[0]
        s_prev = 0.0 if q0 == 0 else 1.0 / (2.0 * n * lambdas[order[q0 - 1]])
        for q in range(q0, m):
            k = order[q]
            s = 1.0 / (2.0 * n * lambdas[k])
            fresh = q > q0 or it0 < 0
            if fresh:  # a new solve
                if q == 0:
                    _full_gradient(K, y, s, p, alpha, G, _indices(n), n)
                else:
                    r = s / s_prev
                    bounded = False
                    for i in range(n):
                        if alpha[i] >= C[i]:
                            bounded = True
                            break
                    if not bounded:  # sα and G unchanged: the solution carries over exactly
                        for i in range(n):
                            alpha[i] = alpha[i] / r
                    elif not (q >= 2 and _secant_start(K, y, s, p, C, lambdas, order, q, alphas, Gh, alpha, G)):
                        # G = s·YKYα + p, and YKYα does not depend on λ: rescale instead of recomputing
                        for i in range(n):
                            G[i] = r * (G[i] - p[i]) + p[i]
                budget = min(max_iter, SEQUENCE_PIVOTS_AFTER_ITER)
            else:  # resumed after the pivots
                budget = max_iter - it0
            # one call of each solver (_solve_compacting is inlined at its call)
            if shrinking:  # a constant of the compilation
                it, st = _solve_shrinking(K, y, s, p, C, alpha, G, tol, budget)
            else:
                it, st = _solve_compacting(K, y, s, p, C, alpha, G, tol, budget)
            if fresh:
                if st != STATUS_CONVERGED and it < max_iter:
                    return q, it  # the caller pivots, then resumes here
            else:
                it += it0
            s_prev = s
            b = _intercept(y, C, alpha, G)
            bs[k] = b
            for i in range(n):  # element loops: a slice assignment compiles numba's shape-error formatting (≈ 3 s)
                alphas[k, i] = alpha[i]
                fs[k, i] = y[i] * (G[i] - p[i]) + b
                Gh[q % 2, i] = G[i]
            iters[k] = it
            stats[k] = st
        return m, 0

    sequence.__name__ = sequence.__qualname__ = ("_lambda_sequence_shrinking" if shrinking
                                                 else "_lambda_sequence_whole")
    return njit(cache=True, nogil=True)(sequence)


_lambda_sequence_whole = _sequence_kernel(False)
_lambda_sequence_shrinking = _sequence_kernel(True)


def lambda_sequence(K, y, lambdas, C, p, alpha0, tol, max_iter, shrinking):
    """Wahba's SVM for every λ in ``lambdas`` (any order; solved from the largest down, warm-started).

    Python over the compiled sequence (:func:`_sequence_kernel`) and, for the solves SMO does not
    settle in :data:`SEQUENCE_PIVOTS_AFTER_ITER` iterations, :func:`_active_set`'s pivots.

    Returns alphas (n_lam, n), b (n_lam,), f (n_lam, n) training decision values, n_iter (n_lam,),
    status (n_lam,).
    """
    # the solving order from Python (numpy's stable sort of −λ: ties in the order given), not a
    # function compiled into the sequence's (numba's np.argsort costs seconds of first compilation)
    order = np.argsort(-lambdas, kind="stable").astype(np.int64)
    kernel = _lambda_sequence_shrinking if shrinking else _lambda_sequence_whole
    n, m = y.shape[0], lambdas.shape[0]
    alphas, fs = np.empty((m, n)), np.empty((m, n))
    bs = np.empty(m)
    iters, stats = np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64)
    alpha = np.array(alpha0, dtype=np.float64)  # a C-contiguous copy, the state between calls
    G = np.empty(n)
    buffers = None
    Gh = np.empty((2, n))  # the gradients of the last two solutions (the secant start's)
    q, it = kernel(K, y, lambdas, order, C, p, alpha, G, Gh, 0, -1, alphas, bs, fs, iters, stats, tol, max_iter)
    while q < m:
        if buffers is None:
            cap = min(n, ACTIVE_SET_MAX_FREE)
            buffers = (np.empty((cap + 1, cap + 1)), np.empty(cap + 1), np.empty(cap + 1, dtype=np.int64),
                       np.empty(cap + 1))
        s = 1.0 / (2.0 * n * lambdas[order[q]])
        _active_set(K, y, s, C, alpha, G, tol, *buffers)  # any status: (alpha, G) stay feasible
        q, it = kernel(K, y, lambdas, order, C, p, alpha, G, Gh, q, it, alphas, bs, fs, iters, stats, tol, max_iter)
    return alphas, bs, fs, iters, stats


@njit(cache=True, nogil=True)
def _move(K, y, s, a, G, j, new, c):
    """Set a[j] = new (snapped onto 0 or its bound c, see ``BOUND_SNAP``) and update the gradient
    G = s·YKYα + p accordingly (O(n))."""
    new = _snap(new, c)
    d = (new - a[j]) * y[j] * s
    a[j] = new
    if d != 0.0:
        for t in range(y.shape[0]):
            G[t] += y[t] * K[j, t] * d


@njit(cache=True, nogil=True)
def _restore_balance(K, y, s, C, a, G, track_gradient, r_tol):
    """Restore y'α = 0 inside the box with small changes: take the excess r = y'α from the class
    that has too much, then add what is still missing to the other class.

    With ``track_gradient`` every change goes through :func:`_move` (the gradient G = s·YKYα + p
    kept exact, each moved α snapped onto its bounds); without it only ``a`` changes and K, s, G are
    not read (:func:`_make_feasible` passes empty arrays). Nothing is done when |r| ≤ ``r_tol``.
    Returns (r, the part of |r| that could not be restored: 0 when feasible).
    """
    n = y.shape[0]
    r = 0.0
    for t in range(n):
        r += y[t] * a[t]
    if abs(r) <= r_tol:
        return r, 0.0
    sgn = 1.0 if r > 0 else -1.0
    need = abs(r)
    for t in range(n):
        if need <= 0.0:
            break
        if y[t] == sgn and a[t] > 0.0:
            d = min(a[t], need)
            if track_gradient:
                _move(K, y, s, a, G, t, a[t] - d, C[t])
            else:
                a[t] -= d
            need -= d
    for t in range(n):
        if need <= 0.0:
            break
        if y[t] == -sgn and a[t] < C[t]:
            d = min(C[t] - a[t], need)
            if track_gradient:
                _move(K, y, s, a, G, t, a[t] + d, C[t])
            else:
                a[t] += d
            need -= d
    return r, need


@njit(cache=True, nogil=True)
def _remove_point(K, y, s, C, a, G, i):
    """Take α_i out (α_i = 0) and restore y'α = 0 with the gradient kept exact.

    The mass α_i is first given to free points of the same class (they usually absorb it in the
    leave-one-out solution), then to other same-class points below their bound, and only then taken
    from the other class.
    """
    need = a[i]
    _move(K, y, s, a, G, i, 0.0, C[i])
    for pass_ in range(2):
        for t in range(y.shape[0]):
            if need <= 0.0:
                return
            if t == i or y[t] != y[i] or a[t] >= C[t]:
                continue
            if pass_ == 0 and a[t] <= 0.0:
                continue
            d = min(C[t] - a[t], need)
            _move(K, y, s, a, G, t, a[t] + d, C[t])
            need -= d
    for t in range(y.shape[0]):
        if need <= 0.0:
            return
        if y[t] != y[i] and a[t] > 0.0:
            d = min(a[t], need)
            _move(K, y, s, a, G, t, a[t] - d, C[t])
            need -= d


@njit(cache=True, nogil=True, inline="always")  # one caller, loo_decisions: compiled inside it only
def _invert(M):
    """The inverse of M by :func:`svmviz._linalg.invert_in_place`; (inverse, ok). ok is False when a
    pivot is not above 1e-12 of M's largest |entry| (singular to working precision) — callers then
    fall back to a cruder warm start instead of failing."""
    m = M.shape[0]
    A = M.copy()
    scale = 0.0
    for i in range(m):
        for j in range(m):
            scale = max(scale, abs(A[i, j]))
    ok = invert_in_place(A, m, np.empty(m, np.int64), 1e-12 * scale)
    return A, ok


#: Exact refits by a primal active-set method (below): used when the full solution has at most this
#: many free support vectors (0 < α < C; the bounded ones cost a pivot only when they move). The KKT
#: system of the free set is inverted once per call (O(|F|³)) and each pivot costs O(|F|² + n·|F|)
#: (:func:`_active_set`), at |F| ≈ 40–150 a few to a few hundred µs against SMO's ~10⁵ iterations at
#: small λ; above a few hundred free points the inversion would cost more than SMO's O(n) iterations.
#: The free set may grow to min(n, 2·ACTIVE_SET_MAX_FREE) points (buffers of that size squared, 0.7 MB).
ACTIVE_SET_MAX_FREE = 150
#: SMO iterations a refit gets before the active-set method takes over from its start: on well-
#: conditioned refits SMO settles in fewer (a few hundred) and costs less than the dense pivots
#: (the wahba2001 exact-LOO surface, n = 200, every third σ and λ: 1.4 s with pivots for every refit
#: against 0.3 s with SMO alone, and 0.3 s with this budget; 300 cost 0.4 s); at small λ it needs
#: ~10⁵ (see loo_decisions), of which this is ~1 %.
ACTIVE_SET_AFTER_ITER = 1000
#: Once more than this fraction of a call's SMO trials (:data:`ACTIVE_SET_AFTER_ITER` iterations)
#: have failed — and at least :data:`ACTIVE_SET_TRIAL_MIN_FAILS` of them — its remaining refits go to
#: the pivots directly. A failed trial is thrown away (the pivots start from the trial's own start),
#: so skipping it changes nothing for a refit it would not have settled, and costs the pivots instead
#: of a few dozen SMO iterations for one it would have. Its cost is the whole budget, ~0.5 ms at n =
#: 200 against ~0.2 ms of pivots and ~0.06 ms for a trial that settles (the Kernels page's default
#: problems): trials pay while fewer than about a fifth fail. At its smallest λ values nearly every
#: trial fails (60–90 of 80–90 refits per kernel and λ); at the larger ones none does. The rule counts
#: outcomes, not seconds: the results do not depend on the machine's load.
ACTIVE_SET_TRIAL_FAIL_SHARE = 0.25
#: Failed SMO trials a call sees before it may skip the rest (:data:`ACTIVE_SET_TRIAL_FAIL_SHARE`): one
#: unlucky refit among the first does not decide for the call.
ACTIVE_SET_TRIAL_MIN_FAILS = 2
#: Pivots (a point joining or leaving the free set) allowed per refit before handing over to SMO.
#: A refit after one point leaves moves a few tens of points between the groups; cycling (possible in
#: degenerate problems) must not loop.
ACTIVE_SET_MAX_PIVOTS = 400
#: A bounded point joins the free set while its multiplier has the wrong sign by more than this
#: fraction of the SMO tolerance: with every violation ≤ tol/4 the maximal violating pair of SMO's
#: stopping test (Gmax + Gmax2 < tol, twice the largest violation plus rounding) passes with margin,
#: so the verifying SMO run that follows does no iteration.
ACTIVE_SET_RELEASE = 0.25
#: A pivot of the free set's KKT system below this fraction of the matrix's largest entry is taken as
#: singular (the same rule as :func:`_invert`): the refit is then handed over to SMO.
ACTIVE_SET_PIVOT_TOL = 1e-12
ACTIVE_SET_OPTIMAL = 0      # every bounded multiplier within tol·ACTIVE_SET_RELEASE; SMO verifies
ACTIVE_SET_SINGULAR = 1     # the free set's KKT system is singular to working precision
ACTIVE_SET_MAX_PIVOTS_HIT = 2  # ACTIVE_SET_MAX_PIVOTS reached
ACTIVE_SET_TOO_LARGE = 3    # the free set outgrew the buffers (see ACTIVE_SET_MAX_FREE)
ACTIVE_SET_NO_FREE = 4      # no free point to start from (the multiplier μ is not determined)


@njit(cache=True, nogil=True)
def _kkt_inverse(K, y, s, F, nf, A, work):
    """The inverse of the free set's KKT matrix [[0, y_F'], [y_F, s·Y_F K_FF Y_F]] (the multiplier's
    row and column first) into ``A[:nf+1, :nf+1]`` by :func:`svmviz._linalg.invert_in_place`.
    Returns (ok, the matrix's largest |entry|); ok is False when a pivot is not above
    ``ACTIVE_SET_PIVOT_TOL`` times that entry (singular to working precision)."""
    m = nf + 1
    A[0, 0] = 0.0
    scale = 0.0
    for r in range(nf):
        fr = F[r]
        A[0, r + 1] = y[fr]
        A[r + 1, 0] = y[fr]
        for c in range(nf):
            v = s * y[fr] * y[F[c]] * K[fr, F[c]]
            A[r + 1, c + 1] = v
            scale = max(scale, abs(v))
    scale = max(scale, 1.0)  # the entries y_t = ±1
    return invert_in_place(A, m, work, ACTIVE_SET_PIVOT_TOL * scale), scale


@njit(cache=True, nogil=True, inline="always")  # one caller, _active_set: compiled inside it only
def _kkt_solve(K, y, s, G, F, nf, A, x, res):
    """x = the solution [μ; d] of the free set's KKT system [[0, y_F'], [y_F, Q_FF]] [μ; d] = [0; −G_F]
    through its inverse ``A`` (:func:`_kkt_inverse`, kept by rank-one updates), with one step of
    iterative refinement against the matrix itself (its residual from K, O(|F|²)): the solution as
    accurate as a fresh elimination's although the inverse carries the rounding of its updates. d is
    then projected onto y_F'd = 0, which an ill-conditioned Q_FF (small λ, a wide Gaussian) leaves
    unmet by far more than rounding through an inverse."""
    m = nf + 1
    for r in range(m):
        acc = 0.0
        for c in range(nf):
            acc -= A[r, c + 1] * G[F[c]]
        x[r] = acc
    acc = 0.0
    for c in range(nf):
        acc += y[F[c]] * x[c + 1]
    res[0] = -acc
    for r in range(nf):
        fr = F[r]
        acc = y[fr] * x[0]
        for c in range(nf):
            acc += s * y[fr] * y[F[c]] * K[fr, F[c]] * x[c + 1]
        res[r + 1] = -G[fr] - acc
    for r in range(m):
        acc = 0.0
        for c in range(m):
            acc += A[r, c] * res[c]
        x[r] += acc
    # y_F'd = 0 exactly (to rounding), whatever the conditioning left in the solve: the step must keep
    # y'α = 0 (y_t² = 1, so removing y_F (y_F'd)/|F| does)
    acc = 0.0
    for c in range(nf):
        acc += y[F[c]] * x[c + 1]
    acc /= nf
    for c in range(nf):
        x[c + 1] -= y[F[c]] * acc


#: Pivots between fresh inversions of the free set's KKT matrix in :func:`_active_set` (in between, its
#: inverse is updated by rank-one steps, whose rounding adds up; iterative refinement keeps each
#: solution exact to working precision meanwhile).
ACTIVE_SET_REFRESH = 32


@njit(cache=True, nogil=True)
def _active_set(K, y, s, C, a, G, tol, A, x, F, w):
    """Primal active-set method for the dual (module docstring) from the feasible (a, G), in place.

    The free set F starts as the points strictly inside their box. Each pivot solves the KKT system
    of F with the other points fixed, [[Q_FF, y_F], [y_F', 0]] [d; μ] = [−G_F; 0], and moves a_F by
    τd with the largest τ ≤ 1 that keeps the box: if a point blocks (τ < 1) it leaves F at its bound;
    otherwise a_F is optimal for F and the bounded point whose multiplier has the wrong sign by the
    most (G_t + μy_t < 0 at 0, > 0 at C_t) joins F, until none does by more than
    ``ACTIVE_SET_RELEASE · tol``. The gradient G = Qα + p is kept exact through every move; y'α = 0
    is kept (y_F'd = 0). Points with C_t = 0 (left out) never move.

    The system is solved through the inverse of its matrix (:func:`_kkt_inverse`), which a point
    leaving or joining F changes by a rank-one update in O(|F|²) (the bordered inverse, its Schur
    complement as the new pivot), each solve refined once (:func:`_kkt_solve`) and the inverse computed
    afresh every :data:`ACTIVE_SET_REFRESH` pivots: O(|F|³) once per call instead of per pivot. A pivot
    (or Schur complement) below ``ACTIVE_SET_PIVOT_TOL`` of the matrix's largest entry is singular.

    Buffers: A (cap+1, cap+1), x, F, w (cap + 1,) with cap = A.shape[0] − 1. Returns (status,
    pivots): ACTIVE_SET_* codes.
    """
    n = y.shape[0]
    cap = A.shape[0] - 1
    nf = 0
    for t in range(n):
        if 0.0 < a[t] < C[t]:
            if nf == cap:
                return ACTIVE_SET_TOO_LARGE, 0
            F[nf] = t
            nf += 1
    if nf == 0:
        return ACTIVE_SET_NO_FREE, 0
    res = np.empty(cap + 1)
    u = np.empty(cap + 1)
    work = np.empty(cap + 1, dtype=np.int64)
    ok, scale = _kkt_inverse(K, y, s, F, nf, A, work)
    if not ok:
        return ACTIVE_SET_SINGULAR, 0
    since = 0
    thresh = ACTIVE_SET_RELEASE * tol
    for piv in range(ACTIVE_SET_MAX_PIVOTS):
        if since == ACTIVE_SET_REFRESH:
            ok, scale = _kkt_inverse(K, y, s, F, nf, A, work)
            if not ok:
                return ACTIVE_SET_SINGULAR, piv
            since = 0
        since += 1
        _kkt_solve(K, y, s, G, F, nf, A, x, res)
        mu = x[0]
        finite = np.isfinite(mu)
        for r in range(nf):
            finite = finite and np.isfinite(x[r + 1])
        if not finite:
            return ACTIVE_SET_SINGULAR, piv
        tau = 1.0
        block = -1
        for r in range(nf):
            t = F[r]
            d = x[r + 1]
            # a step below the snapping resolution is rounding of a zero step (y_F'd = 0 makes a
            # lone free point's d exactly 0): it blocks nothing
            if d < -BOUND_SNAP * C[t]:
                lim = a[t] / -d
            elif d > BOUND_SNAP * C[t]:
                lim = (C[t] - a[t]) / d
            else:
                continue
            if lim < tau:
                tau = lim
                block = r
        for r in range(nf):  # move a_F, then G by the changes actually made (after snapping)
            t = F[r]
            if r == block:
                new = 0.0 if x[r + 1] < 0.0 else C[t]
            else:
                new = _snap(min(max(a[t] + tau * x[r + 1], 0.0), C[t]), C[t])
            w[r] = (new - a[t]) * y[t] * s
            a[t] = new
        for r in range(nf):
            wr = w[r]
            if wr != 0.0:
                fr = F[r]
                for t in range(n):
                    G[t] += y[t] * K[fr, t] * wr
        m = nf + 1
        if block >= 0:
            # F loses F[block]: the inverse of the matrix without row and column k is
            # A_−k,−k − A_−k,k A_k,−k / A_kk; the last point then takes position k
            if nf == 1:
                return ACTIVE_SET_NO_FREE, piv + 1
            k = block + 1
            pk = A[k, k]
            if not (abs(pk) * scale > ACTIVE_SET_PIVOT_TOL) or not np.isfinite(pk):
                return ACTIVE_SET_SINGULAR, piv + 1
            for r in range(m):
                u[r] = A[r, k] / pk
            for r in range(m):
                if r == k:
                    continue
                ur = u[r]
                for c in range(m):
                    A[r, c] -= ur * A[k, c]
            last = m - 1
            if k != last:
                for c in range(m):
                    A[k, c] = A[last, c]
                for r in range(m):
                    A[r, k] = A[r, last]
            F[block] = F[nf - 1]
            nf -= 1
            continue
        # optimal on F: release the bounded point with the worst multiplier
        worst = thresh
        j = -1
        for t in range(n):
            if C[t] <= 0.0 or 0.0 < a[t] < C[t]:
                continue
            v = G[t] + mu * y[t]
            if a[t] <= 0.0:
                v = -v
            if v > worst:
                in_f = False
                for r in range(nf):
                    if F[r] == t:
                        in_f = True
                        break
                if not in_f:
                    worst = v
                    j = t
        if j < 0:
            return ACTIVE_SET_OPTIMAL, piv + 1
        if nf == cap:
            return ACTIVE_SET_TOO_LARGE, piv + 1
        # F gains j: the bordered inverse. With the new column b = [y_j; s·y_F y_j K_Fj], its
        # diagonal e = s·K_jj, z = A b and the Schur complement σ = e − b'z, the inverse is
        # [[A + z z'/σ, −z/σ], [−z'/σ, 1/σ]]
        for r in range(nf):
            res[r + 1] = s * y[F[r]] * y[j] * K[F[r], j]
            scale = max(scale, abs(res[r + 1]))
        res[0] = y[j]
        e = s * K[j, j]
        scale = max(scale, abs(e))
        sig = e
        for r in range(m):
            acc = 0.0
            for c in range(m):
                acc += A[r, c] * res[c]
            u[r] = acc
            sig -= res[r] * acc
        if not (abs(sig) > ACTIVE_SET_PIVOT_TOL * scale) or not np.isfinite(sig):
            return ACTIVE_SET_SINGULAR, piv + 1
        for r in range(m):
            zr = u[r] / sig
            for c in range(m):
                A[r, c] += zr * u[c]
            A[r, m] = -zr
            A[m, r] = -zr
        A[m, m] = 1.0 / sig
        F[nf] = j
        nf += 1
    return ACTIVE_SET_MAX_PIVOTS_HIT, ACTIVE_SET_MAX_PIVOTS


@njit(cache=True, nogil=True)
def loo_decisions(K, y, s, p, C, alpha_full, tol, max_iter):
    """Leave-one-out decision values f_i^{[-i]}(x_i), refitting support vectors only.

    Point i is taken out by setting its bound to 0 (so α_i = 0 can never move) — no sub-matrix
    copies. Each refit starts from the active-set prediction: if leaving i out does not move any
    other point between the groups free (0 < α < C), bounded and zero, the new free α and b solve
    the same KKT system without i, obtained from the full system's inverse by a rank-one update
    (bounded i: right-hand side change; free i: remove its row and column), clipped into the box
    with y'α = 0 restored. With at most ``ACTIVE_SET_MAX_FREE`` free points in the full solution
    :func:`_active_set` then pivots to the refit's optimum (every bounded multiplier within
    ``ACTIVE_SET_RELEASE · tol``) when SMO has not settled the refit in ``ACTIVE_SET_AFTER_ITER``
    iterations — or without that trial once over ``ACTIVE_SET_TRIAL_FAIL_SHARE`` of the call's trials
    have failed (a failed trial is thrown away) — again from :func:`_remove_point`'s start if it does
    not settle from the prediction. Either way SMO then verifies (no iteration after the pivots) or repairs
    what it is given, so the result meets SMO's stopping test. Non-support vectors keep the
    full-data decision value. Returns (f_loo, status).
    """
    n = y.shape[0]
    alpha = alpha_full.copy()
    G = np.empty(n)
    idx = _indices(n)
    _full_gradient(K, y, s, p, alpha, G, idx, n)
    b = _intercept(y, C, alpha, G)
    f_loo = np.empty(n)
    for i in range(n):
        f_loo[i] = y[i] * (G[i] - p[i]) + b
    status = STATUS_CONVERGED
    # the free set F and the inverse of its KKT matrix [[s·Y_F K_FF Y_F, y_F], [y_F', 0]]
    nf = 0
    for t in range(n):
        if 0.0 < alpha[t] < C[t]:
            nf += 1
    F = np.empty(nf, dtype=np.int64)
    pos = np.empty(n, dtype=np.int64)
    k = 0
    for t in range(n):
        pos[t] = -1
        if 0.0 < alpha[t] < C[t]:
            F[k] = t
            pos[t] = k
            k += 1
    # Few free points (small λ, the worst-conditioned refits): each refit is solved by the exact
    # active-set method. SMO from the prediction alone took ~10⁵ iterations per refit there
    # (additive SS-ANOVA kernel, n = 200, λ = 1e-6: a start violating the KKT conditions by ~10³,
    # 35–45 of 66 α to move, zig-zagging along the flat directions of a gram of condition ~10⁸),
    # ~20 pivots instead. The pivots start from the prediction (fewer pivots: 14 against 22 per
    # refit there); when they do not settle from it — its clipping and y'α repair can leave hundreds
    # of points strictly inside the box (n = 600, λ = 1e-6: 4.2 s for 252 refits) — they start
    # again from _remove_point's start (0.17 s).
    use_active_set = nf <= ACTIVE_SET_MAX_FREE
    have_inv = False
    Ainv = np.empty((1, 1))
    if nf > 0:
        M = np.empty((nf + 1, nf + 1))
        M[nf, nf] = 0.0  # every other entry is set below
        for a_ in range(nf):
            for c_ in range(nf):
                M[a_, c_] = s * y[F[a_]] * y[F[c_]] * K[F[a_], F[c_]]
            M[a_, nf] = y[F[a_]]
            M[nf, a_] = y[F[a_]]
        Ainv, have_inv = _invert(M)
    Ci = C.copy()
    a = np.empty(n)
    Gi = np.empty(n)
    # The refits do not shrink: on the whole set every iteration runs the vector selection
    # (_select_all), which costs less than the points shrinking leaves out (the LOO values agree with
    # shrinking refits within the tolerance, no sign changes): the grid's SMO variant, _solve_whole.
    dx = np.empty(nf + 1)
    cap = min(n, 2 * ACTIVE_SET_MAX_FREE) if use_active_set else 0
    A_as = np.empty((cap + 1, cap + 1))
    x_as = np.empty(cap + 1)
    F_as = np.empty(cap + 1, dtype=np.int64)
    w_as = np.empty(cap + 1)
    a_start = np.empty(n)
    G_start = np.empty(n)
    trials = 0  # SMO trials run, and those that failed (ACTIVE_SET_TRIAL_FAIL_SHARE)
    fails = 0
    for i in range(n):
        if alpha_full[i] <= 0.0:
            continue
        for t in range(n):
            a[t] = alpha_full[t]
            Gi[t] = G[t]
        Ci[i] = 0.0
        predicted = False
        if have_inv:
            ai = alpha_full[i]
            if pos[i] >= 0:  # free point: drop its row/column, Δx = −A[:, i] α_i / A_ii
                pi_ = pos[i]
                piv = Ainv[pi_, pi_]
                if piv != 0.0:
                    for r in range(nf + 1):
                        dx[r] = -Ainv[r, pi_] * ai / piv
                    predicted = True
            else:  # bounded point: its term leaves the right-hand side
                for r in range(nf + 1):
                    acc = Ainv[r, nf] * y[i] * ai
                    for c_ in range(nf):
                        acc += Ainv[r, c_] * s * y[F[c_]] * y[i] * K[F[c_], i] * ai
                    dx[r] = acc
                predicted = True
            if predicted:
                ok = True
                for r in range(nf):
                    if not np.isfinite(dx[r]):
                        ok = False
                if ok:
                    _move(K, y, s, a, Gi, i, 0.0, Ci[i])
                    for r in range(nf):
                        t = F[r]
                        if t == i:
                            continue
                        new = a[t] + dx[r]
                        if new < 0.0:
                            new = 0.0
                        elif new > Ci[t]:
                            new = Ci[t]
                        _move(K, y, s, a, Gi, t, new, Ci[t])
                    # clipping may have broken y'α = 0: restore it, keeping G exact
                    _restore_balance(K, y, s, Ci, a, Gi, True, 1e-14 * n)
                else:
                    predicted = False
        if not predicted:
            _remove_point(K, y, s, Ci, a, Gi, i)
        it, st = STATUS_CONVERGED, STATUS_CONVERGED
        if use_active_set:
            # SMO first, briefly (most refits settle in a few hundred iterations), unless over a quarter
            # of this call's trials have failed: then the pivots start from the start a failed trial restores
            trial = fails < ACTIVE_SET_TRIAL_MIN_FAILS or fails <= ACTIVE_SET_TRIAL_FAIL_SHARE * trials
            if trial:
                for t in range(n):
                    a_start[t] = a[t]
                    G_start[t] = Gi[t]
                it, st = _solve_whole(K, y, s, p, Ci, a, Gi, tol, min(max_iter, ACTIVE_SET_AFTER_ITER))
                trials += 1
                if st != STATUS_CONVERGED:
                    fails += 1
                    for t in range(n):
                        a[t] = a_start[t]
                        Gi[t] = G_start[t]
            else:
                st = STATUS_MAX_ITER  # not settled: the SMO run below verifies the pivots' result
            if st != STATUS_CONVERGED:  # pivots to the optimum; SMO below verifies (0 iterations) or finishes
                st_as, _ = _active_set(K, y, s, Ci, a, Gi, tol, A_as, x_as, F_as, w_as)
                if st_as != ACTIVE_SET_OPTIMAL and predicted:  # e.g. the clipped prediction left too many free
                    for t in range(n):
                        a[t] = alpha_full[t]
                        Gi[t] = G[t]
                    _remove_point(K, y, s, Ci, a, Gi, i)
                    _active_set(K, y, s, Ci, a, Gi, tol, A_as, x_as, F_as, w_as)
        if st != STATUS_CONVERGED or not use_active_set:
            it, st = _solve_whole(K, y, s, p, Ci, a, Gi, tol, max_iter)
        if st != STATUS_CONVERGED:
            status = st
        bi = _intercept(y, Ci, a, Gi)
        f_loo[i] = y[i] * (Gi[i] - p[i]) + bi
        Ci[i] = C[i]
    return f_loo, status


def rbf_sigma_sequence(D, sigma, y, lambdas, C, p, tol, max_iter, shrinking):
    """Gaussian kernel of width σ from squared distances D, then :func:`lambda_sequence` from α = 0.

    Python over the kernels' compiled exp and a compiled function (both release the GIL: the grid's
    threads run them in parallel), not a third around them: numba links every function a compiled
    function calls into it and optimises and emits the whole again, ~0.5–0.9 s CPU of the Tuning
    page's first compilation for this one level."""
    K = rbf_from_squared_distances(D, sigma)  # the kernels' compiled exp, which releases the GIL too
    return lambda_sequence(K, y, lambdas, C, p, np.zeros(y.shape[0]), tol, max_iter, shrinking)


def rbf_sigma_loo(D, sigma, y, lambdas, C, p, alphas, tol, max_iter):
    """Leave-one-out decision values for every λ of one σ. alphas (n_lam, n) are the full solutions.

    The Gaussian kernel by the kernels' exp (bit for bit :func:`rbf_sigma_sequence`'s), then the compiled
    refits (:func:`loo_decisions`, one call per λ); both release the GIL. A loop in Python, not a
    compiled function around :func:`loo_decisions`: numba would link, optimise and emit the refits
    and every function they call once more into it (≈ 1.3 s CPU of the Tuning page's first
    compilation), for a loop of one to a few dozen calls that each solve n problems.

    Returns f_loo (n_lam, n) and status (n_lam,).
    """
    K = rbf_from_squared_distances(D, sigma)
    n = y.shape[0]
    m = lambdas.shape[0]
    out = np.empty((m, n))
    stats = np.empty(m, dtype=np.int64)
    for k in range(m):
        out[k], stats[k] = loo_decisions(K, y, 1.0 / (2.0 * n * lambdas[k]), p, C, alphas[k].copy(), tol, max_iter)
    return out, stats
