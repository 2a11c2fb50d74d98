"""SMO on kernel rows computed on demand and kept in a bounded LRU cache, with shrinking: libsvm's design.

Same problem, working-set selection (WSS2, Fan, Chen & Lin 2005), stopping rule (``Gmax + Gmax2 < tol``)
and intercept (:func:`svmviz.svm._smo._intercept`) as the full-matrix solver of :mod:`._smo`, so the
two agree to the tolerance; what differs is where ``K`` comes from. Problem::

    min_α  ½ α'Qα + p'α    s.t.  0 ≤ α_i ≤ C_i,  y'α = 0,   Q_ij = s · y_i y_j K_ij.

The n × n matrix is never formed (Chang & Lin 2011, "LIBSVM: a library for support vector
machines", §4.1.2 shrinking, §5.1 caching):

- **Positions.** As in libsvm, the variables are permuted so that the active ones are positions
  ``0 … n_active − 1``; shrinking swaps a variable that cannot move with the last active one. Every
  vector (y, C, p, α, G, Ḡ, K_ii, the points themselves) is kept in position order, so a kernel row of
  the shrunk problem is the contiguous ``K(x_i, x_0 … x_{n_active−1})``.
- **Cache.** ``cache_size`` MB of rows, each holding the first ``len`` columns of one position's
  row, in least-recently-used order (at least 2: one SMO step uses rows i and j). A miss evicts the
  least recently used row; a row shorter than needed is extended in place. A swap of positions
  a < b swaps the two columns in every cached row long enough, and cuts a row that covers a but
  not b to length a (libsvm drops it; the first a columns are still right).
- **Rows as long as the active set.** The rows are slots of one length, the *stride*: n at first.
  Once shrinking has left at most 90 % of the stride active, the stride becomes the
  number of active variables and the same memory holds more rows (libsvm allocates each row at
  the length asked for). The cached rows are moved in place and cut to the new stride; a solve
  never needs more of a row's active columns. What needs more goes through two scratch rows outside
  the cache: a full row of a variable that reaches or leaves its upper bound (for Ḡ, below) and
  the rows the reconstruction reads. A step that needs rows longer than the stride (after
  unshrinking) empties the cache and takes the stride n again.
- **Ḡ.** ``Ḡ_k = Σ_{α_j = C_j} C_j Q_kj`` (libsvm's ``G_bar``), kept with a full row each time a
  variable reaches or leaves its upper bound, so that unshrinking needs only the free variables' part
  of the gradient: ``G_k = Ḡ_k + p_k + Σ_{0 < α_j < C_j} α_j Q_kj`` for the inactive k.
- **Unshrinking.** As libsvm's ``reconstruct_gradient``, that sum is read either from the free
  variables' rows over the inactive columns (each row extended in the cache while rows are n long,
  through a scratch row once they are shorter: the active columns of a free variable's row are what
  the solve goes on reading) or from the inactive points' rows over the
  active columns, whichever computes fewer kernel entries (a free row already cached costs only its
  missing columns). The inactive points' rows go through one scratch row outside the cache: they are
  read once, and keeping them would evict the active rows. The two read the same entries
  ``K_kj = K_jk`` and add the same terms for each k in the same order (j ascending).
- **Rows from Python.** The compiled loop :func:`_run` cannot call numpy's BLAS; it stops with
  ``NEED_ROW`` and the slot, position and columns it needs, and :func:`solve_rows` fills them with
  :meth:`svmviz.kernels.GramRows.row` (one BLAS product, the distances and the compiled exp: the path
  of :func:`svmviz.kernels.gram`), then calls the loop again. A step that stops for a row is taken
  again from its start (its selection reads only α and G, which it has not changed).
- **Compile time.** Every function numba compiles on its own pays a fixed set-up, its own optimisation
  and its own cache entry: the helpers that :func:`_run` reaches from one place (the shrinking pass
  with its swaps, the gradient's reconstruction, the two-variable step) and the small LRU-ring and
  phase updates are inlined by numba (``inline='always'``) into their caller instead, which takes
  about a sixth off this solver's first compilation (``bench/bench_coldstart.py --compiles``).
  :func:`_get_row` (five calls) stays a function, as do the selections compiled with ``fastmath``
  (:func:`_maxima`, :func:`_select_i`, :func:`_select_j`: an inlined copy takes its caller's flags
  and would lose the vector code).
"""
from __future__ import annotations

import numpy as np

from .._jit import njit
from .._pages import empty_in_small_pages
from ..kernels import GramRows
from ._smo import (_NO_KEY, _VECTOR_MATH, STATUS_CONVERGED, STATUS_MAX_ITER, TAU, _be_shrunk, _intercept, _key,
                   _key_value, _last_key, _set_sets, _snap, _up_keys)

#: libsvm's default kernel cache (``svm-train -m 100`` in libsvm, 200 MB in scikit-learn's ``SVC``):
#: scikit-learn's default, so that the two solvers compare on the same memory.
DEFAULT_CACHE_MB = 200.0
#: One SMO step reads the rows of both its working variables: the cache holds at least two.
MIN_SLOTS = 2

# rows of the (9, n) float array ``vec``, in position order (OU, OL: the sets I_up, I_low as 0 / −∞,
# :func:`._smo._set_sets`)
_Y, _C, _P, _A, _G, _GBAR, _KD, _OU, _OL, _N_VEC = range(10)
# rows of the (2, n) int array ``ipos``
_ORIG, _SLOT = range(2)
# rows of the (4, slots + 1) int array ``islot`` (column ``slots`` is the LRU list's sentinel)
_POS, _LEN, _PREV, _NEXT = range(4)
# entries of the int state ``st``
(_IT, _COUNTER, _NACT, _UNSHRUNK, _PHASE, _RESUME, _RECON, _NEED_SLOT, _NEED_POS, _NEED_FROM, _NEED_TO,
 _STATUS, _MAX_ITER, _SHRINKING, _RECON_BY, _RECON_RULE, _SCR_POS0, _SCR_FROM0, _SCR_POS1, _SCR_FROM1,
 _N_ST) = range(21)
# entries of the float state ``fs``
_S, _TOL, _GMAX1, _GMAX2, _N_FS = range(5)

# phases of the loop
_PH_TOP = 0       # start of an SMO step: shrinking every min(n, 1000) steps
_PH_SHRINK = 1    # shrink with the maxima in fs (after a reconstruction of the gradient, if one was due)
_PH_STEP = 2      # select (i, j), fetch their rows, move α_i, α_j
_PH_RECON = 3     # reconstruct G of the inactive positions from Ḡ and the free variables' rows
_PH_DONE = 4

# how the gradient of the inactive positions is reconstructed (``st[_RECON_BY]``), and the rule that
# chooses it (``st[_RECON_RULE]``: by the kernel entries each computes, or one of the two forced)
_BY_FREE_ROWS = 0      # the free variables' rows over the inactive columns (cached, extended)
_BY_INACTIVE_ROWS = 1  # the inactive points' rows over the active columns (the scratch row)
_RULE_FEWER_ENTRIES = 2
RECON_RULES = {"fewer entries": _RULE_FEWER_ENTRIES, "free rows": _BY_FREE_ROWS,
               "inactive rows": _BY_INACTIVE_ROWS}

#: :func:`_run`'s answers
RUN_DONE = 0      # solved or stopped at max_iter (``st[_STATUS]``); α, G complete over all n
NEED_ROW = 1      # fill ``data[st[_NEED_SLOT], st[_NEED_FROM]:st[_NEED_TO]]`` with row st[_NEED_POS],
#                   or a scratch row, or change the stride (``st[_NEED_SLOT]``: a slot or one of these)
NEED_SCRATCH0 = -2  # fill ``scratch[0, from:to]``
NEED_SCRATCH1 = -3  # fill ``scratch[1, from:to]``
NEED_STRIDE = -4    # rows of stride ``st[_NEED_TO]`` (:func:`_restride`)
#: the stride becomes the active set's size once shrinking has left at most this fraction of it active
RESTRIDE_BELOW = 0.9
#: the shortest stride (a few active variables: the rows are cheap, the slots need not be many)
MIN_STRIDE = 64


@njit(cache=True, nogil=True, inline="always")
def _lru_move(islot, k, most_recent):
    """Move slot k of the LRU ring to its most recently used end (right after the sentinel) or, if not
    ``most_recent``, to its least recently used end (right before it)."""
    prv, nxt = islot[_PREV], islot[_NEXT]
    nxt[prv[k]] = nxt[k]  # unlink k
    prv[nxt[k]] = prv[k]
    head = islot.shape[1] - 1  # the sentinel
    a = head if most_recent else prv[head]  # link k right after node a
    prv[k] = a
    nxt[k] = nxt[a]
    prv[nxt[a]] = k
    nxt[a] = k


@njit(cache=True, nogil=True)
def _get_row(ipos, islot, st, pos, length, stride):
    """The slot holding at least ``length`` columns of position ``pos``'s row, made most recently
    used; or −1 after recording in ``st`` which columns of which slot :func:`solve_rows` must fill
    (a row too short is extended in its slot; a missing one takes the least recently used slot), or
    that the rows must first be longer than ``stride``."""
    if length > stride:
        st[_NEED_SLOT] = NEED_STRIDE
        st[_NEED_TO] = length
        return -1
    slot_of = ipos[_SLOT]
    head = islot.shape[1] - 1  # the LRU ring's sentinel
    k = slot_of[pos]
    if k >= 0:
        _lru_move(islot, k, True)
        if islot[_LEN, k] >= length:
            return k
        start = islot[_LEN, k]
    else:
        k = islot[_PREV, head]  # the least recently used slot
        old = islot[_POS, k]
        if old >= 0:
            slot_of[old] = -1
        islot[_POS, k] = pos
        islot[_LEN, k] = 0
        slot_of[pos] = k
        _lru_move(islot, k, True)
        start = 0
    st[_NEED_SLOT] = k
    st[_NEED_POS] = pos
    st[_NEED_FROM] = start
    st[_NEED_TO] = length
    return -1


@njit(cache=True, nogil=True, inline="always")
def _scratch_holds(st, which, pos, start, stop):
    """True if scratch row ``which`` holds columns ``start:stop`` of position ``pos``'s row; else
    False after recording in ``st`` that :func:`solve_rows` must fill them."""
    p_, f_ = (_SCR_POS0, _SCR_FROM0) if which == 0 else (_SCR_POS1, _SCR_FROM1)
    if st[p_] == pos and st[f_] == start:
        return True
    st[_NEED_SLOT] = NEED_SCRATCH0 if which == 0 else NEED_SCRATCH1
    st[_NEED_POS] = pos
    st[_NEED_FROM] = start
    st[_NEED_TO] = stop
    return False


@njit(cache=True, nogil=True, inline="always")
def _forget_scratch(st):
    """The scratch rows hold nothing (positions have moved)."""
    st[_SCR_POS0] = -1
    st[_SCR_POS1] = -1


@njit(cache=True, nogil=True)
def _restride(data_old, data_new, islot_old, islot_new, ipos):
    """Rows of a new stride in the same memory (``data_new`` a view of ``data_old``'s buffer):
    shorter, the cached rows moved in place (cut to the new stride) and their LRU order kept, the
    new slots least recently used; longer, the cache emptied. ``islot_new`` is written whole."""
    old_stride, new_stride = data_old.shape[1], data_new.shape[1]
    s_old, s_new = islot_old.shape[1] - 1, islot_new.shape[1] - 1
    flat_old, flat_new = data_old.reshape(-1), data_new.reshape(-1)
    islot_new[_POS] = -1
    islot_new[_LEN] = 0
    order = np.empty(s_new, dtype=np.int64)  # slots from most to least recently used
    m = 0
    if new_stride < old_stride:
        for k in range(s_old):  # destinations never pass their sources: in place, in slot order
            length = min(islot_old[_LEN, k], new_stride)
            for c in range(length):
                flat_new[k * new_stride + c] = flat_old[k * old_stride + c]
            islot_new[_POS, k] = islot_old[_POS, k]
            islot_new[_LEN, k] = length
        k = islot_old[_NEXT, s_old]
        while k != s_old:
            order[m] = k
            m += 1
            k = islot_old[_NEXT, k]
    else:
        for k in range(s_old):
            if islot_old[_POS, k] >= 0:
                ipos[_SLOT, islot_old[_POS, k]] = -1
    for k in range(s_new):
        if islot_new[_POS, k] < 0 and (new_stride >= old_stride or k >= s_old):
            order[m] = k
            m += 1
    prev = s_new  # the ring through the sentinel s_new, in ``order``
    for q in range(s_new):
        islot_new[_PREV, order[q]] = prev
        islot_new[_NEXT, prev] = order[q]
        prev = order[q]
    islot_new[_NEXT, prev] = s_new
    islot_new[_PREV, s_new] = prev


@njit(cache=True, nogil=True, inline="always")
def _axpy_from(G, y, c, K, start):
    """``G_t += y_t · c · K_t`` for t ≥ ``start``, over views indexed from 0: numba's loop over
    ``range(start, n)`` cannot prove its indices non-negative and is not vectorised."""
    g, yy, k = G[start:], y[start:], K[start:]
    for t in range(g.shape[0]):
        g[t] += yy[t] * c * k[t]


@njit(cache=True, nogil=True, inline="always")
def _add_row(Gbar, y, c, cached, rest, split):
    """``Ḡ_t += y_t · c · K_t`` over all n: K_t from the cached row below ``split``, from ``rest`` (the
    scratch row) above it."""
    for t in range(split):
        Gbar[t] += y[t] * c * cached[t]
    _axpy_from(Gbar, y, c, rest, split)


@njit(cache=True, nogil=True, inline="always")
def _swap(vec, ipos, islot, points, sq_norms, a, b):
    """Exchange positions a < b in every vector, the points and the slot map (the columns of the
    cached rows: :func:`_swap_columns`)."""
    for r in range(vec.shape[0]):
        vec[r, a], vec[r, b] = vec[r, b], vec[r, a]
    ipos[_ORIG, a], ipos[_ORIG, b] = ipos[_ORIG, b], ipos[_ORIG, a]
    sa, sb = ipos[_SLOT, a], ipos[_SLOT, b]
    ipos[_SLOT, a], ipos[_SLOT, b] = sb, sa
    if sa >= 0:
        islot[_POS, sa] = b
    if sb >= 0:
        islot[_POS, sb] = a
    for c in range(points.shape[1]):
        points[a, c], points[b, c] = points[b, c], points[a, c]
    sq_norms[a], sq_norms[b] = sq_norms[b], sq_norms[a]


@njit(cache=True, nogil=True, inline="always")
def _swap_columns(ipos, islot, data, swaps, m, n_active):
    """The swaps ``swaps[:m]`` (pairs a < b, in the order made) applied to the columns of every cached
    row of an active position, one row at a time (its columns stay in cache; a swap at a time over
    all rows would miss it at every row). A row that covers a but not b is cut to its first a
    columns (libsvm drops it); the swaps of a shrinking pass have nondecreasing a, so every later swap
    of that row is beyond its end. The rows of the positions just shrunk are dropped instead: a
    shrunk variable is at a bound and is not selected again before the gradient is reconstructed,
    which reads the rows of free variables only."""
    for k in range(islot.shape[1] - 1):
        pos = islot[_POS, k]
        if pos >= n_active:
            ipos[_SLOT, pos] = -1
            islot[_POS, k] = -1
            islot[_LEN, k] = 0
            _lru_move(islot, k, False)  # to the least recently used end: the next slot taken
            continue
        row = data[k]
        length = islot[_LEN, k]
        if length == 0:
            continue
        for q in range(m):
            a, b = swaps[q, 0], swaps[q, 1]
            if length > b:
                row[a], row[b] = row[b], row[a]
            elif length > a:
                length = a
                break
        islot[_LEN, k] = length


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH)
def _maxima(vec, n_active):
    """(max over I_up of −y_t G_t, max over I_low of y_t G_t) over the active positions: the maxima
    :func:`._smo._shrink` compares with, from the 0 / −∞ sets (a branch-free loop)."""
    y, G, ou, ol = vec[_Y], vec[_G], vec[_OU], vec[_OL]
    Gmax1 = -np.inf
    Gmax2 = -np.inf
    for t in range(n_active):
        v = y[t] * G[t]
        Gmax1 = max(Gmax1, ou[t] - v)
        Gmax2 = max(Gmax2, v + ol[t])
    return Gmax1, Gmax2


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH)
def _select_i(vec, keys, n_active):
    """WSS2's i over the active positions: the last t with the largest −y_t G_t over I_up, as
    :func:`._smo._select_all` finds it (order keys, a branch-free loop LLVM makes vector code);
    (−1, −∞) if I_up is empty."""
    a = _up_keys(vec[_OU], vec[_Y], vec[_G], keys, n_active)
    Gmax = _key_value(a)
    if Gmax == -np.inf:
        return -1, Gmax
    return _last_key(keys[:n_active], a), Gmax


@njit(cache=True, nogil=True, fastmath=_VECTOR_MATH)
def _select_j(vec, s, Ki, i, Gmax, keys, tol, n_active):
    """WSS2's j for the chosen i (second-order gain with K_it = Ki[t]) and the stopping test's Gmax2
    (max over I_low of y_t G_t), computed as :func:`._smo._select_all` does over the active
    positions: the same j and the same decision to stop as :func:`._smo._select`."""
    y, G, Kd, ol = vec[_Y], vec[_G], vec[_KD], vec[_OL]
    Kii = Kd[i]
    a = _NO_KEY
    for t in range(n_active):
        grad_diff = Gmax + (y[t] * G[t] + ol[t])
        quad = s * (Kii + Kd[t] - 2.0 * Ki[t])
        quad = quad if quad > 0.0 else TAU
        k = _key((grad_diff * grad_diff) / quad if grad_diff > 0.0 else -np.inf)
        keys[t] = k
        a = k if k > a else a
    j = -1 if _key_value(a) == -np.inf else _last_key(keys[:n_active], a)
    if j >= 0:
        v = y[j] * G[j]
        if Gmax + v >= tol:  # not converged, whatever Gmax2 is
            return j, v
    a = _NO_KEY
    for t in range(n_active):
        k = _key(y[t] * G[t] + ol[t])
        a = k if k > a else a
    return j, _key_value(a)


@njit(cache=True, nogil=True, inline="always")
def _pair_update(y, C, alpha, G, i, j, quad):
    """The new (α_i, α_j) of libsvm's analytic two-variable step, clipped to the box and snapped to
    the bounds (``BOUND_SNAP``); α itself unchanged."""
    ai, aj = alpha[i], alpha[j]
    Ci, Cj = C[i], C[j]
    if y[i] != y[j]:
        delta = (-G[i] - G[j]) / quad
        diff = ai - aj
        ai += delta
        aj += delta
        if diff > 0.0:
            if aj < 0.0:
                aj = 0.0
                ai = diff
        else:
            if ai < 0.0:
                ai = 0.0
                aj = -diff
        if diff > Ci - Cj:
            if ai > Ci:
                ai = Ci
                aj = Ci - diff
        else:
            if aj > Cj:
                aj = Cj
                ai = Cj + diff
    else:
        delta = (G[i] - G[j]) / quad
        total = ai + aj
        ai -= delta
        aj += delta
        if total > Ci:
            if ai > Ci:
                ai = Ci
                aj = total - Ci
        else:
            if aj < 0.0:
                aj = 0.0
                ai = total
        if total > Cj:
            if aj > Cj:
                aj = Cj
                ai = total - Cj
        else:
            if ai < 0.0:
                ai = 0.0
                aj = total
    return _snap(ai, Ci), _snap(aj, Cj)


@njit(cache=True, nogil=True, inline="always")
def _start_recon(st, resume):
    """Begin the reconstruction of the inactive gradient; continue at phase ``resume`` after it."""
    st[_PHASE] = _PH_RECON
    st[_RESUME] = resume
    st[_RECON] = -1


@njit(cache=True, nogil=True, inline="always")
def _recon_by(ipos, islot, st, alpha, C, n, stride):
    """The reconstruction that computes fewer kernel entries (or the one ``st[_RECON_RULE]`` forces):
    the free variables' rows need their columns not yet cached (their inactive columns when the
    rows are shorter than n), the inactive points' rows ``na · (n − na)`` entries."""
    if st[_RECON_RULE] != _RULE_FEWER_ENTRIES:
        return st[_RECON_RULE]
    na = st[_NACT]
    by_free = 0
    for j in range(na):
        if 0.0 < alpha[j] < C[j]:
            k = ipos[_SLOT, j]
            if stride < n:
                by_free += n - na
            else:
                by_free += n - (islot[_LEN, k] if k >= 0 else 0)
    return _BY_INACTIVE_ROWS if na * (n - na) < by_free else _BY_FREE_ROWS


@njit(cache=True, nogil=True, inline="always")
def _recon(vec, ipos, islot, st, fs, data, scratch):
    """G_k = Ḡ_k + p_k + Σ_{free j} α_j Q_kj for the inactive k, one free j's row at a time (its full
    row in the cache, or its inactive columns in a scratch row when the rows are shorter than n) or
    one inactive k's row over the active columns at a time (a scratch row) (:func:`_recon_by`;
    ``st[_RECON]``: the last position done, so a stop for a row resumes where it was). Returns False
    when it must stop for a row."""
    y, C, p, alpha, G, Gbar = vec[_Y], vec[_C], vec[_P], vec[_A], vec[_G], vec[_GBAR]
    n = y.shape[0]
    na = st[_NACT]
    s = fs[_S]
    stride = data.shape[1]
    if st[_RECON] < 0:
        g, gbar, pp = G[na:], Gbar[na:], p[na:]  # views indexed from 0 (see _axpy_from)
        for k in range(g.shape[0]):
            g[k] = gbar[k] + pp[k]
        st[_RECON_BY] = _recon_by(ipos, islot, st, alpha, C, n, stride)
        st[_RECON] = 0 if st[_RECON_BY] == _BY_FREE_ROWS else na
        _forget_scratch(st)
    if st[_RECON_BY] == _BY_FREE_ROWS:
        for j in range(st[_RECON], na):
            if 0.0 < alpha[j] < C[j]:
                if stride < n:
                    if not _scratch_holds(st, 0, j, na, n):
                        st[_RECON] = j
                        return False
                    Kj = scratch[0]
                else:
                    k = _get_row(ipos, islot, st, j, n, stride)
                    if k < 0:
                        st[_RECON] = j
                        return False
                    Kj = data[k]
                _axpy_from(G, y, s * y[j] * alpha[j], Kj, na)
    else:
        for t in range(st[_RECON], n):
            if not _scratch_holds(st, 0, t, 0, na):
                st[_RECON] = t
                return False
            Kt = scratch[0]
            g = G[t]
            for j in range(na):
                if 0.0 < alpha[j] < C[j]:
                    c = s * y[j] * alpha[j]
                    g += y[t] * c * Kt[j]
            G[t] = g
    _forget_scratch(st)
    st[_RECON] = na
    st[_NACT] = n
    st[_PHASE] = st[_RESUME]
    return True


@njit(cache=True, nogil=True, inline="always")
def _shrink_pass(vec, ipos, islot, points, sq_norms, data, st, Gmax1, Gmax2):
    """Move every active variable that :func:`._smo._be_shrunk` says cannot move to the end of the
    active positions (the swap-with-the-last of :func:`._smo._shrink`)."""
    y, C, alpha, G = vec[_Y], vec[_C], vec[_A], vec[_G]
    na = st[_NACT]
    swaps = np.empty((na, 2), dtype=np.int64)
    m = 0
    k = 0
    while k < na:
        if _be_shrunk(k, y, C, alpha, G, Gmax1, Gmax2):
            na -= 1
            if k != na:
                _swap(vec, ipos, islot, points, sq_norms, k, na)
                swaps[m, 0] = k
                swaps[m, 1] = na
                m += 1
        else:
            k += 1
    if m:
        _swap_columns(ipos, islot, data, swaps, m, na)
        _forget_scratch(st)
    st[_NACT] = na


@njit(cache=True, nogil=True)
def _run(vec, ipos, islot, st, fs, points, sq_norms, data, scratch, keys):
    """SMO with shrinking on cached rows, from the state in the arrays, until it is done (``RUN_DONE``)
    or needs a row it does not hold or a new stride (``NEED_ROW``; see :func:`solve_rows`)."""
    y, C, alpha, G, Gbar = vec[_Y], vec[_C], vec[_A], vec[_G], vec[_GBAR]
    n = y.shape[0]
    s = fs[_S]
    tol = fs[_TOL]
    stride = data.shape[1]
    need = st[_NEED_SLOT]
    if need >= 0:  # the cached row asked for has been filled
        islot[_LEN, need] = st[_NEED_TO]
    elif need == NEED_SCRATCH0:
        st[_SCR_POS0] = st[_NEED_POS]
        st[_SCR_FROM0] = st[_NEED_FROM]
    elif need == NEED_SCRATCH1:
        st[_SCR_POS1] = st[_NEED_POS]
        st[_SCR_FROM1] = st[_NEED_FROM]
    st[_NEED_SLOT] = -1
    while True:
        phase = st[_PHASE]
        if phase == _PH_DONE:
            return RUN_DONE
        if phase == _PH_RECON:
            if not _recon(vec, ipos, islot, st, fs, data, scratch):
                return NEED_ROW
            continue
        if phase == _PH_SHRINK:
            _shrink_pass(vec, ipos, islot, points, sq_norms, data, st, fs[_GMAX1], fs[_GMAX2])
            st[_PHASE] = _PH_STEP
            na = st[_NACT]
            shorter = max(na, MIN_STRIDE)
            if data.shape[0] < n and shorter <= RESTRIDE_BELOW * stride:  # more, shorter rows
                st[_NEED_SLOT] = NEED_STRIDE
                st[_NEED_TO] = shorter
                return NEED_ROW
            continue
        na = st[_NACT]
        if phase == _PH_TOP:
            if st[_IT] >= st[_MAX_ITER]:
                st[_STATUS] = STATUS_MAX_ITER
                if na < n:
                    _start_recon(st, _PH_DONE)
                else:
                    st[_PHASE] = _PH_DONE
                continue
            st[_PHASE] = _PH_STEP
            if st[_SHRINKING]:
                st[_COUNTER] -= 1
                if st[_COUNTER] == 0:
                    st[_COUNTER] = min(n, 1000)
                    Gmax1, Gmax2 = _maxima(vec, na)
                    fs[_GMAX1] = Gmax1
                    fs[_GMAX2] = Gmax2
                    st[_PHASE] = _PH_SHRINK
                    if st[_UNSHRUNK] == 0 and Gmax1 + Gmax2 <= tol * 10.0:
                        st[_UNSHRUNK] = 1
                        if na < n:
                            _start_recon(st, _PH_SHRINK)
            continue
        # _PH_STEP
        i, Gmax = _select_i(vec, keys, na)
        j = -1
        Gmax2 = -np.inf
        ki = -1
        if i >= 0:
            ki = _get_row(ipos, islot, st, i, na, stride)
            if ki < 0:
                return NEED_ROW
            j, Gmax2 = _select_j(vec, s, data[ki], i, Gmax, keys, tol, na)
        if j < 0 or Gmax + Gmax2 < tol:
            if na < n:  # the final check is on the whole problem
                st[_COUNTER] = 1
                _start_recon(st, _PH_STEP)
            else:
                st[_STATUS] = STATUS_CONVERGED
                st[_PHASE] = _PH_DONE
            continue
        kj = _get_row(ipos, islot, st, j, na, stride)
        if kj < 0:
            return NEED_ROW
        quad = s * (vec[_KD, i] + vec[_KD, j] - 2.0 * data[ki, j])
        if quad <= 0.0:
            quad = TAU
        ai, aj = _pair_update(y, C, alpha, G, i, j, quad)
        # Ḡ (read by the reconstruction after shrinking only) changes with a variable that reaches or
        # leaves its upper bound: its full row first (the cached row extended, or its inactive
        # columns in a scratch row when the rows are shorter than n)
        up_i = st[_SHRINKING] != 0 and (alpha[i] >= C[i]) != (ai >= C[i])
        up_j = st[_SHRINKING] != 0 and (alpha[j] >= C[j]) != (aj >= C[j])
        if stride < n:
            if up_i and not _scratch_holds(st, 0, i, na, n):
                return NEED_ROW
            if up_j and not _scratch_holds(st, 1, j, na, n):
                return NEED_ROW
        else:
            if up_i and _get_row(ipos, islot, st, i, n, stride) < 0:
                return NEED_ROW
            if up_j and _get_row(ipos, islot, st, j, n, stride) < 0:
                return NEED_ROW
        Ki, Kj = data[ki], data[kj]
        dai = (ai - alpha[i]) * y[i] * s
        daj = (aj - alpha[j]) * y[j] * s
        for t in range(na):
            G[t] += y[t] * (Ki[t] * dai + Kj[t] * daj)
        if up_i:
            c = (C[i] if ai >= C[i] else -C[i]) * y[i] * s
            _add_row(Gbar, y, c, Ki, scratch[0], na if stride < n else n)
        if up_j:
            c = (C[j] if aj >= C[j] else -C[j]) * y[j] * s
            _add_row(Gbar, y, c, Kj, scratch[1], na if stride < n else n)
        alpha[i] = ai
        alpha[j] = aj
        _set_sets(i, y, C, alpha, vec[_OU], vec[_OL])
        _set_sets(j, y, C, alpha, vec[_OU], vec[_OL])
        st[_IT] += 1
        st[_PHASE] = _PH_TOP


def _empty_slots(slots):
    """The slot table of an empty cache: every slot free, in one LRU ring through the sentinel
    ``slots`` (slot 0 most recent)."""
    islot = np.empty((4, slots + 1), dtype=np.int64)
    islot[_POS] = -1
    islot[_LEN] = 0
    order = np.arange(slots + 1)
    islot[_NEXT] = np.roll(order, -1)
    islot[_PREV] = np.roll(order, 1)
    return islot


def cache_slots(n: int, cache_size: float) -> int:
    """Rows of n float64 that ``cache_size`` MB hold (at least :data:`MIN_SLOTS`, at most n)."""
    return int(min(n, max(MIN_SLOTS, cache_size * 2**20 // (8 * max(n, 1)))))


def solve_rows(rows: GramRows, y, s, p, C, tol, max_iter, shrinking, cache_size, recon="fewer entries"):
    """Solve the dual from α = 0 on the rows of ``rows`` (a :class:`~svmviz.kernels.GramRows`, whose
    points this permutes), with a cache of ``cache_size`` MB (and two scratch rows).

    ``recon`` (a key of :data:`RECON_RULES`) chooses how unshrinking reconstructs the gradient: by
    the rows that need fewer kernel entries (the solver's rule), or always by the free variables'
    rows or the inactive points' rows (the same gradient up to rounding; for the tests).

    Returns (alpha, b, G, n_iter, status) in the caller's order, as :func:`._smo.solve_dual`; the
    training decision values are ``f_i = y_i (G_i − p_i) + b``. Arguments as validated by
    :func:`svmviz.svm.solve_dual_rows`.
    """
    n = y.shape[0]
    slots = cache_slots(n, cache_size)
    vec = np.empty((_N_VEC, n))
    vec[_Y] = y
    vec[_C] = C
    vec[_P] = p
    vec[_A] = 0.0
    vec[_G] = p
    vec[_GBAR] = 0.0
    vec[_KD] = rows.diagonal
    vec[_OU] = 0.0  # α = 0: every y = +1 in I_up, every y = −1 in I_low
    vec[_OU, y < 0] = -np.inf
    vec[_OL] = 0.0
    vec[_OL, y > 0] = -np.inf
    ipos = np.empty((2, n), dtype=np.int64)
    ipos[_ORIG] = np.arange(n)
    ipos[_SLOT] = -1
    islot = _empty_slots(slots)
    st = np.zeros(_N_ST, dtype=np.int64)
    st[_COUNTER] = min(n, 1000) + 1
    st[_NACT] = n
    st[_PHASE] = _PH_TOP
    st[_NEED_SLOT] = -1
    st[_STATUS] = STATUS_MAX_ITER
    st[_MAX_ITER] = max_iter
    st[_SHRINKING] = bool(shrinking)
    st[_RECON_RULE] = RECON_RULES[recon]
    st[_SCR_POS0] = st[_SCR_POS1] = -1
    fs = np.zeros(_N_FS)
    fs[_S] = s
    fs[_TOL] = tol
    memory = empty_in_small_pages(slots * n)  # the cache: rows of the stride, n at first (why small pages: _pages)
    data = memory.reshape(slots, n)
    scratch = np.empty((2, n))
    points, sq_norms = rows.points, rows.sq_norms
    keys = np.empty(n, dtype=np.int64)
    while _run(vec, ipos, islot, st, fs, points, sq_norms, data, scratch, keys) == NEED_ROW:
        k, a, b = int(st[_NEED_SLOT]), int(st[_NEED_FROM]), int(st[_NEED_TO])
        if k == NEED_STRIDE:
            stride = b
            slots = min(n, memory.size // stride)
            new = memory[:slots * stride].reshape(slots, stride)
            islot_new = np.empty((4, slots + 1), dtype=np.int64)
            _restride(data, new, islot, islot_new, ipos)
            data, islot = new, islot_new
        else:
            out = data[k] if k >= 0 else scratch[0 if k == NEED_SCRATCH0 else 1]
            rows.row(int(st[_NEED_POS]), a, b, out[a:b])
    b = _intercept(vec[_Y], vec[_C], vec[_A], vec[_G])
    orig = ipos[_ORIG]
    alpha = np.empty(n)
    G = np.empty(n)
    alpha[orig] = vec[_A]
    G[orig] = vec[_G]
    return alpha, b, G, int(st[_IT]), int(st[_STATUS])
