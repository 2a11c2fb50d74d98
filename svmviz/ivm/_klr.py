"""The compiled solver of kernel logistic regression (KLR) and the Import Vector Machine.

Zhu & Hastie 2002. Everything here works on C-contiguous float64 arrays and returns a
status code; :mod:`svmviz.ivm` validates input and wraps these functions. The IVM's greedy loop
(:func:`_ivm_fit`) is plain Python over the compiled functions of one step.

Model (binary and multi-class alike, M = number of non-base classes, M = 1 for binary):
``F = Phi @ theta`` with ``Phi = [1, K[:, S]]`` (the intercept column only when ``icpt``) and
``theta`` of shape (p, M); class probabilities ``P_j = exp(F_j) / (1 + sum_k exp(F_k))`` for the M
non-base classes, the base class gets ``1 / (1 + sum_k exp(F_k))``. The regularised negative
log-likelihood is (Zhu & Hastie 2002, eqs. 4 and 9)

    H = sum_i [ -y_i' f_i + ln(1 + sum_j exp(f_ij)) ] + 1/2 sum_j theta_j' Pen theta_j

with ``Pen = lam * blockdiag(0, K[S, S])`` (the intercept is not penalised). Y is the (N, M) 0/1
indicator of the non-base classes.

Status codes
------------
0  OK: the stopping rule (Zhu & Hastie 2002, §3.3) was met, or Newton converged, or every point is imported.
1  ``max_import`` reached before the stopping rule was met.
2  a Newton solve hit its iteration limit.
3  numerical failure (Hessian not positive definite even after jitter, or line search failure).
"""
from __future__ import annotations

import numpy as np

from .._blas import one_blas_thread
from .._jit import njit  # numba.njit whose cache follows the functions called in other modules
from .._linalg import chol_solve as _chol_solve, cholesky as _cholesky, column as _column
from .._linalg import lu_solve as _lu_solve, mm as _mm

OK = 0
MAX_IMPORT = 1
NEWTON_MAXITER = 2
NUMERICAL = 3

METHOD_ONESTEP = 0  # (B2*) one Newton step from the current fit for every candidate
METHOD_FULL = 1     # (B2)  a full Newton solve for every candidate


#: "no sample weights" for :func:`_loss_probs` (every s_i = 1)
_UNWEIGHTED = np.ones(0)


# --------------------------------------------------------------------------- objective pieces
@njit(cache=True)
def _loss_probs(F, Y, P, S):
    """Multi-logit negative log-likelihood sum_i s_i [-y_i'f_i + ln(1 + sum_j e^{f_ij})]; fills P.

    ``S`` holds the sample weights s_i (N,), or nothing (:data:`_UNWEIGHTED`: every s_i = 1)."""
    N, M = F.shape
    weighted = S.shape[0] > 0
    tot = 0.0
    for i in range(N):
        mx = 0.0
        for j in range(M):
            if F[i, j] > mx:
                mx = F[i, j]
        s = np.exp(-mx)
        for j in range(M):
            s += np.exp(F[i, j] - mx)
        yf = 0.0
        for j in range(M):
            P[i, j] = np.exp(F[i, j] - mx) / s
            yf += Y[i, j] * F[i, j]
        tot += (S[i] if weighted else 1.0) * (mx + np.log(s) - yf)
    return tot


@njit(cache=True)
def _loss_only_T(FT, YT, S):
    """The (``S``-weighted, as in :func:`_loss_probs`) negative log-likelihood of :func:`_loss_probs` for class-major (M, N) arrays, without the
    probabilities: the (B2*) score of every candidate (:func:`_scores_onestep`) evaluates it on
    contiguous class-major rows and needs no P. Deliberately a second loop of the same shape as
    :func:`_loss_probs` (which writes P, sample-major): one routine would transpose or branch in the
    innermost loop of the candidate scores."""
    M, N = FT.shape
    weighted = S.shape[0] > 0
    tot = 0.0
    if M == 1:  # binary: ln(1 + e^f) - y f = max(f, 0) + ln1p(e^{-|f|}) - y f
        for i in range(N):
            f = FT[0, i]
            tot += (S[i] if weighted else 1.0) * (max(f, 0.0) + np.log1p(np.exp(-abs(f))) - YT[0, i] * f)
        return tot
    for i in range(N):
        mx = 0.0
        for j in range(M):
            if FT[j, i] > mx:
                mx = FT[j, i]
        s = np.exp(-mx)
        yf = 0.0
        for j in range(M):
            s += np.exp(FT[j, i] - mx)
            yf += YT[j, i] * FT[j, i]
        tot += (S[i] if weighted else 1.0) * (mx + np.log(s) - yf)
    return tot


@njit(cache=True)
def _penalty(Pen, theta):
    p, M = theta.shape
    tot = 0.0
    for j in range(M):
        for r in range(p):
            t = 0.0
            for s in range(p):
                t += Pen[r, s] * theta[s, j]
            tot += theta[r, j] * t
    return 0.5 * tot


def _build_phi(K, idx, icpt):
    """Φ = [1, K[:, S]] (N, p), C-contiguous (the intercept column only when ``icpt``). numpy, not a
    compiled function: an O(N q) copy per greedy step, called from Python (one compilation less)."""
    cols = K[:, idx]
    if icpt:
        return np.ascontiguousarray(np.concatenate([np.ones((K.shape[0], 1)), cols], axis=1))
    return np.ascontiguousarray(cols)


def _build_pen(K, idx, icpt, lam):
    """The penalty matrix λ blockdiag(0, K[S, S]) (p, p), C-contiguous."""
    off = 1 if icpt else 0
    q = idx.shape[0]
    Pen = np.zeros((q + off, q + off))
    Pen[off:, off:] = lam * K[np.ix_(idx, idx)]
    return Pen


@njit(cache=True)
def _gradient(Phi, Pen, Y, P, theta):
    """Gradient, flattened class-major: index j * p + r."""
    N, p = Phi.shape
    M = Y.shape[1]
    G = np.zeros(M * p)
    for j in range(M):
        for r in range(p):
            t = 0.0
            for s in range(p):
                t += Pen[r, s] * theta[s, j]
            G[j * p + r] = t
        for i in range(N):
            e = P[i, j] - Y[i, j]
            if e != 0.0:
                for r in range(p):
                    G[j * p + r] += Phi[i, r] * e
    return G


@njit(cache=True)
def _hessian(Phi, PhiT, Pen, P):
    """Hessian blocks Phi' diag(P_j (delta_jk - P_k)) Phi + delta_jk Pen, class-major (``PhiT`` is not
    used: any C-contiguous 2-D float64 array, e.g. Φ itself).

    Each block Φ' diag(w) Φ is one matrix product (numpy's ``dot``, BLAS): (p × N)(N × p) with p = |S|
    + 1 of a few dozen and N in the hundreds, a product BLAS runs several times faster than loops."""
    N, p = Phi.shape
    M = P.shape[1]
    Hs = np.zeros((M * p, M * p))
    if p == 0:
        return Hs
    WPhiT = np.empty((p, N))  # (diag(w) Φ)'
    for j in range(M):
        for k in range(j, M):
            for i in range(N):
                w = P[i, j] * ((1.0 if j == k else 0.0) - P[i, k])
                for r in range(p):
                    WPhiT[r, i] = w * Phi[i, r]
            Bk = np.dot(WPhiT, Phi)  # Φ' diag(w) Φ (p, p)
            for r in range(p):
                for s in range(r, p):
                    v = Bk[r, s]
                    Hs[j * p + r, k * p + s] = v + (Pen[r, s] if j == k else 0.0)
                    Hs[j * p + s, k * p + r] = v + (Pen[s, r] if j == k else 0.0)
                    Hs[k * p + s, j * p + r] = Hs[j * p + r, k * p + s]
                    Hs[k * p + r, j * p + s] = Hs[j * p + s, k * p + r]
    return Hs


# --------------------------------------------------------------------------- Newton / WLS (Zhu & Hastie 2002, eq. 5)
@njit(cache=True)
def _newton_fit(Phi, Pen, Y, theta, tol, max_iter, finish, S):
    """Damped Newton (the weighted least squares step (Zhu & Hastie 2002, eq. 5)) for the sub-model; theta in place.

    ``S``: the sample weights s_i of the loss Σ_i s_i ℓ_i, or :data:`_UNWEIGHTED` (every s_i = 1, the
    paper's H). The gradient and Hessian take them through the rows √s_i φ_i (Φ'diag(s w)Φ =
    (√s Φ)' diag(w) (√s Φ)).

    Converged when the Newton decrement g'H^{-1}g <= tol * max(1, |H|) (the last step is taken).
    With ``finish`` it also returns what the (B2*) scores of the next greedy step start from, at the
    final θ: the fitted logits F = Φθ, the gradient G (M p,) and the lower Cholesky factor Lh of the
    Hessian (``chol_status`` ≠ 0: it has none); without, F, G and Lh are empty. One compiled function
    for both: a second one around it would optimise and emit this one's code again at its first
    compilation.

    Returns ``(status, H, n_iter, F, P, G, Lh, chol_status)``; P (N, M) the probabilities at θ.
    """
    N, p = Phi.shape
    M = Y.shape[1]
    weighted = S.shape[0] > 0
    Phs = Phi  # √s_i φ_i
    rs = np.ones(N)
    if weighted:
        Phs = np.empty((N, p))
        for i in range(N):
            rs[i] = np.sqrt(S[i])
            for r in range(p):
                Phs[i, r] = rs[i] * Phi[i, r]
    Ys = np.empty((N, M))  # √s_i y_i and √s_i p_i: the gradient Σ s_i (p_i − y_i) φ_i on the rows of Phs
    Ps = np.empty((N, M))
    for i in range(N):
        for j in range(M):
            Ys[i, j] = rs[i] * Y[i, j]
    P = np.empty((N, M))
    F = _mm(Phi, theta)
    H = _loss_probs(F, Y, P, S) + _penalty(Pen, theta)
    status = OK
    n_iter = 0
    if p > 0:
        theta_new = np.empty((p, M))
        P_new = np.empty((N, M))
        status = NEWTON_MAXITER
        n_iter = max_iter
        for it in range(max_iter):
            for i in range(N):
                for j in range(M):
                    Ps[i, j] = rs[i] * P[i, j]
            G = _gradient(Phs, Pen, Ys, Ps, theta)
            L, st = _cholesky(_hessian(Phs, Phs, Pen, P))
            if st != 0:
                status, n_iter = NUMERICAL, it
                break
            d = _chol_solve(L, _column(G))  # (M p, 1)
            dec = 0.0
            for t in range(M * p):
                dec += G[t] * d[t, 0]
            scale = max(1.0, abs(H))
            if dec <= tol * scale:
                for j in range(M):
                    for r in range(p):
                        theta[r, j] -= d[j * p + r, 0]
                F = _mm(Phi, theta)
                H = _loss_probs(F, Y, P, S) + _penalty(Pen, theta)
                status, n_iter = OK, it + 1
                break
            step = 1.0
            accepted = False
            for ls in range(50):
                for j in range(M):
                    for r in range(p):
                        theta_new[r, j] = theta[r, j] - step * d[j * p + r, 0]
                F = _mm(Phi, theta_new)
                H_new = _loss_probs(F, Y, P_new, S) + _penalty(Pen, theta_new)
                if H_new <= H - 1e-4 * step * dec:
                    accepted = True
                    break
                step *= 0.5
            if not accepted:
                # no decrease possible: at rounding level this is convergence, otherwise failure
                status, n_iter = (OK if dec <= 1e-8 * scale else NUMERICAL), it + 1
                break
            for r in range(p):  # element loops, not slice assignments (compile time)
                for j in range(M):
                    theta[r, j] = theta_new[r, j]
            P, P_new = P_new, P
            H = H_new
    if not finish:
        return status, H, n_iter, np.empty((0, M)), P, np.empty(0), np.empty((0, 0)), 0
    F = _mm(Phi, theta)
    _loss_probs(F, Y, P, S)
    for i in range(N):
        for j in range(M):
            Ps[i, j] = rs[i] * P[i, j]
    G = _gradient(Phs, Pen, Ys, Ps, theta)
    Lh, stc = _cholesky(_hessian(Phs, Phs, Pen, P))  # p = 0: empty, status 0
    return status, H, n_iter, F, P, G, Lh, stc


def _newton(Phi, Pen, Y, theta, tol, max_iter, S=_UNWEIGHTED):
    """:func:`_newton_fit` without the next step's state: ``(status, H, n_iter)``."""
    st, H, it, _, _, _, _, _ = _newton_fit(Phi, Pen, Y, theta, float(tol), int(max_iter), False, S)
    return st, H, it


@njit(cache=True)
def _klr_full(K, Y, lam, icpt, theta0, tol, max_iter, Sw):
    """Full KLR (S = all points) by Newton in a well-conditioned form.

    With f_j = K a_j + b_j the Newton equations are premultiplied by blockdiag(K^{-1}, 1):
    rows for a_j:  sum_k (W_jk K da_k + W_jk 1 db_k) + lam da_j = -(D(p_j - y_j) + lam a_j),
    rows for b_j:  sum_k (1'W_jk K da_k + 1'W_jk 1 db_k)       = -1'D(p_j - y_j),
    which never forms K^{-1} and whose matrix has eigenvalues bounded below by ~lam. D = diag(Sw)
    holds the sample weights of the loss Σ_i s_i ℓ_i (all 1: Zhu & Hastie 2002, eq. 4), and W_jk
    carries them too. theta0/theta: (N + icpt, M), intercept first. Returns ``(status, theta, H, n_iter)``.
    """
    N = K.shape[0]
    M = Y.shape[1]
    off = 1 if icpt else 0
    p = N + off
    theta = theta0.copy()
    A = np.empty((N, M))  # element loops, not np.ascontiguousarray of a slice (one compilation less)
    for i in range(N):
        for j in range(M):
            A[i, j] = theta[off + i, j]
    F = _mm(K, A)
    if icpt:
        for i in range(N):
            for j in range(M):
                F[i, j] += theta[0, j]
    P = np.empty((N, M))
    Pn = np.empty((N, M))
    H = _loss_probs(F, Y, P, Sw)
    pen = 0.0
    KA = _mm(K, A)
    for j in range(M):
        for i in range(N):
            pen += A[i, j] * KA[i, j]
    H += 0.5 * lam * pen
    sz = M * p
    for it in range(max_iter):
        Sys = np.zeros((sz, sz))
        rhs = np.zeros(sz)
        for j in range(M):
            for i in range(N):
                rhs[j * p + off + i] = -(Sw[i] * (P[i, j] - Y[i, j]) + lam * A[i, j])
            if icpt:
                t = 0.0
                for i in range(N):
                    t += Sw[i] * (P[i, j] - Y[i, j])
                rhs[j * p] = -t
            for k in range(M):
                for i in range(N):
                    w = Sw[i] * P[i, j] * ((1.0 if j == k else 0.0) - P[i, k])
                    row = j * p + off + i
                    for l in range(N):
                        Sys[row, k * p + off + l] = w * K[i, l]
                    if icpt:
                        Sys[row, k * p] = w
                if icpt:
                    # 1' W_jk K  and  1' W_jk 1
                    s1 = 0.0
                    for i in range(N):
                        w = Sw[i] * P[i, j] * ((1.0 if j == k else 0.0) - P[i, k])
                        s1 += w
                        for l in range(N):
                            Sys[j * p, k * p + off + l] += w * K[i, l]
                    Sys[j * p, k * p] = s1
            for i in range(N):
                Sys[j * p + off + i, j * p + off + i] += lam
        d, st = _lu_solve(Sys, rhs)  # Sys is rebuilt at every iteration: overwritten by its factors
        if st != 0:
            return NUMERICAL, theta, H, it
        for t in range(sz):
            if not np.isfinite(d[t]):
                return NUMERICAL, theta, H, it
        # directional derivative g'd with the true gradient g = [K r_j ; 1'(p_j - y_j)]
        Dm = np.empty((N, M))
        for j in range(M):
            for i in range(N):
                Dm[i, j] = d[j * p + off + i]
        KD = _mm(K, Dm)
        gd = 0.0
        for j in range(M):
            for i in range(N):
                gd -= KD[i, j] * rhs[j * p + off + i]
            if icpt:
                gd -= d[j * p] * rhs[j * p]
        dec = -gd
        scale = max(1.0, abs(H))
        step = 1.0
        accepted = False
        An = np.empty((N, M))
        bn = np.zeros(M)
        Hn = H
        for ls in range(50):
            for j in range(M):
                for i in range(N):
                    An[i, j] = A[i, j] + step * Dm[i, j]
                if icpt:
                    bn[j] = theta[0, j] + step * d[j * p]
            KAn = _mm(K, An)
            pen = 0.0
            for j in range(M):
                for i in range(N):
                    pen += An[i, j] * KAn[i, j]
                    F[i, j] = KAn[i, j] + bn[j]
            Hn = _loss_probs(F, Y, Pn, Sw) + 0.5 * lam * pen
            if Hn <= H - 1e-4 * step * dec or dec <= tol * scale:
                accepted = True
                break
            step *= 0.5
        if not accepted:
            if dec <= 1e-8 * scale:
                return OK, theta, H, it + 1
            return NUMERICAL, theta, H, it + 1
        for j in range(M):
            if icpt:
                theta[0, j] = bn[j]
            for i in range(N):
                A[i, j] = An[i, j]
                theta[off + i, j] = An[i, j]
        P, Pn = Pn, P
        H = Hn
        if dec <= tol * scale:
            return OK, theta, H, it + 1
    return NEWTON_MAXITER, theta, H, max_iter


# --------------------------------------------------------------------------- candidate scores
@njit(cache=True)
def _argsort_stable(x, sort):
    """With ``sort``, the indices that sort ``x`` (1-D float64) ascending, equal values in their order in
    ``x`` and NaN last: ``np.argsort(x, kind="stable")``; without, ``0 … len(x) − 1``.

    A bottom-up merge sort: numba's ``np.argsort(kind="mergesort")`` compiles its generic recursive
    sort with the scores, about a second of CPU more at their first compilation."""
    n = x.shape[0]
    a = np.empty(n, dtype=np.int64)
    for k in range(n):
        a[k] = k
    if not sort:
        return a
    b = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            for k in range(lo, hi):
                take_right = False
                if j < hi:
                    if i >= mid:
                        take_right = True
                    else:
                        xl = x[a[i]]
                        xr = x[a[j]]
                        take_right = xr < xl or (xl != xl and xr == xr)  # strictly before (NaN last)
                if take_right:
                    b[k] = a[j]
                    j += 1
                else:
                    b[k] = a[i]
                    i += 1
        a, b = b, a
        width *= 2
    return a


@njit(cache=True)
def _scores_onestep(K, idx, cand, Phi, Pen, Y, theta, F, P, Lh, G, lam, icpt, chunk, S, prune):
    """(B2*) H(x_l) after one Newton / WLS step (Zhu & Hastie 2002, eq. 5) from the current fit, for every candidate.

    ``S``: the sample weights of the loss (as in :func:`_newton_fit`; ``G`` and ``Lh`` carry them).

    The current Hessian factor ``Lh`` is reused: each candidate borders the system with M rows and
    columns, solved through the M x M Schur complement, O(N q) per candidate (Zhu & Hastie 2002, §3.2).

    With ``prune`` only the candidates that can have the smallest H(x_l) are scored exactly. The loss
    ℓ(F) = Σ_i s_i [−y_i'f_i + ln(1 + Σ_j e^{f_ij})] is convex in F, so at the one-step logits
    F_l = F⁰ + Δ_l (F⁰ = F − Φu, the step without a new point, shared by all candidates) it lies above
    its tangent plane at F⁰: ℓ(F_l) ≥ ℓ(F⁰) + ⟨∇ℓ(F⁰), Δ_l⟩, and ⟨∇ℓ(F⁰), Δ_l⟩ costs O(M (N + p M))
    per candidate against O(M N p) for Δ_l itself and the M N exponentials of ℓ(F_l). Candidates are
    scored exactly in increasing order of that lower bound, until the bound (less a rounding margin)
    exceeds the smallest exact score found: no candidate left can reach it. An exact score is computed
    by the same operations as without ``prune``, so the smallest score and its candidate (the first
    one among ties) are those of the full scoring; a candidate left unscored holds its lower bound,
    which exceeds the smallest score.

    Returns ``(scores, best, theta_best)``: the scores (m,); ``best`` the index into ``cand`` of the
    smallest one (the first among ties; −1 when no candidate has a finite score); ``theta_best``
    (p + 1, M) its one-step parameters, the current ones first and the new point's last.
    """
    N, p = Phi.shape
    M = Y.shape[1]
    q = idx.shape[0]
    off = 1 if icpt else 0
    m = cand.shape[0]
    scores = np.empty(m)
    u = _chol_solve(Lh, _column(G))  # (M p, 1): the current Newton step
    umat = np.zeros((p, M))
    for j in range(M):
        for r in range(p):
            umat[r, j] = u[j * p + r, 0]
    Phi_u = _mm(Phi, umat)  # (N, M)
    weighted = S.shape[0] > 0
    PmY = np.empty((N, M))
    for i in range(N):
        for j in range(M):
            PmY[i, j] = (S[i] if weighted else 1.0) * (P[i, j] - Y[i, j])
    W = np.empty((M * M, N))  # W[j M + k] = s P_j (δ_jk − P_k): 2-D arrays only (compile time)
    for j in range(M):
        for k in range(M):
            for i in range(N):
                W[j * M + k, i] = (S[i] if weighted else 1.0) * P[i, j] * ((1.0 if j == k else 0.0) - P[i, k])
    PhiT = np.empty((p, N))  # Φ' by element loops, not np.ascontiguousarray(Phi.T) (one compilation less)
    for i in range(N):
        for r in range(p):
            PhiT[r, i] = Phi[i, r]
    # F - Phi u, class-major (M, N) so that the per-candidate loops run over contiguous memory
    F0T = np.empty((M, N))
    YT = np.empty((M, N))
    for j in range(M):
        for i in range(N):
            F0T[j, i] = F[i, j] - Phi_u[i, j]
            YT[j, i] = Y[i, j]
    # the tangent plane of the loss at F⁰: ℓ(F⁰) and ∇ℓ(F⁰) = s (P⁰ − Y) (N, M), and Φ'∇ℓ(F⁰) (p, M)
    F0 = np.empty((N, M))
    for i in range(N):
        for j in range(M):
            F0[i, j] = F0T[j, i]
    P0 = np.empty((N, M))
    loss0 = _loss_probs(F0, Y, P0, S) if prune else 0.0
    G0 = np.empty((N, M))
    for i in range(N):
        for j in range(M):
            G0[i, j] = (S[i] if weighted else 1.0) * (P0[i, j] - Y[i, j]) if prune else 0.0
    PhiG0 = _mm(PhiT, G0)  # (p, M)
    PmYG0 = np.empty((N, 2 * M))  # [s(P − Y), ∇ℓ(F⁰)]: both multiply every candidate's column of K
    WN = np.empty((N, M * M))  # W', point-major
    for i in range(N):
        for j in range(M):
            PmYG0[i, j] = PmY[i, j]
            PmYG0[i, M + j] = G0[i, j]
        for jk in range(M * M):
            WN[i, jk] = W[jk, i]
    # the rounding margin taken off every bound: ℓ(F⁰) and an exact score's loss are sums of N
    # non-negative terms (each ln(1 + Σ_j e^{f_j}) − y'f ≥ 0), the tangent term a sum of products
    margin = 1e-9 * (abs(loss0) + N)
    # θ⁰ = θ − u, the step without a new point, and its penalty pieces Pen θ⁰ (p, M) and ½ Σ_j θ⁰_j'Pen θ⁰_j
    theta0 = np.empty((p, M))
    for j in range(M):
        for r in range(p):
            theta0[r, j] = theta[r, j] - u[j * p + r, 0]
    PenTh0 = _mm(Pen, theta0)
    pen0 = 0.0
    for j in range(M):
        for r in range(p):
            pen0 += 0.5 * theta0[r, j] * PenTh0[r, j]
    best = np.inf
    best_c = -1
    theta_best = np.zeros((p + 1, M))  # the one-step parameters of the best candidate, its own last
    FnT = np.empty((M, N))
    PhiU = np.empty(N)
    thn = np.empty((p, M))
    for c0 in range(0, m, chunk):
        c1 = min(m, c0 + chunk)
        mc = c1 - c0
        # candidate columns of K, stored as rows (K is symmetric): contiguous per candidate
        KRT = np.empty((mc, N))
        for c in range(mc):
            l = cand[c0 + c]
            for i in range(N):
                KRT[c, i] = K[l, i]
        B = np.zeros((M * p, mc * M))
        WKT = np.empty((mc, N))
        KRT2 = np.empty((mc, N))  # K_li²
        for c in range(mc):
            for i in range(N):
                KRT2[c, i] = KRT[c, i] * KRT[c, i]
        D = np.dot(KRT2, WN)  # (mc, M²): D[c, a M + b] = Σ_i W_ab,i K_li², then + λ K_ll on a = b
        for j in range(M):
            for k in range(j, M):
                for c in range(mc):
                    for i in range(N):
                        WKT[c, i] = W[j * M + k, i] * KRT[c, i]
                T = np.dot(WKT, Phi)  # (mc, p) = (Phi' W_jk K_R)': the scores' largest product, BLAS
                for c in range(mc):
                    for r in range(p):
                        B[j * p + r, c * M + k] = T[c, r]
                        B[k * p + r, c * M + j] = T[c, r]
            for c in range(mc):
                l = cand[c0 + c]
                for s in range(q):
                    B[j * p + off + s, c * M + j] += lam * K[idx[s], l]
                D[c, j * M + j] += lam * K[l, l]
        KR = np.dot(KRT, PmYG0)  # (mc, 2M): K_l's(P − Y), then K_l'∇ℓ(F⁰) (the tangent plane along the new column)
        gnew = np.empty((mc, M))
        KG0 = np.empty((mc, M))
        for c in range(mc):
            l = cand[c0 + c]
            for j in range(M):
                gnew[c, j] = KR[c, j]
                KG0[c, j] = KR[c, M + j]
                t = 0.0
                for s in range(q):
                    t += K[l, idx[s]] * theta[off + s, j]
                gnew[c, j] += lam * t
        U = _chol_solve(Lh, B)  # (M p, mc M)
        PenU = np.empty((M * p, mc * M))  # blockdiag(Pen) U
        Uj = np.empty((p, mc * M))
        for j in range(M):
            for r in range(p):
                for cb in range(mc * M):
                    Uj[r, cb] = U[j * p + r, cb]
            PU = np.dot(Pen, Uj)
            for r in range(p):
                for cb in range(mc * M):
                    PenU[j * p + r, cb] = PU[r, cb]
        # every candidate's step dn (mc, M), the terms of its new coefficient and the bound on its score
        dnc = np.empty((mc, M))
        rest = np.empty((mc, M))  # the terms of the new coefficient: λ dn_j K_lS θ_j + ½ λ K_ll dn_j²
        bound = np.empty(mc)
        Sm = np.empty((M, M))
        rhs = np.empty((M, 1))
        for c in range(mc):
            l = cand[c0 + c]
            for a in range(M):
                t = gnew[c, a]
                for r in range(M * p):
                    t -= B[r, c * M + a] * u[r, 0]
                rhs[a, 0] = t
                for b in range(M):
                    t = D[c, a * M + b]
                    for r in range(M * p):
                        t -= B[r, c * M + a] * U[r, c * M + b]
                    Sm[a, b] = t
            # a candidate that adds no new direction (e.g. a duplicate point) cannot lower H
            degenerate = False
            for a in range(M):
                if not (Sm[a, a] > 1e-12 * max(D[c, a * M + a], 1e-300)):
                    degenerate = True
            if degenerate:
                bound[c] = np.inf
                continue
            Ls, sts = _cholesky(Sm)  # the M x M Schur complement
            if sts != 0:
                bound[c] = np.inf
                continue
            x = _chol_solve(Ls, rhs)
            for a in range(M):
                dnc[c, a] = -x[a, 0]
            # old parameters: theta - u - U_c dn
            lin = 0.0  # ⟨∇ℓ(F⁰), Δ_l⟩ with Δ_l = K_l dn − Φ U_c dn, and the sum of its terms' sizes
            lin_abs = 0.0
            for j in range(M):
                for r in range(p):
                    t = theta[r, j] - u[j * p + r, 0]
                    w = 0.0
                    for b in range(M):
                        t -= U[j * p + r, c * M + b] * dnc[c, b]
                        w += U[j * p + r, c * M + b] * dnc[c, b]
                    thn[r, j] = t
                    lin -= PhiG0[r, j] * w
                    lin_abs += abs(PhiG0[r, j] * w)
                lin += KG0[c, j] * dnc[c, j]
                lin_abs += abs(KG0[c, j] * dnc[c, j])
            for j in range(M):
                t = 0.0
                for s in range(q):
                    t += K[l, idx[s]] * thn[off + s, j]
                rest[c, j] = lam * dnc[c, j] * t + 0.5 * lam * K[l, l] * dnc[c, j] * dnc[c, j]
            # the penalty ½ Σ_j (θ⁰_j − v_j)' Pen (θ⁰_j − v_j), v = U_c dn, from Pen θ⁰ and Pen U: O(p M²)
            pen = pen0
            pen_abs = abs(pen0)
            for j in range(M):
                for r in range(p):
                    v = theta0[r, j] - thn[r, j]
                    pv = 0.0
                    for b in range(M):
                        pv += PenU[j * p + r, c * M + b] * dnc[c, b]
                    e = v * (0.5 * pv - PenTh0[r, j])
                    pen += e
                    pen_abs += abs(v * PenTh0[r, j]) + abs(0.5 * v * pv)
            bnd = loss0 + lin + pen
            for j in range(M):
                bnd += rest[c, j]
            bound[c] = bnd - margin - 1e-9 * (lin_abs + pen_abs)
        order = _argsort_stable(bound, prune)
        for o in range(mc):
            c = order[o]
            if bound[c] == np.inf:
                scores[c0 + c] = np.inf
                continue
            if prune and bound[c] > best:
                scores[c0 + c] = bound[c]
                continue
            for j in range(M):
                for r in range(p):
                    t = theta[r, j] - u[j * p + r, 0]
                    for b in range(M):
                        t -= U[j * p + r, c * M + b] * dnc[c, b]
                    thn[r, j] = t
            for j in range(M):
                for i in range(N):
                    FnT[j, i] = F0T[j, i] + KRT[c, i] * dnc[c, j]
                for b in range(M):
                    db = dnc[c, b]
                    for i in range(N):  # (Φ U_c)_jb (N,), summed over r in order
                        PhiU[i] = 0.0
                    for r in range(p):
                        ujr = U[j * p + r, c * M + b]
                        if ujr != 0.0:
                            for i in range(N):
                                PhiU[i] += ujr * PhiT[r, i]
                    for i in range(N):
                        FnT[j, i] -= PhiU[i] * db
            val = _loss_only_T(FnT, YT, S) + _penalty(Pen, thn)
            for j in range(M):
                val += rest[c, j]
            scores[c0 + c] = val
            if val < best or (val == best and c0 + c < best_c):
                best = val
                best_c = c0 + c
                for r in range(p):
                    for j in range(M):
                        theta_best[r, j] = thn[r, j]
                for j in range(M):
                    theta_best[p, j] = dnc[c, j]
    return scores, best_c, theta_best


def _scores_full(K, idx, cand, theta, Y, lam, icpt, tol, max_iter, S=_UNWEIGHTED):
    """(B2) H(x_l) after a full Newton solve for every candidate (warm start (theta, 0)).

    A loop in Python over :func:`_newton_fit` (one Newton solve per candidate outweighs the call).
    Returns ``(scores, worst_status)``.
    """
    M = Y.shape[1]
    q = idx.shape[0]
    off = 1 if icpt else 0
    scores = np.empty(cand.shape[0])
    worst = 0
    for c in range(cand.shape[0]):
        idx_l = np.append(idx, cand[c]).astype(np.int64)
        th = np.zeros((q + 1 + off, M))
        th[:q + off] = theta[:q + off]
        st, H, _, _, _, _, _, _ = _newton_fit(_build_phi(K, idx_l, icpt), _build_pen(K, idx_l, icpt, lam), Y, th,
                                              tol, max_iter, False, S)
        worst = max(worst, int(st))
        scores[c] = H
    return scores, worst


# --------------------------------------------------------------------------- the IVM (Zhu & Hastie 2002, B1-B4)
def _refit(K, idx, icpt, lam, Y, theta, tol, max_iter, S=_UNWEIGHTED):
    """Refit the sub-model on the import set ``idx`` by :func:`_newton_fit` (theta in place) and return
    what the (B2*) scores of the next step start from.

    Returns ``(status, H, Phi, Pen, F, P, G, Lh, chol_status)``: Newton's status and H; Φ and the
    penalty matrix; the fitted logits F = Φθ and probabilities P (N, M); the gradient G (M p,) and
    the lower Cholesky factor Lh of the Hessian at θ (``chol_status`` ≠ 0: it has none).
    """
    Phi = _build_phi(K, idx, icpt)
    Pen = _build_pen(K, idx, icpt, lam)
    st, H, _, F, P, G, Lh, stc = _newton_fit(Phi, Pen, Y, theta, tol, max_iter, True, S)
    return st, H, Phi, Pen, F, P, G, Lh, stc


def _ivm_fit(K, Y, lam, icpt, idx0, theta0, r, eps, max_import, method, tol, max_iter, chunk, S=None):
    """:func:`_ivm_greedy` with BLAS on one thread (:func:`svmviz._blas.one_blas_thread`: the products of a
    fit are small, (p × N)(N × p) with p = |S| + 1 a few dozen, and there are thousands of them); the
    same arguments and result."""
    with one_blas_thread():
        return _ivm_greedy(K, Y, lam, icpt, idx0, theta0, r, eps, max_import, method, tol, max_iter, chunk, S)


def _ivm_greedy(K, Y, lam, icpt, idx0, theta0, r, eps, max_import, method, tol, max_iter, chunk, S=None):
    """Greedy forward selection of import points with the stopping rule of (Zhu & Hastie 2002, §3.3).

    Starts from the import set ``idx0`` (empty, or warm-started from a larger lambda (Zhu & Hastie 2002, C5)) with
    coefficients ``theta0`` (p0, M) as Newton's starting value, refits, then adds the candidate with
    the smallest H(x_l) ((B2*) one-step or (B2) full Newton), refits the enlarged sub-model exactly
    and records H_k, until |H_k - H_{k-r}| / |H_k| < eps (k >= r, H_0 = the starting fit).

    The greedy loop itself is Python around two compiled functions per step (:func:`_refit`, then
    :func:`_scores_onestep` or :func:`_scores_full`): a few dozen steps per fit, as fast as with the
    loop in numba once compiled, against compiling the loop — and with it both scoring methods — on a
    fresh install (element loops rather than slice assignments inside the compiled functions shorten
    that first compilation too).

    Parameters are those of :class:`svmviz.ivm.IVMClassifier` after validation (K (N, N) and Y (N, M)
    C-contiguous float64, idx0 int64, theta0 (len(idx0) + icpt, M)).

    ``S``: sample weights s_i of the loss Σ_i s_i ℓ_i in H, in the refits and in the candidates' scores
    alike (None: every s_i = 1, the paper's H). A point of weight 0 is no candidate: it adds no loss,
    and as an import point it would add a basis function K(x_l, ·) a removed row would not.

    Returns ``(status, idx, theta, H_hist, nS_hist, H_score_hist)``.
    """
    N = K.shape[0]
    S = _UNWEIGHTED if S is None else np.ascontiguousarray(S, dtype=np.float64)
    eligible = np.ones(N, dtype=bool) if S.shape[0] == 0 else S > 0
    M = Y.shape[1]
    off = 1 if icpt else 0
    lam, icpt, tol, max_iter, chunk = float(lam), bool(icpt), float(tol), int(max_iter), int(chunk)
    idx = np.array(idx0, dtype=np.int64)
    q = idx.shape[0]
    selected = np.zeros(N, dtype=bool)
    selected[idx] = True
    theta = np.array(theta0, dtype=np.float64, order="C")
    st, H, Phi, Pen, F, P, G, Lh, stc = _refit(K, idx, icpt, lam, Y, theta, tol, max_iter, S)
    worst = int(st)
    Hh, nS, Hsc = [H], [q], [np.nan]
    k = 0
    status = OK
    while True:
        cand = np.flatnonzero(~selected & eligible).astype(np.int64)
        if cand.size == 0:
            status = OK
            break
        if q >= max_import:
            status = MAX_IMPORT
            break
        if method == METHOD_ONESTEP:
            if stc != 0:
                worst = NUMERICAL
                status = NUMERICAL
                break
            scores, best_c, theta_best = _scores_onestep(K, idx, cand, Phi, Pen, Y, theta, F, P, Lh, G, lam, icpt,
                                                         chunk, S, True)
        else:
            scores, stf = _scores_full(K, idx, cand, theta, Y, lam, icpt, tol, max_iter, S)
            worst = max(worst, int(stf))
        usable = scores < np.inf  # inf: the candidate adds no new direction (NaN never wins either)
        if not usable.any():
            # no candidate adds a new direction: the sub-model cannot improve
            status = OK
            break
        best = int(np.argmin(np.where(usable, scores, np.inf)))  # the first minimum
        bval = float(scores[best])
        l = int(cand[best])
        idx = np.append(idx, l)
        selected[l] = True
        q += 1
        if method == METHOD_ONESTEP and best == best_c and bval < H:
            # Newton on S ∪ {l} starts from the candidate's one-step parameters: the first Newton step
            # from (θ, 0), already taken by its score, which lowered H
            theta = np.ascontiguousarray(theta_best)
        else:
            th = np.zeros((q + off, M))
            th[:q + off - 1] = theta
            theta = th
        st, H, Phi, Pen, F, P, G, Lh, stc = _refit(K, idx, icpt, lam, Y, theta, tol, max_iter, S)
        worst = max(worst, int(st))
        k += 1
        Hh.append(H)
        nS.append(q)
        Hsc.append(bval)
        if k >= r and abs(Hh[k] - Hh[k - r]) < eps * abs(Hh[k]):
            status = OK
            break
    status = max(status, worst)
    return (status, idx.copy(), theta, np.array(Hh, dtype=np.float64), np.array(nS, dtype=np.int64),
            np.array(Hsc, dtype=np.float64))
