"""Slow, obviously-correct kernel matrices: one pair of rows at a time, no BLAS. Never used by the package."""
from __future__ import annotations

import numpy as np


def squared_distances(A, B):
    out = np.empty((len(A), len(B)))
    for i, a in enumerate(A):
        for j, b in enumerate(B):
            out[i, j] = np.sum((a - b) ** 2)
    return out


def linear_gram(A, B):
    out = np.empty((len(A), len(B)))
    for i, a in enumerate(A):
        for j, b in enumerate(B):
            out[i, j] = np.sum(a * b)
    return out


def poly_gram(A, B, degree, gamma, coef0):
    return (gamma * linear_gram(A, B) + coef0) ** degree
