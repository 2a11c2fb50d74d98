"""Slow, obviously-correct references for kernel logistic regression and the IVM (Zhu & Hastie 2002).

Plain numpy, written independently of ``svmviz.ivm._klr``: the gradient and Hessian are assembled
point by point from Kronecker products, Newton is undamped with ``numpy.linalg.solve``, and the
basic IVM (B2) refits every candidate from scratch. Never used by the package.
"""
from __future__ import annotations

import numpy as np
from scipy.special import logsumexp

from tests.naive.svm import rbf_gram  # noqa: F401 (re-exported for test_ivm)


def design(K, S, icpt):
    """Phi = [1, K[:, S]] and the penalty block K[S, S] padded with a zero row/column."""
    S = list(S)
    cols = [np.ones(K.shape[0])] if icpt else []
    cols += [K[:, s] for s in S]
    Phi = np.column_stack(cols) if cols else np.zeros((K.shape[0], 0))
    off = 1 if icpt else 0
    Q = np.zeros((len(S) + off, len(S) + off))
    Q[off:, off:] = K[np.ix_(S, S)]
    return Phi, Q


def objective(Phi, Q, Y, lam, theta):
    """H = Σ_i [−y_i'f_i + ln(1 + Σ_j e^{f_ij})] + (λ/2) Σ_j θ_j'Qθ_j ; theta (p, M)."""
    F = Phi @ theta
    Fz = np.column_stack([F, np.zeros(len(F))])
    nll = float(np.sum(logsumexp(Fz, axis=1)) - np.sum(Y * F))
    return nll + 0.5 * lam * float(np.sum(theta * (Q @ theta)))


def grad_hess(Phi, Q, Y, lam, theta):
    """Gradient (M·p,) and Hessian (M·p, M·p), class-major: Σ_i (p_i − y_i) ⊗ φ_i and
    Σ_i (diag(p_i) − p_i p_i') ⊗ φ_i φ_i' (einsum over observations), plus the penalty."""
    N, p = Phi.shape
    M = Y.shape[1]
    F = Phi @ theta
    Fz = np.column_stack([F, np.zeros(N)])
    Pr = np.exp(Fz - logsumexp(Fz, axis=1, keepdims=True))[:, :M]
    g = np.einsum("ia,ir->ar", Pr - Y, Phi).ravel()
    Wi = np.einsum("ia,ab->iab", Pr, np.eye(M)) - np.einsum("ia,ib->iab", Pr, Pr)
    Hs = np.einsum("iab,ir,is->arbs", Wi, Phi, Phi).reshape(M * p, M * p)
    g += lam * np.kron(np.eye(M), Q) @ theta.T.ravel()
    Hs += lam * np.kron(np.eye(M), Q)
    return g, Hs


def newton(Phi, Q, Y, lam, theta0=None, n_iter=60):
    """Undamped Newton to machine precision; returns (theta (p, M), H)."""
    p, M = Phi.shape[1], Y.shape[1]
    th = np.zeros((p, M)) if theta0 is None else theta0.copy()
    for _ in range(n_iter):
        g, Hs = grad_hess(Phi, Q, Y, lam, th)
        step = np.linalg.solve(Hs, g)
        th = th - step.reshape(M, p).T
        if np.max(np.abs(step)) < 1e-13 * max(1.0, np.max(np.abs(th))):
            break
    return th, objective(Phi, Q, Y, lam, th)


def one_step_score(K, S, l, Y, lam, theta, icpt):
    """H after ONE Newton step on S ∪ {l}, starting from (theta, 0) — the (B2*) score."""
    Phi, Q = design(K, list(S) + [l], icpt)
    th0 = np.vstack([theta, np.zeros((1, Y.shape[1]))])
    g, Hs = grad_hess(Phi, Q, Y, lam, th0)
    th1 = th0 - np.linalg.solve(Hs, g).reshape(Y.shape[1], -1).T
    return objective(Phi, Q, Y, lam, th1)


def basic_ivm(K, Y, lam, icpt=True, r=1, eps=1e-3, max_steps=None):
    """The basic algorithm (Zhu & Hastie 2002, B1–B4): full refit of every candidate from zero.

    Returns (S list, H list with H_0 = the intercept-only / empty fit).
    """
    N = K.shape[0]
    S: list[int] = []
    Phi, Q = design(K, S, icpt)
    _, H0 = newton(Phi, Q, Y, lam)
    Hs = [H0]
    max_steps = N if max_steps is None else max_steps
    while len(S) < min(N, max_steps):
        best, bval = None, np.inf
        for l in range(N):
            if l in S:
                continue
            Phi, Q = design(K, S + [l], icpt)
            _, h = newton(Phi, Q, Y, lam)
            if h < bval:
                best, bval = l, h
        S.append(best)
        Hs.append(bval)
        k = len(Hs) - 1
        if k >= r and abs(Hs[k] - Hs[k - r]) / abs(Hs[k]) < eps:
            break
    return S, Hs


def indicator(codes, M):
    """(N, M) indicators of classes 0..M-1 (class M is the base)."""
    Y = np.zeros((len(codes), M))
    for j in range(M):
        Y[:, j] = codes == j
    return Y
