"""Splits and subsamples of a data set — seeded and stratified: train/test(/validation) parts, fresh samples, subsamples.

The pages hold out data by these rules only: :func:`split_indices` cuts the rows of a data set without a
generator into parts of given fractions (every class in proportion); :func:`fresh_sample` draws new points of a
simulation for a role (tuning, test) from the generator's independent test stream; :func:`subsample_dataset`
keeps fewer rows of an upload.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._validation import check_int
from .dataset import Dataset, _check_seed

#: Seed offsets of :func:`fresh_sample`'s roles: the tuning and the test points of one data set never share a
#: stream of the generator's test sampler (and neither shares the training stream, see Dataset.test_sample).
SAMPLE_ROLES = {"tuning": 10_000, "test": 20_000}
# Cut points are floor(cumulative fraction · n); fractions such as 0.7 are not exact in binary (0.7 · 10 =
# 7.000000000000001 but 0.35 · 20 = 6.999999999999999), so the floor is taken after adding this much.
_CUT_SLACK = 1e-9


def _stratified_subset(yi: np.ndarray, n: int, rng, K: int) -> np.ndarray:
    """Indices of a stratified random subset of size n (proportional allocation by largest
    remainder, at least 2 per class)."""
    counts = np.bincount(yi, minlength=K)
    if n < 2 * K:
        raise ValueError(f"n must be at least {2 * K} (2 points per class); got {n}.")
    quota = counts * n / counts.sum()
    alloc = np.maximum(np.floor(quota).astype(int), 2)
    alloc = np.minimum(alloc, counts)
    while alloc.sum() < n:
        j = int(np.argmax(np.where(alloc < counts, quota - alloc, -np.inf)))
        alloc[j] += 1
    while alloc.sum() > n:
        j = int(np.argmax(np.where(alloc > 2, alloc - quota, -np.inf)))
        alloc[j] -= 1
    idx = np.concatenate([rng.choice(np.flatnonzero(yi == j), size=alloc[j], replace=False) for j in range(K)])
    return rng.permutation(idx)


def split_indices(y, fractions=(0.7, 0.3), seed: int = 0) -> tuple[np.ndarray, ...]:
    """Seeded, stratified split of the rows of a labelled sample into parts of the given fractions.

    The one split rule of svmviz for data without a generator of new points (uploads, real data): a
    train/test split ``(0.7, 0.3)``, or train/tuning/test ``(0.5, 0.25, 0.25)``.

    Parameters
    ----------
    y : array_like of shape (n,)
        Class labels (any values; each distinct value is a class).
    fractions : sequence of float > 0 summing to 1, length ≥ 2
        Share of the rows in each part. Part j ends at row ⌊(f₁ + … + f_j)·n⌋ of the interleaved order
        below, so the sizes are those of a plain random split (the last part takes the rest).
    seed : int ≥ 0
        Same seed, same parts.

    Returns
    -------
    tuple of ndarray of int64
        One index array per part, each in random order; together a partition of ``range(n)``.

    Notes
    -----
    Stratification: the rows of each class are shuffled and the classes interleaved — the j-th row of a
    class of n_c rows is placed at (j + ½)/n_c — so every prefix of the order, and therefore every part,
    holds each class in its proportion of the sample within two rows.

    Raises
    ------
    ValueError
        Fractions that are not positive or do not sum to 1, fewer rows than parts, a negative seed.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0] * 30 + [1] * 10)
    >>> tr, te = split_indices(y, (0.7, 0.3), seed=1)
    >>> tr.size, te.size, int((y[tr] == 1).sum()), int((y[te] == 1).sum())
    (28, 12, 7, 3)
    """
    seed = _check_seed(seed)
    y = np.asarray(y).ravel()
    n = y.shape[0]
    try:
        f = np.asarray(fractions, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"fractions must be numbers, e.g. (0.7, 0.3); got {fractions!r}.") from None
    if f.size < 2 or not np.all(np.isfinite(f)) or np.any(f <= 0) or abs(float(f.sum()) - 1.0) > 1e-9:
        raise ValueError(f"fractions must be at least two positive numbers summing to 1, e.g. (0.7, 0.3); "
                         f"got {fractions!r}.")
    if n < f.size:
        raise ValueError(f"{n} rows cannot be split into {f.size} parts.")
    rng = np.random.default_rng(seed)
    _, yi = np.unique(y, return_inverse=True)
    key = np.empty(n)
    for c in range(int(yi.max()) + 1):
        rows = np.flatnonzero(yi == c)
        key[rng.permutation(rows)] = (np.arange(rows.size) + 0.5) / rows.size
    order = np.lexsort((rng.random(n), key))  # ties between classes broken at random
    cuts = np.floor(np.cumsum(f[:-1]) * n + _CUT_SLACK).astype(np.int64)
    return tuple(rng.permutation(part) for part in np.split(order, cuts))


def fresh_sample(ds: Dataset, n: int, seed: int = 0, role: str = "test") -> Dataset:
    """New points from the law of a simulated data set, for a role: ``"tuning"`` or ``"test"``.

    Parameters
    ----------
    ds : Dataset
        A data set with a generator of new points (``ds.test_sample`` not None).
    n : int
        Number of points.
    seed : int ≥ 0
        The data set's seed; the role's offset (:data:`SAMPLE_ROLES`) is added, so tuning and test points
        come from different streams.
    role : {"tuning", "test"}

    Returns
    -------
    Dataset
        ``ds.test_sample(n, seed=SAMPLE_ROLES[role] + seed)``.

    Raises
    ------
    ValueError
        A data set without a generator of new points (split it with :func:`split_indices`), or an
        unknown role.
    """
    if ds.test_sample is None:
        raise ValueError(f"{ds.name} has no generator of new points; split its rows with split_indices.")
    if role not in SAMPLE_ROLES:
        raise ValueError(f"role must be one of {', '.join(SAMPLE_ROLES)}; got {role!r}.")
    return ds.test_sample(int(n), seed=SAMPLE_ROLES[role] + _check_seed(seed))


def subsample_dataset(ds: Dataset, n: int, seed: int = 0) -> Dataset:
    """A seeded, stratified random subsample of ``n`` rows of ``ds`` (classes kept in proportion).

    For data sets larger than a computation can hold — the criteria surface keeps about 3 n²
    doubles — the pages offer this instead of using every row of an uploaded file.

    Parameters
    ----------
    ds : Dataset
        Any data set (two or more classes).
    n : int
        Rows to keep, at least 2 per class. ``n`` ≥ the rows of ``ds`` returns ``ds`` unchanged.
    seed : int
        Same seed, same rows.

    Returns
    -------
    Dataset
        ``X`` of shape (n, d) and ``y`` of shape (n,) in a random order; each class gets its share
        of n by largest remainder (at least 2 points, at most all of its points). ``name``,
        ``classes``, ``feature_names``, the truth and ``test_sample`` are those of ``ds``;
        ``params`` gains ``subsample_of`` (the original row count), ``n`` and ``seed``; ``notes``
        gains one saying what was kept.

    Raises
    ------
    ValueError
        ``n`` smaller than 2 per class, or a negative seed.

    Examples
    --------
    >>> from svmviz.data import make_dataset
    >>> ds = make_dataset("banana", n=400, seed=1)
    >>> sub = subsample_dataset(ds, 100, seed=3)
    >>> sub.X.shape, int((sub.y > 0).sum()) == round(100 * float((ds.y > 0).mean()))
    ((100, 2), True)
    """
    N = ds.X.shape[0]
    n = check_int(n, "n", minimum=1)
    seed = _check_seed(seed)
    if n >= N:
        return ds
    K = ds.n_classes
    yi = ds.y.astype(np.int64) if ds.is_multiclass else (ds.y > 0).astype(np.int64)
    idx = _stratified_subset(yi, n, np.random.default_rng(seed), K)
    note = (f"Using a stratified random subsample of {n} of the {N} rows (seed {seed}): each class keeps its "
            "share of the rows.")
    return replace(ds, X=np.ascontiguousarray(ds.X[idx]), y=ds.y[idx].copy(),
                   params={**ds.params, "n": n, "seed": seed, "subsample_of": N}, notes=tuple(ds.notes) + (note,))
