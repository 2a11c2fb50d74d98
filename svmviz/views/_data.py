"""What the views read of a page's data set, beside its arrays."""
from __future__ import annotations


def dataset_seed(ds) -> int:
    """The seed a page derives its own random choices from (splits, test samples).

    Parameters
    ----------
    ds : svmviz.data.Dataset

    Returns
    -------
    int
        The data set's generator seed, 0 for data without one (uploaded files).
    """
    seed = ds.params.get("seed") if isinstance(ds.params, dict) else None
    return int(seed) if seed is not None else 0
