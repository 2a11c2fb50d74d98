"""libsvm's rules around the binary SVM that :class:`~svmviz.svm.SVMClassifier` follows to be
scikit-learn's ``SVC`` where their meanings agree: ``gamma="scale"``/``"auto"``, the one-vs-one
decision values and votes, the one-vs-rest transformation of the one-vs-one values, and Platt's
probabilities with pairwise coupling.

References: Platt (2000), "Probabilistic outputs for support vector machines", with the
Newton method of Lin, Lin & Weng (2007), "A note on Platt's probabilistic outputs for support vector
machines", Algorithm 1; Wu, Lin & Weng (2004), "Probability estimates for multi-class classification
by pairwise coupling", §4 (method 2, eq. 21); Chang & Lin, "LIBSVM: a library for support vector
machines" (2011), §7–8 (one-vs-one, internal 5-fold cross-validation for the decision values).
"""
from __future__ import annotations

import numpy as np

#: the folds of libsvm's internal cross-validation for Platt's decision values
PLATT_FOLDS = 5
#: libsvm bounds the pairwise probabilities to [MIN_PROB, 1 − MIN_PROB] before coupling them
MIN_PROB = 1e-7


def resolve_gamma(gamma, X) -> float:
    """scikit-learn's ``gamma``: ``"scale"`` is 1/(d · Var(X)) (1 where X is constant), ``"auto"``
    is 1/d, a number is itself (d the number of features; Var over every entry of X)."""
    if isinstance(gamma, str):
        if gamma == "scale":
            var = float(np.var(X))
            if not np.isfinite(var):
                raise ValueError("gamma='scale' is 1/(d·Var(X)), and Var(X) overflows for this X (values near the "
                                 "largest float): rescale X, or give gamma as a number.")
            return 1.0 / (X.shape[1] * var) if var != 0 else 1.0
        if gamma == "auto":
            return 1.0 / X.shape[1]
        raise ValueError(f"gamma must be a positive number, 'scale' or 'auto' (as in scikit-learn); got {gamma!r}.")
    return gamma


def class_pairs(n_classes: int) -> list[tuple[int, int]]:
    """The one-vs-one pairs (i, j), i < j, in libsvm's order (0, 1), (0, 2), …, (1, 2), …"""
    return [(i, j) for i in range(n_classes) for j in range(i + 1, n_classes)]


def ovo_votes(dec, n_classes: int) -> np.ndarray:
    """libsvm's votes: pair (i, j)'s value > 0 is a vote for i, else for j.

    Parameters
    ----------
    dec : ndarray of shape (m, n_classes (n_classes − 1)/2)
        One-vs-one decision values, positive for the first class of each pair.

    Returns
    -------
    ndarray of shape (m, n_classes)
    """
    votes = np.zeros((dec.shape[0], n_classes))
    for k, (i, j) in enumerate(class_pairs(n_classes)):
        votes[:, i] += dec[:, k] > 0
        votes[:, j] += dec[:, k] <= 0
    return votes


def ovr_decision(dec, n_classes: int) -> np.ndarray:
    """scikit-learn's one-vs-rest shape of one-vs-one decision values: each class's votes plus its
    summed confidences mapped into (−1/3, 1/3), so that the confidences break ties between equal
    votes and never outweigh a vote.

    Parameters
    ----------
    dec : ndarray of shape (m, n_classes (n_classes − 1)/2)
        One-vs-one decision values, positive for the first class of each pair.

    Returns
    -------
    ndarray of shape (m, n_classes)
    """
    conf = np.zeros((dec.shape[0], n_classes))
    for k, (i, j) in enumerate(class_pairs(n_classes)):
        conf[:, i] += dec[:, k]
        conf[:, j] -= dec[:, k]
    votes = np.zeros((dec.shape[0], n_classes))
    for k, (i, j) in enumerate(class_pairs(n_classes)):
        votes[:, i] += dec[:, k] >= 0
        votes[:, j] += dec[:, k] < 0
    return votes + conf / (3.0 * (np.abs(conf) + 1.0))


def _sigmoid_nll(f, t, A, B) -> float:
    """−Σ t log p + (1 − t) log(1 − p), p = 1/(1 + exp(A f + B)), computed without overflow."""
    z = f * A + B
    return float(np.sum(np.where(z >= 0, t * z + np.log1p(np.exp(-np.abs(z))),
                                 (t - 1.0) * z + np.log1p(np.exp(-np.abs(z))))))


def sigmoid_train(f, y_pm, *, max_iter: int = 100, min_step: float = 1e-10, ridge: float = 1e-12,
                  eps: float = 1e-5) -> tuple[float, float]:
    """Platt's sigmoid P(y = +1 | f) = 1/(1 + exp(A f + B)) fitted to decision values ``f``.

    Maximum likelihood with Platt's regularized targets (n₊ + 1)/(n₊ + 2) and 1/(n₋ + 2), by the
    Newton method with backtracking of Lin, Lin & Weng (2007), Algorithm 1 (libsvm's
    ``sigmoid_train``).

    Parameters
    ----------
    f : ndarray of shape (n,)
        Decision values (held out from the fits that made them).
    y_pm : ndarray of shape (n,)
        Labels ±1.

    Returns
    -------
    (A, B) : tuple of float
    """
    f = np.asarray(f, dtype=np.float64)
    pos = y_pm > 0
    n1, n0 = float(np.sum(pos)), float(np.sum(~pos))
    t = np.where(pos, (n1 + 1.0) / (n1 + 2.0), 1.0 / (n0 + 2.0))
    A, B = 0.0, float(np.log((n0 + 1.0) / (n1 + 1.0)))
    fval = _sigmoid_nll(f, t, A, B)
    for _ in range(max_iter):
        z = f * A + B
        e = np.exp(-np.abs(z))
        p = np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))  # 1/(1 + exp(z))
        q = 1.0 - p
        d2 = p * q
        h11, h22, h21 = ridge + float(f * f @ d2), ridge + float(np.sum(d2)), float(f @ d2)
        d1 = t - p
        g1, g2 = float(f @ d1), float(np.sum(d1))
        if abs(g1) < eps and abs(g2) < eps:
            break
        det = h11 * h22 - h21 * h21
        dA, dB = -(h22 * g1 - h21 * g2) / det, -(-h21 * g1 + h11 * g2) / det
        gd = g1 * dA + g2 * dB
        step = 1.0
        while step >= min_step:
            nA, nB = A + step * dA, B + step * dB
            nf = _sigmoid_nll(f, t, nA, nB)
            if nf < fval + 1e-4 * step * gd:
                A, B, fval = nA, nB, nf
                break
            step /= 2.0
        if step < min_step:
            break
    return A, B


def sigmoid_predict(f, A: float, B: float) -> np.ndarray:
    """P(y = +1 | f) = 1/(1 + exp(A f + B)), without overflow."""
    z = np.asarray(f, dtype=np.float64) * A + B
    e = np.exp(-np.abs(z))
    return np.where(z >= 0, e / (1.0 + e), 1.0 / (1.0 + e))


def couple_pairwise(r, *, max_iter: int | None = None) -> np.ndarray:
    """Class probabilities from pairwise ones by Wu, Lin & Weng (2004), method 2 (eq. 21; libsvm's
    ``multiclass_probability``), for many points at once.

    Parameters
    ----------
    r : ndarray of shape (m, k, k)
        ``r[:, i, j]`` = P(class i | class i or j, x), with ``r[:, j, i] = 1 − r[:, i, j]``.

    Returns
    -------
    ndarray of shape (m, k)
        Probabilities summing to 1 on each row.
    """
    m, k = r.shape[0], r.shape[1]
    off = ~np.eye(k, dtype=bool)
    Q = -r.transpose(0, 2, 1) * r  # Q[t, j] = −r[j, t] r[t, j]
    diag = np.einsum("mjt,mjt,jt->mt", r, r, off.astype(float))  # Σ_{j≠t} r[j, t]²
    Q[:, np.arange(k), np.arange(k)] = diag
    p = np.full((m, k), 1.0 / k)
    eps = 0.005 / k
    active = np.ones(m, dtype=bool)
    for _ in range(max(100, k) if max_iter is None else max_iter):
        Qp = np.einsum("mtj,mj->mt", Q, p)
        pQp = np.einsum("mt,mt->m", p, Qp)
        active &= np.max(np.abs(Qp - pQp[:, None]), axis=1) >= eps
        if not active.any():
            break
        a = np.flatnonzero(active)
        Qa, pa, Qpa, pQpa = Q[a], p[a], Qp[a], pQp[a]
        for t in range(k):
            diff = (-Qpa[:, t] + pQpa) / Qa[:, t, t]
            pa[:, t] += diff
            pQpa = (pQpa + diff * (diff * Qa[:, t, t] + 2.0 * Qpa[:, t])) / (1.0 + diff) ** 2
            Qpa = (Qpa + diff[:, None] * Qa[:, t, :]) / (1.0 + diff)[:, None]
            pa /= (1.0 + diff)[:, None]
        p[a] = pa
    return p
