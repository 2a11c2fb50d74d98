"""The data sets of the pages: generated once per (generator, n, seed, parameters), and what a page derives from them.

:mod:`svmviz.data` is imported at the first data set made: it brings in scikit-learn (≈ 2 s at a
server's start), which the home page, the first thing a visitor waits for, does not need.
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from svmviz.ui import compute
from svmviz.views import dataset_seed  # noqa: F401  (the pages' seed, read by the views too)


def load_dataset(name: str, n: int | None, seed: int, params: Mapping | None = None):
    """:func:`svmviz.data.make_dataset`, kept in the app's cache (:func:`svmviz.ui.compute.cached`).

    The data set is shared, read-only, by every session asking for the same generator, n, seed and
    parameters."""
    params = tuple(sorted((params or {}).items()))

    def make():
        from svmviz import data

        return data.make_dataset(name, n=n, seed=int(seed), **dict(params))

    return compute.cached("dataset", (name, n, int(seed), params), make, max_entries=64)


def data_token(X, y) -> tuple:
    """A cheap fingerprint of a data set (shape and sums): what data-dependent defaults depend on."""
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return (X.shape, round(float(X.sum()), 9), round(float((X * X).sum()), 9), round(float(y @ np.arange(y.size)), 9))
