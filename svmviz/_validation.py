"""Shared input checks for the public API: each raises ``ValueError`` saying what to fix."""
from __future__ import annotations

import numpy as np


def check_matrix(X, name: str = "X", *, min_rows: int = 1) -> np.ndarray:
    """Return ``X`` as a C-contiguous float64 (n, d) array, or raise ``ValueError``."""
    try:
        A = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric; could not convert it to numbers ({exc}).") from None
    if A.ndim == 1:
        A = A.reshape(-1, 1)
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (n_samples, n_features); got shape {A.shape}.")
    if A.shape[0] < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} rows; got {A.shape[0]}.")
    if A.shape[1] == 0:
        raise ValueError(f"{name} has no feature columns.")
    if not np.all(np.isfinite(A)):
        bad = np.argwhere(~np.isfinite(A))[0]
        raise ValueError(
            f"{name} contains NaN or infinite values (first at row {bad[0]}, column {bad[1]}); "
            "remove or impute them."
        )
    return np.ascontiguousarray(A)


def check_labels(y, n: int | None = None):
    """Validate class labels (1-D, n of them, finite, at least two classes).

    Returns ``(labels, classes)``: the labels as a 1-D array and their sorted distinct values.
    """
    yy = np.asarray(y)
    if yy.ndim != 1:
        yy = yy.ravel()
    if n is not None and yy.shape[0] != n:
        raise ValueError(f"y has {yy.shape[0]} labels but X has {n} rows; they must match.")
    if yy.dtype.kind == "f" and not np.all(np.isfinite(yy)):
        raise ValueError("y contains NaN or infinite values; every point needs a class label.")
    classes = np.unique(yy)
    if classes.size < 2:
        raise ValueError(
            f"y has only one class ({classes[0] if classes.size else 'none'}); a classifier needs two."
        )
    return yy, classes


def check_binary_labels(y, n: int | None = None, *, min_per_class: int = 1):
    """Map two-valued labels to ±1 floats.

    Returns ``(y_pm, classes)`` with ``classes[0] -> -1`` and ``classes[1] -> +1``. Labels already in
    {-1, +1} keep their meaning.
    """
    yy, classes = check_labels(y, n)
    if classes.size > 2:
        raise ValueError(
            f"y has {classes.size} classes ({', '.join(map(str, classes[:6]))}); this method is binary — "
            "choose a two-class data set or merge classes."
        )
    y_pm = np.where(yy == classes[1], 1.0, -1.0)
    counts = (int(np.sum(y_pm < 0)), int(np.sum(y_pm > 0)))
    if min(counts) < min_per_class:
        raise ValueError(
            f"each class needs at least {min_per_class} points; got {counts[0]} of {classes[0]} and "
            f"{counts[1]} of {classes[1]}."
        )
    return np.ascontiguousarray(y_pm), classes


def check_positive(value, name: str, *, allow_zero: bool = False) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number; got {value!r}.") from None
    if not np.isfinite(v) or v < 0 or (v == 0 and not allow_zero):
        need = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{name} must be a finite {need} number; got {value!r}.")
    return v
